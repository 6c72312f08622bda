//! Puzzles from the user: a `--goal` argument, and the puzzle lines every batch command reads.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable::core::{
    counted, is_blank_or_comment, lines, parse_layout, parse_spaced_packed, Board, Layout,
};
use slidetable::puzzles::{parse_line, BoardHint, PuzzleError};

use crate::error::{UsageError, EXIT_BAD_INPUT};
use crate::input;
use crate::streams::warning;
use slidetable::core::lines::{Lines, MAX_LINE};

/// The layout a `--goal` argument names on `board`; a bad one is a usage error.
pub(crate) fn parse_goal(board: Board, text: &str) -> Result<Layout, UsageError> {
    parse_layout(board, text.as_bytes()).map_err(|e| UsageError(format!("--goal '{text}': {e}")))
}

/// The loop every batch command shares: reads puzzles for `board` line by line from each of
/// `inputs` in turn (files, `-` for standard input; none: standard input), streamed,
/// skipping blank and `#` lines, and
/// calls `answer` for each (with where it was read: [`LineOf`]) to write one line to `out`. A
/// bad line stops the run with `FILE: line N: …` on stderr and exit 65 after every earlier answer is flushed; with
/// `keep_going`, `invalid` writes the bad line's answer, each problem is reported, and the
/// exit code is 65 at the end.
// Inlined into each command, as when it lived beside `distance` and `path`: as a call,
// `distance` on 100,000 lines took 3% more instructions (callgrind).
#[inline]
pub(crate) fn each_puzzle<W: Write>(
    inputs: &[PathBuf],
    reading: impl Into<Reading>,
    keep_going: bool,
    out: &mut W,
    mut answer: impl FnMut(&Layout, LineOf<'_>, &mut W) -> Result<()>,
    mut invalid: impl FnMut(u64, &str, &mut W) -> io::Result<()>,
) -> Result<ExitCode> {
    let reading = reading.into();
    each_input(inputs, keep_going, |input| {
        let mut puzzles = PuzzleLines::open(input, reading)?;
        let mut bad = BadLines::new(keep_going);
        while let Some((number, puzzle)) = puzzles.next()? {
            match puzzle {
                Ok(layout) => answer(&layout, puzzles.line(number), out)?,
                Err(what) => {
                    let at = puzzles.line(number);
                    if let Some(stop) = bad.report(at, &what, out, &mut invalid)? {
                        return Ok(stop);
                    }
                }
            }
        }
        bad.end(puzzles.name(), out)
    })
}

/// [`each_puzzle`] a block at a time, for answers given together ([`Lockstep`]): the
/// puzzles in [`Layout::packed`] form with their blank's cell, up to [`CHUNK`] at a time,
/// the commonest spelling read straight from the input's bytes ([`PuzzleLines::spaced_into`]),
/// any other through [`PuzzleLines::next`]; `answer` writes the answers of each block in
/// input order. Every block is answered before a bad line (or a read error) after it is
/// reported, so the output and the messages come as from [`each_puzzle`].
///
/// [`Lockstep`]: slidetable::query::Lockstep
pub(crate) fn each_block<W: Write>(
    inputs: &[PathBuf],
    reading: impl Into<Reading>,
    keep_going: bool,
    out: &mut W,
    mut answer: impl FnMut(&[(u64, usize)], &mut W) -> Result<()>,
    mut invalid: impl FnMut(u64, &str, &mut W) -> io::Result<()>,
) -> Result<ExitCode> {
    let mut starts = Vec::with_capacity(CHUNK);
    let reading = reading.into();
    each_input(inputs, keep_going, |input| {
        let mut puzzles = PuzzleLines::open(input, reading)?;
        let mut bad = BadLines::new(keep_going);
        loop {
            starts.clear();
            // What ends the block early: the input's end, or a bad line.
            let mut stop = None;
            while starts.len() < CHUNK {
                puzzles.spaced_into(&mut starts, CHUNK);
                if starts.len() == CHUNK {
                    break;
                }
                match puzzles.next() {
                    Ok(Some((_, Ok(layout)))) => starts.push((layout.packed(), layout.blank())),
                    Ok(Some((number, Err(what)))) => {
                        stop = Some(Some((number, what)));
                        break;
                    }
                    Ok(None) => {
                        stop = Some(None);
                        break;
                    }
                    Err(e) => {
                        if !starts.is_empty() {
                            answer(&starts, out)?;
                        }
                        return Err(e);
                    }
                }
            }
            if !starts.is_empty() {
                answer(&starts, out)?;
            }
            match stop {
                None => {}
                Some(None) => break,
                Some(Some((number, what))) => {
                    let at = puzzles.line(number);
                    if let Some(stop) = bad.report(at, &what, out, &mut invalid)? {
                        return Ok(stop);
                    }
                }
            }
        }
        bad.end(puzzles.name(), out)
    })
}

/// Puzzles read and answered at a time by [`each_chunk`] and [`each_block`].
const CHUNK: usize = 256;

/// [`each_puzzle`] a chunk at a time, for answers found on every core: reads up to [`CHUNK`]
/// puzzles (parse errors without [`with_board_hint`]'s advice, as the 15-puzzle gives
/// them), `solve` answers the chunk's puzzles (in their order), and `answer` writes each
/// answer in input order (with where its puzzle was read, for a message about it); bad
/// lines as in [`each_puzzle`].
pub(crate) fn each_chunk<W: Write, A>(
    inputs: &[PathBuf],
    board: Board,
    keep_going: bool,
    out: &mut W,
    mut solve: impl FnMut(&[Layout]) -> Result<Vec<A>>,
    mut answer: impl FnMut(&Layout, A, LineOf<'_>, &mut W) -> Result<()>,
    mut invalid: impl FnMut(u64, &str, &mut W) -> io::Result<()>,
) -> Result<ExitCode> {
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut layouts = Vec::with_capacity(CHUNK);
    each_input(inputs, keep_going, |input| {
        let mut puzzles = PuzzleLines::open(input, board)?.without_hints();
        let mut bad = BadLines::new(keep_going);
        loop {
            chunk.clear();
            while chunk.len() < CHUNK {
                let Some(entry) = puzzles.next()? else { break };
                chunk.push(entry);
            }
            if chunk.is_empty() {
                break;
            }
            layouts.clear();
            layouts.extend(chunk.iter().filter_map(|(_, p)| p.as_ref().ok().copied()));
            let mut answers = solve(&layouts)?.into_iter();
            for (number, puzzle) in &chunk {
                match puzzle {
                    Ok(layout) => {
                        let found = answers.next().expect("an answer for each puzzle");
                        answer(layout, found, puzzles.line(*number), out)?;
                    }
                    Err(what) => {
                        let at = puzzles.line(*number);
                        if let Some(stop) = bad.report(at, what, out, &mut invalid)? {
                            return Ok(stop);
                        }
                    }
                }
            }
        }
        bad.end(puzzles.name(), out)
    })
}

/// Runs `each` on every one of `inputs` in turn (none: standard input, `-`); stops after the
/// first that does not succeed unless `keep_going`; the last such exit code, else success.
pub(crate) fn each_input(
    inputs: &[PathBuf],
    keep_going: bool,
    mut each: impl FnMut(&Path) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let standard_input = [PathBuf::from("-")];
    let inputs = if inputs.is_empty() {
        &standard_input[..]
    } else {
        inputs
    };
    let mut code = ExitCode::SUCCESS;
    for input in inputs {
        let done = each(input)?;
        if done != ExitCode::SUCCESS {
            code = done;
            if !keep_going {
                break;
            }
        }
    }
    Ok(code)
}

/// Where a puzzle line was read, as every message about one names it: `FILE: line N`
/// (`<stdin>: line N` for standard input).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineOf<'a> {
    /// The input's name in messages.
    pub(crate) input: &'a str,
    /// The line's number, from 1.
    pub(crate) number: u64,
}

impl fmt::Display for LineOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: line {}", self.input, self.number)
    }
}

