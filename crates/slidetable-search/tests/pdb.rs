//! IDA* with pattern databases: optimal against known lengths (Korf's instances with a
//! 5-5-5 database built here in about a second) and against the exact 3×3 table; every path
//! legal and of the length found; the smallest path under a letter order.

use slidetable_core::{parse_layout, Board, Layout, Move, Ranker};
use slidetable_format::{byte_distance, PatternGroup};
use slidetable_gen::engine::{solve_partition, solve_section, SolvedPattern};
use slidetable_gen::Partition;
use slidetable_search::{
    idastar, Heuristic, Limits, LinearConflict, PatternHeuristic, PatternSearch, SearchError,
    Symmetric,
};

const ORDER: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

fn databases(goal: &Layout, partition: &str) -> Vec<SolvedPattern> {
    let p = Partition::parse(partition, goal).unwrap();
    solve_partition(goal, &p, &|_| ()).unwrap()
}

fn heuristic<'a>(goal: &Layout, sections: &'a [SolvedPattern]) -> PatternHeuristic<'a> {
    let groups: Vec<PatternGroup<'_>> = sections.iter().map(SolvedPattern::as_group).collect();
    PatternHeuristic::new(goal, &groups).unwrap()
}

/// Korf's instances (data/korf100.txt) of at most 45 moves: instance, length, start.
fn korf_easy() -> Vec<(u32, usize, Layout)> {
    let board = Board::new(4, 4).unwrap();
    let text = include_str!("../../../data/korf100.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let start = parse_layout(board, f[3..].join(" ").as_bytes()).unwrap();
            (f[0].parse().unwrap(), f[1].parse().unwrap(), start)
        })
        .filter(|&(_, len, _)| len <= 45)
        .collect()
}

#[test]
fn korf_instances_get_their_published_lengths() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.goal_with_blank(0);
    let sections = databases(&goal, "5-5-5");
    let h = heuristic(&goal, &sections);
    assert!(h.mirrored());
    let search = PatternSearch::new(&h);
    let instances = korf_easy();
    assert_eq!(instances.len(), 10);
    for (id, length, start) in instances {
        let s = search.solve(&start, ORDER, &Limits::default()).unwrap();
        assert_eq!(s.path.len(), length, "instance {id}");
        assert_eq!(
            start.after(&s.path),
            Some(goal),
            "instance {id}: path is not legal or misses the goal"
        );
        assert!(h.estimate(&start) <= length as u32);
    }
}

#[test]
fn agrees_with_linear_conflict_on_random_walks() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.standard_goal();
    let sections = databases(&goal, "5-5-5");
    let h = heuristic(&goal, &sections);
    let search = PatternSearch::new(&h);
    let lc = LinearConflict::new(&goal);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..40 {
        let mut l = goal;
        for _ in 0..60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves: Vec<Move> = l.moves().collect();
            l = l
                .moved(moves[(seed % moves.len() as u64) as usize])
                .unwrap();
        }
        let fast = search.solve(&l, ORDER, &Limits::default()).unwrap();
        let slow = idastar(&l, &lc, &Limits::default()).unwrap();
        assert_eq!(fast.path.len(), slow.path.len(), "{l}");
        assert_eq!(l.after(&fast.path), Some(goal));
    }
}

#[test]
fn every_sampled_eight_puzzle_gets_the_table_distance() {
    let goal = Board::EIGHT.standard_goal();
    let sections = databases(&goal, "4-4");
    let h = heuristic(&goal, &sections);
    let search = PatternSearch::new(&h);
    let exact = solve_section(&goal).unwrap();
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    for r in (0..ranker.states()).step_by(37) {
        let l = ranker.unrank(r, goal.class());
        let d = byte_distance(exact.entries[r as usize]) as usize;
        let s = search.solve(&l, ORDER, &Limits::default()).unwrap();
        assert_eq!(s.path.len(), d, "{l}");
        assert_eq!(l.after(&s.path), Some(goal), "{l}");
        assert!(h.estimate(&l) as usize <= d);
    }
}

