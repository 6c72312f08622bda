//! The default tables, as the command line finds them: `slidetable_gen::cache::ensure` (the
//! one owner of default tables: `$SLIDETABLE_TABLE` for the 3×3 board, else
//! `slidetable/RxC.slt` in the cache directory, generated on first use under the lock file
//! every program takes, so a notebook and a `slidetable` run that both find it missing build
//! it once), then `Found::check` (a default table must be for the board asked for, with unit
//! costs). Each file is opened as what it holds ([`AnyTable`]), so a default of the other
//! kind is refused in the command line's words.

use pyo3::PyResult;
use slidetable_core::Board;
use slidetable_gen::cache::{ensure, Quiet};
use slidetable_query::{AnyTable, CostModel, MappedPatternTable, MappedTable};

use crate::errors::{gen_error, table_error};

pub(crate) use slidetable_gen::cache::DEFAULT_PARTITION;

/// The default table of `board`, generated on first use.
pub(crate) fn table(board: Board) -> PyResult<MappedTable> {
    let found = ensure(None, board, &Quiet).map_err(gen_error)?;
    let table = AnyTable::open(&found.path)
        .and_then(AnyTable::into_table)
        .map_err(table_error)?;
    found
        .check(table.board(), table.header().cost())
        .map_err(gen_error)?;
    Ok(table)
}

/// The default pattern database of `board` (the cache's `RxC.slt`), made with
/// [`DEFAULT_PARTITION`] on first use.
pub(crate) fn patterns(board: Board) -> PyResult<MappedPatternTable> {
    let found = ensure(None, board, &Quiet).map_err(gen_error)?;
    let table = AnyTable::open(&found.path)
        .and_then(AnyTable::into_patterns)
        .map_err(table_error)?;
    found
        .check(table.board(), CostModel::Unit)
        .map_err(gen_error)?;
    Ok(table)
}
