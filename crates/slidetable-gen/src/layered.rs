//! Breadth-first search on every core, in memory close to the table's own size: the layers
//! live in bitmaps of one bit per rank (12!/2 bits = 30 MB for the largest boards), not in
//! queues.
//!
//! Three bitmaps: `seen` (every state at distance ≤ d), `frontier` (exactly d) and `next`
//! (exactly d + 1, being found). Each layer is found one of two ways, whichever is cheaper:
//!
//! * **top-down** — every frontier state (scanned in rank order, in parallel chunks) tries
//!   its moves and marks each neighbour that is not `seen` in `next` (an atomic OR: marking
//!   twice is harmless, so threads need no other coordination);
//! * **bottom-up** — once the frontier outnumbers the states still unseen, every unseen
//!   state looks for a neighbour in the frontier instead; each thread owns whole words of
//!   `next`, so nothing is shared.
//!
//! Then one pass over `next` settles the new layer's entries (each thread owns the entry
//! words its bitmap words cover) and adds it to `seen`. The entries are written once per
//! state and never read during the search: all membership tests go to the bitmaps, which are
//! half the size of the 2-bit entries (a quarter of the bytes ones) and stay in cache longer.
//!
//! Entries are deterministic whatever the threads do: a 2-bit entry is the distance mod 3, and
//! a byte entry's first move is the first in code order (u d l r) that reaches the layer before.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{factorial, Board, Layout, Move, Neighbors, Ranker};
use slidetable_format::{byte_entry, Encoding};

use crate::{GenError, Section};
use slidetable_format::CostModel;

/// Bitmap words per parallel work item (4096 words = 262,144 ranks).
const CHUNK: usize = 4096;

/// The entries a layered search fills in.
enum Entries {
    Byte(Vec<u8>),
    /// 32 entries per word, entry `r` in bits `2·(r mod 32)` of word `r / 32`.
    TwoBit(Vec<u64>),
}

/// The moves of a state and its neighbours' ranks, shared by every pass.
struct Space {
    ranker: Ranker,
    moves: Neighbors,
    class: u8,
    board: Board,
    /// Ranks per prefix: the suffix of the last `tail` tiles is ranked in `0..span`.
    span: u32,
    /// Tiles in the suffix (all but the first `prefix_digits` in reading order).
    tail: usize,
    prefix_digits: usize,
    /// For each suffix rank: the suffix as indices into its sorted tiles (nibble j = index of
    /// the j-th tile; last two ascending) in bits 0..32, its Lehmer digits (nibble j = digit
    /// of suffix position j) in bits 32..56, and bit 63 = the parity of those digits.
    suffixes: Vec<u64>,
    /// The rank's weight of each sequence position: (m−1−i)!/2, and 0 for the last two.
    weights: [u32; 16],
}

/// A thread's unranking state: the last prefix it unranked, which the ranks that follow in a
/// scan nearly always share (a prefix covers `span` = 360 consecutive ranks).
#[derive(Clone, Copy)]
struct Cursor {
    key: u32,
    blank: usize,
    /// The prefix's tiles in sequence order, first in the lowest nibble.
    prefix: u64,
    /// The suffix's tiles in increasing order, as nibbles.
    sorted: u64,
    /// The parity class the suffix's last two tiles must give if left ascending.
    parity: u8,
    /// The prefix's Lehmer digits, as nibbles.
    digits: u64,
}

/// A state as the neighbour ranking needs it: the tiles in reading order without the blank
/// (first in the lowest nibble), each position's Lehmer digit (the later tiles smaller than
/// it, also for the last two positions), and the blank's cell.
#[derive(Clone, Copy)]
struct State {
    seq: u64,
    digits: u64,
    blank: usize,
}