/// The lines of one input that may hold a puzzle, on every board: blank and `#` lines
/// skipped, a byte-order mark at the start dropped, a line longer than [`MAX_LINE`] refused
/// by length.
pub(crate) struct InputLines {
    name: String,
    lines: Lines<Box<dyn BufRead>>,
}

impl InputLines {
    /// The lines of `path` (`-`: standard input).
    pub(crate) fn open(path: &Path) -> Result<InputLines> {
        let input = input::open(Some(path))?;
        Ok(InputLines {
            name: input.name,
            lines: Lines::new(input.reader, MAX_LINE).dropping_byte_order_mark(),
        })
    }

    /// The input's name in messages: its path, or `<stdin>`.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Line `number` of this input, for messages.
    pub(crate) fn line(&self, number: u64) -> LineOf<'_> {
        LineOf {
            input: &self.name,
            number,
        }
    }

    /// The next line that is neither blank nor a comment: its number and what `parse` makes
    /// of its bytes, or what is wrong with it (too long to read); `None` at the end of the
    /// input.
    #[inline(always)]
    pub(crate) fn next<T>(
        &mut self,
        parse: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> Result<Option<(u64, Result<T, String>)>> {
        while let Some(line) = self
            .lines
            .next_line()
            .with_context(|| format!("cannot read {}", self.name))?
        {
            return Ok(Some((
                line.number,
                match line.text {
                    Ok(text) if is_blank_or_comment(text) => continue,
                    Ok(text) => parse(text),
                    Err(len) => Err(format!(
                        "line is {len} bytes long; at most {MAX_LINE} are read"
                    )),
                },
            )));
        }
        Ok(None)
    }
}

