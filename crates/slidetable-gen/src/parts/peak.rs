//! This process's memory high-water mark, for the per-level figures of a search in parts
//! (`generate --stats FILE`).

/// The peak resident memory of this process so far, in bytes (`VmHWM` of
/// `/proc/self/status`); 0 where the system does not say.
pub fn peak_memory() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
            let kb: u64 = line.split_whitespace().next()?.parse().ok()?;
            Some(kb * 1024)
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_process_has_a_peak() {
        if cfg!(target_os = "linux") {
            assert!(super::peak_memory() > 0);
        }
    }
}
