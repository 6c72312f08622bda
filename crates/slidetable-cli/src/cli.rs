//! The command line: names here are the interface scripts depend on.

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use slidetable::core::{Board, Move};
use slidetable::query::{CostModel, Encoding};
use slidetable::search::Method;

use slidetable::judge::Format;

/// Exact answers for sliding-tile puzzles from a precomputed table of every state.
#[derive(Parser, Debug)]
#[command(name = "slidetable", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 failure (unreadable file, bad table), \
                        2 bad arguments, 65 a bad puzzle line in the input."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Search every state backwards from the goals and write the table file.
    Generate(GenerateArgs),
    /// Describe a table file: board, sections, histograms, size; --verify checks its checksum.
    Info(InfoArgs),
    /// Join a table in parts (a directory that `generate --parts` made, also `--board 5x5`'s
    /// pattern databases) into one file, byte for byte the one `generate` writes on one
    /// machine.
    Merge(MergeArgs),
    /// Print the fewest moves to the goal for each puzzle (tiles in order, blank last, unless
    /// --goal names another), or -1 if it cannot reach it.
    Distance(DistanceArgs),
    /// Print an optimal move string to the goal (u d l r: where the blank goes) for each
    /// puzzle, an empty line if already solved, or `unsolvable`.
    Path(PathArgs),
    /// Solve each puzzle by searching at query time (the methods of `--method`), with the
    /// same input and output as `path`; works on every board up to 4x4.
    #[command(about = search_about())]
    Search(SearchArgs),
    /// Read and write exactly what an accepted solution to a judge problem does.
    #[command(long_about = JUDGE_HELP)]
    Judge(JudgeArgs),
    /// How the states spread over distances from the goal: states, share and cumulative
    /// share per distance, mean, median and maximum, and a bar chart.
    Stats(StatsArgs),
    /// Every state at the maximum distance from the goal, with its distance and an optimal
    /// path.
    Hardest(HardestArgs),
    /// Puzzles drawn uniformly at random from the states exactly D moves from the goal (or
    /// A to B moves), one per line; --show draws them as a question sheet.
    Random(RandomArgs),
    /// Measure heuristics against the true distance of every state: accuracy per distance,
    /// admissibility (with a counter-example if not) and consistency along every move; or,
    /// given puzzles, each one's distance and estimates side by side.
    Heuristic(HeuristicArgs),
    /// Serve a page to play puzzles on, showing the exact distance beside each heuristic,
    /// and its JSON API (/api/solve, /api/random, /api/stats); prints its URL.
    Serve(ServeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on standard output: `slidetable man | man -l -`.
    Man(ManArgs),
}

const JUDGE_HELP: &str = "\
Read and write exactly what an accepted solution to a classic judge problem reads and writes
(standard input to standard output). The 8-puzzle and LeetCode 773 formats answer from the
table of every state; the two 15-puzzle formats search (IDA* on a pattern database). `judge
--list` says what each format prints and whether the site's judge accepts any correct answer
(a special judge) or compares the output byte for byte.

