//! Heuristics measured against the true distances: every state's estimate set beside its exact
//! distance from the table, and every move checked for consistency.
//!
//! A search crate's tests can only say a heuristic is admissible on the states they try; the
//! table knows every state's distance, so [`measure`] can say it of all of them, show a
//! counter-example when it fails, and tell how close the estimates come at each distance.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::engine::{solve_sections, table_bytes};
//! use slidetable_gen::{default_goals};
//! use slidetable_query::Table;
//! use slidetable_heuristic::measure;
//! use slidetable_search::Manhattan;
//!
//! let board = Board::EIGHT;
//! let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
//! let table = Table::new(bytes).unwrap();
//! let report = measure(&table, &Manhattan::new(&board.standard_goal())).unwrap();
//! assert_eq!(report.overall.states, 181_440);
//! assert!(report.admissible() && report.consistent());
//! // At 31 moves Manhattan says 21 at most.
//! assert_eq!(report.by_distance[31].max_estimate, 21);
//! ```

mod measure;
mod meter;
mod report;
mod shipped;

pub use measure::{measure, measure_each, measure_goal, measure_kinds};
pub use report::{Accuracy, HeuristicReport, Inconsistency, Quartiles, Witness};
