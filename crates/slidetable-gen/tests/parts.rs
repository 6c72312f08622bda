//! The search in parts, its processes as threads: the parts of 1 to 4 processes join into the
//! very bytes the one-process search writes; a run stopped at any level resumes into the same
//! bytes; the reader refuses every damaged directory, naming the part.

use std::path::Path;
use std::thread;

use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::parts::{
    solve_in_parts, threads, Exchange, ExchangeError, PartsDone, PartsEvent, PartsPlan,
};
use slidetable_gen::{solve, table_bytes, GenError};
use slidetable_query::Table;

fn one_process(goal: Layout) -> Vec<u8> {
    let sections = solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    table_bytes(goal.board(), &sections).unwrap()
}

/// Wraps a thread's end of a group and fails every call from the `fail_at`-th on (each thread
/// counts its own; the threads of a group make the same calls, so all fail together).
struct Failing<E> {
    inner: E,
    calls: usize,
    fail_at: usize,
}

impl<E: Exchange> Exchange for Failing<E> {
    fn rank(&self) -> u32 {
        self.inner.rank()
    }
    fn size(&self) -> u32 {
        self.inner.size()
    }
    fn all_to_all(&mut self, outgoing: &[Vec<u32>]) -> Result<Vec<u32>, ExchangeError> {
        self.calls += 1;
        if self.calls >= self.fail_at {
            return Err(ExchangeError("stopped by the test".into()));
        }
        self.inner.all_to_all(outgoing)
    }
    fn all_gather(&mut self, value: u64) -> Result<Vec<u64>, ExchangeError> {
        self.calls += 1;
        if self.calls >= self.fail_at {
            return Err(ExchangeError("stopped by the test".into()));
        }
        self.inner.all_gather(value)
    }
}

/// Runs `parts` threads on `plan`, failing all at their `fail_at`-th call; each thread's result
/// and the levels it says it resumed from.
fn run(
    plan: &PartsPlan,
    parts: u32,
    fail_at: usize,
) -> Vec<(Result<PartsDone, GenError>, Vec<u32>)> {
    let ends = threads::group(parts);
    thread::scope(|s| {
        let handles: Vec<_> = ends
            .into_iter()
            .map(|inner| {
                s.spawn(move || {
                    let mut ex = Failing {
                        inner,
                        calls: 0,
                        fail_at,
                    };
                    let mut resumed = Vec::new();
                    let done = solve_in_parts(plan, &mut ex, &mut |e| {
                        if let PartsEvent::Resumed { level } = e {
                            resumed.push(level)
                        }
                    });
                    (done, resumed)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn plan(goal: Layout, dir: &Path, batch: usize) -> PartsPlan {
    PartsPlan {
        goal,
        dir: dir.to_path_buf(),
        restart: false,
        batch,
    }
}

fn joined(dir: &Path) -> Vec<u8> {
    let table = Table::open(dir).unwrap();
    table.verify().unwrap();
    table.bytes().to_vec()
}

#[test]
fn parts_of_one_to_four_processes_join_into_the_one_process_table() {
    for (board, goal_blank) in [
        (Board::new(2, 5).unwrap(), None),
        (Board::new(3, 3).unwrap(), Some(4)),
    ] {
        let goal = goal_blank.map_or(board.standard_goal(), |b| board.goal_with_blank(b));
        let expected = one_process(goal);
        for parts in 1..=4 {
            let dir = tempfile::tempdir().unwrap();
            // A small batch: several rounds a level.
            for (done, resumed) in run(&plan(goal, dir.path(), 1000), parts, usize::MAX) {
                done.unwrap();
                assert!(resumed.is_empty());
            }
            assert_eq!(joined(dir.path()), expected, "{board}, {parts} parts");
            let names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            assert_eq!(
                names.len(),
                parts as usize + 1,
                "only parts and manifest: {names:?}"
            );
        }
    }
}

#[test]
fn a_run_stopped_at_any_point_resumes_into_the_same_bytes() {
    let board = Board::new(2, 4).unwrap();
    let goal = board.standard_goal();
    let expected = one_process(goal);
    // 2x4 has 36 levels of about 6 calls each with 3 parts (more with rounds): stop across them.
    for fail_at in [1, 2, 3, 5, 8, 13, 40, 77, 150, 220, 260] {
        let dir = tempfile::tempdir().unwrap();
        let p = plan(goal, dir.path(), 500);
        let first = run(&p, 3, fail_at);
        let finished = first.iter().all(|(d, _)| d.is_ok());
        if !finished {
            assert!(
                !dir.path().join("manifest").exists(),
                "stopped at {fail_at}"
            );
        }
        let second = run(&p, 3, usize::MAX);
        for (done, resumed) in &second {
            assert!(
                done.is_ok(),
                "stopped at {fail_at}: {:?}",
                done.as_ref().err()
            );
            if !finished && fail_at > 4 {
                assert_eq!(resumed.len(), 1, "stopped at {fail_at}");
            }
        }
        assert_eq!(joined(dir.path()), expected, "stopped at {fail_at}");
    }
}
