//! Pattern-database files: the same fixed header as every table (magic, version, board,
//! CRCs, file length), the encoding code [`PATTERN_ENCODING`], and one section per tile
//! group of a partition. docs/FORMAT.md §11 specifies it byte by byte.
//!
//! A section holds, for every placement of its group's `k` tiles over the board's `n` cells
//! (ranked by [`PlacementRanker`], tiles in increasing order), the fewest moves *of that
//! group's tiles* that bring them home whatever the other tiles do. It stores each such
//! value `v` as the 4-bit excess `(v − md) / 2` over the group's Manhattan distance `md`,
//! which is exact: every move of a group tile changes `md` by one, so `v − md` is even and
//! never negative. Two entries share a byte, low nibble first.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_format::{PatternHeader, PatternSpec};
//!
//! let goal = Board::new(2, 2).unwrap().standard_goal();
//! // Tiles 1 and 2 in one group, tile 3 alone: 12 and 4 placements.
//! let specs = vec![
//!     PatternSpec { tiles: 0b0110, histogram: vec![1, 2, 3, 4, 2] },
//!     PatternSpec { tiles: 0b1000, histogram: vec![1, 2, 1] },
//! ];
//! let header = PatternHeader::build(goal, specs, 0).unwrap();
//! let mut file = header.to_bytes();
//! file.resize(header.file_len as usize, 0);
//! let back = PatternHeader::parse(&file).unwrap();
//! assert_eq!(back.sections[0].group(), vec![1, 2]);
//! assert_eq!(back.sections[1].entries, 4);
//! ```

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::{Board, Layout, PlacementRanker, MAX_CELLS};

use crate::{
    add, mul, FormatError, SectionProblem, FIXED_HEADER_LEN, MAGIC, MAX_HISTOGRAM_ENTRIES,
    OFF_COLS, OFF_COST, OFF_ENCODING, OFF_FILE_LEN, OFF_HEADER_CRC, OFF_HEADER_LEN,
    OFF_PAYLOAD_CRC, OFF_ROWS, OFF_SECTIONS, OFF_VERSION, SECTION_LEN, S_ENTRIES, S_GOAL,
    S_HIST_LEN, S_HIST_OFF, S_MAX, S_PAYLOAD_LEN, S_PAYLOAD_OFF, VERSION,
};

/// The header's encoding code of a pattern database: 4-bit excess entries, one section per
/// tile group. Readers of tables of every state refuse it (`unknown entry encoding 4`).
pub const PATTERN_ENCODING: u8 = 4;
/// The largest excess an entry holds.
pub const MAX_EXCESS: u32 = 15;
/// The most tiles a group may have (16!/7! placements still rank in a `u32`).
pub const MAX_GROUP: usize = 9;

/// Offset in a descriptor of the group's tile mask (a `u16`, bit `t` for tile `t`), in what
/// tables of every state leave reserved.
const S_TILES: usize = 56;

/// Whether `file` claims to be a pattern database: the magic number and the pattern
/// encoding code. Says nothing of whether the rest holds; [`PatternHeader::parse`] checks.
pub fn is_pattern_file(file: &[u8]) -> bool {
    file.len() >= FIXED_HEADER_LEN && file[..8] == MAGIC && file[OFF_ENCODING] == PATTERN_ENCODING
}

/// The 4-bit excess of the entry at `rank` of a pattern payload.
#[inline]
pub fn excess_at(payload: &[u8], rank: u32) -> u32 {
    u32::from(payload[(rank >> 1) as usize] >> ((rank & 1) * 4)) & 15
}

/// Payload bytes of a section of `entries` placements: two to a byte.
pub fn pattern_payload_len(entries: u64) -> u64 {
    entries.div_ceil(2)
}

/// What the writer knows of a section before laying it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSpec {
    /// Bit `t` set for each tile `t` of the group.
    pub tiles: u16,
    /// `histogram[v]` = placements whose value is `v`; its last entry is the maximum's.
    /// Placements per excess value, from 0 to `max_value`.
    pub histogram: Vec<u64>,
}

