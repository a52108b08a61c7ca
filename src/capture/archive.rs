//! The ZIP container of a capture, read as untrusted input: the central directory is read once, each entry's
//! declared sizes are checked against each other and against the archive before anything is inflated, and an
//! entry is inflated into memory of its declared size (taken at once up to 64 MiB, else growing with what actually
//! comes out), never to more than its declared size.
//!
//! Plausibility (before inflating): an entry is stored or deflated and not encrypted; a stored entry's two sizes are
//! equal; a deflated entry's size is at most [`MAX_DEFLATE_RATIO`] times its compressed size (deflate cannot do
//! better: one 258-byte match costs at least two bits), and its compressed size fits in the archive. While
//! inflating: the entry must give exactly its declared size (fewer or more bytes is an error), its CRC-32 must match
//! (the `zip` crate checks it at the end), and a blob's SHA-256 must be its name.

use super::manifest::BlobId;
use super::{MAX_BLOB_BYTES, MAX_MANIFEST_BYTES, capture_error};
use crate::{Error, Result};
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;
use zip::{CompressionMethod, ZipArchive};

/// The most a deflated entry may expand: deflate's limit of 1032 to 1 (a 258-byte match in two bits), plus one
/// match of slack for the smallest streams.
pub const MAX_DEFLATE_RATIO: u64 = 1032;

/// The name of the manifest in the archive.
pub const MANIFEST_NAME: &str = "manifest.json";

/// The memory an inflation starts with, and the least it grows by (64 KiB).
const FIRST_CHUNK: usize = 64 << 10;

/// The largest entry inflated into memory of its declared size taken at once (64 MiB; see `Archive::inflate`).
const AT_ONCE: usize = 64 << 20;

/// What the central directory says of one entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EntryInfo {
    /// Its position in the directory.
    index: usize,
    /// Its size once inflated, as declared.
    pub size: u64,
    /// Its size in the archive.
    pub compressed: u64,
    /// Stored, deflated, or something else.
    method: CompressionMethod,
    /// Whether it is encrypted.
    encrypted: bool,
}

/// A capture's ZIP archive: the reader, its length, and where the manifest and each blob are.
pub(crate) struct Archive<R> {
    zip: ZipArchive<Window<R>>,
    /// The archive's length in bytes.
    pub length: u64,
    /// Bytes past the last complete directory that were ignored: a recording cut short (0 for a whole archive).
    pub ignored_tail: u64,
    manifest: Option<EntryInfo>,
    blobs: HashMap<BlobId, EntryInfo>,
}

impl<R: Read + Seek> Archive<R> {
    /// Reads the central directory of the archive `reader` holds. A file whose end is not an archive's end — a
    /// capture whose recorder stopped between two snapshots — is read up to its last complete directory
    /// ([`last_complete_end`]).
    pub fn open(mut reader: R) -> Result<Self> {
        let length = reader
            .seek(SeekFrom::End(0))
            .and_then(|length| reader.seek(SeekFrom::Start(0)).map(|_| length))
            .map_err(|e| capture_error(format!("cannot read the archive: {e}")))?;
        let mut window = Window::new(reader, length);
        let whole_error = ZipArchive::new(&mut window).err();
        let used = match whole_error {
            None => length,
            Some(e) => {
                let not_zip = || capture_error(format!("not a ZIP archive ({e})")).at(format!("{length}-byte file"));
                let end = last_complete_end(&mut window.inner, length).map_err(|_| not_zip())?;
                end.ok_or_else(not_zip)?
            }
        };
        window.length = used;
        window.position = 0;
        let zip = ZipArchive::new(window)
            .map_err(|e| capture_error(format!("not a ZIP archive ({e})")).at(format!("{length}-byte file")))?;
        if zip.has_duplicate_names() {
            return Err(capture_error("the archive holds two entries of the same name"));
        }
        let mut manifest = None;
        let mut blobs = HashMap::new();
        for index in 0..zip.len() {
            let entry = zip
                .by_index_data(index)
                .map_err(|e| capture_error(format!("unreadable directory entry: {e}")).at(format!("entry {index}")))?;
            let info = EntryInfo {
                index,
                size: entry.size(),
                compressed: entry.compressed_size(),
                method: entry.compression(),
                encrypted: entry.encrypted(),
            };
            let name = entry.name_raw();
            if name == MANIFEST_NAME.as_bytes() {
                manifest = Some(info);
            } else if let Some(hash) = name.strip_prefix(b"blobs/")
                && let Ok(id) = std::str::from_utf8(hash)
                    .map_err(|_| ())
                    .and_then(|h| h.parse().map_err(|_| ()))
            {
                blobs.insert(id, info);
            }
            // Other entries are not the format's (a later minor version's, or a tool's): ignored.
        }
        Ok(Self {
            zip,
            length,
            ignored_tail: length.saturating_sub(used),
            manifest,
            blobs,
        })
    }

