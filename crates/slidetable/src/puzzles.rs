//! Puzzles as front ends are given them — a line of text, a sequence of integers, the rows of
//! a 2-D integer array in any memory order — read into layouts by one set of rules, with one
//! error ([`PuzzleError`]) that says what is wrong and, for a puzzle of another size, which
//! boards it fits ([`PuzzleError::board_hint`]), so that each front end words its own advice
//! (`--board 2x4`, `Table.default("2x4")`) without reading the message.
//!
//! ```
//! use slidetable::puzzles::{self, BoardHint, Strided};
//! use slidetable::Board;
//!
//! let board = Board::EIGHT;
//! assert_eq!(puzzles::parse_line(board, b"2 3 4 1 5 x 7 6 8").unwrap().to_string(), "2 3 4 1 5 0 7 6 8");
//!
//! // Eight tiles: not this board's puzzle, but a 2x4's.
//! let wrong = puzzles::parse_line(board, b"1 2 3 4 5 6 7 0").unwrap_err();
//! assert_eq!(wrong.to_string(), "expected 9 tiles, found 8");
//! let Some(BoardHint::Table(boards)) = wrong.board_hint() else { panic!() };
//! assert_eq!(boards[0].to_string(), "2x4");
//!
//! // Two puzzles stored column by column (a transposed array): `1 2 … 8 0` and `2 3 4 1 5 0 7 6 8`.
//! let flat = [1u16, 2, 2, 3, 3, 4, 4, 1, 5, 5, 6, 0, 7, 7, 8, 6, 0, 8];
//! let rows = Strided::new(&flat, 0, [2, 9], [1, 2]).unwrap();
//! let layouts = puzzles::read_rows(board, &rows, 0..2).unwrap();
//! assert_eq!(layouts[1].to_string(), "2 3 4 1 5 0 7 6 8");
//! ```

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use slidetable_core::{
    parse_layout, shapes_of, Board, Layout, Layout25, Layout25Error, LayoutError, ParseError,
    MAX_CELLS, MAX_TABLE_CELLS,
};

/// Why what was given is not a puzzle of the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// Another number of tiles than the board has cells: maybe a puzzle of another board
    /// ([`PuzzleError::board_hint`] names them).
    #[error("expected {expected} tiles, found {found}", expected = board.cells())]
    TileCount {
        /// The board the puzzle was read for.
        board: Board,
        /// The tiles the puzzle holds.
        found: usize,
    },
    /// Anything else, in the parser's words: a token or a value that is no tile, a tile
    /// twice.
    #[error(transparent)]
    Tiles(ParseError),
    /// Not a puzzle of a board past 16 cells (the 24-puzzle's, [`Board25`]), in its
    /// parser's words: another count of tiles, a token or a value that is no tile, a tile
    /// twice.
    #[error(transparent)]
    Tiles25(Layout25Error),
}

/// A board of up to 25 cells whose puzzles are [`Layout25`]s: the 24-puzzle's 5×5, read by
/// [`parse_line25`], [`layout25_of`] and [`read_rows25`] under the same rules as the boards
/// of up to 16 cells (any integer type, any memory order, the first bad row named).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board25 {
    rows: usize,
    cols: usize,
}

impl Board25 {
    /// The 24-puzzle's board.
    pub const TWENTY_FOUR: Board25 = Board25 { rows: 5, cols: 5 };

    /// Its cells.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// Its rows.
    pub fn rows(self) -> usize {
        self.rows
    }

    /// Its columns.
    pub fn cols(self) -> usize {
        self.cols
    }

    /// The board of `layout`.
    pub fn of(layout: &Layout25) -> Board25 {
        Board25 {
            rows: layout.rows(),
            cols: layout.cols(),
        }
    }
}

