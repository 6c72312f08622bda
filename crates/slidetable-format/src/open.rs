//! The one way every reader opens a file the program did not just make (a table, a part, a
//! manifest, a checkpoint, a state file): only a regular file, and only of a size its reader
//! can hold. A FIFO would block the open (or the read) forever, and a device such as
//! `/dev/zero` would be read without end: both are refused before a byte is read, as a file
//! larger than what its reader's format allows is.

use std::fs::File;
use std::io;
use std::path::Path;

use crate::file_kind;

/// Why [`open_regular`] opened nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The system's error (a missing file is [`io::ErrorKind::NotFound`]).
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Not a regular file: a directory, a FIFO, a device, a socket.
    #[error("is {0}, not a regular file")]
    NotAFile(&'static str),
    /// A regular file larger than its reader's format allows.
    #[error("is {len} bytes, more than a {what} can be ({most} at most)")]
    TooLarge {
        /// The file's bytes.
        len: u64,
        /// The most its reader takes.
        most: u64,
        /// What the file should be (`state file`, `manifest`).
        what: &'static str,
    },
}

impl OpenError {
    /// Whether the file is not there.
    pub fn is_missing(&self) -> bool {
        matches!(self, OpenError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// Opens `path` for reading if it is a regular file (symbolic links followed) of at most
/// `most` bytes (`what` names the file for the message), and returns it with its length.
/// The open itself does not block: a FIFO is opened without waiting for a writer, then
/// refused.
pub fn open_regular(path: &Path, most: u64, what: &'static str) -> Result<(File, u64), OpenError> {
    let mut options = File::options();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        // A device without a driver (ENXIO, ENODEV) is still a device: say what it is.
        Err(e) => {
            return Err(match std::fs::metadata(path) {
                Ok(m) if !m.is_file() => OpenError::NotAFile(file_kind(&m.file_type())),
                _ => OpenError::Io(e),
            })
        }
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(OpenError::NotAFile(file_kind(&meta.file_type())));
    }
    if meta.len() > most {
        return Err(OpenError::TooLarge {
            len: meta.len(),
            most,
            what,
        });
    }
    Ok((file, meta.len()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_of_a_plausible_size_are_opened() {
        let dir = std::env::temp_dir().join(format!("slidetable-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(open_regular(&file, 5, "state file").unwrap().1, 5);
        let e = open_regular(&file, 4, "state file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "is 5 bytes, more than a state file can be (4 at most)"
        );
        assert!(open_regular(&dir.join("none"), 5, "x")
            .unwrap_err()
            .is_missing());
        let e = open_regular(Path::new("/dev/zero"), u64::MAX, "x").unwrap_err();
        assert_eq!(e.to_string(), "is a character device, not a regular file");
        let e = open_regular(&dir, u64::MAX, "x").unwrap_err();
        assert_eq!(e.to_string(), "is a directory, not a regular file");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
