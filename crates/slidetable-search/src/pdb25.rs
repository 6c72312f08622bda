//! IDA* on the 24-puzzle's additive pattern databases (boards of up to 25 cells,
//! [`Layout25`]), with the look-up of the same databases on the board reflected about its
//! main diagonal (Korf and Felner's "max of the two sums"), on every core at once.
//!
//! The heuristic is the larger of two sums: each group's entry for the cells of its tiles,
//! and each group's entry for the cells of the tiles the reflection renames into it, at the
//! reflected cells. A move moves one tile, so it changes one group's placement in each sum:
//! one rank and one load a sum, from the placement's cells kept per group.
//!
//! Placements rank in 32 bits where every group's fit (groups of up to 7 tiles of 25 cells),
//! in 64 where one does not (8 tiles and more: 25!/17! ≈ 4.36·10¹⁰ placements), or on
//! request ([`Databases25::with_wide_ranks`]): the heuristic and its search are one code,
//! generic over the rank's width ([`PlacementRank`]), compiled once for each, and the width
//! is chosen once, when the databases are opened. Both widths give a placement the same rank,
//! so they read the same entries and search the same nodes.
//!
//! Move pruning: the move that undoes the one before is never tried, nor a move that ends a
//! sequence another sequence does better, by the automaton the 15-puzzle's search walks
//! (`pruning`, built for 5×5 from the sequences of up to 12 moves: 61,205 states, about
//! half a second to build, so it is kept in the source). On instance 40 of Korf and Felner's the
//! search generates 38% fewer nodes with it, the same path (docs/SEARCH.md).
//!
//! Both cores work on one instance: each iteration first expands the top of the tree breadth
//! first to a frontier of a few thousand nodes within the bound, then the frontier's subtrees
//! are searched depth first on every core, each thread taking the next subtree in frontier
//! order (the order one thread would search them in). Every iteration but the last is
//! searched whole, so its node counts do not depend on the schedule. In the last, a path
//! found in a subtree stops the subtrees after it but not those before it, which are searched
//! to their end: the path returned is the one a single thread would return, and so is the
//! work up to it; the counts add what the threads had done in later subtrees when they were
//! stopped. The counts reported are sums over the threads.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use slidetable_core::{placement_count, Layout25, Move, PlacementRank, Placements, MAX_CELLS_25};

use crate::pruning::{Grid, Pruner, PRUNED};
use crate::{Limit, Limits, Stats};

/// The most groups a partition of 24 tiles has.
const MAX_GROUPS: usize = MAX_CELLS_25 - 1;
/// Nodes a worker expands between two looks at the clock, the limits and the stop flag (fewer
/// under a small `max_expanded`: [`check_every`]).
const CHECK_EVERY: u64 = 1 << 15;
/// Frontier nodes per thread to aim for before the subtrees are shared out.
const FRONTIER_PER_THREAD: usize = 1024;

/// One group's table: its ranker, its entries (a byte per placement: the group's moves), and
/// where its tiles' cells start in a node's `place`.
#[derive(Clone, Copy)]
struct Table<'a, R: PlacementRank> {
    ranker: Placements<MAX_CELLS_25, R>,
    entries: &'a [u8],
    first: u8,
}

impl<R: PlacementRank> Table<'_, R> {
    /// The entry of the placement whose cells are `place[first..first + k]`.
    #[inline(always)]
    fn entry(&self, place: &[u8; MAX_CELLS_25]) -> u8 {
        let first = usize::from(self.first);
        let rank: u64 = self
            .ranker
            .rank(&place[first..first + self.ranker.tiles()])
            .into();
        self.entries[rank as usize]
    }
}

