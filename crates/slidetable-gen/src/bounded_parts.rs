//! The states within `D` moves of one goal searched by several processes
//! (`generate --max-depth D --parts DIR`, over MPI with the `mpi` feature), each owning one
//! slice of the ranks (§12.1's [`Slices`]), and written as one part file a process and a
//! manifest (docs/FORMAT.md §13.6).
//!
//! A level, from `d` to `d + 1`: each process expands its own states of level `d` into every
//! neighbour (the one-process search's [`expand`]), sorts them and drops repeats, keeps those
//! in its slice and sends each other process the ones in that process's slice, as offsets in
//! it (sorted, each once, LEB128 differences: `parts::encode_sorted`, the 2-bit search's
//! wire format), all to all. Each process then sorts what it kept and received and drops
//! repeats and its own states of level `d − 1` (the board is bipartite: nothing else can
//! come back). The level's size is the sum over the processes. The states of a slice at
//! each level are exactly the one-process search's states of that level in the slice, so
//! the parts joined level by level (`merge`) are the one-process file byte for byte.
//!
//! Every process ends the levels it writes at the same level, so the parts are written
//! together at the end: each to a temporary name, then (every part written) the old
//! manifest goes, the parts take their names, and part 0's process writes the manifest last.
//! A run is not resumed: it starts again from the goal (its levels take seconds to minutes
//! on the boards one machine or a few can hold).

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use slidetable_core::{Layout, Neighbors, WideRanker};
use slidetable_format::{
    bounded_part_name, is_bounded_part_name, BoundedHeader, BoundedLevel, BoundedManifest,
    BoundedPartRecord, Slices, BOUNDED_BLOCK_STATES, MANIFEST_NAME,
};

use crate::bounded::BoundedLevelDone;
use crate::bounded::{count_neighbours, expand, keep_new, Held};
use crate::parts::{
    check_dir, decode_offsets, encode_sorted, lock_dir, peak_memory, remove_if_there, sync_dir,
    Exchange, ExchangeError,
};
use crate::state_file::write_durably;
use crate::GenError;

/// What a run in parts is asked to make.
#[derive(Clone, Debug)]
pub struct BoundedPartsPlan {
    /// The goal.
    pub goal: Layout,
    /// `D`.
    pub max_depth: u32,
    /// The directory of the parts and the manifest (made beforehand, seen by every process).
    pub dir: PathBuf,
}

/// What a finished run made.
#[derive(Clone, Debug)]
pub struct BoundedPartsDone {
    /// The states at each distance from 0 to `D`, every part's.
    pub histogram: Vec<u64>,
    /// This process's part file.
    pub part: PathBuf,
    /// Its length.
    pub part_bytes: u64,
    /// The manifest, for the process that wrote it (part 0's).
    pub manifest: Option<PathBuf>,
}

