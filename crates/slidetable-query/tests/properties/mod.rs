//! What the table reader promises about any bytes at all, written once and checked twice: by
//! the property tests in `tests/read_any_bytes.rs` (stable, every `cargo test`) and by the fuzz
//! targets `table_reader` and `table_tail` in `fuzz/` (nightly, libFuzzer), which include this
//! file by path. It uses only the public API of the core, gen and query crates, and no
//! proptest, so that both can build it.
//!
//! The promise: `Table::new` refuses the bytes, or accepts them and then `verify` and every
//! query return — no panic, no endless walk — and every path a query returns is legal, as long
//! as its distance, and ends on the goal asked about. An accepted table whose payload is
//! corrupt may give wrong distances (that is what `verify` is for), never an illegal path.

#![allow(dead_code)] // each includer uses its own part

use std::sync::OnceLock;

use slidetable_core::{Board, Layout, Move, Ranker};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_query::{CostModel, Encoding, Table};

/// What became of some bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// `Table::new` refused them.
    Refused,
    /// Accepted, but the payload checksum does not hold.
    Unverified,
    /// Accepted and verified.
    Verified,
}

/// The default 2×3 tables, one of each kind — bytes (3,664 bytes), 2-bit entries and tile
/// costs — small enough to take apart on every fuzz input.
pub(crate) fn small_tables() -> &'static [Vec<u8>; 3] {
    static BYTES: OnceLock<[Vec<u8>; 3]> = OnceLock::new();
    BYTES.get_or_init(|| {
        let board = Board::new(2, 3).unwrap();
        [
            (Some(Encoding::Byte), CostModel::Unit),
            (Some(Encoding::TwoBit), CostModel::Unit),
            (None, CostModel::Tile),
        ]
        .map(|(encoding, cost)| {
            let sections = solve(&default_goals(board), encoding, cost, &|_| {}).unwrap();
            table_bytes(board, &sections).unwrap()
        })
    })
}

/// The byte-encoded one.
pub(crate) fn small_table() -> &'static [u8] {
    &small_tables()[0]
}

const OFF_HEADER_LEN: usize = 16;
const OFF_HEADER_CRC: usize = 20;
const OFF_PAYLOAD_CRC: usize = 24;
const OFF_BLOCKS_CRC: usize = 28;

fn header_len(file: &[u8]) -> usize {
    u32::from_le_bytes(file[OFF_HEADER_LEN..OFF_HEADER_LEN + 4].try_into().unwrap()) as usize
}

/// Recomputes the header checksum over the header's first `header_len` bytes (as many as
/// there are), so that changed fields get past the checksum to the checks behind it.
pub(crate) fn reseal_header(file: &mut [u8]) {
    let len = header_len(file).min(file.len());
    file[OFF_HEADER_CRC..OFF_HEADER_CRC + 4].fill(0);
    let crc = crc32(&file[..len]);
    file[OFF_HEADER_CRC..OFF_HEADER_CRC + 4].copy_from_slice(&crc.to_le_bytes());
}

/// The payload's length: the sum of the descriptors' payload length fields (each `u64` at
/// offset 48 of a 64-byte descriptor; the section count is the `u16` at offset 14).
fn payload_len(file: &[u8]) -> usize {
    let count = u16::from_le_bytes([file[14], file[15]]) as usize;
    (0..count)
        .map(|i| {
            let at = 64 + 64 * i + 48;
            u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize
        })
        .sum()
}

/// Bytes a block checksum covers (format version 2).
const BLOCK_LEN: usize = 1 << 16;

