//! Answers from a slidetable file: the distance of any layout in O(1), an optimal path in
//! O(path length), over any bytes — a memory-mapped file, a `Vec<u8>`, or `include_bytes!`.
//!
//! ```
//! use slidetable_core::{parse_layout, path_string, Board};
//! use slidetable_gen::{default_goals, solve_sections, table_bytes};
//! use slidetable_query::Table;
//!
//! let board = Board::EIGHT;
//! let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
//! let table = Table::new(bytes).unwrap();
//! let start = parse_layout(board, b"2 3 4 1 5 x 7 6 8").unwrap();
//! assert_eq!(table.distance(&start).unwrap(), Some(19));
//! let path = table.path(&start).unwrap().unwrap();
//! assert_eq!(path.len(), 19);
//! assert_eq!(start.after(&path), Some(board.standard_goal()));
//! assert!(path_string(&path).starts_with('u'));
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use slidetable_core::{slide, Board, Layout, Move, Neighbors, Ranker, MAX_CELLS};
use slidetable_format::{
    byte_at, byte_distance, byte_move, two_bit_value, wide_at, wide_cost, wide_move, FormatError,
    Header, SectionDescriptor,
};

pub use slidetable_format::{is_pattern_file, CostModel, Encoding};

mod distances;
mod file;
mod guard;
mod histogram;
mod layer;
mod pattern;

pub use file::{TableBytes, READ_BELOW};
pub use guard::exit_on_changed_table;

pub use histogram::{HistogramStats, LayerStats};
pub use layer::{Layer, LayerError, SplitMix64, BLOCK};
pub use pattern::{MappedPatternTable, PatternGroup, PatternTable};

/// Why a table cannot be used. Names the file when there is one.
#[derive(Debug, thiserror::Error)]
pub struct TableError {
    /// The file the table came from, if any.
    pub path: Option<PathBuf>,
    /// What is wrong.
    pub kind: TableErrorKind,
}

