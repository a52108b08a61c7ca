//! `iridia info` (what a capture holds) and `iridia pack` (a capture from a draw description and the reference
//! renderer's output). Errors name the file and, from the library, the draw and item.

use super::common::unrecorded_line;
use iridia::api::resource::{Resource, Texture};
use iridia::capture::manifest::CallEntry;
use iridia::capture::outline::OutlineKind;
use iridia::capture::{
    BlobId, Capture, CaptureWriter, DispatchSummary, DrawRecord, DrawSummary, FrameEvent, ResolveEntry, UavSummary,
    api_call_text,
};
use iridia::description::{self, Description};
use iridia::dxbc::program::ProgramKind;
use iridia::dxbc::{Shader, Verify};
use iridia::format::Format;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The shader model of a DXBC blob (`vs_5_0`), or `None` when it does not parse.
fn shader_model(bytes: &[u8]) -> Option<String> {
    let shader = Shader::parse(bytes, Verify::Skip).ok()?;
    let prefix = match shader.program.kind {
        ProgramKind::Pixel => "ps",
        ProgramKind::Vertex => "vs",
        ProgramKind::Geometry => "gs",
        ProgramKind::Hull => "hs",
        ProgramKind::Domain => "ds",
        ProgramKind::Compute => "cs",
    };
    Some(format!("{prefix}_{}_{}", shader.program.major, shader.program.minor))
}

/// Prints what the capture at `path` holds: its draws, their programs (with their shader models, which inflates
/// the program blobs and nothing else), their targets and formats. With `check`, reads every draw whole, inflating
/// and verifying every blob. Fails (exit 2) when any draw is unreadable, after listing all of them and printing
/// every problem.
pub fn info(path: &Path, as_json: bool, check: bool) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut capture = Capture::from_reader(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))?;
    // What the directory and manifest show is wrong, then what reading the programs (or, with `check`, every
    // draw) shows.
    let mut draws = capture.draws();
    let mut models: HashMap<BlobId, Option<String>> = HashMap::new();
    for draw in draws.iter_mut().filter(|d| d.problem.is_none()) {
        if check && let Err(problem) = capture.draw(draw.index) {
            draw.problem = Some(problem);
            continue;
        }
        let programs: Vec<(&str, BlobId)> = draw
            .programs
            .iter()
            .map(|p| (p.stage.name(), p.blob.sha256))
            .chain(draw.geometry_program.map(|blob| ("gs", blob.sha256)))
            .chain(draw.tessellation_programs[0].map(|blob| ("hs", blob.sha256)))
            .chain(draw.tessellation_programs[1].map(|blob| ("ds", blob.sha256)))
            .collect();
        for (stage, id) in programs {
            if models.contains_key(&id) {
                continue;
            }
            match capture.blob(&id) {
                Ok(bytes) => {
                    models.insert(id, shader_model(&bytes));
                }
                Err(problem) => {
                    let at = format!("draw {} {stage} dxbc", draw.index);
                    draw.problem = Some(iridia::Error::new("capture", problem.detail).at(at));
                    break;
                }
            }
        }
    }
    // each resolve with its problem (with `check`, reading it inflates and verifies its blobs)
    let mut resolves: Vec<(ResolveEntry, Option<iridia::Error>)> = Vec::new();
    for (index, entry) in capture.resolves().to_vec().into_iter().enumerate() {
        let problem = match capture.resolve_problem(index) {
            Some(problem) => Some(problem.clone()),
            None if check => capture.resolve(index).err(),
            None => None,
        };
        resolves.push((entry, problem));
    }
    // each dispatch with its problem and its program's model (with `check`, reading it inflates and verifies its
    // blobs)
    let mut dispatches = capture.dispatch_summaries();
    for dispatch in dispatches.iter_mut().filter(|d| d.problem.is_none()) {
        if check && let Err(problem) = capture.dispatch(dispatch.index) {
            dispatch.problem = Some(problem);
            continue;
        }
        if let Some(program) = dispatch.program
            && !models.contains_key(&program.sha256)
        {
            match capture.blob(&program.sha256) {
                Ok(bytes) => {
                    models.insert(program.sha256, shader_model(&bytes));
                }
                Err(problem) => {
                    let at = format!("dispatch {} cs dxbc", dispatch.index);
                    dispatch.problem = Some(iridia::Error::new("capture", problem.detail).at(at));
                }
            }
        }
    }
    let model_of = |id: &BlobId| models.get(id).cloned().flatten();
    let manifest = capture.manifest();
    if as_json {
        let value = json!({
            "file": path.display().to_string(),
            "format_version": manifest.version,
            "generator": manifest.generator,
            "application": manifest.application,
            "size_bytes": capture.archive_len(),
            "draw_count": draws.len(),
            "draws": draws.iter().map(|d| draw_json(d, &model_of)).collect::<Vec<_>>(),
            "unrecorded_draws": serde_json::to_value(capture.unrecorded_draws()).unwrap_or(Value::Null),
            "resolves": resolves.iter().map(|(entry, problem)| {
                let mut value = serde_json::to_value(entry).unwrap_or(Value::Null);
                if let Some(object) = value.as_object_mut() {
                    object.insert("label".to_owned(), json!(entry.label()));
                    object.insert(
                        "problem".to_owned(),
                        problem.as_ref().map_or(Value::Null, |e| json!({"what": e.what, "at": e.at, "detail": e.detail})),
                    );
                }
                value
            }).collect::<Vec<_>>(),
            "dispatches": dispatches.iter().map(|d| dispatch_json(d, &model_of)).collect::<Vec<_>>(),
            "outline": outline_json(&capture, &draws),
            "events_problem": capture.events_problem().map(|e| json!({"what": e.what, "at": e.at, "detail": e.detail})),
        });
        let text = serde_json::to_string_pretty(&value).map_err(|e| format!("cannot write JSON: {e}"))?;
        println!("{text}");
    } else {
        print!(
            "{}",
            info_text(path, &capture, &draws, &resolves, &dispatches, &model_of)
        );
    }
    let problems: Vec<String> = draws
        .iter()
        .filter_map(|d| d.problem.as_ref())
        .chain(resolves.iter().filter_map(|(_, problem)| problem.as_ref()))
        .chain(dispatches.iter().filter_map(|d| d.problem.as_ref()))
        .map(|e| format!("{}: {e}", path.display()))
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\niridia: "))
    }
}

