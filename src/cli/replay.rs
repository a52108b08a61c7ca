//! `iridia replay CAPTURE... [--draw N | --all] [--shard K/N] [--exact | --tolerance SPEC] [--json] [--junit FILE]
//! [--out DIR] [--flip] [--program STAGE=FILE]`: re-runs recorded draws and compares each target with what the GPU
//! wrote; a table (or a JSON report) of compared, differing and ambiguous pixels and the largest error per draw; with
//! `--out`, each draw's pictures and replayed texels. Several captures (files, or folders of them), a shard of the
//! work and the JUnit file are [`super::batch`]'s (docs/ci.md). `--program ps=FILE` replays draw N with a program
//! listing (as `iridia disasm CAPTURE --draw N --stage ps` prints it) in place of its own, reporting its difference
//! and the difference as recorded.
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

use super::batch::{self, Shard, Verdict};
use super::common::{open, print_json_or_text, tolerance_of, unrecorded_line};
use iridia::capture::{Capture, FrameEvent};
use iridia::compare::TargetReport;
use iridia::dispatch::DispatchOptions;
use iridia::draw::ShaderCache;
use iridia::replay::edit;
use iridia::replay::{
    DispatchReplay, DrawReplay, Picture, ReplayOptions, ResolveReplay, TargetReplay, UavReport, replay_captured,
    replay_dispatch, replay_draw, replay_resolve,
};
use serde_json::{Value, json};
use std::io::{IsTerminal as _, Read, Seek};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// What `iridia replay` was asked.
pub struct ReplayArgs {
    /// The captures: files, and folders of `.iridia` files.
    pub captures: Vec<PathBuf>,
    /// `--shard K/N`: this job's share of the (capture, event) pairs.
    pub shard: Option<Shard>,
    /// `--junit FILE`.
    pub junit: Option<PathBuf>,
    /// `--program STAGE=FILE`: programs replacing the draw's.
    pub programs: Vec<ProgramEdit>,
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

/// `--program STAGE=FILE`: a listing (or DXBC blob) to replay a draw's program stage with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramEdit {
    /// The stage.
    pub stage: edit::EditStage,
    /// The listing.
    pub file: PathBuf,
}

impl ProgramEdit {
    /// `STAGE=FILE`.
    pub fn parse(text: &str) -> Result<ProgramEdit, String> {
        let (stage, file) = text
            .split_once('=')
            .ok_or_else(|| format!("--program {text}: give STAGE=FILE, e.g. ps=edited.asm"))?;
        let stage = edit::EditStage::parse(stage)
            .ok_or_else(|| format!("--program {text}: the stage is vs, ps, gs, hs or ds"))?;
        Ok(ProgramEdit {
            stage,
            file: PathBuf::from(file),
        })
    }
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

/// Writes one file under `dir`, adding its path to `files`.
fn write_file(dir: &Path, name: &str, bytes: &[u8], files: &mut Vec<String>) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    files.push(path.display().to_string());
    Ok(())
}

/// Writes a target's replayed texels (`drawN.rtM.bin`, `drawN.depth.bin`, as `iridia draw` lays them out) and its
/// pictures (`.replayed.png`, `.recorded.png`, `.diff.png`, `.heatmap.png`, and with `--flip` `.flip.png`).
fn write_target(dir: &Path, index: usize, target: &TargetReplay, files: &mut Vec<String>) -> Result<(), String> {
    let stem = format!("draw{index}.{}", target.slot);
    write_file(dir, &format!("{stem}.bin"), &target.replayed, files)?;
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
            write_file(dir, &format!("{stem}.{suffix}.png"), &png, files)?;
        }
    }
    Ok(())
}

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

