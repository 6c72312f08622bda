//! The breadth-first search of 2-bit tables in the table's own memory plus one bit a state:
//! what lets 2×7 (14!/2 = 43,589,145,600 states, 10.9 GB of entries) be searched on a 24 GB
//! machine, where the three bitmaps of `bfs_scan.rs` would add 16 GB.
//!
//! The entries are the 2-bit payload itself (entry `r` in bits `2·(r mod 32)` of word
//! `r / 32`), with value 3 for a state not reached yet; every other value is the distance mod
//! 3. Beside them, one **frontier** bitmap. Level `d` is found one of two ways:
//!
//! * **top-down** — the frontier holds exactly the states of level `d`. Each set bit whose
//!   entry is `d mod 3` is expanded: every neighbour whose entry is 3 gets its bit set in the
//!   same bitmap, then `(d + 1) mod 3`; the expanded bits of a word are cleared once all of
//!   them are expanded. A bit whose entry is not `d mod 3` was set during this pass (a state
//!   of level `d + 1`) and stays. At the end the bitmap holds exactly level `d + 1`.
//! * **bottom-up** — once the frontier outnumbers the states still unseen, every unseen state
//!   with a neighbour whose entry is `d mod 3` gets `(d + 1) mod 3`: that neighbour is at level
//!   `d` exactly (one at `d − 3` would have reached the state long ago, and levels past `d`
//!   hold only `(d + 1) mod 3` so far). No bitmap is needed, and it is dropped.
//!
//! Between two levels the entries alone say what the frontier holds, up to states that change
//! nothing: [`rebuild_frontier`] sets the bit of every state whose entry is `d mod 3` and
//! none of whose neighbours holds `(d + 1) mod 3`. That is every state of level `d` (its
//! neighbours are at `d − 1`, value `(d + 2) mod 3`, or unseen) and, besides, only states of
//! levels `d − 3`, `d − 6`, … with no neighbour one level further (every neighbour of such a
//! state is one level nearer, so already reached: expanding it reaches nothing). So a
//! checkpoint (`resume.rs`) keeps the entries only, and a resumed top-down pass finds the same
//! states, counts and entries as the pass it replaces.
//!
//! A level's pass works on a contiguous slice of ranks ([`Residues`] of `first..end`), a
//! window of it at a time if the caller likes: one machine owns every rank in one window, a
//! search in parts (`parts.rs`) one slice a process, in windows between which it exchanges
//! with the other processes. A top-down pass hands the caller ([`Handover`]) each state it
//! expands that has a neighbour outside the slice, with that neighbour (or, for a move into
//! a block of ranks that lies in one other slice, [`Sweep::away`], the state alone, the
//! neighbour not made): the caller sends the state to the slice that owns the neighbour,
//! whose process makes the state's moves into its slice and marks what they reach with
//! [`Residues::reach`]; a bottom-up pass hands the caller each unseen state with no
//! neighbour at `d mod 3` in the slice together with its neighbours outside it (`ask`), for
//! their owners to say whether one is at `d mod 3`.
//!
//! Entries are deterministic whatever the threads do (a state's entry is its distance mod 3):
//! the file is the same, byte for byte, whatever the threads or the parts. This is the one
//! search of 2-bit entries (`bfs_scan.rs` hands them here).

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{
    each_set_bit, Layout, Move, PrefixMoves, Ranker, Ranks, Scan, ScanCursor, Sideways, WideRanker,
    MAX_TABLE_CELLS, SCAN_CHUNK,
};
use slidetable_format::mapping::{advise_huge_pages, prefetch};
use slidetable_format::{
    two_bit_equal, two_bit_gather, two_bit_lanes_equal, two_bit_spread, CostModel, Encoding,
    TWO_BIT_LOW,
};

use crate::scale::{entry_words, frontier_words};
use crate::{GenError, SolvedSection};

/// How many neighbours by one move a top-down pass gathers before it reaches them.
const BATCH: usize = 64;

/// Every entry of a word not reached yet: value 3 in each of its 32 entries.
pub(crate) const UNSEEN: u64 = u64::MAX;

/// `len` words in memory, each `value`, on huge pages where the kernel gives them
/// ([`advise_huge_pages`]: a pass reaches all over them).
pub(crate) fn words_of(len: usize, value: u64) -> Vec<AtomicU64> {
    let mut words = Vec::new();
    words.reserve_exact(len);
    advise_huge_pages(words.spare_capacity_mut());
    words.par_extend((0..len).into_par_iter().map(|_| AtomicU64::new(value)));
    words
}

/// The 2-bit entries of a contiguous slice of ranks during a search: value 3 for a state not
/// reached yet, else its distance mod 3.
#[derive(Debug)]
pub(crate) struct Residues {
    words: Vec<AtomicU64>,
    first: u64,
    end: u64,
}

impl Residues {
    /// Entries for ranks `slice` (its start a multiple of 64), every one unseen.
    pub(crate) fn new(slice: Range<u64>) -> Residues {
        debug_assert_eq!(slice.start % 64, 0);
        Residues {
            words: words_of(entry_words(slice.end - slice.start), UNSEEN),
            first: slice.start,
            end: slice.end,
        }
    }

    /// Entries for ranks `slice` (its start a multiple of 64) from `words` ([`entry_words`]
    /// of them, as [`Residues::into_words`] left them or a checkpoint kept them): entries past
    /// the end are made unseen again, as a search has them.
    pub(crate) fn from_words(words: Vec<AtomicU64>, slice: Range<u64>) -> Residues {
        debug_assert_eq!(slice.start % 64, 0);
        let len = slice.end - slice.start;
        debug_assert_eq!(words.len(), entry_words(len));
        let used = (len % 32) as u32;
        if let (Some(last), true) = (words.get((len / 32) as usize), used != 0) {
            last.fetch_or(!((1u64 << (2 * used)) - 1), Relaxed);
        }
        let whole = len.div_ceil(32) as usize;
        words[whole..].iter().for_each(|w| w.store(UNSEEN, Relaxed));
        Residues {
            words,
            first: slice.start,
            end: slice.end,
        }
    }

    /// The entries' words as they are (a checkpoint's copy).
    pub(crate) fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The word holding the slice's last entry, and the mask of its entries in the slice
    /// (all of them if the slice ends on a word): what a payload keeps of the words.
    pub(crate) fn last_word_mask(&self) -> (usize, u64) {
        let len = self.end - self.first;
        let used = (len % 32) as u32;
        let mask = if used == 0 {
            u64::MAX
        } else {
            (1u64 << (2 * used)) - 1
        };
        ((len.saturating_sub(1) / 32) as usize, mask)
    }

