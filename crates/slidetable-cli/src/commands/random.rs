//! `random`: puzzles drawn uniformly from the states D (or A to B) moves from the goal, or,
//! on a board whose table cannot draw at a distance (over 12 cells: 2x7 without `--depth`,
//! 4x4), from every state that can reach the goal.

use std::io::Write;
use std::ops::RangeInclusive;
use std::process::ExitCode;

use anyhow::Result;
use slidetable::core::Layout;
use slidetable::query::{CostModel, Goal, LevelPicks, MappedTable, SplitMix64};

use crate::answers::write_state;
use crate::error::UsageError;
use crate::json::{self, Record};
use crate::resolved::{Draw, Output, Random, Target};
use crate::streams;
use crate::{levels, show, tables};

pub(crate) fn run(random: Random) -> Result<ExitCode> {
    let (depth, target) = match &random.draw {
        Draw::Reaching { goal } => return without_table(&random, goal),
        Draw::AtDepth { depth, target } => (depth.clone(), target),
    };
    let Target {
        table,
        goal: goal_layout,
        ..
    } = target;
    let goal = tables::goal(table, Some(goal_layout))?;
    if levels::wanted(&goal) {
        return by_levels(&random, depth, table, &goal, goal_layout);
    }
    // On 2-bit tables, every distance up to the deepest asked for, in one pass (none if the
    // depth is beyond the table's: `layer` says so).
    let upto = (*depth.end()).min(goal.max_distance());
    let known = if *depth.start() <= goal.max_distance() {
        tables::known_distances(table, &goal, upto)?
    } else {
        None
    };
    let goal = match &known {
        Some(distances) => goal.knowing(distances),
        None => goal,
    };
    let layer = goal.layer(depth.clone()).map_err(|e| {
        // A depth the table has no state at is a bad argument, not a failure.
        match e {
            slidetable::query::LayerError::Corrupt { .. }
            | slidetable::query::LayerError::Damaged(_) => {
                anyhow::Error::new(e).context(format!("table {}", tables::name(table)))
            }
            e => UsageError(format!("--depth: {e}")).into(),
        }
    })?;
    // Drawn one at a time and written at once: any --count streams in constant memory
    // (--distinct remembers its draws, at most the layer's size; a --show sheet lines up
    // every puzzle it holds, so it holds them all).
    let draws = draws(&random, &depth, table.header().cost(), layer.len())?;
    // Every draw is below the layer's size, so each names a state.
    let puzzles = draws.filter_map(|k| layer.get(k).map(|(l, _)| l));
    write_puzzles(&random, puzzles, &goal, goal_layout, table)
}

/// The draws of `random` among `size` states at `depth` moves: `--count` numbers below
/// `size` from `--seed` (or a fresh seed), all different with `--distinct`. The k-th
/// state of a layer in rank order is the one drawn, on every path, so a seed gives the
/// same puzzles wherever the layer is one distance.
fn draws(
    random: &Random,
    depth: &RangeInclusive<u32>,
    cost: CostModel,
    size: u64,
) -> Result<Box<dyn Iterator<Item = u64> + Send>> {
    let count = random.count;
    slidetable::draws::draws(depth, cost, size, count, random.seed, random.distinct)
        .map_err(|e| UsageError(format!("--count {count} --distinct: {e}")).into())
}

/// `random --depth` on a table too large to recover a byte a state of (2x7): the same draws
/// as on a small board, each the k-th state of the distances asked for, taken from the level
/// pass, which stops at the deepest. One distance gives the puzzles a small board's path
/// gives for the same seed (its k-th state in rank order); a range A..B counts its states
/// distance by distance (those A moves away in rank order, then A + 1...) instead of in
/// rank order across distances, which would need every level of the range at once: the
/// same seed draws other puzzles there, as uniformly.
fn by_levels(
    random: &Random,
    depth: RangeInclusive<u32>,
    table: &MappedTable,
    goal: &Goal<'_>,
    goal_layout: &Layout,
) -> Result<ExitCode> {
    let size = goal
        .layer_len(depth.clone())
        .map_err(|e| UsageError(format!("--depth: {e}")))?;
    let draws: Vec<u64> = draws(random, &depth, table.header().cost(), size)?.collect();
    let mut picks = LevelPicks::new(goal.histogram(), depth, &draws);
    levels::pass(
        table,
        goal,
        picks.deepest(),
        "random --depth",
        &mut |level| picks.take(level),
    )?;
    write_puzzles(
        random,
        picks.into_layouts().into_iter().flatten(),
        goal,
        goal_layout,
        table,
    )
}

/// Writes `puzzles` as `random` asks: text, `--show`, `--json` or `--csv` (with distance and
/// path).
fn write_puzzles(
    random: &Random,
    puzzles: impl Iterator<Item = Layout>,
    goal: &Goal<'_>,
    goal_layout: &Layout,
    table: &MappedTable,
) -> Result<ExitCode> {
    let output = random.output;
    if output == Output::Show {
        return write_sheet(puzzles, goal_layout);
    }
    let mut out = streams::stdout();
    let mut buf = Vec::new();
    if output == Output::Csv {
        crate::answers::write_states_csv_header(&mut out, table)?;
    }
    for layout in puzzles {
        if output == Output::Text {
            buf.clear();
            buf.extend_from_slice(layout.to_string().as_bytes());
            buf.push(b'\n');
            out.write_all(&buf)?;
        } else {
            write_state(&mut out, &mut buf, goal, &layout, output, table)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `--show`: the puzzles drawn on one sheet toward `goal` (it lines up every puzzle it holds,
/// so it holds them all).
fn write_sheet(puzzles: impl Iterator<Item = Layout>, goal: &Layout) -> Result<ExitCode> {
    let all: Vec<Layout> = puzzles.collect();
    let mut buf = Vec::new();
    show::sheet(&mut buf, &all, goal);
    let mut out = streams::stdout();
    out.write_all(&buf)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `random` on a board with no table (over 14 cells: the 15-puzzle), or without `--depth` on
/// one whose table cannot draw at a distance (2x7): puzzles drawn uniformly
/// from every layout that can reach the goal ([`SplitMix64::layout_reaching`]), the same for
/// the same seed; text, `--show`, or `--json`/`--csv` with the puzzle alone.
fn without_table(random: &Random, goal: &Layout) -> Result<ExitCode> {
    let puzzles = SplitMix64::new(random.seed)
        .layouts_reaching(*goal, random.distinct)
        .take(usize::try_from(random.count).unwrap_or(usize::MAX));
    let output = random.output;
    if output == Output::Show {
        return write_sheet(puzzles, goal);
    }
    let mut out = streams::stdout();
    let mut buf = Vec::new();
    if output == Output::Csv {
        out.write_all(b"puzzle\n")?;
    }
    for layout in puzzles {
        buf.clear();
        if output == Output::Json {
            let record = Record {
                puzzle: layout.tiles(),
                solvable: true,
                ..Record::default()
            };
            json::line(&mut buf, &record);
        } else {
            buf.extend_from_slice(layout.to_string().as_bytes());
            buf.push(b'\n');
        }
        out.write_all(&buf)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
