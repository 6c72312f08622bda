//! `slidetable.search`: one puzzle solved online by any of the search crate's methods, with
//! the figures `slidetable search --json --stats` gives (nodes expanded and generated, the
//! bound proved, time, branching factor), as a dict a results table can be built from. A
//! `Fifteen`'s `search` gives the same for IDA* on its pattern databases.

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use slidetable::core::{path_string, Layout};
use slidetable::search::{
    effective_branching_factor, solve, solve_with_patterns, HeuristicKind, Limits, Method,
    SearchError, Solution, Stats,
};

use crate::errors::{value_error, whole};
use crate::heuristics::board_of;
use crate::puzzles;

/// The limits asked for: `max_expanded` states, `max_seconds` of wall-clock time (more than
/// can be counted is no limit, as the command line's `--timeout`), `max_memory` bytes of
/// states held (default: the command line's bound, `slidetable::limits::default_max_memory`).
pub(crate) fn limits(
    max_expanded: Option<&Bound<'_, PyAny>>,
    max_seconds: Option<f64>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    let max_time = max_seconds
        .map(|s| {
            if s.is_nan() || s < 0.0 {
                return Err(value_error(format!(
                    "max_seconds={s:?}: give a number of seconds, 0 or more"
                )));
            }
            Ok(Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX))
        })
        .transpose()?;
    let max_expanded = max_expanded
        .map(|n| whole(n, "max_expanded", u64::MAX))
        .transpose()?;
    let max_memory = match max_memory {
        Some(bytes) => whole(bytes, "max_memory", u64::MAX)?,
        None => slidetable::limits::default_max_memory(),
    };
    Ok(Limits {
        max_expanded,
        max_time,
        max_memory: Some(max_memory),
        ..Limits::default()
    })
}

/// The search's figures as `search --json --stats` gives them (docs/JSON.md,
/// `search-stats`): `iterations` only for IDA*, `branching_factor` `None` without a
/// solution or at depth 0.
pub(crate) fn stats_dict<'py>(
    py: Python<'py>,
    s: &Stats,
    depth: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("expanded", s.expanded)?;
    d.set_item("generated", s.generated)?;
    d.set_item("peak_open", s.peak_open)?;
    if let Some(i) = s.iterations {
        d.set_item("iterations", i)?;
    }
    d.set_item("bound", s.bound)?;
    d.set_item("milliseconds", s.elapsed.as_secs_f64() * 1e3)?;
    d.set_item(
        "branching_factor",
        depth.and_then(|d| effective_branching_factor(s.generated, d)),
    )?;
    Ok(d)
}

/// How one search went, as the command's `search-answer` record: puzzle, distance, path,
/// solvable, stats (absent for a puzzle of the other class, which is not searched) and, for
/// a search stopped at a limit, `error` (the distance and path are then `None`).
pub(crate) fn record<'py>(
    py: Python<'py>,
    start: &Layout,
    result: Result<Solution, SearchError>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("puzzle", puzzles::tiles(start))?;
    match result {
        Ok(found) => {
            let depth = found.path.len() as u32;
            d.set_item("distance", found.cost)?;
            d.set_item("path", path_string(&found.path))?;
            d.set_item("solvable", true)?;
            d.set_item("stats", stats_dict(py, &found.stats, Some(depth))?)?;
        }
        Err(SearchError::Unsolvable { .. }) => {
            d.set_item("distance", py.None())?;
            d.set_item("path", py.None())?;
            d.set_item("solvable", false)?;
        }
        Err(e @ SearchError::LimitReached { .. }) => {
            let SearchError::LimitReached { stats, .. } = &e else {
                return Err(value_error(e));
            };
            d.set_item("distance", py.None())?;
            d.set_item("path", py.None())?;
            d.set_item("solvable", true)?;
            d.set_item("stats", stats_dict(py, stats, None)?)?;
            d.set_item("error", e.to_string())?;
        }
        Err(e) => return Err(value_error(e)),
    }
    Ok(d)
}

