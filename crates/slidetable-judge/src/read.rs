//! Reading the judges' inputs: the whole input by lines or by tokens, always knowing the line
//! number, and the ways the problems write a puzzle. Every problem found is a [`Bad`]: the
//! line it is on and what is wrong.

use std::io::{self, BufRead};

use slidetable_core::lines::Lines;
use slidetable_core::{characters, is_space, parse_tile, Board, Layout, ParseError, Token};

/// A bad input: where, and what.
pub(crate) struct Bad {
    pub(crate) line: u64,
    pub(crate) what: String,
}

/// A [`Bad`] on `line`.
pub(crate) fn bad(line: u64, what: impl Into<String>) -> Bad {
    Bad {
        line,
        what: what.into(),
    }
}

/// How a puzzle read token by token writes its tiles.
#[derive(Clone, Copy)]
pub(crate) enum Tiles {
    /// One character per tile, tokens holding any number of them (`2 3 4`, `234`).
    Chars,
    /// One number per token (`10 11 0`).
    Numbers,
}

/// A puzzle written one character per tile (spaces anywhere): `2 3 4 1 5 x 7 6 8` or
/// `23415x768`; the blank is x, X or 0.
pub(crate) fn char_layout(board: Board, line: u64, text: &[u8]) -> Result<Layout, Bad> {
    let mut tiles = Vec::with_capacity(board.cells());
    for &c in text.iter().filter(|&&c| !is_space(c)) {
        tiles.push(tile(board, line, &[c])?);
    }
    Layout::new(board, &tiles).map_err(|e| bad(line, e.to_string()))
}

/// `[[1,2,3],[4,5,0]]`, or LeetCode's own example line `board = [[1,2,3],[4,5,0]]`; spaces
/// allowed anywhere, nothing else.
pub(crate) fn leetcode_board(board: Board, line: u64, text: &[u8]) -> Result<Layout, Bad> {
    let text = match trim(text).strip_prefix(b"board") {
        Some(rest) => match trim(rest).strip_prefix(b"=") {
            Some(value) => value,
            None => text,
        },
        None => text,
    };
    let shape = || {
        bad(
            line,
            format!(
                "expected a board like [[1,2,3],[4,5,0]], found '{}'",
                Token::new(trim(text))
            ),
        )
    };
    let s: Vec<u8> = text.iter().copied().filter(|&c| !is_space(c)).collect();
    let mut at = 0;
    let expect = |c: u8, at: &mut usize| {
        if s.get(*at) == Some(&c) {
            *at += 1;
            Ok(())
        } else {
            Err(shape())
        }
    };
    let mut tiles = Vec::with_capacity(board.cells());
    expect(b'[', &mut at)?;
    for r in 0..board.rows() {
        if r > 0 {
            expect(b',', &mut at)?;
        }
        expect(b'[', &mut at)?;
        for c in 0..board.cols() {
            if c > 0 {
                expect(b',', &mut at)?;
            }
            let start = at;
            while s.get(at).is_some_and(|b| !matches!(b, b',' | b'[' | b']')) {
                at += 1;
            }
            if at == start {
                return Err(shape());
            }
            tiles.push(tile(board, line, &s[start..at])?);
        }
        expect(b']', &mut at)?;
    }
    expect(b']', &mut at)?;
    if at != s.len() {
        return Err(shape());
    }
    Layout::new(board, &tiles).map_err(|e| bad(line, e.to_string()))
}

/// Longer lines are refused rather than held: the same limit as the commands that read one
/// puzzle per line.
pub use slidetable_core::lines::MAX_LINE;

/// The input, streamed: read by lines or by tokens, one line held at a time (at most
/// [`MAX_LINE`] bytes), always knowing the line number.
pub(crate) struct Reader<R> {
    lines: Lines<R>,
    /// The line being read, without its line end.
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts.
    pos: usize,
    /// The end of the input was reached (or reading it failed).
    done: bool,
    /// Why reading failed, if it did: it ends the input, and [`Reader::take_error`] hands it
    /// over so the run reports it instead of what the early end caused.
    error: Option<io::Error>,
}

impl<R: BufRead> Reader<R> {
    pub(crate) fn new(inner: R) -> Reader<R> {
        Reader {
            lines: Lines::new(inner, MAX_LINE).dropping_byte_order_mark(),
            buf: Vec::with_capacity(256),
            pos: 0,
            done: false,
            error: None,
        }
    }

    /// The input's last line: where an unexpected end of the input is reported (line 1 for
    /// an empty input).
    pub(crate) fn last_line(&self) -> u64 {
        self.lines.number().max(1)
    }

    /// The read error that ended the input early, if one did.
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Reads the next line into `buf`; false at the end of the input. A line longer than
    /// [`MAX_LINE`] (its line end aside) is refused.
    fn read_line(&mut self) -> Result<bool, Bad> {
        self.buf.clear();
        self.pos = 0;
        if self.done {
            return Ok(false);
        }
        match self.lines.next_line() {
            Ok(Some(line)) => match line.text {
                Ok(text) => {
                    self.buf.extend_from_slice(text);
                    Ok(true)
                }
                Err(_) => Err(too_long(line.number)),
            },
            Ok(None) => {
                self.done = true;
                Ok(false)
            }
            Err(e) => {
                self.error = Some(e);
                self.done = true;
                Ok(false)
            }
        }
    }

    /// The next line that holds anything but whitespace (or the rest of the line being read
    /// by tokens, if anything is left of it), without its line end.
    pub(crate) fn next_nonblank_line(&mut self) -> Result<Option<(u64, &[u8])>, Bad> {
        if self.buf[self.pos..].iter().all(|&c| is_space(c)) {
            loop {
                if !self.read_line()? {
                    return Ok(None);
                }
                if self.buf.iter().any(|&c| !is_space(c)) {
                    break;
                }
            }
        }
        let start = self.pos;
        self.pos = self.buf.len();
        Ok(Some((self.lines.number(), &self.buf[start..])))
    }

