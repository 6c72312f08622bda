//! The commands that read every state of a table, for teachers, students and researchers:
//! `random` (depths, evenness, seeds, `--distinct`, `--show`), `hardest` and `stats`, in text
//! and CSV, on byte and 2-bit tables (the 12-cell boards' encoding: one pass over the table),
//! on the 3×4 board, and with the default table.

use std::collections::{HashMap, HashSet};

use slidetable::core::parse_path;

use crate::common;
use crate::common::{
    assert_path, csv, eight, json_lines, query, run, sandboxed, scratch_dir, table_3x3,
    table_3x3_2bit, Run, HARDEST, STATES, USAGE,
};

/// The "snail" goal of many textbooks, blank in the centre.
const SNAIL: &str = "1 2 3 8 0 4 7 6 5";
const GOAL: &str = "1 2 3 4 5 6 7 8 0";

/// `slidetable COMMAND --table 3x3-2bit.slt ARGS`.
fn run_2bit(command: &str, args: &[&str]) -> Run {
    Run::of(
        common::slidetable()
            .arg(command)
            .arg("--table")
            .arg(table_3x3_2bit())
            .args(args),
    )
}

/// Distances of every puzzle by `distance` on the byte table.
fn distances(puzzles: &[String]) -> Vec<i64> {
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    query("distance", &[], &input)
        .ok()
        .lines()
        .iter()
        .map(|l| l.parse().unwrap())
        .collect()
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
        let distances = query("distance", &[], &drawn.stdout).ok();
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
    let distances = query("distance", &["--goal", SNAIL], &drawn.stdout).ok();
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
        let distances = query("distance", &[], &drawn.stdout).ok();
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
    let args = [
        "--depth",
        "20",
        "--count",
        "500",
        "--seed",
        "9",
        "--distinct",
    ];
    let r = run("random", &args).ok();
    let puzzles: Vec<String> = r.lines().iter().map(|s| s.to_string()).collect();
    assert_eq!(puzzles.iter().collect::<HashSet<_>>().len(), 500);
    assert!(distances(&puzzles).iter().all(|&d| d == 20));
    // The same seed gives the same puzzles.
    let again = run("random", &args).ok();
    assert_eq!(again.stdout, r.stdout);
}

