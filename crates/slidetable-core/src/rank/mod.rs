//! Dense ranking of one parity class: a bijection between the n!/2 layouts of a class and
//! `0..n!/2`.
//!
//! A rank is `blank · (n−1)!/2 + half-Lehmer(tiles)`. The tiles are read in reading order,
//! skipping the blank; their Lehmer code is ranked over the first n−3 tiles only, because the
//! last two tiles' order follows from the parity the class requires. Blank-major order keeps
//! a horizontal move (which leaves the tiles' order alone) a jump of exactly one block.
//!
//! Boards of at most 9 cells (the 8-puzzle among them) rank by two table look-ups instead of
//! a digit-by-digit loop (`quick.rs`).
//!
//! The one owner of the rank: [`Ranker`] ranks, unranks and classes layouts and steps to a
//! neighbour's rank ([`Ranker::step`]); [`Scan`] visits every rank of a class in order with
//! its neighbours' ranks stepped from the Lehmer digits that change (`scan.rs`).

mod placement;
mod quick;
mod scan;
mod steps;
mod wide;
mod width;

use std::sync::OnceLock;

use crate::layout::class_of;
use crate::{factorial, Board, BoardError, Layout, Move, MAX_CELLS, MAX_TABLE_CELLS};
pub use placement::{
    placement_count, PlacementError, PlacementRank, PlacementRanker, PlacementRanker25, Placements,
    WidePlacementRanker25, MAX_CELLS_25,
};
use quick::QuickTables;
pub use scan::{PrefixMoves, Scan, ScanCursor, Sideways};
pub use steps::{Steps, TileOrder};
pub use wide::WideRanker;
pub use width::{Ranks, WIDE_RANKS_ENV};

/// Rank and unrank layouts of one board. Cheap to copy; build once, use in hot loops.
#[derive(Clone, Copy, Debug)]
pub struct Ranker {
    board: Board,
    /// (n−1)!/2: the ranks that share one blank cell (below 2³² up to 14 cells).
    block: u32,
    /// weights[i] = (m−1−i)!/2 for the i-th tile (m = n−1 tiles), i < m−2.
    weights: [u32; MAX_TABLE_CELLS],
    /// The look-up tables of boards of at most 9 cells, shared by every ranker of that size.
    quick: Option<&'static QuickTables>,
    /// Bit `cell`: a blank in `cell` flips the class (the row term of `class_of`), so that classing a
    /// layout takes no division by the board's width.
    flips: u32,
}

impl Ranker {
    /// A ranker for `board`, which must have at most [`MAX_TABLE_CELLS`] cells.
    pub fn new(board: Board) -> Result<Ranker, BoardError> {
        if !board.supports_tables() {
            return Err(BoardError::TooLarge {
                rows: board.rows(),
                cols: board.cols(),
                max: MAX_TABLE_CELLS,
            });
        }
        let m = board.cells() - 1;
        let mut weights = [0u32; MAX_TABLE_CELLS];
        for (i, w) in weights.iter_mut().enumerate().take(m - 2) {
            *w = (factorial(m - 1 - i) / 2) as u32;
        }
        let quick = (m <= QuickTables::MAX_TILES).then(|| {
            static TABLES: [OnceLock<QuickTables>; QuickTables::MAX_TILES + 1] =
                [const { OnceLock::new() }; QuickTables::MAX_TILES + 1];
            TABLES[m].get_or_init(|| QuickTables::new(m, &weights))
        });
        let flips = (0..board.cells())
            .map(|cell| u32::from(class_of(board, 0, cell)) << cell)
            .sum();
        Ok(Ranker {
            board,
            block: (factorial(m) / 2) as u32,
            weights,
            quick,
            flips,
        })
    }

    /// The board this ranker ranks.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The number of ranks: n!/2.
    #[inline]
    pub fn states(&self) -> u64 {
        u64::from(self.block) * self.board.cells() as u64
    }

    /// The ranks that share one blank cell: (n−1)!/2. Rank `r` has its blank in `r / block`.
    #[inline]
    pub fn block(&self) -> u64 {
        u64::from(self.block)
    }

