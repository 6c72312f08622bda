//! The default tables, as the command line finds them: the library's `slidetable::defaults`
//! (the one owner of default tables: `$SLIDETABLE_TABLE` for the 3×3 board, else
//! `slidetable/RxC.slt` in the cache directory, generated on first use under the lock file
//! every program takes, so a notebook and a `slidetable` run that both find it missing build
//! it once; a default must be for the board asked for, with unit costs). Each file is opened
//! as what it holds, so a default of the other kind is refused in the command line's words.

use std::path::Path;

use pyo3::exceptions::{PyOSError, PyUserWarning, PyValueError};
use pyo3::{PyErr, PyResult, Python};
use slidetable::core::Board;
use slidetable::defaults::{self, DefaultError, Kind};
use slidetable::query::{error_chain, MappedTable};

use crate::errors::{gen_error, table_error};
use crate::interrupt::Counted;

pub(crate) use slidetable::defaults::DEFAULT_PARTITION;

/// A default that cannot be found, made or opened, as Python sees it: the system's failure
/// an `OSError`, anything else a `ValueError`, with the command line's message.
pub(crate) fn default_error(e: DefaultError) -> PyErr {
    match e {
        DefaultError::Generate(e) => gen_error(e),
        DefaultError::Table(e) => table_error(e),
        e if e.is_io() => PyOSError::new_err(error_chain(&e)),
        e => PyValueError::new_err(error_chain(&e)),
    }
}

/// The default table of `board`, generated on first use (with a [`Noted`] warning), its
/// generation counted in `counted`.
pub(crate) fn table(board: Board, counted: &Counted) -> PyResult<MappedTable> {
    defaults::table_watched(board, &Noted(Some(counted))).map_err(default_error)
}

/// A default's first use as Python shows it: the command line's note (where, what, how long)
/// as a `UserWarning`, which Jupyter shows under the cell, raised when the generation starts
/// (or when another program holds the file's lock). The work runs on a thread of its own
/// ([`crate::interrupt::abandonable`]) while the calling thread waits without the GIL, so
/// the warning takes the GIL for itself. The generation's work is counted in the `Counted`
/// given, if any, for a `progress=` callback.
pub(crate) struct Noted<'a>(pub(crate) Option<&'a Counted>);

impl defaults::Watch for Noted<'_> {
    fn waiting(&self, path: &Path, lock: &Path) {
        warn(format!(
            "waiting for another slidetable to write {} (lock {})",
            path.display(),
            lock.display()
        ));
    }

    fn generating(&self, path: &Path, board: Board, kind: Kind, total: u64) {
        if let Some(counted) = self.0 {
            counted.start(total);
        }
        warn(defaults::first_use_note(path, board, kind));
    }

    fn progress(&self, n: u64) {
        if let Some(counted) = self.0 {
            counted.add(n);
        }
    }

    fn finished(&self) {}
}

/// Issues `note` as a `UserWarning`. A warnings filter that turns it into an error has no
/// caller to raise it in here (the generation goes on either way): Python's hook for errors
/// without a caller reports it.
fn warn(note: String) {
    Python::attach(|py| {
        let note = std::ffi::CString::new(note).unwrap_or_default();
        let category = py.get_type::<PyUserWarning>();
        if let Err(e) = PyErr::warn(py, &category, &note, 1) {
            e.write_unraisable(py, None);
        }
    });
}
