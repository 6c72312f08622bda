//! A table file changed under its memory map.
//!
//! A map is only sound while nobody truncates or rewrites the file under it (memmap2's
//! contract). We never do — tables are replaced by renaming a new file over the old name, and
//! a map keeps the old file's pages — but a user's `cp new.slt table.slt` does: `cp` truncates
//! the file first, and the kernel answers a read of a page past the new end with SIGBUS,
//! which kills the process without a word, midway through its answers.
//!
//! Small tables are read into memory instead ([`crate::READ_BELOW`]), as SQLite reads by
//! default and ripgrep reads small files; a large one stays mapped (reading 60 MB to answer
//! one question costs more than the question) and, once [`exit_on_changed_table`] is called,
//! is guarded: a SIGBUS whose faulting address lies in a guarded map writes
//! `PREFIXtable PATH changed while in use (…)` to standard error and exits with status 1. The
//! handler only calls `write(2)` and `_exit(2)` on a message formatted when the table was
//! mapped, both async-signal-safe. A SIGBUS anywhere else gets the default action.

use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

/// How many maps can be guarded at once; a further one is mapped unguarded.
const SLOTS: usize = 32;

/// One guarded map: its address range and the message to print if it faults.
struct Slot {
    /// First byte of the map; 0 when the slot is free.
    start: AtomicUsize,
    len: AtomicUsize,
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)] // a template for the array below
const FREE: Slot = Slot {
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    message: AtomicPtr::new(std::ptr::null_mut()),
    message_len: AtomicUsize::new(0),
};

static GUARDED: [Slot; SLOTS] = [FREE; SLOTS];

/// How often the watcher looks at the mapped tables' files.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// A mapped table's file as it was when mapped. Written over in place without changing its
/// length (`dd … conv=notrunc`), a map raises no SIGBUS: its pages just change under the
/// answers. The watcher compares the open file's length and modification time (of the file
/// itself, through its descriptor: a table replaced by `mv` or `slidetable generate` is
/// another file, and the map keeps the old one, as it should).
struct Watched {
    id: u64,
    file: File,
    len: u64,
    modified: Option<SystemTime>,
    message: String,
}

static WATCHED: Mutex<Vec<Watched>> = Mutex::new(Vec::new());
static NEXT_WATCH: AtomicU64 = AtomicU64::new(0);
/// What every message starts with (the program's name, as its other errors do).
static PREFIX: OnceLock<String> = OnceLock::new();
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// From now on, a mapped table whose file is truncated or rewritten under the process ends
/// it with `{prefix}table PATH changed while in use (…)` on standard error and exit status 1
/// instead of a silent death by SIGBUS. Installs a process-wide SIGBUS handler (once; later
/// calls change nothing), so only a program, never a library, should call it.
///
/// A mapped table whose file is written over in place without a change of length raises no
/// fault; a thread started here looks at every mapped table's file each second and ends the
/// process the same way when its length or modification time changed, and
/// [`exit_if_tables_changed`], called when a command has answered, looks once more, as does
/// releasing a table.
pub fn exit_on_changed_table(prefix: &str) {
    if PREFIX.set(prefix.to_string()).is_err() {
        return;
    }
    #[cfg(unix)]
    install();
    // Without a thread, the check at the end still runs.
    let _ = std::thread::Builder::new()
        .name("table watcher".into())
        .spawn(|| loop {
            std::thread::sleep(WATCH_EVERY);
            exit_if_tables_changed();
        });
}

/// Ends the process with `{prefix}table PATH changed while in use (…)` and exit status 1 if
/// the file of a mapped table in use was written over since it was mapped (see
/// [`exit_on_changed_table`]); otherwise returns. A command calls it once it has answered, so
/// that a change the watcher had no time to see still fails the run.
pub fn exit_if_tables_changed() {
    let watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(w) = watched.iter().find(|w| changed(w)) {
        exit_changed(&w.message);
    }
}

/// Writes `message` and ends the process with status 1.
fn exit_changed(message: &str) -> ! {
    let message = message.as_bytes();
    // SAFETY: write(2) of a live buffer, then _exit(2), as the SIGBUS handler does: the
    // answers buffered so far are not flushed, since they may be wrong.
    #[cfg(unix)]
    #[allow(unsafe_code)]
    unsafe {
        libc::write(2, message.as_ptr().cast(), message.len());
        libc::_exit(1);
    }
    #[cfg(not(unix))]
    std::process::exit(1);
}

fn changed(w: &Watched) -> bool {
    match w.file.metadata() {
        Ok(m) => m.len() != w.len || m.modified().ok() != w.modified,
        // A file that can no longer be examined is not known to have changed.
        Err(_) => false,
    }
}

