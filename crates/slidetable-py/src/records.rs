//! What a search is given and gives back in Python, the same for `slidetable.search`,
//! `Fifteen.search` and `TwentyFour.search`: the limits from keyword arguments, and the
//! `search-answer` record (docs/JSON.md) as a dict.

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use slidetable::core::{path_string, Layout};
use slidetable::search::{effective_branching_factor, Limits, SearchError, Solution, Stats};

use crate::errors::{value_error, whole};
use crate::puzzles;

/// The limits asked for: `max_expanded` states, `max_seconds` of wall-clock time (more than
/// can be counted is no limit, as the command line's `--timeout`), `max_memory` bytes of
/// states held (default: the command line's bound, `slidetable::limits::default_max_memory`).
pub(crate) fn limits(
    max_expanded: Option<&Bound<'_, PyAny>>,
    max_seconds: Option<f64>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    let max_time = max_seconds
        .map(|s| {
            if s.is_nan() || s < 0.0 {
                return Err(value_error(format!(
                    "max_seconds={s:?}: give a number of seconds, 0 or more"
                )));
            }
            Ok(Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX))
        })
        .transpose()?;
    let max_expanded = max_expanded
        .map(|n| whole(n, "max_expanded", u64::MAX))
        .transpose()?;
    let max_memory = match max_memory {
        Some(bytes) => whole(bytes, "max_memory", u64::MAX)?,
        None => slidetable::limits::default_max_memory(),
    };
    Ok(Limits {
        max_expanded,
        max_time,
        max_memory: Some(max_memory),
        ..Limits::default()
    })
}

/// The search's figures as `search --json --stats` gives them (docs/JSON.md,
/// `search-stats`): `iterations` only for IDA*, `branching_factor` `None` without a
/// solution or at depth 0.
pub(crate) fn stats_dict<'py>(
    py: Python<'py>,
    s: &Stats,
    depth: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("expanded", s.expanded)?;
    d.set_item("generated", s.generated)?;
    d.set_item("peak_open", s.peak_open)?;
    if let Some(i) = s.iterations {
        d.set_item("iterations", i)?;
    }
    d.set_item("bound", s.bound)?;
    d.set_item("milliseconds", s.elapsed.as_secs_f64() * 1e3)?;
    d.set_item(
        "branching_factor",
        depth.and_then(|d| effective_branching_factor(s.generated, d)),
    )?;
    Ok(d)
}

/// How one search went, as the command's `search-answer` record: puzzle, distance, path,
/// solvable, stats (absent for a puzzle of the other class, which is not searched) and, for
/// a search stopped at a limit, `error` (the distance and path are then `None`).
pub(crate) fn record<'py>(
    py: Python<'py>,
    start: &Layout,
    result: Result<Solution, SearchError>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("puzzle", puzzles::tiles(start))?;
    match result {
        Ok(found) => {
            let depth = found.path.len() as u32;
            d.set_item("distance", found.cost)?;
            d.set_item("path", path_string(&found.path))?;
            d.set_item("solvable", true)?;
            d.set_item("stats", stats_dict(py, &found.stats, Some(depth))?)?;
        }
        Err(SearchError::Unsolvable { .. }) => {
            d.set_item("distance", py.None())?;
            d.set_item("path", py.None())?;
            d.set_item("solvable", false)?;
        }
        Err(e @ SearchError::LimitReached { .. }) => {
            let SearchError::LimitReached { stats, .. } = &e else {
                return Err(value_error(e));
            };
            d.set_item("distance", py.None())?;
            d.set_item("path", py.None())?;
            d.set_item("solvable", true)?;
            d.set_item("stats", stats_dict(py, stats, None)?)?;
            d.set_item("error", e.to_string())?;
        }
        Err(e) => return Err(value_error(e)),
    }
    Ok(d)
}
