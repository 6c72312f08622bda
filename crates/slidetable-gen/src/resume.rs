//! Generating a 2-bit table so that an interrupted run (Ctrl-C, a killed process, a reboot, a
//! full disk) goes on where it stopped instead of starting over: a 2×7 search is half an hour.
//!
//! The search of `bfs_residues.rs` keeps its entries and its frontier in two working files
//! beside the table, mapped shared (`.NAME.entries`: each section's entries at a multiple of
//! 4096 bytes; `.NAME.frontier`: one bit a state), allocated in full before the search so a
//! full disk stops it before, not during, a level. At the end of each level both are synced
//! and then a small state file, `.NAME.state` (see `state_file.rs`), is replaced: the plan
//! (board, encoding, costs, goals), the histograms of the finished sections and of the one
//! being searched, the process and the time. `generate` with the same plan reads it and goes
//! on from the last level saved; `--restart` removes the three files first. The table itself
//! is written at the end from the entries' mapping, as every table is (a temporary file,
//! renamed), and the working files are then removed.
//!
//! Why the level saved is exact: after the save of level `d` the frontier holds exactly level
//! `d`. A top-down pass cut short has cleared only the bits of words whose states it expanded
//! in full, and every state it marked has its bit (set before the entry), so the pass run
//! again (with `repair`) expands the rest and finds the states already marked. A bottom-up
//! pass needs only the entries, and runs again the same way. In both, the resumed level's
//! size is counted from the entries (the states no longer unseen), not from the pass.
//!
//! What it does not survive: a power cut in the middle of a level may leave on disk a state's
//! entry without its frontier bit (the two files' pages are written back independently); a
//! process killed, a clean reboot or a full disk leave the files as the process left them.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use slidetable_core::{Layout, Scan};
use slidetable_format::{CostModel, Encoding, SectionSpec};

use crate::bfs_residues::{entry_words, frontier_words, next_level, Levels, Residues, Store};
use crate::mapped::{map, MappedWords};
use crate::plan::Plan;
use crate::state_file::{self, ReadError};
use crate::write::write_payloads_to;
use crate::GenError;
use crate::{Destination, Written};

/// How a resumable run is driven.
pub struct Run<'a> {
    /// Remove an earlier run's working files and start over.
    pub restart: bool,
    /// Told the states settled as the search goes (a resumed run first tells those settled
    /// before, right after [`RunEvent::Resumed`]).
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Told what happens; [`ControlFlow::Break`] after [`RunEvent::LevelSaved`] stops the run
    /// there ([`GenError::Stopped`]), its files kept for a later run to resume.
    pub events: &'a (dyn Fn(&RunEvent) -> ControlFlow<()> + Sync),
}

/// What a resumable run tells as it goes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum RunEvent {
    /// An earlier run's working files were found: the search goes on from its last saved
    /// level.
    Resumed(Resumed),
    /// `restart` removed an earlier run's working files.
    Restarted {
        /// The earlier run's state file.
        state: PathBuf,
    },
    /// A level is found, synced and saved.
    LevelSaved {
        /// The section (from 0).
        section: usize,
        /// The level (its distance).
        level: u32,
    },
}

/// Where a resumed run goes on from.
#[derive(Debug, Clone)]
pub struct Resumed {
    /// The section being searched (from 0; `sections` when only the table is left to write).
    pub section: usize,
    /// The plan's sections.
    pub sections: usize,
    /// The section's last saved level (its distance).
    pub level: u32,
    /// States settled over every section.
    pub settled: u64,
    /// When the interrupted run saved it.
    pub saved: SystemTime,
    /// The interrupted run's process.
    pub pid: u32,
    /// The state file.
    pub state: PathBuf,
}

/// Whether a plan's search resumes: unit costs in 2-bit entries (every table of 11 cells and
/// more; any board with `--encoding 2bit`).
pub fn resumes(plan: &Plan) -> bool {
    plan.cost == CostModel::Unit
        && matches!(
            crate::check_plan(plan.board, plan.encoding, plan.cost),
            Ok(Encoding::TwoBit)
        )
}

