//! Board geometry: rows × columns, cells numbered in reading order.

use std::fmt;
use std::str::FromStr;

use crate::Move;

/// The most cells a [`Layout`](crate::Layout) can hold (a 4×4 board). Tables of every state stop at
/// [`MAX_TABLE_CELLS`]; larger boards exist for search and parsing.
pub const MAX_CELLS: usize = 16;

/// The most cells a board may have for a table of its every state: 2×7 and 7×2, whose
/// 14!/2 = 43,589,145,600 states are ranked densely in a `u64` (the ranks of one blank cell,
/// 13!/2, still fit a `u32`).
pub const MAX_TABLE_CELLS: usize = 14;

/// A rectangular board. Cells are numbered 0.. in reading order (row by row, left to right).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    rows: u8,
    cols: u8,
}

/// What a limit of `max` cells is the limit of.
fn limited(max: usize) -> &'static str {
    if max <= MAX_TABLE_CELLS {
        "tables"
    } else {
        "boards"
    }
}

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// Fewer than 2 rows or 2 columns.
    #[error("a board needs at least 2 rows and 2 columns, got {rows}x{cols}")]
    TooSmall {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
    },
    /// More cells than allowed where the board was to be used. Worded as the command line
    /// words its own board limits: tables (and ranks) go up to 14 cells, boards up to 16.
    #[error("a {rows}x{cols} board has {cells} cells; {} go up to {max} cells", limited(*max), cells = rows * cols)]
    TooLarge {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
        /// The most cells allowed.
        max: usize,
    },
    /// Not of the form `RxC`; the text given.
    #[error("board size '{0}' is not of the form RxC (for example 3x3)")]
    Syntax(String),
}

impl Board {
    /// The 3×3 board of the 8-puzzle.
    pub const EIGHT: Board = Board { rows: 3, cols: 3 };
    /// The 4×4 board of the 15-puzzle.
    pub const FIFTEEN: Board = Board { rows: 4, cols: 4 };