#[test]
fn the_path_is_the_smallest_under_the_letter_order() {
    // Every optimal path of a 3x3 puzzle, by brute force over the exact table, against the
    // search's answer under two orders.
    let goal = Board::EIGHT.standard_goal();
    let sections = databases(&goal, "4-4");
    let h = heuristic(&goal, &sections);
    let search = PatternSearch::new(&h);
    let exact = solve_section(&goal).unwrap();
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    let dist = |l: &Layout| byte_distance(exact.entries[ranker.rank(l) as usize]);
    let smallest = |start: &Layout, order: &[Move; 4]| {
        let mut l = *start;
        let mut path = Vec::new();
        while l != goal {
            let m = *order
                .iter()
                .find(|&&m| l.moved(m).is_some_and(|c| dist(&c) + 1 == dist(&l)))
                .unwrap();
            path.push(m);
            l = l.moved(m).unwrap();
        }
        path
    };
    let orders = [ORDER, [Move::Right, Move::Left, Move::Down, Move::Up]];
    for r in (0..ranker.states()).step_by(997) {
        let l = ranker.unrank(r, goal.class());
        for order in orders {
            let s = search.solve(&l, order, &Limits::default()).unwrap();
            assert_eq!(s.path, smallest(&l, &order), "{l}");
        }
    }
}

#[test]
fn unsolvable_and_limits_are_reported() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.goal_with_blank(0);
    let sections = databases(&goal, "5-5-5");
    let h = heuristic(&goal, &sections);
    let search = PatternSearch::new(&h);
    let swapped = parse_layout(board, b"0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    assert!(matches!(
        search.solve(&swapped, ORDER, &Limits::default()),
        Err(SearchError::Unsolvable { .. })
    ));
    let (_, _, hard) = korf_easy()[0];
    assert!(matches!(
        search.solve(&hard, ORDER, &Limits::expanded(10)),
        Err(SearchError::LimitReached { .. })
    ));
    assert_eq!(
        search.solve(&goal, ORDER, &Limits::default()).unwrap().path,
        vec![]
    );
    // Databases that do not fit together are refused.
    let groups: Vec<PatternGroup<'_>> = sections.iter().map(SolvedPattern::as_group).collect();
    assert!(PatternHeuristic::new(&goal, &groups[..2]).is_err());
    let short = PatternGroup {
        payload: &groups[0].payload[1..],
        ..groups[0]
    };
    assert!(PatternHeuristic::new(&goal, &[short, groups[1], groups[2]]).is_err());
}

#[test]
fn databases_for_one_corner_answer_every_corner_goal() {
    // 4-4 databases for the blank in the first cell, asked for the goal with the blank in
    // each corner: the exact table's distances, legal paths, the same path as databases
    // made for that goal, estimates that are bounds, answers in input order.
    let board = Board::EIGHT;
    let theirs = board.goal_with_blank(0);
    let sections = databases(&theirs, "4-4");
    let ranker = Ranker::new(board).unwrap();
    for corner in [0, 2, 6, 8] {
        let goal = board.goal_with_blank(corner);
        let symmetric = Symmetric::new(heuristic(&theirs, &sections), &goal).unwrap();
        assert_eq!(symmetric.goal(), &goal);
        let own_sections = databases(&goal, "4-4");
        let own = heuristic(&goal, &own_sections);
        let own_search = PatternSearch::new(&own);
        let exact = solve_section(&goal).unwrap();
        let starts: Vec<Layout> = (0..ranker.states())
            .step_by(211)
            .map(|r| ranker.unrank(r, goal.class()))
            .collect();
        let all = symmetric.solve_all(&starts, ORDER).unwrap();
        assert_eq!(all.len(), starts.len());
        for (start, path) in starts.iter().zip(&all) {
            let d = byte_distance(exact.entries[ranker.rank(start) as usize]) as usize;
            let path = path.as_ref().unwrap();
            assert_eq!(path.len(), d, "corner {corner}: {start}");
            assert_eq!(start.after(path), Some(goal), "corner {corner}: {start}");
            let alone = symmetric.solve(start, ORDER, &Limits::default()).unwrap();
            assert_eq!(&alone.path, path);
            let direct = own_search.solve(start, ORDER, &Limits::default()).unwrap();
            assert_eq!(&direct.path, path, "corner {corner}: {start}");
            assert!(symmetric.estimate(start) as usize <= d);
        }
        // The other parity class: no path, in place; within too few moves: none.
        let other = ranker.unrank(5, 1 - goal.class());
        let mixed = symmetric.solve_all(&[starts[1], other], ORDER).unwrap();
        assert!(mixed[0].is_some() && mixed[1].is_none());
        assert!(matches!(
            symmetric.solve(&other, ORDER, &Limits::default()),
            Err(SearchError::Unsolvable { .. })
        ));
        let far = starts[1];
        let d = all[1].as_ref().unwrap().len() as u32;
        assert!(d > 0);
        let limits = Limits::default();
        assert!(symmetric
            .solve_within(&far, ORDER, &limits, d - 1)
            .unwrap()
            .is_none());
        assert!(symmetric
            .solve_within(&far, ORDER, &limits, d)
            .unwrap()
            .is_some());
    }
    // No symmetry takes a corner to the centre or an edge; another board is refused.
    for cell in [1, 4] {
        let goal = board.goal_with_blank(cell);
        assert!(Symmetric::new(heuristic(&theirs, &sections), &goal).is_none());
    }
    let small = Board::new(2, 3).unwrap().standard_goal();
    assert!(Symmetric::new(heuristic(&theirs, &sections), &small).is_none());
}

