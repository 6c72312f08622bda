//! Where default tables live, and opening one: the rule every program that answers from a
//! table follows (the `slidetable` commands, the web server, the Python package), kept in
//! one place.
//!
//! A table named explicitly wins; else `$SLIDETABLE_TABLE` names the 3×3 table; else
//! `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else `~/.cache`), which is
//! generated on first use: a table of every state up to [`FIRST_USE_MAX_CELLS`] cells (the
//! 14-cell boards only by `slidetable generate`); on 4×4 a pattern database, the 7-8 when
//! `generate` has put it there, else a 6-6-3 built in seconds ([`Kind`]). [`ensure`] is that
//! whole rule in one call (the lock beside the file, the first use's generation);
//! [`Found::open`] opens the file and refuses a default that is not what its name promises;
//! [`table`] and [`patterns`] are both in one call. Every program calls these, so no first use
//! builds without the lock and every surface refuses a table of another board in the same
//! words.
//!
//! ```no_run
//! use slidetable::{defaults, Board};
//!
//! # fn main() -> Result<(), slidetable::defaults::DefaultError> {
//! let table = defaults::table(Board::EIGHT)?; // made on first use, then mapped
//! assert_eq!(table.board(), Board::EIGHT);
//! # Ok(())
//! # }
//! ```

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use slidetable_core::Board;
use slidetable_format::CostModel;
use slidetable_gen::GenError;
use slidetable_gen::{
    generate, generate_patterns, make_dir, pattern_goal, Generated, Partition, PartitionError,
    PatternPlan, Plan,
};

/// The partition a default pattern database has (Korf and Felner's 7-8 split on 4×4): what
/// `slidetable generate --board 4x4` writes to the cache, and what is used when it is there.
pub const DEFAULT_PARTITION: &str = "7-8";

/// The partition the first use builds when the cache has no [`DEFAULT_PARTITION`] database:
/// seconds and 22 MB instead of minutes and 1.5 GB, for searches about 15× slower (4.2 ms
/// against 64 ms of CPU per Korf instance, BENCHMARKS.md). The first use writes it beside the
/// default file (`RxC-663.slt`), which is preferred as soon as it exists.
pub const FIRST_USE_PARTITION: &str = "6-6-3";

/// The pattern database of `partition` (such as [`DEFAULT_PARTITION`] or
/// [`FIRST_USE_PARTITION`]) towards `board`'s pattern goal
/// ([`slidetable_gen::pattern_goal`]): a default database's plan.
pub fn pattern_plan(board: Board, partition: &str) -> Result<PatternPlan, DefaultError> {
    let goal = pattern_goal(board);
    let partition = Partition::parse(partition, &goal)
        .map_err(|source| DefaultError::Partition { board, source })?;
    Ok(PatternPlan { goal, partition })
}
use slidetable_query::{AnyTable, MappedPatternTable, MappedTable, TableError};

/// The environment variable naming the default (3×3) table.
pub const TABLE_ENV: &str = "SLIDETABLE_TABLE";

/// Why a default table could not be found, made or opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DefaultError {
    /// The first use's generation failed.
    #[error(transparent)]
    Generate(#[from] GenError),
    /// A default partition that does not fit the board.
    #[error("the default pattern database of {board}: {source}")]
    Partition {
        /// The board.
        board: Board,
        /// Why the partition does not fit.
        source: PartitionError,
    },
    /// The file cannot be read, or is not a sound table.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A default table too large to make on first use (see [`FIRST_USE_MAX_CELLS`]) is
    /// missing.
    #[error("no table at {}: make it once with `slidetable generate --board {board}` (a {board} table is too large to make on first use)", path.display())]
    NotMadeOnFirstUse {
        /// Where the default table would be.
        path: PathBuf,
        /// Its board.
        board: Board,
    },
    /// Neither a cache directory nor a table was named.
    #[error(
        "no cache directory: set XDG_CACHE_HOME or HOME, or name a table with --table or {}",
        TABLE_ENV
    )]
    NoCacheDir,
    /// A default table's lock file could not be opened or locked.
    #[error("cannot {verb} lock file {}", path.display())]
    Lock {
        /// `open` or `lock`.
        verb: &'static str,
        /// The lock file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The default table a board's name promises is not what it holds (another board, or
    /// weighted costs): refused, naming where it came from.
    #[error(
        "table {} ({}) {problem}, but the default table must be for {board} boards with unit costs",
        path.display(),
        match origin {
            Origin::Environment => format!("from ${}", TABLE_ENV),
            _ => "the cache's".to_string(),
        }
    )]
    NotTheDefault {
        /// The table file.
        path: PathBuf,
        /// Where its name came from.
        origin: Origin,
        /// What it holds instead (`is for 2x3 boards`, `holds tile costs`).
        problem: String,
        /// The board it must be for.
        board: Board,
    },
}

