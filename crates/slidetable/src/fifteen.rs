//! The 15-puzzle in one call: a pattern database (the cache's default, a file written by
//! `slidetable generate --board 4x4`, or groups built in memory) and the optimal solver over
//! it, without handing its groups from one crate to the next. The one place a pattern solver
//! is made: the command line, the page and Python open theirs here, so they check the same
//! things and refuse a goal in the same words.

use std::path::Path;

use slidetable_core::{Board, Layout, Move};
use slidetable_format::group_sizes;
use slidetable_gen::engine::{pattern_bytes, solve_partition};
use slidetable_gen::{GenError, Partition, PartitionError};
use slidetable_query::{PatternTable, TableBytes, TableError};
use slidetable_search::{Limits, PatternError, PatternHeuristic, SearchError, Symmetric};

use crate::defaults::{self, DefaultError};

/// A pattern database and the optimal solver on it: IDA* guided by its additive groups (and
/// their mirror image), for any goal with the blank in a cell some symmetry of the board
/// carries onto the database goal's blank cell (any corner, for the databases `slidetable
/// generate --board 4x4` makes: the standard goal among them).
///
/// ```
/// use slidetable::generate::Partition;
/// use slidetable::{parse_layout, Board, Fifteen};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // `Fifteen::default()?` takes the cache's database (built once, in seconds), and
/// // `Fifteen::open("4x4.slt")?` maps a file; here, a 5-5-5 database built in memory.
/// let goal = Board::FIFTEEN.goal_with_blank(0);
/// let fifteen = Fifteen::generate(&goal, &Partition::parse("5-5-5", &goal)?)?;
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

/// The pattern databases a search's heuristic names, `pdb` or `pdb-PARTITION`, towards a goal:
/// the one rule of the command line's `search --heuristic` and Python's
/// `search(heuristic=)` ([`PatternChoice::of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternChoice {
    /// The board's databases file: the one given, else the cache's (made on first use).
    File,
    /// Groups built in memory for the goal.
    Build(Partition),
}

/// A `pdb-PARTITION` whose partition is none: its text and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pdb-{text}: {source}")]
pub struct BadPartition {
    /// The partition as given (or as chosen by default).
    pub text: String,
    /// Why it does not partition the goal's tiles.
    pub source: PartitionError,
}

impl PatternChoice {
    /// The partition a heuristic's name gives: `Some(None)` for `pdb`, `Some(Some(p))` for
    /// `pdb-p`, `None` for any other heuristic.
    pub fn named(heuristic: &str) -> Option<Option<&str>> {
        match heuristic {
            "pdb" => Some(None),
            name => name.strip_prefix("pdb-").map(Some),
        }
    }

    /// The databases `pdb` (`partition` `None`) or `pdb-PARTITION` take towards `goal`:
    /// without a partition, a file when one is given (`file_given`) or the board has no
    /// tables of every state (the 15-puzzle's, the cache's made on first use); otherwise that
    /// partition built in memory, by default the tiles split in two halves in the goal's
    /// reading order (4-4 on 3x3, 3-4 on 2x4).
    pub fn of(
        partition: Option<&str>,
        goal: &Layout,
        file_given: bool,
    ) -> Result<PatternChoice, BadPartition> {
        let board = goal.board();
        if partition.is_none() && (file_given || !board.supports_tables()) {
            return Ok(PatternChoice::File);
        }
        let tiles = board.cells() - 1;
        let text = match partition {
            Some(p) => p.to_string(),
            None => format!("{}-{}", tiles / 2, tiles - tiles / 2),
        };
        Partition::parse(&text, goal)
            .map(PatternChoice::Build)
            .map_err(|source| BadPartition { text, source })
    }
}

impl From<DefaultError> for FifteenError {
    fn from(e: DefaultError) -> FifteenError {
        FifteenError::Default(Box::new(e))
    }
}

