//! The binary under a hostile or careless user: a table rewritten in place under a running
//! batch, a payload of impossible distances, judge input that never ends, absurd limits, an
//! unwritable standard error, a FIFO where a table belongs, weighted tables asked for moves,
//! signals while a table is written, a default table for another board or cost, concurrent
//! first use, a search that would eat the machine, and messages that must blame the right
//! thing. One test (or a few) per defect; each failed before its fix.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_slidetable");
const BAD_INPUT: i32 = 65;

/// The binary with no default table, its cache and home inside `dir`.
fn slidetable(dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("SLIDETABLE_TABLE")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir.join("home"))
        .current_dir(dir);
    cmd
}

/// What a finished command did; never a panic.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(cmd: &mut Command) -> Run {
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    finished(out)
}

fn finished(out: std::process::Output) -> Run {
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "{run:#?}");
    run
}

/// Runs `cmd` with `input` on standard input.
fn run_with(cmd: &mut Command, input: &[u8]) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    finished(out)
}

/// Waits for `child` at most `limit`; kills it and fails if it is still running.
fn wait_at_most(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if began.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what}: still running after {limit:?}");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `generate --board BOARD -o path` to the end.
fn generate(dir: &Path, board: &str, extra: &[&str], path: &Path) {
    let r = run(slidetable(dir)
        .args(["generate", "--board", board])
        .args(extra)
        .arg("-o")
        .arg(path));
    assert_eq!(r.code, Some(0), "{r:#?}");
}

/// Peak resident memory of a running process, in bytes (VmHWM), or `None` once it has exited.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .map(|v| v.trim().parse::<u64>().unwrap() << 10)
}

/// Files in `dir` whose names start with `.NAME.` and end with `.tmp`: `generate`'s
/// temporary files for NAME.
fn temporaries(dir: &Path, name: &str) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!(".{name}.")) && n.ends_with(".tmp"))
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// 1. A table rewritten in place while a batch reads it

/// Starts `path --table T INPUT`, waits for its first answers, then rewrites T in place as
/// `cp` does (truncate, a pause, the same bytes again) while the batch is still running.
/// Returns the exit status, stderr, and the answers written.
fn rewrite_under_a_batch(dir: &Path, table: &Path, input: &Path) -> (ExitStatus, String, usize) {
    let bytes = fs::read(table).unwrap();
    let mut child = slidetable(dir)
        .args(["path", "--table"])
        .arg(table)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::with_capacity(1 << 16, child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let errors = thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    // The first answer: the table is open and in use.
    let mut first = Vec::new();
    stdout.read_until(b'\n', &mut first).unwrap();
    assert!(!first.is_empty(), "no answer at all");
    let counter = thread::spawn(move || 1 + stdout.split(b'\n').count());
    assert!(
        child.try_wait().unwrap().is_none(),
        "the batch ended before the table was rewritten: make the input longer"
    );
    // `cp`: O_TRUNC, then the bytes.
    let mut file = OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(table)
        .unwrap();
    thread::sleep(Duration::from_millis(300));
    file.write_all(&bytes).unwrap();
    drop(file);
    let status = wait_at_most(&mut child, Duration::from_secs(120), "the batch");
    (status, errors.join().unwrap(), counter.join().unwrap())
}

/// A 1.6 MB table is read into memory: rewriting its file under a running batch changes
/// nothing, and every answer is written.
#[test]
fn a_small_table_rewritten_in_place_under_a_batch_changes_nothing() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("3x3.slt");
    generate(dir.path(), "3x3", &[], &table);
    let lines = 2_000_000;
    let input = dir.path().join("big.txt");
    fs::write(&input, "8 6 7 2 5 4 3 0 1\n".repeat(lines)).unwrap();
    let (status, stderr, answers) = rewrite_under_a_batch(dir.path(), &table, &input);
    assert_eq!(status.code(), Some(0), "{status:?}: {stderr}");
    assert_eq!(stderr, "");
    assert_eq!(answers, lines);
}

