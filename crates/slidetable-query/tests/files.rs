//! Tables as files: written by the generator, mapped by the reader, and every way a file can
//! be wrong refused with a message that names the file and the field — without a panic and
//! without allocating what a corrupt header asks for.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use slidetable_core::{Board, Layout, Move, Ranker};
use slidetable_format::{Header, PayloadHasher};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes, write_table, SolvedSection};
use slidetable_query::{MappedTable, QueryError, Table};

// ---------------------------------------------------------------------------------------------
// The largest single allocation made by the current thread, to prove that absurd headers are
// refused before anything of the size they claim is allocated.

struct LargestAllocation;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    // `try_with`: allocations can happen while thread-locals are torn down.
    let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
}

// The one unsafe block of the tests: a global allocator can only be written as one.
// SAFETY: every call is passed straight to `System`; the wrapper only records sizes in a
// const-initialised thread-local, which never allocates.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for LargestAllocation {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        note(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: AllocLayout) -> *mut u8 {
        note(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        note(new_size);
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

/// Runs `f` and returns its result with the largest allocation it made on this thread.
fn largest_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LARGEST.with(|l| l.set(0));
    let out = f();
    (out, LARGEST.with(Cell::get))
}

// ---------------------------------------------------------------------------------------------
// Field offsets, from docs/FORMAT.md and slidetable-format.

const OFF_VERSION: usize = 8;
const OFF_ROWS: usize = 10;
const OFF_COLS: usize = 11;
const OFF_ENCODING: usize = 12;
const OFF_COST: usize = 13;
const OFF_SECTIONS: usize = 14;
const OFF_HEADER_LEN: usize = 16;
const OFF_HEADER_CRC: usize = 20;
const OFF_PAYLOAD_CRC: usize = 24;
const OFF_FILE_LEN: usize = 32;
const DESCRIPTORS: usize = 64;
const S_ENTRIES: usize = 16;
const S_MAX: usize = 24;
const S_HIST_LEN: usize = 28;
const S_HIST_OFF: usize = 32;
const S_PAYLOAD_LEN: usize = 48;

const REGENERATE: &str = "; generate it again with `slidetable generate`";

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn header_len(b: &[u8]) -> usize {
    read_u32(b, OFF_HEADER_LEN) as usize
}

/// Recomputes the header checksum, so that a patched field reaches the checks behind it.
fn reseal(b: &mut [u8]) {
    let len = header_len(b).min(b.len());
    b[OFF_HEADER_CRC..OFF_HEADER_CRC + 4].fill(0);
    let mut h = PayloadHasher::new();
    h.update(&b[..len]);
    let crc = h.finalize();
    b[OFF_HEADER_CRC..OFF_HEADER_CRC + 4].copy_from_slice(&crc.to_le_bytes());
}

fn crc(bytes: &[u8]) -> u32 {
    let mut h = PayloadHasher::new();
    h.update(bytes);
    h.finalize()
}

// ---------------------------------------------------------------------------------------------
// Tables, built once.

/// The default 2×3 table: six sections of 360 states, about 3.5 KiB.
fn small() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let board = Board::new(2, 3).unwrap();
        table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap()
    })
}

/// A 3×3 table with two sections: the standard goal and the blank in the centre.
fn eight_sections() -> &'static [SolvedSection] {
    static SECTIONS: OnceLock<Vec<SolvedSection>> = OnceLock::new();
    SECTIONS.get_or_init(|| {
        let board = Board::EIGHT;
        solve_sections(&[board.standard_goal(), board.goal_with_blank(4)]).unwrap()
    })
}

fn eight_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| table_bytes(Board::EIGHT, eight_sections()).unwrap())
}

/// Layouts of both classes spread over every rank.
fn sample(board: Board, count: u32) -> Vec<Layout> {
    let ranker = Ranker::new(board).unwrap();
    let step = (ranker.states() / u64::from(count)).max(1);
    (0..ranker.states())
        .step_by(step as usize)
        .flat_map(|r| [ranker.unrank(r, 0), ranker.unrank(r, 1)])
        .collect()
}

type Answer = (Option<u32>, Option<Vec<Move>>, Vec<Option<u32>>);

