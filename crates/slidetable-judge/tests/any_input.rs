//! The fuzz target `judge` (see `fuzz/`) as property tests on stable: the same checks
//! (`properties/mod.rs`) for every format over arbitrary bytes, and over real inputs — random
//! puzzles written the way each problem writes them — damaged by a few edits; and every input
//! in `tests/regressions/judge/` replayed. The byte-exact samples and the answers' optimality
//! are tested through the binary in `crates/slidetable-cli/tests/judge.rs`.

use proptest::prelude::*;
use slidetable_judge::Format;

use crate::properties;
use properties::{check_judge, judge_target};

fn format() -> impl Strategy<Value = Format> {
    prop::sample::select(Format::ALL.to_vec())
}

/// A random layout of `cells` tiles (either class: unsolvable ones are answers too).
fn layout(cells: u8) -> impl Strategy<Value = Vec<u8>> {
    Just((0..cells).collect::<Vec<u8>>()).prop_shuffle()
}

fn chars(tiles: &[u8], blank: char) -> String {
    tiles
        .iter()
        .map(|&t| if t == 0 { blank } else { char::from(b'0' + t) })
        .collect()
}

fn ints(tiles: &[u8], sep: &str) -> String {
    tiles
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

fn grid(tiles: &[u8]) -> String {
    let side = if tiles.len() == 16 { 4 } else { 3 };
    tiles
        .chunks(side)
        .map(|row| ints(row, " ") + "\n")
        .collect()
}

/// A real input for `format` made of the given layouts, and the number of lines it answers.
fn real_input(format: Format, puzzles: &[Vec<u8>]) -> (String, usize) {
    let one = &puzzles[0];
    let k = puzzles.len();
    match format {
        Format::Poj | Format::Acwing845 => (ints(one, " ").replace('0', "x") + "\n", 1),
        Format::Luogu => (chars(one, '0') + "\n", 1),
        Format::Hdu => (puzzles.iter().map(|p| chars(p, 'x') + "\n").collect(), k),
        Format::Pair => (
            format!("{}\n{}\n", ints(one, " "), ints(&puzzles[k - 1], " ")),
            1,
        ),
        Format::Hiho | Format::Uva10085 => {
            let grids: String = puzzles.iter().map(|p| grid(p)).collect();
            let per = if format == Format::Hiho { 1 } else { 6 };
            (format!("{k}\n{grids}"), k * per)
        }
        Format::Hdu3567 => {
            let cases = k / 2;
            let lines: String = puzzles[..cases * 2]
                .iter()
                .map(|p| chars(p, 'X') + "\n")
                .collect();
            (format!("{cases}\n{lines}"), cases * 2)
        }
        Format::Uva652 => {
            let cases: Vec<String> = puzzles
                .iter()
                .map(|p| ints(p, " ").replace('0', "x"))
                .collect();
            (format!("{k}\n\n{}\n", cases.join("\n\n")), 2 * k - 1)
        }
        Format::Uva10181 | Format::Lightoj1121 => {
            let grids: String = puzzles.iter().map(|p| grid(p) + "\n").collect();
            (format!("{k}\n{grids}"), k)
        }
        Format::Leetcode773 => unreachable!("2x3 inputs are made by leetcode_input"),
    }
}

fn leetcode_input(boards: &[Vec<u8>]) -> (String, usize) {
    let text = boards
        .iter()
        .map(|b| format!("[[{}],[{}]]\n", ints(&b[..3], ","), ints(&b[3..], ",")))
        .collect();
    (text, boards.len())
}

/// Bytes that matter to some format, and some that no format allows.
const INTERESTING: &[u8] = b"0123456789xX \t\r\n[],-#a\0\xff";

/// A real input for a random format, and its answer count, damaged by `edits`: a byte
/// inserted, deleted or replaced (no edits: the input as made).
fn damaged_input() -> impl Strategy<Value = (Format, Vec<u8>, Option<usize>)> {
    let edits = prop::collection::vec(
        (
            0..3u8,
            any::<usize>(),
            prop::sample::select(INTERESTING.to_vec()),
        ),
        0..=3,
    );
    (
        format(),
        prop::collection::vec(layout(9), 1..6),
        prop::collection::vec(layout(6), 1..6),
        prop::collection::vec(layout(16), 1..4),
        edits,
    )
        .prop_map(|(format, eights, smalls, fifteens, edits)| {
            let (text, answers) = match format {
                Format::Leetcode773 => leetcode_input(&smalls),
                Format::Uva10181 | Format::Lightoj1121 => real_input(format, &fifteens),
                _ => real_input(format, &eights),
            };
            let mut bytes = text.into_bytes();
            let undamaged = edits.is_empty();
            for (kind, at, byte) in edits {
                let at = at % (bytes.len() + 1);
                match kind {
                    0 => bytes.insert(at, byte),
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ if at < bytes.len() => bytes[at] = byte,
                    _ => bytes.push(byte),
                }
            }
            (format, bytes, undamaged.then_some(answers))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn any_bytes_in_any_format_are_answered_or_a_bad_line(
        pick in any::<u8>(),
        input in prop::collection::vec(any::<u8>(), 0..256),
    ) {
        let mut data = vec![pick];
        data.extend_from_slice(&input);
        judge_target(&data);
    }

    #[test]
    fn bytes_of_the_grammars_are_answered_or_a_bad_line(
        format in format(),
        input in prop::collection::vec(prop::sample::select(INTERESTING.to_vec()), 0..128),
    ) {
        check_judge(format, &input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn a_damaged_real_input_is_answered_or_a_bad_line(
        (format, input, answers) in damaged_input(),
    ) {
        let (out, bad) = check_judge(format, &input);
        if let Some(answers) = answers {
            prop_assert_eq!(bad, None, "{}: {:?}", format.name(), String::from_utf8_lossy(&input));
            prop_assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), answers);
        }
    }
}

/// Every input a fuzzer ever crashed `judge` with, replayed.
#[test]
fn regressions_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions/judge");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        println!("replaying {}", path.display());
        judge_target(&std::fs::read(&path).unwrap());
    }
}
