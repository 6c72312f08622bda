//! The whole 8-puzzle table, checked state by state: every stored path is legal, optimal
//! and as long as the stored distance; the other parity class answers nothing; and an
//! independent breadth-first search (a `HashMap` over layouts, no ranking, no generator)
//! agrees with every stored distance.

use slidetable_core::{Board, Ranker};
use slidetable_gen::default_goals;

use crate::common::{bfs, eight, table};

const STATES: u64 = 181_440;

fn standard_index() -> usize {
    table().section_for(&Board::EIGHT.standard_goal()).unwrap()
}

#[test]
fn the_table_has_one_section_per_blank_cell() {
    let t = table();
    assert_eq!(t.board(), Board::EIGHT);
    assert_eq!(t.sections().len(), 9);
    for (blank, goal) in default_goals(Board::EIGHT).iter().enumerate() {
        assert_eq!(t.section_for(goal), Ok(blank));
        assert_eq!(t.section(blank).unwrap().goal(), goal);
    }
    t.verify().unwrap();
}

#[test]
fn histograms_add_up_and_match_the_stored_distances() {
    let t = table();
    let standard = t.sections()[standard_index()].histogram();
    assert_eq!(standard.iter().sum::<u64>(), STATES);
    assert_eq!(standard.len(), 32, "the 8-puzzle's diameter is 31");
    assert_eq!(standard[31], 2);
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    for i in 0..t.sections().len() {
        let section = t.section(i).unwrap();
        let declared = &section.descriptor().histogram();
        assert_eq!(declared.iter().sum::<u64>(), STATES, "section {i}");
        // Recount from the entries themselves.
        let mut counted = vec![0u64; declared.len()];
        for rank in 0..ranker.states() {
            let l = ranker.unrank(rank, section.goal().class());
            counted[section.distance(&l).unwrap().unwrap() as usize] += 1;
        }
        assert_eq!(&counted, declared, "section {i}");
        assert_eq!(
            section.descriptor().max_distance() as usize,
            declared.len() - 1
        );
    }
}

#[test]
fn every_stored_path_is_legal_optimal_and_reaches_its_goal() {
    let t = table();
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    // One thread per section: the whole check is ~1.6 million paths.
    std::thread::scope(|scope| {
        for i in 0..t.sections().len() {
            scope.spawn(move || {
                let section = t.section(i).unwrap();
                let goal = *section.goal();
                let mut path = Vec::new();
                for rank in 0..ranker.states() {
                    let l = ranker.unrank(rank, goal.class());
                    let d = section.distance(&l).unwrap().unwrap();
                    path.clear();
                    assert_eq!(
                        section.path_into(&l, &mut path),
                        Ok(true),
                        "section {i}: {l}"
                    );
                    assert_eq!(path.len() as u32, d, "section {i}: {l}");
                    assert_eq!(l.after(&path), Some(goal), "section {i}: {l}");
                    assert_eq!(
                        section.first_move(&l).unwrap(),
                        path.first().copied(),
                        "section {i}: {l}"
                    );
                }
            });
        }
    });
}

#[test]
fn the_other_parity_class_has_no_answer() {
    let t = table();
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    let goal = Board::EIGHT.standard_goal();
    let other = 1 - goal.class();
    let mut path = Vec::new();
    for rank in 0..ranker.states() {
        let l = ranker.unrank(rank, other);
        assert!(!l.can_reach(&goal));
        assert_eq!(t.distance(&l), Ok(None), "{l}");
        assert_eq!(t.path(&l), Ok(None), "{l}");
        assert_eq!(
            t.standard().unwrap().path_into(&l, &mut path),
            Ok(false),
            "{l}"
        );
        assert!(path.is_empty());
    }
    // The other sections too, on a sample of ranks.
    for i in 0..t.sections().len() {
        let section = t.section(i).unwrap();
        let other = 1 - section.goal().class();
        for rank in (0..ranker.states()).step_by(97) {
            let l = ranker.unrank(rank, other);
            assert_eq!(section.distance(&l), Ok(None), "section {i}: {l}");
            assert_eq!(section.first_move(&l), Ok(None), "section {i}: {l}");
            assert_eq!(
                section.path_into(&l, &mut path),
                Ok(false),
                "section {i}: {l}"
            );
            assert!(section.optimal_moves(&l).unwrap().is_empty());
        }
    }
}

#[test]
fn an_independent_search_agrees_with_every_distance() {
    let t = table();
    for goal in [
        Board::EIGHT.standard_goal(),
        Board::EIGHT.goal_with_blank(4),
    ] {
        let want = bfs(goal);
        assert_eq!(want.len() as u64, STATES, "goal {goal}");
        let section = t.section(t.section_for(&goal).unwrap()).unwrap();
        for (l, &d) in &want {
            assert_eq!(section.distance(l), Ok(Some(d)), "goal {goal}: {l}");
        }
        let max = want.values().copied().max().unwrap();
        assert_eq!(section.descriptor().max_distance(), max, "goal {goal}");
    }
}

