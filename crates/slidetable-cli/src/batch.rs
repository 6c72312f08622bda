//! The batch commands' one entry (`distance`, `path`): every puzzle line answered from
//! pattern databases when the arguments name them (the 15-puzzle), else from a table.

use std::process::ExitCode;

use anyhow::Result;

use crate::answers::{self, Answer, Output};
use crate::cli::BatchArgs;
use crate::patterns;

/// Answers every puzzle line of `args`' input, as `answer` and `output` ask.
pub(crate) fn run(args: &BatchArgs, answer: Answer, output: Output) -> Result<ExitCode> {
    if patterns::wanted(args)? {
        patterns::batch(args, answer, output)
    } else {
        answers::run(args, answer, output)
    }
}
