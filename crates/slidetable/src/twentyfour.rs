//! The 24-puzzle in one call: its pattern databases (a `SLIDEP25` file written by
//! `slidetable generate --board 5x5`, or groups built in memory) and the optimal solver on
//! them, the one place the command line opens them.

use std::path::{Path, PathBuf};

use slidetable_core::{Layout25, Symmetry25, WIDE_RANKS_ENV};
use slidetable_format::{Group25, PatternFile25};
use slidetable_gen::engine::{
    generate_pattern25, is_pattern25_parts_dir, merge_pattern25_parts, partition25_placements,
    solve_partition25, solve_partition25_in_parts_with, Merged25, Parts25Done, Parts25Event,
    Parts25Options,
};
use slidetable_gen::room::{checked_memory, human, MEMORY_ENV};
use slidetable_gen::{pattern25_needs, plan25, Partition25, Pattern25Error, Plan25};
use slidetable_query::{TableBytes, TableError};
use slidetable_search::{Databases25, Limits, Progress25, Search25Error, Solved25};

use crate::defaults::{self, DefaultError};

/// Pattern databases of a board past 16 cells and IDA* on them, with the reflected look-up
/// (the maximum of the two additive sums, Korf and Felner's heuristic).
///
/// ```
/// use slidetable::generate::Partition25;
/// use slidetable::core::Layout25;
/// use slidetable::TwentyFour;
/// use slidetable::search::Limits;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // `TwentyFour::open("5x5.slp")?` maps the file `generate --board 5x5` writes; here, a
/// // 3x3 board's databases built in memory, as a small example.
/// let goal = Layout25::goal_with_blank(3, 3, 0).unwrap();
/// let solver = TwentyFour::generate(&goal, &Partition25::parse("4-4", &goal)?)?;
/// let puzzle = Layout25::parse(3, 3, "1 0 2 3 4 5 6 7 8")?;
/// let solved = solver.solve(&puzzle, &Limits::default(), &|_| ())?;
/// assert_eq!(solved.path.len(), 1);
/// # Ok(())
/// # }
/// ```
pub struct TwentyFour<D: AsRef<[u8]> = TableBytes> {
    bytes: D,
    header: PatternFile25,
    file: Option<PathBuf>,
}

/// Why 24-puzzle databases cannot be opened or made, or a puzzle answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TwentyFourError {
    /// The file cannot be read.
    #[error(transparent)]
    Open(#[from] TableError),
    /// The file is not a sound `SLIDEP25` pattern database.
    #[error("{}: {problem}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: slidetable_format::Pattern25Error,
    },
    /// Building the databases failed or was refused.
    #[error(transparent)]
    Generate(#[from] Pattern25Error),
    /// No cache directory for the default file (boxed: it carries paths and messages, and
    /// every `Result` of this type would be as large).
    #[error(transparent)]
    Default(Box<DefaultError>),
    /// The default file is not there.
    #[error("no 5x5 pattern database at {}: make it with `slidetable generate --board 5x5` (6-6-6-6, about 10 minutes and 1.1 GB of memory on 2 cores), or name one with --table", path.display())]
    NoDefault {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The search failed or was stopped.
    #[error(transparent)]
    Search(#[from] Search25Error),
    /// No symmetry of the board carries the goal's blank cell onto the databases' goal's.
    #[error(
        "the databases' goal {database} has its blank in a cell no symmetry carries goal \
         {goal}'s blank to (on 5x5: a goal with its blank in a corner, any tiles elsewhere)"
    )]
    Goal {
        /// The goal the databases were built for.
        database: Layout25,
        /// The goal asked for.
        goal: Layout25,
    },
    /// The file is larger than the memory available: a search would read its entries from
    /// the disk at every step and never end (an 8-8-8 file is 130.8 GB).
    #[error(
        "{}: the pattern databases take {} of memory is available ({origin}): a search \
         would read them from the disk at every step; open them on a machine with the memory, \
         {}or set {MEMORY_ENV} to the bytes to count on to open them anyway",
        path.display(),
        need_and_available(*need, *available),
        smaller.as_ref().map_or(String::new(), |(pdb, bytes)| format!(
            "use a smaller partition ({pdb}: {}), ",
            human(*bytes)
        ))
    )]
    NoMemory {
        /// The file.
        path: PathBuf,
        /// Its length in bytes: what the search holds in memory.
        need: u64,
        /// The memory available, in bytes.
        available: u64,
        /// Where that figure comes from (`MemAvailable in /proc/meminfo`, the variable).
        origin: String,
        /// The largest of the partitions `generate --board 5x5` is documented with whose
        /// file the memory holds, and its length (none when not even the smallest fits).
        smaller: Option<(String, u64)>,
    },
}

