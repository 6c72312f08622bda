//! The one reverse 0-1 breadth-first search behind every pattern database: the 15-puzzle's
//! ([`crate::solve_pattern`], 16 cells, a 16-bit mask of blank cells a placement) and the
//! 24-puzzle's ([`crate::solve_pattern25`], 25 cells, 32-bit masks). The board's largest
//! cell count `N` and the mask's width are parameters, so each board keeps its arrays and
//! masks as narrow as it needs (a 7-8 build holds 1.04 GB of 16-bit masks; 32-bit ones would
//! double it); what each stores for a settled placement (a 4-bit excess over Manhattan
//! distance, or a byte of moves) is the caller's.
//!
//! The searched state is (placement of the group's tiles, cell of the blank). Moving a
//! group tile costs 1; moving any other tile costs 0, so every cell the blank reaches over
//! cells the group does not occupy belongs to one state of equal cost: the search works on
//! those regions, cost level by cost level. For each placement it keeps a mask of the blank
//! cells already reached (`visited`) and one bit per placement for the levels being
//! expanded and filled (`current`, `next`). Expanding a placement of the current level moves
//! each group tile that touches a reached region into it; the tile's old cell seeds the
//! child's region, flood-filled over the cells the group leaves free. A placement's value is
//! the level at which any of its regions is first reached: the minimum over blank cells.
//!
//! A child is ranked from its parent's rank ([`Placements::moved_rank`]) and tested on one
//! bit before anything else: its region holds the tile's old cell, and a mask holds whole
//! regions, so that bit says whether the child was reached there already; only a new region
//! is flood-filled. Most children are old (about six in seven on the 15-puzzle's 6-tile
//! groups), so the search's cost is mostly ranking and that one read.
//!
//! Every level is expanded on every core (rayon), in work items small enough that even a
//! small board's space is cut into many, placements compared and set by atomic operations,
//! so the values do not depend on the number of threads.

use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{each_set_bit, AtomicBitmap, Placements};

/// A placement's mask of the blank cells reached, as wide as the board needs.
pub(crate) trait BlankMask: Sync + Send {
    /// No cell reached.
    fn empty() -> Self;
    /// The cells reached.
    fn cells(&self) -> u32;
    /// Adds `region`'s cells; the cells reached before.
    fn add(&self, region: u32) -> u32;
}

impl BlankMask for AtomicU16 {
    fn empty() -> AtomicU16 {
        AtomicU16::new(0)
    }

    #[inline(always)]
    fn cells(&self) -> u32 {
        u32::from(self.load(Relaxed))
    }

    #[inline(always)]
    fn add(&self, region: u32) -> u32 {
        u32::from(self.fetch_or(region as u16, Relaxed))
    }
}

impl BlankMask for AtomicU32 {
    fn empty() -> AtomicU32 {
        AtomicU32::new(0)
    }

    #[inline(always)]
    fn cells(&self) -> u32 {
        self.load(Relaxed)
    }

    #[inline(always)]
    fn add(&self, region: u32) -> u32 {
        self.fetch_or(region, Relaxed)
    }
}

/// The cells of a board of up to `N` cells as bit masks, for flood fills and neighbours.
#[derive(Clone, Copy)]
pub(crate) struct Geometry<const N: usize> {
    cols: usize,
    all: u32,
    /// Cells not in the leftmost / rightmost column.
    not_left: u32,
    not_right: u32,
    /// `next_to[c]`: the cells next to cell `c`.
    next_to: [u32; N],
}

impl<const N: usize> Geometry<N> {
    /// The board of `rows` × `cols` ≤ `N` ≤ 32 cells.
    pub(crate) fn new(rows: usize, cols: usize) -> Geometry<N> {
        let n = rows * cols;
        let (mut not_left, mut not_right) = (0, 0);
        for c in 0..n {
            if c % cols != 0 {
                not_left |= 1 << c;
            }
            if c % cols != cols - 1 {
                not_right |= 1 << c;
            }
        }
        let mut geo = Geometry {
            cols,
            all: ((1u64 << n) - 1) as u32,
            not_left,
            not_right,
            next_to: [0; N],
        };
        for c in 0..n {
            geo.next_to[c] = geo.spread(1 << c);
        }
        geo
    }

    /// Cells next to any cell of `m`.
    #[inline]
    fn spread(&self, m: u32) -> u32 {
        (((m & self.not_right) << 1)
            | ((m & self.not_left) >> 1)
            | (m << self.cols)
            | (m >> self.cols))
            & self.all
    }

