//! `slidetable.Table`: a table of every state's distance (opened from a file, the cache's
//! default, or generated in memory) answering one puzzle or a numpy array of them.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use rayon::prelude::*;
use slidetable::core::{parse_layout, path_string, Board, Layout, Move, MAX_TABLE_CELLS};
use slidetable::generate::{default_goals, Plan};
use slidetable::query::{
    AnyTable, CostModel, Goal, LayerError, LevelPicks, Lockstep, MappedTable, QueryError,
    SplitMix64, TableBytes,
};

use crate::cache;
use crate::errors::{query_error, table_error, value_error, whole};
use crate::levels;
use crate::pickling;
use crate::puzzles::{self, Given};

/// A table of every state's distance from its goals and the first move of an optimal path:
/// the answer to any puzzle of its board in one lookup.
///
/// Open one with `Table.open(path)` (a file written by `slidetable generate`), take the
/// cache's with `Table.default(board)` (made on first use, as the `slidetable` command does),
/// or make one in memory with `Table.generate(board, goal)`.
///
/// A puzzle is a string as the command line reads it (`"2 3 4 1 5 x 7 6 8"`, `"23415x768"`;
/// bytes, a bytearray or a memoryview of them alike), a sequence of integers (0 the blank), a
/// 1-D array, or a grid of the board's shape in reading order (`[[4, 1, 2], [5, 0, 3]]` on
/// 2x3, a 2-D array of shape (rows, cols)), answered as the same puzzle flat; `distance` and
/// `path` also take many (a 2-D integer array, one puzzle per row; a 3-D array of grids, a
/// list of grids; any array-like of puzzles) and answer them on every core without the GIL.
/// A grid of another shape than the board's is refused (`ValueError`), never reshaped.
#[pyclass(module = "slidetable", name = "Table", frozen)]
pub(crate) struct PyTable {
    table: MappedTable,
    /// The goal questions are about unless one is given: the standard goal, or the goal a
    /// table was generated for.
    goal: Layout,
    /// Every state's distance for each goal of a 2-bit table, recovered once for whole-table
    /// questions (`dataset`, `random`, `hardest`) and kept with the table.
    recovered: slidetable::levels::Recovered,
}

impl PyTable {
    fn new(table: MappedTable, goal: Option<Layout>) -> PyTable {
        let goal = goal.unwrap_or_else(|| table.board().standard_goal());
        PyTable {
            table,
            goal,
            recovered: slidetable::levels::Recovered::default(),
        }
    }

    fn board(&self) -> Board {
        self.table.board()
    }

    /// The goal argument (`None`: the table's goal) as the table answers for it.
    fn goal_of(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<Goal<'_>> {
        let layout = puzzles::goal(self.board(), goal)?.unwrap_or(self.goal);
        self.table.goal(&layout).map_err(query_error)
    }

    /// The distances of every state from `goal` when its entries hold only residues (2-bit
    /// tables): recovered by the first call and kept with the table for every later one
    /// (repeated draws read them at once), `progress(done, total)` told of the states
    /// settled meanwhile; `None` for tables that hold distances.
    fn known_distances(
        &self,
        py: Python<'_>,
        goal: &Goal<'_>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Arc<Vec<u8>>>> {
        if let Some(kept) = self.recovered.kept(goal) {
            return kept.map(Some).map_err(query_error);
        }
        let found = levels::watch(py, goal.state_count(), progress, None, |done| {
            self.recovered.get(goal, done)
        })?
        .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("reading distances panicked"))?;
        found.transpose().map_err(query_error)
    }
}

#[pymethods]
impl PyTable {
    /// Opens the table file at `path` (written by `slidetable generate`). Raises
    /// `FileNotFoundError` when it is missing and `ValueError` when it is no valid table
    /// (pattern databases are opened with `Fifteen.open`).
    #[staticmethod]
    fn open(path: PathBuf) -> PyResult<PyTable> {
        // Opened once as what it holds, as the command line opens it: pattern databases are
        // refused in its words.
        let table = AnyTable::open(&path)
            .and_then(AnyTable::into_table)
            .map_err(table_error)?;
        Ok(PyTable::new(table, None))
    }

