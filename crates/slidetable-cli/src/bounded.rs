//! Tables of the states within `D` moves (`generate --max-depth D`): making one, and what
//! `distance`, `path`, `info` and `stats` print from one. A state past `D` is answered
//! `>D` (text and CSV) or, in JSON, `"distance": null` with `"at_least": D+1`
//! (docs/JSON.md).

use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;
use slidetable::core::{counted, Layout, Move};
use slidetable::generate::checkpoint::Pace;
use slidetable::generate::engine::{
    generate_bounded, solve_bounded_in_parts, write_bounded_to, BoundedEvent, BoundedRun,
    SolvedBounded,
};
use slidetable::generate::{BoundedPartsPlan, Destination};
use slidetable::query::{LayerStats, MappedBoundedTable, Reach};

use crate::answers::{self, write_invalid_answer};
use crate::json::{self, Record};
use crate::level_stats::{self, LevelLine, LevelStats};
use crate::puzzles::each_puzzle;
use crate::resolved::{Answer, Batch, Output};
use crate::run_in_parts;
use crate::streams::{self, note, warning};

/// `generate --max-depth D`: the states within `max_depth` moves of `goal`, written to
/// `path`; a note on standard error for each level that took a second or more. Keeps
/// checkpoints beside `path` as a table of every state does (an interrupted run of the same
/// command resumes from its last one, unless `restart`).
pub(crate) fn generate(
    goal: &Layout,
    max_depth: u32,
    path: &Path,
    restart: bool,
) -> Result<ExitCode> {
    let start = Instant::now();
    // Checked (and its temporary file made) before the search, so a destination that cannot
    // be written is refused at once.
    let destination = Destination::prepare(path)?;
    // A signal says what is kept (`signals.rs`), as for a table of every state.
    crate::signals::clean_up_on_signals();
    let run = BoundedRun {
        restart,
        pace: Pace::from_env()?,
    };
    // The levels worth watching: those of a second or more (a long run's), noted as they end.
    let (written, histogram) = generate_bounded(goal, max_depth, destination, run, &mut |event| {
        match event {
            BoundedEvent::Level(done) if done.elapsed.as_secs_f64() >= 1.0 => note!(
                "level {}: {} ({} neighbours sorted), {:.1} s",
                done.level,
                counted(done.states, "state"),
                done.neighbours,
                done.elapsed.as_secs_f64()
            ),
            BoundedEvent::Checkpoint(event) => crate::tables::tell(&event, goal.board(), None),
            _ => {}
        }
        ControlFlow::Continue(())
    })?;
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board {}: {} within {max_depth} moves of goal {goal}, {} bytes",
        goal.board(),
        counted(histogram.iter().sum(), "state"),
        written.bytes
    )?;
    writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `generate --max-depth D --parts DIR`: this process's part of the search (all of it