impl std::fmt::Display for Board25 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// One puzzle line for `board` (up to 25 cells): tile numbers separated by spaces, tabs or
/// commas, the blank `0`, `x` or `_` ([`Layout25::parse`]).
pub fn parse_line25(board: Board25, line: &[u8]) -> Result<Layout25, PuzzleError> {
    Layout25::parse_bytes(board.rows, board.cols, line).map_err(PuzzleError::Tiles25)
}

/// One puzzle of `board` (up to 25 cells) given as integers, one a cell in reading order, 0
/// the blank, each checked as given (a value off the board, negative or past `u64` too, is
/// named as itself, as on the smaller boards).
pub fn layout25_of<T: Copy + Into<i128>>(
    board: Board25,
    values: &[T],
) -> Result<Layout25, PuzzleError> {
    layout25_from(board, values.len(), |cell| values[cell].into())
}

/// The layout of `len` values, `value(cell)` each, on a board of up to 25 cells.
fn layout25_from(
    board: Board25,
    len: usize,
    value: impl Fn(usize) -> i128,
) -> Result<Layout25, PuzzleError> {
    let n = board.cells();
    if len != n {
        return Err(PuzzleError::Tiles25(Layout25Error::WrongCount {
            expected: n,
            found: len,
        }));
    }
    let mut tiles = [0u8; slidetable_core::MAX_CELLS_25];
    for (cell, slot) in tiles.iter_mut().enumerate().take(n) {
        let v = value(cell);
        *slot = match u8::try_from(v) {
            Ok(t) if usize::from(t) < n => t,
            _ => {
                return Err(PuzzleError::Tiles25(Layout25Error::OutOfRange {
                    tile: v,
                    rows: board.rows,
                    cols: board.cols,
                }))
            }
        };
    }
    Layout25::new(board.rows, board.cols, &tiles[..n]).map_err(PuzzleError::Tiles25)
}

/// [`read_rows`] for a board of up to 25 cells: the layouts of rows `range` of `rows`, read
/// on every core, the first bad row in row order named.
pub fn read_rows25<R: Rows + ?Sized>(
    board: Board25,
    rows: &R,
    range: Range<usize>,
) -> Result<Vec<Layout25>, RowError> {
    let width = rows.width();
    let placeholder = Layout25::goal_with_blank(board.rows, board.cols, 0);
    let wrong_width = PuzzleError::Tiles25(Layout25Error::WrongCount {
        expected: board.cells(),
        found: width,
    });
    let Some(placeholder) = placeholder else {
        return Err(RowError {
            row: range.start,
            error: wrong_width,
        });
    };
    read_each(
        board.cells(),
        &wrong_width,
        rows,
        range,
        placeholder,
        |row| layout25_from(board, width, |col| rows.value(row, col).into()),
    )
}

/// The boards a puzzle of another tile count fits, for a front end to word as its advice.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardHint {
    /// Boards whose every state a table holds (at most [`MAX_TABLE_CELLS`] cells), the
    /// squarest first (3x4 before 2x6).
    Table(Vec<Board>),
    /// The 15-puzzle (4×4), answered by IDA* on pattern databases.
    Fifteen,
    /// Boards beyond the tables (at most [`MAX_CELLS`] cells), answered by search alone, the
    /// squarest first.
    Search(Vec<Board>),
}

impl PuzzleError {
    /// The error `parse` found reading a puzzle for `board`, a count of tiles said as one.
    fn from_parse(board: Board, parse: ParseError) -> PuzzleError {
        match parse {
            ParseError::Layout(LayoutError::WrongCount { found, .. }) => {
                PuzzleError::TileCount { board, found }
            }
            other => PuzzleError::Tiles(other),
        }
    }

