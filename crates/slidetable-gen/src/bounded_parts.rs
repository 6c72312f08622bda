//! The search of the states within `D` moves of one goal, the one engine of both runs: in
//! one process (`generate --max-depth D -o FILE`, [`generate_bounded`], and in memory,
//! [`solve_bounded`]), and by several processes (`generate --max-depth D --parts
//! DIR`, over MPI with the `mpi` feature, [`solve_bounded_in_parts`]), each owning one slice
//! of the ranks (§12.1's [`Slices`]; one process owns them all) and written as one part file a
//! process and a manifest (docs/FORMAT.md §13.6).
//!
//! A level, from `d` to `d + 1`: each process expands its own states of level `d` into every
//! neighbour ([`expand`]), sorts them, keeps those in its slice and sends each other process
//! the ones in that process's slice, as offsets in it (sorted, each once, LEB128
//! differences: `parts::encode_sorted`, the 2-bit search's wire format), all to all. Each
//! process then sorts what it kept and received (one process receives nothing, and sorts
//! once) and drops repeats and its own states of level `d − 1` (the board is bipartite:
//! nothing else can come back). The level's size is the sum over the processes. The states
//! of a slice at each level are exactly the one-process search's states of that level in the
//! slice, so the parts joined level by level (`merge`) are the one-process file byte for byte.
//!
//! **Checkpoints** (the one engine's, `checkpoint.rs`, paced as the complete tables' are):
//! at the end of a level that any process finds one due, each process writes its levels so
//! far as a part file (§13.6's bytes, levels `0..=d`) after the checkpoint's lines
//! (docs/FORMAT.md §13.7); with several processes, to `.next` first, put in place once every
//! process has written its own. A rerun of the same command goes on from the last level every
//! process has a checkpoint of; the frontier and the level before it are decoded from the
//! last two levels. A run of another board, goal, `D` or number of processes is refused, the
//! checkpoint named; `restart` starts over.
//!
//! Every process ends the levels it writes at the same level, so the parts are written
//! together at the end: each to a temporary name, then (every part written) the old
//! manifest goes, the parts take their names, and part 0's process writes the manifest last.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read as _, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use slidetable_core::{Layout, Neighbors, WideRanker};
use slidetable_format::{
    bounded_part_name, is_bounded_part_name, BoundedHeader, BoundedLevel, BoundedManifest,
    BoundedPartRecord, Slices, BOUNDED_BLOCK_STATES, MANIFEST_NAME,
};

use crate::bounded::{count_neighbours, expand, keep_new, BoundedLevelDone, SolvedBounded};
use crate::checkpoint::{
    self, identity, io_error, read_head, resume_point, theirs, CheckpointEvent, Head, Left, Pace,
    Pacer, Resume, Resumed, Scratch, START_OVER,
};
use crate::parts::{
    check_dir_everywhere, decode_offsets, encode_sorted, lock_dir, peak_memory, remove_if_there,
    sync_dir, Alone, Exchange, ExchangeError,
};
use crate::resume::WorkFiles;
use crate::scale::Held;
use crate::state_file::write_durably;
use crate::write::temporary::{hold_writes, LockFile};
use crate::{Destination, GenError, Written};

/// What a run in parts is asked to make.
#[derive(Clone, Debug)]
pub struct BoundedPartsPlan {
    /// The goal.
    pub goal: Layout,
    /// `D`.
    pub max_depth: u32,
    /// The directory of the parts and the manifest (made if missing, seen by every process).
    pub dir: PathBuf,
    /// Remove an earlier run's checkpoints and start over.
    pub restart: bool,
    /// When the processes write checkpoints (at the end of a level that any process finds
    /// one due; `Pace::from_env()` is the complete tables' rule).
    pub checkpoints: Pace,
}

