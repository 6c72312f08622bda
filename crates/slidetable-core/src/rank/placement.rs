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
//! So is the rank's width ([`PlacementRank`]): `u32` wherever the placements fit it (every
//! group of up to 7 tiles of 25 cells, 25!/18! = 2,422,728,000), `u64` past it (8 tiles of
//! 25 cells make 25!/17! ≈ 4.36·10¹⁰: [`WidePlacementRanker25`]); both give a placement the
//! same rank, and the narrow one's code is unchanged.

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
    /// More placements than the rank's width holds.
    #[error(
        "{tiles} tiles over {cells} cells make {count} placements, more than a {width}-bit rank holds"
    )]
    TooMany {
        /// The tiles asked for.
        tiles: usize,
        /// The cells asked for.
        cells: usize,
        /// The placements they make (`u128`: past 2⁶⁴ too).
        count: u128,
        /// The rank's bits.
        width: u32,
    },
}

/// The integer a placement's rank is kept in: `u32` (what every 15-puzzle group and every
/// 24-puzzle group of up to 7 tiles needs, and the hot loops' width) or `u64` (8 tiles and
/// more of 25 cells). The arithmetic a ranker does, in that width.
pub trait PlacementRank:
    Copy + Ord + std::fmt::Debug + Default + Send + Sync + Into<u64> + 'static
{
    /// The rank's bits.
    const BITS: u32;
    /// `x` in this width (below its largest value: the caller's count bounds it).
    fn of(x: u64) -> Self;
    /// `self + x`, wrapping.
    fn wrapping_add(self, x: Self) -> Self;
    /// `self − x`, wrapping.
    fn wrapping_sub(self, x: Self) -> Self;
    /// `self · x`, wrapping.
    fn wrapping_mul(self, x: Self) -> Self;
    /// `self / w` for `w` ≥ 2 by its `reciprocal` (⌊2⁶⁴ / w⌋ + 1), without a division.
    fn quotient(self, w: Self, reciprocal: u64) -> Self;
}

impl PlacementRank for u32 {
    const BITS: u32 = 32;
    #[inline(always)]
    fn of(x: u64) -> u32 {
        x as u32
    }
    #[inline(always)]
    fn wrapping_add(self, x: u32) -> u32 {
        u32::wrapping_add(self, x)
    }
    #[inline(always)]
    fn wrapping_sub(self, x: u32) -> u32 {
        u32::wrapping_sub(self, x)
    }
    #[inline(always)]
    fn wrapping_mul(self, x: u32) -> u32 {
        u32::wrapping_mul(self, x)
    }
    #[inline(always)]
    fn quotient(self, _w: u32, reciprocal: u64) -> u32 {
        // Exact for every `x` and `w` below 2³²: the product's error, below `x / 2⁶⁴`, stays
        // under the `1 / w` that separates `x / w` from the next whole number.
        ((u128::from(self) * u128::from(reciprocal)) >> 64) as u32
    }
}

impl PlacementRank for u64 {
    const BITS: u32 = 64;
    #[inline(always)]
    fn of(x: u64) -> u64 {
        x
    }
    #[inline(always)]
    fn wrapping_add(self, x: u64) -> u64 {
        u64::wrapping_add(self, x)
    }
    #[inline(always)]
    fn wrapping_sub(self, x: u64) -> u64 {
        u64::wrapping_sub(self, x)
    }
    #[inline(always)]
    fn wrapping_mul(self, x: u64) -> u64 {
        u64::wrapping_mul(self, x)
    }
    #[inline(always)]
    fn quotient(self, w: u64, reciprocal: u64) -> u64 {
        // The product's high half is `x / w` plus an error below `x / 2⁶⁴` < 1: the quotient
        // or one more, which one multiplication tells apart.
        let q = ((u128::from(self) * u128::from(reciprocal)) >> 64) as u64;
        if q.wrapping_mul(w) > self {
            q - 1
        } else {
            q
        }
    }
}

/// Ranks and unranks placements of `k` tiles over `n` cells, for boards of up to 16 cells.
pub type PlacementRanker = Placements<MAX_CELLS>;

