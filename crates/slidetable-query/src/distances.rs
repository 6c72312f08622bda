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
use slidetable_core::{expand_level, AtomicBitmap, Expand, Ranker, Scan, SCAN_CHUNK};
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
/// `goal_rank` in parity class `class` of `ranker`'s board. `entries` holds the 2-bit
/// residues (entry `r` in bits `2·(r mod 4)` of byte `r / 4`), `histogram` the states at
/// each distance; `progress` is told how many states each level settles.
pub(crate) fn recover(
    ranker: &Ranker,
    class: u8,
    goal_rank: u64,
    entries: &[u8],
    histogram: &[u64],
    upto: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<u8>, RecoverError> {
    let states = ranker.states() as usize;
    if histogram.len() > usize::from(UNREACHED) {
        return Err(RecoverError::TooDeep);
    }
    debug_assert!(entries.len() * 4 >= states);
    let steps = Scan::tabulated(ranker.board(), class).map_err(|_| RecoverError::TooDeep)?;
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

/// The residue of rank `r`.
#[inline]
pub(crate) fn residue(entries: &[u8], r: u64) -> u8 {
    (entries[r as usize >> 2] >> (2 * (r & 3))) & 3
}

/// Bit `i` set where the entry of rank `64·index + i` is `want` (entries past the end read
/// as 3, which no residue is).
#[inline]
pub(crate) fn residues_equal(entries: &[u8], index: usize, want: u8) -> u64 {
    let mut bytes = [0xFFu8; 16];
    let start = index * 16;
    let end = (start + 16).min(entries.len());
    if start < end {
        bytes[..end - start].copy_from_slice(&entries[start..end]);
    }
    let lo = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    let hi = u64::from_le_bytes(bytes[8..].try_into().expect("8 bytes"));
    let pattern = u64::from(want) * 0x5555_5555_5555_5555;
    let equal = |w: u64| {
        let x = w ^ pattern;
        gather(!(x | (x >> 1)) & 0x5555_5555_5555_5555)
    };
    u64::from(equal(lo)) | u64::from(equal(hi)) << 32
}

/// The even bits of `v` packed into 32 bits (the inverse of spreading).
#[inline]
fn gather(v: u64) -> u32 {
    let mut v = v & 0x5555_5555_5555_5555;
    v = (v | (v >> 1)) & 0x3333_3333_3333_3333;
    v = (v | (v >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    v = (v | (v >> 4)) & 0x00FF_00FF_00FF_00FF;
    v = (v | (v >> 8)) & 0x0000_FFFF_0000_FFFF;
    v = (v | (v >> 16)) & 0x0000_0000_FFFF_FFFF;
    v as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_undoes_spreading() {
        assert_eq!(gather(0x5555_5555_5555_5555), u32::MAX);
        assert_eq!(gather(0b0100_0001), 0b1001);
        assert_eq!(gather(0xAAAA_AAAA_AAAA_AAAA), 0);
    }

    #[test]
    fn residues_are_picked_64_at_a_time() {
        // Ranks 0..70 with residue r mod 3.
        let mut entries = vec![0u8; 18];
        for r in 0..70u32 {
            entries[r as usize / 4] |= ((r % 3) as u8) << (2 * (r % 4));
        }
        for want in 0..3u8 {
            for index in 0..2 {
                let mask = residues_equal(&entries, index, want);
                for i in 0..64u32 {
                    let r = index as u32 * 64 + i;
                    let expected = r < 72 && residue(&entries, u64::from(r)) == want;
                    assert_eq!(mask >> i & 1 == 1, expected, "rank {r} want {want}");
                }
            }
        }
    }
}