/// The puzzle lines of one input ([`InputLines`]): every line a puzzle for the board or what
/// is wrong with it.
pub(crate) struct PuzzleLines {
    text: InputLines,
    board: Board,
    /// [`with_board_hint`]'s advice, `None` without it, else whether `--table` was given.
    hints: Option<bool>,
    /// Whether no puzzle line has been read yet: the first is looked at as a possible CSV
    /// header ([`PuzzleLines::note_a_header`]).
    first: bool,
}

/// How puzzle lines are read: for which board, and whether its table was named by `--table`
/// (a line that fits another board is then advised a table of that board, not `--board`
/// alone). A board alone is read as without `--table`.
#[derive(Clone, Copy)]
pub(crate) struct Reading {
    pub(crate) board: Board,
    pub(crate) table_given: bool,
}

impl From<Board> for Reading {
    fn from(board: Board) -> Reading {
        Reading {
            board,
            table_given: false,
        }
    }
}

impl PuzzleLines {
    /// The puzzle lines of `path` (`-`: standard input) as `reading` says.
    pub(crate) fn open(path: &Path, reading: impl Into<Reading>) -> Result<PuzzleLines> {
        let reading = reading.into();
        Ok(PuzzleLines {
            text: InputLines::open(path)?,
            board: reading.board,
            hints: Some(reading.table_given),
            first: true,
        })
    }

    /// Without [`with_board_hint`]'s advice on the board a line of another length fits (the
    /// 15-puzzle's answers give the parse error alone).
    pub(crate) fn without_hints(self) -> PuzzleLines {
        PuzzleLines {
            hints: None,
            ..self
        }
    }

    /// Appends to `starts`, until it holds `max`, the puzzles of the lines already read that
    /// are written the commonest way ([`parse_spaced_packed`]: one digit per tile, single
    /// spaces, a `\n` right after), in [`Layout::packed`] form with their blank's cell, read
    /// straight from the input's bytes; stops at the first line that is not (or not read
    /// whole yet), which [`PuzzleLines::next`] then reads.
    #[inline]
    pub(crate) fn spaced_into(&mut self, starts: &mut Vec<(u64, usize)>, max: usize) {
        let board = self.board;
        // A line and its end.
        let len = 2 * board.cells();
        let bytes = self.text.lines.buffered();
        let (mut at, mut lines) = (0, 0);
        while starts.len() < max {
            let Some(line) = bytes.get(at..at + len) else {
                break;
            };
            let Some((&b'\n', text)) = line.split_last() else {
                break;
            };
            let Some(start) = parse_spaced_packed(board, text) else {
                break;
            };
            starts.push(start);
            at += len;
            lines += 1;
        }
        if lines > 0 {
            self.first = false;
        }
        self.text.lines.consume(at, lines);
    }

    /// The input's name in messages: its path, or `<stdin>`.
    pub(crate) fn name(&self) -> &str {
        self.text.name()
    }

