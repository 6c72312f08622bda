//! Precomputed moves per blank cell, and moves on the packed form: what hot loops use
//! instead of [`Board::neighbor`]'s divisions and [`crate::Layout`]'s byte writes.

use crate::{Board, Move, MAX_CELLS};

const NONE: u8 = u8::MAX;

/// For every cell of a board, where the blank goes with each move.
#[derive(Clone, Copy, Debug)]
pub struct Neighbors {
    to: [[u8; 4]; MAX_CELLS],
    legal: [[(Move, u8); 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
}

impl Neighbors {
    /// The moves of every cell of `board`.
    pub fn new(board: Board) -> Neighbors {
        let mut n = Neighbors {
            to: [[NONE; 4]; MAX_CELLS],
            legal: [[(Move::Up, 0); 4]; MAX_CELLS],
            count: [0; MAX_CELLS],
        };
        for cell in 0..board.cells() {
            for m in Move::ALL {
                if let Some(to) = board.neighbor(cell, m) {
                    n.to[cell][m as usize] = to as u8;
                    n.legal[cell][n.count[cell] as usize] = (m, to as u8);
                    n.count[cell] += 1;
                }
            }
        }
        n
    }

    /// The cell the blank reaches from `cell` with move `m`, if on the board.
    #[inline]
    pub fn of(&self, cell: usize, m: Move) -> Option<usize> {
        let to = self.to[cell][m as usize];
        (to != NONE).then_some(to as usize)
    }

    /// The legal moves from `cell`, in code order, with the cells they lead to.
    #[inline]
    pub fn from(&self, cell: usize) -> &[(Move, u8)] {
        &self.legal[cell][..self.count[cell] as usize]
    }
}

/// The packed layout (see [`crate::Layout::packed`]) after the blank in `blank` swaps with
/// the tile in `to`.
#[inline]
pub fn slide(packed: u64, blank: usize, to: usize) -> u64 {
    let tile = (packed >> (4 * to)) & 0xF;
    (packed & !(0xF << (4 * to))) | (tile << (4 * blank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_board_and_the_layout() {
        for (r, c) in [(2, 2), (3, 3), (3, 4), (4, 4)] {
            let board = Board::new(r, c).unwrap();
            let n = Neighbors::new(board);
            let goal = board.standard_goal();
            for cell in 0..board.cells() {
                for m in Move::ALL {
                    assert_eq!(n.of(cell, m), board.neighbor(cell, m));
                }
                let listed: Vec<Move> = n.from(cell).iter().map(|&(m, _)| m).collect();
                let legal: Vec<Move> = board.goal_with_blank(cell).moves().collect();
                assert_eq!(listed, legal);
            }
            for (m, to) in n.from(goal.blank()).iter().copied() {
                let moved = goal.moved(m).unwrap();
                assert_eq!(
                    slide(goal.packed(), goal.blank(), to as usize),
                    moved.packed()
                );
            }
        }
    }
}
