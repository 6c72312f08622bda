//! Puzzles from Python, read by the library's one reader ([`slidetable::puzzles`]): this
//! module only finds the rows in what it is given and hands them over.
//!
//! One puzzle is text (the command line's syntax, `"2 3 4 1 5 x 7 6 8"` or `"23415x768"`,
//! in a `str`, or in `bytes`, a `bytearray` or a `memoryview` of either), a sequence of
//! integers (a list, a tuple, a 1-D array, a pandas Series of integers), or a grid: the
//! board's rows, in reading order (LeetCode 773's `[[4, 1, 2], [5, 0, 3]]` on 2x3, a 2-D
//! array of the board's shape). Many are any array-like of puzzles: a 2-D integer array of
//! any dtype, byte order and memory order (read through numpy's view, so strides, transposes
//! and Fortran order are honoured), one puzzle a row; a 3-D array of grids, shape (N, rows,
//! cols); a pandas DataFrame (its values, never its labels), a list or tuple of puzzles or
//! of grids, an array or Series of strings (or a frame or 2-D array of one column of them),
//! an iterator of puzzles (read whole first). A 2-D shape is never ambiguous: a row of a
//! batch holds a whole puzzle, a row of a grid fewer tiles ([`reads_as_grid`]). A grid of
//! another shape than the board's is refused, never reshaped. What has no order of its own
//! (a set, a dict, a dict's keys) is refused rather than read in its iteration order, and a
//! masked array with a masked tile rather than read with the value under the mask. Every
//! reader here ([`Given::of`], [`one`], [`size_of`]) goes through the same tests of what it
//! is given. Bad input is a `ValueError` with the library's message (`row N: ` in front for
//! a batch, where the command line says `line N: `) and the library's board hint in
//! Python's words.

use std::borrow::Cow;
use std::fmt::Display;
use std::ops::Range;

use numpy::ndarray::ArrayView2;
use numpy::{
    Element, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray2,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyByteArray, PyByteArrayMethods, PyBytes, PyDict, PyDictItems, PyDictKeys, PyFrozenSet,
    PyIterator, PyList, PyMemoryView, PySet, PyString, PyTuple, PyType,
};
use slidetable::core::{
    is_blank_or_comment, lines, one_of, Board, Layout, Layout25, MAX_TABLE_CELLS,
};
use slidetable::puzzles::{self as reader, Board25, BoardHint, PuzzleError, RowError, Rows};

use crate::errors::value_error;
use crate::memory::reserved;

/// Rows read and answered at a time: the layouts of one chunk (24 bytes a row) are all that
/// is held beside the caller's array and the answers, and Ctrl-C is looked at between chunks.
const CHUNK: usize = 1 << 16;

/// A puzzle as batch answers take it (`Goal::lockstep`): its packed form and its blank's cell.
pub(crate) type Start = (u64, usize);

/// A board as the library's one reader takes its puzzles ([`slidetable::puzzles`]): the
/// boards of up to 16 cells ([`Board`], into [`Layout`]s) and the 24-puzzle's ([`Board25`],
/// into [`Layout25`]s). This module finds the rows; the library reads them.
pub(crate) trait Reads: Copy + Send + Sync + Display {
    /// A puzzle of the board.
    type Layout: Copy + Send + Sync;
    /// The board's cells.
    fn cells(self) -> usize;
    /// The board's rows and columns: the shape of a puzzle given as a grid.
    fn grid(self) -> (usize, usize);
    /// One puzzle line.
    fn line(self, line: &[u8]) -> Result<Self::Layout, PuzzleError>;
    /// One puzzle given as integers.
    fn values(self, values: &[i128]) -> Result<Self::Layout, PuzzleError>;
    /// Rows `range` of `rows`, on every core.
    fn rows<R: Rows + ?Sized>(
        self,
        rows: &R,
        range: Range<usize>,
    ) -> Result<Vec<Self::Layout>, RowError>;
}

impl Reads for Board {
    type Layout = Layout;

    fn cells(self) -> usize {
        Board::cells(self)
    }

    fn grid(self) -> (usize, usize) {
        (self.rows(), self.cols())
    }

    fn line(self, line: &[u8]) -> Result<Layout, PuzzleError> {
        reader::parse_line(self, line)
    }

    fn values(self, values: &[i128]) -> Result<Layout, PuzzleError> {
        reader::layout_of(self, values)
    }

    fn rows<R: Rows + ?Sized>(
        self,
        rows: &R,
        range: Range<usize>,
    ) -> Result<Vec<Layout>, RowError> {
        reader::read_rows(self, rows, range)
    }
}

impl Reads for Board25 {
    type Layout = Layout25;

    fn cells(self) -> usize {
        Board25::cells(self)
    }

    fn grid(self) -> (usize, usize) {
        (self.rows(), self.cols())
    }

    fn line(self, line: &[u8]) -> Result<Layout25, PuzzleError> {
        reader::parse_line25(self, line)
    }

    fn values(self, values: &[i128]) -> Result<Layout25, PuzzleError> {
        reader::layout25_of(self, values)
    }

