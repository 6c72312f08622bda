//! The generator's sections, checked entry by entry with the ranker alone: every stored
//! distance is the true distance (0 only at the goal, and no move changes it by more than
//! one), every stored first move is legal and optimal; and the writer replaces a file by
//! rename, never in place.

use slidetable_core::{Board, Ranker};
use slidetable_format::CostModel;
use slidetable_format::{byte_distance, byte_move};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{
    solve_bounded, solve_section, solve_sections, write_table, SolvedSection,
};
use slidetable_query::Table;

/// Checks one solved section against its goal, using only the ranker and the entry bytes.
///
/// Distance 0 at the goal alone, a first move that lowers the distance by exactly one, and
/// no neighbour more than one closer: together these say every stored distance is exact.
fn check_section(s: &SolvedSection) {
    let goal = s.goal;
    let board = goal.board();
    let ranker = Ranker::new(board).unwrap();
    let states = ranker.states() as usize;
    assert_eq!(s.entries.len(), states, "goal {goal}");
    assert_eq!(
        s.histogram.iter().sum::<u64>(),
        board.reachable_states(),
        "goal {goal}"
    );
    assert_eq!(s.histogram[0], 1, "goal {goal}");
    assert!(*s.histogram.last().unwrap() > 0, "goal {goal}");
    assert_eq!(s.max_distance() as usize, s.histogram.len() - 1);

    let distance = |rank: u64| byte_distance(s.entries[rank as usize]);
    let mut counted = vec![0u64; s.histogram.len()];
    for rank in 0..ranker.states() {
        let l = ranker.unrank(rank, goal.class());
        let e = s.entries[rank as usize];
        let d = byte_distance(e);
        assert!(
            (d as usize) < counted.len(),
            "goal {goal}: {l} at {d}, beyond the histogram"
        );
        counted[d as usize] += 1;
        if d == 0 {
            assert_eq!(l, goal, "distance 0 away from the goal");
            continue;
        }
        let m = byte_move(e);
        let next = l
            .moved(m)
            .unwrap_or_else(|| panic!("goal {goal}: {l} stores the illegal move {m}"));
        assert_eq!(
            distance(ranker.rank(&next)),
            d - 1,
            "goal {goal}: {l} then {m}"
        );
        for m in l.moves() {
            let nd = distance(ranker.rank(&l.moved(m).unwrap()));
            assert!(nd + 1 >= d, "goal {goal}: {l} at {d} but {m} leads to {nd}");
        }
    }
    assert_eq!(counted, s.histogram, "goal {goal}");
    assert_eq!(distance(ranker.rank(&goal)), 0);
}

/// Each board with the farthest distance from each goal of its default table, blank cell by
/// blank cell (worked out by an independent breadth-first search over tuples, in Python).
const DIAMETERS: [((usize, usize), &[u32]); 6] = [
    ((2, 2), &[6, 6, 6, 6]),
    ((2, 3), &[21, 21, 21, 21, 21, 21]),
    ((3, 2), &[21, 21, 21, 21, 21, 21]),
    ((2, 4), &[36, 35, 35, 36, 36, 35, 35, 36]),
    ((4, 2), &[36, 36, 35, 35, 35, 35, 36, 36]),
    ((3, 3), &[31, 31, 31, 31, 30, 31, 31, 31, 31]),
];

#[test]
fn every_entry_of_every_goal_is_exact() {
    for ((r, c), diameters) in DIAMETERS {
        let board = Board::new(r, c).unwrap();
        let goals = default_goals(board);
        assert_eq!(goals.len(), board.cells());
        let sections = solve_sections(&goals).unwrap();
        for (goal, s) in goals.iter().zip(&sections) {
            assert_eq!(s.goal, *goal);
            check_section(s);
        }
        let got: Vec<u32> = sections.iter().map(SolvedSection::max_distance).collect();
        assert_eq!(got, diameters, "{board}");
    }
}

#[test]
fn known_diameters_from_the_standard_goal() {
    for ((r, c), want) in [
        ((2, 2), 6),
        ((2, 3), 21),
        ((3, 2), 21),
        ((2, 4), 36),
        ((4, 2), 36),
        ((3, 3), 31),
    ] {
        let board = Board::new(r, c).unwrap();
        let s = solve_section(&board.standard_goal()).unwrap();
        assert_eq!(s.max_distance(), want, "{board}");
    }
}

