//! The tools for teachers, students and researchers, run as people run them: `stats`,
//! `hardest`, `random`, `heuristic`, `--json` everywhere, `path --show`, `completions` and
//! `man`. One 3×3 table is generated per test binary; every command runs with
//! `$SLIDETABLE_TABLE` removed and the cache and home in a scratch directory.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::Value;
use slidetable_core::{parse_layout, parse_path, Board, Layout};

mod common;
use common::{sandboxed, scratch_dir, Run};

const STATES: u64 = 181_440;
const USAGE: i32 = 2;
const BAD_INPUT: i32 = 65;
const HARDEST: [&str; 2] = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"];
/// The "snail" goal of many textbooks, blank in the centre.
const SNAIL: &str = "1 2 3 8 0 4 7 6 5";

/// The scratch directory and the table in it, generated once per run of this binary.
fn shared() -> &'static (PathBuf, PathBuf) {
    static SHARED: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = scratch_dir("teach");
        let table = dir.join("3x3.slt");
        Run::of(sandboxed(&dir).args(["generate", "-o"]).arg(&table)).success();
        (dir, table)
    })
}

/// `slidetable <command> --table TABLE <args>`.
fn run(command: &str, args: &[&str]) -> Run {
    let (dir, table) = shared();
    Run::of(
        sandboxed(dir)
            .arg(command)
            .arg("--table")
            .arg(table)
            .args(args),
    )
}

/// As [`run`], reading `input` on standard input.
fn run_with(command: &str, args: &[&str], input: &str) -> Run {
    let (dir, table) = shared();
    Run::of(
        sandboxed(dir)
            .arg(command)
            .arg("--table")
            .arg(table)
            .args(args)
            .write_stdin(input),
    )
}

/// `slidetable <args>` with no table argument.
fn bare(args: &[&str]) -> Command {
    let mut cmd = sandboxed(&shared().0);
    cmd.args(args);
    cmd
}

fn eight(s: &str) -> Layout {
    parse_layout(Board::EIGHT, s.as_bytes()).unwrap()
}

/// Every line of `run`'s output as JSON (each must parse).
fn json_lines(run: &Run) -> Vec<Value> {
    run.lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect()
}

/// A layout given as a JSON array of numbers (docs/JSON.md), as tokens: `1 2 3 4 5 6 7 8 0`.
fn tokens(v: &Value) -> String {
    let tiles: Vec<String> = v
        .as_array()
        .unwrap_or_else(|| panic!("not an array of tiles: {v}"))
        .iter()
        .map(|t| t.as_u64().unwrap().to_string())
        .collect();
    tiles.join(" ")
}

/// Checks `path` is a legal move string from `puzzle` that ends on `goal`, `len` moves long.
fn assert_solves(puzzle: &str, path: &str, goal: &str, len: usize) {
    let moves = parse_path(path).unwrap_or_else(|| panic!("'{path}' is not a path"));
    assert_eq!(moves.len(), len, "{puzzle}: {path}");
    assert_eq!(
        eight(puzzle).after(&moves),
        Some(eight(goal)),
        "{puzzle}: '{path}' does not reach {goal}"
    );
}

// ---------------------------------------------------------------------------------------------
// random

#[test]
fn random_draws_only_states_at_the_depth_asked() {
    for (depth, low, high) in [("20", 20, 20), ("5..7", 5, 7), ("31", 31, 31)] {
        let drawn = run(
            "random",
            &["--depth", depth, "--count", "300", "--seed", "9"],
        )
        .ok();
        assert_eq!(drawn.lines().len(), 300);
        let distances = run_with("distance", &[], &drawn.stdout).ok();
        for d in distances.lines() {
            let d: u32 = d.parse().unwrap();
            assert!(
                (low..=high).contains(&d),
                "--depth {depth} drew a state at {d}"
            );
        }
    }
    // Another goal: the distances are to it.
    let drawn = run(
        "random",
        &["--depth", "12", "--goal", SNAIL, "--count", "50"],
    )
    .ok();
    let distances = run_with("distance", &["--goal", SNAIL], &drawn.stdout).ok();
    assert!(
        distances.lines().iter().all(|&d| d == "12"),
        "{distances:?}"
    );
}

