//! The 24-puzzle's pattern databases built in parts (processes as threads, meeting through
//! the table search's transport): merged, the same bytes as the one-process build, on any
//! number of parts, in either rank width; a directory of parts that are not one build's is
//! refused by `merge` with what is wrong.

use std::path::Path;
use std::thread;

use slidetable_core::Layout25;
use slidetable_format::PatternFile25;
use slidetable_gen::engine::{
    merge_pattern25_parts, pattern25_part_name, solve_partition25, solve_partition25_in_parts,
    solve_partition25_in_parts_wide,
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
