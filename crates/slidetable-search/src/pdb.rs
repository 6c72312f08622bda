//! IDA* guided by additive pattern databases: the 15-puzzle, optimally, in milliseconds.
//!
//! The heuristic is the sum over disjoint tile groups of each group's database value (the
//! fewest moves of that group's tiles), and, when the board has a symmetry that fixes the
//! goal's blank cell (the diagonal through a corner of a square board), the same sum on the
//! mirrored board with tiles renamed to match: the maximum of the two. Both are lower
//! bounds, so the maximum is one. The databases store each value as its excess over the
//! group's Manhattan distance, and the Manhattan distance of the mirrored board equals the
//! original's, so a node's estimate is `md + 2 · max(excess sum, mirrored excess sum)`.
//!
//! [`PatternSearch`] keeps one mutable node (tiles, tile cells, each group's rank and
//! excess, both sides) and applies and undoes moves in place: a move changes one tile, so
//! one group's rank and one mirrored group's rank are recomputed (a popcount per tile of the
//! group) and two entries read. No allocation per node; the move back to the parent is
//! never tried, nor a move that ends a sequence another sequence does better (the blank
//! circling a 2×2 block the long way round, and others: see `pruning`). The entries are read in a database of hundreds of megabytes (7-8: 288 MB),
//! each read a cache miss: a node computes every child's ranks and prefetches their entries
//! before it reads any, so that the misses overlap instead of following one another.

use slidetable_core::{Board, Layout, Move, PlacementError, PlacementRanker, Symmetry, MAX_CELLS};
use slidetable_format::{check_groups, excess_at, GroupError, PatternGroup, MAX_GROUP};

use crate::state::{Budget, ROOT};

mod symmetric;

use crate::pruning::{Pruner, PRUNED};
use crate::{check_solvable, Heuristic, Limits, SearchError, Solution, Stats};
pub use symmetric::Symmetric;

/// The most groups a partition may have (1-tile groups on a 4×4 board).
const MAX_GROUPS: usize = MAX_CELLS;

/// One group's database as the search reads it.
#[derive(Clone, Copy, Debug)]
struct Group<'a> {
    /// The tiles whose cells are ranked, in rank order (for the mirrored side, the original
    /// tiles that the mirror renames into the group's tiles).
    tiles: [u8; MAX_GROUP],
    len: u8,
    ranker: PlacementRanker,
    payload: &'a [u8],
}

/// Where a tile counts in one side's ranks: its group and its slot in the group's rank order.
#[derive(Clone, Copy, Debug)]
struct Place {
    group: u8,
    slot: u8,
}

impl Place {
    /// The blank's: in no group.
    const NONE: Place = Place {
        group: u8::MAX,
        slot: 0,
    };
}

/// The mirrored side of the heuristic: the same databases looked up on the board reflected
/// so that the goal maps onto itself, tiles renamed.
#[derive(Clone, Debug)]
struct Mirror<'a> {
    /// Its groups; their tiles are the original tiles that the mirror renames into them.
    groups: Vec<Group<'a>>,
    /// `cells[c]`: where cell `c` goes.
    cells: [u8; MAX_CELLS],
    /// `uncells[y]`: the cell that goes to `y`.
    uncells: [u8; MAX_CELLS],
    /// Each original tile's place in the mirrored groups.
    place: [Place; MAX_CELLS],
}

/// Additive pattern databases for one goal, as a heuristic.
#[derive(Clone, Debug)]
pub struct PatternHeuristic<'a> {
    goal: Layout,
    groups: Vec<Group<'a>>,
    /// Each tile's place in the groups ([`Place::NONE`] for the blank).
    place: [Place; MAX_CELLS],
    /// The mirrored side, on a board with such a symmetry.
    mirror: Option<Mirror<'a>>,
    /// `md[tile][cell]`: Manhattan distance of `tile` in `cell` from its goal cell.
    md: [[u8; MAX_CELLS]; MAX_CELLS],
}

