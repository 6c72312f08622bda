//! The table search across processes: each process owns one contiguous slice of the ranks
//! ([`Slices`]), keeps that slice's 2-bit entries and one frontier bit a rank in files it maps,
//! and the processes meet once a level (`generate --parts DIR`; over MPI with the `mpi`
//! feature, see [`mpi`]). Each process runs the one-machine search's passes
//! (`bfs_residues.rs`: every core, top-down or bottom-up by the same rule) on its slice.
//!
//! A level, from `d` to `d + 1` (entries hold `d mod 3`; 3 = not reached yet), a window of the
//! slice at a time:
//!
//! 1. **top-down** (until the level outnumbers the states unseen): the window's frontier
//!    states whose entry is `d mod 3` mark their unreached neighbours in the slice with
//!    `(d + 1) mod 3` and a frontier bit, and hand the others over; their bits are kept (see
//!    step 3). **Bottom-up** (from then on): each unseen state of the window with a
//!    neighbour at `d mod 3` in the slice gets `(d + 1) mod 3` and a frontier bit; one whose
//!    only candidates are in other slices hands those neighbours over as questions;
//! 2. after each window the processes swap what was handed over, all to all, as offsets in
//!    the owner's slice ([`encode_offsets`]: sorted, without repeats, as LEB128 deltas): the
//!    owner marks them (top-down), or answers one bit an offset, whether its entry is
//!    `d mod 3`, and a state with a yes is marked (bottom-up, a second all to all). A
//!    window grows or shrinks so that it hands over about [`PartsPlan::batch`] neighbours
//!    (so a round's memory is bounded whatever the level's size); the processes go on in
//!    such rounds until every slice is done;
//! 3. the new states are counted everywhere (the level's size); an empty level ends the
//!    search. Then each process syncs its files and saves the level in a small state file,
//!    and, once all have, clears the bits of level `d`.
//!
//! Resuming (after a process or the machine died) reads every process's state file: a level
//! whose step 3 some processes finished and others did not is undone (its new states are
//! exactly the frontier bits with entry `(d + 1) mod 3`) or, once every process saved it,
//! finished (its old bits are exactly those with entry `d mod 3`) — see [`resume_point`].
//!
//! At the end each process turns its entries into a part file (payload, block checksums,
//! footer) and the
//! process of part 0 writes the manifest last (`slidetable_format::Manifest`).

use std::fs::{self, OpenOptions};
use std::io::{self, Seek, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use slidetable_core::{Layout, Scan, SCAN_CHUNK};
use slidetable_format::{
    block_count, is_part_name, joined_crc, part_name, slice_payload_len, BlockSums, CostModel,
    Encoding, Header, Manifest, PartFooter, PartRecord, PayloadHasher, PayloadSums, SectionSpec,
    Slices, MANIFEST_NAME, PART_FOOTER_LEN,
};

use crate::bfs_residues::{
    entry_words, frontier_words, Bits, Levels, Pass, Residues, Store, UNSEEN,
};
use crate::mapped::{create_allocated, map, MappedWords};
use crate::state_file::{self, write_durably, ReadError};
use crate::GenError;

#[cfg(feature = "mpi")]
pub mod mpi;

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
    /// Every process's `value`, in process order.
    fn all_gather(&mut self, value: u64) -> Result<Vec<u64>, ExchangeError>;
    /// Ends every process of the run with `code` (MPI's abort), for a process that fails while
    /// the others may wait for it in a collective call; alone, there is nothing to end.
    fn abort(&mut self, code: i32) {
        let _ = code;
    }
}

/// Why processes could not exchange what a level needs.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExchangeError(pub String);

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
    fn all_gather(&mut self, value: u64) -> Result<Vec<u64>, ExchangeError> {
        Ok(vec![value])
    }
}

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct PartsPlan {
    /// The goal of the table's one section.
    pub goal: Layout,
    /// The directory of the parts and the manifest (seen by every process).
    pub dir: PathBuf,
    /// Start over even if an earlier run's state is there.
    pub restart: bool,
    /// About how many neighbours a window of the slice hands to other processes before a
    /// round of exchange (the window grows or shrinks to it).
    pub batch: usize,
}

/// Neighbours a window of the slice hands to other processes before a round, about, by
/// default: 1 Mi (8 MiB before they are encoded).
pub const DEFAULT_BATCH: usize = 1 << 20;

/// What a run tells as it goes.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum PartsEvent {
    /// An earlier run's state was found: the search goes on from this level.
    Resumed {
        /// The last level every part finished.
        level: u32,
    },
    /// A level begins (for a watchdog: each level should end in bounded time).
    LevelStarted {
        /// The level being found (its distance).
        level: u32,
    },
    /// A level is found and saved.
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

