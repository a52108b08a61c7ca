//! The output merger (D3D11.3 chapter 17): what happens to a pixel after the pixel program. Its one sample's
//! coverage is decided, the depth and stencil tests run, and each render target blends and stores the program's
//! output. The draw module builds one [`OutputMerger`] per draw from the state ([`OutputMergerState`]) and the bound
//! views' contents ([`Targets`]), calls it for each covered, non-discarded lane of a quad in primitive order, and
//! takes the targets' bytes back at the end ([`OutputMerger::into_targets`]). Where the depth test runs is the
//! caller's choice:
//!
//! ```text
//! late (the default, 16.12.2):               program -> coverage -> depth_stencil -> write (if passed)
//! early (FORCE_EARLY_DEPTH_STENCIL, 16.12.1): sample_mask_covers -> depth_stencil -> program (if passed)
//!                                             -> coverage -> write
//! ```
//!
//! Every rule is the D3D11.3 functional specification's; where it leaves a choice, the choice and its reason are
//! said here.
//!
//! - **Targets (17.14, 17.16, 5.2).** Up to 8 render targets and one depth-stencil buffer (D16_UNORM,
//!   D24_UNORM_S8_UINT, D32_FLOAT, D32_FLOAT_S8X24_UINT), each a view of one mip level of one array slice (for 3D
//!   textures, one depth slice: a draw without a geometry program writes render target array index 0, the view's
//!   first slice). All bound targets and the depth buffer have the same width and height; [`OutputMerger::new`]
//!   refuses others, naming the binding. A multisampled target (`TEXTURE2DMS`, `TEXTURE2DMSARRAY` views) holds
//!   every sample, plane by plane (see `target.rs`); all bound targets share one sample count (`DXGI_SAMPLE_DESC`:
//!   "all bound render targets and depth buffers must have the same sample counts"), and [`OutputMerger::new`]
//!   refuses targets that disagree, naming them. Depth, stencil and colour are tested, written and blended per
//!   sample ([`OutputMerger::depth_stencil_sample`], [`OutputMerger::write_sample`]; 3.5.1), each sample against its
//!   own stored value.
//! - **Coverage (17.17, 16.9.4, 17.18).** Of the samples the primitive covers, those stay covered that are in the
//!   state's SampleMask (bit `s` for sample `s`: 17.17 leaves the mapping to the implementation, and the identity is
//!   the one D3D's runtime and WARP expose), in the program's `oMask` (when it writes one) and, with
//!   alpha-to-coverage on (off when the program writes `oMask`), in alpha-to-coverage's mask
//!   ([`OutputMerger::coverage_mask`]). 17.18 wants an n-step mask of `o0.a`: none at 0 or below or NaN, all at 1 or
//!   above, monotonic between, dithering allowed. Here it is `ceil(o0.a * n)` samples, the lowest sample indices
//!   first, with no dithering ([`alpha_to_coverage_mask`]): what the real D3D11 the tests compare with does at 4x
//!   (`fixtures/multisample/README.md` measures `(1 << ceil(4a)) - 1`), as WARP's mask is not published; for n = 1
//!   any alpha above 0 covers. (GL, and so the reference renderer, ignores alpha-to-coverage on single-sample targets,
//!   which 17.18 does not allow at alpha 0.) An uncovered sample changes nothing: not depth, not stencil, not
//!   colour.
//! - **Depth into the merger (16.9.2, 16.9.3, 17.10).** The interpolated depth, or the program's `oDepth` (any float,
//!   NaN and infinities included), clamped to the viewport's range: `min(MaxDepth, max(MinDepth, z))` with 3.1's
//!   min and max, so NaN becomes MinDepth ([`OutputMerger::set_depth_range`]). Conservative depth
//!   (`SV_DepthGreaterEqual`, `SV_DepthLessEqual`) is used as written ([`DepthOutput`]): 16.9.3.2 lets an
//!   implementation clamp a broken promise to the rasterizer's depth but records that the compiler and "many
//!   implementations" never did, so nothing is clamped.
//! - **Depth test (17.9, 17.11).** With DepthEnable and a depth buffer bound, the clamped depth converted to the
//!   buffer's precision (UNORM: round to nearest, "+0.5 and truncate"; D32: unchanged) is compared with the stored
//!   depth by DepthFunc, the incoming value on the left, with 3.1's comparisons. With DepthEnable off or no buffer the
//!   test passes. Depth is written (the converted value) when both tests pass, DepthWriteMask is ALL, DepthEnable is
//!   on and the view is not read-only for depth (17.13).
//! - **Stencil (17.12, 17.9).** With StencilEnable and a buffer with stencil bits (otherwise the test passes): the
//!   triangle's facing picks `front_face` or `back_face` (lines and points are front-facing); the test compares
//!   `StencilRef & ReadMask` (left) with `stored & ReadMask` (the reference is the state's low 8 bits). The stencil
//!   test runs first. If it fails, the Fail operation runs and depth is not compared; if it passes and the depth test
//!   fails, DepthFail; if both pass, Pass (DepthEnable off counts as a pass). The operation's result replaces only the
//!   WriteMask's bits, and nothing is written through a read-only-stencil view (17.13). INCR_SAT/DECR_SAT saturate
//!   at 255/0, INCR/DECR wrap, INVERT flips all 8 bits, all on the whole stored value before the write mask.
//! - **Blending (17.1-17.3, 17.6).** Per target, with its blend state (target 0's for all unless
//!   IndependentBlendEnable): colour `op(src * SrcBlend, dest * DestBlend)` for r, g, b and the alpha factors and
//!   operation for a; MIN and MAX compare source and destination and ignore the factors. SRC_ALPHA_SAT is `(f, f, f,
//!   1)`, `f = min(o.a, 1 - dest.a)`. The SRC1 factors read the program's `o1` (dual-source blending, 17.6): when a
//!   bound target's enabled blend names one, only target 0 is blended and written — 17.6 allows only one target,
//!   at slot 0, and leaves others undefined; they are left unwritten here. A destination component the format
//!   lacks reads as 19.1.3.3's default: 0, and alpha 1 (so DEST_ALPHA is 1 on B5G6R5 or R11G11B10).
//! - **Blending precision, per format (17.5, 17.4, 3.1, 3.2).** The arithmetic is float32 for every format: each
//!   product and the sum rounded to nearest even, denormals flushed on input and output, NaN propagated (even
//!   through a 0 factor), min/max by 3.1 — the shader ALU's [`crate::shader::alu`] operations, unfused, in the order
//!   17.1 writes them (17.5 allows fusing and reordering; WARP's order is not published). The values entering the
//!   blend — the output, `o1` and the blend factor — are clamped to the target's range first, per target:
//!   - float32 formats: no clamp (the range is float32's);
//!   - float16 and R11G11B10_FLOAT: no clamp either; 17.5 permits that and blending "with precision/range (up to
//!     float32)". The result converts by 3.2.2: round toward zero, finite overflow to the largest finite value,
//!     NaN stays NaN, float11/10 negative to 0;
//!   - UNORM (any width: 10:10:10:2, 5:6:5, 5:5:5:1, 4:4:4:4, A8, 16-bit): [0, 1], NaN to 0; the destination reads
//!     exactly (3.2.3.5), and the float32 result converts by FLOAT -> UNORM (3.2.3.6: clamp, +0.5, truncate).
//!     17.5 lets formats under 8 bits pass through an 8-bit intermediate even without blending; none is used;
//!   - SRGB (17.4): as UNORM, with the destination's colour converted to linear (3.2.3.7) before blending and the
//!     result back to sRGB (3.2.3.8); alpha is linear UNORM;
//!   - SNORM: [-1, 1], NaN to 0; intermediate terms such as `1 - x` are not clamped (17.5); the result converts by
//!     FLOAT -> SNORM (3.2.3.4: -1 becomes -(2^(n-1) - 1));
//!   - UINT and SINT: not blendable; BlendEnable is ignored and the output is written as with blending off.
//!
//!   With blending off the output goes straight to the format's conversion (a float32 target stores the bits
//!   unchanged, a denormal included: 3.1.3.2's data movement).
//! - **Logic operations (17.7).** On UINT targets only (17.7.1); a logic op on other targets is ignored (17.7.2
//!   calls it undefined). Each component of the output is cut to the format's bits — the ideal 17.7.1 describes
//!   ("will be required"), rather than the clamp it tolerates — combined with the stored bits, and stored.
//!   [`OutputMerger::new`] refuses, as the D3D11.1 runtime does, a target with both blending and a logic op, a logic
//!   op with IndependentBlendEnable (17.7.2 (a)), and colour factors as alpha factors (17.2).
//! - **Write masks (17.15, 16.9.1).** A target is written only when the program declares its output register; the
//!   components written are those of the target's RenderTargetWriteMask that the program declares (a declared
//!   register's undeclared components are left as they are: the spec calls what reaches them undefined). Blending
//!   still reads every component of the destination.
//! - **Pixel history.** Each call fills a record ([`CoverageRecord`], [`DepthStencilRecord`], [`WriteRecord`]) when
//!   given one: stencil before/after and the test, depth test inputs and result, and per target the outputs, the
//!   destination before, the blend factors, the blended value and the value stored (bytes, words and numbers).
//!   Without a record nothing is decoded or copied for one.
//!
//! Tests: `tests.rs` here derives every rule by hand; `tests/output_merger_reference.rs` replays draws rendered by a
//! real D3D11 (Wine on llvmpipe) for every depth format, both stencil formats and every float, UNORM, SRGB and SNORM
//! render-target format it creates, and explains each difference by a documented deviation of the reference
//! (`fixtures/output-merger/README.md`).

