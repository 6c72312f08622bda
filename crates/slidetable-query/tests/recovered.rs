//! Distances recovered from 2-bit residues in one breadth-first pass (`Goal::recover_distances`)
//! against the byte entries of the same goal, for every goal of every board up to 10 cells:
//! every state's distance, the layers and their draws, a cut at a depth, and corrupt entries
//! refused.

use crate::common;

use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::all_goals;
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_query::{QueryError, SplitMix64, Table};

fn table_of(goal: &Layout, encoding: Encoding) -> Table<Vec<u8>> {
    let sections = solve(&[*goal], Some(encoding), CostModel::Unit, &|_| {}).unwrap();
    Table::new(table_bytes(goal.board(), &sections).unwrap()).unwrap()
}

fn check_board(board: Board) {
    for goal in all_goals(board) {
        let two = table_of(&goal, Encoding::TwoBit);
        let byte = table_of(&goal, Encoding::Byte);
        let (g2, gb) = (two.goal(&goal).unwrap(), byte.goal(&goal).unwrap());
        let known = g2.recover_distances(u32::MAX, &|_| {}).unwrap().unwrap();
        // Byte entries hold the distances already: nothing to recover.
        assert_eq!(gb.recover_distances(u32::MAX, &|_| {}).unwrap(), None);
        let expected: Vec<u8> = (0..gb.state_count())
            .map(|r| gb.section().distance_at(r).unwrap() as u8)
            .collect();
        assert_eq!(known, expected, "{board} goal {goal}");
        let knowing = g2.knowing(&known);
        let max = gb.max_distance();
        assert_eq!(
            knowing.layouts_at(max).unwrap().collect::<Vec<_>>(),
            gb.layouts_at(max).unwrap().collect::<Vec<_>>()
        );
        let (a, b) = (knowing.layer(0..=max).unwrap(), gb.layer(0..=max).unwrap());
        let (mut ra, mut rb) = (SplitMix64::new(9), SplitMix64::new(9));
        for _ in 0..50 {
            assert_eq!(a.sample(&mut ra), b.sample(&mut rb));
        }
        // Single distances (the ends, the middle) and ranges: the layers counted from the
        // recovered bytes hold the states the byte entries' layers hold, in the same order.
        let ranges = [0, 1, max / 2, max - 1, max]
            .map(|d| d..=d)
            .into_iter()
            .chain([1..=max / 2, max / 3..=max, max..=max + 5]);
        for range in ranges {
            let (a, b) = (knowing.layer(range.clone()), gb.layer(range.clone()));
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_eq!(a.len(), b.len(), "{board} goal {goal} {range:?}");
            for k in [0, a.len() / 2, a.len() - 1] {
                assert_eq!(a.get(k), b.get(k), "{board} goal {goal} {range:?} #{k}");
            }
        }
        // Cut at a depth: the states beyond read 255.
        let cut = max / 2;
        let partial = g2.recover_distances(cut, &|_| {}).unwrap().unwrap();
        for (p, e) in partial.iter().zip(&expected) {
            assert_eq!(*p, if u32::from(*e) <= cut { *e } else { 255 });
        }
    }
}

#[test]
fn recovered_distances_are_the_byte_tables_up_to_8_cells() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)] {
        check_board(Board::new(rows, cols).unwrap());
    }
}

#[test]
fn recovered_distances_are_the_byte_tables_on_3x3_and_2x5() {
    check_board(Board::EIGHT);
    check_board(Board::new(2, 5).unwrap());
}

#[test]
fn progress_counts_every_state_once() {
    let goal = Board::EIGHT.standard_goal();
    let two = table_of(&goal, Encoding::TwoBit);
    let counted = std::sync::atomic::AtomicU64::new(0);
    two.goal(&goal)
        .unwrap()
        .recover_distances(u32::MAX, &|n| {
            counted.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
    assert_eq!(counted.into_inner(), 181_440);
}

#[test]
fn entries_that_contradict_the_histogram_are_refused() {
    let goal = Board::EIGHT.standard_goal();
    let sections = solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    // Version 1, whose checksum `Table::new` does not verify: the recovery's own checks.
    let clean = common::version_1(&table_bytes(goal.board(), &sections).unwrap());
    let payload = clean.len() - 45_360;
    // Every single-bit flip of some thirty entries (the goal's own among them): the
    // recovery refuses each, or — where the flip leaves a distance mod 3 that still fits —
    // gives the byte table's distances.
    let expected: Vec<u8> = {
        let byte = table_of(&goal, Encoding::Byte);
        let g = byte.goal(&goal).unwrap();
        (0..g.state_count())
            .map(|r| g.section().distance_at(r).unwrap() as u8)
            .collect()
    };
    let goal_rank = slidetable_core::Ranker::new(Board::EIGHT)
        .unwrap()
        .rank(&goal);
    let goal_byte = payload + goal_rank as usize / 4;
    for at in (payload..clean.len()).step_by(1511).chain([goal_byte]) {
        for bit in 0..8 {
            let mut bytes = clean.clone();
            bytes[at] ^= 1 << bit;
            // The payload checksum is only checked by `verify`; `new` takes the bytes.
            let Ok(table) = Table::new(bytes) else {
                continue;
            };
            match table
                .goal(&goal)
                .unwrap()
                .recover_distances(u32::MAX, &|_| {})
            {
                Err(QueryError::CorruptLayer { .. } | QueryError::Corrupt { .. }) => {}
                Ok(Some(d)) => assert_eq!(d, expected, "flip {at}:{bit} accepted wrongly"),
                other => panic!("flip {at}:{bit}: {other:?}"),
            }
        }
    }
}