/// One draw as `info --json` gives it.
fn draw_json(draw: &DrawSummary, model_of: &dyn Fn(&BlobId) -> Option<String>) -> Value {
    let program = |stage: &str| {
        draw.programs.iter().find(|p| p.stage.name() == stage).map(
            |p| json!({"sha256": p.blob.sha256.to_string(), "size": p.blob.size, "model": model_of(&p.blob.sha256)}),
        )
    };
    json!({
        "index": draw.index,
        "name": draw.name,
        "label": draw.label(),
        "api_call": draw.api_call,
        "call": serde_json::to_value(CallEntry::from(draw.call)).unwrap_or(Value::Null),
        "topology": draw.topology.name(),
        "indirect": draw.indirect,
        "vs": program("vs"),
        "gs": draw.geometry_program.map(
            |p| json!({"sha256": p.sha256.to_string(), "size": p.size, "model": model_of(&p.sha256)}),
        ),
        "hs": draw.tessellation_programs[0].map(
            |p| json!({"sha256": p.sha256.to_string(), "size": p.size, "model": model_of(&p.sha256)}),
        ),
        "ds": draw.tessellation_programs[1].map(
            |p| json!({"sha256": p.sha256.to_string(), "size": p.size, "model": model_of(&p.sha256)}),
        ),
        "ps": program("ps"),
        "uavs": draw.uavs.iter().map(uav_json).collect::<Vec<_>>(),
        "stream_output": draw.stream_output.iter().map(|s| json!({
            "slot": s.slot,
            "bytes": s.bytes,
            "offset": s.offset,
            "after_recorded": s.after_recorded,
        })).collect::<Vec<_>>(),
        "targets": draw.targets.iter().map(|t| json!({
            "target": t.target.to_string(),
            "format": t.format.to_string(),
            "width": t.width,
            "height": t.height,
            "sample_count": t.resource.sample_count,
            "resource_format": t.resource.format.to_string(),
            "after_recorded": t.after_recorded,
        })).collect::<Vec<_>>(),
        "problem": draw.problem.as_ref().map(|e| json!({"what": e.what, "at": e.at, "detail": e.detail})),
    })
}

