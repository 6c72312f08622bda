//! `stats`: how the states spread over distances from one goal, for teachers, students and
//! researchers. The figures come from the query crate; this only prints them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use slidetable::core::counted;
use slidetable::query::CostModel;

use crate::charts;
use crate::json;
use crate::resolved::{Output, Statistics, Target};
use crate::streams;
use crate::tables;

/// Width of the longest bar in the chart.
const BAR: usize = 40;

pub(crate) fn run(stats: Statistics<'_>) -> Result<ExitCode> {
    let Statistics {
        target: Target { table, goal, .. },
        output,
        log,
        svg,
    } = stats;
    let stats = tables::goal(&table, Some(&goal))?.stats();
    // A weighted table's spread is over cheapest costs, not moves: one word for each.
    let weighted = table.header().cost() != CostModel::Unit;
    if let Some(path) = svg {
        let labels = charts::Labels {
            table: &tables::name(&table),
            board: table.board().to_string(),
            goal: goal.to_string(),
            weighted,
        };
        charts::save(path, &charts::distances(&stats, &labels, log)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = streams::stdout();
    if output == Output::Json {
        let mut buf = Vec::new();
        let name = tables::name(&table);
        json::line(&mut buf, &json::Stats::new(name, &goal, &stats, weighted));
        out.write_all(&buf)?;
    } else if output == Output::Csv {
        json::write_stats_csv(&mut out, &stats.layers, json::Measure::of(weighted))?;
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
            "maximum  {}{unit} ({})",
            stats.max,
            counted(stats.states_at(stats.max), "state")
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "{:>8}    states     share  cumulative{}",
            json::Measure::of(weighted).name(),
            if log { "  (bars: log scale)" } else { "" }
        )?;
        let most = stats.layers.iter().map(|l| l.states).max().unwrap_or(1);
        for l in &stats.layers {
            let bar = bar_length(l.states, most, log);
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

/// The bar of a layer of `states` in a chart whose largest layer has `most`: proportional,
/// or with `log` proportional to log(1 + states), so that layers of 1, 10 and 100 states
/// differ. Every non-empty layer gets at least one mark, however small.
fn bar_length(states: u64, most: u64, log: bool) -> usize {
    if states == 0 {
        return 0;
    }
    let scale = |n: u64| if log { (n as f64).ln_1p() } else { n as f64 };
    ((scale(states) / scale(most.max(1)) * BAR as f64).round() as usize).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_scale_tells_small_layers_apart() {
        // 3x3: layers of 1, 2, 4 ... 24,047 states. Linear: the small ones all one mark.
        let most = 24_047;
        let linear: Vec<usize> = [1, 2, 4, 16, 116]
            .iter()
            .map(|&n| bar_length(n, most, false))
            .collect();
        assert_eq!(linear, [1, 1, 1, 1, 1]);
        let log: Vec<usize> = [1, 2, 4, 16, 116, most]
            .iter()
            .map(|&n| bar_length(n, most, true))
            .collect();
        assert!(log.windows(2).all(|w| w[0] < w[1]), "{log:?}");
        assert_eq!(log[5], BAR);
        assert_eq!(bar_length(0, most, true), 0);
        assert_eq!(bar_length(most, most, false), BAR);
    }
}
