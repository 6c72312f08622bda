//! What a search of every state in parts costs, before it runs: memory a process, disk,
//! network and time (`generate --plan`), from one model that the memory check of the search
//! in parts uses too (room.rs's `check_parts_room`).
//!
//! The model counts, for each process's slice, its **crossings**: the moves of the blank
//! from a state of the slice to a neighbour in another slice. A move changes the blank's
//! cell, and the ranks are blocked by the blank's cell (`Scan`'s order), so the crossings
//! follow from the slices' bounds and the board's cells alone, exactly, without a search.
//!
//! - **Memory a process**: its slice's 2-bit entries and frontier bitmap, the program
//!   ([`PROGRAM_BYTES`]), and the exchange buffers of a full window ([`round_bound`] ÷ the
//!   blank's most moves states), [`BUFFER_BYTES_PER_CROSSING`] a crossing of those states.
//!   The buffers are reserved at 48 bytes a neighbour of `--batch` but only what a round
//!   fills is resident: fitted to the peaks BENCHMARKS.md measured on 3×4 (1–4 processes,
//!   "The states within D moves in parts, and peak memory a process"), within 13% of each.
//! - **Network**: [`WIRE_BYTES_PER_CROSSING`] a crossing over the whole search (the
//!   offsets go as LEB128 deltas, about one byte each): 3×4 on 3 and 4 processes sent
//!   1.00 byte a crossing, on 2 processes 0.80, 2×7 on 2 processes 1.02 (BENCHMARKS.md).
//! - **Disk**: a process's part is its slice's entries; it keeps up to two checkpoints of
//!   them (`part-K-of-N.checkpoint` and `.next`) until its part is written; `merge` writes
//!   the whole payload once more.
//! - **Time**: the states ÷ the processes ÷ [`STATES_PER_SECOND`], plus the exchange at the
//!   network's rate.

use slidetable_core::Board;
use slidetable_format::{Encoding, Slices};

/// Bytes a process of the search in parts takes besides its slice and its buffers: the
/// program, its threads and the MPI library. Measured: the one-process run of 3×4 in parts
/// peaked at 110.9 MB, 21.1 MB over its 89.8 MB of entries and frontier (BENCHMARKS.md).
pub const PROGRAM_BYTES: u64 = 21_000_000;

/// Resident bytes of exchange buffers a crossing of a full window's states takes at a
/// process's peak (the least-squares fit of the 3×4 peaks on 2–4 processes, 10.07).
pub const BUFFER_BYTES_PER_CROSSING: u64 = 10;

/// Bytes sent over the whole search a crossing (see the module's documentation).
pub const WIRE_BYTES_PER_CROSSING: u64 = 1;

/// States one process settles a second, with every core of its machine: 2×7's
/// 43,589,145,600 states in 19 min 03 s on one idle 2-core Xeon (BENCHMARKS.md's headline
/// table, `generate --board 2x7`). The same states in 2 processes on that one machine took
/// 1.14× as long as one (the same table): processes on one machine share its cores.
pub const STATES_PER_SECOND: u64 = 38_100_000;

/// How much more than its estimate the memory check asks of a process before it starts:
/// a quarter (the model's largest error on 3×4 was 13%, on 2×7 18%).
pub fn with_margin(bytes: u64) -> u64 {
    bytes.saturating_add(bytes / 4)
}

/// The most moves of the blank from one cell (3 on two rows, 4 from a middle cell).
pub(crate) fn moves(board: Board) -> u64 {
    (board.rows().min(3) - 1 + board.cols().min(3) - 1) as u64
}

