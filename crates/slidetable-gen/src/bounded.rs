//! The states within `D` moves of one goal, level by level (`solve_bounded`, in bounded_parts.rs), on any board
//! up to 16 cells, and their file (docs/FORMAT.md §13, [`write_bounded_to`]).
//!
//! Memory grows with the states within `D`, not with the board: each level is a sorted
//! vector of 64-bit ranks ([`WideRanker`]'s) while it is the frontier or the level before it,
//! and afterwards only its encoded form (an index entry per 256 states and a LEB128 gap a
//! state, about 2–3 bytes a state on 15 and 16 cells). A level is made by expanding the
//! frontier into one vector of every neighbour (its length known in advance from the blank
//! cells, so it is filled in place on every core), sorting it (rayon's parallel unstable
//! sort), and dropping in one merge pass the repeats and the states of the level before. The
//! level before is all that must be dropped: every board is bipartite (a move changes the
//! colour of the blank's cell on the chequerboard), so a neighbour of a state `d` moves away
//! is `d − 1` or `d + 1` moves away.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::engine::solve_bounded;
//!
//! let solved = solve_bounded(&Board::new(4, 4).unwrap().standard_goal(), 6, &mut |_| {}).unwrap();
//! // OEIS A089484: the 15-puzzle's states by distance from a corner-blank goal.
//! assert_eq!(solved.histogram(), vec![1, 2, 4, 10, 24, 54, 107]);
//! ```

use std::io::Write;
use std::time::Duration;

use rayon::prelude::*;
use slidetable_core::{slide, Layout, Neighbors, WideRanker};
use slidetable_format::{BoundedHeader, BoundedLevel, BOUNDED_BLOCK_STATES};

use crate::scale::{level_need, Held};
use crate::GenError;

/// The frontier states one task of the expansion takes.
const CHUNK: usize = 1 << 14;

/// One level made: what `solve_bounded` (bounded_parts.rs) reports as it goes.
#[derive(Clone, Debug)]
pub struct BoundedLevelDone {
    /// The level: states this many moves from the goal.
    pub level: u32,
    /// Its states.
    pub states: u64,
    /// The neighbours of the level before that were generated to find it (in parts, this
    /// process's).
    pub neighbours: u64,
    /// In parts: the bytes every process sent to the others for it, together (else 0).
    pub bytes_sent: u64,
    /// The time it took.
    pub elapsed: Duration,
    /// Each process's memory high-water mark so far, in bytes (`parts::peak_memory`; this
    /// process's alone in one process).
    pub peak_memory: Vec<u64>,
}

/// The states within `D` moves of a goal, each level encoded for the file.
#[derive(Clone, Debug)]
pub struct SolvedBounded {
    goal: Layout,
    levels: Vec<BoundedLevel>,
}

impl SolvedBounded {
    /// The levels of `goal` encoded elsewhere (the parts' levels joined by `merge`), level
    /// `d` the states `d` moves away.
    pub fn from_levels(goal: Layout, levels: Vec<BoundedLevel>) -> SolvedBounded {
        SolvedBounded { goal, levels }
    }

    /// The goal.
    pub fn goal(&self) -> &Layout {
        &self.goal
    }

