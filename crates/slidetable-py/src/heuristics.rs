//! The search crate's heuristics as functions over puzzles: `manhattan`, `linear_conflict`,
//! `misplaced` and `pattern` (a `Fifteen`'s databases), each on one puzzle (an `int`) or a
//! batch of them (an `int32` array, on every core without the GIL), for comparing them
//! with the true distances of a table or a dataset.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use slidetable::core::{Board, Layout};
use slidetable::search::{Heuristic, HeuristicKind};

use crate::errors::value_error;
use crate::puzzles::{self, Given, Size};

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

/// The board of `puzzles`: `board` when given, else the board a grid's shape names (a 2-D
/// array or list of rows that is one puzzle's grid, a 3-D array or list of grids), else the
/// square board with as many cells as a puzzle has tiles (2x2, 3x3, 4x4); other counts fit
/// several boards and need `board`. Rows of 4, 9 or 16 tiles are puzzles of the square board
/// (a 4x4 grid without `board` is four 2x2 puzzles: give `board="4x4"`).
pub(crate) fn board_of(puzzles: &Bound<'_, PyAny>, board: Option<&str>) -> PyResult<Board> {
    if let Some(text) = board {
        return text.parse().map_err(value_error);
    }
    let square = |tiles: usize| -> PyResult<Option<Board>> {
        Ok(match tiles {
            4 => Some(Board::new(2, 2).map_err(value_error)?),
            9 => Some(Board::EIGHT),
            16 => Some(Board::FIFTEEN),
            _ => None,
        })
    };
    let tiles = match puzzles::size_of(puzzles)? {
        Size::Grids(rows, cols) => return Board::new(rows, cols).map_err(value_error),
        Size::Rows(rows, cols) if square(cols)?.is_none() && puzzles::grid_shaped(rows, cols) => {
            return Board::new(rows, cols).map_err(value_error);
        }
        Size::Rows(_, tiles) | Size::Tiles(tiles) => tiles,
    };
    square(tiles)?.ok_or_else(|| {
        value_error(format!(
            "{tiles} tiles: give the board (board=\"RxC\"); only 4, 9 and 16 tiles name one \
             board by themselves, and a grid (rows of tiles) by its shape"
        ))
    })
}

/// One of the search crate's heuristics over `puzzles` towards `goal` (default: the standard
/// goal of the board). Rows that could be a grid, read as puzzles of the square board their
/// width names ([`board_of`]) and refused so, are refused saying which board to give.
fn by_kind<'py>(
    py: Python<'py>,
    kind: HeuristicKind,
    puzzles: &Bound<'py, PyAny>,
    board: Option<&str>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let puzzles = &puzzles::rereadable(puzzles)?;
    let named = board.is_some();
    let board = board_of(puzzles, board)?;
    let goal: Layout = puzzles::goal(board, goal)?.unwrap_or_else(|| board.standard_goal());
    let heuristic = kind.build(&goal);
    let given =
        Given::of(board, puzzles).and_then(|given| estimates(py, heuristic.as_ref(), given));
    given.map_err(|e| match (named, puzzles::size_of(puzzles)) {
        (false, Ok(Size::Rows(rows, cols)))
            if puzzles::grid_shaped(rows, cols) && e.is_instance_of::<PyValueError>(py) =>
        {
            value_error(format!(
                "{} (a grid of {rows} rows of {cols}? give board=\"{rows}x{cols}\")",
                e.value(py)
            ))
        }
        _ => e,
    })
}

/// The sum of every tile's row and column distance from its goal cell: an `int` for one
/// puzzle (or one grid), an `int32` array for a batch (a 2-D array, one puzzle per row; a
/// 3-D array of grids). `board` ("RxC") is needed unless a puzzle has 4, 9 or 16 tiles or is
/// a grid (its shape names the board); `goal` defaults to tiles in order, blank last.
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
