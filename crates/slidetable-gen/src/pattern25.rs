//! Additive pattern databases of boards of up to 25 cells (the 24-puzzle's), by the one
//! reverse 0-1 breadth-first search the 15-puzzle's are built by ([`crate::pattern_search`]):
//! what differs is only the width. 25 cells need a 32-bit mask of blank cells a placement
//! (510 MB for a 6-tile group's 127,512,000 placements) and a byte an entry, which holds the
//! value itself. The values (and the file) do not depend on the number of threads.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering::Relaxed};

use slidetable_core::{placement_count, Layout25, PlacementRank, Placements, MAX_CELLS_25};
use slidetable_format::{Group25, UNREACHED_25};

use crate::pattern_search::{search_placements, Geometry, Meet, Settled, Whole, CHILD_LOW_BITS};
use crate::room::{checked_memory, human};

/// The most tiles a group of a 25-cell board may have: 25!/12! ≈ 3.2·10¹⁶ placements, whose
/// ranks still fit 64 bits with the bits a child carries between the processes of a build in
/// parts (`pattern_search::CHILD_LOW_BITS`). Groups of up to 7 tiles rank in 32 bits
/// (25!/18! = 2,422,728,000 placements), larger ones in 64 (8 tiles: 25!/17! ≈ 4.36·10¹⁰).
pub const MAX_GROUP_25: usize = 13;

/// A partition of a board's tiles into groups (bit `t` of a mask for tile `t`), for boards
/// of up to 25 cells. Made only by [`Partition25::parse`] and [`Partition25::new`], so its
/// groups always partition the tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition25 {
    groups: Vec<u32>,
}

/// Korf and Felner's 6-6-6-6 partition of the 24-puzzle (goal with the blank top-left;
/// "Disjoint pattern database heuristics", AIJ 134, 2002): a 2×3 block in each of three
/// corners and the six tiles around the blank.
///
/// ```text
///  .  A  B  B  B
///  A  A  B  B  B
///  A  A  A  C  C
///  D  D  D  C  C
///  D  D  D  C  C
/// ```
pub const KORF_FELNER_6666: [&[u8]; 4] = [
    &[1, 5, 6, 10, 11, 12],
    &[2, 3, 4, 7, 8, 9],
    &[13, 14, 18, 19, 23, 24],
    &[15, 16, 17, 20, 21, 22],
];

/// Why a partition or a build of 25-cell pattern databases was refused, or failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Pattern25Error {
    /// The partition's text or groups are not a partition of the tiles.
    #[error("partition '{text}': {problem}")]
    Partition {
        /// The partition as given.
        text: String,
        /// What is wrong.
        problem: String,
    },
    /// The machine has less memory or disk space than the build needs.
    #[error(
        "the {partition} pattern databases of {rows}x{cols} need {} of {what}{}, but {} is \
         available ({origin}); {}",
        human(*need),
        on_processes(*parts, *here),
        human(*available),
        smaller(what, *parts, *need)
    )]
    NoRoom {
        /// The partition's group sizes.
        partition: String,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
        /// "memory" or "disk space".
        what: &'static str,
        /// Bytes needed (by every process of the build on this machine).
        need: u64,
        /// Bytes available.
        available: u64,
        /// Where the available figure comes from.
        origin: String,
        /// The processes of the build (1: not in parts).
        parts: u32,
        /// How many of them share this machine.
        here: u32,
    },
    /// A variable of the environment that sets the memory or disk figure is no number, or
    /// the file could not be written (the table writer's errors).
    #[error(transparent)]
    Gen(#[from] crate::GenError),
    /// The groups do not make a file (the format's checks).
    #[error(transparent)]
    Format(#[from] slidetable_format::Pattern25Error),
    /// A build (in parts, or in one process) stopped after a group's checkpoints because
    /// its caller asked (`Parts25Event::Saved`); the checkpoints are kept.
    #[error(
        "stopped after group {group}; run the same command again to resume (checkpoints in {})",
        dir.display()
    )]
    Stopped {
        /// The group's index in the partition.
        group: usize,
        /// The directory of the checkpoints (of the parts, or the file's).
        dir: PathBuf,
    },
}

