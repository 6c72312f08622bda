//! Reading puzzles as people and judges write them.
//!
//! A puzzle is either tokens separated by spaces, tabs or commas (`2 3 4 1 5 x 7 6 8`,
//! `1,2,3,4,5,6,7,8,0`, or `10 11` style tokens on larger boards), or — on boards of at most
//! ten cells — one string with a character per cell (`23415x768`). The blank is `0`, `x` or `X`.
//! Input is taken as bytes: invalid UTF-8 or NUL bytes are named in the error, never a panic.

use std::fmt;

use crate::{Board, Layout, LayoutError, MAX_CELLS};

/// Why a line is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// A token that is no tile of the board.
    #[error("unknown tile '{token}' (tiles are 1..{max}, the blank is 0 or x)", max = board.cells() - 1)]
    UnknownToken {
        /// The token, quoted.
        token: Token,
        /// The board.
        board: Board,
    },
    /// The tiles read do not make a layout.
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// A token quoted in an error: printable ASCII as is, anything else escaped, long ones cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    const SHOWN: usize = 24;

    /// Quotes `bytes` for an error message.
    pub fn new(bytes: &[u8]) -> Token {
        let shown = &bytes[..bytes.len().min(Self::SHOWN)];
        let mut s = shown.escape_ascii().to_string();
        if bytes.len() > Self::SHOWN {
            s.push('…');
        }
        Token(s)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The characters of `bytes` as the readers of one-character tiles name them in errors:
/// each character of UTF-8 whole (`é` is `\xc3\xa9`, as a token of it is quoted), any other
/// byte alone. An ASCII byte costs one comparison: the judges read every tile so.
pub fn characters(bytes: &[u8]) -> Characters<'_> {
    Characters(bytes)
}

/// The iterator of [`characters`].
#[derive(Clone, Debug)]
pub struct Characters<'a>(&'a [u8]);

impl<'a> Iterator for Characters<'a> {
    type Item = &'a [u8];

    #[inline(always)]
    fn next(&mut self) -> Option<&'a [u8]> {
        let &lead = self.0.first()?;
        if lead < 0x80 {
            let (c, rest) = self.0.split_at(1);
            self.0 = rest;
            return Some(c);
        }
        let width = match lead {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 1,
        };
        let width = match self.0.get(..width) {
            Some(c) if width > 1 && std::str::from_utf8(c).is_ok() => width,
            _ => 1,
        };
        let (c, rest) = self.0.split_at(width);
        self.0 = rest;
        Some(c)
    }
}

/// Whitespace as C's `isspace` takes it (space, `\t`, `\n`, `\v`, `\f`, `\r`): what
/// separates tokens for `scanf` and `cin`, so for the judges' readers as for the lines here.
#[inline]
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

#[inline]
pub(crate) fn is_separator(b: u8) -> bool {
    b == b',' || is_space(b)
}

/// Whether a line carries no puzzle: empty, only separators, or a comment starting with `#`.
pub fn is_blank_or_comment(line: &[u8]) -> bool {
    match line.iter().position(|&b| !is_separator(b)) {
        None => true,
        Some(i) => line[i] == b'#',
    }
}

/// The value of one token: a decimal tile number, or the blank as `0`/`x`/`X`.
#[inline]
pub fn parse_tile(board: Board, token: &[u8]) -> Result<u8, ParseError> {
    match token {
        [b'x' | b'X'] => Ok(0),
        _ if token.len() <= 3 && token.iter().all(u8::is_ascii_digit) => {
            let v = token
                .iter()
                .fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
            if v as usize >= board.cells() {
                Err(LayoutError::OutOfRange {
                    tile: v.into(),
                    board,
                }
                .into())
            } else {
                Ok(v as u8)
            }
        }
        _ => Err(ParseError::UnknownToken {
            token: Token::new(token),
            board,
        }),
    }
}

/// Reads one puzzle for `board` from a line (without its line end; a trailing `\r` is fine).
pub fn parse_layout(board: Board, line: &[u8]) -> Result<Layout, ParseError> {
    if let Some(layout) = spaced_digits(board, line) {
        return Ok(layout);
    }
    if let Some(layout) = single_characters(board, line) {
        return Ok(layout);
    }
    parse_general(board, line)
}

