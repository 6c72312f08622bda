//! Puzzles from the user: a `--goal` argument, and the puzzle lines every batch command reads.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable_core::{is_blank_or_comment, parse_layout, Board, Layout};

use crate::error::{UsageError, EXIT_BAD_INPUT};
use crate::input::{self, Lines, MAX_LINE};
use crate::streams::warning;

/// The layout a `--goal` argument names on `board`; a bad one is a usage error.
pub(crate) fn parse_goal(board: Board, text: &str) -> Result<Layout, UsageError> {
    parse_layout(board, text.as_bytes()).map_err(|e| UsageError(format!("--goal '{text}': {e}")))
}

/// The loop every batch command shares: reads puzzles for `board` line by line from each of
/// `inputs` in turn (files, `-` for standard input; none: standard input), streamed,
/// skipping blank and `#` lines, and
/// calls `answer` for each (with its line number) to write one line to `out`. A bad line stops
/// the run with `line N: …` on stderr and exit 65 after every earlier answer is flushed; with
/// `keep_going`, `invalid` writes the bad line's answer, each problem is reported, and the
/// exit code is 65 at the end.
// Inlined into each command, as when it lived beside `distance` and `path`: as a call,
// `distance` on 100,000 lines took 3% more instructions (callgrind).
#[inline]
pub(crate) fn each_puzzle<W: Write>(
    inputs: &[PathBuf],
    board: Board,
    keep_going: bool,
    out: &mut W,
    mut answer: impl FnMut(&Layout, u64, &mut W) -> Result<()>,
    mut invalid: impl FnMut(u64, &str, &mut W) -> io::Result<()>,
) -> Result<ExitCode> {
    let standard_input = [PathBuf::from("-")];
    let inputs = if inputs.is_empty() {
        &standard_input[..]
    } else {
        inputs
    };
    let mut code = ExitCode::SUCCESS;
    for input in inputs {
        let done = each_puzzle_of(input, board, keep_going, out, &mut answer, &mut invalid)?;
        if done != ExitCode::SUCCESS {
            code = done;
            if !keep_going {
                break;
            }
        }
    }
    Ok(code)
}

/// [`each_puzzle`] for one input.
fn each_puzzle_of<W: Write>(
    input: &Path,
    board: Board,
    keep_going: bool,
    out: &mut W,
    answer: &mut impl FnMut(&Layout, u64, &mut W) -> Result<()>,
    invalid: &mut impl FnMut(u64, &str, &mut W) -> io::Result<()>,
) -> Result<ExitCode> {
    let input = input::open(Some(input))?;
    let mut lines = Lines::new(input.reader, MAX_LINE);
    let mut bad = 0u64;
    while let Some(line) = lines
        .next_line()
        .with_context(|| format!("cannot read {}", input.name))?
    {
        // A byte-order mark at the start of the input is an editor's, not a tile.
        let text = match line.text {
            Ok(text) if line.number == 1 => Ok(text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text)),
            other => other,
        };
        let what = match text {
            Ok(text) if is_blank_or_comment(text) => continue,
            Ok(text) => match parse_layout(board, text) {
                Ok(layout) => {
                    answer(&layout, line.number, out)?;
                    continue;
                }
                Err(e) => with_board_hint(board, text, e.to_string()),
            },
            Err(len) => format!("line is {len} bytes long; at most {MAX_LINE} are read"),
        };
        let report = format!("{}: line {}: {what}", input.name, line.number);
        if !keep_going {
            out.flush()?;
            warning!("{report}");
            return Ok(ExitCode::from(EXIT_BAD_INPUT));
        }
        invalid(line.number, &what, out)?;
        warning!("{report}");
        bad += 1;
    }
    out.flush()?;
    if bad > 0 {
        warning!(
            "{bad} invalid line{} in {}",
            if bad == 1 { "" } else { "s" },
            input.name
        );
        return Ok(ExitCode::from(EXIT_BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}

/// `what` went wrong with a puzzle `line` for `board`; if the line holds a number of tiles
/// that fits another board, says which (`8 tiles fit a 2x4 board: add --board 2x4`), and
/// the 15-puzzle points to `--board 4x4`, and a count no table holds points to the search.
pub(crate) fn with_board_hint(board: Board, line: &[u8], what: String) -> String {
    let tiles = count_tiles(line);
    if tiles == board.cells() || tiles < 4 {
        return what;
    }
    // The first error may be a tile out of range; the count is what matters here.
    let what = if what.starts_with("expected ") {
        what
    } else {
        format!("expected {} tiles, found {tiles}", board.cells())
    };
    // The squarest first: 3x4 before 2x6.
    let mut shapes: Vec<(usize, usize)> = (2..=tiles / 2)
        .filter(|r| tiles.is_multiple_of(*r) && tiles / r >= 2)
        .map(|r| (r, tiles / r))
        .collect();
    shapes.sort_by_key(|&(r, c)| (r.abs_diff(c), r));
    let fits: Vec<String> = shapes.iter().map(|(r, c)| format!("{r}x{c}")).collect();
    let Some(first) = fits.first() else {
        return what;
    };
    let fits = match fits.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => first.clone(),
    };
    if tiles <= slidetable_core::MAX_TABLE_CELLS {
        format!("{what}: {tiles} tiles fit a {fits} board (add --board {first})")
    } else if tiles == 16 {
        format!(
            "{what}: 16 tiles are the 15-puzzle (add --board 4x4: IDA* on a pattern database \
             answers it)"
        )
    } else if tiles <= slidetable_core::MAX_CELLS {
        format!(
            "{what}: {tiles} tiles fit a {fits} board, beyond the tables' {} cells: \
             `slidetable search --board {first}` solves it by search",
            slidetable_core::MAX_TABLE_CELLS
        )
    } else {
        what
    }
}

/// The tiles a puzzle line holds: its tokens (separated by spaces, tabs or commas), or the
/// characters of a single token.
fn count_tiles(line: &[u8]) -> usize {
    let tokens: Vec<&[u8]> = line
        .split(|&b| b == b' ' || b == b'\t' || b == b',' || b == b'\r')
        .filter(|t| !t.is_empty())
        .collect();
    match tokens[..] {
        [one] => one.len(),
        _ => tokens.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_another_length_names_the_boards_it_fits() {
        let hint = |line: &str| with_board_hint(Board::EIGHT, line.as_bytes(), "x".into());
        assert_eq!(
            hint("1 2 3 4 5 6 7 0"),
            "expected 9 tiles, found 8: 8 tiles fit a 2x4 or 4x2 board (add --board 2x4)"
        );
        assert!(hint("1 2 3 4 5 6 7 8 9 10 11 0")
            .ends_with("12 tiles fit a 3x4, 4x3, 2x6 or 6x2 board (add --board 3x4)"));
        assert!(hint("1234567x").contains("--board 2x4"));
        assert!(hint("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").ends_with(
            "16 tiles are the 15-puzzle (add --board 4x4: IDA* on a pattern database answers it)"
        ));
        assert!(hint("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0")
            .ends_with("`slidetable search --board 3x5` solves it by search"));
        // A prime count fits no board; the right count is left alone.
        assert_eq!(hint("1 2 3 4 5 6 0"), "expected 9 tiles, found 7");
        assert_eq!(hint("1 2 3 4 5 6 7 8 8"), "x");
    }
}
