//! `search` and `heuristic`: every method prints paths that are legal, reach the goal and are
//! as short as the table says; statistics, limits, timeouts and the memory bound of an
//! uninformed search; heuristics admissible and consistent, measured side by side and per
//! puzzle, on byte and 2-bit tables.

use std::collections::HashSet;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use slidetable::core::{parse_layout, parse_path, Board, Layout};
use tempfile::TempDir;

use crate::common::{
    assert_ctrl_c_keeps_the_answers, csv, dir, eight, json_lines, process, query, run, slidetable,
    started_with, table_3x3, table_3x3_2bit, tokens, wait_at_most, Run, BIN, STATES, USAGE,
};

/// The "snail" goal of many textbooks, blank in the centre.
const SNAIL: &str = "1 2 3 8 0 4 7 6 5";
const GOAL: &str = "1 2 3 4 5 6 7 8 0";

/// `slidetable COMMAND --table 3x3-2bit.slt ARGS`.
fn run_2bit(command: &str, args: &[&str]) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table_3x3_2bit())
            .args(args),
    )
}

fn lines(out: &[u8]) -> Vec<String> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Deterministic scrambles: random walks of growing length from the goal.
fn puzzles() -> String {
    let board = Board::EIGHT;
    let mut s = String::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for len in 0..40 {
        let mut l = board.standard_goal();
        for _ in 0..len * 3 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let moves: Vec<_> = l.moves().collect();
            l = l.moved(moves[(x % moves.len() as u64) as usize]).unwrap();
        }
        s += &format!("{l}\n");
    }
    s += "2 1 3 4 5 6 7 8 0\n";
    s
}

#[test]
fn every_method_is_optimal_and_agrees_with_the_table() {
    let input = puzzles();
    let distances = lines(
        &slidetable()
            .arg("distance")
            .arg("--table")
            .arg(table_3x3())
            .write_stdin(input.clone())
            .assert()
            .success()
            .get_output()
            .stdout,
    );
    for method in ["bfs", "bidir", "dijkstra", "astar", "idastar"] {
        let guided = method == "astar" || method == "idastar";
        let heuristics: &[&str] = if guided {
            &["manhattan", "linear-conflict", "misplaced"]
        } else {
            &[""]
        };
        for &heuristic in heuristics {
            let mut args = vec!["search", "--method", method];
            if guided {
                args.extend(["--heuristic", heuristic]);
            }
            let out = slidetable()
                .args(&args)
                .write_stdin(input.clone())
                .assert()
                .success();
            let paths = lines(&out.get_output().stdout);
            assert_eq!(paths.len(), distances.len(), "{method}/{heuristic}");
            for ((line, path), d) in input.lines().zip(&paths).zip(&distances) {
                if d == "-1" {
                    assert_eq!(path, "unsolvable", "{method}: {line}");
                    continue;
                }
                let start = parse_layout(Board::EIGHT, line.as_bytes()).unwrap();
                let moves = parse_path(path).unwrap();
                assert_eq!(moves.len().to_string(), *d, "{method}/{heuristic}: {line}");
                assert_eq!(
                    start.after(&moves),
                    Some(Board::EIGHT.standard_goal()),
                    "{method}: {line}"
                );
            }
            if method != "astar" && method != "idastar" {
                break; // the heuristic is not used
            }
        }
    }
}

#[test]
fn stats_go_to_stderr_one_line_per_puzzle() {
    let out = slidetable()
        .args(["search", "--method", "idastar", "--stats"])
        .write_stdin("2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 0\n")
        .assert()
        .success();
    let err = lines(&out.get_output().stderr);
    assert_eq!(err.len(), 2, "{err:?}");
    assert!(
        err[0].starts_with("<stdin>: line 1: idastar/manhattan: 19 moves, "),
        "{}",
        err[0]
    );
    assert!(err[0].contains(" expanded, ") && err[0].contains(" iterations, "));
    let paths = lines(&out.get_output().stdout);
    assert_eq!(paths.len(), 2);
    assert_eq!(paths[0].len(), 19);
    assert_eq!(paths[1], "");
}

