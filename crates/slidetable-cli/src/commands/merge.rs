//! `merge`: join a table in parts (or the 24-puzzle's pattern databases built in parts) into
//! one file.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use slidetable::core::counted;
use slidetable::format::{is_bounded_part_name, is_part_name, MANIFEST_NAME};
use slidetable::query::Table;

use crate::streams;

/// Joins the parts in `dir` into the table file `output`.
pub(crate) fn run(dir: &Path, output: &Path) -> Result<ExitCode> {
    let start = Instant::now();
    if slidetable::Build25::is_parts_dir(dir) {
        refuse_own_file(dir, output)?;
        let merged = slidetable::Build25::merge(dir, output)?;
        let placements: u64 = merged
            .groups
            .iter()
            .map(|g| {
                u64::try_from(slidetable::core::placement_count(
                    merged.goal.cells(),
                    g.tiles.count_ones() as usize,
                ))
                .unwrap_or(u64::MAX)
            })
            .sum();
        let sizes: Vec<String> = merged
            .groups
            .iter()
            .map(|g| g.tiles.count_ones().to_string())
            .collect();
        let mut out = streams::stdout();
        writeln!(out, "wrote {}", output.display())?;
        writeln!(
            out,
            "board {}x{}: pattern database {} ({} groups, {placements} placements) from {}, goal {}, {} bytes",
            merged.goal.rows(),
            merged.goal.cols(),
            sizes.join("-"),
            merged.groups.len(),
            counted(u64::from(merged.parts), "part"),
            merged.goal,
            merged.bytes
        )?;
        writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if slidetable::query::is_bounded_dir(dir) {
        let table = slidetable::query::BoundedTable::open(dir)?;
        refuse_own_file(dir, output)?;
        return crate::bounded::merge(&table, output, start);
    }
    // Opening checks every part against the manifest (and the joined header); the checksum
    // of the whole, and each section's entries against its histogram, are checked before
    // anything is written.
    let table = Table::open(dir)?;
    refuse_own_file(dir, output)?;
    table.verify()?;
    table.verify_counts()?;
    let written = slidetable::generate::write_bytes(output, table.bytes())?;
    let mut out = streams::stdout();
    writeln!(out, "wrote {}", output.display())?;
    writeln!(
        out,
        "board {}: {} x {} states, {} bytes",
        table.board(),
        counted(table.sections().len() as u64, "section"),
        table.board().reachable_states(),
        written
    )?;
    writeln!(out, "took {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses an `output` that is a file of the table being merged from `dir` (its manifest or
/// a part, by any name, or the table file itself), or that would become one (a manifest or
/// a part's name in `dir`): writing it would destroy the source or make the directory
/// unreadable.
fn refuse_own_file(dir: &Path, output: &Path) -> Result<()> {
    let refuse = || {
        bail!(
            "refusing to write {}: it is a file of the table being merged from {} (name a \
             file outside it)",
            output.display(),
            dir.display()
        )
    };
    let mut sources = vec![dir.to_path_buf()];
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir)?.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name == MANIFEST_NAME
                || is_part_name(&name)
                || is_bounded_part_name(&name)
                || slidetable::generate::engine::pattern25_part_of(&name).is_some()
            {
                sources.push(entry.path());
            }
        }
        // A name in the directory that a table in parts reads.
        let into_dir = output
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .is_some_and(|parent| same_file(parent, dir));
        let name = output.file_name().map(|n| n.to_string_lossy().into_owned());
        if into_dir
            && name.is_some_and(|n| {
                n == MANIFEST_NAME
                    || is_part_name(&n)
                    || is_bounded_part_name(&n)
                    || slidetable::generate::engine::pattern25_part_of(&n).is_some()
            })
        {
            return refuse();
        }
    }
    if sources.iter().any(|source| same_file(source, output)) {
        return refuse();
    }
    Ok(())
}

/// Whether `a` and `b` name the same file (links followed); false if either is missing.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => a.canonicalize().ok() == b.canonicalize().ok(),
        _ => false,
    }
}
