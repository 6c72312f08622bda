//! `distance`: the fewest moves to the goal for each puzzle line.

use std::process::ExitCode;

use anyhow::Result;

use crate::answers::{self, Answer};
use crate::cli::BatchArgs;

pub(crate) fn run(args: &BatchArgs) -> Result<ExitCode> {
    answers::run(args, Answer::Distance, false)
}