mod blend;
mod depth_stencil;
mod record;
mod target;
#[cfg(test)]
mod tests;

pub use blend::{
    BlendEquation, BlendInputs, BlendRange, BlendTerms, blend, blend_fixed_point_8bit, logic, logic_texel,
};
pub use depth_stencil::{masked_stencil, passes, stencil_op};
pub use record::{
    BlendRecord, CoverageRecord, DepthRecord, DepthStencilOutcome, DepthStencilRecord, LogicRecord, StencilCase,
    StencilRecord, StoredTexel, TargetOperation, TargetRecord, WriteRecord, words_as_numbers,
};
pub use target::{DepthStencilTarget, RenderTarget, is_renderable};

use crate::api::enums::{Blend, DepthWriteMask};
use crate::api::fixed_function::{BlendDesc, DepthStencilDesc};
use crate::api::limits::RENDER_TARGET_SLOTS;
use crate::format::Texel;
use crate::{Error, Result};
use blend::{Operation, TargetPlan};
use serde::{Deserialize, Serialize};

/// The output merger's state for a draw: the depth-stencil and blend state objects and the values set with them
/// (`OMSetDepthStencilState`'s StencilRef, `OMSetBlendState`'s BlendFactor and SampleMask; 17.1, 17.8). Defaults
/// are D3D11's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OutputMergerState {
    /// Depth and stencil state.
    pub depth_stencil: DepthStencilDesc,
    /// The stencil reference value (its low 8 bits are used).
    pub stencil_ref: u32,
    /// Blend state.
    pub blend: BlendDesc,
    /// The BLEND_FACTOR constant (r, g, b, a).
    pub blend_factor: [f32; 4],
    /// The sample mask (17.17): bit `s` for sample `s` of the targets (bit 0 the one sample of a single-sample
    /// target).
    pub sample_mask: u32,
}

