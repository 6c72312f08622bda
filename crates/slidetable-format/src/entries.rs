//! Every entry encoding, packed and unpacked here only: the generator hands its entries to
//! these functions and the query crate reads payloads through them.
//!
//! * byte: `distance << 2 | first move`, one per state;
//! * 2-bit: the distance mod 3, four to a byte (lowest bits first), built in `u64` words of
//!   32 entries and stored as their little-endian bytes. The word operations of the 2-bit
//!   searches (the generator's, and the query crate's recovery of every distance) live here
//!   too: [`two_bit_spread`] and [`two_bit_gather`] move a state's bit between a bitmap (bit
//!   `k`) and its entry (bit `2k`), [`two_bit_lanes_equal`] and [`two_bit_equal`] pick the
//!   entries of a value;
//! * wide16: `cost << 2 | first move` as a little-endian `u16` per state.

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::Move;

#[cfg(doc)]
use crate::Encoding;

/// A byte entry: the distance and the first move of an optimal path (ignored at distance 0).
/// A distance beyond 63, the most a byte entry holds, is stored as 63, never wrapped.
#[inline]
pub fn byte_entry(distance: u32, first: Move) -> u8 {
    ((distance.min(63) as u8) << 2) | first.code()
}

/// The entry at `rank` of a [`Encoding::Byte`] payload.
///
/// # Panics
///
/// If `rank` is past the payload (the hot read of every query: a table's header check
/// guarantees the payload holds every rank of its section).
#[inline]
pub fn byte_at(payload: &[u8], rank: u64) -> u8 {
    payload[rank as usize]
}

/// The distance held by a byte entry.
#[inline]
pub fn byte_distance(entry: u8) -> u32 {
    u32::from(entry >> 2)
}

/// The first move held by a byte entry.
#[inline]
pub fn byte_move(entry: u8) -> Move {
    Move::from_code(entry)
}

/// The 2-bit value of the entry at `rank` in a [`Encoding::TwoBit`] payload: the distance
/// mod 3. `rank` must be below four times the payload's length.
///
/// # Panics
///
/// If `rank` is past the payload (the hot read of every query: a table's header check
/// guarantees the payload holds every rank of its section).
#[inline]
pub fn two_bit_value(payload: &[u8], rank: u64) -> u32 {
    u32::from(payload[(rank >> 2) as usize] >> ((rank & 3) * 2)) & 3
}

/// The low bit of each of the 32 2-bit entries of a word.
pub const TWO_BIT_LOW: u64 = 0x5555_5555_5555_5555;

/// The low 32 bits of `bits` moved to the low bits of a word's 32 entries: bit `k` to bit
/// `2k` (a bitmap's word of states to the lanes of their 2-bit entries).
#[inline]
pub fn two_bit_spread(bits: u64) -> u64 {
    let mut x = bits & 0xFFFF_FFFF;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & TWO_BIT_LOW
}

/// The inverse of [`two_bit_spread`]: bit `2k` of `lanes` moved to bit `k` (the high bits of
/// the entries ignored).
#[inline]
pub fn two_bit_gather(lanes: u64) -> u64 {
    let mut x = lanes & TWO_BIT_LOW;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) & 0xFFFF_FFFF
}

/// The low bit of each 2-bit entry of `word` that equals `value` (0 ..= 3).
#[inline]
pub fn two_bit_lanes_equal(word: u64, value: u32) -> u64 {
    let x = word ^ (TWO_BIT_LOW * u64::from(value));
    !(x | (x >> 1)) & TWO_BIT_LOW
}

/// Bit `i` set where entry `i` of the 64 in the words `low` (entries 0–31) and `high`
/// (32–63) equals `value`: one bitmap word of the states of a value.
#[inline]
pub fn two_bit_equal(low: u64, high: u64, value: u32) -> u64 {
    two_bit_gather(two_bit_lanes_equal(low, value))
        | two_bit_gather(two_bit_lanes_equal(high, value)) << 32
}

/// The two words of entries `64·index ..= 64·index + 63` of a [`Encoding::TwoBit`] payload
/// (entries past its end read as 3, which no distance mod 3 is), for [`two_bit_equal`].
#[inline]
pub fn two_bit_words_at(payload: &[u8], index: usize) -> (u64, u64) {
    let start = index * 16;
    if let Some(bytes) = payload.get(start..start + 16) {
        let (low, high) = bytes.split_at(8);
        return (LE::read_u64(low), LE::read_u64(high));
    }
    let mut bytes = [0xFFu8; 16];
    let end = payload.len().max(start);
    bytes[..end - start].copy_from_slice(&payload[start..end]);
    (LE::read_u64(&bytes[..8]), LE::read_u64(&bytes[8..]))
}

/// A wide entry: the cost and the first move of a cheapest path (ignored at cost 0). A cost
/// beyond 16383, the most a wide entry holds, is stored as 16383, never wrapped.
#[inline]
pub fn wide_entry(cost: u32, first: Move) -> u16 {
    ((cost.min(16383) as u16) << 2) | u16::from(first.code())
}

