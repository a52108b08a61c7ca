//! The recorder's settings: `iridia-recorder.toml` beside the executable, then environment variables, which win.
//!
//! | file key | variable | meaning | default |
//! |---|---|---|---|
//! | `enabled` | `IRIDIA_ENABLED` | `false`: hook nothing, only forward the exports | `true` |
//! | `capture_frame` | `IRIDIA_CAPTURE_FRAME` | record frame N (frame 0 runs until the first `Present`) | none |
//! | `capture_frames` | `IRIDIA_CAPTURE_FRAMES` | how many `Present`s a capture spans | 1 |
//! | `trigger_file` | `IRIDIA_TRIGGER_FILE` | a file whose appearance records the next frame (it is then deleted) | `iridia-capture.trigger` beside the executable |
//! | `capture_key` | `IRIDIA_CAPTURE_KEY` | a key (`F1`..`F24`, a letter, or a virtual-key number; `none`) that records the next frame | `F12` |
//! | `output_dir` | `IRIDIA_OUTPUT_DIR` | where captures are written | beside the executable |
//! | `log_file` | `IRIDIA_LOG_FILE` | the log | `iridia-recorder.log` beside the executable |
//! | `deflate_level` | `IRIDIA_DEFLATE_LEVEL` | 0 (store) to 9 | 1 |
//! | `max_draws` | `IRIDIA_MAX_DRAWS` | stop a capture after this many draws | none |
//! | `snapshot_draws` | `IRIDIA_SNAPSHOT_DRAWS` | write the manifest and directory every N draws, so that a crash keeps them | 64 |
//! | `fault_panic_draw` | `IRIDIA_FAULT_PANIC_DRAW` | (tests) panic while recording draw N, to check that the program survives it | none |
//! | `fault_writer_delay_ms` | `IRIDIA_FAULT_WRITER_DELAY_MS` | (tests) the writer thread waits this long before finishing a capture's file, to check that `Present` does not wait for it | 0 |
//!
//! The file is a flat subset of TOML: `key = value` lines, `#` comments, values a basic (`"..."`, with `\\`, `\"`,
//! `\n`, `\t` escapes) or literal (`'...'`) string, an integer, or `true`/`false`. A line that is not one of these,
//! or an unknown key, is reported (in the log) and skipped.

use std::path::{Path, PathBuf};

/// What the recorder does, as the settings say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Whether to hook anything at all.
    pub enabled: bool,
    /// The frame to record, counted in `Present`s from 0.
    pub capture_frame: Option<u64>,
    /// How many `Present`s a capture spans (at least 1).
    pub capture_frames: u64,
    /// A file whose appearance records the next frame.
    pub trigger_file: Option<PathBuf>,
    /// The virtual-key code of the key that records the next frame.
    pub capture_key: Option<u32>,
    /// Where captures go.
    pub output_dir: PathBuf,
    /// The log file.
    pub log_file: PathBuf,
    /// Deflate level of the capture's blobs, 0 to 9.
    pub deflate_level: u8,
    /// The most draws one capture records.
    pub max_draws: Option<u64>,
    /// Draws between two snapshots of the manifest and directory.
    pub snapshot_draws: u64,
    /// Fault injection for tests: panic while recording this draw of a capture.
    pub fault_panic_draw: Option<u64>,
    /// Fault injection for tests: milliseconds the writer thread sleeps before finishing a capture's file.
    pub fault_writer_delay_ms: u64,
}

/// The virtual-key code of F1 (`VK_F1`); F2 to F24 follow it.
const VK_F1: u32 = 0x70;

impl Settings {
    /// The defaults for a program whose executable is in `exe_dir`.
    pub fn defaults(exe_dir: &Path) -> Self {
        Self {
            enabled: true,
            capture_frame: None,
            capture_frames: 1,
            trigger_file: Some(exe_dir.join("iridia-capture.trigger")),
            capture_key: Some(VK_F1 + 11),
            output_dir: exe_dir.to_path_buf(),
            log_file: exe_dir.join("iridia-recorder.log"),
            deflate_level: 1,
            max_draws: None,
            snapshot_draws: 64,
            fault_panic_draw: None,
            fault_writer_delay_ms: 0,
        }
    }

    /// The settings from the defaults, then `file` (the text of `iridia-recorder.toml`, if there is one), then the
    /// variables `env` gives; with a message for each line or value that was skipped.
    pub fn load(exe_dir: &Path, file: Option<&str>, env: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        let mut settings = Self::defaults(exe_dir);
        let mut problems = Vec::new();
        if let Some(text) = file {
            for (number, line) in text.lines().enumerate() {
                match parse_line(line) {
                    Ok(None) => {}
                    Ok(Some((key, value))) => {
                        if let Err(problem) = settings.set(exe_dir, &key, value) {
                            problems.push(format!("iridia-recorder.toml line {}: {problem}", number + 1));
                        }
                    }
                    Err(problem) => problems.push(format!("iridia-recorder.toml line {}: {problem}", number + 1)),
                }
            }
        }
        for key in KEYS {
            let variable = format!("IRIDIA_{}", key.to_ascii_uppercase());
            if let Some(text) = env(&variable) {
                let value = parse_env_value(&text);
                if let Err(problem) = settings.set(exe_dir, key, value) {
                    problems.push(format!("{variable}: {problem}"));
                }
            }
        }
        (settings, problems)
    }

