//! Which blocks of a table's payload have been verified against their checksums (format
//! version 2: a CRC-32 per [`BLOCK_LEN`] bytes, docs/FORMAT.md §8), so that a mapped table
//! verifies each block the first time a query reads from it instead of its whole payload at
//! open, and never answers from a damaged one.
//!
//! The record is a bitmap of atomic words, one bit a block: threads that read the same table
//! set bits without a lock, and a block two threads verify at once is merely verified twice.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use slidetable_format::{FormatError, Header, BLOCK_LEN};

use crate::error::PARTS_ADVICE;
use crate::{readahead, Damage, QueryError, TableError, TableErrorKind};

/// Where one part's payload lies in the joined bytes (offsets from the joined table's first
/// byte), to name the part of a damaged block.
#[derive(Clone, Debug)]
pub(crate) struct Span {
    /// The part file.
    pub(crate) part: PathBuf,
    /// Its payload's bytes in the joined table.
    pub(crate) bytes: Range<u64>,
}

/// `error` about the joined table, told of the part it lies in when it names bytes of one
/// (a damaged block): the part's file, and the bytes counted from the part's first byte.
pub(crate) fn locate(spans: &[Span], error: FormatError) -> (Option<PathBuf>, FormatError) {
    if let FormatError::BlockChecksum {
        offset,
        end,
        stored,
        computed,
    } = error
    {
        if let Some(s) = spans.iter().find(|s| s.bytes.contains(&offset)) {
            let at = s.bytes.start;
            return (
                Some(s.part.clone()),
                FormatError::BlockChecksum {
                    offset: offset - at,
                    end: end - at,
                    stored,
                    computed,
                },
            );
        }
    }
    (None, error)
}

/// The verified blocks of one table.
#[derive(Debug)]
pub(crate) struct Verified {
    /// Every byte of the payload verified (read into memory and checked at open, or checked
    /// whole on request), or nothing to check block by block (version 1, or bytes handed to
    /// [`crate::Table::new`] without block checksums).
    all: AtomicBool,
    /// Bit `k % 64` of word `k / 64`: block `k` verified.
    words: Box<[AtomicU64]>,
    /// The file the bytes came from, for the message of a damaged block.
    file: Option<PathBuf>,
    /// A table in parts: where each part's payload lies, to name the part of a damaged block.
    spans: Vec<Span>,
}

impl Verified {
    /// Nothing verified yet of a table with this header (every block to check on first read
    /// when it has block checksums; none to check when it has not).
    pub(crate) fn new(header: &Header, file: Option<&Path>) -> Verified {
        let blocks = header.block_count();
        Verified {
            all: AtomicBool::new(blocks == 0),
            words: (0..blocks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            file: file.map(Path::to_path_buf),
            spans: Vec::new(),
        }
    }

    /// The bytes are a table in parts laid out as `spans` say: a damaged block is named by
    /// its part.
    pub(crate) fn set_spans(&mut self, spans: Vec<Span>) {
        self.spans = spans;
    }

    /// The error to report for `error`, an error about the bytes: a damaged block of a table
    /// in parts is told as its part's, with the bytes counted in that part and what can be
    /// done about a part.
    pub(crate) fn table_error(&self, error: FormatError) -> TableError {
        match locate(&self.spans, error) {
            (Some(part), error) => TableError::new(
                self.file.as_deref(),
                TableErrorKind::Part {
                    part,
                    problem: format!("{error}; {PARTS_ADVICE}"),
                },
            ),
            (None, error) => TableError::new(self.file.as_deref(), error),
        }
    }

    /// Every block is verified from now on.
    pub(crate) fn set_all(&self) {
        self.all.store(true, Ordering::Relaxed);
    }

    /// Whether every block is verified.
    #[inline]
    pub(crate) fn all(&self) -> bool {
        self.all.load(Ordering::Relaxed)
    }

    /// Ok once payload byte `at` (counted from the first payload byte) lies in a verified
    /// block: a bit test, and the block's checksum computed the first time.
    #[inline]
    pub(crate) fn check(&self, header: &Header, file: &[u8], at: u64) -> Result<(), QueryError> {
        if self.all() {
            return Ok(());
        }
        let k = at / BLOCK_LEN;
        let bit = 1u64 << (k % 64);
        match self.words.get((k / 64) as usize) {
            Some(w) if w.load(Ordering::Relaxed) & bit != 0 => Ok(()),
            Some(w) => self.verify(header, file, k, w, bit),
            // Beyond the payload: the reader asked for an entry the header does not lay out.
            None => Err(QueryError::Damaged(Box::new(Damage {
                file: self.file.clone(),
                part: None,
                error: slidetable_format::FormatError::Overflow("block index"),
            }))),
        }
    }

    /// Verifies block `k` and records it; a mismatch names the file and the block's bytes.
    #[cold]
    fn verify(
        &self,
        header: &Header,
        file: &[u8],
        k: u64,
        word: &AtomicU64,
        bit: u64,
    ) -> Result<(), QueryError> {
        let start = header.header_len() + k * BLOCK_LEN;
        readahead::will_need(file, start..start + BLOCK_LEN);
        header.verify_block(file, k).map_err(|error| {
            let (part, error) = locate(&self.spans, error);
            QueryError::Damaged(Box::new(Damage {
                file: self.file.clone(),
                part,
                error,
            }))
        })?;
        word.fetch_or(bit, Ordering::Relaxed);
        Ok(())
    }

    /// Verifies the blocks holding payload bytes `range` (counted from the first payload
    /// byte) not verified yet: before a question that reads a whole section.
    pub(crate) fn check_range(
        &self,
        header: &Header,
        file: &[u8],
        range: std::ops::Range<u64>,
    ) -> Result<(), QueryError> {
        if self.all() || range.is_empty() {
            return Ok(());
        }
        let (first, last) = (range.start / BLOCK_LEN, (range.end - 1) / BLOCK_LEN);
        for k in first..=last {
            // The blocks a window ahead are asked of the disk while these are checked.
            if (k - first) % AHEAD == 0 {
                let ahead = header.header_len() + (k + AHEAD) * BLOCK_LEN;
                readahead::will_need(file, ahead..ahead + AHEAD * BLOCK_LEN);
            }
            self.check(header, file, k * BLOCK_LEN)?;
        }
        Ok(())
    }
}

/// How many blocks [`Verified::check_range`] asks the disk for ahead of the one it checks
/// (1 MiB).
const AHEAD: u64 = 16;