/// How far a run got, as saved in a state file: a level and a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Progress {
    /// The last level found.
    pub level: u32,
    /// How far its saving got.
    pub phase: Phase,
}

/// The phases of saving a level (in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// The level's states are marked and saved; the level before still has its bits.
    Found,
    /// Only the level's own states have bits: ready for the next level.
    Done,
    /// The search ended at this level; the part file is written.
    Finished,
}

/// What a run does first, given every process's saved progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// From the goal.
    Fresh,
    /// From level `0`'s end, as saved.
    Continue(u32),
    /// Undo the partly saved level after `0`, then continue from `0`.
    RollBack(u32),
    /// Clear the bits of the level before `0` (saved everywhere), then continue from `0`.
    RollForward(u32),
    /// The search ended at level `0`: write the parts again and the manifest.
    Finish(u32),
}

/// The one rule of resuming: from every process's saved progress (`None`: nothing saved),
/// what to do, or why it cannot be done.
pub fn resume_point(saved: &[Option<Progress>]) -> Result<Resume, String> {
    if saved.iter().any(Option::is_none) || saved.is_empty() {
        return Ok(Resume::Fresh);
    }
    let all: Vec<Progress> = saved.iter().flatten().copied().collect();
    let (lo, hi) = (all.iter().min().copied(), all.iter().max().copied());
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Ok(Resume::Fresh);
    };
    let at = |level, phase| Progress { level, phase };
    let mixed = || {
        format!(
            "the parts' saved states are at levels {} ({:?}) and {} ({:?}), which no run leaves: \
             start over with --restart",
            lo.level, lo.phase, hi.level, hi.phase
        )
    };
    if hi.phase == Phase::Finished {
        return if lo >= at(hi.level, Phase::Done) {
            Ok(Resume::Finish(hi.level))
        } else {
            Err(mixed())
        };
    }
    match (lo.phase, hi) {
        (Phase::Done, hi) if hi == lo => Ok(Resume::Continue(lo.level)),
        (Phase::Done, hi) if hi == at(lo.level + 1, Phase::Found) => Ok(Resume::RollBack(lo.level)),
        (Phase::Found, hi) if hi.level == lo.level => Ok(Resume::RollForward(lo.level)),
        _ => Err(mixed()),
    }
}

/// Runs this process's share of the search of `plan.goal`'s class and writes its part; the
/// process of part 0 writes the manifest once every part is written.
pub fn solve_in_parts(
    plan: &PartsPlan,
    exchange: &mut dyn Exchange,
    events: &mut dyn FnMut(PartsEvent),
) -> Result<PartsDone, GenError> {
    let goal = plan.goal;
    let board = goal.board();
    let scan = Scan::new(board, goal.class())?;
    let (me, parts) = (exchange.rank(), exchange.size());
    let entries = board.reachable_states();
    let slices = Slices::new(entries, parts);
    let files = Files::new(&plan.dir, me, parts);
    let dir_error = |source| GenError::Io {
        path: plan.dir.clone(),
        source,
    };
    if !plan.dir.is_dir() {
        return Err(GenError::NoDirectory {
            path: plan.dir.join(MANIFEST_NAME),
            dir: plan.dir.clone(),
            link: None,
        });
    }
    if me == 0 {
        // From now on the directory is no table until a new manifest says so.
        remove_if_there(&plan.dir.join(MANIFEST_NAME)).map_err(dir_error)?;
        remove_other_runs(&plan.dir, parts).map_err(dir_error)?;
    }
    if plan.restart {
        files.remove_all()?;
    }
    let saved = files.read_state(&goal)?;
    let keys = exchange.all_gather(saved.as_ref().map_or(u64::MAX, |s| key(s.progress)))?;
    let all: Vec<Option<Progress>> = keys.iter().map(|&k| progress_of(k)).collect();
    let resume = resume_point(&all).map_err(|problem| GenError::Parts {
        path: plan.dir.clone(),
        problem,
    })?;
    let ranks = slices.part(me);
    let mut histogram = saved.map(|s| s.histogram).unwrap_or_default();
    let slice;
    let level = match resume {
        Resume::Fresh => {
            files.remove_all()?;
            slice = Slice::create(&files, ranks.clone())?;
            let goal_rank = scan.ranker().rank(&goal);
            if ranks.contains(&goal_rank) {
                slice.mark(goal_rank - ranks.start, 0);
            }
            histogram = vec![1];
            slice.sync(&files)?;
            files.write_state(
                &goal,
                me,
                parts,
                Progress {
                    level: 0,
                    phase: Phase::Done,
                },
                &histogram,
            )?;
            0
        }
        Resume::Continue(level)
        | Resume::RollBack(level)
        | Resume::RollForward(level)
        | Resume::Finish(level) => {
            events(PartsEvent::Resumed { level });
            histogram.truncate(level as usize + 1);
            if histogram.len() != level as usize + 1 {
                return Err(files.bad_state("its histogram is shorter than its level"));
            }
            if let Resume::Finish(_) = resume {
                if files.part.exists() {
                    return finish_part(plan, exchange, &files, None, &slices, &histogram);
                }
            }
            slice = Slice::open(&files, ranks.clone(), matches!(resume, Resume::Finish(_)))?;
            // A process killed during the level after `level` left some of its states
            // marked, and so did every process that went on into that level before meeting
            // the killed one (it may have saved `level` as found, the others as done): the
            // frontier bits with the next level's value, which no other bit has now.
            slice.clear_where((level + 1) % 3, true);
            if let Resume::RollForward(level) = resume {
                // The bits of the level before `level`, which a process saved as found still has.
                slice.clear_where((level + 2) % 3, false);
            }
            slice.sync(&files)?;
            files.write_state(
                &goal,
                me,
                parts,
                Progress {
                    level,
                    phase: Phase::Done,
                },
                &histogram,
            )?;
            level
        }
    };
    let level = match resume {
        // Every part found the last level empty already.
        Resume::Finish(level) => level,
        _ => search(
            plan,
            exchange,
            events,
            &scan,
            &slices,
            &files,
            &slice,
            &mut histogram,
            level,
        )?,
    };
    files.write_state(
        &goal,
        me,
        parts,
        Progress {
            level,
            phase: Phase::Finished,
        },
        &histogram,
    )?;
    finish_part(plan, exchange, &files, Some(slice), &slices, &histogram)
}

