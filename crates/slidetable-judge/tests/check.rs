//! `check`: another program's output judged as the site would. Every sample's expected
//! output is accepted; each way an answer can be wrong is reported with its reason, and the
//! verdict counts the cases accepted.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use slidetable_core::{Board, Layout, Move};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_judge::{
    check, check_fifteen, judge, Format, JudgeError, Outcome, Standard, Verdict, MAX_LINE,
};
use slidetable_query::Table;

/// The default 3×3 and 2×3 tables, made once.
fn table_for(format: Format) -> &'static Table<Vec<u8>> {
    static TABLES: OnceLock<[Table<Vec<u8>>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [Board::EIGHT, Board::new(2, 3).unwrap()].map(|board| {
            let sections = solve_sections(&default_goals(board)).unwrap();
            Table::new(table_bytes(board, &sections).unwrap()).unwrap()
        })
    });
    &tables[usize::from(format == Format::Leetcode773)]
}

/// The report and verdict of checking `theirs` against `input`, as the site judges.
fn checked(format: Format, input: &str, theirs: &str) -> (String, Verdict) {
    checked_by(format, input, theirs.as_bytes(), Standard::Site)
}

/// The report and verdict of checking `theirs` against `input` under `standard`.
fn checked_by(
    format: Format,
    input: &str,
    theirs: impl Read,
    standard: Standard,
) -> (String, Verdict) {
    let mut report = Vec::new();
    let verdict = check(
        format,
        input.as_bytes(),
        theirs,
        table_for(format),
        standard,
        &mut report,
    )
    .unwrap();
    (String::from_utf8(report).unwrap(), verdict)
}

