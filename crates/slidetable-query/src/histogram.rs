//! How a section's states spread over distances: shares, cumulative shares, mean, median
//! and maximum, computed from the histogram in the header (no payload read).

/// The states at one distance from the goal.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerStats {
    /// The distance (or cost).
    pub distance: u32,
    /// The states at that distance.
    pub states: u64,
    /// `states` over all states, in 0..=1.
    pub share: f64,
    /// The share of states at most `distance` moves away; exactly 1.0 at the maximum.
    pub cumulative: f64,
}

/// A summary of a distance histogram.
#[derive(Clone, Debug, PartialEq)]
pub struct HistogramStats {
    /// Every state counted: the goal's whole parity class.
    pub states: u64,
    /// One entry per distance from 0 to [`HistogramStats::max`].
    pub layers: Vec<LayerStats>,
    /// The mean distance over all states.
    pub mean: f64,
    /// The smallest distance that at least half the states are within (the lower median).
    pub median: u32,
    /// The greatest distance any state has.
    pub max: u32,
}

impl HistogramStats {
    /// Summarises `histogram` (`histogram[d]`: the states at distance `d`). Trailing zero
    /// counts are dropped; an all-zero histogram gives zero states and every figure 0.
    pub fn of(histogram: &[u64]) -> HistogramStats {
        let len = histogram.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
        let histogram = &histogram[..len];
        let states: u64 = histogram.iter().sum();
        let total = states.max(1) as f64;
        let mut layers = Vec::with_capacity(len);
        let mut within = 0u64;
        let mut weighted = 0u128;
        let mut median = None;
        for (d, &n) in histogram.iter().enumerate() {
            within += n;
            weighted += d as u128 * u128::from(n);
            if median.is_none() && 2 * within >= states {
                median = Some(d as u32);
            }
            layers.push(LayerStats {
                distance: d as u32,
                states: n,
                share: n as f64 / total,
                // `within == states` at the end, so the last share is exactly 1.0.
                cumulative: within as f64 / total,
            });
        }
        HistogramStats {
            states,
            mean: weighted as f64 / total,
            median: median.unwrap_or(0),
            max: len.saturating_sub(1) as u32,
            layers,
        }
    }

    /// The states at distance `d` (0 beyond the maximum).
    pub fn states_at(&self, d: u32) -> u64 {
        self.layers.get(d as usize).map_or(0, |l| l.states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarises_a_small_histogram() {
        // 1 state at 0, 2 at 1, 4 at 2, 1 at 3: mean (0 + 2 + 8 + 3) / 8.
        let s = HistogramStats::of(&[1, 2, 4, 1, 0, 0]);
        assert_eq!(s.states, 8);
        assert_eq!(s.max, 3);
        assert_eq!(s.layers.len(), 4);
        assert_eq!(s.mean, 13.0 / 8.0);
        // Within 1 move: 3 of 8; within 2: 7 of 8.
        assert_eq!(s.median, 2);
        assert_eq!(s.layers[1].share, 0.25);
        assert_eq!(s.layers[1].cumulative, 3.0 / 8.0);
        assert_eq!(s.layers[3].cumulative, 1.0);
        assert_eq!(s.states_at(2), 4);
        assert_eq!(s.states_at(9), 0);
    }

    #[test]
    fn the_median_is_the_lower_one() {
        // Exactly half within 0 moves.
        assert_eq!(HistogramStats::of(&[1, 1]).median, 0);
        assert_eq!(HistogramStats::of(&[1, 2]).median, 1);
    }

    #[test]
    fn an_empty_histogram_is_all_zero() {
        let s = HistogramStats::of(&[0, 0]);
        assert_eq!((s.states, s.max, s.median, s.mean), (0, 0, 0, 0.0));
        assert!(s.layers.is_empty());
    }
}
