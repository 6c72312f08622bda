//! `generate`: search every state backwards from the goals and write the table file.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use slidetable_gen::Partition;
use slidetable_query::CostModel;

use crate::cli::GenerateArgs;
use crate::error::UsageError;
use crate::puzzles::parse_goal;
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
        None => patterns::default_goal(board),
    };
    let text = args.pdb.as_deref().unwrap_or(patterns::DEFAULT_PARTITION);
    let partition = Partition::parse(text, &goal).map_err(|e| UsageError(format!("--pdb: {e}")))?;
    let path: PathBuf = match &args.output {
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
    let made = patterns::make(&goal, &partition, &path)?;
    let mut out = io::stdout().lock();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board {board}: pattern database {} ({} groups, {} placements), goal {goal}, {} bytes",
        partition.sizes(),
        made.groups,
        made.placements,
        made.bytes
    )?;
    writeln!(out, "took {:.1} ms", made.elapsed.as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
