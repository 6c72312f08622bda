//! The frame every file shares, tables of every state and pattern databases alike: the
//! fixed header (magic, version, board, codes, lengths, checksums), the section
//! descriptors, the histograms after them, and the payloads packed from the end of the
//! header to the end of the file (docs/FORMAT.md §2–§4, §11). [`crate::Header`] and
//! [`crate::PatternHeader`] each hold a [`Frame`] and add what their kind means; this module
//! is the one reader and writer of those bytes.

use byteorder::{ByteOrder, LittleEndian as LE};
use slidetable_core::{Board, Layout, MAX_CELLS};

use crate::blocks::{block_count, BlockSums, BLOCK_LEN};
use crate::{FormatError, SectionProblem, MAGIC, MAX_HISTOGRAM_ENTRIES, VERSION};

/// Bytes in the fixed part of the header.
pub const FIXED_HEADER_LEN: usize = 64;
/// Bytes in one section descriptor.
pub const SECTION_LEN: usize = 64;

// Field offsets in the fixed header.
const OFF_VERSION: usize = 8;
const OFF_ROWS: usize = 10;
const OFF_COLS: usize = 11;
pub(crate) const OFF_ENCODING: usize = 12;
const OFF_COST: usize = 13;
const OFF_SECTIONS: usize = 14;
const OFF_HEADER_LEN: usize = 16;
const OFF_HEADER_CRC: usize = 20;
const OFF_PAYLOAD_CRC: usize = 24;
/// Version 2: the CRC-32 of the block checksums after the payloads.
const OFF_BLOCKS_CRC: usize = 28;
const OFF_FILE_LEN: usize = 32;
/// Version 2: the payload bytes each block checksum covers.
const OFF_BLOCK_LEN: usize = 40;

// Field offsets in a section descriptor.
const S_GOAL: usize = 0;
const S_ENTRIES: usize = 16;
const S_MAX: usize = 24;
const S_HIST_LEN: usize = 28;
const S_HIST_OFF: usize = 32;
const S_PAYLOAD_OFF: usize = 40;
const S_PAYLOAD_LEN: usize = 48;
/// The tile mask of a pattern database's group, in what tables of every state leave
/// reserved (zero).
const S_TILES: usize = 56;

/// What a file's fixed header says the file is for, from its first bytes alone (at least
/// [`FIXED_HEADER_LEN`]): the board's rows and columns and the cost model's code; `None` when
/// the bytes are too few or do not start with the magic number. Nothing else is checked (the
/// readers' opening checks the whole header): this tells, before a file is opened, that it
/// holds another board than its name promises.
pub fn claimed_board(prefix: &[u8]) -> Option<(u8, u8, u8)> {
    if prefix.len() < FIXED_HEADER_LEN || prefix[..8] != MAGIC {
        return None;
    }
    Some((prefix[OFF_ROWS], prefix[OFF_COLS], prefix[OFF_COST]))
}

pub(crate) fn add(a: u64, b: u64, what: &'static str) -> Result<u64, FormatError> {
    a.checked_add(b).ok_or(FormatError::Overflow(what))
}

pub(crate) fn mul(a: u64, b: u64, what: &'static str) -> Result<u64, FormatError> {
    a.checked_mul(b).ok_or(FormatError::Overflow(what))
}

/// The fixed header's fields that say what kind of file it is, read before the kind's own
/// checks (board, codes, section count).
pub(crate) struct Kind {
    pub(crate) rows: u8,
    pub(crate) cols: u8,
    pub(crate) encoding: u8,
    pub(crate) cost: u8,
    pub(crate) count: u16,
}

/// What the writer knows of one section before the layout: its goal, its tile mask (zero
/// in a table of every state), its histogram, its entries and their bytes.
pub(crate) struct Part {
    pub(crate) goal: Layout,
    pub(crate) tiles: u16,
    pub(crate) histogram: Vec<u64>,
    pub(crate) entries: u64,
    pub(crate) payload_len: u64,
}

