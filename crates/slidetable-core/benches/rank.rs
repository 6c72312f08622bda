//! rank/unrank on a fixed set of layouts: the cost every table lookup and search step pays.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use slidetable_core::{Board, Ranker};

fn rank(c: &mut Criterion) {
    for (r, cols) in [(3, 3), (3, 4)] {
        let board = Board::new(r, cols).unwrap();
        let ranker = Ranker::new(board).unwrap();
        // Evenly spread ranks of class 0.
        let step = ranker.states() / 1024;
        let layouts: Vec<_> = (0..1024).map(|i| ranker.unrank(i * step, 0)).collect();
        let mut g = c.benchmark_group(format!("{board}"));
        g.throughput(Throughput::Elements(layouts.len() as u64));
        g.bench_function("rank", |b| {
            b.iter(|| {
                layouts
                    .iter()
                    .map(|l| ranker.rank(black_box(l)))
                    .fold(0u64, u64::wrapping_add)
            })
        });
        g.bench_function("unrank", |b| {
            b.iter(|| {
                (0..1024u64)
                    .map(|i| ranker.unrank(black_box(i * step), 0).blank())
                    .sum::<usize>()
            })
        });
        g.bench_function("class", |b| {
            b.iter(|| {
                layouts
                    .iter()
                    .map(|l| black_box(l).class() as u32)
                    .sum::<u32>()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, rank);
criterion_main!(benches);
