//! The 24-puzzle's pattern-database builder checked two independent ways: against a plain
//! 0-1 breadth-first search over (placement, blank cell) states with a deque and a hash-free
//! full rank (no regions, no incremental ranks), and against the 15-puzzle's builder on a
//! 4×4 board, whose entries are its 4-bit excess over the Manhattan distance.

use std::collections::VecDeque;

use slidetable_core::{Layout25, PlacementRanker25};
use slidetable_format::{excess_at, PatternFile25, UNREACHED_25};
use slidetable_gen::engine::{
    solve_partition25, solve_pattern, solve_pattern25, solve_pattern25_in_width, write_pattern25,
};
use slidetable_gen::Partition25;

/// The value of every placement of `tiles` by a 0-1 BFS over (cells of the group's tiles,
/// cell of the blank): the blank swaps with a neighbour; that costs 1 when the neighbour is a
/// group tile. The placement's value is the least over blank cells.
fn by_plain_bfs(goal: &Layout25, tiles: u32) -> Vec<u8> {
    let (rows, cols, n) = (goal.rows(), goal.cols(), goal.cells());
    let group: Vec<u8> = (0..n as u8).filter(|&t| tiles & (1 << t) != 0).collect();
    let k = group.len();
    let ranker = PlacementRanker25::new(n, k).unwrap();
    let count = ranker.count() as usize;
    let mut dist = vec![u8::MAX; count * n];
    let home: Vec<u8> = group
        .iter()
        .map(|&t| goal.tiles().iter().position(|&x| x == t).unwrap() as u8)
        .collect();
    let mut deque = VecDeque::new();
    let start = ranker.rank(&home) as usize * n + goal.blank();
    dist[start] = 0;
    deque.push_back(start);
    let mut cells = vec![0u8; k];
    while let Some(s) = deque.pop_front() {
        let (p, blank) = (s / n, s % n);
        let d = dist[s];
        ranker.unrank(p as u32, &mut cells);
        let (r, c) = (blank / cols, blank % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - cols);
        }
        if r + 1 < rows {
            next.push(blank + cols);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < cols {
            next.push(blank + 1);
        }
        for to in next {
            let mut moved = cells.clone();
            let cost = match cells.iter().position(|&x| usize::from(x) == to) {
                Some(slot) => {
                    moved[slot] = blank as u8;
                    1
                }
                None => 0,
            };
            let child = ranker.rank(&moved) as usize * n + to;
            if d + cost < dist[child] {
                dist[child] = d + cost;
                if cost == 0 {
                    deque.push_front(child);
                } else {
                    deque.push_back(child);
                }
            }
        }
    }
    (0..count)
        .map(|p| {
            (0..n)
                .map(|b| dist[p * n + b])
                .min()
                .map_or(
                    UNREACHED_25,
                    |v| if v == u8::MAX { UNREACHED_25 } else { v },
                )
        })
        .collect()
}

#[test]
fn a_group_on_five_by_five_agrees_with_a_plain_zero_one_bfs() {
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    // Korf and Felner's first group cut to three tiles, and three tiles far from the blank.
    for tiles in [0b110_0010u32, 1 << 24 | 1 << 18 | 1 << 13] {
        let fast = solve_pattern25(&goal, tiles, &|_| ()).unwrap();
        assert_eq!(fast.entries, by_plain_bfs(&goal, tiles), "tiles {tiles:#x}");
        let sum: u64 = fast.histogram.iter().sum();
        assert_eq!(sum, fast.entries.len() as u64);
    }
}

#[test]
fn a_whole_partition_on_small_boards_agrees_with_a_plain_zero_one_bfs() {
    // Boards where a group leaves one tile or none outside: some placements are never
    // reached, and both searches must say so.
    for (rows, cols, text) in [(3, 3, "4-4"), (2, 4, "3-4"), (3, 4, "4-4-3"), (2, 3, "5")] {
        let goal = Layout25::goal_with_blank(rows, cols, 0).unwrap();
        let partition = Partition25::parse(text, &goal).unwrap();
        for (group, &tiles) in solve_partition25(&goal, &partition, &|_| ())
            .unwrap()
            .iter()
            .zip(partition.groups())
        {
            assert_eq!(
                group.entries,
                by_plain_bfs(&goal, tiles),
                "{rows}x{cols} {text} {tiles:#x}"
            );
        }
    }
}

