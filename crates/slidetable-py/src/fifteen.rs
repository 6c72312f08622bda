//! `slidetable.Fifteen`: the 15-puzzle answered optimally by IDA* on additive pattern
//! databases (a file written by `slidetable generate --board 4x4`, the cache's, or a
//! partition built in memory), one puzzle at a time or a numpy array of them on every core.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::PyArray2;
use pyo3::prelude::*;

use crate::interrupt::Counted;
use pyo3::types::{PyDict, PyTuple};
use slidetable::core::{path_string, Board, Layout, Move};
use slidetable::generate::Partition;
use slidetable::query::{AnyTable, PatternTable, SplitMix64, TableBytes};
use slidetable::search::{Heuristic, Limits, SearchError, Symmetric};
use slidetable::{Fifteen, FifteenError};

use crate::cache;
use crate::errors::{gen_error, table_error, value_error, whole};
use crate::pickling;
use crate::puzzles::{self, Given};
use crate::records;
use crate::table::parse_order;

/// The 15-puzzle's optimal solver: IDA* guided by additive pattern databases, which also
/// serve as a heuristic (`slidetable.pattern`).
///
/// Open a database with `Fifteen.open(path)` (written by `slidetable generate --board 4x4`),
/// take the cache's with `Fifteen.default()` (the 7-8 partition when `slidetable generate
/// --board 4x4` has made it, else a 6-6-3 built in seconds on first use), or build a
/// partition in memory with
/// `Fifteen.generate("5-5-5")` (a second; slower solves). Every goal with the blank in a
/// corner is answered from one database through the board's symmetries; the default goal is
/// tiles in order with the blank last. A puzzle may be given as a 4x4 grid (a list of rows,
/// a 2-D array), read in reading order.
#[pyclass(module = "slidetable", name = "Fifteen", frozen)]
pub(crate) struct PyFifteen {
    fifteen: Fifteen,
}

/// The library's refusals as Python exceptions, with the command line's messages.
fn fifteen_error(e: FifteenError) -> PyErr {
    match e {
        FifteenError::Table(e) => table_error(e),
        FifteenError::Default(e) => cache::default_error(*e),
        FifteenError::Generate(e) => gen_error(e),
        e => value_error(e),
    }
}

impl PyFifteen {
    fn board(&self) -> Board {
        self.fifteen.board()
    }

    /// The databases a search's `pdb` or `pdb-PARTITION` takes towards `goal`, as the library
    /// chooses them ([`slidetable::PatternChoice`]): the board's default file (the cache's,
    /// made on first use with its note) or the partition built in memory.
    pub(crate) fn for_search(
        py: Python<'_>,
        choice: slidetable::PatternChoice,
        goal: &Layout,
    ) -> PyResult<PyFifteen> {
        let goal = *goal;
        let fifteen = crate::interrupt::abandonable(py, move || match choice {
            slidetable::PatternChoice::File => {
                Fifteen::default_watched(goal.board(), &cache::Noted(None)).map_err(fifteen_error)
            }
            slidetable::PatternChoice::Build(partition) => {
                Fifteen::generate(&goal, &partition).map_err(fifteen_error)
            }
        })??;
        Ok(PyFifteen { fifteen })
    }

    /// IDA* on the databases towards `goal`.
    pub(crate) fn solver_to(&self, goal: &Layout) -> PyResult<Symmetric<'_>> {
        self.fifteen.solver(goal).map_err(fifteen_error)
    }

    /// Says in a search record which databases guided it: `heuristic` (`"pdb"`), `partition`
    /// and `database` (the file, `None` when built in memory).
    pub(crate) fn describe(&self, record: &Bound<'_, PyDict>) -> PyResult<()> {
        record.set_item("heuristic", "pdb")?;
        record.set_item("partition", self.fifteen.partition())?;
        record.set_item("database", self.file())
    }

    /// IDA* on the databases for the goal argument (`None`: the standard goal), as the
    /// library opens it.
    pub(crate) fn solver(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<Symmetric<'_>> {
        let board = self.board();
        let goal = puzzles::goal(board, goal)?.unwrap_or_else(|| board.standard_goal());
        self.fifteen.solver(&goal).map_err(fifteen_error)
    }

    /// The optimal paths of `layouts` under `order` (`None`: unreachable), on every core
    /// without the GIL; Ctrl-C stops them.
    fn solve_all(
        &self,
        py: Python<'_>,
        solver: &Symmetric<'_>,
        layouts: &[Layout],
        order: [Move; 4],
    ) -> PyResult<Vec<Option<Vec<Move>>>> {
        crate::interrupt::stoppable(py, |stop| {
            let limits = Limits {
                stop: Some(stop.clone()),
                ..Limits::default()
            };
            solver.solve_all_within(layouts, order, &limits)
        })?
        .map_err(value_error)
    }
}

