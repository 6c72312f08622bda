//! `--board 5x5`: the 24-puzzle's `generate`, `path`, `distance` and `search`. Its layouts
//! do not fit the ≤16-cell board every other command parses, so a command line naming
//! `--board 5x5` is read here, by a parser of its own, before the main one; any other command
//! with `--board 5x5` is refused with what does take it.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use slidetable::core::Layout25;
use slidetable::generate::engine::Parts25Event;
use slidetable::generate::room::human;
use slidetable::generate::Pattern25Error;
use slidetable::puzzles::{parse_line25, Board25};
use slidetable::search::{stopped_message, Limit, Limits, Progress25, Search25Error};
use slidetable::{Build25, TwentyFour, TwentyFourError, Written25};

use crate::commands::search::{stats_text, write_record, Found, SummaryFile, Tally};
use crate::error::{UsageError, EXIT_INTERRUPTED, EXIT_USAGE};
use crate::json::Measure;
use crate::puzzles::{BadLines, InputLines};
use crate::resolved::{Answer, Output};
use crate::streams::{self, note, warning};
use crate::tables::{self, BarUnit};

/// The board this module answers.
const BOARD: &str = "5x5";
/// The commands that take `--board 5x5`.
const COMMANDS: [&str; 4] = ["generate", "path", "distance", "search"];

/// `Some(exit code)` when the command line names `--board 5x5` (run here, or refused for a
/// command that does not take it); `None` leaves it to the main parser.
pub(crate) fn intercept(args: &[OsString]) -> Option<ExitCode> {
    let names_5x5 = args.windows(2).any(|w| w[0] == "--board" && w[1] == BOARD)
        || args.iter().any(|a| a == "--board=5x5");
    if !names_5x5 {
        return None;
    }
    let command = args.get(1).and_then(|c| c.to_str()).unwrap_or("");
    if !COMMANDS.contains(&command) {
        warning!(
            "--board 5x5 (the 24-puzzle) is answered by `generate`, `path`, `distance` and \
             `search` (on its pattern databases); `{command}` takes boards of up to 16 cells"
        );
        return Some(ExitCode::from(EXIT_USAGE));
    }
    let cli = match Cli25::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return Some(ExitCode::from(
                u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE),
            ));
        }
    };
    Some(match run(cli) {
        Ok(code) => code,
        Err(e) if crate::error::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e)
            if e.downcast_ref::<UsageError>().is_some() || crate::error::is_bad_environment(&e) =>
        {
            warning!("{e:#}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(e) => {
            warning!("{e:#}");
            ExitCode::FAILURE
        }
    })
}

/// The 24-puzzle's command line (`--board 5x5`).
#[derive(Parser, Debug)]
#[command(
    name = "slidetable",
    about = "The 24-puzzle (--board 5x5) on its pattern databases"
)]
struct Cli25 {
    #[command(subcommand)]
    command: Command25,
}

#[derive(Subcommand, Debug)]
enum Command25 {
    /// Build the 5x5 pattern databases (Korf and Felner's 6-6-6-6 by default).
    Generate(Generate25),
    /// Print an optimal move string per puzzle.
    Path(Path25),
    /// Print the optimal number of moves per puzzle.
    Distance(Distance25),
    /// IDA* on the databases, with --stats, --json and --csv.
    Search(Search25),
}

