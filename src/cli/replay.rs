//! `iridia replay CAPTURE [--draw N | --all] [--exact | --tolerance SPEC] [--json] [--out DIR] [--flip]`: re-runs
//! recorded draws and compares each target with what the GPU wrote; a table (or a JSON report) of compared, differing
//! and ambiguous pixels and the largest error per draw; with `--out`, each draw's pictures and replayed texels.
//! Without `--draw`, the capture's resolves (`ResolveSubresource`, format 1.2) are replayed too, each listed before
//! the draw it precedes (`r0  resolve before draw 12`; in JSON the `resolves` list, in the frame's order; with `--out`
//! its replayed destination as `resolveN.bin`), and count like draws: a differing resolve is a difference. Exit
//! Dispatches (format 1.3) likewise: each replayed from its recorded views and listed where it came
//! (`d0  dispatch 0: ...  u0,u1`; in JSON the `dispatches` list; with `--out` each view's replayed window as
//! `dispatchN.uM.bin`), typed views compared texel by texel under the tolerance, raw and structured views word by word,
//! counters exactly; a differing dispatch is a difference. A draw's pixel-stage views and stream-output buffers
//! (format 1.4) are compared the same way (stream-output buffers word by word, exactly) and count in its result: the
//! table lists them after its targets (`rt0,u1,so0`) with the first differing word in the error column, the JSON
//! gives each draw's `uavs` and `stream_output` reports, and `--out` writes `drawN.uM.bin` and `drawN.soM.bin`. Exit
//! code 0 when every compared draw, resolve and dispatch matches, 1 when some differ, 2 on an error (a draw that cannot be read or run is
//! reported and the others still run), 3 when the comparison is incomplete: the capture lists draws its writer could
//! not record, or nothing was compared (a CI job must not read either as a pass), unless `--allow-unrecorded`.
//!
//! `--flip` also scores how visible each compared render target's difference is: the LDR-FLIP error
//! ([`iridia::compare::flip`], 0 invisible to 1) of the replayed picture against the recorded one, both as `--out`
//! draws them. The JSON's targets then carry `"perceptual": {"mean", "p50", "p95", "p99", "max"}` (`null` without
//! `--flip`, for a depth-stencil target, when nothing was recorded or when the target is past FLIP's size limits)
//! and `--out` writes the error map as `drawN.rtM.flip.png` (magma: near-black where nothing shows, pale yellow
//! where most does). The table and the exit code are the same with or without it.

