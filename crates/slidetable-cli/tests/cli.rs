//! The `slidetable` binary run as people and scripts run it: real files, real pipes, exact
//! output. The 3×3 table is generated once per test binary and shared; every command runs with
//! `$SLIDETABLE_TABLE` removed and `$XDG_CACHE_HOME`/`$HOME` pointing into a scratch directory,
//! so no test can read or write the real cache.

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::sync::OnceLock;

use assert_cmd::Command;

mod common;
use common::{sandboxed, scratch_dir, text, Run};
use serde_json::Value;
use slidetable_core::{parse_layout, parse_path, Board, Layout, Move};
use slidetable_testkit::swapped;
use tempfile::TempDir;

/// States at each distance from the standard goal (OEIS A089473): 31 moves at most, 2 states.
const STANDARD_HISTOGRAM: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];
const STATES: u64 = 181_440;
const BAD_INPUT: i32 = 65;

/// The table every test shares, and what `generate` printed when it wrote it.
struct Shared {
    /// Scratch space: the table, and the cache and home directories commands are given.
    dir: PathBuf,
    table: PathBuf,
    generate_stdout: String,
    generate_stderr: String,
}

/// Generates the table on first use. It lives at a fixed path under Cargo's scratch directory
/// for integration tests (`target/tmp`) and is rewritten on every run, so no run leaves a stale
/// table or a new temporary directory behind; `generate` replaces the file by renaming, which
/// keeps concurrent runs safe.
fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = scratch_dir("cli");
        let table = dir.join("3x3.slt");
        let out = sandboxed(&dir)
            .args(["generate", "-o"])
            .arg(&table)
            .output()
            .unwrap();
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "generate failed: {stdout}{stderr}");
        Shared {
            dir,
            table,
            generate_stdout: stdout,
            generate_stderr: stderr,
        }
    })
}

fn table() -> &'static Path {
    &shared().table
}

fn slidetable() -> Command {
    sandboxed(&shared().dir)
}

/// `slidetable <command> --table TABLE [args]` reading `input` on standard input.
fn query(command: &str, args: &[&str], input: impl Into<Vec<u8>>) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table())
            .args(args)
            .write_stdin(input),
    )
}

/// Checks that `path` is legal from `puzzle` and ends on the standard goal.
fn assert_solves(puzzle: &str, path: &str) {
    let start = parse_layout(Board::EIGHT, puzzle.as_bytes()).unwrap();
    let moves = parse_path(path).unwrap_or_else(|| panic!("{puzzle}: '{path}' is not a path"));
    assert!(
        path.bytes().all(|b| b"udlr".contains(&b)),
        "{puzzle}: '{path}' has letters other than u d l r"
    );
    assert_eq!(
        start.after(&moves),
        Some(Board::EIGHT.standard_goal()),
        "{puzzle}: '{path}' does not reach the goal"
    );
}

