//! The fuzz targets `table_reader` and `table_tail` (see `fuzz/`) as property tests on stable:
//! the same checks (`properties/mod.rs`) over random inputs, for tables of every kind (bytes,
//! 2-bit entries, tile costs), and every input in `tests/regressions/` replayed; and every bit
//! flip and truncation of each kind noticed. `tests/files.rs` has the byte table's error
//! messages, resealed header bytes and the allocation bound.

use proptest::prelude::*;
use slidetable_query::Table;

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
            // Fresh checksums over arbitrary entries: opened, and answered legally, but
            // verified only when the entries keep the header's histogram.
            prop_assert_ne!(outcome, Outcome::Refused);
        }
        if mode % 4 == 1 {
            // A stale checksum is caught, unless the payload happens to be the real one.
            prop_assert_ne!(outcome, Outcome::Refused);
        }
    }

    /// Payloads that are almost right: the real one with a few entries changed, checksum
    /// recomputed. Opened, every path still legal; verified only when the changes keep each
    /// distance's count (a changed move bit, a value put back), refused by `verify` otherwise.
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
        prop_assert_ne!(table_tail(&data), Outcome::Refused);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `files.rs` flips bits of the byte table; these are the other kinds too, each flip
    /// then queried in full.
    #[test]
    fn a_flipped_bit_of_any_kind_is_noticed_and_answers_legally(
        kind in 0..3usize,
        bit in any::<prop::sample::Index>(),
    ) {
        let mut bytes = small_tables()[kind].clone();
        let bit = bit.index(bytes.len() * 8);
        bytes[bit / 8] ^= 1 << (bit % 8);
        prop_assert_ne!(table_reader(&bytes), Outcome::Verified, "bit {}", bit);
    }
}

/// Every single-bit flip and every truncation of every kind of table is refused by opening
/// it or caught by `verify`.
#[test]
fn every_flip_and_cut_of_every_kind_is_noticed() {
    for good in small_tables() {
        let mut bytes = good.clone();
        for bit in 0..good.len() * 8 {
            bytes[bit / 8] ^= 1 << (bit % 8);
            if let Ok(table) = Table::new(&bytes[..]) {
                assert!(table.verify().is_err(), "bit {bit} went unnoticed");
            }
            bytes[bit / 8] ^= 1 << (bit % 8);
        }
        for cut in 0..good.len() {
            assert!(Table::new(&good[..cut]).is_err(), "cut at {cut} opened");
        }
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
