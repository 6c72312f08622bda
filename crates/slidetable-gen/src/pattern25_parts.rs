//! The 24-puzzle's pattern databases built in parts (`generate --board 5x5 --parts DIR`, on
//! the processes of an MPI job, or alone): each process owns one slice of each group's
//! placement ranks ([`Piece25::range`]), searches it by the one pattern search
//! (`pattern_search.rs`, through [`Meet`]), and the processes swap the children each makes
//! in the others' slices through the table search's transport ([`Exchange`]: all to all,
//! the children encoded as the table search encodes its offsets, [`encode_offsets`]). Each
//! process writes its slices of every group to its part file (`SLIDEQ25`, docs/FORMAT.md
//! §14), and `merge` joins the parts into the `SLIDEP25` file the one-process build writes,
//! byte for byte ([`merge_pattern25_parts`]).
//!
//! **Checkpoints**, through the checkpoint engine (`checkpoint.rs`): as soon as a group is
//! built, each process writes its slice of it to `pattern-part-K-of-N.group-G.checkpoint`
//! ([`pattern25_checkpoint_name`]). A rerun takes every group each process has a checkpoint
//! of (the others are built again: the groups are independent and every build of one is the
//! same bytes), after every process has read and checked its own; a checkpoint of another
//! build (board, goal, partition, part of how many, rank width) or a damaged one is refused
//! by every process together. The checkpoints go once every part file is written.
//!
//! **The build in one process** (`generate --board 5x5 -o FILE`, [`generate_pattern25`]) is
//! this build with one part: the same search, checkpoints and refusals, with the checkpoints
//! beside the file (`.NAME.group-G.checkpoint`, [`pattern25_file_checkpoint`]: the lines of
//! part 0 of 1) and the `SLIDEP25` file written instead of a part ([`Site`]).

use std::io::{self, Read as _};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use slidetable_core::Layout25;
use slidetable_format::{Group25, PatternFile25, Piece25};

use crate::checkpoint::{self, identity, read_head, Refusal, Remedy, Scratch};
use crate::parts::{
    check_dir_everywhere, decode_offsets, encode_offsets, lock_dir, Alone, Exchange,
};
use crate::pattern25::{
    check_pattern25_room_in_parts, solve_slice25, wide_placements, window_words, write_pattern25,
    Partition25, Pattern25Error,
};
use crate::pattern_search::Meet;
use crate::resume::WorkFiles;
use crate::{ExchangeError, GenError};

/// The name of part `part` of `parts` in the directory of a build in parts.
pub fn pattern25_part_name(part: u32, parts: u32) -> String {
    format!("{}.slp", part_stem(part, parts))
}

/// `Some((part, parts))` when `name` is a part's ([`pattern25_part_name`]).
pub fn pattern25_part_of(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("pattern-part-")?.strip_suffix(".slp")?;
    let (part, parts) = rest.split_once("-of-")?;
    let (part, parts) = (part.parse().ok()?, parts.parse().ok()?);
    (part < parts && pattern25_part_name(part, parts) == name).then_some((part, parts))
}

/// The name of part `part` of `parts`'s checkpoint of group `group` (its index in the
/// partition), in the directory of a build in parts.
pub fn pattern25_checkpoint_name(part: u32, parts: u32, group: usize) -> String {
    checkpoint_name(&part_stem(part, parts), group)
}

/// Where the build of the file `path` in one process keeps its checkpoint of group `group`:
/// beside the file, `.NAME.group-G.checkpoint` (as the table searches keep `.NAME.checkpoint`).
pub fn pattern25_file_checkpoint(path: &Path, group: usize) -> PathBuf {
    path.with_file_name(checkpoint_name(&file_stem(path), group))
}

/// The one rule of a group's checkpoint's name: `STEM.group-G.checkpoint`, where the stem
/// names the build's process (its part, or the file it writes).
fn checkpoint_name(stem: &str, group: usize) -> String {
    format!("{stem}.group-{group}.checkpoint")
}

/// The stem of part `part` of `parts`'s files: `pattern-part-K-of-N`.
fn part_stem(part: u32, parts: u32) -> String {
    format!("pattern-part-{part}-of-{parts}")
}

/// The stem of the checkpoints of the file `path` built in one process: `.NAME`.
fn file_stem(path: &Path) -> String {
    let name = path.file_name().map_or_else(
        || "pattern".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    format!(".{name}")
}

/// The folder in which an older slidetable kept the groups of an interrupted build of the
/// file `path` (`PATH.groups`: their entries, the names carrying their CRC-32, no lines
/// naming the build): not resumed, removed by `restart`.
pub fn pattern25_older_groups(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".groups");
    PathBuf::from(name)
}

