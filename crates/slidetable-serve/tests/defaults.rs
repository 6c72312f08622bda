//! Boards without a named table get their default table from the cache, generated on the
//! board's first request and then shared. Alone in its binary: it sets the environment.

use std::sync::Arc;
use std::time::Duration;

use crate::common::get;
use slidetable::core::Board;
use slidetable_serve::{open_default, router, Progress, Tables};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_default_table_is_generated_on_first_use_then_shared() {
    let dir = tempfile::tempdir().unwrap();
    std::env::remove_var("SLIDETABLE_TABLE");
    std::env::set_var("XDG_CACHE_HOME", dir.path());
    let tables = Arc::new(Tables::with_defaults(Vec::new()).unwrap());
    let app = router(tables.clone());
    let cached = dir.path().join("slidetable/2x2.slt");

    let boards = get(&app, "/api/boards").await.ok();
    let all: Vec<&str> = boards["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_str().unwrap())
        .collect();
    assert_eq!(
        all,
        [
            "2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "5x2", "2x6", "3x4", "4x3", "6x2",
            "4x4"
        ]
    );
    assert_eq!(boards["boards"][0]["answers"], "table");
    assert_eq!(boards["boards"][12]["answers"], "search");
    assert!(boards["boards"][0]["table"].is_null());
    assert!(!cached.exists());

    let json = get(&app, "/api/solve?board=2x2&puzzle=0,1,3,2").await.ok();
    assert_eq!(json["distance"], 2);
    assert!(cached.exists());
    let boards = get(&app, "/api/boards").await.ok();
    // The file's name only: no client learns where the server keeps its tables.
    assert_eq!(boards["boards"][0]["table"], "2x2.slt");
    let stats = get(&app, "/api/stats?board=2x2").await.ok();
    assert_eq!(stats["table"], "2x2.slt");
    let listed = serde_json::to_string(&boards).unwrap();
    let home = dir.path().display().to_string();
    assert!(!listed.contains(&home), "{listed}");

    // Opened once: the same source answers every later request.
    let first = tables.open_source(Board::new(2, 2).unwrap()).unwrap();
    get(&app, "/api/stats?board=2x2").await.ok();
    let again = tables.open_source(Board::new(2, 2).unwrap()).unwrap();
    assert!(Arc::ptr_eq(&first, &again));
    assert!(tables.open_source(Board::new(2, 3).unwrap()).is_none());

    // 4x4 without a database in the cache: 6-6-3 built on first use (seconds) and kept in
    // the cache as the command line keeps it, its progress on /api/boards meanwhile.
    let solving = {
        let app = app.clone();
        tokio::spawn(async move {
            get(
                &app,
                "/api/solve?board=4x4&puzzle=1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15",
            )
            .await
        })
    };
    let mut seen = None;
    while !solving.is_finished() {
        let boards = get(&app, "/api/boards").await.ok();
        if let Some(work) = boards["boards"][12]["work"].as_object() {
            // The work's shape is docs/JSON.md's too.
            slidetable_testkit::schema::matches(&boards, "api-boards").unwrap();
            seen = Some(work.clone());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let work = seen.expect("the build's progress shown");
    assert_eq!(
        work["task"],
        "building the 4x4 pattern databases (6-6-3) once"
    );
    assert_eq!(work["total"], 2 * 5_765_760 + 3_360);
    let json = solving.await.unwrap().ok();
    assert_eq!(json["distance"], 2);
    assert_eq!(json["path"], "rr");
    let boards = get(&app, "/api/boards").await.ok();
    let kept = dir.path().join("slidetable/4x4-663.slt");
    assert_eq!(boards["boards"][12]["table"], "4x4-663.slt");
    assert!(boards["boards"][12]["work"].is_null());
    // Written once, where the command line's first use writes it (the 7-8 is not made): a
    // server started again opens it instead of building it again.
    assert!(kept.exists());
    assert!(!dir.path().join("slidetable/4x4.slt").exists());
    let made = std::fs::metadata(&kept).unwrap().modified().unwrap();
    let progress = Progress::default();
    let source = open_default(Board::new(4, 4).unwrap(), &progress).unwrap();
    assert_eq!(source.origin(), kept.display().to_string());
    assert_eq!(std::fs::metadata(&kept).unwrap().modified().unwrap(), made);

    // 2x7 and 7x2 are not made on first use: a server offers one when its table is there.
    std::fs::write(dir.path().join("slidetable/2x7.slt"), b"").unwrap();
    let with = Tables::with_defaults(Vec::new()).unwrap();
    let listed: Vec<String> = with.boards().map(|b| b.to_string()).collect();
    assert!(listed.contains(&"2x7".to_string()), "{listed:?}");
    assert!(!listed.contains(&"7x2".to_string()), "{listed:?}");
}