Choices where the statements leave room:
  poj1077, hdu1043, uva652
               the path printed is the smallest optimal path in the order u < d < l < r (the
               one a breadth-first search expanding u, d, l, r finds; it is POJ 1077's sample
               answer). Puzzles are read 9 tiles at a time, whatever the whitespace between
               them (a puzzle over several lines, two puzzles on a line).
  poj1077, acwing845, luogu1379, pair
               one puzzle (pair: one start and goal): it is answered, then anything after it
               is reported as an error.
  luogu1379    an unreachable start (the problem promises none) prints -1.
  hdu3567      an unreachable pair (the problem promises none) prints `Case k: -1` and a line
               `unsolvable`; a start equal to its goal prints `Case k: 0` and an empty line.
  uva10085     of the farthest states, the one a breadth-first search expanding U, D, L, R
               reaches last, with the smallest optimal path to it in that order (this
               reproduces the sample; the judge accepts any farthest state).
  uva652       a solved puzzle prints an empty line; a blank line separates two answers.
  hihocoder1312, uva10085, hdu3567, uva652
               input after the announced number of cases is an error, as is a count larger
               than the cases given (after every earlier answer is printed).
  leetcode773  one board per line, as LeetCode writes it (`[[4,1,2],[5,0,3]]`, or its example
               line `board = [[4,1,2],[5,0,3]]`); uses the 2x3 table (generated in the cache
               directory on first use).
  uva10181, lightoj1121
               the 15-puzzle, answered by IDA* on a pattern database (--table, or the
               cache's 4x4.slt): the optimal path, alphabetically smallest (D < L < R < U);
               uva10181 prints `This puzzle is not solvable.` also when every path is longer
               than the 50 moves it allows.
Bad input: `line N: <what is wrong>` on stderr, exit 65, every earlier answer written.

--check THEIR_OUTPUT judges another program's output as the site would: a special judge's
format accepts any valid path (`Accepted (valid, 21 moves; optimal is 19)`; uva10181 at most
50 moves), --strict only optimal ones; a format compared byte for byte calls a difference in
whitespace alone a Presentation Error (a last line without its line end is accepted). The
output is read a line at a time, at most 64 KiB a line, and not past its first line after the
last case. Exit codes: 0 Accepted, 1 Wrong Answer or Output Limit Exceeded, 3 Presentation
Error.";

// Each command's arguments below declare their own `--json`, `--csv`, `--table`, `--board`
// and `--goal`: the flags share names and shape, but each help text says what that command
// reads or prints (one object or one per line, which columns), which one flattened struct of
// shared flags could not. What they mean is decided in one place: `resolved` turns every
// command's flags into one `Output` and one table choice.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("split").args(["parts", "plan"]).multiple(true)))]
pub(crate) struct GenerateArgs {
    /// Board size, rows x columns: 2x2 up to 16 cells. Up to 14 cells (3x4, 4x3, 2x6, 6x2, 2x7,
    /// 7x2) a table of every state, by default in the cache; 15 and 16 cells (3x5, 5x3, 2x8,
    /// 8x2) a table of every state in 2-bit entries with -o PATH or --parts DIR (3x5: 163 GB
    /// of entries, `--plan` says how many machines); 4x4 a pattern database (see --pdb), or
    /// with --states the table of every state (1.05·10¹³ states, 2.6 TB of entries); with
    /// --max-depth the states within D moves of any board.
    #[arg(long, value_name = "RxC", default_value = "3x3", value_parser = any_board())]
    pub(crate) board: Board,
    /// Where to write the table; `-` writes it to standard output (not to a terminal)
    /// [default: for 3x3 $SLIDETABLE_TABLE, else the cache directory's slidetable/RxC.slt].
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub(crate) output: Option<PathBuf>,
    /// A goal to make a section for (same syntax as a puzzle; repeat for several)
    /// [default: one section per blank cell up to 10 cells, the standard goal for 11-12].
    #[arg(long, value_name = "LAYOUT", conflicts_with = "all_goals")]
    pub(crate) goal: Vec<String>,
    /// One section per blank cell, tiles in order around it (the default up to 10 cells).
    #[arg(long)]
    pub(crate) all_goals: bool,
    /// Entry encoding: byte (distance and first move), 2bit (distance mod 3) or wide16
    /// (16-bit cost and first move) [default: byte up to 10 cells, 2bit for 11-12; for
    /// --cost tile, byte if every cost fits, else wide16].
    #[arg(long, value_name = "NAME", value_parser = offered(&["byte", "2bit", "wide16"], parse_encoding))]
    pub(crate) encoding: Option<Encoding>,
    /// What a move costs: unit (every move 1, breadth-first search) or tile (moving tile k
    /// costs k, Dijkstra; boards up to 10 cells).
    #[arg(long, value_name = "MODEL", default_value = "unit", value_parser = offered(&["unit", "tile"], parse_cost))]
    pub(crate) cost: CostModel,
    /// Make a pattern database (the 4x4 board's only kind of table) for this partition of
    /// the tiles: group sizes taken in the goal's reading order (7-8, 6-6-3, 5-5-5) or the
    /// groups' tiles (1,2,3/4,5,6,7/8) [default on 4x4: 7-8, for the goal 0 1 2 … 15].
    #[arg(long, value_name = "PARTITION")]
    pub(crate) pdb: Option<String>,
    /// Make the table of every state (2-bit entries), on 4x4 too, whose default is the
    /// pattern database: `generate --board 4x4 --states --parts DIR` (or -o PATH). Every
    /// other board makes it without the flag.
    #[arg(long, conflicts_with_all = ["pdb", "max_depth"])]
    pub(crate) states: bool,
    /// Make a table of the states within D moves of one goal (--goal, default tiles in order
    /// with the blank last), on any board up to 16 cells, 4x4 included: exact distances and
    /// paths for those states, `>D` for the others. Its size grows with the states within
    /// D (about 2-3 bytes each), not with the board. Needs -o PATH, or --parts DIR: then
    /// every process of the run (`mpirun -np N`) owns one slice of the ranks and writes its
    /// part, and `merge DIR -o FILE` joins them into the file -o PATH writes, byte for byte.
    /// Keeps checkpoints as a table of every state does (beside PATH, or each part's in DIR,
    /// paced as --parts says): a stopped run resumes when the same command runs again (a
    /// different board, goal, D or process count is refused; --restart starts over). Checks
    /// the memory before each level and, with -o PATH, the disk space: before the search
    /// where published counts reach D (4x4, 3x5, 5x3), else once the levels made take more.
    #[arg(long, value_name = "D", conflicts_with_all = ["pdb", "all_goals", "encoding"], value_parser = clap::value_parser!(u32).range(0..=i64::from(slidetable::format::MAX_BOUNDED_DEPTH)))]
    pub(crate) max_depth: Option<u32>,
    /// Write the table in parts into this directory (made if missing, when its parent
    /// exists; every process must see it): one part per process of the run (`mpirun -np N slidetable generate --parts
    /// DIR`, with a slidetable built with the mpi feature), then a manifest. One goal, 2-bit
    /// entries, any board up to 16 cells (4x4 with --states); with --max-depth D, the states
    /// within D moves. The memory check counts the processes that share a machine, and says
    /// how many machines a board takes. Every process writes a checkpoint of its part at the
    /// end of a level once the run has gone on ten times as long as writing one takes, and
    /// ten seconds (SLIDETABLE_CHECKPOINT_SECONDS=S: S seconds apart; 0: every level); a run stopped
    /// midway resumes from the last level every part has a checkpoint of when the same
    /// command runs again on as many processes (another count is refused, the checkpoints
    /// kept, until --restart). One run in a directory at a time; a table already there stays
    /// until the new one is complete.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with_all = ["output", "all_goals", "pdb"]
    )]
    pub(crate) parts: Option<PathBuf>,
    /// Start over instead of resuming an interrupted run: a table of 2-bit entries (every
    /// board of 11 cells and more) keeps checkpoints beside the file until it is written
    /// (at the end of a level, once the run has gone on ten times as long as writing one
    /// takes, and ten seconds), and the same command resumes it from its last checkpoint; so
    /// do --parts and --max-depth.
    #[arg(long)]
    pub(crate) restart: bool,
    /// With --parts: end the run with a message when one level takes longer than this many
    /// seconds (a process that stopped answering).
    #[arg(long, value_name = "SECONDS", default_value_t = 3600, requires = "parts", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) level_timeout: u64,
    /// With --parts (or --plan): at most how many neighbours in other slices a process's
    /// window of its slice may reach before the processes exchange (top-down, the states
    /// that reach them; bottom-up, the questions; sent sorted, each once, as LEB128 deltas
    /// of 64-bit offsets). Its buffers are reserved at 48 bytes a neighbour; what a round
    /// fills is resident, which --plan counts.
    #[arg(long, value_name = "RANKS", default_value_t = slidetable::generate::parts::DEFAULT_BATCH, requires = "split", value_parser = parse_batch)]
    pub(crate) batch: usize,
    /// With --parts: write one JSON line per level to this file as the run goes (the
    /// process of part 0): level, states, bytes sent, seconds, and each process's memory
    /// high-water mark (docs/JSON.md).
    #[arg(long, value_name = "FILE", requires = "parts")]
    pub(crate) stats: Option<PathBuf>,
    /// Search nothing: print what the search of every state in parts of --board would take
    /// on --processes processes (any board up to 16 cells): memory a process (and the figure
    /// the memory check refuses below, a quarter more), disk a process and in all (parts,
    /// checkpoints, the merged file), bytes sent, and time at this project's measured rate
    /// (docs/SCALE.md). With --max-depth D, the search of the states within D moves of the
    /// board's goal instead (4x4, 3x5, 5x3: from the published counts of its levels): memory
    /// a process at its peak level, disk (the file, the checkpoints), bytes sent, CPU time.
    #[arg(long, conflicts_with_all = ["output", "parts", "pdb", "all_goals", "goal", "encoding", "cost", "restart"])]
    pub(crate) plan: bool,
    /// With --plan: the processes of the run, one slice each.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "plan", value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub(crate) processes: u32,
    /// With --plan: each machine's memory (bytes, or with a unit: 24GB, 512MB, 1.5TB): how
    /// many processes a machine holds, and how many machines the run takes.
    #[arg(long, value_name = "SIZE", requires = "plan", value_parser = parse_size)]
    pub(crate) memory_per_machine: Option<u64>,
    /// With --plan: each machine's disk for the run (as --memory-per-machine), when each
    /// keeps its processes' parts and checkpoints on a disk of its own.
    #[arg(long, value_name = "SIZE", requires = "plan", value_parser = parse_size)]
    pub(crate) disk_per_machine: Option<u64>,
}

