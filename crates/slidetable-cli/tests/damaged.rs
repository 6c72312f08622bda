//! Damaged tables and pattern databases never answer wrong: a changed payload byte is refused
//! (exit 1, the file named) or, where no checksum can see it, the answer is still right; no
//! damage makes a query run forever.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common;
use crate::common::{generate_into, slidetable, table_3x3, table_3x3_2bit, Run};
use slidetable::core::{Board, Ranker};
use slidetable::format::PayloadHasher;
use tempfile::TempDir;

/// The header length field of a file's bytes.
fn header_len(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize
}

fn crc(bytes: &[u8]) -> u32 {
    let mut h = PayloadHasher::new();
    h.update(bytes);
    h.finalize()
}

/// Where the payloads end (the block checksums of format version 2 follow): the header
/// length plus each descriptor's payload length (`u64` at 48 in each 64-byte descriptor).
fn payload_end(bytes: &[u8]) -> usize {
    let count = u16::from_le_bytes([bytes[14], bytes[15]]) as usize;
    header_len(bytes)
        + (0..count)
            .map(|i| {
                let at = 64 + 64 * i + 48;
                u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize
            })
            .sum::<usize>()
}

/// Stores in `bytes` the checksums of its payload as it now is (each block's after the
/// payloads and theirs at 28, the whole payload's at 24), and the header checksum that
/// covers them: damage no checksum can see.
fn recompute_checksums(bytes: &mut [u8]) {
    let h = header_len(bytes);
    let end = payload_end(bytes);
    let blocks: Vec<u8> = bytes[h..end]
        .chunks(1 << 16)
        .flat_map(|b| crc(b).to_le_bytes())
        .collect();
    bytes[end..].copy_from_slice(&blocks);
    bytes[28..32].copy_from_slice(&crc(&blocks).to_le_bytes());
    let mut payload = PayloadHasher::new();
    payload.update(&bytes[h..end]);
    bytes[24..28].copy_from_slice(&payload.finalize().to_le_bytes());
    bytes[20..24].fill(0);
    let mut header = PayloadHasher::new();
    header.update(&bytes[..h]);
    let crc = header.finalize();
    bytes[20..24].copy_from_slice(&crc.to_le_bytes());
}

fn copy_with(dir: &Path, name: &str, from: &Path, change: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = fs::read(from).unwrap();
    change(&mut bytes);
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

fn query(command: &str, table: &Path, args: &[&str], input: &str) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table)
            .args(args)
            .write_stdin(input)
            .timeout(Duration::from_secs(60)),
    )
}

/// A refusal: exit 1, nothing on standard output, the file named and the damage said.
fn assert_refused(run: &Run, table: &Path, what: &str) {
    assert_eq!(run.code, Some(1), "{what}: {run:#?}");
    assert_eq!(run.stdout, "", "{what}: {run:#?}");
    assert!(
        run.stderr.contains(&table.display().to_string()),
        "{what}: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains("corrupt") || run.stderr.contains("damaged"),
        "{what}: {}",
        run.stderr
    );
}

#[test]
fn a_changed_payload_byte_is_refused_not_answered() {
    // The case of the report: byte 1539346 set to 0x66 made `2 6 7 8 0 1 5 4 3` read 25
    // (the truth is 24).
    let dir = TempDir::new().unwrap();
    let bad = copy_with(dir.path(), "byte.slt", table_3x3(), |b| b[1_539_346] = 0x66);
    for command in ["distance", "path"] {
        for args in [&[][..], &["--json"]] {
            let run = query(command, &bad, args, "2 6 7 8 0 1 5 4 3\n");
            assert_refused(&run, &bad, command);
        }
    }
    // An all-zero payload (every puzzle "solved"), and `random`, `hardest`, `heuristic`.
    let zero = copy_with(dir.path(), "zero.slt", table_3x3(), |b| {
        let h = header_len(b);
        b[h..].fill(0);
    });
    assert_refused(
        &query("distance", &zero, &[], "8 6 7 2 5 4 3 0 1\n"),
        &zero,
        "zero",
    );
    let random = Run::of(
        slidetable()
            .args(["random", "--depth", "5", "--table"])
            .arg(&bad),
    );
    assert_refused(&random, &bad, "random");
    let heuristic = query("heuristic", &bad, &[], "2 6 7 8 0 1 5 4 3\n");
    assert_refused(&heuristic, &bad, "heuristic");
}