/// The levels after `level`, until one is empty everywhere; returns the last level.
#[allow(clippy::too_many_arguments)]
fn search(
    plan: &PartsPlan,
    exchange: &mut dyn Exchange,
    events: &mut dyn FnMut(PartsEvent),
    scan: &Scan,
    slices: &Slices,
    files: &Files,
    slice: &Slice,
    histogram: &mut Vec<u64>,
    mut level: u32,
) -> Result<u32, GenError> {
    let (me, parts) = (exchange.rank(), exchange.size());
    let mut level_pass = LevelPass {
        exchange,
        scan,
        slices,
        slice,
        batch: plan.batch.max(1),
        window: if parts == 1 {
            slice.frontier_len()
        } else {
            (plan.batch / 64).max(1)
        },
    };
    loop {
        let start = Instant::now();
        events(PartsEvent::LevelStarted { level: level + 1 });
        // The one-machine search's rule, from the histogram alone: every process takes the
        // same passes, and so does a resumed run.
        let bottom_up = Levels {
            histogram: histogram.clone(),
            states: scan.ranker().states(),
        }
        .bottom_up();
        let step = if bottom_up {
            level_pass.bottom_up(level)?
        } else {
            level_pass.top_down(level)?
        };
        let exchange = &mut *level_pass.exchange;
        let states: u64 = exchange.all_gather(step.found)?.iter().sum();
        let bytes_sent: u64 = exchange.all_gather(step.sent)?.iter().sum();
        if states == 0 {
            return Ok(level);
        }
        let cur = level % 3;
        level += 1;
        histogram.push(states);
        slice.sync(files)?;
        files.write_state(
            &plan.goal,
            me,
            parts,
            Progress {
                level,
                phase: Phase::Found,
            },
            histogram,
        )?;
        // Every part has saved the level before any forgets the level before it.
        exchange.all_gather(0)?;
        slice.clear_where(cur, false);
        // Only the frontier changed since the entries were synced.
        slice.sync_frontier(files)?;
        files.write_state(
            &plan.goal,
            me,
            parts,
            Progress {
                level,
                phase: Phase::Done,
            },
            histogram,
        )?;
        events(PartsEvent::LevelDone(LevelReport {
            level,
            states,
            bytes_sent,
            rounds: step.rounds,
            bottom_up,
            elapsed: start.elapsed(),
        }));
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
}

/// One process's passes of a level over its slice, a window of its frontier words at a time
/// (`bfs_residues.rs`' passes, every core), with a round of exchange after each window until
/// every process's slice is done.
struct LevelPass<'a> {
    exchange: &'a mut dyn Exchange,
    scan: &'a Scan,
    slices: &'a Slices,
    slice: &'a Slice,
    /// About how many neighbours a window hands to other processes.
    batch: usize,
    /// Frontier words (64 ranks each) of the next window, sized by [`LevelPass::resize`].
    window: usize,
}

