//! A local judge: another program's output for an input, judged case by case as the site's
//! judge would, with the reason for each wrong answer.
//!
//! The expected answers come from this crate's own judge run on the same input (a table for
//! the 8-puzzle formats, the caller's search for the 15-puzzle ones), so every optimum is
//! exact. A special judge's format (see [`Format::special_judge`]) is judged by replaying
//! the moves: each must stay on the board, the last must reach the goal (`uva10085`: the state
//! printed, which must be a farthest one); a longer path than the optimum is accepted where
//! the site accepts any solution ([`Standard::Site`]) and refused under
//! [`Standard::Optimal`]. A format compared byte for byte reports its first differing line,
//! and a difference in whitespace alone is a Presentation Error, as the sites call it.
//!
//! The output judged is streamed a line at a time, at most [`MAX_LINE`] bytes each, and read
//! no further than its first line after the last case: a program that never stops printing
//! (`yes uldr`) is judged in constant memory and time.

use std::fmt;
use std::io::{self, BufRead, Read, Write};

use slidetable_core::lines::Lines;
use slidetable_core::{counted, Board, Layout, Move, Token};
use slidetable_query::Table;

use crate::fifteen::{answer_fifteen, NOT_SOLVABLE, UVA_MOST};
use crate::names::edits;
use crate::{answer, Format, JudgeError, Solve, MAX_LINE};

/// What a check asks of a path where the site accepts any solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Standard {
    /// What the site's judge accepts: any valid path (UVa 10181: of at most 50 moves), longer
    /// ones noted as not optimal.
    #[default]
    Site,
    /// Only optimal paths (and, everywhere, exactly what the site asks otherwise).
    Optimal,
}

/// The sites' verdict on a whole output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every case accepted.
    Accepted,
    /// A format compared byte for byte whose output differs from the expected one only in
    /// whitespace (a trailing space, a CRLF line end, a blank line more or less).
    PresentationError,
    /// A case answered wrongly or not at all, or output after the last case.
    WrongAnswer,
    /// A line longer than [`MAX_LINE`] bytes, or blank lines without end after the last
    /// case: the output is not read further.
    OutputLimitExceeded,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Accepted => "Accepted",
            Outcome::PresentationError => "Presentation Error",
            Outcome::WrongAnswer => "Wrong Answer",
            Outcome::OutputLimitExceeded => "Output Limit Exceeded",
        })
    }
}

/// What a check found: how many cases were accepted, of how many, and the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The cases judged: the input's puzzles for a special judge, the expected output's
    /// lines for a format compared byte for byte.
    pub cases: u64,
    /// The cases accepted (for a byte-for-byte format: the lines before the first
    /// difference other than whitespace).
    pub accepted: u64,
    /// Whether the output goes on after the last answer (or, byte for byte, after the
    /// expected lines) with anything but blank lines.
    pub extra_output: bool,
    /// The verdict on the whole output.
    pub outcome: Outcome,
}

impl Verdict {
    /// Whether the site's judge would accept the whole output.
    pub fn all_accepted(&self) -> bool {
        self.outcome == Outcome::Accepted
    }
}

/// Judges `theirs`, another program's output for `input` in `format`, against the answers
/// from `table` (which must be for [`Format::board`] and count moves, as for
/// [`crate::judge`]); writes one line per case to `report` (`case k (line n): Accepted …` or
/// `… Wrong Answer: <why>`; byte-for-byte formats: the first differing line), then a summary
/// line starting with the [`Outcome`]. A bad `input` is an error, as for [`crate::judge`]
/// (with a hint when it looks like an answer: the two files swapped); `theirs` is read a line
/// at a time and never past its first line after the last case.
pub fn check<D: AsRef<[u8]>>(
    format: Format,
    input: impl BufRead,
    theirs: impl Read,
    table: &Table<D>,
    standard: Standard,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let farthest = |far: &Layout, start: &Layout| -> Result<Option<u32>, JudgeError> {
        Ok(table.goal(far)?.distance(start)?)
    };
    let answers = |input, expected: &mut Vec<u8>, starts: &mut Vec<Layout>| {
        *starts = answer(format, input, table, expected, true)?;
        Ok(())
    };
    check_with(format, input, theirs, answers, &farthest, standard, report)
}