    /// The cells of `free` connected to `seed` (which must be in `free`).
    #[inline]
    fn region(&self, seed: u32, free: u32) -> u32 {
        let mut m = seed;
        loop {
            let grown = (m | self.spread(m)) & free;
            if grown == m {
                return m;
            }
            m = grown;
        }
    }
}

/// A placement first reached at a level: its rank, the level, and how it was reached (its
/// parent's cells of the group's tiles, which of them moved, and to which cell), for the
/// caller to store its value.
pub(crate) struct Settled<'a> {
    /// The placement's rank.
    pub(crate) rank: usize,
    /// The level (the group's moves) it was reached at.
    pub(crate) level: u32,
    /// The parent's cells, tile by tile in the group's order.
    pub(crate) cells: &'a [u8],
    /// The tile (its index in `cells`) that moved.
    pub(crate) moved: usize,
    /// The cell it moved to.
    pub(crate) to: usize,
}

/// Searches the placements of a group of `ranker.tiles()` tiles whose goal cells are
/// `home` (tile by tile, in the group's order), the goal's blank at `blank`, level by level
/// until no placement is new. `settle` is told of every placement the moment it is first
/// reached (the start, at level 0, is not told); after each level `level_done(level,
/// finished)` may end the search with its error (`finished`: the level reached nothing
/// new). `progress` is told of the placements each work item settles. Returns how many
/// placements each level reached (the histogram, from the start's 1).
pub(crate) fn search_placements<const N: usize, M: BlankMask, E>(
    geo: &Geometry<N>,
    ranker: &Placements<N>,
    home: &[u8],
    blank: usize,
    progress: &(dyn Fn(u64) + Sync),
    settle: impl Fn(Settled<'_>) + Sync,
    mut level_done: impl FnMut(u32, bool) -> Result<(), E>,
) -> Result<Vec<u64>, E> {
    let k = home.len();
    let count = ranker.count() as usize;
    let visited: Vec<M> = (0..count).map(|_| M::empty()).collect();
    let mut current = AtomicBitmap::new(count);
    let mut next = AtomicBitmap::new(count);

    let start = ranker.rank(home);
    let occupied = home.iter().fold(0u32, |m, &c| m | 1 << c);
    let region = geo.region(1 << blank, geo.all & !occupied);
    visited[start as usize].add(region);
    current.set(u64::from(start));
    let mut histogram = vec![1u64];
    progress(1);

    // Bitmap words a parallel work item scans: 256 (16,384 placements) on the large spaces,
    // fewer on small ones, so that they too are expanded in many items at once.
    let chunk = (current.words().len() / (16 * rayon::current_num_threads().max(1))).clamp(1, 256);
    let mut level = 0u32;
    loop {
        let child_level = level + 1;
        let settled: u64 = current
            .words()
            .par_chunks(chunk)
            .enumerate()
            .map(|(item, words)| {
                let mut settled = 0u64;
                let mut cells = [0u8; N];
                for (w, word) in words.iter().enumerate() {
                    each_set_bit(item * chunk + w, word.load(Relaxed), |p| {
                        let occupied = ranker.unrank(p as u32, &mut cells[..k]);
                        let mut slot_at = [0u8; N];
                        for (slot, &c) in cells[..k].iter().enumerate() {
                            slot_at[c as usize] = slot as u8;
                        }
                        let reached = visited[p as usize].cells();
                        for i in 0..k {
                            let from = cells[i] as usize;
                            let mut into = geo.next_to[from] & reached;
                            while into != 0 {
                                let to = into.trailing_zeros() as usize;
                                into &= into - 1;
                                let child =
                                    ranker.moved_rank(p as u32, i, from, to, occupied, |x| {
                                        usize::from(slot_at[x])
                                    }) as usize;
                                if visited[child].cells() & (1 << from) != 0 {
                                    continue;
                                }
                                let free = geo.all & !(occupied & !(1 << from) | 1 << to);
                                let region = geo.region(1 << from, free);
                                let before = visited[child].add(region);
                                if before & region != 0 {
                                    continue;
                                }
                                next.set(child as u64);
                                if before != 0 {
                                    continue;
                                }
                                settled += 1;
                                settle(Settled {
                                    rank: child,
                                    level: child_level,
                                    cells: &cells[..k],
                                    moved: i,
                                    to,
                                });
                            }
                        }
                    });
                }
                progress(settled);
                settled
            })
            .sum();
        let finished = settled == 0 && next.words().par_iter().all(|w| w.load(Relaxed) == 0);
        level_done(child_level, finished)?;
        if finished {
            break;
        }
        histogram.push(settled);
        std::mem::swap(&mut current, &mut next);
        next.clear();
        level = child_level;
    }
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    Ok(histogram)
}
