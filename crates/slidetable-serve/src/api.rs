//! The routes: the page, and the JSON API in the command line's `--json` shape.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use slidetable::core::{parse_layout, path_string, Board, Layout};
use slidetable::query::SplitMix64;
use slidetable::search::{Heuristic, HeuristicKind, Limits};
use slidetable_records::api::{BoardInfo, Boards, Draw, Drawn, Effort, Searches, Solve};
use slidetable_records::{Record, Seed, Stats};

use crate::chain;
use crate::draw::{self, MAX_WALK};
use crate::effort;
use crate::gate::{Busy, Gate, SearchLimits, RETRY_AFTER};
use crate::source::{Found, Source, SourceError};
use crate::tables::Tables;

/// The longest query string answered (a 12-cell puzzle and goal, with room to spare).
pub const MAX_QUERY: usize = 1024;
/// The longest path answered (the routes are short).
pub const MAX_PATH: usize = 256;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// What every request shares: the sources, and the searches' limits and queue.
pub(crate) struct App {
    tables: Arc<Tables>,
    limits: SearchLimits,
    gate: Gate,
}

type Shared = State<Arc<App>>;

/// The page, its script and style, and the API, over `tables`, with the default
/// [`SearchLimits`].
pub fn router(tables: Arc<Tables>) -> Router {
    router_with(tables, SearchLimits::default())
}

/// As [`router`], searching within `limits`.
pub fn router_with(tables: Arc<Tables>, limits: SearchLimits) -> Router {
    let app = Arc::new(App {
        tables,
        gate: Gate::new(&limits),
        limits,
    });
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/api/boards", get(boards))
        .route("/api/solve", get(solve))
        .route("/api/random", get(random))
        .route("/api/stats", get(stats))
        .route("/api/effort", get(effort))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(bounded))
        .with_state(app)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // Everything the page uses comes from here: nothing else may load.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; img-src 'self' data:",
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

/// An answer that is not a success: its status and `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(parameter: &str, message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: format!("{parameter}: {message}"),
        }
    }
}

impl From<SourceError> for ApiError {
    fn from(e: SourceError) -> ApiError {
        ApiError {
            status: if e.is_bad_request() {
                StatusCode::BAD_REQUEST
            } else if e.is_unavailable() {
                StatusCode::SERVICE_UNAVAILABLE
            } else {
                StatusCode::INTERNAL_SERVER_ERROR
            },
            message: shown(&e.to_string()),
        }
    }
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json(
            self.status,
            &ErrorJson {
                error: &self.message,
            },
        );
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER));
        }
        response
    }
}

impl From<Busy> for ApiError {
    fn from(busy: Busy) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "busy: {} searches are running and {} waiting, the most this server takes; \
                 ask again in {RETRY_AFTER} s",
                busy.running, busy.queue
            ),
        }
    }
}

/// Runs `work` on the blocking pool (a search takes up to the time cap).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, SourceError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: e.to_string(),
        })?
        .map_err(ApiError::from)
}

fn json(status: StatusCode, value: &impl Serialize) -> Response {
    // Plain structs of numbers and strings always serialize.
    let body = serde_json::to_vec(value).expect("JSON of a plain struct");
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

async fn not_found(request: Request) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!("no such page: {}", request.uri().path()),
    }
}

async fn method_not_allowed(method: Method) -> Response {
    let mut response = ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("method {method} is not allowed here (only GET)"),
    }
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET"));
    response
}

/// Refuses every method but GET (405: HEAD too, which the routes would otherwise answer as
/// GET), a long path or query (414) and a request with a body (413) before any work; after
/// the API's answer, refuses it if a mapped table changed meanwhile ([`changed_table`]).
async fn bounded(request: Request, next: Next) -> Response {
    if request.method() != Method::GET {
        return method_not_allowed(request.method().clone()).await;
    }
    let uri = request.uri();
    let query = uri.query().map_or(0, str::len);
    if query > MAX_QUERY {
        return ApiError {
            status: StatusCode::URI_TOO_LONG,
            message: format!("query: {query} bytes long; at most {MAX_QUERY} are read"),
        }
        .into_response();
    }
    if uri.path().len() > MAX_PATH {
        return ApiError {
            status: StatusCode::URI_TOO_LONG,
            message: format!(
                "path: {} bytes long; at most {MAX_PATH} are read",
                uri.path().len()
            ),
        }
        .into_response();
    }
    let headers = request.headers();
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0");
    if has_body {
        return ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: "body: requests here carry no body (parameters go in the query)".into(),
        }
        .into_response();
    }
    let api = uri.path().starts_with("/api/");
    let response = next.run(request).await;
    if api {
        if let Err(changed) = slidetable::query::check_mapped_files() {
            return changed_table(&changed).into_response();
        }
    }
    response
}

