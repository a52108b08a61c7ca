//! The fixed-function state of a draw as the D3D11 API describes it (`D3D11_*_DESC`): rasterizer (15.1), depth-stencil
//! (17.8, 17.12), blend (17.1) and input layout (8.1) state. Defaults are D3D11's defaults for each structure. These are
//! the state a capture records and a draw description gives; the pipeline stages turn them into their own working
//! forms.

use crate::api::enums::StencilOp;
use crate::api::enums::{
    Blend, BlendOp, ComparisonFunc, CullMode, DepthWriteMask, FillMode, InputClassification, LogicOp,
};
use crate::api::limits::RENDER_TARGET_SLOTS;
use crate::format::Format;
use serde::{Deserialize, Serialize};

/// `D3D11_RASTERIZER_DESC` (15.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RasterizerDesc {
    /// Solid or wireframe.
    pub fill_mode: FillMode,
    /// Which facing is culled.
    pub cull_mode: CullMode,
    /// Whether a counter-clockwise triangle is front facing.
    pub front_counter_clockwise: bool,
    /// The constant depth bias, in units of the depth buffer's r (15.10).
    pub depth_bias: i32,
    /// The largest depth bias magnitude; 0 clamps nothing (15.10).
    pub depth_bias_clamp: f32,
    /// The factor of the triangle's largest depth slope in the bias (15.10).
    pub slope_scaled_depth_bias: f32,
    /// Whether triangles are clipped to `0 <= z <= w` (15.4, 17.10).
    pub depth_clip_enable: bool,
    /// Whether the scissor rectangle applies (15.7).
    pub scissor_enable: bool,
    /// Multisample antialiasing of lines (with one sample a pixel it changes nothing for triangles).
    pub multisample_enable: bool,
    /// Alpha antialiasing of lines.
    pub antialiased_line_enable: bool,
    /// `D3D11_RASTERIZER_DESC1::ForcedSampleCount` (3.5.6, target-independent rasterization): 0 off, else the
    /// standard pattern of 1, 4, 8 or 16 samples the rasterizer covers whatever the targets' sample count.
    pub forced_sample_count: u32,
}

impl Default for RasterizerDesc {
    fn default() -> Self {
        Self {
            fill_mode: FillMode::Solid,
            cull_mode: CullMode::Back,
            front_counter_clockwise: false,
            depth_bias: 0,
            depth_bias_clamp: 0.0,
            slope_scaled_depth_bias: 0.0,
            depth_clip_enable: true,
            scissor_enable: false,
            multisample_enable: false,
            antialiased_line_enable: false,
            forced_sample_count: 0,
        }
    }
}

/// `D3D11_DEPTH_STENCILOP_DESC`: the stencil operations and test of one facing (17.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StencilFaceDesc {
    /// What a failed stencil test does.
    pub fail: StencilOp,
    /// What a passed stencil test and failed depth test do.
    pub depth_fail: StencilOp,
    /// What passing both does.
    pub pass: StencilOp,
    /// The stencil test: the reference (masked) against the stored value (masked).
    pub func: ComparisonFunc,
}

impl Default for StencilFaceDesc {
    fn default() -> Self {
        Self {
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
            func: ComparisonFunc::Always,
        }
    }
}

/// `D3D11_DEPTH_STENCIL_DESC` (17.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DepthStencilDesc {
    /// Whether the depth test runs (and depth is written).
    pub depth_enable: bool,
    /// Whether a pixel that passes writes its depth.
    pub depth_write_mask: DepthWriteMask,
    /// The depth test: the pixel's depth against the stored one.
    pub depth_func: ComparisonFunc,
    /// Whether the stencil test runs.
    pub stencil_enable: bool,
    /// The mask applied to the reference and stored value before the stencil test.
    pub stencil_read_mask: u8,
    /// The bits of the stored stencil value an operation may change.
    pub stencil_write_mask: u8,
    /// Stencil operations for front-facing triangles.
    pub front_face: StencilFaceDesc,
    /// Stencil operations for back-facing triangles.
    pub back_face: StencilFaceDesc,
}

impl Default for DepthStencilDesc {
    fn default() -> Self {
        Self {
            depth_enable: true,
            depth_write_mask: DepthWriteMask::All,
            depth_func: ComparisonFunc::Less,
            stencil_enable: false,
            stencil_read_mask: 0xff,
            stencil_write_mask: 0xff,
            front_face: StencilFaceDesc::default(),
            back_face: StencilFaceDesc::default(),
        }
    }
}

