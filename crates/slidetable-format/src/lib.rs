//! The slidetable file: a little-endian header, then one payload per goal section.
//!
//! docs/FORMAT.md specifies it byte by byte. This crate is the one place that knows the
//! layout: the writer (`slidetable-gen`) builds a [`Header`], packs its entries with the
//! functions of `entries` ([`byte_entry`], [`two_bit_spread`], [`wide_payload`]...) and calls
//! [`Header::write_table`];
//! the reader (`slidetable-query`) calls [`Header::parse`], which checks every field against
//! the bytes it was given before anything else reads them, and never panics, and reads each
//! entry by [`byte_distance`], [`two_bit_value`] and [`wide_at`]. The header's fields are
//! private: a [`Header`] is only ever made by [`Header::build`] or [`Header::parse`], both
//! of which validate it.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_format::{BlockSums, Encoding, CostModel, Header, PayloadSums, SectionSpec};
//!
//! let board = Board::new(2, 2).unwrap();
//! let spec = SectionSpec { goal: board.standard_goal(), histogram: vec![1, 2, 2, 2, 2, 2, 1] };
//! let payload = vec![0u8; 12];
//! let sums = PayloadSums::Blocks(BlockSums::of([&payload[..]]));
//! let header = Header::build(board, Encoding::Byte, CostModel::Unit, vec![spec], sums).unwrap();
//! let mut file = Vec::new();
//! header.write_table(&mut file, &[&payload]).unwrap();
//! let back = Header::parse(&file).unwrap();
//! assert_eq!(back.sections()[0].max_distance(), 6);
//! ```

use std::fmt;
use std::io::{self, Write};

mod pattern;
mod pattern25;
pub use pattern25::{
    Group25, Pattern25Error, PatternFile25, Piece25, BYTE_ENTRIES_25, MAGIC_25, MAGIC_PART_25,
    UNREACHED_25, VERSION_25,
};

pub use pattern::{
    excess_at, is_pattern_file, pattern_payload_len, reachable_placements, PatternGroup,
    PatternHeader, PatternSection, PatternSpec, MAX_EXCESS, PATTERN_ENCODING,
};

use slidetable_core::{Board, Layout, LayoutError, MAX_CELLS, MAX_TABLE_CELLS};

mod bounded;

pub use bounded::{
    is_bounded_file, BoundedError, BoundedHeader, BoundedLevel, LevelDescriptor,
    BOUNDED_BLOCK_STATES, BOUNDED_HEADER_LEN, BOUNDED_INDEX_ENTRY_LEN, BOUNDED_LEVEL_LEN,
    BOUNDED_MAGIC, BOUNDED_MARK_STRIDE, BOUNDED_VERSION, MAX_BOUNDED_BLOCK_STATES,
    MAX_BOUNDED_DEPTH,
};

mod bounded_parts;

pub use bounded::BOUNDED_PART_MAGIC;
pub use bounded_parts::{
    bounded_part_name, is_bounded_manifest, is_bounded_part_name, BoundedManifest,
    BoundedManifestError, BoundedPartRecord, BOUNDED_MANIFEST_MAGIC, BOUNDED_MANIFEST_VERSION,
};

mod groups;

pub use groups::{check_group, check_groups, group_sizes, GroupCover, GroupError, MAX_GROUP};

mod frame;

mod blocks;

pub use blocks::{block_count, BlockSums, BLOCK_LEN};

mod parts;

pub mod mapping;

mod open;
pub use open::{open_regular, OpenError};

pub use parts::{
    is_part_name, joined_crc, part_name, slice_payload_len, Manifest, PartError, PartFooter,
    PartRecord, Slices, MANIFEST_FIXED_LEN, MANIFEST_MAGIC, MANIFEST_MAX_LEN, MANIFEST_NAME,
    PARTS_VERSION, PART_FOOTER_LEN, PART_MAGIC, PART_RECORD_LEN, SLICE_UNIT,
};

pub use frame::{claimed_board, PayloadSums, FIXED_HEADER_LEN, SECTION_LEN};
use frame::{histogram_shape, histogram_sum, Counted, Descriptor, Frame, Part, Section};

mod entries;

pub use entries::{
    byte_at, byte_distance, byte_entry, byte_move, narrow_wide, two_bit_equal, two_bit_gather,
    two_bit_lanes_equal, two_bit_spread, two_bit_value, two_bit_words_at, wide_at, wide_cost,
    wide_entry, wide_move, wide_payload, widen_bytes, TWO_BIT_LOW,
};

