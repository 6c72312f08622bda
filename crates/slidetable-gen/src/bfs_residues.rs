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
//! Both passes can be run again after a process running them was killed: a state they gave a
//! value has the right one and its bit (the bit is set first), a state whose bit was cleared
//! had every neighbour marked, and the pass run again expands the rest (setting, with
//! `repair`, the bits of the states of level `d + 1` it finds already marked).
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
use slidetable_core::{each_set_bit, Layout, Scan, SCAN_CHUNK};
use slidetable_format::{CostModel, Encoding};

use crate::mapped::MappedWords;
use crate::{GenError, SolvedSection};

/// Every entry of a word not reached yet: value 3 in each of its 32 entries.
pub(crate) const UNSEEN: u64 = u64::MAX;

/// The low bit of each 2-bit entry of a word.
const LOW: u64 = 0x5555_5555_5555_5555;

/// Where a search's words live: in memory, or in a file's mapping (a search that resumes).
#[derive(Debug)]
pub(crate) enum Store {
    /// The process's own memory.
    Heap(Vec<AtomicU64>),
    /// A working file, mapped.
    Mapped(MappedWords),
}

impl Store {
    /// `len` words in memory, each `value`.
    pub(crate) fn heap(len: usize, value: u64) -> Store {
        let mut words = Vec::new();
        words.reserve_exact(len);
        words.par_extend((0..len).into_par_iter().map(|_| AtomicU64::new(value)));
        Store::Heap(words)
    }

    /// The words.
    pub(crate) fn words(&self) -> &[AtomicU64] {
        match self {
            Store::Heap(words) => words,
            Store::Mapped(mapped) => mapped.words(),
        }
    }
}

/// The words 2-bit entries of `states` ranks take (whole 64-rank pairs of words, as a
/// frontier chunk covers).
pub(crate) fn entry_words(states: u64) -> usize {
    states.div_ceil(64) as usize * 2
}

/// The words a frontier bitmap of `states` ranks takes.
pub(crate) fn frontier_words(states: u64) -> usize {
    states.div_ceil(64) as usize
}

/// The 2-bit entries of a contiguous slice of ranks during a search: value 3 for a state not
/// reached yet, else its distance mod 3.
#[derive(Debug)]
pub struct Residues {
    store: Store,
    first: u64,
    end: u64,
}

impl Residues {
    /// Entries for ranks `slice` (its start a multiple of 64), every one unseen.
    pub fn new(slice: Range<u64>) -> Residues {
        debug_assert_eq!(slice.start % 64, 0);
        let store = Store::heap(entry_words(slice.end - slice.start), UNSEEN);
        Residues {
            store,
            first: slice.start,
            end: slice.end,
        }
    }

    /// Entries for ranks `0..states` in `store` (at least [`entry_words`] words), as they are.
    pub(crate) fn over(store: Store, states: u64) -> Residues {
        debug_assert!(store.words().len() >= entry_words(states));
        Residues {
            store,
            first: 0,
            end: states,
        }
    }

    /// Makes every entry unseen.
    pub(crate) fn clear(&self) {
        self.words()
            .par_iter()
            .for_each(|w| w.store(UNSEEN, Relaxed));
    }

    fn words(&self) -> &[AtomicU64] {
        self.store.words()
    }

    /// Writes the entries to their file, when they are a file's mapping, and waits for it.
    pub(crate) fn flush(&self) -> std::io::Result<()> {
        match &self.store {
            Store::Heap(_) => Ok(()),
            Store::Mapped(words) => words.flush(),
        }
    }

    /// The ranks these entries hold.
    pub fn slice(&self) -> Range<u64> {
        self.first..self.end
    }

    /// The entry of `rank` (in the slice): 3 if unseen, else the distance mod 3.
    #[inline]
    pub fn value(&self, rank: u64) -> u32 {
        self.view().value(rank)
    }

    /// Gives the unseen state `rank` (in the slice) the value `value`, its bit in `frontier`
    /// set first; whether it was unseen (each state is reached once, whatever the threads).
    /// With `repair`, a state that has `value` already gets its bit too (a pass run again
    /// after being cut short, see [`expand_top_down`]).
    #[inline]
    pub fn reach(&self, rank: u64, value: u32, frontier: &[AtomicU64], repair: bool) -> bool {
        self.view().reach(rank, value, frontier, repair)
    }

