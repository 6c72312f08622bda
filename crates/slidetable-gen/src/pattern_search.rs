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
//!
//! The rank's width is a parameter too ([`PlacementRank`]): 32 bits wherever a group's
//! placements fit them, 64 past (8 tiles of 25 cells), one code compiled twice.
//!
//! **In parts** ([`Meet`]): each process keeps the masks and level bits of one contiguous
//! slice of the ranks. A child outside the slice goes, as one number (its rank, the moved
//! tile's slot and the cell it left), to the process that owns it; each level is expanded a
//! window of the slice at a time, and after each window the processes swap what they made
//! for one another ([`Meet::swap`]) and each takes in what it was sent as it takes its own
//! children. The one-process search is the search in one part ([`Whole`]): no child leaves
//! the slice and no swap is made.

use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{each_set_bit, AtomicBitmap, PlacementRank, Placements};

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
    /// The placement's rank (of the whole space, not of the slice).
    pub(crate) rank: u64,
    /// The level (the group's moves) it was reached at.
    pub(crate) level: u32,
    /// The parent's cells, tile by tile in the group's order.
    pub(crate) cells: &'a [u8],
    /// The tile (its index in `cells`) that moved.
    pub(crate) moved: usize,
    /// The cell it moved to.
    pub(crate) to: usize,
}

