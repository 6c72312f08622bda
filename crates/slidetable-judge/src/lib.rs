//! The input and output of classic judge problems about the 8-puzzle (and LeetCode 773's
//! 2×3 board): read exactly what an accepted solution reads, write exactly what it writes,
//! answering from a table with no search.
//!
//! This crate is the one place that knows the judges' formats; the `slidetable judge` command
//! only opens the table and the input and prints the errors. Any bytes are handled: bad input
//! is reported as the line it is on and what is wrong with it, never a panic (the fuzz target
//! `judge` and this crate's property tests feed it arbitrary bytes).
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::{solve_sections, table_bytes};
//! use slidetable_judge::{judge, Format, JudgeError};
//! use slidetable_query::Table;
//!
//! let board = Board::EIGHT;
//! let sections = solve_sections(&[board.standard_goal()]).unwrap();
//! let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
//!
//! let mut out = Vec::new();
//! judge(Format::Acwing845, b"2 3 4 1 5 x 7 6 8\n", &table, &mut out).unwrap();
//! assert_eq!(out, b"19\n");
//!
//! let err = judge(Format::Acwing845, b"2 3 4 1 5 x 7 6\n", &table, &mut Vec::new());
//! assert!(matches!(err, Err(JudgeError::Bad { line: 1, .. })));
//! ```

use std::io::{self, Write};

mod fifteen;

pub use fifteen::{judge_fifteen, Solve};

use slidetable_core::{parse_tile, Board, Layout, Move, ParseError, Token};
use slidetable_query::{Goal, QueryError, Table};

/// The judge problems whose input and output `judge` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// POJ 1077 / AcWing 179: one puzzle (1-8 and x); the move string or `unsolvable`.
    Poj,
    /// HDU 1043: puzzles until end of input, one per line; a move string or `unsolvable` each.
    Hdu,
    /// AcWing 845: one puzzle as in poj; the fewest moves, or -1.
    Acwing845,
    /// HihoCoder 1312: t, then t 3x3 grids (0 blank); moves or `No Solution!` each.
    Hiho,
    /// Start then goal, 9 integers each (0 blank); the fewest moves, or -1.
    Pair,
    /// Luogu P1379: one 9-digit string (0 blank), goal 123804765; the fewest moves.
    Luogu,
    /// HDU 3567 "Eight II": T, then T start/goal line pairs (X blank); `Case k: n` and the
    /// smallest optimal path in the order d < l < r < u.
    Hdu3567,
    /// UVa 10085: count, then 3x3 grids (0 blank); a farthest state and the path to it.
    Uva10085,
    /// LeetCode 773: one 2x3 board per line, `[[4,1,2],[5,0,3]]`; the fewest moves, or -1.
    Leetcode773,
    /// UVa 10181 (15-puzzle): N, then N 4x4 grids (0 blank); an optimal move string in LRUD
    /// or `This puzzle is not solvable.` (answered by search: see [`judge_fifteen`]).
    Uva10181,
    /// LightOJ 1121 (15-puzzle): T, then T grids; `Case k: ` and the smallest optimal move
    /// string, or `This puzzle is not solvable.` beyond 35 moves (see [`judge_fifteen`]).
    Lightoj1121,
}

impl Format {
    /// Every format, in the order of the command line's help.
    pub const ALL: [Format; 11] = [
        Format::Poj,
        Format::Hdu,
        Format::Acwing845,
        Format::Hiho,
        Format::Pair,
        Format::Luogu,
        Format::Hdu3567,
        Format::Uva10085,
        Format::Leetcode773,
        Format::Uva10181,
        Format::Lightoj1121,
    ];

