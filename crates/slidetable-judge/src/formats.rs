//! Each judge problem: what it reads, in which order, and what it writes for each case.

use std::io::{self, BufRead, Write};

use slidetable_core::{Layout, Move};
use slidetable_query::{Goal, QueryError, Table};

use crate::read::{bad, char_layout, leetcode_board, Reader, Tiles};
use crate::{Format, JudgeError};

/// u < d < l < r: the order a breadth-first search expanding u, d, l, r finds paths in, and
/// the one that reproduces POJ 1077's sample answer.
const UDLR: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];
/// d < l < r < u: HDU 3567's required order.
const DLRU: [Move; 4] = [Move::Down, Move::Left, Move::Right, Move::Up];

/// One judge run: the table, the input being read and the answers being written.
pub(crate) struct Judge<'a, R: BufRead, W: Write, D: AsRef<[u8]>> {
    table: &'a Table<D>,
    /// The table's standard goal: checked before any input is read, whatever the format.
    standard: Goal<'a>,
    input: Reader<R>,
    out: &'a mut W,
    /// The path of the last answer, reused from one case to the next.
    path: Vec<Move>,
    /// The start of every case answered with a path or a farthest state, in order, when
    /// a check of another program's answers asks for them (`None`: memory stays constant).
    pub(crate) starts: Option<Vec<Layout>>,
}

impl<'a, R: BufRead, W: Write, D: AsRef<[u8]>> Judge<'a, R, W, D> {
    pub(crate) fn new(table: &'a Table<D>, input: R, out: &'a mut W) -> Result<Self, JudgeError> {
        Ok(Judge {
            table,
            standard: table.standard()?,
            input: Reader::new(input),
            out,
            path: Vec::with_capacity(64),
            starts: None,
        })
    }

    /// Reads the whole input as `format` does and writes every answer. A read error ends
    /// the input, and is what the run reports.
    pub(crate) fn run(&mut self, format: Format) -> Result<(), JudgeError> {
        let result = self.answer(format);
        match self.input.take_error() {
            Some(e) => Err(JudgeError::Read(e)),
            None => result,
        }
    }

    fn answer(&mut self, format: Format) -> Result<(), JudgeError> {
        match format {
            Format::Poj => self.poj(),
            Format::Hdu => self.hdu(),
            Format::Acwing845 => self.acwing845(),
            Format::Hiho => self.hiho(),
            Format::Pair => self.pair(),
            Format::Luogu => self.luogu(),
            Format::Hdu3567 => self.hdu3567(),
            Format::Uva10085 => self.uva10085(),
            Format::Leetcode773 => self.leetcode773(),
            Format::Uva652 => self.uva652(),
            // Answered by search (`judge_fifteen`), never from a table: `judge` has refused
            // every table already (none is for 4x4 boards).
            Format::Uva10181 | Format::Lightoj1121 => Err(QueryError::WrongBoard {
                table: self.table.board(),
                found: format.board(),
            }
            .into()),
        }
    }

    /// The one puzzle of poj, acwing845 and luogu: single-character tiles over any
    /// whitespace.
    fn one_puzzle(&mut self) -> Result<Layout, JudgeError> {
        Ok(self.input.puzzle(self.table.board(), Tiles::Chars, None)?)
    }

    /// After the answer to the one puzzle: nothing but whitespace may follow.
    fn nothing_after_one_puzzle(&mut self) -> Result<(), JudgeError> {
        Ok(self
            .input
            .expect_end("the puzzle (this format reads one puzzle)")?)
    }

    fn poj(&mut self) -> Result<(), JudgeError> {
        let start = self.one_puzzle()?;
        let standard = self.standard;
        self.write_path(&standard, &start, &UDLR, "unsolvable", false)?;
        self.nothing_after_one_puzzle()
    }

    fn acwing845(&mut self) -> Result<(), JudgeError> {
        let start = self.one_puzzle()?;
        let standard = self.standard;
        self.write_distance(&standard, &start, "-1")?;
        self.nothing_after_one_puzzle()
    }

    fn luogu(&mut self) -> Result<(), JudgeError> {
        let start = self.one_puzzle()?;
        let goal = Layout::new(self.table.board(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]).expect("goal");
        self.write_distance(&self.table.goal(&goal)?, &start, "-1")?;
        self.nothing_after_one_puzzle()
    }

    /// hdu: puzzles until the end of the input, read 9 tiles at a time whatever the
    /// whitespace between them (a puzzle over several lines, two on a line), as accepted
    /// solutions read them.
    fn hdu(&mut self) -> Result<(), JudgeError> {
        let standard = self.standard;
        while !self.input.at_end()? {
            let start = self.one_puzzle()?;
            self.write_path(&standard, &start, &UDLR, "unsolvable", false)?;
        }
        Ok(())
    }

