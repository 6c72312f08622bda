//! What the CLI test binaries share: the `slidetable` binary run in a sandbox, a finished
//! [`Run`], the tables each test binary generates once, and the watching of a process that is
//! still running (its peak memory, a time limit, `generate`'s temporary files).
//!
//! Every command runs with `$SLIDETABLE_TABLE` removed and `$XDG_CACHE_HOME`/`$HOME` pointing
//! into a scratch directory, so no test reads or writes the real cache.

#![allow(dead_code)] // each test binary uses its own part

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Output, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;
use slidetable::core::{parse_layout, parse_path, Board, Layout};
use slidetable::query::Table;

pub(crate) mod layouts;

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_slidetable");
/// The exit code of bad usage.
pub(crate) const USAGE: i32 = 2;
/// The exit code of a bad input line.
pub(crate) const BAD_INPUT: i32 = 65;
/// States of the 3×3 board in each parity class: the entries of one section.
pub(crate) const STATES: u64 = 181_440;

// ---------------------------------------------------------------------------------------------
// The sandbox

/// A scratch directory of this test binary's own (`name`) under Cargo's directory for
/// integration tests (`target/tmp`), one per build profile, reused from run to run so no run
/// leaves a temporary directory behind.
pub(crate) fn scratch_dir(name: &str) -> PathBuf {
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("slidetable-{name}-{profile}"));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary with no default table: no `$SLIDETABLE_TABLE`, and a cache and home inside `dir`.
pub(crate) fn sandboxed(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("slidetable").unwrap();
    cmd.env_remove("SLIDETABLE_TABLE")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir.join("home"))
        .current_dir(dir);
    cmd
}

/// As [`sandboxed`], as a plain process to spawn and watch while it runs.
pub(crate) fn process(dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(BIN);
    cmd.env_remove("SLIDETABLE_TABLE")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir.join("home"))
        .current_dir(dir);
    cmd
}

/// This test binary's scratch directory: its tables, and the cache and home its commands get.
pub(crate) fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch_dir(env!("CARGO_CRATE_NAME")))
}

/// The binary, sandboxed in this test binary's scratch directory.
pub(crate) fn slidetable() -> Command {
    sandboxed(dir())
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The repository's root directory.
pub(crate) fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

// ---------------------------------------------------------------------------------------------
// A finished command

/// What a finished command did. Never a panic, on either stream.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn of(cmd: &mut Command) -> Run {
        Run::finished(cmd.output().unwrap())
    }

    /// What a process that has ended did.
    pub(crate) fn finished(out: Output) -> Run {
        let run = Run {
            code: out.status.code(),
            stdout: text(&out.stdout),
            stderr: text(&out.stderr),
        };
        assert!(
            !run.stderr.contains("panicked") && !run.stdout.contains("panicked"),
            "{run:#?}"
        );
        run
    }

    /// A plain process run to its end with nothing on standard input.
    pub(crate) fn process(cmd: &mut std::process::Command) -> Run {
        Run::finished(cmd.stdin(Stdio::null()).output().unwrap())
    }

    /// A plain process run to its end with `input` on standard input, written from a thread
    /// of its own so a process that stops reading cannot block the test.
    pub(crate) fn process_with(cmd: &mut std::process::Command, input: &[u8]) -> Run {
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
        Run::finished(out)
    }

    /// Exit 0.
    pub(crate) fn success(self) -> Run {
        assert_eq!(self.code, Some(0), "{self:#?}");
        self
    }

    /// Exit 0 and nothing on stderr.
    pub(crate) fn ok(self) -> Run {
        assert_eq!(self.code, Some(0), "{self:#?}");
        assert_eq!(self.stderr, "", "{self:#?}");
        self
    }

    pub(crate) fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The tables, each generated once per test binary

/// A table generated in this test binary's scratch directory, and what `generate` printed.
/// It lives at a fixed path and is rewritten on every run, so no run leaves a stale table
/// behind; `generate` replaces the file by renaming, which keeps concurrent runs safe.
pub(crate) struct Generated {
    pub(crate) path: PathBuf,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

fn generate_once(
    cell: &'static OnceLock<Generated>,
    name: &str,
    args: &[&str],
) -> &'static Generated {
    cell.get_or_init(|| {
        let path = dir().join(name);
        let run = Run::of(slidetable().arg("generate").args(args).arg("-o").arg(&path));
        assert_eq!(run.code, Some(0), "generate {args:?} failed: {run:#?}");
        Generated {
            path,
            stdout: run.stdout,
            stderr: run.stderr,
        }
    })
}

/// The default table (`generate` with no options): the 3×3 board, every goal.
pub(crate) fn generated_3x3() -> &'static Generated {
    static CELL: OnceLock<Generated> = OnceLock::new();
    generate_once(&CELL, "3x3.slt", &[])
}

pub(crate) fn table_3x3() -> &'static Path {
    &generated_3x3().path
}