/// What building 5-5-5-5-4 on 5×5 needs in memory, for a refusal's suggestion.
fn five_fives_memory() -> u64 {
    Layout25::goal_with_blank(5, 5, 0)
        .and_then(|goal| Partition25::parse("5-5-5-5-4", &goal).ok())
        .map_or(0, |p| pattern25_needs(25, &p).0)
}

/// How a refusal names the processes of a build in parts: nothing for one.
fn on_processes(parts: u32, here: u32) -> String {
    match (parts, here) {
        (0 | 1, _) => String::new(),
        (_, 0 | 1) => format!(" a process of {parts}"),
        _ => format!(" for the {here} of its {parts} processes on this machine"),
    }
}

/// What a refusal of `need` bytes suggests: smaller groups (where 5-5-5-5-4 needs less),
/// and for memory a build in (more) parts.
fn smaller(what: &str, parts: u32, need: u64) -> String {
    let fives = five_fives_memory();
    let groups = if what == "memory" && fives >= need {
        String::new()
    } else {
        format!("smaller groups need less (5-5-5-5-4: {})", human(fives))
    };
    let parts = match (what, parts) {
        ("memory", 0 | 1) => {
            "a build in parts less a process (--parts DIR on several \
                              machines; --plan --processes N gives a process's figures)"
        }
        ("memory", _) => {
            "more processes less each (--plan --processes N gives a process's \
                          figures)"
        }
        _ => "",
    };
    match (groups.is_empty(), parts.is_empty()) {
        (false, false) => format!("{groups}, and {parts}"),
        (false, true) => groups,
        _ => parts.to_string(),
    }
}

impl Partition25 {
    /// Reads a partition of the tiles of `goal`'s board: `6-6-6-6` on 5×5 is Korf and
    /// Felner's ([`KORF_FELNER_6666`]); other group sizes (`5-5-5-5-4`) take tiles in the
    /// order of their goal cells, reading order; explicit groups (`1,2,5/3,4,…`) name
    /// tiles.
    pub fn parse(text: &str, goal: &Layout25) -> Result<Partition25, Pattern25Error> {
        let bad = |problem: String| Pattern25Error::Partition {
            text: text.to_string(),
            problem,
        };
        let n = goal.cells();
        let mut groups = Vec::new();
        if text.contains(['/', ',']) {
            for part in text.split('/') {
                let mut mask = 0u32;
                for tok in part.split(',') {
                    let t: usize = tok
                        .trim()
                        .parse()
                        .map_err(|_| bad(format!("'{tok}' is not a tile number")))?;
                    if t == 0 || t >= n {
                        return Err(bad(format!("tile {t} is not on the board (1..{})", n - 1)));
                    }
                    mask |= 1 << t;
                }
                groups.push(mask);
            }
        } else if text == "6-6-6-6" && (goal.rows(), goal.cols()) == (5, 5) && goal.blank() == 0 {
            groups = KORF_FELNER_6666
                .iter()
                .map(|g| g.iter().fold(0u32, |m, &t| m | 1 << t))
                .collect();
        } else {
            let order: Vec<u8> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
            let mut at = 0;
            for part in text.split('-') {
                let k: usize = part
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("'{part}' is not a group size")))?;
                if k == 0 || k > order.len() - at {
                    return Err(bad(format!(
                        "group sizes must be at least 1 and add up to {} tiles",
                        n - 1
                    )));
                }
                groups.push(order[at..at + k].iter().fold(0, |m, &t| m | 1 << t));
                at += k;
            }
        }
        Partition25::checked(text, n, groups)
    }

    /// A partition of the tiles of a board of `cells` cells from one mask per group.
    pub fn new(cells: usize, groups: Vec<u32>) -> Result<Partition25, Pattern25Error> {
        let text = groups
            .iter()
            .map(|&g| {
                let tiles: Vec<String> = (0..32)
                    .filter(|t| g & (1 << t) != 0)
                    .map(|t| t.to_string())
                    .collect();
                tiles.join(",")
            })
            .collect::<Vec<_>>()
            .join("/");
        Partition25::checked(&text, cells, groups)
    }

    fn checked(text: &str, n: usize, groups: Vec<u32>) -> Result<Partition25, Pattern25Error> {
        let bad = |problem: String| Pattern25Error::Partition {
            text: text.to_string(),
            problem,
        };
        let all = ((1u64 << n) - 2) as u32;
        let mut seen = 0u32;
        for &g in &groups {
            let k = g.count_ones() as usize;
            if k == 0 {
                return Err(bad("a group has no tiles".into()));
            }
            if k > MAX_GROUP_25 || placement_count(n, k) << CHILD_LOW_BITS >> 64 != 0 {
                return Err(bad(format!(
                    "a group of {k} tiles has {} placements on {n} cells, too many to rank \
                     (at most {MAX_GROUP_25} tiles: {})",
                    placement_count(n, k),
                    placements(n, MAX_GROUP_25)
                )));
            }
            if g & seen != 0 {
                return Err(bad(format!(
                    "tile {} is in two groups",
                    (g & seen).trailing_zeros()
                )));
            }
            seen |= g;
        }
        if seen & !all != 0 {
            return Err(bad("a tile is off the board".into()));
        }
        if seen != all {
            return Err(bad(format!(
                "tile {} is in no group",
                (all & !seen).trailing_zeros()
            )));
        }
        Ok(Partition25 { groups })
    }

    /// One mask per group.
    pub fn groups(&self) -> &[u32] {
        &self.groups
    }

    /// The group sizes, `6-6-6-6` style.
    pub fn sizes(&self) -> String {
        let sizes: Vec<String> = self
            .groups
            .iter()
            .map(|g| g.count_ones().to_string())
            .collect();
        sizes.join("-")
    }
}

