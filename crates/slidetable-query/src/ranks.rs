//! [`TableRanks`]: the ranking a table is read with, in the width its board needs: 32-bit
//! ranks within a blank cell's block ([`Ranker`]) up to 14 cells, 64-bit ([`WideRanker`]) for
//! the 2-bit tables of 15 and 16 cells. Both give a layout the same rank, so the same
//! questions read the same entries; the width is fixed when the table is opened, and each
//! call takes the branch of it.

use slidetable_core::{Board, Layout, Move, Ranker, WideRanker, WIDE_RANKS_ENV};

/// A table's ranking (see the module's text).
#[derive(Clone, Copy, Debug)]
pub(crate) enum TableRanks {
    Narrow(Ranker),
    Wide(WideRanker),
}

/// `$body` with `$r` bound to the ranker of either width.
macro_rules! either {
    ($ranks:expr, $r:ident => $body:expr) => {
        match $ranks {
            TableRanks::Narrow($r) => $body,
            TableRanks::Wide($r) => $body,
        }
    };
}

impl TableRanks {
    /// The ranking of `board` (any board a header describes).
    pub(crate) fn new(board: Board) -> TableRanks {
        let forced = std::env::var(WIDE_RANKS_ENV).is_ok_and(|v| v == "1");
        match Ranker::new(board) {
            Ok(narrow) if !forced => TableRanks::Narrow(narrow),
            _ => TableRanks::Wide(WideRanker::new(board)),
        }
    }

    /// The 32-bit ranker, when the table is read in it.
    #[inline]
    pub(crate) fn narrow(&self) -> Option<&Ranker> {
        match self {
            TableRanks::Narrow(r) => Some(r),
            TableRanks::Wide(_) => None,
        }
    }

    #[inline]
    pub(crate) fn board(&self) -> Board {
        either!(self, r => r.board())
    }

    #[inline]
    pub(crate) fn states(&self) -> u64 {
        either!(self, r => r.states())
    }

    #[inline]
    pub(crate) fn rank(&self, layout: &Layout) -> u64 {
        either!(self, r => r.rank(layout))
    }

    #[inline]
    pub(crate) fn rank_and_class(&self, layout: &Layout) -> (u64, u8) {
        self.rank_and_class_packed(layout.packed(), layout.blank())
    }

    #[inline]
    pub(crate) fn rank_and_class_packed(&self, packed: u64, blank: usize) -> (u64, u8) {
        either!(self, r => r.rank_and_class_packed(packed, blank))
    }

    #[inline]
    pub(crate) fn unrank(&self, rank: u64, class: u8) -> Layout {
        either!(self, r => r.unrank(rank, class))
    }

    #[inline]
    pub(crate) fn unrank_packed(&self, rank: u64, class: u8) -> (u64, usize) {
        either!(self, r => r.unrank_packed(rank, class))
    }

    #[inline]
    pub(crate) fn step(&self, rank: u64, m: Move, moved: u64, to: usize) -> u64 {
        either!(self, r => r.step(rank, m, moved, to))
    }

    #[inline]
    pub(crate) fn step_unpredictable(&self, rank: u64, m: Move, moved: u64, to: usize) -> u64 {
        match self {
            TableRanks::Narrow(r) => r.step_unpredictable(rank, m, moved, to),
            TableRanks::Wide(r) => r.step(rank, m, moved, to),
        }
    }
}
