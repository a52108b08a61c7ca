//! Between the pipeline's types ([`DrawState`](crate::api::draw::DrawState) and the state it holds) and the manifest's ([`super::manifest`]):
//! field-for-field conversions of the small state, the surface a target view writes, and the checks that make a
//! draw entry consistent (every blob present with its size, texture subresources and target surfaces the sizes
//! their shapes give, slots within D3D11's limits and bound once).

use super::manifest::{
    BlendEntry, BlobId, BlobRef, CallEntry, DepthStencilStateEntry, DepthStencilViewEntry, DispatchEntry, DrawEntry,
    F32, InputElementEntry, RasterizerEntry, RenderTargetBlendEntry, RenderTargetViewEntry, ResolveEntry,
    ResourceEntry, SamplerEntry, ScissorEntry, ShaderResourceViewEntry, StageEntry, StencilFaceEntry,
    StreamOutputStateEntry, TextureShapeEntry, UavEntry, UnorderedAccessViewEntry, ViewportEntry,
};
use super::{MAX_BLOB_BYTES, capture_error};
use crate::api::dispatch::{MAX_THREAD_GROUPS_PER_DIMENSION, UnorderedAccessViewDesc};
use crate::api::draw::DrawCall;
use crate::api::enums::UavDimension;
use crate::api::enums::{DsvDimension, ResourceDimension, RtvDimension};
use crate::api::fixed_function::{
    BlendDesc, DepthStencilDesc, InputElementDesc, RasterizerDesc, RenderTargetBlendDesc, StencilFaceDesc,
};
use crate::api::limits::{
    CONSTANT_BUFFER_SLOTS, INPUT_ELEMENTS, RENDER_TARGET_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS, UAV_SLOTS,
    VERTEX_BUFFER_SLOTS, VIEWPORT_SLOTS,
};
use crate::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, SamplerDesc, ShaderResourceViewDesc, Texture, TextureShape,
};
use crate::api::viewport::{Scissor, Viewport};
use crate::format::Format;
use crate::{Error, Result};
use std::collections::HashSet;

/// Stream output's buffer slots and streams (`D3D11_SO_BUFFER_SLOT_COUNT`, `D3D11_SO_STREAM_COUNT`, 14.3).
const STREAM_OUTPUT_SLOTS: u32 = 4;

/// The most entries a stream-output declaration has (`D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT`).
const MAX_STREAM_OUTPUT_ENTRIES: usize = 512;

/// The largest stream-output stride (`D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`).
const MAX_STREAM_OUTPUT_STRIDE: u32 = 2048;

/// `D3D11_SO_NO_RASTERIZED_STREAM`.
pub const NO_RASTERIZED_STREAM: u32 = u32::MAX;

impl From<DrawCall> for CallEntry {
    fn from(call: DrawCall) -> Self {
        match call {
            DrawCall::Draw {
                vertex_count,
                start_vertex,
            } => Self::Draw {
                vertex_count,
                start_vertex,
            },
            DrawCall::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => Self::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            },
            DrawCall::DrawInstanced {
                vertex_count_per_instance,
                instance_count,
                start_vertex,
                start_instance,
            } => Self::DrawInstanced {
                vertex_count_per_instance,
                instance_count,
                start_vertex,
                start_instance,
            },
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => Self::DrawIndexedInstanced {
                index_count_per_instance,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            },
        }
    }
}

impl From<CallEntry> for DrawCall {
    fn from(call: CallEntry) -> Self {
        match call {
            CallEntry::Draw {
                vertex_count,
                start_vertex,
            } => Self::Draw {
                vertex_count,
                start_vertex,
            },
            CallEntry::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => Self::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            },
            CallEntry::DrawInstanced {
                vertex_count_per_instance,
                instance_count,
                start_vertex,
                start_instance,
            } => Self::DrawInstanced {
                vertex_count_per_instance,
                instance_count,
                start_vertex,
                start_instance,
            },
            CallEntry::DrawIndexedInstanced {
                index_count_per_instance,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => Self::DrawIndexedInstanced {
                index_count_per_instance,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            },
            // 8.9: the vertices vertex buffer 0 holds, from its first
            CallEntry::DrawAuto { vertex_count } => Self::Draw {
                vertex_count,
                start_vertex: 0,
            },
        }
    }
}

/// The call as the API spells it with its arguments, e.g. `DrawIndexed(36, 0, 0)`: what a capture written from a
/// [`DrawState`](crate::api::draw::DrawState) without a recorded call text gives as `api_call`.
pub fn api_call_text(call: DrawCall) -> String {
    match call {
        DrawCall::Draw {
            vertex_count,
            start_vertex,
        } => format!("Draw({vertex_count}, {start_vertex})"),
        DrawCall::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } => format!("DrawIndexed({index_count}, {start_index}, {base_vertex})"),
        DrawCall::DrawInstanced {
            vertex_count_per_instance,
            instance_count,
            start_vertex,
            start_instance,
        } => format!("DrawInstanced({vertex_count_per_instance}, {instance_count}, {start_vertex}, {start_instance})"),
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        } => format!(
            "DrawIndexedInstanced({index_count_per_instance}, {instance_count}, {start_index}, {base_vertex}, \
             {start_instance})"
        ),
    }
}

/// Two-way field copies between a pipeline type and its manifest entry of the same field names.
macro_rules! same_fields {
    ($state:ty, $entry:ty { $($field:ident $(: $wrap:ident)?),* $(,)? }) => {
        impl From<&$state> for $entry {
            #[allow(clippy::clone_on_copy)] // one rule for every field, Copy or not
            fn from(value: &$state) -> Self {
                Self { $($field: same_fields!(@to value.$field $(, $wrap)?),)* }
            }
        }
        impl From<&$entry> for $state {
            #[allow(clippy::clone_on_copy)] // one rule for every field, Copy or not
            fn from(value: &$entry) -> Self {
                Self { $($field: same_fields!(@from value.$field $(, $wrap)?),)* }
            }
        }
    };
    (@to $value:expr) => { $value.clone() };
    (@to $value:expr, F32) => { F32($value) };
    (@to $value:expr, F32x4) => { $value.map(F32) };
    (@to $value:expr, Into) => { (&$value).into() };
    (@from $value:expr) => { $value.clone() };
    (@from $value:expr, F32) => { $value.0 };
    (@from $value:expr, F32x4) => { $value.map(|f| f.0) };
    (@from $value:expr, Into) => { (&$value).into() };
}

