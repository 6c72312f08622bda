//! The states of a 2-bit section level by level, in the entries (read only, mapped) plus one
//! bit a state: how whole-table questions are answered on a section too large to recover a
//! byte a state of (2×7: 43.6 GB a byte a state; this pass needs 5.45 GB beside the mapped
//! 10.9 GB of entries).
//!
//! One bitmap holds level `d` when level `d` is handed out, then level `d + 1`:
//!
//! * a neighbour of a state at distance `d` is at `d − 1` or `d + 1` (a move changes the
//!   blank's colour on the chequered board), and those have different residues, so the
//!   neighbours of level `d` whose entry is `(d + 1) mod 3` are exactly level `d + 1`;
//! * the pass over the bitmap expands the set bits whose entry is `d mod 3` (level `d`: the
//!   bits set during the pass, level `d + 1`, have entry `(d + 1) mod 3`), sets the bits of
//!   the neighbours whose entry is `(d + 1) mod 3`, and clears the expanded bits. At the end
//!   the bitmap holds exactly level `d + 1`, whatever order the threads took.
//!
//! The pass is top-down only. A bottom-up level (each state not yet reached looks for a
//! neighbour in the frontier) needs to know which states are not yet reached, which a table
//! of residues does not say and the one bitmap, busy holding the frontier, cannot: every state
//! with the right residue would be a candidate, a third of the class (14.5 billion on 2×7),
//! more than the largest level of 2×7 (1.86 billion). Top-down costs one expansion a state
//! over the whole pass, as the generator's top-down levels do.
//!
//! Each level's size is checked against the section's histogram (and the goal's entry against
//! 0, and the level past the last against none): a corrupt table is refused, never answered
//! from.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;
use slidetable_core::{each_set_bit, AtomicBitmap, Layout, Scan, SCAN_CHUNK};

use crate::distances::{residue, residues_equal};
use crate::goal::Relabelling;
use crate::{Encoding, Goal, QueryError};

/// The levels of at most `states / SPARSE` states are kept as a sorted list of their ranks
/// beside the bitmap, and expanded from it: the first levels of 2×7 (up to 32 moves) are
/// found without a sweep over the 5.45 GB bitmap each (1 to 3 s a level). The
/// list takes at most 8 bytes a state of it: 1/128 of the bitmap's memory.
const SPARSE: u64 = 8192;

/// One level of [`Goal::level_pass`]: every state exactly `depth` moves from the goal.
pub struct Level<'p> {
    bits: &'p AtomicBitmap,
    /// The level's ranks, sorted, while the levels are small (see [`SPARSE`]).
    ranks: Option<&'p [u64]>,
    scan: &'p Scan,
    class: u8,
    back: Relabelling,
    depth: u32,
    len: u64,
}

impl Level<'_> {
    /// The distance of the level's states.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// How many states the level holds (the histogram's count, which the pass checked).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Never true: every level up to the maximum distance holds a state.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The layout of the section rank `rank`, in the goal's labels.
    fn layout(&self, rank: u64) -> Layout {
        self.back
            .apply(&self.scan.ranker().unrank(rank, self.class))
    }

    /// Every state of the level, in the section's rank order.
    pub fn layouts(&self) -> Box<dyn Iterator<Item = Layout> + '_> {
        if let Some(ranks) = self.ranks {
            return Box::new(ranks.iter().map(|&r| self.layout(r)));
        }
        Box::new(
            self.bits
                .words()
                .iter()
                .enumerate()
                .filter(|(_, w)| w.load(Relaxed) != 0)
                .flat_map(|(index, w)| {
                    let mut ranks = Vec::new();
                    each_set_bit(index, w.load(Relaxed), |r| ranks.push(r));
                    ranks
                })
                .map(|r| self.layout(r)),
        )
    }

    /// The `k`-th state of the level in the section's rank order (as [`crate::Layer::get`]
    /// counts them), for each `k` of `picks` (each below [`Level::len`], in any order, repeats
    /// allowed), in the order of `picks`: one sweep over the bitmap for all of them.
    pub fn select(&self, picks: &[u64]) -> Vec<Option<Layout>> {
        if let Some(ranks) = self.ranks {
            return picks
                .iter()
                .map(|&k| ranks.get(k as usize).map(|&r| self.layout(r)))
                .collect();
        }
        let mut order: Vec<usize> = (0..picks.len()).collect();
        order.sort_by_key(|&i| picks[i]);
        let mut out = vec![None; picks.len()];
        let mut next = order.iter().peekable();
        let mut before = 0u64;
        for (index, w) in self.bits.words().iter().enumerate() {
            let Some(&&i) = next.peek() else { break };
            let word = w.load(Relaxed);
            let ones = u64::from(word.count_ones());
            if picks[i] >= before + ones {
                before += ones;
                continue;
            }
            while let Some(&&i) = next.peek() {
                if picks[i] >= before + ones {
                    break;
                }
                // The (k − before)-th set bit of this word.
                let mut w = word;
                for _ in 0..picks[i] - before {
                    w &= w - 1;
                }
                let rank = index as u64 * 64 + u64::from(w.trailing_zeros());
                out[i] = Some(self.layout(rank));
                next.next();
            }
            before += ones;
        }
        out
    }
}

