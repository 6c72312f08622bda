//! Puzzles from Python: one puzzle as a string (the command line's syntax, `"2 3 4 1 5 x 7 6
//! 8"` or `"23415x768"`), a sequence of integers or a 1-D array; many as a 2-D numpy array of
//! any integer dtype, one puzzle per row, turned into layouts on every core without the GIL.
//! Bad input is a `ValueError` with the command line's message (`row N: ` in front for an
//! array, where the command line says `line N: `).

use std::sync::atomic::{AtomicUsize, Ordering};

use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rayon::prelude::*;
use slidetable_core::{parse_layout, Board, Layout, MAX_CELLS};

use crate::errors::value_error;

/// What a query was given: one puzzle, or the rows of a 2-D array.
pub(crate) enum Given {
    /// One puzzle.
    One(Layout),
    /// One puzzle per row of a 2-D array, in row order.
    Many(Vec<Layout>),
}

impl Given {
    /// One puzzle or many (a 2-D array) for `board`.
    pub(crate) fn of(board: Board, obj: &Bound<'_, PyAny>) -> PyResult<Given> {
        match many(board, obj)? {
            Some(layouts) => Ok(Given::Many(layouts)),
            None => Ok(Given::One(one(board, obj)?)),
        }
    }

    /// An integer answer to what was given, as every per-puzzle number is returned (a
    /// distance, an estimate): `one`'s as an `int` for one puzzle, `many`'s as an `int32`
    /// array for the rows of an array, in row order.
    pub(crate) fn ints<'py>(
        self,
        py: Python<'py>,
        one: impl FnOnce(&Layout) -> PyResult<i64>,
        many: impl FnOnce(&[Layout]) -> PyResult<Vec<i32>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Given::One(layout) => Ok(one(&layout)?.into_pyobject(py)?.into_any()),
            Given::Many(layouts) => Ok(PyArray1::from_vec(py, many(&layouts)?).into_any()),
        }
    }
}

/// One puzzle for `board`: a string as the command line reads a line, or a sequence of
/// integers (a list, a tuple, a 1-D array) with 0 for the blank.
pub(crate) fn one(board: Board, obj: &Bound<'_, PyAny>) -> PyResult<Layout> {
    if let Ok(text) = obj.cast::<PyString>() {
        return parse_line(board, text.to_cow()?.as_bytes());
    }
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return parse_line(board, bytes.as_bytes());
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        if array.ndim() != 1 {
            return Err(value_error(format!(
                "one puzzle is a 1-D array of {} tiles, not an array of {} dimensions",
                board.cells(),
                array.ndim()
            )));
        }
    }
    let values: Vec<i64> = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a puzzle is a string (\"1 2 3 4 5 6 7 8 0\") or a sequence of integers, not {}",
            type_name(obj)
        ))
    })?;
    layout_of(board, &values)
        .map_err(|what| value_error(with_board_hint(board, values.len(), what)))
}

/// A puzzle line as the command line reads it; a line with the tiles of another board says
/// so first, as the command does.
fn parse_line(board: Board, line: &[u8]) -> PyResult<Layout> {
    parse_layout(board, line).map_err(|e| {
        let tokens = line
            .split(|b| matches!(b, b' ' | b'\t' | b',' | b'\r' | b'\n'))
            .filter(|t| !t.is_empty())
            .count();
        let tiles = if tokens == 1 {
            line.iter().filter(|b| !b.is_ascii_whitespace()).count()
        } else {
            tokens
        };
        value_error(with_board_hint(board, tiles, e.to_string()))
    })
}

