//! Breadth-first searches: from the start only, and from both ends at once.

use slidetable_core::{Layout, Move};

use crate::state::{vec_bytes, Budget, Keyer, StateMap, Via, Visit, ROOT};
use crate::{check_solvable, Limits, SearchError, Solution, Stats};

/// One level of a breadth-first search: each state with its key and the code of the move
/// that reached it (so its children skip the move straight back).
type Level = Vec<(Layout, u64, u8)>;

/// Breadth-first search from `start`, level by level, until the goal is generated.
///
/// The first time the goal appears it is at the fewest moves, so the test is made when a
/// state is generated rather than when it is expanded, saving the goal's whole last level.
/// [`Stats::peak_open`] is the largest level held.
pub fn bfs(start: &Layout, goal: &Layout, limits: &Limits) -> Result<Solution, SearchError> {
    breadth_first(start, goal, limits, from_start)
}

/// What both breadth-first searches do first: refuse a start that cannot reach the goal,
/// start the clock, and answer at once when the start is the goal; else `search`.
// Inlined, and `search` with it: as calls, `bfs` on the 8-puzzle took 3% more
// instructions (callgrind).
#[inline(always)]
fn breadth_first(
    start: &Layout,
    goal: &Layout,
    limits: &Limits,
    search: impl FnOnce(&Layout, &Layout, Budget, Stats) -> Result<Solution, SearchError>,
) -> Result<Solution, SearchError> {
    check_solvable(start, goal)?;
    let budget = Budget::start(limits);
    let mut stats = Stats {
        bound: Some(0),
        ..Stats::default()
    };
    if start == goal {
        return Ok(Solution::unit(Vec::new(), budget.finish(&mut stats)));
    }
    search(start, goal, budget, stats)
}

/// [`bfs`] from a start that is not the goal.
#[inline(always)]
fn from_start(
    start: &Layout,
    goal: &Layout,
    budget: Budget,
    mut stats: Stats,
) -> Result<Solution, SearchError> {
    let keyer = Keyer::for_layout(start);
    let mut seen = StateMap::new(&keyer, true);
    let start_key = keyer.key(start);
    seen.set(start_key, Via::ROOT);
    let mut level: Level = vec![(*start, start_key, ROOT)];
    let mut next: Level = Vec::new();
    let mut depth = 0u32;
    stats.peak_open = 1;
    while !level.is_empty() {
        depth += 1;
        // Every state fewer than `depth` moves away has been made and none was the goal.
        stats.bound = Some(depth);
        for &(node, key, via) in &level {
            budget.expand(&mut stats, || {
                seen.bytes() + vec_bytes(&level) + vec_bytes(&next)
            })?;
            for m in Move::ALL {
                if m.code() ^ 1 == via {
                    continue;
                }
                let Some(child) = node.moved(m) else { continue };
                stats.generated += 1;
                let child_key = keyer.child(key, &node, m, &child);
                if !seen.insert_new(child_key, Via::reached(m)) {
                    continue;
                }
                if child == *goal {
                    let mut path = Vec::with_capacity(depth as usize);
                    seen.path_to(&keyer, &child, child_key, &mut path);
                    return Ok(Solution::unit(path, budget.finish(&mut stats)));
                }
                next.push((child, child_key, m.code()));
            }
        }
        stats.peak_open = stats.peak_open.max(next.len() as u64);
        std::mem::swap(&mut level, &mut next);
        next.clear();
    }
    // Unreachable for layouts of one class; said plainly rather than assumed.
    Err(SearchError::Unsolvable {
        start: *start,
        goal: *goal,
    })
}

/// One end of a bidirectional search.
struct Side {
    seen: StateMap<Visit>,
    frontier: Level,
    /// The depth of every state in `frontier`.
    depth: u32,
}

impl Side {
    fn new(keyer: &Keyer, root: &Layout) -> Side {
        // A few thousand states a side on the 8-puzzle: a hash map costs less than clearing
        // a flat array of all 181,440.
        let mut seen = StateMap::new(keyer, false);
        let key = keyer.key(root);
        seen.set(key, Visit::root());
        Side {
            seen,
            frontier: vec![(*root, key, ROOT)],
            depth: 0,
        }
    }
}

/// A state both searches reached, and the length of the path through it.
#[derive(Clone, Copy)]
struct Meeting {
    layout: Layout,
    key: u64,
    length: u32,
}

/// Bidirectional breadth-first search: one search from the start, one from the goal, each
/// expanding a whole level at a time, always the side with the smaller frontier.
///
/// Why this is optimal: before a level is expanded, the two searches hold every state within
/// `a` moves of the start and `b` moves of the goal and share none, so the shortest path is
/// longer than `a + b`. Expanding the forward level makes every meeting it finds a path of
/// at most `a + 1 + b` moves, hence exactly the shortest. The search still finishes the
/// level and keeps the shortest meeting, so the argument never depends on the order in
/// which one level's states are visited. [`Stats::peak_open`] counts both frontiers.
pub fn bidir(start: &Layout, goal: &Layout, limits: &Limits) -> Result<Solution, SearchError> {
    breadth_first(start, goal, limits, from_both_ends)
}

