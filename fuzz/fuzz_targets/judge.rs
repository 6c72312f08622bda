//! Any bytes as the input of a judge format (the first byte says which): answered, or stopped
//! at a line the input has with a one-line reason. The checks:
//! crates/slidetable-judge/tests/properties/mod.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/slidetable-judge/tests/properties/mod.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    properties::judge_target(data);
});
