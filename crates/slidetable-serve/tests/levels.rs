//! `/api/random?depth=` through the level pass: how a 14-cell table (2×7, whose distances do
//! not fit a byte a state) draws at a depth, the command line's `random --depth` pass, every
//! draw (its distances are never recovered). Forced here on a 2×5 table in 2-bit entries with
//! `SLIDETABLE_LEVEL_PASS=1`, as the command line's tests force it (one test function, alone
//! in its binary: the variables are the process's, set in turn).

mod common;

use std::sync::Arc;

use axum::http::StatusCode;
use common::{get, table_dir};
use slidetable::core::Board;
use slidetable::generate::{generate, Plan};
use slidetable::query::{Encoding, LEVEL_PASS_ENV};
use slidetable_serve::{open_table, router, Tables};

#[tokio::test]
async fn a_depth_draw_through_the_level_pass_is_the_same_draw_and_is_refused_without_memory() {
    let board = Board::new(2, 5).unwrap();
    let path = table_dir().join("2x5-2bit.slt");
    let plan = Plan {
        board,
        goals: vec![board.standard_goal()],
        encoding: Some(Encoding::TwoBit),
        cost: slidetable::query::CostModel::Unit,
    };
    generate(&plan, &path, &|_| {}).unwrap();
    let app = || {
        router(Arc::new(
            Tables::of(vec![open_table(&path).unwrap()]).unwrap(),
        ))
    };
    let draws: [(u32, u64); 6] = [
        (0, 1),
        (1, 5),
        (20, 7),
        (37, 99),
        (54, 3),
        (55, 12_345_678_901),
    ];
    let goal = "&goal=9,8,7,6,5,4,3,2,1,0";

    // The draws from recovered distances (the pass not forced): what a 12-cell table does.
    let small = app();
    let mut want = Vec::new();
    for (depth, seed) in draws {
        let uri = format!("/api/random?board=2x5&depth={depth}&seed={seed}");
        want.push(get(&small, &uri).await.ok());
    }
    let relabelled = format!("/api/random?board=2x5&depth=30&seed=4{goal}");
    let want_relabelled = get(&small, &relabelled).await.ok();

    std::env::set_var(LEVEL_PASS_ENV, "1");
    let levels = app();
    for ((depth, seed), want) in draws.iter().zip(&want) {
        let uri = format!("/api/random?board=2x5&depth={depth}&seed={seed}");
        let got = get(&levels, &uri).await.ok();
        assert_eq!(got, *want, "{uri}");
        assert_eq!(got["distance"], *depth, "{uri}");
    }
    // Another goal (tiles relabelled onto the section's): the same draw too.
    assert_eq!(get(&levels, &relabelled).await.ok(), want_relabelled);
    // A depth beyond the table's: the request's fault, as on every table.
    let beyond = get(&levels, "/api/random?board=2x5&depth=56&seed=1").await;
    let message = beyond.error(StatusCode::BAD_REQUEST);
    assert!(message.starts_with("depth: "), "{message}");

    // Too little memory for the level bitmap and the entries: refused for now (503), naming
    // both and where the figure comes from.
    std::env::set_var("SLIDETABLE_AVAILABLE_MEMORY", "1000");
    let refused = get(&levels, "/api/random?board=2x5&depth=20&seed=7").await;
    let message = refused.error(StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        message,
        "a draw at a depth on a 2x5 table reads it level by level, in one bit a state \
         (226800 bytes) beside its 453600 bytes of entries: 680400 bytes of memory, but 1000 \
         bytes is available ($SLIDETABLE_AVAILABLE_MEMORY)"
    );
    std::env::remove_var("SLIDETABLE_AVAILABLE_MEMORY");
    assert_eq!(
        get(&levels, "/api/random?board=2x5&depth=20&seed=7")
            .await
            .ok(),
        want[2]
    );
    std::env::remove_var(LEVEL_PASS_ENV);
}
