//! The API against the router: answers equal the library's (the calls the command line
//! makes) on random puzzles and goals; every bad parameter is refused with status 400 and a
//! message naming it; unknown routes, other methods, long queries and bodies are refused.

use crate::common::{app, get, in_a_process_of_its_own, send, table_file, BOARDS};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use slidetable::core::{path_string, Board, Layout};
use slidetable::query::{SplitMix64, Table};
use slidetable::search::HeuristicKind;

/// A uniformly random layout of `board` (either parity class).
fn random_layout(board: Board, rng: &mut SplitMix64) -> Layout {
    let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
    for i in (1..tiles.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        tiles.swap(i, j);
    }
    Layout::new(board, &tiles).unwrap()
}

fn commas(layout: &Layout) -> String {
    let mut s = String::new();
    layout.write_tokens(&mut s, ",").unwrap();
    s
}

#[tokio::test]
async fn solve_answers_as_the_table_does_on_random_puzzles_and_goals() {
    let app = app();
    let mut rng = SplitMix64::new(15);
    for board in BOARDS {
        let board: Board = board.parse().unwrap();
        let table = Table::open(table_file(board)).unwrap();
        for round in 0..60 {
            let puzzle = random_layout(board, &mut rng);
            // Half the time the standard goal (left out of the query), else any goal.
            let goal = if round % 2 == 0 {
                board.standard_goal()
            } else {
                random_layout(board, &mut rng)
            };
            let mut uri = format!("/api/solve?board={board}&puzzle={}", commas(&puzzle));
            if round % 2 == 1 {
                uri += &format!("&goal={}", commas(&goal));
            }
            let json = get(&app, &uri).await.ok();
            let expected = table.path_to(&puzzle, &goal).unwrap();
            assert_eq!(json["puzzle"], serde_json::json!(puzzle.tiles()), "{uri}");
            assert_eq!(json["board"], board.to_string());
            assert_eq!(json["goal"], serde_json::json!(goal.tiles()));
            assert_eq!(json["solvable"], expected.is_some(), "{uri}");
            assert_eq!(json["solvable"], puzzle.can_reach(&goal), "{uri}");
            match &expected {
                Some(path) => {
                    assert_eq!(json["distance"], path.len(), "{uri}");
                    assert_eq!(json["path"], path_string(path), "{uri}");
                    assert_eq!(puzzle.after(path), Some(goal), "{uri}");
                }
                None => {
                    assert!(
                        json["distance"].is_null() && json["path"].is_null(),
                        "{uri}"
                    );
                }
            }
            let heuristics = json["heuristics"].as_object().unwrap();
            assert_eq!(heuristics.len(), HeuristicKind::ALL.len());
            for kind in HeuristicKind::ALL {
                assert_eq!(
                    heuristics[kind.name()],
                    kind.build(&goal).estimate(&puzzle),
                    "{uri} {kind}"
                );
            }
        }
    }
}

#[tokio::test]
async fn solve_reads_every_puzzle_syntax_the_command_line_reads() {
    let app = app();
    for puzzle in [
        "2,3,4,1,5,0,7,6,8",
        "2+3+4+1+5+x+7+6+8",
        "23415x768",
        "2%203%204%201%205%200%207%206%208",
    ] {
        let json = get(&app, &format!("/api/solve?puzzle={puzzle}")).await.ok();
        assert_eq!(
            json["puzzle"],
            serde_json::json!([2, 3, 4, 1, 5, 0, 7, 6, 8]),
            "{puzzle}"
        );
        // The README's example: 19 moves, and the path `slidetable path` prints.
        assert_eq!(json["distance"], 19);
        assert_eq!(json["path"], "ullddrurdllurrdlurd");
        assert_eq!(json["board"], "3x3");
    }
}

