//! Pattern-database files of boards past 16 cells (the 24-puzzle's): magic `SLIDEP25`.
//! docs/FORMAT.md §14 specifies them byte by byte.
//!
//! The tables of every state and the 15-puzzle's pattern databases share a frame whose goal
//! field and tile masks hold 16 cells; a 5×5 goal and a 24-tile mask do not fit it, so these
//! files have a frame of their own, made the same way: a fixed header with the header's and
//! the payloads' CRC-32, one descriptor per tile group (its tile mask, its placements, its
//! largest value and where its histogram and entries lie), the histograms, then the entries,
//! one byte per placement of the group's tiles (ranked by
//! [`PlacementRanker25`](slidetable_core::PlacementRanker25), in 64 bits past 7 tiles): the fewest moves of the
//! group's tiles that bring them home, whatever the other tiles do. A byte, not the 15-puzzle's
//! 4-bit excess: the search then reads a value with one load and no Manhattan sum, and a
//! 6-tile group's 127,512,000 entries are the 122 MiB a group Korf and Felner's databases
//! took.
//!
//! ```
//! use slidetable_core::Layout25;
//! use slidetable_format::{Group25, PatternFile25};
//!
//! let goal = Layout25::goal_with_blank(2, 3, 0).unwrap();
//! // Tiles 1 and 2 in one group (30 placements), 3, 4 and 5 in the other (120).
//! let groups = vec![
//!     Group25 { tiles: 0b110, histogram: vec![1, 29], entries: vec![1; 30] },
//!     Group25 { tiles: 0b11_1000, histogram: vec![1, 119], entries: vec![1; 120] },
//! ];
//! let bytes = PatternFile25::to_bytes(&goal, &groups).unwrap();
//! let file = PatternFile25::parse(&bytes).unwrap();
//! assert_eq!(file.goal(), &goal);
//! assert_eq!(file.groups()[1].tiles, 0b11_1000);
//! assert_eq!(file.entries(&bytes, 1).len(), 120);
//! file.verify(&bytes).unwrap();
//! ```

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::{placement_count, Layout25, MAX_CELLS_25};

/// The magic number of a pattern database of a board past 16 cells.
pub const MAGIC_25: [u8; 8] = *b"SLIDEP25";
/// The version this code writes and reads.
pub const VERSION_25: u16 = 1;
/// The entry encoding code: one byte per placement, the group's moves.
pub const BYTE_ENTRIES_25: u8 = 1;
/// An entry of a placement the puzzles never reach (counted in no histogram).
pub const UNREACHED_25: u8 = 255;
/// The magic number of one process's part of a `SLIDEP25` file built in parts (`generate
/// --board 5x5 --parts DIR`): the same layout, each group's entries only those of the part's
/// slice of its ranks, and the part's number and the parts' count in the fixed header.
pub const MAGIC_PART_25: [u8; 8] = *b"SLIDEQ25";

const FIXED: usize = 96;
const DESCRIPTOR: usize = 32;
const OFF_VERSION: usize = 8;
const OFF_ROWS: usize = 10;
const OFF_COLS: usize = 11;
const OFF_ENCODING: usize = 12;
const OFF_GROUPS: usize = 13;
const OFF_HEADER_LEN: usize = 16;
const OFF_FILE_LEN: usize = 24;
const OFF_HEADER_CRC: usize = 32;
const OFF_PAYLOAD_CRC: usize = 36;
const OFF_PART: usize = 40;
const OFF_PARTS: usize = 44;
const OFF_GOAL: usize = 64;

/// One tile group of a file: which tiles, how its values spread, and (when writing) its
/// entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group25 {
    /// Bit `t` set for each tile `t` of the group.
    pub tiles: u32,
    /// `histogram[v]` = placements of value `v`; the last is the largest value's.
    pub histogram: Vec<u64>,
    /// The entries, one byte per placement in rank order (empty in a parsed header: they
    /// stay in the file, [`PatternFile25::entries`]).
    pub entries: Vec<u8>,
}