    /// The name the command line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Poj => "poj",
            Format::Hdu => "hdu",
            Format::Acwing845 => "acwing845",
            Format::Hiho => "hiho",
            Format::Pair => "pair",
            Format::Luogu => "luogu",
            Format::Hdu3567 => "hdu3567",
            Format::Uva10085 => "uva10085",
            Format::Leetcode773 => "leetcode773",
            Format::Uva10181 => "uva10181",
            Format::Lightoj1121 => "lightoj1121",
        }
    }

    /// The board its puzzles are on, and so the table it needs: 2×3 for LeetCode 773, 4×4
    /// for the 15-puzzle judges, 3×3 for every other.
    pub fn board(self) -> Board {
        match self {
            Format::Leetcode773 => Board::new(2, 3).expect("2x3 is a board"),
            Format::Uva10181 | Format::Lightoj1121 => Board::new(4, 4).expect("4x4 is a board"),
            _ => Board::EIGHT,
        }
    }
}

/// Why a judge run stopped. Every answer before the problem has been written to `out`.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The input is not what the problem promises.
    #[error("line {line}: {what}")]
    Bad {
        /// The line the problem is on, from 1.
        line: u64,
        /// What is wrong, on one line, with any unprintable byte escaped.
        what: String,
    },
    /// Writing an answer failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The table cannot answer: a table for another board, or a corrupt one.
    #[error(transparent)]
    Query(#[from] QueryError),
}

/// Reads `input` as `format` reads it and writes the answers to `out`, from `table`, which
/// must be for [`Format::board`]. Stops at the first bad input, after every earlier answer.
pub fn judge<D: AsRef<[u8]>>(
    format: Format,
    input: &[u8],
    table: &Table<D>,
    out: &mut impl Write,
) -> Result<(), JudgeError> {
    if table.board() != format.board() {
        return Err(QueryError::WrongBoard {
            table: table.board(),
            found: format.board(),
        }
        .into());
    }
    Judge {
        table,
        input: Reader::new(input),
        out,
        path: Vec::with_capacity(64),
    }
    .run(format)
}

/// A bad input: where, and what.
struct Bad {
    line: u64,
    what: String,
}

fn bad(line: u64, what: impl Into<String>) -> Bad {
    Bad {
        line,
        what: what.into(),
    }
}

type Judged = Result<(), Bad>;

impl From<Bad> for JudgeError {
    fn from(b: Bad) -> JudgeError {
        JudgeError::Bad {
            line: b.line,
            what: b.what,
        }
    }
}

/// u < d < l < r: the order a breadth-first search expanding u, d, l, r finds paths in, and
/// the one that reproduces POJ 1077's sample answer.
const UDLR: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];
/// d < l < r < u: HDU 3567's required order.
const DLRU: [Move; 4] = [Move::Down, Move::Left, Move::Right, Move::Up];

struct Judge<'a, W: Write, D: AsRef<[u8]>> {
    table: &'a Table<D>,
    input: Reader<'a>,
    out: &'a mut W,
    path: Vec<Move>,
}

