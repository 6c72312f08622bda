//! The IDA* of [`PatternSearch`] as a walk that can be paused after every expansion, and
//! the driver that walks several searches at once on one thread.
//!
//! Expanding a node computes each child's ranks and starts the reads of their entries (a
//! cache miss each in a database of hundreds of megabytes), then reads the first of them:
//! one search alone waits there for memory. A [`Walk`] keeps its depth-first stack itself
//! and returns right after it starts those reads; [`PatternSearch::solve_batch`] then steps
//! other searches, and by the time it comes back the entries are in cache. Each search's
//! nodes are visited in the same order as alone, so its path and its counts are the same.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use slidetable_core::{Layout, Move};

use super::{before_pass, record, Child, Entered, Node, PatternHeuristic, PatternSearch};
use crate::pruning::Pruner;
use crate::state::{Budget, ROOT};
use crate::{check_solvable, Limits, SearchError, Solution, Stats};

/// Databases of at least this many bytes are searched interleaved by
/// [`PatternSearch::solve_many`]: their entries come from memory, not from the cache (the
/// 7-8 databases, 288 MB; not 6-6-3, 5.8 MB, whose searches interleaved measured slower:
/// BENCHMARKS.md).
const INTERLEAVED_BYTES: usize = 64 << 20;

/// How many searches a thread interleaves on large databases: with 4, a search's entries
/// have three other expansions' time to arrive (2 to 16 measured, BENCHMARKS.md).
const WAYS: usize = 4;

/// One expanded node on the stack: its children (ranks computed, entries prefetched), the
/// next one to try, the least f over the bound seen among them, and the move to the child
/// being searched below it.
#[derive(Clone, Copy, Default)]
struct Frame {
    children: [Child; 4],
    count: u8,
    next: u8,
    exceeded: u32,
    entered: Entered,
}

/// How a search ended: a path or an error (`None`, no path within a cap on the length,
/// never: the walks have none).
pub(super) type Answer = Result<Option<Solution>, SearchError>;

/// One IDA* search over one mutable node, paused after each expansion.
pub(super) struct Walk<'s, 'h, 'a> {
    search: &'s PatternSearch<'h, 'a>,
    pruner: &'s Pruner,
    start: Layout,
    order: [Move; 4],
    longest: u64,
    node: Node,
    bound: u32,
    /// The expanded nodes from the start down, the start's at 0, the current one at
    /// `depth`; as many as the longest path needs, written in place.
    stack: Vec<Frame>,
    depth: usize,
    /// The moves to the node being searched, in its first `g` places.
    path: Vec<Move>,
    budget: Budget,
    stats: Stats,
    /// How the search ended, once it has.
    end: Option<Answer>,
}

