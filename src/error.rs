//! Errors. Captures and shaders come from anywhere, so every bad input becomes an [`Error`] value that says what was
//! wrong and where; nothing in the library panics on data.

use std::fmt;

/// What sort of failure an [`Error`] is: what the CLI and the viewer match on (never the `what` text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The input is damaged or breaks a rule of its format or of D3D11: a truncated archive, a bad checksum, a
    /// program that reads a register it never declares, a draw whose state contradicts itself.
    #[default]
    Invalid,
    /// The input is valid D3D11 that Iridia does not run yet (a stage, a format, a fill mode).
    Unsupported,
    /// The request itself is wrong: no such draw, target or pixel, an argument out of range.
    Request,
    /// A resource limit of the library was reached (bytes, work, steps): the input may be fine but is too large.
    Budget,
    /// The caller cancelled the work.
    Cancelled,
    /// The request needs a replay that has not been done (or whose result was dropped).
    NotReplayed,
}

impl ErrorKind {
    /// The kind's name as JSON and the viewer spell it (`"not_replayed"`).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Invalid => "invalid",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Request => "request",
            ErrorKind::Budget => "budget",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::NotReplayed => "not_replayed",
        }
    }
}

/// What went wrong and where: the input or stage at fault, the place in it, and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What sort of failure this is (what callers match on).
    pub kind: ErrorKind,
    /// The input or stage the error is about, outermost first: `"capture draws[3] ps"`, `"DXBC"`, `"draw 2"`.
    pub what: String,
    /// Where in it: `"byte 0x24"`, `"line 12"`, `"instruction 7 (token 0x1c)"`; empty when no place applies.
    pub at: String,
    /// What is wrong, as a sentence fragment: `"the chunk count 4000000 needs more bytes than the 212 given"`.
    pub detail: String,
}

impl Error {
    /// An error about `what`, with no place yet, of kind [`ErrorKind::Invalid`].
    pub fn new(what: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            kind: ErrorKind::Invalid,
            what: what.into(),
            at: String::new(),
            detail: detail.into(),
        }
    }

    /// An error of `kind` about `what`, with no place yet.
    pub fn of_kind(kind: ErrorKind, what: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(what, detail).kind(kind)
    }

    /// The same error, of `kind`.
    #[must_use]
    pub fn kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
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
    fn a_kind_survives_placing_and_enclosing() {
        let e = Error::of_kind(ErrorKind::Cancelled, "draw 3", "cancelled")
            .at("primitive 7")
            .within("capture");
        assert_eq!(e.kind, ErrorKind::Cancelled);
        assert_eq!(Error::new("DXBC", "bad magic").kind, ErrorKind::Invalid);
        assert_eq!(
            serde_json::to_string(&ErrorKind::NotReplayed).ok().as_deref(),
            Some("\"not_replayed\"")
        );
        assert_eq!(ErrorKind::NotReplayed.name(), "not_replayed");
    }

    #[test]
    fn an_enclosing_input_is_named_first() {
        let e = Error::new("DXBC", "bad magic").within("capture draws[3] ps");
        assert_eq!(e.to_string(), "capture draws[3] ps DXBC: bad magic");
    }
}