impl<W: Write, D: AsRef<[u8]>> Judge<'_, W, D> {
    fn run(&mut self, format: Format) -> Result<(), JudgeError> {
        let board = self.table.board();
        let standard = self.table.standard()?;
        match format {
            Format::Poj | Format::Acwing845 | Format::Luogu => {
                let start = self.input.char_puzzle(board)?;
                self.input
                    .expect_end("the puzzle (this format reads one puzzle)")?;
                match format {
                    Format::Poj => {
                        self.write_path(&standard, &start, &UDLR, "unsolvable", false)?
                    }
                    Format::Acwing845 => self.write_distance(&standard, &start, "-1")?,
                    _ => {
                        let goal = Layout::new(board, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).expect("goal");
                        let goal = self.table.goal(&goal)?;
                        self.write_distance(&goal, &start, "-1")?;
                    }
                }
            }
            Format::Hdu => {
                while let Some((line, text)) = self.input.next_nonblank_line() {
                    let start = char_layout(board, line, text)?;
                    self.write_path(&standard, &start, &UDLR, "unsolvable", false)?;
                }
            }
            Format::Hiho | Format::Uva10085 => {
                let count = self.input.count()?;
                for k in 1..=count {
                    let start = self.input.grid(board, k, count)?;
                    if format == Format::Hiho {
                        self.write_distance(&standard, &start, "No Solution!")?;
                    } else {
                        self.write_farthest(k, &start)?;
                    }
                }
                self.input
                    .expect_end(&format!("the {count} puzzles announced"))?;
            }
            Format::Pair => {
                let start = self.input.int_puzzle(board, "start")?;
                let goal = self.input.int_puzzle(board, "goal")?;
                self.input
                    .expect_end("the start and goal (this format reads one pair)")?;
                let goal = self.table.goal(&goal)?;
                self.write_distance(&goal, &start, "-1")?;
            }
            Format::Hdu3567 => {
                let count = self.input.count()?;
                for k in 1..=count {
                    let mut pair = [board.standard_goal(); 2];
                    for (i, what) in ["start", "goal"].into_iter().enumerate() {
                        let Some((line, text)) = self.input.next_nonblank_line() else {
                            return Err(bad(
                                self.input.last_line(),
                                format!("expected the {what} of case {k} of {count}, found the end of the input"),
                            )
                            .into());
                        };
                        pair[i] = char_layout(board, line, text)?;
                    }
                    let goal = self.table.goal(&pair[1])?;
                    self.path.clear();
                    let mut head = format!("Case {k}: ");
                    if goal.ordered_path_into(&pair[0], &DLRU, &mut self.path)? {
                        head += &self.path.len().to_string();
                        writeln!(self.out, "{head}")?;
                        self.write_moves(false)?;
                    } else {
                        writeln!(self.out, "{head}-1\nunsolvable")?;
                    }
                }
                self.input
                    .expect_end(&format!("the {count} cases announced"))?;
            }
            Format::Uva10181 | Format::Lightoj1121 => {
                // Answered by search (`judge_fifteen`), never from a table: `judge` has
                // refused every table already (none is for 4x4 boards).
                return Err(QueryError::WrongBoard {
                    table: self.table.board(),
                    found: format.board(),
                }
                .into());
            }
            Format::Leetcode773 => {
                while let Some((line, text)) = self.input.next_nonblank_line() {
                    let start = leetcode_board(board, line, text)?;
                    self.write_distance(&standard, &start, "-1")?;
                }
            }
        }
        Ok(())
    }

    fn write_distance(
        &mut self,
        goal: &Goal<'_>,
        start: &Layout,
        none: &str,
    ) -> Result<(), JudgeError> {
        match goal.distance(start)? {
            Some(d) => writeln!(self.out, "{d}")?,
            None => writeln!(self.out, "{none}")?,
        }
        Ok(())
    }

    fn write_path(
        &mut self,
        goal: &Goal<'_>,
        start: &Layout,
        order: &[Move; 4],
        none: &str,
        upper: bool,
    ) -> Result<(), JudgeError> {
        self.path.clear();
        if goal.ordered_path_into(start, order, &mut self.path)? {
            self.write_moves(upper)?;
        } else {
            writeln!(self.out, "{none}")?;
        }
        Ok(())
    }

    fn write_moves(&mut self, upper: bool) -> io::Result<()> {
        let mut text: Vec<u8> = self.path.iter().map(|m| m.letter() as u8).collect();
        if upper {
            text.make_ascii_uppercase();
        }
        text.push(b'\n');
        self.out.write_all(&text)
    }

    /// UVa 10085: of the states farthest from `start`, the one a breadth-first search from
    /// `start` expanding U, D, L, R reaches last — the one whose smallest optimal path in that
    /// order is largest — printed with that path, which is what the problem's sample shows.
    fn write_farthest(&mut self, k: u64, start: &Layout) -> Result<(), JudgeError> {
        let from_start = self.table.goal(start)?;
        let max = from_start.section().header().max_distance;
        let mut best: Option<(Vec<Move>, Layout)> = None;
        for far in from_start.layouts_at(max) {
            // Paths from `start` to `far`: ask the table about `far` as the goal.
            let to_far = self.table.goal(&far)?;
            let mut path = Vec::with_capacity(max as usize);
            to_far.ordered_path_into(start, &UDLR, &mut path)?;
            if best.as_ref().is_none_or(|(p, _)| path > *p) {
                best = Some((path, far));
            }
        }
        let (path, far) = best.expect("every section has states at its maximum distance");
        writeln!(self.out, "Puzzle #{k}")?;
        writeln!(self.out, "{}", far.grid())?;
        self.path = path;
        self.write_moves(true)?;
        writeln!(self.out)?;
        Ok(())
    }
}

