//! A table in parts (docs/FORMAT.md §12): a directory whose manifest names its parts, seen as
//! the bytes of the ordinary table they make (the joined table's header, then every part's
//! payload in rank order, then the block checksums), so that every question asked of a table
//! file can be asked of it.
//!
//! The parts are mapped, not read: each part's payload is mapped where it falls in one view
//! (slices start at multiples of 64 KiB of payload, so every part but the last starts and ends
//! on a page), and only the header, the last part's last partial 64 KiB and the block
//! checksums are copied into memory. A table in parts larger than memory is queried as a
//! mapped table file is.
//!
//! Every part is checked against the manifest before anything reads from it: its name,
//! length, footer and (parts of version 2) its block checksums against the footer's checksum
//! of them; a part missing, extra (named like a part, not in the manifest), truncated or of
//! another run is refused, naming the file. The payload itself is then checked as a mapped
//! table of format version 2 is: each 64 KiB block the first time a question reads from it
//! (`crate::blocks`), a damaged block named by its part and its bytes in that part. Parts of
//! version 1 (no block checksums) have their payload checked whole at open, part by part.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use memmap2::{Mmap, MmapOptions};
use slidetable_format::{
    is_part_name, open_regular, part_name, BlockSums, FormatError, Header, Manifest, OpenError,
    PartFooter, BLOCK_LEN, MANIFEST_MAX_LEN, MANIFEST_NAME, PART_FOOTER_LEN,
};

use crate::blocks::Span;
use crate::watch::{self, Watch};
use crate::TableErrorKind;

/// Refuses the directory when a file in it is named as a part (`is_part`) but is none of the
/// manifest's `names`: a part left by another run would otherwise be taken for this one's or
/// silently ignored. The first such file, in name order, is named.
pub(crate) fn refuse_stray_parts(
    dir: &Path,
    names: &[String],
    is_part: fn(&str) -> bool,
) -> Result<(), TableErrorKind> {
    let mut extra: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(TableErrorKind::Io)?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            (is_part(&name) && !names.contains(&name)).then(|| e.path())
        })
        .collect();
    extra.sort();
    match extra.first() {
        Some(first) => Err(problem(
            first,
            format!(
                "is not one of the manifest's {} parts (left by another run? remove it)",
                names.len()
            ),
        )),
        None => Ok(()),
    }
}

/// A part's file refused for `problem` (one wording for both kinds of tables in parts).
pub(crate) fn problem(part: &Path, problem: impl Into<String>) -> TableErrorKind {
    TableErrorKind::Part {
        part: part.to_path_buf(),
        problem: problem.into(),
    }
}

/// The joined table's bytes over the mapped parts.
#[derive(Debug)]
pub(crate) struct PartsView {
    /// Dropped before the map (fields drop in order): no fault in a map being unmapped is
    /// taken for a changed part.
    _watches: Vec<Watch>,
    map: Mmap,
    /// The joined table's first byte in `map`.
    start: usize,
    /// The joined table's length.
    len: usize,
    spans: Vec<Span>,
}

impl PartsView {
    /// The joined table's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map[self.start..self.start + self.len]
    }

    /// Where each part's payload lies in them.
    pub(crate) fn spans(&self) -> &[Span] {
        &self.spans
    }
}

