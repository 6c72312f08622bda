//! Where tables live, and making one: the rule is `slidetable_gen::cache`'s; this adds the
//! note and the progress bar a terminal user sees (`resolved` opens what it finds).

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use slidetable_core::Board;
use slidetable_gen::cache::{self, Kind, DEFAULT_PARTITION, FIRST_USE_PARTITION};
use slidetable_gen::{solve, table_bytes, SolvedSection};
use slidetable_query::{Goal, MappedTable};
use std::sync::OnceLock;

use crate::signals;
use crate::streams::warning;

pub(crate) use slidetable_gen::cache::{resolve, Generated, Origin, Plan};

/// What a terminal user sees while a default table is found: a note when it waits for another
/// process or generates the table, and a progress bar while it generates a large one.
pub(crate) struct Shown {
    bar: OnceLock<ProgressBar>,
}

impl Shown {
    pub(crate) fn new() -> Shown {
        Shown {
            bar: OnceLock::new(),
        }
    }
}

impl cache::Watch for Shown {
    fn waiting(&self, path: &Path, lock: &Path) {
        warning!(
            "waiting for another slidetable to write {} (lock {})",
            path.display(),
            lock.display()
        );
    }

    fn generating(&self, path: &Path, board: Board, kind: Kind, total: u64) {
        signals::clean_up_on_signals();
        let bar = match kind {
            Kind::Table => {
                warning!(
                    "no table at {}; generating it once (this takes {})",
                    path.display(),
                    if board.cells() > 10 {
                        "a while and a few hundred MB of memory"
                    } else {
                        "a moment"
                    }
                );
                progress_bar(total, Work::States, format!("generating {board}"))
            }
            Kind::Pattern => {
                warning!(
                    "no pattern database at {}; generating the {FIRST_USE_PARTITION} databases \
                     once (seconds). `slidetable generate --board {board}` makes the \
                     {DEFAULT_PARTITION} databases (a few minutes once, about 1.5 GB of \
                     memory), which answer about 15x faster and are used when present",
                    path.display()
                );
                progress_bar(
                    total,
                    Work::Placements,
                    format!("generating {board} {FIRST_USE_PARTITION}"),
                )
            }
        };
        let _ = self.bar.set(bar);
    }

    fn progress(&self, n: u64) {
        if let Some(bar) = self.bar.get() {
            bar.inc(n);
        }
    }

