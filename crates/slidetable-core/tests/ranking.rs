//! The ranking is a bijection between each parity class and 0..n!/2: exhaustively on every
//! board of at most 9 cells, by property tests on the larger ones.

use proptest::prelude::*;
use slidetable_core::{slide, Board, Layout, Move, Ranker, Scan};
use slidetable_testkit::for_each_permutation;

fn check_exhaustively(board: Board) {
    let ranker = Ranker::new(board).unwrap();
    let states = ranker.states() as usize;
    assert_eq!(states as u64, board.reachable_states());
    // Every rank of each class unranks into that class and ranks back.
    for class in 0..2u8 {
        for r in 0..ranker.states() {
            let l = ranker.unrank(r, class);
            assert_eq!(l.class(), class, "{board} rank {r} class {class}: {l}");
            assert_eq!(ranker.rank(&l), r, "{board} rank {r} class {class}: {l}");
        }
    }
    // Every permutation is hit exactly once per class.
    let mut hits = [vec![0u8; states], vec![0u8; states]];
    let mut count = 0;
    for_each_permutation(board.cells(), |tiles| {
        let l = Layout::new(board, tiles).unwrap();
        let r = ranker.rank(&l);
        assert_eq!(ranker.unrank(r, l.class()), l, "{board}: {l}");
        assert_eq!(ranker.rank_and_class(&l), (r, l.class()), "{board}: {l}");
        hits[l.class() as usize][r as usize] += 1;
        count += 1;
    });
    assert_eq!(count, 2 * states);
    assert!(
        hits.iter().flatten().all(|&h| h == 1),
        "{board}: a rank was hit twice"
    );
}

#[test]
fn bijective_on_every_board_up_to_nine_cells() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        check_exhaustively(Board::new(r, c).unwrap());
    }
}

/// Every neighbour's rank, stepped by [`Ranker::step`] and by a [`Scan`] in rank order (with
/// its suffixes gathered and tabulated), is the rank of the layout the move makes.
fn check_steps(board: Board, ranks: impl Iterator<Item = u64> + Clone) {
    let ranker = Ranker::new(board).unwrap();
    for (class, tabulated) in [(0u8, false), (1, false), (0, true), (1, true)] {
        let scan = if tabulated {
            Scan::tabulated(board, class).unwrap()
        } else {
            Scan::new(board, class).unwrap()
        };
        let mut cursor = scan.cursor();
        for r in ranks.clone() {
            let l = ranker.unrank(r, class);
            let (packed, blank) = (l.packed(), l.blank());
            assert_eq!(scan.unrank(&mut cursor, r), (packed, blank), "{board} {r}");
            let mut want = Vec::new();
            for m in Move::ALL {
                if let Some(next) = l.moved(m) {
                    let to = next.blank();
                    let stepped = ranker.step(r, m, slide(packed, blank, to), to);
                    assert_eq!(stepped, ranker.rank(&next), "{board} {l} {m:?}");
                    want.push((m, stepped));
                }
            }
            let mut got = Vec::new();
            scan.any_neighbor(&mut cursor, r, |m, n| {
                got.push((m, n));
                false
            });
            assert_eq!(got, want, "{board} {l}");
        }
    }
}

#[test]
fn steps_are_the_neighbours_ranks_on_every_board_up_to_nine_cells() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let board = Board::new(r, c).unwrap();
        let states = Ranker::new(board).unwrap().states();
        check_steps(board, 0..states);
    }
}

#[test]
fn scans_step_every_rank_of_a_stretch_of_larger_boards() {
    for (r, c) in [
        (2, 5),
        (5, 2),
        (3, 4),
        (4, 3),
        (2, 6),
        (6, 2),
        (2, 7),
        (7, 2),
    ] {
        let board = Board::new(r, c).unwrap();
        let states = Ranker::new(board).unwrap().states();
        // Whole prefixes in a row, as a scan meets them, then the last ranks; on 14 cells
        // also the ranks around 2³², where a `u32` would wrap.
        let wide = if states > 1 << 32 {
            (1 << 32) - 2000..(1 << 32) + 2000
        } else {
            0..0
        };
        check_steps(
            board,
            (0..4000)
                .chain(states / 2..states / 2 + 4000)
                .chain(wide)
                .chain(states - 5..states),
        );
    }
}

#[test]
fn goals_with_the_blank_anywhere_keep_their_class_rule() {
    // Odd width: every goal is in class 0. Even width: goals in odd rows are in class 1.
    for (r, c) in [(3, 3), (2, 4), (3, 4), (4, 3)] {
        let board = Board::new(r, c).unwrap();
        for blank in 0..board.cells() {
            let g = board.goal_with_blank(blank);
            let want = ((c - 1) * (blank / c)) % 2;
            assert_eq!(g.class() as usize, want, "{board} blank {blank}");
        }
    }
}