/// Replays draw `index` (with `args.programs` in place of its programs, and then also as recorded), updating
/// `bar` as its triangles are done, and writes its `--out` files into `out`; gives its JSON entry and table row.
#[allow(clippy::too_many_arguments)]
fn replay_one<R: Read + Seek>(
    capture: &mut Capture<R>,
    index: usize,
    cache: &mut ShaderCache,
    options: &ReplayOptions,
    bar: &indicatif::ProgressBar,
    args: &ReplayArgs,
    files: &mut Vec<String>,
    out: Option<&Path>,
) -> Result<(Value, String), String> {
    let started = std::time::Instant::now();
    let time_limit = args.time_limit;
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
    let (result, original) = if args.programs.is_empty() {
        (replay_draw(capture, index, cache, options, Some(&mut report)), None)
    } else {
        let mut draw = capture.draw(index).map_err(|e| e.to_string())?;
        let original = replay_captured(&draw, cache, options, None)
            .map_err(|e| format!("draw {index} with its recorded programs: {e}"))?;
        apply_edits(&mut draw, &args.programs)?;
        (
            replay_captured(&draw, cache, options, Some(&mut report)),
            Some(original),
        )
    };
    let replay = result.map_err(|e| match time_limit {
        Some(limit) if timed_out => format!(
            "draw {index} ran longer than the time limit of {} s and was stopped (--time-limit)",
            limit.as_secs_f64()
        ),
        _ => e.to_string(),
    })?;
    if let Some(dir) = out {
        for target in &replay.targets {
            write_target(dir, index, target, files)?;
        }
        for uav in &replay.uavs {
            write_file(dir, &format!("draw{index}.{}.bin", uav.name()), &uav.replayed, files)?;
        }
        for buffer in &replay.stream_output {
            write_file(
                dir,
                &format!("draw{index}.{}.bin", buffer.name()),
                &buffer.replayed,
                files,
            )?;
        }
    }
    let mut entry = draw_json(&replay)?;
    let mut row_text = row(&replay);
    if let Some(original) = original {
        let (compared, differing, _) = totals(&original);
        let edits: Vec<String> = args
            .programs
            .iter()
            .map(|e| format!("{}={}", e.stage.name(), e.file.display()))
            .collect();
        let changes = edit::edit_changes(&original, &replay);
        if let Some(object) = entry.as_object_mut() {
            object.insert("programs".to_owned(), json!(edits));
            object.insert("changed_by_edit".to_owned(), json!(changes));
            object.insert(
                "original".to_owned(),
                json!({"compared_pixels": compared, "differing_pixels": differing, "matches": original.matches()}),
            );
        }
        let changed: Vec<String> = changes
            .iter()
            .map(|c| format!("{} of {} texels of {}", c.changed_texels, c.texels, c.target))
            .collect();
        row_text.push_str(&format!(
            "\n      with {}: as recorded {differing} of {compared} pixels differ; the edit changed {}",
            edits.join(" "),
            if changed.is_empty() {
                "no target".to_owned()
            } else {
                changed.join(", ")
            }
        ));
    }
    Ok((entry, row_text))
}

/// What every capture of a run is replayed with.
struct Settings {
    /// The tolerance, the draw options and the rest.
    options: ReplayOptions,
    /// The tolerance as the options named it.
    tolerance_name: String,
    /// The implementation variants replayed under.
    variants: iridia::draw::Variants,
}

