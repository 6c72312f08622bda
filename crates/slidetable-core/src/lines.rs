//! Reading puzzle input a line at a time in constant memory: the one line reader of the
//! command line's batches and of the judges' formats.
//!
//! The input is read in blocks of [`BLOCK`] bytes into one buffer, and each line is lent out
//! of it in place: one read call per block, no copy per line (a line that crosses the end of
//! a block is moved to the front once, with what follows it).

use std::io::{self, Read};

/// Longer lines are reported as errors instead of being held in memory.
pub const MAX_LINE: usize = 1 << 16;

/// A line still without its end after this many bytes ends the input with an error: skipping
/// a long line costs no memory, but a line that never ends (`/dev/zero`, `yes 1 | tr -d
/// '\n'`) would be read forever.
pub const MAX_UNENDED: u64 = 1 << 30;

/// UTF-8's byte-order mark, which some editors put before a file's first line.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// `text` without a UTF-8 byte-order mark at its start: how the start of a text of puzzles is
/// read, an input's first line here, a string given alone (Python's, which `open()` leaves
/// the mark of a file Notepad saved in) by the front ends.
#[inline]
pub fn without_byte_order_mark(text: &[u8]) -> &[u8] {
    text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text)
}

/// Whether `text` (an input's first line) begins with UTF-16's byte-order mark, little- or
/// big-endian (`FF FE`, `FE FF`): a file saved as UTF-16 (Notepad's "Unicode", PowerShell's
/// `>`), which is no text of puzzles until converted. No UTF-8 text begins so.
#[inline]
pub fn is_utf16(text: &[u8]) -> bool {
    matches!(text, [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..])
}

/// The bytes read from the input at a time.
pub const BLOCK: usize = 1 << 18;

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
    /// Bytes read and not yet returned: `buf[start..end]`.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The input has no more bytes.
    eof: bool,
    number: u64,
    max: usize,
    unended: u64,
    /// A `\r` before a `\n` stays part of the line.
    keep_cr: bool,
    /// A byte-order mark at the start of the first line is dropped.
    drop_bom: bool,
    /// The last line returned ended with `\n`.
    ended: bool,
}

impl<R: Read> Lines<R> {
    /// Lines of `inner`, at most `max` bytes each.
    pub fn new(inner: R, max: usize) -> Lines<R> {
        Lines {
            inner,
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            number: 0,
            max,
            unended: MAX_UNENDED,
            keep_cr: false,
            drop_bom: false,
            ended: false,
        }
    }

    /// Dropping a UTF-8 byte-order mark at the start of the input (an editor's, Notepad
    /// saves one): for input of puzzles, the batches' and the judges'. Elsewhere the bytes
    /// stay (a judge's check of another program's output compares what was written).
    pub fn dropping_byte_order_mark(self) -> Lines<R> {
        Lines {
            drop_bom: true,
            ..self
        }
    }

    /// Keeping a `\r` before a line's `\n` as part of the line: for a reader that compares
    /// bytes as they were written (a judge's check of another program's output, where a CRLF
    /// line end is a difference to report).
    pub fn keeping_cr(self) -> Lines<R> {
        Lines {
            keep_cr: true,
            ..self
        }
    }

    /// Whether the last line returned ended with `\n`: false only for a last line without its
    /// end (and before the first line).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// With another bound than [`MAX_UNENDED`] on a line without its end (for tests).
    pub fn with_unended(self, unended: u64) -> Lines<R> {
        Lines { unended, ..self }
    }

    /// The number of the last line returned (0 before the first).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The bytes read and not yet returned as lines: for a reader that takes the lines it
    /// recognises straight from them, then tells how many with [`Lines::consume`]. What
    /// [`Lines::next_line`] would return next starts here.
    #[inline]
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// The first `bytes` of [`Lines::buffered`], which hold exactly `lines` whole lines (each
    /// with its `\n`, none longer than the limit), are read: the next line comes after them,
    /// numbered after them.
    #[inline]
    pub fn consume(&mut self, bytes: usize, lines: u64) {
        debug_assert!(self.start + bytes <= self.end);
        self.start += bytes;
        self.number += lines;
    }