/// Ranks and unranks placements of `k` tiles over `n` cells, for boards of up to 25 cells
/// (the 24-puzzle's pattern databases).
pub type PlacementRanker25 = Placements<MAX_CELLS_25>;

/// [`PlacementRanker25`] in 64-bit ranks: groups whose placements pass 2³² (8 tiles and more
/// of 25 cells), the same rank for every placement.
pub type WidePlacementRanker25 = Placements<MAX_CELLS_25, u64>;

/// Ranks and unranks placements of `k` tiles over `n ≤ N` cells, in ranks of `R`
/// ([`PlacementRank`]: `u32` unless said). Cheap to copy. Used through [`PlacementRanker`]
/// (N = 16), [`PlacementRanker25`] and [`WidePlacementRanker25`] (N = 25).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placements<const N: usize, R: PlacementRank = u32> {
    cells: u8,
    tiles: u8,
    /// `weights[i]` = (n−1−i)!/(n−k)!: the value of one unit of the i-th digit.
    weights: [R; N],
    /// `reciprocals[i]` = ⌊2⁶⁴ / weights[i]⌋ + 1 (0 where the weight is 1), for
    /// [`PlacementRank::quotient`].
    reciprocals: [u64; N],
    count: R,
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

/// The placements of `tiles` tiles over `cells` cells, `cells!/(cells−tiles)!` (in `u128`:
/// 25 cells pass 2⁶⁴ from 16 tiles on).
pub fn placement_count(cells: usize, tiles: usize) -> u128 {
    (0..tiles as u128)
        .map(|j| (cells as u128).saturating_sub(j))
        .product()
}

