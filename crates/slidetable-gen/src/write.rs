//! Writing files: a table (header, then each section's entries) or a pattern database,
//! streamed to any writer or put in place safely (a temporary file beside the target,
//! flushed, then renamed over it; see [`temporary`] for the temporaries' bookkeeping).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use slidetable_core::Board;
use slidetable_format::mapping;
use slidetable_format::{
    BlockSums, CostModel, Encoding, Header, PatternHeader, PatternSpec, PayloadSums, SectionSpec,
};

use crate::{GenError, SolvedPattern, SolvedSection};

pub(crate) mod temporary;
use temporary::Temporary;

fn header_for(board: Board, sections: &[SolvedSection]) -> Result<Header, GenError> {
    let (encoding, cost) = sections
        .first()
        .map_or((Encoding::Byte, CostModel::Unit), |s| (s.encoding, s.cost));
    for s in sections {
        if (s.encoding, s.cost) != (encoding, cost) {
            return Err(GenError::MixedEncodings);
        }
    }
    let specs = sections
        .iter()
        .map(|s| SectionSpec {
            goal: s.goal,
            histogram: s.histogram.clone(),
        })
        .collect();
    let payloads: Vec<&[u8]> = sections.iter().map(|s| &s.entries[..]).collect();
    header_of(board, encoding, cost, specs, &payloads)
}

/// The header of a table of `specs`, whose payloads (in file order) are `payloads`.
fn header_of(
    board: Board,
    encoding: Encoding,
    cost: CostModel,
    specs: Vec<SectionSpec>,
    payloads: &[&[u8]],
) -> Result<Header, GenError> {
    if let Some(s) = specs.iter().find(|s| s.goal.board() != board) {
        return Err(GenError::MixedBoards {
            expected: board,
            found: s.goal.board(),
        });
    }
    let sums = checksums(payloads.iter().copied());
    Ok(Header::build(board, encoding, cost, specs, sums)?)
}

/// The checksums a file keeps of the payloads that follow its header, in file order: the
/// whole payload's and each block's (format version 2).
fn checksums<'a>(payloads: impl Iterator<Item = &'a [u8]>) -> PayloadSums {
    PayloadSums::Blocks(BlockSums::of(payloads))
}

/// Streams a whole table (header, then each section's entries) into `out`.
pub fn write_to(
    out: &mut impl Write,
    board: Board,
    sections: &[SolvedSection],
) -> Result<u64, GenError> {
    let header = header_for(board, sections)?;
    let payloads: Vec<&[u8]> = sections.iter().map(|s| &s.entries[..]).collect();
    header.write_table(out, &payloads).map_err(stream_error)
}

/// An error of writing to a stream, which has no path: [`replace_with`] names the file.
fn stream_error(source: io::Error) -> GenError {
    GenError::Io {
        path: PathBuf::from("<output>"),
        source,
    }
}

/// The whole table in memory (for `Table::new`, tests and embedding).
pub fn table_bytes(board: Board, sections: &[SolvedSection]) -> Result<Vec<u8>, GenError> {
    let mut v = Vec::new();
    write_to(&mut v, board, sections)?;
    Ok(v)
}

/// Writes the table to `path` safely: into a temporary file in the same directory, flushed
/// to disk, then renamed over `path`. A crash leaves either the old file or the new one
/// under the real name, never half of one; on any error the temporary file is removed.
/// Returns the number of bytes written.
///
/// Only a regular file is ever replaced: a directory, device, FIFO or socket under `path` is
/// refused (`NotAFile`), and symbolic links are followed, so the file they name is replaced
/// (or made) and the links keep pointing at the new table. A replaced table keeps its mode; a
/// new one gets the mode of any newly created file (0666 less the umask), not the 0600 of a
/// temporary file, so a table meant for sharing can be read by others.
pub fn write_table(path: &Path, board: Board, sections: &[SolvedSection]) -> Result<u64, GenError> {
    replace_table(path, board, sections).map(|w| w.bytes)
}

/// What [`replace_table`] did.
#[derive(Debug)]
#[non_exhaustive]
pub struct Written {
    /// Bytes written.
    pub bytes: u64,
    /// Why the replaced file's owner and group could not be given to the new one (only root
    /// may give a file away): the table now belongs to whoever wrote it.
    pub owner_not_kept: Option<io::Error>,
}

