//! A table's answers to puzzles, written one line per puzzle line (or one JSON object, or
//! drawn boards), streamed: what `distance` and `path` print, and the one-state lines of
//! `hardest` and `random`.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable::core::{path_string, Layout, Move};
use slidetable::query::{CostModel, Goal, Lockstep, MappedTable, QueryError};

use crate::json::{self, Measure, Record};
use crate::puzzles::{each_block, each_puzzle};
use crate::resolved::{Answer, Batch, Output};
use crate::show::{self, Printed};
use crate::streams::{self, Sink};
use crate::tables;

/// Answers every puzzle line of `batch`'s input from `table`, its file (`batch::run` sends
/// pattern databases' batches to `patterns::batch` instead).
pub(crate) fn run(table: &MappedTable, batch: &Batch<'_>) -> Result<ExitCode> {
    let (answer, output) = (batch.answer, batch.output);
    let goal = tables::goal(table, batch.goal.as_ref())?;
    let mut out = streams::stdout();
    if output == Output::Text && matches!(answer, Answer::Distance | Answer::Path) {
        if let Some(lockstep) = goal.lockstep() {
            return in_blocks(table, &lockstep, batch, &mut out);
        }
    }
    let mut scratch = Scratch::default();
    if output == Output::Csv {
        let weighted = goal.section().cost() != CostModel::Unit;
        write_csv_header(&mut out, answer, Measure::of(weighted))?;
    }
    each_puzzle(
        batch.input,
        batch.reading(),
        batch.keep_going,
        &mut out,
        |layout, _, out| {
            scratch
                .answer(&goal, layout, answer, output, out)
                .with_context(|| format!("table {}", tables::name(table)))
        },
        |line, what, out| write_invalid_answer(out, answer, output, line, what),
    )
}

/// [`run`]'s plain answers (`distance` and `path` without `--json`, `--csv` or `--show`)
/// given a block of puzzles at a time by `lockstep`: the same text, written into the
/// output's buffer as it comes.
fn in_blocks(
    table: &MappedTable,
    lockstep: &Lockstep<'_>,
    batch: &Batch<'_>,
    out: &mut Sink<impl Write>,
) -> Result<ExitCode> {
    let answer = batch.answer;
    let mut values = Vec::new();
    let mut ends = Vec::new();
    let stopped =
        |e: QueryError| anyhow::Error::new(e).context(format!("table {}", tables::name(table)));
    each_block(
        batch.input,
        batch.reading(),
        batch.keep_going,
        out,
        |starts, out| match answer {
            Answer::Distance => {
                values.clear();
                let done = lockstep.distances(starts, &mut values);
                for value in &values {
                    let text = out.buffer();
                    match value {
                        Some(d) => push_number(text, *d),
                        None => text.extend_from_slice(b"-1"),
                    }
                    text.push(b'\n');
                    out.written()?;
                }
                done.map_err(|(_, e)| stopped(e))
            }
            _ => {
                ends.clear();
                let done = lockstep.paths(starts, b"unsolvable\n", out.buffer(), &mut ends);
                out.written_after(&ends)?;
                done.map_err(|(_, e)| stopped(e))
            }
        },
        |line, what, out| write_invalid_answer(out, answer, Output::Text, line, what),
    )
}

/// The CSV header line of `distance` or `path`, its value named by `measure`.
pub(crate) fn write_csv_header(
    out: &mut impl Write,
    answer: Answer,
    measure: Measure,
) -> io::Result<()> {
    out.write_all(json::csv_header(
        !matches!(answer, Answer::Distance),
        measure,
    ))
}

/// What `distance` or `path` answers bad line `line` with under `--keep-going`.
pub(crate) fn write_invalid_answer(
    out: &mut impl Write,
    answer: Answer,
    output: Output,
    line: u64,
    what: &str,
) -> io::Result<()> {
    match (output, answer) {
        (Output::Csv, Answer::Distance) => out.write_all(b"invalid,,\n"),
        (Output::Csv, _) => out.write_all(b"invalid,,,\n"),
        _ => write_invalid(out, output == Output::Json, line, what),
    }
}

/// One answer as `distance` and `path` print it, on a table or a pattern database, into
/// `text`: `value` is the distance (on a weighted table the cost), `None` when the goal
/// cannot be reached; `path` the path found (`path` answers only; its moves are `value`
/// unless `weighted`).
// Always inlined: as a call, `distance` on 100,000 lines took 3.7% more instructions
// (callgrind).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn write<P: Printed>(
    text: &mut Vec<u8>,
    number: u64,
    layout: &P,
    answer: Answer,
    output: Output,
    value: Option<u32>,
    path: Option<&[Move]>,
    weighted: bool,
) {
    let found = value.is_some();
    match output {
        Output::Text => {
            match (answer, value, path) {
                (Answer::Distance, Some(d), _) => push_number(text, d),
                (Answer::Distance, None, _) => text.extend_from_slice(b"-1"),
                (_, _, Some(p)) => text.extend(p.iter().map(|m| m.letter() as u8)),
                (_, _, None) => text.extend_from_slice(b"unsolvable"),
            }
            text.push(b'\n');
        }
        Output::Show => show::draw(text, number, layout, path, value.filter(|_| weighted)),
        Output::Csv => write_csv_row(text, layout, answer, value, path, found),
        Output::Json => {
            let letters = path.map(path_string);
            let mut record = Record {
                puzzle: layout.tiles(),
                path: match answer {
                    Answer::Distance => None,
                    _ => Some(letters.as_deref()),
                },
                solvable: found,
                ..Record::default()
            };
            let moves = match answer {
                Answer::Distance => None,
                _ => Some(path.map(|p| p.len() as u32)),
            };
            record.measure(weighted, value, moves);
            json::line(text, &record);
        }
    }
}

