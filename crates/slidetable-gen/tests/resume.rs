//! A 2-bit table's search that keeps checkpoints (`slidetable_gen::resume`): stopped after a
//! checkpoint at any level and run again, it writes the same bytes as a run never stopped; a
//! checkpoint torn or damaged is never resumed from. The runs here write a checkpoint at the
//! end of every level (`Pace::Every(Duration::ZERO)`, what `SLIDETABLE_CHECKPOINT_SECONDS=0`
//! asks of the command): alone, searches of milliseconds would write none.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use slidetable_core::Board;
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::resume::{Pace, Run, RunEvent, WorkFiles};
use slidetable_gen::GenError;
use slidetable_gen::{generate, generate_resumable, Plan};

fn plan(board: Board, goals: usize) -> Plan {
    Plan {
        board,
        goals: (0..goals)
            .map(|k| board.goal_with_blank(board.cells() - 1 - k))
            .collect(),
        encoding: Some(Encoding::TwoBit),
        cost: CostModel::Unit,
    }
}

/// Runs `plan` into `path`, stopping after level `stop` of section `section` if given; returns
/// the levels the run resumed from (section, level) and the states it reported.
fn run(
    plan: &Plan,
    path: &Path,
    stop: Option<(usize, u32)>,
) -> (Result<u64, GenError>, Option<(usize, u32)>, u64) {
    let resumed = std::sync::Mutex::new(None);
    let states = AtomicU64::new(0);
    let events = |e: &RunEvent| {
        match e {
            RunEvent::Resumed(r) => *resumed.lock().unwrap() = Some((r.section, r.level)),
            RunEvent::Saved { section, level, .. } if Some((*section, *level)) == stop => {
                return ControlFlow::Break(())
            }
            _ => {}
        }
        ControlFlow::Continue(())
    };
    let progress = |n| {
        states.fetch_add(n, Relaxed);
    };
    let done = generate_resumable(
        plan,
        path,
        &Run {
            restart: false,
            pace: Pace::Every(Duration::ZERO),
            progress: &progress,
            events: &events,
        },
    )
    .map(|g| g.bytes);
    let resumed = *resumed.lock().unwrap();
    (done, resumed, states.load(Relaxed))
}

#[test]
fn stopped_after_every_level_of_2x5_and_resumed_the_table_is_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(2, 5).unwrap();
    let plan = plan(board, 1);
    let whole = dir.path().join("whole.slt");
    generate(&plan, &whole, &|_| {}).unwrap();
    let want = std::fs::read(&whole).unwrap();
    let levels = slidetable_query::Table::new(&want[..]).unwrap().sections()[0].max_distance();
    assert_eq!(levels, 55);
    let states = board.reachable_states();
    let path = dir.path().join("2x5.slt");
    // A checkpoint at the end of every level the search goes on from: 0 to 54 (after the
    // last, 55, the table is written instead).
    for stop in 0..levels {
        let (done, resumed, _) = run(&plan, &path, Some((0, stop)));
        assert!(
            matches!(done, Err(GenError::Stopped { level, .. }) if level == stop),
            "{done:?}"
        );
        assert_eq!(resumed, None, "a fresh run at {stop}");
        assert!(!path.exists());
        let work = WorkFiles::beside(&path);
        assert!(work.checkpoint.exists());
        let (done, resumed, told) = run(&plan, &path, None);
        assert!(done.is_ok(), "{done:?}");
        assert_eq!(resumed, Some((0, stop)));
        // The resumed run tells every state once, those settled before included.
        assert_eq!(told, states, "resumed from {stop}");
        assert!(std::fs::read(&path).unwrap() == want, "resumed from {stop}");
        for file in [&work.checkpoint, &work.lock] {
            assert!(!file.exists(), "{} left", file.display());
        }
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_run_stopped_again_and_again_and_one_of_several_sections_give_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    let plan = plan(board, 3);
    let whole = dir.path().join("whole.slt");
    generate(&plan, &whole, &|_| {}).unwrap();
    let want = std::fs::read(&whole).unwrap();
    let path = dir.path().join("3x3.slt");
    // Stop in each section at a few levels, each run resuming the one before.
    let mut last = None;
    for stop in [
        (0, 0),
        (0, 5),
        (0, 17),
        (0, 30),
        (1, 0),
        (1, 1),
        (1, 30),
        (2, 12),
    ] {
        let (done, resumed, _) = run(&plan, &path, Some(stop));
        assert!(matches!(done, Err(GenError::Stopped { .. })), "{done:?}");
        assert_eq!(resumed, last);
        last = Some(stop);
    }
    let (done, resumed, told) = run(&plan, &path, None);
    assert!(done.is_ok(), "{done:?}");
    assert_eq!(resumed, Some((2, 12)));
    assert_eq!(told, 3 * board.reachable_states());
    assert!(std::fs::read(&path).unwrap() == want);
}

