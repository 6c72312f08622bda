//! `generate` run as people run it: what it prints, the boards, goals, encodings and cost models
//! it is given (and the tables they make, as the queries and `info` see them), `-o -`; and
//! what goes wrong in real use: killed midway, out of disk space, interrupted by a signal,
//! stale temporary files, an output that is not a regular file or cannot be written, and a
//! replaced table's owner and mode.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use slidetable::core::Board;
use slidetable::query::Table;
use tempfile::TempDir;

use crate::common::{
    assert_sound, freeze, generate_into, generated_3x3, mkfifo, others, process, sandboxed,
    scratch_dir, temporaries, temporary_paths, thaw, wait_at_most, Run, BIN, STATES,
};

#[test]
fn generate_names_the_file_the_states_and_the_time() {
    let s = generated_3x3();
    let lines: Vec<&str> = s.stdout.lines().collect();
    let size = fs::metadata(&s.path).unwrap().len();
    assert_eq!(lines.len(), 3, "{}", s.stdout);
    assert_eq!(lines[0], format!("wrote {}", s.path.display()));
    assert_eq!(
        lines[1],
        format!("board 3x3: 9 sections x {STATES} states, {size} bytes")
    );
    let ms = lines[2]
        .strip_prefix("took ")
        .and_then(|t| t.strip_suffix(" ms"))
        .unwrap_or_else(|| panic!("no time in {:?}", lines[2]));
    assert!(ms.parse::<f64>().is_ok_and(|t| t >= 0.0), "{ms}");
    assert_eq!(s.stderr, "");
}

#[test]
fn generate_to_dash_writes_the_table_to_standard_output() {
    let dir = scratch_dir("users-everyone-dash");
    let _ = std::fs::remove_file(dir.join("-"));
    let file = dir.join("2x3.slt");
    Run::of(
        sandboxed(&dir)
            .args(["generate", "--board", "2x3", "-o"])
            .arg(&file),
    )
    .ok();
    let out = sandboxed(&dir)
        .args(["generate", "--board", "2x3", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!dir.join("-").exists(), "a file named - was made");
    assert_eq!(out.stdout, std::fs::read(&file).unwrap());

    // The report cannot reach standard error (M5: exit 1 although the table was written):
    // the table is the answer, and it is whole.
    let out = process(&dir)
        .args(["generate", "--board", "2x3", "-o", "-"])
        .stderr(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", out.status);
    assert_eq!(out.stdout, std::fs::read(&file).unwrap());
}

// ---------------------------------------------------------------------------------------------
// Boards, goals, encodings and costs

fn generate_in(dir: &Path, args: &[&str]) -> Run {
    Run::of(sandboxed(dir).arg("generate").args(args))
}

fn query_in(dir: &Path, command: &str, args: &[&str], input: &str) -> Run {
    Run::of(
        sandboxed(dir)
            .arg(command)
            .args(args)
            .write_stdin(input.to_string()),
    )
}

/// Three 2×3 puzzles: 5 moves, solved, and the other parity class.
const PUZZLES_2X3: &str = "4 1 2 5 0 3\n1 2 3 4 5 0\n2 1 3 4 5 0\n";

#[test]
fn a_two_by_three_table_answers_in_both_encodings() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate_in(d, &["--board", "2x3", "-o", "byte.slt"]).ok();
    generate_in(
        d,
        &["--board", "2x3", "--encoding", "2bit", "-o", "bits.slt"],
    )
    .ok();
    for (file, encoding) in [("byte.slt", "byte"), ("bits.slt", "2bit")] {
        let info = query_in(d, "info", &[file], "").ok();
        assert!(info.stdout.contains("board     2x3\n"), "{}", info.stdout);
        assert!(
            info.stdout
                .lines()
                .any(|l| l.starts_with(&format!("encoding  {encoding} ("))),
            "{}",
            info.stdout
        );
        assert!(info.stdout.contains("sections  6\n"));
        let run = query_in(d, "distance", &["--table", file], PUZZLES_2X3).ok();
        assert_eq!(run.stdout, "5\n0\n-1\n");
        let run = query_in(d, "path", &["--table", file], PUZZLES_2X3).ok();
        let lines = run.lines();
        assert_eq!(lines[0].len(), 5);
        assert_eq!(&lines[1..], ["", "unsolvable"]);
    }
    let json = query_in(d, "info", &["bits.slt", "--json"], "").ok();
    assert!(
        json.stdout.contains(r#""encoding":"2bit""#),
        "{}",
        json.stdout
    );
    // 2 bits per state: 6 sections of 360 states take 540 bytes of payload.
    let (byte, bits) = (
        std::fs::metadata(d.join("byte.slt")).unwrap().len(),
        std::fs::metadata(d.join("bits.slt")).unwrap().len(),
    );
    assert_eq!(byte - bits, 6 * 360 - 6 * 90);
}

#[test]
fn board_selects_the_cache_table_and_generates_it_once() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let first = query_in(d, "distance", &["--board", "2x3"], PUZZLES_2X3).success();
    assert_eq!(first.stdout, "5\n0\n-1\n");
    assert!(
        first.stderr.contains("no table at")
            && first
                .stderr
                .contains("slidetable/2x3.slt; generating it once"),
        "{}",
        first.stderr
    );
    assert!(d.join("cache/slidetable/2x3.slt").exists());
    let again = query_in(d, "distance", &["--board", "2x3"], PUZZLES_2X3).ok();
    assert_eq!(again.stdout, "5\n0\n-1\n");
    let info = query_in(d, "info", &["--board", "2x3"], "").ok();
    assert!(info.stdout.contains("board     2x3\n"));
    // A named table decides the board; a --board that disagrees is refused.
    let clash = query_in(
        d,
        "distance",
        &["--table", "cache/slidetable/2x3.slt", "--board", "3x3"],
        "",
    );
    assert_eq!(clash.code, Some(1), "{clash:#?}");
    assert!(clash
        .stderr
        .contains("is for 2x3 boards, but 3x3 is needed"));
}

#[test]
fn goals_and_all_goals_choose_the_sections() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate_in(
        d,
        &[
            "--board",
            "2x3",
            "--goal",
            "1 2 3 0 4 5",
            "--goal",
            "5,4,3,2,1,0",
            "-o",
            "two.slt",
        ],
    )
    .ok();
    let info = query_in(d, "info", &["two.slt"], "").ok();
    assert!(info.stdout.contains("sections  2\n"));
    assert!(info.stdout.contains("section 0: goal 1 2 3 0 4 5\n"));
    assert!(info.stdout.contains("section 1: goal 5 4 3 2 1 0\n"));
    let run = query_in(
        d,
        "distance",
        &["--table", "two.slt", "--goal", "5 4 3 2 1 0"],
        "5 4 3 2 0 1\n",
    )
    .ok();
    assert_eq!(run.stdout, "1\n");
    let one = generate_in(
        d,
        &["--board", "2x3", "--goal", "1 2 3 4 5 0", "-o", "one.slt"],
    )
    .ok();
    assert_eq!(
        one.lines()[1],
        "board 2x3: 1 section x 360 states, 668 bytes"
    );
    generate_in(d, &["--board", "2x2", "--all-goals", "-o", "all.slt"]).ok();
    let info = query_in(d, "info", &["all.slt"], "").ok();
    assert!(info.stdout.contains("sections  4\n"));
    let bad = generate_in(d, &["--board", "2x3", "--goal", "1 2 3", "-o", "x.slt"]);
    assert_eq!(bad.code, Some(2));
    assert!(bad
        .stderr
        .contains("--goal '1 2 3': expected 6 tiles, found 3"));
}

#[test]
fn tile_costs_give_cheapest_costs_and_paths() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate_in(d, &["--board", "2x3", "--cost", "tile", "-o", "tile.slt"]).ok();
    let info = query_in(d, "info", &["tile.slt"], "").ok();
    assert!(
        info.stdout
            .contains("cost      tile (moving tile k costs k)\n"),
        "{}",
        info.stdout
    );
    // One slide of tile 5: nothing is cheaper than the one move that solves it.
    let run = query_in(d, "distance", &["--table", "tile.slt"], "1 2 3 4 0 5\n").ok();
    assert_eq!(run.stdout, "5\n");
    let run = query_in(d, "path", &["--table", "tile.slt"], "1 2 3 4 0 5\n").ok();
    assert_eq!(run.stdout, "r\n");
    // The judges count moves: a weighted table is refused, not misread.
    let judge = query_in(
        d,
        "judge",
        &["leetcode773", "--table", "tile.slt"],
        "[[4,1,2],[5,0,3]]\n",
    );
    assert_eq!(judge.code, Some(1), "{judge:#?}");
    assert!(judge
        .stderr
        .contains("holds tile costs, but the judges count moves"));
    for (args, what) in [
        (
            vec!["--cost", "tile"],
            "a --cost tile table is not a default table",
        ),
        (
            vec!["--cost", "tile", "--encoding", "2bit", "-o", "x.slt"],
            "the 2bit encoding holds distances mod 3",
        ),
        (
            vec!["--cost", "tile", "--board", "3x4", "-o", "x.slt"],
            "tile costs go up to 10 cells",
        ),
        (
            vec!["--board", "3x5"],
            "a table of every 3x5 state (163.5 GB of 2-bit entries) is not a default table",
        ),
        (
            vec!["--board", "2x8", "--encoding", "byte", "-o", "x.slt"],
            "a table of every 2x8 state is made in 2bit entries and unit costs only",
        ),
        (vec!["--encoding", "4bit"], "unknown encoding '4bit'"),
    ] {
        let run = generate_in(d, &args);
        assert_eq!(run.code, Some(2), "{args:?}: {run:#?}");
        assert!(run.stderr.contains(what), "{args:?}: {}", run.stderr);
    }
}