    /// The boards a puzzle of this error's tile count fits; `None` when the error is not a
    /// count, or no board has that many cells (fewer than 4, a prime, more than 16).
    pub fn board_hint(&self) -> Option<BoardHint> {
        let found = match *self {
            PuzzleError::TileCount { found, .. } => found,
            PuzzleError::Tiles25(Layout25Error::WrongCount { found, .. }) => found,
            _ => return None,
        };
        if found > MAX_CELLS {
            return None;
        }
        let boards: Vec<Board> = shapes_of(found)
            .iter()
            .filter_map(|name| name.parse().ok())
            .collect();
        if boards.is_empty() {
            None
        } else if found <= MAX_TABLE_CELLS {
            Some(BoardHint::Table(boards))
        } else if found == Board::FIFTEEN.cells() {
            Some(BoardHint::Fifteen)
        } else {
            Some(BoardHint::Search(boards))
        }
    }
}

/// One puzzle line for `board`, as every front end reads text (`2 3 4 1 5 x 7 6 8`,
/// `23415x768`, commas; see [`parse_layout`]). A line whose tokens are all tiles but of
/// another count is a [`PuzzleError::TileCount`] even when a tile is out of range too (`1 2 …
/// 11 0` on a 3×3 board holds 12 tiles: a 3×4 puzzle); fewer than 4 tiles fit no board, and
/// the parser's own error is kept.
#[inline]
pub fn parse_line(board: Board, line: &[u8]) -> Result<Layout, PuzzleError> {
    parse_layout(board, line).map_err(|e| line_error(board, line, e))
}

#[cold]
fn line_error(board: Board, line: &[u8], parse: ParseError) -> PuzzleError {
    match tile_count(line) {
        Some(found) if found != board.cells() && found >= 4 => {
            PuzzleError::TileCount { board, found }
        }
        _ => PuzzleError::from_parse(board, parse),
    }
}

/// The tiles a line spells, if every token is a tile (digits, or `x` for the blank): its
/// tokens (separated by spaces, tabs or commas), or the characters of a single token (the
/// count that names a puzzle's board when none is given).
pub fn tile_count(line: &[u8]) -> Option<usize> {
    let tokens: Vec<&[u8]> = line
        .split(|&b| matches!(b, b' ' | b'\t' | b',' | b'\r' | b'\n'))
        .filter(|t| !t.is_empty())
        .collect();
    let tile = |b: &u8| b.is_ascii_digit() || matches!(b, b'x' | b'X');
    match tokens[..] {
        [one] => one.iter().all(tile).then_some(one.len()),
        _ => tokens
            .iter()
            .all(|t| t.iter().all(tile))
            .then_some(tokens.len()),
    }
}

/// One puzzle given as integers, one a cell in reading order, 0 the blank: any integer type
/// up to 64 bits (and `i128`), every value checked as given (a `u64` maximum is named as
/// itself, not as a smaller number).
pub fn layout_of<T: Copy + Into<i128>>(board: Board, values: &[T]) -> Result<Layout, PuzzleError> {
    layout_from(board, values.len(), |cell| values[cell].into())
}

/// The layout of `len` values, `value(cell)` each.
#[inline]
fn layout_from(
    board: Board,
    len: usize,
    value: impl Fn(usize) -> i128,
) -> Result<Layout, PuzzleError> {
    let n = board.cells();
    if len != n {
        return Err(PuzzleError::TileCount { board, found: len });
    }
    let mut tiles = [0u8; MAX_CELLS];
    for (cell, slot) in tiles.iter_mut().enumerate().take(n) {
        let v = value(cell);
        match u8::try_from(v) {
            Ok(t) if usize::from(t) < n => *slot = t,
            _ => {
                let e = LayoutError::OutOfRange { tile: v, board };
                return Err(PuzzleError::Tiles(e.into()));
            }
        }
    }
    Layout::new(board, &tiles[..n]).map_err(|e| PuzzleError::from_parse(board, e.into()))
}

