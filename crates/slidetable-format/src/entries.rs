//! Every entry encoding, packed and unpacked here only: the generator hands its entries to
//! these functions and the query crate reads payloads through them.
//!
//! * byte: `distance << 2 | first move`, one per state;
//! * 2-bit: the distance mod 3, four to a byte (lowest bits first), built in `u64` words of
//!   32 entries and stored as their little-endian bytes;
//! * wide16: `cost << 2 | first move` as a little-endian `u16` per state.

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::Move;

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

/// Zeroed words for `entries` 2-bit entries being built (every entry 0, the goal's value),
/// two words for every 64 ranks: entry `r` in bits `2·(r mod 32)` of word `r / 32`.
pub fn two_bit_words(entries: usize) -> Vec<u64> {
    vec![0; entries.div_ceil(64) * 2]
}

/// Sets to `distance mod 3` the 2-bit entries of the ranks whose bits are set in `found`
/// (bit `i` for rank `64·k + i`), in `pair`, the two words of [`two_bit_words`] that hold
/// ranks `64·k ..= 64·k + 63`. The entries must still be 0.
///
/// # Panics
///
/// If `pair` holds fewer than two words.
#[inline]
pub fn two_bit_mark(pair: &mut [u64], found: u64, distance: u32) {
    let shift = distance % 3;
    // Value 1 sets the low bit of each 2-bit entry, value 2 the high bit.
    if shift != 0 {
        pair[0] |= spread(found as u32) << (shift - 1);
        pair[1] |= spread((found >> 32) as u32) << (shift - 1);
    }
}

/// The [`Encoding::TwoBit`] payload of `entries` states from the words they were built in.
pub fn two_bit_payload(words: Vec<u64>, entries: u64) -> Vec<u8> {
    // At most 12!/2 entries: the length fits.
    let len = Encoding::TwoBit
        .payload_len(entries)
        .unwrap_or(u64::MAX)
        .min(words.len() as u64 * 8) as usize;
    let mut bytes = vec![0u8; words.len() * 8];
    LE::write_u64_into(&words, &mut bytes);
    bytes.truncate(len);
    bytes
}

/// Spreads the 32 bits of `x` to the even bit positions of a `u64`.
#[inline]
fn spread(x: u32) -> u64 {
    let mut v = u64::from(x);
    v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
    v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF;
    v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    v = (v | (v << 2)) & 0x3333_3333_3333_3333;
    v = (v | (v << 1)) & 0x5555_5555_5555_5555;
    v
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
    fn spreading_puts_bit_i_at_2i() {
        assert_eq!(spread(0b1011), 0b01_00_01_01);
        assert_eq!(spread(u32::MAX), 0x5555_5555_5555_5555);
        assert_eq!(spread(1 << 31), 1 << 62);
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

    #[test]
    fn two_bit_entries_hold_the_distance_mod_3() {
        // 200 ranks: the last word is partly used, the payload 50 bytes.
        let distance = |r: u32| (r * 7 + r / 3) % 40;
        let mut words = two_bit_words(200);
        for d in 1..40 {
            for (k, pair) in words.chunks_mut(2).enumerate() {
                let mut found = 0u64;
                for i in 0..64 {
                    let r = k as u32 * 64 + i;
                    if r < 200 && distance(r) == d {
                        found |= 1 << i;
                    }
                }
                two_bit_mark(pair, found, d);
            }
        }
        let payload = two_bit_payload(words, 200);
        assert_eq!(payload.len(), 50);
        for r in 0..200 {
            assert_eq!(
                two_bit_value(&payload, u64::from(r)),
                distance(r) % 3,
                "rank {r}"
            );
        }
    }
}
