//! Layouts of boards of up to 25 cells (the 24-puzzle's 5×5 among them): the state the
//! 24-puzzle's pattern databases and solver work on. [`Layout`](crate::Layout) packs a
//! board of at most 16 cells into 4-bit nibbles of a `u64`, the form every table and the
//! 15-puzzle's solver are fast on; a 25-cell board does not fit it, so it has this type of its
//! own, one byte a cell, and the ≤16-cell paths stay as they are.

use std::fmt;

use crate::{Move, Token, MAX_CELLS_25};

/// The tile in each cell of a board of `rows` × `cols` ≤ 25 cells, 0 being the blank. Always
/// a permutation of 0..n.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout25 {
    rows: u8,
    cols: u8,
    blank: u8,
    tiles: [u8; MAX_CELLS_25],
}

/// Why a list of tiles is not a [`Layout25`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Layout25Error {
    /// Fewer than 2 rows or columns, or more than 25 cells.
    #[error("a {rows}x{cols} board is not possible here (2 to {MAX_CELLS_25} cells, at least 2 rows and 2 columns)")]
    Board {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
    },
    /// Not one tile per cell.
    #[error("expected {expected} tiles, found {found}")]
    WrongCount {
        /// The board's cells.
        expected: usize,
        /// The tiles given.
        found: usize,
    },
    /// A tile number the board does not have.
    #[error("tile {tile} is not on a {rows}x{cols} board (tiles are 1..{}, the blank is 0)", rows * cols - 1)]
    OutOfRange {
        /// The value given as a tile, as it was given (as [`crate::LayoutError::OutOfRange`]).
        tile: i128,
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
    },
    /// A tile given twice.
    #[error("tile {tile} appears twice")]
    Repeated {
        /// The tile.
        tile: u8,
    },
    /// A token that is no number, in the words of [`crate::ParseError::UnknownToken`].
    #[error("unknown tile '{token}' (tiles are 1..{}, the blank is 0 or x)", rows * cols - 1)]
    NotANumber {
        /// The token, quoted.
        token: Token,
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
    },
}

impl Layout25 {
    /// The layout with `tiles[cell]` in each cell of a `rows` × `cols` board; refuses
    /// anything but a permutation of 0..n.
    pub fn new(rows: usize, cols: usize, tiles: &[u8]) -> Result<Layout25, Layout25Error> {
        if rows < 2 || cols < 2 || rows * cols > MAX_CELLS_25 {
            return Err(Layout25Error::Board { rows, cols });
        }
        let n = rows * cols;
        if tiles.len() != n {
            return Err(Layout25Error::WrongCount {
                expected: n,
                found: tiles.len(),
            });
        }
        let mut seen = 0u32;
        let mut cells = [0u8; MAX_CELLS_25];
        let mut blank = 0;
        for (cell, &t) in tiles.iter().enumerate() {
            if usize::from(t) >= n {
                return Err(Layout25Error::OutOfRange {
                    tile: t.into(),
                    rows,
                    cols,
                });
            }
            if seen & (1 << t) != 0 {
                return Err(Layout25Error::Repeated { tile: t });
            }
            seen |= 1 << t;
            cells[cell] = t;
            if t == 0 {
                blank = cell;
            }
        }
        Ok(Layout25 {
            rows: rows as u8,
            cols: cols as u8,
            blank: blank as u8,
            tiles: cells,
        })
    }

    /// Reads a layout of a `rows` × `cols` board from a line of tile numbers separated by
    /// spaces, tabs or commas (`14 5 9 2 18 …`, Korf's instances' spelling); the blank is
    /// `0`, `x` or `_`.
    pub fn parse(rows: usize, cols: usize, line: &str) -> Result<Layout25, Layout25Error> {
        Layout25::parse_bytes(rows, cols, line.as_bytes())
    }

