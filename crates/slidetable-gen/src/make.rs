//! Making a table's or a pattern database's file from a plan: the search, the memory and disk
//! check before it, and the atomic write, in one call each ([`generate`],
//! [`generate_resumable`], [`generate_patterns`]). What `slidetable generate` runs, and what
//! a default table's first use runs (the facade crate `slidetable`'s `defaults` module owns
//! where default tables live, their lock and which plan each board's default is).

use std::path::Path;
use std::time::{Duration, Instant};

use slidetable_core::{Board, Layout};

use crate::{partition_placements, solve, solve_partition, Destination, GenError, Partition, Plan};

/// What `generate` did.
#[derive(Debug)]
pub struct Generated {
    /// States settled over all sections.
    pub states: u64,
    /// Sections written.
    pub sections: usize,
    /// Bytes in the file.
    pub bytes: u64,
    /// Wall time of the search and the write.
    pub elapsed: Duration,
    /// Why a replaced table's owner could not be kept (see [`crate::Written`]).
    pub owner_not_kept: Option<std::io::Error>,
}

/// Makes the directory a cache table goes in (the cache's own directories are made on first
/// use; a directory named with `-o` is not: a mistyped path should not leave directories behind).
pub fn make_dir(path: &Path) -> Result<(), GenError> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| GenError::CreateDir {
            path: dir.to_path_buf(),
            source,
        }),
        None => Ok(()),
    }
}

/// Generates `plan` and writes it to `path` (whose directory must exist: see [`make_dir`]), replacing any old file
/// atomically; `progress` gets the states settled as the search goes.
pub fn generate(
    plan: &Plan,
    path: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenError> {
    let start = Instant::now();
    // A destination that cannot be written is refused before the search, not after it, and
    // so is a machine without the memory or the disk space the table needs.
    let destination = Destination::prepare(path)?;
    crate::room::check_room(plan, Some(destination.dir()))?;
    let sections = solve(&plan.goals, plan.encoding, plan.cost, progress)?;
    let written = destination.write_table(plan.board, &sections)?;
    Ok(Generated {
        states: plan.board.reachable_states(),
        sections: sections.len(),
        bytes: written.bytes,
        elapsed: start.elapsed(),
        owner_not_kept: written.owner_not_kept,
    })
}

/// [`generate`], keeping checkpoints when the plan's search can (2-bit entries, see
/// [`crate::resume`]): a run interrupted after a checkpoint goes on from it the next time
/// (`run.restart` starts over). Other plans are made as [`generate`] makes them.
pub fn generate_resumable(
    plan: &Plan,
    path: &Path,
    run: &crate::resume::Run<'_>,
) -> Result<Generated, GenError> {
    if !crate::resume::resumes(plan) {
        return generate(plan, path, run.progress);
    }
    let start = Instant::now();
    let destination = Destination::prepare(path)?;
    let work = crate::resume::OpenRun::open(plan, destination.target(), run.restart, run.events)?;
    crate::room::check_room_resuming(plan, destination.dir(), work.allocated())?;
    let written = work.run(plan, run, destination)?;
    Ok(Generated {
        states: plan.board.reachable_states(),
        sections: plan.goals.len(),
        bytes: written.bytes,
        elapsed: start.elapsed(),
        owner_not_kept: written.owner_not_kept,
    })
}

/// The goal a pattern database is made for unless told otherwise: the blank in the first
/// cell, as in Korf's instances. One database serves the goals with the blank in any corner,
/// through the board's symmetries.
pub fn pattern_goal(board: Board) -> Layout {
    board.goal_with_blank(0)
}

/// What to make of a pattern database: its goal and tile groups.
#[derive(Debug, Clone)]
pub struct PatternPlan {
    /// The goal every entry is a distance to.
    pub goal: Layout,
    /// The tile groups, one database each.
    pub partition: Partition,
}

impl PatternPlan {
    /// The placements the searches settle (all groups), for a progress display.
    pub fn total_placements(&self) -> u64 {
        partition_placements(self.goal.board(), &self.partition)
    }
}

/// Solves `plan`'s groups and writes the database to `path` (whose directory must exist: see
/// [`make_dir`]), replacing any old file atomically; `progress` gets the placements settled.
/// In the report, `states` counts placements and `sections` groups.
pub fn generate_patterns(
    plan: &PatternPlan,
    path: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenError> {
    let start = Instant::now();
    let destination = Destination::prepare(path)?;
    crate::pattern::check_pattern_room(
        plan.goal.board(),
        &plan.partition,
        Some(destination.dir()),
    )?;
    let sections = solve_partition(&plan.goal, &plan.partition, progress)?;
    let bytes = destination.write_patterns(&sections)?.bytes;
    Ok(Generated {
        states: plan.total_placements(),
        sections: sections.len(),
        bytes,
        elapsed: start.elapsed(),
        owner_not_kept: None,
    })
}
