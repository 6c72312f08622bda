//! `judge FORMAT`: open the table and the input, let `slidetable-judge` answer, and turn
//! what stopped it into a message and an exit code.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use slidetable_core::{Layout, Move};
use slidetable_judge::{judge, judge_fifteen, Format, JudgeError};
use slidetable_search::{Limits, SearchError};

use crate::cli::JudgeArgs;
use crate::error::EXIT_BAD_INPUT;
use crate::input;
use crate::streams;
use crate::streams::warning;
use crate::{patterns, tables};

pub(crate) fn run(args: &JudgeArgs) -> Result<ExitCode> {
    if matches!(args.format, Format::Uva10181 | Format::Lightoj1121) {
        return fifteen(args);
    }
    let board = args.format.board();
    let table = tables::open_for_query(args.table.as_deref(), board)?;
    tables::require_board(&table, board)?;
    // Streamed, a line at a time: memory does not grow with the input.
    let input = input::open(args.input.as_deref())?;
    let name = input.name;
    let mut out = streams::stdout();
    let result = judge(args.format, input.reader, &table, &mut out);
    out.flush()?;
    if let Err(JudgeError::NotMoveCounts { cost }) = result {
        bail!(
            "table {} holds {cost} costs, but the judges count moves (use a --cost unit table)",
            tables::name(&table)
        );
    }
    outcome(args, &name, result)
}

/// The exit code of a judge run, or its error: bad input is reported here.
fn outcome(args: &JudgeArgs, name: &str, result: Result<(), JudgeError>) -> Result<ExitCode> {
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(JudgeError::Io(e)) => Err(e.into()),
        Err(JudgeError::Read(e)) => {
            Err(anyhow::Error::new(e).context(format!("cannot read {name}")))
        }
        Err(JudgeError::Query(e)) => Err(e.into()),
        Err(JudgeError::Bad { line, what }) => {
            warning!("judge {}: {name}: line {line}: {what}", args.format.name());
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
        Err(e) => Err(e.into()),
    }
}

/// `judge uva10181` and `judge lightoj1121`: the 15-puzzle judges, answered by IDA* on the
/// pattern database named by `--table` or the cache's `4x4.slt`, the input streamed as for
/// every other format.
fn fifteen(args: &JudgeArgs) -> Result<ExitCode> {
    let board = args.format.board();
    let table = patterns::open(args.table.as_deref(), board)?;
    let solver = patterns::solver(&table, &board.standard_goal())?;
    let input = input::open(args.input.as_deref())?;
    let name = input.name;
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
    let result = judge_fifteen(args.format, input.reader, &mut solve, &mut out);
    out.flush()?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    outcome(args, &name, result)
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use slidetable_judge::Format;

    #[test]
    fn the_command_line_names_every_format_as_the_library_does() {
        let names: Vec<String> = Format::value_variants()
            .iter()
            .map(|f| f.to_possible_value().unwrap().get_name().to_string())
            .collect();
        let ours: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names, ours);
    }
}
