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
use slidetable_core::{parse_layout, path_string, Board, Layout};
use slidetable_query::SplitMix64;
use slidetable_records::{Record, Seed, Stats};
use slidetable_search::HeuristicKind;

use crate::source::{Source, SourceError};
use crate::tables::{chain, Tables};

/// The longest query string answered (a 12-cell puzzle and goal, with room to spare).
pub const MAX_QUERY: usize = 1024;
/// The longest path answered (the routes are short).
pub const MAX_PATH: usize = 256;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The page, its script and style, and the API, over `tables`.
pub fn router(tables: Arc<Tables>) -> Router {
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
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(bounded))
        .with_state(tables)
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
            } else {
                StatusCode::INTERNAL_SERVER_ERROR
            },
            message: e.to_string(),
        }
    }
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json(
            self.status,
            &ErrorJson {
                error: &self.message,
            },
        )
    }
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
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// Refuses a long path or query (414) and a request with a body (413) before any work.
async fn bounded(request: Request, next: Next) -> Response {
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
    next.run(request).await
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
                message: chain(&e),
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

#[derive(Serialize)]
struct BoardJson {
    board: String,
    goal: Vec<u8>,
    /// The source's table, once it is open (`null` until the first request for the board).
    table: Option<String>,
}

#[derive(Serialize)]
struct BoardsJson {
    boards: Vec<BoardJson>,
    heuristics: Vec<&'static str>,
}

async fn boards(State(tables): State<Arc<Tables>>, request: Request) -> Result<Response, ApiError> {
    Params::parse(request.uri().query(), &[])?;
    let boards = tables
        .boards()
        .map(|board| BoardJson {
            board: board.to_string(),
            goal: board.standard_goal().tiles().to_vec(),
            table: tables.open_source(board).map(|s| s.origin()),
        })
        .collect();
    Ok(json(
        StatusCode::OK,
        &BoardsJson {
            boards,
            heuristics: HeuristicKind::ALL.iter().map(|k| k.name()).collect(),
        },
    ))
}

/// `/api/solve`: the command line's `path --json` record, with the board, the goal and every
/// heuristic's estimate beside the exact distance.
#[derive(Serialize)]
struct SolveJson<'a> {
    #[serde(flatten)]
    answer: Record<'a>,
    /// Each heuristic's estimate from the puzzle to the goal, by name.
    heuristics: BTreeMap<&'static str, u32>,
    board: String,
    goal: &'a [u8],
}

/// The answer record of `puzzle` with `path` (`None`: the goal cannot be reached), as
/// `path --json` writes it.
fn answer<'a>(puzzle: &'a Layout, letters: Option<&'a str>) -> Record<'a> {
    let mut record = Record {
        puzzle: puzzle.tiles(),
        path: Some(letters),
        solvable: letters.is_some(),
        ..Record::default()
    };
    record.measure(false, letters.map(|p| p.len() as u32), None);
    record
}

async fn solve(State(tables): State<Arc<Tables>>, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(request.uri().query(), &["board", "puzzle", "goal"])?;
    let (board, source) = params.board(&tables).await?;
    let puzzle = params.required("puzzle")?;
    let puzzle = parse_layout(board, puzzle.as_bytes()).map_err(|e| ApiError::bad("puzzle", e))?;
    let goal = params.goal(board)?;
    let letters = source.path(&puzzle, &goal)?.map(|p| path_string(&p));
    Ok(json(
        StatusCode::OK,
        &SolveJson {
            answer: answer(&puzzle, letters.as_deref()),
            heuristics: HeuristicKind::ALL
                .iter()
                .map(|k| (k.name(), k.build(&goal).estimate(&puzzle)))
                .collect(),
            board: board.to_string(),
            goal: goal.tiles(),
        },
    ))
}

/// `/api/random`: the command line's `random --json` record, with the board, the goal and
/// the seed drawn with.
#[derive(Serialize)]
struct RandomJson<'a> {
    #[serde(flatten)]
    answer: Record<'a>,
    board: String,
    goal: &'a [u8],
    seed: Seed,
}

async fn random(State(tables): State<Arc<Tables>>, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(request.uri().query(), &["board", "depth", "seed", "goal"])?;
    let (board, source) = params.board(&tables).await?;
    let depth: u32 = params
        .number("depth", "a number of moves")?
        .ok_or_else(|| ApiError::bad("depth", "missing (it is required)"))?;
    let seed: u64 = params
        .number("seed", "a number from 0 to 18446744073709551615")?
        .unwrap_or_else(SplitMix64::fresh_seed);
    let goal = params.goal(board)?;
    // A draw counts the layer over the whole section: off the async workers.
    let (puzzle, path) = tokio::task::spawn_blocking(move || source.random(&goal, depth, seed))
        .await
        .map_err(|e| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: e.to_string(),
        })??;
    let letters = path_string(&path);
    Ok(json(
        StatusCode::OK,
        &RandomJson {
            answer: answer(&puzzle, Some(&letters)),
            board: board.to_string(),
            goal: goal.tiles(),
            seed: Seed(seed),
        },
    ))
}

/// `/api/stats`: the command line's `stats --json` record.
async fn stats(State(tables): State<Arc<Tables>>, request: Request) -> Result<Response, ApiError> {
    let params = Params::parse(request.uri().query(), &["board", "goal"])?;
    let (board, source) = params.board(&tables).await?;
    let goal = params.goal(board)?;
    let stats = source.stats(&goal)?;
    // The server answers from unit-cost tables only (`TableSource::new`).
    Ok(json(
        StatusCode::OK,
        &Stats::new(source.origin(), &goal, &stats, false),
    ))
}
