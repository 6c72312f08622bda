//! `hardest`: every state at the maximum distance from the goal, with an optimal path.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::answers::write_state;
use crate::cli::HardestArgs;
use crate::resolved::{Output, Target};
use crate::streams;
use crate::tables;

pub(crate) fn run(args: &HardestArgs) -> Result<ExitCode> {
    let Target { table, goal } = Target::resolve(&args.target)?;
    let goal = table.goal(&goal)?;
    let known = tables::known_distances(&table, &goal, goal.max_distance())?;
    let goal = match &known {
        Some(distances) => goal.knowing(distances),
        None => goal,
    };
    let output = Output::of(args.json, args.csv, false);
    let mut out = streams::stdout();
    let mut buf = Vec::new();
    if output == Output::Csv {
        out.write_all(b"puzzle,distance,path\n")?;
    }
    let max = goal.max_distance();
    let mut found = 0u64;
    for layout in goal.layouts_at(max) {
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