    fn rows<R: Rows + ?Sized>(
        self,
        rows: &R,
        range: Range<usize>,
    ) -> Result<Vec<Layout25>, RowError> {
        reader::read_rows25(self, rows, range)
    }
}

/// What a query was given: one puzzle, or many.
pub(crate) enum Given<'py, B: Reads = Board> {
    /// One puzzle.
    One(B::Layout),
    /// Many puzzles, in order.
    Many(Batch<'py, B>),
}

/// Many puzzles: the rows of an integer array (read a chunk at a time, on every core), or
/// the puzzles of a Python sequence, read one by one.
pub(crate) enum Batch<'py, B: Reads = Board> {
    /// The rows of a 2-D integer array.
    Array(Array<'py>),
    /// Puzzles read from a sequence.
    Layouts(Vec<B::Layout>),
}

/// A 2-D array of one of numpy's integer dtypes, borrowed read-only.
pub(crate) enum Array<'py> {
    U8(PyReadonlyArray2<'py, u8>),
    I8(PyReadonlyArray2<'py, i8>),
    U16(PyReadonlyArray2<'py, u16>),
    I16(PyReadonlyArray2<'py, i16>),
    U32(PyReadonlyArray2<'py, u32>),
    I32(PyReadonlyArray2<'py, i32>),
    U64(PyReadonlyArray2<'py, u64>),
    I64(PyReadonlyArray2<'py, i64>),
}

/// Runs `$body` with `$view` the array's `ArrayView2` of whatever dtype it has.
macro_rules! with_view {
    ($array:expr, $view:ident => $body:expr) => {
        match $array {
            Array::U8(a) => {
                let $view = a.as_array();
                $body
            }
            Array::I8(a) => {
                let $view = a.as_array();
                $body
            }
            Array::U16(a) => {
                let $view = a.as_array();
                $body
            }
            Array::I16(a) => {
                let $view = a.as_array();
                $body
            }
            Array::U32(a) => {
                let $view = a.as_array();
                $body
            }
            Array::I32(a) => {
                let $view = a.as_array();
                $body
            }
            Array::U64(a) => {
                let $view = a.as_array();
                $body
            }
            Array::I64(a) => {
                let $view = a.as_array();
                $body
            }
        }
    };
}

impl<'py> Array<'py> {
    /// `array` as one of the integer dtypes; `None` for any other dtype.
    fn of(array: &Bound<'py, PyUntypedArray>) -> PyResult<Option<Array<'py>>> {
        macro_rules! each_dtype {
            ($($variant:ident $t:ty),*) => {
                $(
                    if let Ok(typed) = array.cast::<PyArray2<$t>>() {
                        return Ok(Some(Array::$variant(typed.try_readonly()?)));
                    }
                )*
            };
        }
        each_dtype!(U8 u8, I8 i8, U16 u16, I16 i16, U32 u32, I32 i32, U64 u64, I64 i64);
        Ok(None)
    }

    fn rows(&self) -> usize {
        with_view!(self, view => view.nrows())
    }
}

/// numpy's view of an array as the library's [`Rows`]: each value found through the view's
/// strides.
struct View<'a, T>(ArrayView2<'a, T>);

impl<T: Copy + Into<i128> + Sync> Rows for View<'_, T> {
    type Value = T;

    fn rows(&self) -> usize {
        self.0.nrows()
    }

    fn width(&self) -> usize {
        self.0.ncols()
    }

    #[inline]
    fn value(&self, row: usize, col: usize) -> T {
        self.0[[row, col]]
    }
}

/// The rows of `view` read by `read` (the library's [`reader::read_rows`] or
/// [`reader::read_starts`]) and handed to `each` a chunk at a time, without the GIL; Ctrl-C
/// is looked at between chunks.
fn view_chunks<'v, B: Reads, T: Copy + Into<i128> + Sync + Element, O>(
    py: Python<'_>,
    board: B,
    view: ArrayView2<'v, T>,
    read: impl Fn(B, &View<'v, T>, Range<usize>) -> Result<Vec<O>, RowError> + Sync,
    each: &mut (dyn FnMut(&[O]) -> PyResult<()> + Send),
) -> PyResult<()> {
    let rows = View(view);
    let count = rows.rows();
    let mut start = 0;
    while start < count {
        let end = count.min(start + CHUNK);
        py.detach(|| {
            let read = read(board, &rows, start..end).map_err(row_error)?;
            each(&read)
        })?;
        py.check_signals()?;
        start = end;
    }
    Ok(())
}

impl<B: Reads> Batch<'_, B> {
    /// How many puzzles.
    pub(crate) fn len(&self) -> usize {
        match self {
            Batch::Array(array) => array.rows(),
            Batch::Layouts(layouts) => layouts.len(),
        }
    }

    /// Hands the puzzles to `each` in order, a chunk at a time, without the GIL; a bad row
    /// stops it with its `ValueError`, Ctrl-C with `KeyboardInterrupt`.
    pub(crate) fn each_chunk(
        &self,
        py: Python<'_>,
        board: B,
        each: &mut (dyn FnMut(&[B::Layout]) -> PyResult<()> + Send),
    ) -> PyResult<()> {
        match self {
            Batch::Array(array) => {
                with_view!(array, view => view_chunks(py, board, view, |b, v, r| b.rows(v, r), each))
            }
            Batch::Layouts(layouts) => {
                for chunk in layouts.chunks(CHUNK) {
                    py.detach(|| each(chunk))?;
                    py.check_signals()?;
                }
                Ok(())
            }
        }
    }

    /// Every puzzle at once (for answers that take long a puzzle, whose layouts are small
    /// beside the work).
    pub(crate) fn layouts(self, py: Python<'_>, board: B) -> PyResult<Vec<B::Layout>> {
        match self {
            Batch::Layouts(layouts) => Ok(layouts),
            Batch::Array(_) => {
                let mut all = reserved(self.len(), "puzzles")?;
                self.each_chunk(py, board, &mut |chunk| {
                    all.extend_from_slice(chunk);
                    Ok(())
                })?;
                Ok(all)
            }
        }
    }
}

impl Batch<'_> {
    /// [`Batch::each_chunk`] with each puzzle as batch answers take it
    /// (`Goal::lockstep`): its packed form and its blank's cell, read from an array's rows
    /// without a layout made for each.
    pub(crate) fn each_start_chunk(
        &self,
        py: Python<'_>,
        board: Board,
        each: &mut (dyn FnMut(&[Start]) -> PyResult<()> + Send),
    ) -> PyResult<()> {
        match self {
            Batch::Array(array) => {
                with_view!(array, view => view_chunks(py, board, view, reader::read_starts, each))
            }
            Batch::Layouts(layouts) => {
                for chunk in layouts.chunks(CHUNK) {
                    let starts: Vec<Start> =
                        chunk.iter().map(|l| (l.packed(), l.blank())).collect();
                    py.detach(|| each(&starts))?;
                    py.check_signals()?;
                }
                Ok(())
            }
        }
    }
}

impl<'py, B: Reads> Given<'py, B> {
    /// One puzzle or many for `board`, from any of the shapes the module's text names.
    pub(crate) fn of(board: B, obj: &Bound<'py, PyAny>) -> PyResult<Given<'py, B>> {
        let obj = &rereadable(obj)?;
        if is_text(obj) {
            return Ok(Given::One(one(board, obj)?));
        }
        if let Ok(array) = obj.cast::<PyUntypedArray>() {
            return from_array(board, array);
        }
        if let Some(values) = frame_values(obj)? {
            if let Ok(array) = values.cast::<PyUntypedArray>() {
                text_beside_other_columns(array, obj.getattr("columns").ok().as_ref())?;
            }
            return Given::of(board, &values);
        }
        sequence(board, obj)
    }

    /// An integer answer to what was given, as every per-puzzle number is returned (a
    /// distance, an estimate): `one`'s as an `int` for one puzzle, `many`'s for each chunk
    /// of many, as one `int32` array in order.
    pub(crate) fn ints(
        self,
        py: Python<'py>,
        board: B,
        one: impl FnOnce(&B::Layout) -> PyResult<i64>,
        many: impl Fn(&[B::Layout]) -> PyResult<Vec<i32>> + Sync,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Given::One(layout) => Ok(one(&layout)?.into_pyobject(py)?.into_any()),
            Given::Many(batch) => {
                let mut answers = reserved::<i32>(batch.len(), "answers")?;
                batch.each_chunk(py, board, &mut |chunk| {
                    answers.extend(many(chunk)?);
                    Ok(())
                })?;
                Ok(PyArray1::from_vec(py, answers).into_any())
            }
        }
    }

    /// Every puzzle given, one or many, in order.
    pub(crate) fn layouts(self, py: Python<'_>, board: B) -> PyResult<Vec<B::Layout>> {
        match self {
            Given::One(layout) => Ok(vec![layout]),
            Given::Many(batch) => batch.layouts(py, board),
        }
    }
}

/// `obj` as it can be read more than once: an iterator's items (a generator's, a `map`'s, a
/// file's lines) in a list, read here once, since what it holds is seen from its first item
/// before it is read whole; anything else as it is. Every reader of what a call is given
/// ([`Given::of`], [`one`], [`size_of`]) takes it so, or its first puzzle is lost.
pub(crate) fn rereadable<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    ordered(obj, &String::new)?;
    if obj.cast::<PyIterator>().is_err() {
        return Ok(obj.clone());
    }
    let items = obj.try_iter()?.collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(obj.py(), items)?.into_any())
}

/// Refuses what has no order of its own: a set or a frozenset (a set of the tiles 0..8
/// iterates as 0 1 2 … 8, a puzzle nobody gave), a dict, its keys or items. `at` names the
/// row (made only for the message). A dict's values, in insertion order, are a sequence like
/// any other.
fn ordered(obj: &Bound<'_, PyAny>, at: &dyn Fn() -> String) -> PyResult<()> {
    // A list or a tuple first, in one look each: the rows of a batch of lists take this path.
    if obj.is_exact_instance_of::<PyList>() || obj.is_exact_instance_of::<PyTuple>() {
        return Ok(());
    }
    let unordered = obj.is_instance_of::<PySet>()
        || obj.is_instance_of::<PyFrozenSet>()
        || obj.is_instance_of::<PyDict>()
        || obj.is_instance_of::<PyDictKeys>()
        || obj.is_instance_of::<PyDictItems>();
    if !unordered {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "{}a {} has no order: give a puzzle's tiles in reading order, or puzzles, as a \
         list, a tuple or an array (a puzzle also as a string)",
        at(),
        type_name(obj)
    )))
}

