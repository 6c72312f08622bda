//! What the query test binaries share: the default 8-puzzle table and an independent oracle.

#![allow(dead_code)] // each test binary uses its own part

use std::collections::HashMap;
use std::sync::OnceLock;

use slidetable_core::{parse_layout, Board, Layout};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_query::Table;

/// The table of `bytes` in format version 1 (one checksum of the whole payload, no block
/// checksums after it), as tables were written before version 2: `Table::new` verifies
/// nothing of it, so damage no checksum sees reaches the checks behind them.
pub(crate) fn version_1(bytes: &[u8]) -> Vec<u8> {
    let header = slidetable_format::Header::parse(bytes).unwrap();
    let mut v = header.version_1(bytes).unwrap().to_bytes();
    let start = header.header_len() as usize;
    let len: u64 = header.sections().iter().map(|s| s.payload_len()).sum();
    v.extend_from_slice(&bytes[start..start + len as usize]);
    v
}

/// The default 3×3 table (one section per blank cell), built once per test binary.
pub(crate) fn table() -> &'static Table<Vec<u8>> {
    static TABLE: OnceLock<Table<Vec<u8>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let board = Board::EIGHT;
        let sections = solve_sections(&default_goals(board)).unwrap();
        Table::new(table_bytes(board, &sections).unwrap()).unwrap()
    })
}

/// A 3×3 layout in puzzle-line syntax.
pub(crate) fn eight(s: &str) -> Layout {
    parse_layout(Board::EIGHT, s.as_bytes()).unwrap()
}

/// Fewest moves from `goal` to every layout that can reach it, by a plain breadth-first
/// search (the shared oracle of `slidetable-testkit`).
pub(crate) fn bfs(goal: Layout) -> HashMap<Layout, u32> {
    slidetable_testkit::distances_by_bfs(goal)
}
