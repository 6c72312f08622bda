//! One module per command, each with a `run` taking its arguments as `resolved` made them
//! (`distance` and `path` are `batch::run` on their resolved `Batch`). Commands use the shared plumbing (`resolved`,
//! `tables`, `puzzles`, `answers`, `json`, `error`, …) and never each other.

pub(crate) mod completions;
pub(crate) mod generate;
pub(crate) mod hardest;
pub(crate) mod heuristic;
pub(crate) mod info;
pub(crate) mod judge;
pub(crate) mod man;
pub(crate) mod merge;
pub(crate) mod random;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod stats;
