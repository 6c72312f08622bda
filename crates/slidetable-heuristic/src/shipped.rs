//! The heuristics the search crate ships ([`HeuristicKind`]) measured on the section's packed
//! tiles, without a [`Layout`] per state or per move: each cell's tile adds its share of the
//! Manhattan sum, of the misplaced count and of its row's and column's line keys (the keys
//! [`line_removals`] reads) from two tables; a move changes four shares; linear conflict's
//! removals are looked up by key, for the lines the move changes only. The same figures as
//! [`crate::measure_each`] over the built heuristics, which the tests check state by state.

use slidetable_core::{Board, Layout, Move, MAX_CELLS};
use slidetable_query::{Goal, QueryError};
use slidetable_search::{line_removals, HeuristicKind};

use crate::{Meter, Part};

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
    /// For each blank cell, the moves in [`Move::ALL`] order and the cell the blank goes to.
    moves: Vec<Vec<(Move, usize)>>,
    row_removals: &'static [u8],
    col_removals: &'static [u8],
    /// The goal's label of each of the section's tiles.
    labels: [u8; MAX_CELLS],
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
        let layout = goal.layout();
        let board = layout.board();
        let (rows, cols) = (board.rows(), board.cols());
        let row_removals = line_removals(cols)?;
        let col_removals = line_removals(rows)?;
        if board.cells() > 16 || rows > 4 || cols > 4 {
            return None;
        }
        let labels = goal.goal_labels();
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
        let moves = (0..board.cells())
            .map(|blank| {
                Move::ALL
                    .into_iter()
                    .filter_map(|m| board.neighbor(blank, m).map(|to| (m, to)))
                    .collect()
            })
            .collect();
        Some(Tables {
            board,
            rows: row_table,
            cols: col_table,
            moves,
            row_removals,
            col_removals,
            labels,
        })
    }

    /// The sums of the state whose tiles are `packed`.
    #[inline]
    fn sums(&self, packed: u64) -> Sums {
        let mut sums = Sums { rows: 0, cols: 0 };
        for cell in 0..self.board.cells() {
            let t = ((packed >> (4 * cell)) & 0xF) as usize;
            sums.rows = sums.rows.wrapping_add(self.rows[cell][t]);
            sums.cols = sums.cols.wrapping_add(self.cols[cell][t]);
        }
        sums
    }

    /// The sums after tile `t` slides from cell `from` into the blank's cell `blank`.
    #[inline]
    fn slid(&self, sums: Sums, blank: usize, from: usize, t: usize) -> Sums {
        let (r, c) = (&self.rows, &self.cols);
        Sums {
            rows: sums
                .rows
                .wrapping_sub(r[blank][0])
                .wrapping_sub(r[from][t])
                .wrapping_add(r[blank][t])
                .wrapping_add(r[from][0]),
            cols: sums
                .cols
                .wrapping_sub(c[blank][0])
                .wrapping_sub(c[from][t])
                .wrapping_add(c[blank][t])
                .wrapping_add(c[from][0]),
        }
    }

    #[inline]
    fn row_removals(&self, sums: Sums, row: usize) -> u32 {
        u32::from(self.row_removals[((sums.rows >> (KEY_BITS * row as u32)) & KEY_MASK) as usize])
    }

    #[inline]
    fn col_removals(&self, sums: Sums, col: usize) -> u32 {
        u32::from(self.col_removals[((sums.cols >> (KEY_BITS * col as u32)) & KEY_MASK) as usize])
    }

    /// Every line's removals.
    #[inline]
    fn removals(&self, sums: Sums) -> u32 {
        (0..self.board.rows())
            .map(|r| self.row_removals(sums, r))
            .sum::<u32>()
            + (0..self.board.cols())
                .map(|c| self.col_removals(sums, c))
                .sum::<u32>()
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

/// Measures `kinds` over the states of `goal` with these ranks, as [`Part::of`] does the
/// heuristics `kinds` build.
pub(crate) fn part(
    tables: &Tables,
    goal: &Goal<'_>,
    kinds: &[HeuristicKind],
    ranks: std::ops::Range<u64>,
) -> Result<Part, QueryError> {
    let max = goal.max_distance();
    let mut meters = vec![Meter::new(max); kinds.len()];
    let mut moves_checked = 0u64;
    let conflicts = kinds.contains(&HeuristicKind::LinearConflict);
    let mut corrupt = None;
    goal.packed_states_in(ranks, |packed, blank, distance| {
        if corrupt.is_some() {
            return;
        }
        // The header's maximum bounds every stored distance unless the table is corrupt:
        // refused, never a tally sized by a damaged entry.
        if distance > max {
            corrupt = Some(tables.layout(packed));
            return;
        }
        let sums = tables.sums(packed);
        let removals = if conflicts { tables.removals(sums) } else { 0 };
        let here = Estimates::of(sums, removals);
        for (kind, meter) in kinds.iter().zip(&mut meters) {
            meter.count_with(distance, here.of_kind(*kind), || tables.layout(packed));
        }
        let moves = &tables.moves[blank];
        moves_checked += moves.len() as u64;
        let cols = tables.board.cols();
        for &(step, to) in moves {
            let t = ((packed >> (4 * to)) & 0xF) as usize;
            let next = tables.slid(sums, blank, to, t);
            // A vertical move changes the two rows' keys only (the column keeps its tiles'
            // order), a horizontal one the two columns'.
            let removals = if !conflicts {
                0
            } else if matches!(step, Move::Up | Move::Down) {
                let (a, b) = (blank / cols, to / cols);
                removals + tables.row_removals(next, a) + tables.row_removals(next, b)
                    - tables.row_removals(sums, a)
                    - tables.row_removals(sums, b)
            } else {
                let (a, b) = (blank % cols, to % cols);
                removals + tables.col_removals(next, a) + tables.col_removals(next, b)
                    - tables.col_removals(sums, a)
                    - tables.col_removals(sums, b)
            };
            let there = Estimates::of(next, removals);
            for (kind, meter) in kinds.iter().zip(&mut meters) {
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
    Ok(Part {
        meters,
        moves_checked,
    })
}
