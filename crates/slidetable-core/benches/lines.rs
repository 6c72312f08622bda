//! Reading puzzle lines: the line reader and the parser over 100,000 lines of the commonest
//! spelling (`1 2 6 7 3 5 8 0 4`), what every batch of `distance` and `path` pays per line
//! before its look-up.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use slidetable_core::lines::{Lines, MAX_LINE};
use slidetable_core::{parse_layout, Board, Ranker};

fn lines(c: &mut Criterion) {
    let board = Board::EIGHT;
    let ranker = Ranker::new(board).unwrap();
    let count = 100_000u64;
    let step = ranker.states() / count;
    let mut input = Vec::new();
    for i in 0..count {
        input.extend_from_slice(ranker.unrank(i * step, 0).to_string().as_bytes());
        input.push(b'\n');
    }
    let mut g = c.benchmark_group("3x3 lines");
    g.throughput(Throughput::Elements(count));
    g.bench_function("read", |b| {
        b.iter(|| {
            let mut lines = Lines::new(black_box(&input[..]), MAX_LINE);
            let mut bytes = 0;
            while let Some(line) = lines.next_line().unwrap() {
                bytes += line.text.map_or(0, <[u8]>::len);
            }
            bytes
        })
    });
    g.bench_function("read and parse", |b| {
        b.iter(|| {
            let mut lines = Lines::new(black_box(&input[..]), MAX_LINE);
            let mut blanks = 0;
            while let Some(line) = lines.next_line().unwrap() {
                blanks += parse_layout(board, line.text.unwrap()).unwrap().blank();
            }
            blanks
        })
    });
    g.finish();
}

criterion_group!(benches, lines);
criterion_main!(benches);
