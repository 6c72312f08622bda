//! Reading the judges' inputs: the whole input by lines or by tokens, always knowing the line
//! number, and the ways the problems write a puzzle. Every problem found is a [`Bad`]: the
//! line it is on and what is wrong.

use slidetable_core::{parse_tile, Board, Layout, ParseError, Token};

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
    for &c in text.iter().filter(|c| !c.is_ascii_whitespace()) {
        tiles.push(tile(board, line, &[c])?);
    }
    Layout::new(board, &tiles).map_err(|e| bad(line, e.to_string()))
}

/// `[[1,2,3],[4,5,0]]`, spaces allowed anywhere, nothing else.
pub(crate) fn leetcode_board(board: Board, line: u64, text: &[u8]) -> Result<Layout, Bad> {
    let shape = || {
        bad(
            line,
            format!(
                "expected a board like [[1,2,3],[4,5,0]], found '{}'",
                Token::new(trim(text))
            ),
        )
    };
    let s: Vec<u8> = text
        .iter()
        .copied()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
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

/// The whole input, read by lines or by tokens, always knowing the line number.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// The line `pos` is on, from 1.
    line: u64,
    /// The line of the last line or token returned.
    last: u64,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Reader<'a> {
        Reader {
            data,
            pos: 0,
            line: 1,
            last: 1,
        }
    }

    /// The line of the last thing read (1 before anything): where an unexpected end of
    /// the input is reported, whatever blank lines follow it.
    pub(crate) fn last_line(&self) -> u64 {
        self.last
    }

    /// The next line that holds anything but whitespace, without its line end.
    pub(crate) fn next_nonblank_line(&mut self) -> Option<(u64, &'a [u8])> {
        while self.pos < self.data.len() {
            let rest = &self.data[self.pos..];
            let (text, used, newline) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], i + 1, true),
                None => (rest, rest.len(), false),
            };
            let line = self.line;
            self.pos += used;
            if newline {
                self.line += 1;
            }
            if text.iter().any(|c| !c.is_ascii_whitespace()) {
                self.last = line;
                return Some((line, text));
            }
        }
        None
    }

    /// The next whitespace-separated token and its line.
    fn next_token(&mut self) -> Option<(u64, &'a [u8])> {
        while self.pos < self.data.len() && self.data[self.pos].is_ascii_whitespace() {
            if self.data[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos == self.data.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < self.data.len() && !self.data[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.last = self.line;
        Some((self.line, &self.data[start..self.pos]))
    }

    /// Fails if anything but whitespace follows.
    pub(crate) fn expect_end(&mut self, after: &str) -> Result<(), Bad> {
        match self.next_token() {
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
        let mut last = self.line;
        while found.len() < board.cells() {
            let Some((line, token)) = self.next_token() else {
                return Err(bad(
                    last,
                    format!(
                        "expected {} tiles{}, found {} before the end of the input",
                        board.cells(),
                        what.map_or(String::new(), |w| format!(" for the {w}")),
                        found.len()
                    ),
                ));
            };
            first.get_or_insert(line);
            last = line;
            match tiles {
                Tiles::Chars => {
                    for &c in token {
                        if found.len() == board.cells() {
                            return Err(bad(
                                line,
                                format!("unexpected '{}' after the puzzle", c.escape_ascii()),
                            ));
                        }
                        found.push(tile(board, line, &[c])?);
                    }
                }
                Tiles::Numbers => found.push(tile(board, line, token)?),
            }
        }
        Layout::new(board, &found).map_err(|e| {
            let line = first.unwrap_or(self.line);
            match what {
                None => bad(line, e.to_string()),
                Some(what) => bad(line, format!("{what}: {e}")),
            }
        })
    }

    /// A case count alone on its line.
    pub(crate) fn count(&mut self) -> Result<u64, Bad> {
        let Some((line, text)) = self.next_nonblank_line() else {
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
            let Some((line, text)) = self.next_nonblank_line() else {
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
                .split(|c| c.is_ascii_whitespace())
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
        Layout::new(board, &tiles)
            .map_err(|e| bad(first.unwrap_or(self.line), format!("puzzle {k}: {e}")))
    }
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
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &text[start..end]
}