/// Recomputes the payload's checksums (version 2: one per block, after the payload, whose own
/// checksum is at 28; and the whole payload's at 24) and then the header's, which covers them.
/// The file is cut or extended to end right after the block checksums.
pub(crate) fn reseal_payload(file: &mut Vec<u8>) {
    let len = header_len(file).min(file.len());
    let end = len + payload_len(file);
    file.resize(end, 0);
    let blocks: Vec<u8> = file[len..end]
        .chunks(BLOCK_LEN)
        .flat_map(|b| crc32(b).to_le_bytes())
        .collect();
    let crc = crc32(&file[len..end]);
    file[OFF_PAYLOAD_CRC..OFF_PAYLOAD_CRC + 4].copy_from_slice(&crc.to_le_bytes());
    file[OFF_BLOCKS_CRC..OFF_BLOCKS_CRC + 4].copy_from_slice(&crc32(&blocks).to_le_bytes());
    file.extend_from_slice(&blocks);
    reseal_header(file);
}

/// CRC-32 (IEEE), bit by bit: this file needs no checksum crate.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// Fuzz target `table_reader`: any bytes as a table.
pub(crate) fn table_reader(data: &[u8]) -> Outcome {
    check_table(data)
}

/// Fuzz target `table_tail`: a valid 2×3 table's header with a fuzzed rest, so that inputs
/// get past the header checksum. The first byte chooses the table (`byte / 4 % 3`: bytes,
/// 2-bit entries, tile costs) and how the rest is used (`byte % 4`):
///
/// * 0: appended as it is (any length);
/// * 1: as the payload, cut or repeated to the exact payload length, checksums left stale;
/// * 2: the same with the payload's checksums recomputed, every entry arbitrary: accepted
///   (the header is sound), verified only if the entries keep the header's histogram;
/// * 3: as (offset, value) byte pairs patched into the header, its checksum recomputed, with
///   the real payload: every header field's check, and what it lets through.
pub(crate) fn table_tail(data: &[u8]) -> Outcome {
    let Some((&mode, rest)) = data.split_first() else {
        return check_table(data);
    };
    let good = &small_tables()[usize::from(mode / 4 % 3)];
    let hlen = header_len(good);
    let mut file = good[..hlen].to_vec();
    match mode % 4 {
        0 => file.extend_from_slice(rest),
        1 | 2 => {
            let payload = payload_len(good);
            if rest.is_empty() {
                file.resize(hlen + payload, 0);
            } else {
                file.extend(rest.iter().cycle().take(payload));
            }
            // The real table's block checksums, stale unless the payload is the real one.
            file.extend_from_slice(&good[hlen + payload..]);
            if mode % 4 == 2 {
                reseal_payload(&mut file);
            }
        }
        _ => {
            file.extend_from_slice(&good[hlen..]);
            for pair in rest.chunks_exact(2) {
                let at = usize::from(pair[0]) * 3 % hlen;
                if !(OFF_HEADER_CRC..OFF_HEADER_CRC + 4).contains(&at) {
                    file[at] = pair[1];
                }
            }
            reseal_header(&mut file);
        }
    }
    let outcome = check_table(&file);
    if mode % 4 == 2 {
        assert_ne!(
            outcome,
            Outcome::Refused,
            "a resealed payload under a sound header must be opened"
        );
        if file[hlen..] == good[hlen..] {
            assert_eq!(outcome, Outcome::Verified, "the real payload must verify");
        }
    }
    outcome
}

/// Opens `bytes`; if accepted, verifies and asks everything (see the module's doc).
pub(crate) fn check_table(bytes: &[u8]) -> Outcome {
    let Ok(table) = Table::new(bytes) else {
        return Outcome::Refused;
    };
    let outcome = match table.verify().and_then(|()| table.verify_counts()) {
        Ok(()) => Outcome::Verified,
        Err(_) => Outcome::Unverified,
    };
    let board = table.board();
    for start in probes(board) {
        check_layout(&table, &start);
    }
    outcome
}

/// About 150 layouts of both classes spread over every rank (on 2×3, a fifth of all), whose
/// paths between them pass through most entries.
fn probes(board: Board) -> Vec<Layout> {
    let ranker = Ranker::new(board).unwrap();
    let states = ranker.states();
    let step = (states / 72).max(1);
    (0..states)
        .step_by(step as usize)
        .flat_map(|r| [ranker.unrank(r, 0), ranker.unrank(r, 1)])
        .collect()
}