/// Puzzles held as the rows of a 2-D array of integers, one puzzle a row: read by
/// [`read_rows`] on every core. [`Strided`] is one over a slice; a front end implements it
/// over its own arrays (numpy's, through their views), so that their strides and memory
/// order are honoured by indexing, never by assuming an order.
pub trait Rows: Sync {
    /// The integer type of the values.
    type Value: Copy + Into<i128>;
    /// How many rows (puzzles).
    fn rows(&self) -> usize;
    /// How many values a row holds (the tiles of each puzzle).
    fn width(&self) -> usize;
    /// The value at `row`, `col` (both within bounds).
    fn value(&self, row: usize, col: usize) -> Self::Value;
}

/// A puzzle of [`Rows`] that is none, and which row it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("row {row}: {error}")]
pub struct RowError {
    /// The row (from 0), the first bad one in row order.
    pub row: usize,
    /// What is wrong with it.
    pub error: PuzzleError,
}

/// The layouts of rows `range` of `rows` (clipped to the rows there are), in row order, read
/// on every core; the first bad row in row order, whichever thread finds it. Rows of another
/// width than the board's cells are all wrong: the first is named.
pub fn read_rows<R: Rows + ?Sized>(
    board: Board,
    rows: &R,
    range: Range<usize>,
) -> Result<Vec<Layout>, RowError> {
    let width = rows.width();
    let goal = board.standard_goal();
    let wrong_width = PuzzleError::TileCount {
        board,
        found: width,
    };
    read_each(board.cells(), &wrong_width, rows, range, goal, |row| {
        layout_from(board, width, |col| rows.value(row, col).into())
    })
}

/// Rows `range` of `rows` as batch answers take them (`Goal::lockstep`): each puzzle's
/// [`Layout::packed`] form and its blank's cell, read on every core and checked as
/// [`read_rows`] checks them (the same errors, the same row named), without a [`Layout`]
/// made for a good row.
pub fn read_starts<R: Rows + ?Sized>(
    board: Board,
    rows: &R,
    range: Range<usize>,
) -> Result<Vec<(u64, usize)>, RowError> {
    let width = rows.width();
    let goal = board.standard_goal();
    let placeholder = (goal.packed(), goal.blank());
    let wrong_width = PuzzleError::TileCount {
        board,
        found: width,
    };
    read_each(
        board.cells(),
        &wrong_width,
        rows,
        range,
        placeholder,
        |row| start_from(board, width, |col| rows.value(row, col).into()),
    )
}

/// What [`read_rows`], [`read_starts`] and [`read_rows25`] share: `read` of each row of
/// `range` (clipped), in row order, on every core, rows of another width than `cells` all
/// `wrong_width`; `placeholder` stands in for a bad row until the first one in row order is
/// named.
fn read_each<R: Rows + ?Sized, T: Copy + Send + Sync>(
    cells: usize,
    wrong_width: &PuzzleError,
    rows: &R,
    range: Range<usize>,
    placeholder: T,
    read: impl Fn(usize) -> Result<T, PuzzleError> + Sync,
) -> Result<Vec<T>, RowError> {
    let range = range.start.min(rows.rows())..range.end.min(rows.rows());
    let width = rows.width();
    if range.is_empty() {
        return Ok(Vec::new());
    }
    if width != cells {
        return Err(RowError {
            row: range.start,
            error: wrong_width.clone(),
        });
    }
    let first_bad = AtomicUsize::new(usize::MAX);
    let read_all: Vec<T> = range
        .clone()
        .into_par_iter()
        .map(|row| {
            read(row).unwrap_or_else(|_| {
                first_bad.fetch_min(row, Ordering::Relaxed);
                placeholder
            })
        })
        .collect();
    match first_bad.into_inner() {
        usize::MAX => Ok(read_all),
        row => Err(RowError {
            row,
            error: read(row).err().unwrap_or_else(|| wrong_width.clone()),
        }),
    }
}

