//! `distance` and `path`: one answer line per puzzle line (or one JSON object, or drawn
//! boards), streamed.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable_core::{is_blank_or_comment, parse_layout, Board, Layout, Move};
use slidetable_query::Goal;

use crate::cli::BatchArgs;
use crate::input::{self, Lines, MAX_LINE};
use crate::json::{self, Record};
use crate::{show, tables, UsageError, EXIT_BAD_INPUT};

/// What to print for each puzzle.
#[derive(Clone, Copy)]
pub enum Answer {
    Distance,
    /// Any optimal path: the stored first moves.
    Path,
    /// The smallest optimal path under a letter order.
    OrderedPath([Move; 4]),
}

/// How to print each answer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// One line: a number, a move string, `-1` or `unsolvable`.
    Text,
    /// One JSON object per line (`--json`).
    Json,
    /// The boards of the solution drawn one after another (`path --show`).
    Show,
}

pub fn run(args: &BatchArgs, answer: Answer, show: bool) -> Result<ExitCode> {
    let output = match (args.json, show) {
        (true, _) => Output::Json,
        (false, true) => Output::Show,
        (false, false) => Output::Text,
    };
    if crate::pdb::wanted(args)? {
        return crate::pdb::batch(args, answer, show);
    }
    let table = tables::open_for_board(args.table.as_deref(), args.board)?;
    let board = table.board();
    let goal = match &args.goal {
        None => table.standard()?,
        Some(text) => {
            let layout = parse_layout(board, text.as_bytes())
                .map_err(|e| UsageError(format!("--goal '{text}': {e}")))?;
            table.goal(&layout)?
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut scratch = Scratch::default();
    each_puzzle(
        args.input.as_deref(),
        board,
        args.keep_going,
        &mut out,
        |layout, _, out| {
            scratch
                .answer(&goal, layout, answer, output, out)
                .with_context(|| match table.file_path() {
                    Some(p) => format!("table {}", p.display()),
                    None => "table".to_string(),
                })
        },
        |line, what, out| match output {
            Output::Json => json::bad_line(out, line, what),
            _ => out.write_all(b"invalid\n"),
        },
    )
}

/// The loop every batch command shares: reads puzzles for `board` line by line from `input`
/// (a file, or standard input for `None`/`-`), streamed, skipping blank and `#` lines, and
/// calls `answer` for each (with its line number) to write one line to `out`. A bad line stops
/// the run with `line N: …` on stderr and exit 65 after every earlier answer is flushed; with
/// `keep_going`, `invalid` writes the bad line's answer, each problem is reported, and the
/// exit code is 65 at the end.
pub fn each_puzzle<W: Write>(
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

/// Buffers reused from one answer to the next: no allocation per puzzle.
#[derive(Default)]
struct Scratch {
    path: Vec<Move>,
    text: Vec<u8>,
    number: itoa::Buffer,
}

impl Scratch {
    fn answer(
        &mut self,
        goal: &Goal<'_>,
        layout: &slidetable_core::Layout,
        answer: Answer,
        output: Output,
        out: &mut impl Write,
    ) -> Result<()> {
        self.text.clear();
        if output != Output::Text {
            let distance = match answer {
                Answer::Distance => goal.distance(layout)?,
                _ => self
                    .path(goal, layout, answer)?
                    .then_some(self.path.len() as u32),
            };
            let found = distance.is_some();
            if output == Output::Show {
                show::draw(&mut self.text, layout, found.then_some(&self.path[..]));
            } else {
                let puzzle = layout.to_string();
                let path: String = self.path.iter().map(|m| m.letter()).collect();
                let record = Record {
                    puzzle: &puzzle,
                    distance,
                    path: match answer {
                        Answer::Distance => None,
                        _ => Some(found.then_some(&path[..])),
                    },
                    solvable: found,
                    ..Record::default()
                };
                json::line(&mut self.text, &record);
            }
            out.write_all(&self.text)?;
            return Ok(());
        }
        match answer {
            Answer::Distance => match goal.distance(layout)? {
                Some(d) => self
                    .text
                    .extend_from_slice(self.number.format(d).as_bytes()),
                None => self.text.extend_from_slice(b"-1"),
            },
            Answer::Path | Answer::OrderedPath(_) => {
                if self.path(goal, layout, answer)? {
                    self.text.extend(self.path.iter().map(|m| m.letter() as u8));
                } else {
                    self.text.extend_from_slice(b"unsolvable");
                }
            }
        }
        self.text.push(b'\n');
        out.write_all(&self.text)?;
        Ok(())
    }

    /// Puts the path `answer` asks for in `self.path`; false if there is none.
    fn path(&mut self, goal: &Goal<'_>, layout: &Layout, answer: Answer) -> Result<bool> {
        self.path.clear();
        Ok(match answer {
            Answer::OrderedPath(order) => goal.ordered_path_into(layout, &order, &mut self.path)?,
            _ => goal.path_into(layout, &mut self.path)?,
        })
    }
}
