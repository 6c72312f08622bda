//! A file's bytes mapped into memory, and the hints that tell the kernel and the processor how
//! they will be read: the library's only `unsafe` code, every block with its argument here.
//!
//! The contract of every map (memmap2's): nobody may truncate or rewrite the file while it is
//! mapped, or its bytes change under the program (and a read past a truncated end raises
//! SIGBUS). slidetable honours it by never writing a table in place: the generator writes a
//! temporary file and renames it over the old name, which leaves a map of the old file
//! untouched. A user who writes over a mapped file anyway breaks it; `slidetable-query` keeps
//! each mapped file's length and modification time so a program can notice
//! (`slidetable_query::check_mapped_files`) and react as it chooses (the command line ends
//! with a message; see its `process.rs`).
//!
//! - [`map_read`]: a table file or pattern database, read-only (`slidetable-query`);
//! - [`map_working`]: the generator's own working file, read-write and shared;
//! - [`map_file_at`]: a file mapped over part of a reserved view (a table in parts);
//! - [`advise`]: read-ahead hints for a mapped range (`madvise`);
//! - [`advise_huge_pages`]: a hint that an allocation be backed with huge pages (`madvise`);
//! - [`start_writeback`]: a hint that a file's written bytes go to the disk now
//!   (`sync_file_range`);
//! - [`prefetch`]: a cache-line hint for one byte about to be read (the pattern search).

use std::fs::File;
use std::io;
use std::ops::Range;

use memmap2::{Mmap, MmapMut, MmapOptions};

/// Maps the whole of `file` read-only.
///
/// # Contract
///
/// `file` must not be truncated or written in place while the map lives (see the module's
/// documentation): the bytes of a table file, which is only ever replaced by a rename.
pub fn map_read(file: &File) -> io::Result<Mmap> {
    // SAFETY: memmap2's contract, that nobody modifies the file while it is mapped, is the
    // caller's (this function's contract): tables are replaced by rename, never written in
    // place, and a file changed anyway is noticed by the query crate's check.
    #[allow(unsafe_code)]
    unsafe {
        Mmap::map(file)
    }
}

/// Maps `len` bytes of `file` from `offset`, read-write and shared (writes reach the file).
/// An empty length gives an empty anonymous map.
///
/// # Contract
///
/// `file` is the caller's own working file (a part file of a search in parts before its
/// rename), which no other process opens while it is mapped and nobody takes for a table.
pub fn map_working(file: &File, offset: u64, len: u64) -> io::Result<MmapMut> {
    if len == 0 {
        return MmapOptions::new().len(0).map_anon();
    }
    let len = usize::try_from(len).map_err(|_| io::Error::other("mapping too large"))?;
    // SAFETY: memmap2's contract, that nobody else changes the file while it is mapped, holds
    // by this function's contract: the file is a working file only this process changes.
    #[allow(unsafe_code)]
    unsafe {
        MmapOptions::new().offset(offset).len(len).map_mut(file)
    }
}