#[test]
fn the_two_hardest_states_take_31_moves() {
    let t = table();
    let ranker = Ranker::new(Board::EIGHT).unwrap();
    let goal = Board::EIGHT.standard_goal();
    let section = t.section(standard_index()).unwrap();
    let mut hardest: Vec<String> = (0..ranker.states())
        .map(|r| ranker.unrank(r, goal.class()))
        .filter(|l| section.distance(l) == Ok(Some(31)))
        .map(|l| l.to_string())
        .collect();
    hardest.sort();
    assert_eq!(hardest, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    for s in hardest {
        let l = eight(&s);
        assert_eq!(t.distance(&l), Ok(Some(31)));
        let path = t.path(&l).unwrap().unwrap();
        assert_eq!(path.len(), 31);
        assert_eq!(l.after(&path), Some(goal));
    }
}

#[test]
fn known_answers() {
    let t = table();
    let start = eight("2 3 4 1 5 x 7 6 8");
    assert_eq!(t.distance(&start), Ok(Some(19)));
    let path = t.path(&start).unwrap().unwrap();
    assert_eq!(path.len(), 19);
    assert_eq!(start.after(&path), Some(Board::EIGHT.standard_goal()));

    let goal = Board::EIGHT.standard_goal();
    assert_eq!(t.distance(&goal), Ok(Some(0)));
    assert_eq!(t.path(&goal), Ok(Some(vec![])));
    // One move away, and the classic unsolvable swap.
    assert_eq!(t.distance(&eight("1 2 3 4 5 6 7 x 8")), Ok(Some(1)));
    assert_eq!(t.distance(&eight("2 1 3 4 5 6 7 8 x")), Ok(None));
}

/// A table within D moves (`generate --max-depth D`) against the whole table, on every
/// state of 3x3, 2x4 and 2x5, for depths below, at and past each board's radius, and for goals
/// with the blank in a corner and elsewhere: the same distance for each state within D,
/// `MoreThan(D)` for each farther one, nothing for the other class; every path legal, as
/// long as the distance, ending at the goal, and under a letter order the very path the
/// whole table gives (the smallest under that order).
#[test]
fn a_table_within_d_moves_agrees_with_the_whole_table_on_every_state() {
    use rayon::prelude::*;
    use slidetable_core::{Move, WideRanker};
    use slidetable_gen::engine::{solve_bounded, solve_section, table_bytes, write_bounded_to};
    use slidetable_query::{BoundedTable, Reach, Table};

    for (rows, cols, blank, depths) in [
        (3, 3, 8, &[12, 33][..]),
        (3, 3, 4, &[18][..]),
        (2, 4, 7, &[9, 36, 40][..]),
        (2, 4, 1, &[25][..]),
        (2, 5, 9, &[21][..]),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let goal = board.goal_with_blank(blank);
        let whole =
            Table::new(table_bytes(board, &[solve_section(&goal).unwrap()]).unwrap()).unwrap();
        let whole = whole.goal(&goal).unwrap();
        let ranker = WideRanker::new(board);
        let order = [Move::Right, Move::Up, Move::Left, Move::Down];
        for &depth in depths {
            let mut bytes = Vec::new();
            write_bounded_to(
                &mut bytes,
                &solve_bounded(&goal, depth, &mut |_| {}).unwrap(),
            )
            .unwrap();
            let within = BoundedTable::new(bytes).unwrap();
            within.verify().unwrap();
            (0..ranker.states()).into_par_iter().for_each(|rank| {
                let mut want = Vec::new();
                for class in 0..2 {
                    let layout = ranker.unrank(rank, class);
                    let exact = whole.distance(&layout).unwrap();
                    let reach = within.distance(&layout).unwrap();
                    let what = format!("{board} goal {goal} D={depth}: {layout}");
                    match exact {
                        None => assert_eq!(reach, None, "{what}"),
                        Some(d) if d > depth => {
                            assert_eq!(reach, Some(Reach::MoreThan(depth)), "{what}");
                            assert_eq!(within.path(&layout, &order).unwrap(), None, "{what}");
                        }
                        Some(d) => {
                            assert_eq!(reach, Some(Reach::Moves(d)), "{what}");
                            let path = within.path(&layout, &order).unwrap().unwrap();
                            assert_eq!(path.len() as u32, d, "{what}");
                            assert_eq!(layout.after(&path), Some(goal), "{what}");
                            want.clear();
                            assert!(whole.ordered_path_into(&layout, &order, &mut want).unwrap());
                            assert_eq!(path, want, "{what}");
                        }
                    }
                }
            });
        }
    }
}
