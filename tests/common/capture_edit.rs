//! Damaged copies of a capture's ZIP archive, for the tests that check how a reader meets them. Shared by the
//! capture format, malformed capture and CLI replay tests, which include this file with `#[path]` so that tests not
//! using it do not compile it.

use serde_json::Value;
use std::io::{Cursor, Read, Write};

/// A copy of `archive` with each entry's data replaced by `edit`'s (`None` drops the entry), all deflated.
pub fn rezip(archive: &[u8], mut edit: impl FnMut(&str, &[u8]) -> Option<Vec<u8>>) -> Vec<u8> {
    let mut zip = zip::ZipArchive::new(Cursor::new(archive)).unwrap();
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for index in 0..zip.len() {
        let mut file = zip.by_index(index).unwrap();
        let name = file.name().unwrap().into_owned();
        let mut data = Vec::new();
        file.read_to_end(&mut data).unwrap();
        if let Some(data) = edit(&name, &data) {
            let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            out.start_file(name, options).unwrap();
            out.write_all(&data).unwrap();
        }
    }
    out.finish().unwrap().into_inner()
}

/// A copy of `archive` with its manifest's JSON changed by `edit`.
pub fn with_manifest(archive: &[u8], edit: impl Fn(&mut Value)) -> Vec<u8> {
    rezip(archive, |name, data| {
        if name == "manifest.json" {
            let mut value: Value = serde_json::from_slice(data).unwrap();
            edit(&mut value);
            Some(serde_json::to_vec(&value).unwrap())
        } else {
            Some(data.to_vec())
        }
    })
}
