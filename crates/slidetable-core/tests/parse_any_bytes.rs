//! The fuzz target `puzzle_line` (see `fuzz/`) as property tests on stable: the same checks
//! (`properties/mod.rs`) over arbitrary bytes and over lines that are almost puzzles, and every
//! input in `tests/regressions/puzzle_line/` replayed.

use proptest::prelude::*;
use slidetable_core::Board;

use crate::properties;
use properties::{check_line, puzzle_line, BOARDS};

fn board() -> impl Strategy<Value = Board> {
    prop::sample::select(BOARDS.to_vec()).prop_map(|(r, c)| Board::new(r, c).unwrap())
}

/// Bytes that matter to the grammar, and some that must be refused.
const INTERESTING: &[u8] = b"0123456789xX ,\t\r\n\x0b\x0c#-+a\0\xff\xef";

/// A real puzzle for `board` written as tokens (some as strings, some zero-padded), its
/// separators varied, then damaged by up to four edits: a byte inserted, deleted or replaced,
/// or two tokens swapped.
fn almost_a_puzzle() -> impl Strategy<Value = (Board, Vec<u8>)> {
    (board(), any::<u64>()).prop_flat_map(|(board, seed)| {
        let n = board.cells();
        let tiles = Just((0..n as u8).collect::<Vec<u8>>()).prop_shuffle();
        let seps = prop::collection::vec(prop::sample::select(vec![" ", ",", ", ", "\t", "  "]), n);
        let string = any::<bool>();
        let edits = prop::collection::vec(
            (
                0..4u8,
                any::<usize>(),
                prop::sample::select(INTERESTING.to_vec()),
            ),
            0..=4,
        );
        (tiles, seps, string, edits).prop_map(move |(tiles, seps, string, edits)| {
            let mut line = Vec::new();
            if string && n <= 10 {
                line.extend(tiles.iter().map(|&t| if t == 0 { b'x' } else { b'0' + t }));
            } else {
                for (i, (&t, sep)) in tiles.iter().zip(&seps).enumerate() {
                    let token = match (t, (seed >> i) & 3) {
                        (0, 0) => "x".to_string(),
                        (0, 1) => "X".to_string(),
                        (t, 2) => format!("{t:03}"),
                        (t, _) => t.to_string(),
                    };
                    line.extend_from_slice(token.as_bytes());
                    line.extend_from_slice(sep.as_bytes());
                }
            }
            for (kind, at, byte) in edits {
                let at = at % (line.len() + 1);
                match kind {
                    0 => line.insert(at, byte),
                    1 if at < line.len() => {
                        line.remove(at);
                    }
                    2 if at < line.len() => line[at] = byte,
                    _ => swap_tokens(&mut line, at),
                }
            }
            (board, line)
        })
    })
}

/// Swaps the token starting at or after `at` with the first token.
fn swap_tokens(line: &mut Vec<u8>, at: usize) {
    let text = String::from_utf8_lossy(line).into_owned();
    let mut tokens: Vec<&str> = text.split(' ').collect();
    if tokens.len() > 1 {
        let i = at % tokens.len();
        tokens.swap(0, i);
        *line = tokens.join(" ").into_bytes();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn any_bytes_are_a_puzzle_or_a_one_line_error(
        pick in any::<u8>(),
        line in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut data = vec![pick];
        data.extend_from_slice(&line);
        puzzle_line(&data);
    }

    #[test]
    fn bytes_of_the_grammar_are_a_puzzle_or_a_one_line_error(
        board in board(),
        line in prop::collection::vec(prop::sample::select(INTERESTING.to_vec()), 0..48),
    ) {
        check_line(board, &line);
    }

    #[test]
    fn almost_a_puzzle_is_a_puzzle_or_a_one_line_error((board, line) in almost_a_puzzle()) {
        check_line(board, &line);
    }
}

proptest! {
    #[test]
    fn an_undamaged_puzzle_always_reads(
        board in board(),
        shuffled in Just((0u8..16).collect::<Vec<u8>>()).prop_shuffle(),
    ) {
        // A random permutation of the board's tiles, one token each.
        let n = board.cells();
        let line: Vec<String> = shuffled
            .iter()
            .filter(|&&t| usize::from(t) < n)
            .map(u8::to_string)
            .collect();
        prop_assert!(check_line(board, line.join(" ").as_bytes()).is_some());
    }
}

/// Every input a fuzzer ever crashed `puzzle_line` with, replayed.
#[test]
fn regressions_replay() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions/puzzle_line");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        println!("replaying {}", path.display());
        puzzle_line(&std::fs::read(&path).unwrap());
    }
}

proptest! {
    /// `characters` cuts any bytes into pieces that join back into them, each one UTF-8
    /// character whole or one byte that begins none, and a text into exactly its characters.
    #[test]
    fn characters_cut_any_bytes_into_whole_characters_or_single_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        text in ".{0,32}",
    ) {
        let pieces: Vec<&[u8]> = slidetable_core::characters(&bytes).collect();
        prop_assert_eq!(pieces.concat(), bytes.clone());
        for piece in &pieces {
            let whole = std::str::from_utf8(piece).is_ok_and(|s| s.chars().count() == 1);
            prop_assert!(whole || piece.len() == 1, "{:?}", piece);
        }
        let pieces: Vec<&[u8]> = slidetable_core::characters(text.as_bytes()).collect();
        let chars: Vec<String> = text.chars().map(String::from).collect();
        let expected: Vec<&[u8]> = chars.iter().map(|c| c.as_bytes()).collect();
        prop_assert_eq!(pieces, expected);
    }
}
