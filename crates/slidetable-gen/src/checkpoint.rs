//! Checkpoints, one engine for every search that keeps them: the one-machine 2-bit search
//! (`resume.rs`), the search in parts (`parts.rs`), and the search within `D` moves in one
//! process or in parts (`bounded_parts.rs`).
//!
//! What it owns, so that each search says only what its checkpoint holds:
//! - **the file** (docs/FORMAT.md, "Checkpoints"): lines of `name value` that begin with the
//!   run's identity (`slidetable KIND checkpoint 1` and the lines naming the run: `identity`),
//!   then the search's own lines, then `pid`, `saved`, `entries-bytes` and `entries-crc`, sealed
//!   by their own CRC line; then the entries ([`write`]);
//! - **write-then-rename**: written sequentially to a temporary file, synced, renamed over the
//!   one before, the directory synced: a crash at any moment leaves the old checkpoint or the
//!   new one, whole ([`write`]);
//! - **reading back**: the lines' CRC, the identity (a checkpoint of another run is refused,
//!   named, with what it is of), the length and the entries' CRC (`read_head`,
//!   `Head::entries`), each refusal naming the file and saying what can be done;
//! - **the pace** ([`Pace`], `Pacer`): when a checkpoint is due;
//! - **several processes** ([`Left`], [`resume_point`]): each writes its newer checkpoint
//!   beside the older and puts it in place only once every process has written its own;
//! - **what is told**: the events a caller sees ([`CheckpointEvent`]) and what a signal's
//!   handler tells the user is kept ([`in_progress`]).

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use slidetable_format::open_regular;

use crate::mapped::{allocate, create_allocated};
use crate::state_file::{self, ReadError};
use crate::write::temporary::{hold_writes, LockFile, Temporary};
use crate::GenError;

pub use crate::environment::CHECKPOINT_ENV;

/// When a run writes a checkpoint: always at the end of a level, the search going on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// Once the time since the last checkpoint (or the start) exceeds ten times what writing
    /// one costs (the last one's time per byte, or before the first, the disk's, measured by
    /// writing a few megabytes) and ten seconds. A checkpoint then costs at most a tenth of
    /// the run, and a run killed loses at most the longer of the two and a level.
    Measured,
    /// Once this long has passed since the last checkpoint (or the start); zero: every level.
    Every(Duration),
}

impl Pace {
    /// [`CHECKPOINT_ENV`]'s pace when it is set (a number of seconds; one too large for a
    /// [`Duration`] is the longest, no checkpoint), else [`Pace::Measured`]; a value that is
    /// not a number of seconds is refused ([`GenError::Environment`]).
    pub fn from_env() -> Result<Pace, GenError> {
        Ok(crate::environment::seconds(CHECKPOINT_ENV)?.map_or(Pace::Measured, Pace::Every))
    }
}

/// What a run that keeps checkpoints tells as it goes, whichever search it is.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CheckpointEvent {
    /// An earlier run's checkpoint was found: the search goes on from its level.
    Resumed(Resumed),
    /// `restart` removed an earlier run's checkpoint (or an older version's working files).
    Restarted {
        /// The file removed.
        checkpoint: PathBuf,
    },
    /// A checkpoint is written, synced and in place (in parts: every process's).
    Saved {
        /// The section being searched (from 0; always 0 but in a table of several goals).
        section: usize,
        /// Its last level found (its distance).
        level: u32,
        /// The checkpoint's bytes (in parts: this process's).
        bytes: u64,
        /// What writing it took (in parts: the wait for the others included).
        took: Duration,
    },
    /// A checkpoint could not be written (a full disk, say; in parts, by some process): the
    /// search goes on, and the checkpoint before it (if any) stays.
    Failed {
        /// The level it was of.
        level: u32,
        /// The checkpoint that stays.
        checkpoint: PathBuf,
        /// This process's error, if it had one.
        error: Option<String>,
    },
}

