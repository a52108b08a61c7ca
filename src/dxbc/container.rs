//! The DXBC container: the envelope every Direct3D 10/11 shader travels in, its chunk table, and its checksum.
//!
//! Layout (all values little-endian DWORDs):
//!
//! | bytes | what |
//! |---|---|
//! | 0..4 | the magic `DXBC` |
//! | 4..20 | the checksum (below), the four MD5 state words little-endian, as an MD5 digest is written |
//! | 20..24 | the container version, always 1 |
//! | 24..28 | the total size of the container in bytes |
//! | 28..32 | the chunk count *n* |
//! | 32..32+4n | one byte offset per chunk, from the start of the container |
//!
//! Each chunk is a FourCC, a DWORD size, and that many bytes. The offsets table says where the chunks are; nothing
//! obliges them to be in order or adjacent, but they must lie after the table, inside the container, and must not
//! overlap. Chunks this module does not know are kept as FourCC and bytes.
//!
//! **Checksum.** MD5 (RFC 1321) over bytes 20..end (the version, size, count, table and chunks), with its final
//! padding changed: the message's length in bits `L` (as a DWORD, wrapping) goes in the *first* DWORD of the last
//! 64-byte block and `(L >> 2) | 1` in its last DWORD, where standard MD5 puts a 64-bit `L` in the last two. With
//! `r` bytes left after the whole 64-byte blocks:
//! - `r < 56`: one last block `[L] [r bytes] [0x80] [zeros] [(L >> 2) | 1]` (4 + r + 1 <= 60 bytes fit before the
//!   last DWORD);
//! - `r >= 56`: the block `[r bytes] [0x80] [zeros]` as MD5 pads it, then a block `[L] [56 zero bytes] [(L >> 2) | 1]`.
//!
//! Both cases (and `r = 0`) are checked against the checksums the real compiler stored in the fixtures under
//! `fixtures/dxbc-container/`. The block compression is the `md-5` crate's (`md5::block_api::compress`).

use crate::text::hex;
use crate::{Error, Result};

/// A four-character code naming a container or a chunk (`DXBC`, `ISGN`, `SHEX`, ...), as its four bytes in file order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FourCc(pub [u8; 4]);

impl FourCc {
    /// The container's magic.
    pub const DXBC: Self = Self(*b"DXBC");
    /// Input signature (SM4/SM5, 24-byte elements).
    pub const ISGN: Self = Self(*b"ISGN");
    /// Output signature (SM4/SM5, 24-byte elements).
    pub const OSGN: Self = Self(*b"OSGN");
    /// Output signature with a stream per element (SM5 geometry shaders, 28-byte elements).
    pub const OSG5: Self = Self(*b"OSG5");
    /// Input signature with stream and minimum precision (32-byte elements).
    pub const ISG1: Self = Self(*b"ISG1");
    /// Output signature with stream and minimum precision (32-byte elements).
    pub const OSG1: Self = Self(*b"OSG1");
    /// Patch-constant signature (hull/domain shaders, 24-byte elements).
    pub const PCSG: Self = Self(*b"PCSG");
    /// Patch-constant signature with stream and minimum precision (32-byte elements).
    pub const PSG1: Self = Self(*b"PSG1");
    /// Resource definitions: constant buffers, their variables and types, bound resources.
    pub const RDEF: Self = Self(*b"RDEF");
    /// Statistics: instruction and register counts.
    pub const STAT: Self = Self(*b"STAT");
    /// Shader feature flags.
    pub const SFI0: Self = Self(*b"SFI0");
    /// The program, shader models 4.x (and SM5 as some compilers write it).
    pub const SHDR: Self = Self(*b"SHDR");
    /// The program, shader model 5.
    pub const SHEX: Self = Self(*b"SHEX");

    /// The code as the DWORD it is stored as.
    pub fn to_u32(self) -> u32 {
        u32::from_le_bytes(self.0)
    }
}

impl std::fmt::Display for FourCc {
    /// The four characters, printable ASCII as is and any other byte as `\xNN`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", char::from(b))?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Debug for FourCc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{self}'")
    }
}

/// Whether [`Container::parse`] checks the stored checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    /// The stored checksum must equal the one computed over the bytes (as the D3D11 runtime requires).
    Checksum,
    /// The checksum is not looked at: for hand-made or patched blobs whose checksum was never computed.
    Skip,
}

