//! Whole-table questions on a table too large to recover a byte a state of (14 cells: 2x7's
//! 43.6 GB), from Python: the query crate's level pass over the mapped table, as the command
//! line runs it (the same memory check before it, its late levels bottom-up when a second
//! bitmap fits), on a thread of its own without the GIL. The calling thread wakes every tenth
//! of a second to tell `progress(done, total)` and to let Python handle its signals: Ctrl-C
//! (`KeyboardInterrupt`), or any exception `progress` raises, stops the pass and is raised.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
use pyo3::prelude::*;
use slidetable::levels;
use slidetable::query::{Goal, Level};

use crate::errors::query_error;

/// How often the calling thread wakes while a pass runs.
const TICK: Duration = Duration::from_millis(100);

/// The level pass over `goal`'s section up to `upto` (at most its maximum distance) for the
/// call `what`, each level handed to `at` (see the module's text). `MemoryError` before it
/// starts when the machine has less memory than the level bitmap and the entries need.
pub(crate) fn pass(
    py: Python<'_>,
    goal: &Goal<'_>,
    upto: u32,
    what: &str,
    progress: Option<&Bound<'_, PyAny>>,
    at: &mut (dyn FnMut(&Level<'_>) + Send),
) -> PyResult<()> {
    let board = goal.layout().board();
    let pass = levels::plan(goal, upto, what).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    let total = pass.total;
    if pass.long && progress.is_none() {
        let note = format!(
            "slidetable: {}; Ctrl-C stops it, progress=callable(done, total) follows it\n",
            pass.note(board, what)
        );
        py.import("sys")?
            .getattr("stderr")?
            .call_method1("write", (note,))?;
    }
    let stop = AtomicBool::new(false);
    let finished = watch(py, total, progress, Some(&stop), |done| {
        pass.run(goal, done, Some(&stop), at)
    })?
    .map_err(|_| PyRuntimeError::new_err(format!("{what}: the level pass panicked")))?
    .map_err(query_error)?;
    if !finished {
        return Err(PyRuntimeError::new_err(format!(
            "{what}: the level pass stopped unasked"
        )));
    }
    Ok(())
}

/// Runs `work` on a thread of its own without the GIL, handing it a counter of the units it
/// has done (of `total`); the calling thread wakes every [`TICK`] to tell
/// `progress(done, total)` and to let Python handle its signals. Ctrl-C, or an exception
/// `progress` raises, sets `stop` (work that has none is waited for to its end) and is raised
/// once the work has ended. `Err(())` inside when the work panicked.
pub(crate) fn watch<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Bound<'_, PyAny>>,
    stop: Option<&AtomicBool>,
    work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> T + Send,
) -> PyResult<Result<T, ()>> {
    let done = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            work(&|n| {
                done.fetch_add(n, Relaxed);
            })
        });
        let interrupted = loop {
            if worker.is_finished() {
                break None;
            }
            py.detach(|| std::thread::sleep(TICK));
            if let Err(e) = py.check_signals() {
                break Some(e);
            }
            if let Some(progress) = progress {
                if let Err(e) = progress.call1((done.load(Relaxed).min(total), total)) {
                    break Some(e);
                }
            }
        };
        if let Some(e) = interrupted {
            if let Some(stop) = stop {
                stop.store(true, Relaxed);
            }
            let _ = py.detach(|| worker.join());
            return Err(e);
        }
        let result = py.detach(|| worker.join()).map_err(|_| ());
        if let (Some(progress), Ok(_)) = (progress, &result) {
            progress.call1((total, total))?;
        }
        Ok(result)
    })
}