/// The payload checksum: CRC-32 (IEEE), streamed by the writer over the payload bytes.
pub use crc32fast::Hasher as PayloadHasher;

/// The first eight bytes of every table.
pub const MAGIC: [u8; 8] = *b"SLIDETBL";
/// The format version this code writes; it reads every version from 1 up to this one.
/// Version 2 adds a checksum per block of the payload (docs/FORMAT.md §2, §8).
pub const VERSION: u16 = 2;
/// The most histogram entries a file may declare in all (refused before any allocation).
pub const MAX_HISTOGRAM_ENTRIES: u64 = 1 << 16;

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
    /// Every encoding, in the order of their codes.
    pub const ALL: [Encoding; 3] = [Encoding::Byte, Encoding::TwoBit, Encoding::Wide16];

    /// The encoding with this code in the header's encoding field, if there is one.
    pub fn from_code(code: u8) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| *e as u8 == code)
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
        Encoding::ALL.into_iter().find(|e| e.name() == name)
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

    /// Whether entries in this encoding can hold distances under `cost`: the one place of the
    /// rule that 2-bit entries need unit moves (their residues mod 3 guide a walk only when
    /// neighbours' distances differ by one). The writer and the reader both ask it.
    pub fn holds(self, cost: CostModel) -> Result<(), FormatError> {
        if self == Encoding::TwoBit && cost != CostModel::Unit {
            return Err(FormatError::EncodingCost {
                encoding: self,
                cost,
            });
        }
        Ok(())
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

/// Whether a table of every state of `board` in `encoding` is one a header may describe:
/// up to [`MAX_TABLE_CELLS`] cells in any encoding, 15 and 16 cells in 2-bit entries (the one
/// search that ranks in 64 bits).
pub fn table_board(board: Board, encoding: Encoding) -> bool {
    board.supports_tables() || encoding == Encoding::TwoBit
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
    /// Every cost model, in the order of their codes.
    pub const ALL: [CostModel; 2] = [CostModel::Unit, CostModel::Tile];

    /// The cost model with this code in the header's cost field, if there is one.
    pub fn from_code(code: u8) -> Option<CostModel> {
        CostModel::ALL.into_iter().find(|c| *c as u8 == code)
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
        CostModel::ALL.into_iter().find(|c| c.name() == name)
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
    /// The section's goal.
    pub goal: Layout,
    /// `histogram[d]` = states at distance `d`; its last entry is the maximum distance's.
    pub histogram: Vec<u64>,
}

/// One goal section as the header describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionDescriptor(Descriptor);

/// The whole header, as validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// How every section's entries are stored.
    encoding: Encoding,
    /// What a move costs in every section.
    cost: CostModel,
    /// The board, the sections, the lengths and the payload checksum.
    frame: Frame<SectionDescriptor>,
}

impl Section for SectionDescriptor {
    fn new(d: Descriptor) -> Self {
        SectionDescriptor(d)
    }

    fn descriptor(&self) -> &Descriptor {
        &self.0
    }
}

impl SectionDescriptor {
    /// The section's goal.
    pub fn goal(&self) -> &Layout {
        &self.0.goal
    }

    /// Entries in the payload: one per rank of the goal's class.
    pub fn entries(&self) -> u64 {
        self.0.entries
    }

    /// The largest distance (or cost) in the section.
    pub fn max_distance(&self) -> u32 {
        self.0.max
    }

    /// `histogram[d]` = states at distance `d`.
    pub fn histogram(&self) -> &[u64] {
        &self.0.histogram
    }

    /// Where the histogram starts, from the start of the file.
    pub fn histogram_offset(&self) -> u64 {
        self.0.histogram_offset
    }

    /// Where the payload starts, from the start of the file.
    pub fn payload_offset(&self) -> u64 {
        self.0.payload_offset
    }

    /// The payload's length in bytes.
    pub fn payload_len(&self) -> u64 {
        self.0.payload_len
    }
}

impl Header {
    /// The board every section is for.
    pub fn board(&self) -> Board {
        self.frame.board
    }

    /// How every section's entries are stored.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// What a move costs in every section.
    pub fn cost(&self) -> CostModel {
        self.cost
    }

    /// The sections, in file order.
    pub fn sections(&self) -> &[SectionDescriptor] {
        &self.frame.sections
    }

    /// Bytes from the start of the file to the first payload byte.
    pub fn header_len(&self) -> u64 {
        self.frame.header_len
    }

    /// CRC-32 of every payload byte, in file order.
    pub fn payload_crc(&self) -> u32 {
        self.frame.payload_crc
    }

    /// The format version: 1 (one checksum of the whole payload) or 2 (and one per block).
    pub fn version(&self) -> u16 {
        self.frame.version
    }

    /// How many payload blocks have their own checksum (0 in version 1).
    pub fn block_count(&self) -> u64 {
        self.frame.block_count()
    }

    /// Checks block `k` (payload bytes `k·BLOCK_LEN ..`) of `file`, the file this header was
    /// read from, against its checksum (version 2).
    pub fn verify_block(&self, file: &[u8], k: u64) -> Result<(), FormatError> {
        self.frame.verify_block(file, k)
    }

    /// This header as version 2, with the block checksums of the payload of `file` (the file
    /// it was read from): what `merge` writes of a table in parts.
    pub fn blockwise(&self, file: &[u8]) -> Result<Header, FormatError> {
        let payloads: Vec<&[u8]> = (0..self.sections().len())
            .filter_map(|i| self.payload(file, i))
            .collect();
        self.with_sums(PayloadSums::Blocks(BlockSums::of(payloads)))
    }

    /// This header with the block checksums `sums` of its payload (version 2), computed
    /// elsewhere: a table in parts joined where it lies, each part bringing its blocks' sums.
    pub fn with_block_sums(&self, sums: BlockSums) -> Result<Header, FormatError> {
        self.with_sums(PayloadSums::Blocks(sums))
    }

    /// This header as version 1, with the one checksum of the payload of `file` (the file it
    /// was read from): how a table written before version 2 looks, which readers still read.
    pub fn version_1(&self, file: &[u8]) -> Result<Header, FormatError> {
        let sums = BlockSums::of((0..self.sections().len()).filter_map(|i| self.payload(file, i)));
        self.with_sums(PayloadSums::Whole(sums.payload))
    }

    /// This header with the payload checksums `sums` (the version they imply).
    fn with_sums(&self, sums: PayloadSums) -> Result<Header, FormatError> {
        Ok(Header {
            encoding: self.encoding,
            cost: self.cost,
            frame: self.frame.clone().with_sums(sums)?,
        })
    }

    /// The bytes after the payloads: the block checksums (none in version 1).
    pub fn trailer(&self) -> Vec<u8> {
        self.frame.trailer()
    }

    /// The whole file's length in bytes.
    pub fn file_len(&self) -> u64 {
        self.frame.file_len
    }

    /// Writes the whole file to `out`: the header's bytes, then each section's payload in
    /// order, each of the length the header gives it (else `InvalidInput`, nothing written),
    /// then (version 2) the block checksums.
    /// Returns the bytes written, the file's length.
    pub fn write_table(&self, out: &mut impl Write, payloads: &[&[u8]]) -> io::Result<u64> {
        let fits = payloads.len() == self.sections().len()
            && payloads
                .iter()
                .zip(self.sections())
                .all(|(p, s)| p.len() as u64 == s.payload_len());
        if !fits {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the payloads are not the lengths the header lays out",
            ));
        }
        out.write_all(&self.to_bytes())?;
        for p in payloads {
            out.write_all(p)?;
        }
        out.write_all(&self.trailer())?;
        Ok(self.frame.file_len)
    }
}