/// Why databases cannot make a heuristic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The groups do not partition the tiles.
    #[error("the databases' groups must be disjoint, cover tiles 1..{last} and have at most {MAX_GROUP} tiles each")]
    Groups {
        /// The board's last tile.
        last: usize,
        /// Which rule the groups break.
        #[source]
        problem: GroupError,
    },
    /// A group whose placements cannot be ranked.
    #[error("a group of {tiles} tiles: {problem}")]
    Placements {
        /// The group's tile count.
        tiles: usize,
        /// Why its placements cannot be ranked.
        #[source]
        problem: PlacementError,
    },
    /// A group's entry for the goal itself is not 0: the databases are damaged (or belong
    /// to other groups), and a search guided by them could never recognise the goal.
    #[error("the databases are damaged: group {group}'s entry for the goal is {excess}, not 0")]
    GoalNotHome {
        /// The group, counting from 0 in the given order.
        group: usize,
        /// The excess stored for the goal's placement.
        excess: u32,
    },
    /// A group's entries have the wrong length.
    #[error("a group's entries are {found} bytes; {expected} are needed")]
    Payload {
        /// The bytes given.
        found: usize,
        /// The bytes the group needs.
        expected: usize,
    },
}

impl<'a> PatternHeuristic<'a> {
    /// A heuristic from databases for `goal`: for each group, its tile mask (bit `t` for
    /// tile `t`) and its 4-bit entries by placement rank (the format's pattern section).
    pub fn new(goal: &Layout, groups: &[PatternGroup<'a>]) -> Result<Self, PatternError> {
        let board = goal.board();
        let n = board.cells();
        // Groups that pass are disjoint and not empty: at most n − 1 ≤ MAX_GROUPS − 1.
        let masks: Vec<u16> = groups.iter().map(|g| g.tiles).collect();
        check_groups(board, &masks).map_err(|problem| PatternError::Groups {
            last: n - 1,
            problem,
        })?;
        let mut place = [Place::NONE; MAX_CELLS];
        let mut built = Vec::with_capacity(groups.len());
        for (
            i,
            &PatternGroup {
                tiles: mask,
                payload,
            },
        ) in groups.iter().enumerate()
        {
            let k = mask.count_ones() as usize;
            let ranker = PlacementRanker::new(n, k)
                .map_err(|problem| PatternError::Placements { tiles: k, problem })?;
            let expected = (ranker.count() as usize).div_ceil(2);
            if payload.len() != expected {
                return Err(PatternError::Payload {
                    found: payload.len(),
                    expected,
                });
            }
            let mut tiles = [0u8; MAX_GROUP];
            for (slot, t) in (1..n as u8).filter(|t| mask & (1 << t) != 0).enumerate() {
                tiles[slot] = t;
                place[t as usize] = Place {
                    group: i as u8,
                    slot: slot as u8,
                };
            }
            built.push(Group {
                tiles,
                len: k as u8,
                ranker,
                payload,
            });
        }
        let md = goal.manhattan_table();
        let mirror = mirror_of(goal).map(|(s, rename)| {
            // The mirrored board holds rename[t] in s(cell of t); the mirrored group i ranks
            // the cells of the original tiles that rename into group i's tiles.
            let mut unname = [0u8; MAX_CELLS];
            for t in 0..n {
                unname[rename[t] as usize] = t as u8;
            }
            let mut mirror_place = [Place::NONE; MAX_CELLS];
            let groups: Vec<Group<'a>> = built
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let mut m = *g;
                    for slot in 0..g.len as usize {
                        m.tiles[slot] = unname[g.tiles[slot] as usize];
                        mirror_place[m.tiles[slot] as usize] = Place {
                            group: i as u8,
                            slot: slot as u8,
                        };
                    }
                    m
                })
                .collect();
            let mut cells = [0u8; MAX_CELLS];
            let mut uncells = [0u8; MAX_CELLS];
            for c in 0..n {
                cells[c] = s.cell(c) as u8;
                uncells[s.cell(c)] = c as u8;
            }
            Mirror {
                groups,
                cells,
                uncells,
                place: mirror_place,
            }
        });
        let heuristic = PatternHeuristic {
            goal: *goal,
            groups: built,
            place,
            mirror,
            md,
        };
        // The goal's placements are home: any other entry there is damage (a changed nibble,
        // swapped sections or tile masks), which would hide the goal from the search.
        let home = heuristic.node(goal);
        let mirrored = heuristic.mirror.is_some();
        for (group, (&excess, &mirror)) in home.excess.iter().zip(&home.mirror_excess).enumerate() {
            if excess != 0 || (mirrored && mirror != 0) {
                return Err(PatternError::GoalNotHome {
                    group,
                    excess: u32::from(excess.max(mirror)),
                });
            }
        }
        Ok(heuristic)
    }

    /// Whether the estimate also looks the databases up on the mirrored board.
    pub fn mirrored(&self) -> bool {
        self.mirror.is_some()
    }

    /// The board this heuristic is for.
    pub fn board(&self) -> Board {
        self.goal.board()
    }
}

