//! Additive pattern databases: for one group of tiles, the fewest moves of that group's tiles
//! that bring them home from every placement, by a reverse 0-1 breadth-first search.
//!
//! The searched state is (placement of the group's tiles, cell of the blank). Moving a
//! group tile costs 1; moving any other tile costs 0, so every cell the blank reaches over
//! cells the group does not occupy belongs to one state of equal cost: the search works on
//! those regions, cost level by cost level. For each placement it keeps a 16-bit mask of the
//! blank cells already reached (`visited`) and one bit per placement for the levels being
//! expanded and filled (`current`, `next`). Expanding a placement of the current level
//! moves each group tile that touches a reached region into it; the tile's old cell seeds
//! the child's region, flood-filled over the cells the group leaves free. A placement's
//! value is the level at which any of its regions is first reached: the minimum over blank
//! cells. For the 8-tile group of the 15-puzzle that is 1.04 GB of masks, 130 MB of level
//! bits and 260 MB of entries.
//!
//! A child is ranked from its parent's rank (`PlacementRanker::moved_rank`) and tested on
//! one bit before anything else: its region holds the tile's old cell, and a mask holds whole
//! regions, so that bit says whether the child was reached there already; only a new region
//! is flood-filled. Most children are old (about six in seven on the 15-puzzle's 6-tile
//! groups), so the search's cost is mostly ranking and that one read.
//!
//! Every level is expanded on every core (rayon), in work items small enough that even a
//! small board's space is cut into many, placements compared and set by atomic operations,
//! so the values do not depend on the number of threads.

use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{
    each_set_bit, mask_tiles, AtomicBitmap, Board, Layout, PlacementRanker, MAX_CELLS,
};
use slidetable_format::{
    check_group, check_groups, pattern_payload_len, GroupError, PatternGroup, MAX_EXCESS, MAX_GROUP,
};

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
/// [`write_pattern_table`](crate::engine::write_pattern_table) makes a file's pattern section of it
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

/// The cells of `board` as bit masks, for flood fills and neighbours.
#[derive(Clone, Copy)]
struct Geometry {
    cols: usize,
    all: u32,
    /// Cells not in the leftmost / rightmost column.
    not_left: u32,
    not_right: u32,
    /// `next_to[c]`: the cells next to cell `c`.
    next_to: [u32; MAX_CELLS],
}

impl Geometry {
    fn new(board: Board) -> Geometry {
        let n = board.cells();
        let cols = board.cols();
        let mut not_left = 0;
        let mut not_right = 0;
        for c in 0..n {
            if c % cols != 0 {
                not_left |= 1 << c;
            }
            if c % cols != cols - 1 {
                not_right |= 1 << c;
            }
        }
        let mut geo = Geometry {
            cols,
            all: (1 << n) - 1,
            not_left,
            not_right,
            next_to: [0; MAX_CELLS],
        };
        for c in 0..n {
            geo.next_to[c] = geo.spread(1 << c);
        }
        geo
    }

    /// Cells next to any cell of `m`.
    #[inline]
    fn spread(&self, m: u32) -> u32 {
        (((m & self.not_right) << 1)
            | ((m & self.not_left) >> 1)
            | (m << self.cols)
            | (m >> self.cols))
            & self.all
    }

    /// The cells of `free` connected to `seed` (which must be in `free`).
    #[inline]
    fn region(&self, seed: u32, free: u32) -> u32 {
        let mut m = seed;
        loop {
            let grown = (m | self.spread(m)) & free;
            if grown == m {
                return m;
            }
            m = grown;
        }
    }
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
    let geo = Geometry::new(board);
    let md = goal.manhattan_table();
    let mut home = [0u8; MAX_GROUP];
    for (i, &t) in group.iter().enumerate() {
        home[i] = goal
            .tiles()
            .iter()
            .position(|&x| x == t)
            .expect("tile on board") as u8;
    }

    let visited: Vec<AtomicU16> = (0..count).map(|_| AtomicU16::new(0)).collect();
    let mut current = AtomicBitmap::new(count);
    let mut next = AtomicBitmap::new(count);
    let entries: Vec<AtomicU8> = (0..pattern_payload_len(count as u64))
        .map(|_| AtomicU8::new(0))
        .collect();

