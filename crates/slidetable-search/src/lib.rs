//! Online solvers: optimal paths found at query time, for any goal and every board a
//! [`Layout`] can hold (2×2 up to 4×4), including those too large for a table.
//!
//! Five methods, all optimal: [`bfs`], [`bidir`] (bidirectional BFS), [`dijkstra`] (with a
//! pluggable [`MoveCost`]), [`astar`] and [`idastar`], the last two guided by a
//! [`Heuristic`] ([`Manhattan`], [`LinearConflict`] or [`Misplaced`], or your own).
//! [`solve`] picks one by name, as the command line does. A start that cannot reach the goal
//! (another parity class, or another board) is refused before any search.
//!
//! Why several: the uninformed searches need no heuristic and check the informed ones;
//! A* expands the fewest states but remembers them all; IDA* remembers only its path, which
//! is what makes the 15-puzzle (10¹³ states) solvable at all.
//!
//! ```
//! use slidetable_core::{parse_layout, path_string, Board};
//! use slidetable_search::{solve, HeuristicKind, Limits, Method};
//!
//! let board = Board::EIGHT;
//! let start = parse_layout(board, b"2 3 4 1 5 x 7 6 8").unwrap();
//! let goal = board.standard_goal();
//! let method: Method = "idastar".parse().unwrap();
//! let heuristic: HeuristicKind = "linear-conflict".parse().unwrap();
//! let solution = solve(method, heuristic, &start, &goal, &Limits::default()).unwrap();
//! assert_eq!(solution.path.len(), 19);
//! assert_eq!(start.after(&solution.path), Some(goal));
//! println!("{} in {:?}", path_string(&solution.path), solution.stats.elapsed);
//!
//! // The 15-puzzle: far too many states for a table, under a millisecond for IDA*.
//! let board = Board::new(4, 4).unwrap();
//! let start = parse_layout(board, b"5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15").unwrap();
//! let goal = board.standard_goal();
//! let solution = solve(Method::Idastar, HeuristicKind::LinearConflict, &start, &goal,
//!                      &Limits::default()).unwrap();
//! assert_eq!(start.after(&solution.path), Some(goal));
//! assert_eq!(solution.path.len(), 28);
//!
//! // Parity decides reachability before any search starts.
//! let swapped = parse_layout(Board::EIGHT, b"2 1 3 4 5 6 7 8 x").unwrap();
//! let refused = solve(Method::Bfs, heuristic, &swapped, &Board::EIGHT.standard_goal(),
//!                     &Limits::default());
//! assert!(matches!(refused, Err(slidetable_search::SearchError::Unsolvable { .. })));
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use slidetable_core::{Board, Layout, Move};

mod astar;
mod bfs;
mod branching;
mod dijkstra;
mod heuristic;
mod idastar;
mod pdb;
mod pdb25;
mod pruning;
mod state;

pub use astar::astar;
pub use bfs::{bfs, bidir};
pub use branching::effective_branching_factor;
pub use dijkstra::{dijkstra, dijkstra_with, MoveCost, TileCost, UnitCost};
pub use heuristic::{
    line_removals, Heuristic, HeuristicKind, LinearConflict, Manhattan, Misplaced, UnknownName,
};
pub use idastar::idastar;
pub use pdb::{PatternError, PatternHeuristic, PatternSearch, Symmetric};
pub use pdb25::{Databases25, Progress25, Search25Error, Solved25};

/// An optimal path and what finding it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Moves of the blank from the start to the goal; empty when the start is the goal.
    pub path: Vec<Move>,
    /// The path's total cost under the cost model searched with: `path.len()` for every
    /// method but [`dijkstra_with`] under a non-unit [`MoveCost`].
    pub cost: u64,
    /// The work the search did.
    pub stats: Stats,
}

impl Solution {
    fn unit(path: Vec<Move>, stats: Stats) -> Solution {
        Solution {
            cost: path.len() as u64,
            path,
            stats,
        }
    }
}

