//! Table files as `info` and the queries meet them: `info` and `info --verify` on a sound
//! table; corrupt headers and payloads, impossible distances, missing, short, truncated,
//! noisy and foreign files; a FIFO or a device where a table belongs; which table is used (the
//! cache's, generated once, also under concurrent first use; `$SLIDETABLE_TABLE`; `--table`)
//! and a default table for another board or cost; and a table rewritten in place or replaced
//! while a query has it open.

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use slidetable::core::{parse_layout, Board, Layout};
use slidetable::query::Table;
use tempfile::TempDir;

use crate::common::layouts::scrambles;
use crate::common::{
    assert_sound, generate_into, mkfifo, process, sandboxed, slidetable, started_with, table_3x3,
    wait_at_most, Run, STATES,
};

/// States at each distance from the standard goal (OEIS A089473): 31 moves at most, 2 states.
const STANDARD_HISTOGRAM: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

// ---------------------------------------------------------------------------------------------
// info

#[test]
fn info_describes_board_sections_and_histograms() {
    let run = Run::of(slidetable().arg("info").arg(table_3x3())).success();
    let size = fs::metadata(table_3x3()).unwrap().len();
    for line in [
        format!("table     {}", table_3x3().display()),
        "board     3x3".to_string(),
        format!("size      {size} bytes"),
        "checksum  not checked (use --verify)".to_string(),
        "sections  9".to_string(),
    ] {
        assert!(
            run.stdout.lines().any(|l| l == line),
            "no {line:?} in\n{}",
            run.stdout
        );
    }
    // Each section is a paragraph; find the standard goal's.
    let standard = run
        .stdout
        .split("\n\n")
        .find(|p| {
            p.lines()
                .next()
                .is_some_and(|l| l.ends_with("goal 1 2 3 4 5 6 7 8 0"))
        })
        .unwrap_or_else(|| panic!("no section for the standard goal in\n{}", run.stdout));
    let histogram = STANDARD_HISTOGRAM.map(|n| n.to_string()).join(" ");
    assert_eq!(
        standard.lines().skip(1).collect::<Vec<_>>(),
        [
            format!("  entries       {STATES}"),
            "  max distance  31 (2 states)".to_string(),
            format!("  histogram     {histogram}"),
        ]
    );
    assert_eq!(run.stdout.matches("\nsection ").count(), 9);
    assert_eq!(run.stderr, "");
}

fn info_json(args: &[&str], path: &Path) -> (Run, Value) {
    let run = Run::of(slidetable().arg("info").args(args).arg(path));
    assert_eq!(
        run.stdout.lines().count(),
        1,
        "one object on one line: {run:#?}"
    );
    let json: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout));
    (run, json)
}

