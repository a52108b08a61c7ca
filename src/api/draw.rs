//! Everything one D3D11 draw call depends on, as the API binds it: shaders, the input assembler's buffers and layout
//! (8.1), the call and its counts (8.3 to 8.6), each stage's constant buffers, shader resource views and samplers
//! (7.x), rasterizer, depth-stencil and blend state (15.1, 17.8, 17.1), viewports and scissor rectangles (15.6, 15.7),
//! and the render target and depth-stencil views with the textures they write (5.2), holding their contents before
//! the draw.
//!
//! A [`DrawState`] stands alone: one per draw, nothing shared with the draws before or after it but the `Arc`s of
//! unchanged data. Large data (shader bytecode, buffer bytes, texture subresources) is held as `Arc<[u8]>` and
//! [`Texture`], so that a capture writer can hash each blob once and store it once; the small state is plain data
//! whose parts are `serde` types.
//!
//! Slots follow the API: a `Vec<Option<_>>` indexed by slot, `None` for an empty slot, no longer than the highest
//! bound slot plus one, within D3D11's limits ([`crate::api::limits`]).

use crate::api::enums::PrimitiveTopology;
use crate::api::fixed_function::{BlendDesc, DepthStencilDesc, InputElementDesc, RasterizerDesc};
use crate::api::limits::{
    CONSTANT_BUFFER_CONSTANTS, CONSTANT_BUFFER_SLOTS, INPUT_ELEMENTS, RENDER_TARGET_SLOTS, SAMPLER_SLOTS,
    SHADER_RESOURCE_SLOTS, VERTEX_BUFFER_SLOTS, VIEWPORT_SLOTS,
};
use crate::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, Resource, SamplerDesc, ShaderResourceView, Texture,
};
use crate::api::viewport::{Scissor, Viewport};
use crate::format::Format;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One draw: the call, everything it reads, and the targets it writes with their contents before it.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawState {
    /// What the draw is called in messages: `"draws[2]"` for a description's third draw, a capture's event name.
    pub label: String,
    /// The vertex program's DXBC container.
    pub vertex_shader: Arc<[u8]>,
    /// The pixel program's DXBC container; `None` when no pixel shader is bound.
    pub pixel_shader: Option<Arc<[u8]>>,
    /// The input layout's elements in declaration order (8.1.3); empty when no layout is bound.
    pub input_layout: Vec<InputElementDesc>,
    /// The vertex buffer bound to each input slot (8.1.4).
    pub vertex_buffers: Vec<Option<VertexBufferBinding>>,
    /// The index buffer, for indexed draws (8.1.4).
    pub index_buffer: Option<IndexBufferBinding>,
    /// How vertices group into primitives (8.10).
    pub topology: PrimitiveTopology,
    /// The call and its counts.
    pub call: DrawCall,
    /// The vertex shader stage's bindings.
    pub vs: StageBindings,
    /// The hull program's DXBC (section 10), if one is bound (with a domain program: tessellation).
    pub hull_shader: Option<Arc<[u8]>>,
    /// The hull program's constant buffers, views and samplers.
    pub hs: StageBindings,
    /// The domain program's DXBC (section 12), if one is bound.
    pub domain_shader: Option<Arc<[u8]>>,
    /// The domain program's constant buffers, views and samplers.
    pub ds: StageBindings,
    /// The geometry program's DXBC (section 13), if one is bound.
    pub geometry_shader: Option<Arc<[u8]>>,
    /// The geometry program's constant buffers, views and samplers.
    pub gs: StageBindings,
    /// Stream output, if the last program before the rasterizer was created with a declaration.
    pub stream_output: Option<StreamOutputState>,
    /// The unordered access views the pixel program sees (`OMSetRenderTargetsAndUnorderedAccessViews`, 5.3.9), by
    /// slot (`u#`; the slots after the render targets').
    pub uavs: Vec<Option<super::resource::UnorderedAccessViewBinding>>,
    /// A `DrawAuto` call not yet resolved into a `Draw` (see [`DrawAuto`]).
    pub draw_auto: Option<DrawAuto>,
    /// The pixel shader stage's bindings.
    pub ps: StageBindings,
    /// Rasterizer state (15.1).
    pub rasterizer: RasterizerDesc,
    /// Depth-stencil state (17.8).
    pub depth_stencil: DepthStencilDesc,
    /// The stencil reference value (`OMSetDepthStencilState`); its low 8 bits take part (17.12).
    pub stencil_ref: u32,
    /// Blend state (17.1).
    pub blend: BlendDesc,
    /// The blend factor (`OMSetBlendState`), red to alpha.
    pub blend_factor: [f32; 4],
    /// The sample mask (`OMSetBlendState`); bit n enables sample n (17.18).
    pub sample_mask: u32,
    /// The viewports (`RSSetViewports`); a draw without geometry shader uses the first.
    pub viewports: Vec<Viewport>,
    /// The scissor rectangles (`RSSetScissorRects`), applied when the rasterizer state enables them.
    pub scissor_rects: Vec<Scissor>,
    /// The render target bound to each slot, with the texture's contents before the draw.
    pub render_targets: Vec<Option<RenderTargetView>>,
    /// The depth-stencil view, with the texture's contents before the draw.
    pub depth_stencil_view: Option<DepthStencilView>,
    /// The quality level of the bound targets' `DXGI_SAMPLE_DESC` (all bound targets share it), which picks their
    /// sample positions (19.2.4): 0 or `D3D11_STANDARD_MULTISAMPLE_PATTERN` (`0xFFFFFFFF`) for the standard pattern,
    /// `D3D11_CENTER_MULTISAMPLE_PATTERN` (`0xFFFFFFFE`) for the centre one. Irrelevant with one sample.
    pub sample_quality: u32,
}

