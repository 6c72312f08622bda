//! Input sources: a file or standard input, named for messages (read by lines with
//! `slidetable::core::lines`).

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, Result};

/// An input source and the name its errors carry.
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) reader: Box<dyn BufRead>,
}

/// The file an input argument names: `None` (standard input) for no argument or `-`.
fn file(path: Option<&Path>) -> Option<&Path> {
    path.filter(|p| p.as_os_str() != "-")
}

/// How standard input is named in messages.
const STDIN: &str = "<stdin>";

/// Opens `path`, or standard input for `None` or `-`.
pub(crate) fn open(path: Option<&Path>) -> Result<Input> {
    match file(path) {
        None => Ok(stdin()),
        Some(p) => {
            let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            Ok(Input {
                name: p.display().to_string(),
                reader: Box::new(BufReader::with_capacity(1 << 16, file)),
            })
        }
    }
}

fn stdin() -> Input {
    Input {
        name: STDIN.to_string(),
        reader: Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock())),
    }
}
