//! `solve_with_patterns`, what `search --heuristic pdb` runs: IDA* through the pattern
//! databases' own search finds the paths the generic IDA* finds with the same databases as
//! its heuristic, at the same last bound, with no more work (nodes expanded and generated,
//! iterations): it also skips the move sequences that others do better, which the generic
//! search does not.

use slidetable_core::{Board, Layout, Move};
use slidetable_gen::engine::{solve_partition, SolvedPattern};
use slidetable_gen::Partition;
use slidetable_search::{
    idastar, solve_with_patterns, Limits, Method, PatternHeuristic, SearchError, Symmetric,
};

/// `steps` random moves from `from` (a fixed linear congruential sequence from `seed`).
fn walk(from: Layout, seed: u64, steps: usize) -> Layout {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut layout = from;
    for _ in 0..steps {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = Move::ALL[(state >> 62) as usize];
        if let Some(next) = layout.moved(m) {
            layout = next;
        }
    }
    layout
}

fn same_work(board: Board, partition: &str, goal: Layout, starts: usize) {
    let databases_goal = board.standard_goal();
    let partition = Partition::parse(partition, &databases_goal).unwrap();
    let sections = solve_partition(&databases_goal, &partition, &|_| ()).unwrap();
    let groups: Vec<_> = sections.iter().map(SolvedPattern::as_group).collect();
    let databases = PatternHeuristic::new(&databases_goal, &groups).unwrap();
    let patterns = Symmetric::new(databases, &goal).unwrap();
    for seed in 0..starts as u64 {
        let start = walk(goal, seed, 60);
        let limits = Limits::default();
        let generic = idastar(&start, &patterns, &limits).unwrap();
        let fast = solve_with_patterns(Method::Idastar, &patterns, &start, &limits).unwrap();
        assert_eq!(fast.path, generic.path, "{start}");
        assert_eq!(start.after(&fast.path), Some(goal), "{start}");
        let (a, b) = (&fast.stats, &generic.stats);
        assert_eq!(a.bound, b.bound, "{start}");
        assert!(a.expanded <= b.expanded, "{start}");
        assert!(a.generated <= b.generated, "{start}");
        assert!(a.iterations <= b.iterations, "{start}");
        assert!(a.peak_open <= b.peak_open, "{start}");
    }
    // Another parity class: refused alike.
    let mut tiles = goal.tiles().to_vec();
    let (i, j) = if tiles[0] == 0 || tiles[1] == 0 {
        (2, 3)
    } else {
        (0, 1)
    };
    tiles.swap(i, j);
    let swapped = Layout::new(board, &tiles).unwrap();
    let refused = solve_with_patterns(Method::Idastar, &patterns, &swapped, &Limits::default());
    assert!(matches!(refused, Err(SearchError::Unsolvable { .. })));
}

#[test]
fn on_3x3_towards_the_databases_goal_and_a_mirrored_one() {
    let board = Board::EIGHT;
    same_work(board, "4-4", board.standard_goal(), 40);
    same_work(board, "4-4", board.goal_with_blank(0), 40);
}
