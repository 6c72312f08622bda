//! IDA*: depth-first searches bounded by f = g + h, the bound raised each time.

use slidetable_core::{Layout, Move};

use crate::state::{Budget, ROOT};
use crate::{reachable_goal, Heuristic, Limits, SearchError, Solution, Stats};

/// How one depth-first search under the bound ended.
enum Step {
    Found,
    /// Not found; the smallest f that exceeded the bound (`u32::MAX` if none did).
    Exceeded(u32),
    Stopped(SearchError),
}

struct Ida<'a, H: ?Sized> {
    heuristic: &'a H,
    goal: Layout,
    bound: u32,
    path: Vec<Move>,
    budget: Budget,
    stats: Stats,
}

impl<H: Heuristic + ?Sized> Ida<'_, H> {
    /// Searches below `node`, reached by `path` (g = its length) and estimated at `h`, whose
    /// f is within the bound. `via` is the code of the last move, whose opposite is skipped:
    /// undoing it would only revisit the parent, and in a graph where every state is two
    /// moves from itself that one rule prunes most duplicates for free.
    fn search(&mut self, node: &Layout, g: u32, h: u32, via: u8) -> Step {
        // By comparison, not by h = 0: a plugged-in heuristic that is not 0 at the goal
        // must not make the search run past it forever.
        if *node == self.goal {
            return Step::Found;
        }
        if let Err(e) = self.budget.expand(&mut self.stats, || 0) {
            return Step::Stopped(e);
        }
        let child_g = g + 1;
        let mut exceeded = u32::MAX;
        for m in Move::ALL {
            if m.code() ^ 1 == via {
                continue;
            }
            let Some(child) = node.moved(m) else { continue };
            self.stats.generated += 1;
            let child_h = self.heuristic.update(h, node, m, &child);
            // Saturating: a heuristic's huge estimate must prune, never wrap around.
            let f = child_g.saturating_add(child_h);
            if f > self.bound {
                // Pruned without a call: the common case at the bottom of each iteration.
                exceeded = exceeded.min(f);
                continue;
            }
            self.path.push(m);
            self.stats.peak_open = self.stats.peak_open.max(u64::from(child_g));
            match self.search(&child, child_g, child_h, m.code()) {
                Step::Exceeded(f) => exceeded = exceeded.min(f),
                done => return done,
            }
            self.path.pop();
        }
        Step::Exceeded(exceeded)
    }
}

/// IDA* from `start` to `heuristic.goal()`: depth-first search cut off where f = g + h
/// exceeds a bound, repeated with the bound raised to the smallest f that exceeded it.
///
/// Memory is the path alone, so it reaches boards (4×4) whose states no closed set could
/// hold; the price is re-expanding the shallow states once per iteration and revisiting
/// states reached by different move orders. Each child's h comes from
/// [`Heuristic::update`] (for Manhattan: two table look-ups for the one tile that moved),
/// and the move that undoes the last one is never tried. Nothing is allocated per node: the
/// path is one vector, pushed and popped.
///
/// [`Stats::peak_open`] is the deepest the recursion went, in moves (the longest path held);
/// [`Stats::iterations`] counts the bounds tried; expanded and generated sum all iterations.
pub fn idastar<H: Heuristic + ?Sized>(
    start: &Layout,
    heuristic: &H,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let goal = reachable_goal(start, heuristic)?;
    let h = heuristic.estimate(start);
    let mut ida = Ida {
        heuristic,
        goal,
        bound: h,
        path: Vec::with_capacity(128),
        budget: Budget::start(limits),
        stats: Stats {
            iterations: Some(0),
            ..Stats::default()
        },
    };
    let longest = start.board().most_moves(goal.blank());
    loop {
        if u64::from(ida.bound) > longest {
            return Err(SearchError::Overestimated {
                bound: ida.bound,
                longest,
            });
        }
        ida.stats.iterations = ida.stats.iterations.map(|i| i + 1);
        ida.stats.bound = Some(ida.bound);
        match ida.search(start, 0, h, ROOT) {
            Step::Found => {
                let stats = ida.budget.finish(&mut ida.stats);
                return Ok(Solution::unit(ida.path, stats));
            }
            Step::Stopped(e) => return Err(e),
            // Nothing was cut off, so the whole reachable space was searched. Cannot happen
            // for layouts of one class, whose space holds the goal.
            Step::Exceeded(u32::MAX) => {
                return Err(SearchError::Unsolvable {
                    start: *start,
                    goal,
                })
            }
            Step::Exceeded(f) => ida.bound = f,
        }
    }
}