    /// The ranks these entries hold.
    pub(crate) fn slice(&self) -> Range<u64> {
        self.first..self.end
    }

    /// The entry of `rank` (in the slice): 3 if unseen, else the distance mod 3.
    #[inline]
    pub(crate) fn value(&self, rank: u64) -> u32 {
        self.view().value(rank)
    }

    /// Gives the unseen state `rank` (in the slice) the value `value`, and sets its bit in
    /// `frontier`; whether it was unseen (each state is reached once, whatever the threads).
    #[inline]
    pub(crate) fn reach(&self, rank: u64, value: u32, frontier: &[AtomicU64]) -> bool {
        self.view().reach(rank, value, frontier)
    }

    /// Gives the unseen state `rank` (in the slice) the value `value`, without a frontier
    /// bit (a bottom-up level's states); whether it was unseen.
    #[inline]
    pub(crate) fn settle(&self, rank: u64, value: u32) -> bool {
        self.view().settle(rank, value)
    }

    /// At most how many states of frontier word `index` (64 ranks) a pass of level `depth`
    /// expands: top-down (with the `frontier`) its bits whose entry is `depth mod 3`,
    /// bottom-up its unseen entries (each at most one a move to hand to other slices).
    pub(crate) fn expanding(
        &self,
        index: usize,
        depth: u32,
        frontier: Option<&[AtomicU64]>,
    ) -> u32 {
        match frontier {
            Some(bits) => {
                (bits[index].load(Relaxed) & self.view().equal_bits(index, depth % 3)).count_ones()
            }
            None => self.words[2 * index..2 * index + 2]
                .iter()
                .map(|w| {
                    let w = w.load(Relaxed);
                    (w & (w >> 1) & TWO_BIT_LOW).count_ones()
                })
                .sum(),
        }
    }

    /// The words and the first rank, taken once for a pass's inner loops.
    #[inline]
    fn view(&self) -> View<'_> {
        View {
            words: &self.words,
            first: self.first,
        }
    }

    /// The entries' words (entry `r` in bits `2·((r − first) mod 32)` of word
    /// `(r − first) / 32`), as the 2-bit payload stores them.
    /// Entries past the slice's end are 0, as in a payload.
    pub(crate) fn into_words(self) -> Vec<u64> {
        let len = self.end - self.first;
        let mut words: Vec<u64> = self.words.into_iter().map(AtomicU64::into_inner).collect();
        let used = (len % 32) as u32;
        if let (Some(last), true) = (words.get_mut((len / 32) as usize), used != 0) {
            *last &= (1u64 << (2 * used)) - 1;
        }
        let whole = len.div_ceil(32) as usize;
        words[whole..].iter_mut().for_each(|w| *w = 0);
        words
    }

    /// The states still unseen (the tests' count).
    #[cfg(test)]
    pub(crate) fn unseen(&self) -> u64 {
        let len = self.end - self.first;
        self.words()
            .par_iter()
            .enumerate()
            .map(|(k, w)| {
                let w = w.load(Relaxed);
                let mut both = w & (w >> 1) & TWO_BIT_LOW;
                let start = k as u64 * 32;
                if start >= len {
                    return 0;
                }
                if start + 32 > len {
                    both &= (1u64 << (2 * (len - start))) - 1;
                }
                u64::from(both.count_ones())
            })
            .sum()
    }
}

/// [`Residues`]' words and first rank, as a pass's inner loops read them.
#[derive(Clone, Copy)]
struct View<'a> {
    words: &'a [AtomicU64],
    first: u64,
}

impl View<'_> {
    #[inline]
    fn value(self, rank: u64) -> u32 {
        let i = rank - self.first;
        ((self.words[(i >> 5) as usize].load(Relaxed) >> ((i & 31) * 2)) & 3) as u32
    }

    #[inline]
    fn settle(self, rank: u64, value: u32) -> bool {
        let i = rank - self.first;
        let word = &self.words[(i >> 5) as usize];
        let shift = (i & 31) * 2;
        if (word.load(Relaxed) >> shift) & 3 != 3 {
            return false;
        }
        // 3 AND value = value: one atomic AND writes it.
        let old = word.fetch_and(!(u64::from(3 ^ value) << shift), Relaxed);
        (old >> shift) & 3 == 3
    }

    #[inline]
    fn reach(self, rank: u64, value: u32, frontier: &[AtomicU64]) -> bool {
        if !self.settle(rank, value) {
            return false;
        }
        let i = rank - self.first;
        frontier[(i >> 6) as usize].fetch_or(1 << (i & 63), Relaxed);
        true
    }

    /// [`View::reach`] for each of `ranks` (in the slice), those in the same word of
    /// entries one after the other reached with one write to the entries and one to the
    /// frontier; how many were unseen.
    #[inline]
    fn reach_runs(self, ranks: &[u64], value: u32, frontier: &[AtomicU64]) -> u64 {
        let mut reached = 0;
        let mut at = 0;
        while let Some(&rank) = ranks.get(at) {
            let index = (rank - self.first) >> 5;
            let mut lanes = 0u64;
            while let Some(&r) = ranks.get(at) {
                let i = r - self.first;
                if i >> 5 != index {
                    break;
                }
                lanes |= 1 << (2 * (i & 31));
                at += 1;
            }
            reached += self.reach_word(index, lanes, value, frontier);
        }
        reached
    }

    /// [`View::reach_lanes`] on entry word `index`, and the frontier bits of the states it
    /// reached set with one write; how many it reached.
    #[inline]
    fn reach_word(self, index: u64, lanes: u64, value: u32, frontier: &[AtomicU64]) -> u64 {
        let got = self.reach_lanes(index as usize, lanes, value);
        if got != 0 {
            frontier[(index >> 1) as usize]
                .fetch_or(two_bit_gather(got) << (32 * (index & 1)), Relaxed);
        }
        u64::from(got.count_ones())
    }

    /// [`View::reach`] for the ranks `first + at + k` for each bit `k` of `bits` (each of
    /// those in the slice): the states of one frontier word moved by one rank change at once,
    /// with a write to each of the (at most three) words of entries they fall in and to
    /// their frontier words; how many were unseen.
    #[inline]
    fn reach_shifted(self, at: u64, bits: u64, value: u32, frontier: &[AtomicU64]) -> u64 {
        let (word, off) = (at / 32, (at % 32) as u32);
        let mut reached = 0;
        for j in 0..3u32 {
            // The bits that land in entry word `word + j`: ranks `at + k` with
            // `32·j ≤ off + k < 32·(j + 1)`.
            let part = if 32 * j >= off {
                bits.checked_shr(32 * j - off).unwrap_or(0)
            } else {
                bits << (off - 32 * j)
            } & 0xFFFF_FFFF;
            if part == 0 {
                continue;
            }
            reached += self.reach_word(word + u64::from(j), two_bit_spread(part), value, frontier);
        }
        reached
    }

    /// The bits of frontier word `index` (64 ranks from `first + 64·index`) whose entry is
    /// `value`.
    #[inline]
    fn equal_bits(self, index: usize, value: u32) -> u64 {
        let low = self.words[2 * index].load(Relaxed);
        let high = self.words[2 * index + 1].load(Relaxed);
        two_bit_equal(low, high, value)
    }

    /// Gives every unseen entry of entry word `index` among `lanes` (low bits of 2-bit
    /// entries) the value `value`; the lanes it changed (each state is reached once,
    /// whatever the threads: a top-down pass only ever turns unseen entries into `value`).
    #[inline]
    fn reach_lanes(self, index: usize, lanes: u64, value: u32) -> u64 {
        let word = &self.words[index];
        let w = word.load(Relaxed);
        let fresh = lanes & w & (w >> 1) & TWO_BIT_LOW;
        if fresh == 0 {
            return 0;
        }
        // Each lane is 1 in its low bit only, so the product puts `3 ^ value` in the lane.
        let old = word.fetch_and(!(fresh * u64::from(3 ^ value)), Relaxed);
        fresh & old & (old >> 1) & TWO_BIT_LOW
    }
}

