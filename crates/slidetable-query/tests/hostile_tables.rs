//! The fuzz targets `table_reader` and `table_tail` (see `fuzz/`) as property tests on stable:
//! the same checks (`properties/mod.rs`) over random inputs, and every input in
//! `tests/regressions/` replayed. Bit flips, truncations and resealed header bytes of a real
//! file are in `tests/files.rs`.

use proptest::prelude::*;

mod properties;
use properties::{small_tables, table_reader, table_tail, Outcome};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn any_bytes_are_refused_or_answer_legally(
        bytes in prop::collection::vec(any::<u8>(), 0..4096),
    ) {
        table_reader(&bytes);
    }

    /// A real magic number and version, so that the board and the sizes behind it are tried.
    #[test]
    fn any_bytes_after_a_real_start(
        kind in 0..3usize,
        start in 0..64usize,
        rest in prop::collection::vec(any::<u8>(), 0..4096),
    ) {
        let mut bytes = small_tables()[kind][..start].to_vec();
        bytes.extend_from_slice(&rest);
        table_reader(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Bytes, 2-bit entries and tile costs (`mode / 4`), each with a fuzzed tail, payload or
    /// header patch (`mode % 4`).
    #[test]
    fn a_real_header_with_any_tail(
        mode in 0..12u8,
        rest in prop::collection::vec(any::<u8>(), 0..6000),
    ) {
        let mut data = vec![mode];
        data.extend_from_slice(&rest);
        let outcome = table_tail(&data);
        if mode % 4 == 2 {
            prop_assert_eq!(outcome, Outcome::Verified);
        }
        if mode % 4 == 1 {
            // A stale checksum is caught, unless the payload happens to be the real one.
            prop_assert_ne!(outcome, Outcome::Refused);
        }
    }

    /// Payloads that are almost right: the real one with a few entries changed, checksum
    /// recomputed. Accepted and verified, and every path still legal.
    #[test]
    fn a_real_table_with_a_few_entries_changed(
        kind in 0..3u8,
        changes in prop::collection::vec((any::<u16>(), any::<u8>()), 1..8),
    ) {
        let good = &small_tables()[usize::from(kind)];
        let hlen = u32::from_le_bytes(good[16..20].try_into().unwrap()) as usize;
        let mut payload = good[hlen..].to_vec();
        for (at, value) in changes {
            let at = usize::from(at) % payload.len();
            payload[at] = value;
        }
        let mut data = vec![2 + 4 * kind];
        data.extend_from_slice(&payload);
        prop_assert_eq!(table_tail(&data), Outcome::Verified);
    }
}

#[test]
fn the_real_tables_are_verified_and_answer_legally() {
    for table in small_tables() {
        assert_eq!(table_reader(table), Outcome::Verified);
    }
}

/// Every input a fuzzer ever crashed `table_reader` or `table_tail` with, replayed.
#[test]
fn regressions_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    for (target, check) in [
        ("table_reader", table_reader as fn(&[u8]) -> Outcome),
        ("table_tail", table_tail),
    ] {
        let Ok(entries) = std::fs::read_dir(dir.join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            println!("replaying {}", path.display());
            check(&std::fs::read(&path).unwrap());
        }
    }
}
