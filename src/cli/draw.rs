//! `iridia draw DESCRIPTION.json --out PREFIX`: runs a draw description's draws on the CPU and writes the targets as
//! the reference renderer of `d3d11-ref` does: `PREFIX.json` (what was drawn, each target's format, size and file,
//! each draw's statistics), `PREFIX.rtN.bin` and `PREFIX.depth.bin` (raw little-endian texels, top row first, rows
//! packed; a target of several array slices holds them one after the other). Depth-stencil texels are in D3D's layout (D24_UNORM_S8_UINT: depth in bits 0..24, stencil in 24..32),
//! where the reference renderer returns GL's (`depth24 << 8 | stencil`).
//!
//! A draw with stream output also writes `PREFIX.soN.bin` (each buffer after the last draw) and the per-stream counts
//! in `PREFIX.json`; a pixel program's unordered access views go to `PREFIX.uN.bin`, as the geometry and pixel-UAV
//! fixtures' renderers write them.
//!
//! A dispatch description (one with `"cs"`, `fixtures/compute`'s format) runs its dispatches in order instead and
//! writes every unordered access view as that renderer does: `PREFIX.json` (`dispatches`, `uavs` with slot, bytes,
//! file and counter) and `PREFIX.uN.bin` (the view's bytes after the last dispatch).

use iridia::api::resource::Resource;
use iridia::description::{self, Description};
use iridia::draw::{DrawOptions, DrawStats, ShaderCache, TargetImage, run_sequence};
use iridia::format::TexelCodec;
use serde::Serialize;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// A target in `PREFIX.json`.
#[derive(Serialize)]
struct TargetEntry {
    format: String,
    bytes_per_texel: usize,
    width: u32,
    height: u32,
    /// Array slices, one after the other in the file (15.15).
    array_size: u32,
    file: String,
    /// The byte layout: `"D3D"` for depth-stencil formats (see the module documentation).
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<&'static str>,
}

/// A draw in `PREFIX.json`.
#[derive(Serialize)]
struct DrawEntry {
    label: String,
    stats: DrawStats,
    /// Pixels whose coverage depends on rounding at a triangle edge.
    ambiguous_pixels: usize,
}

/// `PREFIX.json`.
#[derive(Serialize)]
struct Summary {
    description: String,
    width: u32,
    height: u32,
    draws: Vec<DrawEntry>,
    render_targets: Vec<TargetEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<TargetEntry>,
    /// The stream-output buffers after the last draw, and the primitives written and needed per stream over all
    /// draws (`D3D11_QUERY_SO_STATISTICS_STREAMn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_output: Option<StreamOutputEntry>,
    /// The pixel program's unordered access views after the last draw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    uavs: Vec<UavEntry>,
}

/// `stream_output` in `PREFIX.json`.
#[derive(Serialize)]
struct StreamOutputEntry {
    buffers: Vec<UavEntry>,
    statistics: Vec<StreamStatistics>,
}

/// One stream's counts.
#[derive(Serialize)]
struct StreamStatistics {
    stream: usize,
    primitives_written: u64,
    primitives_storage_needed: u64,
}

/// The image of a description's target before any draw (its clear).
fn cleared(resource: &Resource, width: u32, height: u32) -> Result<TargetImage, String> {
    match resource {
        Resource::Texture(texture) => Ok(TargetImage {
            format: texture.shape.format,
            width,
            height,
            slices: texture.shape.array_size,
            bytes: (0..texture.shape.array_size)
                .filter_map(|slice| texture.subresource(0, slice))
                .flatten()
                .copied()
                .collect(),
        }),
        Resource::Buffer(_) => Err("a description's target is a buffer".to_owned()),
    }
}

