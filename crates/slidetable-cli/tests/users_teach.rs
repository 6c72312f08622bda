//! What a teacher preparing a worksheet and a researcher comparing heuristics expect:
//! `random --distinct` and `random --show` (a question sheet), several heuristics side by
//! side and per puzzle, search statistics with the effective branching factor, `--csv`
//! wherever a table of numbers is printed, and the whole-table commands on 2-bit tables
//! (the 12-cell boards' encoding) answering from one pass over the table.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::Value;
use slidetable_core::{parse_layout, parse_path, Board, Layout};

mod common;
use common::{sandboxed, scratch_dir, Run};

const USAGE: i32 = 2;
const HARDEST: [&str; 2] = ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"];
const GOAL: &str = "1 2 3 4 5 6 7 8 0";

struct Shared {
    dir: PathBuf,
    /// The default 3×3 table (byte entries).
    eight: PathBuf,
    /// The standard 3×3 goal in 2-bit entries, as the 12-cell boards are stored.
    two_bit: PathBuf,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = scratch_dir("users-teach");
        let eight = dir.join("3x3.slt");
        let two_bit = dir.join("3x3-2bit.slt");
        Run::of(sandboxed(&dir).args(["generate", "-o"]).arg(&eight)).ok();
        Run::of(
            sandboxed(&dir)
                .args(["generate", "--encoding", "2bit", "--goal", GOAL, "-o"])
                .arg(&two_bit),
        )
        .ok();
        Shared {
            dir,
            eight,
            two_bit,
        }
    })
}

fn bare() -> Command {
    sandboxed(&shared().dir)
}

/// `slidetable COMMAND --table 3x3.slt ARGS`.
fn run(command: &str, args: &[&str]) -> Run {
    Run::of(
        bare()
            .arg(command)
            .arg("--table")
            .arg(&shared().eight)
            .args(args),
    )
}

fn run_with(command: &str, args: &[&str], input: &str) -> Run {
    Run::of(
        bare()
            .arg(command)
            .arg("--table")
            .arg(&shared().eight)
            .args(args)
            .write_stdin(input),
    )
}

fn run_2bit(command: &str, args: &[&str]) -> Run {
    Run::of(
        bare()
            .arg(command)
            .arg("--table")
            .arg(&shared().two_bit)
            .args(args),
    )
}

fn eight(s: &str) -> Layout {
    parse_layout(Board::EIGHT, s.as_bytes()).unwrap()
}

fn json_lines(run: &Run) -> Vec<Value> {
    run.lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect()
}

/// A layout given as a JSON array of numbers.
fn layout_of(v: &Value) -> Layout {
    let tiles: Vec<String> = v
        .as_array()
        .unwrap_or_else(|| panic!("not an array of tiles: {v}"))
        .iter()
        .map(|t| t.as_u64().unwrap().to_string())
        .collect();
    eight(&tiles.join(" "))
}

/// Distances of every puzzle by `distance` on the byte table.
fn distances(puzzles: &[String]) -> Vec<i64> {
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    run_with("distance", &[], &input)
        .ok()
        .lines()
        .iter()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// Parses CSV output: the header and the rows (no field here needs quoting).
fn csv(run: &Run) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = run.stdout.lines();
    let header = lines
        .next()
        .unwrap_or_else(|| panic!("no header: {run:#?}"))
        .split(',')
        .map(str::to_string)
        .collect::<Vec<_>>();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
        .collect();
    for row in &rows {
        assert_eq!(row.len(), header.len(), "{row:?} under {header:?}");
    }
    (header, rows)
}

// ---------------------------------------------------------------------------------------------
// random --distinct, random --show

#[test]
fn random_distinct_never_repeats_and_can_take_a_whole_layer() {
    // 8 states are 3 moves from the goal: asking for all 8 gives each once.
    let r = run(
        "random",
        &["--depth", "3", "--count", "8", "--seed", "1", "--distinct"],
    )
    .ok();
    let drawn: HashSet<&str> = r.lines().into_iter().collect();
    assert_eq!(r.lines().len(), 8);
    assert_eq!(drawn.len(), 8, "{r:#?}");
    // A larger layer: 500 of the 16993 states at 20 moves, no repeats, all at 20.
    let r = run(
        "random",
        &[
            "--depth",
            "20",
            "--count",
            "500",
            "--seed",
            "9",
            "--distinct",
        ],
    )
    .ok();
    let puzzles: Vec<String> = r.lines().iter().map(|s| s.to_string()).collect();
    assert_eq!(puzzles.iter().collect::<HashSet<_>>().len(), 500);
    assert!(distances(&puzzles).iter().all(|&d| d == 20));
    // The same seed gives the same puzzles.
    let again = run(
        "random",
        &[
            "--depth",
            "20",
            "--count",
            "500",
            "--seed",
            "9",
            "--distinct",
        ],
    )
    .ok();
    assert_eq!(again.stdout, r.stdout);
}

