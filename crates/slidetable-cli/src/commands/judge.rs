//! `judge FORMAT`: open the table and the input, let `slidetable-judge` answer, and turn
//! what stopped it into a message and an exit code.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use slidetable_judge::{judge, JudgeError};

use crate::cli::JudgeArgs;
use crate::error::EXIT_BAD_INPUT;
use crate::input;
use crate::streams;
use crate::streams::warning;
use crate::tables;

pub(crate) fn run(args: &JudgeArgs) -> Result<ExitCode> {
    let board = args.format.board();
    let table = tables::open_for_query(args.table.as_deref(), board)?;
    tables::require_board(&table, board)?;
    tables::require_unit_cost(&table)?;
    // Streamed, a line at a time: memory does not grow with the input.
    let input = input::open(args.input.as_deref())?;
    let name = input.name;
    let mut out = streams::stdout();
    let result = judge(args.format, input.reader, &table, &mut out);
    out.flush()?;
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
