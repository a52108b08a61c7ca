//! The JSON draw descriptions of the `d3d11-ref` reference renderer (its README documents the format, and
//! `docs/draw-description.md` documents it for Iridia), read into the targets' initial contents and one
//! [`DrawState`] per draw.
//!
//! The keys and their meaning are the reference renderer's, so that one description drawn by both can be compared:
//! where the renderer's code and its README disagree on a default, the code is followed, since its output is what
//! Iridia is compared with (a sampler's default filter is `MIN_MAG_MIP_POINT` and border colour 0, as its
//! zero-initialised `D3D11_SAMPLER_DESC`; with no depth buffer, depth and stencil tests are off). Iridia reads more
//! strictly: an unknown key, a value of the wrong kind or out of range, a top-level-only key inside `"draws"` is an
//! error naming the key path (`draws[2].vertex_buffers[0].f32[7]`), where the renderer would ignore it or truncate.
//!
//! Files (shaders, `"file"` data) are read through the caller's loader, which gets each path as the description
//! writes it and resolves it (relative paths against the description's folder): the library itself opens no file.
//!
//! Sizes are bounded by the text: every byte of a buffer or texture is written out in the description (or in a
//! file the loader returned), counts past the data are the draw's to check, and the render targets and depth buffer,
//! the only data made from a size alone, may take at most [`MAX_TARGET_BYTES`] together.

mod data;
mod dispatch;
mod json;
mod values;
mod views;

use crate::api::draw::{
    ConstantBufferBinding, DepthStencilView, DrawAuto, DrawCall, DrawState, IndexBufferBinding, IndexFormat,
    RenderTargetView, STREAM_OUTPUT_APPEND, StageBindings, StreamOutputEntry, StreamOutputState, StreamOutputTarget,
    VertexBufferBinding,
};
use crate::api::enums::{DepthWriteMask, InputClassification};
use crate::api::enums::{DsvDimension, PrimitiveTopology, ResourceDimension, RtvDimension, SrvDimension};
use crate::api::fixed_function::{
    APPEND_ALIGNED_ELEMENT, BlendDesc, DepthStencilDesc, InputElementDesc, RasterizerDesc, RenderTargetBlendDesc,
    StencilFaceDesc,
};
use crate::api::limits::{
    CONSTANT_BUFFER_SLOTS, INPUT_ELEMENTS, RENDER_TARGET_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS,
    VERTEX_BUFFER_SLOTS, VIEWPORT_SLOTS,
};
use crate::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, Resource, SamplerDesc, ShaderResourceView, ShaderResourceViewDesc,
    Texture, TextureShape,
};
use crate::api::viewport::{Scissor, Viewport};
use crate::format::{Format, NumericKind, TexelCodec, encode_depth, encode_stencil};
use crate::{Error, Result};
use data::{Files, padded_data};
use std::sync::Arc;
use values::{Node, WHAT, bind_all, optional, slot_of};

pub use data::DATA_KEYS;
pub use dispatch::{DispatchDescription, is_dispatch_description, read_dispatches};

/// The most bytes the render targets and the depth buffer of one description may take together (512 MiB): an
/// Iridia limit, so that a short description cannot ask for gigabytes.
pub const MAX_TARGET_BYTES: u64 = 512 << 20;

/// The largest render target side D3D11 allows (`D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION`).
const MAX_TEXTURE_SIDE: u32 = 16384;

/// The largest texture array D3D11 allows (`D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION`).
const MAX_ARRAY_SIZE: u32 = 2048;

/// The keys a description may have at its top level.
const TOP_KEYS: &[&str] = &[
    "sample_count",
    "sample_quality",
    "vs",
    "ps",
    "gs",
    "gs_cbuffers",
    "hs",
    "hs_cbuffers",
    "ds",
    "ds_cbuffers",
    "stream_output",
    "uavs",
    // the fixtures' notes for their tests (how to compare, what a case covers); not read
    "iridia",
    "width",
    "height",
    "rt_format",
    "render_targets",
    "clear_color",
    "depth",
    "clear_depth",
    "clear_stencil",
    "input_layout",
    "vertex_buffers",
    "indices",
    "index_format",
    "topology",
    "index_count",
    "start_index",
    "base_vertex",
    "vertex_count",
    "start_vertex",
    "instance_count",
    "start_instance",
    "vs_cbuffers",
    "ps_cbuffers",
    "vs_textures",
    "ps_textures",
    "vs_samplers",
    "ps_samplers",
    "viewport",
    "viewports",
    "scissor",
    "scissors",
    "rasterizer",
    "blend",
    "draws",
];

/// The keys a draw of `"draws"` may set (each replaces the top level's whole value for that draw).
const DRAW_KEYS: &[&str] = &[
    "vs",
    "ps",
    "gs",
    "gs_cbuffers",
    "hs",
    "hs_cbuffers",
    "ds",
    "ds_cbuffers",
    "stream_output",
    "draw_auto",
    "depth",
    "input_layout",
    "vertex_buffers",
    "indices",
    "index_format",
    "topology",
    "index_count",
    "start_index",
    "base_vertex",
    "vertex_count",
    "start_vertex",
    "instance_count",
    "start_instance",
    "vs_cbuffers",
    "ps_cbuffers",
    "vs_textures",
    "ps_textures",
    "vs_samplers",
    "ps_samplers",
    "viewport",
    "viewports",
    "scissor",
    "scissors",
    "rasterizer",
    "blend",
];

/// A description read: the targets' contents before the first draw, and the draws in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    /// Width of the targets, in pixels.
    pub width: u32,
    /// Height of the targets, in pixels.
    pub height: u32,
    /// Samples a texel of every target (`"sample_count"`, 1 unless given).
    pub sample_count: u32,
    /// The render targets in slot order, holding their clear colour.
    pub render_targets: Vec<Arc<Resource>>,
    /// The depth-stencil buffer, holding its clear depth and stencil, if the description has one.
    pub depth_stencil: Option<Arc<Resource>>,
    /// The draws, in order. Every draw's views hold the targets' contents before the first draw (the resources
    /// above, shared): a runner draws them in order, handing each draw the targets as the previous one left them.
    pub draws: Vec<DrawState>,
}

/// Loads the files a description in the file at `path` names: relative to its folder, or as written when absolute
/// (as [`read`] says); a file that cannot be read is an error naming its path. Native only: the viewer hands
/// [`read`] the files the user gave it.
#[cfg(not(target_arch = "wasm32"))]
pub fn file_loader(path: &std::path::Path) -> impl FnMut(&str) -> Result<Vec<u8>> + use<> {
    let folder = path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    move |name: &str| {
        let file = if std::path::Path::new(name).is_absolute() {
            std::path::PathBuf::from(name)
        } else {
            folder.join(name)
        };
        std::fs::read(&file).map_err(|e| Error::new(file.display().to_string(), format!("cannot read: {e}")))
    }
}

/// Reads the description in the file at `path`, with the files it names ([`file_loader`]); an error names the
/// description's path. Native only.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_file(path: &std::path::Path) -> Result<Description> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(path.display().to_string(), format!("cannot read: {e}")))?;
    read(&text, &mut file_loader(path)).map_err(|e| e.within(path.display().to_string()))
}