/// Why databases cannot guide a search, or a search failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Search25Error {
    /// The groups do not partition the goal's tiles, or a group's entries are too few.
    #[error("the pattern databases do not fit their goal: {0}")]
    Databases(String),
    /// The puzzle is for another board than the databases.
    #[error("the puzzle is {start_rows}x{start_cols} but the databases are for {rows}x{cols}")]
    WrongBoard {
        /// The puzzle's rows.
        start_rows: usize,
        /// The puzzle's columns.
        start_cols: usize,
        /// The databases' rows.
        rows: usize,
        /// The databases' columns.
        cols: usize,
    },
    /// The start cannot reach the goal.
    #[error("{start} cannot reach {goal}: they are in different parity classes, so no sequence of moves joins them")]
    Unsolvable {
        /// The start.
        start: Layout25,
        /// The goal.
        goal: Layout25,
    },
    /// The search reached a state other than the goal that the databases estimate at 0
    /// moves: they are damaged (every group at home is the goal itself), and nothing they
    /// guided can be trusted.
    #[error("the databases are damaged: they estimate {reached} at 0 moves from the goal, which it is not")]
    Damaged {
        /// The state estimated at 0.
        reached: Layout25,
    },
    /// A limit (or a request to stop) ended the search first; `stats.bound` is the length
    /// it had proved no solution is shorter than.
    #[error("{}", crate::stopped_message(*limit, stats))]
    LimitReached {
        /// The limit.
        limit: Limit,
        /// The work done until then.
        stats: Stats,
    },
}

/// What a running search reports, about once a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress25 {
    /// The iteration's bound: no solution is shorter (a lower bound already proved).
    pub bound: u32,
    /// States expanded so far, over every iteration and thread.
    pub expanded: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// A solved puzzle: an optimal path (the blank's moves) and the search's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved25 {
    /// The moves of the blank from the start to the goal.
    pub path: Vec<Move>,
    /// Expanded and generated states (sums over threads and iterations), iterations, bound.
    pub stats: Stats,
}

/// Additive pattern databases of a board of up to 25 cells, and the reflection of the
/// board about its main diagonal when the board is square and the goal's blank on that
/// diagonal: the heuristic of [`solve`](Self::solve).
pub struct Databases25<'a> {
    width: Width<'a>,
}

/// The heuristic in the rank width it was opened in.
enum Width<'a> {
    Narrow(Heuristic<'a, u32>),
    Wide(Heuristic<'a, u64>),
}

/// `$body` with `$h` bound to the heuristic of either width.
macro_rules! either {
    ($db:expr, $h:ident => $body:expr) => {
        match &$db.width {
            Width::Narrow($h) => $body,
            Width::Wide($h) => $body,
        }
    };
}

/// The databases with their placements ranked in `R`: what the search reads.
struct Heuristic<'a, R: PlacementRank> {
    goal: Layout25,
    tables: Vec<Table<'a, R>>,
    /// `group_of[t]`: tile `t`'s group; `index_of[t]`: where its cell is kept in a node's
    /// `place` (its group's `first` plus its place among the group's tiles, in order).
    group_of: [u8; MAX_CELLS_25],
    index_of: [u8; MAX_CELLS_25],
    /// The reflection: cell `c` to `flip[c]`, tile `t` to `rename[t]`.
    reflection: Option<([u8; MAX_CELLS_25], [u8; MAX_CELLS_25])>,
}

