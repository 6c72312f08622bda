//! A table file's bytes: read into memory when small, memory-mapped (and watched) when large;
//! a table in parts' bytes, its parts mapped into one view (`crate::parts`).
//!
//! Why both: a map costs nothing up front, which matters when a 60 MB table answers one
//! puzzle, but it is only sound while nobody rewrites the file in place (see [`crate::watch`]);
//! bytes read into memory cannot change under us. Below [`READ_BELOW`] reading costs less than
//! a millisecond, so small tables, the common case, are read.

use std::io::{self, Read, Seek};
use std::path::Path;

use memmap2::Mmap;
use slidetable_format::{mapping, open_regular};

use crate::blocks::Span;
use crate::parts::PartsView;
use crate::readahead::READ_BELOW;
use crate::watch::{self, Watch};
use crate::{TableError, TableErrorKind};

/// A table file's bytes, read or mapped.
#[derive(Debug)]
pub struct TableBytes(Bytes);

#[derive(Debug)]
enum Bytes {
    Read(Vec<u8>),
    /// The watch, held only to be dropped, goes before the map (fields drop in order), so
    /// no fault in a map being unmapped is taken for a changed table.
    Mapped(#[allow(dead_code)] Watch, Mmap),
    /// A table in parts, every part mapped.
    Parts(PartsView),
    /// A copy in the process's own memory, on huge pages where the kernel gives them
    /// ([`TableBytes::resident`]).
    Resident(Mmap),
}

impl AsRef<[u8]> for TableBytes {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        match &self.0 {
            Bytes::Read(v) => v,
            Bytes::Mapped(_, m) => m,
            Bytes::Parts(p) => p.bytes(),
            Bytes::Resident(m) => m,
        }
    }
}

/// Bytes already in memory (a table made by the generator, say), for a [`crate::Table`] or
/// [`crate::PatternTable`] of the same type as one opened from a file.
impl From<Vec<u8>> for TableBytes {
    fn from(bytes: Vec<u8>) -> TableBytes {
        TableBytes(Bytes::Read(bytes))
    }
}

impl TableBytes {
    /// The bytes of the regular file at `path`, read or mapped as a table's are (the
    /// 24-puzzle's pattern files, whose header the format crate's `PatternFile25` reads).
    pub fn open(path: &Path) -> Result<TableBytes, TableError> {
        read_or_map(path)
    }

    /// Whether the bytes are a map of the file (rather than a copy in memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Bytes::Mapped(..) | Bytes::Parts(_))
    }

    /// Where each part's payload lies, for a table in parts (none for a file).
    /// The same bytes copied into the process's own memory, backed by huge pages where the
    /// kernel allows ([`mapping::resident_copy`]): for a long run of random reads, such as a
    /// server's or a long batch's 15-puzzle searches. A copy no longer follows its file, so
    /// a file changed afterwards changes nothing here.
    pub fn resident(&self) -> io::Result<TableBytes> {
        Ok(TableBytes(Bytes::Resident(mapping::resident_copy(
            self.as_ref(),
        )?)))
    }

    pub(crate) fn spans(&self) -> Vec<Span> {
        match &self.0 {
            Bytes::Parts(p) => p.spans().to_vec(),
            _ => Vec::new(),
        }
    }
}

/// Opens `path` without blocking (a FIFO would wait for a writer forever), refuses anything
/// but a regular file, and reads or maps it: the opening of a [`crate::Table`] and of a
/// [`crate::PatternTable`]. Errors name the file.
pub(crate) fn read_or_map(path: &Path) -> Result<TableBytes, TableError> {
    read_or_map_at(path).map_err(|kind| TableError::new(Some(path), kind))
}

fn read_or_map_at(path: &Path) -> Result<TableBytes, TableErrorKind> {
    if path.is_dir() {
        return Ok(TableBytes(Bytes::Parts(crate::parts::open(path)?)));
    }
    let (file, len) = open_regular(path, u64::MAX, "table")?;
    let mut magic = [0u8; 8];
    if (&file).read_exact(&mut magic).is_ok() && magic == slidetable_format::MANIFEST_MAGIC {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        return Err(TableErrorKind::Manifest(dir));
    }
    (&file).seek(io::SeekFrom::Start(0))?;
    if len < READ_BELOW {
        let mut bytes = Vec::with_capacity(len as usize);
        (&file).read_to_end(&mut bytes)?;
        return Ok(TableBytes(Bytes::Read(bytes)));
    }
    // Tables are replaced by rename, never written in place (the format crate's contract
    // of a map); a file changed anyway is watched.
    let map = mapping::map_read(&file)?;
    let watch = watch::watch(&map, &file, path);
    Ok(TableBytes(Bytes::Mapped(watch, map)))
}
