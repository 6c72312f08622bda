//! Any bytes as a table file: refused, or accepted and then verified and queried without a
//! panic, every path legal. The checks: crates/slidetable-query/tests/properties/mod.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/slidetable-query/tests/properties/mod.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    properties::table_reader(data);
});