#[tokio::test]
async fn random_draws_as_the_command_line_draws() {
    let app = app();
    // `slidetable random --depth 20 --count 3 --seed 7` prints 8 5 0 2 6 1 4 3 7 first (README).
    let json = get(&app, "/api/random?depth=20&seed=7").await.ok();
    assert_eq!(
        json["puzzle"],
        serde_json::json!([8, 5, 0, 2, 6, 1, 4, 3, 7])
    );
    assert_eq!(json["distance"], 20);
    assert_eq!(json["seed"], "7");
    assert_eq!(json["drawn"], "depth");
    // The request's own names: `depth` as asked, no walk; `moves` is a weighted answer's
    // count of moves, never a draw's.
    assert_eq!(json["depth"], 20);
    assert_eq!(json["walk"], serde_json::Value::Null);
    assert!(json.get("moves").is_none(), "{json}");
    assert_eq!(json["solvable"], true);
    let mut rng = SplitMix64::new(5);
    for board in BOARDS {
        let board: Board = board.parse().unwrap();
        let table = Table::open(table_file(board)).unwrap();
        for _ in 0..20 {
            let goal = random_layout(board, &mut rng);
            let section = table.goal(&goal).unwrap();
            let depth = rng.below(u64::from(section.max_distance()) + 1) as u32;
            let seed = rng.next_u64();
            let uri = format!(
                "/api/random?board={board}&depth={depth}&seed={seed}&goal={}",
                commas(&goal)
            );
            let json = get(&app, &uri).await.ok();
            let (expected, _) = section
                .layer(depth..=depth)
                .unwrap()
                .sample(&mut SplitMix64::new(seed))
                .unwrap();
            assert_eq!(json["puzzle"], serde_json::json!(expected.tiles()), "{uri}");
            assert_eq!(json["distance"], depth, "{uri}");
            assert_eq!(json["goal"], serde_json::json!(goal.tiles()));
            assert_eq!(json["seed"], seed.to_string());
            let path = slidetable::core::parse_path(json["path"].as_str().unwrap()).unwrap();
            assert_eq!(path.len() as u32, depth, "{uri}");
            assert_eq!(expected.after(&path), Some(goal), "{uri}");
        }
    }
}

/// The README's examples of the API, byte for byte.
#[tokio::test]
async fn the_readme_examples_answer_as_shown() {
    let app = app();
    let readme = include_str!("../../../README.md");
    let block = readme
        .split("```")
        .find(|b| b.contains("GET /api/solve?board=3x3"))
        .expect("the README's API examples");
    let lines: Vec<&str> = block.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 6, "{block}");
    for pair in lines.chunks(2) {
        let uri = pair[0].strip_prefix("GET ").unwrap();
        let answer = get(&app, uri).await;
        assert_eq!(answer.body, pair[1], "{uri}");
    }
}

#[tokio::test]
async fn random_without_a_seed_names_the_seed_it_drew_with() {
    let app = app();
    let first = get(&app, "/api/random?depth=25").await.ok();
    // A string: JavaScript numbers round seeds above 2^53.
    let seed: u64 = first["seed"].as_str().unwrap().parse().unwrap();
    let again = get(&app, &format!("/api/random?depth=25&seed={seed}"))
        .await
        .ok();
    assert_eq!(first, again);
}

/// serde_json reads floats to within an ulp or so (its exact parser is a feature we leave off).
fn close(got: &serde_json::Value, want: f64) {
    let got = got.as_f64().unwrap();
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1.0),
        "{got} != {want}"
    );
}

