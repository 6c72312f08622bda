//! The distance of a 3x3 puzzle and an optimal solution of a 15-puzzle, with one dependency.
//! Run it with `cargo run --release -p slidetable --example library`: it prints `19 moves`
//! and `r`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 3x3: the cache's table (~/.cache/slidetable/3x3.slt, made there once, in a moment).
    let table = slidetable::default_table(slidetable::Board::EIGHT)?;
    let puzzle = slidetable::parse_layout(table.board(), b"2 3 4 1 5 0 7 6 8")?;
    let moves = table.standard()?.distance(&puzzle)?.expect("solvable");
    println!("{moves} moves");

    // 4x4: IDA* on the cache's pattern databases (the first use builds them in seconds).
    let fifteen = slidetable::Fifteen::default()?;
    let puzzle =
        slidetable::parse_layout(fifteen.board(), b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")?;
    let path = fifteen.solve(&puzzle)?.expect("solvable");
    println!("{}", slidetable::core::path_string(&path));
    Ok(())
}