same_fields!(
    RasterizerDesc,
    RasterizerEntry {
        fill_mode,
        cull_mode,
        front_counter_clockwise,
        depth_bias,
        depth_bias_clamp: F32,
        slope_scaled_depth_bias: F32,
        depth_clip_enable,
        scissor_enable,
        multisample_enable,
        antialiased_line_enable,
        forced_sample_count,
    }
);
same_fields!(
    StencilFaceDesc,
    StencilFaceEntry {
        fail,
        depth_fail,
        pass,
        func
    }
);
same_fields!(
    DepthStencilDesc,
    DepthStencilStateEntry {
        depth_enable,
        depth_write_mask,
        depth_func,
        stencil_enable,
        stencil_read_mask,
        stencil_write_mask,
        front_face: Into,
        back_face: Into,
    }
);
same_fields!(
    RenderTargetBlendDesc,
    RenderTargetBlendEntry {
        blend_enable,
        logic_op_enable,
        src_blend,
        dest_blend,
        blend_op,
        src_blend_alpha,
        dest_blend_alpha,
        blend_op_alpha,
        logic_op,
        render_target_write_mask,
    }
);
same_fields!(
    InputElementDesc,
    InputElementEntry {
        semantic_name,
        semantic_index,
        format,
        input_slot,
        aligned_byte_offset,
        input_slot_class,
        instance_data_step_rate,
    }
);
same_fields!(
    Viewport,
    ViewportEntry {
        x: F32,
        y: F32,
        width: F32,
        height: F32,
        min_depth: F32,
        max_depth: F32,
    }
);
same_fields!(
    Scissor,
    ScissorEntry {
        left,
        top,
        right,
        bottom
    }
);
same_fields!(
    TextureShape,
    TextureShapeEntry {
        dimension,
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels,
        sample_count,
    }
);
same_fields!(
    ShaderResourceViewDesc,
    ShaderResourceViewEntry {
        format,
        dimension,
        most_detailed_mip,
        mip_levels,
        first_array_slice,
        array_size,
        first_element,
        num_elements,
        raw,
        structure_stride,
    }
);
same_fields!(
    RenderTargetViewDesc,
    RenderTargetViewEntry {
        format,
        dimension,
        mip_slice,
        first_array_slice,
        array_size
    }
);
same_fields!(
    DepthStencilViewDesc,
    DepthStencilViewEntry {
        format,
        dimension,
        mip_slice,
        first_array_slice,
        array_size,
        read_only_depth,
        read_only_stencil,
    }
);

same_fields!(
    UnorderedAccessViewDesc,
    UnorderedAccessViewEntry {
        format,
        dimension,
        mip_slice,
        first_array_slice,
        array_size,
        first_element,
        num_elements,
        raw,
        append,
        counter,
        structure_stride,
    }
);

impl From<&BlendDesc> for BlendEntry {
    fn from(blend: &BlendDesc) -> Self {
        Self {
            alpha_to_coverage_enable: blend.alpha_to_coverage_enable,
            independent_blend_enable: blend.independent_blend_enable,
            render_target: blend.render_target.each_ref().map(RenderTargetBlendEntry::from),
        }
    }
}

impl From<&BlendEntry> for BlendDesc {
    fn from(blend: &BlendEntry) -> Self {
        Self {
            alpha_to_coverage_enable: blend.alpha_to_coverage_enable,
            independent_blend_enable: blend.independent_blend_enable,
            render_target: blend.render_target.each_ref().map(RenderTargetBlendDesc::from),
        }
    }
}

/// A sampler entry of `slot` for `desc`.
pub(crate) fn sampler_entry(slot: u32, desc: &SamplerDesc) -> SamplerEntry {
    SamplerEntry {
        slot,
        filter: desc.filter,
        address_u: desc.address_u,
        address_v: desc.address_v,
        address_w: desc.address_w,
        mip_lod_bias: F32(desc.mip_lod_bias),
        max_anisotropy: desc.max_anisotropy,
        comparison: desc.comparison,
        border_color: desc.border_color.map(F32),
        min_lod: F32(desc.min_lod),
        max_lod: F32(desc.max_lod),
    }
}

impl From<&SamplerEntry> for SamplerDesc {
    fn from(entry: &SamplerEntry) -> Self {
        Self {
            filter: entry.filter,
            address_u: entry.address_u,
            address_v: entry.address_v,
            address_w: entry.address_w,
            mip_lod_bias: entry.mip_lod_bias.0,
            max_anisotropy: entry.max_anisotropy,
            comparison: entry.comparison,
            border_color: entry.border_color.map(|f| f.0),
            min_lod: entry.min_lod.0,
            max_lod: entry.max_lod.0,
        }
    }
}

/// The surface a target view writes: one mip level of one array slice, or one depth slice of a 3D texture's mip.
/// A draw without a geometry program writes render target array index 0, which is the view's first slice
/// (5.2, 15.15), so that one surface is all such a draw can change; a replayed draw whose geometry program selects
/// slices (`SV_RenderTargetArrayIndex`) is refused, the other slices not being recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// The mip level.
    pub level: u32,
    /// The array slice (1D and 2D arrays) or depth slice (3D); 0 for views without slices.
    pub slice: u32,
}