/// The symmetry that fixes `goal`'s blank cell and moves other cells (the reflection about
/// the diagonal through a corner of a square board), with the renaming that maps the goal
/// onto itself; `None` when the board has none.
fn mirror_of(goal: &Layout) -> Option<(Symmetry, [u8; MAX_CELLS])> {
    Symmetry::all(goal.board())
        .into_iter()
        .skip(1)
        .find_map(|s| s.renaming(goal, goal).map(|r| (s, r)))
}

#[inline(always)]
fn rank_group(g: &Group<'_>, cell_of: &[u8; MAX_CELLS], map: Option<&[u8; MAX_CELLS]>) -> u32 {
    let mut cells = [0u8; MAX_GROUP];
    for slot in 0..g.len as usize {
        let c = cell_of[g.tiles[slot] as usize];
        cells[slot] = match map {
            Some(m) => m[c as usize],
            None => c,
        };
    }
    g.ranker.rank(&cells[..g.len as usize])
}

/// One node of the search: the layout, and each group's cells, rank and excess on both sides.
#[derive(Clone, Copy)]
struct Node {
    tiles: [u8; MAX_CELLS],
    blank: u8,
    md: u32,
    /// `occupied[i]`: bit `c` for each cell `c` of group `i`'s tiles (on the mirrored board,
    /// `mirror_occupied`), as [`PlacementRanker::moved_rank`] takes them.
    occupied: [u32; MAX_GROUPS],
    mirror_occupied: [u32; MAX_GROUPS],
    rank: [u32; MAX_GROUPS],
    excess: [u8; MAX_GROUPS],
    sum: u32,
    mirror_rank: [u32; MAX_GROUPS],
    mirror_excess: [u8; MAX_GROUPS],
    mirror_sum: u32,
}

/// What a move changes in a [`Node`] besides its tiles: the Manhattan distance, the moved
/// tile's group (`gi`) and mirrored group (`mi`) ranks and excesses, and the sums; saved
/// before the move and put back after the search below it.
#[derive(Clone, Copy)]
struct Undo {
    md: u32,
    rank: u32,
    excess: u8,
    sum: u32,
    mirror_rank: u32,
    mirror_excess: u8,
    mirror_sum: u32,
}

impl Undo {
    #[inline(always)]
    fn save(node: &Node, gi: usize, mi: usize) -> Undo {
        Undo {
            md: node.md,
            rank: node.rank[gi],
            excess: node.excess[gi],
            sum: node.sum,
            mirror_rank: node.mirror_rank[mi],
            mirror_excess: node.mirror_excess[mi],
            mirror_sum: node.mirror_sum,
        }
    }

