//! Where tables live, opening the one a command names, and making one.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use slidetable_core::{Board, Layout};
use slidetable_gen::{default_goals, solve, table_bytes, write_table, Section};
use slidetable_query::{CostModel, Encoding, Goal, MappedTable, Table};

use crate::cli::TargetArgs;
use crate::puzzles::parse_goal;

/// The environment variable naming the default table.
pub(crate) const TABLE_ENV: &str = "SLIDETABLE_TABLE";

/// Where a table path came from: only the cache default is generated on first use.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    Argument,
    Environment,
    Cache,
}

/// The table to use: `--table`, else `$SLIDETABLE_TABLE` (which names the default 3×3
/// table), else `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else
/// `~/.cache`).
pub(crate) fn resolve(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin)> {
    if let Some(p) = explicit {
        return Ok((p.to_path_buf(), Origin::Argument));
    }
    if let Some(p) = std::env::var_os(TABLE_ENV).filter(|v| !v.is_empty() && board == Board::EIGHT)
    {
        return Ok((PathBuf::from(p), Origin::Environment));
    }
    Ok((
        cache_dir()?.join(format!("slidetable/{board}.slt")),
        Origin::Cache,
    ))
}

fn cache_dir() -> Result<PathBuf> {
    // XDG: a relative $XDG_CACHE_HOME is invalid and must be ignored.
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        if p.is_absolute() {
            return Ok(p);
        }
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache")),
        None => bail!(
            "no cache directory: set XDG_CACHE_HOME or HOME, or name a table with --table or {TABLE_ENV}"
        ),
    }
}

/// Opens the table for a query command: `--table`, `$SLIDETABLE_TABLE`, or the cache's table
/// for `board`, generated on first use. A named table may be for any board.
pub(crate) fn open_for_query(explicit: Option<&Path>, board: Board) -> Result<MappedTable> {
    let (path, origin) = resolve(explicit, board)?;
    if origin == Origin::Cache && !path.exists() {
        eprintln!(
            "slidetable: no table at {}; generating it once (this takes {})",
            path.display(),
            if board.cells() > 10 {
                "a while and a few hundred MB of memory"
            } else {
                "a moment"
            }
        );
        generate(&Plan::default_for(board), &path)?;
    }
    Ok(Table::open(&path)?)
}

/// Opens the table a query command names: `--table` (whose board it is; `--board`, if also
/// given, must agree), else the default table of `--board` (3x3 when neither is given).
pub(crate) fn open_for_board(explicit: Option<&Path>, board: Option<Board>) -> Result<MappedTable> {
    let table = open_for_query(explicit, board.unwrap_or(Board::EIGHT))?;
    if let Some(board) = board {
        require_board(&table, board)?;
    }
    Ok(table)
}

/// The table `target` names (resolved as for `distance`) and its goal layout.
pub(crate) fn open_target(target: &TargetArgs) -> Result<(MappedTable, Layout)> {
    let table = open_for_board(target.table.as_deref(), target.board)?;
    let goal = match &target.goal {
        None => table.board().standard_goal(),
        Some(text) => parse_goal(table.board(), text)?,
    };
    Ok((table, goal))
}

/// The name a table is shown by in messages and reports: its file.
pub(crate) fn name(table: &MappedTable) -> String {
    table
        .file_path()
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

/// Refuses a weighted table where move counts are asked for (the judges' problems).
pub(crate) fn require_unit_cost(table: &MappedTable) -> Result<()> {
    if table.header().cost != CostModel::Unit {
        bail!(
            "table {} holds {} costs, but the judges count moves (use a --cost unit table)",
            name(table),
            table.header().cost
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
    let bar = progress_bar(states, format!("reading distances ({})", table.board()));
    let known = goal
        .recover_distances(upto, &|n| bar.inc(n))
        .with_context(|| format!("table {}", name(table)))?;
    bar.finish_and_clear();
    Ok(known)
}

/// What `generate` did.
pub(crate) struct Generated {
    pub(crate) states: u64,
    pub(crate) sections: usize,
    pub(crate) bytes: u64,
    pub(crate) elapsed: Duration,
}

/// What to generate: the goals, the entry encoding (`None`: the board's default) and what a
/// move costs.
pub(crate) struct Plan {
    pub(crate) board: Board,
    pub(crate) goals: Vec<Layout>,
    pub(crate) encoding: Option<Encoding>,
    pub(crate) cost: CostModel,
}

impl Plan {
    /// The default table of `board`: one section per blank cell up to 10 cells, the standard
    /// goal for 11 and 12; unit costs; the board's default encoding.
    pub(crate) fn default_for(board: Board) -> Plan {
        Plan {
            board,
            goals: default_goals(board),
            encoding: None,
            cost: CostModel::Unit,
        }
    }
}

/// Runs that settle more states than this get a progress bar (when stderr is a terminal).
const PROGRESS_STATES: u64 = 20_000_000;

/// Generates `plan` and writes it to `path` (creating its directory), replacing any old file
/// atomically. Long runs show a progress bar on stderr when it is a terminal.
pub(crate) fn generate(plan: &Plan, path: &Path) -> Result<Generated> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let start = Instant::now();
    let sections = solve_plan(plan)?;
    let bytes = write_table(path, plan.board, &sections)?;
    Ok(Generated {
        states: plan.board.reachable_states(),
        sections: sections.len(),
        bytes,
        elapsed: start.elapsed(),
    })
}

/// Generates `plan` and writes the table to `out` (`generate -o -`).
pub(crate) fn generate_to(plan: &Plan, out: &mut impl Write) -> Result<Generated> {
    let start = Instant::now();
    let sections = solve_plan(plan)?;
    let bytes = table_bytes(plan.board, &sections)?;
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(Generated {
        states: plan.board.reachable_states(),
        sections: sections.len(),
        bytes: bytes.len() as u64,
        elapsed: start.elapsed(),
    })
}

/// Every section of `plan`, with a progress bar for long runs.
fn solve_plan(plan: &Plan) -> Result<Vec<Section>> {
    let total = plan.board.reachable_states() * plan.goals.len() as u64;
    let bar = progress_bar(total, format!("generating {}", plan.board));
    let sections = solve(&plan.goals, plan.encoding, plan.cost, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(sections)
}

/// A progress bar on stderr over `total` states, for runs that settle at least
/// [`PROGRESS_STATES`] of them, and only when stderr is a terminal (hidden otherwise). Its
/// ETA appears once it means something (see [`eta_text`]).
pub(crate) fn progress_bar(total: u64, message: String) -> ProgressBar {
    if total < PROGRESS_STATES || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:40}] {percent:>3}% {human_pos}/{human_len} states, {elapsed}{eta_known}",
        )
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
