//! Data objects: the bytes of a buffer or a texture subresource, given in a description as exactly one of
//!
//! - `"f32"`: float32s, each a number or a string ([`Node::f32_bits`]: raw bits `"0x3f800000"`, `"nan"`, `"inf"`);
//! - `"u32"`, `"i32"`: 32-bit integers, `-2^31..2^32-1` (a negative one stored in two's complement), or strings
//!   `"0x..."`;
//! - `"u16"`, `"u8"`: 16- and 8-bit integers likewise (`-2^15..2^16-1`, `-2^7..2^8-1`);
//! - `"hex"`: a string of hex digit pairs, one a byte, white space allowed between pairs;
//! - `"file"`: the bytes of a file, its path relative to the description (resolved by the caller's loader).
//!
//! Words are little-endian. The bytes take as much memory as the text that gives them (a file excepted, whose
//! size is the loader's to bound).

use super::json::Value;
use super::values::{Node, integer_text};
use crate::Result;
use std::collections::HashMap;
use std::sync::Arc;

/// The keys that give a data object's bytes.
pub const DATA_KEYS: [&str; 7] = ["f32", "u32", "i32", "u16", "u8", "hex", "file"];

/// Loads the files a description names (shaders and `"file"` data), once each.
pub struct Files<'l> {
    /// The caller's loader: a path as the description writes it, to the file's bytes.
    load: &'l mut dyn FnMut(&str) -> Result<Vec<u8>>,
    /// Files already loaded, by path.
    loaded: HashMap<String, Arc<[u8]>>,
}

impl<'l> Files<'l> {
    /// Files read through `load`.
    pub fn new(load: &'l mut dyn FnMut(&str) -> Result<Vec<u8>>) -> Self {
        Self {
            load,
            loaded: HashMap::new(),
        }
    }

    /// The bytes of the file `node` names (a path string), loaded once however often it is named.
    pub fn file(&mut self, node: &Node<'_>) -> Result<Arc<[u8]>> {
        let path = node.str()?;
        if let Some(bytes) = self.loaded.get(path) {
            return Ok(bytes.clone());
        }
        let bytes: Arc<[u8]> = (self.load)(path)
            .map_err(|e| node.error(format!("cannot read \"{path}\": {e}")))?
            .into();
        self.loaded.insert(path.to_owned(), bytes.clone());
        Ok(bytes)
    }
}

/// The bytes of the data object `node` (an object with exactly one data key; its other keys are the caller's).
pub fn data(node: &Node<'_>, files: &mut Files<'_>) -> Result<Vec<u8>> {
    let given: Vec<&str> = DATA_KEYS
        .iter()
        .copied()
        .filter(|key| node.value.get(key).is_some())
        .collect();
    let key = match given.as_slice() {
        [key] => *key,
        [] => {
            return Err(node.error(format!("no data: give one of {}", DATA_KEYS.join(", "))));
        }
        several => return Err(node.error(format!("several data keys ({}): give one", several.join(", ")))),
    };
    let Some(item) = node.get(key) else {
        return Err(node.error("no data"));
    };
    match key {
        "f32" => words(&item, 4, |n| n.f32_bits().map(u64::from)),
        "u32" | "i32" => words(&item, 4, |n| integer(n, 32)),
        "u16" => words(&item, 2, |n| integer(n, 16)),
        "u8" => words(&item, 1, |n| integer(n, 8)),
        "hex" => hex(&item),
        _ => Ok(files.file(&item)?.to_vec()),
    }
}

/// The bytes of a data object, padded with zeros to a multiple of `pad_to`, at least `pad_to` bytes (the reference
/// renderer creates buffers so).
pub fn padded_data(node: &Node<'_>, files: &mut Files<'_>, pad_to: usize) -> Result<(Vec<u8>, usize)> {
    let mut bytes = data(node, files)?;
    let len = bytes.len();
    let padded = len.max(1).next_multiple_of(pad_to.max(1));
    bytes.resize(padded, 0);
    Ok((bytes, len))
}

/// An array of values, each `size` bytes little-endian.
fn words(node: &Node<'_>, size: usize, read: impl Fn(&Node<'_>) -> Result<u64>) -> Result<Vec<u8>> {
    let items = node.items()?;
    let mut out = Vec::with_capacity(items.len().saturating_mul(size));
    for item in &items {
        let value = read(item)?;
        out.extend_from_slice(value.to_le_bytes().get(..size).unwrap_or_default());
    }
    Ok(out)
}

/// An integer of `bits` bits: a number (or a decimal or `0x` string) from `-2^(bits-1)` to `2^bits - 1`, as its
/// two's complement bits.
fn integer(node: &Node<'_>, bits: u32) -> Result<u64> {
    let max = (1i128 << bits).saturating_sub(1);
    let min = (1i128 << bits.saturating_sub(1)).saturating_neg();
    let value = match node.value {
        Value::Number(_) => node.integer(min, max)?,
        Value::String(text) => {
            let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                Some(hex) if !hex.is_empty() && hex.len() <= 16 => i128::from_str_radix(hex, 16).ok(),
                Some(_) => None,
                None => integer_text(text).filter(|_| !text.contains(['.', 'e', 'E'])),
            };
            match parsed {
                Some(v) if v >= min && v <= max => v,
                _ => {
                    return Err(node.error(format!(
                        "\"{text}\" is not a {bits}-bit integer ({min}..={max}, or 0x and hex digits)"
                    )));
                }
            }
        }
        other => return Err(node.error(format!("expected an integer, found {}", other.kind()))),
    };
    // two's complement in `bits` bits: the mask keeps the low bits of a negative value
    Ok((value & max) as u64)
}