    let start = ranker.rank(&home[..k]);
    let occupied = home[..k].iter().fold(0u32, |m, &c| m | 1 << c);
    let region = geo.region(1 << goal.blank(), geo.all & !occupied);
    visited[start as usize].store(region as u16, Relaxed);
    current.set(u64::from(start));
    let mut histogram = vec![1u64];
    progress(1);
    // Set when a value does not fit its entry (or breaks the parity argument).
    let overflow = AtomicU64::new(u64::MAX);

    // Bitmap words a parallel work item scans: 256 (16,384 placements) on the 15-puzzle's
    // spaces, fewer on small ones, so that they too are expanded in many items at once.
    let chunk = (current.words().len() / (16 * rayon::current_num_threads().max(1))).clamp(1, 256);
    let mut level = 0u32;
    loop {
        let child_level = level + 1;
        let settled: u64 = current
            .words()
            .par_chunks(chunk)
            .enumerate()
            .map(|(item, words)| {
                let mut settled = 0u64;
                let mut cells = [0u8; MAX_GROUP];
                for (w, word) in words.iter().enumerate() {
                    each_set_bit(item * chunk + w, word.load(Relaxed), |p| {
                        let occupied = ranker.unrank(p as u32, &mut cells[..k]);
                        let mut slot_at = [0u8; MAX_CELLS];
                        for (slot, &c) in cells[..k].iter().enumerate() {
                            slot_at[c as usize] = slot as u8;
                        }
                        let reached = u32::from(visited[p as usize].load(Relaxed));
                        for i in 0..k {
                            let from = cells[i] as usize;
                            let mut into = geo.next_to[from] & reached;
                            while into != 0 {
                                let to = into.trailing_zeros() as usize;
                                into &= into - 1;
                                let child =
                                    ranker.moved_rank(p as u32, i, from, to, occupied, |x| {
                                        usize::from(slot_at[x])
                                    }) as usize;
                                if visited[child].load(Relaxed) & (1 << from) != 0 {
                                    continue;
                                }
                                let free = geo.all & !(occupied & !(1 << from) | 1 << to);
                                let region = geo.region(1 << from, free) as u16;
                                let before = visited[child].fetch_or(region, Relaxed);
                                if before & region != 0 {
                                    continue;
                                }
                                next.set(child as u64);
                                if before != 0 {
                                    continue;
                                }
                                settled += 1;
                                let mut dist = 0u32;
                                for (j, &c) in cells[..k].iter().enumerate() {
                                    let c = if j == i { to } else { c as usize };
                                    dist += u32::from(md[group[j] as usize][c]);
                                }
                                let excess = (child_level - dist.min(child_level)) / 2;
                                if dist > child_level
                                    || !(child_level - dist).is_multiple_of(2)
                                    || excess > MAX_EXCESS
                                {
                                    overflow.fetch_min(child as u64, Relaxed);
                                }
                                let shift = (child & 1) * 4;
                                entries[child / 2]
                                    .fetch_or((excess.min(MAX_EXCESS) as u8) << shift, Relaxed);
                            }
                        }
                    });
                }
                progress(settled);
                settled
            })
            .sum();
        let bad = overflow.load(Relaxed);
        if bad != u64::MAX {
            let mut cells = [0u8; MAX_GROUP];
            ranker.unrank(bad as u32, &mut cells[..k]);
            return Err(GenError::PatternTooDeep {
                group,
                cells: cells[..k].to_vec(),
                moves: child_level,
                most: 2 * MAX_EXCESS,
            });
        }
        if settled == 0 && next.words().par_iter().all(|w| w.load(Relaxed) == 0) {
            break;
        }
        histogram.push(settled);
        std::mem::swap(&mut current, &mut next);
        next.clear();
        level = child_level;
    }
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    drop(visited);
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
/// ([`check_pattern_room`](crate::room::check_pattern_room)).
pub fn solve_partition(
    goal: &Layout,
    partition: &Partition,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<SolvedPattern>, GenError> {
    crate::room::check_pattern_room(goal.board(), partition, None)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern_bytes;

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