impl Surface {
    /// The surface a render target view writes.
    pub fn of_render_target(view: &RenderTargetViewDesc) -> Self {
        let slice = match view.dimension {
            RtvDimension::Texture1DArray
            | RtvDimension::Texture2DArray
            | RtvDimension::Texture2DMsArray
            | RtvDimension::Texture3D => view.first_array_slice,
            _ => 0,
        };
        Self {
            level: view.mip_slice,
            slice,
        }
    }

    /// The surface a depth-stencil view writes.
    pub fn of_depth_stencil(view: &DepthStencilViewDesc) -> Self {
        let slice = match view.dimension {
            DsvDimension::Texture1DArray | DsvDimension::Texture2DArray | DsvDimension::Texture2DMsArray => {
                view.first_array_slice
            }
            _ => 0,
        };
        Self {
            level: view.mip_slice,
            slice,
        }
    }
}

/// What a target surface is: its texels' format and size, and the bytes that hold them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceLayout {
    /// The view's format (the resource's when the view says `UNKNOWN`).
    pub format: Format,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Samples per texel (1 without multisampling).
    pub samples: u32,
    /// Bytes of the surface: rows packed, top row first, one plane of `width * height` texels per sample, sample 0's
    /// first (section 5 of docs/capture-format.md).
    pub bytes: u64,
}

/// Whether a view of `view` dimension may see a resource of `resource` dimension with `samples` samples per texel as
/// a target: a `TEXTURE2DMS*` view sees exactly the multisampled 2D resources (5.2: a view's dimension says whether
/// it is multisampled; version 1.1).
fn target_dimension_fits(
    resource: ResourceDimension,
    samples: u32,
    rtv: Option<RtvDimension>,
    dsv: Option<DsvDimension>,
) -> bool {
    use ResourceDimension as R;
    let multisampled = samples > 1;
    match (rtv, dsv) {
        (Some(view), _) => match (view, resource) {
            (RtvDimension::Texture1D | RtvDimension::Texture1DArray, R::Texture1D)
            | (RtvDimension::Texture2D | RtvDimension::Texture2DArray, R::Texture2D)
            | (RtvDimension::Texture3D, R::Texture3D) => !multisampled,
            (RtvDimension::Texture2DMs | RtvDimension::Texture2DMsArray, R::Texture2D) => multisampled,
            _ => false,
        },
        (None, Some(view)) => match (view, resource) {
            (DsvDimension::Texture1D | DsvDimension::Texture1DArray, R::Texture1D)
            | (DsvDimension::Texture2D | DsvDimension::Texture2DArray, R::Texture2D) => !multisampled,
            (DsvDimension::Texture2DMs | DsvDimension::Texture2DMsArray, R::Texture2D) => multisampled,
            _ => false,
        },
        (None, None) => false,
    }
}

/// The layout of the surface a view of `dimension_name` with `view_format` sees at `surface` of a resource of
/// `shape`, after checking the view against the shape. Errors have no place; the caller adds it.
fn surface_layout(
    shape: &TextureShape,
    view_format: Format,
    surface: Surface,
    dimension_fits: bool,
    dimension_name: &str,
) -> Result<SurfaceLayout> {
    let fail = |detail: String| Err(Error::new("", detail));
    shape.validate()?;
    if !dimension_fits {
        return fail(format!(
            "a {dimension_name} view of a {} resource of {} samples per texel is not a target this format records",
            shape.dimension, shape.sample_count
        ));
    }
    let format = if view_format == Format::Unknown {
        shape.format
    } else {
        view_format
    };
    if !shape.format.can_view_as(format) {
        return fail(format!("a resource of {} cannot be viewed as {format}", shape.format));
    }
    if surface.level >= shape.mip_levels {
        return fail(format!(
            "the view's mip slice {} is past the resource's {} mip levels",
            surface.level, shape.mip_levels
        ));
    }
    let [width, height, depth] = shape.mip_size(surface.level);
    let slices = if shape.dimension == ResourceDimension::Texture3D {
        depth
    } else {
        shape.array_size
    };
    if surface.slice >= slices {
        return fail(format!(
            "the view's first slice {} is past the {slices} slices of mip {}",
            surface.slice, surface.level
        ));
    }
    let view_shape = TextureShape {
        format,
        depth: 1,
        ..*shape
    };
    let layout = view_shape.mip_layout(surface.level)?;
    Ok(SurfaceLayout {
        format,
        width,
        height,
        samples: shape.sample_count,
        bytes: layout
            .row_bytes
            .saturating_mul(layout.rows)
            .saturating_mul(u64::from(shape.sample_count)),
    })
}

/// The layout of the surface a render target view writes, after checking the view against the resource.
pub fn render_target_layout(shape: &TextureShape, view: &RenderTargetViewDesc) -> Result<SurfaceLayout> {
    surface_layout(
        shape,
        view.format,
        Surface::of_render_target(view),
        target_dimension_fits(shape.dimension, shape.sample_count, Some(view.dimension), None),
        view.dimension.name(),
    )
}

/// The layout of the surface a depth-stencil view writes, after checking the view against the resource.
pub fn depth_stencil_layout(shape: &TextureShape, view: &DepthStencilViewDesc) -> Result<SurfaceLayout> {
    let layout = surface_layout(
        shape,
        view.format,
        Surface::of_depth_stencil(view),
        target_dimension_fits(shape.dimension, shape.sample_count, None, Some(view.dimension)),
        view.dimension.name(),
    )?;
    if !layout.format.is_depth() {
        return Err(Error::new("", format!("{} is not a depth format", layout.format)));
    }
    Ok(layout)
}

/// The bytes of `surface` of `texture`: a subresource, or one depth slice of a 3D mip.
pub fn surface_bytes(texture: &Texture, surface: Surface) -> Result<&[u8]> {
    let shape = &texture.shape;
    let missing = || {
        Error::new(
            "",
            format!(
                "the texture has no surface at mip {} slice {}",
                surface.level, surface.slice
            ),
        )
    };
    if shape.dimension == ResourceDimension::Texture3D {
        let layout = shape.mip_layout(surface.level)?;
        let data = texture.subresource(surface.level, 0).ok_or_else(missing)?;
        let slice_bytes = layout.row_bytes.saturating_mul(layout.rows);
        let start = usize::try_from(slice_bytes.saturating_mul(u64::from(surface.slice))).unwrap_or(usize::MAX);
        let end = usize::try_from(slice_bytes)
            .ok()
            .and_then(|n| start.checked_add(n))
            .unwrap_or(usize::MAX);
        return data.get(start..end).ok_or_else(missing);
    }
    texture.subresource(surface.level, surface.slice).ok_or_else(missing)
}

