//! `search`'s limits as the command line spells them: a timeout in seconds and a memory bound
//! in bytes (the bound a search gets when none is given is the library's,
//! `slidetable::limits::default_max_memory`).

use std::time::Duration;

/// `--timeout SECONDS`: a finite, non-negative number of seconds; one too large for a
/// `Duration` (`1e20`) is no limit at all, which is what it means in practice.
pub(crate) fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!(
            "'{text}' is not a duration: give a number of seconds, 0 or more"
        ));
    }
    Ok(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
}

/// `--max-memory SIZE`: bytes, or a number with `K`, `M`, `G` or `T` (powers of 1024).
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("'{text}': the unit must be K, M, G or T")),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a size like 512M or 2G"))?;
    if !value.is_finite() || value <= 0.0 {
        return Err(format!("'{text}': a size must be more than 0"));
    }
    let bytes = value * (1u64 << shift) as f64;
    // Beyond u64 is no limit in practice.
    Ok(if bytes >= u64::MAX as f64 {
        u64::MAX
    } else {
        bytes as u64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts() {
        assert_eq!(parse_timeout("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_timeout("0"), Ok(Duration::ZERO));
        assert_eq!(parse_timeout("1e20"), Ok(Duration::MAX));
        assert_eq!(parse_timeout("18446744073709551616"), Ok(Duration::MAX));
        for bad in ["-1", "-0.5", "NaN", "inf", "-inf", "x", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("1.5k"), Ok(1536));
        assert_eq!(parse_size("100000000000T"), Ok(u64::MAX));
        for bad in ["0", "-1G", "2X", "G", "NaN", ""] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
