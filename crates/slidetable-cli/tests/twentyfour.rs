//! The 24-puzzle from the command line (`--board 5x5`): `generate` of a small partition
//! (groups of three tiles: instant, so CI runs it), `path`, `distance` and `search` on it,
//! every path replayed, the limits' `unknown` with the bound proved, and the refusals.

use std::path::PathBuf;
use std::sync::OnceLock;

use slidetable::core::{parse_path, Layout25};

use crate::common::{slidetable, text, BAD_INPUT, USAGE};

/// Eight groups of three tiles in goal order, made once.
fn database() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = crate::common::dir().join("5x5-3x8.slp");
        let out = slidetable()
            .args(["generate", "--board", "5x5", "--pdb", "3-3-3-3-3-3-3-3", "-o"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines[0], format!("wrote {}", path.display()));
        assert_eq!(
            lines[1],
            "board 5x5: pattern database 3-3-3-3-3-3-3-3 (8 groups, 110400 placements), goal 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24, 111984 bytes"
        );
        path
    })
}

/// `generate --board 5x5 --pdb 5-5-5-5-4 -o FILE` run to its end once: what a stopped and
/// resumed build is compared with.
fn whole_55554() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = crate::common::dir().join("5x5-55554.slp");
        let out = slidetable()
            .args(["generate", "--board", "5x5", "--pdb", "5-5-5-5-4", "-o"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        path
    })
}

/// `generate --board 5x5 --pdb PDB` (its output and the rest to add).
fn generate_5x5(pdb: &str) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_slidetable"));
    command.args(["generate", "--board", "5x5", "--pdb", pdb]);
    command
}

/// `command` started, and sent `signal` (`-KILL`, `-INT`) once `ready` is there (polled, for
/// at most two minutes; it must not end first): how it ended, and its standard error.
fn stopped_once(
    mut command: std::process::Command,
    ready: &std::path::Path,
    signal: &str,
) -> std::process::Output {
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !ready.exists() {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "ended ({}) before {} was there: {}",
                out.status,
                ready.display(),
                text(&out.stderr)
            );
        }
        assert!(
            started.elapsed().as_secs() < 120,
            "no {} after two minutes",
            ready.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let sent = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

/// The goal, a move away, and three scrambles whose distance is their Manhattan distance
/// (5, 8 and 12: no path is shorter than it, and the path found is replayed), so the lengths
/// are known without the databases.
const PUZZLES: &str = "# the goal, a move away, and three scrambles
0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
5 1 2 3 4 6 11 7 8 9 10 16 12 13 14 0 15 17 18 19 20 21 22 23 24
1 2 7 3 4 5 6 8 13 9 10 11 12 14 19 15 16 17 18 24 20 21 22 23 x
1 2 3 4 9 5 6 7 8 14 10 11 12 13 19 15 16 17 18 24 0 20 21 22 23
";

#[test]
fn path_and_distance_answer_and_every_path_replays() {
    let table = database();
    let run = |command: &str| {
        let out = slidetable()
            .args([command, "--board", "5x5", "--table"])
            .arg(table)
            .write_stdin(PUZZLES)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let paths = run("path");
    let distances = run("distance");
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let puzzles: Vec<&str> = PUZZLES.lines().skip(1).collect();
    assert_eq!(paths.lines().count(), 5);
    for ((puzzle, path), distance) in puzzles.iter().zip(paths.lines()).zip(distances.lines()) {
        let start = Layout25::parse(5, 5, puzzle).unwrap();
        let moves = parse_path(path).unwrap();
        assert_eq!(start.after(&moves), Some(goal), "{puzzle}: {path}");
        assert_eq!(distance, moves.len().to_string());
    }
    let d: Vec<&str> = distances.lines().collect();
    assert_eq!(&d[..2], ["0", "1"]);
    assert_eq!(&d[2..], ["5", "8", "12"]);
}

#[test]
fn search_reports_its_figures_and_a_limit_says_what_it_proved() {
    let table = database();
    let out = slidetable()
        .args([
            "search", "--method", "idastar", "--board", "5x5", "--stats", "--json", "--table",
        ])
        .arg(table)
        .write_stdin("1 2 7 3 4 5 6 8 13 9 10 11 12 14 19 15 16 17 18 24 20 21 22 23 0\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["distance"], 8);
    assert_eq!(record["partition"], "3-3-3-3-3-3-3-3");
    assert!(record["stats"]["expanded"].as_u64().unwrap() >= 8);
    // The figures are in the record, as on every board: stderr has only the summary.
    let summary: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(summary["summary"]["solved"], 1, "{}", text(&out.stderr));
    let out = slidetable()
        .args([
            "search", "--method", "idastar", "--board", "5x5", "--stats", "--table",
        ])
        .arg(table)
        .write_stdin("1 2 7 3 4 5 6 8 13 9 10 11 12 14 19 15 16 17 18 24 20 21 22 23 0\n")
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).starts_with("<stdin>: line 1: idastar/pdb-3-3-3-3-3-3-3-3: 8 moves, ")
    );

    // Korf and Felner's instance 1 (95 moves) is out of reach of these small groups.
    let out = slidetable()
        .args([
            "path",
            "--board",
            "5x5",
            "--max-expanded",
            "100000",
            "--table",
        ])
        .arg(table)
        .write_stdin("14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "unknown\n");
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "slidetable: <stdin>: line 1: search stopped at its limit of 100000 expanded states after "
        ) && err.contains("; no solution is shorter than "),
        "{err}"
    );
}

/// `--max-expanded N` stops within N/16 states past N (at least one a core), as its help
/// says: the top of the tree, expanded before the cores share it, looks at the limit at
/// every node, and the cores as often as N needs. It was 6945 for N = 1000.
#[test]
fn max_expanded_stops_close_to_its_limit() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    for n in [100u64, 1000, 10_000, 100_000] {
        let out = slidetable()
            .args([
                "search",
                "--method",
                "idastar",
                "--board",
                "5x5",
                "--json",
                "--stats",
                "--max-expanded",
            ])
            .arg(n.to_string())
            .arg("--table")
            .arg(database())
            .write_stdin("14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let expanded = record["stats"]["expanded"].as_u64().unwrap();
        assert!(
            expanded > n && expanded <= n + (n / 16).max(cores),
            "--max-expanded {n}: {expanded} expanded"
        );
    }
}

