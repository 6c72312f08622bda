//! Streaming input: lines of bounded length, numbered, from a file or standard input.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, Result};

/// Longer lines are reported as errors instead of being held in memory.
pub(crate) const MAX_LINE: usize = 1 << 16;

/// An input source and the name its errors carry.
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) reader: Box<dyn BufRead>,
}

/// The file an input argument names: `None` (standard input) for no argument or `-`.
pub(crate) fn file(path: Option<&Path>) -> Option<&Path> {
    path.filter(|p| p.as_os_str() != "-")
}

/// The name an input's errors carry: its path, or `<stdin>`.
pub(crate) fn name(path: Option<&Path>) -> String {
    file(path).map_or_else(|| STDIN.to_string(), |p| p.display().to_string())
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

/// One line: its number (from 1) and its bytes without the line end (`\n` or `\r\n`), or
/// `Err(length)` when it is longer than the limit.
pub(crate) struct Line<'a> {
    pub(crate) number: u64,
    pub(crate) text: Result<&'a [u8], usize>,
}

/// Reads lines of at most `max` bytes in constant memory; longer ones are skipped to their
/// end and reported by length.
pub(crate) struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    number: u64,
    max: usize,
    /// Bytes of the reader's buffer lent out as the last line, consumed on the next call.
    lent: usize,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(inner: R, max: usize) -> Lines<R> {
        Lines {
            inner,
            buf: Vec::with_capacity(256),
            number: 0,
            max,
            lent: 0,
        }
    }

    /// The next line, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.inner.consume(std::mem::take(&mut self.lent));
        // The common case: the whole line already sits in the reader's buffer; lend it out.
        let whole = loop {
            match self.inner.fill_buf() {
                Ok(a) => {
                    break a.iter().position(|&b| b == b'\n').map(|i| {
                        let cr = i > 0 && a[i - 1] == b'\r';
                        (i, i - usize::from(cr))
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if let Some((i, len)) = whole.filter(|&(_, len)| len <= self.max) {
            // A non-empty buffer is returned again without reading.
            let avail = self.inner.fill_buf()?;
            self.lent = i + 1;
            self.number += 1;
            return Ok(Some(Line {
                number: self.number,
                text: Ok(&avail[..len]),
            }));
        }
        self.buf.clear();
        let mut len = 0usize;
        let mut last = 0u8;
        let mut any = false;
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                break;
            }
            any = true;
            let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            len += chunk.len();
            if let Some(&b) = chunk.last() {
                last = b;
            }
            // Keep one byte beyond the limit: a `\r` before the `\n` does not count.
            if len <= self.max + 1 {
                self.buf.extend_from_slice(chunk);
            }
            self.inner.consume(used);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        if last == b'\r' {
            len -= 1;
            if len <= self.max {
                self.buf.pop();
            }
        }
        if len > self.max {
            return Ok(Some(Line {
                number: self.number,
                text: Err(len),
            }));
        }
        Ok(Some(Line {
            number: self.number,
            text: Ok(&self.buf),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(u64, Result<Vec<u8>, usize>)> {
        let mut lines = Lines::new(input, max);
        let mut v = Vec::new();
        while let Some(l) = lines.next_line().unwrap() {
            v.push((l.number, l.text.map(<[u8]>::to_vec)));
        }
        v
    }

    #[test]
    fn splits_numbers_and_strips_line_ends() {
        let v = all(b"a\r\nbb\n\nc", 10);
        assert_eq!(
            v,
            vec![
                (1, Ok(b"a".to_vec())),
                (2, Ok(b"bb".to_vec())),
                (3, Ok(vec![])),
                (4, Ok(b"c".to_vec()))
            ]
        );
        assert!(all(b"", 10).is_empty());
    }

    #[test]
    fn reports_overlong_lines_and_goes_on() {
        let v = all(b"0123456789abc\nok\n", 10);
        assert_eq!(v, vec![(1, Err(13)), (2, Ok(b"ok".to_vec()))]);
        // The limit is on the line's text: a CRLF line end does not count.
        let v = all(b"0123456789\r\n0123456789a\r\n", 10);
        assert_eq!(v, vec![(1, Ok(b"0123456789".to_vec())), (2, Err(11))]);
    }
}