#[test]
fn sections_of_a_board_are_identical_up_to_relabelling() {
    // Two goals with the blank in the same cell differ only by the tiles' names, so their
    // histograms agree.
    let board = Board::EIGHT;
    let standard = solve_section(&board.standard_goal()).unwrap();
    let spiral = slidetable_core::parse_layout(board, b"1 2 3 8 6 4 7 5 x").unwrap();
    let other = solve_section(&spiral).unwrap();
    assert_eq!(other.histogram, standard.histogram);
    check_section(&other);
}

#[test]
fn rewriting_a_table_replaces_it_by_rename() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.slt");
    let small = Board::new(2, 3).unwrap();
    write_table(
        &path,
        small,
        &solve_sections(&default_goals(small)).unwrap(),
    )
    .unwrap();

    let old = Table::open(&path).unwrap();
    old.verify().unwrap();
    let probes: Vec<_> = (0..360)
        .map(|r| Ranker::new(small).unwrap().unrank(r, 0))
        .collect();
    let before: Vec<_> = probes.iter().map(|l| old.distance(l).unwrap()).collect();
    assert_eq!(before.iter().flatten().max(), Some(&21));

    // A different board under the same name.
    let big = Board::new(2, 4).unwrap();
    let written =
        write_table(&path, big, &solve_sections(&[big.standard_goal()]).unwrap()).unwrap();
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["table.slt"], "temporary files left behind");

    // The old mapping still sees the old, complete table...
    assert_eq!(old.board(), small);
    old.verify().unwrap();
    let after: Vec<_> = probes.iter().map(|l| old.distance(l).unwrap()).collect();
    assert_eq!(after, before);
    // ...and a new open sees the new one.
    let new = Table::open(&path).unwrap();
    new.verify().unwrap();
    assert_eq!(new.board(), big);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), written);
    assert_eq!(new.distance(&big.standard_goal()), Ok(Some(0)));
}

/// Only regular files are replaced; links are followed; the file is readable like any other.
#[cfg(unix)]
#[test]
fn the_writer_replaces_regular_files_only() {
    use slidetable_gen::GenError;
    use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let board = Board::new(2, 2).unwrap();
    let sections = solve_sections(&default_goals(board)).unwrap();

    // A directory and a FIFO are refused and left as they were.
    let sub = d.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let err = write_table(&sub, board, &sections).unwrap_err();
    assert!(
        matches!(
            err,
            GenError::NotAFile {
                kind: "a directory",
                ..
            }
        ),
        "{err}"
    );
    assert!(sub.is_dir());
    let fifo = d.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let err = write_table(&fifo, board, &sections).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it is a FIFO, not a table file",
            fifo.display()
        )
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());

    // Links are followed, whether their file exists yet or not, through a chain and a
    // relative target in another directory: every link stays a link.
    let link = d.join("link.slt");
    symlink("sub/middle.slt", &link).unwrap();
    symlink("../real.slt", sub.join("middle.slt")).unwrap();
    for _ in 0..2 {
        write_table(&link, board, &sections).unwrap();
        for l in [&link, &sub.join("middle.slt")] {
            assert!(std::fs::symlink_metadata(l)
                .unwrap()
                .file_type()
                .is_symlink());
        }
        Table::open(d.join("real.slt")).unwrap().verify().unwrap();
    }
    // A loop of links is refused.
    symlink("loop-b", d.join("loop-a")).unwrap();
    symlink("loop-a", d.join("loop-b")).unwrap();
    let err = write_table(&d.join("loop-a"), board, &sections).unwrap_err();
    assert!(err.to_string().starts_with("cannot write"), "{err}");

    // Nothing left behind, and the mode of any newly created file (not the 0600 of a
    // temporary file).
    let mut names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["fifo", "link.slt", "loop-a", "loop-b", "real.slt", "sub"]
    );
    let plain = d.join("plain");
    std::fs::File::create(&plain).unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&d.join("real.slt")), mode(&plain));
    // A replaced table keeps its mode, a private one included.
    for kept in [0o600, 0o640, 0o664] {
        let real = d.join("real.slt");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(kept)).unwrap();
        write_table(&real, board, &sections).unwrap();
        assert_eq!(mode(&real), kept);
    }
}