impl<'a> Databases25<'a> {
    /// The heuristic of `groups` (each a tile mask, bit `t` for tile `t`, and its entries,
    /// a byte per placement of its tiles in increasing order) towards `goal`. With
    /// `reflect`, the maximum of the regular sum and the sum on the reflected board (when
    /// the board is square and the goal's blank on its diagonal; otherwise the regular sum).
    /// Placements rank in 32 bits when every group's fit, in 64 otherwise.
    pub fn new(
        goal: Layout25,
        groups: &[(u32, &'a [u8])],
        reflect: bool,
    ) -> Result<Databases25<'a>, Search25Error> {
        Self::with_wide_ranks(goal, groups, reflect, false)
    }

    /// [`new`](Self::new), with `wide` ranking every group's placements in 64 bits even
    /// where 32 hold them (what runs the wide code on small groups: the same entries are
    /// read, the same nodes searched).
    pub fn with_wide_ranks(
        goal: Layout25,
        groups: &[(u32, &'a [u8])],
        reflect: bool,
        wide: bool,
    ) -> Result<Databases25<'a>, Search25Error> {
        let n = goal.cells();
        let narrow_fits = groups.iter().all(|&(tiles, _)| {
            placement_count(n, tiles.count_ones() as usize) <= u128::from(u32::MAX)
        });
        let width = if narrow_fits && !wide {
            Width::Narrow(Heuristic::new(goal, groups, reflect)?)
        } else {
            Width::Wide(Heuristic::new(goal, groups, reflect)?)
        };
        Ok(Databases25 { width })
    }

    /// The goal.
    pub fn goal(&self) -> &Layout25 {
        either!(self, h => &h.goal)
    }

    /// Whether the reflected look-up is used.
    pub fn reflects(&self) -> bool {
        either!(self, h => h.reflection.is_some())
    }

    /// Whether the placements rank in 64 bits.
    pub fn wide_ranks(&self) -> bool {
        matches!(self.width, Width::Wide(_))
    }

    /// The heuristic's value of `layout`: a lower bound on its distance to the goal.
    pub fn heuristic(&self, layout: &Layout25) -> Result<u32, Search25Error> {
        either!(self, h => {
            h.check(layout)?;
            Ok(Node::new(h, layout).h())
        })
    }

    /// An optimal path from `start` to the goal, by IDA* on every thread of the current
    /// rayon pool, within `limits` (their `max_memory` does not apply: the search holds the
    /// frontier and a path). `progress` hears about once a second how far it is.
    pub fn solve(
        &self,
        start: &Layout25,
        limits: &Limits,
        progress: &(dyn Fn(Progress25) + Sync),
    ) -> Result<Solved25, Search25Error> {
        let solved = either!(self, h => h.solve(start, limits, progress))?;
        // The search ends at a state estimated at 0, which sound databases give the goal
        // alone: replayed here, so that damaged ones are refused rather than believed.
        match start.after(&solved.path) {
            Some(reached) if reached == *self.goal() => Ok(solved),
            Some(reached) => Err(Search25Error::Damaged { reached }),
            None => Err(Search25Error::Databases("a path off the board".into())),
        }
    }
}

impl<'a, R: PlacementRank> Heuristic<'a, R> {
    fn new(
        goal: Layout25,
        groups: &[(u32, &'a [u8])],
        reflect: bool,
    ) -> Result<Heuristic<'a, R>, Search25Error> {
        let n = goal.cells();
        let bad = |s: String| Search25Error::Databases(s);
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            return Err(bad(format!("{} groups", groups.len())));
        }
        let mut group_of = [u8::MAX; MAX_CELLS_25];
        let mut index_of = [0u8; MAX_CELLS_25];
        let mut tables = Vec::with_capacity(groups.len());
        let mut first = 0usize;
        for (g, &(tiles, entries)) in groups.iter().enumerate() {
            let k = tiles.count_ones() as usize;
            if k == 0 || tiles & 1 != 0 || u64::from(tiles) >> n != 0 {
                return Err(bad(format!(
                    "group {g} (mask {tiles:#x}) is no group of tiles"
                )));
            }
            let ranker = Placements::<MAX_CELLS_25, R>::new(n, k)
                .map_err(|e| bad(format!("group {g} has {k} tiles: {e}")))?;
            let count: u64 = ranker.count().into();
            if entries.len() as u64 != count {
                return Err(bad(format!(
                    "group {g} has {} entries for {count} placements",
                    entries.len(),
                )));
            }
            for t in (0..n).filter(|t| tiles & (1 << t) != 0) {
                if group_of[t] != u8::MAX {
                    return Err(bad(format!("tile {t} is in two groups")));
                }
                group_of[t] = g as u8;
                index_of[t] = first as u8;
                first += 1;
            }
            tables.push(Table {
                ranker,
                entries,
                first: (first - k) as u8,
            });
        }
        if let Some(t) = (1..n).find(|&t| group_of[t] == u8::MAX) {
            return Err(bad(format!("tile {t} is in no group")));
        }
        let side = goal.rows();
        let flip = |c: usize| (c % side) * side + c / side;
        let reflection = (reflect
            && goal.rows() == goal.cols()
            && flip(goal.blank()) == goal.blank())
        .then(|| {
            let mut f = [0u8; MAX_CELLS_25];
            let mut rename = [0u8; MAX_CELLS_25];
            for c in 0..n {
                f[c] = flip(c) as u8;
                rename[usize::from(goal.tiles()[c])] = goal.tiles()[flip(c)];
            }
            (f, rename)
        });
        Ok(Heuristic {
            goal,
            tables,
            group_of,
            index_of,
            reflection,
        })
    }

    fn check(&self, start: &Layout25) -> Result<(), Search25Error> {
        if (start.rows(), start.cols()) != (self.goal.rows(), self.goal.cols()) {
            return Err(Search25Error::WrongBoard {
                start_rows: start.rows(),
                start_cols: start.cols(),
                rows: self.goal.rows(),
                cols: self.goal.cols(),
            });
        }
        if !start.reaches(&self.goal) {
            return Err(Search25Error::Unsolvable {
                start: *start,
                goal: self.goal,
            });
        }
        Ok(())
    }

    /// [`Databases25::solve`] in this width.
    fn solve(
        &self,
        start: &Layout25,
        limits: &Limits,
        progress: &(dyn Fn(Progress25) + Sync),
    ) -> Result<Solved25, Search25Error> {
        self.check(start)?;
        let began = Instant::now();
        let shared = Shared {
            expanded: AtomicU64::new(0),
            generated: AtomicU64::new(0),
            halt: AtomicBool::new(false),
            stopped: Mutex::new(None),
            last_report: Mutex::new(began),
            began,
            limits,
            progress,
            bound: AtomicU64::new(0),
            deepest: AtomicU64::new(0),
            every: check_every(limits, rayon::current_num_threads()),
        };
        let root = Node::new(self, start);
        let mut bound = root.h();
        let pruner = Pruner::of(Grid::from(&self.goal), Move::ALL);
        let mut iterations = 0u32;
        let threads = rayon::current_num_threads().max(1);
        loop {
            iterations += 1;
            shared.bound.store(u64::from(bound), Relaxed);
            let stats = |shared: &Shared<'_>, bound| Stats {
                expanded: shared.expanded.load(Relaxed),
                generated: shared.generated.load(Relaxed),
                peak_open: shared.deepest.load(Relaxed),
                elapsed: began.elapsed(),
                iterations: Some(iterations),
                bound: Some(bound),
            };
            let mut next_bound = u32::MAX;
            // The top of the tree, breadth first, to a frontier of subtrees.
            let mut frontier = vec![(
                root.clone(),
                Vec::<Move>::new(),
                Pruner::root(start.blank()),
            )];
            if root.h() == 0 {
                return Ok(Solved25 {
                    path: Vec::new(),
                    stats: stats(&shared, 0),
                });
            }
            let mut depth = 0u32;
            while frontier.len() < FRONTIER_PER_THREAD * threads
                && depth < bound
                && !frontier.is_empty()
            {
                let mut level = Vec::with_capacity(frontier.len() * 2);
                let (mut expanded, mut generated) = (0u64, 0u64);
                // A limit passed here ends the search at this node (the top of a deep
                // iteration is thousands of nodes, past a small --max-expanded).
                let mut halted = false;
                for (node, path, state) in &frontier {
                    if shared.past_a_limit(shared.expanded.load(Relaxed) + expanded) {
                        halted = true;
                        break;
                    }
                    expanded += 1;
                    for m in Move::ALL {
                        if path.last() == Some(&m.opposite()) {
                            continue;
                        }
                        let Some(child) = node.child(self, m) else {
                            continue;
                        };
                        let next = pruner.next(*state, m.code());
                        if next == PRUNED {
                            continue;
                        }
                        generated += 1;
                        let f = depth + 1 + child.h();
                        if f > bound {
                            next_bound = next_bound.min(f);
                            continue;
                        }
                        let mut p = path.clone();
                        p.push(m);
                        if child.h() == 0 {
                            shared.deepest.fetch_max(p.len() as u64, Relaxed);
                            shared.expanded.fetch_add(expanded, Relaxed);
                            shared.generated.fetch_add(generated, Relaxed);
                            return Ok(Solved25 {
                                path: p,
                                stats: stats(&shared, depth + 1),
                            });
                        }
                        level.push((child, p, next));
                    }
                }
                shared.expanded.fetch_add(expanded, Relaxed);
                shared.generated.fetch_add(generated, Relaxed);
                if halted {
                    break;
                }
                frontier = level;
                depth += 1;
                if !frontier.is_empty() {
                    shared.deepest.fetch_max(u64::from(depth), Relaxed);
                }
            }
            // The top is the whole of an iteration whose tree is small: look at the limits
            // here too, or a run of such iterations would never look.
            shared.past_a_limit(shared.expanded.load(Relaxed));
            // The subtrees, on every core, taken in frontier order, which is the order one
            // thread would search them in. A path found in subtree i cuts the subtrees after
            // it short, but those before it are searched to their end (one of them may hold
            // a path too, and it would come first): the path returned, and the work up to
            // it, are the serial search's; the work cut short after it is added as done.
            let found: Mutex<Option<(usize, Vec<Move>)>> = Mutex::new(None);
            let first_found = AtomicUsize::new(usize::MAX);
            let next = AtomicUsize::new(0);
            let least = AtomicU32::new(u32::MAX);
            rayon::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|_| loop {
                        let i = next.fetch_add(1, Relaxed);
                        let Some((node, prefix, state)) = frontier.get(i) else {
                            return;
                        };
                        if shared.halt.load(Relaxed) || first_found.load(Relaxed) < i {
                            return;
                        }
                        let mut worker = Worker {
                            db: self,
                            pruner: &pruner,
                            node: node.clone(),
                            path: prefix.clone(),
                            bound,
                            next_bound: u32::MAX,
                            expanded: 0,
                            generated: 0,
                            deepest: 0,
                            shared: &shared,
                            subtree: i,
                            first_found: &first_found,
                        };
                        let hit = worker.dfs(depth, node.h(), *state);
                        worker.flush();
                        least.fetch_min(worker.next_bound, Relaxed);
                        if hit {
                            let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                            if found.as_ref().is_none_or(|(j, _)| i < *j) {
                                *found = Some((i, worker.path.clone()));
                            }
                            first_found.fetch_min(i, Relaxed);
                        }
                    });
                }
            });
            let least = least.into_inner();
            next_bound = next_bound.min(least);
            if let Some((_, path)) = found.into_inner().unwrap_or_else(|e| e.into_inner()) {
                let len = path.len() as u32;
                return Ok(Solved25 {
                    path,
                    stats: stats(&shared, len),
                });
            }
            if let Some(limit) = *shared.stopped.lock().unwrap_or_else(|e| e.into_inner()) {
                return Err(Search25Error::LimitReached {
                    limit,
                    stats: stats(&shared, bound),
                });
            }
            if next_bound == u32::MAX {
                // Nothing beyond the bound: only a start that cannot reach the goal, which
                // the parity check refused.
                return Err(Search25Error::Unsolvable {
                    start: *start,
                    goal: self.goal,
                });
            }
            bound = next_bound;
        }
    }
}