/// The bytes of a `"hex"` string.
fn hex(node: &Node<'_>) -> Result<Vec<u8>> {
    let text = node.str()?;
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err(node.error(format!("{} hex digits: bytes take two each", digits.len())));
    }
    let nibble = |b: u8| -> Option<u8> { (b as char).to_digit(16).and_then(|d| u8::try_from(d).ok()) };
    let mut out = Vec::with_capacity(digits.len() / 2);
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        match (
            pair.first().and_then(|&b| nibble(b)),
            pair.get(1).and_then(|&b| nibble(b)),
        ) {
            (Some(high), Some(low)) => out.push(high << 4 | low),
            _ => return Err(node.error(format!("byte {i} is not two hex digits"))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::json::parse;
    use super::*;
    use crate::Error;

    fn read(text: &str) -> Result<Vec<u8>> {
        let value = parse(text).unwrap();
        let mut load = |path: &str| -> Result<Vec<u8>> {
            match path {
                "a.bin" => Ok(vec![1, 2, 3]),
                _ => Err(Error::new("file", "no such file")),
            }
        };
        let mut files = Files::new(&mut load);
        data(&Node::root(&value), &mut files)
    }

    #[test]
    fn each_data_kind_gives_little_endian_bytes() {
        // 1.0 = 0x3f800000; "0x7fc00001" raw; -inf = 0xff800000
        assert_eq!(
            read(r#"{"f32": [1, "0x7fc00001", "-inf"]}"#).unwrap(),
            [0, 0, 0x80, 0x3f, 1, 0, 0xc0, 0x7f, 0, 0, 0x80, 0xff]
        );
        // -1 in two's complement; 4294967295 = the same bits
        assert_eq!(read(r#"{"i32": [-1]}"#).unwrap(), [0xff; 4]);
        assert_eq!(
            read(r#"{"u32": [4294967295, "0x12345678"]}"#).unwrap(),
            [0xff, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12]
        );
        assert_eq!(
            read(r#"{"u16": [65535, -32768, "0x0102"]}"#).unwrap(),
            [0xff, 0xff, 0x00, 0x80, 0x02, 0x01]
        );
        assert_eq!(read(r#"{"u8": [255, -128, 7]}"#).unwrap(), [0xff, 0x80, 7]);
        assert_eq!(read(r#"{"hex": "00ff 1A\n2b"}"#).unwrap(), [0x00, 0xff, 0x1a, 0x2b]);
        assert_eq!(read(r#"{"file": "a.bin"}"#).unwrap(), [1, 2, 3]);
    }

    #[test]
    fn bad_data_names_its_item() {
        let e = read(r#"{"u8": [1, 256]}"#).unwrap_err();
        assert_eq!(e.at, "u8[1]");
        let e = read(r#"{"u16": [1, -32769]}"#).unwrap_err();
        assert_eq!(e.at, "u16[1]");
        let e = read(r#"{"f32": [1, "one"]}"#).unwrap_err();
        assert_eq!(e.at, "f32[1]");
        let e = read(r#"{"u32": [0.5]}"#).unwrap_err();
        assert_eq!(e.at, "u32[0]");
        let e = read(r#"{"hex": "abc"}"#).unwrap_err();
        assert!(e.detail.contains("3 hex digits"));
        let e = read(r#"{"hex": "zz"}"#).unwrap_err();
        assert!(e.detail.contains("byte 0"));
        let e = read(r#"{"file": "missing.bin"}"#).unwrap_err();
        assert!(
            e.detail.contains("missing.bin") && e.detail.contains("no such file"),
            "{e}"
        );
        assert!(read(r#"{"f32": [], "u8": []}"#).unwrap_err().detail.contains("several"));
        assert!(read(r#"{}"#).unwrap_err().detail.contains("no data"));
    }

    #[test]
    fn padding_rounds_up_and_never_leaves_a_buffer_empty() {
        let value = parse(r#"{"u8": [1, 2, 3, 4, 5]}"#).unwrap();
        let mut load = |_: &str| -> Result<Vec<u8>> { Ok(vec![]) };
        let mut files = Files::new(&mut load);
        let (bytes, len) = padded_data(&Node::root(&value), &mut files, 4).unwrap();
        assert_eq!((bytes, len), (vec![1, 2, 3, 4, 5, 0, 0, 0], 5));
        let empty = parse(r#"{"u8": []}"#).unwrap();
        let (bytes, len) = padded_data(&Node::root(&empty), &mut files, 16).unwrap();
        assert_eq!((bytes.len(), len), (16, 0));
    }
}
