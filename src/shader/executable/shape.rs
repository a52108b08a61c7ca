//! The opcode shape table: for each opcode, what the builder checks and pre-decodes — an ALU instruction's
//! destinations, source types, result mapping and `_sat`; flow control's operands; a texture instruction's operand
//! layout; or why it cannot run here. Which opcodes form a class (flow control, unordered access, feedback ...) is
//! [`Opcode`]'s to say, for the disassembler and this table alike.

use crate::dxbc::program::Opcode;

/// How an instruction reads a source operand, which decides what its modifier means (22.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    /// A 32-bit float.
    F,
    /// A 32-bit integer (or bits): negate is two's complement, `_abs` is not defined.
    I,
    /// A double (pairs of components).
    D,
}

/// How an ALU instruction's results map onto its destination's components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Out {
    /// One result per destination component, from the sources' same components.
    Componentwise,
    /// One scalar (`dpN` reads the first N components), replicated.
    Dot(u8),
    /// Doubles: a destination mask of `.xy`, `.zw` or `.xyzw`, one double per pair.
    Double,
    /// 32-bit results from doubles: a mask of one or two components, the `k`-th receiving the `k`-th double.
    DoubleTo32,
}

/// A texture instruction's operand layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tex {
    /// `dest, address, t#, s#` then `extra` scalar/vector operands.
    Sample { extra: u8 },
    /// `dest, address, [offset,] t#, s#[, reference]`.
    Gather { programmable_offset: bool, compare: bool },
    /// `dest, address, t#[, sampleIndex]`.
    Load { multisample: bool },
    /// `dest, mipLevel, t#`.
    Resinfo,
    /// `dest, t#|rasterizer`.
    SampleInfo,
    /// `dest, t#|rasterizer, sampleIndex`.
    SamplePos,
    /// `dest, address, t#, s#`.
    Lod,
    /// `dest, t#`.
    Bufinfo,
    /// `dest, byteOffset, t#`.
    LoadRaw,
    /// `dest, index, byteOffset, t#`.
    LoadStructured,
}

/// A UAV or shared-memory instruction's operand layout (22.4.8-13, 22.17.7-28); `ld_raw`, `ld_structured`,
/// `bufinfo` and `resinfo` are [`Tex`] shapes whose resource operand may also be a `u#` or `g#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mem {
    /// `ld_uav_typed dest, address, u#`.
    LoadTyped,
    /// `store_uav_typed u#.xyzw, address, value`.
    StoreTyped,
    /// `store_raw u#|g#.mask, byteOffset, value`.
    StoreRaw,
    /// `store_structured u#|g#.mask, index, byteOffset, value`.
    StoreStructured,
    /// `atomic_* u#|g#, address, value[, value]`: `values` operands after the address.
    Atomic { values: u8 },
    /// `imm_atomic_* dest, u#|g#, address, value[, value]`.
    ImmediateAtomic { values: u8 },
    /// `imm_atomic_alloc` / `imm_atomic_consume dest, u#`.
    Counter,
    /// `sync`: no operands.
    Sync,
}

/// What an opcode is, for checking and pre-decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Arithmetic: destinations, source types, result mapping, whether `_sat` is allowed.
    Alu {
        destinations: u8,
        sources: &'static [Ty],
        out: Out,
        saturate: bool,
    },
    /// Flow control with `sources` condition/selector operands (integer, one component).
    Flow { sources: u8 },
    /// A texture instruction.
    Texture(Tex),
    /// A UAV or shared-memory instruction.
    Memory(Mem),
    /// `emit`, `cut`, `emitThenCut` and their `_stream` forms (22.8).
    Emit,
    /// Not runnable here, with the reason.
    Unsupported(&'static str),
}