/// The working files of a table being generated at `target`, beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkFiles {
    /// Every section's entries.
    pub entries: PathBuf,
    /// The frontier bitmap.
    pub frontier: PathBuf,
    /// The state file.
    pub state: PathBuf,
}

impl WorkFiles {
    /// The files beside `target`: `.NAME.entries`, `.NAME.frontier`, `.NAME.state`.
    pub fn beside(target: &Path) -> WorkFiles {
        let name = target
            .file_name()
            .map_or_else(|| "table".to_string(), |n| n.to_string_lossy().into_owned());
        let with = |ext: &str| target.with_file_name(format!(".{name}.{ext}"));
        WorkFiles {
            entries: with("entries"),
            frontier: with("frontier"),
            state: with("state"),
        }
    }

    fn remove(&self) -> Result<(), GenError> {
        for path in [&self.state, &self.frontier, &self.entries] {
            match fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_error(path, e)),
                _ => {}
            }
        }
        Ok(())
    }
}

fn io_error(path: &Path, source: io::Error) -> GenError {
    GenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The run in progress in this process, for a signal handler: its state file and last
/// saved level.
static IN_PROGRESS: Mutex<Option<Saving>> = Mutex::new(None);

/// What [`in_progress`] tells.
#[derive(Debug, Clone)]
pub struct Saving {
    /// The state file.
    pub state: PathBuf,
    /// The section being searched.
    pub section: usize,
    /// Its last saved level (`None` before the first save).
    pub level: Option<u32>,
}

/// The resumable run this process is making, if any: what a signal handler tells the user
/// is kept (its working files are not removed, unlike a temporary table file).
pub fn in_progress() -> Option<Saving> {
    IN_PROGRESS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

fn set_in_progress(saving: Option<Saving>) {
    *IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner()) = saving;
}

/// The bytes a section's entries take in the entries file (whole pages).
fn region_len(states: u64) -> u64 {
    (entry_words(states) as u64 * 8).next_multiple_of(4096)
}

/// The working files' bytes for `plan`: entries of every section, and the frontier.
pub fn working_bytes(plan: &Plan) -> u64 {
    let states = plan.board.reachable_states();
    region_len(states) * plan.goals.len() as u64 + frontier_len(states)
}

fn frontier_len(states: u64) -> u64 {
    (frontier_words(states) as u64 * 8).next_multiple_of(4096)
}

/// What a state file saves.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Saved {
    /// The finished sections' histograms.
    finished: Vec<Vec<u64>>,
    /// The histogram of the section being searched, if it has begun.
    current: Option<Vec<u64>>,
    pid: u32,
    saved: SystemTime,
}