/// Puzzles reached by `len` random moves from the goal (a fixed generator: the same every run).
fn scrambles(count: usize) -> Vec<(Layout, usize)> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    (0..count)
        .map(|i| {
            let len = i % 60;
            let mut layout = Board::EIGHT.standard_goal();
            for _ in 0..len {
                let moves: Vec<Move> = layout.moves().collect();
                layout = layout.moved(moves[next() % moves.len()]).unwrap();
            }
            (layout, len)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// generate and info

#[test]
fn generate_names_the_file_the_states_and_the_time() {
    let s = shared();
    let lines: Vec<&str> = s.generate_stdout.lines().collect();
    let size = fs::metadata(&s.table).unwrap().len();
    assert_eq!(lines.len(), 3, "{}", s.generate_stdout);
    assert_eq!(lines[0], format!("wrote {}", s.table.display()));
    assert_eq!(
        lines[1],
        format!("board 3x3: 9 sections x {STATES} states, {size} bytes")
    );
    let ms = lines[2]
        .strip_prefix("took ")
        .and_then(|t| t.strip_suffix(" ms"))
        .unwrap_or_else(|| panic!("no time in {:?}", lines[2]));
    assert!(ms.parse::<f64>().is_ok_and(|t| t >= 0.0), "{ms}");
    assert_eq!(s.generate_stderr, "");
}

#[test]
fn info_describes_board_sections_and_histograms() {
    let run = Run::of(slidetable().arg("info").arg(table())).success();
    let size = fs::metadata(table()).unwrap().len();
    for line in [
        format!("table     {}", table().display()),
        "board     3x3".to_string(),
        format!("size      {size} bytes"),
        "checksum  not checked (use --verify)".to_string(),
        "sections  9".to_string(),
    ] {
        assert!(
            run.stdout.lines().any(|l| l == line),
            "no {line:?} in\n{}",
            run.stdout
        );
    }
    // Each section is a paragraph; find the standard goal's.
    let standard = run
        .stdout
        .split("\n\n")
        .find(|p| {
            p.lines()
                .next()
                .is_some_and(|l| l.ends_with("goal 1 2 3 4 5 6 7 8 0"))
        })
        .unwrap_or_else(|| panic!("no section for the standard goal in\n{}", run.stdout));
    let histogram = STANDARD_HISTOGRAM.map(|n| n.to_string()).join(" ");
    assert_eq!(
        standard.lines().skip(1).collect::<Vec<_>>(),
        [
            format!("  entries       {STATES}"),
            "  max distance  31 (2 states)".to_string(),
            format!("  histogram     {histogram}"),
        ]
    );
    assert_eq!(run.stdout.matches("\nsection ").count(), 9);
    assert_eq!(run.stderr, "");
}

fn info_json(args: &[&str], path: &Path) -> (Run, Value) {
    let run = Run::of(slidetable().arg("info").args(args).arg(path));
    assert_eq!(
        run.stdout.lines().count(),
        1,
        "one object on one line: {run:#?}"
    );
    let json: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout));
    (run, json)
}

