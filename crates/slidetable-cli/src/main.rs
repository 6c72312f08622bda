//! `slidetable`: parse the command line, run the command, turn what stopped it into an exit
//! code. Each command lives in `commands/`; the work is done by the library crates.

// Diagnostics go through `streams::warning!`, which never panics on a stderr that cannot
// take them (`eprintln!` does, losing every answer after it).
#![deny(clippy::print_stderr)]

mod answers;
mod batch;
mod bounded;
mod charts;
mod cli;
mod commands;
mod error;
mod input;
mod level_stats;
mod levels;
// The records and writers of `--json` and `--csv`, shared with `serve`.
use slidetable_records as json;
mod limits;
mod patterns;
mod plan;
mod process;
mod puzzles;
mod resolved;
mod run_in_parts;
mod show;
mod signals;
mod streams;
mod tables;
mod twentyfour;
mod utc;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use crate::cli::Cli;
use crate::commands as run;
use crate::error::{is_bad_environment, is_broken_pipe, UsageError, EXIT_USAGE};
use crate::resolved::Resolved;
use crate::streams::warning;

fn main() -> ExitCode {
    // `--board 5x5`: the 24-puzzle's own commands (its layouts do not fit the main parser's).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = twentyfour::intercept(&args) {
        return code;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A usage error: its message on standard error (lost if that cannot take it).
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE));
        }
        Err(e) => {
            // `--help` and `--version` are answers on standard output: a write that fails (a
            // full disk, `>/dev/full`) fails the run, as for every other answer.
            use std::io::Write;
            if let Err(closed) = streams::stdout_open() {
                warning!("{closed}");
                return ExitCode::FAILURE;
            }
            if let Err(write) = e.print().and_then(|()| std::io::stdout().flush()) {
                warning!("cannot write standard output: {write}");
                return ExitCode::FAILURE;
            }
            return ExitCode::SUCCESS;
        }
    };
    // A mapped table truncated under us ends the run with a message, not a silent SIGBUS.
    process::exit_on_changed_table();
    // Every argument resolved (files found and opened) before the command runs.
    match Resolved::of(&cli.command).and_then(dispatch) {
        Ok(code) => {
            // Answers from a mapped table written over meanwhile may be wrong: exit 1.
            process::exit_if_tables_changed();
            code
        }
        // A closed stdout (`slidetable path big.txt | head`) is a normal way to stop reading.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        // Whatever was being answered, a failed write is the output's.
        Err(e) if streams::output_error(&e).is_some() => {
            if let Some(output) = streams::output_error(&e) {
                warning!("{output}");
            }
            ExitCode::FAILURE
        }
        Err(e) if e.downcast_ref::<UsageError>().is_some() || is_bad_environment(&e) => {
            warning!("{e:#}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(e) => {
            warning!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(resolved: Resolved<'_>) -> Result<ExitCode> {
    match resolved {
        Resolved::Generate(generation) => run::generate::run(generation),
        Resolved::Info(info) => run::info::run(info),
        Resolved::Merge { dir, output } => run::merge::run(dir, output),
        Resolved::Batch(batch) => batch::run(batch),
        Resolved::Judge(judgement) => run::judge::run(judgement),
        Resolved::Search(search) => run::search::run(search),
        Resolved::Stats(stats) => run::stats::run(stats),
        Resolved::BoundedStats { table, output } => bounded::stats(&table, output),
        Resolved::Hardest(hardest) => run::hardest::run(hardest),
        Resolved::Random(random) => run::random::run(random),
        Resolved::Heuristic(heuristics) => run::heuristic::run(heuristics),
        Resolved::Completions(shell) => run::completions::run(shell),
        Resolved::Man(man) => run::man::run(man),
        Resolved::Serve(config) => run::serve::run(&config),
    }
}