/// A mapped table (the 18 MB 2x5 one) truncated under a running batch: the batch stops with
/// `table T changed while in use` and exit 1 — never a silent death by SIGBUS (exit 135) and
/// never a short answer passed off as complete.
#[test]
fn a_mapped_table_rewritten_in_place_under_a_batch_is_reported() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("2x5.slt");
    generate(dir.path(), "2x5", &[], &table);
    let lines = 3_000_000;
    let input = dir.path().join("big.txt");
    fs::write(
        &input,
        "9 8 7 6 5 4 3 2 1 0\n1 0 3 4 5 6 7 8 9 2\n".repeat(lines / 2),
    )
    .unwrap();
    let (status, stderr, answers) = rewrite_under_a_batch(dir.path(), &table, &input);
    assert!(status.code().is_some(), "killed by a signal: {status:?}");
    if status.code() == Some(0) {
        // Every page it needed was read before the truncation: then every answer is there.
        assert_eq!(answers, lines, "{stderr}");
    } else {
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "slidetable: table {} changed while in use (replace tables with `mv` or \
                 `slidetable generate`, never by writing over them)\n",
                table.display()
            )
        );
        assert!(answers < lines);
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Impossible distances

/// A 3x3 table whose payload is all `0xDC` (distance 55, on a board whose farthest state is
/// 31 moves away): every answer is refused as corrupt, in text and JSON, and `hardest`, which
/// finds none of the states the header promises, says so.
#[test]
fn distances_beyond_the_maximum_are_corrupt() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("bad.slt");
    generate(dir.path(), "3x3", &[], &table);
    let mut bytes = fs::read(&table).unwrap();
    let header_len = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    bytes[header_len..].fill(0xDC);
    fs::write(&table, &bytes).unwrap();

    for json in [false, true] {
        let mut cmd = slidetable(dir.path());
        cmd.args(["distance", "--table"]).arg(&table);
        if json {
            cmd.arg("--json");
        }
        let r = run_with(&mut cmd, b"2 3 4 1 5 x 7 6 8\n");
        assert_eq!(r.code, Some(1), "{r:#?}");
        assert_eq!(r.stdout, "", "{r:#?}");
        assert!(r.stderr.contains("corrupt"), "{r:#?}");
    }
    let r = run(slidetable(dir.path())
        .args(["hardest", "--table"])
        .arg(&table));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stderr.contains("corrupt"), "{r:#?}");
}

// ---------------------------------------------------------------------------------------------
// 3. Judge input in constant memory

const JUDGES: [&str; 9] = [
    "poj",
    "hdu",
    "acwing845",
    "hiho",
    "pair",
    "luogu",
    "hdu3567",
    "uva10085",
    "leetcode773",
];

/// Writes `total` bytes of `block`s to a `judge FORMAT` run, measuring its peak memory just
/// before the input ends (`None` if it had already stopped reading and exited).
fn stream_judge(
    dir: &Path,
    format: &str,
    first: &[u8],
    block: &[u8],
    repeats: usize,
) -> (Option<u64>, Option<i32>, String, usize) {
    let mut child = slidetable(dir)
        .args(["judge", format])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let counter = thread::spawn(move || stdout.split(b'\n').count());
    let errors = thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut written = stdin.write_all(first).is_ok();
    for _ in 0..repeats {
        if !written || stdin.write_all(block).is_err() {
            written = false;
            break;
        }
    }
    let _ = stdin.flush();
    let peak = if written { peak_rss(child.id()) } else { None };
    drop(stdin);
    let status = wait_at_most(&mut child, Duration::from_secs(120), format);
    let stderr = errors.join().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (peak, status.code(), stderr, counter.join().unwrap())
}

/// 48 MB with no line end, to every format: one error naming line 1 and the line limit, exit
/// 65, in memory that does not grow with the input (the judges used to read it all first).
#[test]
fn every_judge_refuses_an_endless_line_in_constant_memory() {
    let dir = TempDir::new().unwrap();
    // The default tables, made once.
    for board in ["3x3", "2x3"] {
        let r = run(slidetable(dir.path()).args(["info", "--board", board]));
        assert_eq!(r.code, Some(0), "{r:#?}");
    }
    let block = vec![b'7'; 1 << 20];
    for format in JUDGES {
        let (peak, code, stderr, _) = stream_judge(dir.path(), format, b"", &block, 48);
        assert_eq!(code, Some(BAD_INPUT), "{format}: {stderr}");
        assert!(
            stderr.contains(": line 1: ") && stderr.contains("at most 65536 are read"),
            "{format}: {stderr}"
        );
        if let Some(peak) = peak {
            assert!(peak < 16 << 20, "{format}: peak RSS {peak} bytes");
        }
    }
}

