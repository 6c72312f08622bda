//! The table search across processes: each process owns one contiguous slice of the ranks
//! ([`Slices`]), keeps that slice's 2-bit entries and one frontier bit a rank in its memory,
//! and the processes meet once a level (`generate --parts DIR`; over MPI with the `mpi`
//! feature, see `parts/mpi.rs`). Each process runs the one-machine search's passes
//! (`bfs_residues.rs`: every core, top-down or bottom-up by the same rule) on its slice.
//!
//! A level, from `d` to `d + 1` (entries hold `d mod 3`; 3 = not reached yet), a window of the
//! slice at a time:
//!
//! 1. **top-down** (until the level outnumbers the states unseen): the window's frontier
//!    states whose entry is `d mod 3` mark their unreached neighbours in the slice with
//!    `(d + 1) mod 3` and a frontier bit, and are handed over themselves to the owners of
//!    their other neighbours (a move into a block of ranks wholly another slice's is not
//!    even made: its owner makes it); their own bits are cleared, as on one machine.
//!    **Bottom-up** (from then on, the frontier dropped): each
//!    unseen state of the window with a neighbour at `d mod 3` in the slice gets
//!    `(d + 1) mod 3`; one whose only candidates are in other slices hands those neighbours
//!    over as questions.
//!    While every level so far has at most `bfs_residues::listed_most` states in every
//!    part together (the first levels from the goal), a process keeps its share of the level as
//!    a list and expands it from there (`bfs_residues::expand_few`, the one-machine search's
//!    own), handing over the states with neighbours in other slices the same way: such a
//!    level costs what its states cost, not a pass over the slice's frontier words;
//! 2. after each window the processes swap what was handed over, all to all, as offsets
//!    ([`encode_offsets`]: sorted, without repeats, as LEB128 deltas). Top-down they are the
//!    sender's states, in its slice, sorted as its pass found them: the owner makes their
//!    moves into its slice and marks what they reach (`LevelPass::take`). Bottom-up they
//!    are the questions, in the owner's slice: it answers one bit an offset, whether its
//!    entry is `d mod 3`, and a state with a yes is marked (a second all to all). A
//!    window ends where the states its pass expands, one neighbour a move each, would pass
//!    [`PartsPlan::batch`] ([`round_bound`]: a round's memory is bounded whatever the
//!    level's size, its buffers allocated once a level); the processes go on in
//!    such rounds until every slice is done: each process's bytes to each other end in one
//!    byte, whether it has windows left (`LevelPass::end_round`), so a round is one wait;
//! 3. the new states are counted everywhere (the level's size), in one all-gather with the
//!    bytes sent, the peak memory and whether a checkpoint is due; an empty level ends the
//!    search.
//!
//! **Checkpoints**, as the one-machine search keeps them (`resume.rs`, [`PartsPlan::checkpoints`]):
//! at the end of a level that any process finds one due (ten times its cost since the last),
//! every process writes its entries (not the frontier: the entries give it back,
//! `bfs_residues::rebuild_frontier`) to `part-K-of-N.next` (a temporary file, synced,
//! renamed), and once every process has, renames it over its `part-K-of-N.checkpoint`. A run
//! killed at any moment leaves every process a checkpoint of one level in one of the two
//! files: a rerun goes on from the last level every process has ([`resume_point`]).
//!
//! At the end each process writes its part file (payload, block checksums, footer; a
//! temporary file renamed), and the process of part 0 writes the manifest last
//! (`slidetable_format::Manifest`).

use std::fs;
use std::io::{self, Read as _, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use slidetable_core::{Board, Layout, Ranker, Ranks, Scan, ScanCursor, WideRanker, SCAN_CHUNK};
use slidetable_format::{
    block_count, is_part_name, joined_crc, open_regular, part_name, slice_payload_len, BlockSums,
    CostModel, Encoding, Header, Manifest, PartFooter, PartRecord, PayloadHasher, PayloadSums,
    SectionSpec, Slices, MANIFEST_NAME, PART_FOOTER_LEN,
};

use crate::bfs_residues::{
    expand_few, listed_most, rebuild_frontier, words_of, Handover, Levels, Residues, Sweep,
};
use crate::checkpoint::{
    self, identity, probe_disk, read_head, read_words, CheckpointEvent, Head, Pace, Pacer, Remedy,
    Resumed, Scratch,
};
use crate::mapped::{create_allocated, map};
use crate::scale::{entry_words, frontier_words};
pub use crate::scale::{round_bound, DEFAULT_BATCH};
use crate::state_file::{self, join, write_durably, ReadError};
pub use crate::ExchangeError;
use crate::GenError;

pub(crate) use crate::checkpoint::sync_dir;

#[cfg(feature = "mpi")]
pub mod mpi;
mod peak;

pub use crate::checkpoint::{resume_point, Left, Resume};
pub use peak::peak_memory;

/// How processes meet: what the search needs of MPI (or of anything else that joins
/// processes): two collective calls that every process makes in the same order.
pub trait Exchange {
    /// This process's number, from 0 (it owns part `rank`).
    fn rank(&self) -> u32;
    /// How many processes (and parts).
    fn size(&self) -> u32;
    /// Sends the bytes `outgoing[k]` to process `k` (this process's own are empty) and returns
    /// what every process sent to this one, one `Vec` per process, in process order.
    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError>;
    /// For each of `values` (every process passes as many), every process's, in process
    /// order: one collective call for several agreements.
    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError>;
    /// Every process's `value`, in process order.
    fn all_gather(&mut self, value: u64) -> Result<Vec<u64>, ExchangeError> {
        Ok(self.all_gather_each(&[value])?.swap_remove(0))
    }
    /// How many processes of the run share this one's machine, and so its memory (MPI's
    /// shared-memory split of the run); 1 where that is not known.
    fn on_this_machine(&self) -> u32 {
        1
    }
    /// Ends every process of the run with `code` (MPI's abort), for a process that fails while
    /// the others may wait for it in a collective call; alone, there is nothing to end.
    fn abort(&mut self, code: i32) {
        let _ = code;
    }
}

/// The one process of a search that is not shared: every rank is its own.
#[derive(Debug, Default)]
pub struct Alone;

impl Exchange for Alone {
    fn rank(&self) -> u32 {
        0
    }
    fn size(&self) -> u32 {
        1
    }
    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
        Ok(vec![Vec::new(); outgoing.len()])
    }
    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
        Ok(values.iter().map(|&v| vec![v]).collect())
    }
}

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct PartsPlan {
    /// The goal of the table's one section.
    pub goal: Layout,
    /// The directory of the parts and the manifest (seen by every process).
    pub dir: PathBuf,
    /// Start over even if an earlier run's checkpoints are there.
    pub restart: bool,
    /// At most how many neighbours a window of the slice hands to other processes before a
    /// round of exchange ([`round_bound`]: at least one frontier word a window).
    pub batch: usize,
    /// When the processes write checkpoints (at the end of a level that any process finds
    /// one due; `Pace::from_env()` is the one-machine search's rule).
    pub checkpoints: Pace,
}

/// What a run tells as it goes.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum PartsEvent {
    /// What the checkpoints did: an earlier run's found (the search goes on from the last
    /// level every part has a checkpoint of, or every part written, from its last level),
    /// every process's checkpoint of a level in place, or some process's not written (the
    /// search goes on from the checkpoints before it, which stay).
    Checkpoint(CheckpointEvent),
    /// A level begins (for a watchdog: each level should end in bounded time).
    LevelStarted {
        /// The level being found (its distance).
        level: u32,
    },
    /// A level is found.
    LevelDone(LevelReport),
}

/// One level's figures.
#[derive(Clone, Debug)]
pub struct LevelReport {
    /// The level's distance.
    pub level: u32,
    /// States at that distance, in every part.
    pub states: u64,
    /// Bytes of offsets every process sent to others, together (as encoded).
    pub bytes_sent: u64,
    /// Rounds of exchange.
    pub rounds: u32,
    /// Whether the level was found bottom-up (unseen states asking for a neighbour in the
    /// level before) rather than top-down (that level's states marking their neighbours).
    pub bottom_up: bool,
    /// Wall time, from the level's start to its save.
    pub elapsed: Duration,
    /// Words of 64 ranks that every process's passes went through, together: the level's
    /// counts of states to expand and its windows (a frontier word, or bottom-up a pair of
    /// entry words, each). 0 for a level expanded from a list of its states (the first
    /// levels from the goal, as on one machine).
    pub words_scanned: u64,
    /// Each process's memory high-water mark so far, in bytes ([`peak_memory`]).
    pub peak_memory: Vec<u64>,
}

/// What a finished run made.
#[derive(Clone, Debug)]
pub struct PartsDone {
    /// States at each distance (every part).
    pub histogram: Vec<u64>,
    /// This process's part file.
    pub part: PathBuf,
    /// The manifest, for the process that wrote it (part 0's).
    pub manifest: Option<PathBuf>,
}
/// Runs this process's share of the search of `plan.goal`'s class and writes its part; the
/// process of part 0 writes the manifest once every part is written.
pub fn solve_in_parts(
    plan: &PartsPlan,
    exchange: &mut dyn Exchange,
    events: &mut dyn FnMut(PartsEvent),
) -> Result<PartsDone, GenError> {
    if crate::bfs_residues::wide_ranks(plan.goal.board())? {
        solve_in_width::<WideRanker>(plan, exchange, events)
    } else {
        solve_in_width::<Ranker>(plan, exchange, events)
    }
}

