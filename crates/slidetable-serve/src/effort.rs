//! The lesson on search effort: the puzzle on the board solved blind (breadth-first and
//! uniform-cost search), then by A* and by IDA* with each heuristic (the pattern databases'
//! too, where the board has them), each run's work side by side, all within the same caps. The same calls `slidetable search --method M --heuristic H --json --stats` makes, so
//! the numbers are the command line's.

use slidetable::core::Layout;
use slidetable::search::{
    check_solvable, solve, solve_with_patterns, HeuristicKind, Limits, Method, SearchError,
    Solution,
};
use slidetable_records::api::Run;
use slidetable_records::SearchStats;

use crate::source::{Source, SourceError};

/// The heuristics from weakest to strongest, as the lesson lists them.
const KINDS: [HeuristicKind; 3] = [
    HeuristicKind::Misplaced,
    HeuristicKind::Manhattan,
    HeuristicKind::LinearConflict,
];

/// The heuristic column of a blind method's run.
pub(crate) const BLIND: &str = "none";

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
                stats: SearchStats::of(&s.stats, length),
                length,
                stopped: None,
            })
        }
        Err(SearchError::LimitReached { limit, stats }) => Ok(Run {
            method: method.name(),
            heuristic,
            stats: SearchStats::of(&stats, None),
            length: None,
            stopped: Some(limit.to_string()),
        }),
        Err(e) => Err(e),
    }
}

/// Breadth-first and uniform-cost search (blind: heuristic `none`), then A* and IDA*, each
/// with every heuristic (the pattern databases last, when `source` has them), every run
/// within `limits`.
pub(crate) fn measure(
    puzzle: &Layout,
    goal: &Layout,
    source: &dyn Source,
    limits: &Limits,
) -> Result<Vec<Run>, SourceError> {
    let refused = |e: SearchError| SourceError::BadParameter {
        parameter: "puzzle",
        message: e.to_string(),
    };
    check_solvable(puzzle, goal).map_err(refused)?;
    let pattern = source.patterns(goal).transpose()?;
    let mut runs = Vec::new();
    for method in [Method::Bfs, Method::Dijkstra] {
        // A blind method ignores the heuristic it is given.
        let outcome = solve(method, HeuristicKind::Manhattan, puzzle, goal, limits);
        runs.push(run(method, BLIND, outcome).map_err(refused)?);
    }
    for method in [Method::Astar, Method::Idastar] {
        for kind in KINDS {
            let outcome = solve(method, kind, puzzle, goal, limits);
            runs.push(run(method, kind.name(), outcome).map_err(refused)?);
        }
        if let Some(h) = &pattern {
            let outcome = solve_with_patterns(method, h, puzzle, limits);
            runs.push(run(method, "pdb", outcome).map_err(refused)?);
        }
    }
    Ok(runs)
}