    /// uva652: a count, then that many puzzles (blank lines between them); an answer each as
    /// hdu's, with a blank line between two answers.
    fn uva652(&mut self) -> Result<(), JudgeError> {
        let standard = self.standard;
        let count = self.input.count()?;
        for k in 1..=count {
            let start = self.input.puzzle(
                self.table.board(),
                Tiles::Chars,
                Some(&format!("puzzle {k} of {count}")),
            )?;
            if k > 1 {
                writeln!(self.out)?;
            }
            self.write_path(&standard, &start, &UDLR, "unsolvable", false)?;
        }
        self.input
            .expect_end(&format!("the {count} puzzles announced"))?;
        Ok(())
    }

    fn leetcode773(&mut self) -> Result<(), JudgeError> {
        let standard = self.standard;
        while let Some((line, text)) = self.input.next_nonblank_line()? {
            let start = leetcode_board(self.table.board(), line, text)?;
            self.write_distance(&standard, &start, "-1")?;
        }
        Ok(())
    }

    fn pair(&mut self) -> Result<(), JudgeError> {
        let board = self.table.board();
        let start = self.input.puzzle(board, Tiles::Numbers, Some("start"))?;
        let goal = self.input.puzzle(board, Tiles::Numbers, Some("goal"))?;
        self.write_distance(&self.table.goal(&goal)?, &start, "-1")?;
        Ok(self
            .input
            .expect_end("the start and goal (this format reads one pair)")?)
    }

    /// hiho: a count, then that many grids; the fewest moves of each.
    fn hiho(&mut self) -> Result<(), JudgeError> {
        let standard = self.standard;
        self.grids(|judge, _, start| judge.write_distance(&standard, start, "No Solution!"))
    }

    /// uva10085: a count, then that many grids; a farthest state from each.
    fn uva10085(&mut self) -> Result<(), JudgeError> {
        self.grids(|judge, k, start| judge.write_farthest(k, start))
    }

    /// A case count, then that many puzzles as grids, each answered by `answer` (with its
    /// number from 1), and nothing after them.
    fn grids(
        &mut self,
        mut answer: impl FnMut(&mut Self, u64, &Layout) -> Result<(), JudgeError>,
    ) -> Result<(), JudgeError> {
        let count = self.input.count()?;
        for k in 1..=count {
            let start = self.input.grid(self.table.board(), k, count)?;
            answer(self, k, &start)?;
        }
        self.input
            .expect_end(&format!("the {count} puzzles announced"))?;
        Ok(())
    }

    fn hdu3567(&mut self) -> Result<(), JudgeError> {
        let board = self.table.board();
        let count = self.input.count()?;
        for k in 1..=count {
            let mut pair = [board.standard_goal(); 2];
            for (i, what) in ["start", "goal"].into_iter().enumerate() {
                let Some((line, text)) = self.input.next_nonblank_line()? else {
                    return Err(bad(
                        self.input.last_line(),
                        format!(
                            "expected the {what} of case {k} of {count}, found the end of the input"
                        ),
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
        if let Some(starts) = &mut self.starts {
            starts.push(*start);
        }
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
        if let Some(starts) = &mut self.starts {
            starts.push(*start);
        }
        let from_start = self.table.goal(start)?;
        let max = from_start.section().descriptor().max_distance();
        let mut best: Option<(Vec<Move>, Layout)> = None;
        for far in from_start.layouts_at(max)? {
            // Paths from `start` to `far`: ask the table about `far` as the goal.
            let to_far = self.table.goal(&far)?;
            let mut path = Vec::with_capacity(max as usize);
            to_far.ordered_path_into(start, &UDLR, &mut path)?;
            if best.as_ref().is_none_or(|(p, _)| path > *p) {
                best = Some((path, far));
            }
        }
        // A sound section has states at its maximum distance; a corrupt payload (opening a
        // table does not check the payload's checksum) may have none.
        let Some((path, far)) = best else {
            let descriptor = from_start.section().descriptor();
            return Err(QueryError::CorruptLayer {
                goal: *descriptor.goal(),
                distance: max,
                expected: descriptor
                    .histogram()
                    .get(max as usize)
                    .copied()
                    .unwrap_or(0),
                found: 0,
            }
            .into());
        };
        writeln!(self.out, "Puzzle #{k}")?;
        writeln!(self.out, "{}", far.grid())?;
        self.path = path;
        self.write_moves(true)?;
        writeln!(self.out)?;
        Ok(())
    }
}