#[test]
fn other_goals_boards_and_limits() {
    // Any goal, as `path --goal`.
    slidetable()
        .args(["search", "--method", "astar", "--goal", "1 2 3 8 0 4 7 6 5"])
        .write_stdin("2 8 3 1 0 4 7 6 5\n")
        .assert()
        .success()
        .stdout("uldr\n");
    // The 15-puzzle.
    let out = slidetable()
        .args([
            "search",
            "--method",
            "idastar",
            "--heuristic",
            "linear-conflict",
            "--board",
            "4x4",
        ])
        .write_stdin("5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15\n")
        .assert()
        .success();
    assert_eq!(lines(&out.get_output().stdout)[0].len(), 28);
    // A search that hits its limit answers `unknown` and exits 1.
    slidetable()
        .args(["search", "--method", "bfs", "--max-expanded", "10"])
        .write_stdin("8 6 7 2 5 4 3 0 1\n2 1 3 4 5 6 7 8 0\n")
        .assert()
        .code(1)
        .stdout("unknown\nunsolvable\n");
}

#[test]
fn bad_lines_and_bad_arguments() {
    slidetable()
        .args(["search", "--method", "bidir"])
        .write_stdin("1 2 3 4 5 6 7 8 0\n1 2 3\n")
        .assert()
        .code(65)
        .stdout("\n")
        .stderr(predicates::str::contains(
            "line 2: expected 9 tiles, found 3",
        ));
    slidetable()
        .args(["search", "--method", "bidir", "--keep-going"])
        .write_stdin("1 2 3\n1 2 3 4 5 6 7 8 0\n")
        .assert()
        .code(65)
        .stdout("invalid\n\n");
    slidetable()
        .args(["search", "--method", "dfs"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unknown method 'dfs'"));
    // A heuristic given to a method that takes none is refused, not ignored; without one
    // those methods run as before.
    for method in ["bfs", "bidir", "dijkstra"] {
        slidetable()
            .args(["search", "--method", method, "--heuristic", "manhattan"])
            .write_stdin("1 2 3 4 5 6 7 8 0\n")
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "slidetable: --heuristic manhattan: --method {method} takes no heuristic \
                 (astar and idastar do)\n"
            ));
    }
    slidetable()
        .args(["search", "--method", "bfs", "--goal", "1 2"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--goal '1 2': expected 9 tiles, found 2",
        ));
}

#[test]
fn search_json_stats_give_the_effective_branching_factor_and_a_summary() {
    let input = "2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n";
    let r = Run::of(
        slidetable()
            .args(["search", "--method", "astar", "--json", "--stats"])
            .write_stdin(input),
    )
    .success();
    let v = json_lines(&r);
    // One record per puzzle; the summary on stderr, its only line.
    assert_eq!(v.len(), 2, "{r:#?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:#?}");
    let summary: Value = serde_json::from_str(&r.stderr).unwrap();
    let mut factors = vec![];
    for p in &v[..2] {
        let stats = &p["stats"];
        let generated = stats["generated"].as_f64().unwrap();
        let depth = p["distance"].as_f64().unwrap();
        let b = stats["branching_factor"].as_f64().unwrap();
        // N + 1 = 1 + b + b^2 + ... + b^d (Russell and Norvig's effective branching factor).
        let sum: f64 = (0..=depth as i32).map(|i| b.powi(i)).sum();
        assert!(
            (sum - (generated + 1.0)).abs() / (generated + 1.0) < 1e-3,
            "b* {b}, d {depth}, N {generated}"
        );
        assert!(stats["expanded"].as_u64().unwrap() > 0);
        factors.push(b);
    }
    let summary = &summary["summary"];
    assert_eq!(summary["puzzles"], 2);
    assert_eq!(summary["solved"], 2);
    let expanded: u64 = v[..2]
        .iter()
        .map(|p| p["stats"]["expanded"].as_u64().unwrap())
        .sum();
    assert_eq!(summary["expanded"], expanded);
    let mean = (factors[0] + factors[1]) / 2.0;
    assert!((summary["mean_branching_factor"].as_f64().unwrap() - mean).abs() < 1e-9);
}

