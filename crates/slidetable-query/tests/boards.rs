//! Every board up to 12 cells, in every encoding and cost model: exhaustively on the boards
//! of at most 8 cells (and 3×3 where it takes a second), on samples beyond. Each table is
//! checked against something that shares none of its code: a plain breadth-first search or
//! Dijkstra over `Layout`s in a `HashMap`, or the search crate's IDA* and Dijkstra.
//!
//! The 11- and 12-cell tables take 10–30 s each to generate, so their checks are ignored in
//! the normal run: `cargo test --release -p slidetable-query --test integration boards -- --ignored`.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use slidetable_core::{Board, Layout, Move, Ranker};
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_gen::{all_goals, default_goals};
use slidetable_query::{QueryError, Table};
use slidetable_search::{dijkstra_with, idastar, Limits, LinearConflict, TileCost};
use slidetable_testkit::{for_each_permutation, swapped};

use crate::common::{bfs, version_1};

/// The boards whose every permutation is checked.
const SMALL: [(usize, usize); 5] = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)];

fn board(rows: usize, cols: usize) -> Board {
    Board::new(rows, cols).unwrap()
}

fn table(goals: &[Layout], encoding: Option<Encoding>, cost: CostModel) -> Table<Vec<u8>> {
    let board = goals[0].board();
    let sections = solve(goals, encoding, cost, &|_| {}).unwrap();
    Table::new(table_bytes(board, &sections).unwrap()).unwrap()
}

/// Cheapest cost from every layout to `goal` when moving tile k costs k, by a plain Dijkstra
/// (a binary heap of layouts, no ranking).
fn tile_dijkstra(goal: Layout) -> HashMap<Layout, u32> {
    let mut cost = HashMap::new();
    let mut heap = BinaryHeap::new();
    cost.insert(goal, 0u32);
    heap.push(Reverse((0u32, goal.tiles().to_vec())));
    while let Some(Reverse((c, tiles))) = heap.pop() {
        let cur = Layout::new(goal.board(), &tiles).unwrap();
        if cost[&cur] < c {
            continue;
        }
        for m in cur.moves() {
            let next = cur.moved(m).unwrap();
            // The tile that slides lands where the blank was.
            let step = u32::from(next.tile(cur.blank()));
            if cost.get(&next).is_none_or(|&old| c + step < old) {
                cost.insert(next, c + step);
                heap.push(Reverse((c + step, next.tiles().to_vec())));
            }
        }
    }
    cost
}

/// The cost of walking `path` from `start`, and where it ends; panics on an illegal move.
fn walk(start: &Layout, path: &[Move], cost: CostModel) -> (u32, Layout) {
    let mut at = *start;
    let mut total = 0;
    for &m in path {
        let next = at
            .moved(m)
            .unwrap_or_else(|| panic!("{start}: {m} is illegal"));
        total += cost.of_tile(next.tile(at.blank()));
        at = next;
    }
    (total, at)
}

/// Checks every answer of `goal`'s section against `truth` (every layout that can reach the
/// goal, with its distance or cost), and that every other layout of the board has none.
fn check_against(t: &Table<Vec<u8>>, goal: Layout, truth: &HashMap<Layout, u32>, every: bool) {
    let g = t.goal(&goal).unwrap();
    let cost = t.header().cost();
    let mut path = Vec::new();
    let mut check = |l: &Layout| {
        let want = truth.get(l).copied();
        assert_eq!(want.is_some(), l.can_reach(&goal), "parity rule for {l}");
        assert_eq!(g.distance(l), Ok(want), "{goal}: {l}");
        path.clear();
        assert_eq!(g.path_into(l, &mut path), Ok(want.is_some()), "{goal}: {l}");
        if let Some(d) = want {
            assert_eq!(walk(l, &path, cost), (d, goal), "{goal}: {l} by {path:?}");
            let mut ordered = Vec::new();
            let order = [Move::Right, Move::Left, Move::Down, Move::Up];
            assert_eq!(g.ordered_path_into(l, &order, &mut ordered), Ok(true));
            assert_eq!(
                walk(l, &ordered, cost),
                (d, goal),
                "{goal}: {l} by {ordered:?}"
            );
        }
    };
    if every {
        for_each_permutation(goal.board().cells(), |tiles| {
            check(&Layout::new(goal.board(), tiles).unwrap())
        });
    } else {
        for l in truth.keys().step_by(97) {
            check(l);
            check(&swapped(l));
        }
    }
}

