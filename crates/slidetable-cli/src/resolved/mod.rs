//! The arguments resolved once, before a command runs (as ripgrep turns the flags it parsed
//! into its `HiArgs`): [`Resolved::of`] turns each command's clap struct into one value —
//! which file answers and how it was found (`--table`, else the default of the board:
//! `$SLIDETABLE_TABLE` for 3×3, else the cache's, made on first use), opened once as what it
//! holds ([`AnyTable`]); the board; the goal; what is printed and how. Every argument is
//! checked here, in the order the command line's messages promise; the commands take these
//! values and derive none of them again.

mod generation;
mod search;

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::CommandFactory;
use slidetable::core::{Board, Layout, Move, MAX_TABLE_CELLS};
use slidetable::defaults;
use slidetable::judge::Format;
use slidetable::query::{
    AnyTable, MappedBoundedTable, MappedPatternTable, MappedTable, SplitMix64, MAX_RECOVERED_CELLS,
};
use slidetable::search::HeuristicKind;

use crate::cli::{
    BatchArgs, Cli, Command, DistanceArgs, HeuristicArgs, HeuristicChoice, InfoArgs, JudgeArgs,
    ManArgs, PathArgs, RandomArgs, ServeArgs, TargetArgs,
};
use crate::error::UsageError;
use crate::puzzles::{parse_goal, Reading};
use crate::tables;

pub(crate) use generation::{Destination, Generation};
pub(crate) use search::{pattern_source, PatternSource, Search};

