//! Every state's distance, by one breadth-first search backwards from each goal, and the
//! writer that stores them as a slidetable file.
//!
//! What a user calls: [`generate`], a [`Plan`] (board, goals, encoding, cost) made into a
//! file, the machine's memory and disk checked first ([`room`]) and the file written to a
//! temporary and renamed; [`generate_resumable`] the same with checkpoints
//! ([`resume`]; every search that keeps checkpoints keeps them through [`checkpoint`]);
//! [`generate_patterns`] for a [`PatternPlan`]'s pattern databases; a search in parts, one
//! slice a process, in [`parts`]. The searches and writers they are made of are
//! under [`engine`].
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::{generate, make_dir, Plan};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("slidetable/2x2.slt");
//! make_dir(&path).unwrap();
//! let done = generate(&Plan::default_for(Board::new(2, 2).unwrap()), &path, &|_| {}).unwrap();
//! assert_eq!((done.sections, done.states), (4, 12));
//! assert!(path.exists());
//! ```

use std::io;
use std::path::PathBuf;

mod bfs_queue;
mod bfs_residues;
mod bfs_scan;
mod bounded;
mod bounded_parts;
pub mod checkpoint;
pub mod engine;
pub mod environment;
mod make;
mod mapped;
pub mod parts;
mod pattern;
mod pattern25;
mod pattern25_parts;
mod pattern_search;
mod plan;
pub mod resume;
pub mod room;
pub mod scale;
mod section;
mod state_file;
mod weighted;
mod write;

pub use bounded_parts::BoundedPartsPlan;
pub use make::{
    generate, generate_patterns, generate_resumable, make_dir, pattern_goal, Generated, PatternPlan,
};
pub use pattern::{check_pattern_room, pattern_needs, Partition, PartitionError};
pub use pattern25::{
    check_pattern25_room, pattern25_needs, pattern25_needs_in_parts, plan25, Partition25,
    Pattern25Error, Plan25, KORF_FELNER_6666, MAX_GROUP_25, PLACEMENTS_PER_CPU_SECOND_25,
    SWAP_BYTES,
};
pub use plan::Plan;
pub use write::temporary::abandon_writes;
pub use write::{check_replaceable, write_bytes, write_file, Destination, Written};

// The engine's parts under their short names, for this crate's own modules (imported from
// the modules that define them).
use engine::solve;
use pattern::{partition_placements, solve_partition, SolvedPattern};
use section::{widen, SolvedSection};
#[cfg(test)]
use {bfs_queue::solve_section, bfs_scan::solve_by_scan, write::pattern_bytes};

use slidetable_core::{Board, BoardError, Layout, PlacementError, MAX_TABLE_CELLS};
use slidetable_format::{CostModel, Encoding, FormatError};