    /// The next line, or `None` at the end of the input.
    #[inline]
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        // The common case: the whole line already sits in the buffer; lend it out.
        if let Some(i) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
            let line = self.start..self.start + i;
            self.start += i + 1;
            self.ended = true;
            return Ok(Some(self.lend(line)));
        }
        self.next_line_refilled()
    }

    /// `buf[line]` (a line's bytes, its `\n` aside) as the next line: a `\r` before its end
    /// dropped, refused by length beyond the limit.
    #[inline]
    fn lend(&mut self, line: std::ops::Range<usize>) -> Line<'_> {
        self.number += 1;
        let text = &self.buf[line];
        let text = match text.strip_suffix(b"\r") {
            Some(stripped) if !self.keep_cr => stripped,
            _ => text,
        };
        // Looked at on the first line only: every other line goes by with one comparison.
        let text = match self.number == 1 && self.drop_bom {
            true => without_byte_order_mark(text),
            false => text,
        };
        Line {
            number: self.number,
            text: if text.len() <= self.max {
                Ok(text)
            } else {
                Err(text.len())
            },
        }
    }

    /// [`Lines::next_line`] when the buffer holds no line end: reads blocks until one comes
    /// (or the input ends); a line beyond the limit is skipped block by block, only its
    /// length and its last byte kept.
    #[cold]
    fn next_line_refilled(&mut self) -> io::Result<Option<Line<'_>>> {
        // Bytes of the current line already dropped from the buffer (a long line's).
        let mut skipped = 0u64;
        let mut last = 0u8;
        loop {
            let held = self.end - self.start;
            if (held as u64) + skipped > self.unended {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {} has no line end in its first {} bytes; reading stopped there",
                        self.number + 1,
                        self.unended
                    ),
                ));
            }
            if self.eof {
                if held == 0 && skipped == 0 {
                    return Ok(None);
                }
                // The last line, without an end.
                let line = self.start..self.end;
                self.start = self.end;
                self.ended = false;
                return Ok(Some(self.finish(line, skipped, last)));
            }
            if held > self.max + 1 {
                // Too long to hold: keep its length and its last byte (a `\r` before the
                // `\n` does not count), drop its bytes.
                skipped += held as u64;
                last = self.buf[self.end - 1];
                self.start = self.end;
            }
            self.fill()?;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
                let line = self.start..self.start + i;
                self.start += i + 1;
                self.ended = true;
                return Ok(Some(self.finish(line, skipped, last)));
            }
        }
    }

    /// A line that came after a refill: `buf[line]`, after `skipped` bytes already dropped
    /// (the last of them `last`).
    fn finish(&mut self, line: std::ops::Range<usize>, skipped: u64, last: u8) -> Line<'_> {
        if skipped == 0 {
            return self.lend(line);
        }
        self.number += 1;
        let held = &self.buf[line];
        let ends_cr = !self.keep_cr
            && match held.last() {
                Some(&b) => b == b'\r',
                None => last == b'\r',
            };
        let len = skipped + held.len() as u64 - u64::from(ends_cr);
        Line {
            number: self.number,
            text: Err(usize::try_from(len).unwrap_or(usize::MAX)),
        }
    }

    /// Moves the unread bytes to the front of the buffer and reads one block after them;
    /// sets `eof` when the input has no more.
    fn fill(&mut self) -> io::Result<()> {
        let held = self.end - self.start;
        if self.buf.len() < BLOCK.max(held * 2) {
            self.buf.resize(BLOCK.max(held * 2), 0);
        }
        self.buf.copy_within(self.start..self.end, 0);
        self.start = 0;
        self.end = held;
        loop {
            match self.inner.read(&mut self.buf[held..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
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
    fn keeping_cr_keeps_the_bytes_and_ended_tells_a_last_line_without_its_end() {
        let mut lines = Lines::new(&b"a\r\nb \nc"[..], 10).keeping_cr();
        assert!(!lines.ended());
        for (text, ended) in [(&b"a\r"[..], true), (b"b ", true), (b"c", false)] {
            assert_eq!(lines.next_line().unwrap().unwrap().text, Ok(text));
            assert_eq!(lines.ended(), ended);
        }
        assert!(lines.next_line().unwrap().is_none());
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

    /// A reader that hands out its bytes a few at a time, by a fixed pattern of sizes.
    struct Trickle<'a> {
        bytes: &'a [u8],
        sizes: std::iter::Cycle<std::slice::Iter<'a, usize>>,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = (*self.sizes.next().unwrap())
                .min(out.len())
                .min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// What the lines of `input` are, by splitting it whole.
    fn split(input: &[u8], max: usize) -> Vec<(u64, Result<Vec<u8>, usize>)> {
        let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        if parts.last().is_some_and(|l| l.is_empty()) {
            parts.pop();
        }
        (1..)
            .zip(parts)
            .map(|(n, l)| {
                let l = l.strip_suffix(b"\r").unwrap_or(l);
                (
                    n,
                    if l.len() <= max {
                        Ok(l.to_vec())
                    } else {
                        Err(l.len())
                    },
                )
            })
            .collect()
    }

    #[test]
    fn lines_across_reads_and_blocks_are_the_lines_of_the_whole() {
        // Short lines, CRLF ends, empty lines, lines at and beyond the limit, and lines longer
        // than a block, read in pieces of every size from 1 byte to several blocks.
        let mut input = Vec::new();
        for i in 0..3000usize {
            let len = match i {
                10 | 1500 => 2 * BLOCK + 3,
                _ => [0, 1, 17, 99, 100, 101, 5, 150, 40][i % 9],
            };
            input.extend((0..len).map(|k| b'a' + ((i + k) % 26) as u8));
            input.extend_from_slice(if i % 4 == 0 { b"\r\n" } else { b"\n" });
            if i % 500 == 7 {
                input.extend_from_slice(&[b'x'; 100]);
                input.push(b'\r');
                input.push(b'\n');
            }
        }
        input.extend_from_slice(b"last\r");
        let expected = split(&input, 100);
        for sizes in [&[1usize][..], &[3, 7, 1, 64], &[BLOCK - 1, 5], &[3 * BLOCK]] {
            let reader = Trickle {
                bytes: &input,
                sizes: sizes.iter().cycle(),
            };
            let mut lines = Lines::new(reader, 100);
            let mut got = Vec::new();
            while let Some(l) = lines.next_line().unwrap() {
                got.push((l.number, l.text.map(<[u8]>::to_vec)));
            }
            assert_eq!(got.len(), expected.len(), "pieces {sizes:?}");
            assert!(got == expected, "pieces {sizes:?}");
        }
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
