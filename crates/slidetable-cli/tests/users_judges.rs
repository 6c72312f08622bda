//! The judges read input as accepted solutions read it: `hdu` by tokens (a puzzle split over
//! lines, two on a line), `poj` answering its puzzle before reporting extra input,
//! `leetcode773` taking LeetCode's own `board = [[...]]` line, and `uva652` (UVa 652 "Eight");
//! `judge --help` and the README say which judges have a special judge.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;

mod common;
use common::{sandboxed, scratch_dir, Run};

const BAD_INPUT: i32 = 65;
const SAMPLE: &str = "2 3 4 1 5 x 7 6 8";
const SAMPLE_PATH: &str = "ullddrurdllurdruldr";

struct Shared {
    dir: PathBuf,
    eight: PathBuf,
    small: PathBuf,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = scratch_dir("users-judges");
        let eight = dir.join("3x3.slt");
        let small = dir.join("2x3.slt");
        for (board, path) in [("3x3", &eight), ("2x3", &small)] {
            Run::of(
                sandboxed(&dir)
                    .args(["generate", "--board", board, "-o"])
                    .arg(path),
            )
            .ok();
        }
        Shared { dir, eight, small }
    })
}

fn slidetable() -> Command {
    sandboxed(&shared().dir)
}

fn judge(format: &str, input: &str) -> Run {
    let table = if format == "leetcode773" {
        &shared().small
    } else {
        &shared().eight
    };
    Run::of(
        slidetable()
            .args(["judge", format, "--table"])
            .arg(table)
            .write_stdin(input),
    )
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn hdu_reads_a_puzzle_split_over_lines() {
    let run = judge("hdu", "2 3 4\n1 5 x\n7 6 8\n").ok();
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    // Any split, even one token per line and blank lines between.
    let spread: String = SAMPLE.split(' ').map(|t| format!("{t}\n\n")).collect();
    assert_eq!(
        judge("hdu", &spread).ok().stdout,
        format!("{SAMPLE_PATH}\n")
    );
}

#[test]
fn hdu_reads_two_puzzles_on_one_line() {
    let run = judge(
        "hdu",
        &format!("{SAMPLE}  1 2 3 4 5 6 7 8 x\n2 1 3 4 5 6 7 8 x\n"),
    )
    .ok();
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n\nunsolvable\n"));
}

#[test]
fn hdu_reports_a_puzzle_cut_short_at_the_end_after_the_earlier_answers() {
    let run = judge("hdu", &format!("{SAMPLE}\n1 2 3\n4 5\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    assert!(
        run.stderr.contains("line 3") && run.stderr.contains("5"),
        "{run:#?}"
    );
}

#[test]
fn poj_answers_its_puzzle_then_reports_the_extra_input() {
    let run = judge("poj", &format!("{SAMPLE}\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"), "{run:#?}");
    assert!(run.stderr.contains("line 2"), "{run:#?}");
    // The same for acwing845, which reads one puzzle as poj does.
    let run = judge("acwing845", &format!("{SAMPLE}\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, "19\n", "{run:#?}");
}

#[test]
fn leetcode773_takes_leetcodes_own_example_line() {
    let run = judge(
        "leetcode773",
        "board = [[4,1,2],[5,0,3]]\nboard = [[1,2,3],[4,0,5]]\n[[1,2,3],[5,4,0]]\nboard=[[1,2,3],[4,5,0]]\n",
    )
    .ok();
    assert_eq!(run.stdout, "5\n1\n-1\n0\n");
}

#[test]
fn leetcode773_still_refuses_another_name() {
    let run = judge("leetcode773", "grid = [[4,1,2],[5,0,3]]\n");
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert!(run.stderr.contains("line 1"), "{run:#?}");
}

#[test]
fn uva652_reproduces_its_sample() {
    let dir = repo().join("data/judges/uva652");
    let input = std::fs::read_to_string(dir.join("input.txt")).unwrap();
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    assert_eq!(judge("uva652", &input).ok().stdout, expected);
}

#[test]
fn uva652_separates_cases_by_a_blank_line_and_prints_an_empty_line_for_a_solved_one() {
    let input = format!("4\n\n{SAMPLE}\n\n2 1 3 4 5 6 7 8 x\n\n1 2 3\n4 5 6\n7 8 x\n\n123x46758\n");
    let run = judge("uva652", &input).ok();
    assert_eq!(
        run.stdout,
        format!("{SAMPLE_PATH}\n\nunsolvable\n\n\n\nrdr\n"),
        "{run:#?}"
    );
    // Without the blank lines, and with one case.
    let run = judge("uva652", &format!("1\n{SAMPLE}\n")).ok();
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
}

#[test]
fn uva652_refuses_extra_or_missing_cases_after_the_earlier_answers() {
    let run = judge("uva652", &format!("1\n\n{SAMPLE}\n\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    assert!(run.stderr.contains("line 5"), "{run:#?}");
    let run = judge("uva652", &format!("2\n\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    let run = judge("uva652", "two\n");
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert!(run.stderr.contains("line 1"), "{run:#?}");
}

#[test]
fn judge_help_says_which_judges_accept_any_optimal_answer() {
    let run = Run::of(slidetable().args(["judge", "--help"])).ok();
    let special = ["poj", "hdu", "uva10085", "uva652"];
    let exact = [
        "acwing845",
        "hiho",
        "pair",
        "luogu",
        "hdu3567",
        "leetcode773",
    ];
    for format in special.iter().chain(&exact) {
        let line = run
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {format}:")))
            .unwrap_or_else(|| panic!("no line for {format} in {}", run.stdout));
        if special.contains(format) {
            assert!(line.contains("special judge"), "{format}: {line}");
        } else {
            assert!(
                line.contains("byte for byte") && !line.contains("special judge"),
                "{format}: {line}"
            );
        }
    }
}

#[test]
fn the_readme_names_the_source_of_pair_and_says_hiho_prints_a_number_of_moves() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let row = |name: &str| {
        readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no README row for {name}"))
            .to_string()
    };
    let pair = row("pair");
    assert!(
        pair.contains("Liu Rujia") && !pair.contains("seed"),
        "{pair}"
    );
    assert!(row("hiho").contains("number of moves"), "{}", row("hiho"));
    assert!(row("uva652").contains("UVa 652"), "{}", row("uva652"));
}
