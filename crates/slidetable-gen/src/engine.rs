//! The generator's parts, for a caller that assembles its own run: each search, what it
//! returns, and the writers of a table or pattern database from it. What a user calls is
//! [`crate::generate`] (a [`crate::Plan`] made into a file, the memory and disk checked
//! first), [`crate::generate_patterns`] and the facade's one-call forms; these are what they
//! are made of, and what the tests and benchmarks of other crates build tables in memory with.
//!
//! [`solve`] picks the search for a plan; `bfs_queue.rs` is the breadth-first search of
//! boards up to 10 cells ([`solve_section`]), `bfs_scan.rs` the one of 11 and 12 cells over
//! bitmaps ([`solve_by_scan`]), `bfs_residues.rs` the search in 2-bit entries up to 14 cells,
//! `weighted.rs` the cheapest costs of weighted moves ([`solve_weighted`]), `pattern.rs` the
//! pattern databases' search ([`solve_pattern`], [`solve_partition`]), `bounded.rs` the
//! states within a depth ([`solve_bounded`]); `write.rs` writes files.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::engine::{solve_section, table_bytes};
//!
//! let board = Board::new(2, 3).unwrap();
//! let section = solve_section(&board.standard_goal()).unwrap();
//! assert_eq!(section.histogram.iter().sum::<u64>(), 360);
//! assert_eq!(section.max_distance(), 21);
//! let bytes = table_bytes(board, &[section]).unwrap();
//! assert!(bytes.starts_with(b"SLIDETBL"));
//! ```

use rayon::prelude::*;
use slidetable_core::Layout;
use slidetable_format::{CostModel, Encoding};

use crate::section::widen;
use crate::{bfs_residues, check_plan, GenError};

pub use crate::section::SolvedSection;

pub use crate::bfs_queue::{solve_section, solve_sections};
pub use crate::bfs_scan::solve_by_scan;
pub use crate::bounded::{write_bounded_to, BoundedLevelDone, SolvedBounded};
pub use crate::bounded_parts::solve_bounded;
pub use crate::bounded_parts::{
    generate_bounded, solve_bounded_in_parts, BoundedEvent, BoundedPartsDone, BoundedRun,
};
pub use crate::pattern::{partition_placements, solve_partition, solve_pattern, SolvedPattern};
pub use crate::pattern25::{
    partition25_placements, solve_partition25, solve_pattern25, solve_pattern25_in_width,
    write_pattern25,
};
pub use crate::pattern25_parts::{
    generate_pattern25, is_pattern25_parts_dir, merge_pattern25_parts, pattern25_checkpoint_name,
    pattern25_file_checkpoint, pattern25_older_groups, pattern25_part_name, pattern25_part_of,
    solve_partition25_in_parts, solve_partition25_in_parts_wide, solve_partition25_in_parts_with,
    Merged25, Parts25Done, Parts25Event, Parts25Options,
};
pub use crate::weighted::{narrow, solve_weighted};
pub use crate::write::{
    pattern_bytes, replace_table, table_bytes, write_pattern_table, write_pattern_to, write_table,
    write_to,
};

/// Solves every goal under `cost` into `encoding` (or the board's default), reporting the
/// states settled to `progress` as it goes. Small boards solve their sections in parallel;
/// large ones one after another, each on every core, so that memory holds one search at a
/// time.
pub fn solve(
    goals: &[Layout],
    encoding: Option<Encoding>,
    cost: CostModel,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<SolvedSection>, GenError> {
    let Some(first) = goals.first() else {
        return Ok(Vec::new());
    };
    let board = first.board();
    let chosen = check_plan(board, encoding, cost)?;
    let reporting = |s: Result<SolvedSection, GenError>| {
        if let Ok(s) = &s {
            progress(s.histogram.iter().sum());
        }
        s
    };
    match (cost, chosen) {
        (CostModel::Unit, Encoding::Byte) if board.cells() <= 10 => goals
            .par_iter()
            .map(|g| reporting(solve_section(g)))
            .collect(),
        (CostModel::Unit, Encoding::TwoBit) => goals
            .iter()
            .map(|g| bfs_residues::solve_by_residues(g, progress))
            .collect(),
        (CostModel::Unit, Encoding::Byte) => goals
            .iter()
            .map(|g| solve_by_scan(g, chosen, progress))
            .collect(),
        (CostModel::Unit, Encoding::Wide16) => {
            let sections: Vec<SolvedSection> = goals
                .par_iter()
                .map(|g| reporting(solve_section(g)))
                .collect::<Result<_, _>>()?;
            Ok(sections.into_iter().map(widen).collect())
        }
        (CostModel::Tile, _) => {
            let sections: Vec<SolvedSection> = goals
                .par_iter()
                .map(|g| reporting(solve_weighted(g, cost)))
                .collect::<Result<_, _>>()?;
            let sections = if encoding.is_some() {
                sections
            } else {
                narrow(sections)
            };
            if chosen == Encoding::Byte {
                let narrowed = narrow(sections);
                if let Some(s) = narrowed.iter().find(|s| s.encoding != Encoding::Byte) {
                    return Err(GenError::TooCostly {
                        goal: s.goal,
                        encoding: Encoding::Byte.name(),
                        max: Encoding::Byte.max_distance(),
                    });
                }
                return Ok(narrowed);
            }
            Ok(sections)
        }
    }
}
