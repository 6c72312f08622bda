//! Whether the machine has the memory and the disk a table needs, checked before the search
//! starts instead of found out by dying half an hour into it (2×7 needs 16.3 GB of memory and
//! a 10.9 GB file).
//!
//! What is available comes from the system (`MemAvailable` in `/proc/meminfo`, the free space
//! of the table's filesystem), unless [`MEMORY_ENV`] or [`DISK_ENV`] gives a number of bytes
//! instead: a lower limit for a shared machine, and the way the refusal is tested.

use std::path::Path;

use slidetable_core::Board;
use slidetable_format::Encoding;

use crate::plan::Plan;
pub use crate::scale::{human, machines_hint, parts_hint, parts_needs, processes_for, PartsNeeds};
use crate::{check_plan, GenError};

pub use crate::environment::{DISK_ENV, MEMORY_ENV};

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
/// ([`crate::scale::checkpoint_bytes`], the entries of every section); `allocated` bytes of
/// an interrupted run's checkpoint are already there, and count as available.
pub fn check_room_resuming(plan: &Plan, dir: &Path, allocated: u64) -> Result<Needs, GenError> {
    let mut needs = needs(plan)?;
    let checkpoint = crate::scale::checkpoint_bytes(plan.board, plan.goals.len() as u64);
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
    if let Some((available, origin)) = checked_memory()? {
        if needs.memory > available {
            return refuse("memory", needs.memory, available, origin);
        }
    }
    if let Some((available, origin)) = dir.map(available_disk).transpose()?.flatten() {
        let available = available.saturating_add(allocated);
        if needs.disk > available {
            return refuse("disk space", needs.disk, available, origin);
        }
    }
    Ok(needs)
}

/// The environment variables MPI launchers set to the number of processes of a run on this
/// machine (Open MPI, MPICH/Hydra).
const LOCAL_PROCESSES_ENV: [&str; 2] = ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"];

/// Refuses part `part` of a `board` search in `parts` parts with `batch` with
/// [`GenError::NoRoomForParts`] when the memory available to it ([`available_memory`],
/// shared by the `here` processes of the run on this machine: MPI's count of the processes
/// that share this one's memory, or the launcher's when that is 1)
/// is less than [`parts_needs`] with a quarter more ([`crate::scale::with_margin`]): better
/// at the start than killed for memory an hour in.
pub fn check_parts_room(
    board: Board,
    part: u32,
    parts: u32,
    batch: usize,
    here: u32,
) -> Result<PartsNeeds, GenError> {
    let needs = parts_needs(board, parts, batch);
    let Some((available, origin)) = process_memory(here)? else {
        return Ok(needs);
    };
    if crate::scale::with_margin(needs.total()) > available {
        return Err(GenError::NoRoomForParts {
            board,
            part,
            parts,
            batch,
            needs,
            available,
            origin,
            takes: processes_for(
                board,
                available.saturating_mul(u64::from(here.max(1))),
                batch,
            ),
        });
    }
    Ok(needs)
}

/// The memory available to this process ([`checked_memory`]), shared by the `here`
/// processes of an MPI run on this machine (MPI's shared-memory split of the run,
/// the parts' `Exchange::on_this_machine`), or when that is 1 by as many as the
/// launcher says; with where the figure comes from.
pub(crate) fn process_memory(here: u32) -> Result<Option<(u64, String)>, GenError> {
    let Some((available, origin)) = checked_memory()? else {
        return Ok(None);
    };
    let here = Some(u64::from(here))
        .filter(|&n| n > 1)
        .or_else(|| {
            LOCAL_PROCESSES_ENV
                .iter()
                .find_map(|name| std::env::var(name).ok()?.trim().parse::<u64>().ok())
        })
        .filter(|&n| n > 1);
    Ok(Some(match here {
        Some(n) => (
            available / n,
            format!("{origin}, shared by {n} processes on this machine"),
        ),
        None => (available, origin),
    }))
}

/// A byte count from the environment variable `name`, if set (refused if not a number).
fn from_env(name: &'static str) -> Result<Option<(u64, String)>, GenError> {
    Ok(crate::environment::bytes(name)?.map(|n| (n, format!("${name}"))))
}

/// The memory available: [`MEMORY_ENV`], else the smaller of `MemAvailable` and the
/// process's address-space limit (`ulimit -v`, where an allocation past it aborts the
/// process however much memory is free); `None` where none says. With where the figure comes
/// from, for a message. A [`MEMORY_ENV`] that is not a number of bytes says nothing here;
/// every check of this module refuses it ([`checked_memory`]).
pub fn available_memory() -> Option<(u64, String)> {
    checked_memory().ok().flatten()
}

/// [`available_memory`], or [`GenError::Environment`] when [`MEMORY_ENV`] is not a number
/// of bytes.
pub fn checked_memory() -> Result<Option<(u64, String)>, GenError> {
    if let Some(set) = from_env(MEMORY_ENV)? {
        return Ok(Some(set));
    }
    let free = mem_available();
    let limit = rustix::process::getrlimit(rustix::process::Resource::As)
        .current
        .map(|bytes| (bytes, "the address-space limit (ulimit -v)".to_string()));
    Ok(match (free, limit) {
        (Some(free), Some(limit)) => Some(if limit.0 < free.0 { limit } else { free }),
        (free, limit) => free.or(limit),
    })
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn mem_available() -> Option<(u64, String)> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kb * 1024, "MemAvailable in /proc/meminfo".to_string()))
}

/// The disk space available in `dir`: [`DISK_ENV`], else the filesystem's free space for
/// unprivileged users; `None` where neither says, as a filesystem without blocks (`/proc`,
/// `/sys`) does not: writing there fails with its own, truer error.
/// A [`DISK_ENV`] that is not a number of bytes is refused ([`GenError::Environment`]).
pub(crate) fn available_disk(dir: &Path) -> Result<Option<(u64, String)>, GenError> {
    if let Some(set) = from_env(DISK_ENV)? {
        return Ok(Some(set));
    }
    let Ok(stat) = rustix::fs::statvfs(dir) else {
        return Ok(None);
    };
    if stat.f_blocks == 0 {
        return Ok(None);
    }
    Ok(Some((
        stat.f_bavail.saturating_mul(stat.f_frsize),
        format!("free space in {}", dir.display()),
    )))
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
        assert_eq!(available_disk(Path::new("/proc")).unwrap(), None);
        let here = available_disk(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
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