#[test]
fn bad_lines_other_parity_and_other_commands_are_named() {
    let table = database();
    let out = slidetable()
        .args(["distance", "--board", "5x5", "--table"])
        .arg(table)
        .write_stdin("2 1 0 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n1 2 3\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(BAD_INPUT));
    // `distance` says -1 for a puzzle that cannot reach the goal, as on every board.
    assert_eq!(text(&out.stdout), "-1\n");
    assert_eq!(
        text(&out.stderr),
        "slidetable: <stdin>: line 2: expected 25 tiles, found 3\n"
    );

    let out = slidetable()
        .args(["stats", "--board", "5x5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    assert!(text(&out.stderr).contains("`stats` takes boards of up to 16 cells"));

    let out = slidetable()
        .args([
            "generate", "--board", "5x5", "--pdb", "14-10", "-o", "x.slp",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    assert!(text(&out.stderr).contains("a group of 14 tiles has 388588515194880000 placements"));

    // A build the memory cannot hold is refused before it starts, with both figures and
    // the build in parts.
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", "100000000")
        .args(["generate", "--board", "5x5", "-o", "x.slp"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "slidetable: the 6-6-6-6 pattern databases of 5x5 need 1.1 GB of memory, but 100.0 MB is available ($SLIDETABLE_AVAILABLE_MEMORY); smaller groups need less (5-5-5-5-4: 52.6 MB), and a build in parts less a process (--parts DIR on several machines; --plan --processes N gives a process's figures)\n"
    );
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", "8000000000")
        .args([
            "generate", "--board", "5x5", "--pdb", "8-8-8", "-o", "x.slp",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("slidetable: the 8-8-8 pattern databases of 5x5 need 316.2 GB of memory, but 8.0 GB is available"),
        "{}",
        text(&out.stderr)
    );

    let out = slidetable()
        .args(["path", "--board", "5x5"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    assert!(text(&out.stderr).contains("make it with `slidetable generate --board 5x5`"));
}

/// A 24-puzzle database named where a table is read (`distance` without `--board 5x5`) is
/// named for what it is, with the command that reads it, not taken for a damaged table to
/// generate again.
#[test]
fn a_24_puzzle_database_given_as_a_table_is_named_for_what_it_is() {
    let table = database();
    {
        let args = ["distance", "--table"];
        let out = slidetable()
            .args(args)
            .arg(table)
            .write_stdin("1 2 3 4 5 6 7 8 0\n")
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            err.contains("this is a 24-puzzle pattern database (SLIDEP25), not a table")
                && err.contains("--board 5x5 --table FILE")
                && !err.contains("generate it again"),
            "{args:?}: {err}"
        );
    }
}

/// `info` describes a 24-puzzle database as it describes a 15-puzzle one: board, partition,
/// goal, reflection, each group's tiles, placements, bytes and histogram, the checksum on
/// request; `--json` by its schema in docs/JSON.md; damage found by `--verify` is exit 1.
#[test]
fn info_describes_a_24_puzzle_database() {
    let table = database();
    let out = slidetable().arg("info").arg(table).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("table     {}", table.display()));
    assert_eq!(lines[1], "board     5x5");
    assert_eq!(
        lines[2],
        "encoding  pattern25 (pattern database 3-3-3-3-3-3-3-3: one byte per placement, the moves of the group's tiles)"
    );
    assert!(lines[3].starts_with("goal      0 1 2 3 4 "), "{stdout}");
    assert!(lines[4].starts_with("reflected yes "), "{stdout}");
    assert_eq!(lines[5], "size      111984 bytes");
    assert_eq!(lines[6], "checksum  not checked (use --verify)");
    assert_eq!(lines[7], "groups    8");
    assert_eq!(lines[9], "group 0: tiles 1 2 3");
    assert_eq!(lines[10], "  placements    13800");
    assert_eq!(lines[11], "  bytes         13800");
    assert!(lines[12].starts_with("  max value     "), "{stdout}");
    assert!(lines[13].starts_with("  histogram     1 "), "{stdout}");

    let out = slidetable()
        .args(["info", "--json", "--verify"])
        .arg(table)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let schemas = slidetable_testkit::schema::schemas();
    slidetable_testkit::schema::check(&v, &schemas["info-patterns25"], "info-patterns25").unwrap();
    assert_eq!(v["partition"], "3-3-3-3-3-3-3-3");
    assert_eq!(v["checksum_ok"], true);
    assert_eq!(v["reflected"], true);
    assert_eq!(v["groups"][7]["tiles"], serde_json::json!([22, 23, 24]));
    assert_eq!(v["groups"][7]["bytes"], 13800);
    let sum: u64 = v["groups"][0]["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(sum, 13800);

    // An entry changed: the header still reads, the checksum fails.
    let damaged = crate::common::dir().join("5x5-3x8-damaged.slp");
    let mut bytes = std::fs::read(table).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    let out = slidetable().arg("info").arg(&damaged).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = slidetable()
        .args(["info", "--verify"])
        .arg(&damaged)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("checksum  FAILED: "));
}

/// `generate --board 5x5` goes on from the groups a stopped run kept as checkpoints beside
/// the file (`.NAME.group-G.checkpoint`, the build in parts' with one part): it says which it
/// took, builds the others, writes the same bytes as a whole run, and removes the
/// checkpoints once the file is written.
#[test]
fn a_stopped_build_goes_on_from_the_groups_it_kept() {
    use slidetable::core::Layout25;
    use slidetable::generate::engine::{generate_pattern25, pattern25_file_checkpoint};
    use slidetable::generate::engine::{Parts25Event, Parts25Options};
    use slidetable::generate::Partition25;
    use std::ops::ControlFlow;

    let whole = std::fs::read(database()).unwrap();
    let path = crate::common::dir().join("5x5-3x8-resumed.slp");
    let checkpoint = |g: usize| pattern25_file_checkpoint(&path, g);
    for g in 0..8 {
        let _ = std::fs::remove_file(checkpoint(g));
    }
    // A run that kept groups 0 to 5 and stopped before the file.
    let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
    let partition = Partition25::parse("3-3-3-3-3-3-3-3", &goal).unwrap();
    let stopped = generate_pattern25(
        &goal,
        &partition,
        &path,
        Parts25Options::default(),
        &|_| (),
        &mut |event| match event {
            Parts25Event::Saved { group: 5, .. } => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        },
    );
    assert!(stopped.is_err());
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "3-3-3-3-3-3-3-3",
            "-o",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "resuming: took groups 0, 1, 2, 3, 4, 5 from {} and the others instead of building them again\n",
            checkpoint(0).display()
        )
    );
    assert!(std::fs::read(&path).unwrap() == whole);
    assert!((0..8).all(|g| !checkpoint(g).exists()));
}

/// `generate --board 5x5 -o FILE` killed (SIGKILL) once its first group's checkpoint is
/// written: a run of another partition or rank width, or over a damaged or truncated
/// checkpoint, is refused (exit 1, naming the checkpoint and what differs), and the same
/// command resumes from the groups kept into the bytes of a run never stopped, leaving no
/// checkpoint. Stopped by Ctrl-C, `--restart` starts over; an older slidetable's
/// `FILE.groups` is refused, and removed by `--restart`.
#[test]
fn a_killed_one_process_build_resumes_from_its_checkpoints_into_the_same_bytes() {
    use slidetable::generate::engine::{pattern25_file_checkpoint, pattern25_older_groups};

    let dir = tempfile::tempdir().unwrap();
    let one = whole_55554();
    let file = dir.path().join("stopped.slp");
    let generate = generate_5x5;
    let first = pattern25_file_checkpoint(&file, 0);
    assert_eq!(first, dir.path().join(".stopped.slp.group-0.checkpoint"));
    // Started, and stopped by `signal` once group 0's checkpoint is in place.
    let stop = |signal: &str| {
        let mut command = generate("5-5-5-5-4");
        command.arg("-o").arg(&file);
        let output = stopped_once(command, &first, signal);
        assert!(!output.status.success());
        assert!(!file.exists());
    };
    stop("-KILL");
    let refused = |pdb: &str, wide: bool| {
        let mut command = generate(pdb);
        if wide {
            command.env("SLIDETABLE_WIDE_RANKS", "1");
        }
        let out = command.arg("-o").arg(&file).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert!(first.exists() && !file.exists());
        text(&out.stderr)
    };
    let e = refused("4-4-4-4-4-4", false);
    assert!(
        e.starts_with(&format!(
            "slidetable: {}: it is a checkpoint of another build (its partition ",
            first.display()
        )) && e.ends_with("run that build again to resume it, or add --restart to start over\n"),
        "{e}"
    );
    let e = refused("5-5-5-5-4", true);
    assert!(
        e.starts_with(&format!("slidetable: {}: ", first.display()))
            && e.contains("its ranks 32, this build's 64"),
        "{e}"
    );
    let kept = std::fs::read(&first).unwrap();
    let mut damaged = kept.clone();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&first, &damaged).unwrap();
    assert_eq!(
        refused("5-5-5-5-4", false),
        format!(
            "slidetable: {}: its entries are damaged (they do not match their CRC): start over \
             with --restart\n",
            first.display()
        )
    );
    std::fs::write(&first, &kept[..kept.len() - 10]).unwrap();
    let e = refused("5-5-5-5-4", false);
    assert!(
        e.starts_with(&format!(
            "slidetable: {}: it is {} bytes, not the {} its lines say",
            first.display(),
            kept.len() - 10,
            kept.len()
        )),
        "{e}"
    );
    std::fs::write(&first, &kept).unwrap();
    let out = generate("5-5-5-5-4").arg("-o").arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Killed once group 0 was kept, maybe later: the groups kept are 0 and perhaps more.
    let e = text(&out.stderr);
    assert!(
        e.starts_with("resuming: took group 0") && e.contains(&format!("from {}", first.display())),
        "{e}"
    );
    assert!(std::fs::read(&file).unwrap() == std::fs::read(one).unwrap());
    let left = |dir: &std::path::Path| -> Vec<std::ffi::OsString> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .filter(|n| n != "stopped.slp")
            .collect();
        names.sort();
        names
    };
    assert!(left(dir.path()).is_empty(), "{:?}", left(dir.path()));

    // Ctrl-C: the checkpoints stay; --restart removes them and starts over.
    std::fs::remove_file(&file).unwrap();
    stop("-INT");
    assert!(first.exists());
    let out = generate("5-5-5-5-4")
        .arg("-o")
        .arg(&file)
        .arg("--restart")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let e = text(&out.stderr);
    assert!(
        e.starts_with("--restart: removed the interrupted build's checkpoints (")
            && !e.contains("resuming"),
        "{e}"
    );
    assert!(std::fs::read(&file).unwrap() == std::fs::read(one).unwrap());
    assert!(left(dir.path()).is_empty(), "{:?}", left(dir.path()));

    // An older slidetable's folder of groups: refused, named; --restart removes it.
    let older = pattern25_older_groups(&file);
    std::fs::create_dir(&older).unwrap();
    std::fs::write(
        older.join("identity"),
        "slidetable pattern groups, goal 0 1 2\n",
    )
    .unwrap();
    let out = generate("5-5-5-5-4").arg("-o").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "slidetable: {}: an older slidetable's interrupted build kept its groups in this \
             folder; this one does not resume them: add --restart to remove it and start over\n",
            older.display()
        )
    );
    let out = generate("5-5-5-5-4")
        .arg("-o")
        .arg(&file)
        .arg("--restart")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "--restart: removed the interrupted build's checkpoints (1 file)\n"
    );
    assert!(left(dir.path()).is_empty(), "{:?}", left(dir.path()));
}

