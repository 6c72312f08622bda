//! The 15-puzzle on the API: answers from IDA* on pattern databases equal the command line's
//! (`path --board 4x4` runs the same search: the same path) and an independent IDA* with
//! linear conflict (the same length); a search past its time cap says how far it got; past
//! the queue a request gets 503 with Retry-After; draws repeat by seed; a 2-bit table draws
//! at a depth as a byte table does; the effort lesson's numbers are the search crate's.

use crate::common_layout as layout;

use std::sync::Arc;
use std::time::Duration;

use crate::common::{app_with, fifteen_tables, get, pattern_file, table_file};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use layout::layout_of;
use slidetable::core::{parse_layout, parse_path, path_string, Board, Layout, Move};
use slidetable::query::{SplitMix64, Table};
use slidetable::search::{
    idastar, solve, solve_with_patterns, Heuristic, HeuristicKind, Limits, LinearConflict, Method,
    Symmetric,
};
use slidetable_serve::{router_with, SearchLimits};
use tower::ServiceExt;

/// A 15-puzzle far from the standard goal (listed among the farthest, 80 moves), far past
/// any time cap with 5-5-5 databases.
const FARTHEST: &str = "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";

fn roomy() -> SearchLimits {
    // Correctness, not speed: a loaded machine must not turn an answer into "more than".
    SearchLimits {
        time: Duration::from_secs(120),
        ..SearchLimits::default()
    }
}

fn commas(layout: &Layout) -> String {
    let mut s = String::new();
    layout.write_tokens(&mut s, ",").unwrap();
    s
}

