//! Every state's distance, by one breadth-first search backwards from each goal, and the
//! writer that stores them as a slidetable file.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::{solve_section, table_bytes};
//!
//! let board = Board::new(2, 3).unwrap();
//! let section = solve_section(&board.standard_goal()).unwrap();
//! assert_eq!(section.histogram.iter().sum::<u64>(), 360);
//! assert_eq!(section.max_distance(), 21);
//! let bytes = table_bytes(board, &[section]).unwrap();
//! assert!(bytes.starts_with(b"SLIDETBL"));
//! ```

use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub mod cache;
mod layered;
mod pattern;
mod temporary;
mod weighted;

pub use layered::solve_layered;
pub use pattern::{
    partition_placements, pattern_bytes, solve_partition, solve_pattern, write_pattern_table,
    write_pattern_to, Partition, PartitionError, PatternSection,
};
pub use temporary::abandon_writes;
use temporary::Temporary;
pub use weighted::{narrow, solve_weighted};

use rayon::prelude::*;
use slidetable_core::{slide, Board, BoardError, Layout, Move, Neighbors, Ranker};
use slidetable_format::{
    byte_entry, widen_bytes, CostModel, Encoding, FormatError, Header, PayloadHasher, SectionSpec,
};

/// Marks a state not yet reached during the search (never a stored entry: distances stay
/// below 63 in the byte encoding, see [`GenError::TooDeep`]).
const UNSEEN: u8 = 0xFF;

/// One goal's entries: for each rank of the goal's class, its distance (or its residue) and
/// first move, as the section's encoding stores them.
#[derive(Clone, Debug)]
pub struct Section {
    /// The goal every entry's distance leads to.
    pub goal: Layout,
    /// The payload: entries in `encoding`, one per rank (see `slidetable_format`).
    pub entries: Vec<u8>,
    /// `histogram[d]` = states at distance (or cheapest cost) `d`.
    pub histogram: Vec<u64>,
    /// How `entries` are stored.
    pub encoding: Encoding,
    /// What a move costs.
    pub cost: CostModel,
}

impl Section {
    /// The largest distance (or cost) of any state.
    pub fn max_distance(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
}

/// Why a table could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// The board is too large for a table.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A distance larger than the encoding can store.
    #[error("the search from goal {goal} goes deeper than the byte encoding's {max} moves")]
    TooDeep {
        /// The section's goal.
        goal: Layout,
        /// The largest distance the encoding stores.
        max: u32,
    },
    /// Sections of one file on different boards.
    #[error("sections are for different boards ({expected} and {found})")]
    MixedBoards {
        /// The first section's board.
        expected: Board,
        /// A later section's board.
        found: Board,
    },
    /// Sections of one file with different encodings or cost models.
    #[error("sections use different encodings or cost models")]
    MixedEncodings,
    /// A board too large for a search under this cost model (see [`MAX_WEIGHTED_CELLS`]).
    #[error("{cost} costs go up to {max} cells; {board} has {cells}", cells = board.cells())]
    TooLargeForCost {
        /// The cost model asked for.
        cost: CostModel,
        /// The board asked for.
        board: Board,
        /// The most cells a search under `cost` is made for.
        max: usize,
    },
    /// The header cannot describe the sections.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Writing the file failed.
    #[error("cannot write {}", path.display())]
    Io {
        /// The file being written.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A pattern database that cannot be built; the message says why.
    #[error("{0}")]
    Pattern(String),
    /// The output path names something that is not a regular file.
    #[error("refusing to replace {}: it is {kind}, not a table file", path.display())]
    NotAFile {
        /// The output path.
        path: PathBuf,
        /// What it is (a directory, a device ...).
        kind: &'static str,
    },
    /// A directory for the table could not be made.
    #[error("cannot create directory {}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Neither a cache directory nor a table was named.
    #[error(
        "no cache directory: set XDG_CACHE_HOME or HOME, or name a table with --table or {}",
        cache::TABLE_ENV
    )]
    NoCacheDir,
    /// The directory the table would go in does not exist (it is not made: a mistyped path
    /// should not leave directories behind).
    #[error("cannot write {}: {}", path.display(), match link {
        Some(target) => format!("it links to {}, whose directory does not exist", target.display()),
        None => format!("directory {} does not exist", dir.display()),
    })]
    NoDirectory {
        /// The output path.
        path: PathBuf,
        /// The missing directory.
        dir: PathBuf,
        /// Where `path` links to, when it is a symbolic link.
        link: Option<PathBuf>,
    },
}