/// On a `--cost tile` table every command says `cost` for what a path costs and `moves` for
/// how many moves it has, in text and JSON; `hardest` prints the cheapest cost of the states
/// `stats` calls the most expensive.
#[test]
fn weighted_tables_say_cost_and_moves() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("tile.slt");
    generate_into(dir.path(), "2x3", &["--cost", "tile"], &table);
    let with = |args: &[&str], input: &[u8]| -> Run {
        let r = Run::process_with(
            process(dir.path()).args(args).arg("--table").arg(&table),
            input,
        );
        assert_eq!(r.code, Some(0), "{args:?}: {r:#?}");
        r
    };
    let puzzle = b"4 1 2 5 0 3\n";
    assert_eq!(with(&["distance"], puzzle).stdout, "15\n");
    assert_eq!(
        with(&["distance", "--json"], puzzle).stdout,
        "{\"puzzle\":[4,1,2,5,0,3],\"cost\":15,\"solvable\":true}\n"
    );
    assert_eq!(
        with(&["path", "--json"], puzzle).stdout,
        "{\"puzzle\":[4,1,2,5,0,3],\"cost\":15,\"moves\":5,\"path\":\"lurrd\",\"solvable\":true}\n"
    );
    let random = with(
        &[
            "random", "--depth", "15", "--count", "20", "--seed", "3", "--json",
        ],
        b"",
    );
    for line in random.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["cost"], 15, "{line}");
        assert!(v.get("distance").is_none(), "{line}");
        let moves = v["moves"].as_u64().unwrap();
        assert_eq!(v["path"].as_str().unwrap().len() as u64, moves, "{line}");
    }

    let stats = with(&["stats"], b"").stdout;
    assert!(!stats.contains("moves"), "{stats}");
    let max: u32 = stats
        .lines()
        .find_map(|l| l.strip_prefix("maximum"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{stats}"));
    assert_eq!(max, 61, "{stats}");
    let hardest = with(&["hardest"], b"").stdout;
    assert!(!hardest.is_empty());
    for line in hardest.lines() {
        let cost: u32 = line.split('\t').nth(1).unwrap().parse().unwrap();
        assert_eq!(cost, max, "{line}");
    }
    let hardest = with(&["hardest", "--json"], b"").stdout;
    for line in hardest.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["cost"], max, "{line}");
    }
    let json = with(&["stats", "--json"], b"").stdout;
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // H10/M7: a cost is never called a distance nor counted in moves.
    assert_eq!(v["max_cost"], max);
    assert!(v.get("max_distance").is_none(), "{json}");
    assert!(v["costs"].is_array(), "{json}");
    assert!(v.get("distances").is_none(), "{json}");
    let csv = with(&["stats", "--csv"], b"").stdout;
    assert!(csv.starts_with("cost,states,share,cumulative\n"), "{csv}");
    let csv = with(&["path", "--csv"], puzzle).stdout;
    assert_eq!(
        csv,
        "puzzle,cost,path,solvable\n4 1 2 5 0 3,15,lurrd,true\n"
    );
    let csv = with(&["distance", "--csv"], puzzle).stdout;
    assert_eq!(csv, "puzzle,cost,solvable\n4 1 2 5 0 3,15,true\n");
    let csv = with(&["hardest", "--csv"], b"").stdout;
    assert!(csv.starts_with("puzzle,cost,path\n"), "{csv}");
    let show = with(&["path", "--show"], puzzle).stdout;
    assert!(
        show.starts_with("1. 4 1 2 5 0 3: 5 moves at cost 15, lurrd\n"),
        "{show}"
    );
    let info = Run::process(process(dir.path()).arg("info").arg(&table));
    assert!(
        info.stdout.contains("  max cost      60 ("),
        "{}",
        info.stdout
    );
    assert!(!info.stdout.contains("distance  "), "{}", info.stdout);
    let info = Run::process(process(dir.path()).args(["info", "--json"]).arg(&table));
    assert!(info.stdout.contains("\"max_cost\":60"), "{}", info.stdout);
    assert!(!info.stdout.contains("max_distance"), "{}", info.stdout);
    let h = ["heuristic", "--heuristic", "manhattan"];
    let text = with(&[&h[..], &["-"]].concat(), puzzle).stdout;
    assert_eq!(text, "4 1 2 5 0 3: cost 15; manhattan 5\n");
    let csv = with(&[&h[..], &["--csv", "-"]].concat(), puzzle).stdout;
    assert_eq!(csv, "puzzle,cost,manhattan\n4 1 2 5 0 3,15,5\n");
    let json = with(&[&h[..], &["--json", "-"]].concat(), puzzle).stdout;
    assert_eq!(
        json,
        "{\"puzzle\":[4,1,2,5,0,3],\"cost\":15,\"solvable\":true,\"estimates\":{\"manhattan\":5}}\n"
    );
    let report = with(&h, b"").stdout;
    assert!(report.contains("\n    cost    states"), "{report}");
    // The ratio's column names the cost too (it was "mean h/d"), its cells as wide as it.
    assert!(
        report.contains("    cost    states   mean h  min h  max h     exact  mean h/cost\n"),
        "{report}"
    );
    assert!(!report.contains("h/d"), "{report}");
    let last = report
        .lines()
        .find(|l| l.trim_start().starts_with("all "))
        .unwrap();
    assert!(last.ends_with(&format!("{:>11}", last.split_whitespace().last().unwrap())));
    let head = report.lines().find(|l| l.contains("mean h/cost")).unwrap();
    assert_eq!(last.len(), head.len(), "{report}");
    let three = with(&["heuristic"], b"").stdout;
    assert!(!three.contains("h/d"), "{three}");
    assert!(three.contains("exact  mean h/cost"), "{three}");
    assert!(
        report.contains("is at cost 61 from the goal, estimated 5 (56 under)"),
        "{report}"
    );
    assert!(!report.contains("moves from the goal"), "{report}");
    let json = with(&[&h[..], &["--json"]].concat(), b"").stdout;
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(
        v["costs"].is_array() && v.get("distances").is_none(),
        "{json}"
    );
    assert_eq!(v["worst_underestimate"]["cost"], 61, "{json}");
    assert!(v["overall"]["cost"].is_null() && v["overall"].get("distance").is_none());
    let csv = with(&[&h[..], &["--csv"]].concat(), b"").stdout;
    assert!(csv.starts_with("heuristic,cost,states,"), "{csv}");

    // A unit table keeps its words: distances in moves.
    let unit = dir.path().join("unit.slt");
    generate_into(dir.path(), "2x3", &[], &unit);
    let r = Run::process_with(
        process(dir.path())
            .args(["path", "--json", "--table"])
            .arg(&unit),
        puzzle,
    );
    assert_eq!(
        r.stdout,
        "{\"puzzle\":[4,1,2,5,0,3],\"distance\":5,\"path\":\"lurrd\",\"solvable\":true}\n"
    );
    // One state at the largest distance (the standard goal's 21 moves): "(1 state)".
    let info = Run::process(process(dir.path()).arg("info").arg(&unit));
    assert!(
        info.stdout.contains("  max distance  21 (1 state)\n"),
        "{}",
        info.stdout
    );
    assert!(!info.stdout.contains("(1 states)"), "{}", info.stdout);
}

// ---------------------------------------------------------------------------------------------
// Crash safety