/// [`solve_in_parts`] in the rank width of `R`: [`Ranker`] (32-bit ranks within a blank
/// cell's block) up to 14 cells, [`WideRanker`] (64-bit) for 15 and 16, which
/// [`solve_in_parts`] picks. The parts are the same bytes in either width, on any board
/// both rank.
pub fn solve_in_width<R: Ranks>(
    plan: &PartsPlan,
    exchange: &mut dyn Exchange,
    events: &mut dyn FnMut(PartsEvent),
) -> Result<PartsDone, GenError> {
    let goal = plan.goal;
    let board = goal.board();
    let scan = Scan::<R>::build(board, goal.class(), true)?;
    let (me, parts) = (exchange.rank(), exchange.size());
    let entries = board.reachable_states();
    let slices = Slices::new(entries, parts);
    // Every process checks its memory before anything; all refuse together, the process of
    // part 0 naming the one short of memory (`GenError::EveryPart`): none is left waiting in
    // a collective call, or ended by MPI's abort.
    let here = exchange.on_this_machine();
    let room = crate::room::check_parts_room(board, me, parts, plan.batch, here);
    let available = match &room {
        Err(GenError::NoRoomForParts { available, .. }) => *available,
        _ => u64::MAX,
    };
    let everyone = exchange.all_gather(available)?;
    let short = everyone.iter().enumerate().min_by_key(|&(_, &a)| a);
    if let Some((k, &least)) = short.filter(|&(_, &a)| a != u64::MAX) {
        let origin = match room {
            Err(GenError::NoRoomForParts { origin, .. }) => origin,
            _ => crate::room::process_memory(here)?.map_or_else(String::new, |(_, o)| o),
        };
        return Err(GenError::EveryPart(Box::new(GenError::NoRoomForParts {
            board,
            part: k as u32,
            parts,
            batch: plan.batch,
            needs: crate::room::parts_needs(board, parts, plan.batch),
            available: least,
            origin,
            takes: crate::room::processes_for(
                board,
                least.saturating_mul(u64::from(here)),
                plan.batch,
            ),
        })));
    }
    room?;
    let files = Files::new(&plan.dir, me, parts);
    let dir_error = |source| GenError::Io {
        path: plan.dir.clone(),
        source,
    };
    check_dir_everywhere(&plan.dir, exchange)?;
    let _lock = lock_dir(&plan.dir, exchange)?;
    // An interrupted run in another number of parts is resumed only by that number of
    // processes: refused, never removed, unless --restart.
    let other = if me == 0 {
        checkpoint::interrupted_elsewhere(&plan.dir, parts, &[".state", ".checkpoint", ".next"])
            .map_err(dir_error)?
    } else {
        None
    };
    let other = exchange.all_gather(other.map_or(0, |(m, _)| u64::from(m)))?[0];
    if other != 0 && !plan.restart {
        let example = part_name(0, other as u32).replace(".slp", ".checkpoint");
        return Err(checkpoint::other_count(
            &plan.dir,
            other as u32,
            parts,
            &example,
        ));
    }
    if me == 0 && plan.restart {
        remove_other_runs(&plan.dir, parts, false).map_err(dir_error)?;
    }
    if plan.restart {
        files.remove_all()?;
    }
    let (left, finished_histogram) = files.left(&goal, me, parts)?;
    let keys = exchange.all_gather(left.key())?;
    let all: Vec<Left> = keys.iter().map(|&k| Left::of_key(k)).collect();
    let resume = resume_point(&all).map_err(|problem| GenError::Parts {
        path: plan.dir.clone(),
        problem,
    })?;
    let ranks = slices.part(me);
    let ctx = Context {
        plan,
        scan: &scan,
        slices: &slices,
        files: &files,
        me,
        parts,
    };
    let mut pacer = Pacer::new(plan.checkpoints);
    let (mut slice, mut histogram) = match resume {
        Resume::Finish => {
            let histogram = finished_histogram
                .ok_or_else(|| files.bad_state("it says finished but holds no histogram"))?;
            events(PartsEvent::Checkpoint(CheckpointEvent::Resumed(
                files.resumed(&files.state, histogram.len() as u32 - 1, &histogram),
            )));
            return finish_part(&ctx, exchange, None, &histogram);
        }
        Resume::Fresh => {
            files.remove_all()?;
            checkpoint::none_yet(&files.checkpoint, Some((me, parts)));
            let mut slice = Slice::new(ranks.clone());
            let goal_rank = scan.ranker().rank(&goal);
            if ranks.contains(&goal_rank) {
                slice.mark(goal_rank - ranks.start, 0);
                slice.few = Some(vec![goal_rank]);
            }
            let histogram = vec![1];
            files.write_state(&goal, me, parts, 0, false, &histogram)?;
            ctx.checkpoint_if_due(exchange, events, &mut pacer, &slice, &histogram)?;
            (slice, histogram)
        }
        Resume::From(level) => {
            let (slice, histogram) = files.load(&goal, me, parts, level, ranks.clone(), &left)?;
            events(PartsEvent::Checkpoint(CheckpointEvent::Resumed(
                files.resumed(&files.checkpoint, level, &histogram),
            )));
            checkpoint::kept(&files.checkpoint, 0, level, None, Some((me, parts)));
            files.write_state(&goal, me, parts, level, false, &histogram)?;
            (slice, histogram)
        }
    };
    let levels = Levels {
        histogram: histogram.clone(),
        states: entries,
    };
    if slice.frontier.is_none() && !levels.bottom_up() {
        // Resumed before a top-down level: the frontier from the entries.
        let frontier = words_of(slice.frontier_len(), 0);
        rebuild_frontier(&scan, &slice.residues, &frontier, levels.depth());
        slice.frontier = Some(frontier);
    }
    let level = ctx.search(exchange, events, &mut pacer, &mut slice, &mut histogram)?;
    let footer = slice.write_part(&files, &goal, me, parts)?;
    // Every part written: only now does a table the directory held before go (its manifest
    // first, so that the directory is never a table of mixed parts), and the new parts take
    // their names.
    exchange.all_gather(0)?;
    if me == 0 {
        remove_if_there(&plan.dir.join(MANIFEST_NAME)).map_err(dir_error)?;
    }
    exchange.all_gather(0)?;
    fs::rename(&files.part_tmp, &files.part).map_err(|e| files.io(&files.part, e))?;
    sync_dir(&files.part);
    files.write_state(&goal, me, parts, level, true, &histogram)?;
    finish_part(&ctx, exchange, Some(footer), &histogram)
}

/// Makes the `--parts` directory when it is missing and its parent is a directory (part 0's
/// process; a missing parent is refused, so a mistyped path leaves at most one empty
/// directory), then refuses one that is not a directory, every process at once, before the
/// search: each process looks (on a cluster each must see the directory), and part 0's
/// process says why (`GenError::EveryPart`), with its own refusal or, when only others could
/// not see the directory, naming the first of them. Alone, the refusal as any command's.
pub(crate) fn check_dir_everywhere(
    dir: &Path,
    exchange: &mut dyn Exchange,
) -> Result<(), GenError> {
    let made = if exchange.rank() == 0 {
        make_parts_dir(dir)
    } else {
        Ok(())
    };
    if exchange.size() == 1 {
        return made.and_then(|()| check_dir(dir));
    }
    // The others look once part 0's process has made it.
    let made_ok = exchange.all_gather(u64::from(made.is_ok()))?[0] == 1;
    let mine = match made {
        Err(e) => Err(e),
        Ok(()) if made_ok => check_dir(dir),
        Ok(()) => Err(GenError::Parts {
            path: dir.to_path_buf(),
            problem: "part 0's process could not make it".into(),
        }),
    };
    let seen = exchange.all_gather(u64::from(mine.is_ok()))?;
    let Some(k) = seen.iter().position(|&s| s == 0) else {
        return Ok(());
    };
    let why = match mine {
        Err(e) if seen[0] == 0 || exchange.rank() != 0 => e,
        _ => GenError::Parts {
            path: dir.to_path_buf(),
            problem: format!(
                "part {k}'s process does not see it as a directory: every process must see \
                 the --parts directory (a file system the machines share)"
            ),
        },
    };
    Err(GenError::EveryPart(Box::new(why)))
}

/// `dir` made if it is missing and its parent is a directory; else left as it is, for
/// [`check_dir`] to judge (a parent that is missing is refused here).
fn make_parts_dir(dir: &Path) -> Result<(), GenError> {
    if fs::symlink_metadata(dir).is_ok() {
        return Ok(());
    }
    let parent = match dir.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => return Ok(()),
    };
    if !parent.is_dir() {
        return Err(GenError::NoDirectory {
            path: dir.to_path_buf(),
            dir: parent.to_path_buf(),
            link: None,
        });
    }
    match fs::create_dir(dir) {
        Ok(()) => {
            sync_dir(dir);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(source) => Err(GenError::Io {
            path: dir.to_path_buf(),
            source,
        }),
    }
}

/// Refuses a `--parts` directory that is not one (seen by every process).
fn check_dir(dir: &Path) -> Result<(), GenError> {
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => Err(GenError::Parts {
            path: dir.to_path_buf(),
            problem: format!(
                "is {}, not a directory: --parts names the directory of the parts and \
                 the manifest",
                if m.is_file() {
                    "a file"
                } else {
                    slidetable_format::file_kind(&m.file_type())
                }
            ),
        }),
        Err(_) => Err(GenError::NoDirectory {
            path: dir.join(MANIFEST_NAME),
            dir: dir.to_path_buf(),
            link: None,
        }),
    }
}

/// One run in a directory at a time: part 0's process holds the directory's lock for the
/// run (the one-machine search's lock, `checkpoint::take_lock`), and every process learns
/// whether it could. The lock (part 0's), held until dropped.
pub(crate) fn lock_dir(
    dir: &Path,
    exchange: &mut dyn Exchange,
) -> Result<Option<crate::write::temporary::LockFile>, GenError> {
    let me = exchange.rank();
    let lock_path = dir.join(LOCK_NAME);
    let lock = (me == 0).then(|| checkpoint::take_lock(&lock_path, dir));
    let locked = exchange.all_gather(u64::from(!matches!(lock, Some(Err(_)))))?;
    match lock {
        Some(Err(e)) => Err(GenError::EveryPart(Box::new(e))),
        Some(Ok(lock)) => Ok(Some(lock)),
        None if locked[0] == 0 => Err(GenError::EveryPart(Box::new(GenError::Parts {
            path: lock_path,
            problem: "part 0's process could not lock it (another run?)".into(),
        }))),
        None => Ok(None),
    }
}

/// What every step of a process's run reads.
struct Context<'a, R: Ranks> {
    plan: &'a PartsPlan,
    scan: &'a Scan<R>,
    slices: &'a Slices,
    files: &'a Files,
    me: u32,
    parts: u32,
}