/// One dispatch as `info --json` gives it.
fn dispatch_json(dispatch: &DispatchSummary, model_of: &dyn Fn(&BlobId) -> Option<String>) -> Value {
    json!({
        "index": dispatch.index,
        "before_draw": dispatch.before_draw,
        "before_resolve": dispatch.before_resolve,
        "label": dispatch.label,
        "groups": dispatch.groups,
        "cs": dispatch.program.map(
            |p| json!({"sha256": p.sha256.to_string(), "size": p.size, "model": model_of(&p.sha256)}),
        ),
        "uavs": dispatch.uavs.iter().map(uav_json).collect::<Vec<_>>(),
        "problem": dispatch.problem.as_ref().map(|e| json!({"what": e.what, "at": e.at, "detail": e.detail})),
    })
}

/// A dispatch's lines in `info`'s text: `dispatch 0 before draw 1  Dispatch(2, 1, 1)  2x1x1 groups`, its program
/// and each view.
fn dispatch_lines(out: &mut String, dispatch: &DispatchSummary, model_of: &dyn Fn(&BlobId) -> Option<String>) {
    use std::fmt::Write as _;
    let [x, y, z] = dispatch.groups;
    let _ = writeln!(
        out,
        "dispatch {} before draw {}  {}  {x}x{y}x{z} groups",
        dispatch.index, dispatch.before_draw, dispatch.label
    );
    if let Some(program) = dispatch.program {
        let model = model_of(&program.sha256).unwrap_or_else(|| "?".to_owned());
        let _ = writeln!(out, "  cs  {model:<7} {}  {} bytes", program.sha256, program.size);
    }
    for uav in &dispatch.uavs {
        uav_line(out, uav);
    }
    if let Some(problem) = &dispatch.problem {
        let _ = writeln!(out, "  error: {problem}");
    }
}

/// A view's line in `info`'s text: `  u1    raw, 16 words  after recorded, counter after 3`.
fn uav_line(out: &mut String, uav: &UavSummary) {
    use std::fmt::Write as _;
    let what = match uav.layout {
        Some(layout) => match layout.access {
            iridia::capture::UavAccessKind::Raw => format!("raw, {} words", layout.width),
            iridia::capture::UavAccessKind::Structured { stride } => {
                format!("structured, {} x {stride} bytes", layout.width)
            }
            iridia::capture::UavAccessKind::Typed if layout.slices > 1 || layout.height > 1 => format!(
                "{} {}x{} x{}",
                layout.format,
                layout.width,
                layout.height.checked_div(layout.slices).unwrap_or(0),
                layout.slices
            ),
            iridia::capture::UavAccessKind::Typed => format!("{} {}", layout.format, layout.width),
        },
        None => format!("{} {}", uav.view.dimension, uav.view.format),
    };
    let after = if uav.after_recorded {
        "after recorded"
    } else {
        "after not recorded"
    };
    let counter = uav
        .counter_after
        .map_or_else(String::new, |c| format!(", counter after {c}"));
    let _ = writeln!(out, "  u{:<4} {what}  {after}{counter}", uav.slot);
}

/// A view as `info --json` gives it.
fn uav_json(u: &UavSummary) -> Value {
    json!({
        "slot": u.slot,
        "format": u.view.format.to_string(),
        "dimension": u.view.dimension.to_string(),
        "layout": u.layout,
        "after_recorded": u.after_recorded,
        "counter_after": u.counter_after,
    })
}