/// What is wrong with a table, whichever file it came from.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableErrorKind {
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// The path names something other than a regular file: a directory, a FIFO, a device.
    #[error("is {0}, not a table file")]
    NotAFile(&'static str),
    /// The bytes are not a valid table (or are a pattern database where a table of every
    /// state is needed).
    #[error("{}{}", .0, regenerate(.0))]
    Format(#[from] FormatError),
}

/// The advice after a format error: a damaged table is made again; a pattern database is
/// whole, only asked the wrong question.
fn regenerate(e: &FormatError) -> &'static str {
    match e {
        FormatError::PatternFile => "",
        _ => "; generate it again with `slidetable generate`",
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
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
    /// The entries do not lead to the goal as they should.
    #[error("the table's entries around {layout} contradict each other (corrupt table? check it with `slidetable info --verify`)")]
    Corrupt {
        /// Where the walk found the contradiction.
        layout: Layout,
    },
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

/// A table over bytes `D`: validated once in constant time, then read without copying.
pub struct Table<D: AsRef<[u8]>> {
    data: D,
    header: Header,
    ranker: Ranker,
    neighbors: Neighbors,
    /// Each section goal's parity class and packed form, computed once.
    goal_keys: Vec<(u8, u64)>,
    /// The section of the standard goal, if the table has one: the default questions.
    standard_section: Option<usize>,
    path: Option<PathBuf>,
}

/// A table over a file: read into memory when small, memory-mapped when large (see
/// [`TableBytes`]).
pub type MappedTable = Table<TableBytes>;

impl Table<TableBytes> {
    /// Reads (below [`READ_BELOW`] bytes) or maps the file at `path` and checks its header
    /// (not its checksum: see [`Table::verify`]). Anything but a regular file is refused
    /// without reading from it (a FIFO would block).
    pub fn open(path: impl AsRef<Path>) -> Result<Table<TableBytes>, TableError> {
        let path = path.as_ref();
        let err = |kind| TableError {
            path: Some(path.to_path_buf()),
            kind,
        };
        let bytes = file::open(path).map_err(|e| match e {
            file::OpenError::Io(e) => err(e.into()),
            file::OpenError::NotAFile(kind) => err(TableErrorKind::NotAFile(kind)),
        })?;
        let mut table = Table::new(bytes).map_err(|e| err(e.kind))?;
        table.path = Some(path.to_path_buf());
        Ok(table)
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// A table over `data`, after checking magic, version, board, encoding, every header
    /// field and the exact length — in time bounded by the header, not the payload.
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        let header = Header::parse(data.as_ref()).map_err(|e| TableError {
            path: None,
            kind: e.into(),
        })?;
        let ranker = Ranker::new(header.board()).expect("header validated the board");
        let goal_keys = header
            .sections()
            .iter()
            .map(|s| (s.goal().class(), s.goal().packed()))
            .collect();
        let standard = header.board().standard_goal();
        let standard_section = header.sections().iter().position(|s| *s.goal() == standard);
        Ok(Table {
            data,
            goal_keys,
            standard_section,
            neighbors: Neighbors::new(header.board()),
            header,
            ranker,
            path: None,
        })
    }

    /// Checks the payload checksum: reads every byte of the file.
    pub fn verify(&self) -> Result<(), TableError> {
        self.header
            .verify_payload(self.data.as_ref())
            .map_err(|e| TableError {
                path: self.path.clone(),
                kind: e.into(),
            })
    }

    /// The board every section is for.
    pub fn board(&self) -> Board {
        self.header.board()
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The sections' descriptors, in file order.
    pub fn sections(&self) -> &[SectionDescriptor] {
        self.header.sections()
    }

    /// The file this table was opened from, if any.
    pub fn file(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The section whose goal is exactly `goal`, if the table has one.
    pub fn section_for(&self, goal: &Layout) -> Result<usize, QueryError> {
        self.check_board(goal)?;
        self.header
            .sections()
            .iter()
            .position(|s| s.goal() == goal)
            .ok_or(QueryError::NoSection { goal: *goal })
    }

    fn check_board(&self, layout: &Layout) -> Result<(), QueryError> {
        if layout.board() != self.header.board() {
            return Err(QueryError::WrongBoard {
                table: self.header.board(),
                found: layout.board(),
            });
        }
        Ok(())
    }

    /// A view of section `index` (in file order), if the table has one.
    pub fn section(&self, index: usize) -> Option<Section<'_>> {
        let header = self.header.sections().get(index)?;
        let &(goal_class, goal_packed) = self.goal_keys.get(index)?;
        Some(Section {
            header,
            entries: self.header.payload(self.data.as_ref(), index)?,
            ranker: &self.ranker,
            neighbors: &self.neighbors,
            goal_class,
            goal_packed,
            encoding: self.header.encoding(),
            cost: self.header.cost(),
            known: None,
        })
    }

    /// Answers about `goal`, any layout of the board: from its own section when the table
    /// has one, else by relabelling tiles onto the section whose goal has its blank in the
    /// same cell. Moves act on cells, not labels, so paths carry over unchanged.
    pub fn goal(&self, goal: &Layout) -> Result<Goal<'_>, QueryError> {
        self.check_board(goal)?;
        let no_section = QueryError::NoSection { goal: *goal };
        if let Ok(i) = self.section_for(goal) {
            return Ok(Goal {
                section: self.section(i).ok_or(no_section)?,
                goal: *goal,
                relabel: None,
            });
        }
        if self.header.cost() != CostModel::Unit {
            // Relabelling renames tiles, and a tile's name is its cost: no shortcut here.
            return Err(no_section);
        }
        let target = self.header.board().goal_with_blank(goal.blank());
        let i = self.section_for(&target).map_err(|_| no_section.clone())?;
        Ok(Goal {
            section: self.section(i).ok_or(no_section)?,
            goal: *goal,
            relabel: Some(goal.relabelling_to_standard()),
        })
    }

    /// Answers about the standard goal (tiles in order, blank last).
    pub fn standard(&self) -> Result<Goal<'_>, QueryError> {
        let standard = self.header.board().standard_goal();
        match self.standard_section.and_then(|i| self.section(i)) {
            Some(section) => Ok(Goal {
                section,
                goal: standard,
                relabel: None,
            }),
            None => self.goal(&standard),
        }
    }

    /// The fewest moves from `start` to the standard goal (tiles in order, blank last), or
    /// `None` when it cannot be reached.
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        self.standard()?.distance(start)
    }

    /// An optimal path from `start` to the standard goal, or `None` when there is none.
    pub fn path(&self, start: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        self.standard()?.path(start)
    }

    /// The fewest moves from `start` to `goal`, or `None` when they are in different classes.
    pub fn distance_to(&self, start: &Layout, goal: &Layout) -> Result<Option<u32>, QueryError> {
        self.goal(goal)?.distance(start)
    }

    /// An optimal path from `start` to `goal`, or `None` when there is none.
    pub fn path_to(&self, start: &Layout, goal: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        self.goal(goal)?.path(start)
    }
}