fn ours(format: Format, input: &str) -> String {
    let mut out = Vec::new();
    judge(format, input.as_bytes(), table_for(format), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn samples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/judges"))
}

#[test]
fn every_sample_answer_and_our_own_answers_are_accepted() {
    for format in Format::ALL {
        if format.board() == Board::FIFTEEN {
            continue;
        }
        let dir = samples().join(format.name());
        let input = fs::read_to_string(dir.join("input.txt")).unwrap();
        let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
        for theirs in [expected, ours(format, &input)] {
            let (report, verdict) = checked(format, &input, &theirs);
            assert!(verdict.all_accepted(), "{}: {report}", format.name());
            assert!(
                report.lines().last().unwrap().starts_with("Accepted: "),
                "{report}"
            );
        }
    }
}

/// Two solvable puzzles (19 moves, 1 move) and an unsolvable one.
const THREE: &str = "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 8 7 x\n";

#[test]
fn a_path_is_replayed_and_each_way_it_can_be_wrong_is_named() {
    for (theirs, line, why) in [
        (
            "ullddrurdllurdruldr\nrr\nunsolvable\n",
            "case 2 (line 2): Wrong Answer: illegal move 2 ('r'): the blank would leave the board",
            "off the board",
        ),
        (
            "ullddrurdllurdruldr\nl\nunsolvable\n",
            "case 2 (line 2): Wrong Answer: 1 move does not reach the goal",
            "not at the goal",
        ),
        (
            "ullddrurdllurdruldr\nunsolvable\nunsolvable\n",
            "case 2 (line 2): Wrong Answer: says 'unsolvable', but the puzzle is solved in 1 move",
            "solvable called unsolvable",
        ),
        (
            "ullddrurdllurdruldr\nr\nlr\n",
            "case 3 (line 3): Wrong Answer: the puzzle cannot be solved (expected 'unsolvable'), \
             but the output gives 2 moves",
            "a path for an unsolvable puzzle",
        ),
        (
            "ullddrurdllurdruldr\nR\nunsolvable\n",
            "case 2 (line 2): Wrong Answer: format: 'R' (character 1) is not a move: the moves \
             are u d l r",
            "a letter in the wrong case",
        ),
        (
            "ullddrurdllurdruldr\nr\n",
            "case 3: Wrong Answer: no answer: the output ends after 2 lines, before case 3",
            "a missing answer",
        ),
        (
            "ullddrurdllurdruldr\nr\nunsolvable\nr\n",
            "line 4: Wrong Answer: the output continues after the last case: 'r' (not read further)",
            "output after the last case",
        ),
    ] {
        let (report, verdict) = checked(Format::Hdu, THREE, theirs);
        assert!(!verdict.all_accepted(), "{why}: {report}");
        assert!(report.lines().any(|l| l == line), "{why}: {report}");
        assert!(
            report.lines().last().unwrap().starts_with("Wrong Answer: "),
            "{why}: {report}"
        );
    }
    // Any optimal path is accepted, not only ours; blanks around a line do not matter.
    let (report, verdict) = checked(
        Format::Hdu,
        THREE,
        " ldruullddrurdllurrd\nr\r\nunsolvable\n\n",
    );
    assert_eq!(
        verdict,
        Verdict {
            cases: 3,
            accepted: 3,
            extra_output: false,
            outcome: Outcome::Accepted,
        },
        "{report}"
    );
    assert_eq!(
        report,
        "case 1 (line 1): Accepted (19 moves, optimal)\ncase 2 (line 2): Accepted (1 move, \
         optimal)\ncase 3 (line 3): Accepted (unsolvable)\nAccepted: 3 of 3 cases\n"
    );
}

#[test]
fn the_verdict_counts_the_cases_accepted() {
    let (report, verdict) = checked(Format::Hdu, THREE, "ullddrurdllurdruldr\nl\nl\nxyz\n");
    assert_eq!(
        verdict,
        Verdict {
            cases: 3,
            accepted: 1,
            extra_output: true,
            outcome: Outcome::WrongAnswer,
        },
        "{report}"
    );
    assert_eq!(
        report.lines().last().unwrap(),
        "Wrong Answer: 1 of 3 cases accepted, and output continues after the last case"
    );
}

#[test]
fn uva652_wants_a_blank_line_between_two_answers() {
    let input = "2\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 x 8\n";
    let (_, verdict) = checked(Format::Uva652, input, "ullddrurdllurdruldr\n\nr\n");
    assert!(verdict.all_accepted());
    let (report, verdict) = checked(Format::Uva652, input, "ullddrurdllurdruldr\nr\n");
    assert!(!verdict.all_accepted());
    assert!(
        report.lines().any(|l| {
            l
            == "case 2 (line 2): Wrong Answer: format: missing blank line before this answer ('r')"
        }),
        "{report}"
    );
}

#[test]
fn a_format_compared_byte_for_byte_reports_its_first_differing_line() {
    let input = "3\n1 2 3\n4 5 6\n7 0 8\n1 2 3\n4 5 6\n8 7 0\n2 3 4\n1 5 0\n7 6 8\n";
    assert_eq!(ours(Format::Hiho, input), "1\nNo Solution!\n19\n");
    for (theirs, accepted, last) in [
        (
            "1\nNo Solution!\n19\n",
            3,
            "Accepted: 3 lines of output, the expected output byte for byte",
        ),
        (
            "1\nNo Solution!\n19",
            3,
            "Accepted: 3 lines of output, the expected output byte for byte but for the line \
             end the last line lacks (the sites accept that)",
        ),
        (
            "1\n-1\n19\n",
            1,
            "Wrong Answer: line 2 of 3: expected 'No Solution!', found '-1'",
        ),
        (
            "1\nNo Solution! \n19\n",
            3,
            "Presentation Error: line 2 of 3: expected 'No Solution!', found 'No Solution! ' \
             (whitespace at the end of the line); only whitespace differs",
        ),
        (
            "1\nNo Solution!\n",
            2,
            "Wrong Answer: line 3 of 3: expected '19', found the end of the output",
        ),
        (
            "1\nNo Solution!\n19\n0\n",
            3,
            "Wrong Answer: line 4 of 3: expected the end of the output, found '0'",
        ),
    ] {
        let (report, verdict) = checked(Format::Hiho, input, theirs);
        assert_eq!(report.lines().last().unwrap(), last, "{theirs:?}");
        assert_eq!(verdict.accepted, accepted, "{theirs:?}");
        assert_eq!(verdict.all_accepted(), last.starts_with("Accepted"));
    }
}

/// HDU 3567 compares bytes: an output right but for its whitespace is a Presentation Error,
/// as HDU says, not a Wrong Answer; a missing final line end is accepted, and said so.
#[test]
fn a_difference_in_whitespace_alone_is_a_presentation_error() {
    let input = "2\n12X453786\n12345678X\n564178X23\n7568X4123\n";
    let right = "Case 1: 2\ndd\nCase 2: 8\nurrulldr\n";
    assert_eq!(ours(Format::Hdu3567, input), right);
    for (theirs, last) in [
        (
            right.replace('\n', "\r\n"),
            "Presentation Error: line 1 of 4: expected 'Case 1: 2', found 'Case 1: 2\\r' (a \
             CRLF line end: \\r before \\n); only whitespace differs",
        ),
        (
            right.replace("dd\n", "dd \n"),
            "Presentation Error: line 2 of 4: expected 'dd', found 'dd ' (whitespace at the end \
             of the line); only whitespace differs",
        ),
        (
            right.replace("Case 1: 2", "Case 1:  2"),
            "Presentation Error: line 1 of 4: expected 'Case 1: 2', found 'Case 1:  2' \
             (whitespace within the line); only whitespace differs",
        ),
        (
            right.replace("dd\n", "dd\n\n"),
            "Presentation Error: line 3 of 4: expected 'Case 2: 8', found a blank line; only \
             whitespace differs",
        ),
        (
            format!("{right}\n"),
            "Presentation Error: line 5 of 4: expected the end of the output, found a blank \
             line; only whitespace differs",
        ),
        // A real difference after a difference in whitespace is a Wrong Answer.
        (
            right
                .replace("dd\n", "dd \n")
                .replace("urrulldr", "urrulldl"),
            "Wrong Answer: line 4 of 4: expected 'urrulldr', found 'urrulldl'",
        ),
        (
            right.trim_end().to_string(),
            "Accepted: 4 lines of output, the expected output byte for byte but for the line \
             end the last line lacks (the sites accept that)",
        ),
        (
            right.to_string(),
            "Accepted: 4 lines of output, the expected output byte for byte",
        ),
    ] {
        let (report, verdict) = checked(Format::Hdu3567, input, &theirs);
        assert_eq!(report.trim_end(), last, "{theirs:?}");
        let outcome = match last.split(':').next().unwrap() {
            "Accepted" => Outcome::Accepted,
            "Presentation Error" => Outcome::PresentationError,
            _ => Outcome::WrongAnswer,
        };
        assert_eq!(verdict.outcome, outcome, "{theirs:?}");
        assert!(!verdict.all_accepted() || outcome == Outcome::Accepted);
    }
}

/// Where the site accepts any solution, a longer valid path is accepted with its length and
/// the optimum; `Standard::Optimal` (the command line's `--strict`) refuses it.
#[test]
fn a_longer_valid_path_is_accepted_as_the_site_does_and_refused_when_strict() {
    let theirs = "ullddrurdllurdruldrlr\nr\nunsolvable\n";
    let (report, verdict) = checked(Format::Hdu, THREE, theirs);
    assert!(verdict.all_accepted(), "{report}");
    assert_eq!(
        report,
        "case 1 (line 1): Accepted (valid, 21 moves; optimal is 19)\ncase 2 (line 2): Accepted \
         (1 move, optimal)\ncase 3 (line 3): Accepted (unsolvable)\nAccepted: 3 of 3 cases (1 \
         valid but not optimal)\n"
    );
    let (report, verdict) = checked_by(Format::Hdu, THREE, theirs.as_bytes(), Standard::Optimal);
    assert_eq!(verdict.outcome, Outcome::WrongAnswer);
    assert!(
        report.starts_with("case 1 (line 1): Wrong Answer: 21 moves where the optimum is 19\n"),
        "{report}"
    );
    for format in [Format::Poj, Format::Uva652] {
        let input = if format == Format::Poj {
            "2 3 4 1 5 x 7 6 8\n"
        } else {
            "1\n2 3 4 1 5 x 7 6 8\n"
        };
        let (report, verdict) = checked(format, input, "ullddrurdllurdruldrlr\n");
        assert!(verdict.all_accepted(), "{}: {report}", format.name());
    }
}

/// `This puzzle is not solvable` without its period, `Unsolvable`: the message names the
/// words expected instead of calling the first letter a bad move.
#[test]
fn a_near_miss_of_the_words_for_no_solution_names_the_words_expected() {
    for theirs in ["Unsolvable", "unsolvable.", "un solvable", "unsolveable"] {
        let (report, _) = checked(
            Format::Hdu,
            THREE,
            &format!("ullddrurdllurdruldr\nr\n{theirs}\n"),
        );
        let line = format!(
            "case 3 (line 3): Wrong Answer: format: expected 'unsolvable', found '{theirs}'"
        );
        assert!(report.lines().any(|l| l == line), "{theirs}: {report}");
    }
    // For a solvable puzzle the near miss is still a wrong claim.
    let (report, _) = checked(
        Format::Hdu,
        THREE,
        "ullddrurdllurdruldr\nUnsolvable\nunsolvable\n",
    );
    assert!(
        report.lines().any(|l| l
            == "case 2 (line 2): Wrong Answer: says 'Unsolvable' (for 'unsolvable'), but the \
                puzzle is solved in 1 move"),
        "{report}"
    );
    // Anything else is still named by its first bad character.
    let (report, _) = checked(Format::Hdu, THREE, "ullddrurdllurdruldr\nr\nimpossible\n");
    assert!(
        report.contains("format: 'i' (character 1) is not a move"),
        "{report}"
    );
}

/// An output that never ends: endless answers after the last case, endless blank lines, a
/// line that never ends. Each is judged at once, reading a bounded number of bytes.
#[test]
fn an_endless_output_is_judged_after_a_bounded_read() {
    /// `pattern` repeated without end, counting the bytes read.
    struct Endless {
        pattern: &'static [u8],
        at: usize,
        read: u64,
    }
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            for b in buf.iter_mut() {
                *b = self.pattern[self.at];
                self.at = (self.at + 1) % self.pattern.len();
            }
            self.read += buf.len() as u64;
            Ok(buf.len())
        }
    }
    for (pattern, outcome, line) in [
        (
            &b"uldr\n"[..],
            Outcome::WrongAnswer,
            "line 4: Wrong Answer: the output continues after the last case: 'uldr' (not read \
             further)",
        ),
        (
            b"\n",
            Outcome::OutputLimitExceeded,
            "line 65540: Output Limit Exceeded: the output continues after the last case with \
             more than 65536 bytes of blank lines; it is not read further",
        ),
        (
            b"u",
            Outcome::OutputLimitExceeded,
            "line 1: Output Limit Exceeded: a line longer than 65536 bytes; the output is not \
             read further",
        ),
    ] {
        let mut endless = Endless {
            pattern,
            at: 0,
            read: 0,
        };
        let (report, verdict) = checked_by(Format::Hdu, THREE, &mut endless, Standard::Site);
        assert_eq!(verdict.outcome, outcome, "{report}");
        assert!(report.lines().any(|l| l == line), "{report}");
        assert!(
            endless.read <= 4 * MAX_LINE as u64 + (1 << 20),
            "{} bytes read",
            endless.read
        );
        // Byte for byte, the same bound.
        let mut endless = Endless {
            pattern,
            at: 0,
            read: 0,
        };
        let (report, verdict) = checked_by(
            Format::Acwing845,
            "2 3 4 1 5 x 7 6 8\n",
            &mut endless,
            Standard::Site,
        );
        assert_ne!(verdict.outcome, Outcome::Accepted, "{report}");
        assert!(
            endless.read <= 4 * MAX_LINE as u64 + (1 << 20),
            "{} bytes read",
            endless.read
        );
    }
}

