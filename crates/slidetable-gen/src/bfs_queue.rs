//! The breadth-first search for boards up to 10 cells, by queues: each level a queue of
//! states per blank cell, each state carried as packed nibbles with its rank (larger boards
//! are searched by scanning bitmaps instead, `bfs_scan.rs`).

use rayon::prelude::*;
use slidetable_core::{slide, Layout, Move, Neighbors, Ranker};
use slidetable_format::{byte_entry, CostModel, Encoding};

use crate::{GenError, SolvedSection};

/// Marks a state not yet reached during the search (never a stored entry: distances stay
/// below 63 in the byte encoding, see [`GenError::TooDeep`]).
const UNSEEN: u8 = 0xFF;

/// Breadth-first search from `goal` over every layout of its class.
///
/// Level by level: each state of level d tries its legal moves; an unseen neighbour joins
/// level d+1 with the move back towards the state it came from as its first move. States
/// travel as packed nibbles (see [`Layout::packed`]) with their rank, so a move is two nibble
/// writes. A horizontal move keeps the tiles' reading order, so its rank is exactly one block
/// away; only vertical moves rank afresh (by table look-ups up to 9 cells, see [`Ranker`]).
/// Each level is kept in one queue per blank cell: a whole run of states then tries the same
/// moves in the same order, which keeps the branch predictor right (on 3×3 this alone made
/// the search 1.45× faster).
pub fn solve_section(goal: &Layout) -> Result<SolvedSection, GenError> {
    let ranker = Ranker::new(goal.board())?;
    let board = goal.board();
    let moves = Neighbors::new(board);
    let mut entries = vec![UNSEEN; ranker.states() as usize];
    let goal_rank = ranker.rank(goal);
    entries[goal_rank as usize] = byte_entry(0, Move::Up);
    let mut histogram = vec![1u64];
    // Each level in one queue per blank cell, so that the moves tried (and the branches
    // taken) are the same for a whole run of states.
    let cells = board.cells();
    let mut level: Vec<Vec<Node>> = vec![Vec::new(); cells];
    let mut next: Vec<Vec<Node>> = vec![Vec::new(); cells];
    level[goal.blank()].push(Node {
        packed: goal.packed(),
        rank: goal_rank as u32,
    });
    let max = Encoding::Byte.max_distance() - 1; // 63 with move r would read as UNSEEN
    let mut distance = 0u32;
    let mut found = 1;
    while found > 0 {
        distance += 1;
        for (blank, nodes) in level.iter().enumerate() {
            let from = moves.from(blank);
            for node in nodes {
                for &(m, to) in from {
                    let to = to as usize;
                    let packed = slide(node.packed, blank, to);
                    let rank = ranker.step(u64::from(node.rank), m, packed, to);
                    let e = &mut entries[rank as usize];
                    if *e == UNSEEN {
                        *e = byte_entry(distance.min(max), m.opposite());
                        next[to].push(Node {
                            packed,
                            rank: rank as u32,
                        });
                    }
                }
            }
        }
        found = next.iter().map(Vec::len).sum::<usize>();
        if found > 0 {
            if distance > max {
                return Err(GenError::TooDeep { goal: *goal, max });
            }
            histogram.push(found as u64);
        }
        std::mem::swap(&mut level, &mut next);
        next.iter_mut().for_each(Vec::clear);
    }
    debug_assert!(!entries.contains(&UNSEEN));
    Ok(SolvedSection {
        goal: *goal,
        entries,
        histogram,
        encoding: Encoding::Byte,
        cost: CostModel::Unit,
    })
}

/// A state in the search's queue.
#[derive(Clone, Copy)]
struct Node {
    packed: u64,
    /// Below 10!/2: a `u32` holds it at half a `u64`'s memory.
    rank: u32,
}

/// Solves several goals, in parallel over the machine's cores.
pub fn solve_sections(goals: &[Layout]) -> Result<Vec<SolvedSection>, GenError> {
    goals.par_iter().map(solve_section).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::Board;

    #[test]
    fn two_by_two_is_a_cycle_of_twelve() {
        let board = Board::new(2, 2).unwrap();
        let s = solve_section(&board.standard_goal()).unwrap();
        assert_eq!(s.histogram, vec![1, 2, 2, 2, 2, 2, 1]);
    }

    #[test]
    fn eight_puzzle_histogram_is_the_known_one() {
        let s = solve_section(&Board::EIGHT.standard_goal()).unwrap();
        assert_eq!(s.histogram.iter().sum::<u64>(), 181_440);
        assert_eq!(s.max_distance(), 31);
        assert_eq!(s.histogram[31], 2);
        // The published level sizes of the 8-puzzle from its standard goal.
        assert_eq!(&s.histogram[..8], &[1, 2, 4, 8, 16, 20, 39, 62]);
    }
}
