//! Answers given a block at a time (`Goal::lockstep`) against the same questions asked one at
//! a time (`Goal::distance`, `Goal::path_into`): every layout of the small boards and of the
//! 8-puzzle, in blocks of several sizes, and damaged tables, whose contradictions must stop
//! a block at the same puzzle with the same error and the answers before it.

use slidetable_core::{path_string, Board, Layout, Ranker};
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_query::{Goal, QueryError, Table};
use slidetable_testkit::for_each_permutation;

use crate::common::{table, version_1};

const UNREACHABLE: &[u8] = b"unsolvable\n";

/// What the block answers should be, one question at a time: the distances, and the text of
/// the paths; or where the first error comes and which.
struct OneByOne {
    values: Vec<Option<u32>>,
    text: Vec<u8>,
    ends: Vec<usize>,
    distance_error: Option<(usize, QueryError)>,
    path_error: Option<(usize, QueryError)>,
}

fn one_by_one(goal: &Goal<'_>, starts: &[Layout]) -> OneByOne {
    let mut want = OneByOne {
        values: Vec::new(),
        text: Vec::new(),
        ends: Vec::new(),
        distance_error: None,
        path_error: None,
    };
    for (i, l) in starts.iter().enumerate() {
        match goal.distance(l) {
            Ok(v) if want.distance_error.is_none() => want.values.push(v),
            Ok(_) => {}
            Err(e) => {
                want.distance_error.get_or_insert((i, e));
            }
        }
        if want.path_error.is_some() {
            continue;
        }
        let mut path = Vec::new();
        match goal.path_into(l, &mut path) {
            Ok(true) => {
                want.text.extend_from_slice(path_string(&path).as_bytes());
                want.text.push(b'\n');
                want.ends.push(want.text.len());
            }
            Ok(false) => {
                want.text.extend_from_slice(UNREACHABLE);
                want.ends.push(want.text.len());
            }
            Err(e) => want.path_error = Some((i, e)),
        }
    }
    want
}

/// Answers `starts` in blocks of `block` through the lockstep and checks them against the
/// one-at-a-time answers.
fn agree(goal: &Goal<'_>, starts: &[Layout], block: usize) {
    let lockstep = goal.lockstep().expect("a verified byte table at unit cost");
    let want = one_by_one(goal, starts);
    let packed: Vec<(u64, usize)> = starts.iter().map(|l| (l.packed(), l.blank())).collect();
    // Something already in the output: answers are appended after it.
    let (mut values, mut text, mut ends) = (Vec::new(), b"before\n".to_vec(), Vec::new());
    let mut distance_error = None;
    let mut path_error = None;
    for (k, chunk) in packed.chunks(block).enumerate() {
        let offset = k * block;
        if distance_error.is_none() {
            if let Err((i, e)) = lockstep.distances(chunk, &mut values) {
                distance_error = Some((offset + i, e));
            }
        }
        if path_error.is_none() {
            if let Err((i, e)) = lockstep.paths(chunk, UNREACHABLE, &mut text, &mut ends) {
                path_error = Some((offset + i, e));
            }
        }
    }
    assert_eq!(distance_error, want.distance_error, "block {block}");
    assert_eq!(values, want.values, "block {block}");
    assert_eq!(path_error, want.path_error, "block {block}");
    assert_eq!(&text[..7], b"before\n");
    assert!(
        text[7..] == want.text[..],
        "block {block}: the paths differ"
    );
    let want_ends: Vec<usize> = want.ends.iter().map(|e| e + 7).collect();
    assert_eq!(ends, want_ends, "block {block}");
}

/// Every layout of `board`, both classes.
fn every_layout(board: Board) -> Vec<Layout> {
    let mut all = Vec::new();
    for_each_permutation(board.cells(), |t| all.push(Layout::new(board, t).unwrap()));
    all
}