/// The goals of a default table: one per blank cell, tiles 1..n−1 in reading order, for
/// boards up to 10 cells; only the standard goal (blank last) for 11 and 12 cells, whose
/// sections are 30–60 MB each.
pub fn default_goals(board: Board) -> Vec<Layout> {
    if board.cells() > 10 {
        return vec![board.standard_goal()];
    }
    all_goals(board)
}

/// One goal per blank cell, tiles 1..n−1 in reading order in the other cells.
pub fn all_goals(board: Board) -> Vec<Layout> {
    (0..board.cells())
        .map(|b| board.goal_with_blank(b))
        .collect()
}

/// The encoding a table gets unless told otherwise: bytes (distance and first move) while a
/// section stays small, 2 bits (distance mod 3) for 11 and 12 cells; for weighted moves,
/// bytes if every cost fits one, else 16 bits (decided once the costs are known).
pub fn default_encoding(board: Board, cost: CostModel) -> Encoding {
    match cost {
        CostModel::Unit if board.cells() > 10 => Encoding::TwoBit,
        CostModel::Unit => Encoding::Byte,
        CostModel::Tile => Encoding::Wide16,
    }
}

/// The most cells a table of weighted moves is made for: its search keeps a cost and an open
/// list entry per state, several times a byte table's memory.
pub const MAX_WEIGHTED_CELLS: usize = 10;

/// Checks that a table of `board` can be made under `cost` in `encoding` (or the board's
/// default), and returns the encoding it will have: every limit of a table's plan, checked in
/// this one place (the board's size, the rule of [`Encoding::holds`], the weighted search's
/// size), with one typed error each. [`solve`] calls it; a front end may call it first to
/// refuse a plan before any work.
pub fn check_plan(
    board: Board,
    encoding: Option<Encoding>,
    cost: CostModel,
) -> Result<Encoding, GenError> {
    Ranker::new(board)?;
    let chosen = encoding.unwrap_or_else(|| default_encoding(board, cost));
    if cost != CostModel::Unit && board.cells() > MAX_WEIGHTED_CELLS {
        return Err(GenError::TooLargeForCost {
            cost,
            board,
            max: MAX_WEIGHTED_CELLS,
        });
    }
    chosen.holds(cost)?;
    Ok(chosen)
}

