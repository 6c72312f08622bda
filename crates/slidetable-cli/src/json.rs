//! `--json`: one object per line, the same shape for every command that answers puzzles.

use std::io::{self, Write};

use serde::Serialize;

/// One puzzle's answer. `distance` and `path` are `null` for a puzzle that cannot reach the
/// goal (`"solvable": false`); fields a command does not answer are left out.
#[derive(Serialize, Default)]
pub(crate) struct Record<'a> {
    pub(crate) puzzle: &'a str,
    pub(crate) distance: Option<u32>,
    /// Left out by `distance`; `null` when there is no path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) path: Option<Option<&'a str>>,
    pub(crate) solvable: bool,
    /// `search --stats`: what finding the path cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stats: Option<SearchStats>,
    /// `search`: why there is no answer although the puzzle is solvable (a limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
}

#[derive(Serialize)]
pub(crate) struct SearchStats {
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
    pub(crate) peak_open: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) iterations: Option<u32>,
    pub(crate) milliseconds: f64,
}

/// A bad input line under `--keep-going`.
#[derive(Serialize)]
struct BadLine<'a> {
    line: u64,
    error: &'a str,
}

/// Appends `value` as one line of JSON to `buf`.
pub(crate) fn line(buf: &mut Vec<u8>, value: &impl Serialize) {
    // Serializing these plain structs into memory cannot fail.
    serde_json::to_writer(&mut *buf, value).expect("JSON of a plain struct");
    buf.push(b'\n');
}

/// Writes `{"line": N, "error": "…"}` for a bad input line.
pub(crate) fn bad_line(out: &mut impl Write, line_number: u64, error: &str) -> io::Result<()> {
    let mut buf = Vec::with_capacity(64 + error.len());
    line(
        &mut buf,
        &BadLine {
            line: line_number,
            error,
        },
    );
    out.write_all(&buf)
}
