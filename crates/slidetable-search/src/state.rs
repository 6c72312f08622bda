//! What the searches remember about states: a compact key per layout, a map from keys to
//! what was learnt about them, and the walk back along the moves that reached a state.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use slidetable_core::{Layout, Move, Ranker};

use crate::{Limits, SearchError, Stats};

/// An entry of a best-first search's heap, ordered by `order` alone (a `BinaryHeap` pops
/// the greatest); what it carries never takes part in the order.
pub(crate) struct Queued<O, T> {
    pub(crate) order: O,
    pub(crate) item: T,
}

impl<O: Ord, T> PartialEq for Queued<O, T> {
    fn eq(&self, other: &Self) -> bool {
        self.order == other.order
    }
}

impl<O: Ord, T> Eq for Queued<O, T> {}

impl<O: Ord, T> PartialOrd for Queued<O, T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<O: Ord, T> Ord for Queued<O, T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order.cmp(&other.order)
    }
}

/// The bytes a vector holds, by its capacity.
pub(crate) fn vec_bytes<T>(v: &Vec<T>) -> u64 {
    (v.capacity() * size_of::<T>()) as u64
}

/// Boards with at most this many states per class keep their closed set in a flat array
/// indexed by rank (the 3×3 board has 181,440; 2×5 has 1,814,400). Larger ones use a hash
/// map, which only pays for the states a search actually reaches.
const DENSE_MAX_STATES: u64 = 1 << 21;

/// Turns layouts into `u64` keys: the dense [`Ranker`] rank where the board supports it
/// (up to 12 cells), else the tiles packed four bits per cell (a 4×4 board fills exactly 64
/// bits). Either way two layouts of one class get equal keys exactly when they are equal.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Keyer {
    Rank(Ranker),
    Packed,
}

impl Keyer {
    pub(crate) fn for_layout(layout: &Layout) -> Keyer {
        match Ranker::new(layout.board()) {
            Ok(ranker) => Keyer::Rank(ranker),
            Err(_) => Keyer::Packed,
        }
    }

    #[inline]
    pub(crate) fn key(&self, layout: &Layout) -> u64 {
        match self {
            Keyer::Rank(ranker) => ranker.rank(layout),
            Keyer::Packed => layout
                .tiles()
                .iter()
                .enumerate()
                .fold(0, |k, (cell, &t)| k | u64::from(t) << (4 * cell)),
        }
    }

    /// The key of `child` = `parent` moved by `m`, from the parent's key.
    ///
    /// BFS, bidirectional BFS, A* and Dijkstra each write out their expansion around it (skip
    /// the move back, move, count, key): a shared `fn` returning the child and its key cost
    /// 1-5% more instructions in each (callgrind, 3x3, BENCHMARKS.md issue 19's last round),
    /// so the four loops stay as they are. A horizontal move
    /// keeps the tiles' reading order, so its rank is one block away and needs no ranking;
    /// a packed key changes in the two cells the blank and the tile swap.
    #[inline]
    pub(crate) fn child(&self, key: u64, parent: &Layout, m: Move, child: &Layout) -> u64 {
        match self {
            Keyer::Rank(ranker) => ranker.step(key, m, child.packed(), child.blank()),
            Keyer::Packed => {
                let t = u64::from(child.tile(parent.blank()));
                key ^ (t << (4 * parent.blank())) ^ (t << (4 * child.blank()))
            }
        }
    }

    /// The number of keys, if small enough for a flat array.
    fn dense_len(&self) -> Option<usize> {
        match self {
            Keyer::Rank(ranker) if ranker.states() <= DENSE_MAX_STATES => {
                Some(ranker.states() as usize)
            }
            _ => None,
        }
    }
}

/// `via` of the state a search started from.
pub(crate) const ROOT: u8 = 4;
const UNSEEN: u8 = 5;

/// What a [`StateMap`] holds per state: at least the move that reached it, so paths can be
/// walked back, and an empty value for states not reached.
pub(crate) trait Slot: Copy {
    const EMPTY: Self;

    /// The code of the move that reached this state, [`ROOT`], or `UNSEEN`.
    fn via(self) -> u8;

    /// The move that reached this state, or `None` at the root.
    #[inline]
    fn via_move(self) -> Option<Move> {
        (self.via() < 4).then(|| Move::from_code(self.via()))
    }
}