/// Reads a description from its text. `load` gets each file path as the description writes it (relative to the
/// description's folder unless absolute) and returns the file's bytes.
pub fn read(text: &str, load: &mut dyn FnMut(&str) -> Result<Vec<u8>>) -> Result<Description> {
    let value = json::parse(text)?;
    let root = Node::root(&value);
    root.expect_object(TOP_KEYS)?;
    let mut files = Files::new(load);

    let width = side(&root, "width")?;
    let height = side(&root, "height")?;
    let (samples, quality) = multisample(&root)?;
    let mut budget = TargetBudget {
        samples,
        ..TargetBudget::default()
    };
    let render_targets = render_targets(&root, width, height, &mut budget)?;
    let depth_stencil = depth_buffer(&root, width, height, &mut budget)?;
    let targets = Targets {
        width,
        height,
        samples,
        quality,
        render_targets: render_targets.iter().map(|(r, f)| (r.clone(), *f)).collect(),
        depth_stencil: depth_stencil.clone(),
    };

    let top = Sections::read(&root, &mut files)?;
    let draw_nodes = match root.get("draws") {
        Some(draws) => draws.items()?.into_iter().map(Some).collect(),
        None => vec![None],
    };
    // the pixel program's UAVs (top level only): bound once for every draw, as the reference renderer binds them
    let uavs = match root.get("uavs") {
        Some(node) => views::uav_bindings(&node, &mut files)?,
        None => Vec::new(),
    };
    let mut draws = Vec::with_capacity(draw_nodes.len());
    let mut stream_buffers = StreamBuffers::default();
    for (index, node) in draw_nodes.iter().enumerate() {
        let label = match node {
            Some(_) => format!("draws[{index}]"),
            None => "draw".to_owned(),
        };
        let own = match node {
            Some(node) => {
                node.expect_object(DRAW_KEYS)?;
                Sections::read(node, &mut files)?
            }
            None => Sections::default(),
        };
        let sections = own.or(&top);
        let stream_output = match &sections.stream_output {
            Some(so) => Some(stream_output(so, &mut stream_buffers)?),
            None => None,
        };
        let mut draw = build_draw(label, sections, &targets, node.as_ref(), &root, &mut files)?;
        draw.stream_output = stream_output;
        draw.uavs = uavs.clone();
        // "draw_auto" (a draw's own key): DrawAuto with stream output's slot-0 buffer as vertex buffer 0
        if let Some(auto) = node.as_ref().and_then(|n| n.get("draw_auto")) {
            auto.expect_object(&["stride"])?;
            let stride = optional(&auto, "stride", |n| n.u32_at_most(2048))?.unwrap_or(0);
            let buffer =
                stream_buffers.by_slot.first().cloned().flatten().ok_or_else(|| {
                    auto.error("DrawAuto needs a stream-output buffer in slot 0 made by an earlier draw")
                })?;
            draw.stream_output = None;
            draw.draw_auto = Some(DrawAuto { buffer, stride });
        }
        draws.push(draw);
    }
    Ok(Description {
        width,
        height,
        sample_count: samples,
        render_targets: render_targets.into_iter().map(|(r, _)| r).collect(),
        depth_stencil: depth_stencil.map(|(r, _)| r),
        draws,
    })
}

/// The stream-output buffers of a description, made by slot from the first `"stream_output"` that names the slot
/// (the reference renderer keeps them across the draws).
#[derive(Default)]
struct StreamBuffers {
    by_slot: [Option<Arc<[u8]>>; 4],
    bytes: u64,
}

/// `"stream_output"`: the declaration, strides, rasterized stream (-1: none) and the buffers bound, `bytes` long and
/// filled with the 32-bit `"fill"` word when first made.
fn stream_output(node: &Node<'_>, made: &mut StreamBuffers) -> Result<StreamOutputState> {
    node.expect_object(&["entries", "strides", "rasterized_stream", "buffers"])?;
    let mut entries = Vec::new();
    if let Some(list) = node.get("entries") {
        for item in list.items_at_most(64)? {
            item.expect_object(&[
                "stream",
                "semantic",
                "index",
                "start_component",
                "component_count",
                "slot",
            ])?;
            let semantic = match item.get("semantic") {
                Some(n) if matches!(n.value, json::Value::Null) => None,
                Some(n) => Some((n.str()?.to_owned(), optional(&item, "index", Node::u32)?.unwrap_or(0))),
                None => None,
            };
            entries.push(StreamOutputEntry {
                stream: optional(&item, "stream", |n| n.u32_at_most(3))?.unwrap_or(0),
                semantic,
                start_component: optional(&item, "start_component", |n| n.u32_at_most(3))?.unwrap_or(0) as u8,
                component_count: optional(&item, "component_count", |n| n.u32_at_most(4))?.unwrap_or(4) as u8,
                slot: optional(&item, "slot", |n| n.u32_at_most(3))?.unwrap_or(0),
            });
        }
    }
    let mut strides = [0u32; 4];
    if let Some(list) = node.get("strides") {
        for (stride, item) in strides.iter_mut().zip(list.items_at_most(4)?) {
            *stride = item.u32_at_most(2048)?;
        }
    }
    let rasterized_stream = match node.get("rasterized_stream") {
        Some(n) => {
            let value = n.integer(-1, 3)?;
            u32::try_from(value).ok()
        }
        None => Some(0),
    };
    let mut targets: [Option<StreamOutputTarget>; 4] = Default::default();
    if let Some(list) = node.get("buffers") {
        for (index, item) in list.items_at_most(4)?.into_iter().enumerate() {
            item.expect_object(&["slot", "bytes", "offset", "fill"])?;
            let slot = slot_of(&item, index, 4)? as usize;
            let buffer = match made.by_slot.get(slot).cloned().flatten() {
                Some(buffer) => buffer,
                None => {
                    let bytes = optional(&item, "bytes", |n| n.u32_at_most(1 << 28))?.unwrap_or(0);
                    made.bytes = made.bytes.saturating_add(u64::from(bytes));
                    if made.bytes > MAX_TARGET_BYTES {
                        return Err(item.error(format!("the stream-output buffers pass {MAX_TARGET_BYTES} bytes")));
                    }
                    let fill = optional(&item, "fill", |n| match n.value {
                        json::Value::String(text) => text
                            .strip_prefix("0x")
                            .or_else(|| text.strip_prefix("0X"))
                            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                            .or_else(|| values::integer_text(text).and_then(|v| u32::try_from(v).ok()))
                            .ok_or_else(|| n.error("a 32-bit word (a number or \"0x\" and hex digits)")),
                        _ => n.u32(),
                    })?
                    .unwrap_or(0);
                    let words = fill.to_le_bytes();
                    let buffer: Arc<[u8]> = words
                        .iter()
                        .copied()
                        .cycle()
                        .take(usize::try_from(bytes).unwrap_or(0))
                        .collect::<Vec<u8>>()
                        .into();
                    if let Some(place) = made.by_slot.get_mut(slot) {
                        *place = Some(buffer.clone());
                    }
                    buffer
                }
            };
            // -1: append where the buffer's filled size stands (14.4)
            let offset = optional(&item, "offset", |n| {
                n.integer(-1, i128::from(u32::MAX.saturating_sub(1)))
            })?
            .unwrap_or(0);
            let offset = u32::try_from(offset).unwrap_or(STREAM_OUTPUT_APPEND);
            if let Some(target) = targets.get_mut(slot) {
                *target = Some(StreamOutputTarget { buffer, offset });
            }
        }
    }
    Ok(StreamOutputState {
        entries,
        strides,
        rasterized_stream,
        targets,
    })
}