/// The one-surface texture and adjusted view a replay draws into: a texture of the resource's dimension, format and
/// sample count, the viewed surface's size, one mip level and one slice (depth 1 for 3D), and a view of the same
/// dimension and format that sees mip 0, slice 0 of it.
pub fn surface_texture(shape: &TextureShape, layout: &SurfaceLayout) -> TextureShape {
    TextureShape {
        dimension: shape.dimension,
        format: shape.format,
        width: layout.width,
        height: layout.height,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count: layout.samples,
    }
}

/// The checks of one draw entry against the blobs an archive (or a writer) holds. `blob_size` gives a blob's size
/// in the archive, or why it cannot be read (missing, encrypted, an impossible compression ratio).
pub(crate) struct DrawCheck<'a> {
    /// What is checked, for messages: `"draw"` or `"resolve"`.
    pub item: &'static str,
    /// The item's position in its list of the manifest, for messages.
    pub index: usize,
    /// The sizes of the blobs available.
    pub blob_size: &'a dyn Fn(&BlobId) -> std::result::Result<u64, String>,
}

impl DrawCheck<'_> {
    /// An error at `path` of this draw.
    fn error(&self, path: &str, detail: impl Into<String>) -> Error {
        let at = if path.is_empty() {
            format!("{} {}", self.item, self.index)
        } else {
            format!("{} {} {path}", self.item, self.index)
        };
        capture_error(detail).at(at)
    }

    /// A blob reference: present, and the size the archive gives.
    fn blob(&self, path: &str, blob: &BlobRef) -> Result<()> {
        if blob.size > MAX_BLOB_BYTES {
            return Err(self.error(
                path,
                format!(
                    "blob {}… is {} bytes, more than the {MAX_BLOB_BYTES} a blob may have",
                    blob.sha256.short(),
                    blob.size
                ),
            ));
        }
        match (self.blob_size)(&blob.sha256) {
            Ok(size) if size == blob.size => Ok(()),
            Ok(size) => Err(self.error(
                path,
                format!(
                    "blob {}… is {} bytes in the manifest but {size} in the archive",
                    blob.sha256.short(),
                    blob.size
                ),
            )),
            Err(problem) => Err(self.error(path, problem)),
        }
    }

    /// A blob that must hold exactly `bytes` bytes.
    fn sized_blob(&self, path: &str, blob: &BlobRef, bytes: u64, what: &str) -> Result<()> {
        if blob.size != bytes {
            return Err(self.error(
                path,
                format!(
                    "blob {}… has {} bytes where {what} takes {bytes}",
                    blob.sha256.short(),
                    blob.size
                ),
            ));
        }
        self.blob(path, blob)
    }

    /// A slot below `limit`, not seen before in its list.
    fn slot(&self, path: &str, slot: u32, limit: usize, seen: &mut HashSet<u32>) -> Result<()> {
        if usize::try_from(slot).map_or(true, |s| s >= limit) {
            return Err(self.error(
                path,
                format!("slot {slot} is past the last slot, {}", limit.saturating_sub(1)),
            ));
        }
        if !seen.insert(slot) {
            return Err(self.error(path, format!("slot {slot} is bound twice")));
        }
        Ok(())
    }

    /// A list no longer than `limit`.
    fn count(&self, path: &str, count: usize, limit: usize) -> Result<()> {
        if count > limit {
            return Err(self.error(path, format!("{count} entries, more than D3D11's {limit}")));
        }
        Ok(())
    }

    /// A texture resource: a valid shape and one blob per subresource of its mip's size (all its sample planes).
    fn texture(&self, path: &str, shape: &TextureShapeEntry, subresources: &[BlobRef]) -> Result<()> {
        let shape = TextureShape::from(shape);
        shape
            .validate()
            .map_err(|e| self.error(&format!("{path} shape"), e.detail))?;
        if u64::try_from(subresources.len()).ok() != Some(shape.subresource_count()) {
            return Err(self.error(
                &format!("{path} subresources"),
                format!(
                    "{} blobs where {} mip levels x {} slices need {}",
                    subresources.len(),
                    shape.mip_levels,
                    shape.array_size,
                    shape.subresource_count()
                ),
            ));
        }
        for (index, blob) in subresources.iter().enumerate() {
            let level = u32::try_from(index)
                .ok()
                .and_then(|i| i.checked_rem(shape.mip_levels))
                .unwrap_or(0);
            let layout = shape
                .mip_layout(level)
                .map_err(|e| self.error(&format!("{path} shape"), e.detail))?;
            self.sized_blob(
                &format!("{path} subresources[{index}]"),
                blob,
                layout.bytes,
                &format!("mip {level} of {}", shape.format),
            )?;
        }
        Ok(())
    }

    /// A shader stage.
    fn stage(&self, name: &str, stage: &StageEntry, required: bool) -> Result<()> {
        match &stage.dxbc {
            Some(blob) => self.blob(&format!("{name} dxbc"), blob)?,
            None if required => {
                let what = if name == "cs" {
                    "the dispatch has no compute program"
                } else {
                    "the vertex stage has no program"
                };
                return Err(self.error(&format!("{name} dxbc"), what));
            }
            None => {}
        }
        let mut seen = HashSet::new();
        for (index, buffer) in stage.constant_buffers.iter().enumerate() {
            let path = format!("{name} constant_buffers[{index}]");
            self.slot(&path, buffer.slot, CONSTANT_BUFFER_SLOTS, &mut seen)?;
            self.blob(&format!("{path} data"), &buffer.data)?;
        }
        let mut seen = HashSet::new();
        for (index, view) in stage.shader_resources.iter().enumerate() {
            let path = format!("{name} shader_resources[{index}]");
            self.slot(&path, view.slot, SHADER_RESOURCE_SLOTS, &mut seen)?;
            match &view.resource {
                ResourceEntry::Buffer { data } => self.blob(&format!("{path} resource data"), data)?,
                ResourceEntry::Texture { shape, subresources } => {
                    self.texture(&format!("{path} resource"), shape, subresources)?;
                }
            }
        }
        let mut seen = HashSet::new();
        for (index, sampler) in stage.samplers.iter().enumerate() {
            self.slot(
                &format!("{name} samplers[{index}]"),
                sampler.slot,
                SAMPLER_SLOTS,
                &mut seen,
            )?;
        }
        Ok(())
    }

    /// The whole draw.
    pub fn draw(&self, draw: &DrawEntry) -> Result<()> {
        self.count("input_layout", draw.input_layout.len(), INPUT_ELEMENTS)?;
        let mut seen = HashSet::new();
        for (index, buffer) in draw.vertex_buffers.iter().enumerate() {
            let path = format!("vertex_buffers[{index}]");
            self.slot(&path, buffer.slot, VERTEX_BUFFER_SLOTS, &mut seen)?;
            self.blob(&format!("{path} data"), &buffer.data)?;
        }
        if let Some(index_buffer) = &draw.index_buffer {
            self.blob("index_buffer data", &index_buffer.data)?;
        }
        self.stage("vs", &draw.vs, true)?;
        for (name, stage) in [("hs", &draw.hs), ("ds", &draw.ds), ("gs", &draw.gs)] {
            if let Some(stage) = stage {
                if stage.dxbc.is_none() {
                    return Err(self.error(
                        &format!("{name} dxbc"),
                        format!("a {name} stage without its program (leave {name} out instead)"),
                    ));
                }
                self.stage(name, stage, true)?;
            }
        }
        self.stage("ps", &draw.ps, false)?;
        if let Some(stream_output) = &draw.stream_output {
            self.stream_output(stream_output)?;
        }
        self.count("uavs", draw.uavs.len(), UAV_SLOTS)?;
        let mut seen = HashSet::new();
        for (index, uav) in draw.uavs.iter().enumerate() {
            let path = format!("uavs[{index}]");
            self.slot(&path, uav.slot, UAV_SLOTS, &mut seen)?;
            self.uav(&path, uav)?;
        }
        self.count("viewports", draw.viewports.len(), VIEWPORT_SLOTS)?;
        self.count("scissor_rects", draw.scissor_rects.len(), VIEWPORT_SLOTS)?;

        let mut seen = HashSet::new();
        for (index, target) in draw.render_targets.iter().enumerate() {
            let path = format!("render_targets[{index}]");
            self.slot(&path, target.slot, RENDER_TARGET_SLOTS, &mut seen)?;
            let shape = TextureShape::from(&target.resource);
            let view = RenderTargetViewDesc::from(&target.view);
            let layout = render_target_layout(&shape, &view).map_err(|e| self.error(&path, e.detail))?;
            self.target_contents(&path, &layout, &target.before, target.after.as_ref())?;
        }
        if let Some(target) = &draw.depth_stencil_view {
            let path = "depth_stencil_view";
            let shape = TextureShape::from(&target.resource);
            let view = DepthStencilViewDesc::from(&target.view);
            let layout = depth_stencil_layout(&shape, &view).map_err(|e| self.error(path, e.detail))?;
            self.target_contents(path, &layout, &target.before, target.after.as_ref())?;
        }
        let streams = draw.stream_output.as_ref().is_some_and(|so| !so.targets.is_empty());
        if draw.render_targets.is_empty() && draw.depth_stencil_view.is_none() && draw.uavs.is_empty() && !streams {
            return Err(self.error(
                "",
                "the draw has no render target and no depth-stencil target, no unordered access view and no \
                 stream-output buffer: nothing it writes was recorded",
            ));
        }
        Ok(())
    }

    /// A draw's stream output (version 1.4): the declaration within 14.3's limits (a stream and buffer slot below 4,
    /// components within x..w, at most 512 entries), at most 4 strides each a multiple of 4 up to 2048 bytes, a
    /// rasterized stream below 4 or none, and each bound buffer in a slot below 4 bound once, with an `after` of its
    /// size and an offset within it.
    fn stream_output(&self, so: &StreamOutputStateEntry) -> Result<()> {
        self.count(
            "stream_output declaration",
            so.declaration.len(),
            MAX_STREAM_OUTPUT_ENTRIES,
        )?;
        for (index, entry) in so.declaration.iter().enumerate() {
            let path = format!("stream_output declaration[{index}]");
            let end = u32::from(entry.start_component).saturating_add(u32::from(entry.component_count));
            if entry.stream >= STREAM_OUTPUT_SLOTS || entry.output_slot >= STREAM_OUTPUT_SLOTS {
                return Err(self.error(
                    &path,
                    format!(
                        "stream {} to slot {}: streams and slots are 0 to 3 (14.3)",
                        entry.stream, entry.output_slot
                    ),
                ));
            }
            if entry.component_count == 0 || end > 4 {
                return Err(self.error(
                    &path,
                    format!(
                        "{} components from component {}: 1 to 4 within x..w (14.3)",
                        entry.component_count, entry.start_component
                    ),
                ));
            }
        }
        self.count("stream_output strides", so.strides.len(), 4)?;
        for (slot, stride) in so.strides.iter().enumerate() {
            if stride.checked_rem(4) != Some(0) || *stride > MAX_STREAM_OUTPUT_STRIDE {
                return Err(self.error(
                    &format!("stream_output strides[{slot}]"),
                    format!("{stride} bytes: a stride is a multiple of 4 up to {MAX_STREAM_OUTPUT_STRIDE} (14.3)"),
                ));
            }
        }
        if so.rasterized_stream >= STREAM_OUTPUT_SLOTS && so.rasterized_stream != NO_RASTERIZED_STREAM {
            return Err(self.error(
                "stream_output rasterized_stream",
                format!(
                    "stream {}: 0 to 3, or {NO_RASTERIZED_STREAM} for none",
                    so.rasterized_stream
                ),
            ));
        }
        let mut seen = HashSet::new();
        for (index, target) in so.targets.iter().enumerate() {
            let path = format!("stream_output targets[{index}]");
            self.slot(&path, target.slot, 4, &mut seen)?;
            self.blob(&format!("{path} data"), &target.data)?;
            if target.offset == u32::MAX {
                return Err(self.error(
                    &format!("{path} offset"),
                    "offset -1 (append): a capture records the filled size the buffer stood at instead",
                ));
            }
            if u64::from(target.offset) > target.data.size {
                return Err(self.error(
                    &format!("{path} offset"),
                    format!(
                        "offset {} is past the end of the {}-byte buffer",
                        target.offset, target.data.size
                    ),
                ));
            }
            if let Some(after) = &target.after {
                self.sized_blob(&format!("{path} after"), after, target.data.size, "the buffer")?;
            }
        }
        Ok(())
    }

    /// A target's before and after contents: each the surface's size.
    fn target_contents(
        &self,
        path: &str,
        layout: &SurfaceLayout,
        before: &BlobRef,
        after: Option<&BlobRef>,
    ) -> Result<()> {
        let what = format!("a {}x{} surface of {}", layout.width, layout.height, layout.format);
        self.sized_blob(&format!("{path} before"), before, layout.bytes, &what)?;
        if let Some(after) = after {
            self.sized_blob(&format!("{path} after"), after, layout.bytes, &what)?;
        }
        Ok(())
    }
}