#[test]
fn another_plan_is_not_resumed_and_restart_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(2, 4).unwrap();
    let path = dir.path().join("2x4.slt");
    let (done, _, _) = run(&plan(board, 1), &path, Some((0, 9)));
    assert!(matches!(done, Err(GenError::Stopped { level: 9, .. })));
    // Two goals are another table: refused, naming the checkpoint and the way out.
    let (done, _, _) = run(&plan(board, 2), &path, None);
    let e = done.unwrap_err().to_string();
    assert!(e.contains(".2x4.slt.checkpoint"), "{e}");
    assert!(
        e.contains("another table") && e.contains("--restart"),
        "{e}"
    );
    // --restart removes the earlier run's files and says so.
    let restarted = std::sync::Mutex::new(false);
    let events = |e: &RunEvent| {
        if let RunEvent::Restarted { .. } = e {
            *restarted.lock().unwrap() = true;
        }
        assert!(!matches!(e, RunEvent::Resumed(_)));
        ControlFlow::Continue(())
    };
    let two = plan(board, 2);
    generate_resumable(
        &two,
        &path,
        &Run {
            restart: true,
            pace: Pace::Every(Duration::ZERO),
            progress: &|_| {},
            events: &events,
        },
    )
    .unwrap();
    assert!(*restarted.lock().unwrap());
    let whole = dir.path().join("whole.slt");
    generate(&two, &whole, &|_| {}).unwrap();
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&whole).unwrap());
    // A damaged checkpoint is refused, not resumed from: its lines, its entries, its length.
    let (done, _, _) = run(&two, &path, Some((1, 3)));
    assert!(done.is_err());
    let checkpoint = WorkFiles::beside(&path).checkpoint;
    let good = std::fs::read(&checkpoint).unwrap();
    let lines = good.windows(5).position(|w| w == b"\ncrc ").unwrap() + 15;
    let mut changed = good.clone();
    let at = good.windows(8).position(|w| w == b"level 3\n").unwrap();
    changed[at + 6] = b'4';
    std::fs::write(&checkpoint, &changed).unwrap();
    let e = run(&two, &path, None).0.unwrap_err().to_string();
    assert!(e.contains("damaged") && e.contains("--restart"), "{e}");
    let mut changed = good.clone();
    changed[lines + 1000] ^= 0x10;
    std::fs::write(&checkpoint, &changed).unwrap();
    let e = run(&two, &path, None).0.unwrap_err().to_string();
    assert!(
        e.contains("entries are damaged") && e.contains("--restart"),
        "{e}"
    );
    std::fs::write(&checkpoint, &good[..good.len() - 4096]).unwrap();
    let e = run(&two, &path, None).0.unwrap_err().to_string();
    assert!(
        e.contains("bytes, not the") && e.contains("--restart"),
        "{e}"
    );
    // Whole again, it resumes.
    std::fs::write(&checkpoint, &good).unwrap();
    let (done, resumed, _) = run(&two, &path, None);
    assert!(done.is_ok(), "{done:?}");
    assert_eq!(resumed, Some((1, 3)));
}

/// A run killed while it wrote a checkpoint leaves the new one as a temporary file, half
/// written, and the one before in place (the new one replaces it by a rename once it is
/// whole and synced): the next run resumes from the one before and removes the other.
#[test]
fn a_torn_checkpoint_is_never_resumed_from() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(2, 5).unwrap();
    let plan = plan(board, 1);
    let whole = dir.path().join("whole.slt");
    generate(&plan, &whole, &|_| {}).unwrap();
    let path = dir.path().join("2x5.slt");
    let (done, _, _) = run(&plan, &path, Some((0, 30)));
    assert!(matches!(done, Err(GenError::Stopped { level: 30, .. })));
    let checkpoint = WorkFiles::beside(&path).checkpoint;
    let at_30 = std::fs::read(&checkpoint).unwrap();
    // The next checkpoint (level 31) as a run killed in the middle of writing it leaves it:
    // its lines and part of its entries, in a temporary file named as the writer names it.
    let (done, _, _) = run(&plan, &path, Some((0, 31)));
    assert!(matches!(done, Err(GenError::Stopped { level: 31, .. })));
    let at_31 = std::fs::read(&checkpoint).unwrap();
    let torn = dir.path().join(".2x5.slt.k3Xy7Q.tmp");
    std::fs::write(&torn, &at_31[..at_31.len() / 2]).unwrap();
    std::fs::write(&checkpoint, &at_30).unwrap();
    let (done, resumed, told) = run(&plan, &path, None);
    assert!(done.is_ok(), "{done:?}");
    assert_eq!(resumed, Some((0, 30)));
    assert_eq!(told, board.reachable_states());
    assert!(!torn.exists(), "the torn checkpoint is left");
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&whole).unwrap());
}

/// An older version's working files (mapped beside the table) are not resumed; `--restart`
/// removes them.
#[test]
fn an_older_versions_working_files_are_refused_and_restart_removes_them() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(2, 4).unwrap();
    let path = dir.path().join("2x4.slt");
    let work = WorkFiles::beside(&path);
    for file in &work.older {
        std::fs::write(file, b"slidetable generate state 1\n").unwrap();
    }
    let e = run(&plan(board, 1), &path, None).0.unwrap_err().to_string();
    assert!(
        e.contains(".2x4.slt.state") && e.contains("older") && e.contains("--restart"),
        "{e}"
    );
    let events = |_: &RunEvent| ControlFlow::Continue(());
    generate_resumable(
        &plan(board, 1),
        &path,
        &Run {
            restart: true,
            pace: Pace::Every(Duration::ZERO),
            progress: &|_| {},
            events: &events,
        },
    )
    .unwrap();
    for file in &work.older {
        assert!(!file.exists(), "{} left", file.display());
    }
}