/// `generate` over an existing table, SIGKILLed at moments spread over its run: while it
/// searches, the moment its temporary file appears, and while it writes; then a run left to
/// finish. After every kill the real name holds the old table, byte for byte, and a temporary
/// file cut short does not open as a table (its header gives the full length); the run that
/// finishes leaves the new table, and beside it only the killed runs' temporary files.
#[test]
fn a_generate_killed_midway_leaves_the_old_table() {
    let dir = TempDir::new().unwrap();
    let name = "table.slt";
    let path = dir.path().join(name);
    generate_into(dir.path(), "3x3", &[], &path);
    let old = fs::read(&path).unwrap();

    // 2x5: ten sections of 1,814,400 states, 18 MB, about half a second on two cores.
    let start = |dir: &Path| -> Child {
        process(dir)
            .args(["generate", "--board", "2x5", "-o"])
            .arg(&path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    /// When to kill.
    #[derive(Debug, Clone, Copy)]
    enum Kill {
        After(Duration),
        /// Once a new temporary file holds at least this many bytes (at least 1: the empty
        /// temporary file is made before the search, so a bad destination is refused early).
        Writing(u64),
        Never,
    }
    let plan = [
        Kill::After(Duration::from_millis(10)),
        Kill::Writing(1),
        Kill::After(Duration::from_millis(150)),
        Kill::Writing(4 << 20),
        Kill::After(Duration::from_millis(400)),
        Kill::Never,
    ];
    // Runs `generate` and kills it at `kill`: `Some(whether a new temporary file held a
    // byte)` once killed, `None` when it finished first (and succeeded).
    let run_and_kill = |kill: Kill| -> Option<bool> {
        // The earlier runs' files: the next `generate` removes them (nobody holds them), so
        // a new file is one not among these.
        let before = temporary_paths(dir.path(), name);
        let mut child = start(dir.path());
        let began = Instant::now();
        let killed = loop {
            if child.try_wait().unwrap().is_some() {
                break None;
            }
            let written = |bytes: u64| {
                temporary_paths(dir.path(), name)
                    .iter()
                    .filter(|t| !before.contains(t))
                    .any(|t| fs::metadata(t).is_ok_and(|m| m.len() >= bytes.max(1)))
            };
            let due = match kill {
                Kill::After(delay) => began.elapsed() >= delay,
                Kill::Writing(bytes) => written(bytes),
                Kill::Never => false,
            };
            if due {
                // Stopped, then looked at: a loaded machine can run it on to its rename
                // between a look and a kill. Renamed already, it is left to finish.
                if freeze(&mut child) && fs::read(&path).unwrap() == old {
                    let now = written(1);
                    child.kill().unwrap();
                    break Some(now);
                }
                thaw(&child);
                break None;
            }
            thread::sleep(Duration::from_micros(200));
        };
        let status = child.wait().unwrap();
        if killed.is_none() {
            assert!(status.success(), "{kill:?}: generate failed: {status:?}");
        }
        killed
    };
    let (mut killed_searching, mut killed_writing) = (0, 0);
    // A kill due while writing can come too late on a loaded machine (the test's look at the
    // file and the run's rename race): such a run is let finish, the old table put back, and
    // the same kill tried again in a new run, at most this many times.
    const TRIES: usize = 20;
    'plan: for kill in plan {
        let mut tries = 0;
        let writing = loop {
            tries += 1;
            match run_and_kill(kill) {
                Some(writing) => break writing,
                // Finished before its kill: the new table is in place.
                None if matches!(kill, Kill::Never) => break 'plan,
                None => {
                    assert_sound(&path, Board::new(2, 5).unwrap());
                    // A kill after a fixed delay came after the whole run (a fast machine):
                    // the later ones would too.
                    if matches!(kill, Kill::After(_)) {
                        break 'plan;
                    }
                    assert!(
                        tries < TRIES,
                        "{kill:?}: the run finished before its kill {TRIES} times"
                    );
                    let back = dir.path().join("old-table");
                    fs::write(&back, &old).unwrap();
                    fs::rename(&back, &path).unwrap();
                }
            }
        };
        match writing {
            true => killed_writing += 1,
            false => killed_searching += 1,
        }
        assert_eq!(fs::read(&path).unwrap(), old, "{kill:?}: the table changed");
        assert_sound(&path, Board::EIGHT);
        for tmp in temporary_paths(dir.path(), name) {
            if fs::metadata(&tmp).unwrap().len() < 18_149_168 {
                let err = Table::open(&tmp)
                    .err()
                    .expect("a cut temporary file opened")
                    .to_string();
                assert!(
                    err.contains("truncated") || err.contains("shorter"),
                    "{err}"
                );
            }
        }
    }
    eprintln!(
        "generate killed {killed_searching} times while searching, {killed_writing} while writing"
    );
    assert!(killed_searching > 0, "no kill landed while searching");
    assert!(
        killed_writing >= 2,
        "fewer than two kills landed while writing"
    );
    assert_sound(&path, Board::new(2, 5).unwrap());
    // Only the killed runs' temporary files are left beside it.
    let leftovers = temporary_paths(dir.path(), name).len();
    assert_eq!(others(dir.path(), name).len(), leftovers);
    assert!(leftovers <= killed_writing + killed_searching);
}

/// A full disk, made by a file-size limit (`ulimit -f`; SIGXFSZ ignored, so writes fail with
/// EFBIG just as they fail with ENOSPC): a clear error, exit 1, the old table untouched, and
/// no temporary file left behind.
#[test]
fn a_full_disk_fails_cleanly_and_leaves_no_temporary_file() {
    let dir = TempDir::new().unwrap();
    let name = "table.slt";
    let path = dir.path().join(name);
    generate_into(dir.path(), "2x3", &[], &path);
    let old = fs::read(&path).unwrap();

    let out = Command::new("bash")
        .args([
            "-c",
            r#"ulimit -f 64; trap "" XFSZ; exec "$0" generate -o "$1""#,
            BIN,
        ])
        .arg(&path)
        .env_remove("SLIDETABLE_TABLE")
        .env("HOME", dir.path().join("home"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(out.stdout, b"", "{out:?}");
    assert_eq!(
        stderr,
        format!(
            "slidetable: cannot write {}: File too large (os error 27)\n",
            path.display()
        )
    );
    assert_eq!(fs::read(&path).unwrap(), old);
    assert_eq!(others(dir.path(), name), Vec::<String>::new());
}

/// The level a checkpoint holds, from its lines (the entries after them are not read).
fn checkpoint_level(path: &Path) -> Option<u32> {
    use std::io::Read;
    let mut head = vec![0u8; 8192];
    let n = fs::File::open(path).ok()?.read(&mut head).ok()?;
    String::from_utf8_lossy(&head[..n])
        .lines()
        .find_map(|l| l.strip_prefix("level ")?.parse().ok())
}

/// Runs `cmd` (its stderr to `log`) until `checkpoint` holds level `at` or more, then
/// Ctrl-C: it must end by the signal. The level the checkpoint then holds, and stderr.
fn interrupted_at_level(
    cmd: &mut Command,
    log: &Path,
    checkpoint: &Path,
    at: u32,
) -> (u32, String) {
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while checkpoint_level(checkpoint).is_none_or(|l| l < at) {
        assert!(child.try_wait().unwrap().is_none(), "finished first");
        assert!(began.elapsed() < Duration::from_secs(600));
        thread::sleep(Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = wait_at_most(&mut child, Duration::from_secs(60), "INT");
    let stderr = fs::read_to_string(log).unwrap();
    assert_eq!(status.signal(), Some(2), "{stderr}");
    (checkpoint_level(checkpoint).unwrap(), stderr)
}

/// The temporary files beside `table` (its own, and a checkpoint's while one is written).
fn temporaries_of(table: &Path) -> Vec<PathBuf> {
    let name = table.file_name().unwrap().to_string_lossy().into_owned();
    let mut found: Vec<PathBuf> = fs::read_dir(table.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(&format!(".{name}.")) && n.ends_with(".tmp")
        })
        .collect();
    found.sort();
    found
}

/// A 3x4 `generate -o FILE` of its own making: checkpoints every second
/// (`SLIDETABLE_CHECKPOINT_SECONDS`, the way tests make them on a search of seconds; alone it
/// would write none before the search is nearly over).
fn generate_3x4(dir: &Path, path: &Path) -> Command {
    let mut cmd = process(dir);
    cmd.env("SLIDETABLE_CHECKPOINT_SECONDS", "1")
        .args(["generate", "--board", "3x4", "-o"])
        .arg(path);
    cmd
}

/// A 3x4 `generate` (2-bit entries: its search keeps checkpoints) interrupted again and again
/// in the middle of a level: Ctrl-C (it says how to go on and keeps its checkpoint), SIGKILL,
/// a `--restart` (it starts over and says so) killed in turn, then SIGKILL twice more; the run
/// that finishes says where it resumed from and writes the same bytes as a search never
/// interrupted (`-o -`, which keeps no checkpoint), and leaves no file but the table.
#[test]
fn a_3x4_generate_interrupted_at_several_levels_resumes_to_the_same_table() {
    use std::os::unix::process::ExitStatusExt;
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("3x4.slt");
    let checkpoint = dir.path().join(".3x4.slt.checkpoint");
    let level = || checkpoint_level(&checkpoint);
    let log = dir.path().join("stderr.txt");
    let interrupt = |restart: bool, at: u32, signal: &str| -> (ExitStatus, String) {
        let mut cmd = generate_3x4(dir.path(), &path);
        if restart {
            cmd.arg("--restart");
        }
        let before = fs::metadata(&checkpoint).and_then(|m| m.modified()).ok();
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let began = Instant::now();
        loop {
            assert!(
                child.try_wait().unwrap().is_none(),
                "finished before level {at}"
            );
            assert!(began.elapsed() < Duration::from_secs(600));
            // Only a checkpoint this run wrote says how far it got: a resumed run starts from
            // the last one, which may already be past `at` (on an idle machine the first
            // checkpoint, a second in, is past level 25), and a --restart's are new ones.
            let new = fs::metadata(&checkpoint).and_then(|m| m.modified()).ok() != before;
            if new && level().is_some_and(|l| l >= at) {
                break;
            }
            thread::sleep(Duration::from_millis(2));
        }
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = wait_at_most(&mut child, Duration::from_secs(60), signal);
        assert!(!path.exists(), "a table after a {signal} at level {at}");
        (status, fs::read_to_string(&log).unwrap())
    };

    let (status, stderr) = interrupt(false, 8, "INT");
    assert_eq!(status.signal(), Some(2), "{stderr}");
    let saved = level().unwrap();
    let prefix = format!(
        "slidetable: interrupted; the search is kept up to level {saved} in {} (written at ",
        checkpoint.display()
    );
    assert!(stderr.starts_with(&prefix), "{stderr}");
    assert!(
        stderr.ends_with(
            " UTC): run the same command again to resume it from there, or add --restart to \
             start over\n"
        ),
        "{stderr}"
    );
    // Ctrl-C removes the temporary files, a checkpoint's included, and the run's lock file.
    assert_eq!(temporaries_of(&path), Vec::<PathBuf>::new());
    assert!(!dir.path().join(".3x4.slt.checkpoint.lock").exists());
    let (status, stderr) = interrupt(false, 25, "KILL");
    assert_eq!(status.signal(), Some(9));
    assert!(
        stderr.starts_with(&format!("slidetable: resuming 3x4 from level {saved} (")),
        "{stderr}"
    );
    assert!(stderr.ends_with("; --restart starts over\n"), "{stderr}");
    let (_, stderr) = interrupt(true, 3, "KILL");
    assert!(
        stderr.starts_with(&format!(
            "slidetable: --restart: removed the interrupted run's {}\n",
            checkpoint.display()
        )),
        "{stderr}"
    );
    // It started over (no "resuming"); its first checkpoint comes a second into the run, at a
    // level the timing decides (levels 0-25 hold 4.7 million states), so the level says nothing.
    assert!(!stderr.contains("resuming"), "{stderr}");
    interrupt(false, 30, "KILL");
    interrupt(false, 40, "KILL");
    let saved = level().unwrap();

    // The resumed run needs only what its checkpoint does not hold already: less than the
    // 119.9 MB a new run needs.
    let done =
        Run::process(generate_3x4(dir.path(), &path).env("SLIDETABLE_AVAILABLE_DISK", "100000000"));
    assert_eq!(done.code, Some(0), "{done:#?}");
    assert!(
        done.stderr
            .starts_with(&format!("slidetable: resuming 3x4 from level {saved} (")),
        "{done:#?}"
    );
    let whole = process(dir.path())
        .args(["generate", "--board", "3x4", "-o", "-"])
        .output()
        .unwrap();
    assert!(whole.status.success(), "{whole:?}");
    assert!(
        fs::read(&path).unwrap() == whole.stdout,
        "the resumed table differs"
    );
    let left: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".3x4.slt."))
        .collect();
    assert_eq!(left, Vec::<String>::new());
}

/// A 3x4 `generate` killed (SIGKILL) while it writes a checkpoint, after an earlier one: the
/// half-written checkpoint is a temporary file, and the checkpoint in place is the earlier one,
/// whole. The next run resumes from that one, says so, removes the half-written file, and
/// writes the same table as a search never interrupted.
#[test]
fn a_3x4_generate_killed_while_it_writes_a_checkpoint_resumes_from_the_one_before() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("3x4.slt");
    let checkpoint = dir.path().join(".3x4.slt.checkpoint");
    let mut child = generate_3x4(dir.path(), &path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    // The table's own temporary file is there from the start; a second one is a checkpoint
    // being written. Wait for one written after a first checkpoint is in place.
    let before = loop {
        assert!(child.try_wait().unwrap().is_none(), "finished first");
        assert!(began.elapsed() < Duration::from_secs(600));
        if let Some(level) = checkpoint_level(&checkpoint) {
            if temporaries_of(&path).len() == 2 {
                // Stopped, then looked at again: a loaded machine can finish the write (and
                // rename it) between a look and a kill. Then it goes on to the next one.
                assert!(freeze(&mut child), "finished first");
                if checkpoint_level(&checkpoint) == Some(level) && temporaries_of(&path).len() == 2
                {
                    break level;
                }
                thaw(&child);
            }
        }
        thread::sleep(Duration::from_millis(1));
    };
    child.kill().unwrap();
    wait_at_most(&mut child, Duration::from_secs(60), "KILL");
    // Killed before the rename: the checkpoint is still the one before, and the new one is a
    // temporary file left behind.
    assert_eq!(checkpoint_level(&checkpoint), Some(before));
    let torn = temporaries_of(&path);
    assert_eq!(torn.len(), 2, "{torn:?}");
    let done = Run::process(&mut generate_3x4(dir.path(), &path));
    assert_eq!(done.code, Some(0), "{done:#?}");
    assert!(
        done.stderr
            .starts_with(&format!("slidetable: resuming 3x4 from level {before} (")),
        "{done:#?}"
    );
    for file in &torn {
        assert!(!file.exists(), "{} left", file.display());
    }
    let whole = process(dir.path())
        .args(["generate", "--board", "3x4", "-o", "-"])
        .output()
        .unwrap();
    let table = fs::read(&path).unwrap();
    assert!(table == whole.stdout, "the resumed table differs");
    assert!(!checkpoint.exists());
    // It says how many states the checkpoint held: levels 0 to `before`.
    let settled: u64 = Table::new(&table[..]).unwrap().sections()[0].histogram()
        [..=before as usize]
        .iter()
        .sum();
    assert!(
        done.stderr
            .contains(&format!("({settled} of 239500800 states settled) of a run")),
        "{done:#?}"
    );
}

/// Sends `signal` to a `generate --board 2x5` the moment its temporary file appears.
fn signal_while_writing(dir: &Path, signal: &str) -> ExitStatus {
    signal_while_making(dir, signal, &["--board", "2x5"], "t.slt")
}

/// Sends `signal` to a `generate ARGS -o NAME` the moment its temporary file appears.
fn signal_while_making(dir: &Path, signal: &str, args: &[&str], name: &str) -> ExitStatus {
    let out = dir.join(name);
    let mut child = process(dir)
        .arg("generate")
        .args(args)
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while temporaries(dir, name).is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{signal}: generate finished first"
        );
        assert!(began.elapsed() < Duration::from_secs(60));
        thread::sleep(Duration::from_micros(200));
    }
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    wait_at_most(&mut child, Duration::from_secs(30), signal)
}