    /// The words and the first rank, taken once for a pass's inner loops.
    #[inline]
    fn view(&self) -> View<'_> {
        View {
            words: self.words(),
            first: self.first,
        }
    }

    /// The entries' words (entry `r` in bits `2·((r − first) mod 32)` of word
    /// `(r − first) / 32`), as the 2-bit payload stores them.
    /// Entries past the slice's end are 0, as in a payload.
    pub fn into_words(self) -> Vec<u64> {
        let len = self.end - self.first;
        let mut words: Vec<u64> = match self.store {
            Store::Heap(words) => words.into_iter().map(AtomicU64::into_inner).collect(),
            Store::Mapped(mapped) => mapped.words().iter().map(|w| w.load(Relaxed)).collect(),
        };
        let used = (len % 32) as u32;
        if let (Some(last), true) = (words.get_mut((len / 32) as usize), used != 0) {
            *last &= (1u64 << (2 * used)) - 1;
        }
        let whole = len.div_ceil(32) as usize;
        words[whole..].iter_mut().for_each(|w| *w = 0);
        words
    }

    /// Gives the entries past the slice's end the value 0, as a payload has them, and stores
    /// every word little-endian; returns the store.
    pub(crate) fn into_payload_store(self) -> Store {
        let len = self.end - self.first;
        let words = self.words();
        let used = (len % 32) as u32;
        if let (Some(last), true) = (words.get((len / 32) as usize), used != 0) {
            last.fetch_and((1u64 << (2 * used)) - 1, Relaxed);
        }
        let whole = len.div_ceil(32) as usize;
        words[whole..].iter().for_each(|w| w.store(0, Relaxed));
        if cfg!(target_endian = "big") {
            words
                .par_iter()
                .for_each(|w| w.store(w.load(Relaxed).to_le(), Relaxed));
        }
        self.store
    }

    /// The states still unseen.
    pub fn unseen(&self) -> u64 {
        let len = self.end - self.first;
        self.words()
            .par_iter()
            .enumerate()
            .map(|(k, w)| {
                let w = w.load(Relaxed);
                let mut both = w & (w >> 1) & LOW;
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
    fn reach(self, rank: u64, value: u32, frontier: &[AtomicU64], repair: bool) -> bool {
        let i = rank - self.first;
        let word = &self.words[(i >> 5) as usize];
        let shift = (i & 31) * 2;
        let now = ((word.load(Relaxed) >> shift) & 3) as u32;
        if now != 3 {
            if repair && now == value {
                let bits = &frontier[(i >> 6) as usize];
                if bits.load(Relaxed) & (1 << (i & 63)) == 0 {
                    bits.fetch_or(1 << (i & 63), Relaxed);
                }
            }
            return false;
        }
        // The bit before the entry: a process killed between the two leaves a bit whose entry
        // is unseen (found again when the pass runs again), never a reached state without
        // its bit.
        frontier[(i >> 6) as usize].fetch_or(1 << (i & 63), Relaxed);
        // 3 AND value = value: one atomic AND writes it.
        let old = word.fetch_and(!(u64::from(3 ^ value) << shift), Relaxed);
        (old >> shift) & 3 == 3
    }
}

/// Level `depth`'s top-down pass over the slice of `residues`: `frontier` (bit `i` for rank
/// `first + i`) holds every state of level `depth` not expanded yet, and ends holding exactly
/// level `depth + 1`. Neighbours outside the slice go to `remote` (their
/// owner marks them with [`Residues::reach`] and `(depth + 1) % 3`). `found` is told the
/// states reached as each piece of the pass ends. With `repair` (the pass run again after it
/// was cut short), the states of level `depth + 1` already marked get their bits too.
/// Returns the states reached in the slice (those marked before a cut are not counted).
pub fn expand_top_down(
    scan: &Scan,
    residues: &Residues,
    frontier: &[AtomicU64],
    depth: u32,
    repair: bool,
    remote: &(dyn Fn(u64) + Sync),
    found: &(dyn Fn(u64) + Sync),
) -> u64 {
    let (want, new) = (depth % 3, (depth + 1) % 3);
    let Range { start: first, end } = residues.slice();
    let entries = residues.view();
    frontier
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk, words)| {
            let mut cursor = scan.cursor();
            let mut reached = 0u64;
            for (i, w) in words.iter().enumerate() {
                let index = chunk * SCAN_CHUNK + i;
                let bits = w.load(Relaxed);
                if bits == 0 {
                    continue;
                }
                let mut expanded = 0u64;
                each_set_bit(index, bits, |local| {
                    let r = first + local;
                    if entries.value(r) != want {
                        return;
                    }
                    expanded |= 1 << (local & 63);
                    scan.any_neighbor(&mut cursor, r, |_, n| {
                        if n < first || n >= end {
                            remote(n);
                        } else if entries.reach(n, new, frontier, repair) {
                            reached += 1;
                        }
                        false
                    });
                });
                // Cleared once every state of the word is expanded: a pass cut short leaves
                // the bits of the states whose neighbours may not all be marked.
                if expanded != 0 {
                    w.fetch_and(!expanded, Relaxed);
                }
            }
            found(reached);
            reached
        })
        .sum()
}