/// Where a resumed run goes on from.
#[derive(Debug, Clone)]
pub struct Resumed {
    /// The section being searched (from 0).
    pub section: usize,
    /// The plan's sections.
    pub sections: usize,
    /// The section's last level found (its distance).
    pub level: u32,
    /// States settled over every section (in parts: every part's).
    pub settled: u64,
    /// When the interrupted run wrote the checkpoint.
    pub saved: SystemTime,
    /// The interrupted run's process (0 where a checkpoint does not say).
    pub pid: u32,
    /// The checkpoint (in parts: this process's).
    pub checkpoint: PathBuf,
}

/// The run in progress in this process, for a signal handler: its checkpoint, if it has one.
static IN_PROGRESS: Mutex<Option<Saving>> = Mutex::new(None);

/// What [`in_progress`] tells.
#[derive(Debug, Clone)]
pub enum Saving {
    /// A search by levels (a table's, in one process or a process of a search in parts): its
    /// one checkpoint.
    Levels {
        /// The checkpoint's file.
        checkpoint: PathBuf,
        /// The section and level the checkpoint holds, and when it was written; `None`
        /// while there is none yet.
        saved: Option<(usize, u32, SystemTime)>,
        /// In a search in parts, this process's part and the number of parts.
        part: Option<(u32, u32)>,
    },
    /// A build of independent groups (the 24-puzzle's pattern databases, in one process or
    /// a process of a build in parts): a checkpoint a group.
    Groups {
        /// Each group kept (its index in the partition) and its checkpoint, in the
        /// partition's order; empty while none is.
        kept: Vec<(usize, PathBuf)>,
        /// In a build in parts, this process's part and the number of parts.
        part: Option<(u32, u32)>,
    },
}

impl Saving {
    /// The section and level a search by levels keeps, and when it was written (`None`
    /// for a build of groups, or before the first checkpoint).
    pub fn level(&self) -> Option<(usize, u32, SystemTime)> {
        match self {
            Saving::Levels { saved, .. } => *saved,
            Saving::Groups { .. } => None,
        }
    }
}

/// The run that keeps checkpoints this process is making, if any: what a signal handler tells
/// the user is kept (a checkpoint stays; one being written is a temporary file, removed).
pub fn in_progress() -> Option<Saving> {
    IN_PROGRESS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

pub(crate) fn set_in_progress(saving: Option<Saving>) {
    *IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner()) = saving;
}

/// Tells a signal's handler that `checkpoint` holds `level` (of `section`), written `at` (the
/// file's time when not given), in process `part` of a search in parts.
pub(crate) fn kept(
    checkpoint: &Path,
    section: usize,
    level: u32,
    at: Option<SystemTime>,
    part: Option<(u32, u32)>,
) {
    let at = at
        .or_else(|| fs::metadata(checkpoint).and_then(|m| m.modified()).ok())
        .unwrap_or_else(SystemTime::now);
    set_in_progress(Some(Saving::Levels {
        checkpoint: checkpoint.to_path_buf(),
        saved: Some((section, level, at)),
        part,
    }));
}

/// Tells a signal's handler that a run keeping checkpoints in `checkpoint` (process `part` of
/// a search in parts) has none yet.
pub(crate) fn none_yet(checkpoint: &Path, part: Option<(u32, u32)>) {
    set_in_progress(Some(Saving::Levels {
        checkpoint: checkpoint.to_path_buf(),
        saved: None,
        part,
    }));
}

/// Tells a signal's handler that a build of groups (process `part` of a build in parts)
/// keeps the groups `kept` (each group's index and checkpoint; none yet when empty).
pub(crate) fn groups_kept(kept: Vec<(usize, PathBuf)>, part: Option<(u32, u32)>) {
    set_in_progress(Some(Saving::Groups { kept, part }));
}

