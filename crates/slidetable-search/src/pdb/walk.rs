//! The IDA* of [`PatternSearch`] as a walk that can be paused after every expansion, and
//! the driver that walks several searches at once on one thread.
//!
//! Expanding a node computes each child's ranks and starts the reads of their entries (a
//! cache miss each in a database of hundreds of megabytes), then reads the first of them:
//! one search alone waits there for memory. A [`Walk`] keeps its depth-first stack itself
//! and returns right after it starts those reads; [`PatternSearch::solve_batch`] then steps
//! other searches, and by the time it comes back the entries are in cache. Each search's
//! nodes are visited in the same order as alone, so its path and its counts are the same.

use slidetable_core::{Layout, Move};
use slidetable_format::excess_at;

use super::{prefetch, Child, Node, PatternHeuristic, PatternSearch, Undo};
use crate::pruning::{Pruner, PRUNED};
use crate::state::{Budget, ROOT};
use crate::{check_solvable, Limits, SearchError, Solution, Stats};

/// One expanded node on the stack: its children (ranks computed, entries prefetched), the
/// next one to try, the least f over the bound seen among them, and what the move to the
/// child being searched below changed.
#[derive(Clone, Copy, Default)]
struct Frame {
    children: [Child; 4],
    count: u8,
    next: u8,
    exceeded: u32,
    /// The move to the child being searched below this node: the cells it joins, the tile,
    /// its groups on both sides, and the values it replaced.
    from: u8,
    to: u8,
    tile: u8,
    gi: u8,
    mi: u8,
    saved: Undo,
}

/// How a search ended: a path, no path within its `most` moves (`None`), or an error.
pub(super) type Answer = Result<Option<Solution>, SearchError>;

/// One IDA* search over one mutable node, paused after each expansion.
pub(super) struct Walk<'s, 'h, 'a> {
    search: &'s PatternSearch<'h, 'a>,
    pruner: &'s Pruner,
    start: Layout,
    order: [Move; 4],
    most: u32,
    longest: u64,
    node: Node,
    bound: u32,
    /// The expanded nodes from the start down, the start's at 0, the current one at
    /// `depth`; as many as the longest path needs, written in place.
    stack: Vec<Frame>,
    depth: usize,
    /// The moves to the node being searched, in its first `g` places: written in place, and
    /// longer only when the search goes deeper than ever (then the peak is counted too).
    path: Vec<Move>,
    budget: Budget,
    stats: Stats,
    /// How the search ended, once it has.
    end: Option<Answer>,
}

