//! `slidetable.TwentyFour`: the 24-puzzle (5×5) answered optimally by IDA* on additive
//! pattern databases and their reflection (a `SLIDEP25` file written by `slidetable generate
//! --board 5x5` or by `TwentyFour.generate`, or a partition built in memory), as the library
//! opens and runs them ([`slidetable::TwentyFour`]); this module only converts.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyFileNotFoundError, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use slidetable::core::{mask_tiles_25, path_string, Layout25, Move};
use slidetable::generate::Pattern25Error;
use slidetable::puzzles::Board25;
use slidetable::search::{Limit, Limits, Progress25, Search25Error, Solved25, Stats};
use slidetable::{Build25, TwentyFour, TwentyFourError};

use crate::errors::{gen_error, table_error, value_error};
use crate::interrupt::{Counted, Ended};
use crate::pickling;
use crate::puzzles::{self, Given};
use crate::records;

/// The 24-puzzle's optimal solver: IDA* guided by additive pattern databases (Korf and
/// Felner's 6-6-6-6 by default) and by the same databases on the board reflected about its
/// main diagonal (the larger of the two sums).
///
/// Open a file with `TwentyFour.open(path)` (written by `slidetable generate --board 5x5` or
/// `TwentyFour.generate(path)`), the command's default file with `TwentyFour.default()`, or
/// build a partition in memory with `TwentyFour.generate(pdb="5-5-5-5-4")` (seconds; slower
/// solves). The goal is the blank top-left, tiles 1..24 in reading order (Korf and Felner's).
/// A puzzle may be given as a 5x5 grid (a list of rows, a 2-D array), read in reading order.
#[pyclass(module = "slidetable", name = "TwentyFour", frozen)]
pub(crate) struct PyTwentyFour {
    solver: TwentyFour,
}

/// The library's refusals as Python exceptions, with the command line's messages.
fn twentyfour_error(e: TwentyFourError) -> PyErr {
    match e {
        TwentyFourError::Open(e) => table_error(e),
        TwentyFourError::NoDefault { .. } => PyFileNotFoundError::new_err(e.to_string()),
        TwentyFourError::Generate(Pattern25Error::Gen(e)) => gen_error(e),
        e => value_error(e),
    }
}

/// What a search of the databases reports as it goes, kept for the calling thread to tell
/// Python: the latest report and whether it was told already.
#[derive(Default)]
struct Reports {
    latest: Mutex<(Option<Progress25>, bool)>,
}

impl Reports {
    fn hear(&self, p: Progress25) {
        if let Ok(mut latest) = self.latest.lock() {
            *latest = (Some(p), true);
        }
    }

    /// The report not told yet, if any.
    fn take(&self) -> Option<Progress25> {
        let mut latest = self.latest.lock().ok()?;
        let fresh = latest.1.then_some(latest.0).flatten();
        latest.1 = false;
        fresh
    }
}

/// A search stopped by Ctrl-C says so as on every board and from the command line: the
/// row it was on, the work done and the bound it proved.
fn stopped_message(stats: &Stats, row: Option<usize>) -> String {
    let at = row.map(|r| format!("row {r}: ")).unwrap_or_default();
    format!(
        "{at}{}",
        slidetable::search::stopped_message(Limit::Stopped, stats)
    )
}

/// `KeyboardInterrupt` saying the bound a search stopped by Ctrl-C proved (also as its
/// `bound` attribute, with `expanded`).
fn interrupted(py: Python<'_>, stats: &Stats, row: Option<usize>) -> PyErr {
    let e = PyKeyboardInterrupt::new_err(stopped_message(stats, row));
    let value = e.value(py);
    let _ = value.setattr("bound", stats.bound.unwrap_or(0));
    let _ = value.setattr("expanded", stats.expanded);
    e
}

