//! Where tables live, and making one: the rule is `slidetable_gen::cache`'s; this adds the
//! note and the progress bar a terminal user sees.

use std::io::{self, IsTerminal};
use std::path::Path;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use slidetable_core::{Board, Layout};
use slidetable_query::{CostModel, MappedTable, Table};

use crate::cli::TargetArgs;
use crate::puzzles::parse_goal;

pub(crate) use slidetable_gen::cache::{resolve, Generated, Origin, Plan};

/// Opens the table for a query command: `--table`, `$SLIDETABLE_TABLE`, or the cache's table
/// for `board`, generated on first use. A named table may be for any board.
pub(crate) fn open_for_query(explicit: Option<&Path>, board: Board) -> Result<MappedTable> {
    let (path, origin) = resolve(explicit, board)?;
    if slidetable_gen::cache::needs_generating(&path, origin) {
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

/// Refuses a weighted table where move counts are asked for (the judges' problems).
pub(crate) fn require_unit_cost(table: &MappedTable) -> Result<()> {
    if table.header().cost() != CostModel::Unit {
        bail!(
            "table {} holds {} costs, but the judges count moves (use a --cost unit table)",
            name(table),
            table.header().cost()
        );
    }
    Ok(())
}

/// Runs that settle more states than this get a progress bar (when stderr is a terminal).
const PROGRESS_STATES: u64 = 20_000_000;

/// Generates `plan` and writes it to `path` (creating its directory), replacing any old file
/// atomically. Long runs show a progress bar on stderr when it is a terminal.
pub(crate) fn generate(plan: &Plan, path: &Path) -> Result<Generated> {
    let total = plan.total_states();
    let bar = if total >= PROGRESS_STATES && io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {percent:>3}% {human_pos}/{human_len} states, {elapsed} (eta {eta})",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_message(format!("generating {}", plan.board));
        bar
    } else {
        ProgressBar::hidden()
    };
    let done = slidetable_gen::cache::generate(plan, path, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(done)
}
