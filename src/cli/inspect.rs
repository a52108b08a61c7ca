//! `iridia inspect CAPTURE --draw N --pixel X,Y [--target rt0|depth] [--sample S] [--exact | --tolerance SPEC]
//! [--trace-vertex F,C] [--json]`: one pixel's recorded and replayed values (of sample S of a multisampled target),
//! its history (fragments, tests, the triangle's vertices, interpolated inputs, the pixel program's trace with its
//! listing; per sample, what the output merger did) and the verdict; readable text, or the whole structure as JSON.
//! Exit code 0 when the pixel matches (or nothing was recorded), 1 when it differs, 2 on an error.
//!
//! `iridia inspect CAPTURE --dispatch N [--uav SLOT] --element X[,Y[,Z]]|counter [--exact | --tolerance SPEC] [--json]`:
//! one element (or the hidden counter) of a dispatch's view ([`iridia::inspect::dispatch`]): its value before, recorded and replayed, every write
//! that reached it in the replay (thread, instruction, operation, value before and after), the first 16 writers'
//! traces, and whether its value depends on the threads' order. Exit codes as for a pixel.

use super::common::{open, print_json_or_text, tolerance_of};
use iridia::capture::TargetSlot;
use iridia::dispatch::DispatchOptions;
use iridia::draw::ShaderCache;
use iridia::inspect::{ElementAddress, InspectOptions, Verdict, inspect_dispatch_element, inspect_pixel};
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
    /// `--trace-vertex F,C`.
    pub trace_vertex: Option<String>,
    /// `--sample S`.
    pub sample: u32,
    /// `--json`.
    pub json: bool,
    /// `--max-memory`, `--max-work`.
    pub limits: super::common::Limits,
    /// `--profile`, `--variants`.
    pub implementation: super::common::Implementation,
}

/// `A,B` as two whole numbers; errors name `option`.
fn parse_pair<T: std::str::FromStr>(text: &str, option: &str, example: &str) -> Result<(T, T), String> {
    let bad = || format!("{option}: '{text}' is not two whole numbers separated by a comma (e.g. {example})");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ))
}

/// Runs `iridia inspect`; `Ok(true)` when the pixel matches.
pub fn inspect(args: &InspectArgs) -> Result<bool, String> {
    let (x, y) = parse_pair::<u32>(&args.pixel, "--pixel X,Y", "12,40")?;
    let trace_vertex = match &args.trace_vertex {
        Some(text) => {
            let (fragment, corner) = parse_pair::<usize>(text, "--trace-vertex F,C", "0,2")?;
            if corner > 2 {
                return Err(format!("--trace-vertex: corner {corner} is not 0, 1 or 2"));
            }
            Some((fragment, corner))
        }
        None => None,
    };
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
    let mut replay = ReplayOptions {
        tolerance,
        ..ReplayOptions::default()
    };
    args.limits.apply(&mut capture, &mut replay);
    replay.draw.variants = args.implementation.variants()?;
    let options = InspectOptions {
        replay,
        trace_vertex,
        sample: args.sample,
        ..InspectOptions::default()
    };
    let inspection = inspect_pixel(&mut capture, args.draw, x, y, target, &mut ShaderCache::new(), &options)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    print_json_or_text(args.json, &inspection, || inspection.to_text())?;
    Ok(matches!(
        inspection.verdict,
        Verdict::Matches | Verdict::WithinTolerance { .. } | Verdict::Shifted | Verdict::NotRecorded
    ))
}

/// What `iridia inspect --dispatch` was asked.
pub struct ElementArgs {
    /// The capture.
    pub capture: PathBuf,
    /// The dispatch.
    pub dispatch: usize,
    /// The view's slot.
    pub uav: u32,
    /// `X[,Y[,Z]]`.
    pub element: String,
    /// `--exact`.
    pub exact: bool,
    /// `--tolerance SPEC`.
    pub tolerance: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--max-memory`, `--max-work`.
    pub limits: super::common::Limits,
}

/// `X[,Y[,Z]]` as up to three whole numbers, the missing ones 0; `counter` for the view's hidden counter.
fn parse_element(text: &str) -> Result<ElementAddress, String> {
    if text.trim() == "counter" {
        return Ok(ElementAddress::Counter);
    }
    let bad = || {
        format!("--element: '{text}' is not one to three whole numbers separated by commas (e.g. 3,1), nor 'counter'")
    };
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(bad());
    }
    let mut address = [0u32; 3];
    for (slot, part) in address.iter_mut().zip(&parts) {
        *slot = part.trim().parse().map_err(|_| bad())?;
    }
    Ok(ElementAddress::At(address))
}

/// Runs `iridia inspect --dispatch`; `Ok(true)` when the element matches (or nothing was recorded).
pub fn inspect_element(args: &ElementArgs) -> Result<bool, String> {
    let address = parse_element(&args.element)?;
    let (tolerance, _) = tolerance_of(args.exact, args.tolerance.as_deref())?;
    let path = &args.capture;
    let mut capture = open(path)?;
    let mut replay = ReplayOptions::default();
    args.limits.apply(&mut capture, &mut replay);
    let options = DispatchOptions {
        work_limit: replay.draw.work_limit,
        unbound: replay.draw.unbound,
    };
    let inspection = inspect_dispatch_element(&mut capture, args.dispatch, args.uav, address, &tolerance, &options)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    print_json_or_text(args.json, &inspection, || inspection.to_text())?;
    Ok(inspection.matches != Some(false))
}
