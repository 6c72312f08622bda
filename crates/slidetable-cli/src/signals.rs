//! Ctrl-C, SIGTERM and SIGHUP while a table is being written: the temporary file (up to
//! hundreds of MB) is removed, then the process dies of the signal as it would have. The
//! checkpoint of a search that keeps them (`slidetable::generate::resume`), or the groups'
//! checkpoints of a 24-puzzle build, stay (one being written is a temporary file, removed),
//! and the user is told what is kept and how to go on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use slidetable::generate::checkpoint::Saving;
use slidetable::search::Stop;

use crate::streams::warning;

/// From now on, SIGINT, SIGTERM or SIGHUP removes the table files being written before the
/// process ends by that signal (so a shell or a parent sees the same death). Costs one
/// waiting thread; called only by commands that write tables.
pub(crate) fn clean_up_on_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            // Without the handler a signal still stops us; only the clean-up is lost.
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    slidetable::generate::abandon_writes();
                    if let Some(saving) = slidetable::generate::checkpoint::in_progress() {
                        tell_kept(&saving);
                    }
                    die_of(signal);
                }
            });
        drop(spawned);
    });
}

/// What an interrupted run keeps, and how to go on from it: a search by levels its last
/// checkpoint's level, a build of groups (the 24-puzzle's pattern databases) each group's
/// checkpoint; either, that nothing is kept before its first.
fn tell_kept(saving: &Saving) {
    const RESUME: &str = "to resume it from there, or add --restart to start over";
    // A process of a run in parts names its part (under mpirun every process says it), and
    // resuming takes as many processes.
    let (who, again) = match saving {
        Saving::Levels { part, .. } | Saving::Groups { part, .. } => match part {
            Some((me, parts)) => (format!("part {me} of {parts}: "), " (on as many processes)"),
            None => (String::new(), ""),
        },
    };
    match saving {
        Saving::Levels {
            checkpoint,
            saved: Some((section, level, at)),
            ..
        } => warning!(
            "{who}interrupted; the search is kept up to level {level}{} in {} (written at {}): \
             run the same command again{again} {RESUME}",
            if *section > 0 {
                format!(" of section {}", section + 1)
            } else {
                String::new()
            },
            checkpoint.display(),
            crate::utc::format_utc(*at)
        ),
        Saving::Levels { saved: None, .. } => warning!(
            "{who}interrupted before the search's first checkpoint: nothing is kept (a search \
             writes one once it has run ten times as long as writing one takes, and ten \
             seconds)"
        ),
        Saving::Groups { kept, part } => {
            if kept.is_empty() {
                warning!(
                    "{who}interrupted before the build's first checkpoint: nothing is kept (a \
                     build keeps each group as a checkpoint as soon as it is built)"
                );
                return;
            }
            let list = |each: &dyn Fn(&(usize, std::path::PathBuf)) -> String| {
                kept.iter().map(each).collect::<Vec<_>>().join(", ")
            };
            warning!(
                "{who}interrupted; group{} {} of the build {} kept in {}: run the same command \
                 again{again} {}",
                if kept.len() == 1 { "" } else { "s" },
                list(&|(group, _)| group.to_string()),
                if kept.len() == 1 { "is" } else { "are" },
                list(&|(_, checkpoint)| checkpoint.display().to_string()),
                if part.is_some() {
                    "to resume it from the groups every part kept, or add --restart to start over"
                } else {
                    RESUME
                }
            )
        }
    }
}

/// Ctrl-C to a command that searches puzzle after puzzle (`search`, the 24-puzzle's
/// answers): the search in progress stops (its answer reads `unknown`) and the run ends after
/// writing what it found, exit 130. Outside a search (reading the next puzzle from a terminal,
/// say) a run that has not ended [`GRACE`] after Ctrl-C dies of it, as it did before; so does
/// one given a second Ctrl-C.
#[derive(Clone)]
pub(crate) struct CtrlC {
    stop: Stop,
    searching: Arc<AtomicBool>,
}

impl CtrlC {
    /// The request the searches are given (`Limits::stop`).
    pub(crate) fn stop(&self) -> Stop {
        self.stop.clone()
    }

    /// Whether Ctrl-C came.
    pub(crate) fn requested(&self) -> bool {
        self.stop.requested()
    }

    /// Marks a search in progress until the guard is dropped: Ctrl-C then stops the search
    /// rather than the process.
    pub(crate) fn searching(&self) -> Searching<'_> {
        self.searching.store(true, Ordering::Relaxed);
        Searching(&self.searching)
    }
}

/// A search in progress ([`CtrlC::searching`]), until dropped.
pub(crate) struct Searching<'a>(&'a AtomicBool);

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// How long a run that is not searching may take to end after Ctrl-C (writing what it found)
/// before it dies of the signal.
const GRACE: Duration = Duration::from_millis(500);

/// From now on, Ctrl-C (SIGINT) is handled as [`CtrlC`] says. Costs one waiting thread.
pub(crate) fn stop_on_ctrl_c() -> CtrlC {
    let ctrl_c = CtrlC {
        stop: Stop::new(),
        searching: Arc::new(AtomicBool::new(false)),
    };
    let Ok(mut signals) = Signals::new([SIGINT]) else {
        return ctrl_c;
    };
    let handle = ctrl_c.clone();
    let spawned = std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            handle.stop.request();
            let step = Duration::from_millis(10);
            let mut idle = Duration::ZERO;
            loop {
                if signals.pending().next().is_some() {
                    die_of(signal);
                }
                match handle.searching.load(Ordering::Relaxed) {
                    true => idle = Duration::ZERO,
                    false => idle += step,
                }
                if idle >= GRACE {
                    die_of(signal);
                }
                std::thread::sleep(step);
            }
        });
    drop(spawned);
    ctrl_c
}

/// Ends the process by `signal`, as it would have ended without a handler (or, should that
/// fail, exits as a shell reports it: 128 + the signal).
fn die_of(signal: i32) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal)
}
