//! `heuristic`: a heuristic measured against every state's true distance (the work is
//! `slidetable_heuristic::measure`; this prints it as text, CSV or JSON).

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use slidetable_heuristic::{measure, Accuracy, HeuristicReport, Inconsistency, Witness};

use crate::cli::HeuristicArgs;
use crate::error::UsageError;
use crate::json;
use crate::patterns::HeuristicChoice;
use crate::{patterns, tables};

#[derive(Serialize)]
struct HeuristicJson {
    heuristic: String,
    goal: String,
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
    distances: Vec<AccuracyJson>,
}

#[derive(Serialize)]
struct WitnessJson {
    puzzle: String,
    distance: u32,
    estimate: u32,
}

#[derive(Serialize)]
struct InconsistencyJson {
    from: String,
    #[serde(rename = "move")]
    step: char,
    to: String,
    estimate_from: u32,
    estimate_to: u32,
}

#[derive(Serialize)]
struct AccuracyJson {
    /// `null` for the overall figures.
    distance: Option<u32>,
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
    fn of(distance: Option<u32>, a: &Accuracy) -> AccuracyJson {
        AccuracyJson {
            distance,
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

fn witness_json(w: &Witness) -> WitnessJson {
    WitnessJson {
        puzzle: w.layout.to_string(),
        distance: w.distance,
        estimate: w.estimate,
    }
}

pub(crate) fn run(args: &HeuristicArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let source;
    let heuristic = match &args.name {
        HeuristicChoice::Kind(k) => k.build(&goal),
        HeuristicChoice::Pattern(p) => {
            if p.is_none() {
                return Err(UsageError(
                    "name the partition to measure: pdb-PARTITION (for example pdb-4-4)".into(),
                )
                .into());
            }
            source = patterns::pattern_source(p.as_deref(), &goal, None)?;
            source.heuristic(&goal)?
        }
    };
    let name = args.name.to_string();
    let report = measure(&table, &*heuristic)?;
    let table_name = tables::name(&table);
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let mut buf = Vec::new();
        json::line(
            &mut buf,
            &HeuristicJson {
                heuristic: name.clone(),
                goal: goal.to_string(),
                table: table_name,
                states: report.overall.states,
                moves_checked: report.moves_checked,
                admissible: report.admissible(),
                consistent: report.consistent(),
                claims_consistent: report.claims_consistent,
                worst_overestimate: report.worst_overestimate.as_ref().map(witness_json),
                worst_underestimate: report.worst_underestimate.as_ref().map(witness_json),
                worst_inconsistency: report.worst_inconsistency.as_ref().map(|i| {
                    InconsistencyJson {
                        from: i.from.to_string(),
                        step: i.step.letter(),
                        to: i.to.to_string(),
                        estimate_from: i.estimate_from,
                        estimate_to: i.estimate_to,
                    }
                }),
                overall: AccuracyJson::of(None, &report.overall),
                distances: report
                    .by_distance
                    .iter()
                    .enumerate()
                    .map(|(d, a)| AccuracyJson::of(Some(d as u32), a))
                    .collect(),
            },
        );
        out.write_all(&buf)?;
    } else if args.csv {
        writeln!(
            out,
            "distance,states,mean_estimate,min_estimate,max_estimate,exact,exact_share,mean_ratio"
        )?;
        for (d, a) in report.by_distance.iter().enumerate() {
            writeln!(
                out,
                "{d},{},{:.6},{},{},{},{:.6},{}",
                a.states,
                a.mean_estimate,
                a.min_estimate,
                a.max_estimate,
                a.exact,
                a.exact_share,
                a.mean_ratio.map_or(String::new(), |r| format!("{r:.6}"))
            )?;
        }
    } else {
        text(&mut out, &name, &table_name, &report)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn moves(n: u32) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

fn text(out: &mut impl Write, name: &str, table: &str, report: &HeuristicReport) -> io::Result<()> {
    writeln!(out, "heuristic  {name}")?;
    writeln!(out, "goal       {}", report.goal)?;
    writeln!(out, "table      {table}")?;
    writeln!(
        out,
        "states     {} (every state of the goal's class), {} moves",
        report.overall.states, report.moves_checked
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "distance    states   mean h  min h  max h     exact  mean h/d"
    )?;
    let row = |out: &mut dyn Write, label: &str, a: &Accuracy| {
        writeln!(
            out,
            "{label:>8}  {:>8}  {:>7.3}  {:>5}  {:>5}  {:>7.3}%  {:>8}",
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
    match &report.worst_overestimate {
        None => writeln!(out, "admissible: true (no estimate exceeds the distance)")?,
        Some(w) => writeln!(
            out,
            "admissible: false: {} is {} from the goal but estimated {} ({} over)",
            w.layout,
            moves(w.distance),
            w.estimate,
            w.estimate - w.distance
        )?,
    }
    match &report.worst_underestimate {
        None => writeln!(out, "worst under-estimate: none (exact everywhere)")?,
        Some(w) => writeln!(
            out,
            "worst under-estimate: {} is {} from the goal, estimated {} ({} under)",
            w.layout,
            moves(w.distance),
            w.estimate,
            w.distance - w.estimate
        )?,
    }
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
            "note: the heuristic declares itself {}consistent",
            if report.claims_consistent { "" } else { "not " }
        )?;
    }
    Ok(())
}
