//! A default table must be what its name promises, on the page as on the command line: a
//! `$SLIDETABLE_TABLE` for another board is refused, named, instead of being presented as the
//! 3×3 table. Alone in its binary: it sets the environment.

use std::sync::Arc;

use crate::common::get;
use slidetable::core::Board;
use slidetable::generate::{generate, Plan};
use slidetable_serve::{open_default, router, Progress, Tables};

#[tokio::test]
async fn a_default_table_of_another_board_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("2x3.slt");
    generate(
        &Plan::default_for(Board::new(2, 3).unwrap()),
        &small,
        &|_| {},
    )
    .unwrap();
    std::env::set_var("SLIDETABLE_TABLE", &small);
    std::env::set_var("XDG_CACHE_HOME", dir.path().join("cache"));

    let expected = format!(
        "the 3x3 table: table {} (from $SLIDETABLE_TABLE) is for 2x3 boards, but the default \
         table must be for 3x3 boards with unit costs",
        small.display()
    );
    let refused = open_default(Board::EIGHT, &Progress::default())
        .err()
        .expect("a 2x3 table refused as 3x3");
    assert_eq!(refused.to_string(), expected);
    // The API names the file only, never where on the server it lies.
    let expected = expected.replace(&format!("{}/", dir.path().display()), "");
    assert!(expected.contains("table 2x3.slt (from"), "{expected}");

    // The page's API says the same, and nothing was generated in its place.
    let app = router(Arc::new(Tables::with_defaults(Vec::new()).unwrap()));
    let response = get(&app, "/api/solve?board=3x3&puzzle=2,3,4,1,5,0,7,6,8").await;
    assert!(!response.status.is_success(), "{response:#?}");
    assert!(response.body.contains(&expected), "{response:#?}");
    assert!(!dir.path().join("cache").exists());

    // `/api/boards` says so before any request, in the same words: the board is listed as
    // refused, never offered as if it could be used.
    let fresh = || router(Arc::new(Tables::with_defaults(Vec::new()).unwrap()));
    let refused = |boards: &serde_json::Value, board: &str| {
        let listed = boards["boards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["board"] == board)
            .unwrap_or_else(|| panic!("{board} not listed: {boards}"))
            .clone();
        listed["refused"].clone()
    };
    let boards = get(&fresh(), "/api/boards").await.ok();
    assert_eq!(refused(&boards, "3x3"), expected.as_str());
    assert_eq!(refused(&boards, "2x3"), serde_json::Value::Null);

    // A cache file named 2x4.slt that holds a 4x2 table: listed as refused, in the words its
    // request gets, before the first request and after it.
    let cache = dir.path().join("cache/slidetable");
    std::fs::create_dir_all(&cache).unwrap();
    let (two_four, four_two) = (Board::new(2, 4).unwrap(), Board::new(4, 2).unwrap());
    let misnamed = cache.join("2x4.slt");
    generate(&Plan::default_for(four_two), &misnamed, &|_| {}).unwrap();
    let expected = format!(
        "the 2x4 table: table {} (the cache's) is for 4x2 boards, but the default table must \
         be for 2x4 boards with unit costs",
        misnamed.file_name().unwrap().to_string_lossy()
    );
    let app = fresh();
    let boards = get(&app, "/api/boards").await.ok();
    assert_eq!(refused(&boards, "2x4"), expected.as_str(), "{boards}");
    assert_eq!(refused(&boards, "4x2"), serde_json::Value::Null);
    let response = get(&app, "/api/stats?board=2x4").await;
    assert_eq!(
        response.error(axum::http::StatusCode::INTERNAL_SERVER_ERROR),
        expected
    );
    let boards = get(&app, "/api/boards").await.ok();
    assert_eq!(refused(&boards, "2x4"), expected.as_str(), "{boards}");

    // Put right (a 2x4 table moved over it): offered and answered.
    let right = dir.path().join("right.slt");
    generate(&Plan::default_for(two_four), &right, &|_| {}).unwrap();
    std::fs::rename(&right, &misnamed).unwrap();
    let boards = get(&app, "/api/boards").await.ok();
    assert_eq!(refused(&boards, "2x4"), serde_json::Value::Null, "{boards}");
    get(&app, "/api/stats?board=2x4").await.ok();
}