#[test]
fn a_flipped_bit_in_a_two_bit_table_is_refused() {
    let dir = TempDir::new().unwrap();
    let bad = copy_with(dir.path(), "2bit.slt", table_3x3_2bit(), |b| {
        let h = header_len(b);
        b[h + 20_000] ^= 0x04;
    });
    let run = query("path", &bad, &[], "8 6 7 2 5 4 3 0 1\n");
    assert_refused(&run, &bad, "2bit");
}

/// Entries zeroed and every checksum made again (damage no checksum sees): a distance of 0
/// for a puzzle that is not the goal is refused, in one answer and in a batch, and
/// `info --verify` finds what `path` finds (the entries disagree with the header's histogram).
#[test]
fn zeroed_entries_under_fresh_checksums_never_answer_0_and_fail_verify() {
    let dir = TempDir::new().unwrap();
    for (name, source) in [
        ("zero.slt", table_3x3()),
        ("zero-2bit.slt", table_3x3_2bit()),
    ] {
        let bad = copy_with(dir.path(), name, source, |b| {
            let (h, end) = (header_len(b), payload_end(b));
            b[h..end].fill(0);
            recompute_checksums(b);
        });
        for input in ["8 6 7 2 5 4 3 0 1\n", &"2 3 4 1 5 0 7 6 8\n".repeat(300)] {
            let run = query("distance", &bad, &[], input);
            assert_refused(&run, &bad, name);
        }
        let run = Run::of(slidetable().args(["info", "--verify"]).arg(&bad));
        assert_eq!(run.code, Some(1), "{name}: {run:#?}");
        assert!(run.stderr.contains("histogram"), "{name}: {}", run.stderr);
    }
}

/// One flipped bit in every 4 KiB of the 3x3 payload; each damaged table is asked about the
/// puzzles whose entries lie in the damaged block, towards that section's goal: every answer
/// is the sound table's, or the query is refused. Never a wrong answer.
#[test]
fn a_bit_flip_in_every_4k_of_the_payload_is_refused_or_harmless() {
    let dir = TempDir::new().unwrap();
    let good = fs::read(table_3x3()).unwrap();
    let h = header_len(&good);
    let states = 181_440usize;
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    let table = slidetable::query::Table::new(good.clone()).unwrap();
    let bad = dir.path().join("flipped.slt");
    let mut flips = 0;
    // The payloads, not the block checksums after them (a flip there is refused at open).
    for (i, offset) in (h..h + 9 * states).step_by(4096).enumerate() {
        let mut bytes = good.clone();
        let at = offset + (i * 977) % 4096.min(h + 9 * states - offset);
        bytes[at] ^= 1 << (i % 8);
        fs::write(&bad, &bytes).unwrap();
        let section = (at - h) / states;
        let goal = *table.sections()[section].goal();
        // The flipped entry and its neighbours in the block.
        let first = ((at - h) % states).saturating_sub(3);
        let input: String = (first..(first + 7).min(states))
            .map(|r| format!("{}\n", ranker.unrank(r as u64, goal.class())))
            .collect();
        let goal_text = goal.to_string();
        for command in ["distance", "path"] {
            let run = query(command, &bad, &["--goal", &goal_text], &input);
            if run.code == Some(1) {
                assert_refused(&run, &bad, &format!("flip at {at}"));
                continue;
            }
            let sound = query(command, table_3x3(), &["--goal", &goal_text], &input);
            assert_eq!(run.code, Some(0), "flip at {at}: {run:#?}");
            assert_eq!(run.stdout, sound.stdout, "flip at {at}: a wrong answer");
        }
        flips += 1;
    }
    assert!(flips >= 390, "{flips}");
}