/// The file name of `path` (for `PREFIX.json`, which names its files relative to itself).
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Writes `image` to `path` and describes it.
fn write_target(image: &TargetImage, path: &Path, layout: Option<&'static str>) -> Result<TargetEntry, String> {
    std::fs::write(path, &image.bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    Ok(TargetEntry {
        format: image.format.name().to_owned(),
        bytes_per_texel: TexelCodec::new(image.format).map_or(0, |c| c.element_bytes()),
        width: image.width,
        height: image.height,
        array_size: image.slices,
        file: file_name(path),
        layout,
    })
}

/// Runs the description at `path` and writes its targets under `prefix`.
pub fn draw(path: &Path, prefix: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut load = description::file_loader(path);
    if description::is_dispatch_description(&text) {
        return dispatch(path, &text, &mut load, prefix);
    }
    let description: Description =
        description::read(&text, &mut load).map_err(|e| format!("{}: {e}", path.display()))?;
    let primitives: u64 = 1;
    let bar = indicatif::ProgressBar::new(primitives);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} triangles")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut report = |p: &iridia::draw::Progress| {
        bar.set_length(p.primitives_total.max(1));
        bar.set_position(p.primitives_done);
        ControlFlow::Continue(())
    };
    let outputs = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        Some(&mut report),
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    bar.finish_and_clear();
    let (width, height) = (description.width, description.height);
    let last = outputs.last();
    let with_suffix = |suffix: &str| suffixed(prefix, suffix);
    let mut render_targets = Vec::new();
    for (slot, resource) in description.render_targets.iter().enumerate() {
        let image = match last.and_then(|o| o.render_targets.get(slot)).and_then(Option::as_ref) {
            Some(image) => image.clone(),
            None => cleared(resource, width, height)?,
        };
        render_targets.push(write_target(&image, &with_suffix(&format!(".rt{slot}.bin")), None)?);
    }
    let depth = match &description.depth_stencil {
        Some(resource) => {
            let image = match last.and_then(|o| o.depth_stencil.as_ref()) {
                Some(image) => image.clone(),
                None => cleared(resource, width, height)?,
            };
            Some(write_target(&image, &with_suffix(".depth.bin"), Some("D3D"))?)
        }
        None => None,
    };
    let mut stream_output = None;
    if let Some(buffers) = last.and_then(|o| o.stream_output.as_ref()) {
        let mut entries = Vec::new();
        for (slot, bytes) in buffers.buffers.iter().enumerate() {
            let Some(bytes) = bytes else { continue };
            entries.push(write_view(prefix, &format!(".so{slot}.bin"), slot, bytes, None)?);
        }
        let statistics = (0..4usize)
            .map(|stream| {
                let (written, needed) =
                    outputs
                        .iter()
                        .filter_map(|o| o.stream_output.as_ref())
                        .fold((0u64, 0u64), |(w, n), s| {
                            (
                                w.saturating_add(s.written.get(stream).copied().unwrap_or(0)),
                                n.saturating_add(s.needed.get(stream).copied().unwrap_or(0)),
                            )
                        });
                StreamStatistics {
                    stream,
                    primitives_written: written,
                    primitives_storage_needed: needed,
                }
            })
            .collect();
        stream_output = Some(StreamOutputEntry {
            buffers: entries,
            statistics,
        });
    }
    let mut uavs = Vec::new();
    for (slot, view) in last.map(|o| o.uavs.as_slice()).unwrap_or_default().iter().enumerate() {
        let Some(view) = view else { continue };
        uavs.push(write_view(
            prefix,
            &format!(".u{slot}.bin"),
            slot,
            &view.bytes,
            view.counter,
        )?);
    }
    let summary = Summary {
        description: file_name(path),
        width,
        height,
        draws: outputs
            .iter()
            .map(|o| DrawEntry {
                label: o.label.clone(),
                stats: o.stats,
                ambiguous_pixels: o.ambiguous.iter().filter(|a| **a).count(),
            })
            .collect(),
        render_targets,
        depth,
        stream_output,
        uavs,
    };
    let json = serde_json::to_string_pretty(&summary).map_err(|e| format!("cannot write the summary: {e}"))?;
    let json_path = with_suffix(".json");
    std::fs::write(&json_path, json).map_err(|e| format!("{}: cannot write: {e}", json_path.display()))
}

