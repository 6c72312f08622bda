//! Seeded draws of puzzles: which states `random` takes among those at a depth, the same for
//! the same seed in the command line (`slidetable random --seed`) and Python
//! (`Table.random(seed=)`), on every path a table answers by (the `k`-th state of the layer in
//! rank order is the one drawn).

use std::ops::RangeInclusive;

use slidetable_core::counted;
use slidetable_query::{how_far, CostModel, SplitMix64};

/// More different puzzles asked for than the depths hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("only {} {} {} from the goal", counted(*.size, "state"), if *.size == 1 { "is" } else { "are" }, how_far(*.depths.start(), *.depths.end(), *.cost))]
pub struct TooFew {
    /// The states there are.
    pub size: u64,
    /// The depths asked for.
    pub depths: RangeInclusive<u32>,
    /// What the depths count: moves, or cheapest costs.
    pub cost: CostModel,
}

/// The `count` draws among the `size` states `depths` moves (or, on a table of `cost`s,
/// cheapest costs) from the goal (each a rank in
/// the layer: the `k`-th state), from `seed`: independent draws, or with `distinct` no state
/// twice (a uniform set in a uniform order, [`SplitMix64::distinct`]; refused when the depths
/// hold fewer than `count`). Lazy without `distinct`, so any count streams in constant
/// memory.
pub fn draws(
    depths: &RangeInclusive<u32>,
    cost: CostModel,
    size: u64,
    count: u64,
    seed: u64,
    distinct: bool,
) -> Result<Box<dyn Iterator<Item = u64> + Send>, TooFew> {
    if distinct && count > size {
        return Err(TooFew {
            size,
            depths: depths.clone(),
            cost,
        });
    }
    let mut rng = SplitMix64::new(seed);
    Ok(if distinct {
        Box::new(rng.distinct(size, count).into_iter())
    } else {
        Box::new((0..count).map(move |_| rng.below(size)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_agree_for_a_seed_and_refuse_too_many_distinct() {
        let one: Vec<u64> = draws(&(20..=20), CostModel::Unit, 100, 30, 7, false)
            .unwrap()
            .collect();
        assert_eq!(one.len(), 30);
        assert!(one.iter().all(|&k| k < 100));
        assert_eq!(
            one,
            draws(&(20..=20), CostModel::Unit, 100, 30, 7, false)
                .unwrap()
                .collect::<Vec<_>>()
        );
        let all: Vec<u64> = draws(&(3..=3), CostModel::Unit, 8, 8, 1, true)
            .unwrap()
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..8).collect::<Vec<u64>>());
        let e = draws(&(3..=3), CostModel::Unit, 8, 9, 1, true)
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "only 8 states are 3 moves from the goal");
        let e = draws(&(30..=31), CostModel::Unit, 1, 2, 1, true)
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "only 1 state is 30 to 31 moves from the goal"
        );
        let e = draws(&(6..=6), CostModel::Tile, 1, 2, 1, true)
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "only 1 state is at a cheapest cost of 6 from the goal"
        );
    }
}