pub(crate) fn io_error(path: &Path, source: io::Error) -> GenError {
    GenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Removes the file at `path`; whether there was one.
pub(crate) fn remove_if_there(path: &Path) -> io::Result<bool> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Opens and locks the lock file at `path`, for the table (or directory of parts) at
/// `target`: refused while another run holds it. The file goes when the lock is dropped, or
/// on a signal ([`crate::abandon_writes`]).
pub(crate) fn take_lock(path: &Path, target: &Path) -> Result<LockFile, GenError> {
    LockFile::take(path)
        .map_err(|e| io_error(path, e))?
        .ok_or_else(|| GenError::Resume {
            path: path.to_path_buf(),
            problem: format!(
                "another slidetable is generating {} (it holds this file's lock)",
                target.display()
            ),
        })
}

/// The lines that name a run in its checkpoint: `slidetable KIND checkpoint 1`, then each
/// `(name, value)`. A run resumes only a checkpoint that begins with its own.
pub(crate) fn identity(kind: &str, fields: &[(&str, String)]) -> String {
    let mut text = format!("slidetable {kind} checkpoint 1\n");
    for (name, value) in fields {
        text.push_str(&format!("{name} {value}\n"));
    }
    text
}

/// Why a checkpoint cannot be resumed: what the caller's error says, the file named by it.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The system's error.
    Io(io::Error),
    /// What is wrong and what can be done.
    Problem(String),
}

impl Refusal {
    /// As [`GenError::Resume`] (or, `parts`, [`GenError::Parts`]) naming `path`.
    pub(crate) fn at(self, path: &Path, parts: bool) -> GenError {
        match self {
            Refusal::Io(e) => io_error(path, e),
            Refusal::Problem(problem) if parts => GenError::Parts {
                path: path.to_path_buf(),
                problem,
            },
            Refusal::Problem(problem) => GenError::Resume {
                path: path.to_path_buf(),
                problem,
            },
        }
    }
}

/// How a checkpoint's refusals end: what a person can do about it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Remedy {
    /// After a damaged or inconsistent checkpoint.
    pub(crate) damaged: &'static str,
    /// After a checkpoint that is not a regular file (a FIFO, a device).
    pub(crate) refused: &'static str,
}

/// The remedy every checkpoint but the search in parts' says.
pub(crate) const START_OVER: Remedy = Remedy {
    damaged: "start over with --restart",
    refused: "remove it, or add --restart to start over",
};

/// What a checkpoint's lines say, checked: the run's identity matched, the CRC line too.
#[derive(Debug)]
pub(crate) struct Head {
    pub(crate) read: state_file::Read,
    /// The lines' own length, CRC line included.
    pub(crate) len: u64,
    remedy: Remedy,
}

/// Reads the lines of the checkpoint at `path` (`None` if there is none), refusing one that
/// is damaged or does not begin with `identity` (`other` then says what it is of).
pub(crate) fn read_head(
    path: &Path,
    identity: &str,
    remedy: Remedy,
    other: impl FnOnce(&state_file::Read) -> String,
) -> Result<Option<Head>, Refusal> {
    let (read, len) = match state_file::read_head(path) {
        Ok(Some(head)) => head,
        Ok(None) => return Ok(None),
        Err(ReadError::Damaged) => {
            return Err(Refusal::Problem(format!(
                "it is damaged (its lines do not match their CRC): {}",
                remedy.damaged
            )))
        }
        Err(ReadError::Io(e)) => return Err(Refusal::Io(e)),
        Err(ReadError::Refused(e)) => {
            return Err(Refusal::Problem(format!("it {e}: {}", remedy.refused)))
        }
    };
    if !read.text.starts_with(identity) {
        return Err(Refusal::Problem(other(&read)));
    }
    Ok(Some(Head { read, len, remedy }))
}

