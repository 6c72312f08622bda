//! The 24-puzzle's pattern databases built in parts (processes as threads, meeting through
//! the table search's transport): merged, the same bytes as the one-process build, on any
//! number of parts, in either rank width; a directory of parts that are not one build's is
//! refused by `merge` with what is wrong.

use std::ops::ControlFlow;
use std::path::Path;
use std::thread;

use slidetable_core::Layout25;
use slidetable_format::PatternFile25;
use slidetable_gen::engine::{
    merge_pattern25_parts, pattern25_checkpoint_name, pattern25_part_name, solve_partition25,
    solve_partition25_in_parts, solve_partition25_in_parts_wide, solve_partition25_in_parts_with,
    Parts25Done, Parts25Event, Parts25Options,
};
use slidetable_gen::parts::threads;
use slidetable_gen::Partition25;

/// The one-process build's file.
fn one_process(goal: &Layout25, partition: &Partition25) -> Vec<u8> {
    PatternFile25::to_bytes(goal, &solve_partition25(goal, partition, &|_| ()).unwrap()).unwrap()
}

/// Builds `partition` in `parts` parts into `dir` (in 64-bit ranks when `wide`), merges them
/// and returns the merged file.
fn in_parts(
    goal: &Layout25,
    partition: &Partition25,
    parts: u32,
    dir: &Path,
    wide: bool,
) -> Vec<u8> {
    thread::scope(|s| {
        for mut end in threads::group(parts) {
            s.spawn(move || {
                let build = if wide {
                    solve_partition25_in_parts_wide
                } else {
                    solve_partition25_in_parts
                };
                build(goal, partition, dir, &mut end, &|_| ()).unwrap()
            });
        }
    });
    let out = dir.join("merged.slp");
    let merged = merge_pattern25_parts(dir, &out).unwrap();
    assert_eq!(merged.parts, parts);
    std::fs::read(out).unwrap()
}

#[test]
fn parts_merge_into_the_one_process_file_on_any_number_of_parts() {
    for (rows, cols, text, counts) in [
        (3, 4, "4-4-3", &[1u32, 2, 3, 5][..]),
        (2, 4, "3-4", &[2][..]),
        (5, 5, "4-4-4-4-4-4", &[1, 3][..]),
    ] {
        let goal = Layout25::goal_with_blank(rows, cols, 0).unwrap();
        let partition = Partition25::parse(text, &goal).unwrap();
        let expected = one_process(&goal, &partition);
        for &parts in counts {
            let dir = tempfile::tempdir().unwrap();
            let merged = in_parts(&goal, &partition, parts, dir.path(), false);
            assert!(merged == expected, "{rows}x{cols} {text} on {parts} parts");
        }
    }
}

/// 5-5-5-5-4 on 2 parts: groups of 6,375,600 placements, whose levels are expanded in many
/// windows, each followed by a swap.
#[test]
fn five_fives_on_two_parts_swap_many_windows_and_merge_into_the_same_bytes() {
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let partition = Partition25::parse("5-5-5-5-4", &goal).unwrap();
    let expected = one_process(&goal, &partition);
    let dir = tempfile::tempdir().unwrap();
    assert!(in_parts(&goal, &partition, 2, dir.path(), false) == expected);
}

/// In 64-bit ranks (what 8 tiles and more of 25 cells take), in parts: the same file.
#[test]
fn parts_in_wide_ranks_merge_into_the_one_process_file() {
    let goal = Layout25::goal_with_blank(3, 4, 0).unwrap();
    let partition = Partition25::parse("4-4-3", &goal).unwrap();
    let expected = one_process(&goal, &partition);
    for parts in [1, 3] {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            in_parts(&goal, &partition, parts, dir.path(), true) == expected,
            "{parts}"
        );
    }
}