impl<R: Ranks> Context<'_, R> {
    /// The levels after the histogram's last, until one is empty everywhere; returns the last
    /// level.
    fn search(
        &self,
        exchange: &mut dyn Exchange,
        events: &mut dyn FnMut(PartsEvent),
        pacer: &mut Pacer,
        slice: &mut Slice,
        histogram: &mut Vec<u64>,
    ) -> Result<u32, GenError> {
        let mut level = histogram.len() as u32 - 1;
        // The most states of a level found from lists: the one-machine rule on the largest
        // slice's bitmap, the same for every process.
        let largest = (0..self.parts)
            .map(|k| self.slices.part(k))
            .map(|ranks| ranks.end - ranks.start)
            .max()
            .unwrap_or(0);
        let listed = listed_most(frontier_words(largest));
        loop {
            let start = Instant::now();
            events(PartsEvent::LevelStarted { level: level + 1 });
            // The one-machine search's rule, from the histogram alone: every process takes
            // the same passes, and so does a resumed run.
            let bottom_up = Levels {
                histogram: histogram.clone(),
                states: self.scan.ranker().states(),
            }
            .bottom_up();
            if bottom_up {
                // Bottom-up from here on: the bitmap is no longer needed.
                slice.frontier = None;
            }
            let few = slice.few.take();
            let slice_ref: &Slice = slice;
            let mut level_pass = LevelPass {
                exchange: &mut *exchange,
                scan: self.scan,
                slices: self.slices,
                slice: slice_ref,
                board: self.plan.goal.board(),
                batch: self.plan.batch.max(1),
            };
            let step = match slice_ref.frontier.as_deref() {
                Some(frontier) => level_pass.top_down(level, frontier, few.as_deref())?,
                None => level_pass.bottom_up(level)?,
            };
            // Whether this process finds a checkpoint due is asked now, so that the level's
            // states, bytes, peaks and that go in one all-gather.
            let due = self.due(pacer, slice);
            let [found, sent, peaks, due, scanned] =
                <[Vec<u64>; 5]>::try_from(exchange.all_gather_each(&[
                    step.found,
                    step.sent,
                    peak_memory(),
                    u64::from(due),
                    step.scanned,
                ])?)
                .map_err(|all| {
                    ExchangeError(format!("an all-gather of 5 values gave {}", all.len()))
                })?;
            let (states, bytes_sent) = (found.iter().sum(), sent.iter().sum());
            if states == 0 {
                return Ok(level);
            }
            level += 1;
            histogram.push(states);
            // The next level from a list while the levels are small in every part together
            // (every process keeps its list or none: the rule is the histogram's and the
            // largest slice's).
            slice.few = step.next.filter(|_| states <= listed);
            let elapsed = start.elapsed();
            events(PartsEvent::LevelDone(LevelReport {
                level,
                states,
                bytes_sent,
                rounds: step.rounds,
                bottom_up,
                elapsed,
                peak_memory: peaks,
                words_scanned: scanned.iter().sum(),
            }));
            if due.iter().any(|&d| d != 0) {
                self.checkpoint(exchange, events, pacer, slice, histogram)?;
            }
        }
    }

    /// Whether this process finds a checkpoint of its slice due (the one-machine rule).
    fn due(&self, pacer: &mut Pacer, slice: &Slice) -> bool {
        pacer.due(slice.checkpoint_bytes(), &mut || {
            probe_disk(&self.plan.dir, &self.files.prefix)
        })
    }

    /// Writes every process's checkpoint of the histogram's last level if any process finds
    /// one due (every process takes part: the decision is an all-gather).
    fn checkpoint_if_due(
        &self,
        exchange: &mut dyn Exchange,
        events: &mut dyn FnMut(PartsEvent),
        pacer: &mut Pacer,
        slice: &Slice,
        histogram: &[u64],
    ) -> Result<(), GenError> {
        let due = self.due(pacer, slice);
        if exchange.all_gather(u64::from(due))?.iter().any(|&d| d != 0) {
            self.checkpoint(exchange, events, pacer, slice, histogram)?;
        }
        Ok(())
    }

    /// Writes every process's checkpoint of the histogram's last level (one is due: some
    /// process found it so, and every process takes part).
    fn checkpoint(
        &self,
        exchange: &mut dyn Exchange,
        events: &mut dyn FnMut(PartsEvent),
        pacer: &mut Pacer,
        slice: &Slice,
        histogram: &[u64],
    ) -> Result<(), GenError> {
        let bytes = slice.checkpoint_bytes();
        let level = histogram.len() as u32 - 1;
        let started = Instant::now();
        let goal = &self.plan.goal;
        let written = self
            .files
            .write_next(slice, goal, self.me, self.parts, histogram);
        let everywhere = exchange.all_gather(u64::from(written.is_ok()))?;
        if everywhere.iter().all(|&ok| ok != 0) {
            // Every process's checkpoint of `level` is in place: the older ones may go.
            // Put in place and told as one step, as a signal's handler sees it.
            crate::write::temporary::hold_writes(|| {
                self.files.put_next_in_place()?;
                let part = Some((self.me, self.parts));
                checkpoint::kept(&self.files.checkpoint, 0, level, None, part);
                Ok::<(), GenError>(())
            })?;
            self.files
                .write_state(goal, self.me, self.parts, level, false, histogram)?;
            let took = started.elapsed();
            pacer.saved(took, bytes);
            events(PartsEvent::Checkpoint(CheckpointEvent::Saved {
                section: 0,
                level,
                bytes,
                took,
            }));
        } else {
            remove_if_there(&self.files.next).map_err(|e| self.files.io(&self.files.next, e))?;
            pacer.failed();
            events(PartsEvent::Checkpoint(CheckpointEvent::Failed {
                level,
                checkpoint: self.files.checkpoint.clone(),
                error: written.err().map(|e| e.to_string()),
            }));
        }
        Ok(())
    }
}

/// What one process did in a level.
#[derive(Default)]
struct Step {
    /// States it reached in its slice.
    found: u64,
    /// Bytes it sent to others.
    sent: u64,
    /// Rounds of exchange.
    rounds: u32,
    /// Words of 64 ranks its passes went through ([`LevelReport::words_scanned`]).
    scanned: u64,
    /// The states it reached, in rank order, for a level found from a list of its states
    /// ([`LevelPass::top_down`]).
    next: Option<Vec<u64>>,
}

/// Where a top-down level's states are found: a list of them (the first levels from the
/// goal, `bfs_residues::expand_few`, as on one machine), or the frontier bitmap, a window
/// of words at a time (with the level's [`Counts`]).
enum Source<'a> {
    List(&'a [u64]),
    Bitmap(Counts),
}

/// One process's passes of a level over its slice, a window of its frontier words at a time
/// (`bfs_residues.rs`' passes, every core), with a round of exchange after each window until
/// every process's slice is done.
struct LevelPass<'a, R: Ranks> {
    exchange: &'a mut dyn Exchange,
    scan: &'a Scan<R>,
    slices: &'a Slices,
    slice: &'a Slice,
    board: Board,
    /// At most how many neighbours a window hands to other processes (see
    /// [`LevelPass::window_end`]).
    batch: usize,
}

/// [`LevelPass::counts`]: the states to expand in each block of [`COUNTED`] frontier words.
struct Counts {
    blocks: Vec<u64>,
}

/// The last byte of a round's bytes from one process to another ([`LevelPass::end_round`]):
/// the sender has more of the level to send, another round follows.
const MORE: u8 = 1;

/// ... or it has not: no round follows unless another process has more.
const DONE: u8 = 0;

/// Frontier words a block of [`Counts`]: 4,096 (262,144 ranks), so that a 2×7 slice's
/// counts take a megabyte and a window is found in a few hundred steps.
const COUNTED: usize = 1 << 12;

/// A bottom-up round's questions (neighbours in other slices) and their bytes on the wire,
/// and the offsets that come back: a level's buffers, allocated once and reused by every
/// round, sized to the round's bound, so a round neither grows nor frees them. (A top-down
/// round's states go out as its pass finds them: [`Handed`].)
struct Outbox {
    /// The neighbours (ranks) a round hands over, sorted in place.
    ranks: Vec<u64>,
    /// The radix sort's other half.
    spare: Vec<u64>,
    /// The offsets another process sent, decoded.
    offsets: Vec<u64>,
    /// The encoded offsets (or answers) for each process.
    wire: Vec<Vec<u8>>,
    /// [`encode_sorted`]'s pieces.
    pieces: Vec<Vec<u8>>,
}

impl Outbox {
    fn new(most: usize, parts: u32) -> Outbox {
        Outbox {
            ranks: Vec::with_capacity(most),
            spare: Vec::with_capacity(most),
            offsets: Vec::with_capacity(most),
            wire: vec![Vec::new(); parts as usize],
            pieces: Vec::new(),
        }
    }

    /// Sorts the ranks in `self.ranks`, drops repeats, and encodes each owner's as offsets in
    /// its slice into `self.wire[owner]`; where each owner's ranks begin in `self.ranks`
    /// (and their end, last).
    fn encode(&mut self, slices: &Slices) -> Vec<usize> {
        radix_sort(&mut self.ranks, &mut self.spare);
        self.ranks.dedup();
        let parts = self.wire.len();
        let mut bounds = Vec::with_capacity(parts + 1);
        bounds.push(0);
        for (o, w) in self.wire.iter_mut().enumerate() {
            let part = slices.part(o as u32);
            let from = *bounds.last().unwrap_or(&0);
            let to = from + self.ranks[from..].partition_point(|&r| r < part.end);
            encode_sorted(&self.ranks[from..to], part.start, w, &mut self.pieces);
            bounds.push(to);
        }
        bounds
    }
}

/// A piece of a top-down pass's states handed to one process: the offsets in this slice of
/// the states with a neighbour in the owner's slice, sorted, each once, encoded as they go
/// on the wire ([`encode_offsets`]) but for the first, kept apart, so that the pieces are
/// joined in order into one list of differences.
struct Handed {
    owner: u32,
    piece: usize,
    first: u64,
    last: u64,
    rest: Vec<u8>,
}

/// A piece's states for one owner, as the pass finds them.
#[derive(Default)]
struct Handing {
    first: Option<u64>,
    last: u64,
    rest: Vec<u8>,
}

impl Handing {
    /// Adds offset `o` (at least the last one): a state goes to an owner once.
    #[inline]
    fn add(&mut self, o: u64) {
        match self.first {
            None => self.first = Some(o),
            Some(_) if o == self.last => return,
            Some(_) => varint(o - self.last, &mut self.rest),
        }
        self.last = o;
    }
}

/// Where a process's top-down pass hands its states ([`Handover`]): for each owner, a piece
/// at a time, into `handed`.
struct HandOver<'a> {
    slices: &'a Slices,
    /// This slice's first rank.
    mine: u64,
    /// For each blank cell, the owners of the cells of [`Sweep::away`] its moves reach.
    owners: Vec<Vec<u32>>,
    /// The slices just before and after this one, and their parts: where the neighbours of
    /// [`Handover::far`] mostly are (a block of ranks cut by this slice's end), found
    /// without a search of every slice.
    before: (Range<u64>, u32),
    after: (Range<u64>, u32),
    handed: Mutex<Vec<Handed>>,
}

impl Handover for HandOver<'_> {
    type Piece = Vec<Handing>;

    fn start(&self) -> Vec<Handing> {
        (0..self.slices.parts())
            .map(|_| Handing::default())
            .collect()
    }

    #[inline]
    fn away(&self, piece: &mut Vec<Handing>, r: u64, blank: usize) {
        for &o in &self.owners[blank] {
            piece[o as usize].add(r - self.mine);
        }
    }

    #[inline]
    fn word(&self, piece: &mut Vec<Handing>, base: u64, lanes: u64, blank: usize) {
        for &o in &self.owners[blank] {
            let handing = &mut piece[o as usize];
            let mut lanes = lanes;
            while lanes != 0 {
                handing.add(base - self.mine + u64::from(lanes.trailing_zeros()));
                lanes &= lanes - 1;
            }
        }
    }

    #[inline]
    fn far(&self, piece: &mut Vec<Handing>, r: u64, n: u64) {
        let owner = if self.after.0.contains(&n) {
            self.after.1
        } else if self.before.0.contains(&n) {
            self.before.1
        } else {
            self.slices.owner(n)
        };
        piece[owner as usize].add(r - self.mine);
    }

    fn end(&self, number: usize, piece: Vec<Handing>) {
        let these = piece.into_iter().enumerate().filter_map(|(owner, h)| {
            h.first.map(|first| Handed {
                owner: owner as u32,
                piece: number,
                first,
                last: h.last,
                rest: h.rest,
            })
        });
        lock(&self.handed).extend(these);
    }
}

impl Handed {
    /// Joins `pieces` into each owner's bytes on the wire (`wire[owner]`, replaced), the
    /// pieces in order.
    fn join(pieces: &mut [Handed], wire: &mut [Vec<u8>]) {
        pieces.sort_unstable_by_key(|h| (h.owner, h.piece));
        for (owner, bytes) in wire.iter_mut().enumerate() {
            bytes.clear();
            let mut last = 0;
            for h in pieces.iter().filter(|h| h.owner as usize == owner) {
                varint(h.first - last, bytes);
                bytes.extend_from_slice(&h.rest);
                last = h.last;
            }
        }
    }
}

