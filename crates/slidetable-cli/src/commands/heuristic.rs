//! `heuristic`: heuristics measured against every state's true distance (the work is
//! `slidetable::heuristic::measure`; this prints it as text, CSV or JSON), or, given puzzles,
//! each one's distance beside every heuristic's estimate.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use slidetable::core::Layout;
use slidetable::heuristic::{
    measure_each, measure_kinds, Accuracy, HeuristicReport, Inconsistency, Witness,
};
use slidetable::query::CostModel;
use slidetable::search::{Heuristic, HeuristicKind};

use crate::charts;
use crate::cli::HeuristicChoice;
use crate::error::UsageError;
use crate::json::{self, Measure};
use crate::puzzles::each_puzzle;
use crate::resolved::{pattern_source, Heuristics, Output, PatternSource, Target};
use crate::streams;
use crate::tables;

#[derive(Serialize)]
struct HeuristicJson {
    heuristic: String,
    goal: Vec<u8>,
    table: String,
    states: u64,
    moves_checked: u64,
    admissible: bool,
    consistent: bool,
    claims_consistent: bool,
    worst_overestimate: Option<WitnessJson>,
    worst_underestimate: Option<WitnessJson>,
    worst_inconsistency: Option<InconsistencyJson>,
    overall: AccuracyJson,
    /// Unit costs: per distance.
    #[serde(skip_serializing_if = "Option::is_none")]
    distances: Option<Vec<AccuracyJson>>,
    /// A weighted table: per cheapest cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    costs: Option<Vec<AccuracyJson>>,
}

#[derive(Serialize)]
struct WitnessJson {
    puzzle: Vec<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<u32>,
    estimate: u32,
}

#[derive(Serialize)]
struct InconsistencyJson {
    from: Vec<u8>,
    #[serde(rename = "move")]
    step: char,
    to: Vec<u8>,
    estimate_from: u32,
    estimate_to: u32,
}

#[derive(Serialize)]
struct AccuracyJson {
    /// Unit costs: the distance, `null` for the overall figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<Option<u32>>,
    /// A weighted table: the cheapest cost, `null` for the overall figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<Option<u32>>,
    states: u64,
    mean_estimate: f64,
    min_estimate: u32,
    max_estimate: u32,
    exact: u64,
    exact_share: f64,
    /// Mean of estimate / distance; `null` at distance 0.
    mean_ratio: Option<f64>,
}

impl AccuracyJson {
    fn of(measure: Measure, value: Option<u32>, a: &Accuracy) -> AccuracyJson {
        let (distance, cost) = measure.split(value);
        AccuracyJson {
            distance,
            cost,
            states: a.states,
            mean_estimate: a.mean_estimate,
            min_estimate: a.min_estimate,
            max_estimate: a.max_estimate,
            exact: a.exact,
            exact_share: a.exact_share,
            mean_ratio: a.mean_ratio,
        }
    }
}

fn witness_json(measure: Measure, w: &Witness) -> WitnessJson {
    let (distance, cost) = measure.split(w.distance);
    WitnessJson {
        puzzle: w.layout.tiles().to_vec(),
        distance,
        cost,
        estimate: w.estimate,
    }
}

/// The pattern databases of each `pdb-PARTITION` asked for, built for `goal` once, before
/// any is used (`None` for the other heuristics).
fn sources(kinds: &[HeuristicChoice], goal: &Layout) -> Result<Vec<Option<PatternSource>>> {
    kinds
        .iter()
        .map(|k| match k {
            HeuristicChoice::Kind(_) => Ok(None),
            HeuristicChoice::Pattern(None) => Err(UsageError(
                "name the partition to measure: pdb-PARTITION (for example pdb-4-4)".into(),
            )
            .into()),
            HeuristicChoice::Pattern(p) => pattern_source(p.as_deref(), goal, None).map(Some),
        })
        .collect()
}

/// Each heuristic by name, towards `goal`, the pattern databases from `sources`.
fn build<'s>(
    kinds: &[HeuristicChoice],
    sources: &'s [Option<PatternSource>],
    goal: &Layout,
) -> Result<Vec<(String, Box<dyn Heuristic + Send + Sync + 's>)>> {
    let mut built = Vec::with_capacity(kinds.len());
    for (kind, source) in kinds.iter().zip(sources) {
        let heuristic = match (kind, source) {
            (_, Some(source)) => Box::new(source.heuristic(goal)?),
            (HeuristicChoice::Kind(k), None) => k.build(goal),
            (HeuristicChoice::Pattern(_), None) => {
                return Err(UsageError(format!("{kind}: no pattern databases were built")).into())
            }
        };
        built.push((kind.to_string(), heuristic));
    }
    Ok(built)
}

