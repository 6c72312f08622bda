//! The scan in 64-bit ranks ([`Scan`] over [`WideRanker`]), which the 2-bit search of 15 and
//! 16 cells runs on: its unranking and each neighbour's rank against [`WideRanker`] and
//! against moving the blank on a [`Layout`]; on boards of at most 14 cells, against the
//! 32-bit scan rank for rank.

use std::sync::OnceLock;

use proptest::prelude::*;
use slidetable_core::{Board, Layout, Move, Ranker, Ranks, Scan, WideRanker};

/// The boards of 15 and 16 cells.
const WIDE: [(usize, usize); 5] = [(3, 5), (5, 3), (4, 4), (2, 8), (8, 2)];

/// The scan of board `WIDE[b]`, class `class`, tabulated or not: made once for every test.
fn wide_scan(b: usize, class: u8, tabulated: bool) -> &'static Scan<WideRanker> {
    static SCANS: [OnceLock<Scan<WideRanker>>; 20] = [const { OnceLock::new() }; 20];
    SCANS[b * 4 + usize::from(class) * 2 + usize::from(tabulated)].get_or_init(|| {
        let (rows, cols) = WIDE[b];
        Scan::build(Board::new(rows, cols).unwrap(), class, tabulated).unwrap()
    })
}

/// The moves from `layout` with each neighbour's rank by [`WideRanker`], in code order.
fn moved_ranks(ranker: &WideRanker, layout: &Layout) -> Vec<(Move, u64)> {
    Move::ALL
        .into_iter()
        .filter_map(|m| layout.moved(m).map(|next| (m, ranker.rank(&next))))
        .collect()
}

/// Every neighbour the scan gives `rank` (of `class`), in code order, and what it unranks
/// the rank to.
fn scanned<R: Ranks>(scan: &Scan<R>, rank: u64) -> ((u64, usize), Vec<(Move, u64)>) {
    let mut cursor = scan.cursor();
    let at = scan.unrank(&mut cursor, rank);
    let mut got = Vec::new();
    scan.any_neighbor(&mut cursor, rank, |m, n| {
        got.push((m, n));
        false
    });
    (at, got)
}

/// `rank` on the scan of class `class` against the ranker and the layout's moves: the
/// unranked layout, each neighbour, the moves within the prefix, and the moves left out by
/// [`Scan::any_neighbor_off`].
fn check_rank(b: usize, class: u8, rank: u64) {
    let board = Board::new(WIDE[b].0, WIDE[b].1).unwrap();
    let ranker = WideRanker::new(board);
    let layout = ranker.unrank(rank, class);
    assert_eq!(layout.class(), class);
    let want = moved_ranks(&ranker, &layout);
    for tabulated in [false, true] {
        let scan = wide_scan(b, class, tabulated);
        let (at, got) = scanned(scan, rank);
        assert_eq!(at, (layout.packed(), layout.blank()), "{board} rank {rank}");
        assert_eq!(got, want, "{board} {layout} rank {rank}");
        let mut cursor = scan.cursor();
        let pm = scan.prefix_moves(&mut cursor, rank);
        for &(m, to, delta) in &pm.moves[..pm.count] {
            let next = layout.moved(m).unwrap();
            assert_eq!(usize::from(to), next.blank());
            assert_eq!(
                rank as i64 + delta,
                ranker.rank(&next) as i64,
                "{board} {m:?}"
            );
        }
        for away in [0u32, 1 << layout.blank(), 0b1010_0101_1010_0101, !0] {
            let mut off = Vec::new();
            scan.any_neighbor_off(&mut cursor, rank, layout.blank(), away, |m, n| {
                off.push((m, n));
                false
            });
            let kept: Vec<_> = want
                .iter()
                .copied()
                .filter(|&(m, _)| away >> layout.moved(m).unwrap().blank() & 1 == 0)
                .collect();
            assert_eq!(off, kept, "{board} {layout} away {away:b}");
        }
    }
}