/// Everything a table says about `l`: the distance and path to the standard goal, and the
/// distance to each section's goal.
fn answer<D: AsRef<[u8]>>(t: &Table<D>, l: &Layout) -> Answer {
    let per_section = (0..t.sections().len())
        .map(|i| t.section(i).unwrap().distance(l).unwrap())
        .collect();
    (t.distance(l).unwrap(), t.path(l).unwrap(), per_section)
}

/// Asks `t` everything about `l`, ignoring the answers: a corrupt table may answer wrongly or
/// with an error, but never panic or walk forever.
fn poke<D: AsRef<[u8]>>(t: &Table<D>, l: &Layout) {
    let _ = t.distance(l);
    let _ = t.path(l);
    let mut path = Vec::new();
    for i in 0..t.sections().len() {
        let s = t.section(i).unwrap();
        let _ = (s.distance(l), s.first_move(l), s.optimal_moves(l));
        path.clear();
        if let Ok(true) = s.path_into(l, &mut path) {
            assert!(path.len() <= 63, "a walk of {} moves", path.len());
        }
    }
}

fn open_error(path: &Path) -> String {
    match Table::open(path) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(e) => e.to_string(),
    }
}

fn new_error(bytes: &[u8]) -> String {
    match Table::new(bytes) {
        Ok(_) => panic!("{} bytes were accepted", bytes.len()),
        Err(e) => e.to_string(),
    }
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Writes `bytes` to `name` in `dir` and returns the error opening it gives, which must
/// start with the path and end with the advice to regenerate.
fn refused(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let (msg, largest) = largest_allocation(|| open_error(&path));
    assert!(largest < 64 << 10, "{name}: allocated {largest} bytes");
    let prefix = format!("table {}: ", path.display());
    let inner = msg
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{name}: {msg:?} does not name the file"))
        .strip_suffix(REGENERATE)
        .unwrap_or_else(|| panic!("{name}: {msg:?} gives no advice"));
    // The same bytes in memory give the same message, without the file name.
    assert_eq!(
        new_error(bytes),
        format!("table: {inner}{REGENERATE}"),
        "{name}"
    );
    inner.to_string()
}

// ---------------------------------------------------------------------------------------------

#[test]
fn written_files_answer_like_bytes_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.slt");
    let written = write_table(&path, Board::EIGHT, eight_sections()).unwrap();
    assert_eq!(written, eight_bytes().len() as u64);
    assert_eq!(
        file_names(dir.path()),
        ["eight.slt"],
        "temporary files left behind"
    );
    assert_eq!(std::fs::read(&path).unwrap(), eight_bytes());

    let mapped = Table::open(&path).unwrap();
    mapped.verify().unwrap();
    assert_eq!(mapped.file(), Some(path.as_path()));
    let owned = Table::new(eight_bytes().to_vec()).unwrap();
    owned.verify().unwrap();
    assert_eq!(owned.file(), None);
    let borrowed = Table::new(eight_bytes()).unwrap();
    borrowed.verify().unwrap();
    assert_eq!(mapped.header(), owned.header());
    assert_eq!(mapped.header(), borrowed.header());

    for l in sample(Board::EIGHT, 1000) {
        let want = answer(&owned, &l);
        assert_eq!(answer(&mapped, &l), want, "{l}");
        assert_eq!(answer(&borrowed, &l), want, "{l}");
        if let Some(path) = &want.1 {
            assert_eq!(Some(path.len() as u32), want.0);
            assert_eq!(l.after(path), Some(Board::EIGHT.standard_goal()), "{l}");
        }
    }
}

#[test]
fn failed_writes_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.slt");
    let small_board = Board::new(2, 3).unwrap();
    let err = write_table(&path, small_board, eight_sections()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "sections are for different boards (2x3 and 3x3)"
    );
    assert_eq!(file_names(dir.path()), Vec::<String>::new());

    // A missing directory is named, and not made.
    let nowhere = dir.path().join("no-such-dir").join("t.slt");
    let err = write_table(&nowhere, Board::EIGHT, eight_sections()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "cannot write {}: directory {} does not exist",
            nowhere.display(),
            dir.path().join("no-such-dir").display()
        )
    );
    assert_eq!(file_names(dir.path()), Vec::<String>::new());
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing.slt");
    assert_eq!(
        open_error(&path),
        format!(
            "table {}: cannot read: No such file or directory (os error 2)",
            path.display()
        )
    );
    // A directory is not a table either.
    let msg = open_error(dir.path());
    assert!(
        msg.starts_with(&format!("table {}: ", dir.path().display())),
        "{msg}"
    );
}

