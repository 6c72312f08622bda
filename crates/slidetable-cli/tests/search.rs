//! `slidetable search`: every method prints paths that are legal, reach the goal and are as
//! short as the table says; unsolvable and bad lines behave as in `path`.

use std::path::PathBuf;
use std::sync::OnceLock;

use assert_cmd::Command;
use slidetable_core::{parse_layout, parse_path, Board};

fn table() -> &'static PathBuf {
    static TABLE: OnceLock<PathBuf> = OnceLock::new();
    TABLE.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("slidetable-search-cli");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("3x3.slt");
        slidetable()
            .args(["generate", "-o"])
            .arg(&path)
            .assert()
            .success();
        path
    })
}

fn slidetable() -> Command {
    let mut cmd = Command::cargo_bin("slidetable").unwrap();
    cmd.env_remove("SLIDETABLE_TABLE")
        .env("XDG_CACHE_HOME", env!("CARGO_TARGET_TMPDIR"));
    cmd
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
            .arg(table())
            .write_stdin(input.clone())
            .assert()
            .success()
            .get_output()
            .stdout,
    );
    for method in ["bfs", "bidir", "dijkstra", "astar", "idastar"] {
        for heuristic in ["manhattan", "linear-conflict", "misplaced"] {
            let out = slidetable()
                .args(["search", "--method", method, "--heuristic", heuristic])
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
        err[0].starts_with("line 1: idastar/manhattan: 19 moves, "),
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
    slidetable()
        .args(["search", "--method", "bfs", "--goal", "1 2"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--goal '1 2': expected 9 tiles, found 2",
        ));
}
