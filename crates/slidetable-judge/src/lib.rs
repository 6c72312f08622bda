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
//! use slidetable_core::{Board, Layout};
//! use slidetable_gen::engine::{solve_sections, table_bytes};
//! use slidetable_judge::{judge, Format, JudgeError};
//! use slidetable_query::Table;
//!
//! let board = Board::EIGHT;
//! let sections = solve_sections(&[board.standard_goal()]).unwrap();
//! let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
//!
//! let mut out = Vec::new();
//! judge(Format::Acwing845, &b"2 3 4 1 5 x 7 6 8\n"[..], &table, &mut out).unwrap();
//! assert_eq!(out, b"19\n");
//!
//! let err = judge(Format::Acwing845, &b"2 3 4 1 5 x 7 6\n"[..], &table, &mut Vec::new());
//! assert!(matches!(err, Err(JudgeError::Bad { line: 1, .. })));
//! ```

mod check;
mod fifteen;
mod formats;
mod names;
mod read;

use std::io::{self, BufRead, Write};

use slidetable_core::{Board, Layout};
use slidetable_query::{CostModel, QueryError, Table};

pub use crate::check::{check, check_fifteen, Outcome, Standard, Verdict};
pub use crate::fifteen::{judge_fifteen, Solve};
use crate::formats::Judge;
pub use crate::names::UnknownFormat;
use crate::read::Bad;
pub use crate::read::MAX_LINE;

/// The judge problems whose input and output `judge` speaks. Each variant's name on the
/// command line is [`Format::name`] (the site and the problem's number); [`Format::aliases`]
/// are the other spellings it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// POJ 1077 / AcWing 179: one puzzle (1-8 and x); the move string or `unsolvable`
    /// [special judge: any solution is accepted].
    Poj,
    /// HDU 1043 (also ZOJ 1217): puzzles until end of input, 9 tiles each over any whitespace; a move string
    /// or `unsolvable` each [special judge: any solution is accepted].
    Hdu,
    /// AcWing 845: one puzzle as in poj; the fewest moves, or -1 [checked byte for byte].
    Acwing845,
    /// HihoCoder 1312: t, then t 3x3 grids (0 blank); the fewest moves (a number) or
    /// `No Solution!` each [checked byte for byte].
    Hiho,
    /// Liu Rujia's textbook problem "eight numbers": start then goal, 9 integers each (0
    /// blank); the fewest moves, or -1 [checked byte for byte].
    Pair,
    /// Luogu P1379 (also CodeVS 1225): one 9-digit string (0 blank), goal 123804765; the fewest moves [checked
    /// byte for byte].
    Luogu,
    /// HDU 3567 "Eight II": T, then T start/goal line pairs (X blank); `Case k: n` and the
    /// smallest optimal path in the order d < l < r < u [checked byte for byte].
    Hdu3567,
    /// UVa 10085: count, then 3x3 grids (0 blank); a farthest state and the path to it
    /// [special judge: any farthest state is accepted].
    Uva10085,
    /// LeetCode 773: one 2x3 board per line, `[[4,1,2],[5,0,3]]` or `board = [[4,1,2],[5,0,3]]`;
    /// the fewest moves, or -1 [checked byte for byte].
    Leetcode773,
    /// UVa 652 "Eight": a count, then that many puzzles (blank lines between); a move string
    /// or `unsolvable` each, a blank line between answers [special judge: any solution is
    /// accepted].
    Uva652,
    /// UVa 10181 (15-puzzle): N, then N 4x4 grids (0 blank); an optimal move string in LRUD
    /// or `This puzzle is not solvable.` (answered by search: see [`judge_fifteen`]) [special
    /// judge: any solution is accepted].
    Uva10181,
    /// LightOJ 1121 (15-puzzle): T, then T grids; `Case k: ` and the smallest optimal move
    /// string, or `This puzzle is not solvable.` beyond 35 moves (see [`judge_fifteen`])
    /// [checked byte for byte].
    Lightoj1121,
}

