//! [`Steps`]: the ranks along a walk on a board of at most 9 cells, kept step by step in the
//! form the rank tables read (`quick.rs`), so that a step is a few shifts and two look-ups.

use super::quick::QuickTables;
use super::{drop_nibble, Ranker};
use crate::{Move, Neighbors};

/// The tiles of a layout in reading order without the blank, three bits each (the tile less
/// one, the first tile in the lowest bits; the cells past the board's tiles 0): the 8-puzzle's
/// in 24 bits, which the rank tables read as they are. A horizontal move keeps the order; a
/// vertical one moves the sliding tile past the `cols − 1` tiles between its cell and the
/// blank's, so it turns over the fields of those `cols` tiles by one.
pub type TileOrder = u32;

/// What a move from one blank cell does to a [`TileOrder`].
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The blank's cell after the move, [`Step::OFF`] when the move leaves the board.
    to: u8,
    /// Where the fields the move turns over start (three bits a field).
    shift: u8,
    /// Whether the blank moves up (the sliding tile's field goes last), else down (first).
    up: bool,
    /// The fields turned over, from bit 0: `cols` fields for a vertical move, none for a
    /// horizontal one.
    fields: u32,
    /// The first rank of the blank's new cell.
    base: u32,
}

impl Step {
    const OFF: u8 = u8::MAX;
}

/// The ranks along a walk on a board of at most 9 cells (see [`TileOrder`]).
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    tables: &'static QuickTables,
    /// The shift of the last of the fields a vertical move turns over: 3·(cols − 1).
    last: u32,
    /// Bit `cell`: a blank in `cell` flips the class ([`Ranker::rank_and_class_packed`]).
    flips: u32,
    steps: [[Step; 4]; QuickTables::MAX_TILES + 1],
}

impl Steps {
    /// The steps of `ranker`'s board, if it has at most 9 cells (it ranks by tables).
    pub fn new(ranker: &Ranker) -> Option<Steps> {
        let tables = ranker.quick?;
        let board = ranker.board();
        let cols = board.cols() as u32;
        let neighbors = Neighbors::new(board);
        let off = Step {
            to: Step::OFF,
            shift: 0,
            up: false,
            fields: 0,
            base: 0,
        };
        let mut steps = [[off; 4]; QuickTables::MAX_TILES + 1];
        for (blank, row) in steps.iter_mut().enumerate().take(board.cells()) {
            for m in Move::ALL {
                let Some(to) = neighbors.of(blank, m) else {
                    continue;
                };
                let vertical = matches!(m, Move::Up | Move::Down);
                row[m as usize] = Step {
                    to: to as u8,
                    shift: (3 * to.min(blank)) as u8,
                    up: m == Move::Up,
                    fields: if vertical { (1 << (3 * cols)) - 1 } else { 0 },
                    base: to as u32 * ranker.block,
                };
            }
        }
        Some(Steps {
            tables,
            last: 3 * (cols - 1),
            flips: ranker.flips,
            steps,
        })
    }

    /// The tile order of the layout in [`crate::Layout::packed`] form `packed`, its blank in
    /// `blank`.
    #[inline]
    pub fn order(&self, packed: u64, blank: usize) -> TileOrder {
        let seq = drop_nibble(packed, blank) | self.tables.pad;
        (QuickTables::index(seq & 0xFFFF) | (QuickTables::index((seq >> 16) & 0xFFFF) << 12))
            as TileOrder
    }

    /// The packed layout (see [`crate::Layout::packed`]) of tile order `order` with the blank
    /// in `blank`, on a board of `cells` cells.
    pub fn packed(&self, order: TileOrder, blank: usize, cells: usize) -> u64 {
        let mut seq = 0u64;
        for i in 0..cells - 1 {
            seq |= (u64::from((order >> (3 * i)) & 7) + 1) << (4 * i);
        }
        let below = (1u64 << (4 * blank)) - 1;
        (seq & below) | ((seq & !below) << 4)
    }

    /// The rank within the blank's block of `order`, in bits 0..15, and the parity of its
    /// inversions in bit 15: the two halves' entries added (their shares of the rank, below
    /// the block together, cannot carry into bit 15).
    #[inline(always)]
    fn share(&self, order: TileOrder) -> u32 {
        let head = u32::from(self.tables.head[(order & 0xFFF) as usize]);
        let tail = u32::from(self.tables.tail[((order >> 12) & 0xFFF) as usize]);
        head + tail
    }

    /// The rank and the class of `order` with the blank in `blank`, as
    /// [`Ranker::rank_and_class`] gives them.
    #[inline]
    pub fn rank_and_class(&self, order: TileOrder, blank: usize, block: u64) -> (u64, u8) {
        let share = self.share(order);
        (
            blank as u64 * block + u64::from(share & 0x7FFF),
            (((share >> 15) ^ (self.flips >> blank)) & 1) as u8,
        )
    }

    /// Move `m` from `order` with the blank in `blank`: the new order, the blank's new cell
    /// and the new rank, or `None` when the move leaves the board. No branch on the move.
    #[inline(always)]
    pub fn step(&self, order: TileOrder, blank: usize, m: Move) -> Option<(TileOrder, usize, u64)> {
        let s = self.steps.get(blank)?[m as usize];
        if s.to == Step::OFF {
            return None;
        }
        let shift = u32::from(s.shift);
        let x = (order >> shift) & s.fields;
        // Up: the sliding tile's field (the first) goes last; down: the last goes first.
        let up = (x >> 3) | ((x & 7) << self.last);
        let down = ((x << 3) & s.fields) | (x >> self.last);
        let turned = std::hint::select_unpredictable(s.up, up, down);
        let order = (order & !(s.fields << shift)) | (turned << shift);
        let rank = s.base + (self.share(order) & 0x7FFF);
        Some((order, usize::from(s.to), u64::from(rank)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{slide, Board};

    #[test]
    fn every_step_of_every_layout_is_the_rankers_step() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let board = Board::new(rows, cols).unwrap();
            let r = Ranker::new(board).unwrap();
            let steps = Steps::new(&r).unwrap();
            let neighbors = Neighbors::new(board);
            let every = if board.cells() == 9 { 7 } else { 1 };
            for rank in (0..r.states()).step_by(every) {
                for class in 0..2 {
                    let (packed, blank) = r.unrank_packed(rank, class);
                    let order = steps.order(packed, blank);
                    assert_eq!(steps.packed(order, blank, board.cells()), packed);
                    assert_eq!(
                        steps.rank_and_class(order, blank, r.block()),
                        r.rank_and_class_packed(packed, blank)
                    );
                    for m in Move::ALL {
                        let Some(to) = neighbors.of(blank, m) else {
                            assert!(steps.step(order, blank, m).is_none());
                            continue;
                        };
                        let moved = slide(packed, blank, to);
                        let (next, at, next_rank) = steps.step(order, blank, m).unwrap();
                        assert_eq!(at, to);
                        assert_eq!(next, steps.order(moved, to), "{rows}x{cols} {rank} {m:?}");
                        assert_eq!(next_rank, r.step(rank, m, moved, to));
                    }
                }
            }
        }
        assert!(Steps::new(&Ranker::new(Board::new(2, 5).unwrap()).unwrap()).is_none());
    }
}
