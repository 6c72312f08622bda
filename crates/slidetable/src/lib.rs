//! slidetable as a library: exact answers for sliding-tile puzzles from a table of every
//! state's distance (generated once, then memory-mapped), and the 15-puzzle solved optimally.
//!
//! The distance of a 3×3 puzzle (the table is made in `~/.cache/slidetable` on first use,
//! under a lock, then mapped):
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let table = slidetable::default_table(slidetable::Board::EIGHT)?;
//! let puzzle = slidetable::parse_layout(table.board(), b"2 3 4 1 5 0 7 6 8")?;
//! assert_eq!(table.standard()?.distance(&puzzle)?, Some(19));
//! # Ok(())
//! # }
//! ```
//!
//! An optimal solution of a 15-puzzle (the cache's pattern database, built in seconds once):
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let fifteen = slidetable::Fifteen::default()?;
//! let puzzle = slidetable::parse_layout(fifteen.board(), b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")?;
//! assert_eq!(fifteen.solve(&puzzle)?, Some(vec![slidetable::Move::Right]));
//! # Ok(())
//! # }
//! ```
//!
//! [`generate_table`] makes a board's table in memory instead (nothing written), and the
//! rules every front end shares have one owner each here: [`defaults`] (where a board's
//! default table lives, made under its lock on first use), [`Fifteen`] (the pattern solver),
//! [`levels`] (a level pass over a 14-cell table) and [`draws`] (seeded draws at a depth).
//! The seven crates the library is built from are re-exported as modules:
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`core`] | `slidetable-core` | boards, layouts, moves, parity, ranking, parsing |
//! | [`format`](mod@format) | `slidetable-format` | the table file's bytes: header and entries |
//! | [`generate`] | `slidetable-gen` | generating tables: reverse breadth-first search, Dijkstra |
//! | [`query`] | `slidetable-query` | a table over bytes or a mapped file: distances, paths, statistics |
//! | [`search`] | `slidetable-search` | query-time search: BFS, bidirectional BFS, Dijkstra, A*, IDA* |
//! | [`heuristic`] | `slidetable-heuristic` | a heuristic measured against every state's true distance |
//! | [`judge`] | `slidetable-judge` | the input and output of classic judge problems |
//!
//! The types every use of a table needs are also at the top: [`Board`], [`Layout`], [`Move`],
//! [`parse_layout`], [`Table`] (with [`MappedTable`] for a file, [`Table::open`]) and
//! [`Goal`]; and the 15-puzzle's: [`Fifteen`], a pattern database and its optimal solver in one
//! call ([`Fifteen::default`], [`Fifteen::open`] on a file written by `slidetable generate
//! --board 4x4`, [`Fifteen::generate`] in memory), with its parts [`PatternTable`],
//! [`PatternHeuristic`] and [`PatternSearch`] (IDA* on it) for finer control.
//!
//! Solve a 15-puzzle with a 5-5-5 pattern database built in memory:
//!
//! ```
//! use slidetable::generate::Partition;
//! use slidetable::{parse_layout, Board, Fifteen};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let board = Board::new(4, 4)?;
//! let goal = board.goal_with_blank(0);
//! // From a file: `let fifteen = Fifteen::open("4x4.slt")?;`
//! let fifteen = Fifteen::generate(&goal, &Partition::parse("5-5-5", &goal)?)?;
//!
//! let puzzle = parse_layout(board, b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")?;
//! assert_eq!(fifteen.solve(&puzzle)?, Some(vec![slidetable::Move::Right]));
//! # Ok(())
//! # }
//! ```
//!
//! Generate the 3×3 table for the standard goal in memory, and ask it about a puzzle:
//!
//! ```
//! use slidetable::search::{HeuristicKind, Limits, Method};
//! use slidetable::{generate_table, parse_layout, Board};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let board = Board::EIGHT;
//! let table = generate_table(board)?;
//!
//! let puzzle = parse_layout(board, b"2 3 4 1 5 x 7 6 8")?;
//! let goal = table.standard()?;
//! assert_eq!(goal.distance(&puzzle)?, Some(19));
//! let path = goal.path(&puzzle)?.expect("the puzzle is solvable");
//! assert_eq!(path.len(), 19);
//!
//! // A search at query time finds a path as short, with no table.
//! let found = slidetable::search::solve(
//!     Method::Astar,
//!     HeuristicKind::Manhattan,
//!     &puzzle,
//!     &board.standard_goal(),
//!     &Limits::default(),
//! )?;
//! assert_eq!(found.path.len(), 19);
//! # Ok(())
//! # }
//! ```
//!
//! A table written to a file (`slidetable generate`, or [`generate::generate`]) is opened with
//! [`Table::open`], which maps it instead of reading it.

pub mod defaults;
pub mod draws;
mod fifteen;
pub mod levels;
pub mod limits;
pub mod puzzles;
mod twentyfour;

pub use slidetable_core as core;
pub use slidetable_format as format;
pub use slidetable_gen as generate;
pub use slidetable_heuristic as heuristic;
pub use slidetable_judge as judge;
pub use slidetable_query as query;
pub use slidetable_search as search;

pub use slidetable_core::{parse_layout, Board, Layout, Move};
pub use slidetable_query::{Goal, MappedPatternTable, MappedTable, PatternTable, Table};
pub use slidetable_search::{PatternHeuristic, PatternSearch, Symmetric};

pub use crate::defaults::DefaultError;
pub use crate::fifteen::{BadPartition, Fifteen, FifteenError, PatternChoice};
pub use crate::twentyfour::{default_path_25, Build25, TwentyFour, TwentyFourError, Written25};

/// `board`'s default table of every state, the one the `slidetable` command uses:
/// `$SLIDETABLE_TABLE` for 3×3, else `slidetable/RxC.slt` in the cache directory, made there on
/// first use (boards up to 12 cells: seconds) under the cache's lock, then mapped; refused when
/// it is not for `board` with unit costs ([`defaults::table`]).
pub fn default_table(board: Board) -> Result<MappedTable, DefaultError> {
    defaults::table(board)
}

/// `board`'s table of every state, generated in memory (nothing written): its default goals
/// (one section per blank cell up to 10 cells, the standard goal for 11 and 12) and encoding.
pub fn generate_table(board: Board) -> Result<Table<Vec<u8>>, DefaultError> {
    generate_plan(&generate::Plan::default_for(board))
}

/// `plan`'s table generated in memory (nothing written): its goals, its encoding (`None`: the
/// board's default) and what a move costs. The table is over any bytes made from a
/// `Vec<u8>`: the `Vec` itself, or [`query::TableBytes`] to keep it beside tables opened from
/// files (as Python's `Table.generate` does).
pub fn generate_plan<D: AsRef<[u8]> + From<Vec<u8>>>(
    plan: &generate::Plan,
) -> Result<Table<D>, DefaultError> {
    let sections = slidetable_gen::engine::solve(&plan.goals, plan.encoding, plan.cost, &|_| ())?;
    let bytes = slidetable_gen::engine::table_bytes(plan.board, &sections)?;
    Ok(Table::new(D::from(bytes))?)
}
