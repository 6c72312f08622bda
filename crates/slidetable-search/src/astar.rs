//! A*: best-first search on f = g + h with a binary heap and a closed set.

use std::collections::BinaryHeap;

use slidetable_core::{Layout, Move};

use crate::state::{Budget, Keyer, Queued, StateMap, Visit, ROOT};
use crate::{reachable_goal, Heuristic, Limits, SearchError, Solution, Stats};

/// An entry of the heap, ordered by [`order`]; it carries the layout, its key and the code
/// of the move that reached it. `h` is not stored: it is `f - g`, which is all an
/// incremental heuristic update needs.
type Open = Queued<u64, (Layout, u64, u8)>;

/// The heap pops the smallest f; among equal f the largest g, i.e. the state the heuristic
/// thinks closest to the goal, which reaches the goal's f-layer soonest: `(Reverse(f), g)`,
/// packed in one `u64` so that a comparison is one instruction.
#[inline]
fn order(f: u32, g: u32) -> u64 {
    u64::from(u32::MAX - f) << 32 | u64::from(g)
}

/// The `(f, g)` of an [`order`].
#[inline]
fn f_g(order: u64) -> (u32, u32) {
    (u32::MAX - (order >> 32) as u32, order as u32)
}

/// A* from `start` to `heuristic.goal()`, expanding states in order of f = g + h.
///
/// States are remembered by key (their [`Ranker`](slidetable_core::Ranker) rank, or the
/// packed tiles on boards too large to rank; never strings) with their best g. With a
/// consistent heuristic a state's g is final when it is first popped, so each state is
/// expanded at most once; an admissible but inconsistent one may find a cheaper way to a
/// closed state, which is then reopened, so the answer stays optimal either way.
///
/// Two exits, both sound for any admissible heuristic:
/// - the goal is popped: its g is the smallest f left, and every other path costs at least
///   the f of some state on the heap;
/// - the goal is generated with g equal to the f of the state being expanded (the smallest
///   f on the heap): nothing left can do better, so the goal's whole f-layer is skipped.
///   With a consistent heuristic this is the usual case for the last move.
///
/// [`Stats::peak_open`] is the largest the heap grew (stale entries included).
pub fn astar<H: Heuristic + ?Sized>(
    start: &Layout,
    heuristic: &H,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let goal = reachable_goal(start, heuristic)?;
    let budget = Budget::start(limits);
    let mut stats = Stats::default();
    let keyer = Keyer::for_layout(start);
    let mut seen = StateMap::new(&keyer, false);
    let start_key = keyer.key(start);
    seen.set(start_key, Visit::root());
    let mut open = BinaryHeap::new();
    open.push(Open {
        order: order(heuristic.estimate(start), 0),
        item: (*start, start_key, ROOT),
    });
    stats.peak_open = 1;
    let found = |seen: &StateMap<Visit>, at: &Layout, key: u64, g: u32, stats: &mut Stats| {
        let mut path = Vec::with_capacity(g as usize);
        seen.path_to(&keyer, at, key, &mut path);
        Solution {
            path,
            cost: u64::from(g),
            stats: budget.finish(stats),
        }
    };
    while let Some(Open {
        order: popped,
        item: (layout, key, via),
    }) = open.pop()
    {
        let (f, g) = f_g(popped);
        match seen.get(key) {
            Some(v) if !v.closed && v.g == g => seen.set(key, Visit { closed: true, ..v }),
            // Stale: this state was pushed again with a smaller g, or already expanded.
            _ => continue,
        }
        stats.bound = Some(stats.bound.map_or(f, |b| b.max(f)));
        if layout == goal {
            return Ok(found(&seen, &layout, key, g, &mut stats));
        }
        budget.expand(&mut stats, || {
            seen.bytes() + (open.capacity() * size_of::<Open>()) as u64
        })?;
        let h = f - g;
        let child_g = g + 1;
        for m in Move::ALL {
            if m.code() ^ 1 == via {
                continue;
            }
            let Some(child) = layout.moved(m) else {
                continue;
            };
            stats.generated += 1;
            let child_key = keyer.child(key, &layout, m, &child);
            if let Some(known) = seen.get(child_key) {
                if known.g <= child_g {
                    continue;
                }
            }
            seen.set(child_key, Visit::reached(child_g, m));
            let child_h = heuristic.update(h, &layout, m, &child);
            if child_h == 0 && child_g == f && child == goal {
                return Ok(found(&seen, &child, child_key, child_g, &mut stats));
            }
            open.push(Open {
                order: order(child_g.saturating_add(child_h), child_g),
                item: (child, child_key, m.code()),
            });
        }
        stats.peak_open = stats.peak_open.max(open.len() as u64);
    }
    Err(SearchError::Unsolvable {
        start: *start,
        goal,
    })
}
