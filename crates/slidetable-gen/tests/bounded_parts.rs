//! The search within D moves in parts (`generate --max-depth D --parts DIR`): every level the
//! published complete searches' count on 15 and 16 cells, in any number of processes (here
//! threads exchanging as processes do), and the parts joined the one-process file.

use std::fs;
use std::path::Path;
use std::thread;

use slidetable_core::{Board, Layout};
use slidetable_gen::engine::{
    solve_bounded, solve_bounded_in_parts, write_bounded_to, BoundedPartsDone, SolvedBounded,
};
use slidetable_gen::parts::threads;
use slidetable_gen::BoundedPartsPlan;
use slidetable_query::{BoundedTable, Reach};

/// Runs the search within `max_depth` of `goal` in `parts` threads writing into `dir`.
fn run(goal: Layout, max_depth: u32, dir: &Path, parts: u32) -> Vec<BoundedPartsDone> {
    let plan = BoundedPartsPlan {
        goal,
        max_depth,
        dir: dir.to_path_buf(),
    };
    let plan = &plan;
    thread::scope(|s| {
        let handles: Vec<_> = threads::group(parts)
            .into_iter()
            .map(|mut ex| s.spawn(move || solve_bounded_in_parts(plan, &mut ex, &mut |_| {})))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap().unwrap())
            .collect()
    })
}

fn file_of(solved: &SolvedBounded) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_bounded_to(&mut bytes, solved).unwrap();
    bytes
}

/// 4x4 (OEIS A089484) and 3x5 (OEIS A346737), blank in a corner, on 1 to 4 processes: every
/// level the published count, the directory read as a table, and its parts joined the file
/// of the one-process search at the same depth, byte for byte.
#[test]
fn levels_in_parts_are_the_published_counts_and_join_into_the_one_process_file() {
    let published = crate::generate::published();
    for (id, board, depth) in [
        ("A089484", Board::FIFTEEN, 14),
        ("A346737", Board::new(3, 5).unwrap(), 15),
    ] {
        let (_, _, _, counts) = published.iter().find(|p| p.0 == id).unwrap();
        let goal = board.standard_goal();
        let one = solve_bounded(&goal, depth, &mut |_| {}).unwrap();
        assert_eq!(one.histogram(), counts[..=depth as usize], "{id}");
        let file = file_of(&one);
        for parts in 1..=4 {
            let dir = tempfile::tempdir().unwrap();
            let done = run(goal, depth, dir.path(), parts);
            for d in &done {
                assert_eq!(
                    d.histogram,
                    counts[..=depth as usize],
                    "{id}, {parts} parts"
                );
            }
            assert_eq!(done.iter().filter(|d| d.manifest.is_some()).count(), 1);
            let table = BoundedTable::open(dir.path()).unwrap();
            assert_eq!(table.parts(), parts);
            assert_eq!(table.histogram(), counts[..=depth as usize]);
            table.verify().unwrap();
            let joined = SolvedBounded::from_levels(goal, table.joined_levels().unwrap());
            assert!(file_of(&joined) == file, "{id}: {parts} parts joined");
            // Every state of a level answers its distance, from whichever part holds it.
            let mut states = Vec::new();
            table.each_state(depth, |l| states.push(l)).unwrap();
            for l in states.iter().step_by(97) {
                assert_eq!(table.distance(l).unwrap(), Some(Reach::Moves(depth)));
            }
        }
    }
}

/// A directory whose parts do not make the manifest's table is refused, naming the part: a
/// part missing, a part of another run, an extra part; a part named alone is refused as a
/// part.
#[test]
fn parts_that_do_not_make_the_table_are_refused_by_name() {
    let goal = Board::new(3, 5).unwrap().standard_goal();
    let dir = tempfile::tempdir().unwrap();
    run(goal, 9, dir.path(), 3);
    let other = tempfile::tempdir().unwrap();
    run(goal, 8, other.path(), 3);
    let part1 = "part-0001-of-0003.slb";
    let refused = |what: &str| {
        let e = BoundedTable::open(dir.path())
            .err()
            .expect(what)
            .to_string();
        assert!(e.contains(part1) || e.contains("part-0009"), "{what}: {e}");
        e
    };
    fs::copy(dir.path().join(part1), other.path().join("keep")).unwrap();
    fs::copy(other.path().join(part1), dir.path().join(part1)).unwrap();
    let e = refused("a part of another run");
    assert!(
        e.contains("bytes, but the manifest records") || e.contains("another run"),
        "{e}"
    );
    fs::remove_file(dir.path().join(part1)).unwrap();
    let e = refused("a missing part");
    assert!(e.contains("is missing (part 1 of 3)"), "{e}");
    fs::copy(other.path().join("keep"), dir.path().join(part1)).unwrap();
    BoundedTable::open(dir.path()).unwrap();
    fs::write(dir.path().join("part-0009-of-0010.slb"), b"x").unwrap();
    let e = refused("an extra part");
    assert!(e.contains("is not one of the manifest's 3 parts"), "{e}");
    let e = BoundedTable::open(dir.path().join(part1))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("this is part 1 of 3"), "{e}");
}
