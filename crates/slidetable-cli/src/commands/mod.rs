//! One module per command, each with a `run` taking its arguments. Commands use the shared
//! plumbing (`tables`, `puzzles`, `answers`, `json`, `error`, …) and never each other.

pub(crate) mod completions;
pub(crate) mod distance;
pub(crate) mod generate;
pub(crate) mod hardest;
pub(crate) mod heuristic;
pub(crate) mod info;
pub(crate) mod judge;
pub(crate) mod man;
pub(crate) mod merge;
pub(crate) mod path;
pub(crate) mod random;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod stats;