impl<'s, 'h, 'a> Walk<'s, 'h, 'a> {
    /// A search from `start`, the start expanded, or its answer when it needs no search
    /// (the start is the goal, or cannot reach it) or ends at once.
    pub(super) fn new(
        search: &'s PatternSearch<'h, 'a>,
        pruner: &'s Pruner,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
    ) -> Result<Walk<'s, 'h, 'a>, Answer> {
        let goal = &search.heuristic.goal;
        check_solvable(start, goal).map_err(Err)?;
        let node = search.heuristic.node(start);
        let longest = start.board().most_moves(goal.blank());
        let mut walk = Walk {
            search,
            pruner,
            start: *start,
            order,
            longest,
            node,
            bound: PatternHeuristic::h(&node),
            stack: vec![Frame::default(); longest as usize + 2],
            depth: 0,
            path: Vec::with_capacity(96),
            budget: Budget::start(limits),
            stats: Stats {
                iterations: Some(0),
                ..Stats::default()
            },
            end: None,
        };
        if start == goal {
            let stats = walk.budget.finish(&mut walk.stats);
            return Err(Ok(Some(Solution::unit(Vec::new(), stats))));
        }
        if walk.begin_pass() {
            Ok(walk)
        } else {
            Err(walk.answer())
        }
    }

    /// Starts the depth-first pass within the current bound: expands the start.
    #[cold]
    fn begin_pass(&mut self) -> bool {
        if let Some(end) = before_pass(&mut self.stats, self.bound, u32::MAX, self.longest) {
            return self.ended(end);
        }
        self.expand(0, ROOT, Pruner::root(self.start.blank()))
    }

    /// Counts the current node as expanded, computes its children and starts the reads of
    /// their entries, as the frame at `depth` (its g).
    #[inline(always)]
    fn expand(&mut self, depth: usize, via: u8, state: u32) -> bool {
        // Depth-first: what it holds is the path, not counted against --max-memory.
        if let Err(e) = self.budget.expand(&mut self.stats, || 0) {
            return self.ended(Err(e));
        }
        self.depth = depth;
        let frame = &mut self.stack[depth];
        let count = self.search.children(
            &self.node,
            self.pruner,
            self.order,
            via,
            state,
            &mut frame.children,
        );
        frame.count = count as u8;
        frame.next = 0;
        frame.exceeded = u32::MAX;
        true
    }

    /// Keeps how the search ended; `false`, for [`step`](Self::step) to return.
    #[cold]
    fn ended(&mut self, end: Answer) -> bool {
        self.end = Some(end);
        false
    }

    /// Goes on from where the last step stopped until the next node is expanded or the
    /// search ends, as [`Run::pass`](super::Run) does between two expansions: the deepest
    /// node's children are tried in order (their entries read, by now in cache), the first
    /// within the bound is moved to and expanded; a node whose children are all tried, or
    /// one a child's estimate prunes (pathmax), is left.
    ///
    /// `true`: a node was expanded, its children's entries on their way; `false`: the
    /// search ended, and [`answer`](Self::answer) says how.
    #[inline]
    pub(super) fn step(&mut self) -> bool {
        let search = self.search;
        loop {
            let g = self.depth as u32;
            let frame = &mut self.stack[self.depth];
            if frame.next == frame.count {
                let exceeded = frame.exceeded;
                if let Some(going) = self.up(exceeded) {
                    return going;
                }
                continue;
            }
            let child = frame.children[frame.next as usize];
            frame.next += 1;
            self.stats.generated += 1;
            let from = self.node.blank as usize;
            let est = search.estimate(&self.node, from, &child, g, self.bound);
            let f = est.f;
            if f > self.bound {
                frame.exceeded = frame.exceeded.min(f);
                if f > self.bound + 2 {
                    // Pathmax, as in `Run::pass`: the remaining children are not tried.
                    if let Some(going) = self.up(f - 2) {
                        return going;
                    }
                }
                continue;
            }
            frame.entered = search.enter(&mut self.node, from, &child, &est);
            record(
                &mut self.path,
                &mut self.stats,
                g,
                Move::from_code(child.code),
            );
            if est.md == 0 {
                // Every tile home: the goal (by the tiles, as in `Run::pass`).
                return self.found(g as usize + 1);
            }
            return self.expand(self.depth + 1, child.code, child.state);
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
    /// it): undoes the move to it, or, at the start, begins the next pass or ends; `None`
    /// to go on stepping.
    #[inline(always)]
    fn up(&mut self, exceeded: u32) -> Option<bool> {
        if self.depth == 0 {
            if exceeded == u32::MAX {
                let (start, goal) = (self.start, self.search.heuristic.goal);
                return Some(self.ended(Err(SearchError::Unsolvable { start, goal })));
            }
            self.bound = exceeded;
            return Some(self.begin_pass());
        }
        self.depth -= 1;
        let parent = &mut self.stack[self.depth];
        parent.exceeded = parent.exceeded.min(exceeded);
        PatternSearch::leave(&mut self.node, &parent.entered);
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
        ways: usize,
    ) -> Vec<(usize, Answer)> {
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
                match Walk::new(self, &pruner, &starts[i], order, limits) {
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

    /// Each start's optimal path, as [`solve`](Self::solve) finds it (the same path, the
    /// same counts), solved on this thread `ways` searches at a time: each search is
    /// stepped one expansion in turn, so that while one waits for its entries the others
    /// work. In the order of `starts`.
    pub fn solve_interleaved(
        &self,
        starts: &[Layout],
        order: [Move; 4],
        limits: &Limits,
        ways: usize,
    ) -> Vec<Result<Solution, SearchError>> {
        let next = AtomicUsize::new(0);
        let found = self.walk_many(starts, &|| take(&next, starts.len()), order, limits, ways);
        in_order(starts, self.heuristic.goal, vec![found])
    }

    /// Each start's optimal path, as [`solve`](Self::solve) finds it (the same path, the
    /// same counts), on every core (rayon), in the order of `starts`. Databases too large
    /// for the cache (64 MiB and more: 7-8) are searched 4 searches at a time on each
    /// thread ([`solve_interleaved`](Self::solve_interleaved)); smaller ones, whose entries
    /// are in cache, one at a time.
    pub fn solve_many(
        &self,
        starts: &[Layout],
        order: [Move; 4],
        limits: &Limits,
    ) -> Vec<Result<Solution, SearchError>> {
        let bytes: usize = self.heuristic.groups.iter().map(|g| g.payload.len()).sum();
        if bytes < INTERLEAVED_BYTES {
            return starts
                .par_iter()
                .map(|start| self.solve(start, order, limits))
                .collect();
        }
        let next = AtomicUsize::new(0);
        let take = || take(&next, starts.len());
        let found = rayon::broadcast(|_| self.walk_many(starts, &take, order, limits, WAYS));
        in_order(starts, self.heuristic.goal, found)
    }
}

/// The next start to solve, counted in `next`, while there are any of `len`.
fn take(next: &AtomicUsize, len: usize) -> Option<usize> {
    let i = next.fetch_add(1, Ordering::Relaxed);
    (i < len).then_some(i)
}

/// The answers of [`PatternSearch::walk_many`]'s threads in the order of their starts, as
/// [`PatternSearch::solve`] gives them (no cap on the length: never `None`).
fn in_order(
    starts: &[Layout],
    goal: Layout,
    found: Vec<Vec<(usize, Answer)>>,
) -> Vec<Result<Solution, SearchError>> {
    let mut answers: Vec<(usize, Answer)> = found.into_iter().flatten().collect();
    answers.sort_unstable_by_key(|(i, _)| *i);
    answers
        .into_iter()
        .map(|(i, answer)| super::reached(answer?, &starts[i], &goal))
        .collect()
}
