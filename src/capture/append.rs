//! An append-only ZIP writer whose archive opens at every snapshot: entries are written one after another and
//! never rewritten; a snapshot appends the latest manifest, a central directory listing every blob and that
//! manifest, and the end record (with ZIP64 records when the archive needs them). The next entries go after the
//! end record, so the bytes of the last complete snapshot stay intact whatever happens later: a recorder that dies
//! leaves a file whose last complete directory lists what it had recorded by its last snapshot. The older
//! manifests and directories stay in the file as bytes no directory names, which ZIP readers skip (APPNOTE 4.3.6
//! locates entries only through the directory).
//!
//! Layout per APPNOTE.TXT 6.3: local file header (4.3.7), data, central directory file headers (4.3.12), ZIP64 end
//! of central directory record and locator (4.3.14, 4.3.15) when a count or offset does not fit the classic end
//! record, end of central directory record (4.3.16). Sizes never need ZIP64 (a blob is at most 2 GiB, so its
//! deflated form stays below 4 GiB); offsets past 4 GiB take a ZIP64 extra field (4.5.3) in the directory.
//! Dates are 1980-01-01 00:00 (the DOS epoch), so the same entries give the same bytes.

use std::io::{self, Write};

/// Deflate's compression of `bytes` at `level` (1 to 9), or `None` for level 0 (stored).
fn deflate(bytes: &[u8], level: u8) -> io::Result<Option<Vec<u8>>> {
    if level == 0 {
        return Ok(None);
    }
    let mut encoder = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(bytes.len() / 2),
        flate2::Compression::new(u32::from(level.min(9))),
    );
    encoder.write_all(bytes)?;
    encoder.finish().map(Some)
}

/// An entry ready to be written: its CRC-32, method and stored bytes. Preparing is the costly part (CRC and
/// deflate) and needs no writer, so it can run on any thread.
pub struct PreparedEntry {
    /// CRC-32 of the uncompressed bytes.
    crc32: u32,
    /// Uncompressed size.
    size: u64,
    /// 0 stored, 8 deflated.
    method: u16,
    /// The bytes as stored in the archive.
    data: Vec<u8>,
}

impl PreparedEntry {
    /// `bytes` deflated at `level` (stored when deflating does not make them smaller, or at level 0).
    pub fn new(bytes: &[u8], level: u8) -> io::Result<Self> {
        let mut crc = flate2::Crc::new();
        crc.update(bytes);
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        let (method, data) = match deflate(bytes, level)? {
            Some(deflated) if deflated.len() < bytes.len() => (8, deflated),
            _ => (0, bytes.to_vec()),
        };
        Ok(Self {
            crc32: crc.sum(),
            size,
            method,
            data,
        })
    }
}

/// What the directory says of one written entry.
struct DirectoryEntry {
    name: String,
    crc32: u32,
    compressed: u64,
    size: u64,
    method: u16,
    offset: u64,
}

/// The DOS date of 1980-01-01 (day 1, month 1, year 0 from 1980).
const DOS_DATE: u16 = 1 << 5 | 1;
/// "Version needed to extract" for deflate (2.0) and for ZIP64 (4.5).
const VERSION_DEFLATE: u16 = 20;
const VERSION_ZIP64: u16 = 45;

/// The append-only writer.
pub struct AppendZip<W> {
    out: W,
    /// Bytes written so far: the offset of the next entry.
    position: u64,
    /// The entries every directory lists (all but the manifests).
    entries: Vec<DirectoryEntry>,
    /// Why a write failed, once one has: a write cut short leaves the output's length unknown, so nothing more is
    /// written (later offsets would be wrong) and the output stays the capture of its last snapshot.
    failed: Option<String>,
}

/// A 32-bit field, or its ZIP64 marker when `value` does not fit.
fn u32_or_marker(value: u64) -> u32 {
    u32::try_from(value).ok().filter(|v| *v != u32::MAX).unwrap_or(u32::MAX)
}

