//! Every method and heuristic against exact distances: the 3×3 tables of all nine goal
//! sections (built here by the generator's reverse breadth-first search), whole small
//! boards state by state, and random walks on boards too large for a table, checked against
//! each other. Heuristics are checked exhaustively for admissibility, consistency and their
//! incremental updates. Run with `--release`: debug builds are many times slower.

use std::sync::OnceLock;
use std::time::Duration;

use slidetable_core::{parse_layout, Board, Layout, Move, Ranker};
use slidetable_gen::engine::{solve_section, table_bytes};
use slidetable_query::Table;
use slidetable_search::{
    astar, bfs, bidir, dijkstra, dijkstra_with, idastar, solve, Heuristic, HeuristicKind, Limit,
    Limits, LinearConflict, Manhattan, Method, Misplaced, SearchError, Solution, TileCost,
};

/// xorshift64: a fixed seed gives the same states on every run and machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Tables of one board: one section per blank cell, sections in blank order.
struct Exact {
    goals: Vec<Layout>,
    table: Table<Vec<u8>>,
}

impl Exact {
    fn new(board: Board) -> Exact {
        let goals: Vec<Layout> = (0..board.cells())
            .map(|b| board.goal_with_blank(b))
            .collect();
        let sections: Vec<_> = goals.iter().map(|g| solve_section(g).unwrap()).collect();
        let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
        Exact { goals, table }
    }

    fn distance(&self, section: usize, layout: &Layout) -> u32 {
        self.table
            .section(section)
            .unwrap()
            .distance(layout)
            .unwrap()
            .unwrap()
    }

    /// Every layout that can reach goal `section`, with its distance.
    fn states(&self, section: usize) -> impl Iterator<Item = (Layout, u32)> + '_ {
        let goal = self.goals[section];
        let ranker = Ranker::new(goal.board()).unwrap();
        (0..ranker.states()).map(move |r| {
            let l = ranker.unrank(r, goal.class());
            (l, self.distance(section, &l))
        })
    }
}

fn eight() -> &'static Exact {
    static EXACT: OnceLock<Exact> = OnceLock::new();
    EXACT.get_or_init(|| Exact::new(Board::EIGHT))
}

/// A uniformly random layout that can reach `goal`.
fn random_state(rng: &mut Rng, goal: &Layout) -> Layout {
    let ranker = Ranker::new(goal.board()).unwrap();
    ranker.unrank(rng.below(ranker.states()), goal.class())
}

/// The end of a random walk of `steps` moves from `goal` that never undoes its last move.
fn random_walk(rng: &mut Rng, goal: &Layout, steps: usize) -> Layout {
    let mut l = *goal;
    let mut last: Option<Move> = None;
    let mut taken = 0;
    while taken < steps {
        let m = Move::ALL[rng.below(4) as usize];
        if Some(m.opposite()) == last {
            continue;
        }
        if let Some(next) = l.moved(m) {
            l = next;
            last = Some(m);
            taken += 1;
        }
    }
    l
}

const INFORMED: [Method; 2] = [Method::Astar, Method::Idastar];
const UNINFORMED: [Method; 3] = [Method::Bfs, Method::Bidir, Method::Dijkstra];

/// Solves and checks that the path is legal, ends at the goal and has `expected` moves.
fn check(
    method: Method,
    h: HeuristicKind,
    start: &Layout,
    goal: &Layout,
    expected: u32,
) -> Solution {
    let what = format!("{method}/{h} from {start} to {goal}");
    let s =
        solve(method, h, start, goal, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        start.after(&s.path),
        Some(*goal),
        "{what}: path does not reach the goal"
    );
    assert_eq!(s.path.len() as u32, expected, "{what}: not optimal");
    assert_eq!(s.cost, u64::from(expected), "{what}: cost");
    assert_eq!(
        s.stats.iterations.is_some(),
        method == Method::Idastar,
        "{what}"
    );
    // The bound proved: on a solved search, the solution's length by every method (IDA*'s
    // last bound; A*'s goal, popped at f = g; the level BFS was making; the two frontiers'
    // depths plus one; the g at which Dijkstra settled the goal).
    assert_eq!(s.stats.bound, Some(expected), "{what}");
    if expected > 0 {
        assert!(
            s.stats.expanded > 0 && s.stats.generated > 0,
            "{what}: {:?}",
            s.stats
        );
        assert!(s.stats.peak_open > 0, "{what}: {:?}", s.stats);
    }
    s
}

