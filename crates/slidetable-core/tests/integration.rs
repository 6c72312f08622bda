//! Every integration test of `slidetable-core` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod properties;

mod orders;
mod parse_any_bytes;
mod placement;
mod ranking;
mod wide_scan;
