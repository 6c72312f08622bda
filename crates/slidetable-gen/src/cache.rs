//! Where default tables live, and making one: the rule every program that answers from a
//! table follows (the `slidetable` commands, the web server), kept in one place.
//!
//! A table named explicitly wins; else `$SLIDETABLE_TABLE` names the 3×3 table; else
//! `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else `~/.cache`), which is
//! generated on first use: a table of every state up to 12 cells; on 4×4 a pattern database,
//! the 7-8 when `generate` has put it there, else a 6-6-3 built in seconds ([`Kind`]). [`ensure`] is that whole rule in one call (the lock beside the file, the
//! first use's generation); [`Found::check`] refuses a default that is not what its name
//! promises. Every program calls these two, so no first use builds without the lock and every
//! surface refuses a table of another board in the same words.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::cache::{generate, make_dir, Plan};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("slidetable/2x2.slt");
//! make_dir(&path).unwrap();
//! let done = generate(&Plan::default_for(Board::new(2, 2).unwrap()), &path, &|_| {}).unwrap();
//! assert_eq!((done.sections, done.states), (4, 12));
//! assert!(path.exists());
//! ```

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use slidetable_core::{Board, Layout};
use slidetable_format::CostModel;

use crate::{partition_placements, solve, solve_partition, Destination, GenError, Partition};

/// The environment variable naming the default (3×3) table.
pub const TABLE_ENV: &str = "SLIDETABLE_TABLE";

/// Where a table path came from: only the cache default is generated on first use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named by the caller (`--table`).
    Argument,
    /// Named by `$SLIDETABLE_TABLE`.
    Environment,
    /// The cache directory's default table for the board.
    Cache,
}

/// The table to use: `explicit`, else `$SLIDETABLE_TABLE` (which names the default 3×3
/// table), else `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else
/// `~/.cache`).
pub fn resolve(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin), GenError> {
    if let Some(p) = explicit {
        return Ok((p.to_path_buf(), Origin::Argument));
    }
    if let Some(p) = std::env::var_os(TABLE_ENV).filter(|v| !v.is_empty() && board == Board::EIGHT)
    {
        return Ok((PathBuf::from(p), Origin::Environment));
    }
    Ok((
        cache_dir()?.join(format!("slidetable/{board}.slt")),
        Origin::Cache,
    ))
}

/// The most cells of a default table made on first use (a query waits for it): 12 cells take
/// seconds and 60 MB; 2×7 and 7×2 take a 10.9 GB file, 16 GB of memory and half an hour or
/// more, so they are made only by `generate`.
pub const FIRST_USE_MAX_CELLS: usize = 12;

/// Whether a resolved table must be generated before it is opened: only a cache default
/// that is not there yet (a named table that is missing is the user's error to see).
pub fn needs_generating(path: &Path, origin: Origin) -> bool {
    origin == Origin::Cache && !path.exists()
}

fn cache_dir() -> Result<PathBuf, GenError> {
    // XDG: a relative $XDG_CACHE_HOME is invalid and must be ignored.
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        if p.is_absolute() {
            return Ok(p);
        }
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache")),
        None => Err(GenError::NoCacheDir),
    }
}

pub use crate::plan::Plan;

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
    let work = crate::resume::Work::open(plan, destination.target(), run.restart, run.events)?;
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

/// What a board's default file holds: a table of every state (boards up to 12 cells), or a
/// pattern database (the 15-puzzle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A table of every state's distance.
    Table,
    /// A pattern database towards [`pattern_goal`]: of [`DEFAULT_PARTITION`] when the cache
    /// has one, else of [`FIRST_USE_PARTITION`], built on first use ([`ensure`]).
    Pattern,
}

impl Kind {
    /// The kind of `board`'s default file.
    pub fn of(board: Board) -> Kind {
        if board.supports_tables() {
            Kind::Table
        } else {
            Kind::Pattern
        }
    }
}