/// What is wrong with a table file's bytes. Messages name the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// Shorter than the fixed header.
    #[error("file is {len} bytes, shorter than the {FIXED_HEADER_LEN}-byte header")]
    TooShort {
        /// The file's length.
        len: u64,
    },
    /// The first eight bytes are not `SLIDETBL`.
    #[error("not a slidetable file (magic number is {found:02x?}, expected \"SLIDETBL\")")]
    BadMagic {
        /// The bytes found.
        found: [u8; 8],
    },
    /// A format version this code does not read.
    #[error(
        "format version {found} is not supported (this slidetable reads versions 1 and {VERSION})"
    )]
    UnsupportedVersion {
        /// The version found.
        found: u16,
    },
    /// A board size tables do not support.
    #[error(
        "board {rows}x{cols} is not supported (2x2 up to {MAX_TABLE_CELLS} cells, and 2bit \
         tables up to {MAX_CELLS})"
    )]
    BadBoard {
        /// The rows field.
        rows: u8,
        /// The columns field.
        cols: u8,
    },
    /// A board of 15 or 16 cells, which has pattern databases (4x4) and tables of 2-bit
    /// entries only, in a header whose encoding field is neither's: the encoding byte is
    /// damaged.
    #[error(
        "board {rows}x{cols} has only pattern databases (encoding {PATTERN_ENCODING}) and 2bit \
         tables (encoding {}), but the encoding field reads {encoding}: the header is damaged",
        Encoding::TwoBit as u8
    )]
    PatternBoardEncoding {
        /// The rows field.
        rows: u8,
        /// The columns field.
        cols: u8,
        /// The encoding field.
        encoding: u8,
    },
    /// An encoding field of no known encoding; the code found.
    #[error("unknown entry encoding {0}")]
    UnknownEncoding(u8),
    /// A cost field of no known cost model; the code found.
    #[error("unknown cost model {0}")]
    UnknownCost(u8),
    /// An encoding that cannot hold the cost model's distances (2-bit entries need unit
    /// moves; see [`Encoding::holds`]).
    #[error("the {encoding} encoding holds distances mod 3, which only unit costs keep one apart; use byte or wide16 for {cost} costs")]
    EncodingCost {
        /// The encoding.
        encoding: Encoding,
        /// The cost model.
        cost: CostModel,
    },
    /// No sections, or more than the board has blank cells.
    #[error("section count {found} is out of range (1..={max} for this board)")]
    BadSectionCount {
        /// The count found.
        found: u16,
        /// The most allowed.
        max: usize,
    },
    /// A header length field that disagrees with the header's own layout.
    #[error("header length field is {found}; it must be {expected}")]
    BadHeaderLen {
        /// The field's value.
        found: u64,
        /// The length the header's layout gives.
        expected: u64,
    },
    /// A header length field outside what the file can hold.
    #[error("header length field is {found}, outside {min}..={max} (end of the section descriptors ..= file length)")]
    HeaderLenOutOfRange {
        /// The field's value.
        found: u64,
        /// The smallest possible.
        min: u64,
        /// The largest possible.
        max: u64,
    },
    /// The header's bytes do not match its checksum.
    #[error("header checksum mismatch (stored {stored:08x}, computed {computed:08x}): the header is corrupt")]
    HeaderChecksum {
        /// The checksum stored.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// The file's length is not the one its header declares.
    #[error("file is {actual} bytes but its header says {declared}: the file is truncated or has trailing bytes")]
    LengthMismatch {
        /// The length the header declares.
        declared: u64,
        /// The file's length.
        actual: u64,
    },
    /// A section descriptor that does not hold together.
    #[error("section {index}: {problem}")]
    Section {
        /// The section's index, from 0.
        index: usize,
        /// What is wrong with it.
        problem: SectionProblem,
    },
    /// The payload's bytes do not match their checksum.
    #[error("payload checksum mismatch (stored {stored:08x}, computed {computed:08x}): the table is corrupt")]
    PayloadChecksum {
        /// The checksum stored.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// A version-2 block length field other than [`BLOCK_LEN`].
    #[error("block length field is {found}; version 2 blocks are {BLOCK_LEN} bytes")]
    BlockLen {
        /// The field's value.
        found: u32,
    },
    /// A writer's block checksums that are not one per block of the payload.
    #[error("{found} block checksums given for a payload of {expected} blocks")]
    BlockCount {
        /// The checksums given.
        found: u64,
        /// The payload's blocks.
        expected: u64,
    },
    /// The block checksums after the payloads do not match their checksum in the header.
    #[error("block checksums' checksum mismatch (stored {stored:08x}, computed {computed:08x}): the block checksums at the end of the file are corrupt")]
    BlocksChecksum {
        /// The checksum stored.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// A block of the payload does not match its checksum: the file is damaged there.
    #[error("bytes {offset}..{end} do not match their checksum (stored {stored:08x}, computed {computed:08x}): the table is damaged there")]
    BlockChecksum {
        /// The block's first byte, from the start of the file.
        offset: u64,
        /// The byte after the block's last.
        end: u64,
        /// The checksum stored.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// A length or offset, named, too large for 64 bits.
    #[error("{0} overflows")]
    Overflow(&'static str),
    /// A board size pattern databases do not support.
    #[error(
        "board {rows}x{cols} is not supported by pattern databases (2x2 up to {MAX_CELLS} cells)"
    )]
    BadPatternBoard {
        /// The rows field.
        rows: u8,
        /// The columns field.
        cols: u8,
    },
    /// A pattern database's groups leave a tile out (docs/FORMAT.md §11).
    #[error("tile {tile} is in no group: the groups must cover tiles 1..{last}")]
    TileInNoGroup {
        /// The first tile no group holds.
        tile: u8,
        /// The board's last tile.
        last: u8,
    },
    /// A pattern database given where a table of every state is expected.
    #[error(
        "this is a pattern database (encoding {PATTERN_ENCODING}), not a table of every state: \
         it answers `distance`, `path` and the 15-puzzle judges, and `info` describes it"
    )]
    PatternFile,
    /// A table within D moves (docs/FORMAT.md §13), or a damaged one.
    #[error(transparent)]
    Bounded(#[from] BoundedError),
    /// The 24-puzzle's pattern databases (`SLIDEP25`, docs/FORMAT.md §14) given where a
    /// table or a 15-puzzle database is expected.
    #[error(
        "this is a 24-puzzle pattern database (SLIDEP25), not a table: `slidetable path`, \
         `distance` and `search` answer from it with `--board 5x5 --table FILE`"
    )]
    Pattern25File,
}

