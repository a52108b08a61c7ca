//! Blending and logic operations on one texel (17.1-17.7): the per-target plan made once per draw from the blend
//! state and the target's format, and the arithmetic on register words. The rules are stated in the parent module's
//! documentation; the float arithmetic is the shader ALU's ([`crate::shader::alu`]: round to nearest even, denormals
//! flushed on input and output, NaN propagated, 3.1's min and max).

use crate::api::enums::{Blend, BlendOp, LogicOp};
use crate::api::fixed_function::RenderTargetBlendDesc;
use crate::format::convert::unsigned_max;
use crate::format::{Format, NumericKind, Texel};
use crate::shader::alu::{add, max, min, mul, neg, saturate};

/// The bits of 1.0f.
const ONE: u32 = 0x3f80_0000;

/// The bits of -1.0f.
const MINUS_ONE: u32 = 0xbf80_0000;

/// The range a target's blend inputs are clamped to, by the class of its format (17.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlendRange {
    /// Float formats: no clamp. Float32 has the whole range; for float16 and float11/10 17.5 lets an
    /// implementation skip the clamp and blend in up to float32 range, which is done here.
    Float,
    /// UNORM and SRGB formats: [0, 1], NaN to 0.
    Unorm,
    /// SNORM formats: [-1, 1], NaN to 0.
    Snorm,
    /// UINT and SINT formats: never blended.
    Integer,
}

impl BlendRange {
    /// The range of `format` (a render-target format).
    pub fn of(format: Format) -> BlendRange {
        match format.info().kind {
            NumericKind::Unorm | NumericKind::Srgb => BlendRange::Unorm,
            NumericKind::Snorm => BlendRange::Snorm,
            NumericKind::Uint | NumericKind::Sint => BlendRange::Integer,
            _ => BlendRange::Float,
        }
    }

    /// A value entering the blend, clamped to the range (17.5). NaN becomes 0 for the fixed-point ranges, as their
    /// conversions 3.2.3.4 and 3.2.3.6 turn NaN into 0; float values pass unchanged.
    pub fn clamp(self, word: u32) -> u32 {
        match self {
            BlendRange::Float | BlendRange::Integer => word,
            // `_sat`'s min(1, max(0, x)): NaN and -0 become +0.
            BlendRange::Unorm => saturate(word),
            BlendRange::Snorm if f32::from_bits(word).is_nan() => 0,
            BlendRange::Snorm => min(ONE, max(MINUS_ONE, word)),
        }
    }

    /// Every component clamped.
    pub fn clamp_texel(self, texel: Texel) -> Texel {
        texel.map(|w| self.clamp(w))
    }
}

/// The blend equation of one target (17.1): colour factors and operation for r, g, b; alpha ones for a.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendEquation {
    /// Source colour factor.
    pub src: Blend,
    /// Destination colour factor.
    pub dest: Blend,
    /// Colour operation.
    pub op: BlendOp,
    /// Source alpha factor.
    pub src_alpha: Blend,
    /// Destination alpha factor.
    pub dest_alpha: Blend,
    /// Alpha operation.
    pub op_alpha: BlendOp,
}

impl BlendEquation {
    /// The equation a render target's blend description gives.
    pub fn of(desc: &RenderTargetBlendDesc) -> BlendEquation {
        BlendEquation {
            src: desc.src_blend,
            dest: desc.dest_blend,
            op: desc.blend_op,
            src_alpha: desc.src_blend_alpha,
            dest_alpha: desc.dest_blend_alpha,
            op_alpha: desc.blend_op_alpha,
        }
    }

    /// Whether a factor reads the program's second output `o1`: dual-source blending (17.6).
    pub fn reads_source1(&self) -> bool {
        [self.src, self.dest, self.src_alpha, self.dest_alpha].iter().any(|f| {
            matches!(
                f,
                Blend::Src1Color | Blend::InvSrc1Color | Blend::Src1Alpha | Blend::InvSrc1Alpha
            )
        })
    }
}

/// What is done to one target's texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// The program's output is written as it is (converted to the format).
    Replace,
    /// Blending with the target's value.
    Blend(BlendEquation),
    /// A logic operation with the target's bits (UINT targets).
    Logic(LogicOp),
}

