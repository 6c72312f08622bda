//! `path`: an optimal move string for each puzzle line (the smallest under `--order`), or
//! the boards along it (`--show`).

use std::process::ExitCode;

use anyhow::Result;

use crate::answers::{Answer, Output};
use crate::batch;
use crate::cli::PathArgs;

pub(crate) fn run(args: &PathArgs) -> Result<ExitCode> {
    let answer = match args.order {
        Some(order) => Answer::OrderedPath(order),
        None => Answer::Path,
    };
    batch::run(
        &args.batch,
        answer,
        Output::of(args.batch.json, args.csv, args.show),
    )
}