#[test]
fn info_json_is_one_object_with_every_section() {
    let (run, json) = info_json(&["--json"], table_3x3());
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(json["board"], "3x3");
    assert_eq!(json["checksum_ok"], Value::Null);
    let sections = json["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 9);
    let mut goals = Vec::new();
    for s in sections {
        assert_eq!(s["entries"], STATES, "{s}");
        let histogram: Vec<u64> = s["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(histogram.iter().sum::<u64>(), STATES, "{s}");
        assert_eq!(
            histogram.len() as u64,
            s["max_distance"].as_u64().unwrap() + 1
        );
        assert_eq!(histogram[0], 1, "one goal per section");
        assert_ne!(*histogram.last().unwrap(), 0, "{s}");
        let goal: Vec<u8> = s["goal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as u8)
            .collect();
        Layout::new(Board::EIGHT, &goal).unwrap();
        if goal == [1, 2, 3, 4, 5, 6, 7, 8, 0] {
            assert_eq!(s["max_distance"], 31);
            assert_eq!(histogram, STANDARD_HISTOGRAM);
        }
        goals.push(goal);
    }
    goals.sort();
    goals.dedup();
    assert_eq!(goals.len(), 9, "sections have distinct goals");
    assert!(goals.contains(&vec![1, 2, 3, 4, 5, 6, 7, 8, 0]));
}

#[test]
fn info_verify_accepts_a_sound_table() {
    let (run, json) = info_json(&["--verify", "--json"], table_3x3());
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(json["checksum_ok"], true);
    let run = Run::of(slidetable().args(["info", "--verify"]).arg(table_3x3())).success();
    assert!(
        run.stdout.lines().any(|l| l == "checksum  ok"),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// Corrupt and foreign files

/// A copy of the table in `dir` with the byte at `offset` (from the end if negative) flipped.
fn corrupt_copy(dir: &Path, name: &str, offset: i64) -> PathBuf {
    let mut bytes = fs::read(table_3x3()).unwrap();
    let at = if offset < 0 {
        bytes.len() - offset.unsigned_abs() as usize
    } else {
        offset as usize
    };
    bytes[at] ^= 0x5a;
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn info_verify_refuses_a_corrupt_payload() {
    let dir = TempDir::new().unwrap();
    let bad = corrupt_copy(dir.path(), "payload.slt", -110);
    let name = bad.display().to_string();

    let run = Run::of(slidetable().args(["info", "--verify"]).arg(&bad));
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stdout.contains("checksum  FAILED"), "{}", run.stdout);
    assert!(run.stderr.contains("checksum"), "{}", run.stderr);
    assert!(run.stderr.contains(&name), "{}", run.stderr);

    let (run, json) = info_json(&["--verify", "--json"], &bad);
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert_eq!(json["checksum_ok"], false);
    assert!(run.stderr.contains("checksum"), "{}", run.stderr);

    // Without --verify only the header is checked, and it is sound.
    Run::of(slidetable().arg("info").arg(&bad)).success();
}

#[test]
fn a_corrupt_payload_never_panics_or_hangs_a_query() {
    let dir = TempDir::new().unwrap();
    let mut bytes = fs::read(table_3x3()).unwrap();
    let len = bytes.len();
    for b in bytes[len / 10..].iter_mut().step_by(7) {
        *b ^= 0xfc; // the distance bits
    }
    let bad = dir.path().join("payload.slt");
    fs::write(&bad, bytes).unwrap();
    let input: String = scrambles(120)
        .iter()
        .map(|(l, _)| format!("{l}\n"))
        .collect();
    for command in ["distance", "path"] {
        // Queries read single entries and do not check the payload checksum, so answers may be
        // wrong; what matters is a clean ending.
        let run = Run::of(
            slidetable()
                .args([command, "--keep-going", "--table"])
                .arg(&bad)
                .write_stdin(input.as_str())
                .timeout(std::time::Duration::from_secs(60)),
        );
        assert!(matches!(run.code, Some(0 | 1)), "{command}: {run:#?}");
        if run.code == Some(1) {
            assert!(run.stderr.contains("corrupt"), "{command}: {}", run.stderr);
        }
    }
    let run = Run::of(slidetable().args(["info", "--verify"]).arg(&bad));
    assert_eq!(run.code, Some(1), "{run:#?}");
}

#[test]
fn a_corrupt_header_is_refused_naming_the_file() {
    let dir = TempDir::new().unwrap();
    // Bytes of the fixed header and of the section descriptors that follow it.
    for offset in [
        0, 7, 8, 10, 11, 12, 13, 14, 16, 20, 24, 32, 40, 63, 64, 80, 100, 300, 639,
    ] {
        let bad = corrupt_copy(dir.path(), "header.slt", offset);
        let name = bad.display().to_string();
        for args in [&["info"][..], &["info", "--verify", "--json"]] {
            let run = Run::of(slidetable().args(args).arg(&bad));
            assert_eq!(run.code, Some(1), "byte {offset}, {args:?}: {run:#?}");
            assert!(run.stderr.contains(&name), "byte {offset}: {}", run.stderr);
        }
        let run = Run::of(
            slidetable()
                .args(["distance", "--table"])
                .arg(&bad)
                .write_stdin("1 2 3 4 5 6 7 8 0\n"),
        );
        assert_eq!(run.code, Some(1), "byte {offset}: {run:#?}");
        assert_eq!(run.stdout, "");
        assert!(run.stderr.contains(&name), "byte {offset}: {}", run.stderr);
    }
}

/// A 3x3 table whose payload is all `0xDC` (distance 55, on a board whose farthest state is
/// 31 moves away): every answer is refused as corrupt, in text and JSON, and `hardest`, which
/// finds none of the states the header promises, says so.
#[test]
fn distances_beyond_the_maximum_are_corrupt() {
    let dir = TempDir::new().unwrap();
    let table = dir.path().join("bad.slt");
    generate_into(dir.path(), "3x3", &[], &table);
    let mut bytes = fs::read(&table).unwrap();
    let header_len = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    bytes[header_len..].fill(0xDC);
    fs::write(&table, &bytes).unwrap();

    for json in [false, true] {
        let mut cmd = process(dir.path());
        cmd.args(["distance", "--table"]).arg(&table);
        if json {
            cmd.arg("--json");
        }
        let r = Run::process_with(&mut cmd, b"2 3 4 1 5 x 7 6 8\n");
        assert_eq!(r.code, Some(1), "{r:#?}");
        assert_eq!(r.stdout, "", "{r:#?}");
        assert!(r.stderr.contains("corrupt"), "{r:#?}");
    }
    let r = Run::process(process(dir.path()).args(["hardest", "--table"]).arg(&table));
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stderr.contains("corrupt"), "{r:#?}");
}

#[test]
fn bad_tables_are_refused_naming_the_file() {
    let dir = TempDir::new().unwrap();
    let good = fs::read(table_3x3()).unwrap();
    let mut noise = Vec::with_capacity(4096);
    let mut x = 0x9e37_79b9_u32;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise.push(x as u8);
    }
    let mut trailing = good.clone();
    trailing.push(0);
    let files: Vec<(&str, Option<Vec<u8>>, &str)> = vec![
        ("missing.slt", None, ""),
        ("empty.slt", Some(Vec::new()), "0 bytes"),
        ("short.slt", Some(good[..40].to_vec()), "shorter than"),
        (
            "truncated.slt",
            Some(good[..good.len() / 2].to_vec()),
            "truncated",
        ),
        ("trailing.slt", Some(trailing), "trailing bytes"),
        ("noise.slt", Some(noise), "not a slidetable file"),
        (
            "words.txt",
            Some(
                "Not a table, just words on a line.\n"
                    .repeat(20)
                    .into_bytes(),
            ),
            "not a slidetable file",
        ),
    ];
    for (name, bytes, words) in &files {
        let path = dir.path().join(name);
        if let Some(bytes) = bytes {
            fs::write(&path, bytes).unwrap();
        }
        let runs = [
            query_with_table("distance", &path),
            query_with_table("path", &path),
            Run::of(slidetable().arg("info").arg(&path)),
            Run::of(slidetable().args(["info", "--verify", "--json"]).arg(&path)),
        ];
        for run in runs {
            assert_eq!(run.code, Some(1), "{name}: {run:#?}");
            assert_eq!(run.stdout, "", "{name}");
            assert!(
                run.stderr.starts_with("slidetable: "),
                "{name}: {}",
                run.stderr
            );
            assert!(
                run.stderr.contains(&path.display().to_string()),
                "{name}: {}",
                run.stderr
            );
            assert!(run.stderr.contains(words), "{name}: {}", run.stderr);
        }
    }
    // A directory is not a table either.
    let run = query_with_table("distance", dir.path());
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stderr.contains(&dir.path().display().to_string()));
}

fn query_with_table(command: &str, table: &Path) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table)
            .write_stdin("1 2 3 4 5 6 7 8 0\n"),
    )
}