/// The most common spelling, fastest: one digit per tile, one space between digits, nothing
/// else (`2 3 4 1 5 0 7 6 8`), a valid permutation: a fixed stride, no state machine.
/// Anything else is left to [`single_characters`].
#[inline]
fn spaced_digits(board: Board, line: &[u8]) -> Option<Layout> {
    let (packed, blank) = parse_spaced_packed(board, line)?;
    let mut tiles = [0u8; MAX_CELLS];
    for (cell, tile) in tiles.iter_mut().enumerate().take(board.cells()) {
        *tile = ((packed >> (4 * cell)) & 0xF) as u8;
    }
    Some(Layout::from_parts(board, tiles, blank))
}

/// A puzzle in the commonest spelling — one digit per tile, one space between digits, nothing
/// else (`2 3 4 1 5 0 7 6 8`, boards of at most ten cells) — as [`Layout::packed`] tiles and
/// the blank's cell, if the digits are a permutation of the board's tiles; `None` for any
/// other line, which [`parse_layout`] reads (or refuses) as it would anyway. What a batch
/// reads straight from its input's bytes, without building a [`Layout`].
#[inline]
pub fn parse_spaced_packed(board: Board, line: &[u8]) -> Option<(u64, usize)> {
    match board.cells() {
        // The 8-puzzle's loop unrolled.
        9 => spaced_packed::<9>(line),
        n if n <= 10 => spaced_packed_n(n, line),
        _ => None,
    }
}

/// [`parse_spaced_packed`] on a board of `N` cells.
#[inline(always)]
fn spaced_packed<const N: usize>(line: &[u8]) -> Option<(u64, usize)> {
    spaced_packed_n(N, line)
}

/// [`parse_spaced_packed`] on a board of `n` ≤ 10 cells.
#[inline(always)]
fn spaced_packed_n(n: usize, line: &[u8]) -> Option<(u64, usize)> {
    if line.len() != 2 * n - 1 {
        return None;
    }
    let mut packed = 0u64;
    let mut seen = 0u32;
    // Every tile's bits or'ed: below 16 when every byte was a digit or at most 15 past '0'.
    let mut any = 0u8;
    let mut spaces = true;
    let mut blank = 0;
    for cell in 0..n {
        let t = line[2 * cell].wrapping_sub(b'0');
        if cell + 1 < n {
            spaces &= line[2 * cell + 1] == b' ';
        }
        any |= t;
        seen |= 1 << (t & 0xF);
        packed |= u64::from(t & 0xF) << (4 * cell);
        blank += cell * usize::from(t == 0);
    }
    // n tiles below 16 setting exactly the bits 0..n: each of 0..n once.
    (spaces && any < 16 && seen == (1u32 << n) - 1).then_some((packed, blank))
}

/// The common case, fast: single-character tiles between separators, a valid permutation.
/// Anything else (a string puzzle, long tokens, any error) is left to [`parse_general`], so
/// errors are reported in one place.
#[inline]
fn single_characters(board: Board, line: &[u8]) -> Option<Layout> {
    let n = board.cells();
    if n > 10 {
        return None;
    }
    let mut tiles = [0u8; MAX_CELLS];
    let mut count = 0;
    let mut seen = 0u32;
    let mut blank = 0;
    let mut in_token = false;
    for &b in line {
        let tile = match b {
            b'0'..=b'9' => b - b'0',
            b'x' | b'X' => 0,
            _ if is_separator(b) => {
                in_token = false;
                continue;
            }
            _ => return None,
        };
        if in_token || count == n || tile as usize >= n || seen & (1 << tile) != 0 {
            return None;
        }
        in_token = true;
        seen |= 1 << tile;
        if tile == 0 {
            blank = count;
        }
        tiles[count] = tile;
        count += 1;
    }
    (count == n).then(|| Layout::from_parts(board, tiles, blank))
}

