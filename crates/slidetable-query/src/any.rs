//! [`AnyTable`]: a file opened once, whichever kind it holds, a table of every state, pattern
//! databases or a table of the states within `D` moves (the first bytes tell them apart,
//! docs/FORMAT.md). Every
//! surface (the command line, `serve`, the Python package) opens a file it was named through
//! it, so no file is opened once to be sniffed and again to be read.

use std::path::Path;

use slidetable_core::Board;
use slidetable_format::{is_bounded_file, is_pattern_file, FormatError};

use crate::{
    file, BoundedTable, CostModel, MappedBoundedTable, MappedPatternTable, MappedTable,
    PatternTable, Table, TableError, TableErrorKind,
};

/// A file of either kind, opened.
// One per file opened, moved once into what serves it: the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum AnyTable {
    /// A table of every state.
    Table(MappedTable),
    /// Pattern databases (a lower bound for every state, searched with IDA*).
    Patterns(MappedPatternTable),
    /// The states within `D` moves of one goal (exact distances up to `D`).
    Bounded(MappedBoundedTable),
}

impl AnyTable {
    /// Reads or maps the file at `path` once, as [`Table::open`] does, and opens it as what
    /// it holds; its header is checked and its payload as [`AnyTable::verify_at_open`] says.
    pub fn open(path: impl AsRef<Path>) -> Result<AnyTable, TableError> {
        let table = AnyTable::open_header(path)?;
        table.verify_at_open()?;
        Ok(table)
    }

    /// As [`AnyTable::open`], with only the header checked (reports on the file itself).
    pub fn open_header(path: impl AsRef<Path>) -> Result<AnyTable, TableError> {
        let path = path.as_ref();
        if crate::bounded_parts::is_bounded_dir(path) {
            return Ok(AnyTable::Bounded(BoundedTable::open_parts(path)?));
        }
        let bytes = file::read_or_map(path)?;
        Ok(if is_bounded_file(bytes.as_ref()) {
            AnyTable::Bounded(BoundedTable::with_file(bytes, Some(path))?)
        } else if is_pattern_file(bytes.as_ref()) {
            AnyTable::Patterns(PatternTable::with_file(bytes, Some(path))?)
        } else {
            let spans = bytes.spans();
            let mut table = Table::with_file(bytes, Some(path))?;
            table.set_spans(spans);
            AnyTable::Table(table)
        })
    }

    /// The table of every state it holds; pattern databases are refused, naming the file,
    /// with the words a table reader has for them.
    pub fn into_table(self) -> Result<MappedTable, TableError> {
        match self {
            AnyTable::Table(t) => Ok(t),
            AnyTable::Patterns(p) => Err(TableError::new(p.file(), FormatError::PatternFile)),
            AnyTable::Bounded(b) => Err(TableError::new(
                b.file(),
                TableErrorKind::Bounded(b.max_depth()),
            )),
        }
    }

    /// The pattern databases it holds; a table of every state is refused, naming the file
    /// and the command that makes databases for its board.
    pub fn into_patterns(self) -> Result<MappedPatternTable, TableError> {
        match self {
            AnyTable::Patterns(p) => Ok(p),
            AnyTable::Table(t) => {
                let board = t.board();
                Err(TableError::new(t.file(), TableErrorKind::WholeTable(board)))
            }
            AnyTable::Bounded(b) => Err(TableError::new(
                b.file(),
                TableErrorKind::Bounded(b.max_depth()),
            )),
        }
    }

    /// What opening for questions verifies: a table as [`Table::verify_at_open`] says (a
    /// mapped one of format version 2 a block at a time, when a question first reads from
    /// it), pattern databases whole (a search reads all over them at once).
    pub fn verify_at_open(&self) -> Result<(), TableError> {
        match self {
            AnyTable::Table(t) => t.verify_at_open(),
            AnyTable::Patterns(p) => p.verify(),
            // Its header and indexes are checked at open, each block when a question reads it.
            AnyTable::Bounded(_) => Ok(()),
        }
    }

    /// Checks the payload checksum (a pass over the whole file).
    pub fn verify(&self) -> Result<(), TableError> {
        match self {
            AnyTable::Table(t) => t.verify(),
            AnyTable::Patterns(p) => p.verify(),
            AnyTable::Bounded(b) => b.verify(),
        }
    }

    /// The board the file is for.
    pub fn board(&self) -> Board {
        match self {
            AnyTable::Table(t) => t.board(),
            AnyTable::Patterns(p) => p.board(),
            AnyTable::Bounded(b) => b.board(),
        }
    }

    /// What a move costs in the file's values: pattern databases count moves.
    pub fn cost(&self) -> CostModel {
        match self {
            AnyTable::Table(t) => t.header().cost(),
            AnyTable::Patterns(_) | AnyTable::Bounded(_) => CostModel::Unit,
        }
    }

    /// The file it was opened from.
    pub fn file(&self) -> Option<&Path> {
        match self {
            AnyTable::Table(t) => t.file(),
            AnyTable::Patterns(p) => p.file(),
            AnyTable::Bounded(b) => b.file(),
        }
    }
}