/// `what` went wrong with a puzzle of `tiles` tiles for `board`: when the count is another
/// board's, the count comes first and the board that takes it is named.
fn with_board_hint(board: Board, tiles: usize, what: String) -> String {
    if tiles == board.cells() || tiles < 4 {
        return what;
    }
    let count = format!("expected {} tiles, found {tiles}", board.cells());
    if tiles == 16 {
        return format!("{count}: 16 tiles are the 15-puzzle (slidetable.Fifteen answers it)");
    }
    // The squarest first (3x4 before 2x6), as the command names them.
    let names = slidetable_core::shapes_of(tiles);
    let fits = slidetable_core::one_of(&names);
    match names.first() {
        Some(first) if tiles <= slidetable_core::MAX_TABLE_CELLS => format!(
            "{count}: {tiles} tiles fit a {fits} board (slidetable.Table.default(\"{first}\"))"
        ),
        _ => count,
    }
}

/// A goal argument for `board` (`None`: the caller's default); errors as for a puzzle,
/// saying it is the goal.
pub(crate) fn goal(board: Board, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Layout>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    one(board, obj).map(Some).map_err(|e| {
        Python::attach(|py| {
            if e.is_instance_of::<pyo3::exceptions::PyValueError>(py) {
                value_error(format!("goal: {}", e.value(py)))
            } else {
                e
            }
        })
    })
}

/// The puzzles of a 2-D integer array, one per row; `None` when `obj` is not a 2-D array.
pub(crate) fn many(board: Board, obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Layout>>> {
    let Ok(array) = obj.cast::<PyUntypedArray>() else {
        return Ok(None);
    };
    if array.ndim() != 2 {
        return Ok(None);
    }
    macro_rules! each_dtype {
        ($($t:ty),*) => {
            $(
                if let Ok(typed) = array.cast::<PyArray2<$t>>() {
                    return rows(board, typed).map(Some);
                }
            )*
        };
    }
    each_dtype!(u8, i8, u16, i16, u32, i32, u64, i64);
    Err(PyTypeError::new_err(format!(
        "puzzles are an array of integers, not of {}",
        array.dtype()
    )))
}

/// An integer element of a puzzle array.
pub(crate) trait Tile: Element + Copy + Send + Sync {
    /// The value, clamped into `i64` (any value that large is no tile anyway).
    fn value(self) -> i64;
}

macro_rules! tile {
    ($($t:ty),*) => {
        $(
            impl Tile for $t {
                #[inline]
                fn value(self) -> i64 {
                    i64::try_from(self).unwrap_or(i64::MAX)
                }
            }
        )*
    };
}
tile!(u8, i8, u16, i16, u32, i32, u64, i64);

/// The layouts of the rows of `array`, read on every core with the GIL released. The first
/// bad row (in row order) is reported, whatever thread finds it.
fn rows<T: Tile>(board: Board, array: &Bound<'_, PyArray2<T>>) -> PyResult<Vec<Layout>> {
    let readonly = array.try_readonly()?;
    let view = readonly.as_array();
    let (count, cols) = view.dim();
    if cols != board.cells() {
        return Err(value_error(format!(
            "expected {} tiles, found {cols}: each row of the array is a puzzle on the {board} board",
            board.cells()
        )));
    }
    let copied: Vec<T>;
    let data: &[T] = match readonly.as_slice() {
        Ok(slice) => slice,
        Err(_) => {
            copied = view.iter().copied().collect();
            &copied
        }
    };
    if count == 0 {
        return Ok(Vec::new());
    }
    let py = array.py();
    py.detach(|| layouts_of_rows(board, data, cols))
        .map_err(|(row, what)| value_error(format!("row {row}: {what}")))
}

/// The layouts of `data`, `cols` values a row, on every core; the first bad row and what is
/// wrong with it.
pub(crate) fn layouts_of_rows<T: Tile>(
    board: Board,
    data: &[T],
    cols: usize,
) -> Result<Vec<Layout>, (usize, String)> {
    let first_bad = AtomicUsize::new(usize::MAX);
    let goal = board.standard_goal();
    let layouts: Vec<Layout> = data
        .par_chunks(cols)
        .enumerate()
        .map(|(i, row)| {
            layout_of(board, row).unwrap_or_else(|_| {
                first_bad.fetch_min(i, Ordering::Relaxed);
                goal
            })
        })
        .collect();
    match first_bad.into_inner() {
        usize::MAX => Ok(layouts),
        row => {
            let what = layout_of(board, &data[row * cols..(row + 1) * cols])
                .err()
                .unwrap_or_default();
            Err((row, what))
        }
    }
}

/// The layout whose cells hold `values` (0 the blank), or what is wrong with them, in the
/// command line's words.
pub(crate) fn layout_of<T: Tile>(board: Board, values: &[T]) -> Result<Layout, String> {
    let n = board.cells();
    if values.len() != n {
        return Err(format!("expected {n} tiles, found {}", values.len()));
    }
    let mut tiles = [0u8; MAX_CELLS];
    for (slot, v) in tiles.iter_mut().zip(values) {
        let v = v.value();
        if !(0..n as i64).contains(&v) {
            return Err(format!(
                "tile {v} is not on a {board} board (tiles are 1..{}, the blank is 0)",
                n - 1
            ));
        }
        *slot = v as u8;
    }
    Layout::new(board, &tiles[..n]).map_err(|e| e.to_string())
}

/// A 2-D `uint8` array of `layouts`, one per row.
pub(crate) fn to_array<'py>(
    py: Python<'py>,
    board: Board,
    layouts: &[Layout],
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let n = board.cells();
    let mut cells = Vec::with_capacity(layouts.len() * n);
    for layout in layouts {
        cells.extend_from_slice(layout.tiles());
    }
    flat_to_array(py, cells, n)
}

