//! Where default tables live, and making one: the rule every program that answers from a
//! table follows (the `slidetable` commands, the web server), kept in one place.
//!
//! A table named explicitly wins; else `$SLIDETABLE_TABLE` names the 3×3 table; else
//! `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else `~/.cache`), which is
//! generated on first use.
//!
//! ```
//! use slidetable_core::Board;
//! use slidetable_gen::cache::{generate, Plan};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("slidetable/2x2.slt");
//! let done = generate(&Plan::default_for(Board::new(2, 2).unwrap()), &path, &|_| {}).unwrap();
//! assert_eq!((done.sections, done.states), (4, 12));
//! assert!(path.exists());
//! ```

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding};

use crate::{default_goals, solve, write_table, GenError};

/// The environment variable naming the default (3×3) table.
pub const TABLE_ENV: &str = "SLIDETABLE_TABLE";

/// Where a table path came from: only the cache default is generated on first use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named by the caller (`--table`).
    Argument,
    /// Named by `$SLIDETABLE_TABLE`.
    Environment,
    /// The cache directory's default table for the board.
    Cache,
}

/// The table to use: `explicit`, else `$SLIDETABLE_TABLE` (which names the default 3×3
/// table), else `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else
/// `~/.cache`).
pub fn resolve(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin), GenError> {
    if let Some(p) = explicit {
        return Ok((p.to_path_buf(), Origin::Argument));
    }
    if let Some(p) = std::env::var_os(TABLE_ENV).filter(|v| !v.is_empty() && board == Board::EIGHT)
    {
        return Ok((PathBuf::from(p), Origin::Environment));
    }
    Ok((
        cache_dir()?.join(format!("slidetable/{board}.slt")),
        Origin::Cache,
    ))
}

/// Whether a resolved table must be generated before it is opened: only a cache default
/// that is not there yet (a named table that is missing is the user's error to see).
pub fn needs_generating(path: &Path, origin: Origin) -> bool {
    origin == Origin::Cache && !path.exists()
}

fn cache_dir() -> Result<PathBuf, GenError> {
    // XDG: a relative $XDG_CACHE_HOME is invalid and must be ignored.
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        if p.is_absolute() {
            return Ok(p);
        }
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache")),
        None => Err(GenError::NoCacheDir),
    }
}

/// What to generate: the goals, the entry encoding (`None`: the board's default) and what a
/// move costs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The board.
    pub board: Board,
    /// One section per goal.
    pub goals: Vec<Layout>,
    /// The entry encoding; `None` for the board's default.
    pub encoding: Option<Encoding>,
    /// What a move costs.
    pub cost: CostModel,
}

impl Plan {
    /// The default table of `board`: one section per blank cell up to 10 cells, the standard
    /// goal for 11 and 12; unit costs; the board's default encoding.
    pub fn default_for(board: Board) -> Plan {
        Plan {
            board,
            goals: default_goals(board),
            encoding: None,
            cost: CostModel::Unit,
        }
    }

    /// The states the search settles (all sections), for a progress display.
    pub fn total_states(&self) -> u64 {
        self.board.reachable_states() * self.goals.len() as u64
    }
}

/// What `generate` did.
#[derive(Debug, Clone)]
pub struct Generated {
    /// States settled over all sections.
    pub states: u64,
    /// Sections written.
    pub sections: usize,
    /// Bytes in the file.
    pub bytes: u64,
    /// Wall time of the search and the write.
    pub elapsed: Duration,
}

/// Generates `plan` and writes it to `path` (creating its directory), replacing any old file
/// atomically; `progress` gets the states settled as the search goes.
pub fn generate(
    plan: &Plan,
    path: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| GenError::CreateDir {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let start = Instant::now();
    let sections = solve(&plan.goals, plan.encoding, plan.cost, progress)?;
    let bytes = write_table(path, plan.board, &sections)?;
    Ok(Generated {
        states: plan.board.reachable_states(),
        sections: sections.len(),
        bytes,
        elapsed: start.elapsed(),
    })
}