    /// [`Layout25::parse`] of a line's bytes, under the rules of the smaller boards'
    /// [`crate::parse_layout`]: the first token that is no number named as its bytes (a byte
    /// that is no text escaped, `'\xff'`), then a wrong count of tiles, then a tile off the
    /// board or given twice.
    pub fn parse_bytes(rows: usize, cols: usize, line: &[u8]) -> Result<Layout25, Layout25Error> {
        let mut values = Vec::with_capacity(MAX_CELLS_25);
        for token in line
            .split(|&b| crate::parse::is_separator(b))
            .filter(|t| !t.is_empty())
        {
            let number = std::str::from_utf8(token).ok().and_then(|t| t.parse().ok());
            values.push(match (token, number) {
                (b"x" | b"X" | b"_", _) => 0u64,
                (_, Some(v)) => v,
                (_, None) => {
                    return Err(Layout25Error::NotANumber {
                        token: Token::new(token),
                        rows,
                        cols,
                    })
                }
            });
        }
        let n = rows * cols;
        if rows < 2 || cols < 2 || n > MAX_CELLS_25 {
            return Err(Layout25Error::Board { rows, cols });
        }
        if values.len() != n {
            return Err(Layout25Error::WrongCount {
                expected: n,
                found: values.len(),
            });
        }
        let mut tiles = Vec::with_capacity(values.len());
        for t in values {
            if t >= n as u64 {
                return Err(Layout25Error::OutOfRange {
                    tile: t.into(),
                    rows,
                    cols,
                });
            }
            tiles.push(t as u8);
        }
        Layout25::new(rows, cols, &tiles)
    }

    /// The goal with the blank in `blank` and tiles 1..n−1 in reading order in the other
    /// cells; `None` when the board or the cell is not possible.
    pub fn goal_with_blank(rows: usize, cols: usize, blank: usize) -> Option<Layout25> {
        let n = rows * cols;
        if blank >= n {
            return None;
        }
        let mut tiles = vec![0u8; n];
        let mut next = 1u8;
        for (cell, tile) in tiles.iter_mut().enumerate() {
            if cell != blank {
                *tile = next;
                next += 1;
            }
        }
        Layout25::new(rows, cols, &tiles).ok()
    }

    /// The board's rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows.into()
    }

    /// The board's columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols.into()
    }

    /// The board's cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.rows() * self.cols()
    }

    /// The tile in each cell, in reading order.
    #[inline]
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.cells()]
    }

    /// The cell holding the blank.
    #[inline]
    pub fn blank(&self) -> usize {
        self.blank.into()
    }

    /// The cell next to `cell` in direction `m`, if on the board.
    #[inline]
    pub fn neighbor(&self, cell: usize, m: Move) -> Option<usize> {
        let cols = self.cols();
        match m {
            Move::Up => cell.checked_sub(cols),
            Move::Down => (cell + cols < self.cells()).then_some(cell + cols),
            Move::Left => (!cell.is_multiple_of(cols)).then(|| cell - 1),
            Move::Right => (cell % cols != cols - 1).then_some(cell + 1),
        }
    }

    /// The layout after the blank moves in direction `m`, or `None` if that leaves the board.
    #[inline]
    pub fn moved(&self, m: Move) -> Option<Layout25> {
        let to = self.neighbor(self.blank(), m)?;
        let mut next = *self;
        next.tiles[self.blank()] = next.tiles[to];
        next.tiles[to] = 0;
        next.blank = to as u8;
        Some(next)
    }

    /// Applies every move of `path` in turn; `None` if one of them leaves the board.
    pub fn after(&self, path: &[Move]) -> Option<Layout25> {
        path.iter().try_fold(*self, |l, &m| l.moved(m))
    }

    /// Whether `goal` (a layout of the same board) can be reached from here: the parity of
    /// the permutation that carries one onto the other equals the parity of the blank's
    /// Manhattan distance between them (each move is one transposition and moves the blank
    /// one cell).
    pub fn reaches(&self, goal: &Layout25) -> bool {
        if (self.rows, self.cols) != (goal.rows, goal.cols) {
            return false;
        }
        let n = self.cells();
        let mut home = [0u8; MAX_CELLS_25];
        for (cell, &t) in goal.tiles().iter().enumerate() {
            home[usize::from(t)] = cell as u8;
        }
        // The permutation cell -> goal cell of the tile in it; its parity by cycle count.
        let mut seen = 0u32;
        let mut cycles = 0;
        for start in 0..n {
            if seen & (1 << start) != 0 {
                continue;
            }
            cycles += 1;
            let mut c = start;
            while seen & (1 << c) == 0 {
                seen |= 1 << c;
                c = usize::from(home[usize::from(self.tiles[c])]);
            }
        }
        let perm_odd = (n - cycles) % 2 == 1;
        let (b, g) = (self.blank(), goal.blank());
        let cols = self.cols();
        let blank_odd = ((b / cols).abs_diff(g / cols) + (b % cols).abs_diff(g % cols)) % 2 == 1;
        perm_odd == blank_odd
    }

    /// The layout reflected about the main diagonal (cell (r, c) to (c, r)) with each tile
    /// renamed by the same reflection of its cell in `goal`: a layout `d` moves from `goal`
    /// is carried to one `d` moves from `goal`. `None` on a board that is not square, or
    /// when `goal`'s blank is off the diagonal (the renaming would not keep the blank).
    pub fn transposed(&self, goal: &Layout25) -> Option<Layout25> {
        let n = self.rows();
        if n != self.cols() || (goal.rows, goal.cols) != (self.rows, self.cols) {
            return None;
        }
        let flip = |cell: usize| (cell % n) * n + cell / n;
        if flip(goal.blank()) != goal.blank() {
            return None;
        }
        let mut home = [0u8; MAX_CELLS_25];
        for (cell, &t) in goal.tiles().iter().enumerate() {
            home[usize::from(t)] = cell as u8;
        }
        let mut next = *self;
        for cell in 0..n * n {
            let t = self.tiles[cell];
            let renamed = goal.tiles[flip(usize::from(home[usize::from(t)]))];
            next.tiles[flip(cell)] = renamed;
        }
        next.blank = flip(self.blank()) as u8;
        Some(next)
    }
}

