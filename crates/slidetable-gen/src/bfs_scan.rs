//! The breadth-first search for boards of 11 and 12 cells, by scanning: on every core, in
//! memory close to the table's own size, the levels live in bitmaps of one bit per rank
//! (12!/2 bits = 30 MB for the largest boards) scanned in rank order, not in queues (the
//! search of smaller boards, `bfs_queue.rs`).
//!
//! Three bitmaps: `seen` (every state at distance ≤ d), `frontier` (exactly d) and `next`
//! (exactly d + 1, being found). Each level is found one of two ways, whichever is cheaper:
//!
//! * **top-down** — every frontier state (scanned in rank order, in parallel chunks) tries
//!   its moves and marks each neighbour that is not `seen` in `next` (an atomic OR: marking
//!   twice is harmless, so threads need no other coordination);
//! * **bottom-up** — once the frontier outnumbers the states still unseen, every unseen
//!   state looks for a neighbour in the frontier instead; each thread owns whole words of
//!   `next`, so nothing is shared.
//!
//! Then one pass over `next` settles the new level's entries (each thread owns the entry
//! bytes its bitmap words cover) and adds it to `seen`. The entries are written once per
//! state and never read during the search: all membership tests go to the bitmaps, which are
//! an eighth of the byte entries' size and stay in cache longer.
//!
//! Byte entries only: 2-bit entries (the distance mod 3) have one search, in their own
//! memory (`bfs_residues.rs`), which this one hands them to. Entries are deterministic
//! whatever the threads do: a byte entry's first move is the first in code order (u d l r)
//! that reaches the level before.

use rayon::prelude::*;
use slidetable_core::{
    each_set_bit, expand_level, AtomicBitmap, Expand, Layout, Move, Scan, SCAN_CHUNK,
};
use slidetable_format::{byte_entry, Encoding};

use crate::{widen, GenError, SolvedSection};
use slidetable_format::CostModel;

/// Bitmap words per parallel work item (4096 words = 262,144 ranks).
const CHUNK: usize = SCAN_CHUNK;

/// Solves `goal`'s class with every core, into byte or 2-bit entries (the latter by the
/// search of `bfs_residues.rs`); `progress` is told how many states each level settles.
pub fn solve_by_scan(
    goal: &Layout,
    encoding: Encoding,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SolvedSection, GenError> {
    match encoding {
        Encoding::Byte => {}
        Encoding::TwoBit => return crate::bfs_residues::solve_by_residues(goal, progress),
        // 16-bit entries hold what byte entries do, widened.
        Encoding::Wide16 => return solve_by_scan(goal, Encoding::Byte, progress).map(widen),
    }
    let space = Scan::tabulated(goal.board(), goal.class())?;
    let ranker = *space.ranker();
    let states = ranker.states() as usize;
    let mut entries = vec![0u8; states];
    let seen = AtomicBitmap::new(states);
    let mut frontier = AtomicBitmap::new(states);
    let mut next = AtomicBitmap::new(states);
    let goal_rank = ranker.rank(goal);
    seen.set(goal_rank);
    frontier.set(goal_rank);
    // The goal's entry is 0, as the zeroed entries already say.
    let mut histogram = vec![1u64];
    let mut reached = 1u64;
    progress(1);
    let max = encoding.max_distance();
    let mut depth = 0u32;
    while reached < states as u64 {
        let in_frontier = histogram[depth as usize];
        let unseen = states as u64 - reached;
        let how = if in_frontier > unseen {
            Expand::BottomUp
        } else {
            Expand::TopDown
        };
        expand_level(
            &space,
            &frontier,
            &next,
            how,
            |index| !seen.word(index) & seen.in_range(index),
            |_, k, bit| seen.word(k) & bit == 0,
            |k| !seen.word(k),
        );
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
        next.clear();
    }
    Ok(SolvedSection {
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
    entries: &mut [u8],
    space: &Scan,
    seen: &AtomicBitmap,
    frontier: &AtomicBitmap,
    next: &AtomicBitmap,
    depth: u32,
) -> u64 {
    entries
        .par_chunks_mut(CHUNK * 64)
        .enumerate()
        .map(|(chunk, out)| {
            let mut count = 0u64;
            let mut cursor = space.cursor();
            for (i, out) in out.chunks_mut(64).enumerate() {
                let index = chunk * CHUNK + i;
                let found = next.word(index);
                seen.or_word(index, found);
                count += u64::from(found.count_ones());
                each_set_bit(index, found, |r| {
                    let mut first = Move::Up;
                    space.any_neighbor(&mut cursor, r, |m, n| {
                        first = m;
                        frontier.test(n)
                    });
                    out[(r & 63) as usize] = byte_entry(depth.min(63), first);
                });
            }
            count
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_format::wide_at;

    #[test]
    fn sixteen_bit_entries_are_the_byte_entries_widened() {
        let goal = slidetable_core::Board::new(2, 3).unwrap().standard_goal();
        let byte = solve_by_scan(&goal, Encoding::Byte, &|_| {}).unwrap();
        let wide = solve_by_scan(&goal, Encoding::Wide16, &|_| {}).unwrap();
        assert_eq!(wide.encoding, Encoding::Wide16);
        assert_eq!(wide.histogram, byte.histogram);
        assert_eq!(wide.entries.len(), 2 * byte.entries.len());
        for (pair, &b) in wide.entries.chunks(2).zip(&byte.entries) {
            assert_eq!(wide_at(pair, 0), u16::from(b));
        }
    }
}