/// `Some((part, parts, group))` when `name` is a checkpoint's ([`pattern25_checkpoint_name`]).
fn pattern25_checkpoint_of(name: &str) -> Option<(u32, u32, usize)> {
    let rest = name
        .strip_prefix("pattern-part-")?
        .strip_suffix(".checkpoint")?;
    let (rest, group) = rest.split_once(".group-")?;
    let (part, parts) = rest.split_once("-of-")?;
    let (part, parts, group) = (part.parse().ok()?, parts.parse().ok()?, group.parse().ok()?);
    (part < parts && pattern25_checkpoint_name(part, parts, group) == name)
        .then_some((part, parts, group))
}

/// How a build in parts is run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts25Options {
    /// Remove an interrupted build's checkpoints (of any number of parts) and start over.
    pub restart: bool,
    /// Every group's placements ranked in 64 bits, whatever its size (what tests compare
    /// the two widths with; the bytes are the same).
    pub wide: bool,
}

/// What a build in parts tells of its checkpoints as it goes.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Parts25Event {
    /// Groups (their indices in the partition) every process had a checkpoint of, taken
    /// instead of being built again (every process is told the same, before any search).
    Resumed {
        /// The groups taken.
        groups: Vec<usize>,
        /// This process's checkpoints of them.
        checkpoints: Vec<PathBuf>,
    },
    /// `restart` removed an interrupted build's checkpoints: how many files this process
    /// removed.
    Restarted {
        /// Files removed.
        files: usize,
    },
    /// This process's checkpoint of a group is written, synced and in place.
    /// [`ControlFlow::Break`] stops the build there ([`Pattern25Error::Stopped`]; every
    /// process, if any asks), the checkpoints kept for a later run to resume.
    Saved {
        /// The group's index in the partition.
        group: usize,
        /// The checkpoint.
        checkpoint: PathBuf,
        /// Its bytes.
        bytes: u64,
        /// What writing it took.
        took: Duration,
    },
    /// This process's checkpoint of a group could not be written (a full disk, say): the
    /// build goes on; a rerun builds that group again.
    Failed {
        /// The group's index in the partition.
        group: usize,
        /// The checkpoint.
        checkpoint: PathBuf,
        /// Why.
        error: String,
    },
}

/// The processes of a build meeting through an [`Exchange`], for one group's search.
struct Meeting<'a> {
    exchange: &'a mut dyn Exchange,
    bounds: Vec<u64>,
    window: usize,
    /// Each part's encoded children of a swap (kept, so a level allocates them once).
    bytes: Vec<Vec<u8>>,
    /// Bytes this process sent, all swaps together.
    sent: u64,
}

impl Meet<Pattern25Error> for Meeting<'_> {
    fn bounds(&self) -> &[u64] {
        &self.bounds
    }

    fn me(&self) -> usize {
        self.exchange.rank() as usize
    }

    fn window_words(&self) -> Option<usize> {
        Some(self.window)
    }

    fn swap(&mut self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, Pattern25Error> {
        for (codes, bytes) in outgoing.iter_mut().zip(&mut self.bytes) {
            encode_offsets(codes, bytes);
            self.sent += bytes.len() as u64;
        }
        let received = self
            .exchange
            .all_to_all(&self.bytes)
            .map_err(GenError::from)?;
        let mut incoming = Vec::new();
        for (from, bytes) in received.iter().enumerate() {
            decode_offsets(bytes, |code| incoming.push(code)).map_err(|problem| {
                GenError::from(ExchangeError(format!(
                    "part {from} sent part {} children that {problem}",
                    self.me()
                )))
            })?;
        }
        Ok(incoming)
    }

    fn total(&mut self, value: u64) -> Result<u64, Pattern25Error> {
        let all = self.exchange.all_gather(value).map_err(GenError::from)?;
        Ok(all.iter().sum())
    }
}

/// What a process of a build in parts, or the build in one process, did.
#[derive(Clone, Debug)]
pub struct Parts25Done {
    /// Its part file (in one process: the file).
    pub part: PathBuf,
    /// Its bytes.
    pub bytes: u64,
    /// Each group's histogram (every part's together), tiles and no entries.
    pub groups: Vec<Group25>,
    /// Bytes it sent to the others.
    pub bytes_sent: u64,
    /// Bytes a process needed at its peak by the memory model.
    pub memory: u64,
}