/// The builder in 64-bit ranks (what groups of 8 tiles and more of 25 cells take) on groups
/// the 32-bit one builds: the same entries and histograms, so the same file, byte for byte.
#[test]
fn both_rank_widths_build_the_same_databases() {
    for (rows, cols, text) in [
        (3, 3, "4-4"),
        (2, 4, "3-4"),
        (3, 4, "4-4-3"),
        (4, 4, "5-5-5"),
        (5, 5, "4-4-4-4-4-4"),
    ] {
        let goal = Layout25::goal_with_blank(rows, cols, 0).unwrap();
        let partition = Partition25::parse(text, &goal).unwrap();
        let width = |wide: bool| -> Vec<u8> {
            let groups: Vec<_> = partition
                .groups()
                .iter()
                .map(|&tiles| {
                    if wide {
                        solve_pattern25_in_width::<u64>(&goal, tiles, &|_| ()).unwrap()
                    } else {
                        solve_pattern25_in_width::<u32>(&goal, tiles, &|_| ()).unwrap()
                    }
                })
                .collect();
            PatternFile25::to_bytes(&goal, &groups).unwrap()
        };
        let narrow = width(false);
        assert!(width(true) == narrow, "{rows}x{cols} {text}");
        // And both are what the builder picks for these groups (32 bits).
        let picked = solve_partition25(&goal, &partition, &|_| ()).unwrap();
        assert!(PatternFile25::to_bytes(&goal, &picked).unwrap() == narrow);
    }
    // Against the plain BFS too, in 64 bits.
    let goal = Layout25::goal_with_blank(3, 3, 0).unwrap();
    let wide = solve_pattern25_in_width::<u64>(&goal, 0b1_1110_0000, &|_| ()).unwrap();
    assert_eq!(wide.entries, by_plain_bfs(&goal, 0b1_1110_0000));
}

#[test]
fn a_four_by_four_group_agrees_with_the_fifteen_puzzles_builder() {
    let goal16 = slidetable_core::Board::FIFTEEN.goal_with_blank(0);
    let goal = Layout25::goal_with_blank(4, 4, 0).unwrap();
    let tiles = 0b1011_0010u32; // 1, 4, 5, 7
    let old = solve_pattern(&goal16, tiles as u16, &|_| ()).unwrap();
    let new = solve_pattern25(&goal, tiles, &|_| ()).unwrap();
    let md = goal16.manhattan_table();
    let ranker = PlacementRanker25::new(16, 4).unwrap();
    let mut cells = [0u8; 4];
    for (rank, &v) in new.entries.iter().enumerate() {
        ranker.unrank(rank as u32, &mut cells);
        let manhattan: u32 = [1usize, 4, 5, 7]
            .iter()
            .zip(cells)
            .map(|(&t, c)| u32::from(md[t][usize::from(c)]))
            .sum();
        let expected = manhattan + 2 * excess_at(&old.entries, rank as u32);
        assert_eq!(u32::from(v), expected, "rank {rank} {cells:?}");
    }
}

#[test]
fn the_file_is_the_same_bytes_on_one_thread_and_on_every_core() {
    let goal = Layout25::goal_with_blank(3, 4, 0).unwrap();
    let partition = Partition25::parse("4-4-3", &goal).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let groups = pool
            .install(|| solve_partition25(&goal, &partition, &|_| ()))
            .unwrap();
        let path = dir.path().join(format!("{threads}.slp"));
        write_pattern25(&path, &goal, &groups).unwrap();
        files.push(std::fs::read(&path).unwrap());
    }
    assert_eq!(files[0], files[1]);
    let file = PatternFile25::parse(&files[0]).unwrap();
    file.verify(&files[0]).unwrap();
    assert_eq!(file.groups().len(), 3);
}

/// A build keeps each group as soon as it is built; a second run takes the kept groups
/// instead of building them again, builds again a group whose copy is missing or damaged,
/// and the databases are the same bytes as one uninterrupted build's. Groups kept towards
/// another goal are not taken.
#[test]
fn kept_groups_are_taken_and_only_missing_or_damaged_ones_built_again() {
    use slidetable_format::PatternFile25;
    use slidetable_gen::engine::{pattern25_kept_dir, solve_partition25_kept};
    use std::sync::Mutex;

    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let partition = Partition25::parse("3-3-3-3-3-3-3-3", &goal).unwrap();
    let whole = PatternFile25::to_bytes(
        &goal,
        &solve_partition25(&goal, &partition, &|_| ()).unwrap(),
    )
    .unwrap();
    let folder = tempfile::tempdir().unwrap();
    let dir = pattern25_kept_dir(&folder.path().join("5x5.slp"));
    assert_eq!(dir, folder.path().join("5x5.slp.groups"));
    let run = || {
        let kept = Mutex::new(Vec::new());
        let groups = solve_partition25_kept(&goal, &partition, &dir, &|_| (), &|i| {
            kept.lock().unwrap().push(i)
        })
        .unwrap();
        (
            PatternFile25::to_bytes(&goal, &groups).unwrap(),
            kept.into_inner().unwrap(),
        )
    };
    let (first, kept) = run();
    assert!(kept.is_empty());
    assert!(first == whole);
    let piece = |i: usize| {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with(&format!("group-{i}-"))
            })
            .unwrap()
    };
    std::fs::remove_file(piece(3)).unwrap();
    let damaged = piece(5);
    let mut bytes = std::fs::read(&damaged).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    let (second, kept) = run();
    assert_eq!(kept, [0, 1, 2, 4, 6, 7]);
    assert!(second == whole);
    let (_, kept) = run();
    assert_eq!(kept, [0, 1, 2, 3, 4, 5, 6, 7]);

    // Towards another goal: nothing is taken.
    let other = Layout25::goal_with_blank(5, 5, 24).unwrap();
    let partition = Partition25::parse("3-3-3-3-3-3-3-3", &other).unwrap();
    let kept = Mutex::new(Vec::new());
    solve_partition25_kept(&other, &partition, &dir, &|_| (), &|i| {
        kept.lock().unwrap().push(i)
    })
    .unwrap();
    assert!(kept.into_inner().unwrap().is_empty());
}
