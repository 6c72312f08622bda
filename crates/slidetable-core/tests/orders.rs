//! `Move::parse_order` against its definition, over every string of up to five characters
//! from the move letters in both cases and two others.

use slidetable_core::{Move, OrderError};

/// An order, by its definition: exactly four characters, each a move letter in either case,
/// no move twice; the moves in the order given.
fn by_definition(s: &str) -> Option<[Move; 4]> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 4 {
        return None;
    }
    let mut moves = Vec::new();
    for c in chars {
        let m = match c {
            'u' | 'U' => Move::Up,
            'd' | 'D' => Move::Down,
            'l' | 'L' => Move::Left,
            'r' | 'R' => Move::Right,
            _ => return None,
        };
        if moves.contains(&m) {
            return None;
        }
        moves.push(m);
    }
    Some([moves[0], moves[1], moves[2], moves[3]])
}

#[test]
fn every_short_string_is_an_order_exactly_when_the_definition_says() {
    let alphabet: Vec<char> = "udlrUDLRxé".chars().collect();
    let (mut strings, mut orders) = (0, 0);
    let mut current = vec![String::new()];
    for _ in 0..=5 {
        let mut next = Vec::new();
        for s in &current {
            strings += 1;
            let got = Move::parse_order(s);
            match by_definition(s) {
                Some(order) => {
                    orders += 1;
                    assert_eq!(got, Ok(order), "{s:?}");
                }
                None => assert_eq!(got, Err(OrderError(s.clone())), "{s:?}"),
            }
            for &c in &alphabet {
                next.push(format!("{s}{c}"));
            }
        }
        current = next;
    }
    // Every length 0..=5 over 10 characters; 24 orders of the moves, each letter in two cases.
    assert_eq!(strings, (0..=5).map(|n| 10u32.pow(n)).sum::<u32>());
    assert_eq!(orders, 24 * 16);
}

#[test]
fn the_message_names_the_text_and_the_letters() {
    let err = Move::parse_order("dlrr").unwrap_err();
    assert_eq!(
        err.to_string(),
        "'dlrr' is not an order of the four moves: give each of d, l, r, u once (e.g. dlru)"
    );
}
