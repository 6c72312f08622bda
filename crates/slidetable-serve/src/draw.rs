//! Puzzles drawn without a table: a walk of random moves from the goal (a uniform draw is the
//! query crate's `SplitMix64::layout_reaching`, as on the command line). A fixed function of the seed.

use slidetable::core::{Layout, Move};
use slidetable::query::SplitMix64;

/// The longest walk drawn (longer walks add nothing: a few hundred moves mix a 4×4 board).
pub(crate) const MAX_WALK: u32 = 10_000;

/// `moves` random moves of the gap from `goal`, never straight back (so a walk of N moves
/// is not mostly undone), each legal move equally likely.
pub(crate) fn walk(goal: &Layout, moves: u32, rng: &mut SplitMix64) -> Layout {
    let mut at = *goal;
    let mut last: Option<Move> = None;
    for _ in 0..moves {
        let mut options = [Move::Up; 4];
        let mut n = 0;
        for m in Move::ALL {
            if last.is_some_and(|l| l.opposite() == m) || at.moved(m).is_none() {
                continue;
            }
            options[n] = m;
            n += 1;
        }
        let m = options[rng.below(n as u64) as usize];
        if let Some(next) = at.moved(m) {
            at = next;
            last = Some(m);
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable::core::Board;

    #[test]
    fn walks_end_where_their_moves_lead_and_repeat_by_seed() {
        let goal = Board::FIFTEEN.standard_goal();
        let a = walk(&goal, 40, &mut SplitMix64::new(5));
        assert_eq!(a, walk(&goal, 40, &mut SplitMix64::new(5)));
        assert_eq!(a.class(), goal.class());
        assert_eq!(walk(&goal, 0, &mut SplitMix64::new(5)), goal);
        // One move from the goal: one of the two neighbours.
        let one = walk(&goal, 1, &mut SplitMix64::new(9));
        assert!(Move::ALL.iter().any(|&m| goal.moved(m) == Some(one)));
    }
}
