//! Answers from a slidetable file: the distance of any layout in O(1), an optimal path in
//! O(path length), over any bytes — a memory-mapped file, a `Vec<u8>`, or `include_bytes!`.
//!
//! ```
//! use slidetable_core::{parse_layout, path_string, Board};
//! use slidetable_gen::engine::{solve_sections, table_bytes};
//! use slidetable_gen::{default_goals};
//! use slidetable_query::Table;
//!
//! let board = Board::EIGHT;
//! let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
//! let table = Table::new(bytes).unwrap();
//! let start = parse_layout(board, b"2 3 4 1 5 x 7 6 8").unwrap();
//! assert_eq!(table.distance(&start).unwrap(), Some(19));
//! let path = table.path(&start).unwrap().unwrap();
//! assert_eq!(path.len(), 19);
//! assert_eq!(start.after(&path), Some(board.standard_goal()));
//! assert!(path_string(&path).starts_with('u'));
//! ```

#![forbid(unsafe_code)]

pub use slidetable_format::{is_bounded_file, is_pattern_file, CostModel, Encoding};

mod any;
mod blocks;
mod bounded;
mod bounded_parts;
mod census;
mod distances;
mod error;
mod file;
mod goal;
mod histogram;
mod layer;
mod levels;
mod lockstep;
mod parts;
mod pattern;
mod ranks;
mod readahead;
mod section;
mod table;
mod walk;
mod watch;

pub use any::AnyTable;
pub use bounded::{BoundedTable, MappedBoundedTable, Reach};
pub use bounded_parts::is_bounded_dir;
pub use distances::MAX_RECOVERED_CELLS;
pub use error::{error_chain, Damage, QueryError, TableError, TableErrorKind};
pub use file::TableBytes;
pub use goal::{Goal, StateScan};
pub use histogram::{HistogramStats, LayerStats};
pub use layer::{how_far, Layer, LayerError, SplitMix64, BLOCK};
pub use levels::{Farthest, Level, LevelPicks, PassOptions, LEVEL_PASS_ENV};
pub use lockstep::Lockstep;
pub use pattern::{MappedPatternTable, PatternTable};
pub use readahead::READ_BELOW;
pub use section::Section;
pub use slidetable_format::PatternGroup;
pub use table::{MappedTable, Table};
pub use watch::{check_mapped_files, observe_maps, MapEvent, TableChanged};