/// Ctrl-C (SIGINT) to `generate --board 5x5 -o FILE` says what is kept and how to go on, as
/// the table searches do, and the process dies of the signal: before any group is built,
/// that nothing is kept (no checkpoint is left); once groups are kept, which, in which
/// checkpoints (those on disk), that the same command resumes from them and that
/// `--restart` starts over. The same command then resumes into the bytes of a build never
/// stopped, leaving no checkpoint.
#[test]
fn ctrl_c_to_a_5x5_build_says_which_groups_are_kept_and_how_to_resume() {
    use slidetable::generate::engine::pattern25_file_checkpoint;
    use std::os::unix::process::ExitStatusExt;

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stopped.slp");
    let checkpoints = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "stopped.slp")
            .collect();
        names.sort();
        names
    };
    // Before any group: a run holding its lock has told what it keeps, and 6-6-6-6's first
    // group takes seconds to build.
    let lock = dir.path().join(".stopped.slp.checkpoint.lock");
    let mut command = generate_5x5("6-6-6-6");
    command.arg("-o").arg(&file);
    let out = stopped_once(command, &lock, "-INT");
    assert_eq!(out.status.signal(), Some(2), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "slidetable: interrupted before the build's first checkpoint: nothing is kept (a build \
         keeps each group as a checkpoint as soon as it is built)\n"
    );
    assert!(!file.exists());
    assert_eq!(checkpoints(), Vec::<String>::new());

    // Once group 0 is kept (and maybe more, by the time the signal comes).
    let first = pattern25_file_checkpoint(&file, 0);
    let mut command = generate_5x5("5-5-5-5-4");
    command.arg("-o").arg(&file);
    let out = stopped_once(command, &first, "-INT");
    assert_eq!(out.status.signal(), Some(2), "{}", text(&out.stderr));
    assert!(!file.exists());
    let kept: Vec<usize> = (0..5)
        .filter(|&g| pattern25_file_checkpoint(&file, g).exists())
        .collect();
    assert!(kept.starts_with(&[0]), "{kept:?}");
    let names: Vec<String> = kept
        .iter()
        .map(|&g| format!(".stopped.slp.group-{g}.checkpoint"))
        .collect();
    assert_eq!(checkpoints(), names, "only the checkpoints, whole");
    let list = |each: &dyn Fn(usize) -> String| {
        kept.iter().map(|&g| each(g)).collect::<Vec<_>>().join(", ")
    };
    assert_eq!(
        text(&out.stderr),
        format!(
            "slidetable: interrupted; group{} {} of the build {} kept in {}: run the same \
             command again to resume it from there, or add --restart to start over\n",
            if kept.len() == 1 { "" } else { "s" },
            list(&|g| g.to_string()),
            if kept.len() == 1 { "is" } else { "are" },
            list(&|g| pattern25_file_checkpoint(&file, g).display().to_string()),
        )
    );
    let out = generate_5x5("5-5-5-5-4")
        .arg("-o")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with(&format!(
            "resuming: took group{} {} from ",
            if kept.len() == 1 { "" } else { "s" },
            list(&|g| g.to_string())
        )),
        "{}",
        text(&out.stderr)
    );
    assert!(std::fs::read(&file).unwrap() == std::fs::read(whole_55554()).unwrap());
    assert_eq!(checkpoints(), Vec::<String>::new());

    // A process of a build in parts names its part and its own checkpoints.
    let parts = dir.path().join("parts");
    let first = parts.join("pattern-part-0-of-1.group-0.checkpoint");
    let mut command = generate_5x5("5-5-5-5-4");
    command.arg("--parts").arg(&parts);
    let out = stopped_once(command, &first, "-INT");
    assert_eq!(out.status.signal(), Some(2), "{}", text(&out.stderr));
    let kept: Vec<usize> = (0..5)
        .filter(|&g| {
            parts
                .join(format!("pattern-part-0-of-1.group-{g}.checkpoint"))
                .exists()
        })
        .collect();
    assert!(kept.starts_with(&[0]), "{kept:?}");
    let list = |each: &dyn Fn(usize) -> String| {
        kept.iter().map(|&g| each(g)).collect::<Vec<_>>().join(", ")
    };
    // After part 0's notes of the checkpoints written.
    let stderr = text(&out.stderr);
    let said = stderr.trim_end();
    let (notes, last) = said.rsplit_once('\n').unwrap_or(("", said));
    assert!(
        notes.lines().all(|l| l.starts_with("checkpoint of group ")),
        "{stderr}"
    );
    assert_eq!(
        format!("{last}\n"),
        format!(
            "slidetable: part 0 of 1: interrupted; group{} {} of the build {} kept in {}: run \
             the same command again (on as many processes) to resume it from the groups every \
             part kept, or add --restart to start over\n",
            if kept.len() == 1 { "" } else { "s" },
            list(&|g| g.to_string()),
            if kept.len() == 1 { "is" } else { "are" },
            list(&|g| parts
                .join(format!("pattern-part-0-of-1.group-{g}.checkpoint"))
                .display()
                .to_string()),
        )
    );
}

