//! The arguments resolved once, before a command runs (as ripgrep turns the flags it parsed
//! into its `HiArgs`): which file answers and how it was found (`--table`, else the default
//! of the board: `$SLIDETABLE_TABLE` for 3×3, else the cache's, made on first use), opened
//! once as what it holds ([`AnyTable`]); the board; the goal; what is printed and how. The
//! commands take these values and derive none of them again.

use std::path::{Path, PathBuf};

use anyhow::Result;
use slidetable_core::{Board, Layout, Move};
use slidetable_gen::cache;
use slidetable_query::{AnyTable, MappedTable};

use crate::cli::{BatchArgs, DistanceArgs, PathArgs, TargetArgs};
use crate::error::UsageError;
use crate::puzzles::parse_goal;
use crate::tables;

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
    /// One CSV row per line, after a header (`--csv`).
    Csv,
    /// The boards of the solution drawn one after another (`path --show`).
    Show,
}

impl Output {
    /// The output the flags ask for (clap keeps them exclusive).
    pub(crate) fn of(json: bool, csv: bool, show: bool) -> Output {
        match (json, csv, show) {
            (true, _, _) => Output::Json,
            (_, true, _) => Output::Csv,
            (_, _, true) => Output::Show,
            _ => Output::Text,
        }
    }
}

/// Which file a query reads: `--table`, else the default of `--board` (3×3 without one).
#[derive(Clone, Copy)]
pub(crate) struct TableChoice<'a> {
    /// `--table`.
    pub(crate) explicit: Option<&'a Path>,
    /// `--board`.
    pub(crate) board: Option<Board>,
}

impl<'a> TableChoice<'a> {
    pub(crate) fn new(explicit: Option<&'a Path>, board: Option<Board>) -> TableChoice<'a> {
        TableChoice { explicit, board }
    }

    /// The file, found (a default as `slidetable_gen::cache` finds it, made on first use with
    /// a note and a progress bar, and refused when it is not for its board with unit costs)
    /// and opened once as what it holds, its header checked: what `info` reports on.
    pub(crate) fn find(self) -> Result<AnyTable> {
        let board = self.board.unwrap_or(Board::EIGHT);
        let found = cache::ensure(self.explicit, board, &tables::Shown::new())?;
        let table = AnyTable::open_header(&found.path)?;
        found.check(table.board(), table.cost())?;
        Ok(table)
    }

    /// As [`find`](Self::find), its payload verified, and for `--board`'s board when both
    /// `--table` and `--board` are given: what answers puzzles.
    pub(crate) fn open(self) -> Result<AnyTable> {
        let table = self.find()?;
        table.verify_at_open()?;
        match (&table, self.board) {
            (AnyTable::Table(t), Some(board)) => tables::require_board(t, board)?,
            (AnyTable::Patterns(p), Some(board)) if p.board() != board => {
                return Err(UsageError(format!(
                    "the pattern database is for {} boards, not {board}",
                    p.board()
                ))
                .into())
            }
            _ => {}
        }
        Ok(table)
    }

    /// As [`open`](Self::open), for a table of every state (the whole-table questions,
    /// the judges of tables): pattern databases are refused before their payload is read.
    pub(crate) fn open_table(self) -> Result<MappedTable> {
        let table = self.find()?.into_table()?;
        table.verify_at_open()?;
        if let Some(board) = self.board {
            tables::require_board(&table, board)?;
        }
        Ok(table)
    }
}

/// `distance` and `path`, resolved: the file that answers (a table or pattern databases,
/// opened once), the goal, what is printed and how, and the input.
pub(crate) struct Batch<'a> {
    pub(crate) table: AnyTable,
    /// `--goal`, read on the file's board; `None`: the standard goal.
    pub(crate) goal: Option<Layout>,
    pub(crate) answer: Answer,
    pub(crate) output: Output,
    pub(crate) input: &'a [PathBuf],
    pub(crate) keep_going: bool,
}

impl<'a> Batch<'a> {
    /// `distance`'s arguments, resolved.
    pub(crate) fn distance(args: &'a DistanceArgs) -> Result<Batch<'a>> {
        let output = Output::of(args.batch.json, args.csv, false);
        Batch::resolve(&args.batch, Answer::Distance, output)
    }

    /// `path`'s arguments, resolved.
    pub(crate) fn path(args: &'a PathArgs) -> Result<Batch<'a>> {
        let answer = match args.order {
            Some(order) => Answer::OrderedPath(order),
            None => Answer::Path,
        };
        Batch::resolve(
            &args.batch,
            answer,
            Output::of(args.batch.json, args.csv, args.show),
        )
    }

    fn resolve(args: &'a BatchArgs, answer: Answer, output: Output) -> Result<Batch<'a>> {
        let table = TableChoice::new(args.table.as_deref(), args.board).open()?;
        let goal = match &args.goal {
            None => None,
            Some(text) => Some(parse_goal(table.board(), text)?),
        };
        Ok(Batch {
            table,
            goal,
            answer,
            output,
            input: &args.input,
            keep_going: args.keep_going,
        })
    }
}

/// A whole-table command's table (`stats`, `hardest`, `heuristic`, `random`) and goal.
pub(crate) struct Target {
    pub(crate) table: MappedTable,
    pub(crate) goal: Layout,
}

impl Target {
    /// The table `args` name, resolved as for `distance` (a table of every state), and the
    /// goal on its board.
    pub(crate) fn resolve(args: &TargetArgs) -> Result<Target> {
        let table = TableChoice::new(args.table.as_deref(), args.board).open_table()?;
        let goal = match &args.goal {
            None => table.board().standard_goal(),
            Some(text) => parse_goal(table.board(), text)?,
        };
        Ok(Target { table, goal })
    }
}