/// How a run of `generate --max-depth D -o FILE` keeps checkpoints.
#[derive(Clone, Copy, Debug)]
pub struct BoundedRun {
    /// Remove an earlier run's checkpoint and start over.
    pub restart: bool,
    /// When to write checkpoints.
    pub pace: Pace,
}

/// What a search within `D` moves tells as it goes.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum BoundedEvent {
    /// A level is made (in parts: every process is told, with the figures of every process).
    Level(BoundedLevelDone),
    /// What the checkpoints did. [`ControlFlow::Break`] after [`CheckpointEvent::Saved`]
    /// stops the run there ([`GenError::Stopped`]; in parts, every process, if any asks),
    /// the checkpoint kept for a later run to resume.
    Checkpoint(CheckpointEvent),
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

/// Every state within `max_depth` moves of `goal`, in this process's memory, by the one
/// engine with one part and no checkpoint; calls `done` after each level.
pub(crate) fn solve_alone(
    goal: &Layout,
    max_depth: u32,
    done: &mut dyn FnMut(BoundedLevelDone),
) -> Result<SolvedBounded, GenError> {
    let levels = search(goal, max_depth, &mut Alone, None, &mut |event| {
        if let BoundedEvent::Level(level) = event {
            done(level);
        }
        ControlFlow::Continue(())
    })?;
    Ok(SolvedBounded::from_levels(*goal, levels))
}

/// `generate --max-depth D -o FILE`: the search in this process, keeping checkpoints beside
/// the file (`.NAME.checkpoint`, as a complete table's) and resuming one an earlier run of the
/// same command left, then the file written to `destination`. Returns what was written and
/// the states at each distance.
pub fn generate_bounded(
    goal: &Layout,
    max_depth: u32,
    destination: Destination,
    run: BoundedRun,
    events: &mut dyn FnMut(BoundedEvent) -> ControlFlow<()>,
) -> Result<(Written, Vec<u64>), GenError> {
    let target = destination.target().to_path_buf();
    let files = WorkFiles::beside(&target);
    let _lock = checkpoint::take_lock(&files.lock, &target)?;
    // The disk space first, as a complete table's (an earlier run's checkpoint, which a new
    // one replaces, counts as available).
    let allocated = match run.restart {
        true => 0,
        false => fs::metadata(&files.checkpoint).map_or(0, |m| m.len()),
    };
    crate::bounded::check_disk_within(goal, max_depth, destination.dir(), allocated)?;
    let name = target
        .file_name()
        .map_or_else(|| "table".to_string(), |n| n.to_string_lossy().into_owned());
    let mut keeper = Keeper {
        checkpoint: files.checkpoint.clone(),
        next: files.checkpoint.clone(),
        scratch: ScratchAt::Temporary {
            dir: destination.dir().to_path_buf(),
            // The table's own temporary files' prefix: one a killed run left is removed by
            // the next run's `Destination::prepare`.
            prefix: format!(".{name}."),
        },
        identity: identity_of(goal, max_depth, 0, 1),
        restart: run.restart,
        pacer: Pacer::new(run.pace),
        parts: false,
    };
    let result =
        search(goal, max_depth, &mut Alone, Some(&mut keeper), events).and_then(|levels| {
            let solved = SolvedBounded::from_levels(*goal, levels);
            let written =
                destination.write(&mut |out| crate::bounded::write_bounded_to(out, &solved))?;
            // Removed and no longer told as one step, as a signal's handler sees it.
            hold_writes(|| {
                let removed = keeper.remove();
                checkpoint::set_in_progress(None);
                removed
            })
            .map_err(|e| io_error(&keeper.checkpoint, e))?;
            Ok((written, solved.histogram()))
        });
    checkpoint::set_in_progress(None);
    result
}

