//! `judge FORMAT`: read and write exactly what an accepted solution to a classic judge
//! problem reads and writes, answering from the table.

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::ValueEnum;
use slidetable_core::{parse_tile, Board, Layout, Move, ParseError, Token};
use slidetable_query::{Goal, MappedTable};

use crate::cli::JudgeArgs;
use crate::{tables, EXIT_BAD_INPUT};

/// The judge problems whose input and output `judge` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
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

type Judged = std::result::Result<(), Bad>;

/// u < d < l < r: the order a breadth-first search expanding u, d, l, r finds paths in, and
/// the one that reproduces POJ 1077's sample answer.
const UDLR: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];
/// d < l < r < u: HDU 3567's required order.
const DLRU: [Move; 4] = [Move::Down, Move::Left, Move::Right, Move::Up];

pub fn run(args: &JudgeArgs) -> Result<ExitCode> {
    let board = match args.format {
        Format::Leetcode773 => Board::new(2, 3).expect("2x3 is a board"),
        _ => Board::EIGHT,
    };
    let table = tables::open_for_query(args.table.as_deref(), board)?;
    tables::require_board(&table, board)?;
    let mut data = Vec::new();
    let name = match args.input.as_deref() {
        None => "<stdin>".to_string(),
        Some(p) if p.as_os_str() == "-" => "<stdin>".to_string(),
        Some(p) => p.display().to_string(),
    };
    if name == "<stdin>" {
        io::stdin().lock().read_to_end(&mut data)
    } else {
        std::fs::File::open(args.input.as_deref().expect("named"))
            .and_then(|mut f| f.read_to_end(&mut data))
    }
    .with_context(|| format!("cannot read {name}"))?;

    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut judge = Judge {
        table: &table,
        input: Reader::new(&data),
        out: &mut out,
        path: Vec::with_capacity(64),
    };
    let result = judge.run(args.format);
    out.flush()?;
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(Stop::Io(e)) => Err(e.into()),
        Err(Stop::Query(e)) => Err(e.into()),
        Err(Stop::Bad(b)) => {
            let format = args.format.to_possible_value().expect("named");
            eprintln!(
                "slidetable: judge {}: {name}: line {}: {}",
                format.get_name(),
                b.line,
                b.what
            );
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}

enum Stop {
    Bad(Bad),
    Io(io::Error),
    Query(slidetable_query::QueryError),
}

impl From<Bad> for Stop {
    fn from(b: Bad) -> Stop {
        Stop::Bad(b)
    }
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

impl From<slidetable_query::QueryError> for Stop {
    fn from(e: slidetable_query::QueryError) -> Stop {
        Stop::Query(e)
    }
}

struct Judge<'a, W: Write> {
    table: &'a MappedTable,
    input: Reader<'a>,
    out: &'a mut W,
    path: Vec<Move>,
}

impl<W: Write> Judge<'_, W> {
    fn run(&mut self, format: Format) -> std::result::Result<(), Stop> {
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
            Format::Leetcode773 => {
                while let Some((line, text)) = self.input.next_nonblank_line() {
                    let start = leetcode_board(board, line, text)?;
                    self.write_distance(&standard, &start, "-1")?;
                }
            }
        }
        Ok(())
    }

    fn write_distance(&mut self, goal: &Goal<'_>, start: &Layout, none: &str) -> io::Result<()> {
        match goal.distance(start).map_err(io::Error::other)? {
            Some(d) => writeln!(self.out, "{d}"),
            None => writeln!(self.out, "{none}"),
        }
    }

    fn write_path(
        &mut self,
        goal: &Goal<'_>,
        start: &Layout,
        order: &[Move; 4],
        none: &str,
        upper: bool,
    ) -> std::result::Result<(), Stop> {
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
    fn write_farthest(&mut self, k: u64, start: &Layout) -> std::result::Result<(), Stop> {
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
fn char_layout(board: Board, line: u64, text: &[u8]) -> std::result::Result<Layout, Bad> {
    let mut tiles = Vec::with_capacity(board.cells());
    for &c in text.iter().filter(|c| !c.is_ascii_whitespace()) {
        tiles.push(parse_tile(board, &[c]).map_err(|e| bad(line, e.to_string()))?);
    }
    Layout::new(board, &tiles).map_err(|e| bad(line, e.to_string()))
}

/// `[[1,2,3],[4,5,0]]`, spaces allowed anywhere, nothing else.
fn leetcode_board(board: Board, line: u64, text: &[u8]) -> std::result::Result<Layout, Bad> {
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
    fn char_puzzle(&mut self, board: Board) -> std::result::Result<Layout, Bad> {
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
    fn int_puzzle(&mut self, board: Board, what: &str) -> std::result::Result<Layout, Bad> {
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
    fn count(&mut self) -> std::result::Result<u64, Bad> {
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
    fn grid(&mut self, board: Board, k: u64, count: u64) -> std::result::Result<Layout, Bad> {
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

fn tile(board: Board, line: u64, token: &[u8]) -> std::result::Result<u8, Bad> {
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