/// `generate --plan` gives the figures of every partition, also of groups too large to be
/// built here (8-8-8: Döbbelin, Schütt and Reinefeld's kind), which `generate` refuses.
#[test]
fn plan_gives_the_figures_of_partitions_too_large_to_build_here() {
    let plan = |pdb: &str| {
        let out = slidetable()
            .args(["generate", "--board", "5x5", "--plan", "--pdb", pdb])
            .output()
            .unwrap();
        assert!(out.status.success(), "{pdb}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    assert_eq!(
        plan("6-6-6-6"),
        "board 5x5: pattern database 6-6-6-6 (4 groups, 510048000 placements): 1.1 GB of memory at the peak, a 510.0 MB file, at least 96 CPU-seconds\n"
    );
    assert_eq!(
        plan("8-8-8"),
        "board 5x5: pattern database 8-8-8 (3 groups, 130827312000 placements): 316.2 GB of memory at the peak, a 130.8 GB file, at least 6.9 CPU-hours\n"
    );
    // On 16 processes: a process's memory by the memory check's own model (a sixteenth of
    // each group's search, its slices of the groups before, the swaps' buffers).
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--plan",
            "--pdb",
            "8-8-8",
            "--processes",
            "16",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "board 5x5: pattern database 8-8-8 (3 groups, 130827312000 placements) on 16 processes: 20.1 GB of memory a process at the peak, a 130.8 GB file (8.2 GB a part), at least 6.9 CPU-hours in all\n"
    );
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", "20000000000")
        .args(["generate", "--board", "5x5", "--pdb", "8-8-8", "--parts"])
        .arg(crate::common::dir())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("slidetable: the 8-8-8 pattern databases of 5x5 need 316.2 GB of memory, but 20.0 GB is available"),
        "{}",
        text(&out.stderr)
    );
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "8-8-8",
            "--processes",
            "4",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    let out = slidetable()
        .args(["generate", "--board", "5x5", "--plan", "--pdb", "8-8-9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    assert_eq!(
        text(&out.stderr),
        "slidetable: partition '8-8-9': group sizes must be at least 1 and add up to 24 tiles\n"
    );
}

/// `generate --board 5x5 --parts DIR` alone (one part, the engine MPI runs on every process)
/// and `merge DIR -o FILE`: the file `-o` writes, byte for byte; a directory that is none is
/// refused with its name.
#[test]
fn a_build_in_parts_merges_into_the_one_process_file() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.slp");
    let out = slidetable()
        .args(["generate", "--board", "5x5", "--pdb", "4-4-4-4-4-4", "-o"])
        .arg(&one)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let parts = dir.path().join("parts");
    std::fs::create_dir(&parts).unwrap();
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "4-4-4-4-4-4",
            "--parts",
        ])
        .arg(&parts)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().next().unwrap(),
        format!(
            "wrote {} (1 part, pattern-part-K-of-1.slp)",
            parts.display()
        )
    );
    assert!(parts.join("pattern-part-0-of-1.slp").is_file());
    let merged = dir.path().join("merged.slp");
    let out = slidetable()
        .arg("merge")
        .arg(&parts)
        .arg("-o")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().nth(1).unwrap(),
        "board 5x5: pattern database 4-4-4-4-4-4 (6 groups, 1821600 placements) from 1 part, goal 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24, 1823080 bytes"
    );
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&one).unwrap());
    // A part is not the databases: the solver and info say how to join the parts.
    let part = parts.join("pattern-part-0-of-1.slp");
    for args in [
        &["info"][..],
        &["distance", "--board", "5x5", "--table"][..],
    ] {
        let out = slidetable()
            .args(args)
            .arg(&part)
            .write_stdin("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            text(&out.stderr).contains("one part of 24-puzzle pattern databases built in parts (SLIDEQ25), not the whole: `slidetable merge DIR -o FILE` joins the parts of DIR into the file"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // Merging over a part is refused.
    let out = slidetable()
        .arg("merge")
        .arg(&parts)
        .arg("-o")
        .arg(parts.join("pattern-part-0-of-1.slp"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("refusing to write"),
        "{}",
        text(&out.stderr)
    );

    // The directory is made when its parent exists, as for a table in parts; a missing
    // parent is refused.
    let missing = dir.path().join("none").join("deeper");
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "4-4-4-4-4-4",
            "--parts",
        ])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "slidetable: cannot write {}: directory {} does not exist\n",
            missing.display(),
            dir.path().join("none").display()
        )
    );
    let made = dir.path().join("made");
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "4-4-4-4-4-4",
            "--parts",
        ])
        .arg(&made)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(made.join("pattern-part-0-of-1.slp").is_file());
    let out = slidetable()
        .args(["generate", "--board", "5x5", "--parts"])
        .arg(&parts)
        .args(["-o", "x.slp"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
}

/// `generate --board 5x5 --parts DIR` killed once its first group's checkpoint is written:
/// a run of another partition is refused (naming the checkpoint and what differs), and the
/// same command resumes from the groups kept, into the parts of a run never stopped (merged:
/// the file `-o` writes), leaving no checkpoint.
#[test]
fn a_killed_build_in_parts_resumes_from_its_groups_into_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let one = whole_55554();
    let generate = generate_5x5;
    let parts = dir.path().join("parts");
    let first = parts.join("pattern-part-0-of-1.group-0.checkpoint");
    let mut command = generate("5-5-5-5-4");
    command.arg("--parts").arg(&parts);
    stopped_once(command, &first, "-KILL");
    assert!(!parts.join("pattern-part-0-of-1.slp").exists());
    let out = generate("4-4-4-4-4-4")
        .arg("--parts")
        .arg(&parts)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(
        e.starts_with(&format!(
            "slidetable: {}: it is a checkpoint of another build (its partition ",
            first.display()
        )) && e.ends_with("run that build again to resume it, or add --restart to start over\n"),
        "{e}"
    );
    let out = generate("5-5-5-5-4")
        .arg("--parts")
        .arg(&parts)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Killed once group 0 was kept, maybe later: the groups kept are 0 and perhaps more.
    let e = text(&out.stderr);
    assert!(
        e.contains("resuming: took group 0")
            && e.contains(&format!(
                "from every part's checkpoint in {} instead of building",
                parts.display()
            )),
        "{e}"
    );
    let merged = dir.path().join("merged.slp");
    let out = slidetable()
        .arg("merge")
        .arg(&parts)
        .arg("-o")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(one).unwrap());
    let left: Vec<_> = std::fs::read_dir(&parts)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().contains("checkpoint"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `search --board 5x5 --json` prints one record of docs/JSON.md's `batch-line` per input
/// line, whatever the answer: an unsolvable puzzle, a solved one, a puzzle given up at a limit
/// and (under `--keep-going`) a bad line are JSON too, never the text answers.
#[test]
fn search_json_is_a_record_for_every_line() {
    use slidetable_testkit::schema::{check, schemas};
    let table = database();
    let out = slidetable()
        .args([
            "search",
            "--method",
            "idastar",
            "--board",
            "5x5",
            "--json",
            "--keep-going",
            "--max-expanded",
            "100000",
            "--table",
        ])
        .arg(table)
        .write_stdin(
            "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
1 2 3
14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13
",
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(BAD_INPUT), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"));
            check(&v, &schemas()["batch-line"], "batch-line")
                .unwrap_or_else(|why| panic!("{why}\n{line}"));
            v
        })
        .collect();
    assert_eq!(records.len(), 4, "{stdout}");
    assert_eq!(records[0]["solvable"], false);
    assert_eq!(records[0]["distance"], serde_json::Value::Null);
    assert_eq!(records[0]["method"], "idastar");
    assert_eq!(records[1]["distance"], 1);
    assert_eq!(records[1]["path"], "l");
    assert_eq!(records[1]["partition"], "3-3-3-3-3-3-3-3");
    assert_eq!(records[2]["line"], 3);
    assert_eq!(records[3]["solvable"], true);
    assert_eq!(records[3]["distance"], serde_json::Value::Null);
    assert!(records[3]["error"].as_str().unwrap().contains("100000"));
}