/// The cells a move of the blank from `cell` reaches.
fn neighbours(board: Board, cell: usize) -> impl Iterator<Item = usize> {
    let (rows, cols) = (board.rows(), board.cols());
    let (r, c) = (cell / cols, cell % cols);
    [
        (r > 0).then(|| cell - cols),
        (r + 1 < rows).then(|| cell + cols),
        (c > 0).then(|| cell - 1),
        (c + 1 < cols).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// The crossings of part `k` of `slices`: moves from a state of its slice to a neighbour in
/// another slice, counted over every state of the slice (the neighbours of a block of the
/// blank's cell spread evenly over the block of the cell it moves to).
pub fn crossings(board: Board, slices: &Slices, k: u32) -> u64 {
    let cells = board.cells() as u64;
    let block = u128::from(board.reachable_states() / cells);
    let mine = slices.part(k);
    let inside = |cell: usize| {
        let (lo, hi) = (cell as u64 * block as u64, (cell as u64 + 1) * block as u64);
        u128::from(hi.min(mine.end).saturating_sub(lo.max(mine.start)))
    };
    let total: u128 = (0..board.cells())
        .map(|c| {
            let here = inside(c);
            neighbours(board, c)
                .map(|d| here * (block - inside(d)) / block)
                .sum::<u128>()
        })
        .sum();
    u64::try_from(total).unwrap_or(u64::MAX)
}

/// One process's share of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartPlan {
    /// Its slice's states.
    pub states: u64,
    /// Its slice's crossings ([`crossings`]).
    pub crossings: u64,
    /// Its memory at its peak (the program and the buffers in `buffers`).
    pub needs: PartsNeeds,
}

/// Part `k`'s memory of a `board` search in `slices` with `batch` (see the module's
/// documentation).
pub fn part_plan(board: Board, slices: &Slices, k: u32, batch: usize) -> PartPlan {
    let ranks = slices.part(k);
    let states = ranks.end - ranks.start;
    let crossings = crossings(board, slices, k);
    let window = round_bound(board, batch) as u64 / moves(board);
    let buffers = match states {
        0 => 0,
        _ => {
            u128::from(window) * u128::from(crossings) * u128::from(BUFFER_BYTES_PER_CROSSING)
                / u128::from(states)
        }
    };
    PartPlan {
        states,
        crossings,
        needs: PartsNeeds {
            entries: (entry_words(states) as u64).saturating_mul(8),
            frontier: (frontier_words(states) as u64).saturating_mul(8),
            buffers: u64::try_from(buffers)
                .unwrap_or(u64::MAX)
                .saturating_add(PROGRAM_BYTES),
        },
    }
}

/// A search of every state of a board in parts, as planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScalePlan {
    /// The board.
    pub board: Board,
    /// `--batch`.
    pub batch: usize,
    /// Each process's share, in part order.
    pub parts: Vec<PartPlan>,
    /// The merged file's payload (2-bit entries of every state).
    pub payload: u64,
}

impl ScalePlan {
    /// The plan of `board`'s search in `processes` parts with `batch`.
    pub fn new(board: Board, processes: u32, batch: usize) -> ScalePlan {
        let processes = processes.max(1);
        let states = board.reachable_states();
        let slices = Slices::new(states, processes);
        ScalePlan {
            board,
            batch,
            parts: (0..processes)
                .map(|k| part_plan(board, &slices, k, batch))
                .collect(),
            payload: Encoding::TwoBit.payload_len(states).unwrap_or(u64::MAX),
        }
    }

    /// The memory of the process that needs most (the estimate).
    pub fn memory(&self) -> u64 {
        self.largest().needs.total()
    }

    /// The share of the process that needs most memory.
    pub fn largest(&self) -> &PartPlan {
        self.parts
            .iter()
            .max_by_key(|p| p.needs.total())
            .expect("a plan has a part")
    }

    /// The memory below which the check refuses to start ([`with_margin`] of [`Self::memory`]).
    pub fn refused_below(&self) -> u64 {
        with_margin(self.memory())
    }

    /// A process's disk at most: two checkpoints of its slice's entries, and its part.
    pub fn disk_per_process(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| 3 * p.states.div_ceil(4))
            .max()
            .unwrap_or(0)
    }

    /// Every part's checkpoints together: what one checkpoint round writes is half of it.
    pub fn checkpoints(&self) -> u64 {
        2 * self.payload
    }

    /// Bytes sent over the whole search, by every process together.
    pub fn network(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| p.crossings)
            .sum::<u64>()
            .saturating_mul(WIRE_BYTES_PER_CROSSING)
    }

    /// Bytes sent by the process that sends most.
    pub fn network_per_process(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| p.crossings)
            .max()
            .unwrap_or(0)
            .saturating_mul(WIRE_BYTES_PER_CROSSING)
    }

    /// Seconds of searching, each process at [`STATES_PER_SECOND`] on its own machine (the
    /// exchange not counted).
    pub fn search_seconds(&self) -> f64 {
        self.board.reachable_states() as f64 / self.parts.len() as f64 / STATES_PER_SECOND as f64
    }
}