    /// Line `number` of this input, for messages.
    pub(crate) fn line(&self, number: u64) -> LineOf<'_> {
        self.text.line(number)
    }

    /// The next puzzle line: its number and its puzzle, or what is wrong with it; `None` at
    /// the end of the input.
    // Always inlined into the loops: as a call, `distance` on 100,000 lines took 5% more
    // instructions (callgrind).
    #[inline(always)]
    pub(crate) fn next(&mut self) -> Result<Option<(u64, Result<Layout, String>)>> {
        if self.first {
            return self.first_line();
        }
        let (board, hints) = (self.board, self.hints);
        self.text
            .next(|text| parse_line(board, text).map_err(|e| hint(&e, board, hints)))
    }

    /// [`PuzzleLines::next`] for the first puzzle line, looked at as a possible CSV header
    /// ([`PuzzleLines::note_a_header`]) and, when it is refused, as the start of a file in
    /// UTF-16; out of the loop's way.
    #[cold]
    #[inline(never)]
    fn first_line(&mut self) -> Result<Option<(u64, Result<Layout, String>)>> {
        self.first = false;
        let (board, hints) = (self.board, self.hints);
        let mut commas = false;
        let next = self.text.next(|text| {
            commas = text.contains(&b',');
            parse_line(board, text).map_err(|e| match lines::is_utf16(text) {
                true => format!(
                    "{e} (the input is UTF-16, by its first two bytes: save it as UTF-8, or \
                     convert it with iconv -f UTF-16 -t UTF-8)"
                ),
                false => hint(&e, board, hints),
            })
        })?;
        if let (true, Some((number, Ok(layout)))) = (commas, &next) {
            self.note_a_header(*number, layout);
        }
        Ok(next)
    }

    /// Notes the first puzzle line, comma-separated, when it is the tiles 0 1 2 … in order:
    /// what pandas writes as the header of a frame of tile columns (`df.to_csv(index=False)`).
    /// It is a puzzle too, so it is answered; the note says what its answer may be.
    #[cold]
    fn note_a_header(&self, number: u64, layout: &Layout) {
        // The tiles 0 1 2 … in order: the blank first, the others in reading order.
        if *layout != self.board.goal_with_blank(0) {
            return;
        }
        let cells = self.board.cells();
        let labels: Vec<String> = (0..cells).map(|i| i.to_string()).collect();
        warning!(
            "{}, {}, is answered as a puzzle; if it is a CSV header (pandas writes one so for \
             tile columns 0..{}), its answer is the first line of output: skip it (tail -n +2 \
             FILE)",
            self.line(number),
            labels.join(","),
            cells - 1
        );
    }
}

/// What is wrong with a puzzle line, with [`with_board_hint`]'s advice when `hints` asks for
/// it (`Some(table_given)`).
fn hint(error: &PuzzleError, board: Board, hints: Option<bool>) -> String {
    match hints {
        Some(table_given) => with_board_hint(error, board, table_given),
        None => error.to_string(),
    }
}

/// The bad lines of one input, as every batch command reports them.
pub(crate) struct BadLines {
    keep_going: bool,
    count: u64,
}

impl BadLines {
    /// None yet; with `keep_going`, bad lines are answered `invalid` and the run goes on.
    pub(crate) fn new(keep_going: bool) -> BadLines {
        BadLines {
            keep_going,
            count: 0,
        }
    }

    /// Bad line `at`, wrong for reason `what`: without `keep_going`, flushes every earlier
    /// answer, reports it and returns the exit code that stops the run (65); with it,
    /// `invalid` writes the line's answer, the line is reported and counted.
    pub(crate) fn report<W: Write>(
        &mut self,
        at: LineOf<'_>,
        what: &str,
        out: &mut W,
        invalid: impl FnOnce(u64, &str, &mut W) -> io::Result<()>,
    ) -> Result<Option<ExitCode>> {
        let report = format!("{at}: {what}");
        if !self.keep_going {
            out.flush()?;
            warning!("{report}");
            return Ok(Some(ExitCode::from(EXIT_BAD_INPUT)));
        }
        invalid(at.number, what, out)?;
        warning!("{report}");
        self.count += 1;
        Ok(None)
    }