/// One section descriptor, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Descriptor {
    /// The goal the section's values are distances to.
    pub(crate) goal: Layout,
    /// A pattern database's group (bit `t` for tile `t`); zero in a table of every state.
    pub(crate) tiles: u16,
    /// Entries in the payload.
    pub(crate) entries: u64,
    /// The largest value stored: `histogram.len() - 1` once checked.
    pub(crate) max: u32,
    /// `histogram[v]` = entries of value `v`.
    pub(crate) histogram: Vec<u64>,
    /// Where the histogram starts, from the start of the file.
    pub(crate) histogram_offset: u64,
    /// Where the payload starts, from the start of the file.
    pub(crate) payload_offset: u64,
    /// The payload's length in bytes.
    pub(crate) payload_len: u64,
}

/// A kind's public section type: a [`Descriptor`] under the kind's own names.
pub(crate) trait Section {
    /// The section made of `d`.
    fn new(d: Descriptor) -> Self;
    /// The descriptor under it.
    fn descriptor(&self) -> &Descriptor;
}

/// What a writer knows of the payload's checksums, which also picks the format version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayloadSums {
    /// Version 1: one CRC-32 of the whole payload (what a table in parts' manifest keeps).
    Whole(u32),
    /// Version 2: that CRC and one per block, stored after the payloads.
    Blocks(BlockSums),
}

/// The header's frame, as validated by the kind that holds it; `S` is the kind's section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Frame<S> {
    pub(crate) board: Board,
    pub(crate) sections: Vec<S>,
    /// The format version: 1 (one payload checksum) or 2 (and one per block).
    pub(crate) version: u16,
    /// Bytes from the start of the file to the first payload byte.
    pub(crate) header_len: u64,
    /// CRC-32 of every payload byte, in file order.
    pub(crate) payload_crc: u32,
    /// Version 2: the CRC-32 of the block checksums' bytes (0 in version 1).
    pub(crate) blocks_crc: u32,
    /// Version 2: each block's CRC-32 (empty in version 1, and until a reader has read and
    /// checked them).
    pub(crate) blocks: Vec<u32>,
    /// The whole file's length in bytes.
    pub(crate) file_len: u64,
}

impl<S: Section> Frame<S> {
    /// Lays out a file: sections in the given order, histograms after the descriptors, the
    /// payloads one after another right after the header.
    pub(crate) fn lay_out(
        board: Board,
        parts: Vec<Part>,
        sums: PayloadSums,
    ) -> Result<Frame<S>, FormatError> {
        let hist_total: u64 = parts.iter().map(|s| s.histogram.len() as u64).sum();
        let descriptors = mul(
            parts.len() as u64,
            SECTION_LEN as u64,
            "section descriptors",
        )?;
        let header_len = add(
            add(FIXED_HEADER_LEN as u64, descriptors, "header length")?,
            mul(hist_total, 8, "histograms")?,
            "header length",
        )?;
        let mut hist_off = FIXED_HEADER_LEN as u64 + descriptors;
        let mut payload_off = header_len;
        let mut sections = Vec::with_capacity(parts.len());
        for part in parts {
            let len = part.histogram.len() as u64;
            sections.push(S::new(Descriptor {
                goal: part.goal,
                tiles: part.tiles,
                entries: part.entries,
                max: len.saturating_sub(1) as u32,
                histogram: part.histogram,
                histogram_offset: hist_off,
                payload_offset: payload_off,
                payload_len: part.payload_len,
            }));
            hist_off = add(hist_off, mul(len, 8, "histograms")?, "histograms")?;
            payload_off = add(payload_off, part.payload_len, "file length")?;
        }
        let frame = Frame {
            board,
            sections,
            version: 1,
            header_len,
            payload_crc: 0,
            blocks_crc: 0,
            blocks: Vec::new(),
            file_len: payload_off,
        };
        frame.with_sums(sums)
    }