/// `width` or `height`: 64 unless given, 1 to 16384.
fn side(root: &Node<'_>, key: &str) -> Result<u32> {
    match root.get(key) {
        Some(node) => {
            let value = node.u32_at_most(MAX_TEXTURE_SIDE)?;
            if value == 0 {
                return Err(node.error("a target side of 0"));
            }
            Ok(value)
        }
        None => Ok(64),
    }
}

/// `"sample_count"` (1, 2, 4, 8 or 16: the counts 19.2.4 gives sample positions for; 1 unless given) and
/// `"sample_quality"` (0, the standard pattern `0xFFFFFFFF` or the centre pattern `0xFFFFFFFE`; 0 unless given): the
/// `DXGI_SAMPLE_DESC` of every target of the description.
fn multisample(root: &Node<'_>) -> Result<(u32, u32)> {
    let count = match root.get("sample_count") {
        Some(node) => {
            let count = node.u32()?;
            if crate::raster::standard_pattern(count).is_none() {
                return Err(node.error(format!(
                    "{count} samples (1, 2, 4, 8 or 16: the counts with standard sample positions, 19.2.4)"
                )));
            }
            count
        }
        None => 1,
    };
    let quality = match root.get("sample_quality") {
        Some(node) => {
            let quality = node.u32()?;
            if !matches!(
                quality,
                0 | crate::raster::STANDARD_MULTISAMPLE_PATTERN | crate::raster::CENTER_MULTISAMPLE_PATTERN
            ) {
                return Err(node.error(format!(
                    "quality level {quality:#x} (0, 0xFFFFFFFF for the standard pattern or 0xFFFFFFFE for the centre \
                     one: 19.2.4)"
                )));
            }
            quality
        }
        None => 0,
    };
    Ok((count, quality))
}

/// The bytes the targets take so far, against [`MAX_TARGET_BYTES`], and the samples a texel of each.
#[derive(Default)]
struct TargetBudget {
    bytes: u64,
    samples: u32,
}

impl TargetBudget {
    /// Adds a `width` x `height` target of `format`, or an error naming `node` when the total passes the limit.
    fn take(&mut self, node: &Node<'_>, width: u32, height: u32, format: Format) -> Result<()> {
        let texel = format.info().layout.element_bytes().unwrap_or(0) as u64;
        let bytes = u64::from(width)
            .saturating_mul(u64::from(height))
            .saturating_mul(texel)
            .saturating_mul(u64::from(self.samples.max(1)));
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > MAX_TARGET_BYTES {
            return Err(node.error(format!(
                "the targets would take {} bytes, more than the {MAX_TARGET_BYTES} a description may ask for",
                self.bytes
            )));
        }
        Ok(())
    }
}

/// A texture of `width` x `height` texels of `format`, one mip, `slices` array slices, `samples` samples a texel
/// (planes, sample 0's first), every sample `texel`.
fn filled_texture(width: u32, height: u32, samples: u32, slices: u32, format: Format, texel: &[u8]) -> Result<Texture> {
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format,
        width,
        height,
        depth: 1,
        array_size: slices,
        mip_levels: 1,
        sample_count: samples.max(1),
    };
    // the size is within the description's target budget, checked before
    let count = usize::try_from(
        u64::from(width)
            .saturating_mul(u64::from(height))
            .saturating_mul(u64::from(samples.max(1))),
    )
    .unwrap_or(usize::MAX);
    let slice: Arc<[u8]> = texel.repeat(count).into();
    Texture::new(shape, vec![slice; usize::try_from(slices).unwrap_or(0)])
}