/// What breadth-first search needs of a state: only the move that reached it. One byte, so
/// the 8-puzzle's whole closed set (181,440 bytes) stays in cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Via(u8);

impl Via {
    pub(crate) const ROOT: Via = Via(ROOT);

    #[inline]
    pub(crate) fn reached(m: Move) -> Via {
        Via(m.code())
    }
}

impl Slot for Via {
    const EMPTY: Via = Via(UNSEEN);

    #[inline]
    fn via(self) -> u8 {
        self.0
    }
}

/// What a search with costs knows about one state: its best cost so far, the move that
/// reached it (the direction the blank moved into it), and whether its cost is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Visit {
    pub(crate) g: u32,
    pub(crate) via: u8,
    pub(crate) closed: bool,
}

impl Visit {
    pub(crate) fn root() -> Visit {
        Visit {
            g: 0,
            via: ROOT,
            closed: false,
        }
    }

    #[inline]
    pub(crate) fn reached(g: u32, m: Move) -> Visit {
        Visit {
            g,
            via: m.code(),
            closed: false,
        }
    }
}

impl Slot for Visit {
    const EMPTY: Visit = Visit {
        g: u32::MAX,
        via: UNSEEN,
        closed: false,
    };

    #[inline]
    fn via(self) -> u8 {
        self.via
    }
}

/// A multiplicative hash folded from both halves of a 128-bit product, so that ranks (dense
/// in the low bits) and packed keys (whose low bits hold only the first two cells) both
/// spread over the table. SipHash would be safe against adversarial keys, which these are not.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        let p = u128::from(key ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
        self.0 = (p as u64) ^ ((p >> 64) as u64);
    }
}

/// Keys to [`Slot`]s: a flat array for small boards, a hash map for large ones.
pub(crate) enum StateMap<V> {
    Dense(Vec<V>),
    Hashed(HashMap<u64, V, BuildHasherDefault<KeyHasher>>),
}

impl<V: Slot> StateMap<V> {
    /// A map for keys of `keyer`. `expect_many` asks for the flat array where the board
    /// allows it: right for searches that may reach much of the state space, wasteful for
    /// informed ones that reach a few thousand states.
    pub(crate) fn new(keyer: &Keyer, expect_many: bool) -> StateMap<V> {
        match keyer.dense_len() {
            Some(n) if expect_many => StateMap::Dense(vec![V::EMPTY; n]),
            _ => StateMap::Hashed(HashMap::default()),
        }
    }

    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<V> {
        match self {
            StateMap::Dense(v) => {
                let slot = v[key as usize];
                (slot.via() != UNSEEN).then_some(slot)
            }
            StateMap::Hashed(m) => m.get(&key).copied(),
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, key: u64, slot: V) {
        match self {
            StateMap::Dense(v) => v[key as usize] = slot,
            StateMap::Hashed(m) => {
                m.insert(key, slot);
            }
        }
    }

    /// The bytes the map holds, by its capacity (a hash map's buckets: key, slot and one
    /// control byte each, about 8 for every 7 entries it can hold).
    pub(crate) fn bytes(&self) -> u64 {
        match self {
            StateMap::Dense(v) => (v.capacity() * size_of::<V>()) as u64,
            StateMap::Hashed(m) => (m.capacity() * 8 / 7 * (size_of::<(u64, V)>() + 1)) as u64,
        }
    }

    /// Records `slot` unless `key` is already known; true if it was new.
    #[inline]
    pub(crate) fn insert_new(&mut self, key: u64, slot: V) -> bool {
        match self {
            StateMap::Dense(v) => {
                let known = &mut v[key as usize];
                let new = known.via() == UNSEEN;
                if new {
                    *known = slot;
                }
                new
            }
            StateMap::Hashed(m) => {
                let mut new = false;
                m.entry(key).or_insert_with(|| {
                    new = true;
                    slot
                });
                new
            }
        }
    }

    /// Appends to `path` the moves from the search's root to `at`, by walking the recorded
    /// `via` moves backwards (each one undone by its opposite) and reversing.
    pub(crate) fn path_to(&self, keyer: &Keyer, at: &Layout, key: u64, path: &mut Vec<Move>) {
        let start = path.len();
        self.walk_to_root(keyer, at, key, |m| path.push(m));
        path[start..].reverse();
    }

    /// Calls `step` with each move from `at` back to the root (each the opposite of the move
    /// that reached the state it leaves). Used as is for the goal's half of a bidirectional
    /// path.
    pub(crate) fn walk_to_root(
        &self,
        keyer: &Keyer,
        at: &Layout,
        key: u64,
        mut step: impl FnMut(Move),
    ) {
        let (mut at, mut key) = (*at, key);
        // Every recorded state was reached from a recorded parent, down to the root.
        while let Some(m) = self.get(key).and_then(Slot::via_move) {
            let back = m.opposite();
            let parent = at.moved(back).expect("a recorded move can be undone");
            key = keyer.child(key, &at, back, &parent);
            at = parent;
            step(m);
        }
    }
}

/// Enforces [`Limits`] and keeps the clock for [`Stats::elapsed`].
pub(crate) struct Budget {
    started: Instant,
    max_expanded: u64,
    deadline: Option<Instant>,
    max_time: Duration,
    max_memory: u64,
    stop: Option<crate::Stop>,
}

impl Budget {
    /// Starts the clock now.
    pub(crate) fn start(limits: &Limits) -> Budget {
        let started = Instant::now();
        Budget {
            started,
            max_expanded: limits.max_expanded.unwrap_or(u64::MAX),
            deadline: limits.max_time.and_then(|t| started.checked_add(t)),
            max_time: limits.max_time.unwrap_or(Duration::MAX),
            max_memory: limits.max_memory.unwrap_or(u64::MAX),
            stop: limits.stop.clone(),
        }
    }

