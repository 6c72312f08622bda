//! The measurements a user calls: one heuristic ([`measure`], [`measure_goal`]), several in
//! one pass ([`measure_each`]), and the shipped kinds on packed tiles ([`measure_kinds`]).

use rayon::prelude::*;
use slidetable_query::{Goal, QueryError, Table};
use slidetable_search::{Heuristic, HeuristicKind};

use crate::meter::{reports, Part, PART};
use crate::report::HeuristicReport;
use crate::shipped;

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
/// the section's tiles instead of a [`Layout`](slidetable_core::Layout) per state and per move (see the `shipped`
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
