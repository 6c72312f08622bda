//! The small state files of the searches that resume after an interruption (the search in
//! parts' `part-K-of-N.state`, a generated table's `.NAME.state`): lines of `name value`,
//! ending with `crc XXXXXXXX`, the CRC-32 of every line before it, so that a file damaged on
//! disk is refused rather than resumed from. Each is written whole or not at all (a temporary
//! file beside it, synced, then renamed over it).

use std::fs::{self, File};
use std::io::{self, Read as _, Write};
use std::path::Path;

use slidetable_format::{open_regular, OpenError};

/// Writes the lines `text` (each ending in a newline) and their CRC line to `path`, durably.
pub(crate) fn write(path: &Path, text: &str) -> io::Result<()> {
    write_durably(path, seal(text).as_bytes())
}

/// The lines `text` (each ending in a newline) followed by their CRC line.
pub(crate) fn seal(text: &str) -> String {
    format!("{text}crc {:08x}\n", crc32fast::hash(text.as_bytes()))
}

/// What a state file says: `None` when there is none.
#[derive(Debug)]
pub(crate) struct Read {
    /// The lines before the CRC line.
    pub(crate) text: String,
    /// Whether the file had a CRC line (it then matched: a mismatch is an error).
    pub(crate) had_crc: bool,
}

impl Read {
    /// The value of the first line named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.text.lines().find_map(|line| {
            let (n, value) = line.split_once(' ').unwrap_or((line, ""));
            (n == name).then_some(value)
        })
    }

    /// The numbers of the first line named `name` (a histogram; none if there is no such
    /// line), or `None` if a word of it is not a number.
    pub(crate) fn numbers(&self, name: &str) -> Option<Vec<u64>> {
        self.get(name)
            .unwrap_or("")
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()
    }

    /// The values of every line named `name`, in order.
    pub(crate) fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.text.lines().filter_map(move |line| {
            let (n, value) = line.split_once(' ').unwrap_or((line, ""));
            (n == name).then_some(value)
        })
    }
}

/// Why a state file cannot be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The system's error.
    Io(io::Error),
    /// The CRC line does not match the lines before it.
    Damaged,
    /// Not a regular file (a FIFO, a device), or larger than such a file can be: refused
    /// before a byte is read.
    Refused(OpenError),
}

/// Opens the file at `path` as [`open_regular`] does: `None` if there is none.
fn open(path: &Path, most: u64, what: &'static str) -> Result<Option<File>, ReadError> {
    match open_regular(path, most, what) {
        Ok((file, _)) => Ok(Some(file)),
        Err(e) if e.is_missing() => Ok(None),
        Err(OpenError::Io(e)) => Err(ReadError::Io(e)),
        Err(e) => Err(ReadError::Refused(e)),
    }
}

/// Reads the state file at `path` (at most [`MAX_LINES`] bytes): `None` if there is none.
pub(crate) fn read(path: &Path) -> Result<Option<Read>, ReadError> {
    let Some(file) = open(path, MAX_LINES, "state file")? else {
        return Ok(None);
    };
    let mut text = String::new();
    match file.take(MAX_LINES).read_to_string(&mut text) {
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::InvalidData => return Err(ReadError::Damaged),
        Err(e) => return Err(ReadError::Io(e)),
    }
    parse(text).map(Some)
}

/// The length of the lines that start `bytes`, up to and including their CRC line (what
/// follows is not lines: a checkpoint's entries); `None` if there is no CRC line.
pub(crate) fn sealed_len(bytes: &[u8]) -> Option<usize> {
    let at = if bytes.starts_with(b"crc ") {
        0
    } else {
        bytes.windows(5).position(|w| w == b"\ncrc ")? + 1
    };
    let end = bytes[at..].iter().position(|&b| b == b'\n')?;
    Some(at + end + 1)
}

/// `numbers` as a line's value: in decimal, one space apart (a histogram).
pub(crate) fn join(numbers: &[u64]) -> String {
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The most bytes a checkpoint's lines (read whole before its entries) or a state file take.
pub(crate) const MAX_LINES: u64 = 1 << 20;

/// The lines that start the checkpoint at `path` (its entries follow them), which must end
/// in their CRC line, and the lines' length with it: `None` if there is no file.
pub(crate) fn read_head(path: &Path) -> Result<Option<(Read, u64)>, ReadError> {
    // Its length is checked against what its lines say before its entries are read.
    let Some(file) = open(path, u64::MAX, "checkpoint")? else {
        return Ok(None);
    };
    let mut head = Vec::new();
    file.take(MAX_LINES)
        .read_to_end(&mut head)
        .map_err(ReadError::Io)?;
    let len = sealed_len(&head).ok_or(ReadError::Damaged)?;
    head.truncate(len);
    let text = String::from_utf8(head).map_err(|_| ReadError::Damaged)?;
    match parse(text)? {
        read if read.had_crc => Ok(Some((read, len as u64))),
        _ => Err(ReadError::Damaged),
    }
}

/// What the lines `text` say, their CRC line checked (see [`read`]).
pub(crate) fn parse(text: String) -> Result<Read, ReadError> {
    let Some(at) = text.find("\ncrc ").map(|i| i + 1).or_else(|| {
        // A file that is nothing but its CRC line.
        text.starts_with("crc ").then_some(0)
    }) else {
        return Ok(Read {
            text,
            had_crc: false,
        });
    };
    let (body, tail) = text.split_at(at);
    let stored = tail
        .strip_prefix("crc ")
        .map(str::trim_end)
        .and_then(|hex| u32::from_str_radix(hex, 16).ok());
    if stored != Some(crc32fast::hash(body.as_bytes())) {
        return Err(ReadError::Damaged);
    }
    Ok(Read {
        text: body.to_string(),
        had_crc: true,
    })
}

/// Writes `bytes` to `path` through a temporary file beside it, synced, then renamed.
pub(crate) fn write_durably(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("new");
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent() {
        if let Ok(d) = File::open(dir) {
            // Not every filesystem syncs a directory.
            let _ = d.sync_all();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_file_reads_back_and_a_changed_byte_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.state");
        assert!(read(&path).unwrap().is_none());
        write(&path, "board 2x5\nlevel 7\nhistogram 1 2 3\n").unwrap();
        let back = read(&path).unwrap().unwrap();
        assert!(back.had_crc);
        assert_eq!(back.get("level"), Some("7"));
        assert_eq!(back.all("histogram").collect::<Vec<_>>(), ["1 2 3"]);
        let bytes = fs::read_to_string(&path)
            .unwrap()
            .replace("level 7", "level 8");
        fs::write(&path, bytes).unwrap();
        assert!(matches!(read(&path), Err(ReadError::Damaged)));
        // A file without a CRC line (an older search in parts wrote them) is read as it is.
        fs::write(&path, "level 3\n").unwrap();
        let old = read(&path).unwrap().unwrap();
        assert_eq!((old.get("level"), old.had_crc), (Some("3"), false));
    }
}