/// Questions about one goal, answered from a section (relabelled when needed).
#[derive(Clone, Copy)]
pub struct Goal<'a> {
    section: Section<'a>,
    goal: Layout,
    /// Maps the goal's tiles onto the section goal's; `None` when the section is the goal's own.
    relabel: Option<[u8; MAX_CELLS]>,
}

impl<'a> Goal<'a> {
    /// The goal asked about.
    pub fn layout(&self) -> &Layout {
        &self.goal
    }

    /// The section that answers, and its goal.
    pub fn section(&self) -> &Section<'a> {
        &self.section
    }

    /// `start` in the section's labels.
    #[inline]
    fn relabel_start(&self, start: &Layout) -> Result<Layout, QueryError> {
        self.section.check_board(start)?;
        Ok(match &self.relabel {
            Some(map) => start.relabelled(map),
            None => *start,
        })
    }

    /// The fewest moves from `start` to this goal, or `None` if unreachable.
    #[inline]
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        self.section.distance(&self.relabel_start(start)?)
    }

    /// An optimal path, or `None` if unreachable.
    pub fn path(&self, start: &Layout) -> Result<Option<Vec<Move>>, QueryError> {
        let mut path = Vec::new();
        Ok(self.path_into(start, &mut path)?.then_some(path))
    }

    /// Appends an optimal path to `path` (the fastest: stored first moves); false if none.
    pub fn path_into(&self, start: &Layout, path: &mut Vec<Move>) -> Result<bool, QueryError> {
        self.section.path_into(&self.relabel_start(start)?, path)
    }

    /// Appends the lexicographically smallest optimal path under the letter order `order`:
    /// at each step the first move in `order` that brings the goal one move closer.
    pub fn ordered_path_into(
        &self,
        start: &Layout,
        order: &[Move; 4],
        path: &mut Vec<Move>,
    ) -> Result<bool, QueryError> {
        self.section
            .ordered_path_into(&self.relabel_start(start)?, order, path)
    }

    /// States at each distance from this goal (`histogram()[d]`: the states `d` moves away),
    /// as the table's header records it. Relabelling a goal keeps its section's histogram.
    pub fn histogram(&self) -> &'a [u64] {
        self.section.header.histogram()
    }

    /// The greatest distance any state has from this goal.
    pub fn max_distance(&self) -> u32 {
        self.section.header.max_distance()
    }

    /// Shares, cumulative shares, mean, median and maximum of [`Goal::histogram`].
    pub fn stats(&self) -> HistogramStats {
        HistogramStats::of(self.histogram())
    }

    /// Every state that can reach this goal, with its distance, in rank order of the section.
    pub fn states(&self) -> impl Iterator<Item = (Layout, u32)> + 'a {
        self.states_in(0..self.section.ranker.states())
    }

    /// How many states [`Goal::states`] gives: every state of the goal's class.
    pub fn state_count(&self) -> u32 {
        self.section.ranker.states()
    }

    /// The states of [`Goal::states`] whose section ranks are in `ranks` (a part of
    /// `0..state_count()`), so that parts can be taken apart, on several threads.
    pub fn states_in(
        &self,
        ranks: std::ops::Range<u32>,
    ) -> impl Iterator<Item = (Layout, u32)> + 'a {
        let ranker = self.section.ranker;
        let class = self.section.goal_class;
        let back = self
            .relabel
            .map(|map| invert(&map, self.goal.board().cells()));
        let section = self.section;
        // Consecutive ranks share their first tiles: a scan cursor unranks them from a
        // table of suffixes (the generator's way) instead of digit by digit.
        let scan = slidetable_core::Scan::new(ranker.board(), class).ok();
        let mut cursor = scan.as_ref().map(slidetable_core::Scan::cursor);
        (ranks.start..ranks.end.min(ranker.states())).map(move |r| {
            let layout = match (&scan, &mut cursor) {
                (Some(scan), Some(cursor)) => scan.layout(cursor, r),
                _ => ranker.unrank(r, class),
            };
            let layout = match &back {
                Some(inv) => layout.relabelled(inv),
                None => layout,
            };
            // A 2-bit table that contradicts itself has no distance to give: u32::MAX.
            (layout, section.distance_at(r).unwrap_or(u32::MAX))
        })
    }

    /// Every state's distance from this goal up to `upto` (one byte per rank of the section,
    /// 255 beyond `upto`), for sections whose 2-bit entries hold only
    /// residues: recovered in one breadth-first pass over the entries (see the `distances`
    /// module) instead of a walk from each state. `None` for byte and wide entries, which
    /// hold every distance already. `progress` is told how many states each layer settles.
    pub fn recover_distances(
        &self,
        upto: u32,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Option<Vec<u8>>, QueryError> {
        let section = &self.section;
        if section.encoding != Encoding::TwoBit || section.known.is_some() {
            return Ok(None);
        }
        let goal_rank = section.ranker.rank(section.header.goal());
        distances::recover(
            section.ranker,
            section.goal_class,
            goal_rank,
            section.entries,
            section.header.histogram(),
            upto,
            progress,
        )
        .map(Some)
        .map_err(|e| match e {
            distances::RecoverError::Corrupt {
                distance,
                expected,
                found,
            } => QueryError::CorruptLayer {
                goal: *section.header.goal(),
                distance,
                expected,
                found,
            },
            distances::RecoverError::TooDeep => QueryError::Corrupt {
                layout: *section.header.goal(),
            },
        })
    }

    /// This goal answering whole-table questions (layers, the states at a distance, every
    /// state) from `distances`, as [`Goal::recover_distances`] gave them, instead of
    /// walking the 2-bit entries. Paths are still walked.
    pub fn knowing<'b>(&self, distances: &'b [u8]) -> Goal<'b>
    where
        'a: 'b,
    {
        let mut goal: Goal<'b> = *self;
        if distances.len() == goal.section.ranker.states() as usize {
            goal.section.known = Some(distances);
        }
        goal
    }

    /// Every layout at exactly `distance` moves from this goal, in rank order of the section.
    pub fn layouts_at(&self, distance: u32) -> impl Iterator<Item = Layout> + 'a {
        let back = self
            .relabel
            .map(|map| invert(&map, self.goal.board().cells()));
        self.section.layouts_at(distance).map(move |l| match &back {
            Some(inv) => l.relabelled(inv),
            None => l,
        })
    }
}

