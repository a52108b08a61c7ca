//! [`Executable`]: a decoded program checked once and turned into what the run loop wants — declarations gathered,
//! operands resolved to register rows, swizzles and modifiers, control flow matched to jump targets.

use crate::dxbc::program::{
    Components, CustomData, Declaration, Immediate, Index as IrIndex, Instruction, InstructionReturnType,
    InterpolationMode, Modifier, Opcode, Operand, Program, ProgramKind, RegisterType, ResinfoReturnType,
    ResourceDimension, ReturnType, SamplerMode, Selection, SystemName,
};
use crate::{Error, Result};

use super::binding::{CONSTANT_BUFFER_SLOTS, RESOURCE_SLOTS, SAMPLER_SLOTS};

/// The most `r#` plus `x#` registers a program may declare (7.3: "the total number of r# and x# declared must be
/// <= 4096").
pub const MAX_TEMPORARIES: u32 = 4096;

/// The most `v#` and `o#` registers a vertex or pixel program has (`D3D11_VS_INPUT_REGISTER_COUNT`,
/// `D3D11_VS_OUTPUT_REGISTER_COUNT`, `D3D11_PS_INPUT_REGISTER_COUNT`: 32 each).
pub const MAX_IO_REGISTERS: u32 = 32;

/// The most render-target outputs a pixel program has (`D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT`).
pub const MAX_PIXEL_OUTPUTS: u32 = 8;

/// The most entries the subroutine return address stack holds (22.7.10: "Subroutines can nest 32 deep"; a call
/// made with 32 entries on the stack is skipped).
pub const MAX_CALL_DEPTH: usize = 32;

/// The pipeline stage a program runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A vertex program: lanes are independent vertices.
    Vertex,
    /// A pixel program: lanes come in 2x2 quads.
    Pixel,
}

/// An input register a program declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputRegister {
    /// `v#`.
    V(u32),
    /// `vPrim`: the primitive ID.
    PrimitiveId,
    /// `vCoverage`: the pixel's input coverage mask.
    Coverage,
    /// `vInnerCoverage`.
    InnerCoverage,
}

/// An input declaration (`dcl_input*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputDeclaration {
    /// The register.
    pub register: InputRegister,
    /// The components declared (x = bit 0).
    pub mask: u8,
    /// The system value it carries (`_sgv`/`_siv` forms).
    pub system: Option<SystemName>,
    /// How a pixel program's input is interpolated (`dcl_input_ps*`).
    pub interpolation: Option<InterpolationMode>,
}

/// An output register a program declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputRegister {
    /// `o#`.
    O(u32),
    /// `oDepth` (16.9.2).
    Depth,
    /// `oDepthGE`: a depth no less than the rasterized one (16.9.3).
    DepthGreaterEqual,
    /// `oDepthLE`: a depth no greater than the rasterized one (16.9.3).
    DepthLessEqual,
    /// `oMask` (16.9.4).
    CoverageMask,
    /// `oStencilRef`.
    StencilRef,
}

/// An output declaration (`dcl_output*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputDeclaration {
    /// The register.
    pub register: OutputRegister,
    /// The components declared (x = bit 0).
    pub mask: u8,
    /// The system value it carries (`_sgv`/`_siv` forms).
    pub system: Option<SystemName>,
}

/// A constant buffer declaration (`dcl_constantbuffer cb#[size]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantBufferDeclaration {
    /// The slot.
    pub slot: u32,
    /// The declared size in 16-byte vectors.
    pub size: u32,
    /// Indexed by a register (`dynamicIndexed`).
    pub dynamic_indexed: bool,
}

/// What kind of view a resource declaration expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    /// `dcl_resource`: a typed buffer or texture.
    Typed {
        /// Its dimension.
        dimension: ResourceDimension,
        /// What each component returns.
        return_types: [ReturnType; 4],
        /// The declared sample count of a multisampled texture (0 when not given).
        sample_count: u8,
    },
    /// `dcl_resource_raw`: a byte address buffer.
    Raw,
    /// `dcl_resource_structured`: a structured buffer.
    Structured {
        /// The structure size in bytes.
        stride: u32,
    },
}

/// A shader resource declaration (`t#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceDeclaration {
    /// The slot.
    pub slot: u32,
    /// What it expects.
    pub kind: ResourceKind,
}

/// A sampler declaration (`s#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerDeclaration {
    /// The slot.
    pub slot: u32,
    /// Its mode.
    pub mode: SamplerMode,
}

/// How a pixel program writes depth, if it does (16.9.2-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthOutput {
    /// `oDepth`: any value.
    Any,
    /// `oDepthGE`.
    GreaterEqual,
    /// `oDepthLE`.
    LessEqual,
}

// ---------------------------------------------------------------------------------------------------------------
// Resolved operands (crate-internal: the run loop's view of an instruction).

/// A register index: an immediate, or an immediate plus a scalar register read per lane (7.8.6: "considered to be
/// unsigned 32 bit values").
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Index {
    /// A fixed index.
    Imm(u32),
    /// `base + by`, wrapping.
    Rel {
        /// The immediate part.
        base: u32,
        /// The register part.
        by: Scalar,
    },
}

/// One component of a register, used as a relative index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scalar {
    /// Where it is.
    pub file: ScalarFile,
    /// Which component (0..3).
    pub component: u8,
}

/// The register file of a relative index (7.3: an `r#`, a statically indexed `x#`, or an input or constant).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ScalarFile {
    /// `r#`: the register's first row (register * 4).
    Temp(u32),
    /// `v#` with an immediate index: its first row.
    Input(u32),
    /// `x#[n]` with an immediate index: the element's first row in the indexable file; `None` when the index is past
    /// the array (reads 0, see [`Index`] rules in the module docs).
    Indexable(Option<u32>),
    /// `cb#[n]`.
    ConstantBuffer {
        /// The slot.
        slot: u8,
        /// The vector.
        element: u32,
    },
    /// `icb[n]`.
    ImmediateConstantBuffer(u32),
    /// A literal.
    Literal(u32),
    /// `vPrim`.
    PrimitiveId,
    /// `vCoverage`.
    Coverage,
    /// `vInnerCoverage`.
    InnerCoverage,
}

/// How a source operand's modifier applies, resolved for the instruction's operand type (22.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SourceModifier {
    /// None.
    None,
    /// Float negate: the sign bit flipped.
    Neg,
    /// Float absolute value: the sign bit cleared.
    Abs,
    /// Float `-|x|`.
    AbsNeg,
    /// Integer negate: two's complement (22.18.2).
    IntNeg,
    /// Double negate: the sign bit of the high words (`.y`, `.w`) flipped.
    DoubleNeg,
    /// Double absolute value.
    DoubleAbs,
    /// Double `-|x|`.
    DoubleAbsNeg,
}

/// The register file a source operand reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SourceFile {
    /// A literal, already swizzled and modified.
    Literal([u32; 4]),
    /// `r#`: the register's first row.
    Temp(u32),
    /// `v#`.
    Input(Index),
    /// `x#[]`: which declared array, and the element.
    Indexable {
        /// The array's position in [`Executable::arrays`].
        array: u16,
        /// The element.
        index: Index,
    },
    /// `cb#[]`.
    ConstantBuffer {
        /// The slot.
        slot: u8,
        /// The vector.
        index: Index,
    },
    /// `icb[]`.
    ImmediateConstantBuffer(Index),
    /// `vPrim`.
    PrimitiveId,
    /// `vCoverage`.
    Coverage,
    /// `vInnerCoverage`.
    InnerCoverage,
}

/// A source operand: where, which components (post-swizzle component `c` reads `swizzle[c]`), which modifier, and
/// which post-swizzle components the instruction uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Source {
    /// Where.
    pub file: SourceFile,
    /// For each post-swizzle component, the register component (0..3).
    pub swizzle: [u8; 4],
    /// The modifier.
    pub modifier: SourceModifier,
    /// The post-swizzle components the instruction reads (x = bit 0).
    pub used: u8,
}

/// The register file a destination operand writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum DestinationFile {
    /// `null`: the result is dropped.
    Null,
    /// `r#`: the register's first row.
    Temp(u32),
    /// `x#[]`.
    Indexable {
        /// The array's position in [`Executable::arrays`].
        array: u16,
        /// The element.
        index: Index,
    },
    /// `o#`.
    Output(Index),
    /// `oDepth`, `oDepthGE`, `oDepthLE`.
    Depth,
    /// `oMask`.
    CoverageMask,
    /// `oStencilRef`.
    StencilRef,
}

/// A destination operand and its write mask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Destination {
    /// Where.
    pub file: DestinationFile,
    /// The components written (x = bit 0).
    pub mask: u8,
}

/// A declared `x#` array in the indexable file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IndexableArray {
    /// The register number (`x#`).
    pub number: u32,
    /// Its first row in the indexable file.
    pub row: u32,
    /// How many elements.
    pub size: u32,
}

