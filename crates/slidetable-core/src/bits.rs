//! A bitmap of one bit per rank that many threads set at once: the level sets of the
//! breadth-first searches that scan ranks instead of keeping queues (the generator's scan
//! search, the query crate's recovery of distances from 2-bit entries, the pattern
//! databases' search).
//!
//! Setting a bit is an atomic OR, so setting it twice, from any threads, is harmless and
//! needs no other coordination. Every access is `Relaxed`: a search reads a bitmap only after
//! the parallel pass that wrote it has ended (rayon joins its threads, which orders the
//! writes before the reads).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::{Scan, Sideways};

/// `len` bits in 64-bit atomic words, bit `i` in bit `i mod 64` of word `i / 64`.
#[derive(Debug, Default)]
pub struct AtomicBitmap {
    words: Vec<AtomicU64>,
    len: usize,
}

impl AtomicBitmap {
    /// A bitmap of at least `len` bits (rounded up to whole words), all clear.
    pub fn new(len: usize) -> AtomicBitmap {
        AtomicBitmap {
            words: (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            len,
        }
    }

    /// Whether bit `i` is set.
    ///
    /// # Panics
    ///
    /// If `i` is past the bitmap's length (a hot read of the scanning searches, whose ranks
    /// are below the bitmap's length by construction).
    #[inline]
    pub fn test(&self, i: u64) -> bool {
        self.words[i as usize >> 6].load(Relaxed) & (1 << (i & 63)) != 0
    }

    /// Sets bit `i`.
    ///
    /// # Panics
    ///
    /// If `i` is past the bitmap's length (a hot read of the scanning searches, whose ranks
    /// are below the bitmap's length by construction).
    #[inline]
    pub fn set(&self, i: u64) {
        self.words[i as usize >> 6].fetch_or(1 << (i & 63), Relaxed);
    }

    /// Word `index` (bits `64·index ..`).
    ///
    /// # Panics
    ///
    /// If `index` is past the bitmap's words.
    #[inline]
    pub fn word(&self, index: usize) -> u64 {
        self.words[index].load(Relaxed)
    }

    /// Sets the bits of `bits` in word `index`, returning the word as it was.
    ///
    /// # Panics
    ///
    /// If `index` is past the bitmap's words.
    #[inline]
    pub fn or_word(&self, index: usize, bits: u64) -> u64 {
        self.words[index].fetch_or(bits, Relaxed)
    }

    /// The bits of word `index` that are below `len` (all of them but in the last word):
    /// a mask for scans of the clear bits.
    #[inline]
    pub fn in_range(&self, index: usize) -> u64 {
        match (index + 1 == self.words.len(), self.len % 64) {
            (true, k) if k != 0 => (1 << k) - 1,
            _ => u64::MAX,
        }
    }

    /// Clears every bit, on every core.
    pub fn clear(&self) {
        self.words.par_iter().for_each(|w| w.store(0, Relaxed));
    }

    /// The words, for passes that split them between threads.
    pub fn words(&self) -> &[AtomicU64] {
        &self.words
    }
}

/// The tiles of a tile mask (bit `t` for tile `t`; the blank's bit 0 is never a tile), in
/// increasing order: a pattern group's tiles, the order their cells are ranked in.
pub fn mask_tiles(mask: u16) -> impl Iterator<Item = u8> {
    (1..crate::MAX_CELLS as u8).filter(move |t| mask & (1 << t) != 0)
}

/// [`mask_tiles`] for boards of up to 25 cells (the 24-puzzle's groups, a `u32` mask).
pub fn mask_tiles_25(mask: u32) -> impl Iterator<Item = u8> {
    (1..crate::MAX_CELLS_25 as u8).filter(move |t| mask & (1 << t) != 0)
}

/// Calls `f(i)` for every set bit of `word`, word `index` of a bitmap (so `i` counts from
/// `64·index`), lowest first.
#[inline]
pub fn each_set_bit(index: usize, mut word: u64, mut f: impl FnMut(u64)) {
    let base = (index as u64) << 6;
    while word != 0 {
        f(base + u64::from(word.trailing_zeros()));
        word &= word - 1;
    }
}

/// Bitmap words per parallel work item of a level's scan (4,096 words = 262,144 ranks).
pub const SCAN_CHUNK: usize = 4096;

/// How a scanning search finds its next level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expand {
    /// Every state of the frontier marks its admitted neighbours (a small frontier).
    TopDown,
    /// Every candidate state looks for a neighbour in the frontier (a frontier larger than
    /// what is left to find).
    BottomUp,
}

