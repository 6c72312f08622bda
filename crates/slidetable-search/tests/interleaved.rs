//! Batches of 15-puzzles solved interleaved (several IDA* searches stepped in turn on one
//! thread, `PatternSearch::solve_interleaved`, what `solve_many` runs on large databases):
//! each puzzle gets the path, the counts and the error it gets solved alone.

use slidetable_core::{parse_layout, Board, Layout, Move};
use slidetable_format::PatternGroup;
use slidetable_gen::engine::{solve_partition, SolvedPattern};
use slidetable_gen::Partition;
use slidetable_search::{Limits, PatternHeuristic, PatternSearch, SearchError, Solution};

/// Puzzles `count` random moves from `goal` (a fixed seed; no move straight back).
fn scrambled(goal: &Layout, moves: usize, count: usize, seed: u64) -> Vec<Layout> {
    let mut seed = seed;
    (0..count)
        .map(|_| {
            let (mut layout, mut last) = (*goal, None::<Move>);
            let mut made = 0;
            while made < moves {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = Move::ALL[(seed % 4) as usize];
                if last.is_some_and(|l| l.code() ^ 1 == m.code()) {
                    continue;
                }
                if let Some(next) = layout.moved(m) {
                    (layout, last, made) = (next, Some(m), made + 1);
                }
            }
            layout
        })
        .collect()
}

/// What must agree between a search alone and interleaved: the answer, and every count
/// (the clock aside).
fn outcome(found: &Result<Solution, SearchError>) -> String {
    match found {
        Ok(s) => {
            let st = &s.stats;
            let moves: String = s.path.iter().map(|m| m.letter()).collect();
            format!(
                "{moves} expanded {} generated {} peak {} iterations {:?} bound {:?}",
                st.expanded, st.generated, st.peak_open, st.iterations, st.bound
            )
        }
        Err(SearchError::LimitReached { limit, stats }) => format!(
            "stopped at {limit:?}: expanded {} generated {} bound {:?}",
            stats.expanded, stats.generated, stats.bound
        ),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn a_batch_solved_interleaved_gives_each_puzzle_its_path_and_counts_alone() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.goal_with_blank(0);
    let partition = Partition::parse("5-5-5", &goal).unwrap();
    let sections: Vec<SolvedPattern> = solve_partition(&goal, &partition, &|_| ()).unwrap();
    let groups: Vec<PatternGroup<'_>> = sections.iter().map(SolvedPattern::as_group).collect();
    let h = PatternHeuristic::new(&goal, &groups).unwrap();
    let search = PatternSearch::new(&h);
    let mut starts = scrambled(&goal, 60, 24, 0x9e37_79b9_7f4a_7c15);
    // The answers that need no search among them: the goal, a start of the other parity,
    // one of another board.
    starts.insert(3, goal);
    starts.insert(
        7,
        parse_layout(board, b"0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap(),
    );
    starts.insert(11, Board::EIGHT.standard_goal());
    let order = [Move::Left, Move::Up, Move::Right, Move::Down];
    for limits in [Limits::default(), Limits::expanded(2000)] {
        let alone: Vec<String> = starts
            .iter()
            .map(|s| outcome(&search.solve(s, order, &limits)))
            .collect();
        assert!(alone.iter().filter(|a| a.contains("expanded")).count() >= 20);
        for ways in [1, 2, 3, 4, 8, 40] {
            let together: Vec<String> = search
                .solve_interleaved(&starts, order, &limits, ways)
                .iter()
                .map(outcome)
                .collect();
            for (i, (a, t)) in alone.iter().zip(&together).enumerate() {
                assert_eq!(a, t, "{} ({ways} at a time, {limits:?})", starts[i]);
            }
        }
        let many: Vec<String> = search
            .solve_many(&starts, order, &limits)
            .iter()
            .map(outcome)
            .collect();
        assert_eq!(many, alone);
    }
}
