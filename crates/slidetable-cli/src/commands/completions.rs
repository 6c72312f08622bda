//! `completions`: a shell completion script, generated from the definitions clap parses
//! with.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};

pub(crate) fn run(args: &CompletionsArgs) -> Result<ExitCode> {
    // Into memory first: clap_complete panics on a failed write, and a closed pipe is not a
    // failure.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "slidetable", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
