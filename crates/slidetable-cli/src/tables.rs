//! Where tables live, and making one: the rule is `slidetable::defaults`'; this adds the
//! note and the progress bar a terminal user sees (`resolved` opens what it finds).

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use slidetable::core::{Board, Layout};
use slidetable::defaults::FIRST_USE_PARTITION;
use slidetable::defaults::{self, Kind};
use slidetable::generate::engine::{solve, table_bytes, SolvedSection};
use slidetable::generate::resume::{Pace, Resumed, Run, RunEvent};
use slidetable::query::{Goal, MappedTable};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use crate::signals;
use crate::streams::warning;

pub(crate) use slidetable::defaults::{resolve, Origin};
pub(crate) use slidetable::generate::{Generated, Plan};

/// What a terminal user sees while a default table is found: a note when it waits for another
/// process or generates the table, and a progress bar while it generates a large one.
pub(crate) struct Shown {
    bar: OnceLock<ProgressBar>,
    /// Whether a generation makes SIGINT, SIGTERM and SIGHUP remove its temporary file and
    /// end the process: not beside a server, which stops gracefully on them (exit 0).
    cleans_up_on_signals: bool,
}

impl Shown {
    pub(crate) fn new() -> Shown {
        Shown {
            bar: OnceLock::new(),
            cleans_up_on_signals: true,
        }
    }

    /// For `serve`'s tables made before it listens: the note and the bar, and the server's
    /// own handling of its signals left as it is.
    pub(crate) fn beside_a_server() -> Shown {
        Shown {
            bar: OnceLock::new(),
            cleans_up_on_signals: false,
        }
    }
}

impl defaults::Watch for Shown {
    fn waiting(&self, path: &Path, lock: &Path) {
        warning!(
            "waiting for another slidetable to write {} (lock {})",
            path.display(),
            lock.display()
        );
    }

    fn generating(&self, path: &Path, board: Board, kind: Kind, total: u64) {
        if self.cleans_up_on_signals {
            signals::clean_up_on_signals();
        }
        warning!("{}", defaults::first_use_note(path, board, kind));
        let bar = match kind {
            Kind::Table => progress_bar(total, BarUnit::States, format!("generating {board}")),
            Kind::Pattern => progress_bar(
                total,
                BarUnit::Placements,
                format!("generating {board} {FIRST_USE_PARTITION}"),
            ),
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

/// `table`'s answers about `goal` (its standard goal for `None`). A goal no section answers
/// for is refused naming the table, as every other refusal of a question names it.
pub(crate) fn goal<'t>(table: &'t MappedTable, goal: Option<&Layout>) -> Result<Goal<'t>> {
    match goal {
        None => table.standard(),
        Some(goal) => table.goal(goal),
    }
    .with_context(|| format!("table {}", name(table)))
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
        BarUnit::States,
        format!("reading distances ({})", table.board()),
    );
    let known = goal
        .recover_distances(upto, &|n| bar.inc(n))
        .with_context(|| format!("table {}", name(table)))?;
    bar.finish_and_clear();
    Ok(known)
}

/// Generates `plan` and writes it to `path` (whose directory must exist), replacing any old
/// file atomically; Ctrl-C, SIGTERM or SIGHUP meanwhile removes the temporary file. A plan
/// whose search keeps checkpoints (2-bit entries) goes on from an interrupted run's last
/// checkpoint, and says so, unless `restart`. Long runs show a progress bar on stderr when it
/// is a terminal.
pub(crate) fn generate(plan: &Plan, path: &Path, restart: bool) -> Result<Generated> {
    signals::clean_up_on_signals();
    let base = Arc::new(AtomicU64::new(0));
    let bar = progress_bar_from(
        plan.total_states(),
        BarUnit::States,
        format!("generating {}", plan.board),
        Arc::clone(&base),
    );
    let events = |event: &RunEvent| {
        if let RunEvent::Resumed(r) = event {
            base.store(r.settled, Relaxed);
            bar.reset_elapsed();
        }
        bar.suspend(|| tell(event, plan.board, Some(plan.total_states())));
        ControlFlow::Continue(())
    };
    let run = Run {
        restart,
        pace: Pace::from_env()?,
        progress: &|n| bar.inc(n),
        events: &events,
    };
    let done = slidetable::generate::generate_resumable(plan, path, &run)?;
    bar.finish_and_clear();
    if let Some(e) = &done.owner_not_kept {
        warning!(
            "{} replaced, but it now belongs to you: its owner could not be kept ({e})",
            path.display()
        );
    }
    Ok(done)
}

/// What a one-process run that keeps checkpoints says of them (a table of every state, or
/// within D moves), on `board` of `total` states if known: a resumed run, a checkpoint
/// removed by --restart, one that could not be written.
pub(crate) fn tell(event: &RunEvent, board: slidetable::core::Board, total: Option<u64>) {
    match event {
        RunEvent::Resumed(r) => warning!("{}", resumed_text(board, total, r)),
        RunEvent::Restarted { checkpoint } => warning!(
            "--restart: removed the interrupted run's {}",
            checkpoint.display()
        ),
        RunEvent::Failed {
            checkpoint, error, ..
        } => warning!(
            "could not write a checkpoint ({}); the search goes on{}",
            error.as_deref().unwrap_or(""),
            if checkpoint.exists() {
                format!(
                    ", and {} stays the one to resume from",
                    checkpoint.display()
                )
            } else {
                String::new()
            }
        ),
        _ => {}
    }
}

