//! Ask a table how far puzzles are from the goal and how to solve them, with one dependency.
//! Run it with `cargo run --release -p slidetable --example library`.

use slidetable::core::path_string;
use slidetable::generate::{solve_sections, table_bytes};
use slidetable::{parse_layout, Board, Table};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let board = Board::EIGHT;
    // The table of every 3x3 state for the standard goal, made in memory (a few hundredths
    // of a second). A table file written by `slidetable generate -o 3x3.slt` is opened with
    // `Table::open("3x3.slt")?` instead, which maps it.
    let sections = solve_sections(&[board.standard_goal()])?;
    let table = Table::new(table_bytes(board, &sections)?)?;
    let goal = table.standard()?;
    for text in [
        "2 3 4 1 5 x 7 6 8",
        "8 6 7 2 5 4 3 0 1",
        "2 1 3 4 5 6 7 8 0",
    ] {
        let puzzle = parse_layout(board, text.as_bytes())?;
        match goal.path(&puzzle)? {
            Some(path) => println!("{puzzle}: {} moves, {}", path.len(), path_string(&path)),
            None => println!("{puzzle}: unsolvable"),
        }
    }
    Ok(())
}