/// `judge hdu` over 3,000,000 puzzle lines: one answer per line, and a peak resident size
/// that does not grow with the input.
#[test]
fn judge_hdu_streams_millions_of_lines_in_constant_memory() {
    let dir = TempDir::new().unwrap();
    let r = run(slidetable(dir.path()).args(["info", "--board", "3x3"]));
    assert_eq!(r.code, Some(0), "{r:#?}");
    let block = "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n".repeat(500);
    let (peak, code, stderr, answers) =
        stream_judge(dir.path(), "hdu", b"", block.as_bytes(), 3_000);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(answers, 3_000_000);
    let peak = peak.expect("still running at the end of its input");
    assert!(peak < 16 << 20, "peak RSS {peak} bytes");
}

/// Counts announced first, cases streamed: `hdu3567` with 2,000,000 pairs answers each.
#[test]
fn judge_with_a_count_streams_its_cases() {
    let dir = TempDir::new().unwrap();
    let r = run(slidetable(dir.path()).args(["info", "--board", "3x3"]));
    assert_eq!(r.code, Some(0), "{r:#?}");
    let block = "12X453786\n12345678X\n".repeat(1000);
    let (peak, code, stderr, answers) =
        stream_judge(dir.path(), "hdu3567", b"2000000\n", block.as_bytes(), 2000);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(answers, 4_000_000);
    let peak = peak.expect("still running at the end of its input");
    assert!(peak < 16 << 20, "peak RSS {peak} bytes");
}

// ---------------------------------------------------------------------------------------------
// 4. search --timeout

#[test]
fn search_timeout_refuses_what_is_not_a_duration_and_takes_huge_ones_as_no_limit() {
    let dir = TempDir::new().unwrap();
    for bad in ["-1", "NaN", "inf", "-inf", "-0.5"] {
        let r = run_with(
            slidetable(dir.path()).args(["search", "--method", "bfs", &format!("--timeout={bad}")]),
            b"2 3 4 1 5 x 7 6 8\n",
        );
        assert_eq!(r.code, Some(2), "--timeout {bad}: {r:#?}");
        assert!(r.stderr.contains("--timeout"), "{r:#?}");
        assert_eq!(r.stdout, "");
    }
    for huge in ["1e20", "18446744073709551616", "1e300"] {
        let r = run_with(
            slidetable(dir.path()).args(["search", "--method", "bfs", "--timeout", huge]),
            b"2 3 4 1 5 x 7 6 8\n",
        );
        assert_eq!(r.code, Some(0), "--timeout {huge}: {r:#?}");
        assert_eq!(r.stdout, "ullddrurdllurdruldr\n", "{r:#?}");
    }
}

// ---------------------------------------------------------------------------------------------
// 5. An unwritable standard error

