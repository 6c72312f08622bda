//! The table search across processes: each process owns one contiguous slice of the ranks
//! ([`Slices`]), keeps that slice's 2-bit entries and one frontier bit a rank in files it maps,
//! and the processes meet once a level (`generate --parts DIR`; over MPI with the `mpi`
//! feature, see [`mpi`]).
//!
//! A level, from `d` to `d + 1` (entries hold `d mod 3`; 3 = not reached yet):
//!
//! 1. each process walks its frontier bits in rank order, skipping those whose entry is not
//!    `d mod 3` (states it marked earlier in this pass); a neighbour in its own slice that is
//!    not reached yet gets `(d + 1) mod 3` and a frontier bit; a neighbour in another slice
//!    goes, as its offset in that slice (`u64`), into a buffer for its owner;
//! 2. when any buffer holds [`PartsPlan::batch`] offsets, or the frontier is done, the
//!    processes swap buffers all to all ([`encode_offsets`]: sorted, without repeats, as
//!    LEB128 deltas) and mark what they received the same way; they go on
//!    in such rounds until every frontier is done (so a round's memory is bounded whatever
//!    the level's size);
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
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use memmap2::MmapMut;
use slidetable_core::{Layout, Scan, ScanCursor};
use slidetable_format::{
    block_count, is_part_name, joined_crc, part_name, slice_payload_len, BlockSums, CostModel,
    Encoding, Header, Manifest, PartFooter, PartRecord, PayloadHasher, PayloadSums, SectionSpec,
    Slices, MANIFEST_NAME, PART_FOOTER_LEN,
};

use crate::mapped::{create_allocated, map};
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
    /// Offsets a buffer for one process holds before a round of exchange.
    pub batch: usize,
}

