//! Mapped files that change under their maps: what the library knows, for the program to act
//! on.
//!
//! A map is only sound while nobody truncates or rewrites the file under it (memmap2's
//! contract, `slidetable_format::mapping`). We never do — tables are replaced by renaming a
//! new file over the old name, and a map keeps the old file's pages — but a user's
//! `cp new.slt table.slt` does: `cp` truncates the file first, and the kernel answers a read
//! of a page past the new end with SIGBUS, which kills the process without a word. Written
//! over in place without a change of length (`dd … conv=notrunc`), a map raises no fault at
//! all: its pages just change under the answers.
//!
//! Small tables are read into memory instead ([`crate::READ_BELOW`]), as SQLite reads by
//! default and ripgrep reads small files. For every file mapped, the library keeps its length
//! and modification time when mapped (of the open file itself, through its descriptor: a
//! table replaced by `mv` or `slidetable generate` is another file, and the map keeps the old
//! one, as it should), and tells:
//!
//! - [`check_mapped_files`]: whether a file mapped now has changed since ([`TableChanged`]);
//! - [`observe_maps`]: where each map lies when it is made, and whether its file had changed
//!   when it is released, for a program that handles SIGBUS itself.
//!
//! The library handles no signal and never ends the process: what to do is the program's
//! choice. The command line installs a SIGBUS handler over the observed maps, checks each
//! second and when it has answered, and ends with the message of [`TableChanged`] and exit
//! status 1 (its `process.rs`; `slidetable serve` included). The page's router
//! (`slidetable-serve`) checks after each API answer and answers 500 with that message
//! instead of a possibly wrong answer. Python installs nothing: a mapped table truncated
//! under the interpreter ends it by SIGBUS, the default, and one written over in place is not
//! noticed.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

/// A mapped table's file was truncated or written over since it was mapped: answers read
/// from it may be wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "table {} changed while in use (replace tables with `mv` or `slidetable generate`, never \
     by writing over them)",
    .file.display()
)]
pub struct TableChanged {
    /// The file, as it was named when opened.
    pub file: PathBuf,
}

/// What happens to a mapped file, for the program that watches ([`observe_maps`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum MapEvent<'a> {
    /// A file was mapped at `bytes`.
    Mapped {
        /// The map's number, the same in its [`MapEvent::Released`].
        id: u64,
        /// The mapped bytes (their addresses are where a fault in the map lands).
        bytes: &'a [u8],
        /// The file, as it was named when opened.
        file: &'a Path,
    },
    /// The map of `id` is about to be unmapped; `changed` if its file changed while mapped.
    Released {
        /// The map's number.
        id: u64,
        /// Its file changed since it was mapped.
        changed: Option<TableChanged>,
    },
}

/// A mapped file as it was when mapped.
struct Watched {
    id: u64,
    /// A second descriptor of the file (none if it could not be made: then never changed).
    file: Option<File>,
    len: u64,
    modified: Option<SystemTime>,
    path: PathBuf,
}

impl Watched {
    /// Whether the file's length or modification time differs from when it was mapped.
    fn changed(&self) -> Option<TableChanged> {
        let meta = self.file.as_ref()?.metadata().ok()?;
        // A file that can no longer be examined is not known to have changed.
        (meta.len() != self.len || meta.modified().ok() != self.modified).then(|| TableChanged {
            file: self.path.clone(),
        })
    }
}

static WATCHED: Mutex<Vec<Watched>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);
static OBSERVER: OnceLock<fn(MapEvent<'_>)> = OnceLock::new();

/// From now on, `observer` hears of every file mapped and released (see [`MapEvent`]); maps
/// made before the call are not reported. One observer a process: returns false, and changes
/// nothing, if one was set already. It runs on the thread that opens or drops the table,
/// before the map is made visible or unmapped.
pub fn observe_maps(observer: fn(MapEvent<'_>)) -> bool {
    OBSERVER.set(observer).is_ok()
}

/// Whether a file mapped now was truncated or written over since it was mapped (its length or
/// modification time differs): the first such file, or `Ok`. A program calls it when it has
/// answered from a mapped table, or now and then while it answers.
pub fn check_mapped_files() -> Result<(), TableChanged> {
    let watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
    match watched.iter().find_map(Watched::changed) {
        Some(changed) => Err(changed),
        None => Ok(()),
    }
}

/// A mapped file's watch, released when dropped (before the map is unmapped).
#[derive(Debug)]
pub(crate) struct Watch {
    id: u64,
}

/// Watches `bytes`, mapped from `file` at `path`.
pub(crate) fn watch(bytes: &[u8], file: &File, path: &Path) -> Watch {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let meta = file.metadata().ok();
    WATCHED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Watched {
            id,
            file: meta.as_ref().and_then(|_| file.try_clone().ok()),
            len: meta.as_ref().map_or(0, |m| m.len()),
            modified: meta.and_then(|m| m.modified().ok()),
            path: path.to_path_buf(),
        });
    if let Some(observer) = OBSERVER.get() {
        observer(MapEvent::Mapped {
            id,
            bytes,
            file: path,
        });
    }
    Watch { id }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let watched = {
            let mut all = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
            all.iter()
                .position(|w| w.id == self.id)
                .map(|at| all.remove(at))
        };
        if let Some(observer) = OBSERVER.get() {
            // A table released before the program's next check (a batch shorter than its
            // period) is looked at once more here: that check would no longer find it.
            let changed = watched.as_ref().and_then(Watched::changed);
            observer(MapEvent::Released {
                id: self.id,
                changed,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, Write};

    #[test]
    fn a_mapped_file_written_over_is_reported_until_it_is_released() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.slt");
        std::fs::write(&path, [1u8; 4096]).unwrap();
        let file = File::open(&path).unwrap();
        let watch = watch(&[0u8; 1], &file, &path);
        assert_eq!(
            WATCHED
                .lock()
                .unwrap()
                .iter()
                .find(|w| w.id == watch.id)
                .and_then(Watched::changed),
            None
        );
        let mut writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        writer.seek(std::io::SeekFrom::Start(0)).unwrap();
        writer.write_all(&[2u8; 8192]).unwrap();
        drop(writer);
        let changed = check_mapped_files().unwrap_err();
        assert_eq!(
            changed.to_string(),
            format!(
                "table {} changed while in use (replace tables with `mv` or `slidetable \
                 generate`, never by writing over them)",
                path.display()
            )
        );
        drop(watch);
        assert!(!WATCHED.lock().unwrap().iter().any(|w| w.path == path));
    }
}
