//! Whole-table questions (`hardest`, `random --depth`) on a 2-bit table too large to recover
//! a byte a state of (2x7: 43.6 GB): `slidetable_query::Goal::level_pass`, level by level in
//! one bit a state beside the mapped entries, with the memory check before it, a note on a
//! terminal and the progress bar.

use std::io::{self, IsTerminal};

use anyhow::{bail, Context, Result};
use slidetable_gen::room::{available_memory, human};
use slidetable_query::{Encoding, Goal, Level, MappedTable};

use crate::streams::note;
use crate::tables::{self, progress_bar, Work};

/// Environment variable: `1` sends whole-table questions through the level pass on every
/// 2-bit table, small ones too (how the tests compare it with the byte a state).
pub(crate) const LEVEL_PASS_ENV: &str = "SLIDETABLE_LEVEL_PASS";

/// Whether `goal`'s whole-table questions go through the level pass.
pub(crate) fn wanted(goal: &Goal<'_>) -> bool {
    goal.needs_level_pass()
        || (goal.section().encoding() == Encoding::TwoBit
            && std::env::var(LEVEL_PASS_ENV).is_ok_and(|v| v.trim() == "1"))
}

/// The level pass over `goal`'s section up to `upto`, for the command `what`: refused before
/// it starts when the machine has less memory than the level bitmap and the entries need;
/// a note on a terminal for a large board; a progress bar; each level handed to `at`.
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
    let need = bitmap + entries;
    if let Some((available, origin)) = available_memory() {
        if need > available {
            bail!(
                "{what} on a {board} table reads it level by level, in one bit a state ({}) \
                 beside its {} of entries: {} of memory, but {} is available ({origin})",
                human(bitmap),
                human(entries),
                human(need),
                human(available)
            );
        }
    }
    if goal.needs_level_pass() && io::stderr().is_terminal() {
        note!(
            "{what} on a {board} table goes through its states level by level, up to {upto} \
             moves: this may take minutes, with {} of memory ({} of level bitmap beside the {} \
             table)",
            human(need),
            human(bitmap),
            human(entries)
        );
    }
    let total: u64 = goal.histogram()[..=upto as usize].iter().sum();
    let bar = progress_bar(total, Work::States, format!("reading levels ({board})"));
    goal.level_pass(upto, &|n| bar.inc(n), at)
        .with_context(|| format!("table {}", tables::name(table)))?;
    bar.finish_and_clear();
    Ok(())
}
