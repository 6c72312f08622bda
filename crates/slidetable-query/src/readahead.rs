//! Hints to the kernel about how a mapped table is read, so that a table larger than memory
//! stays usable. A question reads a few entries anywhere in the table: with the kernel's
//! default read-ahead, each fault on an evicted page reads a window around it whose other
//! pages evict pages still needed. A table with a checksum per block (format version 2) is
//! therefore mapped for random access ([`random`]); a block's first read, which its checksum
//! reads whole anyway, asks for the whole block at once ([`will_need`]); and a pass over the
//! whole payload (verifying it) reads ahead ([`sequentially`]). Measured on a 3×4 table in
//! parts (58 MB) queried in 24 MB of memory: 2,000 puzzles in about 1.5 s instead of 253 s
//! (BENCHMARKS.md, "A table larger than memory"). Only hints: every answer is the same
//! without them, and a failed hint is ignored.

use std::ops::Range;

use slidetable_format::mapping::{advise, Advice};
use slidetable_format::Header;

/// Tables smaller than this many bytes are read into memory instead of mapped: every table
/// up to 9 cells (the 3×3 one is 1.6 MB); the 10-cell ones (18 MB) and the 12-cell ones
/// (60 MB) are mapped
/// (the file module decides by it, and this one reads by how it decided).
pub const READ_BELOW: u64 = 16 << 20;

/// Whether `header`'s table of `len` bytes is read as this module says: one with block
/// checksums, large enough to be mapped (a smaller one is read into memory).
fn blockwise(header: &Header, len: usize) -> bool {
    header.block_count() > 0 && len as u64 >= READ_BELOW
}

/// Maps of `bytes` (a whole mapped table, `header` its parsed header) read without
/// read-ahead around a fault, if the table has block checksums.
pub(crate) fn random(header: &Header, bytes: &[u8]) {
    if blockwise(header, bytes.len()) {
        advise(bytes, 0..bytes.len() as u64, Advice::Random);
    }
}

/// Bytes `range` of `file` (a table's bytes) are about to be read: one read of them instead of
/// a fault per page. A range reaching past `file` is clipped.
pub(crate) fn will_need(file: &[u8], range: Range<u64>) {
    advise(file, range, Advice::WillNeed);
}

/// Runs `pass`, a read of every byte of `file` (`header`'s table) in order, with read-ahead,
/// and maps the bytes for random access again afterwards.
pub(crate) fn sequentially<R>(header: &Header, file: &[u8], pass: impl FnOnce() -> R) -> R {
    if !blockwise(header, file.len()) {
        return pass();
    }
    let all = 0..file.len() as u64;
    advise(file, all.clone(), Advice::Sequential);
    let done = pass();
    advise(file, all, Advice::Random);
    done
}