/// Runs `iridia replay`: every capture the arguments name (files, and the `.iridia` files under folders), each
/// draw, resolve and dispatch of the shard asked for; prints one capture's table or JSON as before, several
/// captures' (or a shard's) each in turn with a summary table (or one JSON report of them all), and writes the JUnit
/// file.
pub fn replay(args: &ReplayArgs) -> Result<Verdict, String> {
    let (tolerance, tolerance_name) = tolerance_of(args.exact, args.tolerance.as_deref())?;
    let mut options = ReplayOptions {
        tolerance,
        perceptual: args.flip,
        ..ReplayOptions::default()
    };
    options.draw.variants = args.implementation.variants()?;
    let settings = Settings {
        variants: options.draw.variants,
        options,
        tolerance_name,
    };
    let captures = batch::capture_files(&args.captures)?;
    let batched = captures.len() != 1 || args.shard.is_some();
    if batched && args.draw.is_some() {
        return Err("--draw picks a draw of one capture: give one capture and no --shard".to_owned());
    }
    if !args.programs.is_empty() && args.draw.is_none() {
        return Err("--program replaces a program of one draw: give --draw N".to_owned());
    }
    let out_dirs = batch::output_folders(args.out.as_deref(), &captures);
    let mut reports = Vec::new();
    for (path, out) in captures.iter().zip(&out_dirs) {
        reports.push(replay_capture(path, args, &settings, out.as_deref())?);
    }
    let report = if batched {
        batch::batch_report(reports, args.shard)
    } else {
        reports.pop().unwrap_or(Value::Null)
    };
    if let Some(file) = &args.junit {
        let xml = batch::junit(&report);
        std::fs::write(file, xml).map_err(|e| format!("{}: cannot write: {e}", file.display()))?;
    }
    print_json_or_text(args.json, &report, || {
        batch::report_text(&report, args.allow_unrecorded)
    })?;
    Ok(batch::verdict(&report, args.allow_unrecorded))
}

/// Puts the `--program` edits into `draw`'s state: each file a listing (as `iridia disasm` prints it) or a DXBC
/// blob ([`iridia::replay::edit`]).
fn apply_edits(draw: &mut iridia::capture::CapturedDraw, edits: &[ProgramEdit]) -> Result<(), String> {
    for edit in edits {
        let bytes = std::fs::read(&edit.file).map_err(|e| format!("{}: cannot read: {e}", edit.file.display()))?;
        let program = edit::program_from(&bytes).map_err(|e| format!("{}: {e}", edit.file.display()))?;
        edit::replace_program(draw, edit.stage, program)
            .map_err(|e| format!("--program {}: {e}", edit.stage.name()))?;
    }
    Ok(())
}