/// Every method (and every heuristic of the informed ones) from `start`.
fn check_all(start: &Layout, goal: &Layout, expected: u32) {
    for method in UNINFORMED {
        check(method, HeuristicKind::Manhattan, start, goal, expected);
    }
    for method in INFORMED {
        for h in HeuristicKind::ALL {
            check(method, h, start, goal, expected);
        }
    }
}

#[test]
fn informed_searches_match_the_table_on_every_goal() {
    let exact = eight();
    let mut rng = Rng(0x5EED_0001);
    let mut solved = 0;
    for (i, goal) in exact.goals.iter().enumerate() {
        for n in 0..400 {
            let start = random_state(&mut rng, goal);
            let d = exact.distance(i, &start);
            for method in INFORMED {
                for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                    check(method, h, &start, goal, d);
                }
                // The weak heuristic needs tens of thousands of nodes a query: fewer of them.
                if n < 25 {
                    check(method, HeuristicKind::Misplaced, &start, goal, d);
                }
            }
            solved += 1;
        }
    }
    assert_eq!(solved, 3600);
}

#[test]
fn bidirectional_search_matches_the_table_on_every_goal() {
    let exact = eight();
    let mut rng = Rng(0x5EED_0002);
    for (i, goal) in exact.goals.iter().enumerate() {
        for _ in 0..150 {
            let start = random_state(&mut rng, goal);
            check(
                Method::Bidir,
                HeuristicKind::Manhattan,
                &start,
                goal,
                exact.distance(i, &start),
            );
        }
    }
}

#[test]
fn bfs_and_dijkstra_match_the_table_on_every_goal() {
    let exact = eight();
    let mut rng = Rng(0x5EED_0003);
    for (i, goal) in exact.goals.iter().enumerate() {
        for _ in 0..4 {
            let start = random_state(&mut rng, goal);
            let d = exact.distance(i, &start);
            check(Method::Bfs, HeuristicKind::Manhattan, &start, goal, d);
            check(Method::Dijkstra, HeuristicKind::Manhattan, &start, goal, d);
        }
        // The goal itself and its neighbours: the edges of every search loop.
        check_all(goal, goal, 0);
        for m in goal.moves() {
            check_all(&goal.moved(m).unwrap(), goal, 1);
        }
    }
}

#[test]
fn the_two_hardest_states_take_31_moves_by_every_method() {
    let exact = eight();
    let goal = Board::EIGHT.standard_goal();
    let section = exact.goals.iter().position(|g| *g == goal).unwrap();
    let hardest: Vec<Layout> = exact
        .states(section)
        .filter(|&(_, d)| d == 31)
        .map(|(l, _)| l)
        .collect();
    assert_eq!(hardest.len(), 2);
    assert!(hardest.contains(&parse_layout(Board::EIGHT, b"8 6 7 2 5 4 3 x 1").unwrap()));
    for start in &hardest {
        check_all(start, &goal, 31);
    }
}

/// h ≤ distance everywhere, h = 0 at the goal, |h(a) − h(b)| ≤ 1 along every move, and the
/// incremental update equals a fresh estimate along every move.
fn check_heuristic(h: &dyn Heuristic, states: impl Iterator<Item = (Layout, u32)>) -> usize {
    let goal = *h.goal();
    assert_eq!(h.estimate(&goal), 0);
    assert!(h.is_consistent());
    let mut count = 0;
    for (l, d) in states {
        let e = h.estimate(&l);
        assert!(e <= d, "h({l}) = {e} > distance {d}");
        for m in l.moves() {
            let next = l.moved(m).unwrap();
            let e2 = h.estimate(&next);
            assert!(e.abs_diff(e2) <= 1, "h({l}) = {e} but h({next}) = {e2}");
            assert_eq!(h.update(e, &l, m, &next), e2, "update from {l} by {m}");
        }
        count += 1;
    }
    count
}