    /// Why `info` cannot be what it says, if it cannot: see the module documentation.
    fn implausible(&self, info: &EntryInfo) -> Option<String> {
        if info.encrypted {
            return Some("is encrypted".to_owned());
        }
        if info.compressed > self.length {
            return Some(format!(
                "declares {} compressed bytes in a {}-byte archive",
                info.compressed, self.length
            ));
        }
        match info.method {
            CompressionMethod::Stored if info.size != info.compressed => Some(format!(
                "is stored, yet declares {} bytes from {} in the archive",
                info.size, info.compressed
            )),
            CompressionMethod::Stored => None,
            CompressionMethod::Deflated => {
                let most = info.compressed.saturating_mul(MAX_DEFLATE_RATIO).saturating_add(258);
                (info.size > most).then(|| {
                    format!(
                        "declares {} bytes from {} deflated ones, more than deflate's {MAX_DEFLATE_RATIO} to 1 \
                         allows (a zip bomb or a damaged directory)",
                        info.size, info.compressed
                    )
                })
            }
            other => Some(format!(
                "is compressed with {other:?}; captures use stored or deflate entries"
            )),
        }
    }

    /// The size of blob `id` as the archive declares it, or why it cannot be read.
    pub fn blob_size(&self, id: &BlobId) -> std::result::Result<u64, String> {
        let info = self
            .blobs
            .get(id)
            .ok_or_else(|| format!("blob {}… is missing from the archive", id.short()))?;
        match self.implausible(info) {
            Some(problem) => Err(format!("blob {}…'s archive entry {problem}", id.short())),
            None => Ok(info.size),
        }
    }

    /// The blobs the archive holds, with their declared sizes.
    pub fn blobs(&self) -> impl Iterator<Item = (BlobId, u64)> + '_ {
        self.blobs.iter().map(|(id, info)| (*id, info.size))
    }

    /// The manifest's bytes.
    pub fn read_manifest(&mut self) -> Result<Arc<[u8]>> {
        let info = self
            .manifest
            .ok_or_else(|| capture_error(format!("the archive has no {MANIFEST_NAME}")))?;
        let at = MANIFEST_NAME;
        if let Some(problem) = self.implausible(&info) {
            return Err(capture_error(format!("the entry {problem}")).at(at));
        }
        if info.size > MAX_MANIFEST_BYTES {
            return Err(capture_error(format!(
                "the manifest is {} bytes, more than the {MAX_MANIFEST_BYTES} a manifest may have",
                info.size
            ))
            .at(at));
        }
        self.inflate(&info).map_err(|e| e.at(at))
    }

    /// The bytes of blob `id`, after checking its entry, its size and its SHA-256.
    pub fn read_blob(&mut self, id: &BlobId) -> Result<Arc<[u8]>> {
        let at = id.entry_name();
        let size = self.blob_size(id).map_err(|problem| capture_error(problem).at(&at))?;
        if size > MAX_BLOB_BYTES {
            return Err(capture_error(format!(
                "the blob is {size} bytes, more than the {MAX_BLOB_BYTES} a blob may have"
            ))
            .at(at));
        }
        let info = *self
            .blobs
            .get(id)
            .ok_or_else(|| capture_error("the blob is missing from the archive").at(&at))?;
        let bytes = self.inflate(&info).map_err(|e| e.at(&at))?;
        let actual = BlobId::of(&bytes);
        if actual != *id {
            return Err(capture_error(format!(
                "the blob's bytes have the SHA-256 {actual}, not the one it is named by"
            ))
            .at(at));
        }
        Ok(bytes)
    }

    /// Inflates an entry into exactly its declared size, refusing an entry that gives fewer or more. An entry of at
    /// most [`AT_ONCE`] bytes is inflated into memory of its declared size taken at once (no copy after); a larger
    /// one into memory that grows as bytes come (so that a declared size far above the real one costs nothing).
    fn inflate(&mut self, info: &EntryInfo) -> Result<Arc<[u8]>> {
        let expected = usize::try_from(info.size)
            .map_err(|_| capture_error(format!("{} bytes do not fit in memory here", info.size)))?;
        let mut file = self
            .zip
            .by_index(info.index)
            .map_err(|e| capture_error(format!("cannot read the entry: {e}")))?;
        if expected <= AT_ONCE {
            let mut out: Arc<[u8]> = std::iter::repeat_n(0u8, expected).collect();
            let room = Arc::get_mut(&mut out).ok_or_else(|| capture_error("the inflated entry is shared"))?;
            fill(&mut file, room, 0, expected)?;
            expect_end(&mut file, expected)?;
            return Ok(out);
        }
        let mut out: Vec<u8> = Vec::new();
        let mut filled = 0usize;
        while filled < expected {
            let grow = filled.max(FIRST_CHUNK).min(expected.saturating_sub(filled));
            out.try_reserve_exact(grow)
                .map_err(|_| capture_error(format!("cannot allocate {} bytes", filled.saturating_add(grow))))?;
            out.resize(filled.saturating_add(grow), 0);
            filled = fill(&mut file, &mut out, filled, expected)?;
        }
        expect_end(&mut file, expected)?;
        Ok(Arc::from(out))
    }
}

