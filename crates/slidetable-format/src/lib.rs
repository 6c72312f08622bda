//! The slidetable file: a little-endian header, then one payload per goal section.
//!
//! docs/FORMAT.md specifies it byte by byte. This crate is the one place that knows the
//! layout: the writer (`slidetable-gen`) builds a [`Header`] and calls [`Header::to_bytes`];
//! the reader (`slidetable-query`) calls [`Header::parse`], which checks every field against
//! the bytes it was given before anything else reads them, and never panics.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_format::{Encoding, CostModel, Header, SectionSpec};
//!
//! let board = Board::new(2, 2).unwrap();
//! let spec = SectionSpec { goal: board.standard_goal(), histogram: vec![1, 2, 2, 2, 2, 2, 1] };
//! let header = Header::build(board, Encoding::Byte, CostModel::Unit, vec![spec], 0).unwrap();
//! let mut file = header.to_bytes();
//! file.resize(header.file_len as usize, 0);
//! let back = Header::parse(&file).unwrap();
//! assert_eq!(back.sections[0].max_distance, 6);
//! ```

use std::fmt;

mod pattern;

pub use pattern::{
    excess_at, is_pattern_file, pattern_payload_len, PatternHeader, PatternSection, PatternSpec,
    MAX_EXCESS, MAX_GROUP, PATTERN_ENCODING,
};

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::{Board, Layout, Move, MAX_CELLS, MAX_TABLE_CELLS};

/// The payload checksum: CRC-32 (IEEE), streamed by the writer over the payload bytes.
pub use crc32fast::Hasher as PayloadHasher;

/// The first eight bytes of every table.
pub const MAGIC: [u8; 8] = *b"SLIDETBL";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Bytes in the fixed part of the header.
pub const FIXED_HEADER_LEN: usize = 64;
/// Bytes in one section descriptor.
pub const SECTION_LEN: usize = 64;
/// The most histogram entries a file may declare in all (refused before any allocation).
pub const MAX_HISTOGRAM_ENTRIES: u64 = 1 << 16;

// Field offsets in the fixed header.
pub(crate) const OFF_VERSION: usize = 8;
pub(crate) const OFF_ROWS: usize = 10;
pub(crate) const OFF_COLS: usize = 11;
pub(crate) const OFF_ENCODING: usize = 12;
pub(crate) const OFF_COST: usize = 13;
pub(crate) const OFF_SECTIONS: usize = 14;
pub(crate) const OFF_HEADER_LEN: usize = 16;
pub(crate) const OFF_HEADER_CRC: usize = 20;
pub(crate) const OFF_PAYLOAD_CRC: usize = 24;
pub(crate) const OFF_FILE_LEN: usize = 32;

// Field offsets in a section descriptor.
pub(crate) const S_GOAL: usize = 0;
pub(crate) const S_ENTRIES: usize = 16;
pub(crate) const S_MAX: usize = 24;
pub(crate) const S_HIST_LEN: usize = 28;
pub(crate) const S_HIST_OFF: usize = 32;
pub(crate) const S_PAYLOAD_OFF: usize = 40;
pub(crate) const S_PAYLOAD_LEN: usize = 48;

/// How each state's entry is stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    /// One byte per state: `distance << 2 | first move` (u 0, d 1, l 2, r 3); distance ≤ 63.
    Byte = 1,
    /// Two bits per state, four to a byte (lowest bits first): the distance mod 3. Enough to
    /// walk an optimal path (step to the neighbour whose value is one less mod 3) and to count
    /// its length; what makes 11- and 12-cell boards fit. Unit costs only.
    TwoBit = 2,
    /// A little-endian `u16` per state: `cost << 2 | first move`; cost ≤ 16383. For weighted
    /// moves whose cheapest costs outgrow a byte.
    Wide16 = 3,
}

impl Encoding {
    pub fn from_code(code: u8) -> Option<Encoding> {
        match code {
            1 => Some(Encoding::Byte),
            2 => Some(Encoding::TwoBit),
            3 => Some(Encoding::Wide16),
            _ => None,
        }
    }