/// One chunk of a container: its code, where it sits, and its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's FourCC.
    pub fourcc: FourCc,
    /// Byte offset of the chunk's header (its FourCC) from the start of the container; its data starts 8 bytes later.
    pub offset: usize,
    /// The chunk's data: the bytes after its FourCC and size, as many as the size says.
    pub data: &'a [u8],
}

impl Chunk<'_> {
    /// Byte offset of the chunk's data from the start of the container.
    pub fn data_offset(&self) -> usize {
        self.offset.saturating_add(CHUNK_HEADER_SIZE)
    }
}

/// A parsed DXBC container: its checksum and its chunks, borrowed from the bytes it was parsed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container<'a> {
    /// The 16 checksum bytes stored at bytes 4..20.
    pub checksum: [u8; 16],
    /// The chunks, in the order the offset table lists them (known and unknown alike).
    pub chunks: Vec<Chunk<'a>>,
}

/// Size of the fixed header: magic, checksum, version, total size, chunk count.
const HEADER_SIZE: usize = 32;
/// Size of a chunk's header: FourCC and size.
const CHUNK_HEADER_SIZE: usize = 8;
/// Offset of the first byte the checksum covers.
const CHECKSUM_START: usize = 20;
/// The only container version there is.
const CONTAINER_VERSION: u32 = 1;

fn container_error(offset: usize, detail: impl Into<String>) -> Error {
    Error::new("DXBC", detail).at(format!("byte {offset:#x}"))
}

/// The DWORD at `offset` of `bytes`, or `None` when it does not fit.
pub(crate) fn dword_at(bytes: &[u8], offset: usize) -> Option<u32> {
    let end = offset.checked_add(4)?;
    let b = bytes.get(offset..end)?;
    Some(u32::from_le_bytes([
        b.first().copied()?,
        *b.get(1)?,
        *b.get(2)?,
        *b.get(3)?,
    ]))
}

