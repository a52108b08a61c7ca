//! What the output merger did at one pixel, for pixel history: the inputs and outcome of the coverage, the depth and
//! stencil tests and each render target's write. A record is filled only when the caller passes one (`Some(&mut
//! record)`), so the draw module asks for the pixel the user picked and pays nothing elsewhere.

use crate::api::enums::{Blend, BlendOp, ComparisonFunc, LogicOp, StencilOp};
use crate::api::limits::RENDER_TARGET_SLOTS;
use crate::format::{Format, ShaderType, Texel};
use serde::Serialize;

/// How a fragment fared in the depth and stencil tests (17.9, 17.11, 17.12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum DepthStencilOutcome {
    /// Both passed (or were off): the fragment goes on to the render targets.
    #[default]
    Passed,
    /// The stencil test failed: the stencil fail operation ran, nothing else is written.
    StencilFailed,
    /// The stencil test passed and the depth test failed: the depth-fail operation ran, nothing else is written.
    DepthFailed,
}

impl DepthStencilOutcome {
    /// Whether the fragment goes on to the render targets.
    pub fn passed(self) -> bool {
        self == DepthStencilOutcome::Passed
    }
}

/// Which of the stencil operations ran (17.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StencilCase {
    /// The stencil test failed.
    Fail,
    /// The stencil test passed, the depth test failed.
    DepthFail,
    /// Both passed.
    Pass,
}

/// The coverage of the pixel's samples after the program (17.17, 16.9.4, 17.18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CoverageRecord {
    /// The samples the primitive covered, as they came to the output merger (bit `s` is sample `s`).
    pub rasterized: u32,
    /// The alpha-to-coverage mask of `o0.a`, when alpha-to-coverage applied.
    pub alpha_mask: Option<u32>,
    /// The samples left covered: the rasterized ones in the sample mask, `oMask` and the alpha-to-coverage mask.
    pub mask: u32,
    /// The blend state's sample mask.
    pub sample_mask: u32,
    /// The program's `oMask`, when it writes one.
    pub output_mask: Option<u32>,
    /// `o0.a` when alpha-to-coverage applied (it is off when the program writes `oMask`).
    pub alpha_to_coverage: Option<f32>,
    /// Whether any sample is covered: the fragment goes on to the depth/stencil tests and the targets.
    pub covered: bool,
}

/// The stencil test and operation at one pixel (17.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StencilRecord {
    /// The facing that chose the operations (front-facing uses `front_face`).
    pub front_facing: bool,
    /// The reference value (the state's low 8 bits).
    pub reference: u8,
    /// The mask both sides of the test are ANDed with.
    pub read_mask: u8,
    /// The bits an operation may change.
    pub write_mask: u8,
    /// The comparison: reference (masked) against stored (masked).
    pub func: ComparisonFunc,
    /// The stored value before.
    pub before: u8,
    /// Whether the test passed.
    pub passed: bool,
    /// Which operation ran.
    pub case: StencilCase,
    /// The operation.
    pub op: StencilOp,
    /// Whether the view lets stencil be written (17.13).
    pub writable: bool,
    /// The stored value after.
    pub after: u8,
}

/// The depth test and write at one pixel (17.10, 17.11, 17.13).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DepthRecord {
    /// The depth that reached the output merger (interpolated, or the program's `oDepth`).
    pub incoming: f32,
    /// Clamped to the viewport's depth range (17.10).
    pub clamped: f32,
    /// Converted to the buffer's precision (17.11): what is compared and written.
    pub quantized: f32,
    /// The buffer's value before.
    pub stored: f32,
    /// The comparison: quantized (incoming) against stored.
    pub func: ComparisonFunc,
    /// The result; `None` when the stencil test failed first and depth was not compared.
    pub passed: Option<bool>,
    /// Whether depth was written (passed, depth writes on, view not read-only).
    pub written: bool,
    /// The buffer's value after.
    pub after: f32,
}

/// The depth and stencil tests at one pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct DepthStencilRecord {
    /// The result.
    pub outcome: DepthStencilOutcome,
    /// The stencil test; `None` when off or the buffer has no stencil.
    pub stencil: Option<StencilRecord>,
    /// The depth test; `None` when off or no buffer is bound.
    pub depth: Option<DepthRecord>,
}