    /// The default table of `board` (`"3x3"`, `"2x4"`, …, up to 14 cells): the one the
    /// `slidetable` command uses, `$SLIDETABLE_TABLE` for 3x3 or `slidetable/RxC.slt` in the
    /// cache directory (`$XDG_CACHE_HOME`, else `~/.cache`), generated on first use under the
    /// command's lock (a moment up to 10 cells; 12 cells take seconds: 6.7 s of CPU and
    /// 124 MB at peak for 3x4, measured). A 14-cell table is never made on first use: it is
    /// refused until `slidetable generate` has written it. `progress(done, total)`, if given,
    /// is called every twentieth of a second meanwhile with the states settled.
    #[staticmethod]
    #[pyo3(signature = (board = "3x3", progress = None))]
    fn default(
        py: Python<'_>,
        board: &str,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTable> {
        let board = table_board(board)?;
        let counted = Arc::new(crate::interrupt::Counted::default());
        let counting = counted.clone();
        let told = progress.map(|p| (p, &*counted));
        let table =
            crate::interrupt::abandonable_told(py, told, move || cache::table(board, &counting))??;
        Ok(PyTable::new(table, None))
    }

    /// A table made in memory for `board`: for `goal` alone when one is given (the goal
    /// questions are about from then on), else the board's default sections (one per blank
    /// cell up to 10 cells, the standard goal for 11 and 12). `cost="tile"` makes moving tile
    /// k cost k (boards up to 10 cells).
    #[staticmethod]
    #[pyo3(signature = (board = "3x3", goal = None, cost = "unit"))]
    fn generate(
        py: Python<'_>,
        board: &str,
        goal: Option<&Bound<'_, PyAny>>,
        cost: &str,
    ) -> PyResult<PyTable> {
        let board = table_board(board)?;
        let cost = CostModel::from_name(cost)
            .ok_or_else(|| value_error(format!("unknown cost model '{cost}' (unit or tile)")))?;
        let chosen = puzzles::goal(board, goal)?;
        let goals = match chosen {
            Some(g) => vec![g],
            None => default_goals(board),
        };
        let plan = Plan {
            board,
            goals,
            encoding: None,
            cost,
        };
        let table = crate::interrupt::abandonable(py, move || {
            slidetable::generate_plan::<TableBytes>(&plan).map_err(cache::default_error)
        })??;
        Ok(PyTable::new(table, chosen))
    }

    /// The board, as `"RxC"`.
    #[getter(board)]
    fn board_name(&self) -> String {
        self.board().to_string()
    }

    /// The goal questions are about unless one is given, as a list of tiles.
    #[getter(goal)]
    fn goal_tiles(&self) -> Vec<u32> {
        puzzles::tiles(&self.goal)
    }

    /// The goal of each section, in file order.
    #[getter]
    fn goals(&self) -> Vec<Vec<u32>> {
        self.table
            .sections()
            .iter()
            .map(|s| puzzles::tiles(s.goal()))
            .collect()
    }

    /// The file the table was read from, or `None` for a table made in memory.
    #[getter]
    fn file(&self) -> Option<String> {
        self.table.file().map(|p| p.display().to_string())
    }

    /// How entries are stored: `"byte"`, `"2bit"` or `"wide16"`.
    #[getter]
    fn encoding(&self) -> String {
        self.table.header().encoding().to_string()
    }

    /// What a move costs: `"unit"`, or `"tile"` (moving tile k costs k).
    #[getter]
    fn cost(&self) -> String {
        self.table.header().cost().to_string()
    }

    /// The fewest moves from `puzzle` to the goal (the cheapest cost on a `cost="tile"`
    /// table), `-1` when it cannot be reached (an `int`, for one grid too). Given many puzzles
    /// (a 2-D integer array, one puzzle per row, a 3-D array of grids, or any array-like of
    /// puzzles), an `int32` array of the distances, found
    /// on every core without the GIL, as the command line finds them: on a table of byte
    /// entries each row is read straight into the form the lookup takes (1,000,000 3x3 rows
    /// in about the time `slidetable distance` takes for the same lines, one thread each).
    #[pyo3(signature = (puzzle, goal = None))]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let goal = self.goal_of(goal)?;
        let given = Given::of(self.board(), puzzle)?;
        if let (Given::Many(batch), Some(lockstep)) = (&given, goal.lockstep()) {
            let mut answers = crate::memory::reserved::<i32>(batch.len(), "answers")?;
            batch.each_start_chunk(py, self.board(), &mut |starts| {
                let blocks = starts
                    .par_chunks(PARALLEL_BLOCK)
                    .map(|block| {
                        let mut values = Vec::with_capacity(block.len());
                        lockstep.distances(block, &mut values).map_err(|(_, e)| e)?;
                        Ok(values)
                    })
                    .collect::<Result<Vec<_>, QueryError>>()
                    .map_err(query_error)?;
                let found = blocks.iter().flatten();
                answers.extend(found.map(|d| d.map_or(-1, |d| d as i32)));
                Ok(())
            })?;
            return Ok(PyArray1::from_vec(py, answers).into_any());
        }
        given.ints(
            py,
            self.board(),
            |layout| {
                let d = goal.distance(layout).map_err(query_error)?;
                Ok(d.map_or(-1, i64::from))
            },
            |layouts| {
                layouts
                    .par_iter()
                    .map(|l| goal.distance(l).map(|d| d.map_or(-1, |d| d as i32)))
                    .collect::<Result<Vec<i32>, _>>()
                    .map_err(query_error)
            },
        )
    }