/// Ctrl-C, SIGTERM and SIGHUP while `generate` writes: the temporary file is removed, and
/// the process still dies of the signal (as a shell or a parent expects).
#[test]
fn interrupting_generate_removes_its_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = TempDir::new().unwrap();
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        // A loaded machine can finish the write before the signal lands: then the table is
        // whole and nothing else is left. Try again until the signal lands mid-write.
        let mut landed = false;
        for _ in 0..5 {
            let status = signal_while_writing(dir.path(), signal);
            assert_eq!(temporaries(dir.path(), "t.slt"), Vec::<String>::new());
            if status.success() {
                let _ = fs::remove_file(dir.path().join("t.slt"));
                continue;
            }
            assert_eq!(status.signal(), Some(number), "{signal}: {status:?}");
            let table = dir.path().join("t.slt");
            if table.exists() {
                // The signal came after the rename: the table is whole, as it must be.
                let r = Run::process(process(dir.path()).args(["info", "--verify"]).arg(&table));
                assert_eq!(r.code, Some(0), "{signal}: {r:#?}");
                fs::remove_file(&table).unwrap();
                continue;
            }
            landed = true;
            break;
        }
        assert!(landed, "{signal}: generate finished first five times");
    }
}

/// Ctrl-C, SIGTERM and SIGHUP while `generate --pdb` builds its databases (M1: the
/// temporary file, 288 MB for 7-8, was left): removed, and the process dies of the signal.
#[test]
fn interrupting_a_pattern_database_removes_its_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = TempDir::new().unwrap();
    let args = ["--board", "4x4", "--pdb", "6-6-3"];
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let status = signal_while_making(dir.path(), signal, &args, "p.slt");
        assert_eq!(status.signal(), Some(number), "{signal}: {status:?}");
        assert_eq!(others(dir.path(), ""), Vec::<String>::new(), "{signal}");
    }
}

