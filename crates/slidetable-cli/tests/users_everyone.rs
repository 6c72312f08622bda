//! What every user meets: a line of the wrong length names the board it fits, one JSON
//! convention checked against docs/JSON.md, the licenses and the library section, the man
//! page's sections and completions that offer values, `-` as standard input and output, and
//! error and help wording.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::{sandboxed, scratch_dir, Run};

const USAGE: i32 = 2;
const BAD_INPUT: i32 = 65;

struct Shared {
    dir: PathBuf,
    eight: PathBuf,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = scratch_dir("users-everyone");
        let eight = dir.join("3x3.slt");
        Run::of(sandboxed(&dir).args(["generate", "-o"]).arg(&eight)).ok();
        Shared { dir, eight }
    })
}

fn bare() -> Command {
    sandboxed(&shared().dir)
}

/// `slidetable COMMAND --table 3x3.slt ARGS` reading `input`.
fn run(command: &str, args: &[&str], input: &str) -> Run {
    Run::of(
        bare()
            .arg(command)
            .arg("--table")
            .arg(&shared().eight)
            .args(args)
            .write_stdin(input),
    )
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

// ---------------------------------------------------------------------------------------------
// A line of the wrong length says which board it fits

#[test]
fn eight_tiles_point_to_the_2x4_board() {
    let r = run("distance", &[], "1 2 3 4 5 6 7 0\n");
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(
        r.stderr.contains("line 1") && r.stderr.contains("--board 2x4"),
        "{r:#?}"
    );
}

#[test]
fn twelve_tiles_point_to_the_12_cell_boards() {
    let r = run("path", &[], "1 2 3 4 5 6 7 8 9 10 11 0\n");
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(r.stderr.contains("--board 3x4"), "{r:#?}");
}

#[test]
fn sixteen_tiles_point_to_the_15_puzzle_board() {
    let r = run("distance", &[], "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n");
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(
        r.stderr.contains("15-puzzle") && r.stderr.contains("add --board 4x4"),
        "{r:#?}"
    );
}

/// The commands that read every state refuse the 4x4 board at once (exit 2), naming the
/// commands its pattern database answers, before any table is opened or generated.
#[test]
fn a_4x4_board_is_refused_where_every_state_is_read() {
    let cache = tempfile::tempdir().unwrap();
    for args in [
        &["hardest", "--board", "4x4"][..],
        &["stats", "--board", "4x4"],
        &["random", "--board", "4x4", "--depth", "3"],
        &["heuristic", "--board", "4x4"],
        &["serve", "--board", "4x4"],
    ] {
        let r = Run::of(
            bare()
                .env("XDG_CACHE_HOME", cache.path())
                .args(args)
                .write_stdin(""),
        );
        assert_eq!(r.code, Some(USAGE), "{args:?}: {r:#?}");
        assert!(
            r.stderr.contains("tables of every state go up to 12 cells")
                && r.stderr.contains("`distance`, `path`"),
            "{args:?}: {r:#?}"
        );
    }
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 0);
}

// ---------------------------------------------------------------------------------------------
// JSON: one convention, the schema in docs/JSON.md

/// The `json schema=NAME` blocks of docs/JSON.md.
fn schemas() -> &'static BTreeMap<String, Value> {
    static SCHEMAS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let doc = std::fs::read_to_string(repo().join("docs/JSON.md")).unwrap();
        let mut schemas = BTreeMap::new();
        let mut lines = doc.lines();
        while let Some(line) = lines.next() {
            if let Some(name) = line.strip_prefix("```json schema=") {
                let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
                let schema: Value = serde_json::from_str(&body.join("\n"))
                    .unwrap_or_else(|e| panic!("schema {name}: {e}"));
                schemas.insert(name.trim().to_string(), schema);
            }
        }
        assert!(schemas.len() >= 10, "{schemas:?}");
        schemas
    })
}

/// Why `value` does not match `schema` (at `at`), if it does not.
fn check(value: &Value, schema: &Value, at: &str) -> Result<(), String> {
    match schema {
        Value::String(types) => {
            let ok = types.split('|').any(|t| match t {
                "int" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "string" => value.is_string(),
                "bool" => value.is_boolean(),
                "null" => value.is_null(),
                other => panic!("unknown type {other} in a schema"),
            });
            if ok {
                Ok(())
            } else {
                Err(format!("{at}: {value} is not {types}"))
            }
        }
        Value::Array(element) => {
            let items = value
                .as_array()
                .ok_or_else(|| format!("{at}: {value} is not an array"))?;
            items
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| check(v, &element[0], &format!("{at}[{i}]")))
        }
        Value::Object(fields) => {
            if let Some(name) = fields.get("ref") {
                let schema = &schemas()[name.as_str().unwrap()];
                return check(value, schema, at);
            }
            if let Some(options) = fields.get("one of") {
                let errors: Vec<String> = options
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|s| check(value, s, at).err())
                    .collect();
                return if errors.len() < options.as_array().unwrap().len() {
                    Ok(())
                } else {
                    Err(errors.join("; or "))
                };
            }
            let object = value
                .as_object()
                .ok_or_else(|| format!("{at}: {value} is not an object"))?;
            if let Some(each) = fields.get("map of") {
                return object
                    .iter()
                    .try_for_each(|(k, v)| check(v, each, &format!("{at}.{k}")));
            }
            for (key, s) in fields {
                let (name, optional) = match key.strip_suffix('?') {
                    Some(name) => (name, true),
                    None => (key.as_str(), false),
                };
                match object.get(name) {
                    Some(v) => check(v, s, &format!("{at}.{name}"))?,
                    None if optional => {}
                    None => return Err(format!("{at}: no key {name} in {value}")),
                }
            }
            for key in object.keys() {
                if !fields.contains_key(key) && !fields.contains_key(&format!("{key}?")) {
                    return Err(format!("{at}: unexpected key {key}"));
                }
            }
            Ok(())
        }
        _ => panic!("not a schema: {schema}"),
    }
}

