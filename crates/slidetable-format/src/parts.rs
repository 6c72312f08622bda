//! A table in parts (docs/FORMAT.md §12): the 2-bit payload of one section cut into
//! contiguous slices of ranks, one part file per slice, and a manifest that names them.
//!
//! A part file is its slice's payload bytes from offset 0 (so a reader can map it at any page
//! boundary), then (version 2) the CRC-32 of each [`BLOCK_LEN`] bytes of that payload, then a
//! [`PART_FOOTER_LEN`]-byte footer naming the board, the goal, the encoding, the slice,
//! "part k of N", the payload's CRC-32 and (version 2) the CRC-32 of the block checksums, with
//! a CRC of its own. Every slice but the last is a whole number of blocks, so the parts'
//! block checksums one after another are those of the joined payload: a reader maps the
//! parts and checks each block the first time it reads from it, as it does a table file of
//! format version 2. Version-1 parts (no block checksums) are still read. The manifest,
//! written last (by the process that owns part 0, once every part is in place), holds each
//! part's slice and checksums and the exact header of the ordinary table the parts join into:
//! a directory with no manifest is never read as a table, and joining the parts is the
//! manifest's header followed by each part's payload in order.
//!
//! Where the slices fall is decided here once ([`Slices`]): whole units of [`SLICE_UNIT`]
//! ranks (64 KiB of 2-bit payload, a multiple of every common page size), as evenly as the
//! units allow, the last slice ending at the last rank.

use std::ops::Range;

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::{Board, Layout, MAX_CELLS};

use crate::{block_count, CostModel, Encoding, PayloadHasher, BLOCK_LEN};

/// The first eight bytes of a part file's footer.
pub const PART_MAGIC: [u8; 8] = *b"SLIDEPRT";
/// The first eight bytes of a manifest.
pub const MANIFEST_MAGIC: [u8; 8] = *b"SLIDEMAN";
/// The version of the part and manifest layouts this code writes: 2, parts with block
/// checksums. Version 1 (parts without them) is still read.
pub const PARTS_VERSION: u16 = 2;
/// Bytes in a part file's footer.
pub const PART_FOOTER_LEN: usize = 128;
/// Bytes before the part records in a manifest.
pub const MANIFEST_FIXED_LEN: usize = 32;
/// Bytes in one part record of a manifest.
pub const PART_RECORD_LEN: usize = 32;
/// Slices start at multiples of this many ranks: their payload at multiples of
/// [`BLOCK_LEN`] bytes (four ranks a byte).
pub const SLICE_UNIT: u64 = 1 << 18;
const _: () = assert!(SLICE_UNIT / 4 == BLOCK_LEN);
/// The manifest's file name in a table's directory.
pub const MANIFEST_NAME: &str = "manifest";
/// The most bytes a manifest is read from: 64 MiB, two million parts' records (no run of
/// the search has a thousandth of that); a larger file is refused before it is read.
pub const MANIFEST_MAX_LEN: u64 = 64 << 20;

/// The file name of part `k` (from 0) of `parts`.
pub fn part_name(k: u32, parts: u32) -> String {
    format!("part-{k:04}-of-{parts:04}.slp")
}

/// Whether `name` is named like a part file (of any count): what a reader of a directory
/// refuses when the manifest does not list it.
pub fn is_part_name(name: &str) -> bool {
    name.starts_with("part-") && name.ends_with(".slp")
}

/// What is wrong with a part file or a manifest. Messages name the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PartError {
    /// Too short to hold its fixed fields.
    #[error("is {len} bytes, too short for a {what}")]
    TooShort {
        /// The file's length.
        len: u64,
        /// A part footer or a manifest.
        what: &'static str,
    },
    /// The magic number is wrong (for a part file: its last 128 bytes are no footer, which is
    /// what a truncated part looks like).
    #[error("is not a {what} (magic number {found:02x?}): truncated, or another file")]
    BadMagic {
        /// A part footer or a manifest.
        what: &'static str,
        /// The bytes found.
        found: [u8; 8],
    },
    /// A layout version this code does not read.
    #[error(
        "version {found} is not supported (this slidetable reads versions 1 to {PARTS_VERSION})"
    )]
    UnsupportedVersion {
        /// The version found.
        found: u16,
    },
    /// The fixed fields do not match their checksum.
    #[error("{what} checksum mismatch (stored {stored:08x}, computed {computed:08x})")]
    Checksum {
        /// The footer, the manifest or the payload.
        what: &'static str,
        /// The checksum stored.
        stored: u32,
        /// The checksum computed.
        computed: u32,
    },
    /// A field with a value no part or manifest may have.
    #[error("{field} is {found}: {why}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// Its value.
        found: u64,
        /// What it should be.
        why: String,
    },
    /// The file's length disagrees with its fields.
    #[error("is {actual} bytes, but its fields give {expected}: truncated or with trailing bytes")]
    Length {
        /// The length the fields give.
        expected: u64,
        /// The file's length.
        actual: u64,
    },
    /// Only 2-bit tables of one goal are cut into parts.
    #[error("holds {encoding} entries; only 2bit tables are cut into parts")]
    Encoding {
        /// The encoding found.
        encoding: Encoding,
    },
}

