//! The judges count moves: a table of tile costs is refused by the library, not read as move
//! counts.

use slidetable_core::Board;
use slidetable_gen::default_goals;
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_judge::{judge, Format, JudgeError};
use slidetable_query::{CostModel, Table};

#[test]
fn a_tile_cost_table_is_refused_before_any_answer() {
    let board = Board::new(2, 3).unwrap();
    let sections = solve(&default_goals(board), None, CostModel::Tile, &|_| ()).unwrap();
    let table = Table::new(table_bytes(board, &sections).unwrap()).unwrap();
    let mut out = Vec::new();
    let err = judge(
        Format::Leetcode773,
        &b"[[4,1,2],[5,0,3]]\n"[..],
        &table,
        &mut out,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            JudgeError::NotMoveCounts {
                cost: CostModel::Tile
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the table holds tile costs, but the judges count moves (use a --cost unit table)"
    );
    assert!(out.is_empty());
}
