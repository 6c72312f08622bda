//! A local judge: another program's output for an input, judged case by case as the site's
//! judge would, with the reason for each wrong answer.
//!
//! The expected answers come from this crate's own judge run on the same input (a table for
//! the 8-puzzle formats, the caller's search for the 15-puzzle ones), so every optimum is
//! exact. A special judge's format (see [`Format::special_judge`]) is judged by replaying
//! the moves: each must stay on the board, the last must reach the goal (`uva10085`: the state
//! printed, which must be a farthest one), and the path must be optimal; a format compared
//! byte for byte reports its first differing line.

use std::io::{self, BufRead, Write};

use slidetable_core::{counted, Board, Layout, Move, Token};
use slidetable_query::Table;

use crate::fifteen::{answer_fifteen, NOT_SOLVABLE, UVA_MOST};
use crate::{answer, Format, JudgeError, Solve};

/// What a check found: how many cases were accepted, of how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The cases judged: the input's puzzles for a special judge, the expected output's
    /// lines for a format compared byte for byte.
    pub cases: u64,
    /// The cases accepted (for a byte-for-byte format: the lines before the first
    /// difference).
    pub accepted: u64,
    /// Whether the output has lines after the last answer (or, byte for byte, any
    /// difference after the expected lines).
    pub extra_output: bool,
}

impl Verdict {
    /// Whether the site's judge would accept the whole output.
    pub fn all_accepted(&self) -> bool {
        self.accepted == self.cases && !self.extra_output
    }
}

/// Judges `theirs`, another program's output for `input` in `format`, against the answers
/// from `table` (which must be for [`Format::board`] and count moves, as for
/// [`crate::judge`]); writes one line per case to `report` (`case k (line n): Accepted …` or
/// `… Wrong Answer: <why>`; byte-for-byte formats: the first differing line), then a summary
/// line. A bad `input` is an error, as for [`crate::judge`].
pub fn check<D: AsRef<[u8]>>(
    format: Format,
    input: impl BufRead,
    theirs: &[u8],
    table: &Table<D>,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let mut expected = Vec::new();
    let starts = answer(format, input, table, &mut expected, true)?;
    let farthest = |far: &Layout, start: &Layout| -> Result<Option<u32>, JudgeError> {
        Ok(table.goal(far)?.distance(start)?)
    };
    judge_output(format, &expected, &starts, theirs, &farthest, report)
}

/// [`check`] for the 15-puzzle formats (`uva10181`, `lightoj1121`), whose answers come from
/// `solve` as for [`crate::judge_fifteen`].
pub fn check_fifteen(
    format: Format,
    input: impl BufRead,
    theirs: &[u8],
    solve: &mut Solve<'_>,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let mut expected = Vec::new();
    let mut starts = Vec::new();
    answer_fifteen(format, input, solve, &mut expected, Some(&mut starts))?;
    let no_table = |_: &Layout, _: &Layout| -> Result<Option<u32>, JudgeError> { Ok(None) };
    judge_output(format, &expected, &starts, theirs, &no_table, report)
}

/// The distance from a start (second) to a state (first), for `uva10085`'s farthest states.
type Distance<'a> = dyn Fn(&Layout, &Layout) -> Result<Option<u32>, JudgeError> + 'a;

fn judge_output(
    format: Format,
    expected: &[u8],
    starts: &[Layout],
    theirs: &[u8],
    distance: &Distance<'_>,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let ours = lines(expected);
    let theirs = lines(theirs);
    let verdict = match format {
        Format::Poj | Format::Hdu | Format::Uva652 | Format::Uva10181 => {
            paths(format, starts, &ours, &theirs, report)?
        }
        Format::Uva10085 => farthest(starts, &ours, &theirs, distance, report)?,
        _ => return Ok(exact(&ours, &theirs, report)?),
    };
    if verdict.all_accepted() {
        writeln!(
            report,
            "Accepted: {} of {} cases",
            verdict.accepted, verdict.cases
        )?;
    } else {
        writeln!(
            report,
            "Wrong Answer: {} of {} cases accepted{}",
            verdict.accepted,
            verdict.cases,
            if verdict.extra_output {
                ", and output after the last case"
            } else {
                ""
            }
        )?;
    }
    Ok(verdict)
}

