//! Opening a table of the states within `D` moves made in parts (docs/FORMAT.md §13.6): the
//! manifest, then every part, each checked against the manifest's record and against part
//! 0 (board, goal, `D`, block size) before any question is asked.

use std::io::Read;
use std::path::{Path, PathBuf};

use slidetable_format::{
    bounded_part_name, is_bounded_manifest, is_bounded_part_name, open_regular, BoundedHeader,
    BoundedManifest, MANIFEST_MAX_LEN, MANIFEST_NAME,
};

use crate::parts::{problem, refuse_stray_parts};
use crate::{file, TableBytes, TableErrorKind};

/// Whether `dir` is a directory whose manifest is one of a table within `D` moves (made with
/// `generate --max-depth D --parts DIR`).
pub fn is_bounded_dir(dir: &Path) -> bool {
    if !dir.is_dir() {
        return false;
    }
    let mut magic = [0u8; 8];
    open_regular(&dir.join(MANIFEST_NAME), MANIFEST_MAX_LEN, "manifest")
        .is_ok_and(|(mut f, _)| f.read_exact(&mut magic).is_ok() && is_bounded_manifest(&magic))
}

/// The parts of the table in `dir`, in rank order: each part's file, checked header and
/// bytes (read or mapped as a table file is).
pub(crate) fn open(
    dir: &Path,
) -> Result<Vec<(PathBuf, BoundedHeader, TableBytes)>, TableErrorKind> {
    let manifest_path = dir.join(MANIFEST_NAME);
    let (mut f, len) = open_regular(&manifest_path, MANIFEST_MAX_LEN, "manifest")?;
    let mut bytes = Vec::with_capacity(len as usize);
    (&mut f).take(len).read_to_end(&mut bytes)?;
    let manifest =
        BoundedManifest::parse(&bytes).map_err(|e| problem(&manifest_path, e.to_string()))?;
    let count = manifest.parts.len() as u32;
    let names: Vec<String> = (0..count).map(|k| bounded_part_name(k, count)).collect();
    refuse_stray_parts(dir, &names, is_bounded_part_name)?;
    let again = "make the table again with the same `slidetable generate --max-depth D --parts \
                 DIR` (a part cannot be made alone)";
    let mut parts: Vec<(PathBuf, BoundedHeader, TableBytes)> = Vec::with_capacity(names.len());
    for (k, (record, name)) in manifest.parts.iter().zip(&names).enumerate() {
        let path = dir.join(name);
        if !path.exists() {
            return Err(problem(
                &path,
                format!("is missing (part {k} of {count}); {again}"),
            ));
        }
        let bytes = file::read_or_map(&path).map_err(|e| problem(&path, e.kind.to_string()))?;
        let len = bytes.as_ref().len() as u64;
        if len != record.len {
            return Err(problem(
                &path,
                format!(
                    "is {len} bytes, but the manifest records {} (truncated, or bytes added); \
                     {again}",
                    record.len
                ),
            ));
        }
        let header = BoundedHeader::parse_part(bytes.as_ref())
            .map_err(|e| problem(&path, format!("{e}; {again}")))?;
        if header.part() != Some((k as u32, count)) {
            let (p, n) = header.part().unwrap_or_default();
            return Err(problem(
                &path,
                format!("holds part {p} of {n}, not part {k} of {count} (left by another run?)"),
            ));
        }
        if header.header_crc() != record.header_crc {
            return Err(problem(
                &path,
                format!(
                    "is not the part the manifest records (header checksum {:#010x}, recorded \
                     {:#010x}): a part of another run; {again}",
                    header.header_crc(),
                    record.header_crc
                ),
            ));
        }
        if let Some((_, first, _)) = parts.first() {
            if first.goal() != header.goal()
                || first.max_depth() != header.max_depth()
                || first.block_states() != header.block_states()
            {
                return Err(problem(
                    &path,
                    format!(
                        "is of goal {} within {} moves (blocks of {}), part 0 of goal {} within \
                         {} (blocks of {}): parts of different runs",
                        header.goal(),
                        header.max_depth(),
                        header.block_states(),
                        first.goal(),
                        first.max_depth(),
                        first.block_states()
                    ),
                ));
            }
        }
        parts.push((path, header, bytes));
    }
    let first = &parts[0].1;
    let states: u64 = parts.iter().map(|(_, h, _)| h.states()).sum();
    let goals: u64 = parts.iter().map(|(_, h, _)| h.histogram()[0]).sum();
    if first.max_depth() != manifest.max_depth || states != manifest.states || goals != 1 {
        return Err(problem(
            &manifest_path,
            format!(
                "records {} states within {} moves, but the parts hold {states} within {} \
                 ({goals} at distance 0)",
                manifest.states,
                manifest.max_depth,
                first.max_depth()
            ),
        ));
    }
    Ok(parts)
}
