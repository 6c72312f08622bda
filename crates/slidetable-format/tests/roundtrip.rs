//! Headers survive a write and a read unchanged, for any board that supports tables and any
//! histograms and goals the format allows; and the writer refuses what the reader would.

use proptest::prelude::*;
use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding, FormatError, Header, PayloadSums, SectionSpec};

/// Every board with at most 12 cells (the most a table supports).
const TABLE_BOARDS: [(usize, usize); 12] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (5, 2),
    (3, 4),
    (4, 3),
    (2, 6),
    (6, 2),
];

/// The zero payload behind a header is allocated (zeroed, so never touched) in one piece:
/// keep it below 1 GiB, which allows four sections of a 12-cell board.
const MAX_FILE: u64 = 1 << 30;

/// A histogram of `len` entries (2..=64, so the byte encoding holds its maximum) adding up to
/// `states`: 1 at distance 0, the rest shared out in proportion to `weights`, the last > 0.
fn histogram(states: u64, weights: &[u32]) -> Vec<u64> {
    let rest = states - 1;
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    let mut h = vec![1u64];
    h.extend(weights.iter().map(|&w| rest * u64::from(w) / total));
    // What rounding down left over goes to the last entry. Its weight is at least 1, so if
    // its share rounded down to 0 it lost a fraction, and the leftover is at least 1.
    let leftover = states - h.iter().sum::<u64>();
    *h.last_mut().unwrap() += leftover;
    h
}