/// The render targets, each as a resource with its clear colour, and its format.
fn render_targets(
    root: &Node<'_>,
    width: u32,
    height: u32,
    budget: &mut TargetBudget,
) -> Result<Vec<(Arc<Resource>, Format)>> {
    let clear_color = match root.get("clear_color") {
        Some(node) => node.f32x4()?,
        None => [0.0; 4],
    };
    // (node, format, clear colour, array slices)
    let mut targets: Vec<(Node<'_>, Format, [f32; 4], u32)> = Vec::new();
    match (root.get("render_targets"), root.get("rt_format")) {
        (Some(_), Some(single)) => {
            return Err(single.error("give \"rt_format\" or \"render_targets\", not both"));
        }
        (Some(list), None) => {
            for item in list.items_at_most(RENDER_TARGET_SLOTS)? {
                let (format, clear, slices) = match item.value {
                    json::Value::Object(_) => {
                        item.expect_object(&["format", "clear", "array_size"])?;
                        let format = match item.get("format") {
                            Some(f) => f.format()?,
                            None => Format::R32G32B32A32Float,
                        };
                        let clear = match item.get("clear") {
                            Some(c) => c.f32x4()?,
                            None => clear_color,
                        };
                        let slices = optional(&item, "array_size", |n| n.u32_at_most(MAX_ARRAY_SIZE))?.unwrap_or(1);
                        if slices == 0 {
                            return Err(item.error("an array size of 0"));
                        }
                        (format, clear, slices)
                    }
                    _ => (item.format()?, clear_color, 1),
                };
                targets.push((item, format, clear, slices));
            }
        }
        (None, single) => {
            let format = match &single {
                Some(node) => node.format()?,
                None => Format::R32G32B32A32Float,
            };
            targets.push((single.unwrap_or_else(|| root.clone()), format, clear_color, 1));
        }
    }
    let mut out = Vec::with_capacity(targets.len());
    for (node, format, clear, slices) in targets {
        let texel = clear_texel(format, clear).map_err(|e| node.error(e.detail))?;
        for _ in 0..slices {
            budget.take(&node, width, height, format)?;
        }
        let texture =
            filled_texture(width, height, budget.samples, slices, format, &texel).map_err(|e| node.error(e.detail))?;
        out.push((Arc::new(Resource::Texture(texture)), format));
    }
    Ok(out)
}

/// One texel of a render target of `format` cleared to `color` (5.2.3.1): float formats take the colour through the
/// format's conversion (3.2); integer formats take each component rounded towards zero and clamped to the format's
/// range, NaN as 0 (`ClearRenderTargetView`'s documented rule for integer formats).
fn clear_texel(format: Format, color: [f32; 4]) -> Result<Vec<u8>> {
    let info = format.info();
    let allowed = matches!(
        info.kind,
        NumericKind::Unorm
            | NumericKind::Snorm
            | NumericKind::Uint
            | NumericKind::Sint
            | NumericKind::Float
            | NumericKind::Srgb
    ) && !format.is_block_compressed();
    let codec = TexelCodec::new(format)
        .ok()
        .filter(|c| allowed && c.block_size() == (1, 1));
    let Some(codec) = codec else {
        return Err(Error::new(WHAT, format!("{format} is not a render target format")));
    };
    let words = color.map(|c| match info.kind {
        // `as` rounds towards zero, saturates, and takes NaN to 0
        NumericKind::Uint => c as u32,
        NumericKind::Sint => (c as i32) as u32,
        _ => c.to_bits(),
    });
    let mut texel = vec![0u8; codec.element_bytes()];
    codec.encode(words, &mut texel)?;
    Ok(texel)
}

/// The depth-stencil buffer, if the top-level `"depth"` names a format, cleared to `"clear_depth"` and
/// `"clear_stencil"` (or `"depth"`'s `"clear"` and `"clear_stencil"`; 1.0 and 0 by default).
fn depth_buffer(
    root: &Node<'_>,
    width: u32,
    height: u32,
    budget: &mut TargetBudget,
) -> Result<Option<(Arc<Resource>, Format)>> {
    let depth = root.get("depth");
    let Some(format_node) = depth.as_ref().and_then(|d| d.get("format")) else {
        for key in ["clear_depth", "clear_stencil"] {
            if let Some(node) = root.get(key) {
                return Err(node.error("there is no depth buffer (\"depth\" has no \"format\")"));
            }
        }
        return Ok(None);
    };
    let format = format_node.format()?;
    if !matches!(
        format,
        Format::D32Float | Format::D24UnormS8Uint | Format::D16Unorm | Format::D32FloatS8X24Uint
    ) {
        return Err(format_node.error(format!(
            "{format} is not a depth format (D32_FLOAT, D24_UNORM_S8_UINT, D16_UNORM, D32_FLOAT_S8X24_UINT)"
        )));
    }
    let clear_depth_node = root
        .get("clear_depth")
        .or_else(|| depth.as_ref().and_then(|d| d.get("clear")));
    let clear_depth = match &clear_depth_node {
        Some(node) => {
            let value = node.f32()?;
            // 5.2.3.1: a clear depth outside the viewport range [0, 1] never reaches the driver
            if !(0.0..=1.0).contains(&value) {
                return Err(node.error(format!("a clear depth of {value}, outside 0..=1")));
            }
            value
        }
        None => 1.0,
    };
    let clear_stencil_node = root
        .get("clear_stencil")
        .or_else(|| depth.as_ref().and_then(|d| d.get("clear_stencil")));
    let clear_stencil = match &clear_stencil_node {
        Some(node) => node.u32_at_most(255)? as u8,
        None => 0,
    };
    budget.take(&format_node, width, height, format)?;
    let mut texel = vec![0u8; format.info().layout.element_bytes().unwrap_or(0)];
    encode_depth(format, clear_depth, &mut texel)?;
    if format.info().kind == NumericKind::DepthStencil {
        encode_stencil(format, clear_stencil, &mut texel)?;
    }
    let texture = filled_texture(width, height, budget.samples, 1, format, &texel)?;
    Ok(Some((Arc::new(Resource::Texture(texture)), format)))
}

/// The targets every draw writes.
struct Targets {
    width: u32,
    height: u32,
    samples: u32,
    quality: u32,
    render_targets: Vec<(Arc<Resource>, Format)>,
    depth_stencil: Option<(Arc<Resource>, Format)>,
}

/// A vertex buffer as given: the binding and the data's length before padding.
#[derive(Clone)]
struct GivenVertexBuffer {
    binding: VertexBufferBinding,
    data_len: usize,
}

/// The values of the keys a draw may override, read from one object (the top level or a draw); `None` where the
/// object does not give the key. `indices` and `depth` stay unread: they depend on `index_format` and on the depth
/// buffer, which may come from elsewhere.
#[derive(Clone, Default)]
struct Sections<'a> {
    vs: Option<Arc<[u8]>>,
    ps: Option<Arc<[u8]>>,
    gs: Option<Arc<[u8]>>,
    gs_cbuffers: Option<Vec<(u32, ConstantBufferBinding)>>,
    hs: Option<Arc<[u8]>>,
    hs_cbuffers: Option<Vec<(u32, ConstantBufferBinding)>>,
    ds: Option<Arc<[u8]>>,
    ds_cbuffers: Option<Vec<(u32, ConstantBufferBinding)>>,
    stream_output: Option<Node<'a>>,
    input_layout: Option<Vec<InputElementDesc>>,
    vertex_buffers: Option<Vec<GivenVertexBuffer>>,
    indices: Option<Node<'a>>,
    index_format: Option<IndexFormat>,
    topology: Option<PrimitiveTopology>,
    index_count: Option<u32>,
    start_index: Option<u32>,
    base_vertex: Option<i32>,
    vertex_count: Option<u32>,
    start_vertex: Option<u32>,
    instance_count: Option<u32>,
    start_instance: Option<u32>,
    vs_cbuffers: Option<Vec<(u32, ConstantBufferBinding)>>,
    ps_cbuffers: Option<Vec<(u32, ConstantBufferBinding)>>,
    vs_textures: Option<Vec<(u32, ShaderResourceView)>>,
    ps_textures: Option<Vec<(u32, ShaderResourceView)>>,
    vs_samplers: Option<Vec<(u32, SamplerDesc)>>,
    ps_samplers: Option<Vec<(u32, SamplerDesc)>>,
    viewport: Option<Node<'a>>,
    viewports: Option<Node<'a>>,
    scissor: Option<Scissor>,
    scissors: Option<Vec<Scissor>>,
    rasterizer: Option<RasterizerDesc>,
    depth: Option<Node<'a>>,
    blend: Option<(BlendDesc, [f32; 4], u32)>,
}

impl<'a> Sections<'a> {
    /// The overridable keys of `node`.
    fn read(node: &Node<'a>, files: &mut Files<'_>) -> Result<Self> {
        Ok(Self {
            vs: optional(node, "vs", |n| files.file(n))?,
            ps: optional(node, "ps", |n| files.file(n))?,
            gs: optional(node, "gs", |n| files.file(n))?,
            gs_cbuffers: optional(node, "gs_cbuffers", |n| constant_buffers(n, files))?,
            hs: optional(node, "hs", |n| files.file(n))?,
            hs_cbuffers: optional(node, "hs_cbuffers", |n| constant_buffers(n, files))?,
            ds: optional(node, "ds", |n| files.file(n))?,
            ds_cbuffers: optional(node, "ds_cbuffers", |n| constant_buffers(n, files))?,
            stream_output: node.get("stream_output"),
            input_layout: optional(node, "input_layout", input_layout)?,
            vertex_buffers: optional(node, "vertex_buffers", |n| vertex_buffers(n, files))?,
            indices: node.get("indices"),
            index_format: optional(node, "index_format", |n| {
                IndexFormat::from_format(n.format()?).map_err(|e| n.error(e.detail))
            })?,
            topology: optional(node, "topology", |n| n.api_enum())?,
            index_count: optional(node, "index_count", Node::u32)?,
            start_index: optional(node, "start_index", Node::u32)?,
            base_vertex: optional(node, "base_vertex", Node::i32)?,
            vertex_count: optional(node, "vertex_count", Node::u32)?,
            start_vertex: optional(node, "start_vertex", Node::u32)?,
            instance_count: optional(node, "instance_count", Node::u32)?,
            start_instance: optional(node, "start_instance", Node::u32)?,
            vs_cbuffers: optional(node, "vs_cbuffers", |n| constant_buffers(n, files))?,
            ps_cbuffers: optional(node, "ps_cbuffers", |n| constant_buffers(n, files))?,
            vs_textures: optional(node, "vs_textures", |n| textures(n, files))?,
            ps_textures: optional(node, "ps_textures", |n| textures(n, files))?,
            vs_samplers: optional(node, "vs_samplers", samplers)?,
            ps_samplers: optional(node, "ps_samplers", samplers)?,
            viewport: node.get("viewport"),
            viewports: node.get("viewports"),
            scissor: optional(node, "scissor", scissor)?,
            scissors: optional(node, "scissors", scissors)?,
            rasterizer: optional(node, "rasterizer", rasterizer)?,
            depth: node.get("depth"),
            blend: optional(node, "blend", blend)?,
        })
    }

