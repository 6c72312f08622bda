//! Lower bounds on the number of moves left, for A* and IDA*.
//!
//! Every heuristic here is built for one goal [`Layout`] (any goal, not only the standard
//! one): it precomputes where each tile belongs, so an estimate is a few table look-ups per
//! cell and the update after one move touches only the tile that moved.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use slidetable_core::{Layout, Move, MAX_CELLS};

/// A lower bound on the moves from a layout to one fixed goal.
///
/// The searches rely on two properties, which the crate's tests check exhaustively for the
/// heuristics it ships:
///
/// - **admissible**: `estimate(l)` never exceeds the true distance from `l` to
///   [`Heuristic::goal`], and is 0 at the goal. This is what makes A* and IDA* optimal.
/// - **consistent** (optional, see [`Heuristic::is_consistent`]): along any one move the
///   estimate changes by at most 1, so A* never needs to expand a state twice.
///
/// A pattern-database heuristic plugs in by implementing this trait; the trait is object
/// safe, so `&dyn Heuristic` works with [`astar`](crate::astar) and
/// [`idastar`](crate::idastar) too (at the cost of a virtual call per node).
pub trait Heuristic {
    /// The goal this heuristic estimates distances to. The searches take the goal from here,
    /// so a heuristic and a goal can never disagree.
    fn goal(&self) -> &Layout;

    /// A lower bound on the number of moves from `layout` to the goal.
    fn estimate(&self, layout: &Layout) -> u32;

    /// The estimate of `after`, knowing that `h` is the estimate of `before` and that `after`
    /// is `before` with the blank moved by `m`. Searches call this once per generated node,
    /// so heuristics that can update incrementally (only the moved tile changes) should.
    #[inline]
    fn update(&self, h: u32, before: &Layout, m: Move, after: &Layout) -> u32 {
        let _ = (h, before, m);
        self.estimate(after)
    }

    /// Whether the estimate changes by at most one move's cost along every move. Only
    /// affects how much work A* may do, never the optimality of its answer.
    fn is_consistent(&self) -> bool {
        false
    }
}

/// A reference to a heuristic, or a box holding one, is that heuristic: every method
/// forwards to it.
macro_rules! forward_heuristic {
    ($($pointer:ty),+) => {$(
        impl<H: Heuristic + ?Sized> Heuristic for $pointer {
            fn goal(&self) -> &Layout {
                (**self).goal()
            }
            #[inline]
            fn estimate(&self, layout: &Layout) -> u32 {
                (**self).estimate(layout)
            }
            #[inline]
            fn update(&self, h: u32, before: &Layout, m: Move, after: &Layout) -> u32 {
                (**self).update(h, before, m, after)
            }
            fn is_consistent(&self) -> bool {
                (**self).is_consistent()
            }
        }
    )+};
}

forward_heuristic!(&H, Box<H>);

/// The tile that a move slides: it sat where the blank lands and now sits where the blank was.
#[inline]
fn moved_tile(before: &Layout, after: &Layout) -> (usize, usize, usize) {
    let tile = after.tile(before.blank()) as usize;
    (tile, after.blank(), before.blank())
}

/// Where each tile of the goal lies, and each tile's Manhattan distance from every cell.
#[derive(Clone, Debug)]
struct GoalCells {
    goal: Layout,
    /// `dist[tile][cell]`: rows plus columns between `cell` and the tile's goal cell; 0 for
    /// the blank, which no heuristic counts (counting it would overestimate).
    dist: [[u8; MAX_CELLS]; MAX_CELLS],
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
}

impl GoalCells {
    fn new(goal: &Layout) -> GoalCells {
        let board = goal.board();
        let cols = board.cols();
        let mut cells = GoalCells {
            goal: *goal,
            dist: [[0; MAX_CELLS]; MAX_CELLS],
            goal_row: [0; MAX_CELLS],
            goal_col: [0; MAX_CELLS],
        };
        for (home, &tile) in goal.tiles().iter().enumerate() {
            let t = tile as usize;
            cells.goal_row[t] = (home / cols) as u8;
            cells.goal_col[t] = (home % cols) as u8;
            if tile == 0 {
                continue;
            }
            for cell in 0..board.cells() {
                let rows = (cell / cols).abs_diff(home / cols);
                let columns = (cell % cols).abs_diff(home % cols);
                cells.dist[t][cell] = (rows + columns) as u8;
            }
        }
        cells
    }

