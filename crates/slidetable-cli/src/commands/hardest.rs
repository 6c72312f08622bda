//! `hardest`: every state at the maximum distance from the goal, with an optimal path.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;

use crate::answers::write_state;
use crate::cli::HardestArgs;
use crate::tables;

pub(crate) fn run(args: &HardestArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let goal = table.goal(&goal)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    for layout in goal.layouts_at(goal.max_distance()) {
        write_state(&mut out, &mut buf, &goal, &layout, args.json, &table)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