#[test]
fn heuristics_are_admissible_and_consistent_on_every_3x3_state() {
    let exact = eight();
    let goal = Board::EIGHT.standard_goal();
    let section = exact.goals.iter().position(|g| *g == goal).unwrap();
    for kind in HeuristicKind::ALL {
        let h = kind.build(&goal);
        assert_eq!(
            check_heuristic(&*h, exact.states(section)),
            181_440,
            "{kind}"
        );
    }
    // Another goal, blank in the middle: goal positions are not hard-wired.
    let centre = Board::EIGHT.goal_with_blank(4);
    for kind in HeuristicKind::ALL {
        check_heuristic(&*kind.build(&centre), exact.states(4));
    }
}

#[test]
fn heuristics_are_admissible_and_consistent_on_every_2x3_and_2x4_state() {
    for (rows, cols, states) in [(2, 3, 360), (2, 4, 20_160), (3, 2, 360)] {
        let board = Board::new(rows, cols).unwrap();
        let exact = Exact::new(board);
        for (i, goal) in exact.goals.iter().enumerate() {
            for kind in HeuristicKind::ALL {
                let n = check_heuristic(&*kind.build(goal), exact.states(i));
                assert_eq!(n, states, "{board} {kind}");
            }
        }
    }
}

#[test]
fn linear_conflict_dominates_manhattan_and_updates_incrementally_on_large_boards() {
    let mut rng = Rng(0x5EED_0004);
    for (rows, cols) in [(4, 4), (3, 4), (2, 8), (4, 3)] {
        let board = Board::new(rows, cols).unwrap();
        let goal = board.goal_with_blank(rng.below(board.cells() as u64) as usize);
        let (lc, md, mp) = (
            LinearConflict::new(&goal),
            Manhattan::new(&goal),
            Misplaced::new(&goal),
        );
        let mut l = goal;
        let hs: [&dyn Heuristic; 3] = [&lc, &md, &mp];
        let mut h = hs.map(|h| h.estimate(&l));
        for _ in 0..20_000 {
            let m = Move::ALL[rng.below(4) as usize];
            let Some(next) = l.moved(m) else { continue };
            for (k, heuristic) in hs.iter().enumerate() {
                h[k] = heuristic.update(h[k], &l, m, &next);
                assert_eq!(h[k], heuristic.estimate(&next), "{board} {next} by {m}");
            }
            assert!(h[0] >= h[1] && h[1] >= h[2], "{board} {next}: {h:?}");
            l = next;
        }
    }
}

#[test]
fn every_method_solves_every_2x2_and_2x3_state() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
        let exact = Exact::new(Board::new(rows, cols).unwrap());
        for (i, goal) in exact.goals.iter().enumerate() {
            for (start, d) in exact.states(i) {
                check_all(&start, goal, d);
            }
        }
    }
}

#[test]
fn three_by_four_walks_agree_across_methods() {
    let board = Board::new(3, 4).unwrap();
    let mut rng = Rng(0x5EED_0005);
    for n in 0..24 {
        let goal = board.goal_with_blank(rng.below(12) as usize);
        let start = random_walk(&mut rng, &goal, 12 + n * 2);
        let d = bidir(&start, &goal, &Limits::default()).unwrap().path.len() as u32;
        assert!(d <= 12 + n as u32 * 2);
        for method in INFORMED {
            for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                check(method, h, &start, &goal, d);
            }
        }
        if d <= 18 {
            check(Method::Bfs, HeuristicKind::Manhattan, &start, &goal, d);
            check(Method::Dijkstra, HeuristicKind::Manhattan, &start, &goal, d);
            check(Method::Astar, HeuristicKind::Misplaced, &start, &goal, d);
        }
    }
}

#[test]
fn the_15_puzzle_is_solved_optimally() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.standard_goal();
    // 28 moves, found by a random walk; bidirectional search proves the length.
    let start = parse_layout(board, b"5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15").unwrap();
    let d = bidir(&start, &goal, &Limits::default()).unwrap().path.len() as u32;
    assert_eq!(d, 28);
    for method in INFORMED {
        for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
            check(method, h, &start, &goal, d);
        }
    }
    // Shallow walks for the methods that cannot go deep on 16 cells, on several goals.
    let mut rng = Rng(0x5EED_0006);
    for _ in 0..6 {
        let goal = board.goal_with_blank(rng.below(16) as usize);
        let start = random_walk(&mut rng, &goal, 14);
        let d = bidir(&start, &goal, &Limits::default()).unwrap().path.len() as u32;
        check_all(&start, &goal, d);
    }
}

