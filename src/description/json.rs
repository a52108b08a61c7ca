//! The JSON the draw descriptions are written in, read as `d3d11-ref`'s own reader reads it: standard JSON plus `//`
//! line comments and a comma allowed before a closing bracket. Numbers keep their text, so that a float is converted
//! once, correctly rounded, from the decimal the description gives (`str::parse::<f64>`, then to f32 as the reference
//! renderer's `strtod` and cast do), and an integer is read exactly whatever its size.
//!
//! Nesting is limited to 64 levels (as the reference's reader), a key may appear once per object, and a syntax error
//! names its line and column.

use crate::{Error, Result};

/// The deepest nesting of arrays and objects accepted.
const MAX_DEPTH: usize = 64;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, escapes resolved.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object's members in the order written.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What kind of value it is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// Parses `text` as one JSON value.
pub fn parse(text: &str) -> Result<Value> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        pos: 0,
    };
    let value = parser.value(0)?;
    parser.skip_space();
    if parser.pos < parser.bytes.len() {
        return Err(parser.error("text after the value"));
    }
    Ok(value)
}

/// A position in the text being read.
struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn advance(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    /// An error at the current position, as line and column (both from 1; the column counts bytes).
    fn error(&self, detail: &str) -> Error {
        let before = self.bytes.get(..self.pos).unwrap_or(self.bytes);
        let line = before.iter().filter(|&&b| b == b'\n').count().saturating_add(1);
        let column = before
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .count()
            .saturating_add(1);
        Error::new("draw description JSON", detail).at(format!("line {line}, column {column}"))
    }

    /// Skips white space and `//` comments.
    fn skip_space(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.advance(),
                Some(b'/') if self.bytes.get(self.pos.saturating_add(1)) == Some(&b'/') => {
                    while let Some(b) = self.peek() {
                        if b == b'\n' {
                            break;
                        }
                        self.advance();
                    }
                }
                _ => return,
            }
        }
    }

    fn expect_word(&mut self, word: &str, value: Value) -> Result<Value> {
        let end = self.pos.saturating_add(word.len());
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.error("an unexpected character"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(self.error("arrays and objects nest deeper than 64 levels"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.expect_word("true", Value::Bool(true)),
            Some(b'f') => self.expect_word("false", Value::Bool(false)),
            Some(b'n') => self.expect_word("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("an unexpected character")),
            None => Err(self.error("the text ends where a value should be")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value> {
        self.advance(); // '{'
        let mut members: Vec<(String, Value)> = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'}') => {
                    self.advance();
                    return Ok(Value::Object(members));
                }
                Some(b'"') => {}
                _ => return Err(self.error("expected a key in quotes or '}'")),
            }
            let key_pos = self.pos;
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                self.pos = key_pos;
                return Err(self.error(&format!("the key \"{key}\" appears twice in one object")));
            }
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':' after a key"));
            }
            self.advance();
            let value = self.value(depth.saturating_add(1))?;
            members.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.advance(),
                Some(b'}') => {}
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value> {
        self.advance(); // '['
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.peek() == Some(b']') {
                self.advance();
                return Ok(Value::Array(items));
            }
            items.push(self.value(depth.saturating_add(1))?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.advance(),
                Some(b']') => {}
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.advance();
        }
        let digits = |p: &mut Self| {
            let from = p.pos;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.advance();
            }
            p.pos > from
        };
        if self.peek() == Some(b'0') {
            self.advance();
        } else if !digits(self) {
            return Err(self.error("a number without digits"));
        }
        if self.peek() == Some(b'.') {
            self.advance();
            if !digits(self) {
                return Err(self.error("a number without digits after its '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.advance();
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.advance();
            }
            if !digits(self) {
                return Err(self.error("a number without digits in its exponent"));
            }
        }
        let text = self.bytes.get(start..self.pos).unwrap_or_default();
        Ok(Value::Number(String::from_utf8_lossy(text).into_owned()))
    }

    fn string(&mut self) -> Result<String> {
        self.advance(); // '"'
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("a string is not closed"));
            };
            self.advance();
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(escape) = self.peek() else {
                        return Err(self.error("a string is not closed"));
                    };
                    self.advance();
                    match escape {
                        b'"' | b'\\' | b'/' => out.push(escape),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'u' => {
                            let c = self.unicode_escape()?;
                            let mut buffer = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                        }
                        _ => return Err(self.error("an unknown escape in a string")),
                    }
                }
                0x00..=0x1f => return Err(self.error("a control character in a string")),
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("a string that is not UTF-8"))
    }

    /// The character of a `\uXXXX` escape (after the `u`), joining a surrogate pair.
    fn unicode_escape(&mut self) -> Result<char> {
        let first = self.hex4()?;
        let code = if (0xd800..0xdc00).contains(&first) {
            let end = self.pos.saturating_add(2);
            if self.bytes.get(self.pos..end) != Some(b"\\u") {
                return Err(self.error("a lone surrogate in a \\u escape"));
            }
            self.pos = end;
            let second = self.hex4()?;
            if !(0xdc00..0xe000).contains(&second) {
                return Err(self.error("a lone surrogate in a \\u escape"));
            }
            0x10000u32
                .saturating_add((first.saturating_sub(0xd800)) << 10)
                .saturating_add(second.saturating_sub(0xdc00))
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("a \\u escape that is not a character"))
    }

    fn hex4(&mut self) -> Result<u32> {
        let end = self.pos.saturating_add(4);
        let digits = self
            .bytes
            .get(self.pos..end)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.error("a \\u escape without four hex digits"))?;
        self.pos = end;
        Ok(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_read_as_the_reference_reads_them() {
        let v = parse("{\"a\": [1, 2,], // two\n \"b\": {\"c\": \"x\",},}").unwrap();
        assert_eq!(
            v.get("a"),
            Some(&Value::Array(vec![
                Value::Number("1".into()),
                Value::Number("2".into())
            ]))
        );
        assert_eq!(v.get("b").and_then(|b| b.get("c")), Some(&Value::String("x".into())));
    }

    #[test]
    fn numbers_keep_their_text() {
        assert_eq!(parse("-1.25e-3").unwrap(), Value::Number("-1.25e-3".into()));
        assert_eq!(
            parse("18446744073709551617").unwrap(),
            Value::Number("18446744073709551617".into())
        );
    }

    #[test]
    fn escapes_resolve_and_surrogate_pairs_join() {
        assert_eq!(
            parse(r#""a\n\u00e9\ud83d\ude00""#).unwrap(),
            Value::String("a\né😀".into())
        );
    }

    #[test]
    fn a_syntax_error_names_line_and_column() {
        let e = parse("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!(e.at, "line 3, column 7");
        assert!(e.detail.contains("':'"));
        let e = parse("{\"a\": 1, \"a\": 2}").unwrap_err();
        assert!(e.detail.contains("appears twice"), "{e}");
        assert!(parse("[1 2]").is_err());
        assert!(parse("01").is_err());
        assert!(parse("1.").is_err());
        assert!(parse("\"open").is_err());
    }

    #[test]
    fn nesting_is_limited() {
        let deep = "[".repeat(65) + &"]".repeat(65);
        assert!(parse(&deep).is_ok());
        let deeper = "[".repeat(66) + &"]".repeat(66);
        assert!(parse(&deeper).unwrap_err().detail.contains("64 levels"));
    }
}