#[test]
fn every_layout_of_the_small_boards_every_section_agrees() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)] {
        let board = Board::new(rows, cols).unwrap();
        let goals = default_goals(board);
        let sections = solve(&goals, None, CostModel::Unit, &|_| {}).unwrap();
        let t = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
        t.verify().unwrap();
        let all = every_layout(board);
        for goal in &goals {
            let goal = t.goal(goal).unwrap();
            for block in [1, 5, 256] {
                agree(&goal, &all, block);
            }
        }
    }
}

#[test]
fn every_layout_of_the_eight_puzzle_agrees() {
    let t = table();
    t.verify().unwrap();
    let all = every_layout(Board::EIGHT);
    let goal = t.standard().unwrap();
    agree(&goal, &all, 256);
    agree(&goal, &all[..5000], 3);
    // Another section's goal (the blank in the middle).
    let middle = t.goal(&Board::EIGHT.goal_with_blank(4)).unwrap();
    agree(&middle, &all[..20_000], 256);
}

#[test]
fn only_verified_byte_tables_at_unit_cost_without_relabelling() {
    let board = Board::new(2, 3).unwrap();
    let goals = default_goals(board);
    let bytes = |encoding, cost| {
        let sections = solve(&goals[..1], encoding, cost, &|_| {}).unwrap();
        table_bytes(board, &sections).unwrap()
    };
    let byte = Table::new(bytes(None, CostModel::Unit)).unwrap();
    // Not verified yet: every entry is read through its block's check.
    assert!(byte.goal(&goals[0]).unwrap().lockstep().is_none());
    byte.verify().unwrap();
    assert!(byte.goal(&goals[0]).unwrap().lockstep().is_some());
    // Another goal with the blank in the same cell: relabelled.
    let mut tiles = goals[0].tiles().to_vec();
    let (a, b) = match goals[0].blank() {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    tiles.swap(a, b);
    let other = Layout::new(board, &tiles).unwrap();
    assert!(byte.goal(&other).unwrap().lockstep().is_none());
    for (encoding, cost) in [
        (Some(Encoding::TwoBit), CostModel::Unit),
        (None, CostModel::Tile),
        (Some(Encoding::Wide16), CostModel::Unit),
    ] {
        let t = Table::new(bytes(encoding, cost)).unwrap();
        t.verify().unwrap();
        assert!(t.goal(&goals[0]).unwrap().lockstep().is_none());
    }
}

/// A tiny deterministic generator (SplitMix64), for the damage.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn damaged_entries_stop_a_block_where_one_question_at_a_time_stops() {
    let board = Board::EIGHT;
    let goal = board.standard_goal();
    let sections = solve(&[goal], None, CostModel::Unit, &|_| {}).unwrap();
    let good = version_1(&table_bytes(board, &sections).unwrap());
    let payload = good.len() - 181_440;
    let ranker = Ranker::new(board).unwrap();
    let mut seed = 26;
    let starts: Vec<Layout> = (0..3000)
        .map(|_| {
            ranker.unrank(
                next(&mut seed) % ranker.states(),
                (next(&mut seed) & 1) as u8,
            )
        })
        .collect();
    let mut errors = 0;
    for round in 0..60 {
        // A few damaged entries: any byte, or a distance past the greatest, or a move off
        // the board, or the goal's own entry.
        let mut bytes = good.clone();
        for _ in 0..1 + round % 40 {
            let at = payload + (next(&mut seed) % 181_440) as usize;
            bytes[at] = match round % 3 {
                0 => next(&mut seed) as u8,
                1 => bytes[at] ^ 0x04,
                _ => bytes[at] ^ (1 + (next(&mut seed) % 3) as u8),
            };
        }
        if round == 7 {
            bytes[payload + ranker.rank(&goal) as usize] = 1 << 2;
        }
        // Version 1, which `Table::new` does not verify: every entry reaches the walks.
        let t = Table::new(bytes).unwrap();
        let goal = t.standard().unwrap();
        let want = one_by_one(&goal, &starts);
        errors += usize::from(want.path_error.is_some());
        for block in [1, 64, 256] {
            agree(&goal, &starts, block);
        }
    }
    // The damage was met, not missed.
    assert!(errors > 20, "{errors}");
}
