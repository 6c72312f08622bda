//! In-process generation time: one 3×3 section, and all nine; the 15-puzzle's pattern
//! databases (one 5-tile group, and the 6-6-3 partition that a first use builds).

use criterion::{criterion_group, criterion_main, Criterion};
use slidetable_core::Board;
use slidetable_gen::engine::{solve_partition, solve_pattern, solve_section, solve_sections};
use slidetable_gen::{default_goals, Partition};

fn generate(c: &mut Criterion) {
    let board = Board::EIGHT;
    let goal = board.standard_goal();
    c.bench_function("3x3 one section", |b| {
        b.iter(|| solve_section(&goal).unwrap())
    });
    let goals = default_goals(board);
    c.bench_function("3x3 nine sections", |b| {
        b.iter(|| solve_sections(&goals).unwrap())
    });
    let board = Board::new(2, 4).unwrap();
    let goal = board.standard_goal();
    c.bench_function("2x4 one section", |b| {
        b.iter(|| solve_section(&goal).unwrap())
    });
}

fn patterns(c: &mut Criterion) {
    let goal = Board::new(4, 4).unwrap().goal_with_blank(0);
    c.bench_function("4x4 pattern group 1-5", |b| {
        b.iter(|| solve_pattern(&goal, 0b11_1110, &|_| ()).unwrap())
    });
    let partition = Partition::parse("6-6-3", &goal).unwrap();
    c.bench_function("4x4 pattern databases 6-6-3", |b| {
        b.iter(|| solve_partition(&goal, &partition, &|_| ()).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = generate
}
criterion_group! {
    name = pattern_benches;
    config = Criterion::default().sample_size(10);
    targets = patterns
}
criterion_main!(benches, pattern_benches);