/// Where the slices of `entries` ranks cut into `parts` parts fall (see the module's doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slices {
    /// `parts + 1` boundaries, from 0 to `entries`.
    bounds: Vec<u64>,
}

impl Slices {
    /// The slices of `entries` ranks among `parts` parts (at least one).
    pub fn new(entries: u64, parts: u32) -> Slices {
        let parts = u64::from(parts.max(1));
        let units = entries.div_ceil(SLICE_UNIT);
        let bounds = (0..=parts)
            .map(|k| {
                let unit = (u128::from(units) * u128::from(k) / u128::from(parts)) as u64;
                unit.saturating_mul(SLICE_UNIT).min(entries)
            })
            .collect();
        Slices { bounds }
    }

    /// How many parts.
    pub fn parts(&self) -> u32 {
        (self.bounds.len() - 1) as u32
    }

    /// The ranks of part `k` (empty for `k` past the last part).
    pub fn part(&self, k: u32) -> Range<u64> {
        let k = k as usize;
        match (self.bounds.get(k), self.bounds.get(k + 1)) {
            (Some(&lo), Some(&hi)) => lo..hi,
            _ => 0..0,
        }
    }

    /// The part that holds `rank` (the last part for a rank past the end).
    pub fn owner(&self, rank: u64) -> u32 {
        // The first boundary above `rank`, less one: empty slices own nothing.
        let above = self.bounds.partition_point(|&b| b <= rank);
        (above.clamp(1, self.bounds.len() - 1) - 1) as u32
    }
}

/// The payload bytes of `ranks` 2-bit entries (four to a byte).
pub fn slice_payload_len(ranks: &Range<u64>) -> u64 {
    (ranks.end - ranks.start).div_ceil(4)
}

/// The footer of one part file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartFooter {
    /// The board.
    pub board: Board,
    /// The encoding of the payload (2-bit).
    pub encoding: Encoding,
    /// The cost model (unit).
    pub cost: CostModel,
    /// The goal of the section the part is a slice of.
    pub goal: Layout,
    /// The section's entries (all parts together).
    pub entries: u64,
    /// The ranks this part holds.
    pub ranks: Range<u64>,
    /// Which part, from 0.
    pub part: u32,
    /// Of how many.
    pub parts: u32,
    /// CRC-32 of the part's payload bytes.
    pub payload_crc: u32,
    /// CRC-32 of the block checksums stored after the payload (version 2); `None` for a part
    /// of version 1, which has none.
    pub block_sums_crc: Option<u32>,
}

const F_VERSION: usize = 8;
const F_ROWS: usize = 10;
const F_COLS: usize = 11;
const F_ENCODING: usize = 12;
const F_COST: usize = 13;
const F_GOAL: usize = 16;
const F_ENTRIES: usize = 32;
const F_FIRST: usize = 40;
const F_END: usize = 48;
const F_PART: usize = 56;
const F_PARTS: usize = 60;
const F_PAYLOAD_CRC: usize = 64;
const F_PAYLOAD_LEN: usize = 72;
const F_BLOCKS_CRC: usize = 80;
const F_CRC: usize = PART_FOOTER_LEN - 4;

fn field(field: &'static str, found: u64, why: impl Into<String>) -> PartError {
    PartError::Field {
        field,
        found,
        why: why.into(),
    }
}