#[test]
fn merge_refuses_parts_that_are_not_one_whole_build() {
    let goal = Layout25::goal_with_blank(3, 3, 0).unwrap();
    let partition = Partition25::parse("4-4", &goal).unwrap();
    let dir = tempfile::tempdir().unwrap();
    in_parts(&goal, &partition, 3, dir.path(), false);
    let out = dir.path().join("out.slp");
    let message = |dir: &Path| merge_pattern25_parts(dir, &out).unwrap_err().to_string();
    let d = dir.path().display();

    // A missing part.
    let second = dir.path().join(pattern25_part_name(1, 3));
    let kept = std::fs::read(&second).unwrap();
    std::fs::remove_file(&second).unwrap();
    assert_eq!(
        message(dir.path()),
        format!(
            "{d}: part 1 of 3 is missing (pattern-part-1-of-3.slp): the build did not \
             finish; run it again"
        )
    );
    // A damaged one.
    let mut damaged = kept.clone();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&second, &damaged).unwrap();
    assert!(
        message(dir.path()).contains("pattern-part-1-of-3.slp: payload checksum mismatch"),
        "{}",
        message(dir.path())
    );
    // Another part's bytes under its name.
    std::fs::write(
        &second,
        std::fs::read(dir.path().join(pattern25_part_name(2, 3))).unwrap(),
    )
    .unwrap();
    assert!(
        message(dir.path())
            .contains("its header says Part { part: 2, parts: 3 }, its name part 1 of 3"),
        "{}",
        message(dir.path())
    );
    std::fs::write(&second, &kept).unwrap();
    // Parts of two builds.
    std::fs::write(dir.path().join(pattern25_part_name(0, 2)), &kept).unwrap();
    assert!(message(dir.path()).contains("holds parts of 2 and of 3 processes"));
    std::fs::remove_file(dir.path().join(pattern25_part_name(0, 2))).unwrap();
    // None at all.
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(
        merge_pattern25_parts(empty.path(), &out)
            .unwrap_err()
            .to_string(),
        format!(
            "{}: holds no part of pattern databases",
            empty.path().display()
        )
    );
    // Whole again: merged.
    merge_pattern25_parts(dir.path(), &out).unwrap();
}

