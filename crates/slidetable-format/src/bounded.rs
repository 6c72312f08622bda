//! A table of the states within `D` moves of one goal (docs/FORMAT.md §13): for each level
//! `d = 0..=D`, the ranks of the states exactly `d` moves from the goal, sorted, cut into
//! blocks of `K` ranks, each block's first rank in an index and the others as LEB128 gaps.
//! Its size grows with the states within `D`, not with the board: any board up to 16 cells
//! (ranks below 16!/2 ≈ 1.05·10¹³, [`WideRanker`]'s). A state of the goal's parity class that
//! no level holds is more than `D` moves away.
//!
//! The writer encodes each level with [`BoundedLevel::encode`] and writes the file with
//! [`BoundedHeader::write`]; the reader checks the whole header, the descriptors and every
//! index (a few bytes per thousand states) with [`BoundedHeader::parse`], which never reads
//! past what the header says and never panics, and finds a rank with
//! [`BoundedHeader::contains`], which checks a block (its CRC and every gap) the first time it
//! reads it and keeps every [`BOUNDED_MARK_STRIDE`]th rank of it, so that later questions
//! decode at most that many gaps of it.
//!
//! ```
//! use slidetable_core::{Board, WideRanker};
//! use slidetable_format::{BoundedHeader, BoundedLevel};
//!
//! let board = Board::new(2, 2).unwrap();
//! let goal = board.standard_goal();
//! let ranker = WideRanker::new(board);
//! let level0 = BoundedLevel::encode(&[ranker.rank(&goal)], 1024);
//! let mut file = Vec::new();
//! BoundedHeader::write(&mut file, &goal, 1024, &[level0]).unwrap();
//! let header = BoundedHeader::parse(&file).unwrap();
//! assert_eq!(header.max_depth(), 0);
//! assert!(header.contains(&file, 0, ranker.rank(&goal)).unwrap());
//! ```
//!
//! [`WideRanker`]: slidetable_core::WideRanker

use std::io::{self, Write};
use std::ops::Range;
use std::sync::OnceLock;

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::{Board, Layout, MAX_CELLS};

/// The first eight bytes of a table within `D` moves.
pub const BOUNDED_MAGIC: &[u8; 8] = b"SLIDEBND";
/// The first eight bytes of one part of a table within `D` moves made in parts (§13.6): the
/// same layout, for the ranks of one slice.
pub const BOUNDED_PART_MAGIC: &[u8; 8] = b"SLIDEBNP";
/// The version of §13 this code writes and reads.
pub const BOUNDED_VERSION: u16 = 1;
/// The fixed header's length.
pub const BOUNDED_HEADER_LEN: usize = 64;
/// One level descriptor's length.
pub const BOUNDED_LEVEL_LEN: usize = 48;
/// One index entry's length: first rank, end of the block's bytes, the block's CRC.
pub const BOUNDED_INDEX_ENTRY_LEN: usize = 24;
/// The ranks a block holds (the last block of a level fewer): what the writer uses.
pub const BOUNDED_BLOCK_STATES: u32 = 256;
/// The most ranks a block may hold, so that a question decodes a bounded run of bytes.
pub const MAX_BOUNDED_BLOCK_STATES: u32 = 1 << 16;
/// The deepest level a table within `D` moves may describe (more than any board's radius).
pub const MAX_BOUNDED_DEPTH: u32 = 1 << 16;
/// A block read once keeps every this many-th rank with where its gaps go on: what a later
/// question decodes at most (of the reader's memory, 8 bytes per this many states read).
pub const BOUNDED_MARK_STRIDE: u32 = 16;

// A mark is a rank and the offset of the gap after it within its block, in one `u64`: a rank
// below 16!/2 < 2^44 in the high 44 bits, an offset below 65536 · 10 < 2^20 in the low 20.
const MARK_AT_BITS: u32 = 20;
const MARK_AT_MASK: u64 = (1 << MARK_AT_BITS) - 1;
const _: () = assert!(
    (MAX_BOUNDED_BLOCK_STATES as u64) * 10 <= MARK_AT_MASK
        && slidetable_core::factorial(MAX_CELLS) / 2 <= u64::MAX >> MARK_AT_BITS
);

/// Whether `file` starts as a table within `D` moves (or one of its parts, which the reader
/// then names as a part) does.
pub fn is_bounded_file(file: &[u8]) -> bool {
    file.starts_with(BOUNDED_MAGIC) || file.starts_with(BOUNDED_PART_MAGIC)
}