fn invert(map: &[u8; MAX_CELLS], n: usize) -> [u8; MAX_CELLS] {
    let mut inv = [0u8; MAX_CELLS];
    for (t, &to) in map.iter().enumerate().take(n) {
        inv[to as usize] = t as u8;
    }
    inv
}

/// One goal's entries.
#[derive(Clone, Copy)]
pub struct Section<'a> {
    header: &'a SectionDescriptor,
    entries: &'a [u8],
    ranker: &'a Ranker,
    neighbors: &'a Neighbors,
    goal_class: u8,
    goal_packed: u64,
    encoding: Encoding,
    cost: CostModel,
    /// Every state's distance, one byte each, when [`Goal::knowing`] supplied them (2-bit
    /// sections, whose entries hold only residues): read instead of walking.
    known: Option<&'a [u8]>,
}

/// A position during a path walk.
#[derive(Clone, Copy)]
struct Walk {
    packed: u64,
    blank: usize,
    rank: u32,
}

impl<'a> Section<'a> {
    /// The section's goal.
    pub fn goal(&self) -> &Layout {
        self.header.goal()
    }

    /// The section's descriptor in the header.
    pub fn header(&self) -> &SectionDescriptor {
        self.header
    }

    fn check_board(&self, layout: &Layout) -> Result<(), QueryError> {
        if layout.board() != self.header.goal().board() {
            return Err(QueryError::WrongBoard {
                table: self.header.goal().board(),
                found: layout.board(),
            });
        }
        Ok(())
    }