impl<'s, 'h, 'a> Walk<'s, 'h, 'a> {
    /// A search from `start` (the first bound's root not yet expanded), or its answer when
    /// it needs no search: the start is the goal, or cannot reach it.
    pub(super) fn new(
        search: &'s PatternSearch<'h, 'a>,
        pruner: &'s Pruner,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
        most: u32,
    ) -> Result<Walk<'s, 'h, 'a>, Answer> {
        let goal = &search.heuristic.goal;
        check_solvable(start, goal).map_err(Err)?;
        let node = search.heuristic.node(start);
        let mut walk = Walk {
            search,
            pruner,
            start: *start,
            order,
            most,
            longest: start.board().most_moves(goal.blank()),
            node,
            bound: PatternHeuristic::h(&node),
            stack: Vec::new(),
            depth: 0,
            path: Vec::with_capacity(96),
            budget: Budget::start(limits),
            stats: Stats {
                iterations: Some(0),
                ..Stats::default()
            },
            end: None,
        };
        walk.stack = vec![Frame::default(); walk.longest as usize + 2];
        if start == goal {
            let stats = walk.budget.finish(&mut walk.stats);
            return Err(Ok(Some(Solution::unit(Vec::new(), stats))));
        }
        match walk.begin_iteration() {
            true => Ok(walk),
            false => Err(walk.end.take().unwrap_or(Ok(None))),
        }
    }

    /// Starts the depth-first pass within the current bound: expands the start.
    #[cold]
    fn begin_iteration(&mut self) -> bool {
        if self.bound > self.most {
            return self.ended(Ok(None));
        }
        if u64::from(self.bound) > self.longest {
            return self.ended(Err(SearchError::Overestimated {
                bound: self.bound,
                longest: self.longest,
            }));
        }
        self.stats.iterations = self.stats.iterations.map(|i| i + 1);
        self.stats.bound = Some(self.bound);
        self.expand(0, ROOT, Pruner::root(self.start.blank()))
    }

    /// Counts the current node as expanded, computes its children's ranks, starts the reads
    /// of their entries and makes it the deepest, at `depth` (`g`).
    #[inline(always)]
    fn expand(&mut self, depth: usize, via: u8, state: u32) -> bool {
        // Depth-first: what it holds is the path, not counted against --max-memory.
        if let Err(e) = self.budget.expand(&mut self.stats, || 0) {
            return self.ended(Err(e));
        }
        let h = self.search.heuristic;
        let from = self.node.blank as usize;
        self.depth = depth;
        let frame = &mut self.stack[depth];
        let mut count = 0;
        for m in self.order {
            let code = m.code();
            if code ^ 1 == via {
                continue;
            }
            let to = self.search.neighbor[from][code as usize];
            if to == u8::MAX {
                continue;
            }
            let next = self.pruner.next(state, code);
            if next == PRUNED {
                continue;
            }
            // The child's row of the automaton, read first thing when it is searched: 8
            // bytes a state, as 16 half-byte entries of `prefetch`.
            prefetch(self.pruner.row_bytes(), next << 4);
            // The tile in `to` would slide into the blank's cell: one rank changes per side.
            let tile = self.node.tiles[to as usize] as usize;
            let p = h.place[tile];
            let (rank, mirror_rank) = h.moved_ranks(&self.node, tile, to as usize, from);
            prefetch(h.groups[p.group as usize].payload, rank);
            if let Some(mirror) = &h.mirror {
                prefetch(
                    mirror.groups[mirror.place[tile].group as usize].payload,
                    mirror_rank,
                );
            }
            frame.children[count] = Child {
                code,
                to,
                state: next,
                rank,
                mirror_rank,
            };
            count += 1;
        }
        frame.count = count as u8;
        frame.next = 0;
        frame.exceeded = u32::MAX;
        frame.from = from as u8;
        true
    }

    /// Keeps how the search ended; `false`, for [`step`](Self::step) to return.
    #[cold]
    fn ended(&mut self, end: Answer) -> bool {
        self.end = Some(end);
        false
    }

    /// Goes on from where the last step stopped until the next node is expanded or the
    /// search ends: the children of the deepest node are tried in order (their entries read,
    /// now in cache), the first within the bound is moved to and expanded; a node whose
    /// children are all tried is left, its move undone.
    ///
    /// `true`: a node was expanded, its children's entries on their way; `false`: the search
    /// ended, and [`answer`](Self::answer) says how.
    #[inline]
    pub(super) fn step(&mut self) -> bool {
        let h = self.search.heuristic;
        loop {
            let depth = self.depth;
            let g = depth as u32;
            let frame = &mut self.stack[depth];
            if frame.next == frame.count {
                let exceeded = frame.exceeded;
                if let Some(step) = self.leave(exceeded) {
                    return step;
                }
                continue;
            }
            let child = frame.children[frame.next as usize];
            frame.next += 1;
            let (code, to, from) = (child.code, child.to as usize, frame.from as usize);
            self.stats.generated += 1;
            let tile = self.node.tiles[to] as usize;
            let gi = h.place[tile].group as usize;
            let md = self.node.md + u32::from(h.md[tile][from]) - u32::from(h.md[tile][to]);
            let e = excess_at(h.groups[gi].payload, child.rank);
            let sum = self.node.sum + e - u32::from(self.node.excess[gi]);
            // The mirrored entry is read only where the plain sum does not already prune.
            // Every f has the parity of the start's g + md, so a plain f over the bound is at
            // least the next bound anyway.
            let mut f = g + 1 + md + 2 * sum;
            let (mut mi, mut mirror_e, mut mirror_sum) = (0, 0, self.node.mirror_sum);
            if f <= self.bound {
                if let Some(mirror) = &h.mirror {
                    mi = mirror.place[tile].group as usize;
                    mirror_e = excess_at(mirror.groups[mi].payload, child.mirror_rank);
                    mirror_sum = mirror_sum + mirror_e - u32::from(self.node.mirror_excess[mi]);
                }
                f = g + 1 + md + 2 * sum.max(mirror_sum);
            }
            if f > self.bound {
                // Pruned: the node was not changed.
                frame.exceeded = frame.exceeded.min(f);
                if f > self.bound + 2 {
                    // Pathmax from a child: the child is one move away, so this node is at
                    // least the child's estimate less one from the goal, and any path through
                    // it costs at least f − 2, over the bound: the remaining children are not
                    // tried. (The child's own estimate, never a value returned from below
                    // it, which the pruning automaton makes a bound of the kept paths only.)
                    if let Some(step) = self.leave(f - 2) {
                        return step;
                    }
                }
                continue;
            }
            // The move, made in place and undone when the child is left.
            frame.saved = Undo::save(&self.node, gi, mi);
            frame.to = to as u8;
            frame.tile = tile as u8;
            frame.gi = gi as u8;
            frame.mi = mi as u8;
            self.node.tiles[from] = tile as u8;
            self.node.tiles[to] = 0;
            self.node.blank = to as u8;
            self.node.md = md;
            self.node.occupied[gi] ^= 1 << from | 1 << to;
            self.node.rank[gi] = child.rank;
            self.node.excess[gi] = e as u8;
            self.node.sum = sum;
            if let Some(mirror) = &h.mirror {
                self.node.mirror_occupied[mi] ^= 1 << mirror.cells[from] | 1 << mirror.cells[to];
                self.node.mirror_rank[mi] = child.mirror_rank;
                self.node.mirror_excess[mi] = mirror_e as u8;
                self.node.mirror_sum = mirror_sum;
            }
            let step = Move::from_code(code);
            match self.path.get_mut(g as usize) {
                Some(place) => *place = step,
                None => {
                    self.path.push(step);
                    self.stats.peak_open = self.path.len() as u64;
                }
            }
            if md == 0 {
                // Every tile home: the goal. By the tiles, never by the databases' estimate,
                // which a damaged entry could keep above 0 here forever.
                return self.found(g as usize + 1);
            }
            return self.expand(depth + 1, code, child.state);
        }
    }

    /// The path of `len` moves to the current node, the goal.
    #[cold]
    fn found(&mut self, len: usize) -> bool {
        let stats = self.budget.finish(&mut self.stats);
        let mut path = std::mem::take(&mut self.path);
        path.truncate(len);
        self.ended(Ok(Some(Solution::unit(path, stats))))
    }

    /// How the search ended (once [`step`](Self::step) returned `false`).
    pub(super) fn answer(&mut self) -> Answer {
        self.end.take().unwrap_or(Ok(None))
    }

    /// Leaves the deepest node, which proved `exceeded` (the least f over the bound below
    /// it): undoes the move to it, or, at the start, begins the next pass (or ends).
    #[inline(always)]
    fn leave(&mut self, exceeded: u32) -> Option<bool> {
        if self.depth == 0 {
            if exceeded == u32::MAX {
                let (start, goal) = (self.start, self.search.heuristic.goal);
                return Some(self.ended(Err(SearchError::Unsolvable { start, goal })));
            }
            self.bound = exceeded;
            return Some(self.begin_iteration());
        }
        self.depth -= 1;
        let parent = &mut self.stack[self.depth];
        parent.exceeded = parent.exceeded.min(exceeded);
        let (from, to) = (parent.from as usize, parent.to as usize);
        let (gi, mi) = (parent.gi as usize, parent.mi as usize);
        self.node.tiles[to] = parent.tile;
        self.node.tiles[from] = 0;
        self.node.blank = from as u8;
        self.node.occupied[gi] ^= 1 << from | 1 << to;
        if let Some(mirror) = &self.search.heuristic.mirror {
            self.node.mirror_occupied[mi] ^= 1 << mirror.cells[from] | 1 << mirror.cells[to];
        }
        parent.saved.restore(&mut self.node, gi, mi);
        None
    }
}