/// What `slidetable path --board 4x4 --table FILE` runs for `goal`.
fn with_databases<T>(goal: &Layout, f: impl FnOnce(&Symmetric<'_>) -> T) -> T {
    let fifteen = slidetable::Fifteen::open(pattern_file()).unwrap();
    f(&fifteen.solver(goal).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifteen_puzzle_answers_as_path_and_an_independent_search_do() {
    let app = app_with(roomy());
    let board = Board::FIFTEEN;
    let mut rng = SplitMix64::new(23);
    for (round, goal) in [
        board.standard_goal(),
        board.goal_with_blank(0),
        board.goal_with_blank(3),
    ]
    .into_iter()
    .enumerate()
    {
        for walk in [0u32, 1, 12, 25, 40] {
            let seed = rng.next_u64();
            let uri = format!(
                "/api/random?board=4x4&walk={walk}&seed={seed}&goal={}",
                commas(&goal)
            );
            let drawn = get(&app, &uri).await.ok();
            assert_eq!(drawn["drawn"], "walk", "{uri}");
            assert_eq!(drawn["walk"], walk, "{uri}");
            assert_eq!(drawn["depth"], serde_json::Value::Null, "{uri}");
            assert_eq!(drawn["seed"], seed.to_string(), "{uri}");
            let puzzle = layout_of(board, &drawn["puzzle"]).unwrap();
            let uri = format!(
                "/api/solve?board=4x4&puzzle={}&goal={}",
                commas(&puzzle),
                commas(&goal)
            );
            let json = get(&app, &uri).await.ok();
            // The draw's answer is the solve's.
            for key in ["puzzle", "distance", "path", "heuristics", "goal"] {
                assert_eq!(drawn[key], json[key], "{key} of {uri}");
            }
            let (path, pdb) = with_databases(&goal, |s| {
                (
                    s.solve(&puzzle, Move::ALL, &Limits::default())
                        .unwrap()
                        .path,
                    s.estimate(&puzzle),
                )
            });
            let independent = idastar(&puzzle, &LinearConflict::new(&goal), &Limits::default())
                .unwrap()
                .path;
            assert_eq!(json["path"], path_string(&path), "{uri} (round {round})");
            assert_eq!(json["distance"], independent.len(), "{uri}");
            assert!(walk >= independent.len() as u32, "{uri}");
            assert_eq!(
                puzzle.after(&parse_path(json["path"].as_str().unwrap()).unwrap()),
                Some(goal)
            );
            assert_eq!(json["heuristics"]["pdb"], pdb, "{uri}");
            for kind in HeuristicKind::ALL {
                assert_eq!(
                    json["heuristics"][kind.name()],
                    kind.build(&goal).estimate(&puzzle)
                );
            }
            assert_eq!(json["solvable"], true);
            assert!(json.get("at_least").is_none(), "{json}");
        }
    }
    // The other parity class: unreachable, at once.
    let swapped = "2,1,3,4,5,6,7,8,9,10,11,12,13,14,15,0";
    let json = get(&app, &format!("/api/solve?board=4x4&puzzle={swapped}"))
        .await
        .ok();
    assert_eq!(json["solvable"], false);
    assert_eq!(json["distance"], serde_json::Value::Null);
    // A goal whose blank no symmetry carries to a corner: refused, naming the goal, in the
    // command line's words.
    let middle = board.goal_with_blank(5);
    let error = get(
        &app,
        &format!("/api/solve?board=4x4&puzzle={0}&goal={0}", commas(&middle)),
    )
    .await
    .error(StatusCode::BAD_REQUEST);
    assert!(
        error.starts_with("goal: the database's goal ")
            && error.contains(&format!("no symmetry carries goal {middle}'s blank to")),
        "{error}"
    );
    // No exact depth without a table, and no spread of distances.
    let error = get(&app, "/api/random?board=4x4&depth=10")
        .await
        .error(StatusCode::BAD_REQUEST);
    assert!(error.starts_with("depth: "), "{error}");
    let error = get(&app, "/api/stats?board=4x4")
        .await
        .error(StatusCode::BAD_REQUEST);
    assert!(
        error.starts_with("board: 4x4 boards have no table"),
        "{error}"
    );
    let error = get(&app, "/api/random?board=4x4&walk=3&depth=3")
        .await
        .error(StatusCode::BAD_REQUEST);
    assert!(error.starts_with("walk: give depth"), "{error}");
    let error = get(&app, "/api/random?board=4x4&walk=10001")
        .await
        .error(StatusCode::BAD_REQUEST);
    assert_eq!(error, "walk: 10001 moves; at most 10000 are walked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_past_its_time_cap_says_how_far_it_got() {
    let app = app_with(SearchLimits {
        time: Duration::from_millis(100),
        ..SearchLimits::default()
    });
    let json = get(&app, &format!("/api/solve?board=4x4&puzzle={FARTHEST}"))
        .await
        .ok();
    assert_eq!(json["distance"], serde_json::Value::Null, "{json}");
    assert_eq!(json["path"], serde_json::Value::Null, "{json}");
    assert_eq!(json["solvable"], true);
    let at_least = json["at_least"].as_u64().unwrap();
    let estimate = json["heuristics"]["pdb"].as_u64().unwrap();
    // A lower bound: from the databases' estimate up to 80 (no 15-puzzle is farther), of
    // the distance's parity (that of the Manhattan distance).
    assert!((estimate..=80).contains(&at_least), "{json}");
    let manhattan = json["heuristics"]["manhattan"].as_u64().unwrap();
    assert_eq!(at_least % 2, manhattan % 2, "{json}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_queue_a_search_gets_503_with_retry_after() {
    let app = router_with(
        Arc::new(fifteen_tables()),
        SearchLimits {
            time: Duration::from_secs(3),
            running: 1,
            queue: 0,
            ..SearchLimits::default()
        },
    );
    let long = {
        let app = app.clone();
        tokio::spawn(
            async move { get(&app, &format!("/api/solve?board=4x4&puzzle={FARTHEST}")).await },
        )
    };
    // Wait until the long search holds the one place.
    let waiting = std::time::Instant::now();
    loop {
        assert!(
            !long.is_finished(),
            "the long search ended before it was seen running"
        );
        assert!(waiting.elapsed() < Duration::from_secs(60));
        let boards = get(&app, "/api/boards").await.ok();
        if boards["searches"]["running"] == 1 {
            assert_eq!(boards["searches"]["most_running"], 1);
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for uri in [
        "/api/solve?board=4x4&puzzle=1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
        "/api/effort?board=3x3&puzzle=1,2,3,4,5,6,7,0,8",
        "/api/random?board=4x4&walk=5",
    ] {
        let response = app
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{uri}");
        assert_eq!(response.headers()["retry-after"], "1", "{uri}");
    }
    // A table's answer is a look-up, never queued.
    get(&app, "/api/solve?puzzle=1,2,3,4,5,6,7,0,8").await.ok();
    let capped = long.await.unwrap().ok();
    assert!(capped["at_least"].as_u64().is_some(), "{capped}");
    // The place is free again.
    let json = get(
        &app,
        "/api/solve?board=4x4&puzzle=1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
    )
    .await
    .ok();
    assert_eq!(json["distance"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_repeat_by_seed_and_seeds_are_strings() {
    let app = app_with(SearchLimits {
        time: Duration::from_millis(50),
        ..SearchLimits::default()
    });
    let uri = "/api/random?board=4x4&seed=18446744073709551615";
    let first = get(&app, uri).await.ok();
    assert_eq!(first["seed"], "18446744073709551615");
    assert_eq!(first["drawn"], "uniform");
    assert_eq!(first["depth"], serde_json::Value::Null);
    assert_eq!(first["walk"], serde_json::Value::Null);
    let again = get(&app, uri).await.ok();
    assert_eq!(first["puzzle"], again["puzzle"]);
    let puzzle = layout_of(Board::FIFTEEN, &first["puzzle"]).unwrap();
    assert!(puzzle.can_reach(&Board::FIFTEEN.standard_goal()));
    let json = get(&app, "/api/random?board=4x4&walk=0&seed=3").await.ok();
    assert_eq!(
        json["puzzle"],
        serde_json::json!(Board::FIFTEEN.standard_goal().tiles())
    );
    assert_eq!(json["distance"], 0);
    // Uniform draws on a table board: any solvable puzzle, with its exact distance.
    let json = get(&app, "/api/random?board=2x3&seed=9").await.ok();
    let puzzle = layout_of(Board::new(2, 3).unwrap(), &json["puzzle"]).unwrap();
    let table = Table::open(table_file(puzzle.board())).unwrap();
    assert_eq!(json["distance"], table.distance(&puzzle).unwrap().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_bit_table_draws_at_a_depth_as_a_byte_table_does() {
    let app = app_with(roomy());
    let table = Table::open(table_file(Board::EIGHT)).unwrap();
    let goal = Board::EIGHT.standard_goal();
    let section = table.goal(&goal).unwrap();
    let mut rng = SplitMix64::new(2);
    for depth in [0u32, 1, 14, 27, 31] {
        let seed = rng.next_u64();
        let json = get(
            &app,
            &format!("/api/random?board=3x3&depth={depth}&seed={seed}"),
        )
        .await
        .ok();
        let (expected, _) = section
            .layer(depth..=depth)
            .unwrap()
            .sample(&mut SplitMix64::new(seed))
            .unwrap();
        assert_eq!(
            json["puzzle"],
            serde_json::json!(expected.tiles()),
            "depth {depth}"
        );
        assert_eq!(json["distance"], depth);
    }
    // The distances read in the background after the first draw: that work ends.
    let waiting = std::time::Instant::now();
    loop {
        let boards = get(&app, "/api/boards").await.ok();
        let busy = boards["boards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| !b["work"].is_null());
        if !busy {
            break;
        }
        assert!(waiting.elapsed() < Duration::from_secs(60), "{boards}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The lesson's numbers are what `search --method M --heuristic H --json --stats` counts:
/// the same library calls, the same limits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn effort_runs_every_method_and_heuristic_as_search_does() {
    let app = app_with(roomy());
    for (board, puzzle) in [
        (Board::EIGHT, "8,6,7,2,5,4,3,0,1"),
        (Board::FIFTEEN, "5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12"),
    ] {
        let json = get(&app, &format!("/api/effort?board={board}&puzzle={puzzle}"))
            .await
            .ok();
        let layout = parse_layout(board, puzzle.as_bytes()).unwrap();
        let goal = board.standard_goal();
        let cap = json["max_expanded"].as_u64().unwrap();
        let limits = Limits {
            max_expanded: Some(cap),
            ..Limits::default()
        };
        let runs = json["runs"].as_array().unwrap();
        // Blind first (breadth-first, uniform-cost: heuristic `none`), with the same caps.
        let mut expected: Vec<_> = [Method::Bfs, Method::Dijkstra]
            .into_iter()
            .map(|method| {
                let blind = solve(method, HeuristicKind::Manhattan, &layout, &goal, &limits);
                (method, "none", blind)
            })
            .collect();
        for method in [Method::Astar, Method::Idastar] {
            for kind in [
                HeuristicKind::Misplaced,
                HeuristicKind::Manhattan,
                HeuristicKind::LinearConflict,
            ] {
                expected.push((
                    method,
                    kind.name(),
                    solve(method, kind, &layout, &goal, &limits),
                ));
            }
            if board == Board::FIFTEEN {
                let run =
                    with_databases(&goal, |h| solve_with_patterns(method, h, &layout, &limits));
                expected.push((method, "pdb", run));
            }
        }
        assert_eq!(runs.len(), expected.len(), "{json}");
        for (run, (method, heuristic, outcome)) in runs.iter().zip(&expected) {
            assert_eq!(run["method"], method.name());
            assert_eq!(run["heuristic"], *heuristic);
            match outcome {
                Ok(s) => {
                    assert_eq!(run["expanded"], s.stats.expanded, "{run}");
                    assert_eq!(run["generated"], s.stats.generated, "{run}");
                    assert_eq!(run["peak_open"], s.stats.peak_open, "{run}");
                    assert_eq!(run["iterations"], serde_json::json!(s.stats.iterations));
                    assert_eq!(run["bound"], serde_json::json!(s.stats.bound));
                    assert_eq!(run["length"], s.path.len(), "{run}");
                }
                Err(_) => {
                    assert_eq!(run["length"], serde_json::Value::Null, "{run}");
                    assert_eq!(run["expanded"], cap, "{run}");
                }
            }
        }
        // Optimal, all of them: one length.
        let lengths: std::collections::BTreeSet<u64> =
            runs.iter().filter_map(|r| r["length"].as_u64()).collect();
        assert_eq!(lengths.len(), 1, "{json}");
    }
}