fn header_spec() -> impl Strategy<Value = (Board, Vec<SectionSpec>, u32)> {
    prop::sample::select(TABLE_BOARDS.to_vec()).prop_flat_map(|(r, c)| {
        let board = Board::for_table(r, c).unwrap();
        let n = board.cells();
        let per_section = board.reachable_states();
        let max_sections = (MAX_FILE / per_section).clamp(1, n as u64) as usize;
        let tiles: Vec<u8> = (0..n as u8).collect();
        let goal = Just(tiles).prop_shuffle();
        // Weights for distances 1..: the last one nonzero.
        let weights =
            (prop::collection::vec(0u32..1000, 0..63), 1u32..1000).prop_map(|(mut w, last)| {
                w.push(last);
                w
            });
        (
            prop::collection::vec((goal, weights), 1..=max_sections),
            any::<u32>(),
        )
            .prop_map(move |(sections, crc)| {
                let mut specs: Vec<SectionSpec> = Vec::new();
                for (tiles, weights) in sections {
                    let goal = Layout::new(board, &tiles).unwrap();
                    if specs.iter().all(|s| s.goal != goal) {
                        let histogram = histogram(per_section, &weights);
                        specs.push(SectionSpec { goal, histogram });
                    }
                }
                (board, specs, crc)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn headers_read_back_as_written((board, specs, crc) in header_spec()) {
        let header = Header::build(board, Encoding::Byte, CostModel::Unit, specs.clone(), PayloadSums::Whole(crc)).unwrap();
        prop_assert_eq!(header.sections().len(), specs.len());
        for (s, spec) in header.sections().iter().zip(&specs) {
            prop_assert_eq!(s.histogram(), &spec.histogram[..]);
            prop_assert_eq!(*s.goal(), spec.goal);
            prop_assert_eq!(s.max_distance() as usize, spec.histogram.len() - 1);
            prop_assert_eq!(s.entries(), board.reachable_states());
        }
        let bytes = header.to_bytes();
        prop_assert_eq!(bytes.len() as u64, header.header_len());
        prop_assert!(header.file_len() <= MAX_FILE);
        // Zeroed, so the payload's pages are never touched.
        let mut file = vec![0u8; header.file_len() as usize];
        file[..bytes.len()].copy_from_slice(&bytes);
        let back = Header::parse(&file).unwrap();
        prop_assert_eq!(&back, &header);
        for i in 0..header.sections().len() {
            let payload = header.payload(&file, i).unwrap();
            prop_assert_eq!(payload.len() as u64, board.reachable_states());
        }
        // The header bytes alone are a truncated file.
        if header.file_len() > header.header_len() {
            prop_assert_eq!(
                Header::parse(&bytes),
                Err(FormatError::LengthMismatch { declared: header.file_len(), actual: header.header_len() })
            );
        }
    }
}

fn two_by_two() -> Board {
    Board::new(2, 2).unwrap()
}

fn spec(goal: Layout, histogram: &[u64]) -> SectionSpec {
    SectionSpec {
        goal,
        histogram: histogram.to_vec(),
    }
}

fn build_error(board: Board, specs: Vec<SectionSpec>) -> String {
    Header::build(
        board,
        Encoding::Byte,
        CostModel::Unit,
        specs,
        PayloadSums::Whole(0),
    )
    .unwrap_err()
    .to_string()
}

/// The 2×2 board's one true histogram: a cycle of twelve states.
const CYCLE: [u64; 7] = [1, 2, 2, 2, 2, 2, 1];

#[test]
fn the_writer_refuses_what_the_reader_would() {
    let b = two_by_two();
    let goal = b.standard_goal();
    let other = b.goal_with_blank(0);
    assert!(Header::build(
        b,
        Encoding::Byte,
        CostModel::Unit,
        vec![spec(goal, &CYCLE)],
        PayloadSums::Whole(0)
    )
    .is_ok());

    assert_eq!(
        build_error(b, vec![spec(goal, &[1, 2, 2, 2, 2, 2, 2])]),
        "section 0: histogram adds up to 13, not 12 states"
    );
    assert_eq!(
        build_error(
            b,
            vec![spec(goal, &CYCLE), spec(other, &[1, 2, 2, 2, 2, 1])]
        ),
        "section 1: histogram adds up to 10, not 12 states"
    );
    assert_eq!(
        build_error(
            b,
            vec![spec(goal, &CYCLE), spec(other, &CYCLE), spec(goal, &CYCLE)]
        ),
        "section 2: goal 1 2 3 0 appears twice"
    );
    assert_eq!(
        build_error(b, vec![spec(goal, &[])]),
        "section 0: histogram is empty"
    );
    assert_eq!(
        build_error(b, vec![spec(goal, &[2, 1, 2, 2, 2, 2, 1])]),
        "section 0: histogram says 2 states at distance 0; exactly 1 (the goal) is possible"
    );
    assert_eq!(
        build_error(b, vec![spec(goal, &[1, 2, 2, 2, 2, 2, 1, 0])]),
        "section 0: histogram ends with no states at distance 7: the maximum distance must have some"
    );
    let mut deep = vec![0u64; 65];
    deep[0] = 1;
    deep[64] = 11;
    assert_eq!(
        build_error(b, vec![spec(goal, &deep)]),
        "section 0: maximum distance 64 does not fit the byte encoding"
    );
    assert_eq!(
        build_error(b, vec![]),
        "section count 0 is out of range (1..=4 for this board)"
    );
    let five: Vec<_> = ["1 2 3 0", "1 2 0 3", "1 0 2 3", "0 1 2 3", "3 2 1 0"]
        .iter()
        .map(|s| {
            spec(
                slidetable_core::parse_layout(b, s.as_bytes()).unwrap(),
                &CYCLE,
            )
        })
        .collect();
    assert_eq!(
        build_error(b, five),
        "section count 5 is out of range (1..=4 for this board)"
    );
}

#[test]
fn every_code_and_name_reads_back_as_its_encoding_or_cost_model() {
    // Every byte a header's field can hold: the documented codes and no others.
    for code in 0..=u8::MAX {
        let encoding = Encoding::from_code(code);
        assert_eq!(
            encoding.is_some(),
            (1..=3).contains(&code),
            "encoding code {code}"
        );
        if let Some(e) = encoding {
            assert_eq!(e as u8, code);
            assert_eq!(Encoding::from_name(e.name()), Some(e));
        }
        let cost = CostModel::from_code(code);
        assert_eq!(cost.is_some(), code <= 1, "cost code {code}");
        if let Some(c) = cost {
            assert_eq!(c as u8, code);
            assert_eq!(CostModel::from_name(c.name()), Some(c));
        }
    }
    let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
    assert_eq!(names, ["byte", "2bit", "wide16"]);
    let names: Vec<&str> = CostModel::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["unit", "tile"]);
    assert_eq!(Encoding::from_name("bytes"), None);
    assert_eq!(CostModel::from_name(""), None);
}

/// Past 14 cells a table of every state is one of 2-bit entries (the one search that ranks
/// in 64 bits); up to 14, of any encoding.
#[test]
fn tables_past_fourteen_cells_are_two_bit_ones() {
    use slidetable_format::table_board;
    for (rows, cols) in [(3, 5), (5, 3), (4, 4), (2, 8), (8, 2)] {
        let board = Board::new(rows, cols).unwrap();
        assert!(table_board(board, Encoding::TwoBit), "{board}");
        assert!(!table_board(board, Encoding::Byte), "{board}");
        assert!(!table_board(board, Encoding::Wide16), "{board}");
    }
    let board = Board::new(2, 7).unwrap();
    assert!(table_board(board, Encoding::Byte) && table_board(board, Encoding::TwoBit));
}