/// `--distinct` draws a uniform set in a uniform order: `| head` is as random as the whole.
/// (Floyd's sampling alone gives a whole layer in rank order for every seed, and 16000 of the
/// 16993 states at 20 moves with every line starting "0 2".)
#[test]
fn random_distinct_prints_its_draws_in_a_random_order() {
    let whole = |seed: &str| {
        run(
            "random",
            &["--depth", "3", "--count", "8", "--seed", seed, "--distinct"],
        )
        .ok()
        .stdout
    };
    let (one, two) = (whole("1"), whole("2"));
    assert_ne!(
        one, two,
        "a whole layer in the same order for seeds 1 and 2"
    );
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(
        sorted(&one),
        sorted(&two),
        "the same layer, each state once"
    );
    let args = [
        "--depth",
        "20",
        "--count",
        "16000",
        "--seed",
        "3",
        "--distinct",
    ];
    let r = run("random", &args).ok();
    let firsts: HashSet<&str> = r
        .lines()
        .into_iter()
        .take(20)
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert!(firsts.len() > 2, "the first 20 lines start with {firsts:?}");
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

/// On a table of tile costs `--depth` is a cheapest cost, and its refusals say so: a cost is
/// never called a distance (the 3x3 goal's cheapest costs skip 1 to 5 and stop at 139; they
/// said "no state is 5 moves from …: the farthest are 139 moves away").
#[test]
fn random_on_a_table_of_costs_refuses_in_costs_not_moves() {
    let dir = scratch_dir("random-costs");
    let tile = dir.join("3x3-tile.slt");
    common::generate_into(&dir, "3x3", &["--cost", "tile"], &tile);
    let random = |args: &[&str]| {
        Run::of(
            sandboxed(&dir)
                .arg("random")
                .arg("--table")
                .arg(&tile)
                .args(args),
        )
    };
    let r = random(&["--depth", "5"]);
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
    assert_eq!(
        r.stderr,
        format!(
            "slidetable: --depth: no state is at a cheapest cost of 5 from {GOAL}: not every \
             cost up to the highest, 139, is some state's (`slidetable stats` counts the states \
             at each cost)\n"
        )
    );
    let r = random(&["--depth", "140..150"]);
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
    assert_eq!(
        r.stderr,
        format!(
            "slidetable: --depth: no state is at a cheapest cost of 140 to 150 from {GOAL}: \
             the highest is 139\n"
        )
    );
    let r = random(&["--depth", "6", "--count", "2", "--distinct"]);
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: --count 2 --distinct: only 1 state is at a cheapest cost of 6 from the goal\n"
    );
    // A cost some state has is drawn, its cost and moves told apart.
    let r = random(&["--depth", "6", "--json"]).ok();
    assert_eq!(
        r.stdout,
        "{\"puzzle\":[1,2,3,4,5,0,7,8,6],\"cost\":6,\"moves\":1,\"path\":\"d\",\"solvable\":true}\n"
    );
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
    // Another goal is drawn first, labelled, so the sheet says where the tiles go; the
    // standard goal is not (above).
    let args = [
        "--depth", "5", "--count", "3", "--seed", "7", "--goal", SNAIL,
    ];
    let plain = run("random", &args).ok();
    let shown = run("random", &[&args[..], &["--show"]].concat()).ok();
    let mut expected = vec![("goal".to_string(), SNAIL.to_string())];
    expected.extend(
        plain
            .lines()
            .iter()
            .enumerate()
            .map(|(i, p)| ((i + 1).to_string(), p.to_string())),
    );
    assert_eq!(read_drawing(&shown.stdout), expected, "{}", shown.stdout);
    assert!(!run("random", &["--depth", "5", "--show", "--goal", GOAL])
        .ok()
        .stdout
        .contains("goal"));
}

// ---------------------------------------------------------------------------------------------
// hardest and stats

#[test]
fn hardest_gives_exactly_the_two_31_move_states() {
    let r = run("hardest", &[]).ok();
    let mut found = Vec::new();
    for line in r.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[1], "31");
        assert_path(fields[0], fields[2], "1 2 3 4 5 6 7 8 0", 31);
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
        assert_path(fields[0], fields[2], SNAIL, 30);
    }
    let distances = query("distance", &["--goal", SNAIL], puzzles.join("\n")).ok();
    assert!(distances.lines().iter().all(|&d| d == "30"));
    // A goal in the other parity class, blank in a corner: its own hardest states.
    let r = run("hardest", &["--goal", "0 1 2 3 4 5 6 7 8"]).ok();
    assert!(!r.lines().is_empty());
    for line in r.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let len: usize = fields[1].parse().unwrap();
        assert_path(fields[0], fields[2], "0 1 2 3 4 5 6 7 8", len);
    }
}

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

    // --log: the same table, bars on a log scale, so 1, 2 and 4 states look different.
    let log = run("stats", &["--log"]).ok();
    assert!(
        log.stdout.contains("cumulative  (bars: log scale)\n"),
        "{}",
        log.stdout
    );
    let marks = |d: &str| {
        log.lines()
            .into_iter()
            .find(|l| l.trim_start().starts_with(&format!("{d} ")))
            .map(|l| l.matches('#').count())
            .unwrap()
    };
    assert!(marks("0") < marks("1") && marks("1") < marks("2"));
    assert_eq!(marks("24"), 40);
    assert_eq!(run("stats", &["--log", "--json"]).code, Some(USAGE));
}

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

// ---------------------------------------------------------------------------------------------
// 2-bit tables, the 3×4 board, the default table

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
            .env("SLIDETABLE_TABLE", table_3x3())
            .args(["stats"]),
    )
    .ok();
    assert!(r
        .stdout
        .contains(&format!("table    {}", table_3x3().display())));
}