    /// The rank of `layout`, if it lies in the goal's class.
    #[inline]
    fn rank(&self, layout: &Layout) -> Result<Option<u32>, QueryError> {
        self.check_board(layout)?;
        let (rank, class) = self.ranker.rank_and_class(layout);
        Ok((class == self.goal_class).then_some(rank))
    }

    /// The stored value at `rank`: the distance (or cost) for byte and wide entries, the
    /// distance mod 3 for 2-bit ones. `rank` < states, which the header's check guarantees
    /// the payload covers.
    #[inline]
    fn value(&self, rank: u32) -> u32 {
        match self.encoding {
            Encoding::Byte => byte_distance(byte_at(self.entries, rank)),
            Encoding::TwoBit => two_bit_value(self.entries, rank),
            Encoding::Wide16 => wide_cost(wide_at(self.entries, rank)),
        }
    }

    /// The distance (or cost) and the stored first move at `rank`, from one read of the
    /// entry (byte and wide entries only).
    #[inline]
    fn stored(&self, rank: u32) -> Option<(u32, Move)> {
        match self.encoding {
            Encoding::Byte => Some(self.stored_byte(rank)),
            Encoding::TwoBit => None,
            Encoding::Wide16 => {
                let entry = wide_at(self.entries, rank);
                Some((wide_cost(entry), wide_move(entry)))
            }
        }
    }

    /// [`Section::stored`] of a byte entry.
    #[inline]
    fn stored_byte(&self, rank: u32) -> (u32, Move) {
        let entry = byte_at(self.entries, rank);
        (byte_distance(entry), byte_move(entry))
    }

    /// The encoding of this section's entries.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// What a move costs in this section.
    pub fn cost(&self) -> CostModel {
        self.cost
    }

    /// Where a path walk stands: the packed layout, its blank and its rank.
    #[inline]
    fn step(&self, at: Walk, to: usize, m: Move) -> Walk {
        let packed = slide(at.packed, at.blank, to);
        let rank = self.ranker.step(at.rank, m, packed, to);
        Walk {
            packed,
            blank: to,
            rank,
        }
    }

    /// What the move from `at` to cell `to` costs: the tile that slides.
    #[inline]
    fn step_cost(&self, at: Walk, to: usize) -> u32 {
        self.cost.of_tile(((at.packed >> (4 * to)) & 0xF) as u8)
    }

    fn walk_start(&self, start: &Layout) -> Walk {
        Walk {
            packed: start.packed(),
            blank: start.blank(),
            rank: self.ranker.rank(start),
        }
    }

    fn walk_at(&self, rank: u32) -> Walk {
        let (packed, blank) = self.ranker.unrank_packed(rank, self.goal_class);
        Walk {
            packed,
            blank,
            rank,
        }
    }

    fn corrupt(&self, at: Walk) -> QueryError {
        QueryError::Corrupt {
            layout: Layout::from_packed(self.header.goal().board(), at.packed)
                .unwrap_or(*self.header.goal()),
        }
    }

    /// The first move in `order` from `at` (whose value is `value`) that brings the goal one
    /// step closer, and where it leads. For byte and wide entries `value` is the exact
    /// distance (or cost) and the neighbour must hold `value − cost of the move`; for 2-bit
    /// entries it is the residue and the neighbour must hold `value − 1 mod 3`.
    #[inline]
    fn closer(&self, at: Walk, value: u32, order: &[Move]) -> Option<(Move, Walk, u32)> {
        order.iter().find_map(|&m| {
            let to = self.neighbors.of(at.blank, m)?;
            let next = self.step(at, to, m);
            let v = self.value(next.rank);
            let fits = match self.encoding {
                Encoding::TwoBit => v == (value + 2) % 3,
                Encoding::Byte | Encoding::Wide16 => v + self.step_cost(at, to) == value,
            };
            fits.then_some((m, next, v))
        })
    }