/// The text `info` prints.
fn info_text<R: Read + Seek>(
    path: &Path,
    capture: &Capture<R>,
    draws: &[DrawSummary],
    resolves: &[(ResolveEntry, Option<iridia::Error>)],
    dispatches: &[DispatchSummary],
    model_of: &dyn Fn(&BlobId) -> Option<String>,
) -> String {
    use std::fmt::Write as _;
    let manifest = capture.manifest();
    let mut out = String::new();
    let plural = if draws.len() == 1 { "" } else { "s" };
    let unrecorded = capture.unrecorded_draws();
    let not_recorded = if unrecorded.is_empty() {
        String::new()
    } else {
        format!(" ({} more not recorded)", unrecorded.len())
    };
    let resolved = match resolves.len() {
        0 => String::new(),
        1 => ", 1 resolve".to_owned(),
        n => format!(", {n} resolves"),
    };
    let dispatched = match dispatches.len() {
        0 => String::new(),
        1 => ", 1 dispatch".to_owned(),
        n => format!(", {n} dispatches"),
    };
    let _ = writeln!(
        out,
        "{}: iridia-capture {}, {} draw{plural}{not_recorded}{resolved}{dispatched}, {} bytes",
        path.display(),
        manifest.version,
        draws.len(),
        capture.archive_len()
    );
    if let Some(generator) = &manifest.generator {
        let _ = writeln!(out, "generator: {generator}");
    }
    if let Some(application) = &manifest.application {
        let _ = writeln!(out, "application: {application}");
    }
    for event in capture.events() {
        let draw = match event {
            FrameEvent::Draw(index) => match draws.get(index) {
                Some(draw) => draw,
                None => continue,
            },
            FrameEvent::Resolve(index) => {
                if let Some((entry, problem)) = resolves.get(index) {
                    let after = if entry.destination.after.is_some() {
                        "after recorded"
                    } else {
                        "after not recorded"
                    };
                    let _ = writeln!(
                        out,
                        "resolve {index} before draw {}  {}  subresource {} -> subresource {}  {after}",
                        entry.before_draw,
                        entry.label(),
                        entry.source.subresource,
                        entry.destination.subresource
                    );
                    if let Some(problem) = problem {
                        let _ = writeln!(out, "  error: {problem}");
                    }
                }
                continue;
            }
            FrameEvent::Dispatch(index) => {
                if let Some(dispatch) = dispatches.get(index) {
                    dispatch_lines(&mut out, dispatch, model_of);
                }
                continue;
            }
        };
        let _ = write!(out, "draw {}", draw.index);
        if let Some(name) = &draw.name {
            let _ = write!(out, " {name:?}");
        }
        let call = draw.api_call.clone().unwrap_or_else(|| api_call_text(draw.call));
        let indirect = if draw.indirect { " (indirect)" } else { "" };
        let _ = writeln!(out, "  {call}{indirect}  {}", draw.topology);
        let programs = draw
            .programs
            .iter()
            .map(|p| (p.stage.name(), p.blob))
            .chain(draw.tessellation_programs[0].map(|blob| ("hs", blob)))
            .chain(draw.tessellation_programs[1].map(|blob| ("ds", blob)))
            .chain(draw.geometry_program.map(|blob| ("gs", blob)));
        for (stage, blob) in programs {
            let model = model_of(&blob.sha256).unwrap_or_else(|| "?".to_owned());
            let _ = writeln!(out, "  {stage}  {model:<7} {}  {} bytes", blob.sha256, blob.size);
        }
        for target in &draw.targets {
            let after = if target.after_recorded {
                "after recorded"
            } else {
                "after not recorded"
            };
            let samples = match target.resource.sample_count {
                1 => String::new(),
                n => format!(" {n}x"),
            };
            let _ = writeln!(
                out,
                "  {:<5} {:<22} {}x{}{samples}  {after}",
                target.target.to_string(),
                target.format.to_string(),
                target.width,
                target.height
            );
        }
        for uav in &draw.uavs {
            uav_line(&mut out, uav);
        }
        for buffer in &draw.stream_output {
            let after = if buffer.after_recorded {
                "after recorded"
            } else {
                "after not recorded"
            };
            let _ = writeln!(
                out,
                "  so{:<3} buffer of {} bytes, written from byte {}  {after}",
                buffer.slot, buffer.bytes, buffer.offset
            );
        }
        if let Some(problem) = &draw.problem {
            let _ = writeln!(out, "  error: {problem}");
        }
    }
    for draw in unrecorded {
        let _ = writeln!(out, "not recorded: {}", unrecorded_line(draw));
    }
    outline_lines(&mut out, capture, draws, resolves, dispatches);
    out
}