/// The identity lines named `names` of a checkpoint of another run, joined for a message.
pub(crate) fn theirs(read: &state_file::Read, names: &[&str]) -> String {
    read.text
        .lines()
        .filter(|l| names.iter().any(|n| l.starts_with(&format!("{n} "))))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Head {
    fn bad(&self, problem: &str) -> Refusal {
        Refusal::Problem(format!("{problem}: {}", self.remedy.damaged))
    }

    /// The number on the line `name`.
    pub(crate) fn number(&self, name: &str) -> Result<u64, Refusal> {
        let value = self.read.get(name).unwrap_or("");
        value
            .parse()
            .map_err(|_| self.bad(&format!("its {name} line {value:?} is not a number")))
    }

    /// The numbers on the line `name` (a histogram): at least one.
    pub(crate) fn numbers(&self, name: &str) -> Result<Vec<u64>, Refusal> {
        self.read
            .numbers(name)
            .filter(|h| !h.is_empty())
            .ok_or_else(|| self.bad(&format!("its {name} is not numbers")))
    }

    /// The process that wrote it (0 where it does not say).
    pub(crate) fn pid(&self) -> u32 {
        self.read
            .get("pid")
            .and_then(|p| p.parse().ok())
            .unwrap_or(0)
    }

    /// When it was written (where it does not say, its file's time).
    pub(crate) fn saved(&self, path: &Path) -> SystemTime {
        match self.read.get("saved").and_then(|s| s.parse().ok()) {
            Some(secs) => UNIX_EPOCH + Duration::from_secs(secs),
            None => fs::metadata(path)
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH),
        }
    }

    /// The entries after the lines, `want` bytes, checked to be the length the lines and
    /// the file say: a reader from their start, and their CRC as the lines say it (to check
    /// once read, [`Head::check_crc`]).
    pub(crate) fn entries(&self, path: &Path, want: u64) -> Result<BufReader<File>, Refusal> {
        let bytes = self.number("entries-bytes")?;
        let (mut file, have) = open_regular(path, u64::MAX, "checkpoint")
            .map_err(|e| Refusal::Problem(format!("it {e}: {}", self.remedy.refused)))?;
        if bytes != want || have != self.len + want {
            return Err(Refusal::Problem(format!(
                "it is {have} bytes, not the {} its lines say: {}",
                self.len + want,
                self.remedy.damaged
            )));
        }
        file.seek(SeekFrom::Start(self.len)).map_err(Refusal::Io)?;
        Ok(BufReader::with_capacity(PIECE, file))
    }

    /// Refuses entries whose CRC (`crc`, of what was read) is not the one the lines say.
    pub(crate) fn check_crc(&self, crc: crc32fast::Hasher) -> Result<(), Refusal> {
        let want = u32::from_str_radix(self.read.get("entries-crc").unwrap_or(""), 16)
            .map_err(|_| self.bad("its entries-crc line is not a CRC"))?;
        if crc.finalize() != want {
            return Err(Refusal::Problem(format!(
                "its entries are damaged (they do not match their CRC): {}",
                self.remedy.damaged
            )));
        }
        Ok(())
    }
}

/// The bytes of entries a checkpoint copies at a time (what it adds to the search's memory).
pub(crate) const PIECE: usize = 1 << 20;

/// A checkpoint's entries, a piece at a time, to `out`.
pub(crate) type Pieces<'a> = &'a dyn Fn(&mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()>;

/// Where a checkpoint is written before it is renamed into place.
pub(crate) enum Scratch<'a> {
    /// A temporary file in `dir`, its name `prefix…tmp`, removed on a signal.
    Temporary { dir: &'a Path, prefix: &'a str },
    /// This file (a process of a search in parts: its name known to the run that cleans up).
    Fixed(&'a Path),
}

/// Writes the checkpoint `path`: the lines `body` (the identity and the search's lines), then
/// `pid`, `saved`, `entries-bytes` and `entries-crc` and the CRC line, then the entries
/// `pieces` gives (twice the same: once to count and check them, once to write them), to
/// `scratch`, synced, then renamed over `path`; `placed` is told the time its lines say it
/// was written, right after the rename (for [`in_progress`]).
pub(crate) fn write(
    scratch: Scratch<'_>,
    path: &Path,
    body: &str,
    pieces: Pieces<'_>,
    placed: impl FnOnce(SystemTime),
) -> io::Result<()> {
    let mut crc = crc32fast::Hasher::new();
    let mut bytes = 0u64;
    pieces(&mut |piece| {
        crc.update(piece);
        bytes += piece.len() as u64;
        Ok(())
    })?;
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let at = UNIX_EPOCH + Duration::from_secs(secs);
    let lines = state_file::seal(&format!(
        "{body}pid {}\nsaved {secs}\nentries-bytes {bytes}\nentries-crc {:08x}\n",
        std::process::id(),
        crc.finalize()
    ));
    let len = lines.len() as u64 + bytes;
    let fill = |out: &mut File| -> io::Result<()> {
        // Pieces of a megabyte written as they are: no buffer beside them.
        out.write_all(lines.as_bytes())?;
        pieces(&mut |piece| out.write_all(piece))?;
        out.sync_all()
    };
    match scratch {
        Scratch::Temporary { dir, prefix } => {
            let mut tmp = temporary(dir, prefix)?;
            allocate(tmp.file(), len)?;
            fill(tmp.file())?;
            tmp.persist_then(path, || placed(at))?;
        }
        Scratch::Fixed(tmp) => {
            let mut file = create_allocated(tmp, len)?;
            fill(&mut file)?;
            drop(file);
            // Renamed and told as one step, as a signal's handler sees it.
            hold_writes(|| {
                fs::rename(tmp, path)?;
                placed(at);
                io::Result::Ok(())
            })?;
        }
    }
    sync_dir(path);
    Ok(())
}

/// Syncs the directory of `path` (a rename in it made durable; not every filesystem can).
pub(crate) fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// `words` little-endian entry words read from `input` (a checkpoint's entries, after its
/// lines), a piece at a time, each piece added to `crc`.
pub(crate) fn read_words(
    input: &mut impl Read,
    words: usize,
    crc: &mut crc32fast::Hasher,
) -> io::Result<Vec<AtomicU64>> {
    let mut entries: Vec<AtomicU64> = Vec::new();
    entries.reserve_exact(words);
    let mut buffer = vec![0u8; PIECE];
    while entries.len() < words {
        let n = ((words - entries.len()) * 8).min(PIECE);
        input.read_exact(&mut buffer[..n])?;
        crc.update(&buffer[..n]);
        entries.extend(
            buffer[..n]
                .chunks_exact(8)
                .map(|b| AtomicU64::new(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))),
        );
    }
    Ok(entries)
}

