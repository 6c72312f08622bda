//! Whether the machine has the memory and the disk a table needs, checked before the search
//! starts instead of found out by dying half an hour into it (2×7 needs 16.3 GB of memory and
//! a 10.9 GB file).
//!
//! What is available comes from the system (`MemAvailable` in `/proc/meminfo`, the free space
//! of the table's filesystem), unless [`MEMORY_ENV`] or [`DISK_ENV`] gives a number of bytes
//! instead: a lower limit for a shared machine, and the way the refusal is tested.

use std::path::Path;

use slidetable_format::Encoding;

use crate::plan::Plan;
use crate::{check_plan, GenError};

/// Environment variable: the bytes of memory a search may count on (instead of the
/// system's `MemAvailable`).
pub const MEMORY_ENV: &str = "SLIDETABLE_AVAILABLE_MEMORY";

/// Environment variable: the bytes of disk space a table may count on (instead of the free
/// space of its directory's filesystem).
pub const DISK_ENV: &str = "SLIDETABLE_AVAILABLE_DISK";

/// What a plan needs, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// Memory at the search's peak: the finished sections' entries plus the one being
    /// searched with its bitmaps.
    pub memory: u64,
    /// The table file's payload (its header is a few kilobytes more).
    pub disk: u64,
}

/// What `plan` needs (see [`Needs`]).
pub fn needs(plan: &Plan) -> Result<Needs, GenError> {
    let encoding = check_plan(plan.board, plan.encoding, plan.cost)?;
    let states = plan.board.reachable_states();
    let payload = encoding.payload_len(states).unwrap_or(u64::MAX);
    let sections = plan.goals.len() as u64;
    let bitmap = states.div_ceil(8);
    let search = match encoding {
        // The entries themselves, plus the frontier bitmap.
        Encoding::TwoBit => bitmap,
        // The scan search's three bitmaps, or the queue search's queues (about one word a
        // state of the two largest levels: bounded by the entries again).
        Encoding::Byte if plan.board.cells() > 10 => 3 * bitmap,
        _ => payload,
    };
    Ok(Needs {
        memory: payload.saturating_mul(sections).saturating_add(search),
        disk: payload.saturating_mul(sections),
    })
}

/// Refuses `plan` with [`GenError::NoRoom`] when the machine has less memory than it needs,
/// or `dir` (where the table is written; `None` for a stream) less disk space.
pub fn check_room(plan: &Plan, dir: Option<&Path>) -> Result<Needs, GenError> {
    check(plan, needs(plan)?, dir, 0)
}

/// [`check_room`] for a search that keeps checkpoints (`resume.rs`): beside the table, or
/// beside the checkpoint before it, a checkpoint takes as much again
/// ([`crate::resume::checkpoint_bytes`], the entries of every section); `allocated` bytes of
/// an interrupted run's checkpoint are already there, and count as available.
pub fn check_room_resuming(plan: &Plan, dir: &Path, allocated: u64) -> Result<Needs, GenError> {
    let mut needs = needs(plan)?;
    let checkpoint = crate::resume::checkpoint_bytes(plan);
    needs.disk = needs.disk.max(checkpoint).saturating_add(checkpoint);
    check(plan, needs, Some(dir), allocated)
}

fn check(plan: &Plan, needs: Needs, dir: Option<&Path>, allocated: u64) -> Result<Needs, GenError> {
    let refuse = |what: &'static str, need: u64, available: u64, origin: String| {
        Err(GenError::NoRoom {
            board: plan.board,
            what,
            need,
            available,
            origin,
        })
    };
    if let Some((available, origin)) = available_memory() {
        if needs.memory > available {
            return refuse("memory", needs.memory, available, origin);
        }
    }
    if let Some((available, origin)) = dir.and_then(available_disk) {
        let available = available.saturating_add(allocated);
        if needs.disk > available {
            return refuse("disk space", needs.disk, available, origin);
        }
    }
    Ok(needs)
}

/// A byte count from the environment variable `name`, if set and a number.
fn from_env(name: &str) -> Option<(u64, String)> {
    let text = std::env::var(name).ok()?;
    text.trim().parse().ok().map(|n| (n, format!("${name}")))
}

/// The memory available: [`MEMORY_ENV`], else `MemAvailable`; `None` where neither says.
/// With where the figure comes from, for a message.
pub fn available_memory() -> Option<(u64, String)> {
    from_env(MEMORY_ENV).or_else(|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some((kb * 1024, "MemAvailable in /proc/meminfo".to_string()))
    })
}

/// The disk space available in `dir`: [`DISK_ENV`], else the filesystem's free space for
/// unprivileged users; `None` where neither says, as a filesystem without blocks (`/proc`,
/// `/sys`) does not: writing there fails with its own, truer error.
fn available_disk(dir: &Path) -> Option<(u64, String)> {
    from_env(DISK_ENV).or_else(|| {
        let stat = rustix::fs::statvfs(dir).ok()?;
        if stat.f_blocks == 0 {
            return None;
        }
        Some((
            stat.f_bavail.saturating_mul(stat.f_frsize),
            format!("free space in {}", dir.display()),
        ))
    })
}

/// `bytes` for a message: "16.3 GB".
pub fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::Board;

    #[test]
    fn two_by_seven_needs_its_entries_and_one_bit_a_state() {
        let plan = Plan::default_for(Board::new(2, 7).unwrap());
        let n = needs(&plan).unwrap();
        assert_eq!(n.disk, 10_897_286_400);
        assert_eq!(n.memory, 10_897_286_400 + 5_448_643_200);
        let plan = Plan::default_for(Board::new(3, 4).unwrap());
        assert_eq!(needs(&plan).unwrap().memory, 59_875_200 + 29_937_600);
    }

    #[test]
    fn a_filesystem_without_blocks_says_nothing_about_space() {
        if std::env::var_os(DISK_ENV).is_some() {
            return;
        }
        assert_eq!(available_disk(Path::new("/proc")), None);
        let here = available_disk(Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(
            here.as_ref().is_some_and(|(bytes, _)| *bytes > 0),
            "{here:?}"
        );
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(16_345_929_600), "16.3 GB");
        assert_eq!(human(89_812_800), "89.8 MB");
        assert_eq!(human(512), "512 bytes");
    }
}
