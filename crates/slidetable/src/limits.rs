//! The bounds every front end gives a search it was not told how to bound: the command line's
//! `search` and Python's `search` take the same memory bound from here.

/// What a search may hold when `--max-memory` is not given: half the machine's memory, or a
/// quarter of the process's address-space limit (`ulimit -v`) if that is less (a hash table
/// that doubles holds its old and new arrays at once). 4 GiB where neither can be read.
pub fn default_max_memory() -> u64 {
    let total = meminfo_total().map(|t| t / 2);
    let limit = address_space_limit().map(|l| l / 4);
    match (total, limit) {
        (Some(t), Some(l)) => t.min(l),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => 4 << 30,
    }
}

/// MemTotal from /proc/meminfo, in bytes.
fn meminfo_total() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    kb.checked_mul(1024)
}

/// The soft limit on the address space (`ulimit -v`), in bytes, if there is one.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let rest = text
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))?;
    rest.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_bound_is_some_memory() {
        assert!(default_max_memory() >= 1 << 20);
    }
}
