//! A load on a running server: `total` requests from `concurrency` clients at once, each
//! checked (status 200, the JSON the route answers), timed one by one. Shared by the load test
//! (`tests/load.rs`) and the benchmark (`examples/load.rs`).

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use slidetable_query::SplitMix64;

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