/// Why a table could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// The board is too large for a table.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A distance larger than the encoding can store.
    #[error("the search from goal {goal} goes deeper than the byte encoding's {max} moves")]
    TooDeep {
        /// The section's goal.
        goal: Layout,
        /// The largest distance the encoding stores.
        max: u32,
    },
    /// A cheapest cost larger than the encoding can store (a weighted table).
    #[error(
        "the cheapest costs from goal {goal} go above the {encoding} encoding's {max}: use \
         --encoding wide16"
    )]
    TooCostly {
        /// The section's goal.
        goal: Layout,
        /// The encoding's name.
        encoding: &'static str,
        /// The largest cost the encoding stores.
        max: u32,
    },
    /// Sections of one file on different boards.
    #[error("sections are for different boards ({expected} and {found})")]
    MixedBoards {
        /// The first section's board.
        expected: Board,
        /// A later section's board.
        found: Board,
    },
    /// Sections of one file with different encodings or cost models.
    #[error("sections use different encodings or cost models")]
    MixedEncodings,
    /// A board too large for a search under this cost model (see [`MAX_WEIGHTED_CELLS`]).
    #[error("{cost} costs go up to {max} cells; {board} has {cells}", cells = board.cells())]
    TooLargeForCost {
        /// The cost model asked for.
        cost: CostModel,
        /// The board asked for.
        board: Board,
        /// The most cells a search under `cost` is made for.
        max: usize,
    },
    /// A table of every state past [`MAX_TABLE_CELLS`] cells in other than 2-bit entries and
    /// unit costs (only the 2-bit search ranks in 64 bits).
    #[error(
        "a table of every {board} state is made in 2bit entries and unit costs only (byte \
         and wide16 entries, and --cost tile, go up to {MAX_TABLE_CELLS} cells)"
    )]
    WideNeedsTwoBit {
        /// The board asked for.
        board: Board,
    },
    /// The header cannot describe the sections.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Writing the file failed.
    #[error("cannot write {}", path.display())]
    Io {
        /// The file being written.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A group of tiles that is empty, too large, or names tiles not on the board.
    #[error("a group of tiles {group:?} is not possible on a {board} board")]
    GroupNotOnBoard {
        /// The group's tiles, in increasing order.
        group: Vec<u8>,
        /// The board asked for.
        board: Board,
    },
    /// A group whose placements cannot be ranked.
    #[error("tiles {group:?}: {problem}")]
    GroupPlacements {
        /// The group's tiles, in increasing order.
        group: Vec<u8>,
        /// Why its placements cannot be ranked.
        problem: PlacementError,
    },
    /// A placement whose value exceeds its Manhattan distance by more than a pattern entry
    /// holds.
    #[error(
        "tiles {group:?} at cells {cells:?} need {moves} moves, more than the 4-bit entry \
         holds above their Manhattan distance (at most {most}); use smaller groups"
    )]
    PatternTooDeep {
        /// The group's tiles, in increasing order.
        group: Vec<u8>,
        /// The cells of the group's tiles in the first such placement found.
        cells: Vec<u8>,
        /// The moves of the group's tiles that placement needs.
        moves: u32,
        /// The most moves above the Manhattan distance an entry holds.
        most: u32,
    },
    /// A pattern database of no group.
    #[error("a pattern database needs a group")]
    NoGroups,
    /// Groups of one pattern database solved towards different goals.
    #[error("groups solved for different goals")]
    MixedGoals {
        /// The first group's goal.
        expected: Layout,
        /// A later group's goal.
        found: Layout,
    },
    /// The machine has less memory or disk space than the table needs (checked before the
    /// search starts).
    #[error(
        "a {board} table needs {} of {what}, but {} is available ({origin}){}",
        scale::human(*need),
        scale::human(*available),
        scale::parts_hint(*board, what, *available),
    )]
    NoRoom {
        /// The board asked for.
        board: Board,
        /// "memory" or "disk space".
        what: &'static str,
        /// Bytes needed.
        need: u64,
        /// Bytes available.
        available: u64,
        /// Where the available figure comes from.
        origin: String,
    },
    /// The machine has less memory than a process of the search in parts needs (checked by
    /// each process before its slice is allocated).
    #[error(
        "{}a process of the {board} search in parts needs {} of memory \
         (slice entries {}, frontier {}, program and exchange buffers {} for --batch {batch}; \
         the check asks a quarter more, {}), but {} is available to it ({origin}): run on \
         more machines or processes{}, or with a smaller --batch (`generate --plan` gives the \
         figures)",
        if *parts > 1 { format!("part {part} of {parts}: ") } else { String::new() },
        scale::human(needs.total()),
        scale::human(needs.entries),
        scale::human(needs.frontier),
        scale::human(needs.buffers),
        scale::human(crate::scale::with_margin(needs.total())),
        scale::human(*available),
        scale::machines_hint(*takes),
    )]
    NoRoomForParts {
        /// The board.
        board: Board,
        /// This process's part.
        part: u32,
        /// The parts of the run.
        parts: u32,
        /// `--batch`.
        batch: usize,
        /// What the process needs.
        needs: scale::PartsNeeds,
        /// Bytes available to this process.
        available: u64,
        /// Where the available figure comes from.
        origin: String,
        /// The fewest processes at the memory of this process's machine each that the
        /// search takes ([`room::processes_for`]).
        takes: Option<u32>,
    },
    /// The machine has less memory than the next level of a search within `D` moves needs
    /// (checked before each level is made, from its frontier's neighbours).
    #[error(
        "{}level {level} of the {board} search within {max_depth} moves needs {} of memory \
         ({neighbours} neighbours of level {} at 8 bytes, and {} held: the two levels before \
         at 8 bytes a state and the levels made, encoded), but {} is available ({origin}): \
         this makes at most --max-depth {}{}",
        part.map(|(k, n)| format!("part {k} of {n}: ")).unwrap_or_default(),
        scale::human(*held + 8 * *neighbours),
        level - 1,
        scale::human(*held),
        scale::human(*available),
        level - 1,
        if part.is_some() { " on these processes; more processes (machines) hold more" } else { "; --parts DIR on several machines holds more" }
    )]
    NoRoomWithin {
        /// The board.
        board: Board,
        /// The level that would not fit.
        level: u32,
        /// `D`.
        max_depth: u32,
        /// Part `k` of `N` in parts (the process that lacks the room).
        part: Option<(u32, u32)>,
        /// The neighbours of the level before (this process's).
        neighbours: u64,
        /// Bytes held already (levels, encoded levels).
        held: u64,
        /// Bytes available.
        available: u64,
        /// Where the available figure comes from.
        origin: String,
    },
    /// The disk has less room than a table within `D` moves written to one file needs: before
    /// the search where published counts of the board's levels reach `D` (the plan's model,
    /// `scale::within_plan`), else before a level once the levels made take more.
    #[error(
        "the {board} table within {max_depth} moves needs {}{} of disk space ({}), but {} is \
         available ({origin}){}",
        if after.is_some() { "at least " } else { "" },
        scale::human(*file + *checkpoint),
        match after {
            Some(level) => format!("the levels made by level {level}, encoded"),
            None => format!(
                "the file {} and a checkpoint beside it {}, by the published counts of its \
                 levels at {} bytes a state",
                scale::human(*file),
                scale::human(*checkpoint),
                scale::WITHIN_BYTES_PER_STATE
            ),
        },
        scale::human(*available),
        match fits {
            Some(d) => format!(": this makes at most --max-depth {d}"),
            None => String::new(),
        }
    )]
    NoDiskWithin {
        /// The board.
        board: Board,
        /// `D`.
        max_depth: u32,
        /// The level after which the levels made no longer fit, when found as the search goes.
        after: Option<u32>,
        /// The file's bytes (as the search goes: the levels made so far, encoded).
        file: u64,
        /// The checkpoint's bytes beside it (before the search; 0 as it goes).
        checkpoint: u64,
        /// Bytes available.
        available: u64,
        /// Where the available figure comes from.
        origin: String,
        /// The deepest `D` whose table fits, where known.
        fits: Option<u32>,
    },
    /// The machine has less memory or disk space than a partition's pattern databases need
    /// (checked before the first group's search).
    #[error(
        "the {partition} pattern databases of {board} need {} of {what}, but {} is available \
         ({origin}); smaller groups need less (7-8: 1.5 GB)",
        scale::human(*need),
        scale::human(*available)
    )]
    NoRoomForPatterns {
        /// The board.
        board: Board,
        /// The partition, by its group sizes (`9-6`).
        partition: String,
        /// "memory" or "disk space".
        what: &'static str,
        /// Bytes needed.
        need: u64,
        /// Bytes available.
        available: u64,
        /// Where the available figure comes from.
        origin: String,
    },
    /// The output path names something that is not a regular file.
    #[error("refusing to replace {}: it is {kind}, not a table file", path.display())]
    NotAFile {
        /// The output path.
        path: PathBuf,
        /// What it is (a directory, a device ...).
        kind: &'static str,
    },
    /// A directory for the table could not be made.
    #[error("cannot create directory {}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A table in parts that cannot be made or resumed: the file or directory, and why.
    #[error("{}: {problem}", path.display())]
    Parts {
        /// The directory, part or state file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// An interrupted run's checkpoint that cannot be resumed: the file, and why.
    #[error("{}: {problem}", path.display())]
    Resume {
        /// The checkpoint (or a file an older version left).
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// A run that keeps checkpoints stopped after one because its caller asked (see
    /// [`resume::Run::events`]); the checkpoint is kept.
    #[error(
        "stopped after level {level}; run the same command again to resume (checkpoint {})",
        checkpoint.display()
    )]
    Stopped {
        /// The level the checkpoint holds.
        level: u32,
        /// The checkpoint.
        checkpoint: PathBuf,
    },
    /// The processes of a search in parts could not exchange a level's states.
    #[error("the processes could not exchange a level: {0}")]
    Exchange(#[from] ExchangeError),
    /// A refusal every process of a search in parts makes together, before the search (the
    /// directory locked by another run, an interrupted run in another number of parts): the
    /// process of part 0 says it, the others need not.
    #[error(transparent)]
    EveryPart(Box<GenError>),
    /// An environment variable the generator reads holds what it does not accept.
    #[error("${name} is {value:?}, but it must be {accepts} (or unset)")]
    Environment {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What it accepts.
        accepts: &'static str,
    },
    /// The directory the table would go in does not exist (it is not made: a mistyped path
    /// should not leave directories behind).
    #[error("cannot write {}: {}", path.display(), match link {
        Some(target) => format!("it links to {}, whose directory does not exist", target.display()),
        None => format!("directory {} does not exist", dir.display()),
    })]
    NoDirectory {
        /// The output path.
        path: PathBuf,
        /// The missing directory.
        dir: PathBuf,
        /// Where `path` links to, when it is a symbolic link.
        link: Option<PathBuf>,
    },
}

