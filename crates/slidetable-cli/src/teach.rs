//! `stats`, `hardest` and `random`: the whole table seen from one goal, for teachers,
//! students and researchers. The figures come from the query crate; this only prints them.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde::Serialize;
use slidetable_core::{parse_layout, Layout, Move};
use slidetable_query::{Goal, MappedTable, SplitMix64};

use crate::cli::{HardestArgs, RandomArgs, StatsArgs, TargetArgs};
use crate::json::{self, Record};
use crate::{tables, UsageError};

/// The table `target` names (resolved as for `distance`) and its goal layout.
pub fn open(target: &TargetArgs) -> Result<(MappedTable, Layout)> {
    let table = tables::open_for_board(target.table.as_deref(), target.board)?;
    let goal = match &target.goal {
        None => table.board().standard_goal(),
        Some(text) => parse_layout(table.board(), text.as_bytes())
            .map_err(|e| UsageError(format!("--goal '{text}': {e}")))?,
    };
    Ok((table, goal))
}

/// The name a table is shown by.
fn table_name(table: &MappedTable) -> String {
    table
        .file_path()
        .map_or_else(|| "?".to_string(), |p| p.display().to_string())
}

#[derive(Serialize)]
struct StatsJson {
    table: String,
    board: String,
    goal: String,
    states: u64,
    mean: f64,
    median: u32,
    max: u32,
    distances: Vec<LayerJson>,
}

#[derive(Serialize)]
struct LayerJson {
    distance: u32,
    states: u64,
    share: f64,
    cumulative: f64,
}

/// Width of the longest bar in the chart.
const BAR: usize = 40;

pub fn stats(args: &StatsArgs) -> Result<ExitCode> {
    let (table, goal) = open(&args.target)?;
    let stats = table.goal(&goal)?.stats();
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let mut buf = Vec::new();
        json::line(
            &mut buf,
            &StatsJson {
                table: table_name(&table),
                board: table.board().to_string(),
                goal: goal.to_string(),
                states: stats.states,
                mean: stats.mean,
                median: stats.median,
                max: stats.max,
                distances: stats
                    .layers
                    .iter()
                    .map(|l| LayerJson {
                        distance: l.distance,
                        states: l.states,
                        share: l.share,
                        cumulative: l.cumulative,
                    })
                    .collect(),
            },
        );
        out.write_all(&buf)?;
    } else {
        writeln!(out, "table    {}", table_name(&table))?;
        writeln!(out, "goal     {goal}")?;
        writeln!(out, "states   {}", stats.states)?;
        writeln!(out, "mean     {:.3} moves", stats.mean)?;
        writeln!(out, "median   {} moves", stats.median)?;
        writeln!(
            out,
            "maximum  {} moves ({} state{})",
            stats.max,
            stats.states_at(stats.max),
            if stats.states_at(stats.max) == 1 {
                ""
            } else {
                "s"
            }
        )?;
        writeln!(out)?;
        writeln!(out, "distance    states     share  cumulative")?;
        let most = stats.layers.iter().map(|l| l.states).max().unwrap_or(1);
        for l in &stats.layers {
            // Every non-empty layer gets at least one mark, however small.
            let bar = match l.states {
                0 => 0,
                n => ((n as f64 / most as f64 * BAR as f64).round() as usize).max(1),
            };
            writeln!(
                out,
                "{:>8}  {:>8}  {:>7.3}%  {:>9.3}%  {}",
                l.distance,
                l.states,
                l.share * 100.0,
                l.cumulative * 100.0,
                "#".repeat(bar)
            )?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes one state: tokens, a tab, its distance, a tab, the path; or a JSON object.
fn write_state(
    out: &mut impl Write,
    buf: &mut Vec<u8>,
    goal: &Goal<'_>,
    layout: &Layout,
    as_json: bool,
    table: &MappedTable,
) -> Result<()> {
    let path = goal
        .path(layout)
        .with_context(|| format!("table {}", table_name(table)))?
        .expect("a state of the goal's class has a path");
    let path: String = path.iter().map(|m: &Move| m.letter()).collect();
    buf.clear();
    if as_json {
        let puzzle = layout.to_string();
        json::line(
            buf,
            &Record {
                puzzle: &puzzle,
                distance: Some(path.len() as u32),
                path: Some(Some(&path)),
                solvable: true,
                ..Record::default()
            },
        );
    } else {
        buf.extend_from_slice(format!("{layout}\t{}\t{path}\n", path.len()).as_bytes());
    }
    out.write_all(buf)?;
    Ok(())
}

pub fn hardest(args: &HardestArgs) -> Result<ExitCode> {
    let (table, goal) = open(&args.target)?;
    let goal = table.goal(&goal)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    for layout in goal.layouts_at(goal.max_distance()) {
        write_state(&mut out, &mut buf, &goal, &layout, args.json, &table)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

pub fn random(args: &RandomArgs) -> Result<ExitCode> {
    let (table, goal) = open(&args.target)?;
    let goal = table.goal(&goal)?;
    let layer = goal.layer(args.depth.clone()).map_err(|e| {
        // A depth the table has no state at is a bad argument, not a failure.
        match e {
            slidetable_query::LayerError::Corrupt { .. } => {
                anyhow::Error::new(e).context(format!("table {}", table_name(&table)))
            }
            e => UsageError(format!("--depth: {e}")).into(),
        }
    })?;
    // Without --seed, a fresh seed from the standard library's per-process random keys.
    let seed = args.seed.unwrap_or_else(SplitMix64::fresh_seed);
    let mut rng = SplitMix64::new(seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    for _ in 0..args.count {
        let (layout, _) = layer.sample(&mut rng);
        if args.json {
            write_state(&mut out, &mut buf, &goal, &layout, true, &table)?;
        } else {
            buf.clear();
            buf.extend_from_slice(layout.to_string().as_bytes());
            buf.push(b'\n');
            out.write_all(&buf)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