    /// This frame with these checksums: version 1 for one, version 2 (and the block
    /// checksums' length in the file's) for blocks, which must be as many as the payload has.
    pub(crate) fn with_sums(self, sums: PayloadSums) -> Result<Frame<S>, FormatError> {
        let payload = self.payload_total()?;
        let end = add(self.header_len, payload, "file length")?;
        let mut frame = self;
        match sums {
            PayloadSums::Whole(crc) => {
                frame.version = 1;
                frame.payload_crc = crc;
                frame.blocks_crc = 0;
                frame.blocks = Vec::new();
                frame.file_len = end;
            }
            PayloadSums::Blocks(sums) => {
                let count = block_count(payload);
                if sums.blocks.len() as u64 != count {
                    return Err(FormatError::BlockCount {
                        found: sums.blocks.len() as u64,
                        expected: count,
                    });
                }
                frame.version = VERSION;
                frame.payload_crc = sums.payload;
                frame.blocks_crc = sums.table_crc();
                frame.file_len = add(end, mul(count, 4, "block checksums")?, "file length")?;
                frame.blocks = sums.blocks;
            }
        }
        Ok(frame)
    }

    /// Every section's payload bytes, added up.
    pub(crate) fn payload_total(&self) -> Result<u64, FormatError> {
        self.descriptors()
            .try_fold(0u64, |t, s| add(t, s.payload_len, "payload length"))
    }

    /// The bytes after the payloads: the block checksums (none in version 1).
    pub(crate) fn trailer(&self) -> Vec<u8> {
        BlockSums {
            payload: self.payload_crc,
            blocks: self.blocks.clone(),
        }
        .to_bytes()
    }

    /// The header's bytes (`header_len` of them) with these encoding and cost codes,
    /// checksum included.
    pub(crate) fn to_bytes(&self, encoding: u8, cost: u8) -> Vec<u8> {
        let mut b = vec![0u8; self.header_len as usize];
        b[..8].copy_from_slice(&MAGIC);
        LE::write_u16(&mut b[OFF_VERSION..], self.version);
        b[OFF_ROWS] = self.board.rows() as u8;
        b[OFF_COLS] = self.board.cols() as u8;
        b[OFF_ENCODING] = encoding;
        b[OFF_COST] = cost;
        LE::write_u16(&mut b[OFF_SECTIONS..], self.sections.len() as u16);
        LE::write_u32(&mut b[OFF_HEADER_LEN..], self.header_len as u32);
        LE::write_u32(&mut b[OFF_PAYLOAD_CRC..], self.payload_crc);
        LE::write_u64(&mut b[OFF_FILE_LEN..], self.file_len);
        if self.version >= 2 {
            LE::write_u32(&mut b[OFF_BLOCKS_CRC..], self.blocks_crc);
            LE::write_u32(&mut b[OFF_BLOCK_LEN..], BLOCK_LEN as u32);
        }
        for (i, s) in self.sections.iter().enumerate() {
            let s = s.descriptor();
            let d = &mut b[FIXED_HEADER_LEN + i * SECTION_LEN..][..SECTION_LEN];
            d[S_GOAL..S_GOAL + s.goal.tiles().len()].copy_from_slice(s.goal.tiles());
            LE::write_u64(&mut d[S_ENTRIES..], s.entries);
            LE::write_u32(&mut d[S_MAX..], s.max);
            LE::write_u32(&mut d[S_HIST_LEN..], s.histogram.len() as u32);
            LE::write_u64(&mut d[S_HIST_OFF..], s.histogram_offset);
            LE::write_u64(&mut d[S_PAYLOAD_OFF..], s.payload_offset);
            LE::write_u64(&mut d[S_PAYLOAD_LEN..], s.payload_len);
            LE::write_u16(&mut d[S_TILES..], s.tiles);
            let h = &mut b[s.histogram_offset as usize..][..s.histogram.len() * 8];
            LE::write_u64_into(&s.histogram, h);
        }
        let crc = crc32fast::hash(&b);
        LE::write_u32(&mut b[OFF_HEADER_CRC..], crc);
        b
    }

