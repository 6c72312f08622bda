//! The two 15-puzzle judges. Their answers come from a search (IDA* with pattern databases
//! in the command line), which the caller passes in as `solve`: this crate keeps to the
//! formats.

use std::io::{BufRead, Write};

use slidetable_core::{Board, Layout, Move};

use crate::read::Reader;
use crate::{Format, JudgeError};

/// Finds the smallest optimal path from a start to the goal 1 … 15 with the blank last
/// under a letter order, if one of at most the given length exists (`None` also when the
/// start cannot reach the goal).
pub type Solve<'s> = dyn FnMut(&Layout, [Move; 4], u32) -> Option<Vec<Move>> + 's;

/// `D < L < R < U`: the alphabetical order of the judges' letters (where the blank goes).
const ALPHABETICAL: [Move; 4] = [Move::Down, Move::Left, Move::Right, Move::Up];

/// UVa 10181 accepts any solution of at most this many moves.
pub(crate) const UVA_MOST: u32 = 50;
/// LightOJ 1121 calls a puzzle that needs more than this many moves not solvable.
const LIGHTOJ_MOST: u32 = 35;

pub(crate) const NOT_SOLVABLE: &str = "This puzzle is not solvable.";

/// Reads `input` as `format` (`Uva10181` or `Lightoj1121`) and writes its answers. The input
/// is streamed as [`crate::judge`] streams it: a line at a time, at most [`crate::MAX_LINE`]
/// bytes each; a read error is [`JudgeError::Read`].
///
/// - `uva10181`: N, then N 4×4 grids (0 the blank); per puzzle the optimal move string in
///   `L R U D` (where the blank goes; the smallest in alphabetical order), or `This puzzle
///   is not solvable.` when the puzzle cannot be solved, or not in the 50 moves the
///   problem allows.
/// - `lightoj1121`: T, then T grids (blank lines between them are skipped); `Case k: ` and
///   the alphabetically smallest optimal move string, or `This puzzle is not solvable.` when
///   none exists or it needs more than 35 moves.
pub fn judge_fifteen(
    format: Format,
    input: impl BufRead,
    solve: &mut Solve<'_>,
    out: &mut impl Write,
) -> Result<(), JudgeError> {
    answer_fifteen(format, input, solve, out, None)
}

/// [`judge_fifteen`], keeping each case's start in `starts` when given.
pub(crate) fn answer_fifteen(
    format: Format,
    input: impl BufRead,
    solve: &mut Solve<'_>,
    out: &mut impl Write,
    starts: Option<&mut Vec<Layout>>,
) -> Result<(), JudgeError> {
    let board = Board::FIFTEEN;
    let (most, cases) = match format {
        Format::Uva10181 => (UVA_MOST, false),
        Format::Lightoj1121 => (LIGHTOJ_MOST, true),
        other => {
            return Err(JudgeError::Bad {
                line: 1,
                what: format!("{} is not a 15-puzzle judge", other.name()),
            })
        }
    };
    let mut reader = Reader::new(input);
    let result = answer(&mut reader, board, most, cases, solve, out, starts);
    // A read error ends the input early: it is what the run reports.
    match reader.take_error() {
        Some(e) => Err(JudgeError::Read(e)),
        None => result,
    }
}

/// Every case of the input, then its end.
fn answer<R: BufRead>(
    reader: &mut Reader<R>,
    board: Board,
    most: u32,
    cases: bool,
    solve: &mut Solve<'_>,
    out: &mut impl Write,
    mut starts: Option<&mut Vec<Layout>>,
) -> Result<(), JudgeError> {
    let count = reader.count()?;
    let mut line = Vec::with_capacity(64);
    for k in 1..=count {
        let start = reader.grid(board, k, count)?;
        if let Some(starts) = starts.as_deref_mut() {
            starts.push(start);
        }
        line.clear();
        if cases {
            write!(line, "Case {k}: ")?;
        }
        match solve(&start, ALPHABETICAL, most) {
            Some(path) => line.extend(path.iter().map(|m| m.letter().to_ascii_uppercase() as u8)),
            None => line.extend_from_slice(NOT_SOLVABLE.as_bytes()),
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    reader.expect_end(&format!("the {count} puzzles announced"))?;
    Ok(())
}
