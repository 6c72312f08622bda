//! Counts in words, as every message and report writes them.

/// `n` and `noun`, plural unless `n` is 1: `1 state`, `2 states`, `0 moves`. The one place
/// a count is put into words (regular nouns: an `s` added).
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "state"), "1 state");
        assert_eq!(counted(0, "state"), "0 states");
        assert_eq!(counted(2, "move"), "2 moves");
        assert_eq!(counted(u64::MAX, "line"), format!("{} lines", u64::MAX));
    }
}