impl DrawState {
    /// A draw of `call` with `vertex_shader` and every other binding empty and every state D3D11's default (what
    /// `ClearState` leaves): no layout, buffers or targets, topology undefined, blend factor 1, sample mask all ones.
    pub fn new(label: impl Into<String>, vertex_shader: Arc<[u8]>, call: DrawCall) -> Self {
        Self {
            label: label.into(),
            vertex_shader,
            pixel_shader: None,
            input_layout: Vec::new(),
            vertex_buffers: Vec::new(),
            index_buffer: None,
            topology: PrimitiveTopology::Undefined,
            call,
            vs: StageBindings::default(),
            hull_shader: None,
            hs: StageBindings::default(),
            domain_shader: None,
            ds: StageBindings::default(),
            geometry_shader: None,
            gs: StageBindings::default(),
            stream_output: None,
            uavs: Vec::new(),
            draw_auto: None,
            ps: StageBindings::default(),
            rasterizer: RasterizerDesc::default(),
            depth_stencil: DepthStencilDesc::default(),
            stencil_ref: 0,
            blend: BlendDesc::default(),
            blend_factor: [1.0; 4],
            sample_mask: u32::MAX,
            viewports: Vec::new(),
            scissor_rects: Vec::new(),
            render_targets: Vec::new(),
            depth_stencil_view: None,
            sample_quality: 0,
        }
    }

    /// The vertex buffer bound to `slot`, if any.
    pub fn vertex_buffer(&self, slot: u32) -> Option<&VertexBufferBinding> {
        self.vertex_buffers.get(usize::try_from(slot).ok()?)?.as_ref()
    }

    /// An error about this draw: `what` names the draw and the part (`"draws[2] input assembler"`).
    pub fn error(&self, part: &str, detail: impl Into<String>) -> Error {
        Error::new(format!("{} {part}", self.label).trim().to_owned(), detail)
    }

