//! `generate`: search every state backwards from the goals and write the table file.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use slidetable_gen::cache::{self, PatternPlan};
use slidetable_gen::Partition;
use slidetable_query::CostModel;

use crate::cli::GenerateArgs;
use crate::error::UsageError;
use crate::puzzles::parse_goal;
use crate::streams;
use crate::{patterns, tables};

pub(crate) fn run(args: &GenerateArgs) -> Result<ExitCode> {
    let board = args.board;
    if args.pdb.is_some() || !board.supports_tables() {
        return pattern_database(args);
    }
    let goals = if args.all_goals {
        slidetable_gen::all_goals(board)
    } else if args.goal.is_empty() {
        slidetable_gen::default_goals(board)
    } else {
        let mut goals: Vec<slidetable_core::Layout> = Vec::new();
        for text in &args.goal {
            let goal = parse_goal(board, text)?;
            if !goals.contains(&goal) {
                goals.push(goal);
            }
        }
        goals
    };
    // The library's limits, refused as usage errors before any work.
    slidetable_gen::check_plan(board, args.encoding, args.cost)
        .map_err(|e| UsageError(e.to_string()))?;
    if args.cost != CostModel::Unit && args.output.is_none() {
        return Err(UsageError(format!(
            "a --cost {} table is not a default table: name its file with -o PATH",
            args.cost
        ))
        .into());
    }
    let plan = tables::Plan {
        board,
        goals,
        encoding: args.encoding,
        cost: args.cost,
    };
    // `-o -`: the table on standard output, the report on standard error.
    if args.output.as_deref() == Some(std::path::Path::new("-")) {
        if io::stdout().is_terminal() {
            return Err(UsageError(
                "-o - writes the binary table to standard output, which is a terminal: \
                 redirect it (`-o - > 3x3.slt`) or name a file"
                    .to_string(),
            )
            .into());
        }
        let done = tables::generate_to(&plan, &mut streams::stdout())?;
        let mut report = Vec::new();
        writeln!(report, "wrote the table to standard output")?;
        write_report(&mut report, args, &done)?;
        io::stderr().write_all(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (path, origin) = tables::resolve(args.output.as_deref(), board)?;
    // The cache's directory is made (and its table locked against queries generating it on
    // first use); a directory named with -o must exist.
    let lock = match origin {
        tables::Origin::Cache => Some(cache::lock(&path, &tables::Shown::new())?),
        _ => None,
    };
    let done = tables::generate(&plan, &path)?;
    drop(lock);
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", path.display())?;
    write_report(&mut out, args, &done)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The size and time of a generated table.
fn write_report(
    out: &mut impl Write,
    args: &GenerateArgs,
    done: &tables::Generated,
) -> io::Result<()> {
    writeln!(
        out,
        "board {}: {} section{} x {} states, {} bytes",
        args.board,
        done.sections,
        if done.sections == 1 { "" } else { "s" },
        done.states,
        done.bytes
    )?;
    writeln!(out, "took {:.1} ms", done.elapsed.as_secs_f64() * 1e3)
}

/// `generate --pdb PARTITION` (or `generate --board 4x4`).
fn pattern_database(args: &GenerateArgs) -> Result<ExitCode> {
    let board = args.board;
    if args.all_goals || args.goal.len() > 1 {
        return Err(
            UsageError("a pattern database has one goal: give at most one --goal".into()).into(),
        );
    }
    if args.encoding.is_some() || args.cost != slidetable_query::CostModel::Unit {
        return Err(UsageError(
            "a pattern database has its own encoding and unit costs: drop --encoding and --cost"
                .into(),
        )
        .into());
    }
    let goal = match args.goal.first() {
        Some(text) => parse_goal(board, text)?,
        None => cache::pattern_goal(board),
    };
    let text = args.pdb.as_deref().unwrap_or(cache::DEFAULT_PARTITION);
    let partition = Partition::parse(text, &goal).map_err(|e| UsageError(format!("--pdb: {e}")))?;
    let path: PathBuf = match &args.output {
        Some(p) if p.as_os_str() == "-" => {
            return Err(UsageError(
                "-o - writes a table of every state; a pattern database is written to a file: \
                 name it with -o PATH"
                    .into(),
            )
            .into())
        }
        Some(p) => p.clone(),
        None if board.supports_tables() => {
            return Err(UsageError(format!(
                "a pattern database for {board} is not the board's default table: name its \
                 file with -o PATH"
            ))
            .into())
        }
        None => tables::resolve(None, board)?.0,
    };
    // The cache's database is locked against queries making it on first use meanwhile.
    let lock = match args.output {
        None => Some(cache::lock(&path, &tables::Shown::new())?),
        Some(_) => None,
    };
    let plan = PatternPlan { goal, partition };
    let made = patterns::make(&plan, &path)?;
    drop(lock);
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board {board}: pattern database {} ({} groups, {} placements), goal {}, {} bytes",
        plan.partition.sizes(),
        made.sections,
        made.states,
        plan.goal,
        made.bytes
    )?;
    writeln!(out, "took {:.1} ms", made.elapsed.as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
