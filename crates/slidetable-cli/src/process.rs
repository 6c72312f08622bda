//! What the process does with the operating system below Rust's runtime, as a program (never
//! a library) may: the binary's only `unsafe` code, every block with its argument here. It
//! uses no other module of the binary.
//!
//! - A mapped table changed while in use ([`exit_on_changed_table`]): the query library says
//!   which file changed (`slidetable::query::check_mapped_files`) and where each map lies
//!   (`slidetable::query::observe_maps`); the command line decides to stop, with the
//!   library's message and exit status 1, rather than die of SIGBUS or finish with answers
//!   that may be wrong.
//! - Standard output closed when the process began ([`stdout_closed_at_start`]), seen before
//!   Rust's runtime reopens it on `/dev/null`.
//!
//! (Ctrl-C's clean-up needs no `unsafe`: `signals.rs`, over signal-hook.)

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Once;
use std::time::Duration;

use slidetable::query::{check_mapped_files, observe_maps, MapEvent, TableChanged};

/// What every message of the program starts with.
const PREFIX: &str = "slidetable: ";

/// From now on, a mapped table whose file is truncated or rewritten under the process ends
/// it with `slidetable: table PATH changed while in use (…)` on standard error and exit
/// status 1 instead of a silent death by SIGBUS (once; later calls change nothing).
///
/// A fault in a map the query library reported ([`MapEvent::Mapped`]) is caught by a SIGBUS
/// handler; a file written over in place without a change of length raises no fault, so a
/// thread started here asks the library each second whether a mapped file changed, as
/// [`exit_if_tables_changed`] does when a command has answered, and as releasing a table does
/// ([`MapEvent::Released`]).
pub(crate) fn exit_on_changed_table() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(unix)]
        install_sigbus();
        observe_maps(on_map);
        // Without a thread, the check at the end still runs.
        let _ = std::thread::Builder::new()
            .name("table watcher".into())
            .spawn(|| loop {
                std::thread::sleep(WATCH_EVERY);
                exit_if_tables_changed();
            });
    });
}

/// How often the watcher asks whether a mapped table's file changed.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// Ends the process with the library's message and exit status 1 if the file of a mapped
/// table in use was written over since it was mapped; otherwise returns. A command calls it
/// once it has answered, so that a change the watcher had no time to see still fails the run.
pub(crate) fn exit_if_tables_changed() {
    if let Err(changed) = check_mapped_files() {
        exit_changed(&changed);
    }
}

/// Writes `changed`'s message and ends the process with status 1, without flushing the
/// answers buffered so far (they may be wrong).
fn exit_changed(changed: &TableChanged) -> ! {
    let message = format!("{PREFIX}{changed}\n");
    write_and_exit(message.as_bytes())
}

/// Writes `message` to standard error and ends the process with status 1 at once.
fn write_and_exit(message: &[u8]) -> ! {
    // SAFETY: write(2) of `message`, a live buffer of that length, then _exit(2); both are
    // async-signal-safe, so the SIGBUS handler calls this too.
    #[cfg(unix)]
    #[allow(unsafe_code)]
    unsafe {
        libc::write(2, message.as_ptr().cast(), message.len());
        libc::_exit(1);
    }
    #[cfg(not(unix))]
    {
        use std::io::Write;
        let _ = std::io::stderr().write_all(message);
        std::process::exit(1);
    }
}

/// How many maps can be guarded against faults at once; a further one is only watched.
const SLOTS: usize = 32;

/// One map guarded against faults: its number, address range and the message to print if
/// it faults.
struct Slot {
    /// The library's number of the map.
    id: AtomicU64,
    /// First byte of the map; 0 when the slot is free, `usize::MAX` while it is being filled
    /// or emptied.
    start: AtomicUsize,
    len: AtomicUsize,
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)] // a template for the array below
const FREE: Slot = Slot {
    id: AtomicU64::new(0),
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    message: AtomicPtr::new(std::ptr::null_mut()),
    message_len: AtomicUsize::new(0),
};

