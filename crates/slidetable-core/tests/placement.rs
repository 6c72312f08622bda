//! The placement ranker is a bijection between placements of k tiles over n cells and
//! `0..n!/(n−k)!`: proptest round trips on the 15-puzzle's group sizes (the small sizes are
//! checked exhaustively by the unit tests beside the code).

use proptest::prelude::*;
use slidetable_core::PlacementRanker;

/// A board size, a group size and k distinct cells of that board.
fn placement() -> impl Strategy<Value = (usize, Vec<u8>)> {
    (2usize..=16)
        .prop_flat_map(|n| (Just(n), 1..=n.min(9)))
        .prop_flat_map(|(n, k)| {
            (
                Just(n),
                Just((0..n as u8).collect::<Vec<u8>>()).prop_shuffle(),
                Just(k),
            )
        })
        .prop_map(|(n, cells, k)| (n, cells[..k].to_vec()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn rank_then_unrank_is_the_identity((n, cells) in placement()) {
        let r = PlacementRanker::new(n, cells.len()).unwrap();
        let rank = r.rank(&cells);
        prop_assert!(rank < r.count());
        prop_assert_eq!(r.try_rank(&cells), Some(rank));
        let mut back = vec![0u8; cells.len()];
        r.unrank(rank, &mut back);
        prop_assert_eq!(back, cells);
    }

    #[test]
    fn unrank_then_rank_is_the_identity(k in 1usize..=9, frac in 0.0f64..1.0) {
        let r = PlacementRanker::new(16, k).unwrap();
        let rank = ((r.count() as f64 * frac) as u32).min(r.count() - 1);
        let mut cells = vec![0u8; k];
        let mask = r.unrank(rank, &mut cells);
        prop_assert_eq!(mask.count_ones() as usize, k);
        prop_assert_eq!(r.try_rank(&cells), Some(rank));
    }

    #[test]
    fn ranks_follow_lexicographic_order((n, a) in placement(), seed in any::<u64>()) {
        // Two placements of the same size compare as their ranks do.
        let r = PlacementRanker::new(n, a.len()).unwrap();
        let mut b = vec![0u8; a.len()];
        r.unrank((seed % u64::from(r.count())) as u32, &mut b);
        prop_assert_eq!(a.cmp(&b), r.rank(&a).cmp(&r.rank(&b)));
    }
}
