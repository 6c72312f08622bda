//! The environment variables the generator reads ([`CHECKPOINT_ENV`],
//! [`MEMORY_ENV`], [`DISK_ENV`], [`WIDE_RANKS_ENV`]), each read and checked here: a
//! value that is not what the variable accepts is refused with the variable's name and what
//! it accepts ([`GenError::Environment`]), never ignored (the user would believe a limit in
//! force that is not), and a value too large for its type is taken as the largest there is
//! (a limit that never binds), never a panic. An empty value is the variable unset.

use std::time::Duration;

use crate::GenError;

/// Environment variable: seconds between checkpoints instead of the measured pace (`0`: at the
/// end of every level). What tests use to make checkpoints on boards searched in milliseconds.
pub const CHECKPOINT_ENV: &str = "SLIDETABLE_CHECKPOINT_SECONDS";

/// Environment variable: the bytes of memory a search may count on (instead of the
/// system's `MemAvailable`).
pub const MEMORY_ENV: &str = "SLIDETABLE_AVAILABLE_MEMORY";

/// Environment variable: the bytes of disk space a table may count on (instead of the free
/// space of its directory's filesystem).
pub const DISK_ENV: &str = "SLIDETABLE_AVAILABLE_DISK";

/// Environment variable: `1` makes the 2-bit search of every state and the queries of its
/// tables rank in 64 bits ([`slidetable_core::WideRanker`]) on every board, as they must past
/// 14 cells; `0` or unset, only there.
pub use slidetable_core::WIDE_RANKS_ENV;

/// What [`WIDE_RANKS_ENV`] accepts, for the message.
pub const SWITCH: &str = "0 or 1";

/// What a variable of seconds accepts, for the message.
pub const SECONDS: &str = "a number of seconds written in digits, with an optional fraction \
                           (0, 30 or 2.5)";

/// What a variable of bytes accepts, for the message.
pub const BYTES: &str = "a whole number of bytes written in digits (8000000000)";

/// The value of `name`, unless it is unset or empty.
fn value(name: &'static str) -> Result<Option<String>, GenError> {
    match std::env::var(name) {
        Ok(v) if v.is_empty() => Ok(None),
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => Err(refused(
            name,
            v.to_string_lossy().into_owned(),
            "UTF-8 text",
        )),
    }
}

fn refused(name: &'static str, value: String, accepts: &'static str) -> GenError {
    GenError::Environment {
        name,
        value,
        accepts,
    }
}

/// `text` as a whole number written in digits, the largest `u64` if it is larger.
fn whole(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(u64::MAX))
}

/// `text` as seconds (digits, an optional `.` and digits), the longest [`Duration`] if it is
/// longer.
fn seconds_of(text: &str) -> Option<Duration> {
    let (secs, fraction) = text.split_once('.').unwrap_or((text, ""));
    let secs = whole(secs)?;
    if text.contains('.') && whole(fraction).is_none() {
        return None;
    }
    // Nanoseconds from the first nine digits of the fraction.
    let nanos = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(9)
        .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    Some(Duration::new(secs, 0).saturating_add(Duration::from_nanos(u64::from(nanos))))
}

/// The seconds the variable `name` gives, if set (see [`SECONDS`]).
pub fn seconds(name: &'static str) -> Result<Option<Duration>, GenError> {
    value(name)?
        .map(|v| seconds_of(&v).ok_or_else(|| refused(name, v.clone(), SECONDS)))
        .transpose()
}

/// The bytes the variable `name` gives, if set (see [`BYTES`]).
pub fn bytes(name: &'static str) -> Result<Option<u64>, GenError> {
    value(name)?
        .map(|v| whole(&v).ok_or_else(|| refused(name, v.clone(), BYTES)))
        .transpose()
}

/// Whether [`WIDE_RANKS_ENV`] asks for 64-bit ranks on every board.
pub fn wide_ranks() -> Result<bool, GenError> {
    match value(WIDE_RANKS_ENV)?.as_deref() {
        None | Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(other) => Err(refused(WIDE_RANKS_ENV, other.to_string(), SWITCH)),
    }
}

/// Checks every variable the generator reads, for a front end to refuse a bad one before any
/// work (each is checked again where it is read).
pub fn check() -> Result<(), GenError> {
    seconds(CHECKPOINT_ENV)?;
    bytes(MEMORY_ENV)?;
    bytes(DISK_ENV)?;
    wide_ranks()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_bytes_are_digits_and_huge_ones_saturate() {
        assert_eq!(seconds_of("0"), Some(Duration::ZERO));
        assert_eq!(seconds_of("2.5"), Some(Duration::from_millis(2500)));
        assert_eq!(seconds_of("30"), Some(Duration::from_secs(30)));
        assert_eq!(seconds_of("0.0000000019"), Some(Duration::from_nanos(1)));
        for huge in [
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999",
        ] {
            assert_eq!(seconds_of(huge), Some(Duration::new(u64::MAX, 0)), "{huge}");
        }
        assert_eq!(
            seconds_of("18446744073709551615.999999999"),
            Some(Duration::MAX)
        );
        for bad in [
            "-1", "abc", "NaN", "inf", " 1", "1 ", "1e20", "1e300", ".5", "5.", "1.2.3", "+1",
        ] {
            assert_eq!(seconds_of(bad), None, "{bad}");
        }
        assert_eq!(whole("8000000000"), Some(8_000_000_000));
        assert_eq!(whole("99999999999999999999999"), Some(u64::MAX));
        for bad in ["-1", "abc", "1e9", "1.5", " 1", ""] {
            assert_eq!(whole(bad), None, "{bad}");
        }
    }
}
