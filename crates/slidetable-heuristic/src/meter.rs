//! One part of the ranks measured ([`Part`]: each heuristic's [`Meter`]), the parts of a
//! section ([`ranges`]), and the reports the parts add up to ([`reports`]).

use slidetable_core::{Layout, Move};
use slidetable_query::{Goal, QueryError};
use slidetable_search::Heuristic;

use crate::report::{mean_ratio, HeuristicReport, Inconsistency, Tally, Witness};

/// Ranks per part of a parallel measurement.
pub(crate) const PART: u64 = 1 << 16;

/// What one heuristic gave over a part of the ranks: per distance, the states at each
/// estimate (every other figure of an [`Accuracy`] follows from these counts, so a state
/// costs one increment), and the worst cases with the gaps that a later state must beat.
#[derive(Clone)]
pub(crate) struct Meter {
    /// `counts[d][e]`: the states at distance `d` estimated `e`.
    pub(crate) counts: Vec<Vec<u64>>,
    pub(crate) over: Option<Witness>,
    pub(crate) under: Option<Witness>,
    pub(crate) steep: Option<Inconsistency>,
    /// `over`'s estimate − distance (0 while none).
    pub(crate) over_gap: u32,
    /// `under`'s distance − estimate (0 while none).
    pub(crate) under_gap: u32,
    /// `steep`'s drop of the estimate (1 while none: a drop of one is consistent).
    pub(crate) steep_gap: u32,
}

impl Meter {
    pub(crate) fn new(max_distance: u32) -> Meter {
        Meter {
            counts: vec![Vec::new(); max_distance as usize + 1],
            over: None,
            under: None,
            steep: None,
            over_gap: 0,
            under_gap: 0,
            steep_gap: 1,
        }
    }

    /// One state at `distance` (at most the maximum `Meter::new` was given) estimated
    /// `estimate`.
    #[inline]
    pub(crate) fn count(&mut self, layout: &Layout, distance: u32, estimate: u32) {
        let counts = &mut self.counts[distance as usize];
        let at = estimate as usize;
        if at >= counts.len() {
            counts.resize(at + 1, 0);
        }
        counts[at] += 1;
        self.witness(distance, estimate, || *layout);
    }

    /// The worst cases of [`Meter::count`] alone, of the state `layout()` builds (only when
    /// it is one), for a caller that counts the states itself.
    #[inline]
    pub(crate) fn witness(&mut self, distance: u32, estimate: u32, layout: impl Fn() -> Layout) {
        // Strictly worse than the worst so far: the earlier state wins a tie.
        if estimate > distance && estimate - distance > self.over_gap {
            self.over_gap = estimate - distance;
            self.over = Some(Witness {
                layout: layout(),
                distance,
                estimate,
            });
        }
        if estimate < distance && distance - estimate > self.under_gap {
            self.under_gap = distance - estimate;
            self.under = Some(Witness {
                layout: layout(),
                distance,
                estimate,
            });
        }
    }

    /// The move `step` from `from` (estimated `estimate_from`) to `to` (`estimate_to`).
    #[inline]
    pub(crate) fn check(
        &mut self,
        from: &Layout,
        step: Move,
        to: &Layout,
        estimate_from: u32,
        estimate_to: u32,
    ) {
        self.check_with(step, estimate_from, estimate_to, || (*from, *to));
    }

    /// [`Meter::check`] of the move whose two states `states()` builds, only when it is the
    /// worst so far.
    #[inline]
    pub(crate) fn check_with(
        &mut self,
        step: Move,
        estimate_from: u32,
        estimate_to: u32,
        states: impl FnOnce() -> (Layout, Layout),
    ) {
        if estimate_from > estimate_to && estimate_from - estimate_to > self.steep_gap {
            self.steep_gap = estimate_from - estimate_to;
            let (from, to) = states();
            self.steep = Some(Inconsistency {
                from,
                step,
                to,
                estimate_from,
                estimate_to,
            });
        }
    }

    /// Keeps `w` if it over-estimates more than the worst so far (the earlier on a tie).
    pub(crate) fn note_over(&mut self, w: Option<Witness>) {
        if let Some(w) = w.filter(|w| w.estimate > w.distance) {
            if self
                .over
                .is_none_or(|o| w.estimate - w.distance > o.estimate - o.distance)
            {
                self.over = Some(w);
            }
        }
    }

    /// Keeps `w` if it under-estimates more than the worst so far (the earlier on a tie).
    pub(crate) fn note_under(&mut self, w: Option<Witness>) {
        if let Some(w) = w.filter(|w| w.estimate < w.distance) {
            if self
                .under
                .is_none_or(|u| w.distance - w.estimate > u.distance - u.estimate)
            {
                self.under = Some(w);
            }
        }
    }

