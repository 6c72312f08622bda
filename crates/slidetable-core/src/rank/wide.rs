//! [`WideRanker`]: the rank of [`Ranker`](super::Ranker) on every board up to
//! [`MAX_CELLS`] cells. Past 14 cells the ranks of one blank cell, (n−1)!/2, pass 2³² (15!/2 ≈
//! 6.5·10¹¹ on 16 cells), so this ranker keeps its weights in 64 bits; the rank itself is the
//! same formula, `blank · (n−1)!/2 + half-Lehmer(tiles)`, below n!/2 ≤ 16!/2 ≈ 1.05·10¹³. On a
//! board of at most 14 cells it gives exactly [`Ranker`](super::Ranker)'s ranks (a test
//! holds them equal), so a table of the states within some depth and a table of every state
//! index a layout alike. The hot loops of whole tables keep the 32-bit ranker.

use super::{drop_nibble, nth_set_bit, Ranks};
use crate::layout::class_of;
use crate::{factorial, Board, Layout, Move, MAX_CELLS};

/// Rank and unrank layouts of any board up to [`MAX_CELLS`] cells, in 64-bit arithmetic.
#[derive(Clone, Copy, Debug)]
pub struct WideRanker {
    board: Board,
    /// (n−1)!/2: the ranks that share one blank cell.
    block: u64,
    /// weights[i] = (m−1−i)!/2 for the i-th tile (m = n−1 tiles), i < m−2.
    pub(super) weights: [u64; MAX_CELLS],
}

impl WideRanker {
    /// A ranker for `board` (any board [`Board::new`] makes).
    pub fn new(board: Board) -> WideRanker {
        let m = board.cells() - 1;
        let mut weights = [0u64; MAX_CELLS];
        for (i, w) in weights.iter_mut().enumerate().take(m - 2) {
            *w = factorial(m - 1 - i) / 2;
        }
        WideRanker {
            board,
            block: factorial(m) / 2,
            weights,
        }
    }

    /// The board this ranker ranks.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The number of ranks: n!/2.
    #[inline]
    pub fn states(&self) -> u64 {
        self.block * self.board.cells() as u64
    }

    /// The ranks that share one blank cell: (n−1)!/2. Rank `r` has its blank in `r / block`.
    #[inline]
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The rank of `layout` within its own parity class (pair it with [`Layout::class`]).
    #[inline]
    pub fn rank(&self, layout: &Layout) -> u64 {
        debug_assert_eq!(layout.board(), self.board);
        self.rank_packed(layout.packed(), layout.blank())
    }

    /// [`WideRanker::rank`] of a layout in [`Layout::packed`] form with its blank in `blank`.
    #[inline]
    pub fn rank_packed(&self, packed: u64, blank: usize) -> u64 {
        let n = self.board.cells();
        let mut seq = drop_nibble(packed, blank);
        let mut remaining: u32 = (1u32 << n) - 2;
        let mut r = 0u64;
        for &w in &self.weights[..n - 3] {
            let t = (seq & 0xF) as u32;
            seq >>= 4;
            let smaller = (remaining & ((1u32 << t) - 1)).count_ones();
            r += u64::from(smaller) * w;
            remaining ^= 1 << t;
        }
        blank as u64 * self.block + r
    }

    /// The rank and the parity class (see [`Layout::class`]) of a layout in
    /// [`Layout::packed`] form with its blank in `blank`, in one pass: the Lehmer digits that
    /// make the rank also count the inversions.
    #[inline]
    pub fn rank_and_class_packed(&self, packed: u64, blank: usize) -> (u64, u8) {
        let n = self.board.cells();
        let mut seq = drop_nibble(packed, blank);
        let mut remaining: u32 = (1u32 << n) - 2;
        let (mut r, mut inversions) = (0u64, 0u32);
        for &w in &self.weights[..n - 3] {
            let t = (seq & 0xF) as u32;
            seq >>= 4;
            let smaller = (remaining & ((1u32 << t) - 1)).count_ones();
            r += u64::from(smaller) * w;
            inversions += smaller;
            remaining ^= 1 << t;
        }
        // Of the last two tiles, the first is an inversion exactly when it is the larger.
        let t = (seq & 0xF) as u32;
        inversions += u32::from(remaining >> (t + 1) == 0);
        (
            blank as u64 * self.block + r,
            class_of(self.board, inversions, blank),
        )
    }