/// An answer read while a mapped table's file was written over in place may be wrong: the
/// API's request then fails with 500 and the library's message (`table T changed while in
/// use …`) instead, as does every later one until the server is restarted on a sound table.
/// The router installs no signal handler (a process-wide policy is the program's): under the
/// `slidetable` binary, whose policy ends the process on a changed table (within a second, or
/// at once on a fault), this covers the moment before; embedded elsewhere, a mapped table
/// truncated under the server ends it by SIGBUS, the default.
fn changed_table(changed: &slidetable::query::TableChanged) -> ApiError {
    ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: shown(&changed.to_string()),
    }
}

/// The query's parameters, each named once and each one the route takes.
struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    fn parse(query: Option<&str>, allowed: &[&str]) -> Result<Params, ApiError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            if !allowed.contains(&name.as_ref()) {
                let takes = match allowed {
                    [] => "no parameters".to_string(),
                    _ => allowed.join(", "),
                };
                return Err(ApiError {
                    status: StatusCode::BAD_REQUEST,
                    message: format!(
                        "unknown parameter '{}' (this route takes {takes})",
                        name.escape_debug()
                    ),
                });
            }
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(ApiError::bad(&name, "given more than once"));
            }
            pairs.push((name.into_owned(), value.into_owned()));
        }
        Ok(Params { pairs })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(name, "missing (it is required)"))
    }

    /// `board` (default 3x3) and its source.
    async fn board(&self, tables: &Tables) -> Result<(Board, Arc<dyn Source>), ApiError> {
        let board = match self.get("board") {
            None => Board::EIGHT,
            Some(text) => text.parse().map_err(|e| ApiError::bad("board", e))?,
        };
        let source = tables
            .source(board)
            .await
            .map_err(|e| ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                message: shown(&chain(&e)),
            })?
            .ok_or_else(|| {
                let boards: Vec<String> = tables.boards().map(|b| b.to_string()).collect();
                ApiError::bad(
                    "board",
                    format!(
                        "no table for {board} boards here (boards: {})",
                        boards.join(", ")
                    ),
                )
            })?;
        Ok((board, source))
    }

    fn layout(&self, name: &str, board: Board) -> Result<Option<Layout>, ApiError> {
        self.get(name)
            .map(|text| parse_layout(board, text.as_bytes()).map_err(|e| ApiError::bad(name, e)))
            .transpose()
    }

    /// The required `puzzle`, for `board`.
    fn puzzle(&self, board: Board) -> Result<Layout, ApiError> {
        let text = self.required("puzzle")?;
        parse_layout(board, text.as_bytes()).map_err(|e| ApiError::bad("puzzle", e))
    }

    fn goal(&self, board: Board) -> Result<Layout, ApiError> {
        Ok(self
            .layout("goal", board)?
            .unwrap_or_else(|| board.standard_goal()))
    }

    fn number<T: std::str::FromStr>(&self, name: &str, what: &str) -> Result<Option<T>, ApiError> {
        self.get(name)
            .map(|text| {
                text.parse()
                    .map_err(|_| ApiError::bad(name, format!("expected {what}, found '{text}'")))
            })
            .transpose()
    }
}

fn answers(source: Option<&Arc<dyn Source>>, board: Board) -> &'static str {
    let searched = match source {
        Some(s) => s.searches(),
        None => !board.supports_tables(),
    };
    if searched {
        "search"
    } else {
        "table"
    }
}