#[test]
fn every_small_board_agrees_with_breadth_first_search_in_both_encodings() {
    for (rows, cols) in SMALL {
        let b = board(rows, cols);
        let goals = default_goals(b);
        let byte = table(&goals, None, CostModel::Unit);
        assert_eq!(byte.header().encoding(), Encoding::Byte);
        let bits = table(&goals, Some(Encoding::TwoBit), CostModel::Unit);
        assert_eq!(bits.header().encoding(), Encoding::TwoBit);
        // A quarter of the bytes, and the same histograms.
        assert_eq!(
            bits.section(0).unwrap().descriptor().payload_len() * 4,
            byte.section(0).unwrap().descriptor().payload_len()
        );
        for (a, b) in byte.sections().iter().zip(bits.sections()) {
            assert_eq!(a.histogram(), b.histogram(), "{}", a.goal());
        }
        for goal in [b.standard_goal(), b.goal_with_blank(0)] {
            let truth = bfs(goal);
            assert_eq!(truth.len() as u64, b.reachable_states());
            check_against(&byte, goal, &truth, true);
            check_against(&bits, goal, &truth, true);
        }
    }
}

#[test]
fn the_ranking_is_a_bijection_on_every_small_board() {
    for (rows, cols) in SMALL {
        let b = board(rows, cols);
        let ranker = Ranker::new(b).unwrap();
        let mut hits = vec![0u8; 2 * ranker.states() as usize];
        for_each_permutation(b.cells(), |tiles| {
            let l = Layout::new(b, tiles).unwrap();
            let (rank, class) = ranker.rank_and_class(&l);
            assert_eq!(ranker.unrank(rank, class), l);
            hits[2 * rank as usize + class as usize] += 1;
        });
        assert!(hits.iter().all(|&h| h == 1), "{b}");
    }
}

#[test]
fn the_two_bit_eight_puzzle_agrees_with_the_byte_one_everywhere() {
    let b = Board::EIGHT;
    let goals = [b.standard_goal(), b.goal_with_blank(4)];
    let byte = table(&goals, Some(Encoding::Byte), CostModel::Unit);
    let bits = table(&goals, Some(Encoding::TwoBit), CostModel::Unit);
    let payload: u64 = bits.sections().iter().map(|s| s.payload_len()).sum();
    assert_eq!(payload, 2 * 181_440 / 4);
    let ranker = Ranker::new(b).unwrap();
    for goal in goals {
        let (x, y) = (byte.goal(&goal).unwrap(), bits.goal(&goal).unwrap());
        let mut path = Vec::new();
        for rank in 0..ranker.states() {
            let l = ranker.unrank(rank, goal.class());
            let d = x.distance(&l).unwrap();
            assert_eq!(y.distance(&l).unwrap(), d, "{goal}: {l}");
            path.clear();
            assert_eq!(y.path_into(&l, &mut path), Ok(true));
            assert_eq!(walk(&l, &path, CostModel::Unit), (d.unwrap(), goal));
        }
        // Relabelled goals work on 2-bit tables too.
        let other = Layout::new(b, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).unwrap();
        let start = Layout::new(b, &[2, 8, 3, 1, 0, 4, 7, 6, 5]).unwrap();
        assert_eq!(bits.distance_to(&start, &other), Ok(Some(4)));
    }
}

