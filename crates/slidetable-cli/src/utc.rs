//! Times as the messages show them: `2026-11-25 15:02:11 UTC` (when a run's checkpoint was
//! written, in the signal handler's message and in the resumed run's).

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` as `2026-11-25 15:02:11 UTC`.
pub(crate) fn format_utc(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn times_are_shown_in_utc() {
        let at = |s| UNIX_EPOCH + Duration::from_secs(s);
        assert_eq!(format_utc(at(0)), "1970-01-01 00:00:00 UTC");
        assert_eq!(format_utc(at(951_782_400)), "2000-02-29 00:00:00 UTC");
        assert_eq!(format_utc(at(1_795_000_000)), "2026-11-18 11:06:40 UTC");
    }
}
