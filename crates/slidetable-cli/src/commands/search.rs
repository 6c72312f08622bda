//! `search`: the seeds' algorithms at query time, with the same input and output as `path`.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use slidetable_core::{path_string, Layout, Move};
use slidetable_search::{
    astar, check_solvable, effective_branching_factor, idastar, solve, HeuristicKind, Limit,
    Limits, Method, SearchError, Stats,
};

use crate::answers::write_invalid;
use crate::cli::SearchArgs;
use crate::json::{self, Record, SearchStats};
use crate::patterns::{self, HeuristicChoice};
use crate::puzzles::{each_puzzle, parse_goal};
use crate::streams;
use crate::streams::{note, warning};

pub(crate) fn run(args: &SearchArgs) -> Result<ExitCode> {
    let board = args.board;
    let goal = match &args.goal {
        None => board.standard_goal(),
        Some(text) => parse_goal(board, text)?,
    };
    let limits = Limits {
        max_expanded: args.max_expanded,
        max_time: args.timeout,
        max_memory: Some(
            args.max_memory
                .unwrap_or_else(crate::limits::default_max_memory),
        ),
    };
    // Pattern databases are made (or mapped) once for every puzzle.
    let patterns = match &args.heuristic {
        HeuristicChoice::Pattern(p) if args.method.uses_heuristic() => Some(
            patterns::pattern_source(p.as_deref(), &goal, args.table.as_deref())?,
        ),
        _ => None,
    };
    let pattern = patterns.as_ref().map(|s| s.heuristic(&goal)).transpose()?;
    let kind = match args.heuristic {
        HeuristicChoice::Kind(k) => k,
        HeuristicChoice::Pattern(_) => HeuristicKind::Manhattan,
    };
    let mut out = streams::stdout();
    let mut gave_up = 0u64;
    let mut summary = Summary {
        method: args.method.name(),
        heuristic: args
            .method
            .uses_heuristic()
            .then(|| args.heuristic.to_string()),
        ..Summary::default()
    };
    let mut factors = (0.0f64, 0u64);
    let code = each_puzzle(
        &args.input,
        board,
        args.keep_going,
        &mut out,
        |start, line, out| {
            let outcome = match (&pattern, args.method) {
                (Some(h), Method::Astar) => {
                    check_solvable(start, &goal).and_then(|()| astar(start, &**h, &limits))
                }
                (Some(h), Method::Idastar) => {
                    check_solvable(start, &goal).and_then(|()| idastar(start, &**h, &limits))
                }
                _ => solve(args.method, kind, start, &goal, &limits),
            };
            summary.puzzles += 1;
            match &outcome {
                Ok(solution) => {
                    summary.solved += 1;
                    summary.expanded += solution.stats.expanded;
                    summary.generated += solution.stats.generated;
                    summary.milliseconds += solution.stats.elapsed.as_secs_f64() * 1e3;
                    let depth = solution.path.len() as u32;
                    if let Some(b) = effective_branching_factor(solution.stats.generated, depth) {
                        factors.0 += b;
                        factors.1 += 1;
                    }
                }
                Err(SearchError::Unsolvable { .. }) => summary.unsolvable += 1,
                Err(_) => summary.unknown += 1,
            }
            match outcome {
                Ok(solution) if args.json => {
                    let depth = solution.path.len() as u32;
                    let stats = args.stats.then(|| json_stats(&solution.stats, depth));
                    write_json(out, start, Some(&solution.path), true, stats, None)?;
                }
                Ok(solution) => {
                    writeln!(out, "{}", path_string(&solution.path))?;
                    if args.stats {
                        let s = &solution.stats;
                        let mut text = format!(
                            "line {line}: {}{}: {} moves, {} expanded, {} generated, peak open {}",
                            args.method,
                            if args.method.uses_heuristic() {
                                format!("/{}", args.heuristic)
                            } else {
                                String::new()
                            },
                            solution.path.len(),
                            s.expanded,
                            s.generated,
                            s.peak_open
                        );
                        if let Some(i) = s.iterations {
                            text += &format!(", {i} iterations");
                        }
                        if let Some(b) =
                            effective_branching_factor(s.generated, solution.path.len() as u32)
                        {
                            text += &format!(", b* {b:.3}");
                        }
                        text += &format!(", {:.3} ms", s.elapsed.as_secs_f64() * 1e3);
                        note!("{text}");
                    }
                }
                Err(SearchError::Unsolvable { .. }) if args.json => {
                    write_json(out, start, None, false, None, None)?;
                }
                Err(SearchError::Unsolvable { .. }) => writeln!(out, "unsolvable")?,
                Err(e @ SearchError::LimitReached { .. }) => {
                    if args.json {
                        write_json(out, start, None, true, None, Some(e.to_string()))?;
                    } else {
                        writeln!(out, "unknown")?;
                    }
                    let option = match &e {
                        SearchError::LimitReached {
                            limit: Limit::Memory(_),
                            ..
                        } => " (the limit is --max-memory)",
                        _ => "",
                    };
                    warning!("line {line}: {e}{option}");
                    gave_up += 1;
                }
                Err(e) => return Err(e.into()),
            }
            Ok(())
        },
        |line, what, out| write_invalid(out, args.json, line, what),
    )?;
    if args.stats && args.json {
        summary.mean_branching_factor = (factors.1 > 0).then(|| factors.0 / factors.1 as f64);
        let mut buf = Vec::new();
        json::line(&mut buf, &SummaryLine { summary });
        out.write_all(&buf)?;
        out.flush()?;
    }
    if gave_up > 0 && code == ExitCode::SUCCESS {
        warning!("{gave_up} search(es) stopped at a limit; their answers read `unknown`");
        return Ok(ExitCode::FAILURE);
    }
    Ok(code)
}

fn json_stats(s: &Stats, depth: u32) -> SearchStats {
    SearchStats {
        expanded: s.expanded,
        generated: s.generated,
        peak_open: s.peak_open,
        iterations: s.iterations,
        milliseconds: s.elapsed.as_secs_f64() * 1e3,
        branching_factor: effective_branching_factor(s.generated, depth),
    }
}

/// `search --json --stats`: the last line, over every puzzle read.
#[derive(Serialize, Default)]
struct Summary {
    method: &'static str,
    heuristic: Option<String>,
    puzzles: u64,
    solved: u64,
    unsolvable: u64,
    unknown: u64,
    expanded: u64,
    generated: u64,
    milliseconds: f64,
    /// Over the solved puzzles of depth 1 or more.
    mean_branching_factor: Option<f64>,
}

#[derive(Serialize)]
struct SummaryLine {
    summary: Summary,
}

/// `--json`: one object per puzzle; a search stopped at a limit has null distance and path
/// and says why in "error".
fn write_json(
    out: &mut impl Write,
    start: &Layout,
    path: Option<&[Move]>,
    solvable: bool,
    stats: Option<SearchStats>,
    error: Option<String>,
) -> io::Result<()> {
    let moves = path.map(path_string);
    let mut buf = Vec::with_capacity(128);
    json::line(
        &mut buf,
        &Record {
            puzzle: start.tiles(),
            distance: Some(path.map(|p| p.len() as u32)),
            path: Some(moves.as_deref()),
            solvable,
            stats,
            error,
            ..Record::default()
        },
    );
    out.write_all(&buf)
}
