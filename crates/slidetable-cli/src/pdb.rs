//! The 15-puzzle's tables: pattern databases (`generate --board 4x4 [--pdb 7-8]`) and the
//! `distance` / `path` answers found with them by IDA*.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use slidetable_core::{parse_layout, Board, Layout};
use slidetable_gen::{partition_placements, solve_partition, write_pattern_table, Partition};

use crate::cli::GenerateArgs;
use crate::{tables, UsageError};

/// The partition a 4×4 database has unless told otherwise.
pub const DEFAULT_PARTITION: &str = "7-8";

/// The goal a pattern database is made for unless told otherwise: the blank in the first
/// cell, as in Korf's instances. One database serves the goals with the blank in any
/// corner, through the board's symmetries.
pub fn default_goal(board: Board) -> Layout {
    board.goal_with_blank(0)
}

/// What making a pattern database did.
pub struct Made {
    pub groups: usize,
    pub placements: u64,
    pub bytes: u64,
    pub elapsed: Duration,
}

/// Solves `partition` towards `goal` and writes the database to `path` (creating its
/// directory), with a progress bar on a terminal.
pub fn make(goal: &Layout, partition: &Partition, path: &Path) -> Result<Made> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let start = Instant::now();
    let total = partition_placements(goal.board(), partition);
    let bar = if total >= 5_000_000 && io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {percent:>3}% {human_pos}/{human_len} placements, {elapsed} (eta {eta})",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_message(format!("generating {} {}", goal.board(), partition.sizes()));
        bar
    } else {
        ProgressBar::hidden()
    };
    let sections = solve_partition(goal, partition, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    let bytes = write_pattern_table(path, &sections)?;
    Ok(Made {
        groups: sections.len(),
        placements: total,
        bytes,
        elapsed: start.elapsed(),
    })
}

/// `generate --pdb PARTITION` (or `generate --board 4x4`).
pub fn generate(args: &GenerateArgs) -> Result<ExitCode> {
    let board = args.board;
    if args.all_goals || args.goal.len() > 1 {
        return Err(
            UsageError("a pattern database has one goal: give at most one --goal".into()).into(),
        );
    }
    if args.encoding.is_some() || args.cost != slidetable_query::CostModel::Unit {
        return Err(UsageError(
            "a pattern database has its own encoding and unit costs: drop --encoding and --cost"
                .into(),
        )
        .into());
    }
    let goal = match args.goal.first() {
        Some(text) => parse_layout(board, text.as_bytes())
            .map_err(|e| UsageError(format!("--goal '{text}': {e}")))?,
        None => default_goal(board),
    };
    let text = args.pdb.as_deref().unwrap_or(DEFAULT_PARTITION);
    let partition = Partition::parse(text, &goal).map_err(|e| UsageError(format!("--pdb: {e}")))?;
    let path: PathBuf = match &args.output {
        Some(p) => p.clone(),
        None if board.supports_tables() => {
            return Err(UsageError(format!(
                "a pattern database for {board} is not the board's default table: name its \
                 file with -o PATH"
            ))
            .into())
        }
        None => tables::resolve(None, board)?.0,
    };
    let made = make(&goal, &partition, &path)?;
    let mut out = io::stdout().lock();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board {board}: pattern database {} ({} groups, {} placements), goal {goal}, {} bytes",
        partition.sizes(),
        made.groups,
        made.placements,
        made.bytes
    )?;
    writeln!(out, "took {:.1} ms", made.elapsed.as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
