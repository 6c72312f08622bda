//! The level pass (`Goal::level_pass`: the 2-bit entries plus one bit a state, how 2×7 answers
//! whole-table questions) against the byte a state of `Goal::recover_distances`, forced on
//! small boards, top-down only and with its late levels bottom-up (`PassOptions::bottom_up`):
//! every level's states, the k-th state of a level as `Layer::get` counts it, the stop at a
//! depth and by the flag, and corrupt entries refused.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding};
use slidetable_gen::all_goals;
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_query::{PassOptions, QueryError, SplitMix64, Table};

fn two_bit_table(goal: &Layout) -> Table<Vec<u8>> {
    let sections = solve(&[*goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    Table::new(table_bytes(goal.board(), &sections).unwrap()).unwrap()
}

fn check_goal(table: &Table<Vec<u8>>, goal: &Layout) {
    for bottom_up in [false, true] {
        check_pass(table, goal, bottom_up);
    }
}

fn check_pass(table: &Table<Vec<u8>>, goal: &Layout, bottom_up: bool) {
    let options = PassOptions {
        bottom_up,
        stop: None,
    };
    let g = table.goal(goal).unwrap();
    let known = g.recover_distances(u32::MAX, &|_| {}).unwrap().unwrap();
    let knowing = g.knowing(&known);
    let max = g.max_distance();
    assert!(!g.needs_level_pass(), "small boards recover a byte a state");
    let mut levels = Vec::new();
    let mut rng = SplitMix64::new(u64::from(max));
    let settled = AtomicU64::new(0);
    let finished = g
        .level_pass_with(
            max,
            options,
            &|n| {
                settled.fetch_add(n, Relaxed);
            },
            &mut |level| {
                let d = level.depth();
                assert_eq!(d as usize, levels.len());
                let states: Vec<Layout> = level.layouts().collect();
                assert_eq!(states.len() as u64, level.len(), "{goal} level {d}");
                assert_eq!(
                    states,
                    knowing.layouts_at(d).unwrap().collect::<Vec<_>>(),
                    "{goal} level {d}"
                );
                // Rank-select: the same k-th state as a layer of the byte distances.
                let layer = knowing.layer(d..=d).unwrap();
                let mut picks: Vec<u64> = (0..20).map(|_| rng.below(level.len())).collect();
                picks.extend([0, level.len() - 1]);
                let got = level.select(&picks);
                for (k, layout) in picks.iter().zip(&got) {
                    assert_eq!(
                        *layout,
                        layer.get(*k).map(|(l, _)| l),
                        "{goal} level {d} k {k}"
                    );
                }
                levels.push(states.len());
            },
        )
        .unwrap();
    assert!(finished);
    assert_eq!(levels.len() as u32, max + 1);
    assert_eq!(settled.into_inner(), g.state_count());
    // Stopping at a depth: the levels past it are not searched.
    let cut = max / 2;
    let settled = AtomicU64::new(0);
    let mut last = None;
    g.level_pass_with(
        cut,
        options,
        &|n| {
            settled.fetch_add(n, Relaxed);
        },
        &mut |level| last = Some(level.depth()),
    )
    .unwrap();
    assert_eq!(last, Some(cut));
    let upto: u64 = g.histogram()[..=cut as usize].iter().sum();
    assert_eq!(settled.into_inner(), upto);
    // Stopped by the flag at a level: no level past it is handed out, and the pass says it
    // did not finish.
    let stop = AtomicBool::new(false);
    let mut last = None;
    let finished = g
        .level_pass_with(
            max,
            PassOptions {
                bottom_up,
                stop: Some(&stop),
            },
            &|_| {},
            &mut |level| {
                last = Some(level.depth());
                if level.depth() == cut {
                    stop.store(true, Relaxed);
                }
            },
        )
        .unwrap();
    assert!(!finished);
    assert_eq!(last, Some(cut));
}

fn check_board(board: Board, every_goal: bool) {
    let goals = if every_goal {
        all_goals(board)
    } else {
        vec![
            board.standard_goal(),
            board.goal_with_blank(0),
            board.goal_with_blank(board.cells() / 2),
        ]
    };
    for goal in goals {
        check_goal(&two_bit_table(&goal), &goal);
    }
}

#[test]
fn levels_are_the_recovered_distances_up_to_8_cells_every_goal() {
    for (rows, cols) in [(2, 3), (3, 2), (2, 4), (4, 2)] {
        check_board(Board::new(rows, cols).unwrap(), true);
    }
}

#[test]
fn levels_are_the_recovered_distances_on_3x3_and_2x5() {
    check_board(Board::EIGHT, true);
    check_board(Board::new(2, 5).unwrap(), false);
    check_board(Board::new(5, 2).unwrap(), false);
}

#[test]
fn a_relabelled_goal_gets_its_own_labels() {
    // A table for the standard goal answers a goal with the blank in the same cell and the
    // tiles renamed: its levels are the recovered ones, in the goal's labels.
    let board = Board::EIGHT;
    let table = two_bit_table(&board.standard_goal());
    let goal = slidetable_core::parse_layout(board, b"2 1 3 4 5 6 7 8 x").unwrap();
    check_goal(&table, &goal);
}

#[test]
fn entries_that_contradict_the_histogram_are_refused() {
    let goal = Board::EIGHT.standard_goal();
    let sections = solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    // Version 1, whose checksum `Table::new` does not verify: the pass's own checks.
    let clean = common::version_1(&table_bytes(goal.board(), &sections).unwrap());
    let payload = clean.len() - 45_360;
    let expected: Vec<Vec<Layout>> = {
        let table = Table::new(clean.clone()).unwrap();
        let g = table.goal(&goal).unwrap();
        (0..=g.max_distance())
            .map(|d| g.layouts_at(d).unwrap().collect())
            .collect()
    };
    let goal_rank = slidetable_core::Ranker::new(Board::EIGHT)
        .unwrap()
        .rank(&goal);
    let goal_byte = payload + goal_rank as usize / 4;
    let mut refused = 0;
    for at in (payload..clean.len()).step_by(1511).chain([goal_byte]) {
        for bit in 0..8 {
            let mut bytes = clean.clone();
            bytes[at] ^= 1 << bit;
            let Ok(table) = Table::new(bytes) else {
                continue;
            };
            let g = table.goal(&goal).unwrap();
            for bottom_up in [false, true] {
                let options = PassOptions {
                    bottom_up,
                    stop: None,
                };
                let mut levels = Vec::new();
                match g.level_pass_with(g.max_distance(), options, &|_| {}, &mut |level| {
                    levels.push(level.layouts().collect::<Vec<_>>())
                }) {
                    Err(QueryError::CorruptLayer { .. }) => refused += 1,
                    // A flip to a value that still fits (the entry's other bit pattern for the
                    // same residue does not exist, so only a flip past the payload's last
                    // entry).
                    Ok(true) => assert_eq!(levels, expected, "flip {at}:{bit} accepted wrongly"),
                    Ok(false) => panic!("flip {at}:{bit}: stopped without a flag"),
                    Err(e) => panic!("flip {at}:{bit}: {e:?}"),
                }
            }
        }
    }
    assert!(refused > 400, "{refused} flips refused (both ways)");
}
