//! `judge FORMAT`: open the table and the input, let `slidetable-judge` answer, and turn
//! what stopped it into a message and an exit code.

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable_core::{Layout, Move};
use slidetable_judge::{judge, judge_fifteen, Format, JudgeError};

use crate::cli::JudgeArgs;
use crate::error::EXIT_BAD_INPUT;
use crate::input;
use crate::{patterns, tables};

pub(crate) fn run(args: &JudgeArgs) -> Result<ExitCode> {
    if matches!(args.format, Format::Uva10181 | Format::Lightoj1121) {
        return fifteen(args);
    }
    let board = args.format.board();
    let table = tables::open_for_query(args.table.as_deref(), board)?;
    tables::require_board(&table, board)?;
    tables::require_unit_cost(&table)?;
    let mut data = Vec::new();
    let name = input::name(args.input.as_deref());
    match input::file(args.input.as_deref()) {
        None => io::stdin().lock().read_to_end(&mut data),
        Some(path) => std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut data)),
    }
    .with_context(|| format!("cannot read {name}"))?;

    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = judge(args.format, &data, &table, &mut out);
    out.flush()?;
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(JudgeError::Io(e)) => Err(e.into()),
        Err(JudgeError::Query(e)) => Err(e.into()),
        Err(JudgeError::Bad { line, what }) => {
            eprintln!(
                "slidetable: judge {}: {name}: line {line}: {what}",
                args.format.name()
            );
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}

/// `judge uva10181` and `judge lightoj1121`: the 15-puzzle judges, answered by IDA* on the
/// pattern database named by `--table` or the cache's `4x4.slt`.
fn fifteen(args: &JudgeArgs) -> Result<ExitCode> {
    let board = args.format.board();
    let table = patterns::open(args.table.as_deref(), board)?;
    let solver = patterns::Solver::new(&table, &board.standard_goal())?;
    let mut data = Vec::new();
    let name = input::name(args.input.as_deref());
    match input::file(args.input.as_deref()) {
        None => io::stdin().lock().read_to_end(&mut data),
        Some(path) => std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut data)),
    }
    .with_context(|| format!("cannot read {name}"))?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut failure = None;
    let mut solve = |start: &Layout, order: [Move; 4], most: u32| {
        let mut path = Vec::new();
        match solver.path_within(start, order, most, &mut path) {
            Ok(true) => Some(path),
            Ok(false) => None,
            Err(e) => {
                failure.get_or_insert(e);
                None
            }
        }
    };
    let result = judge_fifteen(args.format, &data, &mut solve, &mut out);
    out.flush()?;
    if let Some(e) = failure {
        return Err(e);
    }
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(JudgeError::Io(e)) => Err(e.into()),
        Err(JudgeError::Query(e)) => Err(e.into()),
        Err(JudgeError::Bad { line, what }) => {
            eprintln!(
                "slidetable: judge {}: {name}: line {line}: {what}",
                args.format.name()
            );
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
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
