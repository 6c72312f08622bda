//! `generate`'s arguments resolved: what is made (a table of every state, pattern databases,
//! or this process's parts) and where it goes, every contradiction refused before any work.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use slidetable::core::Layout;
use slidetable::defaults;
use slidetable::generate::parts::PartsPlan;
use slidetable::generate::Partition;
use slidetable::generate::{pattern_goal, PatternPlan};
use slidetable::query::{CostModel, Encoding};

use crate::cli::GenerateArgs;
use crate::error::UsageError;
use crate::puzzles::parse_goal;
use crate::tables::{self, Origin, Plan};

/// What `generate` makes, and where.
pub(crate) enum Generation {
    /// A table of every state.
    Table {
        plan: Plan,
        to: Destination,
        /// `--restart`: start over rather than resume an interrupted search.
        restart: bool,
    },
    /// Pattern databases (`--pdb`, or a board with no table of every state).
    Patterns {
        plan: PatternPlan,
        path: PathBuf,
        /// The cache's database (locked against queries making it on first use meanwhile).
        cache: bool,
    },
    /// `--max-depth D`: the states within `D` moves of one goal.
    Bounded {
        goal: Layout,
        max_depth: u32,
        path: PathBuf,
        /// `--restart`: start over rather than resume an interrupted search.
        restart: bool,
    },
    /// `--max-depth D --parts DIR`: this process's part of the search within `D` moves.
    BoundedParts {
        plan: slidetable::generate::BoundedPartsPlan,
        /// `--level-timeout`.
        level_timeout: Duration,
        /// `--stats FILE`.
        stats: Option<PathBuf>,
    },
    /// `--plan`: what the search of every state in parts would take, printed.
    Plan(crate::plan::Request),
    /// `--parts DIR`: this process's part of the search.
    Parts {
        plan: PartsPlan,
        /// `--level-timeout`.
        level_timeout: Duration,
        /// `--stats FILE`.
        stats: Option<PathBuf>,
    },
}

/// Where a table of every state is written.
pub(crate) enum Destination {
    /// `-o -`: standard output (not a terminal), the report on standard error.
    Stdout,
    /// A file; `cache`: the cache's default table (its directory made, the table locked).
    File { path: PathBuf, cache: bool },
}

impl Generation {
    pub(super) fn of(args: &GenerateArgs) -> Result<Generation> {
        // A variable that would be ignored is refused before any work.
        slidetable::generate::environment::check()?;
        if args.plan {
            return Ok(Generation::Plan(crate::plan::Request {
                board: args.board,
                processes: args.processes,
                batch: args.batch,
                memory_per_machine: args.memory_per_machine,
                disk_per_machine: args.disk_per_machine,
                max_depth: args.max_depth,
            }));
        }
        if let Some(max_depth) = args.max_depth {
            return bounded(args, max_depth);
        }
        // On 4x4 the default is the pattern database; the table of every state is asked
        // for by name.
        let patterns = args.board == slidetable::core::Board::FIFTEEN && !args.states;
        if let Some(dir) = &args.parts {
            if patterns {
                return Err(UsageError(
                    "--parts makes a table of every state, and on 4x4 (whose default is the \
                     pattern database) that is asked for with --states: `generate --board 4x4 \
                     --states --parts DIR` (1.05·10¹³ states, 2.6 TB of 2-bit entries; \
                     `--plan` says how many machines)"
                        .into(),
                )
                .into());
            }
            return in_parts(args, dir);
        }
        if args.pdb.is_some() || patterns {
            return pattern_database(args);
        }
        table(args)
    }
}

/// A table of every state: its goals, encoding and cost checked, and its file.
fn table(args: &GenerateArgs) -> Result<Generation> {
    let board = args.board;
    let goals = if args.all_goals {
        slidetable::generate::all_goals(board)
    } else if args.goal.is_empty() {
        slidetable::generate::default_goals(board)
    } else {
        let mut goals: Vec<Layout> = Vec::new();
        for text in &args.goal {
            let goal = parse_goal(board, text)?;
            if !goals.contains(&goal) {
                goals.push(goal);
            }
        }
        goals
    };
    // The library's limits, refused as usage errors before any work.
    let encoding = slidetable::generate::check_plan(board, args.encoding, args.cost)
        .map_err(|e| UsageError(e.to_string()))?;
    if !board.supports_tables() && args.output.is_none() {
        let bytes = encoding
            .payload_len(board.reachable_states())
            .unwrap_or(u64::MAX);
        return Err(UsageError(format!(
            "a table of every {board} state ({} of 2-bit entries) is not a default table: \
             name its file with -o PATH, or write it in parts on several machines with \
             --parts DIR (`generate --plan --board {board}` gives the figures)",
            slidetable::generate::room::human(bytes)
        ))
        .into());
    }
    if args.cost != CostModel::Unit && args.output.is_none() {
        return Err(UsageError(format!(
            "a --cost {} table is not a default table: name its file with -o PATH",
            args.cost
        ))
        .into());
    }
    let plan = Plan {
        board,
        goals,
        encoding: args.encoding,
        cost: args.cost,
    };
    let to = if args.output.as_deref() == Some(Path::new("-")) {
        if io::stdout().is_terminal() {
            return Err(UsageError(
                "-o - writes the binary table to standard output, which is a terminal: \
                 redirect it (`-o - > 3x3.slt`) or name a file"
                    .to_string(),
            )
            .into());
        }
        Destination::Stdout
    } else {
        let (path, origin) = tables::resolve(args.output.as_deref(), board)?;
        Destination::File {
            path,
            cache: origin == Origin::Cache,
        }
    };
    Ok(Generation::Table {
        plan,
        to,
        restart: args.restart,
    })
}

