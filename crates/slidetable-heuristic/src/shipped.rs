//! The heuristics the search crate ships ([`HeuristicKind`]) measured on the section's packed
//! tiles, without a [`Layout`] per state or per move: each cell's tile adds its share of the
//! Manhattan sum, of the misplaced count and of its row's and column's line keys (the keys
//! [`line_removals`] reads) from two tables; a move changes four shares; linear conflict's
//! removals are looked up by key, for the lines the move changes only. The same figures as
//! [`crate::measure_each`] over the built heuristics, which the tests check state by state.

use slidetable_core::{Board, Layout, Move, MAX_CELLS};
use slidetable_query::{Goal, QueryError, StateScan};
use slidetable_search::{line_removals, HeuristicKind};

use crate::meter::{Meter, Part};

/// Bits of one line's key in a packed word of keys (a key of four cells is below 5⁴ = 625).
const KEY_BITS: u32 = 10;
/// The key field's mask.
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Where the Manhattan share sits in the row word (after four rows' keys).
const MANHATTAN_AT: u32 = 40;
/// Where the misplaced share sits in the row word.
const MISPLACED_AT: u32 = 48;

/// Each cell's shares of every tile, for one goal (in the section's labels).
pub(crate) struct Tables {
    board: Board,
    /// `rows[cell][tile]`: the tile's place in the cell's row times the cell's weight in the
    /// row's key (at bits `KEY_BITS · row`), its Manhattan distance (at `MANHATTAN_AT`) and
    /// whether it is misplaced (at `MISPLACED_AT`), for the tile in the section's labels.
    rows: [[u64; 16]; MAX_CELLS],
    /// `cols[cell][tile]`: the same for the cell's column's key (at `KEY_BITS · col`).
    cols: [[u64; 16]; MAX_CELLS],
    /// For each blank cell, the moves in [`Move::ALL`] order and the cell the blank goes
    /// to, and how many there are.
    moves: [([(Move, u8); 4], u8); MAX_CELLS],
    /// For each blank cell and move of `moves`: whether it is vertical, and the two lines
    /// whose keys it changes (the rows of a vertical move, else the columns).
    lines: [[(bool, u8, u8); 4]; MAX_CELLS],
    /// The first cells whose shares [`Tables::sums_after`] keeps from state to state (all
    /// but the last seven: a 12-cell scan's prefix of five tiles), and their nibbles' mask.
    low: usize,
    low_mask: u64,
    /// `slides[blank][i][tile]`: what the sums gain (wrapping) when `tile` slides into the
    /// blank's cell `blank` by the blank's `i`-th move of `moves[blank]`.
    slides: [[[Sums; 16]; 4]; MAX_CELLS],
    row_removals: &'static [u8],
    col_removals: &'static [u8],
    /// The goal's label of each of the section's tiles.
    labels: [u8; MAX_CELLS],
    /// The most one move lowers each estimate by (see [`Steepest`]).
    steepest: Steepest,
}

/// The most one move can lower each kind's estimate, from the tables: exact for Manhattan
/// and misplaced (a move changes one tile's shares), an upper bound for linear conflict (each
/// of the two lines a move changes at its worst over every key of distinct places). A kind
/// whose moves cannot drop by more than the gap a worst inconsistency must beat has no
/// inconsistency to find, so a pass checks no move of it.
#[derive(Clone, Copy, Debug)]
struct Steepest {
    manhattan: i64,
    misplaced: i64,
    conflict: i64,
}

impl Steepest {
    fn of_kind(&self, kind: HeuristicKind) -> i64 {
        match kind {
            HeuristicKind::Manhattan => self.manhattan,
            HeuristicKind::LinearConflict => self.conflict,
            HeuristicKind::Misplaced => self.misplaced,
        }
    }
}

/// The most a line's removals (`removals`, by key: places in base `len + 1`, first cell most
/// significant, `len` for none) can fall when the place of its cell `pos` changes from
/// `before` to `after`, over every key whose places, before and after, are distinct (as
/// every state's are).
fn line_drop(removals: &[u8], len: usize, pos: usize, before: usize, after: usize) -> i64 {
    let base = len + 1;
    let weight = |j: usize| base.pow((len - 1 - j) as u32);
    let distinct = |key: usize| {
        let mut used = 0u32;
        (0..len).all(|j| {
            let place = key / weight(j) % base;
            let fresh = place == len || used & (1 << place) == 0;
            used |= 1 << place;
            fresh
        })
    };
    let mut most = i64::MIN;
    for key in 0..removals.len() {
        if key / weight(pos) % base != before || !distinct(key) {
            continue;
        }
        let changed = key - before * weight(pos) + after * weight(pos);
        if distinct(changed) {
            most = most.max(i64::from(removals[key]) - i64::from(removals[changed]));
        }
    }
    most
}

/// One state's removals, line by line (a board's lines have at most four cells, so it has
/// at most four rows and four columns).
struct Lines {
    rows: [u32; 4],
    cols: [u32; 4],
    sum: u32,
}

impl Lines {
    /// No removals (when linear conflict is not measured).
    const NONE: Lines = Lines {
        rows: [0; 4],
        cols: [0; 4],
        sum: 0,
    };
}

/// One state's sums: the row word and the column word.
#[derive(Clone, Copy)]
struct Sums {
    rows: u64,
    cols: u64,
}

impl Tables {
    /// The tables for `goal`, or `None` when a line of its board is longer than
    /// [`line_removals`] reaches (2×5 and longer), or its tiles do not fit a nibble.
    pub(crate) fn new(goal: &Goal<'_>) -> Option<Tables> {
        Tables::of(goal.layout(), goal.goal_labels())
    }

    /// The tables towards `layout`, for tiles labelled as `labels` maps them onto the
    /// goal's.
    fn of(layout: &Layout, labels: [u8; MAX_CELLS]) -> Option<Tables> {
        let board = layout.board();
        let (rows, cols) = (board.rows(), board.cols());
        let row_removals = line_removals(cols)?;
        let col_removals = line_removals(rows)?;
        if board.cells() > 16 || rows > 4 || cols > 4 {
            return None;
        }
        let mut home = [0usize; MAX_CELLS];
        for (cell, &t) in layout.tiles().iter().enumerate() {
            home[usize::from(t)] = cell;
        }
        let power = |base: usize, exp: usize| base.pow(exp as u32) as u64;
        let mut row_table = [[0u64; 16]; MAX_CELLS];
        let mut col_table = [[0u64; 16]; MAX_CELLS];
        for cell in 0..board.cells() {
            let (row, col) = (cell / cols, cell % cols);
            let row_weight = power(cols + 1, cols - 1 - col);
            let col_weight = power(rows + 1, rows - 1 - row);
            for (s, &g) in labels.iter().enumerate().take(board.cells()) {
                // The blank's place is "not of this line", as a tile's of another line.
                let (mut row_place, mut col_place, mut manhattan, mut misplaced) =
                    (cols, rows, 0, 0);
                if g != 0 {
                    let (goal_row, goal_col) =
                        (home[usize::from(g)] / cols, home[usize::from(g)] % cols);
                    if goal_row == row {
                        row_place = goal_col;
                    }
                    if goal_col == col {
                        col_place = goal_row;
                    }
                    manhattan = row.abs_diff(goal_row) + col.abs_diff(goal_col);
                    misplaced = usize::from(home[usize::from(g)] != cell);
                }
                row_table[cell][s] = (row_place as u64 * row_weight) << (KEY_BITS * row as u32)
                    | (manhattan as u64) << MANHATTAN_AT
                    | (misplaced as u64) << MISPLACED_AT;
                col_table[cell][s] = (col_place as u64 * col_weight) << (KEY_BITS * col as u32);
            }
        }
        let mut moves = [([(Move::Up, 0u8); 4], 0u8); MAX_CELLS];
        for (blank, (to, n)) in moves.iter_mut().enumerate().take(board.cells()) {
            for m in Move::ALL {
                if let Some(cell) = board.neighbor(blank, m) {
                    to[usize::from(*n)] = (m, cell as u8);
                    *n += 1;
                }
            }
        }
        let mut slides = [[[Sums { rows: 0, cols: 0 }; 16]; 4]; MAX_CELLS];
        for (blank, (to, n)) in moves.iter().enumerate().take(board.cells()) {
            for (i, &(_, from)) in to[..usize::from(*n)].iter().enumerate() {
                let from = usize::from(from);
                for (t, slide) in slides[blank][i].iter_mut().enumerate() {
                    let gain = |table: &[[u64; 16]; MAX_CELLS]| {
                        table[blank][t]
                            .wrapping_add(table[from][0])
                            .wrapping_sub(table[blank][0])
                            .wrapping_sub(table[from][t])
                    };
                    *slide = Sums {
                        rows: gain(&row_table),
                        cols: gain(&col_table),
                    };
                }
            }
        }
        let mut lines = [[(false, 0u8, 0u8); 4]; MAX_CELLS];
        for (blank, (to, n)) in moves.iter().enumerate().take(board.cells()) {
            for (i, &(_, to)) in to[..usize::from(*n)].iter().enumerate() {
                let to = usize::from(to);
                lines[blank][i] = if blank % cols == to % cols {
                    (true, (blank / cols) as u8, (to / cols) as u8)
                } else {
                    (false, (blank % cols) as u8, (to % cols) as u8)
                };
            }
        }
        let mut steepest = Steepest {
            manhattan: i64::MIN,
            misplaced: i64::MIN,
            conflict: i64::MIN,
        };
        for (blank, (to, n)) in moves.iter().enumerate().take(board.cells()) {
            for (i, &(_, from)) in to[..usize::from(*n)].iter().enumerate() {
                let from = usize::from(from);
                let (vertical, a, b) = lines[blank][i];
                // The changed lines' keys, and the cell's position along them.
                let (table, removals, len, pos) = if vertical {
                    (&row_table, row_removals, cols, blank % cols)
                } else {
                    (&col_table, col_removals, rows, blank / cols)
                };
                let weight = power(len + 1, len - 1 - pos);
                for t in 1..board.cells() {
                    let share = |cell: usize, at: u32| ((row_table[cell][t] >> at) & 0xFF) as i64;
                    let place = |cell: usize, line: u8| {
                        ((table[cell][t] >> (KEY_BITS * u32::from(line))) & KEY_MASK) / weight
                    };
                    // The tile leaves `from` for the blank's cell `blank`: the blank's line
                    // `a` gains it, the tile's line `b` loses it.
                    let manhattan = share(from, MANHATTAN_AT) - share(blank, MANHATTAN_AT);
                    let misplaced = share(from, MISPLACED_AT) - share(blank, MISPLACED_AT);
                    let gains = line_drop(removals, len, pos, len, place(blank, a) as usize);
                    let loses = line_drop(removals, len, pos, place(from, b) as usize, len);
                    steepest.manhattan = steepest.manhattan.max(manhattan);
                    steepest.misplaced = steepest.misplaced.max(misplaced);
                    steepest.conflict = steepest.conflict.max(manhattan + 2 * (gains + loses));
                }
            }
        }
        let low = board.cells().saturating_sub(7);
        Some(Tables {
            board,
            lines,
            low,
            low_mask: (1u64 << (4 * low)) - 1,
            rows: row_table,
            cols: col_table,
            moves,
            slides,
            row_removals,
            col_removals,
            labels,
            steepest,
        })
    }

    /// The sums of the state whose tiles are `packed`, cell by cell (what
    /// [`Tables::sums_after`] keeps part of).
    #[cfg(test)]
    fn sums(&self, packed: u64) -> Sums {
        let mut sums = Sums { rows: 0, cols: 0 };
        for cell in 0..self.board.cells() {
            let t = ((packed >> (4 * cell)) & 0xF) as usize;
            sums.rows = sums.rows.wrapping_add(self.rows[cell][t]);
            sums.cols = sums.cols.wrapping_add(self.cols[cell][t]);
        }
        sums
    }

    /// The sums of the state whose tiles are `packed`, with the shares of its first `low`
    /// cells from `first` when they hold the same tiles as there (`first`: those cells'
    /// tiles and shares, updated when they differ). A scan's consecutive ranks keep their
    /// first tiles for hundreds of ranks, so most states add up the last cells only.
    #[inline]
    fn sums_after(&self, first: &mut (u64, Sums), packed: u64) -> Sums {
        let key = packed & self.low_mask;
        if key != first.0 {
            let mut sums = Sums { rows: 0, cols: 0 };
            for cell in 0..self.low {
                let t = ((packed >> (4 * cell)) & 0xF) as usize;
                sums.rows = sums.rows.wrapping_add(self.rows[cell][t]);
                sums.cols = sums.cols.wrapping_add(self.cols[cell][t]);
            }
            *first = (key, sums);
        }
        let mut sums = first.1;
        for cell in self.low..self.board.cells() {
            let t = ((packed >> (4 * cell)) & 0xF) as usize;
            sums.rows = sums.rows.wrapping_add(self.rows[cell][t]);
            sums.cols = sums.cols.wrapping_add(self.cols[cell][t]);
        }
        sums
    }

    #[inline]
    fn row_removals(&self, sums: Sums, row: usize) -> u32 {
        u32::from(self.row_removals[((sums.rows >> (KEY_BITS * row as u32)) & KEY_MASK) as usize])
    }

    #[inline]
    fn col_removals(&self, sums: Sums, col: usize) -> u32 {
        u32::from(self.col_removals[((sums.cols >> (KEY_BITS * col as u32)) & KEY_MASK) as usize])
    }

    /// Each row's removals (`rows[r]`), each column's (`cols[c]`), and their sum.
    #[inline]
    fn removals(&self, sums: Sums) -> Lines {
        let mut lines = Lines::NONE;
        for r in 0..self.board.rows() {
            lines.rows[r] = self.row_removals(sums, r);
            lines.sum += lines.rows[r];
        }
        for c in 0..self.board.cols() {
            lines.cols[c] = self.col_removals(sums, c);
            lines.sum += lines.cols[c];
        }
        lines
    }

    /// The estimates after the blank's `i`-th move of `moves[blank]` from the state whose
    /// tiles are `packed` and whose sums and removals (when `conflicts`) are `sums` and
    /// `lines`.
    #[inline]
    fn moved(
        &self,
        packed: u64,
        blank: usize,
        i: usize,
        sums: Sums,
        lines: &Lines,
        conflicts: bool,
    ) -> Estimates {
        let to = usize::from(self.moves[blank].0[i].1);
        let slide = self.slides[blank][i][((packed >> (4 * to)) & 0xF) as usize];
        let next = Sums {
            rows: sums.rows.wrapping_add(slide.rows),
            cols: sums.cols.wrapping_add(slide.cols),
        };
        // A vertical move changes the two rows' keys only (the column keeps its tiles'
        // order), a horizontal one the two columns'.
        let (vertical, a, b) = self.lines[blank][i];
        let (a, b) = (usize::from(a), usize::from(b));
        let removals = if !conflicts {
            0
        } else if vertical {
            lines.sum + self.row_removals(next, a) + self.row_removals(next, b)
                - lines.rows[a]
                - lines.rows[b]
        } else {
            lines.sum + self.col_removals(next, a) + self.col_removals(next, b)
                - lines.cols[a]
                - lines.cols[b]
        };
        Estimates::of(next, removals)
    }

    /// The layout of `packed` in the goal's labels (for a worst case, rarely).
    fn layout(&self, packed: u64) -> Layout {
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, t) in tiles.iter_mut().enumerate().take(self.board.cells()) {
            *t = self.labels[((packed >> (4 * cell)) & 0xF) as usize];
        }
        Layout::new(self.board, &tiles[..self.board.cells()])
            .expect("a rank's tiles are a layout of its board")
    }
}