/// Level `depth`'s bottom-up pass over every rank of `scan`'s class (`residues` must hold
/// them all): every unseen state with a neighbour whose entry is `depth mod 3` gets
/// `(depth + 1) mod 3`. Each thread writes only its own words; `found` is told the states
/// reached as each piece of the pass ends. Returns the states reached.
pub fn expand_bottom_up(
    scan: &Scan,
    residues: &Residues,
    depth: u32,
    found: &(dyn Fn(u64) + Sync),
) -> u64 {
    let (want, new) = (depth % 3, (depth + 1) % 3);
    let states = residues.end;
    let entries = residues.view();
    // 64 ranks per pair of words, as many as a frontier chunk covers.
    residues
        .words()
        .par_chunks(SCAN_CHUNK * 2)
        .enumerate()
        .map(|(chunk, words)| {
            let mut cursor = scan.cursor();
            let mut reached = 0u64;
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
                    if scan.any_neighbor(&mut cursor, r, |_, n| entries.value(n) == want) {
                        word &= !(u64::from(3 ^ new) << bit);
                        reached += 1;
                        changed = true;
                    }
                }
                if changed {
                    w.store(word, Relaxed);
                }
            }
            found(reached);
            reached
        })
        .sum()
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

/// One level's pass of a search over ranks `0..states` of `scan`'s class: top-down through
/// `frontier` (which must be `Some` unless `levels.bottom_up()`) or bottom-up. With `repair`
/// (the pass run again after being cut short) the level's size is counted from the entries
/// rather than from the pass. Returns the states of the new level.
pub(crate) fn next_level(
    scan: &Scan,
    residues: &Residues,
    frontier: Option<&[AtomicU64]>,
    levels: &Levels,
    repair: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> u64 {
    let depth = levels.depth();
    let (found, counted) = match frontier {
        Some(f) if !levels.bottom_up() => {
            let found = expand_top_down(scan, residues, f, depth, repair, &|_| {}, progress);
            (found, !repair)
        }
        _ => (expand_bottom_up(scan, residues, depth, progress), !repair),
    };
    if counted {
        return found;
    }
    // States marked before the cut were not counted by the pass: the level is what is no
    // longer unseen.
    let level = (levels.states - levels.reached()) - residues.unseen();
    progress(level - found);
    level
}

/// Solves `goal`'s class into 2-bit entries in the entries' memory plus one bit a state (see
/// the module's text); `progress` is told how many states the search settles as it goes.
pub fn solve_by_residues(
    goal: &Layout,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SolvedSection, GenError> {
    let scan = Scan::new(goal.board(), goal.class())?;
    let ranker = *scan.ranker();
    let states = ranker.states();
    let residues = Residues::new(0..states);
    let mut frontier = Some(Store::heap(frontier_words(states), 0));
    if let Some(f) = &frontier {
        residues.reach(ranker.rank(goal), 0, f.words(), false);
    }
    let mut levels = Levels {
        histogram: vec![1u64],
        states,
    };
    progress(1);
    while !levels.over() {
        if levels.bottom_up() {
            // Bottom-up from here on: the bitmap is no longer needed.
            frontier = None;
        }
        let found = next_level(
            &scan,
            &residues,
            frontier.as_ref().map(Store::words),
            &levels,
            false,
            progress,
        );
        levels.histogram.push(found);
    }
    drop(frontier);
    let mut histogram = levels.histogram;
    if histogram.last() == Some(&0) {
        histogram.pop();
    }
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
        let f = Store::heap(frontier_words(100), 0);
        assert!(r.reach(99, 1, f.words(), false));
        assert!(!r.reach(99, 2, f.words(), false));
        assert_eq!((r.value(99), r.unseen()), (1, 99));
        assert_eq!(f.words()[1].load(Relaxed), 1 << 35);
    }
}