impl<R: Ranks> LevelPass<'_, R> {
    /// [`round_bound`] of this search.
    fn round_bound(&self) -> usize {
        round_bound(self.board, self.batch)
    }

    /// The window of frontier words from `at`: as many words as keep the states its pass
    /// expands, one neighbour a move each, within the batch (at least one word), so that no
    /// round hands over more than [`round_bound`] neighbours whatever the level's size. The
    /// counts are [`Counts`] of whole blocks where a block fits, of words within the block
    /// where the window ends.
    fn window_end(&self, at: usize, depth: u32, counts: &Counts) -> usize {
        let len = self.slice.frontier_len();
        let most = self.window_states();
        let mut states = 0u64;
        let mut end = at;
        while end < len {
            // A whole block at once where it fits, else word by word.
            if end.is_multiple_of(COUNTED) {
                let block = counts.blocks[end / COUNTED];
                if states + block <= most {
                    states += block;
                    end = (end + COUNTED).min(len);
                    continue;
                }
            }
            let here = u64::from(self.slice.expanding(end, depth));
            if end > at && states + here > most {
                break;
            }
            states += here;
            end += 1;
        }
        end
    }

    /// At most how many states a window expands: one neighbour a move each within the batch.
    fn window_states(&self) -> u64 {
        (self.batch / crate::scale::moves(self.board) as usize).max(1) as u64
    }

    /// The level's counts of states to expand, a block of [`COUNTED`] words at a time, on
    /// every thread: taken once at the level's start, they stay upper bounds through it (a
    /// pass only clears frontier bits and settles unseen states; what it marks is of the
    /// next level). Top-down, a frontier word's bits alone (not its entries: a third of the
    /// bytes, which a level of a few states is all about), each of them a state that the
    /// level's pass expands or one that it skips.
    fn counts(&self, depth: u32) -> Counts {
        let slice = self.slice;
        let len = slice.frontier_len();
        let bound = |w: usize| match &slice.frontier {
            Some(bits) => bits[w].load(Relaxed).count_ones(),
            None => slice.expanding(w, depth),
        };
        let blocks = (0..len.div_ceil(COUNTED))
            .into_par_iter()
            .map(|b| {
                (b * COUNTED..((b + 1) * COUNTED).min(len))
                    .map(|w| u64::from(bound(w)))
                    .sum()
            })
            .collect();
        Counts { blocks }
    }

    /// The pass over frontier words `at..end`.
    fn pass(&self, depth: u32, window: Range<usize>) -> Sweep<'_, R> {
        // Pieces for every thread, in a window smaller than the one-machine search's pieces.
        let threads = rayon::current_num_threads().max(1);
        let piece = SCAN_CHUNK.min((window.len() / (4 * threads)).max(1));
        Sweep {
            scan: self.scan,
            residues: &self.slice.residues,
            depth,
            window,
            piece,
            away: 0,
        }
    }

    /// The cells (bit `c` for cell `c`) whose block of ranks (the states with the blank in
    /// `c`) lies wholly outside this process's slice: in one other process's slice alone
    /// (`one`: a move there is that process's to make), or in any others.
    fn away(&self, one: bool) -> u32 {
        let block = self.scan.ranker().block();
        let mine = &self.slice.ranks;
        (0..self.board.cells() as u64)
            .filter(|&c| {
                let (lo, hi) = (c * block, (c + 1) * block);
                let outside = hi <= mine.start || lo >= mine.end;
                let owner = self.slices.owner(lo);
                outside && (!one || self.slices.part(owner).contains(&(hi - 1)))
            })
            .fold(0, |cells, c| cells | 1 << c)
    }

    /// Ends this process's bytes to every other process (`wire`, its own left empty) with
    /// [`MORE`] or [`DONE`]: whether it has windows of the level left after this round
    /// (`done`: none), so that a round is one wait, the all-to-all (no all-gather of who is
    /// done after it).
    fn end_round(&self, wire: &mut [Vec<u8>], done: bool) {
        let me = self.exchange.rank() as usize;
        for (to, bytes) in wire.iter_mut().enumerate() {
            if to != me {
                bytes.push(if done { DONE } else { MORE });
            }
        }
    }

    /// Takes the last byte off what every other process sent in a round ([`end_round`]):
    /// whether any process, this one included (`done`: this one has nothing left), has more
    /// of the level to send, i.e. whether another round follows.
    ///
    /// [`end_round`]: LevelPass::end_round
    fn round_ends(&self, received: &mut [Vec<u8>], done: bool) -> Result<bool, ExchangeError> {
        let me = self.exchange.rank();
        let mut more = !done;
        for (from, bytes) in received.iter_mut().enumerate() {
            if from == me as usize {
                continue;
            }
            match bytes.pop() {
                Some(MORE) => more = true,
                Some(DONE) => {}
                _ => {
                    return Err(sent_to(
                        format!("do not end in {DONE} or {MORE} (whether more rounds follow)"),
                        from,
                        me,
                    ))
                }
            }
        }
        Ok(more)
    }

    /// Level `depth`'s top-down pass: the states of level `depth` in `frontier` mark their
    /// neighbours in this slice; a state with neighbours in other slices is sent to their
    /// owners (as an offset in this slice, [`Handed`]), who make its moves into their
    /// slices and mark what they reach ([`LevelPass::take`]). The states go out in the
    /// order of the pass, sorted already: nothing is sorted, and no neighbour is made
    /// twice. With `few`, the level's states in this slice as a list (the first levels from
    /// the goal), they are expanded from it (`bfs_residues::expand_few`, as on one machine)
    /// in windows of the same bound, no word of the frontier gone through, and the states
    /// reached are listed too ([`Step::next`]).
    fn top_down(
        &mut self,
        depth: u32,
        frontier: &[AtomicU64],
        few: Option<&[u64]>,
    ) -> Result<Step, GenError> {
        let (me, parts) = (self.exchange.rank(), self.exchange.size());
        let next = (depth + 1) % 3;
        let slices = self.slices;
        let (hand, take) = (self.away(true), self.away(false));
        let block = self.scan.ranker().block();
        let owners = (0..self.board.cells())
            .map(|c| {
                let mut owners: Vec<u32> = (self.scan.moves().from(c).iter())
                    .filter(|&&(_, to)| hand >> to & 1 != 0)
                    .map(|&(_, to)| slices.owner(u64::from(to) * block))
                    .collect();
                owners.sort_unstable();
                owners.dedup();
                owners
            })
            .collect();
        let neighbour = |k: Option<u32>| {
            k.filter(|&k| k < parts)
                .map_or((0..0, 0), |k| (slices.part(k), k))
        };
        let mut handover = HandOver {
            slices,
            mine: self.slice.ranks.start,
            owners,
            before: neighbour(me.checked_sub(1)),
            after: neighbour(me.checked_add(1)),
            handed: Mutex::new(Vec::new()),
        };
        let mut wire = vec![Vec::new(); parts as usize];
        let mut step = Step::default();
        let source = match few {
            Some(list) => Source::List(list),
            None => {
                step.scanned += self.slice.frontier_len() as u64;
                Source::Bitmap(self.counts(depth))
            }
        };
        let listed = few.map(|_| Mutex::new(Vec::new()));
        let mut at = 0;
        loop {
            let done = match &source {
                Source::List(list) => {
                    let end = (at + self.window_states() as usize).min(list.len());
                    let mut piece = handover.start();
                    let reached = expand_few(
                        self.scan,
                        &self.slice.residues,
                        frontier,
                        &list[at..end],
                        depth,
                        &mut |r, n| handover.far(&mut piece, r, n),
                    );
                    handover.end(0, piece);
                    step.found += reached.len() as u64;
                    if let Some(listed) = &listed {
                        lock(listed).extend(reached);
                    }
                    at = end;
                    at >= list.len()
                }
                Source::Bitmap(counts) => {
                    let end = self.window_end(at, depth, counts);
                    step.scanned += (end - at) as u64;
                    let pass = Sweep {
                        away: hand,
                        ..self.pass(depth, at..end)
                    };
                    step.found += pass.top_down(frontier, &handover, &|_| {});
                    at = end;
                    at >= self.slice.frontier_len()
                }
            };
            let pieces = handover
                .handed
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner);
            Handed::join(pieces, &mut wire);
            pieces.clear();
            self.end_round(&mut wire, done);
            step.sent += wire.iter().map(|w| w.len() as u64).sum::<u64>();
            let mut received = self.exchange.all_to_all(&wire)?;
            step.rounds += 1;
            let more = self.round_ends(&mut received, done)?;
            for (from, bytes) in received.iter().enumerate() {
                step.found += self
                    .take(bytes, slices.part(from as u32), take, next, listed.as_ref())
                    .map_err(|p| sent_to(p, from, me))?;
            }
            if !more {
                step.next = listed.map(|listed| {
                    let mut states = listed.into_inner().unwrap_or_else(PoisonError::into_inner);
                    states.sort_unstable();
                    states
                });
                return Ok(step);
            }
        }
    }

    /// Makes the moves into this slice (the cells not in `away`) of the states of the
    /// sender's slice `theirs` whose offsets are in `bytes`, on every thread, and marks what
    /// they reach with `next` (and adds them to `listed`, if the level's states are listed);
    /// the states reached.
    fn take(
        &self,
        bytes: &[u8],
        theirs: Range<u64>,
        away: u32,
        next: u32,
        listed: Option<&Mutex<Vec<u64>>>,
    ) -> Result<u64, String> {
        let (scan, slice) = (self.scan, self.slice);
        let block = scan.ranker().block();
        let Range { start: first, end } = slice.ranks;
        // Each piece's cursor, and the blank of the block its last state was in (and where
        // that block ends): the states come sorted.
        let start = || (scan.cursor(), 0usize, 0u64);
        let expand = |(cursor, blank, ends): &mut (ScanCursor, usize, u64), o: u64| {
            let r = theirs.start + o;
            if r >= *ends {
                *blank = (r / block) as usize;
                *ends = (*blank as u64 + 1) * block;
            }
            let mut reached = 0;
            scan.any_neighbor_off(cursor, r, *blank, away, |_, n| {
                if n >= first && n < end && slice.mark(n - first, next) {
                    reached += 1;
                    if let Some(listed) = listed {
                        lock(listed).push(n);
                    }
                }
                false
            });
            reached
        };
        mark_offsets(bytes, theirs.end - theirs.start, start, expand)
    }

    /// Level `depth`'s bottom-up pass: each unseen state of this slice with a neighbour at
    /// `depth mod 3` gets `(depth + 1) mod 3`; a state whose neighbours at
    /// `depth mod 3` could only be in other slices asks their owners (the offsets, encoded as
    /// the top-down pass sends them), who answer one bit an offset, in the order of the
    /// offsets sorted.
    fn bottom_up(&mut self, depth: u32) -> Result<Step, GenError> {
        let (me, parts) = (self.exchange.rank(), self.exchange.size());
        let (want, next) = (depth % 3, (depth + 1) % 3);
        let mut out = Outbox::new(self.round_bound(), parts);
        let mut asked = Mutex::new(Vec::with_capacity(self.round_bound()));
        let mut answers: Vec<Vec<u8>> = vec![Vec::new(); parts as usize];
        let mut step = Step::default();
        let counts = self.counts(depth);
        step.scanned += self.slice.frontier_len() as u64;
        let mut at = 0;
        loop {
            let end = self.window_end(at, depth, &counts);
            step.scanned += (end - at) as u64;
            let pass = self.pass(depth, at..end);
            step.found += pass.bottom_up(&|pairs| lock(&asked).append(pairs), &|_| {});
            at = end;
            let pairs = asked.get_mut().unwrap_or_else(PoisonError::into_inner);
            out.ranks.clear();
            out.ranks.extend(pairs.iter().map(|&[_, n]| n));
            let done = at >= self.slice.frontier_len();
            let bounds = out.encode(self.slices);
            self.end_round(&mut out.wire, done);
            step.sent += out.wire.iter().map(|w| w.len() as u64).sum::<u64>();
            let mut received = self.exchange.all_to_all(&out.wire)?;
            let more = self.round_ends(&mut received, done)?;
            let slice = self.slice;
            for ((from, bytes), bits) in received.iter().enumerate().zip(&mut answers) {
                decode(bytes, &mut out.offsets, from, me)?;
                out.offsets
                    .par_chunks(8)
                    .map(|eight| {
                        eight.iter().enumerate().fold(0u8, |byte, (k, &i)| {
                            let at_want =
                                i < slice.ranks.end - slice.ranks.start && slice.entry(i) == want;
                            byte | u8::from(at_want) << k
                        })
                    })
                    .collect_into_vec(bits);
                step.sent += bits.len() as u64;
            }
            let replies = self.exchange.all_to_all(&answers)?;
            step.rounds += 1;
            for (from, bits) in replies.iter().enumerate() {
                let offsets = bounds[from + 1] - bounds[from];
                if bits.len() != offsets.div_ceil(8) {
                    return Err(ExchangeError(format!(
                        "process {from} answered {offsets} offsets of process {me} in {} bytes",
                        bits.len()
                    ))
                    .into());
                }
            }
            let (slices, ranks) = (self.slices, &out.ranks);
            let first = slice.ranks.start;
            step.found += pairs
                .par_iter()
                .filter(|&&[r, n]| {
                    let o = slices.owner(n) as usize;
                    let yes = ranks.binary_search(&n).is_ok_and(|k| {
                        let k = k - bounds[o];
                        replies[o][k / 8] >> (k % 8) & 1 == 1
                    });
                    yes && slice.mark(r - first, next)
                })
                .count() as u64;
            pairs.clear();
            if !more {
                return Ok(step);
            }
        }
    }
}

