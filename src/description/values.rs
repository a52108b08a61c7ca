//! Reading typed values out of a description's JSON, each with the key path it came from, so that every error says
//! where it is (`draws[2].vertex_buffers[0].f32[7]`) and what is wrong with it.

use super::json::Value;
use crate::api::draw::bind_slot;
use crate::format::Format;
use crate::{Error, Result};
use serde::de::DeserializeOwned;

/// The `what` of every description error.
pub const WHAT: &str = "draw description";

/// A JSON value and the key path that leads to it from the description's top level.
#[derive(Clone, Debug)]
pub struct Node<'a> {
    /// The value.
    pub value: &'a Value,
    /// The key path: `""` for the top level, `"draws[2].viewport.w"` below it.
    pub path: String,
}

impl<'a> Node<'a> {
    /// The top level of a description.
    pub fn root(value: &'a Value) -> Self {
        Self {
            value,
            path: String::new(),
        }
    }

    /// An error about this value.
    pub fn error(&self, detail: impl Into<String>) -> Error {
        let at = if self.path.is_empty() {
            "the top level"
        } else {
            &self.path
        };
        Error::new(WHAT, detail).at(at)
    }

    /// The path of member `key`.
    fn member_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The member `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<Node<'a>> {
        self.value.get(key).map(|value| Node {
            value,
            path: self.member_path(key),
        })
    }

    /// Checks that this is an object whose keys are all in `allowed`. Keys starting with `_` are notes and allowed
    /// anywhere (an Iridia extension; the reference renderer ignores every key it does not know).
    pub fn expect_object(&self, allowed: &[&str]) -> Result<()> {
        let Value::Object(members) = self.value else {
            return Err(self.error(format!("expected an object, found {}", self.value.kind())));
        };
        for (key, _) in members {
            if !key.starts_with('_') && !allowed.contains(&key.as_str()) {
                return Err(Error::new(
                    WHAT,
                    format!("unknown key \"{key}\"; known here: {}", allowed.join(", ")),
                )
                .at(self.member_path(key)));
            }
        }
        Ok(())
    }

    /// The items of an array, each with its path.
    pub fn items(&self) -> Result<Vec<Node<'a>>> {
        let Value::Array(items) = self.value else {
            return Err(self.error(format!("expected an array, found {}", self.value.kind())));
        };
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| Node {
                value,
                path: format!("{}[{i}]", self.path),
            })
            .collect())
    }

    /// The items of an array of at most `limit` items.
    pub fn items_at_most(&self, limit: usize) -> Result<Vec<Node<'a>>> {
        let items = self.items()?;
        if items.len() > limit {
            return Err(self.error(format!("{} items, more than the {limit} allowed here", items.len())));
        }
        Ok(items)
    }

    /// A string.
    pub fn str(&self) -> Result<&'a str> {
        match self.value {
            Value::String(s) => Ok(s),
            other => Err(self.error(format!("expected a string, found {}", other.kind()))),
        }
    }

    /// A boolean; a number is accepted too (non-zero is true), as the reference renderer reads it.
    pub fn bool(&self) -> Result<bool> {
        match self.value {
            Value::Bool(b) => Ok(*b),
            Value::Number(text) => Ok(number_f64(text).is_some_and(|v| v != 0.0)),
            other => Err(self.error(format!("expected true or false, found {}", other.kind()))),
        }
    }

    /// An integer number in `min..=max`.
    pub fn integer(&self, min: i128, max: i128) -> Result<i128> {
        let Value::Number(text) = self.value else {
            return Err(self.error(format!("expected an integer, found {}", self.value.kind())));
        };
        let value = integer_text(text).ok_or_else(|| self.error(format!("{text} is not an integer")))?;
        if value < min || value > max {
            return Err(self.error(format!("{text} is outside {min}..={max}")));
        }
        Ok(value)
    }

    /// An unsigned 32-bit integer.
    pub fn u32(&self) -> Result<u32> {
        let value = self.integer(0, i128::from(u32::MAX))?;
        u32::try_from(value).map_err(|_| self.error("not a 32-bit unsigned integer"))
    }

    /// An unsigned integer at most `max`.
    pub fn u32_at_most(&self, max: u32) -> Result<u32> {
        let value = self.integer(0, i128::from(max))?;
        u32::try_from(value).map_err(|_| self.error("not a 32-bit unsigned integer"))
    }

    /// A signed 32-bit integer.
    pub fn i32(&self) -> Result<i32> {
        let value = self.integer(i128::from(i32::MIN), i128::from(i32::MAX))?;
        i32::try_from(value).map_err(|_| self.error("not a 32-bit signed integer"))
    }

    /// A number, as float32: the decimal rounded to float64 and that to float32, as the reference renderer's
    /// `strtod` and `(float)` cast do.
    pub fn f32(&self) -> Result<f32> {
        let Value::Number(text) = self.value else {
            return Err(self.error(format!("expected a number, found {}", self.value.kind())));
        };
        number_f64(text)
            .map(|v| v as f32)
            .ok_or_else(|| self.error(format!("{text} is not a number")))
    }

    /// A float32's bits from a number, a raw-bit string (`"0x7fc00000"`), or `"nan"`, `"inf"`, `"+inf"`, `"-inf"`.
    pub fn f32_bits(&self) -> Result<u32> {
        match self.value {
            Value::Number(_) => Ok(self.f32()?.to_bits()),
            Value::String(text) => float_string_bits(text)
                .ok_or_else(|| self.error(format!("\"{text}\" is not a float: give a number, \"0x\" and up to 8 hex digits, \"nan\", \"inf\" or \"-inf\""))),
            other => Err(self.error(format!("expected a number, found {}", other.kind()))),
        }
    }

    /// Four float32s (numbers or the strings [`Node::f32_bits`] reads).
    pub fn f32x4(&self) -> Result<[f32; 4]> {
        let items = self.items()?;
        if items.len() != 4 {
            return Err(self.error(format!("expected 4 numbers, found {}", items.len())));
        }
        let mut out = [0.0f32; 4];
        for (slot, item) in out.iter_mut().zip(&items) {
            *slot = f32::from_bits(item.f32_bits()?);
        }
        Ok(out)
    }

    /// A D3D11 API enumeration value: its short or full name or its number (see [`crate::api::enums`]).
    pub fn api_enum<T: DeserializeOwned>(&self) -> Result<T> {
        let json = match self.value {
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Number(text) => match integer_text(text).and_then(|v| u64::try_from(v).ok()) {
                Some(n) => serde_json::Value::from(n),
                None => return Err(self.error(format!("{text} is not an enumeration value"))),
            },
            other => return Err(self.error(format!("expected a name or a number, found {}", other.kind()))),
        };
        serde_json::from_value(json).map_err(|e| self.error(e.to_string()))
    }

    /// A DXGI format, by name (with or without `DXGI_FORMAT_`) or number.
    pub fn format(&self) -> Result<Format> {
        let parsed = match self.value {
            Value::String(s) => s.parse::<Format>(),
            Value::Number(text) => {
                match integer_text(text)
                    .and_then(|v| u32::try_from(v).ok())
                    .and_then(Format::from_u32)
                {
                    Some(format) => Ok(format),
                    None => return Err(self.error(format!("{text} is not a DXGI_FORMAT value"))),
                }
            }
            other => return Err(self.error(format!("expected a format name, found {}", other.kind()))),
        };
        parsed.map_err(|e| self.error(e.detail))
    }
}

/// A decimal number's value as float64, correctly rounded.
pub fn number_f64(text: &str) -> Option<f64> {
    text.parse::<f64>().ok()
}

/// The integer a number's text is: exact for plain digits of any size that fits `i128`, or a float64 with no
/// fraction (`1e3`, `64.0`) below 2^63 in size.
pub fn integer_text(text: &str) -> Option<i128> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse::<i128>().ok();
    }
    let value = number_f64(text)?;
    // 2^63 as f64 is exact; every float below it with no fraction is an integer that fits i64
    if value.is_finite() && value.fract() == 0.0 && value.abs() < 9_223_372_036_854_775_808.0 {
        return Some(i128::from(value as i64));
    }
    None
}

/// A float string's bits: `"0x"` and 1 to 8 hex digits as raw bits, `"nan"` (the quiet NaN 0x7fc00000), `"inf"`,
/// `"+inf"`, `"-inf"` (any case), or a decimal (rounded as [`Node::f32`] rounds).
pub fn float_string_bits(text: &str) -> Option<u32> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 8 {
            return None;
        }
        return u32::from_str_radix(hex, 16).ok();
    }
    match text.to_ascii_lowercase().as_str() {
        "nan" => return Some(0x7fc0_0000),
        "inf" | "+inf" => return Some(0x7f80_0000),
        "-inf" => return Some(0xff80_0000),
        _ => {}
    }
    // only plain decimals: Rust's parser would also take "infinity" and "NaN" spellings
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    if !plain {
        return None;
    }
    number_f64(text).map(|v| (v as f32).to_bits())
}

/// Reads `key` of `node` with `read`, if present.
pub fn optional<'a, T>(node: &Node<'a>, key: &str, read: impl FnOnce(&Node<'a>) -> Result<T>) -> Result<Option<T>> {
    node.get(key).map(|n| read(&n)).transpose()
}

/// A slot: `"slot"` if given (below `limit`), else the item's place `index` in its list.
pub fn slot_of(item: &Node<'_>, index: usize, limit: usize) -> Result<u32> {
    match item.get("slot") {
        Some(node) => node.u32_at_most(u32::try_from(limit.saturating_sub(1)).unwrap_or(u32::MAX)),
        None => u32::try_from(index)
            .ok()
            .filter(|&s| (s as usize) < limit)
            .ok_or_else(|| item.error(format!("item {index} has no slot below {limit}"))),
    }
}

/// Binds `(slot, value)` pairs into a slot list, refusing a slot given twice.
pub fn bind_all<T>(node: Option<Node<'_>>, pairs: Vec<(u32, T)>, limit: usize) -> Result<Vec<Option<T>>> {
    let mut slots: Vec<Option<T>> = Vec::new();
    for (slot, value) in pairs {
        if slots.get(slot as usize).is_some_and(Option::is_some) {
            let what = node.as_ref().map_or(String::from("a list"), |n| n.path.clone());
            return Err(Error::new(WHAT, format!("slot {slot} is bound twice")).at(what));
        }
        bind_slot(&mut slots, slot, value, limit)?;
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::super::json::parse;
    use super::*;

    #[test]
    fn integers_are_exact_and_float_spellings_of_integers_are_taken() {
        assert_eq!(integer_text("4294967295"), Some(4_294_967_295));
        assert_eq!(integer_text("-2147483648"), Some(-2_147_483_648));
        assert_eq!(integer_text("64.0"), Some(64));
        assert_eq!(integer_text("1e3"), Some(1000));
        assert_eq!(integer_text("0.5"), None);
        assert_eq!(integer_text("1e300"), None);
    }

    #[test]
    fn float_strings_read_raw_bits_and_the_special_names() {
        assert_eq!(float_string_bits("0x7fc00001"), Some(0x7fc0_0001));
        assert_eq!(float_string_bits("NaN"), Some(0x7fc0_0000));
        assert_eq!(float_string_bits("-INF"), Some(0xff80_0000));
        assert_eq!(float_string_bits("0.5"), Some(0x3f00_0000));
        assert_eq!(float_string_bits("0x123456789"), None);
        assert_eq!(float_string_bits("infinity"), None);
        assert_eq!(float_string_bits("0x"), None);
    }

    #[test]
    fn a_decimal_rounds_through_float64_to_float32() {
        // 0.1 is 0x3dcccccd as float32 (the nearest float32 to the float64 nearest 0.1)
        let v = parse("0.1").unwrap();
        assert_eq!(Node::root(&v).f32_bits().unwrap(), 0x3dcc_cccd);
        // 16777217 is halfway between float32 16777216 and 16777218: ties to even, 16777216 (0x4b800000)
        let v = parse("16777217").unwrap();
        assert_eq!(Node::root(&v).f32_bits().unwrap(), 0x4b80_0000);
    }

    #[test]
    fn errors_name_the_key_path() {
        let v = parse(r#"{"a": [{"b": 1.5}]}"#).unwrap();
        let root = Node::root(&v);
        let b = root.get("a").unwrap().items().unwrap()[0].get("b").unwrap();
        let e = b.u32().unwrap_err();
        assert_eq!(e.at, "a[0].b");
        assert!(e.detail.contains("1.5 is not an integer"));
        let e = root.expect_object(&["x"]).unwrap_err();
        assert_eq!(e.at, "a");
        assert!(root.expect_object(&["a"]).is_ok());
    }

    #[test]
    fn api_enums_and_formats_take_names_and_numbers() {
        use crate::api::enums::CullMode;
        let v = parse(r#"["D3D11_CULL_FRONT", 1, "FLIP", "R16_UINT", 57]"#).unwrap();
        let items = Node::root(&v).items().unwrap();
        assert_eq!(items[0].api_enum::<CullMode>().unwrap(), CullMode::Front);
        assert_eq!(items[1].api_enum::<CullMode>().unwrap(), CullMode::None);
        let e = items[2].api_enum::<CullMode>().unwrap_err();
        assert_eq!(e.at, "[2]");
        assert_eq!(items[3].format().unwrap(), Format::R16Uint);
        assert_eq!(items[4].format().unwrap(), Format::R16Uint);
    }
}
