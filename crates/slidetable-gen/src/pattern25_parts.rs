//! The 24-puzzle's pattern databases built in parts (`generate --board 5x5 --parts DIR`, on
//! the processes of an MPI job, or alone): each process owns one slice of each group's
//! placement ranks ([`Piece25::range`]), searches it by the one pattern search
//! (`pattern_search.rs`, through [`Meet`]), and the processes swap the children each makes
//! in the others' slices through the table search's transport ([`Exchange`]: all to all,
//! the children encoded as the table search encodes its offsets, [`encode_offsets`]). Each
//! process writes its slices of every group to its part file (`SLIDEQ25`, docs/FORMAT.md
//! §14), and `merge` joins the parts into the `SLIDEP25` file the one-process build writes,
//! byte for byte ([`merge_pattern25_parts`]).

use std::path::{Path, PathBuf};

use slidetable_core::Layout25;
use slidetable_format::{Group25, PatternFile25, Piece25};

use crate::parts::{check_dir_everywhere, decode_offsets, encode_offsets, lock_dir, Exchange};
use crate::pattern25::{
    check_pattern25_room_in_parts, solve_slice25, wide_placements, window_words, Partition25,
    Pattern25Error,
};
use crate::pattern_search::Meet;
use crate::{ExchangeError, GenError};

/// The name of part `part` of `parts` in the directory of a build in parts.
pub fn pattern25_part_name(part: u32, parts: u32) -> String {
    format!("pattern-part-{part}-of-{parts}.slp")
}

/// `Some((part, parts))` when `name` is a part's ([`pattern25_part_name`]).
pub fn pattern25_part_of(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("pattern-part-")?.strip_suffix(".slp")?;
    let (part, parts) = rest.split_once("-of-")?;
    let (part, parts) = (part.parse().ok()?, parts.parse().ok()?);
    (part < parts && pattern25_part_name(part, parts) == name).then_some((part, parts))
}

/// The processes of a build meeting through an [`Exchange`], for one group's search.
struct Meeting<'a> {
    exchange: &'a mut dyn Exchange,
    bounds: Vec<u64>,
    window: usize,
    /// Each part's encoded children of a swap (kept, so a level allocates them once).
    bytes: Vec<Vec<u8>>,
    /// Bytes this process sent, all swaps together.
    sent: u64,
}

impl Meet<Pattern25Error> for Meeting<'_> {
    fn bounds(&self) -> &[u64] {
        &self.bounds
    }

    fn me(&self) -> usize {
        self.exchange.rank() as usize
    }

    fn window_words(&self) -> Option<usize> {
        Some(self.window)
    }

    fn swap(&mut self, outgoing: &mut [Vec<u64>]) -> Result<Vec<u64>, Pattern25Error> {
        for (codes, bytes) in outgoing.iter_mut().zip(&mut self.bytes) {
            encode_offsets(codes, bytes);
            self.sent += bytes.len() as u64;
        }
        let received = self
            .exchange
            .all_to_all(&self.bytes)
            .map_err(GenError::from)?;
        let mut incoming = Vec::new();
        for (from, bytes) in received.iter().enumerate() {
            decode_offsets(bytes, |code| incoming.push(code)).map_err(|problem| {
                GenError::from(ExchangeError(format!(
                    "part {from} sent part {} children that {problem}",
                    self.me()
                )))
            })?;
        }
        Ok(incoming)
    }

    fn total(&mut self, value: u64) -> Result<u64, Pattern25Error> {
        let all = self.exchange.all_gather(value).map_err(GenError::from)?;
        Ok(all.iter().sum())
    }
}

/// What a process of a build in parts did.
#[derive(Clone, Debug)]
pub struct Parts25Done {
    /// Its part file.
    pub part: PathBuf,
    /// Each group's histogram (every part's together), tiles and no entries.
    pub groups: Vec<Group25>,
    /// Bytes it sent to the others.
    pub bytes_sent: u64,
    /// Bytes a process needed at its peak by the memory model.
    pub memory: u64,
}