/// Refuses a numpy masked array with a masked tile: the value under the mask is no tile
/// given. An array without one is read as its values. `at` names the row (made only for the
/// message).
fn unmasked(array: &Bound<'_, PyUntypedArray>, at: &dyn Fn() -> String) -> PyResult<()> {
    static NDARRAY: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static MASKED_ARRAY: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let py = array.py();
    // A plain array (each row of a list of arrays) in one comparison of types.
    if array.get_type().is(NDARRAY.import(py, "numpy", "ndarray")?)
        || !array.is_instance(MASKED_ARRAY.import(py, "numpy.ma", "MaskedArray")?)?
    {
        return Ok(());
    }
    let masked = py
        .import("numpy.ma")?
        .call_method1("is_masked", (array,))?
        .is_truthy()?;
    if masked {
        return Err(value_error(format!(
            "{}the array has masked tiles (numpy.ma): a masked tile is no tile given; fill \
             them (.filled(…)) or drop their rows",
            at()
        )));
    }
    Ok(())
}

/// What a sequence holds: one puzzle (its items are tiles, or rows of tiles that
/// [`reads_as_grid`]), or puzzles (its items are strings, puzzles or grids); nothing, for an
/// empty one.
fn sequence<'py, B: Reads>(board: B, obj: &Bound<'py, PyAny>) -> PyResult<Given<'py, B>> {
    match first_item(obj)? {
        None => Ok(Given::Many(Batch::Layouts(Vec::new()))),
        Some(first) if is_puzzle(&first) && !holds_grid(board, obj, &first)? => {
            Ok(Given::Many(Batch::Layouts(each_item(board, obj)?)))
        }
        Some(_) => Ok(Given::One(one(board, obj)?)),
    }
}