/// One optimal path, `None` when the goal cannot be reached; Ctrl-C stops it.
fn solve_one(
    py: Python<'_>,
    solver: &Symmetric<'_>,
    layout: &Layout,
    order: [Move; 4],
) -> PyResult<Option<Vec<Move>>> {
    let found = crate::interrupt::stoppable(py, |stop| {
        let limits = Limits {
            stop: Some(stop.clone()),
            ..Limits::default()
        };
        solver.solve(layout, order, &limits)
    })?;
    match found {
        Ok(found) => Ok(Some(found.path)),
        Err(SearchError::Unsolvable { .. }) => Ok(None),
        Err(e) => Err(value_error(e)),
    }
}

// `distance`, `path`-like and `estimate` methods take `Table`'s arguments under its names
// (`puzzle`, `goal`, `order`) on purpose, so that Python written for one runs on the other:
// the signatures share their shape, the answers come from another solver (IDA* here, the
// table's entries there).
#[pymethods]
impl PyFifteen {
    /// Opens the pattern database file at `path` (written by `slidetable generate --board
    /// 4x4`). Raises `FileNotFoundError` when it is missing and `ValueError` when it is no
    /// valid database (a table of every state is opened with `Table.open`).
    #[staticmethod]
    fn open(path: PathBuf) -> PyResult<PyFifteen> {
        // Opened once as what it holds, as the command line opens it: a table of every state
        // is refused in its words.
        let table = AnyTable::open(&path)
            .and_then(AnyTable::into_patterns)
            .map_err(table_error)?;
        let fifteen = Fifteen::new(table).map_err(fifteen_error)?;
        Ok(PyFifteen { fifteen })
    }

    /// The cache's database (`slidetable/4x4.slt` in `$XDG_CACHE_HOME`, else `~/.cache`), the
    /// one the `slidetable` command uses: the 7-8 databases when `slidetable generate --board
    /// 4x4` has put them there, else `4x4-663.slt` beside it, built with the 6-6-3 partition on
    /// first use (seconds) under the command's lock, with a `UserWarning` saying so;
    /// `progress(done, total)`, if given, is called every twentieth of a second meanwhile
    /// with the placements settled.
    #[staticmethod]
    #[pyo3(signature = (progress = None))]
    pub(crate) fn default(
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyFifteen> {
        let counted = Arc::new(Counted::default());
        let counting = counted.clone();
        let told = progress.map(|p| (p, &*counted));
        let fifteen = crate::interrupt::abandonable_told(py, told, move || {
            Fifteen::default_watched(Board::FIFTEEN, &cache::Noted(Some(&counting)))
                .map_err(fifteen_error)
        })??;
        Ok(PyFifteen { fifteen })
    }

    /// Databases built in memory for `partition` (`"5-5-5"`: about a second and 1 MB;
    /// `"6-6-3"`; `"7-8"`: minutes and 1.5 GB) towards `goal` (default: the blank first,
    /// Korf's goal, which serves every goal with the blank in a corner). `progress(done,
    /// total)`, if given, is called every twentieth of a second with the placements settled.
    #[staticmethod]
    #[pyo3(signature = (partition = "5-5-5", goal = None, progress = None))]
    fn generate(
        py: Python<'_>,
        partition: &str,
        goal: Option<&Bound<'_, PyAny>>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyFifteen> {
        let board = Board::FIFTEEN;
        let goal = puzzles::goal(board, goal)?.unwrap_or_else(|| board.goal_with_blank(0));
        // The error names the partition itself.
        let partition = Partition::parse(partition, &goal).map_err(value_error)?;
        let counted = Arc::new(Counted::default());
        counted.start(slidetable::generate::engine::partition_placements(
            board, &partition,
        ));
        let counting = counted.clone();
        let told = progress.map(|p| (p, &*counted));
        let fifteen = crate::interrupt::abandonable_told(py, told, move || {
            Fifteen::generate_watched(&goal, &partition, &|n| counting.add(n))
                .map_err(fifteen_error)
        })??;
        Ok(PyFifteen { fifteen })
    }

    /// The board, as `"RxC"`.
    #[getter(board)]
    fn board_name(&self) -> String {
        self.board().to_string()
    }

    /// The goal the databases were made for, as a list of tiles.
    #[getter]
    fn database_goal(&self) -> Vec<u32> {
        puzzles::tiles(self.fifteen.table().goal())
    }

    /// The tiles of each group, in file order.
    #[getter]
    fn groups(&self) -> Vec<Vec<u32>> {
        self.fifteen
            .table()
            .groups()
            .iter()
            .map(|g| {
                slidetable::core::mask_tiles(g.tiles)
                    .map(u32::from)
                    .collect()
            })
            .collect()
    }

    /// The file the databases were read from, or `None` for databases built in memory.
    #[getter]
    fn file(&self) -> Option<String> {
        self.fifteen.table().file().map(|p| p.display().to_string())
    }

    /// `count` puzzles (one when not given) drawn uniformly at random from every layout that
    /// can reach the goal
    /// (default: the standard goal), as a `uint8` array of one puzzle per row. The same
    /// `seed` gives the same puzzles as `slidetable random --board 4x4 --seed` on every
    /// machine; `distinct=True` draws no layout twice.
    #[pyo3(signature = (count = None, seed = None, distinct = false, goal = None))]
    fn random<'py>(
        &self,
        py: Python<'py>,
        count: Option<&Bound<'py, PyAny>>,
        seed: Option<u64>,
        distinct: bool,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let board = self.board();
        let goal = puzzles::goal(board, goal)?.unwrap_or_else(|| board.standard_goal());
        let seed = seed.unwrap_or_else(SplitMix64::fresh_seed);
        let count: u64 = count.map_or(Ok(1), |c| whole(c, "count", u64::MAX))?;
        // Each draw: its layout, its row, and (distinct) its place in a growing set.
        let each = 24 + 16 + if distinct { 48 } else { 0 };
        crate::memory::check(u128::from(count) * each, || {
            format!("{count} puzzles drawn on the {board} board")
        })?;
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        let mut drawn: Vec<Layout> = crate::memory::reserved(count, "puzzles")?;
        let mut draws = SplitMix64::new(seed).layouts_reaching(goal, distinct);
        // A chunk at a time, so that Ctrl-C is seen.
        while drawn.len() < count {
            let next = (count - drawn.len()).min(1 << 16);
            py.detach(|| drawn.extend(draws.by_ref().take(next)));
            py.check_signals()?;
        }
        puzzles::to_array(py, board, &drawn)
    }