/// A puzzle written one character per tile (spaces anywhere): `2 3 4 1 5 x 7 6 8` or
/// `23415x768`; the blank is x, X or 0.
fn char_layout(board: Board, line: u64, text: &[u8]) -> Result<Layout, Bad> {
    let mut tiles = Vec::with_capacity(board.cells());
    for &c in text.iter().filter(|c| !c.is_ascii_whitespace()) {
        tiles.push(parse_tile(board, &[c]).map_err(|e| bad(line, e.to_string()))?);
    }
    Layout::new(board, &tiles).map_err(|e| bad(line, e.to_string()))
}

/// `[[1,2,3],[4,5,0]]`, spaces allowed anywhere, nothing else.
fn leetcode_board(board: Board, line: u64, text: &[u8]) -> Result<Layout, Bad> {
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
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// The line `pos` is on, from 1.
    line: u64,
    /// The line of the last line or token returned.
    last: u64,
}

impl<'a> Reader<'a> {
    fn new(data: &'a [u8]) -> Reader<'a> {
        Reader {
            data,
            pos: 0,
            line: 1,
            last: 1,
        }
    }

    /// The line of the last thing read (1 before anything): where an unexpected end of
    /// the input is reported, whatever blank lines follow it.
    fn last_line(&self) -> u64 {
        self.last
    }

    /// The next line that holds anything but whitespace, without its line end.
    fn next_nonblank_line(&mut self) -> Option<(u64, &'a [u8])> {
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
    fn expect_end(&mut self, after: &str) -> Judged {
        match self.next_token() {
            None => Ok(()),
            Some((line, token)) => Err(bad(
                line,
                format!("unexpected '{}' after {after}", Token::new(token)),
            )),
        }
    }

    /// One puzzle of single-character tiles, spread over any whitespace (POJ style).
    fn char_puzzle(&mut self, board: Board) -> Result<Layout, Bad> {
        let mut tiles = Vec::with_capacity(board.cells());
        let mut first = None;
        let mut last = self.line;
        while tiles.len() < board.cells() {
            let Some((line, token)) = self.next_token() else {
                return Err(bad(
                    last,
                    format!(
                        "expected {} tiles, found {} before the end of the input",
                        board.cells(),
                        tiles.len()
                    ),
                ));
            };
            first.get_or_insert(line);
            last = line;
            for &c in token {
                if tiles.len() == board.cells() {
                    return Err(bad(
                        line,
                        format!("unexpected '{}' after the puzzle", c.escape_ascii()),
                    ));
                }
                tiles.push(parse_tile(board, &[c]).map_err(|e| bad(line, e.to_string()))?);
            }
        }
        Layout::new(board, &tiles).map_err(|e| bad(first.unwrap_or(self.line), e.to_string()))
    }

    /// One puzzle of integer tokens (pair format), naming which one it is in errors.
    fn int_puzzle(&mut self, board: Board, what: &str) -> Result<Layout, Bad> {
        let mut tiles = Vec::with_capacity(board.cells());
        let mut first = None;
        let mut last = self.line;
        while tiles.len() < board.cells() {
            let Some((line, token)) = self.next_token() else {
                return Err(bad(
                    last,
                    format!(
                        "expected {} tiles for the {what}, found {} before the end of the input",
                        board.cells(),
                        tiles.len()
                    ),
                ));
            };
            first.get_or_insert(line);
            last = line;
            tiles.push(tile(board, line, token)?);
        }
        Layout::new(board, &tiles)
            .map_err(|e| bad(first.unwrap_or(self.line), format!("{what}: {e}")))
    }

    /// A case count alone on its line.
    fn count(&mut self) -> Result<u64, Bad> {
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
    fn grid(&mut self, board: Board, k: u64, count: u64) -> Result<Layout, Bad> {
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