/// This process's part (`exchange`) of `partition`'s databases towards `goal`, written to
/// `dir` (made if missing, seen by every process) as [`pattern25_part_name`]; parts of
/// another count left there by an earlier run are removed first. Refused by every process
/// at once, before any work, when one has not the memory or the disk space for its part
/// (the model of [`crate::pattern25_needs_in_parts`]). `progress` is told of the
/// placements this process settles.
pub fn solve_partition25_in_parts(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Parts25Done, Pattern25Error> {
    in_parts(goal, partition, dir, exchange, progress, false)
}

/// [`solve_partition25_in_parts`] with every group's placements ranked in 64 bits, whatever
/// its size: what tests compare the two widths in parts with.
pub fn solve_partition25_in_parts_wide(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Parts25Done, Pattern25Error> {
    in_parts(goal, partition, dir, exchange, progress, true)
}

/// [`solve_partition25_in_parts`], in 64-bit ranks on every group when `wide`.
fn in_parts(
    goal: &Layout25,
    partition: &Partition25,
    dir: &Path,
    exchange: &mut dyn Exchange,
    progress: &(dyn Fn(u64) + Sync),
    wide: bool,
) -> Result<Parts25Done, Pattern25Error> {
    let (me, parts) = (exchange.rank(), exchange.size());
    check_dir_everywhere(dir, exchange)?;
    let room = check_pattern25_room_in_parts(
        goal,
        partition,
        Some(dir),
        parts,
        exchange.on_this_machine(),
    );
    // Every process learns whether every other can: those that cannot say why, the others
    // that a part refused.
    let fits = exchange
        .all_gather(u64::from(room.is_ok()))
        .map_err(GenError::from)?;
    let (memory, _) = room?;
    if let Some(part) = fits.iter().position(|&ok| ok == 0) {
        return Err(GenError::Parts {
            path: dir.to_path_buf(),
            problem: format!("part {part}'s process refused the build (it says why)"),
        }
        .into());
    }
    let _lock = lock_dir(dir, exchange)?;
    let io = |path: &Path, source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    if me == 0 {
        for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))?.flatten() {
            let name = entry.file_name();
            if pattern25_part_of(&name.to_string_lossy()).is_some_and(|(_, n)| n != parts) {
                std::fs::remove_file(entry.path()).map_err(|e| io(&entry.path(), e))?;
            }
        }
    }
    let piece = Piece25::Part { part: me, parts };
    let mut groups = Vec::with_capacity(partition.groups().len());
    let mut sent = 0;
    for &tiles in partition.groups() {
        let k = tiles.count_ones() as usize;
        let count =
            u64::try_from(slidetable_core::placement_count(goal.cells(), k)).unwrap_or(u64::MAX);
        let bounds: Vec<u64> = (0..parts)
            .map(|p| Piece25::Part { part: p, parts }.range(count).start)
            .chain([count])
            .collect();
        let mut meeting = Meeting {
            exchange: &mut *exchange,
            bounds,
            window: window_words(k, parts),
            bytes: vec![Vec::new(); parts as usize],
            sent: 0,
        };
        let slice = if wide || wide_placements(goal.cells(), k)? {
            solve_slice25::<u64>(goal, tiles, &mut meeting, progress)?
        } else {
            solve_slice25::<u32>(goal, tiles, &mut meeting, progress)?
        };
        debug_assert_eq!(slice.start, piece.range(count).start);
        sent += meeting.sent;
        groups.push(Group25 {
            tiles,
            histogram: slice.histogram,
            entries: slice.entries,
        });
    }
    let bytes = PatternFile25::piece_bytes(goal, &groups, piece)?;
    let part = dir.join(pattern25_part_name(me, parts));
    crate::write_file(&part, &bytes)?;
    // Every part is written before any process says the build is done.
    exchange.all_gather(0).map_err(GenError::from)?;
    for g in &mut groups {
        g.entries = Vec::new();
    }
    Ok(Parts25Done {
        part,
        groups,
        bytes_sent: sent,
        memory,
    })
}

/// Whether `dir` holds parts of pattern databases built in parts (and no table's).
pub fn is_pattern25_parts_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| pattern25_part_of(&e.file_name().to_string_lossy()).is_some())
    })
}