/// `random --count` streams: the first answers come at once whatever the count, and a
/// reader that stops (`| head -2`) ends the run quietly, never a capacity overflow, an 80 GB
/// allocation or a long silence.
#[test]
fn random_streams_any_count() {
    use std::io::{BufRead, BufReader};
    for count in ["18446744073709551615", "10000000000"] {
        let mut child = common::process(common::dir())
            .args([
                "random", "--depth", "5", "--seed", "1", "--count", count, "--table",
            ])
            .arg(common::table_3x3())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        for _ in 0..2 {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            assert_eq!(line.split_whitespace().count(), 9, "{count}: {line:?}");
        }
        drop(stdout);
        let status = common::wait_at_most(&mut child, std::time::Duration::from_secs(60), "random");
        assert_eq!(status.code(), Some(0), "{count}: {status:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The level pass (2x7's way: the 2-bit entries plus one bit a state), forced on the 3×3 board

/// `slidetable COMMAND --table 3x3-2bit.slt ARGS` through the level pass.
fn run_levels(command: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    Run::of(
        common::slidetable()
            .env("SLIDETABLE_LEVEL_PASS", "1")
            .envs(env.iter().copied())
            .arg(command)
            .arg("--table")
            .arg(table_3x3_2bit())
            .args(args),
    )
}

#[test]
fn the_level_pass_gives_the_same_hardest_states_and_draws() {
    for args in [&["--csv"][..], &["--json"], &[]] {
        assert_eq!(
            run_levels("hardest", args, &[]).ok().stdout,
            run_2bit("hardest", args).ok().stdout,
            "hardest {args:?}"
        );
    }
    // One distance: the same seed draws the same puzzles (the k-th state in rank order).
    for depth in ["0", "1", "17", "30", "31"] {
        for extra in [&[][..], &["--distinct"], &["--json"]] {
            // (--distinct takes only what a level holds: refused alike where it holds less)
            let args = [&["--depth", depth, "--count", "40", "--seed", "5"], extra].concat();
            let (new, old) = (run_levels("random", &args, &[]), run_2bit("random", &args));
            assert_eq!(
                (new.code, &new.stdout, &new.stderr),
                (old.code, &old.stdout, &old.stderr),
                "random {args:?}"
            );
        }
    }
    // A range: as uniform, counted distance by distance, so other puzzles; each at a
    // distance in the range, the same for the same seed.
    let args = ["--depth", "25..27", "--count", "300", "--seed", "5"];
    let drawn = run_levels("random", &args, &[]).ok();
    assert_eq!(drawn.stdout, run_levels("random", &args, &[]).ok().stdout);
    let puzzles: Vec<String> = drawn.lines().iter().map(|l| l.to_string()).collect();
    assert_eq!(puzzles.len(), 300);
    let mut at = HashMap::new();
    for d in distances(&puzzles) {
        assert!((25..=27).contains(&d), "{d}");
        *at.entry(d).or_insert(0) += 1;
    }
    assert_eq!(at.len(), 3, "{at:?}");
}

#[test]
fn the_level_pass_refuses_what_random_refuses_and_too_little_memory() {
    let beyond = run_levels("random", &["--depth", "40"], &[]);
    assert_eq!(beyond.code, run_2bit("random", &["--depth", "40"]).code);
    assert!(
        beyond.stderr.contains("the farthest are 31 moves away"),
        "{beyond:#?}"
    );
    let low = run_levels("hardest", &[], &[("SLIDETABLE_AVAILABLE_MEMORY", "60000")]);
    assert_eq!(low.code, Some(1), "{low:#?}");
    assert!(
        low.stderr
            .contains("hardest on a 3x3 table reads it level by level")
            && low
                .stderr
                .contains("68040 bytes of memory, but 60000 bytes is available"),
        "{low:#?}"
    );
    assert_eq!(low.stdout, "");
}