impl DefaultError {
    /// Whether the system failed (a file or lock that cannot be written or read), rather
    /// than the file found or the request.
    pub fn is_io(&self) -> bool {
        match self {
            DefaultError::Lock { .. } => true,
            DefaultError::Generate(e) => {
                matches!(e, GenError::Io { .. } | GenError::CreateDir { .. })
            }
            DefaultError::Table(e) => matches!(e.kind, slidetable_query::TableErrorKind::Io(_)),
            _ => false,
        }
    }
}

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
pub fn resolve(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin), DefaultError> {
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
/// seconds and 60 MB; 2×7 and 7×2 (14 cells, the most a table holds) take a 10.9 GB file,
/// 16 GB of memory and half an hour or more, so they are made only by `generate`.
pub const FIRST_USE_MAX_CELLS: usize = 12;

/// Whether a resolved table must be generated before it is opened: only a cache default
/// that is not there yet (a named table that is missing is the user's error to see).
pub fn needs_generating(path: &Path, origin: Origin) -> bool {
    origin == Origin::Cache && !path.exists()
}

pub(crate) fn cache_dir() -> Result<PathBuf, DefaultError> {
    // XDG: a relative $XDG_CACHE_HOME is invalid and must be ignored.
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        if p.is_absolute() {
            return Ok(p);
        }
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache")),
        None => Err(DefaultError::NoCacheDir),
    }
}

/// What a board's default file holds: a table of every state (boards up to 14 cells, [`Board::supports_tables`]), or a
/// pattern database (the 15-puzzle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A table of every state's distance.
    Table,
    /// A pattern database towards [`slidetable_gen::pattern_goal`]: of
    /// [`DEFAULT_PARTITION`] when the cache has one, else of
    /// [`FIRST_USE_PARTITION`], built on first use ([`ensure`]).
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