/// "resuming 2x7 from level 41 (12345678901 of 43589145600 states settled) of a run
/// interrupted at 2026-11-25 15:02:11 UTC (process 1234); --restart starts over".
fn resumed_text(board: slidetable::core::Board, total: Option<u64>, r: &Resumed) -> String {
    let at = crate::utc::format_utc(r.saved);
    let section = if r.sections > 1 {
        format!(" of section {} of {}", r.section + 1, r.sections)
    } else {
        String::new()
    };
    let of = total.map_or_else(String::new, |t| format!(" of {t}"));
    format!(
        "resuming {board} from level {}{section} ({}{of} states settled) of a run interrupted \
         at {at} (process {}); --restart starts over",
        r.level, r.settled, r.pid
    )
}

/// Generates `plan` and writes the table to `out` (`generate -o -`).
pub(crate) fn generate_to(plan: &Plan, out: &mut impl Write) -> Result<Generated> {
    let start = Instant::now();
    slidetable::generate::room::check_room(plan, None)?;
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
        BarUnit::States,
        format!("generating {}", plan.board),
    );
    let sections = solve(&plan.goals, plan.encoding, plan.cost, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(sections)
}

/// What a progress bar counts, and how much of it earns a bar.
#[derive(Clone, Copy)]
pub(crate) enum BarUnit {
    /// States of a table's search (a bar from 20 million on: a few seconds).
    States,
    /// Placements of a pattern database's searches (a bar from 5 million on).
    Placements,
}

impl BarUnit {
    fn least(self) -> u64 {
        match self {
            BarUnit::States => 20_000_000,
            BarUnit::Placements => 5_000_000,
        }
    }

    fn name(self) -> &'static str {
        match self {
            BarUnit::States => "states",
            BarUnit::Placements => "placements",
        }
    }
}

/// The one progress bar every long run shows on stderr, over `total` units of `work`: for
/// runs of at least [`BarUnit::least`] of them, and only when stderr is a terminal (hidden
/// otherwise). Its ETA appears once it means something (see [`eta`]).
pub(crate) fn progress_bar(total: u64, work: BarUnit, message: String) -> ProgressBar {
    progress_bar_from(total, work, message, Arc::new(AtomicU64::new(0)))
}

/// [`progress_bar`], whose units up to `base` were done before it began (a resumed run's
/// settled states): the ETA counts only the work done since.
pub(crate) fn progress_bar_from(
    total: u64,
    work: BarUnit,
    message: String,
    base: Arc<AtomicU64>,
) -> ProgressBar {
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
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let left = eta(
                    state.elapsed(),
                    base.load(Relaxed),
                    state.pos(),
                    state.len().unwrap_or(0),
                );
                if let Some(left) = left {
                    let _ = write!(w, " (eta {})", HumanDuration(left));
                }
            },
        )
        .progress_chars("=> "),
    );
    bar.set_message(message);
    bar
}

/// The time left of a run that has done `done` of `total` units of work, `base` of them
/// before it began (a resumed run's), in `elapsed`: the mean time per unit done so far times
/// the units left. A breadth-first search settles each state once, and its levels grow and
/// shrink, so a rate taken over the last moments (what a progress bar's own ETA does) swings
/// from hours to seconds; the mean over every state so far does not. It waits until it means
/// something: 5 seconds and a tenth of the work (the first levels settle few states at the
/// cost of whole passes over the bitmap).
pub(crate) fn eta(elapsed: Duration, base: u64, done: u64, total: u64) -> Option<Duration> {
    let (done, total) = (done.saturating_sub(base), total.saturating_sub(base));
    if elapsed < Duration::from_secs(5) || done == 0 || done * 10 < total {
        return None;
    }
    let per_unit = elapsed.as_secs_f64() / done as f64;
    Some(Duration::from_secs_f64(per_unit * (total - done) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_is_the_mean_time_per_state_so_far_times_the_states_left() {
        let s = Duration::from_secs;
        // The start of a 5-second generation: a few states in a tenth of a second.
        assert_eq!(eta(Duration::from_millis(100), 0, 10, 1_000_000), None);
        // Less than a tenth of the work, or less than 5 seconds: nothing yet.
        assert_eq!(eta(s(60), 0, 99, 1000), None);
        assert_eq!(eta(s(4), 0, 500, 1000), None);
        // A tenth in 60 s: nine tenths left take 540 s.
        assert_eq!(eta(s(60), 0, 100, 1000), Some(s(540)));
        assert_eq!(
            eta(s(10), 0, 750, 1000),
            Some(Duration::from_secs_f64(10.0 / 3.0))
        );
        assert_eq!(eta(s(10), 0, 1000, 1000), Some(s(0)));
        // A resumed run counts what it did itself: 200 of 800 in 30 s, 600 left.
        assert_eq!(eta(s(30), 200, 400, 1000), Some(s(90)));
        assert_eq!(eta(s(30), 200, 200, 1000), None);
        // Levels that grow and shrink do not swing it: the same mean, the same answer.
        assert_eq!(
            eta(s(120), 0, 500, 1000),
            eta(s(240), 0, 500, 1000).map(|d| d / 2)
        );
    }
}