/// The partition a default pattern database has (Korf and Felner's 7-8 split on 4×4): what
/// `slidetable generate --board 4x4` writes to the cache, and what is used when it is there.
pub const DEFAULT_PARTITION: &str = "7-8";

/// The partition the first use builds when the cache has no [`DEFAULT_PARTITION`] database:
/// seconds and 22 MB instead of minutes and 1.4 GB, for searches about 15× slower (4.2 ms
/// against 64 ms of CPU per Korf instance, BENCHMARKS.md). It is written beside the default
/// file ([`first_use_path`]), which is preferred as soon as it exists.
pub const FIRST_USE_PARTITION: &str = "6-6-3";

/// Where the first use's pattern database lives, beside the default file `path`:
/// `RxC-663.slt` for `RxC.slt`.
pub fn first_use_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "patterns".to_string());
    path.with_file_name(format!(
        "{stem}-{}.slt",
        FIRST_USE_PARTITION.replace('-', "")
    ))
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
    /// The default pattern database of `board`: [`DEFAULT_PARTITION`] towards
    /// [`pattern_goal`].
    pub fn default_for(board: Board) -> Result<PatternPlan, GenError> {
        let goal = pattern_goal(board);
        let partition = Partition::parse(DEFAULT_PARTITION, &goal)
            .map_err(|source| GenError::DefaultPartition { board, source })?;
        Ok(PatternPlan { goal, partition })
    }

    /// The pattern database the first use builds for `board` when no default is there:
    /// [`FIRST_USE_PARTITION`] towards [`pattern_goal`].
    pub fn first_use(board: Board) -> Result<PatternPlan, GenError> {
        let goal = pattern_goal(board);
        let partition = Partition::parse(FIRST_USE_PARTITION, &goal)
            .map_err(|source| GenError::DefaultPartition { board, source })?;
        Ok(PatternPlan { goal, partition })
    }

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
    crate::room::check_pattern_room(plan.goal.board(), &plan.partition, Some(destination.dir()))?;
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

/// What a program shows while [`ensure`] works (nothing, for [`Quiet`]).
pub trait Watch: Sync {
    /// Another process holds `lock`, the lock of the file at `path`: this one waits for it.
    fn waiting(&self, path: &Path, lock: &Path);
    /// The default file at `path` is missing and is generated now: `kind` for `board`, with
    /// `total` units of work (states, or placements for a pattern database) to report.
    fn generating(&self, path: &Path, board: Board, kind: Kind, total: u64);
    /// `n` more units of work done.
    fn progress(&self, n: u64);
    /// The generation ended (however it ended).
    fn finished(&self);
}

/// A [`Watch`] that shows nothing (a server's requests, tests).
pub struct Quiet;

impl Watch for Quiet {
    fn waiting(&self, _: &Path, _: &Path) {}
    fn generating(&self, _: &Path, _: Board, _: Kind, _: u64) {}
    fn progress(&self, _: u64) {}
    fn finished(&self) {}
}

/// The lock on a default file's lock file, released when dropped (or when the process ends,
/// however it ends).
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// The lock file of the file at `path`: `.NAME.lock` beside it.
pub fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "table".to_string());
    path.with_file_name(format!(".{name}.lock"))
}

/// Makes the directory of the default file at `path` and takes its lock, waiting (and telling
/// `watch`) while another process holds it. Whoever writes a default file holds it: the
/// first use's generation ([`ensure`]) and a program regenerating the file on request; so
/// processes that find the file missing at once generate it once (four 3×4 queries on an
/// empty cache took 18.7 s and 208 MB each instead of one 6.5 s run).
pub fn lock(path: &Path, watch: &dyn Watch) -> Result<Lock, GenError> {
    make_dir(path)?;
    let at = lock_path(path);
    let failed = |verb| {
        let path = at.clone();
        move |source| GenError::Lock { verb, path, source }
    };
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&at)
        .map_err(failed("open"))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            watch.waiting(path, &at);
            file.lock().map_err(failed("lock"))?;
        }
        Err(fs::TryLockError::Error(e)) => return Err(failed("lock")(e)),
    }
    Ok(Lock { _file: file })
}

