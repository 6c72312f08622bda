//! `search`'s arguments resolved: the board, the goal, the method and its heuristic (refused
//! for a method that takes none), the pattern databases a `pdb` heuristic reads or builds,
//! the limits, and the output.

use std::path::{Path, PathBuf};

use anyhow::Result;
use slidetable::core::{Board, Layout};
use slidetable::search::{Limits, Method};
use slidetable::{Fifteen, PatternChoice};

use super::{Output, TableChoice};
use crate::cli::{HeuristicChoice, SearchArgs};
use crate::error::UsageError;
use crate::puzzles::parse_goal;

/// `search`, resolved.
pub(crate) struct Search<'a> {
    pub(crate) method: Method,
    pub(crate) board: Board,
    pub(crate) goal: Layout,
    pub(crate) limits: Limits,
    /// The heuristic of astar and idastar (Manhattan when none is named); the other methods
    /// take none.
    pub(crate) heuristic: HeuristicChoice,
    /// The databases of a `pdb` heuristic, read or built once for every puzzle.
    pub(crate) patterns: Option<PatternSource>,
    /// Text, JSON or CSV.
    pub(crate) output: Output,
    /// `--stats`.
    pub(crate) stats: bool,
    /// `--summary FILE`.
    pub(crate) summary: Option<&'a Path>,
    pub(crate) input: &'a [PathBuf],
    pub(crate) keep_going: bool,
}

impl<'a> Search<'a> {
    pub(super) fn of(args: &'a SearchArgs) -> Result<Search<'a>> {
        let board = args.board;
        let goal = match &args.goal {
            None => board.standard_goal(),
            Some(text) => parse_goal(board, text)?,
        };
        let limits = Limits {
            max_expanded: args.max_expanded,
            max_time: args.timeout,
            max_memory: Some(
                args.max_memory
                    .unwrap_or_else(slidetable::limits::default_max_memory),
            ),
            ..Limits::default()
        };
        let heuristic = heuristic(args)?;
        // Pattern databases are made (or mapped) once for every puzzle.
        let patterns = match &heuristic {
            HeuristicChoice::Pattern(p) if args.method.uses_heuristic() => {
                Some(pattern_source(p.as_deref(), &goal, args.table.as_deref())?)
            }
            _ => None,
        };
        Ok(Search {
            method: args.method,
            board,
            goal,
            limits,
            heuristic,
            patterns,
            output: Output::of(args.json, args.csv, false),
            stats: args.stats,
            summary: args.summary.as_deref(),
            input: &args.input,
            keep_going: args.keep_going,
        })
    }
}

/// The heuristic `--heuristic` names (Manhattan without it); refused with a method that
/// takes none, which would ignore it.
fn heuristic(args: &SearchArgs) -> Result<HeuristicChoice, UsageError> {
    match &args.heuristic {
        Some(h) => {
            args.method
                .check_heuristic(&h.to_string())
                .map_err(|e| UsageError(e.to_string()))?;
            Ok(h.clone())
        }
        None => Ok(HeuristicChoice::default()),
    }
}

/// Pattern databases for a search or a measurement (a file, or groups built in memory), with
/// their solver: the library's [`Fifteen`].
pub(crate) struct PatternSource(pub(crate) Fifteen);

/// The databases `pdb` / `pdb-PARTITION` name for `goal`, as the library chooses them
/// ([`PatternChoice::of`]): on 4×4 without a partition the file (`table`, else the cache's
/// `4x4.slt`, made on first use); otherwise the partition (by default the tiles split in two
/// halves in the goal's reading order: 4-4 on 3×3, 3-4 on 2×4) built now.
pub(crate) fn pattern_source(
    partition: Option<&str>,
    goal: &Layout,
    table: Option<&Path>,
) -> Result<PatternSource> {
    let board = goal.board();
    match PatternChoice::of(partition, goal, table.is_some())
        .map_err(|e| UsageError(format!("--heuristic {e}")))?
    {
        PatternChoice::File => {
            let databases = TableChoice::new(table, Some(board)).open_patterns()?;
            Ok(PatternSource(Fifteen::new(databases)?))
        }
        PatternChoice::Build(partition) => Ok(PatternSource(Fifteen::generate(goal, &partition)?)),
    }
}

impl PatternSource {
    /// The group sizes, `7-8` style, in the databases' order.
    pub(crate) fn partition(&self) -> String {
        self.0.partition()
    }

    /// The file the databases were read from; `None` when built in memory.
    pub(crate) fn database(&self) -> Option<String> {
        self.0.table().file().map(|p| p.display().to_string())
    }
}
