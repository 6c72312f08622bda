//! The default-table rule every program follows (`slidetable_gen::cache`). One test, alone in
//! its binary, because it sets the process's environment.

use std::path::{Path, PathBuf};

use slidetable_core::Board;
use slidetable_gen::cache::{generate, needs_generating, resolve, Origin, Plan, TABLE_ENV};

#[test]
fn where_tables_live_and_making_them() {
    let dir = tempfile::tempdir().unwrap();
    let two = Board::new(2, 3).unwrap();
    std::env::remove_var(TABLE_ENV);
    std::env::set_var("HOME", dir.path().join("home"));
    std::env::remove_var("XDG_CACHE_HOME");

    // An explicit table wins, and is never generated.
    let named = Path::new("named.slt");
    assert_eq!(
        resolve(Some(named), Board::EIGHT).unwrap(),
        (named.to_path_buf(), Origin::Argument)
    );
    assert!(!needs_generating(named, Origin::Argument));

    // Else ~/.cache, or an absolute $XDG_CACHE_HOME; a relative one is ignored.
    let home_cache = dir.path().join("home/.cache/slidetable/2x3.slt");
    assert_eq!(
        resolve(None, two).unwrap(),
        (home_cache.clone(), Origin::Cache)
    );
    std::env::set_var("XDG_CACHE_HOME", "relative");
    assert_eq!(resolve(None, two).unwrap().0, home_cache);
    std::env::set_var("XDG_CACHE_HOME", dir.path().join("xdg"));
    let xdg: PathBuf = dir.path().join("xdg/slidetable/2x3.slt");
    assert_eq!(resolve(None, two).unwrap(), (xdg.clone(), Origin::Cache));

    // $SLIDETABLE_TABLE names the 3x3 table only.
    std::env::set_var(TABLE_ENV, "eight.slt");
    assert_eq!(
        resolve(None, Board::EIGHT).unwrap(),
        (PathBuf::from("eight.slt"), Origin::Environment)
    );
    assert_eq!(resolve(None, two).unwrap().1, Origin::Cache);
    std::env::remove_var(TABLE_ENV);

    // A missing cache default is generated (directory and all), then it is there.
    assert!(needs_generating(&xdg, Origin::Cache));
    let done = generate(&Plan::default_for(two), &xdg, &|_| {}).unwrap();
    assert_eq!((done.sections, done.states), (6, 360));
    assert!(!needs_generating(&xdg, Origin::Cache));

    // A directory that cannot be made is named.
    let under_a_file = xdg.join("slidetable/2x3.slt");
    let e = generate(&Plan::default_for(two), &under_a_file, &|_| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "cannot create directory {}",
            xdg.join("slidetable").display()
        )
    );

    // No cache directory at all.
    std::env::remove_var("XDG_CACHE_HOME");
    std::env::remove_var("HOME");
    assert_eq!(
        resolve(None, two).unwrap_err().to_string(),
        "no cache directory: set XDG_CACHE_HOME or HOME, or name a table with --table or \
         SLIDETABLE_TABLE"
    );
}
