//! A table of the states within `D` moves of its goal (docs/FORMAT.md §13), over any bytes:
//! the exact distance of a state within `D` moves, "more than `D`" for the other states of
//! the goal's class, and an optimal path for a state within `D` (each step a neighbour one
//! level nearer the goal). Any board up to 16 cells.
//!
//! ```
//! use slidetable_core::{Board, Layout, Move};
//! use slidetable_gen::engine::{solve_bounded, write_bounded_to};
//! use slidetable_query::{BoundedTable, Reach};
//!
//! let goal = Board::new(3, 5).unwrap().standard_goal();
//! let mut bytes = Vec::new();
//! write_bounded_to(&mut bytes, &solve_bounded(&goal, 8, &mut |_| {})).unwrap();
//! let table = BoundedTable::new(bytes).unwrap();
//! let near = goal.after(&[Move::Up, Move::Left, Move::Left]).unwrap();
//! assert_eq!(table.distance(&near).unwrap(), Some(Reach::Moves(3)));
//! // The one state 84 moves away (OEIS A346737).
//! let far = Layout::new(goal.board(), &[5, 4, 3, 2, 1, 10, 9, 8, 7, 6, 14, 13, 12, 11, 0]).unwrap();
//! assert_eq!(table.distance(&far).unwrap(), Some(Reach::MoreThan(8)));
//! let path = table.path(&near, &Move::ALL).unwrap().unwrap();
//! assert_eq!(near.after(&path), Some(goal));
//! ```

use std::path::{Path, PathBuf};

use slidetable_core::{Board, Layout, Move, WideRanker};
use slidetable_format::{BoundedError, BoundedHeader, FormatError};

use crate::error::check_board;
use crate::{file, Damage, QueryError, TableBytes, TableError};

/// How far a state is from the goal of a table within `D` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Exactly this many moves (at most `D`).
    Moves(u32),
    /// More than `D` moves (`D` given).
    MoreThan(u32),
}

/// A table of the states within `D` moves over bytes `B`.
pub struct BoundedTable<B: AsRef<[u8]>> {
    bytes: B,
    header: BoundedHeader,
    ranker: WideRanker,
    file: Option<PathBuf>,
}

/// A table within `D` moves over a file, read or mapped as [`TableBytes`] says.
pub type MappedBoundedTable = BoundedTable<TableBytes>;

impl BoundedTable<TableBytes> {
    /// Reads or maps the file at `path` and checks its header, levels and indexes.
    pub fn open(path: impl AsRef<Path>) -> Result<MappedBoundedTable, TableError> {
        let path = path.as_ref();
        BoundedTable::with_file(file::read_or_map(path)?, Some(path))
    }
}

impl<B: AsRef<[u8]>> BoundedTable<B> {
    /// Checks the header, the level descriptors and the indexes of `bytes` (work bounded by
    /// the index: 24 bytes per 256 states); each block is checked when a question reads it.
    pub fn new(bytes: B) -> Result<BoundedTable<B>, TableError> {
        BoundedTable::with_file(bytes, None)
    }

    /// [`BoundedTable::new`] for the bytes of `file`, which errors name.
    pub(crate) fn with_file(bytes: B, file: Option<&Path>) -> Result<BoundedTable<B>, TableError> {
        let header = BoundedHeader::parse(bytes.as_ref())
            .map_err(|e| TableError::new(file, FormatError::Bounded(e)))?;
        Ok(BoundedTable {
            ranker: WideRanker::new(header.board()),
            bytes,
            header,
            file: file.map(Path::to_path_buf),
        })
    }

    /// The checked header: board, goal, levels.
    pub fn header(&self) -> &BoundedHeader {
        &self.header
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.header.board()
    }

    /// The goal.
    pub fn goal(&self) -> &Layout {
        self.header.goal()
    }

    /// `D`.
    pub fn max_depth(&self) -> u32 {
        self.header.max_depth()
    }