#[test]
fn random_covers_a_small_layer_evenly() {
    // The 8 states 3 moves from the goal, 8000 draws: about 1000 each. For a uniform sampler
    // the chi-square statistic (7 degrees of freedom) exceeds 30 with probability ~1e-4; a
    // sampler that misses a state, or favours one by a fifth, lands far above it.
    for seed in ["1", "2", "3"] {
        let drawn = run(
            "random",
            &["--depth", "3", "--count", "8000", "--seed", seed],
        )
        .ok();
        let mut seen: HashMap<&str, u64> = HashMap::new();
        for line in drawn.lines() {
            *seen.entry(line).or_default() += 1;
        }
        assert_eq!(seen.len(), 8, "seed {seed}: {seen:?}");
        let chi: f64 = seen
            .values()
            .map(|&n| (n as f64 - 1000.0).powi(2) / 1000.0)
            .sum();
        assert!(chi < 30.0, "seed {seed}: chi-square {chi}: {seen:?}");
        let distances = run_with("distance", &[], &drawn.stdout).ok();
        assert!(distances.lines().iter().all(|&d| d == "3"));
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles() {
    let draw = |seed: &str| {
        run(
            "random",
            &["--depth", "18..24", "--count", "40", "--seed", seed],
        )
        .ok()
        .stdout
    };
    assert_eq!(draw("42"), draw("42"));
    assert_ne!(draw("42"), draw("43"));
    // Without --seed each run draws afresh: 40 puzzles from ~140,000 repeat by chance with
    // probability far below 1e-100.
    let fresh = || {
        run("random", &["--depth", "18..24", "--count", "40"])
            .ok()
            .stdout
    };
    assert_ne!(fresh(), fresh());
    // One puzzle without --count.
    assert_eq!(run("random", &["--depth", "10"]).ok().lines().len(), 1);
}

#[test]
fn random_refuses_depths_the_table_has_no_state_at() {
    let r = run("random", &["--depth", "32"]);
    assert_eq!(r.code, Some(USAGE));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains(
            "no state is 32 moves from 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away"
        ),
        "{r:?}"
    );
    let r = run("random", &["--depth", "40..50"]);
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("no state is 40 to 50 moves"), "{r:?}");
    // The snail goal's farthest states are 30 moves away.
    let r = run("random", &["--depth", "31", "--goal", SNAIL]);
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("the farthest are 30 moves away"), "{r:?}");
    let r = run("random", &["--depth", "9..3"]);
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("9..3 is an empty range"), "{r:?}");
    for bad in ["x", "-1", "3..", "1..=2"] {
        let r = run("random", &[&format!("--depth={bad}")]);
        assert_eq!(r.code, Some(USAGE), "--depth {bad}: {r:?}");
        assert!(r.stderr.contains("is not a depth"), "{r:?}");
    }
    assert_eq!(run("random", &[]).code, Some(USAGE));
    let r = run("random", &["--depth", "3", "--goal", "1 2 3"]);
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("--goal '1 2 3'"), "{r:?}");
    // --count 0 draws nothing, successfully.
    let r = run("random", &["--depth", "3", "--count", "0"]).ok();
    assert_eq!(r.stdout, "");
}

// ---------------------------------------------------------------------------------------------
// hardest

#[test]
fn hardest_gives_exactly_the_two_31_move_states() {
    let r = run("hardest", &[]).ok();
    let mut found = Vec::new();
    for line in r.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[1], "31");
        assert_solves(fields[0], fields[2], "1 2 3 4 5 6 7 8 0", 31);
        found.push(fields[0]);
    }
    found.sort();
    let mut expected = HARDEST.to_vec();
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn hardest_for_another_goal() {
    let r = run("hardest", &["--goal", SNAIL]).ok();
    assert_eq!(r.lines().len(), 148);
    let puzzles: Vec<&str> = r
        .lines()
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    for line in r.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[1], "30");
        assert_solves(fields[0], fields[2], SNAIL, 30);
    }
    let distances = run_with("distance", &["--goal", SNAIL], &puzzles.join("\n")).ok();
    assert!(distances.lines().iter().all(|&d| d == "30"));
    // A goal in the other parity class, blank in a corner: its own hardest states.
    let r = run("hardest", &["--goal", "0 1 2 3 4 5 6 7 8"]).ok();
    assert!(!r.lines().is_empty());
    for line in r.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let len: usize = fields[1].parse().unwrap();
        assert_solves(fields[0], fields[2], "0 1 2 3 4 5 6 7 8", len);
    }
}

