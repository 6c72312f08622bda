//! The native module of the `slidetable` Python package (`slidetable._slidetable`): the
//! library crates behind Python classes and functions, with numpy arrays in and out and the
//! GIL released while the work runs on every core. `python/slidetable` re-exports it with
//! the pure-Python parts (`dataset`) and the type stubs.
//!
//! Built by maturin (`pip install ./crates/slidetable-py`); `cargo test` builds it as a plain
//! library linked to libpython, without the `extension-module` feature.

use pyo3::prelude::*;

mod cache;
mod dataset;
mod errors;
mod fifteen;
mod heuristics;
mod interrupt;
mod levels;
mod memory;
mod pickling;
mod puzzles;
mod records;
mod search;
mod table;
mod twentyfour;

/// The module: `Table`, `Fifteen`, `TwentyFour`, the heuristics, and `MOVES` (the letters of the move
/// codes 0 1 2 3).
#[pymodule]
fn _slidetable(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<table::PyTable>()?;
    m.add_class::<fifteen::PyFifteen>()?;
    m.add_class::<twentyfour::PyTwentyFour>()?;
    m.add_function(wrap_pyfunction!(heuristics::manhattan, m)?)?;
    m.add_function(wrap_pyfunction!(heuristics::linear_conflict, m)?)?;
    m.add_function(wrap_pyfunction!(heuristics::misplaced, m)?)?;
    m.add_function(wrap_pyfunction!(fifteen::pattern, m)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add("MOVES", "udlr")?;
    // The 15-puzzle's default databases: the 7-8 ones when `slidetable generate --board 4x4`
    // has made them, else the 6-6-3 ones `Fifteen.default()` builds on first use.
    m.add("DEFAULT_PARTITION", cache::DEFAULT_PARTITION)?;
    m.add(
        "FIRST_USE_PARTITION",
        slidetable::defaults::FIRST_USE_PARTITION,
    )?;
    // The package's version is the workspace's (pyproject.toml takes it from Cargo.toml).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