impl Default for OutputMergerState {
    fn default() -> Self {
        Self {
            depth_stencil: DepthStencilDesc::default(),
            stencil_ref: 0,
            blend: BlendDesc::default(),
            blend_factor: [1.0; 4],
            sample_mask: u32::MAX,
        }
    }
}

/// The bound targets: a render target per slot (or none) and the depth-stencil buffer (or none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Targets {
    /// Render targets by slot.
    pub render_targets: [Option<RenderTarget>; RENDER_TARGET_SLOTS],
    /// The depth-stencil buffer.
    pub depth_stencil: Option<DepthStencilTarget>,
}

/// The depth a pixel program hands the output merger (16.9.2, 16.9.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DepthOutput {
    /// No depth output: the interpolated depth is used.
    Interpolated,
    /// `oDepth` (`SV_Depth`).
    Written(f32),
    /// Conservative `SV_DepthGreaterEqual`: promised at least the interpolated depth.
    GreaterEqual(f32),
    /// Conservative `SV_DepthLessEqual`: promised at most the interpolated depth.
    LessEqual(f32),
}

impl DepthOutput {
    /// The depth that reaches the output merger, before its clamp: the interpolated depth, or the written one.
    /// Conservative outputs are taken as written, broken promises included (see the module documentation).
    pub fn depth(self, interpolated: f32) -> f32 {
        match self {
            DepthOutput::Interpolated => interpolated,
            DepthOutput::Written(z) | DepthOutput::GreaterEqual(z) | DepthOutput::LessEqual(z) => z,
        }
    }
}

