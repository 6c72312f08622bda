//! The standard streams, as a careful program treats them: a diagnostic that standard error
//! cannot take is lost, never the answers; and a write error on standard output is named as
//! the output's.

use std::fmt;
use std::io::{self, Write};

/// Writes `slidetable: MESSAGE` and a line end to standard error. A standard error that
/// cannot take it (closed, a full disk) loses the message and nothing else: `eprintln!`
/// would panic there and lose every answer after it.
pub(crate) fn write_warning(message: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "slidetable: {message}");
}

/// Writes MESSAGE and a line end to standard error, as [`write_warning`] but without the program's
/// name (per-puzzle statistics, which are data rather than complaints).
pub(crate) fn write_note(message: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{message}");
}

/// `warning!("...", args)`: [`write_warning`] with `format!` arguments, in place of
/// `eprintln!("slidetable: ...")`.
macro_rules! warning {
    ($($arg:tt)*) => {
        $crate::streams::write_warning(format_args!($($arg)*))
    };
}

/// `note!("...", args)`: [`write_note`] with `format!` arguments, in place of `eprintln!`.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::streams::write_note(format_args!($($arg)*))
    };
}

pub(crate) use {note, warning};

/// A write to standard output failed: the output's problem (a full disk, a closed pipe),
/// whatever was being answered at the time.
#[derive(Debug, thiserror::Error)]
#[error("cannot write standard output: {0}")]
pub(crate) struct OutputError(io::Error);

/// The io error inside `e`'s chain that came from writing standard output, if any.
pub(crate) fn output_error(e: &anyhow::Error) -> Option<&OutputError> {
    e.chain().find_map(|c| {
        c.downcast_ref::<io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<OutputError>())
            .or_else(|| c.downcast_ref::<OutputError>())
    })
}

/// Standard output (or any writer) whose write errors say they are the output's, keeping
/// their kind (a broken pipe stays one).
pub(crate) struct Output<W>(pub(crate) W);

fn named(e: io::Error) -> io::Error {
    if e.get_ref().is_some_and(|i| i.is::<OutputError>()) {
        return e;
    }
    io::Error::new(e.kind(), OutputError(e))
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// Standard output, locked, buffered, its errors named.
pub(crate) fn stdout() -> io::BufWriter<Output<io::StdoutLock<'static>>> {
    io::BufWriter::with_capacity(1 << 16, Output(io::stdout().lock()))
}