impl Space {
    fn new(goal: &Layout) -> Result<Space, GenError> {
        let board = goal.board();
        let ranker = Ranker::new(board)?;
        let m = board.cells() - 1;
        let tail = m.min(6);
        let prefix_digits = m - tail;
        let span = (factorial(tail) / 2) as u32;
        // Lehmer digits of the suffix: weights (tail−1−i)!/2 for i < tail − 2.
        let weights: Vec<u32> = (0..tail - 2)
            .map(|i| (factorial(tail - 1 - i) / 2) as u32)
            .collect();
        let suffixes = (0..span)
            .map(|lo| {
                let mut r = lo;
                let mut left: Vec<u64> = (0..tail as u64).collect();
                let (mut pattern, mut digits, mut parity) = (0u64, 0u64, 0u64);
                for (j, &w) in weights.iter().enumerate() {
                    let d = r / w;
                    r %= w;
                    parity += u64::from(d);
                    digits |= u64::from(d) << (4 * j);
                    pattern |= left.remove(d as usize) << (4 * j);
                }
                pattern |= left[0] << (4 * (tail - 2)) | left[1] << (4 * (tail - 1));
                pattern | digits << 32 | (parity & 1) << 63
            })
            .collect();
        let mut position_weights = [0u32; 16];
        for (i, w) in position_weights.iter_mut().enumerate().take(m - 2) {
            *w = (factorial(m - 1 - i) / 2) as u32;
        }
        Ok(Space {
            ranker,
            moves: Neighbors::new(board),
            class: goal.class(),
            board,
            span,
            tail,
            prefix_digits,
            suffixes,
            weights: position_weights,
        })
    }

    fn cursor(&self) -> Cursor {
        Cursor {
            key: u32::MAX,
            blank: 0,
            prefix: 0,
            sorted: 0,
            parity: 0,
            digits: 0,
        }
    }

    /// The packed layout and blank of `rank`, reusing the cursor's prefix when it can.
    #[cfg(test)]
    fn unrank(&self, cursor: &mut Cursor, rank: u32) -> (u64, usize) {
        let State { seq, blank, .. } = self.state(cursor, rank);
        let below = (1u64 << (4 * blank)) - 1;
        ((seq & below) | ((seq & !below) << 4), blank)
    }

    /// The state of `rank`, reusing the cursor's prefix when it can.
    #[inline]
    fn state(&self, cursor: &mut Cursor, rank: u32) -> State {
        let key = rank / self.span;
        if key != cursor.key {
            self.load_prefix(cursor, key);
        }
        let entry = self.suffixes[(rank - key * self.span) as usize];
        let mut suffix = 0u64;
        for j in 0..self.tail {
            let index = (entry >> (4 * j)) & 0xF;
            suffix |= ((cursor.sorted >> (4 * index)) & 0xF) << (4 * j);
        }
        let top = 4 * (self.tail - 2);
        let mut last = 0u64;
        if (entry >> 63) as u8 != cursor.parity {
            // The other order of the last two tiles lands in the class asked for.
            let two = (suffix >> top) & 0xFF;
            suffix = (suffix & !(0xFF << top)) | ((two >> 4) | (two & 0xF) << 4) << top;
            last = 1;
        }
        let cut = 4 * self.prefix_digits;
        let suffix_digits = (entry >> 32) & ((1u64 << top) - 1);
        State {
            seq: cursor.prefix | suffix << cut,
            digits: cursor.digits | (suffix_digits | last << top) << cut,
            blank: cursor.blank,
        }
    }

