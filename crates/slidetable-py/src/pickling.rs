//! How the package's tables cross a pickle (`multiprocessing`, `concurrent.futures`, joblib,
//! `copy.deepcopy`): one opened from a file goes as its path and its header's bytes, and is
//! opened again where it is unpickled, its header compared, so that a file changed or
//! replaced in between is refused rather than answering from other data; one made in memory
//! goes as its bytes, checked again as a file's are. A file's path is kept whole (absolute),
//! so that a process started in another directory opens the same file. One rule for
//! `Table`, `Fifteen` and `TwentyFour`.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::errors::value_error;

/// What a pickle keeps of a table: its file (`None` when made in memory) and bytes (its
/// header's for a file, all of them otherwise).
pub(crate) type Kept<'py> = (Option<String>, Bound<'py, PyBytes>);

/// What `__reduce__` returns for `slf`: its class's `_unpickle` and the arguments it takes.
pub(crate) fn reduced<'py>(
    slf: &Bound<'py, PyAny>,
    args: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let restore = slf.get_type().getattr("_unpickle")?;
    PyTuple::new(slf.py(), [restore, args.into_bound_py_any(slf.py())?])
}

/// What `__reduce__` returns for `slf`, a table whose bytes are `bytes` (read from `file` if
/// any, its header the first `header_len`): its class's `_unpickle` and what [`kept`] keeps.
pub(crate) fn reduce<'py>(
    slf: &Bound<'py, PyAny>,
    file: Option<&Path>,
    bytes: &[u8],
    header_len: u64,
) -> PyResult<Bound<'py, PyTuple>> {
    reduced(slf, kept(slf.py(), file, bytes, header_len)?)
}

/// What to keep of a table whose bytes are `bytes`, read from `file` if any, its header the
/// first `header_len` of them.
pub(crate) fn kept<'py>(
    py: Python<'py>,
    file: Option<&Path>,
    bytes: &[u8],
    header_len: u64,
) -> PyResult<Kept<'py>> {
    let (file, bytes) = match file {
        Some(path) => {
            // Whole, so that a process started in another directory opens the same file.
            let whole = std::path::absolute(path)?;
            let path = whole.to_str().ok_or_else(|| {
                value_error(format!(
                    "cannot pickle a table read from {}: its path is not UTF-8",
                    path.display()
                ))
            })?;
            (Some(path.to_string()), &bytes[..header_len as usize])
        }
        None => (None, bytes),
    };
    Ok((file, PyBytes::new(py, bytes)))
}

/// A table as a pickle kept it: `open` the file again (its header must be the one kept:
/// `header_of` gives an opened table's header bytes), or make it from the bytes kept
/// (`from_bytes`). `what` names the kind of table in the message.
pub(crate) fn restored<T>(
    file: Option<PathBuf>,
    bytes: &[u8],
    what: &str,
    open: impl FnOnce(&Path) -> PyResult<T>,
    header_of: impl FnOnce(&T) -> &[u8],
    from_bytes: impl FnOnce(Vec<u8>) -> PyResult<T>,
) -> PyResult<T> {
    match file {
        Some(path) => {
            let table = open(&path)?;
            if header_of(&table) != bytes {
                return Err(value_error(format!(
                    "{}: not the {what} that was pickled: the file changed since (its header \
                     differs); open it again rather than unpickle",
                    path.display()
                )));
            }
            Ok(table)
        }
        None => from_bytes(bytes.to_vec()),
    }
}
