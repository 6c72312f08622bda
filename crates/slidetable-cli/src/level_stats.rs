//! `generate --parts DIR --stats FILE`: one JSON line per level, written by the process of
//! part 0 as each level ends (docs/JSON.md, "generate --stats").

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

/// One level's figures, every process's together but the memory, given per process.
#[derive(Serialize)]
pub(crate) struct LevelLine {
    /// The level (its distance).
    pub(crate) level: u32,
    /// Its states, every part's.
    pub(crate) states: u64,
    /// Bytes every process sent to the others for it, together.
    pub(crate) bytes_sent: u64,
    /// Its wall time in seconds.
    pub(crate) seconds: f64,
    /// Each process's memory high-water mark so far, in bytes (part 0 first).
    pub(crate) peak_memory: Vec<u64>,
    /// Rounds of exchange (a table of every state).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rounds: Option<u32>,
    /// Whether the level was found bottom-up (a table of every state).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bottom_up: Option<bool>,
}

/// The file of `--stats`, open for the process that writes it.
pub(crate) struct LevelStats {
    path: PathBuf,
    out: BufWriter<File>,
}

impl LevelStats {
    /// Creates (or empties) `path`, before the search, so a path that cannot be written is
    /// refused at once.
    pub(crate) fn create(path: &Path) -> Result<LevelStats> {
        let file =
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(LevelStats {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }

    /// Writes one level's line, flushed (a run that stops keeps the levels it made).
    pub(crate) fn write(&mut self, line: &LevelLine) -> Result<()> {
        serde_json::to_writer(&mut self.out, line)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(self.out))
            .and_then(|()| self.out.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// Seconds of `d`, for a line.
pub(crate) fn seconds(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e4).round() / 1e4
}
