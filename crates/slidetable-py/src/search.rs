//! `slidetable.search`: one puzzle solved online by any of the search crate's methods, with
//! the figures `slidetable search --json --stats` gives (nodes expanded and generated, the
//! bound proved, time, branching factor), as a dict a results table can be built from. A
//! `Fifteen`'s `search` gives the same for IDA* on its pattern databases.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use slidetable::search::{solve, solve_with_patterns, HeuristicKind, Limits, Method};

use crate::errors::value_error;
use crate::heuristics::board_of;
use crate::puzzles;
use crate::records::{limits, record};

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
/// is needed unless a puzzle has 4, 9 or 16 tiles or is a grid (a list of rows, a 2-D
/// array: its shape names the board); `goal` defaults to tiles in order,
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
    let puzzle = &puzzles::rereadable(puzzle)?;
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
