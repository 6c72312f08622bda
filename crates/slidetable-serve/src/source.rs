//! What answers the exact questions about one board: a table file here; a board too large for
//! a table (the 15-puzzle) by IDA* on its pattern databases (`PatternSource`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use slidetable_core::{Board, Layout, Move};
use slidetable_query::{
    CostModel, Encoding, HistogramStats, LayerError, MappedTable, QueryError, SplitMix64,
};
use slidetable_search::{Limits, PatternError, Symmetric};

use crate::progress::{Progress, Work};

/// Why a source could not answer: a request's parameter it refuses (status 400, naming the
/// parameter), or a failure of its own (status 500: a corrupt table).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SourceError {
    /// A request's parameter the source refuses (status 400).
    #[error("{parameter}: {message}")]
    BadParameter {
        /// The parameter, as the API names it (`goal`, `depth`, `board`).
        parameter: &'static str,
        /// Why it is refused, on one line, for the page to show.
        message: String,
    },
    /// A weighted table: the page compares move counts with heuristics, which count moves.
    #[error("table {} holds {cost} costs, but the page counts moves (use a --cost unit table)", path.display())]
    NotMoveCounts {
        /// The table's file.
        path: PathBuf,
        /// Its cost model.
        cost: CostModel,
    },
    /// The table could not answer a question it should (status 500: a corrupt table).
    #[error("table {}: {problem}", path.display())]
    Query {
        /// The table's file.
        path: PathBuf,
        /// What failed.
        problem: QueryError,
    },
    /// The table's distances do not add up for a level drawn from (status 500).
    #[error("table {}: {problem}", path.display())]
    Layer {
        /// The table's file.
        path: PathBuf,
        /// What failed.
        problem: LayerError,
    },
    /// A state drawn from the goal's level has no path to it (status 500: a corrupt table).
    #[error("table {}: a state of the goal's layer has no path", path.display())]
    NoPath {
        /// The table's file.
        path: PathBuf,
    },
    /// Pattern databases that do not make a heuristic (status 500: a corrupt file).
    #[error("pattern databases {origin}: {problem}")]
    Pattern {
        /// Where they come from.
        origin: String,
        /// What is wrong with them.
        problem: PatternError,
    },
    /// A search failed in a way a good source never does (status 500).
    #[error("{origin}: {message}")]
    Search {
        /// Where the answers come from.
        origin: String,
        /// What failed.
        message: String,
    },
}

impl SourceError {
    /// Whether the request is at fault (status 400) rather than the source (status 500).
    pub fn is_bad_request(&self) -> bool {
        matches!(self, SourceError::BadParameter { .. })
    }
}

/// What a source found for a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// An optimal path to the goal.
    Path(Vec<Move>),
    /// The goal cannot be reached (another parity class).
    Unreachable,
    /// The search stopped at its time cap: every path is at least this many moves (the
    /// bound IDA* had reached).
    AtLeast(u32),
}

/// Exact answers about one board's puzzles, shared by every request (hence `Send + Sync`).
pub trait Source: Send + Sync {
    /// The board whose puzzles it answers.
    fn board(&self) -> Board;

    /// Where the answers come from (for `/api/boards`): a table's file name, say.
    fn origin(&self) -> String;

    /// An optimal path from `puzzle` to `goal`, [`Found::Unreachable`] when there is none,
    /// or (a source that searches) the bound reached when `limits` stopped the search.
    fn path(&self, puzzle: &Layout, goal: &Layout, limits: &Limits) -> Result<Found, SourceError>;

    /// A puzzle exactly `depth` moves from `goal`, drawn uniformly from all of them by `seed`
    /// (the same seed, goal and table give the same puzzle), with an optimal path.
    fn random(
        &self,
        goal: &Layout,
        depth: u32,
        seed: u64,
    ) -> Result<(Layout, Vec<Move>), SourceError>;

    /// How the states spread over distances from `goal`.
    fn stats(&self, goal: &Layout) -> Result<HistogramStats, SourceError>;

    /// Whether its answers are searched for (in turn, within the time cap), not read.
    fn searches(&self) -> bool {
        false
    }

    /// The heuristic of the pattern databases a source that searches answers with, towards
    /// `goal`; `None` for a source with none.
    fn patterns(&self, _goal: &Layout) -> Option<Result<Symmetric<'_>, SourceError>> {
        None
    }

    /// Long work under way (a table's distances being recovered), for the page to show.
    fn work(&self) -> Option<Work> {
        None
    }
}

/// Every distance of a 2-bit section, recovered once (one per section's goal) and kept.
type Known = Arc<OnceLock<Result<Vec<u8>, SourceError>>>;