/// Placements of a group of `k` tiles on `cells` cells, `cells!/(cells−k)!` (`u64::MAX` past
/// it, as no memory holds them).
fn placements(cells: usize, k: usize) -> u64 {
    u64::try_from(placement_count(cells, k)).unwrap_or(u64::MAX)
}

/// Placements the 24-puzzle's builder settles in a CPU-second, measured: Korf and Felner's
/// 6-6-6-6 (510,048,000 placements) in 96.3 CPU-seconds (BENCHMARKS.md). Larger groups are
/// no faster (their masks are further apart in memory), so a plan's time from it is a floor.
pub const PLACEMENTS_PER_CPU_SECOND_25: u64 = 5_300_000;

/// What a partition's build takes, for `generate --plan`: on one process, or on each of the
/// processes of a build in parts (also for groups too large for this machine's memory,
/// whose figures a build elsewhere needs).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan25 {
    /// The group sizes, `8-8-8` style.
    pub sizes: String,
    /// How many groups.
    pub groups: usize,
    /// The processes the figures are for (1: the build on one machine).
    pub parts: u32,
    /// Placements of every group together.
    pub placements: u64,
    /// Bytes of memory a process needs at its peak (as [`pattern25_needs_in_parts`] counts
    /// them).
    pub memory: u64,
    /// Bytes of the file's entries (of every part together).
    pub disk: u64,
    /// CPU-seconds at least, every process together, at [`PLACEMENTS_PER_CPU_SECOND_25`].
    pub cpu_seconds: f64,
    /// Whether some group's placements rank in 64 bits (more than 2³²).
    pub wide: bool,
}

/// The figures of building `text`'s partition of `goal`'s tiles on `parts` processes.
pub fn plan25(text: &str, goal: &Layout25, parts: u32) -> Result<Plan25, Pattern25Error> {
    let partition = Partition25::parse(text, goal)?;
    let (memory, disk) = pattern25_needs_in_parts(goal.cells(), &partition, parts);
    let placements = partition25_placements(goal.cells(), &partition);
    Ok(Plan25 {
        sizes: partition.sizes(),
        groups: partition.groups().len(),
        parts: parts.max(1),
        placements,
        memory,
        disk,
        cpu_seconds: placements as f64 / PLACEMENTS_PER_CPU_SECOND_25 as f64,
        wide: partition
            .groups()
            .iter()
            .any(|g| placement_count(goal.cells(), g.count_ones() as usize) > u128::from(u32::MAX)),
    })
}

