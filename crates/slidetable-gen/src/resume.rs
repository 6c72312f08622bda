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
//!
//! The checkpoint's file, its writing, reading back, pace and events are the one checkpoint
//! engine's (`checkpoint.rs`), shared with the search in parts and the search within `D` moves;
//! this module says what a 2-bit table's checkpoint holds.

use std::fs;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Instant, SystemTime};

use slidetable_format::{CostModel, Encoding};

use crate::bfs_residues::Search;
use crate::checkpoint::{
    self, identity, io_error, read_head, read_words, remove_if_there, set_in_progress, theirs,
    Head, Pacer, Refusal, Scratch, START_OVER,
};
use crate::plan::Plan;
use crate::state_file::join;
use crate::write::temporary::{hold_writes, LockFile};
use crate::{Destination, GenError, SolvedSection, Written};

pub use crate::checkpoint::{
    in_progress, CheckpointEvent as RunEvent, Pace, Resumed, Saving, CHECKPOINT_ENV,
};

/// How a run that keeps checkpoints is driven.
pub struct Run<'a> {
    /// Remove an earlier run's checkpoint and start over.
    pub restart: bool,
    /// When to write checkpoints.
    pub pace: Pace,
    /// Told the states settled as the search goes (a resumed run first tells those settled
    /// before, right after [`RunEvent::Resumed`]).
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Told what happens; [`ControlFlow::Break`] after [`RunEvent::Saved`] stops the
    /// run there ([`GenError::Stopped`]), the checkpoint kept for a later run to resume.
    pub events: &'a (dyn Fn(&RunEvent) -> ControlFlow<()> + Sync),
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

/// The lines that name a plan in its checkpoint: a run resumes only the same plan.
fn identity_of(plan: &Plan) -> String {
    let mut fields = vec![
        ("board", plan.board.to_string()),
        ("encoding", "2bit".to_string()),
        ("cost", plan.cost.name().to_string()),
        ("states", plan.board.reachable_states().to_string()),
    ];
    for goal in &plan.goals {
        let tiles: Vec<String> = goal.tiles().iter().map(u8::to_string).collect();
        fields.push(("goal", tiles.join(" ")));
    }
    identity("generate", &fields)
}

/// What a checkpoint's lines say.
#[derive(Debug)]
struct Lines {
    /// The finished sections' histograms.
    finished: Vec<Vec<u64>>,
    /// The histogram of the section being searched.
    current: Vec<u64>,
    pid: u32,
    saved: SystemTime,
    head: Head,
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
    read_checked(path, plan).map_err(|r| r.at(path, false))
}

fn read_checked(path: &Path, plan: &Plan) -> Result<Option<Lines>, Refusal> {
    let Some(head) = read_head(path, &identity_of(plan), START_OVER, |read| {
        format!(
            "it is an interrupted run of another table ({}): run the same command as it to \
             resume it, or add --restart to start over",
            theirs(read, &["board", "encoding", "cost", "goal"])
        )
    })?
    else {
        return Ok(None);
    };
    let bad = |problem: String| Refusal::Problem(problem);
    let numbers = |what: &str, text: &str| -> Result<Vec<u64>, Refusal> {
        text.split_whitespace()
            .map(|n| n.parse().ok())
            .collect::<Option<Vec<u64>>>()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad(format!("its {what} {text:?} is not numbers")))
    };
    let finished = head
        .read
        .all("finished")
        .map(|h| numbers("histogram", h))
        .collect::<Result<Vec<_>, _>>()?;
    let current = numbers("histogram", head.read.get("histogram").unwrap_or(""))?;
    let pid = u32::try_from(head.number("pid")?).unwrap_or(0);
    head.number("saved")?;
    let saved = head.saved(path);
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
        pid,
        saved,
        head,
    }))
}

/// An open run: its lock, and the checkpoint an earlier run left.
pub(crate) struct OpenRun {
    files: WorkFiles,
    /// The lock file, held locked for the run (removed when the run ends).
    _lock: LockFile,
    saved: Option<Lines>,
}

