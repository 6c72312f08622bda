//! Korf's instance #79 with Manhattan distance: the 1985 paper's 540,860 nodes generated,
//! against our IDA*'s counts under each counting convention a program could have used
//! (docs/SEARCH.md, "Korf's instance #79"). A counter of its own, written apart from the
//! library's IDA*, counts per iteration:
//!
//! - `expanded`: nodes whose moves were tried (f within the bound, not the goal);
//! - `entered`: calls of the depth-first search (the expanded, plus the goal when found);
//! - `generated`: children made, the parent never regenerated (the undoing move skipped);
//! - `with parent`: children made when the parent is regenerated and then discarded;
//!
//! the last iteration either stopped at the first solution, which depends on the order the
//! moves are tried in (all 24 orders), or searched whole (which does not). The counter is
//! checked against the library's `idastar` (order u d l r); the table is printed with
//! `cargo test --release -p slidetable-search --test integration korf79 -- --nocapture`. One convention
//! gives the paper's figure exactly: `generated` in the order u l r d, plus the start.

use slidetable_core::{parse_layout, Board, Layout, Move};
use slidetable_search::{idastar, Heuristic, Limits, Manhattan};

/// The paper's figure for instance #79 (`data/korf100.txt`, column 3).
const PAPER: u64 = 540_860;
const START: &str = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15";

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Counts {
    expanded: u64,
    entered: u64,
    generated: u64,
    with_parent: u64,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.expanded += o.expanded;
        self.entered += o.entered;
        self.generated += o.generated;
        self.with_parent += o.with_parent;
    }
}

struct Counter<'a> {
    h: &'a Manhattan,
    goal: Layout,
    order: [Move; 4],
    bound: u32,
    /// Stop at the first solution (else search the whole iteration).
    stop: bool,
    counts: Counts,
    found: bool,
    next_bound: u32,
}

impl Counter<'_> {
    fn search(&mut self, node: &Layout, g: u32, via: Option<Move>) -> bool {
        self.counts.entered += 1;
        if *node == self.goal {
            self.found = true;
            return self.stop;
        }
        self.counts.expanded += 1;
        for m in self.order {
            let Some(child) = node.moved(m) else { continue };
            self.counts.with_parent += 1;
            if via.is_some_and(|v| v.opposite() == m) {
                continue;
            }
            self.counts.generated += 1;
            let ch = self.h.estimate(&child);
            let f = g + 1 + ch;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            if self.search(&child, g + 1, Some(m)) {
                return true;
            }
        }
        false
    }
}

/// Every iteration's counts: those before the last (whole trees), and the last one's,
/// stopped at the first solution in `order` or searched whole.
fn iterations(order: [Move; 4], stop: bool) -> (Vec<u32>, Counts, Counts) {
    let board = Board::FIFTEEN;
    let start = parse_layout(board, START.as_bytes()).unwrap();
    let goal = board.goal_with_blank(0);
    let h = Manhattan::new(&goal);
    let mut bound = h.estimate(&start);
    let mut before = Counts::default();
    let mut bounds = Vec::new();
    loop {
        let mut c = Counter {
            h: &h,
            goal,
            order,
            bound,
            stop,
            counts: Counts::default(),
            found: false,
            next_bound: u32::MAX,
        };
        c.search(&start, 0, None);
        bounds.push(bound);
        if c.found {
            return (bounds, before, c.counts);
        }
        before.add(c.counts);
        bound = c.next_bound;
    }
}

fn orders() -> Vec<[Move; 4]> {
    let mut all = Vec::new();
    for a in Move::ALL {
        for b in Move::ALL {
            for c in Move::ALL {
                for d in Move::ALL {
                    let o = [a, b, c, d];
                    if (0..4).all(|i| (0..i).all(|j| o[i] != o[j])) {
                        all.push(o);
                    }
                }
            }
        }
    }
    all
}

fn name(order: [Move; 4]) -> String {
    order.iter().map(|m| m.letter()).collect()
}

#[test]
fn korf_79_under_each_counting_convention() {
    let board = Board::FIFTEEN;
    let goal = board.goal_with_blank(0);
    let start = parse_layout(board, START.as_bytes()).unwrap();

    // The counter counts what the library counts, in the library's order.
    let (bounds, before, last) = iterations(Move::ALL, true);
    let solved = idastar(&start, &Manhattan::new(&goal), &Limits::default()).unwrap();
    assert_eq!(solved.path.len(), 42);
    assert_eq!(bounds.len() as u32, solved.stats.iterations.unwrap());
    assert_eq!(before.expanded + last.expanded, solved.stats.expanded);
    assert_eq!(before.generated + last.generated, solved.stats.generated);
    assert_eq!(*bounds.last().unwrap(), 42);

    let (_, whole_before, whole_last) = iterations(Move::ALL, false);
    assert_eq!(
        whole_before, before,
        "earlier iterations do not depend on stopping"
    );
    let pick = |c: &Counts, k: usize| [c.expanded, c.entered, c.generated, c.with_parent][k];
    let kinds = ["expanded", "entered", "generated", "with parent"];

    println!("Korf #79, Manhattan, bounds {bounds:?}; the paper: {PAPER}");
    println!("iterations before the last (any order):");
    for (k, kind) in kinds.iter().enumerate() {
        println!("  {kind:<12} {}", pick(&before, k));
    }
    println!("the last iteration searched whole (any order):");
    for (k, kind) in kinds.iter().enumerate() {
        let total = pick(&before, k) + pick(&whole_last, k);
        println!(
            "  {kind:<12} {total} in all ({})",
            total as i64 - PAPER as i64
        );
    }
    // Every order: the totals with the last iteration stopped at its first solution.
    let mut nearest: Option<(u64, String, &str)> = None;
    let mut exact = Vec::new();
    println!("the last iteration stopped at the first solution, per move order (blank's moves):");
    println!(
        "  order  {:>10} {:>10} {:>10} {:>12}",
        kinds[0], kinds[1], kinds[2], kinds[3]
    );
    for order in orders() {
        let (_, b, l) = iterations(order, true);
        assert_eq!(b, before);
        let totals: Vec<u64> = (0..4).map(|k| pick(&b, k) + pick(&l, k)).collect();
        println!(
            "  {}   {:>10} {:>10} {:>10} {:>12}",
            name(order),
            totals[0],
            totals[1],
            totals[2],
            totals[3]
        );
        for (k, &t) in totals.iter().enumerate() {
            if t == PAPER {
                exact.push(format!("{} {}", name(order), kinds[k]));
            }
            let off = t.abs_diff(PAPER);
            if nearest.as_ref().is_none_or(|(o, _, _)| off < *o) {
                nearest = Some((off, name(order), kinds[k]));
            }
        }
    }
    let (off, order, kind) = nearest.unwrap();
    println!("exactly {PAPER}: {exact:?}; nearest: {kind} in order {order}, {off} away");
    // The paper's figure, reproduced: children generated over every iteration, the parent
    // never regenerated, children pruned by the bound counted, the last iteration stopped at
    // its first solution with the blank's moves tried up, left, right, down; plus the start
    // itself, generated once.
    let ulrd = [Move::Up, Move::Left, Move::Right, Move::Down];
    let (_, b, l) = iterations(ulrd, true);
    let generated = b.generated + l.generated;
    println!(
        "order ulrd: {generated} children generated + 1 (the start) = {}",
        generated + 1
    );
    assert_eq!(generated + 1, PAPER);
}
