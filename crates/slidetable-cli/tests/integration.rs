//! Every integration test of `slidetable-cli` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod common;

mod charts;
mod damaged;
mod distance_path;
mod fifteen;
mod generate;
mod hardest_random_stats;
mod json;
mod judge;
mod parts;
mod plan;
mod search_heuristic;
mod serve;
mod streams;
mod tables_on_disk;
mod twentyfour;
mod usage;
mod wide;
