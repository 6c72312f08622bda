//! The lesson on search effort: the puzzle on the board solved by A* and by IDA* with each
//! heuristic (the pattern databases' too, where the board has them), each run's work side by
//! side. The same calls `slidetable search --method M --heuristic H --json --stats` makes, so
//! the numbers are the command line's.

use slidetable_core::Layout;
use slidetable_records::api::Run;
use slidetable_records::SearchStats;
use slidetable_search::{
    astar, check_solvable, effective_branching_factor, idastar, solve, HeuristicKind, Limits,
    Method, SearchError, Solution, Stats,
};

use crate::patterns::PatternSource;
use crate::source::SourceError;

/// The heuristics from weakest to strongest, as the lesson lists them.
const KINDS: [HeuristicKind; 3] = [
    HeuristicKind::Misplaced,
    HeuristicKind::Manhattan,
    HeuristicKind::LinearConflict,
];

/// `search --stats`' record of `stats`, for a path of `length` moves when one was found.
fn search_stats(stats: &Stats, length: Option<u32>) -> SearchStats {
    SearchStats {
        expanded: stats.expanded,
        generated: stats.generated,
        peak_open: stats.peak_open,
        iterations: stats.iterations,
        bound: stats.bound,
        milliseconds: stats.elapsed.as_secs_f64() * 1e3,
        branching_factor: length.and_then(|d| effective_branching_factor(stats.generated, d)),
    }
}

fn run(
    method: Method,
    heuristic: &'static str,
    outcome: Result<Solution, SearchError>,
) -> Result<Run, SearchError> {
    match outcome {
        Ok(s) => {
            let length = Some(s.path.len() as u32);
            Ok(Run {
                method: method.name(),
                heuristic,
                stats: search_stats(&s.stats, length),
                length,
                stopped: None,
            })
        }
        Err(SearchError::LimitReached { limit, stats }) => Ok(Run {
            method: method.name(),
            heuristic,
            stats: search_stats(&stats, None),
            length: None,
            stopped: Some(limit.to_string()),
        }),
        Err(e) => Err(e),
    }
}

/// A* then IDA*, each with every heuristic (the pattern databases last, when given), every
/// run within `limits`.
pub(crate) fn measure(
    puzzle: &Layout,
    goal: &Layout,
    patterns: Option<&PatternSource>,
    limits: &Limits,
) -> Result<Vec<Run>, SourceError> {
    let refused = |e: SearchError| SourceError::BadParameter {
        parameter: "puzzle",
        message: e.to_string(),
    };
    check_solvable(puzzle, goal).map_err(refused)?;
    let pattern = patterns.map(|p| p.heuristic(goal)).transpose()?;
    let mut runs = Vec::new();
    for method in [Method::Astar, Method::Idastar] {
        for kind in KINDS {
            let outcome = solve(method, kind, puzzle, goal, limits);
            runs.push(run(method, kind.name(), outcome).map_err(refused)?);
        }
        if let Some(h) = &pattern {
            let outcome = match method {
                Method::Astar => astar(puzzle, h, limits),
                _ => idastar(puzzle, h, limits),
            };
            runs.push(run(method, "pdb", outcome).map_err(refused)?);
        }
    }
    Ok(runs)
}