    /// Reads the frame of a whole file, in the order docs/FORMAT.md §8 gives: length, magic
    /// number and version; then `kind`, which checks the board, the codes and the section
    /// count and returns the board and what else it keeps; then the file length, the header
    /// length and the header checksum; then each descriptor, whose goal `goal` checks first.
    /// Never panics, and the work is bounded by the header's own size.
    pub(crate) fn read<K>(
        file: &[u8],
        kind: impl FnOnce(&Kind) -> Result<(Board, K), FormatError>,
        mut goal: impl FnMut(usize, &Layout) -> Result<(), FormatError>,
    ) -> Result<(Frame<S>, K), FormatError> {
        let actual = file.len() as u64;
        if file.len() < FIXED_HEADER_LEN {
            return Err(FormatError::TooShort { len: actual });
        }
        let fixed = &file[..FIXED_HEADER_LEN];
        let mut magic = [0u8; 8];
        magic.copy_from_slice(&fixed[..8]);
        if magic == crate::MAGIC_25 {
            return Err(FormatError::Pattern25File);
        }
        if magic != MAGIC {
            return Err(FormatError::BadMagic { found: magic });
        }
        let version = LE::read_u16(&fixed[OFF_VERSION..]);
        if !(1..=VERSION).contains(&version) {
            return Err(FormatError::UnsupportedVersion { found: version });
        }
        let count = LE::read_u16(&fixed[OFF_SECTIONS..]);
        let (board, kept) = kind(&Kind {
            rows: fixed[OFF_ROWS],
            cols: fixed[OFF_COLS],
            encoding: fixed[OFF_ENCODING],
            cost: fixed[OFF_COST],
            count,
        })?;
        let declared = LE::read_u64(&fixed[OFF_FILE_LEN..]);
        if declared != actual {
            return Err(FormatError::LengthMismatch { declared, actual });
        }
        let header_len = u64::from(LE::read_u32(&fixed[OFF_HEADER_LEN..]));
        let descriptors_end = FIXED_HEADER_LEN as u64 + count as u64 * SECTION_LEN as u64;
        if header_len < descriptors_end || header_len > actual {
            return Err(FormatError::HeaderLenOutOfRange {
                found: header_len,
                min: descriptors_end,
                max: actual,
            });
        }
        let header_bytes = &file[..header_len as usize];
        let stored = LE::read_u32(&fixed[OFF_HEADER_CRC..]);
        let computed = {
            let mut h = crc32fast::Hasher::new();
            h.update(&header_bytes[..OFF_HEADER_CRC]);
            h.update(&[0; 4]);
            h.update(&header_bytes[OFF_HEADER_CRC + 4..]);
            h.finalize()
        };
        if stored != computed {
            return Err(FormatError::HeaderChecksum { stored, computed });
        }
        let payload_crc = LE::read_u32(&fixed[OFF_PAYLOAD_CRC..]);
        let blocks_crc = if version >= 2 {
            let block_len = LE::read_u32(&fixed[OFF_BLOCK_LEN..]);
            if u64::from(block_len) != BLOCK_LEN {
                return Err(FormatError::BlockLen { found: block_len });
            }
            LE::read_u32(&fixed[OFF_BLOCKS_CRC..])
        } else {
            0
        };

        let mut sections = Vec::with_capacity(count as usize);
        let mut hist_total = 0u64;
        for index in 0..count as usize {
            let bad = |problem: SectionProblem| FormatError::Section { index, problem };
            let d = &header_bytes[FIXED_HEADER_LEN + index * SECTION_LEN..][..SECTION_LEN];
            let this = Layout::new(board, &d[S_GOAL..S_GOAL + board.cells()])
                .map_err(|error| bad(SectionProblem::GoalNotALayout { board, error }))?;
            if d[S_GOAL + board.cells()..S_GOAL + MAX_CELLS]
                .iter()
                .any(|&b| b != 0)
            {
                return Err(bad(SectionProblem::GoalBeyondBoard));
            }
            goal(index, &this)?;
            let hist_len = u64::from(LE::read_u32(&d[S_HIST_LEN..]));
            hist_total = add(hist_total, hist_len, "histogram length")?;
            if hist_total > MAX_HISTOGRAM_ENTRIES {
                return Err(bad(SectionProblem::HistogramTooLong {
                    len: hist_len,
                    max: MAX_HISTOGRAM_ENTRIES,
                }));
            }
            let histogram_offset = LE::read_u64(&d[S_HIST_OFF..]);
            let hist_end = add(
                histogram_offset,
                mul(hist_len, 8, "histogram")?,
                "histogram",
            )?;
            if histogram_offset < descriptors_end || hist_end > header_len {
                return Err(bad(SectionProblem::HistogramOutside {
                    start: histogram_offset,
                    end: hist_end,
                    header_len,
                }));
            }
            let mut histogram = vec![0u64; hist_len as usize];
            LE::read_u64_into(
                &header_bytes[histogram_offset as usize..hist_end as usize],
                &mut histogram,
            );
            sections.push(S::new(Descriptor {
                goal: this,
                tiles: LE::read_u16(&d[S_TILES..]),
                entries: LE::read_u64(&d[S_ENTRIES..]),
                max: LE::read_u32(&d[S_MAX..]),
                histogram,
                histogram_offset,
                payload_offset: LE::read_u64(&d[S_PAYLOAD_OFF..]),
                payload_len: LE::read_u64(&d[S_PAYLOAD_LEN..]),
            }));
        }
        let frame = Frame {
            board,
            sections,
            version,
            header_len,
            payload_crc,
            blocks_crc,
            blocks: Vec::new(),
            file_len: actual,
        };
        Ok((frame, kept))
    }