    /// Sets `key` to `value`; relative paths are taken from `exe_dir`.
    fn set(&mut self, exe_dir: &Path, key: &str, value: Value) -> Result<(), String> {
        let path = |value: Value| -> Result<PathBuf, String> {
            let text = value.text()?;
            Ok(exe_dir.join(text))
        };
        match key {
            "enabled" => self.enabled = value.boolean()?,
            "capture_frame" => self.capture_frame = Some(value.integer()?),
            "capture_frames" => self.capture_frames = value.integer()?.max(1),
            "trigger_file" => {
                let text = value.text()?;
                self.trigger_file = (!text.is_empty() && text != "none").then(|| exe_dir.join(text));
            }
            "capture_key" => self.capture_key = parse_key(&value)?,
            "output_dir" => self.output_dir = path(value)?,
            "log_file" => self.log_file = path(value)?,
            "deflate_level" => {
                let level = value.integer()?;
                self.deflate_level = u8::try_from(level)
                    .ok()
                    .filter(|l| *l <= 9)
                    .ok_or_else(|| format!("deflate level {level} is not 0 to 9"))?;
            }
            "max_draws" => self.max_draws = Some(value.integer()?),
            "snapshot_draws" => self.snapshot_draws = value.integer()?.max(1),
            "fault_panic_draw" => self.fault_panic_draw = Some(value.integer()?),
            "fault_writer_delay_ms" => self.fault_writer_delay_ms = value.integer()?,
            other => return Err(format!("unknown setting {other:?} (known: {})", KEYS.join(", "))),
        }
        Ok(())
    }
}

/// Every setting's key.
const KEYS: [&str; 12] = [
    "enabled",
    "capture_frame",
    "capture_frames",
    "trigger_file",
    "capture_key",
    "output_dir",
    "log_file",
    "deflate_level",
    "max_draws",
    "snapshot_draws",
    "fault_panic_draw",
    "fault_writer_delay_ms",
];

/// A value from the file or the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Text(String),
    Integer(u64),
    Boolean(bool),
}

impl Value {
    fn text(self) -> Result<String, String> {
        match self {
            Self::Text(text) => Ok(text),
            Self::Integer(n) => Ok(n.to_string()),
            Self::Boolean(b) => Ok(b.to_string()),
        }
    }

    fn integer(self) -> Result<u64, String> {
        match self {
            Self::Integer(n) => Ok(n),
            Self::Text(text) => text
                .trim()
                .parse()
                .map_err(|_| format!("{text:?} is not a whole number")),
            Self::Boolean(b) => Err(format!("{b} is not a whole number")),
        }
    }

    fn boolean(self) -> Result<bool, String> {
        match self {
            Self::Boolean(b) => Ok(b),
            Self::Integer(n) => Ok(n != 0),
            Self::Text(text) => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(true),
                "false" | "no" | "off" | "0" => Ok(false),
                _ => Err(format!("{text:?} is not true or false")),
            },
        }
    }
}

/// An environment variable's value: an integer if it is one, `true`/`false`, else text.
fn parse_env_value(text: &str) -> Value {
    if let Ok(n) = text.trim().parse() {
        return Value::Integer(n);
    }
    match text.trim() {
        "true" => Value::Boolean(true),
        "false" => Value::Boolean(false),
        _ => Value::Text(text.to_owned()),
    }
}

/// A key's virtual-key code: `F1`..`F24`, a letter or digit (its code is its upper-case ASCII), a number, or
/// `none`.
fn parse_key(value: &Value) -> Result<Option<u32>, String> {
    let text = match value {
        Value::Integer(n) => {
            return u32::try_from(*n)
                .map(Some)
                .map_err(|_| format!("{n} is not a key code"));
        }
        Value::Boolean(false) => return Ok(None),
        Value::Boolean(true) => return Err("true is not a key".to_owned()),
        Value::Text(text) => text.trim().to_ascii_uppercase(),
    };
    if text.is_empty() || text == "NONE" {
        return Ok(None);
    }
    if let Some(n) = text.strip_prefix('F').and_then(|n| n.parse::<u32>().ok())
        && (1..=24).contains(&n)
    {
        return Ok(Some(VK_F1 + n - 1));
    }
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c.is_ascii_alphanumeric()
    {
        return Ok(Some(u32::from(c)));
    }
    Err(format!(
        "{text:?} is not a key: use F1 to F24, a letter or digit, a virtual-key number, or none"
    ))
}