/// A board's table, found by [`ensure`]: where it is, where its name came from, and what the
/// first use generated (if it did).
#[derive(Debug)]
pub struct Found {
    /// The file.
    pub path: PathBuf,
    /// Where its name came from.
    pub origin: Origin,
    /// The board it was asked for.
    pub board: Board,
    /// The first use's generation, when this call made the file.
    pub generated: Option<Generated>,
}

impl Found {
    /// Refuses a default file (`$SLIDETABLE_TABLE`, the cache's) that holds another board
    /// than the one asked for, or weighted costs: valid input would be blamed, or costs
    /// answered as distances. A file named explicitly is whatever it is.
    pub fn check(&self, board: Board, cost: CostModel) -> Result<(), GenError> {
        if self.origin == Origin::Argument {
            return Ok(());
        }
        let problem = if board != self.board {
            format!("is for {board} boards")
        } else if cost != CostModel::Unit {
            format!("holds {cost} costs")
        } else {
            return Ok(());
        };
        Err(GenError::NotTheDefault {
            path: self.path.clone(),
            origin: self.origin,
            problem,
            board: self.board,
        })
    }
}

/// The table for `board` ([`resolve`]d from `explicit`, `$SLIDETABLE_TABLE` or the cache),
/// generated first when it is the cache's and missing: under [`lock`], so processes that find
/// it missing at once make it once, the others waiting and then using it. Open the file at
/// [`Found::path`], then [`Found::check`] what it holds.
pub fn ensure(explicit: Option<&Path>, board: Board, watch: &dyn Watch) -> Result<Found, GenError> {
    let (path, origin) = located(explicit, board)?;
    let mut generated = None;
    if needs_generating(&path, origin) {
        if matches!(Kind::of(board), Kind::Table) && board.cells() > FIRST_USE_MAX_CELLS {
            return Err(GenError::NotMadeOnFirstUse { path, board });
        }
        let lock = lock(&path, watch)?;
        // Another process may have made it while this one waited.
        if !path.exists() {
            let made = generate_default(&path, board, watch);
            watch.finished();
            generated = Some(made?);
        }
        drop(lock);
    }
    Ok(Found {
        path,
        origin,
        board,
        generated,
    })
}

/// The file [`ensure`] opens for `board`: [`resolve`]d, and on a board of pattern databases
/// whose cache file is missing, the first use's quicker one beside it.
fn located(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin), GenError> {
    let (mut path, origin) = resolve(explicit, board)?;
    // No pattern database at the cache's usual file (where `generate` writes the
    // DEFAULT_PARTITION): the first use's quicker one beside it.
    if origin == Origin::Cache && Kind::of(board) == Kind::Pattern && !path.exists() {
        path = first_use_path(&path);
    }
    Ok((path, origin))
}

/// The refusal [`Found::check`] gives `board`'s default file (`$SLIDETABLE_TABLE` for 3×3,
/// else the cache's) once it is opened, told from the file's fixed header alone: it holds
/// another board, or weighted costs. What a list of the boards served says before a board's
/// first use, so that a board whose default cannot be used is never offered as if it could.
/// `None` when the default is missing (made on first use), cannot be read, or says it is
/// what it should be (opening it checks the rest).
pub fn misnamed(board: Board) -> Option<GenError> {
    use std::io::Read;
    let (path, origin) = located(None, board).ok()?;
    // Only a regular file is read (opening a FIFO would wait for a writer).
    if !fs::metadata(&path).ok()?.is_file() {
        return None;
    }
    let mut prefix = Vec::with_capacity(slidetable_format::FIXED_HEADER_LEN);
    File::open(&path)
        .ok()?
        .take(slidetable_format::FIXED_HEADER_LEN as u64)
        .read_to_end(&mut prefix)
        .ok()?;
    let (rows, cols, cost) = slidetable_format::claimed_board(&prefix)?;
    let held = Board::new(rows.into(), cols.into()).ok()?;
    // Pattern databases count moves (their cost byte is not a cost model's).
    let cost = if slidetable_format::is_pattern_file(&prefix) {
        CostModel::Unit
    } else {
        CostModel::from_code(cost)?
    };
    let found = Found {
        path,
        origin,
        board,
        generated: None,
    };
    found.check(held, cost).err()
}

