//! Working files: made and allocated on disk ahead ([`create_allocated`]: a search in parts'
//! checkpoints and part files, a checkpoint), and mapped ([`map`]: a part file just written,
//! read back for its block checksums).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use memmap2::MmapMut;

/// Maps `len` bytes of `file` from `offset`, shared: this process's own temporary file
/// (`part-K-of-N.part.tmp` of a search in parts, before its rename), which no other process
/// of the run opens and no reader takes for a table, as the format crate's map asks.
pub(crate) fn map(file: &File, offset: u64, len: u64) -> io::Result<MmapMut> {
    slidetable_format::mapping::map_working(file, offset, len)
}

/// Makes (or empties) the file at `path` and allocates `len` bytes of it on disk, so that a
/// full disk stops a run now rather than in the middle of its work (as `SIGBUS` in a mapping,
/// or a failed write): the working files of a search in parts, and a checkpoint before it is
/// written.
pub(crate) fn create_allocated(path: &Path, len: u64) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    allocate(&file, len)?;
    Ok(file)
}

/// Allocates `len` bytes of `file` on disk, growing it to `len` (a filesystem that cannot
/// allocate ahead gets a sparse file of that length).
pub(crate) fn allocate(file: &File, len: u64) -> io::Result<()> {
    if len == 0 {
        return Ok(());
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{fallocate, FallocateFlags};
        match fallocate(file, FallocateFlags::empty(), 0, len) {
            Ok(()) => return Ok(()),
            Err(e) if e == rustix::io::Errno::OPNOTSUPP => {}
            Err(e) => return Err(e.into()),
        }
    }
    if file.metadata()?.len() < len {
        file.set_len(len)?;
    }
    Ok(())
}