/// Why bytes are not a sound pattern file of a board past 16 cells. Every message names the
/// field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Pattern25Error {
    /// Another magic number.
    #[error("not a SLIDEP25 pattern database (a 24-puzzle pattern file): the first {FIXED} bytes do not start with SLIDEP25")]
    NotPattern25,
    /// Too short for the fixed header.
    #[error("not a SLIDEP25 pattern database (a 24-puzzle pattern file): the file is {len} bytes, shorter than the {FIXED}-byte header")]
    Short25 {
        /// The file's length.
        len: usize,
    },
    /// A table of the smaller boards, or a 15-puzzle pattern database (`SLIDETBL`), where the
    /// 24-puzzle's databases are expected.
    #[error("this is a table (SLIDETBL), not the 24-puzzle's pattern databases (SLIDEP25): `slidetable path`, `distance` and `search` read it without --board 5x5, and `slidetable info FILE` names its board")]
    TableFile,
    /// One part of databases built in parts, where the whole file is asked for.
    #[error("one part of 24-puzzle pattern databases built in parts (SLIDEQ25), not the whole: `slidetable merge DIR -o FILE` joins the parts of DIR into the file")]
    APart25,
    /// Too short for the fixed header, or not a part's magic number.
    #[error("not a part of 24-puzzle pattern databases built in parts: the first {FIXED} bytes do not start with SLIDEQ25")]
    NotPart25,
    /// A field holds a value this version does not allow.
    #[error("field {field}: {problem}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// A checksum does not match: the file is damaged.
    #[error("{what} checksum mismatch (stored {stored:#010x}, computed {computed:#010x}): the file is damaged; generate it again")]
    Checksum {
        /// "header" or "payload".
        what: &'static str,
        /// The stored CRC-32.
        stored: u32,
        /// The CRC-32 of the bytes.
        computed: u32,
    },
}

fn field(field: &'static str, problem: impl Into<String>) -> Pattern25Error {
    Pattern25Error::Field {
        field,
        problem: problem.into(),
    }
}

/// What a file holds of each group: every entry (a `SLIDEP25` file), or one part's slice of
/// the ranks (a `SLIDEQ25` file of a build in parts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece25 {
    /// Every entry.
    Whole,
    /// Part `part` (from 0) of `parts`: the ranks [`Piece25::range`] gives.
    Part {
        /// This part's number.
        part: u32,
        /// How many parts.
        parts: u32,
    },
}

impl Piece25 {
    /// The ranks this piece holds of a group of `count` placements: part `k` of `n` from
    /// ⌊count·k/n⌋ to ⌊count·(k+1)/n⌋, the slices of a build in parts.
    pub fn range(self, count: u64) -> std::ops::Range<u64> {
        match self {
            Piece25::Whole => 0..count,
            Piece25::Part { part, parts } => {
                let at = |k: u32| (u128::from(count) * u128::from(k) / u128::from(parts)) as u64;
                at(part)..at(part + 1)
            }
        }
    }

    fn magic(self) -> [u8; 8] {
        match self {
            Piece25::Whole => MAGIC_25,
            Piece25::Part { .. } => MAGIC_PART_25,
        }
    }
}

/// A validated header of a `SLIDEP25` file (or of a part, `SLIDEQ25`): the goal, the groups
/// (without their entries) and where each group's entries lie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternFile25 {
    piece: Piece25,
    goal: Layout25,
    groups: Vec<Group25>,
    /// Each group's entries: offset and length in the file.
    payloads: Vec<(u64, u64)>,
    header_len: u64,
    payload_crc: u32,
}

/// The placements of `k` tiles over `cells` cells, when they rank in a `u64`
/// ([`WidePlacementRanker25`](slidetable_core::WidePlacementRanker25): groups past 7 tiles
/// of 25 cells pass 2³²).
fn placements(cells: usize, k: usize) -> Option<u64> {
    u64::try_from(placement_count(cells, k)).ok()
}