/// The published counts of the states at each distance from a goal of `board` with the blank
/// in cell `blank` (the counts depend on the blank's cell alone: renaming tiles maps one goal's
/// search onto another's): OEIS A089484, A090164, A090165 (4×4) and A346737 (3×5, 5×3), from
/// complete searches (crates/slidetable-gen/tests/data/published-levels.txt, which the tests
/// check the search against). `None` for another board.
pub fn published_levels(board: Board, blank: usize) -> Option<Vec<u64>> {
    include_str!("../tests/data/published-levels.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|line| {
            let (head, counts) = line.split_once(':')?;
            let mut head = head.split_whitespace();
            let (_, b, blanks) = (head.next()?, head.next()?, head.next()?);
            let holds = b.parse::<Board>().ok()? == board
                && blanks.split(',').any(|c| c.parse() == Ok(blank));
            holds.then(|| {
                counts
                    .split_whitespace()
                    .filter_map(|c| c.parse().ok())
                    .collect()
            })
        })
}

/// Bytes a state within D moves takes encoded (§13.3's gaps and index): measured 1.59–1.88 on
/// 4×4 within 18–24 moves, 1.70 on 3×5 within 24 (BENCHMARKS.md): the larger the level, the
/// smaller the gaps.
pub const WITHIN_BYTES_PER_STATE: f64 = 1.7;

/// Bytes a process of the search within D moves holds besides its levels: the program and its
/// threads (the model's remainder against the measured peaks, docs/SCALE.md).
pub const WITHIN_PROGRAM_BYTES: u64 = 6_000_000;

/// CPU time a state of the search within D moves costs (expanding, sorting, encoding): 4×4
/// within 24 moves, 42,928,799 states, 5.2 s of CPU (BENCHMARKS.md, 2026-11-28).
pub const WITHIN_CPU_SECONDS_PER_STATE: f64 = 121e-9;

/// Bytes sent a state of the search within D moves in parts, on 2 processes: 0.49 measured
/// (4×4 within 22 moves, docs/SCALE.md); on `N` processes taken as `(N − 1)/N` of twice that
/// (a neighbour leaves its process's slice more often as the slices shrink: derived, not
/// measured past 2).
pub const WITHIN_WIRE_BYTES_PER_STATE: f64 = 0.98;

/// What a search within `D` moves costs, from the states at each distance.
#[derive(Clone, Debug)]
pub struct WithinPlan {
    /// The states at each distance from 0 to `D`.
    pub histogram: Vec<u64>,
    /// The processes.
    pub processes: u32,
    /// Memory a process at its peak, and the level it peaks at (the last, usually).
    pub memory: u64,
    /// The level of the peak.
    pub peak_level: u32,
    /// The file's bytes (and the parts' together; `merge` writes it once more).
    pub file: u64,
    /// The checkpoints' bytes at most, every process's together (with several processes,
    /// each keeps two while it puts a new one in place).
    pub checkpoints: u64,
    /// Bytes sent over the whole search, every process's together.
    pub network: u64,
    /// CPU seconds, every process's together.
    pub cpu_seconds: f64,
}

/// What the search of the states within `max_depth` moves of a goal of `board` with the blank
/// in cell `blank` costs on `processes` processes: the memory check's model (§13.5,
/// `bounded::level_need`) level by level, with the published counts as the levels' sizes and
/// each state's neighbours the blank's mean moves. Refused (the reason) where no published
/// counts reach `max_depth`.
pub fn within_plan(
    board: Board,
    blank: usize,
    max_depth: u32,
    processes: u32,
) -> Result<WithinPlan, String> {
    let counts = published_levels(board, blank).ok_or_else(|| {
        format!(
            "no published counts of {board}'s levels to plan from (4x4, 3x5 and 5x3 have them); \
             the search checks its memory before each level as it goes"
        )
    })?;
    if counts.len() <= max_depth as usize {
        return Err(format!(
            "the published counts of {board}'s levels (blank in cell {blank}) reach {} moves, \
             not {max_depth}",
            counts.len() - 1
        ));
    }
    let histogram = counts[..=max_depth as usize].to_vec();
    let n = u64::from(processes.max(1));
    let degree = mean_moves(board);
    let encoded = |states: u64| (states as f64 * WITHIN_BYTES_PER_STATE) as u64;
    let (mut memory, mut peak_level) = (0, 0);
    for d in 1..=max_depth as usize {
        let before = if d >= 2 { histogram[d - 2] } else { 0 };
        let held = Held {
            levels: (histogram[d - 1] + before) as usize,
            encoded: encoded(histogram[..d].iter().sum()),
        };
        let neighbours = (histogram[d - 1] as f64 * degree) as u64;
        let need = level_need(held.bytes(), neighbours);
        if need > memory {
            (memory, peak_level) = (need, d as u32);
        }
    }
    let states: u64 = histogram.iter().sum();
    let below_last: u64 = states - histogram[max_depth as usize];
    let copies = if processes > 1 { 2 } else { 1 };
    Ok(WithinPlan {
        processes,
        memory: memory / n + WITHIN_PROGRAM_BYTES,
        peak_level,
        file: encoded(states),
        checkpoints: copies * encoded(below_last),
        network: (states as f64 * WITHIN_WIRE_BYTES_PER_STATE * (n - 1) as f64 / n as f64) as u64,
        cpu_seconds: states as f64 * WITHIN_CPU_SECONDS_PER_STATE,
        histogram,
    })
}