/// Runs this process's share of the search of the states within `plan.max_depth` moves of
/// `plan.goal`, calling `done` after each level (every process, with the level's figures
/// over every process), and writes its part; part 0's process writes the manifest last.
pub fn solve_bounded_in_parts(
    plan: &BoundedPartsPlan,
    exchange: &mut dyn Exchange,
    done: &mut dyn FnMut(BoundedLevelDone),
) -> Result<BoundedPartsDone, GenError> {
    let goal = plan.goal;
    let board = goal.board();
    let ranker = WideRanker::new(board);
    let neighbors = Neighbors::new(board);
    let class = goal.class();
    let (me, parts) = (exchange.rank(), exchange.size());
    let slices = Slices::new(board.reachable_states(), parts);
    let mine = slices.part(me);
    check_dir(&plan.dir)?;
    let _lock = lock_dir(&plan.dir, exchange)?;
    let goal_rank = ranker.rank(&goal);
    let mut frontier = if mine.contains(&goal_rank) {
        vec![goal_rank]
    } else {
        Vec::new()
    };
    let mut before: Vec<u64> = Vec::new();
    let mut levels = vec![BoundedLevel::encode(&frontier, BOUNDED_BLOCK_STATES)];
    done(BoundedLevelDone {
        level: 0,
        states: 1,
        neighbours: 0,
        bytes_sent: 0,
        elapsed: Duration::ZERO,
        peak_memory: exchange.all_gather(peak_memory())?,
    });
    let mut wire: Vec<Vec<u8>> = vec![Vec::new(); parts as usize];
    let mut pieces = Vec::new();
    for level in 1..=plan.max_depth {
        let start = Instant::now();
        // Every process checks its share of the level's memory; all stop if one cannot.
        let held = Held {
            levels: frontier.len() + before.len(),
            encoded: levels.iter().map(BoundedLevel::bytes).sum(),
        };
        let room = held.room(count_neighbours(&frontier, &ranker, &neighbors))?;
        let fits = exchange.all_gather(u64::from(room.fits()))?;
        if let Some(k) = fits.iter().position(|&f| f == 0) {
            // Every process learns the figures of the first one short of memory, and part
            // 0's process says them (`GenError::EveryPart`): no process is left waiting.
            let mut short = room.clone();
            let figures = [
                room.neighbours,
                room.held,
                room.available.as_ref().map_or(0, |a| a.0),
            ];
            let mut theirs = [0u64; 3];
            for (t, f) in theirs.iter_mut().zip(figures) {
                *t = exchange.all_gather(f)?[k];
            }
            short.neighbours = theirs[0];
            short.held = theirs[1];
            short.available = room.available.map(|(_, origin)| (theirs[2], origin));
            let e = short.refusal(board, level, plan.max_depth, Some((k as u32, parts)));
            return Err(GenError::EveryPart(Box::new(e)));
        }
        let mut next = expand(&frontier, &ranker, &neighbors, class);
        let neighbours = next.len() as u64;
        next.par_sort_unstable();
        next.dedup();
        // Each owner's neighbours: the others' encoded for their owner, this slice's kept in
        // place (moved to the vector's front: no second vector of them).
        let mut own_range = 0..0;
        let mut from = 0;
        for (k, bytes) in wire.iter_mut().enumerate() {
            let slice = slices.part(k as u32);
            let to = from + next[from..].partition_point(|&r| r < slice.end);
            if k as u32 == me {
                bytes.clear();
                own_range = from..to;
            } else {
                encode_sorted(&next[from..to], slice.start, bytes, &mut pieces);
            }
            from = to;
        }
        let mut own = next;
        let kept = own_range.len();
        own.copy_within(own_range, 0);
        own.truncate(kept);
        let sent: u64 = wire.iter().map(|w| w.len() as u64).sum();
        let received = exchange.all_to_all(&wire)?;
        let len = mine.end - mine.start;
        // Counted first, so that the vector grows once, to what it must hold.
        let mut incoming = 0usize;
        for (from, bytes) in received.iter().enumerate() {
            decode_offsets(bytes, |_| incoming += 1)
                .map_err(|problem| sent_to(problem, from, me))?;
        }
        if own.capacity() < kept + incoming {
            own.shrink_to_fit();
            own.reserve_exact(incoming);
        }
        for (from, bytes) in received.iter().enumerate() {
            let mut outside = None;
            decode_offsets(bytes, |o| {
                if o < len {
                    own.push(mine.start + o);
                } else {
                    outside = Some(o);
                }
            })
            .map_err(|problem| sent_to(problem, from, me))?;
            if let Some(o) = outside {
                return Err(sent_to(
                    format!("hold offset {o}, past the slice's {len} ranks"),
                    from,
                    me,
                )
                .into());
            }
        }
        drop(received);
        own.par_sort_unstable();
        keep_new(&mut own, &before);
        own.shrink_to_fit();
        let states = exchange.all_gather(own.len() as u64)?.iter().sum();
        let bytes_sent = exchange.all_gather(sent)?.iter().sum();
        levels.push(BoundedLevel::encode(&own, BOUNDED_BLOCK_STATES));
        done(BoundedLevelDone {
            level,
            states,
            neighbours,
            bytes_sent,
            elapsed: start.elapsed(),
            peak_memory: exchange.all_gather(peak_memory())?,
        });
        before = std::mem::replace(&mut frontier, own);
    }
    drop((before, frontier));
    let histogram: Vec<u64> = (0..levels.len())
        .map(|d| {
            exchange
                .all_gather(levels[d].states())
                .map(|all| all.iter().sum())
        })
        .collect::<Result<_, _>>()?;
    write_parts(plan, exchange, &goal, &levels, histogram)
}