    /// The rank of `layout` within its own parity class. Layouts of the two classes share
    /// ranks; pair a rank with [`Layout::class`] to tell them apart.
    #[inline]
    pub fn rank(&self, layout: &Layout) -> u64 {
        debug_assert_eq!(layout.board(), self.board);
        self.rank_packed(layout.packed(), layout.blank())
    }

    /// The rank and the parity class (see [`Layout::class`]) of `layout`, in one pass: the
    /// Lehmer digits that make the rank also count the inversions.
    #[inline]
    pub fn rank_and_class(&self, layout: &Layout) -> (u64, u8) {
        debug_assert_eq!(layout.board(), self.board);
        self.rank_and_class_packed(layout.packed(), layout.blank())
    }

    /// [`Ranker::rank_and_class`] of a layout in [`Layout::packed`] form with its blank in
    /// `blank`.
    #[inline]
    pub fn rank_and_class_packed(&self, packed: u64, blank: usize) -> (u64, u8) {
        let (r, inversions) = match self.quick {
            Some(quick) => quick.rank_and_parity(packed, blank),
            None => self.rank_and_inversions(packed, blank),
        };
        (
            blank as u64 * self.block() + u64::from(r),
            ((inversions ^ (self.flips >> blank)) & 1) as u8,
        )
    }

    /// The rank within the blank's block and the number of inversions (or just its parity),
    /// by the Lehmer digits one tile at a time.
    #[inline]
    fn rank_and_inversions(&self, packed: u64, blank: usize) -> (u32, u32) {
        let n = self.board.cells();
        let mut seq = drop_nibble(packed, blank);
        let mut remaining: u32 = (1u32 << n) - 2;
        let mut r = 0;
        let mut inversions = 0;
        for &w in &self.weights[..n - 3] {
            let t = (seq & 0xF) as u32;
            seq >>= 4;
            let smaller = (remaining & ((1u32 << t) - 1)).count_ones();
            r += smaller * w;
            inversions += smaller;
            remaining ^= 1 << t;
        }
        // Of the last two tiles, the first is an inversion exactly when it is the larger.
        let t = (seq & 0xF) as u32;
        inversions += u32::from(remaining >> (t + 1) == 0);
        (r, inversions)
    }

    /// [`Ranker::rank`] of a layout in [`Layout::packed`] form with its blank in `blank`.
    #[inline]
    pub fn rank_packed(&self, packed: u64, blank: usize) -> u64 {
        let base = blank as u64 * self.block();
        match self.quick {
            Some(quick) => base + u64::from(quick.rank_and_parity(packed, blank).0),
            None => base + u64::from(self.rank_by_digits(packed, blank)),
        }
    }

    /// The rank within the blank's block, by the Lehmer digits one tile at a time: boards of
    /// more than 9 cells. Not inlined, so [`Ranker::rank_packed`] stays small enough to
    /// inline into the walks of the 8-puzzle.
    #[inline(never)]
    fn rank_by_digits(&self, packed: u64, blank: usize) -> u32 {
        let n = self.board.cells();
        let mut seq = drop_nibble(packed, blank);
        let mut remaining: u32 = (1u32 << n) - 2; // tiles 1..n−1 not yet placed
        let mut r = 0u32;
        for &w in &self.weights[..n - 3] {
            let t = (seq & 0xF) as u32;
            seq >>= 4;
            let smaller = (remaining & ((1u32 << t) - 1)).count_ones();
            r += smaller * w;
            remaining ^= 1 << t;
        }
        r
    }

    /// The rank of the neighbour reached from the state of rank `rank` by move `m`, given
    /// that neighbour's packed tiles `moved` (see [`crate::slide`]) and its blank cell `to`.
    /// A horizontal move keeps the tiles' reading order, so its rank is exactly one block
    /// over and needs no ranking; a vertical move ranks `moved` afresh.
    #[inline]
    pub fn step(&self, rank: u64, m: Move, moved: u64, to: usize) -> u64 {
        match m {
            Move::Left => rank.wrapping_sub(self.block()),
            Move::Right => rank.wrapping_add(self.block()),
            Move::Up | Move::Down => self.rank_packed(moved, to),
        }
    }