/// One tile group's section as the header describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSection {
    /// Bit `t` set for each tile `t` of the group.
    pub tiles: u16,
    /// Placements: n!/(n−k)!.
    pub entries: u64,
    /// The largest excess value stored.
    pub max_value: u32,
    /// Placements per excess value, from 0 to `max_value`.
    pub histogram: Vec<u64>,
    /// Where the histogram starts in the file.
    pub histogram_offset: u64,
    /// Where the section's entries start in the file.
    pub payload_offset: u64,
    /// The entries' length in bytes.
    pub payload_len: u64,
}

impl PatternSection {
    /// The group's tiles in increasing order: the order whose cells are ranked.
    pub fn group(&self) -> Vec<u8> {
        (1..16u8).filter(|t| self.tiles & (1 << t) != 0).collect()
    }
}

/// A pattern database's header, as validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternHeader {
    /// The board.
    pub board: Board,
    /// The goal every section's values are distances to.
    pub goal: Layout,
    /// One section per tile group.
    pub sections: Vec<PatternSection>,
    /// The header's length in bytes.
    pub header_len: u64,
    /// The payload checksum (CRC-32).
    pub payload_crc: u32,
    /// The file's length in bytes.
    pub file_len: u64,
}

impl PatternHeader {
    /// Lays out a file: sections in the given order, histograms after the descriptors, the
    /// payloads packed after the header. Refuses groups that overlap or leave a tile out.
    pub fn build(
        goal: Layout,
        specs: Vec<PatternSpec>,
        payload_crc: u32,
    ) -> Result<PatternHeader, FormatError> {
        let board = goal.board();
        let count = specs.len() as u64;
        let descriptors = mul(count, SECTION_LEN as u64, "section descriptors")?;
        let hist_total: u64 = specs.iter().map(|s| s.histogram.len() as u64).sum();
        let header_len = add(
            add(FIXED_HEADER_LEN as u64, descriptors, "header length")?,
            mul(hist_total, 8, "histograms")?,
            "header length",
        )?;
        let mut hist_off = FIXED_HEADER_LEN as u64 + descriptors;
        let mut payload_off = header_len;
        let mut sections = Vec::with_capacity(specs.len());
        for (index, spec) in specs.into_iter().enumerate() {
            let k = spec.tiles.count_ones() as usize;
            let entries = placements(board, k).ok_or_else(|| group_size(index, k, board))?;
            let payload_len = pattern_payload_len(entries);
            let len = spec.histogram.len() as u64;
            sections.push(PatternSection {
                tiles: spec.tiles,
                entries,
                max_value: len.saturating_sub(1) as u32,
                histogram: spec.histogram,
                histogram_offset: hist_off,
                payload_offset: payload_off,
                payload_len,
            });
            hist_off = add(hist_off, mul(len, 8, "histograms")?, "histograms")?;
            payload_off = add(payload_off, payload_len, "file length")?;
        }
        let header = PatternHeader {
            board,
            goal,
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
        b[OFF_ENCODING] = PATTERN_ENCODING;
        b[OFF_COST] = 0;
        LE::write_u16(&mut b[OFF_SECTIONS..], self.sections.len() as u16);
        LE::write_u32(&mut b[OFF_HEADER_LEN..], self.header_len as u32);
        LE::write_u32(&mut b[OFF_PAYLOAD_CRC..], self.payload_crc);
        LE::write_u64(&mut b[OFF_FILE_LEN..], self.file_len);
        for (i, s) in self.sections.iter().enumerate() {
            let d = &mut b[FIXED_HEADER_LEN + i * SECTION_LEN..][..SECTION_LEN];
            let tiles = self.goal.tiles();
            d[S_GOAL..S_GOAL + tiles.len()].copy_from_slice(tiles);
            LE::write_u64(&mut d[S_ENTRIES..], s.entries);
            LE::write_u32(&mut d[S_MAX..], s.max_value);
            LE::write_u32(&mut d[S_HIST_LEN..], s.histogram.len() as u32);
            LE::write_u64(&mut d[S_HIST_OFF..], s.histogram_offset);
            LE::write_u64(&mut d[S_PAYLOAD_OFF..], s.payload_offset);
            LE::write_u64(&mut d[S_PAYLOAD_LEN..], s.payload_len);
            LE::write_u16(&mut d[S_TILES..], s.tiles);
            let h = &mut b[s.histogram_offset as usize..][..s.histogram.len() * 8];
            LE::write_u64_into(&s.histogram, h);
        }
        let crc = crc32fast::hash(&b);
        LE::write_u32(&mut b[OFF_HEADER_CRC..], crc);
        b
    }

    /// Reads and validates the header of a whole pattern file; never panics, and the work
    /// is bounded by the header's size.
    pub fn parse(file: &[u8]) -> Result<PatternHeader, FormatError> {
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
        let (rows, cols) = (fixed[OFF_ROWS], fixed[OFF_COLS]);
        let board = Board::new(rows.into(), cols.into())
            .map_err(|_| FormatError::BadPatternBoard { rows, cols })?;
        if fixed[OFF_ENCODING] != PATTERN_ENCODING {
            return Err(FormatError::UnknownEncoding(fixed[OFF_ENCODING]));
        }
        if fixed[OFF_COST] != 0 {
            return Err(FormatError::UnknownCost(fixed[OFF_COST]));
        }
        let count = LE::read_u16(&fixed[OFF_SECTIONS..]);
        if count == 0 || count as usize >= board.cells() {
            return Err(FormatError::BadSectionCount {
                found: count,
                max: board.cells() - 1,
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

        let mut goal = None;
        let mut sections = Vec::with_capacity(count as usize);
        let mut hist_total = 0u64;
        for index in 0..count as usize {
            let bad = |what: String| FormatError::Section {
                index,
                problem: SectionProblem::Pattern(what),
            };
            let d = &header_bytes[FIXED_HEADER_LEN + index * SECTION_LEN..][..SECTION_LEN];
            let this = Layout::new(board, &d[S_GOAL..S_GOAL + board.cells()]).map_err(|error| {
                FormatError::Section {
                    index,
                    problem: SectionProblem::GoalNotALayout { board, error },
                }
            })?;
            if d[S_GOAL + board.cells()..S_GOAL + MAX_CELLS]
                .iter()
                .any(|&b| b != 0)
            {
                return Err(FormatError::Section {
                    index,
                    problem: SectionProblem::GoalBeyondBoard,
                });
            }
            match goal {
                None => goal = Some(this),
                Some(g) if g != this => {
                    return Err(bad(format!(
                        "goal {this} differs from section 0's goal {g}: one database has one goal"
                    )))
                }
                Some(_) => {}
            }
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
            sections.push(PatternSection {
                tiles: LE::read_u16(&d[S_TILES..]),
                entries: LE::read_u64(&d[S_ENTRIES..]),
                max_value: LE::read_u32(&d[S_MAX..]),
                histogram,
                histogram_offset,
                payload_offset: LE::read_u64(&d[S_PAYLOAD_OFF..]),
                payload_len: LE::read_u64(&d[S_PAYLOAD_LEN..]),
            });
        }
        let header = PatternHeader {
            board,
            goal: goal.expect("at least one section"),
            sections,
            header_len,
            payload_crc,
            file_len: actual,
        };
        header.check()?;
        Ok(header)
    }

    /// The rules every pattern header obeys, checked by writer and reader: the groups are
    /// disjoint and cover every tile, each section has the entry count its group size gives
    /// and a histogram that adds up to it, and everything is packed in order.
    fn check(&self) -> Result<(), FormatError> {
        let board = self.board;
        let n = board.cells();
        if self.goal.board() != board {
            return Err(FormatError::BadPatternBoard {
                rows: board.rows() as u8,
                cols: board.cols() as u8,
            });
        }
        if self.sections.is_empty() || self.sections.len() >= n {
            return Err(FormatError::BadSectionCount {
                found: self.sections.len().min(u16::MAX as usize) as u16,
                max: n - 1,
            });
        }
        let hist_total: u64 = self.sections.iter().map(|s| s.histogram.len() as u64).sum();
        if hist_total > MAX_HISTOGRAM_ENTRIES {
            return Err(FormatError::Overflow("histogram entries"));
        }
        let all_tiles: u16 = (((1u32 << n) - 1) & !1) as u16;
        let mut covered = 0u16;
        let mut expected_hist =
            FIXED_HEADER_LEN as u64 + (self.sections.len() * SECTION_LEN) as u64;
        let mut expected_payload = self.header_len;
        for (index, s) in self.sections.iter().enumerate() {
            let bad = |what: String| FormatError::Section {
                index,
                problem: SectionProblem::Pattern(what),
            };
            if s.tiles & !all_tiles != 0 {
                return Err(bad(format!(
                    "tile group {:#06x} names tiles that are not on a {board} board (1..{})",
                    s.tiles,
                    n - 1
                )));
            }
            if s.tiles & covered != 0 {
                let t = (s.tiles & covered).trailing_zeros();
                return Err(bad(format!(
                    "tile {t} is in this group and an earlier one: groups must not overlap"
                )));
            }
            covered |= s.tiles;
            let k = s.tiles.count_ones() as usize;
            let entries = placements(board, k).ok_or_else(|| group_size(index, k, board))?;
            if s.entries != entries {
                return Err(bad(format!(
                    "entry count {} is wrong: {k} tiles on a {board} board have {entries} placements",
                    s.entries
                )));
            }
            let Some(&last) = s.histogram.last() else {
                return Err(bad("histogram is empty".into()));
            };
            if last == 0 {
                return Err(bad(format!(
                    "histogram ends with no placements at value {}: the maximum must have some",
                    s.histogram.len() - 1
                )));
            }
            if s.histogram.len() as u64 != u64::from(s.max_value) + 1 {
                return Err(bad(format!(
                    "maximum value {} disagrees with the histogram's {} entries",
                    s.max_value,
                    s.histogram.len()
                )));
            }
            if s.histogram[0] != 1 {
                return Err(bad(format!(
                    "histogram says {} placements at value 0; exactly 1 (the goal's) is possible",
                    s.histogram[0]
                )));
            }
            let sum = s
                .histogram
                .iter()
                .try_fold(0u64, |acc, &h| acc.checked_add(h))
                .ok_or(FormatError::Overflow("histogram sum"))?;
            if sum != entries {
                return Err(bad(format!(
                    "histogram adds up to {sum}, not {entries} placements"
                )));
            }
            if s.histogram_offset != expected_hist {
                return Err(bad(format!(
                    "histogram offset {} should be {expected_hist}",
                    s.histogram_offset
                )));
            }
            expected_hist += s.histogram.len() as u64 * 8;
            let payload_len = pattern_payload_len(entries);
            if s.payload_offset != expected_payload || s.payload_len != payload_len {
                return Err(bad(format!(
                    "payload at {}+{} should be at {expected_payload}+{payload_len}",
                    s.payload_offset, s.payload_len
                )));
            }
            expected_payload = add(expected_payload, payload_len, "payload end")?;
        }
        if covered != all_tiles {
            let t = (all_tiles & !covered).trailing_zeros();
            return Err(FormatError::Groups(format!(
                "tile {t} is in no group: the groups must cover tiles 1..{}",
                n - 1
            )));
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

/// Placements of `k` tiles on `board`, when the group size is allowed (1..=9 tiles).
fn placements(board: Board, k: usize) -> Option<u64> {
    if k > MAX_GROUP {
        return None;
    }
    PlacementRanker::new(board.cells(), k)
        .ok()
        .map(|r| u64::from(r.count()))
}

fn group_size(index: usize, k: usize, board: Board) -> FormatError {
    FormatError::Section {
        index,
        problem: SectionProblem::Pattern(format!(
            "a group of {k} tiles is not allowed on a {board} board (1..={MAX_GROUP} tiles)"
        )),
    }
}
