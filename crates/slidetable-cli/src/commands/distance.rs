//! `distance`: the fewest moves to the goal for each puzzle line.

use std::process::ExitCode;

use anyhow::Result;

use crate::answers::{self, Answer, Output};
use crate::cli::DistanceArgs;

pub(crate) fn run(args: &DistanceArgs) -> Result<ExitCode> {
    answers::run(
        &args.batch,
        Answer::Distance,
        Output::of(args.batch.json, args.csv, false),
    )
}
