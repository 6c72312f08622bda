//! The binary under the things that go wrong in real use: `generate` killed midway or out of
//! disk space, a table replaced while a query has it mapped, and input that does not end.
//!
//! Elsewhere: bit flips and truncations of table files, `Table` shared by eight threads and a
//! mapping surviving a rewrite through the library (`slidetable-query/tests/files.rs`,
//! `slidetable-gen/tests/generate.rs`); NUL bytes, invalid UTF-8, CRLF line ends and the line
//! limit (`tests/cli.rs`); the parsers and the table reader over arbitrary bytes (the property
//! tests beside each crate, and `fuzz/`).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use slidetable_core::{parse_layout, Board};
use slidetable_query::Table;
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_slidetable");

/// The binary with no default table, its cache and home inside `dir`.
fn slidetable(dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("SLIDETABLE_TABLE")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir.join("home"))
        .current_dir(dir);
    cmd
}

/// Runs `generate --board BOARD -o path` to the end.
fn generate(dir: &Path, board: &str, path: &Path) {
    let out = slidetable(dir)
        .args(["generate", "--board", board, "-o"])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// Every file in `dir` but `keep`, by name.
fn others(dir: &Path, keep: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect();
    names.sort();
    names
}

/// The temporary files `generate` makes beside `name`: `.NAME.<random>.tmp`.
fn temporaries(dir: &Path, name: &str) -> Vec<PathBuf> {
    others(dir, name)
        .into_iter()
        .filter(|n| n.starts_with(&format!(".{name}.")) && n.ends_with(".tmp"))
        .map(|n| dir.join(n))
        .collect()
}

/// The table at `path` opens, verifies and is for `board`.
fn assert_sound(path: &Path, board: Board) {
    let table = Table::open(path).unwrap_or_else(|e| panic!("{e}"));
    table.verify().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(table.board(), board);
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
    generate(dir.path(), "3x3", &path);
    let old = fs::read(&path).unwrap();

    // 2x5: ten sections of 1,814,400 states, 18 MB, about half a second on two cores.
    let start = |dir: &Path| -> Child {
        slidetable(dir)
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
        /// Once a new temporary file holds at least this many bytes.
        Writing(u64),
        Never,
    }
    let plan = [
        Kill::After(Duration::from_millis(10)),
        Kill::Writing(0),
        Kill::After(Duration::from_millis(150)),
        Kill::Writing(1),
        Kill::After(Duration::from_millis(400)),
        Kill::Never,
    ];
    let (mut killed_searching, mut killed_writing) = (0, 0);
    for kill in plan {
        // The earlier runs' files: the next `generate` removes them (nobody holds them), so
        // a new file is one not among these.
        let before = temporaries(dir.path(), name);
        let mut child = start(dir.path());
        let began = Instant::now();
        let writing = loop {
            if child.try_wait().unwrap().is_some() {
                break None;
            }
            let tmps: Vec<PathBuf> = temporaries(dir.path(), name)
                .into_iter()
                .filter(|t| !before.contains(t))
                .collect();
            let now = !tmps.is_empty();
            let due = match kill {
                Kill::After(delay) => began.elapsed() >= delay,
                Kill::Writing(bytes) => {
                    now && tmps
                        .iter()
                        .any(|t| fs::metadata(t).is_ok_and(|m| m.len() >= bytes))
                }
                Kill::Never => false,
            };
            if due {
                child.kill().unwrap();
                break Some(now);
            }
            thread::sleep(Duration::from_micros(200));
        };
        let status = child.wait().unwrap();
        match writing {
            // Finished before its kill (a fast machine): the new table is in place.
            None => {
                assert!(status.success(), "{kill:?}: generate failed: {status:?}");
                break;
            }
            Some(true) => killed_writing += 1,
            Some(false) => killed_searching += 1,
        }
        assert_eq!(fs::read(&path).unwrap(), old, "{kill:?}: the table changed");
        assert_sound(&path, Board::EIGHT);
        for tmp in temporaries(dir.path(), name) {
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
    let leftovers = temporaries(dir.path(), name).len();
    assert_eq!(others(dir.path(), name).len(), leftovers);
    assert!(leftovers <= killed_writing);
}

/// A full disk, made by a file-size limit (`ulimit -f`; SIGXFSZ ignored, so writes fail with
/// EFBIG just as they fail with ENOSPC): a clear error, exit 1, the old table untouched, and
/// no temporary file left behind.
#[test]
fn a_full_disk_fails_cleanly_and_leaves_no_temporary_file() {
    let dir = TempDir::new().unwrap();
    let name = "table.slt";
    let path = dir.path().join(name);
    generate(dir.path(), "2x3", &path);
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

/// `generate -o` never replaces what is not a table file: a directory or a FIFO (as a device
/// like /dev/null would be) is refused with exit 1 and left as it was.
#[test]
fn generate_replaces_only_regular_files() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("sub")).unwrap();
    assert!(Command::new("mkfifo")
        .arg(d.join("fifo"))
        .status()
        .unwrap()
        .success());
    for (name, kind) in [("sub", "a directory"), ("fifo", "a FIFO")] {
        let out = slidetable(d)
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

// ---------------------------------------------------------------------------------------------
// The mmap contract

/// The process-level form of the contract: a `distance` run maps the table (18 MB, so mapped
/// rather than read into memory), `generate`
/// replaces the file under it (with a table for another board), and the running query still
/// answers every line from the old table; the next run sees the new one.
#[test]
fn a_running_query_keeps_its_table_while_generate_replaces_it() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("table.slt");
    // 18 MB: above the size below which tables are read into memory instead of mapped.
    generate(dir.path(), "2x5", &path);
    let table = Table::open(&path).unwrap();
    let board = Board::new(2, 5).unwrap();
    let puzzles = [
        "1 2 3 4 5 6 7 8 0 9",
        "9 8 7 6 5 4 3 2 1 0",
        "1 2 3 4 5 6 7 9 8 0",
    ];
    let want: String = puzzles
        .iter()
        .map(
            |p| match table.distance(&parse_layout(board, p.as_bytes()).unwrap()) {
                Ok(Some(d)) => format!("{d}\n"),
                _ => "-1\n".to_string(),
            },
        )
        .collect();
    drop(table);

    let mut query = slidetable(dir.path())
        .args(["distance", "--table"])
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = query.stdin.take().unwrap();
    stdin
        .write_all(format!("{}\n", puzzles[0]).as_bytes())
        .unwrap();
    // Wait until the query has the table mapped.
    let maps = format!("/proc/{}/maps", query.id());
    let mapped = || {
        fs::read_to_string(&maps)
            .unwrap_or_default()
            .lines()
            .any(|l| l.contains(path.to_str().unwrap()))
    };
    let began = Instant::now();
    while !mapped() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "the table was never mapped"
        );
        thread::sleep(Duration::from_millis(1));
    }

    generate(dir.path(), "2x3", &path);
    assert_sound(&path, Board::new(2, 3).unwrap());
    let deleted = fs::read_to_string(&maps).unwrap();
    assert!(deleted.contains(" (deleted)"), "{deleted}");

    for p in &puzzles[1..] {
        stdin.write_all(format!("{p}\n").as_bytes()).unwrap();
    }
    drop(stdin);
    let out = query.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
}

// ---------------------------------------------------------------------------------------------
// Endless input

/// Peak resident memory of a running process, in bytes (VmHWM).
fn peak_rss(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .map(|v| v.trim().parse().unwrap())
        .expect("VmHWM in /proc/PID/status");
    kb << 10
}

/// Lines streamed into a `distance` run from this process, its answers read and checked as
/// they come; returns the run's peak memory, read just before its input ends.
fn stream_distance(
    dir: &Path,
    table: &Path,
    block: &[u8],
    repeats: usize,
    check: impl FnOnce(BufReader<std::process::ChildStdout>) + Send,
) -> (u64, std::process::ExitStatus, String) {
    let mut child = slidetable(dir)
        .args(["distance", "--keep-going", "--table"])
        .arg(table)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::with_capacity(1 << 16, child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    thread::scope(|scope| {
        let reader = scope.spawn(move || check(stdout));
        let errors = scope.spawn(move || {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut stderr, &mut s).unwrap();
            s
        });
        let mut stdin = child.stdin.take().unwrap();
        for _ in 0..repeats {
            stdin.write_all(block).unwrap();
        }
        stdin.flush().unwrap();
        let peak = peak_rss(child.id());
        drop(stdin);
        reader.join().unwrap();
        let status = child.wait().unwrap();
        (peak, status, errors.join().unwrap())
    })
}

/// `distance` over 10,000,000 lines in constant memory: exactly one answer per line, each
/// right, and a peak resident size within a few MB of the table's.
#[test]
fn ten_million_lines_stream_in_constant_memory() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("table.slt");
    generate(dir.path(), "3x3", &path);
    let table_size = fs::metadata(&path).unwrap().len();
    let table = Table::open(&path).unwrap();

    // Eight puzzles in several spellings and line ends, answers from the library.
    let puzzles: [&[u8]; 8] = [
        b"2 3 4 1 5 x 7 6 8\n",
        b"8 6 7 2 5 4 3 0 1\r\n",
        b"123456780\n",
        b"1,2,3,4,5,6,8,7,0\n",
        b"23415x768\r\n",
        b"6 4 7 8 5 0 3 2 1\n",
        b"x 1 2 3 4 5 6 7 8\n",
        b"1\t2\t3\t4\t5\t6\t7\t0\t8\n",
    ];
    let answers: Vec<String> = puzzles
        .iter()
        .map(|p| {
            let text = p.strip_suffix(b"\n").unwrap();
            let layout = parse_layout(Board::EIGHT, text).unwrap();
            match table.distance(&layout).unwrap() {
                Some(d) => d.to_string(),
                None => "-1".to_string(),
            }
        })
        .collect();
    assert!(answers.contains(&"-1".to_string()) && answers.contains(&"31".to_string()));
    // Blocks of 1,000 lines: fewer, larger writes.
    let block: Vec<u8> = puzzles
        .iter()
        .cycle()
        .take(1000)
        .flat_map(|p| p.iter().copied())
        .collect();
    let lines = 10_000_000usize;

    let began = Instant::now();
    let (peak, status, stderr) = stream_distance(dir.path(), &path, &block, lines / 1000, |out| {
        let mut count = 0usize;
        for line in out.split(b'\n') {
            let line = line.unwrap();
            let want = answers[count % 8].as_bytes();
            assert!(
                line == want,
                "line {}: {:?}, not {:?}",
                count + 1,
                line,
                want
            );
            count += 1;
        }
        assert_eq!(count, lines);
    });
    let took = began.elapsed();
    assert!(status.success(), "{status:?}: {stderr}");
    assert_eq!(stderr, "");
    eprintln!(
        "10,000,000 lines in {took:.2?}; peak RSS {:.1} MB (table {:.1} MB)",
        peak as f64 / 1e6,
        table_size as f64 / 1e6
    );
    assert!(
        peak < table_size + (8 << 20),
        "peak RSS {peak} bytes for a {table_size}-byte table"
    );
}