    /// The name the command line and `info` use: `byte`, `2bit`, `wide16`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Byte => "byte",
            Encoding::TwoBit => "2bit",
            Encoding::Wide16 => "wide16",
        }
    }

    /// The encoding called `name` (see [`Encoding::name`]).
    pub fn from_name(name: &str) -> Option<Encoding> {
        [Encoding::Byte, Encoding::TwoBit, Encoding::Wide16]
            .into_iter()
            .find(|e| e.name() == name)
    }

    /// The largest distance (or cost) an entry can hold.
    pub fn max_distance(self) -> u32 {
        match self {
            Encoding::Byte => 63,
            // Only the residue is stored: any distance the histogram can describe.
            Encoding::TwoBit => u32::MAX,
            Encoding::Wide16 => 16383,
        }
    }

    /// Payload bytes for `entries` states, or `None` on overflow.
    pub fn payload_len(self, entries: u64) -> Option<u64> {
        match self {
            Encoding::Byte => Some(entries),
            Encoding::TwoBit => Some(entries.div_ceil(4)),
            Encoding::Wide16 => entries.checked_mul(2),
        }
    }
}

/// A byte entry: the distance and the first move of an optimal path (ignored at distance 0).
#[inline]
pub fn byte_entry(distance: u32, first: Move) -> u8 {
    debug_assert!(distance <= 63);
    ((distance as u8) << 2) | first.code()
}

/// The distance held by a byte entry.
#[inline]
pub fn byte_distance(entry: u8) -> u32 {
    u32::from(entry >> 2)
}

/// The first move held by a byte entry.
#[inline]
pub fn byte_move(entry: u8) -> Move {
    Move::from_code(entry)
}

/// The 2-bit value of the entry at `rank` in a [`Encoding::TwoBit`] payload: the distance
/// mod 3. `rank` must be below four times the payload's length.
#[inline]
pub fn two_bit_value(payload: &[u8], rank: u32) -> u32 {
    u32::from(payload[(rank >> 2) as usize] >> ((rank & 3) * 2)) & 3
}

/// A wide entry: the cost and the first move of a cheapest path (ignored at cost 0).
#[inline]
pub fn wide_entry(cost: u32, first: Move) -> u16 {
    debug_assert!(cost <= 16383);
    ((cost as u16) << 2) | u16::from(first.code())
}

/// The entry at `rank` of a [`Encoding::Wide16`] payload.
#[inline]
pub fn wide_at(payload: &[u8], rank: u32) -> u16 {
    let i = rank as usize * 2;
    u16::from_le_bytes([payload[i], payload[i + 1]])
}

/// What a move costs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CostModel {
    /// Every move costs 1: distances are move counts.
    Unit = 0,
    /// Moving tile `k` costs `k`: distances are the cheapest total cost.
    Tile = 1,
}

impl CostModel {
    pub fn from_code(code: u8) -> Option<CostModel> {
        match code {
            0 => Some(CostModel::Unit),
            1 => Some(CostModel::Tile),
            _ => None,
        }
    }

    /// The name the command line and `info` use: `unit`, `tile`.
    pub fn name(self) -> &'static str {
        match self {
            CostModel::Unit => "unit",
            CostModel::Tile => "tile",
        }
    }

    /// The cost model called `name` (see [`CostModel::name`]).
    pub fn from_name(name: &str) -> Option<CostModel> {
        [CostModel::Unit, CostModel::Tile]
            .into_iter()
            .find(|c| c.name() == name)
    }

    /// What sliding `tile` costs.
    #[inline]
    pub fn of_tile(self, tile: u8) -> u32 {
        match self {
            CostModel::Unit => 1,
            CostModel::Tile => u32::from(tile),
        }
    }
}

/// What the writer knows of a section before laying it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpec {
    pub goal: Layout,
    /// `histogram[d]` = states at distance `d`; its last entry is the maximum distance's.
    pub histogram: Vec<u64>,
}

/// One goal section as the header describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionHeader {
    pub goal: Layout,
    pub entries: u64,
    pub max_distance: u32,
    pub histogram: Vec<u64>,
    pub histogram_offset: u64,
    pub payload_offset: u64,
    pub payload_len: u64,
}