/// How one bound target is written, prepared once per draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetPlan {
    /// The clamp range of its format.
    pub range: BlendRange,
    /// What is done to its texels.
    pub operation: Operation,
    /// The components written (bit 0 = red), from the blend state (17.15).
    pub write_mask: u8,
    /// The blend factor clamped to the range (17.5: "including the BlendFactor value").
    pub blend_factor: Texel,
    /// Bits of each component (0 for a component the format lacks), for logic operations.
    pub component_bits: [u32; 4],
    /// Whether blending is done in 8-bit fixed point ([`blend_fixed_point_8bit`]; the `blend-8bit` variant, on
    /// 8-bit UNORM targets only).
    pub fixed_point_8bit: bool,
}

impl TargetPlan {
    /// The plan for a target of `format` under `desc`, with the state's `blend_factor`. Blending is ignored for
    /// UINT/SINT targets (they are not blendable); a logic operation applies to UINT targets only (17.7.1) and is
    /// ignored for others.
    pub fn new(format: Format, desc: &RenderTargetBlendDesc, blend_factor: [f32; 4]) -> TargetPlan {
        let range = BlendRange::of(format);
        let uint = format.info().kind == NumericKind::Uint;
        let operation = if desc.logic_op_enable && uint {
            Operation::Logic(desc.logic_op)
        } else if desc.blend_enable && range != BlendRange::Integer {
            Operation::Blend(BlendEquation::of(desc))
        } else {
            Operation::Replace
        };
        let mut component_bits = [0u32; 4];
        for field in format.info().fields() {
            if let Some(bits) = field.channel.slot().and_then(|slot| component_bits.get_mut(slot)) {
                *bits = u32::from(field.bits);
            }
        }
        TargetPlan {
            range,
            operation,
            write_mask: desc.render_target_write_mask & 0xf,
            blend_factor: range.clamp_texel(blend_factor.map(f32::to_bits)),
            component_bits,
            fixed_point_8bit: false,
        }
    }

    /// The plan with blending in 8-bit fixed point when `on` and the target's format is 8-bit UNORM (every
    /// component 8 bits, not SRGB); unchanged otherwise.
    pub fn with_fixed_point_8bit(self, format: Format, on: bool) -> TargetPlan {
        TargetPlan {
            fixed_point_8bit: on && format.info().is_8bit_unorm(),
            ..self
        }
    }
}

/// The inputs and result of one blend, as words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendTerms {
    /// The source factor per component.
    pub source_factor: Texel,
    /// The destination factor per component.
    pub destination_factor: Texel,
    /// The blended value.
    pub result: Texel,
}

/// `1 - x` in float32 (not clamped: 17.5 leaves SNORM's `1 - x` unclamped, and for UNORM it stays in [0, 1]).
fn one_minus(x: u32) -> u32 {
    add(ONE, neg(x))
}

/// Component `c` (0..4) of a texel.
fn at(texel: &Texel, c: usize) -> u32 {
    texel.get(c).copied().unwrap_or(0)
}

/// The inputs of one blend: the clamped source, `o1`, the destination and the clamped blend factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendInputs {
    /// The program's output, clamped.
    pub source: Texel,
    /// `o1`, clamped.
    pub source1: Texel,
    /// The target's value.
    pub destination: Texel,
    /// The blend factor, clamped.
    pub blend_factor: Texel,
}

/// The arithmetic a blend runs in: float32 words (17.1's rule, [`Float32`]) or 8-bit codes (the `blend-8bit`
/// variant, [`Codes8`]). One factor table and one equation serve both ([`blend_in`]).
trait BlendArithmetic {
    /// The factor ONE.
    const ONE: u32;
    /// `1 - x`.
    fn one_minus(x: u32) -> u32;
    /// A product of a value and its factor.
    fn mul(a: u32, b: u32) -> u32;
    /// `a + b`.
    fn add(a: u32, b: u32) -> u32;
    /// `a - b`.
    fn sub(a: u32, b: u32) -> u32;
    /// The smaller (SRC_ALPHA_SAT, MIN).
    fn min(a: u32, b: u32) -> u32;
    /// The larger (MAX).
    fn max(a: u32, b: u32) -> u32;
}

/// Float32 words: each product and the sum rounded to float32 with denormals flushed, 3.1's min and max.
struct Float32;

impl BlendArithmetic for Float32 {
    const ONE: u32 = ONE;
    fn one_minus(x: u32) -> u32 {
        one_minus(x)
    }
    fn mul(a: u32, b: u32) -> u32 {
        mul(a, b)
    }
    fn add(a: u32, b: u32) -> u32 {
        add(a, b)
    }
    fn sub(a: u32, b: u32) -> u32 {
        add(a, neg(b))
    }
    fn min(a: u32, b: u32) -> u32 {
        min(a, b)
    }
    fn max(a: u32, b: u32) -> u32 {
        max(a, b)
    }
}