/// The 2×3 table (LeetCode 773).
pub(crate) fn table_2x3() -> &'static Path {
    static CELL: OnceLock<Generated> = OnceLock::new();
    &generate_once(&CELL, "2x3.slt", &["--board", "2x3"]).path
}

/// The standard 3×3 goal in 2-bit entries, as the 12-cell boards are stored.
pub(crate) fn table_3x3_2bit() -> &'static Path {
    static CELL: OnceLock<Generated> = OnceLock::new();
    &generate_once(
        &CELL,
        "3x3-2bit.slt",
        &["--encoding", "2bit", "--goal", "1 2 3 4 5 6 7 8 0"],
    )
    .path
}

/// A 5-5-5 pattern database of the 15-puzzle for the goal 1 2 … 15 0 (seconds to make, so the
/// 7-8 default stays out of the tests).
pub(crate) fn generated_4x4_555() -> &'static Generated {
    static CELL: OnceLock<Generated> = OnceLock::new();
    generate_once(&CELL, "4x4-555.slt", &["--board", "4x4", "--pdb", "5-5-5"])
}

pub(crate) fn table_4x4_555() -> &'static Path {
    &generated_4x4_555().path
}

/// `slidetable COMMAND --table TABLE ARGS`, reading `input` on standard input.
pub(crate) fn query_table(
    table: &Path,
    command: &str,
    args: &[&str],
    input: impl AsRef<[u8]>,
) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table)
            .args(args)
            .write_stdin(input.as_ref()),
    )
}

/// `slidetable COMMAND --table 3x3.slt ARGS`, reading `input` on standard input.
pub(crate) fn query(command: &str, args: &[&str], input: impl AsRef<[u8]>) -> Run {
    query_table(table_3x3(), command, args, input)
}

/// `slidetable COMMAND --table 3x3.slt ARGS`, with nothing written to standard input.
pub(crate) fn run(command: &str, args: &[&str]) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table_3x3())
            .args(args),
    )
}

/// The table at `path` opens, verifies and is for `board`.
pub(crate) fn assert_sound(path: &Path, board: Board) {
    let table = Table::open(path).unwrap_or_else(|e| panic!("{e}"));
    table.verify().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(table.board(), board);
}

/// Runs `generate --board BOARD EXTRA -o path` in `dir` to the end.
pub(crate) fn generate_into(dir: &Path, board: &str, extra: &[&str], path: &Path) {
    let r = Run::process(
        process(dir)
            .args(["generate", "--board", board])
            .args(extra)
            .arg("-o")
            .arg(path),
    );
    assert_eq!(r.code, Some(0), "{r:#?}");
}

// ---------------------------------------------------------------------------------------------
// A process watched while it runs

/// Sends `signal` (a name: `STOP`, `CONT`, `INT`...) to `child`.
pub(crate) fn send(child: &Child, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal}");
}

