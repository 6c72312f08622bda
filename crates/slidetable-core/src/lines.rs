//! Reading puzzle input a line at a time in constant memory: the one line reader of the
//! command line's batches and of the judges' formats.

use std::io::{self, BufRead};

/// Longer lines are reported as errors instead of being held in memory.
pub const MAX_LINE: usize = 1 << 16;

/// A line still without its end after this many bytes ends the input with an error: skipping
/// a long line costs no memory, but a line that never ends (`/dev/zero`, `yes 1 | tr -d
/// '\n'`) would be read forever.
pub const MAX_UNENDED: u64 = 1 << 30;

/// One line: its number (from 1) and its bytes without the line end (`\n` or `\r\n`), or
/// `Err(length)` when it is longer than the limit.
pub struct Line<'a> {
    /// Its number, from 1.
    pub number: u64,
    /// Its bytes, or its length when it is longer than the limit.
    pub text: Result<&'a [u8], usize>,
}

/// Reads lines of at most `max` bytes in constant memory; longer ones are skipped to their
/// end and reported by length, and one with no end in its first [`MAX_UNENDED`] bytes ends the
/// input with an [`io::ErrorKind::InvalidData`] error naming its number.
pub struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    number: u64,
    max: usize,
    unended: u64,
    /// Bytes of the reader's buffer lent out as the last line, consumed on the next call.
    lent: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `inner`, at most `max` bytes each.
    pub fn new(inner: R, max: usize) -> Lines<R> {
        Lines {
            inner,
            buf: Vec::with_capacity(256),
            number: 0,
            max,
            unended: MAX_UNENDED,
            lent: 0,
        }
    }

    /// With another bound than [`MAX_UNENDED`] on a line without its end (for tests).
    pub fn with_unended(self, unended: u64) -> Lines<R> {
        Lines { unended, ..self }
    }

    /// The number of the last line returned (0 before the first).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
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
            if len as u64 > self.unended {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {} has no line end in its first {} bytes; reading stopped there",
                        self.number + 1,
                        self.unended
                    ),
                ));
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
    fn a_line_without_an_end_stops_the_input_at_the_bound() {
        let mut input = b"ok\n".to_vec();
        input.extend_from_slice(&[b' '; 5000]);
        let mut lines = Lines::new(&input[..], 10).with_unended(4096);
        assert_eq!(lines.next_line().unwrap().unwrap().text, Ok(&b"ok"[..]));
        let e = lines.next_line().err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "line 2 has no line end in its first 4096 bytes; reading stopped there"
        );
        // Below the bound, a long last line without an end is one overlong line.
        let v = all(&input[3..4000], 10);
        assert_eq!(v, vec![(1, Err(3997))]);
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