/// 8-bit codes: `1 - x` is `255 - x`, each product rounded to a code ([`product_8bit`]), sums saturated at 255 and
/// differences at 0.
struct Codes8;

impl BlendArithmetic for Codes8 {
    const ONE: u32 = 255;
    fn one_minus(x: u32) -> u32 {
        255u32.saturating_sub(x)
    }
    fn mul(a: u32, b: u32) -> u32 {
        product_8bit(a, b)
    }
    fn add(a: u32, b: u32) -> u32 {
        a.saturating_add(b).min(255)
    }
    fn sub(a: u32, b: u32) -> u32 {
        a.saturating_sub(b)
    }
    fn min(a: u32, b: u32) -> u32 {
        a.min(b)
    }
    fn max(a: u32, b: u32) -> u32 {
        a.max(b)
    }
}

/// Factor `blend` for component `c` (3 is alpha), per the table of 17.1, in arithmetic `A`.
fn factor<A: BlendArithmetic>(blend: Blend, c: usize, inputs: &BlendInputs) -> u32 {
    let BlendInputs {
        source: s,
        source1: s1,
        destination: d,
        blend_factor: k,
    } = inputs;
    match blend {
        Blend::Zero => 0,
        Blend::One => A::ONE,
        Blend::SrcColor => at(s, c),
        Blend::InvSrcColor => A::one_minus(at(s, c)),
        Blend::SrcAlpha => at(s, 3),
        Blend::InvSrcAlpha => A::one_minus(at(s, 3)),
        Blend::DestAlpha => at(d, 3),
        Blend::InvDestAlpha => A::one_minus(at(d, 3)),
        Blend::DestColor => at(d, c),
        Blend::InvDestColor => A::one_minus(at(d, c)),
        // (f, f, f, 1), f = min(1 - RT.a, o.a), min as the min instruction (17.1, 22.10.11).
        Blend::SrcAlphaSat if c == 3 => A::ONE,
        Blend::SrcAlphaSat => A::min(at(s, 3), A::one_minus(at(d, 3))),
        Blend::BlendFactor => at(k, c),
        Blend::InvBlendFactor => A::one_minus(at(k, c)),
        Blend::Src1Color => at(s1, c),
        Blend::InvSrc1Color => A::one_minus(at(s1, c)),
        Blend::Src1Alpha => at(s1, 3),
        Blend::InvSrc1Alpha => A::one_minus(at(s1, 3)),
    }
}

/// Blends one texel (17.1) in arithmetic `A`: per component, `op(source * source factor, destination * destination
/// factor)`; MIN and MAX take the source and destination themselves and ignore the factors (their factors are
/// reported as ONE).
fn blend_in<A: BlendArithmetic>(equation: &BlendEquation, inputs: &BlendInputs) -> BlendTerms {
    let mut terms = BlendTerms {
        source_factor: [0; 4],
        destination_factor: [0; 4],
        result: [0; 4],
    };
    for (c, ((sf_out, df_out), out)) in terms
        .source_factor
        .iter_mut()
        .zip(terms.destination_factor.iter_mut())
        .zip(terms.result.iter_mut())
        .enumerate()
    {
        let (src, dest, op) = if c == 3 {
            (equation.src_alpha, equation.dest_alpha, equation.op_alpha)
        } else {
            (equation.src, equation.dest, equation.op)
        };
        let s = at(&inputs.source, c);
        let d = at(&inputs.destination, c);
        let (sf, df, value) = match op {
            BlendOp::Min => (A::ONE, A::ONE, A::min(s, d)),
            BlendOp::Max => (A::ONE, A::ONE, A::max(s, d)),
            BlendOp::Add | BlendOp::Subtract | BlendOp::RevSubtract => {
                let sf = factor::<A>(src, c, inputs);
                let df = factor::<A>(dest, c, inputs);
                let weighted_source = A::mul(s, sf);
                let weighted_destination = A::mul(d, df);
                let value = match op {
                    BlendOp::Subtract => A::sub(weighted_source, weighted_destination),
                    BlendOp::RevSubtract => A::sub(weighted_destination, weighted_source),
                    _ => A::add(weighted_source, weighted_destination),
                };
                (sf, df, value)
            }
        };
        *sf_out = sf;
        *df_out = df;
        *out = value;
    }
    terms
}