/// [`bidir`] from a start that is not the goal.
#[inline(always)]
fn from_both_ends(
    start: &Layout,
    goal: &Layout,
    budget: Budget,
    mut stats: Stats,
) -> Result<Solution, SearchError> {
    let keyer = Keyer::for_layout(start);
    let mut sides = [Side::new(&keyer, start), Side::new(&keyer, goal)];
    let mut next: Level = Vec::new();
    stats.peak_open = 2;
    loop {
        // No path of a + b moves or fewer (see above); each meeting the next level makes is
        // one of a + 1 + b.
        stats.bound = Some(sides[0].depth + sides[1].depth + 1);
        let (this, other) = {
            let [forward, backward] = &mut sides;
            if forward.frontier.len() <= backward.frontier.len() {
                (forward, &*backward)
            } else {
                (backward, &*forward)
            }
        };
        if this.frontier.is_empty() {
            return Err(SearchError::Unsolvable {
                start: *start,
                goal: *goal,
            });
        }
        let depth = this.depth + 1;
        let mut best: Option<Meeting> = None;
        for &(node, key, via) in &this.frontier {
            budget.expand(&mut stats, || {
                this.seen.bytes()
                    + other.seen.bytes()
                    + vec_bytes(&this.frontier)
                    + vec_bytes(&other.frontier)
                    + vec_bytes(&next)
            })?;
            for m in Move::ALL {
                if m.code() ^ 1 == via {
                    continue;
                }
                let Some(child) = node.moved(m) else { continue };
                stats.generated += 1;
                let child_key = keyer.child(key, &node, m, &child);
                if !this.seen.insert_new(child_key, Visit::reached(depth, m)) {
                    continue;
                }
                if let Some(there) = other.seen.get(child_key) {
                    let length = depth + there.g;
                    if length < best.map_or(u32::MAX, |b| b.length) {
                        best = Some(Meeting {
                            layout: child,
                            key: child_key,
                            length,
                        });
                    }
                }
                next.push((child, child_key, m.code()));
            }
        }
        this.depth = depth;
        std::mem::swap(&mut this.frontier, &mut next);
        next.clear();
        stats.peak_open = stats
            .peak_open
            .max((sides[0].frontier.len() + sides[1].frontier.len()) as u64);
        if let Some(meeting) = best {
            let path = join(&keyer, &sides, &meeting);
            debug_assert_eq!(path.len() as u32, meeting.length);
            return Ok(Solution::unit(path, budget.finish(&mut stats)));
        }
    }
}

/// The start's half of the path up to the meeting state, then the goal's half from it.
fn join(keyer: &Keyer, sides: &[Side; 2], meeting: &Meeting) -> Vec<Move> {
    let mut path = Vec::with_capacity(meeting.length as usize);
    sides[0]
        .seen
        .path_to(keyer, &meeting.layout, meeting.key, &mut path);
    // The goal's search reached the meeting state by moves away from the goal; walking them
    // back is walking towards the goal.
    sides[1]
        .seen
        .walk_to_root(keyer, &meeting.layout, meeting.key, |m| {
            path.push(m.opposite())
        });
    path
}

#[cfg(test)]
mod tests {
    use slidetable_core::{parse_layout, Board};

    use crate::{astar, bidir, dijkstra, Limit, Limits, Manhattan, SearchError};

    /// A 15-puzzle 28 moves out: beyond what the uninformed searches can hold in 32 MB (2 MB for
    /// the bidirectional one).
    #[test]
    fn searches_stop_at_their_memory_limit() {
        let board = Board::new(4, 4).unwrap();
        let start = parse_layout(board, b"5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15").unwrap();
        let goal = board.standard_goal();
        let limits = Limits::memory(32 << 20);
        // Bidirectional search holds far less: it finds this one in about 10 MB.
        let small = Limits::memory(2 << 20);
        let results = [
            ("bfs", super::bfs(&start, &goal, &limits), 32 << 20),
            ("bidir", bidir(&start, &goal, &small), 2 << 20),
            ("dijkstra", dijkstra(&start, &goal, &limits), 32 << 20),
        ];
        for (name, result, limit) in results {
            match result {
                Err(SearchError::LimitReached {
                    limit: Limit::Memory(b),
                    ..
                }) => assert_eq!(b, limit, "{name}"),
                other => panic!("{name}: {other:?}"),
            }
        }
        // A* with Manhattan finds it within the limit.
        let found = astar(&start, &Manhattan::new(&goal), &limits).unwrap();
        assert_eq!(found.path.len(), 28);
    }
}