/// How the processes of a search in parts meet, in the search's own terms: who owns which
/// ranks, how a child travels to its owner, and how a level's counts are added up.
pub(crate) trait Meet<E> {
    /// Where each part's slice of the ranks starts, then the end of the last (parts + 1
    /// numbers, ascending).
    fn bounds(&self) -> &[u64];
    /// This process's part.
    fn me(&self) -> usize;
    /// Frontier words (64 ranks each) a window expands before a swap; `None`: the whole
    /// slice, one window a level (one part: nothing to swap).
    fn window_words(&self) -> Option<usize>;
    /// Sends `outgoing[k]` (children for part `k`, as [`child_code`] makes them; emptied) to
    /// part `k` and returns what every part sent this one.
    fn swap(&mut self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, E>;
    /// The sum of every part's `value`.
    fn total(&mut self, value: u64) -> Result<u64, E>;
}

/// The search in one part: every rank its own.
pub(crate) struct Whole {
    bounds: [u64; 2],
}

impl Whole {
    /// The ranks `0..count`.
    pub(crate) fn new(count: u64) -> Whole {
        Whole { bounds: [0, count] }
    }
}

impl<E> Meet<E> for Whole {
    fn bounds(&self) -> &[u64] {
        &self.bounds
    }
    fn me(&self) -> usize {
        0
    }
    fn window_words(&self) -> Option<usize> {
        None
    }
    fn swap(&mut self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, E> {
        outgoing.iter_mut().for_each(Vec::clear);
        Ok(Vec::new())
    }
    fn total(&mut self, value: u64) -> Result<u64, E> {
        Ok(value)
    }
}

/// Bits of a child's number ([`child_code`]) below its rank: 4 of the moved tile's slot, 5
/// of the cell it left.
pub(crate) const CHILD_LOW_BITS: u32 = 9;

/// A child made for another part, as one number: its rank, the slot of the tile that moved
/// and the cell it left (what the owner needs to flood its region and to tell the caller how
/// it was reached). Sorted numbers are sorted ranks.
#[inline]
pub(crate) fn child_code(rank: u64, slot: usize, from: usize) -> u64 {
    rank << CHILD_LOW_BITS | (slot as u64) << 5 | from as u64
}

/// What takes the children of one level into a slice: a struct with a method the compiler
/// inlines into the expansion's loop (as a closure of seven arguments, it was called, and the
/// search was a fifth slower).
struct Taker<'a, const N: usize, M, S> {
    geo: &'a Geometry<N>,
    visited: &'a [M],
    next: &'a AtomicBitmap,
    settle: &'a S,
    /// The slice's first rank.
    low: u64,
    /// The level the children are reached at.
    level: u32,
}

impl<const N: usize, M: BlankMask, S: Fn(Settled<'_>)> Taker<'_, N, M, S> {
    /// Takes `child` (of the slice), reached from a parent (`cells`, whose mask is
    /// `occupied`) whose tile of `slot` moved from `from` to `to`: floods its new region, if
    /// it is one, and settles it if it is its first. Whether the child was new.
    #[inline(always)]
    fn child(
        &self,
        child: u64,
        cells: &[u8],
        occupied: u32,
        slot: usize,
        from: usize,
        to: usize,
    ) -> bool {
        let at = (child - self.low) as usize;
        if self.visited[at].cells() & (1 << from) != 0 {
            return false;
        }
        let free = self.geo.all & !(occupied & !(1 << from) | 1 << to);
        let region = self.geo.region(1 << from, free);
        let before = self.visited[at].add(region);
        if before & region != 0 {
            return false;
        }
        self.next.set(at as u64);
        if before != 0 {
            return false;
        }
        (self.settle)(Settled {
            rank: child,
            level: self.level,
            cells,
            moved: slot,
            to,
        });
        true
    }
}

/// Expands the frontier placements of `words` (the slice's bitmap words from `first`): each
/// group tile next to a reached region moved into it, the child taken if it is of the slice
/// (`ranks`), else kept for its owner (its [`child_code`]). One part (`ALONE`) owns every
/// child: compiled without the test, as the one-process search was. The placements settled
/// and the children for other parts.
#[inline(always)]
fn expand<const ALONE: bool, const N: usize, M: BlankMask, R: PlacementRank, S: Fn(Settled<'_>)>(
    take: &Taker<'_, N, M, S>,
    ranker: &Placements<N, R>,
    k: usize,
    ranks: std::ops::Range<u64>,
    first: usize,
    words: &[std::sync::atomic::AtomicU64],
) -> (u64, Vec<u64>) {
    let (geo, visited) = (take.geo, take.visited);
    let mut settled = 0u64;
    let mut away = Vec::new();
    let mut cells = [0u8; N];
    for (i, word) in words.iter().enumerate() {
        each_set_bit(first + i, word.load(Relaxed), |p| {
            let rank = R::of(ranks.start + p);
            let occupied = ranker.unrank(rank, &mut cells[..k]);
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
                    let child: u64 = ranker
                        .moved_rank(rank, i, from, to, occupied, |x| usize::from(slot_at[x]))
                        .into();
                    if !ALONE && !ranks.contains(&child) {
                        away.push(child_code(child, i, from));
                        continue;
                    }
                    settled += u64::from(take.child(child, &cells[..k], occupied, i, from, to));
                }
            }
        });
    }
    (settled, away)
}