/// The offsets process `from` sent to process `me`, decoded into `into` (replaced).
fn decode(bytes: &[u8], into: &mut Vec<u64>, from: usize, me: u32) -> Result<(), ExchangeError> {
    into.clear();
    decode_offsets(bytes, |i| into.push(i)).map_err(|problem| sent_to(problem, from, me))
}

/// What is wrong with the offsets process `from` sent to process `me`.
fn sent_to(problem: String, from: usize, me: u32) -> ExchangeError {
    ExchangeError(format!(
        "the offsets process {from} sent to process {me} {problem}"
    ))
}

/// The vector behind `m`, even if a thread panicked holding it (the panic is the error).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Once every part is written (`footer`: this process's, or `None` to read it from its part
/// file, written by a run that got this far), the manifest (part 0's process); then removes
/// this process's state file and checkpoints.
fn finish_part<R: Ranks>(
    ctx: &Context<'_, R>,
    exchange: &mut dyn Exchange,
    footer: Option<PartFooter>,
    histogram: &[u64],
) -> Result<PartsDone, GenError> {
    let (me, files, plan) = (ctx.me, ctx.files, ctx.plan);
    let goal = plan.goal;
    let board = goal.board();
    let footer = match footer {
        Some(footer) => footer,
        None => {
            let bytes = open_regular(&files.part, u64::MAX, "part")
                .map_err(|e| files.bad_part(format!("it {e}")))
                .and_then(|(mut file, len)| {
                    let mut bytes = Vec::with_capacity(len as usize);
                    file.read_to_end(&mut bytes)
                        .map_err(|e| files.io(&files.part, e))?;
                    Ok(bytes)
                })?;
            let footer = PartFooter::parse(&bytes).map_err(|e| files.bad_part(e.to_string()))?;
            footer
                .verify(&bytes)
                .map_err(|e| files.bad_part(e.to_string()))?;
            footer
        }
    };
    let crcs = exchange
        .all_gather(u64::from(footer.payload_crc) | u64::from(footer.footer_crc()) << 32)?;
    let mut manifest = None;
    if me == 0 {
        let records: Vec<PartRecord> = crcs
            .iter()
            .enumerate()
            .map(|(k, &c)| PartRecord {
                ranks: ctx.slices.part(k as u32),
                payload_crc: c as u32,
                footer_crc: (c >> 32) as u32,
            })
            .collect();
        let crc = joined_crc(
            records
                .iter()
                .map(|r| (r.payload_crc, slice_payload_len(&r.ranks))),
        );
        let header = Header::build(
            board,
            Encoding::TwoBit,
            CostModel::Unit,
            vec![SectionSpec {
                goal,
                histogram: histogram.to_vec(),
            }],
            // The manifest keeps a version-1 header: the joined payload's one checksum,
            // which the parts' own make up; `merge` writes the table as version 2.
            PayloadSums::Whole(crc),
        )?;
        let bytes = Manifest {
            parts: records,
            header: header.to_bytes(),
        }
        .to_bytes();
        // What other runs left (parts of a table in another number of parts, a run
        // restarted over) would make the new table refused: they go before it is one.
        remove_other_runs(&plan.dir, ctx.parts, true).map_err(|e| files.io(&plan.dir, e))?;
        let path = plan.dir.join(MANIFEST_NAME);
        write_durably(&path, &bytes).map_err(|e| files.io(&path, e))?;
        manifest = Some(path);
    }
    exchange.all_gather(0)?;
    files.remove_working()?;
    checkpoint::set_in_progress(None);
    Ok(PartsDone {
        histogram: histogram.to_vec(),
        part: files.part.clone(),
        manifest,
    })
}

/// Encodes `offsets` (emptied) into `into` (replaced) as they go on the wire: sorted, each
/// once (marking a state twice is marking it once), as the LEB128 varints of the differences
/// from the previous one (the first from 0). 64-bit offsets, so a slice may hold any number of
/// ranks, in fewer bytes than fixed 32-bit ones: a round's offsets are close together.
pub fn encode_offsets(offsets: &mut Vec<u64>, into: &mut Vec<u8>) {
    radix_sort(offsets, &mut Vec::new());
    offsets.dedup();
    encode_sorted(offsets, 0, into, &mut Vec::new());
    offsets.clear();
}

/// Sorts `values` in place (`spare` is scratch, left as long): a round's offsets are
/// millions of numbers below the slice's length, which a comparison sort took a sixth of a
/// 3×4 search in parts to sort, and an LSD radix sort of 11-bit digits (each pass scattering
/// over all memory, on one thread) a fifth (docs/SCALE.md). So: the most significant
/// [`TOP_BITS`] first, every thread scattering its share of `values` into buckets of
/// `spare` (the buckets' pieces handed out beforehand, so no two threads write one), then
/// each bucket, a few thousand numbers that fit a core's cache, by 8-bit digits from the
/// least significant, the buckets on every thread.
fn radix_sort(values: &mut Vec<u64>, spare: &mut Vec<u64>) {
    const SMALL: usize = 1 << 12;
    if values.len() <= SMALL {
        values.sort_unstable();
        return;
    }
    let largest = values.par_iter().copied().max().unwrap_or(0);
    let bits = u64::BITS - largest.leading_zeros();
    let shift = bits.saturating_sub(TOP_BITS);
    let buckets = 1usize << (bits - shift);
    let bucket = |v: u64| (v >> shift) as usize;
    spare.clear();
    spare.resize(values.len(), 0);
    let share = values.len().div_ceil(rayon::current_num_threads().max(1));
    let counts: Vec<Vec<usize>> = values
        .par_chunks(share)
        .map(|chunk| {
            let mut n = vec![0usize; buckets];
            chunk.iter().for_each(|&v| n[bucket(v)] += 1);
            n
        })
        .collect();
    // Bucket by bucket, each share's piece of it, in share order (so equal buckets keep the
    // shares' order, which sorting the bucket then disregards).
    let mut pieces: Vec<Vec<&mut [u64]>> = counts.iter().map(|_| Vec::new()).collect();
    let mut ends = Vec::with_capacity(buckets);
    let mut rest = &mut spare[..];
    let mut at = 0;
    for b in 0..buckets {
        for (n, to) in counts.iter().zip(&mut pieces) {
            let (piece, after) = std::mem::take(&mut rest).split_at_mut(n[b]);
            to.push(piece);
            rest = after;
            at += n[b];
        }
        ends.push(at);
    }
    values
        .par_chunks(share)
        .zip(pieces)
        .for_each(|(chunk, mut to)| {
            let mut filled = vec![0usize; buckets];
            for &v in chunk {
                let b = bucket(v);
                to[b][filled[b]] = v;
                filled[b] += 1;
            }
        });
    split_at_ends(&mut spare[..], &ends)
        .into_par_iter()
        .zip(split_at_ends(&mut values[..], &ends))
        .for_each(|(from, to)| sort_low_bits(from, to, shift));
}

/// `all` cut into the pieces that end at `ends` (ascending, the last `all.len()`).
fn split_at_ends<'a>(mut all: &'a mut [u64], ends: &[usize]) -> Vec<&'a mut [u64]> {
    let mut last = 0;
    ends.iter()
        .map(|&end| {
            let (here, after) = std::mem::take(&mut all).split_at_mut(end - last);
            all = after;
            last = end;
            here
        })
        .collect()
}

/// The most significant bits [`radix_sort`] sorts by first: 1,024 buckets, a few thousand
/// numbers each in a round of millions.
const TOP_BITS: u32 = 10;

/// Sorts `from` (numbers equal above their `bits` low bits) into `to` (as long; `from` is
/// then scratch), 8 bits a pass from the least significant.
fn sort_low_bits(from: &mut [u64], to: &mut [u64], bits: u32) {
    let passes = bits.div_ceil(8);
    let (mut a, mut b) = (from, to);
    for pass in 0..passes {
        let digit = |v: u64| ((v >> (8 * pass)) & 0xff) as usize;
        let mut counts = [0usize; 256];
        a.iter().for_each(|&v| counts[digit(v)] += 1);
        let mut at = 0;
        for c in counts.iter_mut() {
            (*c, at) = (at, at + *c);
        }
        for &v in a.iter() {
            let d = digit(v);
            b[counts[d]] = v;
            counts[d] += 1;
        }
        std::mem::swap(&mut a, &mut b);
    }
    // After an even number of passes the numbers are back in `from`.
    if passes.is_multiple_of(2) {
        b.copy_from_slice(a);
    }
}