/// Whether a sequence whose first item is `first` is one puzzle's grid: its items are rows
/// of tiles ([`is_row`]; not grids) that [`reads_as_grid`].
fn holds_grid<B: Reads>(
    board: B,
    obj: &Bound<'_, PyAny>,
    first: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    if !is_row(first) {
        return Ok(false);
    }
    let rows_of_tiles = match first_item(first) {
        Ok(Some(tile)) => !is_puzzle(&tile),
        Ok(None) | Err(_) => false,
    };
    Ok(match (rows_of_tiles, obj.len(), first.len()) {
        (true, Ok(rows), Ok(cols)) => reads_as_grid(board, rows, cols),
        _ => false,
    })
}

/// Whether `rows` rows of `cols` values are one puzzle's grid rather than `rows` puzzles of
/// `cols` tiles: never when a row holds a whole puzzle (`cols` is the board's cells); always
/// when they have the board's shape, or a shape some board's grid has ([`grid_shaped`]: read
/// as a grid, refused for not being the board's, as rows of too few tiles would be).
fn reads_as_grid<B: Reads>(board: B, rows: usize, cols: usize) -> bool {
    cols != board.cells() && ((rows, cols) == board.grid() || grid_shaped(rows, cols))
}

/// Whether `rows` rows of `cols` tiles are shaped like a board's grid: at least 2 by 2, rows
/// and columns of at most 7 (the 2x7 and 7x2 boards'), at most 25 cells (the 5x5 board's).
pub(crate) fn grid_shaped(rows: usize, cols: usize) -> bool {
    (2..=7).contains(&rows) && (2..=7).contains(&cols) && rows * cols <= 25
}

/// `rows` rows of `cols` tiles, in words.
fn rows_of(rows: usize, cols: usize) -> String {
    format!("{rows} row{} of {cols}", if rows == 1 { "" } else { "s" })
}

/// The error for a grid of `rows` rows of `cols` tiles on `board` (of another shape).
fn grid_error<B: Reads>(board: B, what: &str, rows: usize, cols: usize) -> String {
    let (want_rows, want_cols) = board.grid();
    format!(
        "{what} of {} on a {board} board: expected {}",
        rows_of(rows, cols),
        rows_of(want_rows, want_cols)
    )
}

/// A batch of grids, shape (N, rows, cols), as the 2-D array of their puzzles, one a row (in
/// reading order, whatever the array's memory order); refused when its grids are not the
/// board's shape.
fn from_grids<'py, B: Reads>(
    board: B,
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Given<'py, B>> {
    let (count, rows, cols) = (array.shape()[0], array.shape()[1], array.shape()[2]);
    if (rows, cols) != board.grid() {
        return Err(value_error(grid_error(board, "grids", rows, cols)));
    }
    let rows = array
        .call_method1("reshape", ((count, board.cells()),))?
        .cast_into::<PyUntypedArray>()?;
    from_array(board, &rows)
}

