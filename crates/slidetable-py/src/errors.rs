//! The library crates' typed errors as Python exceptions, with the messages the command line
//! prints: a bad puzzle, goal, board or argument is a `ValueError`; a table that cannot be read
//! an `OSError` (`FileNotFoundError` when it is missing); a table whose bytes are wrong a
//! `ValueError` naming the file.

use std::fmt::Display;

use pyo3::exceptions::{
    PyFileNotFoundError, PyOSError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use slidetable::generate::GenError;
use slidetable::query::{error_chain, QueryError, TableError, TableErrorKind};

/// A whole-number argument named `name`, from 0 to `max`: a `ValueError` naming it for a
/// negative or larger integer (of any size), a `TypeError` for anything else.
pub(crate) fn whole(obj: &Bound<'_, PyAny>, name: &str, max: u64) -> PyResult<u64> {
    let refuse = || value_error(format!("{name}={obj}: give a whole number from 0 to {max}"));
    match obj.extract::<i128>() {
        Ok(v) => u64::try_from(v)
            .ok()
            .filter(|&v| v <= max)
            .ok_or_else(refuse),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(refuse()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} is a whole number, not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))),
    }
}

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
