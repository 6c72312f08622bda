//! The 15-puzzle from the command line: `generate --board 4x4 --pdb 5-5-5` (seconds, so the
//! 7-8 default stays out of CI), then `distance` and `path` on it with the same output,
//! `--json`, `--keep-going` and exit codes as every board, and every corner goal; the commands
//! that read every state refuse the 4×4 board.

use std::path::Path;

use slidetable::core::{parse_layout, parse_path, Board, Layout, Move};

use crate::common;
use crate::common::{
    generated_4x4_555, query_table, sandboxed, scratch_dir, slidetable, Run, USAGE,
};

/// The 5-5-5 database for the goal 0 1 … 15, made once per test binary.
fn database() -> &'static Path {
    let generated = generated_4x4_555();
    let path = &generated.path;
    let lines: Vec<&str> = generated.stdout.lines().collect();
    assert_eq!(lines[0], format!("wrote {}", path.display()));
    assert_eq!(
        lines[1],
        "board 4x4: pattern database 5-5-5 (3 groups, 1572480 placements), goal 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15, 787112 bytes"
    );
    path
}

/// `slidetable COMMAND --table 555.slt ARGS`, reading `input` on standard input.
fn query_555(command: &str, args: &[&str], input: &str) -> Run {
    query_table(database(), command, args, input)
}

const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

/// Korf's instances 79, 55 and 12 (42, 41 and 45 moves) and the goal itself.
const KORF: &str = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15
13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11
# a comment, skipped
14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15
0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
";

#[test]
fn korf_instances_get_their_lengths_and_legal_paths() {
    let run = query_555("distance", &["--goal", KORF_GOAL], KORF).ok();
    assert_eq!(run.lines(), ["42", "41", "45", "0"]);
    let board = Board::new(4, 4).unwrap();
    let goal = parse_layout(board, KORF_GOAL.as_bytes()).unwrap();
    let run = query_555("path", &["--goal", KORF_GOAL], KORF).ok();
    let starts: Vec<&str> = KORF.lines().filter(|l| !l.starts_with('#')).collect();
    for (line, start) in run.lines().iter().zip(starts) {
        let start = parse_layout(board, start.as_bytes()).unwrap();
        let path = parse_path(line).unwrap();
        assert_eq!(start.after(&path), Some(goal), "{start}: {line}");
    }
}

/// `layout` after `steps` pseudo-random moves.
fn walk(mut layout: Layout, steps: usize, mut seed: u64) -> Layout {
    for _ in 0..steps {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let moves: Vec<Move> = layout.moves().collect();
        layout = layout
            .moved(moves[(seed >> 33) as usize % moves.len()])
            .unwrap();
    }
    layout
}

#[test]
fn every_corner_goal_is_served_and_agrees_with_a_search() {
    let board = Board::new(4, 4).unwrap();
    for blank in [0, 3, 12, 15] {
        let goal = board.goal_with_blank(blank);
        let puzzles: Vec<Layout> = (0..4)
            .map(|i| walk(goal, 30, i * 7 + blank as u64))
            .collect();
        let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
        let goal_text = goal.to_string();
        let ours = query_555("path", &["--goal", &goal_text, "--order", "udlr"], &input).ok();
        let dir = scratch_dir("fifteen");
        let theirs = Run::of(
            sandboxed(&dir)
                .args([
                    "search",
                    "--board",
                    "4x4",
                    "--method",
                    "idastar",
                    "--heuristic",
                    "linear-conflict",
                    "--goal",
                    &goal_text,
                ])
                .write_stdin(input.clone()),
        )
        .ok();
        for ((p, a), b) in puzzles.iter().zip(ours.lines()).zip(theirs.lines()) {
            let path = parse_path(a).unwrap();
            assert_eq!(p.after(&path), Some(goal), "{p} to {goal}: {a}");
            assert_eq!(a.len(), b.len(), "{p} to {goal}");
        }
    }
}

#[test]
fn json_unsolvable_and_bad_lines_as_on_every_board() {
    let input = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n";
    let run = query_555("path", &["--json"], input).ok();
    assert_eq!(
        run.lines(),
        [
            r#"{"puzzle":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15],"distance":1,"path":"r","solvable":true}"#,
            r#"{"puzzle":[2,1,3,4,5,6,7,8,9,10,11,12,13,14,15,0],"distance":null,"path":null,"solvable":false}"#,
        ]
    );
    assert_eq!(query_555("distance", &[], input).ok().lines(), ["1", "-1"]);
    assert_eq!(
        query_555("path", &[], input).ok().lines(),
        ["r", "unsolvable"]
    );

    let bad =
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n1 2 3\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n";
    let run = query_555("distance", &[], bad);
    assert_eq!(run.code, Some(65));
    assert_eq!(run.lines(), ["1"]);
    assert_eq!(
        run.stderr,
        "slidetable: <stdin>: line 2: expected 16 tiles, found 3\n"
    );
    let run = query_555("distance", &["--keep-going"], bad);
    assert_eq!(run.code, Some(65));
    assert_eq!(run.lines(), ["1", "invalid", "0"]);
    assert_eq!(
        run.stderr,
        "slidetable: <stdin>: line 2: expected 16 tiles, found 3\nslidetable: 1 invalid line in <stdin>\n"
    );
}

