//! Tables of every state of 15 and 16 cells: what the command line accepts and what the memory
//! check says on this machine, and the 64-bit ranks they are searched and read in, run on
//! small boards (`SLIDETABLE_WIDE_RANKS=1`) against the 32-bit ones, byte for byte.

use std::fs;
use std::path::Path;

use crate::common::{slidetable, text};

/// `slidetable ARGS` in `dir`, with `env` set; its exit code, standard output and error.
fn run(dir: &Path, env: &[(&str, &str)], args: &[&str], input: &str) -> (i32, String, String) {
    let mut cmd = slidetable();
    cmd.current_dir(dir)
        .args(args)
        .write_stdin(input.to_string());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

const WIDE: &[(&str, &str)] = &[("SLIDETABLE_WIDE_RANKS", "1")];

/// A table generated, a parts directory, and their answers: the same in 64-bit ranks as in
/// 32-bit ones (the files byte for byte, every answer line for line, the level pass's too).
#[test]
fn wide_ranks_make_and_read_the_same_tables_on_small_boards() {
    let scratch = tempfile::tempdir().unwrap();
    let d = scratch.path();
    for (name, env) in [("narrow", &[][..]), ("wide", WIDE)] {
        let (code, _, err) = run(
            d,
            env,
            &[
                "generate",
                "--board",
                "2x5",
                "--encoding",
                "2bit",
                "-o",
                &format!("{name}.slt"),
            ],
            "",
        );
        assert_eq!(code, 0, "{name}: {err}");
        fs::create_dir(d.join(name)).unwrap();
        let (code, _, err) = run(d, env, &["generate", "--board", "5x2", "--parts", name], "");
        assert_eq!(code, 0, "{name}: {err}");
        let merged = format!("{name}-merged.slt");
        let (code, _, err) = run(d, env, &["merge", name, "-o", &merged], "");
        assert_eq!(code, 0, "{name}: {err}");
    }
    for (a, b) in [
        ("narrow.slt", "wide.slt"),
        ("narrow-merged.slt", "wide-merged.slt"),
    ] {
        assert!(
            fs::read(d.join(a)).unwrap() == fs::read(d.join(b)).unwrap(),
            "{a} {b}"
        );
    }
    let puzzles = "2 3 4 1 5 0 7 6 8 9\n5 1 2 3 4 6 7 8 9 0\n1 2 3 4 5 6 7 8 0 9\n";
    let tall = "3 4 1 2 5 6 0 8 7 9\n1 2 3 4 5 6 7 8 0 9\n";
    for (table, input, stats) in [("narrow.slt", puzzles, "2x5"), ("narrow", tall, "5x2")] {
        let wide_table = table.replace("narrow", "wide");
        for command in [
            vec!["distance", "--table"],
            vec!["path", "--table"],
            vec!["stats", "--board", stats, "--table"],
            // The pass over every level (what 2x7 takes), in the scan of either width.
            vec!["hardest", "--table"],
            vec![
                "random", "--depth", "20", "--count", "9", "--seed", "3", "--table",
            ],
        ] {
            let mut narrow_args = command.clone();
            narrow_args.push(table);
            let mut wide_args = command.clone();
            wide_args.push(&wide_table);
            let levels = ("SLIDETABLE_LEVEL_PASS", "1");
            let (code, want, err) = run(d, &[levels], &narrow_args, input);
            assert_eq!(code, 0, "{narrow_args:?}: {err}");
            let (code, got, err) = run(d, &[WIDE[0], levels], &wide_args, input);
            assert_eq!(code, 0, "{wide_args:?}: {err}");
            assert_eq!(got.replace("wide", "narrow"), want, "{command:?}");
        }
    }
}

/// 15 and 16 cells are accepted in parts and with -o, and refused on this machine's memory
/// with the figures and the machines they take; 4x4's table of every state is asked for by
/// name; only 2-bit entries in unit costs.
#[test]
fn fifteen_and_sixteen_cells_are_accepted_and_the_memory_check_counts_machines() {
    let scratch = tempfile::tempdir().unwrap();
    let d = scratch.path();
    fs::create_dir(d.join("p")).unwrap();
    let memory = [("SLIDETABLE_AVAILABLE_MEMORY", "24000000000")];
    for (board, needs, entries, machines) in [
        (
            "3x5",
            "245.2 GB",
            "slice entries 163.5 GB, frontier 81.7 GB",
            13,
        ),
        (
            "5x3",
            "245.2 GB",
            "slice entries 163.5 GB, frontier 81.7 GB",
            13,
        ),
        (
            "2x8",
            "3.9 TB",
            "slice entries 2.6 TB, frontier 1.3 TB",
            206,
        ),
        (
            "8x2",
            "3.9 TB",
            "slice entries 2.6 TB, frontier 1.3 TB",
            206,
        ),
    ] {
        let args = ["generate", "--board", board, "--parts", "p"];
        let (code, _, err) = run(d, &memory, &args, "");
        assert_eq!(code, 1, "{board}: {err}");
        let says = |what: &str| assert!(err.contains(what), "{board}: {what}: {err}");
        says(&format!(
            "a process of the {board} search in parts needs {needs} of memory"
        ));
        says(entries);
        says(&format!(
            "at least {machines} machines with this machine's memory"
        ));
        let args = ["generate", "--board", board, "-o", "t.slt"];
        let (code, _, err) = run(d, &memory, &args, "");
        assert_eq!(code, 1, "{board}: {err}");
        let says = |what: &str| assert!(err.contains(what), "{board}: {what}: {err}");
        says(&format!(
            "a {board} table needs {needs} of memory, but 24.0 GB is available"
        ));
        says(&format!(
            "in parts (`mpirun -np {machines} slidetable generate --board {board} --parts DIR`)"
        ));
    }
    // Processes of one run on one machine share its memory: two of them need twice the
    // machines' memory.
    let shared = [
        ("SLIDETABLE_AVAILABLE_MEMORY", "24000000000"),
        ("OMPI_COMM_WORLD_LOCAL_SIZE", "2"),
    ];
    let (code, _, err) = run(
        d,
        &shared,
        &["generate", "--board", "3x5", "--parts", "p"],
        "",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("shared by 2 processes on this machine"),
        "{err}"
    );
    // 4x4: the pattern database by default, the table of every state with --states.
    let (code, _, err) = run(
        d,
        &memory,
        &["generate", "--board", "4x4", "--parts", "p"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("asked for with --states"), "{err}");
    let args = ["generate", "--board", "4x4", "--states", "--parts", "p"];
    let (code, _, err) = run(d, &memory, &args, "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("needs 3.9 TB of memory (slice entries 2.6 TB")
            && err.contains("206 machines"),
        "{err}"
    );
    let args = ["generate", "--board", "4x4", "--states", "-o", "t.slt"];
    let (code, _, err) = run(d, &memory, &args, "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("generate --board 4x4 --states --parts DIR"),
        "{err}"
    );
    // The switch of the 64-bit ranks takes 0 or 1 only.
    let args = ["generate", "--board", "2x3", "-o", "t.slt"];
    let (code, _, err) = run(d, &[("SLIDETABLE_WIDE_RANKS", "yes")], &args, "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("$SLIDETABLE_WIDE_RANKS is \"yes\", but it must be 0 or 1"),
        "{err}"
    );
    assert_eq!(
        fs::read_dir(d.join("p")).unwrap().count(),
        0,
        "nothing written"
    );
    assert!(!d.join("t.slt").exists());
}