    #[inline(always)]
    fn restore(self, node: &mut Node, gi: usize, mi: usize) {
        node.md = self.md;
        node.rank[gi] = self.rank;
        node.excess[gi] = self.excess;
        node.sum = self.sum;
        node.mirror_rank[mi] = self.mirror_rank;
        node.mirror_excess[mi] = self.mirror_excess;
        node.mirror_sum = self.mirror_sum;
    }
}

impl PatternHeuristic<'_> {
    fn node(&self, layout: &Layout) -> Node {
        let mut node = Node {
            tiles: [0; MAX_CELLS],
            blank: layout.blank() as u8,
            md: 0,
            occupied: [0; MAX_GROUPS],
            mirror_occupied: [0; MAX_GROUPS],
            rank: [0; MAX_GROUPS],
            excess: [0; MAX_GROUPS],
            sum: 0,
            mirror_rank: [0; MAX_GROUPS],
            mirror_excess: [0; MAX_GROUPS],
            mirror_sum: 0,
        };
        let mut cell_of = [0u8; MAX_CELLS];
        for (c, &t) in layout.tiles().iter().enumerate() {
            node.tiles[c] = t;
            cell_of[t as usize] = c as u8;
            node.md += u32::from(self.md[t as usize][c]);
            let p = self.place[t as usize];
            if p.group != Place::NONE.group {
                node.occupied[p.group as usize] |= 1 << c;
            }
            if let Some(mirror) = &self.mirror {
                let q = mirror.place[t as usize];
                if q.group != Place::NONE.group {
                    node.mirror_occupied[q.group as usize] |= 1 << mirror.cells[c];
                }
            }
        }
        for (i, g) in self.groups.iter().enumerate() {
            node.rank[i] = rank_group(g, &cell_of, None);
            let e = excess_at(g.payload, node.rank[i]);
            node.excess[i] = e as u8;
            node.sum += e;
        }
        if let Some(mirror) = &self.mirror {
            for (i, g) in mirror.groups.iter().enumerate() {
                node.mirror_rank[i] = rank_group(g, &cell_of, Some(&mirror.cells));
                let e = excess_at(g.payload, node.mirror_rank[i]);
                node.mirror_excess[i] = e as u8;
                node.mirror_sum += e;
            }
        }
        node
    }

    /// The ranks of the moved tile's group and mirrored group (0 without a mirror) after
    /// `tile` slides from cell `at` into the blank's cell `blank`, from `node`'s, by the
    /// core's [`PlacementRanker::moved_rank`].
    #[inline(always)]
    fn moved_ranks(&self, node: &Node, tile: usize, at: usize, blank: usize) -> (u32, u32) {
        let p = self.place[tile];
        let gi = p.group as usize;
        let rank = self.groups[gi].ranker.moved_rank(
            node.rank[gi],
            p.slot as usize,
            at,
            blank,
            node.occupied[gi],
            |x| self.place[node.tiles[x] as usize].slot as usize,
        );
        let mut mirror_rank = 0;
        if let Some(mirror) = &self.mirror {
            let q = mirror.place[tile];
            let mi = q.group as usize;
            mirror_rank = mirror.groups[mi].ranker.moved_rank(
                node.mirror_rank[mi],
                q.slot as usize,
                mirror.cells[at] as usize,
                mirror.cells[blank] as usize,
                node.mirror_occupied[mi],
                |y| mirror.place[node.tiles[mirror.uncells[y] as usize] as usize].slot as usize,
            );
        }
        (rank, mirror_rank)
    }

    #[inline]
    fn h(node: &Node) -> u32 {
        node.md + 2 * node.sum.max(node.mirror_sum)
    }
}

impl Heuristic for PatternHeuristic<'_> {
    fn goal(&self) -> &Layout {
        &self.goal
    }

    fn estimate(&self, layout: &Layout) -> u32 {
        if layout.board() != self.goal.board() {
            return 0;
        }
        Self::h(&self.node(layout))
    }
}

