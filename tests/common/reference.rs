//! Shared by the tests that compare with the reference fixtures of `fixtures/compute`, `fixtures/geometry` and
//! `fixtures/pixel-uav`: where a fixture directory is, its JSON files, and the sorted comparison the fixtures use where
//! the spec leaves which invocation writes which element open.

#![allow(dead_code, clippy::unwrap_used)] // not every test binary uses every helper

use std::path::{Path, PathBuf};

/// `fixtures/NAME` of the workspace.
pub fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

/// A JSON file.
pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `bytes` as elements of `words` 32-bit words, sorted.
pub fn sorted(bytes: &[u8], words: usize) -> Vec<Vec<u32>> {
    let all: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut elements: Vec<Vec<u32>> = all.chunks(words.max(1)).map(<[u32]>::to_vec).collect();
    elements.sort();
    elements
}