/// What the threads of one search share.
struct Shared<'a> {
    expanded: AtomicU64,
    generated: AtomicU64,
    /// Set when a path is found or a limit reached: every worker returns.
    halt: AtomicBool,
    stopped: Mutex<Option<Limit>>,
    last_report: Mutex<Instant>,
    began: Instant,
    limits: &'a Limits,
    progress: &'a (dyn Fn(Progress25) + Sync),
    bound: AtomicU64,
    /// The deepest path any thread has walked (the stats' `peak_open`, as IDA* on 4x4).
    deepest: AtomicU64,
    /// Nodes a worker expands between two looks at the limits: [`check_every`].
    every: u64,
}

/// How often a worker looks at the limits: every [`CHECK_EVERY`] nodes, or under
/// `max_expanded` N often enough that the `threads` workers, each with fewer unreported,
/// stop within N/16 states past N (at least one a worker). An unlimited search's pace is
/// unchanged.
fn check_every(limits: &Limits, threads: usize) -> u64 {
    let threads = threads.max(1) as u64;
    limits
        .max_expanded
        .map_or(CHECK_EVERY, |n| (n / 16 / threads).clamp(1, CHECK_EVERY))
}

impl Shared<'_> {
    /// Whether a stop was asked for or a limit passed with `expanded` states expanded in
    /// all; if so, the first such is kept as why, and every worker told to return.
    fn past_a_limit(&self, expanded: u64) -> bool {
        let limit = if self
            .limits
            .stop
            .as_ref()
            .is_some_and(|stop| stop.requested())
        {
            Some(Limit::Stopped)
        } else if let Some(max) = self.limits.max_expanded.filter(|&m| expanded > m) {
            Some(Limit::Expanded(max))
        } else {
            let elapsed = self.began.elapsed();
            self.limits
                .max_time
                .filter(|&t| elapsed > t)
                .map(Limit::Time)
        };
        let Some(limit) = limit else {
            return false;
        };
        let mut stopped = self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        stopped.get_or_insert(limit);
        self.halt.store(true, Relaxed);
        true
    }
}