    /// The rules of the frame that both kinds share, checked by writer and reader alike:
    /// between 1 and `max_sections` sections, at most [`MAX_HISTOGRAM_ENTRIES`] histogram
    /// entries in all, and each section's histogram and payload packed one after another
    /// (`payload_len` gives the length each payload must have). `each` checks what the kind
    /// asks of a section before its place is checked.
    pub(crate) fn check(
        &self,
        max_sections: usize,
        payload_len: impl Fn(&Descriptor) -> Result<u64, FormatError>,
        mut each: impl FnMut(usize, &Descriptor) -> Result<(), FormatError>,
    ) -> Result<(), FormatError> {
        if self.sections.is_empty() || self.sections.len() > max_sections {
            return Err(FormatError::BadSectionCount {
                found: self.sections.len().min(u16::MAX as usize) as u16,
                max: max_sections,
            });
        }
        let hist_total: u64 = self.descriptors().map(|s| s.histogram.len() as u64).sum();
        if hist_total > MAX_HISTOGRAM_ENTRIES {
            return Err(FormatError::Overflow("histogram entries"));
        }
        let mut expected_hist =
            FIXED_HEADER_LEN as u64 + (self.sections.len() * SECTION_LEN) as u64;
        let mut expected_payload = self.header_len;
        for (index, s) in self.descriptors().enumerate() {
            let bad = |problem: SectionProblem| FormatError::Section { index, problem };
            each(index, s)?;
            if s.histogram_offset != expected_hist {
                return Err(bad(SectionProblem::HistogramOffset {
                    found: s.histogram_offset,
                    expected: expected_hist,
                }));
            }
            expected_hist += s.histogram.len() as u64 * 8;
            let len = payload_len(s)?;
            if s.payload_offset != expected_payload || s.payload_len != len {
                return Err(bad(SectionProblem::PayloadPlace {
                    offset: s.payload_offset,
                    len: s.payload_len,
                    expected_offset: expected_payload,
                    expected_len: len,
                }));
            }
            expected_payload = add(expected_payload, len, "payload end")?;
        }
        Ok(())
    }