impl PyTwentyFour {
    /// `pdb`'s databases built and written to `path` (`None`: the default file, its
    /// directory made), then opened; `progress(done, total)` told of the placements settled.
    fn build(
        py: Python<'_>,
        path: Option<PathBuf>,
        pdb: &str,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTwentyFour> {
        let build = Build25::new(pdb).map_err(twentyfour_error)?;
        let counted = Arc::new(Counted::default());
        counted.start(build.placements());
        let counting = counted.clone();
        let told = progress.map(|p| (p, &*counted));
        let solver = crate::interrupt::abandonable_told(py, told, move || {
            build
                .write(path.as_deref(), &|n| counting.add(n))
                .map_err(twentyfour_error)
                .and_then(|written| TwentyFour::open(written.path).map_err(twentyfour_error))
        })??;
        Ok(PyTwentyFour { solver })
    }

    fn board(&self) -> Board25 {
        Board25::of(self.solver.goal())
    }

    /// One search of `layout` within `limits`, on every core without the GIL, telling
    /// `progress(row, bound, expanded, seconds)` of each new report; on Ctrl-C the search is
    /// stopped and `KeyboardInterrupt` raised with the bound it proved.
    fn run(
        &self,
        py: Python<'_>,
        layout: &Layout25,
        limits: &Limits,
        progress: Option<&Bound<'_, PyAny>>,
        row: Option<usize>,
    ) -> PyResult<Result<Solved25, Search25Error>> {
        let reports = Reports::default();
        let mut tick = || -> PyResult<()> {
            if let (Some(callback), Some(p)) = (progress, reports.take()) {
                callback.call1((
                    row.unwrap_or(0),
                    p.bound,
                    p.expanded,
                    p.elapsed.as_secs_f64(),
                ))?;
            }
            Ok(())
        };
        let ended = crate::interrupt::stoppable_told(py, &mut tick, |stop| {
            let limits = Limits {
                stop: Some(stop.clone()),
                ..limits.clone()
            };
            // Boxed: the error is large, and travels back from the thread.
            self.solver
                .solve(layout, &limits, &|p| reports.hear(p))
                .map_err(Box::new)
        })?;
        let result = match ended {
            Ended::Done(result) => result,
            Ended::Interrupted(interrupt, stopped) => {
                return Err(match stopped.map_err(|e| *e) {
                    Err(TwentyFourError::Search(Search25Error::LimitReached { stats, .. })) => {
                        interrupted(py, &stats, row)
                    }
                    _ => interrupt,
                });
            }
        };
        match result.map_err(|e| *e) {
            Ok(solved) => Ok(Ok(solved)),
            Err(TwentyFourError::Search(e)) => Ok(Err(e)),
            Err(e) => Err(twentyfour_error(e)),
        }
    }

    /// An optimal path from `layout` (`None`: it cannot reach the goal), no limit but Ctrl-C.
    fn path(
        &self,
        py: Python<'_>,
        layout: &Layout25,
        progress: Option<&Bound<'_, PyAny>>,
        row: Option<usize>,
    ) -> PyResult<Option<Vec<Move>>> {
        match self.run(py, layout, &Limits::default(), progress, row)? {
            Ok(solved) => Ok(Some(solved.path)),
            Err(Search25Error::Unsolvable { .. }) => Ok(None),
            Err(e) => Err(value_error(e)),
        }
    }
}

#[pymethods]
impl PyTwentyFour {
    /// Opens the `SLIDEP25` file at `path` (written by `slidetable generate --board 5x5`) and
    /// checks its header and the checksum of its entries. Raises `FileNotFoundError` when it
    /// is missing and `ValueError` when it is no sound 24-puzzle database.
    #[staticmethod]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<PyTwentyFour> {
        let solver = py
            .detach(|| TwentyFour::open(&path).map_err(Box::new))
            .map_err(|e| twentyfour_error(*e))?;
        Ok(PyTwentyFour { solver })
    }

