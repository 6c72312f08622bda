//! Ctrl-C, SIGTERM and SIGHUP while a table is being written: the temporary file (up to
//! hundreds of MB) is removed, then the process dies of the signal as it would have. The
//! checkpoint of a search that keeps them (`slidetable::generate::resume`) stays (one being written
//! is a temporary file, removed), and the user is told how to go on.

use std::sync::Once;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

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
                        match saving.saved {
                            Some((section, level, at)) => warning!(
                                "interrupted; the search is kept up to level {level}{} in {} \
                                 (written at {}): run the same command again to resume it \
                                 from there, or add --restart to start over",
                                if section > 0 {
                                    format!(" of section {}", section + 1)
                                } else {
                                    String::new()
                                },
                                saving.checkpoint.display(),
                                crate::utc::format_utc(at)
                            ),
                            None => warning!(
                                "interrupted before the search's first checkpoint: nothing \
                                 is kept (a search writes one once it has run ten times as \
                                 long as writing one takes, and ten seconds)"
                            ),
                        }
                    }
                    // Dies of `signal` (or, should that fail, exits as a shell reports it).
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
        drop(spawned);
    });
}