/// One line of the file: `None` for a blank or comment line.
fn parse_line(line: &str) -> Result<Option<(String, Value)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (key, rest) = line
        .split_once('=')
        .ok_or_else(|| format!("{line:?} is not `key = value`"))?;
    let key = key.trim();
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!("{key:?} is not a bare key"));
    }
    let rest = rest.trim();
    let (value, after) = if let Some(body) = rest.strip_prefix('"') {
        let mut text = String::new();
        let mut chars = body.char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    end = Some(i + 1);
                    break;
                }
                '\\' => match chars.next().map(|(_, e)| e) {
                    Some('\\') => text.push('\\'),
                    Some('"') => text.push('"'),
                    Some('n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    other => return Err(format!("unknown escape \\{}", other.unwrap_or(' '))),
                },
                c => text.push(c),
            }
        }
        let end = end.ok_or("the string has no closing quote")?;
        (Value::Text(text), body.get(end..).unwrap_or(""))
    } else if let Some(body) = rest.strip_prefix('\'') {
        let end = body.find('\'').ok_or("the string has no closing quote")?;
        (
            Value::Text(body.get(..end).unwrap_or("").to_owned()),
            body.get(end + 1..).unwrap_or(""),
        )
    } else {
        let (word, _comment) = rest.split_once('#').map_or((rest, ""), |(w, a)| (w, a));
        let word = word.trim();
        let value = match word {
            "true" => Value::Boolean(true),
            "false" => Value::Boolean(false),
            _ => Value::Integer(
                word.replace('_', "")
                    .parse()
                    .map_err(|_| format!("{word:?} is not a string, whole number or boolean"))?,
            ),
        };
        (value, "")
    };
    let after = after.trim();
    if !after.is_empty() && !after.starts_with('#') {
        return Err(format!("{after:?} follows the value"));
    }
    Ok(Some((key.to_owned(), value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn without_a_file_or_variables_the_defaults_hold() {
        let dir = Path::new("/game");
        let (settings, problems) = Settings::load(dir, None, no_env);
        assert!(problems.is_empty());
        assert_eq!(settings, Settings::defaults(dir));
        // F12 is VK_F12, 0x7B in WinUser.h.
        assert_eq!(settings.capture_key, Some(0x7b));
        assert_eq!(settings.trigger_file, Some(dir.join("iridia-capture.trigger")));
    }

    #[test]
    fn the_file_sets_each_kind_of_value() {
        let file = "# a comment\ncapture_frame = 30\ncapture_key = 'F5'\noutput_dir = \"caps\\\\out\" # trailing\n\
                    enabled = true\ndeflate_level = 0\nmax_draws = 1_000\n";
        let (settings, problems) = Settings::load(Path::new("/g"), Some(file), no_env);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(settings.capture_frame, Some(30));
        // F5 is VK_F1 + 4 = 0x74.
        assert_eq!(settings.capture_key, Some(0x74));
        assert_eq!(settings.output_dir, Path::new("/g").join("caps\\out"));
        assert_eq!(settings.deflate_level, 0);
        assert_eq!(settings.max_draws, Some(1000));
    }

    #[test]
    fn variables_win_over_the_file() {
        let env = |name: &str| match name {
            "IRIDIA_CAPTURE_FRAME" => Some("7".to_owned()),
            "IRIDIA_CAPTURE_KEY" => Some("none".to_owned()),
            "IRIDIA_TRIGGER_FILE" => Some("none".to_owned()),
            _ => None,
        };
        let (settings, problems) = Settings::load(Path::new("/g"), Some("capture_frame = 3\n"), env);
        assert!(problems.is_empty());
        assert_eq!(settings.capture_frame, Some(7));
        assert_eq!(settings.capture_key, None);
        assert_eq!(settings.trigger_file, None);
    }

    #[test]
    fn bad_lines_and_values_are_reported_and_skipped() {
        let file = "capture_frame = soon\nnot a setting\ncolour = 3\ndeflate_level = 12\ncapture_frames = 2\n";
        let (settings, problems) = Settings::load(Path::new("/g"), Some(file), no_env);
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].starts_with("iridia-recorder.toml line 1"));
        assert!(problems[2].contains("unknown setting \"colour\""));
        assert_eq!(settings.capture_frame, None);
        assert_eq!(settings.deflate_level, 1);
        assert_eq!(settings.capture_frames, 2);
    }

    #[test]
    fn keys_name_letters_function_keys_and_codes() {
        assert_eq!(parse_key(&Value::Text("p".into())), Ok(Some(u32::from(b'P'))));
        assert_eq!(parse_key(&Value::Text("F24".into())), Ok(Some(0x87)));
        assert_eq!(parse_key(&Value::Integer(0x2c)), Ok(Some(0x2c)));
        assert!(parse_key(&Value::Text("F25".into())).is_err());
    }
}
