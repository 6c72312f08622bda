//! The search within D moves in parts (`generate --max-depth D --parts DIR`): every level the
//! published complete searches' count on 15 and 16 cells, in any number of processes (here
//! threads exchanging as processes do), and the parts joined the one-process file; a run
//! stopped after any level, in one process or in parts, resumes into the same bytes.

use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use slidetable_core::{Board, Layout};
use slidetable_gen::checkpoint::{CheckpointEvent, Pace, Resumed};
use slidetable_gen::engine::{
    generate_bounded, solve_bounded, solve_bounded_in_parts, write_bounded_to, BoundedEvent,
    BoundedPartsDone, BoundedRun, SolvedBounded,
};
use slidetable_gen::parts::threads;
use slidetable_gen::resume::WorkFiles;
use slidetable_gen::{BoundedPartsPlan, Destination, GenError};
use slidetable_query::{BoundedTable, Reach};

use crate::parts::Failing;

fn plan_of(goal: Layout, max_depth: u32, dir: &Path, restart: bool) -> BoundedPartsPlan {
    BoundedPartsPlan {
        goal,
        max_depth,
        dir: dir.to_path_buf(),
        restart,
        // A checkpoint at the end of every level: a stop anywhere has one to resume from.
        checkpoints: Pace::Every(Duration::ZERO),
    }
}