/// without MPI), with a watchdog on each level; the process of part 0 notes each level that
/// took a second or more, and reports. Checkpoints as a run of every state in parts keeps
/// them: a rerun on as many processes resumes from the last level every part has one of.
pub(crate) fn generate_in_parts(
    plan: &BoundedPartsPlan,
    level_timeout: Duration,
    stats: Option<&Path>,
) -> Result<ExitCode> {
    let start = Instant::now();
    let mut exchange = run_in_parts::exchange()?;
    let (me, parts) = (exchange.rank(), exchange.size());
    let mut stats = match stats {
        Some(path) if me == 0 => Some(LevelStats::create(path)?),
        _ => None,
    };
    let mut stats_error = None;
    let watch = run_in_parts::watchdog(level_timeout, me, parts);
    // A signal (Ctrl-C, or mpirun ending the run when a process died) says what is kept.
    crate::signals::clean_up_on_signals();
    let mut told = run_in_parts::Checkpoints::new(me, parts);
    let done = solve_bounded_in_parts(plan, exchange.as_mut(), &mut |event| {
        let done = match event {
            BoundedEvent::Level(done) => done,
            BoundedEvent::Checkpoint(event) => {
                told.tell(&event);
                return ControlFlow::Continue(());
            }
            _ => return ControlFlow::Continue(()),
        };
        watch.start(done.level + 1);
        if me == 0 && done.elapsed.as_secs_f64() >= 1.0 {
            note!(
                "level {}: {}, {} bytes sent, {:.1} s",
                done.level,
                counted(done.states, "state"),
                done.bytes_sent,
                done.elapsed.as_secs_f64()
            );
        }
        if let (Some(stats), None) = (stats.as_mut(), &stats_error) {
            let line = LevelLine {
                level: done.level,
                states: done.states,
                bytes_sent: done.bytes_sent,
                seconds: level_stats::seconds(done.elapsed),
                peak_memory: done.peak_memory,
                rounds: None,
                bottom_up: None,
            };
            stats_error = stats.write(&line).err();
        }
        ControlFlow::Continue(())
    });
    if let Some(e) = stats_error {
        warning!("{e:#}; the table is made all the same");
    }
    let done = match done {
        Ok(done) => done,
        Err(e) => {
            let kept = told.kept;
            let kept_text = match kept {
                Some(_) => run_in_parts::kept_text(&plan.dir, kept),
                None => " (no manifest was written, and no checkpoint of every part yet: run \
                         the same command again, which starts from the goal)"
                    .to_string(),
            };
            return run_in_parts::failed(e, exchange.as_mut(), &kept_text, kept.is_some());
        }
    };
    if let Some(manifest) = done.manifest {
        let mut out = streams::stdout();
        writeln!(
            out,
            "wrote {} ({} and {})",
            plan.dir.display(),
            counted(u64::from(parts), "part"),
            manifest.display()
        )?;
        writeln!(
            out,
            "board {}: {} within {} moves of goal {}",
            plan.goal.board(),
            counted(done.histogram.iter().sum(), "state"),
            plan.max_depth,
            plan.goal
        )?;
        writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `merge DIR -o FILE` of a table within `D` moves in parts: every block of every part
/// checked, then each level's ranks, every part's in rank order, encoded as the one-process
/// search encodes them: the file `generate --max-depth D -o FILE` writes, byte for byte.
pub(crate) fn merge(table: &MappedBoundedTable, output: &Path, start: Instant) -> Result<ExitCode> {
    table.verify()?;
    let destination = Destination::prepare(output)?;
    let solved = SolvedBounded::from_levels(*table.goal(), table.joined_levels()?);
    let written = destination.write(&mut |out| write_bounded_to(out, &solved))?;
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", output.display())?;
    writeln!(
        out,
        "board {}: {} within {} moves of goal {}, {} bytes",
        table.board(),
        counted(solved.states(), "state"),
        table.max_depth(),
        table.goal(),
        written.bytes
    )?;
    writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn name(table: &MappedBoundedTable) -> String {
    table
        .file()
        .map_or_else(|| "?".to_string(), |p| p.display().to_string())
}

/// `distance` and `path` on a table within `D` moves: the output of every other table for
/// the states within `D`; `>D` (JSON: `at_least`) for the farther ones.
pub(crate) fn batch(table: &MappedBoundedTable, batch: &Batch<'_>) -> Result<ExitCode> {
    let (answer, output) = (batch.answer, batch.output);
    let goal = batch.goal.unwrap_or_else(|| *table.goal());
    // Refused before any line is read when the table cannot answer for this goal.
    table
        .towards(table.goal(), &goal)
        .with_context(|| format!("table {}", name(table)))?;
    let order = match answer {
        Answer::OrderedPath(order) => order,
        _ => Move::ALL,
    };
    let mut out = streams::stdout();
    if output == Output::Csv {
        answers::write_csv_header(&mut out, answer, json::Measure::Distance)?;
    }
    let mut text = Vec::new();
    let mut path = Vec::new();
    let mut answered = 0;
    each_puzzle(
        batch.input,
        batch.reading(),
        batch.keep_going,
        &mut out,
        |layout, _, out| {
            let context = || format!("table {}", name(table));
            let toward = table.towards(layout, &goal).with_context(context)?;
            let reach = match answer {
                Answer::Distance => table.distance(&toward).with_context(context)?,
                _ => {
                    let found = table
                        .path_into(&toward, &order, &mut path)
                        .with_context(context)?;
                    match found {
                        true => Some(Reach::Moves(path.len() as u32)),
                        false => table.distance(&toward).with_context(context)?,
                    }
                }
            };
            answered += 1;
            text.clear();
            match reach {
                Some(Reach::MoreThan(max)) => write_beyond(&mut text, layout, answer, output, max),
                Some(Reach::Moves(d)) => answers::write(
                    &mut text,
                    answered,
                    layout,
                    answer,
                    output,
                    Some(d),
                    Some(&path[..]).filter(|_| !matches!(answer, Answer::Distance)),
                    false,
                ),
                None => answers::write(
                    &mut text, answered, layout, answer, output, None, None, false,
                ),
            }
            out.buffer().extend_from_slice(&text);
            out.written()?;
            Ok(())
        },
        |line, what, out| write_invalid_answer(out, answer, output, line, what),
    )
}

/// The answer for a state more than `max` moves away: `>max` in text, CSV and drawn output,
/// and in JSON `distance` (and `path`) `null` with `at_least` `max + 1`.
fn write_beyond(text: &mut Vec<u8>, layout: &Layout, answer: Answer, output: Output, max: u32) {
    let path_column = !matches!(answer, Answer::Distance);
    match output {
        Output::Text | Output::Show => {
            text.extend_from_slice(format!(">{max}\n").as_bytes());
        }
        Output::Csv => {
            let extra = if path_column { "," } else { "" };
            text.extend_from_slice(format!("{layout},>{max},{extra}true\n").as_bytes());
        }
        Output::Json => {
            let record = Record {
                puzzle: layout.tiles(),
                distance: Some(None),
                at_least: Some(max + 1),
                path: path_column.then_some(None),
                solvable: true,
                ..Record::default()
            };
            json::line(text, &record);
        }
    }
}

#[derive(Serialize)]
struct BoundedInfoJson {
    path: String,
    board: String,
    encoding: &'static str,
    cost: &'static str,
    goal: Vec<u8>,
    max_depth: u32,
    file_size: u64,
    states: u64,
    histogram: Vec<u64>,
    checksum_ok: Option<bool>,
}

/// `info` on a table within `D` moves: its goal, `D`, the states at each distance up to
/// `D`, and with `verify` every block's checksum. Returns whether the checksum failed, with
/// its error.
pub(crate) fn info(
    table: &MappedBoundedTable,
    path: &Path,
    verify: bool,
    json: bool,
) -> Result<Option<slidetable::query::TableError>> {
    let header = table;
    let checksum = verify.then(|| table.verify());
    let checksum_ok = checksum.as_ref().map(Result::is_ok);
    let mut out = streams::stdout();
    let histogram = header.histogram();
    if json {
        let record = BoundedInfoJson {
            path: path.display().to_string(),
            board: header.board().to_string(),
            encoding: "within",
            cost: "unit",
            goal: header.goal().tiles().to_vec(),
            max_depth: header.max_depth(),
            file_size: header.file_len(),
            states: header.states(),
            histogram,
            checksum_ok,
        };
        serde_json::to_writer(&mut out, &record)?;
        writeln!(out)?;
    } else {
        writeln!(out, "table     {}", path.display())?;
        writeln!(out, "board     {}", header.board())?;
        writeln!(
            out,
            "encoding  within (the states within {} moves of the goal: sorted ranks per distance, LEB128 gaps in blocks of {})",
            header.max_depth(),
            header.block_states()
        )?;
        if table.parts() > 1 {
            writeln!(out, "parts     {}", table.parts())?;
        }
        writeln!(out, "cost      unit (every move costs 1)")?;
        writeln!(out, "goal      {}", header.goal())?;
        writeln!(out, "size      {} bytes", header.file_len())?;
        match &checksum {
            None => writeln!(out, "checksum  not checked (use --verify)")?,
            Some(Ok(())) => writeln!(out, "checksum  ok")?,
            Some(Err(e)) => writeln!(out, "checksum  FAILED: {}", e.kind)?,
        }
        writeln!(out, "max depth {}", header.max_depth())?;
        writeln!(
            out,
            "states    {} within {} moves; {} more than {} moves away",
            header.states(),
            header.max_depth(),
            header.board().reachable_states() - header.states(),
            header.max_depth()
        )?;
        let hist: Vec<String> = histogram.iter().map(u64::to_string).collect();
        writeln!(out, "histogram {}", hist.join(" "))?;
    }
    out.flush()?;
    Ok(checksum.and_then(Result::err))
}

#[derive(Serialize)]
struct BoundedStatsJson<'a> {
    table: String,
    board: String,
    goal: &'a [u8],
    max_depth: u32,
    states: u64,
    more_than_max_depth: u64,
    distances: Vec<json::Layer>,
}

/// `stats` on a table within `D` moves (the table's own goal): the states at each distance
/// up to `D`, their share of the goal's class and the cumulative share, and the states past
/// `D`.
pub(crate) fn stats(table: &MappedBoundedTable, output: Output) -> Result<ExitCode> {
    let header = table;
    let class = header.board().reachable_states();
    let histogram = header.histogram();
    let mut cumulative = 0u64;
    // Shares of the goal's whole class (the states past `D` included), not of the table's.
    let layers: Vec<LayerStats> = histogram
        .iter()
        .enumerate()
        .map(|(d, &states)| {
            cumulative += states;
            LayerStats {
                distance: d as u32,
                states,
                share: states as f64 / class as f64,
                cumulative: cumulative as f64 / class as f64,
            }
        })
        .collect();
    let mut out = streams::stdout();
    match output {
        Output::Json => {
            let record = BoundedStatsJson {
                table: name(table),
                board: header.board().to_string(),
                goal: header.goal().tiles(),
                max_depth: header.max_depth(),
                states: header.states(),
                more_than_max_depth: class - header.states(),
                distances: layers
                    .iter()
                    .map(|l| json::Layer {
                        distance: Some(l.distance),
                        cost: None,
                        states: l.states,
                        share: l.share,
                        cumulative: l.cumulative,
                    })
                    .collect(),
            };
            serde_json::to_writer(&mut out, &record)?;
            writeln!(out)?;
        }
        Output::Csv => json::write_stats_csv(&mut out, &layers, json::Measure::of(false))?,
        _ => {
            writeln!(out, "table    {}", name(table))?;
            writeln!(out, "goal     {}", header.goal())?;
            writeln!(
                out,
                "states   {} within {} moves, {} more than {} moves away (of {class})",
                header.states(),
                header.max_depth(),
                class - header.states(),
                header.max_depth()
            )?;
            writeln!(out)?;
            writeln!(out, "distance    states       share   cumulative")?;
            for l in &layers {
                writeln!(
                    out,
                    "{:>8}  {:>8}  {:>9.3e}  {:>11.3e}",
                    l.distance, l.states, l.share, l.cumulative
                )?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
