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
//! In one bitmap the pass is top-down only. A bottom-up level (each state not yet reached
//! looks for a neighbour in the frontier) needs to know which states are not yet reached,
//! which a table of residues does not say and the one bitmap, busy holding the frontier,
//! cannot: every state with the right residue would be a candidate, a third of the class
//! (14.5 billion on 2×7), more than the largest level of 2×7 (1.86 billion).
//!
//! With memory for a second bit a state ([`PassOptions::bottom_up`]: the callers decide from
//! the machine's memory), a bitmap of the states **seen** (every level up to `d`) lets the
//! late levels go bottom-up, as the generator's do, from the first level that outnumbers the
//! states not seen yet on:
//!
//! * the top-down passes add each level to `seen` as they expand it (the word they read);
//! * a bottom-up pass takes, 64 at a time, the states not seen whose entry is
//!   `(d + 1) mod 3`; one with a seen neighbour is at level `d + 1` exactly (it is at least
//!   `d + 1` moves away, that neighbour at most `d`, and a move changes the distance by one).
//!   Those of a word are written over the word's level-`d` bits and added to `seen` (no state
//!   of level `d + 1` is a neighbour of another candidate: their residues differ), so the
//!   bitmap again holds exactly level `d + 1`.
//!
//! Both give the same levels, so the same answers; the tests compare them on every level.
//!
//! Each level's size is checked against the section's histogram (and the goal's entry against
//! 0, and the level past the last against none): a corrupt table is refused, never answered
//! from.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;
use slidetable_core::{
    each_set_bit, AtomicBitmap, Layout, Ranker, Ranks, Scan, WideRanker, SCAN_CHUNK,
};

use crate::distances::{residue, residues_equal};
use crate::goal::Relabelling;
use crate::ranks::TableRanks;
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
    /// The section's ranking, which unranks the level's states.
    ranking: &'p TableRanks,
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
        self.back.apply(&self.ranking.unrank(rank, self.class))
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

/// Draws among the states at distances `low..=high` from a goal, taken from the levels of a
/// level pass as they come ([`LevelPicks::take`]): draw `k` (below the range's size) is the
/// `k`-th state counting distance by distance (those `low` moves away in rank order, then
/// `low + 1`...). One distance gives the state a layer's rank-select gives for the same `k`;
/// a range counts other states for a `k` than a layer over the range (rank order across
/// distances, which would need every level of the range at once), as uniformly. How the
/// command line's `random --depth` and the Python package's `random` draw on 14-cell tables.
pub struct LevelPicks {
    low: u32,
    /// For each distance of the range, the draws there: (index of the draw, k-th state).
    wanted: Vec<Vec<(usize, u64)>>,
    found: Vec<Option<Layout>>,
}

impl LevelPicks {
    /// The draws `draws` (each below the states of `depths` in `histogram`, the goal's)
    /// among the states `depths` moves away.
    pub fn new(histogram: &[u64], depths: std::ops::RangeInclusive<u32>, draws: &[u64]) -> Self {
        let low = *depths.start();
        let high = (*depths.end()).min(histogram.len().saturating_sub(1) as u32);
        let mut wanted: Vec<Vec<(usize, u64)>> =
            vec![Vec::new(); (high + 1).saturating_sub(low) as usize];
        for (i, &k) in draws.iter().enumerate() {
            let mut left = k;
            for (d, picks) in (low..=high).zip(wanted.iter_mut()) {
                let n = histogram[d as usize];
                if left < n {
                    picks.push((i, left));
                    break;
                }
                left -= n;
            }
        }
        LevelPicks {
            low,
            wanted,
            found: vec![None; draws.len()],
        }
    }

    /// The deepest level a draw is at: where the level pass may stop.
    pub fn deepest(&self) -> u32 {
        self.low + (self.wanted.len() as u32).saturating_sub(1)
    }