    /// Checks the slot counts against D3D11's limits (the API cannot bind more).
    pub fn check_limits(&self) -> Result<()> {
        let checks: [(&str, usize, usize); 9] = [
            ("vertex buffer slots", self.vertex_buffers.len(), VERTEX_BUFFER_SLOTS),
            ("input layout elements", self.input_layout.len(), INPUT_ELEMENTS),
            (
                "vertex shader constant buffer slots",
                self.vs.constant_buffers.len(),
                CONSTANT_BUFFER_SLOTS,
            ),
            (
                "pixel shader constant buffer slots",
                self.ps.constant_buffers.len(),
                CONSTANT_BUFFER_SLOTS,
            ),
            (
                "vertex shader resource slots",
                self.vs.shader_resources.len(),
                SHADER_RESOURCE_SLOTS,
            ),
            (
                "pixel shader resource slots",
                self.ps.shader_resources.len(),
                SHADER_RESOURCE_SLOTS,
            ),
            ("render target slots", self.render_targets.len(), RENDER_TARGET_SLOTS),
            ("viewports", self.viewports.len(), VIEWPORT_SLOTS),
            ("scissor rectangles", self.scissor_rects.len(), VIEWPORT_SLOTS),
        ];
        for (name, count, limit) in checks {
            if count > limit {
                return Err(self.error("state", format!("{count} {name}, more than D3D11's {limit}")));
            }
        }
        for (name, count) in [
            ("vertex shader", self.vs.samplers.len()),
            ("pixel shader", self.ps.samplers.len()),
        ] {
            if count > SAMPLER_SLOTS {
                return Err(self.error(
                    "state",
                    format!("{count} {name} sampler slots, more than D3D11's {SAMPLER_SLOTS}"),
                ));
            }
        }
        Ok(())
    }
}

/// A vertex buffer bound to an input slot (`IASetVertexBuffers`, 8.1.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexBufferBinding {
    /// The whole buffer's bytes.
    pub data: Arc<[u8]>,
    /// Bytes from one vertex (or instance) to the next; 0 makes every vertex read the same bytes.
    pub stride: u32,
    /// Bytes from the buffer's start to vertex 0.
    pub offset: u32,
}

/// The format of an index buffer's indices: 16 or 32 bits (8.1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IndexFormat {
    /// `DXGI_FORMAT_R16_UINT`.
    #[serde(rename = "R16_UINT")]
    R16Uint,
    /// `DXGI_FORMAT_R32_UINT`.
    #[serde(rename = "R32_UINT")]
    R32Uint,
}

impl IndexFormat {
    /// The index format `format` is, or an error for a format an index buffer cannot have.
    pub fn from_format(format: Format) -> Result<Self> {
        match format {
            Format::R16Uint => Ok(Self::R16Uint),
            Format::R32Uint => Ok(Self::R32Uint),
            other => Err(Error::new(
                "index buffer",
                format!("{other} is not an index format (R16_UINT or R32_UINT)"),
            )),
        }
    }

    /// The DXGI format.
    pub fn format(self) -> Format {
        match self {
            Self::R16Uint => Format::R16Uint,
            Self::R32Uint => Format::R32Uint,
        }
    }

    /// Bytes per index.
    pub fn bytes(self) -> u32 {
        match self {
            Self::R16Uint => 2,
            Self::R32Uint => 4,
        }
    }

    /// The strip cut value: the largest index the format holds (8.12).
    pub fn cut_value(self) -> u32 {
        match self {
            Self::R16Uint => 0xffff,
            Self::R32Uint => 0xffff_ffff,
        }
    }
}

/// The index buffer binding (`IASetIndexBuffer`, 8.1.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexBufferBinding {
    /// The whole buffer's bytes.
    pub data: Arc<[u8]>,
    /// 16- or 32-bit indices.
    pub format: IndexFormat,
    /// Bytes from the buffer's start to index 0.
    pub offset: u32,
}