/// A temporary file in `dir`, its name `prefix…tmp` (removed when dropped).
fn temporary(dir: &Path, prefix: &str) -> io::Result<Temporary> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(".tmp");
    Temporary::create(&builder, dir)
}

/// The disk's seconds a byte in `dir`: a few megabytes written to a temporary file (its name
/// starting `prefix`) and synced.
pub(crate) fn probe_disk(dir: &Path, prefix: &str) -> io::Result<f64> {
    const PIECES: usize = 16;
    let mut tmp = temporary(dir, prefix)?;
    let buffer = vec![0x5au8; PIECE];
    let started = Instant::now();
    for _ in 0..PIECES {
        tmp.file().write_all(&buffer)?;
    }
    tmp.file().sync_all()?;
    Ok(started.elapsed().as_secs_f64() / (PIECES * PIECE) as f64)
}

/// When the next checkpoint is due (see [`Pace`]).
pub(crate) struct Pacer {
    pace: Pace,
    /// The end of the last checkpoint (or the start).
    since: Instant,
    /// Seconds a checkpoint takes a byte: the last one's, or the disk's measured speed.
    per_byte: Option<f64>,
}

/// The fastest a disk is assumed to write before it is measured: a run shorter than ten
/// times its checkpoint at this speed makes none, and does not measure the disk either.
const FASTEST: f64 = 2e9;

/// The least time between two checkpoints at the measured pace (or from the start to the
/// first): what a run killed before it loses is cheaper to search again than to save, on a
/// disk however fast. A search of a few seconds (12 cells) keeps none.
const SOONEST: Duration = Duration::from_secs(10);

impl Pacer {
    pub(crate) fn new(pace: Pace) -> Pacer {
        Pacer {
            pace,
            since: Instant::now(),
            per_byte: None,
        }
    }

    /// Whether a checkpoint of `bytes` is due now; `probe` measures the disk's seconds a
    /// byte when nothing has yet.
    pub(crate) fn due(&mut self, bytes: u64, probe: &mut dyn FnMut() -> io::Result<f64>) -> bool {
        let elapsed = self.since.elapsed().as_secs_f64();
        match self.pace {
            Pace::Every(every) => elapsed >= every.as_secs_f64(),
            Pace::Measured => {
                if elapsed < SOONEST.as_secs_f64() || elapsed <= 10.0 * bytes as f64 / FASTEST {
                    return false;
                }
                let per_byte = match self.per_byte {
                    Some(p) => p,
                    None => {
                        // A disk that cannot be measured (full, say) is taken as fast: the
                        // checkpoint itself then says what is wrong.
                        let p = probe().unwrap_or(1.0 / FASTEST);
                        self.per_byte = Some(p);
                        p
                    }
                };
                elapsed > 10.0 * bytes as f64 * per_byte
            }
        }
    }