#[test]
fn the_parallel_search_finds_the_serial_one_s_distances() {
    // Byte entries from the scan search (the 11- and 12-cell path) on boards small enough
    // for the serial search: same distances, and every stored first move optimal.
    for b in [board(2, 5), Board::EIGHT, board(4, 2)] {
        let goal = b.standard_goal();
        let serial = table(&[goal], Some(Encoding::Byte), CostModel::Unit);
        let scanned =
            slidetable_gen::engine::solve_by_scan(&goal, Encoding::Byte, &|_| {}).unwrap();
        let scanned = Table::new(table_bytes(b, &[scanned]).unwrap()).unwrap();
        assert_eq!(
            serial.sections()[0].histogram(),
            scanned.sections()[0].histogram()
        );
        let ranker = Ranker::new(b).unwrap();
        let (s, l) = (serial.section(0).unwrap(), scanned.section(0).unwrap());
        for rank in (0..ranker.states()).step_by(7) {
            let x = ranker.unrank(rank, goal.class());
            assert_eq!(s.distance(&x), l.distance(&x), "{b}: {x}");
            assert_eq!(
                l.first_move(&x).unwrap(),
                l.optimal_moves(&x).unwrap().first().copied()
            );
        }
    }
}

#[test]
fn samples_of_ten_cells_agree_with_ida_star() {
    let b = board(2, 5);
    let goal = b.standard_goal();
    let bits = table(&[goal], Some(Encoding::TwoBit), CostModel::Unit);
    let byte = table(&[goal], None, CostModel::Unit);
    let ranker = Ranker::new(b).unwrap();
    let h = LinearConflict::new(&goal);
    for rank in (0..ranker.states()).step_by(90_001) {
        let l = ranker.unrank(rank, goal.class());
        let want = idastar(&l, &h, &Limits::default()).unwrap().path.len() as u32;
        assert_eq!(byte.distance(&l), Ok(Some(want)), "{l}");
        assert_eq!(bits.distance(&l), Ok(Some(want)), "{l}");
    }
}

#[test]
fn weighted_tables_agree_with_a_plain_dijkstra_on_every_small_board() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
        let b = board(rows, cols);
        let t = table(&all_goals(b), None, CostModel::Tile);
        assert_eq!(t.header().cost(), CostModel::Tile);
        for goal in [b.standard_goal(), b.goal_with_blank(0)] {
            let truth = tile_dijkstra(goal);
            let max = *truth.values().max().unwrap();
            let h = t.goal(&goal).unwrap().histogram();
            assert_eq!(h.len() as u32, max + 1, "{goal}");
            check_against(&t, goal, &truth, true);
        }
        // A tile's number is its cost: relabelling onto another section would be wrong.
        let other = Layout::new(b, &{
            let mut g = b.standard_goal().tiles().to_vec();
            g.swap(0, 1);
            g
        })
        .unwrap();
        assert!(matches!(t.goal(&other), Err(QueryError::NoSection { .. })));
    }
}

#[test]
fn weighted_eight_puzzle_samples_agree_with_the_search_crate() {
    let b = Board::EIGHT;
    let goal = b.standard_goal();
    let t = table(&[goal], None, CostModel::Tile);
    let wide = table(&[goal], Some(Encoding::Wide16), CostModel::Tile);
    let ranker = Ranker::new(b).unwrap();
    for rank in (0..ranker.states()).step_by(9_001) {
        let l = ranker.unrank(rank, goal.class());
        let want = dijkstra_with(&l, &goal, &TileCost, &Limits::default())
            .unwrap()
            .cost as u32;
        for t in [&t, &wide] {
            assert_eq!(t.distance(&l), Ok(Some(want)), "{l}");
            let path = t.path(&l).unwrap().unwrap();
            assert_eq!(walk(&l, &path, CostModel::Tile), (want, goal), "{l}");
        }
    }
}