/// Solves every goal under `cost` into `encoding` (or the board's default), reporting the
/// states settled to `progress` as it goes. Small boards solve their sections in parallel;
/// large ones one after another, each on every core, so that memory holds one search at a
/// time.
pub fn solve(
    goals: &[Layout],
    encoding: Option<Encoding>,
    cost: CostModel,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Section>, GenError> {
    let Some(first) = goals.first() else {
        return Ok(Vec::new());
    };
    let board = first.board();
    let chosen = check_plan(board, encoding, cost)?;
    let reporting = |s: Result<Section, GenError>| {
        if let Ok(s) = &s {
            progress(s.histogram.iter().sum());
        }
        s
    };
    match (cost, chosen) {
        (CostModel::Unit, Encoding::Byte) if board.cells() <= 10 => goals
            .par_iter()
            .map(|g| reporting(solve_section(g)))
            .collect(),
        (CostModel::Unit, Encoding::Byte | Encoding::TwoBit) => goals
            .iter()
            .map(|g| solve_layered(g, chosen, progress))
            .collect(),
        (CostModel::Unit, Encoding::Wide16) => {
            let sections: Vec<Section> = goals
                .par_iter()
                .map(|g| reporting(solve_section(g)))
                .collect::<Result<_, _>>()?;
            Ok(sections.into_iter().map(widen).collect())
        }
        (CostModel::Tile, _) => {
            let sections: Vec<Section> = goals
                .par_iter()
                .map(|g| reporting(solve_weighted(g, cost)))
                .collect::<Result<_, _>>()?;
            let sections = if encoding.is_some() {
                sections
            } else {
                narrow(sections)
            };
            if chosen == Encoding::Byte {
                let narrowed = narrow(sections);
                if let Some(s) = narrowed.iter().find(|s| s.encoding != Encoding::Byte) {
                    return Err(GenError::TooDeep {
                        goal: s.goal,
                        max: Encoding::Byte.max_distance(),
                    });
                }
                return Ok(narrowed);
            }
            Ok(sections)
        }
    }
}

/// Byte entries as 16-bit ones (same distance and move).
pub(crate) fn widen(s: Section) -> Section {
    Section {
        entries: widen_bytes(&s.entries),
        encoding: Encoding::Wide16,
        ..s
    }
}

/// Breadth-first search from `goal` over every layout of its class.
///
/// Layer by layer: each state of layer d tries its legal moves; an unseen neighbour joins
/// layer d+1 with the move back towards the state it came from as its first move. States
/// travel as packed nibbles (see [`Layout::packed`]) with their rank, so a move is two nibble
/// writes. A horizontal move keeps the tiles' reading order, so its rank is exactly one block
/// away; only vertical moves rank afresh (by table look-ups up to 9 cells, see [`Ranker`]).
/// Each layer is kept in one queue per blank cell: a whole run of states then tries the same
/// moves in the same order, which keeps the branch predictor right (on 3×3 this alone made
/// the search 1.45× faster).
pub fn solve_section(goal: &Layout) -> Result<Section, GenError> {
    let ranker = Ranker::new(goal.board())?;
    let board = goal.board();
    let moves = Neighbors::new(board);
    let mut entries = vec![UNSEEN; ranker.states() as usize];
    let goal_rank = ranker.rank(goal);
    entries[goal_rank as usize] = byte_entry(0, Move::Up);
    let mut histogram = vec![1u64];
    // Each layer in one queue per blank cell, so that the moves tried (and the branches
    // taken) are the same for a whole run of states.
    let cells = board.cells();
    let mut layer: Vec<Vec<Node>> = vec![Vec::new(); cells];
    let mut next: Vec<Vec<Node>> = vec![Vec::new(); cells];
    layer[goal.blank()].push(Node {
        packed: goal.packed(),
        rank: goal_rank,
    });
    let max = Encoding::Byte.max_distance() - 1; // 63 with move r would read as UNSEEN
    let mut distance = 0u32;
    let mut found = 1;
    while found > 0 {
        distance += 1;
        for (blank, nodes) in layer.iter().enumerate() {
            let from = moves.from(blank);
            for node in nodes {
                for &(m, to) in from {
                    let to = to as usize;
                    let packed = slide(node.packed, blank, to);
                    let rank = ranker.step(node.rank, m, packed, to);
                    let e = &mut entries[rank as usize];
                    if *e == UNSEEN {
                        *e = byte_entry(distance.min(max), m.opposite());
                        next[to].push(Node { packed, rank });
                    }
                }
            }
        }
        found = next.iter().map(Vec::len).sum::<usize>();
        if found > 0 {
            if distance > max {
                return Err(GenError::TooDeep { goal: *goal, max });
            }
            histogram.push(found as u64);
        }
        std::mem::swap(&mut layer, &mut next);
        next.iter_mut().for_each(Vec::clear);
    }
    debug_assert!(!entries.contains(&UNSEEN));
    Ok(Section {
        goal: *goal,
        entries,
        histogram,
        encoding: Encoding::Byte,
        cost: CostModel::Unit,
    })
}

/// A state in the search's queue.
#[derive(Clone, Copy)]
struct Node {
    packed: u64,
    rank: u32,
}

/// Solves several goals, in parallel over the machine's cores.
pub fn solve_sections(goals: &[Layout]) -> Result<Vec<Section>, GenError> {
    goals.par_iter().map(solve_section).collect()
}

fn header_for(board: Board, sections: &[Section]) -> Result<Header, GenError> {
    let mut crc = PayloadHasher::new();
    let (encoding, cost) = sections
        .first()
        .map_or((Encoding::Byte, CostModel::Unit), |s| (s.encoding, s.cost));
    for s in sections {
        if (s.encoding, s.cost) != (encoding, cost) {
            return Err(GenError::MixedEncodings);
        }
        if s.goal.board() != board {
            return Err(GenError::MixedBoards {
                expected: board,
                found: s.goal.board(),
            });
        }
        crc.update(&s.entries);
    }
    let specs = sections
        .iter()
        .map(|s| SectionSpec {
            goal: s.goal,
            histogram: s.histogram.clone(),
        })
        .collect();
    Ok(Header::build(board, encoding, cost, specs, crc.finalize())?)
}

/// Streams a whole table (header, then each section's entries) into `out`.
pub fn write_to(out: &mut impl Write, board: Board, sections: &[Section]) -> Result<u64, GenError> {
    let header = header_for(board, sections)?;
    let io_err = |source| GenError::Io {
        path: PathBuf::from("<output>"),
        source,
    };
    let payloads: Vec<&[u8]> = sections.iter().map(|s| &s.entries[..]).collect();
    header.write_table(out, &payloads).map_err(io_err)
}

/// The whole table in memory (for `Table::new`, tests and embedding).
pub fn table_bytes(board: Board, sections: &[Section]) -> Result<Vec<u8>, GenError> {
    let mut v = Vec::new();
    write_to(&mut v, board, sections)?;
    Ok(v)
}

/// Writes the table to `path` safely: into a temporary file in the same directory, flushed
/// to disk, then renamed over `path`. A crash leaves either the old file or the new one
/// under the real name, never half of one; on any error the temporary file is removed.
/// Returns the number of bytes written.
///
/// Only a regular file is ever replaced: a directory, device, FIFO or socket under `path` is
/// refused (`NotAFile`), and symbolic links are followed, so the file they name is replaced
/// (or made) and the links keep pointing at the new table. A replaced table keeps its mode; a
/// new one gets the mode of any newly created file (0666 less the umask), not the 0600 of a
/// temporary file, so a table meant for sharing can be read by others.
pub fn write_table(path: &Path, board: Board, sections: &[Section]) -> Result<u64, GenError> {
    replace_table(path, board, sections).map(|w| w.bytes)
}

/// What [`replace_table`] did.
#[derive(Debug)]
#[non_exhaustive]
pub struct Written {
    /// Bytes written.
    pub bytes: u64,
    /// Why the replaced file's owner and group could not be given to the new one (only root
    /// may give a file away): the table now belongs to whoever wrote it.
    pub owner_not_kept: Option<io::Error>,
}

/// [`write_table`], telling also whether a replaced table kept its owner and group (as it
/// keeps its mode). Temporary files of ours in the directory that no writer holds (left by a
/// `generate` killed with SIGKILL) are removed first; [`abandon_writes`] removes the one being
/// written, for a signal handler.
pub fn replace_table(path: &Path, board: Board, sections: &[Section]) -> Result<Written, GenError> {
    replace_with(path, &mut |mut out| write_to(&mut out, board, sections))
}

/// The procedure of [`write_table`] for any file the `write` function streams.
pub(crate) fn write_atomically(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<u64, GenError>,
) -> Result<u64, GenError> {
    replace_with(path, write).map(|w| w.bytes)
}

/// The one procedure behind [`replace_table`] and [`write_atomically`]: `write` streams the
/// file's bytes into a temporary file beside `path`, which then replaces it (keeping a
/// replaced file's owner and mode; stale temporaries of ours are removed first).
fn replace_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<u64, GenError>,
) -> Result<Written, GenError> {
    let io_err = |source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let (target, old) = replaceable(path).map_err(|e| match e {
        GenError::Io { source, .. } => io_err(source),
        other => other,
    })?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(GenError::NoDirectory {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
            link: (target != path).then(|| target.clone()),
        });
    }
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned());
    let prefix = format!(".{}.", name.as_deref().unwrap_or("table"));
    temporary::remove_stale(dir, &prefix, ".tmp");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = Temporary::create(&builder, dir).map_err(|e| {
        // tempfile names its temporary path in the error (`… at path "…"`); the user named
        // another.
        let text = e.to_string();
        let what = text.split(" at path ").next().unwrap_or(&text).to_string();
        io_err(io::Error::new(
            e.kind(),
            format!("cannot create a file in {}: {what}", dir.display()),
        ))
    })?;
    let mut owner_not_kept = None;
    if let Some(old) = &old {
        // A replaced table keeps its owner and group, then its mode (a private table stays
        // private; a change of owner may clear set-id bits, so the mode comes second).
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let ours = tmp.file().metadata().map_err(io_err)?;
            if (ours.uid(), ours.gid()) != (old.uid(), old.gid()) {
                if let Err(e) =
                    std::os::unix::fs::fchown(&*tmp.file(), Some(old.uid()), Some(old.gid()))
                {
                    owner_not_kept = Some(e);
                }
            }
        }
        tmp.file()
            .set_permissions(old.permissions())
            .map_err(io_err)?;
    }
    let bytes = {
        let mut out = io::BufWriter::with_capacity(1 << 20, tmp.file());
        let len = write(&mut out).map_err(|e| match e {
            GenError::Io { source, .. } => io_err(source),
            other => other,
        })?;
        out.flush().map_err(io_err)?;
        len
    };
    tmp.file().sync_all().map_err(io_err)?;
    // Dropping `tmp` on an early return above deletes the temporary file.
    tmp.persist(&target).map_err(io_err)?;
    if let Ok(d) = std::fs::File::open(dir) {
        // Make the rename itself durable; not every filesystem supports syncing a directory.
        let _ = d.sync_all();
    }
    Ok(Written {
        bytes,
        owner_not_kept,
    })
}