    /// `D`.
    pub fn max_depth(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// The states at each distance from 0 to `D`.
    pub fn histogram(&self) -> Vec<u64> {
        self.levels.iter().map(BoundedLevel::states).collect()
    }

    /// The states within `D` moves.
    pub fn states(&self) -> u64 {
        self.levels.iter().map(BoundedLevel::states).sum()
    }
}

/// The disk space a table within `max_depth` moves of `goal` needs in `dir`, checked before
/// its search (`generate --max-depth D -o FILE`, as [`crate::room::check_room_resuming`] checks
/// a complete table's): where published counts of the board's levels reach `max_depth`,
/// the plan's model (`scale::within_plan`: the file and the checkpoint beside it at
/// [`crate::scale::WITHIN_BYTES_PER_STATE`]); `allocated` bytes of an earlier run's checkpoint,
/// which a new one replaces, count as available. [`GenError::NoDiskWithin`] when it does not
/// fit, with the deepest `D` that does. Where no published counts reach `max_depth`, nothing
/// is known before the search: [`check_disk_made`] checks as it goes.
pub(crate) fn check_disk_within(
    goal: &Layout,
    max_depth: u32,
    dir: &std::path::Path,
    allocated: u64,
) -> Result<(), GenError> {
    let (board, blank) = (goal.board(), goal.blank());
    let need = |d: u32| {
        crate::scale::within_plan(board, blank, d, 1)
            .ok()
            .map(|plan| (plan.file, plan.checkpoints))
    };
    let Some((file, checkpoint)) = need(max_depth) else {
        return Ok(());
    };
    let Some((available, origin)) = crate::room::available_disk(dir)? else {
        return Ok(());
    };
    let available = available.saturating_add(allocated);
    if file.saturating_add(checkpoint) <= available {
        return Ok(());
    }
    let fits = (0..max_depth)
        .rev()
        .find(|&d| need(d).is_some_and(|(f, c)| f.saturating_add(c) <= available));
    Err(GenError::NoDiskWithin {
        board,
        max_depth,
        after: None,
        file,
        checkpoint,
        available,
        origin,
        fits,
    })
}

/// Before a level of the search within `max_depth` moves of `goal` written to a file in
/// `dir`: [`GenError::NoDiskWithin`] once `levels`, the levels made so far (each level's
/// encoded bytes), take more than the disk holds (the file will hold them all), with the
/// deepest `D` whose levels fit.
pub(crate) fn check_disk_made(
    goal: &Layout,
    max_depth: u32,
    levels: &[u64],
    dir: &std::path::Path,
) -> Result<(), GenError> {
    let made: u64 = levels.iter().sum();
    let Some((available, origin)) = crate::room::available_disk(dir)? else {
        return Ok(());
    };
    if made <= available {
        return Ok(());
    }
    let fits = (0..levels.len())
        .rev()
        .find(|&d| levels[..=d].iter().sum::<u64>() <= available)
        .map(|d| d as u32);
    Err(GenError::NoDiskWithin {
        board: goal.board(),
        max_depth,
        after: Some(levels.len() as u32 - 1),
        file: made,
        checkpoint: 0,
        available,
        origin,
        fits,
    })
}

/// The memory a level needs, and what is available for it.
#[derive(Clone, Debug)]
pub(crate) struct LevelRoom {
    /// Bytes held already ([`Held`]).
    pub(crate) held: u64,
    /// Neighbours the level is made from (8 bytes each, sorted in place).
    pub(crate) neighbours: u64,
    /// Bytes available to the process in all (what it holds included), and where the figure
    /// comes from; `None` where nothing says.
    pub(crate) available: Option<(u64, String)>,
}

impl Held {
    /// The memory model of docs/FORMAT.md §13.5 (BENCHMARKS.md: both measured peaks within
    /// 3%): the level's neighbours at 8 bytes beside what is held. The memory available is
    /// [`crate::room::process_memory`]; when it is the system's free memory, what this
    /// process holds already is added to it (it is not free, but it is this process's).
    pub(crate) fn room(&self, neighbours: u64) -> Result<LevelRoom, GenError> {
        let held = self.bytes();
        let set = crate::environment::bytes(crate::room::MEMORY_ENV)?.is_some();
        let available = crate::room::process_memory(1)?.map(|(bytes, origin)| match set {
            true => (bytes, origin),
            false => (
                bytes.saturating_add(held),
                format!("{origin}, with what the search holds"),
            ),
        });
        Ok(LevelRoom {
            held,
            neighbours,
            available,
        })
    }
}

impl LevelRoom {
    /// Whether the level fits.
    pub(crate) fn fits(&self) -> bool {
        self.available
            .as_ref()
            .is_none_or(|(bytes, _)| self.need() <= *bytes)
    }