/// `stats.peak_open` is IDA*'s deepest path (docs/JSON.md), as on 4x4: a solved puzzle's is
/// its length (the last iteration's bound, which no iteration goes past), never 0.
#[test]
fn search_stats_peak_open_is_the_deepest_path() {
    let table = database();
    let out = slidetable()
        .args([
            "search", "--method", "idastar", "--board", "5x5", "--stats", "--json", "--table",
        ])
        .arg(table)
        .write_stdin(PUZZLES)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let peaks: Vec<(u64, u64)> = text(&out.stdout)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                v["distance"].as_u64().unwrap(),
                v["stats"]["peak_open"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(peaks, [(0, 0), (1, 1), (5, 5), (8, 8), (12, 12)]);
}

/// The databases built and searched in 64-bit placement ranks (`SLIDETABLE_WIDE_RANKS=1`,
/// what groups of 8 tiles and more take): the same file byte for byte, and on one thread the
/// same paths with the same node counts as in 32-bit ranks.
#[test]
fn wide_ranks_build_the_same_file_and_search_the_same_nodes() {
    let narrow = database();
    let wide = crate::common::dir().join("5x5-3x8-wide.slp");
    let out = slidetable()
        .env("SLIDETABLE_WIDE_RANKS", "1")
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "3-3-3-3-3-3-3-3",
            "-o",
        ])
        .arg(&wide)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read(narrow).unwrap() == std::fs::read(&wide).unwrap());
    let search = |table: &PathBuf, wide: &str| {
        let out = slidetable()
            .env("SLIDETABLE_WIDE_RANKS", wide)
            .env("RAYON_NUM_THREADS", "1")
            .args([
                "search", "--method", "idastar", "--board", "5x5", "--stats", "--json", "--table",
            ])
            .arg(table)
            .write_stdin(PUZZLES)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .map(|line| {
                let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
                // The file's own name differs; what it answers must not.
                record.as_object_mut().unwrap().remove("database");
                let stats = record["stats"].as_object_mut().unwrap();
                stats.retain(|k, _| !k.contains("seconds") && !k.contains("rate"));
                record
            })
            .collect::<Vec<_>>()
    };
    let (n, w) = (search(narrow, "0"), search(&wide, "1"));
    assert_eq!(n.len(), 5);
    assert_eq!(n, w);
    assert!(n.iter().all(|r| r["stats"]["expanded"].as_u64().is_some()));
}

/// `path` or `distance` on the small databases with `args`, the puzzles on standard input.
fn answers(command: &str, args: &[&str], input: &str) -> std::process::Output {
    slidetable()
        .args([command, "--board", "5x5", "--table"])
        .arg(database())
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap()
}

/// A move from the goal, and a puzzle of the other parity.
const SOLVED_AND_NOT: &str = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 24 23
";

