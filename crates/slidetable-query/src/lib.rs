//! Answers from a slidetable file: the distance of any layout in O(1), an optimal path in
//! O(path length), over any bytes — a memory-mapped file, a `Vec<u8>`, or `include_bytes!`.
//!
//! ```
//! use slidetable_core::{parse_layout, path_string, Board};
//! use slidetable_gen::{default_goals, solve_sections, table_bytes};
//! use slidetable_query::Table;
//!
//! let board = Board::EIGHT;
//! let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
//! let table = Table::new(bytes).unwrap();
//! let start = parse_layout(board, b"2 3 4 1 5 x 7 6 8").unwrap();
//! assert_eq!(table.distance(&start).unwrap(), Some(19));
//! let path = table.path(&start).unwrap().unwrap();
//! assert_eq!(path.len(), 19);
//! assert_eq!(start.after(&path), Some(board.standard_goal()));
//! assert!(path_string(&path).starts_with('u'));
//! ```

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use slidetable_core::{Board, Layout, Move, Ranker};
use slidetable_format::{byte_distance, byte_move, FormatError, Header, SectionHeader};

pub use slidetable_format::{CostModel, Encoding};

/// Why a table cannot be used. Names the file when there is one.
#[derive(Debug, thiserror::Error)]
pub struct TableError {
    /// The file the table came from, if any.
    pub path: Option<PathBuf>,
    pub kind: TableErrorKind,
}

#[derive(Debug, thiserror::Error)]
pub enum TableErrorKind {
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}; generate it again with `slidetable generate`")]
    Format(#[from] FormatError),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "table {}: {}", p.display(), self.kind),
            None => write!(f, "table: {}", self.kind),
        }
    }
}

/// Why a question cannot be asked of this table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("the puzzle is for a {found} board but the table is for {table}")]
    WrongBoard { table: Board, found: Board },
    #[error("the table has no section for goal {goal}")]
    NoSection { goal: Layout },
    #[error("the table's entries around {layout} contradict each other (corrupt table? check it with `slidetable info --verify`)")]
    Corrupt { layout: Layout },
}

/// A table over bytes `D`: validated once in constant time, then read without copying.
pub struct Table<D: AsRef<[u8]>> {
    data: D,
    header: Header,
    ranker: Ranker,
    path: Option<PathBuf>,
    /// Section index by goal blank cell, for goals of the default form.
    standard_section: Option<usize>,
}

/// A table over a memory-mapped file.
pub type MappedTable = Table<Mmap>;

impl Table<Mmap> {
    /// Maps the file at `path` and checks its header (not its checksum: see [`Table::verify`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Table<Mmap>, TableError> {
        let path = path.as_ref();
        let err = |kind| TableError {
            path: Some(path.to_path_buf()),
            kind,
        };
        let file = File::open(path).map_err(|e| err(e.into()))?;
        let mmap = map(&file).map_err(|e| err(e.into()))?;
        let mut table = Table::new(mmap).map_err(|e| err(e.kind))?;
        table.path = Some(path.to_path_buf());
        Ok(table)
    }
}