/// A temporary file of ours left by a process that is gone (SIGKILL cannot be caught) is
/// removed by the next `generate` into that directory, whatever file either makes (M2: only a
/// run for the same file removed it); another program's file is left alone, and so is the
/// temporary file of a `generate` still running there.
#[test]
fn generate_removes_stale_temporary_files_of_its_own() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let status = signal_while_writing(d, "KILL");
    assert_eq!(status.code(), None);
    let stale = temporaries(d, "t.slt");
    assert_eq!(stale.len(), 1, "{stale:?}");
    // Named for the process that wrote it.
    assert!(stale[0].contains(".slidetable-"), "{stale:?}");
    // A run making another file (a pattern database) removes it, and is killed in turn.
    let status = signal_while_making(d, "KILL", &["--board", "4x4", "--pdb", "6-6-3"], "p.slt");
    assert_eq!(status.code(), None);
    assert_eq!(temporaries(d, "t.slt"), Vec::<String>::new());
    let stale = temporaries(d, "p.slt");
    assert_eq!(stale.len(), 1, "{stale:?}");
    fs::write(d.join(".notes.txt.tmp"), "mine").unwrap();
    fs::write(d.join(".x.slidetable-1x.y.tmp"), "not ours either").unwrap();
    // A run still writing its own temporary file in the same directory keeps it.
    let mut running = process(d)
        .args([
            "generate", "--board", "4x4", "--pdb", "6-6-3", "-o", "q.slt",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while temporaries(d, "q.slt").is_empty() {
        assert!(
            running.try_wait().unwrap().is_none(),
            "q.slt finished first"
        );
        assert!(began.elapsed() < Duration::from_secs(60));
        thread::sleep(Duration::from_micros(200));
    }
    generate_into(d, "2x2", &[], &d.join("other.slt"));
    let left = others(d, "other.slt");
    let _ = running.kill();
    let _ = running.wait();
    assert_eq!(
        left.iter()
            .filter(|n| !n.starts_with(".q.slt."))
            .collect::<Vec<_>>(),
        [".notes.txt.tmp", ".x.slidetable-1x.y.tmp"]
    );
    assert_eq!(
        left.iter().filter(|n| n.starts_with(".q.slt.")).count(),
        1,
        "{left:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// What it writes over, and what it names

/// `generate -o` never replaces what is not a table file: a directory or a FIFO (as a device
/// like /dev/null would be) is refused with exit 1 and left as it was.
#[test]
fn generate_replaces_only_regular_files() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("sub")).unwrap();
    mkfifo(&d.join("fifo"));
    for (name, kind) in [("sub", "a directory"), ("fifo", "a FIFO")] {
        let out = process(d)
            .args(["generate", "--board", "2x2", "-o", name])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("slidetable: refusing to replace {name}: it is {kind}, not a table file\n")
        );
    }
    assert!(d.join("sub").is_dir());
    assert_eq!(others(d, "sub"), ["fifo"]);
}