/// A size as people write it: bytes (`24000000000`) or a decimal number with a unit, kB,
/// MB, GB or TB (powers of 1000; `K`, `M`, `G`, `T` alone too).
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("`{text}` is not a size: bytes, or a number with kB, MB, GB or TB (24GB)");
    let t = text.trim();
    let digits = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" => 1_000,
        "M" | "MB" => 1_000_000,
        "G" | "GB" => 1_000_000_000,
        "T" | "TB" => 1_000_000_000_000,
        _ => return Err(bad()),
    };
    let value: f64 = number.parse().map_err(|_| bad())?;
    let bytes = value * scale as f64;
    if !(1.0..1e19).contains(&bytes) {
        return Err(bad());
    }
    Ok(bytes as u64)
}

fn parse_batch(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1 << 28).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a number of ranks from 1 to {}",
            1 << 28
        )),
    }
}

#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The directory of the parts and their manifest (or of the parts of 5x5 pattern
    /// databases built with `generate --board 5x5 --parts DIR`).
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,
    /// The table file to write (replaced atomically, as `generate -o` does).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: PathBuf,
}

#[derive(Args, Debug)]
pub(crate) struct InfoArgs {
    /// The table file [default: as for `distance`].
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
    /// Without PATH: describe the cache's table for this board.
    #[arg(long, value_name = "RxC", value_parser = table_board(), conflicts_with = "path")]
    pub(crate) board: Option<Board>,
    /// Read the whole payload and check its checksum (exit 1 if it does not hold).
    #[arg(long)]
    pub(crate) verify: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args, Debug)]