/// [`check`] for the 15-puzzle formats (`uva10181`, `lightoj1121`), whose answers come from
/// `solve` as for [`crate::judge_fifteen`].
pub fn check_fifteen(
    format: Format,
    input: impl BufRead,
    theirs: impl Read,
    solve: &mut Solve<'_>,
    standard: Standard,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let no_table = |_: &Layout, _: &Layout| -> Result<Option<u32>, JudgeError> { Ok(None) };
    let answers = |input, expected: &mut Vec<u8>, starts: &mut Vec<Layout>| {
        answer_fifteen(format, input, solve, expected, Some(starts))
    };
    check_with(format, input, theirs, answers, &no_table, standard, report)
}

/// What [`check`] and [`check_fifteen`] share: the input's expected output and starts made by
/// `answers` (a bad input with the swapped-files hint when its first line looks like an
/// answer), then `theirs` judged against them, `distance` answering `uva10085`'s farthest
/// states.
fn check_with<I: BufRead>(
    format: Format,
    mut input: I,
    theirs: impl Read,
    answers: impl FnOnce(I, &mut Vec<u8>, &mut Vec<Layout>) -> Result<(), JudgeError>,
    distance: &Distance<'_>,
    standard: Standard,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let head = first_line(&mut input);
    let mut expected = Vec::new();
    let mut starts = Vec::new();
    answers(input, &mut expected, &mut starts).map_err(|e| swapped_hint(e, &head))?;
    let mut theirs = Output::new(theirs);
    judge_output(
        format,
        &expected,
        &starts,
        &mut theirs,
        distance,
        standard,
        report,
    )
}

/// The input's first line (its first 256 bytes), peeked at without reading it.
fn first_line(input: &mut impl BufRead) -> Vec<u8> {
    let buffered = input.fill_buf().unwrap_or_default();
    let line = buffered.split(|&c| c == b'\n').next().unwrap_or_default();
    line[..line.len().min(256)].to_vec()
}

/// A bad input whose first line looks like an answer (a move string, `Case 1: …`,
/// `Puzzle #1`, the words for no solution): the input and the output to check were probably
/// given the other way round, and the message says so.
fn swapped_hint(e: JudgeError, head: &[u8]) -> JudgeError {
    let head = head.trim_ascii();
    let lower = head.to_ascii_lowercase();
    let answer = (!head.is_empty() && head.iter().all(|c| b"udlrUDLR".contains(c)))
        || lower.starts_with(b"case ")
        || lower.starts_with(b"puzzle #")
        || [&b"unsolvable"[..], b"no solution!", NOT_SOLVABLE.as_bytes()]
            .iter()
            .any(|words| lower == words.to_ascii_lowercase());
    match e {
        JudgeError::Bad { line, what } if answer => JudgeError::Bad {
            line,
            what: format!(
                "{what} (the input begins '{}', which looks like an answer: are the input and \
                 the output to check swapped?)",
                Token::new(head)
            ),
        },
        e => e,
    }
}

/// The distance from a start (second) to a state (first), for `uva10085`'s farthest states.
type Distance<'a> = dyn Fn(&Layout, &Layout) -> Result<Option<u32>, JudgeError> + 'a;

