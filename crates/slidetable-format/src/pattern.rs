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
//! use slidetable_format::{PatternHeader, PatternSpec, PayloadSums};
//!
//! let goal = Board::new(2, 2).unwrap().standard_goal();
//! // Tiles 1 and 2 in one group, tile 3 alone: 12 and 4 placements, of which the puzzles
//! // of one class reach 8 and 4.
//! let specs = vec![
//!     PatternSpec::new(0b0110, vec![1, 2, 2, 2, 1]),
//!     PatternSpec::new(0b1000, vec![1, 2, 1]),
//! ];
//! let header = PatternHeader::build(goal, specs, PayloadSums::Whole(0)).unwrap();
//! let mut file = header.to_bytes();
//! file.resize(header.file_len() as usize, 0);
//! let back = PatternHeader::parse(&file).unwrap();
//! assert_eq!(back.sections()[0].group(), vec![1, 2]);
//! assert_eq!(back.sections()[1].entries(), 4);
//! ```

use slidetable_core::{mask_tiles, Board, Layout, PlacementRanker};

use crate::frame::{
    histogram_shape, histogram_sum, Counted, Descriptor, Frame, Part, PayloadSums, Section,
    OFF_ENCODING,
};
use crate::{
    FormatError, GroupCover, GroupError, SectionProblem, FIXED_HEADER_LEN, MAGIC, MAX_GROUP,
};

/// The header's encoding code of a pattern database: 4-bit excess entries, one section per
/// tile group. Readers of tables of every state refuse it (`unknown entry encoding 4`).
pub const PATTERN_ENCODING: u8 = 4;
/// The largest excess an entry holds.
pub const MAX_EXCESS: u32 = 15;

/// Whether `file` claims to be a pattern database: the magic number and the pattern
/// encoding code. Says nothing of whether the rest holds; [`PatternHeader::parse`] checks.
pub fn is_pattern_file(file: &[u8]) -> bool {
    file.len() >= FIXED_HEADER_LEN && file[..8] == MAGIC && file[OFF_ENCODING] == PATTERN_ENCODING
}

/// The 4-bit excess of the entry at `rank` of a pattern payload.
///
/// # Panics
///
/// If `rank` is past the payload (the hot read of IDA*: the pattern header's check
/// guarantees the payload holds every placement of its group).
#[inline]
pub fn excess_at(payload: &[u8], rank: u32) -> u32 {
    u32::from(payload[(rank >> 1) as usize] >> ((rank & 1) * 4)) & 15
}

/// One tile group of a pattern database as its users hand it on: which tiles, and their
/// entries — from a file ([`PatternHeader::payload`]) or a search in memory, to the search
/// crate's heuristic. One type from the file to the search, never a `(mask, bytes)` pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternGroup<'a> {
    /// Bit `t` set for each tile `t` of the group.
    pub tiles: u16,
    /// The group's 4-bit entries, indexed by the placement rank of its tiles in increasing
    /// order (see [`excess_at`]).
    pub payload: &'a [u8],
}

/// Payload bytes of a section of `entries` placements: two to a byte.
pub fn pattern_payload_len(entries: u64) -> u64 {
    entries.div_ceil(2)
}

/// What the writer knows of a section before laying it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSpec {
    /// Bit `t` set for each tile `t` of the group.
    tiles: u16,
    /// `histogram[v]` = placements whose value is `v`; its last entry is the maximum's.
    histogram: Vec<u64>,
}

impl PatternSpec {
    /// The group of tile mask `tiles` (bit `t` for tile `t`) whose placements' values spread
    /// as `histogram` says (`histogram[v]` = placements of value `v`, the last the
    /// maximum's). [`PatternHeader::build`] checks it against the board and the other groups.
    pub fn new(tiles: u16, histogram: Vec<u64>) -> PatternSpec {
        PatternSpec { tiles, histogram }
    }

    /// Bit `t` set for each tile `t` of the group.
    pub fn tiles(&self) -> u16 {
        self.tiles
    }