    /// An optimal path from `puzzle` to the goal as a string of moves (`u d l r`: the way the
    /// blank moves; `""` for a solved puzzle), or `None` when there is none. `order` (a
    /// permutation of `"dlru"`) asks for the smallest optimal path in that letter order;
    /// without it, the path the table stores (the fastest). Given many puzzles, a 1-D object
    /// array of such answers: without `order`, on a table of byte entries, the paths are
    /// walked as `slidetable path` walks them (a block of puzzles a step each in turn, into
    /// one buffer of letters) and each string is made from that buffer at the end, so
    /// 100,000 3x3 paths take about as long as the command line's (one thread each).
    #[pyo3(signature = (puzzle, goal = None, order = None))]
    fn path<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        order: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let goal = self.goal_of(goal)?;
        let order = order.map(parse_order).transpose()?;
        let solve = |layout: &Layout| -> Result<Option<String>, slidetable::query::QueryError> {
            let mut path = Vec::new();
            let found = match &order {
                Some(order) => goal.ordered_path_into(layout, order, &mut path)?,
                None => goal.path_into(layout, &mut path)?,
            };
            Ok(found.then(|| path_string(&path)))
        };
        let given = Given::of(self.board(), puzzle)?;
        if let (Given::Many(batch), Some(lockstep), None) = (&given, goal.lockstep(), &order) {
            return lockstep_paths(py, self.board(), batch, &lockstep);
        }
        match given {
            Given::One(layout) => Ok(solve(&layout)
                .map_err(query_error)?
                .into_pyobject(py)?
                .into_any()),
            Given::Many(batch) => {
                let mut paths = crate::memory::reserved(batch.len(), "paths")?;
                batch.each_chunk(py, self.board(), &mut |chunk| {
                    let found = chunk.par_iter().map(solve).collect::<Result<Vec<_>, _>>();
                    paths.extend(found.map_err(query_error)?);
                    Ok(())
                })?;
                crate::puzzles::object_array(py, paths)
            }
        }
    }

    /// `count` puzzles (one when not given) drawn uniformly at random from the states exactly
    /// `depth` moves from the goal, or from `low` to `high` moves for `depth=(low, high)`, as a `uint8` array of
    /// one puzzle per row. The same `seed` gives the same puzzles as `slidetable random
    /// --seed` on every machine; `distinct=True` draws no state twice.
    ///
    /// On a 2-bit table of 11 or 12 cells every distance is read first, once, and kept with
    /// the table for every later call (240 MB and seconds on 12 cells; later draws take a
    /// fraction of a second). On a 14-cell table (2x7, 7x2) the states are gone
    /// through level by level up to the deepest distance asked for, as `slidetable random
    /// --depth` does (the mapped table plus 5.45 GB on 2x7, minutes for deep levels;
    /// `MemoryError` before it starts on a machine with less memory). Either way
    /// `progress(done, total)`, if given, is called every tenth of a second with the states
    /// gone through, and Ctrl-C raises `KeyboardInterrupt` (at once on 14 cells; once the
    /// distances are read on 12).
    #[pyo3(signature = (depth, count = None, seed = None, distinct = false, goal = None, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn random<'py>(
        &self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
        count: Option<&Bound<'py, PyAny>>,
        seed: Option<u64>,
        distinct: bool,
        goal: Option<&Bound<'py, PyAny>>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let depths = parse_depth(depth)?;
        let count: u64 = count.map_or(Ok(1), |c| whole(c, "count", u64::MAX))?;
        let goal = self.goal_of(goal)?;
        // Each draw: its number, the set that keeps draws distinct, its layout, its row.
        let each = 8 + if distinct { 24 } else { 0 } + 24 + self.board().cells() as u128;
        crate::memory::check(u128::from(count) * each, || {
            format!("{count} puzzles drawn from the {} table", self.board())
        })?;
        if goal.wants_level_pass() {
            let size = goal
                .layer_len(depths.clone())
                .map_err(|e| value_error(format!("depth: {e}")))?;
            let draws = draws(
                &depths,
                self.table.header().cost(),
                size,
                count,
                seed,
                distinct,
            )?;
            let mut picks = LevelPicks::new(goal.histogram(), depths, &draws);
            let deepest = picks.deepest();
            levels::pass(py, &goal, deepest, "random", progress, &mut |level| {
                picks.take(level)
            })?;
            let puzzles: Vec<Layout> = picks.into_layouts().into_iter().flatten().collect();
            return puzzles::to_array(py, self.board(), &puzzles);
        }
        let known = if *depths.start() <= goal.max_distance() {
            self.known_distances(py, &goal, progress)?
        } else {
            None
        };
        let goal = match &known {
            Some(distances) => goal.knowing(distances),
            None => goal,
        };
        let layer = goal.layer(depths.clone()).map_err(|e| match e {
            LayerError::Damaged(e) => query_error(e),
            LayerError::Corrupt { .. } => {
                pyo3::exceptions::PyRuntimeError::new_err(match self.table.file() {
                    Some(file) => format!("table {}: {e}", file.display()),
                    None => e.to_string(),
                })
            }
            e => value_error(format!("depth: {e}")),
        })?;
        let picks = draws(
            &depths,
            self.table.header().cost(),
            layer.len(),
            count,
            seed,
            distinct,
        )?;
        let puzzles = py.detach(|| {
            picks
                .iter()
                .filter_map(|&k| layer.get(k))
                .map(|(layout, _)| layout)
                .collect::<Vec<Layout>>()
        });
        puzzles::to_array(py, self.board(), &puzzles)
    }

    /// How many states are at each distance from the goal (`histogram()[d]`: the states `d`
    /// moves away), from the table's header, as a `uint64` array.
    #[pyo3(signature = (goal = None))]
    fn histogram<'py>(
        &self,
        py: Python<'py>,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let goal = self.goal_of(goal)?;
        Ok(PyArray1::from_slice(py, goal.histogram()))
    }

    /// Every state at the greatest distance from the goal, as a `uint8` array of one puzzle
    /// per row (in the table's order, as `slidetable hardest` prints them).
    ///
    /// On a 2-bit table every distance is read first, once (kept with the table), and on a
    /// 14-cell table (2x7, 7x2) every level is gone through, as `slidetable hardest` does
    /// (minutes on 2x7): `progress` and Ctrl-C as for `random`.
    #[pyo3(signature = (goal = None, progress = None))]
    fn hardest<'py>(
        &self,
        py: Python<'py>,
        goal: Option<&Bound<'py, PyAny>>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let goal = self.goal_of(goal)?;
        let max = goal.max_distance();
        let (farthest, known) = goal.farthest(
            |upto, at| levels::pass(py, &goal, upto, "hardest", progress, at),
            || self.known_distances(py, &goal, progress),
        )?;
        let goal = match &known {
            Some(distances) => goal.knowing(distances),
            None => goal,
        };
        let layouts: Vec<Layout> = py
            .detach(|| farthest.layouts(&goal).map(Iterator::collect))
            .map_err(query_error)?;
        let counted = goal.histogram().get(max as usize).copied().unwrap_or(0);
        if layouts.len() as u64 != counted {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "the table's header counts {counted} states {max} away, the entries hold {} \
                 (corrupt table? check it with `slidetable info --verify`)",
                layouts.len()
            )));
        }
        puzzles::to_array(py, self.board(), &layouts)
    }

    /// The states of ranks `start` to `stop` (every state by default: `state_count`) of the
    /// goal's class, with their distances and the first move of an optimal path: a tuple of
    /// a `uint8` array of puzzles (one per row), an `int16` array of distances and an `int8`
    /// array of move codes (0 1 2 3 for `u d l r`, as `slidetable.MOVES` spells them; -1 for
    /// the goal). `slidetable.dataset` wraps it.
    ///
    /// On a 2-bit table (11 and 12 cells) the first call recovers every distance once and
    /// keeps it with the table (240 MB on 12 cells, seconds): `progress(done, total)`, if
    /// given, is called every tenth of a second with the states settled meanwhile.
    #[pyo3(signature = (goal = None, start = 0, stop = None, progress = None))]
    #[allow(clippy::type_complexity)]
    fn dataset<'py>(
        &self,
        py: Python<'py>,
        goal: Option<&Bound<'py, PyAny>>,
        start: u64,
        stop: Option<u64>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray1<i16>>,
        Bound<'py, PyArray1<i8>>,
    )> {
        let goal = self.goal_of(goal)?;
        let states = goal.state_count();
        let stop = stop.unwrap_or(states).min(states);
        let start = start.min(stop);
        let cells = self.board().cells();
        // Checked before anything is allocated: a whole 2x7 dataset would be 654 GB.
        let need = (stop - start).saturating_mul(cells as u64 + 3);
        if let Some((available, origin)) = crate::memory::available()? {
            if need > available {
                return Err(pyo3::exceptions::PyMemoryError::new_err(format!(
                    "a dataset of {} rows of the {} table takes {} of memory, but {} is \
                     available ({origin}): ask for fewer rows (start, stop), or read them with \
                     slidetable.dataset_chunks",
                    stop - start,
                    self.board(),
                    slidetable::generate::room::human(need),
                    slidetable::generate::room::human(available)
                )));
            }
        }
        // On a 14-cell table no distance is recovered (43.6 GB a byte a state on 2x7): each
        // row's distance is walked in the mapped table.
        let known = if goal.wants_level_pass() {
            None
        } else {
            self.known_distances(py, &goal, progress)?
        };
        let goal = match &known {
            Some(distances) => goal.knowing(distances),
            None => goal,
        };
        let rows = py
            .detach(|| crate::dataset::rows(&goal, start..stop, cells))
            .map_err(query_error)?;
        Ok((
            puzzles::flat_to_array(py, rows.tiles, cells)?,
            PyArray1::from_vec(py, rows.distances),
            PyArray1::from_vec(py, rows.moves),
        ))
    }

    /// How many states can reach the goal: the rows of a whole `dataset`.
    #[getter]
    fn state_count(&self) -> PyResult<u64> {
        Ok(self.goal_of(None)?.state_count())
    }

    /// Pickled (`multiprocessing`, joblib, `copy.deepcopy`) as its file's path and header,
    /// opened again and checked where it is unpickled; a table made in memory as its bytes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let (file, bytes) = pickling::kept(slf.py(), &me.table)?;
        pickling::reduced(slf.as_any(), (file, bytes, me.goal.to_string()))
    }

    /// The table a pickle kept ([`PyTable::__reduce__`]).
    #[staticmethod]
    fn _unpickle(file: Option<PathBuf>, bytes: &[u8], goal: &str) -> PyResult<PyTable> {
        let table = pickling::restored(
            file,
            bytes,
            "table",
            |path| Ok(PyTable::open(path.to_path_buf())?.table),
            |bytes| {
                let table = MappedTable::new(TableBytes::from(bytes)).map_err(table_error)?;
                table.verify().map_err(table_error)?;
                Ok(table)
            },
        )?;
        let goal = parse_layout(table.board(), goal.as_bytes()).map_err(value_error)?;
        Ok(PyTable::new(table, Some(goal)))
    }

    fn __repr__(&self) -> String {
        let place = match self.table.file() {
            Some(p) => format!("path={:?}", p.display().to_string()),
            None => "in memory".to_string(),
        };
        format!(
            "Table(board='{}', goal='{}', sections={}, encoding='{}', cost='{}', {place})",
            self.board(),
            self.goal,
            self.table.sections().len(),
            self.table.header().encoding(),
            self.table.header().cost(),
        )
    }
}

