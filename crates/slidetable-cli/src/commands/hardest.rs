//! `hardest`: every state at the maximum distance from the goal, with an optimal path.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;

use crate::answers::{write_state, Output};
use crate::cli::HardestArgs;
use crate::tables;

pub(crate) fn run(args: &HardestArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let goal = table.goal(&goal)?;
    let known = tables::known_distances(&table, &goal, goal.max_distance())?;
    let goal = match &known {
        Some(distances) => goal.knowing(distances),
        None => goal,
    };
    let output = Output::of(args.json, args.csv, false);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    if output == Output::Csv {
        out.write_all(b"puzzle,distance,path\n")?;
    }
    for layout in goal.layouts_at(goal.max_distance()) {
        write_state(&mut out, &mut buf, &goal, &layout, output, &table)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
