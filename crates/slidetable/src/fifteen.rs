//! The 15-puzzle in one call: a pattern database (a file written by `slidetable generate
//! --board 4x4`, or bytes in memory) and the optimal solver over it, without handing its
//! groups from one crate to the next.

use std::path::Path;

use slidetable_core::{Layout, Move};
use slidetable_query::{PatternTable, TableBytes, TableError};
use slidetable_search::{Limits, PatternError, PatternHeuristic, SearchError, Symmetric};

/// A pattern database and the optimal solver on it: IDA* guided by its additive groups (and
/// their mirror image), for any goal with the blank in a cell some symmetry of the board
/// carries onto the database goal's blank cell (any corner, for the databases `slidetable
/// generate --board 4x4` makes: the standard goal among them).
///
/// ```
/// use slidetable::generate::{pattern_bytes, solve_partition, Partition};
/// use slidetable::{parse_layout, Board, Fifteen, PatternTable};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // `Fifteen::open("4x4.slt")?` maps a file; here, a 5-5-5 database built in memory.
/// let goal = Board::FIFTEEN.goal_with_blank(0);
/// let groups = solve_partition(&goal, &Partition::parse("5-5-5", &goal)?, &|_| ())?;
/// let fifteen = Fifteen::new(PatternTable::new(pattern_bytes(&groups)?)?)?;
///
/// let puzzle = parse_layout(Board::FIFTEEN, b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")?;
/// assert_eq!(fifteen.distance(&puzzle)?, Some(1));
/// let path = fifteen.solve(&puzzle)?.expect("solvable");
/// assert_eq!(puzzle.after(&path), Some(Board::FIFTEEN.standard_goal()));
/// # Ok(())
/// # }
/// ```
pub struct Fifteen<D: AsRef<[u8]> = TableBytes> {
    table: PatternTable<D>,
}

/// Why a database cannot be opened or a puzzle answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FifteenError {
    /// The file cannot be read, or is not a sound pattern database.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Its groups do not make a heuristic (they do not partition the tiles, or are damaged).
    #[error(transparent)]
    Databases(#[from] PatternError),
    /// No symmetry of the board carries the goal's blank cell onto the database goal's.
    #[error(
        "the database's goal {database} has its blank in a cell no symmetry carries goal \
         {goal}'s blank to; make a database for it (`slidetable generate --board 4x4 --goal`)"
    )]
    Goal {
        /// The goal the database was built for.
        database: Layout,
        /// The goal asked for.
        goal: Layout,
    },
    /// The search failed (a puzzle for another board).
    #[error(transparent)]
    Search(#[from] SearchError),
}

impl Fifteen<TableBytes> {
    /// Maps the pattern database at `path` and checks that its groups make a heuristic.
    pub fn open(path: impl AsRef<Path>) -> Result<Fifteen<TableBytes>, FifteenError> {
        Fifteen::new(PatternTable::open(path)?)
    }
}

impl<D: AsRef<[u8]>> Fifteen<D> {
    /// The solver on `table`, once its groups are checked to make a heuristic.
    pub fn new(table: PatternTable<D>) -> Result<Fifteen<D>, FifteenError> {
        let fifteen = Fifteen { table };
        fifteen.heuristic()?;
        Ok(fifteen)
    }

    /// The pattern database.
    pub fn table(&self) -> &PatternTable<D> {
        &self.table
    }

    fn heuristic(&self) -> Result<PatternHeuristic<'_>, PatternError> {
        PatternHeuristic::new(self.table.goal(), &self.table.groups())
    }

    /// The solver towards `goal`, for the calls this type does not make itself
    /// ([`Symmetric::solve_all`] on every core, limits, a letter order).
    pub fn solver(&self, goal: &Layout) -> Result<Symmetric<'_>, FifteenError> {
        Symmetric::new(self.heuristic()?, goal).ok_or(FifteenError::Goal {
            database: *self.table.goal(),
            goal: *goal,
        })
    }

    /// An optimal path from `puzzle` to the standard goal (tiles in order, blank last);
    /// `None` when the puzzle cannot reach it.
    pub fn solve(&self, puzzle: &Layout) -> Result<Option<Vec<Move>>, FifteenError> {
        let goal = self.table.board().standard_goal();
        match self
            .solver(&goal)?
            .solve(puzzle, Move::ALL, &Limits::default())
        {
            Ok(found) => Ok(Some(found.path)),
            Err(SearchError::Unsolvable { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The fewest moves from `puzzle` to the standard goal; `None` when it cannot reach it.
    pub fn distance(&self, puzzle: &Layout) -> Result<Option<u32>, FifteenError> {
        Ok(self.solve(puzzle)?.map(|path| path.len() as u32))
    }
}