/// The frame's outline in `info`'s text, when the capture has events (version 1.5): the program's markers as an
/// indented tree (`Shadow pass/`), point markers (`* text`), clears, copies and updates (`clear: text`), and the
/// draws (`draw 3  its name`), resolves and dispatches where they come.
fn outline_lines<R: Read + Seek>(
    out: &mut String,
    capture: &Capture<R>,
    draws: &[DrawSummary],
    resolves: &[(ResolveEntry, Option<iridia::Error>)],
    dispatches: &[DispatchSummary],
) {
    use std::fmt::Write as _;
    if let Some(problem) = capture.events_problem() {
        let _ = writeln!(out, "the frame's markers are not shown: {problem}");
        return;
    }
    if capture.manifest().events.is_empty() {
        return;
    }
    let _ = writeln!(out, "frame outline:");
    for row in capture.outline().rows {
        let indent = "  ".repeat(usize::try_from(row.depth).unwrap_or(0).saturating_add(1));
        let line = match &row.kind {
            OutlineKind::Group { .. } => format!("{}/", row.text),
            OutlineKind::Marker => format!("* {}", row.text),
            OutlineKind::Call(kind) => format!("{kind}: {}", row.text),
            OutlineKind::Draw(n) => format!(
                "draw {n}  {}",
                draws.get(*n).map(DrawSummary::label).unwrap_or_default()
            ),
            OutlineKind::Resolve(n) => format!(
                "resolve {n}  {}",
                resolves.get(*n).map(|(entry, _)| entry.label()).unwrap_or_default()
            ),
            OutlineKind::Dispatch(n) => format!(
                "dispatch {n}  {}",
                dispatches.get(*n).map(|d| d.label.clone()).unwrap_or_default()
            ),
        };
        let _ = writeln!(out, "{indent}{line}");
    }
}

/// The frame's outline as `info --json` gives it: each row with its depth, kind, index (draws, resolves,
/// dispatches; a group's end) and text (a draw's label).
fn outline_json<R: Read + Seek>(capture: &Capture<R>, draws: &[DrawSummary]) -> Value {
    let rows: Vec<Value> = capture
        .outline()
        .rows
        .iter()
        .map(|row| {
            let mut value = serde_json::to_value(row).unwrap_or(Value::Null);
            if let (OutlineKind::Draw(n), Some(object)) = (&row.kind, value.as_object_mut()) {
                object.insert(
                    "text".to_owned(),
                    json!(draws.get(*n).map(DrawSummary::label).unwrap_or_default()),
                );
            }
            value
        })
        .collect();
    Value::Array(rows)
}

/// What one render of the reference renderer left: each render target's and the depth buffer's texels, in D3D's
/// layout of their formats.
struct Recorded {
    render_targets: Vec<(Format, Vec<u8>)>,
    depth: Option<(Format, Vec<u8>)>,
}

