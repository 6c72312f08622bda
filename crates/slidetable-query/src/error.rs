//! Why a table cannot be used ([`TableError`]: the file, its bytes) and why a question cannot
//! be asked of it ([`QueryError`]: the puzzle, the goal, entries that contradict each other).

use std::fmt;
use std::path::{Path, PathBuf};

use slidetable_core::{Board, Layout};
use slidetable_format::FormatError;

/// Why a table cannot be used. Names the file when there is one.
#[derive(Debug, thiserror::Error)]
pub struct TableError {
    /// The file the table came from, if any.
    pub file: Option<PathBuf>,
    /// What is wrong.
    pub kind: TableErrorKind,
}

impl TableError {
    /// `kind`, about the table from `file` (if any).
    pub(crate) fn new(file: Option<&Path>, kind: impl Into<TableErrorKind>) -> TableError {
        TableError {
            file: file.map(Path::to_path_buf),
            kind: kind.into(),
        }
    }
}

/// What is wrong with a table, whichever file it came from.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableErrorKind {
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// A table of every state given where pattern databases are expected (the 15-puzzle's
    /// questions, a `pdb` heuristic read from a file).
    #[error(
        "this is a table of every state, not pattern databases (make them with \
         `slidetable generate --board {0} --pdb PARTITION -o PATH`)"
    )]
    WholeTable(Board),
    /// A table of the states within `D` moves given where a table of every state or pattern
    /// databases are expected.
    #[error(
        "this is a table of the states within {0} moves (`generate --max-depth`), not of every \
         state: the command line's `distance`, `path`, `info` and `stats` read it"
    )]
    Bounded(u32),
    /// The path names something other than a regular file: a directory, a FIFO, a device.
    #[error("is {0}, not a table file")]
    NotAFile(&'static str),
    /// A directory with no manifest: not a table in parts, or one whose run has not finished.
    #[error(
        "is a directory without a manifest: not a table in parts, or one whose \
         `generate --parts` has not finished"
    )]
    NoManifest,
    /// The manifest of a table in parts, named where its directory should be.
    #[error(
        "is the manifest of a table in parts: name its directory ({}) instead",
        .0.display()
    )]
    Manifest(PathBuf),
    /// A part of a table in parts (or its manifest) that is missing, extra, truncated or
    /// damaged.
    #[error("{}: {problem}", part.display())]
    Part {
        /// The part file (or the manifest).
        part: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The entries, under checksums that match them, disagree with the header's histogram:
    /// damage made before the checksums were computed (or by someone who recomputed them).
    #[error(
        "section {section} (goal {goal}): the entries hold {found} states at distance {distance}, \
         the header's histogram says {expected}; the table is damaged: generate it again with \
         `slidetable generate`"
    )]
    Entries {
        /// The section, in file order.
        section: usize,
        /// Its goal.
        goal: Layout,
        /// The distance (for 2-bit entries, `distance mod 3`: the value stored).
        distance: String,
        /// The states the entries hold at it.
        found: u64,
        /// The states the header's histogram gives it.
        expected: u64,
    },
    /// The bytes are not a valid table (or are a pattern database where a table of every
    /// state is needed).
    #[error("{}{}", .0, regenerate(.0))]
    Format(#[from] FormatError),
}

impl From<slidetable_format::OpenError> for TableErrorKind {
    fn from(e: slidetable_format::OpenError) -> TableErrorKind {
        match e {
            slidetable_format::OpenError::NotAFile(kind) => TableErrorKind::NotAFile(kind),
            slidetable_format::OpenError::Io(e) => TableErrorKind::Io(e),
            other => TableErrorKind::Io(std::io::Error::other(other.to_string())),
        }
    }
}

/// What can be done about a damaged part of a table in parts (one part cannot be made
/// alone).
pub(crate) const PARTS_ADVICE: &str = "make the table again with the same `slidetable \
    generate --parts DIR` (same board, goal and number of processes): it resumes from the \
    run's last checkpoint if one is left in DIR, or starts over with --restart";