/// Why the processes of a search in parts ([`parts::Exchange`]) could not exchange what a level needs.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExchangeError(pub String);

/// The goals of a default table: one per blank cell, tiles 1..n−1 in reading order, for
/// boards up to 10 cells; only the standard goal (blank last) for 11 and 12 cells, whose
/// sections are 30–60 MB each.
pub fn default_goals(board: Board) -> Vec<Layout> {
    if board.cells() > 10 {
        return vec![board.standard_goal()];
    }
    all_goals(board)
}

/// One goal per blank cell, tiles 1..n−1 in reading order in the other cells.
pub fn all_goals(board: Board) -> Vec<Layout> {
    (0..board.cells())
        .map(|b| board.goal_with_blank(b))
        .collect()
}

/// The encoding a table gets unless told otherwise: bytes (distance and first move) while a
/// section stays small, 2 bits (distance mod 3) for 11 and 12 cells; for weighted moves,
/// bytes if every cost fits one, else 16 bits (decided once the costs are known).
pub fn default_encoding(board: Board, cost: CostModel) -> Encoding {
    match cost {
        CostModel::Unit if board.cells() > 10 => Encoding::TwoBit,
        CostModel::Unit => Encoding::Byte,
        CostModel::Tile => Encoding::Wide16,
    }
}