    /// [`Ranker::step`] for walks whose moves no branch predictor can guess (a path walk's
    /// stored moves): on boards of at most 9 cells both ranks, the horizontal move's and the
    /// vertical one's, are worked out and one is chosen, with no branch on the move.
    #[inline]
    pub fn step_unpredictable(&self, rank: u64, m: Move, moved: u64, to: usize) -> u64 {
        if self.quick.is_none() {
            return self.step(rank, m, moved, to);
        }
        // One block over, back for a move left.
        let block = self.block();
        let along = rank
            .wrapping_add(block)
            .wrapping_sub(u64::from(m == Move::Left) * 2 * block);
        let across = self.rank_packed(moved, to);
        std::hint::select_unpredictable(matches!(m, Move::Left | Move::Right), along, across)
    }

    /// [`Ranker::unrank`] in the packed form hot loops use: the layout's
    /// [`Layout::packed`] tiles and its blank cell, without building a [`Layout`].
    #[inline]
    pub fn unrank_packed(&self, rank: u64, class: u8) -> (u64, usize) {
        debug_assert!(rank < self.states(), "rank {rank} out of range");
        let n = self.board.cells();
        let blank = (rank / self.block()) as usize;
        let mut r = (rank % self.block()) as u32;
        let mut remaining: u32 = (1u32 << n) - 2;
        let mut inversions = 0u32;
        // The tiles in reading order without the blank, first tile in the lowest nibble.
        let mut seq = 0u64;
        for (i, &w) in self.weights[..n - 3].iter().enumerate() {
            let d = r / w;
            r %= w;
            inversions += d;
            let t = nth_set_bit(remaining, d);
            remaining ^= 1 << t;
            seq |= u64::from(t) << (4 * i);
        }
        finish_unrank(self.board, seq, remaining, inversions, blank, class)
    }

    /// The layout of parity class `class` (0 or 1) with this rank. `rank` must be below
    /// [`Ranker::states`].
    #[inline]
    pub fn unrank(&self, rank: u64, class: u8) -> Layout {
        debug_assert!(rank < self.states(), "rank {rank} out of range");
        let n = self.board.cells();
        let ranked = n - 3;
        let blank = (rank / self.block()) as usize;
        let mut r = (rank % self.block()) as u32;
        let mut remaining: u32 = (1u32 << n) - 2;
        let mut inversions = 0u32;
        let mut tiles = [0u8; MAX_CELLS];
        let mut cell = 0;
        for &w in &self.weights[..ranked] {
            let d = r / w;
            r %= w;
            inversions += d;
            let t = nth_set_bit(remaining, d);
            remaining ^= 1 << t;
            if cell == blank {
                cell += 1;
            }
            tiles[cell] = t as u8;
            cell += 1;
        }
        // Two tiles remain: ascending adds no inversion, descending adds one. Pick the order
        // that lands in the requested class.
        let lo = remaining.trailing_zeros();
        let hi = 31 - remaining.leading_zeros();
        let (first, second) = if class_of(self.board, inversions, blank) == (class & 1) {
            (lo, hi)
        } else {
            (hi, lo)
        };
        for t in [first, second] {
            if cell == blank {
                cell += 1;
            }
            tiles[cell] = t as u8;
            cell += 1;
        }
        Layout::from_parts(self.board, tiles, blank)
    }
}

/// The tiles in reading order, packed: the blank's nibble removed.
#[inline]
fn drop_nibble(packed: u64, blank: usize) -> u64 {
    let below = (1u64 << (4 * blank)) - 1;
    (packed & below) | ((packed >> 4) & !below)
}

