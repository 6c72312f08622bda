//! [`Goal`]: the questions about one goal, answered from a section of the table — the goal's
//! own, or the one whose goal has the blank in the same cell, with the tiles relabelled
//! (moves act on cells, not labels, so distances and paths carry over unchanged).

use slidetable_core::{Board, Layout, Move, Scan, ScanCursor, WideRanker, MAX_CELLS};

use crate::{distances, Encoding, HistogramStats, QueryError, Section};

/// How a pass over a section walks its consecutive ranks: a scan cursor that keeps the first
/// tiles of the rank before and unranks only the rest (the generator's way), in 32-bit ranks
/// within a blank cell's block up to 14 cells ([`Scan`]) and in 64-bit ranks on 15 and 16
/// ([`WideRanker`]'s, the ranks of the tables of those boards); both give exactly the states
/// a ranker's `unrank` gives.
pub enum StateScan {
    /// Up to 14 cells.
    Narrow(Scan),
    /// 15 and 16 cells.
    Wide(Scan<WideRanker>),
}

impl StateScan {
    /// The scan of parity class `class` of `board`, every suffix tabulated with `tabulate`
    /// ([`Scan::build`]); `None` for a board no scan ranks (past 16 cells).
    pub fn new(board: Board, class: u8, tabulate: bool) -> Option<StateScan> {
        match Scan::<slidetable_core::Ranker>::build(board, class, tabulate) {
            Ok(narrow) => Some(StateScan::Narrow(narrow)),
            Err(_) => Scan::<WideRanker>::build(board, class, tabulate)
                .ok()
                .map(StateScan::Wide),
        }
    }

    /// A fresh cursor, for one thread.
    pub fn cursor(&self) -> ScanCursor {
        match self {
            StateScan::Narrow(scan) => scan.cursor(),
            StateScan::Wide(scan) => scan.cursor(),
        }
    }

    /// The packed layout and blank of `rank` ([`Scan::unrank`]).
    #[inline]
    pub fn unrank(&self, cursor: &mut ScanCursor, rank: u64) -> (u64, usize) {
        match self {
            StateScan::Narrow(scan) => scan.unrank(cursor, rank),
            StateScan::Wide(scan) => scan.unrank(cursor, rank),
        }
    }

    /// The layout of `rank` ([`Scan::layout`]).
    #[inline]
    pub fn layout(&self, cursor: &mut ScanCursor, rank: u64) -> Layout {
        match self {
            StateScan::Narrow(scan) => scan.layout(cursor, rank),
            StateScan::Wide(scan) => scan.layout(cursor, rank),
        }
    }
}

/// Questions about one goal, answered from a section (relabelled when needed).
#[derive(Clone, Copy)]
pub struct Goal<'a> {
    pub(crate) section: Section<'a>,
    pub(crate) goal: Layout,
    /// The goal's tiles onto the section goal's; none when the section is the goal's own.
    pub(crate) relabel: Relabelling,
}

/// A renaming of tiles, or none (the identity): how the goal's labels and its section's
/// correspond.
#[derive(Clone, Copy)]
pub(crate) struct Relabelling(pub(crate) Option<[u8; MAX_CELLS]>);

impl Relabelling {
    /// `layout` with its tiles renamed.
    #[inline]
    pub(crate) fn apply(&self, layout: &Layout) -> Layout {
        match &self.0 {
            Some(map) => layout.relabelled(map),
            None => *layout,
        }
    }

    /// The renaming that undoes this one on a board of `cells` cells.
    fn inverse(&self, cells: usize) -> Relabelling {
        Relabelling(self.0.map(|map| {
            let mut inv = [0u8; MAX_CELLS];
            for (t, &to) in map.iter().enumerate().take(cells) {
                inv[to as usize] = t as u8;
            }
            inv
        }))
    }
}

// The per-puzzle questions below (`distance`, `path_into`, `first_move`, `ordered_path_into`)
// take [`Section`]'s signatures on purpose: each relabels the start into the section's goal
// and asks the section, which answers in the section's labels (moves carry over unchanged).
impl<'a> Goal<'a> {
    /// The goal asked about.
    pub fn layout(&self) -> &Layout {
        &self.goal
    }