/// The lines that name a plan in its state file: a run resumes only the same plan.
fn identity(plan: &Plan) -> String {
    let mut text = format!(
        "slidetable generate state 1\nboard {}\nencoding 2bit\ncost {}\nstates {}\n",
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

fn numbers(text: &str) -> Option<Vec<u64>> {
    text.split_whitespace().map(|n| n.parse().ok()).collect()
}

fn write_state(files: &WorkFiles, plan: &Plan, saved: &Saved) -> Result<(), GenError> {
    let mut text = identity(plan);
    let join = |h: &[u64]| h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    for h in &saved.finished {
        text.push_str(&format!("finished {}\n", join(h)));
    }
    if let Some(h) = &saved.current {
        text.push_str(&format!(
            "section {}\nlevel {}\nhistogram {}\n",
            saved.finished.len(),
            h.len() - 1,
            join(h)
        ));
    }
    let secs = saved
        .saved
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    text.push_str(&format!("pid {}\nsaved {secs}\n", saved.pid));
    state_file::write(&files.state, &text).map_err(|e| io_error(&files.state, e))
}

fn read_state(files: &WorkFiles, plan: &Plan) -> Result<Option<Saved>, GenError> {
    let bad = |problem: String| GenError::Resume {
        path: files.state.clone(),
        problem,
    };
    let read = match state_file::read(&files.state) {
        Ok(Some(read)) => read,
        Ok(None) => return Ok(None),
        Err(ReadError::Io(e)) => return Err(io_error(&files.state, e)),
        Err(ReadError::Damaged) => {
            return Err(bad(
                "it is damaged (its CRC does not match its lines): start over with --restart"
                    .into(),
            ))
        }
    };
    if !read.had_crc {
        return Err(bad("it has no CRC line: start over with --restart".into()));
    }
    let ours = identity(plan);
    if !read.text.starts_with(&ours) {
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
    let histogram = |text: &str| {
        numbers(text)
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad(format!("histogram {text:?} is not numbers")))
    };
    let finished = read
        .all("finished")
        .map(histogram)
        .collect::<Result<Vec<_>, _>>()?;
    let current = read.get("histogram").map(histogram).transpose()?;
    let pid = read.get("pid").and_then(|p| p.parse().ok()).unwrap_or(0);
    let saved = read
        .get("saved")
        .and_then(|s| s.parse().ok())
        .map_or(UNIX_EPOCH, |s| UNIX_EPOCH + Duration::from_secs(s));
    let states = plan.board.reachable_states();
    let sums_ok = finished.iter().all(|h| h.iter().sum::<u64>() == states)
        && current
            .as_ref()
            .is_none_or(|h| h.iter().sum::<u64>() <= states);
    if finished.len() > plan.goals.len()
        || (finished.len() == plan.goals.len() && current.is_some())
        || !sums_ok
    {
        return Err(bad(
            "its sections do not add up to the plan's: start over with --restart".into(),
        ));
    }
    Ok(Some(Saved {
        finished,
        current,
        pid,
        saved,
    }))
}

/// An open resumable run: its files, locked, and what an earlier run saved.
pub(crate) struct Work {
    files: WorkFiles,
    /// The entries file, locked for the run.
    entries: File,
    saved: Option<Saved>,
}

impl Work {
    /// Opens (and locks) the working files of a table at `target`; with `restart`, removes an
    /// earlier run's first. Refuses a second run of the same table at once.
    pub(crate) fn open(
        plan: &Plan,
        target: &Path,
        restart: bool,
        events: &(dyn Fn(&RunEvent) -> ControlFlow<()> + Sync),
    ) -> Result<Work, GenError> {
        let files = WorkFiles::beside(target);
        let entries = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&files.entries)
            .map_err(|e| io_error(&files.entries, e))?;
        if entries.try_lock().is_err() {
            return Err(GenError::Resume {
                path: files.entries.clone(),
                problem: format!(
                    "another slidetable is generating {} (it holds this file's lock)",
                    target.display()
                ),
            });
        }
        if restart && files.state.exists() {
            let _ = events(&RunEvent::Restarted {
                state: files.state.clone(),
            });
        }
        let saved = if restart {
            None
        } else {
            read_state(&files, plan)?
        };
        if saved.is_none() {
            // Nothing to resume: whatever is there is from a run that saved nothing.
            for path in [&files.state, &files.frontier] {
                match fs::remove_file(path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_error(path, e)),
                    _ => {}
                }
            }
            entries
                .set_len(0)
                .map_err(|e| io_error(&files.entries, e))?;
        }
        Ok(Work {
            files,
            entries,
            saved,
        })
    }

    /// Removes the working files when they hold nothing of an earlier run (a run refused
    /// before its search leaves nothing behind).
    pub(crate) fn discard_if_new(self) -> Result<(), GenError> {
        if self.saved.is_none() {
            self.files.remove()?;
        }
        Ok(())
    }

    /// The bytes of disk the working files already hold (a resumed run needs them again, not
    /// more).
    pub(crate) fn allocated(&self) -> u64 {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            [&self.files.entries, &self.files.frontier]
                .iter()
                .filter_map(|p| fs::metadata(p).ok())
                .map(|m| m.blocks() * 512)
                .sum()
        }
        #[cfg(not(unix))]
        {
            0
        }
    }

    /// Where the run goes on from, if it resumes.
    pub(crate) fn resumed(&self, plan: &Plan) -> Option<Resumed> {
        let saved = self.saved.as_ref()?;
        let states = plan.board.reachable_states();
        let current = saved.current.as_ref();
        Some(Resumed {
            section: saved.finished.len(),
            sections: plan.goals.len(),
            level: current.map_or(0, |h| h.len() as u32 - 1),
            settled: states * saved.finished.len() as u64 + current.map_or(0, |h| h.iter().sum()),
            saved: saved.saved,
            pid: saved.pid,
            state: self.files.state.clone(),
        })
    }

    /// Searches every section not finished yet, saving each level, and writes the table to
    /// `destination` at the end; then removes the working files.
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
        let states = plan.board.reachable_states();
        let region = region_len(states);
        let sections = plan.goals.len();
        let total = region * sections as u64;
        let files = self.files.clone();
        if let Some(resumed) = self.resumed(plan) {
            let settled = resumed.settled;
            let _ = (run.events)(&RunEvent::Resumed(resumed));
            (run.progress)(settled);
        }
        let len = self
            .entries
            .metadata()
            .map_err(|e| io_error(&files.entries, e))?
            .len();
        if self.saved.is_some() && len != total {
            return Err(GenError::Resume {
                path: files.entries.clone(),
                problem: format!(
                    "it is {len} bytes, not the {total} its state file's table needs: start \
                     over with --restart"
                ),
            });
        }
        allocate(&self.entries, total).map_err(|e| io_error(&files.entries, e))?;
        let mut saved = self.saved.take().unwrap_or(Saved {
            finished: Vec::new(),
            current: None,
            pid: std::process::id(),
            saved: SystemTime::now(),
        });
        set_in_progress(Some(Saving {
            state: files.state.clone(),
            section: saved.finished.len(),
            level: saved.current.as_ref().map(|h| h.len() as u32 - 1),
        }));
        while saved.finished.len() < sections {
            let section = saved.finished.len();
            let goal = plan.goals[section];
            let histogram = search_section(
                &self.entries,
                &files,
                &goal,
                region * section as u64,
                saved.current.take(),
                &mut |levels| {
                    saved.current = Some(levels.histogram.clone());
                    saved.pid = std::process::id();
                    saved.saved = SystemTime::now();
                    write_state(&files, plan, &saved)?;
                    let level = levels.depth();
                    set_in_progress(Some(Saving {
                        state: files.state.clone(),
                        section,
                        level: Some(level),
                    }));
                    Ok((run.events)(&RunEvent::LevelSaved { section, level }))
                },
                run.progress,
            )?;
            saved.current = None;
            saved.finished.push(histogram);
            write_state(&files, plan, &saved)?;
        }
        // Every section is searched: the table, from the entries' mapping.
        let mapping = map(&self.entries, 0, total).map_err(|e| io_error(&files.entries, e))?;
        let payload_len = Encoding::TwoBit.payload_len(states).unwrap_or(0) as usize;
        let payloads: Vec<&[u8]> = (0..sections)
            .map(|s| &mapping[s * region as usize..][..payload_len])
            .collect();
        let specs: Vec<SectionSpec> = plan
            .goals
            .iter()
            .zip(&saved.finished)
            .map(|(goal, h)| SectionSpec {
                goal: *goal,
                histogram: h.clone(),
            })
            .collect();
        let written = destination.write(&mut |out| {
            write_payloads_to(
                out,
                plan.board,
                Encoding::TwoBit,
                plan.cost,
                specs.clone(),
                &payloads,
            )
        })?;
        drop(mapping);
        files.remove()?;
        Ok(written)
    }
}