/// The draw call and its arguments (8.3 to 8.6). Counts are in vertices or indices; locations are element numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "call")]
pub enum DrawCall {
    /// `Draw(VertexCount, StartVertexLocation)` (8.3).
    Draw {
        /// Vertices read in sequence.
        vertex_count: u32,
        /// The first vertex of the per-vertex buffers.
        start_vertex: u32,
    },
    /// `DrawIndexed(IndexCount, StartIndexLocation, BaseVertexLocation)` (8.5).
    DrawIndexed {
        /// Indices read in sequence.
        index_count: u32,
        /// The first index read.
        start_index: u32,
        /// Added to each index to find the vertex in the per-vertex buffers (signed).
        base_vertex: i32,
    },
    /// `DrawInstanced(VertexCountPerInstance, InstanceCount, StartVertexLocation, StartInstanceLocation)` (8.4).
    DrawInstanced {
        /// Vertices read in sequence, each instance.
        vertex_count_per_instance: u32,
        /// Instances drawn.
        instance_count: u32,
        /// The first vertex of the per-vertex buffers.
        start_vertex: u32,
        /// The first element of the per-instance buffers.
        start_instance: u32,
    },
    /// `DrawIndexedInstanced(IndexCountPerInstance, InstanceCount, StartIndexLocation, BaseVertexLocation,
    /// StartInstanceLocation)` (8.6).
    DrawIndexedInstanced {
        /// Indices read in sequence, each instance.
        index_count_per_instance: u32,
        /// Instances drawn.
        instance_count: u32,
        /// The first index read.
        start_index: u32,
        /// Added to each index to find the vertex in the per-vertex buffers (signed).
        base_vertex: i32,
        /// The first element of the per-instance buffers.
        start_instance: u32,
    },
}

impl DrawCall {
    /// Whether the call reads an index buffer.
    pub fn is_indexed(self) -> bool {
        matches!(self, Self::DrawIndexed { .. } | Self::DrawIndexedInstanced { .. })
    }

    /// Vertices (or indices) read per instance.
    pub fn count_per_instance(self) -> u32 {
        match self {
            Self::Draw { vertex_count, .. } => vertex_count,
            Self::DrawIndexed { index_count, .. } => index_count,
            Self::DrawInstanced {
                vertex_count_per_instance,
                ..
            } => vertex_count_per_instance,
            Self::DrawIndexedInstanced {
                index_count_per_instance,
                ..
            } => index_count_per_instance,
        }
    }

    /// Instances drawn: 1 for the calls that are not instanced (8.3.1, 8.5.1 draw them as one instance).
    pub fn instance_count(self) -> u32 {
        match self {
            Self::Draw { .. } | Self::DrawIndexed { .. } => 1,
            Self::DrawInstanced { instance_count, .. } | Self::DrawIndexedInstanced { instance_count, .. } => {
                instance_count
            }
        }
    }

    /// The first per-instance element: 0 for the calls that are not instanced.
    pub fn start_instance(self) -> u32 {
        match self {
            Self::Draw { .. } | Self::DrawIndexed { .. } => 0,
            Self::DrawInstanced { start_instance, .. } | Self::DrawIndexedInstanced { start_instance, .. } => {
                start_instance
            }
        }
    }

    /// The call's name as the API spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Draw { .. } => "Draw",
            Self::DrawIndexed { .. } => "DrawIndexed",
            Self::DrawInstanced { .. } => "DrawInstanced",
            Self::DrawIndexedInstanced { .. } => "DrawIndexedInstanced",
        }
    }
}

/// A constant buffer bound to a slot: the buffer and the window of it the shader sees (`*SetConstantBuffers1`,
/// D3D11.1), in 16-byte constants. A plain `*SetConstantBuffers` binding is the window from constant 0 of
/// `min(buffer constants, 4096)` constants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantBufferBinding {
    /// The whole buffer's bytes.
    pub data: Arc<[u8]>,
    /// The first constant (16-byte register) the shader sees as `cb#[0]`.
    pub first_constant: u32,
    /// How many constants the shader sees.
    pub num_constants: u32,
}

impl ConstantBufferBinding {
    /// The plain binding of a whole buffer: from constant 0, as many constants as it holds up to 4096.
    pub fn whole(data: Arc<[u8]>) -> Self {
        let constants = u32::try_from(data.len() / 16).unwrap_or(u32::MAX);
        Self {
            data,
            first_constant: 0,
            num_constants: constants.min(CONSTANT_BUFFER_CONSTANTS),
        }
    }

    /// The bytes of the window the shader sees, cut short where the buffer ends.
    pub fn visible(&self) -> &[u8] {
        let start = usize::try_from(u64::from(self.first_constant).saturating_mul(16)).unwrap_or(usize::MAX);
        let len = usize::try_from(u64::from(self.num_constants).saturating_mul(16)).unwrap_or(usize::MAX);
        let start = start.min(self.data.len());
        let end = start.saturating_add(len).min(self.data.len());
        self.data.get(start..end).unwrap_or(&[])
    }
}

