//! Dijkstra's algorithm over a per-move cost.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use slidetable_core::{Layout, Move};

use crate::state::{Budget, Keyer, Queued, StateMap, Visit};
use crate::{check_solvable, Limits, SearchError, Solution, Stats};

/// The cost of one move. Dijkstra needs costs that are never negative, which `u32` ensures.
///
/// Implemented by [`UnitCost`], [`TileCost`] and any `Fn(&Layout, Move, &Layout) -> u32`.
pub trait MoveCost {
    /// The cost of moving the blank by `m` from `before`, giving `after`.
    fn cost(&self, before: &Layout, m: Move, after: &Layout) -> u32;
}

/// Every move costs 1: the distance is the number of moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitCost;

impl MoveCost for UnitCost {
    #[inline]
    fn cost(&self, _: &Layout, _: Move, _: &Layout) -> u32 {
        1
    }
}

/// Moving tile `k` costs `k`: a weighted puzzle where heavy tiles should move little.
#[derive(Clone, Copy, Debug, Default)]
pub struct TileCost;

impl MoveCost for TileCost {
    #[inline]
    fn cost(&self, before: &Layout, _: Move, after: &Layout) -> u32 {
        // The tile that slid now sits where the blank was.
        u32::from(after.tile(before.blank()))
    }
}

impl<F: Fn(&Layout, Move, &Layout) -> u32> MoveCost for F {
    #[inline]
    fn cost(&self, before: &Layout, m: Move, after: &Layout) -> u32 {
        self(before, m, after)
    }
}

/// An entry of Dijkstra's heap: a state (its layout and key) and the cost it was reached
/// with, reversed so that `BinaryHeap` (a max-heap) pops the cheapest state first.
type Open = Queued<Reverse<u32>, (Layout, u64)>;

/// Dijkstra's algorithm with every move costing 1 (so the same answers as [`bfs`](crate::bfs),
/// by a different route: a binary heap instead of layers).
pub fn dijkstra(start: &Layout, goal: &Layout, limits: &Limits) -> Result<Solution, SearchError> {
    dijkstra_with(start, goal, &UnitCost, limits)
}

/// Dijkstra's algorithm with a binary heap, under any non-negative cost per move.
///
/// A state's cost is final when it leaves the heap (no cheaper path can appear later when
/// no move costs less than nothing), so the goal test is made then, and states whose cost
/// improves are pushed again rather than updated in place: stale heap entries are skipped
/// when popped. [`Solution::cost`] is the total cost; [`Stats::peak_open`] is the largest
/// the heap grew (stale entries included: they hold memory too).
pub fn dijkstra_with<C: MoveCost + ?Sized>(
    start: &Layout,
    goal: &Layout,
    cost: &C,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    check_solvable(start, goal)?;
    let budget = Budget::start(limits);
    let mut stats = Stats::default();
    let keyer = Keyer::for_layout(start);
    let mut seen = StateMap::new(&keyer, true);
    let start_key = keyer.key(start);
    seen.set(start_key, Visit::root());
    let mut open = BinaryHeap::new();
    open.push(Open {
        order: Reverse(0),
        item: (*start, start_key),
    });
    stats.peak_open = 1;
    while let Some(Open {
        order: Reverse(g),
        item: (layout, key),
    }) = open.pop()
    {
        let Some(visit) = seen.get(key) else { continue };
        if visit.closed || visit.g < g {
            continue;
        }
        seen.set(
            key,
            Visit {
                closed: true,
                ..visit
            },
        );
        // States leave the heap cheapest first, so the goal, not yet settled, costs at least g.
        stats.bound = Some(g);
        if layout == *goal {
            let mut path = Vec::new();
            seen.path_to(&keyer, &layout, key, &mut path);
            return Ok(Solution {
                path,
                cost: u64::from(g),
                stats: budget.finish(&mut stats),
            });
        }
        budget.expand(&mut stats, || {
            seen.bytes() + (open.capacity() * size_of::<Open>()) as u64
        })?;
        for m in Move::ALL {
            // The parent is already closed: skip the move straight back to it.
            if m.code() ^ 1 == visit.via {
                continue;
            }
            let Some(child) = layout.moved(m) else {
                continue;
            };
            stats.generated += 1;
            let child_g = g.saturating_add(cost.cost(&layout, m, &child));
            let child_key = keyer.child(key, &layout, m, &child);
            if let Some(known) = seen.get(child_key) {
                if known.closed || known.g <= child_g {
                    continue;
                }
            }
            seen.set(child_key, Visit::reached(child_g, m));
            open.push(Open {
                order: Reverse(child_g),
                item: (child, child_key),
            });
        }
        stats.peak_open = stats.peak_open.max(open.len() as u64);
    }
    Err(SearchError::Unsolvable {
        start: *start,
        goal: *goal,
    })
}
