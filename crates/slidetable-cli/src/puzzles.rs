//! Puzzles from the user: a `--goal` argument, and the puzzle lines every batch command reads.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable_core::{is_blank_or_comment, parse_layout, Board, Layout};

use crate::error::{UsageError, EXIT_BAD_INPUT};
use crate::input::{self, Lines, MAX_LINE};

/// The layout a `--goal` argument names on `board`; a bad one is a usage error.
pub(crate) fn parse_goal(board: Board, text: &str) -> Result<Layout, UsageError> {
    parse_layout(board, text.as_bytes()).map_err(|e| UsageError(format!("--goal '{text}': {e}")))
}

/// The loop every batch command shares: reads puzzles for `board` line by line from `input`
/// (a file, or standard input for `None`/`-`), streamed, skipping blank and `#` lines, and
/// calls `answer` for each (with its line number) to write one line to `out`. A bad line stops
/// the run with `line N: …` on stderr and exit 65 after every earlier answer is flushed; with
/// `keep_going`, `invalid` writes the bad line's answer, each problem is reported, and the
/// exit code is 65 at the end.
// Inlined into each command, as when it lived beside `distance` and `path`: as a call,
// `distance` on 100,000 lines took 3% more instructions (callgrind).
#[inline]
pub(crate) fn each_puzzle<W: Write>(
    input: Option<&Path>,
    board: Board,
    keep_going: bool,
    out: &mut W,
    mut answer: impl FnMut(&Layout, u64, &mut W) -> Result<()>,
    mut invalid: impl FnMut(u64, &str, &mut W) -> io::Result<()>,
) -> Result<ExitCode> {
    let input = input::open(input)?;
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
                Err(e) => e.to_string(),
            },
            Err(len) => format!("line is {len} bytes long; at most {MAX_LINE} are read"),
        };
        let report = format!("{}: line {}: {what}", input.name, line.number);
        if !keep_going {
            out.flush()?;
            eprintln!("slidetable: {report}");
            return Ok(ExitCode::from(EXIT_BAD_INPUT));
        }
        invalid(line.number, &what, out)?;
        eprintln!("slidetable: {report}");
        bad += 1;
    }
    out.flush()?;
    if bad > 0 {
        eprintln!(
            "slidetable: {bad} invalid line{} in {}",
            if bad == 1 { "" } else { "s" },
            input.name
        );
        return Ok(ExitCode::from(EXIT_BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}
