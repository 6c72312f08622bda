//! `slidetable`: parse the command line, run the command, turn what stopped it into an exit
//! code. Each command lives in `commands/`; the work is done by the library crates.

mod answers;
mod cli;
mod commands;
mod error;
mod input;
mod json;
mod patterns;
mod puzzles;
mod show;
mod tables;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use crate::cli::{Cli, Command};
use crate::commands as run;
use crate::error::{is_broken_pipe, UsageError, EXIT_USAGE};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(&cli.command) {
        Ok(code) => code,
        // A closed stdout (`slidetable path big.txt | head`) is a normal way to stop reading.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<UsageError>().is_some() => {
            eprintln!("slidetable: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(e) => {
            eprintln!("slidetable: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(command: &Command) -> Result<ExitCode> {
    match command {
        Command::Generate(args) => run::generate::run(args),
        Command::Info(args) => run::info::run(args),
        Command::Distance(args) => run::distance::run(args),
        Command::Path(args) => run::path::run(args),
        Command::Judge(args) => run::judge::run(args),
        Command::Search(args) => run::search::run(args),
        Command::Stats(args) => run::stats::run(args),
        Command::Hardest(args) => run::hardest::run(args),
        Command::Random(args) => run::random::run(args),
        Command::Heuristic(args) => run::heuristic::run(args),
        Command::Completions(args) => run::completions::run(args),
        Command::Man(args) => run::man::run(args),
        Command::Serve(args) => run::serve::run(args),
    }
}
