//! Per-query cost of every search method (and heuristic) on one fixed set of random
//! 8-puzzles, next to the answer a precomputed table gives for the same set.
//!
//! Each benchmark solves the whole set once per iteration; with `Throughput::Elements`
//! criterion reports queries per second, and time per iteration ÷ 20 is the mean per query.
//!
//! Run: `cargo bench -p slidetable-search` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use slidetable_core::{Board, Layout, Ranker};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_query::Table;
use slidetable_search::{solve, HeuristicKind, Limits, Method};

const QUERIES: usize = 20;

/// The fixed query set: uniformly random layouts of the standard goal's class, drawn by a
/// seeded xorshift so every run measures the same puzzles.
fn queries() -> Vec<Layout> {
    let goal = Board::EIGHT.standard_goal();
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    let mut x: u64 = 0x8_9E37_79B9;
    (0..QUERIES)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ranker.unrank(x % ranker.states(), goal.class())
        })
        .collect()
}

fn searches(c: &mut Criterion) {
    let goal = Board::EIGHT.standard_goal();
    let starts = queries();
    let limits = Limits::default();
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(QUERIES as u64));
    for method in Method::ALL {
        let heuristics: &[HeuristicKind] = if method.uses_heuristic() {
            &HeuristicKind::ALL
        } else {
            // Ignored by the uninformed methods.
            &[HeuristicKind::Manhattan]
        };
        let slow = !method.uses_heuristic() && method != Method::Bidir;
        if slow {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(8));
        } else {
            group
                .sample_size(30)
                .measurement_time(Duration::from_secs(3));
        }
        for &h in heuristics {
            let id = if method.uses_heuristic() {
                BenchmarkId::new(method.name(), h)
            } else {
                BenchmarkId::from_parameter(method.name())
            };
            group.bench_with_input(id, &starts, |b, starts| {
                b.iter(|| {
                    for start in starts {
                        let s = solve(method, h, start, &goal, &limits).unwrap();
                        black_box(s.path.len());
                    }
                })
            });
        }
    }
    group.finish();
}

fn table(c: &mut Criterion) {
    let board = Board::EIGHT;
    let sections = solve_sections(&default_goals(board)).unwrap();
    let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
    let starts = queries();
    let mut group = c.benchmark_group("table");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_with_input("distance", &starts, |b, starts| {
        b.iter(|| {
            for start in starts {
                black_box(table.distance(black_box(start)).unwrap());
            }
        })
    });
    group.bench_with_input("path", &starts, |b, starts| {
        b.iter(|| {
            for start in starts {
                black_box(table.path(black_box(start)).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, searches, table);
criterion_main!(benches);
