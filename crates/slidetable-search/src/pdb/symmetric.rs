//! Pattern databases answering for other goals: a board symmetry with the tiles renamed
//! carries the goal asked for onto the databases' goal, the search runs there, and the path
//! is carried back. One 4×4 database with the blank in a corner serves the goals with the
//! blank in any corner.

use rayon::prelude::*;
use slidetable_core::{Layout, Move, Symmetry, MAX_CELLS};

use crate::{check_solvable, Heuristic, Limits, PatternHeuristic, PatternSearch};
use crate::{SearchError, Solution};

/// Pattern databases made for one goal, as the heuristic and the IDA* search of another
/// goal that a board symmetry (with tiles renamed) carries onto theirs: distances are the
/// same on both sides.
#[derive(Clone, Debug)]
pub struct Symmetric<'a> {
    databases: PatternHeuristic<'a>,
    goal: Layout,
    /// Carries a layout and moves towards `goal` onto the databases' goal.
    symmetry: Symmetry,
    /// Carries the databases' moves back.
    back: Symmetry,
    rename: [u8; MAX_CELLS],
}

impl<'a> Symmetric<'a> {
    /// `databases` answering for `goal`; `None` when `goal` is on another board or no
    /// symmetry carries its blank cell onto the databases' goal's.
    pub fn new(databases: PatternHeuristic<'a>, goal: &Layout) -> Option<Symmetric<'a>> {
        let theirs = *databases.goal();
        if goal.board() != theirs.board() {
            return None;
        }
        let (symmetry, rename) = Symmetry::all(theirs.board())
            .into_iter()
            .find_map(|s| s.renaming(goal, &theirs).map(|r| (s, r)))?;
        Some(Symmetric {
            databases,
            goal: *goal,
            back: symmetry.inverse(),
            symmetry,
            rename,
        })
    }

    /// The databases, towards their own goal.
    pub fn databases(&self) -> &PatternHeuristic<'a> {
        &self.databases
    }

    /// An optimal path from `start` to the goal: the smallest under `order`, as
    /// [`PatternSearch::solve`] finds it. Parity is checked first.
    pub fn solve(
        &self,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
    ) -> Result<Solution, SearchError> {
        super::reached(
            self.solve_within(start, order, limits, u32::MAX)?,
            start,
            &self.goal,
        )
    }

    /// As [`solve`](Self::solve), but `None` when no path of at most `most` moves exists.
    pub fn solve_within(
        &self,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
        most: u32,
    ) -> Result<Option<Solution>, SearchError> {
        check_solvable(start, &self.goal)?;
        let image = self.symmetry.layout(start, &self.rename);
        let order = order.map(|m| self.symmetry.apply_move(m));
        let search = PatternSearch::new(&self.databases);
        let Some(mut found) = search.solve_within(&image, order, limits, most)? else {
            return Ok(None);
        };
        for m in &mut found.path {
            *m = self.back.apply_move(*m);
        }
        Ok(Some(found))
    }

    /// Each start's smallest optimal path under `order` (`None`: the start cannot reach the
    /// goal), found on every core (rayon), in the order of `starts`; the first error of a
    /// search (another board) stops the batch.
    pub fn solve_all(
        &self,
        starts: &[Layout],
        order: [Move; 4],
    ) -> Result<Vec<Option<Vec<Move>>>, SearchError> {
        self.solve_all_within(starts, order, &Limits::default())
    }

    /// [`solve_all`](Self::solve_all), each search within `limits` (the first search a
    /// limit stops is the error).
    pub fn solve_all_within(
        &self,
        starts: &[Layout],
        order: [Move; 4],
        limits: &Limits,
    ) -> Result<Vec<Option<Vec<Move>>>, SearchError> {
        starts
            .par_iter()
            .map(|start| self.path_or_none(start, order, limits))
            .collect()
    }

    /// Each start's answer as [`solve_all`](Self::solve_all)'s, found on every core, every
    /// search run to its end: a search's error is that start's answer, so the caller can
    /// tell which start it belongs to (a damaged database one search finds).
    pub fn solve_each(
        &self,
        starts: &[Layout],
        order: [Move; 4],
    ) -> Vec<Result<Option<Vec<Move>>, SearchError>> {
        let limits = Limits::default();
        starts
            .par_iter()
            .map(|start| self.path_or_none(start, order, &limits))
            .collect()
    }

    /// One start's path, `None` when it cannot reach the goal.
    fn path_or_none(
        &self,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
    ) -> Result<Option<Vec<Move>>, SearchError> {
        match self.solve(start, order, limits) {
            Ok(found) => Ok(Some(found.path)),
            Err(SearchError::Unsolvable { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

// The same shape as `PatternHeuristic`'s impl (pdb.rs), by the trait: both refuse a layout
// of another board with 0 (the trait's "no estimate"), then estimate their own way.
impl Heuristic for Symmetric<'_> {
    fn goal(&self) -> &Layout {
        &self.goal
    }

    fn estimate(&self, layout: &Layout) -> u32 {
        if layout.board() != self.goal.board() {
            return 0;
        }
        self.databases
            .estimate(&self.symmetry.layout(layout, &self.rename))
    }
}
