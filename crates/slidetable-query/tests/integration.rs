//! Every integration test of `slidetable-query` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod common;
mod properties;

mod any_table;
mod boards;
mod exhaustive;
mod files;
mod golden;
mod layers;
mod levels;
mod lockstep;
mod pattern_files;
mod read_any_bytes;
mod readahead;
mod recovered;
