//! slidetable as a library: generate the table of every state's distance from a goal, open it
//! (from bytes in memory or a memory-mapped file), and ask it for distances and optimal paths;
//! or search at query time without a table. One dependency instead of the seven crates it is
//! built from, which it re-exports as modules:
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
//! call ([`Fifteen::open`] on a file written by `slidetable generate --board 4x4` or
//! [`generate::write_pattern_table`]), with its parts [`PatternTable`], [`PatternHeuristic`]
//! and [`PatternSearch`] (IDA* on it) for finer control.
//!
//! Solve a 15-puzzle with a 5-5-5 pattern database built in memory:
//!
//! ```
//! use slidetable::generate::{pattern_bytes, solve_partition, Partition};
//! use slidetable::{parse_layout, Board, Fifteen, PatternTable};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let board = Board::new(4, 4)?;
//! let goal = board.goal_with_blank(0);
//! let sections = solve_partition(&goal, &Partition::parse("5-5-5", &goal)?, &|_| ())?;
//! // From a file: `let fifteen = Fifteen::open("4x4.slt")?;`
//! let fifteen = Fifteen::new(PatternTable::new(pattern_bytes(&sections)?)?)?;
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
//! use slidetable::generate::{solve_sections, table_bytes};
//! use slidetable::search::{HeuristicKind, Limits, Method};
//! use slidetable::{parse_layout, Board, Table};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let board = Board::EIGHT;
//! let sections = solve_sections(&[board.standard_goal()])?;
//! let table = Table::new(table_bytes(board, &sections)?)?;
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
//! A table written to a file (`slidetable generate`, or [`generate::write_table`]) is opened with
//! [`Table::open`], which maps it instead of reading it.

mod fifteen;
pub mod limits;
pub mod puzzles;

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

pub use crate::fifteen::{Fifteen, FifteenError};
