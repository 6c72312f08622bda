//! Whole-table questions (`hardest`, `random --depth`) on a 2-bit table too large to recover
//! a byte a state of (14 cells: 2x7's 43.6 GB), planned and run the same way by the command
//! line, the page and Python: [`plan`] checks the memory before it starts (the level bitmap
//! beside the mapped entries) and chooses the late levels bottom-up when a second bitmap fits;
//! [`Pass::run`] goes through the levels with progress and cancellation as the caller's
//! callbacks. Each front end shows [`Pass::note`] its own way.

use std::sync::atomic::AtomicBool;

use slidetable_core::Board;
use slidetable_gen::room::{checked_memory, human};
use slidetable_query::{Goal, Level, PassOptions, QueryError};

/// The machine lacks the memory a level pass needs: the message says how much, and where the
/// figure of what is available comes from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoRoom(pub String);

/// Refuses a level pass (`what`, a whole-table question answered level by level on a
/// `board` table too large to recover a byte a state of) when the machine has less memory
/// than its bitmap (`bitmap` bytes) and the table's entries it reads (`entries` bytes, mapped)
/// need. Otherwise says whether a second bitmap (the states seen, for the late levels
/// bottom-up) fits too, with a tenth to spare: it only saves time, so it is never taken when
/// it is not known to fit.
pub fn check_room(board: Board, what: &str, bitmap: u64, entries: u64) -> Result<bool, NoRoom> {
    let need = bitmap.saturating_add(entries);
    // A `SLIDETABLE_AVAILABLE_MEMORY` that is not a number of bytes is refused, as every
    // generation refuses it, rather than ignored.
    match checked_memory().map_err(|e| NoRoom(e.to_string()))? {
        Some((available, origin)) if need > available => Err(NoRoom(format!(
            "{what} on a {board} table reads it level by level, in one bit a state ({}) beside \
             its {} of entries: {} of memory, but {} is available ({origin})",
            human(bitmap),
            human(entries),
            human(need),
            human(available)
        ))),
        Some((available, _)) => {
            let two = need.saturating_add(bitmap);
            Ok(two.saturating_add(two / 10) <= available)
        }
        None => Ok(false),
    }
}

/// A level pass checked and ready: up to which distance, in how many bitmaps, and how many
/// states it goes through (for a progress display).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// The deepest level handed over (at most the goal's farthest distance).
    pub upto: u32,
    /// Whether the late levels go bottom-up in a second bitmap.
    pub bottom_up: bool,
    /// Bytes of one level bitmap.
    pub bitmap: u64,
    /// Bytes of the mapped entries read.
    pub entries: u64,
    /// States up to `upto`: the progress total.
    pub total: u64,
    /// Whether the table is too large to recover a byte a state of (the pass is the only way,
    /// and a long one): a front end warns before it.
    pub long: bool,
}

/// The level pass over `goal`'s section up to `upto` for the question `what`, checked against
/// the machine's memory ([`check_room`]).
pub fn plan(goal: &Goal<'_>, upto: u32, what: &str) -> Result<Pass, NoRoom> {
    let unchecked = Pass::of(goal, upto, false);
    let bottom_up = check_room(
        goal.layout().board(),
        what,
        unchecked.bitmap,
        unchecked.entries,
    )?;
    Ok(Pass {
        bottom_up,
        ..unchecked
    })
}

impl Pass {
    /// The pass over `goal`'s section up to `upto`, bottom-up or not as told, without the
    /// memory check [`plan`] makes: for a small table whose pass fits anyway.
    pub fn of(goal: &Goal<'_>, upto: u32, bottom_up: bool) -> Pass {
        let upto = upto.min(goal.max_distance());
        Pass {
            upto,
            bottom_up,
            bitmap: goal.level_pass_memory(),
            entries: goal.state_count().div_ceil(4),
            total: goal.histogram()[..=upto as usize].iter().sum(),
            long: goal.needs_level_pass(),
        }
    }

    /// What the pass costs, for a front end to say before a long one: `what` on a `board`
    /// table goes through its states level by level, the memory it takes.
    pub fn note(&self, board: Board, what: &str) -> String {
        let bitmaps = if self.bottom_up {
            2 * self.bitmap
        } else {
            self.bitmap
        };
        format!(
            "{what} on a {board} table goes through its states level by level, up to {} moves: \
             this may take minutes, with {} of memory ({} of level bitmaps beside the {} table)",
            self.upto,
            human(bitmaps + self.entries),
            human(bitmaps),
            human(self.entries)
        )
    }

    /// Goes through `goal`'s levels up to [`Pass::upto`], each handed to `at`; `progress`
    /// gets the states gone through, and `stop`, once set, ends the pass early. `Ok(true)`
    /// when every level was handed over, `Ok(false)` when `stop` ended it.
    pub fn run(
        &self,
        goal: &Goal<'_>,
        progress: &(dyn Fn(u64) + Sync),
        stop: Option<&AtomicBool>,
        at: &mut dyn FnMut(&Level<'_>),
    ) -> Result<bool, QueryError> {
        let options = PassOptions {
            bottom_up: self.bottom_up,
            stop,
        };
        goal.level_pass_with(self.upto, options, progress, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_query::Table;

    #[test]
    fn a_pass_is_planned_and_run_to_the_depth_asked() {
        let board = Board::new(2, 3).unwrap();
        let plan = slidetable_gen::Plan {
            encoding: Some(slidetable_format::Encoding::TwoBit),
            ..slidetable_gen::Plan::default_for(board)
        };
        let sections =
            slidetable_gen::engine::solve(&plan.goals, plan.encoding, plan.cost, &|_| ()).unwrap();
        let table =
            Table::new(slidetable_gen::engine::table_bytes(board, &sections).unwrap()).unwrap();
        let goal = table.standard().unwrap();
        let pass = plan_for(&goal, 5);
        assert_eq!(pass.upto, 5);
        assert_eq!(pass.total, goal.histogram()[..=5].iter().sum::<u64>());
        let mut seen = Vec::new();
        let done = std::sync::atomic::AtomicU64::new(0);
        let add = |n| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        };
        assert!(pass
            .run(&goal, &add, None, &mut |l| seen.push(l.depth()))
            .unwrap());
        assert_eq!(seen, (0..=5).collect::<Vec<u32>>());
        // A depth past the farthest stops at the farthest; a stop flag already set ends it.
        assert_eq!(plan_for(&goal, 99).upto, goal.max_distance());
        let stop = AtomicBool::new(true);
        assert!(!pass.run(&goal, &|_| (), Some(&stop), &mut |_| ()).unwrap());
        assert!(pass
            .note(board, "hardest")
            .starts_with("hardest on a 2x3 table goes"));
    }

    fn plan_for(goal: &Goal<'_>, upto: u32) -> Pass {
        plan(goal, upto, "a test").unwrap()
    }
}