/// Work done by one search.
///
/// The counts make methods comparable: *expanded* states had their moves tried, *generated*
/// states are the results of those moves (duplicates included, the move back to the parent
/// excluded). *Peak open* is the most states a method held waiting to be expanded, which for
/// each method is:
///
/// - `bfs`: the largest layer; `bidir`: the largest sum of both frontiers;
/// - `dijkstra`, `astar`: the largest the heap grew (stale entries included);
/// - `idastar`: the deepest the recursion went, in moves (the longest path on the stack),
///   since it holds no open list at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// States whose moves were tried.
    pub expanded: u64,
    /// States the moves made.
    pub generated: u64,
    /// The most states waiting to be expanded at once.
    pub peak_open: u64,
    /// Wall-clock time of the search, from the parity check to the path.
    pub elapsed: Duration,
    /// IDA* only: the number of bounds tried (depth-first iterations).
    pub iterations: Option<u32>,
    /// A length (a cost, under other move costs) the search has proved no solution is
    /// shorter than; the solution's when one is found, and what a search stopped at a limit
    /// had proved. A* and IDA*: the largest f = g + h reached (IDA*'s bound in its last
    /// iteration, A*'s largest f of a state expanded); BFS: the depth of the level being
    /// made; bidirectional BFS: the depths both searches completed, plus one; Dijkstra: the
    /// largest g settled. Every method sets it; `None` only in a `Stats` made by hand.
    pub bound: Option<u32>,
}

/// Bounds that stop a search that runs away: the uninformed methods on a 4×4 board, or a
/// weak heuristic on a hard instance. The default has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop with [`SearchError::LimitReached`] rather than expand more states than this.
    pub max_expanded: Option<u64>,
    /// Stop after about this long (the clock is read every 1024 expansions).
    pub max_time: Option<Duration>,
    /// Stop rather than hold more than about this many bytes of remembered and waiting
    /// states (the closed set and the open list, by their capacity; checked every 1024
    /// expansions). The uninformed methods on a 4×4 board grow by over 100 MB a second.
    pub max_memory: Option<u64>,
    /// Stop with [`Limit::Stopped`] once this is requested from another thread (a front
    /// end's Ctrl-C; read every 1024 expansions, as the clock).
    pub stop: Option<Stop>,
}

/// A request to stop a search, made from another thread: a handle shared by the search's
/// [`Limits`] and whoever may cancel it (clones are the same request).
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A request not made yet.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks every search holding this handle to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether stopping was asked.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The same handle (not merely two requests in the same state).
impl PartialEq for Stop {
    fn eq(&self, other: &Stop) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Stop {}

impl Limits {
    /// At most `n` expanded states.
    pub fn expanded(n: u64) -> Limits {
        Limits {
            max_expanded: Some(n),
            ..Limits::default()
        }
    }

    /// At most about `t` of searching.
    pub fn time(t: Duration) -> Limits {
        Limits {
            max_time: Some(t),
            ..Limits::default()
        }
    }

    /// At most about `bytes` of states held.
    pub fn memory(bytes: u64) -> Limits {
        Limits {
            max_memory: Some(bytes),
            ..Limits::default()
        }
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// This many expanded states.
    Expanded(u64),
    /// This much wall-clock time.
    Time(Duration),
    /// Bytes of states held.
    Memory(u64),
    /// A [`Stop`] requested from another thread.
    Stopped,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Expanded(n) => write!(f, "limit of {n} expanded states"),
            Limit::Time(t) => write!(f, "time limit of {} s", t.as_secs_f64()),
            Limit::Memory(b) => write!(f, "memory limit of {:.1} MB", *b as f64 / 1e6),
            Limit::Stopped => f.write_str("request to stop"),
        }
    }
}

/// What a search stopped at `limit` says, on every board (the 24-puzzle's too) and from
/// every front end: the limit, the work done until then, and the length it proved no
/// solution is shorter than (`stats.bound`).
pub fn stopped_message(limit: Limit, stats: &Stats) -> String {
    let mut message = format!(
        "search stopped at its {limit} after expanding {} states in {:.3} s",
        stats.expanded,
        stats.elapsed.as_secs_f64()
    );
    if let Some(bound) = stats.bound {
        message += &format!("; no solution is shorter than {bound} moves");
    }
    message
}

/// Why a search gave no path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The start and the goal are on different boards.
    #[error("the start is a {start} puzzle but the goal is {goal}")]
    WrongBoard {
        /// The start's board.
        start: Board,
        /// The goal's board.
        goal: Board,
    },
    /// The start and the goal are in different parity classes.
    #[error("{start} cannot reach {goal}: they are in different parity classes, so no sequence of moves joins them")]
    Unsolvable {
        /// The start.
        start: Layout,
        /// The goal.
        goal: Layout,
    },
    /// The search's bound passed the most moves any puzzle of the board needs: its
    /// heuristic overestimates (a damaged pattern database), so no answer it gives could be
    /// trusted.
    #[error("the search's bound reached {bound} moves, more than any puzzle of this board needs ({longest}): its heuristic overestimates, so the pattern database is damaged; generate it again")]
    Overestimated {
        /// The bound the search reached.
        bound: u32,
        /// The most moves any puzzle of the board needs (`Board::most_moves`).
        longest: u64,
    },
    /// A limit stopped the search before it found the goal.
    #[error("{}", stopped_message(*limit, stats))]
    LimitReached {
        /// The limit.
        limit: Limit,
        /// The work done until then.
        stats: Stats,
    },
}