pub(crate) struct DistanceArgs {
    #[command(flatten)]
    pub(crate) batch: BatchArgs,
    /// Print CSV with a header line: puzzle, distance (empty if unreachable), solvable.
    #[arg(long, conflicts_with = "json")]
    pub(crate) csv: bool,
}

#[derive(Args, Debug)]
pub(crate) struct PathArgs {
    #[command(flatten)]
    pub(crate) batch: BatchArgs,
    /// Print CSV with a header line: puzzle, distance, path (both empty if unreachable),
    /// solvable.
    #[arg(long, conflicts_with_all = ["json", "show"])]
    pub(crate) csv: bool,
    /// Print the lexicographically smallest optimal path under this letter order, a
    /// permutation of d l r u (e.g. `dlru`); without it, any optimal path (the fastest).
    #[arg(long, value_name = "PERM", value_parser = Move::parse_order)]
    pub(crate) order: Option<[Move; 4]>,
    /// Draw the boards of each solution one after another, several per row (for people;
    /// programs want the move string).
    #[arg(long, conflicts_with = "json")]
    pub(crate) show: bool,
}

#[derive(Args, Debug)]
pub(crate) struct SearchArgs {
    /// The search method.
    #[arg(long, value_name = "METHOD", value_parser = offered(methods(), parse_method))]
    pub(crate) method: Method,
    /// The heuristic of astar and idastar, one of the possible values, pdb meaning pattern
    /// databases (on 4x4 the database file, --table or the cache's 4x4.slt; on smaller boards
    /// the tiles split in two groups), or pdb-PARTITION (built in memory, for example
    /// pdb-5-5-5 or pdb-4-4) [default: manhattan]. The other methods take none.
    #[arg(long, value_name = "NAME", value_parser = offered(heuristics(), parse_heuristic))]
    pub(crate) heuristic: Option<HeuristicChoice>,
    /// The pattern database for --heuristic pdb [default: the cache's 4x4.slt on 4x4].
    #[arg(long, value_name = "PATH")]
    pub(crate) table: Option<PathBuf>,
    /// Board size, rows x columns (2x2 up to 16 cells: 4x4 is the 15-puzzle).
    #[arg(long, value_name = "RxC", default_value = "3x3", value_parser = any_board())]
    pub(crate) board: Board,
    /// The goal, any layout (same syntax as a puzzle) [default: tiles in order, blank last].
    #[arg(long, value_name = "LAYOUT")]
    pub(crate) goal: Option<String>,
    /// Print each puzzle's statistics on stderr (with --json or --csv: in each record, then
    /// a JSON summary over every puzzle on stderr, or in --summary FILE): nodes expanded and
    /// generated, peak open list (IDA*: deepest path), iterations (IDA*), time, and the
    /// effective branching factor; a search stopped at a limit has its figures too.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Give up on a puzzle after expanding this many states (its answer reads `unknown`,
    /// exit 1 at the end).
    #[arg(long, value_name = "N")]
    pub(crate) max_expanded: Option<u64>,
    /// Give up on a puzzle after this many seconds (as --max-expanded); a number too large
    /// to matter is no limit.
    #[arg(long, value_name = "SECONDS", value_parser = crate::limits::parse_timeout)]
    pub(crate) timeout: Option<Duration>,
    /// Give up on a puzzle rather than hold more than this many bytes of states (`512M`,
    /// `4G`; as --max-expanded). Default: half the machine's memory, or a quarter of the
    /// address-space limit (`ulimit -v`) if that is less.
    #[arg(long, value_name = "SIZE", value_parser = crate::limits::parse_size)]
    pub(crate) max_memory: Option<u64>,
    /// On a bad line print `invalid`, report it on stderr and go on (exit 65 at the end).
    #[arg(long)]
    pub(crate) keep_going: bool,
    /// One JSON object per puzzle line: puzzle, distance, path, solvable, method, heuristic
    /// (with pattern databases partition and database), and stats with --stats.
    #[arg(long, conflicts_with = "csv")]
    pub(crate) json: bool,
    /// CSV with a header line: puzzle, distance, path, solvable, method, heuristic,
    /// partition, database, and with --stats expanded, generated, peak_open, iterations,
    /// milliseconds, branching_factor.
    #[arg(long)]
    pub(crate) csv: bool,
    /// Write the summary over every puzzle (counts, nodes, time, mean branching factor) to
    /// this file as one JSON object; without it, --stats with --json or --csv prints it on
    /// stderr.
    #[arg(long, value_name = "FILE")]
    pub(crate) summary: Option<PathBuf>,
    /// Puzzles, one per line, as for `path`; several files are read in order.
    #[arg(value_name = "INPUT")]
    pub(crate) input: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct JudgeArgs {
    #[arg(
        value_name = "FORMAT",
        value_parser = FormatName,
        required_unless_present = "list",
        hide_possible_values = true,
        help = judge_names_help()
    )]
    pub(crate) format: Option<Format>,
    /// Its input [default: standard input].
    #[arg(value_name = "INPUT")]
    pub(crate) input: Option<PathBuf>,
    /// The table file [default: as for `distance`; leetcode773 uses the cache's 2x3 table,
    /// uva10181 and lightoj1121 the cache's 4x4 pattern database].
    #[arg(long, value_name = "PATH")]
    pub(crate) table: Option<PathBuf>,
    /// Print every judge: its name, aliases, site and problem, what it prints, and what the
    /// site's judge accepts.
    #[arg(long, conflicts_with_all = ["input", "table", "check"])]
    pub(crate) list: bool,
    /// Judge this file (`-`: standard input, then INPUT must be a file), another program's
    /// output for INPUT, instead of answering: per case `Accepted` or `Wrong Answer` and why
    /// (a special judge's format: moves replayed, the goal reached, any valid path accepted
    /// as the site does, a longer one noted; any other: the first line that differs, a
    /// difference in whitespace alone a Presentation Error), then a summary. Read a line at
    /// a time, never past the first line after the last case. Exit 0 Accepted, 1 Wrong
    /// Answer or Output Limit Exceeded (a line over 64 KiB, endless blank lines), 3
    /// Presentation Error.
    #[arg(long, value_name = "THEIR_OUTPUT")]
    pub(crate) check: Option<PathBuf>,
    /// With --check: require optimal paths where the site accepts any valid one (poj1077,
    /// hdu1043, uva652, uva10181).
    #[arg(long, requires = "check")]
    pub(crate) strict: bool,
}

