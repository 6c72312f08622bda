//! Whole-table questions (`hardest`, `random --depth`) on a 2-bit table too large to recover
//! a byte a state of (14 cells: 2x7's 43.6 GB), planned and run the same way by the command
//! line, the page and Python: [`plan`] checks the memory before it starts (the level bitmap
//! beside the mapped entries) and chooses the late levels bottom-up when a second bitmap fits;
//! [`Pass::run`] goes through the levels with progress and cancellation as the caller's
//! callbacks. Each front end shows [`Pass::note`] its own way.
//!
//! A front end that lives on (the page's server, a Python session) keeps a table's recovered
//! distances in [`Recovered`], once a section: its first deep draw (or dataset, or hardest)
//! recovers them, every later one reads them. [`worth_recovering`] says when a draw should
//! recover rather than pass the levels up to its depth only.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

use slidetable_core::{Board, Layout};
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

/// Every distance of a section of 2-bit entries (a byte a state), as
/// [`Goal::recover_distances`] gives them, or why they could not be.
pub type Distances = Result<Arc<Vec<u8>>, QueryError>;

/// A table's recovered distances, kept once a section (by the section's goal) for as long as
/// the front end that holds it: the first caller recovers them, callers meanwhile wait for
/// that one recovery (never a second beside it), and every later caller reads them.
#[derive(Default)]
pub struct Recovered {
    sections: Mutex<Vec<(Layout, Arc<OnceLock<Distances>>)>>,
}

impl Recovered {
    /// The place of `goal`'s section; `None` for a section that is never recovered: its
    /// entries hold distances, or it answers by levels ([`Goal::wants_level_pass`]).
    fn place(&self, goal: &Goal<'_>) -> Option<Arc<OnceLock<Distances>>> {
        let section = goal.section();
        if section.encoding() != slidetable_format::Encoding::TwoBit || goal.wants_level_pass() {
            return None;
        }
        let key = *section.goal();
        // A poisoned lock only means another caller panicked; the list is still whole.
        let mut sections = self.sections.lock().unwrap_or_else(|e| e.into_inner());
        Some(match sections.iter().find(|(g, _)| *g == key) {
            Some((_, place)) => place.clone(),
            None => {
                let place = Arc::<OnceLock<Distances>>::default();
                sections.push((key, place.clone()));
                place
            }
        })
    }

    /// `goal`'s distances if they are recovered already (or why they could not be).
    pub fn kept(&self, goal: &Goal<'_>) -> Option<Distances> {
        self.place(goal)?.get().cloned()
    }

    /// `goal`'s distances: read if kept, else recovered now (`progress` told of the states
    /// each level settles; seconds on 12 cells, 240 MB) and kept, or waited for while another
    /// caller recovers them. `None` for a section never recovered (see [`Recovered::kept`]).
    pub fn get(&self, goal: &Goal<'_>, progress: &(dyn Fn(u64) + Sync)) -> Option<Distances> {
        let place = self.place(goal)?;
        let distances = place.get_or_init(|| {
            goal.recover_distances(goal.max_distance(), progress)
                .map(|d| Arc::new(d.unwrap_or_default()))
        });
        Some(distances.clone())
    }
}

/// Whether a draw at `depth` from `goal` should recover every distance ([`Recovered::get`])
/// rather than pass the levels up to its depth only: when those levels hold at least a
/// quarter of the states, the pass costs about what the whole recovery costs (on 3x4, the
/// pass to 40 moves took 6.9 s of CPU, the whole recovery 6.5 s), and the recovery, kept,
/// answers every later draw in a fraction of a second.
pub fn worth_recovering(goal: &Goal<'_>, depth: u32) -> bool {
    let within: u64 = goal.histogram().iter().take(depth as usize + 1).sum();
    within.saturating_mul(4) >= goal.state_count()
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

    #[test]
    fn distances_are_recovered_once_and_kept_for_every_caller() {
        let board = Board::new(2, 5).unwrap();
        let plan = slidetable_gen::Plan {
            encoding: Some(slidetable_format::Encoding::TwoBit),
            ..slidetable_gen::Plan::default_for(board)
        };
        let sections =
            slidetable_gen::engine::solve(&plan.goals, plan.encoding, plan.cost, &|_| ()).unwrap();
        let table =
            Table::new(slidetable_gen::engine::table_bytes(board, &sections).unwrap()).unwrap();
        let goal = table.standard().unwrap();
        let recovered = Recovered::default();
        assert!(recovered.kept(&goal).is_none());
        // Four callers at once: one recovery, its progress counted once.
        let settled = std::sync::atomic::AtomicU64::new(0);
        let count = |n| {
            settled.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        };
        let got: Vec<Arc<Vec<u8>>> = std::thread::scope(|scope| {
            let callers: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| recovered.get(&goal, &count).unwrap().unwrap()))
                .collect();
            callers.into_iter().map(|c| c.join().unwrap()).collect()
        });
        assert_eq!(settled.into_inner(), goal.state_count());
        assert!(got.iter().all(|d| Arc::ptr_eq(d, &got[0])));
        let kept = recovered.kept(&goal).unwrap().unwrap();
        assert!(Arc::ptr_eq(&kept, &got[0]));
        let expected = goal
            .recover_distances(goal.max_distance(), &|_| ())
            .unwrap();
        assert_eq!(Some(kept.as_ref().clone()), expected);
        // A byte table's section holds its distances: nothing to recover.
        let bytes = slidetable_gen::engine::solve(&plan.goals, None, plan.cost, &|_| ()).unwrap();
        let byte_table =
            Table::new(slidetable_gen::engine::table_bytes(board, &bytes).unwrap()).unwrap();
        assert!(recovered
            .get(&byte_table.standard().unwrap(), &|_| ())
            .is_none());
        // Deep draws recover; the first levels do not.
        assert!(worth_recovering(&goal, goal.max_distance()));
        assert!(!worth_recovering(&goal, 3));
    }

    fn plan_for(goal: &Goal<'_>, upto: u32) -> Pass {
        plan(goal, upto, "a test").unwrap()
    }
}