/// The output merger of one draw: its state, the targets it writes and what it prepared from them.
#[derive(Clone, Debug)]
pub struct OutputMerger {
    /// The state.
    state: OutputMergerState,
    /// The targets, written in place.
    targets: Targets,
    /// How each bound render target is written.
    plans: [Option<TargetPlan>; RENDER_TARGET_SLOTS],
    /// Dual-source blending: only target 0 is written.
    dual_source: bool,
    /// The viewport's MinDepth and MaxDepth (17.10).
    depth_range: [f32; 2],
    /// The samples a texel of every bound target (1 without targets).
    samples: u32,
}

/// The record of one blend: the equation and every value it used, as floats.
fn blend_record(equation: &BlendEquation, inputs: &BlendInputs, terms: &BlendTerms) -> TargetOperation {
    let floats = |t: Texel| t.map(f32::from_bits);
    TargetOperation::Blend(BlendRecord {
        src_blend: equation.src,
        dest_blend: equation.dest,
        blend_op: equation.op,
        src_blend_alpha: equation.src_alpha,
        dest_blend_alpha: equation.dest_alpha,
        blend_op_alpha: equation.op_alpha,
        source: floats(inputs.source),
        source1: floats(inputs.source1),
        destination: floats(inputs.destination),
        blend_factor: floats(inputs.blend_factor),
        source_factor: floats(terms.source_factor),
        destination_factor: floats(terms.destination_factor),
        result: floats(terms.result),
    })
}

/// The blend factors 17.2 allows as SrcBlendAlpha and DestBlendAlpha.
fn valid_alpha_factor(factor: Blend) -> bool {
    !matches!(
        factor,
        Blend::SrcColor
            | Blend::InvSrcColor
            | Blend::DestColor
            | Blend::InvDestColor
            | Blend::Src1Color
            | Blend::InvSrc1Color
    )
}

/// Checks a blend state as the D3D11.1 runtime's CreateBlendState1 does for the rules this module relies on.
fn validate_blend(blend: &BlendDesc) -> Result<()> {
    let used = if blend.independent_blend_enable {
        RENDER_TARGET_SLOTS
    } else {
        1
    };
    for (index, target) in blend.render_target.iter().take(used).enumerate() {
        let at = format!("render_target[{index}]");
        if target.blend_enable && target.logic_op_enable {
            return Err(Error::new(
                "blend state",
                "blending and a logic operation are both enabled (17.1: they can't both be true)",
            )
            .at(at));
        }
        if target.logic_op_enable && blend.independent_blend_enable {
            return Err(Error::new(
                "blend state",
                "a logic operation needs IndependentBlendEnable off (17.7.2 (a))",
            )
            .at(at));
        }
        if target.blend_enable {
            for factor in [target.src_blend_alpha, target.dest_blend_alpha] {
                if !valid_alpha_factor(factor) {
                    return Err(
                        Error::new("blend state", format!("{factor} is not an alpha blend factor (17.2)")).at(at),
                    );
                }
            }
        }
    }
    Ok(())
}