/// The states of the frontier word of ranks `base..base + 64` in `bits`, by prefix (at most
/// two: a prefix spans more than 64 ranks), each with its prefix's moves within the prefix.
#[inline]
fn prefix_moves<R: Ranks>(
    scan: &Scan<R>,
    cursor: &mut ScanCursor,
    base: u64,
    bits: u64,
) -> [Option<(u64, PrefixMoves)>; 2] {
    let mut moves = [None, None];
    let mut rest = bits;
    for slot in &mut moves {
        if rest == 0 {
            break;
        }
        let pm = scan.prefix_moves(cursor, base + u64::from(rest.trailing_zeros()));
        let upto = pm.end - base;
        let these = if upto >= 64 {
            rest
        } else {
            rest & ((1u64 << upto) - 1)
        };
        *slot = Some((these, pm));
        rest &= !these;
    }
    debug_assert_eq!(rest, 0, "a prefix spans more than 64 ranks");
    moves
}

/// Level `depth`'s top-down pass over the slice of `residues`: `frontier` (bit `i` for rank
/// `first + i`) holds every state of level `depth` not expanded yet, and ends holding exactly
/// level `depth + 1`. `found` is told the states reached as each piece of the pass ends.
/// Returns the states reached in the slice.
pub(crate) fn expand_top_down<R: Ranks>(
    scan: &Scan<R>,
    residues: &Residues,
    frontier: &[AtomicU64],
    depth: u32,
    found: &(dyn Fn(u64) + Sync),
) -> u64 {
    let pass = Sweep {
        window: 0..frontier.len(),
        ..Sweep::whole(scan, residues, depth)
    };
    pass.top_down(frontier, &Nowhere, found)
}

/// Where a top-down pass over a slice hands the states it expands that have neighbours in
/// other slices (the search in parts, `parts.rs`), a piece of the pass at a time: each
/// piece keeps its own record ([`Handover::Piece`]), given the states in rank order.
pub(crate) trait Handover: Sync {
    type Piece: Send;
    /// A piece's record, before its first state.
    fn start(&self) -> Self::Piece;
    /// State `r`, its blank in cell `blank`, has moves into cells of [`Sweep::away`].
    fn away(&self, piece: &mut Self::Piece, r: u64, blank: usize);
    /// The states `base + k` for the bits `k` of `lanes`, their blank in cell `blank`,
    /// have moves into cells of [`Sweep::away`] (and none but those to make).
    fn word(&self, piece: &mut Self::Piece, base: u64, mut lanes: u64, blank: usize) {
        while lanes != 0 {
            self.away(piece, base + u64::from(lanes.trailing_zeros()), blank);
            lanes &= lanes - 1;
        }
    }
    /// State `r` has neighbour `n` outside the slice.
    fn far(&self, piece: &mut Self::Piece, r: u64, n: u64);
    /// Piece `number` of the window (from 0, in rank order) is done.
    fn end(&self, number: usize, piece: Self::Piece);
}

/// One machine's pass: every neighbour is in the slice.
struct Nowhere;

impl Handover for Nowhere {
    type Piece = ();
    fn start(&self) {}
    fn away(&self, _: &mut (), _: u64, _: usize) {}
    fn far(&self, _: &mut (), _: u64, _: u64) {}
    fn end(&self, _: usize, _: ()) {}
}

/// Level `depth`'s bottom-up pass over every rank of `scan`'s class (`residues` must hold
/// them all): every unseen state with a neighbour whose entry is `depth mod 3` gets
/// `(depth + 1) mod 3`. Each thread writes only its own words; `found` is told the states
/// reached as each piece of the pass ends. Returns the states reached.
pub(crate) fn expand_bottom_up<R: Ranks>(
    scan: &Scan<R>,
    residues: &Residues,
    depth: u32,
    found: &(dyn Fn(u64) + Sync),
) -> u64 {
    let pass = Sweep::whole(scan, residues, depth);
    pass.bottom_up(&|_| {}, found)
}

/// One pass of a level over a window of the slice of `residues`: the ranks of frontier words
/// `window` (64 ranks a word, counted from the slice's first rank), in pieces of `piece`
/// words, each piece one thread's at a time.
pub(crate) struct Sweep<'a, R: Ranks = Ranker> {
    pub(crate) scan: &'a Scan<R>,
    pub(crate) residues: &'a Residues,
    pub(crate) depth: u32,
    pub(crate) window: Range<usize>,
    pub(crate) piece: usize,
    /// The cells (bit `c` for cell `c`) whose block of ranks (those with the blank in `c`)
    /// lies wholly in one other slice: a top-down pass does not make a move there, it hands
    /// the state over ([`Handover::away`]). None on one machine.
    pub(crate) away: u32,
}

impl<'a, R: Ranks> Sweep<'a, R> {
    /// The pass of level `depth` over every rank of `residues` (the one-machine search), in
    /// pieces of [`SCAN_CHUNK`] frontier words.
    fn whole(scan: &'a Scan<R>, residues: &'a Residues, depth: u32) -> Sweep<'a, R> {
        Sweep {
            scan,
            residues,
            depth,
            window: 0..frontier_words(residues.end - residues.first),
            piece: SCAN_CHUNK,
            away: 0,
        }
    }
}