/// What a resolve reads and writes, once its entry checks out: the resolve format, the subresources' size, the
/// source's samples and each side's mip and array slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolveLayout {
    /// The resolve format: the format of the source's samples and of the destination's texels.
    pub format: Format,
    /// Width of both subresources, in texels.
    pub width: u32,
    /// Height of both subresources, in texels.
    pub height: u32,
    /// Samples per texel of the source.
    pub samples: u32,
    /// Bytes of the source subresource: `samples` planes of `width * height` texels.
    pub source_bytes: u64,
    /// Bytes of the destination subresource: one plane.
    pub destination_bytes: u64,
}

impl DrawCheck<'_> {
    /// A resolve entry (version 1.2) of a capture of `draw_count` draws whose previous resolve came before draw
    /// `earliest`: its place in the frame, both resources (5.6.6: a multisampled source, a single-sampled
    /// destination, both 2D), the subresources (present, of one size: "no stretching"), the format (resolvable,
    /// [`crate::api::multisample::resolvable`], and one each resource may be read as: typed resources must be of
    /// the resolve format, typeless ones of its family), and the blobs (present, each the subresource's size).
    pub fn resolve(&self, entry: &ResolveEntry, draw_count: usize, earliest: u64) -> Result<ResolveLayout> {
        let draws = u64::try_from(draw_count).unwrap_or(u64::MAX);
        if entry.before_draw > draws {
            return Err(self.error(
                "before_draw",
                format!("{} is past the capture's {draws} draws", entry.before_draw),
            ));
        }
        if entry.before_draw < earliest {
            return Err(self.error(
                "before_draw",
                format!(
                    "{} is before the previous resolve's {earliest}: resolves are listed in the frame's order",
                    entry.before_draw
                ),
            ));
        }
        crate::api::multisample::resolvable(entry.format).map_err(|why| self.error("format", why))?;
        let source = TextureShape::from(&entry.source.resource);
        let destination = TextureShape::from(&entry.destination.resource);
        let (source_level, source_bytes) =
            self.resolve_side("source", &source, entry.source.subresource, entry.format)?;
        let (destination_level, destination_bytes) =
            self.resolve_side("destination", &destination, entry.destination.subresource, entry.format)?;
        if source.sample_count < 2 {
            return Err(self.error(
                "source resource",
                "the source has 1 sample per texel: only a multisampled resource is resolved (5.6.6)",
            ));
        }
        if destination.sample_count != 1 {
            return Err(self.error(
                "destination resource",
                format!(
                    "the destination has {} samples per texel: a resolve writes a single-sampled resource (5.6.6)",
                    destination.sample_count
                ),
            ));
        }
        if destination.dimension != ResourceDimension::Texture2D {
            return Err(self.error(
                "destination resource",
                format!(
                    "the destination is a {}: both resources of a resolve are of one type, a 2D texture (5.6.6)",
                    destination.dimension
                ),
            ));
        }
        let [width, height, _] = source.mip_size(source_level);
        let [dest_width, dest_height, _] = destination.mip_size(destination_level);
        if [width, height] != [dest_width, dest_height] {
            return Err(self.error(
                "destination subresource",
                format!(
                    "the destination subresource is {dest_width}x{dest_height} and the source's {width}x{height}: a \
                     resolve does not stretch (5.6.6)"
                ),
            ));
        }
        let what = format!("a {width}x{height} surface of {}", entry.format);
        self.sized_blob(
            "source data",
            &entry.source.data,
            source_bytes,
            &format!("{what} with {} samples", source.sample_count),
        )?;
        self.sized_blob(
            "destination before",
            &entry.destination.before,
            destination_bytes,
            &what,
        )?;
        if let Some(after) = &entry.destination.after {
            self.sized_blob("destination after", after, destination_bytes, &what)?;
        }
        Ok(ResolveLayout {
            format: entry.format,
            width,
            height,
            samples: source.sample_count,
            source_bytes,
            destination_bytes,
        })
    }

    /// One side of a resolve: a valid shape that may be read as `format`, and a subresource it has. Gives the
    /// subresource's mip level and its size in bytes (every sample).
    fn resolve_side(&self, side: &str, shape: &TextureShape, subresource: u32, format: Format) -> Result<(u32, u64)> {
        shape
            .validate()
            .map_err(|e| self.error(&format!("{side} resource"), e.detail))?;
        if !shape.format.can_view_as(format) {
            return Err(self.error(
                &format!("{side} resource"),
                format!(
                    "a resource of {} cannot be resolved as {format} (5.6.6: a typed resource must be of the \
                     resolve format, a typeless one of its family)",
                    shape.format
                ),
            ));
        }
        if u64::from(subresource) >= shape.subresource_count() {
            return Err(self.error(
                &format!("{side} subresource"),
                format!(
                    "subresource {subresource} is past the {} of the resource ({} mip levels x {} slices)",
                    shape.subresource_count(),
                    shape.mip_levels,
                    shape.array_size
                ),
            ));
        }
        let level = subresource.checked_rem(shape.mip_levels).unwrap_or(0);
        let view = TextureShape { format, ..*shape };
        let layout = view
            .mip_layout(level)
            .map_err(|e| self.error(&format!("{side} resource"), e.detail))?;
        Ok((level, layout.bytes))
    }
}