/// A table file: every answer read from it, the same calls the command line makes.
pub struct TableSource {
    table: MappedTable,
    path: PathBuf,
    /// The recovered distances of 2-bit sections, by the section's goal.
    known: Mutex<Vec<(Layout, Known)>>,
    recovering: Progress,
}

impl TableSource {
    /// Serves `table`, opened from `path`. Refuses a weighted table: the page compares move
    /// counts with heuristics, which count moves.
    pub fn new(table: MappedTable, path: &Path) -> Result<TableSource, SourceError> {
        if table.header().cost() != CostModel::Unit {
            return Err(SourceError::NotMoveCounts {
                path: path.to_path_buf(),
                cost: table.header().cost(),
            });
        }
        Ok(TableSource {
            table,
            path: path.to_path_buf(),
            known: Mutex::new(Vec::new()),
            recovering: Progress::default(),
        })
    }

    /// Every distance from `goal`'s section, recovered from the 2-bit entries on first use
    /// (seconds on 12 cells, one byte per state kept after) and shared by later draws;
    /// `None` for entries that hold whole distances.
    fn known(&self, goal: &slidetable_query::Goal<'_>) -> Result<Option<Known>, SourceError> {
        if goal.section().encoding() != Encoding::TwoBit {
            return Ok(None);
        }
        let key = *goal.section().goal();
        let cell = {
            // A poisoned lock only means another draw panicked; the list is still whole.
            let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
            match known.iter().find(|(g, _)| *g == key) {
                Some((_, cell)) => cell.clone(),
                None => {
                    let cell = Known::default();
                    known.push((key, cell.clone()));
                    cell
                }
            }
        };
        cell.get_or_init(|| {
            let states = self.board().reachable_states();
            self.recovering.start(
                format!("reading every distance of the {} table once", self.board()),
                states,
            );
            let recovered = goal
                .recover_distances(goal.max_distance(), &|n| self.recovering.add(n))
                .map_err(|e| self.failed(e))
                .map(Option::unwrap_or_default);
            self.recovering.finish();
            recovered
        });
        Ok(Some(cell))
    }

    fn failed(&self, problem: QueryError) -> SourceError {
        SourceError::Query {
            path: self.path.clone(),
            problem,
        }
    }

    fn goal(&self, goal: &Layout) -> Result<slidetable_query::Goal<'_>, SourceError> {
        self.table
            .goal(goal)
            .map_err(|e| SourceError::BadParameter {
                parameter: "goal",
                message: e.to_string(),
            })
    }
}

impl Source for TableSource {
    fn board(&self) -> Board {
        self.table.board()
    }

    fn origin(&self) -> String {
        self.path.display().to_string()
    }

    fn path(&self, puzzle: &Layout, goal: &Layout, _: &Limits) -> Result<Found, SourceError> {
        let goal = self.goal(goal)?;
        let mut path = Vec::new();
        let found = goal
            .path_into(puzzle, &mut path)
            .map_err(|e| self.failed(e))?;
        Ok(if found {
            Found::Path(path)
        } else {
            Found::Unreachable
        })
    }

    fn random(
        &self,
        goal: &Layout,
        depth: u32,
        seed: u64,
    ) -> Result<(Layout, Vec<Move>), SourceError> {
        let goal = self.goal(goal)?;
        // A 2-bit entry gives only the distance mod 3: counting a layer reads every state's
        // distance, so they are recovered once, in one pass, as `random` does.
        let known = self.known(&goal)?;
        let known = match known.as_ref().and_then(|k| k.get()) {
            Some(Err(e)) => return Err(e.clone()),
            Some(Ok(distances)) => Some(distances.as_slice()),
            None => None,
        };
        let goal = match known {
            Some(distances) => goal.knowing(distances),
            None => goal,
        };
        let layer = goal.layer(depth..=depth).map_err(|e| match e {
            LayerError::Corrupt { .. } | LayerError::Damaged(_) => SourceError::Layer {
                path: self.path.clone(),
                problem: e,
            },
            e => SourceError::BadParameter {
                parameter: "depth",
                message: e.to_string(),
            },
        })?;
        let (puzzle, _) =
            layer
                .sample(&mut SplitMix64::new(seed))
                .ok_or_else(|| SourceError::BadParameter {
                    parameter: "depth",
                    message: format!("no puzzle is {depth} moves from the goal"),
                })?;
        let path = goal
            .path(&puzzle)
            .map_err(|e| self.failed(e))?
            .ok_or_else(|| SourceError::NoPath {
                path: self.path.clone(),
            })?;
        Ok((puzzle, path))
    }

    fn stats(&self, goal: &Layout) -> Result<HistogramStats, SourceError> {
        Ok(self.goal(goal)?.stats())
    }

    fn work(&self) -> Option<Work> {
        self.recovering.work()
    }
}