#[cfg(unix)]
fn install() {
    // SAFETY: `sigaction` with a zeroed, then filled, `struct sigaction` whose handler only
    // reads atomics and calls async-signal-safe functions (see `on_sigbus`).
    #[allow(unsafe_code)]
    let installed = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
    };
    INSTALLED.store(installed, Ordering::Release);
}

#[cfg(unix)]
#[allow(unsafe_code)]
extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid `siginfo_t` to an SA_SIGINFO handler; for SIGBUS its
    // address field is the faulting address.
    let addr = unsafe { (*info).si_addr() } as usize;
    for slot in &GUARDED {
        let start = slot.start.load(Ordering::Acquire);
        if start != 0 && addr >= start && addr - start < slot.len.load(Ordering::Acquire) {
            let message = slot.message.load(Ordering::Acquire);
            let len = slot.message_len.load(Ordering::Acquire);
            // SAFETY: `message` points to `len` bytes leaked by `guard` and freed only after
            // the slot is released (`start` set to 0 first); write(2) and _exit(2) are
            // async-signal-safe.
            unsafe {
                libc::write(2, message.cast(), len);
                libc::_exit(1);
            }
        }
    }
    // Not a table's page: what SIGBUS would have done without us.
    // SAFETY: restoring the default disposition and raising the signal again are
    // async-signal-safe.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        libc::raise(libc::SIGBUS);
    }
}

/// A guarded map's slot, released when dropped (before the map is unmapped), and its
/// file's watch.
#[derive(Debug)]
pub(crate) struct Guard {
    slot: Option<usize>,
    watch: Option<u64>,
}

/// Guards `bytes`, mapped from `file` at `path`, if [`exit_on_changed_table`] was called:
/// its faults if a slot is free, and its file's length and modification time.
pub(crate) fn guard(bytes: &[u8], file: &File, path: &Path) -> Option<Guard> {
    let prefix = PREFIX.get()?;
    let message = format!(
        "{prefix}table {} changed while in use (replace tables with `mv` or `slidetable \
         generate`, never by writing over them)\n",
        path.display()
    );
    let watch = watch(file, &message);
    let slot = guard_faults(bytes, message);
    Some(Guard { slot, watch })
}

/// Adds `file` to the files the watcher looks at.
fn watch(file: &File, message: &str) -> Option<u64> {
    let meta = file.metadata().ok()?;
    let file = file.try_clone().ok()?;
    let id = NEXT_WATCH.fetch_add(1, Ordering::Relaxed);
    WATCHED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Watched {
            id,
            file,
            len: meta.len(),
            modified: meta.modified().ok(),
            message: message.to_string(),
        });
    Some(id)
}

/// Takes a slot for `bytes`' faults, if the SIGBUS handler is installed and one is free.
fn guard_faults(bytes: &[u8], message: String) -> Option<usize> {
    if !INSTALLED.load(Ordering::Acquire) || bytes.is_empty() {
        return None;
    }
    let start = bytes.as_ptr() as usize;
    let slot = GUARDED.iter().position(|s| {
        s.start
            .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    })?;
    let message = message.into_bytes().into_boxed_slice();
    let s = &GUARDED[slot];
    s.message_len.store(message.len(), Ordering::Release);
    s.message
        .store(Box::into_raw(message).cast::<u8>(), Ordering::Release);
    s.len.store(bytes.len(), Ordering::Release);
    // Last: the slot matches faults only once everything else is in place (the reserved
    // value usize::MAX matches no address with a non-zero length).
    s.start.store(start, Ordering::Release);
    Some(slot)
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(id) = self.watch {
            let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(at) = watched.iter().position(|w| w.id == id) {
                let w = watched.remove(at);
                // A table released before the watcher's next look (a batch shorter than its
                // period) is looked at once more here: the command's last check would no
                // longer find it.
                if changed(&w) {
                    exit_changed(&w.message);
                }
            }
        }
        let Some(slot) = self.slot else { return };
        let s = &GUARDED[slot];
        s.start.store(usize::MAX, Ordering::Release);
        let message = s.message.swap(std::ptr::null_mut(), Ordering::AcqRel);
        let len = s.message_len.swap(0, Ordering::AcqRel);
        s.len.store(0, Ordering::Release);
        if !message.is_null() {
            // SAFETY: `message` and `len` are the leaked box of `guard`, taken out of the slot
            // exactly once, and no fault can read them any more (`start` no longer matches).
            #[allow(unsafe_code)]
            drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(message, len)) });
        }
        s.start.store(0, Ordering::Release);
    }
}
