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

/// Opens the capture at `path`.
pub(super) fn open(path: &Path) -> Result<Capture<BufReader<File>>, String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Capture::from_reader(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))
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