/// What one shader stage has bound: constant buffers, shader resource views and samplers, by slot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StageBindings {
    /// Constant buffers (`cb#`).
    pub constant_buffers: Vec<Option<ConstantBufferBinding>>,
    /// Shader resource views (`t#`).
    pub shader_resources: Vec<Option<ShaderResourceView>>,
    /// Sampler states (`s#`).
    pub samplers: Vec<Option<SamplerDesc>>,
}

impl StageBindings {
    /// The constant buffer at `slot`, if bound.
    pub fn constant_buffer(&self, slot: u32) -> Option<&ConstantBufferBinding> {
        self.constant_buffers.get(usize::try_from(slot).ok()?)?.as_ref()
    }

    /// The shader resource view at `slot`, if bound.
    pub fn shader_resource(&self, slot: u32) -> Option<&ShaderResourceView> {
        self.shader_resources.get(usize::try_from(slot).ok()?)?.as_ref()
    }

    /// The sampler at `slot`, if bound.
    pub fn sampler(&self, slot: u32) -> Option<&SamplerDesc> {
        self.samplers.get(usize::try_from(slot).ok()?)?.as_ref()
    }
}

/// A render target view: the resource it writes (with its contents) and how it sees it (5.2).
#[derive(Clone, Debug, PartialEq)]
pub struct RenderTargetView {
    /// The resource.
    pub resource: Arc<Resource>,
    /// How the view sees it: format, dimension, mip and slices.
    pub desc: RenderTargetViewDesc,
}

impl RenderTargetView {
    /// The texture the view writes, if the resource is one.
    pub fn texture(&self) -> Option<&Texture> {
        match self.resource.as_ref() {
            Resource::Texture(texture) => Some(texture),
            Resource::Buffer(_) => None,
        }
    }
}

/// A depth-stencil view: the texture it writes (with its contents) and how it sees it (5.2, 17.13).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthStencilView {
    /// The resource.
    pub resource: Arc<Resource>,
    /// How the view sees it: depth format, dimension, mip, slices, read-only flags.
    pub desc: DepthStencilViewDesc,
}

impl DepthStencilView {
    /// The texture the view writes, if the resource is one.
    pub fn texture(&self) -> Option<&Texture> {
        match self.resource.as_ref() {
            Resource::Texture(texture) => Some(texture),
            Resource::Buffer(_) => None,
        }
    }
}

