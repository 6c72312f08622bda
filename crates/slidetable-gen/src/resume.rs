//! Generating a 2-bit table so that an interrupted run (Ctrl-C, a killed process, a reboot, a
//! full disk) goes on from its last checkpoint instead of starting over: a 2×7 search is half
//! an hour.
//!
//! The search runs in the process's memory, as [`crate::solve`]'s does (`bfs_residues.rs`).
//! At the end of a level, once the time since the last checkpoint exceeds ten times what
//! writing one costs ([`Pace::Measured`]: the last checkpoint's time, or before the first, the
//! disk's speed measured by a short write) and ten seconds, the search writes a **checkpoint**,
//! `.NAME.checkpoint` beside the table: a few lines (the plan, the histograms so far, the
//! process, the time, the length and CRC-32 of what follows, and their own CRC), then the
//! finished sections' entries and the entries of the section being searched. It is written
//! sequentially to a temporary file, synced, and renamed over the one before, so a crash at
//! any moment leaves the old checkpoint or the new one, whole. The frontier bitmap is not
//! written: between two levels the entries alone give it back (`bfs_residues::rebuild_frontier`),
//! which halves what a 2×7 checkpoint writes and keeps (10.9 GB, not 16.3).
//!
//! `generate` with the same plan reads the checkpoint, checks both CRCs, and goes on from its
//! level; `--restart` removes it first; a finished run removes it. A search of less than ten
//! seconds (every board up to 12 cells on the machine of BENCHMARKS.md) ends before its first
//! checkpoint is due, and keeps none.

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use slidetable_format::{open_regular, CostModel, Encoding};

use crate::bfs_residues::Search;
use crate::mapped::allocate;
use crate::plan::Plan;
use crate::state_file::{self, join, ReadError};
use crate::write::temporary::{hold_writes, LockFile, Temporary};
use crate::{Destination, GenError, SolvedSection, Written};

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

/// How a run that keeps checkpoints is driven.
pub struct Run<'a> {
    /// Remove an earlier run's checkpoint and start over.
    pub restart: bool,
    /// When to write checkpoints.
    pub pace: Pace,
    /// Told the states settled as the search goes (a resumed run first tells those settled
    /// before, right after [`RunEvent::Resumed`]).
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Told what happens; [`ControlFlow::Break`] after [`RunEvent::CheckpointSaved`] stops the
    /// run there ([`GenError::Stopped`]), the checkpoint kept for a later run to resume.
    pub events: &'a (dyn Fn(&RunEvent) -> ControlFlow<()> + Sync),
}

/// What a run that keeps checkpoints tells as it goes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum RunEvent {
    /// An earlier run's checkpoint was found: the search goes on from its level.
    Resumed(Resumed),
    /// `restart` removed an earlier run's checkpoint (or an older version's working files).
    Restarted {
        /// The file removed.
        checkpoint: PathBuf,
    },
    /// A checkpoint is written, synced and in place.
    CheckpointSaved {
        /// The section being searched (from 0).
        section: usize,
        /// Its last level found (its distance).
        level: u32,
        /// The checkpoint's bytes.
        bytes: u64,
        /// What writing it took.
        took: Duration,
    },
    /// A checkpoint could not be written (a full disk, say): the search goes on, and the
    /// checkpoint before it (if any) stays.
    CheckpointFailed {
        /// The checkpoint that stays.
        checkpoint: PathBuf,
        /// Why.
        error: String,
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
    /// States settled over every section.
    pub settled: u64,
    /// When the interrupted run wrote the checkpoint.
    pub saved: SystemTime,
    /// The interrupted run's process.
    pub pid: u32,
    /// The checkpoint.
    pub checkpoint: PathBuf,
}

/// Whether a plan's search keeps checkpoints: unit costs in 2-bit entries (every table of 11
/// cells and more; any board with `--encoding 2bit`).
pub fn resumes(plan: &Plan) -> bool {
    plan.cost == CostModel::Unit
        && matches!(
            crate::check_plan(plan.board, plan.encoding, plan.cost),
            Ok(Encoding::TwoBit)
        )
}