/// The long help of `judge FORMAT`: every name with the problem it is.
fn judge_names_help() -> String {
    let mut help = String::from(
        "The judge problem, by its site and number (case and separators do not matter: \
         POJ-1077 is poj1077):",
    );
    for f in Format::ALL {
        let aliases = f.aliases().join(", ");
        help += &format!("\n  {:<14} {}", f.name(), f.problem());
        if !aliases.is_empty() {
            help += &format!(" (also {aliases})");
        }
    }
    help
}

/// The judge named by its site and number, or by an alias ([`Format::from_name`]).
#[derive(Clone)]
struct FormatName;

impl TypedValueParser for FormatName {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Format, clap::Error> {
        let text = value.to_string_lossy();
        Format::from_name(&text).map_err(|e| {
            clap::Error::raw(ErrorKind::ValueValidation, format!("{e}\n")).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Format::ALL.into_iter().map(|f| {
            PossibleValue::new(f.name())
                .aliases(f.aliases().iter().copied())
                .help(f.problem())
        })))
    }
}

#[derive(Args, Debug)]
pub(crate) struct BatchArgs {
    /// The table file; its board is the puzzles' board [default: $SLIDETABLE_TABLE, else the
    /// cache directory's slidetable/RxC.slt for --board, generated on first use].
    #[arg(long, value_name = "PATH")]
    pub(crate) table: Option<PathBuf>,
    /// The board, rows x columns, when no --table is given (2x2 up to 14 cells, and 4x4 from
    /// its pattern database, the cache's 4x4.slt, made on first use) [default: 3x3].
    /// Tiles from 10 up are written as tokens: `1 2 3 4 5 6 7 8 9 10 11 0`. The 24-puzzle,
    /// 5x5, is solved from its own databases: see `--board 5x5 --help`.
    #[arg(long, value_name = "RxC", value_parser = table_board())]
    pub(crate) board: Option<Board>,
    /// On a bad line print `invalid`, report it on stderr and go on (exit 65 at the end).
    #[arg(long)]
    pub(crate) keep_going: bool,
    /// The goal, any layout (same syntax as a puzzle) [default: tiles in order, blank last].
    #[arg(long, value_name = "LAYOUT")]
    pub(crate) goal: Option<String>,
    /// One JSON object per puzzle line: `{"puzzle": …, "distance": …}` (`path` adds
    /// "path"); unsolvable puzzles have null distance and path and "solvable": false; a bad
    /// line under --keep-going is `{"line": N, "error": …}`.
    #[arg(long)]
    pub(crate) json: bool,
    /// Puzzles, one per line: 9 tokens (`2 3 4 1 5 x 7 6 8`, commas allowed) or one string
    /// (`23415x768`); blank is 0 or x; empty lines and # comments are skipped. `-` or
    /// nothing reads standard input; several files are answered in order.
    #[arg(value_name = "INPUT")]
    pub(crate) input: Vec<PathBuf>,
}

/// The table and goal a whole-table command looks at.
#[derive(Args, Debug)]
pub(crate) struct TargetArgs {
    /// The table file [default: as for `distance`].
    #[arg(long, value_name = "PATH")]
    pub(crate) table: Option<PathBuf>,
    /// The board when no --table is given [default: 3x3].
    #[arg(long, value_name = "RxC", value_parser = exact_board())]
    pub(crate) board: Option<Board>,
    /// The goal, any layout (same syntax as a puzzle) [default: tiles in order, blank last].
    #[arg(long, value_name = "LAYOUT")]
    pub(crate) goal: Option<String>,
}

