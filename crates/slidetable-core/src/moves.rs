//! Moves, named as the judges name them: the direction the blank travels.

use std::fmt;

/// One move: the direction in which the blank moves (the tile it swaps with moves the other way).
///
/// The discriminants are the 2-bit codes stored in tables: u = 0, d = 1, l = 2, r = 3.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Move {
    /// The blank moves up (the tile above it slides down).
    Up = 0,
    /// The blank moves down.
    Down = 1,
    /// The blank moves left.
    Left = 2,
    /// The blank moves right.
    Right = 3,
}

impl Move {
    /// All moves in code order (u d l r).
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move with this 2-bit code (only the low two bits are read).
    #[inline]
    pub fn from_code(code: u8) -> Move {
        Move::ALL[(code & 3) as usize]
    }

    /// The move's 2-bit code, as stored in tables.
    #[inline]
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The move that undoes this one.
    #[inline]
    pub fn opposite(self) -> Move {
        // u<->d and l<->r differ in the low bit.
        Move::from_code(self.code() ^ 1)
    }

    /// The judges' letter: `u`, `d`, `l` or `r`.
    #[inline]
    pub fn letter(self) -> char {
        b"udlr"[self as usize] as char
    }

    /// Reads `u d l r`, in either case.
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_lowercase() {
            'u' => Some(Move::Up),
            'd' => Some(Move::Down),
            'l' => Some(Move::Left),
            'r' => Some(Move::Right),
            _ => None,
        }
    }

    /// Reads an order of the four moves, each letter once, in either case (`dlru`): the
    /// order in which a search tries them (`path --order`, Python's `order=`).
    pub fn parse_order(s: &str) -> Result<[Move; 4], OrderError> {
        let moves: Vec<Move> = s.chars().filter_map(Move::from_letter).collect();
        let mut seen = [false; 4];
        for m in &moves {
            seen[m.code() as usize] = true;
        }
        if s.chars().count() != 4 || moves.len() != 4 || seen.contains(&false) {
            return Err(OrderError(s.to_string()));
        }
        Ok([moves[0], moves[1], moves[2], moves[3]])
    }
}

/// Text that is not an order of the four moves (see [`Move::parse_order`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an order of the four moves: give each of d, l, r, u once (e.g. dlru)")]
pub struct OrderError(pub String);

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Writes a path as a string of move letters, e.g. `ullddr`.
pub fn path_string(path: &[Move]) -> String {
    path.iter().map(|m| m.letter()).collect()
}

/// Reads a string of move letters (`u d l r`, either case).
pub fn parse_path(s: &str) -> Option<Vec<Move>> {
    s.chars().map(Move::from_letter).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_letters_and_opposites_round_trip() {
        for m in Move::ALL {
            assert_eq!(Move::from_code(m.code()), m);
            assert_eq!(Move::from_letter(m.letter()), Some(m));
            assert_eq!(m.opposite().opposite(), m);
            assert_ne!(m.opposite(), m);
        }
        assert_eq!(Move::Up.opposite(), Move::Down);
        assert_eq!(Move::Left.opposite(), Move::Right);
        assert_eq!(path_string(&parse_path("ullddr").unwrap()), "ullddr");
        assert_eq!(parse_path("uxd"), None);
    }
}