/// The files a run that keeps checkpoints makes beside the table at `target`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkFiles {
    /// The checkpoint: `.NAME.checkpoint`.
    pub checkpoint: PathBuf,
    /// The lock a run holds, so that two runs of one table do not write one checkpoint:
    /// `.NAME.checkpoint.lock`.
    pub lock: PathBuf,
    /// What an older version of slidetable kept instead (working files mapped beside the
    /// table, `.NAME.state`, `.NAME.entries`, `.NAME.frontier`): not resumed, removed by
    /// `restart`.
    pub older: [PathBuf; 3],
}

impl WorkFiles {
    /// The files beside `target`.
    pub fn beside(target: &Path) -> WorkFiles {
        let with = |ext: &str| target.with_file_name(format!(".{}.{ext}", file_name(target)));
        WorkFiles {
            checkpoint: with("checkpoint"),
            lock: with("checkpoint.lock"),
            older: [with("state"), with("entries"), with("frontier")],
        }
    }
}

fn file_name(target: &Path) -> String {
    target
        .file_name()
        .map_or_else(|| "table".to_string(), |n| n.to_string_lossy().into_owned())
}

fn io_error(path: &Path, source: io::Error) -> GenError {
    GenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn remove_if_there(path: &Path) -> Result<bool, GenError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(path, e)),
    }
}

/// The run in progress in this process, for a signal handler: its checkpoint, if it has one.
static IN_PROGRESS: Mutex<Option<Saving>> = Mutex::new(None);

/// What [`in_progress`] tells.
#[derive(Debug, Clone)]
pub struct Saving {
    /// The checkpoint's file.
    pub checkpoint: PathBuf,
    /// The section and level the checkpoint holds, and when it was written; `None` while
    /// there is none yet.
    pub saved: Option<(usize, u32, SystemTime)>,
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

/// The bytes of `plan`'s largest checkpoint: the entries of every section but the last in
/// their payload's bytes, the last section's as the search keeps them, and the lines.
pub fn checkpoint_bytes(plan: &Plan) -> u64 {
    let states = plan.board.reachable_states();
    let payload = Encoding::TwoBit.payload_len(states).unwrap_or(u64::MAX);
    let sections = plan.goals.len() as u64;
    payload
        .saturating_mul(sections.saturating_sub(1))
        .saturating_add(Search::words_for(states) as u64 * 8)
        .saturating_add(LINES)
}

/// The bytes a checkpoint's lines are counted for in [`checkpoint_bytes`] (two 2×7 histograms
/// take 3 KB).
const LINES: u64 = 1 << 16;

/// The lines that name a plan in its checkpoint: a run resumes only the same plan.
fn identity(plan: &Plan) -> String {
    let mut text = format!(
        "slidetable generate checkpoint 1\nboard {}\nencoding 2bit\ncost {}\nstates {}\n",
        plan.board,
        plan.cost.name(),
        plan.board.reachable_states()
    );
    for goal in &plan.goals {
        let tiles: Vec<String> = goal.tiles().iter().map(u8::to_string).collect();
        text.push_str(&format!("goal {}\n", tiles.join(" ")));
    }
    text
}

/// What a checkpoint's lines say.
#[derive(Debug, Clone)]
struct Lines {
    /// The finished sections' histograms.
    finished: Vec<Vec<u64>>,
    /// The histogram of the section being searched.
    current: Vec<u64>,
    pid: u32,
    saved: SystemTime,
    /// The bytes of entries after the lines, and their CRC-32.
    bytes: u64,
    crc: u32,
    /// The lines' own length, CRC line included.
    len: u64,
}

impl Lines {
    fn settled(&self, states: u64) -> u64 {
        states * self.finished.len() as u64 + self.current.iter().sum::<u64>()
    }