    /// Walks from `at` to the goal choosing moves by `order` (`None`: the stored first moves
    /// where there are any), calling `f` with each move; returns the distance (or cost). A
    /// corrupt payload cannot loop or panic: every step must bring the goal exactly one
    /// closer, within the header's maximum distance, and end on the goal, or the walk stops
    /// with [`QueryError::Corrupt`].
    fn walk(
        &self,
        mut at: Walk,
        order: Option<&[Move; 4]>,
        mut f: impl FnMut(Move),
    ) -> Result<u32, QueryError> {
        let mut value = self.value(at.rank);
        let max = self.header.max_distance();
        let mut total = 0u32;
        if self.encoding == Encoding::TwoBit {
            // On sound entries every walk by residues is optimal, so every order counts the
            // same length; on corrupt ones two orders can wander to the goal by different
            // lengths. An ordered walk must match the walk `distance` counts (code order).
            let expect = match order {
                Some(order) if order != &Move::ALL => {
                    // A function pointer, so the recursion instantiates `walk` only once.
                    let count: fn(Move) = |_| {};
                    Some(self.walk(at, None, count)?)
                }
                _ => None,
            };
            let start = at;
            // An ordered walk stops as soon as it is longer than the counted one.
            let limit = expect.unwrap_or(max);
            while at.packed != self.goal_packed {
                if total >= limit {
                    return Err(self.corrupt(at));
                }
                let (m, next, v) = self
                    .closer(at, value, order.unwrap_or(&Move::ALL))
                    .ok_or_else(|| self.corrupt(at))?;
                f(m);
                (at, value, total) = (next, v, total + 1);
            }
            if value != 0 {
                return Err(self.corrupt(at));
            }
            if expect.is_some_and(|d| d != total) {
                return Err(self.corrupt(start));
            }
            return Ok(total);
        }
        let Some(order) = order else {
            // One loop per encoding, so the entry is decoded without a test at every step.
            return match self.encoding {
                Encoding::Byte => self.walk_stored(at, f, |s, r| s.stored_byte(r)),
                _ => self.walk_stored(at, f, |s, r| s.stored(r).expect("byte or wide entries")),
            };
        };
        let distance = value;
        while value > 0 {
            let (m, next, v) = self
                .closer(at, value, order)
                .ok_or_else(|| self.corrupt(at))?;
            f(m);
            (at, value) = (next, v);
        }
        if at.packed != self.goal_packed {
            return Err(self.corrupt(at));
        }
        Ok(distance)
    }

    /// [`Section::walk`] along the stored first moves of byte and wide entries, the hot loop
    /// of `path`: each entry is read once for its move and its distance, and every step must
    /// stay on the board and bring the goal exactly one move's cost closer.
    #[inline]
    fn walk_stored(
        &self,
        mut at: Walk,
        mut f: impl FnMut(Move),
        read: impl Fn(&Self, u32) -> (u32, Move),
    ) -> Result<u32, QueryError> {
        let stored = |rank| read(self, rank);
        let (distance, mut m) = stored(at.rank);
        if distance > self.header.max_distance() {
            return Err(self.corrupt(at));
        }
        let mut value = distance;
        while value > 0 {
            let to = self
                .neighbors
                .of(at.blank, m)
                .ok_or_else(|| self.corrupt(at))?;
            let next = self.step(at, to, m);
            let (v, next_move) = stored(next.rank);
            if v + self.step_cost(at, to) != value {
                return Err(self.corrupt(at));
            }
            f(m);
            (at, m, value) = (next, next_move, v);
        }
        if at.packed != self.goal_packed {
            return Err(self.corrupt(at));
        }
        Ok(distance)
    }

    /// The distance (or cheapest cost) of the state of the goal's class with rank `rank`:
    /// read directly from byte and wide entries, counted along a walk for 2-bit ones.
    pub fn distance_at(&self, rank: u32) -> Result<u32, QueryError> {
        if let Some(known) = self.known {
            return Ok(u32::from(known[rank as usize]));
        }
        match self.encoding {
            Encoding::TwoBit => self.walk(self.walk_at(rank), None, |_| {}),
            Encoding::Byte | Encoding::Wide16 => self.within_max(rank, self.value(rank)),
        }
    }

    /// `value`, read at `rank`, unless it is beyond the section's maximum distance (an
    /// impossible entry: corrupt). One compare, made on every answer.
    #[inline]
    fn within_max(&self, rank: u32, value: u32) -> Result<u32, QueryError> {
        if value > self.header.max_distance() {
            return Err(self.corrupt(self.walk_at(rank)));
        }
        Ok(value)
    }