    /// Counts one expansion, or refuses it if a limit is reached. The clock and `held` (the
    /// bytes the search holds) are read only every 1024 expansions: `Instant::now` costs
    /// more than expanding a node.
    #[inline]
    pub(crate) fn expand(
        &self,
        stats: &mut Stats,
        held: impl FnOnce() -> u64,
    ) -> Result<(), SearchError> {
        if stats.expanded >= self.max_expanded {
            return Err(self.stop(stats, crate::Limit::Expanded(self.max_expanded)));
        }
        stats.expanded += 1;
        if stats.expanded.is_multiple_of(1024) {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    return Err(self.stop(stats, crate::Limit::Time(self.max_time)));
                }
            }
            if held() >= self.max_memory {
                return Err(self.stop(stats, crate::Limit::Memory(self.max_memory)));
            }
            if self.stop.as_ref().is_some_and(crate::Stop::requested) {
                return Err(self.stop(stats, crate::Limit::Stopped));
            }
        }
        Ok(())
    }

    #[cold]
    fn stop(&self, stats: &mut Stats, limit: crate::Limit) -> SearchError {
        SearchError::LimitReached {
            limit,
            stats: self.finish(stats),
        }
    }

    /// Stamps the elapsed time on `stats` and returns them.
    pub(crate) fn finish(&self, stats: &mut Stats) -> Stats {
        stats.elapsed = self.started.elapsed();
        stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::Board;

    #[test]
    fn child_keys_match_fresh_keys() {
        for board in [
            Board::EIGHT,
            Board::new(3, 4).unwrap(),
            Board::new(4, 4).unwrap(),
        ] {
            let keyer = Keyer::for_layout(&board.standard_goal());
            let mut l = board.goal_with_blank(board.cells() / 2);
            let mut key = keyer.key(&l);
            for i in 0..200usize {
                let m = Move::ALL[(i * 7 + i / 3) % 4];
                if let Some(next) = l.moved(m) {
                    key = keyer.child(key, &l, m, &next);
                    l = next;
                    assert_eq!(key, keyer.key(&l), "{board} after {i} steps");
                }
            }
        }
    }

    #[test]
    fn small_boards_use_flat_arrays() {
        let eight = Keyer::for_layout(&Board::EIGHT.standard_goal());
        assert!(matches!(
            StateMap::<Via>::new(&eight, true),
            StateMap::Dense(_)
        ));
        assert!(matches!(
            StateMap::<Via>::new(&eight, false),
            StateMap::Hashed(_)
        ));
        let fifteen = Keyer::for_layout(&Board::new(4, 4).unwrap().standard_goal());
        assert!(matches!(fifteen, Keyer::Packed));
        assert!(matches!(
            StateMap::<Visit>::new(&fifteen, true),
            StateMap::Hashed(_)
        ));
    }
}