/// The blank's mean number of moves over the board's cells (3 on 4×4, 44/15 on 3×5).
fn mean_moves(board: Board) -> f64 {
    let (r, c) = (board.rows() as f64, board.cols() as f64);
    // Each of the (r − 1)·c vertical and r·(c − 1) horizontal adjacencies is two moves.
    2.0 * ((r - 1.0) * c + r * (c - 1.0)) / (r * c)
}

/// Neighbours a window of the slice hands to other processes before a round, at most, by
/// default: 8 Mi (0.4 GB of buffers reserved, far less resident: `scale`): fewer, larger
/// rounds in the middle levels, measured faster than 1 Mi on 3×4 (docs/SCALE.md, round 4).
pub const DEFAULT_BATCH: usize = 1 << 23;

/// The most neighbours a state of `board` hands to other slices in a pass: one a move, of
/// the blank's moves at most (3 on two rows, 4 from a middle cell).
/// The most neighbours one round of a process hands to other processes with `batch`
/// (the parts plan's `batch`) on `board`: a window holds at least one frontier word, 64 states.
pub fn round_bound(board: Board, batch: usize) -> usize {
    batch.max(64 * moves(board) as usize)
}

/// The words 2-bit entries of `states` ranks take (whole 64-rank pairs of words, as a
/// frontier chunk covers).
pub(crate) fn entry_words(states: u64) -> usize {
    states.div_ceil(64) as usize * 2
}

/// The words a frontier bitmap of `states` ranks takes.
pub(crate) fn frontier_words(states: u64) -> usize {
    states.div_ceil(64) as usize
}

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
    ScalePlan::new(board, parts, batch).largest().needs
}

/// The fewest processes of a `board` search in parts with `batch` whose every process fits
/// `memory` bytes with the check's margin: the machines like one with `memory` that the
/// search takes at one process a machine. `None` if no number up to 2²⁰ does.
pub fn processes_for(board: Board, memory: u64, batch: usize) -> Option<u32> {
    let fits = |n: u32| with_margin(parts_needs(board, n, batch).total()) <= memory;
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

/// What a refusal of the search in parts adds (`GenError::NoRoomForParts`): how many
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

/// What a refusal of a one-process table for memory adds (`GenError::NoRoom`): how many
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
    match processes_for(board, available, DEFAULT_BATCH) {
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

/// What a search within `D` moves holds between levels: the frontier and the level before
/// (8 bytes a state) and the levels made, encoded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    /// States of the frontier and the level before.
    pub(crate) levels: usize,
    /// Bytes of the encoded levels.
    pub(crate) encoded: u64,
}

impl Held {
    /// The bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        8 * self.levels as u64 + self.encoded
    }
}

/// The memory model of a level (docs/FORMAT.md §13.5): what is held (`held` bytes) and the
/// level's neighbours at 8 bytes each. The memory check before each level and `generate
/// --plan --max-depth D` (`scale::within_plan`) both use it.
pub(crate) fn level_need(held: u64, neighbours: u64) -> u64 {
    held.saturating_add(neighbours.saturating_mul(8))
}

/// The bytes of the largest checkpoint of a one-machine search of `board` for `sections`
/// goals: the entries of every section but the last in their payload's bytes, the last
/// section's as the search keeps them (2-bit words), and the lines.
pub fn checkpoint_bytes(board: Board, sections: u64) -> u64 {
    let states = board.reachable_states();
    let payload = Encoding::TwoBit.payload_len(states).unwrap_or(u64::MAX);
    payload
        .saturating_mul(sections.saturating_sub(1))
        .saturating_add(entry_words(states) as u64 * 8)
        .saturating_add(CHECKPOINT_LINES)
}