#[test]
fn unsolvable_starts_are_refused_before_any_search() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (2, 8)] {
        let board = Board::new(rows, cols).unwrap();
        let goal = board.standard_goal();
        let mut tiles = goal.tiles().to_vec();
        tiles.swap(0, 1);
        let swapped = Layout::new(board, &tiles).unwrap();
        for start in [swapped, swapped.moved(Move::Up).unwrap()] {
            for method in Method::ALL {
                for h in HeuristicKind::ALL {
                    // A limit of no expansions at all: refusal must come first.
                    let r = solve(method, h, &start, &goal, &Limits::expanded(0));
                    assert_eq!(
                        r,
                        Err(SearchError::Unsolvable { start, goal }),
                        "{method}/{h} on {board}"
                    );
                }
            }
        }
    }
    let three = Board::EIGHT.standard_goal();
    let four = Board::new(4, 4).unwrap().standard_goal();
    for method in Method::ALL {
        let r = solve(
            method,
            HeuristicKind::Manhattan,
            &three,
            &four,
            &Limits::default(),
        );
        assert_eq!(
            r,
            Err(SearchError::WrongBoard {
                start: Board::EIGHT,
                goal: four.board()
            })
        );
    }
}

#[test]
fn limits_stop_runaway_searches() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.standard_goal();
    let start = parse_layout(board, b"8 9 7 4 3 1 2 11 13 10 12 x 6 14 15 5").unwrap();
    for method in Method::ALL {
        let r = solve(
            method,
            HeuristicKind::Misplaced,
            &start,
            &goal,
            &Limits::expanded(500),
        );
        match r {
            Err(SearchError::LimitReached {
                limit: Limit::Expanded(500),
                stats,
            }) => assert_eq!(stats.expanded, 500, "{method}"),
            other => panic!("{method}: {other:?}"),
        }
        let r = solve(
            method,
            HeuristicKind::Misplaced,
            &start,
            &goal,
            &Limits::time(Duration::ZERO),
        );
        match r {
            Err(
                e @ SearchError::LimitReached {
                    limit: Limit::Time(_),
                    ..
                },
            ) => assert!(e
                .to_string()
                .starts_with("search stopped at its time limit")),
            other => panic!("{method}: {other:?}"),
        }
    }
}

/// Every method stopped after 1, 2, 4 … 4096 expansions, on random 8-puzzles of every goal:
/// the `bound` it reports is a true lower bound (at most the distance the table gives), it
/// never falls as the limit rises, and the stopped search's counts are the ones it reached.
#[test]
fn a_stopped_search_reports_a_true_lower_bound() {
    let exact = eight();
    let mut rng = Rng(0x5EED_0B0D);
    let mut stopped = [0u32; 5];
    for (i, goal) in exact.goals.iter().enumerate() {
        for _ in 0..12 {
            let start = random_state(&mut rng, goal);
            let d = exact.distance(i, &start);
            for (k, method) in Method::ALL.into_iter().enumerate() {
                let mut last = 0;
                for limit in (0..13).map(|e| 1u64 << e) {
                    let r = solve(
                        method,
                        HeuristicKind::Manhattan,
                        &start,
                        goal,
                        &Limits::expanded(limit),
                    );
                    let what = format!("{method} from {start} to {goal}, {limit} expansions");
                    let bound = match r {
                        Ok(s) => s.stats.bound,
                        Err(SearchError::LimitReached { stats, .. }) => {
                            assert_eq!(stats.expanded, limit, "{what}");
                            stopped[k] += 1;
                            stats.bound
                        }
                        Err(e) => panic!("{what}: {e}"),
                    };
                    let bound = bound.unwrap_or_else(|| panic!("{what}: no bound"));
                    assert!(bound <= d, "{what}: bound {bound} over the distance {d}");
                    assert!(bound >= last, "{what}: bound {bound} fell from {last}");
                    last = bound;
                }
            }
        }
    }
    // Each method was stopped many times, not only solved.
    assert!(stopped.iter().all(|&n| n > 100), "{stopped:?}");
    // Under tile costs Dijkstra's bound is a cost, at most the cheapest.
    let exact = Exact::new(Board::new(2, 3).unwrap());
    for (start, want) in tile_cost_distances(&exact, 5).into_iter().step_by(7) {
        for limit in [1, 10, 100] {
            let bound =
                match dijkstra_with(&start, &exact.goals[5], &TileCost, &Limits::expanded(limit)) {
                    Ok(s) => s.stats.bound,
                    Err(SearchError::LimitReached { stats, .. }) => stats.bound,
                    Err(e) => panic!("{start}: {e}"),
                };
            assert!(
                u64::from(bound.unwrap()) <= want,
                "{start}: {bound:?} over {want}"
            );
        }
    }
}

