//! What the serve test binaries share: small tables made once per binary, requests sent
//! straight to the router, and a server of those tables on a loopback port.

#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use slidetable::core::Board;
use slidetable::generate::engine::{solve_partition, write_pattern_table};
use slidetable::generate::Partition;
use slidetable::generate::{generate, Plan};
use slidetable::query::Encoding;
use slidetable_serve::{open_table, router, router_with, Config, SearchLimits, Server, Tables};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower::ServiceExt;

/// The boards the tests serve: every default table up to 9 cells (a second each at most).
pub(crate) const BOARDS: [&str; 6] = ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"];

/// A directory of default tables for [`BOARDS`], generated once per test binary run in its
/// own scratch directory under Cargo's directory for integration tests (`target/tmp`),
/// reused from run to run so no run leaves a temporary directory behind.
pub(crate) fn table_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let profile = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        };
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "slidetable-serve-{}-{profile}",
            env!("CARGO_CRATE_NAME")
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for board in BOARDS {
            let board: Board = board.parse().unwrap();
            generate(&Plan::default_for(board), &table_path(&dir, board), &|_| {}).unwrap();
        }
        dir
    })
}

/// The 5-5-5 pattern databases of 4×4 (a second to build, 0.8 MB), made once per test
/// binary run next to the tables: the smallest partition the format takes that solves
/// walks of 40 moves well within the time cap.
pub(crate) fn pattern_file() -> PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let path = table_dir().join("4x4-555.slt");
        let goal = Board::FIFTEEN.goal_with_blank(0);
        let partition = Partition::parse("5-5-5", &goal).unwrap();
        let groups = solve_partition(&goal, &partition, &|_| {}).unwrap();
        write_pattern_table(&path, &groups).unwrap();
        path
    })
    .clone()
}

/// A 3×3 table with 2-bit entries (distances mod 3), as the 12-cell tables are: drawing at
/// a depth from it needs its distances recovered first, the same code path as 12 cells.
pub(crate) fn two_bit_file() -> PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let path = table_dir().join("3x3-2bit.slt");
        let mut plan = Plan::default_for(Board::EIGHT);
        plan.encoding = Some(Encoding::TwoBit);
        generate(&plan, &path, &|_| {}).unwrap();
        path
    })
    .clone()
}

/// A router over the tables of [`BOARDS`] but 3×3's 2-bit table, and 4×4's pattern
/// databases, searching within `limits`.
pub(crate) fn app_with(limits: SearchLimits) -> Router {
    router_with(Arc::new(fifteen_tables()), limits)
}

/// The tables of [`BOARDS`] with 3×3's 2-bit one, and 4×4's pattern databases.
pub(crate) fn fifteen_tables() -> Tables {
    let mut sources: Vec<_> = BOARDS
        .iter()
        .filter(|&&b| b != "3x3")
        .map(|b| open_table(&table_file(b.parse().unwrap())).unwrap())
        .collect();
    sources.push(open_table(&two_bit_file()).unwrap());
    sources.push(open_table(&pattern_file()).unwrap());
    Tables::of(sources).unwrap()
}

fn table_path(dir: &Path, board: Board) -> PathBuf {
    dir.join(format!("{board}.slt"))
}

/// The table file of `board` (one of [`BOARDS`]).
pub(crate) fn table_file(board: Board) -> PathBuf {
    table_path(table_dir(), board)
}

/// Whether the caller is test `name` of this binary run in a process of its own; if not, it
/// runs it so (and checks that it passed) before the caller returns. For a test whose effect
/// is process-wide: a mapped table written over makes every later answer of the process a
/// 500, as it must, which the tests running beside it in one process would get too (one
/// did, in CI under load).
pub(crate) fn in_a_process_of_its_own(name: &str) -> bool {
    const ALONE: &str = "SLIDETABLE_TEST_ALONE";
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let run = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && out.contains("1 passed"),
        "{out}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    false
}

/// A router over exactly the tables of [`BOARDS`] (no cache, nothing generated).
pub(crate) fn app() -> Router {
    let sources = BOARDS
        .iter()
        .map(|b| open_table(&table_file(b.parse().unwrap())).unwrap())
        .collect();
    router(Arc::new(Tables::of(sources).unwrap()))
}

/// A finished request: status, content type and body.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) content_type: String,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {self:#?}"))
    }

    /// Status 200 and its JSON.
    pub(crate) fn ok(&self) -> serde_json::Value {
        assert_eq!(self.status, StatusCode::OK, "{self:#?}");
        self.json()
    }

    /// The `{"error": ...}` of a refused request (and nothing else in the object).
    pub(crate) fn error(&self, status: StatusCode) -> String {
        assert_eq!(self.status, status, "{self:#?}");
        assert_eq!(self.content_type, "application/json", "{self:#?}");
        let json = self.json();
        let object = json.as_object().unwrap();
        assert_eq!(object.len(), 1, "{self:#?}");
        object["error"].as_str().unwrap().to_string()
    }
}

pub(crate) async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        content_type,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

pub(crate) async fn get(app: &Router, uri: &str) -> Answer {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// A server of every board in [`BOARDS`] on a free loopback port, running on the test's
/// runtime until [`Serving::stop`].
pub(crate) struct Serving {
    pub(crate) url: String,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

/// Binds a server of [`BOARDS`]' tables to `127.0.0.1:0` and starts it.
pub(crate) async fn serve_boards() -> Serving {
    serve_tables(
        BOARDS
            .iter()
            .map(|b| table_file(b.parse().unwrap()))
            .collect(),
    )
    .await
}

/// Binds a server of `tables` to `127.0.0.1:0` and starts it.
pub(crate) async fn serve_tables(tables: Vec<PathBuf>) -> Serving {
    let config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        tables,
        preload: Vec::new(),
        preload_told: std::sync::Arc::new(slidetable::defaults::Quiet),
        searches: Default::default(),
        connections: Default::default(),
    };
    let server = Server::bind(&config).await.unwrap();
    let url = server.url().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    Serving { url, stop, task }
}

impl Serving {
    /// Graceful shutdown: tells the server to stop and waits until it has returned, without
    /// an error.
    pub(crate) async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap().unwrap();
    }
}