/// Replays one capture's draws, resolves and dispatches (those of `args.shard`, or draw `args.draw`) and gives its
/// report: the JSON `--json` prints for it, each entry with its place in the frame (`position`), its time
/// (`seconds`), its table row (`row`) and the files written for it (`files`), which is all the table, the JUnit file
/// and a merge need.
fn replay_capture(path: &Path, args: &ReplayArgs, settings: &Settings, out: Option<&Path>) -> Result<Value, String> {
    let mut options = settings.options.clone();
    let mut capture = open(path)?;
    args.limits.apply(&mut capture, &mut options);
    let count = capture.draw_count();
    let unrecorded = capture.unrecorded_draws().to_vec();
    if let Some(index) = args.draw
        && index >= count
    {
        return Err(format!(
            "{}: there is no draw {index}; the capture has {count} (0 to {})",
            path.display(),
            count.saturating_sub(1)
        ));
    }
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let shard_name = batch::shard_name(path);
    // each draw's marker path (the program's BeginEvent regions around it, version 1.5)
    let marker_paths = capture.outline().draw_paths(count);
    // the draws, and without --draw the resolves and dispatches among them, in the frame's order
    let events: Vec<(usize, FrameEvent)> = match args.draw {
        Some(index) => vec![(0, FrameEvent::Draw(index))],
        None => capture.events().into_iter().enumerate().collect(),
    };
    let events: Vec<(usize, FrameEvent)> = events
        .into_iter()
        .filter(|(_, event)| args.shard.is_none_or(|shard| shard.takes(&shard_name, *event)))
        .collect();
    let draw_events = events.iter().filter(|(_, e)| matches!(e, FrameEvent::Draw(_))).count();
    let mut cache = ShaderCache::new();
    let bar = progress_bar(draw_events);
    let mut draws_json = Vec::new();
    let mut resolves_json = Vec::new();
    let mut dispatches_json = Vec::new();
    let dispatch_options = DispatchOptions {
        work_limit: options.draw.work_limit,
        unbound: options.draw.unbound,
    };
    for (position, event) in events {
        let started = std::time::Instant::now();
        let mut files = Vec::new();
        let (mut entry, row_text, list) = match event {
            FrameEvent::Resolve(index) => {
                let outcome = capture
                    .resolve(index)
                    .and_then(|resolve| replay_resolve(&resolve, &options.tolerance))
                    .map_err(|e| format!("{}: {e}", path.display()));
                let (entry, row_text) = match outcome {
                    Ok(replay) => {
                        if let Some(dir) = out {
                            write_file(dir, &format!("resolve{index}.bin"), &replay.replayed, &mut files)?;
                        }
                        (resolve_json(&replay)?, resolve_row(&replay))
                    }
                    Err(message) => {
                        bar.suspend(|| eprintln!("iridia: {message}"));
                        let row_text = format!("{:>4}  error: {message}", format!("r{index}"));
                        (json!({"index": index, "error": message}), row_text)
                    }
                };
                (entry, row_text, &mut resolves_json)
            }
            FrameEvent::Dispatch(index) => {
                let outcome = capture
                    .dispatch(index)
                    .and_then(|dispatch| replay_dispatch(&dispatch, &options.tolerance, &dispatch_options))
                    .map_err(|e| format!("{}: {e}", path.display()));
                let (entry, row_text) = match outcome {
                    Ok(replay) => {
                        if let Some(dir) = out {
                            for uav in &replay.uavs {
                                let name = format!("dispatch{index}.{}.bin", uav.name());
                                write_file(dir, &name, &uav.replayed, &mut files)?;
                            }
                        }
                        (dispatch_json(&replay)?, dispatch_row(&replay))
                    }
                    Err(message) => {
                        bar.suspend(|| eprintln!("iridia: {message}"));
                        let row_text = format!("{:>4}  error: {message}", format!("d{index}"));
                        (json!({"index": index, "error": message}), row_text)
                    }
                };
                (entry, row_text, &mut dispatches_json)
            }
            FrameEvent::Draw(index) => {
                let outcome = replay_one(&mut capture, index, &mut cache, &options, &bar, args, &mut files, out);
                bar.inc(1);
                let (entry, row_text) = match outcome {
                    Ok(entry) => entry,
                    Err(message) => {
                        let message = format!("{}: {message}", path.display());
                        bar.suspend(|| eprintln!("iridia: {message}"));
                        let row_text = format!("{index:>4}  error: {message}");
                        (json!({"index": index, "error": message}), row_text)
                    }
                };
                (entry, row_text, &mut draws_json)
            }
        };
        if let Some(object) = entry.as_object_mut() {
            if let FrameEvent::Draw(index) = event {
                object.insert(
                    "markers".to_owned(),
                    json!(marker_paths.get(index).cloned().unwrap_or_default()),
                );
            }
            object.insert("position".to_owned(), json!(position));
            object.insert("seconds".to_owned(), json!(started.elapsed().as_secs_f64()));
            object.insert("row".to_owned(), json!(row_text));
            object.insert("files".to_owned(), json!(files));
        }
        list.push(entry);
    }
    bar.finish_and_clear();
    let unrecorded_json: Vec<Value> = unrecorded
        .iter()
        .map(|u| {
            json!({
                "before_draw": u.before_draw,
                "name": u.name,
                "api_call": u.api_call,
                "reason": u.reason,
                "line": unrecorded_line(u),
            })
        })
        .collect();
    let mut report = json!({
        "capture": path.display().to_string(),
        "draw_count": count,
        "tolerance": settings.tolerance_name,
        "variants": settings.variants.iter().map(|v| v.name()).collect::<Vec<_>>(),
        "draws": draws_json,
        "resolves": resolves_json,
        "dispatches": dispatches_json,
        "unrecorded_draws": unrecorded_json,
    });
    let summary = batch::Summary::of(&report);
    if let Some(object) = report.as_object_mut() {
        object.insert("summary".to_owned(), json!(summary));
    }
    Ok(report)
}