#[derive(Args, Debug)]
struct Generate25 {
    /// The board: 5x5.
    #[arg(long, value_name = "RxC", value_parser = ["5x5"])]
    board: String,
    /// The partition: 6-6-6-6 (Korf and Felner's), group sizes in goal order (5-5-5-5-4),
    /// or tiles (1,2,5/3,4,…).
    #[arg(long, value_name = "PARTITION", default_value = "6-6-6-6")]
    pdb: String,
    /// The file to write [default: slidetable/5x5.slp in the cache directory].
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    output: Option<PathBuf>,
    /// Print the memory, disk and CPU time the build needs (also for partitions too large
    /// for this machine, such as 8-8-8), and build nothing.
    #[arg(long)]
    plan: bool,
    /// With --plan: the figures of a build in parts on N processes (memory a process).
    #[arg(long, value_name = "N", requires = "plan", value_parser = clap::value_parser!(u32).range(1..))]
    processes: Option<u32>,
    /// Build this process's part of the databases into the directory DIR (made if missing,
    /// seen by every process): on the N processes of an MPI job (`mpirun -np N slidetable
    /// generate --board 5x5 --pdb 8-8-8 --parts DIR`, a slidetable built with the mpi
    /// feature), or alone; `slidetable merge DIR -o FILE` then writes the file a build on one
    /// process writes, byte for byte.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "plan"])]
    parts: Option<PathBuf>,
    /// Start over instead of resuming. Each group built is kept as a checkpoint until the
    /// file is written: beside it (.NAME.group-G.checkpoint), or with --parts each process's
    /// slice in DIR (pattern-part-K-of-N.group-G.checkpoint); the same command run again (on
    /// as many processes) takes the groups kept and builds the others.
    #[arg(long, conflicts_with = "plan")]
    restart: bool,
    /// With --parts: end the run with a message when a process settles no placement for this
    /// many seconds (another process stopped answering).
    #[arg(long, value_name = "SECONDS", default_value_t = 3600, requires = "parts", value_parser = clap::value_parser!(u64).range(1..))]
    level_timeout: u64,
}

#[derive(Args, Debug)]
struct Solve25 {
    /// The board: 5x5.
    #[arg(long, value_name = "RxC", value_parser = ["5x5"])]
    board: String,
    /// The pattern databases [default: slidetable/5x5.slp in the cache directory].
    #[arg(long, value_name = "PATH")]
    table: Option<PathBuf>,
    /// The goal, any layout (same syntax as a puzzle) with its blank in a corner, which a
    /// symmetry of the board carries onto the databases' goal [default: 0 1 2 … 24].
    #[arg(long, value_name = "LAYOUT")]
    goal: Option<String>,
    /// Print each puzzle's statistics on stderr (`search` with --json or --csv: in each
    /// record, then a JSON summary over every puzzle on stderr, or in --summary FILE).
    #[arg(long)]
    stats: bool,
    /// Give up on a puzzle after expanding this many states (answer `unknown`, exit 1): the
    /// cores, each looking at the count as often as N needs, stop within N/16 states past N
    /// (at least one a core).
    #[arg(long, value_name = "N")]
    max_expanded: Option<u64>,
    /// Give up on a puzzle after this many seconds (answer `unknown`, exit 1).
    #[arg(long, visible_alias = "max-seconds", value_name = "SECONDS", value_parser = crate::limits::parse_timeout)]
    timeout: Option<Duration>,
    /// Refused on 5x5: IDA* holds no states but its path, so there is no memory to limit.
    #[arg(long, value_name = "SIZE", hide = true)]
    max_memory: Option<String>,
    /// On a bad line print `invalid`, report it on stderr and go on (exit 65 at the end).
    #[arg(long)]
    keep_going: bool,
    /// Puzzles, one per line (25 numbers, 0 or x the blank); standard input without.
    #[arg(value_name = "INPUT")]
    input: Vec<PathBuf>,
}

#[derive(Args, Debug)]
struct Path25 {
    /// One JSON object per puzzle line, as on every board (docs/JSON.md); a search stopped
    /// at a limit has `"distance": null` and `"at_least"`, the bound it proved.
    #[arg(long)]
    json: bool,
    /// Print CSV with a header line: puzzle, distance, path (both empty if unreachable or
    /// stopped at a limit), solvable.
    #[arg(long, conflicts_with_all = ["json", "show"])]
    csv: bool,
    /// Draw the boards of each solution one after another, several per row.
    #[arg(long, conflicts_with = "json")]
    show: bool,
    /// Refused on 5x5: its search finds one optimal path, not the smallest under an order.
    #[arg(long, value_name = "PERM", hide = true)]
    order: Option<String>,
    #[command(flatten)]
    solve: Solve25,
}

#[derive(Args, Debug)]
struct Distance25 {
    /// One JSON object per puzzle line, as on every board (docs/JSON.md); a search stopped
    /// at a limit has `"distance": null` and `"at_least"`, the bound it proved.
    #[arg(long)]
    json: bool,
    /// Print CSV with a header line: puzzle, distance (empty if unreachable or stopped at a
    /// limit), solvable.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    #[command(flatten)]
    solve: Solve25,
}