    fn finished(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

/// The name a table is shown by in messages and reports: its file.
pub(crate) fn name(table: &MappedTable) -> String {
    table
        .file()
        .map_or_else(|| "?".to_string(), |p| p.display().to_string())
}

/// Refuses a table for another board than the one a command needs.
pub(crate) fn require_board(table: &MappedTable, board: Board) -> Result<()> {
    if table.board() != board {
        bail!(
            "table {} is for {} boards, but {board} is needed here (make one with \
             `slidetable generate --board {board} -o PATH`)",
            name(table),
            table.board()
        );
    }
    Ok(())
}

/// Every state's distance from `goal` up to `upto`, when its section holds only residues
/// (2-bit entries, the 11- and 12-cell boards): recovered in one pass, with a progress bar
/// on a terminal; `None` when the entries hold the distances already. Pass the result to
/// `Goal::knowing` so whole-table questions read it instead of walking from each state.
pub(crate) fn known_distances(
    table: &MappedTable,
    goal: &Goal<'_>,
    upto: u32,
) -> Result<Option<Vec<u8>>> {
    let states = table.board().reachable_states();
    let bar = progress_bar(
        states,
        Work::States,
        format!("reading distances ({})", table.board()),
    );
    let known = goal
        .recover_distances(upto, &|n| bar.inc(n))
        .with_context(|| format!("table {}", name(table)))?;
    bar.finish_and_clear();
    Ok(known)
}

/// Generates `plan` and writes it to `path` (whose directory must exist), replacing any old
/// file atomically; Ctrl-C, SIGTERM or SIGHUP meanwhile removes the temporary file. Long runs
/// show a progress bar on stderr when it is a terminal.
pub(crate) fn generate(plan: &Plan, path: &Path) -> Result<Generated> {
    signals::clean_up_on_signals();
    let bar = progress_bar(
        plan.total_states(),
        Work::States,
        format!("generating {}", plan.board),
    );
    let done = slidetable_gen::cache::generate(plan, path, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    if let Some(e) = &done.owner_not_kept {
        warning!(
            "{} replaced, but it now belongs to you: its owner could not be kept ({e})",
            path.display()
        );
    }
    Ok(done)
}

/// Generates `plan` and writes the table to `out` (`generate -o -`).
pub(crate) fn generate_to(plan: &Plan, out: &mut impl Write) -> Result<Generated> {
    let start = Instant::now();
    slidetable_gen::room::check_room(plan, None)?;
    let sections = solve_plan(plan)?;
    let bytes = table_bytes(plan.board, &sections)?;
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(Generated {
        states: plan.board.reachable_states(),
        sections: sections.len(),
        bytes: bytes.len() as u64,
        elapsed: start.elapsed(),
        owner_not_kept: None,
    })
}

/// Every section of `plan`, with a progress bar for long runs.
fn solve_plan(plan: &Plan) -> Result<Vec<SolvedSection>> {
    let bar = progress_bar(
        plan.total_states(),
        Work::States,
        format!("generating {}", plan.board),
    );
    let sections = solve(&plan.goals, plan.encoding, plan.cost, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(sections)
}

/// What a progress bar counts, and how much of it earns a bar.
#[derive(Clone, Copy)]
pub(crate) enum Work {
    /// States of a table's search (a bar from 20 million on: a few seconds).
    States,
    /// Placements of a pattern database's searches (a bar from 5 million on).
    Placements,
}

impl Work {
    fn least(self) -> u64 {
        match self {
            Work::States => 20_000_000,
            Work::Placements => 5_000_000,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Work::States => "states",
            Work::Placements => "placements",
        }
    }
}

/// The one progress bar every long run shows on stderr, over `total` units of `work`: for
/// runs of at least [`Work::least`] of them, and only when stderr is a terminal (hidden
/// otherwise). Its ETA appears once it means something (see [`eta_text`]).
pub(crate) fn progress_bar(total: u64, work: Work, message: String) -> ProgressBar {
    if total < work.least() || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{msg}} [{{bar:40}}] {{percent:>3}}% {{human_pos}}/{{human_len}} {}, {{elapsed}}{{eta_known}}",
            work.name()
        ))
        .expect("a valid template")
        .with_key(
            "eta_known",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                if let Some(text) = eta_text(state.elapsed(), state.fraction(), state.eta()) {
                    let _ = write!(w, "{text}");
                }
            },
        )
        .progress_chars("=> "),
    );
    bar.set_message(message);
    bar
}

/// The ETA shown beside a progress bar, once it means something: a breadth-first search
/// settles few states in its first layers and most in the last ones, so a rate taken early
/// predicts weeks for a run of seconds. Shown only after a second and a fifth of the work.
fn eta_text(elapsed: Duration, fraction: f32, eta: Duration) -> Option<String> {
    (elapsed >= Duration::from_secs(1) && fraction >= 0.2)
        .then(|| format!(" (eta {})", HumanDuration(eta)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_waits_until_it_means_something() {
        let s = Duration::from_secs;
        // The start of a 5-second generation: a few states in a tenth of a second.
        assert_eq!(
            eta_text(Duration::from_millis(100), 0.0001, s(9_000_000)),
            None
        );
        assert_eq!(eta_text(s(2), 0.05, s(600)), None);
        assert_eq!(eta_text(Duration::from_millis(500), 0.5, s(1)), None);
        assert_eq!(
            eta_text(s(2), 0.5, s(2)).as_deref(),
            Some(" (eta 2 seconds)")
        );
    }
}