/// A 2-D array of `cols` columns over `flat`, row after row.
pub(crate) fn flat_to_array<T: Element>(
    py: Python<'_>,
    flat: Vec<T>,
    cols: usize,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    let rows = flat.len().checked_div(cols).unwrap_or(0);
    let array = numpy::ndarray::Array2::from_shape_vec((rows, cols), flat)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(PyArray2::from_owned_array(py, array))
}

/// A layout as a tuple of its tiles, for a property or a repr.
pub(crate) fn tiles(layout: &Layout) -> Vec<u32> {
    layout.tiles().iter().map(|&t| u32::from(t)).collect()
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "this".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_as_the_command_line_reads_lines() {
        let board = Board::EIGHT;
        let data: Vec<i64> = vec![1, 2, 3, 4, 5, 6, 7, 8, 0, 2, 3, 4, 1, 5, 0, 7, 6, 8];
        let layouts = layouts_of_rows(board, &data, 9).unwrap();
        assert_eq!(layouts[0], board.standard_goal());
        assert_eq!(layouts[1].to_string(), "2 3 4 1 5 0 7 6 8");
    }

    #[test]
    fn the_first_bad_row_is_named_with_the_command_lines_words() {
        let board = Board::EIGHT;
        let mut data: Vec<i16> = (0..9).cycle().take(9 * 5000).collect();
        data[9 * 4000 + 3] = 2; // row 4000: tile 2 twice (3 is gone)
        data[9 * 4500] = -1;
        data[9 * 1234 + 8] = 9;
        assert_eq!(
            layouts_of_rows(board, &data, 9).unwrap_err(),
            (
                1234,
                "tile 9 is not on a 3x3 board (tiles are 1..8, the blank is 0)".to_string()
            )
        );
        data[9 * 1234 + 8] = 8;
        assert_eq!(
            layouts_of_rows(board, &data, 9).unwrap_err(),
            (4000, "tile 2 appears twice".to_string())
        );
        assert_eq!(
            layout_of(board, &[-1i8, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap_err(),
            "tile -1 is not on a 3x3 board (tiles are 1..8, the blank is 0)"
        );
        assert_eq!(
            layout_of(board, &[u64::MAX, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap_err(),
            format!(
                "tile {} is not on a 3x3 board (tiles are 1..8, the blank is 0)",
                i64::MAX
            )
        );
        assert_eq!(
            layout_of(board, &[0u8; 8]).unwrap_err(),
            "expected 9 tiles, found 8"
        );
    }
}
