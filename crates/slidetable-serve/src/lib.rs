//! `slidetable serve`: a page for the classroom and a JSON API, over the same tables and the
//! same library calls as the command line. Students play a sliding puzzle and see, after every
//! move, the exact distance to the goal beside each heuristic's estimate.
//!
//! The page (HTML, CSS and JavaScript) is compiled into the binary and loads nothing from
//! elsewhere. The API answers `GET /api/solve`, `/api/random`, `/api/stats`, `/api/effort`
//! and `/api/boards` with JSON in the command line's `--json` shape; bad input gets status 400
//! and `{"error": "..."}` naming the parameter. The 15-puzzle is answered by IDA* on pattern
//! databases, each search within a time cap, a few at once ([`SearchLimits`]); past the
//! queue a request gets 503 with `Retry-After`. Connections are capped and timed out
//! ([`ConnectionLimits`]): a client that holds a connection open without sending a whole
//! request's headers is closed, so idle or slow clients cannot use up the server's files.
//!
//! ```
//! use std::sync::Arc;
//! use slidetable::core::Board;
//! use slidetable_serve::{router, Tables};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("2x2.slt");
//! let plan = slidetable::generate::Plan::default_for(Board::new(2, 2).unwrap());
//! slidetable::generate::generate(&plan, &path, &|_| {}).unwrap();
//! let tables = Tables::of(vec![slidetable_serve::open_table(&path).unwrap()]).unwrap();
//! let app: axum::Router = router(Arc::new(tables));
//! # let _ = app;
//! ```

mod api;
mod connections;
mod draw;
mod effort;
mod gate;
mod patterns;
mod progress;
mod source;
mod tables;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use slidetable::core::Board;
use slidetable::query::TableError;
use tokio::net::TcpListener;
use tokio::sync::Notify;

pub use api::{router, router_with, MAX_PATH, MAX_QUERY};
pub use connections::ConnectionLimits;
pub use gate::SearchLimits;
pub use patterns::PatternSource;
pub use progress::{Progress, Work};
pub use source::{Found, Source, SourceError, TableSource};
pub use tables::{open_default, open_table, Tables};

pub(crate) use slidetable::query::error_chain as chain;

/// The address served when none is given: loopback only, so nothing outside this machine
/// sees the page unless the user binds elsewhere.
pub const DEFAULT_BIND: &str = "127.0.0.1:8073";

/// Why the server could not start (or a board's table could not be opened).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// A table named to serve cannot be opened.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A table opened but cannot be served (a weighted one).
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The task opening the tables stopped (it panicked or was cancelled).
    #[error("{0}")]
    Task(#[from] tokio::task::JoinError),
    /// Two tables for one board.
    #[error("two tables for {board} boards: {first} and {second}; name one per board")]
    TwoTables {
        /// The board.
        board: Board,
        /// Where the first table comes from ([`Source::origin`]).
        first: String,
        /// Where the second comes from.
        second: String,
    },
    /// A board's default table could not be found, generated or opened.
    #[error("the {board} table: {message}")]
    Opening {
        /// The board.
        board: Board,
        /// What failed, from the cache, the generator or the table's reader.
        message: String,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: io::Error,
    },
    /// The server stopped with an error.
    #[error("the server stopped")]
    Serve(#[source] io::Error),
}

/// What to serve, and where.
#[derive(Clone)]
pub struct Config {
    /// The address to listen on ([`DEFAULT_BIND`] by default).
    pub bind: SocketAddr,
    /// Tables to serve, one per board; every other board gets its default table on first use.
    pub tables: Vec<PathBuf>,
    /// Boards whose default tables are opened (generated if missing) before listening.
    pub preload: Vec<Board>,
    /// Told of a preloaded default's generation, beside the page: the command line's note
    /// and progress bar on its terminal ([`slidetable::defaults::Quiet`] by default).
    pub preload_told: Arc<dyn slidetable::defaults::Watch + Send>,
    /// How much searching (the 15-puzzle, the effort lesson) the server does at once.
    pub searches: SearchLimits,
    /// How many connections are open at once, and how long one may wait for a request.
    pub connections: ConnectionLimits,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("tables", &self.tables)
            .field("preload", &self.preload)
            .field("searches", &self.searches)
            .field("connections", &self.connections)
            .finish_non_exhaustive()
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: DEFAULT_BIND.parse().expect("a socket address"),
            tables: Vec::new(),
            preload: vec![Board::EIGHT],
            preload_told: Arc::new(slidetable::defaults::Quiet),
            searches: SearchLimits::default(),
            connections: ConnectionLimits::default(),
        }
    }
}