/// Reads the reference render `PREFIX.json` (with `PREFIX.rtN.bin` and `PREFIX.depth.bin`), checking it against
/// the description's targets. The reference reads D24_UNORM_S8_UINT back in OpenGL's packing, `depth24 << 8 |
/// stencil` in each 32-bit word; D3D's layout (19.1, the format's channel order) puts depth in bits 0-23 and
/// stencil in bits 24-31, so each word is rotated into it. D32_FLOAT, D16_UNORM and D32_FLOAT_S8X24_UINT (float
/// depth, then stencil in the low byte of the second word) read back in D3D's layout already.
fn read_recorded(prefix: &Path, description: &Description) -> Result<Recorded, String> {
    let json_path = PathBuf::from(format!("{}.json", prefix.display()));
    let name = json_path.display().to_string();
    let text = std::fs::read(&json_path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let value: Value = serde_json::from_slice(&text).map_err(|e| format!("{name}: not JSON: {e}"))?;
    let size = |key: &str| value.get(key).and_then(Value::as_u64);
    let (width, height) = (u64::from(description.width), u64::from(description.height));
    if size("width") != Some(width) || size("height") != Some(height) {
        return Err(format!(
            "{name}: the render is {}x{}, the description's targets {width}x{height}",
            size("width").map_or("?".into(), |w| w.to_string()),
            size("height").map_or("?".into(), |h| h.to_string()),
        ));
    }
    let dir = json_path.parent().unwrap_or(Path::new("."));
    let texels = |item: &Value, what: &str, expected: Format, default_file: String| -> Result<Vec<u8>, String> {
        let format = item
            .get("format")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{name}: {what} has no format (the render failed?)"))?;
        let format: Format = format.parse().map_err(|e| format!("{name}: {what}: {e}"))?;
        if format != expected {
            return Err(format!("{name}: {what} is {format}, the description's is {expected}"));
        }
        let file = item
            .get("file")
            .and_then(Value::as_str)
            .map_or(default_file, str::to_owned);
        let path = dir.join(&file);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let texel = format
            .info()
            .layout
            .element_bytes()
            .and_then(|b| u64::try_from(b).ok())
            .unwrap_or(0);
        let wanted = width.saturating_mul(height).saturating_mul(texel);
        if u64::try_from(bytes.len()).ok() != Some(wanted) {
            return Err(format!(
                "{}: {} bytes where {width}x{height} texels of {format} take {wanted}",
                path.display(),
                bytes.len()
            ));
        }
        Ok(bytes)
    };
    let targets = value
        .get("render_targets")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if targets.len() != description.render_targets.len() {
        return Err(format!(
            "{name}: {} render targets, the description has {}",
            targets.len(),
            description.render_targets.len()
        ));
    }
    let mut render_targets = Vec::new();
    for (index, (item, resource)) in targets.iter().zip(&description.render_targets).enumerate() {
        let expected = texture_of(resource)?.shape.format;
        let prefix_name = prefix.display();
        let bytes = texels(
            item,
            &format!("render_targets[{index}]"),
            expected,
            format!("{prefix_name}.rt{index}.bin"),
        )?;
        render_targets.push((expected, bytes));
    }
    let depth = match (&description.depth_stencil, value.get("depth")) {
        (None, None) => None,
        (Some(resource), Some(item)) => {
            let format = texture_of(resource)?.shape.format;
            let file_name = Path::new(&format!("{}.depth.bin", prefix.display()))
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut bytes = texels(item, "depth", format, file_name)?;
            if format == Format::D24UnormS8Uint {
                for word in bytes.chunks_exact_mut(4) {
                    let gl = <[u8; 4]>::try_from(&*word).map(u32::from_le_bytes).unwrap_or(0);
                    word.copy_from_slice(&gl.rotate_right(8).to_le_bytes());
                }
            }
            Some((format, bytes))
        }
        (Some(_), None) => return Err(format!("{name}: no depth buffer, yet the description has one")),
        (None, Some(_)) => return Err(format!("{name}: a depth buffer the description does not have")),
    };
    Ok(Recorded { render_targets, depth })
}

/// The texture of a description's target.
fn texture_of(resource: &Resource) -> Result<&Texture, String> {
    match resource {
        Resource::Texture(texture) => Ok(texture),
        Resource::Buffer(_) => Err("a description target is a buffer".to_owned()),
    }
}

/// A one-surface texture of `like`'s shape holding `bytes`.
fn texture_holding(like: &Texture, bytes: &[u8]) -> Result<Arc<Resource>, String> {
    let texture = Texture::new(like.shape, vec![Arc::from(bytes)]).map_err(|e| e.to_string())?;
    Ok(Arc::new(Resource::Texture(texture)))
}

/// The draw names a description gives in `_name` notes (which its reader ignores): the top level's for a
/// description of one draw, each entry's for `"draws"`. The description's liberties (`//` comments, a comma
/// before `]` or `}`) are removed first; a text that still does not read as JSON gives no names.
fn note_names(text: &str, count: usize) -> Vec<Option<String>> {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            plain.push(c);
            match c {
                '\\' => plain.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            plain.push(c);
        } else if c == '/' && chars.peek() == Some(&'/') {
            for rest in chars.by_ref() {
                if rest == '\n' {
                    plain.push('\n');
                    break;
                }
            }
        } else if c == ']' || c == '}' {
            let trimmed = plain.trim_end().len();
            if plain.get(..trimmed).is_some_and(|kept| kept.ends_with(',')) {
                plain.truncate(trimmed.saturating_sub(1));
            }
            plain.push(c);
        } else {
            plain.push(c);
        }
    }
    let name = |v: &Value| v.get("_name").and_then(Value::as_str).map(str::to_owned);
    match serde_json::from_str::<Value>(&plain) {
        Ok(value) => match value.get("draws").and_then(Value::as_array) {
            Some(draws) => (0..count).map(|i| draws.get(i).and_then(name)).collect(),
            None => (0..count).map(|_| name(&value)).collect(),
        },
        Err(_) => vec![None; count],
    }
}

