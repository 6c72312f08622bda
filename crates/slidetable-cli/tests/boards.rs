//! Boards other than 3×3 from the command line: `generate --board/--goal/--all-goals/
//! --encoding/--cost`, the board taken from a table file or chosen with `--board` (the cache's
//! table generated on first use), and `info` naming the encoding and the cost model.

use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

mod common;
use common::{sandboxed, Run};

fn slidetable(dir: &Path) -> Command {
    sandboxed(dir)
}

fn generate(dir: &Path, args: &[&str]) -> Run {
    Run::of(slidetable(dir).arg("generate").args(args))
}

fn query(dir: &Path, command: &str, args: &[&str], input: &str) -> Run {
    Run::of(
        slidetable(dir)
            .arg(command)
            .args(args)
            .write_stdin(input.to_string()),
    )
}

/// Three 2×3 puzzles: 5 moves, solved, and the other parity class.
const PUZZLES_2X3: &str = "4 1 2 5 0 3\n1 2 3 4 5 0\n2 1 3 4 5 0\n";

#[test]
fn a_two_by_three_table_answers_in_both_encodings() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate(d, &["--board", "2x3", "-o", "byte.slt"]).ok();
    generate(
        d,
        &["--board", "2x3", "--encoding", "2bit", "-o", "bits.slt"],
    )
    .ok();
    for (file, encoding) in [("byte.slt", "byte"), ("bits.slt", "2bit")] {
        let info = query(d, "info", &[file], "").ok();
        assert!(info.stdout.contains("board     2x3\n"), "{}", info.stdout);
        assert!(
            info.stdout
                .lines()
                .any(|l| l.starts_with(&format!("encoding  {encoding} ("))),
            "{}",
            info.stdout
        );
        assert!(info.stdout.contains("sections  6\n"));
        let run = query(d, "distance", &["--table", file], PUZZLES_2X3).ok();
        assert_eq!(run.stdout, "5\n0\n-1\n");
        let run = query(d, "path", &["--table", file], PUZZLES_2X3).ok();
        let lines = run.lines();
        assert_eq!(lines[0].len(), 5);
        assert_eq!(&lines[1..], ["", "unsolvable"]);
    }
    let json = query(d, "info", &["bits.slt", "--json"], "").ok();
    assert!(
        json.stdout.contains(r#""encoding":"2bit""#),
        "{}",
        json.stdout
    );
    // 2 bits per state: 6 sections of 360 states take 540 bytes of payload.
    let (byte, bits) = (
        std::fs::metadata(d.join("byte.slt")).unwrap().len(),
        std::fs::metadata(d.join("bits.slt")).unwrap().len(),
    );
    assert_eq!(byte - bits, 6 * 360 - 6 * 90);
}

#[test]
fn board_selects_the_cache_table_and_generates_it_once() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let first = query(d, "distance", &["--board", "2x3"], PUZZLES_2X3).success();
    assert_eq!(first.stdout, "5\n0\n-1\n");
    assert!(
        first.stderr.contains("no table at")
            && first
                .stderr
                .contains("slidetable/2x3.slt; generating it once"),
        "{}",
        first.stderr
    );
    assert!(d.join("cache/slidetable/2x3.slt").exists());
    let again = query(d, "distance", &["--board", "2x3"], PUZZLES_2X3).ok();
    assert_eq!(again.stdout, "5\n0\n-1\n");
    let info = query(d, "info", &["--board", "2x3"], "").ok();
    assert!(info.stdout.contains("board     2x3\n"));
    // A named table decides the board; a --board that disagrees is refused.
    let clash = query(
        d,
        "distance",
        &["--table", "cache/slidetable/2x3.slt", "--board", "3x3"],
        "",
    );
    assert_eq!(clash.code, Some(1), "{clash:#?}");
    assert!(clash
        .stderr
        .contains("is for 2x3 boards, but 3x3 is needed"));
}

#[test]
fn goals_and_all_goals_choose_the_sections() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate(
        d,
        &[
            "--board",
            "2x3",
            "--goal",
            "1 2 3 0 4 5",
            "--goal",
            "5,4,3,2,1,0",
            "-o",
            "two.slt",
        ],
    )
    .ok();
    let info = query(d, "info", &["two.slt"], "").ok();
    assert!(info.stdout.contains("sections  2\n"));
    assert!(info.stdout.contains("section 0: goal 1 2 3 0 4 5\n"));
    assert!(info.stdout.contains("section 1: goal 5 4 3 2 1 0\n"));
    let run = query(
        d,
        "distance",
        &["--table", "two.slt", "--goal", "5 4 3 2 1 0"],
        "5 4 3 2 0 1\n",
    )
    .ok();
    assert_eq!(run.stdout, "1\n");
    let one = generate(
        d,
        &["--board", "2x3", "--goal", "1 2 3 4 5 0", "-o", "one.slt"],
    )
    .ok();
    assert_eq!(
        one.lines()[1],
        "board 2x3: 1 section x 360 states, 664 bytes"
    );
    generate(d, &["--board", "2x2", "--all-goals", "-o", "all.slt"]).ok();
    let info = query(d, "info", &["all.slt"], "").ok();
    assert!(info.stdout.contains("sections  4\n"));
    let bad = generate(d, &["--board", "2x3", "--goal", "1 2 3", "-o", "x.slt"]);
    assert_eq!(bad.code, Some(2));
    assert!(bad
        .stderr
        .contains("--goal '1 2 3': expected 6 tiles, found 3"));
}

#[test]
fn tile_costs_give_cheapest_costs_and_paths() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate(d, &["--board", "2x3", "--cost", "tile", "-o", "tile.slt"]).ok();
    let info = query(d, "info", &["tile.slt"], "").ok();
    assert!(
        info.stdout
            .contains("cost      tile (moving tile k costs k)\n"),
        "{}",
        info.stdout
    );
    // One slide of tile 5: nothing is cheaper than the one move that solves it.
    let run = query(d, "distance", &["--table", "tile.slt"], "1 2 3 4 0 5\n").ok();
    assert_eq!(run.stdout, "5\n");
    let run = query(d, "path", &["--table", "tile.slt"], "1 2 3 4 0 5\n").ok();
    assert_eq!(run.stdout, "r\n");
    // The judges count moves: a weighted table is refused, not misread.
    let judge = query(
        d,
        "judge",
        &["leetcode773", "--table", "tile.slt"],
        "[[4,1,2],[5,0,3]]\n",
    );
    assert_eq!(judge.code, Some(1), "{judge:#?}");
    assert!(judge
        .stderr
        .contains("holds tile costs, but the judges count moves"));
    for (args, what) in [
        (
            vec!["--cost", "tile"],
            "a --cost tile table is not a default table",
        ),
        (
            vec!["--cost", "tile", "--encoding", "2bit", "-o", "x.slt"],
            "the 2bit encoding holds distances mod 3",
        ),
        (
            vec!["--cost", "tile", "--board", "3x4", "-o", "x.slt"],
            "tile costs go up to 10 cells",
        ),
        (vec!["--board", "3x5"], "tables go up to 12 cells"),
        (vec!["--encoding", "4bit"], "unknown encoding '4bit'"),
    ] {
        let run = generate(d, &args);
        assert_eq!(run.code, Some(2), "{args:?}: {run:#?}");
        assert!(run.stderr.contains(what), "{args:?}: {}", run.stderr);
    }
}
