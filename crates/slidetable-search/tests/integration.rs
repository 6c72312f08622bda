//! Every integration test of `slidetable-search` in one binary (one link, one process start):
//! each file of this folder is a module here.

mod agreement;
mod korf79;
mod one_ida;
mod pdb;
mod pdb25;