    #[inline]
    fn manhattan(&self, layout: &Layout) -> u32 {
        layout
            .tiles()
            .iter()
            .enumerate()
            .map(|(cell, &t)| u32::from(self.dist[t as usize][cell]))
            .sum()
    }
}

/// Sum over tiles of the rows plus columns between each tile and its goal cell.
///
/// Each move slides one tile by one cell, so it changes the sum by exactly one: the bound
/// is admissible and consistent, and [`Heuristic::update`] needs two table look-ups.
#[derive(Clone, Debug)]
pub struct Manhattan {
    cells: GoalCells,
}

impl Manhattan {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Layout) -> Manhattan {
        Manhattan {
            cells: GoalCells::new(goal),
        }
    }
}

impl Heuristic for Manhattan {
    fn goal(&self) -> &Layout {
        &self.cells.goal
    }

    #[inline]
    fn estimate(&self, layout: &Layout) -> u32 {
        self.cells.manhattan(layout)
    }

    #[inline]
    fn update(&self, h: u32, before: &Layout, _m: Move, after: &Layout) -> u32 {
        let (tile, from, to) = moved_tile(before, after);
        let d = &self.cells.dist[tile];
        h + u32::from(d[to]) - u32::from(d[from])
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// Manhattan distance plus two moves for every tile that must leave its line.
///
/// Take a row and the tiles in it whose goal is in that row. Tiles that never leave the row
/// keep their left-to-right order, so all but an increasing run of them (by goal column)
/// must step out of the row and back: two vertical moves each that Manhattan does not count.
/// The fewest such tiles is the line's length minus its longest increasing subsequence.
/// Columns likewise, with horizontal moves, so row and column penalties never count the
/// same move twice. Each move changes Manhattan by one and the penalty of at most one line
/// by two, in the direction that keeps the total's change at ±1: still consistent.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    cells: GoalCells,
    /// `row_places[r][t]`: tile `t`'s goal column if its goal row is `r`, else the row's
    /// length (the tile does not count in that row); the blank never counts.
    row_places: [[u8; MAX_CELLS]; MAX_LINE],
    /// `col_places[c][t]`: likewise for columns, the goal row.
    col_places: [[u8; MAX_CELLS]; MAX_LINE],
    /// The removals of a row by its key ([`removals_by_key`]), when rows are short enough.
    row_table: Option<&'static [u8]>,
    /// The same for columns.
    col_table: Option<&'static [u8]>,
}

/// The longest line a board can have (a 2×8 board's rows).
const MAX_LINE: usize = MAX_CELLS / 2;

/// The longest line whose removals are looked up by key instead of sorted: 5⁴ = 625 keys.
const KEYED_LINE: usize = 4;

/// Every line of `len` cells (at most [`KEYED_LINE`]) by its key, the removals its tiles
/// need: the key is the cells' places read as digits in base `len + 1`, first cell most
/// significant, where a place is the tile's position along the line if this is its goal line
/// and `len` if not. The table depends on the length alone, so it is made once per process.
fn removals_by_key(len: usize) -> &'static [u8] {
    static TABLES: [OnceLock<Vec<u8>>; KEYED_LINE + 1] =
        [const { OnceLock::new() }; KEYED_LINE + 1];
    TABLES[len].get_or_init(|| {
        let base = len + 1;
        (0..base.pow(len as u32))
            .map(|key| {
                let mut places = [0usize; KEYED_LINE];
                let mut rest = key;
                for place in places[..len].iter_mut().rev() {
                    *place = rest % base;
                    rest /= base;
                }
                let mut line = Line::default();
                for &place in places[..len].iter().filter(|&&p| p < len) {
                    line.push(place as u8);
                }
                line.removals() as u8
            })
            .collect()
    })
}

/// The removals [`LinearConflict`] counts for a line of `len` cells, by the line's key (each
/// cell's place, read as digits in base `len + 1`, first cell most significant: a tile's
/// place is its position along the line if this is its goal line, else `len`, as is the
/// blank's), for lines of up to four cells; `None` for longer lines, which it sorts. How a
/// pass over whole tables can keep each line's key as it goes and look its removals up.
pub fn line_removals(len: usize) -> Option<&'static [u8]> {
    (len <= KEYED_LINE).then(|| removals_by_key(len))
}