#[test]
fn a_fifo_as_the_table_is_refused_at_once() {
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
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
        let mut cmd = process(dir.path());
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
        let r = Run::finished(child.wait_with_output().unwrap());
        assert_eq!(r.code, Some(1), "{what}: {r:#?}");
        assert_eq!(r.stderr, message, "{what}");
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
        let r = Run::process(process(dir.path()).args(["info", path]));
        assert_eq!(r.code, Some(1), "{r:#?}");
        assert_eq!(
            r.stderr,
            format!("slidetable: table {path}: is {kind}, not a table file\n")
        );
    }
    // /dev/stdin from a pipe is a FIFO.
    let r = Run::process_with(
        process(dir.path()).args(["distance", "--table", "/dev/stdin"]),
        b"",
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(
        r.stderr,
        "slidetable: table /dev/stdin: is a FIFO, not a table file\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Which table

#[test]
fn the_default_table_is_generated_once_in_the_cache() {
    let dir = TempDir::new().unwrap();
    let cached = dir.path().join("cache/slidetable/3x3.slt");
    let first = Run::of(
        sandboxed(dir.path())
            .arg("distance")
            .write_stdin("23415x768\n"),
    )
    .success();
    assert_eq!(first.stdout, "19\n");
    assert_eq!(first.stderr.lines().count(), 1, "one note: {first:#?}");
    assert!(
        first.stderr.contains(&cached.display().to_string()),
        "{}",
        first.stderr
    );
    assert!(cached.is_file());

    let second = Run::of(
        sandboxed(dir.path())
            .arg("path")
            .write_stdin("1 2 3 4 5 6 7 0 8\n"),
    )
    .success();
    assert_eq!(second.stdout, "r\n");
    assert_eq!(second.stderr, "");
    let info = Run::of(sandboxed(dir.path()).arg("info")).success();
    assert!(info.stdout.contains("board     3x3"), "{}", info.stdout);
    assert!(
        !dir.path().join("home").exists(),
        "the home directory was not touched"
    );
}

#[test]
fn a_relative_xdg_cache_home_is_ignored_for_home_cache() {
    let dir = TempDir::new().unwrap();
    let run = Run::of(
        sandboxed(dir.path())
            .env("XDG_CACHE_HOME", "relative-cache")
            .arg("distance")
            .write_stdin("123456780\n"),
    )
    .success();
    assert_eq!(run.stdout, "0\n");
    assert_eq!(run.stderr.lines().count(), 1, "{run:#?}");
    assert!(dir.path().join("home/.cache/slidetable/3x3.slt").is_file());
    assert!(!dir.path().join("relative-cache").exists());
}

#[test]
fn slidetable_table_names_the_table_and_is_never_generated() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("missing.slt");
    for command in ["distance", "path"] {
        let run = Run::of(
            sandboxed(dir.path())
                .env("SLIDETABLE_TABLE", &missing)
                .arg(command)
                .write_stdin("123456780\n"),
        );
        assert_eq!(run.code, Some(1), "{run:#?}");
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr.contains(&missing.display().to_string()),
            "{}",
            run.stderr
        );
    }
    assert!(!missing.exists());
    assert!(!dir.path().join("cache").exists(), "nothing generated");

    // The variable is used when it names a table ...
    let run = Run::of(
        sandboxed(dir.path())
            .env("SLIDETABLE_TABLE", table_3x3())
            .arg("distance")
            .write_stdin("23415x768\n"),
    )
    .success();
    assert_eq!(run.stdout, "19\n");
    assert_eq!(run.stderr, "");
    assert!(!dir.path().join("cache").exists(), "nothing generated");

    // ... and --table wins over it.
    let run = Run::of(
        sandboxed(dir.path())
            .env("SLIDETABLE_TABLE", &missing)
            .args(["distance", "--table"])
            .arg(table_3x3())
            .write_stdin("23415x768\n"),
    )
    .success();
    assert_eq!(run.stdout, "19\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn a_default_table_for_another_board_or_cost_is_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let small = d.join("2x3.slt");
    let tile = d.join("tile.slt");
    generate_into(d, "2x3", &[], &small);
    generate_into(d, "3x3", &["--cost", "tile"], &tile);
    let puzzle = b"2 3 4 1 5 x 7 6 8\n";

    let r = Run::process_with(
        process(d).arg("distance").env("SLIDETABLE_TABLE", &small),
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
    let r = Run::process_with(
        process(d).arg("distance").env("SLIDETABLE_TABLE", &tile),
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
    let r = Run::process_with(process(d).arg("distance"), puzzle);
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
    let r = Run::process_with(process(d).arg("distance").arg("--table").arg(&tile), puzzle);
    assert_eq!(r.code, Some(0), "{r:#?}");
}

/// A goal no section of the table answers for (its blank in a cell no section's goal has) is
/// refused naming the table, as every other refusal of a table names it: the command, the
/// judges and the default table from `$SLIDETABLE_TABLE` alike.
#[test]
fn a_goal_the_table_has_no_section_for_names_the_table() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let corner = d.join("corner.slt");
    generate_into(d, "3x3", &["--goal", "0 1 2 3 4 5 6 7 8"], &corner);
    let standard = "1 2 3 4 5 6 7 8 0";
    let expected = |goal: &str| {
        format!(
            "slidetable: table {}: the table has no section for goal {goal}\n",
            corner.display()
        )
    };
    let puzzle = b"2 3 4 1 5 x 7 6 8\n";
    for (command, args) in [
        ("distance", &[][..]),
        ("path", &["--json"][..]),
        ("stats", &[][..]),
        ("hardest", &[][..]),
        ("random", &["--depth", "3"][..]),
        ("heuristic", &[][..]),
        ("heuristic", &["-"][..]),
        ("judge", &["poj1077"][..]),
        ("judge", &["hdu3567"][..]),
    ] {
        let mut cmd = process(d);
        cmd.arg(command).args(args).arg("--table").arg(&corner);
        let r = Run::process_with(&mut cmd, puzzle);
        assert_eq!(r.code, Some(1), "{command} {args:?}: {r:#?}");
        assert_eq!(r.stderr, expected(standard), "{command} {args:?}");
    }
    // Another goal asked for, with its blank where no section has it.
    let other = "1 2 3 4 5 6 7 0 8";
    let r = Run::process_with(
        process(d)
            .args(["distance", "--goal", other, "--table"])
            .arg(&corner),
        puzzle,
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(r.stderr, expected(other));
    // The default table, from $SLIDETABLE_TABLE.
    let r = Run::process_with(
        process(d).arg("distance").env("SLIDETABLE_TABLE", &corner),
        puzzle,
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(r.stderr, expected(standard));
}

/// Four queries start at once on an empty cache: one generates the table, the others wait
/// for it, and all answer.
#[test]
fn concurrent_first_use_generates_the_table_once() {
    let dir = TempDir::new().unwrap();
    let children: Vec<Child> = (0..4)
        .map(|_| {
            started_with(
                process(dir.path())
                    .args(["distance", "--board", "2x5"])
                    .stderr(Stdio::piped()),
                b"1 2 3 4 5 6 7 8 0 9\n",
            )
        })
        .collect();
    let mut generated = 0;
    for child in children {
        let r = Run::finished(child.wait_with_output().unwrap());
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

/// The 4×4 pattern database made on first use (the 6-6-3, `4x4-663.slt`, when no `4x4.slt`
/// is there) takes the same lock as every default table: while another process holds it, a
/// query waits (and says so) instead of building a second copy.
#[test]
fn first_use_of_the_pattern_database_waits_for_the_lock() {
    let dir = TempDir::new().unwrap();
    let cache = dir.path().join("cache/slidetable");
    fs::create_dir_all(&cache).unwrap();
    let lock = fs::File::create(cache.join(".4x4-663.slt.lock")).unwrap();
    lock.lock().unwrap();
    let mut child = started_with(
        process(dir.path())
            .args(["distance", "--board", "4x4"])
            .stderr(Stdio::piped()),
        b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n",
    );
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let (sender, first) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let mut line = String::new();
        let _ = stderr.read_line(&mut line);
        let _ = sender.send(line);
    });
    let line = first.recv_timeout(Duration::from_secs(60));
    // Stopped before it could build anything, however it went.
    child.kill().unwrap();
    child.wait().unwrap();
    let line = line.expect("a note on standard error within a minute");
    assert!(
        line.starts_with("slidetable: waiting for another slidetable to write"),
        "{line}"
    );
    let left: Vec<String> = fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        left,
        [".4x4-663.slt.lock"],
        "nothing written while the lock was held"
    );
}

// ---------------------------------------------------------------------------------------------
// A table rewritten or replaced while in use

/// Starts `path --table T INPUT`, waits for its first answers, then rewrites T in place as
/// `cp` does (truncate, a pause, the same bytes again) while the batch is still running.
/// Returns the exit status, stderr, and the answers written.
fn rewrite_under_a_batch(dir: &Path, table: &Path, input: &Path) -> (ExitStatus, String, usize) {
    let bytes = fs::read(table).unwrap();
    let mut child = process(dir)
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
    generate_into(dir.path(), "3x3", &[], &table);
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
    generate_into(dir.path(), "2x5", &[], &table);
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

/// The process-level form of the contract: a `distance` run maps the table (18 MB, so mapped
/// rather than read into memory), `generate`
/// replaces the file under it (with a table for another board), and the running query still
/// answers every line from the old table; the next run sees the new one.
#[test]
fn a_running_query_keeps_its_table_while_generate_replaces_it() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("table.slt");
    // 18 MB: above the size below which tables are read into memory instead of mapped.
    generate_into(dir.path(), "2x5", &[], &path);
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

    let mut query = process(dir.path())
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

    generate_into(dir.path(), "2x3", &[], &path);
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