pub(crate) fn run(measured: Heuristics<'_>) -> Result<ExitCode> {
    if !measured.input.is_empty() {
        return estimate_puzzles(measured);
    }
    let Heuristics {
        target: Target { table, goal, .. },
        heuristics: kinds,
        output,
        svg,
        input: _,
    } = measured;
    let table_name = tables::name(&table);
    let answers = tables::goal(&table, Some(&goal))?;
    let known = tables::known_distances(&table, &answers, u32::MAX)?;
    let answers = match &known {
        Some(distances) => answers.knowing(distances),
        None => answers,
    };
    let sources = sources(&kinds, &goal)?;
    let measure = Measure::of(table.header().cost() != CostModel::Unit);
    let built = build(&kinds, &sources, &goal)?;
    // The shipped heuristics alone are measured on the tiles, without a layout per state.
    let shipped: Option<Vec<HeuristicKind>> = kinds
        .iter()
        .map(|k| match k {
            HeuristicChoice::Kind(kind) => Some(*kind),
            HeuristicChoice::Pattern(_) => None,
        })
        .collect();
    let measured = match shipped {
        Some(shipped) => measure_kinds(&answers, &shipped)?,
        None => {
            let heuristics: Vec<_> = built.iter().map(|(_, h)| &**h).collect();
            measure_each(&answers, &heuristics)?
        }
    };
    let reports: Vec<(String, HeuristicReport)> = built
        .iter()
        .map(|(name, _)| name.clone())
        .zip(measured)
        .collect();
    if let Some(path) = svg {
        let labels = charts::Labels {
            table: &table_name,
            board: table.board().to_string(),
            goal: goal.to_string(),
            weighted: table.header().cost() != CostModel::Unit,
        };
        charts::save(path, &charts::heuristics(&reports, &labels)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = streams::stdout();
    if output == Output::Json {
        let mut buf = Vec::new();
        for (name, report) in &reports {
            json::line(
                &mut buf,
                &report_json(name, &goal, &table_name, report, measure),
            );
        }
        out.write_all(&buf)?;
    } else if output == Output::Csv {
        writeln!(
            out,
            "heuristic,{},states,mean_estimate,min_estimate,max_estimate,exact,exact_share,mean_ratio",
            measure.name()
        )?;
        for (name, report) in &reports {
            for (d, a) in report.by_distance.iter().enumerate() {
                writeln!(
                    out,
                    "{name},{d},{},{:.6},{},{},{},{:.6},{}",
                    a.states,
                    a.mean_estimate,
                    a.min_estimate,
                    a.max_estimate,
                    a.exact,
                    a.exact_share,
                    a.mean_ratio.map_or(String::new(), |r| format!("{r:.6}"))
                )?;
            }
        }
    } else if let [(name, report)] = &reports[..] {
        text(&mut out, name, &table_name, report, measure)?;
    } else {
        side_by_side(&mut out, &table_name, &reports, measure)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn report_json(
    name: &str,
    goal: &slidetable::core::Layout,
    table: &str,
    report: &HeuristicReport,
    measure: Measure,
) -> HeuristicJson {
    let per_value: Vec<AccuracyJson> = report
        .by_distance
        .iter()
        .enumerate()
        .map(|(d, a)| AccuracyJson::of(measure, Some(d as u32), a))
        .collect();
    let (distances, costs) = measure.split(per_value);
    HeuristicJson {
        heuristic: name.to_string(),
        goal: goal.tiles().to_vec(),
        table: table.to_string(),
        states: report.overall.states,
        moves_checked: report.moves_checked,
        admissible: report.admissible(),
        consistent: report.consistent(),
        claims_consistent: report.claims_consistent,
        worst_overestimate: report
            .worst_overestimate
            .as_ref()
            .map(|w| witness_json(measure, w)),
        worst_underestimate: report
            .worst_underestimate
            .as_ref()
            .map(|w| witness_json(measure, w)),
        worst_inconsistency: report
            .worst_inconsistency
            .as_ref()
            .map(|i| InconsistencyJson {
                from: i.from.tiles().to_vec(),
                step: i.step.letter(),
                to: i.to.tiles().to_vec(),
                estimate_from: i.estimate_from,
                estimate_to: i.estimate_to,
            }),
        overall: AccuracyJson::of(measure, None, &report.overall),
        distances,
        costs,
    }
}

/// Each heuristic's estimates by name, in the order asked for.
struct Estimates<'a>(&'a [(&'a str, u32)]);

impl Serialize for Estimates<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, estimate) in self.0 {
            map.serialize_entry(name, estimate)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct PuzzleJson<'a> {
    puzzle: &'a [u8],
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<Option<u32>>,
    solvable: bool,
    estimates: Estimates<'a>,
}

/// `heuristic INPUT`: each puzzle's exact distance and every heuristic's estimate.
fn estimate_puzzles(measured: Heuristics<'_>) -> Result<ExitCode> {
    let reading = measured.target.reading();
    let Heuristics {
        target: Target {
            table,
            goal: goal_layout,
            ..
        },
        heuristics: kinds,
        output,
        svg: _,
        input,
    } = measured;
    let goal = tables::goal(&table, Some(&goal_layout))?;
    let sources = sources(&kinds, &goal_layout)?;
    let built = build(&kinds, &sources, &goal_layout)?;
    let measure = Measure::of(table.header().cost() != CostModel::Unit);
    let mut out = streams::stdout();
    if output == Output::Csv {
        let names: Vec<&str> = built.iter().map(|(n, _)| n.as_str()).collect();
        writeln!(out, "puzzle,{},{}", measure.name(), names.join(","))?;
    }
    let mut estimates = Vec::with_capacity(built.len());
    let mut buf = Vec::new();
    each_puzzle(
        input,
        reading,
        false,
        &mut out,
        |layout, _, out| {
            let distance = goal
                .distance(layout)
                .with_context(|| format!("table {}", tables::name(&table)))?;
            estimates.clear();
            estimates.extend(built.iter().map(|(n, h)| (n.as_str(), h.estimate(layout))));
            buf.clear();
            if output == Output::Json {
                let (distance_field, cost) = measure.split(distance);
                json::line(
                    &mut buf,
                    &PuzzleJson {
                        puzzle: layout.tiles(),
                        distance: distance_field,
                        cost,
                        solvable: distance.is_some(),
                        estimates: Estimates(&estimates),
                    },
                );
            } else if output == Output::Csv {
                let mut row = format!("{layout},");
                if let Some(d) = distance {
                    row += &d.to_string();
                }
                for (_, e) in &estimates {
                    row += &format!(",{e}");
                }
                buf.extend_from_slice(row.as_bytes());
                buf.push(b'\n');
            } else {
                let exact = match distance {
                    Some(d) => measure.amount(d),
                    None => "unsolvable".to_string(),
                };
                let each: Vec<String> = estimates.iter().map(|(n, e)| format!("{n} {e}")).collect();
                buf.extend_from_slice(
                    format!("{layout}: {exact}; {}\n", each.join(", ")).as_bytes(),
                );
            }
            out.write_all(&buf)?;
            Ok(())
        },
        |line, what, out| json::bad_line(out, line, what),
    )
}

/// The head of the column of mean estimate / true value: `mean h/d`, or on a weighted table
/// `mean h/cost` (the measure's name, as every other column and field says it); its cells are
/// as wide as it.
fn ratio_head(measure: Measure) -> &'static str {
    match measure {
        Measure::Distance => "mean h/d",
        Measure::Cost => "mean h/cost",
    }
}

/// Several heuristics' figures side by side: per distance each one's mean estimate, share
/// exact and mean h/d (h/cost); then each one's admissibility and consistency.
fn side_by_side(
    out: &mut impl Write,
    table: &str,
    reports: &[(String, HeuristicReport)],
    measure: Measure,
) -> io::Result<()> {
    let (_, first) = &reports[0];
    let names: Vec<&str> = reports.iter().map(|(k, _)| k.as_str()).collect();
    writeln!(out, "heuristics {}", names.join(", "))?;
    writeln!(out, "goal       {}", first.goal)?;
    writeln!(out, "table      {table}")?;
    writeln!(
        out,
        "states     {} (every state of the goal's class), {} moves",
        first.overall.states, first.moves_checked
    )?;
    writeln!(out)?;
    let ratio = ratio_head(measure);
    let ratio_width = ratio.len();
    // Each heuristic's columns, and the room they take with two spaces after.
    let width = 20 + ratio_width;
    let mut line = format!("{:18}", "");
    for name in &names {
        line += &format!("  {name:<width$}");
    }
    writeln!(out, "{}", line.trim_end())?;
    let mut line = format!("{:>8}    states", measure.name());
    for _ in &names {
        line += &format!("  {:<width$}", format!(" mean h     exact  {ratio}"));
    }
    writeln!(out, "{}", line.trim_end())?;
    let cells = |a: &Accuracy| {
        format!(
            "{:>7.3}  {:>7.3}%  {:>ratio_width$}",
            a.mean_estimate,
            a.exact_share * 100.0,
            a.mean_ratio.map_or("-".to_string(), |r| format!("{r:.3}"))
        )
    };
    for (d, a) in first.by_distance.iter().enumerate() {
        let mut line = format!("{d:>8}  {:>8}", a.states);
        for (_, r) in reports {
            let a = r.by_distance.get(d).unwrap_or(a);
            line += &format!("  {:<width$}", cells(a));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    let mut line = format!("{:>8}  {:>8}", "all", first.overall.states);
    for (_, r) in reports {
        line += &format!("  {:<width$}", cells(&r.overall));
    }
    writeln!(out, "{}", line.trim_end())?;
    for (name, report) in reports {
        writeln!(out)?;
        verdicts(out, name, report, measure)?;
    }
    Ok(())
}

fn text(
    out: &mut impl Write,
    name: &str,
    table: &str,
    report: &HeuristicReport,
    measure: Measure,
) -> io::Result<()> {
    writeln!(out, "heuristic  {name}")?;
    writeln!(out, "goal       {}", report.goal)?;
    writeln!(out, "table      {table}")?;
    writeln!(
        out,
        "states     {} (every state of the goal's class), {} moves",
        report.overall.states, report.moves_checked
    )?;
    writeln!(out)?;
    let ratio = ratio_head(measure);
    let ratio_width = ratio.len();
    writeln!(
        out,
        "{:>8}    states   mean h  min h  max h     exact  {ratio}",
        measure.name()
    )?;
    let row = |out: &mut dyn Write, label: &str, a: &Accuracy| {
        writeln!(
            out,
            "{label:>8}  {:>8}  {:>7.3}  {:>5}  {:>5}  {:>7.3}%  {:>ratio_width$}",
            a.states,
            a.mean_estimate,
            a.min_estimate,
            a.max_estimate,
            a.exact_share * 100.0,
            a.mean_ratio.map_or("-".to_string(), |r| format!("{r:.3}"))
        )
    };
    for (d, a) in report.by_distance.iter().enumerate() {
        row(out, &d.to_string(), a)?;
    }
    row(out, "all", &report.overall)?;
    writeln!(out)?;
    verdicts(out, "", report, measure)
}

/// Admissibility, the worst under-estimate and consistency, each line prefixed by `name`
/// (when several heuristics are shown).
fn verdicts(
    out: &mut impl Write,
    name: &str,
    report: &HeuristicReport,
    measure: Measure,
) -> io::Result<()> {
    let prefix = if name.is_empty() {
        String::new()
    } else {
        format!("{name}: ")
    };
    write!(out, "{prefix}")?;
    match &report.worst_overestimate {
        None => writeln!(
            out,
            "admissible: true (no estimate exceeds the {})",
            measure.name()
        )?,
        Some(w) => writeln!(
            out,
            "admissible: false: {} is {} but estimated {} ({} over)",
            w.layout,
            measure.from_goal(w.distance),
            w.estimate,
            w.estimate - w.distance
        )?,
    }
    write!(out, "{prefix}")?;
    match &report.worst_underestimate {
        None => writeln!(out, "worst under-estimate: none (exact everywhere)")?,
        Some(w) => writeln!(
            out,
            "worst under-estimate: {} is {}, estimated {} ({} under)",
            w.layout,
            measure.from_goal(w.distance),
            w.estimate,
            w.distance - w.estimate
        )?,
    }
    write!(out, "{prefix}")?;
    match &report.worst_inconsistency {
        None => writeln!(
            out,
            "consistent: true (no move lowers the estimate by more than 1)"
        )?,
        Some(Inconsistency {
            from,
            step,
            to,
            estimate_from,
            estimate_to,
        }) => writeln!(
            out,
            "consistent: false: moving {} from {from} (estimate {estimate_from}) gives {to} \
             (estimate {estimate_to})",
            step.letter()
        )?,
    }
    if report.claims_consistent != report.consistent() {
        writeln!(
            out,
            "{prefix}note: the heuristic declares itself {}consistent",
            if report.claims_consistent { "" } else { "not " }
        )?;
    }
    Ok(())
}
