//! The search in parts, its processes as threads: the parts of 1 to 4 processes join into the
//! very bytes the one-process search writes; a run stopped at any level resumes into the same
//! bytes; the reader refuses every damaged directory, naming the part.

use std::path::Path;
use std::thread;
use std::time::Duration;

use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::checkpoint::{CheckpointEvent, Pace, Resumed};
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_gen::parts::{
    solve_in_parts, threads, Exchange, ExchangeError, LevelReport, PartsDone, PartsEvent, PartsPlan,
};
use slidetable_gen::GenError;
use slidetable_query::Table;

fn one_process(goal: Layout) -> Vec<u8> {
    let sections = solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    table_bytes(goal.board(), &sections).unwrap()
}

/// Wraps a thread's end of a group and fails every call from the `fail_at`-th on (each thread
/// counts its own; the threads of a group make the same calls, so all fail together). The
/// search within D moves' tests stop their runs with it too.
pub(crate) struct Failing<E> {
    pub(crate) inner: E,
    pub(crate) calls: usize,
    pub(crate) fail_at: usize,
}

impl<E: Exchange> Exchange for Failing<E> {
    fn rank(&self) -> u32 {
        self.inner.rank()
    }
    fn size(&self) -> u32 {
        self.inner.size()
    }
    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
        self.calls += 1;
        if self.calls >= self.fail_at {
            return Err(ExchangeError("stopped by the test".into()));
        }
        self.inner.all_to_all(outgoing)
    }
    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
        self.calls += 1;
        if self.calls >= self.fail_at {
            return Err(ExchangeError("stopped by the test".into()));
        }
        self.inner.all_gather_each(values)
    }
}

