//! Tables written by an earlier slidetable, committed as files: today's code must still open
//! them, find their checksums intact and give the same answers. If one of these fails, the
//! format changed in a way old files notice: that needs a new format version, not a new
//! golden file.
//!
//! Made with `slidetable generate --board 2x3 -o tests/golden/2x3.slt` (and `--encoding 2bit`,
//! `--cost tile`).

use slidetable_core::{parse_layout, Board, Layout, Ranker};
use slidetable_gen::all_goals;
use slidetable_gen::engine::{solve, table_bytes};
use slidetable_query::{CostModel, Encoding, Table};

const BYTE: &[u8] = include_bytes!("golden/2x3.slt");
const TWO_BIT: &[u8] = include_bytes!("golden/2x3-2bit.slt");
const TILE: &[u8] = include_bytes!("golden/2x3-tile.slt");

fn board() -> Board {
    Board::new(2, 3).unwrap()
}

fn layout(s: &str) -> Layout {
    parse_layout(board(), s.as_bytes()).unwrap()
}

/// (puzzle, distance to 1 2 3 4 5 0 in unit moves, cheapest cost when tile k costs k).
const KNOWN: [(&str, u32, u32); 4] = [
    ("1 2 3 4 5 0", 0, 0),
    ("4 1 2 5 0 3", 5, 15),
    ("5 4 3 2 1 0", 14, 36),
    ("0 5 4 3 2 1", 15, 45),
];

#[test]
fn the_golden_tables_open_verify_and_describe_themselves() {
    for (bytes, len, encoding, cost) in [
        (BYTE, 3664, Encoding::Byte, CostModel::Unit),
        (TWO_BIT, 2044, Encoding::TwoBit, CostModel::Unit),
        (TILE, 5576, Encoding::Byte, CostModel::Tile),
    ] {
        let t = Table::new(bytes).unwrap();
        t.verify().unwrap();
        let h = t.header();
        assert_eq!(
            (h.board(), h.encoding(), h.cost()),
            (board(), encoding, cost)
        );
        assert_eq!(h.file_len(), len);
        assert_eq!(t.sections().len(), 6);
        let goals: Vec<Layout> = t.sections().iter().map(|s| *s.goal()).collect();
        assert_eq!(goals, all_goals(board()));
    }
    let t = Table::new(BYTE).unwrap();
    let standard = t.standard().unwrap();
    assert_eq!(
        standard.histogram(),
        [1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1]
    );
    let t = Table::new(TILE).unwrap();
    assert_eq!(t.standard().unwrap().max_distance(), 61);
}

#[test]
fn the_golden_tables_give_the_known_answers() {
    for (bytes, tile) in [(BYTE, false), (TWO_BIT, false), (TILE, true)] {
        let t = Table::new(bytes).unwrap();
        for (puzzle, moves, cost) in KNOWN {
            let l = layout(puzzle);
            let want = if tile { cost } else { moves };
            assert_eq!(t.distance(&l), Ok(Some(want)), "{puzzle}");
            let path = t.path(&l).unwrap().unwrap();
            assert_eq!(l.after(&path), Some(board().standard_goal()), "{puzzle}");
        }
        assert_eq!(t.distance(&layout("2 1 3 4 5 0")), Ok(None));
    }
}

#[test]
fn the_golden_tables_agree_with_todays_generator_on_every_state() {
    let ranker = Ranker::new(board()).unwrap();
    for (bytes, encoding, cost) in [
        (BYTE, Some(Encoding::Byte), CostModel::Unit),
        (TWO_BIT, Some(Encoding::TwoBit), CostModel::Unit),
        (TILE, None, CostModel::Tile),
    ] {
        let old = Table::new(bytes).unwrap();
        let goals = all_goals(board());
        let sections = solve(&goals, encoding, cost, &|_| {}).unwrap();
        let new = Table::new(table_bytes(board(), &sections).unwrap()).unwrap();
        for i in 0..goals.len() {
            let (a, b) = (old.section(i).unwrap(), new.section(i).unwrap());
            for rank in 0..ranker.states() {
                let l = ranker.unrank(rank, a.goal().class());
                assert_eq!(a.distance(&l), b.distance(&l), "{}: {l}", a.goal());
            }
        }
    }
}