#[test]
fn short_long_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = small();
    let len = good.len();
    let hlen = header_len(good);
    assert!(64 < hlen && hlen < len);

    assert_eq!(
        refused(dir.path(), "empty.slt", &[]),
        "file is 0 bytes, shorter than the 64-byte header"
    );
    assert_eq!(
        refused(dir.path(), "cut-fixed.slt", &good[..40]),
        "file is 40 bytes, shorter than the 64-byte header"
    );
    // Cut inside the section descriptors, inside the histograms, and inside the payload.
    for cut in [100, hlen - 3, hlen + 1, len - 1] {
        assert_eq!(
            refused(dir.path(), "cut.slt", &good[..cut]),
            format!(
                "file is {cut} bytes but its header says {len}: the file is truncated or has \
                 trailing bytes"
            )
        );
    }
    let mut long = good.to_vec();
    long.push(0);
    assert_eq!(
        refused(dir.path(), "long.slt", &long),
        format!(
            "file is {} bytes but its header says {len}: the file is truncated or has trailing \
             bytes",
            len + 1
        )
    );

    // 1 KiB of noise (a fixed xorshift stream, so the message is known).
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let noise: Vec<u8> = (0..1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect();
    let shown: Vec<String> = noise[..8].iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        refused(dir.path(), "noise.slt", &noise),
        format!(
            "not a slidetable file (magic number is [{}], expected \"SLIDETBL\")",
            shown.join(", ")
        )
    );

    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.resize(200, 0);
    assert_eq!(
        refused(dir.path(), "picture.png", &png),
        "not a slidetable file (magic number is [89, 50, 4e, 47, 0d, 0a, 1a, 0a], expected \
         \"SLIDETBL\")"
    );
    let text = "# puzzles, one a line\n2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n";
    assert_eq!(
        refused(dir.path(), "puzzles.txt", text.as_bytes()),
        "not a slidetable file (magic number is [23, 20, 70, 75, 7a, 7a, 6c, 65], expected \
         \"SLIDETBL\")"
    );
    // A short foreign file is refused by its length first.
    assert_eq!(
        refused(dir.path(), "short.txt", b"2 3 4 1 5 x 7 6 8\n"),
        "file is 18 bytes, shorter than the 64-byte header"
    );

    let mut magic = good.to_vec();
    magic[7] = b'X';
    assert_eq!(
        refused(dir.path(), "magic.slt", &magic),
        "not a slidetable file (magic number is [53, 4c, 49, 44, 45, 54, 42, 58], expected \
         \"SLIDETBL\")"
    );
}

