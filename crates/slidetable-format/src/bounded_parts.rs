//! A table of the states within `D` moves made in parts (docs/FORMAT.md §13.6): a directory
//! of `N` part files, each the levels of one slice of the ranks (§12.1's slices) in the
//! layout of §13 (magic `SLIDEBNP`, its part number and count in the reserved bytes), and a
//! manifest written last that records each part's length and header CRC.
//!
//! ```
//! use slidetable_format::{BoundedManifest, BoundedPartRecord};
//!
//! let manifest = BoundedManifest {
//!     max_depth: 3,
//!     states: 17,
//!     parts: vec![BoundedPartRecord { len: 400, header_crc: 7 }; 2],
//! };
//! assert_eq!(BoundedManifest::parse(&manifest.to_bytes()).unwrap(), manifest);
//! ```

use byteorder::{ByteOrder, LittleEndian as LE};

/// The first eight bytes of the manifest of a table within `D` moves in parts.
pub const BOUNDED_MANIFEST_MAGIC: [u8; 8] = *b"SLIDEBMF";
/// The version of the manifest this code writes and reads.
pub const BOUNDED_MANIFEST_VERSION: u16 = 1;
/// The manifest's fixed fields before the records.
const FIXED: usize = 32;
/// One part's record.
const RECORD: usize = 16;

/// The file name of part `k` (from 0) of `parts` of a table within `D` moves.
pub fn bounded_part_name(k: u32, parts: u32) -> String {
    format!("part-{k:04}-of-{parts:04}.slb")
}

/// Whether `name` is the name of a part of a table within `D` moves (of any run).
pub fn is_bounded_part_name(name: &str) -> bool {
    name.starts_with("part-") && name.ends_with(".slb")
}

/// Whether `bytes` (a manifest's first bytes) are a manifest of a table within `D` moves.
pub fn is_bounded_manifest(bytes: &[u8]) -> bool {
    bytes.starts_with(&BOUNDED_MANIFEST_MAGIC)
}

/// What the manifest records of one part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundedPartRecord {
    /// The part file's length.
    pub len: u64,
    /// Its header CRC (§13.1, bytes 36..40 of the part).
    pub header_crc: u32,
}

/// The manifest of a table within `D` moves in parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundedManifest {
    /// `D`, every part's.
    pub max_depth: u32,
    /// The states within `D` moves, every part's together.
    pub states: u64,
    /// Each part's record, part 0 first.
    pub parts: Vec<BoundedPartRecord>,
}

/// What is wrong with a manifest of a table within `D` moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("manifest of a table within D moves: {0}")]
pub struct BoundedManifestError(String);

impl BoundedManifest {
    /// The manifest's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut m = vec![0u8; FIXED + RECORD * self.parts.len()];
        m[..8].copy_from_slice(&BOUNDED_MANIFEST_MAGIC);
        LE::write_u16(&mut m[8..], BOUNDED_MANIFEST_VERSION);
        LE::write_u32(&mut m[12..], self.parts.len() as u32);
        LE::write_u32(&mut m[16..], self.max_depth);
        LE::write_u64(&mut m[24..], self.states);
        for (k, p) in self.parts.iter().enumerate() {
            let r = &mut m[FIXED + RECORD * k..][..RECORD];
            LE::write_u64(&mut r[0..], p.len);
            LE::write_u32(&mut r[8..], p.header_crc);
        }
        let crc = crc32fast::hash(&m);
        LE::write_u32(&mut m[20..], crc);
        m
    }

    /// Checks and reads a manifest: its magic, version, length, CRC and reserved bytes.
    pub fn parse(m: &[u8]) -> Result<BoundedManifest, BoundedManifestError> {
        let bad = |what: String| BoundedManifestError(what);
        if m.len() < FIXED {
            return Err(bad(format!(
                "{} bytes, shorter than its {FIXED} fixed bytes",
                m.len()
            )));
        }
        if !is_bounded_manifest(m) {
            return Err(bad(format!(
                "magic number is {:02x?}, expected \"SLIDEBMF\"",
                &m[..8]
            )));
        }
        let version = LE::read_u16(&m[8..]);
        if version != BOUNDED_MANIFEST_VERSION {
            return Err(bad(format!(
                "version {version}: this slidetable reads version {BOUNDED_MANIFEST_VERSION}"
            )));
        }
        let parts = LE::read_u32(&m[12..]);
        if parts == 0 {
            return Err(bad("parts is 0".into()));
        }
        let expected = FIXED as u64 + RECORD as u64 * u64::from(parts);
        if m.len() as u64 != expected {
            return Err(bad(format!(
                "{} bytes, but {parts} parts make {expected} (truncated, or bytes added)",
                m.len()
            )));
        }
        let stored = LE::read_u32(&m[20..]);
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&m[..20]);
        hasher.update(&[0; 4]);
        hasher.update(&m[24..]);
        let computed = hasher.finalize();
        if stored != computed {
            return Err(bad(format!(
                "the checksum does not hold (stored {stored:#010x}, computed {computed:#010x})"
            )));
        }
        if m[10..12].iter().any(|&b| b != 0) {
            return Err(bad("reserved bytes 10..12 are not zero".into()));
        }
        let records = m[FIXED..]
            .chunks_exact(RECORD)
            .enumerate()
            .map(|(k, r)| {
                if LE::read_u32(&r[12..]) != 0 {
                    return Err(bad(format!(
                        "record {k}: reserved bytes 12..16 are not zero"
                    )));
                }
                Ok(BoundedPartRecord {
                    len: LE::read_u64(&r[0..]),
                    header_crc: LE::read_u32(&r[8..]),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BoundedManifest {
            max_depth: LE::read_u32(&m[16..]),
            states: LE::read_u64(&m[24..]),
            parts: records,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_truncation_and_flipped_byte_is_refused() {
        let bytes = BoundedManifest {
            max_depth: 9,
            states: 1234,
            parts: vec![
                BoundedPartRecord {
                    len: 5000,
                    header_crc: 0xdead_beef,
                },
                BoundedPartRecord {
                    len: 6000,
                    header_crc: 1,
                },
            ],
        }
        .to_bytes();
        for len in 0..bytes.len() {
            assert!(BoundedManifest::parse(&bytes[..len]).is_err(), "{len}");
        }
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x04;
            assert!(BoundedManifest::parse(&bad).is_err(), "byte {at}");
        }
    }
}
