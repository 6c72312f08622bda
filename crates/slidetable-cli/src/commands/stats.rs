//! `stats`: how the states spread over distances from one goal, for teachers, students and
//! researchers. The figures come from the query crate; this only prints them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use slidetable_query::CostModel;

use crate::cli::StatsArgs;
use crate::json;
use crate::streams;
use crate::tables;

/// Width of the longest bar in the chart.
const BAR: usize = 40;

pub(crate) fn run(args: &StatsArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let stats = table.goal(&goal)?.stats();
    // A weighted table's spread is over cheapest costs, not moves: one word for each.
    let weighted = table.header().cost() != CostModel::Unit;
    let mut out = streams::stdout();
    if args.json {
        let mut buf = Vec::new();
        let name = tables::name(&table);
        json::line(&mut buf, &json::Stats::new(name, &goal, &stats, weighted));
        out.write_all(&buf)?;
    } else if args.csv {
        json::write_stats_csv(&mut out, &stats)?;
    } else {
        writeln!(out, "table    {}", tables::name(&table))?;
        writeln!(out, "goal     {goal}")?;
        writeln!(out, "states   {}", stats.states)?;
        let unit = if weighted {
            writeln!(
                out,
                "cost     {} (every figure below is a cheapest cost)",
                table.header().cost()
            )?;
            ""
        } else {
            " moves"
        };
        writeln!(out, "mean     {:.3}{unit}", stats.mean)?;
        writeln!(out, "median   {}{unit}", stats.median)?;
        writeln!(
            out,
            "maximum  {}{unit} ({} state{})",
            stats.max,
            stats.states_at(stats.max),
            if stats.states_at(stats.max) == 1 {
                ""
            } else {
                "s"
            }
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "{:>8}    states     share  cumulative",
            if weighted { "cost" } else { "distance" }
        )?;
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
