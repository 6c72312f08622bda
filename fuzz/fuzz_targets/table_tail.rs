//! A real 2×3 table's header with a fuzzed tail, payload or header patch (the first byte says
//! which), so inputs get past the header checksum to the checks and queries behind it. The
//! checks: crates/slidetable-query/tests/properties/mod.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/slidetable-query/tests/properties/mod.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    properties::table_tail(data);
});