use super::common::{open, print_out, tolerance_of, unrecorded_line};
use iridia::capture::{Capture, FrameEvent};
use iridia::compare::TargetReport;
use iridia::dispatch::DispatchOptions;
use iridia::draw::ShaderCache;
use iridia::replay::{
    DispatchReplay, DrawReplay, Picture, ReplayOptions, ResolveReplay, TargetReplay, UavReport, replay_dispatch,
    replay_draw, replay_resolve,
};
use serde_json::{Value, json};
use std::io::{IsTerminal as _, Read, Seek};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// What `iridia replay` was asked.
pub struct ReplayArgs {
    /// The capture.
    pub capture: PathBuf,
    /// One draw, or all of them when `None`.
    pub draw: Option<usize>,
    /// `--exact`.
    pub exact: bool,
    /// `--tolerance SPEC`.
    pub tolerance: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--out DIR`.
    pub out: Option<PathBuf>,
    /// `--flip`: the perceptual error of each compared render target ([`ReplayOptions::perceptual`]).
    pub flip: bool,
    /// `--allow-unrecorded`: unrecorded draws and an empty comparison are not an incomplete result.
    pub allow_unrecorded: bool,
    /// `--time-limit SECONDS`: how long one draw may run (`None`: no limit).
    pub time_limit: Option<std::time::Duration>,
    /// `--max-memory`, `--max-work`.
    pub limits: super::common::Limits,
    /// `--profile`, `--variants`.
    pub implementation: super::common::Implementation,
}

/// How a run of `iridia replay` ended, for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every compared draw matches.
    Matches,
    /// Some compared draw differs.
    Differs,
    /// Some draw could not be replayed.
    Failed,
    /// The capture lists draws that were not recorded, or no draw was compared.
    Incomplete,
}

/// The largest error of a replay, as `rt0.G 3 ULP (0.0118)`, over the channels of its compared targets; `-` when
/// every compared channel is exact, or nothing was compared.
fn max_error(replay: &DrawReplay) -> String {
    largest_error(
        replay
            .targets
            .iter()
            .filter_map(|t| Some((t.slot.to_string(), t.report.as_ref()?))),
    )
}

/// The largest error over `reports` (each with its target's name), as [`max_error`] gives it.
fn largest_error<'a>(reports: impl Iterator<Item = (String, &'a TargetReport)>) -> String {
    let mut best: Option<(u64, f64, String)> = None;
    for (target, report) in reports {
        for channel in &report.channels {
            let ulps = channel.max_ulp_error;
            if ulps > 0 && best.as_ref().is_none_or(|(u, _, _)| ulps > *u) {
                best = Some((ulps, channel.max_abs_error, format!("{target}.{}", channel.channel)));
            }
            if channel.non_finite_mismatches > 0 {
                best = Some((u64::MAX, f64::INFINITY, format!("{target}.{}", channel.channel)));
            }
        }
    }
    match best {
        None => "-".to_owned(),
        Some((u64::MAX, _, name)) => format!("{name} NaN/inf"),
        Some((ulps, abs, name)) => format!("{name} {ulps} ULP ({abs:.3e})"),
    }
}

/// Pixel counts of a replay over its compared targets: (compared, differing, ambiguous).
fn totals(replay: &DrawReplay) -> (u64, u64, u64) {
    replay
        .targets
        .iter()
        .filter_map(|t| t.report.as_ref())
        .fold((0, 0, 0), |(c, d, a), r| {
            (
                c.saturating_add(r.compared_pixels),
                d.saturating_add(r.differing_pixels),
                a.saturating_add(r.ambiguous_pixels),
            )
        })
}

/// The JSON of one replayed draw: the library's report with the draw's totals and result.
fn draw_json(replay: &DrawReplay) -> Result<Value, String> {
    let mut value = serde_json::to_value(replay).map_err(|e| format!("cannot write JSON: {e}"))?;
    let (compared, differing, ambiguous) = totals(replay);
    if let Some(object) = value.as_object_mut() {
        object.insert("compared".to_owned(), json!(replay.compared()));
        object.insert("matches".to_owned(), json!(replay.matches()));
        object.insert("compared_pixels".to_owned(), json!(compared));
        object.insert("differing_pixels".to_owned(), json!(differing));
        object.insert("ambiguous_pixels".to_owned(), json!(ambiguous));
    }
    Ok(value)
}

/// The JSON of one replayed resolve: the library's report with its totals and result.
fn resolve_json(replay: &ResolveReplay) -> Result<Value, String> {
    let mut value = serde_json::to_value(replay).map_err(|e| format!("cannot write JSON: {e}"))?;
    if let Some(object) = value.as_object_mut() {
        let report = replay.report.as_ref();
        object.insert("compared".to_owned(), json!(report.is_some()));
        object.insert("matches".to_owned(), json!(replay.matches() != Some(false)));
        object.insert(
            "compared_pixels".to_owned(),
            json!(report.map_or(0, |r| r.compared_pixels)),
        );
        object.insert(
            "differing_pixels".to_owned(),
            json!(report.map_or(0, |r| r.differing_pixels)),
        );
    }
    Ok(value)
}

/// One row of the table for a resolve: `r0  resolve before draw 12  dst ...`, in the draws' columns.
fn resolve_row(replay: &ResolveReplay) -> String {
    let report = replay.report.as_ref();
    let result = match replay.matches() {
        None => "not recorded",
        Some(true) => "matches",
        Some(false) => "DIFFERS",
    };
    let name = format!("resolve before draw {}", replay.before_draw);
    format!(
        "{:>4}  {name:<24}  {:<13} {:>9}  {:>9}  {:>9}  {:<32}  {result}",
        format!("r{}", replay.index),
        "dst",
        report.map_or(0, |r| r.compared_pixels),
        report.map_or(0, |r| r.differing_pixels),
        0,
        largest_error(report.map(|r| ("dst".to_owned(), r)).into_iter()),
    )
}

/// The JSON of one replayed dispatch: the library's report with its totals and result.
fn dispatch_json(replay: &DispatchReplay) -> Result<Value, String> {
    let mut value = serde_json::to_value(replay).map_err(|e| format!("cannot write JSON: {e}"))?;
    let (compared, differing) = dispatch_totals(replay);
    if let Some(object) = value.as_object_mut() {
        object.insert("compared".to_owned(), json!(replay.compared()));
        object.insert("matches".to_owned(), json!(replay.matches()));
        object.insert("compared_elements".to_owned(), json!(compared));
        object.insert("differing_elements".to_owned(), json!(differing));
    }
    Ok(value)
}

/// Elements and texels of a dispatch's compared views: (compared, differing).
fn dispatch_totals(replay: &DispatchReplay) -> (u64, u64) {
    replay
        .uavs
        .iter()
        .filter_map(|u| u.report.as_ref())
        .fold((0, 0), |(c, d), r| {
            (c.saturating_add(r.compared), d.saturating_add(r.differing))
        })
}

/// What differs first in a dispatch: `u0[5].w1 0x7 != 0x9`, `u1 counter 13 != 12`, a typed view's largest error.
fn dispatch_error(replay: &DispatchReplay) -> String {
    first_view_difference(replay.uavs.iter().map(|u| (u.name(), u.report.as_ref()))).unwrap_or_else(|| {
        largest_error(
            replay
                .uavs
                .iter()
                .filter_map(|u| Some((u.name(), u.report.as_ref()?.texels.as_ref()?))),
        )
    })
}

/// The first word or counter that differs over views' or buffers' reports (each with its name), as
/// `u0[5].w1 0x7 != 0x9` or `u1 counter 13 != 12`.
fn first_view_difference<'a>(reports: impl Iterator<Item = (String, Option<&'a UavReport>)>) -> Option<String> {
    for (name, report) in reports {
        let Some(report) = report else { continue };
        if let Some(first) = report.first_word_differences.first() {
            return Some(format!(
                "{name}[{}].w{} {:#x} != {:#x}",
                first.element, first.word, first.replayed, first.recorded
            ));
        }
        if let Some(counter) = report.counter.filter(|c| !c.matches) {
            return Some(format!("{name} counter {} != {}", counter.replayed, counter.recorded));
        }
    }
    None
}

/// One row of the table for a dispatch: `d0  dispatch 0: blur  u0,u1  ...`, in the draws' columns (elements or
/// texels where a draw has pixels).
fn dispatch_row(replay: &DispatchReplay) -> String {
    let (compared, differing) = dispatch_totals(replay);
    let result = if !replay.compared() {
        "not recorded"
    } else if replay.matches() {
        "matches"
    } else {
        "DIFFERS"
    };
    let mut name = format!("dispatch {}: {}", replay.index, replay.label);
    if name.chars().count() > 24 {
        name = name.chars().take(23).collect::<String>() + "…";
    }
    let uavs: Vec<String> = replay.uavs.iter().map(|u| u.name()).collect();
    format!(
        "{:>4}  {name:<24}  {:<13} {compared:>9}  {differing:>9}  {:>9}  {:<32}  {result}",
        format!("d{}", replay.index),
        uavs.join(","),
        0,
        dispatch_error(replay),
    )
}

/// How the replayed dispatches came out.
#[derive(Default)]
struct DispatchCounts {
    /// Compared with a recorded view.
    compared: usize,
    /// Compared and matching.
    matching: usize,
    /// Compared and differing.
    differing: usize,
    /// Nothing recorded after: replayed only.
    uncompared: usize,
    /// Could not be read or run.
    failed: usize,
}

impl DispatchCounts {
    /// Counts a replayed dispatch.
    fn count(&mut self, replay: &DispatchReplay) {
        let place = if !replay.compared() {
            &mut self.uncompared
        } else if replay.matches() {
            &mut self.matching
        } else {
            &mut self.differing
        };
        *place = place.saturating_add(1);
        if replay.compared() {
            self.compared = self.compared.saturating_add(1);
        }
    }

    /// Every dispatch met.
    fn total(&self) -> usize {
        self.compared
            .saturating_add(self.uncompared)
            .saturating_add(self.failed)
    }
}

/// Writes one file under `dir`.
fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Writes a target's replayed texels (`drawN.rtM.bin`, `drawN.depth.bin`, as `iridia draw` lays them out) and its
/// pictures (`.replayed.png`, `.recorded.png`, `.diff.png`, `.heatmap.png`, and with `--flip` `.flip.png`).
fn write_target(dir: &Path, index: usize, target: &TargetReplay) -> Result<(), String> {
    let stem = format!("draw{index}.{}", target.slot);
    write_file(dir, &format!("{stem}.bin"), &target.replayed)?;
    for (picture, suffix) in [
        (Picture::Replayed, "replayed"),
        (Picture::Recorded, "recorded"),
        (Picture::Difference, "diff"),
        (Picture::Heatmap, "heatmap"),
        (Picture::Perceptual, "flip"),
    ] {
        let png = target
            .png(picture)
            .map_err(|e| format!("draw {index} {}: {e}", target.slot))?;
        if let Some(png) = png {
            write_file(dir, &format!("{stem}.{suffix}.png"), &png)?;
        }
    }
    Ok(())
}

/// The table's header.
const HEADER: &str = "draw  name                      targets        compared  differing  ambiguous  max error                         result";

/// One row of the table: the targets' pixels, then a draw's views and stream-output buffers by name (`u1`, `so0`),
/// the first difference among them shown before the targets' largest error.
fn row(replay: &DrawReplay) -> String {
    let (compared, differing, ambiguous) = totals(replay);
    let targets: Vec<String> = replay
        .targets
        .iter()
        .map(|t| t.slot.to_string())
        .chain(replay.uavs.iter().map(|u| u.name()))
        .chain(replay.stream_output.iter().map(|s| s.name()))
        .collect();
    let view_difference = first_view_difference(
        replay
            .uavs
            .iter()
            .map(|u| (u.name(), u.report.as_ref()))
            .chain(replay.stream_output.iter().map(|s| (s.name(), s.report.as_ref()))),
    );
    let result = if !replay.compared() {
        "not recorded"
    } else if replay.matches() {
        "matches"
    } else {
        "DIFFERS"
    };
    let mut name = replay.label.clone();
    if name.chars().count() > 24 {
        name = name.chars().take(23).collect::<String>() + "…";
    }
    format!(
        "{:>4}  {name:<24}  {:<13} {compared:>9}  {differing:>9}  {ambiguous:>9}  {:<32}  {result}",
        replay.index,
        targets.join(","),
        view_difference.unwrap_or_else(|| max_error(replay))
    )
}

/// A progress bar on stderr when it is a terminal, else one that draws nothing.
fn progress_bar(draws: usize) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(draws as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] draw {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Replays draw `index`, updating `bar` as its triangles are done.
fn replay_one<R: Read + Seek>(
    capture: &mut Capture<R>,
    index: usize,
    cache: &mut ShaderCache,
    options: &ReplayOptions,
    bar: &indicatif::ProgressBar,
    time_limit: Option<std::time::Duration>,
) -> Result<DrawReplay, String> {
    let started = std::time::Instant::now();
    let mut timed_out = false;
    let mut report = |p: &iridia::draw::Progress| {
        if time_limit.is_some_and(|limit| started.elapsed() > limit) {
            timed_out = true;
            return ControlFlow::Break(());
        }
        let rows = if p.primitive_rows > 0 {
            format!(
                " (rows {}/{} of the one under way)",
                p.primitive_rows_done, p.primitive_rows
            )
        } else {
            String::new()
        };
        bar.set_message(format!("triangles {}/{}{rows}", p.primitives_done, p.primitives_total));
        ControlFlow::Continue(())
    };
    let result = replay_draw(capture, index, cache, options, Some(&mut report));
    result.map_err(|e| match time_limit {
        Some(limit) if timed_out => format!(
            "draw {index} ran longer than the time limit of {} s and was stopped (--time-limit)",
            limit.as_secs_f64()
        ),
        _ => e.to_string(),
    })
}

/// How the replayed resolves came out.
#[derive(Default)]
struct ResolveCounts {
    /// Compared with a recorded destination.
    compared: usize,
    /// Compared and matching.
    matching: usize,
    /// Compared and differing.
    differing: usize,
    /// Not recorded after: replayed only.
    uncompared: usize,
    /// Could not be read or resolved.
    failed: usize,
}

impl ResolveCounts {
    /// Counts a replayed resolve.
    fn count(&mut self, replay: &ResolveReplay) {
        let place = match replay.matches() {
            None => &mut self.uncompared,
            Some(true) => &mut self.matching,
            Some(false) => &mut self.differing,
        };
        *place = place.saturating_add(1);
        if replay.matches().is_some() {
            self.compared = self.compared.saturating_add(1);
        }
    }

    /// Every resolve met.
    fn total(&self) -> usize {
        self.compared
            .saturating_add(self.uncompared)
            .saturating_add(self.failed)
    }
}

/// Runs `iridia replay`.
pub fn replay(args: &ReplayArgs) -> Result<Verdict, String> {
    let (tolerance, tolerance_name) = tolerance_of(args.exact, args.tolerance.as_deref())?;
    let mut options = ReplayOptions {
        tolerance,
        perceptual: args.flip,
        ..ReplayOptions::default()
    };
    options.draw.variants = args.implementation.variants()?;
    let variants = options.draw.variants;
    let path = &args.capture;
    let mut capture = open(path)?;
    args.limits.apply(&mut capture, &mut options);
    let count = capture.draw_count();
    let unrecorded = capture.unrecorded_draws().to_vec();
    let indices: Vec<usize> = match args.draw {
        Some(index) if index >= count => {
            return Err(format!(
                "{}: there is no draw {index}; the capture has {count} (0 to {})",
                path.display(),
                count.saturating_sub(1)
            ));
        }
        Some(index) => vec![index],
        None => (0..count).collect(),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let mut cache = ShaderCache::new();
    let bar = progress_bar(indices.len());
    let mut draws_json = Vec::new();
    let mut resolves_json = Vec::new();
    let mut rows = Vec::new();
    let (mut compared, mut matching, mut differing, mut failed) = (0usize, 0usize, 0usize, 0usize);
    let mut resolved = ResolveCounts::default();
    let mut dispatched = DispatchCounts::default();
    let mut dispatches_json = Vec::new();
    // the draws, and without --draw the resolves and dispatches among them, in the frame's order
    let events: Vec<FrameEvent> = if args.draw.is_none() {
        capture.events()
    } else {
        indices.iter().map(|&index| FrameEvent::Draw(index)).collect()
    };
    let dispatch_options = DispatchOptions {
        work_limit: options.draw.work_limit,
        unbound: options.draw.unbound,
    };
    for event in events {
        let index = match event {
            FrameEvent::Draw(index) => index,
            FrameEvent::Resolve(index) => {
                let outcome = capture
                    .resolve(index)
                    .and_then(|resolve| replay_resolve(&resolve, &options.tolerance))
                    .map_err(|e| format!("{}: {e}", path.display()));
                match outcome {
                    Ok(replay) => {
                        resolved.count(&replay);
                        if let Some(dir) = &args.out {
                            write_file(dir, &format!("resolve{index}.bin"), &replay.replayed)?;
                        }
                        if args.json {
                            resolves_json.push(resolve_json(&replay)?);
                        } else {
                            rows.push(resolve_row(&replay));
                        }
                    }
                    Err(message) => {
                        resolved.failed = resolved.failed.saturating_add(1);
                        bar.suspend(|| eprintln!("iridia: {message}"));
                        if args.json {
                            resolves_json.push(json!({"index": index, "error": message}));
                        } else {
                            rows.push(format!("{:>4}  error: {message}", format!("r{index}")));
                        }
                    }
                }
                continue;
            }
            FrameEvent::Dispatch(index) => {
                let outcome = capture
                    .dispatch(index)
                    .and_then(|dispatch| replay_dispatch(&dispatch, &options.tolerance, &dispatch_options))
                    .map_err(|e| format!("{}: {e}", path.display()));
                match outcome {
                    Ok(replay) => {
                        dispatched.count(&replay);
                        if let Some(dir) = &args.out {
                            for uav in &replay.uavs {
                                write_file(dir, &format!("dispatch{index}.{}.bin", uav.name()), &uav.replayed)?;
                            }
                        }
                        if args.json {
                            dispatches_json.push(dispatch_json(&replay)?);
                        } else {
                            rows.push(dispatch_row(&replay));
                        }
                    }
                    Err(message) => {
                        dispatched.failed = dispatched.failed.saturating_add(1);
                        bar.suspend(|| eprintln!("iridia: {message}"));
                        if args.json {
                            dispatches_json.push(json!({"index": index, "error": message}));
                        } else {
                            rows.push(format!("{:>4}  error: {message}", format!("d{index}")));
                        }
                    }
                }
                continue;
            }
        };
        match replay_one(&mut capture, index, &mut cache, &options, &bar, args.time_limit) {
            Ok(replay) => {
                if replay.compared() {
                    compared = compared.saturating_add(1);
                    if replay.matches() {
                        matching = matching.saturating_add(1);
                    } else {
                        differing = differing.saturating_add(1);
                    }
                }
                if let Some(dir) = &args.out {
                    for target in &replay.targets {
                        write_target(dir, index, target)?;
                    }
                    for uav in &replay.uavs {
                        write_file(dir, &format!("draw{index}.{}.bin", uav.name()), &uav.replayed)?;
                    }
                    for buffer in &replay.stream_output {
                        write_file(dir, &format!("draw{index}.{}.bin", buffer.name()), &buffer.replayed)?;
                    }
                }
                if args.json {
                    draws_json.push(draw_json(&replay)?);
                } else {
                    rows.push(row(&replay));
                }
            }
            Err(message) => {
                failed = failed.saturating_add(1);
                let message = format!("{}: {message}", path.display());
                bar.suspend(|| eprintln!("iridia: {message}"));
                if args.json {
                    draws_json.push(json!({"index": index, "error": message}));
                } else {
                    rows.push(format!("{index:>4}  error: {message}"));
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let others_compared = compared
        .saturating_add(resolved.compared)
        .saturating_add(dispatched.compared);
    if args.json {
        let unrecorded_json: Vec<Value> = unrecorded
            .iter()
            .map(|u| {
                json!({
                    "before_draw": u.before_draw,
                    "name": u.name,
                    "api_call": u.api_call,
                    "reason": u.reason,
                })
            })
            .collect();
        let report = json!({
            "capture": path.display().to_string(),
            "tolerance": tolerance_name,
            "variants": variants.iter().map(|v| v.name()).collect::<Vec<_>>(),
            "draws": draws_json,
            "resolves": resolves_json,
            "dispatches": dispatches_json,
            "unrecorded_draws": unrecorded_json,
            "summary": {
                "draws": indices.len(),
                "compared": compared,
                "matching": matching,
                "differing": differing,
                "errors": failed.saturating_add(resolved.failed).saturating_add(dispatched.failed),
                "unrecorded": unrecorded.len(),
                "resolves": resolved.total(),
                "resolves_compared": resolved.compared,
                "resolves_matching": resolved.matching,
                "resolves_differing": resolved.differing,
                "dispatches": dispatched.total(),
                "dispatches_compared": dispatched.compared,
                "dispatches_matching": dispatched.matching,
                "dispatches_differing": dispatched.differing,
            },
        });
        let text = serde_json::to_string_pretty(&report).map_err(|e| format!("cannot write JSON: {e}"))?;
        print_out(&format!("{text}\n"))?;
    } else {
        let under = if variants.is_empty() {
            String::new()
        } else {
            format!(", variants: {}", variants.names())
        };
        let mut text = format!(
            "{}: {} of {count} draws, tolerance: {tolerance_name}{under}\n{HEADER}\n",
            path.display(),
            indices.len()
        );
        for line in &rows {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str(&format!("{compared} compared: {matching} match, {differing} differ"));
        if failed > 0 {
            text.push_str(&format!(", {failed} failed"));
        }
        if resolved.total() > 0 {
            text.push_str(&format!(
                "; {} resolves, {} compared: {} match, {} differ",
                resolved.total(),
                resolved.compared,
                resolved.matching,
                resolved.differing
            ));
            if resolved.failed > 0 {
                text.push_str(&format!(", {} failed", resolved.failed));
            }
        }
        if dispatched.total() > 0 {
            text.push_str(&format!(
                "; {} dispatches, {} compared: {} match, {} differ",
                dispatched.total(),
                dispatched.compared,
                dispatched.matching,
                dispatched.differing
            ));
            if dispatched.failed > 0 {
                text.push_str(&format!(", {} failed", dispatched.failed));
            }
        }
        text.push('\n');
        for draw in &unrecorded {
            text.push_str(&format!("not recorded: {}\n", unrecorded_line(draw)));
        }
        if !unrecorded.is_empty() {
            text.push_str(&format!(
                "{} draws of the frame were not recorded{}\n",
                unrecorded.len(),
                if args.allow_unrecorded {
                    " (allowed)"
                } else {
                    ": exit 3 (--allow-unrecorded to accept)"
                }
            ));
        }
        if others_compared == 0 && failed == 0 && !args.allow_unrecorded {
            text.push_str("nothing was compared: exit 3 (--allow-unrecorded to accept)\n");
        }
        print_out(&text)?;
    }
    let incomplete = !args.allow_unrecorded && (!unrecorded.is_empty() || others_compared == 0);
    Ok(if failed > 0 || resolved.failed > 0 || dispatched.failed > 0 {
        Verdict::Failed
    } else if incomplete {
        Verdict::Incomplete
    } else if differing > 0 || resolved.differing > 0 || dispatched.differing > 0 {
        Verdict::Differs
    } else {
        Verdict::Matches
    })
}