impl LinearConflict {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Layout) -> LinearConflict {
        let cells = GoalCells::new(goal);
        let board = goal.board();
        let (rows, cols) = (board.rows(), board.cols());
        let mut row_places = [[cols as u8; MAX_CELLS]; MAX_LINE];
        let mut col_places = [[rows as u8; MAX_CELLS]; MAX_LINE];
        for &t in goal.tiles().iter().filter(|&&t| t != 0) {
            let (row, col) = (cells.goal_row[t as usize], cells.goal_col[t as usize]);
            row_places[row as usize][t as usize] = col;
            col_places[col as usize][t as usize] = row;
        }
        LinearConflict {
            cells,
            row_places,
            col_places,
            row_table: (cols <= KEYED_LINE).then(|| removals_by_key(cols)),
            col_table: (rows <= KEYED_LINE).then(|| removals_by_key(rows)),
        }
    }

    /// Tiles that must leave row `row` of `layout`: those whose goal row is `row`, minus the
    /// longest run of them increasing in goal column.
    #[inline]
    fn row_removals(&self, layout: &Layout, row: usize) -> u32 {
        let cols = layout.board().cols();
        let tiles = &layout.tiles()[row * cols..(row + 1) * cols];
        let places = &self.row_places[row];
        match self.row_table {
            Some(table) => {
                let key = tiles.iter().fold(0, |key, &t| {
                    key * (cols + 1) + usize::from(places[t as usize])
                });
                u32::from(table[key])
            }
            None => sorted_removals(tiles.iter().map(|&t| places[t as usize]), cols),
        }
    }

    /// Tiles that must leave column `col`, as [`LinearConflict::row_removals`] for rows.
    #[inline]
    fn col_removals(&self, layout: &Layout, col: usize) -> u32 {
        let (rows, cols) = (layout.board().rows(), layout.board().cols());
        let tiles = layout.tiles().iter().skip(col).step_by(cols);
        let places = &self.col_places[col];
        match self.col_table {
            Some(table) => {
                let key = tiles.fold(0, |key, &t| {
                    key * (rows + 1) + usize::from(places[t as usize])
                });
                u32::from(table[key])
            }
            None => sorted_removals(tiles.map(|&t| places[t as usize]), rows),
        }
    }

    fn conflicts(&self, layout: &Layout) -> u32 {
        let board = layout.board();
        let rows: u32 = (0..board.rows())
            .map(|r| self.row_removals(layout, r))
            .sum();
        let cols: u32 = (0..board.cols())
            .map(|c| self.col_removals(layout, c))
            .sum();
        2 * (rows + cols)
    }
}

/// The removals of a line whose cells hold tiles of these places (a tile's position along
/// the line if it is its goal line, else `len`): sorted as they come.
#[inline]
fn sorted_removals(places: impl Iterator<Item = u8>, len: usize) -> u32 {
    let mut line = Line::default();
    for place in places.filter(|&p| usize::from(p) < len) {
        line.push(place);
    }
    line.removals()
}

/// The goal positions of the tiles in one line, in their current order, kept as the tails
/// of a patience sort so the longest increasing subsequence falls out as they arrive.
#[derive(Default)]
struct Line {
    tiles: u32,
    /// tails[k]: the smallest last value of an increasing subsequence of length k + 1.
    tails: [u8; MAX_LINE],
    longest: usize,
}

impl Line {
    #[inline]
    fn push(&mut self, goal: u8) {
        self.tiles += 1;
        // Goal positions in a line are distinct, so "first tail ≥ goal" is "first tail > goal".
        let k = self.tails[..self.longest]
            .iter()
            .position(|&tail| tail > goal)
            .unwrap_or(self.longest);
        self.tails[k] = goal;
        if k == self.longest {
            self.longest += 1;
        }
    }

    #[inline]
    fn removals(&self) -> u32 {
        self.tiles - self.longest as u32
    }
}

impl Heuristic for LinearConflict {
    fn goal(&self) -> &Layout {
        &self.cells.goal
    }

    #[inline]
    fn estimate(&self, layout: &Layout) -> u32 {
        self.cells.manhattan(layout) + self.conflicts(layout)
    }