/// `generate -o` errors name what the user named, never the temporary file.
#[test]
fn generate_errors_name_the_output_not_the_temporary_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let r = Run::process(process(d).args(["generate", "--board", "2x2", "-o", "/proc/version"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr
            .starts_with("slidetable: cannot write /proc/version: "),
        "{r:#?}"
    );
    assert!(!r.stderr.contains(".tmp"), "{r:#?}");

    std::os::unix::fs::symlink("nowhere/x.slt", d.join("dangling.slt")).unwrap();
    let r = Run::process(process(d).args(["generate", "--board", "2x2", "-o", "dangling.slt"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: cannot write dangling.slt: it links to nowhere/x.slt, whose directory \
         does not exist\n"
    );

    let r = Run::process(process(d).args(["generate", "--board", "2x2", "-o", "a/b/c.slt"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: cannot write a/b/c.slt: directory a/b does not exist\n"
    );
    assert!(!d.join("a").exists());

    // A pattern database's directory is not made either (M4: `a1/b` was created).
    let r = Run::process(process(d).args([
        "generate",
        "--board",
        "2x3",
        "--pdb",
        "3-2",
        "-o",
        "a1/b/c.slt",
    ]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: cannot write a1/b/c.slt: directory a1/b does not exist\n"
    );
    assert!(!d.join("a1").exists());
}

/// A replaced table keeps its owner and group as well as its mode.
#[test]
fn a_replaced_table_keeps_its_owner() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.slt");
    generate_into(dir.path(), "2x2", &[], &path);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let is_root = fs::metadata("/proc/self").unwrap().uid() == 0;
    if !is_root {
        eprintln!("not root: cannot give the table another owner; checking the mode only");
    } else {
        std::os::unix::fs::chown(&path, Some(4242), Some(4343)).unwrap();
    }
    let before = fs::metadata(&path).unwrap();
    generate_into(dir.path(), "2x3", &[], &path);
    let after = fs::metadata(&path).unwrap();
    assert_eq!(after.mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
}

/// A destination that cannot be written is refused before the search (M13: `-o /dev/null`
/// and `-o nodir/x.slt` were refused after minutes of work). These searches take minutes;
/// the refusals come at once, well inside the timeout.
#[test]
fn an_unwritable_destination_is_refused_before_the_search() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (args, message) in [
        (
            vec!["--board", "3x4", "--all-goals", "-o", "/dev/null"],
            "slidetable: refusing to replace /dev/null: it is a character device, not a table file\n",
        ),
        (
            vec!["--board", "3x4", "--all-goals", "-o", "nodir/x.slt"],
            "slidetable: cannot write nodir/x.slt: directory nodir does not exist\n",
        ),
        (
            vec!["--board", "4x4", "--pdb", "7-8", "-o", "nodir/x.slt"],
            "slidetable: cannot write nodir/x.slt: directory nodir does not exist\n",
        ),
    ] {
        let r = Run::of(
            assert_cmd::Command::from_std(process(d))
                .arg("generate")
                .args(&args)
                .timeout(std::time::Duration::from_secs(30)),
        );
        assert_eq!(r.code, Some(1), "{args:?}: {r:#?}");
        assert_eq!(r.stderr, message, "{args:?}");
    }
}

/// H9: a partition's pattern databases are checked against the memory they need before the
/// first group's search, and refused naming it (`--pdb 9-6` aborted allocating 8.3 GB under a
/// 3 GB address-space limit), and against the disk space their file needs.
#[test]
fn a_partition_too_large_for_the_machine_is_refused_before_its_search() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (pdb, env, limit, message) in [
        (
            "5-5-5",
            "SLIDETABLE_AVAILABLE_MEMORY",
            "1000000",
            "the 5-5-5 pattern databases of 4x4 need 2.0 MB of memory, but 1.0 MB is \
             available ($SLIDETABLE_AVAILABLE_MEMORY); smaller groups need less (7-8: 1.5 GB)",
        ),
        (
            "5-5-5",
            "SLIDETABLE_AVAILABLE_DISK",
            "100000",
            "the 5-5-5 pattern databases of 4x4 need 786240 bytes of disk space, but 100000 \
             bytes is available ($SLIDETABLE_AVAILABLE_DISK); smaller groups need less \
             (7-8: 1.5 GB)",
        ),
        (
            "9-6",
            "SLIDETABLE_AVAILABLE_MEMORY",
            "3000000000",
            "the 9-6 pattern databases of 4x4 need 11.4 GB of memory, but 3.0 GB is \
             available ($SLIDETABLE_AVAILABLE_MEMORY); smaller groups need less (7-8: 1.5 GB)",
        ),
    ] {
        let r = Run::of(
            sandboxed(d)
                .env(env, limit)
                .args(["generate", "--board", "4x4", "--pdb", pdb, "-o", "p.slt"]),
        );
        assert_eq!(r.code, Some(1), "{pdb}: {r:#?}");
        assert_eq!(r.stderr, format!("slidetable: {message}\n"), "{pdb}");
        assert_eq!(others(d, ""), Vec::<String>::new(), "{pdb}");
    }
    // The address-space limit of the issue (`ulimit -v`, 3 GB), however much memory is free.
    let r = Run::process(
        Command::new("sh")
            .current_dir(d)
            .env_remove("SLIDETABLE_AVAILABLE_MEMORY")
            .arg("-c")
            .arg("ulimit -v 3000000 && exec \"$0\" generate --board 4x4 --pdb 9-6 -o p.slt")
            .arg(env!("CARGO_BIN_EXE_slidetable")),
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr.starts_with(
            "slidetable: the 9-6 pattern databases of 4x4 need 11.4 GB of memory, but 3.1 GB is \
             available (the address-space limit (ulimit -v))"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(others(d, ""), Vec::<String>::new());
}

#[test]
fn too_little_memory_or_disk_is_refused_before_the_search() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // 3x4 in 2-bit entries: 59.9 MB of entries plus a 29.9 MB frontier bitmap.
    let low = Run::of(
        sandboxed(d)
            .env("SLIDETABLE_AVAILABLE_MEMORY", "50000000")
            .args(["generate", "--board", "3x4", "-o", "3x4.slt"]),
    );
    assert_eq!(low.code, Some(1), "{low:#?}");
    assert!(
        low.stderr.contains(
            "a 3x4 table needs 89.8 MB of memory, but 50.0 MB is available \
             ($SLIDETABLE_AVAILABLE_MEMORY)"
        ),
        "{}",
        low.stderr
    );
    let full = Run::of(
        sandboxed(d)
            .env("SLIDETABLE_AVAILABLE_DISK", "1000")
            .args(["generate", "--board", "2x3", "-o", "2x3.slt"]),
    );
    assert_eq!(full.code, Some(1), "{full:#?}");
    assert!(
        full.stderr
            .contains("a 2x3 table needs 2160 bytes of disk space, but 1000 bytes is available"),
        "{}",
        full.stderr
    );
    // A search that keeps checkpoints needs room for one beside the 59.9 MB table (or beside
    // the one before): 59.9 MB of entries (the frontier is not kept) and its lines.
    let working = Run::of(
        sandboxed(d)
            .env("SLIDETABLE_AVAILABLE_DISK", "100000000")
            .args(["generate", "--board", "3x4", "-o", "3x4.slt"]),
    );
    assert_eq!(working.code, Some(1), "{working:#?}");
    assert!(
        working.stderr.contains(
            "a 3x4 table needs 119.9 MB of disk space, but 100.0 MB is available \
             ($SLIDETABLE_AVAILABLE_DISK)"
        ),
        "{}",
        working.stderr
    );
    assert!(!d.join("3x4.slt").exists() && !d.join("2x3.slt").exists());
    let temporaries: Vec<_> = fs::read_dir(d)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".tmp") || name.starts_with(".3x4.slt.")
        })
        .collect();
    assert!(temporaries.is_empty(), "{temporaries:?}");
    // Enough of both: made.
    generate_in(d, &["--board", "2x3", "-o", "2x3.slt"]).ok();
}

#[test]
fn a_fourteen_cell_default_table_is_not_made_on_first_use() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let run = query_in(
        d,
        "distance",
        &["--board", "2x7"],
        "1 2 3 4 5 6 7 8 9 10 11 12 13 0\n",
    );
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(
        run.stderr
            .contains("make it once with `slidetable generate --board 2x7`"),
        "{}",
        run.stderr
    );
    assert!(!d.join("cache/slidetable/2x7.slt").exists());
}

/// The environment values `generate` reads: one that is not what the variable accepts is
/// refused with exit 2, naming the variable and what it accepts (never ignored: the user
/// would believe a limit in force); one too large saturates (never a panic), on tables that
/// keep checkpoints or not, and with --parts.
#[test]
fn environment_values_are_checked_and_huge_ones_never_panic() {
    let dir = TempDir::new().unwrap();
    let seconds = "a number of seconds written in digits, with an optional fraction (0, 30 or \
                   2.5) (or unset)";
    let bytes = "a whole number of bytes written in digits (8000000000) (or unset)";
    let cases = [
        ("SLIDETABLE_CHECKPOINT_SECONDS", "1e20", Some(seconds)),
        ("SLIDETABLE_CHECKPOINT_SECONDS", "1e300", Some(seconds)),
        ("SLIDETABLE_CHECKPOINT_SECONDS", "-1", Some(seconds)),
        ("SLIDETABLE_CHECKPOINT_SECONDS", "abc", Some(seconds)),
        ("SLIDETABLE_CHECKPOINT_SECONDS", "NaN", Some(seconds)),
        ("SLIDETABLE_CHECKPOINT_SECONDS", "inf", Some(seconds)),
        ("SLIDETABLE_CHECKPOINT_SECONDS", " 1", Some(seconds)),
        (
            "SLIDETABLE_CHECKPOINT_SECONDS",
            "18446744073709551615",
            None,
        ),
        (
            "SLIDETABLE_CHECKPOINT_SECONDS",
            "18446744073709551616",
            None,
        ),
        (
            "SLIDETABLE_CHECKPOINT_SECONDS",
            "99999999999999999999",
            None,
        ),
        ("SLIDETABLE_CHECKPOINT_SECONDS", "0.5", None),
        ("SLIDETABLE_AVAILABLE_MEMORY", "-1", Some(bytes)),
        ("SLIDETABLE_AVAILABLE_MEMORY", "abc", Some(bytes)),
        ("SLIDETABLE_AVAILABLE_MEMORY", "1e9", Some(bytes)),
        (
            "SLIDETABLE_AVAILABLE_MEMORY",
            "99999999999999999999999",
            None,
        ),
        ("SLIDETABLE_AVAILABLE_DISK", "-1", Some(bytes)),
        ("SLIDETABLE_AVAILABLE_DISK", "abc", Some(bytes)),
        ("SLIDETABLE_AVAILABLE_DISK", "1e9", Some(bytes)),
        ("SLIDETABLE_AVAILABLE_DISK", "99999999999999999999999", None),
    ];
    for (name, value, refused) in cases {
        for args in [
            &["generate", "--board", "2x2", "-o", "t.slt"][..],
            &[
                "generate",
                "--board",
                "2x4",
                "--encoding",
                "2bit",
                "-o",
                "u.slt",
            ],
            &["generate", "--board", "2x3", "--parts", "."],
        ] {
            let run = Run::process(process(dir.path()).args(args).env(name, value));
            match refused {
                Some(accepts) => {
                    assert_eq!(run.code, Some(2), "{name}={value} {args:?}: {run:#?}");
                    assert_eq!(
                        run.stderr,
                        format!("slidetable: ${name} is {value:?}, but it must be {accepts}\n"),
                        "{args:?}"
                    );
                }
                None => assert_eq!(run.code, Some(0), "{name}={value} {args:?}: {run:#?}"),
            }
        }
    }
}

/// A run refused over its checkpoint (damaged, a device, a FIFO, a directory) leaves
/// no lock file behind, and a FIFO is refused at once, never opened for reading.
#[test]
fn a_refused_checkpoint_leaves_no_lock_file() {
    let dir = TempDir::new().unwrap();
    let checkpoint = dir.path().join(".t.slt.checkpoint");
    let cases: [(&dyn Fn(), &str); 4] = [
        (
            &|| {
                fs::write(
                    &checkpoint,
                    b"slidetable generate checkpoint 1\ncrc 00000000\n",
                )
                .unwrap()
            },
            "it is damaged",
        ),
        (
            &|| std::os::unix::fs::symlink("/dev/zero", &checkpoint).unwrap(),
            "it is a character device, not a regular file",
        ),
        (&|| mkfifo(&checkpoint), "it is a FIFO, not a regular file"),
        (
            &|| fs::create_dir(&checkpoint).unwrap(),
            "it is a directory, not a regular file",
        ),
    ];
    for (make, says) in cases {
        make();
        let run = Run::process(process(dir.path()).args([
            "generate",
            "--board",
            "2x4",
            "--encoding",
            "2bit",
            "-o",
            "t.slt",
        ]));
        assert_eq!(run.code, Some(1), "{run:#?}");
        assert!(
            run.stderr
                .starts_with(&format!("slidetable: {}: {says}", checkpoint.display()))
                || run
                    .stderr
                    .starts_with(&format!("slidetable: .t.slt.checkpoint: {says}")),
            "{run:#?}"
        );
        assert!(
            !dir.path().join(".t.slt.checkpoint.lock").exists(),
            "{says}"
        );
        assert!(!dir.path().join("t.slt").exists());
        if checkpoint.is_dir() {
            fs::remove_dir(&checkpoint).unwrap();
        } else {
            fs::remove_file(&checkpoint).unwrap();
        }
    }
}

/// Issue 38: `generate --max-depth D -o FILE` checks the disk space it needs, as the other
/// generators do. Where published counts of the board's levels reach D (4x4), before the
/// search: the file and the checkpoint beside it by the plan's model (`generate --plan
/// --max-depth`), and the deepest D that fits; elsewhere (3x3) before each level, once the
/// levels made already take more than the disk holds. Exit 1, no table written.
#[test]
fn a_table_within_d_moves_too_large_for_the_disk_is_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let before = Run::of(
        sandboxed(d)
            .env("SLIDETABLE_AVAILABLE_DISK", "30000")
            .args([
                "generate",
                "--board",
                "4x4",
                "--max-depth",
                "12",
                "-o",
                "w.slb",
            ]),
    );
    assert_eq!(before.code, Some(1), "{before:#?}");
    assert_eq!(
        before.stderr,
        "slidetable: the 4x4 table within 12 moves needs 39426 bytes of disk space (the file \
         26350 bytes and a checkpoint beside it 13076 bytes, by the published counts of its \
         levels at 1.7 bytes a state), but 30000 bytes is available \
         ($SLIDETABLE_AVAILABLE_DISK): this makes at most --max-depth 11\n"
    );
    assert_eq!(others(d, ""), Vec::<String>::new());
    let going = Run::of(
        sandboxed(d)
            .env("SLIDETABLE_AVAILABLE_DISK", "30000")
            .args([
                "generate",
                "--board",
                "3x3",
                "--max-depth",
                "20",
                "-o",
                "w.slb",
            ]),
    );
    assert_eq!(going.code, Some(1), "{going:#?}");
    assert_eq!(
        going.stderr,
        "slidetable: the 3x3 table within 20 moves needs at least 30994 bytes of disk space \
         (the levels made by level 18, encoded), but 30000 bytes is available \
         ($SLIDETABLE_AVAILABLE_DISK): this makes at most --max-depth 17\n"
    );
    assert!(!d.join("w.slb").exists());
}

