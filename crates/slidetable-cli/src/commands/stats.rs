//! `stats`: how the states spread over distances from one goal, for teachers, students and
//! researchers. The figures come from the query crate; this only prints them.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use crate::cli::StatsArgs;
use crate::json;
use crate::tables;

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

pub(crate) fn run(args: &StatsArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let stats = table.goal(&goal)?.stats();
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let mut buf = Vec::new();
        json::line(
            &mut buf,
            &StatsJson {
                table: tables::name(&table),
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
        writeln!(out, "table    {}", tables::name(&table))?;
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
