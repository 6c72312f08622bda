//! Ranking placements: where `k` distinct tiles lie among the `n` cells of a board, as a
//! bijection with `0 .. n!/(n−k)!`. A pattern database stores one entry per placement of its
//! tiles, indexed by this rank.
//!
//! The rank is a k-permutation Lehmer code in mixed radix: the first tile's cell is a digit
//! in `0..n`, the second's is counted among the `n − 1` cells the first left free, and so on.
//! A digit is `cell − (cells below it already taken)`, one `popcnt` of a 16-bit mask: a
//! look-up table would cost a load where the instruction costs one cycle, so none is used
//! for ranking. Unranking divides by each digit's weight as a multiplication by its
//! reciprocal (a division costs tens of cycles, and the pattern search unranks every
//! placement it expands), then selects the digit-th free cell from a byte's table.
//!
//! The board's largest cell count is a parameter of the type, so the 15-puzzle's ranker
//! ([`PlacementRanker`], 16 cells) keeps its 16-cell arrays and two-byte select while the
//! 24-puzzle's ([`PlacementRanker25`], 25 cells) has room for its cells; both are one code.

use crate::MAX_CELLS;

/// The most cells a [`PlacementRanker25`] ranks over: the 5×5 board.
pub const MAX_CELLS_25: usize = 25;

/// Why a placement ranker cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlacementError {
    /// No tiles, more tiles than cells, or more cells than a board has.
    #[error("a placement of {tiles} tiles over {cells} cells is not possible (1 ≤ tiles ≤ cells ≤ {max})")]
    Size {
        /// The tiles asked for.
        tiles: usize,
        /// The cells asked for.
        cells: usize,
        /// The most cells the ranker holds.
        max: usize,
    },
    /// More placements than a `u32` rank holds.
    #[error(
        "{tiles} tiles over {cells} cells make {count} placements, more than a u32 rank holds"
    )]
    TooMany {
        /// The tiles asked for.
        tiles: usize,
        /// The cells asked for.
        cells: usize,
        /// The placements they make.
        count: u64,
    },
}

/// Ranks and unranks placements of `k` tiles over `n` cells, for boards of up to 16 cells.
pub type PlacementRanker = Placements<MAX_CELLS>;

/// Ranks and unranks placements of `k` tiles over `n` cells, for boards of up to 25 cells
/// (the 24-puzzle's pattern databases).
pub type PlacementRanker25 = Placements<MAX_CELLS_25>;

/// Ranks and unranks placements of `k` tiles over `n ≤ N` cells. Cheap to copy. Used
/// through [`PlacementRanker`] (N = 16) and [`PlacementRanker25`] (N = 25).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placements<const N: usize> {
    cells: u8,
    tiles: u8,
    /// `weights[i]` = (n−1−i)!/(n−k)!: the value of one unit of the i-th digit.
    weights: [u32; N],
    /// `reciprocals[i]` = ⌊2⁶⁴ / weights[i]⌋ + 1 (0 where the weight is 1): `x / w` is the
    /// high half of `x · reciprocal` for every `x` and `w` below 2³², since the product's
    /// error, below `x / 2⁶⁴`, stays under the `1 / w` that separates `x / w` from the next
    /// whole number.
    reciprocals: [u64; N],
    count: u32,
}

/// `SELECT[b][d]`: the bit number of the `d`-th set bit (from 0) of the byte `b`.
static SELECT: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut d) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][d] = bit as u8;
                d += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The cell of the `digit`-th set bit (from 0) of `free` (more than `digit` bits set), byte
/// by byte from the lowest.
#[inline(always)]
fn select_wide(free: u32, digit: u32) -> u32 {
    let mut digit = digit;
    let mut base = 0;
    loop {
        let byte = (free >> base) & 0xff;
        let here = byte.count_ones();
        if digit < here {
            return base + u32::from(SELECT[byte as usize][digit as usize]);
        }
        digit -= here;
        base += 8;
    }
}

