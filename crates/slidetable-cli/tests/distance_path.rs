//! `distance` and `path` run as people and scripts run them: known answers, every spelling of
//! a puzzle, legal and optimal paths aligned with the distances, standard input, a file and
//! `-`, several files in order, other goals against a breadth-first search, `--show` and
//! `--csv`, and bad lines: each kind named with its line, `--keep-going`, the line limit, and a
//! line of another length naming the boards it fits.

use std::fs;

use slidetable::core::{parse_layout, parse_path, Board, Layout};
use slidetable_testkit::swapped;
use tempfile::TempDir;

use crate::common::layouts::{brute_force, distances_of, paths_of, replay, scrambles, Rng, SAMPLE};
use crate::common::{csv, dir, query, slidetable, table_3x3, Run, BAD_INPUT, USAGE};

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

// ---------------------------------------------------------------------------------------------
// Answers

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
                .arg(table_3x3())
                .arg(&file),
        )
        .success();
        assert_eq!(from_stdin.stdout.lines().count(), 4, "{from_stdin:#?}");
        assert_eq!(from_dash.stdout, from_stdin.stdout, "{command}");
        assert_eq!(from_file.stdout, from_stdin.stdout, "{command}");
        assert_eq!(from_file.stderr, "");
    }
}

#[test]
fn distance_and_path_answer_several_files_in_order() {
    let dir = dir();
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::write(&a, "2 3 4 1 5 x 7 6 8\n").unwrap();
    std::fs::write(&b, "1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n").unwrap();
    let r = Run::of(
        slidetable()
            .args(["distance", "--table"])
            .arg(table_3x3())
            .arg(&a)
            .arg("-")
            .arg(&b)
            .write_stdin("8 6 7 2 5 4 3 0 1\n"),
    )
    .ok();
    assert_eq!(r.stdout, "19\n31\n0\n-1\n");
    let r = Run::of(
        slidetable()
            .args(["path", "--table"])
            .arg(table_3x3())
            .arg(&b)
            .arg(&a),
    )
    .ok();
    assert_eq!(r.lines().len(), 3);
    assert_eq!(r.lines()[1], "unsolvable");
    // A bad line names its file.
    std::fs::write(dir.join("bad.txt"), "1 2 3\n").unwrap();
    let r = Run::of(
        slidetable()
            .args(["distance", "--table"])
            .arg(table_3x3())
            .arg(&a)
            .arg(dir.join("bad.txt")),
    );
    assert_eq!(r.code, Some(BAD_INPUT));
    assert_eq!(r.stdout, "19\n");
    assert!(r.stderr.contains("bad.txt: line 1"), "{r:#?}");
}

#[test]
fn distance_help_says_to_the_goal() {
    for command in ["distance", "path"] {
        let help = Run::of(slidetable().args([command, "--help"])).ok().stdout;
        assert!(!help.contains("1 2 3 4 5 6 7 8 0"), "{help}");
        assert!(help.contains("to the goal"), "{help}");
    }
}