#[test]
fn info_json_is_one_object_with_every_section() {
    let (run, json) = info_json(&["--json"], table());
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(json["board"], "3x3");
    assert_eq!(json["checksum_ok"], Value::Null);
    let sections = json["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 9);
    let mut goals = Vec::new();
    for s in sections {
        assert_eq!(s["entries"], STATES, "{s}");
        let histogram: Vec<u64> = s["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(histogram.iter().sum::<u64>(), STATES, "{s}");
        assert_eq!(
            histogram.len() as u64,
            s["max_distance"].as_u64().unwrap() + 1
        );
        assert_eq!(histogram[0], 1, "one goal per section");
        assert_ne!(*histogram.last().unwrap(), 0, "{s}");
        let goal: Vec<u8> = s["goal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as u8)
            .collect();
        Layout::new(Board::EIGHT, &goal).unwrap();
        if goal == [1, 2, 3, 4, 5, 6, 7, 8, 0] {
            assert_eq!(s["max_distance"], 31);
            assert_eq!(histogram, STANDARD_HISTOGRAM);
        }
        goals.push(goal);
    }
    goals.sort();
    goals.dedup();
    assert_eq!(goals.len(), 9, "sections have distinct goals");
    assert!(goals.contains(&vec![1, 2, 3, 4, 5, 6, 7, 8, 0]));
}

#[test]
fn info_verify_accepts_a_sound_table() {
    let (run, json) = info_json(&["--verify", "--json"], table());
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(json["checksum_ok"], true);
    let run = Run::of(slidetable().args(["info", "--verify"]).arg(table())).success();
    assert!(
        run.stdout.lines().any(|l| l == "checksum  ok"),
        "{}",
        run.stdout
    );
}

/// A copy of the table in `dir` with the byte at `offset` (from the end if negative) flipped.
fn corrupt_copy(dir: &Path, name: &str, offset: i64) -> PathBuf {
    let mut bytes = fs::read(table()).unwrap();
    let at = if offset < 0 {
        bytes.len() - offset.unsigned_abs() as usize
    } else {
        offset as usize
    };
    bytes[at] ^= 0x5a;
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn info_verify_refuses_a_corrupt_payload() {
    let dir = TempDir::new().unwrap();
    let bad = corrupt_copy(dir.path(), "payload.slt", -10);
    let name = bad.display().to_string();

    let run = Run::of(slidetable().args(["info", "--verify"]).arg(&bad));
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stdout.contains("checksum  FAILED"), "{}", run.stdout);
    assert!(run.stderr.contains("checksum"), "{}", run.stderr);
    assert!(run.stderr.contains(&name), "{}", run.stderr);

    let (run, json) = info_json(&["--verify", "--json"], &bad);
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert_eq!(json["checksum_ok"], false);
    assert!(run.stderr.contains("checksum"), "{}", run.stderr);

    // Without --verify only the header is checked, and it is sound.
    Run::of(slidetable().arg("info").arg(&bad)).success();
}

#[test]
fn a_corrupt_payload_never_panics_or_hangs_a_query() {
    let dir = TempDir::new().unwrap();
    let mut bytes = fs::read(table()).unwrap();
    let len = bytes.len();
    for b in bytes[len / 10..].iter_mut().step_by(7) {
        *b ^= 0xfc; // the distance bits
    }
    let bad = dir.path().join("payload.slt");
    fs::write(&bad, bytes).unwrap();
    let input: String = scrambles(120)
        .iter()
        .map(|(l, _)| format!("{l}\n"))
        .collect();
    for command in ["distance", "path"] {
        // Queries read single entries and do not check the payload checksum, so answers may be
        // wrong; what matters is a clean ending.
        let run = Run::of(
            slidetable()
                .args([command, "--keep-going", "--table"])
                .arg(&bad)
                .write_stdin(input.as_str())
                .timeout(std::time::Duration::from_secs(60)),
        );
        assert!(matches!(run.code, Some(0 | 1)), "{command}: {run:#?}");
        if run.code == Some(1) {
            assert!(run.stderr.contains("corrupt"), "{command}: {}", run.stderr);
        }
    }
    let run = Run::of(slidetable().args(["info", "--verify"]).arg(&bad));
    assert_eq!(run.code, Some(1), "{run:#?}");
}

#[test]
fn a_corrupt_header_is_refused_naming_the_file() {
    let dir = TempDir::new().unwrap();
    // Bytes of the fixed header and of the section descriptors that follow it.
    for offset in [
        0, 7, 8, 10, 11, 12, 13, 14, 16, 20, 24, 32, 40, 63, 64, 80, 100, 300, 639,
    ] {
        let bad = corrupt_copy(dir.path(), "header.slt", offset);
        let name = bad.display().to_string();
        for args in [&["info"][..], &["info", "--verify", "--json"]] {
            let run = Run::of(slidetable().args(args).arg(&bad));
            assert_eq!(run.code, Some(1), "byte {offset}, {args:?}: {run:#?}");
            assert!(run.stderr.contains(&name), "byte {offset}: {}", run.stderr);
        }
        let run = Run::of(
            slidetable()
                .args(["distance", "--table"])
                .arg(&bad)
                .write_stdin("1 2 3 4 5 6 7 8 0\n"),
        );
        assert_eq!(run.code, Some(1), "byte {offset}: {run:#?}");
        assert_eq!(run.stdout, "");
        assert!(run.stderr.contains(&name), "byte {offset}: {}", run.stderr);
    }
}

// ---------------------------------------------------------------------------------------------
// distance and path

#[test]
fn distance_answers_known_puzzles() {
    let input = "2 3 4 1 5 x 7 6 8\n\
                 8 6 7 2 5 4 3 0 1\n\
                 6 4 7 8 5 0 3 2 1\n\
                 1 2 3 4 5 6 7 8 0\n\
                 2 1 3 4 5 6 7 8 0\n\
                 23415x768\n";
    let run = query("distance", &[], input).success();
    assert_eq!(run.stdout, "19\n31\n31\n0\n-1\n19\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn distance_reads_every_spelling_and_skips_blank_and_comment_lines() {
    let input = "# a comment\n\
                 \n\
                 2,3,4,1,5,x,7,6,8\n\
                 2, 3, 4, 1, 5, 0, 7, 6, 8\r\n\
                 \r\n\
                 \t2\t3 4 1 5 X 7 6 8  \n\
                 # 31 moves\r\n\
                 867254301\r\n\
                 23415X768\n\
                 \x20\x20\n\
                 123456780"; // no line end at the end of the input
    let run = query("distance", &[], input).success();
    assert_eq!(run.stdout, "19\n19\n19\n31\n19\n0\n");
    assert_eq!(run.stderr, "");

    // Nothing but comments: no output at all.
    let run = query("distance", &[], "# nothing\n\n#\n").success();
    assert_eq!(run.stdout, "");
    let run = query("path", &[], "").success();
    assert_eq!(run.stdout, "");
}

#[test]
fn paths_are_legal_optimal_and_aligned_with_distances() {
    let mut puzzles: Vec<String> = [
        "2 3 4 1 5 x 7 6 8",
        "8 6 7 2 5 4 3 0 1",
        "6 4 7 8 5 0 3 2 1",
        "1 2 3 4 5 6 7 8 0",
        "1 2 3 4 5 6 7 0 8",
        "2 1 3 4 5 6 7 8 0",
    ]
    .map(String::from)
    .to_vec();
    let scrambled = scrambles(240);
    for (layout, _) in &scrambled {
        puzzles.push(layout.to_string());
        puzzles.push(swapped(layout).to_string());
    }
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();

    let distances = query("distance", &[], input.as_str()).success();
    let distances: Vec<i64> = distances
        .stdout
        .lines()
        .map(|d| d.parse().unwrap())
        .collect();
    let paths = query("path", &[], input.as_str()).success();
    assert_eq!(paths.stderr, "");
    // `lines()` would drop nothing here, but an empty answer must still be a line of its own.
    assert!(paths.stdout.ends_with('\n'));
    let paths: Vec<&str> = paths.stdout.split_terminator('\n').collect();
    assert_eq!(distances.len(), puzzles.len());
    assert_eq!(paths.len(), puzzles.len());

    assert_eq!(distances[..6], [19, 31, 31, 0, 1, -1]);
    assert_eq!(paths[3], "", "a solved puzzle has an empty path");
    assert_eq!(paths[4], "r");
    assert_eq!(paths[5], "unsolvable");
    for ((puzzle, &distance), &path) in puzzles.iter().zip(&distances).zip(&paths) {
        if distance < 0 {
            assert_eq!(path, "unsolvable", "{puzzle}");
        } else {
            assert_eq!(path.len() as i64, distance, "{puzzle}: {path}");
            assert_solves(puzzle, path);
        }
    }
    // A puzzle `len` random moves from the goal is at most `len` moves away, with its parity;
    // the same tiles with two swapped are unreachable.
    for (i, (layout, len)) in scrambled.iter().enumerate() {
        let (d, unreachable) = (distances[6 + 2 * i], distances[7 + 2 * i]);
        assert!(d >= 0 && d <= *len as i64, "{layout}: {d} > {len}");
        assert_eq!(d % 2, *len as i64 % 2, "{layout}: {d} vs {len}");
        assert_eq!(unreachable, -1, "{}", swapped(layout));
    }
}

#[test]
fn standard_input_a_file_and_dash_give_the_same_answers() {
    let dir = TempDir::new().unwrap();
    let input =
        "# sample\n2 3 4 1 5 x 7 6 8\n\n8,6,7,2,5,4,3,0,1\r\n123456780\n2 1 3 4 5 6 7 8 0\n";
    let file = dir.path().join("puzzles.txt");
    fs::write(&file, input).unwrap();
    for command in ["distance", "path"] {
        let from_stdin = query(command, &[], input).success();
        let from_dash = query(command, &["-"], input).success();
        let from_file = Run::of(
            slidetable()
                .arg(command)
                .arg("--table")
                .arg(table())
                .arg(&file),
        )
        .success();
        assert_eq!(from_stdin.stdout.lines().count(), 4, "{from_stdin:#?}");
        assert_eq!(from_dash.stdout, from_stdin.stdout, "{command}");
        assert_eq!(from_file.stdout, from_stdin.stdout, "{command}");
        assert_eq!(from_file.stderr, "");
    }
}

// ---------------------------------------------------------------------------------------------
// Bad lines

/// The line limit, in bytes, without the line end.
const MAX_LINE: usize = 65_536;

/// A solved puzzle padded with spaces to `len` bytes: valid but for its length.
fn padded_line(len: usize) -> Vec<u8> {
    let mut line = b"1 2 3 4 5 6 7 8 0".to_vec();
    line.resize(len, b' ');
    line
}

/// Each kind of bad line, and words its report must hold.
fn bad_lines() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    vec![
        (
            "too few tiles",
            b"1 2 3 4 5 6 7 8".to_vec(),
            "expected 9 tiles, found 8",
        ),
        (
            "too many tiles",
            b"1 2 3 4 5 6 7 8 0 1".to_vec(),
            "expected 9 tiles, found 10",
        ),
        (
            "short string",
            b"12345678".to_vec(),
            "expected 9 tiles, found 8",
        ),
        (
            "repeated tile",
            b"1 2 3 4 5 6 7 8 8".to_vec(),
            "tile 8 appears twice",
        ),
        (
            "two blanks",
            b"1 2 3 4 5 6 7 x 0".to_vec(),
            "tile 0 appears twice",
        ),
        (
            "unknown tile",
            b"1 2 3 4 5 6 7 a 0".to_vec(),
            "unknown tile 'a'",
        ),
        (
            "unknown in a string",
            b"1234a6780".to_vec(),
            "unknown tile 'a'",
        ),
        (
            "out of range",
            b"1 2 3 4 5 6 7 9 0".to_vec(),
            "tile 9 is not on a 3x3 board",
        ),
        (
            "NUL byte",
            b"1 2 3 4 5 6 7 \0 0".to_vec(),
            "unknown tile '\\x00'",
        ),
        (
            "NUL in a string",
            b"1234567\x008".to_vec(),
            "unknown tile '\\x00'",
        ),
        (
            "invalid UTF-8",
            b"1 2 3 4 5 6 7 \xff 0".to_vec(),
            "unknown tile '\\xff'",
        ),
        (
            "invalid UTF-8 in a string",
            b"12345678\xff".to_vec(),
            "unknown tile '\\xff'",
        ),
        ("overlong line", padded_line(MAX_LINE + 1), "65537 bytes"),
    ]
}

/// Good lines, a comment and a blank line, then `bad` as line 5, then a good line.
fn around(bad: &[u8]) -> Vec<u8> {
    let mut input = b"1 2 3 4 5 6 7 8 0\n# comment\n\n2 3 4 1 5 x 7 6 8\n".to_vec();
    input.extend_from_slice(bad);
    input.extend_from_slice(b"\n8 6 7 2 5 4 3 0 1\n");
    input
}

#[test]
fn a_bad_line_stops_the_run_after_the_earlier_answers() {
    for (kind, bad, words) in bad_lines() {
        for command in ["distance", "path"] {
            let run = query(command, &[], around(&bad));
            assert_eq!(run.code, Some(BAD_INPUT), "{kind}: {run:#?}");
            // The answers to lines 1 and 4, nothing for line 6.
            let lines: Vec<&str> = run.stdout.split_terminator('\n').collect();
            assert_eq!(lines.len(), 2, "{kind}: {run:#?}");
            if command == "distance" {
                assert_eq!(lines, ["0", "19"], "{kind}");
            } else {
                assert_eq!(lines[0], "", "{kind}");
                assert_solves("2 3 4 1 5 x 7 6 8", lines[1]);
            }
            assert_eq!(run.stderr.lines().count(), 1, "{kind}: {run:#?}");
            assert!(run.stderr.contains("line 5: "), "{kind}: {}", run.stderr);
            assert!(run.stderr.contains(words), "{kind}: {}", run.stderr);
        }
    }
}

#[test]
fn a_bad_first_line_prints_nothing_and_a_file_is_named() {
    let run = query("distance", &[], "1 2 3\n1 2 3 4 5 6 7 8 0\n");
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("line 1: "), "{}", run.stderr);

    let dir = TempDir::new().unwrap();
    let file = dir.path().join("puzzles.txt");
    fs::write(&file, "1 2 3 4 5 6 7 8 0\r\n1 2 3 4 5 6 7 8 9\r\n").unwrap();
    let run = Run::of(
        slidetable()
            .args(["distance", "--table"])
            .arg(table())
            .arg(&file),
    );
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, "0\n");
    assert!(
        run.stderr
            .contains(&format!("{}: line 2: ", file.display())),
        "{}",
        run.stderr
    );
}

#[test]
fn keep_going_answers_invalid_in_place_and_reports_every_bad_line() {
    let kinds = bad_lines();
    let mut input = b"# every kind of bad line between good ones\n".to_vec();
    let mut want = Vec::new();
    let mut bad_numbers = Vec::new();
    let mut number = 1;
    for (i, (_, bad, _)) in kinds.iter().enumerate() {
        let good = if i % 2 == 0 {
            "2 3 4 1 5 x 7 6 8"
        } else {
            "123456780"
        };
        input.extend_from_slice(good.as_bytes());
        input.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
        input.extend_from_slice(bad);
        input.push(b'\n');
        want.push(Some(good));
        want.push(None);
        bad_numbers.push(number + 2);
        number += 2;
    }
    input.extend_from_slice(b"\n8 6 7 2 5 4 3 0 1");

    let run = query("distance", &["--keep-going"], input.as_slice());
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    let mut expected: String = want
        .iter()
        .map(|good| match good {
            Some("123456780") => "0\n",
            Some(_) => "19\n",
            None => "invalid\n",
        })
        .collect();
    expected.push_str("31\n");
    assert_eq!(run.stdout, expected);
    for (n, (kind, _, words)) in bad_numbers.iter().zip(&kinds) {
        let report = run
            .stderr
            .lines()
            .find(|l| l.contains(&format!("line {n}: ")))
            .unwrap_or_else(|| panic!("{kind}: line {n} not reported in\n{}", run.stderr));
        assert!(report.contains(words), "{kind}: {report}");
    }
    let reports = run.stderr.lines().filter(|l| l.contains(": line ")).count();
    assert_eq!(reports, kinds.len(), "{}", run.stderr);

    let run = query("path", &["--keep-going"], input.as_slice());
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    let paths: Vec<&str> = run.stdout.split_terminator('\n').collect();
    assert_eq!(paths.len(), want.len() + 1, "{run:#?}");
    for (good, path) in want.iter().zip(&paths) {
        match good {
            Some(puzzle) => assert_solves(puzzle, path),
            None => assert_eq!(*path, "invalid"),
        }
    }
    assert_eq!(paths.last().unwrap().len(), 31);
    assert_eq!(
        run.stderr.lines().filter(|l| l.contains(": line ")).count(),
        kinds.len()
    );
}

#[test]
fn the_line_limit_is_65536_bytes() {
    let mut input = padded_line(MAX_LINE);
    input.push(b'\n');
    input.extend_from_slice(&padded_line(MAX_LINE + 1));
    input.extend_from_slice(b"\n23415x768\n");
    let run = query("distance", &["--keep-going"], input);
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, "0\ninvalid\n19\n");
    assert!(run.stderr.contains("line 2: "), "{}", run.stderr);
    assert!(!run.stderr.contains("line 1: "), "{}", run.stderr);
    assert!(!run.stderr.contains("line 3: "), "{}", run.stderr);
}