/// The 4-4 databases of the 3×3 standard goal with the nibble of rank `rank` in group
/// `group` set to `value`.
fn damaged(goal: &Layout, group: usize, rank: u32, value: u8) -> Vec<SolvedPattern> {
    let mut sections = databases(goal, "4-4");
    let byte = &mut sections[group].entries[(rank / 2) as usize];
    let shift = 4 * (rank % 2);
    *byte = (*byte & !(0xf << shift)) | (value << shift);
    sections
}

/// The placement rank of `tiles`' cells in `layout` (tiles in increasing order).
fn placement(layout: &Layout, tiles: u16) -> u32 {
    let cells: Vec<u8> = slidetable_core::mask_tiles(tiles)
        .map(|t| layout.tiles().iter().position(|&x| x == t).unwrap() as u8)
        .collect();
    slidetable_core::PlacementRanker::new(layout.board().cells(), cells.len())
        .unwrap()
        .rank(&cells)
}

#[test]
fn a_damaged_goal_entry_is_refused_instead_of_hiding_the_goal_forever() {
    // One nibble at the goal's placement used to make every search run forever: the goal was
    // recognised only where the estimate read 0.
    let goal = Board::EIGHT.standard_goal();
    let tiles = databases(&goal, "4-4")[1].tiles;
    for value in [1u8, 7, 15] {
        let sections = damaged(&goal, 1, placement(&goal, tiles), value);
        let groups: Vec<PatternGroup<'_>> = sections.iter().map(SolvedPattern::as_group).collect();
        let err = PatternHeuristic::new(&goal, &groups).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("the databases are damaged: group 1's entry for the goal is {value}, not 0")
        );
    }
    // Tile masks swapped between two groups of the same size: refused as well.
    let sections = databases(&goal, "4-4");
    let groups = [
        PatternGroup {
            tiles: sections[1].tiles,
            payload: &sections[0].entries,
        },
        PatternGroup {
            tiles: sections[0].tiles,
            payload: &sections[1].entries,
        },
    ];
    assert!(matches!(
        PatternHeuristic::new(&goal, &groups),
        Err(slidetable_search::PatternError::GoalNotHome { .. })
    ));
}

#[test]
fn an_estimate_past_the_board_s_longest_path_stops_the_search_with_an_error() {
    // A damaged entry that overestimates by 30 moves at the start: the answer would be a
    // path longer than the optimum; the bound passes 31 (the most any 3x3 puzzle needs), so
    // the search refuses instead.
    let goal = Board::EIGHT.standard_goal();
    let start = parse_layout(Board::EIGHT, b"1 2 3 4 5 6 0 7 8").unwrap();
    let tiles = databases(&goal, "4-4")[1].tiles;
    let sections = damaged(&goal, 1, placement(&start, tiles), 15);
    let h = heuristic(&goal, &sections);
    let search = PatternSearch::new(&h);
    let err = search
        .solve(&start, ORDER, &Limits::expanded(5_000_000))
        .unwrap_err();
    assert!(
        matches!(err, SearchError::Overestimated { longest: 31, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("the pattern database is damaged"));
}

#[test]
fn no_board_needs_more_moves_than_most_moves_says() {
    // Every goal of every board up to 10 cells, by breadth-first search: the bound holds,
    // and is exact where the blank is in a corner.
    for (rows, cols) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (2, 5),
        (5, 2),
    ] {
        let board = Board::new(rows, cols).unwrap();
        for blank in 0..board.cells() {
            let goal = board.goal_with_blank(blank);
            let exact = solve_section(&goal).unwrap();
            let longest = exact
                .entries
                .iter()
                .map(|&e| byte_distance(e))
                .max()
                .unwrap();
            let bound = board.most_moves(blank);
            assert!(u64::from(longest) <= bound, "{board} blank {blank}");
            let corner = [0, cols - 1, board.cells() - cols, board.cells() - 1];
            if corner.contains(&blank) {
                assert_eq!(u64::from(longest), bound, "{board} blank {blank}");
            }
        }
    }
}