/// Puzzles a task of a batch answers on one core: small enough to share a chunk among the
/// cores, large enough that handing it out costs nothing beside it.
const PARALLEL_BLOCK: usize = 4096;

/// Puzzles whose walks [`Lockstep::paths`] takes in turn, a step each (the command line's
/// block: the lanes stay in the first-level cache).
const WALK_BLOCK: usize = 256;

/// The stored optimal paths of a batch, found as the command line finds them (a block of walks
/// a step each in turn, on every core, into one buffer of letters) and given as a 1-D object
/// array of strings (`None` where the goal cannot be reached), each made from the buffer once
/// every walk is done.
fn lockstep_paths<'py>(
    py: Python<'py>,
    board: Board,
    batch: &puzzles::Batch<'_>,
    lockstep: &Lockstep<'_>,
) -> PyResult<Bound<'py, PyAny>> {
    // Each block's letters (a path and a line end; nothing where the goal cannot be reached)
    // and where each answer ends in them.
    let mut blocks: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    batch.each_start_chunk(py, board, &mut |starts| {
        let found = starts
            .par_chunks(PARALLEL_BLOCK)
            .map(|block| {
                let (mut text, mut ends) = (Vec::new(), Vec::with_capacity(block.len()));
                for walks in block.chunks(WALK_BLOCK) {
                    lockstep
                        .paths(walks, b"", &mut text, &mut ends)
                        .map_err(|(_, e)| e)?;
                }
                Ok((text, ends))
            })
            .collect::<Result<Vec<_>, QueryError>>()
            .map_err(query_error)?;
        blocks.extend(found);
        Ok(())
    })?;
    let mut paths = crate::memory::reserved::<Py<PyAny>>(batch.len(), "paths")?;
    for (text, ends) in &blocks {
        let mut start = 0;
        for &end in ends {
            paths.push(match &text[start..end] {
                [] => py.None(),
                [letters @ .., _] => {
                    let letters = std::str::from_utf8(letters).map_err(value_error)?;
                    PyString::new(py, letters).into_any().unbind()
                }
            });
            start = end;
        }
    }
    Ok(PyArray1::from_vec(py, paths).into_any())
}