/// How an unordered access view's elements are read and compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UavAccessKind {
    /// A raw (byte address) buffer view: 32-bit words.
    Raw,
    /// A structured buffer view: structures of `stride` bytes, each of 32-bit words.
    Structured {
        /// Bytes per structure.
        stride: u32,
    },
    /// A typed view of a buffer or texture: texels of the view's format.
    Typed,
}

/// The window an unordered access view sees (what a dispatch's `after` holds, docs/capture-format.md section 5):
/// its elements' kind, format and count, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct UavLayout {
    /// How its elements are read.
    pub access: UavAccessKind,
    /// The view's format.
    pub format: Format,
    /// Bytes per element (a word for raw views, a structure, a texel).
    pub element_bytes: u64,
    /// Elements per row: a buffer view's elements, a texture mip's width.
    pub width: u32,
    /// Rows: 1 for a buffer; a texture mip's height times the slices the view sees, slice after slice.
    pub height: u32,
    /// Array or depth slices the view sees (1 for buffers).
    pub slices: u32,
    /// Bytes of the window.
    pub bytes: u64,
}

/// The window `view` sees of a resource: a buffer of `buffer_bytes` bytes, or a texture of `shape`, by the rules
/// [`crate::dispatch::uav_view`] applies (5.3.9), checked from the manifest alone. Errors have no place; the caller
/// adds it.
pub fn uav_layout(
    view: &UnorderedAccessViewDesc,
    buffer_bytes: Option<u64>,
    shape: Option<&TextureShape>,
) -> Result<UavLayout> {
    let fail = |detail: String| Err(Error::new("", detail));
    if view.append && view.counter {
        return fail("a view cannot be both append and counter".to_owned());
    }
    let has_counter = view.append || view.counter;
    let element_bytes_of = |format: Format| -> Result<u64> {
        let codec = crate::format::TexelCodec::new(format).map_err(|e| Error::new("", e.detail))?;
        Ok(u64::try_from(codec.element_bytes()).unwrap_or(u64::MAX))
    };
    match (buffer_bytes, shape) {
        (Some(buffer_bytes), _) => {
            if view.dimension != UavDimension::Buffer {
                return fail(format!("a {} view of a buffer", view.dimension));
            }
            let (access, element_bytes) = if view.raw {
                (UavAccessKind::Raw, 4u64)
            } else if view.structure_stride != 0 {
                if view.structure_stride.checked_rem(4) != Some(0) {
                    return fail(format!(
                        "a structure stride of {} bytes: strides are multiples of 4",
                        view.structure_stride
                    ));
                }
                (
                    UavAccessKind::Structured {
                        stride: view.structure_stride,
                    },
                    u64::from(view.structure_stride),
                )
            } else {
                (UavAccessKind::Typed, element_bytes_of(view.format)?)
            };
            if has_counter && !matches!(access, UavAccessKind::Structured { .. }) {
                return fail("an append or counter view is of a structured buffer (5.3.9)".to_owned());
            }
            let end = u64::from(view.first_element).saturating_add(u64::from(view.num_elements));
            if end.saturating_mul(element_bytes) > buffer_bytes {
                return fail(format!(
                    "elements {}..{end} of {element_bytes} bytes pass the end of the {buffer_bytes}-byte buffer",
                    view.first_element
                ));
            }
            Ok(UavLayout {
                access,
                format: view.format,
                element_bytes,
                width: view.num_elements,
                height: 1,
                slices: 1,
                bytes: u64::from(view.num_elements).saturating_mul(element_bytes),
            })
        }
        (None, Some(shape)) => {
            shape.validate().map_err(|e| Error::new("", e.detail))?;
            if view.raw || view.structure_stride != 0 || has_counter {
                return fail("a texture view is typed: not raw, structured, append or counter (5.3.9)".to_owned());
            }
            if shape.sample_count != 1 {
                return fail(format!(
                    "a texture of {} samples per texel has no unordered access view",
                    shape.sample_count
                ));
            }
            if !shape.format.can_view_as(view.format) {
                return fail(format!("a view of {} of a resource of {}", view.format, shape.format));
            }
            let element_bytes = element_bytes_of(view.format)?;
            let fits = matches!(
                (view.dimension, shape.dimension),
                (
                    UavDimension::Texture1D | UavDimension::Texture1DArray,
                    ResourceDimension::Texture1D
                ) | (
                    UavDimension::Texture2D | UavDimension::Texture2DArray,
                    ResourceDimension::Texture2D
                ) | (UavDimension::Texture3D, ResourceDimension::Texture3D)
            );
            if !fits {
                return fail(format!("a {} view of a {} resource", view.dimension, shape.dimension));
            }
            let level = view.mip_slice;
            if level >= shape.mip_levels {
                return fail(format!(
                    "mip slice {level} of a resource of {} mip levels",
                    shape.mip_levels
                ));
            }
            let [width, height, depth] = shape.mip_size(level);
            let (slices, first, count) = match view.dimension {
                UavDimension::Texture1DArray | UavDimension::Texture2DArray => {
                    (shape.array_size, view.first_array_slice, view.array_size)
                }
                UavDimension::Texture3D => (depth, view.first_array_slice, view.array_size),
                _ => (shape.array_size, 0, 1),
            };
            let count = if count == u32::MAX {
                slices.saturating_sub(first)
            } else {
                count
            };
            if count == 0 || first.checked_add(count).is_none_or(|end| end > slices) {
                return fail(format!("slices {first}..+{count} pass the resource's {slices}"));
            }
            let layout = shape.mip_layout(level).map_err(|e| Error::new("", e.detail))?;
            let plane = layout.row_bytes.saturating_mul(layout.rows);
            Ok(UavLayout {
                access: UavAccessKind::Typed,
                format: view.format,
                element_bytes,
                width,
                height: height.saturating_mul(count),
                slices: count,
                bytes: plane.saturating_mul(u64::from(count)),
            })
        }
        (None, None) => fail("a view of no resource".to_owned()),
    }
}