/// Why a database cannot be opened or a puzzle answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FifteenError {
    /// The file cannot be read, or is not a sound pattern database.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The default database could not be found, made or opened (boxed: it carries paths and
    /// messages, and every `Result` of this type would be as large).
    #[error(transparent)]
    Default(Box<DefaultError>),
    /// Building the databases in memory failed.
    #[error(transparent)]
    Generate(#[from] GenError),
    /// Its groups do not make a heuristic (they do not partition the tiles, or are damaged).
    #[error(transparent)]
    Databases(#[from] PatternError),
    /// No symmetry of the board carries the goal's blank cell onto the database goal's.
    #[error(
        "the database's goal {database} has its blank in a cell no symmetry carries goal \
         {goal}'s blank to; make a database for it with `slidetable generate --board {} \
         --goal \"{goal}\" -o PATH`",
        goal.board()
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

    /// The cache's 15-puzzle database, the one the `slidetable` command uses: the 7-8
    /// databases when `slidetable generate --board 4x4` has made them, else a 6-6-3 built in
    /// seconds on first use under the cache's lock ([`defaults::patterns`]).
    // Not `Default`: opening it can fail.
    #[allow(clippy::should_implement_trait)]
    pub fn default() -> Result<Fifteen<TableBytes>, FifteenError> {
        Fifteen::default_for(Board::FIFTEEN)
    }

    /// The cache's pattern database of `board` ([`defaults::patterns`]).
    pub fn default_for(board: Board) -> Result<Fifteen<TableBytes>, FifteenError> {
        Fifteen::new(defaults::patterns(board)?)
    }

    /// [`Fifteen::default_for`], with `watch` told of a first use's generation.
    pub fn default_watched(
        board: Board,
        watch: &dyn defaults::Watch,
    ) -> Result<Fifteen<TableBytes>, FifteenError> {
        Fifteen::new(defaults::patterns_watched(board, watch)?)
    }

    /// Databases of `partition`'s groups towards `goal`, built in memory (5-5-5: about a
    /// second and 1 MB; 7-8: minutes and 1.5 GB).
    pub fn generate(
        goal: &Layout,
        partition: &Partition,
    ) -> Result<Fifteen<TableBytes>, FifteenError> {
        Fifteen::generate_watched(goal, partition, &|_| ())
    }

    /// [`Fifteen::generate`], with `progress` told of the placements each search settles (of
    /// `partition_placements` of the generator in all).
    pub fn generate_watched(
        goal: &Layout,
        partition: &Partition,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Fifteen<TableBytes>, FifteenError> {
        let bytes = pattern_bytes(&solve_partition(goal, partition, progress)?)?;
        Fifteen::new(PatternTable::new(TableBytes::from(bytes))?)
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

    /// The board it answers for.
    pub fn board(&self) -> Board {
        self.table.board()
    }

    /// Its groups' sizes, in file order, `7-8` style.
    pub fn partition(&self) -> String {
        group_sizes(self.table.groups().iter().map(|g| g.tiles))
    }

    fn heuristic(&self) -> Result<PatternHeuristic<'_>, PatternError> {
        PatternHeuristic::new(self.table.goal(), &self.table.groups())
    }

    /// The solver towards `goal`, for the calls this type does not make itself
    /// ([`Symmetric::solve_all`] on every core, limits, a letter order).
    pub fn solver(&self, goal: &Layout) -> Result<Symmetric<'_>, FifteenError> {
        Fifteen::solver_on(&self.table, goal)
    }

    /// The solver on a database the caller keeps (as [`Fifteen::solver`] without taking
    /// it): IDA* guided by `table`'s groups towards `goal`, any goal a symmetry of the board
    /// carries onto the database's (its blank in a corner, for `slidetable generate --board
    /// 4x4`'s); else [`FifteenError::Goal`].
    pub fn solver_on<'t>(
        table: &'t PatternTable<D>,
        goal: &Layout,
    ) -> Result<Symmetric<'t>, FifteenError> {
        let databases = PatternHeuristic::new(table.goal(), &table.groups())?;
        Symmetric::new(databases, goal).ok_or(FifteenError::Goal {
            database: *table.goal(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::parse_layout;

    #[test]
    fn a_goal_no_symmetry_reaches_is_refused_in_one_set_of_words() {
        let board = Board::new(3, 3).unwrap();
        let goal = board.goal_with_blank(0);
        let fifteen = Fifteen::generate(&goal, &Partition::parse("4-4", &goal).unwrap()).unwrap();
        assert_eq!(fifteen.partition(), "4-4");
        assert_eq!(fifteen.board(), board);
        // Every corner is served, through the board's symmetries.
        for corner in [0, 2, 6, 8] {
            assert!(fifteen.solver(&board.goal_with_blank(corner)).is_ok());
        }
        let middle = board.goal_with_blank(4);
        let Err(e) = fifteen.solver(&middle) else {
            panic!("the centre goal was served")
        };
        assert_eq!(
            e.to_string(),
            format!(
                "the database's goal {goal} has its blank in a cell no symmetry carries goal \
                 {middle}'s blank to; make a database for it with `slidetable generate --board \
                 3x3 --goal \"{middle}\" -o PATH`"
            )
        );
        let puzzle = parse_layout(board, b"2 3 4 1 5 0 7 6 8").unwrap();
        assert_eq!(fifteen.distance(&puzzle).unwrap(), Some(19));
        let other = parse_layout(board, b"2 1 3 4 5 6 7 8 0").unwrap();
        assert_eq!(fifteen.solve(&other).unwrap(), None);
    }
}

#[cfg(test)]
mod choice_tests {
    use super::*;

    #[test]
    fn pdb_names_a_file_on_4x4_and_halves_elsewhere() {
        assert_eq!(PatternChoice::named("pdb"), Some(None));
        assert_eq!(PatternChoice::named("pdb-4-4"), Some(Some("4-4")));
        assert_eq!(PatternChoice::named("manhattan"), None);
        let fifteen = Board::FIFTEEN.standard_goal();
        assert_eq!(
            PatternChoice::of(None, &fifteen, false),
            Ok(PatternChoice::File)
        );
        let eight = Board::EIGHT.standard_goal();
        assert_eq!(
            PatternChoice::of(None, &eight, true),
            Ok(PatternChoice::File)
        );
        let halves = |goal: &Layout| match PatternChoice::of(None, goal, false) {
            Ok(PatternChoice::Build(p)) => p.sizes(),
            other => panic!("{other:?}"),
        };
        assert_eq!(halves(&eight), "4-4");
        assert_eq!(halves(&Board::new(2, 4).unwrap().standard_goal()), "3-4");
        assert!(matches!(
            PatternChoice::of(Some("5-5-5"), &fifteen, false),
            Ok(PatternChoice::Build(_))
        ));
        let bad = PatternChoice::of(Some("4-5"), &eight, false).unwrap_err();
        assert!(bad.to_string().starts_with("pdb-4-5: "), "{bad}");
    }
}
