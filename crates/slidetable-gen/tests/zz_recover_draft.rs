#[path = "/tmp/draft/distances_scan.rs"]
#[allow(dead_code)]
mod distances;
#[path = "/tmp/draft/scan.rs"]
#[allow(dead_code)]
mod scan;

use slidetable_core::{Board, Ranker};
use slidetable_format::CostModel;
use slidetable_format::Encoding;

fn check(board: Board) {
    let ranker = Ranker::new(board).unwrap();
    for goal in slidetable_gen::all_goals(board) {
        let two = slidetable_gen::solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {})
            .unwrap();
        let byte =
            slidetable_gen::solve(&[goal], Some(Encoding::Byte), CostModel::Unit, &|_| {}).unwrap();
        let d = distances::recover(
            &ranker,
            goal.class(),
            ranker.rank(&goal),
            &two[0].entries,
            &two[0].histogram,
            u32::MAX,
            &|_| {},
        )
        .unwrap();
        let want: Vec<u8> = byte[0].entries.iter().map(|e| e >> 2).collect();
        assert_eq!(d, want, "{goal}");
    }
}

#[test]
fn eight() {
    check(Board::EIGHT);
    check(Board::new(2, 3).unwrap());
    check(Board::new(2, 5).unwrap());
}

#[test]
#[ignore]
fn twelve() {
    let board = Board::new(3, 4).unwrap();
    let ranker = Ranker::new(board).unwrap();
    let goal = board.standard_goal();
    let t = std::time::Instant::now();
    let two =
        slidetable_gen::solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    eprintln!("generate {:?}", t.elapsed());
    for _ in 0..2 {
        let t = std::time::Instant::now();
        let d = distances::recover(
            &ranker,
            goal.class(),
            ranker.rank(&goal),
            &two[0].entries,
            &two[0].histogram,
            u32::MAX,
            &|_| {},
        )
        .unwrap();
        eprintln!("recover {:?}", t.elapsed());
        assert_eq!(d.iter().filter(|&&x| x == 53).count(), 18);
    }
    let t = std::time::Instant::now();
    let _two =
        slidetable_gen::solve(&[goal], Some(Encoding::TwoBit), CostModel::Unit, &|_| {}).unwrap();
    eprintln!("generate {:?}", t.elapsed());
}
