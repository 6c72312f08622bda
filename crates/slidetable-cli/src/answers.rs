//! A table's answers to puzzles, written one line per puzzle line (or one JSON object, or
//! drawn boards), streamed: what `distance` and `path` print, and the one-state lines of
//! `hardest` and `random`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable_core::{path_string, Layout, Move};
use slidetable_query::{Goal, MappedTable};

use crate::cli::BatchArgs;
use crate::json::{self, Record};
use crate::puzzles::{each_puzzle, parse_goal};
use crate::{show, tables};

/// What to print for each puzzle.
#[derive(Clone, Copy)]
pub(crate) enum Answer {
    Distance,
    /// Any optimal path: the stored first moves.
    Path,
    /// The smallest optimal path under a letter order.
    OrderedPath([Move; 4]),
}

/// How to print each answer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// One line: a number, a move string, `-1` or `unsolvable`.
    Text,
    /// One JSON object per line (`--json`).
    Json,
    /// The boards of the solution drawn one after another (`path --show`).
    Show,
}

/// Answers every puzzle line of `args`' input from its table, as `answer` and `show` ask.
pub(crate) fn run(args: &BatchArgs, answer: Answer, show: bool) -> Result<ExitCode> {
    let output = match (args.json, show) {
        (true, _) => Output::Json,
        (false, true) => Output::Show,
        (false, false) => Output::Text,
    };
    if crate::patterns::wanted(args)? {
        return crate::patterns::batch(args, answer, show);
    }
    let table = tables::open_for_board(args.table.as_deref(), args.board)?;
    let board = table.board();
    let goal = match &args.goal {
        None => table.standard()?,
        Some(text) => table.goal(&parse_goal(board, text)?)?,
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
                .with_context(|| format!("table {}", tables::name(&table)))
        },
        |line, what, out| write_invalid(out, output == Output::Json, line, what),
    )
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
        layout: &Layout,
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
                let path = path_string(&self.path);
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

/// Writes the answer to a bad line under `--keep-going`: `invalid`, or with `--json`
/// `{"line": N, "error": …}`.
pub(crate) fn write_invalid(
    out: &mut impl Write,
    as_json: bool,
    line: u64,
    what: &str,
) -> io::Result<()> {
    if as_json {
        json::bad_line(out, line, what)
    } else {
        out.write_all(b"invalid\n")
    }
}

/// Writes one state of the table: tokens, a tab, its distance, a tab, an optimal path; or a
/// JSON object.
pub(crate) fn write_state(
    out: &mut impl Write,
    buf: &mut Vec<u8>,
    goal: &Goal<'_>,
    layout: &Layout,
    as_json: bool,
    table: &MappedTable,
) -> Result<()> {
    let path = goal
        .path(layout)
        .with_context(|| format!("table {}", tables::name(table)))?
        .expect("a state of the goal's class has a path");
    let path = path_string(&path);
    buf.clear();
    if as_json {
        let puzzle = layout.to_string();
        json::line(
            buf,
            &Record {
                puzzle: &puzzle,
                distance: Some(path.len() as u32),
                path: Some(Some(&path)),
                solvable: true,
                ..Record::default()
            },
        );
    } else {
        buf.extend_from_slice(format!("{layout}\t{}\t{path}\n", path.len()).as_bytes());
    }
    out.write_all(buf)?;
    Ok(())
}