/// Builds `text` on a 3x4 board in `parts` parts into `dir` with `options`, every process
/// asking to stop after its checkpoint of group `stop` (if given): each process's result,
/// with the groups it was told were resumed.
fn run_in_parts(
    text: &str,
    parts: u32,
    dir: &Path,
    options: Parts25Options,
    stop: Option<usize>,
) -> Vec<(Result<Parts25Done, String>, Vec<usize>)> {
    let goal = Layout25::goal_with_blank(3, 4, 0).unwrap();
    let partition = Partition25::parse(text, &goal).unwrap();
    thread::scope(|s| {
        let handles: Vec<_> = threads::group(parts)
            .into_iter()
            .map(|mut end| {
                let (goal, partition) = (&goal, &partition);
                s.spawn(move || {
                    let mut resumed = Vec::new();
                    let done = solve_partition25_in_parts_with(
                        goal,
                        partition,
                        dir,
                        options,
                        &mut end,
                        &|_| (),
                        &mut |event| match event {
                            Parts25Event::Resumed { groups, .. } => {
                                resumed = groups;
                                ControlFlow::Continue(())
                            }
                            Parts25Event::Saved { group, .. } if Some(group) == stop => {
                                ControlFlow::Break(())
                            }
                            _ => ControlFlow::Continue(()),
                        },
                    );
                    (done.map_err(|e| e.to_string()), resumed)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The checkpoint files in `dir`, sorted.
fn checkpoints(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".checkpoint"))
        .collect();
    names.sort();
    names
}

/// The merged file of the parts in `dir`.
fn merged(dir: &Path) -> Vec<u8> {
    let out = dir.join("merged.slp");
    merge_pattern25_parts(dir, &out).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(out).unwrap();
    bytes
}

/// A build in parts stopped after any group's checkpoint, on 1, 2 and 3 processes, run
/// again: it takes the groups every part kept, builds the rest, and its parts merge into the
/// one-process file, byte for byte; the checkpoints are gone once the parts are written.
#[test]
fn a_build_in_parts_stopped_after_a_group_resumes_into_the_same_bytes() {
    let goal = Layout25::goal_with_blank(3, 4, 0).unwrap();
    let partition = Partition25::parse("4-4-3", &goal).unwrap();
    let expected = one_process(&goal, &partition);
    for parts in [1, 2, 3] {
        for stop in [0, 1] {
            let dir = tempfile::tempdir().unwrap();
            let stopped = run_in_parts("4-4-3", parts, dir.path(), Default::default(), Some(stop));
            for (done, _) in &stopped {
                let e = done.as_ref().unwrap_err();
                assert!(
                    e.starts_with(&format!("stopped after group {stop}; run the same command")),
                    "{e}"
                );
            }
            assert_eq!(
                checkpoints(dir.path()).len(),
                (stop + 1) * parts as usize,
                "{parts} parts, stopped after group {stop}"
            );
            let resumed = run_in_parts("4-4-3", parts, dir.path(), Default::default(), None);
            for (done, groups) in resumed {
                done.unwrap();
                assert_eq!(groups, (0..=stop).collect::<Vec<_>>(), "{parts} parts");
            }
            assert!(merged(dir.path()) == expected, "{parts} parts, stop {stop}");
            assert!(checkpoints(dir.path()).is_empty());
        }
    }
}

/// A group some process has no checkpoint of (it was stopped before writing it) is built
/// again by every process; the others are taken.
#[test]
fn a_group_not_every_part_kept_is_built_again() {
    let goal = Layout25::goal_with_blank(3, 4, 0).unwrap();
    let partition = Partition25::parse("4-4-3", &goal).unwrap();
    let expected = one_process(&goal, &partition);
    let dir = tempfile::tempdir().unwrap();
    run_in_parts("4-4-3", 2, dir.path(), Default::default(), Some(1));
    std::fs::remove_file(dir.path().join(pattern25_checkpoint_name(1, 2, 1))).unwrap();
    for (done, groups) in run_in_parts("4-4-3", 2, dir.path(), Default::default(), None) {
        done.unwrap();
        assert_eq!(groups, vec![0]);
    }
    assert!(merged(dir.path()) == expected);
}

/// Checkpoints of another number of processes, partition, rank width or board, or a damaged
/// or truncated one, are refused by every process together (each told the same, naming the
/// file and what is wrong), and change nothing; --restart starts over.
#[test]
fn checkpoints_of_another_build_or_damaged_ones_are_refused_by_every_process() {
    let goal = Layout25::goal_with_blank(3, 4, 0).unwrap();
    let partition = Partition25::parse("4-4-3", &goal).unwrap();
    let expected = one_process(&goal, &partition);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in_parts("4-4-3", 2, d, Default::default(), Some(1));
    let before = checkpoints(d);
    let refused = |text: &str, parts: u32, options: Parts25Options| -> String {
        let results = run_in_parts(text, parts, d, options, None);
        let first = results[0].0.as_ref().unwrap_err().clone();
        for (done, _) in &results {
            assert_eq!(done.as_ref().unwrap_err(), &first);
        }
        assert_eq!(checkpoints(d), before, "{first}");
        first
    };
    // Another number of processes.
    for parts in [1, 3] {
        let e = refused("4-4-3", parts, Default::default());
        assert_eq!(
            e,
            format!(
                "{}: it holds an interrupted run in 2 parts \
                 (pattern-part-0-of-2.group-0.checkpoint and the others), and this run has \
                 {parts}: rerun it on 2 processes to resume it, or add --restart to remove its \
                 checkpoints and start over in {parts}",
                d.display()
            )
        );
    }
    // Another partition (the same sizes, other tiles).
    let e = refused("4,5,6,7/1,2,3,8/9,10,11", 2, Default::default());
    assert!(
        e.contains("pattern-part-0-of-2.group-0.checkpoint: it is a checkpoint of another build")
            && e.contains("its partition 0x1e,0x1e0,0xe00, this build's 0xf0,0x10e,0xe00"),
        "{e}"
    );
    // Another rank width.
    let wide = Parts25Options {
        wide: true,
        ..Default::default()
    };
    let e = refused("4-4-3", 2, wide);
    assert!(
        e.contains("its ranks 32, this build's 64") && e.contains("add --restart"),
        "{e}"
    );
    // Part 1's checkpoint damaged, then truncated: every process refuses, naming it.
    let second = d.join(pattern25_checkpoint_name(1, 2, 1));
    let kept = std::fs::read(&second).unwrap();
    let mut damaged = kept.clone();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&second, &damaged).unwrap();
    let e = refused("4-4-3", 2, Default::default());
    assert_eq!(
        e,
        format!(
            "{}: its entries are damaged (they do not match their CRC): start over with \
             --restart",
            second.display()
        )
    );
    std::fs::write(&second, &kept[..kept.len() - 10]).unwrap();
    let e = refused("4-4-3", 2, Default::default());
    assert!(
        e.starts_with(&format!(
            "{}: it is {} bytes, not the {} its lines say",
            second.display(),
            kept.len() - 10,
            kept.len()
        )),
        "{e}"
    );
    let mut lines = kept.clone();
    lines[3] ^= 1;
    std::fs::write(&second, &lines).unwrap();
    let e = refused("4-4-3", 2, Default::default());
    assert!(
        e.contains("it is damaged (its lines do not match their CRC)"),
        "{e}"
    );
    // --restart on 3 processes: the 2 parts' checkpoints go, the build starts over.
    let restart = Parts25Options {
        restart: true,
        ..Default::default()
    };
    for (done, groups) in run_in_parts("4-4-3", 3, d, restart, None) {
        done.unwrap();
        assert!(groups.is_empty());
    }
    assert!(checkpoints(d).is_empty());
    assert!(merged(d) == expected);
}