/// `generate --pdb PARTITION` (or `generate --board 4x4`).
fn pattern_database(args: &GenerateArgs) -> Result<Generation> {
    let board = args.board;
    if args.all_goals || args.goal.len() > 1 {
        return Err(
            UsageError("a pattern database has one goal: give at most one --goal".into()).into(),
        );
    }
    if args.encoding.is_some() || args.cost != CostModel::Unit {
        return Err(UsageError(
            "a pattern database has its own encoding and unit costs: drop --encoding and --cost"
                .into(),
        )
        .into());
    }
    let goal = match args.goal.first() {
        Some(text) => parse_goal(board, text)?,
        None => pattern_goal(board),
    };
    let text = args.pdb.as_deref().unwrap_or(defaults::DEFAULT_PARTITION);
    let partition = Partition::parse(text, &goal).map_err(|e| UsageError(format!("--pdb: {e}")))?;
    let path: PathBuf = match &args.output {
        Some(p) if p.as_os_str() == "-" => {
            return Err(UsageError(
                "-o - writes a table of every state; a pattern database is written to a file: \
                 name it with -o PATH"
                    .into(),
            )
            .into())
        }
        Some(p) => p.clone(),
        None if board.supports_tables() => {
            return Err(UsageError(format!(
                "a pattern database for {board} is not the board's default table: name its \
                 file with -o PATH"
            ))
            .into())
        }
        None => tables::resolve(None, board)?.0,
    };
    Ok(Generation::Patterns {
        plan: PatternPlan { goal, partition },
        path,
        cache: args.output.is_none(),
    })
}

/// `generate --parts DIR`: a table of one goal in unit costs and 2-bit entries.
fn in_parts(args: &GenerateArgs, dir: &Path) -> Result<Generation> {
    let board = args.board;
    if args.cost != CostModel::Unit {
        return Err(UsageError(format!(
            "--parts makes a table of every state in unit costs; {board} with {} costs has none",
            args.cost
        ))
        .into());
    }
    if args.encoding.is_some_and(|e| e != Encoding::TwoBit) {
        return Err(UsageError("--parts writes 2bit entries: drop --encoding".into()).into());
    }
    let goal = match args.goal.as_slice() {
        [] => board.standard_goal(),
        [text] => parse_goal(board, text)?,
        _ => {
            return Err(UsageError(
                "--parts makes a table of one goal: give at most one --goal".into(),
            )
            .into())
        }
    };
    Ok(Generation::Parts {
        plan: PartsPlan {
            goal,
            dir: dir.to_path_buf(),
            restart: args.restart,
            batch: args.batch,
            checkpoints: slidetable::generate::checkpoint::Pace::from_env()?,
        },
        level_timeout: Duration::from_secs(args.level_timeout),
        stats: args.stats.clone(),
    })
}

/// `generate --max-depth D`: one goal, unit costs, a file named with `-o`.
fn bounded(args: &GenerateArgs, max_depth: u32) -> Result<Generation> {
    let board = args.board;
    if args.cost != CostModel::Unit {
        return Err(UsageError(format!(
            "--max-depth counts moves: a table within D moves has unit costs, not {}",
            args.cost
        ))
        .into());
    }
    let goal = match args.goal.as_slice() {
        [] => board.standard_goal(),
        [text] => parse_goal(board, text)?,
        _ => {
            return Err(UsageError(
                "--max-depth makes a table of one goal: give at most one --goal".into(),
            )
            .into())
        }
    };
    // A flag of the search of every state that a search within D moves has no use for.
    if args.batch != slidetable::generate::parts::DEFAULT_BATCH {
        return Err(UsageError(
            "--batch bounds the rounds of a table of every state in parts; --max-depth sends \
             each level in one round: drop --batch"
                .into(),
        )
        .into());
    }
    if let Some(dir) = &args.parts {
        return Ok(Generation::BoundedParts {
            plan: slidetable::generate::BoundedPartsPlan {
                goal,
                max_depth,
                dir: dir.clone(),
                restart: args.restart,
                checkpoints: slidetable::generate::checkpoint::Pace::from_env()?,
            },
            level_timeout: Duration::from_secs(args.level_timeout),
            stats: args.stats.clone(),
        });
    }
    let path = match &args.output {
        Some(p) if p.as_os_str() != "-" => p.clone(),
        _ => {
            return Err(UsageError(format!(
                "a table within D moves is not a default table and is written to a file: name \
                 it with -o PATH (`slidetable generate --board {board} --max-depth {max_depth} -o \
                 {board}-{max_depth}.slt`), or made in parts with --parts DIR"
            ))
            .into())
        }
    };
    Ok(Generation::Bounded {
        goal,
        max_depth,
        path,
        restart: args.restart,
    })
}