#[derive(Args, Debug)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    pub(crate) target: TargetArgs,
    /// Print one JSON object instead of text (shares as fractions of 1).
    #[arg(long, conflicts_with = "csv")]
    pub(crate) json: bool,
    /// Print the per-distance table as CSV with a header line: distance, states, share,
    /// cumulative (shares as fractions of 1).
    #[arg(long)]
    pub(crate) csv: bool,
    /// Draw the chart's bars on a log scale (log(1 + states)), so that layers of a few
    /// states differ from one another.
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    pub(crate) log: bool,
    /// Draw the chart as SVG into FILE instead of printing (`-`: standard output): a bar of
    /// states per distance, axes labelled, the title naming board, goal and table; with
    /// --log the states axis is logarithmic.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "csv"])]
    pub(crate) svg: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct HardestArgs {
    #[command(flatten)]
    pub(crate) target: TargetArgs,
    /// One JSON object per state: puzzle, distance, path.
    #[arg(long, conflicts_with = "csv")]
    pub(crate) json: bool,
    /// CSV with a header line: puzzle, distance, path.
    #[arg(long)]
    pub(crate) csv: bool,
}

#[derive(Args, Debug)]
pub(crate) struct RandomArgs {
    /// Moves from the goal (on a table of tile costs, the cheapest cost): D, or A..B for every
    /// distance from A to B (both included; each state in the range equally likely). Required on boards up to 12 cells; optional on 2x7
    /// (14 cells), whose table cannot draw at a distance; refused on boards with no table
    /// (4x4). Without it every solvable layout is equally likely.
    #[arg(long, value_name = "D|A..B", value_parser = parse_depths)]
    pub(crate) depth: Option<RangeInclusive<u32>>,
    /// How many puzzles (drawn independently, so repeats are possible, unless --distinct).
    #[arg(long, value_name = "N", default_value = "1", allow_hyphen_values = true, value_parser = parse_count)]
    pub(crate) count: u64,
    /// No puzzle twice (refused if the depths hold fewer states than --count).
    #[arg(long)]
    pub(crate) distinct: bool,
    /// The seed: the same seed, table and goal give the same puzzles on every machine and
    /// version [default: a fresh one each run].
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse_seed)]
    pub(crate) seed: Option<u64>,
    /// The table file [default: as for `distance`].
    #[arg(long, value_name = "PATH")]
    pub(crate) table: Option<PathBuf>,
    /// The board when no --table is given [default: 3x3]. Over 12 cells (2x7 without --depth,
    /// 4x4), puzzles are drawn with no table from every layout that can reach the goal.
    #[arg(long, value_name = "RxC", value_parser = any_board())]
    pub(crate) board: Option<Board>,
    /// The goal, any layout (same syntax as a puzzle) [default: tiles in order, blank last].
    #[arg(long, value_name = "LAYOUT")]
    pub(crate) goal: Option<String>,
    /// One JSON object per puzzle: puzzle, distance, path (on a table of tile costs, cost and
    /// moves in place of distance; drawn with no table: puzzle only).
    #[arg(long, conflicts_with_all = ["csv", "show"])]
    pub(crate) json: bool,
    /// CSV with a header line: puzzle, distance (cost, on a table of tile costs), path (drawn
    /// with no table: puzzle only).
    #[arg(long, conflicts_with = "show")]
    pub(crate) csv: bool,
    /// Draw the puzzles as boards, numbered, without their solutions: a question sheet
    /// (`path --show` on the same puzzles is its answer sheet).
    #[arg(long)]
    pub(crate) show: bool,
}

#[derive(Args, Debug)]
pub(crate) struct HeuristicArgs {
    /// The heuristics (the possible values but pdb, or pdb-PARTITION: additive pattern
    /// databases built for the table's goal, for example pdb-4-4 or pdb-3-3-2), side by side:
    /// repeat the option or separate names by commas [default: manhattan, linear-conflict,
    /// misplaced]. `--name` is the old spelling.
    #[arg(long, alias = "name", value_name = "NAME", value_delimiter = ',', value_parser = offered(heuristics(), parse_heuristic))]
    pub(crate) heuristic: Vec<HeuristicChoice>,
    #[command(flatten)]
    pub(crate) target: TargetArgs,
    /// Print one JSON object per heuristic (with INPUT: per puzzle) instead of text.
    #[arg(long, conflicts_with = "csv")]
    pub(crate) json: bool,
    /// Print CSV with a header line: the per-distance table of each heuristic (with INPUT:
    /// each puzzle's distance and estimates).
    #[arg(long)]
    pub(crate) csv: bool,
    /// Draw each heuristic's estimates against the true distance as SVG into FILE instead
    /// of printing (`-`: standard output): per distance the mean estimate, a bar from the
    /// least to the greatest, and the diagonal h = d.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "csv", "input"])]
    pub(crate) svg: Option<PathBuf>,
    /// Puzzles to estimate instead of measuring the whole table: each one's exact distance
    /// and every heuristic's estimate. `-` reads standard input; several files in order.
    #[arg(value_name = "INPUT")]
    pub(crate) input: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub(crate) struct ManArgs {
    /// A command's own page (`slidetable man path` is slidetable-path(1)) [default: the
    /// main page, slidetable(1)].
    #[arg(value_name = "COMMAND")]
    pub(crate) command: Option<String>,
}

/// `D` or `A..B`, both ends included.
fn parse_depths(s: &str) -> Result<RangeInclusive<u32>, String> {
    let number = |t: &str| {
        t.trim().parse::<u32>().map_err(|_| {
            format!("'{s}' is not a depth: give a number of moves (20) or a range (20..22)")
        })
    };
    let (low, high) = match s.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let d = number(s)?;
            (d, d)
        }
    };
    if low > high {
        return Err(format!(
            "{low}..{high} is an empty range: the first distance must not exceed the last"
        ));
    }
    Ok(low..=high)
}

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse()
        .map_err(|e: slidetable::search::UnknownName| e.to_string())
}