impl<const N: usize, R: PlacementRank> Placements<N, R> {
    /// A ranker for `tiles` tiles over `cells` cells; the count of placements must fit `R`
    /// (in a `u32`, every k ≤ 9 on 16 cells: 16!/7! = 4,151,347,200; on 25 cells, k ≤ 7; in a
    /// `u64`, k ≤ 15 on 25 cells).
    pub fn new(cells: usize, tiles: usize) -> Result<Placements<N, R>, PlacementError> {
        if tiles == 0 || tiles > cells || cells > N {
            return Err(PlacementError::Size {
                tiles,
                cells,
                max: N,
            });
        }
        let count = placement_count(cells, tiles);
        if count >> R::BITS != 0 {
            return Err(PlacementError::TooMany {
                tiles,
                cells,
                count,
                width: R::BITS,
            });
        }
        let mut weights = [R::default(); N];
        let mut reciprocals = [0u64; N];
        for i in 0..tiles {
            // Below the count, so it fits.
            let w = placement_count(cells - 1 - i, tiles - 1 - i) as u64;
            weights[i] = R::of(w);
            if w > 1 {
                reciprocals[i] = u64::MAX / w + 1;
            }
        }
        Ok(Placements {
            cells: cells as u8,
            tiles: tiles as u8,
            weights,
            reciprocals,
            count: R::of(count as u64),
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
    pub fn count(&self) -> R {
        self.count
    }

    /// The rank of a placement: `cells_of[i]` is the cell of the i-th tile. The cells must be
    /// distinct and below [`cells`](Self::cells) (checked in debug builds only: this is the
    /// hot loop of a pattern-database search; [`try_rank`](Self::try_rank) checks).
    #[inline]
    pub fn rank(&self, cells_of: &[u8]) -> R {
        debug_assert_eq!(cells_of.len(), self.tiles());
        let mut used = 0u32;
        let mut rank = R::default();
        for (i, &c) in cells_of.iter().enumerate() {
            debug_assert!(c < self.cells && used & (1 << c) == 0);
            let below = (used & ((1u32 << c) - 1)).count_ones();
            let digit = R::of(u64::from(u32::from(c) - below));
            rank = rank.wrapping_add(digit.wrapping_mul(self.weights[i]));
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
        rank: R,
        slot: usize,
        from: usize,
        to: usize,
        occupied: u32,
        slot_at: impl Fn(usize) -> usize,
    ) -> R {
        let (lo, hi) = if from < to { (from, to) } else { (to, from) };
        let w = self.weights[slot];
        // Wrapping: the terms sum to the rank's change, which fits, whatever the order.
        let mut delta = R::of((hi - lo) as u64).wrapping_mul(w);
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
    pub fn try_rank(&self, cells_of: &[u8]) -> Option<R> {
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
    pub fn unrank(&self, rank: R, cells_of: &mut [u8]) -> u32 {
        debug_assert!(rank < self.count);
        debug_assert_eq!(cells_of.len(), self.tiles());
        let mut free = (1u32 << self.cells) - 1;
        let mut rest = rank;
        for (i, cell) in cells_of.iter_mut().enumerate() {
            let w = self.weights[i];
            let digit = if self.reciprocals[i] == 0 {
                rest
            } else {
                rest.quotient(w, self.reciprocals[i])
            };
            rest = rest.wrapping_sub(digit.wrapping_mul(w));
            // A digit is below the cells: it fits 32 bits whatever the width.
            let digit = Into::<u64>::into(digit) as u32;
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
        assert_eq!(
            PlacementRanker25::new(25, 8).unwrap_err().to_string(),
            "8 tiles over 25 cells make 43609104000 placements, more than a 32-bit rank holds"
        );
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

    #[test]
    fn wide_ranks_are_the_narrow_ones_and_go_past_32_bits() {
        // Where both widths rank (every rank of small groups, spread ranks of 7 of 25), the
        // same placement, the same rank, the same moved ranks.
        for (n, k) in [(9, 4), (12, 5), (25, 3), (25, 7)] {
            let narrow = PlacementRanker25::new(n, k).unwrap();
            let wide = WidePlacementRanker25::new(n, k).unwrap();
            assert_eq!(u64::from(narrow.count()), wide.count());
            let step = (narrow.count() / 40_009).max(1);
            let (mut a, mut b) = (vec![0u8; k], vec![0u8; k]);
            for rank in (0..narrow.count()).step_by(step as usize) {
                let ma = narrow.unrank(rank, &mut a);
                let mb = wide.unrank(u64::from(rank), &mut b);
                assert_eq!(
                    (a.as_slice(), ma),
                    (b.as_slice(), mb),
                    "n {n} k {k} rank {rank}"
                );
                assert_eq!(wide.rank(&b), u64::from(rank));
                let slot_at = |x: usize| a.iter().position(|&c| usize::from(c) == x).unwrap();
                for (slot, &cell) in a.iter().enumerate() {
                    let from = usize::from(cell);
                    let to = (0..n).find(|&c| ma & (1 << c) == 0).unwrap();
                    assert_eq!(
                        u64::from(narrow.moved_rank(rank, slot, from, to, ma, slot_at)),
                        wide.moved_rank(u64::from(rank), slot, from, to, ma, slot_at)
                    );
                }
            }
        }
        // 8 to 15 tiles of 25 cells: past 2^32, unrank inverting rank over the whole range,
        // the ends and the ranks next to each multiple of a digit's weight included.
        for k in 8..=15 {
            let r = WidePlacementRanker25::new(25, k).unwrap();
            assert_eq!(u128::from(r.count()), placement_count(25, k));
            let mut cells = vec![0u8; k];
            let step = r.count() / 20_011;
            let ends = [0, 1, r.count() - 2, r.count() - 1];
            let around: Vec<u64> = (0..k)
                .filter(|&i| r.weights[i] > 1)
                .flat_map(|i| [r.weights[i] - 1, r.weights[i], r.weights[i] + 1])
                .flat_map(|w| [w, r.count() - w, w * 3 - 1])
                .collect();
            for rank in (0..r.count())
                .step_by(step as usize)
                .chain(ends)
                .chain(around)
            {
                let mask = r.unrank(rank, &mut cells);
                assert_eq!(r.rank(&cells), rank, "k {k} {cells:?}");
                assert_eq!(mask, cells.iter().fold(0, |m, &c| m | 1 << c));
            }
        }
        assert_eq!(
            WidePlacementRanker25::new(25, 16).unwrap_err().to_string(),
            "16 tiles over 25 cells make 42744736671436800000 placements, more than a 64-bit \
             rank holds"
        );
    }
}
