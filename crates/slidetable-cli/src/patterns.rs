//! The 15-puzzle's tables, shared by the commands that use them: making a pattern database,
//! the search crate's IDA* on one for the goal asked for ([`Symmetric`]), the `distance` /
//! `path` answers found with it, and the `pdb` / `pdb-PARTITION` heuristics of `search` and
//! `heuristic` (the databases themselves are found, opened or built with the arguments, in
//! `resolved`).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable::core::{Layout, Move};
use slidetable::generate::{Generated, PatternPlan};
use slidetable::query::MappedPatternTable;
use slidetable::search::Symmetric;
use slidetable::{Fifteen, FifteenError};

use crate::answers::{self, write_csv_header, write_invalid_answer};
use crate::error::UsageError;
use crate::puzzles::each_chunk;
use crate::resolved::{Answer, Batch, Output, PatternSource};
use crate::signals;
use crate::streams;
use crate::tables::{self, BarUnit};

/// Solves `plan` and writes the database to `path`, whose directory must exist (the cache's
/// is made by its lock, as for tables), with a progress bar on a terminal.
pub(crate) fn make(plan: &PatternPlan, path: &Path) -> Result<Generated> {
    signals::clean_up_on_signals();
    let bar = tables::progress_bar(
        plan.total_placements(),
        BarUnit::Placements,
        format!(
            "generating {} {}",
            plan.goal.board(),
            plan.partition.sizes()
        ),
    );
    let made = slidetable::generate::generate_patterns(plan, path, &|n| bar.inc(n));
    bar.finish_and_clear();
    Ok(made?)
}

/// IDA* on the database `table` for `goal` (blank in a cell some symmetry carries onto the
/// database goal's blank cell: any corner for the default database), as the library opens it;
/// a goal it cannot serve is a bad argument.
pub(crate) fn solver<'t>(table: &'t MappedPatternTable, goal: &Layout) -> Result<Symmetric<'t>> {
    Fifteen::solver_on(table, goal).map_err(usage)
}

/// The library's refusal of a goal as a bad argument (exit 2); any other failure as it is.
fn usage(e: FifteenError) -> anyhow::Error {
    match e {
        FifteenError::Goal { .. } => UsageError(e.to_string()).into(),
        e => e.into(),
    }
}

/// `distance` and `path` on a pattern database: the same output, `--json`, `--csv`, `--show`,
/// several inputs, `--keep-going` and exit codes as on a table, the puzzles of each chunk
/// solved on every core and answered in input order.
pub(crate) fn batch(table: &MappedPatternTable, batch: &Batch<'_>) -> Result<ExitCode> {
    let (answer, output) = (batch.answer, batch.output);
    let board = table.board();
    let goal = batch.goal.unwrap_or_else(|| board.standard_goal());
    let solver = solver(table, &goal)?;
    let order = match answer {
        Answer::OrderedPath(order) => order,
        _ => Move::ALL,
    };
    let context = || match table.file() {
        Some(p) => format!("table {}", p.display()),
        None => "table".to_string(),
    };
    let mut out = streams::stdout();
    if output == Output::Csv {
        write_csv_header(&mut out, answer, crate::json::Measure::Distance)?;
    }
    let mut text = Vec::new();
    let mut answered = 0;
    each_chunk(
        batch.input,
        board,
        batch.keep_going,
        &mut out,
        |layouts| Ok(solver.solve_each(layouts, order)),
        |layout, path, line, out| {
            // A search's failure (a damaged database it finds) ends the run at its line.
            let path = path.with_context(|| format!("{line}: {}", context()))?;
            text.clear();
            answered += 1;
            let value = path.as_ref().map(|p| p.len() as u32);
            answers::write(
                &mut text,
                answered,
                layout,
                answer,
                output,
                value,
                path.as_deref(),
                false,
            );
            out.write_all(&text)?;
            Ok(())
        },
        |line, what, out| write_invalid_answer(out, answer, output, line, what),
    )
}

impl PatternSource {
    /// The heuristic (and IDA*) towards `goal`: databases made for it, or a file's through
    /// the board symmetry that carries `goal` onto its goal.
    pub(crate) fn heuristic(&self, goal: &Layout) -> Result<Symmetric<'_>> {
        self.0.solver(goal).map_err(usage)
    }
}