/// [`encode_offsets`] of `values` sorted and without repeats already, kept, as offsets from
/// `base` (each at least `base`: a slice's first rank, for ranks of that slice); a long list
/// in pieces on every thread (`pieces`: their bytes, kept for the next round), each piece's
/// first difference from the number before it, then joined.
pub(crate) fn encode_sorted(
    values: &[u64],
    base: u64,
    into: &mut Vec<u8>,
    pieces: &mut Vec<Vec<u8>>,
) {
    into.clear();
    let piece = values
        .len()
        .div_ceil(4 * rayon::current_num_threads().max(1))
        .max(PIECE_OFFSETS);
    if values.len() <= piece {
        encode_differences(values, base, 0, into);
        return;
    }
    let n = values.len().div_ceil(piece);
    pieces.resize_with(n.max(pieces.len()), Vec::new);
    values
        .par_chunks(piece)
        .zip(&mut pieces[..n])
        .enumerate()
        .for_each(|(k, (these, bytes))| {
            bytes.clear();
            let last = if k == 0 {
                0
            } else {
                values[k * piece - 1] - base
            };
            encode_differences(these, base, last, bytes);
        });
    pieces[..n]
        .iter()
        .for_each(|bytes| into.extend_from_slice(bytes));
}

/// Offsets a piece of [`encode_sorted`] or [`mark_offsets`] takes at least: 64 Ki (fewer go
/// on one thread).
const PIECE_OFFSETS: usize = 1 << 16;

/// Appends to `into` the varints of the differences of `values − base` (sorted), the first
/// from `last`.
fn encode_differences(values: &[u64], base: u64, mut last: u64, into: &mut Vec<u8>) {
    for o in values.iter().map(|v| v - base) {
        varint(o - last, into);
        last = o;
    }
}

/// Appends the LEB128 varint of `d` to `into`.
#[inline]
fn varint(mut d: u64, into: &mut Vec<u8>) {
    while d >= 0x80 {
        into.push((d as u8) | 0x80);
        d >>= 7;
    }
    into.push(d as u8);
}

/// Calls `each` with every offset [`encode_offsets`] wrote into `bytes`, in order; says what
/// is wrong with bytes it did not write (a varint cut short or too long, an offset past 2⁶⁴).
pub fn decode_offsets(bytes: &[u8], each: impl FnMut(u64)) -> Result<(), String> {
    add_differences(bytes, 0, each).map(|_| ())
}

/// Calls `each` with `last` plus the differences that `bytes` (whole varints, cut where one
/// ends) hold, added up in order; the last sum.
fn add_differences(bytes: &[u8], mut last: u64, mut each: impl FnMut(u64)) -> Result<u64, String> {
    let (mut d, mut shift) = (0u64, 0u32);
    for &b in bytes {
        if shift > 63 || (shift == 63 && b > 1) {
            return Err("hold a varint longer than 64 bits".to_string());
        }
        d |= u64::from(b & 0x7f) << shift;
        if b & 0x80 != 0 {
            shift += 7;
            continue;
        }
        last = last
            .checked_add(d)
            .ok_or_else(|| "add up past 2^64".to_string())?;
        each(last);
        (d, shift) = (0, 0);
    }
    if shift != 0 {
        return Err("end in the middle of a varint".to_string());
    }
    Ok(last)
}

/// Calls `mark` with every offset [`encode_offsets`] wrote into `bytes`, on every thread,
/// and adds up what it returns: the bytes cut into pieces where a varint ends, each piece's
/// sum of differences taken first, then each piece decoded from the sum of those before it,
/// with its own state (`start()`, then passed to `mark` with each offset, in order). Says
/// what [`decode_offsets`] says of bytes it did not write, and refuses an offset from
/// `limit` on before any is marked.
fn mark_offsets<S>(
    bytes: &[u8],
    limit: u64,
    start: impl Fn() -> S + Sync,
    mark: impl Fn(&mut S, u64) -> u64 + Sync,
) -> Result<u64, String> {
    let n = (bytes.len() / PIECE_OFFSETS).clamp(1, 4 * rayon::current_num_threads().max(1));
    let mut cuts = vec![0];
    for k in 1..n {
        let mut at = (bytes.len() * k / n).max(*cuts.last().unwrap_or(&0));
        while at < bytes.len() && at > 0 && bytes[at - 1] & 0x80 != 0 {
            at += 1;
        }
        cuts.push(at);
    }
    cuts.push(bytes.len());
    let pieces: Vec<&[u8]> = cuts.windows(2).map(|c| &bytes[c[0]..c[1]]).collect();
    let sums = pieces
        .par_iter()
        .map(|piece| add_differences(piece, 0, |_| {}))
        .collect::<Result<Vec<u64>, String>>()?;
    let mut starts = Vec::with_capacity(sums.len());
    let mut at = 0u64;
    for sum in sums {
        starts.push(at);
        at = at
            .checked_add(sum)
            .ok_or_else(|| "add up past 2^64".to_string())?;
    }
    // The offsets ascend: the last is the sum of every difference.
    if !bytes.is_empty() && at >= limit {
        return Err(format!(
            "reach offset {at}, past the sender's slice of {limit} ranks"
        ));
    }
    pieces
        .par_iter()
        .zip(starts)
        .map(|(piece, from)| {
            let (mut yes, mut state) = (0u64, start());
            add_differences(piece, from, |i| yes += mark(&mut state, i))?;
            Ok(yes)
        })
        .sum()
}

/// This process's slice: its 2-bit entries and, for top-down levels, its frontier bits, in
/// its memory: the words the one-machine search's passes change (`bfs_residues.rs`).
struct Slice {
    ranks: Range<u64>,
    residues: Residues,
    /// `None` once the levels are bottom-up (or until a resumed run rebuilds it).
    frontier: Option<Vec<AtomicU64>>,
    /// The frontier's states as a list (ranks, in order) while every level so far had at
    /// most [`listed_most`] states in every part together; `None` from the first larger level on,
    /// and in a resumed run.
    few: Option<Vec<u64>>,
}

/// The bytes a checkpoint or a part is written in at a time.
const PIECE: usize = 1 << 20;

impl Slice {
    /// Every state of `ranks` unseen, no frontier bit set.
    fn new(ranks: Range<u64>) -> Slice {
        let frontier = words_of(frontier_words(ranks.end - ranks.start), 0);
        Slice {
            residues: Residues::new(ranks.clone()),
            frontier: Some(frontier),
            few: Some(Vec::new()),
            ranks,
        }
    }

    /// Frontier words: one per 64 ranks (whether or not the frontier is kept now).
    fn frontier_len(&self) -> usize {
        frontier_words(self.ranks.end - self.ranks.start)
    }

    /// At most how many states of frontier word `w` the pass of level `depth` expands.
    fn expanding(&self, w: usize, depth: u32) -> u32 {
        self.residues.expanding(w, depth, self.frontier.as_deref())
    }

    /// Local rank `i`'s entry: 3 if not reached yet, else its distance mod 3.
    fn entry(&self, i: u64) -> u32 {
        self.residues.value(self.ranks.start + i)
    }

    /// Marks local rank `i` at value `v` (and its frontier bit, if there is a frontier) if it
    /// is not reached yet; whether it was new.
    #[inline]
    fn mark(&self, i: u64, v: u32) -> bool {
        if i >= self.ranks.end - self.ranks.start {
            return false;
        }
        let rank = self.ranks.start + i;
        match &self.frontier {
            Some(frontier) => self.residues.reach(rank, v, frontier),
            None => self.residues.settle(rank, v),
        }
    }

    /// The bytes of the entries a checkpoint holds: every word, as the search keeps them.
    fn checkpoint_bytes(&self) -> u64 {
        8 * self.residues.words().len() as u64
    }

    /// The entries' words, little-endian, a piece at a time: every word (a checkpoint), or
    /// with `payload` only the part's payload (entries past the slice 0).
    fn each_piece(
        &self,
        payload: bool,
        out: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        let words = self.residues.words();
        let (last, mask) = self.residues.last_word_mask();
        let len = if payload {
            slice_payload_len(&self.ranks) as usize
        } else {
            words.len() * 8
        };
        let mut buffer = Vec::with_capacity(PIECE);
        for (k, piece) in words.chunks(PIECE / 8).enumerate() {
            buffer.clear();
            for (i, w) in piece.iter().enumerate() {
                let index = k * (PIECE / 8) + i;
                let mut word = w.load(Relaxed);
                if payload && index >= last {
                    word = if index == last { word & mask } else { 0 };
                }
                buffer.extend_from_slice(&word.to_le_bytes());
            }
            let at = k * PIECE;
            let take = buffer.len().min(len.saturating_sub(at));
            if take == 0 {
                break;
            }
            out(&buffer[..take])?;
        }
        Ok(())
    }

    /// Writes the part file: the payload, its block checksums and the footer, into its
    /// temporary file, synced (renamed into place once every process has written its own).
    fn write_part(
        &self,
        files: &Files,
        goal: &Layout,
        me: u32,
        parts: u32,
    ) -> Result<PartFooter, GenError> {
        let tmp = &files.part_tmp;
        let failed = |e| files.io(tmp, e);
        let payload = slice_payload_len(&self.ranks);
        let tail = 4 * block_count(payload) + PART_FOOTER_LEN as u64;
        let mut file = create_allocated(tmp, payload + tail).map_err(failed)?;
        self.each_piece(true, &mut |piece| file.write_all(piece))
            .map_err(failed)?;
        let sums = {
            let written = map(&file, 0, payload).map_err(failed)?;
            BlockSums::of([&written[..]])
        };
        let sums_bytes = sums.to_bytes();
        let mut sums_crc = PayloadHasher::new();
        sums_crc.update(&sums_bytes);
        let footer = PartFooter {
            board: goal.board(),
            encoding: Encoding::TwoBit,
            cost: CostModel::Unit,
            goal: *goal,
            entries: goal.board().reachable_states(),
            ranks: self.ranks.clone(),
            part: me,
            parts,
            payload_crc: sums.payload,
            block_sums_crc: Some(sums_crc.finalize()),
        };
        let footer_bytes = footer.to_bytes();
        debug_assert_eq!(PART_FOOTER_LEN, footer_bytes.len());
        file.write_all(&sums_bytes)
            .and_then(|()| file.write_all(&footer_bytes))
            .and_then(|()| file.set_len(payload + tail))
            .and_then(|()| file.sync_all())
            .map_err(failed)?;
        drop(file);
        Ok(footer)
    }
}

/// The files of one process's part: its state (what it got to, its process), its
/// checkpoints, and the part file.
struct Files {
    state: PathBuf,
    /// The checkpoint every process has.
    checkpoint: PathBuf,
    /// A newer checkpoint, in place once every process has written its own.
    next: PathBuf,
    /// The checkpoint being written.
    tmp: PathBuf,
    part: PathBuf,
    /// The part being written.
    part_tmp: PathBuf,
    /// What an older slidetable kept instead of checkpoints: its slice in working files
    /// mapped shared (not resumed: removed when a run starts over).
    older: [PathBuf; 2],
    /// The start of this process's temporary files' names (the disk probe's).
    prefix: String,
}

