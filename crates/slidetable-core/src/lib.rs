//! Sliding-tile puzzles on rectangular boards: geometry, layouts, moves, the parity rule, a
//! dense ranking of each parity class, and the atomic bitmap of one bit per rank that the
//! scanning breadth-first searches share.
//!
//! ```
//! use slidetable_core::{parse_layout, Board, Move, Ranker};
//!
//! let board = Board::EIGHT;
//! let start = parse_layout(board, b"2 3 4 1 5 x 7 6 8").unwrap();
//! let goal = board.standard_goal();
//! assert!(start.can_reach(&goal));
//!
//! let ranker = Ranker::new(board).unwrap();
//! let rank = ranker.rank(&start);
//! assert!(rank < ranker.states());
//! assert_eq!(ranker.unrank(rank, start.class()), start);
//! assert_eq!(goal.moved(Move::Up).unwrap().to_string(), "1 2 3 4 5 0 7 8 6");
//! ```

mod bits;
mod board;
mod layout;
mod layout25;
pub mod lines;
mod moves;
mod neighbors;
mod parse;
mod rank;
mod symmetry;
mod words;

pub use bits::{
    each_set_bit, expand_level, mask_tiles, mask_tiles_25, AtomicBitmap, Expand, SCAN_CHUNK,
};
pub use board::{factorial, Board, BoardError, MAX_CELLS, MAX_TABLE_CELLS};
pub use layout::{Layout, LayoutError};
pub use layout25::{Layout25, Layout25Error, Symmetry25};
pub use moves::{parse_path, path_string, Move, OrderError};
pub use neighbors::{slide, Neighbors};
pub use parse::{
    characters, is_blank_or_comment, is_space, parse_layout, parse_spaced_packed, parse_tile,
    Characters, ParseError, Token,
};
pub use rank::{
    placement_count, PlacementRank, PlacementRanker25, Placements, WidePlacementRanker25,
    MAX_CELLS_25,
};
pub use rank::{
    PlacementError, PlacementRanker, PrefixMoves, Ranker, Ranks, Scan, ScanCursor, Sideways, Steps,
    TileOrder, WideRanker, WIDE_RANKS_ENV,
};
pub use symmetry::Symmetry;
pub use words::{counted, one_of, shapes_of};
