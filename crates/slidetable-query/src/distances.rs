//! Every state's distance from a goal whose section stores only the distance mod 3 (the 2-bit
//! entries of the 11- and 12-cell boards), recovered in one breadth-first pass from the goal.
//!
//! Walking from each state to the goal costs O(distance) reads per state: 240 million walks
//! of about 35 steps on a 12-cell board, minutes. The residues let a single breadth-first
//! pass do it instead, in the bitmaps of the generator's scan search (one bit per rank):
//!
//! * a neighbour of a state at distance `d` is at `d − 1` or `d + 1` (every move changes the
//!   blank's colour on the chequered board), and those two have different residues; so the
//!   neighbours of level `d` whose residue is `(d + 1) mod 3` are exactly level `d + 1` —
//!   **top-down**, no `seen` test;
//! * once the frontier outnumbers the states not yet reached, each unreached state whose
//!   residue is `(d + 1) mod 3` (a third of them, picked 64 at a time from the entry words)
//!   looks for a neighbour in the frontier instead — **bottom-up**.
//!
//! Each level is checked against the section's histogram, so a corrupt table is reported,
//! never answered from.

use rayon::prelude::*;
use slidetable_core::{expand_level, AtomicBitmap, Board, Expand, Scan, SCAN_CHUNK};
use slidetable_format::{two_bit_equal, two_bit_value, two_bit_words_at};
use std::sync::atomic::Ordering::Relaxed;

/// Bitmap words per parallel work item (4096 words = 262,144 ranks).
const CHUNK: usize = SCAN_CHUNK;

/// The most cells of a board whose distances are recovered: a byte a state is 240 MB for 12
/// cells, 43.6 GB for 14.
pub const MAX_RECOVERED_CELLS: usize = 12;

/// The distance of a state not reached (beyond the distance asked for).
pub(crate) const UNREACHED: u8 = u8::MAX;

/// Why distances could not be recovered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RecoverError {
    /// A level's size disagrees with the histogram, or a state was reached twice: the
    /// entries do not hold the distances mod 3 of a breadth-first search.
    #[error("the histogram counts {expected} states at {distance} moves but the entries give {found} (corrupt table? check it with `slidetable info --verify`)")]
    Corrupt {
        distance: u32,
        expected: u64,
        found: u64,
    },
    /// More distances than a byte holds (no board up to 12 cells has them), or a board
    /// too large to rank.
    #[error("distances above {} cannot be recovered", UNREACHED - 1)]
    TooDeep,
}

/// Every state's distance (`UNREACHED` beyond `upto`), by rank, from the goal of rank
/// `goal_rank` in parity class `class` of `board`. `entries` holds the 2-bit
/// residues (entry `r` in bits `2·(r mod 4)` of byte `r / 4`), `histogram` the states at
/// each distance; `progress` is told how many states each level settles.
pub(crate) fn recover(
    board: Board,
    class: u8,
    goal_rank: u64,
    entries: &[u8],
    histogram: &[u64],
    upto: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<u8>, RecoverError> {
    let states = board.reachable_states() as usize;
    if histogram.len() > usize::from(UNREACHED) {
        return Err(RecoverError::TooDeep);
    }
    debug_assert!(entries.len() * 4 >= states);
    let steps = Scan::tabulated(board, class).map_err(|_| RecoverError::TooDeep)?;
    let mut distances = vec![UNREACHED; states];
    let seen = AtomicBitmap::new(states);
    let mut frontier = AtomicBitmap::new(states);
    let mut next = AtomicBitmap::new(states);
    seen.set(goal_rank);
    frontier.set(goal_rank);
    distances[goal_rank as usize] = 0;
    if histogram.first() != Some(&1) || residue(entries, goal_rank) != 0 {
        return Err(RecoverError::Corrupt {
            distance: 0,
            expected: histogram.first().copied().unwrap_or(0),
            found: 1,
        });
    }
    progress(1);
    let mut reached = 1u64;
    let last = (histogram.len() as u32 - 1).min(upto);
    for depth in 0..last {
        let want = ((depth + 1) % 3) as u8;
        let in_frontier = histogram[depth as usize];
        let how = if in_frontier > states as u64 - reached {
            Expand::BottomUp
        } else {
            Expand::TopDown
        };
        // Top-down marks every neighbour of the frontier, without reading its entry (a
        // cache miss a move): those of the wrong residue (the level before) are dropped a
        // word at a time below.
        expand_level(
            &steps,
            &frontier,
            &next,
            how,
            |index| residues_equal(entries, index, want) & !seen.word(index) & seen.in_range(index),
            |_, _, _| true,
            |_| u64::MAX,
        );
        let top_down = how == Expand::TopDown;
        // Settle the level: its distances, `seen`, and the count, checked.
        let found: u64 = distances
            .par_chunks_mut(CHUNK * 64)
            .enumerate()
            .map(|(chunk, out)| {
                let mut count = 0u64;
                let mut twice = false;
                for (i, cells) in out.chunks_mut(64).enumerate() {
                    let index = chunk * CHUNK + i;
                    let mut level = next.word(index);
                    if level == 0 {
                        continue;
                    }
                    if top_down {
                        level &= residues_equal(entries, index, want);
                        next.words()[index].store(level, Relaxed);
                    }
                    twice |= seen.or_word(index, level) & level != 0;
                    count += u64::from(level.count_ones());
                    let mut w = level;
                    while w != 0 {
                        cells[w.trailing_zeros() as usize] = (depth + 1) as u8;
                        w &= w - 1;
                    }
                }
                if twice {
                    u64::MAX / 2
                } else {
                    count
                }
            })
            .reduce(|| 0, |a, b| a.saturating_add(b));
        let expected = histogram[depth as usize + 1];
        if found != expected {
            return Err(RecoverError::Corrupt {
                distance: depth + 1,
                expected,
                found: found.min(states as u64),
            });
        }
        reached += found;
        progress(found);
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    Ok(distances)
}

/// The residue of rank `r` (the format's [`two_bit_value`], as a byte).
#[inline]
pub(crate) fn residue(entries: &[u8], r: u64) -> u8 {
    two_bit_value(entries, r) as u8
}

/// Bit `i` set where the entry of rank `64·index + i` is `want` (entries past the end read
/// as 3, which no residue is): the format's [`two_bit_equal`] on the payload's words.
#[inline]
pub(crate) fn residues_equal(entries: &[u8], index: usize, want: u8) -> u64 {
    let (low, high) = two_bit_words_at(entries, index);
    two_bit_equal(low, high, u32::from(want))
}
