//! What a measurement reports: how a heuristic's estimates compare with the true distances
//! ([`Accuracy`], by distance and overall), its worst cases ([`Witness`], [`Inconsistency`]),
//! and the running sums that make them ([`Tally`]).

use slidetable_core::{Layout, Move};

/// How a heuristic's estimates compare with the true distances over a set of states.
#[derive(Clone, Debug, PartialEq)]
pub struct Accuracy {
    /// How many states.
    pub states: u64,
    /// The mean of their estimates.
    pub mean_estimate: f64,
    /// The smallest estimate.
    pub min_estimate: u32,
    /// The largest estimate.
    pub max_estimate: u32,
    /// States whose estimate equals their distance.
    pub exact: u64,
    /// `exact` over `states`.
    pub exact_share: f64,
    /// The mean of estimate / distance over the states not at the goal (`None` if all are).
    pub mean_ratio: Option<f64>,
    /// How many states have each estimate (index: the estimate), exactly: the whole
    /// distribution, from which [`Accuracy::quartiles`] are read.
    pub estimates: Vec<u64>,
}

/// The quartiles of the estimates: each the smallest estimate that at least a quarter, a
/// half, three quarters of the states do not exceed (the nearest rank: the ⌈k·n/4⌉-th
/// smallest estimate of n), so each is an estimate some state has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quartiles {
    /// The 25th percentile.
    pub lower: u32,
    /// The median (the lower of the two middle estimates when n is even).
    pub median: u32,
    /// The 75th percentile.
    pub upper: u32,
}

impl Accuracy {
    /// The quartiles of the estimates; `None` for no states.
    pub fn quartiles(&self) -> Option<Quartiles> {
        let n = self.states;
        if n == 0 {
            return None;
        }
        // The estimate of the r-th smallest (1-based): the first whose running count
        // reaches r.
        let nth = |r: u64| {
            let mut seen = 0u64;
            for (estimate, &count) in self.estimates.iter().enumerate() {
                seen += count;
                if seen >= r {
                    return estimate as u32;
                }
            }
            self.max_estimate
        };
        let rank = |k: u64| (k * n).div_ceil(4).max(1);
        Some(Quartiles {
            lower: nth(rank(1)),
            median: nth(rank(2)),
            upper: nth(rank(3)),
        })
    }
}

/// A state, its true distance and the heuristic's estimate of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The state.
    pub layout: Layout,
    /// Its true distance from the goal.
    pub distance: u32,
    /// The heuristic's estimate of that distance.
    pub estimate: u32,
}

/// A move along which the estimate drops by more than the move costs: `estimate_from >
/// 1 + estimate_to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The state the move starts from.
    pub from: Layout,
    /// The blank's move from `from` to `to`.
    pub step: Move,
    /// The state the move leads to.
    pub to: Layout,
    /// The estimate at `from`.
    pub estimate_from: u32,
    /// The estimate at `to`.
    pub estimate_to: u32,
}

/// What `measure` found.
#[derive(Clone, Debug, PartialEq)]
pub struct HeuristicReport {
    /// The goal the heuristic estimates distances to.
    pub goal: Layout,
    /// Every state that can reach the goal.
    pub overall: Accuracy,
    /// `by_distance[d]`: the states `d` moves from the goal, for every `d` up to the maximum.
    pub by_distance: Vec<Accuracy>,
    /// The state the heuristic over-estimates most (the first in the table's rank order on a
    /// tie); `None` exactly when the heuristic is admissible.
    pub worst_overestimate: Option<Witness>,
    /// The state it under-estimates most (first on a tie); `None` if no state is
    /// under-estimated.
    pub worst_underestimate: Option<Witness>,
    /// The move along which the estimate drops most beyond one (first on a tie); `None`
    /// exactly when the heuristic is consistent.
    pub worst_inconsistency: Option<Inconsistency>,
    /// Moves checked: every move from every state (each edge of the state graph twice).
    pub moves_checked: u64,
    /// What the heuristic says of itself ([`Heuristic::is_consistent`](slidetable_search::Heuristic::is_consistent)).
    pub claims_consistent: bool,
}