impl<W: Write> AppendZip<W> {
    /// A writer into `out`, which is empty.
    pub fn new(out: W) -> Self {
        Self {
            out,
            position: 0,
            entries: Vec::new(),
            failed: None,
        }
    }

    /// The bytes written so far.
    #[cfg(test)]
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Why writing stopped, if a write failed.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// The error for any write after one failed.
    fn stopped(&self) -> Option<io::Error> {
        self.failed.as_ref().map(|why| {
            io::Error::other(format!(
                "an earlier write failed ({why}); nothing more is written, and the file holds the capture as of \
                 its last snapshot"
            ))
        })
    }

    /// Writes `bytes` and counts them; after a failed write, writes nothing more.
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some(stopped) = self.stopped() {
            return Err(stopped);
        }
        if let Err(e) = self.out.write_all(bytes) {
            self.failed = Some(e.to_string());
            return Err(e);
        }
        self.position = self
            .position
            .saturating_add(u64::try_from(bytes.len()).unwrap_or(u64::MAX));
        Ok(())
    }

    /// Writes an entry's local header and data; gives its directory entry.
    fn write_entry(&mut self, name: &str, entry: &PreparedEntry) -> io::Result<DirectoryEntry> {
        let too_large = || {
            io::Error::other(format!(
                "the entry {name} is too large for a ZIP entry without ZIP64 sizes"
            ))
        };
        let compressed = u32::try_from(entry.data.len())
            .ok()
            .filter(|v| *v != u32::MAX)
            .ok_or_else(too_large)?;
        let size = u32::try_from(entry.size)
            .ok()
            .filter(|v| *v != u32::MAX)
            .ok_or_else(too_large)?;
        let name_length = u16::try_from(name.len()).map_err(|_| io::Error::other("an entry name too long"))?;
        let offset = self.position;
        let mut header = Vec::with_capacity(name.len().saturating_add(30));
        header.extend_from_slice(&0x0403_4b50_u32.to_le_bytes());
        header.extend_from_slice(&VERSION_DEFLATE.to_le_bytes());
        header.extend_from_slice(&0u16.to_le_bytes()); // flags
        header.extend_from_slice(&entry.method.to_le_bytes());
        header.extend_from_slice(&0u16.to_le_bytes()); // time 00:00
        header.extend_from_slice(&DOS_DATE.to_le_bytes());
        header.extend_from_slice(&entry.crc32.to_le_bytes());
        header.extend_from_slice(&compressed.to_le_bytes());
        header.extend_from_slice(&size.to_le_bytes());
        header.extend_from_slice(&name_length.to_le_bytes());
        header.extend_from_slice(&0u16.to_le_bytes()); // no extra field
        header.extend_from_slice(name.as_bytes());
        self.put(&header)?;
        self.put(&entry.data)?;
        Ok(DirectoryEntry {
            name: name.to_owned(),
            crc32: entry.crc32,
            compressed: u64::from(compressed),
            size: entry.size,
            method: entry.method,
            offset,
        })
    }

    /// Appends an entry that every later directory lists.
    pub fn add(&mut self, name: &str, entry: &PreparedEntry) -> io::Result<()> {
        let written = self.write_entry(name, entry)?;
        self.entries.push(written);
        Ok(())
    }

    /// Appends `last` (an entry only this directory lists: the manifest of this snapshot), then the central
    /// directory of every entry and `last`, then the end records. The file as written so far is a complete
    /// archive.
    pub fn snapshot(&mut self, last_name: &str, last: &PreparedEntry) -> io::Result<()> {
        let last = self.write_entry(last_name, last)?;
        let start = self.position;
        let mut directory = Vec::new();
        for entry in self.entries.iter().chain(std::iter::once(&last)) {
            let zip64 = entry.offset >= u64::from(u32::MAX);
            let version = if zip64 { VERSION_ZIP64 } else { VERSION_DEFLATE };
            let name_length =
                u16::try_from(entry.name.len()).map_err(|_| io::Error::other("an entry name too long"))?;
            directory.extend_from_slice(&0x0201_4b50_u32.to_le_bytes());
            directory.extend_from_slice(&VERSION_ZIP64.to_le_bytes()); // made by: APPNOTE 4.5, MS-DOS attributes
            directory.extend_from_slice(&version.to_le_bytes());
            directory.extend_from_slice(&0u16.to_le_bytes()); // flags
            directory.extend_from_slice(&entry.method.to_le_bytes());
            directory.extend_from_slice(&0u16.to_le_bytes()); // time
            directory.extend_from_slice(&DOS_DATE.to_le_bytes());
            directory.extend_from_slice(&entry.crc32.to_le_bytes());
            directory.extend_from_slice(&u32_or_marker(entry.compressed).to_le_bytes());
            directory.extend_from_slice(&u32_or_marker(entry.size).to_le_bytes());
            directory.extend_from_slice(&name_length.to_le_bytes());
            directory.extend_from_slice(&(if zip64 { 12u16 } else { 0 }).to_le_bytes()); // extra field length
            directory.extend_from_slice(&0u16.to_le_bytes()); // comment length
            directory.extend_from_slice(&0u16.to_le_bytes()); // disk number start
            directory.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
            directory.extend_from_slice(&0u32.to_le_bytes()); // external attributes
            directory.extend_from_slice(&u32_or_marker(entry.offset).to_le_bytes());
            directory.extend_from_slice(entry.name.as_bytes());
            if zip64 {
                // The ZIP64 extended information (4.5.3): only the offset, the one field marked in the header.
                directory.extend_from_slice(&1u16.to_le_bytes());
                directory.extend_from_slice(&8u16.to_le_bytes());
                directory.extend_from_slice(&entry.offset.to_le_bytes());
            }
        }
        let count = u64::try_from(self.entries.len()).unwrap_or(u64::MAX).saturating_add(1);
        let size = u64::try_from(directory.len()).unwrap_or(u64::MAX);
        self.put(&directory)?;
        let needs_zip64 = count >= 0xffff || start >= u64::from(u32::MAX) || size >= u64::from(u32::MAX);
        let mut end = Vec::with_capacity(98);
        if needs_zip64 {
            let record = self.position;
            end.extend_from_slice(&0x0606_4b50_u32.to_le_bytes());
            end.extend_from_slice(&44u64.to_le_bytes()); // the record's size after this field
            end.extend_from_slice(&VERSION_ZIP64.to_le_bytes());
            end.extend_from_slice(&VERSION_ZIP64.to_le_bytes());
            end.extend_from_slice(&0u32.to_le_bytes()); // this disk
            end.extend_from_slice(&0u32.to_le_bytes()); // the directory's disk
            end.extend_from_slice(&count.to_le_bytes());
            end.extend_from_slice(&count.to_le_bytes());
            end.extend_from_slice(&size.to_le_bytes());
            end.extend_from_slice(&start.to_le_bytes());
            end.extend_from_slice(&0x0706_4b50_u32.to_le_bytes());
            end.extend_from_slice(&0u32.to_le_bytes()); // the record's disk
            end.extend_from_slice(&record.to_le_bytes());
            end.extend_from_slice(&1u32.to_le_bytes()); // disks
        }
        let count16 = u16::try_from(count).ok().filter(|c| *c != u16::MAX).unwrap_or(u16::MAX);
        end.extend_from_slice(&0x0605_4b50_u32.to_le_bytes());
        end.extend_from_slice(&0u16.to_le_bytes());
        end.extend_from_slice(&0u16.to_le_bytes());
        end.extend_from_slice(&count16.to_le_bytes());
        end.extend_from_slice(&count16.to_le_bytes());
        end.extend_from_slice(&u32_or_marker(size).to_le_bytes());
        end.extend_from_slice(&u32_or_marker(start).to_le_bytes());
        end.extend_from_slice(&0u16.to_le_bytes()); // comment length
        self.put(&end)?;
        self.out.flush().inspect_err(|e| self.failed = Some(e.to_string()))
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }
}