/// `--summary FILE` takes the summary out of every stream; `search --csv` has `path --csv`'s
/// columns, how the search was made, and with --stats its figures, as the JSON has them.
#[test]
fn search_summary_file_and_csv() {
    let input = "2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n2 1 3 4 5 6 7 8 0\n";
    let scratch = TempDir::new().unwrap();
    let file = scratch.path().join("summary.json");
    let json = Run::of(
        slidetable()
            .args([
                "search",
                "--method",
                "idastar",
                "--json",
                "--stats",
                "--summary",
            ])
            .arg(&file)
            .write_stdin(input),
    )
    .ok();
    let records = json_lines(&json);
    assert_eq!(records.len(), 3);
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(summary["summary"]["solved"], 2);
    assert_eq!(summary["summary"]["unsolvable"], 1);
    let r = Run::of(
        slidetable()
            .args(["search", "--method", "idastar", "--csv", "--stats"])
            .write_stdin(input),
    )
    .success();
    let (header, rows) = csv(&r);
    assert_eq!(
        header,
        [
            "puzzle",
            "distance",
            "path",
            "solvable",
            "method",
            "heuristic",
            "partition",
            "database",
            "expanded",
            "generated",
            "peak_open",
            "iterations",
            "bound",
            "milliseconds",
            "branching_factor"
        ]
    );
    assert_eq!(rows.len(), 3);
    for (row, record) in rows.iter().zip(&records) {
        assert_eq!(row[0], tokens(&record["puzzle"]));
        assert_eq!(row[1], record["distance"].to_string().replace("null", ""));
        assert_eq!(row[2], record["path"].as_str().unwrap_or(""));
        assert_eq!(row[3], record["solvable"].to_string());
        assert_eq!(row[4..6], ["idastar", "manhattan"]);
        assert_eq!(row[6..8], ["", ""]);
        // The same counts (the time differs from run to run).
        for (i, key) in [
            (8, "expanded"),
            (9, "generated"),
            (10, "peak_open"),
            (11, "iterations"),
            (12, "bound"),
        ] {
            assert_eq!(
                row[i],
                record["stats"][key].to_string().replace("null", ""),
                "{key}"
            );
        }
    }
    // Pattern databases built in memory: their partition, and no file.
    let r = Run::of(
        slidetable()
            .args([
                "search",
                "--method",
                "astar",
                "--heuristic",
                "pdb-4-4",
                "--csv",
            ])
            .write_stdin(input),
    )
    .ok();
    let (header, rows) = csv(&r);
    assert_eq!(header.len(), 8);
    assert_eq!(rows[1][4..8], ["astar", "pdb-4-4", "4-4", ""]);
    assert_eq!(rows[1][1], "31");
    // --csv and --json together are refused.
    let r = Run::of(slidetable().args(["search", "--method", "bfs", "--csv", "--json"]));
    assert_eq!(r.code, Some(USAGE));
}

#[test]
fn search_timeout_refuses_what_is_not_a_duration_and_takes_huge_ones_as_no_limit() {
    let dir = TempDir::new().unwrap();
    for bad in ["-1", "NaN", "inf", "-inf", "-0.5"] {
        let r = Run::process_with(
            process(dir.path()).args(["search", "--method", "bfs", &format!("--timeout={bad}")]),
            b"2 3 4 1 5 x 7 6 8\n",
        );
        assert_eq!(r.code, Some(2), "--timeout {bad}: {r:#?}");
        assert!(r.stderr.contains("--timeout"), "{r:#?}");
        assert_eq!(r.stdout, "");
    }
    for huge in ["1e20", "18446744073709551616", "1e300"] {
        let r = Run::process_with(
            process(dir.path()).args(["search", "--method", "bfs", "--timeout", huge]),
            b"2 3 4 1 5 x 7 6 8\n",
        );
        assert_eq!(r.code, Some(0), "--timeout {huge}: {r:#?}");
        assert_eq!(r.stdout, "ullddrurdllurdruldr\n", "{r:#?}");
    }
}

