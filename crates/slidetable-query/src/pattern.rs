//! Pattern databases over a memory-mapped file: validated once in constant time, then read
//! without copying. A [`PatternTable`] gives each group's entries; the IDA* of
//! `slidetable-search` turns them into a heuristic.

use std::path::{Path, PathBuf};

use slidetable_core::{mask_tiles, Board, Layout, PlacementRanker, MAX_CELLS};
use slidetable_format::{excess_at, PatternGroup, PatternHeader};

use crate::{file, TableBytes, TableError, TableErrorKind};

/// A pattern database over bytes `D`.
pub struct PatternTable<D: AsRef<[u8]>> {
    data: D,
    header: PatternHeader,
    file: Option<PathBuf>,
}

/// A pattern database over a file: read into memory when small, memory-mapped when large
/// (see [`TableBytes`]).
pub type MappedPatternTable = PatternTable<TableBytes>;

// `open` and `open_header` have `Table`'s shape on purpose (one way to open a file, for the
// command line's `AnyTable`), but not its verification: a pattern database is checked whole
// at open, a table block by block as questions read it.
impl PatternTable<TableBytes> {
    /// Reads or maps the file at `path` (as [`crate::Table::open`] does: anything but a
    /// regular file is refused without reading from it), checks its header and verifies its
    /// payload checksum. A search reads entries all over every group from its first nodes
    /// on, so checking the whole payload once costs what checking each part on first use
    /// would, and a damaged entry can never make an answer too long.
    pub fn open(path: impl AsRef<Path>) -> Result<PatternTable<TableBytes>, TableError> {
        let table = PatternTable::open_header(path)?;
        table.verify()?;
        Ok(table)
    }

    /// As [`PatternTable::open`], but checks only the header: for reports on the file
    /// itself (`info`), which verify the payload on request.
    pub fn open_header(path: impl AsRef<Path>) -> Result<PatternTable<TableBytes>, TableError> {
        let path = path.as_ref();
        PatternTable::with_file(file::read_or_map(path)?, Some(path))
    }
}

impl PatternTable<TableBytes> {
    /// The same database copied into the process's own memory on huge pages where the
    /// kernel gives them ([`TableBytes::resident`]): fewer address-translation misses for the
    /// solver's random reads, at the cost of one copy (about 0.1 s and 288 MB for the 7-8
    /// databases).
    pub fn resident(&self) -> Result<PatternTable<TableBytes>, TableError> {
        let data = self
            .data
            .resident()
            .map_err(|e| TableError::new(self.file.as_deref(), TableErrorKind::Io(e)))?;
        PatternTable::with_file(data, self.file.as_deref())
    }
}

impl<D: AsRef<[u8]>> PatternTable<D> {
    /// Checks the header of `data` (work bounded by the header's size).
    pub fn new(data: D) -> Result<PatternTable<D>, TableError> {
        PatternTable::with_file(data, None)
    }

    /// [`PatternTable::new`], for bytes from `file` (if any): errors name it, and so will the
    /// table's.
    pub(crate) fn with_file(data: D, file: Option<&Path>) -> Result<PatternTable<D>, TableError> {
        let header = PatternHeader::parse(data.as_ref()).map_err(|e| TableError::new(file, e))?;
        Ok(PatternTable {
            data,
            header,
            file: file.map(Path::to_path_buf),
        })
    }

    /// The database's validated header.
    pub fn header(&self) -> &PatternHeader {
        &self.header
    }

    /// The database's board.
    pub fn board(&self) -> Board {
        self.header.board()
    }

    /// The goal every value is a distance to.
    pub fn goal(&self) -> &Layout {
        self.header.goal()
    }

    /// The file this table was opened from, if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The database's bytes, header and payload, as one file holds them.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// Checks the payload checksum (a pass over the whole file). A file with a checksum per
    /// block (version 2) has its blocks checked on every core (rayon), each block's bytes
    /// read once, then their checksums against the whole payload's; a damaged block is named
    /// as the one-thread pass names it (the first in the file). The 7-8 databases (288 MB,
    /// 4,400 blocks) are mapped, and the pass costs as much in page faults as in checksums:
    /// both shared by the cores.
    pub fn verify(&self) -> Result<(), TableError> {
        let data = self.data.as_ref();
        let header = &self.header;
        let blocks = header.block_count();
        let checked = if blocks > 1 {
            use rayon::prelude::*;
            (0..blocks)
                .into_par_iter()
                .map(|k| header.verify_block(data, k))
                .find_first(Result::is_err)
                .unwrap_or(Ok(()))
                .and_then(|()| header.verify_block_sums(data))
        } else {
            self.header.verify_payload(data)
        };
        checked.map_err(|e| TableError::new(self.file(), e))
    }

    /// The groups, in the file's order.
    pub fn groups(&self) -> Vec<PatternGroup<'_>> {
        // `parse` checked these very bytes: every section's payload is within them.
        (0..self.header.sections().len())
            .filter_map(|i| {
                Some(PatternGroup {
                    tiles: self.header.sections()[i].tiles(),
                    payload: self.header.payload(self.data.as_ref(), i)?,
                })
            })
            .collect()
    }

    /// A lower bound on the moves from `layout` to the goal (the search crate's heuristic
    /// estimate): the sum over the groups of the moves each group's tiles need at least. Slow
    /// path, for checks and reports: ranks every group from scratch. A layout of another
    /// board is 0 away, as every heuristic has it.
    pub fn estimate(&self, layout: &Layout) -> u32 {
        let goal = self.header.goal();
        let board = goal.board();
        if layout.board() != board {
            return 0;
        }
        let md = goal.manhattan_table();
        let mut cell_of = [0u8; MAX_CELLS];
        for (c, &t) in layout.tiles().iter().enumerate() {
            cell_of[t as usize] = c as u8;
        }
        let mut total = 0;
        for g in self.groups() {
            let cells: Vec<u8> = mask_tiles(g.tiles).map(|t| cell_of[t as usize]).collect();
            let ranker = PlacementRanker::new(board.cells(), cells.len()).expect("validated group");
            let moves: u32 = mask_tiles(g.tiles)
                .map(|t| u32::from(md[t as usize][cell_of[t as usize] as usize]))
                .sum();
            total += moves + 2 * excess_at(g.payload, ranker.rank(&cells));
        }
        total
    }
}