/// The checks every file's groups pass: disjoint, covering tiles 1..n−1, each of a size
/// whose placements rank, a histogram no larger than its placements that says 1 placement is
/// home.
fn check_groups(n: usize, groups: &[Group25]) -> Result<(), Pattern25Error> {
    if groups.is_empty() || groups.len() >= n {
        return Err(field(
            "groups",
            format!("{} groups; 1 to {} allowed", groups.len(), n - 1),
        ));
    }
    let all = ((1u64 << n) - 2) as u32;
    let mut seen = 0u32;
    for (i, g) in groups.iter().enumerate() {
        if g.tiles & !all != 0 || g.tiles == 0 {
            return Err(field(
                "group tiles",
                format!("group {i} has tiles off the board (mask {:#x})", g.tiles),
            ));
        }
        if g.tiles & seen != 0 {
            return Err(field(
                "group tiles",
                format!(
                    "group {i}: tile {} is in an earlier group too",
                    (g.tiles & seen).trailing_zeros()
                ),
            ));
        }
        seen |= g.tiles;
        let k = g.tiles.count_ones() as usize;
        let count = placements(n, k).ok_or_else(|| {
            field(
                "group tiles",
                format!("group {i}: {k} tiles make too many placements to rank"),
            )
        })?;
        let sum: u64 = g.histogram.iter().sum();
        if g.histogram.first() != Some(&1) || g.histogram.last() == Some(&0) || sum > count {
            return Err(field(
                "histogram",
                format!("group {i}: the histogram must start with 1 (home), end with a count above 0 and add up to at most {count} placements"),
            ));
        }
        if g.histogram.len() > usize::from(UNREACHED_25) {
            return Err(field(
                "histogram",
                format!("group {i}: values up to 254 fit an entry"),
            ));
        }
    }
    if seen != all {
        return Err(field(
            "group tiles",
            format!(
                "tile {} is in no group: the groups must cover tiles 1..{}",
                (all & !seen).trailing_zeros(),
                n - 1
            ),
        ));
    }
    Ok(())
}

impl PatternFile25 {
    /// The whole file of `groups` towards `goal`: header, histograms, entries.
    pub fn to_bytes(goal: &Layout25, groups: &[Group25]) -> Result<Vec<u8>, Pattern25Error> {
        PatternFile25::piece_bytes(goal, groups, Piece25::Whole)
    }

    /// The file of `piece` of `groups` towards `goal` (each group's entries those of the
    /// piece's ranks, [`Piece25::range`]; its histogram every part's together).
    pub fn piece_bytes(
        goal: &Layout25,
        groups: &[Group25],
        piece: Piece25,
    ) -> Result<Vec<u8>, Pattern25Error> {
        let mut crc = crc32fast::Hasher::new();
        groups.iter().for_each(|g| crc.update(&g.entries));
        let lens: Vec<u64> = groups.iter().map(|g| g.entries.len() as u64).collect();
        let mut out = PatternFile25::header_bytes(goal, groups, &lens, piece, crc.finalize())?;
        let payload: usize = groups.iter().map(|g| g.entries.len()).sum();
        out.reserve_exact(payload);
        for g in groups {
            out.extend_from_slice(&g.entries);
        }
        Ok(out)
    }

    /// The header (fixed part, descriptors, histograms) of a `SLIDEP25` file of `groups`
    /// towards `goal` whose entries, written after it, have the CRC-32 `payload_crc`: what a
    /// writer that streams the entries (`merge` of a build in parts) writes first. The
    /// groups' `entries` are not read.
    pub fn whole_header(
        goal: &Layout25,
        groups: &[Group25],
        payload_crc: u32,
    ) -> Result<Vec<u8>, Pattern25Error> {
        let n = goal.cells();
        let lens: Vec<u64> = groups
            .iter()
            .map(|g| placements(n, g.tiles.count_ones() as usize).unwrap_or(0))
            .collect();
        PatternFile25::header_bytes(goal, groups, &lens, Piece25::Whole, payload_crc)
    }

