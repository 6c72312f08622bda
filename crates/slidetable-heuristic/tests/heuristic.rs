//! The shipped heuristics measured over all 181,440 states, and deliberately bad ones caught.

use std::sync::OnceLock;

use slidetable_core::{parse_layout, Board, Layout, Move, Ranker};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_heuristic::{
    measure, measure_each, measure_kinds, Accuracy, HeuristicReport, Inconsistency, Witness,
};
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
        if m.is_multiple_of(2) {
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

/// Every figure of a report worked out the plain way: each rank of the goal's class unranked
/// by the ranker, its distance asked of the table, every heuristic's estimate of it and of
/// each neighbour made from scratch; the first worst case in rank order kept.
fn reference(goal: &Layout, heuristic: &dyn Heuristic) -> HeuristicReport {
    let ranker = Ranker::new(goal.board()).unwrap();
    let answers = table().goal(goal).unwrap();
    let section_goal = *answers.section().goal();
    let max = answers.max_distance() as usize;
    let mut counts = vec![vec![0u64; 0]; max + 1];
    let (mut over, mut under, mut steep) = (None::<Witness>, None::<Witness>, None);
    let mut moves_checked = 0;
    for r in 0..ranker.states() {
        // The section's rank r, in the goal's labels.
        let in_section = ranker.unrank(r, section_goal.class());
        let layout = relabel(&in_section, &section_goal, goal);
        let distance = answers.distance(&layout).unwrap().unwrap();
        let estimate = heuristic.estimate(&layout);
        let c = &mut counts[distance as usize];
        if c.len() <= estimate as usize {
            c.resize(estimate as usize + 1, 0);
        }
        c[estimate as usize] += 1;
        let w = Witness {
            layout,
            distance,
            estimate,
        };
        if estimate > distance && over.is_none_or(|o| estimate - distance > o.estimate - o.distance)
        {
            over = Some(w);
        }
        if estimate < distance
            && under.is_none_or(|u| distance - estimate > u.distance - u.estimate)
        {
            under = Some(w);
        }
        for step in Move::ALL {
            let Some(to) = layout.moved(step) else {
                continue;
            };
            moves_checked += 1;
            let estimate_to = heuristic.estimate(&to);
            if estimate > estimate_to + 1
                && steep.is_none_or(|s: Inconsistency| {
                    estimate - estimate_to > s.estimate_from - s.estimate_to
                })
            {
                steep = Some(Inconsistency {
                    from: layout,
                    step,
                    to,
                    estimate_from: estimate,
                    estimate_to,
                });
            }
        }
    }
    let accuracy = |rows: &[(usize, &Vec<u64>)], ratio: Option<f64>| {
        let mut all = vec![0u64; 0];
        let (mut exact, mut states, mut sum) = (0, 0, 0);
        for (d, c) in rows {
            if all.len() < c.len() {
                all.resize(c.len(), 0);
            }
            for (e, &n) in c.iter().enumerate() {
                all[e] += n;
                states += n;
                sum += e as u64 * n;
            }
            exact += c.get(*d).copied().unwrap_or(0);
        }
        let first = all.iter().position(|&n| n > 0);
        let n = states.max(1) as f64;
        Accuracy {
            states,
            mean_estimate: sum as f64 / n,
            min_estimate: first.unwrap_or(0) as u32,
            max_estimate: all.len().saturating_sub(1) as u32,
            exact,
            exact_share: exact as f64 / n,
            mean_ratio: ratio,
            estimates: all,
        }
    };
    let sum_of = |c: &Vec<u64>| -> u64 { c.iter().enumerate().map(|(e, &n)| e as u64 * n).sum() };
    let by_distance: Vec<Accuracy> = counts
        .iter()
        .enumerate()
        .map(|(d, c)| {
            let states: u64 = c.iter().sum();
            let ratio = (d > 0 && states > 0).then(|| sum_of(c) as f64 / d as f64 / states as f64);
            accuracy(&[(d, c)], ratio)
        })
        .collect();
    let far: u64 = counts.iter().skip(1).flatten().sum();
    let ratios: f64 = counts
        .iter()
        .enumerate()
        .skip(1)
        .map(|(d, c)| sum_of(c) as f64 / d as f64)
        .sum();
    let rows: Vec<(usize, &Vec<u64>)> = counts.iter().enumerate().collect();
    HeuristicReport {
        goal: *goal,
        overall: accuracy(&rows, (far > 0).then(|| ratios / far as f64)),
        by_distance,
        worst_overestimate: over,
        worst_underestimate: under,
        worst_inconsistency: steep,
        moves_checked,
        claims_consistent: heuristic.is_consistent(),
    }
}

/// `layout` (labelled as `from` is) with each tile renamed to the tile `to` has in the
/// same cell.
fn relabel(layout: &Layout, from: &Layout, to: &Layout) -> Layout {
    let mut map = [0u8; 16];
    for (&f, &t) in from.tiles().iter().zip(to.tiles()) {
        map[f as usize] = t;
    }
    let tiles: Vec<u8> = layout.tiles().iter().map(|&t| map[t as usize]).collect();
    Layout::new(layout.board(), &tiles).unwrap()
}

/// Several heuristics measured in one pass give, each, the report worked out the plain way
/// (every figure, the first worst cases), for the standard goal and for a goal answered by
/// relabelling another's section; good and bad heuristics alike.
#[test]
fn heuristics_measured_together_each_give_the_plain_report() {
    for goal in [
        Board::EIGHT.standard_goal(),
        eight("8 7 6 5 4 3 2 1 0"),
        eight("1 2 3 4 0 5 6 7 8"),
    ] {
        let doubled = Doubled(Manhattan::new(&goal));
        let spiky = Spiky(Manhattan::new(&goal));
        let shipped: Vec<_> = HeuristicKind::ALL.iter().map(|k| k.build(&goal)).collect();
        let mut all: Vec<&(dyn Heuristic + Sync)> = shipped
            .iter()
            .map(|h| &**h as &(dyn Heuristic + Sync))
            .collect();
        all.push(&doubled);
        all.push(&spiky);
        let answers = table().goal(&goal).unwrap();
        let together = measure_each(&answers, &all).unwrap();
        assert_eq!(together.len(), all.len());
        for (report, heuristic) in together.iter().zip(&all) {
            assert_eq!(*report, reference(&goal, *heuristic), "{goal}");
            assert_eq!(*report, measure(table(), *heuristic).unwrap(), "{goal}");
        }
    }
}

/// The shipped heuristics measured on the section's tiles ([`measure_kinds`]) give, every
/// figure and every worst case, the reports of the heuristics built and measured state by
/// state, on every board of up to nine cells whose lines are keyed (2×2 to 3×3), for goals
/// of their own section and relabelled ones, any kinds in any order, repeats too.
#[test]
fn the_shipped_heuristics_on_the_tiles_give_the_built_ones_reports() {
    use HeuristicKind::{LinearConflict, Manhattan as M, Misplaced};
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let board = Board::new(rows, cols).unwrap();
        let sections = solve_sections(&default_goals(board)).unwrap();
        let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
        let standard = board.standard_goal();
        let cells = board.cells() as u8;
        let reversed: Vec<u8> = (1..cells).rev().chain([0]).collect();
        let middle: Vec<u8> = (1..=cells / 2)
            .chain([0])
            .chain(cells / 2 + 1..cells)
            .collect();
        for goal in [
            standard,
            Layout::new(board, &reversed).unwrap(),
            Layout::new(board, &middle).unwrap(),
        ] {
            let answers = table.goal(&goal).unwrap();
            for kinds in [
                &[LinearConflict, M, Misplaced][..],
                &[Misplaced, LinearConflict][..],
                &[M][..],
                &[M, M][..],
            ] {
                let built: Vec<_> = kinds.iter().map(|k| k.build(&goal)).collect();
                let heuristics: Vec<_> = built.iter().map(|h| &**h).collect();
                assert_eq!(
                    measure_kinds(&answers, kinds).unwrap(),
                    measure_each(&answers, &heuristics).unwrap(),
                    "{board} goal {goal} {kinds:?}"
                );
            }
        }
    }
}
