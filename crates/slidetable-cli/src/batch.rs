//! The batch commands' one entry (`distance`, `path`): every puzzle line answered from the
//! file the arguments resolved to, by what it holds: pattern databases (the 15-puzzle) or a
//! table of every state.

use std::process::ExitCode;

use anyhow::Result;
use slidetable::query::AnyTable;

use crate::answers;
use crate::bounded;
use crate::patterns;
use crate::resolved::Batch;

/// Answers every puzzle line of `batch`'s input, as it asks.
pub(crate) fn run(batch: Batch<'_>) -> Result<ExitCode> {
    match &batch.table {
        AnyTable::Table(table) => answers::run(table, &batch),
        AnyTable::Patterns(databases) => patterns::batch(databases, &batch),
        AnyTable::Bounded(table) => bounded::batch(table, &batch),
    }
}