    /// Takes the draws at `level`'s distance from it.
    pub fn take(&mut self, level: &Level<'_>) {
        let Some(picks) = level
            .depth()
            .checked_sub(self.low)
            .and_then(|at| self.wanted.get(at as usize))
        else {
            return;
        };
        let ks: Vec<u64> = picks.iter().map(|&(_, k)| k).collect();
        for (&(i, _), layout) in picks.iter().zip(level.select(&ks)) {
            self.found[i] = layout;
        }
    }

    /// The states drawn, in the order of the draws (`None` for a draw no level gave: the
    /// pass stopped before it, or it was not below the range's size).
    pub fn into_layouts(self) -> Vec<Option<Layout>> {
        self.found
    }
}

/// Where the states at a goal's greatest distance come from, as [`Goal::farthest`] decided:
/// how the command line's `hardest` and the Python package's `Table.hardest` find them.
#[derive(Debug)]
pub enum Farthest {
    /// Gathered from the level pass's last level, in rank order.
    Gathered(Vec<Layout>),
    /// To be read from the table ([`Goal::layouts_at`] at the maximum distance).
    Read,
}

impl Farthest {
    /// The states, in rank order: those gathered, or those `goal` (the goal of
    /// [`Goal::farthest`], knowing any distances it recovered) reads at its greatest distance.
    pub fn layouts<'a>(
        self,
        goal: &Goal<'a>,
    ) -> Result<Box<dyn Iterator<Item = Layout> + 'a>, QueryError> {
        Ok(match self {
            Farthest::Gathered(far) => Box::new(far.into_iter()),
            Farthest::Read => Box::new(goal.layouts_at(goal.max_distance())?),
        })
    }
}

/// How [`Goal::level_pass_with`] goes beyond [`Goal::level_pass`]'s top-down pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassOptions<'a> {
    /// A second bitmap, of the states seen, so that the late levels go bottom-up (see the
    /// module's text): twice [`Goal::level_pass_memory`] beside the entries, fewer states
    /// expanded. The same levels either way.
    pub bottom_up: bool,
    /// Read between pieces of every level: once true, the pass stops (unfinished) and
    /// returns `Ok(false)`.
    pub stop: Option<&'a AtomicBool>,
}

impl PassOptions<'_> {
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Relaxed))
    }
}

/// Environment variable: `1` sends whole-table questions through [`Goal::level_pass`] on
/// every 2-bit section, small ones too ([`Goal::wants_level_pass`]): how the command line's
/// and the server's tests compare the pass with the byte a state on boards of seconds.
pub const LEVEL_PASS_ENV: &str = "SLIDETABLE_LEVEL_PASS";

