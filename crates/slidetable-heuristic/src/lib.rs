//! Heuristics measured against the true distances: every state's estimate set beside its exact
//! distance from the table, and every move checked for consistency.
//!
//! A search crate's tests can only say a heuristic is admissible on the states they try; the
//! table knows every state's distance, so [`measure`] can say it of all of them, show a
//! counter-example when it fails, and tell how close the estimates come at each distance.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::{default_goals, solve_sections, table_bytes};
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

use slidetable_core::{Layout, Move};
use slidetable_query::{QueryError, Table};
use slidetable_search::Heuristic;

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
#[derive(Clone, Copy)]
struct Tally {
    states: u64,
    sum: u64,
    min: u32,
    max: u32,
    exact: u64,
    ratio_sum: f64,
    ratio_states: u64,
}

impl Tally {
    const EMPTY: Tally = Tally {
        states: 0,
        sum: 0,
        min: u32::MAX,
        max: 0,
        exact: 0,
        ratio_sum: 0.0,
        ratio_states: 0,
    };

    fn add(&mut self, distance: u32, estimate: u32) {
        self.states += 1;
        self.sum += u64::from(estimate);
        self.min = self.min.min(estimate);
        self.max = self.max.max(estimate);
        self.exact += u64::from(estimate == distance);
        if distance > 0 {
            self.ratio_sum += f64::from(estimate) / f64::from(distance);
            self.ratio_states += 1;
        }
    }

    fn accuracy(&self) -> Accuracy {
        let n = self.states.max(1) as f64;
        Accuracy {
            states: self.states,
            mean_estimate: self.sum as f64 / n,
            min_estimate: if self.states == 0 { 0 } else { self.min },
            max_estimate: self.max,
            exact: self.exact,
            exact_share: self.exact as f64 / n,
            mean_ratio: (self.ratio_states > 0).then(|| self.ratio_sum / self.ratio_states as f64),
        }
    }
}

/// Measures `heuristic` over every state that can reach its goal ([`Heuristic::goal`]),
/// answered by `table` (from the goal's own section, or by relabelling). Reads the whole
/// section once and estimates every state and every neighbour: about a million estimates
/// for the 8-puzzle, tens of milliseconds.
pub fn measure<D, H>(table: &Table<D>, heuristic: &H) -> Result<HeuristicReport, QueryError>
where
    D: AsRef<[u8]>,
    H: Heuristic + ?Sized,
{
    let goal = table.goal(heuristic.goal())?;
    let mut overall = Tally::EMPTY;
    let mut by_distance = vec![Tally::EMPTY; goal.max_distance() as usize + 1];
    let mut over: Option<Witness> = None;
    let mut under: Option<Witness> = None;
    let mut steep: Option<Inconsistency> = None;
    let mut moves_checked = 0u64;
    for (layout, distance) in goal.states() {
        let estimate = heuristic.estimate(&layout);
        overall.add(distance, estimate);
        // The header's maximum bounds every stored distance unless the table is corrupt.
        if by_distance.len() <= distance as usize {
            by_distance.resize(distance as usize + 1, Tally::EMPTY);
        }
        by_distance[distance as usize].add(distance, estimate);
        let witness = Witness {
            layout,
            distance,
            estimate,
        };
        if estimate > distance && over.is_none_or(|w| estimate - distance > w.estimate - w.distance)
        {
            over = Some(witness);
        }
        if estimate < distance
            && under.is_none_or(|w| distance - estimate > w.distance - w.estimate)
        {
            under = Some(witness);
        }
        for step in layout.moves() {
            let to = layout.moved(step).expect("a legal move");
            let estimate_to = heuristic.estimate(&to);
            moves_checked += 1;
            if estimate > estimate_to + 1
                && steep.is_none_or(|d| estimate - estimate_to > d.estimate_from - d.estimate_to)
            {
                steep = Some(Inconsistency {
                    from: layout,
                    step,
                    to,
                    estimate_from: estimate,
                    estimate_to,
                });
            }
        }
    }
    Ok(HeuristicReport {
        goal: *goal.layout(),
        overall: overall.accuracy(),
        by_distance: by_distance.iter().map(Tally::accuracy).collect(),
        worst_overestimate: over,
        worst_underestimate: under,
        worst_inconsistency: steep,
        moves_checked,
        claims_consistent: heuristic.is_consistent(),
    })
}