/// [`write_table`], telling also whether a replaced table kept its owner and group (as it
/// keeps its mode). Temporary files of ours in the directory that no writer holds (left by a
/// `generate` killed with SIGKILL) are removed first; [`abandon_writes`](crate::abandon_writes) removes the one being
/// written, for a signal handler.
pub fn replace_table(
    path: &Path,
    board: Board,
    sections: &[SolvedSection],
) -> Result<Written, GenError> {
    Destination::prepare(path)?.write_table(board, sections)
}

/// Writes `bytes` (a whole table of either format version, e.g. one joined from parts) to
/// `path` as [`write_table`] writes a table: a temporary file beside it, flushed, renamed
/// over it, and in format version 2 (its header given the block checksums of its payload).
/// Returns the bytes written.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<u64, GenError> {
    let header = Header::parse(bytes)?.blockwise(bytes)?;
    // The header was checked against these bytes: they hold every payload.
    let start = header.header_len() as usize;
    let len: u64 = header.sections().iter().map(|s| s.payload_len()).sum();
    let payload = bytes.get(start..start + len as usize).unwrap_or_default();
    replace_with(path, &mut |out| {
        out.write_all(&header.to_bytes()).map_err(stream_error)?;
        out.write_all(payload).map_err(stream_error)?;
        out.write_all(&header.trailer()).map_err(stream_error)?;
        Ok(header.file_len())
    })
    .map(|w| w.bytes)
}

/// Writes `bytes` (any file the program makes beside its tables: a chart) to `path` as a
/// table is written: only over a regular file (a FIFO, a device or a directory is refused,
/// [`GenError::NotAFile`]), through a temporary file renamed over it. Returns the bytes
/// written.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<u64, GenError> {
    replace_with(path, &mut |out| {
        out.write_all(bytes).map_err(stream_error)?;
        Ok(bytes.len() as u64)
    })
    .map(|w| w.bytes)
}

/// Refuses `path` as [`write_file`] and every table writer would ([`GenError::NotAFile`],
/// [`GenError::NoDirectory`]), without writing: for a front end to refuse before the work
/// whose result goes there.
pub fn check_replaceable(path: &Path) -> Result<(), GenError> {
    let (target, _) = replaceable(path)?;
    directory_of(path, &target).map(drop)
}

/// The directory `target` (the file `path` names, through any links) goes in, which must
/// exist ([`GenError::NoDirectory`]: it is not made, a mistyped path would be).
fn directory_of(path: &Path, target: &Path) -> Result<PathBuf, GenError> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(GenError::NoDirectory {
            path: path.to_path_buf(),
            dir,
            link: (target != path).then(|| target.to_path_buf()),
        });
    }
    Ok(dir)
}

/// The one procedure behind [`replace_table`] and [`write_pattern_table`]: `write` streams the
/// file's bytes into a temporary file beside `path`, which then replaces it (keeping a
/// replaced file's owner and mode; stale temporaries of ours are removed first).
fn replace_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<u64, GenError>,
) -> Result<Written, GenError> {
    Destination::prepare(path)?.write(write)
}

/// A file about to be written as a table is: checked (a regular file or none, in a directory
/// that exists, through any links) and its temporary file made beside it, before the search
/// whose result it takes, so a destination that cannot be written is refused at once rather
/// than after minutes of work. Dropped without [`Destination::write`], it removes the
/// temporary file.
pub struct Destination {
    path: PathBuf,
    target: PathBuf,
    dir: PathBuf,
    tmp: Temporary,
    owner_not_kept: Option<io::Error>,
}