#[tokio::test]
async fn stats_are_the_histograms() {
    let app = app();
    for board in BOARDS {
        let board: Board = board.parse().unwrap();
        let table = Table::open(table_file(board)).unwrap();
        for blank in 0..board.cells() {
            let goal = board.goal_with_blank(blank);
            let uri = format!("/api/stats?board={board}&goal={}", commas(&goal));
            let json = get(&app, &uri).await.ok();
            let stats = table.goal(&goal).unwrap().stats();
            assert_eq!(json["states"], stats.states);
            assert_eq!(json["max_distance"], stats.max);
            assert_eq!(json["median"], stats.median);
            close(&json["mean"], stats.mean);
            let layers = json["distances"].as_array().unwrap();
            assert_eq!(layers.len(), stats.layers.len());
            for (got, want) in layers.iter().zip(&stats.layers) {
                assert_eq!(got["distance"], want.distance);
                assert_eq!(got["states"], want.states);
                close(&got["share"], want.share);
                close(&got["cumulative"], want.cumulative);
            }
        }
    }
    let json = get(&app, "/api/stats").await.ok();
    assert_eq!(json["states"], 181_440);
    assert_eq!(json["max_distance"], 31);
    assert_eq!(json["goal"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
}

#[tokio::test]
async fn boards_lists_what_is_served() {
    let json = get(&app(), "/api/boards").await.ok();
    let boards: Vec<&str> = json["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_str().unwrap())
        .collect();
    assert_eq!(boards, ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"]);
    assert_eq!(
        json["boards"][5]["goal"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0])
    );
    let names: Vec<&str> = HeuristicKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(json["heuristics"], serde_json::json!(names));
}

/// Every refusal of a bad parameter: status 400, and exactly this message.
#[tokio::test]
async fn every_bad_parameter_is_a_400_naming_it() {
    let app = app();
    let cases: &[(&str, &str)] = &[
        ("/api/solve", "puzzle: missing (it is required)"),
        ("/api/solve?puzzle=", "puzzle: expected 9 tiles, found 0"),
        (
            "/api/solve?puzzle=1,2,3",
            "puzzle: expected 9 tiles, found 3",
        ),
        (
            "/api/solve?puzzle=1,2,3,4,5,6,7,8,8",
            "puzzle: tile 8 appears twice",
        ),
        (
            "/api/solve?puzzle=1,2,3,4,5,6,7,8,9",
            "puzzle: tile 9 is not on a 3x3 board (tiles are 1..8, the blank is 0)",
        ),
        (
            "/api/solve?board=2x2&puzzle=1,2,3,4,5,6,7,8,0",
            "puzzle: tile 4 is not on a 2x2 board (tiles are 1..3, the blank is 0)",
        ),
        (
            "/api/solve?puzzle=1,2,3,4,5,6,7,8,0&goal=1,2,3",
            "goal: expected 9 tiles, found 3",
        ),
        (
            "/api/solve?board=3&puzzle=1,2,3,0",
            "board: board size '3' is not of the form RxC (for example 3x3)",
        ),
        (
            "/api/solve?board=1x3&puzzle=1,2,0",
            "board: a board needs at least 2 rows and 2 columns, got 1x3",
        ),
        (
            "/api/solve?board=5x5&puzzle=1",
            "board: a 5x5 board has 25 cells; boards go up to 16 cells",
        ),
        (
            "/api/solve?board=3x4&puzzle=1",
            "board: no table for 3x4 boards here (boards: 2x2, 2x3, 3x2, 2x4, 4x2, 3x3)",
        ),
        (
            "/api/solve?puzzle=1,2,3,4,5,6,7,8,0&puzzle=1,2,3,4,5,6,7,8,0",
            "puzzle: given more than once",
        ),
        (
            "/api/solve?puzzle=1,2,3,4,5,6,7,8,0&depth=3",
            "unknown parameter 'depth' (this route takes board, puzzle, goal)",
        ),
        (
            "/api/random?depth=",
            "depth: expected a number of moves, found ''",
        ),
        (
            "/api/random?depth=-1",
            "depth: expected a number of moves, found '-1'",
        ),
        (
            "/api/random?depth=ten",
            "depth: expected a number of moves, found 'ten'",
        ),
        (
            "/api/random?depth=32",
            "depth: no state is 32 moves from 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away",
        ),
        (
            "/api/random?depth=31&goal=1,2,3,4,0,5,6,7,8",
            "depth: no state is 31 moves from 1 2 3 4 0 5 6 7 8: the farthest are 30 moves away",
        ),
        (
            "/api/random?depth=4294967296",
            "depth: expected a number of moves, found '4294967296'",
        ),
        (
            "/api/random?depth=3&seed=x",
            "seed: expected a number from 0 to 18446744073709551615, found 'x'",
        ),
        (
            "/api/random?depth=3&seed=18446744073709551616",
            "seed: expected a number from 0 to 18446744073709551615, found '18446744073709551616'",
        ),
        (
            "/api/random?depth=3&count=2",
            "unknown parameter 'count' (this route takes board, depth, walk, seed, goal)",
        ),
        ("/api/stats?goal=0", "goal: expected 9 tiles, found 1"),
        (
            "/api/stats?table=/etc/passwd",
            "unknown parameter 'table' (this route takes board, goal)",
        ),
        (
            "/api/boards?board=3x3",
            "unknown parameter 'board' (this route takes no parameters)",
        ),
    ];
    for (uri, message) in cases {
        assert_eq!(
            get(&app, uri).await.error(StatusCode::BAD_REQUEST),
            *message,
            "{uri}"
        );
    }
}

#[tokio::test]
async fn unknown_routes_other_methods_long_queries_and_bodies_are_refused() {
    let app = app();
    assert_eq!(
        get(&app, "/api/solver").await.error(StatusCode::NOT_FOUND),
        "no such page: /api/solver"
    );
    assert_eq!(
        get(&app, "/index.php").await.error(StatusCode::NOT_FOUND),
        "no such page: /index.php"
    );
    let post = Request::post("/api/solve?puzzle=1,2,3,4,5,6,7,8,0")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        send(&app, post).await.error(StatusCode::METHOD_NOT_ALLOWED),
        "method POST is not allowed here (only GET)"
    );
    // HEAD too (the README: every route GET, other methods 405), on a route and elsewhere
    // (an answer to HEAD carries no body: the status and the type say it).
    for uri in ["/api/solve?puzzle=1,2,3,4,5,6,7,8,0", "/", "/api/nowhere"] {
        let head = Request::head(uri).body(Body::empty()).unwrap();
        let answer = send(&app, head).await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{uri}");
        assert_eq!(answer.content_type, "application/json", "{uri}");
    }
    let long = format!("/api/solve?puzzle={}", "1,".repeat(600));
    assert_eq!(
        get(&app, &long).await.error(StatusCode::URI_TOO_LONG),
        "query: 1207 bytes long; at most 1024 are read"
    );
    let long = format!("/{}", "a".repeat(300));
    assert_eq!(
        get(&app, &long).await.error(StatusCode::URI_TOO_LONG),
        "path: 301 bytes long; at most 256 are read"
    );
    let with_body = Request::get("/api/solve?puzzle=1,2,3,4,5,6,7,8,0")
        .header("content-length", "5")
        .body(Body::from("hello"))
        .unwrap();
    assert_eq!(
        send(&app, with_body)
            .await
            .error(StatusCode::PAYLOAD_TOO_LARGE),
        "body: requests here carry no body (parameters go in the query)"
    );
}

/// Whether `text` names another host (the SVG namespace is a name, not an address loaded).
fn fetches_elsewhere(text: &str) -> bool {
    let text = text.replace("\"http://www.w3.org/2000/svg\"", "");
    text.contains("http://") || text.contains("https://") || text.contains("//cdn")
}

#[tokio::test]
async fn the_page_and_everything_it_loads_come_from_here() {
    let app = app();
    let page = get(&app, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.content_type, "text/html; charset=utf-8");
    for (uri, content_type) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
    ] {
        assert!(page.body.contains(&format!("\"{uri}\"")), "{uri}");
        let asset = get(&app, uri).await;
        assert_eq!(asset.status, StatusCode::OK, "{uri}");
        assert_eq!(asset.content_type, content_type, "{uri}");
        assert!(!fetches_elsewhere(&asset.body), "{uri}");
    }
    assert!(!fetches_elsewhere(&page.body));
    for testid in [
        "board",
        "distance",
        "h-",
        "solve",
        "hint",
        "new-puzzle",
        "chart",
    ] {
        let script = get(&app, "/app.js").await.body;
        assert!(
            page.body.contains(&format!("data-testid=\"{testid}"))
                || script.contains(&format!("testid = `{testid}")),
            "{testid}"
        );
    }
}

/// A mapped table (2×5's, 18 MB: mapped, not read) written over in place under the server:
/// the next API answer is refused with 500 and the library's message, naming the table by
/// its file name only, never a possibly wrong answer. In a process of its own: every answer
/// of the process is refused from then on.
#[tokio::test]
async fn a_mapped_table_written_over_in_place_refuses_the_next_answer() {
    if !in_a_process_of_its_own("api::a_mapped_table_written_over_in_place_refuses_the_next_answer")
    {
        return;
    }
    use std::io::{Seek, SeekFrom, Write};
    use std::sync::Arc;

    use slidetable::generate::{generate, Plan};
    use slidetable_serve::{open_table, router, Tables};

    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(2, 5).unwrap();
    let path = dir.path().join("2x5.slt");
    let plan = Plan {
        board,
        // A section for every blank's place, 18 MB.
        goals: slidetable::generate::default_goals(board),
        encoding: None,
        cost: slidetable::query::CostModel::Unit,
    };
    generate(&plan, &path, &|_| {}).unwrap();
    let app = router(Arc::new(
        Tables::of(vec![open_table(&path).unwrap()]).unwrap(),
    ));
    let uri = "/api/solve?board=2x5&puzzle=1,2,3,4,5,6,7,8,0,9";
    assert_eq!(get(&app, uri).await.ok()["distance"], 1);
    // Zeros over part of the payload, in place: same file, same length.
    let len = std::fs::metadata(&path).unwrap().len();
    assert!(
        len >= slidetable::query::READ_BELOW,
        "{len} bytes: read, not mapped"
    );
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.seek(SeekFrom::Start(len / 2)).unwrap();
    file.write_all(&[0u8; 4096]).unwrap();
    file.set_len(len).unwrap();
    drop(file);
    // A modification time as coarse as a second could match the first: make it differ.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let refused = get(&app, uri)
        .await
        .error(StatusCode::INTERNAL_SERVER_ERROR);
    drop(app);
    assert_eq!(
        refused,
        "table 2x5.slt changed while in use (replace tables with `mv` or `slidetable \
         generate`, never by writing over them)"
    );
}