    /// The rank of the state `at` (of rank `rank`) after the blank moves vertically to `to`:
    /// one tile jumps over `cols − 1` others in the reading order, so only those positions'
    /// Lehmer digits change, by one each, and the jumping tile's by how many it passed.
    #[inline(always)]
    fn vertical(&self, at: &State, rank: u32, to: usize) -> u32 {
        let nib = |x: u64, i: usize| ((x >> (4 * i)) & 0xF) as i64;
        let w = |i: usize| i64::from(self.weights[i]);
        let b = at.blank;
        let mut delta = (to as i64 - b as i64) * i64::from(self.ranker.block());
        if to > b {
            // Down: the tile at position to − 1 moves to position b; b..to−1 shift right.
            let (p, q) = (b, to - 1);
            let (x, xc) = (nib(at.seq, q), nib(at.digits, q));
            let mut smaller = 0;
            for j in p..q {
                let (e, ce) = (nib(at.seq, j), nib(at.digits, j));
                delta += (ce - i64::from(x < e)) * w(j + 1) - ce * w(j);
                smaller += i64::from(e < x);
            }
            delta += (xc + smaller) * w(p) - xc * w(q);
        } else {
            // Up: the tile at position to moves to position b − 1; to+1..b−1 shift left.
            let (p, q) = (to, b - 1);
            let (x, xc) = (nib(at.seq, p), nib(at.digits, p));
            let mut smaller = 0;
            for j in p + 1..=q {
                let (e, ce) = (nib(at.seq, j), nib(at.digits, j));
                delta += (ce + i64::from(x < e)) * w(j - 1) - ce * w(j);
                smaller += i64::from(e < x);
            }
            delta += (xc - smaller) * w(q) - xc * w(p);
        }
        (i64::from(rank) + delta) as u32
    }

    #[cold]
    fn load_prefix(&self, cursor: &mut Cursor, key: u32) {
        // The prefix is the layout of the first rank that has it, minus its suffix.
        let first = key * self.span;
        let (packed, blank) = self.ranker.unrank_packed(first, 0);
        let below = (1u64 << (4 * blank)) - 1;
        let seq = (packed & below) | ((packed >> 4) & !below);
        let cut = 4 * self.prefix_digits;
        let prefix = seq & ((1u64 << cut) - 1);
        let mut inversions = 0u32;
        let mut placed = 0u32;
        let mut digits = 0u64;
        let all = (1u32 << (self.board.cells())) - 2;
        for i in 0..self.prefix_digits {
            let t = ((prefix >> (4 * i)) & 0xF) as u32;
            inversions += (placed >> t).count_ones();
            // Tiles smaller than t that come later: not yet placed.
            digits |= u64::from((all & !placed & ((1 << t) - 1)).count_ones()) << (4 * i);
            placed |= 1 << t;
        }
        let mut rest = all & !placed;
        // Every suffix tile smaller than a prefix tile is one inversion with it.
        for i in 0..self.prefix_digits {
            let t = ((prefix >> (4 * i)) & 0xF) as u32;
            inversions += (rest & ((1 << t) - 1)).count_ones();
        }
        let mut sorted = 0u64;
        let mut j = 0;
        while rest != 0 {
            sorted |= u64::from(rest.trailing_zeros()) << (4 * j);
            rest &= rest - 1;
            j += 1;
        }
        // With the suffix's own digits summing to an even number and its last two tiles
        // ascending, the class would be this.
        let row_term = (self.board.cols() - 1) * (blank / self.board.cols());
        let base = ((inversions as usize + row_term) & 1) as u8;
        *cursor = Cursor {
            key,
            blank,
            prefix,
            sorted,
            parity: base ^ self.class,
            digits,
        };
    }

    /// Calls `f(move, neighbour rank)` for each legal move from `rank`, in code order, until
    /// `f` returns true; whether it did.
    #[inline]
    fn any_neighbor(
        &self,
        cursor: &mut Cursor,
        rank: u32,
        mut f: impl FnMut(Move, u32) -> bool,
    ) -> bool {
        let at = self.state(cursor, rank);
        let block = self.ranker.block();
        for &(m, to) in self.moves.from(at.blank) {
            let next = match m {
                // A horizontal move keeps the tiles' reading order: one block over.
                Move::Left => rank - block,
                Move::Right => rank + block,
                Move::Up | Move::Down => self.vertical(&at, rank, to as usize),
            };
            if f(m, next) {
                return true;
            }
        }
        false
    }
}

#[inline]
fn test(bits: &[AtomicU64], rank: u32) -> bool {
    bits[rank as usize >> 6].load(Relaxed) & (1 << (rank & 63)) != 0
}

/// Calls `f(rank)` for every set bit of `word`, the bitmap's word `index`.
#[inline]
fn each_bit(index: usize, mut word: u64, mut f: impl FnMut(u32)) {
    let base = (index as u32) << 6;
    while word != 0 {
        f(base + word.trailing_zeros());
        word &= word - 1;
    }
}