/// Every accepted spelling, with a precise error for anything else.
fn parse_general(board: Board, line: &[u8]) -> Result<Layout, ParseError> {
    let n = board.cells();
    let mut tiles = [0u8; MAX_CELLS];
    let mut found = 0usize;
    // A first token longer than one character may be a whole puzzle (`23415x768`): it is
    // read as a tile only once a second token shows it is not.
    let mut first = 0..0;
    let mut i = 0;
    while i < line.len() {
        if is_separator(line[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && !is_separator(line[i]) {
            i += 1;
        }
        let token = &line[start..i];
        if found == 0 && token.len() > 1 && n <= 10 {
            first = start..i;
        } else {
            if found == 1 && !first.is_empty() {
                tiles[0] = parse_tile(board, &line[first.clone()])?;
            }
            let tile = parse_tile(board, token)?;
            if found < n {
                tiles[found] = tile;
            }
        }
        found += 1;
    }
    if found == 1 && !first.is_empty() {
        // One string, one character per cell. A character that is no tile is named before
        // the length is counted: `hello` is no 5 tiles.
        let token = &line[first];
        if let Some(c) =
            characters(token).find(|c| !(c[0].is_ascii_digit() || matches!(c[0], b'x' | b'X')))
        {
            return Err(ParseError::UnknownToken {
                token: Token::new(c),
                board,
            });
        }
        if token.len() != n {
            return Err(LayoutError::WrongCount {
                expected: n,
                found: token.len(),
            }
            .into());
        }
        for (cell, ch) in token.chunks(1).enumerate() {
            tiles[cell] = parse_tile(board, ch)?;
        }
    } else if found != n {
        return Err(LayoutError::WrongCount { expected: n, found }.into());
    }
    Ok(Layout::new(board, &tiles[..n])?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_whole_utf8_sequences_and_other_bytes_alone() {
        let all: Vec<&[u8]> = characters("1é€😀x".as_bytes()).collect();
        assert_eq!(
            all,
            [
                &b"1"[..],
                "é".as_bytes(),
                "€".as_bytes(),
                "😀".as_bytes(),
                b"x"
            ]
        );
        // A lead byte without its continuation, a lone continuation, an overlong form, a
        // cut sequence at the end: each byte alone.
        let odd: Vec<&[u8]> = characters(b"\xc3x\x80\xc0\xaf\xe2\x82").collect();
        assert_eq!(
            odd,
            [
                &b"\xc3"[..],
                b"x",
                b"\x80",
                b"\xc0",
                b"\xaf",
                b"\xe2",
                b"\x82"
            ]
        );
        assert_eq!(characters(b"").count(), 0);
    }

    fn p(s: &str) -> Result<Layout, String> {
        parse_layout(Board::EIGHT, s.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_every_accepted_spelling() {
        let want = [2, 3, 4, 1, 5, 0, 7, 6, 8];
        for s in [
            "2 3 4 1 5 x 7 6 8",
            "2 3 4 1 5 0 7 6 8",
            "2,3,4,1,5,X,7,6,8",
            "  2, 3, 4,\t1 5 x 7 6 8 \r",
            "23415x768",
            "234150768",
            "23415X768\r",
        ] {
            assert_eq!(p(s).unwrap().tiles(), &want, "{s:?}");
        }
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(
            p("1 2 3 4 5 6 7 8").unwrap_err(),
            "expected 9 tiles, found 8"
        );
        assert_eq!(
            p("1 2 3 4 5 6 7 8 0 1").unwrap_err(),
            "expected 9 tiles, found 10"
        );
        assert_eq!(p("12345678").unwrap_err(), "expected 9 tiles, found 8");
        assert_eq!(p("1 2 3 4 5 6 7 8 8").unwrap_err(), "tile 8 appears twice");
        assert_eq!(p("1 2 3 4 5 6 7 x x").unwrap_err(), "tile 0 appears twice");
        assert_eq!(
            p("1 2 3 4 5 6 7 9 0").unwrap_err(),
            "tile 9 is not on a 3x3 board (tiles are 1..8, the blank is 0)"
        );
        assert_eq!(
            p("1 2 3 4 5 6 7 a 0").unwrap_err(),
            "unknown tile 'a' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(
            p("1 2 3 4 5 6 7 \0 0").unwrap_err(),
            "unknown tile '\\x00' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(
            parse_layout(Board::EIGHT, b"1 2 3 4 5 6 7 \xff 0")
                .unwrap_err()
                .to_string(),
            "unknown tile '\\xff' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(
            p("1234a6780").unwrap_err(),
            "unknown tile 'a' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(p("").unwrap_err(), "expected 9 tiles, found 0");
        assert_eq!(
            p("hello").unwrap_err(),
            "unknown tile 'h' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(
            p("1 2 3 4 5 6 7 8 99999999999").unwrap_err(),
            "unknown tile '99999999999' (tiles are 1..8, the blank is 0 or x)"
        );
        assert_eq!(
            p("1 2 3 4 5 6 7 8 900").unwrap_err(),
            "tile 900 is not on a 3x3 board (tiles are 1..8, the blank is 0)"
        );
    }

    #[test]
    fn reads_two_digit_tiles_on_large_boards() {
        let b = Board::new(3, 4).unwrap();
        let l = parse_layout(b, b"1 2 3 4 5 6 7 8 9 10 11 0").unwrap();
        assert_eq!(l, b.standard_goal());
        let l = parse_layout(b, b"1,2,3,4,5,6,7,8,9,10,0,11").unwrap();
        assert_eq!(l.blank(), 10);
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The fast path answers exactly as the general parser would, errors included.
        #[test]
        fn the_fast_path_agrees_with_the_general_parser(
            line in prop::collection::vec(
                prop::sample::select(b"0123456789xX ,\t\ra#".to_vec()), 0..24),
            board in prop::sample::select(vec![(3, 3), (2, 3), (2, 5), (3, 4)]),
        ) {
            let board = Board::new(board.0, board.1).unwrap();
            prop_assert_eq!(parse_layout(board, &line), parse_general(board, &line));
        }

        #[test]
        fn the_fast_path_agrees_on_shuffled_puzzles(
            tiles in Just((0u8..9).collect::<Vec<u8>>()).prop_shuffle(),
            seps in prop::collection::vec(prop::sample::select(vec![" ", ",", "  ", ", ", "\t", ""]), 9),
        ) {
            let line: String = tiles.iter().zip(&seps).map(|(t, s)| format!("{t}{s}")).collect();
            prop_assert_eq!(
                parse_layout(Board::EIGHT, line.as_bytes()),
                parse_general(Board::EIGHT, line.as_bytes())
            );
        }

        /// Digits joined by single spaces (the spelling `spaced_digits` takes), then one
        /// byte changed or not: near misses go to the slower paths with the same answer.
        #[test]
        fn the_spaced_digits_path_agrees_with_the_general_parser(
            board in prop::sample::select(vec![(3, 3), (2, 3), (2, 5), (2, 2)]),
            order in prop::collection::vec(any::<prop::sample::Index>(), 10),
            change in prop::option::of((any::<prop::sample::Index>(), prop::sample::select(b"0123456789xX ,\t\r#\x00\xff".to_vec()))),
        ) {
            let board = Board::new(board.0, board.1).unwrap();
            let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
            for (i, pick) in order.iter().enumerate().take(tiles.len()) {
                let j = i + pick.index(tiles.len() - i);
                tiles.swap(i, j);
            }
            let text: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
            let mut line = text.join(" ").into_bytes();
            if let Some((at, byte)) = change {
                let at = at.index(line.len());
                line[at] = byte;
            }
            prop_assert_eq!(parse_layout(board, &line), parse_general(board, &line));
            // The packed form, where it reads the line, is the layout's.
            if let Some((packed, blank)) = parse_spaced_packed(board, &line) {
                let layout = parse_general(board, &line).unwrap();
                prop_assert_eq!((packed, blank), (layout.packed(), layout.blank()));
            }
        }
    }

    #[test]
    fn spaced_packed_reads_the_layouts_packed_form_or_nothing() {
        let b = Board::EIGHT;
        let l = parse_layout(b, b"2 3 4 1 5 x 7 6 8").unwrap();
        assert_eq!(
            parse_spaced_packed(b, b"2 3 4 1 5 0 7 6 8"),
            Some((l.packed(), 5))
        );
        // Other spellings, near misses and other boards' lines: not this one.
        for line in [
            &b"2 3 4 1 5 x 7 6 8"[..],
            b"2 3 4 1 5 0 7 6 8 ",
            b"2,3,4,1,5,0,7,6,8",
            b"2 3 4 1 5 0 7 6 6",
            b"2 3 4 1 5 0 7 6 9",
            b"2 3 4 1 5 0 7 6 ?",
            b"2 3 4 1 5 0 7 6  ",
            b"1 2 3 4 5 6 7 0",
            b"",
        ] {
            assert_eq!(parse_spaced_packed(b, line), None, "{line:?}");
        }
        let b = Board::new(2, 5).unwrap();
        let l = parse_layout(b, b"9 1 2 3 4 5 6 7 8 0").unwrap();
        assert_eq!(
            parse_spaced_packed(b, b"9 1 2 3 4 5 6 7 8 0"),
            Some((l.packed(), 9))
        );
        let b = Board::new(3, 4).unwrap();
        assert_eq!(parse_spaced_packed(b, b"1 2 3 4 5 6 7 8 9 10 11 0"), None);
    }

    #[test]
    fn skips_blank_and_comment_lines() {
        assert!(is_blank_or_comment(b""));
        assert!(is_blank_or_comment(b"  \r"));
        assert!(is_blank_or_comment(b"# 31 moves"));
        assert!(is_blank_or_comment(b"   # indented"));
        assert!(!is_blank_or_comment(b"1 2 3"));
    }
}
