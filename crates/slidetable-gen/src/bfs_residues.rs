//! The breadth-first search of 2-bit tables in the table's own memory plus one bit a state:
//! what lets 2×7 (14!/2 = 43,589,145,600 states, 10.9 GB of entries) be searched on a 24 GB
//! machine, where the three bitmaps of `bfs_scan.rs` would add 16 GB.
//!
//! The entries are the 2-bit payload itself (entry `r` in bits `2·(r mod 32)` of word
//! `r / 32`), with value 3 for a state not reached yet; every other value is the distance mod
//! 3. Beside them, one **frontier** bitmap. Level `d` is found one of two ways:
//!
//! * **top-down** — the frontier holds exactly the states of level `d`. Each set bit whose
//!   entry is `d mod 3` is expanded: every neighbour whose entry is 3 gets `(d + 1) mod 3` and
//!   its bit set in the same bitmap; the expanded bit is cleared. A bit whose entry is not
//!   `d mod 3` was set during this pass (a state of level `d + 1`) and stays. At the end the
//!   bitmap holds exactly level `d + 1`.
//! * **bottom-up** — once the frontier outnumbers the states still unseen, every unseen state
//!   with a neighbour whose entry is `d mod 3` gets `(d + 1) mod 3`: that neighbour is at level
//!   `d` exactly (one at `d − 3` would have reached the state long ago, and levels past `d`
//!   hold only `(d + 1) mod 3` so far). No bitmap is needed, and it is dropped.
//!
//! A level's pass works on a contiguous slice of ranks ([`Residues`] of `first..end`); a
//! neighbour outside the slice is handed to the caller (`remote`), who marks it in the slice
//! that owns it with [`Residues::reach`]: one machine owns every rank, a cluster one slice each.
//!
//! Entries are deterministic whatever the threads do (a state's entry is its distance mod 3),
//! so the file is the same as the one `bfs_scan.rs` writes, byte for byte.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{each_set_bit, AtomicBitmap, Layout, Scan, SCAN_CHUNK};
use slidetable_format::{CostModel, Encoding};

use crate::{GenError, SolvedSection};

/// Every entry of a word not reached yet: value 3 in each of its 32 entries.
const UNSEEN: u64 = u64::MAX;

/// The low bit of each 2-bit entry of a word.
const LOW: u64 = 0x5555_5555_5555_5555;

/// The 2-bit entries of a contiguous slice of ranks during a search: value 3 for a state not
/// reached yet, else its distance mod 3.
#[derive(Debug)]
pub struct Residues {
    words: Vec<AtomicU64>,
    first: u64,
    end: u64,
}

impl Residues {
    /// Entries for ranks `slice` (its start a multiple of 64), every one unseen.
    pub fn new(slice: Range<u64>) -> Residues {
        debug_assert_eq!(slice.start % 64, 0);
        let len = (slice.end - slice.start).div_ceil(64) as usize * 2;
        let mut words = Vec::new();
        words.reserve_exact(len);
        words.par_extend((0..len).into_par_iter().map(|_| AtomicU64::new(UNSEEN)));
        Residues {
            words,
            first: slice.start,
            end: slice.end,
        }
    }

    /// The ranks these entries hold.
    pub fn slice(&self) -> Range<u64> {
        self.first..self.end
    }

    /// The entry of `rank` (in the slice): 3 if unseen, else the distance mod 3.
    #[inline]
    pub fn value(&self, rank: u64) -> u32 {
        let i = rank - self.first;
        ((self.words[(i >> 5) as usize].load(Relaxed) >> ((i & 31) * 2)) & 3) as u32
    }

    /// Gives the unseen state `rank` (in the slice) the value `value`, and sets its bit in
    /// `frontier`; whether it was unseen (each state is reached once, whatever the threads).
    #[inline]
    pub fn reach(&self, rank: u64, value: u32, frontier: &AtomicBitmap) -> bool {
        let i = rank - self.first;
        let word = &self.words[(i >> 5) as usize];
        let shift = (i & 31) * 2;
        if (word.load(Relaxed) >> shift) & 3 != 3 {
            return false;
        }
        // 3 AND value = value: one atomic AND writes it.
        let old = word.fetch_and(!(u64::from(3 ^ value) << shift), Relaxed);
        if (old >> shift) & 3 != 3 {
            return false;
        }
        frontier.set(i);
        true
    }

