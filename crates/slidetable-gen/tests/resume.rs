//! A 2-bit table's search that resumes (`slidetable_gen::resume`): stopped after any level and
//! run again, it writes the same bytes as a run never stopped.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use slidetable_core::Board;
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::cache::{generate, generate_resumable, Plan};
use slidetable_gen::resume::{Run, RunEvent, WorkFiles};
use slidetable_gen::GenError;

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
            RunEvent::LevelSaved { section, level } if Some((*section, *level)) == stop => {
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
    for stop in 0..=levels {
        let (done, resumed, _) = run(&plan, &path, Some((0, stop)));
        assert!(
            matches!(done, Err(GenError::Stopped { level, .. }) if level == stop),
            "{done:?}"
        );
        assert_eq!(resumed, None, "a fresh run at {stop}");
        assert!(!path.exists());
        let work = WorkFiles::beside(&path);
        assert!(work.entries.exists() && work.state.exists());
        let (done, resumed, told) = run(&plan, &path, None);
        assert!(done.is_ok(), "{done:?}");
        assert_eq!(resumed, Some((0, stop)));
        // The resumed run tells every state once, those settled before included.
        assert_eq!(told, states, "resumed from {stop}");
        assert!(std::fs::read(&path).unwrap() == want, "resumed from {stop}");
        for file in [&work.entries, &work.frontier, &work.state] {
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
        (0, 31),
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
    // Two goals are another table: refused, naming the state file and the way out.
    let (done, _, _) = run(&plan(board, 2), &path, None);
    let e = done.unwrap_err().to_string();
    assert!(e.contains(".2x4.slt.state"), "{e}");
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
            progress: &|_| {},
            events: &events,
        },
    )
    .unwrap();
    assert!(*restarted.lock().unwrap());
    let whole = dir.path().join("whole.slt");
    generate(&two, &whole, &|_| {}).unwrap();
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&whole).unwrap());
    // A damaged state file is refused, not resumed from.
    let (done, _, _) = run(&two, &path, Some((1, 3)));
    assert!(done.is_err());
    let state = WorkFiles::beside(&path).state;
    let text = std::fs::read_to_string(&state).unwrap();
    std::fs::write(&state, text.replace("level 3", "level 4")).unwrap();
    let e = run(&two, &path, None).0.unwrap_err().to_string();
    assert!(e.contains("damaged") && e.contains("--restart"), "{e}");
}