/// [`search`] guided by pattern databases, as `slidetable search --heuristic pdb` (or
/// `pdb-PARTITION`) chooses them ([`slidetable::PatternChoice`]): on 4x4 without a partition
/// the cache's (as `Fifteen.default()` opens them), otherwise the partition (by default the
/// tiles in two halves) built in memory for the goal.
#[allow(clippy::too_many_arguments)]
fn with_patterns<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    method: Method,
    name: &str,
    partition: Option<&str>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
    limits: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    method.check_heuristic(name).map_err(value_error)?;
    let board = board_of(puzzle, board)?;
    let start = puzzles::one(board, puzzle)?;
    let goal = puzzles::goal(board, goal)?.unwrap_or_else(|| board.standard_goal());
    let choice = slidetable::PatternChoice::of(partition, &goal, false)
        .map_err(|e| value_error(format!("heuristic {e}")))?;
    let fifteen = crate::fifteen::PyFifteen::for_search(py, choice, &goal)?;
    let solver = fifteen.solver_to(&goal)?;
    let result = crate::interrupt::stoppable(py, |stop| {
        let limits = Limits {
            stop: Some(stop.clone()),
            ..limits
        };
        solve_with_patterns(method, &solver, &start, &limits)
    })?;
    let d = record(py, &start, result)?;
    d.set_item("method", method.name())?;
    fifteen.describe(&d)?;
    d.set_item("heuristic", name)?;
    Ok(d)
}

/// Solves `puzzle` by `method` (`bfs`, `bidir`, `dijkstra`, `astar`, `idastar`), guided by
/// `heuristic` (`manhattan`, `linear_conflict` or `linear-conflict`, `misplaced`, `pdb` or
/// `pdb-PARTITION`: pattern databases, chosen as the command line chooses them — on 4x4
/// `pdb` is the cache's, `Fifteen.default()`'s; elsewhere, or with a partition such as
/// `pdb-4-4` or `pdb-5-5-5`, they are built in memory for the goal, by default the tiles in
/// two halves; `partition` and `database` are added to the record; `manhattan` when not
/// given) for A* and IDA*, and returns
/// what `slidetable search --json --stats` prints for it, as a dict: `puzzle`, `distance`,
/// `path`, `solvable`, `method`, `heuristic` (`None` for the blind methods) and `stats`
/// (`expanded`, `generated`, `peak_open`, `iterations` for IDA*, `bound`, `milliseconds`,
/// `branching_factor`; docs/SEARCH.md says what each counts). A search stopped by
/// `max_expanded` or `max_seconds` still has its `stats` (`bound`: the length it proved no
/// solution is shorter than) and an `error`; its `distance` and `path` are `None`. A puzzle
/// of the other class is answered at once (`solvable` False, no `stats`). `board` ("RxC")
/// is needed unless a puzzle has 4, 9 or 16 tiles; `goal` defaults to tiles in order,
/// blank last (`goal="korf"`: the blank first). A heuristic given to a blind method is refused
/// (`ValueError`), as the command line refuses `search --method bfs --heuristic H`: the
/// search would ignore it. The states held are bounded by `max_memory` bytes, by default as
/// the command line bounds them (half the machine's memory, or a quarter of `ulimit -v`); a
/// search that reaches it stops with an `error`, as at the other limits. Ctrl-C stops the
/// search (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (puzzle, method = "idastar", heuristic = None, board = None, goal = None, max_expanded = None, max_seconds = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    method: &str,
    heuristic: Option<&str>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
    max_expanded: Option<&Bound<'py, PyAny>>,
    max_seconds: Option<f64>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let method: Method = method.parse().map_err(value_error)?;
    if let Some((name, partition)) =
        heuristic.and_then(|h| slidetable::PatternChoice::named(h).map(|p| (h, p)))
    {
        return with_patterns(
            py,
            puzzle,
            method,
            name,
            partition,
            board,
            goal,
            limits(max_expanded, max_seconds, max_memory)?,
        );
    }
    let kind = match heuristic {
        Some(name) => {
            // The functions' spelling (`linear_conflict`) as well as the command line's.
            let name = &name.replace('_', "-");
            let kind: HeuristicKind = name.parse().map_err(value_error)?;
            method.check_heuristic(name).map_err(value_error)?;
            kind
        }
        None => HeuristicKind::Manhattan,
    };
    let board = board_of(puzzle, board)?;
    let start = puzzles::one(board, puzzle)?;
    let goal = puzzles::goal(board, goal)?.unwrap_or_else(|| board.standard_goal());
    let limits = limits(max_expanded, max_seconds, max_memory)?;
    let result = crate::interrupt::stoppable(py, |stop| {
        let limits = Limits {
            stop: Some(stop.clone()),
            ..limits
        };
        solve(method, kind, &start, &goal, &limits)
    })?;
    let d = record(py, &start, result)?;
    d.set_item("method", method.name())?;
    d.set_item(
        "heuristic",
        method.uses_heuristic().then(|| kind.to_string()),
    )?;
    Ok(d)
}
