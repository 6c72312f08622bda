//! Every integration test of `slidetable-serve` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod common;
#[path = "common/layout.rs"]
mod common_layout;
#[path = "common/load.rs"]
mod common_load;

mod api;
mod browser;
mod connections;
mod default_board;
mod defaults;
mod fifteen;
mod load;
mod schemas;
mod weighted;