/// `search --method bfs|dijkstra` on a 15-puzzle 28 moves out stops at its default memory
/// bound with a clear message, instead of growing until the machine runs out (run under a
/// 4 GB address-space limit, so the old behaviour fails here rather than on the machine).
#[test]
fn uninformed_search_on_the_15_puzzle_stops_at_a_memory_bound() {
    let dir = TempDir::new().unwrap();
    for method in ["bfs", "dijkstra"] {
        let mut child = started_with(
            Command::new("bash")
                .args([
                    "-c",
                    r#"ulimit -v 4000000; exec "$0" search --method "$1" --board 4x4"#,
                    BIN,
                    method,
                ])
                .env_remove("SLIDETABLE_TABLE")
                .env("XDG_CACHE_HOME", dir.path().join("cache"))
                .current_dir(dir.path())
                .stderr(Stdio::piped()),
            b"5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15\n",
        );
        wait_at_most(&mut child, Duration::from_secs(300), method);
        let r = Run::finished(child.wait_with_output().unwrap());
        assert_eq!(r.code, Some(1), "{method}: {r:#?}");
        assert_eq!(r.stdout, "unknown\n", "{method}");
        assert!(
            r.stderr.contains("memory") && r.stderr.contains("--max-memory"),
            "{method}: {r:#?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// heuristic

#[test]
fn manhattan_and_linear_conflict_are_admissible_and_consistent() {
    for name in ["manhattan", "linear-conflict", "misplaced"] {
        let r = run("heuristic", &["--name", name]).ok();
        assert!(
            r.stdout.contains("admissible: true"),
            "{name}: {}",
            r.stdout
        );
        assert!(
            r.stdout.contains("consistent: true"),
            "{name}: {}",
            r.stdout
        );
        assert!(r.stdout.contains("worst under-estimate: "));
        let v = &json_lines(&run("heuristic", &["--name", name, "--json"]).ok())[0];
        assert_eq!(v["heuristic"], name);
        assert_eq!(v["admissible"], true);
        assert_eq!(v["consistent"], true);
        assert_eq!(v["worst_overestimate"], Value::Null);
        assert_eq!(v["states"], STATES);
        let distances = v["distances"].as_array().unwrap();
        assert_eq!(distances.len(), 32);
        for (d, row) in distances.iter().enumerate() {
            assert_eq!(row["distance"], d);
            assert!(row["max_estimate"].as_u64().unwrap() <= d as u64);
        }
        assert_eq!(distances[0]["mean_ratio"], Value::Null);
        let csv = run("heuristic", &["--name", name, "--csv"]).ok();
        assert_eq!(csv.lines().len(), 33);
        assert!(csv.lines()[0].starts_with("heuristic,distance,states,"));
        assert!(csv.lines()[32].starts_with(&format!("{name},31,2,")));
    }
    // Against another goal too.
    let r = run("heuristic", &["--name", "linear-conflict", "--goal", SNAIL]).ok();
    assert!(r.stdout.contains("admissible: true") && r.stdout.contains("consistent: true"));
    let r = run("heuristic", &["--name", "euclid"]);
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("unknown heuristic 'euclid'"), "{r:?}");
    assert_eq!(
        run("heuristic", &["--name", "manhattan", "--json", "--csv"]).code,
        Some(USAGE)
    );
}

#[test]
fn heuristic_measures_several_side_by_side() {
    let both = ["--heuristic", "manhattan", "--heuristic", "linear-conflict"];
    let text = run("heuristic", &both).ok();
    assert!(
        text.stdout.contains("manhattan") && text.stdout.contains("linear-conflict"),
        "{}",
        text.stdout
    );
    let json = json_lines(&run("heuristic", &[&both[..], &["--json"]].concat()).ok());
    assert_eq!(json.len(), 2);
    assert_eq!(json[0]["heuristic"], "manhattan");
    assert_eq!(json[1]["heuristic"], "linear-conflict");
    for v in &json {
        assert_eq!(v["states"], 181440);
        assert_eq!(v["admissible"], true);
    }
    // One at a time gives the same figures.
    for v in &json {
        let one = json_lines(
            &run(
                "heuristic",
                &["--heuristic", v["heuristic"].as_str().unwrap(), "--json"],
            )
            .ok(),
        );
        assert_eq!(&one[0], v);
    }
    // CSV: one table, a heuristic column.
    let (header, rows) = csv(&run("heuristic", &[&both[..], &["--csv"]].concat()).ok());
    assert_eq!(header[0], "heuristic");
    assert_eq!(header[1], "distance");
    let names: HashSet<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, HashSet::from(["manhattan", "linear-conflict"]));
    assert_eq!(rows.len(), 2 * 32);
}

#[test]
fn heuristic_keeps_name_as_another_spelling_and_comma_lists() {
    let a = run("heuristic", &["--name", "misplaced", "--json"]).ok();
    let b = run("heuristic", &["--heuristic", "misplaced", "--json"]).ok();
    assert_eq!(a.stdout, b.stdout);
    let c = run(
        "heuristic",
        &["--heuristic", "manhattan,misplaced", "--json"],
    )
    .ok();
    assert_eq!(json_lines(&c).len(), 2);
}

/// A layout given as a JSON array of numbers.
fn layout_of(v: &Value) -> Layout {
    eight(&tokens(v))
}

#[test]
fn heuristic_with_input_prints_each_puzzles_distance_and_estimates() {
    let input = "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n";
    let args = [
        "--heuristic",
        "manhattan",
        "--heuristic",
        "linear-conflict",
        "--heuristic",
        "misplaced",
    ];
    // CSV: puzzle, distance, one column per heuristic.
    let r = query("heuristic", &[&args[..], &["--csv", "-"]].concat(), input).ok();
    let (header, rows) = csv(&r);
    assert_eq!(
        header,
        [
            "puzzle",
            "distance",
            "manhattan",
            "linear-conflict",
            "misplaced"
        ]
    );
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0][0], "8 6 7 2 5 4 3 0 1");
    assert_eq!(rows[0][1], "31");
    assert_eq!(rows[0][2], "21");
    let lc: u32 = rows[0][3].parse().unwrap();
    assert!((21..=31).contains(&lc) && lc % 2 == 1, "{lc}");
    assert_eq!(rows[0][4], "7");
    assert_eq!(rows[1][1..], ["0", "0", "0", "0"]);
    assert_eq!(rows[2][1], "", "an unsolvable puzzle has no distance");
    // JSON: the puzzle as an array, the estimates by name.
    let r = query("heuristic", &[&args[..], &["--json", "-"]].concat(), input).ok();
    let v = json_lines(&r);
    assert_eq!(v.len(), 3);
    assert_eq!(layout_of(&v[0]["puzzle"]), eight("8 6 7 2 5 4 3 0 1"));
    assert_eq!(v[0]["distance"], 31);
    assert_eq!(v[0]["estimates"]["manhattan"], 21);
    assert_eq!(v[0]["estimates"]["linear-conflict"], lc);
    assert_eq!(v[0]["estimates"]["misplaced"], 7);
    assert_eq!(v[2]["distance"], Value::Null);
    assert_eq!(v[2]["solvable"], false);
    // Text: one line per puzzle naming each.
    let r = query("heuristic", &[&args[..], &["-"]].concat(), input).ok();
    let first = r.lines()[0];
    assert!(
        first.contains("31") && first.contains("manhattan 21") && first.contains("misplaced 7"),
        "{first}"
    );
    // A file argument works as `-` does.
    let file = dir().join("heuristic-input.txt");
    std::fs::write(&file, input).unwrap();
    let r2 = Run::of(
        slidetable()
            .args(["heuristic", "--table"])
            .arg(table_3x3())
            .args(args)
            .arg(&file),
    )
    .ok();
    assert_eq!(r2.stdout, r.stdout);
}