/// What is wrong with a table within `D` moves. Messages name the field, the level and the
/// block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoundedError {
    /// Shorter than the fixed header.
    #[error("file is {len} bytes, shorter than the {BOUNDED_HEADER_LEN}-byte header of a table within D moves")]
    TooShort {
        /// The file's length.
        len: u64,
    },
    /// A part of a table in parts, where a whole table was expected.
    #[error(
        "this is part {part} of {parts} of a table within D moves made in parts: name its \
         directory (or join the parts with `slidetable merge DIR -o FILE`)"
    )]
    IsPart {
        /// The part.
        part: u32,
        /// The parts.
        parts: u32,
    },
    /// A whole table where a part was expected.
    #[error("not a part of a table within D moves (magic number is {found:02x?}, expected \"SLIDEBNP\")")]
    NotPart {
        /// The bytes found.
        found: [u8; 8],
    },
    /// Not `SLIDEBND`.
    #[error("not a table within D moves (magic number is {found:02x?}, expected \"SLIDEBND\")")]
    BadMagic {
        /// The bytes found.
        found: [u8; 8],
    },
    /// A version this code does not read.
    #[error(
        "table within D moves of version {found}: this slidetable reads version {BOUNDED_VERSION}"
    )]
    UnsupportedVersion {
        /// The version field.
        found: u16,
    },
    /// A field outside the values §13 allows.
    #[error("header field {field} is {value}: {allowed}")]
    BadField {
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: u64,
        /// What it may be.
        allowed: &'static str,
    },
    /// The goal bytes are not a layout of the board.
    #[error("the goal field is not a layout of the {board} board")]
    BadGoal {
        /// The header's board.
        board: Board,
    },
    /// The header CRC does not hold.
    #[error(
        "the header checksum does not hold (stored {stored:#010x}, computed {computed:#010x})"
    )]
    HeaderChecksum {
        /// The stored CRC.
        stored: u32,
        /// The CRC of the bytes.
        computed: u32,
    },
    /// The file's length is not the one its header gives.
    #[error("file is {len} bytes but its header describes {expected} (truncated, or bytes added)")]
    Length {
        /// The file's length.
        len: u64,
        /// What the header implies.
        expected: u64,
    },
    /// A level descriptor that breaks a rule of §13.
    #[error("level {level}: {what}")]
    Level {
        /// The level.
        level: u32,
        /// What is wrong.
        what: String,
    },
    /// A level's index whose CRC does not hold, or whose entries break a rule.
    #[error("level {level}: index entry {block}: {what}")]
    Index {
        /// The level.
        level: u32,
        /// The block.
        block: u64,
        /// What is wrong.
        what: String,
    },
    /// A block whose bytes do not hold what its index entry says.
    #[error("level {level}: block {block} (bytes {start}..{end} of the file): {what}")]
    Block {
        /// The level.
        level: u32,
        /// The block.
        block: u64,
        /// Its first byte in the file.
        start: u64,
        /// Its end in the file.
        end: u64,
        /// What is wrong.
        what: String,
    },
}

// Fixed header offsets (docs/FORMAT.md §13.1).
const OFF_VERSION: usize = 8;
const OFF_ROWS: usize = 10;
const OFF_COLS: usize = 11;
const OFF_BLOCK_STATES: usize = 12;
const OFF_GOAL: usize = 16;
const OFF_MAX_DEPTH: usize = 32;
const OFF_HEADER_CRC: usize = 36;
const OFF_FILE_LEN: usize = 40;
const OFF_STATES: usize = 48;
const OFF_RESERVED: usize = 56;
// In a part (§13.6), the reserved bytes hold its number and the number of parts.
const OFF_PART: usize = 56;
const OFF_PARTS: usize = 60;
// Level descriptor offsets (§13.2).
const L_STATES: usize = 0;
const L_INDEX_OFF: usize = 8;
const L_DATA_OFF: usize = 16;
const L_DATA_LEN: usize = 24;
const L_INDEX_CRC: usize = 32;
const L_DATA_CRC: usize = 36;
const L_RESERVED: usize = 40;

/// One level encoded for the file: its index and its gaps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundedLevel {
    states: u64,
    index: Vec<u8>,
    data: Vec<u8>,
}

impl BoundedLevel {
    /// Encodes `ranks` (strictly increasing) in blocks of `block_states` ranks.
    ///
    /// # Panics
    ///
    /// If `ranks` is not strictly increasing or `block_states` is 0: the writer's own bug.
    pub fn encode(ranks: &[u64], block_states: u32) -> BoundedLevel {
        assert!(block_states > 0, "a block holds at least one rank");
        let mut index = Vec::with_capacity(ranks.len().div_ceil(block_states as usize) * 24);
        let mut data = Vec::with_capacity(ranks.len() * 2);
        for block in ranks.chunks(block_states as usize) {
            let start = data.len();
            for pair in block.windows(2) {
                assert!(pair[1] > pair[0], "ranks must increase strictly");
                push_leb128(&mut data, pair[1] - pair[0] - 1);
            }
            let mut entry = [0u8; BOUNDED_INDEX_ENTRY_LEN];
            LE::write_u64(&mut entry[0..], block[0]);
            LE::write_u64(&mut entry[8..], data.len() as u64);
            LE::write_u32(&mut entry[16..], crc32fast::hash(&data[start..]));
            index.extend_from_slice(&entry);
        }
        BoundedLevel {
            states: ranks.len() as u64,
            index,
            data,
        }
    }

