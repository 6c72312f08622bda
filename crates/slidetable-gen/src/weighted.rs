//! Cheapest costs when moves cost different amounts: Dijkstra's algorithm backwards from the
//! goal, with a bucket queue.
//!
//! A move swaps the blank with one tile, and costs the same whichever way it is made, so the
//! cheapest cost from the goal to a state is the cheapest from the state to the goal. Costs
//! per move are at most `n − 1` (the largest tile), so a ring of `n` buckets holds every
//! tentative cost still open: everything pushed while settling cost `c` costs at most
//! `c + n − 1`.
//!
//! A state's tentative value is `cost << 2 | first move`, compared as one number: the
//! cheapest cost wins, and among equally cheap parents the first move in code order (u d l r),
//! so the entries do not depend on the order of the queue.

use slidetable_core::{Layout, Neighbors, Ranker};
use slidetable_format::{narrow_wide, wide_payload, CostModel, Encoding};

use crate::{GenError, SolvedSection};

const OPEN: u32 = u32::MAX;

/// Every state's cheapest cost to `goal` under `cost`, as [`Encoding::Wide16`] entries.
pub fn solve_weighted(goal: &Layout, cost: CostModel) -> Result<SolvedSection, GenError> {
    let board = goal.board();
    let ranker = Ranker::new(board)?;
    let moves = Neighbors::new(board);
    let class = goal.class();
    let states = ranker.states() as usize;
    let mut best = vec![OPEN; states];
    let ring = board.cells();
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); ring];
    let goal_rank = ranker.rank(goal);
    best[goal_rank as usize] = 0;
    // Up to 10 cells (MAX_WEIGHTED_CELLS): every rank fits a `u32`.
    buckets[0].push(goal_rank as u32);
    let mut histogram: Vec<u64> = Vec::new();
    let mut open = 1usize;
    let mut settled = 0usize;
    let max = Encoding::Wide16.max_distance();
    let mut c = 0u32;
    while open > 0 {
        let bucket = std::mem::take(&mut buckets[c as usize % ring]);
        open -= bucket.len();
        for &r in &bucket {
            if best[r as usize] >> 2 != c {
                continue; // pushed at a higher cost before a cheaper one was found
            }
            if c > max {
                return Err(GenError::TooCostly {
                    goal: *goal,
                    encoding: Encoding::Wide16.name(),
                    max,
                });
            }
            settled += 1;
            if histogram.len() <= c as usize {
                histogram.resize(c as usize + 1, 0);
            }
            histogram[c as usize] += 1;
            let (packed, blank) = ranker.unrank_packed(u64::from(r), class);
            for &(m, to) in moves.from(blank) {
                let to = to as usize;
                let tile = ((packed >> (4 * to)) & 0xF) as u8;
                let moved = slidetable_core::slide(packed, blank, to);
                let n = ranker.step(u64::from(r), m, moved, to) as usize;
                let step = cost.of_tile(tile);
                // From the neighbour, the blank comes back the opposite way.
                let value = (c + step) << 2 | u32::from(m.opposite().code());
                if value < best[n] {
                    if best[n] >> 2 != c + step {
                        buckets[(c + step) as usize % ring].push(n as u32);
                        open += 1;
                    }
                    best[n] = value;
                }
            }
        }
        let mut bucket = bucket;
        bucket.clear();
        if buckets[c as usize % ring].is_empty() {
            // Give the allocation back to the ring.
            buckets[c as usize % ring] = bucket;
        }
        c += 1;
    }
    debug_assert_eq!(settled, states);
    // Every cost is at most 16383 (checked above): the value fits a wide entry.
    let entries = wide_payload(best.iter().map(|&v| v as u16));
    Ok(SolvedSection {
        goal: *goal,
        entries,
        histogram,
        encoding: Encoding::Wide16,
        cost,
    })
}

/// The same sections with byte entries, when every cost fits one (≤ 63).
pub fn narrow(sections: Vec<SolvedSection>) -> Vec<SolvedSection> {
    if sections
        .iter()
        .any(|s| s.encoding != Encoding::Wide16 || s.max_distance() > 63)
    {
        return sections;
    }
    let Some(narrowed) = sections
        .iter()
        .map(|s| narrow_wide(&s.entries))
        .collect::<Option<Vec<_>>>()
    else {
        return sections;
    };
    sections
        .into_iter()
        .zip(narrowed)
        .map(|(s, entries)| SolvedSection {
            entries,
            encoding: Encoding::Byte,
            ..s
        })
        .collect()
}