const ORDERS: [[Move; 4]; 2] = [
    [Move::Up, Move::Down, Move::Left, Move::Right],
    [Move::Right, Move::Left, Move::Down, Move::Up],
];

fn check_layout<D: AsRef<[u8]>>(table: &Table<D>, start: &Layout) {
    let cost = table.header().cost();
    let mut path = Vec::new();
    for i in 0..table.sections().len() {
        let section = table.section(i).unwrap();
        let goal = *section.goal();
        // A 2-bit section counts a distance by walking, which a corrupt payload can stop.
        let Ok(distance) = section.distance(start) else {
            continue;
        };
        // No answer beyond the section's maximum: such an entry is corrupt, not a distance.
        let max = section.descriptor().max_distance();
        assert!(
            distance.is_none_or(|d| d <= max),
            "{start} to {goal}: {distance:?} beyond the maximum {max}"
        );
        assert_eq!(
            distance.is_some(),
            start.can_reach(&goal),
            "{start} to {goal}"
        );
        if let Ok(Some(m)) = section.first_move(start) {
            let next = start.moved(m).expect("a first move on the board");
            if let Ok(closer) = section.distance(&next) {
                let step = cost.of_tile(next.tile(start.blank()));
                assert_eq!(
                    closer.map(|d| d + step),
                    distance,
                    "{start}: first move {m:?} is not one step closer"
                );
            }
        }
        if let Ok(moves) = section.optimal_moves(start) {
            for m in moves {
                assert!(
                    start.moved(m).is_some(),
                    "{start}: optimal move {m:?} leaves the board"
                );
            }
        }
        path.clear();
        if let Ok(found) = section.path_into(start, &mut path) {
            check_path(start, &goal, distance, found, &path, cost);
        }
        for order in &ORDERS {
            path.clear();
            if let Ok(found) = section.ordered_path_into(start, order, &mut path) {
                check_path(start, &goal, distance, found, &path, cost);
            }
        }
    }
    // Any goal, answered by relabelling onto the section with the blank in the same cell (or
    // refused when the table has none): here the start's tiles in reverse order. Relabelling
    // keeps unit costs only, so tile-cost tables answer their own goals alone.
    let mut reversed = start.tiles().to_vec();
    reversed.reverse();
    let goal = Layout::new(start.board(), &reversed).unwrap();
    if let Ok(view) = table.goal(&goal) {
        if let Ok(distance) = view.distance(start) {
            path.clear();
            if let Ok(found) = view.path_into(start, &mut path) {
                check_path(start, &goal, distance, found, &path, cost);
            }
        }
    }
    if let Ok(standard) = table.standard() {
        let goal = *standard.layout();
        if let (Ok(distance), Ok(found)) = (table.distance(start), table.path(start)) {
            let path = found.as_deref().unwrap_or(&[]);
            check_path(start, &goal, distance, found.is_some(), path, cost);
        }
    }
}

/// A returned path is legal, costs the distance, and reaches the goal; "no path" only when
/// the goal is in the other class.
fn check_path(
    start: &Layout,
    goal: &Layout,
    distance: Option<u32>,
    found: bool,
    path: &[Move],
    cost: CostModel,
) {
    if !found {
        assert!(
            distance.is_none(),
            "{start}: no path, but distance {distance:?}"
        );
        return;
    }
    let mut at = *start;
    let mut total = 0;
    for &m in path {
        let next = at
            .moved(m)
            .unwrap_or_else(|| panic!("{start}: the path leaves the board"));
        total += cost.of_tile(next.tile(at.blank()));
        at = next;
    }
    assert_eq!(at, *goal, "{start}: the path misses {goal}");
    assert_eq!(Some(total), distance, "{start}: the path costs {total}");
}
