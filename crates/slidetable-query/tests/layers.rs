//! Layers of the 8-puzzle table: histogram statistics, the k-th state at a distance, uniform
//! draws from a layer (a chi-square check), any goal by relabelling, and the refusals.

use std::collections::HashMap;

use slidetable_core::Layout;
use slidetable_query::{LayerError, SplitMix64};

use crate::common::{eight, table};

#[test]
fn stats_of_the_standard_goal() {
    let s = table().standard().unwrap().stats();
    assert_eq!(s.states, 181_440);
    assert_eq!(s.layers.iter().map(|l| l.states).sum::<u64>(), 181_440);
    assert_eq!(s.max, 31);
    assert_eq!(s.layers.len(), 32);
    assert_eq!(s.layers[31].states, 2);
    assert_eq!(s.layers[31].cumulative, 1.0);
    assert!((s.layers.iter().map(|l| l.share).sum::<f64>() - 1.0).abs() < 1e-12);
    // 71,912 states lie within 21 moves and 95,864 within 22 (half is 90,720): median 22.
    assert_eq!(s.median, 22);
    let exact: u64 = s
        .layers
        .iter()
        .map(|l| u64::from(l.distance) * l.states)
        .sum();
    assert_eq!(s.mean, exact as f64 / 181_440.0);
    assert!((21.9..22.0).contains(&s.mean), "{}", s.mean);
}

#[test]
fn a_layer_lists_exactly_the_states_at_its_distances() {
    let goal = table().standard().unwrap();
    for d in [0, 1, 3, 17, 31] {
        let layer = goal.layer(d..=d).unwrap();
        let listed: Vec<Layout> = (0..layer.len()).map(|k| layer.get(k).unwrap().0).collect();
        let expected: Vec<Layout> = goal.layouts_at(d).unwrap().collect();
        assert_eq!(listed, expected, "distance {d}");
        assert_eq!(layer.len(), goal.histogram()[d as usize]);
    }
    let range = goal.layer(29..=31).unwrap();
    assert_eq!(range.len(), 760 + 221 + 2);
    for k in 0..range.len() {
        let (layout, d) = range.get(k).unwrap();
        assert!((29..=31).contains(&d));
        assert_eq!(goal.distance(&layout).unwrap(), Some(d));
    }
}

#[test]
fn states_yields_every_state_with_its_distance() {
    let goal = table().goal(&eight("1 2 3 8 0 4 7 6 5")).unwrap();
    let mut count = 0u64;
    for (layout, d) in goal.states().unwrap().step_by(97) {
        assert_eq!(goal.distance(&layout).unwrap(), Some(d));
        count += 1;
    }
    assert_eq!(count, 181_440u64.div_ceil(97));
    assert_eq!(goal.states().unwrap().count(), 181_440);
}

/// Draws `n` times from the 8 states 3 moves from the goal and returns the chi-square
/// statistic against the uniform distribution.
fn chi_square(goal: &Layout, seed: u64, n: u64) -> f64 {
    let goal = table().goal(goal).unwrap();
    let layer = goal.layer(3..=3).unwrap();
    assert_eq!(layer.len(), 8);
    let mut rng = SplitMix64::new(seed);
    let mut seen: HashMap<Layout, u64> = HashMap::new();
    for _ in 0..n {
        let (layout, d) = layer.sample(&mut rng).unwrap();
        assert_eq!(d, 3);
        assert_eq!(goal.distance(&layout).unwrap(), Some(3));
        *seen.entry(layout).or_default() += 1;
    }
    assert_eq!(seen.len(), 8, "every state of the layer is drawn");
    let expected = n as f64 / 8.0;
    seen.values()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn draws_cover_a_layer_evenly() {
    // 7 degrees of freedom: P(chi-square > 30) is about 1e-4 for a uniform sampler, while a
    // sampler that never draws one state (or favours one by 20%) lands far above it.
    for (goal, seed) in [("1 2 3 4 5 6 7 8 0", 1), ("1 2 3 8 0 4 7 6 5", 2)] {
        let x = chi_square(&eight(goal), seed, 8000);
        assert!(x < 30.0, "chi-square {x} for goal {goal}");
    }
}

#[test]
fn a_seed_fixes_the_draws() {
    let goal = table().standard().unwrap();
    let layer = goal.layer(20..=22).unwrap();
    let draw = |seed| {
        let mut rng = SplitMix64::new(seed);
        (0..20)
            .map(|_| layer.sample(&mut rng).unwrap().0)
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(5), draw(5));
    assert_ne!(draw(5), draw(6));
}

#[test]
fn refuses_empty_and_out_of_range_layers() {
    let goal = table().standard().unwrap();
    let (low, high) = (5, 3);
    assert_eq!(
        goal.layer(low..=high).unwrap_err(),
        LayerError::EmptyRange { low: 5, high: 3 }
    );
    let err = goal.layer(32..=32).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no state is 32 moves from 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away"
    );
    assert_eq!(
        goal.layer(32..=40).unwrap_err().to_string(),
        "no state is 32 to 40 moves from 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away"
    );
    // A range reaching past the maximum still holds the states below it.
    assert_eq!(goal.layer(31..=40).unwrap().len(), 2);
}
