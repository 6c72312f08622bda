//! The 24-puzzle's solver: its lengths against independent searches (breadth-first search
//! on boards of up to 16 cells, a plain Manhattan IDA* written here on 5×5), every path
//! replayed move by move, and its limits.

use slidetable_core::{Board, Layout, Layout25, Move};
use slidetable_gen::engine::solve_partition25;
use slidetable_gen::Partition25;
use slidetable_search::{bfs, Databases25, Limit, Limits, Search25Error, Stop};
use std::sync::OnceLock;

/// A puzzle `moves` random moves (never undoing the last) from `goal`, by a fixed generator.
fn scramble(goal: &Layout25, moves: usize, seed: u64) -> Layout25 {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut layout = *goal;
    let mut last: Option<Move> = None;
    let mut made = 0;
    while made < moves {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = Move::ALL[(state % 4) as usize];
        if last == Some(m.opposite()) {
            continue;
        }
        if let Some(next) = layout.moved(m) {
            layout = next;
            last = Some(m);
            made += 1;
        }
    }
    layout
}

/// The databases of `text` towards `goal`, built in memory.
fn databases(goal: &Layout25, text: &str) -> Vec<(u32, Vec<u8>)> {
    let partition = Partition25::parse(text, goal).unwrap();
    solve_partition25(goal, &partition, &|_| ())
        .unwrap()
        .into_iter()
        .map(|g| (g.tiles, g.entries))
        .collect()
}

/// Checks that `path` is legal from `start` and ends at `goal`.
fn replay(start: &Layout25, path: &[Move], goal: &Layout25) {
    let mut at = *start;
    for (i, &m) in path.iter().enumerate() {
        at = at
            .moved(m)
            .unwrap_or_else(|| panic!("move {i} ({}) leaves the board", m.letter()));
    }
    assert_eq!(&at, goal, "the path does not end at the goal");
}

#[test]
fn lengths_on_small_boards_are_breadth_first_searchs() {
    for (rows, cols, text, reflect) in [
        (3, 3, "4-4", true),
        (3, 3, "2-3-3", false),
        (3, 4, "4-4-3", false),
    ] {
        let goal = Layout25::goal_with_blank(rows, cols, 0).unwrap();
        let dbs = databases(&goal, text);
        let groups: Vec<(u32, &[u8])> = dbs.iter().map(|(t, e)| (*t, e.as_slice())).collect();
        let db = Databases25::new(goal, &groups, reflect).unwrap();
        assert_eq!(db.reflects(), reflect && rows == cols);
        let board = Board::new(rows, cols).unwrap();
        let goal16 = Layout::new(board, goal.tiles()).unwrap();
        // Breadth-first search on 3x4 holds every state within the distance: short scrambles.
        for seed in 0..20 {
            let start = scramble(&goal, 6 + seed as usize % 12, seed);
            let solved = db.solve(&start, &Limits::default(), &|_| ()).unwrap();
            replay(&start, &solved.path, &goal);
            let start16 = Layout::new(board, start.tiles()).unwrap();
            let by_bfs = bfs(&start16, &goal16, &Limits::default()).unwrap();
            assert_eq!(
                solved.path.len(),
                by_bfs.path.len(),
                "{rows}x{cols} {text}: {start}"
            );
            assert!(db.heuristic(&start).unwrap() <= solved.path.len() as u32);
        }
    }
}

/// The distance by IDA* on the Manhattan distance alone, a search that shares nothing with
/// the pattern databases.
fn manhattan_ida(start: &Layout25, goal: &Layout25) -> usize {
    let cols = goal.cols();
    let mut home = [0usize; 25];
    for (c, &t) in goal.tiles().iter().enumerate() {
        home[usize::from(t)] = c;
    }
    let md = |l: &Layout25| -> u32 {
        l.tiles()
            .iter()
            .enumerate()
            .filter(|(_, &t)| t != 0)
            .map(|(c, &t)| {
                let h = home[usize::from(t)];
                ((c / cols).abs_diff(h / cols) + (c % cols).abs_diff(h % cols)) as u32
            })
            .sum()
    };
    fn dfs(
        l: &Layout25,
        g: u32,
        bound: u32,
        last: Option<Move>,
        md: &dyn Fn(&Layout25) -> u32,
        next: &mut u32,
    ) -> bool {
        let h = md(l);
        if h == 0 {
            return true;
        }
        if g + h > bound {
            *next = (*next).min(g + h);
            return false;
        }
        for m in Move::ALL {
            if last == Some(m.opposite()) {
                continue;
            }
            if let Some(c) = l.moved(m) {
                if dfs(&c, g + 1, bound, Some(m), md, next) {
                    return true;
                }
            }
        }
        false
    }
    let mut bound = md(start);
    loop {
        let mut next = u32::MAX;
        if dfs(start, 0, bound, None, &md, &mut next) {
            return bound as usize;
        }
        bound = next;
    }
}