impl<R: Ranks> Sweep<'_, R> {
    /// What both passes of the window work with: the residue of the level expanded (`want`)
    /// and of the next (`new`), the slice's ranks (`first..end`), its entries, the scan and
    /// its sideways moves.
    #[allow(clippy::type_complexity)]
    fn setup(&self) -> (u32, u32, u64, u64, View<'_>, &Scan<R>, Sideways<'_, R>) {
        let Range { start: first, end } = self.residues.slice();
        let (want, new) = (self.depth % 3, (self.depth + 1) % 3);
        let (entries, scan) = (self.residues.view(), self.scan);
        (want, new, first, end, entries, scan, Sideways::new(scan))
    }

    /// The top-down pass of the window (see [`expand_top_down`]): the bits of a word are
    /// cleared once they are expanded; returns the states reached in the slice. The states
    /// with neighbours outside the slice go to `handover`.
    pub(crate) fn top_down<H: Handover>(
        &self,
        frontier: &[AtomicU64],
        handover: &H,
        found: &(dyn Fn(u64) + Sync),
    ) -> u64 {
        let (want, new, first, end, entries, scan, sideways) = self.setup();
        let (at, piece) = (self.window.start, self.piece.max(1));
        let (block, away) = (scan.ranker().block(), self.away);
        // The cells that the moves of a state with its blank in each cell reach in other
        // slices' blocks, and the moves (bit `code`) it makes itself.
        let cells = scan.ranker().board().cells();
        let leaves: Vec<u32> = (0..cells)
            .map(|c| {
                scan.moves()
                    .from(c)
                    .iter()
                    .fold(0, |cells, &(_, to)| cells | (away & 1 << to))
            })
            .collect();
        let own: Vec<u8> = (0..cells)
            .map(|c| {
                scan.moves()
                    .from(c)
                    .iter()
                    .filter(|&&(_, to)| away >> to & 1 == 0)
                    .fold(0, |moves, &(m, _)| moves | 1 << m.code())
            })
            .collect();
        let whole_words = block.is_multiple_of(64);
        frontier[self.window.clone()]
            .par_chunks(piece)
            .enumerate()
            .map(|(chunk, words)| {
                let mut cursor = scan.cursor();
                let mut reached = 0u64;
                let mut far = handover.start();
                // Neighbours in the slice by a move up and by a move down, reached a batch at
                // a time (an unseen state stays unseen and unexpanded until it is reached,
                // whenever that is in the pass): the states of a word that share the move's
                // rank offset have neighbours next to each other, reached together.
                let mut near = [Vec::with_capacity(2 * BATCH), Vec::with_capacity(2 * BATCH)];
                let reach = |near: &mut [Vec<u64>; 2]| {
                    let got: u64 = near
                        .iter()
                        .map(|ranks| entries.reach_runs(ranks, new, frontier))
                        .sum();
                    near.iter_mut().for_each(Vec::clear);
                    got
                };
                for (i, w) in words.iter().enumerate() {
                    let index = at + chunk * piece + i;
                    let set = w.load(Relaxed);
                    if set == 0 {
                        continue;
                    }
                    // A set bit whose entry is not `want` was reached in this pass.
                    let expanded = set & entries.equal_bits(index, want);
                    if expanded == 0 {
                        continue;
                    }
                    let start = index as u64 * 64;
                    // The blank of the word's states, when they share it.
                    let word_blank = ((first + start) / block) as usize;
                    let mut done = [false; 2];
                    let steps = sideways.steps(first, end - first, start, expanded);
                    for (k, step) in steps.into_iter().enumerate() {
                        let Some(by) = step else { continue };
                        let target = (index as i64 + by / 64) as usize;
                        let mut fresh = 0u64;
                        for half in 0..2 {
                            let lanes = two_bit_spread(expanded >> (32 * half));
                            if lanes != 0 {
                                let got = entries.reach_lanes(2 * target + half, lanes, new);
                                fresh |= two_bit_gather(got) << (32 * half);
                            }
                        }
                        if fresh != 0 {
                            frontier[target].fetch_or(fresh, Relaxed);
                            reached += u64::from(fresh.count_ones());
                        }
                        done[k] = true;
                    }
                    let mut made = u8::from(done[0]) << Move::Left.code()
                        | u8::from(done[1]) << Move::Right.code();
                    // The moves within the prefix, a word at a time, when every neighbour
                    // they reach is in the slice.
                    if whole_words && scan.prefix_cells(word_blank) & !away != 0 {
                        let moves = prefix_moves(scan, &mut cursor, first + start, expanded);
                        let inside = moves.iter().flatten().all(|&(bits, pm)| {
                            let (lo, hi) = (
                                start + u64::from(bits.trailing_zeros()),
                                start + 63 - u64::from(bits.leading_zeros()),
                            );
                            pm.moves[..pm.count].iter().all(|&(_, to, by)| {
                                away >> to & 1 != 0
                                    || (lo as i64 + by >= 0
                                        && ((hi as i64 + by) as u64) < end - first)
                            })
                        });
                        if inside {
                            for &(bits, pm) in moves.iter().flatten() {
                                for &(m, to, by) in &pm.moves[..pm.count] {
                                    if away >> to & 1 == 0 {
                                        // From the lowest state: the word's start may
                                        // move to before the slice's first rank.
                                        let low = bits.trailing_zeros();
                                        let at = (start as i64 + by + i64::from(low)) as u64;
                                        let bits = bits >> low;
                                        reached += entries.reach_shifted(at, bits, new, frontier);
                                        made |= 1 << m.code();
                                    }
                                }
                            }
                        }
                    }
                    // A word whose states have no move left to make here but into other
                    // slices' blocks goes to them whole.
                    if whole_words && own[word_blank] & !made == 0 {
                        if leaves[word_blank] != 0 {
                            handover.word(&mut far, first + start, expanded, word_blank);
                        }
                        w.fetch_and(!expanded, Relaxed);
                        continue;
                    }
                    // The states' own moves leave out those made above, a word at a time.
                    let mut skip = away;
                    for &(m, to) in scan.moves().from(word_blank) {
                        if made >> m.code() & 1 != 0 {
                            skip |= 1 << to;
                        }
                    }
                    each_set_bit(index, expanded, |local| {
                        let r = first + local;
                        let blank = if whole_words {
                            word_blank
                        } else {
                            (r / block) as usize
                        };
                        scan.any_neighbor_off(&mut cursor, r, blank, skip, |m, n| {
                            if n < first || n >= end {
                                handover.far(&mut far, r, n);
                            } else {
                                // Reached a batch later: its entries' and frontier's
                                // words are on their way by then.
                                let local = (n - first) as usize;
                                prefetch(&entries.words[local >> 5]);
                                prefetch(&frontier[local >> 6]);
                                near[usize::from(m == Move::Down)].push(n);
                            }
                            false
                        });
                        if leaves[blank] != 0 {
                            handover.away(&mut far, r, blank);
                        }
                    });
                    w.fetch_and(!expanded, Relaxed);
                    if near[0].len().max(near[1].len()) >= BATCH {
                        reached += reach(&mut near);
                    }
                }
                reached += reach(&mut near);
                handover.end(chunk, far);
                found(reached);
                reached
            })
            .sum()
    }

    /// The bottom-up pass of the window (see [`expand_bottom_up`]): an unseen state with no neighbour at `depth mod 3` in the slice but some outside it
    /// goes to `ask` as a `[state, neighbour]` pair for each of those, a piece of the pass's
    /// at a time. Returns the states reached.
    pub(crate) fn bottom_up(
        &self,
        ask: &(dyn Fn(&mut Vec<[u64; 2]>) + Sync),
        found: &(dyn Fn(u64) + Sync),
    ) -> u64 {
        let (want, new, first, end, entries, scan, sideways) = self.setup();
        let piece = self.piece.max(1);
        // 64 ranks per pair of words, as many as a frontier word covers.
        let words = &self.residues.words()[self.window.start * 2..self.window.end * 2];
        words
            .par_chunks(piece * 2)
            .enumerate()
            .map(|(chunk, words)| {
                let mut cursor = scan.cursor();
                let mut reached = 0u64;
                let mut pairs = Vec::new();
                for (i, w) in words.iter().enumerate() {
                    let old = w.load(Relaxed);
                    let mut unseen = old & (old >> 1) & TWO_BIT_LOW;
                    if unseen == 0 {
                        continue;
                    }
                    let index = (self.window.start + chunk * piece) * 2 + i;
                    let start = index as u64 * 32;
                    let base = first + start;
                    // Entries past the slice's end are unseen too: not states.
                    let states = (end - first).saturating_sub(start).min(32);
                    if states < 32 {
                        unseen &= (1u64 << (2 * states)) - 1;
                    }
                    let mut word = old;
                    let mut mark = |lanes: u64, word: &mut u64| {
                        *word &= !(lanes * u64::from(3 ^ new));
                        reached += u64::from(lanes.count_ones());
                    };
                    let mut done = [false; 2];
                    let steps = sideways.steps(first, end - first, start, two_bit_gather(unseen));
                    for (k, step) in steps.into_iter().enumerate() {
                        let Some(by) = step else { continue };
                        let target = (index as i64 + by / 32) as usize;
                        let there = entries.words[target].load(Relaxed);
                        let hits = unseen & two_bit_lanes_equal(there, want);
                        if hits != 0 {
                            mark(hits, &mut word);
                            unseen &= !hits;
                        }
                        done[k] = true;
                    }
                    while unseen != 0 {
                        let bit = unseen.trailing_zeros();
                        unseen &= unseen - 1;
                        let r = base + u64::from(bit / 2);
                        let asked = pairs.len();
                        let hit = scan.any_neighbor(&mut cursor, r, |m, n| {
                            if Sideways::handled(done, m) {
                                false
                            } else if n < first || n >= end {
                                pairs.push([r, n]);
                                false
                            } else {
                                entries.value(n) == want
                            }
                        });
                        if hit {
                            pairs.truncate(asked);
                            mark(1 << bit, &mut word);
                        }
                    }
                    if word != old {
                        w.store(word, Relaxed);
                    }
                }
                if !pairs.is_empty() {
                    ask(&mut pairs);
                }
                found(reached);
                reached
            })
            .sum()
    }
}