#[test]
fn distance_and_path_with_any_goal_match_a_breadth_first_search() {
    let mut rng = Rng(100);
    let board = Board::EIGHT;
    let mut checked = 0;
    for g in 0..18 {
        let goal = rng.layout_with_blank(board, g % 9);
        let dist = brute_force(&goal, u32::MAX);
        assert_eq!(dist.len(), 181_440);
        let mut starts: Vec<Layout> = (0..10).map(|_| rng.layout(board)).collect();
        starts.push(goal);
        starts.push(rng.scramble(&goal, 1));
        starts.push(swapped(&goal));
        let want: Vec<Option<u32>> = starts
            .iter()
            .map(|s| dist.get(&s.packed()).copied())
            .collect();
        assert_eq!(distances_of(&starts, Some(&goal)), want, "goal {goal}");
        for (i, (start, path)) in starts
            .iter()
            .zip(paths_of(&starts, Some(&goal), None))
            .enumerate()
        {
            let case = format!("path {start} --goal {goal}");
            match want[i] {
                None => assert_eq!(path, "unsolvable", "{case}"),
                Some(d) => {
                    assert_eq!(
                        replay(start, &path, "udlr", &case),
                        goal,
                        "{case}: '{path}'"
                    );
                    assert_eq!(path.len() as u32, d, "{case}: '{path}' is not optimal");
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 18 * 13);
}

#[test]
fn goal_spellings_are_all_accepted_and_a_bad_goal_is_a_usage_error() {
    for goal in ["1 2 3 4 5 6 7 8 0", "12345678x", "1,2,3,4,5,6,7,8,X"] {
        let run = query("distance", &["--goal", goal], format!("{SAMPLE}\n")).ok();
        assert_eq!(run.stdout, "19\n", "--goal {goal}");
    }
    let run = query(
        "distance",
        &["--goal", "1 2 3 4 5 6 7 8"],
        "1 2 3 4 5 6 7 8 0\n",
    );
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("--goal"), "{run:#?}");
}

#[test]
fn path_show_draws_every_board() {
    let r = query(
        "path",
        &["--show"],
        "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 0\n",
    )
    .ok();
    let lines = r.lines();
    // Numbered as on the question sheet (`random --show`): the first puzzle is 1.
    assert_eq!(
        lines[0],
        "1. 2 3 4 1 5 0 7 6 8: 19 moves, ullddrurdllurrdlurd"
    );
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
    assert_eq!(lines[12], "2. 2 1 3 4 5 6 7 8 0: unsolvable");
    assert_eq!(query("path", &["--show", "--json"], "").code, Some(USAGE));
}

#[test]
fn distance_and_path_csv() {
    let input = "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 0\n";
    let (header, rows) = csv(&query("distance", &["--csv"], input).ok());
    assert_eq!(header, ["puzzle", "distance", "solvable"]);
    assert_eq!(
        rows,
        [
            ["2 3 4 1 5 0 7 6 8", "19", "true"],
            ["2 1 3 4 5 6 7 8 0", "", "false"],
            ["1 2 3 4 5 6 7 8 0", "0", "true"],
        ]
    );
    let (header, rows) = csv(&query("path", &["--csv"], input).ok());
    assert_eq!(header, ["puzzle", "distance", "path", "solvable"]);
    assert_eq!(rows[0][1], "19");
    assert_eq!(rows[0][2].len(), 19);
    assert_eq!(rows[1][1..], ["", "", "false"]);
    assert_eq!(rows[2][1..], ["0", "", "true"]);
}

/// A long input of every kind of line: mostly the commonest spelling (which plain answers
/// read a block at a time, straight from the input's bytes), between them other spellings,
/// CRLF line ends, comments, blank lines, puzzles that cannot reach the goal and, when
/// `bad`, bad lines; a byte-order mark first.
fn mixed_input(lines: usize, bad: bool) -> Vec<u8> {
    let mut rng = Rng(2026);
    let mut input = b"\xEF\xBB\xBF".to_vec();
    for i in 0..lines {
        let l = rng.layout(Board::EIGHT);
        let spaced = l.to_string();
        let line = match rng.below(40) {
            0 => spaced.replace('0', "x"),
            1 => l.tiles().iter().map(|t| t.to_string()).collect(),
            2 => format!("{spaced}\r"),
            3 => "# a comment".to_string(),
            4 => String::new(),
            5 => spaced.replace(' ', ","),
            6 if bad => "1 2 3".to_string(),
            7 if bad && i % 3 == 0 => spaced.replace('8', "9"),
            _ => spaced,
        };
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input
}

/// What `--csv` says of each line, in the plain answers' words: `-1` or the distance (or the
/// path, or `unsolvable`), or `invalid`.
fn csv_as_text(run: &Run, path: bool) -> String {
    let (_, rows) = csv(run);
    rows.iter()
        .map(
            |row| match (row[0].as_str(), row.last().unwrap().as_str()) {
                ("invalid", _) => "invalid\n".to_string(),
                (_, "false") if path => "unsolvable\n".to_string(),
                (_, "false") => "-1\n".to_string(),
                _ if path => format!("{}\n", row[2]),
                _ => format!("{}\n", row[1]),
            },
        )
        .collect()
}

#[test]
fn plain_answers_given_in_blocks_are_the_csv_answers_given_one_at_a_time() {
    // 40,000 lines: several input blocks and output blocks, and bad lines within them.
    for (bad, args) in [
        (false, &[][..]),
        (true, &["--keep-going"][..]),
        (true, &[][..]),
    ] {
        let input = mixed_input(40_000, bad);
        for command in ["distance", "path"] {
            let plain = query(command, args, input.as_slice());
            let csv_args: Vec<&str> = args.iter().copied().chain(["--csv"]).collect();
            let one_by_one = query(command, &csv_args, input.as_slice());
            assert_eq!(plain.code, one_by_one.code, "{command} {args:?}");
            assert_eq!(plain.code, Some(if bad { BAD_INPUT } else { 0 }));
            assert!(
                plain.stdout == csv_as_text(&one_by_one, command == "path"),
                "{command} {args:?}: the answers differ"
            );
            assert_eq!(plain.stderr, one_by_one.stderr, "{command} {args:?}");
            if !bad {
                assert!(plain.stdout.lines().count() > 30_000);
            }
        }
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
        // A word is no string of tiles: its first character is named, not its length
        // counted as tiles (`hello` said 'expected 9 tiles, found 5').
        ("a word", b"hello".to_vec(), "unknown tile 'h'"),
        (
            "short string with a letter",
            b"2341a".to_vec(),
            "unknown tile 'a'",
        ),
        (
            "a string with a character of two bytes",
            "1234é678".as_bytes().to_vec(),
            "unknown tile '\\xc3\\xa9'",
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
            .arg(table_3x3())
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
// A line of the wrong length says which board it fits

#[test]
fn eight_tiles_point_to_the_2x4_board() {
    let r = query("distance", &[], "1 2 3 4 5 6 7 0\n");
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(
        r.stderr.contains("line 1") && r.stderr.contains("--board 2x4"),
        "{r:#?}"
    );
}

#[test]
fn twelve_tiles_point_to_the_12_cell_boards() {
    let r = query("path", &[], "1 2 3 4 5 6 7 8 9 10 11 0\n");
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(r.stderr.contains("--board 3x4"), "{r:#?}");
}

#[test]
fn sixteen_tiles_point_to_the_15_puzzle_board() {
    // With --table (as `query` gives it) a 4x4 database is the advice, without it --board.
    let r = query("distance", &[], "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n");
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(
        r.stderr.contains("15-puzzle (the table is for 3x3 boards: give a 4x4 pattern database, or --board 4x4 without --table)"),
        "{r:#?}"
    );
    let r = Run::of(
        slidetable()
            .arg("distance")
            .write_stdin("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n"),
    );
    assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
    assert!(
        r.stderr.contains("15-puzzle") && r.stderr.contains("add --board 4x4"),
        "{r:#?}"
    );
}

/// A line that fits another board, read with `--table`: the advice names a table for that
/// board (`add --board 3x3` alone led to "the table is for 2x3 boards, not 3x3"); without
/// `--table`, `--board` is the advice.
#[test]
fn a_line_of_another_board_with_table_advises_a_table_of_that_board() {
    let table = crate::common::table_2x3();
    for command in ["distance", "path"] {
        let run = Run::of(
            slidetable()
                .arg(command)
                .arg("--table")
                .arg(table)
                .write_stdin("1 2 3 4 5 6 7 8 0\n"),
        );
        assert_eq!(run.code, Some(BAD_INPUT), "{command}");
        assert_eq!(
            run.stderr,
            "slidetable: <stdin>: line 1: expected 6 tiles, found 9: 9 tiles fit a 3x3 board \
             (the table is for 2x3 boards: give a 3x3 table, or --board 3x3 without --table)\n",
            "{command}"
        );
    }
    let run = Run::of(
        slidetable()
            .args(["distance", "--board", "2x3"])
            .write_stdin("1 2 3 4 5 6 7 8 0\n"),
    );
    assert!(
        run.stderr
            .ends_with("9 tiles fit a 3x3 board (add --board 3x3)\n"),
        "{}",
        run.stderr
    );
}

/// pandas writes a frame of tile columns (`df.to_csv("p.csv", index=False)`) under the header
/// `0,1,2,3,4,5,6,7,8`, which is also a puzzle: it was answered (22) without a word, one
/// answer more than the rows, every later answer a line below where the user looks for it.
/// It is still answered (it may be a puzzle), and a note says what it may be and how to skip
/// it; a first line that is not 0..n−1 in order, or not comma-separated, gets no note.
#[test]
fn a_first_line_that_reads_as_a_csv_header_of_tile_columns_is_noted() {
    let header = "0,1,2,3,4,5,6,7,8\n8,1,3,4,0,2,7,6,5\n1,2,3,4,5,6,7,8,0\n";
    for command in ["distance", "path"] {
        let run = query(command, &[], header);
        assert_eq!(run.code, Some(0), "{run:#?}");
        assert_eq!(run.stdout.lines().count(), 3, "{run:#?}");
        assert_eq!(
            run.stderr,
            "slidetable: <stdin>: line 1, 0,1,2,3,4,5,6,7,8, is answered as a puzzle; if it is \
             a CSV header (pandas writes one so for tile columns 0..8), its answer is the first \
             line of output: skip it (tail -n +2 FILE)\n",
            "{command}"
        );
    }
    let dir = dir();
    let file = dir.join("p.csv");
    fs::write(&file, header).unwrap();
    let run = Run::of(
        slidetable()
            .args(["distance", "--table"])
            .arg(table_3x3())
            .arg(&file),
    );
    assert_eq!(run.stdout, "22\n14\n0\n");
    assert!(
        run.stderr
            .contains("p.csv: line 1, 0,1,2,3,4,5,6,7,8, is answered"),
        "{run:#?}"
    );
    // Puzzles alone: no note.
    for quiet in [
        "1,2,3,4,5,6,7,8,0\n0,1,2,3,4,5,6,7,8\n",
        "0 1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 8 0\n",
        "8,1,3,4,0,2,7,6,5\n",
    ] {
        let run = query("distance", &[], quiet);
        assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{quiet}");
    }
}

/// A file saved as UTF-16 (Notepad's "Unicode", PowerShell's `>` redirection) was refused
/// with "unknown tile '\xff\xfe8\x00'", which says nothing of why; the message now names the
/// encoding and how to convert it.
#[test]
fn a_utf16_file_is_refused_naming_its_encoding() {
    let dir = dir();
    for (name, little) in [("le.txt", true), ("be.txt", false)] {
        let unit = |c: u16| {
            if little {
                c.to_le_bytes()
            } else {
                c.to_be_bytes()
            }
        };
        let mut bytes = unit(0xFEFF).to_vec();
        for c in "8 1 3 4 0 2 7 6 5\r\n".encode_utf16() {
            bytes.extend(unit(c));
        }
        let file = dir.join(name);
        fs::write(&file, bytes).unwrap();
        for command in ["distance", "path"] {
            let run = Run::of(
                slidetable()
                    .args([command, "--table"])
                    .arg(table_3x3())
                    .arg(&file),
            );
            assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
            assert!(
                run.stderr.contains(&format!("{name}: line 1: "))
                    && run.stderr.contains(
                        "(the input is UTF-16, by its first two bytes: save it as UTF-8, or \
                         convert it with iconv -f UTF-16 -t UTF-8)"
                    ),
                "{run:#?}"
            );
        }
    }
}
