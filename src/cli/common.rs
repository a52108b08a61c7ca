//! What the subcommands share: opening a capture, the tolerance options, writing to standard output.

use iridia::capture::Capture;
use iridia::compare::ToleranceSpec;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// The tolerance the options give, and how to name it.
pub(super) fn tolerance_of(exact: bool, tolerance: Option<&str>) -> Result<(ToleranceSpec, String), String> {
    match (exact, tolerance) {
        (true, _) => Ok((ToleranceSpec::exact(), "exact".to_owned())),
        (false, Some(spec)) => Ok((
            ToleranceSpec::parse(spec).map_err(|e| format!("--tolerance: {e}"))?,
            spec.to_owned(),
        )),
        (false, None) => Ok((ToleranceSpec::default(), "format defaults".to_owned())),
    }
}

/// `--profile` and `--variants`: the implementation choices to replay under instead of the spec's rules
/// ([`iridia::draw::variants`]).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Implementation {
    /// Replay as a known implementation does: the variants of its profile (`llvmpipe`).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Replay under these variants, comma-separated (`unsnapped-interpolation`, `blend-8bit`, ...; `iridia explain`
    /// lists them), added to the profile's.
    #[arg(long, value_name = "LIST")]
    pub variants: Option<String>,
}

impl Implementation {
    /// The variants asked for (none by default).
    pub(super) fn variants(&self) -> Result<iridia::draw::Variants, String> {
        let mut set = iridia::draw::Variants::NONE;
        if let Some(name) = &self.profile {
            let profile = iridia::draw::Profile::named(name).ok_or_else(|| {
                let known: Vec<&str> = iridia::draw::PROFILES.iter().map(|p| p.name).collect();
                format!("--profile: there is no profile {name:?} (known: {})", known.join(", "))
            })?;
            set = iridia::draw::Variants::of(set.iter().chain(profile.variants.iter()));
        }
        if let Some(list) = &self.variants {
            let more = iridia::draw::Variants::parse(list).map_err(|e| format!("--variants: {}", e.detail))?;
            set = iridia::draw::Variants::of(set.iter().chain(more.iter()));
        }
        Ok(set)
    }
}

/// `--max-memory` and `--max-work`: the limits of one draw (the library's defaults when not given).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Limits {
    /// The most bytes one draw's blobs may inflate to, e.g. 512MiB or 8GiB (default 4GiB): a draw past it fails
    /// with an error naming the limit, and the other draws go on.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// The most work one draw may do, in units of one lane running one instruction (default 2^36, minutes of
    /// work): a draw past it fails with an error naming the limit, and the other draws go on.
    #[arg(long, value_name = "UNITS")]
    pub max_work: Option<u64>,
}

impl Limits {
    /// Sets the capture's and the replay's limits.
    pub(super) fn apply<R: std::io::Read + std::io::Seek>(
        &self,
        capture: &mut Capture<R>,
        options: &mut iridia::replay::ReplayOptions,
    ) {
        if let Some(bytes) = self.max_memory {
            capture.set_draw_memory_limit(bytes);
        }
        if let Some(units) = self.max_work {
            options.draw.work_limit = units;
        }
    }
}

/// A size in bytes: a whole number with an optional unit, B, KiB, MiB, GiB or TiB (or K, M, G, T, the same powers of
/// 1024), e.g. `512MiB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let digits = trimmed.find(|c: char| !c.is_ascii_digit()).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a size (a whole number with B, KiB, MiB, GiB or TiB)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        other => return Err(format!("'{other}' is not a size unit (B, KiB, MiB, GiB or TiB)")),
    };
    number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("'{text}' is more bytes than 2^64"))
}

/// Opens the capture at `path`.
pub(super) fn open(path: &Path) -> Result<Capture<BufReader<File>>, String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Capture::from_reader(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Prints a command's result: `value` as pretty JSON when `json` is set, else the text `text` makes.
pub(super) fn print_json_or_text(
    json: bool,
    value: &impl serde::Serialize,
    text: impl FnOnce() -> String,
) -> Result<(), String> {
    if json {
        let json = serde_json::to_string_pretty(value).map_err(|e| format!("cannot write JSON: {e}"))?;
        print_out(&format!("{json}\n"))
    } else {
        print_out(&text())
    }
}

/// Writes `text` to standard output; a closed pipe (`iridia replay ... | head`) or another write error is an error
/// message rather than a panic.
pub(super) fn print_out(text: &str) -> Result<(), String> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// An unrecorded draw in one line: where it came, its name or call, and why, e.g. `before draw 3: DrawIndexed(36, 0,
/// 0): a multisampled render target`.
pub fn unrecorded_line(draw: &iridia::capture::UnrecordedDrawEntry) -> String {
    format!("before draw {}: {}: {}", draw.before_draw, draw.label(), draw.reason)
}