    /// Keeps `i` if its estimate drops by more than one, and more than the worst so far.
    pub(crate) fn note_steep(&mut self, i: Option<Inconsistency>) {
        if let Some(i) = i.filter(|i| i.estimate_from > i.estimate_to + 1) {
            if self
                .steep
                .is_none_or(|s| i.estimate_from - i.estimate_to > s.estimate_from - s.estimate_to)
            {
                self.steep = Some(i);
            }
        }
    }

    /// Adds `later`, the same heuristic over the part of the ranks that follows this one's.
    pub(crate) fn add(&mut self, later: Meter) {
        if self.counts.len() < later.counts.len() {
            self.counts.resize(later.counts.len(), Vec::new());
        }
        for (c, l) in self.counts.iter_mut().zip(&later.counts) {
            if c.len() < l.len() {
                c.resize(l.len(), 0);
            }
            for (a, b) in c.iter_mut().zip(l) {
                *a += b;
            }
        }
        self.note_over(later.over);
        self.note_under(later.under);
        self.note_steep(later.steep);
    }
}

/// What one part of the ranks gave: each heuristic's [`Meter`], and the moves checked.
pub(crate) struct Part {
    pub(crate) meters: Vec<Meter>,
    pub(crate) moves_checked: u64,
}

impl Part {
    /// Measures every heuristic of `heuristics` over the states of `goal` with these ranks:
    /// each state unranked, its distance read and its neighbours made once for all of them.
    pub(crate) fn of<H: Heuristic + ?Sized>(
        goal: &Goal<'_>,
        heuristics: &[&H],
        ranks: std::ops::Range<u64>,
    ) -> Result<Part, QueryError> {
        let max = goal.max_distance();
        let mut meters = vec![Meter::new(max); heuristics.len()];
        let mut moves_checked = 0u64;
        let mut next = [(Move::Up, *goal.layout()); 4];
        for (layout, distance) in goal.states_in(ranks)? {
            // The header's maximum bounds every stored distance unless the table is corrupt:
            // refused, never a tally sized by a damaged entry.
            if distance > max {
                return Err(QueryError::Corrupt { layout });
            }
            let mut moves = 0;
            for step in Move::ALL {
                if let Some(to) = layout.moved(step) {
                    next[moves] = (step, to);
                    moves += 1;
                }
            }
            moves_checked += moves as u64;
            for (heuristic, meter) in heuristics.iter().zip(&mut meters) {
                let estimate = heuristic.estimate(&layout);
                meter.count(&layout, distance, estimate);
                for (step, to) in &next[..moves] {
                    // As searches see it: updated from the state's estimate (Manhattan
                    // distance changes by the moved tile alone).
                    let estimate_to = heuristic.update(estimate, &layout, *step, to);
                    meter.check(&layout, *step, to, estimate, estimate_to);
                }
            }
        }
        Ok(Part {
            meters,
            moves_checked,
        })
    }

    /// Adds `later`, the part of the ranks that follows this one's.
    pub(crate) fn add(&mut self, later: Part) {
        for (m, l) in self.meters.iter_mut().zip(later.meters) {
            m.add(l);
        }
        self.moves_checked += later.moves_checked;
    }
}

/// Each heuristic's report from the parts of the ranks `measured` (in rank order), the
/// heuristics saying of themselves that they are consistent as `claims` says.
pub(crate) fn reports(
    goal: &Goal<'_>,
    measured: Vec<Part>,
    claims: &[bool],
) -> Vec<HeuristicReport> {
    let mut all = Part {
        meters: vec![Meter::new(goal.max_distance()); claims.len()],
        moves_checked: 0,
    };
    for part in measured {
        all.add(part);
    }
    let moves_checked = all.moves_checked;
    all.meters
        .into_iter()
        .zip(claims)
        .map(|(meter, &claims_consistent)| {
            let by_distance: Vec<Tally> = meter
                .counts
                .into_iter()
                .enumerate()
                .map(|(d, counts)| Tally::of_counts(d as u32, counts))
                .collect();
            let mut overall = Tally::EMPTY;
            for t in &by_distance {
                overall.merge(t);
            }
            HeuristicReport {
                goal: *goal.layout(),
                overall: overall.accuracy(mean_ratio(&by_distance)),
                by_distance: by_distance
                    .iter()
                    .enumerate()
                    .map(|(d, t)| {
                        let ratio = (d > 0 && t.states > 0)
                            .then(|| t.sum as f64 / d as f64 / t.states as f64);
                        t.accuracy(ratio)
                    })
                    .collect(),
                worst_overestimate: meter.over,
                worst_underestimate: meter.under,
                worst_inconsistency: meter.steep,
                moves_checked,
                claims_consistent,
            }
        })
        .collect()
}