#[test]
fn goals_no_symmetry_reaches_and_bad_partitions_are_refused() {
    let middle = "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15";
    let run = query_555("distance", &["--goal", middle], "");
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("no symmetry carries"), "{run:#?}");
    let dir = scratch_dir("fifteen");
    let run = Run::of(
        sandboxed(&dir).args(["generate", "--board", "4x4", "--pdb", "8-8", "-o", "x.slt"]),
    );
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "slidetable: --pdb: partition '8-8': group sizes must be at least 1 and add up to 15 tiles\n"
    );
    let run = Run::of(
        sandboxed(&dir).args(["generate", "--board", "4x4", "--pdb", "10-5", "-o", "x.slt"]),
    );
    assert_eq!(run.code, Some(2));
}

#[test]
fn group_sizes_that_overflow_are_refused_not_a_panic() {
    let dir = scratch_dir("fifteen");
    let huge = "1-18446744073709551615";
    let run =
        Run::of(sandboxed(&dir).args(["generate", "--board", "4x4", "--pdb", huge, "-o", "x.slt"]));
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert_eq!(
        run.stderr,
        format!("slidetable: --pdb: partition '{huge}': group sizes must be at least 1 and add up to 15 tiles\n")
    );
    let run = Run::of(
        sandboxed(&dir)
            .args(["search", "--board", "4x4", "--method", "idastar"])
            .args(["--heuristic", &format!("pdb-{huge}")])
            .write_stdin("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n"),
    );
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert_eq!(
        run.stderr,
        format!("slidetable: --heuristic pdb-{huge}: partition '{huge}': group sizes must be at least 1 and add up to 15 tiles\n")
    );
}

#[test]
fn search_and_heuristic_take_pattern_databases() {
    // On 4x4 from the database file, beside linear conflict: the same lengths.
    let puzzles = "5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n";
    let dir = scratch_dir("fifteen");
    let run = |heuristic: &str, extra: &[&str]| {
        Run::of(
            sandboxed(&dir)
                .args([
                    "search",
                    "--board",
                    "4x4",
                    "--method",
                    "idastar",
                    "--heuristic",
                    heuristic,
                ])
                .args(extra)
                .write_stdin(puzzles),
        )
        .ok()
    };
    let table = database().to_str().unwrap().to_string();
    let pdb = run("pdb", &["--table", &table]);
    let lc = run("linear-conflict", &[]);
    assert_eq!(
        pdb.lines().iter().map(|l| l.len()).collect::<Vec<_>>(),
        [28, 1]
    );
    assert_eq!(
        lc.lines().iter().map(|l| l.len()).collect::<Vec<_>>(),
        [28, 1]
    );
    // On 3x3 a partition built in memory, for A* and IDA*, any goal: optimal lengths.
    let eight = "8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n1 2 3 4 5 6 8 7 0\n";
    for method in ["astar", "idastar"] {
        for heuristic in ["pdb", "pdb-3-3-2"] {
            let r = Run::of(
                sandboxed(&dir)
                    .args(["search", "--method", method, "--heuristic", heuristic])
                    .write_stdin(eight),
            )
            .ok();
            assert_eq!(r.lines()[0].len(), 31, "{method} {heuristic}");
            assert_eq!(r.lines()[1].len(), 31, "{method} {heuristic}");
            assert_eq!(r.lines()[2], "unsolvable");
        }
    }
    // Measured against the exact 3x3 table: admissible, and (as FORMAT.md §11 says) not
    // consistent.
    let r = Run::of(sandboxed(&dir).args(["heuristic", "--name", "pdb-4-4"])).success();
    assert!(r.stdout.starts_with("heuristic  pdb-4-4\n"), "{}", r.stdout);
    assert!(r.stdout.contains("admissible: true"), "{}", r.stdout);
    assert!(r.stdout.contains("consistent: false"), "{}", r.stdout);
}