/// What is wrong with one section descriptor (see [`FormatError::Section`]); the rule numbers
/// of docs/FORMAT.md §4 in brackets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SectionProblem {
    /// The goal's bytes are no layout of the board.
    #[error("goal is not a {board} layout: {error}")]
    GoalNotALayout {
        /// The file's board.
        board: Board,
        /// Why the bytes are no layout.
        error: LayoutError,
    },
    /// The goal field has non-zero bytes past the board's cells.
    #[error("goal has bytes beyond the board")]
    GoalBeyondBoard,
    /// The goal is on another board than the file (4.1, writer side).
    #[error("goal {goal} is for a {} board, not {board}", goal.board())]
    GoalOnOtherBoard {
        /// The goal.
        goal: Layout,
        /// The file's board.
        board: Board,
    },
    /// Two sections have the same goal (4.1).
    #[error("goal {goal} appears twice")]
    GoalTwice {
        /// The goal.
        goal: Layout,
    },
    /// The entry count is not the number of states of a class (4.2).
    #[error("entry count {entries} is wrong: a {board} board has {states} states per class")]
    EntryCount {
        /// The count stored.
        entries: u64,
        /// The file's board.
        board: Board,
        /// The states of one class.
        states: u64,
    },
    /// No histogram (4.3).
    #[error("histogram is empty")]
    EmptyHistogram,
    /// The histogram's last distance has no states (4.4).
    #[error(
        "histogram ends with no states at distance {last}: the maximum distance must have some"
    )]
    EmptyLastDistance {
        /// The last distance.
        last: u64,
    },
    /// The maximum distance disagrees with the histogram's length (4.5).
    #[error(
        "maximum distance {max_distance} disagrees with the histogram's {histogram_len} entries"
    )]
    MaxDistanceLength {
        /// The maximum distance stored.
        max_distance: u32,
        /// The histogram's entries.
        histogram_len: u64,
    },
    /// The maximum distance does not fit the encoding (4.6).
    #[error("maximum distance {max_distance} does not fit the {encoding} encoding")]
    MaxDistanceEncoding {
        /// The maximum distance stored.
        max_distance: u32,
        /// The file's encoding.
        encoding: Encoding,
    },
    /// Distance 0 does not hold exactly the goal (4.7).
    #[error("histogram says {found} states at distance 0; exactly 1 (the goal) is possible")]
    GoalCount {
        /// The states counted at distance 0.
        found: u64,
    },
    /// The histogram does not add up to the states of a class (4.8).
    #[error("histogram adds up to {sum}, not {states} states")]
    HistogramSum {
        /// The histogram's sum.
        sum: u64,
        /// The states of one class.
        states: u64,
    },
    /// The histogram is not where the layout puts it (4.9).
    #[error("histogram offset {found} should be {expected}")]
    HistogramOffset {
        /// The offset stored.
        found: u64,
        /// The offset the layout gives.
        expected: u64,
    },
    /// More histogram entries than any table needs (3).
    #[error("histogram has {len} entries; at most {max} are allowed")]
    HistogramTooLong {
        /// The entries this section's histogram claims.
        len: u64,
        /// The most allowed in all.
        max: u64,
    },
    /// The histogram's bytes lie outside the header.
    #[error("histogram at {start}..{end} lies outside the header (..{header_len})")]
    HistogramOutside {
        /// Where it starts.
        start: u64,
        /// Where it ends.
        end: u64,
        /// The header's length.
        header_len: u64,
    },
    /// The payload is not where the layout puts it (4.10).
    #[error("payload at {offset}+{len} should be at {expected_offset}+{expected_len}")]
    PayloadPlace {
        /// The offset stored.
        offset: u64,
        /// The length stored.
        len: u64,
        /// The offset the layout gives.
        expected_offset: u64,
        /// The length the encoding gives.
        expected_len: u64,
    },
    /// A pattern database's section has another goal than section 0 (§11).
    #[error("goal {goal} differs from section 0's goal {first}: one database has one goal")]
    GoalDiffers {
        /// The section's goal.
        goal: Layout,
        /// Section 0's goal.
        first: Layout,
    },
    /// A pattern database's tile mask names tiles the board does not have (§11).
    #[error("tile group {tiles:#06x} names tiles that are not on a {board} board (1..{})", board.cells() - 1)]
    TilesOffBoard {
        /// The tile mask (bit `t` for tile `t`).
        tiles: u16,
        /// The file's board.
        board: Board,
    },
    /// A tile in this group and an earlier one (§11).
    #[error("tile {tile} is in this group and an earlier one: groups must not overlap")]
    TileInTwoGroups {
        /// The first such tile.
        tile: u8,
    },
    /// A group of more tiles than a pattern database holds, or of none (§11).
    #[error("a group of {tiles} tiles is not allowed on a {board} board (1..={MAX_GROUP} tiles)")]
    GroupSize {
        /// The group's tiles.
        tiles: usize,
        /// The file's board.
        board: Board,
    },
    /// The entry count is not the number of placements of the group (§11).
    #[error("entry count {entries} is wrong: {tiles} tiles on a {board} board have {placements} placements")]
    PlacementCount {
        /// The count stored.
        entries: u64,
        /// The group's tiles.
        tiles: usize,
        /// The file's board.
        board: Board,
        /// The placements of that many tiles.
        placements: u64,
    },
    /// A pattern histogram's last value has no placements (§11).
    #[error("histogram ends with no placements at value {last}: the maximum must have some")]
    EmptyLastValue {
        /// The last value.
        last: u64,
    },
    /// A pattern section's maximum value disagrees with its histogram's length (§11).
    #[error("maximum value {max_value} disagrees with the histogram's {histogram_len} entries")]
    MaxValueLength {
        /// The maximum value stored.
        max_value: u32,
        /// The histogram's entries.
        histogram_len: u64,
    },
    /// Value 0 does not hold exactly the home placement (§11).
    #[error("histogram says {found} placements at value 0; exactly 1 (the goal's) is possible")]
    HomeCount {
        /// The placements counted at value 0.
        found: u64,
    },
    /// A pattern histogram does not add up to the group's reachable placements (§11).
    #[error("histogram adds up to {sum}, not {placements} placements")]
    PlacementSum {
        /// The histogram's sum.
        sum: u64,
        /// The group's placements that puzzles reach.
        placements: u64,
    },
}

