//! `judge FORMAT`: open the table and the input, let `slidetable-judge` answer, and turn
//! what stopped it into a message and an exit code.

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable_judge::{judge, JudgeError};

pub use slidetable_judge::Format;

use crate::cli::JudgeArgs;
use crate::{tables, EXIT_BAD_INPUT};

pub fn run(args: &JudgeArgs) -> Result<ExitCode> {
    if matches!(args.format, Format::Uva10181 | Format::Lightoj1121) {
        return crate::pdb::judge(args);
    }
    let board = args.format.board();
    let table = tables::open_for_query(args.table.as_deref(), board)?;
    tables::require_board(&table, board)?;
    tables::require_unit_cost(&table)?;
    let mut data = Vec::new();
    let name = match args.input.as_deref() {
        None => "<stdin>".to_string(),
        Some(p) if p.as_os_str() == "-" => "<stdin>".to_string(),
        Some(p) => p.display().to_string(),
    };
    if name == "<stdin>" {
        io::stdin().lock().read_to_end(&mut data)
    } else {
        std::fs::File::open(args.input.as_deref().expect("named"))
            .and_then(|mut f| f.read_to_end(&mut data))
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

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::Format;

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
