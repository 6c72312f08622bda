//! A load on a running server: `total` requests from `concurrency` clients at once, each
//! checked (status 200, the JSON the route answers), timed one by one. Shared by the load test
//! (`tests/load.rs`) and the benchmark (`examples/load.rs`).

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use slidetable::core::{parse_path, Board, Layout, Move};
use slidetable::query::SplitMix64;

use crate::common_layout as layout;
use layout::layout_of;

/// What a load did.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) requests: usize,
    /// Requests answered 200 with the expected JSON.
    pub(crate) ok: usize,
    /// The first few failures, described.
    pub(crate) failures: Vec<String>,
    pub(crate) elapsed: Duration,
    /// Every request's latency, sorted.
    pub(crate) latencies: Vec<Duration>,
}

impl Report {
    pub(crate) fn per_second(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }

    /// The latency that `q` of the requests stay within (`q` in 0..=1).
    pub(crate) fn quantile(&self, q: f64) -> Duration {
        let i = ((self.latencies.len() as f64 * q).ceil() as usize).clamp(1, self.latencies.len());
        self.latencies[i - 1]
    }
}

/// The `k`-th request of a load: mostly solves of random 3×3 puzzles (what the page asks
/// after every move), some draws and statistics.
fn request(k: usize, rng: &mut SplitMix64) -> (String, &'static str) {
    match k % 10 {
        8 => (
            format!("api/random?depth={}&seed={}", rng.below(32), rng.next_u64()),
            "\"puzzle\"",
        ),
        9 => ("api/stats".to_string(), "\"median\""),
        _ => {
            let mut tiles: Vec<u8> = (0..9).collect();
            for i in (1..9).rev() {
                tiles.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let puzzle: Vec<String> = tiles.iter().map(u8::to_string).collect();
            (
                format!("api/solve?puzzle={}", puzzle.join(",")),
                "\"heuristics\"",
            )
        }
    }
}

/// Sends `total` requests to `base` (`http://127.0.0.1:PORT/`) from `concurrency` clients.
pub(crate) async fn run(base: &str, total: usize, concurrency: usize, seed: u64) -> Report {
    let client: Client<_, Empty<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let start = Instant::now();
    let mut workers = Vec::new();
    for w in 0..concurrency {
        let client = client.clone();
        let base = base.to_string();
        workers.push(tokio::spawn(async move {
            let mut rng = SplitMix64::new(seed ^ (w as u64).wrapping_mul(0x9E37_79B9));
            let mut latencies = Vec::new();
            let mut failures = Vec::new();
            let mut k = w;
            while k < total {
                let (path, expect) = request(k, &mut rng);
                let uri: hyper::Uri = format!("{base}{path}").parse().unwrap();
                let sent = Instant::now();
                let outcome = async {
                    let response = client.get(uri).await.map_err(|e| e.to_string())?;
                    let status = response.status();
                    let body = response
                        .into_body()
                        .collect()
                        .await
                        .map_err(|e| e.to_string())?
                        .to_bytes();
                    let text = String::from_utf8_lossy(&body);
                    if status != 200 || !text.contains(expect) {
                        return Err(format!("{status}: {text}"));
                    }
                    serde_json::from_str::<serde_json::Value>(&text).map_err(|e| e.to_string())?;
                    Ok(())
                }
                .await;
                latencies.push(sent.elapsed());
                if let Err(e) = outcome {
                    failures.push(format!("{path}: {e}"));
                }
                k += concurrency;
            }
            (latencies, failures)
        }));
    }
    let mut report = Report {
        requests: 0,
        ok: 0,
        failures: Vec::new(),
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
    };
    for worker in workers {
        let (latencies, failures) = worker.await.unwrap();
        report.requests += latencies.len();
        report.ok += latencies.len() - failures.len();
        report.latencies.extend(latencies);
        report.failures.extend(failures.into_iter().take(5));
    }
    report.elapsed = start.elapsed();
    report.latencies.sort();
    report
}

/// One checked request: the JSON of a 200, or what was wrong.
async fn fetch(
    client: &Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>,
    url: &str,
) -> Result<serde_json::Value, String> {
    let uri: hyper::Uri = url.parse().map_err(|e| format!("{e}"))?;
    let response = client.get(uri).await.map_err(|e| e.to_string())?;
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    let text = String::from_utf8_lossy(&body);
    if status != 200 {
        return Err(format!("{status}: {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))
}

/// Whether `answer` (of `/api/solve` or `/api/random` on 4×4 towards the standard goal) is
/// sound: a distance (no time cap reached), a path of that length from the puzzle to the
/// goal, and a pattern estimate within it.
fn check_fifteen(answer: &serde_json::Value, most: u64) -> Result<(Layout, Vec<Move>), String> {
    let board = Board::FIFTEEN;
    let puzzle = layout_of(board, &answer["puzzle"]).ok_or("no puzzle")?;
    let distance = answer["distance"].as_u64().ok_or("no distance")?;
    let path = answer["path"]
        .as_str()
        .and_then(parse_path)
        .ok_or("no path")?;
    if path.len() as u64 != distance || distance > most {
        return Err(format!("distance {distance}, path of {}", path.len()));
    }
    if puzzle.after(&path) != Some(board.standard_goal()) {
        return Err("the path does not reach the goal".into());
    }
    if answer["heuristics"]["pdb"]
        .as_u64()
        .is_none_or(|h| h > distance)
    {
        return Err("the pattern estimate is missing or above the distance".into());
    }
    Ok((puzzle, path))
}

/// `students` students on 4×4 at once, `rounds` puzzles each: a draw (a walk of at most 40
/// random moves, so at most 40 moves from the goal), then three optimal moves, each
/// position asked as the page asks it. Every answer is checked ([`check_fifteen`]; each step
/// one move nearer).
pub(crate) async fn students(base: &str, students: usize, rounds: usize, seed: u64) -> Report {
    let client: Client<_, Empty<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let start = Instant::now();
    let mut workers = Vec::new();
    for s in 0..students {
        let client = client.clone();
        let base = base.to_string();
        workers.push(tokio::spawn(async move {
            let mut rng =
                SplitMix64::new(seed ^ (s as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut latencies = Vec::new();
            let mut failures = Vec::new();
            for _ in 0..rounds {
                let walk = rng.below(41);
                let url = format!(
                    "{base}api/random?board=4x4&walk={walk}&seed={}",
                    rng.next_u64()
                );
                let sent = Instant::now();
                let drawn = fetch(&client, &url)
                    .await
                    .and_then(|a| check_fifteen(&a, walk));
                latencies.push(sent.elapsed());
                let (mut puzzle, path) = match drawn {
                    Ok(found) => found,
                    Err(e) => {
                        failures.push(format!("{url}: {e}"));
                        continue;
                    }
                };
                let mut left = path.len() as u64;
                for &m in path.iter().take(3) {
                    puzzle = puzzle.moved(m).unwrap_or(puzzle);
                    left -= 1;
                    let mut tiles = String::new();
                    let _ = puzzle.write_tokens(&mut tiles, ",");
                    let url = format!("{base}api/solve?board=4x4&puzzle={tiles}");
                    let sent = Instant::now();
                    let answer = fetch(&client, &url).await.and_then(|a| {
                        let (_, p) = check_fifteen(&a, left)?;
                        if p.len() as u64 == left {
                            Ok(())
                        } else {
                            Err(format!(
                                "{} moves after an optimal move, not {left}",
                                p.len()
                            ))
                        }
                    });
                    latencies.push(sent.elapsed());
                    if let Err(e) = answer {
                        failures.push(format!("{url}: {e}"));
                    }
                }
            }
            (latencies, failures)
        }));
    }
    let mut report = Report {
        requests: 0,
        ok: 0,
        failures: Vec::new(),
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
    };
    for worker in workers {
        let (latencies, failures) = worker.await.unwrap();
        report.requests += latencies.len();
        report.ok += latencies.len() - failures.len();
        report.latencies.extend(latencies);
        report.failures.extend(failures.into_iter().take(5));
    }
    report.elapsed = start.elapsed();
    report.latencies.sort();
    report
}