/// The cell of the `digit`-th set bit (from 0) of `free` (16 bits at most, with more than
/// `digit` bits set).
#[inline(always)]
fn select(free: u32, digit: u32) -> u32 {
    let low = free & 0xff;
    let in_low = low.count_ones();
    let (byte, digit, base) = if digit < in_low {
        (low, digit, 0)
    } else {
        ((free >> 8) & 0xff, digit - in_low, 8)
    };
    base + u32::from(SELECT[byte as usize][digit as usize & 7])
}

impl<const N: usize> Placements<N> {
    /// A ranker for `tiles` tiles over `cells` cells; the count of placements must fit a
    /// `u32` (every k ≤ 9 on 16 cells does: 16!/7! = 4,151,347,200; on 25 cells, k ≤ 7).
    pub fn new(cells: usize, tiles: usize) -> Result<Placements<N>, PlacementError> {
        if tiles == 0 || tiles > cells || cells > N {
            return Err(PlacementError::Size {
                tiles,
                cells,
                max: N,
            });
        }
        // Falling factorials: 25! overflows a u64, n!/(n−k)! does not.
        let falling =
            |top: usize, len: usize| -> u64 { (0..len).map(|j| (top - j) as u64).product::<u64>() };
        let count = falling(cells, tiles);
        if count > u64::from(u32::MAX) {
            return Err(PlacementError::TooMany {
                tiles,
                cells,
                count,
            });
        }
        let mut weights = [0u32; N];
        let mut reciprocals = [0u64; N];
        for i in 0..tiles {
            weights[i] = falling(cells - 1 - i, tiles - 1 - i) as u32;
            if weights[i] > 1 {
                reciprocals[i] = u64::MAX / u64::from(weights[i]) + 1;
            }
        }
        Ok(Placements {
            cells: cells as u8,
            tiles: tiles as u8,
            weights,
            reciprocals,
            count: count as u32,
        })
    }