impl From<DefaultError> for TwentyFourError {
    fn from(e: DefaultError) -> TwentyFourError {
        TwentyFourError::Default(Box::new(e))
    }
}

/// `NEED and AVAILABLE` for the memory refusal, rounded ("130.8 GB and 23.1 GB") unless
/// they round alike, then in bytes: the refusal must show the one larger than the other.
fn need_and_available(need: u64, available: u64) -> String {
    let (n, a) = (human(need), human(available));
    if n == a {
        format!("{need} bytes and {available} bytes")
    } else {
        format!("{n} and {a}")
    }
}

/// The partitions a memory refusal may suggest instead, largest file first: Korf and
/// Felner's, and the small one the guide builds.
const SUGGESTED: [&str; 2] = ["6-6-6-6", "5-5-5-5-4"];

/// Where `generate --board 5x5` writes by default and `path`/`distance`/`search --board
/// 5x5` look: `slidetable/5x5.slp` in the cache directory.
pub fn default_path_25() -> Result<PathBuf, TwentyFourError> {
    Ok(defaults::cache_dir()?.join("slidetable/5x5.slp"))
}

/// A build of the 24-puzzle's pattern databases: a partition of the 5×5 goal's tiles (the
/// blank top-left, Korf and Felner's) and what building it takes, the one procedure the
/// command line's `generate --board 5x5` and Python's `TwentyFour.generate` run.
///
/// ```no_run
/// use slidetable::Build25;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let build = Build25::new("5-5-5-5-4")?;
/// let (memory, disk) = build.needs();
/// assert!(memory < disk * 10);
/// let written = build.write(Some("5x5-55554.slp".as_ref()), &|_| ())?;
/// assert_eq!(written.bytes, 25_807_448);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Build25 {
    goal: Layout25,
    partition: Partition25,
}

impl Build25 {
    /// The partition `pdb` (`6-6-6-6`: Korf and Felner's; group sizes in goal order,
    /// `5-5-5-5-4`; or tiles, `1,2,5/3,4,…`) of the 5×5 goal with the blank top-left.
    pub fn new(pdb: &str) -> Result<Build25, TwentyFourError> {
        let goal = Build25::goal_of(pdb)?;
        let partition = Partition25::parse(pdb, &goal)?;
        Ok(Build25 { goal, partition })
    }

    /// The 5×5 goal with the blank top-left, which `pdb` partitions.
    fn goal_of(pdb: &str) -> Result<Layout25, TwentyFourError> {
        let goal = Layout25::goal_with_blank(5, 5, 0).ok_or_else(|| Pattern25Error::Partition {
            text: pdb.to_string(),
            problem: "no 5x5 goal".to_string(),
        })?;
        Ok(goal)
    }

    /// What building `pdb`'s partition takes (memory a process, disk, CPU time) on
    /// `processes` processes (1: one machine; more: [`Build25::write_part`] on each), also
    /// for partitions too large for this machine (`8-8-8`), as `generate --plan` prints it.
    pub fn plan(pdb: &str, processes: u32) -> Result<Plan25, TwentyFourError> {
        Ok(plan25(pdb, &Build25::goal_of(pdb)?, processes)?)
    }

    /// The goal the databases are distances to.
    pub fn goal(&self) -> &Layout25 {
        &self.goal
    }

    /// The partition.
    pub fn partition(&self) -> &Partition25 {
        &self.partition
    }

    /// Bytes of memory at the build's peak, and of the file.
    pub fn needs(&self) -> (u64, u64) {
        pattern25_needs(self.goal.cells(), &self.partition)
    }

    /// Placements the build settles in all (what its progress counts to).
    pub fn placements(&self) -> u64 {
        partition25_placements(self.goal.cells(), &self.partition)
    }

