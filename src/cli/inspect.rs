//! `iridia inspect CAPTURE --draw N --pixel X,Y [--target rt0|depth] [--exact | --tolerance SPEC] [--json]`: one
//! pixel's recorded and replayed values, its history (fragments, tests, the triangle's vertices, interpolated inputs,
//! the pixel program's trace with its listing) and the verdict; readable text, or the whole structure as JSON. Exit
//! code 0 when the pixel matches (or nothing was recorded), 1 when it differs, 2 on an error.

use super::replay::{open, tolerance_of};
use iridia::capture::TargetSlot;
use iridia::draw::ShaderCache;
use iridia::inspect::{InspectOptions, Verdict, inspect_pixel};
use iridia::replay::{ReplayOptions, parse_target};
use std::path::PathBuf;

/// What `iridia inspect` was asked.
pub struct InspectArgs {
    /// The capture.
    pub capture: PathBuf,
    /// The draw.
    pub draw: usize,
    /// `X,Y`.
    pub pixel: String,
    /// `rt0`..`rt7` or `depth`; by default render target 0, or the draw's first target.
    pub target: Option<String>,
    /// `--exact`.
    pub exact: bool,
    /// `--tolerance SPEC`.
    pub tolerance: Option<String>,
    /// `--json`.
    pub json: bool,
}

/// `X,Y` as two numbers.
fn parse_pixel(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--pixel: '{text}' is not X,Y (two whole numbers, e.g. 12,40)");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

/// Runs `iridia inspect`; `Ok(true)` when the pixel matches.
pub fn inspect(args: &InspectArgs) -> Result<bool, String> {
    let (x, y) = parse_pixel(&args.pixel)?;
    let (tolerance, _) = tolerance_of(args.exact, args.tolerance.as_deref())?;
    let path = &args.capture;
    let mut capture = open(path)?;
    let target = match &args.target {
        Some(name) => parse_target(name).map_err(|e| format!("--target: {e}"))?,
        None => {
            let summary = capture.draw_summary(args.draw).ok_or_else(|| {
                format!(
                    "{}: there is no draw {}; the capture has {}",
                    path.display(),
                    args.draw,
                    capture.draw_count()
                )
            })?;
            let targets: Vec<TargetSlot> = summary.targets.iter().map(|t| t.target).collect();
            if targets.contains(&TargetSlot::RenderTarget(0)) {
                TargetSlot::RenderTarget(0)
            } else {
                targets.first().copied().unwrap_or(TargetSlot::RenderTarget(0))
            }
        }
    };
    let options = InspectOptions {
        replay: ReplayOptions {
            tolerance,
            ..ReplayOptions::default()
        },
        ..InspectOptions::default()
    };
    let inspection = inspect_pixel(&mut capture, args.draw, x, y, target, &mut ShaderCache::new(), &options)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if args.json {
        let text = serde_json::to_string_pretty(&inspection).map_err(|e| format!("cannot write JSON: {e}"))?;
        super::print_out(&format!("{text}\n"))?;
    } else {
        super::print_out(&inspection.to_text())?;
    }
    Ok(matches!(
        inspection.verdict,
        Verdict::Matches | Verdict::WithinTolerance { .. } | Verdict::Shifted | Verdict::NotRecorded
    ))
}