fn judge_output<R: Read>(
    format: Format,
    expected: &[u8],
    starts: &[Layout],
    theirs: &mut Output<R>,
    distance: &Distance<'_>,
    standard: Standard,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let ours = lines(expected);
    let mut their = Their {
        out: theirs,
        accepted: 0,
        longer: 0,
    };
    let judged = match format {
        Format::Poj | Format::Hdu | Format::Uva652 | Format::Uva10181 => {
            paths(format, standard, starts, &ours, &mut their, report)?
        }
        Format::Uva10085 => farthest(starts, &ours, &mut their, distance, report)?,
        _ => return exact(&ours, their.out, report),
    };
    let verdict = their.verdict(report, starts.len(), judged)?;
    let accepted = format!("{} of {}", verdict.accepted, verdict.cases);
    match verdict.outcome {
        Outcome::Accepted if their.longer > 0 => writeln!(
            report,
            "Accepted: {accepted} cases ({} valid but not optimal)",
            their.longer
        )?,
        Outcome::Accepted => writeln!(report, "Accepted: {accepted} cases")?,
        Outcome::WrongAnswer if verdict.extra_output => writeln!(
            report,
            "Wrong Answer: {accepted} cases accepted, and output continues after the last case"
        )?,
        outcome => writeln!(report, "{outcome}: {accepted} cases accepted")?,
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

/// Whether a line holds nothing but whitespace.
fn blank(text: &[u8]) -> bool {
    text.iter().all(u8::is_ascii_whitespace)
}

/// `n moves do` / `1 move does`: a count and its verb, agreeing.
fn moves_do(n: usize) -> String {
    let verb = if n == 1 { "does" } else { "do" };
    format!("{} {verb}", counted(n as u64, "move"))
}

/// Blank lines after the last case are read up to this many bytes; more is an output that
/// does not end (`yes ''`).
const MOST_BLANK: u64 = MAX_LINE as u64;

/// Why reading another program's output stopped before its end.
enum Stop {
    /// Line n is longer than [`MAX_LINE`] bytes (or has no end within them).
    TooLong(u64),
    /// Reading failed.
    Failed(io::Error),
}

/// Another program's output, read a line at a time as it was written (a `\r` before the
/// `\n` kept, since a byte-for-byte judge sees it), at most [`MAX_LINE`] bytes a line: memory
/// and time stay bounded whatever it prints.
struct Output<R> {
    lines: Lines<R>,
    /// The line read last, without its `\n`.
    text: Vec<u8>,
    /// Its number, from 1 (0 before the first).
    number: u64,
    /// The line read last was handed back: [`Output::next`] returns it again.
    again: bool,
}

impl<R: Read> Output<R> {
    fn new(inner: R) -> Output<R> {
        Output {
            // A line without an end after the limit (and its `\r`) is not read to its end:
            // the output is judged there.
            lines: Lines::new(inner, MAX_LINE)
                .keeping_cr()
                .with_unended(MAX_LINE as u64 + 2),
            text: Vec::with_capacity(256),
            number: 0,
            again: false,
        }
    }

    /// The next line's number, its bytes in `self.text`; `None` at the end of the output.
    fn next(&mut self) -> Result<Option<u64>, Stop> {
        if self.again {
            self.again = false;
            return Ok(Some(self.number));
        }
        match self.lines.next_line() {
            Ok(Some(line)) => match line.text {
                Ok(text) => {
                    self.text.clear();
                    self.text.extend_from_slice(text);
                    self.number = line.number;
                    Ok(Some(line.number))
                }
                Err(_) => Err(Stop::TooLong(line.number)),
            },
            Ok(None) => Ok(None),
            // What the line reader says of a line with no end within the bound above.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                Err(Stop::TooLong(self.lines.number() + 1))
            }
            Err(e) => Err(Stop::Failed(e)),
        }
    }

    /// Hands the line read last back, to be read again.
    fn back(&mut self) {
        self.again = true;
    }
}

/// Why a case is not accepted: a wrong answer, or the output cannot be read on.
enum Fault {
    Wrong(String),
    Stop(Stop),
}

impl From<String> for Fault {
    fn from(why: String) -> Fault {
        Fault::Wrong(why)
    }
}

impl From<Stop> for Fault {
    fn from(stop: Stop) -> Fault {
        Fault::Stop(stop)
    }
}

/// An accepted case: what to say of it, and whether its path is longer than the optimum.
struct Accepted {
    note: String,
    optimal: bool,
}

/// How the cases ended: all judged, or the output stopped at a line too long to read.
enum Judged {
    All,
    TooLong(u64),
}

/// The output of the answer-per-case formats (`paths`, `farthest`) and the cases accepted
/// so far.
struct Their<'o, R> {
    out: &'o mut Output<R>,
    accepted: u64,
    /// Accepted paths longer than the optimum.
    longer: u64,
}

