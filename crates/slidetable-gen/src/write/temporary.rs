//! The temporary files a table is written to before it is renamed over its name: which ones
//! this process is writing (so a signal handler can remove them, [`abandon_writes`]), and
//! which ones in a directory are stale (their writer is gone: killed by SIGKILL or a power
//! cut, which nothing can catch).
//!
//! A writer holds an exclusive lock (`flock`) on its temporary file from creation to rename;
//! the kernel drops it when the writer dies, however it dies. So a temporary file of ours
//! that can be locked has no writer and can be removed. The one race — another `generate`
//! locks and removes a file between its creation and its writer's lock — is caught by the
//! writer, which finds its file unlinked once it holds the lock and makes another.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

/// Temporary files this process is writing, by path.
static WRITING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn writing() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere while the list was held leaves it as it was: still right.
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary table file this process is writing, and keeps any from being
/// renamed into place afterwards: for a signal handler, just before the process ends. A
/// table whose rename already happened is complete and stays.
pub fn abandon_writes() {
    let list = writing();
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
    // Held until the process ends: no write in flight can finish its rename.
    std::mem::forget(list);
}

/// A temporary file being written, locked and registered; unregistered when dropped (the
/// file itself is removed by `NamedTempFile` unless it was persisted).
pub(crate) struct Temporary {
    /// `None` once persisted.
    file: Option<NamedTempFile>,
}

impl Temporary {
    /// Makes a temporary file in `dir` with `builder`, locks it, and registers it.
    pub(crate) fn create(builder: &tempfile::Builder, dir: &Path) -> io::Result<Temporary> {
        loop {
            let file = builder.tempfile_in(dir)?;
            file.as_file().lock()?;
            // Another `generate` may have found it unlocked and removed it before our lock.
            if !unlinked(file.as_file())? {
                writing().push(file.path().to_path_buf());
                return Ok(Temporary { file: Some(file) });
            }
        }
    }

    /// The open file.
    pub(crate) fn file(&mut self) -> &mut File {
        self.file
            .as_mut()
            .map(NamedTempFile::as_file_mut)
            .expect("not yet persisted")
    }

    /// Renames the file over `path`, unless [`abandon_writes`] has begun (then it waits for
    /// the end of the process).
    pub(crate) fn persist(mut self, path: &Path) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let mut list = writing();
        let tmp = file.path().to_path_buf();
        list.retain(|p| p != &tmp);
        // On failure the returned `NamedTempFile` is dropped, which removes it.
        file.persist(path).map(drop).map_err(|e| e.error)
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            let tmp = file.path();
            writing().retain(|p| p != tmp);
        }
    }
}

#[cfg(unix)]
fn unlinked(file: &File) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    Ok(file.metadata()?.nlink() == 0)
}

#[cfg(not(unix))]
fn unlinked(_: &File) -> io::Result<bool> {
    Ok(false)
}

/// Removes the temporary files named `{prefix}…{suffix}` in `dir` that no writer holds:
/// left by a `generate` that was killed. Best effort; what cannot be checked is left.
pub(crate) fn remove_stale(dir: &Path, prefix: &str, suffix: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !(name.starts_with(prefix) && name.ends_with(suffix)) || name.len() <= prefix.len() {
            continue;
        }
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() {
            // Nobody writes it: remove it while holding the lock, so a writer that created
            // it a moment ago sees it unlinked once it gets the lock.
            let _ = fs::remove_file(&path);
        }
    }
}