/// A search state: the tiles, and each group's cells and entry in both sums.
#[derive(Clone)]
struct Node {
    cells: [u8; MAX_CELLS_25],
    blank: u8,
    /// The cells of every group's tiles, group after group (the group's `first` on): tile
    /// `t`'s cell is `place[index_of[t]]`; `place_r` on the reflected board.
    place: [u8; MAX_CELLS_25],
    place_r: [u8; MAX_CELLS_25],
    value: [u8; MAX_GROUPS],
    value_r: [u8; MAX_GROUPS],
    sum: u32,
    sum_r: u32,
}

impl Node {
    fn new<R: PlacementRank>(db: &Heuristic<'_, R>, layout: &Layout25) -> Node {
        let mut node = Node {
            cells: [0; MAX_CELLS_25],
            blank: layout.blank() as u8,
            place: [0; MAX_CELLS_25],
            place_r: [0; MAX_CELLS_25],
            value: [0; MAX_GROUPS],
            value_r: [0; MAX_GROUPS],
            sum: 0,
            sum_r: 0,
        };
        for (c, &t) in layout.tiles().iter().enumerate() {
            node.cells[c] = t;
            if t == 0 {
                continue;
            }
            let t = usize::from(t);
            node.place[usize::from(db.index_of[t])] = c as u8;
            if let Some((flip, rename)) = &db.reflection {
                node.place_r[usize::from(db.index_of[usize::from(rename[t])])] = flip[c];
            }
        }
        for (g, table) in db.tables.iter().enumerate() {
            node.value[g] = table.entry(&node.place);
            node.sum += u32::from(node.value[g]);
            if db.reflection.is_some() {
                node.value_r[g] = table.entry(&node.place_r);
                node.sum_r += u32::from(node.value_r[g]);
            }
        }
        node
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        self.sum.max(self.sum_r)
    }