impl<R: Read> Their<'_, R> {
    /// The next line as the answer to case `k` (its number set in `line`), or the reason
    /// there is none.
    fn answer(&mut self, k: usize, line: &mut u64) -> Result<(), Fault> {
        match self.out.next()? {
            Some(n) => {
                *line = n;
                Ok(())
            }
            None => Err(Fault::Wrong(format!(
                "no answer: the output ends after {}, before case {k}",
                counted(self.out.number, "line")
            ))),
        }
    }

    /// Judges `count` cases, each by `case` (given its number from 1 and where to set the
    /// line its answer is on), one report line each; stops at a line too long to read.
    fn cases(
        &mut self,
        report: &mut impl Write,
        count: usize,
        mut case: impl FnMut(&mut Self, usize, &mut u64) -> Result<Accepted, Fault>,
    ) -> Result<Judged, JudgeError> {
        for k in 1..=count {
            let mut line = 0;
            let outcome = match case(self, k, &mut line) {
                Ok(pass) => {
                    self.accepted += 1;
                    self.longer += u64::from(!pass.optimal);
                    Ok(pass.note)
                }
                Err(Fault::Wrong(why)) => Err(why),
                Err(Fault::Stop(Stop::TooLong(n))) => return Ok(Judged::TooLong(n)),
                Err(Fault::Stop(Stop::Failed(e))) => return Err(JudgeError::Output(e)),
            };
            case_line(report, k, line, &outcome)?;
        }
        Ok(Judged::All)
    }

    /// The verdict over `cases` cases once they were judged: a line too long is reported,
    /// and what follows the last case (anything but blank lines is wrong).
    fn verdict(
        &mut self,
        report: &mut impl Write,
        cases: usize,
        judged: Judged,
    ) -> Result<Verdict, JudgeError> {
        let cases = cases as u64;
        let (outcome, extra_output) = match judged {
            Judged::TooLong(n) => {
                too_long(report, n, "")?;
                (Outcome::OutputLimitExceeded, false)
            }
            Judged::All => match rest(self.out, report)? {
                After::Nothing | After::Blank => (
                    if self.accepted == cases {
                        Outcome::Accepted
                    } else {
                        Outcome::WrongAnswer
                    },
                    false,
                ),
                After::Output => (Outcome::WrongAnswer, true),
                After::Endless => (Outcome::OutputLimitExceeded, true),
            },
        };
        Ok(Verdict {
            cases,
            accepted: self.accepted,
            extra_output,
            outcome,
        })
    }
}

/// Reports line `n`, longer than [`MAX_LINE`] bytes; `after` says where it is.
fn too_long(report: &mut impl Write, n: u64, after: &str) -> io::Result<()> {
    writeln!(
        report,
        "line {n}: Output Limit Exceeded: {after}a line longer than {MAX_LINE} bytes; the \
         output is not read further"
    )
}

/// What follows the last case.
enum After {
    Nothing,
    /// Blank lines, then the end.
    Blank,
    /// A line with more than whitespace (reported; not read further).
    Output,
    /// More than [`MOST_BLANK`] bytes of blank lines, or a line too long (reported).
    Endless,
}