    /// The file `slidetable generate --board 5x5` writes and `slidetable path --board 5x5`
    /// reads (`slidetable/5x5.slp` in `$XDG_CACHE_HOME`, else `~/.cache`). When it is not
    /// there: with `build` (a partition, `"6-6-6-6"`: about ten minutes and 1.1 GB on 2
    /// cores) it is built there first, as `slidetable generate --board 5x5 --pdb BUILD`
    /// does, with `progress(done, total)` as `generate`'s; without, `FileNotFoundError`
    /// saying how to make it.
    #[staticmethod]
    #[pyo3(signature = (build = None, progress = None))]
    fn default(
        py: Python<'_>,
        build: Option<&str>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTwentyFour> {
        let missing = !slidetable::default_path_25()
            .map_err(twentyfour_error)?
            .exists();
        if let (true, Some(pdb)) = (missing, build) {
            return PyTwentyFour::build(py, None, pdb, progress);
        }
        let solver = py
            .detach(|| TwentyFour::open_or_default(None).map_err(Box::new))
            .map_err(|e| twentyfour_error(*e))?;
        Ok(PyTwentyFour { solver })
    }

    /// Where `TwentyFour.default()` looks, as a string.
    #[staticmethod]
    fn default_path() -> PyResult<String> {
        let path = slidetable::default_path_25().map_err(twentyfour_error)?;
        Ok(path.display().to_string())
    }

    /// Builds the databases of `pdb` (`"6-6-6-6"`, Korf and Felner's: about ten minutes and
    /// 1.1 GB on 2 cores; `"5-5-5-5-4"`: seconds and 53 MB; group sizes in goal order, or
    /// tiles, `"1,2,5/3,4,…"`) as `slidetable generate --board 5x5 --pdb PDB -o PATH` does,
    /// and writes them to `path` (`None`: kept in memory, nothing written). Refused before
    /// it starts, with a `ValueError` giving both figures, when the machine has not the
    /// memory or the disk space. `progress(done, total)`, if given, is called every
    /// twentieth of a second with the placements settled. Ctrl-C raises `KeyboardInterrupt`
    /// at once (a file is written whole or not at all).
    #[staticmethod]
    #[pyo3(signature = (path = None, pdb = "6-6-6-6", progress = None))]
    fn generate(
        py: Python<'_>,
        path: Option<PathBuf>,
        pdb: &str,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTwentyFour> {
        match path {
            Some(path) => PyTwentyFour::build(py, Some(path), pdb, progress),
            None => {
                let build = Build25::new(pdb).map_err(twentyfour_error)?;
                let counted = Arc::new(Counted::default());
                counted.start(build.placements());
                let counting = counted.clone();
                let told = progress.map(|p| (p, &*counted));
                let solver = crate::interrupt::abandonable_told(py, told, move || {
                    let progress = |n| counting.add(n);
                    TwentyFour::generate_watched(build.goal(), build.partition(), &progress)
                        .map_err(twentyfour_error)
                })??;
                Ok(PyTwentyFour { solver })
            }
        }
    }

    /// The board, `"5x5"`.
    #[getter(board)]
    fn board_name(&self) -> String {
        self.board().to_string()
    }

    /// The partition's group sizes, `"6-6-6-6"` style.
    #[getter]
    fn partition(&self) -> String {
        self.solver.sizes()
    }

    /// The tiles of each group, in file order.
    #[getter]
    fn groups(&self) -> Vec<Vec<u32>> {
        self.solver
            .header()
            .groups()
            .iter()
            .map(|g| mask_tiles_25(g.tiles).map(u32::from).collect())
            .collect()
    }

    /// The goal the databases are distances to, as a list of tiles.
    #[getter]
    fn database_goal(&self) -> Vec<u32> {
        self.solver
            .goal()
            .tiles()
            .iter()
            .map(|&t| u32::from(t))
            .collect()
    }

    /// Whether the databases are also looked up on the board reflected about its main
    /// diagonal (Korf and Felner's goal: yes).
    #[getter]
    fn reflects(&self) -> bool {
        self.solver.reflects()
    }

    /// The file the databases were read from, or `None` for databases built in memory.
    #[getter]
    fn file(&self) -> Option<String> {
        self.solver.file().map(|p| p.display().to_string())
    }

    /// An optimal path from `puzzle` to the goal as a string of moves (`u d l r`: the way the
    /// blank moves), or `None` when the puzzle cannot reach it (the other parity class).
    /// `progress(row, bound, expanded, seconds)`, if given, is told about once a second how
    /// far the search is (`row` 0). Ctrl-C stops it: `KeyboardInterrupt` saying the bound it
    /// proved (no solution is shorter; also its `bound` attribute).
    #[pyo3(signature = (puzzle, progress = None))]
    fn solve(
        &self,
        py: Python<'_>,
        puzzle: &Bound<'_, PyAny>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        let layout = puzzles::one(self.board(), puzzle)?;
        Ok(self
            .path(py, &layout, progress, None)?
            .map(|p| path_string(&p)))
    }

    /// The fewest moves from `puzzle` to the goal, `-1` when it cannot be reached. Given many
    /// puzzles (a 2-D integer array, one a row, a 3-D array of 5x5 grids, or a list of puzzles
    /// or grids), an `int32` array, solved one after another, each on every core. `progress`
    /// and Ctrl-C as `solve`, `row` the puzzle's.
    #[pyo3(signature = (puzzle, progress = None))]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let length = |p: Option<Vec<Move>>| p.map_or(-1, |p| p.len() as i32);
        match Given::of(self.board(), puzzle)? {
            Given::One(layout) => {
                let d = length(self.path(py, &layout, progress, None)?);
                Ok(i64::from(d).into_pyobject(py)?.into_any())
            }
            Given::Many(batch) => {
                let layouts = batch.layouts(py, self.board())?;
                let mut lengths = Vec::with_capacity(layouts.len());
                for (row, layout) in layouts.iter().enumerate() {
                    lengths.push(length(self.path(py, layout, progress, Some(row))?));
                }
                Ok(numpy::PyArray1::from_vec(py, lengths).into_any())
            }
        }
    }

    /// Optimal paths for every puzzle of `puzzles` (a 2-D integer array of any dtype and
    /// memory order, a 3-D array of grids, a pandas DataFrame, or a list of puzzles or grids),
    /// one after another, each on every core: a 1-D object array of move strings, `None` where the goal cannot be
    /// reached. `progress` and Ctrl-C as `solve`, `row` the puzzle's.
    #[pyo3(signature = (puzzles, progress = None))]
    fn solve_many<'py>(
        &self,
        py: Python<'py>,
        puzzles: &Bound<'py, PyAny>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let layouts = Given::of(self.board(), puzzles)?.layouts(py, self.board())?;
        let mut paths = Vec::with_capacity(layouts.len());
        for (row, layout) in layouts.iter().enumerate() {
            let path = self.path(py, layout, progress, Some(row))?;
            paths.push(path.map(|p| path_string(&p)));
        }
        crate::puzzles::object_array(py, paths)
    }

