//! Per-query cost of the table: distance, path, ordered path and distance to another goal,
//! over an in-memory 3×3 table and a fixed spread of start layouts.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use slidetable_core::{Board, Layout, Move, Ranker};
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve_sections, table_bytes};
use slidetable_query::Table;

fn query(c: &mut Criterion) {
    let board = Board::EIGHT;
    let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
    // Bytes handed to `Table::new` check each block on first read; a table verified whole
    // (as one read into memory at open is) reads without the check.
    let table = Table::new(&bytes[..]).unwrap();
    let verified = Table::new(&bytes[..]).unwrap();
    verified.verify().unwrap();
    let verified = verified.standard().unwrap();
    let ranker = Ranker::new(board).unwrap();
    let step = ranker.states() / 1000;
    let starts: Vec<Layout> = (0..1000).map(|i| ranker.unrank(i * step, 0)).collect();
    let standard = table.standard().unwrap();
    let other = table
        .goal(&Layout::new(board, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).unwrap())
        .unwrap();
    let order = [Move::Down, Move::Left, Move::Right, Move::Up];

    let mut g = c.benchmark_group("3x3 query");
    g.throughput(Throughput::Elements(starts.len() as u64));
    g.bench_function("distance", |b| {
        b.iter(|| {
            starts
                .iter()
                .map(|s| standard.distance(black_box(s)).unwrap().unwrap_or(0))
                .sum::<u32>()
        })
    });
    g.bench_function("distance to another goal (relabelled)", |b| {
        b.iter(|| {
            starts
                .iter()
                .map(|s| other.distance(black_box(s)).unwrap().unwrap_or(0))
                .sum::<u32>()
        })
    });
    let mut path = Vec::with_capacity(64);
    g.bench_function("path", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &starts {
                path.clear();
                standard.path_into(black_box(s), &mut path).unwrap();
                n += path.len();
            }
            n
        })
    });
    g.bench_function("distance, every block verified", |b| {
        b.iter(|| {
            starts
                .iter()
                .map(|s| verified.distance(black_box(s)).unwrap().unwrap_or(0))
                .sum::<u32>()
        })
    });
    g.bench_function("path, every block verified", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &starts {
                path.clear();
                verified.path_into(black_box(s), &mut path).unwrap();
                n += path.len();
            }
            n
        })
    });
    g.bench_function("path, smallest in order dlru", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &starts {
                path.clear();
                standard
                    .ordered_path_into(black_box(s), &order, &mut path)
                    .unwrap();
                n += path.len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, query);
criterion_main!(benches);