/// The position of the `k`-th (from 0) set bit of `x`.
#[inline]
fn nth_set_bit(mut x: u32, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

/// The end of an unrank, shared by [`Ranker`] and [`WideRanker`] (which differ only in the
/// width of the rank they divide): the last two tiles (`remaining`'s two bits) in the order
/// that puts the layout in parity class `class`, given the `inversions` of the `n - 3` tiles
/// placed in `seq`; then a zero nibble opened for the blank at its cell.
#[inline(always)]
pub(crate) fn finish_unrank(
    board: Board,
    mut seq: u64,
    remaining: u32,
    inversions: u32,
    blank: usize,
    class: u8,
) -> (u64, usize) {
    let n = board.cells();
    let lo = u64::from(remaining.trailing_zeros());
    let hi = u64::from(31 - remaining.leading_zeros());
    let last_two = if class_of(board, inversions, blank) == (class & 1) {
        lo | hi << 4
    } else {
        hi | lo << 4
    };
    seq |= last_two << (4 * (n - 3));
    let below = (1u64 << (4 * blank)) - 1;
    ((seq & below) | ((seq & !below) << 4), blank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_the_goals() {
        let r = Ranker::new(Board::EIGHT).unwrap();
        assert_eq!(r.states(), 181_440);
        assert_eq!(r.block(), 20_160);
        let g = Board::EIGHT.standard_goal();
        assert_eq!(r.rank(&g), 8 * 20_160);
        assert_eq!(r.unrank(8 * 20_160, 0), g);
        assert_eq!(r.rank(&Board::EIGHT.goal_with_blank(0)), 0);
    }

    #[test]
    fn packed_unranking_agrees_with_unranking() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (2, 6)] {
            let r = Ranker::new(Board::new(rows, cols).unwrap()).unwrap();
            for rank in (0..r.states()).step_by((r.states() / 997).max(1) as usize) {
                for class in 0..2 {
                    let l = r.unrank(rank, class);
                    assert_eq!(r.unrank_packed(rank, class), (l.packed(), l.blank()));
                }
            }
        }
    }

    #[test]
    fn quick_ranks_are_the_ranks_of_every_layout_up_to_nine_cells() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let r = Ranker::new(Board::new(rows, cols).unwrap()).unwrap();
            let quick = r.quick.expect("tables up to 9 cells");
            for rank in 0..r.states() {
                for class in 0..2 {
                    let (packed, blank) = r.unrank_packed(rank, class);
                    let block = blank as u64 * r.block();
                    // The tables against the digit-by-digit loop, and both against the rank.
                    let (by_digits, inversions) = r.rank_and_inversions(packed, blank);
                    let (by_tables, parity) = quick.rank_and_parity(packed, blank);
                    assert_eq!(block + u64::from(by_tables), rank, "{rows}x{cols} {rank}");
                    assert_eq!(block + u64::from(by_digits), rank, "{rows}x{cols} {rank}");
                    assert_eq!(parity, inversions & 1, "{rows}x{cols} {rank}");
                    assert_eq!(r.rank_packed(packed, blank), rank);
                    let layout = r.unrank(rank, class);
                    assert_eq!(r.rank_and_class(&layout), (rank, layout.class()));
                }
            }
        }
        for (rows, cols) in [(2, 5), (3, 4), (2, 6)] {
            let r = Ranker::new(Board::new(rows, cols).unwrap()).unwrap();
            assert!(r.quick.is_none());
        }
    }

    #[test]
    fn a_step_without_a_branch_is_the_step() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (3, 4)] {
            let board = Board::new(rows, cols).unwrap();
            let r = Ranker::new(board).unwrap();
            let neighbors = crate::Neighbors::new(board);
            for rank in (0..r.states()).step_by((r.states() / 5000).max(1) as usize) {
                for class in 0..2 {
                    let (packed, blank) = r.unrank_packed(rank, class);
                    for &(m, to) in neighbors.from(blank) {
                        let to = usize::from(to);
                        let moved = crate::slide(packed, blank, to);
                        let want = r.step(rank, m, moved, to);
                        assert_eq!(r.step_unpredictable(rank, m, moved, to), want);
                        let layout = r.unrank(rank, class).moved(m).unwrap();
                        assert_eq!(want, r.rank(&layout), "{rows}x{cols} {rank} {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn refuses_boards_too_large_to_rank() {
        assert!(Ranker::new(Board::new(4, 4).unwrap()).is_err());
        assert!(Ranker::new(Board::new(3, 4).unwrap()).is_ok());
    }

    #[test]
    fn nth_set_bit_selects() {
        assert_eq!(nth_set_bit(0b1011_0100, 0), 2);
        assert_eq!(nth_set_bit(0b1011_0100, 1), 4);
        assert_eq!(nth_set_bit(0b1011_0100, 3), 7);
    }
}
