//! `random`: puzzles drawn uniformly from the states D (or A to B) moves from the goal.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use slidetable_core::Layout;
use slidetable_query::SplitMix64;

use crate::answers::{write_state, Output};
use crate::cli::RandomArgs;
use crate::error::UsageError;
use crate::streams;
use crate::{show, tables};

pub(crate) fn run(args: &RandomArgs) -> Result<ExitCode> {
    let (table, goal) = tables::open_target(&args.target)?;
    let goal = table.goal(&goal)?;
    // On 2-bit tables, every distance up to the deepest asked for, in one pass (none if the
    // depth is beyond the table's: `layer` says so).
    let upto = (*args.depth.end()).min(goal.max_distance());
    let known = if *args.depth.start() <= goal.max_distance() {
        tables::known_distances(&table, &goal, upto)?
    } else {
        None
    };
    let goal = match &known {
        Some(distances) => goal.knowing(distances),
        None => goal,
    };
    let layer = goal.layer(args.depth.clone()).map_err(|e| {
        // A depth the table has no state at is a bad argument, not a failure.
        match e {
            slidetable_query::LayerError::Corrupt { .. } => {
                anyhow::Error::new(e).context(format!("table {}", tables::name(&table)))
            }
            e => UsageError(format!("--depth: {e}")).into(),
        }
    })?;
    if args.distinct && args.count > layer.len() {
        let (low, high) = (*args.depth.start(), *args.depth.end());
        let depths = if low == high {
            format!("{low} moves")
        } else {
            format!("{low} to {high} moves")
        };
        return Err(UsageError(format!(
            "--count {} --distinct: only {} states are {depths} from the goal",
            args.count,
            layer.len()
        ))
        .into());
    }
    // Without --seed, a fresh seed from the standard library's per-process random keys.
    let seed = args.seed.unwrap_or_else(SplitMix64::fresh_seed);
    let mut rng = SplitMix64::new(seed);
    let output = Output::of(args.json, args.csv, args.show);
    let mut out = streams::stdout();
    let mut buf = Vec::new();
    // Drawn one at a time and written at once: any --count streams in constant memory
    // (--distinct remembers its draws, at most the layer's size; a --show sheet lines up
    // every puzzle it holds, so it holds them all).
    let size = layer.len();
    let draws: Box<dyn Iterator<Item = u64>> = if args.distinct {
        Box::new(rng.distinct(size, args.count).into_iter())
    } else {
        Box::new((0..args.count).map(move |_| rng.below(size)))
    };
    // Every draw is below the layer's size, so each names a state.
    let puzzles = draws.filter_map(|k| layer.get(k).map(|(l, _)| l));
    if output == Output::Show {
        let all: Vec<Layout> = puzzles.collect();
        show::sheet(&mut buf, &all);
        out.write_all(&buf)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if output == Output::Csv {
        out.write_all(b"puzzle,distance,path\n")?;
    }
    for layout in puzzles {
        if output == Output::Text {
            buf.clear();
            buf.extend_from_slice(layout.to_string().as_bytes());
            buf.push(b'\n');
            out.write_all(&buf)?;
        } else {
            write_state(&mut out, &mut buf, &goal, &layout, output, &table)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
