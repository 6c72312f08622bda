//! What the test suites share, in one place instead of a copy in each test file: every
//! permutation of a board's tiles, a layout of the other parity class, and a plain
//! breadth-first search to check the tables against (no ranking, no generator).
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_testkit::{distances_by_bfs, for_each_permutation, swapped};
//!
//! let mut count = 0;
//! for_each_permutation(4, |_| count += 1);
//! assert_eq!(count, 24);
//!
//! let goal = Board::new(2, 2).unwrap().standard_goal();
//! assert_eq!(distances_by_bfs(goal).len(), 12);
//! assert_ne!(swapped(&goal).class(), goal.class());
//! ```

pub mod schema;

use std::collections::{HashMap, VecDeque};

use slidetable_core::Layout;

/// Calls `f` with every permutation of `0..n`, by Heap's algorithm.
pub fn for_each_permutation(n: usize, mut f: impl FnMut(&[u8])) {
    let mut a: Vec<u8> = (0..n as u8).collect();
    let mut c = vec![0usize; n];
    f(&a);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            f(&a);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// The same layout with its first two tiles swapped: the other parity class, so it cannot
/// reach the layouts this one reaches.
pub fn swapped(layout: &Layout) -> Layout {
    let mut tiles = layout.tiles().to_vec();
    let cells: Vec<usize> = (0..tiles.len())
        .filter(|&c| tiles[c] != 0)
        .take(2)
        .collect();
    tiles.swap(cells[0], cells[1]);
    Layout::new(layout.board(), &tiles).expect("a permutation of a layout is a layout")
}

/// Fewest moves from `goal` to every layout that can reach it, by a plain breadth-first
/// search: a `HashMap` over layouts, no ranking, no generator.
pub fn distances_by_bfs(goal: Layout) -> HashMap<Layout, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal, 0u32);
    queue.push_back(goal);
    while let Some(cur) = queue.pop_front() {
        let d = dist[&cur];
        for m in cur.moves() {
            let Some(next) = cur.moved(m) else { continue };
            dist.entry(next).or_insert_with(|| {
                queue.push_back(next);
                d + 1
            });
        }
    }
    dist
}