/// `D3D11_RENDER_TARGET_BLEND_DESC1`: blending into one render target (17.1, 17.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RenderTargetBlendDesc {
    /// Whether blending is on.
    pub blend_enable: bool,
    /// Whether the logic operation is on (not together with blending).
    pub logic_op_enable: bool,
    /// The factor of the program's output (colour).
    pub src_blend: Blend,
    /// The factor of the target's value (colour).
    pub dest_blend: Blend,
    /// How the two combine (colour).
    pub blend_op: BlendOp,
    /// The factor of the program's output (alpha).
    pub src_blend_alpha: Blend,
    /// The factor of the target's value (alpha).
    pub dest_blend_alpha: Blend,
    /// How the two combine (alpha).
    pub blend_op_alpha: BlendOp,
    /// The logic operation.
    pub logic_op: LogicOp,
    /// Which components are written (bit 0 = red .. bit 3 = alpha).
    pub render_target_write_mask: u8,
}

impl Default for RenderTargetBlendDesc {
    fn default() -> Self {
        Self {
            blend_enable: false,
            logic_op_enable: false,
            src_blend: Blend::One,
            dest_blend: Blend::Zero,
            blend_op: BlendOp::Add,
            src_blend_alpha: Blend::One,
            dest_blend_alpha: Blend::Zero,
            blend_op_alpha: BlendOp::Add,
            logic_op: LogicOp::Noop,
            render_target_write_mask: 0xf,
        }
    }
}

/// `D3D11_BLEND_DESC1` (17.1, 17.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlendDesc {
    /// Whether alpha turns into coverage (17.18).
    pub alpha_to_coverage_enable: bool,
    /// Whether each target has its own blend state; otherwise target 0's applies to all.
    pub independent_blend_enable: bool,
    /// Per render target.
    pub render_target: [RenderTargetBlendDesc; RENDER_TARGET_SLOTS],
}

impl BlendDesc {
    /// The blend state that applies to target `index` (target 0's unless blending is independent, 17.3).
    pub fn for_target(&self, index: usize) -> Option<&RenderTargetBlendDesc> {
        if self.independent_blend_enable {
            self.render_target.get(index)
        } else if index < self.render_target.len() {
            self.render_target.first()
        } else {
            None
        }
    }
}

/// `D3D11_APPEND_ALIGNED_ELEMENT`: an element's offset is just past the previous element in its slot (8.1).
pub const APPEND_ALIGNED_ELEMENT: u32 = 0xffff_ffff;

/// `D3D11_INPUT_ELEMENT_DESC`: where one vertex program input comes from (8.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputElementDesc {
    /// The semantic it feeds (matched without case).
    pub semantic_name: String,
    /// The semantic's index.
    #[serde(default)]
    pub semantic_index: u32,
    /// How the data is stored.
    pub format: Format,
    /// The vertex buffer slot.
    #[serde(default)]
    pub input_slot: u32,
    /// The byte offset in the vertex, or [`APPEND_ALIGNED_ELEMENT`].
    #[serde(default = "append_aligned")]
    pub aligned_byte_offset: u32,
    /// Per vertex or per instance.
    #[serde(default = "per_vertex")]
    pub input_slot_class: InputClassification,
    /// For per-instance data: how many instances each element serves (0: every instance reads element 0).
    #[serde(default)]
    pub instance_data_step_rate: u32,
}

fn append_aligned() -> u32 {
    APPEND_ALIGNED_ELEMENT
}

fn per_vertex() -> InputClassification {
    InputClassification::PerVertexData
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_d3d11s() {
        let r = RasterizerDesc::default();
        assert_eq!(
            (r.fill_mode, r.cull_mode, r.depth_clip_enable),
            (FillMode::Solid, CullMode::Back, true)
        );
        let d = DepthStencilDesc::default();
        assert_eq!(
            (d.depth_enable, d.depth_func, d.stencil_read_mask),
            (true, ComparisonFunc::Less, 0xff)
        );
        let b = RenderTargetBlendDesc::default();
        assert_eq!(
            (b.src_blend, b.dest_blend, b.render_target_write_mask),
            (Blend::One, Blend::Zero, 0xf)
        );
    }

    #[test]
    fn without_independent_blending_every_target_takes_target_zeros_state() {
        let mut blend = BlendDesc::default();
        blend.render_target[0].blend_enable = true;
        assert!(blend.for_target(5).unwrap().blend_enable);
        blend.independent_blend_enable = true;
        assert!(!blend.for_target(5).unwrap().blend_enable);
        assert!(blend.for_target(8).is_none());
    }

    #[test]
    fn an_input_element_reads_from_json_with_d3d11_defaults() {
        let e: InputElementDesc =
            serde_json::from_str(r#"{"semantic_name": "TEXCOORD", "format": "R32G32_FLOAT"}"#).unwrap();
        assert_eq!(e.aligned_byte_offset, APPEND_ALIGNED_ELEMENT);
        assert_eq!(e.input_slot_class, InputClassification::PerVertexData);
        assert_eq!(e.format, Format::R32G32Float);
    }
}