/// The size and sample count every bound target must share, or an error naming the first that differs (17.14,
/// 17.16; all bound render targets and the depth buffer have one sample count: `DXGI_SAMPLE_DESC`, 19.2). The
/// targets' sample count (1 without targets).
fn check_sizes(targets: &Targets) -> Result<u32> {
    let mut first: Option<(String, u32, u32, u32)> = None;
    let render_targets = targets.render_targets.iter().enumerate().filter_map(|(slot, t)| {
        t.as_ref()
            .map(|t| (format!("render target {slot}"), t.width(), t.height(), t.samples()))
    });
    let depth = targets.depth_stencil.as_ref().map(|d| {
        (
            "the depth-stencil buffer".to_owned(),
            d.width(),
            d.height(),
            d.samples(),
        )
    });
    for (name, width, height, samples) in render_targets.chain(depth) {
        match &first {
            None => first = Some((name, width, height, samples)),
            Some((first_name, w, h, _)) if (*w, *h) != (width, height) => {
                return Err(Error::new(
                    "output merger",
                    format!(
                        "{name} is {width}x{height} where {first_name} is {w}x{h} (17.14: bound targets share one size)"
                    ),
                ));
            }
            Some((first_name, _, _, n)) if *n != samples => {
                return Err(Error::new(
                    "output merger",
                    format!(
                        "{name} has {samples} samples a texel where {first_name} has {n} (bound render targets and \
                         the depth buffer share one sample count)"
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(first.map_or(1, |(_, _, _, samples)| samples))
}

/// The alpha-to-coverage mask of `alpha` for `samples` samples (17.18): `ceil(alpha * samples)` samples (clamped to
/// 0 ..= samples), the lowest sample indices first, with no dithering. 0 or less and NaN cover nothing, 1 or more
/// everything, and the count grows monotonically between, as 17.18 requires; which samples a partial alpha covers and
/// whether it dithers is left to the implementation (17.18) and WARP's choice is not published, so this is the
/// mask the real D3D11 of the tests produces at 4 samples (`fixtures/multisample/README.md`). With one sample any
/// alpha above 0 covers.
pub fn alpha_to_coverage_mask(alpha: f32, samples: u32) -> u32 {
    // A NaN compares false: no coverage (17.18).
    if alpha.is_nan() || alpha <= 0. {
        return 0;
    }
    let count = (f64::from(alpha) * f64::from(samples)).ceil();
    let count = count.clamp(0., f64::from(samples.min(32))) as u32;
    crate::raster::full_mask(count)
}

impl OutputMerger {
    /// The output merger for a draw with `state` into `targets`, the viewport's depth range [0, 1] until
    /// [`OutputMerger::set_depth_range`] says otherwise. Fails for targets of different sizes and for blend states
    /// the D3D11 runtime refuses (see the module documentation).
    pub fn new(state: &OutputMergerState, targets: Targets) -> Result<OutputMerger> {
        validate_blend(&state.blend)?;
        let samples = check_sizes(&targets)?;
        let mut plans = [None; RENDER_TARGET_SLOTS];
        for (slot, (plan, target)) in plans.iter_mut().zip(&targets.render_targets).enumerate() {
            if let (Some(target), Some(desc)) = (target, state.blend.for_target(slot)) {
                *plan = Some(TargetPlan::new(target.format(), desc, state.blend_factor));
            }
        }
        let dual_source = plans
            .iter()
            .flatten()
            .any(|plan| matches!(plan.operation, Operation::Blend(eq) if eq.reads_source1()));
        Ok(OutputMerger {
            state: *state,
            targets,
            plans,
            dual_source,
            depth_range: [0.0, 1.0],
            samples,
        })
    }

    /// The output merger of the targets' rows `ranges` (each `top..bottom`) alone, stacked in that order, with the
    /// same state (a band of the targets one thread draws; [`OutputMerger::put_rows`] writes it back).
    pub(crate) fn rows(&self, ranges: &[(u32, u32)]) -> Result<OutputMerger> {
        let mut targets = Targets::default();
        for (band, target) in targets.render_targets.iter_mut().zip(&self.targets.render_targets) {
            if let Some(target) = target {
                *band = Some(target.rows(ranges)?);
            }
        }
        if let Some(target) = &self.targets.depth_stencil {
            targets.depth_stencil = Some(target.rows(ranges)?);
        }
        Ok(OutputMerger {
            state: self.state,
            targets,
            plans: self.plans,
            dual_source: self.dual_source,
            depth_range: self.depth_range,
            samples: self.samples,
        })
    }

    /// Writes back a band [`OutputMerger::rows`] made of `ranges`.
    pub(crate) fn put_rows(&mut self, band: &OutputMerger, ranges: &[(u32, u32)]) -> Result<()> {
        for (target, part) in self.targets.render_targets.iter_mut().zip(&band.targets.render_targets) {
            if let (Some(target), Some(part)) = (target, part) {
                target.put_rows(part, ranges)?;
            }
        }
        if let (Some(target), Some(part)) = (&mut self.targets.depth_stencil, &band.targets.depth_stencil) {
            target.put_rows(part, ranges)?;
        }
        Ok(())
    }

    /// Blends 8-bit UNORM targets in 8-bit fixed point when `on` (the `blend-8bit` variant,
    /// [`crate::draw::variants`]); other targets as before.
    pub fn with_fixed_point_blend(mut self, on: bool) -> OutputMerger {
        for (plan, target) in self.plans.iter_mut().zip(&self.targets.render_targets) {
            if let (Some(plan), Some(target)) = (plan.as_mut(), target) {
                *plan = plan.with_fixed_point_8bit(target.format(), on);
            }
        }
        self
    }

    /// Sets the viewport's MinDepth and MaxDepth, the range depths are clamped to (17.10); a draw with several
    /// viewports sets it per primitive.
    pub fn set_depth_range(&mut self, min_depth: f32, max_depth: f32) {
        self.depth_range = [min_depth, max_depth];
    }

    /// The state.
    pub fn state(&self) -> &OutputMergerState {
        &self.state
    }

    /// The targets as they are now.
    pub fn targets(&self) -> &Targets {
        &self.targets
    }

    /// The targets, to exchange one for another of the same format and size (the array slice a primitive selects,
    /// 15.15).
    pub(crate) fn targets_mut(&mut self) -> &mut Targets {
        &mut self.targets
    }

    /// The targets, given back after the draw.
    pub fn into_targets(self) -> Targets {
        self.targets
    }

    /// Whether dual-source blending is on (17.6): only target 0 is written.
    pub fn dual_source(&self) -> bool {
        self.dual_source
    }

    /// A depth clamped to the viewport's range (17.10): `min(MaxDepth, max(MinDepth, z))`, 3.1's min and max
    /// returning the other operand for a NaN.
    pub fn clamp_depth(&self, depth: f32) -> f32 {
        let [min_depth, max_depth] = self.depth_range;
        max_depth.min(min_depth.max(depth))
    }

    /// The samples a texel of the bound targets (all share one count; 1 without targets).
    pub fn sample_count(&self) -> u32 {
        self.samples
    }

    /// The state's SampleMask on the targets' samples (17.17): its first [`OutputMerger::sample_count`] bits.
    pub fn sample_mask_bits(&self) -> u32 {
        self.state.sample_mask & crate::raster::full_mask(self.samples)
    }

    /// Whether the state's SampleMask covers the pixel's sample 0 (17.17): what an early depth test of a
    /// single-sample target checks before the program.
    pub fn sample_mask_covers(&self) -> bool {
        self.state.sample_mask & 1 != 0
    }

    /// Whether the pixel's sample 0 is covered after the program, for a primitive covering it: the single-sample
    /// [`OutputMerger::coverage_mask`].
    pub fn coverage(&self, output_mask: Option<u32>, o0: &Texel, record: Option<&mut CoverageRecord>) -> bool {
        self.coverage_mask(1, output_mask, o0, record) & 1 != 0
    }

    /// The samples left covered after the program (17.17, 16.9.4, 17.18), of the `rasterized` ones the primitive
    /// covers: those in the SampleMask, the program's `oMask` (`output_mask`, when it writes one) and the
    /// alpha-to-coverage mask of `o0.a` ([`alpha_to_coverage_mask`]; off when `oMask` is written). Bits past the
    /// targets' sample count are cleared.
    pub fn coverage_mask(
        &self,
        rasterized: u32,
        output_mask: Option<u32>,
        o0: &Texel,
        record: Option<&mut CoverageRecord>,
    ) -> u32 {
        let mut mask = rasterized & self.sample_mask_bits();
        if let Some(output) = output_mask {
            mask &= output;
        }
        let alpha = (self.state.blend.alpha_to_coverage_enable && output_mask.is_none())
            .then(|| f32::from_bits(o0.get(3).copied().unwrap_or(0)));
        let alpha_mask = alpha.map(|a| alpha_to_coverage_mask(a, self.samples));
        if let Some(alpha_mask) = alpha_mask {
            mask &= alpha_mask;
        }
        if let Some(record) = record {
            *record = CoverageRecord {
                rasterized,
                alpha_mask,
                mask,
                sample_mask: self.state.sample_mask,
                output_mask,
                alpha_to_coverage: alpha,
                covered: mask != 0,
            };
        }
        mask
    }

    /// The depth and stencil tests at pixel (`x`, `y`) for a fragment at `depth` (interpolated or the program's;
    /// clamped here, 17.10) of a `front_facing` primitive, with the stencil and depth writes they make (17.9-17.13).
    /// The caller runs it before the program (early) or after (late) and writes colour only when it passed.
    pub fn depth_stencil(
        &mut self,
        x: u32,
        y: u32,
        depth: f32,
        front_facing: bool,
        record: Option<&mut DepthStencilRecord>,
    ) -> Result<DepthStencilOutcome> {
        self.depth_stencil_sample(x, y, 0, depth, front_facing, record)
    }

    /// [`OutputMerger::depth_stencil`] for sample `sample` of pixel (`x`, `y`): the test against that sample's
    /// stored depth and stencil, and the writes to it (17.9-17.13 per sample, 3.5.1).
    pub fn depth_stencil_sample(
        &mut self,
        x: u32,
        y: u32,
        sample: u32,
        depth: f32,
        front_facing: bool,
        record: Option<&mut DepthStencilRecord>,
    ) -> Result<DepthStencilOutcome> {
        let desc = self.state.depth_stencil;
        let clamped = self.clamp_depth(depth);
        let Some(buffer) = self.targets.depth_stencil.as_mut() else {
            if let Some(record) = record {
                *record = DepthStencilRecord::default();
            }
            return Ok(DepthStencilOutcome::Passed);
        };
        let depth_on = desc.depth_enable;
        let stencil_on = desc.stencil_enable && buffer.has_stencil();
        if !depth_on && !stencil_on {
            if let Some(record) = record {
                *record = DepthStencilRecord::default();
            }
            return Ok(DepthStencilOutcome::Passed);
        }
        let (stored_depth, stored_stencil) = buffer.read_sample(x, y, sample)?;
        let face = if front_facing { desc.front_face } else { desc.back_face };
        let reference = (self.state.stencil_ref & 0xff) as u8;
        let read_mask = desc.stencil_read_mask;
        let stencil_passed = !stencil_on || passes(face.func, reference & read_mask, stored_stencil & read_mask);
        let mut quantized = clamped;
        let depth_passed = if depth_on && stencil_passed {
            quantized = buffer.quantize(clamped)?;
            passes(desc.depth_func, quantized, stored_depth)
        } else {
            true
        };
        let (case, outcome) = match (stencil_passed, depth_passed) {
            (false, _) => (StencilCase::Fail, DepthStencilOutcome::StencilFailed),
            (true, false) => (StencilCase::DepthFail, DepthStencilOutcome::DepthFailed),
            (true, true) => (StencilCase::Pass, DepthStencilOutcome::Passed),
        };
        let op = match case {
            StencilCase::Fail => face.fail,
            StencilCase::DepthFail => face.depth_fail,
            StencilCase::Pass => face.pass,
        };
        let stencil_writable = !buffer.read_only_stencil();
        let mut stencil_after = stored_stencil;
        if stencil_on && stencil_writable {
            let result = stencil_op(op, stored_stencil, reference);
            stencil_after = masked_stencil(stored_stencil, result, desc.stencil_write_mask);
            if stencil_after != stored_stencil {
                buffer.write_sample_stencil(x, y, sample, stencil_after)?;
            }
        }
        let depth_written =
            depth_on && outcome.passed() && desc.depth_write_mask == DepthWriteMask::All && !buffer.read_only_depth();
        if depth_written {
            buffer.write_sample_depth(x, y, sample, clamped)?;
        }
        if let Some(record) = record {
            *record = DepthStencilRecord {
                outcome,
                stencil: stencil_on.then_some(StencilRecord {
                    front_facing,
                    reference,
                    read_mask,
                    write_mask: desc.stencil_write_mask,
                    func: face.func,
                    before: stored_stencil,
                    passed: stencil_passed,
                    case,
                    op,
                    writable: stencil_writable,
                    after: stencil_after,
                }),
                depth: depth_on.then_some(DepthRecord {
                    incoming: depth,
                    clamped,
                    quantized,
                    stored: stored_depth,
                    func: desc.depth_func,
                    passed: stencil_passed.then_some(depth_passed),
                    written: depth_written,
                    after: if depth_written { quantized } else { stored_depth },
                }),
            };
        }
        Ok(outcome)
    }

    /// Writes a fragment's outputs at pixel (`x`, `y`) to every bound render target (17.1-17.7, 17.15):
    /// `outputs[i]` is the program's register `o<i>` (raw words), `declared[i]` the components the program declares
    /// for it (bit 0 = x; 0 when it declares none). Call it for fragments that are covered and passed the depth and
    /// stencil tests.
    pub fn write(
        &mut self,
        x: u32,
        y: u32,
        outputs: &[Texel; RENDER_TARGET_SLOTS],
        declared: &[u8; RENDER_TARGET_SLOTS],
        record: Option<&mut WriteRecord>,
    ) -> Result<()> {
        self.write_sample(x, y, 0, outputs, declared, record)
    }

    /// [`OutputMerger::write`] to sample `sample` of pixel (`x`, `y`) of every bound render target: blended against
    /// that sample's stored value (3.5.1: per sample).
    pub fn write_sample(
        &mut self,
        x: u32,
        y: u32,
        sample: u32,
        outputs: &[Texel; RENDER_TARGET_SLOTS],
        declared: &[u8; RENDER_TARGET_SLOTS],
        mut record: Option<&mut WriteRecord>,
    ) -> Result<()> {
        if let Some(record) = record.as_deref_mut() {
            *record = WriteRecord::default();
        }
        let [_, source1, ..] = *outputs;
        let slots = self
            .plans
            .iter()
            .zip(self.targets.render_targets.iter_mut())
            .zip(outputs.iter().zip(declared))
            .enumerate();
        for (slot, ((plan, target), (&source, &declared))) in slots {
            let (Some(plan), Some(target)) = (plan, target.as_mut()) else {
                continue;
            };
            if (self.dual_source && slot != 0) || declared & 0xf == 0 {
                continue;
            }
            let mask = plan.write_mask & declared;
            if mask == 0 && record.is_none() {
                continue;
            }
            let codec = *target.codec();
            let shader_type = target.shader_type();
            let bytes = target.sample_bytes_mut(x, y, sample)?;
            let before = record
                .is_some()
                .then(|| {
                    codec
                        .decode(bytes)
                        .map(|words| StoredTexel::new(bytes, words, shader_type))
                })
                .transpose()?;
            // The operation's record is built only when a record is asked for.
            let recording = before.is_some();
            let (value, operation) = match plan.operation {
                Operation::Replace => (source, Some(TargetOperation::Replace)),
                Operation::Blend(equation) => {
                    let inputs = BlendInputs {
                        source: plan.range.clamp_texel(source),
                        source1: plan.range.clamp_texel(source1),
                        destination: codec.decode(bytes)?,
                        blend_factor: plan.blend_factor,
                    };
                    let terms = if plan.fixed_point_8bit {
                        blend_fixed_point_8bit(&equation, &inputs)
                    } else {
                        blend(&equation, &inputs)
                    };
                    let operation = recording.then(|| blend_record(&equation, &inputs, &terms));
                    (terms.result, operation)
                }
                Operation::Logic(op) => {
                    let destination = codec.decode(bytes)?;
                    let (cut, result) = logic_texel(op, source, destination, plan.component_bits);
                    let operation = recording.then_some(TargetOperation::Logic(LogicRecord {
                        op,
                        source: cut,
                        destination,
                        result,
                    }));
                    (result, operation)
                }
            };
            if mask != 0 {
                codec.encode_masked(value, mask, bytes)?;
            }
            if let (Some(record), Some(before), Some(operation)) = (record.as_deref_mut(), before, operation) {
                let after = StoredTexel::new(bytes, codec.decode(bytes)?, shader_type);
                if let Some(entry) = record.targets.get_mut(slot) {
                    *entry = Some(TargetRecord {
                        slot: u8::try_from(slot).unwrap_or(u8::MAX),
                        format: codec.format(),
                        source,
                        source1: self.dual_source.then_some(source1),
                        before,
                        operation,
                        write_mask: mask,
                        after,
                    });
                }
            }
        }
        Ok(())
    }
}