/// Maps the first `len` bytes of `file` read-only over bytes `at..at + len` of `view`, in
/// place of what was there. `at` must be a multiple of the page size from `view`'s start (a
/// table in parts puts each part at a multiple of 64 KiB); a range outside `view` is refused.
/// Where `mmap` cannot map at a fixed address (not Unix), the bytes are read into `view`.
///
/// # Contract
///
/// As [`map_read`]'s, for `file`: a part of a table in parts, never written in place.
#[cfg(unix)]
pub fn map_file_at(view: &mut MmapMut, at: usize, len: usize, file: &File) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    if at.checked_add(len).is_none_or(|end| end > view.len()) {
        return Err(io::Error::other("a part outside the view"));
    }
    // SAFETY: `MAP_FIXED` replaces pages of `view`, an anonymous map that owns them and
    // unmaps them whole when dropped (`munmap` of a range unmaps every mapping in it); the
    // range lies inside `view` (checked above) and nothing borrows `view` while this runs
    // (`&mut`). The file's bytes are then read through `view` under memmap2's contract, which
    // is this function's contract.
    #[allow(unsafe_code)]
    let got = unsafe {
        libc::mmap(
            view.as_mut_ptr().add(at).cast(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED | libc::MAP_FIXED,
            file.as_raw_fd(),
            0,
        )
    };
    if got == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Without `mmap(MAP_FIXED)`, the file's first `len` bytes are read into the view.
#[cfg(not(unix))]
pub fn map_file_at(view: &mut MmapMut, at: usize, len: usize, file: &File) -> io::Result<()> {
    use std::io::{Read, Seek};
    let Some(to) = view.get_mut(at..at.saturating_add(len)) else {
        return Err(io::Error::other("a part outside the view"));
    };
    let mut file = file;
    file.seek(io::SeekFrom::Start(0))?;
    file.read_exact(to)
}

/// A copy of `bytes` in this process's own memory, which the kernel is asked to back with
/// huge pages (2 MiB on x86-64, where transparent huge pages are enabled or on `madvise`): a
/// long run of random reads over a large pattern database then finds its pages in the
/// processor's address cache instead of walking the page tables at most reads (Korf's 100 on
/// the 7-8 databases: about a sixth less CPU, BENCHMARKS.md). The copy costs a read of every
/// byte and their memory, so it pays for servers and long batches, not for one answer. The
/// hint is best effort: where the kernel gives no huge pages, the copy is plain memory.
pub fn resident_copy(bytes: &[u8]) -> io::Result<Mmap> {
    if bytes.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "no bytes to keep",
        ));
    }
    let mut copy = memmap2::MmapMut::map_anon(bytes.len())?;
    #[cfg(target_os = "linux")]
    let _ = copy.advise(memmap2::Advice::HugePage);
    copy.copy_from_slice(bytes);
    copy.make_read_only()
}

/// How a mapped range will be read, for [`advise`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advice {
    /// Here and there: no read-ahead around a fault.
    Random,
    /// In order, start to end: read ahead.
    Sequential,
    /// Soon: start reading the pages now.
    WillNeed,
}

/// Tells the kernel how bytes `range` of `bytes` will be read (`madvise` over the pages
/// holding them; a range reaching past `bytes` is clipped). Only a hint: nothing read changes,
/// and a failed hint is ignored. Does nothing where there is no `madvise` (not Unix).
pub fn advise(bytes: &[u8], range: Range<u64>, advice: Advice) {
    #[cfg(unix)]
    {
        let len = bytes.len() as u64;
        let (start, end) = (range.start.min(len), range.end.min(len));
        if start >= end {
            return;
        }
        let page = 4096;
        let from = (bytes.as_ptr() as usize + start as usize) & !(page - 1);
        let to = bytes.as_ptr() as usize + end as usize;
        let advice = match advice {
            Advice::Random => libc::MADV_RANDOM,
            Advice::Sequential => libc::MADV_SEQUENTIAL,
            Advice::WillNeed => libc::MADV_WILLNEED,
        };
        // SAFETY: `madvise` with these three advices reads and changes no memory contents:
        // it sets how the kernel reads ahead in the mapping, or starts reading pages into the
        // page cache. The range covers pages of `bytes` only (its start rounded down to the
        // page holding it, which belongs to the same mapping or allocation).
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, advice);
        }
    }
    #[cfg(not(unix))]
    let _ = (bytes, range, advice);
}

