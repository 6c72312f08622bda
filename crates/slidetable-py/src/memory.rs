//! Requests larger than memory refused with `MemoryError` before anything is allocated: an
//! allocation that fails inside Rust aborts the interpreter, so every call that allocates in
//! proportion to what it was asked checks here first.

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::PyResult;
use slidetable::generate::room::{checked_memory, human};

/// The memory available and where the figure comes from (`None` where nothing says), or a
/// `ValueError` naming `SLIDETABLE_AVAILABLE_MEMORY` when it is set to something other than a
/// number of bytes (as the command line refuses it).
pub(crate) fn available() -> PyResult<Option<(u64, String)>> {
    checked_memory().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Refuses `what` (which takes `need` bytes) when the machine has less memory available:
/// `MemoryError` naming both figures and where the available one comes from.
pub(crate) fn check(need: u128, what: impl FnOnce() -> String) -> PyResult<()> {
    let Some((available, origin)) = available()? else {
        return Ok(());
    };
    if need <= u128::from(available) {
        return Ok(());
    }
    let need = u64::try_from(need).map_or_else(|_| format!("{need} bytes"), human);
    Err(PyMemoryError::new_err(format!(
        "{} need {need} of memory, but {} is available ({origin})",
        what(),
        human(available)
    )))
}

/// An empty vector with room for `count` items, or `MemoryError` naming `what` before
/// anything is used.
pub(crate) fn reserved<T>(count: usize, what: &str) -> PyResult<Vec<T>> {
    let bytes = count as u128 * std::mem::size_of::<T>() as u128;
    check(bytes, || format!("{count} {what}"))?;
    let mut v = Vec::new();
    v.try_reserve_exact(count).map_err(|_| {
        PyMemoryError::new_err(format!(
            "{count} {what} need {bytes} bytes of memory: more than could be allocated"
        ))
    })?;
    Ok(v)
}