/// Where a search of one class stands between two levels: the histogram so far (the last
/// level found is `histogram.len() − 1`), and whether its passes are bottom-up from here on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Levels {
    /// `histogram[d]` = states at distance `d`, for every level found.
    pub(crate) histogram: Vec<u64>,
    /// The class's states.
    pub(crate) states: u64,
}

impl Levels {
    /// The states found so far.
    pub(crate) fn reached(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// The last level found.
    pub(crate) fn depth(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }

    /// Whether the search is over: every state found (or, in a class that is not
    /// connected, which the parity rule rules out, a level found empty).
    pub(crate) fn over(&self) -> bool {
        self.reached() >= self.states || self.histogram.last() == Some(&0)
    }

    /// Whether the pass from the last level found is bottom-up: it is from the first level
    /// that outnumbers the states still unseen on (the rule depends on the histogram only,
    /// so a resumed search takes the same passes).
    pub(crate) fn bottom_up(&self) -> bool {
        let mut reached = 0u64;
        self.histogram.iter().any(|&level| {
            reached += level;
            level > self.states - reached
        })
    }
}

/// Level `depth`'s frontier rebuilt from the entries alone, into `frontier` (all clear):
/// the bit of every state whose entry is `depth mod 3` and none of whose neighbours holds
/// `(depth + 1) mod 3`. The entries must be those between levels `depth` and `depth + 1` (every
/// state up to level `depth` reached, none beyond). That is every state of level `depth`, and
/// besides only states of earlier levels whose neighbours are all reached already, which a
/// top-down pass expands without reaching anything (the module's text). On a slice of the
/// ranks, a neighbour outside it counts as not holding `(depth + 1) mod 3`: the bitmap may
/// then hold more such states, which reach nothing either. Each thread writes only its own
/// words.
pub(crate) fn rebuild_frontier<R: Ranks>(
    scan: &Scan<R>,
    residues: &Residues,
    frontier: &[AtomicU64],
    depth: u32,
) {
    let (want, next) = (depth % 3, (depth + 1) % 3);
    let (first, end) = (residues.first, residues.end);
    let len = end - first;
    let entries = residues.view();
    frontier
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .for_each(|(chunk, bits)| {
            let mut cursor = scan.cursor();
            for (i, b) in bits.iter().enumerate() {
                let index = (chunk * SCAN_CHUNK + i) as u64;
                let mut set = 0u64;
                for half in 0..2u64 {
                    let w = entries.words[(index * 2 + half) as usize].load(Relaxed);
                    let mut hits = two_bit_lanes_equal(w, want);
                    while hits != 0 {
                        let bit = hits.trailing_zeros();
                        hits &= hits - 1;
                        let local = index * 64 + half * 32 + u64::from(bit / 2);
                        if local >= len {
                            break;
                        }
                        let near = |n: u64| n >= first && n < end && entries.value(n) == next;
                        if !scan.any_neighbor(&mut cursor, first + local, |_, n| near(n)) {
                            set |= 1 << (local & 63);
                        }
                    }
                }
                b.store(set, Relaxed);
            }
        });
}

/// Whether the search of `board` ranks in 64 bits ([`WideRanker`]): past
/// [`MAX_TABLE_CELLS`] cells, where the ranks of one blank cell pass 2³², or on any board when
/// [`crate::environment::WIDE_RANKS_ENV`] asks (what tests run the wide search on small
/// boards with).
pub(crate) fn wide_ranks(board: slidetable_core::Board) -> Result<bool, GenError> {
    Ok(board.cells() > MAX_TABLE_CELLS || crate::environment::wide_ranks()?)
}

/// A search of one class over ranks `0..states` (the module's text), one level at a time,
/// in the rank width its board needs ([`wide_ranks`]): what [`solve_by_residues`] runs to
/// the end, and what a search that keeps checkpoints (`resume.rs`) stops between two levels
/// to copy its entries.
pub(crate) enum Search {
    /// Ranks within a blank cell's block in 32 bits: up to 14 cells.
    Narrow(InWidth<Ranker>),
    /// In 64 bits: 15 and 16 cells.
    Wide(InWidth<WideRanker>),
}

/// `$body` with `$s` bound to the search of either width.
macro_rules! either {
    ($search:expr, $s:ident => $body:expr) => {
        match $search {
            Search::Narrow($s) => $body,
            Search::Wide($s) => $body,
        }
    };
}

impl Search {
    /// A search from `goal`: level 0 found (`progress` told its one state).
    pub(crate) fn new(goal: &Layout, progress: &(dyn Fn(u64) + Sync)) -> Result<Search, GenError> {
        Ok(if wide_ranks(goal.board())? {
            Search::Wide(InWidth::new(goal, progress)?)
        } else {
            Search::Narrow(InWidth::new(goal, progress)?)
        })
    }

