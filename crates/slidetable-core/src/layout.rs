//! A layout: which tile lies in each cell of a board.

use std::fmt;

use crate::{Board, Move, MAX_CELLS};

/// The tile in each cell of a board, 0 being the blank. Always a permutation of 0..n.
// Aligned to 8 bytes (24 in all instead of 19): a layout handed through results and options
// is then copied in whole words; at 19 bytes the copies overlapped and the loads waited on
// the stores (`distance` on 1M lines spent a fifth of its time there).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Layout {
    board: Board,
    tiles: [u8; MAX_CELLS],
    blank: u8,
}

/// Why a list of tiles is not a layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// Not one tile per cell.
    #[error("expected {expected} tiles, found {found}")]
    WrongCount {
        /// The board's cells.
        expected: usize,
        /// The tiles given.
        found: usize,
    },
    /// A tile given twice.
    #[error("tile {tile} appears twice")]
    Repeated {
        /// The tile.
        tile: u8,
    },
    /// A tile number the board does not have.
    #[error("tile {tile} is not on a {board} board (tiles are 1..{max}, the blank is 0)", max = board.cells() - 1)]
    OutOfRange {
        /// The value given as a tile: any integer a caller holds (a `u64` or an `i64` of an
        /// array, a larger integer of a script), shown as it was given.
        tile: i128,
        /// The board.
        board: Board,
    },
}

impl Layout {
    /// `table[tile][cell]`: the Manhattan distance of `tile` in `cell` from its cell in this
    /// layout (the goal); the blank's row and the cells past the board are 0.
    pub fn manhattan_table(&self) -> [[u8; MAX_CELLS]; MAX_CELLS] {
        let cols = self.board.cols();
        let n = self.board.cells();
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        for (home, &t) in self.tiles().iter().enumerate() {
            if t == 0 {
                continue;
            }
            for (cell, d) in md[t as usize].iter_mut().enumerate().take(n) {
                *d = ((cell / cols).abs_diff(home / cols) + (cell % cols).abs_diff(home % cols))
                    as u8;
            }
        }
        md
    }

    /// The layout with `tiles[cell]` in each cell; refuses anything but a permutation of 0..n.
    pub fn new(board: Board, tiles: &[u8]) -> Result<Layout, LayoutError> {
        let n = board.cells();
        if tiles.len() != n {
            return Err(LayoutError::WrongCount {
                expected: n,
                found: tiles.len(),
            });
        }
        // The common case without a branch per cell (a batch of a million puzzles checks
        // each): every tile below n and n different ones is a permutation; the blank's cell
        // is summed, as only one cell holds it. Anything else is named by the loop below.
        let mut cells = [0u8; MAX_CELLS];
        let mut seen = 0u32;
        let mut largest = 0u8;
        let mut blank = 0;
        for (cell, &tile) in tiles.iter().enumerate() {
            cells[cell] = tile;
            seen |= 1 << (tile & 31);
            largest = largest.max(tile);
            blank += cell * usize::from(tile == 0);
        }
        if (largest as usize) < n && seen.count_ones() as usize == n {
            return Ok(Layout::from_parts(board, cells, blank));
        }
        let mut seen = 0u32;
        for &tile in tiles {
            if tile as usize >= n {
                return Err(LayoutError::OutOfRange {
                    tile: tile.into(),
                    board,
                });
            }
            if seen & (1 << tile) != 0 {
                return Err(LayoutError::Repeated { tile });
            }
            seen |= 1 << tile;
        }
        Ok(Layout::from_parts(board, cells, blank))
    }

    /// Assembles a layout the caller knows to be valid.
    #[inline]
    pub(crate) fn from_parts(board: Board, tiles: [u8; MAX_CELLS], blank: usize) -> Layout {
        debug_assert_eq!(tiles[blank], 0);
        Layout {
            board,
            tiles,
            blank: blank as u8,
        }
    }