impl Goal<'_> {
    /// Whether whole-table questions need [`Goal::level_pass`]: a section of 2-bit entries
    /// on a board over [`crate::MAX_RECOVERED_CELLS`] cells, whose byte a state
    /// ([`Goal::recover_distances`]) would not fit in memory.
    pub fn needs_level_pass(&self) -> bool {
        self.section.encoding == Encoding::TwoBit
            && self.section.known.is_none()
            && self.section.ranker.board().cells() > crate::distances::MAX_RECOVERED_CELLS
    }

    /// The memory [`Goal::level_pass`] takes beside the mapped entries: one bit a state.
    pub fn level_pass_memory(&self) -> u64 {
        self.section.ranker.states().div_ceil(64) * 8
    }

    /// Hands each level from 0 to `upto` (at most the maximum distance) to `at`, in order,
    /// from a breadth-first pass over the 2-bit entries in one bit a state (see the module's
    /// text); `progress` is told how many states each part of a level settles. Stops at
    /// `upto`: the levels past it are not searched. For 2-bit sections only
    /// ([`Goal::needs_level_pass`]): byte and wide ones hold every distance already, and are
    /// refused with [`QueryError::Corrupt`].
    pub fn level_pass(
        &self,
        upto: u32,
        progress: &(dyn Fn(u64) + Sync),
        at: &mut dyn FnMut(&Level<'_>),
    ) -> Result<(), QueryError> {
        let section = &self.section;
        let histogram = section.descriptor.histogram();
        let goal = *section.descriptor.goal();
        let corrupt = |distance: u32, found: u64| QueryError::CorruptLayer {
            goal,
            distance,
            expected: histogram.get(distance as usize).copied().unwrap_or(0),
            found,
        };
        let scan = Scan::new(section.ranker.board(), section.goal_class)
            .map_err(|_| QueryError::Corrupt { layout: goal })?;
        if section.encoding != Encoding::TwoBit {
            return Err(QueryError::Corrupt { layout: goal });
        }
        // The pass reads every entry: every block verified first (a few seconds of 10.9 GB
        // for 2x7, against minutes of pass).
        section.verify_entries()?;
        let entries = section.entries;
        let states = section.ranker.states();
        let goal_rank = section.ranker.rank(&goal);
        if histogram.first() != Some(&1) || residue(entries, goal_rank) != 0 {
            return Err(corrupt(0, u64::from(residue(entries, goal_rank) == 0)));
        }
        let bits = AtomicBitmap::new(states as usize);
        bits.set(goal_rank);
        progress(1);
        let last = section.descriptor.max_distance();
        let mut list = Some(vec![goal_rank]);
        for depth in 0..=last.min(upto) {
            at(&Level {
                bits: &bits,
                ranks: list.as_deref(),
                scan: &scan,
                class: section.goal_class,
                back: self.back(),
                depth,
                len: histogram[depth as usize],
            });
            if depth == upto && depth < last {
                break;
            }
            // Past the last level nothing may be found: checked when the pass goes there.
            let found = match &list {
                Some(ranks) => {
                    let next = expand_listed(&scan, entries, &bits, depth, ranks, progress);
                    let found = next.len() as u64;
                    list = (found <= states / SPARSE).then_some(next);
                    found
                }
                None => expand(&scan, entries, &bits, depth, progress),
            };
            let expected = histogram.get(depth as usize + 1).copied().unwrap_or(0);
            if found != expected {
                return Err(corrupt(depth + 1, found));
            }
        }
        Ok(())
    }
}

/// Level `depth` to level `depth + 1` in `bits` (see the module's text); the states found.
fn expand(
    scan: &Scan,
    entries: &[u8],
    bits: &AtomicBitmap,
    depth: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> u64 {
    let (want, new) = ((depth % 3) as u8, ((depth + 1) % 3) as u8);
    bits.words()
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk, words)| {
            let mut cursor = scan.cursor();
            let mut found = 0u64;
            for (i, w) in words.iter().enumerate() {
                let index = chunk * SCAN_CHUNK + i;
                let word = w.load(Relaxed);
                if word == 0 {
                    continue;
                }
                // Level `depth` only: the bits set during this pass have entry `new`.
                let level = word & residues_equal(entries, index, want);
                if level == 0 {
                    continue;
                }
                each_set_bit(index, level, |r| {
                    scan.any_neighbor(&mut cursor, r, |_, n| {
                        let (k, bit) = (n as usize >> 6, 1u64 << (n & 63));
                        if residue(entries, n) == new
                            && bits.word(k) & bit == 0
                            && bits.or_word(k, bit) & bit == 0
                        {
                            found += 1;
                        }
                        false
                    });
                });
                w.fetch_and(!level, Relaxed);
            }
            progress(found);
            found
        })
        .sum()
}

/// [`expand`] from the level's sorted ranks `ranks` (a small level): the ranks of level
/// `depth + 1`, sorted.
fn expand_listed(
    scan: &Scan,
    entries: &[u8],
    bits: &AtomicBitmap,
    depth: u32,
    ranks: &[u64],
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<u64> {
    let new = ((depth + 1) % 3) as u8;
    let mut next: Vec<u64> = ranks
        .par_chunks(SCAN_CHUNK)
        .flat_map_iter(|chunk| {
            let mut cursor = scan.cursor();
            let mut found = Vec::new();
            for &r in chunk {
                scan.any_neighbor(&mut cursor, r, |_, n| {
                    let (k, bit) = (n as usize >> 6, 1u64 << (n & 63));
                    if residue(entries, n) == new
                        && bits.word(k) & bit == 0
                        && bits.or_word(k, bit) & bit == 0
                    {
                        found.push(n);
                    }
                    false
                });
                bits.words()[r as usize >> 6].fetch_and(!(1u64 << (r & 63)), Relaxed);
            }
            progress(found.len() as u64);
            found
        })
        .collect();
    next.par_sort_unstable();
    next
}