/// This process's part (`exchange`) of `partition`'s databases towards `goal`, written to
/// `dir` (made if missing, seen by every process) as [`pattern25_part_name`]; parts of
/// another count left there by an earlier run are removed first. Refused by every process
/// at once, before any work, when one has not the memory or the disk space for its part
/// and its checkpoints (the model of [`crate::pattern25_needs_in_parts`], the part twice).
/// Each group is kept as a checkpoint once built, and an earlier run's groups are taken
/// ([`solve_partition25_in_parts_with`]). `progress` is told of the placements this process
/// settles (a group taken, at once).
pub fn solve_partition25_in_parts(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Parts25Done, Pattern25Error> {
    without_events(
        goal,
        partition,
        dir,
        Parts25Options::default(),
        exchange,
        progress,
    )
}

/// [`solve_partition25_in_parts`] with every group's placements ranked in 64 bits, whatever
/// its size: what tests compare the two widths in parts with.
pub fn solve_partition25_in_parts_wide(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Parts25Done, Pattern25Error> {
    let options = Parts25Options {
        wide: true,
        ..Parts25Options::default()
    };
    without_events(goal, partition, dir, options, exchange, progress)
}

/// The build in parts with `options`, its checkpoints' events let by.
fn without_events(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    options: Parts25Options,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Parts25Done, Pattern25Error> {
    let mut events = |_: Parts25Event| ControlFlow::Continue(());
    solve_partition25_in_parts_with(
        goal,
        partition,
        dir,
        options,
        exchange,
        progress,
        &mut events,
    )
}

/// [`solve_partition25_in_parts`] with `options`, telling `events` of its checkpoints (see
/// [`Parts25Event`]): resumed from the groups every process has a checkpoint of in `dir`
/// (refused by every process together when a checkpoint there is of another build, or
/// damaged), each group's checkpoint written as soon as it is built.
pub fn solve_partition25_in_parts_with(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    options: Parts25Options,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
    events: &mut dyn FnMut(Parts25Event) -> ControlFlow<()>,
) -> Result<Parts25Done, Pattern25Error> {
    build(
        goal,
        partition,
        Site::Parts(dir),
        options,
        exchange,
        progress,
        events,
    )
}

/// The build in one process (`generate --board 5x5 -o PATH`): the build in parts with one
/// part, which writes the `SLIDEP25` file `path` (as every table is written: through a
/// temporary file renamed over it) instead of a part file, and keeps its checkpoints beside
/// it ([`pattern25_file_checkpoint`], the same files and lines as part 0 of 1's). A rerun
/// takes the groups an earlier run of the same build kept, and refuses a checkpoint of
/// another build or a damaged one, naming it; `options.restart` removes them, and the
/// groups an older slidetable kept ([`pattern25_older_groups`], which a run refuses
/// otherwise). Refused first, with the figures, when the machine has not the memory, or the
/// disk space for the file and its checkpoints; `path` must be a regular file to replace,
/// or none. The checkpoints go once the file is written.
pub fn generate_pattern25(
    goal: &Layout25,
    partition: &Partition25,
    path: &Path,
    options: Parts25Options,
    progress: &(dyn Fn(u64) + Sync),
    events: &mut dyn FnMut(Parts25Event) -> ControlFlow<()>,
) -> Result<Parts25Done, Pattern25Error> {
    build(
        goal,
        partition,
        Site::File(path),
        options,
        &mut Alone,
        progress,
        events,
    )
}

/// What a build writes and where it keeps its checkpoints: the one thing in which the build
/// in parts and the build in one process differ.
#[derive(Clone, Copy, Debug)]
enum Site<'a> {
    /// A process of a build in parts: its part file and checkpoints in this directory
    /// (`pattern-part-K-of-N.slp`, `pattern-part-K-of-N.group-G.checkpoint`).
    Parts(&'a Path),
    /// The build in one process: this `SLIDEP25` file, its checkpoints beside it
    /// (`.NAME.group-G.checkpoint`).
    File(&'a Path),
}

impl Site<'_> {
    /// The directory that holds the checkpoints.
    fn dir(&self) -> PathBuf {
        match self {
            Site::Parts(dir) => dir.to_path_buf(),
            Site::File(path) => match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            },
        }
    }
}

/// The one build of both [`Site`]s ([`build_kept`]); once it ends, a signal's handler is
/// told no longer of its checkpoints.
fn build(
    goal: &Layout25,
    partition: &Partition25,
    site: Site<'_>,
    options: Parts25Options,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
    events: &mut dyn FnMut(Parts25Event) -> ControlFlow<()>,
) -> Result<Parts25Done, Pattern25Error> {
    let result = build_kept(goal, partition, site, options, exchange, progress, events);
    checkpoint::set_in_progress(None);
    result
}

/// The checks (the directory, the memory and disk space, the lock, checkpoints of another
/// number of parts or an older version's), the groups taken from the checkpoints or built
/// and each kept as one, then the file written and the checkpoints removed. A signal's
/// handler is told which groups are kept ([`checkpoint::in_progress`]) from before the lock
/// is taken: those this process's checkpoints hold, then those taken, and each group as its
/// checkpoint is put in place.
fn build_kept(
    goal: &Layout25,
    partition: &Partition25,
    site: Site<'_>,
    options: Parts25Options,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
    events: &mut dyn FnMut(Parts25Event) -> ControlFlow<()>,
) -> Result<Parts25Done, Pattern25Error> {
    let (me, parts) = (exchange.rank(), exchange.size());
    let dir = site.dir();
    let dir = dir.as_path();
    match site {
        Site::Parts(_) => check_dir_everywhere(dir, exchange)?,
        Site::File(path) => crate::check_replaceable(path)?,
    }
    let room = check_pattern25_room_in_parts(
        goal,
        partition,
        Some(dir),
        parts,
        exchange.on_this_machine(),
        2,
    );
    // Every process learns whether every other can: those that cannot say why, the others
    // that a part refused.
    let fits = exchange
        .all_gather(u64::from(room.is_ok()))
        .map_err(GenError::from)?;
    let (memory, _) = room?;
    if let Some(part) = fits.iter().position(|&ok| ok == 0) {
        return Err(GenError::Parts {
            path: dir.to_path_buf(),
            problem: format!("part {part}'s process refused the build (it says why)"),
        }
        .into());
    }
    let io = |path: &Path, source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let kept = Kept {
        dir,
        stem: match site {
            Site::Parts(_) => part_stem(me, parts),
            Site::File(path) => file_stem(path),
        },
        named_in: match site {
            Site::Parts(dir) => dir.to_path_buf(),
            Site::File(path) => path.parent().map_or_else(PathBuf::new, Path::to_path_buf),
        },
        in_parts: matches!(site, Site::Parts(_)),
        goal,
        partition,
        me,
        parts,
        wide: options.wide,
    };
    // Told before the lock is taken, so that a run seen holding it has told.
    kept.tell(&kept.found().map_err(|e| io(dir, e))?);
    let _lock = match site {
        Site::Parts(_) => {
            let lock = lock_dir(dir, exchange)?;
            // An interrupted build in another number of parts is resumed only by that
            // number of processes: refused, never removed, unless `restart`.
            let other = if me == 0 {
                other_count(dir, parts).map_err(|e| io(dir, e))?
            } else {
                None
            };
            let other = exchange
                .all_gather(other.map_or(0, u64::from))
                .map_err(GenError::from)?[0];
            if other != 0 && !options.restart {
                let example = pattern25_checkpoint_name(0, other as u32, 0);
                return Err(checkpoint::other_count(dir, other as u32, parts, &example).into());
            }
            lock
        }
        Site::File(path) => {
            let lock = checkpoint::take_lock(&WorkFiles::beside(path).lock, path)?;
            let older = pattern25_older_groups(path);
            if older.exists() && !options.restart {
                return Err(GenError::Resume {
                    path: older,
                    problem: "an older slidetable's interrupted build kept its groups in this \
                              folder; this one does not resume them: add --restart to remove \
                              it and start over"
                        .into(),
                }
                .into());
            }
            Some(lock)
        }
    };
    if options.restart {
        // Part 0's process also removes the checkpoints of another number of parts (a
        // build to a file touches none: they are of another build in its directory).
        let mut files = kept.remove(me == 0 && kept.in_parts)?;
        if let Site::File(path) = site {
            files += remove_older_groups(&pattern25_older_groups(path))?;
        }
        kept.tell(&kept.found().map_err(|e| io(dir, e))?);
        let _ = events(Parts25Event::Restarted { files });
    }
    let taken = kept.take(exchange, progress)?;
    let resumed: Vec<usize> = taken
        .iter()
        .enumerate()
        .filter_map(|(g, t)| t.as_ref().map(|_| g))
        .collect();
    // The groups kept so far, as a signal's handler is told of them.
    let mut held = resumed.clone();
    if !resumed.is_empty() {
        let checkpoints = resumed.iter().map(|&g| kept.path(g)).collect();
        let _ = events(Parts25Event::Resumed {
            groups: resumed,
            checkpoints,
        });
    }
    if me == 0 && matches!(site, Site::Parts(_)) {
        for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))?.flatten() {
            let name = entry.file_name();
            if pattern25_part_of(&name.to_string_lossy()).is_some_and(|(_, n)| n != parts) {
                std::fs::remove_file(entry.path()).map_err(|e| io(&entry.path(), e))?;
            }
        }
    }
    let piece = Piece25::Part { part: me, parts };
    let mut groups = Vec::with_capacity(partition.groups().len());
    let mut sent = 0;
    for ((index, &tiles), taken) in partition.groups().iter().enumerate().zip(taken) {
        if let Some(group) = taken {
            groups.push(group);
            continue;
        }
        let k = tiles.count_ones() as usize;
        let count =
            u64::try_from(slidetable_core::placement_count(goal.cells(), k)).unwrap_or(u64::MAX);
        let bounds: Vec<u64> = (0..parts)
            .map(|p| Piece25::Part { part: p, parts }.range(count).start)
            .chain([count])
            .collect();
        let mut meeting = Meeting {
            exchange: &mut *exchange,
            bounds,
            window: window_words(k, parts),
            bytes: vec![Vec::new(); parts as usize],
            sent: 0,
        };
        let slice = if kept.wide(k)? {
            solve_slice25::<u64>(goal, tiles, &mut meeting, progress)?
        } else {
            solve_slice25::<u32>(goal, tiles, &mut meeting, progress)?
        };
        debug_assert_eq!(slice.start, piece.range(count).start);
        sent += meeting.sent;
        let group = Group25 {
            tiles,
            histogram: slice.histogram,
            entries: slice.entries,
        };
        let started = Instant::now();
        let path = kept.path(index);
        let placed = || {
            held.push(index);
            kept.tell(&held);
        };
        let stop = match kept.write(index, &group, placed) {
            Ok(bytes) => events(Parts25Event::Saved {
                group: index,
                checkpoint: path,
                bytes,
                took: started.elapsed(),
            })
            .is_break(),
            Err(e) => {
                let _ = events(Parts25Event::Failed {
                    group: index,
                    checkpoint: path,
                    error: e.to_string(),
                });
                false
            }
        };
        groups.push(group);
        // Stopped by every process if any asks: none is left waiting.
        if exchange
            .all_gather(u64::from(stop))
            .map_err(GenError::from)?
            .iter()
            .any(|&s| s != 0)
        {
            return Err(Pattern25Error::Stopped {
                group: index,
                dir: dir.to_path_buf(),
            });
        }
    }
    let (written, bytes) = match site {
        Site::Parts(_) => {
            let bytes = PatternFile25::piece_bytes(goal, &groups, piece)?;
            let part = dir.join(pattern25_part_name(me, parts));
            let written = crate::write_file(&part, &bytes)?;
            (part, written)
        }
        Site::File(path) => (path.to_path_buf(), write_pattern25(path, goal, &groups)?),
    };
    // Every part is written before any process says the build is done, or removes its
    // checkpoints (a run killed before would find parts missing and the groups kept).
    exchange.all_gather(0).map_err(GenError::from)?;
    checkpoint::set_in_progress(None);
    kept.remove(false)?;
    for g in &mut groups {
        g.entries = Vec::new();
    }
    Ok(Parts25Done {
        part: written,
        bytes,
        groups,
        bytes_sent: sent,
        memory,
    })
}

