//! A perimeter around the goal for IDA*: every state within `D` moves of the goal with its
//! exact distance, in memory, so that the search stops where it reaches one (Manzini 1995;
//! Dillenburg and Nelson 1994). A state found here is exactly `d` moves away; a state not
//! found is more than `D` moves away, which is a lower bound of its own.
//!
//! The states come from a table of the states within `D` moves (`generate --max-depth D`,
//! read by the query crate) or any other source; [`Perimeter::new`] keeps them in an
//! open-addressed hash set of 8-byte keys. A key is the layout's tiles, 4 bits a cell, cells
//! 0 … 14 (the last cell's tile follows from the others), and the distance halved in the top
//! 4 bits: the distance's parity is the parity of the blank's Manhattan distance to the
//! goal's blank (every move takes the blank to a cell of the other colour), so `D` may be at
//! most 31.

use slidetable_core::{Layout, Move};

/// The deepest perimeter a key holds: the distance halved in 4 bits.
pub const MAX_PERIMETER_DEPTH: u32 = 31;

/// The key bits that name the layout (cells 0 … 14); the top 4 hold the distance halved.
const LAYOUT_BITS: u64 = (1 << 60) - 1;

/// Why states cannot make a perimeter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PerimeterError {
    /// The depth is past what a key holds.
    #[error("a perimeter of {depth} moves: at most {MAX_PERIMETER_DEPTH} are held")]
    TooDeep {
        /// The depth asked for.
        depth: u32,
    },
    /// A state given is on another board than the goal's.
    #[error("a state of the perimeter is on board {found}, the goal's is {expected}")]
    Board {
        /// The state's board.
        found: String,
        /// The goal's board.
        expected: String,
    },
    /// A state given at a distance the depth does not allow, or of the wrong parity.
    #[error("state {layout} is given at distance {distance}, which is not a distance it can have within {depth} moves")]
    Distance {
        /// The state.
        layout: String,
        /// The distance given.
        distance: u32,
        /// The perimeter's depth.
        depth: u32,
    },
    /// The goal itself is missing or not at distance 0.
    #[error("the perimeter does not hold the goal at distance 0")]
    NoGoal,
}

/// Every state within `depth` moves of `goal`, with its distance (see the module's doc).
#[derive(Clone, Debug)]
pub struct Perimeter {
    goal: Layout,
    depth: u32,
    /// Open addressing, linear probing; 0 is an empty slot (no layout's key is 0).
    slots: Vec<u64>,
    /// Slot count − 1 (a power of two).
    mask: u64,
    states: u64,
    /// The goal blank's row and column, for the distance's parity.
    goal_blank: (usize, usize),
}

/// The tiles of `tiles`, 4 bits a cell from cell 0, as the search keeps them.
#[inline]
pub(crate) fn packed(tiles: &[u8]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .fold(0, |k, (c, &t)| k | u64::from(t) << (4 * c))
}

#[inline(always)]
fn slot_of(key: u64, mask: u64) -> u64 {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 24) & mask
}

impl Perimeter {
    /// An empty perimeter of `depth` moves around `goal`, room made for `count` states;
    /// [`add`](Self::add) each state within `depth` moves, then [`done`](Self::done). Every
    /// state must be added for the search to be right: a state left out would be taken as
    /// more than `depth` moves away.
    pub fn new(goal: &Layout, depth: u32, count: u64) -> Result<Perimeter, PerimeterError> {
        if depth > MAX_PERIMETER_DEPTH {
            return Err(PerimeterError::TooDeep { depth });
        }
        let cols = goal.board().cols();
        let size = (count.max(1) * 2).next_power_of_two().max(64);
        Ok(Perimeter {
            goal: *goal,
            depth,
            slots: vec![0; size as usize],
            mask: size - 1,
            states: 0,
            goal_blank: (goal.blank() / cols, goal.blank() % cols),
        })
    }