/// Searches the placements of a group of `ranker.tiles()` tiles whose goal cells are
/// `home` (tile by tile, in the group's order), the goal's blank at `blank`, level by level
/// until no placement is new, over this part's slice of the ranks (`meet`; [`Whole`]: all
/// of them). `settle` is told of every placement of the slice the moment it is first reached
/// (the start, at level 0, is not told); after each level `level_done(level, finished)` may
/// end the search with its error (`finished`: the level reached nothing new in any part).
/// `progress` is told of the placements each work item settles. Returns how many placements
/// each level reached in every part together (the histogram, from the start's 1).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_placements<const N: usize, M: BlankMask, R: PlacementRank, E>(
    geo: &Geometry<N>,
    ranker: &Placements<N, R>,
    home: &[u8],
    blank: usize,
    meet: &mut impl Meet<E>,
    progress: &(dyn Fn(u64) + Sync),
    settle: impl Fn(Settled<'_>) + Sync,
    mut level_done: impl FnMut(u32, bool) -> Result<(), E>,
) -> Result<Vec<u64>, E> {
    let k = home.len();
    let bounds = meet.bounds().to_vec();
    let me = meet.me();
    let (low, high) = (bounds[me], bounds[me + 1]);
    let len = usize::try_from(high - low).unwrap_or(usize::MAX);
    let visited: Vec<M> = (0..len).map(|_| M::empty()).collect();
    let mut current = AtomicBitmap::new(len);
    let mut next = AtomicBitmap::new(len);
    let owner = |rank: u64| bounds.partition_point(|&b| b <= rank) - 1;

    let start: u64 = ranker.rank(home).into();
    if (low..high).contains(&start) {
        let occupied = home.iter().fold(0u32, |m, &c| m | 1 << c);
        let region = geo.region(1 << blank, geo.all & !occupied);
        visited[(start - low) as usize].add(region);
        current.set(start - low);
        progress(1);
    }
    let mut histogram = vec![1u64];

    let slice_words = current.words().len();
    // Every part makes as many windows a level (swaps must pair), from the largest slice.
    let (window, windows) = match meet.window_words() {
        None => (slice_words.max(1), 1),
        Some(w) => {
            let w = w.max(1);
            let most = bounds
                .windows(2)
                .map(|b| (b[1] - b[0]).div_ceil(64) as usize)
                .max()
                .unwrap_or(0);
            (w, most.div_ceil(w).max(1))
        }
    };
    // Bitmap words a parallel work item scans: 256 (16,384 placements) on the large spaces,
    // fewer on small ones, so that they too are expanded in many items at once.
    let chunk = (window / (16 * rayon::current_num_threads().max(1))).clamp(1, 256);
    let parts = bounds.len() - 1;
    let alone = parts == 1;
    let mut outgoing: Vec<Vec<u64>> = vec![Vec::new(); parts];
    let mut level = 0u32;
    loop {
        let child_level = level + 1;
        let take = Taker {
            geo,
            visited: &visited,
            next: &next,
            settle: &settle,
            low,
            level: child_level,
        };
        let mut settled = 0u64;
        for w in 0..windows {
            let words = &current.words()
                [(w * window).min(slice_words)..((w + 1) * window).min(slice_words)];
            let first_word = w * window;
            let made: Vec<(u64, Vec<u64>)> = words
                .par_chunks(chunk)
                .enumerate()
                .map(|(item, words)| {
                    let first = first_word + item * chunk;
                    let (settled, away) = if alone {
                        expand::<true, N, M, R, _>(&take, ranker, k, low..high, first, words)
                    } else {
                        expand::<false, N, M, R, _>(&take, ranker, k, low..high, first, words)
                    };
                    progress(settled);
                    (settled, away)
                })
                .collect();
            for (s, away) in made {
                settled += s;
                for code in away {
                    outgoing[owner(code >> CHILD_LOW_BITS)].push(code);
                }
            }
            if windows == 1 && parts == 1 {
                continue;
            }
            let incoming = meet.swap(&mut outgoing)?;
            settled += incoming
                .par_chunks(1 << 14)
                .map(|codes| {
                    let mut settled = 0u64;
                    let mut cells = [0u8; N];
                    for &code in codes {
                        let child = code >> CHILD_LOW_BITS;
                        let slot = (code >> 5 & 0xf) as usize;
                        let from = (code & 0x1f) as usize;
                        // The parent: the child with its moved tile back where it was.
                        let child_occupied = ranker.unrank(R::of(child), &mut cells[..k]);
                        let to = usize::from(cells[slot]);
                        cells[slot] = from as u8;
                        let occupied = child_occupied & !(1 << to) | 1 << from;
                        settled +=
                            u64::from(take.child(child, &cells[..k], occupied, slot, from, to));
                    }
                    progress(settled);
                    settled
                })
                .sum::<u64>();
        }
        // Whether a region was new anywhere (a placement reached anew is one): any level bit.
        let grown = u64::from(next.words().par_iter().any(|w| w.load(Relaxed) != 0));
        let (settled, grown) = if parts == 1 {
            (settled, grown)
        } else {
            (meet.total(settled)?, meet.total(grown)?)
        };
        let finished = settled == 0 && grown == 0;
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