/// The files given the other way round (the answers as the input): the error says they look
/// swapped.
#[test]
fn an_input_that_looks_like_an_answer_gets_a_hint_that_the_files_are_swapped() {
    let mut report = Vec::new();
    let err = check(
        Format::Hdu,
        &b"ullddrurdllurdruldr\nr\nunsolvable\n"[..],
        THREE.as_bytes(),
        table_for(Format::Hdu),
        Standard::Site,
        &mut report,
    )
    .unwrap_err();
    let JudgeError::Bad { line, what } = err else {
        panic!("{err:?}")
    };
    assert_eq!(line, 1);
    assert!(
        what.ends_with(
            "(the input begins 'ullddrurdllurdruldr', which looks like an answer: are the input \
             and the output to check swapped?)"
        ),
        "{what}"
    );
    // A bad input that is no answer gets no such hint.
    let err = check(
        Format::Hdu,
        &b"2 3 4 1 5 q 7 6 8\n"[..],
        &b""[..],
        table_for(Format::Hdu),
        Standard::Site,
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(!err.to_string().contains("swapped"), "{err}");
}

#[test]
fn uva10085_wants_a_farthest_state_and_a_shortest_path_to_it() {
    let dir = samples().join("uva10085");
    let input = fs::read_to_string(dir.join("input.txt")).unwrap();
    let sample = fs::read_to_string(dir.join("expected.txt")).unwrap();
    let start = Layout::new(Board::EIGHT, &[2, 6, 4, 1, 3, 7, 0, 5, 8]).unwrap();
    let grid = |l: &Layout| l.grid();
    // The start itself, with no moves: a state, but the nearest one.
    let near = format!("Puzzle #1\n{}\n\n\n", grid(&start));
    // A farthest state, by a path two moves longer than its shortest.
    let path = sample.lines().nth(4).unwrap();
    let detour = ["UD", "DU", "LR", "RL"]
        .into_iter()
        .find(|pair| {
            let moves: Vec<Move> = pair
                .chars()
                .map(|c| Move::from_letter(c).unwrap())
                .collect();
            start.after(&moves).is_some()
        })
        .unwrap();
    let long = sample.replace(path, &format!("{detour}{path}"));
    for (theirs, why) in [
        (
            sample.replace("Puzzle #1", "Puzzle 1"),
            "format: expected 'Puzzle #1', found 'Puzzle 1'",
        ),
        (
            near,
            "the state printed is 0 moves from the start; the farthest are 31",
        ),
        (
            sample.replace(path, &path[..path.len() - 1]),
            "30 moves do not reach the state printed",
        ),
        (long, "33 moves where the optimum is 31"),
        (
            sample.trim_end().to_string() + "\n",
            "format: missing the blank line after the moves",
        ),
        (
            sample.replace("7 3 6", "7 3"),
            "format: line 3, row 2 of the state: expected 3 numbers, found '7 3'",
        ),
    ] {
        let (report, verdict) = checked(Format::Uva10085, &input, &theirs);
        assert_eq!(verdict.accepted, 0, "{why}: {report}");
        assert!(
            report
                .lines()
                .next()
                .unwrap()
                .ends_with(&format!("Wrong Answer: {why}")),
            "{why}: {report}"
        );
    }
}

/// Breadth-first search on the 15-puzzle from `start` to the goal, at most `most` moves
/// (enough for the puzzles a few moves from the goal these tests use).
fn bfs(start: &Layout, most: u32) -> Option<Vec<Move>> {
    let goal = Board::FIFTEEN.standard_goal();
    let mut parent: HashMap<u64, (u64, Move)> = HashMap::new();
    let mut queue = VecDeque::from([(*start, 0)]);
    let mut seen = HashMap::from([(start.packed(), ())]);
    while let Some((at, depth)) = queue.pop_front() {
        if at == goal {
            let mut path = Vec::new();
            let mut key = at.packed();
            while let Some(&(from, m)) = parent.get(&key) {
                path.push(m);
                key = from;
            }
            path.reverse();
            return Some(path);
        }
        if depth == most.min(8) {
            continue;
        }
        for m in Move::ALL {
            if let Some(next) = at.moved(m) {
                if seen.insert(next.packed(), ()).is_none() {
                    parent.insert(next.packed(), (at.packed(), m));
                    queue.push_back((next, depth + 1));
                }
            }
        }
    }
    None
}

#[test]
fn uva10181_allows_at_most_50_moves_and_checks_a_not_solvable() {
    let input = "2\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n\
                 2 1 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n";
    let check15 = |theirs: &str| {
        let mut report = Vec::new();
        let mut solve = |start: &Layout, _: [Move; 4], most: u32| bfs(start, most);
        let verdict = check_fifteen(
            Format::Uva10181,
            input.as_bytes(),
            theirs.as_bytes(),
            &mut solve,
            Standard::Site,
            &mut report,
        )
        .unwrap();
        (String::from_utf8(report).unwrap(), verdict)
    };
    let (report, verdict) = check15("R\nThis puzzle is not solvable.\n");
    assert!(verdict.all_accepted(), "{report}");
    let long = format!("R{}\nThis puzzle is not solvable.\n", "LR".repeat(25));
    let (report, _) = check15(&long);
    assert!(
        report.starts_with(
            "case 1 (line 1): Wrong Answer: 51 moves, more than the 50 the problem allows"
        ),
        "{report}"
    );
    // Any solution within the 50 moves is accepted.
    let (report, verdict) = check15("RLR\nThis puzzle is not solvable.\n");
    assert!(verdict.all_accepted(), "{report}");
    assert!(
        report.starts_with("case 1 (line 1): Accepted (valid, 3 moves; optimal is 1)"),
        "{report}"
    );
    // The sentence without its period is named, not read as moves.
    let (report, _) = check15("R\nThis puzzle is not solvable\n");
    assert!(
        report.contains(
            "case 2 (line 2): Wrong Answer: format: expected 'This puzzle is not solvable.', \
             found 'This puzzle is not solvable'"
        ),
        "{report}"
    );
    let (report, _) = check15("This puzzle is not solvable.\nThis puzzle is not solvable.\n");
    assert!(
        report.starts_with(
            "case 1 (line 1): Wrong Answer: says 'This puzzle is not solvable.', but the puzzle \
             is solved in 1 move"
        ),
        "{report}"
    );
}