    /// The header of `piece` of `groups`, group `i`'s entries `lens[i]` bytes long (checked
    /// against the piece's range).
    fn header_bytes(
        goal: &Layout25,
        groups: &[Group25],
        lens: &[u64],
        piece: Piece25,
        payload_crc: u32,
    ) -> Result<Vec<u8>, Pattern25Error> {
        let n = goal.cells();
        check_groups(n, groups)?;
        if let Piece25::Part { part, parts } = piece {
            if part >= parts {
                return Err(field("part", format!("part {part} of {parts}")));
            }
        }
        for (i, (g, &len)) in groups.iter().zip(lens).enumerate() {
            let count = placements(n, g.tiles.count_ones() as usize).unwrap_or(0);
            let range = piece.range(count);
            if len != range.end - range.start {
                return Err(field(
                    "entries",
                    format!(
                        "group {i} has {len} entries, not {}",
                        range.end - range.start
                    ),
                ));
            }
        }
        let hist_words: usize = groups.iter().map(|g| g.histogram.len()).sum();
        let header_len = FIXED + DESCRIPTOR * groups.len() + 8 * hist_words;
        let payload: u64 = lens.iter().sum();
        let mut out = vec![0u8; header_len];
        out[..8].copy_from_slice(&piece.magic());
        LE::write_u16(&mut out[OFF_VERSION..], VERSION_25);
        out[OFF_ROWS] = goal.rows() as u8;
        out[OFF_COLS] = goal.cols() as u8;
        out[OFF_ENCODING] = BYTE_ENTRIES_25;
        out[OFF_GROUPS] = groups.len() as u8;
        LE::write_u64(&mut out[OFF_HEADER_LEN..], header_len as u64);
        LE::write_u64(&mut out[OFF_FILE_LEN..], header_len as u64 + payload);
        if let Piece25::Part { part, parts } = piece {
            LE::write_u32(&mut out[OFF_PART..], part);
            LE::write_u32(&mut out[OFF_PARTS..], parts);
        }
        out[OFF_GOAL..OFF_GOAL + n].copy_from_slice(goal.tiles());
        let mut hist_at = FIXED + DESCRIPTOR * groups.len();
        let mut payload_at = header_len as u64;
        for (i, (g, &len)) in groups.iter().zip(lens).enumerate() {
            let d = &mut out[FIXED + DESCRIPTOR * i..FIXED + DESCRIPTOR * (i + 1)];
            LE::write_u32(&mut d[0..], g.tiles);
            LE::write_u32(&mut d[4..], (g.histogram.len() - 1) as u32);
            LE::write_u64(&mut d[8..], len);
            LE::write_u64(&mut d[16..], hist_at as u64);
            LE::write_u64(&mut d[24..], payload_at);
            for &h in &g.histogram {
                LE::write_u64(&mut out[hist_at..], h);
                hist_at += 8;
            }
            payload_at += len;
        }
        LE::write_u32(&mut out[OFF_PAYLOAD_CRC..], payload_crc);
        let header_crc = crc32fast::hash(&out);
        LE::write_u32(&mut out[OFF_HEADER_CRC..], header_crc);
        Ok(out)
    }

    /// Whether `file` starts with this kind's magic number, or a part's (which
    /// [`parse`](Self::parse) refuses, saying how to join the parts).
    pub fn is_pattern25(file: &[u8]) -> bool {
        file.len() >= 8 && (file[..8] == MAGIC_25 || file[..8] == MAGIC_PART_25)
    }

    /// Reads and validates the header of a whole file (every field, the header's CRC and
    /// the file's length; not the payload's CRC: [`verify`](Self::verify)). Never panics.
    pub fn parse(file: &[u8]) -> Result<PatternFile25, Pattern25Error> {
        if file.len() >= 8 && file[..8] == MAGIC_PART_25 {
            return Err(Pattern25Error::APart25);
        }
        if file.len() >= 8 && file[..8] == crate::MAGIC {
            return Err(Pattern25Error::TableFile);
        }
        if file.len() < FIXED {
            return Err(Pattern25Error::Short25 { len: file.len() });
        }
        if file[..8] != MAGIC_25 {
            return Err(Pattern25Error::NotPattern25);
        }
        PatternFile25::parse_piece(file, Piece25::Whole)
    }

