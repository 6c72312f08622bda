//! The facade's modules from a project of edition 2024.

#[test]
fn the_facade_modules_are_reachable_without_raw_identifiers() {
    use slidetable::generate::engine::{solve_sections, table_bytes};
    use slidetable::{parse_layout, Board, Table};

    let board = Board::new(2, 2).unwrap();
    let sections = solve_sections(&[board.standard_goal()]).unwrap();
    let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
    let puzzle = parse_layout(board, b"1 2 0 3").unwrap();
    assert_eq!(
        table.standard().unwrap().distance(&puzzle).unwrap(),
        Some(1)
    );
}

#[test]
fn the_one_call_forms_answer_in_this_edition() {
    let board = slidetable::Board::new(2, 3).unwrap();
    let table = slidetable::generate_table(board).unwrap();
    let puzzle = slidetable::parse_layout(board, b"1 2 3 4 0 5").unwrap();
    assert_eq!(
        table.standard().unwrap().distance(&puzzle).unwrap(),
        Some(1)
    );
}
