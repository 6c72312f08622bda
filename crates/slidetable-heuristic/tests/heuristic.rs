//! The shipped heuristics measured over all 181,440 states, and deliberately bad ones caught.

use std::sync::OnceLock;

use slidetable_core::{parse_layout, Board, Layout};
use slidetable_gen::{default_goals, solve_sections, table_bytes};
use slidetable_heuristic::measure;
use slidetable_query::Table;
use slidetable_search::{Heuristic, HeuristicKind, Manhattan};

fn table() -> &'static Table<Vec<u8>> {
    static TABLE: OnceLock<Table<Vec<u8>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let board = Board::EIGHT;
        let sections = solve_sections(&default_goals(board)).unwrap();
        Table::new(table_bytes(board, &sections).unwrap()).unwrap()
    })
}

fn eight(s: &str) -> Layout {
    parse_layout(Board::EIGHT, s.as_bytes()).unwrap()
}

/// Twice Manhattan: over-estimates one move from the goal, and jumps by 2 along every move.
struct Doubled(Manhattan);

impl Heuristic for Doubled {
    fn goal(&self) -> &Layout {
        self.0.goal()
    }
    fn estimate(&self, layout: &Layout) -> u32 {
        2 * self.0.estimate(layout)
    }
}

/// Never above Manhattan, so admissible, but not consistent (though it claims to be):
/// Manhattan where it is even, Manhattan − 3 (at least 0) where it is odd, so a move from an
/// even Manhattan m ≥ 4 to m − 1 drops the estimate by 4.
struct Spiky(Manhattan);

impl Heuristic for Spiky {
    fn goal(&self) -> &Layout {
        self.0.goal()
    }
    fn estimate(&self, layout: &Layout) -> u32 {
        let m = self.0.estimate(layout);
        if m % 2 == 0 {
            m
        } else {
            m.saturating_sub(3)
        }
    }
    fn is_consistent(&self) -> bool {
        true
    }
}

#[test]
fn the_shipped_heuristics_are_admissible_and_consistent_for_every_goal_cell() {
    for goal in [
        "1 2 3 4 5 6 7 8 0",
        "1 2 3 8 0 4 7 6 5",
        "0 1 2 3 4 5 6 7 8",
    ] {
        let goal = eight(goal);
        for kind in HeuristicKind::ALL {
            let report = measure(table(), &*kind.build(&goal)).unwrap();
            assert!(report.admissible(), "{kind} for {goal}: {report:?}");
            assert!(report.consistent(), "{kind} for {goal}: {report:?}");
            assert!(report.claims_consistent);
            assert_eq!(report.goal, goal);
            assert_eq!(report.overall.states, 181_440);
            assert_eq!(
                report.by_distance.iter().map(|a| a.states).sum::<u64>(),
                181_440
            );
            assert_eq!(report.by_distance[0].max_estimate, 0);
            assert_eq!(report.by_distance[0].exact_share, 1.0);
            assert_eq!(report.by_distance[0].mean_ratio, None);
            // Every state's moves: 2 from a corner, 3 from an edge, 4 from the centre.
            assert_eq!(report.moves_checked, 181_440 / 9 * (4 * 2 + 4 * 3 + 4));
        }
    }
}

#[test]
fn per_distance_figures_for_manhattan() {
    let goal = Board::EIGHT.standard_goal();
    let m = measure(table(), &Manhattan::new(&goal)).unwrap();
    let lc = measure(table(), &HeuristicKind::LinearConflict.build(&goal)).unwrap();
    let misplaced = measure(table(), &HeuristicKind::Misplaced.build(&goal)).unwrap();
    assert_eq!(m.by_distance.len(), 32);
    // One move away every heuristic is exact.
    for t in [&m, &lc, &misplaced] {
        assert_eq!(t.by_distance[1].exact, 2);
        assert_eq!(t.by_distance[1].mean_ratio, Some(1.0));
    }
    // Stronger heuristics estimate higher on average, state by state never lower.
    assert!(lc.overall.mean_estimate > m.overall.mean_estimate);
    assert!(m.overall.mean_estimate > misplaced.overall.mean_estimate);
    for d in 1..32 {
        assert!(lc.by_distance[d].min_estimate >= m.by_distance[d].min_estimate);
        assert!(lc.by_distance[d].max_estimate <= d as u32);
        assert!(m.by_distance[d].mean_estimate <= d as f64);
    }
    // Parity: Manhattan and the distance always have the same parity.
    for (d, a) in m.by_distance.iter().enumerate() {
        assert_eq!(a.min_estimate % 2, d as u32 % 2);
        assert_eq!(a.max_estimate % 2, d as u32 % 2);
    }
    let under = m.worst_underestimate.unwrap();
    assert!(under.distance - under.estimate >= 10);
    let table_goal = table().standard().unwrap();
    assert_eq!(
        table_goal.distance(&under.layout).unwrap(),
        Some(under.distance)
    );
}

#[test]
fn an_overestimate_is_caught_with_a_counter_example() {
    let goal = Board::EIGHT.standard_goal();
    let report = measure(table(), &Doubled(Manhattan::new(&goal))).unwrap();
    assert!(!report.admissible());
    assert!(!report.consistent());
    assert!(!report.claims_consistent);
    let w = report.worst_overestimate.unwrap();
    assert!(w.estimate > w.distance, "{w:?}");
    assert_eq!(
        table().distance(&w.layout).unwrap(),
        Some(w.distance),
        "the witness's distance is the table's"
    );
    assert_eq!(w.estimate, 2 * Manhattan::new(&goal).estimate(&w.layout));
    let jump = report.worst_inconsistency.unwrap();
    assert_eq!(jump.from.moved(jump.step), Some(jump.to));
    assert!(jump.estimate_from > jump.estimate_to + 1);
}

#[test]
fn an_inconsistent_admissible_heuristic_is_told_apart() {
    let goal = Board::EIGHT.standard_goal();
    let report = measure(table(), &Spiky(Manhattan::new(&goal))).unwrap();
    assert!(report.admissible());
    assert!(!report.consistent());
    // It claims consistency; the measurement says otherwise.
    assert!(report.claims_consistent);
    let jump = report.worst_inconsistency.unwrap();
    assert_eq!(jump.estimate_from - jump.estimate_to, 4);
    assert_eq!(jump.from.moved(jump.step), Some(jump.to));
}
