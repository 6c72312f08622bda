//! The sources every request shares: tables named at start, opened once; every other board's
//! default table opened (generated first, if missing) on its first request, then kept. The
//! 15-puzzle's default is the cache's pattern database (`4x4.slt`, the command line's 7-8)
//! when there is one, else the 6-6-3 the first use builds and keeps (`4x4-663.slt`), as the
//! command line does.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use slidetable::core::{Board, MAX_TABLE_CELLS};
use slidetable::defaults as cache;
use slidetable::query::AnyTable;
use tokio::sync::OnceCell;

use crate::patterns::PatternSource;
use crate::progress::{Progress, Work};
use crate::source::{Source, TableSource};
use crate::{chain, ServeError};

/// Boards in the order the page lists them: fewer cells first, then fewer rows.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Order(usize, usize, usize);

impl Order {
    fn of(board: Board) -> Order {
        Order(board.cells(), board.rows(), board.cols())
    }
}

/// One board's source: there from the start, or opened on first use.
struct Slot {
    board: Board,
    source: OnceCell<Arc<dyn Source>>,
    /// Whether the source is the board's default table, opened on first use.
    default: bool,
    /// The default being made, while it is.
    opening: Arc<Progress>,
}

/// Every board the server answers for, each with its source.
pub struct Tables {
    slots: BTreeMap<Order, Slot>,
}

impl Tables {
    /// Exactly these sources; no other board is answered (for tests, and for a server that
    /// must not write a cache).
    pub fn of(sources: Vec<Arc<dyn Source>>) -> Result<Tables, ServeError> {
        let mut slots = BTreeMap::new();
        for source in sources {
            let board = source.board();
            let second = source.origin();
            let slot = Slot {
                board,
                source: OnceCell::new_with(Some(source)),
                default: false,
                opening: Arc::default(),
            };
            if let Some(old) = slots.insert(Order::of(board), slot) {
                let first = old.source.get().map(|s| s.origin()).unwrap_or_default();
                return Err(ServeError::TwoTables {
                    board,
                    first,
                    second,
                });
            }
        }
        Ok(Tables { slots })
    }

    /// These sources, and for every other board a table holds (2×2 up to 14 cells) its
    /// default table, found as the command line finds it (`$SLIDETABLE_TABLE` for 3×3, else
    /// the cache directory) and generated there on first use; a board too large for that
    /// (over [`cache::FIRST_USE_MAX_CELLS`]: 2×7, 7×2) only when its default table exists;
    /// and 4×4, answered from pattern databases (see [`open_default`]).
    pub fn with_defaults(sources: Vec<Arc<dyn Source>>) -> Result<Tables, ServeError> {
        let mut tables = Tables::of(sources)?;
        let mut boards = vec![Board::FIFTEEN];
        for board in Board::up_to(MAX_TABLE_CELLS) {
            if board.cells() > cache::FIRST_USE_MAX_CELLS
                && !cache::resolve(None, board).is_ok_and(|(path, _)| path.is_file())
            {
                continue;
            }
            boards.push(board);
        }
        for board in boards {
            tables.slots.entry(Order::of(board)).or_insert(Slot {
                board,
                source: OnceCell::new(),
                default: true,
                opening: Arc::default(),
            });
        }
        Ok(tables)
    }

    /// The long work under way for `board`: its default being made, or its source's own.
    pub fn work(&self, board: Board) -> Option<Work> {
        let slot = self.slots.get(&Order::of(board))?;
        match slot.source.get() {
            Some(source) => source.work(),
            None => slot.opening.work(),
        }
    }