#[test]
fn json_csv_and_show_are_the_records_of_every_board() {
    let tokens = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24";
    let array = "[1,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24]";
    let other = "[1,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,24,23]";
    let ok = |out: std::process::Output| {
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    assert_eq!(
        ok(answers("path", &["--json"], SOLVED_AND_NOT)),
        format!(
            "{{\"puzzle\":{array},\"distance\":1,\"path\":\"l\",\"solvable\":true}}\n\
             {{\"puzzle\":{other},\"distance\":null,\"path\":null,\"solvable\":false}}\n"
        )
    );
    assert_eq!(
        ok(answers("distance", &["--json"], SOLVED_AND_NOT)),
        format!(
            "{{\"puzzle\":{array},\"distance\":1,\"solvable\":true}}\n\
             {{\"puzzle\":{other},\"distance\":null,\"solvable\":false}}\n"
        )
    );
    let csv = ok(answers("path", &["--csv"], SOLVED_AND_NOT));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "puzzle,distance,path,solvable");
    assert_eq!(rows[1], format!("{tokens},1,l,true"));
    assert!(rows[2].ends_with(",,,false"), "{csv}");
    let csv = ok(answers("distance", &["--csv"], SOLVED_AND_NOT));
    assert_eq!(csv.lines().next(), Some("puzzle,distance,solvable"));
    assert_eq!(csv.lines().nth(1), Some(&*format!("{tokens},1,true")));
    let shown = ok(answers("path", &["--show"], SOLVED_AND_NOT));
    assert!(
        shown.starts_with(
            &[
                &format!("1. {tokens}: 1 move, l"),
                "",
                "start            1 l",
                " 1  .  2  3  4    .  1  2  3  4",
                " 5  6  7  8  9    5  6  7  8  9",
            ]
            .join("\n")
        ),
        "{shown}"
    );
    assert!(shown.contains(&format!(
        "2. {}: unsolvable\n",
        &SOLVED_AND_NOT.lines().nth(1).unwrap()
    )));
    // --keep-going's bad line as on every board.
    let out = answers("path", &["--json", "--keep-going"], "1 2 3\n");
    assert_eq!(out.status.code(), Some(BAD_INPUT));
    assert!(
        text(&out.stdout).starts_with("{\"line\":1,\"error\":"),
        "{}",
        text(&out.stdout)
    );
    // A search stopped at a limit: its bound in the record, as `search --json` gives it.
    let out = answers(
        "distance",
        &["--json", "--max-expanded", "1000"],
        "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["distance"], serde_json::Value::Null);
    assert_eq!(record["solvable"], true);
    assert!(record["at_least"].as_u64().unwrap() > 40, "{record}");
    // Options that mean nothing here are refused with why.
    let out = answers("path", &["--order", "dlru"], SOLVED_AND_NOT);
    assert_eq!(out.status.code(), Some(USAGE));
    assert!(
        text(&out.stderr).contains("--order"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn goal_follows_the_rules_of_4x4() {
    // The blank bottom-right: the symmetry that turns the board half round carries it onto
    // the databases' goal (the blank top-left).
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0";
    let out = answers(
        "path",
        &["--goal", goal],
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24\n\
         1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 0 21 22 23 24 20\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "r\nd\n");
    // Tiles renamed, the blank where the databases have it: a scramble replayed to that goal.
    let renamed = "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24";
    let start = "2 1 7 3 4 5 6 8 13 9 10 11 12 14 19 15 16 17 18 24 20 21 22 23 0";
    let out = answers("path", &["--goal", renamed], &format!("{start}\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let moves = parse_path(text(&out.stdout).trim_end()).unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(
        Layout25::parse(5, 5, start).unwrap().after(&moves),
        Some(Layout25::parse(5, 5, renamed).unwrap())
    );
    let out = slidetable()
        .args([
            "search", "--method", "idastar", "--board", "5x5", "--goal", goal, "--table",
        ])
        .arg(database())
        .write_stdin("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "r\n");
    // The blank in the middle: no symmetry carries it to a corner.
    let middle = "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15 16 17 18 19 20 21 22 23 24";
    let out = answers("distance", &["--goal", middle], SOLVED_AND_NOT);
    assert_eq!(out.status.code(), Some(USAGE));
    let err = text(&out.stderr);
    assert!(
        err.contains("no symmetry carries") && err.contains(middle),
        "{err}"
    );
    // A goal that is no 5x5 layout.
    let out = answers("distance", &["--goal", "1 2 3"], SOLVED_AND_NOT);
    assert_eq!(out.status.code(), Some(USAGE));
    assert!(
        text(&out.stderr).contains("--goal"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn search_csv_has_the_columns_of_every_board() {
    let out = slidetable()
        .args([
            "search", "--method", "idastar", "--board", "5x5", "--csv", "--stats", "--table",
        ])
        .arg(database())
        .write_stdin(SOLVED_AND_NOT)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "puzzle,distance,path,solvable,method,heuristic,partition,database,expanded,generated,peak_open,iterations,bound,milliseconds,branching_factor"
    );
    assert!(
        rows[1].contains(",1,l,true,idastar,pdb,3-3-3-3-3-3-3-3,"),
        "{csv}"
    );
    assert_eq!(rows.len(), 3);
    // A row stopped at a limit: no distance, solvable, and the figures of the search.
    let out = slidetable()
        .args([
            "search",
            "--method",
            "idastar",
            "--board",
            "5x5",
            "--csv",
            "--max-expanded",
            "1000",
            "--table",
        ])
        .arg(database())
        .write_stdin("14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).lines().nth(1).unwrap().starts_with(
            "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13,,,true,idastar,pdb,"
        ),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn stats_name_the_input_line_and_count_moves_in_words() {
    let out = answers(
        "distance",
        &["--stats"],
        "# one move\n\n1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("<stdin>: line 3: idastar/pdb-3-3-3-3-3-3-3-3: 1 move, "),
        "{err}"
    );
}

#[test]
fn databases_larger_than_the_memory_are_refused_before_the_search() {
    let size = std::fs::metadata(database()).unwrap().len();
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", (size - 1).to_string())
        .args(["distance", "--board", "5x5", "--table"])
        .arg(database())
        .write_stdin(SOLVED_AND_NOT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    let err = text(&out.stderr);
    assert!(
        err.contains("the pattern databases take 111984 bytes and 111983 bytes of memory is available ($SLIDETABLE_AVAILABLE_MEMORY)")
            && err.contains("set SLIDETABLE_AVAILABLE_MEMORY"),
        "{err}"
    );
    // The variable is the way past the check: as much as the file is enough.
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", size.to_string())
        .args(["distance", "--board", "5x5", "--table"])
        .arg(database())
        .write_stdin(SOLVED_AND_NOT)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A value that is no number of bytes is a bad argument, named.
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", "lots")
        .args(["distance", "--board", "5x5", "--table"])
        .arg(database())
        .write_stdin(SOLVED_AND_NOT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    assert!(text(&out.stderr).contains("SLIDETABLE_AVAILABLE_MEMORY"));
}

/// A sparse file of 8-8-8's length: refused from its length alone, never read.
#[test]
fn an_8_8_8_file_is_refused_on_this_machine_without_reading_it() {
    let err = refused_for_memory("path", 130_827_312_000, "24000000000");
    assert!(
        err.contains("the pattern databases take 130.8 GB and 24.0 GB of memory is available"),
        "{err}"
    );
}

#[test]
fn search_summary_counts_every_puzzle_as_on_every_board() {
    let file = crate::common::dir().join("5x5-summary.json");
    let out = slidetable()
        .args([
            "search",
            "--method",
            "idastar",
            "--board",
            "5x5",
            "--json",
            "--summary",
        ])
        .arg(&file)
        .arg("--table")
        .arg(database())
        .write_stdin(SOLVED_AND_NOT)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    std::fs::remove_file(&file).unwrap();
    let s = &summary["summary"];
    assert_eq!(
        (s["puzzles"].as_u64(), s["solved"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        (s["unsolvable"].as_u64(), s["unknown"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(s["partition"], "3-3-3-3-3-3-3-3");
}

/// A 36-move scramble these small groups solve in about 240,000 expanded states, spread over
/// thousands of subtrees each far smaller than the count between two looks at the limits.
const MANY_SMALL_SUBTREES: &str =
    "5 1 2 3 4 11 6 12 8 9 10 7 19 13 14 16 20 23 0 17 15 21 22 18 24\n";

/// How a search stopped at 1,000 expanded states begins to say so.
const STOPPED_AT_1000: &str =
    "slidetable: <stdin>: line 1: search stopped at its limit of 1000 expanded states after expanding ";

/// `--max-expanded` binds however the work falls into subtrees: each subtree's end is a
/// look at the limits too (a search of small subtrees ran to its end past the limit).
#[test]
fn a_limit_stops_a_search_of_small_subtrees() {
    for command in [
        &["path", "--board", "5x5"][..],
        &["search", "--method", "idastar", "--board", "5x5"][..],
    ] {
        let out = slidetable()
            .args(command)
            .args(["--max-expanded", "1000", "--table"])
            .arg(database())
            .write_stdin(MANY_SMALL_SUBTREES)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "unknown\n");
        let err = text(&out.stderr);
        assert!(err.starts_with(STOPPED_AT_1000), "{err}");
        // Stopped soon after the limit, not at the end of the search nor of the first
        // iteration that reached the subtrees (22,921 expanded: the iterations before it
        // were searched whole in the breadth-first top, which never looked).
        let expanded: u64 = err[STOPPED_AT_1000.len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(expanded < 10_000, "{err}");
    }
}

/// Bad lines under `--keep-going` end as on every board: counted on stderr, the summary
/// still written (it counts the puzzles answered), exit 65.
#[test]
fn keep_going_counts_bad_lines_and_still_writes_the_summary() {
    let file = crate::common::dir().join("5x5-keep-going-summary.json");
    let input = format!("{SOLVED_AND_NOT}0 1 1 3\n");
    let out = slidetable()
        .args([
            "search",
            "--method",
            "idastar",
            "--board",
            "5x5",
            "--keep-going",
            "--summary",
        ])
        .arg(&file)
        .arg("--table")
        .arg(database())
        .write_stdin(input.as_str())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(BAD_INPUT));
    assert_eq!(text(&out.stdout), "l\nunsolvable\ninvalid\n");
    assert_eq!(
        text(&out.stderr),
        "slidetable: <stdin>: line 3: expected 25 tiles, found 4\nslidetable: 1 invalid line in <stdin>\n"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert_eq!(summary["summary"]["puzzles"].as_u64(), Some(2));
    for command in ["path", "distance"] {
        let out = slidetable()
            .args([command, "--board", "5x5", "--keep-going", "--table"])
            .arg(database())
            .write_stdin(input.as_str())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(BAD_INPUT));
        assert!(
            text(&out.stderr).ends_with("slidetable: 1 invalid line in <stdin>\n"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// The refusal's advice names a partition only when its file would be opened: never one
/// larger than the file refused.
#[test]
fn the_memory_refusal_suggests_only_a_partition_that_fits() {
    let refusal = |length: u64, available: &str| refused_for_memory("distance", length, available);
    // 6-6-6-6's length, 100 MB available: 5-5-5-5-4 fits.
    let err = refusal(510_049_368, "100000000");
    assert!(
        err.contains("use a smaller partition (5-5-5-5-4: 25.8 MB)") && !err.contains("6-6-6-6"),
        "{err}"
    );
    // 7-7-5-5-sized, 1 GB available: 6-6-6-6 fits.
    let err = refusal(3_000_000_000, "1000000000");
    assert!(
        err.contains("use a smaller partition (6-6-6-6: 510.0 MB)"),
        "{err}"
    );
    // A file smaller than either, too little memory for it: no partition to suggest.
    let err = refusal(20_000_000, "10000000");
    assert!(!err.contains("partition"), "{err}");
}

/// Figures that round alike are given in bytes: "take 25.8 MB and 25.8 MB is available"
/// would read as no reason to refuse.
#[test]
fn the_memory_refusal_gives_bytes_when_the_figures_round_alike() {
    let err = refused_for_memory("distance", 25_807_448, "25807447");
    assert!(
        err.contains(
            "the pattern databases take 25807448 bytes and 25807447 bytes of memory is available"
        ),
        "{err}"
    );
}

/// What `command --board 5x5` says of a sparse file of `length` bytes (never read) with
/// `available` bytes of memory: refused, exit 1, its stderr.
fn refused_for_memory(command: &str, length: u64, available: &str) -> String {
    let path = crate::common::dir().join(format!("5x5-sparse-{command}-{length}.slp"));
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(length).unwrap();
    drop(file);
    let out = slidetable()
        .env("SLIDETABLE_AVAILABLE_MEMORY", available)
        .args([command, "--board", "5x5", "--table"])
        .arg(&path)
        .write_stdin(SOLVED_AND_NOT)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    text(&out.stderr)
}

/// Korf and Felner's instance 1 (95 moves): out of reach of the small groups.
const KORF_FELNER_1: &str = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
/// An 8-move scramble of the 24-puzzle and a 28-move one of the 15-puzzle.
const EIGHT_MOVES_25: &str = "1 2 7 3 4 5 6 8 13 9 10 11 12 14 19 15 16 17 18 24 20 21 22 23 0";
const MOVES_28_16: &str = "5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15";

/// A message with its numbers replaced by `#`: its wording alone.
fn wording(message: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in message.chars() {
        if c.is_ascii_digit() || (in_number && c == '.') {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// A search stopped at a limit says so in one wording on every board, and a `--stats` line
/// has one format on every board; both name the input (its file and line) as every other
/// per-line message does, and a limit exits 1 on every board.
#[test]
fn limits_and_stats_read_alike_on_every_board_and_name_the_file() {
    let dir = tempfile::TempDir::new().unwrap();
    let file = |name: &str, puzzle: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("# a puzzle\n{puzzle}\n")).unwrap();
        path
    };
    let hard = [
        file("a25.txt", KORF_FELNER_1),
        file("b25.txt", KORF_FELNER_1),
    ];
    let near = [
        file("c25.txt", EIGHT_MOVES_25),
        file("d25.txt", EIGHT_MOVES_25),
    ];
    let fifteen = [file("a16.txt", MOVES_28_16), file("b16.txt", MOVES_28_16)];
    let run = |args: &[&str], inputs: &[PathBuf]| {
        let out = slidetable().args(args).args(inputs).output().unwrap();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let table = database().to_str().unwrap();
    // Each input's message names it; the wording is the same everywhere.
    let per_input = |err: &str, inputs: &[PathBuf], prefix: &str| -> Vec<String> {
        let lines: Vec<&str> = err.lines().collect();
        inputs
            .iter()
            .zip(&lines)
            .map(|(input, line)| {
                let named = format!("{prefix}{}: line 2: ", input.display());
                assert!(line.starts_with(&named), "{line} (expected {named}…)");
                wording(&line[named.len()..])
            })
            .collect()
    };

    let limit_25 = [
        "path",
        "--board",
        "5x5",
        "--max-expanded",
        "1000",
        "--table",
        table,
    ];
    let limit_16 = [
        "search",
        "--method",
        "idastar",
        "--heuristic",
        "manhattan",
        "--board",
        "4x4",
        "--max-expanded",
        "1000",
    ];
    let mut wordings = Vec::new();
    for (args, inputs) in [(&limit_25[..], &hard), (&limit_16[..], &fifteen)] {
        let (code, out, err) = run(args, inputs);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert_eq!(out, "unknown\nunknown\n", "{args:?}");
        wordings.extend(per_input(&err, inputs, "slidetable: "));
    }
    assert_eq!(
        wordings[0],
        "search stopped at its limit of # expanded states after expanding # states in # s; no \
         solution is shorter than # moves"
    );
    assert!(wordings.iter().all(|w| *w == wordings[0]), "{wordings:#?}");

    let stats_25 = [
        "search", "--method", "idastar", "--board", "5x5", "--stats", "--table", table,
    ];
    let stats_16 = [
        "search",
        "--method",
        "idastar",
        "--heuristic",
        "manhattan",
        "--board",
        "4x4",
        "--stats",
    ];
    let mut formats = Vec::new();
    for (args, inputs) in [(&stats_25[..], &near), (&stats_16[..], &fifteen)] {
        let (code, _, err) = run(args, inputs);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        formats.extend(per_input(&err, inputs, ""));
    }
    assert_eq!(
        formats[0],
        "idastar/pdb-#-#-#-#-#-#-#-#: # moves, # expanded, # generated, peak open #, # \
         iteration, b* #, # ms"
    );
    assert_eq!(formats[1], formats[0]);
    assert_eq!(
        formats[2],
        "idastar/manhattan: # moves, # expanded, # generated, peak open #, # iterations, b* #, # ms"
    );
    assert_eq!(formats[3], formats[2]);
}

/// The 24-puzzle's lines are read as every board's: a byte-order mark, CRLF line ends, blank
/// and comment lines are no puzzles; a wrong count of tiles is named as such whatever the
/// tiles are; bytes that are no text are shown as they are; a line too long to read is
/// refused by its length; each bad line is named with its input and number.
#[test]
fn bad_lines_are_read_and_named_as_on_every_board() {
    let goal: Vec<String> = (0..25).map(|t| t.to_string()).collect();
    let with = |last: &str| format!("{} {last}", goal[..24].join(" "));
    let mut input = Vec::new();
    input.extend_from_slice(b"\xEF\xBB\xBF");
    input.extend_from_slice(format!("{}\r\n\r\n# a comment\r\n", goal.join(" ")).as_bytes());
    input
        .extend_from_slice(b"1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\r\n");
    input.extend_from_slice(format!("{}\n", with("24 25")).as_bytes());
    input.extend_from_slice(format!("{}\n", goal[1..].join(" ")).as_bytes());
    input
        .extend_from_slice(b"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 \xFF\n");
    input.extend_from_slice(format!("{}\n", with("23")).as_bytes());
    input.extend_from_slice(format!("{}\n", with("25")).as_bytes());
    input.extend_from_slice(format!("{}\n", "1 ".repeat(35_000)).as_bytes());
    let out = slidetable()
        .args(["distance", "--board", "5x5", "--keep-going", "--table"])
        .arg(database())
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(BAD_INPUT), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("0\n1\n{}", "invalid\n".repeat(6))
    );
    assert_eq!(
        text(&out.stderr),
        "slidetable: <stdin>: line 5: expected 25 tiles, found 26
slidetable: <stdin>: line 6: expected 25 tiles, found 24
slidetable: <stdin>: line 7: unknown tile '\\xff' (tiles are 1..24, the blank is 0 or x)
slidetable: <stdin>: line 8: tile 23 appears twice
slidetable: <stdin>: line 9: tile 25 is not on a 5x5 board (tiles are 1..24, the blank is 0)
slidetable: <stdin>: line 10: line is 70000 bytes long; at most 65536 are read
slidetable: 6 invalid lines in <stdin>
"
    );
}

/// A table or a 15-puzzle database given as the 24-puzzle's databases is named for what it
/// is, with the command that reads it; a file too short for the header says its length.
#[test]
fn a_table_given_as_the_24_puzzle_databases_is_named_for_what_it_is() {
    let dir = tempfile::TempDir::new().unwrap();
    let empty = dir.path().join("empty.slp");
    std::fs::write(&empty, b"").unwrap();
    let text_file = dir.path().join("text.slp");
    std::fs::write(&text_file, b"hello\n").unwrap();
    let run = |table: &std::path::Path| {
        let out = slidetable()
            .args(["distance", "--board", "5x5", "--table"])
            .arg(table)
            .write_stdin("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    let table = crate::common::table_3x3();
    assert_eq!(
        run(table),
        format!(
            "slidetable: {}: this is a table (SLIDETBL), not the 24-puzzle's pattern databases \
             (SLIDEP25): `slidetable path`, `distance` and `search` read it without --board \
             5x5, and `slidetable info FILE` names its board\n",
            table.display()
        )
    );
    assert_eq!(
        run(&empty),
        format!(
            "slidetable: {}: not a SLIDEP25 pattern database (a 24-puzzle pattern file): the \
             file is 0 bytes, shorter than the 96-byte header\n",
            empty.display()
        )
    );
    assert_eq!(
        run(&text_file),
        format!(
            "slidetable: {}: not a SLIDEP25 pattern database (a 24-puzzle pattern file): the \
             file is 6 bytes, shorter than the 96-byte header\n",
            text_file.display()
        )
    );
}

/// A `--summary FILE` that cannot be written is refused before any puzzle is searched (it
/// was refused after the whole run, its summary lost), on every board.
#[test]
fn a_summary_that_cannot_be_written_is_refused_before_the_search() {
    let summary = "/nonexistent-directory/summary.json";
    let table = database().to_str().unwrap().to_string();
    let runs: [(&[&str], &str); 2] = [
        (
            &[
                "search", "--method", "idastar", "--board", "5x5", "--table", &table,
            ],
            EIGHT_MOVES_25,
        ),
        (
            &["search", "--method", "idastar", "--board", "4x4"],
            MOVES_28_16,
        ),
    ];
    for (args, puzzle) in runs {
        let out = slidetable()
            .args(args)
            .args(["--summary", summary])
            .write_stdin(format!("{puzzle}\n"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "slidetable: --summary: cannot write {summary}: No such file or directory (os \
                 error 2)\n"
            ),
            "{args:?}"
        );
    }
}

/// `generate --board 5x5 -o PATH` into a directory that does not exist is refused before the
/// build, as on every board, and makes no directory (it made the directory, through the
/// folder that keeps the groups built, and wrote the file there).
#[test]
fn generate_into_a_missing_directory_is_refused_before_the_build() {
    let dir = tempfile::TempDir::new().unwrap();
    let missing = dir.path().join("missing");
    let path = missing.join("x.slp");
    let out = slidetable()
        .args([
            "generate",
            "--board",
            "5x5",
            "--pdb",
            "3-3-3-3-3-3-3-3",
            "-o",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        format!(
            "slidetable: cannot write {}: directory {} does not exist\n",
            path.display(),
            missing.display()
        )
    );
    assert!(!missing.exists());
}

/// Ctrl-C to a 24-puzzle `search` stops the search in progress: the answers before it are
/// written, the stopped one reads `unknown`, `--summary FILE` counts both (it was left empty),
/// exit 130.
#[test]
fn ctrl_c_to_a_5x5_search_keeps_the_answers_found_and_writes_the_summary() {
    let scratch = tempfile::TempDir::new().unwrap();
    let summary = scratch.path().join("summary.json");
    // A move away, then Korf and Felner's instance 1 (95 moves: out of these groups' reach).
    let input = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n\
                 14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n";
    let mut command = crate::common::process(crate::common::dir());
    command
        .args(["search", "--method", "idastar", "--board", "5x5", "--stats"])
        .arg("--table")
        .arg(database())
        .arg("--summary")
        .arg(&summary);
    crate::common::assert_ctrl_c_keeps_the_answers(command, input, &summary);
}
