//! A capture read by position rather than held whole: the browser's `File` (read in slices) or a link's HTTP range
//! requests, so that opening a gigabyte capture reads its directory and manifest, and a draw reads its own blobs,
//! never the whole file.
//!
//! [`RangeReader`] gives [`Capture::from_reader`](super::Capture::from_reader) the `Read + Seek` it needs over a
//! [`RangeSource`]. It reads in blocks and keeps the last few: the ZIP reader's small reads (directory records, a
//! deflate stream's input) come from memory. A read that continues where the last block ended doubles the next
//! block, up to [`LARGEST_BLOCK`], so that a long entry is fetched in a few large requests; any other read starts
//! again at [`FIRST_BLOCK`].

use std::collections::VecDeque;
use std::io::{self, Read, Seek, SeekFrom};

/// The first block a read fetches (256 KiB).
pub const FIRST_BLOCK: u64 = 256 << 10;

/// The largest block sequential reads grow to (16 MiB).
pub const LARGEST_BLOCK: u64 = 16 << 20;

/// Blocks kept for later reads (at most this many times [`LARGEST_BLOCK`] of memory).
const KEPT_BLOCKS: usize = 4;

/// Bytes that can be read at any position: a file the reader does not hold in memory.
pub trait RangeSource {
    /// The source's length in bytes.
    fn length(&self) -> u64;

    /// Fills `out` with the bytes at `offset`; `offset + out.len()` is at most [`RangeSource::length`]. Fails when
    /// the source gives fewer or other bytes than asked (a file changed or a server that ignored the range).
    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> io::Result<()>;
}

impl<S: RangeSource + ?Sized> RangeSource for Box<S> {
    fn length(&self) -> u64 {
        (**self).length()
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> io::Result<()> {
        (**self).read_at(offset, out)
    }
}

/// A block read from the source: where it starts and its bytes.
struct Block {
    start: u64,
    bytes: Vec<u8>,
}

impl Block {
    fn end(&self) -> u64 {
        self.start.saturating_add(self.bytes.len() as u64)
    }

    fn holds(&self, position: u64) -> bool {
        (self.start..self.end()).contains(&position)
    }
}

/// `Read + Seek` over a [`RangeSource`], in blocks (see the module documentation).
pub struct RangeReader<S> {
    source: S,
    length: u64,
    position: u64,
    /// Blocks read, newest last.
    blocks: VecDeque<Block>,
    /// The size of the next block read where the newest one ends.
    next_block: u64,
    /// Bytes fetched from the source in all (for tests and the viewer's figures).
    fetched: u64,
    /// Requests made to the source.
    requests: u64,
}

impl<S: RangeSource> RangeReader<S> {
    /// A reader at position 0 of `source`.
    pub fn new(source: S) -> Self {
        let length = source.length();
        RangeReader {
            source,
            length,
            position: 0,
            blocks: VecDeque::new(),
            next_block: FIRST_BLOCK,
            fetched: 0,
            requests: 0,
        }
    }

    /// Bytes fetched from the source so far.
    pub fn fetched(&self) -> u64 {
        self.fetched
    }

    /// Requests made to the source so far.
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// The index among the kept blocks of the one holding `position` (< length), read if none holds it.
    fn block_at(&mut self, position: u64) -> io::Result<usize> {
        if let Some(index) = self.blocks.iter().rposition(|block| block.holds(position)) {
            return Ok(index);
        }
        let continues = self.blocks.back().is_some_and(|newest| newest.end() == position);
        let size = if continues { self.next_block } else { FIRST_BLOCK };
        self.next_block = size.saturating_mul(2).min(LARGEST_BLOCK);
        let size = size.min(self.length.saturating_sub(position));
        let mut bytes = Vec::new();
        let wanted = usize::try_from(size).map_err(|_| io::Error::other("a block does not fit in memory"))?;
        bytes
            .try_reserve_exact(wanted)
            .map_err(|_| io::Error::other(format!("no memory for a {size}-byte block")))?;
        bytes.resize(wanted, 0);
        self.requests = self.requests.saturating_add(1);
        self.source.read_at(position, &mut bytes)?;
        self.fetched = self.fetched.saturating_add(size);
        if self.blocks.len() == KEPT_BLOCKS {
            self.blocks.pop_front();
        }
        self.blocks.push_back(Block { start: position, bytes });
        Ok(self.blocks.len().saturating_sub(1))
    }
}

impl<S: RangeSource> Read for RangeReader<S> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() || self.position >= self.length {
            return Ok(0);
        }
        let position = self.position;
        let index = self.block_at(position)?;
        let Some(block) = self.blocks.get(index) else {
            return Ok(0);
        };
        // position lies in the block, so the offset is below its length
        let from = usize::try_from(position.saturating_sub(block.start)).unwrap_or(usize::MAX);
        let available = block.bytes.get(from..).unwrap_or_default();
        let count = available.len().min(out.len());
        for (to, from) in out.iter_mut().zip(available) {
            *to = *from;
        }
        self.position = self.position.saturating_add(count as u64);
        Ok(count)
    }
}

impl<S: RangeSource> Seek for RangeReader<S> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(offset) => Some(offset),
            SeekFrom::End(delta) => self.length.checked_add_signed(delta),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
        };
        let target = target.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        self.position = target;
        Ok(target)
    }
}

