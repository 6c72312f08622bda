//! [`Ranks`]: what a search over every rank asks of a ranking, so that one [`Scan`] and one
//! search serve both widths of the same rank. [`Ranker`] keeps the ranks of one blank cell in
//! 32 bits (boards up to [`MAX_TABLE_CELLS`] cells, the hot loops of today's tables);
//! [`WideRanker`] keeps them in 64 bits (15 and 16 cells, where (n−1)!/2 passes 2³²). Both
//! give the same rank to a layout, so a scan made with either visits the same ranks with the
//! same neighbours; a search is compiled once for each, and the narrow one is unchanged.
//!
//! [`Scan`]: super::Scan
//! [`MAX_TABLE_CELLS`]: crate::MAX_TABLE_CELLS

use std::fmt::Debug;

use super::{Ranker, WideRanker};
use crate::{Board, BoardError, Layout};

/// The environment variable that makes the 2-bit search of every state, and the reading of
/// its tables, rank in 64 bits ([`WideRanker`]) on every board when it is `1`, as they must
/// past 14 cells, and the 24-puzzle's pattern builder rank every group's placements in 64 bits
/// (`WidePlacementRanker25`), as groups of 8 tiles and more must: the files are the same byte
/// for byte, and this is what tests run the wide code on small boards and groups with. Read by
/// the generator and the query crate.
pub const WIDE_RANKS_ENV: &str = "SLIDETABLE_WIDE_RANKS";

/// A dense ranking of one board's layouts, `blank · (n−1)!/2 + half-Lehmer(tiles)`, in the
/// width of the implementor.
pub trait Ranks: Copy + Debug + Send + Sync + 'static {
    /// The ranking of `board`, or why this width cannot rank it.
    fn for_board(board: Board) -> Result<Self, BoardError>;
    /// The board ranked.
    fn board(&self) -> Board;
    /// The number of ranks: n!/2.
    fn states(&self) -> u64;
    /// The ranks that share one blank cell: (n−1)!/2.
    fn block(&self) -> u64;
    /// The weight of the `i`-th Lehmer digit (i < n − 3): (n−2−i)!/2.
    fn weight(&self, i: usize) -> i64;
    /// The `i`-th Lehmer digit of the rank within a block `r` (below the weight of digit
    /// `i − 1`), and what is left of `r` below digit `i`'s weight.
    fn digit(&self, r: u64, i: usize) -> (u32, u64);
    /// The rank of a layout in [`Layout::packed`] form with its blank in `blank`.
    fn rank_packed(&self, packed: u64, blank: usize) -> u64;
    /// The rank of `layout` within its own parity class.
    fn rank(&self, layout: &Layout) -> u64 {
        self.rank_packed(layout.packed(), layout.blank())
    }
    /// The layout of parity class `class` with rank `rank`, packed, and its blank.
    fn unrank_packed(&self, rank: u64, class: u8) -> (u64, usize);
    /// The layout of parity class `class` with rank `rank`.
    fn unrank(&self, rank: u64, class: u8) -> Layout;
}

impl Ranks for Ranker {
    fn for_board(board: Board) -> Result<Ranker, BoardError> {
        Ranker::new(board)
    }
    #[inline]
    fn board(&self) -> Board {
        Ranker::board(self)
    }
    #[inline]
    fn states(&self) -> u64 {
        Ranker::states(self)
    }
    #[inline]
    fn block(&self) -> u64 {
        Ranker::block(self)
    }
    #[inline(always)]
    fn weight(&self, i: usize) -> i64 {
        i64::from(self.weights[i])
    }
    #[inline(always)]
    fn digit(&self, r: u64, i: usize) -> (u32, u64) {
        // A rank within a block fits 32 bits on these boards.
        let (r, w) = (r as u32, self.weights[i]);
        (r / w, u64::from(r % w))
    }
    #[inline]
    fn rank_packed(&self, packed: u64, blank: usize) -> u64 {
        Ranker::rank_packed(self, packed, blank)
    }
    #[inline]
    fn unrank_packed(&self, rank: u64, class: u8) -> (u64, usize) {
        Ranker::unrank_packed(self, rank, class)
    }
    #[inline]
    fn unrank(&self, rank: u64, class: u8) -> Layout {
        Ranker::unrank(self, rank, class)
    }
}

impl Ranks for WideRanker {
    fn for_board(board: Board) -> Result<WideRanker, BoardError> {
        Ok(WideRanker::new(board))
    }
    #[inline]
    fn board(&self) -> Board {
        WideRanker::board(self)
    }
    #[inline]
    fn states(&self) -> u64 {
        WideRanker::states(self)
    }
    #[inline]
    fn block(&self) -> u64 {
        WideRanker::block(self)
    }
    #[inline(always)]
    fn weight(&self, i: usize) -> i64 {
        self.weights[i] as i64
    }
    #[inline(always)]
    fn digit(&self, r: u64, i: usize) -> (u32, u64) {
        let w = self.weights[i];
        // Past the first two or three digits both fit 32 bits, whose division is cheaper.
        if (r | w) >> 32 == 0 {
            let (r32, w32) = (r as u32, w as u32);
            (r32 / w32, u64::from(r32 % w32))
        } else {
            ((r / w) as u32, r % w)
        }
    }
    #[inline]
    fn rank_packed(&self, packed: u64, blank: usize) -> u64 {
        WideRanker::rank_packed(self, packed, blank)
    }
    #[inline]
    fn unrank_packed(&self, rank: u64, class: u8) -> (u64, usize) {
        WideRanker::unrank_packed(self, rank, class)
    }
    #[inline]
    fn unrank(&self, rank: u64, class: u8) -> Layout {
        WideRanker::unrank(self, rank, class)
    }
}