/// `generate --max-depth D` on the 15-cell 3x5 board and the 15-puzzle, as people run it:
/// every level the published count (OEIS A346737, A089484), `distance` exact within D and
/// `>D` past it, `path` a legal path of the stated length, `info` and `stats` the histogram,
/// and a damaged or truncated file refused with its name and exit 1.
#[test]
fn a_table_within_d_moves_answers_on_fifteen_and_sixteen_cells() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let within = d.join("3x5-14.slt");
    let made = generate_in(
        d,
        &["--board", "3x5", "--max-depth", "14", "-o", "3x5-14.slt"],
    );
    assert_eq!(made.code, Some(0), "{made:#?}");
    let lines: Vec<&str> = made.stdout.lines().collect();
    assert_eq!(lines[0], "wrote 3x5-14.slt");
    // OEIS A346737, a(0)..a(14).
    let published = [
        1u64, 2, 4, 9, 21, 42, 89, 164, 349, 644, 1349, 2473, 5109, 9110, 18489,
    ];
    let total: u64 = published.iter().sum();
    assert!(
        lines[1].starts_with(&format!(
            "board 3x5: {total} states within 14 moves of goal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0, "
        )),
        "{}",
        made.stdout
    );
    let info = query_in(d, "info", &["--verify", "3x5-14.slt"], "");
    assert_eq!(info.code, Some(0), "{info:#?}");
    let histogram: Vec<String> = published.iter().map(u64::to_string).collect();
    assert!(
        info.stdout
            .contains(&format!("histogram {}\n", histogram.join(" "))),
        "{}",
        info.stdout
    );
    assert!(info.stdout.contains("checksum  ok\n"), "{}", info.stdout);
    let stats = query_in(d, "stats", &["--table", "3x5-14.slt", "--csv"], "");
    assert_eq!(stats.code, Some(0), "{stats:#?}");
    let counts: Vec<u64> = stats
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, published);

    // Two moves away, the 84-move state (A346737's example), the other class, the goal.
    let puzzles = "1 2 3 4 5 6 7 8 0 9 11 12 13 14 10\n\
                   5 4 3 2 1 10 9 8 7 6 14 13 12 11 0\n\
                   2 1 3 4 5 6 7 8 9 10 11 12 13 14 0\n\
                   1 2 3 4 5 6 7 8 9 10 11 12 13 14 0\n";
    let table = ["--table", "3x5-14.slt"];
    let distance = query_in(d, "distance", &table, puzzles);
    assert_eq!(distance.code, Some(0), "{distance:#?}");
    assert_eq!(distance.stdout, "2\n>14\n-1\n0\n");
    let path = query_in(d, "path", &table, puzzles);
    assert_eq!(path.code, Some(0), "{path:#?}");
    let paths: Vec<&str> = path.stdout.lines().collect();
    assert_eq!(&paths[1..], [">14", "unsolvable", ""]);
    let board = Board::new(3, 5).unwrap();
    let start =
        slidetable::core::parse_layout(board, puzzles.lines().next().unwrap().as_bytes()).unwrap();
    let moves = slidetable::core::parse_path(paths[0]).unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(start.after(&moves), Some(board.standard_goal()));
    let json = query_in(d, "distance", &["--table", "3x5-14.slt", "--json"], puzzles);
    assert_eq!(
        json.stdout.lines().nth(1).unwrap(),
        "{\"puzzle\":[5,4,3,2,1,10,9,8,7,6,14,13,12,11,0],\"distance\":null,\"at_least\":15,\"solvable\":true}"
    );

    // The 15-puzzle: --max-depth always means a table of states.
    let fifteen = generate_in(
        d,
        &["--board", "4x4", "--max-depth", "12", "-o", "4x4-12.slt"],
    );
    assert_eq!(fifteen.code, Some(0), "{fifteen:#?}");
    let info = query_in(d, "info", &["--json", "4x4-12.slt"], "");
    assert!(
        info.stdout
            .contains("\"histogram\":[1,2,4,10,24,54,107,212,446,946,1948,3938,7808]"),
        "{}",
        info.stdout
    );
    let korf_style = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n";
    let path = query_in(d, "path", &["--table", "4x4-12.slt"], korf_style);
    assert_eq!(path.stdout, "r\n");

    // Refusals: no file, several goals, damaged bytes, a truncated file.
    let no_file = generate_in(d, &["--board", "4x4", "--max-depth", "3"]);
    assert_eq!(no_file.code, Some(2));
    assert!(
        no_file.stderr.contains("name it with -o PATH"),
        "{}",
        no_file.stderr
    );
    let cost = generate_in(
        d,
        &[
            "--board",
            "2x3",
            "--max-depth",
            "3",
            "--cost",
            "tile",
            "-o",
            "x.slt",
        ],
    );
    assert_eq!(cost.code, Some(2));
    assert!(cost.stderr.contains("unit costs"), "{}", cost.stderr);
    let bytes = fs::read(&within).unwrap();
    let mut damaged = bytes.clone();
    let last = damaged.len() - 10;
    damaged[last] ^= 0x40;
    fs::write(d.join("damaged.slt"), &damaged).unwrap();
    let verify = query_in(d, "info", &["--verify", "damaged.slt"], "");
    assert_eq!(verify.code, Some(1), "{verify:#?}");
    assert!(
        verify.stderr.contains("table damaged.slt: level 14: ")
            && verify.stderr.contains("checksum does not hold"),
        "{}",
        verify.stderr
    );
    // A question that reads the damaged block (the last of level 14, where the class's
    // highest ranks are looked for) is refused by name, the block never answered from.
    let highest = "14 13 12 11 10 9 8 7 6 5 4 3 1 2 0\n";
    let asked = query_in(d, "distance", &["--table", "damaged.slt"], highest);
    assert_eq!(asked.code, Some(1), "{asked:#?}");
    assert!(
        asked
            .stderr
            .starts_with("slidetable: table damaged.slt: level 14: block ")
            && asked.stderr.contains("checksum does not hold"),
        "{}",
        asked.stderr
    );
    assert_eq!(asked.stdout, "");
    // Level 14's index (its offset in the level's descriptor, docs/FORMAT.md 13.2), damaged:
    // refused when the file is opened.
    let at = 64 + 48 * 14 + 8;
    let index = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let mut damaged = bytes.clone();
    damaged[index + 3] ^= 1;
    fs::write(d.join("index.slt"), &damaged).unwrap();
    let far = "5 4 3 2 1 10 9 8 7 6 14 13 12 11 0\n";
    let read = query_in(d, "distance", &["--table", "index.slt"], far);
    assert_eq!(read.code, Some(1), "{read:#?}");
    assert!(
        read.stderr
            .contains("table index.slt: level 14: the index checksum does not hold"),
        "{}",
        read.stderr
    );
    fs::write(d.join("short.slt"), &bytes[..bytes.len() - 1]).unwrap();
    let short = query_in(d, "distance", &["--table", "short.slt"], far);
    assert_eq!(short.code, Some(1), "{short:#?}");
    assert!(
        short.stderr.contains("table short.slt: file is")
            && short.stderr.contains("but its header describes"),
        "{}",
        short.stderr
    );
}

