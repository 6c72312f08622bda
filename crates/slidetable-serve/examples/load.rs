//! Load on a running `slidetable serve`: rounds of requests from concurrent clients, each
//! checked, with requests per second, latency quantiles and the server's resident memory
//! (VmRSS from /proc) before the first round and after each.
//!
//! ```sh
//! target/release/slidetable serve --bind 127.0.0.1:8073 &
//! cargo run --release -p slidetable-serve --example load -- http://127.0.0.1:8073/ $! [ROUNDS] [REQUESTS] [CONCURRENCY]
//! ```
//! (`scripts/serve-load.sh` does both.) With `students` after the PID: 30 simulated students
//! on the 15-puzzle instead (each round: every student draws a walk of at most 40 moves and
//! steps 3 optimal moves, every answer checked), for `ROUNDS` rounds. Exits 1 if any request
//! failed.

#[path = "../tests/common/layout.rs"]
mod common_layout;
#[path = "../tests/common/load.rs"]
mod load;

use std::process::ExitCode;

/// The server's resident memory: (all, anonymous, file-backed: the mapped table), in KiB.
fn rss_kib(pid: &str) -> Option<(u64, u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((field("VmRSS:")?, field("RssAnon:")?, field("RssFile:")?))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: load URL PID [ROUNDS] [REQUESTS] [CONCURRENCY]");
        return ExitCode::from(2);
    }
    let (url, pid) = (&args[1], &args[2]);
    let number = |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().unwrap());
    let show_rss = |when: &str| match rss_kib(pid) {
        Some((all, anon, file)) => {
            println!("server RSS {when}: {all} KiB ({anon} KiB anonymous, {file} KiB mapped files)")
        }
        None => println!("server RSS {when}: unknown (no /proc/{pid}/status)"),
    };
    show_rss("before");
    let mut failed = false;
    if args.get(3).map(String::as_str) == Some("students") {
        let rounds = number(4, 5);
        for round in 1..=rounds {
            let report = load::students(url, 30, 1, round as u64).await;
            println!(
                "round {round}: 30 students, {} requests: {} ok, p50 {:.2} ms, p99 {:.2} ms, \
                 max {:.2} ms, {:.1} s",
                report.requests,
                report.ok,
                report.quantile(0.5).as_secs_f64() * 1e3,
                report.quantile(0.99).as_secs_f64() * 1e3,
                report.quantile(1.0).as_secs_f64() * 1e3,
                report.elapsed.as_secs_f64(),
            );
            for f in &report.failures {
                println!("  failed: {f}");
            }
            failed |= report.ok != report.requests;
            show_rss(&format!("after round {round}"));
        }
        return if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    let (rounds, requests, concurrency) = (number(3, 5), number(4, 1000), number(5, 25));
    for round in 1..=rounds {
        let report = load::run(url, requests, concurrency, round as u64).await;
        println!(
            "round {round}: {} requests, {concurrency} concurrent: {} ok, {:.0} requests/s, \
             p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            report.requests,
            report.ok,
            report.per_second(),
            report.quantile(0.5).as_secs_f64() * 1e3,
            report.quantile(0.99).as_secs_f64() * 1e3,
            report.quantile(1.0).as_secs_f64() * 1e3,
        );
        for f in &report.failures {
            println!("  failed: {f}");
        }
        failed |= report.ok != report.requests;
        show_rss(&format!("after round {round}"));
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