/// Runs the search within `max_depth` of `goal` in `parts` threads writing into `dir`.
fn run(goal: Layout, max_depth: u32, dir: &Path, parts: u32) -> Vec<BoundedPartsDone> {
    let plan = plan_of(goal, max_depth, dir, false);
    let plan = &plan;
    thread::scope(|s| {
        let handles: Vec<_> = threads::group(parts)
            .into_iter()
            .map(|mut ex| {
                s.spawn(move || {
                    solve_bounded_in_parts(plan, &mut ex, &mut |_| ControlFlow::Continue(()))
                })
            })
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

/// Runs `plan` in `parts` threads, every one failing at its `fail_at`-th exchange; each
/// thread's result and the level it says it resumed from.
fn run_failing(
    plan: &BoundedPartsPlan,
    parts: u32,
    fail_at: usize,
) -> Vec<(Result<BoundedPartsDone, GenError>, Option<u32>)> {
    thread::scope(|s| {
        let handles: Vec<_> = threads::group(parts)
            .into_iter()
            .map(|inner| {
                s.spawn(move || {
                    let mut ex = Failing {
                        inner,
                        calls: 0,
                        fail_at,
                    };
                    let mut resumed = None;
                    let done = solve_bounded_in_parts(plan, &mut ex, &mut |e| {
                        if let BoundedEvent::Checkpoint(CheckpointEvent::Resumed(Resumed {
                            level,
                            ..
                        })) = e
                        {
                            resumed = Some(level);
                        }
                        ControlFlow::Continue(())
                    });
                    (done, resumed)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// `generate --max-depth D -o FILE` in this process: stopped after the checkpoint of level
/// `stop` if given; the result, and the level it resumed from.
fn generate_one(
    goal: &Layout,
    max_depth: u32,
    path: &Path,
    stop: Option<u32>,
    restart: bool,
) -> (Result<Vec<u64>, GenError>, Option<u32>) {
    let mut resumed = None;
    let run = BoundedRun {
        restart,
        pace: Pace::Every(Duration::ZERO),
    };
    let done = Destination::prepare(path).and_then(|destination| {
        generate_bounded(goal, max_depth, destination, run, &mut |e| match e {
            BoundedEvent::Checkpoint(CheckpointEvent::Resumed(r)) => {
                resumed = Some(r.level);
                ControlFlow::Continue(())
            }
            BoundedEvent::Checkpoint(CheckpointEvent::Saved { level, .. })
                if Some(level) == stop =>
            {
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        })
    });
    (done.map(|(_, histogram)| histogram), resumed)
}

/// A search within D moves in one process stopped after the checkpoint of any level, then
/// run again, writes the file of a run never stopped, byte for byte, and leaves no
/// checkpoint; so does one in parts stopped at any exchange of any level (the parts joined).
#[test]
fn a_search_within_d_stopped_after_any_level_resumes_into_the_same_bytes() {
    let goal = Board::FIFTEEN.standard_goal();
    let depth = 12;
    let want = file_of(&solve_bounded(&goal, depth, &mut |_| {}).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("4x4-12.slt");
    let checkpoint = WorkFiles::beside(&path).checkpoint;
    for stop in 0..depth {
        let (done, resumed) = generate_one(&goal, depth, &path, Some(stop), false);
        assert!(
            matches!(done, Err(GenError::Stopped { level, .. }) if level == stop),
            "{done:?}"
        );
        assert_eq!(resumed, None, "a fresh run stopped at {stop}");
        assert!(checkpoint.exists() && !path.exists());
        let (done, resumed) = generate_one(&goal, depth, &path, None, false);
        assert_eq!(resumed, Some(stop));
        assert_eq!(done.unwrap().iter().sum::<u64>(), want_states(&goal, depth));
        assert!(fs::read(&path).unwrap() == want, "resumed from {stop}");
        assert!(!checkpoint.exists(), "resumed from {stop}: checkpoint left");
        fs::remove_file(&path).unwrap();
    }
    // In parts: 3 processes stopped at their k-th exchange (about 7 a level), resumed.
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_of(goal, depth, dir.path(), false);
    let mut resumes = 0;
    for fail_at in (1..90).step_by(4) {
        for (done, _) in run_failing(&plan, 3, fail_at) {
            assert!(done.is_err(), "stopped at {fail_at}");
        }
        let results = run_failing(&plan, 3, usize::MAX);
        let levels: Vec<Option<u32>> = results.iter().map(|r| r.1).collect();
        assert!(levels.iter().all(|l| *l == levels[0]), "{levels:?}");
        resumes += usize::from(levels[0].is_some());
        for (done, _) in results {
            done.unwrap();
        }
        let table = BoundedTable::open(dir.path()).unwrap();
        let joined = SolvedBounded::from_levels(goal, table.joined_levels().unwrap());
        assert!(file_of(&joined) == want, "stopped at {fail_at}");
        let left: Vec<PathBuf> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".slb."))
            .collect();
        assert!(left.is_empty(), "stopped at {fail_at}: {left:?}");
    }
    assert!(resumes > 10, "only {resumes} runs resumed");
}

fn want_states(goal: &Layout, depth: u32) -> u64 {
    solve_bounded(goal, depth, &mut |_| {}).unwrap().states()
}

/// A checkpoint of another `D`, board or goal is refused naming the file, and kept; another
/// process count is refused, the checkpoints kept; `restart` starts over in each case.
#[test]
fn another_runs_checkpoint_within_d_is_refused_and_restart_starts_over() {
    let goal = Board::FIFTEEN.standard_goal();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("within.slt");
    let checkpoint = WorkFiles::beside(&path).checkpoint;
    let (done, _) = generate_one(&goal, 10, &path, Some(6), false);
    assert!(matches!(done, Err(GenError::Stopped { .. })), "{done:?}");
    let other_goal = Board::FIFTEEN.goal_with_blank(0);
    for (goal, depth, what) in [
        (goal, 11, "max-depth 10"),
        (other_goal, 10, "goal 1 2 3"),
        (Board::new(3, 5).unwrap().standard_goal(), 10, "board 4x4"),
    ] {
        let (done, _) = generate_one(&goal, depth, &path, None, false);
        let e = done.unwrap_err().to_string();
        assert!(e.starts_with(&checkpoint.display().to_string()), "{e}");
        assert!(
            e.contains("an interrupted run of another table") && e.contains(what),
            "{e}"
        );
        assert!(e.contains("--restart"), "{e}");
        assert!(checkpoint.exists());
    }
    let (done, resumed) = generate_one(&goal, 11, &path, None, true);
    assert_eq!(resumed, None);
    assert_eq!(done.unwrap().len(), 12);
    let want = file_of(&solve_bounded(&goal, 11, &mut |_| {}).unwrap());
    assert!(fs::read(&path).unwrap() == want);
    assert!(!checkpoint.exists());
    // In parts: stopped on 2 processes, refused on 3 until restart.
    let parts = tempfile::tempdir().unwrap();
    let plan = plan_of(goal, 10, parts.path(), false);
    for (done, _) in run_failing(&plan, 2, 40) {
        assert!(done.is_err());
    }
    for (k, (done, _)) in run_failing(&plan, 3, usize::MAX).into_iter().enumerate() {
        let e = format!("{:#}", done.unwrap_err());
        if k == 0 {
            assert!(e.contains("an interrupted run in 2 parts"), "{e}");
            assert!(e.contains("part-0000-of-0002.slb.checkpoint"), "{e}");
        }
    }
    assert!(parts
        .path()
        .join("part-0000-of-0002.slb.checkpoint")
        .exists());
    let other_depth = plan_of(goal, 9, parts.path(), false);
    for (done, _) in run_failing(&other_depth, 2, usize::MAX) {
        let e = done.unwrap_err().to_string();
        assert!(
            e.contains("max-depth 10") && e.contains(".slb.checkpoint"),
            "{e}"
        );
    }
    let restart = plan_of(goal, 10, parts.path(), true);
    for (done, resumed) in run_failing(&restart, 3, usize::MAX) {
        assert_eq!(resumed, None);
        done.unwrap();
    }
    let table = BoundedTable::open(parts.path()).unwrap();
    let joined = SolvedBounded::from_levels(goal, table.joined_levels().unwrap());
    assert!(file_of(&joined) == file_of(&solve_bounded(&goal, 10, &mut |_| {}).unwrap()));
    assert!(!parts
        .path()
        .join("part-0000-of-0002.slb.checkpoint")
        .exists());
}