impl Format {
    /// Every format, in the order of the command line's help and `judge --list`.
    pub const ALL: [Format; 12] = [
        Format::Poj,
        Format::Hdu,
        Format::Acwing845,
        Format::Hiho,
        Format::Pair,
        Format::Luogu,
        Format::Hdu3567,
        Format::Uva10085,
        Format::Leetcode773,
        Format::Uva652,
        Format::Uva10181,
        Format::Lightoj1121,
    ];

    /// The name the command line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Poj => "poj1077",
            Format::Hdu => "hdu1043",
            Format::Acwing845 => "acwing845",
            Format::Hiho => "hihocoder1312",
            Format::Pair => "pair",
            Format::Luogu => "luogu1379",
            Format::Hdu3567 => "hdu3567",
            Format::Uva10085 => "uva10085",
            Format::Leetcode773 => "leetcode773",
            Format::Uva652 => "uva652",
            Format::Uva10181 => "uva10181",
            Format::Lightoj1121 => "lightoj1121",
        }
    }

    /// Whether the judge accepts any correct answer (a special judge), rather than comparing
    /// the output byte for byte.
    pub fn special_judge(self) -> bool {
        matches!(
            self,
            Format::Poj | Format::Hdu | Format::Uva10085 | Format::Uva652 | Format::Uva10181
        )
    }

    /// The board its puzzles are on, and so the table it needs: 2×3 for LeetCode 773, 4×4
    /// for the 15-puzzle judges, 3×3 for every other.
    pub fn board(self) -> Board {
        match self {
            Format::Leetcode773 => Board::new(2, 3).expect("2x3 is a board"),
            Format::Uva10181 | Format::Lightoj1121 => Board::FIFTEEN,
            _ => Board::EIGHT,
        }
    }
}

/// Why a judge run stopped. Every answer before the problem has been written to `out`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// Reading the input failed.
    #[error("cannot read the input: {0}")]
    Read(io::Error),
    /// Reading the output being checked failed.
    #[error("cannot read the output to check: {0}")]
    Output(io::Error),
    /// The table cannot answer: a table for another board, or a corrupt one.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// The table holds costs other than move counts (a weighted table); the judges' problems
    /// count moves.
    #[error("the table holds {cost} costs, but the judges count moves (use a --cost unit table)")]
    NotMoveCounts {
        /// The table's cost model.
        cost: CostModel,
    },
}

/// Reads `input` as `format` reads it and writes the answers to `out`, from `table`, which
/// must be for [`Format::board`] and count moves ([`CostModel::Unit`]). Stops at the first
/// bad input, after every earlier answer.
/// The input is streamed, one line at a time: memory does not grow with it, and a line longer
/// than [`MAX_LINE`] bytes is bad input.
pub fn judge<D: AsRef<[u8]>>(
    format: Format,
    input: impl BufRead,
    table: &Table<D>,
    out: &mut impl Write,
) -> Result<(), JudgeError> {
    answer(format, input, table, out, false).map(drop)
}

/// [`judge`], returning the start of every case answered with a path or a farthest state
/// when `record` is set (an empty list otherwise).
fn answer<D: AsRef<[u8]>>(
    format: Format,
    input: impl BufRead,
    table: &Table<D>,
    out: &mut impl Write,
    record: bool,
) -> Result<Vec<Layout>, JudgeError> {
    if table.board() != format.board() {
        return Err(QueryError::WrongBoard {
            table: table.board(),
            found: format.board(),
        }
        .into());
    }
    let cost = table.header().cost();
    if cost != CostModel::Unit {
        return Err(JudgeError::NotMoveCounts { cost });
    }
    let mut run = Judge::new(table, input, out)?;
    if record {
        run.starts = Some(Vec::new());
    }
    run.run(format)?;
    Ok(run.starts.unwrap_or_default())
}

impl From<Bad> for JudgeError {
    fn from(b: Bad) -> JudgeError {
        JudgeError::Bad {
            line: b.line,
            what: b.what,
        }
    }
}