    /// Whether only whitespace is left (skipping it, a line at a time).
    pub(crate) fn at_end(&mut self) -> Result<bool, Bad> {
        loop {
            while self.buf.get(self.pos).is_some_and(|&c| is_space(c)) {
                self.pos += 1;
            }
            if self.pos < self.buf.len() {
                return Ok(false);
            }
            if !self.read_line()? {
                return Ok(true);
            }
        }
    }

    /// The next whitespace-separated token and its line.
    fn next_token(&mut self) -> Result<Option<(u64, &[u8])>, Bad> {
        loop {
            while self.buf.get(self.pos).is_some_and(|&c| is_space(c)) {
                self.pos += 1;
            }
            if self.pos < self.buf.len() {
                break;
            }
            if !self.read_line()? {
                return Ok(None);
            }
        }
        let start = self.pos;
        while self.buf.get(self.pos).is_some_and(|&c| !is_space(c)) {
            self.pos += 1;
        }
        Ok(Some((self.lines.number(), &self.buf[start..self.pos])))
    }

    /// Fails if anything but whitespace follows.
    pub(crate) fn expect_end(&mut self, after: &str) -> Result<(), Bad> {
        match self.next_token()? {
            None => Ok(()),
            Some((line, token)) => Err(bad(
                line,
                format!("unexpected '{}' after {after}", Token::new(token)),
            )),
        }
    }

    /// One puzzle of `tiles`-style tokens spread over any whitespace (POJ style, or the
    /// pair format's integers); `what` names the puzzle in errors (`start`, `goal`).
    pub(crate) fn puzzle(
        &mut self,
        board: Board,
        tiles: Tiles,
        what: Option<&str>,
    ) -> Result<Layout, Bad> {
        let mut found = Vec::with_capacity(board.cells());
        let mut first = None;
        while found.len() < board.cells() {
            let Some((line, token)) = self.next_token()? else {
                return Err(bad(
                    self.last_line(),
                    format!(
                        "expected {} tiles{}, found {} before the end of the input",
                        board.cells(),
                        what.map_or(String::new(), |w| format!(" for the {w}")),
                        found.len()
                    ),
                ));
            };
            first.get_or_insert(line);
            match tiles {
                Tiles::Chars => {
                    for c in characters(token) {
                        if found.len() == board.cells() {
                            return Err(bad(
                                line,
                                format!("unexpected '{}' after the puzzle", Token::new(c)),
                            ));
                        }
                        found.push(tile(board, line, c)?);
                    }
                }
                Tiles::Numbers => found.push(tile(board, line, token)?),
            }
        }
        Layout::new(board, &found).map_err(|e| {
            let line = first.unwrap_or(self.last_line());
            match what {
                None => bad(line, e.to_string()),
                Some(what) => bad(line, format!("{what}: {e}")),
            }
        })
    }

    /// A case count alone on its line.
    pub(crate) fn count(&mut self) -> Result<u64, Bad> {
        let Some((line, text)) = self.next_nonblank_line()? else {
            return Err(bad(
                self.last_line(),
                "expected the number of cases, found the end of the input",
            ));
        };
        let token = trim(text);
        Some(token)
            .filter(|t| t.iter().all(u8::is_ascii_digit))
            .and_then(|t| std::str::from_utf8(t).ok())
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| {
                bad(
                    line,
                    format!(
                        "expected the number of cases, found '{}'",
                        Token::new(token)
                    ),
                )
            })
    }

    /// Puzzle `k` of `count` as rows of integers, one row per line.
    pub(crate) fn grid(&mut self, board: Board, k: u64, count: u64) -> Result<Layout, Bad> {
        let mut tiles = Vec::with_capacity(board.cells());
        let mut first = None;
        for row in 0..board.rows() {
            let Some((line, text)) = self.next_nonblank_line()? else {
                return Err(bad(
                    self.last_line(),
                    format!(
                        "expected puzzle {k} of {count} (row {} of {}), found the end of the input",
                        row + 1,
                        board.rows()
                    ),
                ));
            };
            first.get_or_insert(line);
            let tokens: Vec<&[u8]> = text
                .split(|&c| is_space(c))
                .filter(|t| !t.is_empty())
                .collect();
            if tokens.len() != board.cols() {
                return Err(bad(
                    line,
                    format!(
                        "expected {} numbers in row {} of puzzle {k}, found {}",
                        board.cols(),
                        row + 1,
                        tokens.len()
                    ),
                ));
            }
            for t in tokens {
                tiles.push(tile(board, line, t)?);
            }
        }
        Layout::new(board, &tiles).map_err(|e| {
            bad(
                first.unwrap_or(self.last_line()),
                format!("puzzle {k}: {e}"),
            )
        })
    }
}

/// A line over [`MAX_LINE`] bytes.
fn too_long(line: u64) -> Bad {
    bad(
        line,
        format!("line is longer than {MAX_LINE} bytes; at most {MAX_LINE} are read"),
    )
}

/// One tile token, its error placed on `line`. Inlined: it runs once per tile of every
/// puzzle, and as a call `judge hdu` took 7% more instructions (callgrind).
#[inline]
fn tile(board: Board, line: u64, token: &[u8]) -> Result<u8, Bad> {
    parse_tile(board, token).map_err(|e: ParseError| bad(line, e.to_string()))
}

fn trim(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&c| !is_space(c))
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&c| !is_space(c))
        .map_or(start, |e| e + 1);
    &text[start..end]
}
