//! `AnyTable::open`: one opening of a file, whichever kind it holds, with the same refusals
//! as the opening of each kind.

use slidetable_core::Board;
use slidetable_gen::default_goals;
use slidetable_gen::engine::{pattern_bytes, solve_partition, solve_sections, table_bytes};
use slidetable_gen::Partition;
use slidetable_query::{AnyTable, CostModel};

fn written(name: &str, bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

#[test]
fn a_table_opens_as_a_table() {
    let board = Board::new(2, 3).unwrap();
    let bytes = table_bytes(board, &solve_sections(&default_goals(board)).unwrap()).unwrap();
    let (_dir, path) = written("t.slt", &bytes);
    let table = AnyTable::open(&path).unwrap();
    assert!(matches!(table, AnyTable::Table(_)));
    assert_eq!(table.board(), board);
    assert_eq!(table.cost(), CostModel::Unit);
    assert_eq!(table.file(), Some(path.as_path()));
}

#[test]
fn pattern_databases_open_as_pattern_databases() {
    let goal = Board::new(2, 3).unwrap().standard_goal();
    let partition = Partition::parse("2-3", &goal).unwrap();
    let bytes = pattern_bytes(&solve_partition(&goal, &partition, &|_| ()).unwrap()).unwrap();
    let (_dir, path) = written("p.slt", &bytes);
    let table = AnyTable::open(&path).unwrap();
    let AnyTable::Patterns(patterns) = &table else {
        panic!("opened as a table");
    };
    assert_eq!(patterns.groups().len(), 2);
    assert_eq!(table.board(), goal.board());
    assert_eq!(table.cost(), CostModel::Unit);
    // Where a table of every state is needed, the table reader's words.
    let as_table = slidetable_query::Table::open(&path).err().expect("refused");
    let e = table.into_table().err().expect("refused");
    assert_eq!(e.to_string(), as_table.to_string());
}

#[test]
fn a_damaged_payload_is_refused_by_open_not_by_open_header() {
    let goal = Board::new(2, 3).unwrap().standard_goal();
    let partition = Partition::parse("2-3", &goal).unwrap();
    let mut bytes = pattern_bytes(&solve_partition(&goal, &partition, &|_| ()).unwrap()).unwrap();
    // The last payload byte: the one block checksum (4 bytes) comes after it.
    let last = bytes.len() - 5;
    bytes[last] ^= 1;
    let (_dir, path) = written("p.slt", &bytes);
    assert!(AnyTable::open_header(&path).is_ok());
    let e = AnyTable::open(&path).err().expect("refused");
    assert!(
        e.to_string()
            .starts_with(&format!("table {}:", path.display())),
        "{e}"
    );
}

#[test]
fn what_is_not_a_file_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.slt");
    let e = AnyTable::open(&missing).err().expect("refused").to_string();
    assert!(
        e.contains("missing.slt") && e.contains("cannot read"),
        "{e}"
    );
    let empty = dir.path().join("empty.slt");
    std::fs::write(&empty, b"").unwrap();
    let e = AnyTable::open(&empty).err().expect("refused").to_string();
    assert!(e.contains("empty.slt"), "{e}");
}
