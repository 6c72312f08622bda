//! `--json` everywhere: one convention, checked against the schemas in docs/JSON.md for every
//! command that prints it (and the checker itself checked), and the streaming rules of
//! `distance`, `path`, `search`, `hardest` and `random` as JSON lines.

use serde_json::Value;
use slidetable_testkit::schema::{check, schemas};

use crate::common::{
    assert_path, dir, json_lines, query, run, slidetable, table_3x3, table_4x4_555, tokens, Run,
    BAD_INPUT, HARDEST,
};

/// The "snail" goal of many textbooks, blank in the centre.
const SNAIL: &str = "1 2 3 8 0 4 7 6 5";

// ---------------------------------------------------------------------------------------------
// The schemas of docs/JSON.md

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
    let v = assert_lines_match(&query("distance", &["--json"], PUZZLES).ok(), "batch-line");
    assert_eq!(
        v[0]["puzzle"],
        serde_json::json!([2, 3, 4, 1, 5, 0, 7, 6, 8])
    );
    assert!(v[0].get("path").is_none());
    let v = assert_lines_match(&query("path", &["--json"], PUZZLES).ok(), "batch-line");
    assert_eq!(v[1]["path"], Value::Null);
    let bad = query("path", &["--json", "--keep-going"], "1 2 3\n");
    assert_eq!(bad.code, Some(BAD_INPUT));
    assert_lines_match(&bad, "bad-line");
    let database = table_4x4_555().to_str().unwrap();
    let fifteen = "5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15\n";
    for (extra, input) in [
        (&["--method", "idastar"][..], PUZZLES),
        (&["--method", "idastar", "--stats"], PUZZLES),
        (&["--method", "bfs", "--stats"], PUZZLES),
        (
            &["--method", "astar", "--heuristic", "pdb-4-4", "--stats"],
            PUZZLES,
        ),
        (
            &[
                "--method",
                "idastar",
                "--heuristic",
                "pdb",
                "--board",
                "4x4",
                "--table",
                database,
                "--stats",
            ],
            fifteen,
        ),
    ] {
        let r = Run::of(
            slidetable()
                .args(["search", "--json"])
                .args(extra)
                .write_stdin(input),
        )
        .success();
        for v in assert_lines_match(&r, "batch-line") {
            check(&v, &schemas()["search-answer"], "search-answer").unwrap();
        }
        // The summary: on stderr with --stats, never among the answers.
        for line in r.stderr.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            check(&v, &schemas()["search-summary"], "search-summary").unwrap();
        }
        assert_eq!(r.stderr.is_empty(), !extra.contains(&"--stats"), "{r:#?}");
    }
    // A pattern database file: its partition and its path, in each answer.
    let r = Run::of(
        slidetable()
            .args([
                "search",
                "--json",
                "--method",
                "idastar",
                "--heuristic",
                "pdb",
                "--board",
                "4x4",
                "--table",
                database,
            ])
            .write_stdin(fifteen),
    )
    .ok();
    let v = json_lines(&r);
    assert_eq!(v[0]["partition"], "5-5-5");
    assert_eq!(v[0]["database"], database);
    assert_eq!(v[0]["distance"], 28);
    // Stopped at a limit: its figures so far still match.
    let r = Run::of(
        slidetable()
            .args([
                "search",
                "--json",
                "--stats",
                "--method",
                "bfs",
                "--max-expanded",
                "5",
            ])
            .write_stdin("8 6 7 2 5 4 3 0 1\n"),
    );
    assert_eq!(r.code, Some(1));
    let v = assert_lines_match(&r, "search-answer");
    assert_eq!(v[0]["stats"]["expanded"], 5);
    // IDA* stopped at a limit: the bound it proved, from the Manhattan distance 21 up to
    // below the 31 moves the puzzle needs, in steps of 2 (one per iteration).
    let r = Run::of(
        slidetable()
            .args([
                "search",
                "--json",
                "--stats",
                "--method",
                "idastar",
                "--max-expanded",
                "2000",
            ])
            .write_stdin("8 6 7 2 5 4 3 0 1\n"),
    );
    assert_eq!(r.code, Some(1));
    let v = assert_lines_match(&r, "search-answer");
    let bound = v[0]["stats"]["bound"].as_u64().unwrap();
    assert!((21..31).contains(&bound), "{bound}");
    assert_eq!(
        v[0]["stats"]["iterations"].as_u64().unwrap(),
        (bound - 21) / 2 + 1
    );
    // The blind methods stopped at a limit prove a bound too: BFS the level it was making,
    // bidirectional search the two depths plus one, Dijkstra the largest g settled. Each is
    // at most the table's distance (31 and 19 moves), and more than the trivial 1.
    for method in ["bfs", "bidir", "dijkstra"] {
        for (puzzle, distance) in [("8 6 7 2 5 4 3 0 1", 31), ("2 3 4 1 5 0 7 6 8", 19)] {
            let r = Run::of(
                slidetable()
                    .args(["search", "--json", "--stats", "--method", method])
                    .args(["--max-expanded", "300"])
                    .write_stdin(format!("{puzzle}\n")),
            );
            assert_eq!(r.code, Some(1), "{method} {puzzle}: {r:#?}");
            let v = assert_lines_match(&r, "search-answer");
            let bound = v[0]["stats"]["bound"].as_u64().unwrap();
            assert!(
                (2..=distance).contains(&bound),
                "{method} {puzzle}: {bound}"
            );
        }
    }
}

