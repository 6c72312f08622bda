//! `generate --plan`: what a search of every state in parts (or, with --max-depth, of the
//! states within D moves) would take, printed from the model the memory check uses
//! (`slidetable::generate::scale`), with no search.

use crate::common::{slidetable, text};
use slidetable::core::Board;
use slidetable::generate::room::human;
use slidetable::generate::scale::ScalePlan;

fn plan(args: &[&str]) -> std::process::Output {
    slidetable()
        .args(["generate", "--plan"])
        .args(args)
        .output()
        .unwrap()
}

/// The plan's every line, for 3x4 on 2 processes, and its figures the library's model's.
#[test]
fn the_plan_of_three_by_four_on_two_processes() {
    let run = plan(&["--board", "3x4", "--processes", "2"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let model = ScalePlan::new(Board::new(3, 4).unwrap(), 2, 1 << 23);
    assert_eq!(human(model.memory()), "83.4 MB");
    assert_eq!(human(model.refused_below()), "104.2 MB");
    assert_eq!(model.network(), 199_584_000);
    assert_eq!(
        text(&run.stdout),
        "3x4, every state (239500800 states) in 2 processes, --batch 8388608\n\
         memory a process: 83.4 MB (part 0: slice entries 29.9 MB, frontier 15.0 MB, program \
         and exchange buffers 38.5 MB); the memory check refuses a process with less than \
         104.2 MB\n\
         disk: 89.8 MB a process at most (its part and two checkpoints); in all: parts 59.9 MB, \
         checkpoints 119.8 MB (59.9 MB written a checkpoint round), merged file 59.9 MB\n\
         network: 199.6 MB sent in all (0.83 bytes a state of a level), 99.8 MB by the process \
         that sends most\n\
         time: 3.1 s of search at 38.1 M states a second a process, each on a machine of its \
         own (one machine's measured rate, docs/SCALE.md), plus the exchange: 0.1 s at 1 GB/s \
         a process\n\
         run: mpirun -np 2 slidetable generate --board 3x4 --parts DIR\n"
    );
    assert_eq!(text(&run.stderr), "");
}

/// Boards of 15 and 16 cells get figures and the run's command (on 4x4 with --states); machines
/// of a given memory and disk are counted by the check's figure.
#[test]
fn boards_of_sixteen_cells_are_planned_and_machines_counted() {
    let run = plan(&[
        "--board",
        "4x4",
        "--processes",
        "512",
        "--memory-per-machine",
        "64GB",
        "--disk-per-machine",
        "2TB",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    assert!(
        out.contains("in all: parts 2.6 TB, checkpoints 5.2 TB"),
        "{out}"
    );
    assert!(
        out.contains("machines of 64.0 GB memory and 2.0 TB disk: 6 processes each; 86 machines for 512 processes"),
        "{out}"
    );
    assert!(
        out.contains(
            "run: mpirun -np 512 slidetable generate --board 4x4 --states --parts DIR (past 14 \
             cells a blank cell's ranks pass 2³², and the search ranks in 64 bits)"
        ),
        "{out}"
    );
    let small = plan(&["--board", "3x4", "--memory-per-machine", "50MB"]);
    assert!(
        text(&small.stdout).contains("machines of 50.0 MB memory: none holds a process"),
        "{}",
        text(&small.stdout)
    );
}

/// Bad arguments: exit 2, naming the flag and what it takes.
#[test]
fn bad_plan_arguments_are_usage_errors() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["--plan", "--board", "3x4", "--memory-per-machine", "5x"],
            "`5x` is not a size: bytes, or a number with kB, MB, GB or TB (24GB)",
        ),
        (&["--plan", "--processes", "0"], "--processes"),
        (&["--board", "3x4", "--processes", "2"], "--plan"),
        (
            &["--plan", "-o", "x.slt"],
            "'--plan' cannot be used with '--output",
        ),
        (
            &["--plan", "--max-depth", "40", "--board", "4x4"],
            "--plan --max-depth: the published counts of 4x4's levels (blank in cell 15) reach \
             31 moves, not 40",
        ),
        (
            &["--plan", "--max-depth", "10", "--board", "2x8"],
            "--plan --max-depth: no published counts of 2x8's levels to plan from",
        ),
    ];
    for (args, says) in cases {
        let run = slidetable().arg("generate").args(args).output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(
            text(&run.stderr).contains(says),
            "{args:?}: {}",
            text(&run.stderr)
        );
        assert_eq!(text(&run.stdout), "", "{args:?}");
    }
}

/// The memory check keeps a quarter over the plan's estimate: 120 MB holds the one process
/// of 3x4 by the estimate (110.8 MB), not by the check (138.5 MB), and is refused.
#[test]
fn the_memory_check_asks_a_quarter_over_the_plan() {
    let scratch = tempfile::tempdir().unwrap();
    let run = slidetable()
        .args(["generate", "--board", "3x4", "--parts"])
        .arg(scratch.path())
        .env("SLIDETABLE_AVAILABLE_MEMORY", "120000000")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains("needs 110.8 MB of memory")
            && text(&run.stderr).contains("the check asks a quarter more, 138.5 MB"),
        "{}",
        text(&run.stderr)
    );
}

/// `--plan --max-depth D` (refused before): the search within D moves planned from the
/// published counts with the memory check's model, its figures the library's; memory a
/// process within a quarter of the peak measured here (4x4 within 23 moves: 236.7 MB,
/// BENCHMARKS.md), halved on 2 processes, and machines counted.
#[test]
fn the_plan_within_d_moves_is_the_memory_checks_model() {
    let run = plan(&["--board", "4x4", "--max-depth", "23"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let model = slidetable::generate::scale::within_plan(Board::FIFTEEN, 15, 23, 1).unwrap();
    let ratio = model.memory as f64 / 236_660_000.0;
    assert!((0.75..=1.25).contains(&ratio), "{ratio}");
    let out = text(&run.stdout);
    assert!(
        out.starts_with(
            "4x4, the states within 23 moves of goal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 \
             (23102481 states, the published counts) in 1 process\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "memory a process: {} at level 23",
            human(model.memory)
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("disk: the file {}", human(model.file))),
        "{out}"
    );
    let two = plan(&[
        "--board",
        "4x4",
        "--max-depth",
        "31",
        "--processes",
        "2",
        "--memory-per-machine",
        "24GB",
    ]);
    assert_eq!(two.status.code(), Some(0), "{}", text(&two.stderr));
    let out = text(&two.stdout);
    assert!(out.contains("network: "), "{out}");
    assert!(
        out.contains("machines of 24.0 GB: 1 process each; 2 machines for 2 processes"),
        "{out}"
    );
}