impl HeuristicReport {
    /// No state's estimate exceeds its distance.
    pub fn admissible(&self) -> bool {
        self.worst_overestimate.is_none()
    }

    /// Along no move does the estimate drop by more than one.
    pub fn consistent(&self) -> bool {
        self.worst_inconsistency.is_none()
    }
}

/// Running sums for one [`Accuracy`].
#[derive(Clone)]
pub(crate) struct Tally {
    pub(crate) states: u64,
    pub(crate) sum: u64,
    pub(crate) min: u32,
    pub(crate) max: u32,
    pub(crate) exact: u64,
    /// States by estimate.
    pub(crate) counts: Vec<u64>,
}

impl Tally {
    pub(crate) const EMPTY: Tally = Tally {
        states: 0,
        sum: 0,
        min: u32::MAX,
        max: 0,
        exact: 0,
        counts: Vec::new(),
    };

    /// The sums of the states at `distance` whose estimates `counts` holds (`counts[e]`:
    /// the states estimated `e`; nothing after its last non-zero count).
    pub(crate) fn of_counts(distance: u32, counts: Vec<u64>) -> Tally {
        let mut t = Tally::EMPTY;
        for (e, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let e = e as u32;
            t.states += c;
            t.sum += u64::from(e) * c;
            t.min = t.min.min(e);
            t.max = t.max.max(e);
        }
        t.exact = counts.get(distance as usize).copied().unwrap_or(0);
        t.counts = counts;
        t
    }

    pub(crate) fn merge(&mut self, other: &Tally) {
        self.states += other.states;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.exact += other.exact;
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (c, o) in self.counts.iter_mut().zip(&other.counts) {
            *c += o;
        }
    }

    /// The figures, with `mean_ratio` (the mean of estimate / distance) computed by the
    /// caller from the per-distance sums, exactly and in one order.
    pub(crate) fn accuracy(&self, mean_ratio: Option<f64>) -> Accuracy {
        let n = self.states.max(1) as f64;
        Accuracy {
            states: self.states,
            mean_estimate: self.sum as f64 / n,
            min_estimate: if self.states == 0 { 0 } else { self.min },
            max_estimate: self.max,
            exact: self.exact,
            exact_share: self.exact as f64 / n,
            mean_ratio,
            estimates: self.counts.clone(),
        }
    }
}

/// The mean of estimate / distance over every state at distance 1 or more: at distance `d`
/// the estimates sum to `sum`, so their ratios sum to `sum / d`.
pub(crate) fn mean_ratio(by_distance: &[Tally]) -> Option<f64> {
    let states: u64 = by_distance.iter().skip(1).map(|t| t.states).sum();
    let ratios: f64 = by_distance
        .iter()
        .enumerate()
        .skip(1)
        .map(|(d, t)| t.sum as f64 / d as f64)
        .sum();
    (states > 0).then(|| ratios / states as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartiles_are_nearest_ranks_of_the_counts() {
        let tally = |estimates: &[u32]| {
            let mut counts = Vec::new();
            for &e in estimates {
                let at = e as usize;
                if at >= counts.len() {
                    counts.resize(at + 1, 0);
                }
                counts[at] += 1;
            }
            Tally::of_counts(5, counts).accuracy(None)
        };
        // Sorted 0 2 2 3: ranks 1, 2, 3 of 4.
        let q = tally(&[2, 3, 0, 2]).quartiles().unwrap();
        assert_eq!((q.lower, q.median, q.upper), (0, 2, 2));
        // One state: every quartile is its estimate.
        let q = tally(&[7]).quartiles().unwrap();
        assert_eq!((q.lower, q.median, q.upper), (7, 7, 7));
        // Five: ranks 2, 3, 4.
        let q = tally(&[9, 1, 5, 3, 7]).quartiles().unwrap();
        assert_eq!((q.lower, q.median, q.upper), (3, 5, 7));
        assert_eq!(tally(&[]).quartiles(), None);
    }
}