/// Runs this process's share of the search of the states within `plan.max_depth` moves of
/// `plan.goal`, telling `events` after each level (every process, with the level's figures
/// over every process) and of its checkpoints, and writes its part; part 0's process writes
/// the manifest last.
pub fn solve_bounded_in_parts(
    plan: &BoundedPartsPlan,
    exchange: &mut dyn Exchange,
    events: &mut dyn FnMut(BoundedEvent) -> ControlFlow<()>,
) -> Result<BoundedPartsDone, GenError> {
    let (me, parts) = (exchange.rank(), exchange.size());
    check_dir_everywhere(&plan.dir, exchange)?;
    let _lock: Option<LockFile> = lock_dir(&plan.dir, exchange)?;
    let dir_error = |source| io_error(&plan.dir, source);
    // An interrupted run in another number of parts is resumed only by that number of
    // processes: refused, never removed, unless restart.
    let other = if me == 0 {
        checkpoint::interrupted_elsewhere(&plan.dir, parts, &CHECKPOINT_ENDINGS)
            .map_err(dir_error)?
    } else {
        None
    };
    let other = exchange.all_gather(other.map_or(0, |(m, _)| u64::from(m)))?[0] as u32;
    if other != 0 && !plan.restart {
        let example = format!("{}.checkpoint", bounded_part_name(0, other));
        return Err(checkpoint::other_count(&plan.dir, other, parts, &example));
    }
    if other != 0 && me == 0 {
        remove_other_checkpoints(&plan.dir, parts).map_err(dir_error)?;
    }
    let part = plan.dir.join(bounded_part_name(me, parts));
    let with = |ext: &str| PathBuf::from(format!("{}.{ext}", part.display()));
    let mut keeper = Keeper {
        checkpoint: with("checkpoint"),
        next: if parts > 1 {
            with("next")
        } else {
            with("checkpoint")
        },
        scratch: ScratchAt::Fixed(with("checkpoint.tmp")),
        identity: identity_of(&plan.goal, plan.max_depth, me, parts),
        restart: plan.restart,
        pacer: Pacer::new(plan.checkpoints),
        parts: true,
    };
    let result = search(
        &plan.goal,
        plan.max_depth,
        &mut *exchange,
        Some(&mut keeper),
        events,
    )
    .and_then(|levels| {
        let histogram: Vec<u64> = (0..levels.len())
            .map(|d| {
                exchange
                    .all_gather(levels[d].states())
                    .map(|all| all.iter().sum())
            })
            .collect::<Result<_, _>>()?;
        let done = write_parts(plan, exchange, &plan.goal, &levels, histogram)?;
        // Removed and no longer told as one step, as a signal's handler sees it.
        hold_writes(|| {
            let removed = keeper.remove();
            checkpoint::set_in_progress(None);
            removed
        })
        .map_err(|e| io_error(&keeper.checkpoint, e))?;
        Ok(done)
    });
    checkpoint::set_in_progress(None);
    result
}

/// The endings of a process's checkpoint files in a directory of parts.
const CHECKPOINT_ENDINGS: [&str; 2] = [".slb.checkpoint", ".slb.next"];

/// Removes the checkpoints of runs in `dir` in another number of parts than `parts` (a run
/// restarted over them).
fn remove_other_checkpoints(dir: &Path, parts: u32) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let working = CHECKPOINT_ENDINGS
            .iter()
            .chain(&[".slb.checkpoint.tmp"])
            .any(|e| name.ends_with(e));
        if working && checkpoint::parts_in_name(&name) != Some(parts) {
            remove_if_there(&entry.path())?;
        }
    }
    Ok(())
}

/// The lines that name a run in its checkpoint: board, goal, `D`, and the part.
fn identity_of(goal: &Layout, max_depth: u32, me: u32, parts: u32) -> String {
    let tiles: Vec<String> = goal.tiles().iter().map(u8::to_string).collect();
    identity(
        "within",
        &[
            ("board", goal.board().to_string()),
            ("goal", tiles.join(" ")),
            ("max-depth", max_depth.to_string()),
            ("part", format!("{me} of {parts}")),
        ],
    )
}