/// Stops `child` (SIGSTOP) and waits until every thread of it is stopped, so that its files
/// stay as they are while they are looked at again; `false` if it had ended. A loaded machine
/// can run a process on from a test's look at its files to the signal the test then sends
/// (past a rename, say); a stopped one goes nowhere, and SIGKILL still ends it.
pub(crate) fn freeze(child: &mut Child) -> bool {
    send(child, "STOP");
    let tasks = PathBuf::from(format!("/proc/{}/task", child.id()));
    let began = Instant::now();
    loop {
        // The state is the first field after the command's closing parenthesis.
        let states: Vec<char> = fs::read_dir(&tasks)
            .map(|d| {
                d.flatten()
                    .filter_map(|t| {
                        let stat = fs::read_to_string(t.path().join("stat")).ok()?;
                        stat.rsplit_once(')')?.1.trim_start().chars().next()
                    })
                    .collect()
            })
            .unwrap_or_default();
        if states.is_empty() || states.iter().any(|s| matches!(s, 'Z' | 'X' | 'x')) {
            return false;
        }
        if states.iter().all(|s| matches!(s, 'T' | 't')) {
            return true;
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "not stopped: {states:?}"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

/// Lets a child [`freeze`] stopped go on (SIGCONT).
pub(crate) fn thaw(child: &Child) {
    send(child, "CONT");
}

/// Waits for `child` at most `limit`; kills it and fails if it is still running.
pub(crate) fn wait_at_most(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
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

/// Starts `cmd` with its standard output piped and `input` written to its standard input,
/// which is then closed; standard error is what the caller set.
pub(crate) fn started_with(cmd: &mut std::process::Command, input: &[u8]) -> Child {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child
}

/// Peak resident memory of a running process, in bytes (VmHWM), or `None` once it has exited.
pub(crate) fn peak_rss(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .map(|v| v.trim().parse::<u64>().unwrap() << 10)
}

/// Every file in `dir` but `keep`, by name, sorted.
pub(crate) fn others(dir: &Path, keep: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect();
    names.sort();
    names
}

/// The temporary files `generate` makes beside `name` in `dir` (`.NAME.<random>.tmp`), by
/// name, sorted.
pub(crate) fn temporaries(dir: &Path, name: &str) -> Vec<String> {
    others(dir, name)
        .into_iter()
        .filter(|n| n.starts_with(&format!(".{name}.")) && n.ends_with(".tmp"))
        .collect()
}

/// As [`temporaries`], each as a path in `dir`.
pub(crate) fn temporary_paths(dir: &Path, name: &str) -> Vec<PathBuf> {
    temporaries(dir, name)
        .into_iter()
        .map(|n| dir.join(n))
        .collect()
}

/// Makes a FIFO at `path`.
pub(crate) fn mkfifo(path: &Path) {
    assert!(std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success());
}

/// `/dev/full`, opened for writing: every write fails with "No space left on device".
pub(crate) fn dev_full() -> File {
    File::options().write(true).open("/dev/full").unwrap()
}

// ---------------------------------------------------------------------------------------------
// Reading answers

/// The two 3×3 states 31 moves from the standard goal, the farthest, in sorted order.
pub(crate) const HARDEST: [&str; 2] = ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"];

/// A 3×3 layout from its tokens.
pub(crate) fn eight(s: &str) -> Layout {
    parse_layout(Board::EIGHT, s.as_bytes()).unwrap()
}

/// Every line of `run`'s output as JSON (each must parse).
pub(crate) fn json_lines(run: &Run) -> Vec<Value> {
    run.lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect()
}

/// A layout given as a JSON array of numbers (docs/JSON.md), as tokens: `1 2 3 4 5 6 7 8 0`.
pub(crate) fn tokens(v: &Value) -> String {
    let tiles: Vec<String> = v
        .as_array()
        .unwrap_or_else(|| panic!("not an array of tiles: {v}"))
        .iter()
        .map(|t| t.as_u64().unwrap().to_string())
        .collect();
    tiles.join(" ")
}

/// Parses CSV output: the header and the rows (no field here needs quoting).
pub(crate) fn csv(run: &Run) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = run.stdout.lines();
    let header = lines
        .next()
        .unwrap_or_else(|| panic!("no header: {run:#?}"))
        .split(',')
        .map(str::to_string)
        .collect::<Vec<_>>();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
        .collect();
    for row in &rows {
        assert_eq!(row.len(), header.len(), "{row:?} under {header:?}");
    }
    (header, rows)
}

/// Checks `path` is a legal move string from the 3×3 `puzzle` that ends on `goal`, `len`
/// moves long.
pub(crate) fn assert_path(puzzle: &str, path: &str, goal: &str, len: usize) {
    let moves = parse_path(path).unwrap_or_else(|| panic!("'{path}' is not a path"));
    assert_eq!(moves.len(), len, "{puzzle}: {path}");
    assert_eq!(
        eight(puzzle).after(&moves),
        Some(eight(goal)),
        "{puzzle}: '{path}' does not reach {goal}"
    );
}

/// `command` (a search with `--stats`, whose statistics of each puzzle go to standard error,
/// and `--summary summary`) started on `input` (line 1 a move from the goal, line 2 far, line
/// 3 anything) and sent Ctrl-C once line 1's statistics are out: it must stop the search of
/// line 2, write line 1's answer and line 2's `unknown`, say why, count both in the summary
/// and exit 130.
pub(crate) fn assert_ctrl_c_keeps_the_answers(
    mut command: std::process::Command,
    input: &str,
    summary: &Path,
) {
    use std::io::{BufRead, BufReader};
    let mut child = started_with(command.stderr(Stdio::piped()), input.as_bytes());
    let (lines_tx, lines_rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let _ = lines_tx.send(line.unwrap());
        }
    });
    let first = lines_rx.recv_timeout(Duration::from_secs(120)).unwrap();
    assert!(first.contains("line 1:"), "{first}");
    thread::sleep(Duration::from_millis(300));
    send(&child, "INT");
    let status = wait_at_most(&mut child, Duration::from_secs(60), "a search after Ctrl-C");
    let stdout = stdout_of(&mut child);
    reader.join().unwrap();
    let mut said = vec![first];
    said.extend(lines_rx.try_iter());
    assert_eq!(status.code(), Some(130), "{said:?}");
    assert_eq!(stdout, "l\nunknown\n", "{said:?}");
    assert!(
        said.iter().any(|l| l
            .contains("line 2: search stopped at its request to stop after expanding")
            && l.ends_with(" moves (Ctrl-C)")),
        "{said:?}"
    );
    let written: Value = serde_json::from_slice(&fs::read(summary).unwrap()).unwrap();
    let s = &written["summary"];
    assert_eq!(
        (
            s["puzzles"].as_u64(),
            s["solved"].as_u64(),
            s["unknown"].as_u64()
        ),
        (Some(2), Some(1), Some(1)),
        "{written}"
    );
}

/// What a child that has ended wrote to its piped standard output.
pub(crate) fn stdout_of(child: &mut Child) -> String {
    use std::io::Read;
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    stdout
}