/// One CSV row of `distance` or `path` (`search`'s begins so): the puzzle, `value` (empty
/// without one), `path` for a path's answer (empty without one), and `solvable`, which a
/// search stopped at a limit gives although it found no value.
#[inline(always)]
pub(crate) fn write_csv_row<P: Printed>(
    text: &mut Vec<u8>,
    layout: &P,
    answer: Answer,
    value: Option<u32>,
    path: Option<&[Move]>,
    solvable: bool,
) {
    text.extend_from_slice(layout.to_string().as_bytes());
    text.push(b',');
    if let Some(d) = value {
        push_number(text, d);
    }
    text.push(b',');
    if !matches!(answer, Answer::Distance) {
        if let Some(p) = path {
            text.extend(p.iter().map(|m| m.letter() as u8));
        }
        text.push(b',');
    }
    text.extend_from_slice(if solvable { b"true\n" } else { b"false\n" });
}

/// Appends `n` in decimal: one or two digits (every distance of a byte table) written
/// directly, larger numbers by `itoa`.
#[inline(always)]
fn push_number(text: &mut Vec<u8>, n: u32) {
    match n {
        0..=9 => text.push(b'0' + n as u8),
        10..=99 => text.extend_from_slice(&[b'0' + (n / 10) as u8, b'0' + (n % 10) as u8]),
        _ => text.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
    }
}

/// Buffers reused from one answer to the next: no allocation per puzzle.
#[derive(Default)]
struct Scratch {
    path: Vec<Move>,
    /// Puzzles answered so far: an answer sheet's numbers.
    answered: u64,
}

impl Scratch {
    fn answer(
        &mut self,
        goal: &Goal<'_>,
        layout: &Layout,
        answer: Answer,
        output: Output,
        out: &mut Sink<impl Write>,
    ) -> Result<()> {
        // A text answer does not tell a cost from moves.
        let weighted = output != Output::Text && goal.section().cost() != CostModel::Unit;
        let (value, path) = match answer {
            Answer::Distance => (goal.distance(layout)?, None),
            _ => {
                let found = self.path(goal, layout, answer)?;
                let moves = found.then_some(self.path.len() as u32);
                // On a weighted table the path's moves are not its cost.
                let value = match (weighted, found) {
                    (true, true) => goal.distance(layout)?,
                    _ => moves,
                };
                (value, found.then_some(&self.path[..]))
            }
        };
        self.answered += 1;
        write(
            out.buffer(),
            self.answered,
            layout,
            answer,
            output,
            value,
            path,
            weighted,
        );
        out.written()?;
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

/// The CSV header of the rows [`write_state`] writes: `puzzle,distance,path`, or
/// `puzzle,cost,path` on a weighted table.
pub(crate) fn write_states_csv_header(out: &mut impl Write, table: &MappedTable) -> io::Result<()> {
    let measure = Measure::of(table.header().cost() != CostModel::Unit);
    writeln!(out, "puzzle,{},path", measure.name())
}

/// Writes one state of the table: tokens, a tab, its distance, a tab, an optimal path; or a
/// JSON object, or a CSV row (`puzzle,distance,path`; the cost in place of the distance on a
/// weighted table).
pub(crate) fn write_state(
    out: &mut impl Write,
    buf: &mut Vec<u8>,
    goal: &Goal<'_>,
    layout: &Layout,
    output: Output,
    table: &MappedTable,
) -> Result<()> {
    let name = || format!("table {}", tables::name(table));
    let corrupt = || QueryError::Corrupt { layout: *layout };
    let path = goal.path(layout).with_context(name)?.ok_or_else(corrupt)?;
    // The cheapest cost on a weighted table, where it is not the number of moves.
    let value = goal
        .distance(layout)
        .with_context(name)?
        .ok_or_else(corrupt)?;
    let weighted = goal.section().cost() != CostModel::Unit;
    let moves = path.len() as u32;
    let path = path_string(&path);
    buf.clear();
    if output == Output::Csv {
        buf.extend_from_slice(format!("{layout},{value},{path}\n").as_bytes());
    } else if output == Output::Json {
        let mut record = Record {
            puzzle: layout.tiles(),
            path: Some(Some(&path)),
            solvable: true,
            ..Record::default()
        };
        record.measure(weighted, Some(value), Some(Some(moves)));
        json::line(buf, &record);
    } else {
        buf.extend_from_slice(format!("{layout}\t{value}\t{path}\n").as_bytes());
    }
    out.write_all(buf)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_decimal() {
        for n in (0..2000).chain([u32::MAX - 1, u32::MAX]) {
            let mut text = b"x".to_vec();
            push_number(&mut text, n);
            assert_eq!(text, format!("x{n}").into_bytes());
        }
    }
}