/// What an array holds: one puzzle (1-D integers, or a 2-D grid that [`reads_as_grid`]),
/// many (2-D integers, one puzzle a row; 3-D, grids; 1-D strings or objects, each a puzzle).
fn from_array<'py, B: Reads>(
    board: B,
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Given<'py, B>> {
    unmasked(array, &String::new)?;
    text_beside_other_columns(array, None)?;
    if let Some(column) = column_of_strings(array)? {
        return from_array(board, &column);
    }
    let kind = array.dtype().kind();
    match (array.ndim(), kind) {
        (1, b'i' | b'u') => Ok(Given::One(one(board, array.as_any())?)),
        (2, b'i' | b'u' | b'O') if reads_as_grid(board, array.shape()[0], array.shape()[1]) => {
            Ok(Given::One(one(board, array.as_any())?))
        }
        (1, b'U' | b'S') | (2, b'O') => Ok(Given::Many(Batch::Layouts(each_item(
            board,
            array.as_any(),
        )?))),
        (1, b'O') => sequence(board, array.as_any()),
        (2, b'i' | b'u') => match Array::of(&in_native_order(array)?)? {
            Some(typed) => Ok(Given::Many(Batch::Array(typed))),
            None => Err(not_integers(array)),
        },
        (3, b'i' | b'u' | b'O') => from_grids(board, array),
        (1..=3, _) => Err(not_integers(array)),
        (n, _) => Err(value_error(format!(
            "puzzles are a 1-D array (one puzzle), a 2-D array (one puzzle a row, or one \
             puzzle's grid) or a 3-D array (grids), not an array of {n} dimensions"
        ))),
    }
}

/// The one column of a 2-D array of strings (a pandas frame's `df[["puzzle"]]`, numpy's
/// `[["…"], ["…"]]`), as a 1-D array: each cell a puzzle, as in the column's Series. A column
/// of integers is left as it is (rows of one tile, refused as such, never one puzzle).
fn column_of_strings<'py>(
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Option<Bound<'py, PyUntypedArray>>> {
    if array.ndim() != 2 || array.shape()[1] != 1 {
        return Ok(None);
    }
    let strings = match array.dtype().kind() {
        b'U' | b'S' => true,
        b'O' => first_item(array.as_any())?
            .and_then(|row| first_item(&row).ok().flatten())
            .is_some_and(|cell| is_text(&cell)),
        _ => false,
    };
    if !strings {
        return Ok(None);
    }
    Ok(Some(
        array.call_method0("ravel")?.cast_into::<PyUntypedArray>()?,
    ))
}

/// Refuses a 2-D array of objects (a frame's values) whose first row holds text beside
/// other values (an id, a label): puzzles as text are one column, given alone, named from
/// the frame's `columns` when there are some. Its 2 rows of 2 were read as a grid.
fn text_beside_other_columns(
    array: &Bound<'_, PyUntypedArray>,
    columns: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    if array.ndim() != 2 || array.shape()[1] < 2 || array.dtype().kind() != b'O' {
        return Ok(());
    }
    let Some(row) = first_item(array.as_any())? else {
        return Ok(());
    };
    let cells = row.try_iter()?.collect::<PyResult<Vec<_>>>()?;
    let Some(at) = cells.iter().position(is_text) else {
        return Ok(());
    };
    if cells.iter().all(is_text) {
        return Ok(());
    }
    let (what, column) = match columns.and_then(|c| c.get_item(at).ok()) {
        Some(name) => ("a frame", format!("df[{}]", name.repr()?)),
        None => ("an array", format!("array[:, {at}]")),
    };
    Err(value_error(format!(
        "{what} of {} columns holds text beside other values: puzzles as text are one \
         column, given alone ({column})",
        array.shape()[1]
    )))
}

/// `array` with its values in the machine's byte order: a native copy of an array that holds
/// them the other way round (read from a file written elsewhere: `np.fromfile(f, ">i4")`,
/// FITS, HDF5), which numpy's integer types do not match; any other array as it is.
fn in_native_order<'py>(
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let dtype = array.dtype();
    if dtype.is_native_byteorder() != Some(false) {
        return Ok(array.clone());
    }
    let native = dtype.call_method1("newbyteorder", ("=",))?;
    Ok(array
        .call_method1("astype", (native,))?
        .cast_into::<PyUntypedArray>()?)
}

/// The error for an array of another dtype than integers.
fn not_integers(array: &Bound<'_, PyUntypedArray>) -> PyErr {
    let dtype = array.dtype();
    let advice = if dtype.kind() == b'f' {
        ": tiles are whole numbers; convert whole-valued floats with .astype(int)"
    } else {
        ""
    };
    PyTypeError::new_err(format!(
        "puzzles are an array of integers, not of {dtype} ({} dimension{}){advice}",
        array.ndim(),
        if array.ndim() == 1 { "" } else { "s" }
    ))
}