/// A symmetry of the board (8 on a square board, 4 on another) with the tiles renamed, that
/// carries one goal onto another: how databases made for one goal answer for another, as
/// [`crate::Symmetry`] does on boards of up to 16 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry25 {
    /// `cells[c]`: where cell `c` goes.
    cells: [u8; MAX_CELLS_25],
    /// `rename[t]`: what tile `t` becomes.
    rename: [u8; MAX_CELLS_25],
    /// `back[m.code()]`: the move on this side that a move `m` on the other side is.
    back: [Move; 4],
}

impl Symmetry25 {
    /// The first symmetry (the identity first) that carries `from`'s blank onto `to`'s,
    /// with the renaming of the tiles that makes it carry `from` onto `to`; `None` when the
    /// boards differ or none carries the blank there.
    pub fn carrying(from: &Layout25, to: &Layout25) -> Option<Symmetry25> {
        let (rows, cols) = (from.rows(), from.cols());
        if (rows, cols) != (to.rows(), to.cols()) {
            return None;
        }
        let square = rows == cols;
        let turns = [false, true]
            .into_iter()
            .filter(|&t| !t || square)
            .flat_map(|t| {
                [false, true]
                    .into_iter()
                    .flat_map(move |r| [(t, r, false), (t, r, true)])
            });
        for turn in turns {
            let mut cells = [0u8; MAX_CELLS_25];
            for (c, to) in cells.iter_mut().enumerate().take(from.cells()) {
                *to = crate::symmetry::image((rows, cols), turn, c) as u8;
            }
            if usize::from(cells[from.blank()]) != to.blank() {
                continue;
            }
            let mut rename = [0u8; MAX_CELLS_25];
            for (c, &t) in from.tiles().iter().enumerate() {
                rename[usize::from(t)] = to.tiles()[usize::from(cells[c])];
            }
            // A move on this side goes from a cell to its neighbour; its image joins the
            // images of the two cells.
            let mut back = Move::ALL;
            for m in Move::ALL {
                let c = (0..from.cells())
                    .find(|&c| from.neighbor(c, m).is_some())
                    .expect("a board of 2x2 or more has every move");
                let n = from.neighbor(c, m).expect("found above");
                let (a, b) = (usize::from(cells[c]), usize::from(cells[n]));
                let image = Move::ALL
                    .into_iter()
                    .find(|&d| to.neighbor(a, d) == Some(b))
                    .expect("a symmetry keeps neighbours neighbours");
                back[image.code() as usize] = m;
            }
            return Some(Symmetry25 {
                cells,
                rename,
                back,
            });
        }
        None
    }