/// docs/FORMAT.md's appendix shows the first 192 bytes of the default 3×3 table and its first
/// payload bytes: today's generator must write exactly those bytes.
#[test]
fn the_format_documents_hex_dump_is_what_the_generator_writes() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/FORMAT.md"),
    )
    .unwrap();
    let mut dumped = Vec::new();
    for line in doc.lines() {
        // `00000010: 780b 0000 …  x...` as xxd prints it: offset, 8 groups, then the text.
        let Some((offset, rest)) = line.split_once(": ") else {
            continue;
        };
        if offset.len() != 8 || u64::from_str_radix(offset, 16) != Ok(dumped.len() as u64) {
            continue;
        }
        for group in rest.split_whitespace().take(8) {
            for pair in group.as_bytes().chunks(2) {
                let hex = std::str::from_utf8(pair).unwrap();
                dumped.push(u8::from_str_radix(hex, 16).unwrap());
            }
        }
    }
    assert_eq!(dumped.len(), 192, "the appendix's dump was not found whole");
    let board = Board::EIGHT;
    let sections = solve_sections(&default_goals(board)).unwrap();
    let bytes = slidetable_gen::engine::table_bytes(board, &sections).unwrap();
    assert_eq!(&bytes[..192], &dumped[..]);
    assert!(doc.contains("the first payload bytes at 0xb78 are `00 43 41 53 …`"));
    assert_eq!(&bytes[0xb78..0xb78 + 4], [0x00, 0x43, 0x41, 0x53]);
}

/// The published counts (tests/data/published-levels.txt): sequence, board, the goal's
/// blank cells they hold for, the counts from distance 0.
pub(crate) fn published() -> Vec<(String, Board, Vec<usize>, Vec<u64>)> {
    include_str!("data/published-levels.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (head, counts) = line.split_once(':').unwrap();
            let mut head = head.split_whitespace();
            let id = head.next().unwrap().to_string();
            let board: Board = head.next().unwrap().parse().unwrap();
            let blanks = head.next().unwrap().split(',').map(|c| c.parse().unwrap());
            let counts = counts.split_whitespace().map(|c| c.parse().unwrap());
            (id, board, blanks.collect(), counts.collect())
        })
        .collect()
}

/// Every level of a table within D moves of a 15- and a 16-cell board is the count the
/// published complete searches give (OEIS A089484, A090164, A090165 for 4x4, A346737 for
/// 3x5 and 5x3), for every blank cell each sequence holds for, as deep as a few hundred
/// thousand states take; 2x8 and 8x2 (no published counts) agree with each other.
#[test]
fn levels_within_d_moves_are_the_published_counts() {
    for (id, board, blanks, counts) in published() {
        // The deepest level whose states within it stay under 200,000.
        let depth = counts
            .iter()
            .scan(0u64, |sum, &c| {
                *sum += c;
                Some(*sum)
            })
            .take_while(|&sum| sum <= 200_000)
            .count() as u32
            - 1;
        assert!(depth >= 13, "{id}");
        for blank in blanks {
            let goal = board.goal_with_blank(blank);
            let solved = solve_bounded(&goal, depth, &mut |_| {}).unwrap();
            assert_eq!(
                solved.histogram(),
                counts[..=depth as usize],
                "{id} on {board}, blank in {blank}"
            );
        }
    }
    let two_by_eight = Board::new(2, 8).unwrap();
    let wide = solve_bounded(&two_by_eight.standard_goal(), 20, &mut |_| {}).unwrap();
    let tall = solve_bounded(&Board::new(8, 2).unwrap().standard_goal(), 20, &mut |_| {}).unwrap();
    assert_eq!(wide.histogram(), tall.histogram());
}

/// On boards with a table of every state, a table within D moves holds the complete
/// table's first D levels, and past the board's radius its levels are empty.
#[test]
fn levels_within_d_moves_are_the_whole_tables_first_levels() {
    for (rows, cols, depth) in [(3, 3, 40), (2, 5, 30), (3, 4, 18)] {
        let board = Board::new(rows, cols).unwrap();
        let goal = board.standard_goal();
        let whole = slidetable_gen::engine::solve(&[goal], None, CostModel::Unit, &|_| {})
            .unwrap()
            .remove(0)
            .histogram;
        let within = solve_bounded(&goal, depth, &mut |_| {})
            .unwrap()
            .histogram();
        let mut expected: Vec<u64> = whole.iter().copied().take(depth as usize + 1).collect();
        expected.resize(depth as usize + 1, 0);
        assert_eq!(within, expected, "{board}");
    }
}