/// The manifest's bytes, from a regular file of at most [`MANIFEST_MAX_LEN`] bytes.
fn read_manifest(path: &Path) -> Result<Vec<u8>, OpenError> {
    use std::io::Read;
    let (mut file, len) = open_regular(path, MANIFEST_MAX_LEN, "manifest")?;
    let mut bytes = Vec::with_capacity(len as usize);
    (&mut file).take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// One part, checked against the manifest, not yet mapped.
struct Part {
    path: PathBuf,
    file: File,
    footer: PartFooter,
}

/// Opens the table in parts in `dir`: every part checked against the manifest, then mapped
/// into one view of the joined table.
pub(crate) fn open(dir: &Path) -> Result<PartsView, TableErrorKind> {
    let manifest_path = dir.join(MANIFEST_NAME);
    let manifest = match read_manifest(&manifest_path) {
        Ok(bytes) => bytes,
        Err(e) if e.is_missing() => return Err(TableErrorKind::NoManifest),
        Err(e) => return Err(problem(&manifest_path, e.to_string())),
    };
    let manifest =
        Manifest::parse(&manifest).map_err(|e| problem(&manifest_path, e.to_string()))?;
    let count = manifest.parts.len() as u32;
    let names: Vec<String> = (0..count).map(|k| part_name(k, count)).collect();
    refuse_stray_parts(dir, &names, is_part_name)?;
    let mut parts = Vec::with_capacity(names.len());
    for (k, (record, name)) in manifest.parts.iter().zip(&names).enumerate() {
        let path = dir.join(name);
        // Its length is checked against the manifest's record below, before any read.
        let (file, len) = match open_regular(&path, u64::MAX, "part") {
            Ok(open) => open,
            Err(e) if e.is_missing() => {
                return Err(problem(&path, format!("is missing (part {k} of {count})")))
            }
            Err(OpenError::Io(e)) => return Err(problem(&path, format!("cannot read: {e}"))),
            Err(e) => return Err(problem(&path, e.to_string())),
        };
        let payload = slidetable_format::slice_payload_len(&record.ranks);
        let sums = 4 * slidetable_format::block_count(payload);
        let footer_len = PART_FOOTER_LEN as u64;
        // Version 2 (block checksums before the footer) or version 1 (none).
        if len != payload + sums + footer_len && len != payload + footer_len {
            return Err(problem(
                &path,
                format!(
                    "is {len} bytes, but part {k} of {count} (ranks {}..{}) is {} with its \
                     block checksums and footer: truncated or with trailing bytes",
                    record.ranks.start,
                    record.ranks.end,
                    payload + sums + footer_len
                ),
            ));
        }
        let tail = read_at(&file, len - footer_len, PART_FOOTER_LEN)
            .map_err(|e| problem(&path, format!("cannot read: {e}")))?;
        let footer =
            PartFooter::parse_end(&tail, len).map_err(|e| problem(&path, e.to_string()))?;
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
        parts.push(Part { path, file, footer });
    }
    // Block checksums when every part has them (parts of one run have the same version).
    let blockwise = parts.iter().all(|p| p.footer.block_sums_crc.is_some());
    let mut blocks = Vec::new();
    if blockwise {
        for p in &parts {
            let sums = read_at(
                &p.file,
                p.footer.payload_len(),
                p.footer.block_sums_len() as usize,
            )
            .map_err(|e| problem(&p.path, format!("cannot read: {e}")))?;
            let mut sums = p
                .footer
                .block_sums(&sums)
                .map_err(|e| problem(&p.path, e.to_string()))?;
            blocks.append(&mut sums);
        }
    }
    let view = map_parts(
        &manifest_path,
        &manifest.header,
        &parts,
        blockwise.then_some(blocks),
    )?;
    if !blockwise {
        // Version 1: each part's payload checked whole now, through the map, naming the part.
        for (p, span) in parts.iter().zip(view.spans()) {
            let payload = &view.bytes()[span.bytes.start as usize..span.bytes.end as usize];
            p.footer
                .verify(payload)
                .map_err(|e| problem(&p.path, e.to_string()))?;
        }
    }
    let header = Header::parse(view.bytes())
        .map_err(|e| problem(&manifest_path, format!("its table header: {e}")))?;
    let goal = header.sections().first().map(|s| *s.goal());
    for p in &parts {
        let f = &p.footer;
        if f.board != header.board() || Some(f.goal) != goal || f.encoding != header.encoding() {
            return Err(problem(
                &p.path,
                format!(
                    "is a slice of the {} table of goal {}, not of the manifest's {} table",
                    f.board,
                    f.goal,
                    header.board()
                ),
            ));
        }
    }
    Ok(view)
}

/// `len` bytes of `file` from `offset`.
fn read_at(file: &File, offset: u64, len: usize) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0u8; len];
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(&mut bytes, offset)?;
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = file;
        f.seek(SeekFrom::Start(offset))?;
        f.read_exact(&mut bytes)?;
    }
    Ok(bytes)
}

