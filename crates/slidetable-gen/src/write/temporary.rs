//! The temporary files a table or pattern database is written to before it is renamed over
//! its name: which ones this process is writing (so a signal handler can remove them,
//! [`abandon_writes`]), and which ones in a directory are stale (their writer is gone: killed
//! by SIGKILL or a power cut, which nothing can catch).
//!
//! A temporary file is named `.NAME.slidetable-PID.XXXXXX.tmp`: the file it becomes, the
//! process writing it, a random part. A writer also holds an exclusive lock (`flock`) on it
//! from creation to rename; the kernel drops it when the writer dies, however it dies. So a
//! temporary file of ours whose process is gone and that can be locked has no writer and can
//! be removed, whatever table it was for. (The lock alone would do; the process id also
//! tells a person whose file it is, and keeps a file locked by a process in another pid
//! namespace on a shared disk safe either way.) The one race — another `generate` locks and
//! removes a file between its creation and its writer's lock — cannot happen to a live
//! writer's file, whose process is there; it is caught anyway by the writer, which finds its
//! file unlinked once it holds the lock and makes another.

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

/// Removes every temporary table file this process is writing (and the lock files it holds,
/// `LockFile`), and keeps any from being renamed into place afterwards: for a signal handler, just before the process ends. A
/// table whose rename already happened is complete and stays.
pub fn abandon_writes() {
    let list = writing();
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
    // Held until the process ends: no write in flight can finish its rename.
    std::mem::forget(list);
}

/// A lock file this process made and holds (a run's `.checkpoint.lock`), removed when
/// dropped and, like a temporary file, by [`abandon_writes`]: no lock file is left behind by
/// a run that ends, is refused, or is interrupted by a signal.
#[derive(Debug)]
pub(crate) struct LockFile {
    path: PathBuf,
    file: Option<File>,
}

impl LockFile {
    /// Opens (or makes) the file at `path` and locks it: `Ok(None)` if another process holds
    /// its lock (the file is then left as it is).
    pub(crate) fn take(path: &Path) -> io::Result<Option<LockFile>> {
        loop {
            // Made, locked and registered while the list is held: a signal's handler finds
            // the file registered, or not made.
            let mut list = writing();
            let file = File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)?;
            if file.try_lock().is_err() {
                return Ok(None);
            }
            // A run that held it removed it before we locked it: make another.
            if unlinked(&file)? {
                continue;
            }
            list.push(path.to_path_buf());
            return Ok(Some(LockFile {
                path: path.to_path_buf(),
                file: Some(file),
            }));
        }
    }
}

impl Drop for LockFile {
    fn drop(&mut self) {
        // Removed while still locked: a run that opened it a moment ago finds it unlinked
        // once it has the lock, and makes another.
        let mut list = writing();
        let _ = fs::remove_file(&self.path);
        drop(self.file.take());
        list.retain(|p| p != &self.path);
    }
}

/// Runs `f` while no signal's handler can begin [`abandon_writes`]: a handler that comes
/// sees all that `f` did or none of it (one that has begun makes `f` wait for the end of the
/// process).
pub(crate) fn hold_writes<R>(f: impl FnOnce() -> R) -> R {
    let list = writing();
    let r = f();
    drop(list);
    r
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
            // Made while the list is held, so that a signal's handler (which takes the list)
            // never finds the file on disk and not in the list.
            let mut list = writing();
            let file = builder.tempfile_in(dir)?;
            file.as_file().lock()?;
            // Another `generate` may have found it unlocked and removed it before our lock.
            if !unlinked(file.as_file())? {
                list.push(file.path().to_path_buf());
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
    pub(crate) fn persist(self, path: &Path) -> io::Result<()> {
        self.persist_then(path, || {})
    }

    /// [`persist`](Self::persist), then `then` once the file is in place, the list still
    /// held: a signal's handler sees the file renamed and what `then` records, or neither.
    pub(crate) fn persist_then(mut self, path: &Path, then: impl FnOnce()) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let mut list = writing();
        let tmp = file.path().to_path_buf();
        list.retain(|p| p != &tmp);
        // On failure the returned `NamedTempFile` is dropped, which removes it.
        file.persist(path).map_err(|e| e.error)?;
        then();
        drop(list);
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            // Removed from the disk, then from the list, while the list is held (see
            // `create`).
            let mut list = writing();
            let tmp = file.path().to_path_buf();
            drop(file);
            list.retain(|p| p != &tmp);
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

/// The marker between a temporary file's table name and its writer's process id.
const MARKER: &str = ".slidetable-";

/// The suffix of every temporary file.
const SUFFIX: &str = ".tmp";

/// The start of the name of a temporary file this process makes for the file `name`:
/// `.NAME.slidetable-PID.` (a random part and [`SUFFIX`] follow).
pub(crate) fn prefix(name: &str) -> String {
    format!(".{name}{MARKER}{}.", std::process::id())
}

/// A builder of temporary files named `{prefix}XXXXXX.tmp` (`prefix` from [`prefix`]).
pub(crate) fn builder(prefix: &str) -> tempfile::Builder<'_, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(SUFFIX);
    builder
}

/// The process that made the temporary file `name`, if the name is one of ours:
/// `.NAME.slidetable-PID.XXXXXX.tmp`.
fn writer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(SUFFIX)?;
    let (_, after) = rest.rsplit_once(MARKER)?;
    let (pid, random) = after.split_once('.')?;
    if random.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether the process `pid` is gone (no process of that id exists here).
fn gone(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return true;
    };
    // EPERM: it exists, and belongs to someone else.
    rustix::process::test_kill_process(pid) == Err(rustix::io::Errno::SRCH)
}

