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
//! write_bounded_to(&mut bytes, &solve_bounded(&goal, 8, &mut |_| {}).unwrap()).unwrap();
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
use slidetable_format::{BoundedError, BoundedHeader, BoundedLevel, FormatError};

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

/// A table of the states within `D` moves over bytes `B`: one file, or the parts of a table
/// made in parts (docs/FORMAT.md §13.6), each the levels of one slice of the ranks.
pub struct BoundedTable<B: AsRef<[u8]>> {
    /// The file's one piece, or the parts in rank order.
    pieces: Vec<Piece<B>>,
    ranker: WideRanker,
    /// The file, or the directory of the parts.
    file: Option<PathBuf>,
    /// The levels of each parity, the fullest first: the order `distance` looks in them
    /// (each state is in one level at most, so the order changes only how soon it is found).
    by_size: [Vec<u32>; 2],
}

/// One file of a table within `D` moves: the whole table or one part.
struct Piece<B> {
    bytes: B,
    header: BoundedHeader,
    /// The part file, for a table in parts.
    part: Option<PathBuf>,
}

/// A table within `D` moves over a file, read or mapped as [`TableBytes`] says.
pub type MappedBoundedTable = BoundedTable<TableBytes>;

impl BoundedTable<TableBytes> {
    /// Reads or maps the file at `path` (or every part of the table in parts in directory
    /// `path`) and checks its header, levels and indexes.
    pub fn open(path: impl AsRef<Path>) -> Result<MappedBoundedTable, TableError> {
        let path = path.as_ref();
        if crate::bounded_parts::is_bounded_dir(path) {
            return BoundedTable::open_parts(path);
        }
        BoundedTable::with_file(file::read_or_map(path)?, Some(path))
    }

    /// Opens the table in parts in `dir` (its manifest's magic checked by the caller): every
    /// part's header, levels and indexes checked, each against the manifest and the others.
    pub(crate) fn open_parts(dir: &Path) -> Result<MappedBoundedTable, TableError> {
        let pieces = crate::bounded_parts::open(dir).map_err(|k| TableError::new(Some(dir), k))?;
        let board = pieces[0].1.board();
        Ok(BoundedTable::of_pieces(
            pieces
                .into_iter()
                .map(|(path, header, bytes)| Piece {
                    bytes,
                    header,
                    part: Some(path),
                })
                .collect(),
            board,
            Some(dir.to_path_buf()),
        ))
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
        let board = header.board();
        Ok(BoundedTable::of_pieces(
            vec![Piece {
                bytes,
                header,
                part: None,
            }],
            board,
            file.map(Path::to_path_buf),
        ))
    }

    fn of_pieces(pieces: Vec<Piece<B>>, board: Board, file: Option<PathBuf>) -> BoundedTable<B> {
        let mut table = BoundedTable {
            pieces,
            ranker: WideRanker::new(board),
            file,
            by_size: [Vec::new(), Vec::new()],
        };
        let (histogram, max) = (table.histogram(), table.max_depth());
        for (parity, levels) in table.by_size.iter_mut().enumerate() {
            levels.extend((parity as u32..=max).step_by(2));
            levels.sort_by_key(|&d| std::cmp::Reverse(histogram[d as usize]));
        }
        table
    }

    /// The first piece's header (the only one of a file): board, goal, `D`, block size.
    fn first(&self) -> &BoundedHeader {
        &self.pieces[0].header
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.first().board()
    }

    /// The goal.
    pub fn goal(&self) -> &Layout {
        self.first().goal()
    }

    /// `D`.
    pub fn max_depth(&self) -> u32 {
        self.first().max_depth()
    }

    /// The ranks a block holds.
    pub fn block_states(&self) -> u32 {
        self.first().block_states()
    }

