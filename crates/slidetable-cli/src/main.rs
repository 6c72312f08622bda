//! `slidetable`: argument parsing and printing; the work is done by the library crates.

mod batch;
mod cli;
mod info;
mod input;
mod json;
mod judge;
mod manual;
mod pdb;
mod search;
mod show;
mod tables;
mod teach;
mod truth;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use slidetable_query::{CostModel, Encoding};

use crate::cli::{Cli, Command, GenerateArgs};

/// Exit code for a bad puzzle line (EX_DATAERR from sysexits.h).
pub const EXIT_BAD_INPUT: u8 = 65;
/// Exit code for bad arguments, as clap uses.
pub const EXIT_USAGE: u8 = 2;

/// An argument that clap accepted but that turned out wrong once the table was known.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
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

fn run(cli: &Cli) -> Result<ExitCode> {
    match &cli.command {
        Command::Generate(args) => generate(args),
        Command::Info(args) => info::run(args),
        Command::Distance(args) => batch::run(args, batch::Answer::Distance, false),
        Command::Path(args) => batch::run(
            &args.batch,
            match args.order {
                Some(order) => batch::Answer::OrderedPath(order),
                None => batch::Answer::Path,
            },
            args.show,
        ),
        Command::Judge(args) => judge::run(args),
        Command::Search(args) => search::run(args),
        Command::Stats(args) => teach::stats(args),
        Command::Hardest(args) => teach::hardest(args),
        Command::Random(args) => teach::random(args),
        Command::Heuristic(args) => truth::run(args),
        Command::Completions(args) => manual::completions(args),
        Command::Man(args) => manual::man(args),
    }
}

fn generate(args: &GenerateArgs) -> Result<ExitCode> {
    let board = args.board;
    if args.pdb.is_some() || !board.supports_tables() {
        return pdb::generate(args);
    }
    let goals = if args.all_goals {
        slidetable_gen::all_goals(board)
    } else if args.goal.is_empty() {
        slidetable_gen::default_goals(board)
    } else {
        let mut goals: Vec<slidetable_core::Layout> = Vec::new();
        for text in &args.goal {
            let goal = slidetable_core::parse_layout(board, text.as_bytes())
                .map_err(|e| UsageError(format!("--goal '{text}': {e}")))?;
            if !goals.contains(&goal) {
                goals.push(goal);
            }
        }
        goals
    };
    if args.cost != CostModel::Unit {
        if board.cells() > 10 {
            return Err(UsageError(format!(
                "--cost {} goes up to 10 cells; {board} has {}",
                args.cost,
                board.cells()
            ))
            .into());
        }
        if args.encoding == Some(Encoding::TwoBit) {
            return Err(UsageError(format!(
                "--encoding 2bit holds distances mod 3, which only --cost unit keeps one apart; \
                 use byte or wide16 with --cost {}",
                args.cost
            ))
            .into());
        }
        if args.output.is_none() {
            return Err(UsageError(format!(
                "a --cost {} table is not a default table: name its file with -o PATH",
                args.cost
            ))
            .into());
        }
    }
    let plan = tables::Plan {
        board,
        goals,
        encoding: args.encoding,
        cost: args.cost,
    };
    let (path, _) = tables::resolve(args.output.as_deref(), board)?;
    let done = tables::generate(&plan, &path)?;
    let mut out = io::stdout().lock();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board {}: {} section{} x {} states, {} bytes",
        args.board,
        done.sections,
        if done.sections == 1 { "" } else { "s" },
        done.states,
        done.bytes
    )?;
    writeln!(out, "took {:.1} ms", done.elapsed.as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