#[test]
fn fields_are_checked_in_order_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = small();
    let patched = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.to_vec();
        f(&mut b);
        b
    };

    // The version is read right after the magic number: before the length, the board and
    // the header checksum (which a patched version would otherwise also break).
    let version = patched(&|b| b[OFF_VERSION] = 3);
    assert_eq!(
        refused(dir.path(), "v3.slt", &version),
        "format version 3 is not supported (this slidetable reads versions 1 and 2)"
    );
    assert_eq!(
        refused(dir.path(), "v3-cut.slt", &version[..version.len() - 100]),
        "format version 3 is not supported (this slidetable reads versions 1 and 2)"
    );
    let version = patched(&|b| b[OFF_VERSION] = 0);
    assert_eq!(
        refused(dir.path(), "v0.slt", &version),
        "format version 0 is not supported (this slidetable reads versions 1 and 2)"
    );
    assert_eq!(
        refused(
            dir.path(),
            "v256.slt",
            &patched(&|b| b[OFF_VERSION + 1] = 1)
        ),
        "format version 258 is not supported (this slidetable reads versions 1 and 2)"
    );

    for (rows, cols) in [(0, 3), (2, 0), (1, 6), (5, 3), (4, 4), (255, 255)] {
        assert_eq!(
            refused(
                dir.path(),
                "board.slt",
                &patched(&|b| (b[OFF_ROWS], b[OFF_COLS]) = (rows, cols))
            ),
            if (15..=16).contains(&(u32::from(rows) * u32::from(cols))) && rows > 1 && cols > 1 {
                // A board only pattern databases and 2-bit tables are made for: the
                // encoding byte (1 here) is the damage.
                format!(
                    "board {rows}x{cols} has only pattern databases (encoding 4) and 2bit \
                     tables (encoding 2), but the encoding field reads 1: the header is damaged"
                )
            } else {
                format!(
                    "board {rows}x{cols} is not supported (2x2 up to 14 cells, and 2bit tables \
                     up to 16)"
                )
            }
        );
    }
    for code in [0, 5, 255] {
        assert_eq!(
            refused(dir.path(), "enc.slt", &patched(&|b| b[OFF_ENCODING] = code)),
            format!("unknown entry encoding {code}")
        );
    }
    // Code 4 is a pattern database's (FORMAT.md §11), named as such, with what it answers
    // instead of the advice to generate it again (a pattern database is not damaged).
    let path = dir.path().join("enc.slt");
    std::fs::write(&path, patched(&|b| b[OFF_ENCODING] = 4)).unwrap();
    assert_eq!(
        open_error(&path),
        format!(
            "table {}: this is a pattern database (encoding 4), not a table of every state: it \
             answers `distance`, `path` and the 15-puzzle judges, and `info` describes it",
            path.display()
        )
    );
    assert_eq!(
        refused(dir.path(), "cost.slt", &patched(&|b| b[OFF_COST] = 7)),
        "unknown cost model 7"
    );
    for count in [0u16, 7, u16::MAX] {
        assert_eq!(
            refused(
                dir.path(),
                "count.slt",
                &patched(
                    &|b| b[OFF_SECTIONS..OFF_SECTIONS + 2].copy_from_slice(&count.to_le_bytes())
                )
            ),
            format!("section count {count} is out of range (1..=6 for this board)")
        );
    }

    // One flipped bit in the last histogram entry: only the header checksum notices.
    let flipped = patched(&|b| b[header_len(good) - 8] ^= 0x04);
    let stored = read_u32(good, OFF_HEADER_CRC);
    let mut zeroed = flipped[..header_len(good)].to_vec();
    zeroed[OFF_HEADER_CRC..OFF_HEADER_CRC + 4].fill(0);
    assert_eq!(
        refused(dir.path(), "header-flip.slt", &flipped),
        format!(
            "header checksum mismatch (stored {stored:08x}, computed {:08x}): the header is \
             corrupt",
            crc(&zeroed)
        )
    );
    // The stored payload checksum is part of the header, and covered by its checksum.
    let flipped = patched(&|b| b[OFF_PAYLOAD_CRC] ^= 1);
    assert!(refused(dir.path(), "crc-flip.slt", &flipped).starts_with("header checksum mismatch"));
}