/// Every line of `run`'s output matches the schema `name`.
fn assert_lines_match(run: &Run, name: &str) -> Vec<Value> {
    assert!(!run.stdout.is_empty(), "{run:#?}");
    run.lines()
        .iter()
        .map(|line| {
            let v: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"));
            if let Err(why) = check(&v, &schemas()[name], name) {
                panic!("{why}\n{line}");
            }
            v
        })
        .collect()
}

#[test]
fn the_schema_checker_refuses_what_does_not_match() {
    let answer = &schemas()["answer"];
    let good: Value =
        serde_json::from_str(r#"{"puzzle":[1,2,3,4,5,6,7,8,0],"distance":0,"solvable":true}"#)
            .unwrap();
    assert_eq!(check(&good, answer, "answer"), Ok(()));
    for bad in [
        r#"{"puzzle":"1 2 3 4 5 6 7 8 0","distance":0,"solvable":true}"#,
        r#"{"puzzle":[1,2,3,4,5,6,7,8,0],"distance":0.5,"solvable":true}"#,
        r#"{"puzzle":[1,2,3,4,5,6,7,8,0],"solvable":true}"#,
        r#"{"puzzle":[1,2,3,4,5,6,7,8,0],"distance":0,"solvable":true,"extra":1}"#,
    ] {
        let v: Value = serde_json::from_str(bad).unwrap();
        assert!(check(&v, answer, "answer").is_err(), "{bad}");
    }
}

const PUZZLES: &str = "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 0\n";

#[test]
fn distance_path_and_search_json_match_the_schema() {
    let v = assert_lines_match(&run("distance", &["--json"], PUZZLES).ok(), "batch-line");
    assert_eq!(
        v[0]["puzzle"],
        serde_json::json!([2, 3, 4, 1, 5, 0, 7, 6, 8])
    );
    assert!(v[0].get("path").is_none());
    let v = assert_lines_match(&run("path", &["--json"], PUZZLES).ok(), "batch-line");
    assert_eq!(v[1]["path"], Value::Null);
    let bad = run("path", &["--json", "--keep-going"], "1 2 3\n");
    assert_eq!(bad.code, Some(BAD_INPUT));
    assert_lines_match(&bad, "bad-line");
    for extra in [&[][..], &["--stats"]] {
        let r = Run::of(
            bare()
                .args(["search", "--method", "idastar", "--json"])
                .args(extra)
                .write_stdin(PUZZLES),
        )
        .ok();
        assert_lines_match(&r, "batch-line");
    }
}

#[test]
fn hardest_and_random_json_match_the_schema() {
    let v = assert_lines_match(&run("hardest", &["--json"], "").ok(), "answer");
    assert_eq!(
        v[0]["puzzle"],
        serde_json::json!([6, 4, 7, 8, 5, 0, 3, 2, 1])
    );
    assert_lines_match(
        &run(
            "random",
            &["--json", "--depth", "5..9", "--count", "20"],
            "",
        )
        .ok(),
        "answer",
    );
}

/// A weighted table answers with `cost` (and `moves` beside a path) instead of `distance`,
/// as docs/JSON.md's `weighted-answer` says; `stats` gives `costs` instead of `distances`.
#[test]
fn weighted_json_matches_the_schema() {
    let table = shared().dir.join("2x3-tile.slt");
    Run::of(
        bare()
            .args(["generate", "--board", "2x3", "--cost", "tile", "-o"])
            .arg(&table),
    )
    .ok();
    let query = |command: &str, args: &[&str], input: &str| {
        Run::of(
            bare()
                .arg(command)
                .arg("--table")
                .arg(&table)
                .args(args)
                .write_stdin(input.to_string()),
        )
        .ok()
    };
    let two = "1 2 3 4 0 5\n2 1 3 4 5 0\n";
    let v = assert_lines_match(&query("distance", &["--json"], two), "batch-line");
    assert!(v[0].get("distance").is_none(), "{v:?}");
    assert!(
        v[0]["cost"].is_u64() && v[0].get("moves").is_none(),
        "{v:?}"
    );
    assert_eq!(v[1]["cost"], Value::Null);
    let v = assert_lines_match(&query("path", &["--json"], two), "batch-line");
    assert_eq!(v[0]["moves"], 1);
    assert!(v[0]["cost"].is_u64(), "{v:?}");
    assert_eq!(v[1]["moves"], Value::Null);
    let v = assert_lines_match(&query("hardest", &["--json"], ""), "answer");
    assert!(v[0]["cost"].is_u64() && v[0]["moves"].is_u64(), "{v:?}");
    let v = assert_lines_match(&query("stats", &["--json"], ""), "stats");
    assert!(
        v[0].get("distances").is_none() && v[0]["costs"].is_array(),
        "{v:?}"
    );
}

#[test]
fn info_and_stats_json_match_the_schema() {
    let info = Run::of(bare().args(["info", "--json"]).arg(&shared().eight)).ok();
    assert_lines_match(&info, "info");
    let v = assert_lines_match(&run("stats", &["--json"], "").ok(), "stats");
    assert_eq!(v[0]["goal"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    assert_eq!(v[0]["max_distance"], 31);
}

#[test]
fn heuristic_json_matches_the_schema() {
    for name in ["manhattan", "misplaced"] {
        let v = assert_lines_match(
            &run("heuristic", &["--heuristic", name, "--json"], "").ok(),
            "heuristic",
        );
        assert_eq!(v[0]["goal"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    }
    assert_lines_match(
        &run("heuristic", &["--json", "-"], PUZZLES).ok(),
        "estimates",
    );
}

// ---------------------------------------------------------------------------------------------
// Licenses and the library section

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

// ---------------------------------------------------------------------------------------------
// The man page and completions

#[test]
fn the_man_page_has_environment_files_exit_status_and_examples() {
    let man = Run::of(bare().args(["man"])).ok().stdout;
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
        let script = Run::of(bare().args(["completions", shell])).ok().stdout;
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

// ---------------------------------------------------------------------------------------------
// `-` consistently

#[test]
fn generate_to_dash_writes_the_table_to_standard_output() {
    let dir = scratch_dir("users-everyone-dash");
    let _ = std::fs::remove_file(dir.join("-"));
    let file = dir.join("2x3.slt");
    Run::of(
        sandboxed(&dir)
            .args(["generate", "--board", "2x3", "-o"])
            .arg(&file),
    )
    .ok();
    let out = sandboxed(&dir)
        .args(["generate", "--board", "2x3", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!dir.join("-").exists(), "a file named - was made");
    assert_eq!(out.stdout, std::fs::read(&file).unwrap());
}

#[test]
fn distance_and_path_answer_several_files_in_order() {
    let dir = &shared().dir;
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::write(&a, "2 3 4 1 5 x 7 6 8\n").unwrap();
    std::fs::write(&b, "1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n").unwrap();
    let r = Run::of(
        bare()
            .args(["distance", "--table"])
            .arg(&shared().eight)
            .arg(&a)
            .arg("-")
            .arg(&b)
            .write_stdin("8 6 7 2 5 4 3 0 1\n"),
    )
    .ok();
    assert_eq!(r.stdout, "19\n31\n0\n-1\n");
    let r = Run::of(
        bare()
            .args(["path", "--table"])
            .arg(&shared().eight)
            .arg(&b)
            .arg(&a),
    )
    .ok();
    assert_eq!(r.lines().len(), 3);
    assert_eq!(r.lines()[1], "unsolvable");
    // A bad line names its file.
    std::fs::write(dir.join("bad.txt"), "1 2 3\n").unwrap();
    let r = Run::of(
        bare()
            .args(["distance", "--table"])
            .arg(&shared().eight)
            .arg(&a)
            .arg(dir.join("bad.txt")),
    );
    assert_eq!(r.code, Some(BAD_INPUT));
    assert_eq!(r.stdout, "19\n");
    assert!(r.stderr.contains("bad.txt: line 1"), "{r:#?}");
}

// ---------------------------------------------------------------------------------------------
// Wording

#[test]
fn count_and_seed_errors_say_what_is_expected() {
    for (option, value) in [("--count", "-1"), ("--seed", "hello"), ("--count", "many")] {
        let r = Run::of(
            bare()
                .args(["random", "--depth", "3", "--table"])
                .arg(&shared().eight)
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
fn distance_help_says_to_the_goal() {
    for command in ["distance", "path"] {
        let help = Run::of(bare().args([command, "--help"])).ok().stdout;
        assert!(!help.contains("1 2 3 4 5 6 7 8 0"), "{help}");
        assert!(help.contains("to the goal"), "{help}");
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
        let help = Run::of(bare().args([command, "--help"])).ok().stdout;
        assert!(help.contains("--board <RxC>"), "{command}: {help}");
    }
}

#[test]
fn search_and_heuristic_both_take_heuristic() {
    for command in ["search", "heuristic"] {
        let help = Run::of(bare().args([command, "--help"])).ok().stdout;
        assert!(help.contains("--heuristic <NAME>"), "{command}: {help}");
    }
}