/// The values of a pandas DataFrame or Series (anything else with `to_numpy`): its cells,
/// never its labels.
fn frame_values<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    if !obj.hasattr("to_numpy")? {
        return Ok(None);
    }
    let values = obj.call_method0("to_numpy")?;
    if values.cast::<PyUntypedArray>().is_err() {
        return Ok(None);
    }
    Ok(Some(values))
}

/// The first item of a sequence; `None` when it is empty; `TypeError` when `obj` is no
/// sequence.
fn first_item<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let mut items = obj.try_iter().map_err(|_| not_a_puzzle(obj))?;
    items.next().transpose()
}

/// Whether an item of a sequence is a puzzle of its own (text, or a sequence), rather than a
/// tile.
fn is_puzzle(item: &Bound<'_, PyAny>) -> bool {
    is_text(item) || item.try_iter().is_ok()
}

/// Whether the first item of a sequence may be the first row of a grid: a sequence that is
/// neither text nor an iterator (a puzzle of its own, never looked into: its first tile
/// would be lost).
fn is_row(item: &Bound<'_, PyAny>) -> bool {
    !is_text(item) && item.cast::<PyIterator>().is_err() && item.try_iter().is_ok()
}

/// Whether `obj` is a puzzle's text: a `str`, `bytes`, a `bytearray`, or a `memoryview` of
/// bytes or a bytearray (a `memoryview` of anything else, an `array.array` or a numpy
/// array, holds integers).
fn is_text(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || viewed_text(obj).is_some()
}

/// The `bytes` or `bytearray` a `memoryview` shows; `None` for anything else.
fn viewed_text<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if !obj.is_instance_of::<PyMemoryView>() {
        return None;
    }
    obj.getattr("obj")
        .ok()
        .filter(|o| o.is_instance_of::<PyBytes>() || o.is_instance_of::<PyByteArray>())
}

/// The bytes of a puzzle's text ([`is_text`]); `None` for anything else.
fn text<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Option<Cow<'a, [u8]>>> {
    if let Ok(text) = obj.cast::<PyString>() {
        return Ok(Some(match text.to_cow()? {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }));
    }
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return Ok(Some(Cow::Borrowed(bytes.as_bytes())));
    }
    if let Ok(bytes) = obj.cast::<PyByteArray>() {
        return Ok(Some(Cow::Owned(bytes.to_vec())));
    }
    if viewed_text(obj).is_some() {
        let bytes = obj.call_method0("tobytes")?;
        return Ok(Some(Cow::Owned(
            bytes.cast::<PyBytes>()?.as_bytes().to_vec(),
        )));
    }
    Ok(None)
}

/// The puzzles of a sequence whose items are puzzles, in order; a bad one is named by its
/// row.
fn each_item<B: Reads>(board: B, obj: &Bound<'_, PyAny>) -> PyResult<Vec<B::Layout>> {
    let mut layouts = reserved(obj.len().unwrap_or(0), "puzzles")?;
    for (row, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        let layout = one_at(board, &item, Some(row)).map_err(|e| {
            // `list("813402765")`: each character a puzzle of one tile.
            match text(&item) {
                Ok(Some(t)) if t.trim_ascii().len() == 1 => with_advice(
                    item.py(),
                    e,
                    "a list of strings is many puzzles, a string each: give one puzzle as one \
                     string (\"813402765\") or as integers",
                ),
                _ => e,
            }
        })?;
        layouts.push(layout);
    }
    Ok(layouts)
}

/// A string's (or bytes') puzzle text: a byte-order mark before it skipped, as the command
/// skips one before its input (a line of a file Notepad saved, read by `open()`).
fn text_of(bytes: &[u8]) -> &[u8] {
    lines::without_byte_order_mark(bytes)
}

/// `error` (of the same type) with `advice` after its message, in parentheses.
fn with_advice(py: Python<'_>, error: PyErr, advice: &str) -> PyErr {
    let message = error.value(py).to_string();
    let advised = format!("{message} ({advice})");
    if error.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(advised)
    } else {
        value_error(advised)
    }
}

fn not_a_puzzle(obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "a puzzle is a string (\"1 2 3 4 5 6 7 8 0\") or a sequence of integers, and puzzles \
         are an array-like of them, not {}",
        type_name(obj)
    ))
}

/// One puzzle for `board`: text as the command line reads a line, a sequence of integers (a
/// list, a tuple, a 1-D array, a Series) with 0 for the blank, or a grid of the board's
/// shape (a 2-D array, a sequence of rows), read in reading order.
pub(crate) fn one<B: Reads>(board: B, obj: &Bound<'_, PyAny>) -> PyResult<B::Layout> {
    one_at(board, obj, None)
}