/// Where a checkpoint is written before its rename (owned).
enum ScratchAt {
    Temporary { dir: PathBuf, prefix: String },
    Fixed(PathBuf),
}

impl ScratchAt {
    fn scratch(&self) -> Scratch<'_> {
        match self {
            ScratchAt::Temporary { dir, prefix } => Scratch::Temporary { dir, prefix },
            ScratchAt::Fixed(path) => Scratch::Fixed(path),
        }
    }

    fn dir_and_prefix(&self) -> (PathBuf, String) {
        match self {
            ScratchAt::Temporary { dir, prefix } => (dir.clone(), prefix.clone()),
            ScratchAt::Fixed(path) => (
                path.parent().map_or_else(PathBuf::new, Path::to_path_buf),
                path.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            ),
        }
    }
}

/// This process's checkpoints of a search within `D` moves.
struct Keeper {
    /// The checkpoint every process has.
    checkpoint: PathBuf,
    /// Where a newer one is written (with several processes, put in place once every
    /// process has written its own; alone, the checkpoint itself).
    next: PathBuf,
    scratch: ScratchAt,
    identity: String,
    restart: bool,
    pacer: Pacer,
    /// Whether the run is in parts (its refusals [`GenError::Parts`]'s).
    parts: bool,
}

/// A checkpoint's levels read back: this process's levels, and the histogram (every
/// process's).
struct KeptLevels {
    levels: Vec<BoundedLevel>,
    histogram: Vec<u64>,
    /// The ranks of its last level and of the level before it (none before level 1).
    frontier: Vec<u64>,
    before: Vec<u64>,
    pid: u32,
    saved: std::time::SystemTime,
}

impl Keeper {
    /// Process `me` of `parts` as a signal's handler names it: in a run in parts only.
    fn part(&self, me: u32, parts: u32) -> Option<(u32, u32)> {
        self.parts.then_some((me, parts))
    }

    /// The directory of the one file the search is written to (`-o FILE`); `None` in parts.
    fn file_dir(&self) -> Option<&Path> {
        match &self.scratch {
            ScratchAt::Temporary { dir, .. } if !self.parts => Some(dir),
            _ => None,
        }
    }

    fn several(&self) -> bool {
        self.next != self.checkpoint
    }

    /// This process's checkpoint files, and the temporary one.
    fn remove(&self) -> io::Result<()> {
        for path in [&self.checkpoint, &self.next] {
            remove_if_there(path)?;
        }
        if let ScratchAt::Fixed(tmp) = &self.scratch {
            remove_if_there(tmp)?;
        }
        Ok(())
    }

    /// The checkpoint at `path`'s lines: `None` if there is none.
    fn head(&self, path: &Path) -> Result<Option<Head>, GenError> {
        read_head(path, &self.identity, START_OVER, |read| {
            format!(
                "it is an interrupted run of another table ({}): run the same command as it to \
                 resume it, or add --restart to start over",
                theirs(read, &["board", "goal", "max-depth", "part"])
            )
        })
        .map_err(|r| r.at(path, self.parts))
    }

    fn level_of(&self, path: &Path) -> Result<Option<u32>, GenError> {
        match self.head(path)? {
            Some(head) => {
                let level = head.number("level").map_err(|r| r.at(path, self.parts))?;
                u32::try_from(level)
                    .map(Some)
                    .map_err(|_| GenError::Resume {
                        path: path.to_path_buf(),
                        problem: "its level is too large: start over with --restart".into(),
                    })
            }
            None => Ok(None),
        }
    }

    /// What this process left: the levels of its checkpoints.
    fn left(&self) -> Result<Left, GenError> {
        Ok(Left {
            finished: false,
            checkpoint: self.level_of(&self.checkpoint)?,
            next: match self.several() {
                true => self.level_of(&self.next)?,
                false => None,
            },
        })
    }