    /// Cells of the board.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cells as usize
    }

    /// Tiles placed.
    #[inline]
    pub fn tiles(&self) -> usize {
        self.tiles as usize
    }

    /// Number of placements: n!/(n−k)!; ranks are `0..count`.
    #[inline]
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The rank of a placement: `cells_of[i]` is the cell of the i-th tile. The cells must be
    /// distinct and below [`cells`](Self::cells) (checked in debug builds only: this is the
    /// hot loop of a pattern-database search; [`try_rank`](Self::try_rank) checks).
    #[inline]
    pub fn rank(&self, cells_of: &[u8]) -> u32 {
        debug_assert_eq!(cells_of.len(), self.tiles());
        let mut used = 0u32;
        let mut rank = 0u32;
        for (i, &c) in cells_of.iter().enumerate() {
            debug_assert!(c < self.cells && used & (1 << c) == 0);
            let below = (used & ((1u32 << c) - 1)).count_ones();
            rank += (u32::from(c) - below) * self.weights[i];
            used |= 1 << c;
        }
        rank
    }

    /// The rank after the tile of slot `slot` moves from cell `from` to the free cell `to`,
    /// from the rank before, without ranking anew: `occupied` has a bit for each cell of the
    /// placement, and `slot_at(x)` is the slot of the tile in cell `x`, asked only for the
    /// occupied cells strictly between `from` and `to`. Each digit is a tile's cell less the
    /// earlier tiles' cells below it, so the moved tile's digit changes by the cells it
    /// passes less the earlier tiles among them, and each later tile it passes counts one
    /// earlier tile below it more or less. A move along a row passes no cell: one addition.
    #[inline(always)]
    pub fn moved_rank(
        &self,
        rank: u32,
        slot: usize,
        from: usize,
        to: usize,
        occupied: u32,
        slot_at: impl Fn(usize) -> usize,
    ) -> u32 {
        let (lo, hi) = if from < to { (from, to) } else { (to, from) };
        let w = self.weights[slot];
        // Wrapping: the terms sum to the rank's change, which fits, whatever the order.
        let mut delta = ((hi - lo) as u32).wrapping_mul(w);
        let mut passed = occupied & ((1u32 << hi) - 1) & !((2u32 << lo) - 1);
        while passed != 0 {
            let s = slot_at(passed.trailing_zeros() as usize);
            passed &= passed - 1;
            delta = if s < slot {
                delta.wrapping_sub(w)
            } else {
                delta.wrapping_add(self.weights[s])
            };
        }
        if from < to {
            rank.wrapping_add(delta)
        } else {
            rank.wrapping_sub(delta)
        }
    }

    /// [`rank`](Self::rank), or `None` when `cells_of` is not a placement (wrong length, a
    /// cell off the board or used twice).
    pub fn try_rank(&self, cells_of: &[u8]) -> Option<u32> {
        if cells_of.len() != self.tiles() {
            return None;
        }
        let mut used = 0u32;
        for &c in cells_of {
            if c >= self.cells || used & (1 << c) != 0 {
                return None;
            }
            used |= 1 << c;
        }
        Some(self.rank(cells_of))
    }

    /// The placement of `rank` (below [`count`](Self::count)) into `cells_of` (k long).
    /// Returns the mask of the cells it uses.
    #[inline]
    pub fn unrank(&self, rank: u32, cells_of: &mut [u8]) -> u32 {
        debug_assert!(rank < self.count);
        debug_assert_eq!(cells_of.len(), self.tiles());
        let mut free = (1u32 << self.cells) - 1;
        let mut rest = rank;
        for (i, cell) in cells_of.iter_mut().enumerate() {
            let w = self.weights[i];
            let digit = if w == 1 {
                rest
            } else {
                ((u128::from(rest) * u128::from(self.reciprocals[i])) >> 64) as u32
            };
            rest -= digit * w;
            // N is a constant: one branch is compiled, the 16-cell one for the 15-puzzle.
            let c = if N <= 16 {
                select(free, digit)
            } else {
                select_wide(free, digit)
            };
            *cell = c as u8;
            free &= !(1 << c);
        }
        !free & ((1u32 << self.cells) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every k-permutation of 0..n in lexicographic order.
    fn each(n: usize, k: usize, f: &mut impl FnMut(&[u8])) {
        fn go(n: usize, k: usize, used: u32, seq: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
            if seq.len() == k {
                f(seq);
                return;
            }
            for c in 0..n as u8 {
                if used & (1 << c) == 0 {
                    seq.push(c);
                    go(n, k, used | 1 << c, seq, f);
                    seq.pop();
                }
            }
        }
        go(n, k, 0, &mut Vec::new(), f);
    }

    #[test]
    fn ranks_are_lexicographic_and_dense_for_small_boards() {
        for n in 1..=9 {
            for k in 1..=n.min(5) {
                let r = PlacementRanker::new(n, k).unwrap();
                let mut next = 0u32;
                let mut back = vec![0u8; k];
                each(n, k, &mut |p| {
                    assert_eq!(r.rank(p), next, "n {n} k {k} {p:?}");
                    let mask = r.unrank(next, &mut back);
                    assert_eq!(back, p);
                    assert_eq!(mask, p.iter().fold(0, |m, &c| m | 1 << c));
                    next += 1;
                });
                assert_eq!(next, r.count());
            }
        }
    }

    #[test]
    fn unrank_inverts_rank_over_sixteen_cells() {
        // Ranks spread over the whole range, the ends included, for every group size a
        // 15-puzzle database may have: the reciprocals must divide exactly everywhere.
        for k in 1..=9 {
            let r = PlacementRanker::new(16, k).unwrap();
            let mut cells = vec![0u8; k];
            let step = (r.count() / 100_003).max(1);
            let samples = (0..r.count()).step_by(step as usize).chain([r.count() - 1]);
            for rank in samples {
                let mask = r.unrank(rank, &mut cells);
                assert_eq!(r.rank(&cells), rank, "k {k} {cells:?}");
                assert_eq!(mask, cells.iter().fold(0, |m, &c| m | 1 << c));
            }
        }
    }

    #[test]
    fn a_moved_rank_equals_the_rank_of_the_moved_placement() {
        // Every placement of 3 tiles on 3×4 and of 4 on 2×3 (as cells 0..n), every tile moved
        // to every free cell (not only the neighbours: the formula holds for any jump).
        for (n, k) in [(12, 3), (6, 4), (16, 2)] {
            let r = PlacementRanker::new(n, k).unwrap();
            each(n, k, &mut |p| {
                let rank = r.rank(p);
                let occupied = p.iter().fold(0, |m, &c| m | 1 << c);
                let slot_at = |x: usize| p.iter().position(|&c| usize::from(c) == x).unwrap();
                for slot in 0..k {
                    for to in (0..n).filter(|&c| occupied & (1 << c) == 0) {
                        let mut q = p.to_vec();
                        q[slot] = to as u8;
                        let from = usize::from(p[slot]);
                        assert_eq!(
                            r.moved_rank(rank, slot, from, to, occupied, slot_at),
                            r.rank(&q),
                            "n {n} k {k} {p:?} slot {slot} to {to}"
                        );
                    }
                }
            });
        }
    }

    #[test]
    fn counts_of_the_fifteen_puzzle_groups() {
        for (k, count) in [
            (5, 524_160),
            (6, 5_765_760),
            (7, 57_657_600),
            (8, 518_918_400),
        ] {
            assert_eq!(PlacementRanker::new(16, k).unwrap().count(), count);
        }
        assert!(PlacementRanker::new(16, 9).is_ok());
        assert!(matches!(
            PlacementRanker::new(16, 10),
            Err(PlacementError::TooMany { .. })
        ));
        assert!(PlacementRanker::new(16, 0).is_err());
        assert!(PlacementRanker::new(4, 5).is_err());
        assert!(PlacementRanker::new(17, 1).is_err());
    }

    #[test]
    fn try_rank_refuses_what_is_not_a_placement() {
        let r = PlacementRanker::new(16, 3).unwrap();
        assert_eq!(r.try_rank(&[0, 1]), None);
        assert_eq!(r.try_rank(&[0, 1, 16]), None);
        assert_eq!(r.try_rank(&[4, 1, 4]), None);
        assert_eq!(r.try_rank(&[15, 14, 13]), Some(r.count() - 1));
    }

    #[test]
    fn twenty_five_cells_rank_and_unrank_like_sixteen() {
        // The 24-puzzle's groups: counts, and unrank inverting rank over the whole range.
        assert_eq!(PlacementRanker25::new(25, 6).unwrap().count(), 127_512_000);
        assert_eq!(
            PlacementRanker25::new(25, 7).unwrap().count(),
            2_422_728_000
        );
        assert!(matches!(
            PlacementRanker25::new(25, 8),
            Err(PlacementError::TooMany { .. })
        ));
        assert!(PlacementRanker25::new(26, 1).is_err());
        for k in 1..=7 {
            let r = PlacementRanker25::new(25, k).unwrap();
            let mut cells = vec![0u8; k];
            let step = (r.count() / 50_021).max(1);
            for rank in (0..r.count()).step_by(step as usize).chain([r.count() - 1]) {
                let mask = r.unrank(rank, &mut cells);
                assert_eq!(r.rank(&cells), rank, "k {k} {cells:?}");
                assert_eq!(mask, cells.iter().fold(0, |m, &c| m | 1 << c));
            }
        }
        // The same ranks as the 16-cell ranker where both apply.
        let (a, b) = (
            PlacementRanker::new(16, 5).unwrap(),
            PlacementRanker25::new(16, 5).unwrap(),
        );
        for rank in (0..a.count()).step_by(997) {
            let (mut x, mut y) = ([0u8; 5], [0u8; 5]);
            a.unrank(rank, &mut x);
            b.unrank(rank, &mut y);
            assert_eq!(x, y);
        }
    }
}