impl PartFooter {
    /// The footer's bytes, its checksum last.
    pub fn to_bytes(&self) -> [u8; PART_FOOTER_LEN] {
        let mut f = [0u8; PART_FOOTER_LEN];
        f[..8].copy_from_slice(&PART_MAGIC);
        let version = if self.block_sums_crc.is_some() { 2 } else { 1 };
        LE::write_u16(&mut f[F_VERSION..], version);
        f[F_ROWS] = self.board.rows() as u8;
        f[F_COLS] = self.board.cols() as u8;
        f[F_ENCODING] = self.encoding as u8;
        f[F_COST] = self.cost as u8;
        f[F_GOAL..F_GOAL + self.goal.tiles().len()].copy_from_slice(self.goal.tiles());
        LE::write_u64(&mut f[F_ENTRIES..], self.entries);
        LE::write_u64(&mut f[F_FIRST..], self.ranks.start);
        LE::write_u64(&mut f[F_END..], self.ranks.end);
        LE::write_u32(&mut f[F_PART..], self.part);
        LE::write_u32(&mut f[F_PARTS..], self.parts);
        LE::write_u32(&mut f[F_PAYLOAD_CRC..], self.payload_crc);
        LE::write_u64(&mut f[F_PAYLOAD_LEN..], slice_payload_len(&self.ranks));
        LE::write_u32(&mut f[F_BLOCKS_CRC..], self.block_sums_crc.unwrap_or(0));
        let crc = crc(&f[..F_CRC]);
        LE::write_u32(&mut f[F_CRC..], crc);
        f
    }

    /// Reads and checks the footer at the end of a whole part file (its fields, not its
    /// payload's checksum: see [`PartFooter::verify`]).
    pub fn parse(file: &[u8]) -> Result<PartFooter, PartError> {
        let at = file.len().saturating_sub(PART_FOOTER_LEN);
        PartFooter::parse_end(&file[at..], file.len() as u64)
    }

    /// Reads and checks a part file's footer from its last bytes `f` (at most
    /// [`PART_FOOTER_LEN`] of them) and the file's length `len`: what a reader that maps the
    /// payload reads of the file first.
    pub fn parse_end(f: &[u8], len: u64) -> Result<PartFooter, PartError> {
        if f.len() < PART_FOOTER_LEN || len < PART_FOOTER_LEN as u64 {
            return Err(PartError::TooShort {
                len,
                what: "part footer",
            });
        }
        let f = &f[f.len() - PART_FOOTER_LEN..];
        let at = len - PART_FOOTER_LEN as u64;
        let magic: [u8; 8] = f[..8].try_into().unwrap_or_default();
        if magic != PART_MAGIC {
            return Err(PartError::BadMagic {
                what: "part file",
                found: magic,
            });
        }
        let (stored, computed) = (LE::read_u32(&f[F_CRC..]), crc(&f[..F_CRC]));
        if stored != computed {
            return Err(PartError::Checksum {
                what: "footer",
                stored,
                computed,
            });
        }
        let version = LE::read_u16(&f[F_VERSION..]);
        if version == 0 || version > PARTS_VERSION {
            return Err(PartError::UnsupportedVersion { found: version });
        }
        let (rows, cols) = (f[F_ROWS], f[F_COLS]);
        // Parts are 2-bit (checked below): every board up to 16 cells.
        let board = Board::new(rows.into(), cols.into()).ok().ok_or_else(|| {
            field(
                "board",
                u64::from(rows) << 8 | u64::from(cols),
                "not a table's board",
            )
        })?;
        let encoding = Encoding::from_code(f[F_ENCODING])
            .ok_or_else(|| field("encoding", f[F_ENCODING].into(), "no such encoding"))?;
        if encoding != Encoding::TwoBit {
            return Err(PartError::Encoding { encoding });
        }
        let cost = CostModel::from_code(f[F_COST])
            .filter(|&c| c == CostModel::Unit)
            .ok_or_else(|| field("cost model", f[F_COST].into(), "2bit parts hold unit costs"))?;
        let cells = board.cells();
        let goal = Layout::new(board, &f[F_GOAL..F_GOAL + cells])
            .ok()
            .filter(|_| {
                f[F_GOAL + cells..F_GOAL + MAX_CELLS]
                    .iter()
                    .all(|&b| b == 0)
            })
            .ok_or_else(|| field("goal", 0, format!("not a {board} layout")))?;
        let entries = LE::read_u64(&f[F_ENTRIES..]);
        if entries != board.reachable_states() {
            return Err(field(
                "entries",
                entries,
                format!("a {board} section has {}", board.reachable_states()),
            ));
        }
        let (part, parts) = (LE::read_u32(&f[F_PART..]), LE::read_u32(&f[F_PARTS..]));
        if parts == 0 || part >= parts {
            return Err(field("part", part.into(), format!("not a part of {parts}")));
        }
        let ranks = LE::read_u64(&f[F_FIRST..])..LE::read_u64(&f[F_END..]);
        let expected = Slices::new(entries, parts).part(part);
        if ranks != expected {
            return Err(field(
                "first rank",
                ranks.start,
                format!(
                    "part {part} of {parts} holds ranks {}..{}, not {}..{}",
                    expected.start, expected.end, ranks.start, ranks.end
                ),
            ));
        }
        let payload_len = LE::read_u64(&f[F_PAYLOAD_LEN..]);
        let expected = slice_payload_len(&ranks);
        if payload_len != expected {
            return Err(field(
                "payload length",
                payload_len,
                format!("{} ranks take {expected} bytes", ranks.end - ranks.start),
            ));
        }
        let block_sums_crc = (version >= 2).then(|| LE::read_u32(&f[F_BLOCKS_CRC..]));
        let sums_len = if block_sums_crc.is_some() {
            4 * block_count(payload_len)
        } else {
            0
        };
        if at != payload_len + sums_len {
            return Err(PartError::Length {
                expected: payload_len + sums_len + PART_FOOTER_LEN as u64,
                actual: len,
            });
        }
        Ok(PartFooter {
            board,
            encoding,
            cost,
            goal,
            entries,
            ranks,
            part,
            parts,
            payload_crc: LE::read_u32(&f[F_PAYLOAD_CRC..]),
            block_sums_crc,
        })
    }

