//! Every integration test of `slidetable-judge` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod properties;

mod any_input;
mod check;
mod cost;
