//! Every `/api/*` response has the shape docs/JSON.md gives it, the schemas the command
//! line's `--json` is checked against: one record for both surfaces.

use std::time::Duration;

use crate::common::{app, app_with, get, send, serve_boards};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use slidetable_serve::SearchLimits;
use slidetable_testkit::schema::matches;

#[tokio::test]
async fn every_route_answers_in_the_documented_shape() {
    let app = app();
    for (uri, schema) in [
        ("/api/solve?puzzle=2,3,4,1,5,0,7,6,8", "api-solve"),
        ("/api/solve?board=2x3&puzzle=1,2,3,5,4,0", "api-solve"),
        ("/api/solve?puzzle=1,2,3,4,5,6,8,7,0", "api-solve"),
        (
            "/api/random?depth=20&seed=18446744073709551615",
            "api-random",
        ),
        (
            "/api/random?board=2x3&depth=5&seed=7&goal=0,1,2,3,4,5",
            "api-random",
        ),
        ("/api/stats", "stats"),
        ("/api/stats?board=2x2&goal=0,1,2,3", "stats"),
        ("/api/boards", "api-boards"),
        ("/api/solve?puzzle=1,2", "api-error"),
        ("/api/nowhere", "api-error"),
    ] {
        let json = get(&app, uri).await.json();
        if let Err(why) = matches(&json, schema) {
            panic!("{uri}: {why}\n{json}");
        }
    }
    // Refused before any route: another method (405), a long query (414), a body (413).
    let long = format!("/api/solve?puzzle={}", "1,".repeat(600));
    for (request, status) in [
        (
            Request::post("/api/solve").body(Body::empty()).unwrap(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Request::get(long.as_str()).body(Body::empty()).unwrap(),
            StatusCode::URI_TOO_LONG,
        ),
        (
            Request::get("/api/boards")
                .header("content-length", "2")
                .body(Body::from("{}"))
                .unwrap(),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ] {
        let answer = send(&app, request).await;
        assert_eq!(answer.status, status, "{answer:?}");
        if let Err(why) = matches(&answer.json(), "api-error") {
            panic!("{status}: {why}\n{answer:?}");
        }
    }
}

/// A search refused past the queue (503, `Retry-After`) answers in the documented error
/// shape too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_refused_past_the_queue_answers_in_the_documented_shape() {
    let app = app_with(SearchLimits {
        time: Duration::from_secs(3),
        running: 1,
        queue: 0,
        ..SearchLimits::default()
    });
    let farthest = "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";
    let long = {
        let app = app.clone();
        tokio::spawn(
            async move { get(&app, &format!("/api/solve?board=4x4&puzzle={farthest}")).await },
        )
    };
    let waiting = std::time::Instant::now();
    loop {
        assert!(
            !long.is_finished(),
            "the long search ended before it was seen running"
        );
        assert!(waiting.elapsed() < Duration::from_secs(60));
        if get(&app, "/api/boards").await.ok()["searches"]["running"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for uri in [
        "/api/solve?board=4x4&puzzle=1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
        "/api/effort?board=3x3&puzzle=1,2,3,4,5,6,7,0,8",
    ] {
        let answer = get(&app, uri).await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE, "{answer:?}");
        if let Err(why) = matches(&answer.json(), "api-error") {
            panic!("{uri}: {why}\n{answer:?}");
        }
    }
    long.await.unwrap().ok();
}

/// The routes of the 15-puzzle and the effort lesson: answers found by search (with the
/// pattern databases' estimate), a search stopped at its time cap (`at_least`), walks and
/// uniform draws, effort runs finished and stopped at their cap (the README's 28-move
/// 15-puzzle: A* with misplaced tiles needs far more than 20,000 states, with the pattern
/// databases far fewer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_searched_routes_answer_in_the_documented_shape() {
    let roomy = app_with(SearchLimits {
        time: Duration::from_secs(600),
        effort_expanded: 20_000,
        ..SearchLimits::default()
    });
    let capped = app_with(SearchLimits {
        time: Duration::from_millis(1),
        ..SearchLimits::default()
    });
    let farthest = "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";
    for (app, uri, schema) in [
        (
            &roomy,
            "/api/solve?board=4x4&puzzle=1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15".to_string(),
            "api-solve",
        ),
        (
            &capped,
            format!("/api/solve?board=4x4&puzzle={farthest}"),
            "api-solve",
        ),
        (
            &roomy,
            "/api/random?board=4x4&walk=20&seed=5".to_string(),
            "api-random",
        ),
        (
            &capped,
            "/api/random?board=4x4&seed=18446744073709551615".to_string(),
            "api-random",
        ),
        (
            &roomy,
            "/api/random?board=2x3&seed=9".to_string(),
            "api-random",
        ),
        (
            &roomy,
            "/api/random?board=3x3&depth=24&seed=3".to_string(),
            "api-random",
        ),
        (
            &roomy,
            "/api/effort?puzzle=2,3,4,1,5,0,7,6,8".to_string(),
            "api-effort",
        ),
        (
            &roomy,
            "/api/effort?board=4x4&puzzle=5,1,4,6,10,3,2,8,14,11,13,12,9,0,7,15".to_string(),
            "api-effort",
        ),
        (&roomy, "/api/boards".to_string(), "api-boards"),
        (
            &roomy,
            "/api/effort?board=4x4&puzzle=1,2".to_string(),
            "api-error",
        ),
        (
            &roomy,
            "/api/random?board=4x4&depth=3&walk=3".to_string(),
            "api-error",
        ),
    ] {
        let json = get(app, &uri).await.json();
        if let Err(why) = matches(&json, schema) {
            panic!("{uri}: {why}\n{json}");
        }
        if uri.starts_with("/api/effort?board=4x4&puzzle=5,") {
            // One run stopped at the cap, one finished: both shapes were checked.
            let runs = json["runs"].as_array().unwrap();
            assert!(runs.iter().any(|r| r["stopped"].is_string()), "{json}");
            assert!(runs.iter().any(|r| r["length"].is_u64()), "{json}");
        }
    }
    let capped = get(&capped, &format!("/api/solve?board=4x4&puzzle={farthest}"))
        .await
        .ok();
    assert!(capped["at_least"].is_u64(), "{capped}");
}

/// A seed past 2^53 comes back exactly: JavaScript would round a number.
#[tokio::test]
async fn seeds_are_strings() {
    let json = get(&app(), "/api/random?depth=3&seed=18446744073709551615")
        .await
        .ok();
    assert_eq!(json["seed"], "18446744073709551615");
}

/// Requests the HTTP layer refuses before any route sees them (not HTTP; a request line too
/// long; too many headers) answer with their status and the documented error shape too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_of_the_http_layer_answer_in_the_documented_shape() {
    let served = serve_boards().await;
    let addr = served
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let long_line = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let many_headers = format!(
        "GET /api/boards HTTP/1.1\r\nHost: x\r\n{}\r\n",
        "X-A: b\r\n".repeat(200)
    );
    for (request, status) in [
        ("BLAH\r\n\r\n".to_string(), "400"),
        (long_line, "414"),
        (many_headers, "431"),
    ] {
        let addr = addr.clone();
        let response = tokio::task::spawn_blocking(move || {
            use std::io::{Read, Write};
            let mut stream = std::net::TcpStream::connect(&addr).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            stream.write_all(request.as_bytes()).unwrap();
            let mut response = Vec::new();
            stream.read_to_end(&mut response).unwrap();
            String::from_utf8(response).unwrap()
        })
        .await
        .unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status} ")),
            "{response}"
        );
        assert!(
            head.contains("\r\ncontent-type: application/json\r\n"),
            "{response}"
        );
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        if let Err(why) = matches(&json, "api-error") {
            panic!("{status}: {why}\n{response}");
        }
    }
    served.stop().await;
}