    /// A checkpoint of `bytes` took `took`.
    pub(crate) fn saved(&mut self, took: Duration, bytes: u64) {
        self.per_byte = Some(took.as_secs_f64() / bytes.max(1) as f64);
        self.since = Instant::now();
    }

    /// A checkpoint could not be written: the next one is tried after as long again.
    pub(crate) fn failed(&mut self) {
        self.since = Instant::now();
    }
}

/// What one process of an earlier run in parts left in the directory, as it tells the others
/// before a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Left {
    /// Its part file is in place and its state file says the search ended.
    pub finished: bool,
    /// The level of its checkpoint, if it has one.
    pub checkpoint: Option<u32>,
    /// The level of its newer checkpoint not yet put in place, if any.
    pub next: Option<u32>,
}

impl Left {
    /// As one number (for an all-gather).
    pub(crate) fn key(self) -> u64 {
        let level = |l: Option<u32>| l.map_or(0, |l| u64::from(l) + 1);
        u64::from(self.finished) | level(self.checkpoint) << 1 | level(self.next) << 33
    }

    pub(crate) fn of_key(key: u64) -> Left {
        let level = |k: u64| k.checked_sub(1).and_then(|l| u32::try_from(l).ok());
        Left {
            finished: key & 1 == 1,
            checkpoint: level((key >> 1) & 0xffff_ffff),
            next: level(key >> 33),
        }
    }
}

/// What a run does first, given what every process left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// From the goal.
    Fresh,
    /// From every process's checkpoint of this level.
    From(u32),
    /// Every part is written: the manifest again.
    Finish,
}

/// The one rule of resuming: from what every process left, what to do, or why it cannot be
/// done. Every process has a checkpoint of the level it chooses: each renames its newer
/// checkpoint over the older only once every process has written its newer one.
pub fn resume_point(left: &[Left]) -> Result<Resume, String> {
    if left.is_empty() {
        return Ok(Resume::Fresh);
    }
    if left.iter().all(|l| l.finished) {
        return Ok(Resume::Finish);
    }
    if left
        .iter()
        .any(|l| l.checkpoint.is_none() && l.next.is_none())
    {
        return Ok(Resume::Fresh);
    }
    let has = |l: &Left, level: u32| l.checkpoint == Some(level) || l.next == Some(level);
    left.iter()
        .flat_map(|l| [l.checkpoint, l.next])
        .flatten()
        .filter(|&level| left.iter().all(|l| has(l, level)))
        .max()
        .map(Resume::From)
        .ok_or_else(|| {
            let levels: Vec<String> = left
                .iter()
                .enumerate()
                .map(|(k, l)| format!("part {k}: {:?} and {:?}", l.checkpoint, l.next))
                .collect();
            format!(
                "the parts' checkpoints share no level ({}), which no run leaves: start over \
                 with --restart",
                levels.join(", ")
            )
        })
}

/// The number of parts in a part's file name (`part-0001-of-0004.state`: 4).
pub(crate) fn parts_in_name(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("part-")?;
    let (_, of) = rest.split_once("-of-")?;
    let digits = of.split('.').next()?;
    digits.parse().ok()
}

/// An interrupted run in parts in `dir` in another number of parts than `parts` (a file of
/// it ending in one of `endings` is there): that number, and one of its files.
pub(crate) fn interrupted_elsewhere(
    dir: &Path,
    parts: u32,
    endings: &[&str],
) -> io::Result<Option<(u32, PathBuf)>> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let interrupted = endings.iter().any(|e| name.ends_with(e));
        match parts_in_name(name) {
            Some(m) if interrupted && m != parts && m > 0 => return Ok(Some((m, entry.path()))),
            _ => {}
        }
    }
    Ok(None)
}

