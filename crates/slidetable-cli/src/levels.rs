//! Whole-table questions (`hardest`, `random --depth`) on a 2-bit table too large to recover
//! a byte a state of (2x7: 43.6 GB): `slidetable::query::Goal::level_pass`, level by level in
//! one bit a state beside the mapped entries, with the memory check before it, a note on a
//! terminal and the progress bar.

use std::io::{self, IsTerminal};

use anyhow::{Context, Result};
use slidetable::levels;
use slidetable::query::{Goal, Level, MappedTable};

use crate::streams::note;
use crate::tables::{self, progress_bar, BarUnit};

/// Whether `goal`'s whole-table questions go through the level pass (14-cell tables, or any
/// 2-bit table with `SLIDETABLE_LEVEL_PASS=1`: `Goal::wants_level_pass`).
pub(crate) fn wanted(goal: &Goal<'_>) -> bool {
    goal.wants_level_pass()
}

/// The level pass over `goal`'s section up to `upto`, for the command `what`, as the library
/// plans it ([`levels::plan`]: refused before it starts when the machine has less memory
/// than the level bitmap and the entries need; its late levels bottom-up in a second bitmap
/// when that fits too); a note on a terminal for a large board; a progress bar; each level
/// handed to `at`.
pub(crate) fn pass(
    table: &MappedTable,
    goal: &Goal<'_>,
    upto: u32,
    what: &str,
    at: &mut dyn FnMut(&Level<'_>),
) -> Result<()> {
    let board = table.board();
    let pass = levels::plan(goal, upto, what)?;
    if pass.long && io::stderr().is_terminal() {
        note!("{}", pass.note(board, what));
    }
    let bar = progress_bar(
        pass.total,
        BarUnit::States,
        format!("reading levels ({board})"),
    );
    pass.run(goal, &|n| bar.inc(n), None, at)
        .with_context(|| format!("table {}", tables::name(table)))?;
    bar.finish_and_clear();
    Ok(())
}
