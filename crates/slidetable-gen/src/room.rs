//! Whether the machine has the memory and the disk a table needs, checked before the search
//! starts instead of found out by dying half an hour into it (2×7 needs 16.3 GB of memory and
//! a 10.9 GB file).
//!
//! What is available comes from the system (`MemAvailable` in `/proc/meminfo`, the free space
//! of the table's filesystem), unless [`MEMORY_ENV`] or [`DISK_ENV`] gives a number of bytes
//! instead: a lower limit for a shared machine, and the way the refusal is tested.

use std::path::Path;

use slidetable_core::{Board, PlacementRanker};
use slidetable_format::{pattern_payload_len, Encoding};

use crate::plan::Plan;
use crate::{check_plan, GenError, Partition};

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

/// What one process of the search in parts needs at its peak, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartsNeeds {
    /// Its slice's 2-bit entries.
    pub entries: u64,
    /// Its slice's frontier bitmap (top-down levels).
    pub frontier: u64,
    /// The program and the round's buffers resident at the peak ([`crate::scale`]).
    pub buffers: u64,
}

impl PartsNeeds {
    /// The whole.
    pub fn total(&self) -> u64 {
        self.entries
            .saturating_add(self.frontier)
            .saturating_add(self.buffers)
    }
}

/// What the process that needs most of a `board` search in `parts` parts with `batch`
/// needs at its peak (the estimate of [`crate::scale`], which `generate --plan` prints).
pub fn parts_needs(board: Board, parts: u32, batch: usize) -> PartsNeeds {
    crate::scale::ScalePlan::new(board, parts, batch)
        .largest()
        .needs
}

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

/// The fewest processes of a `board` search in parts with `batch` whose every process fits
/// `memory` bytes with the check's margin: the machines like one with `memory` that the
/// search takes at one process a machine. `None` if no number up to 2²⁰ does.
pub fn processes_for(board: Board, memory: u64, batch: usize) -> Option<u32> {
    let fits = |n: u32| crate::scale::with_margin(parts_needs(board, n, batch).total()) <= memory;
    // A process's needs fall as the processes grow (its slice shrinks): double, then halve.
    let mut high = 1u32;
    while !fits(high) {
        if high >= 1 << 20 {
            return None;
        }
        high *= 2;
    }
    let mut low = high / 2;
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if fits(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(if low >= 1 && fits(low) { low } else { high })
}

/// The memory available to this process ([`checked_memory`]), shared by the `here`
/// processes of an MPI run on this machine (MPI's shared-memory split of the run,
/// [`crate::parts::Exchange::on_this_machine`]), or when that is 1 by as many as the
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

/// What building the pattern databases of `partition` on `board` needs, in bytes. The groups
/// are searched one after another (`solve_partition`), each in its placements' blank masks
/// (2 bytes a placement), two level bitmaps and its entries (4 bits a placement), while the
/// entries of the groups before it stay in memory: the memory is the largest such sum, the
/// disk the entries of every group.
pub fn pattern_needs(board: Board, partition: &Partition) -> Needs {
    let mut kept = 0u64;
    let mut peak = 0u64;
    for &group in partition.groups() {
        let placements = PlacementRanker::new(board.cells(), group.count_ones() as usize)
            .map_or(u64::MAX, |r| u64::from(r.count()));
        let entries = pattern_payload_len(placements);
        let bitmap = placements.div_ceil(64).saturating_mul(8);
        let search = placements
            .saturating_mul(2)
            .saturating_add(bitmap.saturating_mul(2))
            .saturating_add(entries);
        peak = peak.max(kept.saturating_add(search));
        kept = kept.saturating_add(entries);
    }
    Needs {
        memory: peak,
        disk: kept,
    }
}

/// Refuses to build `partition`'s pattern databases for `board` with
/// [`GenError::NoRoomForPatterns`] when the machine has less memory than they need, or `dir`
/// (where the file is written; `None` when they stay in memory) less disk space.
pub fn check_pattern_room(
    board: Board,
    partition: &Partition,
    dir: Option<&Path>,
) -> Result<Needs, GenError> {
    let needs = pattern_needs(board, partition);
    let refuse = |what: &'static str, need: u64, (available, origin): (u64, String)| {
        Err(GenError::NoRoomForPatterns {
            board,
            partition: partition.sizes(),
            what,
            need,
            available,
            origin,
        })
    };
    if let Some(available) = checked_memory()? {
        if needs.memory > available.0 {
            return refuse("memory", needs.memory, available);
        }
    }
    if let Some(available) = dir.map(available_disk).transpose()?.flatten() {
        if needs.disk > available.0 {
            return refuse("disk space", needs.disk, available);
        }
    }
    Ok(needs)
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

/// What a refusal of the search in parts adds ([`GenError::NoRoomForParts`]): how many
/// machines like this one it takes ([`processes_for`]).
pub fn machines_hint(takes: Option<u32>) -> String {
    match takes {
        Some(n) => format!(
            " (at least {n} {} with this machine's memory, one process each)",
            if n == 1 { "machine" } else { "machines" }
        ),
        None => String::new(),
    }
}

/// What a refusal of a one-process table for memory adds ([`GenError::NoRoom`]): how many
/// machines with `available` bytes the search in parts takes, one process each.
pub fn parts_hint(board: Board, what: &str, available: u64) -> String {
    if what != "memory" || board.cells() <= 10 {
        return String::new();
    }
    // On 4x4 the table of every state is asked for by name (its default is the pattern
    // database).
    let states = if board == Board::FIFTEEN {
        " --states"
    } else {
        ""
    };
    match processes_for(board, available, crate::parts::DEFAULT_BATCH) {
        Some(n) if n > 1 => format!(
            "; in parts (`mpirun -np {n} slidetable generate --board {board}{states} --parts DIR`) it \
             takes at least {n} machines with this much memory, one process each \
             (`generate --plan --board {board} --processes {n}` gives the figures)"
        ),
        _ => String::new(),
    }
}

/// `bytes` for a message: "16.3 GB", "2.6 TB".
pub fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000_000 => format!("{:.1} TB", b as f64 / 1e12),
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
    fn a_partition_needs_its_largest_search_and_every_entry() {
        let board = Board::new(4, 4).unwrap();
        let goal = board.goal_with_blank(0);
        let needs = |text| pattern_needs(board, &Partition::parse(text, &goal).unwrap());
        // 7-8: 57,657,600 placements of 7 tiles (28.8 MB of entries) kept while the 8 tiles'
        // 518,918,400 placements are searched: 1.04 GB of masks, 2 x 64.9 MB of level bits and
        // 259.5 MB of entries.
        let n7 = 57_657_600u64;
        let n8 = 518_918_400u64;
        assert_eq!(
            needs("7-8"),
            Needs {
                memory: n7 / 2 + 2 * n8 + 2 * (n8 / 8) + n8 / 2,
                disk: n7 / 2 + n8 / 2,
            }
        );
        assert_eq!(human(needs("7-8").memory), "1.5 GB");
        // 9-6: the 9 tiles' 4,151,347,200 placements, searched first: 8.3 GB of masks alone.
        let n9 = 4_151_347_200u64;
        assert_eq!(needs("9-6").memory, 2 * n9 + 2 * (n9 / 8) + n9 / 2);
        assert_eq!(human(needs("9-6").memory), "11.4 GB");
        // Five tiles: 524,160 placements each; the third search keeps the first two's entries.
        let n5 = 524_160u64;
        assert_eq!(
            needs("5-5-5").memory,
            2 * (n5 / 2) + 2 * n5 + 2 * (n5 / 8) + n5 / 2
        );
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