/// Allocates `len` bytes of `file` on disk (so a full disk stops a run now, not with a
/// signal in the middle of a level), growing it to `len`.
fn allocate(file: &File, len: u64) -> io::Result<()> {
    if len == 0 {
        return Ok(());
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{fallocate, FallocateFlags};
        match fallocate(file, FallocateFlags::empty(), 0, len) {
            Ok(()) => return Ok(()),
            // A filesystem that cannot allocate ahead: the file grows sparse.
            Err(e) if e == rustix::io::Errno::OPNOTSUPP => {}
            Err(e) => return Err(e.into()),
        }
    }
    if file.metadata()?.len() < len {
        file.set_len(len)?;
    }
    Ok(())
}

/// Searches one section's class in its region of the entries file (at `offset`), from
/// `current` (the histogram saved, or the goal when `None`); `saved` is called after each
/// level is synced (it saves the state and may stop the run). Returns the histogram.
fn search_section(
    entries: &File,
    files: &WorkFiles,
    goal: &Layout,
    offset: u64,
    current: Option<Vec<u64>>,
    saved: &mut dyn FnMut(&Levels) -> Result<ControlFlow<()>, GenError>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<u64>, GenError> {
    let scan = Scan::new(goal.board(), goal.class())?;
    let ranker = *scan.ranker();
    let states = ranker.states();
    let on_entries = |e| io_error(&files.entries, e);
    let on_frontier = |e| io_error(&files.frontier, e);
    let words = MappedWords::new(map(entries, offset, region_len(states)).map_err(on_entries)?)
        .map_err(on_entries)?;
    let residues = Residues::over(Store::Mapped(words), states);
    let fresh = current.is_none();
    let mut levels = Levels {
        histogram: current.unwrap_or_else(|| vec![1]),
        states,
    };
    let mut frontier = if levels.bottom_up() && !levels.over() {
        None
    } else if fresh {
        Some(new_frontier(&files.frontier, states).map_err(on_frontier)?)
    } else if levels.over() {
        None
    } else {
        Some(open_frontier(&files.frontier, states)?)
    };
    if fresh {
        residues.clear();
        if let Some(f) = &frontier {
            residues.reach(ranker.rank(goal), 0, f.words(), false);
        }
        progress(1);
        sync(&residues, frontier.as_ref(), files)?;
        if saved(&levels)?.is_break() {
            return Err(stopped(files, &levels));
        }
    }
    // The first pass of a resumed run is one that was cut short.
    let mut repair = !fresh;
    while !levels.over() {
        if levels.bottom_up() && frontier.is_some() {
            // Bottom-up from here on: the bitmap is no longer needed.
            frontier = None;
            fs::remove_file(&files.frontier).map_err(on_frontier)?;
        }
        let found = next_level(
            &scan,
            &residues,
            frontier.as_ref().map(|f| f.words()),
            &levels,
            repair,
            progress,
        );
        repair = false;
        levels.histogram.push(found);
        sync(&residues, frontier.as_ref(), files)?;
        if saved(&levels)?.is_break() {
            return Err(stopped(files, &levels));
        }
    }
    drop(frontier);
    let _ = fs::remove_file(&files.frontier);
    let store = residues.into_payload_store();
    if let Store::Mapped(words) = &store {
        words.flush().map_err(on_entries)?;
    }
    let mut histogram = levels.histogram;
    if histogram.last() == Some(&0) {
        histogram.pop();
    }
    Ok(histogram)
}

fn stopped(files: &WorkFiles, levels: &Levels) -> GenError {
    GenError::Stopped {
        level: levels.depth(),
        state: files.state.clone(),
    }
}

fn sync(
    residues: &Residues,
    frontier: Option<&MappedWords>,
    files: &WorkFiles,
) -> Result<(), GenError> {
    residues.flush().map_err(|e| io_error(&files.entries, e))?;
    if let Some(f) = frontier {
        f.flush().map_err(|e| io_error(&files.frontier, e))?;
    }
    Ok(())
}

/// A new frontier file of `states` bits, all clear, allocated and mapped.
fn new_frontier(path: &Path, states: u64) -> io::Result<MappedWords> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    let len = frontier_len(states);
    allocate(&file, len)?;
    MappedWords::new(map(&file, 0, len)?)
}

/// The frontier file of an interrupted run, mapped.
fn open_frontier(path: &Path, states: u64) -> Result<MappedWords, GenError> {
    let len = frontier_len(states);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| GenError::Resume {
            path: path.to_path_buf(),
            problem: format!(
                "the interrupted run's frontier cannot be opened ({e}): start over with --restart"
            ),
        })?;
    let found = file.metadata().map_err(|e| io_error(path, e))?.len();
    if found != len {
        return Err(GenError::Resume {
            path: path.to_path_buf(),
            problem: format!(
                "it is {found} bytes, not the {len} of the interrupted run's frontier: start \
                 over with --restart"
            ),
        });
    }
    MappedWords::new(map(&file, 0, len).map_err(|e| io_error(path, e))?)
        .map_err(|e| io_error(path, e))
}
