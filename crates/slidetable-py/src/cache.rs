//! The default tables, as the command line finds them: the library's `slidetable::defaults`
//! (the one owner of default tables: `$SLIDETABLE_TABLE` for the 3×3 board, else
//! `slidetable/RxC.slt` in the cache directory, generated on first use under the lock file
//! every program takes, so a notebook and a `slidetable` run that both find it missing build
//! it once; a default must be for the board asked for, with unit costs). Each file is opened
//! as what it holds, so a default of the other kind is refused in the command line's words.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::{PyErr, PyResult};
use slidetable::core::Board;
use slidetable::defaults::{self, DefaultError};
use slidetable::query::{error_chain, MappedTable};

use crate::errors::{gen_error, table_error};

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

/// The default table of `board`, generated on first use.
pub(crate) fn table(board: Board) -> PyResult<MappedTable> {
    defaults::table(board).map_err(default_error)
}