impl<'a> Container<'a> {
    /// Parses a container, checking its header, its chunk table and (unless `verify` is [`Verify::Skip`]) its
    /// checksum. `bytes` must be exactly the container: its total-size field must equal `bytes.len()`.
    pub fn parse(bytes: &'a [u8], verify: Verify) -> Result<Self> {
        if bytes.len() < HEADER_SIZE {
            return Err(container_error(
                bytes.len(),
                format!(
                    "the {} bytes given are fewer than the {HEADER_SIZE}-byte container header",
                    bytes.len()
                ),
            ));
        }
        let header = |offset: usize| dword_at(bytes, offset).unwrap_or(0);
        let magic = FourCc(header(0).to_le_bytes());
        if magic != FourCc::DXBC {
            return Err(container_error(0, format!("bad magic {magic:?}, expected 'DXBC'")));
        }
        let version = header(20);
        if version != CONTAINER_VERSION {
            return Err(container_error(20, format!("container version {version}, expected 1")));
        }
        let total = header(24);
        if usize::try_from(total).ok() != Some(bytes.len()) {
            return Err(container_error(
                24,
                format!(
                    "the header's total size {total} differs from the {} bytes given",
                    bytes.len()
                ),
            ));
        }
        let count = header(28);
        // Each chunk needs 4 bytes in the table and at least 8 for its own header.
        let room = bytes.len().saturating_sub(HEADER_SIZE);
        let count_usize = usize::try_from(count).unwrap_or(usize::MAX);
        let table_end = count_usize
            .checked_mul(4)
            .and_then(|t| t.checked_add(HEADER_SIZE))
            .filter(|_| count_usize <= room / (4 + CHUNK_HEADER_SIZE))
            .ok_or_else(|| {
                container_error(
                    28,
                    format!(
                        "the chunk count {count} needs at least {} bytes, more than the {room} after the header",
                        u64::from(count).saturating_mul(12)
                    ),
                )
            })?;

        let mut chunks = Vec::with_capacity(count_usize);
        for index in 0..count_usize {
            let entry = HEADER_SIZE.saturating_add(index.saturating_mul(4));
            let offset = dword_at(bytes, entry).unwrap_or(0);
            let start = usize::try_from(offset).unwrap_or(usize::MAX);
            if start < table_end {
                return Err(container_error(
                    entry,
                    format!(
                        "chunk {index}'s offset {offset:#x} lies inside the header and offset table \
                         (which end at {table_end:#x})"
                    ),
                ));
            }
            let data_start = start
                .checked_add(CHUNK_HEADER_SIZE)
                .filter(|&e| e <= bytes.len())
                .ok_or_else(|| {
                    container_error(
                        entry,
                        format!(
                            "chunk {index}'s offset {offset:#x} leaves no room for its 8-byte header \
                             before the end at {:#x}",
                            bytes.len()
                        ),
                    )
                })?;
            let fourcc = FourCc(dword_at(bytes, start).unwrap_or(0).to_le_bytes());
            let size = dword_at(bytes, start.saturating_add(4)).unwrap_or(0);
            let data = usize::try_from(size)
                .ok()
                .and_then(|s| data_start.checked_add(s))
                .and_then(|end| bytes.get(data_start..end))
                .ok_or_else(|| {
                    container_error(
                        start.saturating_add(4),
                        format!(
                            "chunk {index} ({fourcc:?}) declares {size} bytes but only {} remain",
                            bytes.len().saturating_sub(data_start)
                        ),
                    )
                })?;
            chunks.push(Chunk {
                fourcc,
                offset: start,
                data,
            });
        }

        // No two chunks may share bytes: sort by position and compare neighbours.
        let mut by_position: Vec<usize> = (0..chunks.len()).collect();
        by_position.sort_by_key(|&i| chunks.get(i).map_or(0, |c| c.offset));
        for pair in by_position.windows(2) {
            let (Some(&a), Some(&b)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let (Some(first), Some(second)) = (chunks.get(a), chunks.get(b)) else {
                continue;
            };
            let first_end = first.data_offset().saturating_add(first.data.len());
            if second.offset < first_end {
                return Err(container_error(
                    second.offset,
                    format!(
                        "chunk {b} ({:?}) overlaps chunk {a} ({:?}), which runs from {:#x} to {first_end:#x}",
                        second.fourcc, first.fourcc, first.offset
                    ),
                ));
            }
        }

        let mut checksum = [0u8; 16];
        if let Some(stored) = bytes.get(4..CHECKSUM_START) {
            checksum.copy_from_slice(stored);
        }
        if verify == Verify::Checksum {
            let computed = dxbc_checksum(bytes.get(CHECKSUM_START..).unwrap_or(&[]));
            if computed != checksum {
                return Err(container_error(
                    4,
                    format!(
                        "checksum mismatch: stored {}, computed {}",
                        hex(&checksum),
                        hex(&computed)
                    ),
                ));
            }
        }
        Ok(Self { checksum, chunks })
    }

    /// The first chunk with code `fourcc`.
    pub fn chunk(&self, fourcc: FourCc) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| c.fourcc == fourcc)
    }

    /// The first chunk whose code is one of `codes`.
    pub(crate) fn first_of(&self, codes: &[FourCc]) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| codes.contains(&c.fourcc))
    }

    /// The program chunk (`SHEX` or `SHDR`, whichever comes first) and its bytes, for the program decoder.
    pub fn program_chunk(&self) -> Option<(FourCc, &'a [u8])> {
        self.first_of(&[FourCc::SHEX, FourCc::SHDR]).map(|c| (c.fourcc, c.data))
    }
}