#[test]
fn a_wide_scan_steps_stretches_of_ranks_past_two_to_the_thirty_two() {
    for (b, &(rows, cols)) in WIDE.iter().enumerate() {
        let ranker = WideRanker::new(Board::new(rows, cols).unwrap());
        let (states, block) = (ranker.states(), ranker.block());
        assert!(block > 1 << 32, "{rows}x{cols}: a block passes 32 bits");
        // Whole prefixes in a row, as a pass meets them: the first ranks, across 2³² and a
        // block's end (where the blank moves on), and the last.
        for class in 0..2 {
            for tabulated in [false, true] {
                let scan = wide_scan(b, class, tabulated);
                let mut cursor = scan.cursor();
                let stretches = [
                    0..1500,
                    (1 << 32) - 800..(1 << 32) + 800,
                    block - 800..block + 800,
                    7 * block + 12_345..7 * block + 13_345,
                    states - 1500..states,
                ];
                for r in stretches.into_iter().flatten() {
                    let layout = ranker.unrank(r, class);
                    assert_eq!(
                        scan.unrank(&mut cursor, r),
                        (layout.packed(), layout.blank())
                    );
                    let mut got = Vec::new();
                    scan.any_neighbor(&mut cursor, r, |m, n| {
                        got.push((m, n));
                        false
                    });
                    assert_eq!(got, moved_ranks(&ranker, &layout), "{rows}x{cols} rank {r}");
                }
            }
        }
    }
}

/// On boards that both widths rank, the wide scan is the narrow one rank for rank: the same
/// state, the same neighbours, the same moves within a prefix.
#[test]
fn a_wide_scan_is_the_narrow_scan_up_to_fourteen_cells() {
    for (rows, cols) in [
        (2, 3),
        (3, 3),
        (2, 5),
        (3, 4),
        (4, 3),
        (2, 6),
        (2, 7),
        (7, 2),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let states = Ranker::new(board).unwrap().states();
        for class in 0..2 {
            for tabulated in [false, true] {
                let narrow: Scan = Scan::build(board, class, tabulated).unwrap();
                let wide: Scan<WideRanker> = Scan::build(board, class, tabulated).unwrap();
                assert_eq!(wide.ranker().block(), narrow.ranker().block());
                let (mut a, mut b) = (narrow.cursor(), wide.cursor());
                let stride = (states / 20_000).max(1) as usize;
                for r in (0..states).step_by(stride).chain(states - 400..states) {
                    assert_eq!(
                        narrow.unrank(&mut a, r),
                        wide.unrank(&mut b, r),
                        "{board} {r}"
                    );
                    let (_, x) = scanned(&narrow, r);
                    let (_, y) = scanned(&wide, r);
                    assert_eq!(x, y, "{board} rank {r}");
                    let (p, q) = (narrow.prefix_moves(&mut a, r), wide.prefix_moves(&mut b, r));
                    assert_eq!(p, q, "{board} rank {r}");
                }
            }
        }
    }
}

fn wide_layout() -> impl Strategy<Value = (usize, Layout)> {
    (0..WIDE.len()).prop_flat_map(|b| {
        let board = Board::new(WIDE[b].0, WIDE[b].1).unwrap();
        Just((0..board.cells() as u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(move |tiles| (b, Layout::new(board, &tiles).unwrap()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// A random layout of 15 or 16 cells: the wide scan unranks its rank to it, and steps
    /// to each neighbour's rank as moving the blank and ranking afresh gives.
    #[test]
    fn a_wide_scan_steps_to_the_rank_of_each_move((b, layout) in wide_layout()) {
        let ranker = WideRanker::new(layout.board());
        let rank = ranker.rank(&layout);
        prop_assert!(rank < ranker.states());
        prop_assert_eq!(ranker.unrank(rank, layout.class()), layout);
        check_rank(b, layout.class(), rank);
    }

    /// A random rank of 15 or 16 cells (anywhere in 0..n!/2, past 2⁴⁰ on 16 cells).
    #[test]
    fn a_wide_scan_unranks_any_rank(b in 0..WIDE.len(), frac in 0.0f64..1.0, class in 0u8..2) {
        let (rows, cols) = WIDE[b];
        let states = WideRanker::new(Board::new(rows, cols).unwrap()).states();
        let rank = (((states as f64) * frac) as u64).min(states - 1);
        check_rank(b, class, rank);
    }
}