    /// The payload's length in bytes.
    pub fn payload_len(&self) -> u64 {
        slice_payload_len(&self.ranks)
    }

    /// The length of the block checksums after the payload (0 in version 1).
    pub fn block_sums_len(&self) -> u64 {
        match self.block_sums_crc {
            Some(_) => 4 * block_count(self.payload_len()),
            None => 0,
        }
    }

    /// The part file's whole length.
    pub fn file_len(&self) -> u64 {
        self.payload_len() + self.block_sums_len() + PART_FOOTER_LEN as u64
    }

    /// The block checksums of a version-2 part, from their bytes `sums` (read from after the
    /// payload), checked against the footer's checksum of them.
    pub fn block_sums(&self, sums: &[u8]) -> Result<Vec<u32>, PartError> {
        let Some(stored) = self.block_sums_crc else {
            return Ok(Vec::new());
        };
        let computed = crc(sums);
        if computed != stored || sums.len() as u64 != self.block_sums_len() {
            return Err(PartError::Checksum {
                what: "block checksums'",
                stored,
                computed,
            });
        }
        let mut blocks = vec![0u32; sums.len() / 4];
        LE::read_u32_into(sums, &mut blocks);
        Ok(blocks)
    }

    /// Checks the payload of `file` (the whole part file) against the footer's checksum.
    pub fn verify(&self, file: &[u8]) -> Result<(), PartError> {
        let end = (self.payload_len() as usize).min(file.len());
        let payload = &file[..end];
        let computed = crc(payload);
        if computed != self.payload_crc {
            return Err(PartError::Checksum {
                what: "payload",
                stored: self.payload_crc,
                computed,
            });
        }
        Ok(())
    }

    /// The checksum of the footer's own bytes (what a manifest records of it).
    pub fn footer_crc(&self) -> u32 {
        LE::read_u32(&self.to_bytes()[F_CRC..])
    }
}

/// What a manifest records of one part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartRecord {
    /// Its ranks.
    pub ranks: Range<u64>,
    /// Its payload's CRC-32.
    pub payload_crc: u32,
    /// Its footer's CRC-32.
    pub footer_crc: u32,
}

/// A table's manifest: its parts and the header of the ordinary table they join into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// One record per part, in rank order.
    pub parts: Vec<PartRecord>,
    /// The header (as [`crate::Header::to_bytes`] makes it) of the joined table.
    pub header: Vec<u8>,
}

const M_VERSION: usize = 8;
const M_PARTS: usize = 12;
const M_HEADER_LEN: usize = 16;
const M_CRC: usize = 24;

