//! Additive pattern databases of boards of up to 16 cells: for one group of tiles, the fewest
//! moves of that group's tiles that bring them home from every placement, by the reverse 0-1
//! breadth-first search every pattern database is built by ([`crate::pattern_search`]),
//! with a 16-bit mask of blank cells a placement. Each placement stores its moves above the
//! group's Manhattan distance, halved, in 4 bits. For the 8-tile group of the 15-puzzle that
//! is 1.04 GB of masks, 130 MB of level bits and 260 MB of entries.

use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

use slidetable_core::{mask_tiles, Board, Layout, PlacementRanker, MAX_CELLS};
use slidetable_format::{
    check_group, check_groups, pattern_payload_len, GroupError, PatternGroup, MAX_EXCESS, MAX_GROUP,
};

use crate::pattern_search::{search_placements, Geometry, Settled, Whole};
use crate::room::{available_disk, checked_memory, Needs};
use crate::GenError;

/// A partition of the tiles into groups, written `7-8`, `5-5-5`, `6-6-3` or by listing the
/// tiles of each group (`1,2,5/3,4,6,7,8`). Only [`Partition::parse`] and [`Partition::new`]
/// make one, so its groups always partition the board's tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// One mask per group: bit `t` for tile `t`.
    groups: Vec<u16>,
}

/// Why a partition was refused. `text` is the partition as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PartitionError {
    /// A listed tile is no number.
    #[error("partition '{text}': '{token}' is not a tile number")]
    NotATile {
        /// The partition as given.
        text: String,
        /// The token that is no number.
        token: String,
    },
    /// A listed tile is not on the board.
    #[error("partition '{text}': tile {tile} is not on the board (1..{last})")]
    TileOffBoard {
        /// The partition as given.
        text: String,
        /// The tile.
        tile: usize,
        /// The board's last tile.
        last: usize,
    },
    /// A group size is no number.
    #[error("partition '{text}': '{token}' is not a group size")]
    NotASize {
        /// The partition as given.
        text: String,
        /// The token that is no number.
        token: String,
    },
    /// The group sizes are 0 or add up to more than the board's tiles.
    #[error("partition '{text}': group sizes must be at least 1 and add up to {tiles} tiles")]
    BadSizes {
        /// The partition as given.
        text: String,
        /// The board's tile count.
        tiles: usize,
    },
    /// A group has no tiles.
    #[error("partition '{text}': a group has no tiles")]
    EmptyGroup {
        /// The partition as given.
        text: String,
    },
    /// A group has more tiles than a database holds.
    #[error("partition '{text}': a group of {tiles} tiles is too large (at most {MAX_GROUP})")]
    GroupTooLarge {
        /// The partition as given.
        text: String,
        /// The group's tile count.
        tiles: usize,
    },
    /// A tile is in two groups.
    #[error("partition '{text}': tile {tile} is in two groups")]
    TileTwice {
        /// The partition as given.
        text: String,
        /// The first such tile.
        tile: u8,
    },
    /// A tile is in no group.
    #[error("partition '{text}': tile {tile} is in no group")]
    TileMissing {
        /// The partition as given.
        text: String,
        /// The first such tile.
        tile: u8,
    },
    /// Any other way the groups fail [`slidetable_format::check_groups`].
    #[error("partition '{text}': {problem}")]
    Groups {
        /// The partition as given.
        text: String,
        /// What is wrong with the groups.
        problem: GroupError,
    },
}

