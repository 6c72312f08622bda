//! In-process generation time: one 3×3 section, and all nine.

use criterion::{criterion_group, criterion_main, Criterion};
use slidetable_core::Board;
use slidetable_gen::{default_goals, solve_section, solve_sections};

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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = generate
}
criterion_main!(benches);