/// The goal of `heuristic`, once [`check_solvable`] says `start` reaches it: what the
/// searches guided by a heuristic do first.
fn reachable_goal<H: Heuristic + ?Sized>(
    start: &Layout,
    heuristic: &H,
) -> Result<Layout, SearchError> {
    let goal = *heuristic.goal();
    check_solvable(start, &goal)?;
    Ok(goal)
}

/// Refuses a start that cannot reach the goal: another board, or another parity class.
/// Every method calls this first, so an impossible query costs one inversion count.
pub fn check_solvable(start: &Layout, goal: &Layout) -> Result<(), SearchError> {
    if start.board() != goal.board() {
        return Err(SearchError::WrongBoard {
            start: start.board(),
            goal: goal.board(),
        });
    }
    if start.class() != goal.class() {
        return Err(SearchError::Unsolvable {
            start: *start,
            goal: *goal,
        });
    }
    Ok(())
}

/// The search methods, by the names the command line uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// [`bfs`]: `bfs`.
    Bfs,
    /// [`bidir`]: `bidir`.
    Bidir,
    /// [`dijkstra`]: `dijkstra`.
    Dijkstra,
    /// [`astar`]: `astar`.
    Astar,
    /// [`idastar`]: `idastar`.
    Idastar,
}

impl Method {
    /// Every method, in the order the command line lists them.
    pub const ALL: [Method; 5] = [
        Method::Bfs,
        Method::Bidir,
        Method::Dijkstra,
        Method::Astar,
        Method::Idastar,
    ];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Method::Bfs => "bfs",
            Method::Bidir => "bidir",
            Method::Dijkstra => "dijkstra",
            Method::Astar => "astar",
            Method::Idastar => "idastar",
        }
    }

    /// Whether the method is guided by a heuristic (A* and IDA*; the others search blind).
    pub fn uses_heuristic(self) -> bool {
        matches!(self, Method::Astar | Method::Idastar)
    }

    /// Refuses `heuristic` (a name, as given) for a method that takes none: a blind search
    /// would ignore it, and a figure measured that way would be credited to it.
    pub fn check_heuristic(self, heuristic: &str) -> Result<(), NoHeuristic> {
        if self.uses_heuristic() {
            return Ok(());
        }
        Err(NoHeuristic {
            method: self,
            heuristic: heuristic.to_string(),
        })
    }
}

/// A heuristic named for a method that takes none ([`Method::check_heuristic`]), in the
/// words of the command line, which every surface uses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--heuristic {heuristic}: --method {method} takes no heuristic (astar and idastar do)")]
pub struct NoHeuristic {
    /// The blind method.
    pub method: Method,
    /// The heuristic named for it.
    pub heuristic: String,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Method, UnknownName> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownName {
                what: "method",
                name: s.to_string(),
                expected: heuristic::listed(Method::ALL.map(Method::name)),
            })
    }
}

/// As [`solve`], guided by a heuristic of the caller's (pattern databases, say) towards its
/// own goal when `method` uses one: what `search --heuristic pdb` and the page's lesson on
/// search effort run.
pub fn solve_with<H: Heuristic + ?Sized>(
    method: Method,
    heuristic: &H,
    start: &Layout,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let goal = reachable_goal(start, heuristic)?;
    match method {
        Method::Bfs => bfs(start, &goal, limits),
        Method::Bidir => bidir(start, &goal, limits),
        Method::Dijkstra => dijkstra(start, &goal, limits),
        Method::Astar => astar(start, heuristic, limits),
        Method::Idastar => idastar(start, heuristic, limits),
    }
}

/// As [`solve_with`], on pattern databases: IDA* through their own search
/// ([`Symmetric::solve`], which updates the databases' entries per move and reads them
/// ahead, the moves tried in [`Move::ALL`]'s order as [`idastar`] tries them), the other
/// methods as [`solve_with`] runs them. What `search --heuristic pdb` and the page's lesson
/// on search effort run.
pub fn solve_with_patterns(
    method: Method,
    patterns: &Symmetric<'_>,
    start: &Layout,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    match method {
        Method::Idastar => patterns.solve(start, Move::ALL, limits),
        _ => solve_with(method, patterns, start, limits),
    }
}

