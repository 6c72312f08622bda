//! The rule every partition of a board's tiles into pattern-database groups obeys: each group
//! has 1..=[`MAX_GROUP`] tiles of the board, no tile is in two groups and every tile is in
//! one. The generator's partitions, the search's heuristic and the file's pattern header all
//! check it here; each names what is wrong in its own words.

use slidetable_core::Board;

use crate::MAX_GROUP;

/// Why tile groups do not partition a board's tiles. `group` is the index of the group at
/// fault, in the order given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GroupError {
    /// The group's mask names tiles the board does not have (or the blank, bit 0).
    #[error("group {group} names tiles that are not on a {board} board (1..{})", board.cells() - 1)]
    OffBoard {
        /// The group's index.
        group: usize,
        /// The group's mask (bit `t` for tile `t`).
        tiles: u16,
        /// The board.
        board: Board,
    },
    /// A tile of the group is in an earlier group too.
    #[error("tile {tile} is in group {group} and an earlier one")]
    TileTwice {
        /// The group's index.
        group: usize,
        /// The first such tile.
        tile: u8,
    },
    /// The group has no tiles or more than [`MAX_GROUP`].
    #[error("group {group} has {tiles} tiles (1..={MAX_GROUP} allowed)")]
    BadSize {
        /// The group's index.
        group: usize,
        /// The group's tile count.
        tiles: usize,
    },
    /// No group holds this tile.
    #[error("tile {tile} is in no group")]
    TileMissing {
        /// The first tile no group holds.
        tile: u8,
    },
}

/// Checks one group of a partition of `board`'s tiles: its tiles are on the board and it has
/// 1..=[`MAX_GROUP`] of them. Returns its tile count.
pub fn check_group(board: Board, group: usize, tiles: u16) -> Result<usize, GroupError> {
    if tiles & !board_tiles(board) != 0 {
        return Err(GroupError::OffBoard {
            group,
            tiles,
            board,
        });
    }
    let k = tiles.count_ones() as usize;
    if k == 0 || k > MAX_GROUP {
        return Err(GroupError::BadSize { group, tiles: k });
    }
    Ok(k)
}

/// Checks that `groups` (one mask per group, bit `t` for tile `t`) partition the tiles
/// 1..n−1 of `board` into groups of 1..=[`MAX_GROUP`] tiles. Groups are checked in order,
/// each for tiles off the board, then tiles of earlier groups, then its size; coverage last.
pub fn check_groups(board: Board, groups: &[u16]) -> Result<(), GroupError> {
    let all = board_tiles(board);
    let mut covered = 0u16;
    for (group, &tiles) in groups.iter().enumerate() {
        if tiles & !all != 0 {
            return Err(GroupError::OffBoard {
                group,
                tiles,
                board,
            });
        }
        if tiles & covered != 0 {
            let tile = (tiles & covered).trailing_zeros() as u8;
            return Err(GroupError::TileTwice { group, tile });
        }
        check_group(board, group, tiles)?;
        covered |= tiles;
    }
    if covered != all {
        let tile = (all & !covered).trailing_zeros() as u8;
        return Err(GroupError::TileMissing { tile });
    }
    Ok(())
}

/// Bits 1..n−1: every tile of `board`.
fn board_tiles(board: Board) -> u16 {
    (((1u32 << board.cells()) - 1) & !1) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_broken_rule_is_named() {
        let board = Board::new(2, 3).unwrap();
        assert_eq!(check_groups(board, &[0b00110, 0b111000]), Ok(()));
        assert_eq!(
            check_groups(board, &[0b1000000]),
            Err(GroupError::OffBoard {
                group: 0,
                tiles: 0b1000000,
                board
            })
        );
        assert_eq!(
            check_groups(board, &[0b1]),
            Err(GroupError::OffBoard {
                group: 0,
                tiles: 1,
                board
            })
        );
        assert_eq!(
            check_groups(board, &[0b110, 0b1100]),
            Err(GroupError::TileTwice { group: 1, tile: 2 })
        );
        assert_eq!(
            check_groups(board, &[0b111110, 0]),
            Err(GroupError::BadSize { group: 1, tiles: 0 })
        );
        assert_eq!(
            check_groups(board, &[0b101110]),
            Err(GroupError::TileMissing { tile: 4 })
        );
        assert_eq!(
            check_groups(board, &[]),
            Err(GroupError::TileMissing { tile: 1 })
        );
        let big = Board::new(4, 4).unwrap();
        assert_eq!(
            check_groups(big, &[0b111_1111_1110, 0xf800]),
            Err(GroupError::BadSize {
                group: 0,
                tiles: 10
            })
        );
        assert_eq!(check_group(big, 3, 0xf800), Ok(5));
    }
}
