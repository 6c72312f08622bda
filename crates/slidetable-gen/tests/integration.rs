//! Every integration test of `slidetable-gen` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod bounded_parts;
mod generate;
mod parts;
mod pattern;
mod pattern25;
mod pattern25_parts;
mod resume;
