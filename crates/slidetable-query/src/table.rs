//! [`Table`]: a table file's bytes (read or mapped through the `file` module), checked by the
//! format crate's [`Header`], and the sections it holds; the questions about the standard
//! goal or any other, answered through a [`Goal`].

use std::path::{Path, PathBuf};

use slidetable_core::{Board, Layout, Move, Neighbors};
use slidetable_format::{Header, SectionDescriptor};

use crate::blocks::Verified;
use crate::error::check_board;
use crate::goal::Relabelling;
use crate::ranks::TableRanks;
use crate::section::Checks;
use crate::{file, readahead, CostModel, Goal, QueryError, Section, TableBytes, TableError};

/// A table over bytes `D`: validated once in constant time, then read without copying.
pub struct Table<D: AsRef<[u8]>> {
    data: D,
    header: Header,
    ranker: TableRanks,
    neighbors: Neighbors,
    /// Each section goal's parity class and packed form, computed once.
    goal_keys: Vec<(u8, u64)>,
    /// The section of the standard goal, if the table has one: the default questions.
    standard_section: Option<usize>,
    /// The file the table was opened from, if any.
    file: Option<PathBuf>,
    /// The payload's blocks verified so far (format version 2).
    verified: Verified,
}

/// A table over a file: read into memory when small, memory-mapped when large (see
/// [`TableBytes`]).
pub type MappedTable = Table<TableBytes>;

impl Table<TableBytes> {
    /// Reads (below [`READ_BELOW`](crate::READ_BELOW) bytes) or maps the file at `path`,
    /// checks its header and verifies its payload as [`Table::verify_at_open`] says: a
    /// damaged payload is refused rather than read as a confident wrong answer. Anything but
    /// a regular file is refused without reading from it (a FIFO would block).
    pub fn open(path: impl AsRef<Path>) -> Result<Table<TableBytes>, TableError> {
        let table = Table::open_header(path)?;
        table.verify_at_open()?;
        Ok(table)
    }

    /// What opening a table for questions verifies: the whole payload now when the bytes were
    /// read into memory (a small table: under a millisecond) or the file has one checksum for
    /// its whole payload (format version 1, whatever its size); otherwise (a mapped file of
    /// version 2) nothing now, and each block of the payload the first time a question reads
    /// from it, so one question on a 10.9 GB table reads a few blocks, not 10.9 GB.
    pub fn verify_at_open(&self) -> Result<(), TableError> {
        if self.data.is_mapped() && self.header.block_count() > 0 {
            return Ok(());
        }
        self.verify()
    }

    /// As [`Table::open`], but checks only the header, in time bounded by its size: for
    /// reports on the file itself (`info`), which verify the payload on request.
    pub fn open_header(path: impl AsRef<Path>) -> Result<Table<TableBytes>, TableError> {
        let path = path.as_ref();
        let bytes = file::read_or_map(path)?;
        let spans = bytes.spans();
        let mut table = Table::with_file(bytes, Some(path))?;
        table.set_spans(spans);
        if table.data.is_mapped() {
            readahead::random(&table.header, table.data.as_ref());
        }
        Ok(table)
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// A table over `data`, after checking magic, version, board, encoding, every header
    /// field and the exact length — in time bounded by the header, not the payload.
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        Table::with_file(data, None)
    }

    /// [`Table::new`], for bytes from `file` (if any): errors name it, and so will the
    /// table's.
    pub(crate) fn with_file(data: D, file: Option<&Path>) -> Result<Table<D>, TableError> {
        let header = Header::parse(data.as_ref()).map_err(|e| TableError::new(file, e))?;
        let ranker = TableRanks::new(header.board());
        let goal_keys = header
            .sections()
            .iter()
            .map(|s| (s.goal().class(), s.goal().packed()))
            .collect();
        let standard = header.board().standard_goal();
        let standard_section = header.sections().iter().position(|s| *s.goal() == standard);
        Ok(Table {
            data,
            goal_keys,
            standard_section,
            neighbors: Neighbors::new(header.board()),
            verified: Verified::new(&header, file),
            header,
            ranker,
            file: file.map(Path::to_path_buf),
        })
    }

    /// The bytes are a table in parts laid out as `spans` say: errors about a damaged block
    /// name its part.
    pub(crate) fn set_spans(&mut self, spans: Vec<crate::blocks::Span>) {
        self.verified.set_spans(spans);
    }

    /// Checks the payload against its checksums (each block's, then the whole payload's):
    /// reads every byte of the file. Afterwards no question verifies a block again.
    pub fn verify(&self) -> Result<(), TableError> {
        let file = self.data.as_ref();
        readahead::sequentially(&self.header, file, || self.header.verify_payload(file))
            .map_err(|e| self.verified.table_error(e))?;
        self.verified.set_all();
        Ok(())
    }

