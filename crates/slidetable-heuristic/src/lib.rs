//! Heuristics measured against the true distances: every state's estimate set beside its exact
//! distance from the table, and every move checked for consistency.
//!
//! A search crate's tests can only say a heuristic is admissible on the states they try; the
//! table knows every state's distance, so [`measure`] can say it of all of them, show a
//! counter-example when it fails, and tell how close the estimates come at each distance.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::engine::{solve_sections, table_bytes};
//! use slidetable_gen::{default_goals};
//! use slidetable_query::Table;
//! use slidetable_heuristic::measure;
//! use slidetable_search::Manhattan;
//!
//! let board = Board::EIGHT;
//! let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
//! let table = Table::new(bytes).unwrap();
//! let report = measure(&table, &Manhattan::new(&board.standard_goal())).unwrap();
//! assert_eq!(report.overall.states, 181_440);
//! assert!(report.admissible() && report.consistent());
//! // At 31 moves Manhattan says 21 at most.
//! assert_eq!(report.by_distance[31].max_estimate, 21);
//! ```

use rayon::prelude::*;
use slidetable_core::{Layout, Move};
use slidetable_query::{Goal, QueryError, Table};
use slidetable_search::{Heuristic, HeuristicKind};

mod shipped;

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

/// What [`measure`] found.
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
    /// What the heuristic says of itself ([`Heuristic::is_consistent`]).
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
struct Tally {
    states: u64,
    sum: u64,
    min: u32,
    max: u32,
    exact: u64,
    /// States by estimate.
    counts: Vec<u64>,
}

impl Tally {
    const EMPTY: Tally = Tally {
        states: 0,
        sum: 0,
        min: u32::MAX,
        max: 0,
        exact: 0,
        counts: Vec::new(),
    };

