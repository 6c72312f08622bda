//! The symmetries of a board (rotations and reflections that map it onto itself), acting on
//! cells, moves and layouts. A layout and its image under a symmetry, with tiles renamed
//! alike, are the same puzzle: equal distances, paths mapped move by move. This lets one
//! table or database serve every goal with the blank in a corresponding cell.

use crate::{Board, Layout, Move, MAX_CELLS};

/// One rotation or reflection of a board onto itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    board: Board,
    /// `cells[c]`: where cell `c` goes.
    cells: [u8; MAX_CELLS],
    /// `moves[m.code()]`: what a blank move in direction `m` becomes.
    moves: [Move; 4],
}

/// Where cell `c` of a `rows`×`cols` board goes under the symmetry that transposes the
/// board (square boards only), then flips its rows, then its columns, as `turn` says: the
/// one definition of the board's symmetries, for [`Symmetry`] and
/// [`Symmetry25`](crate::Symmetry25).
pub(crate) fn image(
    (rows, cols): (usize, usize),
    (transpose, flip_rows, flip_cols): (bool, bool, bool),
    c: usize,
) -> usize {
    let (mut r, mut k) = (c / cols, c % cols);
    if transpose {
        (r, k) = (k, r);
    }
    if flip_rows {
        r = rows - 1 - r;
    }
    if flip_cols {
        k = cols - 1 - k;
    }
    r * cols + k
}

impl Symmetry {
    /// Every symmetry of `board`: 8 on a square board, 4 on another (the identity first).
    pub fn all(board: Board) -> Vec<Symmetry> {
        let (rows, cols) = (board.rows(), board.cols());
        let mut out = Vec::with_capacity(8);
        for transpose in [false, true] {
            if transpose && rows != cols {
                continue;
            }
            for flip_rows in [false, true] {
                for flip_cols in [false, true] {
                    let mut cells = [0u8; MAX_CELLS];
                    for (c, to) in cells.iter_mut().enumerate().take(board.cells()) {
                        *to = image((rows, cols), (transpose, flip_rows, flip_cols), c) as u8;
                    }
                    let mut moves = Move::ALL;
                    for m in Move::ALL {
                        let c = (0..board.cells())
                            .find(|&c| board.neighbor(c, m).is_some())
                            .expect("every board of 2x2 or more has every move");
                        let n = board.neighbor(c, m).expect("found above");
                        let (from, to) = (cells[c] as usize, cells[n] as usize);
                        moves[m.code() as usize] = Move::ALL
                            .into_iter()
                            .find(|&d| board.neighbor(from, d) == Some(to))
                            .expect("a symmetry keeps neighbours neighbours");
                    }
                    out.push(Symmetry {
                        board,
                        cells,
                        moves,
                    });
                }
            }
        }
        out
    }

    /// Where cell `c` goes.
    #[inline]
    pub fn cell(&self, c: usize) -> usize {
        self.cells[c] as usize
    }

    /// What a blank move in direction `m` becomes.
    #[inline]
    pub fn apply_move(&self, m: Move) -> Move {
        self.moves[m.code() as usize]
    }

    /// The symmetry that undoes this one.
    pub fn inverse(&self) -> Symmetry {
        let mut cells = [0u8; MAX_CELLS];
        for c in 0..self.board.cells() {
            cells[self.cells[c] as usize] = c as u8;
        }
        let mut moves = Move::ALL;
        for m in Move::ALL {
            moves[self.apply_move(m).code() as usize] = m;
        }
        Symmetry {
            board: self.board,
            cells,
            moves,
        }
    }

    /// `layout` moved by this symmetry, each tile `t` renamed `rename[t]` (which must fix 0
    /// and be a permutation of the tiles).
    pub fn layout(&self, layout: &Layout, rename: &[u8; MAX_CELLS]) -> Layout {
        let mut tiles = [0u8; MAX_CELLS];
        for (c, &t) in layout.tiles().iter().enumerate() {
            tiles[self.cells[c] as usize] = rename[t as usize];
        }
        Layout::new(self.board, &tiles[..self.board.cells()])
            .expect("a symmetry keeps a permutation")
    }

    /// The renaming that makes this symmetry carry `from` onto `to`: `rename[from's tile in
    /// c] = to's tile in self.cell(c)`. `None` unless it carries the blank onto the blank.
    pub fn renaming(&self, from: &Layout, to: &Layout) -> Option<[u8; MAX_CELLS]> {
        if self.cell(from.blank()) != to.blank() || from.board() != to.board() {
            return None;
        }
        let mut rename = [0u8; MAX_CELLS];
        for (c, &t) in from.tiles().iter().enumerate() {
            rename[t as usize] = to.tile(self.cell(c));
        }
        Some(rename)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_and_keep_moves_moves() {
        for (r, c, count) in [(4, 4, 8), (3, 3, 8), (2, 4, 4), (3, 4, 4)] {
            let board = Board::new(r, c).unwrap();
            let all = Symmetry::all(board);
            assert_eq!(all.len(), count);
            for (i, s) in all.iter().enumerate() {
                assert!(all[..i].iter().all(|o| o.cells != s.cells));
                let back = s.inverse();
                for cell in 0..board.cells() {
                    assert_eq!(back.cell(s.cell(cell)), cell);
                    for m in Move::ALL {
                        let image = board.neighbor(cell, m).map(|n| s.cell(n));
                        assert_eq!(board.neighbor(s.cell(cell), s.apply_move(m)), image);
                    }
                }
            }
        }
    }

    #[test]
    fn a_rotation_carries_korfs_goal_onto_the_standard_one() {
        let board = Board::new(4, 4).unwrap();
        let korf = board.goal_with_blank(0);
        let standard = board.standard_goal();
        let s = Symmetry::all(board)
            .into_iter()
            .find(|s| s.cell(0) == 15 && s.cell(1) == 14)
            .unwrap();
        let rename = s.renaming(&standard, &korf).unwrap();
        assert_eq!(s.layout(&standard, &rename), korf);
        // A path maps move by move: the image of the moved layout is the moved image.
        let start = standard.moved(Move::Up).unwrap();
        assert_eq!(
            s.layout(&start, &rename),
            korf.moved(s.apply_move(Move::Up)).unwrap()
        );
    }
}