/// The whole header, as validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub board: Board,
    pub encoding: Encoding,
    pub cost: CostModel,
    pub sections: Vec<SectionHeader>,
    /// Bytes from the start of the file to the first payload byte.
    pub header_len: u64,
    pub payload_crc: u32,
    pub file_len: u64,
}

/// What is wrong with a table file's bytes. Messages name the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("file is {len} bytes, shorter than the {FIXED_HEADER_LEN}-byte header")]
    TooShort { len: u64 },
    #[error("not a slidetable file (magic number is {found:02x?}, expected \"SLIDETBL\")")]
    BadMagic { found: [u8; 8] },
    #[error("format version {found} is not supported (this slidetable reads version {VERSION})")]
    UnsupportedVersion { found: u16 },
    #[error("board {rows}x{cols} is not supported (2x2 up to {MAX_TABLE_CELLS} cells)")]
    BadBoard { rows: u8, cols: u8 },
    #[error("unknown entry encoding {0}")]
    UnknownEncoding(u8),
    #[error("unknown cost model {0}")]
    UnknownCost(u8),
    #[error("the {encoding} encoding cannot hold {cost} costs")]
    EncodingCost {
        encoding: &'static str,
        cost: &'static str,
    },
    #[error("section count {found} is out of range (1..={max} for this board)")]
    BadSectionCount { found: u16, max: usize },
    #[error("header length field is {found}; it must be {expected}")]
    BadHeaderLen { found: u64, expected: u64 },
    #[error("header length field is {found}, outside {min}..={max} (end of the section descriptors ..= file length)")]
    HeaderLenOutOfRange { found: u64, min: u64, max: u64 },
    #[error("header checksum mismatch (stored {stored:08x}, computed {computed:08x}): the header is corrupt")]
    HeaderChecksum { stored: u32, computed: u32 },
    #[error("file is {actual} bytes but its header says {declared}: the file is truncated or has trailing bytes")]
    LengthMismatch { declared: u64, actual: u64 },
    #[error("section {index}: {what}")]
    Section { index: usize, what: String },
    #[error("payload checksum mismatch (stored {stored:08x}, computed {computed:08x}): the table is corrupt")]
    PayloadChecksum { stored: u32, computed: u32 },
    #[error("{0} overflows")]
    Overflow(&'static str),
    #[error(
        "board {rows}x{cols} is not supported by pattern databases (2x2 up to {MAX_CELLS} cells)"
    )]
    BadPatternBoard { rows: u8, cols: u8 },
    #[error("{0}")]
    Groups(String),
    #[error(
        "this is a pattern database (encoding {PATTERN_ENCODING}), not a table of every state"
    )]
    PatternFile,
}

pub(crate) fn add(a: u64, b: u64, what: &'static str) -> Result<u64, FormatError> {
    a.checked_add(b).ok_or(FormatError::Overflow(what))
}

pub(crate) fn mul(a: u64, b: u64, what: &'static str) -> Result<u64, FormatError> {
    a.checked_mul(b).ok_or(FormatError::Overflow(what))
}

impl Header {
    /// Lays out a file: sections in the given order, histograms after the descriptors, the
    /// payloads one after another right after the header.
    pub fn build(
        board: Board,
        encoding: Encoding,
        cost: CostModel,
        specs: Vec<SectionSpec>,
        payload_crc: u32,
    ) -> Result<Header, FormatError> {
        let entries = board.reachable_states();
        let hist_total: u64 = specs.iter().map(|s| s.histogram.len() as u64).sum();
        let descriptors = mul(
            specs.len() as u64,
            SECTION_LEN as u64,
            "section descriptors",
        )?;
        let header_len = add(
            add(FIXED_HEADER_LEN as u64, descriptors, "header length")?,
            mul(hist_total, 8, "histograms")?,
            "header length",
        )?;
        let payload_len = encoding
            .payload_len(entries)
            .ok_or(FormatError::Overflow("payload length"))?;
        let mut hist_off = FIXED_HEADER_LEN as u64 + descriptors;
        let mut payload_off = header_len;
        let mut sections = Vec::with_capacity(specs.len());
        for spec in specs {
            let len = spec.histogram.len() as u64;
            sections.push(SectionHeader {
                goal: spec.goal,
                entries,
                max_distance: len.saturating_sub(1) as u32,
                histogram: spec.histogram,
                histogram_offset: hist_off,
                payload_offset: payload_off,
                payload_len,
            });
            hist_off += len * 8;
            payload_off = add(payload_off, payload_len, "file length")?;
        }
        let header = Header {
            board,
            encoding,
            cost,
            sections,
            header_len,
            payload_crc,
            file_len: payload_off,
        };
        header.check()?;
        Ok(header)
    }