fn board_and_permutation() -> impl Strategy<Value = Layout> {
    prop::sample::select(vec![
        (2, 5),
        (5, 2),
        (3, 4),
        (4, 3),
        (2, 6),
        (6, 2),
        (3, 3),
        (2, 7),
        (7, 2),
    ])
    .prop_flat_map(|(r, c)| {
        let board = Board::new(r, c).unwrap();
        Just((0..board.cells() as u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(move |tiles| Layout::new(board, &tiles).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn rank_then_unrank_is_the_identity(l in board_and_permutation()) {
        let ranker = Ranker::new(l.board()).unwrap();
        let r = ranker.rank(&l);
        prop_assert!(r < ranker.states());
        prop_assert_eq!(ranker.unrank(r, l.class()), l);
        prop_assert_eq!(ranker.rank_and_class(&l), (r, l.class()));
    }

    #[test]
    fn unrank_then_rank_is_the_identity(
        (r, c) in prop::sample::select(vec![(3, 4), (4, 3), (2, 6), (6, 2), (2, 5), (2, 7), (7, 2)]),
        frac in 0.0f64..1.0,
        class in 0u8..2,
    ) {
        let ranker = Ranker::new(Board::new(r, c).unwrap()).unwrap();
        let rank = ((ranker.states() as f64) * frac) as u64;
        let l = ranker.unrank(rank, class);
        prop_assert_eq!(l.class(), class);
        prop_assert_eq!(ranker.rank(&l), rank);
    }

    #[test]
    fn a_step_is_the_rank_of_the_move(l in board_and_permutation()) {
        let ranker = Ranker::new(l.board()).unwrap();
        let r = ranker.rank(&l);
        let scan = Scan::new(l.board(), l.class()).unwrap();
        let mut cursor = scan.cursor();
        let mut got = Vec::new();
        scan.any_neighbor(&mut cursor, r, |m, n| {
            got.push((m, n));
            false
        });
        // The tabulated suffixes unrank every prefix's tile set alike.
        let table = Scan::tabulated(l.board(), l.class()).unwrap();
        let mut at = table.cursor();
        prop_assert_eq!(table.unrank(&mut at, r), (l.packed(), l.blank()));
        let mut tabulated = Vec::new();
        table.any_neighbor(&mut at, r, |m, n| {
            tabulated.push((m, n));
            false
        });
        prop_assert_eq!(&tabulated, &got);
        // Leaving out the moves to some cells leaves out those neighbours alone.
        let cells = l.board().cells();
        for away in [0u32, 1 << l.blank(), 0b1010_0101_1010_0101, !0, r as u32] {
            let mut off = Vec::new();
            table.any_neighbor_off(&mut at, r, l.blank(), away, |m, n| {
                off.push((m, n));
                false
            });
            let kept: Vec<_> = got
                .iter()
                .copied()
                .filter(|&(m, _)| {
                    let to = scan.moves().of(l.blank(), m).unwrap_or(cells);
                    away >> to & 1 == 0
                })
                .collect();
            prop_assert_eq!(&off, &kept);
        }
        let mut want = Vec::new();
        for m in Move::ALL {
            if let Some(next) = l.moved(m) {
                let to = next.blank();
                let stepped = ranker.step(r, m, slide(l.packed(), l.blank(), to), to);
                prop_assert_eq!(stepped, ranker.rank(&next));
                want.push((m, stepped));
            }
        }
        prop_assert_eq!(got, want);
    }

    #[test]
    fn moves_keep_the_class(l in board_and_permutation(), moves in prop::collection::vec(0u8..4, 0..40)) {
        let mut cur = l;
        for m in moves {
            if let Some(next) = cur.moved(slidetable_core::Move::from_code(m)) {
                cur = next;
            }
            prop_assert_eq!(cur.class(), l.class());
        }
    }

    #[test]
    fn printed_layouts_parse_back(l in board_and_permutation()) {
        let printed = l.to_string();
        prop_assert_eq!(slidetable_core::parse_layout(l.board(), printed.as_bytes()).unwrap(), l);
        let commas = printed.replace(' ', ",");
        prop_assert_eq!(slidetable_core::parse_layout(l.board(), commas.as_bytes()).unwrap(), l);
    }
}

/// `Scan::layout` (the layouts of a whole-table pass) is `Ranker::unrank`, for every rank of
/// both classes up to 10 cells.
#[test]
fn scan_layouts_are_the_unranked_layouts() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5)] {
        let board = Board::new(rows, cols).unwrap();
        let ranker = Ranker::new(board).unwrap();
        for class in 0..2 {
            let scan = Scan::new(board, class).unwrap();
            let mut cursor = scan.cursor();
            for rank in 0..ranker.states() {
                assert_eq!(scan.layout(&mut cursor, rank), ranker.unrank(rank, class));
            }
        }
    }
}
