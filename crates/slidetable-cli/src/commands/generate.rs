//! `generate`: search every state backwards from the goals and write the table file.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use slidetable_query::CostModel;

use crate::cli::GenerateArgs;
use crate::error::UsageError;
use crate::puzzles::parse_goal;
use crate::tables;

pub(crate) fn run(args: &GenerateArgs) -> Result<ExitCode> {
    let board = args.board;
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