/// The joined table over `parts`: the manifest's `header` (made version 2 with `blocks`, the
/// parts' block checksums one after another, when there are some), each part's payload
/// mapped after it, the last part's last partial 64 KiB copied, then the block checksums.
///
/// The view is one reservation of address space, its payload starting at a multiple of
/// [`BLOCK_LEN`] from its first byte: the header goes just before that point, and part `k`'s
/// payload at the point plus its slice's first byte, a multiple of [`BLOCK_LEN`] (64 KiB, a
/// multiple of the page size of every common machine).
fn map_parts(
    manifest_path: &Path,
    header: &[u8],
    parts: &[Part],
    blocks: Option<Vec<u32>>,
) -> Result<PartsView, TableErrorKind> {
    let payload: u64 = parts.iter().map(|p| p.footer.payload_len()).sum();
    let bad_header = |e: FormatError| problem(manifest_path, format!("its table header: {e}"));
    // The header as the manifest keeps it (version 1), checked against the parts' lengths,
    // then given the blocks' checksums.
    let too_large = || {
        problem(
            manifest_path,
            "its table is too large to map on this machine",
        )
    };
    let header_len = header.len();
    let lead = (header_len as u64).next_multiple_of(BLOCK_LEN);
    let trailer_len = blocks.as_ref().map_or(0, |b| 4 * b.len() as u64);
    let reserve = usize::try_from(lead + payload + trailer_len).map_err(|_| too_large())?;
    let start = (lead - header_len as u64) as usize;
    let mut map = MmapOptions::new()
        .len(reserve)
        .no_reserve_swap()
        .map_anon()
        .map_err(TableErrorKind::Io)?;
    map[start..start + header_len].copy_from_slice(header);
    let mut spans = Vec::with_capacity(parts.len());
    let mut at = lead;
    for p in parts {
        let len = p.footer.payload_len();
        // Whole blocks are mapped; a last partial block (the last part's) is copied.
        let mapped = len / BLOCK_LEN * BLOCK_LEN;
        if mapped > 0 {
            slidetable_format::mapping::map_file_at(
                &mut map,
                at as usize,
                mapped as usize,
                &p.file,
            )
            .map_err(|e| problem(&p.path, format!("cannot map: {e}")))?;
        }
        if mapped < len {
            let rest = read_at(&p.file, mapped, (len - mapped) as usize)
                .map_err(|e| problem(&p.path, format!("cannot read: {e}")))?;
            let from = (at + mapped) as usize;
            map[from..from + rest.len()].copy_from_slice(&rest);
        }
        spans.push(Span {
            part: p.path.clone(),
            bytes: at - start as u64..at + len - start as u64,
        });
        at += len;
    }
    let mut len = header_len + payload as usize;
    if let Some(blocks) = blocks {
        let v1 = Header::parse(&map[start..start + len]).map_err(bad_header)?;
        let sums = BlockSums {
            payload: v1.payload_crc(),
            blocks,
        };
        let v2 = v1.with_block_sums(sums).map_err(bad_header)?;
        let (bytes, trailer) = (v2.to_bytes(), v2.trailer());
        if bytes.len() != header_len {
            return Err(bad_header(FormatError::Overflow("header length")));
        }
        map[start..start + header_len].copy_from_slice(&bytes);
        map[start + len..start + len + trailer.len()].copy_from_slice(&trailer);
        len += trailer.len();
    }
    let map = map.make_read_only().map_err(TableErrorKind::Io)?;
    let watches = parts
        .iter()
        .zip(&spans)
        .map(|(p, s)| {
            let bytes = &map[start + s.bytes.start as usize..start + s.bytes.end as usize];
            watch::watch(bytes, &p.file, &p.path)
        })
        .collect();
    Ok(PartsView {
        _watches: watches,
        map,
        start,
        len,
        spans,
    })
}