    /// The node after the blank moves `m`, if that stays on the board.
    #[inline(always)]
    fn child<R: PlacementRank>(&self, db: &Heuristic<'_, R>, m: Move) -> Option<Node> {
        let to = db.goal.neighbor(usize::from(self.blank), m)?;
        let mut next = self.clone();
        let _ = next.apply(db, to);
        Some(next)
    }

    /// Moves the tile at `to` into the blank's cell; returns what [`undo`](Self::undo)
    /// needs to take the move back.
    #[inline(always)]
    fn apply<R: PlacementRank>(&mut self, db: &Heuristic<'_, R>, to: usize) -> Undo {
        let from = usize::from(self.blank);
        let t = usize::from(self.cells[to]);
        self.cells[from] = t as u8;
        self.cells[to] = 0;
        self.blank = to as u8;
        let g = usize::from(db.group_of[t]);
        let index = db.index_of[t];
        let undo = Undo {
            to: to as u8,
            from: from as u8,
            group: g as u8,
            index,
            value: self.value[g],
            group_r: 0,
            index_r: 0,
            value_r: 0,
        };
        self.place[usize::from(index)] = from as u8;
        let v = db.tables[g].entry(&self.place);
        self.sum = self.sum + u32::from(v) - u32::from(self.value[g]);
        self.value[g] = v;
        if let Some((flip, rename)) = &db.reflection {
            let u = usize::from(rename[t]);
            let g = usize::from(db.group_of[u]);
            let index = db.index_of[u];
            let undo = Undo {
                group_r: g as u8,
                index_r: index,
                value_r: self.value_r[g],
                ..undo
            };
            self.place_r[usize::from(index)] = flip[from];
            let v = db.tables[g].entry(&self.place_r);
            self.sum_r = self.sum_r + u32::from(v) - u32::from(self.value_r[g]);
            self.value_r[g] = v;
            return undo;
        }
        undo
    }