/// The advice after a format error: a damaged table is made again; a pattern database is
/// whole, only asked the wrong question.
fn regenerate(e: &FormatError) -> &'static str {
    match e {
        FormatError::PatternFile | FormatError::Pattern25File => "",
        // A part named alone is whole; its message says what to name instead.
        FormatError::Bounded(slidetable_format::BoundedError::IsPart { .. }) => "",
        _ => "; generate it again with `slidetable generate`",
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(p) => write!(f, "table {}: {}", p.display(), self.kind),
            None => write!(f, "table: {}", self.kind),
        }
    }
}

/// Why a question cannot be asked of this table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// The puzzle is on another board than the table.
    #[error("the puzzle is for a {found} board but the table is for {table}")]
    WrongBoard {
        /// The table's board.
        table: Board,
        /// The puzzle's board.
        found: Board,
    },
    /// No section of the table has this goal.
    #[error("the table has no section for goal {goal}")]
    NoSection {
        /// The goal asked for.
        goal: Layout,
    },
    /// A whole-table question of a 2-bit table too large to recover every distance of in
    /// memory (a byte a state: 43.6 GB for 2×7).
    #[error("recovering every distance of a {board} table needs a byte a state ({states} bytes): this answers for tables of up to {max} cells; on {board}, `slidetable hardest` and `slidetable random --depth` answer level by level in one bit a state, and heuristic reports over every state are not made")]
    TooLargeToRecover {
        /// The table's board.
        board: Board,
        /// Its states, one byte each.
        states: u64,
        /// The most cells whose distances are recovered.
        max: usize,
    },
    /// The entries do not lead to the goal as they should.
    #[error("the table's entries around {layout} contradict each other (corrupt table? check it with `slidetable info --verify`)")]
    Corrupt {
        /// Where the walk found the contradiction.
        layout: Layout,
    },
    /// A block of the payload does not match its checksum (format version 2), found when a
    /// question first read from it: nothing is answered from it. Boxed: the details (two
    /// paths and the format error) would make every `Result<_, QueryError>` large.
    #[error("{0}")]
    Damaged(Box<Damage>),
    /// The 2-bit entries of a section do not give the states its histogram counts.
    #[error("the histogram of the section for goal {goal} counts {expected} states at {distance} moves but its entries give {found} (corrupt table? check it with `slidetable info --verify`)")]
    CorruptLayer {
        /// The section's goal.
        goal: Layout,
        /// The first distance whose count disagrees.
        distance: u32,
        /// The states the histogram counts there.
        expected: u64,
        /// The states the entries give there.
        found: u64,
    },
}

/// A damaged block ([`QueryError::Damaged`]): where it is and what its checksum says.
///
/// The message does not name the table: whoever asked names it once, as for every other
/// error of a question (`table F: bytes A..B do not match …`). A table in parts names the
/// part file the bytes are counted in, which the caller's name for the table (its
/// directory) does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// The file (or the directory of a table in parts) the table came from, if any (for a
    /// caller without its name at hand).
    pub file: Option<PathBuf>,
    /// The part file holding the block, for a table in parts.
    pub part: Option<PathBuf>,
    /// The block's offsets (counted in `part` for a table in parts) and checksums.
    pub error: FormatError,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        match &self.part {
            Some(part) => write!(f, " (file {}); {PARTS_ADVICE}", part.display()),
            None => write!(f, "; generate it again with `slidetable generate`"),
        }
    }
}

/// [`QueryError::WrongBoard`] unless `layout` is on `board`, the board of the table asked.
#[inline]
pub(crate) fn check_board(board: Board, layout: &Layout) -> Result<(), QueryError> {
    if layout.board() != board {
        return Err(QueryError::WrongBoard {
            table: board,
            found: layout.board(),
        });
    }
    Ok(())
}

/// `e` and its causes, `: `-separated, as the command line prints an error (`{:#}`): the one
/// wording of a chained error on the surfaces that have no `anyhow` (the server, the Python
/// package).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
