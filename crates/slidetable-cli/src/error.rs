//! Errors and exit codes: what a failed command returns and how `main` reports it.

use std::io;

/// Exit code for a bad puzzle line (EX_DATAERR from sysexits.h).
pub(crate) const EXIT_BAD_INPUT: u8 = 65;
/// Exit code for bad arguments, as clap uses.
pub(crate) const EXIT_USAGE: u8 = 2;
/// Exit code for a search stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// A batch of searches ended by Ctrl-C ([`crate::signals::stop_on_ctrl_c`]): the answers so
/// far are written, and the run ends with [`EXIT_INTERRUPTED`].
#[derive(Debug, thiserror::Error)]
#[error("stopped by Ctrl-C")]
pub(crate) struct Interrupted;

/// An argument that clap accepted but that turned out wrong once the table was known.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub(crate) String);

/// Whether `e` comes from writing to a closed pipe (`slidetable path big.txt | head`), a
/// normal way for a reader to stop.
pub(crate) fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Whether `e` comes from an environment variable that holds what it does not accept
/// (`SLIDETABLE_CHECKPOINT_SECONDS=abc`): a bad argument, exit 2.
pub(crate) fn is_bad_environment(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<slidetable::generate::GenError>(),
            Some(slidetable::generate::GenError::Environment { .. })
        )
    })
}