    /// The entries' words (entry `r` in bits `2·((r − first) mod 32)` of word
    /// `(r − first) / 32`), as the 2-bit payload stores them.
    /// Entries past the slice's end are 0, as in a payload.
    pub fn into_words(self) -> Vec<u64> {
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

    /// The states still unseen.
    pub fn unseen(&self) -> u64 {
        let len = self.end - self.first;
        self.words
            .par_iter()
            .enumerate()
            .map(|(k, w)| {
                let w = w.load(Relaxed);
                let mut both = w & (w >> 1) & LOW;
                let start = k as u64 * 32;
                if start + 32 > len {
                    both &= (1u64 << (2 * (len - start.min(len)))) - 1;
                }
                u64::from(both.count_ones())
            })
            .sum()
    }
}

/// Level `depth`'s top-down pass over the slice of `residues`: `frontier` (bit `i` for rank
/// `first + i`) holds exactly level `depth` and ends holding exactly level `depth + 1`.
/// Neighbours outside the slice go to `remote` (their owner marks them with
/// [`Residues::reach`] and `(depth + 1) % 3`). Returns the states reached in the slice.
pub fn expand_top_down(
    scan: &Scan,
    residues: &Residues,
    frontier: &AtomicBitmap,
    depth: u32,
    remote: &(dyn Fn(u64) + Sync),
) -> u64 {
    let (want, new) = (depth % 3, (depth + 1) % 3);
    let Range { start: first, end } = residues.slice();
    frontier
        .words()
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk, words)| {
            let mut cursor = scan.cursor();
            let mut found = 0u64;
            for (i, w) in words.iter().enumerate() {
                let index = chunk * SCAN_CHUNK + i;
                let bits = w.load(Relaxed);
                if bits == 0 {
                    continue;
                }
                let mut expanded = 0u64;
                each_set_bit(index, bits, |local| {
                    let r = first + local;
                    if residues.value(r) != want {
                        return;
                    }
                    expanded |= 1 << (local & 63);
                    scan.any_neighbor(&mut cursor, r, |_, n| {
                        if n < first || n >= end {
                            remote(n);
                        } else if residues.reach(n, new, frontier) {
                            found += 1;
                        }
                        false
                    });
                });
                if expanded != 0 {
                    w.fetch_and(!expanded, Relaxed);
                }
            }
            found
        })
        .sum()
}

/// Level `depth`'s bottom-up pass over every rank of `scan`'s class (`residues` must hold
/// them all): every unseen state with a neighbour whose entry is `depth mod 3` gets
/// `(depth + 1) mod 3`. Each thread writes only its own words. Returns the states reached.
pub fn expand_bottom_up(scan: &Scan, residues: &Residues, depth: u32) -> u64 {
    let (want, new) = (depth % 3, (depth + 1) % 3);
    let states = residues.end;
    // 64 ranks per pair of words, as many as a frontier chunk covers.
    residues
        .words
        .par_chunks(SCAN_CHUNK * 2)
        .enumerate()
        .map(|(chunk, words)| {
            let mut cursor = scan.cursor();
            let mut found = 0u64;
            for (i, w) in words.iter().enumerate() {
                let mut word = w.load(Relaxed);
                let mut unseen = word & (word >> 1) & LOW;
                if unseen == 0 {
                    continue;
                }
                let base = ((chunk * SCAN_CHUNK * 2 + i) as u64) * 32;
                let mut changed = false;
                while unseen != 0 {
                    let bit = unseen.trailing_zeros();
                    unseen &= unseen - 1;
                    let r = base + u64::from(bit / 2);
                    if r >= states {
                        break;
                    }
                    if scan.any_neighbor(&mut cursor, r, |_, n| residues.value(n) == want) {
                        word &= !(u64::from(3 ^ new) << bit);
                        found += 1;
                        changed = true;
                    }
                }
                if changed {
                    w.store(word, Relaxed);
                }
            }
            found
        })
        .sum()
}

/// Solves `goal`'s class into 2-bit entries in the entries' memory plus one bit a state (see
/// the module's text); `progress` is told how many states each level settles.
pub fn solve_by_residues(
    goal: &Layout,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SolvedSection, GenError> {
    let scan = Scan::new(goal.board(), goal.class())?;
    let ranker = *scan.ranker();
    let states = ranker.states();
    let residues = Residues::new(0..states);
    let mut frontier = Some(AtomicBitmap::new(states as usize));
    let goal_rank = ranker.rank(goal);
    if let Some(f) = &frontier {
        residues.reach(goal_rank, 0, f);
    }
    let mut histogram = vec![1u64];
    let mut reached = 1u64;
    progress(1);
    let mut depth = 0u32;
    while reached < states {
        let in_frontier = histogram[depth as usize];
        let unseen = states - reached;
        if in_frontier > unseen {
            // Bottom-up from here on: the bitmap is no longer needed.
            frontier = None;
        }
        let found = match &frontier {
            Some(f) => expand_top_down(&scan, &residues, f, depth, &|_| {}),
            None => expand_bottom_up(&scan, &residues, depth),
        };
        if found == 0 {
            // Only when the class is not connected, which the parity rule rules out.
            break;
        }
        depth += 1;
        histogram.push(found);
        reached += found;
        progress(found);
    }
    drop(frontier);
    Ok(SolvedSection {
        goal: *goal,
        entries: words_into_payload(residues.into_words(), states),
        histogram,
        encoding: Encoding::TwoBit,
        cost: CostModel::Unit,
    })
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

    #[test]
    fn the_same_entries_as_the_scan_search_on_every_board_up_to_ten_cells() {
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
                let old = solve_by_scan(&goal, Encoding::TwoBit, &|_| {}).unwrap();
                let new = solve_by_residues(&goal, &|_| {}).unwrap();
                assert_eq!(new.histogram, old.histogram, "{board} {goal}");
                assert!(new.entries == old.entries, "{board} {goal}");
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
        let f = AtomicBitmap::new(100);
        assert!(r.reach(99, 1, &f));
        assert!(!r.reach(99, 2, &f));
        assert_eq!((r.value(99), r.unseen()), (1, 99));
        assert!(f.test(99));
    }
}