/// IDA* over one mutable node, with the pattern heuristic updated per move.
///
/// A second IDA* beside the generic [`idastar`](crate::idastar), kept on purpose (issue 19
/// asked for one IDA* unless Korf's 100 lost by it; they do, see BENCHMARKS.md): its node
/// carries each group's rank and excess and the mirror's, updated for the one tile a move
/// slides; it starts the reads of all the children's entries before searching any (a large
/// database misses the cache on each), which [`Heuristic::update`]'s one-state interface
/// cannot express; and it skips the move sequences that another sequence does better
/// (`pruning`: an automaton per board and move order), which the generic search, whose
/// counts are those of the published tables (`tests/korf79.rs`), does not.
/// [`solve_with_patterns`](crate::solve_with_patterns) sends every IDA* on pattern databases
/// here; `tests/one_ida.rs` checks that both find the same path, this one with no more work.
pub struct PatternSearch<'h, 'a> {
    heuristic: &'h PatternHeuristic<'a>,
    /// `neighbor[cell][move code]`: where the blank goes, or `u8::MAX` off the board.
    neighbor: [[u8; 4]; MAX_CELLS],
}

/// A search without a cap on its length that found no path: `start` cannot reach `goal`.
fn reached(
    found: Option<Solution>,
    start: &Layout,
    goal: &Layout,
) -> Result<Solution, SearchError> {
    found.ok_or(SearchError::Unsolvable {
        start: *start,
        goal: *goal,
    })
}

/// How one bounded depth-first pass ended.
enum IterationEnd {
    Found,
    Exceeded(u32),
    Stopped(SearchError),
}

struct Run<'s, 'h, 'a> {
    search: &'s PatternSearch<'h, 'a>,
    /// The move sequences not to walk (see [`crate::pruning`]).
    pruner: &'s Pruner,
    node: Node,
    order: [Move; 4],
    bound: u32,
    /// The moves to the node being searched, in its first `g` places: written in place, and
    /// longer only when the search goes deeper than ever (then the peak is counted too).
    path: Vec<Move>,
    /// The path's length once the goal is found.
    found: usize,
    budget: Budget,
    stats: Stats,
}

impl<'h, 'a> PatternSearch<'h, 'a> {
    /// A search that bounds by `heuristic`.
    pub fn new(heuristic: &'h PatternHeuristic<'a>) -> PatternSearch<'h, 'a> {
        let board = heuristic.goal.board();
        let mut neighbor = [[u8::MAX; 4]; MAX_CELLS];
        for (c, row) in neighbor.iter_mut().enumerate().take(board.cells()) {
            for m in Move::ALL {
                if let Some(n) = board.neighbor(c, m) {
                    row[m.code() as usize] = n as u8;
                }
            }
        }
        PatternSearch {
            heuristic,
            neighbor,
        }
    }

    /// An optimal path from `start` to the heuristic's goal: the lexicographically smallest
    /// under `order` (moves tried in that order; the first path found within the last bound
    /// is that one). Parity is checked first.
    pub fn solve(
        &self,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
    ) -> Result<Solution, SearchError> {
        reached(
            self.solve_within(start, order, limits, u32::MAX)?,
            start,
            &self.heuristic.goal,
        )
    }