impl Partition {
    /// Reads a partition of the tiles of a board with `goal`'s size. Group sizes (`7-8`)
    /// take tiles in the order of their goal cells, reading order from the top left, so
    /// `7-8` on the 15-puzzle with the blank top-left is 1..7 and 8..15. Explicit groups
    /// (`1,2,3/4,5,6,7/8`) name tiles of the goal.
    pub fn parse(text: &str, goal: &Layout) -> Result<Partition, PartitionError> {
        let text_owned = || text.to_string();
        let n = goal.board().cells();
        let mut groups = Vec::new();
        if text.contains(['/', ',']) {
            for part in text.split('/') {
                let mut mask = 0u16;
                for tok in part.split(',') {
                    let t: usize = tok.trim().parse().map_err(|_| PartitionError::NotATile {
                        text: text_owned(),
                        token: tok.to_string(),
                    })?;
                    if t == 0 || t >= n {
                        return Err(PartitionError::TileOffBoard {
                            text: text_owned(),
                            tile: t,
                            last: n - 1,
                        });
                    }
                    mask |= 1 << t;
                }
                groups.push(mask);
            }
        } else {
            let order: Vec<u8> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
            let mut at = 0;
            for part in text.split('-') {
                let k: usize = part.trim().parse().map_err(|_| PartitionError::NotASize {
                    text: text_owned(),
                    token: part.to_string(),
                })?;
                // `at` never passes `order.len()`, so the subtraction cannot wrap.
                if k == 0 || k > order.len() - at {
                    return Err(PartitionError::BadSizes {
                        text: text_owned(),
                        tiles: n - 1,
                    });
                }
                groups.push(order[at..at + k].iter().fold(0, |m, &t| m | 1 << t));
                at += k;
            }
        }
        Partition::checked(text, goal.board(), groups)
    }

    /// A partition of `board`'s tiles from one mask per group (bit `t` for tile `t`):
    /// disjoint groups of 1..=[`MAX_GROUP`] tiles covering tiles 1..n−1. An error names the
    /// partition by its explicit listing (`1,2/3`).
    pub fn new(board: Board, groups: Vec<u16>) -> Result<Partition, PartitionError> {
        let text = groups
            .iter()
            .map(|&g| {
                let tiles: Vec<String> = group_tiles(g).iter().map(u8::to_string).collect();
                tiles.join(",")
            })
            .collect::<Vec<_>>()
            .join("/");
        Partition::checked(&text, board, groups)
    }

    /// The groups after the one check every partition passes
    /// ([`slidetable_format::check_groups`]).
    fn checked(text: &str, board: Board, groups: Vec<u16>) -> Result<Partition, PartitionError> {
        let text = text.to_string();
        check_groups(board, &groups).map_err(|e| match e {
            GroupError::OffBoard { tiles, board, .. } => PartitionError::TileOffBoard {
                text,
                tile: (tiles & !(((1u32 << board.cells()) - 1) & !1) as u16).trailing_zeros()
                    as usize,
                last: board.cells() - 1,
            },
            GroupError::TileTwice { tile, .. } => PartitionError::TileTwice { text, tile },
            GroupError::BadSize { tiles: 0, .. } => PartitionError::EmptyGroup { text },
            GroupError::BadSize { tiles, .. } => PartitionError::GroupTooLarge { text, tiles },
            GroupError::TileMissing { tile } => PartitionError::TileMissing { text, tile },
            problem => PartitionError::Groups { text, problem },
        })?;
        Ok(Partition { groups })
    }

    /// One mask per group: bit `t` for tile `t`.
    pub fn groups(&self) -> &[u16] {
        &self.groups
    }

    /// The group sizes, `7-8` style.
    pub fn sizes(&self) -> String {
        slidetable_format::group_sizes(self.groups.iter().copied())
    }
}

/// One solved group's database, in memory: its entries as the file stores them (4-bit excess
/// over the group's Manhattan distance, two to a byte) and the histogram of its values.
/// The writer's `write_pattern_table` makes a file's pattern section of it
/// (the format crate's `PatternSection`).
#[derive(Clone, Debug)]
pub struct SolvedPattern {
    /// The goal the values are distances to.
    pub goal: Layout,
    /// Bit `t` set for each tile `t` of the group.
    pub tiles: u16,
    /// The packed entries, in placement-rank order.
    pub entries: Vec<u8>,
    /// `histogram[v]` = placements whose value is `v`.
    pub histogram: Vec<u64>,
}

impl SolvedPattern {
    /// The group and its entries, as the search crate's heuristic takes them.
    pub fn as_group(&self) -> PatternGroup<'_> {
        PatternGroup {
            tiles: self.tiles,
            payload: &self.entries,
        }
    }

    /// The group's tiles in increasing order (the order their cells are ranked in).
    pub fn group(&self) -> Vec<u8> {
        group_tiles(self.tiles)
    }
}

fn group_tiles(mask: u16) -> Vec<u8> {
    mask_tiles(mask).collect()
}