/// Reads `file` into `out` from `filled` until `out` is full; the count of bytes then in `out`. Running out of bytes
/// before is an error (the entry declares `expected`).
fn fill(file: &mut impl Read, out: &mut [u8], filled: usize, expected: usize) -> Result<usize> {
    let mut filled = filled;
    while let Some(room) = out.get_mut(filled..).filter(|room| !room.is_empty()) {
        let read = match file.read(room) {
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(inflate_error(&e, filled, expected)),
        };
        if read == 0 {
            return Err(capture_error(format!(
                "the entry inflates to {filled} bytes where its directory entry declares {expected}"
            )));
        }
        filled = filled.saturating_add(read);
    }
    Ok(filled)
}

/// Checks that `file` has given all it holds: one more read must find the end (and lets the zip crate check the
/// CRC-32).
fn expect_end(file: &mut impl Read, expected: usize) -> Result<()> {
    let mut probe = [0u8; 1];
    loop {
        match file.read(&mut probe) {
            Ok(0) => return Ok(()),
            Ok(_) => {
                return Err(capture_error(format!(
                    "the entry inflates to more than the {expected} bytes its directory entry declares"
                )));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(inflate_error(&e, expected, expected)),
        }
    }
}

/// The bytes `[0, length)` of a reader, as a reader of its own: what the ZIP reader sees of a file whose tail is
/// ignored.
pub(crate) struct Window<R> {
    inner: R,
    length: u64,
    position: u64,
}

impl<R> Window<R> {
    fn new(inner: R, length: u64) -> Self {
        Self {
            inner,
            length,
            position: 0,
        }
    }
}

impl<R: Read + Seek> Read for Window<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.length.saturating_sub(self.position);
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let Some(buf) = buf.get_mut(..want) else { return Ok(0) };
        if buf.is_empty() {
            return Ok(0);
        }
        self.inner.seek(SeekFrom::Start(self.position))?;
        let read = self.inner.read(buf)?;
        self.position = self.position.saturating_add(u64::try_from(read).unwrap_or(0));
        Ok(read)
    }
}

impl<R: Read + Seek> Seek for Window<R> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            SeekFrom::Start(at) => Some(at),
            SeekFrom::End(delta) => self.length.checked_add_signed(delta),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
        };
        let target = target.ok_or_else(|| std::io::Error::other("a seek before the start of the archive"))?;
        self.position = target;
        Ok(target)
    }
}

/// The end record's signature (APPNOTE 4.3.16).
const END_SIGNATURE: [u8; 4] = [0x50, 0x4b, 0x05, 0x06];
/// The ZIP64 end locator's signature (APPNOTE 4.3.15).
const LOCATOR_SIGNATURE: [u8; 4] = [0x50, 0x4b, 0x06, 0x07];
/// The most end-record candidates tried when looking for the last complete directory.
const MAX_END_CANDIDATES: usize = 64;

