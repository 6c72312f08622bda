//! Following best moves from a state to its section's goal: paths (the stored first moves, or
//! the first closer neighbour in a given letter order), the first move, every optimal move.
//! Every step of a walk is checked, so corrupt entries end it with [`QueryError::Corrupt`],
//! never a loop or a wrong answer.

use slidetable_core::{slide, Layout, Move};

use crate::{Encoding, QueryError, Section};

/// A position during a path walk.
#[derive(Clone, Copy)]
pub(crate) struct Walk {
    pub(crate) packed: u64,
    pub(crate) blank: usize,
    pub(crate) rank: u64,
}

impl Section<'_> {
    /// Where a path walk stands: the packed layout, its blank and its rank.
    #[inline]
    fn step(&self, at: Walk, to: usize, m: Move) -> Walk {
        let packed = slide(at.packed, at.blank, to);
        let rank = self.ranker.step(at.rank, m, packed, to);
        Walk {
            packed,
            blank: to,
            rank,
        }
    }

    /// [`Section::step`] along stored moves, which a branch predictor cannot guess: no
    /// branch on the move ([`slidetable_core::Ranker::step_unpredictable`]). Its own function,
    /// the same shape as `step`, rather than a flag: each of `path`'s walks calls the one it
    /// needs with nothing to decide per step.
    #[inline]
    pub(crate) fn step_stored(&self, at: Walk, to: usize, m: Move) -> Walk {
        let packed = slide(at.packed, at.blank, to);
        let rank = self.ranker.step_unpredictable(at.rank, m, packed, to);
        Walk {
            packed,
            blank: to,
            rank,
        }
    }

    /// What the move from `at` to cell `to` costs: the tile that slides.
    #[inline]
    fn step_cost(&self, at: Walk, to: usize) -> u32 {
        self.cost.of_tile(((at.packed >> (4 * to)) & 0xF) as u8)
    }

    pub(crate) fn walk_start(&self, start: &Layout) -> Walk {
        Walk {
            packed: start.packed(),
            blank: start.blank(),
            rank: self.ranker.rank(start),
        }
    }

    pub(crate) fn walk_at(&self, rank: u64) -> Walk {
        let (packed, blank) = self.ranker.unrank_packed(rank, self.goal_class);
        Walk {
            packed,
            blank,
            rank,
        }
    }

    pub(crate) fn corrupt(&self, at: Walk) -> QueryError {
        QueryError::Corrupt {
            layout: Layout::from_packed(self.descriptor.goal().board(), at.packed)
                .unwrap_or(*self.descriptor.goal()),
        }
    }

    /// The first move in `order` from `at` (whose value is `value`) that brings the goal one
    /// step closer, and where it leads. For byte and wide entries `value` is the exact
    /// distance (or cost) and the neighbour must hold `value − cost of the move`; for 2-bit
    /// entries it is the residue and the neighbour must hold `value − 1 mod 3`.
    #[inline]
    fn closer(
        &self,
        at: Walk,
        value: u32,
        order: &[Move],
    ) -> Result<Option<(Move, Walk, u32)>, QueryError> {
        for &m in order {
            let Some(to) = self.neighbors.of(at.blank, m) else {
                continue;
            };
            let next = self.step(at, to, m);
            let v = self.value(next.rank)?;
            let fits = match self.encoding {
                Encoding::TwoBit => v == (value + 2) % 3,
                Encoding::Byte | Encoding::Wide16 => v + self.step_cost(at, to) == value,
            };
            if fits {
                return Ok(Some((m, next, v)));
            }
        }
        Ok(None)
    }

    /// Walks from `at` to the goal choosing moves by `order` (`None`: the stored first moves
    /// where there are any), calling `f` with each move; returns the distance (or cost). A
    /// corrupt payload cannot loop or panic: every step must bring the goal exactly one
    /// closer, within the header's maximum distance, and end on the goal, or the walk stops
    /// with [`QueryError::Corrupt`].
    pub(crate) fn walk(
        &self,
        mut at: Walk,
        order: Option<&[Move; 4]>,
        mut f: impl FnMut(Move),
    ) -> Result<u32, QueryError> {
        let mut value = self.value(at.rank)?;
        let max = self.descriptor.max_distance();
        let mut total = 0u32;
        if self.encoding == Encoding::TwoBit {
            // On sound entries every walk by residues is optimal, so every order counts the
            // same length; on corrupt ones two orders can wander to the goal by different
            // lengths. An ordered walk must match the walk `distance` counts (code order).
            let expect = match order {
                Some(order) if order != &Move::ALL => {
                    // A function pointer, so the recursion instantiates `walk` only once.
                    let count: fn(Move) = |_| {};
                    Some(self.walk(at, None, count)?)
                }
                _ => None,
            };
            let start = at;
            // An ordered walk stops as soon as it is longer than the counted one.
            let limit = expect.unwrap_or(max);
            while at.packed != self.goal_packed {
                if total >= limit {
                    return Err(self.corrupt(at));
                }
                let (m, next, v) = self
                    .closer(at, value, order.unwrap_or(&Move::ALL))?
                    .ok_or_else(|| self.corrupt(at))?;
                f(m);
                (at, value, total) = (next, v, total + 1);
            }
            if value != 0 {
                return Err(self.corrupt(at));
            }
            if expect.is_some_and(|d| d != total) {
                return Err(self.corrupt(start));
            }
            return Ok(total);
        }
        let Some(order) = order else {
            // One loop per encoding, so the entry is decoded without a test at every step.
            return match self.encoding {
                // A table whose every block is verified (any table read into memory: the
                // 3×3 one) reads its entries without a check at every step.
                Encoding::Byte if self.checks.all_verified() => {
                    self.walk_stored(at, f, |s, r| Ok(s.verified_byte(r)))
                }
                Encoding::Byte => self.walk_stored(at, f, |s, r| s.stored_byte(r)),
                _ => self.walk_stored(at, f, |s, r| {
                    s.stored(r)?.ok_or_else(|| s.corrupt(s.walk_at(r)))
                }),
            };
        };
        let distance = value;
        while value > 0 {
            let (m, next, v) = self
                .closer(at, value, order)?
                .ok_or_else(|| self.corrupt(at))?;
            f(m);
            (at, value) = (next, v);
        }
        if at.packed != self.goal_packed {
            return Err(self.corrupt(at));
        }
        Ok(distance)
    }

    /// [`Section::walk`] along the stored first moves of byte and wide entries, the hot loop
    /// of `path`: each entry is read once for its move and its distance, and every step must
    /// stay on the board and bring the goal exactly one move's cost closer.
    #[inline]
    fn walk_stored(
        &self,
        mut at: Walk,
        mut f: impl FnMut(Move),
        read: impl Fn(&Self, u64) -> Result<(u32, Move), QueryError>,
    ) -> Result<u32, QueryError> {
        let stored = |rank| read(self, rank);
        let (distance, mut m) = stored(at.rank)?;
        if distance > self.descriptor.max_distance() {
            return Err(self.corrupt(at));
        }
        let mut value = distance;
        while value > 0 {
            let to = self
                .neighbors
                .of(at.blank, m)
                .ok_or_else(|| self.corrupt(at))?;
            let next = self.step_stored(at, to, m);
            let (v, next_move) = stored(next.rank)?;
            if v + self.step_cost(at, to) != value {
                return Err(self.corrupt(at));
            }
            f(m);
            (at, m, value) = (next, next_move, v);
        }
        if at.packed != self.goal_packed {
            return Err(self.corrupt(at));
        }
        Ok(distance)
    }

    /// The first move of the path `path_into` takes (`None` at the goal or when
    /// unreachable). Like a path walk, it is checked: a move off the board, or one that does
    /// not bring the goal one step closer, is [`QueryError::Corrupt`], never an answer.
    pub fn first_move(&self, start: &Layout) -> Result<Option<Move>, QueryError> {
        let Some(rank) = self.rank(start)? else {
            return Ok(None);
        };
        let at = self.walk_start(start);
        if at.packed == self.goal_packed {
            return Ok(None);
        }
        let value = self.value(rank)?;
        let order = match self.stored(rank)? {
            Some((_, m)) => vec![m],
            None => Move::ALL.to_vec(),
        };
        if self.encoding != Encoding::TwoBit && value == 0 {
            return Err(self.corrupt(at));
        }
        let (m, _, _) = self
            .closer(at, value, &order)?
            .ok_or_else(|| self.corrupt(at))?;
        Ok(Some(m))
    }

    /// Every move from `layout` that brings the goal one step closer: the first steps of all
    /// optimal (cheapest) paths (empty at the goal or when unreachable).
    pub fn optimal_moves(&self, layout: &Layout) -> Result<Vec<Move>, QueryError> {
        let Some(rank) = self.rank(layout)? else {
            return Ok(Vec::new());
        };
        let at = self.walk_start(layout);
        if at.packed == self.goal_packed {
            return Ok(Vec::new());
        }
        let value = self.value(rank)?;
        let mut moves = Vec::new();
        for m in Move::ALL {
            if self.closer(at, value, &[m])?.is_some() {
                moves.push(m);
            }
        }
        Ok(moves)
    }

    /// Appends an optimal (cheapest) path from `start` to `path`: the stored first moves for
    /// byte and wide entries, the first closer neighbour in code order (u d l r) for 2-bit
    /// ones; false when the goal cannot be reached.
    pub fn path_into(&self, start: &Layout, path: &mut Vec<Move>) -> Result<bool, QueryError> {
        if self.rank(start)?.is_none() {
            return Ok(false);
        }
        self.walk(self.walk_start(start), None, |m| path.push(m))?;
        Ok(true)
    }

    /// Appends the lexicographically smallest optimal (cheapest) path under `order` (see
    /// [`crate::Goal::ordered_path_into`]). On 2-bit entries its length is checked against the
    /// walk [`Section::distance`] counts: corrupt entries that let the two differ are
    /// [`QueryError::Corrupt`], so a path always has the length `distance` reports.
    pub fn ordered_path_into(
        &self,
        start: &Layout,
        order: &[Move; 4],
        path: &mut Vec<Move>,
    ) -> Result<bool, QueryError> {
        if self.rank(start)?.is_none() {
            return Ok(false);
        }
        self.walk(self.walk_start(start), Some(order), |m| path.push(m))?;
        Ok(true)
    }
}