/// Maps `file` read-only.
///
/// # Safety argument
///
/// A mapping is only sound while nobody modifies the file underneath it (memmap2's
/// contract). slidetable never writes a table in place: `slidetable-gen` writes a
/// temporary file and renames it over the old name, which leaves an existing mapping on the
/// old inode untouched. A user who truncates or rewrites a table file in place while a
/// query runs breaks that contract; that is outside what this program can guard against.
fn map(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: see the function's safety argument — tables are replaced by rename, never
    // modified in place, so the mapped bytes do not change while mapped.
    unsafe { Mmap::map(file) }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// A table over `data`, after checking magic, version, board, encoding, every header
    /// field and the exact length — in time bounded by the header, not the payload.
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        let header = Header::parse(data.as_ref()).map_err(|e| TableError {
            path: None,
            kind: e.into(),
        })?;
        let ranker = Ranker::new(header.board).expect("header validated the board");
        let standard = header.board.standard_goal();
        let standard_section = header.sections.iter().position(|s| s.goal == standard);
        Ok(Table {
            data,
            header,
            ranker,
            path: None,
            standard_section,
        })
    }

    /// Checks the payload checksum: reads every byte of the file.
    pub fn verify(&self) -> Result<(), TableError> {
        self.header
            .verify_payload(self.data.as_ref())
            .map_err(|e| TableError {
                path: self.path.clone(),
                kind: e.into(),
            })
    }

    pub fn board(&self) -> Board {
        self.header.board
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn sections(&self) -> &[SectionHeader] {
        &self.header.sections
    }

    /// The file this table was opened from, if any.
    pub fn file_path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The section whose goal is exactly `goal`, if the table has one.
    pub fn section_for(&self, goal: &Layout) -> Result<usize, QueryError> {
        self.check_board(goal)?;
        if Some(*goal) == self.standard_goal() {
            return Ok(self.standard_section.expect("standard goal present"));
        }
        self.header
            .sections
            .iter()
            .position(|s| s.goal == *goal)
            .ok_or(QueryError::NoSection { goal: *goal })
    }

    fn standard_goal(&self) -> Option<Layout> {
        self.standard_section.map(|i| self.header.sections[i].goal)
    }

    fn check_board(&self, layout: &Layout) -> Result<(), QueryError> {
        if layout.board() != self.header.board {
            return Err(QueryError::WrongBoard {
                table: self.header.board,
                found: layout.board(),
            });
        }
        Ok(())
    }

    /// A view of one section.
    pub fn section(&self, index: usize) -> Section<'_> {
        Section {
            header: &self.header.sections[index],
            entries: self.header.payload(self.data.as_ref(), index),
            ranker: self.ranker,
        }
    }

    fn standard(&self, start: &Layout) -> Result<Section<'_>, QueryError> {
        self.check_board(start)?;
        match self.standard_section {
            Some(i) => Ok(self.section(i)),
            None => Err(QueryError::NoSection {
                goal: self.header.board.standard_goal(),
            }),
        }
    }

    /// The fewest moves from `start` to the standard goal (tiles in order, blank last), or
    /// `None` when it cannot be reached.
    #[inline]
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        Ok(self.standard(start)?.distance(start))
    }

    /// An optimal path from `start` to the standard goal, or `None` when there is none.
    pub fn path(&self, start: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        let section = self.standard(start)?;
        let mut path = Vec::new();
        Ok(section.path_into(start, &mut path)?.then_some(path))
    }

    /// Like [`Table::path`], but appends to `path` (reused across calls) and returns whether
    /// a path exists.
    pub fn path_into(&self, start: &Layout, path: &mut Vec<Move>) -> Result<bool, QueryError> {
        self.standard(start)?.path_into(start, path)
    }
}

/// One goal's entries.
#[derive(Clone, Copy)]
pub struct Section<'a> {
    header: &'a SectionHeader,
    entries: &'a [u8],
    ranker: Ranker,
}

impl<'a> Section<'a> {
    pub fn goal(&self) -> &Layout {
        &self.header.goal
    }

    pub fn header(&self) -> &SectionHeader {
        self.header
    }

    /// The byte entry of `layout`, if it lies in the goal's class.
    #[inline]
    fn entry(&self, layout: &Layout) -> Option<u8> {
        if layout.class() != self.header.goal.class() {
            return None;
        }
        // rank < states = entries.len(), checked when the header was read.
        Some(self.entries[self.ranker.rank(layout) as usize])
    }

    /// The fewest moves from `start` to this section's goal, or `None` if unreachable.
    #[inline]
    pub fn distance(&self, start: &Layout) -> Option<u32> {
        self.entry(start).map(byte_distance)
    }

    /// The first move of an optimal path (`None` at the goal or when unreachable).
    #[inline]
    pub fn first_move(&self, start: &Layout) -> Option<Move> {
        let e = self.entry(start)?;
        (byte_distance(e) > 0).then(|| byte_move(e))
    }

    /// Appends an optimal path from `start` to `path` by following the stored first moves;
    /// false when the goal cannot be reached. A corrupt payload cannot loop or panic: each
    /// step must lower the stored distance by exactly one, or the walk stops with
    /// [`QueryError::Corrupt`].
    pub fn path_into(&self, start: &Layout, path: &mut Vec<Move>) -> Result<bool, QueryError> {
        let Some(mut e) = self.entry(start) else {
            return Ok(false);
        };
        let mut cur = *start;
        let mut d = byte_distance(e);
        while d > 0 {
            let m = byte_move(e);
            let corrupt = QueryError::Corrupt { layout: cur };
            let Some(next) = cur.moved(m) else {
                return Err(corrupt);
            };
            let ne = self.entries[self.ranker.rank(&next) as usize];
            if byte_distance(ne) + 1 != d {
                return Err(corrupt);
            }
            path.push(m);
            cur = next;
            e = ne;
            d -= 1;
        }
        Ok(true)
    }

    /// All moves from `layout` that lower the distance by one: the first steps of every
    /// optimal path.
    pub fn optimal_moves(&self, layout: &Layout) -> Vec<Move> {
        let Some(d) = self.distance(layout) else {
            return Vec::new();
        };
        layout
            .moves()
            .filter(|&m| {
                let next = layout.moved(m).expect("legal");
                d > 0 && self.distance(&next) == Some(d - 1)
            })
            .collect()
    }
}