    /// These values, each missing one taken from `fallback`.
    fn or(self, fallback: &Self) -> Self {
        fn pick<T: Clone>(own: Option<T>, fallback: &Option<T>) -> Option<T> {
            own.or_else(|| fallback.clone())
        }
        Self {
            vs: pick(self.vs, &fallback.vs),
            ps: pick(self.ps, &fallback.ps),
            gs: pick(self.gs, &fallback.gs),
            gs_cbuffers: pick(self.gs_cbuffers, &fallback.gs_cbuffers),
            hs: pick(self.hs, &fallback.hs),
            hs_cbuffers: pick(self.hs_cbuffers, &fallback.hs_cbuffers),
            ds: pick(self.ds, &fallback.ds),
            ds_cbuffers: pick(self.ds_cbuffers, &fallback.ds_cbuffers),
            stream_output: pick(self.stream_output, &fallback.stream_output),
            input_layout: pick(self.input_layout, &fallback.input_layout),
            vertex_buffers: pick(self.vertex_buffers, &fallback.vertex_buffers),
            indices: pick(self.indices, &fallback.indices),
            index_format: pick(self.index_format, &fallback.index_format),
            topology: pick(self.topology, &fallback.topology),
            index_count: pick(self.index_count, &fallback.index_count),
            start_index: pick(self.start_index, &fallback.start_index),
            base_vertex: pick(self.base_vertex, &fallback.base_vertex),
            vertex_count: pick(self.vertex_count, &fallback.vertex_count),
            start_vertex: pick(self.start_vertex, &fallback.start_vertex),
            instance_count: pick(self.instance_count, &fallback.instance_count),
            start_instance: pick(self.start_instance, &fallback.start_instance),
            vs_cbuffers: pick(self.vs_cbuffers, &fallback.vs_cbuffers),
            ps_cbuffers: pick(self.ps_cbuffers, &fallback.ps_cbuffers),
            vs_textures: pick(self.vs_textures, &fallback.vs_textures),
            ps_textures: pick(self.ps_textures, &fallback.ps_textures),
            vs_samplers: pick(self.vs_samplers, &fallback.vs_samplers),
            ps_samplers: pick(self.ps_samplers, &fallback.ps_samplers),
            viewport: pick(self.viewport, &fallback.viewport),
            viewports: pick(self.viewports, &fallback.viewports),
            scissor: pick(self.scissor, &fallback.scissor),
            scissors: pick(self.scissors, &fallback.scissors),
            rasterizer: pick(self.rasterizer, &fallback.rasterizer),
            depth: pick(self.depth, &fallback.depth),
            blend: pick(self.blend, &fallback.blend),
        }
    }
}

/// `"input_layout"`: the elements; an element without `"offset"` is `D3D11_APPEND_ALIGNED_ELEMENT`, and it is
/// per-instance when `"per_instance"` says so or, without it, when `"instance_step"` is above 0.
fn input_layout(node: &Node<'_>) -> Result<Vec<InputElementDesc>> {
    let mut elements = Vec::new();
    for item in node.items_at_most(INPUT_ELEMENTS)? {
        item.expect_object(&[
            "semantic",
            "index",
            "format",
            "slot",
            "offset",
            "instance_step",
            "per_instance",
        ])?;
        let format = match item.get("format") {
            Some(f) => f.format()?,
            None => return Err(item.error("an input element needs a \"format\"")),
        };
        let step = optional(&item, "instance_step", Node::u32)?.unwrap_or(0);
        let per_instance = match item.get("per_instance") {
            Some(p) => p.bool()?,
            None => step > 0,
        };
        elements.push(InputElementDesc {
            semantic_name: match item.get("semantic") {
                Some(s) => s.str()?.to_owned(),
                None => "POSITION".to_owned(),
            },
            semantic_index: optional(&item, "index", Node::u32)?.unwrap_or(0),
            format,
            input_slot: optional(&item, "slot", Node::u32)?.unwrap_or(0),
            aligned_byte_offset: optional(&item, "offset", Node::u32)?.unwrap_or(APPEND_ALIGNED_ELEMENT),
            input_slot_class: if per_instance {
                InputClassification::PerInstanceData
            } else {
                InputClassification::PerVertexData
            },
            instance_data_step_rate: step,
        });
    }
    Ok(elements)
}

/// `"vertex_buffers"`: buffer k in slot k, its data padded with zeros to a multiple of 4 bytes.
fn vertex_buffers(node: &Node<'_>, files: &mut Files<'_>) -> Result<Vec<GivenVertexBuffer>> {
    let mut out = Vec::new();
    for item in node.items_at_most(VERTEX_BUFFER_SLOTS)? {
        let mut keys = vec!["stride", "offset"];
        keys.extend(DATA_KEYS);
        item.expect_object(&keys)?;
        let (bytes, data_len) = padded_data(&item, files, 4)?;
        out.push(GivenVertexBuffer {
            binding: VertexBufferBinding {
                data: bytes.into(),
                stride: optional(&item, "stride", Node::u32)?.unwrap_or(0),
                offset: optional(&item, "offset", Node::u32)?.unwrap_or(0),
            },
            data_len,
        });
    }
    Ok(out)
}

/// `"vs_cbuffers"`/`"ps_cbuffers"`: each buffer's data padded to 16 bytes, in `"slot"` (or its place). Iridia adds
/// `"first_constant"` and `"num_constants"` for a `*SetConstantBuffers1` window.
fn constant_buffers(node: &Node<'_>, files: &mut Files<'_>) -> Result<Vec<(u32, ConstantBufferBinding)>> {
    let mut out = Vec::new();
    for (index, item) in node.items()?.into_iter().enumerate() {
        let mut keys = vec!["slot", "first_constant", "num_constants"];
        keys.extend(DATA_KEYS);
        item.expect_object(&keys)?;
        let slot = slot_of(&item, index, CONSTANT_BUFFER_SLOTS)?;
        let (bytes, _) = padded_data(&item, files, 16)?;
        let mut binding = ConstantBufferBinding::whole(bytes.into());
        if let Some(first) = optional(&item, "first_constant", Node::u32)? {
            binding.first_constant = first;
        }
        if let Some(count) = optional(&item, "num_constants", Node::u32)? {
            binding.num_constants = count;
        }
        out.push((slot, binding));
    }
    Ok(out)
}

