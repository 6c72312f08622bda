//! Where tables live, and making one.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use slidetable_core::Board;
use slidetable_gen::{default_goals, solve_sections, write_table};
use slidetable_query::{MappedTable, Table};

/// The environment variable naming the default table.
pub const TABLE_ENV: &str = "SLIDETABLE_TABLE";

/// Where a table path came from: only the cache default is generated on first use.
#[derive(Debug, PartialEq, Eq)]
pub enum Origin {
    Argument,
    Environment,
    Cache,
}

/// The table to use: `--table`, else `$SLIDETABLE_TABLE` (which names the default 3×3
/// table), else `slidetable/RxC.slt` in the cache directory (`$XDG_CACHE_HOME`, else
/// `~/.cache`).
pub fn resolve(explicit: Option<&Path>, board: Board) -> Result<(PathBuf, Origin)> {
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

fn cache_dir() -> Result<PathBuf> {
    // XDG: a relative $XDG_CACHE_HOME is invalid and must be ignored.
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        if p.is_absolute() {
            return Ok(p);
        }
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache")),
        None => bail!(
            "no cache directory: set XDG_CACHE_HOME or HOME, or name a table with --table or {TABLE_ENV}"
        ),
    }
}

/// Opens the table for a query command: `--table`, `$SLIDETABLE_TABLE`, or the cache's table
/// for `board`, generated on first use. A named table may be for any board.
pub fn open_for_query(explicit: Option<&Path>, board: Board) -> Result<MappedTable> {
    let (path, origin) = resolve(explicit, board)?;
    if origin == Origin::Cache && !path.exists() {
        eprintln!(
            "slidetable: no table at {}; generating it once (this takes a moment)",
            path.display()
        );
        generate(board, &path)?;
    }
    Ok(Table::open(&path)?)
}

/// Refuses a table for another board than the one a command needs.
pub fn require_board(table: &MappedTable, board: Board) -> Result<()> {
    if table.board() != board {
        bail!(
            "table {} is for {} boards, but {board} is needed here (make one with \
             `slidetable generate --board {board} -o PATH`)",
            table.file_path().unwrap_or(Path::new("?")).display(),
            table.board()
        );
    }
    Ok(())
}

/// What `generate` did.
pub struct Generated {
    pub states: u64,
    pub sections: usize,
    pub bytes: u64,
    pub elapsed: Duration,
}

/// Generates the default sections of `board` and writes them to `path` (creating its
/// directory), replacing any old file atomically.
pub fn generate(board: Board, path: &Path) -> Result<Generated> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let start = Instant::now();
    let goals = default_goals(board);
    let sections = solve_sections(&goals)?;
    let bytes = write_table(path, board, &sections)?;
    Ok(Generated {
        states: board.reachable_states(),
        sections: sections.len(),
        bytes,
        elapsed: start.elapsed(),
    })
}
