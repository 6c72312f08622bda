//! The 24-puzzle's solver: its lengths against independent searches (breadth-first search
//! on boards of up to 16 cells, a plain Manhattan IDA* written here on 5×5), every path
//! replayed move by move, and its limits.

use slidetable_core::{Board, Layout, Layout25, Move};
use slidetable_gen::engine::{solve_partition25, solve_pattern25_in_width};
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

/// The rank of a placement (`cells[i]`: the cell of the group's i-th tile) written here from
/// its definition, sharing nothing with the solver's ranker: the i-th digit is the cell less
/// the earlier tiles' cells below it, worth (n−1−i)!/(n−k)!.
fn rank_by_definition(n: usize, cells: &[usize]) -> u64 {
    let k = cells.len();
    let mut rank = 0u128;
    for (i, &c) in cells.iter().enumerate() {
        let digit = c - cells[..i].iter().filter(|&&d| d < c).count();
        let weight: u128 = ((n - k + 1)..n - i).map(|x| x as u128).product();
        rank += digit as u128 * weight;
    }
    u64::try_from(rank).unwrap()
}

/// The placements of `groups` in `layout` (each group's tiles' cells in tile order), and with
/// `reflect` those of the layout reflected about the main diagonal (towards a goal with
/// tile t in cell t, which the reflection maps to itself): tile `u` lies in the reflected
/// board where tile flip(u) lies in the layout, reflected.
fn placements(layout: &Layout25, groups: &[u32], reflect: bool) -> Vec<Vec<usize>> {
    let n = layout.cells();
    let side = layout.rows();
    let flip = |c: usize| (c % side) * side + c / side;
    let cell_of = |t: usize| {
        layout
            .tiles()
            .iter()
            .position(|&x| usize::from(x) == t)
            .unwrap()
    };
    let mut all = Vec::new();
    for &tiles in groups {
        let group: Vec<usize> = (1..n).filter(|&t| tiles & (1 << t) != 0).collect();
        all.push(group.iter().map(|&t| cell_of(t)).collect());
        if reflect {
            all.push(group.iter().map(|&u| flip(cell_of(flip(u)))).collect());
        }
    }
    all
}

/// The heuristic of `groups` at `layout` computed here: each group's entry at the rank of
/// its placement by definition, summed, and with `reflect` the larger of that sum and the
/// reflected board's.
fn heuristic_by_definition(layout: &Layout25, groups: &[(u32, &[u8])], reflect: bool) -> u32 {
    let n = layout.cells();
    let masks: Vec<u32> = groups.iter().map(|g| g.0).collect();
    let places = placements(layout, &masks, reflect);
    let per = if reflect { 2 } else { 1 };
    let (mut sum, mut sum_r) = (0u32, 0u32);
    for (i, cells) in places.iter().enumerate() {
        let value = u32::from(groups[i / per].1[rank_by_definition(n, cells) as usize]);
        if i % per == 0 {
            sum += value;
        } else {
            sum_r += value;
        }
    }
    sum.max(sum_r)
}

/// Groups of 8 tiles (one of all 8 tiles of 3x3: the exact distance; 8-3 on 3x4), in either
/// rank width: the lengths of breadth-first search, every entry read at its rank.
#[test]
fn groups_of_eight_tiles_on_small_boards_are_read_at_their_ranks_in_either_width() {
    for (rows, cols, text, reflect) in [(3, 3, "8", true), (3, 4, "8-3", false)] {
        let goal = Layout25::goal_with_blank(rows, cols, 0).unwrap();
        let dbs = databases(&goal, text);
        let groups: Vec<(u32, &[u8])> = dbs.iter().map(|(t, e)| (*t, e.as_slice())).collect();
        let board = Board::new(rows, cols).unwrap();
        let goal16 = Layout::new(board, goal.tiles()).unwrap();
        for wide in [false, true] {
            let db = Databases25::with_wide_ranks(goal, &groups, reflect, wide).unwrap();
            assert_eq!(db.wide_ranks(), wide);
            for seed in 0..40 {
                let start = scramble(&goal, 40 + seed as usize, 900 + seed);
                assert_eq!(
                    db.heuristic(&start).unwrap(),
                    heuristic_by_definition(&start, &groups, reflect && rows == cols),
                    "{rows}x{cols} {text} wide {wide}: {start}"
                );
                if seed % 4 == 0 {
                    // Breadth-first search holds every state within the distance: short ones.
                    let start = scramble(&goal, 6 + seed as usize / 2, 900 + seed);
                    let solved = db.solve(&start, &Limits::default(), &|_| ()).unwrap();
                    replay(&start, &solved.path, &goal);
                    let start16 = Layout::new(board, start.tiles()).unwrap();
                    let by_bfs = bfs(&start16, &goal16, &Limits::default()).unwrap();
                    assert_eq!(solved.path.len(), by_bfs.path.len(), "{start}");
                }
            }
        }
    }
}