/// An optimal path from `start` to `goal` by `method`, guided by `heuristic` when the method
/// uses one (see [`Method::uses_heuristic`]); unit move costs.
///
/// The heuristics are passed to the searches as concrete types, so each combination is
/// compiled with its heuristic inlined.
pub fn solve(
    method: Method,
    heuristic: HeuristicKind,
    start: &Layout,
    goal: &Layout,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    check_solvable(start, goal)?;
    match (method, heuristic) {
        (Method::Bfs, _) => bfs(start, goal, limits),
        (Method::Bidir, _) => bidir(start, goal, limits),
        (Method::Dijkstra, _) => dijkstra(start, goal, limits),
        (Method::Astar, HeuristicKind::Manhattan) => astar(start, &Manhattan::new(goal), limits),
        (Method::Astar, HeuristicKind::LinearConflict) => {
            astar(start, &LinearConflict::new(goal), limits)
        }
        (Method::Astar, HeuristicKind::Misplaced) => astar(start, &Misplaced::new(goal), limits),
        (Method::Idastar, HeuristicKind::Manhattan) => {
            idastar(start, &Manhattan::new(goal), limits)
        }
        (Method::Idastar, HeuristicKind::LinearConflict) => {
            idastar(start, &LinearConflict::new(goal), limits)
        }
        (Method::Idastar, HeuristicKind::Misplaced) => {
            idastar(start, &Misplaced::new(goal), limits)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_search_says_so_in_one_wording() {
        let stats = Stats {
            expanded: 1234,
            elapsed: Duration::from_millis(1500),
            bound: Some(38),
            ..Stats::default()
        };
        let said = |limit| stopped_message(limit, &stats);
        assert_eq!(
            said(Limit::Expanded(1000)),
            "search stopped at its limit of 1000 expanded states after expanding 1234 states in \
             1.500 s; no solution is shorter than 38 moves"
        );
        assert!(said(Limit::Time(Duration::from_millis(2500)))
            .starts_with("search stopped at its time limit of 2.5 s after "));
        assert!(said(Limit::Time(Duration::ZERO))
            .starts_with("search stopped at its time limit of 0 s after "));
        assert!(said(Limit::Stopped).starts_with("search stopped at its request to stop after "));
        // Both boards' errors say it so.
        let e = SearchError::LimitReached {
            limit: Limit::Expanded(1000),
            stats: stats.clone(),
        };
        assert_eq!(e.to_string(), said(Limit::Expanded(1000)));
        let e = Search25Error::LimitReached {
            limit: Limit::Expanded(1000),
            stats: stats.clone(),
        };
        assert_eq!(e.to_string(), said(Limit::Expanded(1000)));
    }

    #[test]
    fn a_requested_stop_stops_every_method() {
        // 80 moves from the 15-puzzle's goal: no method finishes it within the test.
        let board = Board::new(4, 4).unwrap();
        let start =
            slidetable_core::parse_layout(board, b"0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1").unwrap();
        let goal = board.standard_goal();
        let stop = Stop::new();
        stop.request();
        let limits = Limits {
            stop: Some(stop.clone()),
            ..Limits::default()
        };
        assert_eq!(limits, limits.clone());
        assert_ne!(limits, Limits::default());
        for method in Method::ALL {
            match solve(method, HeuristicKind::Manhattan, &start, &goal, &limits) {
                Err(SearchError::LimitReached { limit, stats }) => {
                    assert_eq!(limit, Limit::Stopped, "{method}");
                    assert!(stats.expanded <= 1024, "{method}: {}", stats.expanded);
                }
                other => panic!("{method}: {other:?}"),
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.to_string().parse::<Method>(), Ok(m));
        }
        assert_eq!(
            "dfs".parse::<Method>().unwrap_err().to_string(),
            "unknown method 'dfs' (expected one of: bfs, bidir, dijkstra, astar, idastar)"
        );
    }

    #[test]
    fn refusals_say_why() {
        let eight = Board::EIGHT.standard_goal();
        let two = Board::new(2, 3).unwrap().standard_goal();
        assert_eq!(
            check_solvable(&two, &eight).unwrap_err().to_string(),
            "the start is a 2x3 puzzle but the goal is 3x3"
        );
        let swapped = Layout::new(Board::EIGHT, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(
            check_solvable(&swapped, &eight).unwrap_err().to_string(),
            "2 1 3 4 5 6 7 8 0 cannot reach 1 2 3 4 5 6 7 8 0: they are in different parity \
             classes, so no sequence of moves joins them"
        );
    }
}
