//! The search crate's heuristics as functions over puzzles: `manhattan`, `linear_conflict`,
//! `misplaced` and `pattern` (a `Fifteen`'s databases), each on one puzzle (an `int`) or a
//! 2-D array of them (an `int32` array, on every core without the GIL), for comparing them
//! with the true distances of a table or a dataset.

use pyo3::prelude::*;
use rayon::prelude::*;
use slidetable::core::{Board, Layout};
use slidetable::search::{Heuristic, HeuristicKind};

use crate::errors::value_error;
use crate::puzzles::{self, Given};

/// The estimates of `heuristic` for what was given.
pub(crate) fn estimates<'py, H: Heuristic + Sync + ?Sized>(
    py: Python<'py>,
    heuristic: &H,
    given: Given<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    given.ints(
        py,
        heuristic.goal().board(),
        |layout| Ok(i64::from(heuristic.estimate(layout))),
        |layouts| {
            Ok(layouts
                .par_iter()
                .map(|l| heuristic.estimate(l) as i32)
                .collect())
        },
    )
}

/// The board of `puzzles`: `board` when given, else the square board with as many cells as
/// a puzzle has tiles (2x2, 3x3, 4x4); other counts fit several boards and need `board`.
pub(crate) fn board_of(puzzles: &Bound<'_, PyAny>, board: Option<&str>) -> PyResult<Board> {
    if let Some(text) = board {
        return text.parse().map_err(value_error);
    }
    let tiles = puzzles::tile_count(puzzles)?;
    match tiles {
        4 => Ok(Board::new(2, 2).map_err(value_error)?),
        9 => Ok(Board::EIGHT),
        16 => Ok(Board::FIFTEEN),
        n => Err(value_error(format!(
            "{n} tiles: give the board (board=\"RxC\"); only 4, 9 and 16 tiles name one \
             board by themselves"
        ))),
    }
}

/// One of the search crate's heuristics over `puzzles` towards `goal` (default: the standard
/// goal of the board).
fn by_kind<'py>(
    py: Python<'py>,
    kind: HeuristicKind,
    puzzles: &Bound<'py, PyAny>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let puzzles = &puzzles::rereadable(puzzles)?;
    let board = board_of(puzzles, board)?;
    let goal: Layout = puzzles::goal(board, goal)?.unwrap_or_else(|| board.standard_goal());
    let heuristic = kind.build(&goal);
    estimates(py, heuristic.as_ref(), Given::of(board, puzzles)?)
}

/// The sum of every tile's row and column distance from its goal cell: an `int` for one
/// puzzle, an `int32` array for a 2-D array (one puzzle per row). `board` ("RxC") is needed
/// unless a puzzle has 4, 9 or 16 tiles; `goal` defaults to tiles in order, blank last.
#[pyfunction]
#[pyo3(signature = (puzzles, board = None, goal = None))]
pub(crate) fn manhattan<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    by_kind(py, HeuristicKind::Manhattan, puzzles, board, goal)
}

/// Manhattan distance plus two moves for each tile that must leave its goal row or column
/// to let another pass (the fewest removals per line): admissible, and never below
/// `manhattan`. Arguments as `manhattan`.
#[pyfunction]
#[pyo3(signature = (puzzles, board = None, goal = None))]
pub(crate) fn linear_conflict<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    by_kind(py, HeuristicKind::LinearConflict, puzzles, board, goal)
}

/// The number of tiles not in their goal cell. Arguments as `manhattan`.
#[pyfunction]
#[pyo3(signature = (puzzles, board = None, goal = None))]
pub(crate) fn misplaced<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    by_kind(py, HeuristicKind::Misplaced, puzzles, board, goal)
}