/// What a checkpoint's lines say.
struct CheckpointLines {
    level: u32,
    histogram: Vec<u64>,
    head: Head,
}

/// What a damaged or foreign checkpoint of a part says can be done.
const PARTS_REMEDY: Remedy = Remedy {
    damaged: "start over with --restart",
    refused: "start over with --restart",
};

impl Files {
    fn new(dir: &Path, me: u32, parts: u32) -> Files {
        let name = part_name(me, parts);
        let part = dir.join(&name);
        let with = |ext: &str| part.with_extension(ext);
        Files {
            state: with("state"),
            checkpoint: with("checkpoint"),
            next: with("next"),
            tmp: with("checkpoint.tmp"),
            part_tmp: with("part.tmp"),
            older: [with("entries"), with("frontier")],
            prefix: format!("{}.", name.trim_end_matches(".slp")),
            part,
        }
    }

    fn io(&self, path: &Path, source: io::Error) -> GenError {
        GenError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    fn bad_state(&self, problem: &str) -> GenError {
        GenError::Parts {
            path: self.state.clone(),
            problem: problem.to_string(),
        }
    }

    fn bad_part(&self, problem: String) -> GenError {
        GenError::Parts {
            path: self.part.clone(),
            problem,
        }
    }

    fn remove(&self, paths: &[&PathBuf]) -> Result<(), GenError> {
        for path in paths {
            remove_if_there(path).map_err(|e| self.io(path, e))?;
        }
        Ok(())
    }

    /// Every working file of this part: a run that starts over. (A finished table's part
    /// stays until the new one is written over it.)
    fn remove_all(&self) -> Result<(), GenError> {
        self.remove(&self.older.iter().collect::<Vec<_>>())?;
        self.remove_working()
    }

    /// The files of a run, once the table is whole: all but the part.
    fn remove_working(&self) -> Result<(), GenError> {
        self.remove(&[
            &self.tmp,
            &self.next,
            &self.checkpoint,
            &self.part_tmp,
            &self.state,
        ])
    }

    /// What an earlier run of this part left, and if its search ended, the histogram.
    fn left(
        &self,
        goal: &Layout,
        me: u32,
        parts: u32,
    ) -> Result<(Left, Option<Vec<u64>>), GenError> {
        let finished = self.read_finished(goal)?.filter(|_| self.part.exists());
        let level = |path: &Path| -> Result<Option<u32>, GenError> {
            Ok(self
                .read_lines(path, goal, me, parts)?
                .map(|lines| lines.level))
        };
        let left = Left {
            finished: finished.is_some(),
            checkpoint: level(&self.checkpoint)?,
            next: level(&self.next)?,
        };
        Ok((left, finished))
    }

    /// The histogram of the state file, if it says the search ended (checked to be this
    /// run's goal).
    fn read_finished(&self, goal: &Layout) -> Result<Option<Vec<u64>>, GenError> {
        let read =
            match state_file::read(&self.state) {
                Ok(Some(read)) => read,
                Ok(None) => return Ok(None),
                Err(ReadError::Io(e)) => return Err(self.io(&self.state, e)),
                Err(ReadError::Damaged) => return Err(self.bad_state(
                    "it is damaged (its CRC does not match its lines); start over with --restart",
                )),
                Err(ReadError::Refused(e)) => {
                    return Err(
                        self.bad_state(&format!("it {e}: remove it, or start over with --restart"))
                    )
                }
            };
        let Some(theirs) = read.get("goal") else {
            return Err(self.bad_state("it names no goal; start over with --restart"));
        };
        if theirs != goal_text(goal) {
            return Err(self.bad_state(&format!(
                "it was saved by a run for goal {theirs:?}, not this one's; start over with \
                 --restart"
            )));
        }
        match read.get("phase") {
            Some("finished") => {}
            Some("done") => return Ok(None),
            _ => return Err(self.bad_state("its phase is not done or finished")),
        }
        let histogram = read
            .numbers("histogram")
            .ok_or_else(|| self.bad_state("its histogram is not numbers"))?;
        if histogram.is_empty() {
            return Err(self.bad_state("its histogram is empty"));
        }
        Ok(Some(histogram))
    }

    /// What this process has got to, for a person or a script watching the run (its
    /// process, its last checkpoint's level) and, once `finished`, for the run that writes
    /// the manifest again (the histogram).
    fn write_state(
        &self,
        goal: &Layout,
        me: u32,
        parts: u32,
        level: u32,
        finished: bool,
        histogram: &[u64],
    ) -> Result<(), GenError> {
        let text = format!(
            "board {}\ngoal {}\npart {me} of {parts}\nlevel {level}\nphase {}\nhistogram {}\npid {}\n",
            goal.board(),
            goal_text(goal),
            if finished { "finished" } else { "done" },
            join(histogram),
            std::process::id(),
        );
        state_file::write(&self.state, &text).map_err(|e| self.io(&self.state, e))
    }

    /// The lines that name a checkpoint's run: a run resumes only its own part's.
    fn identity(goal: &Layout, me: u32, parts: u32) -> String {
        identity(
            "parts",
            &[
                ("board", goal.board().to_string()),
                ("goal", goal_text(goal)),
                ("part", format!("{me} of {parts}")),
            ],
        )
    }

    /// Reads the lines of the checkpoint at `path`: `None` if there is none.
    fn read_lines(
        &self,
        path: &Path,
        goal: &Layout,
        me: u32,
        parts: u32,
    ) -> Result<Option<CheckpointLines>, GenError> {
        let refused = |r: checkpoint::Refusal| r.at(path, true);
        let Some(head) = read_head(
            path,
            &Files::identity(goal, me, parts),
            PARTS_REMEDY,
            |_| {
                "it is a checkpoint of another run (board, goal or part of how many): start \
                 over with --restart"
                    .into()
            },
        )
        .map_err(refused)?
        else {
            return Ok(None);
        };
        let bad = |problem: &str| GenError::Parts {
            path: path.to_path_buf(),
            problem: format!("{problem}: start over with --restart"),
        };
        let level = u32::try_from(head.number("level").map_err(refused)?)
            .map_err(|_| bad("its level is too large"))?;
        let histogram = head.numbers("histogram").map_err(refused)?;
        if histogram.len() != level as usize + 1 {
            return Err(bad("its histogram does not end at its level"));
        }
        Ok(Some(CheckpointLines {
            level,
            histogram,
            head,
        }))
    }

    /// What a resumed run tells of the file `path` (a checkpoint or the state file) of
    /// `level`: the states settled are every part's, as `histogram` says.
    fn resumed(&self, path: &Path, level: u32, histogram: &[u64]) -> Resumed {
        let (pid, saved) = if path == self.state {
            let pid = state_file::read(path)
                .ok()
                .flatten()
                .and_then(|read| read.get("pid").and_then(|p| p.parse().ok()));
            let saved = fs::metadata(path).and_then(|m| m.modified()).ok();
            (pid.unwrap_or(0), saved)
        } else {
            match read_head(path, "", PARTS_REMEDY, |_| String::new()) {
                Ok(Some(head)) => (head.pid(), Some(head.saved(path))),
                _ => (0, None),
            }
        };
        Resumed {
            section: 0,
            sections: 1,
            level,
            settled: histogram.iter().sum(),
            saved: saved.unwrap_or_else(std::time::SystemTime::now),
            pid,
            checkpoint: path.to_path_buf(),
        }
    }

    /// The slice and histogram of this process's checkpoint of `level` (in `.checkpoint` or
    /// `.next`, as `left` says), its entries' CRC checked; the newer file put in place.
    fn load(
        &self,
        goal: &Layout,
        me: u32,
        parts: u32,
        level: u32,
        ranks: Range<u64>,
        left: &Left,
    ) -> Result<(Slice, Vec<u64>), GenError> {
        let path = if left.checkpoint == Some(level) {
            &self.checkpoint
        } else {
            &self.next
        };
        let failed = |e| self.io(path, e);
        let lines = self
            .read_lines(path, goal, me, parts)?
            .filter(|l| l.level == level)
            .ok_or_else(|| GenError::Parts {
                path: path.to_path_buf(),
                problem: format!("its checkpoint of level {level} is gone"),
            })?;
        let words = entry_words(ranks.end - ranks.start);
        let refused = |r: checkpoint::Refusal| r.at(path, true);
        let mut input = lines
            .head
            .entries(path, 8 * words as u64)
            .map_err(refused)?;
        let mut crc = crc32fast::Hasher::new();
        let entries = read_words(&mut input, words, &mut crc).map_err(failed)?;
        lines.head.check_crc(crc).map_err(refused)?;
        if path == &self.next {
            // Every process has a checkpoint of `level`: the older one may go.
            self.put_next_in_place()?;
        } else {
            // A newer checkpoint some other process never wrote: of no use.
            remove_if_there(&self.next).map_err(|e| self.io(&self.next, e))?;
        }
        let slice = Slice {
            residues: Residues::from_words(entries, ranks.clone()),
            frontier: None,
            few: None,
            ranks,
        };
        Ok((slice, lines.histogram))
    }

    /// Writes the checkpoint of `slice` (between two levels, the histogram's last found) to
    /// a temporary file, synced, renamed to `.next`.
    fn write_next(
        &self,
        slice: &Slice,
        goal: &Layout,
        me: u32,
        parts: u32,
        histogram: &[u64],
    ) -> Result<(), GenError> {
        let text = format!(
            "{}level {}\nhistogram {}\n",
            Files::identity(goal, me, parts),
            histogram.len() - 1,
            join(histogram),
        );
        let pieces = |out: &mut dyn FnMut(&[u8]) -> io::Result<()>| slice.each_piece(false, out);
        checkpoint::write(
            Scratch::Fixed(&self.tmp),
            &self.next,
            &text,
            &pieces,
            |_| {},
        )
        .map_err(|e| self.io(&self.tmp, e))
    }

    /// Renames `.next` over `.checkpoint` (every process has its `.next`).
    fn put_next_in_place(&self) -> Result<(), GenError> {
        fs::rename(&self.next, &self.checkpoint).map_err(|e| self.io(&self.checkpoint, e))?;
        sync_dir(&self.checkpoint);
        Ok(())
    }
}

fn goal_text(goal: &Layout) -> String {
    let tiles: Vec<String> = goal.tiles().iter().map(u8::to_string).collect();
    format!("{} {}", goal.board(), tiles.join(" "))
}

pub(crate) fn remove_if_there(path: &Path) -> io::Result<()> {
    checkpoint::remove_if_there(path).map(|_| ())
}

/// The lock file of a directory of parts, held by part 0's process for the run.
pub const LOCK_NAME: &str = ".checkpoint.lock";

/// The working files' extensions of a run (a part's state, checkpoints, temporaries; the
/// working files an older slidetable kept).
const WORKING: [&str; 7] = [
    ".entries",
    ".frontier",
    ".state",
    ".checkpoint",
    ".next",
    ".tmp",
    ".new",
];

/// Removes the working files of runs with another number of parts (a run restarted over
/// them), and with `tables`, their part files too (a table made in another number of parts,
/// which would make the new one refused as having extra parts).
fn remove_other_runs(dir: &Path, parts: u32, tables: bool) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let working = name.starts_with("part-") && WORKING.iter().any(|e| name.ends_with(e));
        let ours = checkpoint::parts_in_name(name) == Some(parts);
        if ((tables && is_part_name(name)) || working) && !ours {
            remove_if_there(&entry.path())?;
        }
    }
    Ok(())
}