    /// The search from `goal` as a checkpoint left it ([`InWidth::resume`]).
    pub(crate) fn resume(
        goal: &Layout,
        words: Vec<AtomicU64>,
        histogram: Vec<u64>,
    ) -> Result<Search, GenError> {
        Ok(if wide_ranks(goal.board())? {
            Search::Wide(InWidth::resume(goal, words, histogram)?)
        } else {
            Search::Narrow(InWidth::resume(goal, words, histogram)?)
        })
    }

    /// The words a search of `states` ranks keeps its entries in.
    pub(crate) fn words_for(states: u64) -> usize {
        entry_words(states)
    }

    /// The entries' words as they are between two levels.
    pub(crate) fn words(&self) -> &[AtomicU64] {
        either!(self, s => s.residues.words())
    }

    /// The histogram of the levels found so far.
    pub(crate) fn histogram(&self) -> &[u64] {
        either!(self, s => &s.levels.histogram)
    }

    /// Whether every level is found.
    pub(crate) fn over(&self) -> bool {
        either!(self, s => s.levels.over())
    }

    /// Finds the next level ([`InWidth::step`]).
    pub(crate) fn step(&mut self, progress: &(dyn Fn(u64) + Sync)) {
        either!(self, s => s.step(progress))
    }

    /// The solved section (call once [`Search::over`]).
    pub(crate) fn into_section(self) -> SolvedSection {
        either!(self, s => s.into_section())
    }
}

/// [`Search`] in the width of `R`.
pub(crate) struct InWidth<R: Ranks> {
    scan: Scan<R>,
    goal: Layout,
    residues: Residues,
    /// Level `depth`'s states (top-down passes); `None` once the passes are bottom-up.
    frontier: Option<Vec<AtomicU64>>,
    /// The same states as a list, while the levels are small (the first levels from the
    /// goal, at most [`listed_most`] states): expanded from the list instead of a pass over
    /// the whole bitmap. `None` from the first larger level on.
    few: Option<Vec<u64>>,
    levels: Levels,
}

/// The most states a level may have to be expanded from a list ([`InWidth::step`]) on a
/// bitmap of up to 2²³ frontier words (every board up to 12 cells): a pass over the
/// bitmap reads all of it (30 MB on 12 cells, a few milliseconds) however few its states,
/// and the first fifteen or so levels from the goal have fewer than this.
const FEW: u64 = 1 << 14;

/// The most states a level may have to be expanded from a list, in a search whose bitmap
/// (one process's, in parts) has `words` frontier words: [`FEW`], or one for every 512
/// words of a larger bitmap, up to 2²⁰. A pass over the bitmap goes through every word, 8
/// bytes each at a few GB/s (2×7 in 2 parts: 2.7 GB a process, 0.55–0.65 s a level,
/// however few its states), while a listed state costs its moves, a few hundred ns on one
/// thread: at one state for 512 words the list costs a fraction of the pass it replaces on
/// two cores (2×7 on one machine: levels 0–28 of its histogram, each at most 965 K states;
/// in 2 parts levels 0–27, at most 665 K), and at most 2²⁰ states (a fifth of a second)
/// keep it so on a machine of many cores, whose pass is quicker. One rule for the
/// one-machine search and the search in parts (`parts.rs`, where it holds for the level's
/// states in every part together).
pub(crate) fn listed_most(words: usize) -> u64 {
    FEW.max(words as u64 / 512).min(1 << 20)
}

impl<R: Ranks> InWidth<R> {
    /// A search from `goal`: level 0 found (`progress` told its one state).
    fn new(goal: &Layout, progress: &(dyn Fn(u64) + Sync)) -> Result<InWidth<R>, GenError> {
        let scan = Scan::<R>::build(goal.board(), goal.class(), true)?;
        let states = scan.ranker().states();
        let residues = Residues::new(0..states);
        let frontier = words_of(frontier_words(states), 0);
        let rank = scan.ranker().rank(goal);
        residues.reach(rank, 0, &frontier);
        progress(1);
        Ok(InWidth {
            scan,
            goal: *goal,
            residues,
            frontier: Some(frontier),
            few: Some(vec![rank]),
            levels: Levels {
                histogram: vec![1],
                states,
            },
        })
    }