impl Goal<'_> {
    /// How the states at this goal's greatest distance are found: when it
    /// [`Goal::wants_level_pass`], gathered from the last level of the level pass that `pass`
    /// runs up to the given distance (the caller's memory check, note and progress around
    /// [`Goal::level_pass_with`]); otherwise read from the table, with the distances
    /// `recover` gives ([`Goal::recover_distances`]: `None` where the entries hold them),
    /// returned beside for [`Goal::knowing`].
    pub fn farthest<K, E>(
        &self,
        pass: impl FnOnce(u32, &mut (dyn FnMut(&Level<'_>) + Send)) -> Result<(), E>,
        recover: impl FnOnce() -> Result<Option<K>, E>,
    ) -> Result<(Farthest, Option<K>), E> {
        let max = self.max_distance();
        if !self.wants_level_pass() {
            return Ok((Farthest::Read, recover()?));
        }
        let mut far = Vec::new();
        pass(max, &mut |level| {
            if level.depth() == max {
                far.extend(level.layouts());
            }
        })?;
        Ok((Farthest::Gathered(far), None))
    }

    /// Whether whole-table questions go through [`Goal::level_pass`]: when they need it
    /// ([`Goal::needs_level_pass`]), or on any 2-bit section when [`LEVEL_PASS_ENV`] is `1`.
    pub fn wants_level_pass(&self) -> bool {
        self.needs_level_pass()
            || (self.section.encoding == Encoding::TwoBit
                && self.section.known.is_none()
                && std::env::var(LEVEL_PASS_ENV).is_ok_and(|v| v.trim() == "1"))
    }

    /// Whether whole-table questions need [`Goal::level_pass`]: a section of 2-bit entries
    /// on a board over [`crate::MAX_RECOVERED_CELLS`] cells, whose byte a state
    /// ([`Goal::recover_distances`]) would not fit in memory.
    pub fn needs_level_pass(&self) -> bool {
        self.section.encoding == Encoding::TwoBit
            && self.section.known.is_none()
            && self.section.ranker.board().cells() > crate::distances::MAX_RECOVERED_CELLS
    }

    /// The memory [`Goal::level_pass`] takes beside the mapped entries: one bit a state
    /// (twice that with [`PassOptions::bottom_up`]).
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
        self.level_pass_with(upto, PassOptions::default(), progress, at)
            .map(|_| ())
    }

    /// [`Goal::level_pass`] as `options` say: the late levels bottom-up in a second bitmap,
    /// and a flag that stops it. `Ok(true)` once every level up to `upto` was handed to `at`;
    /// `Ok(false)` when the flag stopped it first.
    pub fn level_pass_with(
        &self,
        upto: u32,
        options: PassOptions<'_>,
        progress: &(dyn Fn(u64) + Sync),
        at: &mut dyn FnMut(&Level<'_>),
    ) -> Result<bool, QueryError> {
        let section = &self.section;
        // In the width the table is read in: 64-bit ranks past 14 cells.
        let (board, class) = (section.ranker.board(), section.goal_class);
        match section.ranker {
            TableRanks::Narrow(_) => {
                let scan = Scan::<Ranker>::build(board, class, false).ok();
                self.pass_in(scan, upto, options, progress, at)
            }
            TableRanks::Wide(_) => {
                let scan = Scan::<WideRanker>::build(board, class, false).ok();
                self.pass_in(scan, upto, options, progress, at)
            }
        }
    }

    /// [`Goal::level_pass_with`] over the ranks of `scan`.
    fn pass_in<R: Ranks>(
        &self,
        scan: Option<Scan<R>>,
        upto: u32,
        options: PassOptions<'_>,
        progress: &(dyn Fn(u64) + Sync),
        at: &mut dyn FnMut(&Level<'_>),
    ) -> Result<bool, QueryError> {
        let section = &self.section;
        let histogram = section.descriptor.histogram();
        let goal = *section.descriptor.goal();
        let corrupt = |distance: u32, found: u64| QueryError::CorruptLayer {
            goal,
            distance,
            expected: histogram.get(distance as usize).copied().unwrap_or(0),
            found,
        };
        let Some(scan) = scan else {
            return Err(QueryError::Corrupt { layout: goal });
        };
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
        let seen = options
            .bottom_up
            .then(|| AtomicBitmap::new(states as usize));
        progress(1);
        let last = section.descriptor.max_distance();
        let mut list = Some(vec![goal_rank]);
        // The states of the levels up to `depth`, and whether the passes are bottom-up.
        let mut reached = 0u64;
        let mut bottom_up = false;
        for depth in 0..=last.min(upto) {
            reached += histogram[depth as usize];
            at(&Level {
                bits: &bits,
                ranks: list.as_deref(),
                ranking: section.ranker,
                class: section.goal_class,
                back: self.back(),
                depth,
                len: histogram[depth as usize],
            });
            if depth == upto && depth < last {
                break;
            }
            if options.stopped() {
                return Ok(false);
            }
            // Bottom-up from the first level that outnumbers the states not seen yet on (the
            // generator's rule): `seen` then takes this level too, which a top-down pass
            // would have added as it expanded it.
            if let Some(seen) = &seen {
                let unseen = states.saturating_sub(reached);
                if !bottom_up && list.is_none() && histogram[depth as usize] > unseen {
                    bottom_up = true;
                    add_level(&bits, seen);
                }
            }
            // Past the last level nothing may be found: checked when the pass goes there.
            let found = match (&list, &seen) {
                (_, Some(seen)) if bottom_up => {
                    expand_bottom_up(&scan, entries, &bits, seen, depth, progress, &options)
                }
                (Some(ranks), _) => {
                    let next =
                        expand_listed(&scan, entries, &bits, seen.as_ref(), depth, ranks, progress);
                    let found = next.len() as u64;
                    list = (found <= states / SPARSE).then_some(next);
                    found
                }
                (None, _) => expand(
                    &scan,
                    entries,
                    &bits,
                    seen.as_ref(),
                    depth,
                    progress,
                    &options,
                ),
            };
            if options.stopped() {
                return Ok(false);
            }
            let expected = histogram.get(depth as usize + 1).copied().unwrap_or(0);
            if found != expected {
                return Err(corrupt(depth + 1, found));
            }
        }
        Ok(true)
    }
}

/// Level `depth` to level `depth + 1` in `bits` (see the module's text), each expanded word
/// of level `depth` added to `seen` when there is one; the states found.
///
/// [`expand_bottom_up`] goes over the words in the same chunks (a stop check, a cursor and a
/// count per chunk, progress per chunk); what each does with a word differs (here the states
/// of level `depth` are expanded to their neighbours, there each unseen state looks for a
/// seen neighbour). The scaffolding is written out in both so that each inner loop stays as
/// measured on 2x7 (BENCHMARKS.md), which a shared closure-taking helper would need measuring
/// again to replace.
fn expand<R: Ranks>(
    scan: &Scan<R>,
    entries: &[u8],
    bits: &AtomicBitmap,
    seen: Option<&AtomicBitmap>,
    depth: u32,
    progress: &(dyn Fn(u64) + Sync),
    options: &PassOptions<'_>,
) -> u64 {
    let (want, new) = ((depth % 3) as u8, ((depth + 1) % 3) as u8);
    bits.words()
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk, words)| {
            if options.stopped() {
                return 0;
            }
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
                if let Some(seen) = seen {
                    seen.or_word(index, level);
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
fn expand_listed<R: Ranks>(
    scan: &Scan<R>,
    entries: &[u8],
    bits: &AtomicBitmap,
    seen: Option<&AtomicBitmap>,
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
                if let Some(seen) = seen {
                    seen.set(r);
                }
            }
            progress(found.len() as u64);
            found
        })
        .collect();
    next.par_sort_unstable();
    next
}

/// Adds the level in `bits` to `seen`.
fn add_level(bits: &AtomicBitmap, seen: &AtomicBitmap) {
    bits.words().par_iter().enumerate().for_each(|(index, w)| {
        let level = w.load(Relaxed);
        if level != 0 {
            seen.or_word(index, level);
        }
    });
}

/// Level `depth` (in `bits`, and in `seen` with every level before it) to level `depth + 1`
/// bottom-up (see the module's text): each word of `bits` becomes the states of its ranks
/// not seen, with entry `(depth + 1) mod 3` and a seen neighbour, which `seen` then takes
/// too. Each thread writes only its own words. The states found.
fn expand_bottom_up<R: Ranks>(
    scan: &Scan<R>,
    entries: &[u8],
    bits: &AtomicBitmap,
    seen: &AtomicBitmap,
    depth: u32,
    progress: &(dyn Fn(u64) + Sync),
    options: &PassOptions<'_>,
) -> u64 {
    let new = ((depth + 1) % 3) as u8;
    bits.words()
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk, words)| {
            if options.stopped() {
                return 0;
            }
            let mut cursor = scan.cursor();
            let mut found = 0u64;
            for (i, w) in words.iter().enumerate() {
                let index = chunk * SCAN_CHUNK + i;
                let candidates =
                    residues_equal(entries, index, new) & !seen.word(index) & seen.in_range(index);
                let mut next = 0u64;
                each_set_bit(index, candidates, |r| {
                    if scan.any_neighbor(&mut cursor, r, |_, n| seen.test(n)) {
                        next |= 1 << (r & 63);
                    }
                });
                if next != 0 {
                    seen.or_word(index, next);
                    found += u64::from(next.count_ones());
                }
                w.store(next, Relaxed);
            }
            progress(found);
            found
        })
        .sum()
}