    /// Builds the databases (each group on every core) and writes them to `path`, else to
    /// the default file ([`default_path_25`], its directory made): [`Build25::write_with`]
    /// resuming an earlier run's checkpoints, its events let by.
    pub fn write(
        &self,
        path: Option<&Path>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Written25, TwentyFourError> {
        self.write_with(path, false, progress, &mut |_| ())
    }

    /// [`Build25::write`]: refused first, with the figures, when the machine has not the
    /// memory, or the disk space for the file and its checkpoints, or `path` is no regular
    /// file to replace. The build in parts with one part, which writes the file instead of
    /// a part ([`generate_pattern25`]): each group is kept as a checkpoint beside the file
    /// (`.NAME.group-G.checkpoint`) as soon as it is built, so that a build stopped part of
    /// the way goes on from the groups it had finished, and a checkpoint of another build
    /// or a damaged one is refused, named; with `restart`, they are removed (and the groups
    /// an older slidetable kept in `PATH.groups`) and the build starts over. The checkpoints
    /// go once the file is written. `progress` is told of settled placements (of
    /// [`Build25::placements`], the groups taken at once), `events` of the checkpoints.
    pub fn write_with(
        &self,
        path: Option<&Path>,
        restart: bool,
        progress: &(dyn Fn(u64) + Sync),
        events: &mut dyn FnMut(Parts25Event),
    ) -> Result<Written25, TwentyFourError> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => {
                let p = default_path_25()?;
                slidetable_gen::make_dir(&p).map_err(Pattern25Error::from)?;
                p
            }
        };
        let options = Parts25Options {
            restart,
            ..Parts25Options::default()
        };
        let mut kept = Vec::new();
        let done = generate_pattern25(
            &self.goal,
            &self.partition,
            &path,
            options,
            progress,
            &mut |event| {
                if let Parts25Event::Resumed { groups, .. } = &event {
                    kept.clone_from(groups);
                }
                events(event);
                std::ops::ControlFlow::Continue(())
            },
        )?;
        Ok(Written25 {
            path,
            bytes: done.bytes,
            kept,
        })
    }
}

impl Build25 {
    /// This process's part of the build in parts (its place among the processes:
    /// `exchange`), written to `dir` (made if missing, seen by every process) as a
    /// `SLIDEQ25` part file; [`Build25::merge`] joins the parts into the file
    /// [`Build25::write`] writes, byte for byte. Refused by every process at once, with the
    /// figures, when one has not the memory or the disk space for its part. Each process
    /// keeps its slice of every group it has built in `dir` as a checkpoint: the same
    /// command run again takes the groups every process kept (with `restart`, removes them
    /// and starts over), and `events` is told ([`Parts25Event`]). `progress` is told of the
    /// placements this process settles (a kept group's at once).
    pub fn write_part(
        &self,
        dir: &Path,
        restart: bool,
        exchange: &mut dyn slidetable_gen::parts::Exchange,
        progress: &(dyn Fn(u64) + Sync),
        events: &mut dyn FnMut(Parts25Event),
    ) -> Result<Parts25Done, TwentyFourError> {
        let options = Parts25Options {
            restart,
            ..Parts25Options::default()
        };
        Ok(solve_partition25_in_parts_with(
            &self.goal,
            &self.partition,
            dir,
            options,
            exchange,
            progress,
            &mut |event| {
                events(event);
                std::ops::ControlFlow::Continue(())
            },
        )?)
    }

    /// Joins the parts of a build in parts in `dir` into the `SLIDEP25` file `output`.
    pub fn merge(dir: &Path, output: &Path) -> Result<Merged25, TwentyFourError> {
        Ok(merge_pattern25_parts(dir, output)?)
    }

    /// Whether `dir` holds the parts of 24-puzzle pattern databases built in parts.
    pub fn is_parts_dir(dir: &Path) -> bool {
        is_pattern25_parts_dir(dir)
    }
}

/// What [`Build25::write`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written25 {
    /// The file.
    pub path: PathBuf,
    /// Its length in bytes.
    pub bytes: u64,
    /// The groups (their indices in the partition) taken from an earlier run's checkpoints
    /// instead of being built again.
    pub kept: Vec<usize>,
}

impl TwentyFour<TableBytes> {
    /// Builds `pdb`'s databases ([`Build25`]), writes them to `path` (`None`: the default
    /// file) and maps the file.
    pub fn generate_file(
        path: Option<&Path>,
        pdb: &str,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        let written = Build25::new(pdb)?.write(path, progress)?;
        TwentyFour::open(written.path)
    }

