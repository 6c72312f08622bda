//! One solved goal in memory ([`SolvedSection`]), what every search of a table of every state
//! returns and every table writer takes.

use slidetable_core::Layout;
use slidetable_format::{widen_bytes, CostModel, Encoding};

/// One solved goal, in memory: for each rank of the goal's class, its distance (or its
/// residue) and first move, as the section's encoding stores them, and the histogram of
/// distances. The table writer (`engine::write_table`) makes a file's section of it, which
/// the query crate's `Section` then views.
#[derive(Clone, Debug)]
pub struct SolvedSection {
    /// The goal every entry's distance leads to.
    pub goal: Layout,
    /// The payload: entries in `encoding`, one per rank (see `slidetable_format`).
    pub entries: Vec<u8>,
    /// `histogram[d]` = states at distance (or cheapest cost) `d`.
    pub histogram: Vec<u64>,
    /// How `entries` are stored.
    pub encoding: Encoding,
    /// What a move costs.
    pub cost: CostModel,
}

impl SolvedSection {
    /// The largest distance (or cost) of any state.
    pub fn max_distance(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
}

/// Byte entries as 16-bit ones (same distance and move).
pub(crate) fn widen(s: SolvedSection) -> SolvedSection {
    SolvedSection {
        entries: widen_bytes(&s.entries),
        encoding: Encoding::Wide16,
        ..s
    }
}
