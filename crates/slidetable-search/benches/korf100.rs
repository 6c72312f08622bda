//! Korf's 100 instances (data/korf100.txt) solved by IDA* with a pattern database, one
//! instance after another on one thread: each instance's length (checked against the
//! published one), nodes and time, then the mean, the slowest and a digest of the 100 paths
//! (two builds that print the same digest found the same paths).
//!
//! `cargo bench -p slidetable-search --bench korf100 -- PATH.slt [--mapped]` (a database for the goal
//! 0 1 2 … 15, e.g. `slidetable generate --board 4x4 --pdb 7-8 -o PATH.slt`). The instances
//! are solved twice: the first pass brings the database's pages into memory, the second is
//! measured; then the 100 once more on every core, for the wall time of a batch. CPU time is
//! the thread's (from /proc, in nanoseconds), beside wall time, since the machine may be
//! shared. The database is searched as a server keeps it, copied onto huge
//! pages where the kernel gives them; `--mapped` searches the mapped file instead.

use std::time::Instant;

use rayon::prelude::*;

use slidetable_core::{parse_layout, Board, Move};
use slidetable_query::PatternTable;
use slidetable_search::{Limits, PatternHeuristic, PatternSearch};

/// CPU time of this thread, in seconds (Linux; 0 elsewhere): the scheduler's nanoseconds
/// (`/proc/thread-self/schedstat`) where the kernel keeps them, else user plus system time
/// in clock ticks (a hundredth of a second: a tenth of a millisecond per instance).
fn thread_cpu() -> f64 {
    if let Some(ns) = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
    {
        return ns / 1e9;
    }
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')').map_or(0, |i| i + 2)..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap_or(0.0) + f[12].parse::<f64>().unwrap_or(0.0);
    ticks / 100.0
}

fn main() {
    let Some(path) = std::env::args().skip(1).find(|a| !a.starts_with("--")) else {
        eprintln!("usage: cargo bench -p slidetable-search --bench korf100 -- PATH.slt");
        return;
    };
    let opened = Instant::now();
    let table = PatternTable::open(&path).unwrap_or_else(|e| panic!("{e}"));
    // The open maps the file and checks every block (on every core): its wall time.
    eprintln!(
        "opened and checked in {:.1} ms wall",
        opened.elapsed().as_secs_f64() * 1e3
    );
    // As a server keeps it (huge pages where the kernel gives them), unless `--mapped` asks
    // for the file's own pages, as a one-off command reads them.
    let mapped = std::env::args().any(|a| a == "--mapped");
    let table = if mapped {
        table
    } else {
        table.resident().unwrap_or_else(|e| panic!("{e}"))
    };
    eprintln!(
        "databases: {}",
        if mapped {
            "the mapped file"
        } else {
            "a resident copy (huge pages where given)"
        }
    );
    let board = Board::new(4, 4).unwrap();
    let goal = board.goal_with_blank(0);
    assert_eq!(
        *table.goal(),
        goal,
        "the database must be for the goal 0 1 2 ... 15"
    );
    let groups = table.groups();
    let heuristic = PatternHeuristic::new(&goal, &groups).unwrap();
    let search = PatternSearch::new(&heuristic);
    let text = include_str!("../../../data/korf100.txt");
    let instances: Vec<(u32, usize, slidetable_core::Layout)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let start = parse_layout(board, f[3..].join(" ").as_bytes()).unwrap();
            (f[0].parse().unwrap(), f[1].parse().unwrap(), start)
        })
        .collect();
    let sizes: Vec<String> = groups
        .iter()
        .map(|g| g.tiles.count_ones().to_string())
        .collect();
    println!(
        "database {path}: {} (mirrored: {})",
        sizes.join("-"),
        heuristic.mirrored()
    );
    for pass in ["warm-up", "measured"] {
        let (mut nodes, mut generated) = (0u64, 0u64);
        // FNV-1a over every path's moves: two builds found the same paths if it is the same.
        let mut paths = 0xcbf2_9ce4_8422_2325u64;
        let mut slowest = (0u32, 0.0f64, 0u64);
        let cpu = thread_cpu();
        let wall = Instant::now();
        for (id, length, start) in &instances {
            let t = Instant::now();
            let s = search.solve(start, Move::ALL, &Limits::default()).unwrap();
            let secs = t.elapsed().as_secs_f64();
            assert_eq!(
                s.path.len(),
                *length,
                "instance {id}: not the published length"
            );
            assert_eq!(
                start.after(&s.path),
                Some(goal),
                "instance {id}: not a path to the goal"
            );
            // Each path's move codes, then 4 (no move's code) to end it.
            for code in s.path.iter().map(|m| m.code()).chain([4]) {
                paths = (paths ^ u64::from(code)).wrapping_mul(0x100_0000_01b3);
            }
            nodes += s.stats.expanded;
            generated += s.stats.generated;
            if secs > slowest.1 {
                slowest = (*id, secs, s.stats.expanded);
            }
            if pass == "measured" {
                println!(
                    "instance {id:3}: {length} moves, {:>9} expanded, {:>9} generated, {:8.3} ms",
                    s.stats.expanded,
                    s.stats.generated,
                    secs * 1e3
                );
            }
        }
        let cpu = thread_cpu() - cpu;
        let wall = wall.elapsed().as_secs_f64();
        let n = instances.len() as f64;
        println!(
            "{pass}: {} instances, all lengths as published; mean {:.0} expanded, {:.0} generated; \
             mean {:.3} ms wall, {:.3} ms CPU; slowest instance {} ({:.3} ms wall, {} expanded); \
             paths {paths:016x}",
            instances.len(),
            nodes as f64 / n,
            generated as f64 / n,
            wall * 1e3 / n,
            cpu * 1e3 / n,
            slowest.0,
            slowest.1 * 1e3,
            slowest.2
        );
    }
    // The 100 again on every core (as `path` and `solve_many` answer a batch): wall time
    // only, the paths checked as above.
    let wall = Instant::now();
    let found: Vec<(u32, usize, Vec<Move>)> = instances
        .par_iter()
        .map(|(id, length, start)| {
            let s = search.solve(start, Move::ALL, &Limits::default()).unwrap();
            (*id, *length, s.path)
        })
        .collect();
    let wall = wall.elapsed().as_secs_f64();
    for ((id, length, path), (_, _, start)) in found.iter().zip(&instances) {
        assert_eq!(
            path.len(),
            *length,
            "instance {id}: not the published length"
        );
        assert_eq!(
            start.after(path),
            Some(goal),
            "instance {id}: not a path to the goal"
        );
    }
    println!(
        "every core ({} threads): {} instances, all lengths as published; mean {:.3} ms wall",
        rayon::current_num_threads(),
        instances.len(),
        wall * 1e3 / instances.len() as f64
    );
}
