//! The payload's checksums: one CRC-32 of the whole payload (both versions), and in version 2
//! one CRC-32 per block of [`BLOCK_LEN`] payload bytes, stored after the last payload
//! (docs/FORMAT.md §2, §8), so that a reader can verify each block the first time it reads
//! from it instead of reading the whole payload at open.

use byteorder::{ByteOrder, LittleEndian as LE};

use crate::PayloadHasher;

/// Payload bytes a block checksum covers (the last block may be shorter). A block spans
/// section boundaries: blocks cut the payloads taken as one stream.
pub const BLOCK_LEN: u64 = 1 << 16;

/// The block checksums of a payload of `payload_len` bytes: how many there are. Depends on
/// nothing else, so a writer knows the file's length before it has any entry.
pub fn block_count(payload_len: u64) -> u64 {
    payload_len.div_ceil(BLOCK_LEN)
}

/// The checksums of a payload: what a version-2 file stores of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockSums {
    /// CRC-32 of the whole payload, in file order.
    pub payload: u32,
    /// CRC-32 of each block of [`BLOCK_LEN`] payload bytes, in order.
    pub blocks: Vec<u32>,
}

impl BlockSums {
    /// The checksums of the payloads `parts`, taken as one stream in order.
    pub fn of<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> BlockSums {
        let mut h = BlockHasher::default();
        for p in parts {
            h.update(p);
        }
        h.finish()
    }

    /// The block checksums as stored: one little-endian `u32` each.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; self.blocks.len() * 4];
        LE::write_u32_into(&self.blocks, &mut b);
        b
    }

    /// The CRC-32 of [`BlockSums::to_bytes`], which the header keeps.
    pub fn table_crc(&self) -> u32 {
        crc32fast::hash(&self.to_bytes())
    }
}

/// Streams payload bytes into [`BlockSums`].
#[derive(Default)]
struct BlockHasher {
    block: PayloadHasher,
    filled: u64,
    whole: PayloadHasher,
    blocks: Vec<u32>,
}

impl BlockHasher {
    fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = ((BLOCK_LEN - self.filled) as usize).min(bytes.len());
            self.block.update(&bytes[..take]);
            self.filled += take as u64;
            bytes = &bytes[take..];
            if self.filled == BLOCK_LEN {
                self.close();
            }
        }
    }

    /// Ends the block being hashed: its checksum kept, and folded into the whole's.
    fn close(&mut self) {
        let crc = std::mem::take(&mut self.block).finalize();
        self.whole
            .combine(&PayloadHasher::new_with_initial_len(crc, self.filled));
        self.blocks.push(crc);
        self.filled = 0;
    }

    fn finish(mut self) -> BlockSums {
        if self.filled > 0 {
            self.close();
        }
        BlockSums {
            payload: self.whole.finalize(),
            blocks: self.blocks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cut_the_stream_and_the_whole_crc_is_the_plain_one() {
        let data: Vec<u8> = (0..3 * BLOCK_LEN as usize + 17)
            .map(|i| (i * 31 % 251) as u8)
            .collect();
        // However the stream is cut into parts, the blocks are the same.
        let (a, b) = data.split_at(70_001);
        let (b, c) = b.split_at(5);
        let sums = BlockSums::of([a, b, c]);
        assert_eq!(sums, BlockSums::of([&data[..]]));
        assert_eq!(sums.payload, crc32fast::hash(&data));
        assert_eq!(sums.blocks.len() as u64, block_count(data.len() as u64));
        for (k, chunk) in data.chunks(BLOCK_LEN as usize).enumerate() {
            assert_eq!(sums.blocks[k], crc32fast::hash(chunk));
        }
        assert_eq!(block_count(0), 0);
        assert_eq!(BlockSums::of([&[][..]]).blocks, Vec::<u32>::new());
        assert_eq!(block_count(BLOCK_LEN), 1);
        assert_eq!(block_count(BLOCK_LEN + 1), 2);
    }
}