/// A capture's archive as a reader: its bytes in memory (a file the viewer was given whole) or a [`RangeSource`]
/// read in blocks.
pub enum ArchiveSource {
    /// The whole archive in memory.
    InMemory(io::Cursor<std::sync::Arc<[u8]>>),
    /// An archive read by position.
    Ranged(RangeReader<Box<dyn RangeSource>>),
}

impl Read for ArchiveSource {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            ArchiveSource::InMemory(cursor) => cursor.read(out),
            ArchiveSource::Ranged(reader) => reader.read(out),
        }
    }
}

impl Seek for ArchiveSource {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            ArchiveSource::InMemory(cursor) => cursor.seek(to),
            ArchiveSource::Ranged(reader) => reader.seek(to),
        }
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // test code: positions within test buffers
mod tests {
    use super::*;

    /// A source over bytes in memory that counts what it is asked for.
    struct Memory {
        bytes: Vec<u8>,
        asked: Vec<(u64, usize)>,
    }

    impl RangeSource for Memory {
        fn length(&self) -> u64 {
            self.bytes.len() as u64
        }

        fn read_at(&mut self, offset: u64, out: &mut [u8]) -> io::Result<()> {
            self.asked.push((offset, out.len()));
            let start = offset as usize;
            let part = self
                .bytes
                .get(start..start + out.len())
                .ok_or_else(|| io::Error::other("past the end"))?;
            out.copy_from_slice(part);
            Ok(())
        }
    }

    fn pattern(length: usize) -> Vec<u8> {
        (0..length)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect()
    }

    #[test]
    fn reads_and_seeks_as_a_cursor_does() {
        let bytes = pattern(3 * LARGEST_BLOCK as usize / 2 + 12_345);
        let mut reader = RangeReader::new(Memory {
            bytes: bytes.clone(),
            asked: Vec::new(),
        });
        let mut cursor = io::Cursor::new(bytes.clone());
        // reads of many sizes at positions scattered over the file, forwards, backwards and from the end
        let mut state = 7u64;
        for step in 0..400 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let to = match step % 3 {
                0 => SeekFrom::Start(state % (bytes.len() as u64 + 10)),
                1 => SeekFrom::End(-((state % 70_000) as i64)),
                _ => SeekFrom::Current((state % 9_000) as i64 - 4_000),
            };
            let ours = reader.seek(to).ok();
            assert_eq!(ours, cursor.seek(to).ok(), "seek {step}");
            // a read may be short (at a block's end); what a run of reads gives must be the cursor's bytes
            let wanted = (state >> 40) % 300_000;
            let (mut a, mut b) = (Vec::new(), Vec::new());
            (&mut reader).take(wanted).read_to_end(&mut a).unwrap();
            (&mut cursor).take(wanted).read_to_end(&mut b).unwrap();
            assert_eq!(a, b, "read {step}");
        }
        // read_to_end from the start gives the whole file
        reader.seek(SeekFrom::Start(0)).unwrap();
        let mut whole = Vec::new();
        reader.read_to_end(&mut whole).unwrap();
        assert_eq!(whole, bytes);
        assert!(reader.seek(SeekFrom::Current(-(bytes.len() as i64) - 1)).is_err());
    }

    #[test]
    fn sequential_reads_fetch_growing_blocks_and_small_reads_come_from_memory() {
        let bytes = pattern(40 << 20);
        let mut reader = RangeReader::new(Memory {
            bytes,
            asked: Vec::new(),
        });
        let mut whole = Vec::new();
        reader.read_to_end(&mut whole).unwrap();
        // 256 KiB, 512 KiB, ... 16 MiB, then 16 MiB blocks: 40 MiB in 8 requests, each byte once
        let sizes: Vec<usize> = reader.source.asked.iter().map(|&(_, size)| size).collect();
        let kib = 1 << 10;
        assert_eq!(
            sizes,
            [
                256 * kib,
                512 * kib,
                1 << 20,
                2 << 20,
                4 << 20,
                8 << 20,
                16 << 20,
                (8 << 20) + 256 * kib
            ]
        );
        assert_eq!(reader.fetched(), 40 << 20);
        // small reads near the end are served by the kept blocks
        let before = reader.requests();
        for back in 1..1000i64 {
            reader.seek(SeekFrom::End(-back * 37)).unwrap();
            let mut four = [0; 4];
            reader.read_exact(&mut four).unwrap();
        }
        assert_eq!(reader.requests(), before);
    }

    #[test]
    fn a_failing_source_is_an_error_not_a_panic() {
        struct Failing;
        impl RangeSource for Failing {
            fn length(&self) -> u64 {
                1 << 40
            }
            fn read_at(&mut self, _: u64, _: &mut [u8]) -> io::Result<()> {
                Err(io::Error::other("the server went away"))
            }
        }
        let mut reader = RangeReader::new(Failing);
        let mut buffer = [0; 16];
        let error = reader.read(&mut buffer).unwrap_err();
        assert!(error.to_string().contains("went away"));
        reader.seek(SeekFrom::End(-3)).unwrap();
        assert!(reader.read(&mut buffer).is_err());
    }
}