/// The lines of an output, without their `\n` (a last line without one counts; nothing after
/// the last `\n` is no line).
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if lines.last() == Some(&&b""[..]) {
        lines.pop();
    }
    lines
}

/// `text` without the spaces, tabs and carriage returns around it.
fn trim(text: &[u8]) -> &[u8] {
    text.trim_ascii()
}

/// Another program's output read a line at a time, knowing the line number, and the cases
/// accepted so far: what the answer-per-case formats (`paths`, `farthest`) share.
struct Their<'a> {
    lines: &'a [&'a [u8]],
    at: usize,
    accepted: u64,
}

impl<'a> Their<'a> {
    /// `lines`, none read yet.
    fn new(lines: &'a [&'a [u8]]) -> Their<'a> {
        Their {
            lines,
            at: 0,
            accepted: 0,
        }
    }

    /// The next line and its number (from 1), if any.
    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        let line = self.lines.get(self.at)?;
        self.at += 1;
        Some((self.at, line))
    }

    /// The next line as the answer to case `k`, or the reason there is none.
    fn answer(&mut self, k: usize) -> Result<(usize, &'a [u8]), String> {
        self.next().ok_or_else(|| {
            format!(
                "no answer: the output ends after {}, before case {k}",
                counted(self.lines.len() as u64, "line")
            )
        })
    }

    /// Reports anything but blank lines after the last answer; whether there was any.
    fn rest(&mut self, report: &mut impl Write) -> io::Result<bool> {
        while let Some((n, line)) = self.next() {
            if !trim(line).is_empty() {
                writeln!(
                    report,
                    "line {n}: Wrong Answer: output after the last case: '{}'",
                    Token::new(line)
                )?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Counts and reports case `k`'s outcome, answered on line `line` (0: none).
    fn judged(
        &mut self,
        report: &mut impl Write,
        k: usize,
        line: usize,
        outcome: &Result<String, String>,
    ) -> io::Result<()> {
        if outcome.is_ok() {
            self.accepted += 1;
        }
        case_line(report, k, line, outcome)
    }

    /// The verdict over `cases` cases, once the last was judged: anything but blank lines
    /// after it is reported.
    fn verdict(mut self, report: &mut impl Write, cases: usize) -> io::Result<Verdict> {
        let extra_output = self.rest(report)?;
        Ok(Verdict {
            cases: cases as u64,
            accepted: self.accepted,
            extra_output,
        })
    }
}

/// One line of the report for case `k`, answered on line `line` of the output (0: none).
fn case_line(
    report: &mut impl Write,
    k: usize,
    line: usize,
    outcome: &Result<String, String>,
) -> io::Result<()> {
    let at = if line == 0 {
        String::new()
    } else {
        format!(" (line {line})")
    };
    match outcome {
        Ok(note) => writeln!(report, "case {k}{at}: Accepted ({note})"),
        Err(why) => writeln!(report, "case {k}{at}: Wrong Answer: {why}"),
    }
}

/// poj1077, hdu1043, uva652 and uva10181: a move string per case, or the words for none.
fn paths(
    format: Format,
    starts: &[Layout],
    ours: &[&[u8]],
    theirs: &[&[u8]],
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let board = format.board();
    let (upper, none, most) = match format {
        Format::Uva10181 => (true, NOT_SOLVABLE, Some(UVA_MOST as usize)),
        _ => (false, "unsolvable", None),
    };
    // UVa 652 puts a blank line between two answers.
    let between = format == Format::Uva652;
    let mut their = Their::new(theirs);
    let mut ours = ours.iter();
    for (i, start) in starts.iter().enumerate() {
        let k = i + 1;
        if between && k > 1 {
            ours.next();
        }
        let optimum = match ours.next().map(|l| trim(l)) {
            Some(l) if l == none.as_bytes() => None,
            Some(l) => Some(l.len()),
            None => None,
        };
        let mut line = 0;
        let outcome = (|| {
            if between && k > 1 {
                match their.lines.get(their.at) {
                    Some(l) if trim(l).is_empty() => their.at += 1,
                    Some(l) => {
                        line = their.at + 1;
                        return Err(format!(
                            "format: missing blank line before this answer ('{}')",
                            Token::new(l)
                        ));
                    }
                    None => {}
                }
            }
            let (n, text) = their.answer(k)?;
            line = n;
            replay(board, start, optimum, trim(text), upper, none, most)
        })();
        their.judged(report, k, line, &outcome)?;
    }
    Ok(their.verdict(report, starts.len())?)
}

/// Replays `text`, a move string (or `none`) from `start` to `board`'s standard goal.
fn replay(
    board: Board,
    start: &Layout,
    optimum: Option<usize>,
    text: &[u8],
    upper: bool,
    none: &str,
    most: Option<usize>,
) -> Result<String, String> {
    if text == none.as_bytes() {
        return match optimum {
            None => Ok(none.to_string()),
            Some(m) => Err(format!(
                "says '{none}', but the puzzle is solved in {}",
                counted(m as u64, "move")
            )),
        };
    }
    let moves = moves(text, upper)?;
    let end = walk(start, &moves)?;
    let n = moves.len();
    if end != board.standard_goal() {
        return Err(match optimum {
            None if !start.can_reach(&board.standard_goal()) => format!(
                "the puzzle cannot be solved (expected '{none}'), but the output gives {}",
                counted(n as u64, "move")
            ),
            _ => format!("{} do not reach the goal", counted(n as u64, "move")),
        });
    }
    if let Some(most) = most.filter(|&most| n > most) {
        return Err(format!(
            "{}, more than the {most} the problem allows",
            counted(n as u64, "move")
        ));
    }
    match optimum {
        Some(m) if n > m => Err(format!(
            "{} where the optimum is {m}",
            counted(n as u64, "move")
        )),
        _ => Ok(format!("{}, optimal", counted(n as u64, "move"))),
    }
}

/// The moves of a move string in the format's case.
fn moves(text: &[u8], upper: bool) -> Result<Vec<Move>, String> {
    let letters = if upper { "U D L R" } else { "u d l r" };
    text.iter()
        .enumerate()
        .map(|(i, &c)| {
            Move::from_letter(c as char)
                .filter(|_| c.is_ascii_uppercase() == upper)
                .ok_or_else(|| {
                    format!(
                        "format: '{}' (character {}) is not a move: the moves are {letters}",
                        Token::new(&[c]),
                        i + 1
                    )
                })
        })
        .collect()
}

/// Where `moves` take `start`, or the first that leaves the board.
fn walk(start: &Layout, moves: &[Move]) -> Result<Layout, String> {
    let mut at = *start;
    for (i, &m) in moves.iter().enumerate() {
        at = at.moved(m).ok_or_else(|| {
            format!(
                "illegal move {} ('{}'): the blank would leave the board",
                i + 1,
                m.letter()
            )
        })?;
    }
    Ok(at)
}

/// uva10085: `Puzzle #k`, a farthest state as a 3×3 grid, a path to it in `U D L R`, and an
/// empty line, per case.
fn farthest(
    starts: &[Layout],
    ours: &[&[u8]],
    theirs: &[&[u8]],
    distance: &Distance<'_>,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let board = Format::Uva10085.board();
    let mut their = Their::new(theirs);
    for (i, start) in starts.iter().enumerate() {
        let k = i + 1;
        // Our answer's path (its fifth line) is as long as the farthest state is far.
        let most = ours.get(i * 6 + 4).map_or(0, |l| trim(l).len());
        let mut line = 0;
        let read = (|| {
            let (n, head) = their.answer(k)?;
            line = n;
            if trim(head) != format!("Puzzle #{k}").as_bytes() {
                return Err(format!(
                    "format: expected 'Puzzle #{k}', found '{}'",
                    Token::new(head)
                ));
            }
            let mut tiles = Vec::with_capacity(board.cells());
            for row in 1..=board.rows() {
                let (n, text) = their.answer(k)?;
                let numbers: Vec<&[u8]> = text
                    .split(u8::is_ascii_whitespace)
                    .filter(|t| !t.is_empty())
                    .collect();
                let parsed: Option<Vec<u8>> = numbers
                    .iter()
                    .map(|t| std::str::from_utf8(t).ok()?.parse().ok())
                    .collect();
                match parsed {
                    Some(row_tiles) if row_tiles.len() == board.cols() => tiles.extend(row_tiles),
                    _ => {
                        return Err(format!(
                        "format: line {n}, row {row} of the state: expected {} numbers, found '{}'",
                        board.cols(),
                        Token::new(text)
                    ))
                    }
                }
            }
            let far = Layout::new(board, &tiles).map_err(|e| format!("the state printed: {e}"))?;
            let (_, text) = their.answer(k)?;
            let moves = moves(trim(text), true)?;
            if walk(start, &moves)? != far {
                return Err(format!(
                    "{} do not reach the state printed",
                    counted(moves.len() as u64, "move")
                ));
            }
            match their.next() {
                Some((_, l)) if trim(l).is_empty() => {}
                Some((n, l)) => {
                    return Err(format!(
                        "format: line {n}: expected the blank line after the moves, found '{}'",
                        Token::new(l)
                    ))
                }
                None => return Err("format: missing the blank line after the moves".to_string()),
            }
            Ok((far, moves.len()))
        })();
        // The distance of the state printed comes from the table: an error there is ours.
        let judged = match read {
            Ok((far, n)) => match distance(&far, start)? {
                Some(d) if (d as usize) < most => Err(format!(
                    "the state printed is {} from the start; the farthest are {most}",
                    counted(u64::from(d), "move")
                )),
                Some(d) if n > d as usize => Err(format!(
                    "{} where the optimum is {d}",
                    counted(n as u64, "move")
                )),
                _ => Ok(format!("{} to a farthest state", counted(n as u64, "move"))),
            },
            Err(why) => Err(why),
        };
        their.judged(report, k, line, &judged)?;
    }
    Ok(their.verdict(report, starts.len())?)
}

/// A format compared byte for byte: the first line that differs, if any.
fn exact(ours: &[&[u8]], theirs: &[&[u8]], report: &mut impl Write) -> io::Result<Verdict> {
    let first = (0..ours.len().max(theirs.len())).find(|&i| ours.get(i) != theirs.get(i));
    let cases = ours.len() as u64;
    let Some(i) = first else {
        writeln!(
            report,
            "Accepted: {} of output, the expected output byte for byte",
            counted(ours.len() as u64, "line")
        )?;
        return Ok(Verdict {
            cases,
            accepted: cases,
            extra_output: false,
        });
    };
    let n = i + 1;
    let why = match (ours.get(i), theirs.get(i)) {
        (Some(e), Some(f)) => format!(
            "expected '{}', found '{}'{}",
            Token::new(e),
            Token::new(f),
            if trim(e) == trim(f) {
                " (they differ only in spaces at the ends)"
            } else {
                ""
            }
        ),
        (Some(e), None) => format!("expected '{}', found the end of the output", Token::new(e)),
        (None, Some(f)) => format!("expected the end of the output, found '{}'", Token::new(f)),
        (None, None) => String::new(),
    };
    writeln!(report, "Wrong Answer: line {n} of {}: {why}", ours.len())?;
    Ok(Verdict {
        cases,
        accepted: i.min(ours.len()) as u64,
        extra_output: i >= ours.len(),
    })
}