    fn level(&self) -> u32 {
        self.current.len() as u32 - 1
    }
}

/// Reads the lines of the checkpoint at `path`: `None` if there is none.
fn read_lines(path: &Path, plan: &Plan) -> Result<Option<Lines>, GenError> {
    let bad = |problem: String| GenError::Resume {
        path: path.to_path_buf(),
        problem,
    };
    let (read, len) = match state_file::read_head(path) {
        Ok(Some(head)) => head,
        Ok(None) => return Ok(None),
        Err(ReadError::Damaged) => {
            return Err(bad(
                "it is damaged (its lines do not match their CRC): start over with --restart"
                    .into(),
            ))
        }
        Err(ReadError::Io(e)) => return Err(io_error(path, e)),
        Err(ReadError::Refused(e)) => {
            return Err(bad(format!(
                "it {e}: remove it, or add --restart to start over"
            )))
        }
    };
    if !read.text.starts_with(&identity(plan)) {
        let theirs: Vec<&str> = read
            .text
            .lines()
            .filter(|l| {
                ["board ", "encoding ", "cost ", "goal "]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .collect();
        return Err(bad(format!(
            "it is an interrupted run of another table ({}): run the same command as it to \
             resume it, or add --restart to start over",
            theirs.join(", ")
        )));
    }
    let numbers = |what: &str, text: &str| -> Result<Vec<u64>, GenError> {
        text.split_whitespace()
            .map(|n| n.parse().ok())
            .collect::<Option<Vec<u64>>>()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad(format!("its {what} {text:?} is not numbers")))
    };
    let finished = read
        .all("finished")
        .map(|h| numbers("histogram", h))
        .collect::<Result<Vec<_>, _>>()?;
    let current = numbers("histogram", read.get("histogram").unwrap_or(""))?;
    let one = |name: &str| -> Result<u64, GenError> {
        let value = read.get(name).unwrap_or("");
        value
            .parse()
            .map_err(|_| bad(format!("its {name} line {value:?} is not a number")))
    };
    let crc = u32::from_str_radix(read.get("entries-crc").unwrap_or(""), 16)
        .map_err(|_| bad("its entries-crc line is not a CRC".into()))?;
    let states = plan.board.reachable_states();
    let sums_ok = finished.iter().all(|h| h.iter().sum::<u64>() == states)
        && current.iter().sum::<u64>() <= states;
    if finished.len() >= plan.goals.len() || !sums_ok {
        return Err(bad(
            "its sections do not add up to the plan's: start over with --restart".into(),
        ));
    }
    Ok(Some(Lines {
        finished,
        current,
        pid: u32::try_from(one("pid")?).unwrap_or(0),
        saved: UNIX_EPOCH + Duration::from_secs(one("saved")?),
        bytes: one("entries-bytes")?,
        crc,
        len,
    }))
}

/// An open run: its lock, and the checkpoint an earlier run left.
pub(crate) struct Work {
    files: WorkFiles,
    /// The lock file, held locked for the run (removed when the run ends).
    _lock: LockFile,
    saved: Option<Lines>,
}

impl Work {
    /// Takes the lock of the table at `target` (refusing a second run of it at once) and
    /// reads an earlier run's checkpoint; with `restart`, removes it (and an older version's
    /// working files) first.
    pub(crate) fn open(
        plan: &Plan,
        target: &Path,
        restart: bool,
        events: &(dyn Fn(&RunEvent) -> ControlFlow<()> + Sync),
    ) -> Result<Work, GenError> {
        let files = WorkFiles::beside(target);
        let lock = take_lock(&files.lock, target)?;
        if restart {
            for path in std::iter::once(&files.checkpoint).chain(&files.older) {
                if remove_if_there(path)? {
                    let _ = events(&RunEvent::Restarted {
                        checkpoint: path.clone(),
                    });
                }
            }
        }
        if files.older[0].exists() {
            return Err(GenError::Resume {
                path: files.older[0].clone(),
                problem: "an older slidetable's interrupted run left this file (and its \
                          .entries and .frontier beside it); this one does not resume it: \
                          add --restart to remove them and start over"
                    .into(),
            });
        }
        let saved = read_lines(&files.checkpoint, plan)?;
        Ok(Work {
            files,
            _lock: lock,
            saved,
        })
    }

    /// The bytes of disk the checkpoint already holds (the run replaces it, needing no more).
    pub(crate) fn allocated(&self) -> u64 {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            fs::metadata(&self.files.checkpoint).map_or(0, |m| m.blocks() * 512)
        }
        #[cfg(not(unix))]
        {
            0
        }
    }

    /// Searches every section not finished yet, writing checkpoints as `run.pace` says, and
    /// writes the table to `destination` at the end; then removes the checkpoint.
    pub(crate) fn run(
        self,
        plan: &Plan,
        run: &Run<'_>,
        destination: Destination,
    ) -> Result<Written, GenError> {
        let result = self.search_and_write(plan, run, destination);
        set_in_progress(None);
        result
    }

    fn search_and_write(
        mut self,
        plan: &Plan,
        run: &Run<'_>,
        destination: Destination,
    ) -> Result<Written, GenError> {
        let (mut finished, mut current) = match self.saved.take() {
            Some(saved) => {
                let resumed = Resumed {
                    section: saved.finished.len(),
                    sections: plan.goals.len(),
                    level: saved.level(),
                    settled: saved.settled(plan.board.reachable_states()),
                    saved: saved.saved,
                    pid: saved.pid,
                    checkpoint: self.files.checkpoint.clone(),
                };
                // Told first: a signal while its entries are read keeps it too.
                set_in_progress(Some(Saving {
                    checkpoint: self.files.checkpoint.clone(),
                    saved: Some((resumed.section, resumed.level, resumed.saved)),
                }));
                let found = read_entries(&self.files.checkpoint, plan, &saved)?;
                let settled = resumed.settled;
                let _ = (run.events)(&RunEvent::Resumed(resumed));
                (run.progress)(settled);
                found
            }
            None => {
                set_in_progress(Some(Saving {
                    checkpoint: self.files.checkpoint.clone(),
                    saved: None,
                }));
                (Vec::new(), None)
            }
        };
        let mut pacer = Pacer::new(run.pace);
        let writer = Checkpoints {
            plan,
            path: &self.files.checkpoint,
            dir: destination.dir(),
            // The prefix of the table's own temporary file: a checkpoint's temporary file
            // left by a killed run is removed by the next run's `Destination::prepare`.
            prefix: format!(".{}.", file_name(destination.target())),
        };
        while finished.len() < plan.goals.len() {
            let section = finished.len();
            let mut search = match current.take() {
                Some(search) => search,
                None => Search::new(&plan.goals[section], run.progress)?,
            };
            while !search.over() {
                let bytes = writer.len(&finished, &search);
                if pacer.due(bytes, &mut || writer.probe()) {
                    let level = search.histogram().len() as u32 - 1;
                    let started = Instant::now();
                    // Recorded as the checkpoint is renamed into place (see `Checkpoints::write`).
                    let placed = |at| {
                        set_in_progress(Some(Saving {
                            checkpoint: self.files.checkpoint.clone(),
                            saved: Some((section, level, at)),
                        }))
                    };
                    match writer.write(&finished, &search, placed) {
                        Ok(()) => {
                            let took = started.elapsed();
                            pacer.saved(took, bytes);
                            let told = (run.events)(&RunEvent::CheckpointSaved {
                                section,
                                level,
                                bytes,
                                took,
                            });
                            if told.is_break() {
                                return Err(GenError::Stopped {
                                    level,
                                    checkpoint: self.files.checkpoint.clone(),
                                });
                            }
                        }
                        Err(e) => {
                            pacer.failed();
                            let _ = (run.events)(&RunEvent::CheckpointFailed {
                                checkpoint: self.files.checkpoint.clone(),
                                error: e.to_string(),
                            });
                        }
                    }
                }
                search.step(run.progress);
            }
            finished.push(search.into_section());
        }
        let written = destination.write_table(plan.board, &finished)?;
        // Removed and no longer told as one step, as a signal's handler sees it.
        hold_writes(|| {
            let removed = remove_if_there(&self.files.checkpoint);
            set_in_progress(None);
            removed
        })?;
        Ok(written)
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

/// Writes a run's checkpoints.
struct Checkpoints<'a> {
    plan: &'a Plan,
    /// The checkpoint.
    path: &'a Path,
    /// The table's directory (the checkpoint's and its temporary file's).
    dir: &'a Path,
    /// The temporary files' prefix.
    prefix: String,
}

/// The bytes of entries a checkpoint copies at a time (what it adds to the search's memory).
const PIECE: usize = 1 << 20;

/// `words` little-endian entry words read from `input` (a checkpoint's entries, after its
/// lines), a piece at a time, each piece added to `crc`: the one-machine resume's and the
/// search in parts' checkpoints alike.
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

impl Checkpoints<'_> {
    /// The bytes of entries a checkpoint of `finished` and `search` holds.
    fn len(&self, finished: &[SolvedSection], search: &Search) -> u64 {
        finished.iter().map(|s| s.entries.len() as u64).sum::<u64>()
            + search.words().len() as u64 * 8
    }

    fn temporary(&self) -> io::Result<Temporary> {
        temporary(self.dir, &self.prefix)
    }

    /// The disk's seconds a byte (see [`probe_disk`]).
    fn probe(&self) -> io::Result<f64> {
        probe_disk(self.dir, &self.prefix)
    }

    /// Writes the checkpoint of `finished` and `search` (between two levels) to a temporary
    /// file, syncs it and renames it over the checkpoint; `placed` is told the time its lines
    /// say it was written, right after the rename and before a signal's handler can look
    /// ([`Temporary::persist_then`]): what [`in_progress`] tells is the checkpoint on disk.
    fn write(
        &self,
        finished: &[SolvedSection],
        search: &Search,
        placed: impl FnOnce(SystemTime),
    ) -> Result<(), GenError> {
        let path = self.path;
        let failed = |e| io_error(path, e);
        let bytes = self.len(finished, search);
        let mut crc = crc32fast::Hasher::new();
        each_piece(finished, search, &mut |piece| {
            crc.update(piece);
            Ok(())
        })
        .map_err(failed)?;
        let mut text = identity(self.plan);
        for s in finished {
            text.push_str(&format!("finished {}\n", join(&s.histogram)));
        }
        let histogram = search.histogram();
        text.push_str(&format!(
            "section {}\nlevel {}\nhistogram {}\n",
            finished.len(),
            histogram.len() - 1,
            join(histogram)
        ));
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let at = UNIX_EPOCH + Duration::from_secs(secs);
        text.push_str(&format!(
            "pid {}\nsaved {secs}\nentries-bytes {bytes}\nentries-crc {:08x}\n",
            std::process::id(),
            crc.finalize()
        ));
        let lines = state_file::seal(&text);
        let mut tmp = self.temporary().map_err(failed)?;
        allocate(tmp.file(), lines.len() as u64 + bytes).map_err(failed)?;
        {
            // Pieces of a megabyte written as they are: no buffer beside them.
            let out = tmp.file();
            out.write_all(lines.as_bytes()).map_err(failed)?;
            each_piece(finished, search, &mut |piece| out.write_all(piece)).map_err(failed)?;
        }
        tmp.file().sync_all().map_err(failed)?;
        tmp.persist_then(path, || placed(at)).map_err(failed)?;
        if let Ok(d) = File::open(self.dir) {
            // Not every filesystem syncs a directory.
            let _ = d.sync_all();
        }
        Ok(())
    }
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

/// The bytes of a checkpoint's entries, a piece at a time: each finished section's payload,
/// then the words of the section being searched, little-endian.
fn each_piece(
    finished: &[SolvedSection],
    search: &Search,
    out: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    for s in finished {
        for piece in s.entries.chunks(PIECE) {
            out(piece)?;
        }
    }
    let mut buffer = Vec::with_capacity(PIECE);
    for words in search.words().chunks(PIECE / 8) {
        buffer.clear();
        for w in words {
            buffer.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        out(&buffer)?;
    }
    Ok(())
}

/// The finished sections and the search a checkpoint holds, its entries' CRC checked.
fn read_entries(
    path: &Path,
    plan: &Plan,
    lines: &Lines,
) -> Result<(Vec<SolvedSection>, Option<Search>), GenError> {
    let bad = |problem: String| GenError::Resume {
        path: path.to_path_buf(),
        problem,
    };
    let failed = |e| io_error(path, e);
    let states = plan.board.reachable_states();
    let payload = Encoding::TwoBit.payload_len(states).unwrap_or(0) as usize;
    let words = Search::words_for(states);
    let want = (payload * lines.finished.len() + words * 8) as u64;
    let (mut file, have) = open_regular(path, u64::MAX, "checkpoint")
        .map_err(|e| bad(format!("it {e}: remove it, or add --restart to start over")))?;
    if lines.bytes != want || have != lines.len + want {
        return Err(bad(format!(
            "it is {have} bytes, not the {} its lines say: start over with --restart",
            lines.len + want
        )));
    }
    file.seek(SeekFrom::Start(lines.len)).map_err(failed)?;
    let mut input = BufReader::with_capacity(PIECE, file);
    let mut crc = crc32fast::Hasher::new();
    let mut finished = Vec::with_capacity(lines.finished.len());
    for (k, histogram) in lines.finished.iter().enumerate() {
        let mut entries = vec![0u8; payload];
        input.read_exact(&mut entries).map_err(failed)?;
        crc.update(&entries);
        finished.push(SolvedSection {
            goal: plan.goals[k],
            entries,
            histogram: histogram.clone(),
            encoding: Encoding::TwoBit,
            cost: CostModel::Unit,
        });
    }
    let entries = read_words(&mut input, words, &mut crc).map_err(failed)?;
    if crc.finalize() != lines.crc {
        return Err(bad(
            "its entries are damaged (they do not match their CRC): start over with --restart"
                .into(),
        ));
    }
    let goal = plan.goals[finished.len()];
    let search = Search::resume(&goal, entries, lines.current.clone())?;
    Ok((finished, Some(search)))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

    use slidetable_core::Board;

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

    /// What a signal's handler tells (`slidetable-cli`'s `signals.rs`: it takes the list of
    /// temporary files, `abandon_writes`, then asks [`in_progress`]) is the checkpoint on
    /// disk, checked again and again as a run writes one at the end of every level: a handler
    /// coming between a checkpoint's rename and its record would say "nothing is kept", or an
    /// older level, while the new one is there (Ctrl-C in the CLI's interrupt test under load).
    #[test]
    fn a_signals_handler_is_told_the_checkpoint_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let board = Board::new(2, 5).unwrap();
        let plan = Plan {
            board,
            goals: vec![board.goal_with_blank(board.cells() - 1)],
            encoding: Some(Encoding::TwoBit),
            cost: CostModel::Unit,
        };
        let path = dir.path().join("2x5.slt");
        let checkpoint = WorkFiles::beside(&path).checkpoint;
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let run = Run {
                    restart: false,
                    pace: Pace::Every(Duration::ZERO),
                    progress: &|_| {},
                    events: &|_| ControlFlow::Continue(()),
                };
                let destination = Destination::prepare(&path).unwrap();
                let work = Work::open(&plan, destination.target(), false, run.events).unwrap();
                let result = work.run(&plan, &run, destination);
                done.store(true, SeqCst);
                result.unwrap();
            });
            let mut checks = 0u64;
            let mut seen = 0u64;
            while !done.load(SeqCst) {
                hold_writes(|| {
                    let on_disk = read_lines(&checkpoint, &plan).unwrap().map(|l| l.level());
                    let told = in_progress()
                        .and_then(|s| s.saved)
                        .map(|(_, level, _)| level);
                    assert_eq!(told, on_disk, "check {checks}");
                    seen += u64::from(on_disk.is_some());
                });
                checks += 1;
            }
            // The check ran while checkpoints were there, not only before and after.
            assert!(seen > 0, "{checks} checks, none with a checkpoint");
        });
        assert!(path.exists() && !checkpoint.exists());
    }
}