    /// The end of the input named `input`: flushes the answers, reports how many lines were
    /// bad, and exits 65 if any was.
    pub(crate) fn end(self, input: &str, out: &mut impl Write) -> Result<ExitCode> {
        out.flush()?;
        let bad = self.count;
        if bad > 0 {
            warn_invalid_lines(bad, input);
            return Ok(ExitCode::from(EXIT_BAD_INPUT));
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The closing report of an input that had `bad` invalid lines (under `--keep-going`), as
/// every batch command gives it: `3 invalid lines in FILE`.
pub(crate) fn warn_invalid_lines(bad: u64, name: &str) {
    warning!("{} in {name}", counted(bad, "invalid line"));
}

/// What is wrong with a puzzle line read for `board`; if it holds a number of tiles that fits
/// another board, says which (`8 tiles fit a 2x4 board: add --board 2x4`; with `--table`
/// given, a table of that board), and the 15-puzzle points to `--board 4x4`, and a count no
/// table holds points to the search.
pub(crate) fn with_board_hint(error: &PuzzleError, board: Board, table_given: bool) -> String {
    let (PuzzleError::TileCount { found, .. }, Some(hint)) = (error, error.board_hint()) else {
        return error.to_string();
    };
    let names = |boards: &[Board]| -> (String, String) {
        let names: Vec<String> = boards.iter().map(Board::to_string).collect();
        (slidetable::core::one_of(&names), names[0].clone())
    };
    match hint {
        BoardHint::Table(boards) => {
            let (fits, first) = names(&boards);
            match table_given {
                true => format!(
                    "{error}: {found} tiles fit a {fits} board (the table is for {board} boards: \
                     give a {first} table, or --board {first} without --table)"
                ),
                false => format!("{error}: {found} tiles fit a {fits} board (add --board {first})"),
            }
        }
        BoardHint::Fifteen if table_given => format!(
            "{error}: 16 tiles are the 15-puzzle (the table is for {board} boards: give a 4x4 \
             pattern database, or --board 4x4 without --table)"
        ),
        BoardHint::Fifteen => format!(
            "{error}: 16 tiles are the 15-puzzle (add --board 4x4: IDA* on a pattern database \
             answers it)"
        ),
        BoardHint::Search(boards) => {
            let (fits, first) = names(&boards);
            format!(
                "{error}: {found} tiles fit a {fits} board, beyond the tables' {} cells: \
                 `slidetable search --board {first}` solves it by search",
                slidetable::core::MAX_TABLE_CELLS
            )
        }
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_another_length_names_the_boards_it_fits() {
        let hint = |line: &str| {
            with_board_hint(
                &parse_line(Board::EIGHT, line.as_bytes()).unwrap_err(),
                Board::EIGHT,
                false,
            )
        };
        assert_eq!(
            hint("1 2 3 4 5 6 7 0"),
            "expected 9 tiles, found 8: 8 tiles fit a 2x4 or 4x2 board (add --board 2x4)"
        );
        assert!(hint("1 2 3 4 5 6 7 8 9 10 11 0")
            .ends_with("12 tiles fit a 3x4, 4x3, 2x6 or 6x2 board (add --board 3x4)"));
        assert!(hint("1234567x").contains("--board 2x4"));
        // Not tiles: no board fits them (a byte 0xFF was counted as a fourth tile).
        let unknown = "unknown tile '\\xc3\\xbf' (tiles are 1..8, the blank is 0 or x)";
        assert_eq!(hint("1 2 3 \u{ff}"), unknown);
        assert_eq!(
            with_board_hint(
                &parse_line(Board::EIGHT, b"1 2 3 \xff").unwrap_err(),
                Board::EIGHT,
                true
            ),
            "unknown tile '\\xff' (tiles are 1..8, the blank is 0 or x)"
        );
        assert!(hint("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").ends_with(
            "16 tiles are the 15-puzzle (add --board 4x4: IDA* on a pattern database answers it)"
        ));
        assert!(hint("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0")
            .ends_with("`slidetable search --board 3x5` solves it by search"));
        // A prime count fits no board; the right count is left alone.
        assert_eq!(hint("1 2 3 4 5 6 0"), "expected 9 tiles, found 7");
        assert_eq!(hint("1 2 3 4 5 6 7 8 8"), "tile 8 appears twice");
    }
}