/// Lines of a megabyte, and a 64 MB line that never ends: each answered `invalid` and named
/// by its length, in the same constant memory, and the lines around them still answered.
#[test]
fn endless_lines_are_named_by_length_in_constant_memory() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("table.slt");
    generate(dir.path(), "3x3", &path);
    let table_size = fs::metadata(&path).unwrap().len();

    let megabyte = vec![b'7'; 1 << 20];
    let mut block = b"2 3 4 1 5 x 7 6 8\n".to_vec();
    block.extend_from_slice(&megabyte);
    block.extend_from_slice(b"\n123456780\n");
    // Four blocks, then 64 MB with no line end at all.
    let mut endless = block.repeat(4);
    endless.extend_from_slice(&vec![b' '; 64 << 20]);
    let (peak, status, stderr) = stream_distance(dir.path(), &path, &endless, 1, |out| {
        let answers: Vec<String> = out.lines().map(Result::unwrap).collect();
        let mut want = ["19", "invalid", "0"].repeat(4);
        want.push("invalid");
        assert_eq!(answers, want);
    });
    assert_eq!(status.code(), Some(65), "{stderr}");
    for n in [2, 5, 8, 11] {
        assert!(
            stderr.contains(&format!(
                "line {n}: line is 1048576 bytes long; at most 65536 are read"
            )),
            "{stderr}"
        );
    }
    assert!(
        stderr.contains("line 13: line is 67108864 bytes long; at most 65536 are read"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("slidetable: 5 invalid lines in <stdin>\n"),
        "{stderr}"
    );
    assert!(
        peak < table_size + (8 << 20),
        "peak RSS {peak} bytes for a {table_size}-byte table"
    );
}