    /// Solves `puzzle` and returns what `slidetable search --board 5x5 --json --stats`
    /// prints for it: `puzzle`, `distance`, `path`, `solvable`, `stats` (`expanded`,
    /// `generated`: sums over every iteration and thread, as docs/SEARCH.md defines them;
    /// `peak_open`, `iterations`, `bound`, `milliseconds`, `branching_factor`), `method`
    /// (`"idastar"`), `heuristic` (`"pdb"`), `partition` (`"6-6-6-6"`) and `database` (the
    /// file, `None` when built in memory). A search stopped by `max_expanded` or
    /// `max_seconds` keeps its `stats` (`bound`: no solution is shorter) and has an `error`;
    /// its `distance` and `path` are `None`. `progress` and Ctrl-C as `solve`.
    #[pyo3(signature = (puzzle, max_expanded = None, max_seconds = None, progress = None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
        max_expanded: Option<&Bound<'py, PyAny>>,
        max_seconds: Option<f64>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let layout = puzzles::one(self.board(), puzzle)?;
        let limits = records::limits(max_expanded, max_seconds, None)?;
        let result = self.run(py, &layout, &limits, progress, None)?;
        let d = PyDict::new(py);
        d.set_item("puzzle", self.tiles_of(&layout))?;
        match result {
            Ok(solved) => {
                let depth = solved.path.len() as u32;
                d.set_item("distance", depth)?;
                d.set_item("path", path_string(&solved.path))?;
                d.set_item("solvable", true)?;
                d.set_item(
                    "stats",
                    records::stats_dict(py, &solved.stats, Some(depth))?,
                )?;
            }
            Err(Search25Error::Unsolvable { .. }) => {
                d.set_item("distance", py.None())?;
                d.set_item("path", py.None())?;
                d.set_item("solvable", false)?;
            }
            Err(Search25Error::LimitReached { limit, stats }) if limit != Limit::Stopped => {
                d.set_item("distance", py.None())?;
                d.set_item("path", py.None())?;
                d.set_item("solvable", true)?;
                d.set_item("stats", records::stats_dict(py, &stats, None)?)?;
                d.set_item(
                    "error",
                    Search25Error::LimitReached { limit, stats }.to_string(),
                )?;
            }
            Err(e) => return Err(value_error(e)),
        }
        d.set_item("method", "idastar")?;
        d.set_item("heuristic", "pdb")?;
        d.set_item("partition", self.solver.sizes())?;
        d.set_item("database", self.file())?;
        Ok(d)
    }

    /// The databases' estimate of the moves from `puzzle` to the goal (never more than the
    /// truth; the larger of the sum and the reflected sum), `-1` for a puzzle of the other
    /// parity class: an `int` for one puzzle, an `int32` array for many.
    fn estimate<'py>(
        &self,
        py: Python<'py>,
        puzzle: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let databases = self.solver.databases(true).map_err(twentyfour_error)?;
        let one = |layout: &Layout25| match databases.heuristic(layout) {
            Ok(h) => Ok(i64::from(h)),
            Err(Search25Error::Unsolvable { .. }) => Ok(-1),
            Err(e) => Err(value_error(e)),
        };
        match Given::of(self.board(), puzzle)? {
            Given::One(layout) => Ok(one(&layout)?.into_pyobject(py)?.into_any()),
            Given::Many(batch) => {
                let layouts = batch.layouts(py, self.board())?;
                let estimates = layouts
                    .iter()
                    .map(|l| one(l).map(|h| h as i32))
                    .collect::<PyResult<Vec<i32>>>()?;
                Ok(numpy::PyArray1::from_vec(py, estimates).into_any())
            }
        }
    }

    /// Pickled (`multiprocessing`, joblib, `copy.deepcopy`) as its file's path and header,
    /// opened again and checked where it is unpickled; databases built in memory as their
    /// bytes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        pickling::reduce(slf.as_any(), &slf.get().solver)
    }

    /// The databases a pickle kept ([`PyTwentyFour::__reduce__`]).
    #[staticmethod]
    fn _unpickle(py: Python<'_>, file: Option<PathBuf>, bytes: &[u8]) -> PyResult<PyTwentyFour> {
        let solver = pickling::restored(
            file,
            bytes,
            "24-puzzle database",
            |path| Ok(PyTwentyFour::open(py, path.to_path_buf())?.solver),
            |bytes| {
                py.detach(|| TwentyFour::from_bytes(bytes).map_err(Box::new))
                    .map_err(|e| twentyfour_error(*e))
            },
        )?;
        Ok(PyTwentyFour { solver })
    }

    fn __repr__(&self) -> String {
        let place = match self.solver.file() {
            Some(p) => format!("path={:?}", p.display().to_string()),
            None => "in memory".to_string(),
        };
        format!(
            "TwentyFour(partition='{}', database_goal='{}', {place})",
            self.solver.sizes(),
            self.solver.goal()
        )
    }
}

impl PyTwentyFour {
    fn tiles_of(&self, layout: &Layout25) -> Vec<u32> {
        layout.tiles().iter().map(|&t| u32::from(t)).collect()
    }
}