impl PatternSearch<'_, '_> {
    /// Solves the starts that `take` hands out (indices into `starts`, until it says
    /// `None`) on this thread, `ways` searches at a time, each answer (as
    /// [`solve_within`](Self::solve_within) gives it) with its index.
    pub(super) fn walk_many(
        &self,
        starts: &[Layout],
        take: &dyn Fn() -> Option<usize>,
        order: [Move; 4],
        limits: &Limits,
        most: u32,
        ways: usize,
    ) -> Vec<(usize, Result<Option<Solution>, SearchError>)> {
        let pruner = Pruner::of(self.heuristic.goal.board().into(), order);
        let mut answers = Vec::new();
        let mut walks: Vec<(usize, Walk<'_, '_, '_>)> = Vec::with_capacity(ways);
        let mut more = true;
        loop {
            while more && walks.len() < ways.max(1) {
                let Some(i) = take() else {
                    more = false;
                    break;
                };
                match Walk::new(self, &pruner, &starts[i], order, limits, most) {
                    Ok(walk) => walks.push((i, walk)),
                    Err(done) => answers.push((i, done)),
                }
            }
            if walks.is_empty() {
                return answers;
            }
            let mut w = 0;
            while w < walks.len() {
                if walks[w].1.step() {
                    w += 1;
                } else {
                    answers.push((walks[w].0, walks[w].1.answer()));
                    walks.swap_remove(w);
                }
            }
        }
    }

    /// Each start's answer, as [`solve_within`](Self::solve_within) gives it, in the order
    /// of `starts`: on this thread when `threads` is 1, else on every core (rayon), each
    /// thread walking `ways` searches at a time.
    pub fn solve_batch(
        &self,
        starts: &[Layout],
        order: [Move; 4],
        limits: &Limits,
        most: u32,
        ways: usize,
        threads: bool,
    ) -> Vec<Result<Option<Solution>, SearchError>> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let take = || {
            let i = next.fetch_add(1, Ordering::Relaxed);
            (i < starts.len()).then_some(i)
        };
        let found: Vec<Vec<(usize, Result<Option<Solution>, SearchError>)>> = if threads {
            rayon::broadcast(|_| self.walk_many(starts, &take, order, limits, most, ways))
        } else {
            vec![self.walk_many(starts, &take, order, limits, most, ways)]
        };
        let mut answers: Vec<_> = found.into_iter().flatten().collect();
        answers.sort_unstable_by_key(|(i, _)| *i);
        answers.into_iter().map(|(_, a)| a).collect()
    }
}