    /// The frame's last rules, after the kind's own whole-file checks: the header ends
    /// where the histograms do and the file where the payloads do.
    pub(crate) fn check_ends(&self) -> Result<(), FormatError> {
        let expected_hist = FIXED_HEADER_LEN as u64
            + (self.sections.len() * SECTION_LEN) as u64
            + self
                .descriptors()
                .map(|s| s.histogram.len() as u64 * 8)
                .sum::<u64>();
        if expected_hist != self.header_len {
            return Err(FormatError::BadHeaderLen {
                found: self.header_len,
                expected: expected_hist,
            });
        }
        let payloads_end = self.descriptors().try_fold(self.header_len, |end, s| {
            add(end, s.payload_len, "payload end")
        })?;
        let trailer = if self.version >= 2 {
            mul(
                block_count(payloads_end - self.header_len),
                4,
                "block checksums",
            )?
        } else {
            0
        };
        let expected_payload = add(payloads_end, trailer, "file length")?;
        if expected_payload != self.file_len {
            return Err(FormatError::LengthMismatch {
                declared: self.file_len,
                actual: expected_payload,
            });
        }
        Ok(())
    }

    /// The payload bytes of section `index` within `file`, the file this frame was read
    /// from; `None` if there is no such section or `file` is too short for it.
    pub(crate) fn payload<'a>(&self, file: &'a [u8], index: usize) -> Option<&'a [u8]> {
        let s = self.sections.get(index)?.descriptor();
        let start = usize::try_from(s.payload_offset).ok()?;
        let len = usize::try_from(s.payload_len).ok()?;
        file.get(start..start.checked_add(len)?)
    }

    /// The sections' descriptors, in file order.
    pub(crate) fn descriptors(&self) -> impl Iterator<Item = &Descriptor> {
        self.sections.iter().map(S::descriptor)
    }

    /// Reads the block checksums after the payloads of `file`, the file this frame was read
    /// from and checked against (so its length is the one [`Frame::check_ends`] allows), and
    /// checks them against their CRC in the header. Nothing to do in version 1.
    pub(crate) fn read_blocks(&mut self, file: &[u8]) -> Result<(), FormatError> {
        if self.version < 2 {
            return Ok(());
        }
        let start = add(self.header_len, self.payload_total()?, "payload end")?;
        let bytes = usize::try_from(start)
            .ok()
            .and_then(|start| file.get(start..))
            .ok_or(FormatError::TooShort {
                len: file.len() as u64,
            })?;
        let computed = crc32fast::hash(bytes);
        if computed != self.blocks_crc {
            return Err(FormatError::BlocksChecksum {
                stored: self.blocks_crc,
                computed,
            });
        }
        let mut blocks = vec![0u32; bytes.len() / 4];
        LE::read_u32_into(&bytes[..blocks.len() * 4], &mut blocks);
        self.blocks = blocks;
        Ok(())
    }

    /// All payload bytes of `file`, the file this frame was read from.
    fn payload_bytes<'a>(&self, file: &'a [u8]) -> Result<&'a [u8], FormatError> {
        let too_short = || FormatError::TooShort {
            len: file.len() as u64,
        };
        let start = usize::try_from(self.header_len).map_err(|_| too_short())?;
        let len = usize::try_from(self.payload_total()?).map_err(|_| too_short())?;
        file.get(start..start.checked_add(len).ok_or_else(too_short)?)
            .ok_or_else(too_short)
    }

    /// How many block checksums the file has (0 in version 1).
    pub(crate) fn block_count(&self) -> u64 {
        self.blocks.len() as u64
    }

    /// Checks block `k`'s bytes in `file` (the file this frame was read from) against its
    /// checksum: [`FormatError::BlockChecksum`], naming the block's offsets, when they differ.
    pub(crate) fn verify_block(&self, file: &[u8], k: u64) -> Result<(), FormatError> {
        let payload = self.payload_bytes(file)?;
        let Some(&stored) = self.blocks.get(k as usize) else {
            return Err(FormatError::Overflow("block index"));
        };
        let start = k * BLOCK_LEN;
        let end = (start + BLOCK_LEN).min(payload.len() as u64);
        let computed = crc32fast::hash(&payload[start as usize..end as usize]);
        if computed != stored {
            return Err(FormatError::BlockChecksum {
                offset: self.header_len + start,
                end: self.header_len + end,
                stored,
                computed,
            });
        }
        Ok(())
    }

    /// Checks every payload byte: the whole payload's checksum, and in version 2 first each
    /// block's (a damaged block is named by its offsets), in one pass.
    pub(crate) fn verify_payload(&self, file: &[u8]) -> Result<(), FormatError> {
        if self.version >= 2 {
            for k in 0..self.block_count() {
                self.verify_block(file, k)?;
            }
            return self.verify_block_sums(file);
        }
        self.check_payload_crc(crc32fast::hash(self.payload_bytes(file)?))
    }

    /// Checks that the block checksums (version 2) make the whole payload's: once every
    /// block is checked against its own ([`Frame::verify_block`], in any order or at once),
    /// this makes the payload checked as [`Frame::verify_payload`] does, without reading it.
    pub(crate) fn verify_block_sums(&self, file: &[u8]) -> Result<(), FormatError> {
        let payload = self.payload_bytes(file)?;
        let mut whole = crate::PayloadHasher::new();
        for (k, &crc) in self.blocks.iter().enumerate() {
            let len = (payload.len() as u64)
                .saturating_sub(k as u64 * BLOCK_LEN)
                .min(BLOCK_LEN);
            whole.combine(&crate::PayloadHasher::new_with_initial_len(crc, len));
        }
        self.check_payload_crc(whole.finalize())
    }

    fn check_payload_crc(&self, computed: u32) -> Result<(), FormatError> {
        if computed != self.payload_crc {
            return Err(FormatError::PayloadChecksum {
                stored: self.payload_crc,
                computed,
            });
        }
        Ok(())
    }
}

