//! Errors. Captures and shaders come from anywhere, so every bad input becomes an [`Error`] value that says what was
//! wrong and where; nothing in the library panics on data.

use std::fmt;

/// What went wrong and where: the input or stage at fault, the place in it, and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The input or stage the error is about, outermost first: `"capture draws[3] ps"`, `"DXBC"`, `"draw 2"`.
    pub what: String,
    /// Where in it: `"byte 0x24"`, `"line 12"`, `"instruction 7 (token 0x1c)"`; empty when no place applies.
    pub at: String,
    /// What is wrong, as a sentence fragment: `"the chunk count 4000000 needs more bytes than the 212 given"`.
    pub detail: String,
}

impl Error {
    /// An error about `what`, with no place yet.
    pub fn new(what: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            at: String::new(),
            detail: detail.into(),
        }
    }

    /// The same error, placed at `at` (replacing any place it had).
    #[must_use]
    pub fn at(mut self, at: impl Into<String>) -> Self {
        self.at = at.into();
        self
    }

    /// The same error seen from an enclosing input: `outer` goes before what it already names.
    #[must_use]
    pub fn within(mut self, outer: impl AsRef<str>) -> Self {
        let outer = outer.as_ref();
        self.what = if self.what.is_empty() {
            outer.to_owned()
        } else {
            format!("{outer} {}", self.what)
        };
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)?;
        if !self.at.is_empty() {
            write!(f, " at {}", self.at)?;
        }
        write!(f, ": {}", self.detail)
    }
}

impl std::error::Error for Error {}

/// A result whose error is an [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_reads_what_then_where_then_why() {
        let e = Error::new("DXBC", "the chunk count 9 needs more bytes than the 40 given").at("byte 0x1c");
        assert_eq!(
            e.to_string(),
            "DXBC at byte 0x1c: the chunk count 9 needs more bytes than the 40 given"
        );
    }

    #[test]
    fn an_enclosing_input_is_named_first() {
        let e = Error::new("DXBC", "bad magic").within("capture draws[3] ps");
        assert_eq!(e.to_string(), "capture draws[3] ps DXBC: bad magic");
    }
}
