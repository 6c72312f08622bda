//! What answers the exact questions about one board: a table file here; a board too large for
//! a table (the 15-puzzle) by IDA* on its pattern databases (`PatternSource`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, TryLockError};

use slidetable::core::{Board, Layout, Move};
use slidetable::levels;
use slidetable::query::{
    CostModel, Encoding, HistogramStats, LayerError, MappedTable, QueryError, SplitMix64,
};
use slidetable::search::{Limits, PatternError, Symmetric};

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
    /// The source cannot answer now but may later (status 503): a draw at a depth on a
    /// 14-cell table goes through its levels in one bit a state, which needs memory the
    /// machine lacks, or another such draw is under way.
    #[error("{0}")]
    Unavailable(String),
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

    /// Whether the source cannot answer now but may later (status 503).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, SourceError::Unavailable(_))
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

    /// Readies later draws from `goal` at a depth (a 2-bit table's distances, recovered once:
    /// seconds on 12 cells); the server calls it on a thread of its own after a draw, so
    /// that a first shallow draw does not wait for it (a deep one recovers them itself).
    /// Nothing for other sources.
    fn prepare(&self, _goal: &Layout) {}

    /// Long work under way (a table's distances being recovered), for the page to show.
    fn work(&self) -> Option<Work> {
        None
    }
}