/// Removes the folder of groups an older slidetable kept (`PATH.groups`, if there): its
/// files (`identity`, `group-….bin`), then the folder; how many files went. A folder that
/// holds anything else stays, and is named.
fn remove_older_groups(older: &Path) -> Result<usize, GenError> {
    let io = |path: &Path, source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let entries = match std::fs::read_dir(older) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io(older, e)),
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name == "identity" || (name.starts_with("group-") && name.ends_with(".bin"));
        if ours && checkpoint::remove_if_there(&entry.path()).map_err(|e| io(&entry.path(), e))? {
            removed += 1;
        }
    }
    std::fs::remove_dir(older).map_err(|e| io(older, e))?;
    Ok(removed)
}

/// What a damaged checkpoint of a group says can be done.
const REMEDY: Remedy = Remedy {
    damaged: "start over with --restart",
    refused: "remove it, or start over with --restart",
};

/// The count of parts of an interrupted build in `dir` in another number of parts than
/// `parts` (a checkpoint of it is there), if any.
fn other_count(dir: &Path, parts: u32) -> io::Result<Option<u32>> {
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        match pattern25_checkpoint_of(&name.to_string_lossy()) {
            Some((_, other, _)) if other != parts => return Ok(Some(other)),
            _ => {}
        }
    }
    Ok(None)
}