/// Reads what follows the last case, up to its first line with more than whitespace and at
/// most [`MOST_BLANK`] bytes of blank lines, and reports anything but blank lines.
fn rest<R: Read>(out: &mut Output<R>, report: &mut impl Write) -> Result<After, JudgeError> {
    let mut blank_bytes = 0u64;
    loop {
        match out.next() {
            Ok(None) if blank_bytes == 0 => return Ok(After::Nothing),
            Ok(None) => return Ok(After::Blank),
            Ok(Some(n)) if blank(&out.text) => {
                blank_bytes += out.text.len() as u64 + 1;
                if blank_bytes > MOST_BLANK {
                    writeln!(
                        report,
                        "line {n}: Output Limit Exceeded: the output continues after the last \
                         case with more than {MOST_BLANK} bytes of blank lines; it is not read \
                         further"
                    )?;
                    return Ok(After::Endless);
                }
            }
            Ok(Some(n)) => {
                writeln!(
                    report,
                    "line {n}: Wrong Answer: the output continues after the last case: '{}' \
                     (not read further)",
                    Token::new(&out.text)
                )?;
                return Ok(After::Output);
            }
            Err(Stop::TooLong(n)) => {
                too_long(report, n, "the output continues after the last case with ")?;
                return Ok(After::Endless);
            }
            Err(Stop::Failed(e)) => return Err(JudgeError::Output(e)),
        }
    }
}