/// 8-8-8 on 5x5, the partition 64-bit ranks are for (25!/17! = 43,609,104,000 placements a
/// group, past 2³²): one sparse file of that length stands for each group's entries, with a
/// value written at the rank by definition of each placement the sampled puzzles have (and
/// of their reflections); the solver's heuristic must read exactly those. (Unix: the bytes are
/// written at their offsets with `FileExt::write_at`.)
#[test]
#[cfg(unix)]
fn an_eight_tile_group_of_five_by_five_is_read_at_its_64_bit_rank() {
    use std::os::unix::fs::FileExt;
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let count: u64 = 43_609_104_000;
    let masks = [0x1FE, 0x1FE00, 0x1FE_0000];
    let dir = tempfile::tempdir().unwrap();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(dir.path().join("entries"))
        .unwrap();
    file.set_len(count).unwrap();
    // A value that depends on the rank, never 0 (what the rest of the sparse file reads).
    let value = |rank: u64| (1 + rank % 61) as u8;
    let starts: Vec<Layout25> = (0..60)
        .map(|seed| scramble(&goal, 300, 7000 + seed))
        .collect();
    let mut past_32_bits = 0;
    for start in &starts {
        for cells in placements(start, &masks, true) {
            let rank = rank_by_definition(25, &cells);
            assert!(rank < count);
            past_32_bits += usize::from(rank >> 32 != 0);
            file.write_at(&[value(rank)], rank).unwrap();
        }
    }
    assert!(past_32_bits > 100, "{past_32_bits} ranks past 2^32");
    let map = slidetable_format::mapping::map_read(&file).unwrap();
    let groups: Vec<(u32, &[u8])> = masks.iter().map(|&m| (m, &map[..])).collect();
    for reflect in [false, true] {
        let db = Databases25::new(goal, &groups, reflect).unwrap();
        assert!(db.wide_ranks());
        assert_eq!(db.reflects(), reflect);
        for start in &starts {
            let want = heuristic_by_definition(start, &groups, reflect);
            assert!(want >= 3, "{start}: every group's entry was written");
            assert_eq!(db.heuristic(start).unwrap(), want, "{start}");
        }
    }
}

/// 5-5-5-5-4 built by the pattern builder in 64-bit ranks is the same bytes as in 32, and the
/// solver in 64-bit ranks on it finds the same paths with the same node counts as in 32 (on
/// one thread, where the counts of the last iteration are fixed too).
#[test]
fn five_by_five_in_64_bit_ranks_is_searched_as_in_32() {
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let narrow = five_by_five();
    let wide: Vec<(u32, Vec<u8>)> = narrow
        .iter()
        .map(|(tiles, _)| {
            let g = solve_pattern25_in_width::<u64>(&goal, *tiles, &|_| ()).unwrap();
            (g.tiles, g.entries)
        })
        .collect();
    assert!(narrow == wide.as_slice(), "the builder's widths differ");
    let groups_n: Vec<(u32, &[u8])> = narrow.iter().map(|(t, e)| (*t, e.as_slice())).collect();
    let groups_w: Vec<(u32, &[u8])> = wide.iter().map(|(t, e)| (*t, e.as_slice())).collect();
    let db_n = Databases25::new(goal, &groups_n, true).unwrap();
    let db_w = Databases25::with_wide_ranks(goal, &groups_w, true, true).unwrap();
    assert!(!db_n.wide_ranks() && db_w.wide_ranks());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for seed in 0..8 {
        let start = scramble(&goal, 60 + 2 * seed as usize, 300 + seed);
        let (n, w) = one.install(|| {
            (
                db_n.solve(&start, &Limits::default(), &|_| ()).unwrap(),
                db_w.solve(&start, &Limits::default(), &|_| ()).unwrap(),
            )
        });
        replay(&start, &n.path, &goal);
        assert_eq!(n.path, w.path, "{start}");
        assert_eq!(
            (n.stats.expanded, n.stats.generated, n.stats.iterations),
            (w.stats.expanded, w.stats.generated, w.stats.iterations),
            "{start}"
        );
    }
}

/// What the solver still refuses: a group whose placements pass a 64-bit rank (16 tiles of
/// 25 cells: no file holds its entries), named with its count.
#[test]
fn a_group_past_a_64_bit_rank_is_refused_with_its_placements() {
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let tables: Vec<(u32, &[u8])> = vec![(0x1FFFE, &[]), (0x1FE_0000, &[])];
    let e = Databases25::new(goal, &tables, true).err().unwrap();
    assert_eq!(
        e.to_string(),
        "the pattern databases do not fit their goal: group 0 has 16 tiles: 16 tiles over 25 \
         cells make 42744736671436800000 placements, more than a 64-bit rank holds"
    );
}

/// Databases whose every entry is 0 (damaged, yet with the goal's entry 0, so they pass the
/// check when made) estimate 0 everywhere: the search must not take a state it estimates at
/// 0 for the goal, in either width, at the root, at the top of the tree or in a subtree.
#[test]
fn databases_that_estimate_0_away_from_the_goal_are_refused_not_believed() {
    let goal = Layout25::goal_with_blank(3, 3, 0).unwrap();
    let real = databases(&goal, "4-4");
    let zeros: Vec<(u32, Vec<u8>)> = real.iter().map(|(t, e)| (*t, vec![0; e.len()])).collect();
    let groups: Vec<(u32, &[u8])> = zeros.iter().map(|(t, e)| (*t, e.as_slice())).collect();
    for wide in [false, true] {
        let db = Databases25::with_wide_ranks(goal, &groups, false, wide).unwrap();
        for (moves, seed) in [(1, 1), (6, 2), (20, 3)] {
            let start = scramble(&goal, moves, seed);
            assert_ne!(start, goal);
            match db.solve(&start, &Limits::default(), &|_| ()) {
                Err(Search25Error::Damaged { reached }) => assert_ne!(reached, goal),
                other => panic!("{start} ({moves} moves): {other:?}"),
            }
        }
        // The goal itself is still solved, by the empty path.
        let solved = db.solve(&goal, &Limits::default(), &|_| ()).unwrap();
        assert!(solved.path.is_empty());
    }
}
