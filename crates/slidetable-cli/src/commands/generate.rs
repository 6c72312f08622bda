//! `generate`: search every state backwards from the goals and write the table file.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::ProgressBar;
use slidetable::core::{counted, Board};
use slidetable::defaults;
use slidetable::generate::checkpoint::CheckpointEvent;
use slidetable::generate::parts::{solve_in_parts, PartsEvent, PartsPlan};
use slidetable::generate::PatternPlan;

use crate::level_stats::{self, LevelLine, LevelStats};
use crate::resolved::{Destination, Generation};
use crate::run_in_parts::{self, exchange, watchdog};
use crate::streams::{self, note, warning};
use crate::{patterns, signals, tables};

pub(crate) fn run(generation: Generation) -> Result<ExitCode> {
    match generation {
        Generation::Parts {
            plan,
            level_timeout,
            stats,
        } => in_parts(plan, level_timeout, stats.as_deref()),
        Generation::Plan(request) => crate::plan::print(&request),
        Generation::Patterns { plan, path, cache } => pattern_database(&plan, &path, cache),
        Generation::Table { plan, to, restart } => table(&plan, to, restart),
        Generation::Bounded {
            goal,
            max_depth,
            path,
            restart,
        } => crate::bounded::generate(&goal, max_depth, &path, restart),
        Generation::BoundedParts {
            plan,
            level_timeout,
            stats,
        } => crate::bounded::generate_in_parts(&plan, level_timeout, stats.as_deref()),
    }
}