#[test]
fn a_corrupt_two_bit_payload_is_an_error_not_a_loop() {
    let b = board(2, 3);
    let goal = b.standard_goal();
    let sections = solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    // Version 1, whose one checksum `Table::new` does not verify: entries that contradict
    // each other reach the walk.
    let mut bytes = version_1(&table_bytes(b, &sections).unwrap());
    let payload = bytes.len() - 90;
    // Every value 0: no neighbour is ever one closer.
    bytes[payload..].fill(0);
    let t = Table::new(bytes.clone()).unwrap();
    let far = Layout::new(b, &[5, 4, 3, 2, 1, 0]).unwrap();
    assert!(matches!(t.distance(&far), Err(QueryError::Corrupt { .. })));
    // Values that cycle 2, 1, 0, 2, 1, 0 … around the goal's class would walk forever without
    // the step limit.
    for (i, byte) in bytes[payload..].iter_mut().enumerate() {
        *byte = [0b00_10_01_00, 0b01_00_10_01, 0b10_01_00_10][i % 3];
    }
    let t = Table::new(bytes).unwrap();
    let ranker = Ranker::new(b).unwrap();
    for rank in 0..ranker.states() {
        let l = ranker.unrank(rank, goal.class());
        if let Ok(Some(d)) = t.distance(&l) {
            assert!(d <= t.sections()[0].max_distance());
        }
        let mut path = Vec::new();
        if let Ok(true) = t.standard().unwrap().path_into(&l, &mut path) {
            assert_eq!(l.after(&path), Some(goal));
        }
    }
}

/// Generates one 11- or 12-cell section and checks samples against IDA*.
fn check_large(rows: usize, cols: usize, max: u32) {
    let b = board(rows, cols);
    let goal = b.standard_goal();
    let t = table(&default_goals(b), None, CostModel::Unit);
    assert_eq!(t.header().encoding(), Encoding::TwoBit);
    assert_eq!(t.sections().len(), 1);
    let s = &t.sections()[0];
    assert_eq!(s.max_distance(), max);
    assert_eq!(s.histogram().iter().sum::<u64>(), b.reachable_states());
    let ranker = Ranker::new(b).unwrap();
    let h = LinearConflict::new(&goal);
    let g = t.standard().unwrap();
    for rank in (0..ranker.states()).step_by(24_000_017) {
        let l = ranker.unrank(rank, goal.class());
        let d = g.distance(&l).unwrap().unwrap();
        let path = g.path(&l).unwrap().unwrap();
        assert_eq!(walk(&l, &path, CostModel::Unit), (d, goal));
        if d <= 40 {
            let want = idastar(&l, &h, &Limits::default()).unwrap().path.len() as u32;
            assert_eq!(d, want, "{l}");
        }
        assert_eq!(g.distance(&swapped(&l)), Ok(None));
    }
    // The farthest states are at the maximum distance.
    let far = g.layouts_at(max).unwrap().next();
    assert!(far.is_some());
}

#[test]
#[ignore = "generates a 3x4 table (~10-30 s); run with --ignored"]
fn three_by_four_samples_agree_with_ida_star() {
    check_large(3, 4, 53);
}

#[test]
#[ignore = "generates a 2x6 table (~10-30 s); run with --ignored"]
fn two_by_six_samples_agree_with_ida_star() {
    check_large(2, 6, 80);
}

/// A table whose only section's goal is not the canonical one for its blank cell answers
/// every goal with the blank in that cell by relabelling (M15: `--goal "8 7 6 5 4 3 2 1 0"`
/// could not answer the standard goal), exactly as a breadth-first search from that goal.
#[test]
fn any_section_with_the_blank_in_the_goal_cell_answers_by_relabelling() {
    let b = Board::EIGHT;
    let reversed = Layout::new(b, &[8, 7, 6, 5, 4, 3, 2, 1, 0]).unwrap();
    let t = table(&[reversed], None, CostModel::Unit);
    for goal in [
        b.standard_goal(),
        Layout::new(b, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap(),
    ] {
        let truth = bfs(goal);
        check_against(&t, goal, &truth, true);
    }
    // No section has the blank where this goal has it.
    let elsewhere = b.goal_with_blank(0);
    assert!(matches!(
        t.goal(&elsewhere),
        Err(QueryError::NoSection { .. })
    ));
}