/// Blends one texel (17.1): per component, `op(source * source factor, destination * destination factor)`, each
/// product and the sum rounded to float32 with denormals flushed; MIN and MAX take the source and destination
/// themselves and ignore the factors (their factors are reported as 1).
pub fn blend(equation: &BlendEquation, inputs: &BlendInputs) -> BlendTerms {
    blend_in::<Float32>(equation, inputs)
}

/// A word in [0, 1] (clamped by [`BlendRange::Unorm`]) as an 8-bit code: times 255 in float32, rounded to nearest
/// even.
fn code_8bit(word: u32) -> u32 {
    let value = f32::from_bits(word);
    if value.is_nan() {
        return 0;
    }
    (value * 255.0).round_ties_even().clamp(0.0, 255.0) as u32
}

/// `x * f / 255` for 8-bit codes, rounded to the nearest code (an exact tie cannot occur: 255 is odd), by the
/// integer identity `t = x f + 128; (t + t / 256) / 256`. (Mesa's `lp_build_mul_norm` adds the 128 after the shift,
/// which is one code low for 24 of the 65,536 pairs; on the sample captures both give the same pixels.)
fn product_8bit(x: u32, f: u32) -> u32 {
    let t = x.saturating_mul(f).saturating_add(128);
    (t.saturating_add(t >> 8)) >> 8
}

/// The `blend-8bit` variant of [`blend`] ([`crate::draw::variants`]): the blend of an 8-bit UNORM target in 8-bit
/// fixed point, as llvmpipe does and 17.5 permits. The source, `o1`, the destination and the blend factor become
/// 8-bit codes ([`code_8bit`]) and blend in [`Codes8`]: each factor a code (`1 - x` is `255 - x`; SRC_ALPHA_SAT is
/// `min(As, 255 - Ad)` and 255 for alpha), each product rounded to a code ([`product_8bit`]), ADD saturated at 255,
/// SUBTRACT and REV_SUBTRACT at 0, MIN and MAX of the codes. Results and factors are given as `code / 255` in
/// float32, which the format's conversion turns back into the same code.
pub fn blend_fixed_point_8bit(equation: &BlendEquation, inputs: &BlendInputs) -> BlendTerms {
    let codes = |texel: &Texel| texel.map(code_8bit);
    let in_codes = BlendInputs {
        source: codes(&inputs.source),
        source1: codes(&inputs.source1),
        destination: codes(&inputs.destination),
        blend_factor: codes(&inputs.blend_factor),
    };
    let terms = blend_in::<Codes8>(equation, &in_codes);
    let words = |texel: Texel| texel.map(|code| (code as f32 / 255.0).to_bits());
    BlendTerms {
        source_factor: words(terms.source_factor),
        destination_factor: words(terms.destination_factor),
        result: words(terms.result),
    }
}

/// A logic operation on bits (17.1's table): `s` the program's output, `d` the target's contents.
pub fn logic(op: LogicOp, s: u32, d: u32) -> u32 {
    match op {
        LogicOp::Clear => 0,
        LogicOp::Set => u32::MAX,
        LogicOp::Copy => s,
        LogicOp::CopyInverted => !s,
        LogicOp::Noop => d,
        LogicOp::Invert => !d,
        LogicOp::And => s & d,
        LogicOp::Nand => !(s & d),
        LogicOp::Or => s | d,
        LogicOp::Nor => !(s | d),
        LogicOp::Xor => s ^ d,
        LogicOp::Equiv => !(s ^ d),
        LogicOp::AndReverse => s & !d,
        LogicOp::AndInverted => !s & d,
        LogicOp::OrReverse => s | !d,
        LogicOp::OrInverted => !s | d,
    }
}

/// A logic operation on a UINT texel: each component of the program's output cut to its low `bits` (the ideal of
/// 17.7.1, which the spec says a future feature level requires), combined with the stored bits, and cut again.
/// Returns the cut source and the result.
pub fn logic_texel(op: LogicOp, source: Texel, destination: Texel, component_bits: [u32; 4]) -> (Texel, Texel) {
    let mut cut = [0u32; 4];
    let mut result = [0u32; 4];
    for (c, (cut_out, result_out)) in cut.iter_mut().zip(result.iter_mut()).enumerate() {
        let bits = component_bits.get(c).copied().unwrap_or(0);
        if bits == 0 {
            continue;
        }
        let field = unsigned_max(bits);
        let s = at(&source, c) & field;
        *cut_out = s;
        *result_out = logic(op, s, at(&destination, c) & field) & field;
    }
    (cut, result)
}
