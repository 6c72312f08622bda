//! Any bytes as a puzzle line on a 3x3, 2x3, 3x4 or 4x4 board (the first byte says which): a
//! one-line error, or the layout the grammar gives. The checks:
//! crates/slidetable-core/tests/properties/mod.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/slidetable-core/tests/properties/mod.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    properties::puzzle_line(data);
});