    /// The file it was opened from, if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Reads every block and checks every checksum (a pass over the file).
    pub fn verify(&self) -> Result<(), TableError> {
        self.header
            .verify(self.bytes.as_ref())
            .map_err(|e| TableError::new(self.file(), FormatError::Bounded(e)))
    }

    /// `layout` as a layout towards the table's goal: itself, or relabelled when `goal` (a
    /// goal with the blank in the same cell) is asked for instead.
    pub fn towards(&self, layout: &Layout, goal: &Layout) -> Result<Layout, QueryError> {
        check_board(self.board(), layout)?;
        if goal == self.goal() {
            return Ok(*layout);
        }
        if goal.board() != self.board() || goal.blank() != self.goal().blank() {
            return Err(QueryError::NoSection { goal: *goal });
        }
        Ok(layout.relabelled(&goal.relabelling_to(self.goal())))
    }

    fn damaged(&self, e: BoundedError) -> QueryError {
        QueryError::Damaged(Box::new(Damage {
            file: self.file.clone(),
            part: None,
            error: FormatError::Bounded(e),
        }))
    }

    fn holds(&self, level: u32, layout: &Layout) -> Result<bool, QueryError> {
        let rank = self.ranker.rank(layout);
        self.header
            .contains(self.bytes.as_ref(), level, rank)
            .map_err(|e| self.damaged(e))
    }

    /// How far `layout` is from the goal; `None` when it cannot reach it (the other parity
    /// class).
    pub fn distance(&self, layout: &Layout) -> Result<Option<Reach>, QueryError> {
        check_board(self.board(), layout)?;
        if !layout.can_reach(self.goal()) {
            return Ok(None);
        }
        // Every move changes the colour of the blank's cell: the distance has the parity of
        // the blank's own distance from the goal's blank.
        let cols = self.board().cols();
        let (a, b) = (layout.blank(), self.goal().blank());
        let parity = (a / cols + a % cols + b / cols + b % cols) % 2;
        let max = self.max_depth();
        for level in (parity as u32..=max).step_by(2) {
            if self.holds(level, layout)? {
                return Ok(Some(Reach::Moves(level)));
            }
        }
        Ok(Some(Reach::MoreThan(max)))
    }

    /// An optimal path from `layout` to the goal when it is within `D` moves, the first of
    /// the moves in `order` at each step (so the lexicographically smallest under that
    /// order); `None` when it is farther or cannot reach the goal.
    pub fn path(
        &self,
        layout: &Layout,
        order: &[Move; 4],
    ) -> Result<Option<Vec<Move>>, QueryError> {
        let mut path = Vec::new();
        Ok(self.path_into(layout, order, &mut path)?.then_some(path))
    }

    /// [`BoundedTable::path`] into `path` (cleared first); false when there is none.
    pub fn path_into(
        &self,
        layout: &Layout,
        order: &[Move; 4],
        path: &mut Vec<Move>,
    ) -> Result<bool, QueryError> {
        path.clear();
        let Some(Reach::Moves(mut d)) = self.distance(layout)? else {
            return Ok(false);
        };
        let mut here = *layout;
        while d > 0 {
            let mut step = None;
            for &m in order {
                if let Some(next) = here.moved(m) {
                    if self.holds(d - 1, &next)? {
                        step = Some((m, next));
                        break;
                    }
                }
            }
            let Some((m, next)) = step else {
                return Err(QueryError::Corrupt { layout: here });
            };
            path.push(m);
            here = next;
            d -= 1;
        }
        if here != *self.goal() {
            return Err(QueryError::Corrupt { layout: here });
        }
        Ok(true)
    }

    /// Calls `each` with every state of level `level` (exactly `level` moves away), in rank
    /// order.
    pub fn each_state(&self, level: u32, mut each: impl FnMut(Layout)) -> Result<(), QueryError> {
        let class = self.goal().class();
        self.header
            .each_rank(self.bytes.as_ref(), level, |r| {
                each(self.ranker.unrank(r, class))
            })
            .map_err(|e| self.damaged(e))
    }
}
