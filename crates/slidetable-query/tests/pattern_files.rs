//! Pattern-database files are read back as written, and hostile ones are refused with a
//! message naming what is wrong, never a panic: truncations, bit flips, groups that overlap
//! or leave a tile out, and a table reader handed a pattern file.

use slidetable_core::{Board, Layout};
use slidetable_format::{FormatError, PatternHeader, PatternSpec, PayloadHasher, PayloadSums};
use slidetable_gen::engine::{pattern_bytes, solve_partition};
use slidetable_gen::Partition;
use slidetable_query::{PatternTable, Table};

fn small_file() -> (Layout, Vec<u8>) {
    let goal = Board::new(2, 3).unwrap().standard_goal();
    let partition = Partition::parse("2-3", &goal).unwrap();
    let sections = solve_partition(&goal, &partition, &|_| ()).unwrap();
    (goal, pattern_bytes(&sections).unwrap())
}

fn error(bytes: &[u8]) -> String {
    match PatternTable::new(bytes) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.kind.to_string(),
    }
}

/// Rewrites the header checksum after a deliberate change, so the change itself is judged.
fn reseal(file: &mut [u8]) {
    let header_len = u32::from_le_bytes(file[16..20].try_into().unwrap()) as usize;
    file[20..24].fill(0);
    let mut h = PayloadHasher::new();
    h.update(&file[..header_len]);
    let crc = h.finalize();
    file[20..24].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_written_file_reads_back() {
    let (goal, file) = small_file();
    let table = PatternTable::new(&file[..]).unwrap();
    table.verify().unwrap();
    assert_eq!(*table.goal(), goal);
    assert_eq!(table.groups().len(), 2);
    assert_eq!(table.header().sections()[0].group(), vec![1, 2]);
    assert_eq!(table.header().sections()[1].group(), vec![3, 4, 5]);
    assert_eq!(table.estimate(&goal), 0);
    let one_away = Layout::new(goal.board(), &[1, 2, 3, 4, 0, 5]).unwrap();
    assert_eq!(table.estimate(&one_away), 1);
}

#[test]
fn a_layout_of_another_board_is_estimated_zero() {
    // A 3×2 layout has the 2×3 database's six cells; read as one of its layouts it would
    // give a wrong bound. As every heuristic on another board: 0.
    let (_, file) = small_file();
    let table = PatternTable::new(&file[..]).unwrap();
    let other = Layout::new(Board::new(3, 2).unwrap(), &[0, 5, 4, 3, 2, 1]).unwrap();
    assert_eq!(table.estimate(&other), 0);
}

#[test]
fn every_truncation_is_refused() {
    let (_, file) = small_file();
    for len in 0..file.len() {
        let e = error(&file[..len]);
        assert!(
            e.contains("shorter than the 64-byte header") || e.contains("truncated"),
            "{len}: {e}"
        );
    }
    let mut longer = file.clone();
    longer.push(0);
    assert!(error(&longer).contains("trailing bytes"));
}

#[test]
fn every_header_bit_flip_is_refused_and_payload_flips_fail_verify() {
    let (_, file) = small_file();
    let header_len = PatternHeader::parse(&file).unwrap().header_len() as usize;
    // One block of payload, so one block checksum at the end.
    let trailer = file.len() - 4;
    for bit in 0..file.len() * 8 {
        let mut bad = file.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        if bit / 8 < header_len || bit / 8 >= trailer {
            assert!(PatternTable::new(&bad[..]).is_err(), "bit {bit} accepted");
        } else {
            let table = PatternTable::new(&bad[..]).unwrap();
            let e = table.verify().unwrap_err().kind.to_string();
            assert!(
                e.starts_with(&format!(
                    "bytes {header_len}..{trailer} do not match their checksum"
                )),
                "bit {bit}: {e}"
            );
        }
    }
}

#[test]
fn overlapping_and_missing_groups_are_refused() {
    let (_, file) = small_file();
    // Section 1's tile mask (descriptor 1 at 128, mask at offset 56): tiles 3, 4, 5.
    let mask_at = 64 + 64 + 56;
    let mut overlap = file.clone();
    overlap[mask_at..mask_at + 2].copy_from_slice(&0b11_1100u16.to_le_bytes());
    reseal(&mut overlap);
    // Four tiles now: the entry count is checked after the overlap.
    assert_eq!(
        error(&overlap),
        "section 1: tile 2 is in this group and an earlier one: groups must not overlap; \
         generate it again with `slidetable generate`"
    );
    let mut missing = file.clone();
    missing[mask_at..mask_at + 2].copy_from_slice(&0b01_1000u16.to_le_bytes());
    reseal(&mut missing);
    assert_eq!(
        error(&missing),
        "section 1: entry count 120 is wrong: 2 tiles on a 2x3 board have 30 placements; \
         generate it again with `slidetable generate`"
    );
    let mut off_board = file.clone();
    off_board[mask_at..mask_at + 2].copy_from_slice(&0b100_0011_1000u16.to_le_bytes());
    reseal(&mut off_board);
    assert!(error(&off_board).contains("names tiles that are not on a 2x3 board"));
    // The writer refuses the same groups before any byte is written.
    let goal = Board::new(2, 3).unwrap().standard_goal();
    let spec = |tiles, n: u64| PatternSpec::new(tiles, vec![1, n - 1]);
    assert_eq!(
        PatternHeader::build(
            goal,
            vec![spec(0b110, 30), spec(0b1000, 6)],
            PayloadSums::Whole(0)
        )
        .unwrap_err(),
        FormatError::TileInNoGroup { tile: 4, last: 5 }
    );
}

#[test]
fn a_table_reader_names_a_pattern_file() {
    let (_, file) = small_file();
    assert_eq!(
        Table::new(&file[..]).err().unwrap().kind.to_string(),
        "this is a pattern database (encoding 4), not a table of every state: it answers \
         `distance`, `path` and the 15-puzzle judges, and `info` describes it"
    );
    let table = slidetable_gen::engine::table_bytes(
        Board::new(2, 2).unwrap(),
        &[
            slidetable_gen::engine::solve_section(&Board::new(2, 2).unwrap().standard_goal())
                .unwrap(),
        ],
    )
    .unwrap();
    assert_eq!(
        error(&table),
        "unknown entry encoding 1; generate it again with `slidetable generate`"
    );
}

#[test]
fn a_damaged_block_of_a_file_of_many_blocks_fails_verify_and_the_first_is_named() {
    // 4x4 5-5-5: three payloads of 262,080 bytes, 12 blocks of 64 KiB checked on every core.
    let goal = Board::new(4, 4).unwrap().standard_goal();
    let partition = Partition::parse("5-5-5", &goal).unwrap();
    let file = pattern_bytes(&solve_partition(&goal, &partition, &|_| ()).unwrap()).unwrap();
    let header = PatternHeader::parse(&file).unwrap();
    assert_eq!(header.block_count(), 12);
    PatternTable::new(&file[..]).unwrap().verify().unwrap();
    let start = header.header_len() as usize;
    let block = 1 << 16;
    for damaged in [vec![11], vec![0], vec![5, 9], vec![9, 3]] {
        let mut bad = file.clone();
        for &k in &damaged {
            bad[start + k * block + 77] ^= 0x10;
        }
        let first = *damaged.iter().min().unwrap();
        let e = PatternTable::new(&bad[..]).unwrap().verify().unwrap_err();
        let end = (start + (first + 1) * block).min(start + 3 * 262_080);
        assert!(
            e.kind.to_string().starts_with(&format!(
                "bytes {}..{end} do not match their checksum",
                start + first * block
            )),
            "{damaged:?}: {e}"
        );
    }
}