/// A command with its arguments resolved: what `main` hands the command's `run`.
// One per run, moved once into the command: the larger variants cost nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Resolved<'a> {
    Generate(Generation),
    Info(Info),
    Merge {
        dir: &'a Path,
        output: &'a Path,
    },
    /// `distance` and `path`.
    Batch(Batch<'a>),
    Judge(Judgement<'a>),
    Search(Search<'a>),
    Stats(Statistics<'a>),
    /// `stats` on a table within `D` moves.
    BoundedStats {
        table: MappedBoundedTable,
        output: Output,
    },
    Hardest(Hardest),
    Random(Random),
    Heuristic(Heuristics<'a>),
    Completions(clap_complete::Shell),
    Man(Man),
    Serve(slidetable_serve::Config),
}

impl<'a> Resolved<'a> {
    /// `command`'s arguments resolved: every file found and opened, every argument read and
    /// checked (a contradiction is a [`UsageError`]), nothing answered yet.
    pub(crate) fn of(command: &'a Command) -> Result<Resolved<'a>> {
        Ok(match command {
            Command::Generate(args) => Resolved::Generate(Generation::of(args)?),
            Command::Info(args) => Resolved::Info(Info::of(args)?),
            Command::Merge(args) => Resolved::Merge {
                dir: &args.dir,
                output: &args.output,
            },
            Command::Distance(args) => Resolved::Batch(Batch::distance(args)?),
            Command::Path(args) => Resolved::Batch(Batch::path(args)?),
            Command::Judge(args) => Resolved::Judge(Judgement::of(args)?),
            Command::Search(args) => Resolved::Search(Search::of(args)?),
            Command::Stats(args) => {
                let output = Output::of(args.json, args.csv, false);
                match Target::resolve_any(&args.target)? {
                    Ok(target) => Resolved::Stats(Statistics {
                        target,
                        output,
                        log: args.log,
                        svg: crate::charts::check_path(args.svg.as_deref())?,
                    }),
                    Err(table) => {
                        if args.svg.is_some() || args.log {
                            return Err(UsageError(
                                "a table within D moves prints its histogram as text, --json or \
                                 --csv: drop --svg and --log"
                                    .into(),
                            )
                            .into());
                        }
                        bounded_goal(&table, args.target.goal.as_deref())?;
                        Resolved::BoundedStats { table, output }
                    }
                }
            }
            Command::Hardest(args) => Resolved::Hardest(Hardest {
                target: Target::resolve(&args.target)?,
                output: Output::of(args.json, args.csv, false),
            }),
            Command::Random(args) => Resolved::Random(Random::of(args)?),
            Command::Heuristic(args) => Resolved::Heuristic(Heuristics::of(args)?),
            Command::Completions(args) => Resolved::Completions(args.shell),
            Command::Man(args) => Resolved::Man(Man::of(args)?),
            Command::Serve(args) => Resolved::Serve(serve_config(args)),
        })
    }
}

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

    /// The file, found (a default as `slidetable::defaults` finds it, made on first use with
    /// a note and a progress bar, and refused when it is not for its board with unit costs)
    /// and opened once as what it holds, its header checked: what `info` reports on.
    pub(crate) fn find(self) -> Result<AnyTable> {
        let board = self.board.unwrap_or(Board::EIGHT);
        let found = defaults::ensure(self.explicit, board, &tables::Shown::new())?;
        Ok(found.open_header()?)
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
            (AnyTable::Bounded(b), Some(board)) if b.board() != board => {
                return Err(UsageError(format!(
                    "the table within D moves is for {} boards, not {board}",
                    b.board()
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

    /// As [`open`](Self::open), for pattern databases (the 15-puzzle's questions): a table
    /// of every state is refused.
    pub(crate) fn open_patterns(self) -> Result<MappedPatternTable> {
        Ok(self.open()?.into_patterns()?)
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
    /// `--table` was given (what a line of another board is advised).
    pub(crate) table_given: bool,
}

impl<'a> Batch<'a> {
    /// How the input's lines are read: on the table's board.
    pub(crate) fn reading(&self) -> Reading {
        Reading {
            board: self.table.board(),
            table_given: self.table_given,
        }
    }

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
            table_given: args.table.is_some(),
        })
    }
}

/// A whole-table command's table (`stats`, `hardest`, `heuristic`, `random`) and goal.
pub(crate) struct Target {
    pub(crate) table: MappedTable,
    pub(crate) goal: Layout,
    /// `--table` was given (what a line of another board is advised).
    pub(crate) table_given: bool,
}

impl Target {
    /// How puzzle lines are read: on the table's board.
    pub(crate) fn reading(&self) -> Reading {
        Reading {
            board: self.table.board(),
            table_given: self.table_given,
        }
    }

    /// The table `args` name, resolved as for `distance` (a table of every state), and the
    /// goal on its board.
    fn resolve(args: &TargetArgs) -> Result<Target> {
        Target::of(args.table.as_deref(), args.board, args.goal.as_deref())
    }

    /// As [`Target::resolve`], but a table within `D` moves (which `stats` also reads) is
    /// handed back as it is.
    fn resolve_any(args: &TargetArgs) -> Result<Result<Target, MappedBoundedTable>> {
        let choice = TableChoice::new(args.table.as_deref(), args.board);
        let table = match choice.find()? {
            AnyTable::Bounded(table) => {
                if let Some(board) = args.board.filter(|&b| b != table.board()) {
                    return Err(UsageError(format!(
                        "the table within D moves is for {} boards, not {board}",
                        table.board()
                    ))
                    .into());
                }
                return Ok(Err(table));
            }
            other => other.into_table()?,
        };
        table.verify_at_open()?;
        if let Some(board) = args.board {
            tables::require_board(&table, board)?;
        }
        let goal = match args.goal.as_deref() {
            None => table.board().standard_goal(),
            Some(text) => parse_goal(table.board(), text)?,
        };
        Ok(Ok(Target {
            table,
            goal,
            table_given: args.table.is_some(),
        }))
    }

    fn of(table: Option<&Path>, board: Option<Board>, goal: Option<&str>) -> Result<Target> {
        let table_given = table.is_some();
        let table = TableChoice::new(table, board).open_table()?;
        let goal = match goal {
            None => table.board().standard_goal(),
            Some(text) => parse_goal(table.board(), text)?,
        };
        Ok(Target {
            table,
            goal,
            table_given,
        })
    }
}

/// What `info` describes: a table or a 15-puzzle database, or the 24-puzzle's databases.
// One per run, moved once into the command: the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Described {
    Table(AnyTable),
    TwentyFour(slidetable::TwentyFour),
}

/// `info`: the file (its header checked, not its payload), and the path it was named by.
pub(crate) struct Info {
    pub(crate) table: Described,
    /// The path as named (`--table`, `$SLIDETABLE_TABLE` or the cache's).
    pub(crate) path: PathBuf,
    pub(crate) verify: bool,
    pub(crate) json: bool,
}

impl Info {
    fn of(args: &InfoArgs) -> Result<Info> {
        let board = args.board.unwrap_or(Board::EIGHT);
        let (path, origin) = tables::resolve(args.path.as_deref(), board)?;
        if origin != tables::Origin::Cache && !path.exists() {
            anyhow::bail!(
                "no table at {}; make one with `slidetable generate -o {}`",
                path.display(),
                path.display()
            );
        }
        // Opened once as what it holds; the cache's is generated on first use, as for
        // `distance` (on 4x4: the 7-8 pattern database if there, else the first use's).
        let explicit = Some(path.as_path()).filter(|_| origin != tables::Origin::Cache);
        let table = match explicit {
            Some(file) if slidetable::TwentyFour::is_file(file) => {
                Described::TwentyFour(slidetable::TwentyFour::map(file)?)
            }
            _ => Described::Table(TableChoice::new(explicit, args.board).find()?),
        };
        Ok(Info {
            table,
            path,
            verify: args.verify,
            json: args.json,
        })
    }
}

/// `judge`: the list of judges, or a format with the file that answers it.
// One per run, moved once into the command: the larger variants cost nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Judgement<'a> {
    /// `judge --list` (or no format).
    List,
    /// A format answered from a table of every state.
    Table {
        format: Format,
        table: MappedTable,
        io: JudgeFiles<'a>,
    },
    /// A 15-puzzle format, answered by IDA* on pattern databases.
    Fifteen {
        format: Format,
        table: MappedPatternTable,
        io: JudgeFiles<'a>,
    },
}

/// The input a judge reads and, with `--check`, the output it judges.
#[derive(Clone, Copy)]
pub(crate) struct JudgeFiles<'a> {
    /// `None`: standard input.
    pub(crate) input: Option<&'a Path>,
    /// `--check`: the output to judge (`-`: standard input).
    pub(crate) check: Option<&'a Path>,
    /// `--strict`: optimal paths only.
    pub(crate) strict: bool,
}

impl<'a> Judgement<'a> {
    fn of(args: &'a JudgeArgs) -> Result<Judgement<'a>> {
        let Some(format) = args.format.filter(|_| !args.list) else {
            return Ok(Judgement::List);
        };
        let io = JudgeFiles {
            input: args.input.as_deref(),
            check: args.check.as_deref(),
            strict: args.strict,
        };
        let stdin = |path: Option<&Path>| path.is_none_or(|p| p.as_os_str() == "-");
        if io.check.is_some_and(|p| p.as_os_str() == "-") && stdin(io.input) {
            return Err(UsageError(
                "--check - reads the output to judge from standard input, so INPUT must be a \
                 file: both cannot be standard input"
                    .to_string(),
            )
            .into());
        }
        let choice = TableChoice::new(args.table.as_deref(), Some(format.board()));
        Ok(
            if matches!(format, Format::Uva10181 | Format::Lightoj1121) {
                Judgement::Fifteen {
                    format,
                    table: choice.open_patterns()?,
                    io,
                }
            } else {
                Judgement::Table {
                    format,
                    table: choice.open_table()?,
                    io,
                }
            },
        )
    }
}

/// `stats`.
pub(crate) struct Statistics<'a> {
    pub(crate) target: Target,
    /// Text, JSON or CSV.
    pub(crate) output: Output,
    pub(crate) log: bool,
    /// `--svg`: the chart instead of the text.
    pub(crate) svg: Option<&'a Path>,
}

/// `hardest`.
pub(crate) struct Hardest {
    pub(crate) target: Target,
    /// Text, JSON or CSV.
    pub(crate) output: Output,
}

/// `random`: where the puzzles are drawn from, how many, and how they are printed.
pub(crate) struct Random {
    pub(crate) draw: Draw,
    pub(crate) count: u64,
    pub(crate) distinct: bool,
    /// `--seed`, else a fresh one.
    pub(crate) seed: u64,
    pub(crate) output: Output,
}

/// Where `random` draws from.
// One per run: the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Draw {
    /// Every layout that can reach `goal` (a board with no table, or one whose table cannot
    /// draw at a distance, without `--depth`).
    Reaching { goal: Layout },
    /// The states `depth` moves from the goal, read from the table.
    AtDepth {
        depth: RangeInclusive<u32>,
        target: Target,
    },
}

impl Random {
    fn of(args: &RandomArgs) -> Result<Random> {
        let draw = Random::draw(args)?;
        Ok(Random {
            draw,
            count: args.count,
            distinct: args.distinct,
            // Without --seed, a fresh seed from the standard library's per-process keys.
            seed: args.seed.unwrap_or_else(SplitMix64::fresh_seed),
            output: Output::of(args.json, args.csv, args.show),
        })
    }

    fn draw(args: &RandomArgs) -> Result<Draw> {
        // Tables over MAX_RECOVERED_CELLS cannot draw at a distance: without --depth, such
        // a board draws from every solvable layout as a board with no table does.
        if let Some(board) = args.board.filter(|b| {
            args.table.is_none()
                && (!b.supports_tables()
                    || (b.cells() > MAX_RECOVERED_CELLS && args.depth.is_none()))
        }) {
            if args.depth.is_some() {
                let distances = if board == Board::FIFTEEN {
                    format!("`slidetable distance --board {board}` (a pattern database)")
                } else {
                    format!("`slidetable search --board {board}`")
                };
                return Err(UsageError(format!(
                    "--depth: a {board} board has {} cells; tables of every state go up to \
                     {MAX_TABLE_CELLS} cells (3x3, 3x4, 2x6...), and drawing at a distance reads \
                     one. Without --depth, `slidetable random --board {board}` draws uniformly \
                     from every solvable layout, and {distances} gives their distances",
                    board.cells()
                ))
                .into());
            }
            let goal = match &args.goal {
                None => board.standard_goal(),
                Some(text) => parse_goal(board, text)?,
            };
            return Ok(Draw::Reaching { goal });
        }
        let Some(depth) = args.depth.clone() else {
            return Err(UsageError(format!(
                "--depth is needed: how many moves from the goal to draw puzzles at (D, or \
                 A..B); only boards over {MAX_RECOVERED_CELLS} cells draw without it"
            ))
            .into());
        };
        let target = Target::of(args.table.as_deref(), args.board, args.goal.as_deref())?;
        Ok(Draw::AtDepth { depth, target })
    }
}

/// `heuristic`: the table, the heuristics measured, and either the puzzles to estimate or
/// how to print the measurement.
pub(crate) struct Heuristics<'a> {
    pub(crate) target: Target,
    /// The heuristics asked for, in order, each once; manhattan, linear-conflict and
    /// misplaced when none is named.
    pub(crate) heuristics: Vec<HeuristicChoice>,
    /// Text, JSON or CSV.
    pub(crate) output: Output,
    /// `--svg`: the chart instead of the text.
    pub(crate) svg: Option<&'a Path>,
    /// Puzzles to estimate one by one; none: measure every state.
    pub(crate) input: &'a [PathBuf],
}

impl<'a> Heuristics<'a> {
    fn of(args: &'a HeuristicArgs) -> Result<Heuristics<'a>> {
        let target = Target::resolve(&args.target)?;
        let mut heuristics: Vec<HeuristicChoice> = Vec::new();
        for k in &args.heuristic {
            if !heuristics.contains(k) {
                heuristics.push(k.clone());
            }
        }
        if heuristics.is_empty() {
            heuristics = HeuristicKind::REPORTED.map(HeuristicChoice::Kind).to_vec();
        }
        Ok(Heuristics {
            target,
            heuristics,
            output: Output::of(args.json, args.csv, false),
            svg: crate::charts::check_path(args.svg.as_deref())?,
            input: &args.input,
        })
    }
}

/// `man`: the page of the whole command or of one subcommand.
pub(crate) struct Man {
    /// Built as clap_mangen::generate_to builds it, so that commands are named
    /// `slidetable-path` and the pages' cross-references hold.
    pub(crate) command: clap::Command,
    /// The page of `slidetable` itself (with the sections only it has).
    pub(crate) main_page: bool,
}

impl Man {
    fn of(args: &ManArgs) -> Result<Man> {
        let mut cmd = Cli::command().disable_help_subcommand(true);
        cmd.build();
        let command = match &args.command {
            None => cmd,
            Some(name) => match cmd.find_subcommand(name) {
                Some(sub) => sub.clone(),
                None => {
                    let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
                    return Err(UsageError(format!(
                        "no command '{name}' (commands: {})",
                        names.join(", ")
                    ))
                    .into());
                }
            },
        };
        Ok(Man {
            command,
            main_page: args.command.is_none(),
        })
    }
}

/// `serve`'s configuration: the 3×3 table preloaded when no `--board` is named.
fn serve_config(args: &ServeArgs) -> slidetable_serve::Config {
    slidetable_serve::Config {
        bind: args.bind,
        tables: args.table.clone(),
        preload: if args.board.is_empty() {
            vec![Board::EIGHT]
        } else {
            args.board.clone()
        },
        // A default made before listening is noted as every command notes it.
        preload_told: std::sync::Arc::new(crate::tables::Shown::beside_a_server()),
        searches: slidetable_serve::SearchLimits::default(),
        connections: slidetable_serve::ConnectionLimits {
            most: args.max_connections as usize,
            idle: args.idle_timeout,
        },
    }
}

/// `--goal` on a table within `D` moves: its own goal, or one with the blank in the same
/// cell (answered by relabelling tiles); anything else is refused before any work.
fn bounded_goal(table: &MappedBoundedTable, goal: Option<&str>) -> Result<()> {
    if let Some(text) = goal {
        let goal = parse_goal(table.board(), text)?;
        if &goal != table.goal() {
            return Err(UsageError(format!(
                "stats on a table within D moves is for its own goal {}; it was made for no other",
                table.goal()
            ))
            .into());
        }
    }
    Ok(())
}