/// One process's checkpoints of the groups of a build (in parts, or to a file in one
/// process: [`Site`]).
struct Kept<'a> {
    /// The directory that holds them.
    dir: &'a Path,
    /// Their names' stem ([`checkpoint_name`]).
    stem: String,
    /// Where they are named: [`Kept::dir`] (the file's, as it was named, in one process).
    named_in: PathBuf,
    /// Whether the build is in parts (its refusals [`GenError::Parts`]'s, its checkpoints
    /// written through a `.tmp` of a fixed name); else, in one process, refusals are
    /// [`GenError::Resume`]'s and a checkpoint is written through a temporary file the
    /// file's own clean-up removes.
    in_parts: bool,
    goal: &'a Layout25,
    partition: &'a Partition25,
    me: u32,
    parts: u32,
    /// Every group in 64-bit ranks.
    wide: bool,
}

impl Kept<'_> {
    /// The checkpoint of group `index`.
    fn path(&self, index: usize) -> PathBuf {
        self.named_in.join(checkpoint_name(&self.stem, index))
    }

    /// The file a checkpoint of group `index` is written to before it is renamed into place
    /// in a build in parts.
    fn scratch(&self, index: usize) -> PathBuf {
        let mut name = self.path(index).into_os_string();
        name.push(".tmp");
        PathBuf::from(name)
    }

    /// Whether `name` (in [`Kept::dir`]) is one of this process's checkpoints, or one being
    /// written (`….tmp`).
    fn is_mine(&self, name: &str) -> bool {
        self.group_of(name.strip_suffix(".tmp").unwrap_or(name))
            .is_some()
    }

    /// The group `name` (in [`Kept::dir`]) is this process's checkpoint of, if it is one.
    fn group_of(&self, name: &str) -> Option<usize> {
        name.strip_prefix(&self.stem)
            .and_then(|rest| rest.strip_prefix(".group-"))
            .and_then(|rest| rest.strip_suffix(".checkpoint"))
            .and_then(|group| group.parse::<usize>().ok())
            .filter(|&group| checkpoint_name(&self.stem, group) == name)
    }

    /// The groups this process has a checkpoint of in [`Kept::dir`] (by their names; not
    /// yet read), in the partition's order.
    fn found(&self) -> io::Result<Vec<usize>> {
        let mut groups = Vec::new();
        for entry in std::fs::read_dir(self.dir)? {
            if let Some(group) = self.group_of(&entry?.file_name().to_string_lossy()) {
                groups.push(group);
            }
        }
        groups.sort_unstable();
        Ok(groups)
    }

    /// Tells a signal's handler that `groups` are kept, each in this process's checkpoint.
    fn tell(&self, groups: &[usize]) {
        let part = self.in_parts.then_some((self.me, self.parts));
        checkpoint::groups_kept(groups.iter().map(|&g| (g, self.path(g))).collect(), part);
    }

    /// Whether a group of `k` tiles is built in 64-bit ranks.
    fn wide(&self, k: usize) -> Result<bool, GenError> {
        Ok(self.wide || wide_placements(self.goal.cells(), k)?)
    }

    /// The lines that name the build a checkpoint of group `index` is of: a rerun takes
    /// only its own.
    fn identity(&self, index: usize) -> Result<String, GenError> {
        let tiles = self.partition.groups()[index];
        let masks: Vec<String> = self
            .partition
            .groups()
            .iter()
            .map(|g| format!("{g:#x}"))
            .collect();
        let ranks = if self.wide(tiles.count_ones() as usize)? {
            64
        } else {
            32
        };
        Ok(identity(
            "pattern25 parts",
            &[
                (
                    "board",
                    format!("{}x{}", self.goal.rows(), self.goal.cols()),
                ),
                ("goal", self.goal.to_string()),
                ("partition", masks.join(",")),
                ("part", format!("{} of {}", self.me, self.parts)),
                ("group", format!("{index} tiles {tiles:#x}")),
                ("ranks", ranks.to_string()),
            ],
        ))
    }

    /// This process's slice of group `index`: its placements.
    fn slice_len(&self, index: usize) -> u64 {
        let k = self.partition.groups()[index].count_ones() as usize;
        let count = u64::try_from(slidetable_core::placement_count(self.goal.cells(), k))
            .unwrap_or(u64::MAX);
        let range = Piece25::Part {
            part: self.me,
            parts: self.parts,
        }
        .range(count);
        range.end - range.start
    }

    /// Writes this process's checkpoint of `group` (its slice and the whole group's
    /// histogram), group `index` of the partition, `placed` called as it is put in place (a
    /// signal's handler sees both or neither): its bytes.
    fn write(&self, index: usize, group: &Group25, placed: impl FnOnce()) -> Result<u64, GenError> {
        let path = self.path(index);
        let scratch = self.scratch(index);
        // In one process, a temporary file named as the file's own (`.NAME.….tmp`), removed
        // on a signal and by the next run.
        let prefix = format!("{}.", self.stem);
        let at = match self.in_parts {
            true => Scratch::Fixed(&scratch),
            false => Scratch::Temporary {
                dir: self.dir,
                prefix: &prefix,
            },
        };
        let body = format!(
            "{}histogram {}\n",
            self.identity(index)?,
            join(&group.histogram)
        );
        let pieces = |out: &mut dyn FnMut(&[u8]) -> io::Result<()>| {
            group
                .entries
                .chunks(checkpoint::PIECE)
                .try_for_each(&mut *out)
        };
        let written = checkpoint::write(at, &path, &body, &pieces, |_| placed());
        if let Err(source) = written {
            if !self.in_parts {
                return Err(GenError::Io { path, source });
            }
            let _ = checkpoint::remove_if_there(&scratch);
            return Err(GenError::Io {
                path: scratch,
                source,
            });
        }
        std::fs::metadata(&path)
            .map(|m| m.len())
            .map_err(|source| GenError::Io { path, source })
    }

    /// Removes this process's checkpoints (and those being written), and with `others` in a
    /// build in parts, every checkpoint of another number of parts: how many files went.
    fn remove(&self, others: bool) -> Result<usize, GenError> {
        let io = |path: &Path, source| GenError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut removed = 0;
        for entry in std::fs::read_dir(self.dir)
            .map_err(|e| io(self.dir, e))?
            .flatten()
        {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let other = pattern25_checkpoint_of(name.strip_suffix(".tmp").unwrap_or(&name))
                .is_some_and(|(_, parts, _)| parts != self.parts);
            let go = self.is_mine(&name) || (others && other);
            if go && checkpoint::remove_if_there(&entry.path()).map_err(|e| io(&entry.path(), e))? {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// The groups every process has a checkpoint of, this process's slices of them (told
    /// to `progress`), `None` for each other group. Every checkpoint of this process is
    /// read and checked first (its identity, its length), then those of the groups every
    /// process has are read whole (their CRC); any refusal is every process's together.
    fn take(
        &self,
        exchange: &mut dyn Exchange,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Option<Group25>>, GenError> {
        let n = self.partition.groups().len();
        let mine = (0..n).try_fold(0u64, |have, index| {
            Ok(have | u64::from(self.read(index, false)?.is_some()) << index)
        });
        let have = together(exchange, self.dir, mine)?;
        let every = exchange
            .all_gather(have)?
            .iter()
            .fold(u64::MAX, |a, &h| a & h);
        // Told first: a signal while they are read keeps them too.
        self.tell(&(0..n).filter(|&g| every >> g & 1 == 1).collect::<Vec<_>>());
        let read = (0..n)
            .map(|index| {
                if every >> index & 1 == 0 {
                    return Ok(None);
                }
                self.read(index, true)
            })
            .collect::<Result<Vec<_>, GenError>>();
        let taken = together(exchange, self.dir, read)?;
        for group in taken.iter().flatten() {
            progress(group.entries.len() as u64);
        }
        Ok(taken)
    }

    /// This process's checkpoint of group `index`, if there is one: checked to be of this
    /// build and of the right length, and with `whole`, read and its CRC checked (else its
    /// entries left empty).
    fn read(&self, index: usize, whole: bool) -> Result<Option<Group25>, GenError> {
        let path = self.path(index);
        let refused = |r: Refusal| r.at(&path, self.in_parts);
        let mine = self.identity(index)?;
        let Some(head) =
            read_head(&path, &mine, REMEDY, |theirs| another(theirs, &mine)).map_err(refused)?
        else {
            return Ok(None);
        };
        let histogram = head.numbers("histogram").map_err(refused)?;
        let want = self.slice_len(index);
        let mut input = head.entries(&path, want).map_err(refused)?;
        if !whole {
            return Ok(Some(Group25 {
                tiles: self.partition.groups()[index],
                histogram,
                entries: Vec::new(),
            }));
        }
        let mut entries = Vec::new();
        entries.reserve_exact(want as usize);
        input
            .by_ref()
            .take(want)
            .read_to_end(&mut entries)
            .map_err(|source| GenError::Io {
                path: path.clone(),
                source,
            })?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&entries);
        head.check_crc(crc).map_err(refused)?;
        Ok(Some(Group25 {
            tiles: self.partition.groups()[index],
            histogram,
            entries,
        }))
    }
}

/// Numbers joined by spaces (a checkpoint's histogram line).
fn join(numbers: &[u64]) -> String {
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a checkpoint of another build (its lines `theirs`) differs in from this build's
/// identity `mine`, and what can be done.
fn another(theirs: &crate::state_file::Read, mine: &str) -> String {
    let differ: Vec<String> = mine
        .lines()
        .skip(1)
        .filter_map(|line| {
            let (name, ours) = line.split_once(' ')?;
            let other = theirs.get(name).unwrap_or("nothing");
            (other != ours).then(|| format!("its {name} {other}, this build's {ours}"))
        })
        .collect();
    format!(
        "it is a checkpoint of another build ({}): run that build again to resume it, or add \
         --restart to start over",
        if differ.is_empty() {
            "another kind".to_string()
        } else {
            differ.join("; ")
        }
    )
}

/// `mine` made every process's: when any process has an error, every process returns the
/// first one's (in the order of the parts) as [`GenError::EveryPart`], which part 0's
/// process says once; each process is sent the others' (its file and what is wrong).
fn together<T>(
    exchange: &mut dyn Exchange,
    dir: &Path,
    mine: Result<T, GenError>,
) -> Result<T, GenError> {
    let ok = exchange.all_gather(u64::from(mine.is_ok()))?;
    let Some(first) = ok.iter().position(|&o| o == 0) else {
        return mine;
    };
    let me = exchange.rank() as usize;
    let (path, problem) = match &mine {
        Ok(_) => (dir.to_path_buf(), String::new()),
        Err(GenError::Parts { path, problem } | GenError::Resume { path, problem }) => {
            (path.clone(), problem.clone())
        }
        Err(GenError::Io { path, source }) => (path.clone(), source.to_string()),
        Err(e) => (dir.to_path_buf(), e.to_string()),
    };
    let said = format!("{}\0{problem}", path.display()).into_bytes();
    let heard = if exchange.size() > 1 {
        exchange.all_to_all(&vec![said; exchange.size() as usize])?
    } else {
        Vec::new()
    };
    let why = match mine {
        Err(e) if first == me => e,
        _ => {
            let text = String::from_utf8_lossy(heard.get(first).map_or(&[][..], |b| b));
            let (path, problem) = text.split_once('\0').unwrap_or((&text, ""));
            GenError::Parts {
                path: PathBuf::from(path),
                problem: problem.to_string(),
            }
        }
    };
    Err(GenError::EveryPart(Box::new(why)))
}

/// Whether `dir` holds parts of pattern databases built in parts (and no table's).
pub fn is_pattern25_parts_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| pattern25_part_of(&e.file_name().to_string_lossy()).is_some())
    })
}