static GUARDED: [Slot; SLOTS] = [FREE; SLOTS];
static SIGBUS_INSTALLED: AtomicBool = AtomicBool::new(false);

/// What the query library reports of its maps: a new map's range is guarded against faults;
/// a released one's slot freed, after ending the process if its file changed.
fn on_map(event: MapEvent<'_>) {
    match event {
        MapEvent::Mapped { id, bytes, file } => {
            let changed = TableChanged {
                file: file.to_path_buf(),
            };
            guard_faults(id, bytes, format!("{PREFIX}{changed}\n"));
        }
        MapEvent::Released { id, changed } => {
            if let Some(changed) = changed {
                exit_changed(&changed);
            }
            release(id);
        }
        _ => {}
    }
}

/// Takes a slot for the faults in `bytes` (map `id`), if the SIGBUS handler is installed and
/// a slot is free.
fn guard_faults(id: u64, bytes: &[u8], message: String) {
    if !SIGBUS_INSTALLED.load(Ordering::Acquire) || bytes.is_empty() {
        return;
    }
    let Some(slot) = GUARDED.iter().find(|s| {
        s.start
            .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }) else {
        return;
    };
    let message = Box::into_raw(message.into_bytes().into_boxed_slice());
    slot.id.store(id, Ordering::Release);
    slot.message_len.store(message.len(), Ordering::Release);
    slot.message.store(message.cast::<u8>(), Ordering::Release);
    slot.len.store(bytes.len(), Ordering::Release);
    // Last: the slot matches faults only once everything else is in place (the reserved
    // value usize::MAX matches no address with a non-zero length).
    slot.start.store(bytes.as_ptr() as usize, Ordering::Release);
}

/// Frees the slot of map `id`, if it has one.
fn release(id: u64) {
    let Some(slot) = GUARDED.iter().find(|s| {
        let start = s.start.load(Ordering::Acquire);
        start != 0 && start != usize::MAX && s.id.load(Ordering::Acquire) == id
    }) else {
        return;
    };
    slot.start.store(usize::MAX, Ordering::Release);
    let message = slot.message.swap(std::ptr::null_mut(), Ordering::AcqRel);
    let len = slot.message_len.swap(0, Ordering::AcqRel);
    slot.len.store(0, Ordering::Release);
    if !message.is_null() {
        // SAFETY: `message` and `len` are the box leaked by `guard_faults`, taken out of the
        // slot exactly once (swapped for null), and no fault can read them any more (`start`
        // no longer matches an address).
        #[allow(unsafe_code)]
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(message, len)) });
    }
    slot.start.store(0, Ordering::Release);
}

#[cfg(unix)]
fn install_sigbus() {
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
    SIGBUS_INSTALLED.store(installed, Ordering::Release);
}

/// A SIGBUS whose faulting address lies in a guarded map writes that map's message (formatted
/// when it was mapped) and exits with status 1; a SIGBUS anywhere else gets the default
/// action.
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
            // SAFETY: `message` points to `len` bytes leaked by `guard_faults` and freed only
            // after the slot stops matching (`start` set to usize::MAX first).
            write_and_exit(unsafe { std::slice::from_raw_parts(message, len) });
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

/// Whether standard output was closed when the process began (`slidetable path … >&-`).
/// Rust's runtime opens `/dev/null` on a closed standard descriptor before `main`, where
/// every answer would vanish with exit 0; so a function the loader runs before the runtime
/// ([`LOOK_AT_STDOUT`]) looks first, and every write to standard output then fails (exit 1),
/// as a write to a closed descriptor does (`stdout_open` in `streams.rs`).
pub(crate) fn stdout_closed_at_start() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed)
}

static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Run by the loader with the program's constructors (`.init_array`), before Rust's runtime
/// touches the standard descriptors.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

#[cfg(target_os = "linux")]
extern "C" fn look_at_stdout() {
    // SAFETY: fcntl(F_GETFD) reads the flags of descriptor 1, or fails with EBADF when it is
    // not open; it takes no pointer and changes nothing.
    #[allow(unsafe_code)]
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}