/// The most cells a table of weighted moves is made for: its search keeps a cost and an open
/// list entry per state, several times a byte table's memory.
pub const MAX_WEIGHTED_CELLS: usize = 10;

/// Checks that a table of `board` can be made under `cost` in `encoding` (or the board's
/// default), and returns the encoding it will have: every limit of a table's plan, checked in
/// this one place (the board's size, the rule of [`Encoding::holds`], the weighted search's
/// size), with one typed error each. [`solve`] calls it; a front end may call it first to
/// refuse a plan before any work.
pub fn check_plan(
    board: Board,
    encoding: Option<Encoding>,
    cost: CostModel,
) -> Result<Encoding, GenError> {
    let chosen = encoding.unwrap_or_else(|| default_encoding(board, cost));
    // Past 14 cells the ranks of one blank cell pass 32 bits: the 2-bit search alone ranks
    // in 64 (`bfs_residues.rs`).
    if board.cells() > MAX_TABLE_CELLS && (chosen != Encoding::TwoBit || cost != CostModel::Unit) {
        return Err(GenError::WideNeedsTwoBit { board });
    }
    if cost != CostModel::Unit && board.cells() > MAX_WEIGHTED_CELLS {
        return Err(GenError::TooLargeForCost {
            cost,
            board,
            max: MAX_WEIGHTED_CELLS,
        });
    }
    chosen.holds(cost)?;
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_is_checked_once_with_one_typed_error_per_limit() {
        let (eight, big) = (Board::EIGHT, Board::new(3, 4).unwrap());
        let (unit, tile) = (CostModel::Unit, CostModel::Tile);
        assert_eq!(check_plan(eight, None, unit).unwrap(), Encoding::Byte);
        assert_eq!(check_plan(big, None, unit).unwrap(), Encoding::TwoBit);
        assert_eq!(check_plan(eight, None, tile).unwrap(), Encoding::Wide16);
        let e = check_plan(eight, Some(Encoding::TwoBit), tile).unwrap_err();
        assert!(matches!(
            e,
            GenError::Format(FormatError::EncodingCost {
                encoding: Encoding::TwoBit,
                cost: CostModel::Tile
            })
        ));
        assert!(
            e.to_string()
                .contains("2bit encoding holds distances mod 3"),
            "{e}"
        );
        let e = check_plan(big, Some(Encoding::Byte), tile).unwrap_err();
        assert!(
            matches!(e, GenError::TooLargeForCost { max: 10, .. }),
            "{e}"
        );
        // 15 and 16 cells: 2-bit entries in unit costs only.
        for (rows, cols) in [(3, 5), (5, 3), (4, 4), (2, 8), (8, 2)] {
            let wide = Board::new(rows, cols).unwrap();
            assert_eq!(check_plan(wide, None, unit).unwrap(), Encoding::TwoBit);
            for (encoding, cost) in [(Some(Encoding::Byte), unit), (None, tile)] {
                let e = check_plan(wide, encoding, cost).unwrap_err();
                assert!(matches!(e, GenError::WideNeedsTwoBit { .. }), "{e}");
            }
        }
        // solve asks the same check.
        let goals = [eight.standard_goal()];
        let e = solve(&goals, Some(Encoding::TwoBit), tile, &|_| {}).unwrap_err();
        assert!(matches!(
            e,
            GenError::Format(FormatError::EncodingCost { .. })
        ));
    }
}
