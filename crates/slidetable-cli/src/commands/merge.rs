//! `merge`: join a table in parts into one table file.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use slidetable_query::Table;

use crate::streams;

/// Joins the parts in `dir` into the table file `output`.
pub(crate) fn run(dir: &Path, output: &Path) -> Result<ExitCode> {
    let start = Instant::now();
    // Opening checks every part against the manifest (and the joined header); the checksum
    // of the whole is checked before anything is written.
    let table = Table::open(dir)?;
    table.verify()?;
    let written = slidetable_gen::write_bytes(output, table.bytes())?;
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", output.display())?;
    writeln!(
        out,
        "board {}: {} section x {} states, {} bytes",
        table.board(),
        table.sections().len(),
        table.board().reachable_states(),
        written
    )?;
    writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
