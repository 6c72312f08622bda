//! A run of `generate --parts`, either kind (every state, or within D moves): this
//! process's place among the run's processes, the watchdog on each level, and how a failed
//! run ends. Below the commands, so both generations share it.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use std::path::Path;

use anyhow::Result;
use slidetable::generate::checkpoint::CheckpointEvent;
use slidetable::generate::parts::Exchange;
use slidetable::generate::GenError;

use crate::streams::{note, warning};

/// What a run in parts says of its checkpoints, either kind of run: part 0's process notes
/// a resumed run and each checkpoint; any process warns of a checkpoint it could not write.
pub(crate) struct Checkpoints {
    me: u32,
    parts: u32,
    /// The last level every part has a checkpoint of, once there is one.
    pub(crate) kept: Option<u32>,
}

impl Checkpoints {
    pub(crate) fn new(me: u32, parts: u32) -> Checkpoints {
        Checkpoints {
            me,
            parts,
            kept: None,
        }
    }

    pub(crate) fn tell(&mut self, event: &CheckpointEvent) {
        let (me, parts) = (self.me, self.parts);
        match event {
            CheckpointEvent::Resumed(r) => {
                self.kept = Some(r.level);
                if me == 0 {
                    note!(
                        "resuming from level {}, the last level every part has a checkpoint of",
                        r.level
                    )
                }
            }
            CheckpointEvent::Saved {
                level, bytes, took, ..
            } => {
                self.kept = Some(*level);
                if me == 0 {
                    note!(
                        "checkpoint of level {level}: {bytes} bytes a part, {:.1} s",
                        took.as_secs_f64()
                    )
                }
            }
            CheckpointEvent::Failed { level, error, .. } => warning!(
                "part {me} of {parts}: the checkpoint of level {level} was not written{}; the \
                 search goes on from the one before",
                error
                    .as_ref()
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default()
            ),
            CheckpointEvent::Restarted { checkpoint } if me == 0 => note!(
                "--restart: removed the interrupted run's {}",
                checkpoint.display()
            ),
            _ => {}
        }
    }
}

/// What a run in parts that ends leaves for the next: "" when no checkpoint of every part
/// was written (a rerun starts over).
pub(crate) fn kept_text(dir: &Path, kept: Option<u32>) -> String {
    match kept {
        Some(level) => format!(
            "; every part's checkpoint of level {level} stays in {}: run the same command \
             again (on as many processes) to resume from there, or add --restart to start over",
            dir.display()
        ),
        None => String::new(),
    }
}

/// How a run in parts ends on `e`, the same for every process:
/// - refused by every process at once before the search: part 0's process says why, and the
///   others end only once it has (mpirun may end the job at the first process that fails),
///   every process finalizing MPI;
/// - with other processes, which may be waiting for this one in a collective call (and MPI's
///   finalize would wait for them): say why, with `after` (what was kept, or that nothing
///   was), then end every process of the run;
/// - alone: with what was kept (`kept`: a checkpoint the same command resumes from), say
///   why and `after`, and exit 1; with nothing kept, the error as any command's.
pub(crate) fn failed(
    e: GenError,
    exchange: &mut dyn Exchange,
    after: &str,
    kept: bool,
) -> Result<ExitCode> {
    let (me, parts) = (exchange.rank(), exchange.size());
    match e {
        GenError::EveryPart(e) => {
            if me == 0 {
                warning!("{:#}", anyhow::Error::from(*e));
            }
            let _ = exchange.all_gather(0);
            Ok(ExitCode::FAILURE)
        }
        e if parts > 1 => {
            warning!("part {me} of {parts}: {e}; ending the run{after}");
            exchange.abort(1);
            Err(e.into())
        }
        e if kept => {
            warning!("{e}{after}");
            Ok(ExitCode::FAILURE)
        }
        e => Err(e.into()),
    }
}

/// This process's place among the processes of the run: MPI's world when built with the
/// mpi feature, else alone (refused when a launcher started several).
pub(crate) fn exchange() -> Result<Box<dyn Exchange>> {
    #[cfg(feature = "mpi")]
    {
        slidetable::generate::parts::mpi::Mpi::init()
            .map(|m| Box::new(m) as Box<dyn Exchange>)
            .ok_or_else(|| anyhow::anyhow!("MPI could not be initialized"))
    }
    #[cfg(not(feature = "mpi"))]
    {
        for name in ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"] {
            if let Some(n) = std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok()) {
                if n > 1 {
                    anyhow::bail!(
                        "started as one of {n} MPI processes, but this slidetable was built \
                         without MPI (each would search the whole table): build it with \
                         `cargo build --release -p slidetable-cli --features mpi`"
                    );
                }
            }
        }
        Ok(Box::new(slidetable::generate::parts::Alone))
    }
}

/// Ends the process with a message when a level runs past `timeout`: the collective calls of
/// a level wait for every process, and a process that stopped answering (a node lost without
/// the launcher noticing) would otherwise leave the others waiting forever.
pub(crate) struct Watchdog {
    level: Arc<Mutex<(u32, Instant)>>,
}

impl Watchdog {
    pub(crate) fn start(&self, level: u32) {
        if let Ok(mut at) = self.level.lock() {
            *at = (level, Instant::now());
        }
    }

    /// The run goes on (a search without levels, such as the 24-puzzle's pattern databases
    /// in parts: each placement settled): the timeout counts from now.
    pub(crate) fn alive(&self) {
        if let Ok(mut at) = self.level.lock() {
            at.1 = Instant::now();
        }
    }
}

/// What a watchdog watches, for what it says when it ends the run.
#[derive(Clone, Copy)]
pub(crate) enum Watched {
    /// A search by levels, with checkpoints ([`Watchdog::start`] at each level).
    Levels,
    /// The 24-puzzle's pattern databases in parts, which keep a checkpoint of each group
    /// ([`Watchdog::alive`] at each placement settled).
    Placements,
}

pub(crate) fn watchdog(timeout: Duration, me: u32, parts: u32) -> Watchdog {
    watchdog_of(Watched::Levels, timeout, me, parts)
}

pub(crate) fn watchdog_of(what: Watched, timeout: Duration, me: u32, parts: u32) -> Watchdog {
    let level = Arc::new(Mutex::new((0, Instant::now())));
    let watched = Arc::clone(&level);
    std::thread::spawn(move || loop {
        std::thread::sleep(timeout.min(Duration::from_secs(1)));
        let (at, since) = match watched.lock() {
            Ok(at) => *at,
            Err(_) => return,
        };
        if since.elapsed() > timeout {
            match what {
                Watched::Levels => warning!(
                    "part {me} of {parts}: level {at} did not finish within --level-timeout {} s \
                     (another process stopped, or cannot be reached); no manifest was written: \
                     run the same command again to resume from the last level every part has a \
                     checkpoint of (if any; checkpoints are paced as the help of --parts says)",
                    timeout.as_secs()
                ),
                Watched::Placements => warning!(
                    "part {me} of {parts}: no placement settled within --level-timeout {} s \
                     (another process stopped, or cannot be reached); the build did not finish: run \
                     the same command again, which takes the groups every part has a checkpoint \
                     of and builds the others",
                    timeout.as_secs()
                ),
            }
            std::process::exit(1);
        }
    });
    Watchdog { level }
}
