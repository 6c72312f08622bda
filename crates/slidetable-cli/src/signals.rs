//! Ctrl-C, SIGTERM and SIGHUP while a table is being written: the temporary file (up to
//! hundreds of MB) is removed, then the process dies of the signal as it would have. The
//! working files of a search that resumes (`slidetable_gen::resume`) are kept, and the user
//! is told how to go on.

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
                    slidetable_gen::abandon_writes();
                    if let Some(saving) = slidetable_gen::resume::in_progress() {
                        let upto = match saving.level {
                            Some(level) => format!("up to level {level}"),
                            None => "before its first level".to_string(),
                        };
                        warning!(
                            "interrupted; the search is saved {upto} (in {} and the files \
                             beside it): run the same command again to resume it, or add \
                             --restart to start over",
                            saving.state.display()
                        );
                    }
                    // Dies of `signal` (or, should that fail, exits as a shell reports it).
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
        drop(spawned);
    });
}