impl LevelPass<'_> {
    /// The pass over frontier words `at..` of a window, and where the next window starts.
    fn pass(&self, depth: u32, at: usize) -> (Pass<'_>, usize) {
        let end = at
            .saturating_add(self.window)
            .min(self.slice.frontier_len());
        // Pieces for every thread, in a window smaller than the one-machine search's pieces.
        let threads = rayon::current_num_threads().max(1);
        let piece = SCAN_CHUNK.min(((end - at) / (4 * threads)).max(1));
        let pass = Pass {
            scan: self.scan,
            residues: &self.slice.residues,
            depth,
            window: at..end,
            piece,
        };
        (pass, end)
    }

    /// The next window's size, after one that handed out `handed` neighbours: scaled toward
    /// a batch (at most doubled, at least quartered), never past the slice.
    fn resize(&mut self, handed: usize) {
        let w = self.window as u128;
        let scaled = if handed == 0 {
            2 * w
        } else {
            (w * self.batch as u128 / handed as u128).clamp(w / 4, 2 * w)
        };
        let most = self.slice.frontier_len().max(1) as u128;
        self.window = scaled.clamp(1, most) as usize;
    }

    /// Whether any process is not done with its slice (this one is when `done`).
    fn busy(&mut self, done: bool) -> Result<bool, ExchangeError> {
        let busy = self.exchange.all_gather(u64::from(!done))?;
        Ok(busy.iter().any(|&b| b != 0))
    }

    /// Each of `neighbours` (ranks in other slices), as its offset in its owner's slice, into
    /// `out[owner]` (emptied).
    fn by_owner(&self, neighbours: impl Iterator<Item = u64>, out: &mut [Vec<u64>]) {
        for n in neighbours {
            let o = self.slices.owner(n);
            out[o as usize].push(n - self.slices.part(o).start);
        }
    }

    /// Level `depth`'s top-down pass: the frontier's states of level `depth` (their bits
    /// kept until every process has saved the next level) mark their neighbours in this slice
    /// and send the others to their owners, who mark them.
    fn top_down(&mut self, depth: u32) -> Result<Step, GenError> {
        let (me, parts) = (self.exchange.rank(), self.exchange.size());
        let next = (depth + 1) % 3;
        let far = Mutex::new(Vec::new());
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); parts as usize];
        let mut wire: Vec<Vec<u8>> = vec![Vec::new(); parts as usize];
        let mut marks = Vec::new();
        let mut step = Step::default();
        let mut at = 0;
        loop {
            let (pass, end) = self.pass(depth, at);
            step.found += pass.top_down(
                self.slice.frontier.words(),
                Bits::Kept,
                &|ranks| lock(&far).append(ranks),
                &|_| {},
            );
            at = end;
            let neighbours = std::mem::take(&mut *lock(&far));
            let handed = neighbours.len();
            self.by_owner(neighbours.into_iter(), &mut out);
            for (o, w) in out.iter_mut().zip(&mut wire) {
                encode_offsets(o, w);
                step.sent += w.len() as u64;
            }
            let received = self.exchange.all_to_all(&wire)?;
            step.rounds += 1;
            for (from, bytes) in received.iter().enumerate() {
                decode(bytes, &mut marks, from, me)?;
                let slice = self.slice;
                step.found += marks.par_iter().filter(|&&i| slice.mark(i, next)).count() as u64;
            }
            self.resize(handed);
            if !self.busy(at >= self.slice.frontier_len())? {
                return Ok(step);
            }
        }
    }

    /// Level `depth`'s bottom-up pass: each unseen state of this slice with a neighbour at
    /// `depth mod 3` gets `(depth + 1) mod 3` and a frontier bit; a state whose neighbours at
    /// `depth mod 3` could only be in other slices asks their owners (the offsets, encoded as
    /// the top-down pass sends them), who answer one bit an offset, in the order of the
    /// offsets sorted.
    fn bottom_up(&mut self, depth: u32) -> Result<Step, GenError> {
        let (me, parts) = (self.exchange.rank(), self.exchange.size());
        let (want, next) = (depth % 3, (depth + 1) % 3);
        let asked = Mutex::new(Vec::new());
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); parts as usize];
        let mut wire: Vec<Vec<u8>> = vec![Vec::new(); parts as usize];
        let mut questions = Vec::new();
        let mut step = Step::default();
        let mut at = 0;
        loop {
            let (pass, end) = self.pass(depth, at);
            step.found += pass.bottom_up(
                Some(self.slice.frontier.words()),
                &|pairs| lock(&asked).append(pairs),
                &|_| {},
            );
            at = end;
            let pairs = std::mem::take(&mut *lock(&asked));
            self.by_owner(pairs.iter().map(|&[_, n]| n), &mut out);
            for (o, w) in out.iter_mut().zip(&mut wire) {
                o.sort_unstable();
                o.dedup();
                encode_sorted(o, w);
                step.sent += w.len() as u64;
            }
            let received = self.exchange.all_to_all(&wire)?;
            let slice = self.slice;
            let mut answers = Vec::with_capacity(received.len());
            for (from, bytes) in received.iter().enumerate() {
                decode(bytes, &mut questions, from, me)?;
                let bits: Vec<u8> = questions
                    .par_chunks(8)
                    .map(|eight| {
                        eight.iter().enumerate().fold(0u8, |byte, (k, &i)| {
                            let at_want =
                                i < slice.ranks.end - slice.ranks.start && slice.entry(i) == want;
                            byte | u8::from(at_want) << k
                        })
                    })
                    .collect();
                step.sent += bits.len() as u64;
                answers.push(bits);
            }
            let replies = self.exchange.all_to_all(&answers)?;
            step.rounds += 1;
            for (from, (bits, offsets)) in replies.iter().zip(&out).enumerate() {
                if bits.len() != offsets.len().div_ceil(8) {
                    return Err(ExchangeError(format!(
                        "process {from} answered {} offsets of process {me} in {} bytes",
                        offsets.len(),
                        bits.len()
                    ))
                    .into());
                }
            }
            let slices = self.slices;
            let first = slice.ranks.start;
            step.found += pairs
                .par_iter()
                .filter(|&&[r, n]| {
                    let o = slices.owner(n) as usize;
                    let offset = n - slices.part(o as u32).start;
                    let yes = out[o]
                        .binary_search(&offset)
                        .is_ok_and(|k| replies[o][k / 8] >> (k % 8) & 1 == 1);
                    yes && slice.mark(r - first, next)
                })
                .count() as u64;
            out.iter_mut().for_each(Vec::clear);
            self.resize(pairs.len());
            if !self.busy(at >= self.slice.frontier_len())? {
                return Ok(step);
            }
        }
    }
}

