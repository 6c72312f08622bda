//! The sources every request shares: tables named at start, opened once; every other board's
//! default table opened (generated first, if missing) on its first request, then kept.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use slidetable_core::{Board, MAX_TABLE_CELLS};
use slidetable_gen::cache;
use slidetable_query::Table;
use tokio::sync::OnceCell;

use crate::source::{Source, TableSource};
use crate::ServeError;

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
            let slot = Slot {
                board,
                source: OnceCell::new_with(Some(source)),
            };
            if let Some(old) = slots.insert(Order::of(board), slot) {
                let first = old.source.get().map(|s| s.origin()).unwrap_or_default();
                return Err(ServeError::TwoTables { board, first });
            }
        }
        Ok(Tables { slots })
    }

    /// These sources, and for every other board a table holds (2×2 up to 12 cells) its
    /// default table, found as the command line finds it (`$SLIDETABLE_TABLE` for 3×3, else
    /// the cache directory) and generated there on first use.
    pub fn with_defaults(sources: Vec<Arc<dyn Source>>) -> Result<Tables, ServeError> {
        let mut tables = Tables::of(sources)?;
        for rows in 2..=MAX_TABLE_CELLS / 2 {
            for cols in 2..=MAX_TABLE_CELLS / rows {
                let board = Board::for_table(rows, cols).expect("at most 12 cells");
                tables.slots.entry(Order::of(board)).or_insert(Slot {
                    board,
                    source: OnceCell::new(),
                });
            }
        }
        Ok(tables)
    }

    /// Every board answered for, smallest first.
    pub fn boards(&self) -> impl Iterator<Item = Board> + '_ {
        self.slots.values().map(|s| s.board)
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
        let Some(slot) = self.slots.get(&Order::of(board)) else {
            return Ok(None);
        };
        let source = slot
            .source
            .get_or_try_init(|| async move {
                tokio::task::spawn_blocking(move || open_default(board))
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

/// Opens the table at `path` (any board) as a source.
pub fn open_table(path: &Path) -> Result<Arc<dyn Source>, ServeError> {
    let table = Table::open(path)?;
    let source = TableSource::new(table, path)?;
    Ok(Arc::new(source))
}

/// The default table of `board`, as the command line finds it (generated if missing, under
/// the cache's lock; refused if it is not for `board` with unit costs).
pub fn open_default(board: Board) -> Result<Arc<dyn Source>, ServeError> {
    let opening = |e: &dyn std::fmt::Display| ServeError::Opening {
        board,
        message: e.to_string(),
    };
    let found = cache::ensure(None, board, &cache::Quiet).map_err(|e| opening(&chain(&e)))?;
    let table = Table::open(&found.path).map_err(|e| opening(&e))?;
    found
        .check(table.board(), table.header().cost())
        .map_err(|e| opening(&e))?;
    Ok(Arc::new(
        TableSource::new(table, &found.path).map_err(|e| opening(&e))?,
    ))
}

/// An error and its causes, `: `-separated (as the command line prints them).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