    /// Only the line the tile crosses into or out of can change, and only if it is the
    /// tile's goal line: a vertical move changes two rows' contents (columns keep theirs in
    /// order), a horizontal move two columns'.
    #[inline]
    fn update(&self, h: u32, before: &Layout, m: Move, after: &Layout) -> u32 {
        let (tile, from, to) = moved_tile(before, after);
        let d = &self.cells.dist[tile];
        let h = h + u32::from(d[to]) - u32::from(d[from]);
        let cols = before.board().cols();
        let (old, new) = match m {
            Move::Up | Move::Down => {
                let goal_row = usize::from(self.cells.goal_row[tile]);
                if goal_row != from / cols && goal_row != to / cols {
                    return h;
                }
                (
                    self.row_removals(before, goal_row),
                    self.row_removals(after, goal_row),
                )
            }
            Move::Left | Move::Right => {
                let goal_col = usize::from(self.cells.goal_col[tile]);
                if goal_col != from % cols && goal_col != to % cols {
                    return h;
                }
                (
                    self.col_removals(before, goal_col),
                    self.col_removals(after, goal_col),
                )
            }
        };
        h + 2 * new - 2 * old
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// The number of tiles (not the blank) outside their goal cell.
///
/// Weak, but admissible and consistent: each misplaced tile needs at least one move, and a
/// move changes the count by at most one. Useful as a baseline against which to measure the
/// others.
#[derive(Clone, Debug)]
pub struct Misplaced {
    goal: Layout,
}

impl Misplaced {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Layout) -> Misplaced {
        Misplaced { goal: *goal }
    }
}

impl Heuristic for Misplaced {
    fn goal(&self) -> &Layout {
        &self.goal
    }

    #[inline]
    fn estimate(&self, layout: &Layout) -> u32 {
        layout
            .tiles()
            .iter()
            .zip(self.goal.tiles())
            .filter(|&(&t, &g)| t != 0 && t != g)
            .count() as u32
    }

    #[inline]
    fn update(&self, h: u32, before: &Layout, _m: Move, after: &Layout) -> u32 {
        let (tile, from, to) = moved_tile(before, after);
        let home = |cell: usize| u32::from(usize::from(self.goal.tile(cell)) == tile);
        // Was misplaced at `from` unless home; is misplaced at `to` unless home.
        h + home(from) - home(to)
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// The heuristics this crate ships, by the names the command line uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// [`Manhattan`]: `manhattan`.
    Manhattan,
    /// [`LinearConflict`]: `linear-conflict`.
    LinearConflict,
    /// [`Misplaced`]: `misplaced`.
    Misplaced,
}

impl HeuristicKind {
    /// Every heuristic, strongest first.
    pub const ALL: [HeuristicKind; 3] = [
        HeuristicKind::LinearConflict,
        HeuristicKind::Manhattan,
        HeuristicKind::Misplaced,
    ];

    /// Every heuristic in the order a report gives them when none is named (the `heuristic`
    /// command's default): Manhattan, the textbook's baseline, first, then the one that
    /// refines it, then the weakest.
    pub const REPORTED: [HeuristicKind; 3] = [
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Misplaced,
    ];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Misplaced => "misplaced",
        }
    }