/// The file that writing a table to `path` replaces, through any chain of symbolic links
/// (a relative link target is taken from the link's own directory), and what is known of the
/// file already there (its mode and owner), if any. A link to a file not there yet makes that file. Anything
/// that exists and is not a regular file is refused, as is a chain of more than 40 links.
fn replaceable(path: &Path) -> Result<(PathBuf, Option<std::fs::Metadata>), GenError> {
    let io_err = |source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut at = path.to_path_buf();
    for _ in 0..=40 {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((at, None)),
            Err(source) => return Err(io_err(source)),
        };
        if meta.file_type().is_symlink() {
            let to = std::fs::read_link(&at).map_err(io_err)?;
            // `join` keeps an absolute target as it is.
            at = at.parent().map_or(to.clone(), |dir| dir.join(&to));
            continue;
        }
        if !meta.is_file() {
            return Err(GenError::NotAFile {
                path: path.to_path_buf(),
                kind: slidetable_format::file_kind(&meta.file_type()),
            });
        }
        return Ok((at, Some(meta)));
    }
    Err(io_err(io::Error::other(
        "too many levels of symbolic links",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_is_checked_once_with_one_typed_error_per_limit() {
        let (eight, big) = (Board::EIGHT, Board::new(3, 4).unwrap());
        let (unit, tile) = (CostModel::Unit, CostModel::Tile);
        assert_eq!(check_plan(eight, None, unit).unwrap(), Encoding::Byte);
        assert_eq!(check_plan(big, None, unit).unwrap(), Encoding::TwoBit);
        assert_eq!(check_plan(eight, None, tile).unwrap(), Encoding::Wide16);
        let e = check_plan(eight, Some(Encoding::TwoBit), tile).unwrap_err();
        assert!(matches!(
            e,
            GenError::Format(FormatError::EncodingCost {
                encoding: Encoding::TwoBit,
                cost: CostModel::Tile
            })
        ));
        assert!(
            e.to_string()
                .contains("2bit encoding holds distances mod 3"),
            "{e}"
        );
        let e = check_plan(big, Some(Encoding::Byte), tile).unwrap_err();
        assert!(
            matches!(e, GenError::TooLargeForCost { max: 10, .. }),
            "{e}"
        );
        let e = check_plan(Board::new(4, 4).unwrap(), None, unit).unwrap_err();
        assert!(
            matches!(e, GenError::Board(BoardError::TooLarge { .. })),
            "{e}"
        );
        // solve asks the same check.
        let goals = [eight.standard_goal()];
        let e = solve(&goals, Some(Encoding::TwoBit), tile, &|_| {}).unwrap_err();
        assert!(matches!(
            e,
            GenError::Format(FormatError::EncodingCost { .. })
        ));
    }

    #[test]
    fn two_by_two_is_a_cycle_of_twelve() {
        let board = Board::new(2, 2).unwrap();
        let s = solve_section(&board.standard_goal()).unwrap();
        assert_eq!(s.histogram, vec![1, 2, 2, 2, 2, 2, 1]);
    }

    #[test]
    fn eight_puzzle_histogram_is_the_known_one() {
        let s = solve_section(&Board::EIGHT.standard_goal()).unwrap();
        assert_eq!(s.histogram.iter().sum::<u64>(), 181_440);
        assert_eq!(s.max_distance(), 31);
        assert_eq!(s.histogram[31], 2);
        // The published layer sizes of the 8-puzzle from its standard goal.
        assert_eq!(&s.histogram[..8], &[1, 2, 4, 8, 16, 20, 39, 62]);
    }

    #[test]
    fn refuses_mixed_boards() {
        let a = solve_section(&Board::new(2, 2).unwrap().standard_goal()).unwrap();
        let b = solve_section(&Board::new(2, 3).unwrap().standard_goal()).unwrap();
        let err = table_bytes(Board::new(2, 2).unwrap(), &[a, b]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "sections are for different boards (2x2 and 2x3)"
        );
    }
}