/// What building `partition`'s databases on a board of `cells` cells needs in one process:
/// [`pattern25_needs_in_parts`] with one part.
pub fn pattern25_needs(cells: usize, partition: &Partition25) -> (u64, u64) {
    pattern25_needs_in_parts(cells, partition, 1)
}

/// Bytes of the children one window of a build in parts makes for other parts, every part
/// together at most (`window_words` bounds a window by it): what a swap holds.
pub const SWAP_BYTES: u64 = 1 << 26;

/// Frontier words (64 placements each) a window of a build of groups of `k` tiles in `parts`
/// parts expands before the parts swap: each placement makes at most 4 children a tile, 8
/// bytes each, so the window's children, every part's together, stay within [`SWAP_BYTES`].
pub(crate) fn window_words(k: usize, parts: u32) -> usize {
    let per_word = 64 * 4 * k.max(1) as u64 * 8 * u64::from(parts.max(1));
    (SWAP_BYTES / per_word).max(1) as usize
}

/// What building `partition`'s databases on a board of `cells` cells needs on each of
/// `parts` processes (1: one machine), the one model of the memory check and of `--plan`:
/// memory (the largest slice a process searches of a group — its blank masks, 4 bytes a
/// placement, two level bitmaps and its entries — plus its slices of the groups before it,
/// and with more than one part the swaps' buffers, 5 × [`SWAP_BYTES`]: the children made,
/// sorted for their owners, encoded, received and decoded) and disk (every group's entries,
/// all parts' together).
pub fn pattern25_needs_in_parts(cells: usize, partition: &Partition25, parts: u32) -> (u64, u64) {
    let parts = u64::from(parts.max(1));
    let mut kept = 0u64;
    let mut peak = 0u64;
    let mut disk = 0u64;
    for &g in partition.groups() {
        let p = placements(cells, g.count_ones() as usize);
        let slice = p.div_ceil(parts);
        let search = slice
            .saturating_mul(5)
            .saturating_add(slice.div_ceil(64).saturating_mul(16));
        peak = peak.max(kept.saturating_add(search));
        kept = kept.saturating_add(slice);
        disk = disk.saturating_add(p);
    }
    if parts > 1 {
        peak = peak.saturating_add(5 * SWAP_BYTES);
    }
    (peak, disk)
}

/// Refuses, with the figures, a build the machine has no memory for, or no disk space in
/// `dir` for the file.
pub fn check_pattern25_room(
    goal: &Layout25,
    partition: &Partition25,
    dir: Option<&Path>,
) -> Result<(u64, u64), Pattern25Error> {
    check_pattern25_room_in_parts(goal, partition, dir, 1, 1, 1)
}

/// [`check_pattern25_room`] for one of `parts` processes, `here` of which share this
/// machine's memory (and its disk, for the part files: `dir` is theirs), each needing
/// `copies` times its part on disk (2 in parts: its checkpoints of the groups, then its
/// part file).
pub(crate) fn check_pattern25_room_in_parts(
    goal: &Layout25,
    partition: &Partition25,
    dir: Option<&Path>,
    parts: u32,
    here: u32,
    copies: u64,
) -> Result<(u64, u64), Pattern25Error> {
    let (memory, disk) = pattern25_needs_in_parts(goal.cells(), partition, parts);
    let here = u64::from(here.max(1));
    let refuse = |what, need, (available, origin): (u64, String)| Pattern25Error::NoRoom {
        partition: partition.sizes(),
        rows: goal.rows(),
        cols: goal.cols(),
        what,
        need,
        available,
        origin,
        parts,
        here: here as u32,
    };
    if let Some(available) = checked_memory()? {
        if memory.saturating_mul(here) > available.0 {
            return Err(refuse("memory", memory.saturating_mul(here), available));
        }
    }
    if let Some(dir) = dir {
        if let Some(available) = crate::room::available_disk(dir)? {
            // Every part's file on one disk: as much as the whole file, at most.
            let need = disk
                .div_ceil(u64::from(parts.max(1)))
                .saturating_mul(here)
                .saturating_mul(copies);
            if need > available.0 {
                return Err(refuse("disk space", need, available));
            }
        }
    }
    Ok((memory, disk))
}