/// A flow-control instruction's matched targets (op positions in [`Executable::ops`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Not flow control.
    None,
    /// `if`: its `else` (or `endif` when it has none) and `endif`.
    If {
        /// The `else`, or the `endif`.
        else_op: u32,
        /// The `endif`.
        endif_op: u32,
    },
    /// `else`: its `endif`.
    Else {
        /// The `endif`.
        endif_op: u32,
    },
    /// `loop`: its `endloop`.
    Loop {
        /// The `endloop`.
        endloop_op: u32,
    },
    /// `endloop`: its `loop`.
    EndLoop {
        /// The `loop`.
        loop_op: u32,
    },
    /// `switch`: its `endswitch` and its case values.
    Switch {
        /// The `endswitch`.
        endswitch_op: u32,
        /// Position in [`Executable::switches`].
        cases: u32,
    },
    /// `case n`.
    Case(u32),
    /// `label l#`, and a `call`/`callc` before its target is resolved: the label number.
    Label(u32),
    /// `call`/`callc`: the first op of the subroutine.
    Call {
        /// The op after the `label`.
        target: u32,
    },
    /// `ret`/`retc`: whether it is the unconditional, unnested `ret` that ends its function.
    Ret {
        /// Ends the function.
        function_end: bool,
    },
}

/// What a texture instruction needs besides its value operands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TextureOperands {
    /// The `t#` slot, or `None` for the `rasterizer` register.
    pub resource: Option<u32>,
    /// The resource operand's swizzle: result component `c` is the texel's `swizzle[c]`.
    pub swizzle: [u8; 4],
    /// The `s#` slot, if the instruction has one.
    pub sampler: Option<u32>,
    /// For `gather4*`: the sampler operand's selected component (22.4.2).
    pub channel: u8,
    /// The immediate texel offsets (`aoffimmi`).
    pub offsets: [i32; 3],
}

/// One pre-decoded instruction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Op {
    /// What it does.
    pub opcode: Opcode,
    /// Its position in [`Program::instructions`].
    pub instruction: u32,
    /// Its token offset in the program.
    pub offset: u32,
    /// `_sat`.
    pub saturate: bool,
    /// `_nz` (true) or `_z` (false) for the conditional forms.
    pub test_nonzero: bool,
    /// Destinations, in operand order.
    pub destinations: Vec<Destination>,
    /// Value sources, in operand order (a texture instruction's `t#` and `s#` are in `texture`).
    pub sources: Vec<Source>,
    /// Matched control flow.
    pub flow: Flow,
    /// For texture instructions.
    pub texture: Option<TextureOperands>,
    /// `resinfo`'s return type.
    pub resinfo_return: ResinfoReturnType,
    /// `sampleinfo`'s return type.
    pub sample_info_return: InstructionReturnType,
}

/// Sizes of a batch's register files, in rows (one row is one component of one register for every lane).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// `r#` rows.
    pub temps: usize,
    /// `x#` rows, every array.
    pub indexable: usize,
    /// `v#` rows.
    pub inputs: usize,
    /// `o#` rows.
    pub outputs: usize,
}

/// A program compiled for running: declarations gathered, every instruction checked once and pre-decoded, control
/// flow matched. Build one per shader with [`Executable::new`] and run it on a [`super::Machine`].
#[derive(Clone, Debug)]
pub struct Executable {
    pub(crate) name: String,
    pub(crate) stage: Stage,
    pub(crate) ops: Vec<Op>,
    pub(crate) layout: Layout,
    pub(crate) arrays: Vec<IndexableArray>,
    pub(crate) icb: Vec<[u32; 4]>,
    pub(crate) switches: Vec<Vec<u32>>,
    pub(crate) inputs: Vec<InputDeclaration>,
    pub(crate) outputs: Vec<OutputDeclaration>,
    pub(crate) constant_buffers: Vec<ConstantBufferDeclaration>,
    pub(crate) resources: Vec<ResourceDeclaration>,
    pub(crate) samplers: Vec<SamplerDeclaration>,
    pub(crate) depth_output: Option<DepthOutput>,
    pub(crate) input_registers: u32,
    pub(crate) output_registers: u32,
}

impl Executable {
    /// Checks `program` and pre-decodes it. Fails, naming the program and the instruction, on anything the run loop
    /// could not execute: a program that is not `vs`/`ps` 4.0-5.0, an opcode of another stage or one not
    /// implemented, an operand of the wrong kind, a register past its declaration, unbalanced flow control.
    pub fn new(program: &Program) -> Result<Executable> {
        Builder::new(program)?.build()
    }

    /// The program's name as its version token gives it (`ps_5_0`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The stage it runs in.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Its input declarations, in program order.
    pub fn inputs(&self) -> &[InputDeclaration] {
        &self.inputs
    }

    /// Its output declarations, in program order.
    pub fn outputs(&self) -> &[OutputDeclaration] {
        &self.outputs
    }

    /// Its constant buffer declarations.
    pub fn constant_buffers(&self) -> &[ConstantBufferDeclaration] {
        &self.constant_buffers
    }

    /// Its shader resource declarations.
    pub fn resources(&self) -> &[ResourceDeclaration] {
        &self.resources
    }

    /// Its sampler declarations.
    pub fn samplers(&self) -> &[SamplerDeclaration] {
        &self.samplers
    }

    /// How it writes depth, if it does.
    pub fn depth_output(&self) -> Option<DepthOutput> {
        self.depth_output
    }

    /// Whether it writes `oMask`.
    pub fn writes_coverage_mask(&self) -> bool {
        self.outputs.iter().any(|o| o.register == OutputRegister::CoverageMask)
    }

    /// How many `v#` registers its input file holds (one past the highest declared).
    pub fn input_register_count(&self) -> u32 {
        self.input_registers
    }

    /// How many `o#` registers its output file holds (one past the highest declared).
    pub fn output_register_count(&self) -> u32 {
        self.output_registers
    }

    /// How many instructions (declarations excluded) it runs.
    pub fn instruction_count(&self) -> usize {
        self.ops.len()
    }

    /// `at` text for an error about op `op`.
    pub(crate) fn place(&self, op: &Op) -> String {
        place(op.instruction, op.offset, op.opcode)
    }
}

/// `at` text naming an instruction: its index, token offset and opcode.
fn place(instruction: u32, offset: u32, opcode: Opcode) -> String {
    format!("instruction {instruction} (token {offset:#x}, {})", opcode.name())
}

// ---------------------------------------------------------------------------------------------------------------
// Instruction shapes.

/// How an instruction reads a source operand, which decides what its modifier means (22.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    /// A 32-bit float.
    F,
    /// A 32-bit integer (or bits): negate is two's complement, `_abs` is not defined.
    I,
    /// A double (pairs of components).
    D,
}

/// How an ALU instruction's results map onto its destination's components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Out {
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
enum Tex {
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

/// What an opcode is, for checking and pre-decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
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
    /// Not runnable here, with the reason.
    Unsupported(&'static str),
}

/// The shape of `opcode`.
fn shape(opcode: Opcode) -> Shape {
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
        O::DerivRtx | O::DerivRty | O::DerivRtxCoarse | O::DerivRtxFine | O::DerivRtyCoarse | O::DerivRtyFine => {
            alu(1, F1, C, true)
        }
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
        O::Nop
        | O::Else
        | O::Endif
        | O::Loop
        | O::Endloop
        | O::Break
        | O::Continue
        | O::Endswitch
        | O::Default
        | O::Ret
        | O::Label
        | O::Call
        | O::Case => Shape::Flow { sources: 0 },
        O::If | O::Breakc | O::Continuec | O::Switch | O::Callc | O::Retc | O::Discard => Shape::Flow { sources: 1 },
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
        O::Emit | O::Emitthencut | O::Cut | O::EmitStream | O::CutStream | O::EmitthencutStream => {
            Shape::Unsupported("is a geometry program instruction (22.8), not supported in a vertex or pixel program")
        }
        O::HsDecls | O::HsControlPointPhase | O::HsForkPhase | O::HsJoinPhase => {
            Shape::Unsupported("is a hull program phase, not supported in a vertex or pixel program")
        }
        O::Sync => Shape::Unsupported("(22.17.7) is not supported in a vertex or pixel program"),
        O::LdUavTyped
        | O::StoreUavTyped
        | O::StoreRaw
        | O::StoreStructured
        | O::AtomicAnd
        | O::AtomicOr
        | O::AtomicXor
        | O::AtomicCmpStore
        | O::AtomicIadd
        | O::AtomicImax
        | O::AtomicImin
        | O::AtomicUmax
        | O::AtomicUmin
        | O::ImmAtomicAlloc
        | O::ImmAtomicConsume
        | O::ImmAtomicIadd
        | O::ImmAtomicAnd
        | O::ImmAtomicOr
        | O::ImmAtomicXor
        | O::ImmAtomicExch
        | O::ImmAtomicCmpExch
        | O::ImmAtomicImax
        | O::ImmAtomicImin
        | O::ImmAtomicUmax
        | O::ImmAtomicUmin => Shape::Unsupported(
            "is an unordered access view operation (22.17), not supported in a vertex or pixel program",
        ),
        O::EvalSnapped | O::EvalSampleIndex | O::EvalCentroid => {
            Shape::Unsupported("(pull-model attribute evaluation, 16.5) is not implemented")
        }
        O::InterfaceCall => Shape::Unsupported("(interfaces, 7.19) is not implemented"),
        O::Abort | O::DebugBreak => Shape::Unsupported("is a debug instruction, not supported"),
        O::Gather4Feedback
        | O::Gather4CFeedback
        | O::Gather4PoFeedback
        | O::Gather4PoCFeedback
        | O::LdFeedback
        | O::LdMsFeedback
        | O::LdUavTypedFeedback
        | O::LdRawFeedback
        | O::LdStructuredFeedback
        | O::SampleLFeedback
        | O::SampleCLzFeedback
        | O::SampleClampFeedback
        | O::SampleBClampFeedback
        | O::SampleDClampFeedback
        | O::SampleCClampFeedback
        | O::CheckAccessFullyMapped => {
            Shape::Unsupported("(tiled-resource feedback, 5.9.4.5) is not part of shader model 5.0")
        }
        _ => Shape::Unsupported("is not an instruction a vertex or pixel program runs"),
    }
}