    /// Maps the `SLIDEP25` file at `path`, checks its header and the CRC of every entry:
    /// the one opening of databases to search, so it first refuses a file larger than the
    /// memory available ([`TwentyFour::check_memory`]).
    pub fn open(path: impl AsRef<Path>) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        TwentyFour::check_memory(path.as_ref())?;
        let databases = TwentyFour::map(path)?;
        databases.verify()?;
        Ok(databases)
    }

    /// Maps the `SLIDEP25` file at `path` and checks its header only, in bounded time (as
    /// `info` reads a file): [`TwentyFour::verify`] checks the entries.
    pub fn map(path: impl AsRef<Path>) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        let path = path.as_ref();
        let bytes = TableBytes::open(path)?;
        let header =
            PatternFile25::parse(bytes.as_ref()).map_err(|problem| TwentyFourError::Format {
                path: path.to_path_buf(),
                problem,
            })?;
        Ok(TwentyFour {
            bytes,
            header,
            file: Some(path.to_path_buf()),
        })
    }

    /// Refuses the file at `path` with [`TwentyFourError::NoMemory`] when it is larger than
    /// the memory available ([`checked_memory`]: `MemAvailable`, the address-space limit, or
    /// [`MEMORY_ENV`], which also lets a file past the machine's memory be opened): the
    /// search reads entries all over the file, so a file the memory cannot hold is read from
    /// the disk at every step. A file that cannot be read is left to the opening to report.
    pub fn check_memory(path: &Path) -> Result<(), TwentyFourError> {
        let Ok(need) = std::fs::metadata(path).map(|m| m.len()) else {
            return Ok(());
        };
        let memory = checked_memory().map_err(|e| TwentyFourError::Generate(e.into()))?;
        match memory {
            Some((available, origin)) if need > available => Err(TwentyFourError::NoMemory {
                path: path.to_path_buf(),
                need,
                available,
                origin,
                smaller: SUGGESTED.iter().find_map(|pdb| {
                    let bytes = Build25::new(pdb).ok()?.needs().1;
                    (bytes <= available).then(|| (pdb.to_string(), bytes))
                }),
            }),
            _ => Ok(()),
        }
    }

    /// Whether the file at `path` begins as a `SLIDEP25` file does (its magic number): what
    /// a front end asks to tell these files from tables before opening one. Only a regular
    /// file is read (a FIFO would block the reader until something writes to it).
    pub fn is_file(path: &Path) -> bool {
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return false;
        }
        let mut magic = [0u8; 8];
        std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
            .is_ok_and(|()| PatternFile25::is_pattern25(&magic))
    }

    /// The file at `table`, else the default one ([`default_path_25`]), which must exist.
    pub fn open_or_default(
        table: Option<&Path>,
    ) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        match table {
            Some(p) => TwentyFour::open(p),
            None => {
                let path = default_path_25()?;
                if !path.exists() {
                    return Err(TwentyFourError::NoDefault { path });
                }
                TwentyFour::open(path)
            }
        }
    }
}

impl TwentyFour<TableBytes> {
    /// The databases of `partition` towards `goal`, built in memory (5-5-5-5-4 on 5×5: a few
    /// seconds; 6-6-6-6: minutes and 1.1 GB).
    pub fn generate(
        goal: &Layout25,
        partition: &Partition25,
    ) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        TwentyFour::generate_watched(goal, partition, &|_| ())
    }

    /// [`TwentyFour::generate`], with `progress` told of settled placements.
    pub fn generate_watched(
        goal: &Layout25,
        partition: &Partition25,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        let groups = solve_partition25(goal, partition, progress)?;
        TwentyFour::from_groups(goal, &groups)
    }

    /// The databases of solved `groups` towards `goal`, laid out as their file.
    pub fn from_groups(
        goal: &Layout25,
        groups: &[Group25],
    ) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        let format = |problem| TwentyFourError::Format {
            path: PathBuf::from("(in memory)"),
            problem,
        };
        let bytes = PatternFile25::to_bytes(goal, groups).map_err(format)?;
        let header = PatternFile25::parse(&bytes).map_err(format)?;
        Ok(TwentyFour {
            bytes: TableBytes::from(bytes),
            header,
            file: None,
        })
    }

    /// The databases a file's bytes hold, already in memory (a copy sent to another
    /// process): the header checked, and the CRC of every entry.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<TwentyFour<TableBytes>, TwentyFourError> {
        let header = PatternFile25::parse(&bytes).map_err(|problem| TwentyFourError::Format {
            path: PathBuf::from("(in memory)"),
            problem,
        })?;
        let databases = TwentyFour {
            bytes: TableBytes::from(bytes),
            header,
            file: None,
        };
        databases.verify()?;
        Ok(databases)
    }
}