    /// The board this layout is on.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The tile in each cell, in reading order.
    #[inline]
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.board.cells()]
    }

    /// The tile in `cell` (0 for the blank).
    #[inline]
    pub fn tile(&self, cell: usize) -> u8 {
        self.tiles()[cell]
    }

    /// The cell holding the blank.
    #[inline]
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The tiles packed four bits per cell, cell 0 in the lowest nibble: a 4×4 board fills
    /// exactly 64 bits. The form hot loops work on.
    #[inline]
    pub fn packed(&self) -> u64 {
        self.tiles
            .iter()
            .rev()
            .fold(0u64, |acc, &t| (acc << 4) | u64::from(t))
    }

    /// The layout whose [`Layout::packed`] form is `packed`, if that is a permutation of 0..n
    /// on `board` (and nothing beyond the board's cells).
    pub fn from_packed(board: Board, packed: u64) -> Result<Layout, LayoutError> {
        let n = board.cells();
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, t) in tiles.iter_mut().enumerate() {
            *t = ((packed >> (4 * cell)) & 0xF) as u8;
        }
        if tiles[n..].iter().any(|&t| t != 0) {
            return Err(LayoutError::WrongCount {
                expected: n,
                found: MAX_CELLS - tiles.iter().rev().take_while(|&&t| t == 0).count(),
            });
        }
        Layout::new(board, &tiles[..n])
    }

    /// The layout after the blank moves in direction `m`, or `None` if that leaves the board.
    #[inline]
    pub fn moved(&self, m: Move) -> Option<Layout> {
        let to = self.board.neighbor(self.blank(), m)?;
        let mut next = *self;
        next.tiles[self.blank()] = next.tiles[to];
        next.tiles[to] = 0;
        next.blank = to as u8;
        Some(next)
    }

    /// Applies every move of `path` in turn; `None` if one of them leaves the board.
    pub fn after(&self, path: &[Move]) -> Option<Layout> {
        path.iter().try_fold(*self, |l, &m| l.moved(m))
    }

    /// The legal moves from here, in code order (u d l r).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::ALL
            .into_iter()
            .filter(|&m| self.board.neighbor(self.blank(), m).is_some())
    }

    /// The number of inversions among the tiles (blank left out) read in reading order.
    pub fn inversions(&self) -> u32 {
        let mut seen = 0u32;
        let mut inv = 0;
        for &t in self.tiles() {
            if t != 0 {
                // Tiles already seen that are larger than t.
                inv += (seen >> t).count_ones();
                seen |= 1 << t;
            }
        }
        inv
    }

    /// The parity class of this layout: 0 or 1. Two layouts of one board reach each other
    /// exactly when their classes agree.
    ///
    /// A horizontal move leaves the tiles' reading order alone; a vertical move carries one
    /// tile past `cols − 1` others. So `inversions + (cols − 1) · blank_row` keeps its parity
    /// under every move: for odd widths the inversion parity alone, for even widths inversions
    /// plus the blank's row.
    #[inline]
    pub fn class(&self) -> u8 {
        class_of(self.board, self.inversions(), self.blank())
    }

    /// Whether `goal` can be reached from this layout (same board and same parity class).
    pub fn can_reach(&self, goal: &Layout) -> bool {
        self.board == goal.board && self.class() == goal.class()
    }

    /// Whether this is the standard goal (tiles in order, blank last).
    pub fn is_standard_goal(&self) -> bool {
        *self == self.board.standard_goal()
    }

    /// The relabelling that turns `goal` into `board.goal_with_blank(goal.blank())`:
    /// `map[tile of goal in cell c] = tile of that standard goal in cell c`.
    pub fn relabelling_to_standard(&self) -> [u8; MAX_CELLS] {
        self.relabelling_to(&self.board.goal_with_blank(self.blank()))
    }

    /// The relabelling that turns this layout into `target`, a layout of the same board with
    /// the blank in the same cell: `map[tile here in cell c] = tile of target in cell c`.
    pub fn relabelling_to(&self, target: &Layout) -> [u8; MAX_CELLS] {
        debug_assert_eq!(self.blank(), target.blank());
        let mut map = [0u8; MAX_CELLS];
        for (cell, &t) in self.tiles().iter().enumerate() {
            map[t as usize] = target.tiles[cell];
        }
        map
    }

    /// This layout with every tile `t` replaced by `map[t]` (`map` must fix 0 and be a
    /// permutation of 0..n).
    pub fn relabelled(&self, map: &[u8; MAX_CELLS]) -> Layout {
        let mut next = *self;
        for t in next.tiles.iter_mut().take(self.board.cells()) {
            *t = map[*t as usize];
        }
        debug_assert_eq!(next.tiles[next.blank()], 0);
        next
    }

    /// Writes the tiles as tokens separated by `sep`, the blank as `0`.
    pub fn write_tokens(&self, out: &mut impl fmt::Write, sep: &str) -> fmt::Result {
        for (i, t) in self.tiles().iter().enumerate() {
            if i > 0 {
                out.write_str(sep)?;
            }
            write!(out, "{t}")?;
        }
        Ok(())
    }

    /// The layout as rows of tokens, one row per line (no final newline).
    pub fn grid(&self) -> String {
        let mut s = String::new();
        for (r, row) in self.tiles().chunks(self.board.cols()).enumerate() {
            if r > 0 {
                s.push('\n');
            }
            let width = if self.board.cells() > 10 { 2 } else { 1 };
            for (c, t) in row.iter().enumerate() {
                if c > 0 {
                    s.push(' ');
                }
                s.push_str(&format!("{t:>width$}"));
            }
        }
        s
    }
}