    /// This heuristic for `goal`, behind a trait object (for callers that pick at run time
    /// and want to call [`Heuristic::estimate`] themselves; [`solve`](crate::solve) uses the
    /// concrete types so the searches inline the heuristic).
    pub fn build(self, goal: &Layout) -> Box<dyn Heuristic + Send + Sync> {
        match self {
            HeuristicKind::Manhattan => Box::new(Manhattan::new(goal)),
            HeuristicKind::LinearConflict => Box::new(LinearConflict::new(goal)),
            HeuristicKind::Misplaced => Box::new(Misplaced::new(goal)),
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the accepted ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{name}' (expected one of: {expected})")]
pub struct UnknownName {
    /// What kind of name it was meant to be.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The accepted names, separated by commas.
    pub expected: String,
}

/// `names` separated by commas: the accepted names of an [`UnknownName`], from the list of
/// the things named (`ALL`), never typed again.
pub(crate) fn listed(names: impl IntoIterator<Item = &'static str>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

impl FromStr for HeuristicKind {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<HeuristicKind, UnknownName> {
        HeuristicKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownName {
                what: "heuristic",
                name: s.to_string(),
                expected: listed(HeuristicKind::ALL.map(HeuristicKind::name)),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::{parse_layout, Board};

    #[test]
    fn the_reported_order_holds_every_heuristic_once() {
        let mut reported = HeuristicKind::REPORTED.map(HeuristicKind::name);
        let mut all = HeuristicKind::ALL.map(HeuristicKind::name);
        reported.sort_unstable();
        all.sort_unstable();
        assert_eq!(reported, all);
    }

    fn eight(s: &str) -> Layout {
        parse_layout(Board::EIGHT, s.as_bytes()).unwrap()
    }

    #[test]
    fn manhattan_and_misplaced_count_tiles() {
        let goal = Board::EIGHT.standard_goal();
        let l = eight("8 2 3 4 5 6 7 1 0");
        // Tile 8 is two rows and one column from home, tile 1 likewise.
        assert_eq!(Manhattan::new(&goal).estimate(&l), 6);
        assert_eq!(Misplaced::new(&goal).estimate(&l), 2);
        assert_eq!(Manhattan::new(&goal).estimate(&goal), 0);
    }

    #[test]
    fn linear_conflict_counts_removals_not_pairs() {
        let goal = Board::EIGHT.standard_goal();
        let lc = LinearConflict::new(&goal);
        // Row 0 reversed: 3 2 1 has three conflicting pairs, but only two tiles must leave.
        let l = eight("3 2 1 4 5 6 7 8 0");
        assert_eq!(lc.estimate(&l), 4 + 2 * 2);
        // One pair in row 0 and the same tile's column clear: one removal.
        let l = eight("2 1 3 4 5 6 7 8 0");
        assert_eq!(lc.estimate(&l), 2 + 2);
        // Column 0 holds 7 4 1 (goal rows 2 1 0): two of the three must leave.
        let l = eight("7 2 3 4 5 6 1 8 0");
        assert_eq!(lc.estimate(&l), 4 + 2 * 2);
        // Tile 6 is in its goal column, below tile 3 as in the goal: no conflict.
        let l = eight("1 2 3 4 5 0 7 8 6");
        assert_eq!(lc.estimate(&l), 1);
    }

    /// Rows and columns of up to four cells are looked up by key; every line of every board
    /// that has them gives the removals of sorting it, on random layouts of each board and
    /// every layout of 3x3.
    #[test]
    fn keyed_lines_give_the_removals_of_sorting() {
        // Each line's tiles whose goal line it is, by their goal places, sorted as they come.
        let sorted = |lc: &LinearConflict, l: &Layout| {
            let (goal_row, goal_col) = (&lc.cells.goal_row, &lc.cells.goal_col);
            let cols = l.board().cols();
            let mut total = 0;
            for row in 0..l.board().rows() {
                let mut line = Line::default();
                for &t in &l.tiles()[row * cols..(row + 1) * cols] {
                    if t != 0 && usize::from(goal_row[t as usize]) == row {
                        line.push(goal_col[t as usize]);
                    }
                }
                total += line.removals();
            }
            for col in 0..cols {
                let mut line = Line::default();
                for &t in l.tiles().iter().skip(col).step_by(cols) {
                    if t != 0 && usize::from(goal_col[t as usize]) == col {
                        line.push(goal_row[t as usize]);
                    }
                }
                total += line.removals();
            }
            lc.cells.manhattan(l) + 2 * total
        };
        let ranker = slidetable_core::Ranker::new(Board::EIGHT).unwrap();
        let lc = LinearConflict::new(&Board::EIGHT.standard_goal());
        for rank in 0..ranker.states() {
            for class in 0..2 {
                let l = ranker.unrank(rank, class);
                assert_eq!(lc.estimate(&l), sorted(&lc, &l), "{l}");
            }
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for (rows, cols) in [
            (2, 2),
            (2, 4),
            (4, 2),
            (3, 4),
            (4, 3),
            (4, 4),
            (2, 6),
            (2, 8),
        ] {
            let board = Board::new(rows, cols).unwrap();
            for blank in [0, board.cells() - 1, board.cells() / 2] {
                let lc = LinearConflict::new(&board.goal_with_blank(blank));
                for _ in 0..2000 {
                    let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
                    for i in (1..tiles.len()).rev() {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        tiles.swap(i, (seed >> 33) as usize % (i + 1));
                    }
                    let l = Layout::new(board, &tiles).unwrap();
                    assert_eq!(lc.estimate(&l), sorted(&lc, &l), "{l}");
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for k in HeuristicKind::ALL {
            assert_eq!(k.to_string().parse::<HeuristicKind>(), Ok(k));
        }
        assert_eq!(
            "euclid".parse::<HeuristicKind>().unwrap_err().to_string(),
            "unknown heuristic 'euclid' (expected one of: linear-conflict, manhattan, misplaced)"
        );
    }
}