/// A server bound to its address, not yet answering.
pub struct Server {
    listener: TcpListener,
    tables: Arc<Tables>,
    searches: SearchLimits,
    connections: ConnectionLimits,
}

impl Server {
    /// Opens the named tables and the preloaded defaults (on the blocking pool: generating
    /// a missing default takes a moment), then binds the address.
    pub async fn bind(config: &Config) -> Result<Server, ServeError> {
        let paths = config.tables.clone();
        let opened = tokio::task::spawn_blocking(move || {
            paths
                .iter()
                .map(|p| open_table(p))
                .collect::<Result<Vec<_>, _>>()
        })
        .await??;
        let tables = Arc::new(Tables::with_defaults(opened)?);
        for &board in &config.preload {
            tables
                .source_told(board, config.preload_told.clone())
                .await?;
        }
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|source| ServeError::Bind {
                addr: config.bind,
                source,
            })?;
        Ok(Server {
            listener,
            tables,
            searches: config.searches,
            connections: config.connections,
        })
    }

    /// The address it listens on (the port the system chose, for port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The page's address.
    pub fn url(&self) -> io::Result<String> {
        Ok(format!("http://{}/", self.local_addr()?))
    }

    /// Answers until `shutdown` completes, then finishes the requests under way and returns.
    /// At most [`ConnectionLimits::most`] connections are open at once (the next waits to be
    /// accepted until one closes), and each is closed when it has not sent a whole request's
    /// headers within [`ConnectionLimits::idle`] of opening or of its last answer.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> io::Result<()> {
        connections::serve(
            self.listener,
            router_with(self.tables, self.searches),
            self.connections,
            shutdown,
        )
        .await
    }
}

/// How long requests under way may take to finish once the server is told to stop.
pub const GRACE: Duration = Duration::from_secs(5);

/// Serves `config` until Ctrl-C (or SIGTERM), telling `listening` the page's URL once it
/// answers. On the signal it stops accepting, lets requests under way finish for up to
/// [`GRACE`], then returns.
pub async fn serve(config: &Config, listening: impl FnOnce(&str)) -> Result<(), ServeError> {
    let server = Server::bind(config).await?;
    // Heard from before the URL is told: a signal sent as soon as it is read stops us
    // gracefully too, instead of killing the process.
    let signalled = stop_signal();
    listening(&server.url().map_err(ServeError::Serve)?);
    let stop = Arc::new(Notify::new());
    let stopped = stop.clone();
    let running = tokio::spawn(server.run(async move { stopped.notified().await }));
    signalled.await;
    // A permit is kept if the server is not waiting yet: the stop is never lost.
    stop.notify_one();
    match tokio::time::timeout(GRACE, running).await {
        Ok(Ok(result)) => result.map_err(ServeError::Serve),
        Ok(Err(panicked)) => Err(ServeError::Serve(io::Error::other(panicked))),
        // Requests still under way after the grace period are cut.
        Err(_) => Ok(()),
    }
}

/// Completes on Ctrl-C, or on SIGTERM where there are signals; both are listened for from
/// this call on (not from the first poll), so none sent after it is missed.
pub fn stop_signal() -> impl Future<Output = ()> {
    // Without a handler there is nothing to wait for; a signal or a kill still ends us.
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let heard = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = heard(interrupt) => {}
                () = heard(terminate) => {}
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
