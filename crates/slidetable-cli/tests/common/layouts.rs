//! Layouts for the tests to ask about and to check answers with, knowing nothing of tables:
//! spellings, a fixed pseudo-random sequence, replaying a path, exact distances by a
//! breadth-first search over layouts, and `distance`/`path` asked of the 3×3 table.

use std::collections::{HashMap, VecDeque};

use slidetable::core::{parse_path, Board, Layout, Move};
use slidetable_testkit::swapped;

use super::query;

/// POJ 1077's sample puzzle and its smallest optimal path under u < d < l < r.
pub(crate) const SAMPLE: &str = "2 3 4 1 5 x 7 6 8";

pub(crate) const SAMPLE_PATH: &str = "ullddrurdllurdruldr";

/// `distance` for each layout (with `--goal` if given): `None` for -1.
pub(crate) fn distances_of(layouts: &[Layout], goal: Option<&Layout>) -> Vec<Option<u32>> {
    let goal_text = goal.map(Layout::to_string);
    let mut args = vec![];
    if let Some(g) = &goal_text {
        args.extend(["--goal", g.as_str()]);
    }
    let run = query("distance", &args, lines_of(layouts)).ok();
    let answers: Vec<Option<u32>> = run
        .lines()
        .iter()
        .map(|l| match *l {
            "-1" => None,
            d => Some(
                d.parse()
                    .unwrap_or_else(|_| panic!("distance printed {l:?}")),
            ),
        })
        .collect();
    assert_eq!(answers.len(), layouts.len(), "{run:#?}");
    answers
}

/// `path` for each layout, with `--goal` and `--order` if given.
pub(crate) fn paths_of(
    layouts: &[Layout],
    goal: Option<&Layout>,
    order: Option<&str>,
) -> Vec<String> {
    let goal_text = goal.map(Layout::to_string);
    let mut args = vec![];
    if let Some(g) = &goal_text {
        args.extend(["--goal", g.as_str()]);
    }
    if let Some(o) = order {
        args.extend(["--order", o]);
    }
    let run = query("path", &args, lines_of(layouts)).ok();
    // Not `lines()`: an empty path is an empty line, which must be counted.
    let mut paths: Vec<String> = run.stdout.split('\n').map(str::to_string).collect();
    assert_eq!(paths.pop().as_deref(), Some(""), "{run:#?}");
    assert_eq!(paths.len(), layouts.len(), "{run:#?}");
    paths
}

pub(crate) fn lines_of(layouts: &[Layout]) -> String {
    layouts.iter().map(|l| format!("{l}\n")).collect()
}

/// Tiles as single characters, the blank as `blank`, joined by `sep`: `2 3 4 1 5 x 7 6 8`,
/// `23415X768`.
pub(crate) fn spelled(layout: &Layout, blank: char, sep: &str) -> String {
    layout
        .tiles()
        .iter()
        .map(|&t| match t {
            0 => blank.to_string(),
            t => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// Rows of integers, one row per line (hiho, uva10085, the 0 being the blank).
pub(crate) fn grid(layout: &Layout) -> String {
    layout.grid() + "\n"
}

/// A fixed pseudo-random sequence (SplitMix64): the same puzzles every run.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A uniformly random layout of `board` (either parity class).
    pub(crate) fn layout(&mut self, board: Board) -> Layout {
        let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, self.below(i + 1));
        }
        Layout::new(board, &tiles).unwrap()
    }

    /// A random layout with the blank in `cell`.
    pub(crate) fn layout_with_blank(&mut self, board: Board, cell: usize) -> Layout {
        let mut tiles = self.layout(board).tiles().to_vec();
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        tiles.swap(blank, cell);
        Layout::new(board, &tiles).unwrap()
    }

    /// A random layout in `goal`'s parity class (it can reach `goal`), or the other one.
    pub(crate) fn layout_reaching(&mut self, goal: &Layout, reachable: bool) -> Layout {
        let layout = self.layout(goal.board());
        if layout.can_reach(goal) == reachable {
            layout
        } else {
            swapped(&layout)
        }
    }

    /// `from` after `moves` random moves.
    pub(crate) fn scramble(&mut self, from: &Layout, moves: usize) -> Layout {
        let mut layout = *from;
        for _ in 0..moves {
            let legal: Vec<Move> = layout.moves().collect();
            layout = layout.moved(legal[self.below(legal.len())]).unwrap();
        }
        layout
    }
}

/// The layout `path` leads to from `start`; panics, naming the case, if a letter is not one of
/// `letters` or a move leaves the board.
pub(crate) fn replay(start: &Layout, path: &str, letters: &str, case: &str) -> Layout {
    assert!(
        path.chars().all(|c| letters.contains(c)),
        "{case}: '{path}' has letters other than {letters}"
    );
    let moves = parse_path(path).unwrap();
    start
        .after(&moves)
        .unwrap_or_else(|| panic!("{case}: '{path}' leaves the board from {start}"))
}

/// Exact distances to `goal` of every layout at most `limit` moves away, by a breadth-first
/// search over layouts (keyed by their packed form). Knows nothing of tables.
pub(crate) fn brute_force(goal: &Layout, limit: u32) -> HashMap<u64, u32> {
    let mut dist = HashMap::from([(goal.packed(), 0)]);
    let mut queue = VecDeque::from([(*goal, 0)]);
    while let Some((layout, d)) = queue.pop_front() {
        if d == limit {
            continue;
        }
        for m in Move::ALL {
            if let Some(next) = layout.moved(m) {
                dist.entry(next.packed()).or_insert_with(|| {
                    queue.push_back((next, d + 1));
                    d + 1
                });
            }
        }
    }
    dist
}

/// Puzzles reached by `len` random moves from the goal (a fixed generator: the same every run).
pub(crate) fn scrambles(count: usize) -> Vec<(Layout, usize)> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    (0..count)
        .map(|i| {
            let len = i % 60;
            let mut layout = Board::EIGHT.standard_goal();
            for _ in 0..len {
                let moves: Vec<Move> = layout.moves().collect();
                layout = layout.moved(moves[next() % moves.len()]).unwrap();
            }
            (layout, len)
        })
        .collect()
}