/// `"vs_textures"`/`"ps_textures"`: 2D textures (arrays when `"array_size"` is above 1), each seen through its
/// default shader resource view. A subresource's data must cover its mip (rows packed); bytes past it are ignored.
fn textures(node: &Node<'_>, files: &mut Files<'_>) -> Result<Vec<(u32, ShaderResourceView)>> {
    let mut out = Vec::new();
    for (index, item) in node.items()?.into_iter().enumerate() {
        item.expect_object(&[
            "slot",
            "format",
            "width",
            "height",
            "mip_levels",
            "array_size",
            "subresources",
        ])?;
        let slot = slot_of(&item, index, SHADER_RESOURCE_SLOTS)?;
        let format = match item.get("format") {
            Some(f) => f.format()?,
            None => Format::R32G32B32A32Float,
        };
        if format.info().kind == NumericKind::Typeless || TexelCodec::new(format).is_err() {
            return Err(item.error(format!("{format} cannot be read through a default view")));
        }
        let shape = TextureShape {
            dimension: ResourceDimension::Texture2D,
            format,
            width: optional(&item, "width", |n| n.u32_at_most(MAX_TEXTURE_SIDE))?.unwrap_or(1),
            height: optional(&item, "height", |n| n.u32_at_most(MAX_TEXTURE_SIDE))?.unwrap_or(1),
            depth: 1,
            array_size: optional(&item, "array_size", |n| n.u32_at_most(MAX_ARRAY_SIZE))?.unwrap_or(1),
            mip_levels: optional(&item, "mip_levels", Node::u32)?.unwrap_or(1),
            sample_count: 1,
        };
        shape.validate().map_err(|e| item.error(e.detail))?;
        let Some(subresources_node) = item.get("subresources") else {
            return Err(item.error("a texture needs \"subresources\""));
        };
        let given = subresources_node.items()?;
        if u64::try_from(given.len()).ok() != Some(shape.subresource_count()) {
            return Err(subresources_node.error(format!(
                "{} subresources given, and {} mip levels x {} slices need {}",
                given.len(),
                shape.mip_levels,
                shape.array_size,
                shape.subresource_count()
            )));
        }
        let mut subresources = Vec::with_capacity(given.len());
        for (number, sub) in given.iter().enumerate() {
            sub.expect_object(&DATA_KEYS)?;
            let mip = u32::try_from(number)
                .unwrap_or(0)
                .checked_rem(shape.mip_levels)
                .unwrap_or(0);
            let needed = shape.mip_layout(mip).map_err(|e| sub.error(e.detail))?.bytes;
            let mut bytes = data::data(sub, files)?;
            if (bytes.len() as u64) < needed {
                return Err(sub.error(format!(
                    "{} bytes, and mip {mip} ({}x{} of {format}) needs {needed}",
                    bytes.len(),
                    shape.mip_size(mip)[0],
                    shape.mip_size(mip)[1]
                )));
            }
            bytes.truncate(usize::try_from(needed).unwrap_or(usize::MAX));
            subresources.push(bytes.into());
        }
        let texture = Texture::new(shape, subresources).map_err(|e| item.error(e.detail))?;
        let desc = ShaderResourceViewDesc {
            format,
            dimension: if shape.array_size > 1 {
                SrvDimension::Texture2DArray
            } else {
                SrvDimension::Texture2D
            },
            most_detailed_mip: 0,
            mip_levels: shape.mip_levels,
            first_array_slice: 0,
            array_size: shape.array_size,
            ..ShaderResourceViewDesc::default()
        };
        out.push((
            slot,
            ShaderResourceView {
                resource: Arc::new(Resource::Texture(texture)),
                desc,
            },
        ));
    }
    Ok(out)
}

/// `"vs_samplers"`/`"ps_samplers"`: sampler states. Unset fields are the reference renderer's: filter
/// `MIN_MAG_MIP_POINT`, addressing `CLAMP`, bias 0, anisotropy 1, comparison `NEVER`, border colour 0, LOD range
/// `-FLT_MAX..=FLT_MAX`.
fn samplers(node: &Node<'_>) -> Result<Vec<(u32, SamplerDesc)>> {
    let mut out = Vec::new();
    for (index, item) in node.items()?.into_iter().enumerate() {
        item.expect_object(&[
            "slot",
            "filter",
            "address_u",
            "address_v",
            "address_w",
            "mip_lod_bias",
            "max_anisotropy",
            "comparison",
            "border_color",
            "min_lod",
            "max_lod",
        ])?;
        let slot = slot_of(&item, index, SAMPLER_SLOTS)?;
        let mut desc = SamplerDesc {
            filter: crate::api::enums::Filter::MinMagMipPoint,
            border_color: [0.0; 4],
            ..SamplerDesc::default()
        };
        if let Some(v) = optional(&item, "filter", |n| n.api_enum())? {
            desc.filter = v;
        }
        if let Some(v) = optional(&item, "address_u", |n| n.api_enum())? {
            desc.address_u = v;
        }
        if let Some(v) = optional(&item, "address_v", |n| n.api_enum())? {
            desc.address_v = v;
        }
        if let Some(v) = optional(&item, "address_w", |n| n.api_enum())? {
            desc.address_w = v;
        }
        if let Some(v) = optional(&item, "mip_lod_bias", Node::f32)? {
            desc.mip_lod_bias = v;
        }
        if let Some(v) = optional(&item, "max_anisotropy", |n| n.u32_at_most(16))? {
            desc.max_anisotropy = v;
        }
        if let Some(v) = optional(&item, "comparison", |n| n.api_enum())? {
            desc.comparison = v;
        }
        if let Some(v) = optional(&item, "border_color", Node::f32x4)? {
            desc.border_color = v;
        }
        if let Some(v) = optional(&item, "min_lod", Node::f32)? {
            desc.min_lod = v;
        }
        if let Some(v) = optional(&item, "max_lod", Node::f32)? {
            desc.max_lod = v;
        }
        out.push((slot, desc));
    }
    Ok(out)
}