/// A table file: every answer read from it, the same calls the command line makes.
pub struct TableSource {
    table: MappedTable,
    path: PathBuf,
    /// The recovered distances of 2-bit sections, once a section for the server's life.
    recovered: levels::Recovered,
    /// One level pass at a time (each holds a bit a state): shallow draws before the
    /// distances are recovered wait for each other rather than for the whole recovery.
    passes: Mutex<()>,
    /// The level pass under way, for the page.
    passing: Progress,
    /// The whole recovery under way, for the page.
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
            recovered: levels::Recovered::default(),
            passes: Mutex::new(()),
            passing: Progress::default(),
            recovering: Progress::default(),
        })
    }

    /// Every distance of `goal`'s section, recovered once for the server (the first caller
    /// recovers them, shown on the page as it goes; callers meanwhile wait for it) and read
    /// from then on; `None` for entries that hold whole distances.
    fn recover(
        &self,
        goal: &slidetable::query::Goal<'_>,
    ) -> Result<Option<Arc<Vec<u8>>>, SourceError> {
        // Only the caller that recovers is told of progress: it shows the work from its first
        // level to its last.
        let recovering = AtomicBool::new(false);
        let recovered = self.recovered.get(goal, &|n| {
            if !recovering.swap(true, Ordering::AcqRel) {
                self.recovering.start(
                    format!("reading every distance of the {} table once", self.board()),
                    goal.state_count(),
                );
            }
            self.recovering.add(n);
        });
        if recovering.into_inner() {
            self.recovering.finish();
        }
        recovered.transpose().map_err(|e| self.failed(e))
    }

    /// The puzzle `seed` draws `depth` moves from `goal`, whose entries are 2-bit and whose
    /// distances are not recovered yet: the level pass from the goal, which stops at `depth`
    /// (the levels beyond are not read: a twelfth of the work of recovering every distance for
    /// the 30-move puzzles of 3×4), then the same `k`-th state in rank order that
    /// [`slidetable::query::Layer::sample`] picks once they are, and that the command line's
    /// `random --depth` picks.
    /// `pass` says how (the late levels bottom-up in a second bitmap, or not).
    fn draw_by_levels(
        &self,
        goal: &slidetable::query::Goal<'_>,
        depth: u32,
        seed: u64,
        pass: &levels::Pass,
    ) -> Result<Layout, SourceError> {
        let len = goal
            .layer_len(depth..=depth)
            .map_err(|e| SourceError::BadParameter {
                parameter: "depth",
                message: e.to_string(),
            })?;
        let k = SplitMix64::new(seed).below(len);
        self.passing.start(
            format!(
                "reading the {} table's states up to {depth} moves",
                self.board()
            ),
            pass.total,
        );
        let mut drawn = None;
        let passed = pass.run(goal, &|n| self.passing.add(n), None, &mut |level| {
            if level.depth() == depth {
                drawn = level.select(&[k]).pop().flatten();
            }
        });
        self.passing.finish();
        passed.map_err(|e| self.failed(e))?;
        drawn.ok_or_else(|| self.no_path())
    }

    /// A draw on a table whose distances are never recovered (14 cells: 43.6 GB a byte a
    /// state on 2×7; any 2-bit table with [`slidetable::query::LEVEL_PASS_ENV`]): every draw
    /// goes through the levels up to `depth` ([`TableSource::draw_by_levels`], minutes and
    /// 5.45 GB beside the mapped entries on 2×7), as the command line's `random --depth`
    /// does. A depth the table has no state at is the request's fault (400); while another
    /// such draw runs, or when the machine lacks the memory the pass needs, the draw is
    /// refused for now (503), never queued behind minutes of work or started to fail.
    fn random_by_levels(
        &self,
        goal: &slidetable::query::Goal<'_>,
        depth: u32,
        seed: u64,
    ) -> Result<(Layout, Vec<Move>), SourceError> {
        let board = self.board();
        goal.layer_len(depth..=depth)
            .map_err(|e| SourceError::BadParameter {
                parameter: "depth",
                message: e.to_string(),
            })?;
        let bitmap = goal.level_pass_memory();
        let _one = match self.passes.try_lock() {
            Ok(one) => one,
            // Another draw panicked while holding it: nothing it guards is left half done.
            Err(TryLockError::Poisoned(one)) => one.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(SourceError::Unavailable(format!(
                    "another draw at a depth is going through the {board} table's levels (one \
                     at a time: each takes {} of memory); ask again when it ends",
                    slidetable::generate::room::human(bitmap)
                )))
            }
        };
        let pass = levels::plan(goal, depth, "a draw at a depth")
            .map_err(|e| SourceError::Unavailable(e.to_string()))?;
        let puzzle = self.draw_by_levels(goal, depth, seed, &pass)?;
        self.with_path(goal, puzzle)
    }

    /// A drawn puzzle with its optimal path; a drawn puzzle with none is a bad table.
    fn with_path(
        &self,
        goal: &slidetable::query::Goal<'_>,
        puzzle: Layout,
    ) -> Result<(Layout, Vec<Move>), SourceError> {
        let path = goal
            .path(&puzzle)
            .map_err(|e| self.failed(e))?
            .ok_or_else(|| self.no_path())?;
        Ok((puzzle, path))
    }

    fn no_path(&self) -> SourceError {
        SourceError::NoPath {
            path: self.path.clone(),
        }
    }

    fn failed(&self, problem: QueryError) -> SourceError {
        SourceError::Query {
            path: self.path.clone(),
            problem,
        }
    }

    fn goal(&self, goal: &Layout) -> Result<slidetable::query::Goal<'_>, SourceError> {
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
        // distance. Once they are recovered ([`Source::prepare`], in the background after
        // the first draw) a draw counts them; until then it takes the level pass up to the
        // depth asked for, one at a time.
        if goal.wants_level_pass() {
            return self.random_by_levels(&goal, depth, seed);
        }
        // Recovered already: read. A deep draw recovers them (the pass to its depth would
        // cost about as much) and keeps them for every later draw; a shallow one passes the
        // levels up to its depth only, one pass at a time, and the recovery follows in the
        // background ([`Source::prepare`]).
        let two_bit = goal.section().encoding() == Encoding::TwoBit;
        let recovered = match self.recovered.kept(&goal) {
            Some(kept) => Some(kept.map_err(|e| self.failed(e))?),
            None if two_bit && levels::worth_recovering(&goal, depth) => self.recover(&goal)?,
            None if two_bit => {
                let _one = self.passes.lock().unwrap_or_else(|e| e.into_inner());
                match self.recovered.kept(&goal) {
                    Some(kept) => Some(kept.map_err(|e| self.failed(e))?),
                    None => {
                        // 30 MB a bitmap on 12 cells: the late levels bottom-up when a
                        // second one fits.
                        let pass = levels::plan(&goal, depth, "a draw at a depth")
                            .unwrap_or_else(|_| levels::Pass::of(&goal, depth, false));
                        let puzzle = self.draw_by_levels(&goal, depth, seed, &pass)?;
                        return self.with_path(&goal, puzzle);
                    }
                }
            }
            None => None,
        };
        let goal = match &recovered {
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
        self.with_path(&goal, puzzle)
    }

    fn stats(&self, goal: &Layout) -> Result<HistogramStats, SourceError> {
        Ok(self.goal(goal)?.stats())
    }

    fn prepare(&self, goal: &Layout) {
        let Ok(goal) = self.goal(goal) else { return };
        if goal.section().encoding() == Encoding::TwoBit && self.recovered.kept(&goal).is_none() {
            // A failure is kept, and told to the draw that reads it.
            let _ = self.recover(&goal);
        }
    }

    fn work(&self) -> Option<Work> {
        // What a draw waits for first.
        self.passing.work().or_else(|| self.recovering.work())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable::generate::{generate, Plan};
    use slidetable::query::Table;

    /// A first shallow draw at a depth on a 2-bit table reads the levels up to that depth
    /// only (the distances are recovered later, by `prepare`); a first deep draw recovers
    /// every distance and keeps them, so that the next deep draw reads them (on 3x4 the
    /// second depth-40 draw took as long as the first: issue 39). Every draw is the puzzle a
    /// draw over every recovered distance gives (the command line's), before and after,
    /// on every depth; a depth past the farthest is refused as before.
    #[test]
    fn a_first_deep_draw_keeps_every_distance_for_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("3x3-2bit.slt");
        let mut plan = Plan::default_for(Board::EIGHT);
        plan.encoding = Some(Encoding::TwoBit);
        generate(&plan, &path, &|_| {}).unwrap();
        let goal = Board::EIGHT.standard_goal();
        let table = Table::open(&path).unwrap();
        let section = table.goal(&goal).unwrap();
        let all = section.recover_distances(31, &|_| {}).unwrap().unwrap();
        let every = section.knowing(&all);
        let drawn = |source: &TableSource, depth: u32, seed: u64| {
            let (puzzle, path) = source.random(&goal, depth, seed).unwrap();
            let (expected, _) = every
                .layer(depth..=depth)
                .unwrap()
                .sample(&mut SplitMix64::new(seed))
                .unwrap();
            assert_eq!(puzzle, expected, "depth {depth}, seed {seed}");
            assert_eq!(path.len() as u32, depth);
            let mut at = puzzle;
            for m in path {
                at = at.moved(m).unwrap();
            }
            assert_eq!(at, goal);
        };
        let recovered = |source: &TableSource| source.recovered.kept(&section).is_some();
        let shallow = (0..=31)
            .filter(|&d| !levels::worth_recovering(&section, d))
            .max()
            .unwrap();
        let source = TableSource::new(Table::open(&path).unwrap(), &path).unwrap();
        for (depth, seed) in [(0, 1), (shallow, 2), (shallow, u64::MAX)] {
            drawn(&source, depth, seed);
            assert!(
                !recovered(&source),
                "depth {depth}: every distance recovered"
            );
        }
        drawn(&source, 31, 4);
        assert!(recovered(&source), "a deep draw kept no distances");
        assert_eq!(source.work(), None);
        for (depth, seed) in [(0, 1), (5, 2), (20, u64::MAX), (31, 5), (30, 6)] {
            drawn(&source, depth, seed);
        }
        // A shallow first draw leaves the recovery to `prepare`.
        let source = TableSource::new(Table::open(&path).unwrap(), &path).unwrap();
        drawn(&source, shallow, 3);
        assert!(!recovered(&source));
        let beyond = source.random(&goal, 32, 1).unwrap_err().to_string();
        assert!(
            beyond.starts_with("depth: no state is 32 moves from"),
            "{beyond}"
        );
        assert_eq!(source.work(), None);
        source.prepare(&goal);
        assert!(recovered(&source));
        assert_eq!(source.work(), None);
        for (depth, seed) in [(0, 1), (5, 2), (20, u64::MAX), (31, 4), (30, 6)] {
            drawn(&source, depth, seed);
        }
    }
}