/// One level of a scanning breadth-first search on every core: `next` (all zero) receives
/// the states one move from `frontier` on `scan`'s class, in rank order and parallel chunks.
///
/// * [`Expand::BottomUp`]: word `index` of `next` becomes the states of `candidates(index)`
///   (a mask of that word's ranks) that have a neighbour in `frontier`. Each thread owns whole
///   words of `next`, so nothing is shared.
/// * [`Expand::TopDown`]: every state of `frontier` marks each neighbour `n` for which
///   `admit(n, k, bit)` holds (`k`, `bit`: its word and bit in a bitmap) and that `next` does
///   not hold yet (an atomic OR: marking twice from two threads is harmless). `admit_word(k)`
///   is the mask of the ranks of word `k` that `admit` admits: a word's moves left and right
///   ([`Sideways`]) are marked with it a word at a time.
///
/// In both, the horizontal moves of a word of states go a word at a time where the board
/// allows it ([`Sideways`]); the states are unranked for their other moves only. The next
/// level is the same set of states either way.
///
/// The generator's scan search and the query crate's recovery of distances from 2-bit entries
/// are this step with their own `candidates` and `admit`.
///
/// # Panics
///
/// If `frontier`, `next` and `scan`'s class differ in length (the caller makes all three
/// for one class).
#[inline(always)]
pub fn expand_level(
    scan: &Scan,
    frontier: &AtomicBitmap,
    next: &AtomicBitmap,
    how: Expand,
    candidates: impl Fn(usize) -> u64 + Sync,
    admit: impl Fn(u64, usize, u64) -> bool + Sync,
    admit_word: impl Fn(usize) -> u64 + Sync,
) {
    let sideways = Sideways::new(scan);
    let states = scan.ranker().states();
    // The word one move left or right of word `index` (64 ranks from `64·index`), for each
    // move `steps` gives.
    let targets = move |index: usize, lanes: u64| {
        let steps = sideways.steps(0, states, index as u64 * 64, lanes);
        steps.map(|step| step.map(|by| (index as i64 + by / 64) as usize))
    };
    match how {
        Expand::BottomUp => {
            next.words()
                .par_chunks(SCAN_CHUNK)
                .enumerate()
                .for_each(|(chunk, out)| {
                    let mut cursor = scan.cursor();
                    for (i, out) in out.iter().enumerate() {
                        let index = chunk * SCAN_CHUNK + i;
                        let mut left = candidates(index);
                        let mut found = 0u64;
                        let mut done = [false; 2];
                        for (k, target) in targets(index, left).into_iter().enumerate() {
                            let Some(target) = target else { continue };
                            let hits = left & frontier.word(target);
                            found |= hits;
                            left &= !hits;
                            done[k] = true;
                        }
                        each_set_bit(index, left, |r| {
                            let near = |m, n| !Sideways::handled(done, m) && frontier.test(n);
                            if scan.any_neighbor(&mut cursor, r, near) {
                                found |= 1 << (r & 63);
                            }
                        });
                        out.store(found, Relaxed);
                    }
                })
        }
        Expand::TopDown => frontier
            .words()
            .par_chunks(SCAN_CHUNK)
            .enumerate()
            .for_each(|(chunk, words)| {
                let mut cursor = scan.cursor();
                for (i, w) in words.iter().enumerate() {
                    let index = chunk * SCAN_CHUNK + i;
                    let set = w.load(Relaxed);
                    if set == 0 {
                        continue;
                    }
                    let mut done = [false; 2];
                    for (k, target) in targets(index, set).into_iter().enumerate() {
                        let Some(target) = target else { continue };
                        let fresh = set & admit_word(target) & !next.word(target);
                        if fresh != 0 {
                            next.or_word(target, fresh);
                        }
                        done[k] = true;
                    }
                    each_set_bit(index, set, |r| {
                        scan.any_neighbor(&mut cursor, r, |m, n| {
                            let (k, bit) = (n as usize >> 6, 1u64 << (n & 63));
                            if !Sideways::handled(done, m)
                                && admit(n, k, bit)
                                && next.word(k) & bit == 0
                            {
                                next.or_word(k, bit);
                            }
                            false
                        });
                    });
                }
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masks_tiles_are_its_bits_but_the_blanks() {
        let tiles = |mask| mask_tiles(mask).collect::<Vec<u8>>();
        assert_eq!(tiles(0b1011_0110), vec![1, 2, 4, 5, 7]);
        assert_eq!(tiles(1), Vec::<u8>::new());
        assert_eq!(tiles(0xFFFF), (1..16).collect::<Vec<u8>>());
    }

    #[test]
    fn bits_set_are_the_bits_read_and_visited() {
        let bits = AtomicBitmap::new(130);
        assert_eq!(bits.words().len(), 3);
        let chosen = [0u64, 1, 63, 64, 100, 127, 128, 129];
        for &i in &chosen {
            bits.set(i);
        }
        bits.set(64); // twice is harmless
        for i in 0..192 {
            assert_eq!(bits.test(i), chosen.contains(&i), "bit {i}");
        }
        assert_eq!(bits.word(0), 1 | 2 | 1 << 63);
        assert_eq!(bits.or_word(2, 1 << 5), 0b11);
        assert!(bits.test(133));
        let cleared = AtomicBitmap::new(200);
        cleared.set(7);
        cleared.set(199);
        cleared.clear();
        assert!((0..200).all(|i| !cleared.test(i)));
        let mut visited = Vec::new();
        for index in 0..bits.words().len() {
            each_set_bit(index, bits.word(index), |i| visited.push(i));
        }
        let mut expected = chosen.to_vec();
        expected.push(133);
        assert_eq!(visited, expected);
    }

    #[test]
    fn words_are_rounded_up_and_masked() {
        assert!(AtomicBitmap::new(0).words().is_empty());
        let bits = AtomicBitmap::new(130);
        assert_eq!(bits.in_range(0), u64::MAX);
        assert_eq!(bits.in_range(1), u64::MAX);
        assert_eq!(bits.in_range(2), 0b11);
        assert_eq!(AtomicBitmap::new(128).in_range(1), u64::MAX);
        assert_eq!(AtomicBitmap::new(64).words().len(), 1);
        assert_eq!(AtomicBitmap::new(65).words().len(), 2);
    }

    #[test]
    fn both_expansions_find_the_next_level() {
        use crate::{Board, Move, Ranker};
        let board = Board::new(3, 3).unwrap();
        let ranker = Ranker::new(board).unwrap();
        let states = ranker.states() as usize;
        // Level 1 from the goal, then level 2: the neighbours of level 1 other than the goal.
        let goal = board.standard_goal();
        let scan = Scan::new(board, goal.class()).unwrap();
        let neighbours = |l: &crate::Layout| {
            Move::ALL
                .iter()
                .filter_map(|&m| l.moved(m))
                .collect::<Vec<_>>()
        };
        let one = neighbours(&goal);
        let mut two: Vec<u64> = one
            .iter()
            .flat_map(neighbours)
            .filter(|l| *l != goal)
            .map(|l| ranker.rank(&l))
            .collect();
        two.sort_unstable();
        two.dedup();
        let frontier = AtomicBitmap::new(states);
        for l in &one {
            frontier.set(ranker.rank(l));
        }
        let goal_rank = ranker.rank(&goal);
        let set_bits = |bits: &AtomicBitmap| {
            let mut v = Vec::new();
            for index in 0..bits.words().len() {
                each_set_bit(index, bits.word(index), |i| v.push(i));
            }
            v
        };
        for how in [Expand::TopDown, Expand::BottomUp] {
            let next = AtomicBitmap::new(states);
            expand_level(
                &scan,
                &frontier,
                &next,
                how,
                |index| {
                    let own = if index == goal_rank as usize >> 6 {
                        !(1 << (goal_rank & 63))
                    } else {
                        u64::MAX
                    };
                    own & next.in_range(index)
                },
                |n, _, _| n != goal_rank,
                |k| {
                    if k == goal_rank as usize >> 6 {
                        !(1 << (goal_rank & 63))
                    } else {
                        u64::MAX
                    }
                },
            );
            assert_eq!(set_bits(&next), two, "{how:?}");
        }
    }
}
