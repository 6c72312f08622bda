//! The pattern search stopping at a perimeter (the states within D moves, from a table made
//! by `generate --max-depth D`): the same smallest optimal path under the move order as
//! without, with no more nodes, whether the start is outside the perimeter or inside it.

use slidetable_core::{Board, Layout, Move};
use slidetable_gen::engine::{solve_bounded, solve_partition, write_bounded_to, SolvedPattern};
use slidetable_gen::Partition;
use slidetable_query::BoundedTable;
use slidetable_search::{Limits, PatternHeuristic, PatternSearch, Perimeter, PerimeterError};

fn walk(from: Layout, seed: u64, steps: usize) -> Layout {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    let mut layout = from;
    for _ in 0..steps {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if let Some(next) = layout.moved(Move::ALL[(state >> 62) as usize]) {
            layout = next;
        }
    }
    layout
}

fn perimeter(goal: &Layout, depth: u32) -> Perimeter {
    let mut bytes = Vec::new();
    write_bounded_to(
        &mut bytes,
        &solve_bounded(goal, depth, &mut |_| {}).unwrap(),
    )
    .unwrap();
    let table = BoundedTable::new(bytes).unwrap();
    let mut p = Perimeter::new(goal, depth, table.states()).unwrap();
    for d in 0..=depth {
        table.each_state(d, |l| p.add(&l, d).unwrap()).unwrap();
    }
    p.done().unwrap()
}

#[test]
fn the_perimeter_keeps_the_smallest_optimal_path_with_no_more_nodes() {
    for (board, partition, depth) in [
        (Board::new(4, 4).unwrap(), "5-5-5", 12),
        (Board::EIGHT, "4-4", 14),
    ] {
        let goal = board.goal_with_blank(0);
        let partition = Partition::parse(partition, &goal).unwrap();
        let sections = solve_partition(&goal, &partition, &|_| ()).unwrap();
        let groups: Vec<_> = sections.iter().map(SolvedPattern::as_group).collect();
        let databases = PatternHeuristic::new(&goal, &groups).unwrap();
        let near = perimeter(&goal, depth);
        let plain = PatternSearch::new(&databases);
        let stopping = PatternSearch::new(&databases)
            .with_perimeter(&near)
            .unwrap();
        for seed in 0..30 {
            let start = walk(goal, seed, if seed % 3 == 0 { 10 } else { 80 });
            for order in [Move::ALL, [Move::Right, Move::Left, Move::Down, Move::Up]] {
                let a = plain.solve(&start, order, &Limits::default()).unwrap();
                let b = stopping.solve(&start, order, &Limits::default()).unwrap();
                assert_eq!(a.path, b.path, "{start}");
                assert!(b.stats.expanded <= a.stats.expanded, "{start}");
                assert_eq!(start.after(&b.path), Some(goal));
            }
        }
    }
}

#[test]
fn a_perimeter_for_another_goal_or_missing_its_goal_is_refused() {
    let board = Board::EIGHT;
    let goal = board.goal_with_blank(0);
    let other = perimeter(&board.standard_goal(), 4);
    let partition = Partition::parse("4-4", &goal).unwrap();
    let sections = solve_partition(&goal, &partition, &|_| ()).unwrap();
    let groups: Vec<_> = sections.iter().map(SolvedPattern::as_group).collect();
    let databases = PatternHeuristic::new(&goal, &groups).unwrap();
    assert!(PatternSearch::new(&databases)
        .with_perimeter(&other)
        .is_none());
    let empty = Perimeter::new(&goal, 4, 10).unwrap();
    assert_eq!(empty.done().unwrap_err(), PerimeterError::NoGoal);
    let mut p = Perimeter::new(&goal, 4, 10).unwrap();
    let one = goal.moved(Move::Right).unwrap();
    assert!(matches!(
        p.add(&one, 2),
        Err(PerimeterError::Distance { .. })
    ));
    assert!(matches!(
        Perimeter::new(&goal, 32, 1),
        Err(PerimeterError::TooDeep { depth: 32 })
    ));
}