    /// Every board answered for, smallest first.
    pub fn boards(&self) -> impl Iterator<Item = Board> + '_ {
        self.slots.values().map(|s| s.board)
    }

    /// Why `board`'s default table will be refused on its first use, told before it (its
    /// file holds another board, or weighted costs: [`cache::misnamed`]), in the words the
    /// request gets; `None` for a board whose source is open, named, or not known to be
    /// refused. Read from the file's first bytes at each call: a file put right is served.
    pub fn refused(&self, board: Board) -> Option<String> {
        let slot = self.slots.get(&Order::of(board))?;
        if !slot.default || slot.source.get().is_some() {
            return None;
        }
        let problem = cache::misnamed(board)?;
        Some(
            ServeError::Opening {
                board,
                message: problem.to_string(),
            }
            .to_string(),
        )
    }

    /// The source already open for `board`, if any.
    pub fn open_source(&self, board: Board) -> Option<Arc<dyn Source>> {
        self.slots
            .get(&Order::of(board))
            .and_then(|s| s.source.get().cloned())
    }

    /// The source for `board`: `Ok(None)` when the server does not answer for it. A default
    /// table is opened (generated first if missing, which can take seconds) on the blocking
    /// pool; requests for the same board meanwhile wait for it, and a failure is retried by
    /// the next request.
    pub async fn source(&self, board: Board) -> Result<Option<Arc<dyn Source>>, ServeError> {
        self.source_told(board, Arc::new(cache::Quiet)).await
    }

    /// [`Tables::source`], with `told` told of a default's generation too (beside the page's
    /// progress): a preloaded board's, on the command line's terminal.
    pub async fn source_told(
        &self,
        board: Board,
        told: Arc<dyn cache::Watch + Send>,
    ) -> Result<Option<Arc<dyn Source>>, ServeError> {
        let Some(slot) = self.slots.get(&Order::of(board)) else {
            return Ok(None);
        };
        let progress = slot.opening.clone();
        let source = slot
            .source
            .get_or_try_init(|| async move {
                tokio::task::spawn_blocking(move || open_default_told(board, &progress, &*told))
                    .await
                    .map_err(|e| ServeError::Opening {
                        board,
                        message: e.to_string(),
                    })?
            })
            .await?;
        Ok(Some(source.clone()))
    }
}

/// Opens the table at `path` (any board) as a source: a table of every state, or pattern
/// databases (searched with IDA*), opened once as the command line opens it.
pub fn open_table(path: &Path) -> Result<Arc<dyn Source>, ServeError> {
    source(AnyTable::open(path)?, path)
}

/// The source answering from `table`, opened from `path`.
fn source(table: AnyTable, path: &Path) -> Result<Arc<dyn Source>, ServeError> {
    Ok(match table {
        AnyTable::Patterns(databases) => Arc::new(PatternSource::new(databases, path)?),
        AnyTable::Table(table) => Arc::new(TableSource::new(table, path)?),
        // Refused, naming the file: the page answers every state of a board.
        bounded @ AnyTable::Bounded(_) => Arc::new(TableSource::new(bounded.into_table()?, path)?),
    })
}

/// Shows a default's first-use generation on the page ([`Tables::work`]), and tells another
/// watch too.
struct Shown<'a>(&'a Progress, &'a dyn cache::Watch);

impl cache::Watch for Shown<'_> {
    fn waiting(&self, path: &Path, lock: &Path) {
        self.1.waiting(path, lock);
        self.0.start(
            format!("waiting for another program making {}", path.display()),
            0,
        );
    }

    fn generating(&self, path: &Path, board: Board, kind: cache::Kind, total: u64) {
        self.1.generating(path, board, kind, total);
        let task = match kind {
            cache::Kind::Table => format!("generating the {board} table once"),
            cache::Kind::Pattern => format!(
                "building the {board} pattern databases ({}) once",
                cache::FIRST_USE_PARTITION
            ),
        };
        self.0.start(task, total);
    }

    fn progress(&self, n: u64) {
        self.1.progress(n);
        self.0.add(n);
    }

    fn finished(&self) {
        self.1.finished();
        self.0.finish();
    }
}

/// The default table of `board`, as the command line finds it (generated if missing, under
/// the cache's lock, its progress counted on `progress`; refused if it is not for `board`
/// with unit costs). On 4×4: the cache's pattern databases as the command line finds them
/// (the 7-8 if `slidetable generate --board 4x4` made it, else the 6-6-3 that the first use
/// builds in seconds and writes beside it, so a restart opens it at once).
pub fn open_default(board: Board, progress: &Progress) -> Result<Arc<dyn Source>, ServeError> {
    open_default_told(board, progress, &cache::Quiet)
}

/// [`open_default`], with `told` told of the generation too.
fn open_default_told(
    board: Board,
    progress: &Progress,
    told: &dyn cache::Watch,
) -> Result<Arc<dyn Source>, ServeError> {
    let opening = |e: &dyn std::fmt::Display| ServeError::Opening {
        board,
        message: e.to_string(),
    };
    let found =
        cache::ensure(None, board, &Shown(progress, told)).map_err(|e| opening(&chain(&e)))?;
    progress.finish();
    let table = found.open().map_err(|e| opening(&e))?;
    source(table, &found.path).map_err(|e| opening(&e))
}