    /// An optimal path from `puzzle` to the goal as a string of moves (`u d l r`: the way the
    /// blank moves), the smallest in the letter order `order` (default `"udlr"`), or `None`
    /// when the puzzle is of the other parity class (with a `UserWarning` naming the goal it
    /// does reach: Korf's instances reach `goal="korf"`, the blank first, not the default
    /// goal with the blank last). Ctrl-C stops it (`KeyboardInterrupt`).
    #[pyo3(signature = (puzzle, goal = None, order = None))]
    fn solve(
        &self,
        py: Python<'_>,
        puzzle: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        order: Option<&str>,
    ) -> PyResult<Option<String>> {
        let solver = self.solver(goal)?;
        let order = order.map(parse_order).transpose()?.unwrap_or(Move::ALL);
        let layout = puzzles::one(self.board(), puzzle)?;
        let path = solve_one(py, &solver, &layout, order)?;
        if path.is_none() {
            puzzles::warn_other_goal(py, &layout, solver.goal())?;
        }
        Ok(path.map(|p| path_string(&p)))
    }

    /// Solves `puzzle` as `solve` does and returns what `slidetable search --json --stats
    /// --board 4x4` prints for it, as `slidetable.search` does: `puzzle`, `distance`, `path`,
    /// `solvable`, `stats` (`expanded`, `generated`, `peak_open`, `iterations`, `bound`,
    /// `milliseconds`, `branching_factor`), `method` (`"idastar"`), `heuristic` (`"pdb"`),
    /// `partition` (`"7-8"`) and `database` (the file, `None` when built in memory). A search
    /// stopped by `max_expanded` or `max_seconds` keeps its `stats` (`bound`: no solution is
    /// shorter) and has an `error`; its `distance` and `path` are `None`.
    #[pyo3(signature = (puzzle, goal = None, order = None, max_expanded = None, max_seconds = None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        order: Option<&str>,
        max_expanded: Option<&Bound<'py, PyAny>>,
        max_seconds: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let solver = self.solver(goal)?;
        let order = order.map(parse_order).transpose()?.unwrap_or(Move::ALL);
        let layout = puzzles::one(self.board(), puzzle)?;
        let limits = records::limits(max_expanded, max_seconds, None)?;
        let result = crate::interrupt::stoppable(py, |stop| {
            let limits = Limits {
                stop: Some(stop.clone()),
                ..limits
            };
            solver.solve(&layout, order, &limits)
        })?;
        let d = records::record(py, &layout, result)?;
        d.set_item("method", "idastar")?;
        self.describe(&d)?;
        Ok(d)
    }

    /// The fewest moves from `puzzle` to the goal, `-1` when it cannot be reached (`puzzle` may
    /// be a 4x4 grid). Given many (a 2-D integer array, one puzzle per row; a 3-D array or a
    /// list of 4x4 grids), an `int32` array, solved on every core.
    #[pyo3(signature = (puzzle, goal = None))]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let solver = self.solver(goal)?;
        let length = |p: &Option<Vec<Move>>| p.as_ref().map_or(-1, |p| p.len() as i32);
        match Given::of(self.board(), puzzle)? {
            Given::One(layout) => {
                let path = solve_one(py, &solver, &layout, Move::ALL)?;
                if path.is_none() {
                    puzzles::warn_other_goal(py, &layout, solver.goal())?;
                }
                Ok(i64::from(length(&path)).into_pyobject(py)?.into_any())
            }
            Given::Many(batch) => {
                let layouts = batch.layouts(py, self.board())?;
                let paths = self.solve_all(py, &solver, &layouts, Move::ALL)?;
                let lengths: Vec<i32> = paths.iter().map(length).collect();
                Ok(numpy::PyArray1::from_vec(py, lengths).into_any())
            }
        }
    }

    /// Optimal paths for every puzzle of `puzzles` (a 2-D integer array, one puzzle per row,
    /// a 3-D array of grids, or a list of puzzles or grids), solved on every core without the
    /// GIL: a 1-D object array of move strings, `None` where the goal cannot be reached. As
    /// `solve`, in input order.
    #[pyo3(signature = (puzzles, goal = None, order = None))]
    fn solve_many<'py>(
        &self,
        py: Python<'py>,
        puzzles: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        order: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let solver = self.solver(goal)?;
        let order = order.map(parse_order).transpose()?.unwrap_or(Move::ALL);
        let layouts = Given::of(self.board(), puzzles)?.layouts(py, self.board())?;
        let paths = self.solve_all(py, &solver, &layouts, order)?;
        crate::puzzles::object_array(
            py,
            paths
                .into_iter()
                .map(|p| p.map(|p| path_string(&p)))
                .collect(),
        )
    }

    /// The databases' estimate of the moves from `puzzle` to the goal (never more than the
    /// truth): an `int` for one puzzle (or grid), an `int32` array for many. `slidetable.pattern`
    /// is the same.
    #[pyo3(signature = (puzzle, goal = None))]
    fn estimate<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let solver = self.solver(goal)?;
        crate::heuristics::estimates(py, &solver, Given::of(self.board(), puzzle)?)
    }

    /// Pickled (`multiprocessing`, joblib, `copy.deepcopy`) as its file's path and header,
    /// opened again and checked where it is unpickled; databases built in memory as their
    /// bytes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        pickling::reduce(slf.as_any(), &slf.get().fifteen)
    }

    /// The databases a pickle kept ([`PyFifteen::__reduce__`]).
    #[staticmethod]
    fn _unpickle(file: Option<PathBuf>, bytes: &[u8]) -> PyResult<PyFifteen> {
        let fifteen = pickling::restored(
            file,
            bytes,
            "pattern database",
            |path| Ok(PyFifteen::open(path.to_path_buf())?.fifteen),
            |bytes| {
                let table = PatternTable::new(TableBytes::from(bytes)).map_err(table_error)?;
                table.verify().map_err(table_error)?;
                Fifteen::new(table).map_err(fifteen_error)
            },
        )?;
        Ok(PyFifteen { fifteen })
    }

    fn __repr__(&self) -> String {
        let partition = self.fifteen.partition();
        let place = match self.fifteen.table().file() {
            Some(p) => format!("path={:?}", p.display().to_string()),
            None => "in memory".to_string(),
        };
        format!(
            "Fifteen(partition='{}', database_goal='{}', {place})",
            partition,
            self.fifteen.table().goal()
        )
    }
}

/// The additive pattern databases of `databases` (a `Fifteen`) as a heuristic: the larger
/// of the groups' sum on the board and on its mirror image. Same as
/// `databases.estimate(puzzles, goal)`.
#[pyfunction]
#[pyo3(signature = (puzzles, databases, goal = None))]
pub(crate) fn pattern<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    databases: &PyFifteen,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let solver = databases.solver(goal)?;
    let board = solver.databases().board();
    crate::heuristics::estimates(py, &solver, Given::of(board, puzzles)?)
}