#[derive(Args, Debug)]
struct Search25 {
    /// The search method: idastar (the only one on 5x5).
    #[arg(long, value_name = "METHOD", value_parser = ["idastar"])]
    method: String,
    /// The heuristic: pdb (the databases with their reflection, the only one on 5x5).
    #[arg(long, value_name = "NAME", default_value = "pdb", value_parser = ["pdb"])]
    heuristic: String,
    /// One JSON object per input line (docs/JSON.md): puzzle, distance, path, solvable,
    /// method, heuristic, partition, database, stats (with --stats), error (at a limit); a
    /// bad line under --keep-going its line and error.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header line, the columns of `search --csv` on every board: puzzle,
    /// distance, path, solvable, method, heuristic, partition, database, and with --stats
    /// the search's figures.
    #[arg(long)]
    csv: bool,
    /// Write the summary over every puzzle (counts, nodes, time, mean branching factor) to
    /// this file as one JSON object; without it, --stats with --json or --csv prints it on
    /// stderr.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    #[command(flatten)]
    solve: Solve25,
}

fn run(cli: Cli25) -> Result<ExitCode> {
    let output = |json, csv, show| match (json, csv, show) {
        (true, _, _) => Output::Json,
        (_, true, _) => Output::Csv,
        (_, _, true) => Output::Show,
        _ => Output::Text,
    };
    match cli.command {
        Command25::Generate(g) => generate(g),
        Command25::Path(p) => {
            if p.order.is_some() {
                return Err(UsageError(
                    "--order: the 24-puzzle's search finds one optimal path (the one a single \
                     thread would find), not the smallest under an order of the moves"
                        .into(),
                )
                .into());
            }
            let output = output(p.json, p.csv, p.show);
            solve(&p.solve, Answer::Path, Printed25::Answers(output))
        }
        Command25::Distance(d) => {
            let output = output(d.json, d.csv, false);
            solve(&d.solve, Answer::Distance, Printed25::Answers(output))
        }
        Command25::Search(s) => {
            let output = output(s.json, s.csv, false);
            solve(
                &s.solve,
                Answer::Path,
                Printed25::Search(output, s.summary.as_deref()),
            )
        }
    }
}

/// A partition that is none as a usage error (exit 2); anything else as it is.
fn usage(e: TwentyFourError) -> anyhow::Error {
    match e {
        TwentyFourError::Generate(Pattern25Error::Partition { .. }) => {
            anyhow::Error::from(UsageError(e.to_string()))
        }
        e => e.into(),
    }
}

/// CPU-seconds said in the largest unit that keeps them readable.
fn cpu_time(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} CPU-seconds")
    } else if seconds < 7200.0 {
        format!("{:.1} CPU-minutes", seconds / 60.0)
    } else {
        format!("{:.1} CPU-hours", seconds / 3600.0)
    }
}

