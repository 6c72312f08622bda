//! `generate --plan`: what the search of every state in parts would take, printed from the
//! model the memory check of that search uses (`slidetable::generate::scale`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use slidetable::core::{counted, Board, MAX_TABLE_CELLS};
use slidetable::generate::room::human;
use slidetable::generate::scale::{ScalePlan, STATES_PER_SECOND};

use crate::streams;

/// What `--plan` was asked.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) board: Board,
    pub(crate) processes: u32,
    pub(crate) batch: usize,
    pub(crate) memory_per_machine: Option<u64>,
    pub(crate) disk_per_machine: Option<u64>,
}

/// A network rate to put the exchange's bytes in seconds (1 GB/s, 10 Gbit Ethernet's order).
const NETWORK_BYTES_PER_SECOND: f64 = 1e9;

/// Prints the plan on standard output.
pub(crate) fn print(request: &Request) -> Result<ExitCode> {
    let mut out = streams::stdout();
    out.write_all(text(request).as_bytes())?;
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