/// Where the last complete archive in `reader`'s first `length` bytes ends: the end of the last end record
/// (APPNOTE 4.3.16) whose central directory — or, through the ZIP64 locator just before it, whose ZIP64 record —
/// ends where the record (or that ZIP64 record) begins, and which a ZIP reader then opens. This is how a capture
/// written in snapshots is read when its writer stopped between two of them. The file is scanned backwards in
/// bounded chunks; at most [`MAX_END_CANDIDATES`] consistent candidates are tried.
fn last_complete_end<R: Read + Seek>(reader: &mut R, length: u64) -> std::io::Result<Option<u64>> {
    const CHUNK: u64 = 1 << 20;
    let mut tried = 0usize;
    let mut chunk_end = length;
    let mut buffer = Vec::new();
    while chunk_end > 0 && tried < MAX_END_CANDIDATES {
        // Overlap chunks by 3 bytes so that a signature across a boundary is found.
        let chunk_start = chunk_end.saturating_sub(CHUNK);
        let read_end = chunk_end.saturating_add(3).min(length);
        let size = usize::try_from(read_end.saturating_sub(chunk_start)).unwrap_or(0);
        buffer.clear();
        buffer.resize(size, 0);
        reader.seek(SeekFrom::Start(chunk_start))?;
        reader.read_exact(&mut buffer)?;
        let mut at = buffer.len().saturating_sub(4);
        loop {
            if buffer.get(at..at.saturating_add(4)) == Some(&END_SIGNATURE[..]) {
                let position = chunk_start.saturating_add(u64::try_from(at).unwrap_or(0));
                if let Some(end) = consistent_end(reader, position, length)? {
                    tried = tried.saturating_add(1);
                    let mut window = Window::new(&mut *reader, end);
                    if ZipArchive::new(&mut window).is_ok() {
                        return Ok(Some(end));
                    }
                    if tried >= MAX_END_CANDIDATES {
                        break;
                    }
                }
            }
            if at == 0 {
                break;
            }
            at = at.saturating_sub(1);
        }
        chunk_end = chunk_start;
    }
    Ok(None)
}

/// If an end record at `position` describes a directory that ends where it (or its ZIP64 record) begins, the end
/// of the archive it closes.
fn consistent_end<R: Read + Seek>(reader: &mut R, position: u64, length: u64) -> std::io::Result<Option<u64>> {
    let mut record = [0u8; 22];
    if position.saturating_add(22) > length {
        return Ok(None);
    }
    reader.seek(SeekFrom::Start(position))?;
    reader.read_exact(&mut record)?;
    let field16 = |at: usize| u16::try_from(little_endian(&record, at, 2)).unwrap_or(0);
    let field32 = |at: usize| u32::try_from(little_endian(&record, at, 4)).unwrap_or(0);
    let comment = u64::from(field16(20));
    let end = position.saturating_add(22).saturating_add(comment);
    if end > length {
        return Ok(None);
    }
    let (size, start) = (u64::from(field32(12)), u64::from(field32(16)));
    if size != u64::from(u32::MAX) && start != u64::from(u32::MAX) && field16(10) != u16::MAX {
        return Ok((start.saturating_add(size) == position).then_some(end));
    }
    // ZIP64: the locator is the 20 bytes before the end record; it points at the ZIP64 record.
    let Some(locator_at) = position.checked_sub(20) else {
        return Ok(None);
    };
    let mut locator = [0u8; 20];
    reader.seek(SeekFrom::Start(locator_at))?;
    reader.read_exact(&mut locator)?;
    if locator.get(..4) != Some(&LOCATOR_SIGNATURE[..]) {
        return Ok(None);
    }
    let record_at = little_endian(&locator, 8, 8);
    if record_at.saturating_add(56) > locator_at {
        return Ok(None);
    }
    let mut record64 = [0u8; 56];
    reader.seek(SeekFrom::Start(record_at))?;
    reader.read_exact(&mut record64)?;
    let size = little_endian(&record64, 40, 8);
    let start = little_endian(&record64, 48, 8);
    Ok((start.saturating_add(size) == record_at).then_some(end))
}

/// The little-endian number of `length` (at most 8) bytes at `at` of `bytes`; 0 past their end.
fn little_endian(bytes: &[u8], at: usize, length: usize) -> u64 {
    bytes
        .get(at..at.saturating_add(length))
        .unwrap_or(&[])
        .iter()
        .rev()
        .fold(0u64, |value, byte| value << 8 | u64::from(*byte))
}

/// An error of the inflating reader, after `filled` of `expected` bytes.
fn inflate_error(error: &std::io::Error, filled: usize, expected: usize) -> Error {
    capture_error(format!(
        "the entry does not inflate ({error}) after {filled} of its {expected} bytes"
    ))
}
