//! `judge FORMAT`: open the table and the input, let `slidetable-judge` answer (or, with
//! `--check`, judge another program's output), and turn what stopped it into a message and an
//! exit code.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use slidetable_core::{Layout, Move};
use slidetable_judge::{check, check_fifteen, judge, judge_fifteen, Format, JudgeError};
use slidetable_query::{MappedPatternTable, MappedTable};
use slidetable_search::{Limits, SearchError};

use crate::error::EXIT_BAD_INPUT;
use crate::input;
use crate::resolved::{JudgeFiles, Judgement};
use crate::streams;
use crate::streams::warning;
use crate::{patterns, tables};

pub(crate) fn run(judgement: Judgement<'_>) -> Result<ExitCode> {
    match judgement {
        Judgement::List => list(),
        Judgement::Table { format, table, io } => with_table(format, &table, io),
        Judgement::Fifteen { format, table, io } => fifteen(format, &table, io),
    }
}

/// A format answered (or, with `--check`, judged) from `table`, a table of every state.
fn with_table(format: Format, table: &MappedTable, io: JudgeFiles<'_>) -> Result<ExitCode> {
    // Streamed, a line at a time: memory does not grow with the input.
    let input = input::open(io.input)?;
    let name = input.name;
    let theirs = their_output(io.check)?;
    let mut out = streams::stdout();
    let result = match &theirs {
        None => judge(format, input.reader, table, &mut out).map(|()| true),
        Some(theirs) => check(format, input.reader, theirs, table, &mut out)
            .map(|verdict| verdict.all_accepted()),
    };
    out.flush()?;
    if let Err(JudgeError::NotMoveCounts { cost }) = result {
        bail!(
            "table {} holds {cost} costs, but the judges count moves (use a --cost unit table)",
            tables::name(table)
        );
    }
    outcome(format, &name, result)
}

/// `judge --list`: every judge, one per line, in columns.
fn list() -> Result<ExitCode> {
    let mut rows = vec![[
        "NAME".to_string(),
        "ALIASES".to_string(),
        "PROBLEM".to_string(),
        "PRINTS".to_string(),
        "THE SITE ACCEPTS".to_string(),
    ]];
    for f in Format::ALL {
        rows.push([
            f.name().to_string(),
            if f.aliases().is_empty() {
                "-".to_string()
            } else {
                f.aliases().join(",")
            },
            f.problem().to_string(),
            f.prints().to_string(),
            f.accepts().to_string(),
        ]);
    }
    let mut widths = [0; 5];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = streams::stdout();
    for row in &rows {
        let mut line = String::new();
        for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
            if i + 1 == row.len() {
                line += cell;
            } else {
                line += &format!("{cell:<w$}  ");
            }
        }
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The output `--check` judges, read whole (a program's answers to one input), if given.
fn their_output(path: Option<&Path>) -> Result<Option<Vec<u8>>> {
    path.map(|path| std::fs::read(path).with_context(|| format!("cannot read {}", path.display())))
        .transpose()
}

/// The exit code of a judge run (with `--check`: 0 only when every case is accepted), or its
/// error: bad input is reported here.
fn outcome(format: Format, name: &str, result: Result<bool, JudgeError>) -> Result<ExitCode> {
    match result {
        Ok(true) => Ok(ExitCode::SUCCESS),
        Ok(false) => Ok(ExitCode::FAILURE),
        Err(JudgeError::Io(e)) => Err(e.into()),
        Err(JudgeError::Read(e)) => {
            Err(anyhow::Error::new(e).context(format!("cannot read {name}")))
        }
        Err(JudgeError::Query(e)) => Err(e.into()),
        Err(JudgeError::Bad { line, what }) => {
            warning!("judge {}: {name}: line {line}: {what}", format.name());
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
        Err(e) => Err(e.into()),
    }
}

/// `judge uva10181` and `judge lightoj1121`: the 15-puzzle judges, answered by IDA* on the
/// pattern database `table` (`--table`, or the cache's `4x4.slt`), the input streamed as for
/// every other format.
fn fifteen(format: Format, table: &MappedPatternTable, io: JudgeFiles<'_>) -> Result<ExitCode> {
    let board = format.board();
    let solver = patterns::solver(table, &board.standard_goal())?;
    let input = input::open(io.input)?;
    let name = input.name;
    let theirs = their_output(io.check)?;
    let mut out = streams::stdout();
    let mut failure = None;
    let mut solve = |start: &Layout, order: [Move; 4], most: u32| match solver.solve_within(
        start,
        order,
        &Limits::default(),
        most,
    ) {
        Ok(found) => found.map(|s| s.path),
        Err(SearchError::Unsolvable { .. }) => None,
        Err(e) => {
            failure.get_or_insert(e);
            None
        }
    };
    let result = match &theirs {
        None => judge_fifteen(format, input.reader, &mut solve, &mut out).map(|()| true),
        Some(theirs) => check_fifteen(format, input.reader, theirs, &mut solve, &mut out)
            .map(|verdict| verdict.all_accepted()),
    };
    out.flush()?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    outcome(format, &name, result)
}
