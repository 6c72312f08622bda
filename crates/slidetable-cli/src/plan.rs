//! `generate --plan`: what the search of every state in parts would take, printed from the
//! model the memory check of that search uses (`slidetable::generate::scale`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use slidetable::core::{counted, Board, MAX_TABLE_CELLS};
use slidetable::generate::room::human;
use slidetable::generate::scale::{
    within_plan, ScalePlan, STATES_PER_SECOND, WITHIN_BYTES_PER_STATE, WITHIN_CPU_SECONDS_PER_STATE,
};

use crate::streams;

/// What `--plan` was asked.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) board: Board,
    pub(crate) processes: u32,
    pub(crate) batch: usize,
    pub(crate) memory_per_machine: Option<u64>,
    pub(crate) disk_per_machine: Option<u64>,
    /// `--max-depth D`: the search within D moves instead of every state.
    pub(crate) max_depth: Option<u32>,
}

/// A network rate to put the exchange's bytes in seconds (1 GB/s, 10 Gbit Ethernet's order).
const NETWORK_BYTES_PER_SECOND: f64 = 1e9;

/// Prints the plan on standard output (a plan within D moves that has no counts to plan
/// from is refused as a usage error).
pub(crate) fn print(request: &Request) -> Result<ExitCode> {
    let text = match request.max_depth {
        Some(max_depth) => within_text(request, max_depth)?,
        None => text(request),
    };
    let mut out = streams::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The plan's text.
pub(crate) fn text(request: &Request) -> String {
    let board = request.board;
    let plan = ScalePlan::new(board, request.processes, request.batch);
    let count = plan.parts.len() as u64;
    let (k, most) = plan
        .parts
        .iter()
        .enumerate()
        .max_by_key(|(_, p)| p.needs.total())
        .expect("a plan has a part");
    let mut lines = vec![format!(
        "{board}, every state ({}) in {}, --batch {}",
        counted(board.reachable_states(), "state"),
        processes(count),
        request.batch
    )];
    lines.push(format!(
        "memory a process: {} (part {k}: slice entries {}, frontier {}, program and exchange \
         buffers {}); the memory check refuses a process with less than {}",
        human(plan.memory()),
        human(most.needs.entries),
        human(most.needs.frontier),
        human(most.needs.buffers),
        human(plan.refused_below()),
    ));
    let per_process = plan.disk_per_process();
    lines.push(format!(
        "disk: {} a process at most (its part and two checkpoints); in all: parts {}, \
         checkpoints {} ({} written a checkpoint round), merged file {}",
        human(per_process),
        human(plan.payload),
        human(plan.checkpoints()),
        human(plan.payload),
        human(plan.payload),
    ));
    let sent = plan.network();
    let most = plan.network_per_process();
    lines.push(format!(
        "network: {} sent in all ({:.2} bytes a state of a level), {} by the process that \
         sends most",
        human(sent),
        sent as f64 / board.reachable_states() as f64,
        human(most),
    ));
    lines.push(format!(
        "time: {} of search at {:.1} M states a second a process, each on a machine of its \
         own (one machine's measured rate, docs/SCALE.md), plus the exchange: {} at 1 GB/s a \
         process",
        duration(plan.search_seconds()),
        STATES_PER_SECOND as f64 / 1e6,
        duration(most as f64 / NETWORK_BYTES_PER_SECOND),
    ));
    if let Some(memory) = request.memory_per_machine {
        let by_memory = memory / plan.refused_below().max(1);
        let by_disk = request
            .disk_per_machine
            .map_or(u64::MAX, |disk| disk / per_process.max(1));
        let each = by_memory.min(by_disk);
        lines.push(match each {
            0 => format!(
                "machines of {} memory{}: none holds a process of this run: more processes \
                 (smaller slices), or larger machines",
                human(memory),
                disk_said(request.disk_per_machine)
            ),
            n => format!(
                "machines of {} memory{}: {} each; {} for {}",
                human(memory),
                disk_said(request.disk_per_machine),
                processes(n.min(count)),
                counted(count.div_ceil(n), "machine"),
                processes(count),
            ),
        });
    } else if let Some(disk) = request.disk_per_machine {
        lines.push(format!(
            "machines of {} disk: {} each (memory not given)",
            human(disk),
            processes((disk / per_process.max(1)).min(count))
        ));
    }
    lines.push(format!(
        "run: mpirun -np {count} slidetable generate --board {board}{} --parts DIR{}",
        if board == Board::FIFTEEN {
            " --states"
        } else {
            ""
        },
        if board.cells() > MAX_TABLE_CELLS {
            format!(
                " (past {MAX_TABLE_CELLS} cells a blank cell's ranks pass 2³², and the search \
                 ranks in 64 bits)"
            )
        } else {
            String::new()
        }
    ));
    lines.push(String::new());
    lines.join("\n")
}

/// The plan of the search within `max_depth` moves of the board's goal (tiles in order, the
/// blank last): `scale::within_plan`, the memory check's model level by level.
fn within_text(request: &Request, max_depth: u32) -> Result<String> {
    let board = request.board;
    let blank = board.cells() - 1;
    let plan = within_plan(board, blank, max_depth, request.processes)
        .map_err(|problem| crate::error::UsageError(format!("--plan --max-depth: {problem}")))?;
    let count = u64::from(request.processes);
    let states: u64 = plan.histogram.iter().sum();
    let mut lines = vec![format!(
        "{board}, the states within {max_depth} moves of goal {} ({}, the published counts) in {}",
        board.standard_goal(),
        counted(states, "state"),
        processes(count)
    )];
    lines.push(format!(
        "memory a process: {} at level {} (its neighbours at 8 bytes, the two levels before at \
         8 bytes a state, the levels made at {WITHIN_BYTES_PER_STATE} bytes a state, and the \
         program); the search checks its memory before each level",
        human(plan.memory),
        plan.peak_level
    ));
    lines.push(format!(
        "disk: the file {} (its parts together the same; merge writes it once more); \
         checkpoints {} at most, every process's together",
        human(plan.file),
        human(plan.checkpoints)
    ));
    if count > 1 {
        lines.push(format!(
            "network: {} sent in all ({:.2} bytes a state)",
            human(plan.network),
            plan.network as f64 / states.max(1) as f64
        ));
    }
    lines.push(format!(
        "time: {} of CPU in all ({:.0} ns a state, measured here: docs/SCALE.md); divide by the \
         cores of every process",
        duration(plan.cpu_seconds),
        WITHIN_CPU_SECONDS_PER_STATE * 1e9
    ));
    if let Some(memory) = request.memory_per_machine {
        let each = memory / plan.memory.max(1);
        lines.push(match each {
            0 => format!(
                "machines of {}: none holds a process of this run: more processes, or larger \
                 machines",
                human(memory)
            ),
            n => format!(
                "machines of {}: {} each; {} for {}",
                human(memory),
                processes(n.min(count)),
                counted(count.div_ceil(n), "machine"),
                processes(count)
            ),
        });
    }
    lines.push(String::new());
    Ok(lines.join("\n"))
}

/// `1 process`, `2 processes`.
fn processes(n: u64) -> String {
    match n {
        1 => "1 process".to_string(),
        n => format!("{n} processes"),
    }
}

fn disk_said(disk: Option<u64>) -> String {
    disk.map(|d| format!(" and {} disk", human(d)))
        .unwrap_or_default()
}

/// Seconds as a person reads them: `3.1 s`, `26 min`, `4.2 h`, `3.5 days`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 60.0 => format!("{s:.1} s"),
        s if s < 3600.0 => format!("{:.0} min", s / 60.0),
        s if s < 86400.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86400.0),
    }
}
