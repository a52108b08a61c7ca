//! The executable's IR (crate-internal: the run loop's view of a program): operands resolved to register rows,
//! swizzles and modifiers, flow control with its jump targets, and the [`Executable`] that holds them.

use super::declarations::{
    ConstantBufferDeclaration, DepthOutput, GeometryDeclaration, HullPhase, InputDeclaration, OutputDeclaration,
    OutputRegister, PatchInputs, ResourceDeclaration, SamplerDeclaration, SharedMemoryDeclaration, Stage,
    TessellationDeclaration, UavDeclaration, VertexBlock,
};
use crate::dxbc::program::{InstructionReturnType, Opcode, ResinfoReturnType};

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
    /// `vGSInstanceID`.
    GsInstanceId,
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
    /// A geometry program's `v[vertex][register]`, a hull or domain program's control points (`v[][]` of a control
    /// point phase, `vicp[][]`, `vocp[][]`).
    VertexInput {
        /// Where the vertices' registers are in the input file.
        block: VertexBlock,
        /// The vertex (control point).
        vertex: Index,
        /// The register.
        register: u32,
    },
    /// `vpc#`: a patch constant (in the input file from [`PatchInputs::patch_constants`]).
    PatchConstant(Index),
    /// `vGSInstanceID`.
    GsInstanceId,
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

/// The memory a UAV or shared-memory instruction reads or writes (22.4.8-13, 22.17.8-28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemoryTarget {
    /// `u#`: the slot.
    Uav(u32),
    /// `g#`: its declaration's position in [`Executable::shared`].
    Shared(u32),
}

/// What a UAV or shared-memory instruction needs besides its value operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemoryOperands {
    /// The memory.
    pub target: MemoryTarget,
    /// For loads, the memory operand's swizzle: result component `c` is the loaded word `swizzle[c]`.
    pub swizzle: [u8; 4],
    /// For stores, the memory operand's write mask (`.x`, `.xy`, `.xyz` or `.xyzw`).
    pub mask: u8,
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
    /// For UAV and shared-memory instructions.
    pub memory: Option<MemoryOperands>,
    /// `sync`'s flags (`SyncFlags`).
    pub sync: u32,
    /// The stream of `emit_stream`, `cut_stream`, `emitThenCut_stream` (0 for the forms without one).
    pub stream: u8,
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
    pub(crate) uavs: Vec<UavDeclaration>,
    pub(crate) shared: Vec<SharedMemoryDeclaration>,
    pub(crate) thread_group: Option<[u32; 3]>,
    pub(crate) geometry: Option<GeometryDeclaration>,
    pub(crate) tessellation: Option<TessellationDeclaration>,
    pub(crate) hull_phase: Option<HullPhase>,
    pub(crate) instances: u32,
    pub(crate) patch: PatchInputs,
    pub(crate) patch_phases: Vec<Executable>,
    pub(crate) pass_through: bool,
}

impl Executable {
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

    /// Its unordered access view declarations.
    pub fn uavs(&self) -> &[UavDeclaration] {
        &self.uavs
    }

    /// Its thread group shared memory declarations.
    pub fn shared_memory(&self) -> &[SharedMemoryDeclaration] {
        &self.shared
    }

    /// The 32-bit words of shared memory one thread group needs (every `g#` together).
    pub fn shared_words(&self) -> u32 {
        self.shared.iter().map(|g| g.words).fold(0, u32::saturating_add)
    }

    /// What a geometry program declares about its primitives.
    pub fn geometry(&self) -> Option<GeometryDeclaration> {
        self.geometry
    }

    /// What a hull or domain program declares about its patches and the tessellator.
    pub fn tessellation(&self) -> Option<TessellationDeclaration> {
        self.tessellation
    }

    /// Which phase of a hull program this is.
    pub fn hull_phase(&self) -> Option<HullPhase> {
        self.hull_phase
    }

    /// How many times a fork or join phase runs per patch (`dcl_hs_*_phase_instance_count`; 1 otherwise).
    pub fn phase_instances(&self) -> u32 {
        self.instances
    }

    /// A hull program's fork and join phases in program order (on its control point phase, which
    /// [`Executable::new`] returns).
    pub fn patch_phases(&self) -> &[Executable] {
        &self.patch_phases
    }

    /// Whether a hull program has no control point phase: its input control points are its output control points
    /// (10.4).
    pub fn passes_control_points_through(&self) -> bool {
        self.pass_through
    }

    /// Where a hull phase's or domain program's inputs sit in the batch's input file (fill them with
    /// [`crate::shader::Machine::input_mut`]).
    pub fn patch_inputs(&self) -> PatchInputs {
        self.patch
    }

    /// A compute program's thread group size (`dcl_thread_group`).
    pub fn thread_group(&self) -> Option<[u32; 3]> {
        self.thread_group
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
pub(super) fn place(instruction: u32, offset: u32, opcode: Opcode) -> String {
    format!("instruction {instruction} (token {offset:#x}, {})", opcode.name())
}

/// A source modifier applied to four post-swizzle words (for literals, at build time; the run loop applies the same
/// rules to registers).
pub(crate) fn apply_modifier(modifier: SourceModifier, value: [u32; 4]) -> [u32; 4] {
    use crate::shader::alu;
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
