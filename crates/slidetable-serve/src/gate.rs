//! The cap on searches at once: a class of 30 pressing "solve" on 15-puzzles must not starve
//! the machine. A few searches run (one per core by default), a bounded queue waits for them,
//! and past that a request is refused at once with 503 and `Retry-After`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How much searching the server does for its clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Each search stops after about this long (the page then says "more than N moves").
    pub time: Duration,
    /// Searches running at once.
    pub running: usize,
    /// Searches waiting for one of those; a request beyond gets 503.
    pub queue: usize,
    /// The search-effort lesson stops each method after expanding this many states.
    pub effort_expanded: u64,
}

impl Default for SearchLimits {
    fn default() -> SearchLimits {
        SearchLimits {
            time: Duration::from_secs(2),
            running: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 64,
            effort_expanded: 1_000_000,
        }
    }
}

/// The seconds a refused client is told to wait before asking again.
pub(crate) const RETRY_AFTER: u64 = 1;

/// Admits searches: [`SearchLimits::running`] at once, [`SearchLimits::queue`] waiting.
pub(crate) struct Gate {
    permits: Arc<Semaphore>,
    /// Running and waiting, together.
    admitted: Arc<AtomicUsize>,
    capacity: usize,
    running: usize,
}

/// A search's place: running while held.
pub(crate) struct Seat {
    _permit: OwnedSemaphorePermit,
    _admitted: Admitted,
}

/// One admitted request, counted until dropped (whether it ran, or its client left while it
/// waited).
struct Admitted(Arc<AtomicUsize>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The queue is full.
#[derive(Debug)]
pub(crate) struct Busy {
    pub(crate) running: usize,
    pub(crate) queue: usize,
}

impl Gate {
    pub(crate) fn new(limits: &SearchLimits) -> Gate {
        Gate {
            permits: Arc::new(Semaphore::new(limits.running)),
            admitted: Arc::new(AtomicUsize::new(0)),
            capacity: limits.running + limits.queue,
            running: limits.running,
        }
    }

    /// Waits for a place to search, or refuses at once when the queue is full.
    pub(crate) async fn enter(&self) -> Result<Seat, Busy> {
        let before = self.admitted.fetch_add(1, Ordering::AcqRel);
        let admitted = Admitted(self.admitted.clone());
        if before >= self.capacity {
            return Err(Busy {
                running: self.running,
                queue: self.capacity - self.running,
            });
        }
        // The semaphore is never closed.
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Busy {
                running: self.running,
                queue: self.capacity - self.running,
            })?;
        Ok(Seat {
            _permit: permit,
            _admitted: admitted,
        })
    }

    /// Searches running and waiting now.
    pub(crate) fn load(&self) -> (usize, usize) {
        let admitted = self.admitted.load(Ordering::Acquire).min(self.capacity);
        let running = self.running - self.permits.available_permits().min(self.running);
        (running, admitted.saturating_sub(running))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn past_the_queue_requests_are_refused_and_places_come_back() {
        let gate = Gate::new(&SearchLimits {
            running: 1,
            queue: 1,
            ..SearchLimits::default()
        });
        let first = gate.enter().await.unwrap();
        assert_eq!(gate.load(), (1, 0));
        // The second waits (in a task), the third is refused.
        let waiting = {
            let permits = gate.permits.clone();
            let admitted = gate.admitted.clone();
            let g = Gate {
                permits,
                admitted,
                capacity: 2,
                running: 1,
            };
            tokio::spawn(async move { g.enter().await.map(|_| ()) })
        };
        while gate.load() != (1, 1) {
            tokio::task::yield_now().await;
        }
        assert!(gate.enter().await.is_err());
        drop(first);
        waiting.await.unwrap().unwrap();
        assert_eq!(gate.load(), (0, 0));
        assert!(gate.enter().await.is_ok());
    }
}