impl Destination {
    /// The directory the table is written in (the temporary file's, the link target's).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file the table replaces or makes (through any links).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Checks `path` and makes the temporary file beside the file it names.
    pub fn prepare(path: &Path) -> Result<Destination, GenError> {
        let io_err = |source| GenError::Io {
            path: path.to_path_buf(),
            source,
        };
        let (target, old) = replaceable(path).map_err(|e| match e {
            GenError::Io { source, .. } => io_err(source),
            other => other,
        })?;
        let dir = directory_of(path, &target)?;
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.as_deref().unwrap_or("table");
        temporary::remove_stale(&dir, &format!(".{name}."));
        let prefix = temporary::prefix(name);
        let mut builder = temporary::builder(&prefix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let mut tmp = Temporary::create(&builder, &dir).map_err(|e| {
            // tempfile names its temporary path in the error (`… at path "…"`); the user named
            // another.
            let text = e.to_string();
            let what = text.split(" at path ").next().unwrap_or(&text).to_string();
            io_err(io::Error::new(
                e.kind(),
                format!("cannot create a file in {}: {what}", dir.display()),
            ))
        })?;
        let mut owner_not_kept = None;
        if let Some(old) = &old {
            // A replaced table keeps its owner and group, then its mode (a private table stays
            // private; a change of owner may clear set-id bits, so the mode comes second).
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let ours = tmp.file().metadata().map_err(io_err)?;
                if (ours.uid(), ours.gid()) != (old.uid(), old.gid()) {
                    if let Err(e) =
                        std::os::unix::fs::fchown(&*tmp.file(), Some(old.uid()), Some(old.gid()))
                    {
                        owner_not_kept = Some(e);
                    }
                }
            }
            tmp.file()
                .set_permissions(old.permissions())
                .map_err(io_err)?;
        }
        Ok(Destination {
            path: path.to_path_buf(),
            target,
            dir,
            tmp,
            owner_not_kept,
        })
    }

    /// Streams the file's bytes through `write` into the temporary file, flushes it to disk
    /// and renames it over the destination. Returns what was written.
    pub fn write(
        mut self,
        write: &mut dyn FnMut(&mut dyn Write) -> Result<u64, GenError>,
    ) -> Result<Written, GenError> {
        let path = self.path.clone();
        let io_err = |source| GenError::Io {
            path: path.clone(),
            source,
        };
        let bytes = {
            let mut out = io::BufWriter::with_capacity(1 << 20, Writeback::new(self.tmp.file()));
            let len = write(&mut out).map_err(|e| match e {
                GenError::Io { source, .. } => io_err(source),
                other => other,
            })?;
            out.flush().map_err(io_err)?;
            len
        };
        self.tmp.file().sync_all().map_err(io_err)?;
        // Dropping `tmp` on an early return above deletes the temporary file.
        self.tmp.persist(&self.target).map_err(io_err)?;
        if let Ok(d) = std::fs::File::open(&self.dir) {
            // Make the rename itself durable; not every filesystem supports syncing a
            // directory.
            let _ = d.sync_all();
        }
        Ok(Written {
            bytes,
            owner_not_kept: self.owner_not_kept,
        })
    }

    /// [`write_to`] into this destination: the table of `sections`.
    pub fn write_table(
        self,
        board: Board,
        sections: &[SolvedSection],
    ) -> Result<Written, GenError> {
        self.write(&mut |mut out| write_to(&mut out, board, sections))
    }

    /// [`write_pattern_to`] into this destination: the databases of `sections`.
    pub fn write_patterns(self, sections: &[SolvedPattern]) -> Result<Written, GenError> {
        self.write(&mut |out| write_pattern_to(out, sections))
    }
}

/// A file being written from its start, whose written bytes are sent on to the disk every
/// [`Writeback::STEP`] bytes ([`mapping::start_writeback`]) while the rest is written: the
/// `fsync` that ends the write of a large table (60 MB for 3×4) then waits for the last
/// piece only, not for the whole file.
struct Writeback<'a> {
    file: &'a mut std::fs::File,
    /// Bytes written.
    written: u64,
    /// Bytes sent on to the disk.
    sent: u64,
}

impl<'a> Writeback<'a> {
    /// Bytes between two hints.
    const STEP: u64 = 8 << 20;