/// The entry at `rank` of a [`Encoding::Wide16`] payload.
///
/// # Panics
///
/// If `rank` is past the payload (the hot read of every query: a table's header check
/// guarantees the payload holds every rank of its section).
#[inline]
pub fn wide_at(payload: &[u8], rank: u64) -> u16 {
    LE::read_u16(&payload[rank as usize * 2..])
}

/// The cost held by a wide entry.
#[inline]
pub fn wide_cost(entry: u16) -> u32 {
    u32::from(entry >> 2)
}

/// The first move held by a wide entry.
#[inline]
pub fn wide_move(entry: u16) -> Move {
    Move::from_code(entry as u8)
}

/// The [`Encoding::Wide16`] payload of these entries (see [`wide_entry`]), in rank order.
pub fn wide_payload(entries: impl ExactSizeIterator<Item = u16>) -> Vec<u8> {
    let mut bytes = vec![0u8; entries.len() * 2];
    for (out, e) in bytes.chunks_exact_mut(2).zip(entries) {
        LE::write_u16(out, e);
    }
    bytes
}

/// A byte payload as a [`Encoding::Wide16`] one: the same distances and moves.
pub fn widen_bytes(payload: &[u8]) -> Vec<u8> {
    wide_payload(payload.iter().map(|&e| u16::from(e)))
}

/// A [`Encoding::Wide16`] payload as a byte one, when every cost fits a byte entry (≤ 63);
/// `None` when one does not.
pub fn narrow_wide(payload: &[u8]) -> Option<Vec<u8>> {
    payload
        .chunks_exact(2)
        .map(|e| {
            let e = LE::read_u16(e);
            (e >> 2 <= 63).then_some(e as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreading_puts_bit_i_at_2i_and_gathering_undoes_it() {
        assert_eq!(two_bit_spread(0b1011), 0b01_00_01_01);
        assert_eq!(two_bit_spread(u64::from(u32::MAX)), TWO_BIT_LOW);
        assert_eq!(two_bit_spread(1 << 31), 1 << 62);
        assert_eq!(two_bit_gather(TWO_BIT_LOW), u64::from(u32::MAX));
        assert_eq!(two_bit_gather(0b0100_0001), 0b1001);
        assert_eq!(two_bit_gather(!TWO_BIT_LOW), 0);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(two_bit_gather(two_bit_spread(x)), x & 0xFFFF_FFFF);
            assert_eq!(two_bit_spread(two_bit_gather(x)), x & TWO_BIT_LOW);
            for k in [0, 5, 31] {
                assert_eq!(two_bit_spread(x) >> (2 * k) & 3, x >> k & 1);
            }
        }
    }

    #[test]
    fn byte_entries_round_trip() {
        for d in 0..=63 {
            for m in Move::ALL {
                let e = byte_entry(d, m);
                assert_eq!((byte_distance(e), byte_move(e)), (d, m));
                assert_eq!(byte_at(&[0, e], 1), e);
            }
        }
    }

    /// Beyond what an entry holds, the entry holds its ceiling (63 moves, cost 16383), never
    /// a wrapped value (64 would read as 0: the goal).
    #[test]
    fn entries_beyond_their_ceiling_hold_the_ceiling() {
        for d in [64, 65, 127, 128, 1000, u32::MAX] {
            for m in Move::ALL {
                assert_eq!(byte_entry(d, m), byte_entry(63, m), "{d}");
            }
        }
        for c in [16384, 16385, 32768, 65536, u32::MAX] {
            for m in Move::ALL {
                assert_eq!(wide_entry(c, m), wide_entry(16383, m), "{c}");
            }
        }
    }

    #[test]
    fn wide_entries_round_trip_and_narrow() {
        let entries: Vec<u16> = (0..16384u32)
            .flat_map(|c| Move::ALL.map(|m| wide_entry(c, m)))
            .collect();
        let payload = wide_payload(entries.iter().copied());
        for (rank, &e) in entries.iter().enumerate() {
            assert_eq!(wide_at(&payload, rank as u64), e);
            assert_eq!(wide_entry(wide_cost(e), wide_move(e)), e);
        }
        assert_eq!(narrow_wide(&payload), None);
        let small: Vec<u8> = (0..=63u32)
            .flat_map(|d| Move::ALL.map(|m| byte_entry(d, m)))
            .collect();
        assert_eq!(narrow_wide(&widen_bytes(&small)), Some(small));
    }

    /// Entries of ranks 0..70 holding `r mod 3`, picked by value 64 at a time (the last
    /// word partly past the payload's end, which holds no value).
    #[test]
    fn two_bit_entries_are_read_one_at_a_time_and_by_value() {
        let mut payload = vec![0u8; 18];
        for r in 0..70u32 {
            payload[r as usize / 4] |= ((r % 3) as u8) << (2 * (r % 4));
        }
        for r in 0..70u64 {
            assert_eq!(two_bit_value(&payload, r), (r % 3) as u32, "rank {r}");
        }
        for value in 0..3u32 {
            for index in 0..2 {
                let (low, high) = two_bit_words_at(&payload, index);
                let bits = two_bit_equal(low, high, value);
                for i in 0..64u64 {
                    let r = index as u64 * 64 + i;
                    let expected = r < 72 && two_bit_value(&payload, r) == value;
                    assert_eq!(bits >> i & 1 == 1, expected, "rank {r} value {value}");
                }
            }
        }
    }
}