/// A mapped table (the 18 MB 2x5 one, format version 2) is not read whole at open: each
/// block is verified the first time a question reads from it. A damaged block refuses the
/// puzzles whose entries lie in it, naming the file and the block's bytes, while the others
/// are still answered; `info --verify` names the block too. The same damage in a file of
/// version 1 (one checksum for the whole payload) is refused at open.
#[test]
fn a_damaged_block_of_a_mapped_table_refuses_its_puzzles_only() {
    let dir = TempDir::new().unwrap();
    let good_path = dir.path().join("2x5.slt");
    generate_into(dir.path(), "2x5", &[], &good_path);
    let good = fs::read(&good_path).unwrap();
    let table = slidetable::query::Table::new(&good[..]).unwrap();
    assert_eq!(table.header().version(), 2);
    let board = table.board();
    let goal = board.standard_goal();
    let section = table.section_for(&goal).unwrap();
    let base = table.sections()[section].payload_offset() as usize;
    let ranker = Ranker::new(board).unwrap();
    // A puzzle whose entry is in the middle of a block, and one 64 KiB further on.
    let rank = 5 * 65_536 + 1_000;
    let (hit, miss) = (
        ranker.unrank(rank as u64, goal.class()),
        ranker.unrank(rank as u64 + 65_536, goal.class()),
    );
    let at = base + rank;
    let h = table.header().header_len() as usize;
    let start = h + (at - h) / 65_536 * 65_536;
    let bad = copy_with(dir.path(), "bad.slt", &good_path, |b| b[at] ^= 0x80);
    let refused = query("distance", &bad, &[], &format!("{hit}\n"));
    assert_refused(&refused, &bad, "the damaged block");
    assert!(
        refused
            .stderr
            .contains(&format!("bytes {start}..{} do not match", start + 65_536)),
        "{}",
        refused.stderr
    );
    // The file is named once ("table F: … (file F)" named it twice).
    assert_eq!(
        refused.stderr.matches(&bad.display().to_string()).count(),
        1,
        "{}",
        refused.stderr
    );
    // `distance` reads the one entry, in a sound block; a path may walk through the damaged
    // block: right or refused, never wrong.
    for command in ["distance", "path"] {
        let sound = query(command, &good_path, &[], &format!("{miss}\n"));
        let answered = query(command, &bad, &[], &format!("{miss}\n"));
        assert_eq!(sound.code, Some(0), "{sound:#?}");
        if command == "path" && answered.code == Some(1) {
            assert_refused(&answered, &bad, "a path through the damaged block");
            continue;
        }
        assert_eq!(answered.stdout, sound.stdout, "{answered:#?}");
    }
    let info = Run::of(slidetable().arg("info").arg(&bad).arg("--verify"));
    assert_eq!(info.code, Some(1), "{info:#?}");
    assert!(
        info.stdout.contains(&format!(
            "FAILED: bytes {start}..{} do not match",
            start + 65_536
        )),
        "{info:#?}"
    );
    // Version 1: no block checksums, so the whole payload is checked at open.
    let old = dir.path().join("old.slt");
    let header = table.header().version_1(&good).unwrap();
    let mut v1 = header.to_bytes();
    v1.extend_from_slice(&good[h..h + 10 * ranker.states() as usize]);
    fs::write(&old, &v1).unwrap();
    let sound = query("distance", &good_path, &[], &format!("{hit}\n{miss}\n"));
    assert_eq!(
        query("distance", &old, &[], &format!("{hit}\n{miss}\n")).stdout,
        sound.stdout
    );
    v1[at] ^= 0x80;
    fs::write(&old, &v1).unwrap();
    let run = query("distance", &old, &[], &format!("{miss}\n"));
    assert_refused(&run, &old, "version 1");
    assert!(
        run.stderr.contains("payload checksum mismatch"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_damaged_encoding_byte_of_a_15_puzzle_database_is_named_as_damage() {
    // A flipped encoding byte (offset 12) read "board 4x4 is not supported": true of tables,
    // and no help with a database whose header is damaged.
    let dir = TempDir::new().unwrap();
    let db = dir.path().join("555.slt");
    generate_into(dir.path(), "4x4", &["--pdb", "5-5-5"], &db);
    // 2 is a 2-bit table's encoding, which 4x4 has too: the header's checksum names it.
    let bad = copy_with(dir.path(), "enc.slt", &db, |b| b[12] = 2);
    let r = query(
        "distance",
        &bad,
        &[],
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n",
    );
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr.contains("header checksum mismatch"),
        "{}",
        r.stderr
    );
    for code in [1u8, 3, 5] {
        let bad = copy_with(dir.path(), "enc.slt", &db, |b| b[12] = code);
        for command in ["distance", "path"] {
            let r = query(
                command,
                &bad,
                &[],
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n",
            );
            assert_eq!(r.code, Some(1), "{command} {code}: {r:#?}");
            assert!(
                r.stderr.contains(&format!(
                    "board 4x4 has only pattern databases (encoding 4) and 2bit tables \
                     (encoding 2), but the encoding field reads {code}: the header is damaged"
                )),
                "{command} {code}: {}",
                r.stderr
            );
        }
    }
}

#[test]
fn a_damaged_pattern_database_is_refused_and_never_hangs() {
    let dir = TempDir::new().unwrap();
    let db = dir.path().join("4-4.slt");
    generate_into(dir.path(), "3x3", &["--pdb", "4-4"], &db);
    let good = fs::read(&db).unwrap();
    let h = header_len(&good);
    let input = "1 2 3 4 5 6 7 0 8\n8 6 7 2 5 4 3 0 1\n";
    // One changed nibble anywhere: the checksum refuses it.
    for at in [h, h + 1000, good.len() - 1] {
        let bad = copy_with(dir.path(), "nibble.slt", &db, |b| b[at] ^= 0x30);
        for command in ["distance", "path"] {
            assert_refused(&query(command, &bad, &[], input), &bad, "nibble");
        }
        let search = Run::of(
            slidetable()
                .args([
                    "search",
                    "--method",
                    "idastar",
                    "--heuristic",
                    "pdb",
                    "--table",
                ])
                .arg(&bad)
                .write_stdin(input)
                .timeout(Duration::from_secs(60)),
        );
        assert_refused(&search, &bad, "search");
    }
    // Damage with matching checksums: the goal's own entry (the search used to run
    // forever) and every nibble raised (answers would be too long).
    for (name, change) in [
        (
            "goal.slt",
            Box::new(|b: &mut Vec<u8>| {
                let end = payload_end(b);
                b[h..end].iter_mut().for_each(|x| *x |= 0x11)
            }) as Box<dyn Fn(&mut Vec<u8>)>,
        ),
        (
            "swapped.slt",
            Box::new(|b: &mut Vec<u8>| {
                // The two groups' tile masks exchanged.
                let (a, c) = (64 + 56, 128 + 56);
                let first: [u8; 2] = b[a..a + 2].try_into().unwrap();
                b.copy_within(c..c + 2, a);
                b[c..c + 2].copy_from_slice(&first);
            }),
        ),
    ] {
        let bad = copy_with(dir.path(), name, &db, |b| {
            change(b);
            recompute_checksums(b);
        });
        for command in ["distance", "path"] {
            let run = query(command, &bad, &[], input);
            assert_eq!(run.code, Some(1), "{name} {command}: {run:#?}");
            assert!(run.stderr.contains("damaged"), "{name}: {}", run.stderr);
        }
    }
}

/// Damage no checksum sees that only a search finds, midway through a batch: every entry
/// but the goal's raised to 15, so the bound passes the most moves a 3x3 puzzle needs. The
/// message names the line whose search failed, as every message about one line does, and
/// the answers before it are kept (exit 1: a bad table), from `search` and from `path` and
/// `distance` on the database (which solve a chunk of lines at a time).
#[test]
fn a_search_that_finds_its_database_damaged_names_the_line() {
    let dir = TempDir::new().unwrap();
    let db = dir.path().join("4-4.slt");
    generate_into(dir.path(), "3x3", &["--pdb", "4-4"], &db);
    let h = header_len(&fs::read(&db).unwrap());
    let bad = copy_with(dir.path(), "raised.slt", &db, |b| {
        let end = payload_end(b);
        for x in &mut b[h..end] {
            let raise = |n: u8| if n == 0 { 0 } else { 15 };
            *x = raise(*x & 0xf) | (raise(*x >> 4) << 4);
        }
        recompute_checksums(b);
    });
    let input = dir.path().join("puzzles.txt");
    fs::write(
        &input,
        "# one move, then 31\n1 2 3 4 5 6 7 0 8\n8 6 7 2 5 4 3 0 1\n",
    )
    .unwrap();
    let search = ["search", "--method", "idastar", "--heuristic", "pdb"];
    for (args, first) in [
        (&search[..], "r\n"),
        (&["path"][..], "r\n"),
        (&["distance"][..], "1\n"),
    ] {
        let run = Run::of(
            slidetable()
                .args(args)
                .arg("--table")
                .arg(&bad)
                .arg(&input)
                .timeout(Duration::from_secs(60)),
        );
        assert_eq!(run.code, Some(1), "{args:?}: {run:#?}");
        assert_eq!(run.stdout, first, "{args:?}: {run:#?}");
        let line = format!("{}: line 3: ", input.display());
        assert!(
            run.stderr.contains(&line) && run.stderr.contains("the pattern database is damaged"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// A mapped table (the 18 MB 2x5 one) written over in place without a change of length, as
/// `dd … conv=notrunc` does, under a running batch: no SIGBUS can tell, so the batch looks
/// at the file itself (each second, and once more when it has answered) and stops with
/// `table T changed while in use`, exit 1, rather than end with status 0 after answers that
/// may be wrong.
#[test]
fn a_mapped_table_written_over_in_place_under_a_batch_is_reported() {
    written_over_under_a_batch(3_000_000);
}

/// A batch that ends well within the watcher's period (one second) is caught too: when its
/// table is released, its file is looked at once more.
#[test]
fn a_mapped_table_written_over_under_a_short_batch_is_reported() {
    written_over_under_a_batch(100_000);
}

fn written_over_under_a_batch(lines: usize) {
    use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
    use std::process::Stdio;

    let dir = TempDir::new().unwrap();
    let table = dir.path().join("2x5.slt");
    generate_into(dir.path(), "2x5", &[], &table);
    let input = dir.path().join("big.txt");
    fs::write(
        &input,
        "9 8 7 6 5 4 3 2 1 0\n1 0 3 4 5 6 7 8 9 2\n".repeat(lines / 2),
    )
    .unwrap();
    let mut child = common::process(dir.path())
        .args(["path", "--table"])
        .arg(&table)
        .arg(&input)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::with_capacity(1 << 16, child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let mut first = Vec::new();
    stdout.read_until(b'\n', &mut first).unwrap();
    assert!(!first.is_empty(), "no answer at all");
    let counter = std::thread::spawn(move || 1 + stdout.split(b'\n').count());
    // Zeros over part of the payload, in place: same file, same length.
    let len = fs::metadata(&table).unwrap().len();
    let mut file = fs::OpenOptions::new().write(true).open(&table).unwrap();
    file.seek(SeekFrom::Start(len / 2)).unwrap();
    file.write_all(&[0u8; 4096]).unwrap();
    drop(file);
    assert_eq!(fs::metadata(&table).unwrap().len(), len);
    let status = common::wait_at_most(&mut child, Duration::from_secs(120), "the batch");
    let stderr = errors.join().unwrap();
    let answers = counter.join().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "{status:?} after {answers} answers: {stderr}"
    );
    assert_eq!(
        stderr,
        format!(
            "slidetable: table {} changed while in use (replace tables with `mv` or \
             `slidetable generate`, never by writing over them)\n",
            table.display()
        )
    );
}
