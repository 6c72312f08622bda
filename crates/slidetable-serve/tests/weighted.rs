//! The page compares move counts with heuristics: a table of tile costs is refused when it is
//! opened, by a typed error naming the file and its costs.

use slidetable::core::Board;
use slidetable::generate::default_goals;
use slidetable::generate::engine::{solve, write_table};
use slidetable::query::CostModel;
use slidetable_serve::{open_table, ServeError, SourceError};

#[test]
fn a_tile_cost_table_is_refused_with_its_file_and_costs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tile.slt");
    let board = Board::new(2, 3).unwrap();
    let sections = solve(&default_goals(board), None, CostModel::Tile, &|_| ()).unwrap();
    write_table(&path, board, &sections).unwrap();
    let Err(err) = open_table(&path) else {
        panic!("a tile-cost table was served");
    };
    assert!(
        matches!(
            &err,
            ServeError::Source(SourceError::NotMoveCounts { path: p, cost: CostModel::Tile })
                if *p == path
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "table {} holds tile costs, but the page counts moves (use a --cost unit table)",
            path.display()
        )
    );
}