    /// `histogram[v]` = placements whose value is `v`.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }
}

/// One tile group's section as the header describes it; its entries are reached by
/// [`PatternHeader::payload`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSection(Descriptor);

impl Section for PatternSection {
    fn new(d: Descriptor) -> Self {
        PatternSection(d)
    }

    fn descriptor(&self) -> &Descriptor {
        &self.0
    }
}

impl PatternSection {
    /// Bit `t` set for each tile `t` of the group.
    pub fn tiles(&self) -> u16 {
        self.0.tiles
    }

    /// Placements: n!/(n−k)!.
    pub fn entries(&self) -> u64 {
        self.0.entries
    }

    /// The largest value of any placement (the moves of the group's tiles, not the 4-bit
    /// excess an entry stores).
    pub fn max_value(&self) -> u32 {
        self.0.max
    }

    /// Placements per value (moves of the group's tiles), from 0 to `max_value`.
    pub fn histogram(&self) -> &[u64] {
        &self.0.histogram
    }

    /// The group's tiles in increasing order: the order whose cells are ranked.
    pub fn group(&self) -> Vec<u8> {
        mask_tiles(self.0.tiles).collect()
    }
}

/// A pattern database's header, as validated. Its fields are private: a header is only
/// made by [`PatternHeader::build`] or [`PatternHeader::parse`], both of which validate it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternHeader {
    /// The board, the sections (one per tile group), lengths and payload checksum.
    frame: Frame<PatternSection>,
}

impl PatternHeader {
    /// Lays out a file: sections in the given order, histograms after the descriptors, the
    /// payloads packed after the header. Refuses groups that overlap or leave a tile out.
    pub fn build(
        goal: Layout,
        specs: Vec<PatternSpec>,
        sums: PayloadSums,
    ) -> Result<PatternHeader, FormatError> {
        let board = goal.board();
        let mut parts = Vec::with_capacity(specs.len());
        for (index, spec) in specs.into_iter().enumerate() {
            let k = spec.tiles.count_ones() as usize;
            let entries = placements(board, k).ok_or_else(|| group_size(index, k, board))?;
            parts.push(Part {
                goal,
                tiles: spec.tiles,
                histogram: spec.histogram,
                entries,
                payload_len: pattern_payload_len(entries),
            });
        }
        PatternHeader::check(Frame::lay_out(board, parts, sums)?)
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.frame.board
    }

    /// The goal every section's values are distances to.
    pub fn goal(&self) -> &Layout {
        // Every header has a section (`check` refuses none), each with this goal.
        &self.frame.sections[0].0.goal
    }

    /// One section per tile group, in file order.
    pub fn sections(&self) -> &[PatternSection] {
        &self.frame.sections
    }

    /// The header's length in bytes.
    pub fn header_len(&self) -> u64 {
        self.frame.header_len
    }

    /// The file's length in bytes.
    pub fn file_len(&self) -> u64 {
        self.frame.file_len
    }

