//! Long work the page waits on (a pattern database being built, a table's distances being
//! recovered), counted as it goes so that `/api/boards` can show how far it is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

pub use slidetable_records::api::Work;

/// A counter of work under way; idle until [`Progress::start`], idle again after
/// [`Progress::finish`].
#[derive(Default)]
pub struct Progress {
    task: Mutex<Option<String>>,
    done: AtomicU64,
    total: AtomicU64,
}

impl Progress {
    /// Starts counting `task`, `total` units.
    pub fn start(&self, task: String, total: u64) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        *self.task.lock().unwrap_or_else(|e| e.into_inner()) = Some(task);
    }

    /// `n` more units done.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// The work is over (done or failed).
    pub fn finish(&self) {
        *self.task.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The work under way, if any.
    pub fn work(&self) -> Option<Work> {
        let task = self
            .task
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()?;
        let total = self.total.load(Ordering::Relaxed);
        Some(Work {
            task,
            done: self.done.load(Ordering::Relaxed).min(total),
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_is_shown_from_start_to_finish_only() {
        let p = Progress::default();
        assert_eq!(p.work(), None);
        p.start("building".into(), 10);
        p.add(4);
        p.add(9);
        assert_eq!(
            p.work(),
            Some(Work {
                task: "building".into(),
                done: 10,
                total: 10
            })
        );
        p.finish();
        assert_eq!(p.work(), None);
    }
}
