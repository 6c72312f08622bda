//! A table in parts from the command line: `generate --parts` (one process here; several
//! processes run under MPI in .ci/run), `merge` into the bytes `generate` writes, queries with
//! `--table DIR`, and every damaged directory refused with exit 1, naming the part.

use std::fs;
use std::path::Path;
use std::thread;

use crate::common;
use crate::common::{slidetable, text};
use slidetable::core::Board;
use slidetable::generate::parts::{solve_in_parts, threads, PartsPlan};

const GOAL: &str = "1 2 3 4 5 6 7 8 9 0";

/// A 2x5 table in three parts, made by three threads standing for three processes.
fn three_parts(dir: &Path, goal: &str) {
    let board = Board::new(2, 5).unwrap();
    let goal = slidetable::core::parse_layout(board, goal.as_bytes()).unwrap();
    let plan = PartsPlan {
        goal,
        dir: dir.to_path_buf(),
        restart: false,
        batch: 4096,
        checkpoints: slidetable::generate::checkpoint::Pace::Measured,
    };
    thread::scope(|s| {
        for mut end in threads::group(3) {
            let plan = &plan;
            s.spawn(move || solve_in_parts(plan, &mut end, &mut |_| {}).unwrap());
        }
    });
}

fn one_file(dir: &Path, goal: &str) -> Vec<u8> {
    let out = dir.join("one.slt");
    let run = slidetable()
        .args([
            "generate",
            "--board",
            "2x5",
            "--encoding",
            "2bit",
            "--goal",
            goal,
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    fs::read(out).unwrap()
}

#[test]
fn parts_merge_into_the_file_generate_writes_and_answer_as_it_does() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("parts");
    fs::create_dir(&dir).unwrap();
    // One process: the command itself.
    let run = slidetable()
        .args(["generate", "--board", "2x5", "--parts"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    assert!(
        out.starts_with(&format!("wrote {} (1 part and ", dir.display())),
        "{out}"
    );
    assert!(
        out.contains("board 2x5: 1 section x 1814400 states, 453600 bytes joined, max distance 55"),
        "{out}"
    );
    let expected = one_file(scratch.path(), GOAL);
    let merged = scratch.path().join("merged.slt");
    let run = slidetable()
        .arg("merge")
        .arg(&dir)
        .arg("-o")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(fs::read(&merged).unwrap(), expected);
    // Three processes (threads here), queried in place.
    let three = scratch.path().join("three");
    fs::create_dir(&three).unwrap();
    three_parts(&three, GOAL);
    let run = slidetable()
        .arg("merge")
        .arg(&three)
        .arg("-o")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(fs::read(&merged).unwrap(), expected);
    let puzzles =
        "1 2 3 4 5 6 7 8 0 9\n9 8 7 6 5 4 3 2 1 0\n2 1 3 4 5 6 7 8 9 0\n0 1 2 3 4 5 6 7 8 9\n";
    for command in ["distance", "path"] {
        let answer = |table: &Path| {
            let run = slidetable()
                .arg(command)
                .arg("--table")
                .arg(table)
                .write_stdin(puzzles)
                .output()
                .unwrap();
            assert!(run.status.success(), "{}", text(&run.stderr));
            text(&run.stdout)
        };
        assert_eq!(answer(&three), answer(&merged), "{command}");
    }
    let run = slidetable()
        .args(["info", "--verify"])
        .arg(&three)
        .output()
        .unwrap();
    assert!(
        text(&run.stdout).contains("checksum  ok"),
        "{}",
        text(&run.stdout)
    );
    let run = slidetable()
        .args(["stats", "--table"])
        .arg(&three)
        .output()
        .unwrap();
    assert!(
        run.status.success() && text(&run.stdout).contains("states   1814400"),
        "{}",
        text(&run.stdout)
    );
}

/// `info --verify DIR` after `damage`: exit 1 and a message that contains `says`.
fn refused(damage: impl Fn(&Path), says: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("t");
    fs::create_dir(&dir).unwrap();
    three_parts(&dir, GOAL);
    damage(&dir);
    for args in [&["info", "--verify"][..], &["merge", "-o", "/dev/null"][..]] {
        let mut cmd = slidetable();
        let run = match args[0] {
            "info" => cmd.args(args).arg(&dir).output().unwrap(),
            _ => cmd
                .arg("merge")
                .arg(&dir)
                .args(&args[1..])
                .output()
                .unwrap(),
        };
        assert_eq!(
            run.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&run.stderr)
        );
        let err = text(&run.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn every_damaged_directory_is_refused_naming_the_part() {
    let part = |dir: &Path, k: u32| dir.join(format!("part-{k:04}-of-0003.slp"));
    refused(
        |d| fs::remove_file(d.join("manifest")).unwrap(),
        "is a directory without a manifest",
    );
    refused(
        |d| fs::remove_file(part(d, 1)).unwrap(),
        "part-0001-of-0003.slp: is missing (part 1 of 3)",
    );
    refused(
        |d| {
            fs::copy(part(d, 1), d.join("part-0003-of-0004.slp")).unwrap();
        },
        "part-0003-of-0004.slp: is not one of the manifest's 3 parts",
    );
    refused(
        |d| {
            let bytes = fs::read(part(d, 2)).unwrap();
            fs::write(part(d, 2), &bytes[..bytes.len() - 100]).unwrap();
        },
        "part-0002-of-0003.slp: is 191496 bytes, but part 2 of 3 (ranks 1048576..1814400) is 191596 with its block checksums and footer: truncated",
    );
    refused(
        |d| {
            let mut bytes = fs::read(part(d, 0)).unwrap();
            bytes[100] ^= 0x40;
            fs::write(part(d, 0), bytes).unwrap();
        },
        "part-0000-of-0003.slp: bytes 0..65536 do not match their checksum",
    );
    refused(
        |d| {
            // The block checksums between part 1's payload and its footer.
            let mut bytes = fs::read(part(d, 1)).unwrap();
            let at = bytes.len() - 128 - 3;
            bytes[at] ^= 0x40;
            fs::write(part(d, 1), bytes).unwrap();
        },
        "part-0001-of-0003.slp: block checksums' checksum mismatch",
    );
    refused(
        |d| fs::rename(part(d, 0), part(d, 1)).unwrap(),
        "part-0000-of-0003.slp: is missing",
    );
    refused(
        |d| {
            // Part 1 of a run of another goal, in place of this run's part 1.
            let other = d.parent().unwrap().join("other");
            fs::create_dir(&other).unwrap();
            three_parts(&other, "0 1 2 3 4 5 6 7 8 9");
            fs::copy(part(&other, 1), part(d, 1)).unwrap();
        },
        "part-0001-of-0003.slp: is not the part 1 of 3 the manifest names (its footer differs",
    );
    refused(
        |d| {
            let mut bytes = fs::read(d.join("manifest")).unwrap();
            bytes[40] ^= 1;
            fs::write(d.join("manifest"), bytes).unwrap();
        },
        "manifest: manifest checksum mismatch",
    );
}

#[test]
fn parts_need_one_goal_in_two_bits() {
    let scratch = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--encoding", "byte"][..], "--parts writes 2bit entries"),
        (
            &["--goal", GOAL, "--goal", "0 1 2 3 4 5 6 7 8 9"][..],
            "one goal",
        ),
        (&["--cost", "tile"][..], "unit costs"),
    ] {
        let run = slidetable()
            .args(["generate", "--board", "2x5", "--parts"])
            .arg(scratch.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(text(&run.stderr).contains(says), "{}", text(&run.stderr));
    }
    // A missing directory is made when its parent exists (as cluster examples name a
    // directory on the shared file system, not made yet); a missing parent is refused.
    let run = slidetable()
        .args(["generate", "--board", "2x5", "--parts"])
        .arg(scratch.path().join("nowhere").join("deeper"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        text(&run.stderr),
        format!(
            "slidetable: cannot write {}: directory {} does not exist\n",
            scratch.path().join("nowhere").join("deeper").display(),
            scratch.path().join("nowhere").display()
        )
    );
    assert!(!scratch.path().join("nowhere").exists());
    for args in [
        &["--board", "2x3"][..],
        &["--board", "4x4", "--max-depth", "8"],
    ] {
        let dir = scratch.path().join(format!("made-{}", args.len()));
        let run = slidetable()
            .arg("generate")
            .args(args)
            .arg("--parts")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(run.status.success(), "{args:?}: {}", text(&run.stderr));
        assert!(dir.join("manifest").is_file(), "{args:?}");
    }
}

/// Without the mpi feature, a process that finds itself one of several of an MPI job stops
/// before any work: each would search the whole table into the same part file. (Built
/// with the feature, the binary joins the job instead: scripts/mpi.sh tests that.)
#[cfg(not(feature = "mpi"))]
#[test]
fn without_mpi_one_of_several_processes_refuses_to_start() {
    let scratch = tempfile::tempdir().unwrap();
    let run = slidetable()
        .args(["generate", "--board", "2x5", "--parts"])
        .arg(scratch.path())
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(
        text(&run.stderr).contains(
            "started as one of 2 MPI processes, but this slidetable was built without MPI"
        ),
        "{}",
        text(&run.stderr)
    );
    assert_eq!(
        fs::read_dir(scratch.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

/// The parts are mapped and checked a block at a time, as a mapped table file of format
/// version 2 is: a damaged block does not stop `info` (which reads no payload), and stops the
/// first question that reads from it, naming the part and the bytes in it. Parts written
/// before block checksums (version 1) are still read, and checked whole at open.
#[test]
fn parts_are_checked_a_block_at_a_time_and_old_parts_still_read() {
    use slidetable::core::Ranker;
    use slidetable::format::{Manifest, PartFooter};

    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("t");
    fs::create_dir(&dir).unwrap();
    three_parts(&dir, GOAL);
    let part0 = dir.join("part-0000-of-0003.slp");
    let board = Board::new(2, 5).unwrap();
    let goal = slidetable::core::parse_layout(board, GOAL.as_bytes()).unwrap();
    // A puzzle whose own entry lies in part 0's first block (ranks 0..262144).
    let ranker = Ranker::new(board).unwrap();
    let first = ranker.unrank(0, goal.class());
    let puzzle: Vec<String> = first.tiles().iter().map(u8::to_string).collect();
    let puzzle = puzzle.join(" ") + "\n";
    let intact = slidetable()
        .args(["distance", "--table"])
        .arg(&dir)
        .write_stdin(puzzle.clone())
        .output()
        .unwrap();
    assert!(intact.status.success(), "{}", text(&intact.stderr));
    let mut bytes = fs::read(&part0).unwrap();
    bytes[100] ^= 0x40;
    fs::write(&part0, &bytes).unwrap();
    let run = slidetable().arg("info").arg(&dir).output().unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    let run = slidetable()
        .args(["distance", "--table"])
        .arg(&dir)
        .write_stdin(puzzle.clone())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stdout));
    let err = text(&run.stderr);
    assert!(
        err.contains("bytes 0..65536 do not match their checksum")
            && err.contains(&format!("(file {})", part0.display())),
        "{err}"
    );
    // One part cannot be made alone: the advice is the run's (its checkpoints, or
    // --restart), not a one-file `generate`.
    let advice = "make the table again with the same `slidetable generate --parts DIR` (same \
                  board, goal and number of processes): it resumes from the run's last \
                  checkpoint if one is left in DIR, or starts over with --restart";
    assert!(err.ends_with(&format!("; {advice}\n")), "{err}");
    let run = slidetable()
        .args(["info", "--verify"])
        .arg(&dir)
        .output()
        .unwrap();
    let out = text(&run.stdout);
    assert!(
        out.contains(&format!(
            "checksum  FAILED: {}: bytes 0..65536 do not match their checksum",
            part0.display()
        )) && out.contains(advice)
            && !out.contains("generate it again"),
        "{out}"
    );
    bytes[100] ^= 0x40;
    fs::write(&part0, &bytes).unwrap();

    // The same parts as version 1 wrote them: no block checksums, the footer without their
    // checksum, the manifest recording those footers.
    let mut manifest = Manifest::parse(&fs::read(dir.join("manifest")).unwrap()).unwrap();
    for (k, record) in manifest.parts.iter_mut().enumerate() {
        let path = dir.join(format!("part-{k:04}-of-0003.slp"));
        let bytes = fs::read(&path).unwrap();
        let footer = PartFooter {
            block_sums_crc: None,
            ..PartFooter::parse(&bytes).unwrap()
        };
        let mut old = bytes[..footer.payload_len() as usize].to_vec();
        old.extend_from_slice(&footer.to_bytes());
        fs::write(&path, old).unwrap();
        record.footer_crc = footer.footer_crc();
    }
    fs::write(dir.join("manifest"), manifest.to_bytes()).unwrap();
    let run = slidetable()
        .args(["distance", "--table"])
        .arg(&dir)
        .write_stdin(puzzle.clone())
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(run.stdout, intact.stdout);
    let mut bytes = fs::read(&part0).unwrap();
    bytes[100] ^= 0x40;
    fs::write(&part0, &bytes).unwrap();
    let run = slidetable()
        .args(["distance", "--table"])
        .arg(&dir)
        .write_stdin(puzzle)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = text(&run.stderr);
    assert!(
        err.contains("part-0000-of-0003.slp: payload checksum mismatch"),
        "{err}"
    );
}

/// A process of the search in parts that the machine's memory cannot hold (its slice, its
/// frontier and its round buffers, against the memory available shared by the processes the
/// launcher put on this machine) refuses to start, naming the figures, and writes nothing.
#[test]
fn a_search_in_parts_too_large_for_the_memory_refuses_to_start() {
    let scratch = tempfile::tempdir().unwrap();
    let run = slidetable()
        .args(["generate", "--board", "3x4", "--parts"])
        .arg(scratch.path())
        .env("SLIDETABLE_AVAILABLE_MEMORY", "100000000")
        .env("OMPI_COMM_WORLD_LOCAL_SIZE", "2")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    assert_eq!(
        text(&run.stderr),
        "slidetable: a process of the 3x4 search in parts needs 110.8 MB of \
         memory (slice entries 59.9 MB, frontier 29.9 MB, program and exchange buffers \
         21.0 MB for --batch 8388608; the check asks a quarter more, 138.5 MB), but 50.0 MB \
         is available to it ($SLIDETABLE_AVAILABLE_MEMORY, shared by 2 processes on this \
         machine): run on more machines or processes, or with a smaller --batch \
         (`generate --plan` gives the figures)\n"
    );
    assert_eq!(
        fs::read_dir(scratch.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

/// One table in parts made by the command itself (one process) in `dir`.
fn one_part(dir: &Path, board: &str) {
    let run = slidetable()
        .args(["generate", "--board", board, "--parts"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
}

/// A FIFO or a device where a part or the manifest belongs is refused at once by every
/// reader, named, never read (a FIFO blocked `info`, `distance` and `merge`; /dev/zero as the
/// manifest filled memory).
#[test]
fn a_fifo_or_device_in_a_parts_directory_is_refused_at_once() {
    let part = |d: &Path| d.join("part-0002-of-0003.slp");
    /// A damage, the file it makes refused, and what the refusal says.
    type Case<'a> = (&'a dyn Fn(&Path), &'a str, &'a str);
    let cases: [Case; 3] = [
        (
            &|d| {
                fs::remove_file(part(d)).unwrap();
                common::mkfifo(&part(d));
            },
            "part-0002-of-0003.slp",
            "is a FIFO, not a regular file",
        ),
        (
            &|d| {
                fs::remove_file(d.join("manifest")).unwrap();
                common::mkfifo(&d.join("manifest"));
            },
            "manifest",
            "is a FIFO, not a regular file",
        ),
        (
            &|d| {
                fs::remove_file(d.join("manifest")).unwrap();
                std::os::unix::fs::symlink("/dev/zero", d.join("manifest")).unwrap();
            },
            "manifest",
            "is a character device, not a regular file",
        ),
    ];
    for (damage, file, says) in cases {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("t");
        fs::create_dir(&dir).unwrap();
        three_parts(&dir, GOAL);
        damage(&dir);
        let out = scratch.path().join("out.slt");
        for args in [
            vec!["info".into(), dir.clone().into_os_string()],
            vec![
                "distance".into(),
                "--table".into(),
                dir.clone().into_os_string(),
            ],
            vec![
                "merge".into(),
                dir.clone().into_os_string(),
                "-o".into(),
                out.clone().into_os_string(),
            ],
        ] {
            let run = slidetable()
                .args(&args)
                .write_stdin(format!("{GOAL}\n"))
                .timeout(std::time::Duration::from_secs(60))
                .output()
                .unwrap();
            assert_eq!(
                run.status.code(),
                Some(1),
                "{args:?}: {}",
                text(&run.stderr)
            );
            let err = text(&run.stderr);
            assert!(
                err.contains(&format!("{}: {says}", dir.join(file).display())),
                "{args:?}: {err}"
            );
        }
    }
}

/// `merge -o` never writes over a file of the table it merges (the manifest, a part, or a
/// name the directory's table would read), which would leave the directory unreadable; the
/// directory still answers afterwards.
#[test]
fn merge_refuses_to_write_over_the_table_it_merges() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("t");
    fs::create_dir(&dir).unwrap();
    one_part(&dir, "2x3");
    let before: Vec<Vec<u8>> = ["manifest", "part-0000-of-0001.slp"]
        .iter()
        .map(|n| fs::read(dir.join(n)).unwrap())
        .collect();
    let link = scratch.path().join("link.slt");
    std::os::unix::fs::symlink(dir.join("manifest"), &link).unwrap();
    for output in [
        dir.join("manifest"),
        dir.join("part-0000-of-0001.slp"),
        dir.join("part-0000-of-0002.slp"),
        dir.join(".").join("manifest"),
        link,
    ] {
        let run = slidetable()
            .arg("merge")
            .arg(&dir)
            .arg("-o")
            .arg(&output)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", output.display());
        assert_eq!(
            text(&run.stderr),
            format!(
                "slidetable: refusing to write {}: it is a file of the table being merged from \
                 {} (name a file outside it)\n",
                output.display(),
                dir.display()
            )
        );
    }
    let after: Vec<Vec<u8>> = ["manifest", "part-0000-of-0001.slp"]
        .iter()
        .map(|n| fs::read(dir.join(n)).unwrap())
        .collect();
    assert!(before == after, "the table changed");
    assert!(!dir.join("part-0000-of-0002.slp").exists());
    let run = slidetable()
        .arg("merge")
        .arg(&dir)
        .arg("-o")
        .arg(scratch.path().join("whole.slt"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(
        text(&run.stdout).lines().nth(1),
        Some("board 2x3: 1 section x 360 states, 398 bytes")
    );
}

/// What a user names wrongly is told what to name instead: the manifest given as the table
/// (its directory), a file given as --parts (a directory).
#[test]
fn a_manifest_as_the_table_and_a_file_as_parts_say_what_to_name() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("t");
    fs::create_dir(&dir).unwrap();
    one_part(&dir, "2x3");
    let run = slidetable()
        .args(["distance", "--table"])
        .arg(dir.join("manifest"))
        .write_stdin("1 2 3 4 5 0\n")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        text(&run.stderr),
        format!(
            "slidetable: table {}: is the manifest of a table in parts: name its directory ({}) \
             instead\n",
            dir.join("manifest").display(),
            dir.display()
        )
    );
    let file = scratch.path().join("3x3.slt");
    fs::write(&file, b"a file").unwrap();
    let run = slidetable()
        .args(["generate", "--board", "2x3", "--parts"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        text(&run.stderr),
        format!(
            "slidetable: {}: is a file, not a directory: --parts names the directory of the \
             parts and the manifest\n",
            file.display()
        )
    );
    assert_eq!(fs::read(&file).unwrap(), b"a file");
}