    /// The search from `goal` as a checkpoint left it: its entries (`words`, as
    /// [`Search::words`] gave them) and the histogram of the levels found; the frontier is
    /// rebuilt from the entries when the next pass is top-down ([`rebuild_frontier`]).
    fn resume(
        goal: &Layout,
        words: Vec<AtomicU64>,
        histogram: Vec<u64>,
    ) -> Result<InWidth<R>, GenError> {
        let scan = Scan::<R>::build(goal.board(), goal.class(), true)?;
        let states = scan.ranker().states();
        let residues = Residues::from_words(words, 0..states);
        let levels = Levels { histogram, states };
        let frontier = (!levels.over() && !levels.bottom_up()).then(|| {
            let frontier = words_of(frontier_words(states), 0);
            rebuild_frontier(&scan, &residues, &frontier, levels.depth());
            frontier
        });
        Ok(InWidth {
            scan,
            goal: *goal,
            residues,
            frontier,
            few: None,
            levels,
        })
    }

    /// Finds the next level (top-down through the frontier, or bottom-up once the level
    /// outnumbers the states unseen, the frontier then dropped); `progress` is told the states
    /// it settles as it goes.
    fn step(&mut self, progress: &(dyn Fn(u64) + Sync)) {
        let depth = self.levels.depth();
        if self.levels.bottom_up() {
            // Bottom-up from here on: the bitmap is no longer needed.
            self.frontier = None;
        }
        let found = match (&self.frontier, self.few.take()) {
            (Some(f), Some(few)) => {
                let next = expand_few(&self.scan, &self.residues, f, &few, depth, &mut |_, _| {});
                progress(next.len() as u64);
                let found = next.len() as u64;
                let most = listed_most(f.len());
                self.few = (next.len() as u64 <= most).then_some(next);
                found
            }
            (Some(f), None) => expand_top_down(&self.scan, &self.residues, f, depth, progress),
            (None, _) => expand_bottom_up(&self.scan, &self.residues, depth, progress),
        };
        self.levels.histogram.push(found);
    }