    /// [`parse`](Self::parse) for one part of a build in parts (`SLIDEQ25`): its groups'
    /// entries are those of its slice of the ranks ([`Piece25::range`]).
    pub fn parse_part(file: &[u8]) -> Result<PatternFile25, Pattern25Error> {
        if file.len() < FIXED || file[..8] != MAGIC_PART_25 {
            return Err(Pattern25Error::NotPart25);
        }
        let (part, parts) = (
            LE::read_u32(&file[OFF_PART..]),
            LE::read_u32(&file[OFF_PARTS..]),
        );
        if part >= parts {
            return Err(field(
                "part",
                format!("part {part} of {parts}: a part's number is below the parts' count"),
            ));
        }
        PatternFile25::parse_piece(file, Piece25::Part { part, parts })
    }

    /// What [`parse`](Self::parse) and [`parse_part`](Self::parse_part) share past the magic
    /// number.
    fn parse_piece(file: &[u8], piece: Piece25) -> Result<PatternFile25, Pattern25Error> {
        let version = LE::read_u16(&file[OFF_VERSION..]);
        if version != VERSION_25 {
            return Err(field(
                "version",
                format!("version {version}; this program reads version {VERSION_25}"),
            ));
        }
        let (rows, cols) = (usize::from(file[OFF_ROWS]), usize::from(file[OFF_COLS]));
        if rows < 2 || cols < 2 || rows * cols > MAX_CELLS_25 {
            return Err(field(
                "rows/cols",
                format!("a {rows}x{cols} board; 2 to {MAX_CELLS_25} cells"),
            ));
        }
        let n = rows * cols;
        if file[OFF_ENCODING] != BYTE_ENTRIES_25 {
            return Err(field(
                "encoding",
                format!("unknown entry encoding {}", file[OFF_ENCODING]),
            ));
        }
        let count = usize::from(file[OFF_GROUPS]);
        let header_len = LE::read_u64(&file[OFF_HEADER_LEN..]);
        let file_len = LE::read_u64(&file[OFF_FILE_LEN..]);
        if file_len != file.len() as u64 {
            return Err(field(
                "file length",
                format!(
                    "the header says {file_len} bytes, the file has {}: it is truncated or \
                     has bytes appended",
                    file.len()
                ),
            ));
        }
        let least = (FIXED + DESCRIPTOR * count) as u64;
        if header_len < least || header_len > file_len {
            return Err(field(
                "header length",
                format!("{header_len} bytes, outside {least}..={file_len}"),
            ));
        }
        let header = &file[..header_len as usize];
        let stored = LE::read_u32(&header[OFF_HEADER_CRC..]);
        let mut zeroed = crc32fast::Hasher::new();
        zeroed.update(&header[..OFF_HEADER_CRC]);
        zeroed.update(&[0; 4]);
        zeroed.update(&header[OFF_HEADER_CRC + 4..]);
        let computed = zeroed.finalize();
        if stored != computed {
            return Err(Pattern25Error::Checksum {
                what: "header",
                stored,
                computed,
            });
        }
        let goal = Layout25::new(rows, cols, &header[OFF_GOAL..OFF_GOAL + n])
            .map_err(|e| field("goal", e.to_string()))?;
        let mut groups = Vec::with_capacity(count);
        let mut payloads = Vec::with_capacity(count);
        let mut payload_at = header_len;
        for i in 0..count {
            let d = &header[FIXED + DESCRIPTOR * i..FIXED + DESCRIPTOR * (i + 1)];
            let tiles = LE::read_u32(&d[0..]);
            let max = u64::from(LE::read_u32(&d[4..]));
            let entries = LE::read_u64(&d[8..]);
            let hist_at = LE::read_u64(&d[16..]);
            let at = LE::read_u64(&d[24..]);
            let hist_end = max
                .checked_add(1)
                .and_then(|w| w.checked_mul(8))
                .and_then(|b| b.checked_add(hist_at));
            match hist_end {
                Some(end) if hist_at >= least && end <= header_len => {}
                _ => {
                    return Err(field(
                        "histogram offset",
                        format!("group {i}'s histogram is not within the header"),
                    ))
                }
            }
            let histogram = (0..=max)
                .map(|v| LE::read_u64(&header[(hist_at + 8 * v) as usize..]))
                .collect();
            let k = tiles.count_ones() as usize;
            let held = placements(n, k).map(|count| {
                let range = piece.range(count);
                range.end - range.start
            });
            if held != Some(entries) {
                return Err(field(
                    "entries",
                    format!("group {i}: {entries} entries for {k} tiles on {n} cells"),
                ));
            }
            if at != payload_at {
                return Err(field(
                    "payload offset",
                    format!("group {i}'s entries start at {at}, not at {payload_at} where the previous end"),
                ));
            }
            payload_at += entries;
            payloads.push((at, entries));
            groups.push(Group25 {
                tiles,
                histogram,
                entries: Vec::new(),
            });
        }
        check_groups(n, &groups)?;
        if payload_at != file_len {
            return Err(field(
                "file length",
                format!("the entries end at {payload_at}, the file at {file_len}"),
            ));
        }
        Ok(PatternFile25 {
            piece,
            goal,
            groups,
            payloads,
            header_len,
            payload_crc: LE::read_u32(&header[OFF_PAYLOAD_CRC..]),
        })
    }