/// Standard error on /dev/full: a diagnostic that cannot be written never stops the answers,
/// and the exit code still tells.
#[test]
fn an_unwritable_stderr_loses_no_answer() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("3x3.slt");
    generate(dir.path(), "3x3", &[], &table);
    let input = dir.path().join("mixed.txt");
    fs::write(&input, "1 2 3 4 5 6 7 8 0\n1 2 3\n".repeat(50_000)).unwrap();
    let full = || File::options().write(true).open("/dev/full").unwrap();
    let out = slidetable(dir.path())
        .args(["distance", "--keep-going", "--table"])
        .arg(&table)
        .arg(&input)
        .stdin(Stdio::null())
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(BAD_INPUT), "{out:?}");
    let answers = String::from_utf8(out.stdout).unwrap();
    assert_eq!(answers, "0\ninvalid\n".repeat(50_000));

    // A first use that generates the table says so on stderr: unwritable, it is still
    // answered.
    let out = slidetable(dir.path())
        .arg("distance")
        .stdin(File::open(&input).unwrap())
        .stderr(full())
        .arg("--keep-going")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(BAD_INPUT), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "0\ninvalid\n".repeat(50_000)
    );
    let healthy = dir.path().join("healthy");
    fs::create_dir(&healthy).unwrap();
    let mut child = slidetable(&healthy)
        .args(["path"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(full())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"2 3 4 1 5 x 7 6 8\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, b"ullddrurdllurrdlurd\n");
}

// ---------------------------------------------------------------------------------------------
// 6. A FIFO as the table

#[test]
fn a_fifo_as_the_table_is_refused_at_once() {
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let message = format!(
        "slidetable: table {}: is a FIFO, not a table file\n",
        fifo.display()
    );
    let cases: [(&str, Vec<&str>, bool); 4] = [
        ("--table", vec!["distance", "--table"], true),
        ("info", vec!["info"], true),
        ("stats", vec!["stats", "--table"], true),
        ("$SLIDETABLE_TABLE", vec!["distance"], false),
    ];
    for (what, args, named) in cases {
        let mut cmd = slidetable(dir.path());
        cmd.args(&args);
        if named {
            cmd.arg(&fifo);
        } else {
            cmd.env("SLIDETABLE_TABLE", &fifo);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_at_most(&mut child, Duration::from_secs(20), what);
        let r = finished(child.wait_with_output().unwrap());
        assert_eq!(r.code, Some(1), "{what}: {r:#?}");
        assert_eq!(r.stderr, message, "{what}");
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Weighted tables: cost and moves

/// On a `--cost tile` table every command says `cost` for what a path costs and `moves` for
/// how many moves it has, in text and JSON; `hardest` prints the cheapest cost of the states
/// `stats` calls the most expensive.
#[test]
fn weighted_tables_say_cost_and_moves() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("tile.slt");
    generate(dir.path(), "2x3", &["--cost", "tile"], &table);
    let with = |args: &[&str], input: &[u8]| -> Run {
        let r = run_with(
            slidetable(dir.path()).args(args).arg("--table").arg(&table),
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
    assert_eq!(v["max_distance"], max);
    assert!(v["costs"].is_array(), "{json}");
    assert!(v.get("distances").is_none(), "{json}");

    // A unit table keeps its words: distances in moves.
    let unit = dir.path().join("unit.slt");
    generate(dir.path(), "2x3", &[], &unit);
    let r = run_with(
        slidetable(dir.path())
            .args(["path", "--json", "--table"])
            .arg(&unit),
        puzzle,
    );
    assert_eq!(
        r.stdout,
        "{\"puzzle\":[4,1,2,5,0,3],\"distance\":5,\"path\":\"lurrd\",\"solvable\":true}\n"
    );
}

// ---------------------------------------------------------------------------------------------
// 8. Signals while a table is written

/// Sends `signal` to a `generate --board 2x5` the moment its temporary file appears.
fn signal_while_writing(dir: &Path, signal: &str) -> ExitStatus {
    let out = dir.join("t.slt");
    let mut child = slidetable(dir)
        .args(["generate", "--board", "2x5", "-o"])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while temporaries(dir, "t.slt").is_empty() {
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
                let r = run(slidetable(dir.path())
                    .args(["info", "--verify"])
                    .arg(&table));
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

/// A temporary file of ours left by a process that is gone (SIGKILL cannot be caught) is
/// removed by the next `generate` into that directory; another file is left alone.
#[test]
fn generate_removes_stale_temporary_files_of_its_own() {
    let dir = TempDir::new().unwrap();
    let status = signal_while_writing(dir.path(), "KILL");
    assert_eq!(status.code(), None);
    let stale = temporaries(dir.path(), "t.slt");
    assert_eq!(stale.len(), 1, "{stale:?}");
    fs::write(dir.path().join(".notes.txt.tmp"), "mine").unwrap();
    generate(dir.path(), "2x2", &[], &dir.path().join("t.slt"));
    assert_eq!(temporaries(dir.path(), "t.slt"), Vec::<String>::new());
    assert!(dir.path().join(".notes.txt.tmp").exists());
}

// ---------------------------------------------------------------------------------------------
// 9. A default table of another board or cost

#[test]
fn a_default_table_for_another_board_or_cost_is_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let small = d.join("2x3.slt");
    let tile = d.join("tile.slt");
    generate(d, "2x3", &[], &small);
    generate(d, "3x3", &["--cost", "tile"], &tile);
    let puzzle = b"2 3 4 1 5 x 7 6 8\n";

    let r = run_with(
        slidetable(d)
            .arg("distance")
            .env("SLIDETABLE_TABLE", &small),
        puzzle,
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        format!(
            "slidetable: table {} (from $SLIDETABLE_TABLE) is for 2x3 boards, but the default \
             table must be for 3x3 boards with unit costs\n",
            small.display()
        )
    );
    let r = run_with(
        slidetable(d).arg("distance").env("SLIDETABLE_TABLE", &tile),
        puzzle,
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        format!(
            "slidetable: table {} (from $SLIDETABLE_TABLE) holds tile costs, but the default \
             table must be for 3x3 boards with unit costs\n",
            tile.display()
        )
    );
    // A file of another board where the cache's 3x3 table belongs.
    let cached = d.join("cache/slidetable/3x3.slt");
    fs::create_dir_all(cached.parent().unwrap()).unwrap();
    fs::copy(&small, &cached).unwrap();
    let r = run_with(slidetable(d).arg("distance"), puzzle);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        format!(
            "slidetable: table {} (the cache's) is for 2x3 boards, but the default table must \
             be for 3x3 boards with unit costs\n",
            cached.display()
        )
    );
    // Named with --table, a table is whatever it is.
    let r = run_with(
        slidetable(d).arg("distance").arg("--table").arg(&tile),
        puzzle,
    );
    assert_eq!(r.code, Some(0), "{r:#?}");
}

// ---------------------------------------------------------------------------------------------
// 10. Concurrent first use

/// Four queries start at once on an empty cache: one generates the table, the others wait
/// for it, and all answer.
#[test]
fn concurrent_first_use_generates_the_table_once() {
    let dir = TempDir::new().unwrap();
    let children: Vec<Child> = (0..4)
        .map(|_| {
            let mut child = slidetable(dir.path())
                .args(["distance", "--board", "2x5"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"1 2 3 4 5 6 7 8 0 9\n")
                .unwrap();
            child
        })
        .collect();
    let mut generated = 0;
    for child in children {
        let r = finished(child.wait_with_output().unwrap());
        assert_eq!(r.code, Some(0), "{r:#?}");
        assert_eq!(r.stdout, "1\n");
        if r.stderr.contains("generating it once") {
            generated += 1;
        }
    }
    assert_eq!(generated, 1, "the table was generated {generated} times");
    let cache = dir.path().join("cache/slidetable");
    let names: Vec<String> = fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert_eq!(names, Vec::<String>::new());
}

// ---------------------------------------------------------------------------------------------
// 11. A search that would eat the machine

/// `search --method bfs|dijkstra` on a 15-puzzle 28 moves out stops at its default memory
/// bound with a clear message, instead of growing until the machine runs out (run under a
/// 4 GB address-space limit, so the old behaviour fails here rather than on the machine).
#[test]
fn uninformed_search_on_the_15_puzzle_stops_at_a_memory_bound() {
    let dir = TempDir::new().unwrap();
    for method in ["bfs", "dijkstra"] {
        let mut child = Command::new("bash")
            .args([
                "-c",
                r#"ulimit -v 4000000; exec "$0" search --method "$1" --board 4x4"#,
                BIN,
                method,
            ])
            .env_remove("SLIDETABLE_TABLE")
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"5 1 4 6 10 3 2 8 14 11 13 12 9 x 7 15\n")
            .unwrap();
        wait_at_most(&mut child, Duration::from_secs(300), method);
        let r = finished(child.wait_with_output().unwrap());
        assert_eq!(r.code, Some(1), "{method}: {r:#?}");
        assert_eq!(r.stdout, "unknown\n", "{method}");
        assert!(
            r.stderr.contains("memory") && r.stderr.contains("--max-memory"),
            "{method}: {r:#?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 12. Messages that blame the right thing

/// A write error on standard output is the output's, not the table's.
#[test]
fn a_full_stdout_is_named_as_standard_output() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("3x3.slt");
    generate(dir.path(), "3x3", &[], &table);
    let input = dir.path().join("in.txt");
    fs::write(&input, "2 3 4 1 5 x 7 6 8\n".repeat(100_000)).unwrap();
    for command in ["distance", "path"] {
        let out = slidetable(dir.path())
            .args([command, "--table"])
            .arg(&table)
            .arg(&input)
            .stdout(File::options().write(true).open("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert_eq!(
            stderr,
            "slidetable: cannot write standard output: No space left on device (os error 28)\n"
        );
    }
}

/// Devices as tables: named for what they are, not for their size or a read error.
#[test]
fn a_device_as_the_table_is_named_as_such() {
    let dir = TempDir::new().unwrap();
    for (path, kind) in [
        ("/dev/zero", "a character device"),
        ("/dev/null", "a character device"),
    ] {
        let r = run(slidetable(dir.path()).args(["info", path]));
        assert_eq!(r.code, Some(1), "{r:#?}");
        assert_eq!(
            r.stderr,
            format!("slidetable: table {path}: is {kind}, not a table file\n")
        );
    }
    // /dev/stdin from a pipe is a FIFO.
    let r = run_with(
        slidetable(dir.path()).args(["distance", "--table", "/dev/stdin"]),
        b"",
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: table /dev/stdin: is a FIFO, not a table file\n"
    );
}

/// `generate -o` errors name what the user named, never the temporary file.
#[test]
fn generate_errors_name_the_output_not_the_temporary_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let r = run(slidetable(d).args(["generate", "--board", "2x2", "-o", "/proc/version"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr
            .starts_with("slidetable: cannot write /proc/version: "),
        "{r:#?}"
    );
    assert!(!r.stderr.contains(".tmp"), "{r:#?}");

    std::os::unix::fs::symlink("nowhere/x.slt", d.join("dangling.slt")).unwrap();
    let r = run(slidetable(d).args(["generate", "--board", "2x2", "-o", "dangling.slt"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: cannot write dangling.slt: it links to nowhere/x.slt, whose directory \
         does not exist\n"
    );

    let r = run(slidetable(d).args(["generate", "--board", "2x2", "-o", "a/b/c.slt"]));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: cannot write a/b/c.slt: directory a/b does not exist\n"
    );
    assert!(!d.join("a").exists());
}

/// An end of input the judge did not expect is on the input's last line, however many blank
/// lines come before it.
#[test]
fn judge_end_of_input_names_the_last_line() {
    let dir = TempDir::new().unwrap();
    let r = run(slidetable(dir.path()).args(["info", "--board", "3x3"]));
    assert_eq!(r.code, Some(0), "{r:#?}");
    for (format, input, want) in [
        (
            "hdu3567",
            "3\n\n\n\n\n",
            "line 5: expected the start of case 1 of 3, found the end of the input",
        ),
        (
            "hdu3567",
            "2\n12X453786\n\n\n\n",
            "line 5: expected the goal of case 1 of 2, found the end of the input",
        ),
        (
            "hiho",
            "3\n\n\n\n\n\n\n",
            "line 7: expected puzzle 1 of 3 (row 1 of 3), found the end of the input",
        ),
    ] {
        let r = run_with(
            slidetable(dir.path()).args(["judge", format]),
            input.as_bytes(),
        );
        assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
        assert_eq!(
            r.stderr,
            format!("slidetable: judge {format}: <stdin>: {want}\n")
        );
    }
}

/// Board limits in one wording wherever a board is too large.
#[test]
fn board_limits_are_worded_one_way() {
    let dir = TempDir::new().unwrap();
    let r = run(slidetable(dir.path()).args(["generate", "--board", "4x5"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("a 4x5 board has 20 cells; boards go up to 16 cells"),
        "{r:#?}"
    );
    let r = run(slidetable(dir.path()).args(["generate", "--board", "3x5"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains(
            "a 3x5 board has 15 cells; tables go up to 12 cells (and 4x4, by pattern databases)"
        ),
        "{r:#?}"
    );
    let r = run(slidetable(dir.path()).args(["search", "--method", "bfs", "--board", "5x5"]));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("a 5x5 board has 25 cells; boards go up to 16 cells"),
        "{r:#?}"
    );
}

/// A replaced table keeps its owner and group as well as its mode.
#[test]
fn a_replaced_table_keeps_its_owner() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.slt");
    generate(dir.path(), "2x2", &[], &path);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let is_root = fs::metadata("/proc/self").unwrap().uid() == 0;
    if !is_root {
        eprintln!("not root: cannot give the table another owner; checking the mode only");
    } else {
        std::os::unix::fs::chown(&path, Some(4242), Some(4343)).unwrap();
    }
    let before = fs::metadata(&path).unwrap();
    generate(dir.path(), "2x3", &[], &path);
    let after = fs::metadata(&path).unwrap();
    assert_eq!(after.mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
}
