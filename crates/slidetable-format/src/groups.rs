//! The rule every partition of a board's tiles into pattern-database groups obeys: each group
//! has 1..=[`MAX_GROUP`] tiles of the board, no tile is in two groups and every tile is in
//! one. The generator's partitions, the search's heuristic and the file's pattern header all
//! check it here; each names what is wrong in its own words.

use slidetable_core::Board;

/// The most tiles a group may have (16!/7! placements still rank in a `u32`).
pub const MAX_GROUP: usize = 9;

/// The sizes of the groups with these tile masks, in order, `7-8` style: how a partition is
/// named on the command line, in `info` and `search --json`, and by the Python package.
pub fn group_sizes(masks: impl IntoIterator<Item = u16>) -> String {
    let sizes: Vec<String> = masks
        .into_iter()
        .map(|g| g.count_ones().to_string())
        .collect();
    sizes.join("-")
}

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
    let mut cover = GroupCover::new(board);
    for &tiles in groups {
        cover.add(tiles)?;
    }
    cover.finish()
}

/// [`check_groups`] one group at a time, for a reader that checks each group's other fields
/// as it goes: [`add`](GroupCover::add) each group in order, then
/// [`finish`](GroupCover::finish).
#[derive(Clone, Copy, Debug)]
pub struct GroupCover {
    board: Board,
    covered: u16,
    groups: usize,
}

impl GroupCover {
    /// No groups yet, on `board`.
    pub fn new(board: Board) -> GroupCover {
        GroupCover {
            board,
            covered: 0,
            groups: 0,
        }
    }

    /// Checks the next group (tiles on the board, none in an earlier group, 1..=[`MAX_GROUP`]
    /// of them) and returns its tile count.
    pub fn add(&mut self, tiles: u16) -> Result<usize, GroupError> {
        let group = self.groups;
        if tiles & !board_tiles(self.board) != 0 {
            return Err(GroupError::OffBoard {
                group,
                tiles,
                board: self.board,
            });
        }
        if tiles & self.covered != 0 {
            let tile = (tiles & self.covered).trailing_zeros() as u8;
            return Err(GroupError::TileTwice { group, tile });
        }
        let k = check_group(self.board, group, tiles)?;
        self.covered |= tiles;
        self.groups += 1;
        Ok(k)
    }

    /// Checks that the groups added cover every tile.
    pub fn finish(self) -> Result<(), GroupError> {
        let all = board_tiles(self.board);
        if self.covered != all {
            let tile = (all & !self.covered).trailing_zeros() as u8;
            return Err(GroupError::TileMissing { tile });
        }
        Ok(())
    }
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