/// One line of the report for case `k`, answered on line `line` of the output (0: none).
fn case_line(
    report: &mut impl Write,
    k: usize,
    line: u64,
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
fn paths<R: Read>(
    format: Format,
    standard: Standard,
    starts: &[Layout],
    ours: &[&[u8]],
    their: &mut Their<'_, R>,
    report: &mut impl Write,
) -> Result<Judged, JudgeError> {
    let words = Words::of(format);
    // UVa 652 puts a blank line between two answers.
    let between = format == Format::Uva652;
    let mut ours = ours.iter();
    their.cases(report, starts.len(), |their, k, line| {
        if between && k > 1 {
            ours.next();
        }
        let optimum = match ours.next().map(|l| trim(l)) {
            Some(l) if l == words.none.as_bytes() => None,
            Some(l) => Some(l.len()),
            None => None,
        };
        if between && k > 1 {
            if let Some(n) = their.out.next()? {
                if !blank(&their.out.text) {
                    *line = n;
                    return Err(Fault::Wrong(format!(
                        "format: missing blank line before this answer ('{}')",
                        Token::new(&their.out.text)
                    )));
                }
            }
        }
        their.answer(k, line)?;
        let text = trim(&their.out.text);
        Ok(replay(&words, standard, &starts[k - 1], optimum, text)?)
    })
}

/// How a format writes its moves and its answer for no solution.
struct Words {
    board: Board,
    /// Moves in upper case (`U D L R`).
    upper: bool,
    /// The words for no solution.
    none: &'static str,
    /// The most moves the problem allows, if it limits them.
    most: Option<usize>,
}

impl Words {
    fn of(format: Format) -> Words {
        let board = format.board();
        match format {
            Format::Uva10181 => Words {
                board,
                upper: true,
                none: NOT_SOLVABLE,
                most: Some(UVA_MOST as usize),
            },
            _ => Words {
                board,
                upper: false,
                none: "unsolvable",
                most: None,
            },
        }
    }
}

/// Replays `text`, a move string (or the words for none) from `start` to the board's
/// standard goal, whose optimal path has `optimum` moves (`None`: no solution the problem
/// accepts).
fn replay(
    words: &Words,
    standard: Standard,
    start: &Layout,
    optimum: Option<usize>,
    text: &[u8],
) -> Result<Accepted, String> {
    let none = words.none;
    if text == none.as_bytes() {
        return match optimum {
            None => Ok(Accepted {
                note: none.to_string(),
                optimal: true,
            }),
            Some(m) => Err(format!(
                "says '{none}', but the puzzle is solved in {}",
                counted(m as u64, "move")
            )),
        };
    }
    let moves = match moves(text, words.upper) {
        Ok(moves) => moves,
        // Shown whole: a near miss is at most twice as long as the words.
        Err(_) if near(text, none) => {
            return Err(match optimum {
                None => format!("format: expected '{none}', found '{}'", text.escape_ascii()),
                Some(m) => format!(
                    "says '{}' (for '{none}'), but the puzzle is solved in {}",
                    text.escape_ascii(),
                    counted(m as u64, "move")
                ),
            });
        }
        Err(why) => return Err(why),
    };
    let end = walk(start, &moves)?;
    let n = moves.len();
    let goal = words.board.standard_goal();
    if end != goal {
        return Err(match optimum {
            None if !start.can_reach(&goal) => format!(
                "the puzzle cannot be solved (expected '{none}'), but the output gives {}",
                counted(n as u64, "move")
            ),
            _ => format!("{} not reach the goal", moves_do(n)),
        });
    }
    if let Some(most) = words.most.filter(|&most| n > most) {
        return Err(format!(
            "{}, more than the {most} the problem allows",
            counted(n as u64, "move")
        ));
    }
    match optimum {
        Some(m) if n > m && standard == Standard::Optimal => Err(format!(
            "{} where the optimum is {m}",
            counted(n as u64, "move")
        )),
        Some(m) if n > m => Ok(Accepted {
            note: format!("valid, {}; optimal is {m}", counted(n as u64, "move")),
            optimal: false,
        }),
        _ => Ok(Accepted {
            note: format!("{}, optimal", counted(n as u64, "move")),
            optimal: true,
        }),
    }
}

/// Whether `text`, which is no move string, is a near miss of `words` (a letter or two, the
/// case, the spaces or the punctuation off): then the message names the words expected.
fn near(text: &[u8], words: &str) -> bool {
    let letters = |s: &[u8]| -> String {
        s.iter()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| char::from(c.to_ascii_lowercase()))
            .collect()
    };
    let wanted = letters(words.as_bytes());
    if text.len() > 2 * words.len() {
        return false;
    }
    let found = letters(text);
    !found.is_empty() && edits(&found, &wanted) <= (wanted.len() / 4).max(1)
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
fn farthest<R: Read>(
    starts: &[Layout],
    ours: &[&[u8]],
    their: &mut Their<'_, R>,
    distance: &Distance<'_>,
    report: &mut impl Write,
) -> Result<Judged, JudgeError> {
    let board = Format::Uva10085.board();
    // An error of the table (the distance of the state printed) is ours, not theirs: it ends
    // the check.
    let mut failure = None;
    let judged = their.cases(report, starts.len(), |their, k, line| {
        let start = &starts[k - 1];
        // Our answer's path (its fifth line) is as long as the farthest state is far.
        let most = ours.get((k - 1) * 6 + 4).map_or(0, |l| trim(l).len());
        their.answer(k, line)?;
        let head = &their.out.text;
        if trim(head) != format!("Puzzle #{k}").as_bytes() {
            return Err(Fault::Wrong(format!(
                "format: expected 'Puzzle #{k}', found '{}'",
                Token::new(head)
            )));
        }
        let mut tiles = Vec::with_capacity(board.cells());
        for row in 1..=board.rows() {
            let mut n = 0;
            their.answer(k, &mut n)?;
            let text = &their.out.text;
            let parsed: Option<Vec<u8>> = text
                .split(u8::is_ascii_whitespace)
                .filter(|t| !t.is_empty())
                .map(|t| std::str::from_utf8(t).ok()?.parse().ok())
                .collect();
            match parsed {
                Some(row_tiles) if row_tiles.len() == board.cols() => tiles.extend(row_tiles),
                _ => {
                    return Err(Fault::Wrong(format!(
                        "format: line {n}, row {row} of the state: expected {} numbers, found '{}'",
                        board.cols(),
                        Token::new(text)
                    )))
                }
            }
        }
        let far = Layout::new(board, &tiles).map_err(|e| format!("the state printed: {e}"))?;
        their.answer(k, &mut 0)?;
        let moves = moves(trim(&their.out.text), true)?;
        if walk(start, &moves)? != far {
            return Err(Fault::Wrong(format!(
                "{} not reach the state printed",
                moves_do(moves.len())
            )));
        }
        match their.out.next()? {
            Some(_) if blank(&their.out.text) => {}
            Some(n) => {
                return Err(Fault::Wrong(format!(
                    "format: line {n}: expected the blank line after the moves, found '{}'",
                    Token::new(&their.out.text)
                )))
            }
            None => {
                return Err(Fault::Wrong(
                    "format: missing the blank line after the moves".to_string(),
                ))
            }
        }
        let n = moves.len();
        match distance(&far, start) {
            Ok(Some(d)) if (d as usize) < most => Err(Fault::Wrong(format!(
                "the state printed is {} from the start; the farthest are {most}",
                counted(u64::from(d), "move")
            ))),
            Ok(Some(d)) if n > d as usize => Err(Fault::Wrong(format!(
                "{} where the optimum is {d}",
                counted(n as u64, "move")
            ))),
            Ok(_) => Ok(Accepted {
                note: format!("{} to a farthest state", counted(n as u64, "move")),
                optimal: true,
            }),
            Err(e) => {
                failure = Some(e);
                Err(Fault::Wrong("the table cannot answer".to_string()))
            }
        }
    })?;
    match failure {
        Some(e) => Err(e),
        None => Ok(judged),
    }
}

/// A format compared byte for byte: the first line that differs, if any. A line that differs
/// only in whitespace (spaces, tabs, a `\r` before its `\n`), or a blank line more or less,
/// is a Presentation Error, reported at the first such line, unless a real difference comes
/// later; a missing line end after the last line is accepted, as the sites accept it.
fn exact<R: Read>(
    ours: &[&[u8]],
    out: &mut Output<R>,
    report: &mut impl Write,
) -> Result<Verdict, JudgeError> {
    let total = ours.len();
    let cases = total as u64;
    // The next expected line.
    let mut i = 0;
    // The first difference in whitespace alone, as the report says it.
    let mut spacing: Option<String> = None;
    // Bytes of blank lines skipped in a row: bounded as after the last case.
    let mut blank_run = 0u64;
    let at = |n: u64, i: usize| {
        if n == i as u64 + 1 {
            format!("line {n} of {total}")
        } else {
            format!("line {n} (expected line {} of {total})", i + 1)
        }
    };
    let wrong = |report: &mut dyn Write, why: String, i: usize, extra_output| {
        writeln!(report, "Wrong Answer: {why}")?;
        Ok::<_, JudgeError>(Verdict {
            cases,
            accepted: i as u64,
            extra_output,
            outcome: Outcome::WrongAnswer,
        })
    };
    loop {
        let n = match out.next() {
            Ok(Some(n)) => n,
            Ok(None) => break,
            Err(Stop::TooLong(n)) => {
                too_long(report, n, "")?;
                return Ok(Verdict {
                    cases,
                    accepted: i as u64,
                    extra_output: i >= total,
                    outcome: Outcome::OutputLimitExceeded,
                });
            }
            Err(Stop::Failed(e)) => return Err(JudgeError::Output(e)),
        };
        let found = &out.text;
        if !blank(found) {
            blank_run = 0;
        }
        let Some(&expected) = ours.get(i) else {
            if !blank(found) {
                let why = format!(
                    "line {n} of {total}: expected the end of the output, found '{}'",
                    Token::new(found)
                );
                return wrong(report, why, i, true);
            }
            // Blank lines after the last: how many are read is bounded.
            out.back();
            match rest(out, report)? {
                After::Endless => {
                    return Ok(Verdict {
                        cases,
                        accepted: cases,
                        extra_output: true,
                        outcome: Outcome::OutputLimitExceeded,
                    })
                }
                After::Output => {
                    return Ok(Verdict {
                        cases,
                        accepted: cases,
                        extra_output: true,
                        outcome: Outcome::WrongAnswer,
                    })
                }
                After::Nothing | After::Blank => {
                    spacing.get_or_insert(format!(
                        "line {n} of {total}: expected the end of the output, found a blank line"
                    ));
                    break;
                }
            }
        };
        if found.as_slice() == expected {
            i += 1;
        } else if squeezed(found) == squeezed(expected) {
            spacing.get_or_insert(format!(
                "{}: expected '{}', found '{}' ({})",
                at(n, i),
                Token::new(expected),
                Token::new(found),
                spacing_of(expected, found)
            ));
            i += 1;
        } else if blank(found) {
            blank_run += found.len() as u64 + 1;
            if blank_run > MOST_BLANK {
                writeln!(
                    report,
                    "line {n}: Output Limit Exceeded: more than {MOST_BLANK} bytes of blank lines \
                     in a row; the output is not read further"
                )?;
                return Ok(Verdict {
                    cases,
                    accepted: i as u64,
                    extra_output: false,
                    outcome: Outcome::OutputLimitExceeded,
                });
            }
            spacing.get_or_insert(format!(
                "{}: expected '{}', found a blank line",
                at(n, i),
                Token::new(expected)
            ));
        } else if blank(expected) {
            spacing.get_or_insert(format!(
                "{}: expected a blank line, found '{}'",
                at(n, i),
                Token::new(found)
            ));
            i += 1;
            out.back();
        } else {
            let why = format!(
                "{}: expected '{}', found '{}'",
                at(n, i),
                Token::new(expected),
                Token::new(found)
            );
            return wrong(report, why, i, false);
        }
    }
    if let Some(missing) = ours[i..].iter().position(|l| !blank(l)) {
        let why = format!(
            "{}: expected '{}', found the end of the output",
            at(out.number + 1, i + missing),
            Token::new(ours[i + missing])
        );
        return wrong(report, why, i + missing, false);
    }
    if i < total {
        spacing.get_or_insert(format!(
            "line {} of {total}: expected a blank line, found the end of the output",
            out.number + 1
        ));
    }
    if let Some(spacing) = spacing {
        writeln!(
            report,
            "Presentation Error: {spacing}; only whitespace differs"
        )?;
        return Ok(Verdict {
            cases,
            accepted: cases,
            extra_output: false,
            outcome: Outcome::PresentationError,
        });
    }
    let lines = counted(cases, "line");
    if total > 0 && !out.lines.ended() {
        writeln!(
            report,
            "Accepted: {lines} of output, the expected output byte for byte but for the line \
             end the last line lacks (the sites accept that)"
        )?;
    } else {
        writeln!(
            report,
            "Accepted: {lines} of output, the expected output byte for byte"
        )?;
    }
    Ok(Verdict {
        cases,
        accepted: cases,
        extra_output: false,
        outcome: Outcome::Accepted,
    })
}

/// A line's bytes without any whitespace: two lines that differ only in whitespace are equal
/// here.
fn squeezed(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|c| !c.is_ascii_whitespace())
        .collect()
}

/// How `found` differs from `expected`, two lines equal but for whitespace.
fn spacing_of(expected: &[u8], found: &[u8]) -> &'static str {
    if found.strip_suffix(b"\r") == Some(expected) {
        "a CRLF line end: \\r before \\n"
    } else if found.trim_ascii_end() == expected.trim_ascii_end() {
        "whitespace at the end of the line"
    } else if found.trim_ascii_start() == expected.trim_ascii_start() {
        "whitespace at the start of the line"
    } else {
        "whitespace within the line"
    }
}
