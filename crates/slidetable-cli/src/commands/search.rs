//! `search`: the seeds' algorithms at query time, with the same input and output as `path`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use slidetable_core::{path_string, Layout, Move};
use slidetable_search::{
    astar, check_solvable, idastar, solve, HeuristicKind, Limits, Method, SearchError, Stats,
};

use crate::answers::write_invalid;
use crate::cli::SearchArgs;
use crate::json::{self, Record, SearchStats};
use crate::patterns::{self, HeuristicChoice};
use crate::puzzles::{each_puzzle, parse_goal};

pub(crate) fn run(args: &SearchArgs) -> Result<ExitCode> {
    let board = args.board;
    let goal = match &args.goal {
        None => board.standard_goal(),
        Some(text) => parse_goal(board, text)?,
    };
    let limits = Limits {
        max_expanded: args.max_expanded,
        max_time: args.timeout.map(Duration::from_secs_f64),
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
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut gave_up = 0u64;
    let code = each_puzzle(
        args.input.as_deref(),
        board,
        args.keep_going,
        &mut out,
        |start, line, out| {
            let found = match (&pattern, args.method) {
                (Some(h), Method::Astar) => {
                    check_solvable(start, &goal).and_then(|()| astar(start, &**h, &limits))
                }
                (Some(h), Method::Idastar) => {
                    check_solvable(start, &goal).and_then(|()| idastar(start, &**h, &limits))
                }
                _ => solve(args.method, kind, start, &goal, &limits),
            };
            match found {
                Ok(solution) if args.json => {
                    let stats = args.stats.then(|| json_stats(&solution.stats));
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
                        text += &format!(", {:.3} ms", s.elapsed.as_secs_f64() * 1e3);
                        eprintln!("{text}");
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
                    eprintln!("slidetable: line {line}: {e}");
                    gave_up += 1;
                }
                Err(e) => return Err(e.into()),
            }
            Ok(())
        },
        |line, what, out| write_invalid(out, args.json, line, what),
    )?;
    if gave_up > 0 && code == ExitCode::SUCCESS {
        eprintln!(
            "slidetable: {gave_up} search(es) stopped at a limit; their answers read `unknown`"
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(code)
}

fn json_stats(s: &Stats) -> SearchStats {
    SearchStats {
        expanded: s.expanded,
        generated: s.generated,
        peak_open: s.peak_open,
        iterations: s.iterations,
        milliseconds: s.elapsed.as_secs_f64() * 1e3,
    }
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
    let puzzle = start.to_string();
    let moves = path.map(path_string);
    let mut buf = Vec::with_capacity(128);
    json::line(
        &mut buf,
        &Record {
            puzzle: &puzzle,
            distance: path.map(|p| p.len() as u32),
            path: Some(moves.as_deref()),
            solvable,
            stats,
            error,
        },
    );
    out.write_all(&buf)
}