/// The commands that read every state refuse the 4x4 board at once (exit 2), naming the
/// commands its pattern database answers, before any table is opened or generated
/// (`random --depth` too: see the next test; `serve` serves 4x4 from pattern databases: its
/// tests are in serve.rs).
#[test]
fn a_4x4_board_is_refused_where_every_state_is_read() {
    let cache = tempfile::tempdir().unwrap();
    for args in [
        &["hardest", "--board", "4x4"][..],
        &["stats", "--board", "4x4"],
        &["heuristic", "--board", "4x4"],
    ] {
        let r = Run::of(
            slidetable()
                .env("XDG_CACHE_HOME", cache.path())
                .args(args)
                .write_stdin(""),
        );
        assert_eq!(r.code, Some(USAGE), "{args:?}: {r:#?}");
        assert!(
            r.stderr.contains("tables of every state go up to 14 cells")
                && r.stderr.contains("`distance`, `path`"),
            "{args:?}: {r:#?}"
        );
    }
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 0);
}

/// `random --board 4x4` (and any board over 14 cells) draws solvable layouts with no table, and
/// so does 2x7 without `--depth` (its table cannot draw at a distance):
/// the same for the same seed, as text, JSON, CSV or a sheet, `--distinct` honoured;
/// `--depth` is refused, saying why and what to do instead. No table is opened or made.
#[test]
fn random_4x4_puzzles_are_solvable_reproducible_and_need_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let draw = |extra: &[&str]| {
        Run::of(
            sandboxed(dir.path())
                .args(["random", "--board", "4x4", "--count", "200"])
                .args(extra),
        )
        .ok()
        .stdout
    };
    let first = draw(&["--seed", "7"]);
    assert_eq!(first, draw(&["--seed", "7"]));
    assert_ne!(first, draw(&["--seed", "8"]));
    assert_ne!(draw(&[]), draw(&[]), "a fresh seed each run");
    let goal = Board::FIFTEEN.standard_goal();
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 200);
    for line in &lines {
        let layout = parse_layout(Board::FIFTEEN, line.as_bytes()).unwrap();
        assert!(layout.can_reach(&goal), "{line}");
    }
    // Both parity classes of blank rows, and the blank in every cell over 200 draws.
    let blanks: std::collections::HashSet<usize> = lines
        .iter()
        .map(|l| l.split(' ').position(|t| t == "0").unwrap())
        .collect();
    assert_eq!(blanks.len(), 16, "{first}");
    // --distinct on the same seed: the same draws while none repeats (none does here).
    assert_eq!(first, draw(&["--seed", "7", "--distinct"]));
    // Another goal: every puzzle reaches it (half of all layouts do not).
    let other = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0";
    let odd = parse_layout(Board::FIFTEEN, other.as_bytes()).unwrap();
    assert!(!odd.can_reach(&goal));
    for line in draw(&["--seed", "7", "--goal", other]).lines() {
        let layout = parse_layout(Board::FIFTEEN, line.as_bytes()).unwrap();
        assert!(layout.can_reach(&odd), "{line}");
    }
    // JSON and CSV carry the same puzzles.
    let json = draw(&["--seed", "7", "--json"]);
    let csv = draw(&["--seed", "7", "--csv"]);
    assert_eq!(csv, format!("puzzle\n{first}"));
    let first_json: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let tiles: Vec<String> = first_json["puzzle"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.to_string())
        .collect();
    assert_eq!(tiles.join(" "), lines[0]);
    assert_eq!(first_json["solvable"], true);
    // The sheet: both puzzles numbered, side by side.
    let sheet = Run::of(sandboxed(dir.path()).args([
        "random", "--board", "4x4", "--count", "2", "--seed", "7", "--show",
    ]))
    .ok()
    .stdout;
    assert!(sheet.starts_with("1 "), "{sheet}");
    assert!(sheet.lines().next().unwrap().ends_with('2'), "{sheet}");
    assert_eq!(sheet.lines().count(), 6, "{sheet}");
    // A 2x7 board (14 cells: its table cannot draw at a distance) draws too, without one.
    let r = Run::of(sandboxed(dir.path()).args(["random", "--board", "2x7", "--seed", "1"])).ok();
    let layout = parse_layout(Board::new(2, 7).unwrap(), r.stdout.trim().as_bytes()).unwrap();
    assert!(layout.can_reach(&Board::new(2, 7).unwrap().standard_goal()));
    // --depth needs a table: refused, saying why and what works.
    let refused =
        Run::of(sandboxed(dir.path()).args(["random", "--board", "4x4", "--depth", "20"]));
    assert_eq!(refused.code, Some(USAGE), "{refused:#?}");
    assert!(
        refused.stderr.contains("--depth: a 4x4 board has 16 cells")
            && refused
                .stderr
                .contains("tables of every state go up to 14 cells")
            && refused.stderr.contains("Without --depth")
            && refused.stderr.contains("`slidetable distance --board 4x4`"),
        "{}",
        refused.stderr
    );
    // On a board with a table, --depth is still needed.
    let r = Run::of(sandboxed(dir.path()).args(["random", "--board", "3x3"]));
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
    assert!(r.stderr.contains("--depth is needed"), "{}", r.stderr);
    // 2x7 with --depth reads its table, which first use does not make.
    let r = Run::of(sandboxed(dir.path()).args(["random", "--board", "2x7", "--depth", "5"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr
            .contains("make it once with `slidetable generate --board 2x7`"),
        "{}",
        r.stderr
    );
    assert!(
        !dir.path().join("cache/slidetable/2x7.slt").exists(),
        "no table made"
    );
}

/// With no 4x4 database in the cache, the first use builds the 6-6-3 databases (seconds)
/// beside where the 7-8 goes, with a note on how to make the faster 7-8; a database at the
/// cache's `4x4.slt` (what `generate --board 4x4` writes) is used whenever it is there.
#[test]
fn the_first_4x4_use_builds_the_6_6_3_databases_and_a_cached_4x4_slt_is_preferred() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = "5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15\n";
    let first = Run::of(
        sandboxed(dir.path())
            .args(["distance", "--board", "4x4"])
            .write_stdin(puzzle),
    )
    .success();
    assert_eq!(first.stdout, "28\n");
    let cache = dir.path().join("cache/slidetable");
    assert!(
        first.stderr.contains("generating the 6-6-3 databases once")
            && first.stderr.contains("slidetable generate --board 4x4")
            && first.stderr.contains("15x faster"),
        "{}",
        first.stderr
    );
    assert!(cache.join("4x4-663.slt").is_file());
    assert!(!cache.join("4x4.slt").exists());
    let info = Run::of(sandboxed(dir.path()).args(["info", "--board", "4x4", "--json"])).ok();
    assert!(
        info.stdout.contains("\"partition\":\"6-6-3\""),
        "{}",
        info.stdout
    );
    // Again: no note, the same file.
    let again = Run::of(
        sandboxed(dir.path())
            .args(["judge", "uva10181"])
            .write_stdin("1\n5 1 4 6\n10 3 2 8\n14 11 13 12\n9 0 7 15\n"),
    )
    .ok();
    assert_eq!(again.stderr, "");
    assert_eq!(again.stdout.trim().len(), 28);
    // A database at 4x4.slt is preferred.
    std::fs::copy(generated_4x4_555().path.as_path(), cache.join("4x4.slt")).unwrap();
    let info = Run::of(sandboxed(dir.path()).args(["info", "--board", "4x4", "--json"])).ok();
    assert!(
        info.stdout.contains("\"partition\":\"5-5-5\""),
        "{}",
        info.stdout
    );
}