/// The note every front end shows when `board`'s default file at `path` (of `kind`) is
/// generated on first use: where, what, and how long it takes (the command line on standard
/// error, Python as a warning).
pub fn first_use_note(path: &Path, board: Board, kind: Kind) -> String {
    match kind {
        Kind::Table => format!(
            "no table at {}; generating it once (this takes {})",
            path.display(),
            if board.cells() > 10 {
                // 11-12 cells, the largest made on first use: 2.9 s and 126 MB on the idle
                // 2-core machine (BENCHMARKS.md), 3-5 s loaded.
                "a few seconds and about 130 MB of memory"
            } else {
                "a moment"
            }
        ),
        Kind::Pattern => format!(
            "no pattern database at {}; generating the {FIRST_USE_PARTITION} databases once \
             (seconds). `slidetable generate --board {board}` makes the {DEFAULT_PARTITION} \
             databases (a few minutes once, about 1.5 GB of memory), which answer about 15x \
             faster and are used when present",
            path.display()
        ),
    }
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
pub fn lock(path: &Path, watch: &dyn Watch) -> Result<Lock, DefaultError> {
    make_dir(path)?;
    let at = lock_path(path);
    let failed = |verb| {
        let path = at.clone();
        move |source| DefaultError::Lock { verb, path, source }
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
    pub fn check(&self, board: Board, cost: CostModel) -> Result<(), DefaultError> {
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
        Err(DefaultError::NotTheDefault {
            path: self.path.clone(),
            origin: self.origin,
            problem,
            board: self.board,
        })
    }
}

impl Found {
    /// The file, its header checked (not its payload), opened once as what it holds, and
    /// refused by [`Found::check`] when a default is not what its name promises: what `info`
    /// reports on.
    pub fn open_header(&self) -> Result<AnyTable, DefaultError> {
        let table = AnyTable::open_header(&self.path)?;
        self.check(table.board(), table.cost())?;
        Ok(table)
    }

    /// As [`Found::open_header`], its payload verified as opening a table verifies it: what
    /// answers puzzles.
    pub fn open(&self) -> Result<AnyTable, DefaultError> {
        let table = self.open_header()?;
        table.verify_at_open()?;
        Ok(table)
    }
}

/// `board`'s default table of every state ([`ensure`]d: made on first use under the lock,
/// quietly), opened and checked. Python's `Table.default` and [`crate::default_table`].
pub fn table(board: Board) -> Result<MappedTable, DefaultError> {
    table_watched(board, &Quiet)
}

/// [`table`], with `watch` told of a first use's generation (its note and progress).
pub fn table_watched(board: Board, watch: &dyn Watch) -> Result<MappedTable, DefaultError> {
    Ok(ensure(None, board, watch)?.open()?.into_table()?)
}

/// `board`'s default pattern database (the cache's `RxC.slt`, else the first use's, built
/// with [`FIRST_USE_PARTITION`] under the lock), opened and checked. Python's
/// `Fifteen.default` and [`crate::Fifteen::default`].
pub fn patterns(board: Board) -> Result<MappedPatternTable, DefaultError> {
    patterns_watched(board, &Quiet)
}

/// [`patterns`], with `watch` told of a first use's generation (its note and progress).
pub fn patterns_watched(
    board: Board,
    watch: &dyn Watch,
) -> Result<MappedPatternTable, DefaultError> {
    Ok(ensure(None, board, watch)?.open()?.into_patterns()?)
}

/// The table for `board` ([`resolve`]d from `explicit`, `$SLIDETABLE_TABLE` or the cache),
/// generated first when it is the cache's and missing: under [`lock`], so processes that find
/// it missing at once make it once, the others waiting and then using it. Open the file at
/// [`Found::path`], then [`Found::check`] what it holds.
pub fn ensure(
    explicit: Option<&Path>,
    board: Board,
    watch: &dyn Watch,
) -> Result<Found, DefaultError> {
    let (path, origin) = located(explicit, board)?;
    let mut generated = None;
    if needs_generating(&path, origin) {
        if matches!(Kind::of(board), Kind::Table) && board.cells() > FIRST_USE_MAX_CELLS {
            return Err(DefaultError::NotMadeOnFirstUse { path, board });
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
fn located(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin), DefaultError> {
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
pub fn misnamed(board: Board) -> Option<DefaultError> {
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
fn generate_default(
    path: &Path,
    board: Board,
    watch: &dyn Watch,
) -> Result<Generated, DefaultError> {
    let progress = |n| watch.progress(n);
    match Kind::of(board) {
        Kind::Table => {
            let plan = Plan::default_for(board);
            watch.generating(path, board, Kind::Table, plan.total_states());
            Ok(generate(&plan, path, &progress)?)
        }
        Kind::Pattern => {
            let plan = pattern_plan(board, FIRST_USE_PARTITION)?;
            watch.generating(path, board, Kind::Pattern, plan.total_placements());
            Ok(generate_patterns(&plan, path, &progress)?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
        assert_eq!(Kind::of(Board::new(2, 7).unwrap()), Kind::Table);
        assert_eq!(Kind::of(Board::FIFTEEN), Kind::Pattern);
        let plan = pattern_plan(Board::FIFTEEN, DEFAULT_PARTITION).unwrap();
        assert_eq!(plan.partition.sizes(), "7-8");
        assert_eq!(plan.goal, Board::FIFTEEN.goal_with_blank(0));
        let plan = pattern_plan(Board::FIFTEEN, FIRST_USE_PARTITION).unwrap();
        assert_eq!(plan.partition.sizes(), "6-6-3");
    }

    /// A first use's note says how long the user waits and what it takes, in figures a
    /// reader can plan by (BENCHMARKS.md: a 12-cell default table takes 2.9 s and 126 MB on
    /// the idle 2-core machine), not "a while".
    #[test]
    fn the_first_use_note_says_how_long_and_how_much_memory() {
        let note = |rows, cols| {
            first_use_note(
                Path::new("c/t.slt"),
                Board::new(rows, cols).unwrap(),
                Kind::Table,
            )
        };
        assert_eq!(
            note(3, 3),
            "no table at c/t.slt; generating it once (this takes a moment)"
        );
        for (rows, cols) in [(3, 4), (4, 3), (2, 6), (6, 2)] {
            assert_eq!(
                note(rows, cols),
                "no table at c/t.slt; generating it once (this takes a few seconds and about \
                 130 MB of memory)"
            );
        }
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

    /// The only test of this crate that sets the process's environment (the others name
    /// their paths): the rule of where a default lives.
    #[test]
    fn where_tables_live_and_making_them() {
        let dir = tempfile::tempdir().unwrap();
        let two = Board::new(2, 3).unwrap();
        std::env::remove_var(TABLE_ENV);
        std::env::set_var("HOME", dir.path().join("home"));
        std::env::remove_var("XDG_CACHE_HOME");

        // An explicit table wins, and is never generated.
        let named = Path::new("named.slt");
        assert_eq!(
            resolve(Some(named), Board::EIGHT).unwrap(),
            (named.to_path_buf(), Origin::Argument)
        );
        assert!(!needs_generating(named, Origin::Argument));

        // Else ~/.cache, or an absolute $XDG_CACHE_HOME; a relative one is ignored.
        let home_cache = dir.path().join("home/.cache/slidetable/2x3.slt");
        assert_eq!(
            resolve(None, two).unwrap(),
            (home_cache.clone(), Origin::Cache)
        );
        std::env::set_var("XDG_CACHE_HOME", "relative");
        assert_eq!(resolve(None, two).unwrap().0, home_cache);
        std::env::set_var("XDG_CACHE_HOME", dir.path().join("xdg"));
        let xdg: PathBuf = dir.path().join("xdg/slidetable/2x3.slt");
        assert_eq!(resolve(None, two).unwrap(), (xdg.clone(), Origin::Cache));

        // $SLIDETABLE_TABLE names the 3x3 table only.
        std::env::set_var(TABLE_ENV, "eight.slt");
        assert_eq!(
            resolve(None, Board::EIGHT).unwrap(),
            (PathBuf::from("eight.slt"), Origin::Environment)
        );
        assert_eq!(resolve(None, two).unwrap().1, Origin::Cache);
        std::env::remove_var(TABLE_ENV);

        // A missing cache default is generated (its directory made first), then it is there.
        assert!(needs_generating(&xdg, Origin::Cache));
        make_dir(&xdg).unwrap();
        let done = generate(&Plan::default_for(two), &xdg, &|_| {}).unwrap();
        assert_eq!((done.sections, done.states), (6, 360));
        assert!(!needs_generating(&xdg, Origin::Cache));

        // A directory that cannot be made is named.
        let under_a_file = xdg.join("slidetable/2x3.slt");
        let e = make_dir(&under_a_file).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "cannot create directory {}",
                xdg.join("slidetable").display()
            )
        );

        // No cache directory at all.
        std::env::remove_var("XDG_CACHE_HOME");
        std::env::remove_var("HOME");
        assert_eq!(
            resolve(None, two).unwrap_err().to_string(),
            "no cache directory: set XDG_CACHE_HOME or HOME, or name a table with --table or \
             SLIDETABLE_TABLE"
        );
    }
}
