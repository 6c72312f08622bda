//! Every `/api/*` response has the shape docs/JSON.md gives it, the schemas the command
//! line's `--json` is checked against: one record for both surfaces.

mod common;

use common::{app, get};
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
}

/// A seed past 2^53 comes back exactly: JavaScript would round a number.
#[tokio::test]
async fn seeds_are_strings() {
    let json = get(&app(), "/api/random?depth=3&seed=18446744073709551615")
        .await
        .ok();
    assert_eq!(json["seed"], "18446744073709551615");
}