/// A table board: at least 2×2, at most 14 cells (the 15-puzzle has `Fifteen`).
fn table_board(text: &str) -> PyResult<Board> {
    let board: Board = text.parse().map_err(value_error)?;
    if !board.supports_tables() {
        return Err(value_error(format!(
            "{board} has {} cells: tables of every state go up to {MAX_TABLE_CELLS} cells; \
             the 15-puzzle (4x4) is answered by slidetable.Fifteen",
            board.cells()
        )));
    }
    Ok(board)
}

/// The `count` draws among the `size` states `depths` moves away that `random` takes (`k`:
/// the `k`-th state), from `seed` (else a fresh one), all different with `distinct`: the
/// library's draws ([`slidetable::draws`]), the command line's for the same seed.
fn draws(
    depths: &RangeInclusive<u32>,
    cost: CostModel,
    size: u64,
    count: u64,
    seed: Option<u64>,
    distinct: bool,
) -> PyResult<Vec<u64>> {
    let seed = seed.unwrap_or_else(SplitMix64::fresh_seed);
    // Reserved first: a count larger than memory is a MemoryError before anything is drawn.
    let mut picks = crate::memory::reserved(usize::try_from(count).unwrap_or(usize::MAX), "draws")?;
    let drawn = slidetable::draws::draws(depths, cost, size, count, seed, distinct)
        .map_err(|e| value_error(format!("count {count} with distinct: {e}")))?;
    picks.extend(drawn);
    Ok(picks)
}

/// A depth: a number of moves, or a `(low, high)` pair (both included).
fn parse_depth(depth: &Bound<'_, PyAny>) -> PyResult<RangeInclusive<u32>> {
    let moves = |d: &Bound<'_, PyAny>| -> PyResult<u32> {
        let kind = || {
            PyTypeError::new_err("depth is a number of moves (20) or a range as a pair (20, 22)")
        };
        if !d.hasattr("__index__")? {
            return Err(kind());
        }
        Ok(whole(d, "depth", u64::from(u32::MAX))? as u32)
    };
    let (low, high) = match depth.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() {
        Ok((low, high)) => (moves(&low)?, moves(&high)?),
        Err(_) => {
            let d = moves(depth)?;
            (d, d)
        }
    };
    if low > high {
        return Err(value_error(format!(
            "depth: {low}..{high} is an empty range: the first distance must not exceed the last"
        )));
    }
    Ok(low..=high)
}

/// A letter order of the four moves, as `slidetable path --order` reads it.
pub(crate) fn parse_order(s: &str) -> PyResult<[Move; 4]> {
    Move::parse_order(s).map_err(value_error)
}