    /// The levels of this process's checkpoint of `level` (in the checkpoint or the newer
    /// file, as `left` says), every check made; the newer file put in place (or removed, if
    /// not of `level`).
    fn load(
        &self,
        left: &Left,
        level: u32,
        ranks: std::ops::Range<u64>,
    ) -> Result<KeptLevels, GenError> {
        let path = if left.checkpoint == Some(level) {
            &self.checkpoint
        } else {
            &self.next
        };
        let refused = |r: checkpoint::Refusal| r.at(path, self.parts);
        let bad = |problem: String| {
            checkpoint::Refusal::Problem(format!("{problem}: start over with --restart"))
                .at(path, self.parts)
        };
        let head = self
            .head(path)?
            .ok_or_else(|| bad(format!("its checkpoint of level {level} is gone")))?;
        let histogram = head.numbers("histogram").map_err(refused)?;
        if histogram.len() != level as usize + 1 {
            return Err(bad("its histogram does not end at its level".into()));
        }
        let want = head.number("entries-bytes").map_err(refused)?;
        let mut input = head.entries(path, want).map_err(refused)?;
        let mut bytes = Vec::new();
        input
            .read_to_end(&mut bytes)
            .map_err(|e| io_error(path, e))?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&bytes);
        head.check_crc(crc).map_err(refused)?;
        let part = BoundedHeader::parse_part(&bytes)
            .and_then(|h| h.verify(&bytes).map(|()| h))
            .map_err(|e| bad(format!("its levels are not a part file ({e})")))?;
        if part.max_depth() != level || part.ranks() != ranks {
            return Err(bad(format!(
                "its levels are not this part's of level {level}"
            )));
        }
        let levels = (0..=level)
            .map(|d| part.encoded_level(&bytes, d))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("its levels are cut short".into()))?;
        let ranks = |d: u32| -> Result<Vec<u64>, GenError> {
            let mut out = Vec::with_capacity(levels[d as usize].states() as usize);
            part.each_rank(&bytes, d, |r| out.push(r))
                .map_err(|e| bad(format!("its level {d} cannot be read ({e})")))?;
            Ok(out)
        };
        let frontier = ranks(level)?;
        let before = if level > 0 {
            ranks(level - 1)?
        } else {
            Vec::new()
        };
        drop(bytes);
        if self.several() {
            if path == &self.next {
                // Every process has a checkpoint of `level`: the older one may go.
                fs::rename(&self.next, &self.checkpoint)
                    .map_err(|e| io_error(&self.checkpoint, e))?;
                sync_dir(&self.checkpoint);
            } else {
                // A newer checkpoint some other process never wrote: of no use.
                remove_if_there(&self.next).map_err(|e| io_error(&self.next, e))?;
            }
        }
        Ok(KeptLevels {
            levels,
            histogram,
            frontier,
            before,
            pid: head.pid(),
            saved: head.saved(path),
        })
    }

    /// Writes this process's checkpoint of `levels` (every process's `histogram`) to
    /// [`Keeper::next`].
    fn write(
        &self,
        goal: &Layout,
        levels: &[BoundedLevel],
        histogram: &[u64],
        me: u32,
        parts: u32,
    ) -> Result<(), GenError> {
        let body = format!(
            "{}level {}\nhistogram {}\n",
            self.identity,
            histogram.len() - 1,
            crate::state_file::join(histogram)
        );
        let pieces = |out: &mut dyn FnMut(&[u8]) -> io::Result<()>| {
            BoundedHeader::write_part(
                &mut Through(out),
                goal,
                BOUNDED_BLOCK_STATES,
                levels,
                me,
                parts,
            )
            .map(|_| ())
        };
        checkpoint::write(self.scratch.scratch(), &self.next, &body, &pieces, |at| {
            if !self.several() {
                let level = histogram.len() as u32 - 1;
                checkpoint::kept(&self.checkpoint, 0, level, Some(at), self.part(me, parts));
            }
        })
        .map_err(|e| io_error(&self.next, e))
    }
}