/// A heuristic that is admissible but not consistent: Manhattan on layouts with an even
/// first tile, nothing elsewhere. A* must reopen states to stay optimal with it.
struct Patchy(Manhattan);

impl Heuristic for Patchy {
    fn goal(&self) -> &Layout {
        self.0.goal()
    }

    fn estimate(&self, l: &Layout) -> u32 {
        if l.tile(0).is_multiple_of(2) {
            self.0.estimate(l)
        } else {
            0
        }
    }
}

#[test]
fn a_plugged_in_heuristic_need_only_be_admissible() {
    let exact = eight();
    let goal = Board::EIGHT.standard_goal();
    let section = exact.goals.iter().position(|g| *g == goal).unwrap();
    let patchy = Patchy(Manhattan::new(&goal));
    let dynamic: &dyn Heuristic = &patchy;
    let mut rng = Rng(0x5EED_0007);
    for _ in 0..60 {
        let start = random_state(&mut rng, &goal);
        let d = exact.distance(section, &start) as usize;
        assert_eq!(
            astar(&start, &patchy, &Limits::default())
                .unwrap()
                .path
                .len(),
            d
        );
        assert_eq!(
            idastar(&start, dynamic, &Limits::default())
                .unwrap()
                .path
                .len(),
            d
        );
    }
}

/// Fewest-cost distances to `goal` under "moving tile k costs k", by Bellman–Ford over every
/// state of a small board: slow, simple, and independent of the heap.
fn tile_cost_distances(exact: &Exact, section: usize) -> Vec<(Layout, u64)> {
    let goal = exact.goals[section];
    let ranker = Ranker::new(goal.board()).unwrap();
    let states: Vec<Layout> = exact.states(section).map(|(l, _)| l).collect();
    let mut cost = vec![u64::MAX; states.len()];
    cost[ranker.rank(&goal) as usize] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for (r, l) in states.iter().enumerate() {
            for m in l.moves() {
                let next = l.moved(m).unwrap();
                let via = cost[ranker.rank(&next) as usize];
                let c = via.saturating_add(u64::from(next.tile(l.blank())));
                if c < cost[r] {
                    cost[r] = c;
                    changed = true;
                }
            }
        }
    }
    states.into_iter().zip(cost).collect()
}

#[test]
fn dijkstra_finds_the_cheapest_path_under_tile_costs() {
    for (rows, cols) in [(2, 2), (2, 3)] {
        let exact = Exact::new(Board::new(rows, cols).unwrap());
        for (i, goal) in exact.goals.iter().enumerate() {
            for (start, want) in tile_cost_distances(&exact, i) {
                let s = dijkstra_with(&start, goal, &TileCost, &Limits::default()).unwrap();
                assert_eq!(s.cost, want, "{start}");
                assert_eq!(start.after(&s.path), Some(*goal));
                let mut at = start;
                let mut paid = 0u64;
                for &m in &s.path {
                    let next = at.moved(m).unwrap();
                    paid += u64::from(next.tile(at.blank()));
                    at = next;
                }
                assert_eq!(paid, want, "{start}: the path costs what was reported");
            }
        }
    }
    // A closure is a cost function too; unit costs give the unit answers.
    let goal = Board::EIGHT.standard_goal();
    let start = parse_layout(Board::EIGHT, b"2 3 4 1 5 x 7 6 8").unwrap();
    let unit = |_: &Layout, _: Move, _: &Layout| 1;
    assert_eq!(
        dijkstra_with(&start, &goal, &unit, &Limits::default())
            .unwrap()
            .cost,
        19
    );
    assert_eq!(
        dijkstra(&start, &goal, &Limits::default())
            .unwrap()
            .path
            .len(),
        19
    );
    assert_eq!(
        bfs(&start, &goal, &Limits::default()).unwrap().path.len(),
        19
    );
}
