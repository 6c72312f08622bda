//! How a mapped table is read (`readahead.rs`): a table with block checksums is mapped for
//! random access, so that on a table larger than memory a fault reads its page and not a
//! window of pages evicting others; a pass over the whole payload (`verify`) reads ahead and
//! leaves the map for random access again. The kernel shows a mapping's advice in
//! `/proc/self/smaps` (`rr`: random read, `sr`: sequential read).

#![cfg(target_os = "linux")]

use std::path::Path;

use slidetable_core::{Board, Layout};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_query::{Table, READ_BELOW};

/// The advice flags (`rr`, `sr`) of every mapping of `path` in this process.
fn advice(path: &Path) -> Vec<String> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let name = path.to_str().unwrap();
    let mut flags = Vec::new();
    let mut ours = false;
    for line in smaps.lines() {
        if let Some(rest) = line.strip_prefix("VmFlags:") {
            if ours {
                let mut f: Vec<&str> = rest
                    .split_whitespace()
                    .filter(|f| *f == "rr" || *f == "sr")
                    .collect();
                f.sort_unstable();
                flags.push(f.join(" "));
            }
        } else if line.contains('-') && line.split_whitespace().count() >= 5 {
            // A mapping's first line: address range, permissions, offset, device, inode, path.
            ours = line.ends_with(name);
        }
    }
    flags
}

#[test]
fn a_mapped_table_with_block_checksums_is_read_at_random_and_verified_ahead() {
    // Every goal of 2×5: ten sections of 1,814,400 byte entries, 18 MB, so mapped.
    let board = Board::new(2, 5).unwrap();
    let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
    assert!(bytes.len() as u64 >= READ_BELOW);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2x5.slt");
    std::fs::write(&path, &bytes).unwrap();

    let table = Table::open(&path).unwrap();
    assert!(table.bytes().len() == bytes.len());
    assert_eq!(advice(&path), ["rr"], "after open");
    table.verify().unwrap();
    assert_eq!(advice(&path), ["rr"], "after verify");

    // The hints change no answer: 2,000 shuffled layouts, both classes, against the same
    // bytes in memory.
    let owned = Table::new(bytes.clone()).unwrap();
    let mut tiles: Vec<u8> = (0..10).collect();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..2000 {
        for i in (1..tiles.len()).rev() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tiles.swap(i, (seed >> 33) as usize % (i + 1));
        }
        let layout = Layout::new(board, &tiles).unwrap();
        assert_eq!(
            table.distance(&layout).unwrap(),
            owned.distance(&layout).unwrap(),
            "{layout}"
        );
    }
    assert_eq!(table.distance(&board.standard_goal()).unwrap(), Some(0));
}
