//! Long calls that Ctrl-C stops. The work runs on a thread of its own without the GIL; the
//! calling thread wakes every [`TICK`] to let Python handle its signals, so that
//! `KeyboardInterrupt` is raised within a fraction of a second, not when the call returns.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use slidetable::search::Stop;

/// How often the calling thread wakes while the work runs.
const TICK: Duration = Duration::from_millis(50);

/// Runs `work` with a [`Stop`] it hands to the searches it makes (`Limits::stop`): on Ctrl-C
/// the stop is requested, the work waited for (a search looks every 1024 expansions) and
/// `KeyboardInterrupt` raised.
pub(crate) fn stoppable<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<T> {
    match stoppable_told(py, &mut || Ok(()), work)? {
        Ended::Done(result) => Ok(result),
        Ended::Interrupted(interrupt, _) => Err(interrupt),
    }
}

/// How a [`stoppable_told`] call ended.
pub(crate) enum Ended<T> {
    /// The work returned by itself.
    Done(T),
    /// A signal handler raised (`KeyboardInterrupt`), and the work, stopped, returned this:
    /// what it had proved by then.
    Interrupted(PyErr, T),
}

/// [`stoppable`], calling `tick` on the calling thread, with the GIL, every [`TICK`] while
/// the work runs (to tell Python of its progress), and handing back what the stopped work
/// returned beside the interruption. An exception `tick` raises stops the work and is
/// raised at once.
pub(crate) fn stoppable_told<T: Send>(
    py: Python<'_>,
    tick: &mut dyn FnMut() -> PyResult<()>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<Ended<T>> {
    let stop = Stop::new();
    let stop = &stop;
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel();
        let worker = scope.spawn(move || {
            let result = work(stop);
            let _ = done.send(());
            result
        });
        let finished = Mutex::new(finished);
        let waited = loop {
            match py.detach(|| receive(&finished)) {
                Ok(()) | Err(RecvTimeoutError::Disconnected) => break Ok(()),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals().and_then(|()| tick()) {
                        break Err(e);
                    }
                }
            }
        };
        if let Err(interrupt) = waited {
            stop.request();
            return match py.detach(|| worker.join()) {
                Ok(stopped) if interrupt.is_instance_of::<PyKeyboardInterrupt>(py) => {
                    Ok(Ended::Interrupted(interrupt, stopped))
                }
                _ => Err(interrupt),
            };
        }
        py.detach(|| worker.join())
            .map(Ended::Done)
            .map_err(|_| PyRuntimeError::new_err("the search panicked"))
    })
}

/// Runs `work`, which nothing can stop once started (generating a table or a database), on
/// a thread of its own: on Ctrl-C `KeyboardInterrupt` is raised at once and the thread is
/// left to finish and drop what it made (a file it writes appears whole or not at all).
pub(crate) fn abandonable<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    abandonable_told(py, None, work)
}

/// [`abandonable`], telling `progress(done, total)` every [`TICK`] what `counted` has counted
/// of the work, once it knows its total (a default found made already counts nothing, and
/// `progress` is not called); an exception `progress` raises is raised at once, as Ctrl-C is.
pub(crate) fn abandonable_told<T: Send + 'static>(
    py: Python<'_>,
    told: Option<(&Bound<'_, PyAny>, &Counted)>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(work());
    });
    let finished = Mutex::new(finished);
    let tell = |end: bool| -> PyResult<()> {
        if let Some((progress, counted)) = told {
            let (done, total) = counted.figures();
            if total > 0 {
                progress.call1((if end { total } else { done }, total))?;
            }
        }
        Ok(())
    };
    loop {
        match py.detach(|| receive(&finished)) {
            Ok(result) => {
                tell(true)?;
                return Ok(result);
            }
            Err(RecvTimeoutError::Timeout) => {
                py.check_signals()?;
                tell(false)?;
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the work panicked"));
            }
        }
    }
}

/// Work counted as it goes, for [`abandonable_told`]: its total once known, and what is done.
#[derive(Default)]
pub(crate) struct Counted {
    done: AtomicU64,
    total: AtomicU64,
}

impl Counted {
    /// `total` units to do.
    pub(crate) fn start(&self, total: u64) {
        self.total.store(total, Relaxed);
    }

    /// `n` more units done.
    pub(crate) fn add(&self, n: u64) {
        self.done.fetch_add(n, Relaxed);
    }

    /// Units done (at most the total) and the total (0 until known).
    fn figures(&self) -> (u64, u64) {
        let total = self.total.load(Relaxed);
        (self.done.load(Relaxed).min(total), total)
    }
}

/// What `finished` sends within a [`TICK`] (the lock is only ever held by the calling
/// thread: a `Receiver` is not `Sync`, a locked one is).
fn receive<T>(finished: &Mutex<Receiver<T>>) -> Result<T, RecvTimeoutError> {
    match finished.lock() {
        Ok(receiver) => receiver.recv_timeout(TICK),
        Err(_) => Err(RecvTimeoutError::Disconnected),
    }
}
