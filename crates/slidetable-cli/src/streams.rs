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
        stdout_open()?;
        self.0.write(buf).map_err(named)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        stdout_open()?;
        self.0.write_all(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// Fails, as the output's error, when standard output was closed at the start: for a
/// command to refuse before its work (`generate -o -`), and for every write to it.
pub(crate) fn stdout_open() -> io::Result<()> {
    if crate::process::stdout_closed_at_start() {
        return Err(named(io::Error::other(
            "it was closed when slidetable started (`>&-`); redirect it to /dev/null to \
             discard the output",
        )));
    }
    Ok(())
}

/// Standard output, locked, buffered, its errors named.
pub(crate) fn stdout() -> Sink<Output<io::StdoutLock<'static>>> {
    Sink::new(Output(io::stdout().lock()))
}

/// The bytes a [`Sink`] gathers before it writes them, in one write.
const SINK_BLOCK: usize = 1 << 16;

/// A buffered writer whose buffer answers are written straight into ([`Sink::buffer`],
/// then [`Sink::written`]): a batch formats a million answers with no copy and no call per
/// answer, and writes them a block at a time. Written out when flushed and when dropped
/// (errors then lost, as `BufWriter`'s); a write of a block or more goes straight through.
pub(crate) struct Sink<W: Write> {
    buf: Vec<u8>,
    inner: W,
}

impl<W: Write> Sink<W> {
    /// Buffers writes to `inner`.
    pub(crate) fn new(inner: W) -> Sink<W> {
        Sink {
            buf: Vec::with_capacity(SINK_BLOCK + 1024),
            inner,
        }
    }

    /// The bytes not written yet, to append to; [`Sink::written`] after appending.
    #[inline]
    pub(crate) fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Writes the buffer out once it holds a block.
    #[inline]
    pub(crate) fn written(&mut self) -> io::Result<()> {
        if self.buf.len() >= SINK_BLOCK {
            self.drain()?;
        }
        Ok(())
    }

    /// [`Sink::written`] after answers appended together, not one at a time: `ends` holds
    /// where each ends in the buffer, in order. The buffer is written out where
    /// [`Sink::written`] after each answer would have: at the end of the first answer that
    /// fills a block, then likewise from there; the rest is kept. After a failed write
    /// nothing of the buffer is kept, as after [`Sink::written`].
    pub(crate) fn written_after(&mut self, ends: &[usize]) -> io::Result<()> {
        if self.buf.len() < SINK_BLOCK {
            return Ok(());
        }
        let mut from = 0;
        for &end in ends {
            if end - from >= SINK_BLOCK {
                if let Err(e) = self.inner.write_all(&self.buf[from..end]) {
                    self.buf.clear();
                    return Err(e);
                }
                from = end;
            }
        }
        self.buf.drain(..from);
        Ok(())
    }

    /// Writes the buffer out; it is empty afterwards even when the write failed (nothing is
    /// written twice).
    fn drain(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let done = self.inner.write_all(&self.buf);
        self.buf.clear();
        done
    }
}

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    #[inline]
    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        if data.len() >= SINK_BLOCK {
            self.drain()?;
            return self.inner.write_all(data);
        }
        self.buf.extend_from_slice(data);
        self.written()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for Sink<W> {
    fn drop(&mut self) {
        let _ = self.drain();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that keeps each write apart.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            self.0.push(data.to_vec());
            Ok(data.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn answers_appended_together_are_written_where_one_at_a_time_would_be() {
        // Answers of 1 to 300 bytes, given in groups of 1 to 700.
        let answers: Vec<Vec<u8>> = (0..5000u32)
            .map(|i| vec![b'a' + (i % 26) as u8; 1 + (i as usize * 7919) % 300])
            .collect();
        let mut one = Sink::new(Writes::default());
        for a in &answers {
            one.buffer().extend_from_slice(a);
            one.written().unwrap();
        }
        let mut together = Sink::new(Writes::default());
        let mut rest = &answers[..];
        let mut group = 1;
        while !rest.is_empty() {
            let (now, later) = rest.split_at(group.min(rest.len()));
            let mut ends = Vec::new();
            for a in now {
                together.buffer().extend_from_slice(a);
                ends.push(together.buffer().len());
            }
            together.written_after(&ends).unwrap();
            rest = later;
            group = group * 3 % 701;
        }
        assert_eq!(together.buffer(), one.buffer());
        assert_eq!(together.inner.0, one.inner.0);
        assert!(one.inner.0.len() > 5);
    }
}