/// Offsets a buffer for one process holds before a round, by default: 1 Mi (8 MiB before
/// they are encoded).
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
    let mut slice;
    let level = match resume {
        Resume::Fresh => {
            files.remove_all()?;
            slice = Slice::create(&files, ranks.clone())?;
            let goal_rank = scan.ranker().rank(&goal);
            if ranks.contains(&goal_rank) {
                let i = goal_rank - ranks.start;
                slice.set_entry(i, 0);
                slice.set_bit(i);
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
            slice.clear_where(((level + 1) % 3) as u8, true);
            if let Resume::RollForward(level) = resume {
                // The bits of the level before `level`, which a process saved as found still has.
                slice.clear_where(((level + 2) % 3) as u8, false);
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
            &mut slice,
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
    slice: &mut Slice,
    histogram: &mut Vec<u64>,
    mut level: u32,
) -> Result<u32, GenError> {
    let (me, parts) = (exchange.rank(), exchange.size());
    let batch = plan.batch.max(1);
    let mut out: Vec<Vec<u64>> = (0..parts).map(|_| Vec::with_capacity(batch + 4)).collect();
    let mut wire: Vec<Vec<u8>> = (0..parts).map(|_| Vec::new()).collect();
    loop {
        let start = Instant::now();
        events(PartsEvent::LevelStarted { level: level + 1 });
        let (cur, next) = ((level % 3) as u8, ((level + 1) % 3) as u8);
        let mut found = 0u64;
        let mut sent = 0u64;
        let mut rounds = 0u32;
        let mut walk = Walk::default();
        let mut cursor = scan.cursor();
        loop {
            let done = slice.expand(
                &mut walk,
                cur,
                next,
                &mut found,
                scan,
                &mut cursor,
                |rank| {
                    let o = slices.owner(rank);
                    let to = &mut out[o as usize];
                    to.push(rank - slices.part(o).start);
                    to.len() >= batch
                },
            );
            for (o, w) in out.iter_mut().zip(&mut wire) {
                encode_offsets(o, w);
                sent += w.len() as u64;
            }
            let received = exchange.all_to_all(&wire)?;
            rounds += 1;
            for (from, bytes) in received.iter().enumerate() {
                decode_offsets(bytes, |i| found += u64::from(slice.mark(i, next))).map_err(
                    |problem| {
                        ExchangeError(format!(
                            "the offsets process {from} sent to process {me} {problem}"
                        ))
                    },
                )?;
            }
            let busy = exchange.all_gather(u64::from(!done))?;
            if busy.iter().all(|&b| b == 0) {
                break;
            }
        }
        let states: u64 = exchange.all_gather(found)?.iter().sum();
        let bytes_sent: u64 = exchange.all_gather(sent)?.iter().sum();
        if states == 0 {
            return Ok(level);
        }
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
            rounds,
            elapsed: start.elapsed(),
        }));
    }
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
    into.clear();
    offsets.sort_unstable();
    offsets.dedup();
    let mut last = 0u64;
    for &o in offsets.iter() {
        let mut d = o - last;
        last = o;
        while d >= 0x80 {
            into.push((d as u8) | 0x80);
            d >>= 7;
        }
        into.push(d as u8);
    }
    offsets.clear();
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

/// Where a process is in its frontier: the next bitmap word and the bits of the current word
/// still to expand.
#[derive(Default)]
struct Walk {
    word: usize,
    bits: u64,
    base: u64,
}

/// This process's slice: its 2-bit entries and its frontier bits, in files it maps.
struct Slice {
    ranks: std::ops::Range<u64>,
    entries: MmapMut,
    frontier: MmapMut,
}

impl Slice {
    fn create(files: &Files, ranks: std::ops::Range<u64>) -> Result<Slice, GenError> {
        let len = slice_payload_len(&ranks);
        let words = (ranks.end - ranks.start).div_ceil(64);
        let entries =
            create_allocated(&files.entries, len).map_err(|e| files.io(&files.entries, e))?;
        let frontier = create_allocated(&files.frontier, 8 * words)
            .map_err(|e| files.io(&files.frontier, e))?;
        let mut slice = Slice {
            entries: map(&entries, 0, len).map_err(|e| files.io(&files.entries, e))?,
            frontier: map(&frontier, 0, 8 * words).map_err(|e| files.io(&files.frontier, e))?,
            ranks,
        };
        // 3 in every entry: not reached yet.
        slice.entries.fill(0xFF);
        Ok(slice)
    }

    /// The slice a run left; `finishing`: every level is done, and a run killed while it
    /// wrote its part may have appended some of the part's block checksums and footer to the
    /// entries before the rename.
    fn open(
        files: &Files,
        ranks: std::ops::Range<u64>,
        finishing: bool,
    ) -> Result<Slice, GenError> {
        let len = slice_payload_len(&ranks);
        let words = (ranks.end - ranks.start).div_ceil(64);
        let open = |path: &Path, want: u64| -> Result<MmapMut, GenError> {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .map_err(|e| files.io(path, e))?;
            let mut have = file.metadata().map_err(|e| files.io(path, e))?.len();
            let tail = 4 * block_count(want) + PART_FOOTER_LEN as u64;
            if finishing && path == files.entries && have > want && have <= want + tail {
                // The checksums and the footer are written again, from the entries, when the
                // part is.
                file.set_len(want).map_err(|e| files.io(path, e))?;
                have = want;
            }
            if have != want {
                return Err(files.bad_state(&format!(
                    "{} is {have} bytes, not {want}: start over with --restart",
                    path.display()
                )));
            }
            map(&file, 0, want).map_err(|e| files.io(path, e))
        };
        Ok(Slice {
            entries: open(&files.entries, len)?,
            frontier: open(&files.frontier, 8 * words)?,
            ranks,
        })
    }

    #[inline]
    fn entry(&self, i: u64) -> u8 {
        (self.entries[(i >> 2) as usize] >> ((i & 3) * 2)) & 3
    }

    #[inline]
    fn set_entry(&mut self, i: u64, v: u8) {
        let b = &mut self.entries[(i >> 2) as usize];
        let s = (i & 3) * 2;
        *b = (*b & !(3 << s)) | (v << s);
    }

    #[inline]
    fn word(&self, w: usize) -> u64 {
        let at = 8 * w;
        u64::from_le_bytes(self.frontier[at..at + 8].try_into().unwrap_or_default())
    }

    #[inline]
    fn set_word(&mut self, w: usize, value: u64) {
        self.frontier[8 * w..8 * w + 8].copy_from_slice(&value.to_le_bytes());
    }

    #[inline]
    fn set_bit(&mut self, i: u64) {
        self.frontier[(i >> 3) as usize] |= 1 << (i & 7);
    }

    /// Marks local rank `i` at value `v` if it is not reached yet; whether it was new.
    #[inline]
    fn mark(&mut self, i: u64, v: u8) -> bool {
        if i >= self.ranks.end - self.ranks.start || self.entry(i) != 3 {
            return false;
        }
        self.set_entry(i, v);
        self.set_bit(i);
        true
    }

    /// Clears the frontier bits whose entry is `v`, and with `forget` makes those entries
    /// unreached again (undoing a level).
    fn clear_where(&mut self, v: u8, forget: bool) {
        for w in 0..self.frontier.len() / 8 {
            let bits = self.word(w);
            if bits == 0 {
                continue;
            }
            let mut keep = bits;
            let mut rest = bits;
            while rest != 0 {
                let i = (w as u64) * 64 + u64::from(rest.trailing_zeros());
                rest &= rest - 1;
                if self.entry(i) == v {
                    keep &= !(1 << (i & 63));
                    if forget {
                        self.set_entry(i, 3);
                    }
                }
            }
            self.set_word(w, keep);
        }
    }

    /// Expands frontier states (entry `cur`) from where `walk` is: neighbours in this slice
    /// are marked `next` (counted in `found`), others handed to `send(rank, owner)`, which
    /// says when a buffer is full. Returns whether the frontier is done.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        walk: &mut Walk,
        cur: u8,
        next: u8,
        found: &mut u64,
        scan: &Scan,
        cursor: &mut ScanCursor,
        mut send: impl FnMut(u64) -> bool,
    ) -> bool {
        let words = self.frontier.len() / 8;
        let lo = self.ranks.start;
        let hi = self.ranks.end;
        loop {
            while walk.bits == 0 {
                if walk.word >= words {
                    return true;
                }
                walk.bits = self.word(walk.word);
                walk.base = walk.word as u64 * 64;
                walk.word += 1;
            }
            let i = walk.base + u64::from(walk.bits.trailing_zeros());
            walk.bits &= walk.bits - 1;
            if self.entry(i) != cur {
                continue;
            }
            let mut full = false;
            let rank = lo + i;
            scan.any_neighbor(cursor, rank, |_, n| {
                if n >= lo && n < hi {
                    *found += u64::from(self.mark(n - lo, next));
                } else {
                    full |= send(n);
                }
                false
            });
            if full {
                return false;
            }
        }
    }

    fn sync(&self, files: &Files) -> Result<(), GenError> {
        self.entries
            .flush()
            .map_err(|e| files.io(&files.entries, e))?;
        self.sync_frontier(files)
    }

    fn sync_frontier(&self, files: &Files) -> Result<(), GenError> {
        self.frontier
            .flush()
            .map_err(|e| files.io(&files.frontier, e))
    }

    /// The entries as a part file: their block checksums and the footer appended, synced,
    /// renamed into place; the frontier file removed.
    fn into_part(
        self,
        files: &Files,
        goal: &Layout,
        me: u32,
        parts: u32,
    ) -> Result<PartFooter, GenError> {
        let sums = BlockSums::of([&self.entries[..]]);
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
        self.sync(files)?;
        drop(self);
        let mut file = OpenOptions::new()
            .append(true)
            .open(&files.entries)
            .map_err(|e| files.io(&files.entries, e))?;
        file.write_all(&sums_bytes)
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