impl Header {
    /// Lays out a file: sections in the given order, histograms after the descriptors, the
    /// payloads one after another right after the header, then (version 2, when `sums` are
    /// per block) the block checksums.
    pub fn build(
        board: Board,
        encoding: Encoding,
        cost: CostModel,
        specs: Vec<SectionSpec>,
        sums: PayloadSums,
    ) -> Result<Header, FormatError> {
        let entries = board.reachable_states();
        let payload_len = encoding
            .payload_len(entries)
            .ok_or(FormatError::Overflow("payload length"))?;
        let parts = specs
            .into_iter()
            .map(|spec| Part {
                goal: spec.goal,
                tiles: 0,
                histogram: spec.histogram,
                entries,
                payload_len,
            })
            .collect();
        Header::check(encoding, cost, Frame::lay_out(board, parts, sums)?)
    }

    /// The header's bytes (`header_len` of them), checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.frame.to_bytes(self.encoding as u8, self.cost as u8)
    }

    /// Reads and validates the header of a whole file. Work is bounded by the header's own
    /// size (at most a few hundred KiB), never by the payload's.
    pub fn parse(file: &[u8]) -> Result<Header, FormatError> {
        let (frame, (encoding, cost)) = Frame::read(
            file,
            |kind| {
                if kind.encoding == PATTERN_ENCODING {
                    return Err(FormatError::PatternFile);
                }
                let (rows, cols) = (kind.rows, kind.cols);
                let board = Board::new(rows.into(), cols.into())
                    .map_err(|_| FormatError::BadBoard { rows, cols })?;
                // Past 14 cells only pattern databases and 2-bit tables are made: another
                // encoding byte is the damage.
                if board.cells() > MAX_TABLE_CELLS && kind.encoding != Encoding::TwoBit as u8 {
                    return Err(FormatError::PatternBoardEncoding {
                        rows,
                        cols,
                        encoding: kind.encoding,
                    });
                }
                let encoding = Encoding::from_code(kind.encoding)
                    .ok_or(FormatError::UnknownEncoding(kind.encoding))?;
                let cost =
                    CostModel::from_code(kind.cost).ok_or(FormatError::UnknownCost(kind.cost))?;
                if kind.count == 0 || kind.count as usize > board.cells() {
                    return Err(FormatError::BadSectionCount {
                        found: kind.count,
                        max: board.cells(),
                    });
                }
                Ok((board, (encoding, cost)))
            },
            |_, _| Ok(()),
        )?;
        let mut header = Header::check(encoding, cost, frame)?;
        header.frame.read_blocks(file)?;
        Ok(header)
    }

    /// The rules every header obeys, checked by both the writer and the reader: distinct
    /// goals, exact entry counts, histograms that add up, and payloads packed
    /// one after another from the end of the header to the end of the file.
    fn check(
        encoding: Encoding,
        cost: CostModel,
        frame: Frame<SectionDescriptor>,
    ) -> Result<Header, FormatError> {
        let board = frame.board;
        if !table_board(board, encoding) {
            return Err(FormatError::BadBoard {
                rows: board.rows() as u8,
                cols: board.cols() as u8,
            });
        }
        encoding.holds(cost)?;
        let states = board.reachable_states();
        let payload_len = encoding
            .payload_len(states)
            .ok_or(FormatError::Overflow("payload length"));
        frame.check(
            board.cells(),
            |_| payload_len.clone(),
            |index, s| {
                let bad = |problem: SectionProblem| FormatError::Section { index, problem };
                if s.goal.board() != board {
                    return Err(bad(SectionProblem::GoalOnOtherBoard {
                        goal: s.goal,
                        board,
                    }));
                }
                if frame.descriptors().take(index).any(|o| o.goal == s.goal) {
                    return Err(bad(SectionProblem::GoalTwice { goal: s.goal }));
                }
                if s.entries != states {
                    return Err(bad(SectionProblem::EntryCount {
                        entries: s.entries,
                        board,
                        states,
                    }));
                }
                histogram_shape(&s.histogram, s.max, Counted::Distances).map_err(bad)?;
                if s.max > encoding.max_distance() {
                    return Err(bad(SectionProblem::MaxDistanceEncoding {
                        max_distance: s.max,
                        encoding,
                    }));
                }
                if s.histogram[0] != 1 {
                    return Err(bad(SectionProblem::GoalCount {
                        found: s.histogram[0],
                    }));
                }
                let sum = histogram_sum(&s.histogram)?;
                if sum != states {
                    return Err(bad(SectionProblem::HistogramSum { sum, states }));
                }
                Ok(())
            },
        )?;
        frame.check_ends()?;
        Ok(Header {
            encoding,
            cost,
            frame,
        })
    }

    /// The payload bytes of section `index` within `file`, the file this header was read
    /// from; `None` if there is no such section or `file` is too short for it.
    pub fn payload<'a>(&self, file: &'a [u8], index: usize) -> Option<&'a [u8]> {
        self.frame.payload(file, index)
    }

    /// Checks every payload byte of `file` against the checksums: each block's (version 2),
    /// then the whole payload's.
    pub fn verify_payload(&self, file: &[u8]) -> Result<(), FormatError> {
        self.frame.verify_payload(file)
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

/// What a file is when it is not a regular file (`a FIFO`, `a directory`, …), for the
/// messages of every reader and writer of table files that refuses one.
pub fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "something other than a regular file"
    }
}
