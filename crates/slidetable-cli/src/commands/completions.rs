//! `completions`: a shell completion script, generated from the definitions clap parses
//! with.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::Cli;
use crate::streams;

pub(crate) fn run(shell: clap_complete::Shell) -> Result<ExitCode> {
    // Into memory first: clap_complete panics on a failed write, and a closed pipe is not a
    // failure.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "slidetable", &mut script);
    let mut out = streams::stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