#[test]
fn the_line_limit_does_not_count_a_crlf_line_end() {
    let mut input = padded_line(MAX_LINE);
    input.extend_from_slice(b"\r\n");
    let run = query("distance", &[], input);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(run.stdout, "0\n");
}

// ---------------------------------------------------------------------------------------------
// Which table

#[test]
fn the_default_table_is_generated_once_in_the_cache() {
    let dir = TempDir::new().unwrap();
    let cached = dir.path().join("cache/slidetable/3x3.slt");
    let first = Run::of(
        sandboxed(dir.path())
            .arg("distance")
            .write_stdin("23415x768\n"),
    )
    .success();
    assert_eq!(first.stdout, "19\n");
    assert_eq!(first.stderr.lines().count(), 1, "one note: {first:#?}");
    assert!(
        first.stderr.contains(&cached.display().to_string()),
        "{}",
        first.stderr
    );
    assert!(cached.is_file());

    let second = Run::of(
        sandboxed(dir.path())
            .arg("path")
            .write_stdin("1 2 3 4 5 6 7 0 8\n"),
    )
    .success();
    assert_eq!(second.stdout, "r\n");
    assert_eq!(second.stderr, "");
    let info = Run::of(sandboxed(dir.path()).arg("info")).success();
    assert!(info.stdout.contains("board     3x3"), "{}", info.stdout);
    assert!(
        !dir.path().join("home").exists(),
        "the home directory was not touched"
    );
}