/// 5×5's 5-5-5-5-4 databases towards the blank top-left (6,375,600 placements a group,
/// seconds to build), built once for every test here.
fn five_by_five() -> &'static [(u32, Vec<u8>)] {
    static DATABASES: OnceLock<Vec<(u32, Vec<u8>)>> = OnceLock::new();
    DATABASES.get_or_init(|| databases(&Layout25::goal_with_blank(5, 5, 0).unwrap(), "5-5-5-5-4"))
}

#[test]
fn five_by_five_lengths_are_a_manhattan_idastars_and_every_path_replays() {
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let dbs = five_by_five();
    let groups: Vec<(u32, &[u8])> = dbs.iter().map(|(t, e)| (*t, e.as_slice())).collect();
    let db = Databases25::new(goal, &groups, true).unwrap();
    assert!(db.reflects());
    for seed in 0..12 {
        let start = scramble(&goal, 30 + 2 * seed as usize, 100 + seed);
        let solved = db.solve(&start, &Limits::default(), &|_| ()).unwrap();
        replay(&start, &solved.path, &goal);
        assert_eq!(solved.path.len(), manhattan_ida(&start, &goal), "{start}");
        assert_eq!(solved.stats.bound, Some(solved.path.len() as u32));
        assert!(solved.stats.expanded <= solved.stats.generated);
    }
    // A start that cannot reach the goal, and a stop requested before the search.
    let mut swapped = goal.tiles().to_vec();
    swapped.swap(1, 2);
    let odd = Layout25::new(5, 5, &swapped).unwrap();
    assert!(matches!(
        db.solve(&odd, &Limits::default(), &|_| ()),
        Err(Search25Error::Unsolvable { .. })
    ));
    let stop = Stop::new();
    stop.request();
    let hard = Layout25::parse(
        5,
        5,
        "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13",
    )
    .unwrap();
    let limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    match db.solve(&hard, &limits, &|_| ()) {
        Err(Search25Error::LimitReached {
            limit: Limit::Stopped,
            stats,
        }) => {
            let h = db.heuristic(&hard).unwrap();
            assert!(stats.bound.unwrap() >= h && stats.bound.unwrap() <= 95);
        }
        other => panic!("{other:?}"),
    }
}

/// The threads share the last iteration's subtrees, but the subtrees before the one where a
/// path is found are always searched to their end: the path is the one a single thread finds
/// (the smallest optimal one under u d l r that the pruning keeps), and the work counted is
/// a single thread's plus what was cut short after it.
#[test]
fn the_path_found_does_not_depend_on_the_threads() {
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let groups: Vec<(u32, &[u8])> = five_by_five()
        .iter()
        .map(|(t, e)| (*t, e.as_slice()))
        .collect();
    let db = Databases25::new(goal, &groups, true).unwrap();
    let pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    };
    let (one, three) = (pool(1), pool(3));
    // Scrambles whose searches take well under a second (40–58 moves).
    for seed in [0, 3, 4, 7, 8, 13, 14, 15] {
        let start = scramble(&goal, 70 + 2 * (seed as usize % 4), 500 + seed);
        let alone = one.install(|| db.solve(&start, &Limits::default(), &|_| ()).unwrap());
        replay(&start, &alone.path, &goal);
        for _ in 0..3 {
            let shared = three.install(|| db.solve(&start, &Limits::default(), &|_| ()).unwrap());
            assert_eq!(
                shared.path, alone.path,
                "{start}: three threads found another path"
            );
            assert!(shared.stats.expanded >= alone.stats.expanded, "{start}");
        }
    }
}

/// A file's group of more than 7 tiles (what 8-8-8 has: built in parts, ranked in 64 bits) is
/// refused by the solver with what it reads, not taken for no group.
#[test]
fn a_group_of_eight_tiles_is_refused_with_what_the_solver_reads() {
    let goal = Layout25::goal_with_blank(3, 3, 0).unwrap();
    let groups =
        solve_partition25(&goal, &Partition25::parse("8", &goal).unwrap(), &|_| ()).unwrap();
    let tables: Vec<(u32, &[u8])> = groups.iter().map(|g| (g.tiles, &g.entries[..])).collect();
    let e = Databases25::new(goal, &tables, true).err().unwrap();
    assert_eq!(
        e.to_string(),
        "the pattern databases do not fit their goal: group 0 has 8 tiles; the solver reads \
         groups of up to 7 tiles (larger ones are built, in parts, for their figures and for \
         other programs)"
    );
}
