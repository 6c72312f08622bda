//! The 24-puzzle's pattern-database builder checked two independent ways: against a plain
//! 0-1 breadth-first search over (placement, blank cell) states with a deque and a hash-free
//! full rank (no regions, no incremental ranks), and against the 15-puzzle's builder on a
//! 4×4 board, whose entries are its 4-bit excess over the Manhattan distance.

use std::collections::VecDeque;
use std::path::Path;

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

/// The build to a file in one process is the build in parts with one part: it keeps each
/// group as a checkpoint beside the file (`.NAME.group-G.checkpoint`, the lines part 0 of 1
/// of a build in parts writes); a run stopped after a group goes on from the groups kept
/// into the bytes of a run never stopped, and removes the checkpoints once the file is
/// written. A checkpoint of another partition, goal or rank width, a damaged or a truncated
/// one, and an older slidetable's `PATH.groups` are refused, named; `restart` starts over.
#[test]
fn a_stopped_build_to_a_file_resumes_from_the_checkpoints_of_the_build_in_parts() {
    use slidetable_gen::engine::{
        generate_pattern25, pattern25_checkpoint_name, pattern25_file_checkpoint,
        pattern25_older_groups, solve_partition25_in_parts_with, Parts25Event, Parts25Options,
    };
    use slidetable_gen::parts::Alone;
    use std::ops::ControlFlow;

    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let text = "3-3-3-3-3-3-3-3";
    let partition = Partition25::parse(text, &goal).unwrap();
    let whole = PatternFile25::to_bytes(
        &goal,
        &solve_partition25(&goal, &partition, &|_| ()).unwrap(),
    )
    .unwrap();
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("5x5.slp");
    let checkpoint = |g: usize| pattern25_file_checkpoint(&path, g);
    assert_eq!(
        checkpoint(3),
        folder.path().join(".5x5.slp.group-3.checkpoint")
    );
    // A run of `partition` (towards `goal`, with `options`), stopped after the checkpoint of
    // group `stop` if given: its result and the groups it took.
    let run = |goal: &Layout25, partition: &Partition25, options, stop: Option<usize>| {
        let mut resumed = Vec::new();
        let done = generate_pattern25(goal, partition, &path, options, &|_| (), &mut |event| {
            match event {
                Parts25Event::Resumed { groups, .. } => resumed = groups,
                Parts25Event::Saved { group, .. } if Some(group) == stop => {
                    return ControlFlow::Break(())
                }
                _ => {}
            }
            ControlFlow::Continue(())
        });
        (done.map_err(|e| e.to_string()), resumed)
    };
    let (stopped, _) = run(&goal, &partition, Parts25Options::default(), Some(2));
    let e = stopped.unwrap_err();
    assert!(
        e.starts_with("stopped after group 2; run the same command"),
        "{e}"
    );
    assert!(!path.exists());
    assert!((0..3).all(|g| checkpoint(g).exists()) && !checkpoint(3).exists());

    // The same lines as part 0 of 1 of a build in parts writes, but for pid, saved and crc.
    let parts = tempfile::tempdir().unwrap();
    let in_parts = parts.path().join(pattern25_checkpoint_name(0, 1, 1));
    let e = solve_partition25_in_parts_with(
        &goal,
        &partition,
        parts.path(),
        Parts25Options::default(),
        &mut Alone,
        &|_| (),
        &mut |event| match event {
            Parts25Event::Saved { group: 1, .. } => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        },
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("stopped after group 1"), "{e}");
    let lines = |file: &Path| -> Vec<String> {
        let bytes = std::fs::read(file).unwrap();
        let text = String::from_utf8_lossy(&bytes[..400]).into_owned();
        text.lines()
            .take_while(|l| !l.starts_with("crc "))
            .filter(|l| !l.starts_with("pid ") && !l.starts_with("saved "))
            .map(str::to_string)
            .collect()
    };
    let ours = lines(&checkpoint(1));
    assert_eq!(ours, lines(&in_parts));
    assert_eq!(ours[0], "slidetable pattern25 parts checkpoint 1");
    assert!(ours.contains(&"part 0 of 1".to_string()), "{ours:?}");

    // Refused, naming the checkpoint and what differs, changing nothing.
    let refused = |goal: &Layout25, partition: &Partition25, options| {
        let (done, _) = run(goal, partition, options, None);
        assert!(!path.exists());
        assert!((0..3).all(|g| checkpoint(g).exists()));
        done.unwrap_err()
    };
    let first = checkpoint(0).display().to_string();
    let other = Partition25::parse("4-4-4-4-4-4", &goal).unwrap();
    let e = refused(&goal, &other, Parts25Options::default());
    assert!(
        e.starts_with(&format!(
            "{first}: it is a checkpoint of another build (its partition "
        )) && e.ends_with("run that build again to resume it, or add --restart to start over"),
        "{e}"
    );
    let corner = Layout25::goal_with_blank(5, 5, 24).unwrap();
    let e = refused(
        &corner,
        &Partition25::parse(text, &corner).unwrap(),
        Default::default(),
    );
    assert!(
        e.starts_with(&first) && e.contains("its goal 0 1 2 3"),
        "{e}"
    );
    let wide = Parts25Options {
        wide: true,
        ..Parts25Options::default()
    };
    let e = refused(&goal, &partition, wide);
    assert!(
        e.starts_with(&first) && e.contains("its ranks 32, this build's 64"),
        "{e}"
    );
    let second = checkpoint(1);
    let kept = std::fs::read(&second).unwrap();
    let mut damaged = kept.clone();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&second, &damaged).unwrap();
    assert_eq!(
        refused(&goal, &partition, Default::default()),
        format!(
            "{}: its entries are damaged (they do not match their CRC): start over with \
             --restart",
            second.display()
        )
    );
    std::fs::write(&second, &kept[..kept.len() - 10]).unwrap();
    let e = refused(&goal, &partition, Default::default());
    assert!(
        e.starts_with(&format!(
            "{}: it is {} bytes, not the {} its lines say",
            second.display(),
            kept.len() - 10,
            kept.len()
        )),
        "{e}"
    );
    std::fs::write(&second, &kept).unwrap();

    // Whole again: resumed from groups 0 to 2, into the bytes of a run never stopped.
    let (done, resumed) = run(&goal, &partition, Default::default(), None);
    assert_eq!(done.unwrap().bytes, whole.len() as u64);
    assert_eq!(resumed, [0, 1, 2]);
    assert!(std::fs::read(&path).unwrap() == whole);
    let left: Vec<_> = std::fs::read_dir(folder.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "5x5.slp")
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // An older slidetable's groups: refused, named; removed by `restart`, which starts over.
    let older = pattern25_older_groups(&path);
    assert_eq!(older, folder.path().join("5x5.slp.groups"));
    std::fs::create_dir(&older).unwrap();
    std::fs::write(older.join("identity"), "slidetable pattern groups\n").unwrap();
    std::fs::write(older.join("group-0-000000e-0123abcd.bin"), [1, 2]).unwrap();
    let (done, _) = run(&goal, &partition, Default::default(), None);
    assert_eq!(
        done.unwrap_err(),
        format!(
            "{}: an older slidetable's interrupted build kept its groups in this folder; this \
             one does not resume them: add --restart to remove it and start over",
            older.display()
        )
    );
    let restart = Parts25Options {
        restart: true,
        ..Parts25Options::default()
    };
    // A checkpoint of a build in parts in the same directory is another build's: it stays.
    let theirs = folder.path().join(pattern25_checkpoint_name(0, 2, 0));
    std::fs::write(&theirs, "slidetable pattern25 parts checkpoint 1\n").unwrap();
    let (done, resumed) = run(&goal, &partition, restart, None);
    done.unwrap();
    assert!(resumed.is_empty() && !older.exists());
    assert!(theirs.exists());
    assert!(std::fs::read(&path).unwrap() == whole);
}
