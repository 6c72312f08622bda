//! The 15-puzzle on the page: no table holds its 10¹³ states, so its answers come from IDA*
//! on additive pattern databases (the search crate's [`Symmetric`], what `slidetable path
//! --board 4x4` runs), each search capped in time.

use std::path::Path;

use slidetable::core::{Board, Layout, Move};
use slidetable::query::{HistogramStats, MappedPatternTable};
use slidetable::search::{Heuristic, Limits, SearchError, Solution, Symmetric};
use slidetable::{Fifteen, FifteenError};

use crate::source::{Found, Source, SourceError};

/// A board answered by IDA* on pattern databases (a file: the cache's, made on first use
/// under its lock as the command line makes it, or one named with `--table`), opened by the
/// library ([`Fifteen`]) as the command line and Python open theirs.
pub struct PatternSource {
    databases: Fifteen,
    origin: String,
}

impl PatternSource {
    /// Serves the pattern databases `table`, opened from `path` (kept in the server's own
    /// memory, on huge pages where the kernel gives them); refuses databases that make no
    /// heuristic now, not on every request.
    pub fn new(table: MappedPatternTable, path: &Path) -> Result<PatternSource, SourceError> {
        let origin = path.display().to_string();
        // A server searches for hours: its databases are worth one copy onto huge pages
        // (fewer address-translation misses a search); where that copy cannot be made, the
        // mapped file serves as well, only slower.
        let table = table.resident().unwrap_or(table);
        let databases = Fifteen::new(table).map_err(|e| match e {
            FifteenError::Databases(problem) => SourceError::Pattern {
                origin: origin.clone(),
                problem,
            },
            e => SourceError::Search {
                origin: origin.clone(),
                message: e.to_string(),
            },
        })?;
        Ok(PatternSource { databases, origin })
    }

    /// The databases as the heuristic (and IDA*) towards `goal`: any goal a board symmetry
    /// carries onto theirs (on 4×4, the blank in a corner); another goal is the request's
    /// `goal` refused in the library's words.
    pub fn heuristic(&self, goal: &Layout) -> Result<Symmetric<'_>, SourceError> {
        self.databases.solver(goal).map_err(|e| match e {
            FifteenError::Goal { .. } => SourceError::BadParameter {
                parameter: "goal",
                message: e.to_string(),
            },
            e => SourceError::Search {
                origin: self.origin.clone(),
                message: e.to_string(),
            },
        })
    }
}

/// What a capped search found: the bound IDA* had reached when the cap stopped it
/// ([`slidetable::search::Stats::bound`]; the first, the puzzle's estimate, if it had not
/// begun) is a lower bound on the distance: every shorter path was searched in vain.
pub(crate) fn found(
    outcome: Result<Solution, SearchError>,
    first_bound: u32,
    origin: &str,
) -> Result<Found, SourceError> {
    match outcome {
        Ok(solution) => Ok(Found::Path(solution.path)),
        Err(SearchError::Unsolvable { .. }) => Ok(Found::Unreachable),
        Err(SearchError::LimitReached { stats, .. }) => {
            Ok(Found::AtLeast(stats.bound.unwrap_or(0).max(first_bound)))
        }
        Err(e) => Err(SourceError::Search {
            origin: origin.to_string(),
            message: e.to_string(),
        }),
    }
}

impl Source for PatternSource {
    fn board(&self) -> Board {
        self.databases.board()
    }

    fn origin(&self) -> String {
        self.origin.clone()
    }

    fn path(&self, puzzle: &Layout, goal: &Layout, limits: &Limits) -> Result<Found, SourceError> {
        let search = self.heuristic(goal)?;
        let first_bound = search.estimate(puzzle);
        // The moves tried in the command line's order: the same path as `path` prints.
        found(
            search.solve(puzzle, Move::ALL, limits),
            first_bound,
            &self.origin,
        )
    }

    fn random(&self, _: &Layout, _: u32, _: u64) -> Result<(Layout, Vec<Move>), SourceError> {
        Err(SourceError::BadParameter {
            parameter: "depth",
            message: format!(
                "puzzles exactly N moves from the goal are drawn from a table of every state, \
                 and {} boards have none; draw a walk of N random moves (walk=N) or a \
                 uniformly random puzzle (neither depth nor walk)",
                self.board()
            ),
        })
    }

    fn stats(&self, _: &Layout) -> Result<HistogramStats, SourceError> {
        Err(SourceError::BadParameter {
            parameter: "board",
            message: format!(
                "{} boards have no table of every state here, so no spread of distances",
                self.board()
            ),
        })
    }

    fn searches(&self) -> bool {
        true
    }

    fn patterns(&self, goal: &Layout) -> Option<Result<Symmetric<'_>, SourceError>> {
        Some(self.heuristic(goal))
    }
}