#[test]
fn a_flipped_payload_bit_is_refused_at_open_and_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flip.slt");
    let mut bytes = small().to_vec();
    let hlen = header_len(&bytes);
    // The 2x3 table's payload (2160 bytes) is one block; its checksum is the last 4 bytes.
    let payload = 6 * 360;
    assert_eq!(bytes.len(), hlen + payload + 4);
    let at = hlen + 500;
    bytes[at] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let stored = read_u32(&bytes, hlen + payload);
    let computed = crc(&bytes[hlen..hlen + payload]);
    assert_ne!(stored, computed);
    let damage = format!(
        "bytes {hlen}..{} do not match their checksum (stored {stored:08x}, computed \
         {computed:08x}): the table is damaged there{REGENERATE}",
        hlen + payload
    );
    let message = format!("table {}: {damage}", path.display());
    // A query's open refuses it (read into memory, so verified whole); a report's open reads
    // the header and verifies on request.
    assert_eq!(Table::open(&path).err().unwrap().to_string(), message);
    let table = Table::open_header(&path).unwrap();
    assert_eq!(table.verify().unwrap_err().to_string(), message);
    // Bytes in memory say the same, without a file name, on request or when a question
    // first reads from the block.
    let in_memory = Table::new(&bytes[..]).unwrap();
    assert_eq!(
        in_memory.verify().unwrap_err().to_string(),
        format!("table: {damage}")
    );
    let far = Layout::new(Board::new(2, 3).unwrap(), &[5, 4, 3, 2, 1, 0]).unwrap();
    let asked = Table::new(&bytes[..]).unwrap().distance(&far).unwrap_err();
    assert!(matches!(asked, QueryError::Damaged { .. }), "{asked}");
    assert_eq!(asked.to_string(), damage);

    // A file of version 1 (one checksum of the whole payload) with the same flip: refused at
    // open too, by that checksum.
    let sound = small();
    let header = Header::parse(sound).unwrap();
    let mut old = header.version_1(sound).unwrap().to_bytes();
    old.extend_from_slice(&sound[hlen..hlen + payload]);
    assert!(Table::open_header(write(dir.path(), "v1.slt", &old)).is_ok());
    assert_eq!(
        Table::new(&old[..]).unwrap().distance(&far).unwrap(),
        Table::new(sound).unwrap().distance(&far).unwrap()
    );
    old[at] ^= 0x10;
    let v1 = write(dir.path(), "v1-flip.slt", &old);
    let stored = read_u32(&old, OFF_PAYLOAD_CRC);
    let computed = crc(&old[hlen..]);
    assert_eq!(
        Table::open(&v1).err().unwrap().to_string(),
        format!(
            "table {}: payload checksum mismatch (stored {stored:08x}, computed {computed:08x}): \
             the table is corrupt{REGENERATE}",
            v1.display()
        )
    );
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    let good = small();
    let len = good.len() as u64;
    let hlen = header_len(good) as u64;
    let section0 = DESCRIPTORS;
    let hist0 = read_u32(good, section0 + S_HIST_LEN);
    let huge = 1u64 << 60;
    let resealed = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.to_vec();
        f(&mut b);
        reseal(&mut b);
        b
    };
    let put_u32 =
        |b: &mut Vec<u8>, at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    let put_u64 =
        |b: &mut Vec<u8>, at: usize, v: u64| b[at..at + 8].copy_from_slice(&v.to_le_bytes());

    // Resealing alone changes nothing.
    assert!(Table::new(&resealed(&|_| ())[..]).is_ok());

    let cases: Vec<(Vec<u8>, String)> = vec![
        (
            resealed(&|b| put_u32(b, section0 + S_HIST_LEN, u32::MAX)),
            "section 0: histogram has 4294967295 entries; at most 65536 are allowed".into(),
        ),
        (
            resealed(&|b| put_u32(b, section0 + S_HIST_LEN, 65_537)),
            "section 0: histogram has 65537 entries; at most 65536 are allowed".into(),
        ),
        (
            // Within the limit, but far beyond the header.
            resealed(&|b| put_u32(b, section0 + S_HIST_LEN, 65_536)),
            format!(
                "section 0: histogram at 448..{} lies outside the header (..{hlen})",
                448 + 65_536 * 8
            ),
        ),
        (
            resealed(&|b| put_u64(b, section0 + S_HIST_OFF, u64::MAX - 7)),
            "histogram overflows".into(),
        ),
        (
            resealed(&|b| put_u64(b, section0 + S_ENTRIES, huge)),
            format!("section 0: entry count {huge} is wrong: a 2x3 board has 360 states per class"),
        ),
        (
            resealed(&|b| put_u64(b, section0 + S_PAYLOAD_LEN, huge)),
            format!("section 0: payload at {hlen}+{huge} should be at {hlen}+360"),
        ),
        (
            resealed(&|b| put_u32(b, section0 + S_MAX, u32::MAX)),
            format!(
                "section 0: maximum distance 4294967295 disagrees with the histogram's {hist0} \
                 entries"
            ),
        ),
        (
            resealed(&|b| put_u64(b, OFF_FILE_LEN, huge)),
            format!(
                "file is {len} bytes but its header says {huge}: the file is truncated or has \
                 trailing bytes"
            ),
        ),
        (
            // Not resealed: the checksum covers `header_len` bytes, so this must fail first.
            {
                let mut b = good.to_vec();
                put_u32(&mut b, OFF_HEADER_LEN, u32::MAX);
                b
            },
            format!("header length field is 4294967295, outside 448..={} (end of the section descriptors ..= file length)", good.len()),
        ),
    ];
    for (i, (bytes, want)) in cases.iter().enumerate() {
        assert_eq!(&refused(dir.path(), "absurd.slt", bytes), want, "case {i}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_flipped_bit_is_refused_or_fails_verification(bit in 0..small().len() * 8) {
        let mut bytes = small().to_vec();
        bytes[bit / 8] ^= 1 << (bit % 8);
        if let Ok(table) = Table::new(&bytes[..]) {
            prop_assert!(table.verify().is_err(), "bit {} went unnoticed", bit);
            // A corrupt payload may give wrong answers, but never a panic or an endless walk.
            for l in sample(table.board(), 40) {
                poke(&table, &l);
            }
        }
    }

    #[test]
    fn a_truncated_file_is_refused(cut in 0..small().len()) {
        let msg = new_error(&small()[..cut]);
        prop_assert!(
            msg.contains("shorter than the 64-byte header") || msg.contains("the file is truncated"),
            "{}", msg
        );
    }

    #[test]
    fn a_resealed_header_with_any_byte_changed_never_panics(
        at in 0..1000usize,
        value in any::<u8>(),
    ) {
        let mut bytes = small().to_vec();
        let at = at % header_len(&bytes);
        if (OFF_HEADER_CRC..OFF_HEADER_CRC + 4).contains(&at) {
            return Ok(());
        }
        bytes[at] = value;
        reseal(&mut bytes);
        let (opened, largest) = largest_allocation(|| Table::new(&bytes[..]).is_ok());
        prop_assert!(largest < 64 << 10, "allocated {} bytes", largest);
        if opened {
            // What the header check lets through must be safe to query.
            let table = Table::new(&bytes[..]).unwrap();
            for l in sample(table.board(), 60) {
                poke(&table, &l);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_after_a_valid_start_never_panic(
        rest in prop::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut bytes = small()[..OFF_COLS + 1].to_vec();
        bytes.extend_from_slice(&rest);
        let (result, largest) = largest_allocation(|| Table::new(&bytes[..]).map(|_| ()));
        prop_assert!(result.is_err());
        prop_assert!(largest < 64 << 10, "allocated {} bytes", largest);
    }
}

#[test]
fn every_single_bit_flip_is_noticed() {
    let good = small();
    let mut bytes = good.to_vec();
    for bit in 0..good.len() * 8 {
        bytes[bit / 8] ^= 1 << (bit % 8);
        if let Ok(table) = Table::new(&bytes[..]) {
            assert!(table.verify().is_err(), "bit {bit} went unnoticed");
        }
        bytes[bit / 8] ^= 1 << (bit % 8);
    }
}

// Tables are shared between threads as they are.
const _: fn() = || {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<MappedTable>();
    send_and_sync::<Table<Vec<u8>>>();
    send_and_sync::<Table<&'static [u8]>>();
};

#[test]
fn eight_threads_share_one_mapped_table() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("shared.slt");
    write_table(&path, Board::EIGHT, eight_sections()).unwrap();
    let table: MappedTable = Table::open(&path).unwrap();
    let states = sample(Board::EIGHT, 2000);
    let want: Vec<Answer> = states.iter().map(|l| answer(&table, l)).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|k| {
                let (table, states) = (&table, &states);
                scope.spawn(move || {
                    // Each thread starts at a different place, so they overlap in time.
                    let n = states.len();
                    (0..n)
                        .map(|i| (i + k * n / 8) % n)
                        .map(|i| (i, answer(table, &states[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for w in workers {
            for (i, got) in w.join().unwrap() {
                assert_eq!(got, want[i], "{}", states[i]);
            }
        }
    });
}