/// Processes as threads of one program, meeting at barriers: the transport the tests of a
/// search in several parts use (and any caller without MPI that wants several parts).
pub mod threads {
    use std::sync::{Arc, Barrier, Mutex};

    use super::{Exchange, ExchangeError};

    struct Shared {
        barrier: Barrier,
        /// `boxes[to][from]`.
        boxes: Mutex<Vec<Vec<Vec<u8>>>>,
        /// Each thread's values of an all-gather.
        values: Mutex<Vec<Vec<u64>>>,
    }

    /// One thread's end of a [`group`].
    pub struct Threads {
        rank: u32,
        size: u32,
        shared: Arc<Shared>,
    }

    /// `size` ends that exchange with each other, one per thread.
    pub fn group(size: u32) -> Vec<Threads> {
        let n = size as usize;
        let shared = Arc::new(Shared {
            barrier: Barrier::new(n),
            boxes: Mutex::new(vec![vec![Vec::new(); n]; n]),
            values: Mutex::new(vec![Vec::new(); n]),
        });
        (0..size)
            .map(|rank| Threads {
                rank,
                size,
                shared: Arc::clone(&shared),
            })
            .collect()
    }

    fn poisoned<T>(_: T) -> ExchangeError {
        ExchangeError("another thread of the group failed".to_string())
    }

    impl Exchange for Threads {
        fn rank(&self) -> u32 {
            self.rank
        }
        fn size(&self) -> u32 {
            self.size
        }
        fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
            let me = self.rank as usize;
            {
                let mut boxes = self.shared.boxes.lock().map_err(poisoned)?;
                for (to, v) in outgoing.iter().enumerate() {
                    boxes[to][me] = v.clone();
                }
            }
            self.shared.barrier.wait();
            let mine: Vec<Vec<u8>> = {
                let mut boxes = self.shared.boxes.lock().map_err(poisoned)?;
                boxes[me].iter_mut().map(std::mem::take).collect()
            };
            self.shared.barrier.wait();
            Ok(mine)
        }
        fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
            self.shared.values.lock().map_err(poisoned)?[self.rank as usize] = values.to_vec();
            self.shared.barrier.wait();
            let all = (0..values.len())
                .map(|k| {
                    let each = self.shared.values.lock().map_err(poisoned)?;
                    Ok(each
                        .iter()
                        .map(|v| v.get(k).copied().unwrap_or(0))
                        .collect())
                })
                .collect();
            self.shared.barrier.wait();
            all
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` pseudo-random values of `bits` bits (1..=64), from the xorshift `state`.
    fn random_values(state: &mut u64, n: usize, bits: u32) -> Vec<u64> {
        (0..n)
            .map(|_| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                *state >> (64 - bits)
            })
            .collect()
    }

    /// A --parts directory that one process cannot see (node-local directories on a
    /// cluster) is refused by every process before the search, part 0's naming that part.
    #[test]
    fn a_parts_directory_one_process_cannot_see_is_refused_by_all() {
        let seen = std::env::temp_dir().join(format!("slidetable-seen-{}", std::process::id()));
        fs::create_dir_all(&seen).unwrap();
        let missing = seen.join("not-made");
        let ends = threads::group(3);
        let results: Vec<Result<(), GenError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = ends
                .into_iter()
                .map(|mut end| {
                    let dir = if end.rank() == 2 {
                        missing.clone()
                    } else {
                        seen.clone()
                    };
                    scope.spawn(move || check_dir_everywhere(&dir, &mut end))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        fs::remove_dir_all(&seen).unwrap();
        for (k, r) in results.iter().enumerate() {
            match r {
                Err(GenError::EveryPart(e)) if k == 0 => assert!(
                    e.to_string()
                        .contains("part 2's process does not see it as a directory"),
                    "{e}"
                ),
                Err(GenError::EveryPart(_)) => {}
                other => panic!("part {k}: {other:?}"),
            }
        }
        // Every process sees it: accepted; alone, a missing directory is the plain refusal.
        let ends = threads::group(2);
        std::thread::scope(|scope| {
            for mut end in ends {
                let dir = std::env::temp_dir();
                scope.spawn(move || check_dir_everywhere(&dir, &mut end).unwrap());
            }
        });
        assert!(matches!(
            check_dir_everywhere(&missing, &mut Alone),
            Err(GenError::NoDirectory { .. })
        ));
    }

    #[test]
    fn offsets_go_on_the_wire_sorted_once_and_come_back() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for (n, bits) in [(0usize, 8u32), (1, 64), (1000, 20), (5000, 34), (300, 64)] {
            let mut offsets = random_values(&mut state, n, bits);
            offsets.extend_from_within(..n / 3);
            offsets.push(u64::MAX);
            offsets.push(0);
            let mut want = offsets.clone();
            want.sort_unstable();
            want.dedup();
            let mut wire = vec![7u8];
            encode_offsets(&mut offsets, &mut wire);
            assert!(offsets.is_empty());
            let mut back = Vec::new();
            decode_offsets(&wire, |o| back.push(o)).unwrap();
            assert_eq!(back, want, "{n} offsets of {bits} bits");
        }
        // Close offsets take about a byte each, fewer than 32-bit ones.
        let mut close: Vec<u64> = (0..10_000u64).map(|i| 5_000_000_000 + 3 * i).collect();
        let mut wire = Vec::new();
        encode_offsets(&mut close, &mut wire);
        assert_eq!(wire.len(), 5 + 9_999);
        for bad in [
            &[0x80u8][..],
            &[0xff; 10][..],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02][..],
        ] {
            assert!(decode_offsets(bad, |_| {}).is_err(), "{bad:?}");
        }
        let mut past = Vec::new();
        encode_offsets(&mut vec![u64::MAX], &mut past);
        let twice: Vec<u8> = past.iter().chain(&past).copied().collect();
        assert!(decode_offsets(&twice, |_| {}).is_err());
    }

    #[test]
    fn long_lists_of_offsets_go_on_the_wire_and_come_back_in_pieces_as_in_one() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for (n, bits) in [(70_000usize, 20u32), (1_000_000, 35), (300_000, 64), (5, 8)] {
            let mut values = random_values(&mut state, n, bits);
            values.sort_unstable();
            values.dedup();
            let base = values[0] / 2;
            let mut pieces = Vec::new();
            let mut wire = Vec::new();
            encode_sorted(&values, base, &mut wire, &mut pieces);
            let mut one = Vec::new();
            encode_differences(&values, base, 0, &mut one);
            assert_eq!(wire, one, "{n} offsets of {bits} bits");
            let marked = Mutex::new(Vec::new());
            let yes = mark_offsets(
                &wire,
                u64::MAX,
                || (),
                |_, i| {
                    lock(&marked).push(i);
                    u64::from(i % 3 == 0)
                },
            )
            .unwrap();
            let mut marked = marked.into_inner().unwrap();
            marked.sort_unstable();
            let want: Vec<u64> = values.iter().map(|v| v - base).collect();
            assert_eq!(marked, want, "{n} offsets of {bits} bits");
            assert_eq!(yes, want.iter().filter(|&&i| i % 3 == 0).count() as u64);
            // Cut short in the middle of a varint, or past 2^64, wherever the pieces fall.
            let mut cut = wire.clone();
            cut.push(0x80);
            assert!(mark_offsets(&cut, u64::MAX, || (), |_, _| 0).is_err());
            // An offset past the sender's slice.
            let last = want[want.len() - 1];
            assert!(mark_offsets(&wire, last, || (), |_, _| 0).is_err());
            assert!(mark_offsets(&wire, last + 1, || (), |_, _| 0).is_ok());
            let mut past = wire.clone();
            past.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
            assert!(
                mark_offsets(&past, u64::MAX, || (), |_, _| 0).is_err(),
                "{n} offsets of {bits} bits"
            );
        }
        assert_eq!(mark_offsets(&[], 0, || (), |_, _| 1), Ok(0));
    }

    #[test]
    fn the_radix_sort_sorts_as_a_comparison_sort_does() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut spare = vec![9; 3];
        for (n, bits) in [
            (0usize, 8u32),
            (10, 64),
            (5000, 1),
            (5000, 11),
            (20_000, 12),
            (100_000, 3),
            (300_000, 40),
        ] {
            for bits in [bits, 10, 11, 18, 22, 35, 64] {
                let mut values = random_values(&mut state, n, bits);
                let mut want = values.clone();
                want.sort_unstable();
                radix_sort(&mut values, &mut spare);
                assert_eq!(values, want, "{n} values of {bits} bits");
            }
        }
        // Every number in one bucket of the most significant bits, or in a few.
        for spread in [0xffu64, 0xfff_ffff] {
            let mut values: Vec<u64> = random_values(&mut state, 50_000, 64)
                .into_iter()
                .map(|v| (1 << 40) + (v & spread))
                .collect();
            let mut want = values.clone();
            want.sort_unstable();
            radix_sort(&mut values, &mut spare);
            assert_eq!(values, want, "spread {spread:#x}");
        }
    }

    #[test]
    fn resuming_follows_the_one_rule() {
        let left = |checkpoint, next| Left {
            finished: false,
            checkpoint,
            next,
        };
        let done = Left {
            finished: true,
            ..left(Some(9), None)
        };
        assert_eq!(resume_point(&[]), Ok(Resume::Fresh));
        assert_eq!(
            resume_point(&[left(None, None), left(Some(3), None)]),
            Ok(Resume::Fresh)
        );
        // The first checkpoint, written by one process only.
        assert_eq!(
            resume_point(&[left(None, Some(3)), left(None, None)]),
            Ok(Resume::Fresh)
        );
        assert_eq!(
            resume_point(&[left(Some(3), None), left(Some(3), None)]),
            Ok(Resume::From(3))
        );
        // Killed while the processes wrote their checkpoints of level 5: not every one did.
        assert_eq!(
            resume_point(&[left(Some(3), Some(5)), left(Some(3), None)]),
            Ok(Resume::From(3))
        );
        // Killed while they put them in place: every one has level 5.
        assert_eq!(
            resume_point(&[left(Some(5), None), left(Some(3), Some(5))]),
            Ok(Resume::From(5))
        );
        assert_eq!(
            resume_point(&[left(Some(3), Some(5)), left(Some(3), Some(5))]),
            Ok(Resume::From(5))
        );
        assert_eq!(resume_point(&[done, done]), Ok(Resume::Finish));
        // Killed while the parts were written: the search again from the checkpoints.
        assert_eq!(
            resume_point(&[done, left(Some(9), None)]),
            Ok(Resume::From(9))
        );
        assert!(resume_point(&[left(Some(3), None), left(Some(4), None)]).is_err());
        for l in [
            left(None, None),
            left(Some(0), None),
            left(Some(7), Some(80)),
            done,
            left(Some(1 << 20), Some(1 << 30)),
        ] {
            assert_eq!(Left::of_key(l.key()), l);
        }
    }
}