#[test]
fn a_relative_xdg_cache_home_is_ignored_for_home_cache() {
    let dir = TempDir::new().unwrap();
    let run = Run::of(
        sandboxed(dir.path())
            .env("XDG_CACHE_HOME", "relative-cache")
            .arg("distance")
            .write_stdin("123456780\n"),
    )
    .success();
    assert_eq!(run.stdout, "0\n");
    assert_eq!(run.stderr.lines().count(), 1, "{run:#?}");
    assert!(dir.path().join("home/.cache/slidetable/3x3.slt").is_file());
    assert!(!dir.path().join("relative-cache").exists());
}

#[test]
fn slidetable_table_names_the_table_and_is_never_generated() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("missing.slt");
    for command in ["distance", "path"] {
        let run = Run::of(
            sandboxed(dir.path())
                .env("SLIDETABLE_TABLE", &missing)
                .arg(command)
                .write_stdin("123456780\n"),
        );
        assert_eq!(run.code, Some(1), "{run:#?}");
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr.contains(&missing.display().to_string()),
            "{}",
            run.stderr
        );
    }
    assert!(!missing.exists());
    assert!(!dir.path().join("cache").exists(), "nothing generated");

    // The variable is used when it names a table ...
    let run = Run::of(
        sandboxed(dir.path())
            .env("SLIDETABLE_TABLE", table())
            .arg("distance")
            .write_stdin("23415x768\n"),
    )
    .success();
    assert_eq!(run.stdout, "19\n");
    assert_eq!(run.stderr, "");
    assert!(!dir.path().join("cache").exists(), "nothing generated");

    // ... and --table wins over it.
    let run = Run::of(
        sandboxed(dir.path())
            .env("SLIDETABLE_TABLE", &missing)
            .args(["distance", "--table"])
            .arg(table())
            .write_stdin("23415x768\n"),
    )
    .success();
    assert_eq!(run.stdout, "19\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn bad_tables_are_refused_naming_the_file() {
    let dir = TempDir::new().unwrap();
    let good = fs::read(table()).unwrap();
    let mut noise = Vec::with_capacity(4096);
    let mut x = 0x9e37_79b9_u32;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise.push(x as u8);
    }
    let mut trailing = good.clone();
    trailing.push(0);
    let files: Vec<(&str, Option<Vec<u8>>, &str)> = vec![
        ("missing.slt", None, ""),
        ("empty.slt", Some(Vec::new()), "0 bytes"),
        ("short.slt", Some(good[..40].to_vec()), "shorter than"),
        (
            "truncated.slt",
            Some(good[..good.len() / 2].to_vec()),
            "truncated",
        ),
        ("trailing.slt", Some(trailing), "trailing bytes"),
        ("noise.slt", Some(noise), "not a slidetable file"),
        (
            "words.txt",
            Some(
                "Not a table, just words on a line.\n"
                    .repeat(20)
                    .into_bytes(),
            ),
            "not a slidetable file",
        ),
    ];
    for (name, bytes, words) in &files {
        let path = dir.path().join(name);
        if let Some(bytes) = bytes {
            fs::write(&path, bytes).unwrap();
        }
        let runs = [
            query_with_table("distance", &path),
            query_with_table("path", &path),
            Run::of(slidetable().arg("info").arg(&path)),
            Run::of(slidetable().args(["info", "--verify", "--json"]).arg(&path)),
        ];
        for run in runs {
            assert_eq!(run.code, Some(1), "{name}: {run:#?}");
            assert_eq!(run.stdout, "", "{name}");
            assert!(
                run.stderr.starts_with("slidetable: "),
                "{name}: {}",
                run.stderr
            );
            assert!(
                run.stderr.contains(&path.display().to_string()),
                "{name}: {}",
                run.stderr
            );
            assert!(run.stderr.contains(words), "{name}: {}", run.stderr);
        }
    }
    // A directory is not a table either.
    let run = query_with_table("distance", dir.path());
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stderr.contains(&dir.path().display().to_string()));
}

fn query_with_table(command: &str, table: &Path) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table)
            .write_stdin("1 2 3 4 5 6 7 8 0\n"),
    )
}

#[test]
fn an_unreadable_input_fails_naming_it() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("nowhere.txt");
    for input in [&missing, &dir.path().to_path_buf()] {
        let run = Run::of(
            slidetable()
                .args(["distance", "--table"])
                .arg(table())
                .arg(input),
        );
        assert_eq!(run.code, Some(1), "{run:#?}");
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr.contains(&input.display().to_string()),
            "{}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Pipes and the command line

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("many.txt");
    fs::write(&file, "8 6 7 2 5 4 3 0 1\n".repeat(200_000)).unwrap();
    for (command, first_len) in [("path", 31), ("distance", 2)] {
        let mut child = StdCommand::new(env!("CARGO_BIN_EXE_slidetable"))
            .env_remove("SLIDETABLE_TABLE")
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .env("HOME", dir.path().join("home"))
            .arg(command)
            .arg("--table")
            .arg(table())
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        drop(reader);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(first.trim_end().len(), first_len, "{command}: {first:?}");
        assert_eq!(status.code(), Some(0), "{command}: {status:?}, {stderr}");
        assert_eq!(stderr, "", "{command}");
    }
}

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