#[test]
fn hardest_and_random_json_match_the_schema() {
    let v = assert_lines_match(&query("hardest", &["--json"], "").ok(), "answer");
    assert_eq!(
        v[0]["puzzle"],
        serde_json::json!([6, 4, 7, 8, 5, 0, 3, 2, 1])
    );
    assert_lines_match(
        &query(
            "random",
            &["--json", "--depth", "5..9", "--count", "20"],
            "",
        )
        .ok(),
        "answer",
    );
    let v = assert_lines_match(
        &Run::of(slidetable().args([
            "random", "--json", "--board", "4x4", "--count", "3", "--seed", "1",
        ]))
        .ok(),
        "drawn-puzzle",
    );
    assert_eq!(v.len(), 3);
    assert!(v
        .iter()
        .all(|r| r["puzzle"].as_array().unwrap().len() == 16));
}

/// A weighted table answers with `cost` (and `moves` beside a path) instead of `distance`,
/// as docs/JSON.md's `weighted-answer` says; `stats` gives `costs` instead of `distances`.
#[test]
fn weighted_json_matches_the_schema() {
    let table = dir().join("2x3-tile.slt");
    Run::of(
        slidetable()
            .args(["generate", "--board", "2x3", "--cost", "tile", "-o"])
            .arg(&table),
    )
    .ok();
    let query = |command: &str, args: &[&str], input: &str| {
        Run::of(
            slidetable()
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
    let info = Run::of(slidetable().args(["info", "--json"]).arg(table_3x3())).ok();
    assert_lines_match(&info, "info");
    let patterns = Run::of(
        slidetable()
            .args(["info", "--json", "--verify"])
            .arg(table_4x4_555()),
    )
    .ok();
    let v = assert_lines_match(&patterns, "info-patterns");
    assert_eq!(v[0]["partition"], "5-5-5");
    assert_eq!(v[0]["checksum_ok"], true);
    let v = assert_lines_match(&query("stats", &["--json"], "").ok(), "stats");
    assert_eq!(v[0]["goal"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    assert_eq!(v[0]["max_distance"], 31);
}

/// A table within D moves (`generate --max-depth`): its answers are `answer`s (a state past
/// D with `"distance": null` and `at_least` D+1), its `info` and `stats` their own schemas.
#[test]
fn a_table_within_d_moves_json_matches_the_schema() {
    let table = dir().join("4x4-10.slt");
    Run::of(
        slidetable()
            .args(["generate", "--board", "4x4", "--max-depth", "10", "-o"])
            .arg(&table),
    )
    .ok();
    let ask = |command: &str, args: &[&str], input: &str| {
        Run::of(
            slidetable()
                .arg(command)
                .args(args)
                .arg("--table")
                .arg(&table)
                .write_stdin(input.to_string()),
        )
        .ok()
    };
    let puzzles = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n\
                   15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0\n\
                   2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n";
    for command in ["distance", "path"] {
        let v = assert_lines_match(&ask(command, &["--json"], puzzles), "batch-line");
        assert_eq!(v[0]["distance"], 1);
        assert_eq!(v[1]["distance"], Value::Null);
        assert_eq!(v[1]["at_least"], 11);
        assert_eq!(v[1]["solvable"], true);
        assert_eq!(v[2]["solvable"], false);
        assert!(v[2].get("at_least").is_none(), "{v:?}");
    }
    let info = Run::of(slidetable().args(["info", "--json"]).arg(&table)).ok();
    let v = assert_lines_match(&info, "info-within");
    assert_eq!(v[0]["max_depth"], 10);
    let v = assert_lines_match(&ask("stats", &["--json"], ""), "stats-within");
    assert_eq!(v[0]["distances"][10]["states"], 1948);
}

#[test]
fn heuristic_json_matches_the_schema() {
    for name in ["manhattan", "misplaced"] {
        let v = assert_lines_match(
            &query("heuristic", &["--heuristic", name, "--json"], "").ok(),
            "heuristic",
        );
        assert_eq!(v[0]["goal"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    }
    assert_lines_match(
        &query("heuristic", &["--json", "-"], PUZZLES).ok(),
        "estimates",
    );
}

// ---------------------------------------------------------------------------------------------
// JSON lines

#[test]
fn distance_and_path_json_keep_the_streaming_rules() {
    let input =
        "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n1 2 3\n8 6 7 2 5 4 3 0 1\n";
    let r = query("path", &["--json", "--keep-going"], input);
    assert_eq!(r.code, Some(BAD_INPUT));
    let v = json_lines(&r);
    assert_eq!(v.len(), 5);
    assert_eq!(tokens(&v[0]["puzzle"]), "2 3 4 1 5 0 7 6 8");
    assert_eq!(v[0]["distance"], 19);
    assert_eq!(v[0]["solvable"], true);
    assert_path(
        "2 3 4 1 5 0 7 6 8",
        v[0]["path"].as_str().unwrap(),
        "1 2 3 4 5 6 7 8 0",
        19,
    );
    assert_eq!(v[1]["distance"], 0);
    assert_eq!(v[1]["path"], "");
    assert_eq!(v[2]["distance"], Value::Null);
    assert_eq!(v[2]["path"], Value::Null);
    assert_eq!(v[2]["solvable"], false);
    assert_eq!(v[3]["line"], 4);
    assert_eq!(v[3]["error"], "expected 9 tiles, found 3");
    assert_eq!(v[4]["distance"], 31);
    assert!(r.stderr.contains("line 4: expected 9 tiles, found 3"));

    // Without --keep-going: answers up to the bad line, then exit 65.
    let r = query("distance", &["--json"], input);
    assert_eq!(r.code, Some(BAD_INPUT));
    let v = json_lines(&r);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["distance"], 19);
    assert!(v[0].get("path").is_none());
    assert_eq!(v[2]["distance"], Value::Null);
    assert_eq!(v[2]["solvable"], false);
    assert!(r.stderr.contains("line 4"));

    // --order and --goal carry over.
    let r = query(
        "path",
        &["--json", "--goal", SNAIL, "--order", "dlru"],
        "2 8 3 1 0 4 7 6 5\n",
    )
    .ok();
    assert_eq!(json_lines(&r)[0]["path"], "uldr");
}

#[test]
fn search_json() {
    let input = "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 0\nbad\n";
    let r = Run::of(
        slidetable()
            .args([
                "search",
                "--method",
                "idastar",
                "--json",
                "--stats",
                "--keep-going",
            ])
            .write_stdin(input),
    );
    assert_eq!(r.code, Some(BAD_INPUT));
    let v = json_lines(&r);
    // Three lines read, three records: the summary is not among them but on stderr, last.
    assert_eq!(v.len(), 3);
    let summary: Value = serde_json::from_str(r.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["puzzles"], 2);
    assert_eq!(summary["summary"]["method"], "idastar");
    assert_eq!(v[0]["distance"], 19);
    assert_eq!(v[0]["method"], "idastar");
    assert_eq!(v[0]["heuristic"], "manhattan");
    assert!(v[0].get("partition").is_none() && v[0].get("database").is_none());
    assert_path(
        "2 3 4 1 5 0 7 6 8",
        v[0]["path"].as_str().unwrap(),
        "1 2 3 4 5 6 7 8 0",
        19,
    );
    assert!(v[0]["stats"]["expanded"].as_u64().unwrap() > 0);
    // IDA*'s last bound is the length of the path it found.
    assert_eq!(v[0]["stats"]["bound"], 19);
    assert_eq!(v[1]["solvable"], false);
    assert_eq!(v[1]["path"], Value::Null);
    assert_eq!(v[2]["line"], 3);
    // A search stopped at its limit: no answer, the reason, exit 1.
    let r = Run::of(
        slidetable()
            .args([
                "search",
                "--method",
                "bfs",
                "--max-expanded",
                "10",
                "--json",
                "--stats",
            ])
            .write_stdin("8 6 7 2 5 4 3 0 1\n"),
    );
    assert_eq!(r.code, Some(1));
    let v = &json_lines(&r)[0];
    assert_eq!(v["distance"], Value::Null);
    assert_eq!(v["solvable"], true);
    assert!(v["error"].as_str().unwrap().contains("limit"));
    // Its figures so far: the nodes up to the limit.
    assert_eq!(v["stats"]["expanded"], 10);
    assert!(v["stats"]["generated"].as_u64().unwrap() >= 10);
    assert_eq!(v["stats"]["branching_factor"], Value::Null);
    assert_eq!(v["heuristic"], Value::Null);
}

#[test]
fn hardest_and_random_json() {
    let v = json_lines(&run("hardest", &["--json"]).ok());
    assert_eq!(v.len(), 2);
    for h in &v {
        assert!(HARDEST.contains(&tokens(&h["puzzle"]).as_str()));
        assert_eq!(h["distance"], 31);
        assert_path(
            &tokens(&h["puzzle"]),
            h["path"].as_str().unwrap(),
            "1 2 3 4 5 6 7 8 0",
            31,
        );
    }
    let r = run(
        "random",
        &[
            "--json", "--depth", "14..16", "--count", "25", "--seed", "5",
        ],
    )
    .ok();
    let v = json_lines(&r);
    assert_eq!(v.len(), 25);
    for p in &v {
        let d = p["distance"].as_u64().unwrap() as usize;
        assert!((14..=16).contains(&d));
        assert_path(
            &tokens(&p["puzzle"]),
            p["path"].as_str().unwrap(),
            "1 2 3 4 5 6 7 8 0",
            d,
        );
    }
    // The same draws as text.
    let text = run(
        "random",
        &["--depth", "14..16", "--count", "25", "--seed", "5"],
    )
    .ok();
    let puzzles: Vec<String> = v.iter().map(|p| tokens(&p["puzzle"])).collect();
    assert_eq!(text.lines(), puzzles);
}