/// The packed form and blank of `len` values, `value(cell)` each: a permutation of the
/// board's tiles packed as it is read, with no branch a cell (every value below the cell
/// count and as many different ones as cells); anything else is named by [`layout_from`].
#[inline]
fn start_from(
    board: Board,
    len: usize,
    value: impl Fn(usize) -> i128,
) -> Result<(u64, usize), PuzzleError> {
    let n = board.cells();
    if len == n {
        let (mut packed, mut seen, mut blank, mut fits) = (0u64, 0u32, 0usize, true);
        for cell in 0..n {
            let v = value(cell);
            fits &= (0..n as i128).contains(&v);
            let tile = (v as u64) & 0xF;
            packed |= tile << (4 * cell);
            seen |= 1 << tile;
            blank += cell * usize::from(v == 0);
        }
        if fits && seen.count_ones() as usize == n {
            return Ok((packed, blank));
        }
    }
    layout_from(board, len, value).map(|layout| (layout.packed(), layout.blank()))
}

/// Rows over a slice of values, wherever they lie: row `r`, column `c` is
/// `values[first + r·strides[0] + c·strides[1]]` (strides in values, negative for a reversed
/// axis): row order (`[cols, 1]`), column order (`[1, rows]`, a transposed array), every
/// other row, a reversed column.
#[derive(Debug, Clone, Copy)]
pub struct Strided<'a, T> {
    values: &'a [T],
    first: usize,
    shape: [usize; 2],
    strides: [isize; 2],
}

impl<'a, T> Strided<'a, T> {
    /// `shape[0]` rows of `shape[1]` values each, laid in `values` as `first` and `strides`
    /// say; `None` when one of them would lie outside `values`.
    pub fn new(
        values: &'a [T],
        first: usize,
        shape: [usize; 2],
        strides: [isize; 2],
    ) -> Option<Strided<'a, T>> {
        if shape[0] > 0 && shape[1] > 0 {
            // The farthest value each way along each axis: the corners bound every index.
            let mut low = i128::try_from(first).ok()?;
            let mut high = low;
            for (len, stride) in shape.iter().zip(strides) {
                let reach = (*len as i128 - 1) * stride as i128;
                if reach < 0 {
                    low += reach;
                } else {
                    high += reach;
                }
            }
            if low < 0 || high >= values.len() as i128 {
                return None;
            }
        }
        Some(Strided {
            values,
            first,
            shape,
            strides,
        })
    }

    /// Rows of `width` values one after another (row order), as a flat buffer holds them.
    pub fn row_order(values: &'a [T], width: usize) -> Option<Strided<'a, T>> {
        let rows = values.len().checked_div(width).unwrap_or(0);
        if rows * width != values.len() {
            return None;
        }
        Strided::new(values, 0, [rows, width], [width as isize, 1])
    }
}