/// A view in a dispatch description's `PREFIX.json`.
#[derive(Serialize)]
struct UavEntry {
    slot: usize,
    bytes: usize,
    file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    counter: Option<u32>,
}

/// A dispatch description's `PREFIX.json`.
#[derive(Serialize)]
struct DispatchSummary {
    description: String,
    dispatches: Vec<[u32; 3]>,
    stats: Vec<iridia::dispatch::DispatchStats>,
    uavs: Vec<UavEntry>,
    /// Per view, what its contents owe to the order of the threads (18.6.6).
    order_dependence: Vec<OrderEntry>,
}

/// A view's [`iridia::shader::uav::OrderDependence`] after every dispatch.
#[derive(Serialize)]
struct OrderEntry {
    slot: usize,
    #[serde(flatten)]
    dependence: iridia::shader::uav::OrderDependence,
}

/// Runs a dispatch description's dispatches against its views and writes the views under `prefix`.
fn dispatch(
    path: &Path,
    text: &str,
    load: &mut dyn FnMut(&str) -> iridia::Result<Vec<u8>>,
    prefix: &Path,
) -> Result<(), String> {
    use iridia::dispatch::{DispatchOptions, contents, run_dispatch_on, uav_views};
    let at = |e: iridia::Error| format!("{}: {e}", path.display());
    let description = description::read_dispatches(text, load).map_err(at)?;
    let bindings = description
        .dispatches
        .first()
        .map(|d| d.uavs.clone())
        .unwrap_or_default();
    let views = uav_views(&bindings).map_err(at)?;
    views
        .iter()
        .flatten()
        .for_each(iridia::shader::uav::UnorderedAccessView::track_order);
    let mut stats = Vec::new();
    for (index, state) in description.dispatches.iter().enumerate() {
        let done = run_dispatch_on(state, &views, &DispatchOptions::default())
            .map_err(|e| format!("{}: dispatch {index}: {e}", path.display()))?;
        stats.push(done);
    }
    let mut uavs = Vec::new();
    for (slot, view) in views.iter().enumerate() {
        let Some(view) = view else { continue };
        let after = contents(view);
        uavs.push(write_view(
            prefix,
            &format!(".u{slot}.bin"),
            slot,
            &after.bytes,
            after.counter,
        )?);
    }
    let summary = DispatchSummary {
        description: file_name(path),
        dispatches: description.dispatches.iter().map(|d| d.groups).collect(),
        stats,
        uavs,
        order_dependence: views
            .iter()
            .enumerate()
            .filter_map(|(slot, view)| {
                let dependence = view.as_ref()?.order_dependence()?;
                Some(OrderEntry { slot, dependence })
            })
            .collect(),
    };
    let json = serde_json::to_string_pretty(&summary).map_err(|e| format!("cannot write the summary: {e}"))?;
    let json_path = suffixed(prefix, ".json");
    std::fs::write(&json_path, json).map_err(|e| format!("{}: cannot write: {e}", json_path.display()))
}

/// `prefix` with `suffix` appended to its file name (`out/draw` + `.u1.bin`).
fn suffixed(prefix: &Path, suffix: &str) -> PathBuf {
    let mut name = prefix.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Writes a buffer's or view's bytes to `prefix` + `suffix` and describes the file.
fn write_view(
    prefix: &Path,
    suffix: &str,
    slot: usize,
    bytes: &[u8],
    counter: Option<u32>,
) -> Result<UavEntry, String> {
    let file = suffixed(prefix, suffix);
    std::fs::write(&file, bytes).map_err(|e| format!("{}: cannot write: {e}", file.display()))?;
    Ok(UavEntry {
        slot,
        bytes: bytes.len(),
        file: file_name(&file),
        counter,
    })
}