/// The estimates of one state.
#[derive(Clone, Copy)]
struct Estimates {
    manhattan: u32,
    misplaced: u32,
    /// Every line's removals (linear conflict adds twice this to Manhattan).
    removals: u32,
}

impl Estimates {
    #[inline]
    fn of(sums: Sums, removals: u32) -> Estimates {
        Estimates {
            manhattan: ((sums.rows >> MANHATTAN_AT) & 0xFF) as u32,
            misplaced: ((sums.rows >> MISPLACED_AT) & 0xFF) as u32,
            removals,
        }
    }

    #[inline]
    fn of_kind(&self, kind: HeuristicKind) -> u32 {
        match kind {
            HeuristicKind::Manhattan => self.manhattan,
            HeuristicKind::LinearConflict => self.manhattan + 2 * self.removals,
            HeuristicKind::Misplaced => self.misplaced,
        }
    }
}

/// The states of one part at each distance and estimate, for one heuristic: `at[d · width
/// + e]` (a part has at most [`crate::PART`] states, so 32 bits count them), handed to its
/// [`Meter`] when the part is done.
struct Counts {
    width: usize,
    at: Vec<u32>,
}

impl Counts {
    /// `Meter::counts` of these: each distance's counts up to its largest estimate seen.
    fn into_meter(self, meter: &mut Meter) {
        for (d, counts) in meter.counts.iter_mut().enumerate() {
            let row = &self.at[d * self.width..(d + 1) * self.width];
            let Some(last) = row.iter().rposition(|&c| c != 0) else {
                continue;
            };
            if counts.len() <= last {
                counts.resize(last + 1, 0);
            }
            for (c, &n) in counts.iter_mut().zip(row) {
                *c += u64::from(n);
            }
        }
    }
}

