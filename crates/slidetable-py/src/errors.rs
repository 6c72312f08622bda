//! The library crates' typed errors as Python exceptions, with the messages the command line
//! prints: a bad puzzle, goal, board or argument is a `ValueError`; a table that cannot be read
//! an `OSError` (`FileNotFoundError` when it is missing); a table whose bytes are wrong a
//! `ValueError` naming the file.

use std::fmt::Display;

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;
use slidetable_gen::GenError;
use slidetable_query::{error_chain, QueryError, TableError, TableErrorKind};

/// A `ValueError` with `message`.
pub(crate) fn value_error(message: impl Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A table that cannot be used, as Python sees it.
pub(crate) fn table_error(e: TableError) -> PyErr {
    let message = e.to_string();
    match &e.kind {
        TableErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(message)
        }
        TableErrorKind::Io(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A question the table cannot answer: a puzzle or goal of another board, or a goal the
/// table has no section for, is the caller's mistake; entries that contradict each other are
/// the table's.
pub(crate) fn query_error(e: QueryError) -> PyErr {
    match e {
        QueryError::Damaged(ref damage) => match &damage.file {
            Some(file) => PyRuntimeError::new_err(format!("table {}: {e}", file.display())),
            None => PyRuntimeError::new_err(e.to_string()),
        },
        QueryError::Corrupt { .. } | QueryError::CorruptLayer { .. } => {
            PyRuntimeError::new_err(e.to_string())
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A table or database that could not be made: writing it is the system's failure, anything
/// else (a board too large, a partition that is no partition) the caller's.
pub(crate) fn gen_error(e: GenError) -> PyErr {
    match e {
        GenError::Io { .. } | GenError::CreateDir { .. } => PyOSError::new_err(error_chain(&e)),
        _ => PyValueError::new_err(error_chain(&e)),
    }
}