impl DrawCheck<'_> {
    /// A dispatch entry (version 1.3) of a capture of `draw_count` draws and `resolves`, whose previous dispatch came
    /// at `earliest` (draws before it, resolves before it): its place in the frame (consistent with the resolves'),
    /// the group counts (at most 65535 a dimension, 18.6.5), the compute stage, and each view (a slot below 64 bound
    /// once, its resource, a window that fits it, an `after` of the window's size, a counter after it only for a
    /// counter view). Gives each view's window, in the entry's order.
    pub fn dispatch(
        &self,
        entry: &DispatchEntry,
        draw_count: usize,
        resolves: &[ResolveEntry],
        earliest: (u64, u64),
    ) -> Result<Vec<UavLayout>> {
        let draws = u64::try_from(draw_count).unwrap_or(u64::MAX);
        if entry.before_draw > draws {
            return Err(self.error(
                "before_draw",
                format!("{} is past the capture's {draws} draws", entry.before_draw),
            ));
        }
        let resolve_count = u64::try_from(resolves.len()).unwrap_or(u64::MAX);
        if entry.before_resolve > resolve_count {
            return Err(self.error(
                "before_resolve",
                format!(
                    "{} is past the capture's {resolve_count} resolves",
                    entry.before_resolve
                ),
            ));
        }
        if entry.before_draw < earliest.0 || entry.before_resolve < earliest.1 {
            return Err(self.error(
                "before_draw",
                format!(
                    "{} draws and {} resolves before it, fewer than before the previous dispatch ({} and {}): \
                     dispatches are listed in the frame's order",
                    entry.before_draw, entry.before_resolve, earliest.0, earliest.1
                ),
            ));
        }
        let resolve_at = |n: u64| usize::try_from(n).ok().and_then(|n| resolves.get(n));
        let previous = entry.before_resolve.checked_sub(1).and_then(resolve_at);
        let next = resolve_at(entry.before_resolve);
        if previous.is_some_and(|r| r.before_draw > entry.before_draw)
            || next.is_some_and(|r| r.before_draw < entry.before_draw)
        {
            return Err(self.error(
                "before_resolve",
                format!(
                    "{} resolves before it do not fit its before_draw {}: the resolves on either side come at other \
                     draws",
                    entry.before_resolve, entry.before_draw
                ),
            ));
        }
        if entry.groups.iter().any(|g| *g > MAX_THREAD_GROUPS_PER_DIMENSION) {
            let [x, y, z] = entry.groups;
            return Err(self.error(
                "groups",
                format!("{x}x{y}x{z} thread groups: at most {MAX_THREAD_GROUPS_PER_DIMENSION} in a dimension (18.6.5)"),
            ));
        }
        self.stage("cs", &entry.cs, true)?;
        self.count("uavs", entry.uavs.len(), UAV_SLOTS)?;
        let mut seen = HashSet::new();
        let mut layouts = Vec::with_capacity(entry.uavs.len());
        for (index, uav) in entry.uavs.iter().enumerate() {
            let path = format!("uavs[{index}]");
            self.slot(&path, uav.slot, UAV_SLOTS, &mut seen)?;
            layouts.push(self.uav(&path, uav)?);
        }
        Ok(layouts)
    }

    /// One view of a dispatch or draw: its resource, its window, its after and counter.
    fn uav(&self, path: &str, uav: &UavEntry) -> Result<UavLayout> {
        let view = UnorderedAccessViewDesc::from(&uav.view);
        let layout = match &uav.resource {
            ResourceEntry::Buffer { data } => {
                self.blob(&format!("{path} resource data"), data)?;
                uav_layout(&view, Some(data.size), None)
            }
            ResourceEntry::Texture { shape, subresources } => {
                self.texture(&format!("{path} resource"), shape, subresources)?;
                uav_layout(&view, None, Some(&TextureShape::from(shape)))
            }
        }
        .map_err(|e| self.error(&format!("{path} view"), e.detail))?;
        if let Some(after) = &uav.after {
            let what = if matches!(uav.resource, ResourceEntry::Texture { .. }) {
                format!(
                    "the view's {}x{} texels of {} in {} slices",
                    layout.width,
                    layout.height.checked_div(layout.slices).unwrap_or(0),
                    layout.format,
                    layout.slices
                )
            } else {
                format!("the view's {} elements of {} bytes", layout.width, layout.element_bytes)
            };
            self.sized_blob(&format!("{path} after"), after, layout.bytes, &what)?;
        }
        if uav.counter_after.is_some() && !(view.append || view.counter) {
            return Err(self.error(
                &format!("{path} counter_after"),
                format!(
                    "a counter after the {} for a view without one (neither append nor counter)",
                    self.item
                ),
            ));
        }
        Ok(layout)
    }
}