/// The parity class of a layout with this many inversions and its blank in `blank`.
#[inline]
pub(crate) fn class_of(board: Board, inversions: u32, blank: usize) -> u8 {
    let row = blank / board.cols();
    ((inversions as usize + (board.cols() - 1) * row) & 1) as u8
}

/// Tokens separated by single spaces, the blank as 0: `1 2 3 4 5 6 7 8 0`.
impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_tokens(f, " ")
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({} [{}])", self.board, self)
    }
}

/// The goals of a board, here beside [`Layout`] (which knows its [`Board`]; the board does
/// not know layouts).
impl Board {
    /// The goal with the blank in `blank` and tiles 1..n−1 in reading order in the other cells.
    ///
    /// # Panics
    ///
    /// If `blank` is not a cell of the board.
    pub fn goal_with_blank(self, blank: usize) -> Layout {
        assert!(blank < self.cells(), "blank cell {blank} is off the board");
        let mut tiles = [0u8; MAX_CELLS];
        let mut next = 1u8;
        for (cell, tile) in tiles.iter_mut().enumerate().take(self.cells()) {
            if cell != blank {
                *tile = next;
                next += 1;
            }
        }
        Layout::from_parts(self, tiles, blank)
    }

    /// The standard goal: tiles 1..n−1 in reading order, blank in the last cell.
    pub fn standard_goal(self) -> Layout {
        self.goal_with_blank(self.cells() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eight(tiles: [u8; 9]) -> Layout {
        Layout::new(Board::EIGHT, &tiles).unwrap()
    }

    #[test]
    fn new_accepts_exactly_the_permutations_and_names_the_first_problem() {
        // Every list of 4 values below 6 on the 2x2 board (out of range, repeated, both),
        // against the rule checked cell by cell.
        let board = Board::new(2, 2).unwrap();
        for code in 0..6u32.pow(4) {
            let tiles: Vec<u8> = (0..4).map(|i| (code / 6u32.pow(i) % 6) as u8).collect();
            let mut seen = [false; 6];
            let mut expected = None;
            for &t in &tiles {
                if t >= 4 {
                    expected = Some(LayoutError::OutOfRange {
                        tile: t.into(),
                        board,
                    });
                    break;
                }
                if seen[t as usize] {
                    expected = Some(LayoutError::Repeated { tile: t });
                    break;
                }
                seen[t as usize] = true;
            }
            match (Layout::new(board, &tiles), expected) {
                (Ok(l), None) => {
                    assert_eq!(l.tiles(), &tiles[..]);
                    assert_eq!(l.tile(l.blank()), 0);
                }
                (Err(e), Some(x)) => assert_eq!(e, x, "{tiles:?}"),
                (got, x) => panic!("{tiles:?}: {got:?} but {x:?}"),
            }
        }
        // A tile that wraps around the bit mask (40 = 8 + 32) is still out of range.
        assert_eq!(
            Layout::new(Board::EIGHT, &[40, 1, 2, 3, 4, 5, 6, 7, 0]),
            Err(LayoutError::OutOfRange {
                tile: 40,
                board: Board::EIGHT
            })
        );
    }

    #[test]
    fn manhattan_table_counts_rows_and_columns_to_each_tiles_home() {
        // On a 2×3 goal with the blank first, tile 5 is at home in cell 5 (row 1, column 2).
        let goal = Layout::new(Board::new(2, 3).unwrap(), &[0, 1, 2, 3, 4, 5]).unwrap();
        let md = goal.manhattan_table();
        assert_eq!(md[5][..6], [3, 2, 1, 2, 1, 0]);
        assert_eq!(md[1][..6], [1, 0, 1, 2, 1, 2]);
        assert_eq!(md[0], [0; MAX_CELLS]);
        for (t, row) in md.iter().enumerate().skip(6) {
            assert_eq!(*row, [0; MAX_CELLS], "tile {t}");
        }
    }

    #[test]
    fn refuses_non_permutations() {
        let b = Board::EIGHT;
        assert_eq!(
            Layout::new(b, &[1, 2, 3]).unwrap_err().to_string(),
            "expected 9 tiles, found 3"
        );
        assert_eq!(
            Layout::new(b, &[1, 2, 3, 4, 5, 6, 7, 8, 8])
                .unwrap_err()
                .to_string(),
            "tile 8 appears twice"
        );
        assert_eq!(
            Layout::new(b, &[1, 2, 3, 4, 5, 6, 7, 9, 0])
                .unwrap_err()
                .to_string(),
            "tile 9 is not on a 3x3 board (tiles are 1..8, the blank is 0)"
        );
    }

    #[test]
    fn moves_swap_the_blank() {
        let g = Board::EIGHT.standard_goal();
        assert_eq!(g.moves().collect::<Vec<_>>(), vec![Move::Up, Move::Left]);
        let up = g.moved(Move::Up).unwrap();
        assert_eq!(up.tiles(), &[1, 2, 3, 4, 5, 0, 7, 8, 6]);
        assert_eq!(up.blank(), 5);
        assert_eq!(g.moved(Move::Down), None);
        assert_eq!(up.moved(Move::Down).unwrap(), g);
    }

    #[test]
    fn classes_follow_the_parity_rule() {
        let g = Board::EIGHT.standard_goal();
        assert_eq!(g.class(), 0);
        // Swapping two tiles changes the class: the classic unsolvable 8-puzzle.
        let swapped = eight([2, 1, 3, 4, 5, 6, 7, 8, 0]);
        assert!(!swapped.can_reach(&g));
        let start = eight([2, 3, 4, 1, 5, 0, 7, 6, 8]);
        assert!(start.can_reach(&g));
        // Even width: the blank's row counts.
        let b = Board::new(2, 2).unwrap();
        let g = b.standard_goal();
        let up = g.moved(Move::Up).unwrap();
        assert_eq!(up.class(), g.class());
    }

    #[test]
    fn relabelling_maps_a_goal_to_its_standard_section() {
        let goal = eight([1, 2, 3, 8, 0, 4, 7, 6, 5]);
        let map = goal.relabelling_to_standard();
        assert_eq!(goal.relabelled(&map), Board::EIGHT.goal_with_blank(4));
    }

    #[test]
    fn prints_tokens_and_grids() {
        let l = eight([2, 3, 4, 1, 5, 0, 7, 6, 8]);
        assert_eq!(l.to_string(), "2 3 4 1 5 0 7 6 8");
        assert_eq!(l.grid(), "2 3 4\n1 5 0\n7 6 8");
    }
}