/// Asks the kernel to back the memory of `items` with huge pages (2 MiB on x86-64, where
/// transparent huge pages are enabled or on `madvise`): for a large allocation that a search
/// is about to fill and then reach all over (the generator's entries and frontier), which
/// then takes one page fault per 2 MiB instead of 512, and finds its pages in the processor's
/// address cache instead of walking the page tables at most reads. Call it before the memory
/// is first written (spare capacity reserved and not filled yet): pages already there are
/// left as they are. Only a hint, for the whole pages inside `items`; a failed hint is
/// ignored. Does nothing but on Linux.
pub fn advise_huge_pages<T>(items: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let page = 4096;
        let start = items.as_ptr() as usize;
        let end = start + std::mem::size_of_val(items);
        // The whole pages inside the items only: a page shared with another allocation is
        // left alone.
        let (from, to) = ((start + page - 1) & !(page - 1), end & !(page - 1));
        if from >= to {
            return;
        }
        // SAFETY: `MADV_HUGEPAGE` reads and changes no memory contents: it lets the kernel
        // back the range with huge pages (now or later, copying what is there). The range is
        // whole pages inside `items`, memory this allocation owns.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = items;
}

/// Starts writing bytes `range` of `file` (written, not yet on the disk) to the disk now,
/// without waiting for it (Linux's `sync_file_range` with `SYNC_FILE_RANGE_WRITE`): a large
/// file written a piece at a time then has its earlier pieces on their way to the disk while
/// the later ones are copied, and the `fsync` that ends the write waits for less. Only a
/// hint: nothing is made durable by it, and a failure is ignored (the `fsync` after it still
/// makes the file durable, and says what is wrong). Does nothing but on Linux.
pub fn start_writeback(file: &File, range: Range<u64>) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        let (Ok(offset), Ok(len)) = (
            libc::off64_t::try_from(range.start),
            libc::off64_t::try_from(range.end.saturating_sub(range.start)),
        ) else {
            return;
        };
        if len == 0 {
            return;
        }
        // SAFETY: `sync_file_range` reads and writes no memory of the program: it takes an
        // open descriptor (borrowed from `file`, so it stays open for the call), two offsets
        // and a flag, and only starts the kernel's writing of the file's cached pages.
        #[allow(unsafe_code)]
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, range);
}

/// Starts reading the cache line of `item` (its first byte's) into the processor's caches
/// without waiting for it: a read that follows soon finds it there. Only a hint; nothing on
/// other processors than x86-64.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has; a prefetch reads
    // nothing the program sees and never faults, and the address is that of a live item.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (item as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_resident_copy_holds_the_same_bytes_and_an_empty_one_is_refused() {
        // Larger than a huge page and not a multiple of one, so a partial last page is read.
        let bytes: Vec<u8> = (0..(5 << 20) + 12_345u32)
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        let copy = resident_copy(&bytes).unwrap();
        assert_eq!(copy.len(), bytes.len());
        assert!(copy[..] == bytes[..]);
        let empty = resident_copy(&[]).unwrap_err();
        assert_eq!(empty.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn a_mapped_file_reads_as_its_bytes_and_a_working_map_writes_through() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&[7u8; 10_000]).unwrap();
        let map = map_read(&file).unwrap();
        assert_eq!(&map[..], &[7u8; 10_000][..]);
        advise(&map, 0..u64::MAX, Advice::Random);
        prefetch(&map[9_999]);
        let mut work = map_working(&file, 4096, 100).unwrap();
        work[0] = 9;
        work.flush().unwrap();
        drop(work);
        assert_eq!(map[4096], 9);
        assert!(map_working(&file, 0, 0).unwrap().is_empty());
    }

    #[test]
    fn a_file_mapped_into_a_view_reads_there_and_one_outside_it_is_refused() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&[3u8; 8192]).unwrap();
        let mut view = MmapOptions::new().len(4 * 65536).map_anon().unwrap();
        map_file_at(&mut view, 65536, 8192, &file).unwrap();
        assert_eq!(&view[65536..65536 + 8192], &[3u8; 8192][..]);
        assert_eq!(view[0], 0);
        assert!(map_file_at(&mut view, 3 * 65536, 2 * 65536, &file).is_err());
    }
}