/// The bytes a checkpoint's lines are counted for in [`checkpoint_bytes`] (two 2×7 histograms
/// take 3 KB).
const CHECKPOINT_LINES: u64 = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: usize, cols: usize) -> Board {
        Board::new(rows, cols).unwrap()
    }

    #[test]
    fn crossings_of_three_by_four_follow_the_cells() {
        // Two slices: cells 0-5 and 6-11. Moves out of cells 0-5 into 6-11: 2→6, 3→7,
        // 4→8, 5→9, 5→6 (5 of the 38 moves), each a whole block of 19,958,400 states.
        let b = board(3, 4);
        let block = b.reachable_states() / 12;
        let slices = Slices::new(b.reachable_states(), 2);
        assert_eq!(crossings(b, &slices, 0), 5 * block);
        assert_eq!(crossings(b, &slices, 1), 5 * block);
        assert_eq!(crossings(b, &Slices::new(b.reachable_states(), 1), 0), 0);
    }

    #[test]
    fn the_estimates_are_within_a_quarter_of_the_three_by_four_peaks() {
        // BENCHMARKS.md: each process's VmHWM, 3x4 in parts on 1-4 processes.
        let measured: [&[f64]; 4] = [
            &[110.9],
            &[80.8, 83.6],
            &[72.9, 82.4, 74.2],
            &[75.6, 96.0, 96.5, 71.7],
        ];
        for (n, peaks) in measured.iter().enumerate() {
            let plan = ScalePlan::new(board(3, 4), n as u32 + 1, DEFAULT_BATCH);
            for (part, &peak) in plan.parts.iter().zip(peaks.iter()) {
                let estimate = part.needs.total() as f64 / 1e6;
                assert!(
                    (estimate / peak - 1.0).abs() < 0.25,
                    "{} processes: {estimate} MB for {peak}",
                    n + 1
                );
            }
        }
    }

    #[test]
    fn the_plan_of_three_by_four_on_two_processes() {
        let b = board(3, 4);
        let plan = ScalePlan::new(b, 2, DEFAULT_BATCH);
        let slices = Slices::new(b.reachable_states(), 2);
        let part = plan.parts[0];
        // Slices are whole units of 2^18 ranks: part 0 ends a little past cell 5's block.
        assert_eq!(part.states, 457 << 18);
        assert_eq!(part.crossings, crossings(b, &slices, 0));
        assert_eq!(part.needs.entries, part.states.div_ceil(64) * 16);
        assert_eq!(part.needs.frontier, part.states.div_ceil(64) * 8);
        // A full window: 2^23 / 4 states, 10 bytes a crossing of each.
        assert_eq!(
            part.needs.buffers,
            PROGRAM_BYTES + (1 << 21) * part.crossings * 10 / part.states
        );
        assert_eq!(plan.network(), part.crossings + plan.parts[1].crossings);
        assert_eq!(plan.payload, 59_875_200);
        assert_eq!(plan.refused_below(), with_margin(plan.memory()));
        assert_eq!(plan.disk_per_process(), 3 * part.states.div_ceil(4));
    }

    #[test]
    fn boards_past_one_machine_have_figures() {
        let plan = ScalePlan::new(board(4, 4), 1024, DEFAULT_BATCH);
        assert_eq!(plan.parts.len(), 1024);
        assert_eq!(plan.payload, 10_461_394_944_000 / 4);
        assert!(plan.memory() > 3_800_000_000 && plan.memory() < 4_000_000_000);
    }

    /// The within-D plan's memory against the peaks measured here (BENCHMARKS.md,
    /// 2026-11-28, `/usr/bin/time` maximum resident): within 25% (the fit is within 3%).
    #[test]
    fn the_within_d_plan_is_within_a_quarter_of_the_measured_peaks() {
        for (board, depth, measured) in [
            (board(4, 4), 21, 71_028_000u64),
            (board(4, 4), 22, 129_396_000),
            (board(4, 4), 23, 236_660_000),
            (board(3, 5), 24, 165_744_000),
        ] {
            let plan = super::within_plan(board, board.cells() - 1, depth, 1).unwrap();
            let ratio = plan.memory as f64 / measured as f64;
            assert!(
                (0.75..=1.25).contains(&ratio),
                "{board} within {depth}: {ratio}"
            );
            assert_eq!(plan.peak_level, depth);
        }
        let two = super::within_plan(board(4, 4), 15, 23, 2).unwrap();
        assert!(two.memory < 130_000_000 && two.network > 0);
        assert!(super::within_plan(board(4, 4), 15, 40, 1)
            .unwrap_err()
            .contains("not 40"));
        assert!(super::within_plan(board(2, 8), 15, 10, 1).is_err());
    }
}