#[test]
fn random_distinct_refuses_more_than_the_layer_holds_saying_how_many_it_has() {
    let r = run("random", &["--depth", "3", "--count", "9", "--distinct"]);
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains("--count 9") && r.stderr.contains(" 8 "),
        "{r:#?}"
    );
    let r = run(
        "random",
        &["--depth", "30..31", "--count", "224", "--distinct"],
    );
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
    assert!(r.stderr.contains("223"), "{r:#?}");
}

/// Reads boards drawn side by side: groups separated by blank lines, each a line of labels
/// then the rows; a board's column starts where its label does. `.` is the blank.
fn read_drawing(text: &str) -> Vec<(String, String)> {
    let mut boards = Vec::new();
    for group in text.split("\n\n").filter(|g| !g.trim().is_empty()) {
        let lines: Vec<&str> = group.lines().collect();
        let labels = lines[0];
        let mut starts = vec![];
        let mut previous = ' ';
        for (i, c) in labels.char_indices() {
            if c != ' ' && previous == ' ' {
                starts.push(i);
            }
            previous = c;
        }
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied();
            let cut = |line: &str| {
                let end = end.unwrap_or(line.len()).min(line.len());
                line.get(start.min(line.len())..end)
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            let label = cut(labels);
            let tiles: Vec<String> = lines[1..]
                .iter()
                .flat_map(|l| {
                    cut(l)
                        .split_whitespace()
                        .map(|t| {
                            if t == "." {
                                "0".to_string()
                            } else {
                                t.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            boards.push((label, tiles.join(" ")));
        }
    }
    boards
}

#[test]
fn random_show_draws_the_puzzles_numbered_without_their_solutions() {
    let plain = run("random", &["--depth", "20", "--count", "12", "--seed", "7"]).ok();
    let shown = run(
        "random",
        &["--depth", "20", "--count", "12", "--seed", "7", "--show"],
    )
    .ok();
    let boards = read_drawing(&shown.stdout);
    let expected: Vec<(String, String)> = plain
        .lines()
        .iter()
        .enumerate()
        .map(|(i, p)| ((i + 1).to_string(), p.to_string()))
        .collect();
    assert_eq!(boards, expected, "{}", shown.stdout);
    // No move strings, no distances: a question sheet.
    for line in shown.stdout.lines() {
        assert!(
            !line.contains("moves") && !line.chars().any(|c| "udlr".contains(c)),
            "{line}"
        );
    }
    // --show with --json or --csv makes no sense.
    let r = run("random", &["--depth", "3", "--show", "--json"]);
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
}

// ---------------------------------------------------------------------------------------------
// heuristic: several side by side, and per puzzle

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
    let r = run_with("heuristic", &[&args[..], &["--csv", "-"]].concat(), input).ok();
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
    let r = run_with("heuristic", &[&args[..], &["--json", "-"]].concat(), input).ok();
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
    let r = run_with("heuristic", &[&args[..], &["-"]].concat(), input).ok();
    let first = r.lines()[0];
    assert!(
        first.contains("31") && first.contains("manhattan 21") && first.contains("misplaced 7"),
        "{first}"
    );
    // A file argument works as `-` does.
    let file = shared().dir.join("heuristic-input.txt");
    std::fs::write(&file, input).unwrap();
    let r2 = Run::of(
        bare()
            .args(["heuristic", "--table"])
            .arg(&shared().eight)
            .args(args)
            .arg(&file),
    )
    .ok();
    assert_eq!(r2.stdout, r.stdout);
}

// ---------------------------------------------------------------------------------------------
// search --json --stats: nodes and the effective branching factor, and a summary

#[test]
fn search_json_stats_give_the_effective_branching_factor_and_a_summary() {
    let input = "2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n";
    let r = Run::of(
        bare()
            .args(["search", "--method", "astar", "--json", "--stats"])
            .write_stdin(input),
    )
    .ok();
    let v = json_lines(&r);
    assert_eq!(v.len(), 3, "{r:#?}");
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
    let summary = &v[2]["summary"];
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

// ---------------------------------------------------------------------------------------------
// --csv wherever a table of numbers is printed

#[test]
fn stats_csv() {
    let (header, rows) = csv(&run("stats", &["--csv"]).ok());
    assert_eq!(header, ["distance", "states", "share", "cumulative"]);
    assert_eq!(rows.len(), 32);
    let total: u64 = rows.iter().map(|r| r[1].parse::<u64>().unwrap()).sum();
    assert_eq!(total, 181440);
    assert_eq!(rows[31][0], "31");
    assert_eq!(rows[31][1], "2");
    assert_eq!(rows[31][3].parse::<f64>().unwrap(), 1.0);
}

#[test]
fn hardest_and_random_csv() {
    let (header, rows) = csv(&run("hardest", &["--csv"]).ok());
    assert_eq!(header, ["puzzle", "distance", "path"]);
    let puzzles: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(puzzles, HARDEST);
    assert!(rows.iter().all(|r| r[1] == "31" && r[2].len() == 31));
    let (header, rows) = csv(&run(
        "random",
        &["--depth", "12", "--count", "5", "--seed", "3", "--csv"],
    )
    .ok());
    assert_eq!(header, ["puzzle", "distance", "path"]);
    for row in &rows {
        assert_eq!(row[1], "12");
        let path = parse_path(&row[2]).unwrap();
        assert_eq!(eight(&row[0]).after(&path), Some(eight(GOAL)));
    }
}

#[test]
fn distance_and_path_csv() {
    let input = "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 0\n";
    let (header, rows) = csv(&run_with("distance", &["--csv"], input).ok());
    assert_eq!(header, ["puzzle", "distance", "solvable"]);
    assert_eq!(
        rows,
        [
            ["2 3 4 1 5 0 7 6 8", "19", "true"],
            ["2 1 3 4 5 6 7 8 0", "", "false"],
            ["1 2 3 4 5 6 7 8 0", "0", "true"],
        ]
    );
    let (header, rows) = csv(&run_with("path", &["--csv"], input).ok());
    assert_eq!(header, ["puzzle", "distance", "path", "solvable"]);
    assert_eq!(rows[0][1], "19");
    assert_eq!(rows[0][2].len(), 19);
    assert_eq!(rows[1][1..], ["", "", "false"]);
    assert_eq!(rows[2][1..], ["0", "", "true"]);
}

// ---------------------------------------------------------------------------------------------
// The whole-table commands on 2-bit entries (how 11- and 12-cell boards are stored) agree
// with the byte table.

#[test]
fn hardest_on_a_2bit_table_is_the_byte_tables() {
    let byte = run("hardest", &["--goal", GOAL]).ok();
    let two = run_2bit("hardest", &[]).ok();
    let firsts = |r: &Run| -> Vec<(String, String)> {
        r.lines()
            .iter()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_string(), f[1].to_string())
            })
            .collect()
    };
    assert_eq!(firsts(&two), firsts(&byte));
}

#[test]
fn random_on_a_2bit_table_draws_at_the_depth_asked_as_the_byte_table_does() {
    for depth in ["0", "1", "17", "25..27", "31"] {
        let args = ["--depth", depth, "--count", "200", "--seed", "5"];
        let two = run_2bit("random", &args).ok();
        let byte = run("random", &[&args[..], &["--goal", GOAL]].concat()).ok();
        // Both tables rank states the same way, so the same seed draws the same states.
        assert_eq!(two.stdout, byte.stdout, "depth {depth}");
    }
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
fn stats_of_a_distance_histogram_add_up_on_2bit_tables() {
    let v = json_lines(&run_2bit("stats", &["--json"]).ok());
    assert_eq!(v[0]["max_distance"], 31);
    let counts: HashMap<u64, u64> = v[0]["distances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["distance"].as_u64().unwrap(),
                d["states"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts[&31], 2);
}

/// The 12-cell board itself: its hardest states (18 at 53 moves, as `info` counts them) and a
/// random draw at 40 moves, each checked by `distance`, which walks the table independently.
#[test]
fn hardest_and_random_on_the_3x4_board() {
    let dir = scratch_dir("users-teach-3x4");
    let table = dir.join("3x4.slt");
    if !table.exists() {
        Run::of(
            sandboxed(&dir)
                .args(["generate", "--board", "3x4", "-o"])
                .arg(&table),
        )
        .ok();
    }
    let query = |args: &[&str], input: &str| {
        Run::of(
            sandboxed(&dir)
                .args(args)
                .arg("--table")
                .arg(&table)
                .write_stdin(input),
        )
        .ok()
    };
    let hardest = query(&["hardest"], "");
    let puzzles: Vec<&str> = hardest
        .lines()
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(puzzles.len(), 18, "{hardest:#?}");
    let mut sorted = puzzles.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 18);
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let d = query(&["distance"], &input);
    assert!(d.lines().iter().all(|&l| l == "53"), "{d:#?}");
    let random = query(
        &["random", "--depth", "40", "--count", "50", "--seed", "4"],
        "",
    );
    let d = query(&["distance"], &random.stdout);
    assert_eq!(d.lines().len(), 50);
    assert!(d.lines().iter().all(|&l| l == "40"), "{d:#?}");
}
