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

/// A table as a pickle sees it: the library's table of every state, the 15-puzzle's
/// databases, the 24-puzzle's.
pub(crate) trait Pickled {
    /// The file it was read from (`None`: made in memory), all its bytes, and how many of
    /// them are its header.
    fn source(&self) -> (Option<&Path>, &[u8], u64);

    /// Its header's bytes: what a pickle keeps of a file, and compares when it opens it again.
    fn header_bytes(&self) -> &[u8] {
        let (_, bytes, header_len) = self.source();
        &bytes[..header_len as usize]
    }
}

impl Pickled for slidetable::query::MappedTable {
    fn source(&self) -> (Option<&Path>, &[u8], u64) {
        (self.file(), self.bytes(), self.header().header_len())
    }
}

impl Pickled for slidetable::Fifteen {
    fn source(&self) -> (Option<&Path>, &[u8], u64) {
        let table = self.table();
        (table.file(), table.bytes(), table.header().header_len())
    }
}

impl Pickled for slidetable::TwentyFour {
    fn source(&self) -> (Option<&Path>, &[u8], u64) {
        (self.file(), self.bytes(), self.header().header_len())
    }
}

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

/// What `__reduce__` returns for `slf`, which holds `table`: its class's `_unpickle` and what
/// [`kept`] keeps.
pub(crate) fn reduce<'py>(
    slf: &Bound<'py, PyAny>,
    table: &impl Pickled,
) -> PyResult<Bound<'py, PyTuple>> {
    reduced(slf, kept(slf.py(), table)?)
}

/// What to keep of `table`.
pub(crate) fn kept<'py>(py: Python<'py>, table: &impl Pickled) -> PyResult<Kept<'py>> {
    let (file, bytes) = match table.source() {
        (Some(path), ..) => {
            // Whole, so that a process started in another directory opens the same file.
            let whole = std::path::absolute(path)?;
            let path = whole.to_str().ok_or_else(|| {
                value_error(format!(
                    "cannot pickle a table read from {}: its path is not UTF-8",
                    path.display()
                ))
            })?;
            (Some(path.to_string()), table.header_bytes())
        }
        (None, bytes, _) => (None, bytes),
    };
    Ok((file, PyBytes::new(py, bytes)))
}

/// A table as a pickle kept it: `open` the file again (its header must be the one kept), or
/// make it from the bytes kept (`from_bytes`). `what` names the kind of table in the message.
pub(crate) fn restored<T: Pickled>(
    file: Option<PathBuf>,
    bytes: &[u8],
    what: &str,
    open: impl FnOnce(&Path) -> PyResult<T>,
    from_bytes: impl FnOnce(Vec<u8>) -> PyResult<T>,
) -> PyResult<T> {
    match file {
        Some(path) => {
            let table = open(&path)?;
            if table.header_bytes() != bytes {
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