    /// Bytes the level needs in all.
    pub(crate) fn need(&self) -> u64 {
        level_need(self.held, self.neighbours)
    }

    /// [`GenError::NoRoomWithin`] for level `level` of `board`'s search within `max_depth`.
    pub(crate) fn refusal(
        self,
        board: slidetable_core::Board,
        level: u32,
        max_depth: u32,
        part: Option<(u32, u32)>,
    ) -> GenError {
        let (available, origin) = self.available.unwrap_or((u64::MAX, String::new()));
        GenError::NoRoomWithin {
            board,
            level,
            max_depth,
            part,
            neighbours: self.neighbours,
            held: self.held,
            available,
            origin,
        }
    }
}

/// The neighbours of the states of `frontier`: the moves of each one's blank.
pub(crate) fn count_neighbours(
    frontier: &[u64],
    ranker: &WideRanker,
    neighbors: &Neighbors,
) -> u64 {
    let block = ranker.block();
    frontier
        .par_iter()
        .map(|&r| neighbors.from((r / block) as usize).len() as u64)
        .sum()
}

/// Every neighbour of every state of `frontier` (ranks of class `class`), repeats and all,
/// in one vector whose length is known from the blank cells before any is made.
pub(crate) fn expand(
    frontier: &[u64],
    ranker: &WideRanker,
    neighbors: &Neighbors,
    class: u8,
) -> Vec<u64> {
    let block = ranker.block();
    let moves = |rank: u64| neighbors.from((rank / block) as usize).len();
    let counts: Vec<usize> = frontier
        .par_chunks(CHUNK)
        .map(|chunk| chunk.iter().map(|&r| moves(r)).sum())
        .collect();
    let mut out = vec![0u64; counts.iter().sum()];
    let mut slices = Vec::with_capacity(counts.len());
    let mut rest = &mut out[..];
    for &n in &counts {
        let (here, after) = rest.split_at_mut(n);
        slices.push(here);
        rest = after;
    }
    frontier
        .par_chunks(CHUNK)
        .zip(slices)
        .for_each(|(chunk, slice)| {
            let mut at = 0;
            for &rank in chunk {
                let (packed, blank) = ranker.unrank_packed(rank, class);
                for &(m, to) in neighbors.from(blank) {
                    let to = usize::from(to);
                    slice[at] = match m {
                        slidetable_core::Move::Left => rank - block,
                        slidetable_core::Move::Right => rank + block,
                        _ => ranker.rank_packed(slide(packed, blank, to), to),
                    };
                    at += 1;
                }
            }
        });
    out
}

/// Drops from sorted `next` its repeats and the states of sorted `before`, in one pass.
pub(crate) fn keep_new(next: &mut Vec<u64>, before: &[u64]) {
    let mut kept = 0;
    let mut j = 0;
    for i in 0..next.len() {
        let rank = next[i];
        if kept > 0 && next[kept - 1] == rank {
            continue;
        }
        while j < before.len() && before[j] < rank {
            j += 1;
        }
        if j < before.len() && before[j] == rank {
            continue;
        }
        next[kept] = rank;
        kept += 1;
    }
    next.truncate(kept);
}

/// Writes the file of `solved` to `out`; returns its length.
pub fn write_bounded_to(out: &mut dyn Write, solved: &SolvedBounded) -> Result<u64, GenError> {
    let mut out = out;
    BoundedHeader::write(&mut out, &solved.goal, BOUNDED_BLOCK_STATES, &solved.levels).map_err(
        |source| GenError::Io {
            path: "standard output".into(),
            source,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_and_the_level_before_are_dropped() {
        let mut next = vec![1, 1, 2, 3, 3, 5, 8, 8, 9];
        keep_new(&mut next, &[2, 4, 8]);
        assert_eq!(next, vec![1, 3, 5, 9]);
    }
}
