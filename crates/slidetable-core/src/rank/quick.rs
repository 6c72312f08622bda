//! The look-up tables that rank boards of at most 9 cells.

use super::drop_nibble;

/// The rank of a board of at most 9 cells by two table look-ups (the hot loop of a search
/// over the 8-puzzle): the Lehmer digits of the first four tiles depend on those four alone
/// (a tile's digit is its value less one less the earlier tiles smaller than it), and the
/// digits of the later tiles on the later tiles alone (the later tiles smaller than it), so
/// each half's share of the rank is one entry of a 4096-entry table indexed by its four
/// tiles, three bits each (16 KiB in all, which stays in the L1 cache).
///
/// Each entry also carries, in its top bit, the parity of its half's digits (for the later
/// tiles, all of them, the last two included): together they are the parity of the
/// inversions, so the class comes with the rank.
pub(super) struct QuickTables {
    /// Nibble value 1 in each position past the last tile, so every position reads as a tile.
    pub(super) pad: u64,
    pub(super) head: [u16; 4096],
    pub(super) tail: [u16; 4096],
}

impl std::fmt::Debug for QuickTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("QuickTables")
    }
}

impl QuickTables {
    /// The tiles the tables handle at most: eight, three bits each.
    pub(super) const MAX_TILES: usize = 8;

    /// The tables for `m` tiles (at most [`QuickTables::MAX_TILES`]) with the ranker's
    /// `weights`.
    pub(super) fn new(m: usize, weights: &[u32]) -> QuickTables {
        let pad = 0x1111_1111u64 & !((1u64 << (4 * m)) - 1);
        let mut head = [0u16; 4096];
        let mut tail = [0u16; 4096];
        // Every arrangement of `k` distinct tiles out of 1..=m: the first four tiles (their
        // digits count the earlier smaller ones) and the rest (the later smaller ones).
        let heads = m.min(4);
        each_arrangement(m, heads, &mut |t| {
            let (mut share, mut parity) = (0, 0);
            for i in 0..heads {
                let earlier = t[..i].iter().filter(|&&e| e < t[i]).count() as u32;
                let digit = u32::from(t[i]) - 1 - earlier;
                share += digit * weights[i];
                parity ^= digit & 1;
            }
            head[Self::index(pack(t) | (pad & 0xFFFF))] = (share | parity << 15) as u16;
        });
        each_arrangement(m, m.saturating_sub(4), &mut |t| {
            let (mut share, mut parity) = (0, 0);
            for i in 0..t.len() {
                let later = t[i + 1..].iter().filter(|&&e| e < t[i]).count() as u32;
                share += later * weights[4 + i];
                parity ^= later & 1;
            }
            tail[Self::index(pack(t) | (pad >> 16))] = (share | parity << 15) as u16;
        });
        QuickTables { pad, head, tail }
    }

    /// Four tiles (1..=8, one per nibble of the low 16 bits) as a 12-bit index.
    #[inline]
    pub(super) fn index(nibbles: u64) -> usize {
        let y = nibbles.wrapping_sub(0x1111) & 0x7777;
        ((y & 0x7) | (y >> 1 & 0x38) | (y >> 2 & 0x1C0) | (y >> 3 & 0xE00)) as usize
    }

    /// The rank within the blank's block and the parity of the inversions: the two halves'
    /// entries, each a share of the rank (bits 0..15) and a parity (bit 15).
    #[inline]
    pub(super) fn rank_and_parity(&self, packed: u64, blank: usize) -> (u32, u32) {
        let seq = drop_nibble(packed, blank) | self.pad;
        let head = u32::from(self.head[Self::index(seq & 0xFFFF)]);
        let tail = u32::from(self.tail[Self::index(seq >> 16 & 0xFFFF)]);
        ((head & 0x7FFF) + (tail & 0x7FFF), (head ^ tail) >> 15)
    }
}

/// Tiles as nibbles, the first in the lowest.
fn pack(tiles: &[u8]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .fold(0, |p, (i, &t)| p | u64::from(t) << (4 * i))
}

/// Calls `f` with every sequence of `k` distinct tiles from 1..=m.
fn each_arrangement(m: usize, k: usize, f: &mut impl FnMut(&[u8])) {
    fn go(m: usize, k: usize, used: u32, seq: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
        if seq.len() == k {
            return f(seq);
        }
        for t in 1..=m as u8 {
            if used & 1 << t == 0 {
                seq.push(t);
                go(m, k, used | 1 << t, seq, f);
                seq.pop();
            }
        }
    }
    go(m, k, 0, &mut Vec::with_capacity(k), f);
}