    /// As [`solve`](Self::solve), but `None` once the bound passes `most` moves: no path
    /// of at most `most` moves exists (the judges that cap the length).
    pub fn solve_within(
        &self,
        start: &Layout,
        order: [Move; 4],
        limits: &Limits,
        most: u32,
    ) -> Result<Option<Solution>, SearchError> {
        check_solvable(start, &self.heuristic.goal)?;
        let node = self.heuristic.node(start);
        let h = PatternHeuristic::h(&node);
        let pruner = Pruner::of(start.board().into(), order);
        let mut run = Run {
            search: self,
            pruner: &pruner,
            node,
            order,
            bound: h,
            path: Vec::with_capacity(96),
            found: 0,
            budget: Budget::start(limits),
            stats: Stats {
                iterations: Some(0),
                ..Stats::default()
            },
        };
        if *start == self.heuristic.goal {
            let stats = run.budget.finish(&mut run.stats);
            return Ok(Some(Solution::unit(Vec::new(), stats)));
        }
        let longest = start.board().most_moves(self.heuristic.goal.blank());
        loop {
            if run.bound > most {
                return Ok(None);
            }
            if u64::from(run.bound) > longest {
                return Err(SearchError::Overestimated {
                    bound: run.bound,
                    longest,
                });
            }
            run.stats.iterations = run.stats.iterations.map(|i| i + 1);
            run.stats.bound = Some(run.bound);
            match run.pass(0, ROOT, Pruner::root(start.blank())) {
                IterationEnd::Found => {
                    let stats = run.budget.finish(&mut run.stats);
                    run.path.truncate(run.found);
                    return Ok(Some(Solution::unit(run.path, stats)));
                }
                IterationEnd::Stopped(e) => return Err(e),
                IterationEnd::Exceeded(u32::MAX) => {
                    return Err(SearchError::Unsolvable {
                        start: *start,
                        goal: self.heuristic.goal,
                    })
                }
                IterationEnd::Exceeded(f) => run.bound = f,
            }
        }
    }
}

/// One child of the node being expanded: its move and the ranks of its changed entries,
/// computed (and the entries prefetched) for every child before any child is searched, so
/// that the reads of all the children's entries (each a cache miss in a large database)
/// are in flight together.
#[derive(Clone, Copy, Default)]
struct Child {
    code: u8,
    to: u8,
    state: u32,
    rank: u32,
    mirror_rank: u32,
}

impl Run<'_, '_, '_> {
    /// Searches below the current node (g moves from the start, reached by move `via`, the
    /// pruning automaton in `state`).
    fn pass(&mut self, g: u32, via: u8, state: u32) -> IterationEnd {
        // Depth-first: what it holds is the path, not counted against --max-memory.
        if let Err(e) = self.budget.expand(&mut self.stats, || 0) {
            return IterationEnd::Stopped(e);
        }
        let h = self.search.heuristic;
        let from = self.node.blank as usize;
        let mut children = [Child::default(); 4];
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
            children[count] = Child {
                code,
                to,
                state: next,
                rank,
                mirror_rank,
            };
            count += 1;
        }
        let mut exceeded = u32::MAX;
        for child in &children[..count] {
            let (code, to) = (child.code, child.to as usize);
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
                exceeded = exceeded.min(f);
                if f > self.bound + 2 {
                    // Pathmax from a child: the child is one move away, so this node is at
                    // least the child's estimate less one from the goal, and any path through
                    // it costs at least f − 2, over the bound: the remaining children are not
                    // searched. (The child's own estimate, never a value returned from below
                    // it, which the pruning automaton makes a bound of the kept paths only.)
                    return IterationEnd::Exceeded(f - 2);
                }
                continue;
            }
            // The move, made in place and undone after the search below it.
            let saved = Undo::save(&self.node, gi, mi);
            self.node.tiles[from] = tile as u8;
            self.node.tiles[to] = 0;
            self.node.blank = to as u8;
            self.node.md = md;
            let moved = 1 << from | 1 << to;
            self.node.occupied[gi] ^= moved;
            self.node.rank[gi] = child.rank;
            self.node.excess[gi] = e as u8;
            self.node.sum = sum;
            let mut mirror_moved = 0;
            if let Some(mirror) = &h.mirror {
                mirror_moved = 1 << mirror.cells[from] | 1 << mirror.cells[to];
                self.node.mirror_occupied[mi] ^= mirror_moved;
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
                self.found = g as usize + 1;
                return IterationEnd::Found;
            }
            match self.pass(g + 1, code, child.state) {
                IterationEnd::Exceeded(f) => exceeded = exceeded.min(f),
                done => return done,
            }
            self.node.tiles[to] = tile as u8;
            self.node.tiles[from] = 0;
            self.node.blank = from as u8;
            self.node.occupied[gi] ^= moved;
            self.node.mirror_occupied[mi] ^= mirror_moved;
            saved.restore(&mut self.node, gi, mi);
        }
        IterationEnd::Exceeded(exceeded)
    }
}