    /// The states at each distance from 0 to `D` (every part's).
    pub fn histogram(&self) -> Vec<u64> {
        let mut histogram = vec![0u64; self.max_depth() as usize + 1];
        for piece in &self.pieces {
            for (h, s) in histogram.iter_mut().zip(piece.header.histogram()) {
                *h += s;
            }
        }
        histogram
    }

    /// The states within `D` moves.
    pub fn states(&self) -> u64 {
        self.pieces.iter().map(|p| p.header.states()).sum()
    }

    /// The bytes of its file (of its parts together).
    pub fn file_len(&self) -> u64 {
        self.pieces.iter().map(|p| p.header.file_len()).sum()
    }

    /// Its parts (1 for a file).
    pub fn parts(&self) -> u32 {
        self.pieces.len() as u32
    }

    /// The file it was opened from (the directory of a table in parts), if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Reads every block and checks every checksum (a pass over the file, or every part).
    pub fn verify(&self) -> Result<(), TableError> {
        for piece in &self.pieces {
            piece
                .header
                .verify(piece.bytes.as_ref())
                .map_err(|e| TableError::new(self.name(piece), FormatError::Bounded(e)))?;
        }
        Ok(())
    }

    /// The file an error about `piece` names: its part file, or the table's file.
    fn name<'a>(&'a self, piece: &'a Piece<B>) -> Option<&'a Path> {
        piece.part.as_deref().or(self.file())
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

    fn damaged(&self, piece: &Piece<B>, e: BoundedError) -> QueryError {
        QueryError::Damaged(Box::new(Damage {
            file: self.file.clone(),
            part: piece.part.clone(),
            error: FormatError::Bounded(e),
        }))
    }

    fn holds(&self, level: u32, layout: &Layout) -> Result<bool, QueryError> {
        self.holds_rank(level, self.ranker.rank(layout))
    }

    /// Whether level `level` holds the state of rank `rank`.
    fn holds_rank(&self, level: u32, rank: u64) -> Result<bool, QueryError> {
        // The piece whose ranks hold `rank`: the last one starting at or before it.
        let at = self
            .pieces
            .partition_point(|p| p.header.ranks().start <= rank)
            .max(1)
            - 1;
        let piece = &self.pieces[at];
        if !piece.header.ranks().contains(&rank) {
            return Ok(false);
        }
        piece
            .header
            .contains(piece.bytes.as_ref(), level, rank)
            .map_err(|e| self.damaged(piece, e))
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
        let rank = self.ranker.rank(layout);
        for &level in &self.by_size[parity] {
            if self.holds_rank(level, rank)? {
                return Ok(Some(Reach::Moves(level)));
            }
        }
        Ok(Some(Reach::MoreThan(self.max_depth())))
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
        for piece in &self.pieces {
            piece
                .header
                .each_rank(piece.bytes.as_ref(), level, |r| {
                    each(self.ranker.unrank(r, class))
                })
                .map_err(|e| self.damaged(piece, e))?;
        }
        Ok(())
    }

    /// Every level encoded as one file holds it (every part's ranks of the level, in rank
    /// order, cut into blocks as [`BoundedTable::block_states`] says): what `merge` writes,
    /// the one-process search's file byte for byte. Every block is read and checked.
    pub fn joined_levels(&self) -> Result<Vec<BoundedLevel>, QueryError> {
        let mut ranks = Vec::new();
        (0..=self.max_depth())
            .map(|level| {
                ranks.clear();
                self.each_rank(level, |r| ranks.push(r))?;
                Ok(BoundedLevel::encode(&ranks, self.block_states()))
            })
            .collect()
    }

    /// Calls `each` with the ranks of level `level` in increasing order (every part's, in
    /// rank order).
    pub fn each_rank(&self, level: u32, mut each: impl FnMut(u64)) -> Result<(), QueryError> {
        for piece in &self.pieces {
            piece
                .header
                .each_rank(piece.bytes.as_ref(), level, &mut each)
                .map_err(|e| self.damaged(piece, e))?;
        }
        Ok(())
    }
}
