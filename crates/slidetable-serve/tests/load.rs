//! 1,000 requests at 25 at a time on loopback: every one answered, and answered right. (How
//! fast, and the server's memory, are measured by `examples/load.rs`, never asserted.)

use crate::common_load as load;

use crate::common::{pattern_file, serve_boards, table_file, BOARDS};
use slidetable_serve::{Config, SearchLimits, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_requests_at_25_concurrent_all_answered() {
    let serving = serve_boards().await;
    let report = load::run(&serving.url, 1000, 25, 1).await;
    assert_eq!(report.requests, 1000, "{report:?}");
    assert_eq!(report.ok, 1000, "{:?}", report.failures);
    eprintln!(
        "1000 requests, 25 concurrent: {:.0} requests/s, p50 {:?}, p99 {:?}",
        report.per_second(),
        report.quantile(0.5),
        report.quantile(0.99)
    );
    // Graceful shutdown: the server returns once told to stop.
    serving.stop().await;
}

/// 30 students on the 15-puzzle at once (5-5-5 databases): each draws 4 walks of at most 40
/// moves and steps 3 optimal moves from each; every answer checked. The time cap is raised
/// so that a loaded CI machine cannot turn an answer into "more than N moves"; the default
/// cap is what `examples/load.rs` measures.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_students_on_the_fifteen_puzzle_all_answered_right() {
    let mut tables: Vec<_> = BOARDS
        .iter()
        .map(|b| table_file(b.parse().unwrap()))
        .collect();
    tables.push(pattern_file());
    let server = Server::bind(&Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        tables,
        preload: Vec::new(),
        preload_told: std::sync::Arc::new(slidetable::defaults::Quiet),
        searches: SearchLimits {
            time: std::time::Duration::from_secs(120),
            ..SearchLimits::default()
        },
        connections: Default::default(),
    })
    .await
    .unwrap();
    let url = server.url().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let report = load::students(&url, 30, 4, 1).await;
    // A draw, then up to three steps (fewer on a puzzle nearer the goal).
    assert!(
        (30 * 4..=30 * 4 * 4).contains(&report.requests),
        "{report:?}"
    );
    assert_eq!(report.ok, report.requests, "{:?}", report.failures);
    eprintln!(
        "30 students, {} requests: p50 {:?}, p99 {:?}",
        report.requests,
        report.quantile(0.5),
        report.quantile(0.99)
    );
    let _ = stop.send(());
    task.await.unwrap().unwrap();
}