    /// Adds `layout`, `d` moves from the goal.
    pub fn add(&mut self, layout: &Layout, d: u32) -> Result<(), PerimeterError> {
        if layout.board() != self.goal.board() {
            return Err(PerimeterError::Board {
                found: layout.board().to_string(),
                expected: self.goal.board().to_string(),
            });
        }
        if d > self.depth
            || d % 2 != self.parity(layout.blank())
            || (d == 0) != (*layout == self.goal)
        {
            return Err(PerimeterError::Distance {
                layout: layout.to_string(),
                distance: d,
                depth: self.depth,
            });
        }
        if self.states * 2 >= self.slots.len() as u64 {
            self.grow();
        }
        self.insert(packed(layout.tiles()) & LAYOUT_BITS, d);
        Ok(())
    }

    /// The perimeter, once it holds the goal.
    pub fn done(self) -> Result<Perimeter, PerimeterError> {
        match self.distance(&self.goal) {
            Some(0) => Ok(self),
            _ => Err(PerimeterError::NoGoal),
        }
    }

    fn insert(&mut self, key: u64, d: u32) {
        let mut s = slot_of(key, self.mask);
        loop {
            let slot = &mut self.slots[s as usize];
            if *slot == 0 {
                *slot = key | u64::from(d / 2) << 60;
                self.states += 1;
                return;
            }
            if *slot & LAYOUT_BITS == key {
                return;
            }
            s = (s + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() as u64 * 2;
        self.slots = vec![0; size as usize];
        self.mask = size - 1;
        self.states = 0;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let key = slot & LAYOUT_BITS;
            let mut s = slot_of(key, self.mask);
            while self.slots[s as usize] != 0 {
                s = (s + 1) & self.mask;
            }
            self.slots[s as usize] = slot;
            self.states += 1;
        }
    }

    /// The parity of the distance of a state with its blank in `blank`.
    #[inline(always)]
    fn parity(&self, blank: usize) -> u32 {
        let cols = self.goal.board().cols();
        ((blank / cols).abs_diff(self.goal_blank.0) + (blank % cols).abs_diff(self.goal_blank.1))
            as u32
            % 2
    }

    /// The goal.
    pub fn goal(&self) -> &Layout {
        &self.goal
    }

    /// The depth `D`: every state within it is held.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The states held.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// The bytes of the hash set.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// The distance of the state whose tiles are `key` ([`packed`]) and blank `blank`, if it
    /// is within the depth.
    #[inline(always)]
    pub(crate) fn distance_of(&self, key: u64, blank: usize) -> Option<u32> {
        let key = key & LAYOUT_BITS;
        let mut s = slot_of(key, self.mask);
        loop {
            let slot = self.slots[s as usize];
            if slot == 0 {
                return None;
            }
            if slot & LAYOUT_BITS == key {
                return Some(((slot >> 60) as u32) * 2 + self.parity(blank));
            }
            s = (s + 1) & self.mask;
        }
    }

    /// `layout`'s distance if it is within the depth (`None`: more than `depth` moves, or a
    /// layout of another board or class).
    pub fn distance(&self, layout: &Layout) -> Option<u32> {
        if layout.board() != self.goal.board() {
            return None;
        }
        self.distance_of(packed(layout.tiles()), layout.blank())
    }

    /// The smallest optimal path under `order` from `layout`, a state within the depth, to
    /// the goal: at each step the first move in `order` to a state one move nearer.
    pub fn path(&self, layout: &Layout, order: [Move; 4]) -> Option<Vec<Move>> {
        let mut d = self.distance(layout)?;
        let mut at = *layout;
        let mut path = Vec::with_capacity(d as usize);
        while d > 0 {
            let (m, next) = order.iter().find_map(|&m| {
                let next = at.moved(m)?;
                (self.distance(&next) == Some(d - 1)).then_some((m, next))
            })?;
            path.push(m);
            at = next;
            d -= 1;
        }
        Some(path)
    }
}