    /// Whether the state with rank `rank` is `distance` away, without walking when the
    /// stored residue already says no.
    fn is_at(&self, rank: u32, distance: u32) -> bool {
        if let Some(known) = self.known {
            return u32::from(known[rank as usize]) == distance;
        }
        match self.encoding {
            Encoding::TwoBit => {
                self.value(rank) == distance % 3 && self.distance_at(rank) == Ok(distance)
            }
            Encoding::Byte | Encoding::Wide16 => self.value(rank) == distance,
        }
    }

    /// The fewest moves (or the cheapest cost) from `start` to this section's goal, or `None`
    /// if unreachable. O(1) for byte and wide entries; O(distance) for 2-bit ones, which
    /// count the steps of an optimal walk.
    #[inline]
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        match self.rank(start)? {
            None => Ok(None),
            Some(rank) => match self.encoding {
                Encoding::TwoBit => self.walk(self.walk_start(start), None, |_| {}).map(Some),
                Encoding::Byte | Encoding::Wide16 => {
                    let value = self.value(rank);
                    if value > self.header.max_distance() {
                        return Err(self.corrupt(self.walk_start(start)));
                    }
                    Ok(Some(value))
                }
            },
        }
    }

    /// The first move of the path `path_into` takes (`None` at the goal or when
    /// unreachable). Like a path walk, it is checked: a move off the board, or one that does
    /// not bring the goal one step closer, is [`QueryError::Corrupt`], never an answer.
    pub fn first_move(&self, start: &Layout) -> Result<Option<Move>, QueryError> {
        let Some(rank) = self.rank(start)? else {
            return Ok(None);
        };
        let at = self.walk_start(start);
        if at.packed == self.goal_packed {
            return Ok(None);
        }
        let value = self.value(rank);
        let order = match self.stored(rank) {
            Some((_, m)) => vec![m],
            None => Move::ALL.to_vec(),
        };
        if self.encoding != Encoding::TwoBit && value == 0 {
            return Err(self.corrupt(at));
        }
        let (m, _, _) = self
            .closer(at, value, &order)
            .ok_or_else(|| self.corrupt(at))?;
        Ok(Some(m))
    }

    /// Every move from `layout` that brings the goal one step closer: the first steps of all
    /// optimal (cheapest) paths (empty at the goal or when unreachable).
    pub fn optimal_moves(&self, layout: &Layout) -> Result<Vec<Move>, QueryError> {
        let Some(rank) = self.rank(layout)? else {
            return Ok(Vec::new());
        };
        let at = self.walk_start(layout);
        if at.packed == self.goal_packed {
            return Ok(Vec::new());
        }
        let value = self.value(rank);
        Ok(Move::ALL
            .into_iter()
            .filter(|&m| self.closer(at, value, &[m]).is_some())
            .collect())
    }

    /// Appends an optimal (cheapest) path from `start` to `path`: the stored first moves for
    /// byte and wide entries, the first closer neighbour in code order (u d l r) for 2-bit
    /// ones; false when the goal cannot be reached.
    pub fn path_into(&self, start: &Layout, path: &mut Vec<Move>) -> Result<bool, QueryError> {
        if self.rank(start)?.is_none() {
            return Ok(false);
        }
        self.walk(self.walk_start(start), None, |m| path.push(m))?;
        Ok(true)
    }

    /// Appends the lexicographically smallest optimal (cheapest) path under `order` (see
    /// [`Goal::ordered_path_into`]). On 2-bit entries its length is checked against the
    /// walk [`Section::distance`] counts: corrupt entries that let the two differ are
    /// [`QueryError::Corrupt`], so a path always has the length `distance` reports.
    pub fn ordered_path_into(
        &self,
        start: &Layout,
        order: &[Move; 4],
        path: &mut Vec<Move>,
    ) -> Result<bool, QueryError> {
        if self.rank(start)?.is_none() {
            return Ok(false);
        }
        self.walk(self.walk_start(start), Some(order), |m| path.push(m))?;
        Ok(true)
    }

    /// Every layout at exactly `distance` moves (or cost) from the goal, in rank order.
    pub fn layouts_at(&self, distance: u32) -> impl Iterator<Item = Layout> + 'a {
        let section = *self;
        (0..self.ranker.states())
            .filter(move |&r| section.is_at(r, distance))
            .map(move |r| section.ranker.unrank(r, section.goal_class))
    }
}