    /// Takes back the move [`apply`](Self::apply) made.
    #[inline(always)]
    fn undo<R: PlacementRank>(&mut self, db: &Heuristic<'_, R>, undo: Undo) {
        let (from, to) = (usize::from(undo.from), usize::from(undo.to));
        self.cells[to] = self.cells[from];
        self.cells[from] = 0;
        self.blank = undo.from;
        let g = usize::from(undo.group);
        self.place[usize::from(undo.index)] = undo.to;
        self.sum = self.sum + u32::from(undo.value) - u32::from(self.value[g]);
        self.value[g] = undo.value;
        if let Some((flip, _)) = &db.reflection {
            let g = usize::from(undo.group_r);
            self.place_r[usize::from(undo.index_r)] = flip[to];
            self.sum_r = self.sum_r + u32::from(undo.value_r) - u32::from(self.value_r[g]);
            self.value_r[g] = undo.value_r;
        }
    }
}

/// What taking a move back needs: the tile's old cell, its group and place in both sums,
/// and the entries before the move.
#[derive(Clone, Copy)]
struct Undo {
    to: u8,
    from: u8,
    group: u8,
    index: u8,
    value: u8,
    group_r: u8,
    index_r: u8,
    value_r: u8,
}

/// One thread's depth-first search of one subtree.
struct Worker<'s, 'a, R: PlacementRank> {
    db: &'s Heuristic<'a, R>,
    /// The move sequences not to walk (see [`crate::pruning`]).
    pruner: &'s Pruner,
    node: Node,
    path: Vec<Move>,
    bound: u32,
    next_bound: u32,
    expanded: u64,
    generated: u64,
    /// The longest `path` has been since the last flush.
    deepest: usize,
    shared: &'s Shared<'s>,
    /// This subtree's place in the frontier.
    subtree: usize,
    /// The first subtree in which a path was found so far (`usize::MAX`: none): a later
    /// one stops.
    first_found: &'s AtomicUsize,
}

impl<R: PlacementRank> Worker<'_, '_, R> {
    /// Searches below the current node at depth `g`, the pruning automaton in `state`;
    /// true (with the path in `path`) when it reaches the goal.
    fn dfs(&mut self, g: u32, h: u32, state: u32) -> bool {
        if h == 0 {
            return true;
        }
        // Reported before this node is counted, so no worker holds more than `every`
        // unreported when a limit halts them all.
        if self.expanded >= self.shared.every {
            self.flush();
        }
        if self.shared.halt.load(Relaxed) || self.first_found.load(Relaxed) < self.subtree {
            return false;
        }
        self.expanded += 1;
        let last = self.path.last().map(|m| m.opposite());
        for m in Move::ALL {
            if Some(m) == last {
                continue;
            }
            let Some(to) = self.db.goal.neighbor(usize::from(self.node.blank), m) else {
                continue;
            };
            let next = self.pruner.next(state, m.code());
            if next == PRUNED {
                continue;
            }
            self.generated += 1;
            let undo = self.node.apply(self.db, to);
            let h = self.node.h();
            let f = g + 1 + h;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
            } else {
                self.path.push(m);
                self.deepest = self.deepest.max(self.path.len());
                if self.dfs(g + 1, h, next) {
                    return true;
                }
                self.path.pop();
            }
            self.node.undo(self.db, undo);
        }
        false
    }

    /// Adds this worker's counts to the shared ones, checks the limits, and reports
    /// progress when a second has passed: every [`CHECK_EVERY`] nodes and at the end of
    /// each subtree (a search of many small subtrees would otherwise never look).
    fn flush(&mut self) {
        let s = self.shared;
        let expanded = s.expanded.fetch_add(self.expanded, Relaxed) + self.expanded;
        s.generated.fetch_add(self.generated, Relaxed);
        s.deepest.fetch_max(self.deepest as u64, Relaxed);
        self.expanded = 0;
        self.generated = 0;
        if s.past_a_limit(expanded) {
            return;
        }
        let elapsed = s.began.elapsed();
        if let Ok(mut last_report) = s.last_report.try_lock() {
            if last_report.elapsed() >= Duration::from_secs(1) {
                *last_report = Instant::now();
                drop(last_report);
                (s.progress)(Progress25 {
                    bound: s.bound.load(Relaxed) as u32,
                    expanded,
                    elapsed,
                });
            }
        }
    }
}