    /// The states of the level.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// The bytes it takes in the file (index and data).
    pub fn bytes(&self) -> u64 {
        (self.index.len() + self.data.len()) as u64
    }
}

fn push_leb128(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// One level as the header describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelDescriptor {
    states: u64,
    index_offset: u64,
    data_offset: u64,
    data_len: u64,
    data_crc: u32,
    /// The first rank of every block (read from the index once, at parse).
    firsts: Vec<u64>,
    /// Each block's marks once a question has read it whole (the cells made at the level's
    /// first question: reading the file whole, as `info --verify` and `merge` do, needs none).
    marks: Marks,
}

/// For each block of a level, once a question has read it and found it whole: every
/// [`BOUNDED_MARK_STRIDE`]th rank of it (its first included) with the offset of the gap
/// after it. What the reader learns as it goes, not part of the header's value: equal
/// headers may have read different blocks.
#[derive(Clone, Debug, Default)]
struct Marks(OnceLock<Box<[BlockMarks]>>);

/// One block's marks, once read whole.
type BlockMarks = OnceLock<Box<[u64]>>;

impl PartialEq for Marks {
    fn eq(&self, _: &Marks) -> bool {
        true
    }
}

impl Eq for Marks {}

impl LevelDescriptor {
    /// The states exactly this many moves from the goal.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// The blocks of the level.
    pub fn blocks(&self) -> u64 {
        self.firsts.len() as u64
    }
}

/// The checked header of a table within `D` moves: board, goal, the levels' counts and
/// where their blocks are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundedHeader {
    goal: Layout,
    block_states: u32,
    levels: Vec<LevelDescriptor>,
    file_len: u64,
    header_crc: u32,
    /// Part `k` of `N` (§13.6), or `None` for a whole table.
    part: Option<(u32, u32)>,
    /// The ranks it may hold: the whole class, or the part's slice.
    ranks: Range<u64>,
}

impl BoundedHeader {
    /// Writes the file of `levels` (level `d` the states `d` moves from `goal`) to `out` and
    /// returns its length.
    pub fn write(
        out: &mut impl Write,
        goal: &Layout,
        block_states: u32,
        levels: &[BoundedLevel],
    ) -> io::Result<u64> {
        Self::write_as(out, goal, block_states, levels, None).map(|(len, _)| len)
    }

    /// Writes part `part` of `parts` (§13.6): `levels` hold only ranks of the part's slice
    /// (`Slices::new(n!/2, parts).part(part)`). Returns its length and its header CRC (which
    /// the manifest records).
    pub fn write_part(
        out: &mut impl Write,
        goal: &Layout,
        block_states: u32,
        levels: &[BoundedLevel],
        part: u32,
        parts: u32,
    ) -> io::Result<(u64, u32)> {
        Self::write_as(out, goal, block_states, levels, Some((part, parts)))
    }

    fn write_as(
        out: &mut impl Write,
        goal: &Layout,
        block_states: u32,
        levels: &[BoundedLevel],
        part: Option<(u32, u32)>,
    ) -> io::Result<(u64, u32)> {
        let board = goal.board();
        let count = levels.len();
        let mut header = vec![0u8; BOUNDED_HEADER_LEN + BOUNDED_LEVEL_LEN * count];
        match part {
            None => header[..8].copy_from_slice(BOUNDED_MAGIC),
            Some((k, n)) => {
                header[..8].copy_from_slice(BOUNDED_PART_MAGIC);
                LE::write_u32(&mut header[OFF_PART..], k);
                LE::write_u32(&mut header[OFF_PARTS..], n);
            }
        }
        LE::write_u16(&mut header[OFF_VERSION..], BOUNDED_VERSION);
        header[OFF_ROWS] = board.rows() as u8;
        header[OFF_COLS] = board.cols() as u8;
        LE::write_u32(&mut header[OFF_BLOCK_STATES..], block_states);
        header[OFF_GOAL..OFF_GOAL + board.cells()].copy_from_slice(goal.tiles());
        LE::write_u32(&mut header[OFF_MAX_DEPTH..], count as u32 - 1);
        let mut at = header.len() as u64;
        for (d, level) in levels.iter().enumerate() {
            let l = &mut header[BOUNDED_HEADER_LEN + BOUNDED_LEVEL_LEN * d..][..BOUNDED_LEVEL_LEN];
            LE::write_u64(&mut l[L_STATES..], level.states);
            LE::write_u64(&mut l[L_INDEX_OFF..], at);
            at += level.index.len() as u64;
            LE::write_u64(&mut l[L_DATA_OFF..], at);
            LE::write_u64(&mut l[L_DATA_LEN..], level.data.len() as u64);
            at += level.data.len() as u64;
            LE::write_u32(&mut l[L_INDEX_CRC..], crc32fast::hash(&level.index));
            LE::write_u32(&mut l[L_DATA_CRC..], crc32fast::hash(&level.data));
        }
        LE::write_u64(&mut header[OFF_FILE_LEN..], at);
        let states: u64 = levels.iter().map(|l| l.states).sum();
        LE::write_u64(&mut header[OFF_STATES..], states);
        let crc = crc32fast::hash(&header);
        LE::write_u32(&mut header[OFF_HEADER_CRC..], crc);
        out.write_all(&header)?;
        for level in levels {
            out.write_all(&level.index)?;
            out.write_all(&level.data)?;
        }
        Ok((at, crc))
    }