/// The offsets process `from` sent to process `me`, decoded into `into` (replaced).
fn decode(bytes: &[u8], into: &mut Vec<u64>, from: usize, me: u32) -> Result<(), ExchangeError> {
    into.clear();
    decode_offsets(bytes, |i| into.push(i)).map_err(|problem| {
        ExchangeError(format!(
            "the offsets process {from} sent to process {me} {problem}"
        ))
    })
}

/// The vector behind `m`, even if a thread panicked holding it (the panic is the error).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes this process's part file (unless it is there from a run that got this far), then,
/// once every part is, the manifest (part 0's process), and removes the state file.
fn finish_part(
    plan: &PartsPlan,
    exchange: &mut dyn Exchange,
    files: &Files,
    slice: Option<Slice>,
    slices: &Slices,
    histogram: &[u64],
) -> Result<PartsDone, GenError> {
    let (me, parts) = (exchange.rank(), exchange.size());
    let goal = plan.goal;
    let board = goal.board();
    let footer = match slice {
        Some(slice) => slice.into_part(files, &goal, me, parts)?,
        None => {
            let bytes = fs::read(&files.part).map_err(|e| files.io(&files.part, e))?;
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
                ranks: slices.part(k as u32),
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
        let path = plan.dir.join(MANIFEST_NAME);
        write_durably(&path, &bytes).map_err(|e| files.io(&path, e))?;
        manifest = Some(path);
    }
    exchange.all_gather(0)?;
    remove_if_there(&files.state).map_err(|e| files.io(&files.state, e))?;
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
    offsets.sort_unstable();
    offsets.dedup();
    encode_sorted(offsets, into);
    offsets.clear();
}

/// [`encode_offsets`] of `offsets` sorted and without repeats already, kept.
fn encode_sorted(offsets: &[u64], into: &mut Vec<u8>) {
    into.clear();
    let mut last = 0u64;
    for &o in offsets {
        let mut d = o - last;
        last = o;
        while d >= 0x80 {
            into.push((d as u8) | 0x80);
            d >>= 7;
        }
        into.push(d as u8);
    }
}

/// Calls `each` with every offset [`encode_offsets`] wrote into `bytes`, in order; says what
/// is wrong with bytes it did not write (a varint cut short or too long, an offset past 2⁶⁴).
pub fn decode_offsets(bytes: &[u8], mut each: impl FnMut(u64)) -> Result<(), String> {
    let (mut last, mut d, mut shift) = (0u64, 0u64, 0u32);
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
    Ok(())
}

/// This process's slice: its 2-bit entries and its frontier bits, in files it maps, seen as
/// the words the one-machine search's passes change (`bfs_residues.rs`).
struct Slice {
    ranks: Range<u64>,
    residues: Residues,
    frontier: MappedWords,
}

/// The bytes of the working entries file of `ranks`: the payload's, rounded up to whole
/// 64-rank pairs of words (as many as a frontier word covers).
fn entries_file_len(ranks: &Range<u64>) -> u64 {
    8 * entry_words(ranks.end - ranks.start) as u64
}

/// The bytes of the working frontier file of `ranks`.
fn frontier_file_len(ranks: &Range<u64>) -> u64 {
    8 * frontier_words(ranks.end - ranks.start) as u64
}

impl Slice {
    fn create(files: &Files, ranks: Range<u64>) -> Result<Slice, GenError> {
        let len = entries_file_len(&ranks);
        let bits = frontier_file_len(&ranks);
        let entries =
            create_allocated(&files.entries, len).map_err(|e| files.io(&files.entries, e))?;
        let frontier =
            create_allocated(&files.frontier, bits).map_err(|e| files.io(&files.frontier, e))?;
        let words = |file: &fs::File, len: u64, path: &Path| {
            map(file, 0, len)
                .and_then(MappedWords::new)
                .map_err(|e| files.io(path, e))
        };
        let slice = Slice {
            residues: Residues::mapped(words(&entries, len, &files.entries)?, ranks.clone()),
            frontier: words(&frontier, bits, &files.frontier)?,
            ranks,
        };
        // 3 in every entry: not reached yet.
        slice
            .residues
            .words()
            .par_iter()
            .for_each(|w| w.store(UNSEEN, Relaxed));
        Ok(slice)
    }

    /// The slice a run left; `finishing`: every level is done, and a run killed while it
    /// wrote its part may have cut the entries to the payload and appended some of the
    /// part's block checksums and footer before the rename.
    fn open(files: &Files, ranks: Range<u64>, finishing: bool) -> Result<Slice, GenError> {
        let payload = slice_payload_len(&ranks);
        let open = |path: &Path, want: u64| -> Result<MappedWords, GenError> {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .map_err(|e| files.io(path, e))?;
            let mut have = file.metadata().map_err(|e| files.io(path, e))?.len();
            let tail = 4 * block_count(payload) + PART_FOOTER_LEN as u64;
            if finishing
                && path == files.entries
                && have != want
                && have >= payload
                && have <= payload + tail
            {
                // The checksums and the footer are written again, from the entries, when the
                // part is; the entries past the payload are none of the table's.
                file.set_len(payload)
                    .and_then(|()| file.set_len(want))
                    .map_err(|e| files.io(path, e))?;
                have = want;
            }
            if have != want {
                return Err(files.bad_state(&format!(
                    "{} is {have} bytes, not {want}: start over with --restart",
                    path.display()
                )));
            }
            map(&file, 0, want)
                .and_then(MappedWords::new)
                .map_err(|e| files.io(path, e))
        };
        Ok(Slice {
            residues: Residues::mapped(
                open(&files.entries, entries_file_len(&ranks))?,
                ranks.clone(),
            ),
            frontier: open(&files.frontier, frontier_file_len(&ranks))?,
            ranks,
        })
    }

    /// Local rank `i`'s entry: 3 if not reached yet, else its distance mod 3.
    fn entry(&self, i: u64) -> u32 {
        self.residues.value(self.ranks.start + i)
    }

    /// Marks local rank `i` at value `v` (and its frontier bit) if it is not reached yet;
    /// whether it was new.
    #[inline]
    fn mark(&self, i: u64, v: u32) -> bool {
        i < self.ranks.end - self.ranks.start
            && self
                .residues
                .reach(self.ranks.start + i, v, self.frontier.words())
    }

    /// Clears the frontier bits whose entry is `v`, and with `forget` makes those entries
    /// unreached again (undoing a level).
    fn clear_where(&self, v: u32, forget: bool) {
        let words = self.residues.words();
        self.frontier
            .words()
            .par_iter()
            .enumerate()
            .for_each(|(w, bits)| {
                let set = bits.load(Relaxed);
                if set == 0 {
                    return;
                }
                let mut keep = set;
                let mut rest = set;
                while rest != 0 {
                    let i = (w as u64) * 64 + u64::from(rest.trailing_zeros());
                    rest &= rest - 1;
                    if self.entry(i) == v {
                        keep &= !(1 << (i & 63));
                        if forget {
                            // Each frontier word's 64 ranks are two entry words of their own.
                            words[(i >> 5) as usize].fetch_or(3 << ((i & 31) * 2), Relaxed);
                        }
                    }
                }
                bits.store(keep, Relaxed);
            });
    }

    /// Frontier words: one per 64 ranks.
    fn frontier_len(&self) -> usize {
        self.frontier.words().len()
    }

    fn sync(&self, files: &Files) -> Result<(), GenError> {
        if let Store::Mapped(words) = self.residues.store() {
            words.flush().map_err(|e| files.io(&files.entries, e))?;
        }
        self.sync_frontier(files)
    }

    fn sync_frontier(&self, files: &Files) -> Result<(), GenError> {
        self.frontier
            .flush()
            .map_err(|e| files.io(&files.frontier, e))
    }

    /// The entries as a part file: cut to the payload, their block checksums and the footer
    /// appended, synced, renamed into place; the frontier file removed.
    fn into_part(
        self,
        files: &Files,
        goal: &Layout,
        me: u32,
        parts: u32,
    ) -> Result<PartFooter, GenError> {
        self.sync(files)?;
        let Slice {
            ranks,
            residues,
            frontier,
        } = self;
        drop(frontier);
        let payload = slice_payload_len(&ranks);
        let Store::Mapped(words) = residues.into_store() else {
            return Err(files.bad_state("its entries are not its working file's"));
        };
        if cfg!(target_endian = "big") {
            // The payload's words are little-endian; the search kept the machine's order.
            words
                .words()
                .par_iter()
                .for_each(|w| w.store(w.load(Relaxed).to_le(), Relaxed));
            words.flush().map_err(|e| files.io(&files.entries, e))?;
        }
        let map = words.into_map();
        let sums = BlockSums::of([&map[..payload as usize]]);
        drop(map);
        let sums_bytes = sums.to_bytes();
        let mut sums_crc = PayloadHasher::new();
        sums_crc.update(&sums_bytes);
        let footer = PartFooter {
            board: goal.board(),
            encoding: Encoding::TwoBit,
            cost: CostModel::Unit,
            goal: *goal,
            entries: goal.board().reachable_states(),
            ranks,
            part: me,
            parts,
            payload_crc: sums.payload,
            block_sums_crc: Some(sums_crc.finalize()),
        };
        let mut file = OpenOptions::new()
            .write(true)
            .open(&files.entries)
            .map_err(|e| files.io(&files.entries, e))?;
        file.set_len(payload)
            .and_then(|()| file.seek(io::SeekFrom::End(0)).map(drop))
            .and_then(|()| file.write_all(&sums_bytes))
            .and_then(|()| file.write_all(&footer.to_bytes()))
            .and_then(|()| file.sync_all())
            .map_err(|e| files.io(&files.entries, e))?;
        fs::rename(&files.entries, &files.part).map_err(|e| files.io(&files.part, e))?;
        remove_if_there(&files.frontier).map_err(|e| files.io(&files.frontier, e))?;
        debug_assert_eq!(PART_FOOTER_LEN, footer.to_bytes().len());
        Ok(footer)
    }
}

/// The files of one process's part: the working entries and frontier, the saved state, and
/// the part file they become.
struct Files {
    entries: PathBuf,
    frontier: PathBuf,
    state: PathBuf,
    part: PathBuf,
}

impl Files {
    fn new(dir: &Path, me: u32, parts: u32) -> Files {
        let part = dir.join(part_name(me, parts));
        let with = |ext: &str| part.with_extension(ext);
        Files {
            entries: with("entries"),
            frontier: with("frontier"),
            state: with("state"),
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

    fn remove_all(&self) -> Result<(), GenError> {
        for path in [&self.entries, &self.frontier, &self.state, &self.part] {
            remove_if_there(path).map_err(|e| self.io(path, e))?;
        }
        Ok(())
    }

    /// The saved state, if any: checked to be this run's (board, goal, part and parts).
    fn read_state(&self, goal: &Layout) -> Result<Option<Saved>, GenError> {
        let text =
            match state_file::read(&self.state) {
                Ok(Some(read)) => read.text,
                Ok(None) => return Ok(None),
                Err(ReadError::Io(e)) => return Err(self.io(&self.state, e)),
                Err(ReadError::Damaged) => return Err(self.bad_state(
                    "it is damaged (its CRC does not match its lines); start over with --restart",
                )),
            };
        let mut saved = Saved {
            progress: Progress {
                level: 0,
                phase: Phase::Done,
            },
            histogram: Vec::new(),
        };
        let mut seen_goal = false;
        for line in text.lines() {
            let (name, value) = line.split_once(' ').unwrap_or((line, ""));
            match name {
                "goal" => {
                    if value != goal_text(goal) {
                        return Err(self.bad_state(&format!(
                            "it was saved by a run for goal {value} on another board or goal; \
                             start over with --restart"
                        )));
                    }
                    seen_goal = true;
                }
                "level" => {
                    saved.progress.level = value
                        .parse()
                        .map_err(|_| self.bad_state("its level is not a number"))?
                }
                "phase" => {
                    saved.progress.phase = match value {
                        "found" => Phase::Found,
                        "done" => Phase::Done,
                        "finished" => Phase::Finished,
                        _ => return Err(self.bad_state("its phase is not found, done or finished")),
                    }
                }
                "histogram" => {
                    saved.histogram = value
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|_| self.bad_state("its histogram is not numbers"))?
                }
                _ => {}
            }
        }
        if !seen_goal {
            return Err(self.bad_state("it names no goal"));
        }
        Ok(Some(saved))
    }

    fn write_state(
        &self,
        goal: &Layout,
        me: u32,
        parts: u32,
        progress: Progress,
        histogram: &[u64],
    ) -> Result<(), GenError> {
        let phase = match progress.phase {
            Phase::Found => "found",
            Phase::Done => "done",
            Phase::Finished => "finished",
        };
        let histogram: Vec<String> = histogram.iter().map(u64::to_string).collect();
        let text = format!(
            "board {}\ngoal {}\npart {me} of {parts}\nlevel {}\nphase {phase}\nhistogram {}\npid {}\n",
            goal.board(),
            goal_text(goal),
            progress.level,
            histogram.join(" "),
            std::process::id(),
        );
        state_file::write(&self.state, &text).map_err(|e| self.io(&self.state, e))
    }
}

struct Saved {
    progress: Progress,
    histogram: Vec<u64>,
}

fn goal_text(goal: &Layout) -> String {
    let tiles: Vec<String> = goal.tiles().iter().map(u8::to_string).collect();
    format!("{} {}", goal.board(), tiles.join(" "))
}

/// Progress as one number that orders as progress does (for an all-gather).
fn key(p: Progress) -> u64 {
    u64::from(p.level) * 4 + p.phase as u64
}

fn progress_of(key: u64) -> Option<Progress> {
    let phase = match key % 4 {
        0 => Phase::Found,
        1 => Phase::Done,
        2 => Phase::Finished,
        _ => return None,
    };
    Some(Progress {
        level: u32::try_from(key / 4).ok()?,
        phase,
    })
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Removes the part files and working files of runs with another number of parts: they would
/// make the directory's table refused (an extra part).
fn remove_other_runs(dir: &Path, parts: u32) -> io::Result<()> {
    let ours = format!("-of-{parts:04}.");
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let working = name.starts_with("part-")
            && [".entries", ".frontier", ".state"]
                .iter()
                .any(|e| name.ends_with(e));
        if (is_part_name(name) || working) && !name.contains(&ours) {
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
        values: Mutex<Vec<u64>>,
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
            values: Mutex::new(vec![0; n]),
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
        fn all_gather(&mut self, value: u64) -> Result<Vec<u64>, ExchangeError> {
            self.shared.values.lock().map_err(poisoned)?[self.rank as usize] = value;
            self.shared.barrier.wait();
            let all = self.shared.values.lock().map_err(poisoned)?.clone();
            self.shared.barrier.wait();
            Ok(all)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(level: u32, phase: Phase) -> Option<Progress> {
        Some(Progress { level, phase })
    }

    #[test]
    fn offsets_go_on_the_wire_sorted_once_and_come_back() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, bits) in [(0usize, 8u32), (1, 64), (1000, 20), (5000, 34), (300, 64)] {
            let mut offsets: Vec<u64> = (0..n)
                .map(|_| {
                    if bits == 64 {
                        next()
                    } else {
                        next() >> (64 - bits)
                    }
                })
                .collect();
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
    fn resuming_follows_the_one_rule() {
        use Phase::*;
        assert_eq!(resume_point(&[None, at(3, Done)]), Ok(Resume::Fresh));
        assert_eq!(
            resume_point(&[at(3, Done), at(3, Done)]),
            Ok(Resume::Continue(3))
        );
        assert_eq!(
            resume_point(&[at(3, Done), at(4, Found)]),
            Ok(Resume::RollBack(3))
        );
        assert_eq!(
            resume_point(&[at(4, Found), at(4, Done)]),
            Ok(Resume::RollForward(4))
        );
        assert_eq!(
            resume_point(&[at(4, Found), at(4, Found)]),
            Ok(Resume::RollForward(4))
        );
        assert_eq!(
            resume_point(&[at(9, Done), at(9, Finished)]),
            Ok(Resume::Finish(9))
        );
        assert!(resume_point(&[at(3, Done), at(4, Done)]).is_err());
        assert!(resume_point(&[at(3, Found), at(4, Found)]).is_err());
        assert!(resume_point(&[at(8, Done), at(9, Finished)]).is_err());
        for k in [at(0, Found), at(7, Done), at(80, Finished)] {
            assert_eq!(progress_of(key(k.unwrap())), k);
        }
        assert_eq!(progress_of(u64::MAX), None);
    }
}