impl Manifest {
    /// The manifest's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let records = self.parts.len() * PART_RECORD_LEN;
        let mut m = vec![0u8; MANIFEST_FIXED_LEN + records];
        m[..8].copy_from_slice(&MANIFEST_MAGIC);
        LE::write_u16(&mut m[M_VERSION..], PARTS_VERSION);
        LE::write_u32(&mut m[M_PARTS..], self.parts.len() as u32);
        LE::write_u64(&mut m[M_HEADER_LEN..], self.header.len() as u64);
        for (i, p) in self.parts.iter().enumerate() {
            let r = &mut m[MANIFEST_FIXED_LEN + i * PART_RECORD_LEN..];
            LE::write_u64(r, p.ranks.start);
            LE::write_u64(&mut r[8..], p.ranks.end);
            LE::write_u32(&mut r[16..], p.payload_crc);
            LE::write_u32(&mut r[20..], p.footer_crc);
        }
        m.extend_from_slice(&self.header);
        let crc = crc(&m);
        LE::write_u32(&mut m[M_CRC..], crc);
        m
    }

    /// Reads and checks a manifest's own fields: its checksum, and part records that follow
    /// each other from rank 0 in the slices [`Slices`] gives. The header is checked by the
    /// reader of the joined table, which has every byte of it.
    pub fn parse(file: &[u8]) -> Result<Manifest, PartError> {
        let len = file.len() as u64;
        if file.len() < MANIFEST_FIXED_LEN {
            return Err(PartError::TooShort {
                len,
                what: "manifest",
            });
        }
        let magic: [u8; 8] = file[..8].try_into().unwrap_or_default();
        if magic != MANIFEST_MAGIC {
            return Err(PartError::BadMagic {
                what: "manifest",
                found: magic,
            });
        }
        let version = LE::read_u16(&file[M_VERSION..]);
        // Version 2 changed the parts, not the manifest's layout.
        if version == 0 || version > PARTS_VERSION {
            return Err(PartError::UnsupportedVersion { found: version });
        }
        let count = LE::read_u32(&file[M_PARTS..]);
        if count == 0 {
            return Err(field("part count", 0, "a table has at least one part"));
        }
        let header_len = LE::read_u64(&file[M_HEADER_LEN..]);
        let expected = (MANIFEST_FIXED_LEN as u64)
            .checked_add(u64::from(count) * PART_RECORD_LEN as u64)
            .and_then(|n| n.checked_add(header_len));
        if expected != Some(len) {
            return Err(PartError::Length {
                expected: expected.unwrap_or(u64::MAX),
                actual: len,
            });
        }
        let mut zeroed = file.to_vec();
        zeroed[M_CRC..M_CRC + 4].fill(0);
        let (stored, computed) = (LE::read_u32(&file[M_CRC..]), crc(&zeroed));
        if stored != computed {
            return Err(PartError::Checksum {
                what: "manifest",
                stored,
                computed,
            });
        }
        let parts: Vec<PartRecord> = (0..count as usize)
            .map(|i| {
                let r = &file[MANIFEST_FIXED_LEN + i * PART_RECORD_LEN..];
                PartRecord {
                    ranks: LE::read_u64(r)..LE::read_u64(&r[8..]),
                    payload_crc: LE::read_u32(&r[16..]),
                    footer_crc: LE::read_u32(&r[20..]),
                }
            })
            .collect();
        let entries = parts.last().map_or(0, |p| p.ranks.end);
        let slices = Slices::new(entries, count);
        for (k, p) in parts.iter().enumerate() {
            let expected = slices.part(k as u32);
            if p.ranks != expected {
                return Err(field(
                    "part record",
                    k as u64,
                    format!(
                        "part {k} of {count} of {entries} ranks holds {}..{}, not {}..{}",
                        expected.start, expected.end, p.ranks.start, p.ranks.end
                    ),
                ));
            }
        }
        let at = MANIFEST_FIXED_LEN + count as usize * PART_RECORD_LEN;
        Ok(Manifest {
            parts,
            header: file[at..].to_vec(),
        })
    }
}

fn crc(bytes: &[u8]) -> u32 {
    let mut h = PayloadHasher::new();
    h.update(bytes);
    h.finalize()
}