    /// `layout` carried to the other side (its cells moved, its tiles renamed).
    pub fn layout(&self, layout: &Layout25) -> Layout25 {
        let mut tiles = [0u8; MAX_CELLS_25];
        for (c, &t) in layout.tiles().iter().enumerate() {
            tiles[usize::from(self.cells[c])] = self.rename[usize::from(t)];
        }
        Layout25::new(layout.rows(), layout.cols(), &tiles[..layout.cells()])
            .expect("a symmetry keeps a permutation")
    }

    /// A move on the other side carried back to this one.
    pub fn move_back(&self, m: Move) -> Move {
        self.back[m.code() as usize]
    }
}

impl fmt::Display for Layout25 {
    /// The tiles separated by spaces, as Korf's instances are written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.tiles().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Layout25 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout25({}x{}: {self})", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symmetry_carries_a_goal_and_its_paths_onto_another() {
        let theirs = Layout25::goal_with_blank(5, 5, 0).unwrap();
        let mut n = 0;
        for blank in 0..25 {
            let goal = Layout25::goal_with_blank(5, 5, blank).unwrap();
            let Some(s) = Symmetry25::carrying(&goal, &theirs) else {
                continue;
            };
            n += 1;
            assert_eq!(s.layout(&goal), theirs);
            // A path there, carried back, is a path here between the same layouts.
            let start = [Move::Up, Move::Down]
                .into_iter()
                .flat_map(|a| [Move::Left, Move::Right].map(|b| [a, b]))
                .find_map(|p| goal.after(&p))
                .unwrap();
            let image = s.layout(&start);
            for m in Move::ALL {
                if let Some(next) = image.moved(m) {
                    assert_eq!(
                        Some(s.layout(&start.moved(s.move_back(m)).unwrap())),
                        Some(next)
                    );
                }
            }
        }
        // The four corners.
        assert_eq!(n, 4);
    }

    #[test]
    fn moves_parity_and_reflection() {
        let goal = Layout25::goal_with_blank(5, 5, 0).unwrap();
        assert_eq!(goal.tiles()[..3], [0, 1, 2]);
        let l = goal.after(&[Move::Right, Move::Down, Move::Down]).unwrap();
        assert_eq!(l.blank(), 11);
        assert!(l.reaches(&goal));
        let mut swapped = goal.tiles().to_vec();
        swapped.swap(1, 2);
        assert!(!Layout25::new(5, 5, &swapped).unwrap().reaches(&goal));
        // The reflection carries "right" into "down".
        let t = goal
            .after(&[Move::Right])
            .unwrap()
            .transposed(&goal)
            .unwrap();
        assert_eq!(Some(t), goal.after(&[Move::Down]));
        assert_eq!(goal.transposed(&goal), Some(goal));
        assert_eq!(l.transposed(&goal).unwrap().transposed(&goal), Some(l));
    }

    #[test]
    fn bad_lines_are_named() {
        let e = Layout25::parse(5, 5, "1 2 y").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown tile 'y' (tiles are 1..24, the blank is 0 or x)"
        );
        // x and _ are the blank, as in every other puzzle line.
        assert!(Layout25::parse(3, 3, "1 2 3 4 5 6 7 8 x").is_ok());
        let e = Layout25::parse(5, 5, "0 1 2").unwrap_err();
        assert_eq!(e.to_string(), "expected 25 tiles, found 3");
        let line = |last: &str| {
            let tiles: Vec<String> = (0..24).map(|t| t.to_string()).collect();
            format!("{} {last}", tiles.join(" "))
        };
        let e = Layout25::parse(5, 5, &line("25")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tile 25 is not on a 5x5 board (tiles are 1..24, the blank is 0)"
        );
        // The count first, as on the smaller boards, whatever the tiles; a byte that is no
        // text as itself.
        let e = Layout25::parse(5, 5, &line("24 25")).unwrap_err();
        assert_eq!(e.to_string(), "expected 25 tiles, found 26");
        let e = Layout25::parse_bytes(5, 5, b"1 2 \xff").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown tile '\\xff' (tiles are 1..24, the blank is 0 or x)"
        );
        assert!(matches!(
            Layout25::new(6, 5, &[]),
            Err(Layout25Error::Board { .. })
        ));
    }
}