    /// The section that answers, and its goal.
    pub fn section(&self) -> &Section<'a> {
        &self.section
    }

    /// `start` in the section's labels.
    #[inline]
    fn relabel_start(&self, start: &Layout) -> Result<Layout, QueryError> {
        self.section.check_board(start)?;
        Ok(self.relabel.apply(start))
    }

    /// The section's labels back to the goal's.
    pub(crate) fn back(&self) -> Relabelling {
        self.relabel.inverse(self.goal.board().cells())
    }

    /// The fewest moves from `start` to this goal, or `None` if unreachable.
    #[inline]
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        self.section.distance(&self.relabel_start(start)?)
    }

    /// An optimal path, or `None` if unreachable.
    pub fn path(&self, start: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        let mut path = Vec::new();
        Ok(self.path_into(start, &mut path)?.then_some(path))
    }

    /// Appends an optimal path to `path` (the fastest: stored first moves); false if none.
    pub fn path_into(&self, start: &Layout, path: &mut Vec<Move>) -> Result<bool, QueryError> {
        self.section.path_into(&self.relabel_start(start)?, path)
    }

    /// The first move of the path [`Goal::path_into`] takes: `None` at the goal or when the
    /// goal cannot be reached (a dataset's label, with no path built).
    pub fn first_move(&self, start: &Layout) -> Result<Option<Move>, QueryError> {
        self.section.first_move(&self.relabel_start(start)?)
    }

    /// Appends the lexicographically smallest optimal path under the letter order `order`:
    /// at each step the first move in `order` that brings the goal one move closer.
    pub fn ordered_path_into(
        &self,
        start: &Layout,
        order: &[Move; 4],
        path: &mut Vec<Move>,
    ) -> Result<bool, QueryError> {
        self.section
            .ordered_path_into(&self.relabel_start(start)?, order, path)
    }

    /// States at each distance from this goal (`histogram()[d]`: the states `d` moves away),
    /// as the table's header records it. Relabelling a goal keeps its section's histogram.
    pub fn histogram(&self) -> &'a [u64] {
        self.section.descriptor.histogram()
    }

    /// The greatest distance any state has from this goal.
    pub fn max_distance(&self) -> u32 {
        self.section.descriptor.max_distance()
    }

    /// Shares, cumulative shares, mean, median and maximum of [`Goal::histogram`].
    pub fn stats(&self) -> HistogramStats {
        HistogramStats::of(self.histogram())
    }

    /// Every state that can reach this goal, with its distance, in rank order of the section
    /// (once every block of the section is verified).
    pub fn states(&self) -> Result<impl Iterator<Item = (Layout, u32)> + 'a, QueryError> {
        self.states_in(0..self.section.ranker.states())
    }

    /// How many states [`Goal::states`] gives: every state of the goal's class.
    pub fn state_count(&self) -> u64 {
        self.section.ranker.states()
    }

    /// The states of [`Goal::states`] whose section ranks are in `ranks` (a part of
    /// `0..state_count()`), so that parts can be taken apart, on several threads; once every
    /// block of the section is verified.
    pub fn states_in(
        &self,
        ranks: std::ops::Range<u64>,
    ) -> Result<impl Iterator<Item = (Layout, u32)> + 'a, QueryError> {
        self.section.verify_entries()?;
        let ranker = self.section.ranker;
        let class = self.section.goal_class;
        let back = self.back();
        let section = self.section;
        // Consecutive ranks share their first tiles: a scan cursor unranks them from a
        // table of suffixes (the generator's way) instead of digit by digit.
        let scan = StateScan::new(ranker.board(), class, false);
        let mut cursor = scan.as_ref().map(StateScan::cursor);
        Ok((ranks.start..ranks.end.min(ranker.states())).map(move |r| {
            let layout = match (&scan, &mut cursor) {
                (Some(scan), Some(cursor)) => scan.layout(cursor, r),
                _ => ranker.unrank(r, class),
            };
            let layout = back.apply(&layout);
            // A 2-bit table that contradicts itself has no distance to give: u32::MAX.
            (layout, section.distance_at(r).unwrap_or(u32::MAX))
        }))
    }

    /// [`Goal::states_in`] in the section's own form, for passes that work on the tiles
    /// themselves instead of on [`Layout`]s: `f(packed, blank, distance)` for each rank of
    /// `ranks` in order, where `packed` holds the tile of cell `i` in nibble `i` (as
    /// [`Layout::packed`]) in the section's labels ([`Goal::goal_labels`] names them in the
    /// goal's), `blank` is the blank's cell and `distance` is as [`Goal::states_in`] gives
    /// it. `scan` is [`Goal::packed_scan`]'s, made once for every part of a pass. Once every
    /// block of the section is verified.
    pub fn packed_states_in(
        &self,
        scan: Option<&StateScan>,
        ranks: std::ops::Range<u64>,
        mut f: impl FnMut(u64, usize, u32),
    ) -> Result<(), QueryError> {
        self.section.verify_entries()?;
        let ranker = self.section.ranker;
        let class = self.section.goal_class;
        let section = self.section;
        let mut cursor = scan.map(StateScan::cursor);
        for r in ranks.start..ranks.end.min(ranker.states()) {
            let (packed, blank) = match (scan, &mut cursor) {
                (Some(scan), Some(cursor)) => scan.unrank(cursor, r),
                _ => ranker.unrank_packed(r, class),
            };
            // A 2-bit table that contradicts itself has no distance to give: u32::MAX.
            f(packed, blank, section.distance_at(r).unwrap_or(u32::MAX));
        }
        Ok(())
    }

    /// The scan that unranks the section's states for [`Goal::packed_states_in`], each by one
    /// look-up ([`Scan::tabulated`]: 665 KB on 12 cells, 7.2 MB on 16), shared by every part
    /// of a pass; `None` where the board is too large to scan (each rank is then unranked
    /// digit by digit).
    pub fn packed_scan(&self) -> Option<StateScan> {
        let ranker = self.section.ranker;
        StateScan::new(ranker.board(), self.section.goal_class, true)
    }

    /// The goal's label of each tile in the section's labels (`goal_labels()[t]` for tile
    /// `t` of [`Goal::packed_states_in`]'s layouts): the identity when the section is the
    /// goal's own.
    pub fn goal_labels(&self) -> [u8; MAX_CELLS] {
        match self.back().0 {
            Some(map) => map,
            None => std::array::from_fn(|t| t as u8),
        }
    }

    /// Every state's distance from this goal up to `upto` (one byte per rank of the section,
    /// 255 beyond `upto`), for sections whose 2-bit entries hold only
    /// residues: recovered in one breadth-first pass over the entries (see the `distances`
    /// module) instead of a walk from each state. `None` for byte and wide entries, which
    /// hold every distance already. `progress` is told how many states each layer settles.
    pub fn recover_distances(
        &self,
        upto: u32,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Option<Vec<u8>>, QueryError> {
        let section = &self.section;
        if section.encoding != Encoding::TwoBit || section.known.is_some() {
            return Ok(None);
        }
        let board = section.ranker.board();
        if board.cells() > distances::MAX_RECOVERED_CELLS {
            return Err(QueryError::TooLargeToRecover {
                board,
                states: section.ranker.states(),
                max: distances::MAX_RECOVERED_CELLS,
            });
        }
        section.verify_entries()?;
        let goal_rank = section.ranker.rank(section.descriptor.goal());
        distances::recover(
            board,
            section.goal_class,
            goal_rank,
            section.entries,
            section.descriptor.histogram(),
            upto,
            progress,
        )
        .map(Some)
        .map_err(|e| match e {
            distances::RecoverError::Corrupt {
                distance,
                expected,
                found,
            } => QueryError::CorruptLayer {
                goal: *section.descriptor.goal(),
                distance,
                expected,
                found,
            },
            distances::RecoverError::TooDeep => QueryError::Corrupt {
                layout: *section.descriptor.goal(),
            },
        })
    }

    /// This goal answering whole-table questions (layers, the states at a distance, every
    /// state) from `distances`, as [`Goal::recover_distances`] gave them, instead of
    /// walking the 2-bit entries. Paths are still walked.
    pub fn knowing<'b>(&self, distances: &'b [u8]) -> Goal<'b>
    where
        'a: 'b,
    {
        let mut goal: Goal<'b> = *self;
        if distances.len() == goal.section.ranker.states() as usize {
            goal.section.known = Some(distances);
        }
        goal
    }

    /// Every layout at exactly `distance` moves from this goal, in rank order of the section
    /// (once every block of the section is verified).
    pub fn layouts_at(
        &self,
        distance: u32,
    ) -> Result<impl Iterator<Item = Layout> + 'a, QueryError> {
        let back = self.back();
        Ok(self
            .section
            .layouts_at(distance)?
            .map(move |l| back.apply(&l)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranks::TableRanks;

    /// The walk of consecutive ranks gives the state each rank's unranking gives, on every
    /// board of 15 and 16 cells (in 64-bit ranks: there was no walk there before, each rank
    /// was unranked digit by digit) and on 12 and 14, in both classes, tabulated or not,
    /// across blank cells' blocks and at the last ranks.
    #[test]
    fn the_walk_gives_each_ranks_state_in_either_width() {
        for board in ["3x5", "5x3", "4x4", "2x8", "8x2", "3x4", "2x7"] {
            let board: Board = board.parse().unwrap();
            let ranker = TableRanks::new(board);
            let states = ranker.states();
            let block = states / board.cells() as u64;
            for class in 0..2 {
                for tabulate in [false, true] {
                    let scan = StateScan::new(board, class, tabulate).unwrap();
                    assert_eq!(
                        matches!(scan, StateScan::Wide(_)),
                        board.cells() > 14,
                        "{board}"
                    );
                    let mut cursor = scan.cursor();
                    let starts = [0, block - 300, 7 * block + 12_345, states - 500];
                    for start in starts {
                        for r in start..(start + 1000).min(states) {
                            let walked = scan.unrank(&mut cursor, r);
                            assert_eq!(walked, ranker.unrank_packed(r, class), "{board} {r}");
                            let layout = scan.layout(&mut cursor, r);
                            assert_eq!(layout, ranker.unrank(r, class), "{board} {r}");
                        }
                    }
                }
            }
        }
    }
}
