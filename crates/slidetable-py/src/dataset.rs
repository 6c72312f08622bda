//! Every state of a goal's class with its distance and the first move of an optimal path:
//! the rows of `slidetable.dataset`, made on every core a block of ranks at a time.

use std::ops::Range;

use rayon::prelude::*;
use slidetable::query::{Goal, QueryError};

/// Ranks read by one task.
const BLOCK: u64 = 1 << 14;

/// Rows of a dataset, column by column.
#[derive(Default)]
pub(crate) struct Rows {
    /// The states' tiles, one state after another.
    pub(crate) tiles: Vec<u8>,
    /// Each state's distance.
    pub(crate) distances: Vec<i16>,
    /// The code of each state's first move (-1 at the goal).
    pub(crate) moves: Vec<i8>,
}

impl Rows {
    fn with_capacity(count: usize, cells: usize) -> Rows {
        Rows {
            tiles: Vec::with_capacity(count * cells),
            distances: Vec::with_capacity(count),
            moves: Vec::with_capacity(count),
        }
    }

    fn extend(&mut self, other: &Rows) {
        self.tiles.extend_from_slice(&other.tiles);
        self.distances.extend_from_slice(&other.distances);
        self.moves.extend_from_slice(&other.moves);
    }
}

/// The states of section ranks `ranks`, in rank order (`cells` tiles a state).
pub(crate) fn rows(goal: &Goal<'_>, ranks: Range<u64>, cells: usize) -> Result<Rows, QueryError> {
    let blocks: Vec<Range<u64>> = (ranks.start..ranks.end)
        .step_by(BLOCK as usize)
        .map(|s| s..s.saturating_add(BLOCK).min(ranks.end))
        .collect();
    let parts = blocks
        .into_par_iter()
        .map(|block| block_rows(goal, block, cells))
        .collect::<Result<Vec<_>, QueryError>>()?;
    let mut all = Rows::with_capacity((ranks.end - ranks.start) as usize, cells);
    for part in &parts {
        all.extend(part);
    }
    Ok(all)
}

fn block_rows(goal: &Goal<'_>, block: Range<u64>, cells: usize) -> Result<Rows, QueryError> {
    let mut rows = Rows::with_capacity((block.end - block.start) as usize, cells);
    for (layout, distance) in goal.states_in(block)? {
        let first = goal.first_move(&layout)?;
        // A 2-bit section that contradicts itself has no distance (u32::MAX): corrupt.
        let distance = i16::try_from(distance).map_err(|_| QueryError::Corrupt { layout })?;
        rows.tiles.extend_from_slice(layout.tiles());
        rows.distances.push(distance);
        rows.moves.push(first.map_or(-1, |m| m.code() as i8));
    }
    Ok(rows)
}
