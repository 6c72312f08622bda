//! A section's entries counted by the value they hold, against the histogram its header
//! gives: what `info --verify` adds to the checksums. Damage made before the checksums were
//! computed (or checksums computed again over damaged entries) passes every checksum; it
//! cannot also keep every level's count, which the header holds apart from the entries.

use rayon::prelude::*;
use slidetable_format::{byte_distance, wide_at, wide_cost};

use crate::{Encoding, TableErrorKind};

/// Bytes counted by one task.
const CHUNK: usize = 1 << 22;

/// How often each byte value occurs in `bytes`, counted on every core.
fn byte_counts(bytes: &[u8]) -> [u64; 256] {
    bytes
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut counts = [0u64; 256];
            for &b in chunk {
                counts[usize::from(b)] += 1;
            }
            counts
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// Checks that the `entries` states of section `section` (goal `goal`), stored in
/// `payload` with `encoding`, hold the values `histogram` counts: for byte and wide entries
/// each distance's count, for 2-bit entries each residue's (`distance mod 3`).
pub(crate) fn check_section(
    section: usize,
    goal: slidetable_core::Layout,
    encoding: Encoding,
    payload: &[u8],
    entries: u64,
    histogram: &[u64],
) -> Result<(), TableErrorKind> {
    let entries = usize::try_from(entries).unwrap_or(usize::MAX);
    // (label of a value, found, expected), one per value the entries can hold.
    let mut found: Vec<u64>;
    let mut expected: Vec<u64>;
    let mod3 = encoding == Encoding::TwoBit;
    match encoding {
        Encoding::Byte => {
            let counts = byte_counts(&payload[..entries.min(payload.len())]);
            found = vec![0; 64];
            for (b, n) in counts.iter().enumerate() {
                let d = byte_distance(b as u8) as usize;
                if d >= found.len() {
                    found.resize(d + 1, 0);
                }
                found[d] += n;
            }
            expected = histogram.to_vec();
        }
        Encoding::TwoBit => {
            let whole = (entries / 4).min(payload.len());
            let counts = byte_counts(&payload[..whole]);
            // Four slots: the value 3 is no residue, and any entry holding it is damage.
            found = vec![0; 4];
            for (b, n) in counts.iter().enumerate() {
                for i in 0..4 {
                    found[(b >> (2 * i)) & 3] += n;
                }
            }
            for i in 0..entries - whole * 4 {
                let b = payload.get(whole).copied().unwrap_or(0);
                found[usize::from(b >> (2 * i)) & 3] += 1;
            }
            expected = vec![0; 3];
            for (d, n) in histogram.iter().enumerate() {
                expected[d % 3] += n;
            }
        }
        Encoding::Wide16 => {
            found = payload
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(c, chunk)| {
                    let first = c * CHUNK / 2;
                    let mut counts = vec![0u64; histogram.len()];
                    for rank in first..(first + chunk.len() / 2).min(entries) {
                        let cost = wide_cost(wide_at(payload, rank as u64)) as usize;
                        if cost >= counts.len() {
                            counts.resize(cost + 1, 0);
                        }
                        counts[cost] += 1;
                    }
                    counts
                })
                .reduce(Vec::new, |mut a, b| {
                    if a.len() < b.len() {
                        a.resize(b.len(), 0);
                    }
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                });
            expected = histogram.to_vec();
        }
    }
    let len = found.len().max(expected.len());
    found.resize(len, 0);
    expected.resize(len, 0);
    match (0..len).find(|&d| found[d] != expected[d]) {
        None => Ok(()),
        Some(d) => Err(TableErrorKind::Entries {
            section,
            goal,
            distance: if mod3 && d == 3 {
                "3 mod 3 (a value no distance is stored as)".to_string()
            } else if mod3 {
                format!("{d} mod 3")
            } else {
                d.to_string()
            },
            found: found[d],
            expected: expected[d],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable_core::Board;

    #[test]
    fn two_bit_residues_are_counted_in_whole_bytes_and_the_tail() {
        let goal = Board::EIGHT.standard_goal();
        // Six entries: 0 1 2 0 | 1 1 (bits 2·i of each byte).
        let payload = [0b00_10_01_00u8, 0b00_00_01_01];
        let histogram = [1, 3, 1, 1]; // residues: 0 → 2, 1 → 3, 2 → 1
        assert!(check_section(0, goal, Encoding::TwoBit, &payload, 6, &histogram).is_ok());
        let err = check_section(0, goal, Encoding::TwoBit, &payload, 6, &[1, 3, 2]).unwrap_err();
        assert!(err.to_string().contains("distance 0 mod 3"), "{err}");
        // The value 3 is no residue: one entry holding it is found.
        let err = check_section(0, goal, Encoding::TwoBit, &[0b11_00_00_00], 4, &[3]).unwrap_err();
        assert!(err.to_string().contains("3 mod 3 (a value no"), "{err}");
    }

    #[test]
    fn byte_entries_count_each_distance_whatever_the_move_bits() {
        let goal = Board::EIGHT.standard_goal();
        let payload: Vec<u8> = [0u32, 1, 1, 2]
            .iter()
            .map(|&d| slidetable_format::byte_entry(d, slidetable_core::Move::Up))
            .collect();
        assert!(check_section(0, goal, Encoding::Byte, &payload, 4, &[1, 2, 1]).is_ok());
        let err = check_section(3, goal, Encoding::Byte, &payload, 4, &[2, 1, 1]).unwrap_err();
        assert!(err.to_string().starts_with("section 3"), "{err}");
    }
}