/// The shape of `opcode`.
pub(super) fn shape(opcode: Opcode) -> Shape {
    use Opcode as O;
    use Out::{Componentwise as C, Dot, Double, DoubleTo32};
    use Ty::{D, F, I};
    const F1: &[Ty] = &[F];
    const F2: &[Ty] = &[F, F];
    const F3: &[Ty] = &[F, F, F];
    const I1: &[Ty] = &[I];
    const I2: &[Ty] = &[I, I];
    const I3: &[Ty] = &[I, I, I];
    const I4: &[Ty] = &[I, I, I, I];
    const IFF: &[Ty] = &[I, F, F];
    const D1: &[Ty] = &[D];
    const D2: &[Ty] = &[D, D];
    const D3: &[Ty] = &[D, D, D];
    const IDD: &[Ty] = &[I, D, D];
    let alu = |destinations, sources, out, saturate| Shape::Alu {
        destinations,
        sources,
        out,
        saturate,
    };
    match opcode {
        O::Add | O::Div | O::Min | O::Max | O::Mul => alu(1, F2, C, true),
        O::Eq | O::Ge | O::Lt | O::Ne => alu(1, F2, C, false),
        O::Mad => alu(1, F3, C, true),
        O::Dp2 => alu(1, F2, Dot(2), true),
        O::Dp3 => alu(1, F2, Dot(3), true),
        O::Dp4 => alu(1, F2, Dot(4), true),
        O::Exp
        | O::Frc
        | O::Log
        | O::Rcp
        | O::Rsq
        | O::Sqrt
        | O::RoundNe
        | O::RoundNi
        | O::RoundPi
        | O::RoundZ
        | O::Mov => alu(1, F1, C, true),
        o if o.is_derivative() => alu(1, F1, C, true),
        // pull-model evaluation (16.5): the attribute, then the pixel offset (`eval_snapped`) or the sample index
        O::EvalCentroid => alu(1, F1, C, true),
        O::EvalSnapped | O::EvalSampleIndex => alu(1, &[F, I], C, true),
        O::Movc => alu(1, IFF, C, true),
        O::Swapc => alu(2, IFF, C, false),
        O::Sincos => alu(2, F1, C, true),
        O::Ftoi | O::Ftou | O::F32tof16 => alu(1, F1, C, false),
        O::Itof | O::Utof | O::F16tof32 => alu(1, I1, C, false),
        O::Not | O::Ineg | O::Bfrev | O::Countbits | O::FirstbitHi | O::FirstbitLo | O::FirstbitShi => {
            alu(1, I1, C, false)
        }
        O::And
        | O::Or
        | O::Xor
        | O::Iadd
        | O::Ishl
        | O::Ishr
        | O::Ushr
        | O::Ieq
        | O::Ige
        | O::Ilt
        | O::Ine
        | O::Ult
        | O::Uge
        | O::Imax
        | O::Imin
        | O::Umax
        | O::Umin => alu(1, I2, C, false),
        O::Imad | O::Umad | O::Msad | O::Ubfe | O::Ibfe => alu(1, I3, C, false),
        O::Bfi => alu(1, I4, C, false),
        O::Imul | O::Umul | O::Udiv | O::Uaddc | O::Usubb => alu(2, I2, C, false),
        O::Dadd | O::Dmul | O::Dmin | O::Dmax | O::Ddiv => alu(1, D2, Double, true),
        O::Dfma => alu(1, D3, Double, true),
        O::Drcp | O::Dmov => alu(1, D1, Double, true),
        O::Dmovc => alu(1, IDD, Double, true),
        // 22.15 lists `_sat` on the double comparisons; it saturates their 32-bit results as floats.
        O::Deq | O::Dge | O::Dlt | O::Dne => alu(1, D2, DoubleTo32, true),
        O::Dtof | O::Dtoi | O::Dtou => alu(1, D1, DoubleTo32, false),
        O::Ftod => alu(1, F1, Double, false),
        O::Itod | O::Utod => alu(1, I1, Double, false),
        o if o.has_flow_operand() => Shape::Flow { sources: 1 },
        o if o.is_flow_control() => Shape::Flow { sources: 0 },
        O::Sample => Shape::Texture(Tex::Sample { extra: 0 }),
        O::SampleC | O::SampleCLz | O::SampleL | O::SampleB => Shape::Texture(Tex::Sample { extra: 1 }),
        O::SampleD => Shape::Texture(Tex::Sample { extra: 2 }),
        O::Gather4 => Shape::Texture(Tex::Gather {
            programmable_offset: false,
            compare: false,
        }),
        O::Gather4C => Shape::Texture(Tex::Gather {
            programmable_offset: false,
            compare: true,
        }),
        O::Gather4Po => Shape::Texture(Tex::Gather {
            programmable_offset: true,
            compare: false,
        }),
        O::Gather4PoC => Shape::Texture(Tex::Gather {
            programmable_offset: true,
            compare: true,
        }),
        O::Ld => Shape::Texture(Tex::Load { multisample: false }),
        O::LdMs => Shape::Texture(Tex::Load { multisample: true }),
        O::Resinfo => Shape::Texture(Tex::Resinfo),
        O::SampleInfo => Shape::Texture(Tex::SampleInfo),
        O::SamplePos => Shape::Texture(Tex::SamplePos),
        O::Lod => Shape::Texture(Tex::Lod),
        O::Bufinfo => Shape::Texture(Tex::Bufinfo),
        O::LdRaw => Shape::Texture(Tex::LoadRaw),
        O::LdStructured => Shape::Texture(Tex::LoadStructured),
        O::LdUavTyped => Shape::Memory(Mem::LoadTyped),
        O::StoreUavTyped => Shape::Memory(Mem::StoreTyped),
        O::StoreRaw => Shape::Memory(Mem::StoreRaw),
        O::StoreStructured => Shape::Memory(Mem::StoreStructured),
        O::AtomicCmpStore => Shape::Memory(Mem::Atomic { values: 2 }),
        O::ImmAtomicCmpExch => Shape::Memory(Mem::ImmediateAtomic { values: 2 }),
        O::ImmAtomicAlloc | O::ImmAtomicConsume => Shape::Memory(Mem::Counter),
        o if o.is_atomic() => Shape::Memory(Mem::Atomic { values: 1 }),
        o if o.is_immediate_atomic() => Shape::Memory(Mem::ImmediateAtomic { values: 1 }),
        O::Sync => Shape::Memory(Mem::Sync),
        o if o.is_geometry_emit() => Shape::Emit,
        o if o.is_hull_phase() => Shape::Unsupported("is a hull program phase: hull programs are not supported yet"),
        O::InterfaceCall => Shape::Unsupported("(interfaces, 7.19) is not implemented"),
        O::Abort | O::DebugBreak => Shape::Unsupported("is a debug instruction, not supported"),
        o if o.is_feedback() || o == O::CheckAccessFullyMapped => {
            Shape::Unsupported("(tiled-resource feedback, 5.9.4.5) is not part of shader model 5.0")
        }
        _ => Shape::Unsupported("is not an instruction a vertex, pixel, geometry or compute program runs"),
    }
}

/// Whether `opcode` runs only in pixel programs (22.1.7: derivatives, implicit-LOD sampling, `discard`, `lod`,
/// pull-model evaluation).
pub(super) fn pixel_only(opcode: Opcode) -> bool {
    opcode.is_derivative()
        || matches!(
            opcode,
            Opcode::Sample
                | Opcode::SampleB
                | Opcode::SampleC
                | Opcode::Lod
                | Opcode::Discard
                | Opcode::EvalSnapped
                | Opcode::EvalSampleIndex
                | Opcode::EvalCentroid
        )
}

/// The shader model (major * 10 + minor) that introduced `opcode`, for the few that are newer than 4.0: 4.1 added
/// `lod`, `gather4`, `samplepos`, `sampleinfo` (opcodes 108-111); 5.0 everything numbered from 113 on (the header's
/// `D3D11_SB_OPCODE_*`). SM4's `deriv_rtx`/`deriv_rty` remain valid in 5.0.
pub(super) fn introduced_in(opcode: Opcode) -> u32 {
    match opcode.raw() {
        108..=111 => 41,
        113.. => 50,
        _ => 40,
    }
}