    /// The solved section (call once every level is found).
    fn into_section(self) -> SolvedSection {
        let InWidth {
            goal,
            residues,
            frontier,
            levels,
            ..
        } = self;
        drop(frontier);
        let mut histogram = levels.histogram;
        if histogram.last() == Some(&0) {
            histogram.pop();
        }
        let states = levels.states;
        SolvedSection {
            goal,
            entries: words_into_payload(residues.into_words(), states),
            histogram,
            encoding: Encoding::TwoBit,
            cost: CostModel::Unit,
        }
    }
}

/// Level `depth`'s top-down pass from the list of its states `few` (in the frontier too, as
/// [`expand_top_down`] has them; in rank order): each is expanded and its bit cleared, and
/// every neighbour it reaches first is set in the frontier and listed. A neighbour `n` of
/// state `r` outside the slice of `residues` goes to `far(r, n)` (the search in parts hands
/// `r` to the owner of `n`; one machine has none). Returns the states of level `depth + 1`
/// it reached, in rank order. The same entries and frontier as the pass over the bitmap,
/// without reading the whole bitmap for a few states: what the first levels from the goal
/// take, on one machine and in parts.
pub(crate) fn expand_few<R: Ranks>(
    scan: &Scan<R>,
    residues: &Residues,
    frontier: &[AtomicU64],
    few: &[u64],
    depth: u32,
    far: &mut dyn FnMut(u64, u64),
) -> Vec<u64> {
    let new = (depth + 1) % 3;
    let Range { start: first, end } = residues.slice();
    let mut cursor = scan.cursor();
    let mut next = Vec::new();
    for &r in few {
        scan.any_neighbor(&mut cursor, r, |_, n| {
            if n < first || n >= end {
                far(r, n);
            } else if residues.reach(n, new, frontier) {
                next.push(n);
            }
            false
        });
        let i = r - first;
        frontier[(i >> 6) as usize].fetch_and(!(1 << (i & 63)), Relaxed);
    }
    next.sort_unstable();
    next
}

/// Solves `goal`'s class into 2-bit entries in the entries' memory plus one bit a state (see
/// the module's text); `progress` is told how many states the search settles as it goes.
pub(crate) fn solve_by_residues(
    goal: &Layout,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SolvedSection, GenError> {
    let mut search = Search::new(goal, progress)?;
    while !search.over() {
        search.step(progress);
    }
    Ok(search.into_section())
}

/// The little-endian bytes of `words`, the first `entries` 2-bit entries of them, made a
/// piece at a time from the end while `words` shrinks, so that memory holds little more than
/// one copy of the entries (10.9 GB for 2×7) at any moment.
fn words_into_payload(mut words: Vec<u64>, entries: u64) -> Vec<u8> {
    const PIECE: usize = 1 << 23; // words: 64 MB
    let len = entries.div_ceil(4) as usize;
    let mut bytes = vec![0u8; words.len() * 8];
    while !words.is_empty() {
        let from = words.len().saturating_sub(PIECE);
        bytes[from * 8..words.len() * 8]
            .par_chunks_mut(8)
            .zip(words[from..].par_iter())
            .for_each(|(out, w)| out.copy_from_slice(&w.to_le_bytes()));
        words.truncate(from);
        words.shrink_to_fit();
    }
    bytes.truncate(len);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve_by_scan;
    use slidetable_core::Board;
    use slidetable_format::{byte_distance, two_bit_value};

    /// The entries are the distances mod 3 of the byte search by scanning (an independent
    /// search: bitmaps, and a first move per state).
    #[test]
    fn the_distances_of_the_scan_search_mod_3_on_every_board_up_to_ten_cells() {
        for (rows, cols) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (2, 5),
            (5, 2),
        ] {
            let board = Board::new(rows, cols).unwrap();
            for blank in [0, board.cells() - 1, board.cells() / 2] {
                let goal = board.goal_with_blank(blank);
                let bytes = solve_by_scan(&goal, Encoding::Byte, &|_| {}).unwrap();
                let new = solve_by_residues(&goal, &|_| {}).unwrap();
                assert_eq!(new.histogram, bytes.histogram, "{board} {goal}");
                assert_eq!(new.entries.len(), bytes.entries.len().div_ceil(4));
                for (r, &e) in bytes.entries.iter().enumerate() {
                    assert_eq!(
                        two_bit_value(&new.entries, r as u64),
                        byte_distance(e) % 3,
                        "{board} {goal} rank {r}"
                    );
                }
            }
        }
    }

    /// Resumed from its entries alone after any level (the frontier rebuilt), a search finds
    /// the same levels and entries as one never stopped.
    #[test]
    fn a_search_resumed_from_its_entries_after_any_level_ends_the_same() {
        for (rows, cols) in [(2, 3), (3, 2), (2, 4), (3, 3)] {
            let board = Board::new(rows, cols).unwrap();
            for blank in [0, board.cells() - 1, board.cells() / 2] {
                let goal = board.goal_with_blank(blank);
                let want = solve_by_residues(&goal, &|_| {}).unwrap();
                let mut search = Search::new(&goal, &|_| {}).unwrap();
                while !search.over() {
                    let words = search
                        .words()
                        .iter()
                        .map(|w| AtomicU64::new(w.load(Relaxed)))
                        .collect();
                    let mut resumed =
                        Search::resume(&goal, words, search.histogram().to_vec()).unwrap();
                    while !resumed.over() {
                        resumed.step(&|_| {});
                    }
                    let level = search.histogram().len() - 1;
                    let got = resumed.into_section();
                    assert_eq!(got.histogram, want.histogram, "{goal} after {level}");
                    assert!(got.entries == want.entries, "{goal} after {level}");
                    search.step(&|_| {});
                }
            }
        }
    }

    /// The search in 64-bit ranks (what 15 and 16 cells take) on boards the 32-bit one
    /// searches too: the same levels and the same entries, byte for byte, from a fresh start
    /// and resumed after a level.
    #[test]
    fn the_wide_search_is_the_narrow_one_byte_for_byte() {
        for (rows, cols) in [(2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (5, 2)] {
            let board = Board::new(rows, cols).unwrap();
            for blank in [0, board.cells() - 1, board.cells() / 2 + 1] {
                let goal = board.goal_with_blank(blank);
                let want = solve_by_residues(&goal, &|_| {}).unwrap();
                let mut wide = Search::Wide(InWidth::new(&goal, &|_| {}).unwrap());
                let mut halfway = None;
                while !wide.over() {
                    if wide.histogram().len() == want.histogram.len() / 2 {
                        let words = wide.words().iter().map(|w| w.load(Relaxed)).collect();
                        halfway = Some((words, wide.histogram().to_vec()));
                    }
                    wide.step(&|_| {});
                }
                let got = wide.into_section();
                assert_eq!(got.histogram, want.histogram, "{goal}");
                assert!(got.entries == want.entries, "{goal}");
                let (words, histogram): (Vec<u64>, _) = halfway.unwrap();
                let words = words.into_iter().map(AtomicU64::new).collect();
                let mut resumed = InWidth::<WideRanker>::resume(&goal, words, histogram).unwrap();
                while !resumed.levels.over() {
                    resumed.step(&|_| {});
                }
                assert!(resumed.into_section().entries == want.entries, "{goal}");
            }
        }
    }

    #[test]
    fn the_payload_is_the_words_little_endian() {
        let words: Vec<u64> = (0..3 * (1u64 << 23) + 5).map(|i| i * 0x0101_0305).collect();
        let mut want = Vec::new();
        for w in &words {
            want.extend_from_slice(&w.to_le_bytes());
        }
        let entries = words.len() as u64 * 32 - 7;
        want.truncate(entries.div_ceil(4) as usize);
        assert!(words_into_payload(words, entries) == want);
    }

    #[test]
    fn unseen_counts_only_the_slice() {
        let r = Residues::new(0..100);
        assert_eq!(r.unseen(), 100);
        let f = words_of(frontier_words(100), 0);
        assert!(r.reach(99, 1, &f));
        assert!(!r.reach(99, 2, &f));
        assert_eq!((r.value(99), r.unseen()), (1, 99));
        assert_eq!(f[1].load(Relaxed), 1 << 35);
    }

    /// A xorshift generator from `seed`, for the tests' random cases.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// Entries of ranks `first..first + len`, every one unseen, and an empty frontier.
    fn unseen(first: u64, len: u64) -> (Residues, Vec<AtomicU64>) {
        (
            Residues::new(first..first + len),
            words_of(frontier_words(len), 0),
        )
    }

    /// Ranks reached in runs (those in one word of entries one after the other, as a
    /// top-down pass gathers a move's neighbours) end as reached one at a time: the same
    /// count, entries and frontier, with ranks already reached, repeated, or in words of
    /// their own among them.
    #[test]
    fn reaching_in_runs_is_reaching_one_at_a_time() {
        let (first, len) = (128u64, 1000u64);
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for round in 0..500 {
            let value = round % 3;
            let ((one, f_one), (runs, f_runs)) = (unseen(first, len), unseen(first, len));
            for _ in 0..next() % 300 {
                let r = first + next() % len;
                let earlier = (value + 1 + (next() % 2) as u32) % 3;
                one.settle(r, earlier);
                runs.settle(r, earlier);
            }
            let mut ranks = Vec::new();
            let mut r = first + next() % len;
            for _ in 0..next() % 200 {
                ranks.push(r);
                r = match next() % 8 {
                    0 => first + next() % len,
                    1 => r,
                    _ => (r + 1 + next() % 3).min(first + len - 1),
                };
            }
            let want = ranks
                .iter()
                .filter(|&&r| one.reach(r, value, &f_one))
                .count();
            let got = runs.view().reach_runs(&ranks, value, &f_runs);
            assert_eq!(got, want as u64, "round {round}");
            let words = |w: &[AtomicU64]| w.iter().map(|w| w.load(Relaxed)).collect::<Vec<_>>();
            assert_eq!(words(runs.words()), words(one.words()), "round {round}");
            assert_eq!(words(&f_runs), words(&f_one), "round {round}");
        }
    }

    /// A word of states reached at once at any offset is each of them reached alone.
    #[test]
    fn reaching_a_shifted_word_is_reaching_one_at_a_time() {
        let (first, len) = (192u64, 700u64);
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..2000 {
            let value = round % 3;
            let ((one, f_one), (word, f_word)) = (unseen(first, len), unseen(first, len));
            for _ in 0..next() % 300 {
                let r = first + next() % len;
                one.settle(r, (value + 1) % 3);
                word.settle(r, (value + 1) % 3);
            }
            // Every alignment, the lowest bit set, the word's last rank at the slice's end.
            let at = match round % 4 {
                0 => len - 64,
                _ => next() % (len - 63),
            };
            let bits = next() & next() | 1;
            let want = (0..64)
                .filter(|&k| bits >> k & 1 != 0 && one.reach(first + at + k, value, &f_one))
                .count();
            let got = word.view().reach_shifted(at, bits, value, &f_word);
            assert_eq!(got, want as u64, "round {round}");
            let words = |w: &[AtomicU64]| w.iter().map(|w| w.load(Relaxed)).collect::<Vec<_>>();
            assert_eq!(words(word.words()), words(one.words()), "round {round}");
            assert_eq!(words(&f_word), words(&f_one), "round {round}");
        }
    }
}