/// [`one`], for row `row` of a batch when it is one (named in the message).
fn one_at<B: Reads>(board: B, obj: &Bound<'_, PyAny>, row: Option<usize>) -> PyResult<B::Layout> {
    let at = || row.map(|r| format!("row {r}: ")).unwrap_or_default();
    let refuse = |e: PuzzleError| value_error(format!("{}{}", at(), message(&e)));
    if let Some(text) = text(obj)? {
        return board.line(text_of(&text)).map_err(|e| {
            let puzzles = text.split(|&b| b == b'\n');
            match puzzles.filter(|l| !is_blank_or_comment(l)).count() {
                // A file's text read whole: one puzzle a line was meant.
                2.. => with_advice(
                    obj.py(),
                    refuse(e),
                    "a string is one puzzle: for one a line, give a list of lines \
                     (text.splitlines())",
                ),
                _ => refuse(e),
            }
        });
    }
    ordered(obj, &at)?;
    let mut obj = match frame_values(obj)? {
        Some(values) => values,
        None => rereadable(obj)?,
    };
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        unmasked(array, &at)?;
        if !matches!(array.dtype().kind(), b'i' | b'u' | b'O') {
            return Err(not_integers(array));
        }
        match *array.shape() {
            [_] => {}
            [rows, cols] if (rows, cols) == board.grid() => obj = array.call_method0("ravel")?,
            [rows, cols] => {
                return Err(value_error(format!(
                    "{}{}",
                    at(),
                    grid_error(board, "a grid", rows, cols)
                )))
            }
            _ => {
                let (rows, cols) = board.grid();
                return Err(value_error(format!(
                    "{}one puzzle is a 1-D array of {} tiles or a grid of {}, not an array \
                     of {} dimensions",
                    at(),
                    board.cells(),
                    rows_of(rows, cols),
                    array.ndim()
                )));
            }
        }
    }
    let values = items(&obj, board, &at, true)?;
    board.values(&values).map_err(refuse)
}

/// The tiles of a grid given as a sequence of rows (each any sequence of integers, an
/// iterator too), in reading order; refused unless it has the board's shape.
fn grid_values<B: Reads>(
    obj: &Bound<'_, PyAny>,
    board: B,
    at: &dyn Fn() -> String,
) -> PyResult<Vec<i128>> {
    let rows = obj
        .try_iter()?
        .map(|row| items(&row?, board, at, false))
        .collect::<PyResult<Vec<_>>>()?;
    let (want_rows, want_cols) = board.grid();
    let cols = rows.first().map_or(0, Vec::len);
    if (rows.len(), cols) != (want_rows, want_cols) {
        return Err(value_error(format!(
            "{}{}",
            at(),
            grid_error(board, "a grid", rows.len(), cols)
        )));
    }
    let mut values = Vec::with_capacity(board.cells());
    for (r, tiles) in rows.into_iter().enumerate() {
        if tiles.len() != want_cols {
            return Err(value_error(format!(
                "{}row {r} of the grid has {} tiles on a {board} board: expected {}",
                at(),
                tiles.len(),
                rows_of(want_rows, want_cols)
            )));
        }
        values.extend(tiles);
    }
    Ok(values)
}

/// The integers of a sequence, each as given (a `uint64`, a Python integer of any size up to
/// 128 bits); a non-integer is a `TypeError`, a larger integer a `ValueError`. With `grid`, a
/// sequence whose first item is a row of tiles is a grid, read by [`grid_values`] (seen from
/// that item, so a puzzle of tiles costs no look ahead). `obj` is read again then: it is
/// given as [`rereadable`] makes it.
fn items<B: Reads>(
    obj: &Bound<'_, PyAny>,
    board: B,
    at: &dyn Fn() -> String,
    grid: bool,
) -> PyResult<Vec<i128>> {
    ordered(obj, at)?;
    let items = obj.try_iter().map_err(|_| not_a_puzzle(obj))?;
    let mut values = Vec::with_capacity(board.cells());
    for item in items {
        let item = item?;
        match item.extract::<i128>() {
            Ok(v) => values.push(v),
            Err(_) if grid && values.is_empty() && is_row(&item) => {
                return grid_values(obj, board, at);
            }
            Err(e) if e.is_instance_of::<PyOverflowError>(item.py()) => {
                return Err(value_error(format!(
                    "{}tile {item} is not on a {board} board (tiles are 1..{}, the blank is 0)",
                    at(),
                    board.cells() - 1
                )));
            }
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "{}a tile is an integer, not {} ({})",
                    at(),
                    type_name(&item),
                    item.repr().map(|r| r.to_string()).unwrap_or_default()
                )));
            }
        }
    }
    Ok(values)
}

/// The library's error in Python's words: its message, then for a puzzle of another size the
/// boards it fits and what answers them.
pub(crate) fn message(error: &PuzzleError) -> String {
    let (PuzzleError::TileCount { found, .. }, Some(hint)) = (error, error.board_hint()) else {
        return error.to_string();
    };
    let names = |boards: &[Board]| -> (String, String) {
        let names: Vec<String> = boards.iter().map(Board::to_string).collect();
        (one_of(&names), names[0].clone())
    };
    match hint {
        BoardHint::Table(boards) => {
            let (fits, first) = names(&boards);
            format!(
                "{error}: {found} tiles fit a {fits} board (slidetable.Table.default(\"{first}\"))"
            )
        }
        BoardHint::Fifteen => {
            format!("{error}: 16 tiles are the 15-puzzle (slidetable.Fifteen answers it)")
        }
        BoardHint::Search(boards) => {
            let (fits, first) = names(&boards);
            format!(
                "{error}: {found} tiles fit a {fits} board, beyond the tables' \
                 {MAX_TABLE_CELLS} cells: slidetable.search(puzzle, board=\"{first}\") solves it"
            )
        }
        _ => error.to_string(),
    }
}