    /// A board of `rows` × `cols` cells; at least 2×2 and at most [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Result<Board, BoardError> {
        if rows < 2 || cols < 2 {
            return Err(BoardError::TooSmall { rows, cols });
        }
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(BoardError::TooLarge {
                rows,
                cols,
                max: MAX_CELLS,
            });
        }
        Ok(Board {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Like [`Board::new`], but also refuses boards too large for a table of every state.
    pub fn for_table(rows: usize, cols: usize) -> Result<Board, BoardError> {
        let board = Board::new(rows, cols)?;
        if board.cells() > MAX_TABLE_CELLS {
            return Err(BoardError::TooLarge {
                rows,
                cols,
                max: MAX_TABLE_CELLS,
            });
        }
        Ok(board)
    }

    /// Every board of at most `max_cells` cells (at most [`MAX_CELLS`]): fewer cells first,
    /// then the squarer, then fewer rows (2x2, 2x3, 3x2 ... 3x4, 4x3, 2x6, 6x2, 2x7, 7x2 for
    /// [`MAX_TABLE_CELLS`]). The lists a program offers come from here, never typed again.
    pub fn up_to(max_cells: usize) -> Vec<Board> {
        let max_cells = max_cells.min(MAX_CELLS);
        let mut boards: Vec<Board> = (2..=max_cells / 2)
            .flat_map(|rows| (2..=max_cells / rows).map(move |cols| (rows, cols)))
            .filter_map(|(rows, cols)| Board::new(rows, cols).ok())
            .collect();
        boards.sort_by_key(|b| (b.cells(), b.rows().abs_diff(b.cols()), b.rows()));
        boards
    }

    /// The number of rows.
    #[inline]
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// The number of columns.
    #[inline]
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// The number of cells, the blank's included.
    #[inline]
    pub fn cells(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Whether every state of this board fits a dense `u64` ranking and a table.
    pub fn supports_tables(self) -> bool {
        self.cells() <= MAX_TABLE_CELLS
    }

    /// The number of states reachable from any one layout: n!/2.
    pub fn reachable_states(self) -> u64 {
        factorial(self.cells()) / 2
    }

    /// An upper bound on the fewest moves between any layout and a goal whose blank is in
    /// `blank`: what no optimal path of this board can exceed, so a search whose bound passes
    /// it was misled by its heuristic (a damaged database) rather than by the puzzle.
    ///
    /// For the boards whose longest optimal path to a corner-blank goal is known (every
    /// board up to 12 cells, from their tables, and 4×4, 80 moves) it is that length plus the
    /// blank's Manhattan distance from `blank` to the nearest corner: relabelling tiles and
    /// the board's mirror images carry every corner-blank goal onto the standard one, and a
    /// goal with the blank elsewhere is that many moves from one with it in a corner. Other
    /// boards get the number of layouts in a class less one (a path never repeats one).
    pub fn most_moves(self, blank: usize) -> u64 {
        let (rows, cols) = (self.rows(), self.cols());
        let corner = {
            let (r, c) = (blank / cols, blank % cols);
            (r.min(rows - 1 - r) + c.min(cols - 1 - c)) as u64
        };
        let known = match (rows.min(cols), rows.max(cols)) {
            (2, 2) => 6,
            (2, 3) => 21,
            (2, 4) => 36,
            (2, 5) => 55,
            (2, 6) => 80,
            (3, 3) => 31,
            (3, 4) => 53,
            (4, 4) => 80,
            _ => return self.reachable_states() - 1,
        };
        known + corner
    }

    /// The cell the blank reaches from `cell` by moving in direction `m`, if it stays on the board.
    #[inline]
    pub fn neighbor(self, cell: usize, m: Move) -> Option<usize> {
        let cols = self.cols();
        match m {
            Move::Up => cell.checked_sub(cols),
            Move::Down => {
                let next = cell + cols;
                (next < self.cells()).then_some(next)
            }
            Move::Left => (!cell.is_multiple_of(cols)).then(|| cell - 1),
            Move::Right => (cell % cols != cols - 1).then_some(cell + 1),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses `RxC` (also `R×C` or `RXC`), for example `3x3` or `2x6`.
    fn from_str(s: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax(s.to_string());
        let (r, c) = s.split_once(['x', 'X', '×']).ok_or_else(syntax)?;
        let rows: usize = r.trim().parse().map_err(|_| syntax())?;
        let cols: usize = c.trim().parse().map_err(|_| syntax())?;
        Board::new(rows, cols)
    }
}

/// n! for n ≤ 20.
pub const fn factorial(n: usize) -> u64 {
    let mut acc = 1u64;
    let mut i = 2;
    while i <= n {
        acc *= i as u64;
        i += 1;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_up_to_a_size_are_every_one_once() {
        let names: Vec<String> = Board::up_to(MAX_TABLE_CELLS)
            .iter()
            .map(|b| b.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "5x2", "3x4", "4x3", "2x6", "6x2",
                "2x7", "7x2"
            ]
        );
        let all = Board::up_to(MAX_CELLS);
        assert_eq!(all.len(), 19);
        assert_eq!(all.last(), Some(&Board::new(8, 2).unwrap()));
        assert!(all.contains(&Board::FIFTEEN));
    }

    #[test]
    fn parses_and_prints_sizes() {
        let b: Board = "3x4".parse().unwrap();
        assert_eq!((b.rows(), b.cols(), b.cells()), (3, 4, 12));
        assert_eq!(b.to_string(), "3x4");
        assert!("3".parse::<Board>().is_err());
        assert!("1x5".parse::<Board>().is_err());
        assert!("5x4".parse::<Board>().is_err());
        assert!(Board::for_table(4, 4).is_err());
        assert_eq!(
            Board::for_table(4, 4).unwrap_err().to_string(),
            "a 4x4 board has 16 cells; tables go up to 14 cells"
        );
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let b = Board::EIGHT;
        assert_eq!(b.neighbor(0, Move::Up), None);
        assert_eq!(b.neighbor(0, Move::Left), None);
        assert_eq!(b.neighbor(0, Move::Right), Some(1));
        assert_eq!(b.neighbor(0, Move::Down), Some(3));
        assert_eq!(b.neighbor(8, Move::Down), None);
        assert_eq!(b.neighbor(8, Move::Right), None);
        assert_eq!(b.neighbor(5, Move::Right), None);
        assert_eq!(b.neighbor(6, Move::Up), Some(3));
        assert_eq!(b.reachable_states(), 181_440);
    }

    #[test]
    fn goals_place_tiles_in_reading_order() {
        let g = Board::EIGHT.goal_with_blank(4);
        assert_eq!(g.tiles(), &[1, 2, 3, 4, 0, 5, 6, 7, 8]);
        assert_eq!(
            Board::EIGHT.standard_goal().tiles(),
            &[1, 2, 3, 4, 5, 6, 7, 8, 0]
        );
    }
}