/// Removes the temporary files of ours in `dir` that no writer holds: left by a `generate`
/// (of any table or pattern database in `dir`) that was killed. `old_prefix` also names the
/// temporary files of one table as versions before the process id in the name made them
/// (`.NAME.XXXXXX.tmp`), removed when unlocked. Best effort; what cannot be checked is left.
pub(crate) fn remove_stale(dir: &Path, old_prefix: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = match writer(name) {
            Some(pid) => gone(pid),
            None => {
                name.starts_with(old_prefix)
                    && name.ends_with(SUFFIX)
                    && name.len() > old_prefix.len() + SUFFIX.len()
            }
        };
        if !ours {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a signal's handler sees ([`abandon_writes`] takes the list's lock): every
    /// temporary file of ours on disk is named in the list, while temporaries are created,
    /// persisted and dropped beside it. A file created before it was listed, or still there
    /// after it was taken off, would be left behind by a signal landing then.
    #[test]
    fn a_temporary_on_disk_is_always_listed() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_path_buf();
        let pre = prefix("race.slt");
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for i in 0..3000 {
                    let t = Temporary::create(&builder(&pre), &d).unwrap();
                    if i % 2 == 0 {
                        t.persist(&d.join("whole.slt")).unwrap();
                    }
                }
                done.store(true, Ordering::SeqCst);
            });
            let mut checks = 0u64;
            while !done.load(Ordering::SeqCst) || checks < 1000 {
                let list = writing();
                for entry in fs::read_dir(&d).unwrap().flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if name.starts_with(&pre) {
                        assert!(
                            list.contains(&entry.path()),
                            "{name} is on disk but not listed (check {checks})"
                        );
                    }
                }
                drop(list);
                checks += 1;
            }
        });
    }

    #[test]
    fn the_writer_is_read_back_from_the_name() {
        let name = format!("{}AbC123{SUFFIX}", prefix("3x4.slt"));
        assert_eq!(writer(&name), Some(std::process::id()));
        assert_eq!(writer(".a.b.slidetable-17.x.tmp"), Some(17));
        for other in [
            ".3x4.slt.AbC123.tmp",
            ".a.slidetable-17..tmp",
            ".a.slidetable-.x.tmp",
            ".a.slidetable-1x.y.tmp",
            "a.slidetable-17.x.tmp",
            ".a.slidetable-17.x.tmp~",
        ] {
            assert_eq!(writer(other), None, "{other}");
        }
    }

    #[test]
    fn this_process_is_not_gone_and_a_finished_one_is() {
        assert!(!gone(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(gone(pid));
    }

    #[test]
    fn stale_files_of_any_table_are_removed_and_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = format!(".other.slt{MARKER}{dead}.Q1w2E3{SUFFIX}");
        let old = ".t.slt.Q1w2E3.tmp";
        let held = Temporary::create(&builder(&prefix("held.slt")), d).unwrap();
        let mine = [".notes.txt.tmp", ".other.slt.Q1w2E3.tmp", "t.slt"];
        for name in [&stale[..], old].iter().chain(&mine) {
            fs::write(d.join(name), "x").unwrap();
        }
        remove_stale(d, ".t.slt.");
        let mut left: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let held_name = held.file.as_ref().unwrap().path().file_name().unwrap();
        let mut want: Vec<String> = mine.iter().map(|s| s.to_string()).collect();
        want.push(held_name.to_string_lossy().into_owned());
        want.sort();
        assert_eq!(left, want);
    }
}