/// Whether `opcode` runs only in pixel programs (22.1.7: derivatives, implicit-LOD sampling, `discard`, `lod`).
fn pixel_only(opcode: Opcode) -> bool {
    use Opcode as O;
    matches!(
        opcode,
        O::DerivRtx
            | O::DerivRty
            | O::DerivRtxCoarse
            | O::DerivRtxFine
            | O::DerivRtyCoarse
            | O::DerivRtyFine
            | O::Sample
            | O::SampleB
            | O::SampleC
            | O::Lod
            | O::Discard
    )
}

/// The shader model (major * 10 + minor) that introduced `opcode`, for the few that are newer than 4.0: 4.1 added
/// `lod`, `gather4`, `samplepos`, `sampleinfo` (opcodes 108-111); 5.0 everything numbered from 113 on (the header's
/// `D3D11_SB_OPCODE_*`). SM4's `deriv_rtx`/`deriv_rty` remain valid in 5.0.
fn introduced_in(opcode: Opcode) -> u32 {
    match opcode.raw() {
        108..=111 => 41,
        113.. => 50,
        _ => 40,
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The builder.

/// Checks a program and builds its [`Executable`].
struct Builder<'p> {
    program: &'p Program,
    name: String,
    stage: Stage,
    temps: u32,
    arrays: Vec<IndexableArray>,
    icb: Option<Vec<[u32; 4]>>,
    inputs: Vec<InputDeclaration>,
    outputs: Vec<OutputDeclaration>,
    constant_buffers: Vec<ConstantBufferDeclaration>,
    resources: Vec<ResourceDeclaration>,
    samplers: Vec<SamplerDeclaration>,
    depth_output: Option<DepthOutput>,
    input_registers: u32,
    output_registers: u32,
}

impl<'p> Builder<'p> {
    fn new(program: &'p Program) -> Result<Self> {
        let prefix = match program.kind {
            ProgramKind::Vertex => "vs",
            ProgramKind::Pixel => "ps",
            ProgramKind::Geometry => "gs",
            ProgramKind::Hull => "hs",
            ProgramKind::Domain => "ds",
            ProgramKind::Compute => "cs",
        };
        let name = format!("{prefix}_{}_{}", program.major, program.minor);
        let stage = match program.kind {
            ProgramKind::Vertex => Stage::Vertex,
            ProgramKind::Pixel => Stage::Pixel,
            _ => {
                return Err(Error::new(
                    name,
                    "only vertex and pixel programs run in this interpreter",
                ));
            }
        };
        if !matches!((program.major, program.minor), (4, 0) | (4, 1) | (5, 0)) {
            return Err(Error::new(
                name,
                "only shader models 4.0, 4.1 and 5.0 run in this interpreter",
            ));
        }
        Ok(Self {
            program,
            name,
            stage,
            temps: 0,
            arrays: Vec::new(),
            icb: None,
            inputs: Vec::new(),
            outputs: Vec::new(),
            constant_buffers: Vec::new(),
            resources: Vec::new(),
            samplers: Vec::new(),
            depth_output: None,
            input_registers: 0,
            output_registers: 0,
        })
    }

    fn model(&self) -> u32 {
        u32::from(self.program.major)
            .saturating_mul(10)
            .saturating_add(u32::from(self.program.minor))
    }

    fn error(&self, index: usize, instruction: &Instruction, detail: impl Into<String>) -> Error {
        Error::new(self.name.clone(), detail).at(place(
            u32::try_from(index).unwrap_or(u32::MAX),
            instruction.offset,
            instruction.opcode,
        ))
    }

    fn build(mut self) -> Result<Executable> {
        let program = self.program;
        for (index, instruction) in program.instructions.iter().enumerate() {
            if let Some(declaration) = &instruction.declaration {
                self.declare(index, instruction, declaration)?;
            }
        }
        let mut ops = Vec::new();
        for (index, instruction) in program.instructions.iter().enumerate() {
            if instruction.declaration.is_some() || instruction.opcode.is_declaration() {
                continue;
            }
            ops.push(self.op(index, instruction)?);
        }
        let switches = self.match_flow(&mut ops)?;
        let temps = usize::try_from(self.temps).unwrap_or(0).saturating_mul(4);
        let indexable = self
            .arrays
            .iter()
            .map(|a| usize::try_from(a.size).unwrap_or(0).saturating_mul(4))
            .fold(0usize, usize::saturating_add);
        let layout = Layout {
            temps,
            indexable,
            inputs: usize::try_from(self.input_registers).unwrap_or(0).saturating_mul(4),
            outputs: usize::try_from(self.output_registers).unwrap_or(0).saturating_mul(4),
        };
        Ok(Executable {
            name: self.name,
            stage: self.stage,
            ops,
            layout,
            arrays: self.arrays,
            icb: self.icb.unwrap_or_default(),
            switches,
            inputs: self.inputs,
            outputs: self.outputs,
            constant_buffers: self.constant_buffers,
            resources: self.resources,
            samplers: self.samplers,
            depth_output: self.depth_output,
            input_registers: self.input_registers,
            output_registers: self.output_registers,
        })
    }

    // -- declarations ---------------------------------------------------------------------------------------

    fn declare(&mut self, index: usize, instruction: &Instruction, declaration: &Declaration) -> Result<()> {
        let err = |detail: String| self.error(index, instruction, detail);
        match declaration {
            Declaration::GlobalFlags(_) | Declaration::IndexRange { .. } => {}
            Declaration::CustomData(CustomData::ImmediateConstantBuffer(vectors)) => {
                if self.icb.is_some() {
                    return Err(err(
                        "a second immediate constant buffer (7.5.1 allows one per program)".into()
                    ));
                }
                self.icb = Some(vectors.clone());
            }
            Declaration::CustomData(_) => {}
            Declaration::Temps(count) => {
                if *count > MAX_TEMPORARIES {
                    return Err(err(format!(
                        "dcl_temps {count} declares more than the {MAX_TEMPORARIES} temporaries 7.3 allows"
                    )));
                }
                self.temps = *count;
            }
            Declaration::IndexableTemp {
                register,
                size,
                components,
            } => {
                if !(1..=4).contains(components) {
                    return Err(err(format!(
                        "x{register} has {components} components; 1 to 4 are allowed"
                    )));
                }
                if self.arrays.iter().any(|a| a.number == *register) {
                    return Err(err(format!("x{register} is declared twice")));
                }
                let used: u32 = self.arrays.iter().map(|a| a.size).fold(self.temps, u32::saturating_add);
                if used.saturating_add(*size) > MAX_TEMPORARIES {
                    return Err(err(format!(
                        "x{register}[{size}] takes the temporaries past the {MAX_TEMPORARIES} 7.3 allows"
                    )));
                }
                let row = self
                    .arrays
                    .iter()
                    .map(|a| a.size.saturating_mul(4))
                    .fold(0u32, u32::saturating_add);
                self.arrays.push(IndexableArray {
                    number: *register,
                    row,
                    size: *size,
                });
            }
            Declaration::ConstantBuffer {
                register,
                dynamic_indexed,
            } => {
                let (slot, size) = match register.indices.as_slice() {
                    [IrIndex::Immediate32(slot), IrIndex::Immediate32(size)] => (*slot, *size),
                    _ => return Err(err("a constant buffer declaration needs cb#[size]".into())),
                };
                if usize::try_from(slot).map_or(true, |s| s >= CONSTANT_BUFFER_SLOTS) {
                    return Err(err(format!(
                        "cb{slot} is past the {CONSTANT_BUFFER_SLOTS} constant buffer slots"
                    )));
                }
                if self.constant_buffers.iter().any(|c| c.slot == slot) {
                    return Err(err(format!("cb{slot} is declared twice")));
                }
                self.constant_buffers.push(ConstantBufferDeclaration {
                    slot,
                    size,
                    dynamic_indexed: *dynamic_indexed,
                });
            }
            Declaration::Sampler { register, mode } => {
                let slot = self.slot_of(index, instruction, register, SAMPLER_SLOTS, "s")?;
                if self.samplers.iter().any(|s| s.slot == slot) {
                    return Err(err(format!("s{slot} is declared twice")));
                }
                self.samplers.push(SamplerDeclaration { slot, mode: *mode });
            }
            Declaration::Resource {
                register,
                dimension,
                sample_count,
                return_types,
            } => {
                let kind = ResourceKind::Typed {
                    dimension: *dimension,
                    return_types: *return_types,
                    sample_count: *sample_count,
                };
                self.declare_resource(index, instruction, register, kind)?;
            }
            Declaration::ResourceRaw(register) => {
                self.declare_resource(index, instruction, register, ResourceKind::Raw)?;
            }
            Declaration::ResourceStructured { register, stride } => {
                if *stride == 0 || stride % 4 != 0 {
                    return Err(err(format!(
                        "a structure stride of {stride} bytes is not a positive multiple of 4"
                    )));
                }
                let kind = ResourceKind::Structured { stride: *stride };
                self.declare_resource(index, instruction, register, kind)?;
            }
            Declaration::Register {
                register,
                name,
                interpolation,
            } => self.declare_register(index, instruction, register, *name, *interpolation)?,
            Declaration::FunctionBody(_) | Declaration::FunctionTable { .. } | Declaration::Interface { .. } => {
                return Err(err(format!(
                    "{} (interfaces, 7.19) is not implemented",
                    instruction.opcode.name()
                )));
            }
            Declaration::UavTyped { .. } | Declaration::UavRaw { .. } | Declaration::UavStructured { .. } => {
                return Err(err(format!(
                    "{}: unordered access views are not supported in a vertex or pixel program",
                    instruction.opcode.name()
                )));
            }
            _ => {
                return Err(err(format!(
                    "{} belongs to another stage, not a vertex or pixel program",
                    instruction.opcode.name()
                )));
            }
        }
        Ok(())
    }

    fn slot_of(
        &self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        slots: usize,
        prefix: &str,
    ) -> Result<u32> {
        match register.indices.as_slice() {
            [IrIndex::Immediate32(slot)] if usize::try_from(*slot).is_ok_and(|s| s < slots) => Ok(*slot),
            [IrIndex::Immediate32(slot)] => {
                Err(self.error(index, instruction, format!("{prefix}{slot} is past the {slots} slots")))
            }
            _ => Err(self.error(
                index,
                instruction,
                format!(
                    "a {prefix}# declaration needs one immediate index (shader model 5.1 ranges are not supported)"
                ),
            )),
        }
    }

    fn declare_resource(
        &mut self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        kind: ResourceKind,
    ) -> Result<()> {
        if register.register != RegisterType::Resource {
            return Err(self.error(
                index,
                instruction,
                "unordered access views are not supported in a vertex or pixel program",
            ));
        }
        let slot = self.slot_of(index, instruction, register, RESOURCE_SLOTS, "t")?;
        if self.resources.iter().any(|r| r.slot == slot) {
            return Err(self.error(index, instruction, format!("t{slot} is declared twice")));
        }
        self.resources.push(ResourceDeclaration { slot, kind });
        Ok(())
    }

    fn declare_register(
        &mut self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        system: Option<SystemName>,
        interpolation: Option<InterpolationMode>,
    ) -> Result<()> {
        let mask = match register.components {
            Components::Four(Selection::Mask(mask)) => mask,
            _ => 1,
        };
        let is_output = matches!(
            instruction.opcode,
            Opcode::DclOutput | Opcode::DclOutputSgv | Opcode::DclOutputSiv
        );
        let pixel = self.stage == Stage::Pixel;
        let number = match register.indices.as_slice() {
            [IrIndex::Immediate32(n)] => Some(*n),
            [] => None,
            _ => {
                return Err(self.error(
                    index,
                    instruction,
                    "a vertex or pixel program's input or output has one immediate index",
                ));
            }
        };
        let numbered = |builder: &Self, limit: u32| -> Result<u32> {
            match number {
                Some(n) if n < limit => Ok(n),
                Some(n) => Err(builder.error(
                    index,
                    instruction,
                    format!("register {n} is past the {limit} this stage has"),
                )),
                None => Err(builder.error(index, instruction, "the register needs an index")),
            }
        };
        if is_output {
            let output = match register.register {
                RegisterType::Output => {
                    let limit = if pixel { MAX_PIXEL_OUTPUTS } else { MAX_IO_REGISTERS };
                    let n = numbered(self, limit)?;
                    self.output_registers = self.output_registers.max(n.saturating_add(1));
                    OutputRegister::O(n)
                }
                RegisterType::OutputDepth if pixel => OutputRegister::Depth,
                RegisterType::OutputDepthGreaterEqual if pixel => OutputRegister::DepthGreaterEqual,
                RegisterType::OutputDepthLessEqual if pixel => OutputRegister::DepthLessEqual,
                RegisterType::OutputCoverageMask if pixel => OutputRegister::CoverageMask,
                RegisterType::OutputStencilRef if pixel => OutputRegister::StencilRef,
                other => {
                    return Err(self.error(
                        index,
                        instruction,
                        format!("{other:?} is not an output of a {} program", self.stage_name()),
                    ));
                }
            };
            let depth = match output {
                OutputRegister::Depth => Some(DepthOutput::Any),
                OutputRegister::DepthGreaterEqual => Some(DepthOutput::GreaterEqual),
                OutputRegister::DepthLessEqual => Some(DepthOutput::LessEqual),
                _ => None,
            };
            if let Some(depth) = depth {
                if self.depth_output.is_some() {
                    return Err(self.error(index, instruction, "a second depth output"));
                }
                self.depth_output = Some(depth);
            }
            self.outputs.push(OutputDeclaration {
                register: output,
                mask,
                system,
            });
        } else {
            let input = match register.register {
                RegisterType::Input => {
                    let n = numbered(self, MAX_IO_REGISTERS)?;
                    self.input_registers = self.input_registers.max(n.saturating_add(1));
                    InputRegister::V(n)
                }
                RegisterType::InputPrimitiveId => InputRegister::PrimitiveId,
                RegisterType::InputCoverageMask if pixel => InputRegister::Coverage,
                RegisterType::InnerCoverage if pixel => InputRegister::InnerCoverage,
                other => {
                    return Err(self.error(
                        index,
                        instruction,
                        format!("{other:?} is not an input of a {} program", self.stage_name()),
                    ));
                }
            };
            self.inputs.push(InputDeclaration {
                register: input,
                mask,
                system,
                interpolation,
            });
        }
        Ok(())
    }

    fn stage_name(&self) -> &'static str {
        match self.stage {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
        }
    }

    // -- instructions ---------------------------------------------------------------------------------------

    fn op(&self, index: usize, instruction: &Instruction) -> Result<Op> {
        let opcode = instruction.opcode;
        let err = |detail: String| self.error(index, instruction, detail);
        if introduced_in(opcode) > self.model() {
            return Err(err(format!(
                "{} needs shader model {}.{}",
                opcode.name(),
                introduced_in(opcode) / 10,
                introduced_in(opcode) % 10
            )));
        }
        if pixel_only(opcode) && self.stage != Stage::Pixel {
            return Err(err(format!("{} runs only in pixel programs (22.1.7)", opcode.name())));
        }
        let mut op = Op {
            opcode,
            instruction: u32::try_from(index).unwrap_or(u32::MAX),
            offset: instruction.offset,
            saturate: instruction.saturate,
            test_nonzero: instruction.test_nonzero,
            destinations: Vec::new(),
            sources: Vec::new(),
            flow: Flow::None,
            texture: None,
            resinfo_return: instruction.resinfo_return,
            sample_info_return: instruction.sample_info_return,
        };
        let operands = &instruction.operands;
        match shape(opcode) {
            Shape::Unsupported(reason) => return Err(err(format!("{} {reason}", opcode.name()))),
            Shape::Alu {
                destinations,
                sources,
                out,
                saturate,
            } => {
                if instruction.saturate && !saturate {
                    return Err(err(format!(
                        "{}_sat: _sat applies to float results only (22.19.1)",
                        opcode.name()
                    )));
                }
                let want = usize::from(destinations).saturating_add(sources.len());
                if operands.len() != want {
                    return Err(err(format!(
                        "{} takes {want} operands, not {}",
                        opcode.name(),
                        operands.len()
                    )));
                }
                let (dst_ops, src_ops) = operands.split_at(usize::from(destinations));
                for operand in dst_ops {
                    op.destinations.push(self.destination(index, instruction, operand)?);
                }
                let masks: Vec<u8> = op.destinations.iter().map(|d| d.mask).collect();
                let used = self.check_alu_masks(index, instruction, out, &masks)?;
                for ((operand, ty), used) in src_ops.iter().zip(sources).zip(used) {
                    op.sources.push(self.source(index, instruction, operand, *ty, used)?);
                }
            }
            Shape::Flow { sources } => {
                self.flow_operands(index, instruction, sources, &mut op)?;
            }
            Shape::Texture(tex) => self.texture(index, instruction, tex, &mut op)?,
        }
        if instruction.saturate && !matches!(shape(opcode), Shape::Alu { .. }) {
            return Err(err(format!(
                "{}_sat: _sat applies to float results only (22.19.1)",
                opcode.name()
            )));
        }
        Ok(op)
    }

    /// Checks the destination masks of an ALU instruction against its result mapping and says which post-swizzle
    /// components each source operand reads.
    fn check_alu_masks(&self, index: usize, instruction: &Instruction, out: Out, masks: &[u8]) -> Result<Vec<u8>> {
        let opcode = instruction.opcode;
        let union = masks.iter().fold(0u8, |a, m| a | m);
        let Shape::Alu { sources, .. } = shape(opcode) else {
            return Ok(Vec::new());
        };
        let used = match out {
            Out::Componentwise => vec![union; sources.len()],
            Out::Dot(n) => vec![(1u8 << n).wrapping_sub(1); sources.len()],
            Out::Double => {
                let first = masks.first().copied().unwrap_or(0);
                if !matches!(first, 0b0011 | 0b1100 | 0b1111) {
                    return Err(self.error(
                        index,
                        instruction,
                        format!(
                            "{} writes doubles: its mask must be .xy, .zw or .xyzw (22.14), not {}",
                            opcode.name(),
                            mask_name(first)
                        ),
                    ));
                }
                // Slot 0 is .xy, slot 1 is .zw; a double source reads both words of a slot, a 32-bit source reads
                // component k for slot k (22.16.2, 22.17.2).
                let double_used = first;
                let narrow_used = (first & 1) | ((first >> 1) & 2);
                sources
                    .iter()
                    .map(|t| if *t == Ty::D { double_used } else { narrow_used })
                    .collect()
            }
            Out::DoubleTo32 => {
                let first = masks.first().copied().unwrap_or(0);
                let count = first.count_ones();
                if !(1..=2).contains(&count) {
                    return Err(self.error(
                        index,
                        instruction,
                        format!(
                            "{} writes one or two 32-bit results (22.15, 22.17): its mask must have 1 or 2 components, not {}",
                            opcode.name(),
                            mask_name(first)
                        ),
                    ));
                }
                let slots = if count == 2 { 0b1111 } else { 0b0011 };
                vec![slots; sources.len()]
            }
        };
        Ok(used)
    }

    fn flow_operands(&self, index: usize, instruction: &Instruction, sources: u8, op: &mut Op) -> Result<()> {
        let opcode = instruction.opcode;
        let operands = &instruction.operands;
        let err = |detail: String| self.error(index, instruction, detail);
        match opcode {
            Opcode::Case => {
                let value = match operands.as_slice() {
                    [operand] => match operand.immediate {
                        Some(Immediate::Scalar32(v)) => v,
                        Some(Immediate::Vector32([v, ..])) => v,
                        _ => return Err(err("case takes one 32-bit literal (22.7.12)".into())),
                    },
                    _ => return Err(err("case takes one 32-bit literal (22.7.12)".into())),
                };
                op.flow = Flow::Case(value);
                return Ok(());
            }
            Opcode::Call | Opcode::Callc | Opcode::Label => {
                let label_operand = if opcode == Opcode::Callc {
                    if operands.len() != 2 {
                        return Err(err("callc takes a condition and a label".into()));
                    }
                    if let Some(condition) = operands.first() {
                        op.sources.push(self.condition(index, instruction, condition)?);
                    }
                    operands.get(1)
                } else {
                    if operands.len() != 1 {
                        return Err(err(format!("{} takes one label", opcode.name())));
                    }
                    operands.first()
                };
                let label = label_operand
                    .filter(|o| o.register == RegisterType::Label)
                    .and_then(|o| match o.indices.as_slice() {
                        [IrIndex::Immediate32(n)] => Some(*n),
                        _ => None,
                    })
                    .ok_or_else(|| err("the label operand must be l# with an immediate number (22.7.10)".into()))?;
                op.flow = Flow::Label(label);
                return Ok(());
            }
            _ => {}
        }
        if operands.len() != usize::from(sources) {
            return Err(err(format!(
                "{} takes {sources} operand(s), not {}",
                opcode.name(),
                operands.len()
            )));
        }
        for operand in operands {
            op.sources.push(self.condition(index, instruction, operand)?);
        }
        Ok(())
    }

    /// A condition or selector: one component of an integer operand (22.7.1: "must use a single component
    /// selector").
    fn condition(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<Source> {
        // Compilers write the selection as a replicated swizzle (`.yyyy`), which listings print as `.y`.
        let single = match operand.components {
            Components::Four(Selection::Swizzle([a, b, c, d])) => a == b && b == c && c == d,
            Components::Four(Selection::Mask(_)) => false,
            _ => true,
        };
        if !single && operand.immediate.is_none() {
            return Err(self.error(
                index,
                instruction,
                format!(
                    "{}'s condition must select one component (22.7.1)",
                    instruction.opcode.name()
                ),
            ));
        }
        self.source(index, instruction, operand, Ty::I, 1)
    }

    fn texture(&self, index: usize, instruction: &Instruction, tex: Tex, op: &mut Op) -> Result<()> {
        let opcode = instruction.opcode;
        let operands = &instruction.operands;
        let err = |detail: String| self.error(index, instruction, detail);
        let count = match tex {
            Tex::Sample { extra } => 4usize.saturating_add(usize::from(extra)),
            Tex::Gather {
                programmable_offset,
                compare,
            } => 4usize
                .saturating_add(usize::from(programmable_offset))
                .saturating_add(usize::from(compare)),
            Tex::Load { multisample } => 3usize.saturating_add(usize::from(multisample)),
            Tex::Resinfo | Tex::LoadRaw => 3,
            Tex::Lod => 4,
            Tex::SamplePos => 3,
            Tex::SampleInfo | Tex::Bufinfo => 2,
            Tex::LoadStructured => 4,
        };
        if operands.len() != count {
            return Err(err(format!(
                "{} takes {count} operands, not {}",
                opcode.name(),
                operands.len()
            )));
        }
        let operand = |i: usize| operands.get(i).ok_or_else(|| err(format!("operand {i} is missing")));
        let destination = self.destination(index, instruction, operand(0)?)?;
        if destination.file == DestinationFile::Depth
            || destination.file == DestinationFile::CoverageMask
            || destination.file == DestinationFile::StencilRef
        {
            // Allowed by the register rules, but a texture result is a 4-vector; the mask still applies.
        }
        op.destinations.push(destination);
        // Which operands are the t#, s# and value operands.
        let (resource_at, sampler_at, values): (usize, Option<usize>, Vec<(usize, Ty, u8)>) = match tex {
            Tex::Sample { extra } => {
                let mut values = vec![(1, Ty::F, 0b1111)];
                match opcode {
                    Opcode::SampleD => {
                        values.push((4, Ty::F, 0b0111));
                        values.push((5, Ty::F, 0b0111));
                    }
                    _ if extra == 1 => values.push((4, Ty::F, 0b0001)),
                    _ => {}
                }
                (2, Some(3), values)
            }
            Tex::Gather {
                programmable_offset,
                compare,
            } => {
                let mut values = vec![(1, Ty::F, 0b1111)];
                let shift = usize::from(programmable_offset);
                if programmable_offset {
                    values.push((2, Ty::I, 0b0011));
                }
                if compare {
                    values.push((4usize.saturating_add(shift), Ty::F, 0b0001));
                }
                (2usize.saturating_add(shift), Some(3usize.saturating_add(shift)), values)
            }
            Tex::Load { multisample } => {
                let mut values = vec![(1, Ty::I, 0b1111)];
                if multisample {
                    values.push((3, Ty::I, 0b0001));
                }
                (2, None, values)
            }
            Tex::Resinfo => (2, None, vec![(1, Ty::I, 0b0001)]),
            Tex::SampleInfo | Tex::Bufinfo => (1, None, Vec::new()),
            Tex::SamplePos => (1, None, vec![(2, Ty::I, 0b0001)]),
            Tex::Lod => (2, Some(3), vec![(1, Ty::F, 0b1111)]),
            Tex::LoadRaw => (2, None, vec![(1, Ty::I, 0b0001)]),
            Tex::LoadStructured => (3, None, vec![(1, Ty::I, 0b0001), (2, Ty::I, 0b0001)]),
        };
        for (position, ty, used) in values {
            let source = self.source(index, instruction, operand(position)?, ty, used)?;
            op.sources.push(source);
        }
        // The resource operand.
        let resource_operand = operand(resource_at)?;
        let swizzle = match resource_operand.components {
            Components::Four(Selection::Swizzle(s)) => s,
            Components::Four(Selection::Select1(c)) => [c; 4],
            _ => [0, 1, 2, 3],
        };
        let resource = match resource_operand.register {
            RegisterType::Resource => {
                let slot = self.slot_of(index, instruction, resource_operand, RESOURCE_SLOTS, "t")?;
                let declaration = self
                    .resources
                    .iter()
                    .find(|r| r.slot == slot)
                    .ok_or_else(|| err(format!("t{slot} is not declared")))?;
                self.check_resource_use(index, instruction, tex, slot, declaration.kind)?;
                // The `_indexable` forms restate the resource's dimension in an extended opcode token; it must be
                // the declared one.
                if let (Some((stated, _)), ResourceKind::Typed { dimension, .. }) =
                    (instruction.resource_dimension(), declaration.kind)
                    && stated != dimension
                {
                    return Err(err(format!(
                        "{} states t{slot} is {stated:?}, but it is declared {dimension:?}",
                        opcode.name()
                    )));
                }
                Some(slot)
            }
            RegisterType::Rasterizer if matches!(tex, Tex::SampleInfo | Tex::SamplePos) => None,
            RegisterType::UnorderedAccessView | RegisterType::ThreadGroupSharedMemory => {
                return Err(err(format!(
                    "{} on {:?} is not supported in a vertex or pixel program",
                    opcode.name(),
                    resource_operand.register
                )));
            }
            other => {
                return Err(err(format!(
                    "{}'s resource operand is {other:?}, not t#",
                    opcode.name()
                )));
            }
        };
        let mut channel = 0;
        let sampler = match sampler_at {
            Some(at) => {
                let sampler_operand = operand(at)?;
                if sampler_operand.register != RegisterType::Sampler {
                    return Err(err(format!(
                        "{}'s sampler operand is {:?}, not s#",
                        opcode.name(),
                        sampler_operand.register
                    )));
                }
                let slot = self.slot_of(index, instruction, sampler_operand, SAMPLER_SLOTS, "s")?;
                if !self.samplers.iter().any(|s| s.slot == slot) {
                    return Err(err(format!("s{slot} is not declared")));
                }
                channel = match sampler_operand.components {
                    Components::Four(Selection::Select1(c)) => c,
                    Components::Four(Selection::Swizzle([c, ..])) => c,
                    _ => 0,
                };
                Some(slot)
            }
            None => None,
        };
        let offsets = instruction.texel_offsets().map(i32::from);
        op.texture = Some(TextureOperands {
            resource,
            swizzle,
            sampler,
            channel,
            offsets,
        });
        Ok(())
    }

    /// Checks that a texture instruction is used on a resource declaration it can read.
    fn check_resource_use(
        &self,
        index: usize,
        instruction: &Instruction,
        tex: Tex,
        slot: u32,
        kind: ResourceKind,
    ) -> Result<()> {
        use ResourceDimension as R;
        let opcode = instruction.opcode;
        let fine = match (tex, kind) {
            (Tex::LoadRaw, ResourceKind::Raw) => true,
            (Tex::LoadStructured, ResourceKind::Structured { .. }) => true,
            (Tex::Bufinfo, ResourceKind::Raw | ResourceKind::Structured { .. }) => true,
            (Tex::LoadRaw | Tex::LoadStructured, _) | (_, ResourceKind::Raw | ResourceKind::Structured { .. }) => false,
            (tex, ResourceKind::Typed { dimension, .. }) => match tex {
                Tex::Bufinfo => dimension == R::Buffer,
                Tex::Load { multisample: false } => {
                    !matches!(dimension, R::TextureCube | R::TextureCubeArray | R::Unknown)
                }
                Tex::Load { multisample: true } => matches!(dimension, R::Texture2DMs | R::Texture2DMsArray),
                Tex::SampleInfo | Tex::SamplePos => matches!(dimension, R::Texture2DMs | R::Texture2DMsArray),
                Tex::Resinfo => !matches!(dimension, R::Buffer | R::Unknown),
                Tex::Sample { .. } | Tex::Lod => {
                    !matches!(dimension, R::Buffer | R::Texture2DMs | R::Texture2DMsArray | R::Unknown)
                }
                Tex::Gather {
                    programmable_offset: false,
                    ..
                } => matches!(
                    dimension,
                    R::Texture2D | R::Texture2DArray | R::TextureCube | R::TextureCubeArray
                ),
                Tex::Gather {
                    programmable_offset: true,
                    ..
                } => matches!(dimension, R::Texture2D | R::Texture2DArray),
                Tex::LoadRaw | Tex::LoadStructured => false,
            },
        };
        if fine {
            Ok(())
        } else {
            Err(self.error(
                index,
                instruction,
                format!("{} cannot read t{slot}, declared {kind:?}", opcode.name()),
            ))
        }
    }

    // -- operands -------------------------------------------------------------------------------------------

    fn destination(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<Destination> {
        let err = |detail: String| self.error(index, instruction, detail);
        if operand.modifier != Modifier::None {
            return Err(err("a destination operand has a source modifier".into()));
        }
        let mask = match operand.components {
            Components::Zero => 0b1111,
            Components::One => 0b0001,
            Components::Four(Selection::Mask(mask)) => mask,
            Components::Four(Selection::Select1(c)) => 1u8.wrapping_shl(u32::from(c & 3)),
            Components::Four(Selection::Swizzle(_)) | Components::N => {
                return Err(err("a destination operand needs a write mask".into()));
            }
        };
        let pixel = self.stage == Stage::Pixel;
        let file = match operand.register {
            RegisterType::Null => DestinationFile::Null,
            RegisterType::Temp => DestinationFile::Temp(self.temp_row(index, instruction, operand)?),
            RegisterType::IndexableTemp => {
                let (array, index) = self.indexable(index, instruction, operand)?;
                DestinationFile::Indexable { array, index }
            }
            RegisterType::Output => {
                let register = self.io_index(index, instruction, operand, self.output_registers, "o")?;
                DestinationFile::Output(register)
            }
            RegisterType::OutputDepth | RegisterType::OutputDepthGreaterEqual | RegisterType::OutputDepthLessEqual
                if pixel && self.depth_output.is_some() =>
            {
                DestinationFile::Depth
            }
            RegisterType::OutputCoverageMask
                if pixel && self.outputs.iter().any(|o| o.register == OutputRegister::CoverageMask) =>
            {
                DestinationFile::CoverageMask
            }
            RegisterType::OutputStencilRef
                if pixel && self.outputs.iter().any(|o| o.register == OutputRegister::StencilRef) =>
            {
                DestinationFile::StencilRef
            }
            other => return Err(err(format!("{other:?} cannot be written here (declared?)"))),
        };
        Ok(Destination { file, mask })
    }

    fn temp_row(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<u32> {
        match operand.indices.as_slice() {
            [IrIndex::Immediate32(n)] if *n < self.temps => Ok(n.saturating_mul(4)),
            [IrIndex::Immediate32(n)] => Err(self.error(
                index,
                instruction,
                format!("r{n} is past the {} temporaries dcl_temps declares", self.temps),
            )),
            _ => Err(self.error(
                index,
                instruction,
                "r# takes one immediate index (7.3: temporaries are not indexable)",
            )),
        }
    }

    fn indexable(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<(u16, Index)> {
        let err = |detail: String| self.error(index, instruction, detail);
        let (number, element) = match operand.indices.as_slice() {
            [IrIndex::Immediate32(number), element] => (*number, element),
            _ => return Err(err("x# takes two indices, x#[n]".into())),
        };
        let position = self
            .arrays
            .iter()
            .position(|a| a.number == number)
            .ok_or_else(|| err(format!("x{number} is not declared")))?;
        let array = self.arrays.get(position).copied().ok_or_else(|| err("x#".into()))?;
        let element = self.index(index, instruction, element)?;
        if let Index::Imm(e) = element
            && e >= array.size
        {
            return Err(err(format!(
                "x{number}[{e}] is past the array's {} elements",
                array.size
            )));
        }
        let position = u16::try_from(position).map_err(|_| err("too many x# arrays".into()))?;
        Ok((position, element))
    }

    fn io_index(
        &self,
        index: usize,
        instruction: &Instruction,
        operand: &Operand,
        count: u32,
        prefix: &str,
    ) -> Result<Index> {
        let err = |detail: String| self.error(index, instruction, detail);
        let register = match operand.indices.as_slice() {
            [register] => self.index(index, instruction, register)?,
            _ => return Err(err(format!("{prefix}# takes one index"))),
        };
        if let Index::Imm(n) = register
            && n >= count
        {
            return Err(err(format!("{prefix}{n} is not declared ({count} registers are)")));
        }
        Ok(register)
    }

    fn index(&self, index: usize, instruction: &Instruction, ir: &IrIndex) -> Result<Index> {
        let err = |detail: String| self.error(index, instruction, detail);
        let narrow = |v: u64| u32::try_from(v).map_err(|_| err(format!("index {v} does not fit 32 bits")));
        Ok(match ir {
            IrIndex::Immediate32(n) => Index::Imm(*n),
            IrIndex::Immediate64(n) => Index::Imm(narrow(*n)?),
            IrIndex::Relative(operand) => Index::Rel {
                base: 0,
                by: self.scalar(index, instruction, operand)?,
            },
            IrIndex::Immediate32PlusRelative(base, operand) => Index::Rel {
                base: *base,
                by: self.scalar(index, instruction, operand)?,
            },
            IrIndex::Immediate64PlusRelative(base, operand) => Index::Rel {
                base: narrow(*base)?,
                by: self.scalar(index, instruction, operand)?,
            },
        })
    }

    /// A relative index's register: one component of an `r#`, a statically indexed `x#` or another directly
    /// addressed register (7.3: "only one level of index nesting").
    fn scalar(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<Scalar> {
        let err = |detail: String| self.error(index, instruction, detail);
        if operand.modifier != Modifier::None {
            return Err(err("a relative index has a modifier".into()));
        }
        let component = match operand.components {
            Components::Four(Selection::Select1(c)) => c & 3,
            Components::Four(Selection::Swizzle([a, b, c, d])) if a == b && b == c && c == d => a & 3,
            Components::One => 0,
            _ => return Err(err("a relative index must select one component (7.8.6)".into())),
        };
        let nested = || err("a relative index is itself relatively indexed (7.3 allows one level)".into());
        let immediate = |i: usize| match operand.indices.get(i) {
            Some(IrIndex::Immediate32(n)) => Ok(*n),
            _ => Err(nested()),
        };
        let file = match operand.register {
            RegisterType::Temp => ScalarFile::Temp(self.temp_row(index, instruction, operand)?),
            RegisterType::Input => {
                let n = immediate(0)?;
                if n >= self.input_registers {
                    return Err(err(format!("v{n} is not declared")));
                }
                ScalarFile::Input(n.saturating_mul(4))
            }
            RegisterType::IndexableTemp => {
                let number = immediate(0)?;
                let element = immediate(1)?;
                let array = self
                    .arrays
                    .iter()
                    .find(|a| a.number == number)
                    .ok_or_else(|| err(format!("x{number} is not declared")))?;
                ScalarFile::Indexable(
                    (element < array.size).then(|| array.row.saturating_add(element.saturating_mul(4))),
                )
            }
            RegisterType::ConstantBuffer => {
                let slot = immediate(0)?;
                self.check_constant_buffer(index, instruction, slot)?;
                ScalarFile::ConstantBuffer {
                    slot: u8::try_from(slot).unwrap_or(u8::MAX),
                    element: immediate(1)?,
                }
            }
            RegisterType::ImmediateConstantBuffer => {
                if self.icb.is_none() {
                    return Err(err("icb is read but not declared".into()));
                }
                ScalarFile::ImmediateConstantBuffer(immediate(0)?)
            }
            RegisterType::Immediate32 => ScalarFile::Literal(match operand.immediate {
                Some(Immediate::Scalar32(v)) => v,
                Some(Immediate::Vector32(v)) => v.get(usize::from(component)).copied().unwrap_or(0),
                _ => 0,
            }),
            RegisterType::InputPrimitiveId if self.has_input(InputRegister::PrimitiveId) => ScalarFile::PrimitiveId,
            RegisterType::InputCoverageMask if self.has_input(InputRegister::Coverage) => ScalarFile::Coverage,
            RegisterType::InnerCoverage if self.has_input(InputRegister::InnerCoverage) => ScalarFile::InnerCoverage,
            other => return Err(err(format!("{other:?} cannot be a relative index"))),
        };
        Ok(Scalar { file, component })
    }

    fn has_input(&self, register: InputRegister) -> bool {
        self.inputs.iter().any(|i| i.register == register)
    }

    fn check_constant_buffer(&self, index: usize, instruction: &Instruction, slot: u32) -> Result<()> {
        if self.constant_buffers.iter().any(|c| c.slot == slot) {
            Ok(())
        } else {
            Err(self.error(index, instruction, format!("cb{slot} is read but not declared")))
        }
    }

    fn source(&self, index: usize, instruction: &Instruction, operand: &Operand, ty: Ty, used: u8) -> Result<Source> {
        let err = |detail: String| self.error(index, instruction, detail);
        let swizzle = match operand.components {
            Components::Four(Selection::Swizzle(s)) => s.map(|c| c & 3),
            Components::Four(Selection::Select1(c)) => [c & 3; 4],
            Components::Four(Selection::Mask(_)) => [0, 1, 2, 3],
            Components::One => [0; 4],
            Components::Zero | Components::N => {
                return Err(err(format!(
                    "the {:?} operand has no components to read",
                    operand.register
                )));
            }
        };
        let modifier = match (ty, operand.modifier) {
            (_, Modifier::None) => SourceModifier::None,
            (Ty::F, Modifier::Neg) => SourceModifier::Neg,
            (Ty::F, Modifier::Abs) => SourceModifier::Abs,
            (Ty::F, Modifier::AbsNeg) => SourceModifier::AbsNeg,
            (Ty::D, Modifier::Neg) => SourceModifier::DoubleNeg,
            (Ty::D, Modifier::Abs) => SourceModifier::DoubleAbs,
            (Ty::D, Modifier::AbsNeg) => SourceModifier::DoubleAbsNeg,
            (Ty::I, Modifier::Neg) => SourceModifier::IntNeg,
            (Ty::I, Modifier::Abs | Modifier::AbsNeg) => {
                return Err(err(format!(
                    "_abs on an integer operand of {} (22.18.1 defines it for floats only)",
                    instruction.opcode.name()
                )));
            }
        };
        let file = match operand.register {
            RegisterType::Immediate32 | RegisterType::Immediate64 => {
                let raw = match operand.immediate {
                    Some(Immediate::Scalar32(v)) => [v; 4],
                    Some(Immediate::Vector32(v)) => v,
                    Some(Immediate::Scalar64(v)) => {
                        let (low, high) = (v as u32, (v >> 32) as u32);
                        [low, high, low, high]
                    }
                    Some(Immediate::Vector64([a, b])) => [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32],
                    None => return Err(err("a literal operand has no value".into())),
                };
                let swizzled = swizzle.map(|c| raw.get(usize::from(c)).copied().unwrap_or(0));
                return Ok(Source {
                    file: SourceFile::Literal(apply_modifier(modifier, swizzled)),
                    swizzle: [0, 1, 2, 3],
                    modifier: SourceModifier::None,
                    used,
                });
            }
            RegisterType::Temp => SourceFile::Temp(self.temp_row(index, instruction, operand)?),
            RegisterType::Input => {
                SourceFile::Input(self.io_index(index, instruction, operand, self.input_registers, "v")?)
            }
            RegisterType::IndexableTemp => {
                let (array, index) = self.indexable(index, instruction, operand)?;
                SourceFile::Indexable { array, index }
            }
            RegisterType::ConstantBuffer => {
                let (slot, element) = match operand.indices.as_slice() {
                    [IrIndex::Immediate32(slot), element] => (*slot, element),
                    _ => return Err(err("cb# takes two indices, cb#[n]".into())),
                };
                self.check_constant_buffer(index, instruction, slot)?;
                SourceFile::ConstantBuffer {
                    slot: u8::try_from(slot).unwrap_or(u8::MAX),
                    index: self.index(index, instruction, element)?,
                }
            }
            RegisterType::ImmediateConstantBuffer => {
                if self.icb.is_none() {
                    return Err(err("icb is read but not declared".into()));
                }
                match operand.indices.as_slice() {
                    [element] => SourceFile::ImmediateConstantBuffer(self.index(index, instruction, element)?),
                    _ => return Err(err("icb takes one index".into())),
                }
            }
            RegisterType::InputPrimitiveId if self.has_input(InputRegister::PrimitiveId) => SourceFile::PrimitiveId,
            RegisterType::InputCoverageMask if self.has_input(InputRegister::Coverage) => SourceFile::Coverage,
            RegisterType::InnerCoverage if self.has_input(InputRegister::InnerCoverage) => SourceFile::InnerCoverage,
            other => return Err(err(format!("{other:?} cannot be read here (declared?)"))),
        };
        Ok(Source {
            file,
            swizzle,
            modifier,
            used,
        })
    }

    // -- control flow ---------------------------------------------------------------------------------------

    /// Matches `if`/`else`/`endif`, `loop`/`endloop`, `switch`/`case`/`default`/`endswitch`, resolves `call`
    /// targets, marks function-ending `ret`s, and checks the subroutine layout of 22.7.15-16. Returns each switch's
    /// case values.
    fn match_flow(&self, ops: &mut [Op]) -> Result<Vec<Vec<u32>>> {
        #[derive(Clone, Copy)]
        enum Open {
            If { at: usize, else_at: Option<usize> },
            Loop { at: usize },
            Switch { at: usize, cases: usize, default: bool },
        }
        let op_err = |op: &Op, detail: String| {
            Error::new(self.name.clone(), detail).at(place(op.instruction, op.offset, op.opcode))
        };
        let mut stack: Vec<Open> = Vec::new();
        let mut switches: Vec<Vec<u32>> = Vec::new();
        let mut labels: Vec<(u32, usize)> = Vec::new();
        let count = ops.len();
        for at in 0..count {
            let Some(op) = ops.get(at) else { break };
            let opcode = op.opcode;
            let flow = op.flow;
            let to_u32 = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
            match opcode {
                Opcode::If => stack.push(Open::If { at, else_at: None }),
                Opcode::Else => match stack.last_mut() {
                    Some(Open::If {
                        else_at: else_at @ None,
                        ..
                    }) => *else_at = Some(at),
                    _ => return Err(op_err(op, "else without an open if".into())),
                },
                Opcode::Endif => match stack.pop() {
                    Some(Open::If { at: if_at, else_at }) => {
                        let endif_op = to_u32(at);
                        if let Some(o) = ops.get_mut(if_at) {
                            o.flow = Flow::If {
                                else_op: to_u32(else_at.unwrap_or(at)),
                                endif_op,
                            };
                        }
                        if let Some(o) = else_at.and_then(|e| ops.get_mut(e)) {
                            o.flow = Flow::Else { endif_op };
                        }
                    }
                    _ => return Err(op_err(op, "endif without an open if".into())),
                },
                Opcode::Loop => stack.push(Open::Loop { at }),
                Opcode::Endloop => match stack.pop() {
                    Some(Open::Loop { at: loop_at }) => {
                        if let Some(o) = ops.get_mut(loop_at) {
                            o.flow = Flow::Loop { endloop_op: to_u32(at) };
                        }
                        if let Some(o) = ops.get_mut(at) {
                            o.flow = Flow::EndLoop {
                                loop_op: to_u32(loop_at),
                            };
                        }
                    }
                    _ => return Err(op_err(op, "endloop without an open loop".into())),
                },
                Opcode::Switch => {
                    stack.push(Open::Switch {
                        at,
                        cases: switches.len(),
                        default: false,
                    });
                    switches.push(Vec::new());
                }
                Opcode::Case | Opcode::Default => match stack.last_mut() {
                    Some(Open::Switch { cases, default, .. }) => {
                        if opcode == Opcode::Default {
                            if *default {
                                return Err(op_err(op, "a second default in one switch (22.7.13)".into()));
                            }
                            *default = true;
                        } else if let Flow::Case(value) = flow {
                            let list = switches.get_mut(*cases).ok_or_else(|| op_err(op, "switch".into()))?;
                            if list.contains(&value) {
                                return Err(op_err(op, format!("case {value} appears twice in one switch")));
                            }
                            list.push(value);
                        }
                    }
                    _ => {
                        return Err(op_err(
                            op,
                            format!(
                                "{} outside a switch, or nested in flow control inside one (not supported)",
                                opcode.name()
                            ),
                        ));
                    }
                },
                Opcode::Endswitch => match stack.pop() {
                    Some(Open::Switch {
                        at: switch_at, cases, ..
                    }) => {
                        if let Some(o) = ops.get_mut(switch_at) {
                            o.flow = Flow::Switch {
                                endswitch_op: to_u32(at),
                                cases: to_u32(cases),
                            };
                        }
                    }
                    _ => return Err(op_err(op, "endswitch without an open switch".into())),
                },
                Opcode::Break | Opcode::Breakc
                    if !stack
                        .iter()
                        .any(|o| matches!(o, Open::Loop { .. } | Open::Switch { .. })) =>
                {
                    return Err(op_err(
                        op,
                        format!("{} outside a loop or switch (22.7.8)", opcode.name()),
                    ));
                }
                Opcode::Continue | Opcode::Continuec if !stack.iter().any(|o| matches!(o, Open::Loop { .. })) => {
                    return Err(op_err(op, format!("{} outside a loop (22.7.6)", opcode.name())));
                }
                Opcode::Ret => {
                    let function_end = stack.is_empty();
                    if let Some(o) = ops.get_mut(at) {
                        o.flow = Flow::Ret { function_end };
                    }
                }
                Opcode::Retc => {
                    if let Some(o) = ops.get_mut(at) {
                        o.flow = Flow::Ret { function_end: false };
                    }
                }
                Opcode::Label => {
                    if let Some(open) = stack.last() {
                        let opened = match open {
                            Open::If { at, .. } | Open::Loop { at } | Open::Switch { at, .. } => *at,
                        };
                        let opened = ops
                            .get(opened)
                            .map(|o| place(o.instruction, o.offset, o.opcode))
                            .unwrap_or_default();
                        return Err(op_err(op, format!("a label while {opened} is still open")));
                    }
                    let preceded_by_ret = at
                        .checked_sub(1)
                        .and_then(|p| ops.get(p))
                        .is_some_and(|p| p.flow == Flow::Ret { function_end: true });
                    if !preceded_by_ret {
                        return Err(op_err(
                            op,
                            "a label must follow a ret outside flow control (22.7.15)".into(),
                        ));
                    }
                    if let Flow::Label(number) = flow {
                        if labels.iter().any(|(n, _)| *n == number) {
                            return Err(op_err(op, format!("l{number} is defined twice")));
                        }
                        labels.push((number, at));
                    }
                }
                _ => {}
            }
        }
        if let Some(open) = stack.last() {
            let (at, what) = match open {
                Open::If { at, .. } => (*at, "endif"),
                Open::Loop { at } => (*at, "endloop"),
                Open::Switch { at, .. } => (*at, "endswitch"),
            };
            let op = ops.get(at).ok_or_else(|| Error::new(self.name.clone(), "flow"))?;
            return Err(op_err(op, format!("{} has no matching {what}", op.opcode.name())));
        }
        if !labels.is_empty() {
            let last_is_ret = ops.last().is_some_and(|o| o.flow == Flow::Ret { function_end: true });
            if !last_is_ret {
                let last = ops.last().ok_or_else(|| Error::new(self.name.clone(), "flow"))?;
                return Err(op_err(
                    last,
                    "a program with subroutines must end with a ret (22.7.16)".into(),
                ));
            }
        }
        for op in ops.iter_mut() {
            match op.opcode {
                Opcode::Call | Opcode::Callc => {
                    let Flow::Label(number) = op.flow else { continue };
                    let target = labels
                        .iter()
                        .find(|(n, _)| *n == number)
                        .map(|(_, at)| at.saturating_add(1))
                        .ok_or_else(|| op_err(op, format!("l{number} is not defined")))?;
                    op.flow = Flow::Call {
                        target: u32::try_from(target).unwrap_or(u32::MAX),
                    };
                }
                Opcode::Label => op.flow = Flow::None,
                _ => {}
            }
        }
        Ok(switches)
    }
}

/// A source modifier applied to four post-swizzle words (for literals, at build time; the run loop applies the same
/// rules to registers).
pub(crate) fn apply_modifier(modifier: SourceModifier, value: [u32; 4]) -> [u32; 4] {
    use super::alu;
    let [x, y, z, w] = value;
    match modifier {
        SourceModifier::None => value,
        SourceModifier::Neg => value.map(alu::neg),
        SourceModifier::Abs => value.map(alu::abs),
        SourceModifier::AbsNeg => value.map(|v| alu::neg(alu::abs(v))),
        SourceModifier::IntNeg => value.map(alu::ineg),
        SourceModifier::DoubleNeg => [x, alu::neg(y), z, alu::neg(w)],
        SourceModifier::DoubleAbs => [x, alu::abs(y), z, alu::abs(w)],
        SourceModifier::DoubleAbsNeg => [x, alu::neg(alu::abs(y)), z, alu::neg(alu::abs(w))],
    }
}

/// A write mask as text (`.xyw`).
fn mask_name(mask: u8) -> String {
    let mut name = String::from(".");
    for (bit, letter) in [(1u8, 'x'), (2, 'y'), (4, 'z'), (8, 'w')] {
        if mask & bit != 0 {
            name.push(letter);
        }
    }
    name
}