#[test]
fn heuristic_on_a_2bit_table_is_the_byte_tables() {
    for name in ["manhattan", "linear-conflict", "misplaced"] {
        let two = json_lines(&run_2bit("heuristic", &["--heuristic", name, "--json"]).ok());
        let byte = json_lines(
            &run(
                "heuristic",
                &["--heuristic", name, "--json", "--goal", GOAL],
            )
            .ok(),
        );
        let strip = |v: &Value| {
            let mut v = v.clone();
            v.as_object_mut().unwrap().remove("table");
            v
        };
        assert_eq!(strip(&two[0]), strip(&byte[0]), "{name}");
    }
}

#[test]
fn search_and_heuristic_both_take_heuristic() {
    for command in ["search", "heuristic"] {
        let help = Run::of(slidetable().args([command, "--help"])).ok().stdout;
        assert!(help.contains("--heuristic <NAME>"), "{command}: {help}");
    }
}

#[test]
fn a_csv_row_stopped_at_a_limit_is_solvable_as_its_json_record_says() {
    let run = |format: &str| {
        let out = slidetable()
            .args([
                "search",
                "--method",
                "astar",
                "--max-expanded",
                "10",
                format,
            ])
            .write_stdin("8 6 7 2 5 4 3 0 1\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        crate::common::text(&out.stdout)
    };
    let record: serde_json::Value = serde_json::from_str(&run("--json")).unwrap();
    assert_eq!(record["solvable"], true);
    assert_eq!(
        run("--csv").lines().nth(1),
        Some("8 6 7 2 5 4 3 0 1,,,true,astar,manhattan,,")
    );
}

/// Ctrl-C to `search` stops the search in progress and ends the run as a limit would end that
/// search: the answers found before it are written (standard output is a pipe, buffered), the
/// stopped puzzle reads `unknown`, no later puzzle is searched, `--summary FILE` counts what
/// was done, and the exit code is 130. (Killed at once, the run lost every answer and left
/// FILE empty.)
#[test]
fn ctrl_c_to_search_keeps_the_answers_found_and_writes_the_summary() {
    let scratch = TempDir::new().unwrap();
    let summary = scratch.path().join("summary.json");
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    // One move, then Korf's first instance (57 moves: minutes of IDA* on Manhattan), then one
    // move again.
    let input = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n\
                 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n\
                 4 1 2 3 0 5 6 7 8 9 10 11 12 13 14 15\n";
    let mut command = process(dir());
    command
        .args([
            "search", "--method", "idastar", "--board", "4x4", "--goal", goal,
        ])
        .arg("--stats")
        .arg("--summary")
        .arg(&summary);
    assert_ctrl_c_keeps_the_answers(command, input, &summary);
}

/// Ctrl-C to `search` waiting for its next puzzle (standard input open, nothing written: a
/// terminal waits so) ends it, as the signal always did: only a search in progress is
/// stopped and answered.
#[test]
fn ctrl_c_to_search_waiting_for_input_ends_it() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = process(dir())
        .args(["search", "--method", "idastar"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    crate::common::send(&child, "INT");
    let status = wait_at_most(
        &mut child,
        Duration::from_secs(20),
        "search waiting for input",
    );
    drop(stdin);
    assert_eq!(status.signal(), Some(2), "{status:?}");
}