/// Runs `parts` threads on `plan`, failing all at their `fail_at`-th call; each thread's result
/// and the levels it says it resumed from.
fn run(
    plan: &PartsPlan,
    parts: u32,
    fail_at: usize,
) -> Vec<(Result<PartsDone, GenError>, Vec<u32>)> {
    // A thread that fails alone leaves the others waiting for it at a barrier: end the tests
    // instead of hanging (they take seconds, minutes on a loaded machine).
    static WATCHDOG: std::sync::Once = std::sync::Once::new();
    WATCHDOG.call_once(|| {
        thread::spawn(|| {
            thread::sleep(std::time::Duration::from_secs(600));
            eprintln!("a run hung: one process failed while the others waited for it");
            std::process::abort();
        });
    });
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
                        if let PartsEvent::Checkpoint(CheckpointEvent::Resumed(Resumed {
                            level,
                            ..
                        })) = e
                        {
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

/// The calls each thread of a whole run of `parts` threads makes.
fn calls(plan: &PartsPlan, parts: u32) -> usize {
    let ends = threads::group(parts);
    let counts: Vec<usize> = thread::scope(|s| {
        let handles: Vec<_> = ends
            .into_iter()
            .map(|inner| {
                s.spawn(move || {
                    let mut ex = Failing {
                        inner,
                        calls: 0,
                        fail_at: usize::MAX,
                    };
                    solve_in_parts(plan, &mut ex, &mut |_| {}).unwrap();
                    ex.calls
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    counts[0]
}

fn plan(goal: Layout, dir: &Path, batch: usize) -> PartsPlan {
    PartsPlan {
        goal,
        dir: dir.to_path_buf(),
        restart: false,
        batch,
        // A checkpoint at the end of every level: a stop anywhere has one to resume from.
        checkpoints: Pace::Every(Duration::ZERO),
    }
}

/// The table the parts in `dir` make, as `merge` writes it (format version 2: the manifest
/// keeps a version-1 header, which merging gives the block checksums).
fn joined(dir: &Path) -> Vec<u8> {
    let table = Table::open(dir).unwrap();
    table.verify().unwrap();
    let out = tempfile::tempdir().unwrap();
    let merged = out.path().join("merged.slt");
    slidetable_gen::write_bytes(&merged, table.bytes()).unwrap();
    std::fs::read(merged).unwrap()
}

#[test]
fn parts_of_one_to_four_processes_join_into_the_one_process_table() {
    for (board, goal_blank) in [
        (Board::new(2, 5).unwrap(), None),
        (Board::new(3, 3).unwrap(), Some(4)),
        // Moves within the prefix, made a word at a time, into slices cut within a block.
        (Board::new(5, 2).unwrap(), None),
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

/// The search in parts in 64-bit ranks (what 15 and 16 cells take) on boards the 32-bit one
/// searches: the same parts, joined into the one-process table's bytes.
#[test]
fn parts_in_wide_ranks_join_into_the_one_process_table() {
    use slidetable_core::WideRanker;
    use slidetable_gen::parts::solve_in_width;
    for (board, blank) in [
        (Board::new(2, 5).unwrap(), 9),
        (Board::new(5, 2).unwrap(), 3),
    ] {
        let goal = board.goal_with_blank(blank);
        let expected = one_process(goal);
        for parts in [1, 3] {
            let dir = tempfile::tempdir().unwrap();
            let plan = plan(goal, dir.path(), 1000);
            thread::scope(|s| {
                for mut end in threads::group(parts) {
                    let plan = &plan;
                    s.spawn(move || {
                        solve_in_width::<WideRanker>(plan, &mut end, &mut |_| {}).unwrap()
                    });
                }
            });
            assert_eq!(joined(dir.path()), expected, "{board}, {parts} parts");
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
            // The first calls (the memory agreement, the lock, the other runs, what each
            // process left, level 0's checkpoint decision) come before any checkpoint.
            if !finished && fail_at > 5 {
                assert_eq!(resumed.len(), 1, "stopped at {fail_at}");
            }
        }
        assert_eq!(joined(dir.path()), expected, "stopped at {fail_at}");
    }
}

/// A process killed after its checkpoint of a level was written (`.next`) and before it put
/// it in place, while the others put theirs in place: a real `kill -9` under mpirun can leave
/// exactly this (the threads of a group stop together, so the test renames the one process's
/// file back). The rerun goes on from that level, every process from its own file.
#[test]
fn a_run_killed_while_its_checkpoints_were_put_in_place_resumes_into_the_same_bytes() {
    let board = Board::new(2, 4).unwrap();
    let goal = board.standard_goal();
    let expected = one_process(goal);
    let mut skewed = 0;
    for fail_at in [40, 41, 77, 78, 120, 121, 150, 151] {
        let dir = tempfile::tempdir().unwrap();
        let p = plan(goal, dir.path(), 500);
        let first = run(&p, 3, fail_at);
        if first.iter().any(|(d, _)| d.is_ok()) {
            continue;
        }
        let checkpoint = dir.path().join("part-0001-of-0003.checkpoint");
        if checkpoint.exists() {
            std::fs::rename(&checkpoint, dir.path().join("part-0001-of-0003.next")).unwrap();
            skewed += 1;
        }
        for (done, resumed) in run(&p, 3, usize::MAX) {
            assert!(done.is_ok(), "stopped at {fail_at}: {:?}", done.err());
            assert_eq!(resumed.len(), 1, "stopped at {fail_at}");
        }
        assert_eq!(joined(dir.path()), expected, "stopped at {fail_at}");
    }
    assert!(skewed > 0, "no stop left a checkpoint");
}

/// A process killed while it wrote its part (the others' written): the rerun searches again
/// from the checkpoints and writes every part again.
#[test]
fn a_run_killed_while_it_wrote_a_part_resumes_into_the_same_bytes() {
    let board = Board::new(2, 4).unwrap();
    let goal = board.standard_goal();
    let expected = one_process(goal);
    // The stop after every part is written and before the manifest: the run's last two
    // calls are the parts' checksums (for the manifest) and the barrier after it.
    let whole = {
        let dir = tempfile::tempdir().unwrap();
        calls(&plan(goal, dir.path(), 500), 3)
    };
    let dir = tempfile::tempdir().unwrap();
    let p = plan(goal, dir.path(), 500);
    run(&p, 3, whole - 1);
    assert!(dir.path().join("part-0000-of-0003.slp").exists());
    assert!(!dir.path().join("manifest").exists());
    let part = dir.path().join("part-0000-of-0003.slp");
    std::fs::remove_file(&part).unwrap();
    std::fs::write(
        dir.path().join("part-0000-of-0003.part.tmp"),
        b"half a part",
    )
    .unwrap();
    for (done, resumed) in run(&p, 3, usize::MAX) {
        assert!(done.is_ok(), "{:?}", done.err());
        assert_eq!(resumed.len(), 1);
    }
    assert_eq!(joined(dir.path()), expected);
}

/// The levels that the process of part 0 reports in a whole run of `parts` threads.
fn level_reports(plan: &PartsPlan, parts: u32) -> Vec<LevelReport> {
    let ends = threads::group(parts);
    let mut reports: Vec<Vec<LevelReport>> = thread::scope(|s| {
        let handles: Vec<_> = ends
            .into_iter()
            .map(|mut ex| {
                s.spawn(move || {
                    let mut levels = Vec::new();
                    solve_in_parts(plan, &mut ex, &mut |e| {
                        if let PartsEvent::LevelDone(r) = e {
                            levels.push(r)
                        }
                    })
                    .unwrap();
                    levels
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    reports.swap_remove(0)
}

/// The first levels from the goal, while a level has at most 16,384 states in every part
/// together (the one-machine search's rule on boards this small), are expanded from a list of their states, as on
/// one machine: no process goes through a word of its frontier for them (on 2×7 in 2 parts,
/// half a second a level); every level after goes through its slice; the same bytes.
#[test]
fn the_first_levels_are_expanded_from_a_list_in_parts_as_on_one_machine() {
    for (rows, cols, parts) in [(2, 5, 2), (3, 3, 3), (5, 2, 4)] {
        let board = Board::new(rows, cols).unwrap();
        let goal = board.standard_goal();
        let dir = tempfile::tempdir().unwrap();
        let levels = level_reports(&plan(goal, dir.path(), 1000), parts);
        assert_eq!(
            joined(dir.path()),
            one_process(goal),
            "{board}, {parts} parts"
        );
        // Every level so far at most 16,384 states: the next is found from a list.
        let mut listed = true;
        let (mut from_lists, mut from_bitmaps) = (0, 0);
        for r in &levels {
            assert_eq!(
                r.words_scanned == 0,
                listed,
                "{board}, {parts} parts, level {}: {} words",
                r.level,
                r.words_scanned
            );
            if listed {
                from_lists += 1;
            } else {
                from_bitmaps += 1;
            }
            listed &= r.states <= 1 << 14;
        }
        assert!(
            from_lists > 5 && from_bitmaps > 5,
            "{board}: {from_lists}, {from_bitmaps}"
        );
    }
}

/// The levels each process finds take the one-machine search's passes: top-down while a level
/// is smaller than the states unseen, bottom-up from the first that outnumbers them on, and
/// the bottom-up levels of several parts ask other processes (bytes sent); the same bytes.
#[test]
fn parts_take_the_one_machine_passes_and_bottom_up_levels_ask_other_parts() {
    let board = Board::new(2, 5).unwrap();
    let goal = board.standard_goal();
    let expected = one_process(goal);
    for parts in [1, 3] {
        let dir = tempfile::tempdir().unwrap();
        let levels = &level_reports(&plan(goal, dir.path(), 4096), parts);
        assert_eq!(joined(dir.path()), expected, "{parts} parts");
        let states = board.reachable_states();
        let mut reached = 1u64;
        let mut bottom_up = false;
        for r in levels {
            // The rule of the level before: it outnumbered the states unseen after it.
            assert_eq!(r.bottom_up, bottom_up, "level {} of {parts} parts", r.level);
            reached += r.states;
            bottom_up |= r.states > states - reached;
        }
        let late: Vec<_> = levels.iter().filter(|r| r.bottom_up).collect();
        assert!(
            !late.is_empty() && late.len() < levels.len(),
            "{parts} parts"
        );
        if parts > 1 {
            assert!(late.iter().any(|r| r.bytes_sent > 0), "{parts} parts");
        }
    }
}

/// Counts, for every round, the offsets a thread sends (varints: bytes with the high bit
/// clear; a bottom-up round's answers, one bit an offset, count their bytes, fewer).
struct Counting<E> {
    inner: E,
    most: usize,
    rounds: usize,
}

impl<E: Exchange> Exchange for Counting<E> {
    fn rank(&self) -> u32 {
        self.inner.rank()
    }
    fn size(&self) -> u32 {
        self.inner.size()
    }
    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
        let offsets: usize = outgoing
            .iter()
            .map(|o| o.iter().filter(|&&b| b & 0x80 == 0).count())
            .sum();
        self.most = self.most.max(offsets);
        self.rounds += 1;
        self.inner.all_to_all(outgoing)
    }
    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
        self.inner.all_gather_each(values)
    }
}

#[test]
fn no_round_hands_over_more_than_the_batch_and_the_parts_join_into_the_table() {
    for (board, batch) in [
        (Board::new(2, 5).unwrap(), 300),
        (Board::new(2, 5).unwrap(), 5000),
    ] {
        let goal = board.standard_goal();
        let expected = one_process(goal);
        for parts in 2..=3 {
            let dir = tempfile::tempdir().unwrap();
            let plan = plan(goal, dir.path(), batch);
            let ends = threads::group(parts);
            let counts: Vec<(usize, usize)> = thread::scope(|s| {
                let handles: Vec<_> = ends
                    .into_iter()
                    .map(|inner| {
                        let plan = &plan;
                        s.spawn(move || {
                            let mut ex = Counting {
                                inner,
                                most: 0,
                                rounds: 0,
                            };
                            solve_in_parts(plan, &mut ex, &mut |_| {}).unwrap();
                            (ex.most, ex.rounds)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let bound = slidetable_gen::parts::round_bound(board, batch);
            for &(most, rounds) in &counts {
                assert!(
                    most <= bound,
                    "{board}, {parts} parts: {most} offsets > {bound}"
                );
                // The bound is met by rounds, not by a level that never fills one.
                assert!(rounds > 40, "{board}, {parts} parts: {rounds} rounds");
            }
            assert!(
                counts.iter().any(|&(most, _)| most > bound / 4),
                "{board}, {parts} parts: rounds far below the batch {counts:?}"
            );
            assert_eq!(joined(dir.path()), expected, "{board}, {parts} parts");
        }
    }
}

/// Counts a thread's collective calls, each a wait for every process: all-to-alls (rounds)
/// and all-gathers.
struct Meetings<E> {
    inner: E,
    all_to_all: usize,
    all_gather: usize,
}

impl<E: Exchange> Exchange for Meetings<E> {
    fn rank(&self) -> u32 {
        self.inner.rank()
    }
    fn size(&self) -> u32 {
        self.inner.size()
    }
    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
        self.all_to_all += 1;
        self.inner.all_to_all(outgoing)
    }
    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
        self.all_gather += 1;
        self.inner.all_gather_each(values)
    }
}

/// A whole run of 2 threads on `board` with `batch`, no checkpoint: each thread's
/// all-to-alls, all-gathers, and the levels it reported (the empty last one not among them).
fn meetings(board: Board, batch: usize) -> Vec<(usize, usize, Vec<LevelReport>)> {
    let goal = board.standard_goal();
    let dir = tempfile::tempdir().unwrap();
    let plan = PartsPlan {
        checkpoints: Pace::Every(Duration::MAX),
        ..plan(goal, dir.path(), batch)
    };
    let ends = threads::group(2);
    let counts = thread::scope(|s| {
        let handles: Vec<_> = ends
            .into_iter()
            .map(|inner| {
                let plan = &plan;
                s.spawn(move || {
                    let mut ex = Meetings {
                        inner,
                        all_to_all: 0,
                        all_gather: 0,
                    };
                    let mut levels = Vec::new();
                    solve_in_parts(plan, &mut ex, &mut |e| {
                        if let PartsEvent::LevelDone(r) = e {
                            levels.push(r)
                        }
                    })
                    .unwrap();
                    (ex.all_to_all, ex.all_gather, levels)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        joined(dir.path()),
        one_process(goal),
        "{board}, batch {batch}"
    );
    counts
}

/// A round is one wait: whether a process has more to send travels with its bytes (no
/// all-gather a round), a top-down round is one all-to-all and a bottom-up round two (the
/// questions, the answers); a level ends with one all-gather when no checkpoint is due.
#[test]
fn a_round_waits_once_and_a_level_ends_in_one_all_gather() {
    let mut gathers_by_levels = Vec::new();
    for board in [
        Board::new(2, 4).unwrap(),
        Board::new(3, 3).unwrap(),
        Board::new(2, 5).unwrap(),
    ] {
        let mut gathers = Vec::new();
        for batch in [300, 1 << 20] {
            for (all_to_all, all_gather, levels) in meetings(board, batch) {
                let rounds: usize = levels
                    .iter()
                    .map(|r| r.rounds as usize * if r.bottom_up { 2 } else { 1 })
                    .sum();
                // The empty last level's round (top-down or bottom-up) is not reported.
                assert!(
                    (1..=2).contains(&(all_to_all - rounds)),
                    "{board}, batch {batch}: {all_to_all} all-to-alls, {rounds} in the levels"
                );
                gathers.push(all_gather);
                gathers_by_levels.push((all_gather, levels.len() + 1));
            }
        }
        // Many more rounds with the small batch, and not one all-gather more.
        assert!(
            gathers.iter().all(|&g| g == gathers[0]),
            "{board}: {gathers:?}"
        );
    }
    // The same all-gathers before the first level whatever the board, one a level after it.
    let (g0, l0) = gathers_by_levels[0];
    for &(g, l) in &gathers_by_levels {
        assert_eq!(
            g - l,
            g0 - l0,
            "all-gathers and levels: {gathers_by_levels:?}"
        );
    }
}

/// Sends nothing in every round: not even the byte that ends a round's bytes.
struct Mute<E>(E);

impl<E: Exchange> Exchange for Mute<E> {
    fn rank(&self) -> u32 {
        self.0.rank()
    }
    fn size(&self) -> u32 {
        self.0.size()
    }
    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
        self.0.all_to_all(&vec![Vec::new(); outgoing.len()])
    }
    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
        self.0.all_gather_each(values)
    }
}

/// A round's bytes from another process that do not end in whether it has more to send are
/// refused, naming the sender, not taken as the end of the level.
#[test]
fn a_round_without_its_end_byte_is_refused_naming_the_sender() {
    let goal = Board::new(2, 4).unwrap().standard_goal();
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(goal, dir.path(), 1000);
    let errors: Vec<String> = thread::scope(|s| {
        let handles: Vec<_> = threads::group(2)
            .into_iter()
            .map(|inner| {
                let plan = &plan;
                s.spawn(move || {
                    let mut ex = Mute(inner);
                    solve_in_parts(plan, &mut ex, &mut |_| {})
                        .unwrap_err()
                        .to_string()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (me, e) in errors.iter().enumerate() {
        let from = 1 - me;
        assert!(
            e.contains(&format!("the offsets process {from} sent to process {me} do not end in 0 or 1 (whether more rounds follow)")),
            "{e}"
        );
    }
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// A run interrupted in 2 parts, then run in 3 (or 1): refused by every process, naming the
/// count it needs and --restart, and its checkpoints kept; on 2 it resumes into the same
/// bytes; with --restart, 3 parts start over.
#[test]
fn a_run_in_another_number_of_parts_is_refused_and_its_checkpoints_kept() {
    let board = Board::new(2, 4).unwrap();
    let goal = board.standard_goal();
    let expected = one_process(goal);
    let dir = tempfile::tempdir().unwrap();
    let p = plan(goal, dir.path(), 500);
    assert!(run(&p, 2, 60).iter().all(|(d, _)| d.is_err()));
    let before = names(dir.path());
    assert!(
        before.contains(&"part-0001-of-0002.checkpoint".to_string()),
        "{before:?}"
    );
    for parts in [3, 1] {
        let results = run(&p, parts, usize::MAX);
        for (k, (done, _)) in results.iter().enumerate() {
            match done {
                Err(GenError::EveryPart(e)) if k == 0 => assert_eq!(
                    e.to_string(),
                    format!(
                        "{}: it holds an interrupted run in 2 parts (part-0000-of-0002.checkpoint \
                         and the others), and this run has {parts}: rerun it on 2 processes to \
                         resume it, or add --restart to remove its checkpoints and start over in \
                         {parts}",
                        dir.path().display()
                    )
                ),
                Err(GenError::EveryPart(_)) => {}
                other => panic!("{parts} parts: {:?}", other.as_ref().map(|_| ())),
            }
        }
        assert_eq!(
            names(dir.path()),
            before,
            "{parts} parts changed the directory"
        );
    }
    for (done, resumed) in run(&p, 2, usize::MAX) {
        assert!(done.is_ok(), "{:?}", done.err());
        assert_eq!(resumed.len(), 1);
    }
    assert_eq!(joined(dir.path()), expected);

    // Interrupted in 2 again, then started over in 3 with --restart.
    let dir = tempfile::tempdir().unwrap();
    let p = plan(goal, dir.path(), 500);
    assert!(run(&p, 2, 60).iter().all(|(d, _)| d.is_err()));
    let restart = PartsPlan {
        restart: true,
        ..p.clone()
    };
    for (done, resumed) in run(&restart, 3, usize::MAX) {
        assert!(done.is_ok(), "{:?}", done.err());
        assert!(resumed.is_empty());
    }
    assert_eq!(joined(dir.path()), expected);
    assert_eq!(
        names(dir.path()),
        [
            "manifest",
            "part-0000-of-0003.slp",
            "part-0001-of-0003.slp",
            "part-0002-of-0003.slp"
        ]
    );
}

/// A second run into a directory while a run holds it is refused (the directory's lock,
/// named), changes nothing, and the first run finishes into the right bytes.
#[test]
fn two_runs_in_one_directory_are_refused() {
    use std::sync::mpsc;
    let board = Board::new(2, 4).unwrap();
    let goal = board.standard_goal();
    let expected = one_process(goal);
    let dir = tempfile::tempdir().unwrap();
    let p = plan(goal, dir.path(), 500);
    let (at_level, wait) = (mpsc::channel(), mpsc::channel::<()>());
    thread::scope(|s| {
        let first = s.spawn(|| {
            let (told, go) = (at_level.0, wait.1);
            solve_in_parts(&p, &mut slidetable_gen::parts::Alone, &mut |e| {
                if let PartsEvent::LevelStarted { level: 10 } = e {
                    told.send(()).unwrap();
                    go.recv().unwrap();
                }
            })
        });
        at_level.1.recv().unwrap();
        let before = names(dir.path());
        for parts in [1, 2] {
            let second = run(&p, parts, usize::MAX);
            match &second[0].0 {
                Err(GenError::EveryPart(e)) => assert_eq!(
                    e.to_string(),
                    format!(
                        "{}: another slidetable is generating {} (it holds this file's lock)",
                        dir.path().join(".checkpoint.lock").display(),
                        dir.path().display()
                    )
                ),
                other => panic!("{:?}", other.as_ref().map(|_| ())),
            }
            assert!(second.iter().all(|(d, _)| d.is_err()));
        }
        assert_eq!(names(dir.path()), before);
        wait.0.send(()).unwrap();
        first.join().unwrap().unwrap();
    });
    assert_eq!(joined(dir.path()), expected);
    assert_eq!(names(dir.path()), ["manifest", "part-0000-of-0001.slp"]);
}

/// A finished table in the directory (of another board, in another number of parts) stays,
/// whole and readable, while a new run goes on and after it is interrupted; the new table
/// replaces it only once complete, and nothing of the old one is left.
#[test]
fn a_finished_table_stays_until_the_new_one_is_complete() {
    let old_board = Board::new(2, 3).unwrap();
    let board = Board::new(2, 4).unwrap();
    let expected = one_process(board.standard_goal());
    for (old_parts, parts) in [(1, 1), (3, 1), (1, 2)] {
        let dir = tempfile::tempdir().unwrap();
        let old = plan(old_board.standard_goal(), dir.path(), 500);
        assert!(run(&old, old_parts, usize::MAX)
            .iter()
            .all(|(d, _)| d.is_ok()));
        let old_bytes = joined(dir.path());
        let p = plan(board.standard_goal(), dir.path(), 500);
        for fail_at in [30, 120] {
            assert!(run(&p, parts, fail_at).iter().all(|(d, _)| d.is_err()));
            assert_eq!(
                joined(dir.path()),
                old_bytes,
                "{old_parts} then {parts} parts, stopped at {fail_at}"
            );
        }
        for (done, _) in run(&p, parts, usize::MAX) {
            assert!(done.is_ok(), "{:?}", done.err());
        }
        assert_eq!(joined(dir.path()), expected);
        assert_eq!(
            names(dir.path()).len(),
            parts as usize + 1,
            "{:?}",
            names(dir.path())
        );
    }
}

/// A FIFO or a device where a state file or a checkpoint belongs is refused at once, named,
/// never read (a FIFO would block, /dev/zero fill memory).
#[test]
fn a_fifo_or_device_as_a_state_file_or_checkpoint_is_refused() {
    let goal = Board::new(2, 3).unwrap().standard_goal();
    for name in ["part-0000-of-0001.state", "part-0000-of-0001.checkpoint"] {
        for kind in ["fifo", "device"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(name);
            if kind == "fifo" {
                assert!(std::process::Command::new("mkfifo")
                    .arg(&path)
                    .status()
                    .unwrap()
                    .success());
            } else {
                std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
            }
            let e = run(&plan(goal, dir.path(), 500), 1, usize::MAX)
                .pop()
                .unwrap()
                .0
                .unwrap_err()
                .to_string();
            let what = if kind == "fifo" {
                "a FIFO"
            } else {
                "a character device"
            };
            assert!(
                e.starts_with(&format!(
                    "{}: it is {what}, not a regular file",
                    path.display()
                )),
                "{e}"
            );
        }
    }
}
