//! A table in parts (docs/FORMAT.md §12): a directory whose manifest names its parts, joined
//! into the bytes of the ordinary table they make (the manifest's header, then every part's
//! payload in rank order), so that every question asked of a table file can be asked of it.
//!
//! Every part is checked against the manifest before anything reads it: its name, length,
//! footer and payload checksum; a part missing, extra (named like a part, not in the
//! manifest), truncated or of another run is refused, naming the file.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use slidetable_format::{
    is_part_name, part_name, slice_payload_len, Header, Manifest, PartFooter, MANIFEST_NAME,
    PART_FOOTER_LEN,
};

use crate::TableErrorKind;

fn problem(part: &Path, problem: impl Into<String>) -> TableErrorKind {
    TableErrorKind::Part {
        part: part.to_path_buf(),
        problem: problem.into(),
    }
}

/// The bytes of the table the parts in `dir` make.
pub(crate) fn join(dir: &Path) -> Result<Vec<u8>, TableErrorKind> {
    let manifest_path = dir.join(MANIFEST_NAME);
    let manifest = match fs::read(&manifest_path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TableErrorKind::NoManifest),
        Err(e) => return Err(problem(&manifest_path, format!("cannot read: {e}"))),
    };
    let manifest =
        Manifest::parse(&manifest).map_err(|e| problem(&manifest_path, e.to_string()))?;
    let count = manifest.parts.len() as u32;
    let names: Vec<String> = (0..count).map(|k| part_name(k, count)).collect();
    let listing = fs::read_dir(dir).map_err(TableErrorKind::Io)?;
    let mut extra: Vec<PathBuf> = listing
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            (is_part_name(&name) && !names.contains(&name)).then(|| e.path())
        })
        .collect();
    extra.sort();
    if let Some(first) = extra.first() {
        return Err(problem(
            first,
            format!("is not one of the manifest's {count} parts (left by another run? remove it)"),
        ));
    }
    let payload: u64 = manifest
        .parts
        .iter()
        .map(|p| slice_payload_len(&p.ranks))
        .sum();
    let mut joined = Vec::with_capacity(manifest.header.len() + payload as usize);
    joined.extend_from_slice(&manifest.header);
    let mut footers = Vec::with_capacity(names.len());
    for (k, (record, name)) in manifest.parts.iter().zip(&names).enumerate() {
        let path = dir.join(name);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(problem(&path, format!("is missing (part {k} of {count})")))
            }
            Err(e) => return Err(problem(&path, format!("cannot read: {e}"))),
        };
        let want = slice_payload_len(&record.ranks) + PART_FOOTER_LEN as u64;
        if bytes.len() as u64 != want {
            return Err(problem(
                &path,
                format!(
                    "is {} bytes, but part {k} of {count} (ranks {}..{}) is {want} with its \
                     footer: truncated or with trailing bytes",
                    bytes.len(),
                    record.ranks.start,
                    record.ranks.end
                ),
            ));
        }
        let footer = PartFooter::parse(&bytes).map_err(|e| problem(&path, e.to_string()))?;
        if footer.part != k as u32 || footer.parts != count {
            return Err(problem(
                &path,
                format!(
                    "is part {} of {}, not part {k} of {count} as its name and the manifest say",
                    footer.part, footer.parts
                ),
            ));
        }
        if footer.footer_crc() != record.footer_crc {
            return Err(problem(
                &path,
                format!(
                    "is not the part {k} of {count} the manifest names (its footer differs: \
                     a part of another run, for goal {} of {}?)",
                    footer.goal, footer.board
                ),
            ));
        }
        if footer.payload_crc != record.payload_crc {
            return Err(problem(
                &path,
                "its payload checksum is not the one the manifest records",
            ));
        }
        footer
            .verify(&bytes)
            .map_err(|e| problem(&path, e.to_string()))?;
        joined.extend_from_slice(&bytes[..bytes.len() - PART_FOOTER_LEN]);
        footers.push((path, footer));
    }
    let header = Header::parse(&joined)
        .map_err(|e| problem(&manifest_path, format!("its table header: {e}")))?;
    for (path, footer) in footers {
        let goal = header.sections().first().map(|s| *s.goal());
        if footer.board != header.board()
            || Some(footer.goal) != goal
            || footer.encoding != header.encoding()
        {
            return Err(problem(
                &path,
                format!(
                    "is a slice of the {} table of goal {}, not of the manifest's {} table",
                    footer.board,
                    footer.goal,
                    header.board()
                ),
            ));
        }
    }
    Ok(joined)
}
