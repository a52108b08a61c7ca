//! The ZIP container of a capture, read as untrusted input: the central directory is read once, each entry's
//! declared sizes are checked against each other and against the archive before anything is inflated, and an
//! entry is inflated into memory that grows with what actually comes out, never to more than its declared size.
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
use zip::{CompressionMethod, ZipArchive};

/// The most a deflated entry may expand: deflate's limit of 1032 to 1 (a 258-byte match in two bits), plus one
/// match of slack for the smallest streams.
pub const MAX_DEFLATE_RATIO: u64 = 1032;

/// The name of the manifest in the archive.
pub const MANIFEST_NAME: &str = "manifest.json";

/// The memory an inflation starts with, and the least it grows by (64 KiB).
const FIRST_CHUNK: usize = 64 << 10;

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
    zip: ZipArchive<R>,
    /// The archive's length in bytes.
    pub length: u64,
    manifest: Option<EntryInfo>,
    blobs: HashMap<BlobId, EntryInfo>,
}

impl<R: Read + Seek> Archive<R> {
    /// Reads the central directory of the archive `reader` holds.
    pub fn open(mut reader: R) -> Result<Self> {
        let length = reader
            .seek(SeekFrom::End(0))
            .and_then(|length| reader.seek(SeekFrom::Start(0)).map(|_| length))
            .map_err(|e| capture_error(format!("cannot read the archive: {e}")))?;
        let zip = ZipArchive::new(reader)
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
    pub fn read_manifest(&mut self) -> Result<Vec<u8>> {
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
    pub fn read_blob(&mut self, id: &BlobId) -> Result<Vec<u8>> {
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

    /// Inflates an entry into exactly its declared size, growing the buffer as bytes come (so that a declared size
    /// far above the real one costs nothing) and refusing an entry that gives fewer or more.
    fn inflate(&mut self, info: &EntryInfo) -> Result<Vec<u8>> {
        let expected = usize::try_from(info.size)
            .map_err(|_| capture_error(format!("{} bytes do not fit in memory here", info.size)))?;
        let mut file = self
            .zip
            .by_index(info.index)
            .map_err(|e| capture_error(format!("cannot read the entry: {e}")))?;
        let mut out: Vec<u8> = Vec::new();
        let mut filled = 0usize;
        loop {
            if filled == out.len() {
                if filled == expected {
                    break;
                }
                let grow = filled.max(FIRST_CHUNK).min(expected.saturating_sub(filled));
                out.try_reserve_exact(grow)
                    .map_err(|_| capture_error(format!("cannot allocate {} bytes", filled.saturating_add(grow))))?;
                out.resize(filled.saturating_add(grow), 0);
            }
            let room = out.get_mut(filled..).unwrap_or_default();
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
        // One more read must find the end (and lets the zip crate check the CRC-32).
        let mut probe = [0u8; 1];
        loop {
            match file.read(&mut probe) {
                Ok(0) => break,
                Ok(_) => {
                    return Err(capture_error(format!(
                        "the entry inflates to more than the {expected} bytes its directory entry declares"
                    )));
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(inflate_error(&e, filled, expected)),
            }
        }
        Ok(out)
    }
}

/// An error of the inflating reader, after `filled` of `expected` bytes.
fn inflate_error(error: &std::io::Error, filled: usize, expected: usize) -> Error {
    capture_error(format!(
        "the entry does not inflate ({error}) after {filled} of its {expected} bytes"
    ))
}