/// The CRC-32 of payloads one after another, from each one's CRC and length: what a
/// joined table's header keeps, computed without reading the parts again.
pub fn joined_crc(parts: impl IntoIterator<Item = (u32, u64)>) -> u32 {
    let mut whole = PayloadHasher::new();
    for (crc, len) in parts {
        whole.combine(&PayloadHasher::new_with_initial_len(crc, len));
    }
    whole.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_every_rank_once_in_whole_units() {
        for (entries, parts) in [
            (1_814_400u64, 1u32),
            (1_814_400, 3),
            (239_500_800, 4),
            (360, 2),
            (12, 5),
        ] {
            let s = Slices::new(entries, parts);
            assert_eq!(s.parts(), parts);
            let mut next = 0;
            for k in 0..parts {
                let r = s.part(k);
                assert_eq!(r.start, next, "{entries} {parts} {k}");
                assert!(r.start.is_multiple_of(SLICE_UNIT) || r.start == entries);
                for rank in [r.start, r.end.saturating_sub(1)] {
                    if !r.is_empty() {
                        assert_eq!(s.owner(rank), k, "rank {rank}");
                    }
                }
                next = r.end;
            }
            assert_eq!(next, entries);
        }
    }

    #[test]
    fn a_footer_reads_back_and_refuses_damage_by_name() {
        let board = Board::new(2, 5).unwrap();
        let slices = Slices::new(board.reachable_states(), 3);
        let ranks = slices.part(1);
        let payload = vec![0x55u8; slice_payload_len(&ranks) as usize];
        let footer = PartFooter {
            board,
            encoding: Encoding::TwoBit,
            cost: CostModel::Unit,
            goal: board.standard_goal(),
            entries: board.reachable_states(),
            ranks,
            part: 1,
            parts: 3,
            payload_crc: crc(&payload),
            block_sums_crc: None,
        };
        // Version 1: the payload, then the footer.
        let mut old = payload.clone();
        old.extend_from_slice(&footer.to_bytes());
        assert_eq!(PartFooter::parse(&old).unwrap(), footer);
        footer.verify(&old).unwrap();
        // Version 2: the payload, its block checksums, then the footer.
        let sums = crate::BlockSums::of([&payload[..]]).to_bytes();
        let footer = PartFooter {
            block_sums_crc: Some(crc(&sums)),
            ..footer
        };
        let mut file = payload.clone();
        file.extend_from_slice(&sums);
        file.extend_from_slice(&footer.to_bytes());
        assert_eq!(PartFooter::parse(&file).unwrap(), footer);
        assert_eq!(footer.file_len(), file.len() as u64);
        footer.verify(&file).unwrap();
        let at = payload.len();
        let blocks = footer.block_sums(&file[at..at + sums.len()]).unwrap();
        assert_eq!(blocks, crate::BlockSums::of([&payload[..]]).blocks);
        let mut bad_sums = sums.clone();
        bad_sums[0] ^= 1;
        assert!(footer
            .block_sums(&bad_sums)
            .unwrap_err()
            .to_string()
            .starts_with("block checksums' checksum mismatch"));
        let mut bad = file.clone();
        bad[3] ^= 1;
        assert!(footer
            .verify(&bad)
            .unwrap_err()
            .to_string()
            .starts_with("payload checksum mismatch"));
        let cut = &file[..file.len() - 1];
        assert_eq!(
            PartFooter::parse(cut).unwrap_err().to_string(),
            format!(
                "is not a part file (magic number {:02x?}): truncated, or another file",
                &file[file.len() - 129..file.len() - 121]
            )
        );
        let mut short = file[1..].to_vec();
        short.truncate(short.len());
        assert!(matches!(
            PartFooter::parse(&short),
            Err(PartError::Length { .. })
        ));
    }

    #[test]
    fn a_manifest_reads_back_and_refuses_damage() {
        let slices = Slices::new(1_814_400, 2);
        let m = Manifest {
            parts: (0..2)
                .map(|k| PartRecord {
                    ranks: slices.part(k),
                    payload_crc: k,
                    footer_crc: 7 + k,
                })
                .collect(),
            header: vec![1, 2, 3],
        };
        let bytes = m.to_bytes();
        assert_eq!(Manifest::parse(&bytes).unwrap(), m);
        let mut bad = bytes.clone();
        bad[40] ^= 1;
        assert!(Manifest::parse(&bad)
            .unwrap_err()
            .to_string()
            .starts_with("manifest checksum mismatch"));
        assert!(matches!(
            Manifest::parse(&bytes[..bytes.len() - 1]),
            Err(PartError::Length { .. })
        ));
    }

    #[test]
    fn the_joined_crc_is_the_crc_of_the_payloads_one_after_another() {
        let (a, b) = (vec![1u8; 1000], vec![7u8; 333]);
        let whole: Vec<u8> = a.iter().chain(&b).copied().collect();
        assert_eq!(
            joined_crc([(crc(&a), a.len() as u64), (crc(&b), b.len() as u64)]),
            crc(&whole)
        );
    }
}