fn generate(args: Generate25) -> Result<ExitCode> {
    if args.plan {
        let processes = args.processes.unwrap_or(1);
        let plan = Build25::plan(&args.pdb, processes).map_err(usage)?;
        let mut out = streams::stdout();
        if processes == 1 {
            writeln!(
                out,
                "board 5x5: pattern database {} ({} groups, {} placements): {} of memory at the peak, a {} file, at least {}",
                plan.sizes,
                plan.groups,
                plan.placements,
                human(plan.memory),
                human(plan.disk),
                cpu_time(plan.cpu_seconds)
            )?;
        } else {
            writeln!(
                out,
                "board 5x5: pattern database {} ({} groups, {} placements) on {processes} processes: {} of memory a process at the peak, a {} file ({} a part), at least {} in all",
                plan.sizes,
                plan.groups,
                plan.placements,
                human(plan.memory),
                human(plan.disk),
                human(plan.disk.div_ceil(u64::from(processes))),
                cpu_time(plan.cpu_seconds)
            )?;
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.parts {
        return generate_part(
            &args.pdb,
            dir,
            args.restart,
            std::time::Duration::from_secs(args.level_timeout),
        );
    }
    let build = Build25::new(&args.pdb).map_err(usage)?;
    let (memory, _) = build.needs();
    let sizes = build.partition().sizes();
    let groups = build.partition().groups().len();
    let placements = build.placements();
    crate::signals::clean_up_on_signals();
    let started = Instant::now();
    let bar = tables::progress_bar(
        placements,
        BarUnit::Placements,
        format!("generating 5x5 {sizes} ({} of memory)", human(memory)),
    );
    let written = build.write_with(
        args.output.as_deref(),
        args.restart,
        &|n| bar.inc(n),
        &mut |event| {
            tell_checkpoints(event, 0, 1, None, &bar);
        },
    );
    bar.finish_and_clear();
    let Written25 { path, bytes, .. } = written?;
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "board 5x5: pattern database {sizes} ({groups} groups, {placements} placements), goal {}, {bytes} bytes",
        build.goal(),
    )?;
    writeln!(out, "took {:.1} s", started.elapsed().as_secs_f64())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Tells of a 5x5 build's checkpoints (`event`) as process `me` of `parts` (0 of 1 for the
/// build in one process, which notes no checkpoint as it is written, as the tables' searches
/// do not), in `dir` for a build in parts: part 0's process says what is resumed and
/// restarted, each process what could not be written. Whether a checkpoint was written.
fn tell_checkpoints(
    event: Parts25Event,
    me: u32,
    parts: u32,
    dir: Option<&Path>,
    bar: &indicatif::ProgressBar,
) -> bool {
    let them = |n: usize| if n == 1 { "it" } else { "them" };
    match event {
        Parts25Event::Resumed {
            groups,
            checkpoints,
        } if me == 0 => bar.suspend(|| {
            let from = match (dir, checkpoints.first()) {
                (Some(dir), _) => format!("every part's checkpoint in {}", dir.display()),
                (None, Some(first)) if checkpoints.len() > 1 => {
                    format!("{} and the others", first.display())
                }
                (None, first) => first.map_or(String::new(), |f| f.display().to_string()),
            };
            note!(
                "resuming: took group{} {} from {from} instead of building {} again",
                if groups.len() == 1 { "" } else { "s" },
                groups
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                them(groups.len())
            )
        }),
        Parts25Event::Restarted { files } if me == 0 => bar.suspend(|| {
            note!(
                "--restart: removed the interrupted build's checkpoints ({})",
                slidetable::core::counted(files as u64, "file")
            )
        }),
        Parts25Event::Saved {
            group, bytes, took, ..
        } => {
            if me == 0 && dir.is_some() {
                bar.suspend(|| {
                    note!(
                        "checkpoint of group {group}: {} a part, {:.1} s",
                        human(bytes),
                        took.as_secs_f64()
                    )
                })
            }
            return true;
        }
        Parts25Event::Failed {
            group,
            checkpoint,
            error,
        } => bar.suspend(|| {
            let who = match dir {
                Some(_) => format!("part {me} of {parts}: "),
                None => String::new(),
            };
            warning!(
                "{who}the checkpoint of group {group} ({}) was not written ({error}); the \
                 build goes on, and a rerun builds that group again",
                checkpoint.display()
            )
        }),
        _ => {}
    }
    false
}

/// `generate --board 5x5 --parts DIR`: this process's part of the build (all of it without
/// MPI); part 0's process reports, and tells of the checkpoints.
fn generate_part(
    pdb: &str,
    dir: &Path,
    restart: bool,
    timeout: std::time::Duration,
) -> Result<ExitCode> {
    let build = Build25::new(pdb).map_err(usage)?;
    slidetable::generate::environment::check()?;
    let mut exchange = crate::run_in_parts::exchange()?;
    let (me, parts) = (exchange.rank(), exchange.size());
    crate::signals::clean_up_on_signals();
    let started = Instant::now();
    let placements = build.placements();
    let sizes = build.partition().sizes();
    let bar = if me == 0 {
        tables::progress_bar(
            placements.div_ceil(u64::from(parts)),
            BarUnit::Placements,
            format!("generating 5x5 {sizes}, part 0 of {parts}"),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let watch = crate::run_in_parts::watchdog_of(
        crate::run_in_parts::Watched::Placements,
        timeout,
        me,
        parts,
    );
    // Whether this process has written a checkpoint of some group (what a failed run says
    // stays).
    let mut saved = false;
    let mut events = |event: Parts25Event| {
        saved |= tell_checkpoints(event, me, parts, Some(dir), &bar);
    };
    let done = build.write_part(
        dir,
        restart,
        exchange.as_mut(),
        &|n| {
            watch.alive();
            bar.inc(n)
        },
        &mut events,
    );
    bar.finish_and_clear();
    let done = match done {
        Ok(done) => done,
        Err(e) => {
            let refused = matches!(
                &e,
                TwentyFourError::Generate(Pattern25Error::NoRoom { .. })
                    | TwentyFourError::Generate(Pattern25Error::Gen(
                        slidetable::generate::GenError::Parts { .. }
                            | slidetable::generate::GenError::NoDirectory { .. }
                    ))
            );
            if parts == 1 {
                return Err(e.into());
            }
            if let TwentyFourError::Generate(Pattern25Error::Gen(
                slidetable::generate::GenError::EveryPart(why),
            )) = e
            {
                // Refused by every process together: part 0's process says why, once, and the
                // others end only once it has (the tables' ending of a run in parts).
                return crate::run_in_parts::failed(
                    slidetable::generate::GenError::EveryPart(why),
                    exchange.as_mut(),
                    "",
                    false,
                );
            }
            let kept = if saved {
                format!(
                    "; the checkpoints of the groups built stay in {}: run the same command \
                     again (on as many processes) to take the groups every part kept, or add \
                     --restart to start over",
                    dir.display()
                )
            } else {
                String::new()
            };
            if refused {
                // Refused by every process before the search: none waits for another.
                warning!("part {me} of {parts}: {e:#}");
            } else {
                // The others may wait for this one in a collective call: end them too.
                warning!("part {me} of {parts}: {e:#}; ending the run{kept}");
                exchange.abort(1);
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    if me == 0 {
        let mut out = streams::stdout();
        writeln!(
            out,
            "wrote {} ({}, pattern-part-K-of-{parts}.slp)",
            dir.display(),
            slidetable::core::counted(u64::from(parts), "part")
        )?;
        writeln!(
            out,
            "board 5x5: pattern database {sizes} ({} groups, {placements} placements), goal {}; `slidetable merge {} -o FILE` joins the parts",
            done.groups.len(),
            build.goal(),
            dir.display()
        )?;
        writeln!(out, "took {:.1} s", started.elapsed().as_secs_f64())?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// How the answers are printed: as `path` and `distance` print them on every board, or as
/// `search` does (its records name the search; its summary to the file given, if any).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Printed25<'a> {
    Answers(Output),
    Search(Output, Option<&'a Path>),
}

/// The library's refusals that are bad arguments (a goal the databases cannot answer for,
/// no default file, a `SLIDETABLE_AVAILABLE_MEMORY` that is no number) as such (exit 2);
/// anything else as it is.
fn refused(e: TwentyFourError) -> anyhow::Error {
    match e {
        TwentyFourError::NoDefault { .. } | TwentyFourError::Goal { .. } => {
            anyhow::Error::from(UsageError(e.to_string()))
        }
        TwentyFourError::Generate(Pattern25Error::Gen(
            e @ slidetable::generate::GenError::Environment { .. },
        )) => e.into(),
        e => e.into(),
    }
}

/// Each puzzle of the inputs, optimally, one after another (each on every core), its answer
/// written by the writers of every board.
fn solve(args: &Solve25, answer: Answer, printed: Printed25<'_>) -> Result<ExitCode> {
    if args.max_memory.is_some() {
        return Err(UsageError(
            "--max-memory: the 24-puzzle's IDA* holds no states but the path it is on (the \
             mapped databases and a few MB), so there is no memory to limit"
                .into(),
        )
        .into());
    }
    let goal = match &args.goal {
        Some(text) => parse_line25(Board25::TWENTY_FOUR, text.as_bytes())
            .map_err(|e| UsageError(format!("--goal '{text}': {e}")))?,
        None => Layout25::goal_with_blank(5, 5, 0).expect("5x5 is a board"),
    };
    let solver = TwentyFour::open_or_default(args.table.as_deref()).map_err(refused)?;
    let towards = solver.towards(&goal).map_err(refused)?;
    let sizes = solver.sizes();
    let partition = sizes.to_string();
    let database = args.table.as_deref().and_then(Path::to_str);
    let setup = crate::json::SearchSetup {
        method: "idastar",
        heuristic: Some("pdb"),
        partition: Some(&partition),
        database: Some(database),
    };
    let ctrl_c = crate::signals::stop_on_ctrl_c();
    let limits = Limits {
        max_expanded: args.max_expanded,
        max_time: args.timeout,
        max_memory: None,
        stop: Some(ctrl_c.stop()),
    };
    let terminal = io::stderr().is_terminal();
    let mut out = streams::stdout();
    match printed {
        Printed25::Answers(Output::Csv) => {
            crate::answers::write_csv_header(&mut out, answer, Measure::Distance)?
        }
        Printed25::Search(Output::Csv, _) => {
            out.write_all(crate::commands::search::csv_header(args.stats).as_bytes())?
        }
        _ => {}
    }
    let mut unknown = false;
    // Ctrl-C stopped a search: the run ends there, exit 130.
    let mut interrupted = false;
    let mut answered = 0u64;
    let summary = match printed {
        Printed25::Search(_, file) => SummaryFile::create(file)?,
        Printed25::Answers(_) => None,
    };
    let mut tally = Tally::new(setup);
    let mut buf = Vec::new();
    let invalid = |number: u64, what: &str, out: &mut _| match printed {
        Printed25::Answers(output) => {
            crate::answers::write_invalid_answer(out, answer, output, number, what)
        }
        Printed25::Search(output, _) => {
            crate::commands::search::write_invalid_record(out, output, args.stats, number, what)
        }
    };
    let code = crate::puzzles::each_input(&args.input, args.keep_going, |input| {
        if interrupted {
            return Ok(ExitCode::from(EXIT_INTERRUPTED));
        }
        let mut lines = InputLines::open(input)?;
        let mut bad = BadLines::new(args.keep_going);
        while let Some((number, parsed)) = lines
            .next(|text| parse_line25(Board25::TWENTY_FOUR, text).map_err(|e| e.to_string()))?
        {
            let line = lines.line(number);
            let start = match parsed {
                Ok(start) => start,
                Err(what) => {
                    if let Some(stop) = bad.report(line, &what, &mut out, invalid)? {
                        return Ok(stop);
                    }
                    continue;
                }
            };
            answered += 1;
            buf.clear();
            if !start.reaches(&goal) {
                tally.add(None, false, None);
                match printed {
                    Printed25::Answers(output) => crate::answers::write(
                        &mut buf, answered, &start, answer, output, None, None, false,
                    ),
                    Printed25::Search(output, _) => {
                        let found = Found {
                            path: None,
                            solvable: false,
                            figures: None,
                            error: None,
                        };
                        write_record(&mut buf, output, &start, found, &setup, args.stats)
                    }
                }
                out.write_all(&buf)?;
                continue;
            }
            out.flush()?;
            let shown = AtomicBool::new(false);
            let progress = |p: Progress25| {
                if terminal {
                    shown.store(true, Relaxed);
                    let secs = p.elapsed.as_secs_f64().max(1e-9);
                    let mut err = io::stderr().lock();
                    let _ = write!(
                        err,
                        "\r\x1b[K{line}: bound {}, {} expanded, {:.1} M/s, {:.0} s",
                        p.bound,
                        p.expanded,
                        p.expanded as f64 / secs / 1e6,
                        secs
                    );
                    let _ = err.flush();
                }
            };
            let searching = ctrl_c.searching();
            let result = solver.solve_towards(&start, &towards, &limits, &progress);
            drop(searching);
            if shown.load(Relaxed) {
                let _ = write!(io::stderr().lock(), "\r\x1b[K");
            }
            match result {
                Ok(solved) => {
                    let s = &solved.stats;
                    let moves = solved.path.len() as u32;
                    tally.add(Some(moves), true, Some(s));
                    // `search --json`/`--csv` put the figures in the record, as on every
                    // board; text and `path`/`distance` on stderr.
                    let in_record = matches!(printed, Printed25::Search(o, _) if o != Output::Text);
                    if args.stats && !in_record {
                        note!("{line}: {}", stats_text(&setup, s, moves));
                    }
                    match printed {
                        Printed25::Answers(output) => crate::answers::write(
                            &mut buf,
                            answered,
                            &start,
                            answer,
                            output,
                            Some(moves),
                            Some(&solved.path),
                            false,
                        ),
                        Printed25::Search(output, _) => {
                            let found = Found {
                                path: Some(&solved.path),
                                solvable: true,
                                figures: args
                                    .stats
                                    .then(|| crate::json::SearchStats::of(s, Some(moves))),
                                error: None,
                            };
                            write_record(&mut buf, output, &start, found, &setup, args.stats)
                        }
                    }
                    out.write_all(&buf)?;
                }
                Err(TwentyFourError::Search(Search25Error::LimitReached { limit, stats })) => {
                    tally.add(None, true, Some(&stats));
                    let proved = stats.bound.unwrap_or(0);
                    let why = stopped_message(limit, &stats);
                    match printed {
                        Printed25::Answers(output) => {
                            write_unknown(&mut buf, answered, &start, answer, output, proved, &why)
                        }
                        Printed25::Search(output, _) => {
                            let found = Found {
                                path: None,
                                solvable: true,
                                figures: args
                                    .stats
                                    .then(|| crate::json::SearchStats::of(&stats, None)),
                                error: Some(why.clone()),
                            };
                            write_record(&mut buf, output, &start, found, &setup, args.stats)
                        }
                    }
                    out.write_all(&buf)?;
                    out.flush()?;
                    match limit {
                        Limit::Stopped => warning!("{line}: {why} (Ctrl-C)"),
                        _ => warning!("{line}: {why}"),
                    }
                    if limit == Limit::Stopped {
                        interrupted = true;
                        return Ok(ExitCode::from(EXIT_INTERRUPTED));
                    }
                    unknown = true;
                }
                // Any other failure ends the run, naming the line as a limit's message does.
                Err(e) => return Err(anyhow::Error::from(e).context(line.to_string())),
            }
        }
        bad.end(lines.name(), &mut out)
    })?;
    out.flush()?;
    // Stopped by Ctrl-C, the run still writes the summary of what it did.
    let code = match interrupted {
        true => ExitCode::from(EXIT_INTERRUPTED),
        false => code,
    };
    match printed {
        // The summary counts the puzzles answered, bad lines or not, as on every board.
        Printed25::Search(output, _) => tally.end(summary, args.stats, output, code),
        Printed25::Answers(_) if code != ExitCode::SUCCESS => Ok(code),
        Printed25::Answers(_) if unknown => Ok(ExitCode::FAILURE),
        Printed25::Answers(_) => Ok(ExitCode::SUCCESS),
    }
}

/// What `path` and `distance` answer for a puzzle whose search a limit stopped: `unknown`;
/// a JSON record with no distance and the bound proved (`at_least`), as a table of the
/// states within D moves answers past D (why is on standard error); a CSV row with
/// the value empty and `solvable` true; a drawing's heading saying why.
fn write_unknown(
    buf: &mut Vec<u8>,
    number: u64,
    start: &Layout25,
    answer: Answer,
    output: Output,
    proved: u32,
    why: &str,
) {
    let with_path = !matches!(answer, Answer::Distance);
    match output {
        Output::Text => buf.extend_from_slice(b"unknown\n"),
        Output::Json => crate::json::line(
            buf,
            &crate::json::Record {
                puzzle: start.tiles(),
                distance: Some(None),
                at_least: Some(proved),
                path: with_path.then_some(None),
                solvable: true,
                ..crate::json::Record::default()
            },
        ),
        Output::Csv => crate::answers::write_csv_row(buf, start, answer, None, None, true),
        Output::Show => {
            buf.extend_from_slice(format!("{number}. {start}: unknown, {why}\n\n").as_bytes())
        }
    }
}