fn parse_any_board(s: &str) -> Result<Board, String> {
    s.parse()
        .map_err(|e: slidetable::core::BoardError| e.to_string())
}

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// The address to listen on; the default answers this machine only. Port 0 lets the
    /// system choose one (the URL printed names it).
    #[arg(long, value_name = "ADDR:PORT", default_value = slidetable_serve::DEFAULT_BIND)]
    pub(crate) bind: SocketAddr,
    /// A table to serve (repeatable, one per board); every other board uses its default
    /// table, generated in the cache directory on first use.
    #[arg(long, value_name = "PATH")]
    pub(crate) table: Vec<PathBuf>,
    /// Open this board's table before listening (repeatable) [default: 3x3]; 4x4 opens its
    /// pattern databases (the cache's 7-8, else the 6-6-3 the first use builds in seconds
    /// and writes to the cache directory).
    #[arg(long, value_name = "RxC", value_parser = table_board())]
    pub(crate) board: Vec<Board>,
    /// Close a connection that has not sent a whole request's headers this many seconds
    /// after opening, or after its last answer (idle and slow clients alike), or that has
    /// taken none of its answer for as long (a client that never reads).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_idle)]
    pub(crate) idle_timeout: Duration,
    /// The most connections open at once; more wait to be accepted until one closes.
    #[arg(long, value_name = "N", default_value_t = 512,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_connections: u32,
}

/// `serve --idle-timeout`: seconds, more than 0 and at most a day.
fn parse_idle(text: &str) -> Result<Duration, String> {
    let idle = crate::limits::parse_timeout(text)?;
    if idle.is_zero() || idle > Duration::from_secs(86_400) {
        return Err(format!(
            "'{text}': give a number of seconds above 0, at most 86400 (a day)"
        ));
    }
    Ok(idle)
}

/// A board with a table: a table of every state up to 14 cells, pattern databases on 4x4.
fn parse_board(s: &str) -> Result<Board, String> {
    let board = parse_any_board(s)?;
    if board.supports_tables() || board == Board::FIFTEEN {
        return Ok(board);
    }
    Err(too_large_for_tables(
        board,
        " (and 4x4, by pattern databases)",
    ))
}

/// A board with a table of every state (up to 14 cells): what `stats`, `hardest`, `random`,
/// `heuristic` and `serve` read.
fn parse_exact_board(s: &str) -> Result<Board, String> {
    let board = parse_any_board(s)?;
    if board.supports_tables() {
        return Ok(board);
    }
    if board == Board::FIFTEEN {
        return Err(format!(
            "a 4x4 board has 16 cells; tables of every state go up to {} cells, and this \
             command reads every state: the 4x4 board's pattern database answers `distance`, \
             `path` and `judge uva10181|lightoj1121`",
            slidetable::core::MAX_TABLE_CELLS
        ));
    }
    Err(too_large_for_tables(board, ""))
}

pub(crate) fn too_large_for_tables(board: Board, also: &str) -> String {
    format!(
        "a {board} board has {} cells; tables go up to {} cells{also}{}",
        board.cells(),
        slidetable::core::MAX_TABLE_CELLS,
        if board.cells() <= slidetable::core::MAX_CELLS {
            format!(": `slidetable search --board {board}` solves {board} puzzles by search")
        } else {
            String::new()
        }
    )
}

/// Names offered to help and to shell completions, made once from the code's own lists
/// (clap borrows them for the whole run).
fn listed(
    cell: &'static OnceLock<Vec<&'static str>>,
    names: impl FnOnce() -> Vec<String>,
) -> &'static [&'static str] {
    cell.get_or_init(|| names().into_iter().map(|n| &*n.leak()).collect())
}

/// `search`'s line in the list of commands, its methods named from
/// [`Method::ALL`](slidetable::search::Method::ALL).
fn search_about() -> String {
    format!(
        "Solve each puzzle by searching at query time ({}), with the same input and output \
         as `path`; works on every board up to 4x4",
        methods().join(", ")
    )
}

