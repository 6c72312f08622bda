//! What answers the exact questions about one board: a table file here; a board too large for
//! a table (the 15-puzzle, with its pattern databases) plugs in by implementing [`Source`].

use std::path::{Path, PathBuf};

use slidetable_core::{Board, Layout, Move};
use slidetable_query::{
    CostModel, Encoding, HistogramStats, LayerError, MappedTable, QueryError, SplitMix64,
};

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
}

impl SourceError {
    /// Whether the request is at fault (status 400) rather than the source (status 500).
    pub fn is_bad_request(&self) -> bool {
        matches!(self, SourceError::BadParameter { .. })
    }
}

/// Exact answers about one board's puzzles, shared by every request (hence `Send + Sync`).
pub trait Source: Send + Sync {
    /// The board whose puzzles it answers.
    fn board(&self) -> Board;

    /// Where the answers come from (for `/api/boards`): a table's file name, say.
    fn origin(&self) -> String;

    /// An optimal path from `puzzle` to `goal`, or `None` when the goal cannot be reached.
    fn path(&self, puzzle: &Layout, goal: &Layout) -> Result<Option<Vec<Move>>, SourceError>;

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
}

/// A table file: every answer read from it, the same calls the command line makes.
pub struct TableSource {
    table: MappedTable,
    path: PathBuf,
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
        })
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

    fn path(&self, puzzle: &Layout, goal: &Layout) -> Result<Option<Vec<Move>>, SourceError> {
        let goal = self.goal(goal)?;
        let mut path = Vec::new();
        let found = goal
            .path_into(puzzle, &mut path)
            .map_err(|e| self.failed(e))?;
        Ok(found.then_some(path))
    }

    fn random(
        &self,
        goal: &Layout,
        depth: u32,
        seed: u64,
    ) -> Result<(Layout, Vec<Move>), SourceError> {
        if self.table.header().encoding() == Encoding::TwoBit {
            // Counting a layer reads every state's distance, and a 2-bit entry gives only
            // the distance mod 3: each read would be a walk to the goal (hours in all).
            return Err(SourceError::BadParameter {
                parameter: "board",
                message: format!(
                    "puzzles at a set depth are drawn on boards up to 10 cells; the {} table \
                     stores distances mod 3, and counting a layer would walk from each of \
                     its {} states",
                    self.board(),
                    self.board().reachable_states()
                ),
            });
        }
        let goal = self.goal(goal)?;
        let layer = goal.layer(depth..=depth).map_err(|e| match e {
            LayerError::Corrupt { .. } => SourceError::Layer {
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
}