/// Generates `board`'s default file at `path` (its directory made, its lock held).
fn generate_default(path: &Path, board: Board, watch: &dyn Watch) -> Result<Generated, GenError> {
    let progress = |n| watch.progress(n);
    match Kind::of(board) {
        Kind::Table => {
            let plan = Plan::default_for(board);
            watch.generating(path, board, Kind::Table, plan.total_states());
            generate(&plan, path, &progress)
        }
        Kind::Pattern => {
            let plan = PatternPlan::first_use(board)?;
            watch.generating(path, board, Kind::Pattern, plan.total_placements());
            generate_patterns(&plan, path, &progress)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(origin: Origin) -> Found {
        Found {
            path: PathBuf::from("t.slt"),
            origin,
            board: Board::EIGHT,
            generated: None,
        }
    }

    #[test]
    fn a_default_must_be_what_its_name_promises() {
        let two = Board::new(2, 3).unwrap();
        // Named explicitly, a table is whatever it is.
        assert!(found(Origin::Argument).check(two, CostModel::Tile).is_ok());
        for origin in [Origin::Environment, Origin::Cache] {
            assert!(found(origin).check(Board::EIGHT, CostModel::Unit).is_ok());
        }
        assert_eq!(
            found(Origin::Environment)
                .check(two, CostModel::Unit)
                .unwrap_err()
                .to_string(),
            "table t.slt (from $SLIDETABLE_TABLE) is for 2x3 boards, but the default table \
             must be for 3x3 boards with unit costs"
        );
        assert_eq!(
            found(Origin::Cache)
                .check(Board::EIGHT, CostModel::Tile)
                .unwrap_err()
                .to_string(),
            "table t.slt (the cache's) holds tile costs, but the default table must be for \
             3x3 boards with unit costs"
        );
    }

    #[test]
    fn every_board_has_one_kind_of_default() {
        assert_eq!(Kind::of(Board::EIGHT), Kind::Table);
        assert_eq!(Kind::of(Board::new(3, 4).unwrap()), Kind::Table);
        assert_eq!(Kind::of(Board::FIFTEEN), Kind::Pattern);
        let plan = PatternPlan::default_for(Board::FIFTEEN).unwrap();
        assert_eq!(plan.partition.sizes(), "7-8");
        assert_eq!(plan.goal, Board::FIFTEEN.goal_with_blank(0));
    }

    #[test]
    fn a_second_locker_waits_and_is_told() {
        struct Told(std::sync::Mutex<Vec<PathBuf>>);
        impl Watch for Told {
            fn waiting(&self, _: &Path, lock: &Path) {
                self.0.lock().unwrap().push(lock.to_path_buf());
            }
            fn generating(&self, _: &Path, _: Board, _: Kind, _: u64) {}
            fn progress(&self, _: u64) {}
            fn finished(&self) {}
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/2x2.slt");
        let first = lock(&path, &Quiet).unwrap();
        let told = Told(std::sync::Mutex::new(Vec::new()));
        std::thread::scope(|s| {
            let second = s.spawn(|| lock(&path, &told).map(drop));
            while told.0.lock().unwrap().is_empty() {
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(first);
            second.join().unwrap().unwrap();
        });
        assert_eq!(
            *told.0.lock().unwrap(),
            [dir.path().join("sub/.2x2.slt.lock")]
        );
    }
}