/// The checked sum of a histogram.
pub(crate) fn histogram_sum(histogram: &[u64]) -> Result<u64, FormatError> {
    histogram
        .iter()
        .try_fold(0u64, |acc, &h| acc.checked_add(h))
        .ok_or(FormatError::Overflow("histogram sum"))
}

/// What a section's histogram counts: states by distance (a table) or placements by value (a
/// pattern database).
#[derive(Clone, Copy)]
pub(crate) enum Counted {
    Distances,
    Values,
}

/// The checks a table's histogram and a pattern database's share, in this order: some
/// entries, the last of them not empty, and as many as the maximum `max` plus one.
pub(crate) fn histogram_shape(
    histogram: &[u64],
    max: u32,
    counted: Counted,
) -> Result<(), SectionProblem> {
    let Some(&last) = histogram.last() else {
        return Err(SectionProblem::EmptyHistogram);
    };
    let len = histogram.len() as u64;
    if last == 0 {
        let last = len - 1;
        return Err(match counted {
            Counted::Distances => SectionProblem::EmptyLastDistance { last },
            Counted::Values => SectionProblem::EmptyLastValue { last },
        });
    }
    if len != u64::from(max) + 1 {
        return Err(match counted {
            Counted::Distances => SectionProblem::MaxDistanceLength {
                max_distance: max,
                histogram_len: len,
            },
            Counted::Values => SectionProblem::MaxValueLength {
                max_value: max,
                histogram_len: len,
            },
        });
    }
    Ok(())
}