/// The methods by name ([`Method::ALL`](slidetable::search::Method::ALL)).
fn methods() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    listed(&NAMES, || {
        slidetable::search::Method::ALL
            .iter()
            .map(|m| m.name().to_string())
            .collect()
    })
}

/// The heuristics by name: the search crate's
/// ([`HeuristicKind::ALL`](slidetable::search::HeuristicKind::ALL)) and pattern databases.
fn heuristics() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    listed(&NAMES, || {
        slidetable::search::HeuristicKind::ALL
            .iter()
            .map(|k| k.name().to_string())
            .chain([HeuristicChoice::Pattern(None).to_string()])
            .collect()
    })
}

/// The boards with a table of every state (up to [`slidetable::core::MAX_TABLE_CELLS`]
/// cells).
fn exact_boards() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    listed(&NAMES, || {
        Board::up_to(slidetable::core::MAX_TABLE_CELLS)
            .iter()
            .map(Board::to_string)
            .collect()
    })
}

/// The boards tables are made for: those of [`exact_boards`], and 4x4 by pattern databases.
fn table_boards() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    listed(&NAMES, || {
        exact_boards()
            .iter()
            .map(|n| n.to_string())
            .chain([Board::FIFTEEN.to_string()])
            .collect()
    })
}

/// Every board search solves (up to [`slidetable::core::MAX_CELLS`] cells).
fn search_boards() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    listed(&NAMES, || {
        Board::up_to(slidetable::core::MAX_CELLS)
            .iter()
            .map(Board::to_string)
            .collect()
    })
}

fn table_board() -> Offered<Board> {
    offered(table_boards(), parse_board)
}

fn exact_board() -> Offered<Board> {
    offered(exact_boards(), parse_exact_board)
}

fn any_board() -> Offered<Board> {
    offered(search_boards(), parse_any_board)
}

/// A value parser that offers `names` to help and to shell completions, and parses with
/// `parse` (which may take more than the names: `--board` takes any RxC).
#[derive(Clone)]
pub(crate) struct Offered<T> {
    names: &'static [&'static str],
    parse: fn(&str) -> Result<T, String>,
}

fn offered<T>(names: &'static [&'static str], parse: fn(&str) -> Result<T, String>) -> Offered<T> {
    Offered { names, parse }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Offered<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        (self.parse)(&text).map_err(|why| {
            let arg = arg.map_or_else(|| "...".to_string(), ToString::to_string);
            clap::Error::raw(
                ErrorKind::ValueValidation,
                format!("invalid value '{text}' for '{arg}': {why}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(*n))))
    }
}

fn parse_count(s: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| format!("expected a number of puzzles (0, 1, 2, ...), found '{s}'"))
}

fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse().map_err(|_| {
        format!(
            "expected a whole number from 0 to {}, found '{s}'",
            u64::MAX
        )
    })
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    Encoding::from_name(s).ok_or_else(|| format!("unknown encoding '{s}' (byte, 2bit or wide16)"))
}

fn parse_cost(s: &str) -> Result<CostModel, String> {
    CostModel::from_name(s).ok_or_else(|| format!("unknown cost model '{s}' (unit or tile)"))
}

/// A heuristic as the command line names it: one of the search crate's, or pattern
/// databases (`pdb`: the board's default partition, on 4×4 the database file; `pdb-P`: the
/// partition `P`, built in memory for the goal asked for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum HeuristicChoice {
    Kind(slidetable::search::HeuristicKind),
    Pattern(Option<String>),
}

/// `search`'s heuristic when none is named.
impl Default for HeuristicChoice {
    fn default() -> HeuristicChoice {
        HeuristicChoice::Kind(slidetable::search::HeuristicKind::Manhattan)
    }
}

impl std::fmt::Display for HeuristicChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeuristicChoice::Kind(k) => f.write_str(k.name()),
            HeuristicChoice::Pattern(None) => f.write_str("pdb"),
            HeuristicChoice::Pattern(Some(p)) => write!(f, "pdb-{p}"),
        }
    }
}

/// Reads `manhattan`, `linear-conflict`, `misplaced`, `pdb` or `pdb-PARTITION`.
pub(crate) fn parse_heuristic(s: &str) -> std::result::Result<HeuristicChoice, String> {
    if let Some(partition) = slidetable::PatternChoice::named(s) {
        return Ok(HeuristicChoice::Pattern(partition.map(str::to_string)));
    }
    s.parse()
        .map(HeuristicChoice::Kind)
        .map_err(|e: slidetable::search::UnknownName| {
            format!("{e}, or pdb / pdb-PARTITION (for example pdb-4-4)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn depths_are_one_distance_or_a_range() {
        assert_eq!(parse_depths("20"), Ok(20..=20));
        assert_eq!(parse_depths("20..22"), Ok(20..=22));
        assert_eq!(parse_depths("3..3"), Ok(3..=3));
        assert_eq!(
            parse_depths("22..20").unwrap_err(),
            "22..20 is an empty range: the first distance must not exceed the last"
        );
        for bad in ["", "x", "-1", "1..", "..2", "1...2", "1..=2"] {
            assert!(parse_depths(bad).is_err(), "{bad}");
        }
    }
}
