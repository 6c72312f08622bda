//! `random`: puzzles drawn uniformly from the states D (or A to B) moves from the goal.

use std::collections::HashSet;
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
        Box::new(distinct(&mut rng, size, args.count).into_iter())
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

/// `count` different numbers below `n` (`count <= n`), in the order drawn: Floyd's
/// algorithm (Bentley and Floyd, "A sample of brilliance", CACM 1987), one draw each, memory
/// for `count` only.
fn distinct(rng: &mut SplitMix64, n: u64, count: u64) -> Vec<u64> {
    let mut chosen = HashSet::with_capacity(count as usize);
    let mut order = Vec::with_capacity(count as usize);
    for j in n - count..n {
        let t = rng.below(j + 1);
        let k = if chosen.contains(&t) { j } else { t };
        chosen.insert(k);
        order.push(k);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_draws_never_repeat_and_can_take_everything() {
        let mut rng = SplitMix64::new(3);
        for (n, count) in [(10u64, 10u64), (10, 3), (1000, 999), (5, 0), (1, 1)] {
            let picks = distinct(&mut rng, n, count);
            assert_eq!(picks.len() as u64, count);
            assert!(picks.iter().all(|&k| k < n));
            let set: HashSet<u64> = picks.iter().copied().collect();
            assert_eq!(set.len() as u64, count);
        }
    }

    #[test]
    fn distinct_draws_cover_every_subset_evenly() {
        // 2 of 4: each of the 6 pairs about 1/6 of the time.
        let mut rng = SplitMix64::new(11);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..6000 {
            let mut p = distinct(&mut rng, 4, 2);
            p.sort();
            *seen.entry(p).or_insert(0u32) += 1;
        }
        assert_eq!(seen.len(), 6);
        assert!(seen.values().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    }
}