/// MD5's initial state words A, B, C, D (RFC 1321, 3.3).
const MD5_INITIAL_STATE: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// The DXBC checksum of `message`, which is a container's bytes from offset 20 to its end: MD5 with the final block
/// laid out as the module documentation says. Returned as the 16 bytes stored at container bytes 4..20.
pub fn dxbc_checksum(message: &[u8]) -> [u8; 16] {
    let mut state = MD5_INITIAL_STATE;
    let (blocks, rest) = message.as_chunks::<64>();
    md5::block_api::compress(&mut state, blocks);

    // The length in bits, as the DWORD the format stores: modulo 2^32, which wraps only for messages longer than any
    // container can be (its size is a DWORD too).
    let bits = (message.len() as u64).wrapping_mul(8) as u32;
    let mut last = [0u8; 64];
    if rest.len() < 56 {
        // [L] [rest] [0x80] [zeros] [(L >> 2) | 1]
        for (dst, &src) in last.iter_mut().skip(4).zip(rest.iter().chain(&[0x80u8])) {
            *dst = src;
        }
    } else {
        // [rest] [0x80] [zeros], compressed as is; then a block of only the two length words.
        let mut padded = [0u8; 64];
        for (dst, &src) in padded.iter_mut().zip(rest.iter().chain(&[0x80u8])) {
            *dst = src;
        }
        md5::block_api::compress(&mut state, &[padded]);
    }
    put_dword(&mut last, 0, bits);
    put_dword(&mut last, 60, (bits >> 2) | 1);
    md5::block_api::compress(&mut state, &[last]);

    let mut digest = [0u8; 16];
    for (dst, word) in digest.chunks_exact_mut(4).zip(state) {
        dst.copy_from_slice(&word.to_le_bytes());
    }
    digest
}

/// Stores `value` little-endian at `offset` of `bytes`, when it fits.
fn put_dword(bytes: &mut [u8], offset: usize, value: u32) {
    if let Some(dst) = offset.checked_add(4).and_then(|end| bytes.get_mut(offset..end)) {
        dst.copy_from_slice(&value.to_le_bytes());
    }
}

/// Builds a container from chunks, in the order given: the header, the offset table, then each chunk (FourCC, size,
/// data) back to back, and the checksum over the result. A chunk whose size is not a multiple of 4 is followed by
/// zero bytes up to the next multiple (its size field keeps its true size), so every chunk starts DWORD-aligned as
/// the compilers write them. Fails only when the container would exceed the 4 GiB a DWORD size can describe.
pub fn write_container(chunks: &[(FourCc, &[u8])]) -> Result<Vec<u8>> {
    let too_big = || {
        Error::new(
            "DXBC writer",
            "the chunks exceed the 4 GiB a container's size field can describe",
        )
    };
    let table_end = chunks
        .len()
        .checked_mul(4)
        .and_then(|t| t.checked_add(HEADER_SIZE))
        .ok_or_else(too_big)?;
    let mut total = table_end;
    for (_, data) in chunks {
        total = data
            .len()
            .checked_next_multiple_of(4)
            .and_then(|padded| padded.checked_add(CHUNK_HEADER_SIZE))
            .and_then(|size| total.checked_add(size))
            .ok_or_else(too_big)?;
    }
    let total_u32 = u32::try_from(total).map_err(|_| too_big())?;
    let count = u32::try_from(chunks.len()).map_err(|_| too_big())?;

    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&FourCc::DXBC.0);
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&CONTAINER_VERSION.to_le_bytes());
    out.extend_from_slice(&total_u32.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    let mut offset = table_end;
    for (_, data) in chunks {
        out.extend_from_slice(&u32::try_from(offset).map_err(|_| too_big())?.to_le_bytes());
        offset = offset
            .saturating_add(CHUNK_HEADER_SIZE)
            .saturating_add(data.len().next_multiple_of(4));
    }
    for (fourcc, data) in chunks {
        out.extend_from_slice(&fourcc.0);
        out.extend_from_slice(&u32::try_from(data.len()).map_err(|_| too_big())?.to_le_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    let checksum = dxbc_checksum(out.get(CHECKSUM_START..).unwrap_or(&[]));
    if let Some(dst) = out.get_mut(4..CHECKSUM_START) {
        dst.copy_from_slice(&checksum);
    }
    Ok(out)
}

impl Container<'_> {
    /// Writes the container again from its chunks (see [`write_container`]), with a freshly computed checksum.
    pub fn write(&self) -> Result<Vec<u8>> {
        let chunks: Vec<(FourCc, &[u8])> = self.chunks.iter().map(|c| (c.fourcc, c.data)).collect();
        write_container(&chunks)
    }
}

/// A bounds-checked little-endian reader over one chunk's data, whose errors name the chunk and the byte offset (from
/// the container's start when the chunk came from one, else from the chunk data's start).
#[derive(Clone, Copy)]
pub(crate) struct ChunkReader<'a> {
    /// The chunk's data.
    pub data: &'a [u8],
    /// Where `data` starts, for error offsets.
    pub base: usize,
    /// The chunk's code, for error messages.
    pub fourcc: FourCc,
    /// Bytes the reader's strings have copied so far (see [`ChunkReader::string`]).
    pub copied: &'a std::cell::Cell<usize>,
}