/// Whether the placements of `k` tiles on `cells` cells are ranked in 64 bits: past 2³²
/// placements (8 tiles of 25 cells), or on any group when [`crate::environment::WIDE_RANKS_ENV`]
/// asks (what runs the wide builder on small groups; the bytes are the same).
pub(crate) fn wide_placements(cells: usize, k: usize) -> Result<bool, crate::GenError> {
    Ok(placement_count(cells, k) > u128::from(u32::MAX) || crate::environment::wide_ranks()?)
}

/// What one process of a build keeps of a group: its slice of the entries (all of them in
/// one process) and the histogram of every part together.
pub(crate) struct GroupSlice {
    /// The first rank of the slice.
    pub(crate) start: u64,
    /// One byte per placement of the slice, in rank order.
    pub(crate) entries: Vec<u8>,
    /// Placements of each value, every part's together.
    pub(crate) histogram: Vec<u64>,
}

/// The group of `tiles`' tiles towards `goal` as the search takes it: its tiles in order,
/// their goal cells, its placements, or why it is no group of that board.
fn group_of(goal: &Layout25, tiles: u32) -> Result<(Vec<u8>, Vec<u8>, u64), Pattern25Error> {
    let n = goal.cells();
    let group: Vec<u8> = (0..n as u8).filter(|&t| tiles & (1 << t) != 0).collect();
    let k = group.len();
    if tiles & 1 != 0 || k == 0 || k > MAX_GROUP_25 || u64::from(tiles) >> n != 0 {
        return Err(Pattern25Error::Partition {
            text: format!("{tiles:#x}"),
            problem: format!(
                "tiles {group:?} are no group of a {}x{} board",
                goal.rows(),
                goal.cols()
            ),
        });
    }
    let home = group
        .iter()
        .map(|&t| goal.tiles().iter().position(|&x| x == t).unwrap_or(0) as u8)
        .collect();
    Ok((group, home, placements(n, k)))
}

/// Searches this process's slice (`meet`) of the group of `tiles` towards `goal`, its
/// placements ranked in `R`.
pub(crate) fn solve_slice25<R: PlacementRank>(
    goal: &Layout25,
    tiles: u32,
    meet: &mut impl Meet<Pattern25Error>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GroupSlice, Pattern25Error> {
    let (group, home, _) = group_of(goal, tiles)?;
    let partition_error = |problem: String| Pattern25Error::Partition {
        text: format!("{tiles:#x}"),
        problem,
    };
    let ranker = Placements::<MAX_CELLS_25, R>::new(goal.cells(), group.len())
        .map_err(|e| partition_error(e.to_string()))?;
    let geo = Geometry::<MAX_CELLS_25>::new(goal.rows(), goal.cols());
    let (start, end) = (meet.bounds()[meet.me()], meet.bounds()[meet.me() + 1]);
    let entries: Vec<AtomicU8> = (start..end).map(|_| AtomicU8::new(UNREACHED_25)).collect();
    let home_rank: u64 = ranker.rank(&home).into();
    if (start..end).contains(&home_rank) {
        entries[(home_rank - start) as usize].store(0, Relaxed);
    }
    // A placement's entry: the level it was first reached at, the group's moves.
    let settle = |s: Settled<'_>| {
        let value = s.level.min(u32::from(UNREACHED_25) - 1) as u8;
        entries[(s.rank - start) as usize].store(value, Relaxed);
    };
    let level_done = |level: u32, finished: bool| {
        if finished || level < u32::from(UNREACHED_25) - 1 {
            return Ok(());
        }
        Err(partition_error(format!(
            "tiles {group:?} need more than {} moves, more than an entry holds",
            UNREACHED_25 - 1
        )))
    };
    let histogram = search_placements::<MAX_CELLS_25, AtomicU32, R, _>(
        &geo,
        &ranker,
        &home,
        goal.blank(),
        meet,
        progress,
        settle,
        level_done,
    )?;
    Ok(GroupSlice {
        start,
        entries: entries.into_iter().map(AtomicU8::into_inner).collect(),
        histogram,
    })
}

