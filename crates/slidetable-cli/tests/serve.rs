//! `slidetable serve` run as people run it: it prints its URL, answers as `path --json`,
//! `random --json` and `stats --json` do on the same table, refuses a missing table and a
//! taken port, and stops with exit 0 on SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use slidetable::query::SplitMix64;

use crate::common::{dir, process, sandboxed, table_3x3, table_3x3_2bit, table_4x4_555, Run};

/// A running `slidetable serve`, killed if the test ends without stopping it.
struct Served {
    child: Child,
    url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path, args: &[&str]) -> Served {
    let mut child = process(dir)
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .strip_prefix("slidetable: serving ")
        .and_then(|rest| rest.strip_suffix(" (Ctrl-C stops)\n"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    Served { child, url }
}

/// GET `path` (with its query) from the server: status and body.
fn get(url: &str, path: &str) -> (u16, String) {
    let addr = url
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn answers_as_the_command_line_does_on_the_same_table() {
    let (dir, table) = (dir(), table_3x3());
    let table_arg = table.to_str().unwrap();
    let served = serve(dir, &["--bind", "127.0.0.1:0", "--table", table_arg]);

    // 200 random puzzles, either parity: the same records as `path --json`, plus heuristics.
    let mut rng = SplitMix64::new(2026);
    let mut puzzles = Vec::new();
    for _ in 0..200 {
        let mut tiles: Vec<u8> = (0..9).collect();
        for i in (1..9).rev() {
            tiles.swap(i, rng.below(i as u64 + 1) as usize);
        }
        puzzles.push(tiles.iter().map(u8::to_string).collect::<Vec<_>>());
    }
    let input: String = puzzles.iter().map(|p| p.join(" ") + "\n").collect();
    let cli = Run::of(
        sandboxed(dir)
            .args(["path", "--json", "--table", table_arg])
            .write_stdin(input),
    )
    .ok();
    let records: Vec<&str> = cli.stdout.lines().collect();
    assert_eq!(records.len(), puzzles.len());
    for (puzzle, record) in puzzles.iter().zip(records) {
        let (status, body) = get(
            &served.url,
            &format!("/api/solve?puzzle={}", puzzle.join(",")),
        );
        assert_eq!(status, 200, "{body}");
        let api = json(&body);
        let cli = json(record);
        for field in ["puzzle", "distance", "path", "solvable"] {
            assert_eq!(api[field], cli[field], "{field} of {puzzle:?}");
        }
    }

    // The same draw as `random --json` with the same seed.
    for (depth, seed) in [(20, 7), (31, 1), (0, 3), (12, 123_456_789)] {
        let cli = Run::of(sandboxed(dir).args([
            "random",
            "--json",
            "--table",
            table_arg,
            "--depth",
            &depth.to_string(),
            "--seed",
            &seed.to_string(),
        ]))
        .ok();
        let (status, body) = get(
            &served.url,
            &format!("/api/random?depth={depth}&seed={seed}"),
        );
        assert_eq!(status, 200, "{body}");
        let (api, cli) = (json(&body), json(&cli.stdout));
        assert_eq!(api["seed"], seed.to_string());
        for field in ["puzzle", "distance", "path", "solvable"] {
            assert_eq!(
                api[field], cli[field],
                "{field} at depth {depth}, seed {seed}"
            );
        }
    }

    // The same figures as `stats --json`, for two goals.
    for goal in ["1 2 3 4 5 6 7 8 0", "1 2 3 8 0 4 7 6 5"] {
        let cli =
            Run::of(sandboxed(dir).args(["stats", "--json", "--table", table_arg, "--goal", goal]))
                .ok();
        let query = goal.replace(' ', ",");
        let (status, body) = get(&served.url, &format!("/api/stats?goal={query}"));
        assert_eq!(status, 200, "{body}");
        let (api, mut cli) = (json(&body), json(&cli.stdout));
        // One record: the same keys and values; the page names the table by its file name
        // only (no server path reaches a client), the command line by the path it was given.
        let name = Path::new(cli["table"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        cli["table"] = Value::String(name);
        assert_eq!(api, cli, "goal {goal}");
    }

    let (status, body) = get(&served.url, "/api/solve?puzzle=1,2,3");
    assert_eq!(status, 400);
    assert_eq!(body, r#"{"error":"puzzle: expected 9 tiles, found 3"}"#);
}

/// The 15-puzzle, the effort lesson and the seeds, against the command line on the same files:
/// `/api/solve` on 4x4 answers as `path --board 4x4` (the same IDA*, the same path), the effort
/// runs count as `search --json --stats` does, and a seed above 2^53 on a 2-bit table (drawn
/// as on 12 cells) draws again with `random --seed`.
#[test]
fn the_fifteen_puzzle_effort_and_seeds_answer_as_the_command_line_does() {
    let dir = dir();
    let (fifteen, two_bit) = (
        table_4x4_555().to_str().unwrap(),
        table_3x3_2bit().to_str().unwrap(),
    );
    let served = serve(
        dir,
        &[
            "--bind",
            "127.0.0.1:0",
            "--table",
            fifteen,
            "--table",
            two_bit,
        ],
    );

    // A uniform 4x4 draw on the page is the command line's with the same seed, so the seed
    // the page shows reproduces its puzzle.
    for seed in [1u64, 7, 123_456_789] {
        let (status, body) = get(&served.url, &format!("/api/random?board=4x4&seed={seed}"));
        assert_eq!(status, 200, "{body}");
        let api = json(&body);
        let cli = Run::of(sandboxed(dir).args([
            "random",
            "--board",
            "4x4",
            "--json",
            "--seed",
            &seed.to_string(),
        ]))
        .ok();
        assert_eq!(
            api["puzzle"],
            json(cli.stdout.lines().next().unwrap())["puzzle"],
            "seed {seed}"
        );
    }

    // Walks of random moves on the page's 4x4, solved by `path`.
    let mut puzzles = Vec::new();
    for seed in [1u64, 2, 3, 4, 5] {
        let (status, body) = get(
            &served.url,
            &format!("/api/random?board=4x4&walk=30&seed={seed}"),
        );
        assert_eq!(status, 200, "{body}");
        puzzles.push(json(&body));
    }
    let input: String = puzzles
        .iter()
        .map(|p| tiles(&p["puzzle"], " ") + "\n")
        .collect();
    let cli = Run::of(
        sandboxed(dir)
            .args(["path", "--json", "--board", "4x4", "--table", fifteen])
            .write_stdin(input),
    )
    .ok();
    let records: Vec<&str> = cli.stdout.lines().collect();
    assert_eq!(records.len(), puzzles.len());
    for (api, record) in puzzles.iter().zip(records) {
        let cli = json(record);
        assert_eq!(api["puzzle"], cli["puzzle"]);
        for field in ["distance", "path", "solvable"] {
            assert_eq!(api[field], cli[field], "{field} of {}", api["puzzle"]);
        }
        let (_, body) = get(
            &served.url,
            &format!("/api/solve?board=4x4&puzzle={}", tiles(&api["puzzle"], ",")),
        );
        assert_eq!(json(&body)["path"], cli["path"]);
    }

    // The effort lesson on the first walk and on a 3x3 puzzle, run by run.
    for (board, puzzle) in [
        ("4x4", tiles(&puzzles[0]["puzzle"], " ")),
        ("3x3", "2 3 4 1 5 0 7 6 8".to_string()),
    ] {
        let (status, body) = get(
            &served.url,
            &format!(
                "/api/effort?board={board}&puzzle={}",
                puzzle.replace(' ', ",")
            ),
        );
        assert_eq!(status, 200, "{body}");
        let effort = json(&body);
        let cap = effort["max_expanded"].as_u64().unwrap().to_string();
        let runs = effort["runs"].as_array().unwrap();
        // Breadth-first and uniform-cost first (no heuristic), then the informed runs.
        assert_eq!(runs.len(), if board == "4x4" { 10 } else { 8 });
        for run in runs {
            let (method, heuristic) = (
                run["method"].as_str().unwrap(),
                run["heuristic"].as_str().unwrap(),
            );
            let mut args = vec![
                "search",
                "--json",
                "--stats",
                "--board",
                board,
                "--method",
                method,
                "--max-expanded",
                &cap,
            ];
            // A blind search ("none" on the page) takes no --heuristic on the command line.
            if heuristic != "none" {
                args.extend(["--heuristic", heuristic]);
            }
            if heuristic == "pdb" {
                args.extend(["--table", fifteen]);
            }
            let cli = Run::of(
                sandboxed(dir)
                    .args(&args)
                    .write_stdin(format!("{puzzle}\n")),
            );
            let record = json(cli.stdout.lines().next().unwrap());
            if run["length"].is_null() {
                // Stopped at the cap on states: so is the command line ("unknown"). (A run
                // stopped by the server's time cap on a loaded machine says nothing here.)
                if run["stopped"].as_str().unwrap().contains("expanded") {
                    assert_eq!(record["distance"], Value::Null, "{method} {heuristic}");
                }
                continue;
            }
            assert_eq!(
                run["expanded"], record["stats"]["expanded"],
                "{method} {heuristic} on {puzzle}"
            );
            for field in [
                "generated",
                "peak_open",
                "iterations",
                "bound",
                "branching_factor",
            ] {
                assert_eq!(
                    run[field], record["stats"][field],
                    "{field}: {method} {heuristic}"
                );
            }
            assert_eq!(run["length"], record["distance"], "{method} {heuristic}");
        }
    }

    // A seed past 2^53, as a string, on a table of distances mod 3.
    let seed = "18446744073709551557";
    let (status, body) = get(&served.url, &format!("/api/random?depth=24&seed={seed}"));
    assert_eq!(status, 200, "{body}");
    let api = json(&body);
    assert_eq!(api["seed"], seed);
    let cli = Run::of(sandboxed(dir).args([
        "random",
        "--json",
        "--table",
        two_bit,
        "--depth",
        "24",
        "--seed",
        api["seed"].as_str().unwrap(),
    ]))
    .ok();
    let cli = json(&cli.stdout);
    assert_eq!(api["puzzle"], cli["puzzle"]);
    assert_eq!(api["distance"], cli["distance"]);
}

/// Clients that connect and send nothing, or send their headers a byte at a time, are closed
/// after `--idle-timeout`, and at most `--max-connections` are open at once: with three times
/// as many such clients as the cap, a normal request is still answered.
#[test]
fn idle_and_slow_clients_are_closed_and_a_normal_request_is_answered() {
    let (dir, table) = (dir(), table_3x3());
    let served = serve(
        dir,
        &[
            "--bind",
            "127.0.0.1:0",
            "--table",
            table.to_str().unwrap(),
            "--idle-timeout",
            "1",
            "--max-connections",
            "40",
        ],
    );
    let addr = served
        .url
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let idle: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    // Slow headers: a request line, then a header byte every 50 ms (never the blank line).
    let slow: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /api/stats HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            s
        })
        .collect();
    let dripping: Vec<TcpStream> = slow.iter().map(|s| s.try_clone().unwrap()).collect();
    let drip = std::thread::spawn(move || {
        let start = Instant::now();
        let mut dripping = dripping;
        while start.elapsed() < Duration::from_secs(4) {
            for s in &mut dripping {
                let _ = s.write_all(b"X");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });

    // A normal request, over the cap of connections already open: answered.
    let mut stream = TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET /api/stats HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .unwrap_or_else(|e| panic!("no answer to a normal request: {e}"));
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    drip.join().unwrap();

    // Every idle and slow connection is closed by the server (end of file, or reset).
    for (i, mut s) in idle.into_iter().chain(slow).enumerate() {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut buf = [0u8; 256];
        loop {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("connection {i} still open after 60 s: {e}"),
            }
        }
    }
}

/// SIGTERM while a default table is being made on its first request (3x4: seconds of search
/// into a temporary file, longer than the grace period for requests under way): the server
/// stops with exit 0 and the temporary file is gone, as `generate` removes its own.
#[test]
fn sigterm_during_a_first_use_write_leaves_no_temporary_file() {
    let dir = dir().join("first-use");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cache = dir.join("cache/slidetable");
    let temporaries = || -> Vec<String> {
        std::fs::read_dir(&cache)
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|name| name.ends_with(".tmp"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let table = table_3x3();
    let mut served = serve(
        &dir,
        &["--bind", "127.0.0.1:0", "--table", table.to_str().unwrap()],
    );
    let url = served.url.clone();
    // Its answer never comes: the server stops while the table is made.
    std::thread::spawn(move || {
        let _ = std::panic::catch_unwind(|| get(&url, "/api/stats?board=3x4"));
    });
    let start = Instant::now();
    while temporaries().is_empty() {
        assert!(!cache.join("3x4.slt").exists(), "the table was made first");
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    sigterm(&served.child);
    let status = served.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert_eq!(temporaries(), Vec::<String>::new());
}

/// Sends SIGTERM to `child`, as a service manager or `kill` does.
fn sigterm(child: &std::process::Child) {
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
}

#[test]
fn sigterm_stops_it_with_exit_0() {
    let (dir, table) = (dir(), table_3x3());
    let mut served = serve(
        dir,
        &["--bind", "127.0.0.1:0", "--table", table.to_str().unwrap()],
    );
    assert_eq!(get(&served.url, "/api/stats").0, 200);
    sigterm(&served.child);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

/// The URL is the line a script waits for before it goes on: a SIGTERM sent as soon as it is
/// printed stops the server as any later one does, with exit 0 (it used to come before the
/// server listened for signals, and killed it: no exit code).
#[test]
fn sigterm_as_soon_as_the_url_is_printed_stops_it_with_exit_0() {
    let (dir, table) = (dir(), table_3x3());
    for _ in 0..20 {
        let mut served = serve(
            dir,
            &["--bind", "127.0.0.1:0", "--table", table.to_str().unwrap()],
        );
        sigterm(&served.child);
        assert_eq!(served.child.wait().unwrap().code(), Some(0));
    }
}

#[test]
fn a_missing_table_and_a_taken_port_are_refused() {
    let dir = dir();
    let run =
        Run::of(sandboxed(dir).args(["serve", "--bind", "127.0.0.1:0", "--table", "missing.slt"]));
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert_eq!(
        run.stderr,
        "slidetable: table missing.slt: cannot read: No such file or directory (os error 2)\n"
    );
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let table = table_3x3();
    let run = Run::of(sandboxed(dir).args([
        "serve",
        "--bind",
        &addr,
        "--table",
        table.to_str().unwrap(),
    ]));
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(
        run.stderr
            .starts_with(&format!("slidetable: cannot listen on {addr}: ")),
        "{run:#?}"
    );
    // 4x4 is served (from pattern databases); a board with neither a table nor databases is
    // a usage error.
    let run = Run::of(sandboxed(dir).args(["serve", "--board", "3x5"]));
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(
        run.stderr
            .contains("tables go up to 14 cells (and 4x4, by pattern databases)"),
        "{run:#?}"
    );
}

#[test]
fn two_tables_for_one_board_are_refused_naming_both() {
    let dir = dir();
    let (one, two) = (table_3x3(), table_3x3_2bit());
    let (one, two) = (one.to_str().unwrap(), two.to_str().unwrap());
    let run = Run::of(sandboxed(dir).args([
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--table",
        one,
        "--table",
        two,
    ]));
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert_eq!(
        run.stderr,
        format!("slidetable: two tables for 3x3 boards: {one} and {two}; name one per board\n")
    );
}

/// An answer's layout (an array of tiles) as a line of the command line's input, the tiles
/// separated by `separator`.
fn tiles(layout: &Value, separator: &str) -> String {
    let tiles: Vec<String> = layout
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.to_string())
        .collect();
    tiles.join(separator)
}

/// `serve --board B` makes B's default table before it listens, when the cache has none: the
/// terminal is told so on standard error, in the note every other command gives (a 12-cell
/// board kept it waiting seconds in silence), and standard output has the URL alone.
#[test]
fn a_default_made_before_listening_is_noted_as_every_command_notes_it() {
    let dir = dir().join("serve-first-use");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = || {
        let mut child = process(&dir)
            .args(["serve", "--bind", "127.0.0.1:0", "--board", "2x3"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert!(line.starts_with("slidetable: serving http://"), "{line:?}");
        sigterm(&child);
        let mut rest = String::new();
        out.read_to_string(&mut rest).unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(0), "{err}");
        assert_eq!(rest, "", "standard output holds the URL alone");
        err
    };
    let note = format!(
        "slidetable: no table at {}; generating it once (this takes a moment)\n",
        dir.join("cache/slidetable/2x3.slt").display()
    );
    assert_eq!(run(), note);
    assert_eq!(run(), "", "the second start finds the table");
}