/// A texel as a target stores it: its bytes, the words a shader reads from it, and those words as numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StoredTexel {
    /// The element's bytes; the first `len` are used.
    pub bytes: [u8; 16],
    /// How many bytes the element has.
    pub len: u8,
    /// The words (float bits for float formats, linear for sRGB; integers for UINT/SINT).
    pub words: Texel,
    /// The words as numbers: floats for float formats, the integers for UINT/SINT (exact in f64).
    pub values: [f64; 4],
}

impl StoredTexel {
    /// The record of an element's `bytes` and decoded `words` in a format read as `shader_type`.
    pub fn new(bytes: &[u8], words: Texel, shader_type: ShaderType) -> StoredTexel {
        let mut stored = [0u8; 16];
        let len = bytes.len().min(16);
        if let (Some(dst), Some(src)) = (stored.get_mut(..len), bytes.get(..len)) {
            dst.copy_from_slice(src);
        }
        StoredTexel {
            bytes: stored,
            len: u8::try_from(len).unwrap_or(16),
            words,
            values: words_as_numbers(words, shader_type),
        }
    }
}

/// Register words as numbers: float bits as floats, UINT/SINT words as integers.
pub fn words_as_numbers(words: Texel, shader_type: ShaderType) -> [f64; 4] {
    words.map(|w| match shader_type {
        ShaderType::Uint => f64::from(w),
        ShaderType::Sint => f64::from(w as i32),
        ShaderType::Float | ShaderType::None => f64::from(f32::from_bits(w)),
    })
}

/// The blend equation at one target, with every value it used (17.1, 17.5): colours in components 0..3 (r, g, b),
/// alpha in 3.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BlendRecord {
    /// Source colour factor.
    pub src_blend: Blend,
    /// Destination colour factor.
    pub dest_blend: Blend,
    /// Colour operation.
    pub blend_op: BlendOp,
    /// Source alpha factor.
    pub src_blend_alpha: Blend,
    /// Destination alpha factor.
    pub dest_blend_alpha: Blend,
    /// Alpha operation.
    pub blend_op_alpha: BlendOp,
    /// The program's output, clamped to the target's range (17.5).
    pub source: [f32; 4],
    /// `o1`, clamped, for the SRC1 factors (17.6).
    pub source1: [f32; 4],
    /// The target's value (linear for sRGB, 17.4).
    pub destination: [f32; 4],
    /// The blend factor, clamped.
    pub blend_factor: [f32; 4],
    /// The source factor per component.
    pub source_factor: [f32; 4],
    /// The destination factor per component.
    pub destination_factor: [f32; 4],
    /// The blended value, before the conversion to the format (which clamps).
    pub result: [f32; 4],
}

/// The logic operation at one target (17.7), on the components' bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LogicRecord {
    /// The operation.
    pub op: LogicOp,
    /// The program's output, each component cut to the format's bits.
    pub source: Texel,
    /// The target's value.
    pub destination: Texel,
    /// The result.
    pub result: Texel,
}

/// What was done to a target's value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum TargetOperation {
    /// The program's output replaced it (converted to the format).
    Replace,
    /// Blending.
    Blend(BlendRecord),
    /// A logic operation.
    Logic(LogicRecord),
}

/// One render target's write at one pixel.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TargetRecord {
    /// The target's slot (below [`RENDER_TARGET_SLOTS`]).
    pub slot: u8,
    /// Its format.
    pub format: Format,
    /// The program's output register `o<slot>` (raw words).
    pub source: Texel,
    /// `o1` when dual-source blending read it.
    pub source1: Option<Texel>,
    /// The texel before.
    pub before: StoredTexel,
    /// What was done.
    pub operation: TargetOperation,
    /// The components written: the target's write mask and the components the program declares (17.15, 16.9.1).
    pub write_mask: u8,
    /// The texel after.
    pub after: StoredTexel,
}

/// Every render target's write at one pixel; `None` for a slot that was not written (unbound, the program does not
/// declare its output, or dual-source blending writes only slot 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct WriteRecord {
    /// Per slot.
    pub targets: [Option<TargetRecord>; RENDER_TARGET_SLOTS],
}