/// What is wrong with what process `from` sent to process `me`.
fn sent_to(problem: String, from: usize, me: u32) -> ExchangeError {
    ExchangeError(format!(
        "the offsets process {from} sent to process {me} {problem}"
    ))
}

/// Writes this process's part (a temporary file first); once every process has, the old
/// manifest goes, the parts take their names, and part 0's process writes the manifest.
fn write_parts(
    plan: &BoundedPartsPlan,
    exchange: &mut dyn Exchange,
    goal: &Layout,
    levels: &[BoundedLevel],
    histogram: Vec<u64>,
) -> Result<BoundedPartsDone, GenError> {
    let (me, parts) = (exchange.rank(), exchange.size());
    let dir = &plan.dir;
    let part = dir.join(bounded_part_name(me, parts));
    let tmp = dir.join(format!("{}.tmp", bounded_part_name(me, parts)));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GenError::Io { path, source }
    };
    let written = File::create(&tmp).and_then(|file| {
        let mut out = BufWriter::new(file);
        let (len, crc) =
            BoundedHeader::write_part(&mut out, goal, BOUNDED_BLOCK_STATES, levels, me, parts)?;
        out.into_inner()?.sync_all()?;
        Ok((len, crc))
    });
    // Every process learns whether every part was written before any name changes.
    let ok = exchange.all_gather(u64::from(written.is_ok()))?;
    let (len, crc) = match written {
        Ok(w) => w,
        Err(e) => {
            let _ = remove_if_there(&tmp);
            return Err(io(&tmp)(e));
        }
    };
    if let Some(k) = ok.iter().position(|&o| o == 0) {
        let _ = remove_if_there(&tmp);
        return Err(GenError::Parts {
            path: dir.join(bounded_part_name(k as u32, parts)),
            problem: format!(
                "part {k}'s process could not write it (its message says why); no part was \
                 put in place, and a table the directory held is still there"
            ),
        });
    }
    let manifest_path = dir.join(MANIFEST_NAME);
    if me == 0 {
        remove_if_there(&manifest_path).map_err(io(&manifest_path))?;
    }
    exchange.all_gather(0)?;
    fs::rename(&tmp, &part).map_err(io(&part))?;
    sync_dir(&part);
    let lens = exchange.all_gather(len)?;
    let crcs = exchange.all_gather(u64::from(crc))?;
    let mut manifest = None;
    if me == 0 {
        // Parts of a run in another number of parts would make the table refused.
        let ours: Vec<String> = (0..parts).map(|k| bounded_part_name(k, parts)).collect();
        for entry in fs::read_dir(dir).map_err(io(dir))?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_bounded_part_name(&name) && !ours.contains(&name) {
                remove_if_there(&entry.path()).map_err(io(&entry.path()))?;
            }
        }
        let bytes = BoundedManifest {
            max_depth: histogram.len() as u32 - 1,
            states: histogram.iter().sum(),
            parts: lens
                .iter()
                .zip(&crcs)
                .map(|(&len, &crc)| BoundedPartRecord {
                    len,
                    header_crc: crc as u32,
                })
                .collect(),
        }
        .to_bytes();
        write_durably(&manifest_path, &bytes).map_err(io(&manifest_path))?;
        manifest = Some(manifest_path);
    }
    exchange.all_gather(0)?;
    Ok(BoundedPartsDone {
        histogram,
        part,
        part_bytes: len,
        manifest,
    })
}