/// A server's message or a source's origin as the API shows it: each absolute path by its
/// file's name only, never where on the server it lies (the cache directory names the
/// server's user). Only for the server's own words: a client's input echoed back is left as
/// it came.
fn shown(message: &str) -> String {
    message
        .split(' ')
        .map(|word| {
            let start = word.trim_start_matches(['(', '\'', '"', '`']);
            if !start.starts_with('/') {
                return word.to_string();
            }
            let opening = &word[..word.len() - start.len()];
            let name = std::path::Path::new(start)
                .file_name()
                .map_or_else(|| start.to_string(), |n| n.to_string_lossy().into_owned());
            format!("{opening}{name}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

async fn boards(State(app): Shared, request: Request) -> Result<Response, ApiError> {
    Params::parse(request.uri().query(), &[])?;
    let tables = &app.tables;
    let boards = tables
        .boards()
        .map(|board| {
            let source = tables.open_source(board);
            BoardInfo {
                board: board.to_string(),
                goal: board.standard_goal().tiles().to_vec(),
                table: source.as_ref().map(|s| shown(&s.origin())),
                answers: answers(source.as_ref(), board),
                work: tables.work(board),
                refused: tables.refused(board).as_deref().map(shown),
            }
        })
        .collect();
    let (running, waiting) = app.gate.load();
    Ok(json(
        StatusCode::OK,
        &Boards {
            boards,
            heuristics: HeuristicKind::ALL.iter().map(|k| k.name()).collect(),
            searches: Searches {
                running,
                waiting,
                most_running: app.limits.running,
                most_waiting: app.limits.queue,
                milliseconds: app.limits.time.as_millis() as u64,
                effort_expanded: app.limits.effort_expanded,
            },
        },
    ))
}

/// Finds the answer for `puzzle`: a table's at once, a search's in its turn at the gate
/// and within the time cap.
async fn find(
    app: &App,
    source: Arc<dyn Source>,
    puzzle: Layout,
    goal: Layout,
) -> Result<Found, ApiError> {
    let limits = Limits::time(app.limits.time);
    if source.searches() {
        let pass = app.gate.enter().await?;
        blocking(move || {
            let found = source.path(&puzzle, &goal, &limits);
            drop(pass);
            found
        })
        .await
    } else {
        Ok(source.path(&puzzle, &goal, &limits)?)
    }
}

/// `/api/solve`'s record of `puzzle` on `board`: `found` as `path --json` writes it
/// (`letters`: its path's letters), with every heuristic's estimate beside it (and the
/// pattern databases' on a board answered by search).
fn solved<'a>(
    board: Board,
    source: &dyn Source,
    puzzle: &'a Layout,
    goal: &'a Layout,
    found: &Found,
    letters: Option<&'a str>,
) -> Result<Solve<'a>, ApiError> {
    let mut heuristics: BTreeMap<&'static str, u32> = HeuristicKind::ALL
        .iter()
        .map(|k| (k.name(), k.build(goal).estimate(puzzle)))
        .collect();
    if let Some(patterns) = source.patterns(goal) {
        heuristics.insert("pdb", patterns?.estimate(puzzle));
    }
    let mut answer = Record {
        puzzle: puzzle.tiles(),
        path: Some(letters),
        solvable: *found != Found::Unreachable,
        ..Record::default()
    };
    let (distance, at_least) = match found {
        Found::Path(p) => (Some(p.len() as u32), None),
        Found::Unreachable => (None, None),
        Found::AtLeast(n) => (None, Some(*n)),
    };
    answer.measure(false, distance, None);
    answer.at_least = at_least;
    Ok(Solve {
        answer,
        heuristics,
        board: board.to_string(),
        goal: goal.tiles(),
    })
}

/// The letters of `found`'s path, if it has one.
fn letters(found: &Found) -> Option<String> {
    match found {
        Found::Path(p) => Some(path_string(p)),
        _ => None,
    }
}

async fn solve(State(app): Shared, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(request.uri().query(), &["board", "puzzle", "goal"])?;
    let (board, source) = params.board(&app.tables).await?;
    let puzzle = params.puzzle(board)?;
    let goal = params.goal(board)?;
    let found = find(&app, source.clone(), puzzle, goal).await?;
    let letters = letters(&found);
    let answer = solved(board, &*source, &puzzle, &goal, &found, letters.as_deref())?;
    Ok(json(StatusCode::OK, &answer))
}

async fn random(State(app): Shared, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(
        request.uri().query(),
        &["board", "depth", "walk", "seed", "goal"],
    )?;
    let (board, source) = params.board(&app.tables).await?;
    let depth: Option<u32> = params.number("depth", "a number of moves")?;
    let walk: Option<u32> = params.number("walk", "a number of moves")?;
    let seed: u64 = params
        .number("seed", "a number from 0 to 18446744073709551615")?
        .unwrap_or_else(SplitMix64::fresh_seed);
    let goal = params.goal(board)?;
    let (drawn, puzzle, found) = match (depth, walk) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "walk",
                "give depth (exactly N moves from the goal) or walk (N random moves), not both",
            ))
        }
        (Some(depth), None) => {
            // A draw counts the layer over the whole section: off the async workers.
            let drawing = source.clone();
            let (puzzle, path) = blocking(move || drawing.random(&goal, depth, seed)).await?;
            // Later draws from this goal: ready them on a thread of their own (not the
            // runtime's pool, whose shutdown would wait for it).
            let preparing = source.clone();
            let _ = std::thread::Builder::new()
                .name("prepare draws".into())
                .spawn(move || preparing.prepare(&goal));
            (Drawn::Depth, puzzle, Found::Path(path))
        }
        (None, Some(n)) if n > MAX_WALK => {
            return Err(ApiError::bad(
                "walk",
                format!("{n} moves; at most {MAX_WALK} are walked"),
            ))
        }
        (None, Some(n)) => {
            let puzzle = draw::walk(&goal, n, &mut SplitMix64::new(seed));
            let found = find(&app, source.clone(), puzzle, goal).await?;
            (Drawn::Walk, puzzle, found)
        }
        (None, None) => {
            // The command line's draw on the boards it draws without a depth (`random
            // --board 4x4 --seed S`), so the seed shown reproduces a 15-puzzle there.
            let puzzle = SplitMix64::new(seed).layout_reaching(&goal);
            let found = find(&app, source.clone(), puzzle, goal).await?;
            (Drawn::Uniform, puzzle, found)
        }
    };
    let letters = letters(&found);
    let answer = solved(board, &*source, &puzzle, &goal, &found, letters.as_deref())?;
    Ok(json(
        StatusCode::OK,
        &Draw {
            answer,
            seed: Seed(seed),
            drawn,
            depth,
            walk,
        },
    ))
}

