//! Puzzles drawn without a table: a walk of random moves from the goal, or a layout drawn
//! uniformly from all those that reach it. Both are fixed functions of the seed.

use slidetable_core::{Layout, Move};
use slidetable_query::SplitMix64;

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

/// A layout drawn uniformly from those that reach `goal`: the tiles shuffled (Fisher–Yates),
/// then, if the shuffle landed in the other parity class, the first two tiles (not the gap)
/// swapped, which pairs the two classes one to one.
pub(crate) fn uniform(goal: &Layout, rng: &mut SplitMix64) -> Option<Layout> {
    let mut tiles = goal.tiles().to_vec();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut drawn = Layout::new(goal.board(), &tiles).ok()?;
    if drawn.class() != goal.class() {
        let mut cells = (0..tiles.len()).filter(|&c| tiles[c] != 0);
        let (a, b) = (cells.next()?, cells.next()?);
        tiles.swap(a, b);
        drawn = Layout::new(goal.board(), &tiles).ok()?;
    }
    Some(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::Board;
    use std::collections::HashMap;

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

    #[test]
    fn uniform_draws_cover_the_goal_class_evenly() {
        // 2×2: 12 layouts reach the goal; 12,000 draws, each about 1,000 times.
        let goal = Board::new(2, 2).unwrap().standard_goal();
        let mut rng = SplitMix64::new(1);
        let mut seen: HashMap<Layout, u32> = HashMap::new();
        for _ in 0..12_000 {
            let l = uniform(&goal, &mut rng).unwrap();
            assert_eq!(l.class(), goal.class());
            *seen.entry(l).or_default() += 1;
        }
        assert_eq!(seen.len(), 12);
        assert!(seen.values().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    }
}