    fn new(file: &'a mut std::fs::File) -> Writeback<'a> {
        Writeback {
            file,
            written: 0,
            sent: 0,
        }
    }
}

impl Write for Writeback<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A piece at a time, so that a large buffer is sent on as it goes.
        let piece = buf.len().min(Self::STEP as usize);
        let n = self.file.write(&buf[..piece])?;
        self.written += n as u64;
        if self.written - self.sent >= Self::STEP {
            mapping::start_writeback(self.file, self.sent..self.written);
            self.sent = self.written;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// The file that writing a table to `path` replaces, through any chain of symbolic links
/// (a relative link target is taken from the link's own directory), and what is known of the
/// file already there (its mode and owner), if any. A link to a file not there yet makes that file. Anything
/// that exists and is not a regular file is refused, as is a chain of more than 40 links.
fn replaceable(path: &Path) -> Result<(PathBuf, Option<std::fs::Metadata>), GenError> {
    let io_err = |source| GenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut at = path.to_path_buf();
    for _ in 0..=40 {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((at, None)),
            Err(source) => return Err(io_err(source)),
        };
        if meta.file_type().is_symlink() {
            let to = std::fs::read_link(&at).map_err(io_err)?;
            // `join` keeps an absolute target as it is.
            at = at.parent().map_or(to.clone(), |dir| dir.join(&to));
            continue;
        }
        if !meta.is_file() {
            return Err(GenError::NotAFile {
                path: path.to_path_buf(),
                kind: slidetable_format::file_kind(&meta.file_type()),
            });
        }
        return Ok((at, Some(meta)));
    }
    Err(io_err(io::Error::other(
        "too many levels of symbolic links",
    )))
}

fn pattern_header(sections: &[SolvedPattern]) -> Result<PatternHeader, GenError> {
    let Some(first) = sections.first() else {
        return Err(GenError::NoGroups);
    };
    if let Some(other) = sections.iter().find(|s| s.goal != first.goal) {
        return Err(GenError::MixedGoals {
            expected: first.goal,
            found: other.goal,
        });
    }
    let specs = sections
        .iter()
        .map(|s| PatternSpec::new(s.tiles, s.histogram.clone()))
        .collect();
    let sums = checksums(sections.iter().map(|s| &s.entries[..]));
    Ok(PatternHeader::build(first.goal, specs, sums)?)
}

/// Streams a whole pattern database (header, then each group's entries) into `out`.
pub fn write_pattern_to(out: &mut dyn Write, sections: &[SolvedPattern]) -> Result<u64, GenError> {
    let header = pattern_header(sections)?;
    out.write_all(&header.to_bytes()).map_err(stream_error)?;
    for s in sections {
        out.write_all(&s.entries).map_err(stream_error)?;
    }
    out.write_all(&header.trailer()).map_err(stream_error)?;
    Ok(header.file_len())
}

/// The whole pattern database in memory (for tests and embedding).
pub fn pattern_bytes(sections: &[SolvedPattern]) -> Result<Vec<u8>, GenError> {
    let mut v = Vec::new();
    write_pattern_to(&mut v, sections)?;
    Ok(v)
}

/// Writes the pattern database to `path` the way [`write_table`] writes
/// a table: a temporary file in the same directory, flushed and renamed over `path`.
pub fn write_pattern_table(path: &Path, sections: &[SolvedPattern]) -> Result<u64, GenError> {
    Destination::prepare(path)?
        .write_patterns(sections)
        .map(|w| w.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve_section;

    /// A file written through [`Writeback`] in small writes and in one large one (more than
    /// two steps, not a multiple of one) holds those bytes, each write sent on a step at most.
    #[test]
    fn a_file_sent_on_to_the_disk_as_it_is_written_holds_the_bytes_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("written");
        let mut file = std::fs::File::create(&path).unwrap();
        let big: Vec<u8> = (0..2 * Writeback::STEP as usize + 12_345)
            .map(|i| (i * 7 + i / 4099) as u8)
            .collect();
        let mut out = Writeback::new(&mut file);
        out.write_all(b"head").unwrap();
        assert_eq!(out.write(&big).unwrap(), Writeback::STEP as usize);
        out.write_all(&big[Writeback::STEP as usize..]).unwrap();
        out.write_all(b"tail").unwrap();
        out.flush().unwrap();
        assert_eq!(out.written, big.len() as u64 + 8);
        assert_eq!(out.sent, 2 * Writeback::STEP + 4);
        let mut want = b"head".to_vec();
        want.extend_from_slice(&big);
        want.extend_from_slice(b"tail");
        assert!(std::fs::read(&path).unwrap() == want);
    }

    #[test]
    fn refuses_mixed_boards() {
        let a = solve_section(&Board::new(2, 2).unwrap().standard_goal()).unwrap();
        let b = solve_section(&Board::new(2, 3).unwrap().standard_goal()).unwrap();
        let err = table_bytes(Board::new(2, 2).unwrap(), &[a, b]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "sections are for different boards (2x2 and 2x3)"
        );
    }
}