/// Solves one group's database towards `goal`: for every placement of the group's tiles
/// (bit `t` of `tiles` for tile `t`), the fewest moves of those tiles that bring them home
/// whatever the other tiles do, or [`UNREACHED_25`] where no puzzle has that placement.
/// The placements rank in 32 bits where they fit, in 64 past (`wide_placements`).
/// `progress` is told of placements as they are settled.
pub fn solve_pattern25(
    goal: &Layout25,
    tiles: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Group25, Pattern25Error> {
    let (group, _, _) = group_of(goal, tiles)?;
    if wide_placements(goal.cells(), group.len())? {
        solve_pattern25_in_width::<u64>(goal, tiles, progress)
    } else {
        solve_pattern25_in_width::<u32>(goal, tiles, progress)
    }
}

/// [`solve_pattern25`] with the placements ranked in `R` (`u32` or `u64`) whatever the
/// group's size, where they fit: what tests compare the two widths with.
pub fn solve_pattern25_in_width<R: PlacementRank>(
    goal: &Layout25,
    tiles: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Group25, Pattern25Error> {
    let (_, _, count) = group_of(goal, tiles)?;
    let slice = solve_slice25::<R>(goal, tiles, &mut Whole::new(count), progress)?;
    Ok(Group25 {
        tiles,
        histogram: slice.histogram,
        entries: slice.entries,
    })
}

/// Every group of `partition` towards `goal`, one after another (each on every core), after
/// the memory check; `progress` is told of settled placements.
pub fn solve_partition25(
    goal: &Layout25,
    partition: &Partition25,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Group25>, Pattern25Error> {
    check_pattern25_room(goal, partition, None)?;
    partition
        .groups()
        .iter()
        .map(|&g| solve_pattern25(goal, g, progress))
        .collect()
}

/// Writes `groups` towards `goal` to `path` as a `SLIDEP25` file, as every table is written
/// ([`crate::write_file`]: only over a regular file, through a temporary file renamed over
/// it, removed on Ctrl-C). Returns the bytes written.
pub fn write_pattern25(
    path: &Path,
    goal: &Layout25,
    groups: &[Group25],
) -> Result<u64, Pattern25Error> {
    let bytes = slidetable_format::PatternFile25::to_bytes(goal, groups)?;
    Ok(crate::write_file(path, &bytes)?)
}

/// Placements all of `partition`'s searches settle on a board of `cells` cells (where every
/// placement is reached: at least two tiles outside each group).
pub fn partition25_placements(cells: usize, partition: &Partition25) -> u64 {
    partition
        .groups()
        .iter()
        .map(|g| placements(cells, g.count_ones() as usize))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korf_felners_partition_is_a_partition_and_sizes_read_in_order() {
        let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
        let p = Partition25::parse("6-6-6-6", &goal).unwrap();
        assert_eq!(p.sizes(), "6-6-6-6");
        assert_eq!(p.groups()[0], 0b1_1100_0110_0010);
        let q = Partition25::parse("5-5-5-5-4", &goal).unwrap();
        assert_eq!(q.groups()[0], 0b11_1110);
        assert_eq!(Partition25::parse("8-8-8", &goal).unwrap().sizes(), "8-8-8");
        assert_eq!(Partition25::parse("13-11", &goal).unwrap().sizes(), "13-11");
        let e = Partition25::parse("14-10", &goal).unwrap_err();
        assert_eq!(
            e.to_string(),
            "partition '14-10': a group of 14 tiles has 388588515194880000 placements on 25 \
             cells, too many to rank (at most 13 tiles: 32382376266240000)"
        );
        let e = Partition25::parse("1,2/2,3", &goal).unwrap_err();
        assert_eq!(
            e.to_string(),
            "partition '1,2/2,3': tile 2 is in two groups"
        );
    }
}
