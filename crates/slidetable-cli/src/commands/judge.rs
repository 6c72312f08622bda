//! `judge FORMAT`: open the table and the input, let `slidetable-judge` answer (or, with
//! `--check`, judge another program's output), and turn what stopped it into a message and an
//! exit code.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use slidetable::core::{Layout, Move};
use slidetable::judge::{
    check, check_fifteen, judge, judge_fifteen, Format, JudgeError, Outcome, Standard, Verdict,
};
use slidetable::query::{MappedPatternTable, MappedTable};
use slidetable::search::{Limits, SearchError};

use crate::error::EXIT_BAD_INPUT;
use crate::input::{self, Input};
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

/// Exit code of `--check` for a Presentation Error: every case right but for whitespace.
const EXIT_PRESENTATION: u8 = 3;

/// A format answered (or, with `--check`, judged) from `table`, a table of every state.
fn with_table(format: Format, table: &MappedTable, io: JudgeFiles<'_>) -> Result<ExitCode> {
    // Streamed, a line at a time: memory does not grow with the input.
    let input = input::open(io.input)?;
    let name = input.name;
    let theirs = their_output(&io)?;
    let their_name = theirs.as_ref().map(|t| t.name.clone());
    let mut out = streams::stdout();
    let result = match theirs {
        None => judge(format, input.reader, table, &mut out).map(|()| None),
        Some(theirs) => check(
            format,
            input.reader,
            theirs.reader,
            table,
            standard(&io),
            &mut out,
        )
        .map(Some),
    };
    out.flush()?;
    if let Err(JudgeError::NotMoveCounts { cost }) = result {
        bail!(
            "table {} holds {cost} costs, but the judges count moves (use a --cost unit table)",
            tables::name(table)
        );
    }
    // A question the table cannot answer (a goal it has no section for, entries that
    // contradict each other) names the table, as every other command's refusal does.
    if let Err(JudgeError::Query(e)) = result {
        return Err(anyhow::Error::new(e).context(format!("table {}", tables::name(table))));
    }
    outcome(format, &name, their_name.as_deref(), result)
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

/// The output `--check` judges (`-`: standard input), opened to be streamed, if given.
fn their_output(io: &JudgeFiles<'_>) -> Result<Option<Input>> {
    io.check.map(|path| input::open(Some(path))).transpose()
}

/// What `--check` asks of a path: the site's rule, or `--strict`'s optimal paths.
fn standard(io: &JudgeFiles<'_>) -> Standard {
    if io.strict {
        Standard::Optimal
    } else {
        Standard::Site
    }
}

/// The exit code of a judge run (with `--check`, by the verdict: 0 Accepted, 3 Presentation
/// Error, 1 any other), or its error: bad input is reported here. `name` is the input's,
/// `their_name` the checked output's.
fn outcome(
    format: Format,
    name: &str,
    their_name: Option<&str>,
    result: Result<Option<Verdict>, JudgeError>,
) -> Result<ExitCode> {
    match result {
        Ok(None) => Ok(ExitCode::SUCCESS),
        Ok(Some(verdict)) => Ok(match verdict.outcome {
            Outcome::Accepted => ExitCode::SUCCESS,
            Outcome::PresentationError => ExitCode::from(EXIT_PRESENTATION),
            _ => ExitCode::FAILURE,
        }),
        Err(JudgeError::Io(e)) => Err(e.into()),
        Err(JudgeError::Read(e)) => {
            Err(anyhow::Error::new(e).context(format!("cannot read {name}")))
        }
        Err(JudgeError::Output(e)) => Err(anyhow::Error::new(e).context(format!(
            "cannot read {}",
            their_name.unwrap_or("the output to check")
        ))),
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
    let theirs = their_output(&io)?;
    let their_name = theirs.as_ref().map(|t| t.name.clone());
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
    let result = match theirs {
        None => judge_fifteen(format, input.reader, &mut solve, &mut out).map(|()| None),
        Some(theirs) => check_fifteen(
            format,
            input.reader,
            theirs.reader,
            &mut solve,
            standard(&io),
            &mut out,
        )
        .map(Some),
    };
    out.flush()?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    outcome(format, &name, their_name.as_deref(), result)
}
