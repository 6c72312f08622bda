//! `distance`: the fewest moves to the goal for each puzzle line.

use std::process::ExitCode;

use anyhow::Result;

use crate::answers::{Answer, Output};
use crate::batch;
use crate::cli::DistanceArgs;

pub(crate) fn run(args: &DistanceArgs) -> Result<ExitCode> {
    batch::run(
        &args.batch,
        Answer::Distance,
        Output::of(args.batch.json, args.csv, false),
    )
}