fn bitmap(words: usize) -> Vec<AtomicU64> {
    (0..words).map(|_| AtomicU64::new(0)).collect()
}

/// Spreads the 32 bits of `x` to the even bit positions of a `u64`.
#[inline]
fn spread(x: u32) -> u64 {
    let mut v = u64::from(x);
    v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
    v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF;
    v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    v = (v | (v << 2)) & 0x3333_3333_3333_3333;
    v = (v | (v << 1)) & 0x5555_5555_5555_5555;
    v
}

/// Solves `goal`'s class with every core, into byte or 2-bit entries; `progress` is told how
/// many states each layer settles.
pub fn solve_layered(
    goal: &Layout,
    encoding: Encoding,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Section, GenError> {
    let space = Space::new(goal)?;
    let ranker = space.ranker;
    let states = ranker.states() as usize;
    let words = states.div_ceil(64);
    // The bits of the last word that are ranks.
    let last_valid = match states % 64 {
        0 => u64::MAX,
        k => (1u64 << k) - 1,
    };
    let valid = |index: usize| {
        if index + 1 == words {
            last_valid
        } else {
            u64::MAX
        }
    };
    let mut entries = match encoding {
        Encoding::Byte => Entries::Byte(vec![0; states]),
        Encoding::TwoBit => Entries::TwoBit(vec![0; words * 2]),
        Encoding::Wide16 => unreachable!("the layered search writes byte or 2-bit entries"),
    };
    let seen = bitmap(words);
    let mut frontier = bitmap(words);
    let mut next = bitmap(words);
    let goal_rank = ranker.rank(goal);
    for bits in [&seen, &frontier] {
        bits[goal_rank as usize >> 6].fetch_or(1 << (goal_rank & 63), Relaxed);
    }
    // The goal's entry is 0 in both encodings, as the zeroed entries already say.
    let mut histogram = vec![1u64];
    let mut reached = 1u64;
    progress(1);
    let max = encoding.max_distance();
    let mut depth = 0u32;
    while reached < states as u64 {
        let in_frontier = histogram[depth as usize];
        let unseen = states as u64 - reached;
        if in_frontier > unseen {
            next.par_chunks(CHUNK).enumerate().for_each(|(chunk, out)| {
                let mut cursor = space.cursor();
                for (i, out) in out.iter().enumerate() {
                    let index = chunk * CHUNK + i;
                    let mut found = 0u64;
                    each_bit(index, !seen[index].load(Relaxed) & valid(index), |r| {
                        if space.any_neighbor(&mut cursor, r, |_, n| test(&frontier, n)) {
                            found |= 1 << (r & 63);
                        }
                    });
                    out.store(found, Relaxed);
                }
            });
        } else {
            frontier
                .par_chunks(CHUNK)
                .enumerate()
                .for_each(|(chunk, words)| {
                    let mut cursor = space.cursor();
                    for (i, w) in words.iter().enumerate() {
                        each_bit(chunk * CHUNK + i, w.load(Relaxed), |r| {
                            space.any_neighbor(&mut cursor, r, |_, n| {
                                let (k, bit) = (n as usize >> 6, 1u64 << (n & 63));
                                if (seen[k].load(Relaxed) | next[k].load(Relaxed)) & bit == 0 {
                                    next[k].fetch_or(bit, Relaxed);
                                }
                                false
                            });
                        });
                    }
                });
        }
        depth += 1;
        let found = settle(&mut entries, &space, &seen, &frontier, &next, depth);
        if found == 0 {
            // Only when the class is not connected, which the parity rule rules out.
            break;
        }
        if depth > max {
            return Err(GenError::TooDeep {
                goal: *goal,
                max: max.min(63),
            });
        }
        histogram.push(found);
        reached += found;
        progress(found);
        std::mem::swap(&mut frontier, &mut next);
        next.par_iter().for_each(|w| w.store(0, Relaxed));
    }
    let entries = match entries {
        Entries::Byte(bytes) => bytes,
        Entries::TwoBit(words) => {
            let len = Encoding::TwoBit
                .payload_len(states as u64)
                .expect("small boards") as usize;
            let mut bytes = Vec::with_capacity(words.len() * 8);
            for w in words {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            bytes.truncate(len);
            bytes
        }
    };
    Ok(Section {
        goal: *goal,
        entries,
        histogram,
        encoding,
        cost: CostModel::Unit,
    })
}

/// Writes the entries of the states in `next` (found at `depth`), adds them to `seen`, and
/// counts them. Each thread owns the words it is given, of the bitmaps and of the entries.
fn settle(
    entries: &mut Entries,
    space: &Space,
    seen: &[AtomicU64],
    frontier: &[AtomicU64],
    next: &[AtomicU64],
    depth: u32,
) -> u64 {
    let add = |index: usize| {
        let found = next[index].load(Relaxed);
        seen[index].fetch_or(found, Relaxed);
        found
    };
    match entries {
        Entries::TwoBit(words) => {
            let shift = depth % 3;
            words
                .par_chunks_mut(CHUNK * 2)
                .enumerate()
                .map(|(chunk, out)| {
                    let mut count = 0u64;
                    for (i, pair) in out.chunks_mut(2).enumerate() {
                        let found = add(chunk * CHUNK + i);
                        if found == 0 {
                            continue;
                        }
                        count += u64::from(found.count_ones());
                        // Value 1 sets the low bit of each 2-bit entry, value 2 the high bit.
                        if shift != 0 {
                            pair[0] |= spread(found as u32) << (shift - 1);
                            pair[1] |= spread((found >> 32) as u32) << (shift - 1);
                        }
                    }
                    count
                })
                .sum()
        }
        Entries::Byte(bytes) => bytes
            .par_chunks_mut(CHUNK * 64)
            .enumerate()
            .map(|(chunk, out)| {
                let mut count = 0u64;
                let mut cursor = space.cursor();
                for (i, out) in out.chunks_mut(64).enumerate() {
                    let index = chunk * CHUNK + i;
                    let found = add(index);
                    count += u64::from(found.count_ones());
                    each_bit(index, found, |r| {
                        let mut first = Move::Up;
                        space.any_neighbor(&mut cursor, r, |m, n| {
                            first = m;
                            test(frontier, n)
                        });
                        out[(r & 63) as usize] = byte_entry(depth.min(63), first);
                    });
                }
                count
            })
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_unranks_as_the_ranker_does() {
        for (rows, cols) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (3, 3),
            (3, 4),
            (4, 3),
            (2, 6),
            (6, 2),
        ] {
            let board = Board::new(rows, cols).unwrap();
            for goal in [board.standard_goal(), board.goal_with_blank(0)] {
                let space = Space::new(&goal).unwrap();
                let mut cursor = space.cursor();
                let states = space.ranker.states();
                let step = (states / 20_000).max(1) as usize;
                for r in (0..states).step_by(step).chain(states - 5..states) {
                    let (packed, blank) = space.ranker.unrank_packed(r, goal.class());
                    assert_eq!(
                        space.unrank(&mut cursor, r),
                        (packed, blank),
                        "{board} rank {r}"
                    );
                    // Every neighbour's rank, as the ranker computes it from scratch.
                    let mut moves = space.moves.from(blank).iter();
                    space.any_neighbor(&mut cursor, r, |m, n| {
                        let &(want_m, to) = moves.next().unwrap();
                        let to = to as usize;
                        let moved = slidetable_core::slide(packed, blank, to);
                        assert_eq!(m, want_m);
                        assert_eq!(n, space.ranker.rank_packed(moved, to), "{board} {r} {m:?}");
                        false
                    });
                }
            }
        }
    }

    #[test]
    fn spreading_puts_bit_i_at_2i() {
        assert_eq!(spread(0b1011), 0b01_00_01_01);
        assert_eq!(spread(u32::MAX), 0x5555_5555_5555_5555);
        assert_eq!(spread(1 << 31), 1 << 62);
    }
}