/// Puts `value` at `slot` of a slot list, growing it with empty slots as needed; an error for a slot at or past
/// `limit`.
pub fn bind_slot<T>(slots: &mut Vec<Option<T>>, slot: u32, value: T, limit: usize) -> Result<()> {
    let index = usize::try_from(slot).unwrap_or(usize::MAX);
    if index >= limit {
        return Err(Error::new(
            "binding",
            format!("slot {slot} is past the last slot, {}", limit.saturating_sub(1)),
        ));
    }
    if slots.len() <= index {
        slots.resize_with(index.saturating_add(1), || None);
    }
    if let Some(place) = slots.get_mut(index) {
        *place = Some(value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_that_are_not_instanced_draw_one_instance_from_element_zero() {
        let draw = DrawCall::DrawIndexed {
            index_count: 6,
            start_index: 3,
            base_vertex: -2,
        };
        assert_eq!((draw.instance_count(), draw.start_instance()), (1, 0));
        assert!(draw.is_indexed());
        let instanced = DrawCall::DrawInstanced {
            vertex_count_per_instance: 4,
            instance_count: 7,
            start_vertex: 0,
            start_instance: 5,
        };
        assert_eq!((instanced.instance_count(), instanced.start_instance()), (7, 5));
        assert_eq!(instanced.count_per_instance(), 4);
    }

    #[test]
    fn the_cut_value_is_the_largest_index_of_the_format() {
        // 8.12: 0xffff for 16-bit indices, 0xffffffff for 32-bit ones.
        assert_eq!(IndexFormat::R16Uint.cut_value(), 0xffff);
        assert_eq!(IndexFormat::R32Uint.cut_value(), 0xffff_ffff);
        assert!(IndexFormat::from_format(Format::R8Uint).is_err());
    }

    #[test]
    fn a_plain_constant_buffer_binding_sees_at_most_4096_constants() {
        // 70000 bytes = 4375 whole constants; a plain binding sees the first 4096 (65536 bytes).
        let binding = ConstantBufferBinding::whole(Arc::from(vec![0u8; 70000]));
        assert_eq!(binding.num_constants, 4096);
        assert_eq!(binding.visible().len(), 65536);
        // An offset window past the end is cut short: constants 4370.. of 4375 leave 5 * 16 + 0 bytes.
        let window = ConstantBufferBinding {
            first_constant: 4370,
            num_constants: 16,
            ..binding
        };
        assert_eq!(window.visible().len(), 70000 - 4370 * 16);
    }

    #[test]
    fn binding_a_slot_grows_the_list_and_refuses_slots_past_the_limit() {
        let mut slots: Vec<Option<u8>> = Vec::new();
        bind_slot(&mut slots, 3, 7, 8).unwrap();
        assert_eq!(slots, [None, None, None, Some(7)]);
        assert!(bind_slot(&mut slots, 8, 1, 8).is_err());
    }

    #[test]
    fn limits_are_checked() {
        let mut draw = DrawState::new(
            "d",
            Arc::from(vec![]),
            DrawCall::Draw {
                vertex_count: 3,
                start_vertex: 0,
            },
        );
        assert!(draw.check_limits().is_ok());
        draw.render_targets = vec![None; 9];
        let e = draw.check_limits().unwrap_err();
        assert!(e.detail.contains("9 render target slots"), "{e}");
    }
}

/// One element of a stream-output declaration (`D3D11_SO_DECLARATION_ENTRY`, 14.3): which stream, the output it
/// writes (by semantic; `None` for a gap of `component_count` components), which of its components, which buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamOutputEntry {
    /// The stream (0..3).
    pub stream: u32,
    /// The output element's semantic name and index; `None`: a gap (the buffer's bytes there are left as they are).
    pub semantic: Option<(String, u32)>,
    /// The first component written (0 = x).
    pub start_component: u8,
    /// How many components (1..4).
    pub component_count: u8,
    /// The buffer slot (0..3).
    pub slot: u32,
}

/// A buffer bound for stream output (`SOSetTargets`, 14.2): its contents before the draw and where writing starts.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamOutputTarget {
    /// The buffer's bytes.
    pub buffer: Arc<[u8]>,
    /// The byte offset the draw's first vertex goes to; [`STREAM_OUTPUT_APPEND`] (-1 in the API) for where the
    /// buffer's filled size stands (14.4), which a sequence of draws knows from the draws before.
    pub offset: u32,
}

/// `SOSetTargets`' offset -1: append where the buffer's filled size stands (14.4).
pub const STREAM_OUTPUT_APPEND: u32 = u32::MAX;

/// `DrawAuto` (8.9): stream output's buffer bound as vertex buffer 0, drawn with as many vertices as its filled
/// size holds; a sequence of draws ([`crate::draw::run_sequence`]) resolves it into a `Draw` call.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawAuto {
    /// The stream-output buffer, as the draws were given it (the sequence finds what earlier draws left in it).
    pub buffer: Arc<[u8]>,
    /// The vertex stride.
    pub stride: u32,
}

/// Stream output (section 14): the declaration the geometry program (or, without one, the vertex program) was created
/// with, the buffer strides, the stream that reaches the rasterizer, and the bound buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamOutputState {
    /// The declaration, in order.
    pub entries: Vec<StreamOutputEntry>,
    /// Each buffer slot's vertex stride in bytes.
    pub strides: [u32; 4],
    /// The stream rasterized; `None` for `D3D11_SO_NO_RASTERIZED_STREAM`.
    pub rasterized_stream: Option<u32>,
    /// The bound buffers by slot.
    pub targets: [Option<StreamOutputTarget>; 4],
}