/// Solves one group's database towards `goal` (any layout of a board of up to 16 cells),
/// reporting placements as they are settled to `progress`.
pub fn solve_pattern(
    goal: &Layout,
    tiles: u16,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SolvedPattern, GenError> {
    let board = goal.board();
    let n = board.cells();
    let group = group_tiles(tiles);
    let k = group.len();
    if check_group(board, 0, tiles).is_err() {
        return Err(GenError::GroupNotOnBoard { group, board });
    }
    let ranker = PlacementRanker::new(n, k).map_err(|problem| GenError::GroupPlacements {
        group: group.clone(),
        problem,
    })?;
    let count = ranker.count() as usize;
    let geo = Geometry::<MAX_CELLS>::new(board.rows(), board.cols());
    let md = goal.manhattan_table();
    let mut home = [0u8; MAX_GROUP];
    for (i, &t) in group.iter().enumerate() {
        home[i] = goal
            .tiles()
            .iter()
            .position(|&x| x == t)
            .expect("tile on board") as u8;
    }
    let entries: Vec<AtomicU8> = (0..pattern_payload_len(count as u64))
        .map(|_| AtomicU8::new(0))
        .collect();
    // Set when a value does not fit its entry (or breaks the parity argument).
    let overflow = AtomicU64::new(u64::MAX);
    // A placement's entry: its moves above the group's Manhattan distance, halved (the
    // start's is 0, as the entries begin).
    let settle = |s: Settled<'_>| {
        let mut dist = 0u32;
        for (j, &c) in s.cells.iter().enumerate() {
            let c = if j == s.moved { s.to } else { c as usize };
            dist += u32::from(md[group[j] as usize][c]);
        }
        let excess = (s.level - dist.min(s.level)) / 2;
        if dist > s.level || !(s.level - dist).is_multiple_of(2) || excess > MAX_EXCESS {
            overflow.fetch_min(s.rank, Relaxed);
        }
        let shift = (s.rank & 1) * 4;
        entries[(s.rank / 2) as usize].fetch_or((excess.min(MAX_EXCESS) as u8) << shift, Relaxed);
    };
    let level_done = |level: u32, _finished: bool| {
        let bad = overflow.load(Relaxed);
        if bad == u64::MAX {
            return Ok(());
        }
        let mut cells = [0u8; MAX_GROUP];
        ranker.unrank(bad as u32, &mut cells[..k]);
        Err(GenError::PatternTooDeep {
            group: group.clone(),
            cells: cells[..k].to_vec(),
            moves: level,
            most: 2 * MAX_EXCESS,
        })
    };
    let histogram = search_placements::<MAX_CELLS, AtomicU16, _, _>(
        &geo,
        &ranker,
        &home[..k],
        goal.blank(),
        &mut Whole::new(count as u64),
        progress,
        settle,
        level_done,
    )?;
    let entries = entries.into_iter().map(AtomicU8::into_inner).collect();
    Ok(SolvedPattern {
        goal: *goal,
        tiles,
        entries,
        histogram,
    })
}