/// What [`merge_pattern25_parts`] wrote.
#[derive(Clone, Debug)]
pub struct Merged25 {
    /// The goal.
    pub goal: Layout25,
    /// The groups (tiles and histograms).
    pub groups: Vec<Group25>,
    /// How many parts were joined.
    pub parts: u32,
    /// Bytes written.
    pub bytes: u64,
}

/// Joins the parts of a build in parts in `dir` into the `SLIDEP25` file `output` (written
/// as every table is, through a temporary file renamed over it), the bytes the one-process
/// build writes: every part read and checked (its header, its CRC-32), all of one build (the
/// same goal, groups, histograms and count of parts, none missing), then the entries copied
/// group by group, part by part, after the header.
pub fn merge_pattern25_parts(dir: &Path, output: &Path) -> Result<Merged25, Pattern25Error> {
    let refuse = |problem: String| -> Pattern25Error {
        GenError::Parts {
            path: dir.to_path_buf(),
            problem,
        }
        .into()
    };
    let io = |path: &Path, source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut found: Vec<(u32, u32, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))?.flatten() {
        if let Some((part, parts)) = pattern25_part_of(&entry.file_name().to_string_lossy()) {
            found.push((part, parts, entry.path()));
        }
    }
    found.sort();
    let Some(&(_, parts, _)) = found.first() else {
        return Err(refuse("holds no part of pattern databases".into()));
    };
    if let Some((_, other, path)) = found.iter().find(|(_, n, _)| *n != parts) {
        return Err(refuse(format!(
            "holds parts of {parts} and of {other} processes ({}): two builds; remove one",
            path.display()
        )));
    }
    if let Some(missing) = (0..parts).find(|&k| !found.iter().any(|(p, _, _)| *p == k)) {
        return Err(refuse(format!(
            "part {missing} of {parts} is missing ({}): the build did not finish; run it again",
            pattern25_part_name(missing, parts)
        )));
    }
    // Each part read, checked and kept mapped; the payload's CRC-32 joined from each group's
    // slices in the whole file's order.
    let mut files = Vec::with_capacity(found.len());
    let mut first: Option<PatternFile25> = None;
    for (part, _, path) in &found {
        let (file, _) = slidetable_format::open_regular(path, u64::MAX, "part file")
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        // A part file is written once, by a rename, and not rewritten while it is merged.
        let bytes = slidetable_format::mapping::map_read(&file).map_err(|e| io(path, e))?;
        let header = PatternFile25::parse_part(&bytes)
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        header
            .verify(&bytes)
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        if header.piece() != (Piece25::Part { part: *part, parts }) {
            return Err(refuse(format!(
                "{}: its header says {:?}, its name part {part} of {parts}",
                path.display(),
                header.piece()
            )));
        }
        if let Some(first) = &first {
            if first.goal() != header.goal() || first.groups() != header.groups() {
                return Err(refuse(format!(
                    "{} is of another build than {} (another goal, partition or histogram)",
                    path.display(),
                    pattern25_part_name(0, parts)
                )));
            }
        } else {
            first = Some(header.clone());
        }
        files.push((header, bytes));
    }
    let first = first.unwrap_or_else(|| files[0].0.clone());
    let mut crc = crc32fast::Hasher::new();
    for g in 0..first.groups().len() {
        for (header, bytes) in &files {
            crc.update(header.entries(bytes, g));
        }
    }
    let header = PatternFile25::whole_header(first.goal(), first.groups(), crc.finalize())?;
    let destination = crate::write::Destination::prepare(output)?;
    let written = destination.write(&mut |out| {
        let io_out = |source| GenError::Io {
            path: output.to_path_buf(),
            source,
        };
        out.write_all(&header).map_err(io_out)?;
        let mut len = header.len() as u64;
        for g in 0..first.groups().len() {
            for (h, bytes) in &files {
                let entries = h.entries(bytes, g);
                out.write_all(entries).map_err(io_out)?;
                len += entries.len() as u64;
            }
        }
        Ok(len)
    })?;
    Ok(Merged25 {
        goal: *first.goal(),
        groups: first.groups().to_vec(),
        parts,
        bytes: written.bytes,
    })
}