/// `"viewport"`: `x`, `y`, `w`, `h`, `min_depth`, `max_depth`; the whole target and depths 0 to 1 by default.
fn viewport(node: Option<&Node<'_>>, width: u32, height: u32) -> Result<Viewport> {
    let mut viewport = Viewport {
        x: 0.0,
        y: 0.0,
        width: width as f32,
        height: height as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    let Some(node) = node else {
        return Ok(viewport);
    };
    node.expect_object(&["x", "y", "w", "h", "min_depth", "max_depth"])?;
    for (key, place) in [
        ("x", &mut viewport.x),
        ("y", &mut viewport.y),
        ("w", &mut viewport.width),
        ("h", &mut viewport.height),
        ("min_depth", &mut viewport.min_depth),
        ("max_depth", &mut viewport.max_depth),
    ] {
        if let Some(v) = optional(node, key, Node::f32)? {
            *place = v;
        }
    }
    Ok(viewport)
}

/// `"scissor"`: `[left, top, right, bottom]`.
fn scissor(node: &Node<'_>) -> Result<Scissor> {
    let items = node.items()?;
    let [left, top, right, bottom] = items.as_slice() else {
        return Err(node.error(format!(
            "expected [left, top, right, bottom], found {} items",
            items.len()
        )));
    };
    Ok(Scissor {
        left: left.i32()?,
        top: top.i32()?,
        right: right.i32()?,
        bottom: bottom.i32()?,
    })
}

/// The array slices of a description's target.
fn slices_of(resource: &Resource) -> u32 {
    match resource {
        Resource::Texture(texture) => texture.shape.array_size,
        Resource::Buffer(_) => 1,
    }
}

/// `"scissors"`: several scissor rectangles, each `[left, top, right, bottom]`, in viewport-index order (15.8.1).
fn scissors(node: &Node<'_>) -> Result<Vec<Scissor>> {
    node.items_at_most(VIEWPORT_SLOTS)?.iter().map(scissor).collect()
}

/// `"rasterizer"`: D3D11's rasterizer state; `ScissorEnable` comes from `"scissor"` (or `"scissors"`) instead.
fn rasterizer(node: &Node<'_>) -> Result<RasterizerDesc> {
    node.expect_object(&[
        "fill",
        "cull",
        "front_ccw",
        "depth_bias",
        "depth_bias_clamp",
        "slope_scaled_depth_bias",
        "depth_clip",
        "multisample",
        "antialiased_line",
        "forced_sample_count",
    ])?;
    let mut desc = RasterizerDesc::default();
    if let Some(v) = optional(node, "fill", |n| n.api_enum())? {
        desc.fill_mode = v;
    }
    if let Some(v) = optional(node, "cull", |n| n.api_enum())? {
        desc.cull_mode = v;
    }
    if let Some(v) = optional(node, "front_ccw", Node::bool)? {
        desc.front_counter_clockwise = v;
    }
    if let Some(v) = optional(node, "depth_bias", Node::i32)? {
        desc.depth_bias = v;
    }
    if let Some(v) = optional(node, "depth_bias_clamp", Node::f32)? {
        desc.depth_bias_clamp = v;
    }
    if let Some(v) = optional(node, "slope_scaled_depth_bias", Node::f32)? {
        desc.slope_scaled_depth_bias = v;
    }
    if let Some(v) = optional(node, "depth_clip", Node::bool)? {
        desc.depth_clip_enable = v;
    }
    if let Some(v) = optional(node, "multisample", Node::bool)? {
        desc.multisample_enable = v;
    }
    if let Some(v) = optional(node, "antialiased_line", Node::bool)? {
        desc.antialiased_line_enable = v;
    }
    if let Some(v) = optional(node, "forced_sample_count", Node::u32)? {
        desc.forced_sample_count = v;
    }
    Ok(desc)
}

/// `"depth"`'s state: the depth and stencil tests (on only when there is a depth buffer) and the stencil reference.
fn depth_state(node: Option<&Node<'_>>, has_buffer: bool) -> Result<(DepthStencilDesc, u32)> {
    let mut desc = DepthStencilDesc {
        depth_enable: has_buffer,
        ..DepthStencilDesc::default()
    };
    let Some(node) = node else {
        return Ok((desc, 0));
    };
    node.expect_object(&[
        "format",
        "enable",
        "write",
        "func",
        "stencil_enable",
        "stencil_read_mask",
        "stencil_write_mask",
        "stencil_ref",
        "stencil_front",
        "stencil_back",
        "clear",
        "clear_stencil",
    ])?;
    desc.depth_enable = has_buffer && optional(node, "enable", Node::bool)?.unwrap_or(true);
    if let Some(write) = optional(node, "write", Node::bool)? {
        desc.depth_write_mask = if write {
            DepthWriteMask::All
        } else {
            DepthWriteMask::Zero
        };
    }
    if let Some(v) = optional(node, "func", |n| n.api_enum())? {
        desc.depth_func = v;
    }
    desc.stencil_enable = has_buffer && optional(node, "stencil_enable", Node::bool)?.unwrap_or(false);
    if let Some(v) = optional(node, "stencil_read_mask", |n| n.u32_at_most(255))? {
        desc.stencil_read_mask = v as u8;
    }
    if let Some(v) = optional(node, "stencil_write_mask", |n| n.u32_at_most(255))? {
        desc.stencil_write_mask = v as u8;
    }
    for (key, face) in [
        ("stencil_front", &mut desc.front_face),
        ("stencil_back", &mut desc.back_face),
    ] {
        if let Some(f) = node.get(key) {
            *face = stencil_face(&f)?;
        }
    }
    let stencil_ref = optional(node, "stencil_ref", Node::u32)?.unwrap_or(0);
    Ok((desc, stencil_ref))
}

/// A stencil face: `fail`, `depth_fail`, `pass` (`KEEP` by default) and `func` (`ALWAYS`).
fn stencil_face(node: &Node<'_>) -> Result<StencilFaceDesc> {
    node.expect_object(&["fail", "depth_fail", "pass", "func"])?;
    let mut face = StencilFaceDesc::default();
    if let Some(v) = optional(node, "fail", |n| n.api_enum())? {
        face.fail = v;
    }
    if let Some(v) = optional(node, "depth_fail", |n| n.api_enum())? {
        face.depth_fail = v;
    }
    if let Some(v) = optional(node, "pass", |n| n.api_enum())? {
        face.pass = v;
    }
    if let Some(v) = optional(node, "func", |n| n.api_enum())? {
        face.func = v;
    }
    Ok(face)
}

/// `"blend"`: the blend state, the blend factor and the sample mask.
fn blend(node: &Node<'_>) -> Result<(BlendDesc, [f32; 4], u32)> {
    node.expect_object(&["alpha_to_coverage", "independent", "targets", "factor", "sample_mask"])?;
    let mut desc = BlendDesc::default();
    if let Some(v) = optional(node, "alpha_to_coverage", Node::bool)? {
        desc.alpha_to_coverage_enable = v;
    }
    if let Some(v) = optional(node, "independent", Node::bool)? {
        desc.independent_blend_enable = v;
    }
    if let Some(targets) = node.get("targets") {
        for (target, item) in desc
            .render_target
            .iter_mut()
            .zip(targets.items_at_most(RENDER_TARGET_SLOTS)?)
        {
            *target = blend_target(&item)?;
        }
    }
    let factor = optional(node, "factor", Node::f32x4)?.unwrap_or([1.0; 4]);
    let sample_mask = optional(node, "sample_mask", Node::u32)?.unwrap_or(u32::MAX);
    Ok((desc, factor, sample_mask))
}

/// One target's blending: `enable`, `src`, `dest`, `op`, `src_alpha`, `dest_alpha`, `op_alpha`, `write_mask`.
fn blend_target(node: &Node<'_>) -> Result<RenderTargetBlendDesc> {
    node.expect_object(&[
        "enable",
        "src",
        "dest",
        "op",
        "src_alpha",
        "dest_alpha",
        "op_alpha",
        "write_mask",
    ])?;
    let mut desc = RenderTargetBlendDesc::default();
    if let Some(v) = optional(node, "enable", Node::bool)? {
        desc.blend_enable = v;
    }
    if let Some(v) = optional(node, "src", |n| n.api_enum())? {
        desc.src_blend = v;
    }
    if let Some(v) = optional(node, "dest", |n| n.api_enum())? {
        desc.dest_blend = v;
    }
    if let Some(v) = optional(node, "op", |n| n.api_enum())? {
        desc.blend_op = v;
    }
    if let Some(v) = optional(node, "src_alpha", |n| n.api_enum())? {
        desc.src_blend_alpha = v;
    }
    if let Some(v) = optional(node, "dest_alpha", |n| n.api_enum())? {
        desc.dest_blend_alpha = v;
    }
    if let Some(v) = optional(node, "op_alpha", |n| n.api_enum())? {
        desc.blend_op_alpha = v;
    }
    if let Some(v) = optional(node, "write_mask", |n| n.u32_at_most(15))? {
        desc.render_target_write_mask = v as u8;
    }
    Ok(desc)
}

/// The index buffer of `indices`: a plain array of index values of `format`, or a data object. Its data is padded
/// to a multiple of 4 bytes; the index count (unless given) is the number of indices written, padding not counted.
fn index_buffer(node: &Node<'_>, format: IndexFormat, files: &mut Files<'_>) -> Result<(IndexBufferBinding, u32)> {
    let (mut bytes, count) = match node.value {
        json::Value::Array(_) => {
            let items = node.items()?;
            let mut bytes = Vec::with_capacity(items.len().saturating_mul(4));
            for item in &items {
                let value = item.integer(0, i128::from(format.cut_value()))?;
                let value = u32::try_from(value).map_err(|_| item.error("not an index"))?;
                match format {
                    IndexFormat::R16Uint => bytes.extend_from_slice(&(value as u16).to_le_bytes()),
                    IndexFormat::R32Uint => bytes.extend_from_slice(&value.to_le_bytes()),
                }
            }
            (bytes, items.len())
        }
        _ => {
            node.expect_object(&DATA_KEYS)?;
            let bytes = data::data(node, files)?;
            let count = bytes.len().checked_div(format.bytes() as usize).unwrap_or(0);
            (bytes, count)
        }
    };
    let padded = bytes.len().max(1).next_multiple_of(4);
    bytes.resize(padded, 0);
    let count = u32::try_from(count).map_err(|_| node.error("more than 2^32 indices"))?;
    Ok((
        IndexBufferBinding {
            data: bytes.into(),
            format,
            offset: 0,
        },
        count,
    ))
}

/// One draw's state from its sections (the draw's own keys over the top level's).
fn build_draw(
    label: String,
    sections: Sections<'_>,
    targets: &Targets,
    draw_node: Option<&Node<'_>>,
    root: &Node<'_>,
    files: &mut Files<'_>,
) -> Result<DrawState> {
    // a key's node: the draw's own if it sets it, else the top level's (for error paths)
    let source = |key: &str| draw_node.and_then(|d| d.get(key)).or_else(|| root.get(key));
    let Some(vs) = sections.vs.clone() else {
        let at = draw_node.map_or(String::from("the top level"), |d| d.path.clone());
        return Err(Error::new(WHAT, "no vertex shader (\"vs\")").at(at));
    };

    let vertex_buffers = sections.vertex_buffers.clone().unwrap_or_default();
    let instance_count = sections.instance_count.unwrap_or(0);
    let start_instance = sections.start_instance.unwrap_or(0);
    let (index_buffer, call) = match &sections.indices {
        Some(indices) => {
            let format = sections.index_format.unwrap_or(IndexFormat::R32Uint);
            let (binding, given_count) = index_buffer(indices, format, files)?;
            let index_count = sections.index_count.unwrap_or(given_count);
            let start_index = sections.start_index.unwrap_or(0);
            let base_vertex = sections.base_vertex.unwrap_or(0);
            let call = if instance_count > 0 {
                DrawCall::DrawIndexedInstanced {
                    index_count_per_instance: index_count,
                    instance_count,
                    start_index,
                    base_vertex,
                    start_instance,
                }
            } else {
                DrawCall::DrawIndexed {
                    index_count,
                    start_index,
                    base_vertex,
                }
            };
            (Some(binding), call)
        }
        None => {
            // the reference renderer's default: every whole vertex of buffer 0
            let vertex_count = sections.vertex_count.unwrap_or_else(|| {
                vertex_buffers
                    .first()
                    .and_then(|b| (b.data_len as u64).checked_div(u64::from(b.binding.stride)))
                    .and_then(|n| u32::try_from(n).ok())
                    .unwrap_or(0)
            });
            let start_vertex = sections.start_vertex.unwrap_or(0);
            let call = if instance_count > 0 {
                DrawCall::DrawInstanced {
                    vertex_count_per_instance: vertex_count,
                    instance_count,
                    start_vertex,
                    start_instance,
                }
            } else {
                DrawCall::Draw {
                    vertex_count,
                    start_vertex,
                }
            };
            (None, call)
        }
    };

    let mut draw = DrawState::new(label, vs, call);
    draw.pixel_shader = sections.ps.clone();
    draw.geometry_shader = sections.gs.clone();
    draw.hull_shader = sections.hs.clone();
    draw.hs.constant_buffers = bind_all(
        source("hs_cbuffers"),
        sections.hs_cbuffers.clone().unwrap_or_default(),
        CONSTANT_BUFFER_SLOTS,
    )?;
    draw.domain_shader = sections.ds.clone();
    draw.ds.constant_buffers = bind_all(
        source("ds_cbuffers"),
        sections.ds_cbuffers.clone().unwrap_or_default(),
        CONSTANT_BUFFER_SLOTS,
    )?;
    draw.gs.constant_buffers = bind_all(
        source("gs_cbuffers"),
        sections.gs_cbuffers.clone().unwrap_or_default(),
        CONSTANT_BUFFER_SLOTS,
    )?;
    draw.input_layout = sections.input_layout.clone().unwrap_or_default();
    draw.vertex_buffers = vertex_buffers.into_iter().map(|b| Some(b.binding)).collect();
    draw.index_buffer = index_buffer;
    draw.topology = sections.topology.unwrap_or(PrimitiveTopology::TriangleList);
    draw.vs = StageBindings {
        constant_buffers: bind_all(
            source("vs_cbuffers"),
            sections.vs_cbuffers.clone().unwrap_or_default(),
            CONSTANT_BUFFER_SLOTS,
        )?,
        shader_resources: bind_all(
            source("vs_textures"),
            sections.vs_textures.clone().unwrap_or_default(),
            SHADER_RESOURCE_SLOTS,
        )?,
        samplers: bind_all(
            source("vs_samplers"),
            sections.vs_samplers.clone().unwrap_or_default(),
            SAMPLER_SLOTS,
        )?,
    };
    draw.ps = StageBindings {
        constant_buffers: bind_all(
            source("ps_cbuffers"),
            sections.ps_cbuffers.clone().unwrap_or_default(),
            CONSTANT_BUFFER_SLOTS,
        )?,
        shader_resources: bind_all(
            source("ps_textures"),
            sections.ps_textures.clone().unwrap_or_default(),
            SHADER_RESOURCE_SLOTS,
        )?,
        samplers: bind_all(
            source("ps_samplers"),
            sections.ps_samplers.clone().unwrap_or_default(),
            SAMPLER_SLOTS,
        )?,
    };
    draw.rasterizer = sections.rasterizer.unwrap_or_default();
    draw.rasterizer.scissor_enable = sections.scissor.is_some() || sections.scissors.is_some();
    let (depth_stencil, stencil_ref) = depth_state(sections.depth.as_ref(), targets.depth_stencil.is_some())?;
    draw.depth_stencil = depth_stencil;
    draw.stencil_ref = stencil_ref;
    let (blend, factor, sample_mask) = sections.blend.unwrap_or((BlendDesc::default(), [1.0; 4], u32::MAX));
    draw.blend = blend;
    draw.blend_factor = factor;
    draw.sample_mask = sample_mask;
    draw.sample_quality = targets.quality;
    draw.viewports = match &sections.viewports {
        Some(list) => list
            .items_at_most(VIEWPORT_SLOTS)?
            .iter()
            .map(|item| viewport(Some(item), targets.width, targets.height))
            .collect::<Result<_>>()?,
        None => vec![viewport(sections.viewport.as_ref(), targets.width, targets.height)?],
    };
    draw.scissor_rects = match sections.scissors {
        Some(list) => list,
        None => sections.scissor.into_iter().collect(),
    };
    draw.render_targets = targets
        .render_targets
        .iter()
        .map(|(resource, format)| {
            Some(RenderTargetView {
                resource: resource.clone(),
                desc: RenderTargetViewDesc {
                    format: *format,
                    // an array target's view covers every slice
                    dimension: match (targets.samples > 1, slices_of(resource) > 1) {
                        (true, true) => RtvDimension::Texture2DMsArray,
                        (true, false) => RtvDimension::Texture2DMs,
                        (false, true) => RtvDimension::Texture2DArray,
                        (false, false) => RtvDimension::Texture2D,
                    },
                    array_size: slices_of(resource),
                    ..RenderTargetViewDesc::default()
                },
            })
        })
        .collect();
    draw.depth_stencil_view = targets
        .depth_stencil
        .as_ref()
        .map(|(resource, format)| DepthStencilView {
            resource: resource.clone(),
            desc: DepthStencilViewDesc {
                format: *format,
                dimension: if targets.samples > 1 {
                    DsvDimension::Texture2DMs
                } else {
                    DsvDimension::Texture2D
                },
                ..DepthStencilViewDesc::default()
            },
        });
    Ok(draw)
}
