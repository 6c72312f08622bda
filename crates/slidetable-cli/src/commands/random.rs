//! `random`: puzzles drawn uniformly from the states D (or A to B) moves from the goal.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;
use slidetable_query::SplitMix64;

use crate::answers::write_state;
use crate::cli::RandomArgs;
use crate::error::UsageError;
use crate::tables;

pub(crate) fn run(args: &RandomArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let goal = table.goal(&goal)?;
    let layer = goal.layer(args.depth.clone()).map_err(|e| {
        // A depth the table has no state at is a bad argument, not a failure.
        match e {
            slidetable_query::LayerError::Corrupt { .. } => {
                anyhow::Error::new(e).context(format!("table {}", tables::name(&table)))
            }
            e => UsageError(format!("--depth: {e}")).into(),
        }
    })?;
    // Without --seed, a fresh seed from the standard library's per-process random keys.
    let seed = args.seed.unwrap_or_else(SplitMix64::fresh_seed);
    let mut rng = SplitMix64::new(seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    for _ in 0..args.count {
        let Some((layout, _)) = layer.sample(&mut rng) else {
            break;
        };
        if args.json {
            write_state(&mut out, &mut buf, &goal, &layout, true, &table)?;
        } else {
            buf.clear();
            buf.extend_from_slice(layout.to_string().as_bytes());
            buf.push(b'\n');
            out.write_all(&buf)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