// ---------------------------------------------------------------------------------------------
// stats

#[test]
fn stats_add_up() {
    let r = run("stats", &["--json"]).ok();
    let v = &json_lines(&r)[0];
    assert_eq!(v["states"], STATES);
    assert_eq!(v["max_distance"], 31);
    assert_eq!(v["median"], 22);
    let distances = v["distances"].as_array().unwrap();
    assert_eq!(distances.len(), 32);
    let sum: u64 = distances
        .iter()
        .map(|d| d["states"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, STATES);
    let shares: f64 = distances.iter().map(|d| d["share"].as_f64().unwrap()).sum();
    assert!((shares - 1.0).abs() < 1e-12);
    assert_eq!(distances[31]["cumulative"].as_f64(), Some(1.0));
    assert_eq!(distances[31]["states"], 2);
    let weighted: u64 = distances
        .iter()
        .map(|d| d["distance"].as_u64().unwrap() * d["states"].as_u64().unwrap())
        .sum();
    assert_eq!(v["mean"].as_f64(), Some(weighted as f64 / STATES as f64));

    let text = run("stats", &[]).ok();
    assert!(text.stdout.contains("states   181440\n"), "{}", text.stdout);
    assert!(text.stdout.contains("median   22 moves\n"));
    assert!(text.stdout.contains("maximum  31 moves (2 states)\n"));
    let last = text.lines().last().unwrap().to_string();
    assert!(last.contains("100.000%"), "{last}");
    assert!(last.trim_start().starts_with("31 "), "{last}");
    // The biggest layer (24 moves) has the longest bar.
    let bar = |d: &str| {
        text.lines()
            .into_iter()
            .find(|l| l.trim_start().starts_with(&format!("{d} ")))
            .map(|l| l.matches('#').count())
            .unwrap()
    };
    assert_eq!(bar("24"), 40);
    assert!(bar("0") >= 1 && bar("23") < 40);

    let snail = run("stats", &["--goal", SNAIL]).ok();
    assert!(snail.stdout.contains("maximum  30 moves (148 states)"));
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

// ---------------------------------------------------------------------------------------------
// --json

#[test]
fn distance_and_path_json_keep_the_streaming_rules() {
    let input =
        "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n1 2 3\n8 6 7 2 5 4 3 0 1\n";
    let r = run_with("path", &["--json", "--keep-going"], input);
    assert_eq!(r.code, Some(BAD_INPUT));
    let v = json_lines(&r);
    assert_eq!(v.len(), 5);
    assert_eq!(tokens(&v[0]["puzzle"]), "2 3 4 1 5 0 7 6 8");
    assert_eq!(v[0]["distance"], 19);
    assert_eq!(v[0]["solvable"], true);
    assert_solves(
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
    let r = run_with("distance", &["--json"], input);
    assert_eq!(r.code, Some(BAD_INPUT));
    let v = json_lines(&r);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["distance"], 19);
    assert!(v[0].get("path").is_none());
    assert_eq!(v[2]["distance"], Value::Null);
    assert_eq!(v[2]["solvable"], false);
    assert!(r.stderr.contains("line 4"));

    // --order and --goal carry over.
    let r = run_with(
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
        bare(&[
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
    // Three lines read, then the summary over them.
    assert_eq!(v.len(), 4);
    assert_eq!(v[3]["summary"]["puzzles"], 2);
    assert_eq!(v[0]["distance"], 19);
    assert_solves(
        "2 3 4 1 5 0 7 6 8",
        v[0]["path"].as_str().unwrap(),
        "1 2 3 4 5 6 7 8 0",
        19,
    );
    assert!(v[0]["stats"]["expanded"].as_u64().unwrap() > 0);
    assert_eq!(v[1]["solvable"], false);
    assert_eq!(v[1]["path"], Value::Null);
    assert_eq!(v[2]["line"], 3);
    // A search stopped at its limit: no answer, the reason, exit 1.
    let r = Run::of(
        bare(&[
            "search",
            "--method",
            "bfs",
            "--max-expanded",
            "10",
            "--json",
        ])
        .write_stdin("8 6 7 2 5 4 3 0 1\n"),
    );
    assert_eq!(r.code, Some(1));
    let v = &json_lines(&r)[0];
    assert_eq!(v["distance"], Value::Null);
    assert_eq!(v["solvable"], true);
    assert!(v["error"].as_str().unwrap().contains("limit"));
}

#[test]
fn hardest_and_random_json() {
    let v = json_lines(&run("hardest", &["--json"]).ok());
    assert_eq!(v.len(), 2);
    for h in &v {
        assert!(HARDEST.contains(&tokens(&h["puzzle"]).as_str()));
        assert_eq!(h["distance"], 31);
        assert_solves(
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
        assert_solves(
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

// ---------------------------------------------------------------------------------------------
// path --show

#[test]
fn path_show_draws_every_board() {
    let r = run_with(
        "path",
        &["--show"],
        "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 0\n",
    )
    .ok();
    let lines = r.lines();
    assert_eq!(lines[0], "2 3 4 1 5 0 7 6 8: 19 moves, ullddrurdllurrdlurd");
    assert_eq!(lines[1], "");
    // The first board, at the left of the first row of boards.
    assert!(lines[2].starts_with("start   1 u"), "{}", r.stdout);
    assert!(lines[3].starts_with("2 3 4   "));
    assert!(lines[4].starts_with("1 5 .   "));
    assert!(lines[5].starts_with("7 6 8   "));
    // The last board, at the right of the last row: the goal.
    let row = lines[7..11].to_vec();
    assert!(row[0].ends_with("19 d"), "{row:?}");
    assert!(row[1].ends_with("1 2 3"));
    assert!(row[2].ends_with("4 5 6"));
    assert!(row[3].ends_with("7 8 ."));
    assert!(lines.iter().all(|l| l.len() <= 80));
    // 20 boards: two rows of ten.
    assert_eq!(row[0].split("   ").count(), 10);
    assert_eq!(lines[12], "2 1 3 4 5 6 7 8 0: unsolvable");
    assert_eq!(
        run_with("path", &["--show", "--json"], "").code,
        Some(USAGE)
    );
}

// ---------------------------------------------------------------------------------------------
// completions, man, default table

#[test]
fn completions_and_man() {
    for shell in ["bash", "zsh", "fish"] {
        let r = Run::of(&mut bare(&["completions", shell])).ok();
        assert!(r.stdout.len() > 1000, "{shell}: {}", r.stdout.len());
        assert!(r.stdout.contains("slidetable"));
        assert!(
            r.stdout.contains("heuristic"),
            "{shell}: the new commands are completed"
        );
    }
    assert_eq!(
        Run::of(&mut bare(&["completions", "tcsh"])).code,
        Some(USAGE)
    );
    let r = Run::of(&mut bare(&["man"])).ok();
    assert!(r.stdout.starts_with(".TH") || r.stdout.starts_with(".ie"));
    assert!(r.stdout.contains(".TH slidetable 1"));
    assert!(r.stdout.contains("slidetable\\-random(1)"));
    let r = Run::of(&mut bare(&["man", "random"])).ok();
    assert!(r.stdout.contains(".TH slidetable-random 1"));
    assert!(r.stdout.contains("\\-\\-depth"));
    let r = Run::of(&mut bare(&["man", "nope"]));
    assert_eq!(r.code, Some(USAGE));
    assert!(r.stderr.contains("no command 'nope'"));
}

#[test]
fn whole_table_commands_use_the_default_table() {
    // A scratch cache of its own: the first command generates the table there.
    let dir = tempfile::tempdir().unwrap();
    let r = Run::of(sandboxed(dir.path()).args(["stats", "--json"])).success();
    assert!(r.stderr.contains("generating it once"), "{r:?}");
    assert!(dir.path().join("cache/slidetable/3x3.slt").exists());
    assert_eq!(json_lines(&r)[0]["states"], STATES);
    let r = Run::of(sandboxed(dir.path()).args(["hardest"])).ok();
    assert_eq!(r.lines().len(), 2);
    let r = Run::of(sandboxed(dir.path()).args(["random", "--depth", "4"])).ok();
    assert_eq!(r.lines().len(), 1);
    let r = Run::of(sandboxed(dir.path()).args(["heuristic", "--name", "misplaced"])).ok();
    assert!(r.stdout.contains("admissible: true"));
    // $SLIDETABLE_TABLE names it too.
    let r = Run::of(
        sandboxed(dir.path())
            .env("SLIDETABLE_TABLE", &shared().1)
            .args(["stats"]),
    )
    .ok();
    assert!(r
        .stdout
        .contains(&format!("table    {}", shared().1.display())));
}