/// Solves every group of `partition` towards `goal`, one group after another (each on
/// every core, so memory holds one search at a time), reporting settled placements. Refused
/// first when the machine has less memory than the largest search needs
/// ([`check_pattern_room`]).
pub fn solve_partition(
    goal: &Layout,
    partition: &Partition,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<SolvedPattern>, GenError> {
    check_pattern_room(goal.board(), partition, None)?;
    partition
        .groups
        .iter()
        .map(|&g| solve_pattern(goal, g, progress))
        .collect()
}

/// Placements all of `partition`'s searches settle: the total to show progress against.
pub fn partition_placements(board: Board, partition: &Partition) -> u64 {
    partition
        .groups
        .iter()
        .filter_map(|g| PlacementRanker::new(board.cells(), g.count_ones() as usize).ok())
        .map(|r| u64::from(r.count()))
        .sum()
}

/// What building the pattern databases of `partition` on `board` needs, in bytes. The groups
/// are searched one after another (`solve_partition`), each in its placements' blank masks
/// (2 bytes a placement), two level bitmaps and its entries (4 bits a placement), while the
/// entries of the groups before it stay in memory: the memory is the largest such sum, the
/// disk the entries of every group.
pub fn pattern_needs(board: Board, partition: &Partition) -> Needs {
    let mut kept = 0u64;
    let mut peak = 0u64;
    for &group in partition.groups() {
        let placements = PlacementRanker::new(board.cells(), group.count_ones() as usize)
            .map_or(u64::MAX, |r| u64::from(r.count()));
        let entries = pattern_payload_len(placements);
        let bitmap = placements.div_ceil(64).saturating_mul(8);
        let search = placements
            .saturating_mul(2)
            .saturating_add(bitmap.saturating_mul(2))
            .saturating_add(entries);
        peak = peak.max(kept.saturating_add(search));
        kept = kept.saturating_add(entries);
    }
    Needs {
        memory: peak,
        disk: kept,
    }
}

/// Refuses to build `partition`'s pattern databases for `board` with
/// [`GenError::NoRoomForPatterns`] when the machine has less memory than they need, or `dir`
/// (where the file is written; `None` when they stay in memory) less disk space.
pub fn check_pattern_room(
    board: Board,
    partition: &Partition,
    dir: Option<&Path>,
) -> Result<Needs, GenError> {
    let needs = pattern_needs(board, partition);
    let refuse = |what: &'static str, need: u64, (available, origin): (u64, String)| {
        Err(GenError::NoRoomForPatterns {
            board,
            partition: partition.sizes(),
            what,
            need,
            available,
            origin,
        })
    };
    if let Some(available) = checked_memory()? {
        if needs.memory > available.0 {
            return refuse("memory", needs.memory, available);
        }
    }
    if let Some(available) = dir.map(available_disk).transpose()?.flatten() {
        if needs.disk > available.0 {
            return refuse("disk space", needs.disk, available);
        }
    }
    Ok(needs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern_bytes;

    #[test]
    fn a_partition_needs_its_largest_search_and_every_entry() {
        let board = Board::new(4, 4).unwrap();
        let goal = board.goal_with_blank(0);
        let needs = |text| pattern_needs(board, &Partition::parse(text, &goal).unwrap());
        // 7-8: 57,657,600 placements of 7 tiles (28.8 MB of entries) kept while the 8 tiles'
        // 518,918,400 placements are searched: 1.04 GB of masks, 2 x 64.9 MB of level bits and
        // 259.5 MB of entries.
        let n7 = 57_657_600u64;
        let n8 = 518_918_400u64;
        assert_eq!(
            needs("7-8"),
            Needs {
                memory: n7 / 2 + 2 * n8 + 2 * (n8 / 8) + n8 / 2,
                disk: n7 / 2 + n8 / 2,
            }
        );
        assert_eq!(crate::scale::human(needs("7-8").memory), "1.5 GB");
        // 9-6: the 9 tiles' 4,151,347,200 placements, searched first: 8.3 GB of masks alone.
        let n9 = 4_151_347_200u64;
        assert_eq!(needs("9-6").memory, 2 * n9 + 2 * (n9 / 8) + n9 / 2);
        assert_eq!(crate::scale::human(needs("9-6").memory), "11.4 GB");
        // Five tiles: 524,160 placements each; the third search keeps the first two's entries.
        let n5 = 524_160u64;
        assert_eq!(
            needs("5-5-5").memory,
            2 * (n5 / 2) + 2 * n5 + 2 * (n5 / 8) + n5 / 2
        );
    }

    #[test]
    fn refusals_are_typed() {
        let goal = Board::EIGHT.standard_goal();
        let e = solve_pattern(&goal, 1 << 9, &|_| {}).unwrap_err();
        assert!(
            matches!(&e, GenError::GroupNotOnBoard { group, board } if group == &[9] && *board == Board::EIGHT),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "a group of tiles [9] is not possible on a 3x3 board"
        );
        assert!(matches!(pattern_bytes(&[]), Err(GenError::NoGroups)));
        let a = solve_pattern(&goal, 0b110, &|_| {}).unwrap();
        let other = Board::EIGHT.goal_with_blank(0);
        let b = solve_pattern(&other, 0b11000, &|_| {}).unwrap();
        let e = pattern_bytes(&[a, b]).unwrap_err();
        assert!(
            matches!(e, GenError::MixedGoals { expected, found } if expected == goal && found == other),
            "{e}"
        );
    }
}
