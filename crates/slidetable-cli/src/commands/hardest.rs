//! `hardest`: every state at the maximum distance from the goal, with an optimal path; on a
//! table too large to recover a byte a state of (2x7), from the level pass (`levels`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::answers::write_state;
use crate::resolved::{Hardest, Output, Target};
use crate::streams;
use crate::{levels, tables};

pub(crate) fn run(hardest: Hardest) -> Result<ExitCode> {
    let Hardest {
        target: Target { table, goal, .. },
        output,
    } = hardest;
    let goal = tables::goal(&table, Some(&goal))?;
    let max = goal.max_distance();
    // A table too large to recover a byte a state of (2x7): the last level of the level
    // pass; it holds few states (one on 2x7).
    let (farthest, known) = goal.farthest(
        |upto, at| levels::pass(&table, &goal, upto, "hardest", at),
        || tables::known_distances(&table, &goal, max),
    )?;
    let goal = match &known {
        Some(distances) => goal.knowing(distances),
        None => goal,
    };
    let mut out = streams::stdout();
    let mut buf = Vec::new();
    if output == Output::Csv {
        crate::answers::write_states_csv_header(&mut out, &table)?;
    }
    let mut found = 0u64;
    let layouts = farthest
        .layouts(&goal)
        .with_context(|| format!("table {}", tables::name(&table)))?;
    for layout in layouts {
        write_state(&mut out, &mut buf, &goal, &layout, output, &table)?;
        found += 1;
    }
    out.flush()?;
    // The header counts the states at the maximum; a payload that holds fewer is corrupt
    // (its entries are not the distances the header was made from).
    let counted = goal.histogram().get(max as usize).copied().unwrap_or(0);
    if found != counted {
        bail!(
            "table {}: the header counts {counted} states {max} away, the entries hold {found} \
             (corrupt table? check it with `slidetable info --verify`)",
            tables::name(&table)
        );
    }
    Ok(ExitCode::SUCCESS)
}