    /// Checks that each section's entries hold as many states at each distance as the
    /// header's histogram says (for 2-bit entries, at each residue): damage under checksums
    /// computed again, which the checksums cannot see. A pass over every entry, made on
    /// request (`info --verify`, `merge`), not at open: a question meets such damage anyway,
    /// as an entry that contradicts its neighbours or a 0 away from the goal.
    pub fn verify_counts(&self) -> Result<(), TableError> {
        for (i, descriptor) in self.header.sections().iter().enumerate() {
            let payload = self
                .header
                .payload(self.data.as_ref(), i)
                .unwrap_or_default();
            crate::census::check_section(
                i,
                *descriptor.goal(),
                self.header.encoding(),
                payload,
                descriptor.entries(),
                descriptor.histogram(),
            )
            .map_err(|e| TableError::new(self.file.as_deref(), e))?;
        }
        Ok(())
    }

    /// The table's bytes, header and payloads, as one file holds them (what `slidetable
    /// merge` writes of a table in parts).
    pub fn bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The board every section is for.
    pub fn board(&self) -> Board {
        self.header.board()
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The sections' descriptors, in file order.
    pub fn sections(&self) -> &[SectionDescriptor] {
        self.header.sections()
    }

    /// The file this table was opened from, if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The section whose goal is exactly `goal`, if the table has one.
    pub fn section_for(&self, goal: &Layout) -> Result<usize, QueryError> {
        check_board(self.header.board(), goal)?;
        self.header
            .sections()
            .iter()
            .position(|s| s.goal() == goal)
            .ok_or(QueryError::NoSection { goal: *goal })
    }

    /// A view of section `index` (in file order), if the table has one.
    pub fn section(&self, index: usize) -> Option<Section<'_>> {
        let descriptor = self.header.sections().get(index)?;
        let &(goal_class, goal_packed) = self.goal_keys.get(index)?;
        Some(Section {
            descriptor,
            entries: self.header.payload(self.data.as_ref(), index)?,
            checks: Checks {
                header: &self.header,
                file: self.data.as_ref(),
                verified: &self.verified,
                base: descriptor.payload_offset() - self.header.header_len(),
            },
            ranker: &self.ranker,
            neighbors: &self.neighbors,
            goal_class,
            goal_packed,
            encoding: self.header.encoding(),
            cost: self.header.cost(),
            known: None,
        })
    }

    /// Answers about `goal`, any layout of the board: from its own section when the table
    /// has one, else by relabelling tiles onto the section whose goal has its blank in the
    /// same cell. Moves act on cells, not labels, so paths carry over unchanged.
    pub fn goal(&self, goal: &Layout) -> Result<Goal<'_>, QueryError> {
        check_board(self.header.board(), goal)?;
        let no_section = QueryError::NoSection { goal: *goal };
        if let Ok(i) = self.section_for(goal) {
            return Ok(Goal {
                section: self.section(i).ok_or(no_section)?,
                goal: *goal,
                relabel: Relabelling(None),
            });
        }
        if self.header.cost() != CostModel::Unit {
            // Relabelling renames tiles, and a tile's name is its cost: no shortcut here.
            return Err(no_section);
        }
        // The canonical goal of the blank's cell if the table has it, else any section whose
        // goal has the blank in that cell: renaming tiles carries one onto the other.
        let canonical = self.header.board().goal_with_blank(goal.blank());
        let sections = self.header.sections();
        let i = sections
            .iter()
            .position(|s| s.goal() == &canonical)
            .or_else(|| {
                sections
                    .iter()
                    .position(|s| s.goal().blank() == goal.blank())
            })
            .ok_or_else(|| no_section.clone())?;
        let target = *sections[i].goal();
        Ok(Goal {
            section: self.section(i).ok_or(no_section)?,
            goal: *goal,
            relabel: Relabelling(Some(goal.relabelling_to(&target))),
        })
    }

    /// Answers about the standard goal (tiles in order, blank last).
    pub fn standard(&self) -> Result<Goal<'_>, QueryError> {
        let standard = self.header.board().standard_goal();
        match self.standard_section.and_then(|i| self.section(i)) {
            Some(section) => Ok(Goal {
                section,
                goal: standard,
                relabel: Relabelling(None),
            }),
            None => self.goal(&standard),
        }
    }

    /// The fewest moves from `start` to the standard goal (tiles in order, blank last), or
    /// `None` when it cannot be reached.
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        self.standard()?.distance(start)
    }

    /// An optimal path from `start` to the standard goal, or `None` when there is none.
    pub fn path(&self, start: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        self.standard()?.path(start)
    }

    /// The fewest moves from `start` to `goal`, or `None` when they are in different classes.
    pub fn distance_to(&self, start: &Layout, goal: &Layout) -> Result<Option<u32>, QueryError> {
        self.goal(goal)?.distance(start)
    }

    /// An optimal path from `start` to `goal`, or `None` when there is none.
    pub fn path_to(&self, start: &Layout, goal: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        self.goal(goal)?.path(start)
    }
}