/// `generate --max-depth D --parts DIR` (one process here; scripts/mpi.sh runs 1 to 4 under
/// MPI): the directory answers `info`, `stats`, `distance` and `path` as the file does,
/// `merge` joins it into the file `-o` writes byte for byte, a part named alone is refused as
/// a part, and a level that would not fit the memory available is refused before it is made,
/// with the figures and the deepest D that fits.
#[test]
fn a_table_within_d_moves_in_parts_is_the_file_once_merged() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("parts")).unwrap();
    let one = generate_in(d, &["--board", "3x5", "--max-depth", "13", "-o", "one.slt"]);
    assert_eq!(one.code, Some(0), "{one:#?}");
    let made = generate_in(
        d,
        &[
            "--board",
            "3x5",
            "--max-depth",
            "13",
            "--parts",
            "parts",
            "--stats",
            "levels.jsonl",
        ],
    );
    assert_eq!(made.code, Some(0), "{made:#?}");
    // One JSON line a level: its states (OEIS A346737), bytes sent, time, peak memory.
    let levels = fs::read_to_string(d.join("levels.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = levels
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 14, "{levels}");
    for line in &lines {
        slidetable_testkit::schema::matches(line, "level-stats").unwrap();
    }
    assert_eq!(lines[13]["level"], 13);
    assert_eq!(lines[13]["states"], 9110);
    assert_eq!(lines[13]["bytes_sent"], 0);
    assert!(
        lines[13]["peak_memory"][0].as_u64().unwrap() > 1 << 20,
        "{levels}"
    );
    assert!(
        made.stdout
            .starts_with("wrote parts (1 part and parts/manifest)\n"),
        "{}",
        made.stdout
    );
    let merged = Run::of(sandboxed(d).args(["merge", "parts", "-o", "merged.slt"]));
    assert_eq!(merged.code, Some(0), "{merged:#?}");
    assert!(fs::read(d.join("one.slt")).unwrap() == fs::read(d.join("merged.slt")).unwrap());
    for args in [["--verify", "parts"], ["--verify", "merged.slt"]] {
        let info = query_in(d, "info", &args, "");
        assert_eq!(info.code, Some(0), "{info:#?}");
        // OEIS A346737, a(0)..a(13).
        assert!(
            info.stdout
                .contains("histogram 1 2 4 9 21 42 89 164 349 644 1349 2473 5109 9110\n"),
            "{}",
            info.stdout
        );
    }
    let puzzles = "1 2 3 4 5 6 7 8 0 9 11 12 13 14 10\n5 4 3 2 1 10 9 8 7 6 14 13 12 11 0\n";
    for table in ["parts", "one.slt"] {
        let distance = query_in(d, "distance", &["--table", table], puzzles);
        assert_eq!(distance.stdout, "2\n>13\n", "{distance:#?}");
        let path = query_in(d, "path", &["--table", table], puzzles);
        assert_eq!(path.stdout.lines().nth(1), Some(">13"), "{path:#?}");
    }
    let stats = query_in(d, "stats", &["--table", "parts", "--csv"], "");
    assert_eq!(stats.code, Some(0), "{stats:#?}");
    assert_eq!(stats.stdout.lines().count(), 15, "{}", stats.stdout);
    let alone = query_in(d, "info", &["parts/part-0000-of-0001.slb"], "");
    assert_eq!(alone.code, Some(1), "{alone:#?}");
    assert!(
        !alone.stderr.contains("generate it again"),
        "{}",
        alone.stderr
    );
    assert!(
        alone.stderr.contains(
            "this is part 0 of 1 of a table within D moves made in parts: name its directory"
        ),
        "{}",
        alone.stderr
    );
    // Not enough memory for level 13 (its neighbours at 8 bytes beside the levels held).
    for args in [&["-o", "small.slt"][..], &["--parts", "parts"][..]] {
        let short = Run::of(
            sandboxed(d)
                .env("SLIDETABLE_AVAILABLE_MEMORY", "200000")
                .args(["generate", "--board", "3x5", "--max-depth", "13"])
                .args(args),
        );
        assert_eq!(short.code, Some(1), "{short:#?}");
        assert!(
            short
                .stderr
                .contains("of the 3x5 search within 13 moves needs")
                && short.stderr.contains("but 200000 bytes is available"),
            "{}",
            short.stderr
        );
        assert!(
            short.stderr.contains("this makes at most --max-depth"),
            "{}",
            short.stderr
        );
    }
    assert!(!d.join("small.slt").exists());
    // --restart starts over (a search within D moves keeps checkpoints; it was refused
    // before they did).
    let restarted = generate_in(
        d,
        &[
            "--board",
            "3x5",
            "--max-depth",
            "5",
            "-o",
            "restarted.slt",
            "--restart",
        ],
    );
    assert_eq!(restarted.code, Some(0), "{restarted:#?}");
    // A flag of the search of every state, refused rather than ignored.
    let run = generate_in(
        d,
        &[
            "--board",
            "3x5",
            "--max-depth",
            "5",
            "--parts",
            "parts",
            "--batch",
            "1000",
        ],
    );
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("drop --batch"), "{}", run.stderr);
    // The parts of the earlier run stay a table.
    let info = query_in(d, "info", &["parts"], "");
    assert_eq!(info.code, Some(0), "{info:#?}");
}

/// Ctrl-C to a process of a table's search in parts (`--parts DIR`, one process here, as
/// `mpirun` runs each) names its part before what it keeps, as a 5x5 build in parts does:
/// under mpirun every process says it, and a line without its part is no help.
#[test]
fn a_table_search_in_parts_interrupted_names_its_part() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let parts = d.join("parts");
    let log = d.join("stderr.txt");
    let checkpoint = parts.join("part-0000-of-0001.checkpoint");
    let mut cmd = process(d);
    cmd.env("SLIDETABLE_CHECKPOINT_SECONDS", "0")
        .args(["generate", "--board", "3x4", "--parts"])
        .arg(&parts);
    let (saved, stderr) = interrupted_at_level(&mut cmd, &log, &checkpoint, 2);
    let last = stderr.trim_end().rsplit('\n').next().unwrap();
    let prefix = format!(
        "slidetable: part 0 of 1: interrupted; the search is kept up to level {saved} in {} \
         (written at ",
        checkpoint.display()
    );
    assert!(last.starts_with(&prefix), "{stderr}");
    assert!(
        last.ends_with(
            " UTC): run the same command again (on as many processes) to resume it from there, \
             or add --restart to start over"
        ),
        "{stderr}"
    );
}

/// `generate --max-depth D` keeps checkpoints, in one process (`-o FILE`) and in parts
/// (`--parts DIR`, one process here; `scripts/mpi.sh` stops and resumes one under mpirun):
/// Ctrl-C in the middle says what is kept and how to resume; a different D is refused, naming
/// the checkpoint; the same command resumes from the checkpoint and writes the bytes of a run
/// never stopped; `--restart` starts over (it was refused with --max-depth before).
#[test]
fn a_within_d_generate_interrupted_resumes_to_the_same_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("parts")).unwrap();
    let path = d.join("within.slt");
    let log = d.join("stderr.txt");
    let depth = "22";
    let command = |args: &[&str]| {
        let mut cmd = process(d);
        cmd.env("SLIDETABLE_CHECKPOINT_SECONDS", "0")
            .args(["generate", "--board", "4x4", "--max-depth"])
            .args(args);
        cmd
    };
    let file_args = [depth, "-o", path.to_str().unwrap()];
    let parts = d.join("parts");
    let parts_args = [depth, "--parts", parts.to_str().unwrap()];
    // Interrupted with Ctrl-C once its checkpoint holds level 14 or more: what it says.
    let interrupt = |args: &[&str], checkpoint: &Path| -> (u32, String) {
        interrupted_at_level(&mut command(args), &log, checkpoint, 14)
    };
    let said = |saved: u32, checkpoint: &Path| {
        format!(
            "slidetable: interrupted; the search is kept up to level {saved} in {} (written at ",
            checkpoint.display()
        )
    };

    let checkpoint = d.join(".within.slt.checkpoint");
    let (saved, stderr) = interrupt(&file_args, &checkpoint);
    assert!(stderr.contains(&said(saved, &checkpoint)), "{stderr}");
    assert!(
        stderr.contains("run the same command again to resume it"),
        "{stderr}"
    );
    assert!(!path.exists());
    // Another D is refused, naming the checkpoint and what it is of; it stays.
    let other = Run::process(&mut command(&["21", "-o", path.to_str().unwrap()]));
    assert_eq!(other.code, Some(1), "{other:#?}");
    assert!(
        other.stderr.contains(&checkpoint.display().to_string())
            && other.stderr.contains("max-depth 22")
            && other.stderr.contains("--restart"),
        "{other:#?}"
    );
    let resumed = Run::process(&mut command(&file_args));
    assert_eq!(resumed.code, Some(0), "{resumed:#?}");
    assert!(
        resumed
            .stderr
            .starts_with(&format!("slidetable: resuming 4x4 from level {saved} (")),
        "{resumed:#?}"
    );
    assert!(!checkpoint.exists());
    let whole = d.join("whole.slt");
    let fresh = Run::process(&mut command(&[
        depth,
        "--restart",
        "-o",
        whole.to_str().unwrap(),
    ]));
    assert_eq!(fresh.code, Some(0), "{fresh:#?}");
    assert!(fs::read(&path).unwrap() == fs::read(&whole).unwrap());

    let checkpoint = parts.join("part-0000-of-0001.slb.checkpoint");
    let (saved, stderr) = interrupt(&parts_args, &checkpoint);
    // A process of a search in parts names its part, as a build of 5x5 groups does.
    let in_part = said(saved, &checkpoint).replacen("slidetable: ", "slidetable: part 0 of 1: ", 1);
    assert!(stderr.contains(&in_part), "{stderr}");
    assert!(
        stderr.contains("run the same command again (on as many processes) to resume it"),
        "{stderr}"
    );
    let resumed = Run::process(&mut command(&parts_args));
    assert_eq!(resumed.code, Some(0), "{resumed:#?}");
    assert!(
        resumed.stderr.contains(&format!(
            "resuming from level {saved}, the last level every part has a checkpoint of"
        )),
        "{resumed:#?}"
    );
    assert!(!checkpoint.exists());
    let merged = Run::of(sandboxed(d).args(["merge", "parts", "-o", "merged.slt"]));
    assert_eq!(merged.code, Some(0), "{merged:#?}");
    assert!(fs::read(d.join("merged.slt")).unwrap() == fs::read(&whole).unwrap());
}