impl<T: Copy + Into<i128> + Sync> Rows for Strided<'_, T> {
    type Value = T;

    fn rows(&self) -> usize {
        self.shape[0]
    }

    fn width(&self) -> usize {
        self.shape[1]
    }

    #[inline]
    fn value(&self, row: usize, col: usize) -> T {
        let at =
            self.first as isize + row as isize * self.strides[0] + col as isize * self.strides[1];
        self.values[at as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hint_boards(hint: Option<BoardHint>) -> Option<(char, Vec<String>)> {
        hint.map(|h| match h {
            BoardHint::Table(b) => ('t', b.iter().map(Board::to_string).collect()),
            BoardHint::Fifteen => ('f', Vec::new()),
            BoardHint::Search(b) => ('s', b.iter().map(Board::to_string).collect()),
        })
    }

    #[test]
    fn the_24_puzzles_rows_are_read_by_the_same_rules() {
        let board = Board25::TWENTY_FOUR;
        assert_eq!(board.to_string(), "5x5");
        let goal: Vec<u8> = (0..25).collect();
        let mut swapped = goal.clone();
        swapped.swap(0, 1);
        // Two puzzles stored column by column (a transposed array).
        let mut flat = Vec::new();
        for cell in 0..25 {
            flat.push(goal[cell]);
            flat.push(swapped[cell]);
        }
        let rows = Strided::new(&flat, 0, [2, 25], [1, 2]).unwrap();
        let read = read_rows25(board, &rows, 0..2).unwrap();
        assert_eq!(read[0].tiles(), &goal[..]);
        assert_eq!(read[1].tiles(), &swapped[..]);
        assert_eq!(
            read,
            [
                layout25_of(board, &goal).unwrap(),
                parse_line25(
                    board,
                    b"1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"
                )
                .unwrap()
            ]
        );
        // A bad row is named, the first in row order; a value is named as given.
        let mut bad = flat.clone();
        bad[2 * 24 + 1] = 25;
        let rows = Strided::new(&bad, 0, [2, 25], [1, 2]).unwrap();
        let e = read_rows25(board, &rows, 0..2).unwrap_err();
        assert_eq!(e.row, 1);
        assert_eq!(
            e.to_string(),
            "row 1: tile 25 is not on a 5x5 board (tiles are 1..24, the blank is 0)"
        );
        let mut values: Vec<i64> = goal.iter().map(|&t| i64::from(t)).collect();
        values[3] = -1;
        assert_eq!(
            layout25_of(board, &values).unwrap_err().to_string(),
            "tile -1 is not on a 5x5 board (tiles are 1..24, the blank is 0)"
        );
        // Sixteen tiles: the 15-puzzle's, hinted as the 16-cell reader hints them.
        let sixteen = parse_line25(board, b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap_err();
        assert_eq!(sixteen.to_string(), "expected 25 tiles, found 16");
        assert_eq!(sixteen.board_hint(), Some(BoardHint::Fifteen));
        let rows = Strided::row_order(&flat[..32], 16).unwrap();
        let e = read_rows25(board, &rows, 0..2).unwrap_err();
        assert_eq!(
            (e.row, e.error.to_string()),
            (0, "expected 25 tiles, found 16".to_string())
        );
    }

    #[test]
    fn a_line_of_another_length_names_the_boards_it_fits() {
        let board = Board::EIGHT;
        let e = parse_line(board, b"1 2 3 4 5 6 7 0").unwrap_err();
        assert_eq!(e.to_string(), "expected 9 tiles, found 8");
        assert_eq!(
            hint_boards(e.board_hint()),
            Some(('t', vec!["2x4".into(), "4x2".into()]))
        );
        // Out of range too: the count is what matters.
        let e = parse_line(board, b"1 2 3 4 5 6 7 8 9 10 11 0").unwrap_err();
        assert_eq!(e.to_string(), "expected 9 tiles, found 12");
        assert_eq!(
            hint_boards(e.board_hint()).unwrap().1,
            ["3x4", "4x3", "2x6", "6x2"]
        );
        assert_eq!(
            parse_line(board, b"1234567x").unwrap_err().to_string(),
            "expected 9 tiles, found 8"
        );
        let sixteen = parse_line(board, b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap_err();
        assert_eq!(sixteen.board_hint(), Some(BoardHint::Fifteen));
        let fifteen = parse_line(board, b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0").unwrap_err();
        assert_eq!(
            hint_boards(fifteen.board_hint()),
            Some(('s', vec!["3x5".into(), "5x3".into()]))
        );
        // A prime count fits no board; not tiles, no count; a right count keeps its error.
        assert_eq!(
            parse_line(board, b"1 2 3 4 5 6 0")
                .unwrap_err()
                .board_hint(),
            None
        );
        assert_eq!(
            parse_line(board, b"1 2 3 \xff").unwrap_err().to_string(),
            "unknown tile '\\xff' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(
            parse_line(board, b"1 2 3 4 5 6 7 8 8")
                .unwrap_err()
                .to_string(),
            "tile 8 appears twice"
        );
        // Fewer than 4 tiles: the parser's own words.
        assert_eq!(
            parse_line(board, b"1 9").unwrap_err().to_string(),
            "tile 9 is not on a 3x3 board (tiles are 1..8, the blank is 0)"
        );
    }

    #[test]
    fn values_are_named_as_given() {
        let board = Board::EIGHT;
        let out =
            |v: i128| format!("tile {v} is not on a 3x3 board (tiles are 1..8, the blank is 0)");
        assert_eq!(
            layout_of(board, &[u64::MAX, 1, 2, 3, 4, 5, 6, 7, 8])
                .unwrap_err()
                .to_string(),
            out(u64::MAX.into())
        );
        assert_eq!(
            layout_of(board, &[i64::MIN, 1, 2, 3, 4, 5, 6, 7, 8])
                .unwrap_err()
                .to_string(),
            out(i64::MIN.into())
        );
        assert_eq!(
            layout_of(board, &[1i128 << 70, 1, 2, 3, 4, 5, 6, 7, 8])
                .unwrap_err()
                .to_string(),
            out(1 << 70)
        );
        assert_eq!(
            layout_of(board, &[-1i8, 1, 2, 3, 4, 5, 6, 7, 8])
                .unwrap_err()
                .to_string(),
            out(-1)
        );
        // 256 + 2 wraps to 2 as a u8: still out of range.
        assert_eq!(
            layout_of(board, &[258u16, 1, 2, 3, 4, 5, 6, 7, 0])
                .unwrap_err()
                .to_string(),
            out(258)
        );
        assert_eq!(
            layout_of(board, &[0u8; 16]).unwrap_err().board_hint(),
            Some(BoardHint::Fifteen)
        );
        assert_eq!(
            layout_of(board, &[0u8; 8]).unwrap_err().to_string(),
            "expected 9 tiles, found 8"
        );
        assert_eq!(
            layout_of(board, &[2u8, 3, 4, 1, 5, 0, 7, 6, 8])
                .unwrap()
                .to_string(),
            "2 3 4 1 5 0 7 6 8"
        );
    }

    #[test]
    fn the_first_bad_row_is_named_whatever_thread_finds_it() {
        let board = Board::EIGHT;
        let mut data: Vec<i16> = (0..9).cycle().take(9 * 5000).collect();
        data[9 * 4000 + 3] = 2;
        data[9 * 4500] = -1;
        data[9 * 1234 + 8] = 9;
        let rows = Strided::row_order(&data, 9).unwrap();
        let e = read_rows(board, &rows, 0..5000).unwrap_err();
        assert_eq!(e.row, 1234);
        assert_eq!(
            e.to_string(),
            "row 1234: tile 9 is not on a 3x3 board (tiles are 1..8, the blank is 0)"
        );
        assert_eq!(
            read_rows(board, &rows, 2000..4100).unwrap_err().to_string(),
            "row 4000: tile 2 appears twice"
        );
        assert_eq!(read_rows(board, &rows, 0..1000).unwrap().len(), 1000);
        // The starts' reader names the same rows in the same words.
        assert_eq!(
            read_starts(board, &rows, 0..5000).unwrap_err(),
            read_rows(board, &rows, 0..5000).unwrap_err()
        );
        assert_eq!(
            read_starts(board, &rows, 2000..4100).unwrap_err(),
            read_rows(board, &rows, 2000..4100).unwrap_err()
        );
        assert_eq!(read_rows(board, &rows, 4999..7000).unwrap().len(), 1);
        // Rows of another width: the first row asked for is named, with the boards it fits.
        let wide = Strided::row_order(&data[..12 * 10], 12).unwrap();
        let e = read_rows(board, &wide, 3..10).unwrap_err();
        assert_eq!(e.to_string(), "row 3: expected 9 tiles, found 12");
        assert!(matches!(e.error.board_hint(), Some(BoardHint::Table(_))));
        assert_eq!(read_rows(board, &wide, 10..10).unwrap(), Vec::new());
    }

    #[test]
    fn strides_that_leave_the_slice_are_refused() {
        let v = [0u8; 18];
        assert!(Strided::new(&v, 0, [2, 9], [9, 1]).is_some());
        assert!(Strided::new(&v, 1, [2, 9], [9, 1]).is_none());
        assert!(Strided::new(&v, 17, [2, 9], [-9, -1]).is_some());
        assert!(Strided::new(&v, 16, [2, 9], [-9, -1]).is_none());
        assert!(Strided::new(&v, 0, [0, 9], [isize::MAX, 1]).is_some());
        assert!(Strided::new(&v, 0, [3, 9], [isize::MAX, 1]).is_none());
        assert!(Strided::row_order(&v, 4).is_none());
        assert!(Strided::row_order(&v, 0).is_none());
    }

    proptest! {
        /// Any memory order gives the rows a row-ordered copy gives: a transpose, a reversed
        /// axis, every k-th row.
        #[test]
        fn every_memory_order_reads_the_rows_it_holds(
            perms in prop::collection::vec(Just((0u8..9).collect::<Vec<u8>>()).prop_shuffle(), 1..40),
            transposed in any::<bool>(),
            reversed in any::<bool>(),
            step in 1usize..4,
        ) {
            let board = Board::EIGHT;
            let rows = perms.len();
            // The rows as a row-major or column-major buffer, each row `step` times.
            let stored = rows * step;
            let mut flat = vec![0u8; stored * 9];
            for (r, p) in perms.iter().enumerate() {
                for k in 0..step {
                    let row = r * step + k;
                    for (c, &t) in p.iter().enumerate() {
                        let at = if transposed { c * stored + row } else { row * 9 + c };
                        flat[at] = t;
                    }
                }
            }
            let (rs, cs) = if transposed { (1isize, stored as isize) } else { (9, 1) };
            let view = Strided::new(&flat, 0, [rows, 9], [rs * step as isize, cs]).unwrap();
            let read = read_rows(board, &view, 0..rows).unwrap();
            let want: Vec<Layout> = perms.iter().map(|p| Layout::new(board, p).unwrap()).collect();
            prop_assert_eq!(&read, &want);
            let starts: Vec<(u64, usize)> = want.iter().map(|l| (l.packed(), l.blank())).collect();
            prop_assert_eq!(read_starts(board, &view, 0..rows).unwrap(), starts);
            if reversed {
                // The columns read right to left: each row reversed.
                let last = if transposed { 8 * stored } else { 8 };
                let mirror = Strided::new(&flat, last, [rows, 9], [rs * step as isize, -cs]).unwrap();
                let read = read_rows(board, &mirror, 0..rows).unwrap();
                let want: Vec<Layout> = perms
                    .iter()
                    .map(|p| Layout::new(board, &p.iter().rev().copied().collect::<Vec<_>>()).unwrap())
                    .collect();
                prop_assert_eq!(read, want);
            }
        }

        /// Text and values agree: a row of numbers reads as the line that spells it.
        #[test]
        fn a_line_and_its_values_agree(values in prop::collection::vec(-2i64..20, 0..18)) {
            let board = Board::EIGHT;
            let line = values.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
            let by_text = parse_line(board, line.as_bytes());
            let by_values = layout_of(board, &values);
            let as_start = Strided::row_order(&values, values.len().max(1))
                .map(|rows| read_starts(board, &rows, 0..1));
            match (&as_start, &by_values) {
                (Some(Ok(starts)), Ok(l)) if !values.is_empty() => {
                    prop_assert_eq!(starts, &vec![(l.packed(), l.blank())]);
                }
                (Some(Err(e)), Err(want)) => prop_assert_eq!(&e.error, want),
                (_, _) if values.is_empty() => {}
                _ => prop_assert!(false, "{line}: {as_start:?} but {by_values:?}"),
            }
            match (&by_text, &by_values) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "{line}: {by_text:?} but {by_values:?}"),
            }
            if let (Err(PuzzleError::TileCount { found, .. }), true) = (&by_values, values.len() >= 4) {
                prop_assert_eq!(*found, values.len());
            }
        }
    }
}