/// What [`merge_pattern25_parts`] wrote.
#[derive(Clone, Debug)]
pub struct Merged25 {
    /// The goal.
    pub goal: Layout25,
    /// The groups (tiles and histograms).
    pub groups: Vec<Group25>,
    /// How many parts were joined.
    pub parts: u32,
    /// Bytes written.
    pub bytes: u64,
}

/// Joins the parts of a build in parts in `dir` into the `SLIDEP25` file `output` (written
/// as every table is, through a temporary file renamed over it), the bytes the one-process
/// build writes: every part read and checked (its header, its CRC-32), all of one build (the
/// same goal, groups, histograms and count of parts, none missing), then the entries copied
/// group by group, part by part, after the header.
pub fn merge_pattern25_parts(dir: &Path, output: &Path) -> Result<Merged25, Pattern25Error> {
    let refuse = |problem: String| -> Pattern25Error {
        GenError::Parts {
            path: dir.to_path_buf(),
            problem,
        }
        .into()
    };
    let io = |path: &Path, source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut found: Vec<(u32, u32, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))?.flatten() {
        if let Some((part, parts)) = pattern25_part_of(&entry.file_name().to_string_lossy()) {
            found.push((part, parts, entry.path()));
        }
    }
    found.sort();
    let Some(&(_, parts, _)) = found.first() else {
        return Err(refuse("holds no part of pattern databases".into()));
    };
    if let Some((_, other, path)) = found.iter().find(|(_, n, _)| *n != parts) {
        return Err(refuse(format!(
            "holds parts of {parts} and of {other} processes ({}): two builds; remove one",
            path.display()
        )));
    }
    if let Some(missing) = (0..parts).find(|&k| !found.iter().any(|(p, _, _)| *p == k)) {
        return Err(refuse(format!(
            "part {missing} of {parts} is missing ({}): the build did not finish; run it again",
            pattern25_part_name(missing, parts)
        )));
    }
    // Each part read, checked and kept mapped; the payload's CRC-32 joined from each group's
    // slices in the whole file's order.
    let mut files = Vec::with_capacity(found.len());
    let mut first: Option<PatternFile25> = None;
    for (part, _, path) in &found {
        let (file, _) = slidetable_format::open_regular(path, u64::MAX, "part file")
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        // A part file is written once, by a rename, and not rewritten while it is merged.
        let bytes = slidetable_format::mapping::map_read(&file).map_err(|e| io(path, e))?;
        let header = PatternFile25::parse_part(&bytes)
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        header
            .verify(&bytes)
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        if header.piece() != (Piece25::Part { part: *part, parts }) {
            return Err(refuse(format!(
                "{}: its header says {:?}, its name part {part} of {parts}",
                path.display(),
                header.piece()
            )));
        }
        if let Some(first) = &first {
            if first.goal() != header.goal() || first.groups() != header.groups() {
                return Err(refuse(format!(
                    "{} is of another build than {} (another goal, partition or histogram)",
                    path.display(),
                    pattern25_part_name(0, parts)
                )));
            }
        } else {
            first = Some(header.clone());
        }
        files.push((header, bytes));
    }
    let first = first.unwrap_or_else(|| files[0].0.clone());
    let mut crc = crc32fast::Hasher::new();
    for g in 0..first.groups().len() {
        for (header, bytes) in &files {
            crc.update(header.entries(bytes, g));
        }
    }
    let header = PatternFile25::whole_header(first.goal(), first.groups(), crc.finalize())?;
    let destination = crate::write::Destination::prepare(output)?;
    let written = destination.write(&mut |out| {
        let io_out = |source| GenError::Io {
            path: output.to_path_buf(),
            source,
        };
        out.write_all(&header).map_err(io_out)?;
        let mut len = header.len() as u64;
        for g in 0..first.groups().len() {
            for (h, bytes) in &files {
                let entries = h.entries(bytes, g);
                out.write_all(entries).map_err(io_out)?;
                len += entries.len() as u64;
            }
        }
        Ok(len)
    })?;
    Ok(Merged25 {
        goal: *first.goal(),
        groups: first.groups().to_vec(),
        parts,
        bytes: written.bytes,
    })
}