/// A table of every state, written to standard output or to its file.
fn table(plan: &tables::Plan, to: Destination, restart: bool) -> Result<ExitCode> {
    let (path, in_cache) = match to {
        // `-o -`: the table on standard output, the report on standard error.
        Destination::Stdout => {
            let done = tables::generate_to(plan, &mut streams::stdout())?;
            let mut report = Vec::new();
            writeln!(report, "wrote the table to standard output")?;
            write_report(&mut report, plan.board, &done)?;
            // The table on standard output is the answer, and it is whole: a standard error
            // that cannot take the report loses the report, as a warning is lost, not the
            // exit code.
            let _ = io::stderr().write_all(&report);
            return Ok(ExitCode::SUCCESS);
        }
        Destination::File { path, cache } => (path, cache),
    };
    // The cache's directory is made (and its table locked against queries generating it on
    // first use); a directory named with -o must exist.
    let lock = if in_cache {
        Some(defaults::lock(&path, &tables::Shown::new())?)
    } else {
        None
    };
    let done = tables::generate(plan, &path, restart)?;
    drop(lock);
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", path.display())?;
    write_report(&mut out, plan.board, &done)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The size and time of a generated table.
fn write_report(out: &mut impl Write, board: Board, done: &tables::Generated) -> io::Result<()> {
    writeln!(
        out,
        "board {}: {} x {} states, {} bytes",
        board,
        counted(done.sections as u64, "section"),
        done.states,
        done.bytes
    )?;
    writeln!(out, "took {:.1} ms", done.elapsed.as_secs_f64() * 1e3)
}

/// `generate --pdb PARTITION` (or `generate --board 4x4`): the databases of `plan` written
/// to `path`, the cache's when `in_cache`.
fn pattern_database(plan: &PatternPlan, path: &Path, in_cache: bool) -> Result<ExitCode> {
    let board = plan.goal.board();
    // The cache's database is locked against queries making it on first use meanwhile.
    let lock = if in_cache {
        Some(defaults::lock(path, &tables::Shown::new())?)
    } else {
        None
    };
    let made = patterns::make(plan, path)?;
    drop(lock);
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board {board}: pattern database {} ({} groups, {} placements), goal {}, {} bytes",
        plan.partition.sizes(),
        made.sections,
        made.states,
        plan.goal,
        made.bytes
    )?;
    writeln!(out, "took {:.1} ms", made.elapsed.as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `generate --parts DIR`: this process's part of the search (all of it without MPI), with a
/// watchdog on each level; the process of part 0 reports.
fn in_parts(plan: PartsPlan, level_timeout: Duration, stats: Option<&Path>) -> Result<ExitCode> {
    let board = plan.goal.board();
    let start = Instant::now();
    let mut exchange = exchange()?;
    let (me, parts) = (exchange.rank(), exchange.size());
    let mut stats = match stats {
        Some(path) if me == 0 => Some(LevelStats::create(path)?),
        _ => None,
    };
    let watch = watchdog(level_timeout, me, parts);
    // A signal (Ctrl-C, or mpirun ending the run when a process died) says what is kept.
    signals::clean_up_on_signals();
    // On a terminal, part 0's process shows the states settled, the level, the time and the
    // time left (from the mean time a state so far, resumed states apart).
    let base = Arc::new(AtomicU64::new(0));
    let bar = match me {
        0 => tables::progress_bar_from(
            board.reachable_states(),
            tables::BarUnit::States,
            format!("generating {board} in {}", counted(parts.into(), "part")),
            Arc::clone(&base),
        ),
        _ => ProgressBar::hidden(),
    };
    bar.inc(1);
    // What the checkpoints did, and the last level every part has one of.
    let mut told = run_in_parts::Checkpoints::new(me, parts);
    let mut stats_error = None;
    let done = solve_in_parts(&plan, exchange.as_mut(), &mut |event| match event {
        PartsEvent::LevelStarted { level } => watch.start(level),
        PartsEvent::Checkpoint(event) => {
            if let CheckpointEvent::Resumed(r) = &event {
                base.store(r.settled, Relaxed);
                bar.set_position(r.settled);
                bar.reset_elapsed();
            }
            bar.suspend(|| told.tell(&event));
        }
        PartsEvent::LevelDone(r) if me == 0 => {
            bar.inc(r.states);
            bar.set_message(format!(
                "generating {board} in {}, level {}",
                counted(parts.into(), "part"),
                r.level
            ));
            bar.suspend(|| {
                note!(
                    "level {}: {}, {} bytes sent in {}, {:.1} ms{}",
                    r.level,
                    counted(r.states, "state"),
                    r.bytes_sent,
                    counted(r.rounds as u64, "round"),
                    r.elapsed.as_secs_f64() * 1e3,
                    if r.bottom_up { " (bottom-up)" } else { "" }
                )
            });
            if let (Some(stats), None) = (stats.as_mut(), &stats_error) {
                let line = LevelLine {
                    level: r.level,
                    states: r.states,
                    bytes_sent: r.bytes_sent,
                    seconds: level_stats::seconds(r.elapsed),
                    peak_memory: r.peak_memory,
                    rounds: Some(r.rounds),
                    bottom_up: Some(r.bottom_up),
                };
                stats_error = stats.write(&line).err();
            }
        }
        _ => {}
    });
    bar.finish_and_clear();
    if let Some(e) = stats_error {
        warning!("{e:#}; the table is made all the same");
    }
    let done = match done {
        Ok(done) => done,
        Err(e) => {
            let kept = told.kept;
            let kept_text = run_in_parts::kept_text(&plan.dir, kept);
            return run_in_parts::failed(e, exchange.as_mut(), &kept_text, kept.is_some());
        }
    };
    if let Some(manifest) = done.manifest {
        let bytes = slidetable_format_len(board);
        let mut out = streams::stdout();
        writeln!(
            out,
            "wrote {} ({} and {})",
            plan.dir.display(),
            counted(parts as u64, "part"),
            manifest.display()
        )?;
        writeln!(
            out,
            "board {board}: 1 section x {} states, {bytes} bytes joined, max distance {}",
            board.reachable_states(),
            done.histogram.len() - 1
        )?;
        writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The payload bytes of a 2-bit table of `board` (what its parts hold together).
fn slidetable_format_len(board: slidetable::core::Board) -> u64 {
    slidetable::query::Encoding::TwoBit
        .payload_len(board.reachable_states())
        .unwrap_or(0)
}
