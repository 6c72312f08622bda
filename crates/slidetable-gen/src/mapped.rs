//! Working files: made and allocated on disk ahead ([`create_allocated`]: a search in parts'
//! files, a checkpoint), and mapped for reading and writing, shared (what is written reaches
//! the file: a search in parts keeps its slice in them, `parts.rs`), and the view of such a
//! mapping as 64-bit words that every thread of a search may change at once ([`MappedWords`]).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;
use std::sync::atomic::AtomicU64;

use memmap2::MmapMut;

/// Maps `len` bytes of `file` from `offset` for reading and writing, shared: what is written
/// reaches the file, so a level's end is a sync and a run killed at any point leaves its work
/// in the file.
///
/// # Safety argument
///
/// memmap2's contract: nobody else may change the file while it is mapped. The file is this
/// process's own working file (`part-K-of-N.entries` or `.frontier` of a search in parts),
/// which no other process of the run opens and no reader takes for a table.
pub(crate) fn map(file: &File, offset: u64, len: u64) -> io::Result<MmapMut> {
    if len == 0 {
        return memmap2::MmapOptions::new().len(0).map_anon();
    }
    let len = usize::try_from(len).map_err(|_| io::Error::other("mapping too large"))?;
    // SAFETY: see the function's safety argument: a working file only this process changes.
    #[allow(unsafe_code)]
    unsafe {
        memmap2::MmapOptions::new()
            .offset(offset)
            .len(len)
            .map_mut(file)
    }
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

/// A mapping seen as 64-bit words that threads change with atomic operations (the entries or
/// the frontier of a search in parts, which the one-machine search's passes run on).
#[derive(Debug)]
pub(crate) struct MappedWords {
    map: MmapMut,
}

impl MappedWords {
    /// The words of `map`, whose length is a multiple of 8 and whose start is 8-aligned
    /// (a mapping starts on a page; callers map from offset 0).
    pub(crate) fn new(map: MmapMut) -> io::Result<MappedWords> {
        if !map.len().is_multiple_of(8)
            || map.as_ptr().align_offset(std::mem::align_of::<AtomicU64>()) != 0
        {
            return Err(io::Error::other("a mapping of words must be 8-aligned"));
        }
        Ok(MappedWords { map })
    }

    /// The words.
    pub(crate) fn words(&self) -> &[AtomicU64] {
        let len = self.map.len() / 8;
        let ptr = self.map.as_ptr().cast::<AtomicU64>();
        // SAFETY: the mapping is 8-aligned and a multiple of 8 bytes long (checked in `new`);
        // AtomicU64 has the size and alignment of u64 and no invalid bit patterns; the slice
        // borrows `self`, so the mapping outlives it, and no `&mut` or byte view of the
        // mapping exists while it does (the bytes are only read once `into_map` has taken
        // the mapping back, which ends every borrow of the words). Every change goes through
        // the atomics, which is what makes sharing them between threads sound.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(ptr, len)
        }
    }

    /// Writes the changed pages to the file and waits for the disk.
    pub(crate) fn flush(&self) -> io::Result<()> {
        self.map.flush()
    }

    /// The mapping, as bytes again.
    pub(crate) fn into_map(self) -> MmapMut {
        self.map
    }
}