    /// What the file holds: every entry, or a part's.
    pub fn piece(&self) -> Piece25 {
        self.piece
    }

    /// The stored CRC-32 of the entries.
    pub fn payload_crc(&self) -> u32 {
        self.payload_crc
    }

    /// The goal every group's values are distances to.
    pub fn goal(&self) -> &Layout25 {
        &self.goal
    }

    /// The groups (tiles and histograms; their entries are [`entries`](Self::entries)).
    pub fn groups(&self) -> &[Group25] {
        &self.groups
    }

    /// The header's length in bytes.
    pub fn header_len(&self) -> u64 {
        self.header_len
    }

    /// Group `index`'s entries within `file`, the file this header was read from.
    ///
    /// # Panics
    ///
    /// If `index` is not a group's or `file` is not the file parsed (shorter than it).
    pub fn entries<'a>(&self, file: &'a [u8], index: usize) -> &'a [u8] {
        let (at, len) = self.payloads[index];
        &file[at as usize..(at + len) as usize]
    }

    /// Checks the payload's CRC-32 over every entry of `file`.
    pub fn verify(&self, file: &[u8]) -> Result<(), Pattern25Error> {
        let start = self.header_len.min(file.len() as u64) as usize;
        let computed = crc32fast::hash(&file[start..]);
        if computed != self.payload_crc {
            return Err(Pattern25Error::Checksum {
                what: "payload",
                stored: self.payload_crc,
                computed,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> (Layout25, Vec<Group25>) {
        let goal = Layout25::goal_with_blank(2, 3, 0).unwrap();
        let groups = vec![
            Group25 {
                tiles: 0b110,
                histogram: vec![1, 29],
                entries: vec![1; 30],
            },
            Group25 {
                tiles: 0b11_1000,
                histogram: vec![1, 119],
                entries: vec![1; 120],
            },
        ];
        (goal, groups)
    }

    #[test]
    fn damage_is_named() {
        let (goal, groups) = small();
        let bytes = PatternFile25::to_bytes(&goal, &groups).unwrap();
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() ^= 1;
        let file = PatternFile25::parse(&bad).unwrap();
        assert!(matches!(
            file.verify(&bad),
            Err(Pattern25Error::Checksum {
                what: "payload",
                ..
            })
        ));
        let mut bad = bytes.clone();
        bad[OFF_GOAL] ^= 1;
        assert!(matches!(
            PatternFile25::parse(&bad),
            Err(Pattern25Error::Checksum { what: "header", .. })
        ));
        let e = PatternFile25::parse(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.to_string().starts_with("field file length:"), "{e}");
        assert_eq!(
            PatternFile25::parse(b"SLIDETBL").unwrap_err(),
            Pattern25Error::TableFile
        );
        assert_eq!(
            PatternFile25::parse(b"SLIDEP2").unwrap_err(),
            Pattern25Error::Short25 { len: 7 }
        );
        assert_eq!(
            PatternFile25::parse(&[b'x'; FIXED]).unwrap_err(),
            Pattern25Error::NotPattern25
        );
        // Every truncation and every flipped header byte is refused without a panic.
        for cut in 0..bytes.len() {
            assert!(PatternFile25::parse(&bytes[..cut]).is_err());
        }
        for at in 0..PatternFile25::parse(&bytes).unwrap().header_len() as usize {
            let mut b = bytes.clone();
            b[at] ^= 0x40;
            assert!(PatternFile25::parse(&b).is_err(), "byte {at}");
        }
    }

    #[test]
    fn groups_must_partition_the_tiles() {
        let (goal, mut groups) = small();
        groups[1].tiles = 0b1_1000;
        groups[1].entries = vec![1; 20];
        groups[1].histogram = vec![1, 19];
        let e = PatternFile25::to_bytes(&goal, &groups).unwrap_err();
        assert_eq!(
            e.to_string(),
            "field group tiles: tile 5 is in no group: the groups must cover tiles 1..5"
        );
    }

    #[test]
    fn a_part_holds_its_slice_and_is_no_whole_file() {
        let (goal, groups) = small();
        let piece = Piece25::Part { part: 1, parts: 3 };
        assert_eq!(piece.range(30), 10..20);
        assert_eq!(piece.range(120), 40..80);
        let sliced: Vec<Group25> = groups
            .iter()
            .map(|g| Group25 {
                entries: g.entries[piece.range(g.entries.len() as u64).start as usize
                    ..piece.range(g.entries.len() as u64).end as usize]
                    .to_vec(),
                ..g.clone()
            })
            .collect();
        let bytes = PatternFile25::piece_bytes(&goal, &sliced, piece).unwrap();
        let part = PatternFile25::parse_part(&bytes).unwrap();
        part.verify(&bytes).unwrap();
        assert_eq!(part.piece(), piece);
        assert_eq!(part.entries(&bytes, 1).len(), 40);
        assert_eq!(part.groups()[1].histogram, vec![1, 119]);
        assert_eq!(
            PatternFile25::parse(&bytes).unwrap_err(),
            Pattern25Error::APart25
        );
        assert!(PatternFile25::is_pattern25(&bytes));
        let whole = PatternFile25::to_bytes(&goal, &groups).unwrap();
        assert_eq!(
            PatternFile25::parse_part(&whole).unwrap_err(),
            Pattern25Error::NotPart25
        );
        // The whole file's header alone, for a writer that streams the entries after it.
        let header = PatternFile25::parse(&whole).unwrap();
        let alone = PatternFile25::whole_header(&goal, &groups, header.payload_crc()).unwrap();
        assert_eq!(alone[..], whole[..header.header_len() as usize]);
        // A slice of the wrong length, a part past the count.
        let e = PatternFile25::piece_bytes(&goal, &groups, piece).unwrap_err();
        assert_eq!(
            e.to_string(),
            "field entries: group 0 has 30 entries, not 10"
        );
        let e = PatternFile25::piece_bytes(&goal, &sliced, Piece25::Part { part: 3, parts: 3 })
            .unwrap_err();
        assert_eq!(e.to_string(), "field part: part 3 of 3");
        for at in 0..part.header_len() as usize {
            let mut b = bytes.clone();
            b[at] ^= 0x40;
            assert!(PatternFile25::parse_part(&b).is_err(), "byte {at}");
        }
    }
}