/// Packs the description at `path` into a capture at `output`: one capture draw per description draw, each before
/// the previous one's recorded after (the first: the description's clears), each after from its `recorded` render.
pub fn pack(path: &Path, recorded: &[PathBuf], output: &Path, application: Option<String>) -> Result<(), String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let description =
        description::read(&text, &mut description::file_loader(path)).map_err(|e| format!("{name}: {e}"))?;
    let count = description.draws.len();
    if count == 0 {
        return Err(format!("{name}: the description has no draws to pack"));
    }
    if !recorded.is_empty() && recorded.len() != count {
        return Err(format!(
            "{name}: {count} draws but {} --recorded renders; give one per draw, in order (render k holds the \
             targets after draws 0 to k)",
            recorded.len()
        ));
    }
    if recorded.is_empty() && count > 1 {
        return Err(format!(
            "{name}: a description of {count} draws needs one --recorded render per draw: each draw's targets \
             before it are the previous draw's recorded after"
        ));
    }
    let renders = recorded
        .iter()
        .map(|prefix| read_recorded(prefix, &description))
        .collect::<Result<Vec<_>, _>>()?;
    let names = note_names(&text, count);

    let file = File::create(output).map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
    let mut writer = CaptureWriter::new(BufWriter::new(file));
    writer.set_generator(Some(format!("iridia {} pack", env!("CARGO_PKG_VERSION"))));
    writer.set_application(application.or_else(|| path.file_name().map(|f| f.to_string_lossy().into_owned())));
    for (index, draw) in description.draws.iter().enumerate() {
        let mut state = draw.clone();
        if let Some(previous) = index.checked_sub(1).and_then(|i| renders.get(i)) {
            // The targets before this draw: what the previous draw's render left.
            for (slot, (_, bytes)) in previous.render_targets.iter().enumerate() {
                if let Some(Some(view)) = state.render_targets.get_mut(slot) {
                    let texture = texture_of(&view.resource)?.clone();
                    view.resource = texture_holding(&texture, bytes)?;
                }
            }
            if let (Some(view), Some((_, bytes))) = (state.depth_stencil_view.as_mut(), &previous.depth) {
                let texture = texture_of(&view.resource)?.clone();
                view.resource = texture_holding(&texture, bytes)?;
            }
        }
        let mut record = DrawRecord::new(state);
        record.name = names.get(index).cloned().flatten().or_else(|| Some(draw.label.clone()));
        record.api_call = Some(api_call_text(draw.call));
        if let Some(render) = renders.get(index) {
            record.render_targets_after = render
                .render_targets
                .iter()
                .map(|(_, bytes)| Some(Arc::from(bytes.as_slice())))
                .collect();
            record.depth_stencil_after = render.depth.as_ref().map(|(_, bytes)| Arc::from(bytes.as_slice()));
        }
        writer.add_draw(&record).map_err(|e| format!("{name}: {e}"))?;
    }
    let mut out = writer.finish().map_err(|e| format!("{}: {e}", output.display()))?;
    out.flush()
        .map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::note_names;

    #[test]
    fn names_come_from_name_notes_past_comments_and_trailing_commas() {
        let text = "{\n  // the scene\n  \"vs\": \"a//b.dxbc\", // a path with slashes\n  \"draws\": [\n    \
                    {\"_name\": \"sky \\\"dome\\\"\",},\n    {},\n  ],\n}\n";
        assert_eq!(note_names(text, 3), [Some("sky \"dome\"".to_owned()), None, None]);
        assert_eq!(note_names("{\"_name\": \"one\"}", 1), [Some("one".to_owned())]);
        assert_eq!(note_names("not json", 2), [None, None]);
    }
}