    /// The sums of the states at `distance` whose estimates `counts` holds (`counts[e]`:
    /// the states estimated `e`; nothing after its last non-zero count).
    fn of_counts(distance: u32, counts: Vec<u64>) -> Tally {
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

    fn merge(&mut self, other: &Tally) {
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
    fn accuracy(&self, mean_ratio: Option<f64>) -> Accuracy {
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
fn mean_ratio(by_distance: &[Tally]) -> Option<f64> {
    let states: u64 = by_distance.iter().skip(1).map(|t| t.states).sum();
    let ratios: f64 = by_distance
        .iter()
        .enumerate()
        .skip(1)
        .map(|(d, t)| t.sum as f64 / d as f64)
        .sum();
    (states > 0).then(|| ratios / states as f64)
}

/// Ranks per part of a parallel measurement.
const PART: u64 = 1 << 16;

/// What one heuristic gave over a part of the ranks: per distance, the states at each
/// estimate (every other figure of an [`Accuracy`] follows from these counts, so a state
/// costs one increment), and the worst cases with the gaps that a later state must beat.
#[derive(Clone)]
struct Meter {
    /// `counts[d][e]`: the states at distance `d` estimated `e`.
    counts: Vec<Vec<u64>>,
    over: Option<Witness>,
    under: Option<Witness>,
    steep: Option<Inconsistency>,
    /// `over`'s estimate − distance (0 while none).
    over_gap: u32,
    /// `under`'s distance − estimate (0 while none).
    under_gap: u32,
    /// `steep`'s drop of the estimate (1 while none: a drop of one is consistent).
    steep_gap: u32,
}

impl Meter {
    fn new(max_distance: u32) -> Meter {
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
    fn count(&mut self, layout: &Layout, distance: u32, estimate: u32) {
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
    fn witness(&mut self, distance: u32, estimate: u32, layout: impl Fn() -> Layout) {
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
    fn check(
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
    fn check_with(
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
    fn note_over(&mut self, w: Option<Witness>) {
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
    fn note_under(&mut self, w: Option<Witness>) {
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
    fn note_steep(&mut self, i: Option<Inconsistency>) {
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
    fn add(&mut self, later: Meter) {
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
struct Part {
    meters: Vec<Meter>,
    moves_checked: u64,
}

impl Part {
    /// Measures every heuristic of `heuristics` over the states of `goal` with these ranks:
    /// each state unranked, its distance read and its neighbours made once for all of them.
    fn of<H: Heuristic + ?Sized>(
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
    fn add(&mut self, later: Part) {
        for (m, l) in self.meters.iter_mut().zip(later.meters) {
            m.add(l);
        }
        self.moves_checked += later.moves_checked;
    }
}

/// Measures `heuristic` over every state that can reach its goal ([`Heuristic::goal`]),
/// answered by `table` (from the goal's own section, or by relabelling). Reads the whole
/// section once and estimates every state and every neighbour: about a million estimates
/// for the 8-puzzle, tens of milliseconds.
pub fn measure<D, H>(table: &Table<D>, heuristic: &H) -> Result<HeuristicReport, QueryError>
where
    D: AsRef<[u8]>,
    H: Heuristic + Sync + ?Sized,
{
    measure_goal(&table.goal(heuristic.goal())?, heuristic)
}

/// [`measure`] against `goal` as given — for instance a goal that knows every distance
/// already ([`Goal::knowing`]), as a 2-bit section's recovered in one pass. `goal` must be
/// the heuristic's goal.
pub fn measure_goal<H>(goal: &Goal<'_>, heuristic: &H) -> Result<HeuristicReport, QueryError>
where
    H: Heuristic + Sync + ?Sized,
{
    let mut reports = measure_each(goal, &[heuristic])?;
    Ok(reports.remove(0))
}

/// [`measure_goal`] of each of `heuristics` (all towards `goal`), in one pass over the
/// states: each state is unranked, its distance read and its neighbours made once for all of
/// them. The reports are those [`measure_goal`] gives one at a time, in the same order.
pub fn measure_each<H>(
    goal: &Goal<'_>,
    heuristics: &[&H],
) -> Result<Vec<HeuristicReport>, QueryError>
where
    H: Heuristic + Sync + ?Sized,
{
    let goal = *goal;
    // Fixed parts of the ranks, measured on every core and added up in rank order, so the
    // report is the same whatever the threads (the first worst case in rank order wins).
    let parts = ranges(&goal);
    let measured: Vec<Part> = parts
        .into_par_iter()
        .map(|ranks| Part::of(&goal, heuristics, ranks))
        .collect::<Result<_, _>>()?;
    let claims: Vec<bool> = heuristics.iter().map(|h| h.is_consistent()).collect();
    Ok(reports(&goal, measured, &claims))
}

/// [`measure_each`] of the heuristics the search crate ships, each built towards `goal`'s
/// layout from its kind: the same reports, in the order of `kinds`, from a pass that works on
/// the section's tiles instead of a [`Layout`] per state and per move (see the `shipped`
/// module) on boards whose lines have at most four cells (up to 4×4); through
/// [`measure_each`] on the others.
pub fn measure_kinds(
    goal: &Goal<'_>,
    kinds: &[HeuristicKind],
) -> Result<Vec<HeuristicReport>, QueryError> {
    let built: Vec<_> = kinds.iter().map(|k| k.build(goal.layout())).collect();
    let Some(tables) = shipped::Tables::new(goal) else {
        let heuristics: Vec<_> = built.iter().map(|h| &**h).collect();
        return measure_each(goal, &heuristics);
    };
    let scan = goal.packed_scan();
    let measured: Vec<Part> = ranges(goal)
        .into_par_iter()
        .map(|ranks| shipped::part(&tables, goal, scan.as_ref(), kinds, ranks))
        .collect::<Result<_, _>>()?;
    let claims: Vec<bool> = built.iter().map(|h| h.is_consistent()).collect();
    Ok(reports(goal, measured, &claims))
}

/// The fixed parts of `goal`'s ranks that are measured on every core, in rank order.
fn ranges(goal: &Goal<'_>) -> Vec<std::ops::Range<u64>> {
    let n = goal.state_count();
    (0..n)
        .step_by(PART as usize)
        .map(|start| start..start.saturating_add(PART).min(n))
        .collect()
}

/// Each heuristic's report from the parts of the ranks `measured` (in rank order), the
/// heuristics saying of themselves that they are consistent as `claims` says.
fn reports(goal: &Goal<'_>, measured: Vec<Part>, claims: &[bool]) -> Vec<HeuristicReport> {
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