/// Measures `kinds` over the states of `goal` with these ranks, as [`Part::of`] does the
/// heuristics `kinds` build. Consecutive ranks share most of their tiles, so each state's
/// sums are the last one's plus the shares of the cells whose tile changed.
pub(crate) fn part(
    tables: &Tables,
    goal: &Goal<'_>,
    scan: Option<&StateScan>,
    kinds: &[HeuristicKind],
    ranks: std::ops::Range<u64>,
) -> Result<Part, QueryError> {
    let max = goal.max_distance();
    let mut meters = vec![Meter::new(max); kinds.len()];
    // Every estimate is below this: Manhattan at most rows + cols − 2 a tile, and at most
    // two removals a cell (one in its row, one in its column) count twice.
    let width = tables.board.cells() * (tables.board.rows() + tables.board.cols() + 2) + 1;
    let mut counts: Vec<Counts> = kinds
        .iter()
        .map(|_| Counts {
            width,
            at: vec![0; (max as usize + 1) * width],
        })
        .collect();
    let mut moves_checked = 0u64;
    let conflicts = kinds.contains(&HeuristicKind::LinearConflict);
    let mut corrupt = None;
    // The kinds some move may lower by more than a worst inconsistency's gap (`Meter::new`'s,
    // which only grows): the others' moves cannot be inconsistent and are not checked.
    let checked: Vec<bool> = kinds
        .iter()
        .zip(&meters)
        .map(|(kind, meter)| tables.steepest.of_kind(*kind) > i64::from(meter.steep_gap))
        .collect();
    let any_checked = checked.contains(&true);
    // The first cells' tiles and shares (none yet).
    let mut first = (u64::MAX, Sums { rows: 0, cols: 0 });
    goal.packed_states_in(scan, ranks, |packed, blank, distance| {
        if corrupt.is_some() {
            return;
        }
        // The header's maximum bounds every stored distance unless the table is corrupt:
        // refused, never a tally sized by a damaged entry.
        if distance > max {
            corrupt = Some(tables.layout(packed));
            return;
        }
        let sums = tables.sums_after(&mut first, packed);
        let lines = if conflicts {
            tables.removals(sums)
        } else {
            Lines::NONE
        };
        let removals = lines.sum;
        let here = Estimates::of(sums, removals);
        let row = distance as usize * width;
        for ((kind, meter), counts) in kinds.iter().zip(&mut meters).zip(&mut counts) {
            let estimate = here.of_kind(*kind);
            counts.at[row + estimate as usize] += 1;
            meter.witness(distance, estimate, || tables.layout(packed));
        }
        let (moves, n) = &tables.moves[blank];
        let moves = &moves[..usize::from(*n)];
        moves_checked += moves.len() as u64;
        if !any_checked {
            return;
        }
        for (i, &(step, _)) in moves.iter().enumerate() {
            let there = tables.moved(packed, blank, i, sums, &lines, conflicts);
            for ((kind, meter), _) in kinds.iter().zip(&mut meters).zip(&checked).filter(|x| *x.1) {
                meter.check_with(step, here.of_kind(*kind), there.of_kind(*kind), || {
                    let from = tables.layout(packed);
                    let after = from.moved(step).expect("a legal move");
                    (from, after)
                });
            }
        }
    })?;
    if let Some(layout) = corrupt {
        return Err(QueryError::Corrupt { layout });
    }
    for (c, meter) in counts.into_iter().zip(&mut meters) {
        c.into_meter(meter);
    }
    Ok(Part {
        meters,
        moves_checked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::Ranker;

    /// Every state's estimates, and every neighbour's as a move changes them, are the built
    /// heuristics' estimates of those layouts: every state of 2×3, 2×4 and 3×3 and a stride
    /// of 3×4's and 4×3's, towards the standard goal and one with the blank inside.
    #[test]
    fn estimates_on_the_tiles_are_the_built_heuristics() {
        for (rows, cols, stride) in [
            (2, 3, 1),
            (2, 4, 1),
            (3, 3, 1),
            (3, 4, 9_973),
            (4, 3, 9_973),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let cells = board.cells() as u8;
            let inside: Vec<u8> = (1..=cells / 2)
                .chain([0])
                .chain(cells / 2 + 1..cells)
                .collect();
            for goal in [board.standard_goal(), Layout::new(board, &inside).unwrap()] {
                let built = HeuristicKind::ALL.map(|k| k.build(&goal));
                let identity = std::array::from_fn(|t| t as u8);
                let tables = Tables::of(&goal, identity).unwrap();
                // Every kind is consistent, and the bounds find it so: a move lowers each
                // estimate by one at most (and some move does).
                for k in HeuristicKind::ALL {
                    assert_eq!(tables.steepest.of_kind(k), 1, "{k} {goal}");
                }
                let ranker = Ranker::new(board).unwrap();
                for class in 0..2 {
                    for rank in (0..ranker.states()).step_by(stride) {
                        let layout = ranker.unrank(rank, class);
                        let (packed, blank) = (layout.packed(), layout.blank());
                        let sums = tables.sums(packed);
                        let lines = tables.removals(sums);
                        let here = Estimates::of(sums, lines.sum);
                        for (k, h) in HeuristicKind::ALL.iter().zip(&built) {
                            assert_eq!(here.of_kind(*k), h.estimate(&layout), "{k} {layout}");
                        }
                        let (moves, n) = &tables.moves[blank];
                        for (i, &(step, _)) in moves[..usize::from(*n)].iter().enumerate() {
                            let after = layout.moved(step).unwrap();
                            let there = tables.moved(packed, blank, i, sums, &lines, true);
                            for (k, h) in HeuristicKind::ALL.iter().zip(&built) {
                                assert_eq!(there.of_kind(*k), h.estimate(&after), "{k} {after}");
                                // No move lowers an estimate by more than its bound.
                                let drop =
                                    i64::from(here.of_kind(*k)) - i64::from(there.of_kind(*k));
                                assert!(
                                    drop <= tables.steepest.of_kind(*k),
                                    "{k} {layout} {step:?}"
                                );
                            }
                            // And the sums kept from another state's first cells are the sums.
                            let mut first = (u64::MAX, Sums { rows: 0, cols: 0 });
                            for packed in [packed, after.packed()] {
                                let kept = tables.sums_after(&mut first, packed);
                                let fresh = tables.sums(packed);
                                assert_eq!((kept.rows, kept.cols), (fresh.rows, fresh.cols));
                            }
                        }
                    }
                }
            }
        }
    }
}
