//! The command line itself: `--help` and bad usage (exit 2), the man page and completions,
//! the wording of options and limits, and what the repository promises beside the binary
//! (both licenses, the README's library example).

use tempfile::TempDir;

use crate::common::{process, repo, slidetable, table_3x3, Run, USAGE};

#[test]
fn help_works_and_bad_usage_exits_2() {
    let run = Run::of(slidetable().arg("--help")).success();
    for command in ["generate", "info", "distance", "path"] {
        assert!(run.stdout.contains(command), "{}", run.stdout);
    }
    let run = Run::of(slidetable().args(["distance", "--help"])).success();
    for flag in ["--table", "--keep-going"] {
        assert!(run.stdout.contains(flag), "{}", run.stdout);
    }
    Run::of(slidetable().args(["path", "--help"])).success();

    let run = Run::of(slidetable().arg("frobnicate"));
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("frobnicate"), "{}", run.stderr);
    let run = Run::of(&mut slidetable());
    assert_eq!(run.code, Some(2), "no command: {run:#?}");
    let run = Run::of(slidetable().args(["distance", "--no-such-flag"]));
    assert_eq!(run.code, Some(2), "{run:#?}");
}

#[test]
fn completions_and_man() {
    for shell in ["bash", "zsh", "fish"] {
        let r = Run::of(slidetable().args(["completions", shell])).ok();
        assert!(r.stdout.len() > 1000, "{shell}: {}", r.stdout.len());
        assert!(r.stdout.contains("slidetable"));
        assert!(
            r.stdout.contains("heuristic"),
            "{shell}: the new commands are completed"
        );
    }
    assert_eq!(
        Run::of(slidetable().args(["completions", "tcsh"])).code,
        Some(USAGE)
    );
    let r = Run::of(slidetable().args(["man"])).ok();
    assert!(r.stdout.starts_with(".TH") || r.stdout.starts_with(".ie"));
    assert!(r.stdout.contains(".TH slidetable 1"));
    assert!(r.stdout.contains("slidetable\\-random(1)"));
    let r = Run::of(slidetable().args(["man", "random"])).ok();
    assert!(r.stdout.contains(".TH slidetable-random 1"));
    assert!(r.stdout.contains("\\-\\-depth"));
    let r = Run::of(slidetable().args(["man", "nope"]));
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("no command 'nope'"));
}

#[test]
fn the_man_page_has_environment_files_exit_status_and_examples() {
    let man = Run::of(slidetable().args(["man"])).ok().stdout;
    let sections: Vec<&str> = man.lines().filter(|l| l.starts_with(".SH")).collect();
    for wanted in ["ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
        assert!(
            sections.iter().any(|s| s.contains(wanted)),
            "{wanted} not in {sections:?}"
        );
    }
    for word in [
        "SLIDETABLE_TABLE",
        "XDG_CACHE_HOME",
        ".cache/slidetable",
        "65",
    ] {
        assert!(man.contains(word), "{word}");
    }
}

#[test]
fn completions_offer_the_values_of_the_options() {
    for shell in ["bash", "zsh", "fish"] {
        let script = Run::of(slidetable().args(["completions", shell]))
            .ok()
            .stdout;
        for value in [
            "linear-conflict",
            "misplaced",
            "idastar",
            "bidir",
            "wide16",
            "2bit",
            "3x4",
            "2x6",
        ] {
            assert!(script.contains(value), "{shell}: no {value}");
        }
    }
}

#[test]
fn count_and_seed_errors_say_what_is_expected() {
    for (option, value) in [("--count", "-1"), ("--seed", "hello"), ("--count", "many")] {
        let r = Run::of(
            slidetable()
                .args(["random", "--depth", "3", "--table"])
                .arg(table_3x3())
                .arg(format!("{option}={value}")),
        );
        assert_eq!(r.code, Some(USAGE), "{r:#?}");
        assert!(
            r.stderr.contains(value) && r.stderr.contains("expected"),
            "{option} {value}: {r:#?}"
        );
        assert!(!r.stderr.contains("invalid digit"), "{r:#?}");
    }
}

#[test]
fn every_board_option_is_written_rxc() {
    for command in [
        "generate",
        "info",
        "distance",
        "path",
        "search",
        "stats",
        "hardest",
        "random",
        "heuristic",
    ] {
        let help = Run::of(slidetable().args([command, "--help"])).ok().stdout;
        assert!(help.contains("--board <RxC>"), "{command}: {help}");
    }
}

/// Board limits in one wording wherever a board is too large.
#[test]
fn board_limits_are_worded_one_way() {
    let dir = TempDir::new().unwrap();
    let r = Run::process(process(dir.path()).args(["generate", "--board", "4x5"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("a 4x5 board has 20 cells; boards go up to 16 cells"),
        "{r:#?}"
    );
    let r = Run::process(process(dir.path()).args(["distance", "--board", "3x5"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains(
            "a 3x5 board has 15 cells; tables go up to 14 cells (and 4x4, by pattern databases)"
        ),
        "{r:#?}"
    );
    let r = Run::process(process(dir.path()).args(["search", "--method", "bfs", "--board", "5x6"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("a 5x6 board has 30 cells; boards go up to 16 cells"),
        "{r:#?}"
    );
    // 5x5, the 24-puzzle, is searched by IDA* on its pattern databases only.
    let r = Run::process(process(dir.path()).args(["search", "--method", "bfs", "--board", "5x5"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("invalid value 'bfs' for '--method <METHOD>'\n  [possible values: idastar]"),
        "{r:#?}"
    );
}

#[test]
fn both_declared_licenses_are_in_the_repository() {
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    assert!(manifest.contains(r#"license = "MIT OR Apache-2.0""#));
    let mit = std::fs::read_to_string(repo().join("LICENSE-MIT")).unwrap();
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    let apache = std::fs::read_to_string(repo().join("LICENSE-APACHE")).unwrap();
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0"));
}

/// The fenced block of `lang` that follows `heading` in the README.
fn readme_block(readme: &str, heading: &str, lang: &str) -> String {
    let at = readme
        .find(heading)
        .unwrap_or_else(|| panic!("no '{heading}' in the README"));
    let rest = &readme[at..];
    let open = format!("```{lang}\n");
    let start = rest
        .find(&open)
        .unwrap_or_else(|| panic!("no {lang} block"))
        + open.len();
    let end = rest[start..].find("```").unwrap() + start;
    rest[start..end].to_string()
}

#[test]
fn the_readme_shows_how_to_use_it_as_a_library_with_a_runnable_example() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let heading = "## Use it as a library";
    let toml = readme_block(&readme, heading, "toml");
    assert!(
        toml.contains("[dependencies]") && toml.contains("slidetable = "),
        "{toml}"
    );
    // The example is a file cargo builds (and `cargo test` compiles), word for word.
    let example = readme_block(&readme, heading, "rust");
    let file = std::fs::read_to_string(repo().join("crates/slidetable/examples/library.rs"))
        .expect("crates/slidetable/examples/library.rs");
    assert_eq!(example, file);
}
