//! `man`: the manual pages, generated from the definitions clap parses with.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::{Cli, ManArgs};
use crate::error::UsageError;

pub(crate) fn run(args: &ManArgs) -> Result<ExitCode> {
    // Built as clap_mangen::generate_to builds it, so that commands are named
    // `slidetable-path` and the pages' cross-references hold.
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let cmd = match &args.command {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
                return Err(UsageError(format!(
                    "no command '{name}' (commands: {})",
                    names.join(", ")
                ))
                .into());
            }
        },
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
    let mut out = io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