    /// The rank of the neighbour reached from rank `rank` by move `m`, given that
    /// neighbour's packed tiles `moved` and its blank cell `to`: one block over for a
    /// horizontal move, ranked afresh for a vertical one (as [`crate::Ranker::step`]).
    #[inline]
    pub fn step(&self, rank: u64, m: Move, moved: u64, to: usize) -> u64 {
        match m {
            Move::Left => rank.wrapping_sub(self.block),
            Move::Right => rank.wrapping_add(self.block),
            Move::Up | Move::Down => self.rank_packed(moved, to),
        }
    }

    /// The layout of parity class `class` with rank `rank`, in [`Layout::packed`] form, and
    /// its blank cell. `rank` must be below [`WideRanker::states`].
    #[inline]
    pub fn unrank_packed(&self, rank: u64, class: u8) -> (u64, usize) {
        debug_assert!(rank < self.states(), "rank {rank} out of range");
        let n = self.board.cells();
        let blank = (rank / self.block) as usize;
        let mut r = rank % self.block;
        let mut remaining: u32 = (1u32 << n) - 2;
        let mut inversions = 0u32;
        let mut seq = 0u64;
        for i in 0..n - 3 {
            let (d, rest) = Ranks::digit(self, r, i);
            r = rest;
            inversions += d;
            let t = nth_set_bit(remaining, d);
            remaining ^= 1 << t;
            seq |= u64::from(t) << (4 * i);
        }
        super::finish_unrank(self.board, seq, remaining, inversions, blank, class)
    }

    /// The layout of parity class `class` (0 or 1) with this rank, below
    /// [`WideRanker::states`].
    pub fn unrank(&self, rank: u64, class: u8) -> Layout {
        let (packed, _) = self.unrank_packed(rank, class);
        Layout::from_packed(self.board, packed).expect("an unranked layout is a permutation")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ranker;

    #[test]
    fn wide_ranks_are_the_ranks_up_to_fourteen_cells() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 3), (2, 5), (3, 4), (2, 6), (2, 7)] {
            let board = Board::new(rows, cols).unwrap();
            let (narrow, wide) = (Ranker::new(board).unwrap(), WideRanker::new(board));
            assert_eq!(
                (narrow.states(), narrow.block()),
                (wide.states(), wide.block())
            );
            for rank in (0..narrow.states()).step_by((narrow.states() / 3001).max(1) as usize) {
                for class in 0..2 {
                    let (packed, blank) = narrow.unrank_packed(rank, class);
                    assert_eq!(wide.unrank_packed(rank, class), (packed, blank));
                    assert_eq!(wide.rank_packed(packed, blank), rank);
                }
            }
        }
    }

    #[test]
    fn wide_ranks_and_classes_and_steps_are_the_narrow_ones() {
        for (rows, cols) in [(2, 3), (3, 3), (2, 5), (3, 4), (2, 7)] {
            let board = Board::new(rows, cols).unwrap();
            let (narrow, wide) = (Ranker::new(board).unwrap(), WideRanker::new(board));
            let neighbors = crate::Neighbors::new(board);
            for rank in (0..narrow.states()).step_by((narrow.states() / 2001).max(1) as usize) {
                for class in 0..2 {
                    let (packed, blank) = narrow.unrank_packed(rank, class);
                    let want = narrow.rank_and_class_packed(packed, blank);
                    assert_eq!(wide.rank_and_class_packed(packed, blank), want);
                    for &(m, to) in neighbors.from(blank) {
                        let to = usize::from(to);
                        let moved = crate::slide(packed, blank, to);
                        assert_eq!(
                            wide.step(rank, m, moved, to),
                            narrow.step(rank, m, moved, to)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sixteen_cells_rank_past_two_to_the_forty() {
        for (rows, cols) in [(3, 5), (5, 3), (4, 4), (2, 8), (8, 2)] {
            let board = Board::new(rows, cols).unwrap();
            let wide = WideRanker::new(board);
            assert_eq!(wide.states(), board.reachable_states());
            let states = wide.states();
            // The first, the last and ranks spread over the whole range, past 2³² and 2⁴⁰.
            let ranks = (0..4001u64)
                .map(|i| ((i as u128 * (states - 1) as u128) / 4000) as u64)
                .chain([1 << 32, (1 << 40).min(states - 1), states - 1]);
            for rank in ranks {
                for class in 0..2 {
                    let layout = wide.unrank(rank, class);
                    assert_eq!(layout.class(), class, "{board} {rank}");
                    assert_eq!(wide.rank(&layout), rank, "{board} {rank}");
                }
            }
            let goal = board.standard_goal();
            assert_eq!(wide.rank(&goal) / wide.block(), board.cells() as u64 - 1);
        }
    }
}