/// `/api/stats`: the command line's `stats --json` record.
async fn stats(State(app): Shared, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(request.uri().query(), &["board", "goal"])?;
    let (board, source) = params.board(&app.tables).await?;
    let goal = params.goal(board)?;
    let stats = source.stats(&goal)?;
    // The server answers from unit-cost tables only (`TableSource::new`).
    Ok(json(
        StatusCode::OK,
        &Stats::new(shown(&source.origin()), &goal, &stats, false),
    ))
}

/// Each run's memory cap: A* remembers every state it reaches.
const EFFORT_MEMORY: u64 = 512 << 20;

/// `/api/effort`: the lesson on search effort for one puzzle.
async fn effort(State(app): Shared, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(request.uri().query(), &["board", "puzzle", "goal"])?;
    let (board, source) = params.board(&app.tables).await?;
    let puzzle = params.puzzle(board)?;
    let goal = params.goal(board)?;
    let limits = Limits {
        max_expanded: Some(app.limits.effort_expanded),
        max_time: Some(app.limits.time),
        max_memory: Some(EFFORT_MEMORY),
        ..Limits::default()
    };
    let pass = app.gate.enter().await?;
    let runs = blocking(move || {
        let runs = effort::measure(&puzzle, &goal, source.as_ref(), &limits);
        drop(pass);
        runs
    })
    .await?;
    Ok(json(
        StatusCode::OK,
        &Effort {
            board: board.to_string(),
            puzzle: puzzle.tiles(),
            goal: goal.tiles(),
            max_expanded: app.limits.effort_expanded,
            max_milliseconds: app.limits.time.as_millis() as u64,
            runs,
        },
    ))
}