/// A bad row of an array, as Python raises it.
fn row_error(e: RowError) -> PyErr {
    value_error(format!("row {}: {}", e.row, message(&e.error)))
}

/// What the shape of `puzzles` says of their board, when none is given.
pub(crate) enum Size {
    /// Puzzles of this many tiles: text, a sequence of integers, a 1-D array, strings.
    Tiles(usize),
    /// This many rows of this many tiles: a 2-D array, a sequence of rows. Many puzzles, or
    /// one puzzle's grid.
    Rows(usize, usize),
    /// Grids of this many rows of this many tiles: a 3-D array, a sequence of grids.
    Grids(usize, usize),
}

/// The [`Size`] of `puzzles` (to name their board when none is given): the tiles of text, of
/// a sequence of integers or of the first puzzle of strings; the shape of a 2-D or 3-D array,
/// or of a sequence of rows or grids. `puzzles` is read again afterwards: an iterator is
/// given as [`rereadable`] makes it.
pub(crate) fn size_of(puzzles: &Bound<'_, PyAny>) -> PyResult<Size> {
    if let Some(text) = text(puzzles)? {
        return Ok(Size::Tiles(reader::tile_count(text_of(&text)).unwrap_or(0)));
    }
    if let Ok(array) = puzzles.cast::<PyUntypedArray>() {
        if let Some(column) = column_of_strings(array)? {
            return size_of(column.as_any());
        }
        let objects = matches!(array.dtype().kind(), b'U' | b'S' | b'O');
        match *array.shape() {
            // Strings or objects: each item a puzzle, sized as a sequence's are below.
            [_] if objects => {}
            [rows, cols] => return Ok(Size::Rows(rows, cols)),
            [_, rows, cols] => return Ok(Size::Grids(rows, cols)),
            ref shape => return Ok(Size::Tiles(shape.last().copied().unwrap_or(0))),
        }
    }
    if let Some(values) = frame_values(puzzles)? {
        return size_of(&values);
    }
    Ok(match first_item(puzzles)? {
        Some(first) if is_text(&first) => size_of(&first)?,
        Some(first) if is_puzzle(&first) => match size_of(&first)? {
            Size::Tiles(tiles) => Size::Rows(puzzles.len()?, tiles),
            Size::Rows(rows, cols) | Size::Grids(rows, cols) => Size::Grids(rows, cols),
        },
        _ => Size::Tiles(puzzles.len()?),
    })
}

/// The goal of a board that a name stands for.
type GoalOf = fn(Board) -> Layout;

/// The goals a name stands for: `"standard"` (tiles in order, the blank last) and `"korf"`
/// (the blank first, as in Korf's 100 instances of the 15-puzzle).
const NAMED_GOALS: [(&str, GoalOf); 2] = [
    ("standard", |board| board.standard_goal()),
    ("korf", |board| board.goal_with_blank(0)),
];

/// A goal argument for `board` (`None`: the caller's default): a name of
/// [`NAMED_GOALS`], or a puzzle; errors as for a puzzle, saying it is the goal.
pub(crate) fn goal(board: Board, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Layout>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        let word = text.trim().to_ascii_lowercase();
        if let Some((_, make)) = NAMED_GOALS.iter().find(|(name, _)| *name == word) {
            return Ok(Some(make(board)));
        }
    }
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

/// For a puzzle that cannot reach `goal` (the other parity class): a `UserWarning` naming
/// the named goal it does reach, so that `None` is not read as "no goal is reachable".
pub(crate) fn warn_other_goal(py: Python<'_>, layout: &Layout, goal: &Layout) -> PyResult<()> {
    let board = layout.board();
    let Some((name, reached)) = NAMED_GOALS
        .iter()
        .map(|(name, make)| (name, make(board)))
        .find(|(_, g)| g != goal && layout.can_reach(g))
    else {
        return Ok(());
    };
    let note = format!(
        "{layout} cannot reach the goal {goal} (the other parity class); it reaches \
         goal=\"{name}\" ({reached})"
    );
    let note = std::ffi::CString::new(note).unwrap_or_default();
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    PyErr::warn(py, &category, &note, 1)
}

/// A 2-D `uint8` array of `layouts`, one per row.
pub(crate) fn to_array<'py>(
    py: Python<'py>,
    board: Board,
    layouts: &[Layout],
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let n = board.cells();
    let mut cells = reserved(layouts.len().saturating_mul(n), "tiles")?;
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

/// A 1-D object array of optional strings (`None` where there is none).
pub(crate) fn object_array(
    py: Python<'_>,
    items: Vec<Option<String>>,
) -> PyResult<Bound<'_, PyAny>> {
    let objects = items
        .into_iter()
        .map(|item| Ok(item.into_pyobject(py)?.into_any().unbind()))
        .collect::<PyResult<Vec<Py<PyAny>>>>()?;
    Ok(PyArray1::from_vec(py, objects).into_any())
}
