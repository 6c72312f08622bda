//! A default table must be what its name promises, on the page as on the command line: a
//! `$SLIDETABLE_TABLE` for another board is refused, named, instead of being presented as the
//! 3×3 table. Alone in its binary: it sets the environment.

mod common;

use std::sync::Arc;

use common::get;
use slidetable_core::Board;
use slidetable_gen::cache::{generate, Plan};
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

    // The page's API says the same, and nothing was generated in its place.
    let app = router(Arc::new(Tables::with_defaults(Vec::new()).unwrap()));
    let response = get(&app, "/api/solve?board=3x3&puzzle=2,3,4,1,5,0,7,6,8").await;
    assert!(!response.status.is_success(), "{response:#?}");
    assert!(response.body.contains(&expected), "{response:#?}");
    assert!(!dir.path().join("cache").exists());
}