impl OpenRun {
    /// Takes the lock of the table at `target` (refusing a second run of it at once) and
    /// reads an earlier run's checkpoint; with `restart`, removes it (and an older version's
    /// working files) first.
    pub(crate) fn open(
        plan: &Plan,
        target: &Path,
        restart: bool,
        events: &(dyn Fn(&RunEvent) -> ControlFlow<()> + Sync),
    ) -> Result<OpenRun, GenError> {
        let files = WorkFiles::beside(target);
        let lock = checkpoint::take_lock(&files.lock, target)?;
        if restart {
            for path in std::iter::once(&files.checkpoint).chain(&files.older) {
                if remove_if_there(path).map_err(|e| io_error(path, e))? {
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
        Ok(OpenRun {
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
                checkpoint::kept(
                    &self.files.checkpoint,
                    resumed.section,
                    resumed.level,
                    Some(resumed.saved),
                    None,
                );
                let found = read_entries(&self.files.checkpoint, plan, &saved)?;
                let settled = resumed.settled;
                let _ = (run.events)(&RunEvent::Resumed(resumed));
                (run.progress)(settled);
                found
            }
            None => {
                checkpoint::none_yet(&self.files.checkpoint, None);
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
                        checkpoint::kept(&self.files.checkpoint, section, level, Some(at), None)
                    };
                    match writer.write(&finished, &search, placed) {
                        Ok(()) => {
                            let took = started.elapsed();
                            pacer.saved(took, bytes);
                            let told = (run.events)(&RunEvent::Saved {
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
                            let _ = (run.events)(&RunEvent::Failed {
                                level,
                                checkpoint: self.files.checkpoint.clone(),
                                error: Some(e.to_string()),
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
        })
        .map_err(|e| io_error(&self.files.checkpoint, e))?;
        Ok(written)
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

impl Checkpoints<'_> {
    /// The bytes of entries a checkpoint of `finished` and `search` holds.
    fn len(&self, finished: &[SolvedSection], search: &Search) -> u64 {
        finished.iter().map(|s| s.entries.len() as u64).sum::<u64>()
            + search.words().len() as u64 * 8
    }

    /// The disk's seconds a byte (see [`checkpoint::probe_disk`]).
    fn probe(&self) -> io::Result<f64> {
        checkpoint::probe_disk(self.dir, &self.prefix)
    }

    /// Writes the checkpoint of `finished` and `search` (between two levels) to a temporary
    /// file, syncs it and renames it over the checkpoint ([`checkpoint::write`]); `placed` is
    /// told the time its lines say it was written, right after the rename and before a
    /// signal's handler can look: what [`in_progress`] tells is the checkpoint on disk.
    fn write(
        &self,
        finished: &[SolvedSection],
        search: &Search,
        placed: impl FnOnce(SystemTime),
    ) -> Result<(), GenError> {
        let mut text = identity_of(self.plan);
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
        let scratch = Scratch::Temporary {
            dir: self.dir,
            prefix: &self.prefix,
        };
        let pieces =
            |out: &mut dyn FnMut(&[u8]) -> io::Result<()>| each_piece(finished, search, out);
        checkpoint::write(scratch, self.path, &text, &pieces, placed)
            .map_err(|e| io_error(self.path, e))
    }
}

/// The bytes of a checkpoint's entries, a piece at a time: each finished section's payload,
/// then the words of the section being searched, little-endian.
fn each_piece(
    finished: &[SolvedSection],
    search: &Search,
    out: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    for s in finished {
        for piece in s.entries.chunks(checkpoint::PIECE) {
            out(piece)?;
        }
    }
    let mut buffer = Vec::with_capacity(checkpoint::PIECE);
    for words in search.words().chunks(checkpoint::PIECE / 8) {
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
    let failed = |e| io_error(path, e);
    let states = plan.board.reachable_states();
    let payload = Encoding::TwoBit.payload_len(states).unwrap_or(0) as usize;
    let words = Search::words_for(states);
    let want = (payload * lines.finished.len() + words * 8) as u64;
    let head = &lines.head;
    let mut input = head.entries(path, want).map_err(|r| r.at(path, false))?;
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
    head.check_crc(crc).map_err(|r| r.at(path, false))?;
    let goal = plan.goals[finished.len()];
    let search = Search::resume(&goal, entries, lines.current.clone())?;
    Ok((finished, Some(search)))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
    use std::time::Duration;

    use slidetable_core::Board;

    use super::*;

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
                let work = OpenRun::open(&plan, destination.target(), false, run.events).unwrap();
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
                        .and_then(|s| s.level())
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
