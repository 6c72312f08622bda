//! Standard input, output and error under the conditions real use brings: an input that
//! cannot be read, a reader that closes the pipe early, a full standard output, an unwritable
//! standard error, ten million lines and a line that never ends, in constant memory.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::thread;
use std::time::Instant;

use slidetable::core::{parse_layout, Board};
use slidetable::query::Table;

use tempfile::TempDir;

use crate::common::{
    generate_into, peak_rss, process, slidetable, started_with, table_3x3, Run, BAD_INPUT,
};

#[test]
fn an_unreadable_input_fails_naming_it() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("nowhere.txt");
    for input in [&missing, &dir.path().to_path_buf()] {
        let run = Run::of(
            slidetable()
                .args(["distance", "--table"])
                .arg(table_3x3())
                .arg(input),
        );
        assert_eq!(run.code, Some(1), "{run:#?}");
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr.contains(&input.display().to_string()),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("many.txt");
    fs::write(&file, "8 6 7 2 5 4 3 0 1\n".repeat(200_000)).unwrap();
    for (command, first_len) in [("path", 31), ("distance", 2)] {
        let mut child = StdCommand::new(env!("CARGO_BIN_EXE_slidetable"))
            .env_remove("SLIDETABLE_TABLE")
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .env("HOME", dir.path().join("home"))
            .arg(command)
            .arg("--table")
            .arg(table_3x3())
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        drop(reader);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(first.trim_end().len(), first_len, "{command}: {first:?}");
        assert_eq!(status.code(), Some(0), "{command}: {status:?}, {stderr}");
        assert_eq!(stderr, "", "{command}");
    }
}

/// A write error on standard output is the output's, not the table's.
#[test]
fn a_full_stdout_is_named_as_standard_output() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("3x3.slt");
    generate_into(dir.path(), "3x3", &[], &table);
    let input = dir.path().join("in.txt");
    fs::write(&input, "2 3 4 1 5 x 7 6 8\n".repeat(100_000)).unwrap();
    for command in ["distance", "path"] {
        let out = process(dir.path())
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

/// `--help` and `--version` are answers too: on a full standard output they fail, exit 1
/// (they exited 0 having written nothing).
#[test]
fn help_and_version_on_a_full_stdout_fail() {
    let dir = TempDir::new().unwrap();
    for args in [
        &["--help"][..],
        &["--version"],
        &["distance", "--help"],
        &["-V"],
    ] {
        let out = process(dir.path())
            .args(args)
            .stdout(File::options().write(true).open("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            "slidetable: cannot write standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
        // And to a working standard output, exit 0.
        let ok = process(dir.path()).args(args).output().unwrap();
        assert_eq!(ok.status.code(), Some(0), "{args:?}");
        assert!(!ok.stdout.is_empty());
    }
}

/// M6: a standard output closed by the caller (`>&-`, which Rust's runtime turns into
/// /dev/null before `main`) lost every answer with exit 0, and `generate -o -` said it wrote
/// the table. Every command that answers on it now fails, exit 1, saying why; one that writes
/// nothing there (`generate -o FILE` still reports there, so it fails too) and a standard
/// output on /dev/null are unchanged.
#[test]
fn a_closed_stdout_at_the_start_fails_the_run() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let table = d.join("2x3.slt");
    generate_into(d, "2x3", &[], &table);
    let input = d.join("in.txt");
    fs::write(&input, "4 1 2 5 0 3\n1 2 3 4 5 0\n").unwrap();
    let judge = d.join("judge.txt");
    fs::write(&judge, "283104765\n").unwrap();
    let closed = "slidetable: cannot write standard output: it was closed when slidetable \
                  started (`>&-`); redirect it to /dev/null to discard the output\n";
    let t = table.to_str().unwrap();
    let i = input.to_str().unwrap();
    for args in [
        vec!["distance", "--table", t, i],
        vec!["path", "--table", t, i],
        vec!["path", "--table", t, "--json", i],
        vec!["judge", "luogu1379", judge.to_str().unwrap()],
        vec!["generate", "--board", "2x3", "-o", "-"],
        vec!["info", t],
        vec!["--version"],
        vec!["--help"],
    ] {
        for redirect in [">&-", ">/dev/null"] {
            let out = StdCommand::new("sh")
                .current_dir(d)
                .env_remove("SLIDETABLE_TABLE")
                .env("XDG_CACHE_HOME", d.join("cache"))
                .arg("-c")
                .arg(format!("exec \"$0\" \"$@\" {redirect}"))
                .arg(env!("CARGO_BIN_EXE_slidetable"))
                .args(&args)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if redirect == ">&-" {
                assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
                // (After the note of a first use of the cache's table, for `judge`.)
                assert!(stderr.ends_with(closed), "{args:?}: {stderr}");
            } else {
                assert_eq!(out.status.code(), Some(0), "{args:?} {redirect}: {stderr}");
            }
        }
    }
}

/// Standard error on /dev/full: a diagnostic that cannot be written never stops the answers,
/// and the exit code still tells.
#[test]
fn an_unwritable_stderr_loses_no_answer() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("3x3.slt");
    generate_into(dir.path(), "3x3", &[], &table);
    let input = dir.path().join("mixed.txt");
    fs::write(&input, "1 2 3 4 5 6 7 8 0\n1 2 3\n".repeat(50_000)).unwrap();
    let full = || File::options().write(true).open("/dev/full").unwrap();
    let out = process(dir.path())
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
    let out = process(dir.path())
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
    let child = started_with(
        process(&healthy).args(["path"]).stderr(full()),
        b"2 3 4 1 5 x 7 6 8\n",
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, b"ullddrurdllurrdlurd\n");
}

// ---------------------------------------------------------------------------------------------
// Endless input

/// Lines streamed into a `distance` run from this process, its answers read and checked as
/// they come; returns the run's peak memory, read just before its input ends.
fn stream_distance(
    dir: &Path,
    table: &Path,
    block: &[u8],
    repeats: usize,
    check: impl FnOnce(BufReader<std::process::ChildStdout>) + Send,
) -> (u64, std::process::ExitStatus, String) {
    let mut child = process(dir)
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
        let peak = peak_rss(child.id()).expect("VmHWM in /proc/PID/status");
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
    generate_into(dir.path(), "3x3", &[], &path);
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
    generate_into(dir.path(), "3x3", &[], &path);
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

/// A line that never ends (`/dev/zero` as the input) stops every command that reads puzzle
/// lines once it has no end in its first GiB: exit 1 naming the input and the line, never a
/// run forever.
#[test]
fn a_line_that_never_ends_stops_the_input() {
    let table = table_3x3();
    let table = table.to_str().unwrap();
    for args in [
        vec!["distance", "--table", table],
        vec!["path", "--table", table],
        vec!["search", "--method", "idastar", "--board", "3x3"],
        vec!["heuristic", "--table", table],
        vec!["judge", "hdu"],
    ] {
        let started = Instant::now();
        let run = Run::of(
            slidetable()
                .args(&args)
                .arg("/dev/zero")
                .timeout(std::time::Duration::from_secs(120)),
        );
        assert_eq!(run.code, Some(1), "{args:?}: {run:#?}");
        assert!(
            run.stderr.contains(
                "/dev/zero: line 1 has no line end in its first 1073741824 bytes; \
                 reading stopped there"
            ),
            "{args:?}: {}",
            run.stderr
        );
        eprintln!("{args:?}: {:.1} s", started.elapsed().as_secs_f64());
    }
}