    /// Checks `file`'s header, level descriptors and indexes (every rule of §13 but the
    /// blocks' contents, which [`BoundedHeader::contains`] checks as it reads them and
    /// [`BoundedHeader::verify`] checks whole).
    /// A part of a table in parts (§13.6) is refused, named as a part.
    pub fn parse(file: &[u8]) -> Result<BoundedHeader, BoundedError> {
        Self::parse_as(file, false)
    }

    /// [`BoundedHeader::parse`] for a part of a table in parts (§13.6): the same checks, with
    /// every rank in the part's slice and level 0 holding the goal or nothing.
    pub fn parse_part(file: &[u8]) -> Result<BoundedHeader, BoundedError> {
        Self::parse_as(file, true)
    }

    fn parse_as(file: &[u8], as_part: bool) -> Result<BoundedHeader, BoundedError> {
        let len = file.len() as u64;
        if file.len() < BOUNDED_HEADER_LEN {
            return Err(BoundedError::TooShort { len });
        }
        let fixed = &file[..BOUNDED_HEADER_LEN];
        let mut found = [0u8; 8];
        found.copy_from_slice(&fixed[..8]);
        let is_part = fixed.starts_with(BOUNDED_PART_MAGIC);
        if !is_part && !fixed.starts_with(BOUNDED_MAGIC) {
            return Err(BoundedError::BadMagic { found });
        }
        if as_part && !is_part {
            return Err(BoundedError::NotPart { found });
        }
        let version = LE::read_u16(&fixed[OFF_VERSION..]);
        if version != BOUNDED_VERSION {
            return Err(BoundedError::UnsupportedVersion { found: version });
        }
        let bad = |field, value: u64, allowed| BoundedError::BadField {
            field,
            value,
            allowed,
        };
        let (rows, cols) = (fixed[OFF_ROWS], fixed[OFF_COLS]);
        let board = Board::new(rows.into(), cols.into()).map_err(|_| {
            bad(
                "rows x cols",
                u64::from(rows) * 256 + u64::from(cols),
                "a board of at least 2x2 and at most 16 cells (value: rows·256 + cols)",
            )
        })?;
        let block_states = LE::read_u32(&fixed[OFF_BLOCK_STATES..]);
        if !(1..=MAX_BOUNDED_BLOCK_STATES).contains(&block_states) {
            return Err(bad("block states", block_states.into(), "1 to 65536"));
        }
        let n = board.cells();
        let goal = Layout::new(board, &fixed[OFF_GOAL..OFF_GOAL + n])
            .map_err(|_| BoundedError::BadGoal { board })?;
        if fixed[OFF_GOAL + n..OFF_GOAL + MAX_CELLS]
            .iter()
            .any(|&b| b != 0)
        {
            return Err(BoundedError::BadGoal { board });
        }
        let max_depth = LE::read_u32(&fixed[OFF_MAX_DEPTH..]);
        if max_depth > MAX_BOUNDED_DEPTH {
            return Err(bad("max depth", max_depth.into(), "at most 65536"));
        }
        let entries = board.reachable_states();
        let part = if is_part {
            let (k, n) = (
                LE::read_u32(&fixed[OFF_PART..]),
                LE::read_u32(&fixed[OFF_PARTS..]),
            );
            if n == 0 || k >= n {
                return Err(bad(
                    "part",
                    k.into(),
                    "below the parts (bytes 60..64), at least 1",
                ));
            }
            if !as_part {
                return Err(BoundedError::IsPart { part: k, parts: n });
            }
            Some((k, n))
        } else {
            if fixed[OFF_RESERVED..].iter().any(|&b| b != 0) {
                return Err(bad("reserved (bytes 56..64)", 1, "zero"));
            }
            None
        };
        let ranks = match part {
            Some((k, n)) => crate::Slices::new(entries, n).part(k),
            None => 0..entries,
        };
        let count = max_depth as usize + 1;
        let header_len = BOUNDED_HEADER_LEN + BOUNDED_LEVEL_LEN * count;
        if file.len() < header_len {
            return Err(BoundedError::Length {
                len,
                expected: header_len as u64,
            });
        }
        let stored = LE::read_u32(&fixed[OFF_HEADER_CRC..]);
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&file[..OFF_HEADER_CRC]);
        hasher.update(&[0; 4]);
        hasher.update(&file[OFF_HEADER_CRC + 4..header_len]);
        let computed = hasher.finalize();
        if stored != computed {
            return Err(BoundedError::HeaderChecksum { stored, computed });
        }
        let file_len = LE::read_u64(&fixed[OFF_FILE_LEN..]);
        if file_len != len {
            return Err(BoundedError::Length {
                len,
                expected: file_len,
            });
        }
        let mut at = header_len as u64;
        let slice_len = ranks.end - ranks.start;
        let mut total = 0u64;
        let mut levels = Vec::with_capacity(count);
        for d in 0..count {
            let level = d as u32;
            let l = &file[BOUNDED_HEADER_LEN + BOUNDED_LEVEL_LEN * d..][..BOUNDED_LEVEL_LEN];
            let wrong = |what: String| BoundedError::Level { level, what };
            let states = LE::read_u64(&l[L_STATES..]);
            total = total
                .checked_add(states)
                .filter(|&t| t <= slice_len)
                .ok_or_else(|| {
                    wrong(format!(
                        "{states} states: more than the {slice_len} ranks it may hold in all"
                    ))
                })?;
            if d == 0 && states != 1 && !(is_part && states == 0) {
                return Err(wrong(format!("{states} states; level 0 is the goal alone")));
            }
            let blocks = states.div_ceil(u64::from(block_states));
            let index_len = blocks * BOUNDED_INDEX_ENTRY_LEN as u64;
            let index_offset = LE::read_u64(&l[L_INDEX_OFF..]);
            let data_offset = LE::read_u64(&l[L_DATA_OFF..]);
            let data_len = LE::read_u64(&l[L_DATA_LEN..]);
            if index_offset != at || data_offset != at + index_len {
                return Err(wrong(format!(
                    "index at {index_offset} and data at {data_offset}; packed, they are at {at} and {}",
                    at + index_len
                )));
            }
            let end = data_offset
                .checked_add(data_len)
                .filter(|&e| e <= len)
                .ok_or_else(|| {
                    wrong(format!(
                        "data of {data_len} bytes at {data_offset} end past the file's {len} bytes"
                    ))
                })?;
            // At most 10 bytes a gap (LEB128 of a u64).
            if data_len > states.saturating_sub(blocks) * 10 {
                return Err(wrong(format!("{data_len} data bytes for {states} states")));
            }
            if l[L_RESERVED..].iter().any(|&b| b != 0) {
                return Err(wrong("reserved bytes 40..48 are not zero".into()));
            }
            let index = &file[index_offset as usize..data_offset as usize];
            let stored = LE::read_u32(&l[L_INDEX_CRC..]);
            let computed = crc32fast::hash(index);
            if stored != computed {
                return Err(wrong(format!(
                    "the index checksum does not hold (stored {stored:#010x}, computed {computed:#010x})"
                )));
            }
            let mut firsts = Vec::with_capacity(blocks as usize);
            let mut last_end = 0u64;
            for (b, entry) in index.chunks_exact(BOUNDED_INDEX_ENTRY_LEN).enumerate() {
                let bad_entry = |what: String| BoundedError::Index {
                    level,
                    block: b as u64,
                    what,
                };
                let first = LE::read_u64(&entry[0..]);
                let block_end = LE::read_u64(&entry[8..]);
                if !ranks.contains(&first) {
                    return Err(bad_entry(format!(
                        "first rank {first} is not in {}..{}, the ranks it may hold",
                        ranks.start, ranks.end
                    )));
                }
                if firsts.last().is_some_and(|&f| f >= first) {
                    return Err(bad_entry(format!(
                        "first rank {first} does not follow the block before's"
                    )));
                }
                if block_end < last_end || block_end > data_len {
                    return Err(bad_entry(format!(
                        "block ends at data byte {block_end}, outside {last_end}..={data_len}"
                    )));
                }
                if LE::read_u32(&entry[20..]) != 0 {
                    return Err(bad_entry("reserved bytes 20..24 are not zero".into()));
                }
                last_end = block_end;
                firsts.push(first);
            }
            if last_end != data_len {
                return Err(wrong(format!(
                    "the blocks end at data byte {last_end}, the data at {data_len}"
                )));
            }
            levels.push(LevelDescriptor {
                states,
                index_offset,
                data_offset,
                data_len,
                data_crc: LE::read_u32(&l[L_DATA_CRC..]),
                marks: Marks::default(),
                firsts,
            });
            at = end;
        }
        let states = LE::read_u64(&fixed[OFF_STATES..]);
        if states != total {
            return Err(bad("states", states, "the sum of the levels' states"));
        }
        if at != len {
            return Err(BoundedError::Length { len, expected: at });
        }
        Ok(BoundedHeader {
            goal,
            block_states,
            levels,
            file_len,
            header_crc: stored,
            part,
            ranks,
        })
    }

    /// Part `k` of `N` for a part (§13.6), `None` for a whole table.
    pub fn part(&self) -> Option<(u32, u32)> {
        self.part
    }

    /// The ranks it may hold: every rank of the class, or a part's slice.
    pub fn ranks(&self) -> Range<u64> {
        self.ranks.clone()
    }

    /// The header's CRC, as stored (and checked).
    pub fn header_crc(&self) -> u32 {
        self.header_crc
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.goal.board()
    }

    /// The goal every distance is counted to.
    pub fn goal(&self) -> &Layout {
        &self.goal
    }

    /// `D`: the table holds every state at most this many moves from the goal.
    pub fn max_depth(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// The ranks a block holds.
    pub fn block_states(&self) -> u32 {
        self.block_states
    }

    /// The levels, level `d` the states exactly `d` moves away.
    pub fn levels(&self) -> &[LevelDescriptor] {
        &self.levels
    }

    /// The states of each level: the histogram of distances up to `D`.
    pub fn histogram(&self) -> Vec<u64> {
        self.levels.iter().map(|l| l.states).collect()
    }

    /// The states within `D` moves.
    pub fn states(&self) -> u64 {
        self.levels.iter().map(|l| l.states).sum()
    }

    /// The file's length.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Whether level `level` holds `rank` (false for a level past `D`). Binary-searches the
    /// level's index for the block, and the block's marks for the last rank at or before
    /// `rank`, then decodes at most [`BOUNDED_MARK_STRIDE`]` − 1` gaps. The first question to
    /// read a block checks it whole (its CRC, and that its gaps fill it and stay below the
    /// next block's first rank) and keeps its marks; a damaged block is refused each time.
    pub fn contains(&self, file: &[u8], level: u32, rank: u64) -> Result<bool, BoundedError> {
        let Some(l) = self.levels.get(level as usize) else {
            return Ok(false);
        };
        let b = l.firsts.partition_point(|&f| f <= rank);
        if b == 0 {
            return Ok(false);
        }
        let block = b as u64 - 1;
        let marks = self.marks(file, level, block)?;
        let m = marks.partition_point(|&mark| mark >> MARK_AT_BITS <= rank) - 1;
        let (mut at, mut r) = ((marks[m] & MARK_AT_MASK) as usize, marks[m] >> MARK_AT_BITS);
        if r == rank {
            return Ok(true);
        }
        let stride = u64::from(BOUNDED_MARK_STRIDE);
        let after =
            (m as u64 * stride + 1)..self.block_count(l, block).min((m as u64 + 1) * stride);
        let (fs, fe) = self.block_bytes(file, l, block);
        let bytes = &file[fs as usize..fe as usize];
        for _ in after {
            // The block was read whole when its marks were made: every gap is there.
            let mut gap = 0u64;
            let mut shift = 0u32;
            loop {
                let Some(&byte) = bytes.get(at) else {
                    return Err(BoundedError::Block {
                        level,
                        block,
                        start: fs,
                        end: fe,
                        what: "shorter than when it was first read".into(),
                    });
                };
                at += 1;
                gap |= u64::from(byte & 0x7F) << (shift & 63);
                shift += 7;
                if byte < 0x80 {
                    break;
                }
            }
            r = r.wrapping_add(gap).wrapping_add(1);
            if r >= rank {
                return Ok(r == rank);
            }
        }
        Ok(false)
    }

    /// Block `block` of level `level`'s marks: checked whole and made the first time.
    fn marks(&self, file: &[u8], level: u32, block: u64) -> Result<&[u64], BoundedError> {
        let l = &self.levels[level as usize];
        let cells = l
            .marks
            .0
            .get_or_init(|| l.firsts.iter().map(|_| OnceLock::new()).collect());
        let cell = &cells[block as usize];
        if let Some(marks) = cell.get() {
            return Ok(marks);
        }
        let stride = u64::from(BOUNDED_MARK_STRIDE);
        let mut marks = Vec::new();
        let mut i = 0u64;
        self.each_in_block(file, level, block, |rank, at| {
            if i.is_multiple_of(stride) {
                marks.push(rank << MARK_AT_BITS | at as u64);
            }
            i += 1;
            true
        })?;
        // Two threads may have read it at once: both made the same marks.
        Ok(cell.get_or_init(|| marks.into_boxed_slice()))
    }

    /// The ranks block `block` of level `l` holds.
    fn block_count(&self, l: &LevelDescriptor, block: u64) -> u64 {
        let k = u64::from(self.block_states);
        (l.states - block * k).min(k)
    }

    /// Where block `block` of level `l` lies in `file` (its start and end, checked at parse).
    fn block_bytes(&self, file: &[u8], l: &LevelDescriptor, block: u64) -> (u64, u64) {
        let end_of = |b: u64| {
            let at = l.index_offset + b * BOUNDED_INDEX_ENTRY_LEN as u64 + 8;
            LE::read_u64(&file[at as usize..])
        };
        let start = match block {
            0 => 0,
            _ => end_of(block - 1),
        };
        (l.data_offset + start, l.data_offset + end_of(block))
    }

    /// Calls `each` with the ranks of block `block` of level `level` in increasing order,
    /// each with the offset in the block of the gap after it, while it returns true, after
    /// checking the block's CRC; then checks that its gaps fill it.
    fn each_in_block(
        &self,
        file: &[u8],
        level: u32,
        block: u64,
        mut each: impl FnMut(u64, usize) -> bool,
    ) -> Result<(), BoundedError> {
        let l = &self.levels[level as usize];
        let entry = &file[(l.index_offset + block * BOUNDED_INDEX_ENTRY_LEN as u64) as usize..]
            [..BOUNDED_INDEX_ENTRY_LEN];
        let (fs, fe) = self.block_bytes(file, l, block);
        let bytes = &file[fs as usize..fe as usize];
        let damaged = |what: String| BoundedError::Block {
            level,
            block,
            start: fs,
            end: fe,
            what,
        };
        let stored = LE::read_u32(&entry[16..]);
        let computed = crc32fast::hash(bytes);
        if stored != computed {
            return Err(damaged(format!(
                "checksum does not hold (stored {stored:#010x}, computed {computed:#010x})"
            )));
        }
        let count = self.block_count(l, block);
        let limit = self.ranks.end;
        let next_first = l.firsts.get(block as usize + 1).copied().unwrap_or(limit);
        let mut rank = l.firsts[block as usize];
        let mut at = 0usize;
        let mut going = each(rank, at);
        for i in 1..count {
            let mut gap = 0u64;
            let mut shift = 0u32;
            loop {
                let Some(&byte) = bytes.get(at) else {
                    return Err(damaged(format!("ends after {i} of its {count} ranks")));
                };
                at += 1;
                if shift > 63 {
                    return Err(damaged("a gap longer than 64 bits".into()));
                }
                gap |= u64::from(byte & 0x7F) << shift;
                shift += 7;
                if byte < 0x80 {
                    break;
                }
            }
            rank = rank
                .checked_add(gap)
                .and_then(|r| r.checked_add(1))
                .filter(|&r| r < next_first)
                .ok_or_else(|| damaged(format!("rank {i} passes the next block's first rank")))?;
            if going {
                going = each(rank, at);
            }
        }
        if at != bytes.len() {
            return Err(damaged(format!(
                "{} bytes after its {count} ranks",
                bytes.len() - at
            )));
        }
        Ok(())
    }

    /// Checks every level's data CRC and every block's contents: a pass over the file.
    pub fn verify(&self, file: &[u8]) -> Result<(), BoundedError> {
        for (d, l) in self.levels.iter().enumerate() {
            let data = &file[l.data_offset as usize..(l.data_offset + l.data_len) as usize];
            let computed = crc32fast::hash(data);
            if computed != l.data_crc {
                return Err(BoundedError::Level {
                    level: d as u32,
                    what: format!(
                        "the data checksum does not hold (stored {:#010x}, computed {computed:#010x})",
                        l.data_crc
                    ),
                });
            }
            for b in 0..l.blocks() {
                self.each_in_block(file, d as u32, b, |_, _| true)?;
            }
        }
        Ok(())
    }

    /// Level `level` of `file` as [`BoundedLevel::encode`] made it (its index and gaps
    /// copied, not decoded): how a search within `D` moves gets its levels back from a
    /// checkpoint. `None` past `D` or where the file is shorter than its header says.
    pub fn encoded_level(&self, file: &[u8], level: u32) -> Option<BoundedLevel> {
        let l = self.levels.get(level as usize)?;
        let data_end = l.data_offset.checked_add(l.data_len)?;
        let index =
            file.get(usize::try_from(l.index_offset).ok()?..usize::try_from(l.data_offset).ok()?)?;
        let data =
            file.get(usize::try_from(l.data_offset).ok()?..usize::try_from(data_end).ok()?)?;
        Some(BoundedLevel {
            states: l.states,
            index: index.to_vec(),
            data: data.to_vec(),
        })
    }

    /// Calls `each` with every rank of level `level` in increasing order (every block
    /// checked as it is read).
    pub fn each_rank(
        &self,
        file: &[u8],
        level: u32,
        mut each: impl FnMut(u64),
    ) -> Result<(), BoundedError> {
        let Some(l) = self.levels.get(level as usize) else {
            return Ok(());
        };
        for b in 0..l.blocks() {
            self.each_in_block(file, level, b, |r, _| {
                each(r);
                true
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Vec<u8>, Vec<Vec<u64>>) {
        let board = Board::new(3, 5).unwrap();
        let goal = board.standard_goal();
        let levels = vec![
            vec![653_837_183_999],
            vec![3, 40, 1 << 35, 600_000_000_000],
            (0..3000u64).map(|i| i * i * 7919 + 5).collect::<Vec<_>>(),
        ];
        let encoded: Vec<_> = levels.iter().map(|l| BoundedLevel::encode(l, 64)).collect();
        let mut file = Vec::new();
        BoundedHeader::write(&mut file, &goal, 64, &encoded).unwrap();
        (file, levels)
    }

    #[test]
    fn written_levels_read_back() {
        let (file, levels) = sample();
        let header = BoundedHeader::parse(&file).unwrap();
        for (d, level) in levels.iter().enumerate() {
            let encoded = header.encoded_level(&file, d as u32).unwrap();
            assert_eq!(encoded, BoundedLevel::encode(level, 64));
        }
        assert_eq!(header.encoded_level(&file, 3), None);
        assert_eq!(header.max_depth(), 2);
        assert_eq!(header.histogram(), vec![1, 4, 3000]);
        header.verify(&file).unwrap();
        for (d, level) in levels.iter().enumerate() {
            let mut back = Vec::new();
            header.each_rank(&file, d as u32, |r| back.push(r)).unwrap();
            assert_eq!(&back, level);
            for &r in level {
                assert!(header.contains(&file, d as u32, r).unwrap());
                assert!(
                    !header.contains(&file, d as u32, r + 1).unwrap() || level.contains(&(r + 1))
                );
            }
            assert!(!header.contains(&file, d as u32, 0).unwrap());
        }
    }

    #[test]
    fn every_truncation_and_every_flipped_header_byte_is_refused() {
        let (file, _) = sample();
        let header_len = BOUNDED_HEADER_LEN + 3 * BOUNDED_LEVEL_LEN;
        for len in 0..file.len() {
            assert!(BoundedHeader::parse(&file[..len]).is_err(), "{len}");
        }
        for at in 0..header_len {
            let mut bad = file.clone();
            bad[at] ^= 0x10;
            assert!(BoundedHeader::parse(&bad).is_err(), "byte {at}");
        }
        // A flipped data byte: found by the block's checksum, never a wrong answer.
        let mut bad = file.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let header = BoundedHeader::parse(&bad).unwrap();
        let e = header.verify(&bad).unwrap_err();
        assert!(e.to_string().contains("checksum does not hold"), "{e}");
    }

    /// A question that reads a damaged block is refused, naming the level and the block, as
    /// often as it is asked (a block is remembered only once it is found whole); the other
    /// blocks still answer, and a whole block read once answers as before.
    #[test]
    fn a_damaged_block_is_refused_by_name_at_every_question() {
        let (file, levels) = sample();
        let header = BoundedHeader::parse(&file).unwrap();
        let level = &header.levels()[2];
        // Block 5 of level 2 (64 ranks a block): flip a byte in the middle of its gaps.
        let (start, end) = header.block_bytes(&file, level, 5);
        let mut bad = file.clone();
        bad[((start + end) / 2) as usize] ^= 0x04;
        let header = BoundedHeader::parse(&bad).unwrap();
        let inside = levels[2][5 * 64 + 40];
        for _ in 0..3 {
            let e = header.contains(&bad, 2, inside).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "level 2: block 5 (bytes {start}..{end} of the file): checksum does not hold \
                     (stored {:#010x}, computed {:#010x})",
                    crc32fast::hash(&file[start as usize..end as usize]),
                    crc32fast::hash(&bad[start as usize..end as usize]),
                )
            );
        }
        for (b, &r) in levels[2].iter().enumerate() {
            if b / 64 != 5 {
                assert!(header.contains(&bad, 2, r).unwrap());
                assert!(header.contains(&bad, 2, r).unwrap());
                assert_eq!(
                    header.contains(&bad, 2, r + 1).unwrap(),
                    levels[2].contains(&(r + 1))
                );
            }
        }
    }
}