impl<D: AsRef<[u8]>> TwentyFour<D> {
    /// The goal the databases are distances to.
    pub fn goal(&self) -> &Layout25 {
        self.header.goal()
    }

    /// The partition's group sizes, `6-6-6-6` style.
    pub fn sizes(&self) -> String {
        let sizes: Vec<String> = self
            .header
            .groups()
            .iter()
            .map(|g| g.tiles.count_ones().to_string())
            .collect();
        sizes.join("-")
    }

    /// Checks the CRC-32 of every entry.
    pub fn verify(&self) -> Result<(), TwentyFourError> {
        self.header
            .verify(self.bytes.as_ref())
            .map_err(|problem| TwentyFourError::Format {
                path: self
                    .file
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("(in memory)")),
                problem,
            })
    }

    /// The file's header: its groups (tiles, placements, histograms) and goal.
    pub fn header(&self) -> &PatternFile25 {
        &self.header
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.bytes.as_ref().len() as u64
    }

    /// Whether the file holds no bytes (never: a sound file has a header).
    pub fn is_empty(&self) -> bool {
        self.bytes.as_ref().is_empty()
    }

    /// Whether the solver also looks the databases up on the board reflected about its main
    /// diagonal (a square board whose goal has its blank on that diagonal: Korf and
    /// Felner's 5×5 goal).
    pub fn reflects(&self) -> bool {
        self.databases(true).is_ok_and(|d| d.reflects())
    }

    /// The file the databases were opened from, if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The heuristic and its search: the regular sum, and with `reflect` the maximum of it
    /// and the reflected one. Its placements rank in 32 bits when every group's fit, in 64
    /// otherwise, or on every group when `SLIDETABLE_WIDE_RANKS` is `1` (as the tables'
    /// queries: the same entries are read).
    pub fn databases(&self, reflect: bool) -> Result<Databases25<'_>, TwentyFourError> {
        let bytes = self.bytes.as_ref();
        let groups: Vec<(u32, &[u8])> = self
            .header
            .groups()
            .iter()
            .enumerate()
            .map(|(i, g)| (g.tiles, self.header.entries(bytes, i)))
            .collect();
        let wide = std::env::var(WIDE_RANKS_ENV).is_ok_and(|v| v == "1");
        Ok(Databases25::with_wide_ranks(
            *self.goal(),
            &groups,
            reflect,
            wide,
        )?)
    }

    /// How the databases answer for `goal`: the board symmetry with tiles renamed that
    /// carries it onto their goal (any goal with its blank in a corner, for `generate
    /// --board 5x5`'s); else [`TwentyFourError::Goal`].
    pub fn towards(&self, goal: &Layout25) -> Result<Symmetry25, TwentyFourError> {
        Symmetry25::carrying(goal, self.goal()).ok_or(TwentyFourError::Goal {
            database: *self.goal(),
            goal: *goal,
        })
    }

    /// An optimal path from `start` to the goal `towards` carries onto the databases' goal
    /// ([`TwentyFour::towards`]): the search runs on the carried puzzle, and its path is
    /// carried back.
    pub fn solve_towards(
        &self,
        start: &Layout25,
        towards: &Symmetry25,
        limits: &Limits,
        progress: &(dyn Fn(Progress25) + Sync),
    ) -> Result<Solved25, TwentyFourError> {
        let mut solved = self.solve(&towards.layout(start), limits, progress)?;
        for m in &mut solved.path {
            *m = towards.move_back(*m);
        }
        Ok(solved)
    }

    /// An optimal path from `start` (IDA* with the reflected look-up, on every core).
    pub fn solve(
        &self,
        start: &Layout25,
        limits: &Limits,
        progress: &(dyn Fn(Progress25) + Sync),
    ) -> Result<Solved25, TwentyFourError> {
        Ok(self.databases(true)?.solve(start, limits, progress)?)
    }
}
