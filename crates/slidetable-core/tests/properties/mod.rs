//! What the puzzle-line parser promises about any bytes, written once and checked twice: by
//! the property tests in `tests/parse_any_bytes.rs` (stable, every `cargo test`) and by the
//! fuzz target `puzzle_line` in `fuzz/` (nightly, libFuzzer), which includes this file by path.
//! No proptest here, so that both can build it.
//!
//! The promise: `parse_layout` returns — no panic — either an error whose message is one line,
//! or a layout of the board asked for that is a permutation of its tiles, reads back the same
//! from its own printed form, and is exactly what a plain reading of the documented grammar
//! (below, [`reference`]) gives.

#![allow(dead_code)] // each includer uses its own part

use slidetable_core::{parse_layout, Board, Layout};

/// The boards the fuzz target tries, chosen by the input's first byte: the 8-puzzle, the
/// smallest table board, one with two-digit tiles, and the 15-puzzle (no table, but parsed).
pub(crate) const BOARDS: [(usize, usize); 4] = [(3, 3), (2, 3), (3, 4), (4, 4)];

/// Fuzz target `puzzle_line`: the first byte picks the board, the rest is the line.
pub(crate) fn puzzle_line(data: &[u8]) {
    let Some((&pick, line)) = data.split_first() else {
        return;
    };
    let (rows, cols) = BOARDS[usize::from(pick) % BOARDS.len()];
    check_line(Board::new(rows, cols).unwrap(), line);
}

/// Parses `line` for `board` and checks the answer (see the module's doc).
pub(crate) fn check_line(board: Board, line: &[u8]) -> Option<Layout> {
    let parsed = parse_layout(board, line);
    let want = reference(board, line);
    match &parsed {
        Ok(layout) => {
            assert_eq!(layout.board(), board);
            let mut tiles = layout.tiles().to_vec();
            tiles.sort_unstable();
            assert!(
                tiles.iter().enumerate().all(|(i, &t)| usize::from(t) == i),
                "{line:?} read as {layout}, not a permutation"
            );
            assert_eq!(layout.tile(layout.blank()), 0);
            let printed = layout.to_string();
            assert_eq!(parse_layout(board, printed.as_bytes()).as_ref(), Ok(layout));
            assert_eq!(
                Some(layout.tiles()),
                want.as_deref(),
                "{line:?} read as {layout}"
            );
        }
        Err(e) => {
            let message = e.to_string();
            assert!(
                !message.is_empty() && !message.contains(['\n', '\r']),
                "{line:?}: message {message:?}"
            );
            assert_eq!(
                want, None,
                "{line:?} refused ({message}) but reads as {want:?}"
            );
        }
    }
    parsed.ok()
}

/// The grammar, read the plain way: tokens between separators (space, tab, comma, CR, LF, VT,
/// FF); one token of exactly n characters on a board of at most ten cells is a string with a
/// tile per character; otherwise n tokens, each `x`, `X` or a decimal number of at most three
/// digits; together a permutation of 0..n.
pub(crate) fn reference(board: Board, line: &[u8]) -> Option<Vec<u8>> {
    let n = board.cells();
    let tokens: Vec<&[u8]> = line
        .split(|b| matches!(b, b' ' | b'\t' | b',' | b'\r' | b'\n' | 0x0b | 0x0c))
        .filter(|t| !t.is_empty())
        .collect();
    let tiles: Vec<u32> = match tokens.as_slice() {
        [one] if n <= 10 && one.len() > 1 => {
            one.iter().map(|&c| tile(&[c])).collect::<Option<_>>()?
        }
        _ => tokens.iter().map(|t| tile(t)).collect::<Option<_>>()?,
    };
    if tiles.len() != n {
        return None;
    }
    let mut seen = vec![false; n];
    for &t in &tiles {
        let slot = seen.get_mut(t as usize)?;
        if std::mem::replace(slot, true) {
            return None;
        }
    }
    Some(tiles.iter().map(|&t| t as u8).collect())
}

fn tile(token: &[u8]) -> Option<u32> {
    match token {
        b"x" | b"X" => Some(0),
        _ if (1..=3).contains(&token.len()) && token.iter().all(u8::is_ascii_digit) => {
            std::str::from_utf8(token).ok()?.parse().ok()
        }
        _ => None,
    }
}