/// A writer that hands every piece to a function (a checkpoint's pieces).
struct Through<'a>(&'a mut dyn FnMut(&[u8]) -> io::Result<()>);

impl Write for Through<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (self.0)(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The levels of this process's slice within `max_depth` moves of `goal`, from an earlier
/// run's checkpoint where `keeper` finds one (and writing checkpoints as it says), telling
/// `events` after each level.
fn search(
    goal: &Layout,
    max_depth: u32,
    exchange: &mut dyn Exchange,
    mut keeper: Option<&mut Keeper>,
    events: &mut dyn FnMut(BoundedEvent) -> ControlFlow<()>,
) -> Result<Vec<BoundedLevel>, GenError> {
    let board = goal.board();
    let ranker = WideRanker::new(board);
    let neighbors = Neighbors::new(board);
    let class = goal.class();
    let (me, parts) = (exchange.rank(), exchange.size());
    let slices = Slices::new(board.reachable_states(), parts);
    let mine = slices.part(me);
    // A refusal of memory names the process short of it in parts; alone, as one process.
    let in_parts = keeper.as_ref().is_some_and(|k| k.parts);
    let found = match keeper.as_deref_mut() {
        Some(keeper) => start(keeper, exchange, max_depth, mine.clone(), events)?,
        None => None,
    };
    let (mut levels, mut histogram, mut frontier, mut before) = match found {
        Some(found) => (found.levels, found.histogram, found.frontier, found.before),
        None => {
            let goal_rank = ranker.rank(goal);
            let frontier = if mine.contains(&goal_rank) {
                vec![goal_rank]
            } else {
                Vec::new()
            };
            let levels = vec![BoundedLevel::encode(&frontier, BOUNDED_BLOCK_STATES)];
            let _ = events(BoundedEvent::Level(BoundedLevelDone {
                level: 0,
                states: 1,
                neighbours: 0,
                bytes_sent: 0,
                elapsed: Duration::ZERO,
                peak_memory: exchange.all_gather(peak_memory())?,
            }));
            if max_depth > 0 {
                if let Some(keeper) = keeper.as_deref_mut() {
                    keep(keeper, exchange, goal, &levels, &[1], events)?;
                }
            }
            (levels, vec![1], frontier, Vec::new())
        }
    };
    let mut wire: Vec<Vec<u8>> = vec![Vec::new(); parts as usize];
    let mut pieces = Vec::new();
    for level in histogram.len() as u32..=max_depth {
        let start = Instant::now();
        // Written to one file: the levels made must fit its disk (in parts, each part's
        // directory is planned by `generate --plan`).
        if let Some(dir) = keeper.as_deref().and_then(Keeper::file_dir) {
            let made: Vec<u64> = levels.iter().map(BoundedLevel::bytes).collect();
            crate::bounded::check_disk_made(goal, max_depth, &made, dir)?;
        }
        // Every process checks its share of the level's memory; all stop if one cannot.
        let held = Held {
            levels: frontier.len() + before.len(),
            encoded: levels.iter().map(BoundedLevel::bytes).sum(),
        };
        let room = held.room(count_neighbours(&frontier, &ranker, &neighbors))?;
        let fits = exchange.all_gather(u64::from(room.fits()))?;
        if let Some(k) = fits.iter().position(|&f| f == 0) {
            if !in_parts {
                return Err(room.refusal(board, level, max_depth, None));
            }
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
            let e = short.refusal(board, level, max_depth, Some((k as u32, parts)));
            return Err(GenError::EveryPart(Box::new(e)));
        }
        let mut next = expand(&frontier, &ranker, &neighbors, class);
        let neighbours = next.len() as u64;
        next.par_sort_unstable();
        let mut own = if parts == 1 {
            // One process owns every rank: nothing to send, and `keep_new` drops repeats.
            next
        } else {
            next.dedup();
            // Each owner's neighbours: the others' encoded for their owner, this slice's
            // kept in place (moved to the vector's front: no second vector of them).
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
            let kept = own_range.len();
            next.copy_within(own_range, 0);
            next.truncate(kept);
            next
        };
        let sent: u64 = wire.iter().map(|w| w.len() as u64).sum();
        if parts > 1 {
            let received = exchange.all_to_all(&wire)?;
            receive(&mut own, received, mine.clone(), me)?;
            own.par_sort_unstable();
        }
        keep_new(&mut own, &before);
        own.shrink_to_fit();
        let states = exchange.all_gather(own.len() as u64)?.iter().sum();
        let bytes_sent = exchange.all_gather(sent)?.iter().sum();
        levels.push(BoundedLevel::encode(&own, BOUNDED_BLOCK_STATES));
        histogram.push(states);
        let _ = events(BoundedEvent::Level(BoundedLevelDone {
            level,
            states,
            neighbours,
            bytes_sent,
            elapsed: start.elapsed(),
            peak_memory: exchange.all_gather(peak_memory())?,
        }));
        before = std::mem::replace(&mut frontier, own);
        if level < max_depth {
            if let Some(keeper) = keeper.as_deref_mut() {
                keep(keeper, exchange, goal, &levels, &histogram, events)?;
            }
        }
    }
    Ok(levels)
}

/// Adds to `own` the offsets every other process sent into this slice (`mine`).
fn receive(
    own: &mut Vec<u64>,
    received: Vec<Vec<u8>>,
    mine: std::ops::Range<u64>,
    me: u32,
) -> Result<(), GenError> {
    let len = mine.end - mine.start;
    // Counted first, so that the vector grows once, to what it must hold.
    let mut incoming = 0usize;
    for (from, bytes) in received.iter().enumerate() {
        decode_offsets(bytes, |_| incoming += 1).map_err(|problem| sent_to(problem, from, me))?;
    }
    if own.capacity() < own.len() + incoming {
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
    Ok(())
}

/// What a run keeping checkpoints starts from: with `restart`, none (an earlier run's
/// removed); else the last level every process has a checkpoint of, read back, if any.
fn start(
    keeper: &mut Keeper,
    exchange: &mut dyn Exchange,
    max_depth: u32,
    mine: std::ops::Range<u64>,
    events: &mut dyn FnMut(BoundedEvent) -> ControlFlow<()>,
) -> Result<Option<KeptLevels>, GenError> {
    if keeper.restart {
        for path in [&keeper.checkpoint, &keeper.next] {
            if checkpoint::remove_if_there(path).map_err(|e| io_error(path, e))? {
                let _ = events(BoundedEvent::Checkpoint(CheckpointEvent::Restarted {
                    checkpoint: path.clone(),
                }));
            }
        }
    }
    let (me, parts) = (exchange.rank(), exchange.size());
    let left = keeper.left()?;
    let keys = exchange.all_gather(left.key())?;
    let all: Vec<Left> = keys.iter().map(|&k| Left::of_key(k)).collect();
    let resume = resume_point(&all).map_err(|problem| GenError::Resume {
        path: keeper.checkpoint.clone(),
        problem,
    })?;
    let level = match resume {
        Resume::From(level) => level,
        _ => {
            keeper
                .remove()
                .map_err(|e| io_error(&keeper.checkpoint, e))?;
            checkpoint::none_yet(&keeper.checkpoint, keeper.part(me, parts));
            return Ok(None);
        }
    };
    if level >= max_depth {
        return Err(GenError::Resume {
            path: keeper.checkpoint.clone(),
            problem: format!(
                "its level {level} is not below --max-depth {max_depth}: start over with \
                 --restart"
            ),
        });
    }
    // Told first: a signal while its levels are read keeps it too.
    checkpoint::kept(&keeper.checkpoint, 0, level, None, keeper.part(me, parts));
    let found = keeper.load(&left, level, mine)?;
    let _ = events(BoundedEvent::Checkpoint(CheckpointEvent::Resumed(
        Resumed {
            section: 0,
            sections: 1,
            level,
            settled: found.histogram.iter().sum(),
            saved: found.saved,
            pid: found.pid,
            checkpoint: keeper.checkpoint.clone(),
        },
    )));
    Ok(Some(found))
}

/// Writes every process's checkpoint of the histogram's last level if any process finds one
/// due (every process takes part: the decision is an all-gather); stops the run if `events`
/// asks after it ([`GenError::Stopped`]).
fn keep(
    keeper: &mut Keeper,
    exchange: &mut dyn Exchange,
    goal: &Layout,
    levels: &[BoundedLevel],
    histogram: &[u64],
    events: &mut dyn FnMut(BoundedEvent) -> ControlFlow<()>,
) -> Result<(), GenError> {
    let (me, parts) = (exchange.rank(), exchange.size());
    let bytes: u64 = levels.iter().map(BoundedLevel::bytes).sum();
    let (dir, prefix) = keeper.scratch.dir_and_prefix();
    let due = keeper
        .pacer
        .due(bytes, &mut || checkpoint::probe_disk(&dir, &prefix));
    if !exchange.all_gather(u64::from(due))?.iter().any(|&d| d != 0) {
        return Ok(());
    }
    let level = histogram.len() as u32 - 1;
    let started = Instant::now();
    let written = keeper.write(goal, levels, histogram, me, parts);
    let everywhere = exchange.all_gather(u64::from(written.is_ok()))?;
    let stop = if everywhere.iter().all(|&ok| ok != 0) {
        if keeper.several() {
            // Every process's checkpoint of `level` is in place: the older ones may go (put
            // in place and told as one step, as a signal's handler sees it).
            hold_writes(|| {
                fs::rename(&keeper.next, &keeper.checkpoint)?;
                checkpoint::kept(&keeper.checkpoint, 0, level, None, keeper.part(me, parts));
                io::Result::Ok(())
            })
            .map_err(|e| io_error(&keeper.checkpoint, e))?;
            sync_dir(&keeper.checkpoint);
        }
        let took = started.elapsed();
        keeper.pacer.saved(took, bytes);
        events(BoundedEvent::Checkpoint(CheckpointEvent::Saved {
            section: 0,
            level,
            bytes,
            took,
        }))
        .is_break()
    } else {
        if keeper.several() {
            remove_if_there(&keeper.next).map_err(|e| io_error(&keeper.next, e))?;
        }
        keeper.pacer.failed();
        let _ = events(BoundedEvent::Checkpoint(CheckpointEvent::Failed {
            level,
            checkpoint: keeper.checkpoint.clone(),
            error: written.err().map(|e| e.to_string()),
        }));
        false
    };
    // Stopped by every process if any asks: none is left waiting.
    if exchange
        .all_gather(u64::from(stop))?
        .iter()
        .any(|&s| s != 0)
    {
        return Err(GenError::Stopped {
            level,
            checkpoint: keeper.checkpoint.clone(),
        });
    }
    Ok(())
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

/// Every state within `max_depth` moves of `goal`, by a breadth-first search from it, in
/// this process's memory (the search in parts' engine, `bounded_parts.rs`, with one part and
/// no checkpoint); calls `done` after each level. Before each level, the memory it needs
/// (`Held::room`, bounded.rs) is checked against the memory available: [`GenError::NoRoomWithin`] when
/// it would not fit.
pub fn solve_bounded(
    goal: &Layout,
    max_depth: u32,
    done: &mut dyn FnMut(BoundedLevelDone),
) -> Result<SolvedBounded, GenError> {
    solve_alone(goal, max_depth, done)
}