/// Partitions with one tile or none outside a group (M12): each is generated, verified, and
/// answers every puzzle of a batch as the table does (they were refused: "histogram adds up
/// to 131040, not 181440 placements").
#[test]
fn groups_that_leave_one_tile_or_none_make_databases() {
    let dir = tempfile::TempDir::new().unwrap();
    for (board, partition) in [
        ("3x3", "7-1"),
        ("3x3", "8"),
        ("2x3", "5"),
        ("2x3", "4-1"),
        ("2x2", "3"),
        ("2x2", "1-2"),
        ("2x4", "7"),
    ] {
        let b: Board = board.parse().unwrap();
        let db = dir.path().join(format!("{board}-{partition}.slt"));
        let goal = b.standard_goal().to_string();
        common::generate_into(
            dir.path(),
            board,
            &["--pdb", partition, "--goal", &goal],
            &db,
        );
        let table = dir.path().join(format!("{board}.slt"));
        if !table.exists() {
            common::generate_into(dir.path(), board, &[], &table);
        }
        let verify = Run::of(slidetable().args(["info", "--verify"]).arg(&db));
        assert_eq!(verify.code, Some(0), "{board} {partition}: {verify:#?}");
        // Every state a few moves from the goal and some far ones, by walks.
        let puzzles: String = (0..200u64)
            .map(|s| format!("{}\n", walk(b.standard_goal(), (s % 40) as usize, s)))
            .collect();
        let from_db = query_table(&db, "distance", &["--board", board], &puzzles);
        let from_table = query_table(&table, "distance", &["--board", board], &puzzles);
        assert_eq!(from_db.code, Some(0), "{board} {partition}: {from_db:#?}");
        assert_eq!(from_db.stdout, from_table.stdout, "{board} {partition}");
    }
}