    /// The header's bytes (`header_len` of them), checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; self.header_len as usize];
        b[..8].copy_from_slice(&MAGIC);
        LE::write_u16(&mut b[OFF_VERSION..], VERSION);
        b[OFF_ROWS] = self.board.rows() as u8;
        b[OFF_COLS] = self.board.cols() as u8;
        b[OFF_ENCODING] = self.encoding as u8;
        b[OFF_COST] = self.cost as u8;
        LE::write_u16(&mut b[OFF_SECTIONS..], self.sections.len() as u16);
        LE::write_u32(&mut b[OFF_HEADER_LEN..], self.header_len as u32);
        LE::write_u32(&mut b[OFF_PAYLOAD_CRC..], self.payload_crc);
        LE::write_u64(&mut b[OFF_FILE_LEN..], self.file_len);
        for (i, s) in self.sections.iter().enumerate() {
            let d = &mut b[FIXED_HEADER_LEN + i * SECTION_LEN..][..SECTION_LEN];
            d[S_GOAL..S_GOAL + s.goal.tiles().len()].copy_from_slice(s.goal.tiles());
            LE::write_u64(&mut d[S_ENTRIES..], s.entries);
            LE::write_u32(&mut d[S_MAX..], s.max_distance);
            LE::write_u32(&mut d[S_HIST_LEN..], s.histogram.len() as u32);
            LE::write_u64(&mut d[S_HIST_OFF..], s.histogram_offset);
            LE::write_u64(&mut d[S_PAYLOAD_OFF..], s.payload_offset);
            LE::write_u64(&mut d[S_PAYLOAD_LEN..], s.payload_len);
            let h = &mut b[s.histogram_offset as usize..][..s.histogram.len() * 8];
            LE::write_u64_into(&s.histogram, h);
        }
        let crc = crc32fast::hash(&b);
        LE::write_u32(&mut b[OFF_HEADER_CRC..], crc);
        b
    }

    /// Reads and validates the header of a whole file. Work is bounded by the header's own
    /// size (at most a few hundred KiB), never by the payload's.
    pub fn parse(file: &[u8]) -> Result<Header, FormatError> {
        let actual = file.len() as u64;
        if file.len() < FIXED_HEADER_LEN {
            return Err(FormatError::TooShort { len: actual });
        }
        let fixed = &file[..FIXED_HEADER_LEN];
        let magic: [u8; 8] = fixed[..8].try_into().expect("8 bytes");
        if magic != MAGIC {
            return Err(FormatError::BadMagic { found: magic });
        }
        let version = LE::read_u16(&fixed[OFF_VERSION..]);
        if version != VERSION {
            return Err(FormatError::UnsupportedVersion { found: version });
        }
        if fixed[OFF_ENCODING] == PATTERN_ENCODING {
            return Err(FormatError::PatternFile);
        }
        let (rows, cols) = (fixed[OFF_ROWS], fixed[OFF_COLS]);
        let board = Board::for_table(rows.into(), cols.into())
            .map_err(|_| FormatError::BadBoard { rows, cols })?;
        let encoding = Encoding::from_code(fixed[OFF_ENCODING])
            .ok_or(FormatError::UnknownEncoding(fixed[OFF_ENCODING]))?;
        let cost = CostModel::from_code(fixed[OFF_COST])
            .ok_or(FormatError::UnknownCost(fixed[OFF_COST]))?;
        let count = LE::read_u16(&fixed[OFF_SECTIONS..]);
        if count == 0 || count as usize > board.cells() {
            return Err(FormatError::BadSectionCount {
                found: count,
                max: board.cells(),
            });
        }
        let declared = LE::read_u64(&fixed[OFF_FILE_LEN..]);
        if declared != actual {
            return Err(FormatError::LengthMismatch { declared, actual });
        }
        let header_len = u64::from(LE::read_u32(&fixed[OFF_HEADER_LEN..]));
        let descriptors_end = FIXED_HEADER_LEN as u64 + count as u64 * SECTION_LEN as u64;
        if header_len < descriptors_end || header_len > actual {
            return Err(FormatError::HeaderLenOutOfRange {
                found: header_len,
                min: descriptors_end,
                max: actual,
            });
        }
        let header_bytes = &file[..header_len as usize];
        let stored = LE::read_u32(&fixed[OFF_HEADER_CRC..]);
        let computed = {
            let mut h = crc32fast::Hasher::new();
            h.update(&header_bytes[..OFF_HEADER_CRC]);
            h.update(&[0; 4]);
            h.update(&header_bytes[OFF_HEADER_CRC + 4..]);
            h.finalize()
        };
        if stored != computed {
            return Err(FormatError::HeaderChecksum { stored, computed });
        }
        let payload_crc = LE::read_u32(&fixed[OFF_PAYLOAD_CRC..]);

        let mut sections = Vec::with_capacity(count as usize);
        let mut hist_total = 0u64;
        for index in 0..count as usize {
            let bad = |what: String| FormatError::Section { index, what };
            let d = &header_bytes[FIXED_HEADER_LEN + index * SECTION_LEN..][..SECTION_LEN];
            let goal = Layout::new(board, &d[S_GOAL..S_GOAL + board.cells()])
                .map_err(|e| bad(format!("goal is not a {board} layout: {e}")))?;
            if d[S_GOAL + board.cells()..S_GOAL + MAX_CELLS]
                .iter()
                .any(|&b| b != 0)
            {
                return Err(bad("goal has bytes beyond the board".into()));
            }
            let entries = LE::read_u64(&d[S_ENTRIES..]);
            let hist_len = u64::from(LE::read_u32(&d[S_HIST_LEN..]));
            hist_total = add(hist_total, hist_len, "histogram length")?;
            if hist_total > MAX_HISTOGRAM_ENTRIES {
                return Err(bad(format!(
                    "histogram has {hist_len} entries; at most {MAX_HISTOGRAM_ENTRIES} are allowed"
                )));
            }
            let histogram_offset = LE::read_u64(&d[S_HIST_OFF..]);
            let hist_end = add(
                histogram_offset,
                mul(hist_len, 8, "histogram")?,
                "histogram",
            )?;
            if histogram_offset < descriptors_end || hist_end > header_len {
                return Err(bad(format!(
                    "histogram at {histogram_offset}..{hist_end} lies outside the header (..{header_len})"
                )));
            }
            let mut histogram = vec![0u64; hist_len as usize];
            LE::read_u64_into(
                &header_bytes[histogram_offset as usize..hist_end as usize],
                &mut histogram,
            );
            sections.push(SectionHeader {
                goal,
                entries,
                max_distance: LE::read_u32(&d[S_MAX..]),
                histogram,
                histogram_offset,
                payload_offset: LE::read_u64(&d[S_PAYLOAD_OFF..]),
                payload_len: LE::read_u64(&d[S_PAYLOAD_LEN..]),
            });
        }
        let header = Header {
            board,
            encoding,
            cost,
            sections,
            header_len,
            payload_crc,
            file_len: actual,
        };
        header.check()?;
        Ok(header)
    }

    /// The rules every header obeys, checked by both the writer and the reader: distinct
    /// goals, exact entry counts, histograms that add up, and payloads packed
    /// one after another from the end of the header to the end of the file.
    fn check(&self) -> Result<(), FormatError> {
        let board = self.board;
        if !board.supports_tables() {
            return Err(FormatError::BadBoard {
                rows: board.rows() as u8,
                cols: board.cols() as u8,
            });
        }
        if self.encoding == Encoding::TwoBit && self.cost != CostModel::Unit {
            // Neighbours' costs differ by more than one: a residue mod 3 cannot guide a walk.
            return Err(FormatError::EncodingCost {
                encoding: self.encoding.name(),
                cost: self.cost.name(),
            });
        }
        let states = board.reachable_states();
        if self.sections.is_empty() || self.sections.len() > board.cells() {
            return Err(FormatError::BadSectionCount {
                found: self.sections.len().min(u16::MAX as usize) as u16,
                max: board.cells(),
            });
        }
        let hist_total: u64 = self.sections.iter().map(|s| s.histogram.len() as u64).sum();
        if hist_total > MAX_HISTOGRAM_ENTRIES {
            return Err(FormatError::Overflow("histogram entries"));
        }
        let mut expected_hist =
            FIXED_HEADER_LEN as u64 + (self.sections.len() * SECTION_LEN) as u64;
        let mut expected_payload = self.header_len;
        let payload_len = self
            .encoding
            .payload_len(states)
            .ok_or(FormatError::Overflow("payload length"))?;
        for (index, s) in self.sections.iter().enumerate() {
            let bad = |what: String| FormatError::Section { index, what };
            if s.goal.board() != board {
                return Err(bad(format!(
                    "goal {} is for a {} board, not {board}",
                    s.goal,
                    s.goal.board()
                )));
            }
            if self.sections[..index].iter().any(|o| o.goal == s.goal) {
                return Err(bad(format!("goal {} appears twice", s.goal)));
            }
            if s.entries != states {
                return Err(bad(format!(
                    "entry count {} is wrong: a {board} board has {states} states per class",
                    s.entries
                )));
            }
            let Some(&last) = s.histogram.last() else {
                return Err(bad("histogram is empty".into()));
            };
            if last == 0 {
                return Err(bad(format!(
                    "histogram ends with no states at distance {}: the maximum distance must have some",
                    s.histogram.len() - 1
                )));
            }
            if s.histogram.len() as u64 != u64::from(s.max_distance) + 1 {
                return Err(bad(format!(
                    "maximum distance {} disagrees with the histogram's {} entries",
                    s.max_distance,
                    s.histogram.len()
                )));
            }
            if s.max_distance > self.encoding.max_distance() {
                return Err(bad(format!(
                    "maximum distance {} does not fit the {} encoding",
                    s.max_distance,
                    self.encoding.name()
                )));
            }
            if s.histogram[0] != 1 {
                return Err(bad(format!(
                    "histogram says {} states at distance 0; exactly 1 (the goal) is possible",
                    s.histogram[0]
                )));
            }
            let sum = s
                .histogram
                .iter()
                .try_fold(0u64, |acc, &h| acc.checked_add(h))
                .ok_or(FormatError::Overflow("histogram sum"))?;
            if sum != states {
                return Err(bad(format!(
                    "histogram adds up to {sum}, not {states} states"
                )));
            }
            if s.histogram_offset != expected_hist {
                return Err(bad(format!(
                    "histogram offset {} should be {expected_hist}",
                    s.histogram_offset
                )));
            }
            expected_hist += s.histogram.len() as u64 * 8;
            if s.payload_offset != expected_payload || s.payload_len != payload_len {
                return Err(bad(format!(
                    "payload at {}+{} should be at {expected_payload}+{payload_len}",
                    s.payload_offset, s.payload_len
                )));
            }
            expected_payload = add(expected_payload, payload_len, "payload end")?;
        }
        if expected_hist != self.header_len {
            return Err(FormatError::BadHeaderLen {
                found: self.header_len,
                expected: expected_hist,
            });
        }
        if expected_payload != self.file_len {
            return Err(FormatError::LengthMismatch {
                declared: self.file_len,
                actual: expected_payload,
            });
        }
        Ok(())
    }

    /// The payload bytes of section `index` within the whole file (already validated).
    pub fn payload<'a>(&self, file: &'a [u8], index: usize) -> &'a [u8] {
        let s = &self.sections[index];
        &file[s.payload_offset as usize..(s.payload_offset + s.payload_len) as usize]
    }

    /// Checks the payload checksum over the whole file's payload bytes.
    pub fn verify_payload(&self, file: &[u8]) -> Result<(), FormatError> {
        let computed = crc32fast::hash(&file[self.header_len as usize..]);
        if computed != self.payload_crc {
            return Err(FormatError::PayloadChecksum {
                stored: self.payload_crc,
                computed,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for CostModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