/// Starts the read of entry `rank` of `payload` into the cache without waiting for it.
#[inline(always)]
fn prefetch(payload: &[u8], rank: u32) {
    if let Some(byte) = payload.get((rank >> 1) as usize) {
        slidetable_format::mapping::prefetch(byte);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::factorial;

    #[test]
    fn ranks_after_a_move_are_the_ranks_from_scratch() {
        // Entries all 0 (any excess does: only the ranks are compared), groups in reading
        // order; goals with the blank in a corner (a mirror on square boards) and elsewhere.
        for (rows, cols, sizes, blank) in [
            (4, 4, &[5, 5, 5][..], 0),
            (4, 4, &[3, 6, 6], 15),
            (4, 4, &[6, 3, 6], 5),
            (3, 3, &[4, 4], 0),
            (3, 3, &[2, 3, 3], 8),
            (3, 3, &[1, 2, 5], 4),
            (2, 3, &[2, 3], 0),
            (3, 4, &[6, 5], 0),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let goal = board.goal_with_blank(blank);
            let n = board.cells();
            let mut first = 1;
            let mut masks = Vec::new();
            for &k in sizes {
                masks.push(((1u32 << (first + k)) - (1u32 << first)) as u16);
                first += k;
            }
            let payloads: Vec<Vec<u8>> = sizes
                .iter()
                .map(|&k| vec![0u8; (factorial(n) / factorial(n - k)).div_ceil(2) as usize])
                .collect();
            let groups: Vec<PatternGroup<'_>> = masks
                .iter()
                .zip(&payloads)
                .map(|(&tiles, payload)| PatternGroup { tiles, payload })
                .collect();
            let h = PatternHeuristic::new(&goal, &groups).unwrap();
            assert_eq!(
                h.mirrored(),
                rows == cols,
                "the blank is on the main diagonal"
            );
            let mut layout = goal;
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            for _ in 0..3000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = Move::ALL[(seed % 4) as usize];
                let Some(next) = layout.moved(m) else {
                    continue;
                };
                let (from, to) = (layout.blank(), next.blank());
                let node = h.node(&layout);
                let after = h.node(&next);
                let tile = layout.tiles()[to] as usize;
                let (rank, mirror_rank) = h.moved_ranks(&node, tile, to, from);
                let p = h.place[tile];
                assert_eq!(rank, after.rank[p.group as usize], "{layout} {m:?}");
                if let Some(mirror) = &h.mirror {
                    let q = mirror.place[tile];
                    assert_eq!(
                        mirror_rank, after.mirror_rank[q.group as usize],
                        "{layout} {m:?}"
                    );
                }
                layout = next;
            }
        }
    }

    #[test]
    fn groups_that_do_not_partition_the_tiles_are_refused_with_the_rule_broken() {
        let goal = Board::new(2, 3).unwrap().standard_goal();
        let message = "the databases' groups must be disjoint, cover tiles 1..5 and have at most 9 tiles each";
        for (groups, problem) in [
            (
                vec![0b00110u16, 0b101100],
                GroupError::TileTwice { group: 1, tile: 2 },
            ),
            (vec![0b00110, 0b011000], GroupError::TileMissing { tile: 5 }),
            (vec![], GroupError::TileMissing { tile: 1 }),
            (
                vec![0b111110, 0],
                GroupError::BadSize { group: 1, tiles: 0 },
            ),
        ] {
            let given: Vec<PatternGroup<'_>> = groups
                .iter()
                .map(|&tiles| PatternGroup {
                    tiles,
                    payload: &[],
                })
                .collect();
            let err = PatternHeuristic::new(&goal, &given).unwrap_err();
            assert_eq!(err, PatternError::Groups { last: 5, problem });
            assert_eq!(err.to_string(), message);
        }
    }
}
