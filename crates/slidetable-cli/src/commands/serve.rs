//! `serve`: the classroom page and its JSON API (the work is `slidetable_serve`'s; this reads
//! the configuration the arguments resolved to, runs the server and prints its URL).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::error::UsageError;

pub(crate) fn run(config: &slidetable_serve::Config) -> Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    let served = runtime.block_on(slidetable_serve::serve(config, |url| {
        let mut out = std::io::stdout().lock();
        // The URL is the one line a user (or a script) waits for: flushed at once.
        let _ = writeln!(out, "slidetable: serving {url} (Ctrl-C stops)");
        let _ = out.flush();
    }));
    // Work still running after the grace period (a default table being generated on its
    // first request) is abandoned: its temporary file removed, as `generate` removes its own
    // on a signal.
    slidetable::generate::abandon_writes();
    runtime.shutdown_background();
    served.map_err(|e| match e {
        // Arguments that contradict each other, as clap's are.
        e @ slidetable_serve::ServeError::TwoTables { .. } => UsageError(e.to_string()).into(),
        e => anyhow::Error::from(e),
    })?;
    Ok(ExitCode::SUCCESS)
}
