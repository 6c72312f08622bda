//! Whole-table questions (`hardest`, `random --depth`) on a 2-bit table too large to recover
//! a byte a state of (2x7: 43.6 GB): `slidetable_query::Goal::level_pass`, level by level in
//! one bit a state beside the mapped entries, with the memory check before it, a note on a
//! terminal and the progress bar.

use std::io::{self, IsTerminal};

use anyhow::{bail, Context, Result};
use slidetable_gen::room::{check_level_pass, human};
use slidetable_query::{Goal, Level, MappedTable, PassOptions};

use crate::streams::note;
use crate::tables::{self, progress_bar, Work};

/// Whether `goal`'s whole-table questions go through the level pass (14-cell tables, or any
/// 2-bit table with `SLIDETABLE_LEVEL_PASS=1`: `Goal::wants_level_pass`).
pub(crate) fn wanted(goal: &Goal<'_>) -> bool {
    goal.wants_level_pass()
}

/// The level pass over `goal`'s section up to `upto`, for the command `what`: refused before
/// it starts when the machine has less memory than the level bitmap and the entries need;
/// its late levels bottom-up in a second bitmap when that fits too; a note on a terminal for
/// a large board; a progress bar; each level handed to `at`.
pub(crate) fn pass(
    table: &MappedTable,
    goal: &Goal<'_>,
    upto: u32,
    what: &str,
    at: &mut dyn FnMut(&Level<'_>),
) -> Result<()> {
    let board = table.board();
    let upto = upto.min(goal.max_distance());
    let bitmap = goal.level_pass_memory();
    let entries = goal.state_count().div_ceil(4);
    let bottom_up = match check_level_pass(board, what, bitmap, entries) {
        Ok(two_fit) => two_fit,
        Err(message) => bail!("{message}"),
    };
    let bitmaps = if bottom_up { 2 * bitmap } else { bitmap };
    if goal.needs_level_pass() && io::stderr().is_terminal() {
        note!(
            "{what} on a {board} table goes through its states level by level, up to {upto} \
             moves: this may take minutes, with {} of memory ({} of level bitmaps beside the \
             {} table)",
            human(bitmaps + entries),
            human(bitmaps),
            human(entries)
        );
    }
    let total: u64 = goal.histogram()[..=upto as usize].iter().sum();
    let bar = progress_bar(total, Work::States, format!("reading levels ({board})"));
    let options = PassOptions {
        bottom_up,
        stop: None,
    };
    goal.level_pass_with(upto, options, &|n| bar.inc(n), at)
        .with_context(|| format!("table {}", tables::name(table)))?;
    bar.finish_and_clear();
    Ok(())
}