/// Bytes of names a chunk's strings may copy in all, beyond four times the chunk's size: real programs' names are
/// short and each is read a few times at most, while a hostile chunk can point thousands of records at one long
/// string.
const STRING_BUDGET_BYTES: usize = 1 << 20;

impl<'a> ChunkReader<'a> {
    /// An error at `offset` of the chunk data.
    pub fn error(&self, offset: usize, detail: impl Into<String>) -> Error {
        Error::new(format!("DXBC {} chunk", self.fourcc), detail)
            .at(format!("byte {:#x}", self.base.saturating_add(offset)))
    }

    /// The DWORD at `offset`, which holds `field`.
    pub fn u32(&self, offset: usize, field: &str) -> Result<u32> {
        dword_at(self.data, offset).ok_or_else(|| {
            self.error(
                offset,
                format!("the {field} runs past the end of the {}-byte chunk", self.data.len()),
            )
        })
    }

    /// DWORD `n` of the record at `record`, which holds `field`.
    pub fn field(&self, record: usize, n: usize, field: &str) -> Result<u32> {
        self.u32(record.saturating_add(n.saturating_mul(4)), field)
    }

    /// The DWORD at `offset` as an offset or count, which holds `field`.
    pub fn usize(&self, offset: usize, field: &str) -> Result<usize> {
        let v = self.u32(offset, field)?;
        usize::try_from(v).map_err(|_| self.error(offset, format!("the {field} {v} does not fit in memory")))
    }

    /// `len` bytes at `offset`, which hold `what`.
    pub fn bytes(&self, offset: usize, len: usize, what: &str) -> Result<&'a [u8]> {
        offset
            .checked_add(len)
            .and_then(|end| self.data.get(offset..end))
            .ok_or_else(|| {
                self.error(
                    offset,
                    format!(
                        "the {what} ({len} bytes at {offset:#x}) runs past the end of the {}-byte chunk",
                        self.data.len()
                    ),
                )
            })
    }

    /// Checks that a table of `count` entries of `entry_size` bytes fits at `offset`, returning its byte length. Call
    /// before allocating anything sized by `count`.
    pub fn table(&self, offset: usize, count: usize, entry_size: usize, what: &str, at: usize) -> Result<usize> {
        count
            .checked_mul(entry_size)
            .filter(|&len| offset.checked_add(len).is_some_and(|end| end <= self.data.len()))
            .ok_or_else(|| {
                self.error(
                    at,
                    format!(
                        "{count} {what} of {entry_size} bytes at {offset:#x} need more than the {} bytes of the chunk",
                        self.data.len()
                    ),
                )
            })
    }

    /// The NUL-terminated string at `offset` (lossily decoded as UTF-8), named `what`; `at` is where its offset was
    /// read, for the error. The reader's strings copy at most four times the chunk's size and
    /// [`STRING_BUDGET_BYTES`] in all; past that the string is an error.
    pub fn string(&self, offset: usize, what: &str, at: usize) -> Result<String> {
        let tail = self.data.get(offset..).filter(|t| !t.is_empty()).ok_or_else(|| {
            self.error(
                at,
                format!(
                    "the offset {offset:#x} of the {what} lies past the end of the {}-byte chunk",
                    self.data.len()
                ),
            )
        })?;
        let len = tail.iter().position(|&b| b == 0).ok_or_else(|| {
            self.error(
                offset,
                format!("the {what} has no terminating NUL before the end of the chunk"),
            )
        })?;
        let copied = self.copied.get().saturating_add(len);
        let budget = self.data.len().saturating_mul(4).saturating_add(STRING_BUDGET_BYTES);
        if copied > budget {
            return Err(self.error(
                offset,
                format!(
                    "the {what} ({len} bytes) would take the chunk's names past {budget} bytes in all: strings \
                     referenced over and over"
                ),
            ));
        }
        self.copied.set(copied);
        Ok(String::from_utf8_lossy(tail.get(..len).unwrap_or(&[])).into_owned())
    }
}