    /// The header's bytes (`header_len` of them), checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.frame.to_bytes(PATTERN_ENCODING, 0)
    }

    /// The bytes after the payloads: the block checksums (none in version 1).
    pub fn trailer(&self) -> Vec<u8> {
        self.frame.trailer()
    }

    /// The format version: 1 (one checksum of the whole payload) or 2 (and one per block).
    pub fn version(&self) -> u16 {
        self.frame.version
    }

    /// Reads and validates the header of a whole pattern file; never panics, and the work
    /// is bounded by the header's size.
    pub fn parse(file: &[u8]) -> Result<PatternHeader, FormatError> {
        let mut first: Option<Layout> = None;
        let (frame, ()) = Frame::read(
            file,
            |kind| {
                let (rows, cols) = (kind.rows, kind.cols);
                let board = Board::new(rows.into(), cols.into())
                    .map_err(|_| FormatError::BadPatternBoard { rows, cols })?;
                if kind.encoding != PATTERN_ENCODING {
                    return Err(FormatError::UnknownEncoding(kind.encoding));
                }
                if kind.cost != 0 {
                    return Err(FormatError::UnknownCost(kind.cost));
                }
                if kind.count == 0 || kind.count as usize >= board.cells() {
                    return Err(FormatError::BadSectionCount {
                        found: kind.count,
                        max: board.cells() - 1,
                    });
                }
                Ok((board, ()))
            },
            |index, &goal| match first {
                None => {
                    first = Some(goal);
                    Ok(())
                }
                Some(first) if first != goal => Err(FormatError::Section {
                    index,
                    problem: SectionProblem::GoalDiffers { goal, first },
                }),
                Some(_) => Ok(()),
            },
        )?;
        let mut header = PatternHeader::check(frame)?;
        header.frame.read_blocks(file)?;
        Ok(header)
    }

    /// The rules every pattern header obeys, checked by writer and reader: the groups are
    /// disjoint and cover every tile, each section has the entry count its group size gives
    /// and a histogram that adds up to it, and everything is packed in order.
    fn check(frame: Frame<PatternSection>) -> Result<PatternHeader, FormatError> {
        let board = frame.board;
        let n = board.cells();
        if frame.descriptors().any(|s| s.goal.board() != board) {
            return Err(FormatError::BadPatternBoard {
                rows: board.rows() as u8,
                cols: board.cols() as u8,
            });
        }
        // The one rule of groups (crate::groups), a section at a time.
        let mut cover = GroupCover::new(board);
        frame.check(
            n - 1,
            |s| Ok(pattern_payload_len(s.entries)),
            |index, s| {
                let bad = |problem: SectionProblem| FormatError::Section { index, problem };
                let k = cover.add(s.tiles).map_err(|e| match e {
                    GroupError::OffBoard { tiles, board, .. } => {
                        bad(SectionProblem::TilesOffBoard { tiles, board })
                    }
                    GroupError::TileTwice { tile, .. } => {
                        bad(SectionProblem::TileInTwoGroups { tile })
                    }
                    _ => group_size(index, s.tiles.count_ones() as usize, board),
                })?;
                let entries = placements(board, k).ok_or_else(|| group_size(index, k, board))?;
                if s.entries != entries {
                    return Err(bad(SectionProblem::PlacementCount {
                        entries: s.entries,
                        tiles: k,
                        board,
                        placements: entries,
                    }));
                }
                histogram_shape(&s.histogram, s.max, Counted::Values).map_err(bad)?;
                if s.histogram[0] != 1 {
                    return Err(bad(SectionProblem::HomeCount {
                        found: s.histogram[0],
                    }));
                }
                let sum = histogram_sum(&s.histogram)?;
                let reached = reachable_placements(board, k).unwrap_or(entries);
                if sum != reached {
                    return Err(bad(SectionProblem::PlacementSum {
                        sum,
                        placements: reached,
                    }));
                }
                Ok(())
            },
        )?;
        if let Err(GroupError::TileMissing { tile }) = cover.finish() {
            return Err(FormatError::TileInNoGroup {
                tile,
                last: (n - 1) as u8,
            });
        }
        frame.check_ends()?;
        Ok(PatternHeader { frame })
    }

    /// The payload bytes of section `index` within `file`, the file this header was read
    /// from; `None` if there is no such section or `file` is too short for it.
    pub fn payload<'a>(&self, file: &'a [u8], index: usize) -> Option<&'a [u8]> {
        self.frame.payload(file, index)
    }

    /// Checks the payload checksum over the whole file's payload bytes.
    pub fn verify_payload(&self, file: &[u8]) -> Result<(), FormatError> {
        self.frame.verify_payload(file)
    }

    /// How many payload blocks have their own checksum (0 in version 1).
    pub fn block_count(&self) -> u64 {
        self.frame.block_count()
    }

    /// Checks block `k` of `file`'s payload against its checksum (version 2).
    pub fn verify_block(&self, file: &[u8], k: u64) -> Result<(), FormatError> {
        self.frame.verify_block(file, k)
    }

    /// Checks that the block checksums make the whole payload's (version 2): after every
    /// block's [`verify_block`](Self::verify_block), in any order or on several threads, the
    /// payload is checked as [`verify_payload`](Self::verify_payload) checks it.
    pub fn verify_block_sums(&self, file: &[u8]) -> Result<(), FormatError> {
        self.frame.verify_block_sums(file)
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

/// Placements of a group of `k` tiles on `board` that the puzzles of one class reach (§11):
/// every placement while at least two other tiles are left to set the class's parity; with
/// one other tile, a placement whose two free cells have one colour of the board's
/// chequerboard (exactly one of its two blank cells is of the class) and half of those whose
/// free cells differ in colour (both or neither are; a swap of two group tiles tells which);
/// with none, the whole puzzle's half. `None` when the group size is not allowed.
pub fn reachable_placements(board: Board, k: usize) -> Option<u64> {
    let all = placements(board, k)?;
    let n = board.cells() as u64;
    let others = n.checked_sub(k as u64 + 1)?;
    Some(match others {
        0 => all / 2,
        1 => {
            let light = (0..board.cells())
                .filter(|&c| (c / board.cols() + c % board.cols()).is_multiple_of(2))
                .count() as u64;
            let dark = n - light;
            let same = light * light.saturating_sub(1) / 2 + dark * dark.saturating_sub(1) / 2;
            // k! arrangements of the group on each pair of free cells.
            let arrangements = all / (n * (n - 1) / 2);
            arrangements * same + arrangements * light * dark / 2
        }
        _ => all,
    })
}

fn group_size(index: usize, k: usize, board: Board) -> FormatError {
    FormatError::Section {
        index,
        problem: SectionProblem::GroupSize { tiles: k, board },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(tiles: u16, placements: u64) -> PatternSpec {
        PatternSpec::new(tiles, vec![1, placements - 1])
    }

    #[test]
    fn the_writer_names_what_is_wrong_with_the_groups_by_a_typed_error() {
        let goal = Board::new(2, 3).unwrap().standard_goal();
        let overlap = PatternHeader::build(
            goal,
            vec![spec(0b110, 30), spec(0b11_1010, 120)],
            PayloadSums::Whole(0),
        )
        .unwrap_err();
        assert_eq!(
            overlap,
            FormatError::Section {
                index: 1,
                problem: SectionProblem::TileInTwoGroups { tile: 1 },
            }
        );
        assert_eq!(
            overlap.to_string(),
            "section 1: tile 1 is in this group and an earlier one: groups must not overlap"
        );
        let missing = PatternHeader::build(
            goal,
            vec![spec(0b110, 30), spec(0b1000, 6)],
            PayloadSums::Whole(0),
        )
        .unwrap_err();
        assert_eq!(missing, FormatError::TileInNoGroup { tile: 4, last: 5 });
        assert_eq!(
            missing.to_string(),
            "tile 4 is in no group: the groups must cover tiles 1..5"
        );
        let off_board =
            PatternHeader::build(goal, vec![spec(0b100_0011_1110, 30)], PayloadSums::Whole(0))
                .unwrap_err();
        assert!(matches!(off_board, FormatError::Section { index: 0, .. }));
    }

    #[test]
    fn a_header_reads_back_as_written() {
        let goal = Board::new(2, 3).unwrap().standard_goal();
        let header = PatternHeader::build(
            goal,
            vec![spec(0b110, 30), spec(0b11_1000, 120)],
            PayloadSums::Whole(7),
        )
        .unwrap();
        let mut file = header.to_bytes();
        file.resize(header.file_len() as usize, 0);
        let back = PatternHeader::parse(&file).unwrap();
        assert_eq!(back, header);
        assert_eq!(back.goal(), &goal);
        assert_eq!(back.sections()[1].group(), vec![3, 4, 5]);
        assert_eq!(back.payload(&file, 1).map(<[u8]>::len), Some(60));
        assert_eq!(back.payload(&file, 2), None, "no third section");
        assert_eq!(
            back.payload(&file[..file.len() - 1], 1),
            None,
            "a short file"
        );
    }
}
