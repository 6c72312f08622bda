//! What every judge format promises about any input, written once and checked twice: by the
//! property tests in `tests/any_input.rs` (stable, every `cargo test`) and by the fuzz target
//! `judge` in `fuzz/` (nightly, libFuzzer), which includes this file by path. No proptest here,
//! so that both can build it.
//!
//! The promise: `judge` returns — no panic, no endless loop — either `Ok` or
//! `JudgeError::Bad` naming a line the input has (from 1) and a one-line reason; with a sound
//! table and a `Vec` to write to it never fails otherwise. Its output is ASCII, whole lines,
//! and the same every time for the same input.

#![allow(dead_code)] // each includer uses its own part

use std::sync::OnceLock;

use slidetable_core::{Board, Layout, Move};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_judge::{judge, judge_fifteen, Format, JudgeError};
use slidetable_query::Table;

/// The default 3×3 and 2×3 tables, made once.
pub(crate) fn table_for(format: Format) -> &'static Table<Vec<u8>> {
    static TABLES: OnceLock<[Table<Vec<u8>>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [Board::EIGHT, Board::new(2, 3).unwrap()].map(|board| {
            let sections = solve_sections(&default_goals(board)).unwrap();
            Table::new(table_bytes(board, &sections).unwrap()).unwrap()
        })
    });
    &tables[usize::from(format == Format::Leetcode773)]
}

/// Fuzz target `judge`: the first byte picks the format, the rest is its input.
pub(crate) fn judge_target(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    check_judge(Format::ALL[usize::from(pick) % Format::ALL.len()], input);
}

/// Runs `format` over `input` and checks the outcome (see the module's doc). Returns the
/// output, and the bad line if there was one.
pub(crate) fn check_judge(format: Format, input: &[u8]) -> (Vec<u8>, Option<u64>) {
    let run = |input: &mut dyn std::io::BufRead, out: &mut Vec<u8>| match format {
        // The 15-puzzle judges answer by search, which the caller passes in. Here only the
        // format is under test (the answers are checked through the binary, with a real
        // database): a search that knows the goal and nothing else.
        Format::Uva10181 | Format::Lightoj1121 => {
            let goal = Board::new(4, 4).unwrap().standard_goal();
            let mut solve = |s: &Layout, _: [Move; 4], _: u32| (*s == goal).then(Vec::new);
            judge_fifteen(format, input, &mut solve, out)
        }
        _ => judge(format, input, table_for(format), out),
    };
    let mut out = Vec::new();
    let result = run(&mut &input[..], &mut out);
    let name = format.name();
    assert!(out.is_ascii(), "{name}: output {out:?}");
    assert!(
        out.is_empty() || out.ends_with(b"\n"),
        "{name}: output ends mid-line: {:?}",
        String::from_utf8_lossy(&out)
    );
    let bad = match &result {
        Ok(()) => None,
        Err(JudgeError::Bad { line, what }) => {
            let lines = input.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            assert!(
                (1..=lines).contains(line),
                "{name}: line {line} of an input of {lines} lines ({what})"
            );
            assert!(
                !what.is_empty() && !what.contains(['\n', '\r']),
                "{name}: reason {what:?}"
            );
            Some(*line)
        }
        Err(e) => panic!("{name}: {e} ({e:?})"),
    };
    // The same input gives the same answers and stops at the same line, also when it is
    // streamed in pieces of a few bytes (every line and token cut across reads).
    let mut again = Vec::new();
    let chunk = 1 + input.first().map_or(0, |&b| usize::from(b % 7));
    let second = run(
        &mut std::io::BufReader::with_capacity(chunk, input),
        &mut again,
    );
    assert_eq!(again, out, "{name}: a second run wrote otherwise");
    assert_eq!(
        second.err().map(|e| e.to_string()),
        result.err().map(|e| e.to_string()),
        "{name}: a second run ended otherwise"
    );
    (out, bad)
}
