//! 1,000 requests at 25 at a time on loopback: every one answered, and answered right. (How
//! fast, and the server's memory, are measured by `examples/load.rs`, never asserted.)

mod common;
#[path = "common/load.rs"]
mod load;

use common::serve_boards;

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