/// The refusal of a run in `parts` parts in `dir`, which holds an interrupted run in `other`
/// (one of its files `example`): every process refuses.
pub(crate) fn other_count(dir: &Path, other: u32, parts: u32, example: &str) -> GenError {
    GenError::EveryPart(Box::new(GenError::Parts {
        path: dir.to_path_buf(),
        problem: format!(
            "it holds an interrupted run in {other} parts ({example} and the others), and \
             this run has {parts}: rerun it on {other} {} to resume it, or add --restart to \
             remove its checkpoints and start over in {parts}",
            if other == 1 { "process" } else { "processes" }
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At the measured pace a checkpoint is due once ten times its cost and ten seconds have
    /// passed, whichever is later; a fast disk alone does not make one due sooner.
    #[test]
    fn the_measured_pace_waits_ten_times_the_cost_and_ten_seconds() {
        let ago = |secs: f64| Instant::now() - Duration::from_secs_f64(secs);
        let bytes = 60_000_000;
        // A disk that writes the checkpoint in a tenth of a second.
        let fast = 0.1 / bytes as f64;
        for (since, per_byte, due) in [
            (2.0, fast, false),
            (9.5, fast, false),
            (10.5, fast, true),
            // A checkpoint of 1.5 s: fifteen seconds between two.
            (10.5, 1.5 / bytes as f64, false),
            (15.5, 1.5 / bytes as f64, true),
        ] {
            let mut probed = false;
            let mut pacer = Pacer {
                pace: Pace::Measured,
                since: ago(since),
                per_byte: None,
            };
            let got = pacer.due(bytes, &mut || {
                probed = true;
                Ok(per_byte)
            });
            assert_eq!(got, due, "{since} s since, {per_byte} s a byte");
            // The disk is not measured before a checkpoint could be due.
            assert_eq!(probed, since >= 10.0, "{since} s since");
        }
    }

    /// A checkpoint written reads back through the same engine; one of another run, or with
    /// a changed byte of its lines or entries, is refused.
    #[test]
    fn a_checkpoint_reads_back_and_another_runs_or_a_damaged_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.checkpoint");
        let id = identity("test", &[("board", "2x3".into())]);
        let entries: Vec<u8> = (0..3000u32).map(|i| i as u8).collect();
        let pieces = |out: &mut dyn FnMut(&[u8]) -> io::Result<()>| {
            entries.chunks(1000).try_for_each(&mut *out)
        };
        let body = format!("{id}level 4\n");
        let scratch = Scratch::Temporary {
            dir: dir.path(),
            prefix: ".x.",
        };
        write(scratch, &path, &body, &pieces, |_| {}).unwrap();
        let head = read_head(&path, &id, START_OVER, |_| unreachable!())
            .unwrap()
            .unwrap();
        assert_eq!(head.number("level").unwrap(), 4);
        assert_eq!(head.pid(), std::process::id());
        let mut input = head.entries(&path, 3000).unwrap();
        let mut back = Vec::new();
        input.read_to_end(&mut back).unwrap();
        let mut crc = crc32fast::Hasher::new();
        crc.update(&back);
        head.check_crc(crc).unwrap();
        assert_eq!(back, entries);
        let other = identity("test", &[("board", "3x3".into())]);
        let refused = read_head(&path, &other, START_OVER, |r| theirs(r, &["board"]));
        assert!(matches!(refused, Err(Refusal::Problem(p)) if p == "board 2x3"));
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let head = read_head(&path, &id, START_OVER, |_| unreachable!())
            .unwrap()
            .unwrap();
        let mut input = head.entries(&path, 3000).unwrap();
        let mut back = Vec::new();
        input.read_to_end(&mut back).unwrap();
        let mut crc = crc32fast::Hasher::new();
        crc.update(&back);
        let e = head
            .check_crc(crc)
            .unwrap_err()
            .at(&path, false)
            .to_string();
        assert!(e.contains("its entries are damaged"), "{e}");
        bytes[4] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let e = read_head(&path, &id, START_OVER, |_| unreachable!()).unwrap_err();
        assert!(matches!(e, Refusal::Problem(p) if p.starts_with("it is damaged")));
    }
}
