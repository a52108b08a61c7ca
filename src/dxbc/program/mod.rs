//! The SM4/SM5 program inside a DXBC `SHDR`/`SHEX` chunk: a typed representation of its tokens, the decoder that
//! builds it and the encoder that writes it back.
//!
//! The token layout is the one `d3d12tokenizedprogramformat.hpp` defines (cited below as "the header"):
//! - A version token (program type in `[31:16]`, major version in `[7:4]`, minor in `[3:0]`, as the header's
//!   `DECODE_D3D10_SB_TOKENIZED_PROGRAM_*_VERSION` macros read it), then a length token counting every DWORD of the
//!   program including those two.
//! - Then instructions, each an opcode token (`[10:00]` opcode, `[23:11]` opcode-specific controls, `[30:24]` length in
//!   DWORDs including the opcode token, `[31]` "an extended opcode token follows"), its extended opcode tokens, then
//!   its operands. Declarations (`dcl_*`) are instructions whose operands follow a layout of their own.
//! - A custom-data block (`D3D10_SB_OPCODE_CUSTOMDATA`) instead holds its class in `[31:11]` and its length in the
//!   next DWORD; the immediate constant buffer is one.
//! - An operand token (`[1:0]` component count, `[11:2]` component selection, `[19:12]` register type, `[21:20]` index
//!   dimension, three 3-bit index representations from bit 22, `[31]` "an extended operand token follows"), its
//!   extended operand tokens (modifier, minimum precision, non-uniform), its indices (immediate DWORDs and nested
//!   relative-address operands), and for immediate registers its literal values.
//!
//! What the header leaves open, and what this module does there:
//! - The index representation field is 3 bits wide (`[24:22]`, `[27:25]`, `[30:28]` in the operand layout comment),
//!   although the header's `D3D10_SB_OPERAND_INDEX_REPRESENTATION_MASK` macro masks 2: the value 4
//!   (`IMMEDIATE64_PLUS_RELATIVE`) needs the third bit, so 3 bits are read.
//! - A 64-bit index is written high DWORD first (the header: "2 Extra DWORDs (HI32:LO32)"). A 64-bit literal
//!   (`D3D10_SB_OPERAND_TYPE_IMMEDIATE64`) is read low DWORD first, as compilers write doubles and as vkd3d reads them
//!   (a `memcpy` into a little-endian double); a 4-component 64-bit literal holds two values in four DWORDs.
//! - `dcl_gs_output_primitive_topology` says `[17:11]` in its comment but masks `[16:11]`; the mask is followed.
//! - `dcl_input_ps_sgv` says `[23:11]` are ignored, but compilers write an interpolation mode there (`constant`), so
//!   it is read as for `dcl_input_ps_siv`.
//! - `interface_call` and the function body/table/interface declarations use bit 31 for "the next DWORD is the real
//!   length"; every other opcode uses it for extended opcode tokens, declarations included.
//!
//! Encoding a decoded program gives back its tokens exactly. To that end the representation keeps, beside its typed
//! fields, what the tokens hold that those cannot express: bits the header calls ignored or reserved that were set,
//! extended operand tokens that carry nothing, and DWORDs a declaration has past its fields. Those live in the
//! `raw`/`ignored_bits`/`extended` fields named so; code building a program can leave them empty.

mod decode;
mod encode;
mod opcode;

pub use decode::{decode, decode_bytes};
pub use encode::encode;
pub use opcode::Opcode;

/// The deepest chain of relative addresses accepted (an operand indexed by an operand indexed by ...). Compilers
/// write one level (`x0[r1.x]`, `cb0[r0.y + 3]`); the bound keeps hostile input from recursing without end.
pub const MAX_RELATIVE_DEPTH: u32 = 4;

/// Where the operand token holds the representation of index `axis` (0, 1, 2): bits 22, 25, 28
/// (`D3D10_SB_OPERAND_INDEX_REPRESENTATION_SHIFT`); 31 (past every field) for anything else.
fn index_representation_shift(axis: u32) -> u32 {
    match axis {
        0 => 22,
        1 => 25,
        2 => 28,
        _ => 31,
    }
}

/// Defines a field enum whose discriminants are the header's values, with conversions to and from them.
macro_rules! token_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $value:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant = $value,)*
        }

        impl $name {
            /// The value the header numbers `raw`, or `None` where it numbers none.
            pub fn from_raw(raw: u32) -> Option<Self> {
                match raw {
                    $($value => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// The header's number for this value.
            pub fn raw(self) -> u32 {
                self as u32
            }
        }
    };
}

token_enum! {
    /// The kind of program, from the version token's `[31:16]` (`D3D10_SB_TOKENIZED_PROGRAM_TYPE`).
    ProgramKind {
        /// A pixel shader (`ps_*`).
        Pixel = 0,
        /// A vertex shader (`vs_*`).
        Vertex = 1,
        /// A geometry shader (`gs_*`).
        Geometry = 2,
        /// A hull shader (`hs_5_0`), made of phases (`hs_decls`, `hs_control_point_phase`, `hs_fork_phase`,
        /// `hs_join_phase`).
        Hull = 3,
        /// A domain shader (`ds_5_0`).
        Domain = 4,
        /// A compute shader (`cs_*`).
        Compute = 5,
    }
}

token_enum! {
    /// A register file an operand names (`D3D10_SB_OPERAND_TYPE`, the operand token's `[19:12]`).
    RegisterType {
        /// `r#`: temporary registers.
        Temp = 0,
        /// `v#`: inputs.
        Input = 1,
        /// `o#`: outputs.
        Output = 2,
        /// `x#[]`: indexable temporaries.
        IndexableTemp = 3,
        /// `l(...)`: 32-bit literal values, 1 or 4 DWORDs after the operand.
        Immediate32 = 4,
        /// `d(...)`: 64-bit literal values.
        Immediate64 = 5,
        /// `s#`: samplers.
        Sampler = 6,
        /// `t#`: shader resources.
        Resource = 7,
        /// `cb#[]`: constant buffers.
        ConstantBuffer = 8,
        /// `icb[]`: the immediate constant buffer.
        ImmediateConstantBuffer = 9,
        /// `l#`: a label (subroutine).
        Label = 10,
        /// `vPrim`: the input primitive ID.
        InputPrimitiveId = 11,
        /// `oDepth`.
        OutputDepth = 12,
        /// `null`: a destination whose result is discarded.
        Null = 13,
        /// `rasterizer` (D3D10.1).
        Rasterizer = 14,
        /// `oMask`: the pixel shader's output coverage mask.
        OutputCoverageMask = 15,
        /// `m#`: a geometry shader output stream.
        Stream = 16,
        /// `fb#`: a function body.
        FunctionBody = 17,
        /// `ft#`: a function table.
        FunctionTable = 18,
        /// `fp#`: an interface.
        Interface = 19,
        /// A function's input parameter.
        FunctionInput = 20,
        /// A function's output parameter.
        FunctionOutput = 21,
        /// `vOutputControlPointID` (hull shader control point phase).
        OutputControlPointId = 22,
        /// `vForkInstanceID`.
        InputForkInstanceId = 23,
        /// `vJoinInstanceID`.
        InputJoinInstanceId = 24,
        /// `vicp[][]`: input control points (hull fork/join phases, domain shader).
        InputControlPoint = 25,
        /// `vocp[][]`: output control points (hull fork/join phases).
        OutputControlPoint = 26,
        /// `vpc[]`: patch constants (domain shader, hull join phase).
        InputPatchConstant = 27,
        /// `vDomain`: the domain point.
        InputDomainPoint = 28,
        /// `this[]`: an interface's this pointer.
        ThisPointer = 29,
        /// `u#`: unordered access views.
        UnorderedAccessView = 30,
        /// `g#`: thread group shared memory.
        ThreadGroupSharedMemory = 31,
        /// `vThreadID`.
        InputThreadId = 32,
        /// `vThreadGroupID`.
        InputThreadGroupId = 33,
        /// `vThreadIDInGroup`.
        InputThreadIdInGroup = 34,
        /// `vCoverage`: the pixel shader's input coverage mask.
        InputCoverageMask = 35,
        /// `vThreadIDInGroupFlattened`.
        InputThreadIdInGroupFlattened = 36,
        /// `vGSInstanceID`.
        InputGsInstanceId = 37,
        /// `oDepthGE`.
        OutputDepthGreaterEqual = 38,
        /// `oDepthLE`.
        OutputDepthLessEqual = 39,
        /// `vCycleCounter`.
        CycleCounter = 40,
        /// `oStencilRef`.
        OutputStencilRef = 41,
        /// `vInnerCoverage`.
        InnerCoverage = 42,
    }
}

token_enum! {
    /// A source modifier (`D3D10_SB_OPERAND_MODIFIER`, an extended operand token's `[13:6]`).
    Modifier {
        /// None.
        None = 0,
        /// `-x`.
        Neg = 1,
        /// `|x|`.
        Abs = 2,
        /// `-|x|`.
        AbsNeg = 3,
    }
}

token_enum! {
    /// The minimum precision an operand may be computed at (`D3D11_SB_OPERAND_MIN_PRECISION`, `[16:14]`).
    MinPrecision {
        /// The shader model's default (32-bit).
        Default = 0,
        /// At least 16-bit float.
        Float16 = 1,
        /// At least 10-bit (2.8 fixed point) float.
        Float2_8 = 2,
        /// At least 16-bit signed integer.
        Sint16 = 4,
        /// At least 16-bit unsigned integer.
        Uint16 = 5,
    }
}

token_enum! {
    /// A resource's shape (`D3D10_SB_RESOURCE_DIMENSION`).
    ResourceDimension {
        /// Unknown.
        Unknown = 0,
        /// A typed buffer.
        Buffer = 1,
        /// `Texture1D`.
        Texture1D = 2,
        /// `Texture2D`.
        Texture2D = 3,
        /// `Texture2DMS`.
        Texture2DMs = 4,
        /// `Texture3D`.
        Texture3D = 5,
        /// `TextureCube`.
        TextureCube = 6,
        /// `Texture1DArray`.
        Texture1DArray = 7,
        /// `Texture2DArray`.
        Texture2DArray = 8,
        /// `Texture2DMSArray`.
        Texture2DMsArray = 9,
        /// `TextureCubeArray`.
        TextureCubeArray = 10,
        /// A raw (byte address) buffer.
        RawBuffer = 11,
        /// A structured buffer.
        StructuredBuffer = 12,
    }
}

token_enum! {
    /// How a resource's texels read into a component (`D3D10_SB_RESOURCE_RETURN_TYPE`).
    ReturnType {
        /// UNORM.
        Unorm = 1,
        /// SNORM.
        Snorm = 2,
        /// Signed integer.
        Sint = 3,
        /// Unsigned integer.
        Uint = 4,
        /// Float.
        Float = 5,
        /// Mixed (raw/structured data).
        Mixed = 6,
        /// Double (this component and the next hold one double).
        Double = 7,
        /// Continued: the second half of the double before it.
        Continued = 8,
        /// Unused.
        Unused = 9,
    }
}

token_enum! {
    /// A sampler declaration's mode (`D3D10_SB_SAMPLER_MODE`).
    SamplerMode {
        /// An ordinary sampler.
        Default = 0,
        /// A comparison sampler.
        Comparison = 1,
        /// A monochrome (1-bit) sampler.
        Mono = 2,
    }
}

token_enum! {
    /// How a pixel shader input is interpolated (`D3D10_SB_INTERPOLATION_MODE`).
    InterpolationMode {
        /// Not given.
        Undefined = 0,
        /// `constant`: the provoking vertex's value.
        Constant = 1,
        /// `linear`: perspective-correct at the pixel centre.
        Linear = 2,
        /// `linear centroid`.
        LinearCentroid = 3,
        /// `linear noperspective`.
        LinearNoPerspective = 4,
        /// `linear noperspective centroid`.
        LinearNoPerspectiveCentroid = 5,
        /// `linear sample`.
        LinearSample = 6,
        /// `linear noperspective sample`.
        LinearNoPerspectiveSample = 7,
    }
}

token_enum! {
    /// A geometry shader's output topology (`D3D10_SB_PRIMITIVE_TOPOLOGY`).
    PrimitiveTopology {
        /// Undefined.
        Undefined = 0,
        /// Point list.
        PointList = 1,
        /// Line list.
        LineList = 2,
        /// Line strip.
        LineStrip = 3,
        /// Triangle list.
        TriangleList = 4,
        /// Triangle strip.
        TriangleStrip = 5,
        /// Line list with adjacency.
        LineListAdj = 10,
        /// Line strip with adjacency.
        LineStripAdj = 11,
        /// Triangle list with adjacency.
        TriangleListAdj = 12,
        /// Triangle strip with adjacency.
        TriangleStripAdj = 13,
    }
}

token_enum! {
    /// A geometry shader's input primitive (`D3D10_SB_PRIMITIVE`).
    Primitive {
        /// Undefined.
        Undefined = 0,
        /// A point.
        Point = 1,
        /// A line.
        Line = 2,
        /// A triangle.
        Triangle = 3,
        /// A line with adjacency.
        LineAdj = 6,
        /// A triangle with adjacency.
        TriangleAdj = 7,
        /// A 1-control-point patch.
        Patch1 = 8,
        /// A 2-control-point patch.
        Patch2 = 9,
        /// A 3-control-point patch.
        Patch3 = 10,
        /// A 4-control-point patch.
        Patch4 = 11,
        /// A 5-control-point patch.
        Patch5 = 12,
        /// A 6-control-point patch.
        Patch6 = 13,
        /// A 7-control-point patch.
        Patch7 = 14,
        /// An 8-control-point patch.
        Patch8 = 15,
        /// A 9-control-point patch.
        Patch9 = 16,
        /// A 10-control-point patch.
        Patch10 = 17,
        /// An 11-control-point patch.
        Patch11 = 18,
        /// A 12-control-point patch.
        Patch12 = 19,
        /// A 13-control-point patch.
        Patch13 = 20,
        /// A 14-control-point patch.
        Patch14 = 21,
        /// A 15-control-point patch.
        Patch15 = 22,
        /// A 16-control-point patch.
        Patch16 = 23,
        /// A 17-control-point patch.
        Patch17 = 24,
        /// An 18-control-point patch.
        Patch18 = 25,
        /// A 19-control-point patch.
        Patch19 = 26,
        /// A 20-control-point patch.
        Patch20 = 27,
        /// A 21-control-point patch.
        Patch21 = 28,
        /// A 22-control-point patch.
        Patch22 = 29,
        /// A 23-control-point patch.
        Patch23 = 30,
        /// A 24-control-point patch.
        Patch24 = 31,
        /// A 25-control-point patch.
        Patch25 = 32,
        /// A 26-control-point patch.
        Patch26 = 33,
        /// A 27-control-point patch.
        Patch27 = 34,
        /// A 28-control-point patch.
        Patch28 = 35,
        /// A 29-control-point patch.
        Patch29 = 36,
        /// A 30-control-point patch.
        Patch30 = 37,
        /// A 31-control-point patch.
        Patch31 = 38,
        /// A 32-control-point patch.
        Patch32 = 39,
    }
}

token_enum! {
    /// A system-value name in a declaration's name token (`D3D10_SB_NAME`).
    SystemName {
        /// No system value.
        Undefined = 0,
        /// `SV_Position`.
        Position = 1,
        /// `SV_ClipDistance`.
        ClipDistance = 2,
        /// `SV_CullDistance`.
        CullDistance = 3,
        /// `SV_RenderTargetArrayIndex`.
        RenderTargetArrayIndex = 4,
        /// `SV_ViewportArrayIndex`.
        ViewportArrayIndex = 5,
        /// `SV_VertexID`.
        VertexId = 6,
        /// `SV_PrimitiveID`.
        PrimitiveId = 7,
        /// `SV_InstanceID`.
        InstanceId = 8,
        /// `SV_IsFrontFace`.
        IsFrontFace = 9,
        /// `SV_SampleIndex`.
        SampleIndex = 10,
        /// Final quad edge tess factor, u == 0 edge.
        FinalQuadUEq0EdgeTessFactor = 11,
        /// Final quad edge tess factor, v == 0 edge.
        FinalQuadVEq0EdgeTessFactor = 12,
        /// Final quad edge tess factor, u == 1 edge.
        FinalQuadUEq1EdgeTessFactor = 13,
        /// Final quad edge tess factor, v == 1 edge.
        FinalQuadVEq1EdgeTessFactor = 14,
        /// Final quad inside tess factor, u.
        FinalQuadUInsideTessFactor = 15,
        /// Final quad inside tess factor, v.
        FinalQuadVInsideTessFactor = 16,
        /// Final triangle edge tess factor, u == 0 edge.
        FinalTriUEq0EdgeTessFactor = 17,
        /// Final triangle edge tess factor, v == 0 edge.
        FinalTriVEq0EdgeTessFactor = 18,
        /// Final triangle edge tess factor, w == 0 edge.
        FinalTriWEq0EdgeTessFactor = 19,
        /// Final triangle inside tess factor.
        FinalTriInsideTessFactor = 20,
        /// Final line detail tess factor.
        FinalLineDetailTessFactor = 21,
        /// Final line density tess factor.
        FinalLineDensityTessFactor = 22,
        /// `SV_Barycentrics` (D3D12).
        Barycentrics = 23,
        /// `SV_ShadingRate` (D3D12).
        ShadingRate = 24,
        /// `SV_CullPrimitive` (D3D12).
        CullPrimitive = 25,
    }
}

token_enum! {
    /// The tessellator's domain (`D3D11_SB_TESSELLATOR_DOMAIN`).
    TessDomain {
        /// Undefined.
        Undefined = 0,
        /// Isolines.
        Isoline = 1,
        /// Triangles.
        Tri = 2,
        /// Quads.
        Quad = 3,
    }
}

token_enum! {
    /// The tessellator's partitioning (`D3D11_SB_TESSELLATOR_PARTITIONING`).
    TessPartitioning {
        /// Undefined.
        Undefined = 0,
        /// Integer.
        Integer = 1,
        /// Power of two.
        Pow2 = 2,
        /// Fractional odd.
        FractionalOdd = 3,
        /// Fractional even.
        FractionalEven = 4,
    }
}

token_enum! {
    /// The tessellator's output primitive (`D3D11_SB_TESSELLATOR_OUTPUT_PRIMITIVE`).
    TessOutputPrimitive {
        /// Undefined.
        Undefined = 0,
        /// Points.
        Point = 1,
        /// Lines.
        Line = 2,
        /// Clockwise triangles.
        TriangleCw = 3,
        /// Counter-clockwise triangles.
        TriangleCcw = 4,
    }
}

token_enum! {
    /// What `resinfo` returns (`D3D10_SB_RESINFO_INSTRUCTION_RETURN_TYPE`, opcode token `[12:11]`).
    ResinfoReturnType {
        /// Sizes as floats.
        Float = 0,
        /// Reciprocal sizes as floats.
        RcpFloat = 1,
        /// Sizes as unsigned integers.
        Uint = 2,
    }
}

token_enum! {
    /// What `sample_info` returns (`D3D10_SB_INSTRUCTION_RETURN_TYPE`, opcode token `[12:11]`).
    InstructionReturnType {
        /// A float.
        Float = 0,
        /// An unsigned integer.
        Uint = 1,
    }
}

/// A set of components x, y, z, w as bits 0..3 (`D3D10_SB_COMPONENT_MASK`: x = 1, y = 2, z = 4, w = 8).
pub type ComponentMask = u8;

/// Global flags (`dcl_globalFlags`), as the header's `D3D1x_SB_GLOBAL_FLAG_*` values: bits in place in `[23:11]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GlobalFlags(pub u32);

impl GlobalFlags {
    /// `refactoringAllowed`.
    pub const REFACTORING_ALLOWED: u32 = 1 << 11;
    /// `enableDoublePrecisionFloatOps`.
    pub const ENABLE_DOUBLE_PRECISION_FLOAT_OPS: u32 = 1 << 12;
    /// `forceEarlyDepthStencil`.
    pub const FORCE_EARLY_DEPTH_STENCIL: u32 = 1 << 13;
    /// `enableRawAndStructuredBuffers`.
    pub const ENABLE_RAW_AND_STRUCTURED_BUFFERS: u32 = 1 << 14;
    /// `skipOptimization`.
    pub const SKIP_OPTIMIZATION: u32 = 1 << 15;
    /// `enableMinimumPrecision`.
    pub const ENABLE_MINIMUM_PRECISION: u32 = 1 << 16;
    /// `enable11_1DoubleExtensions`.
    pub const ENABLE_DOUBLE_EXTENSIONS: u32 = 1 << 17;
    /// `enable11_1ShaderExtensions`.
    pub const ENABLE_SHADER_EXTENSIONS: u32 = 1 << 18;
    /// `allResourcesBound` (D3D12).
    pub const ALL_RESOURCES_BOUND: u32 = 1 << 19;
    /// Every bit the field holds, named or reserved (`D3D10_SB_GLOBAL_FLAGS_MASK`).
    pub const MASK: u32 = 0x00ff_f800;

    /// Whether every bit of `flag` is set.
    pub fn contains(self, flag: u32) -> bool {
        self.0 & flag == flag
    }
}

/// `sync` flags, as the header's `D3D11_SB_SYNC_*` values: bits in place in `[14:11]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SyncFlags(pub u32);

impl SyncFlags {
    /// `_t`: wait for every thread of the group.
    pub const THREADS_IN_GROUP: u32 = 0x0000_0800;
    /// `_g`: thread group shared memory.
    pub const THREAD_GROUP_SHARED_MEMORY: u32 = 0x0000_1000;
    /// `_ugroup`: UAV memory, group scope.
    pub const UAV_MEMORY_GROUP: u32 = 0x0000_2000;
    /// `_uglobal`: UAV memory, global scope.
    pub const UAV_MEMORY_GLOBAL: u32 = 0x0000_4000;
    /// Every bit the field holds (`D3D11_SB_SYNC_FLAGS_MASK`).
    pub const MASK: u32 = 0x0000_7800;

    /// Whether every bit of `flag` is set.
    pub fn contains(self, flag: u32) -> bool {
        self.0 & flag == flag
    }
}

/// A decoded SM4/SM5 program: its kind, version and instructions (declarations included) in token order.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Which pipeline stage the program runs in.
    pub kind: ProgramKind,
    /// Shader model major version (version token `[7:4]`).
    pub major: u8,
    /// Shader model minor version (version token `[3:0]`).
    pub minor: u8,
    /// Version token bits `[15:8]`, which the header's macros do not read; kept for exact re-encoding.
    pub version_reserved_bits: u32,
    /// The instructions, in token order.
    pub instructions: Vec<Instruction>,
}

/// One instruction, declaration or custom-data block.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// Where its opcode token is, in DWORDs from the program's version token (for errors and traces). The encoder
    /// ignores it.
    pub offset: u32,
    /// What it does.
    pub opcode: Opcode,
    /// `_sat`: clamp results to [0, 1] (opcode token bit 13; read for every instruction but declarations and `sync`).
    pub saturate: bool,
    /// For `if`, `breakc`, `continuec`, `callc`, `retc` and `discard`: true for `_nz` (act when the source is
    /// non-zero), false for `_z` (opcode token bit 18).
    pub test_nonzero: bool,
    /// `precise`: the components (x = bit 0) whose results must not be refactored (opcode token `[22:19]`; read for
    /// every instruction but declarations).
    pub precise_mask: ComponentMask,
    /// For `resinfo`: what it returns (opcode token `[12:11]`).
    pub resinfo_return: ResinfoReturnType,
    /// For `sample_info`: what it returns (opcode token `[12:11]`).
    pub sample_info_return: InstructionReturnType,
    /// For `sync`: what it waits for (opcode token `[14:11]`).
    pub sync_flags: SyncFlags,
    /// For `interface_call`: which function of the interface's table to call (the DWORD after the opcode token).
    pub function_index: u32,
    /// Its extended opcode tokens, in order.
    pub extended: Vec<ExtendedOpcode>,
    /// Its operands, destinations first, for every instruction but declarations and custom data (whose operands
    /// are in [`Instruction::declaration`]). `interface_call` has its interface operand here.
    pub operands: Vec<Operand>,
    /// For a declaration or custom-data block: what it declares.
    pub declaration: Option<Declaration>,
    /// Token content the typed fields cannot express, for exact re-encoding.
    pub raw: InstructionRaw,
}

impl Instruction {
    /// An instruction with no controls, extended tokens or operands.
    pub fn new(opcode: Opcode) -> Self {
        Self {
            offset: 0,
            opcode,
            saturate: false,
            test_nonzero: false,
            precise_mask: 0,
            resinfo_return: ResinfoReturnType::Float,
            sample_info_return: InstructionReturnType::Float,
            sync_flags: SyncFlags(0),
            function_index: 0,
            extended: Vec::new(),
            operands: Vec::new(),
            declaration: None,
            raw: InstructionRaw::default(),
        }
    }

    /// The immediate texel offsets (u, v, w) of a sample controls extended token (`aoffimmi`), or zeros.
    pub fn texel_offsets(&self) -> [i8; 3] {
        self.extended
            .iter()
            .find_map(|e| match e.kind {
                ExtendedOpcodeKind::SampleControls { offsets } => Some(offsets),
                _ => None,
            })
            .unwrap_or([0; 3])
    }

    /// The resource dimension and structure stride (in bytes) of a resource dimension extended token, if any.
    pub fn resource_dimension(&self) -> Option<(ResourceDimension, u16)> {
        self.extended.iter().find_map(|e| match e.kind {
            ExtendedOpcodeKind::ResourceDimension {
                dimension,
                structure_stride,
            } => Some((dimension, structure_stride)),
            _ => None,
        })
    }

    /// The per-component return types (x, y, z, w) of a resource return type extended token, if any.
    pub fn resource_return_types(&self) -> Option<[ReturnType; 4]> {
        self.extended.iter().find_map(|e| match e.kind {
            ExtendedOpcodeKind::ResourceReturnType { return_types } => Some(return_types),
            _ => None,
        })
    }
}

/// What an instruction's tokens hold that its typed fields cannot express. Empty (the default) for an instruction
/// built by hand; the encoder then writes the tokens a compiler would.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstructionRaw {
    /// Bits of the opcode token's opcode-specific range `[23:11]` that no typed field reads, in place (for example
    /// bit 18 on an `endif`, which vkd3d sets).
    pub control_bits: u32,
    /// For the opcodes whose bit 31 announces a length DWORD ([`Opcode::has_length_dword_form`]): the 7-bit length
    /// field `[30:24]` as written when that form was used; `None` when it was not.
    pub length_dword_field: Option<u8>,
    /// Reserved bits `[31:16]` of a declaration's name token or resource return type token, in place.
    pub reserved_bits: u32,
    /// DWORDs a declaration holds past the fields read here (Shader Model 5.1 appends a register space, for
    /// example), in order.
    pub trailing: Vec<u32>,
}

/// An extended opcode token (`D3D10_SB_EXTENDED_OPCODE_TYPE`): information that does not fit the opcode token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedOpcode {
    /// What the token says.
    pub kind: ExtendedOpcodeKind,
    /// Bits the header marks ignored for this kind that were set, in place.
    pub ignored_bits: u32,
}

/// What an extended opcode token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtendedOpcodeKind {
    /// `D3D10_SB_EXTENDED_OPCODE_EMPTY`: nothing.
    Empty,
    /// `D3D10_SB_EXTENDED_OPCODE_SAMPLE_CONTROLS`: immediate texel offsets u, v, w, each a 4-bit two's complement
    /// value in -8..=7 (`[12:9]`, `[16:13]`, `[20:17]`).
    SampleControls {
        /// The u, v, w offsets in texels.
        offsets: [i8; 3],
    },
    /// `D3D11_SB_EXTENDED_OPCODE_RESOURCE_DIM`: the resource's dimension (`[10:6]`) and, for structured buffers, the
    /// structure stride in bytes (`[22:11]`, 12 bits).
    ResourceDimension {
        /// The resource's dimension.
        dimension: ResourceDimension,
        /// The structure stride in bytes (0 unless structured).
        structure_stride: u16,
    },
    /// `D3D11_SB_EXTENDED_OPCODE_RESOURCE_RETURN_TYPE`: what each component (x, y, z, w) returns (`[21:6]`).
    ResourceReturnType {
        /// The return types of x, y, z, w.
        return_types: [ReturnType; 4],
    },
}

/// One operand: a register (or literal) reference with its component selection, indices and modifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// The register file.
    pub register: RegisterType,
    /// How many components the operand has and which it selects.
    pub components: Components,
    /// Its indices, outermost first (`cb0[4]` has two: 0 and 4). At most 3.
    pub indices: Vec<Index>,
    /// Source modifier (negate / absolute value).
    pub modifier: Modifier,
    /// Minimum precision.
    pub min_precision: MinPrecision,
    /// Non-uniform: the index may differ between lanes (D3D12).
    pub non_uniform: bool,
    /// For [`RegisterType::Immediate32`] and [`RegisterType::Immediate64`]: the literal values.
    pub immediate: Option<Immediate>,
    /// The extended operand tokens as written, in order (empty when there were none). The modifier token's content
    /// is in the typed fields above; an operand built by hand can leave this empty and the encoder writes a
    /// modifier token when a typed field needs one.
    pub extended: Vec<ExtendedOperand>,
    /// Bits of the operand token the header marks ignored that were set, in place.
    pub ignored_bits: u32,
}

impl Operand {
    /// An operand of `register` with `components` and `indices`, no modifiers.
    pub fn new(register: RegisterType, components: Components, indices: Vec<Index>) -> Self {
        Self {
            register,
            components,
            indices,
            modifier: Modifier::None,
            min_precision: MinPrecision::Default,
            non_uniform: false,
            immediate: None,
            extended: Vec::new(),
            ignored_bits: 0,
        }
    }
}

/// How many components an operand has and, for four, which it selects (`D3D10_SB_OPERAND_NUM_COMPONENTS` and
/// `D3D10_SB_OPERAND_4_COMPONENT_SELECTION_MODE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Components {
    /// None (samplers, labels, `null` ...).
    Zero,
    /// One (scalar registers, 1-component literals).
    One,
    /// Four, with a selection.
    Four(Selection),
    /// `D3D10_SB_OPERAND_N_COMPONENT`, which the header reserves ("currently not defined"): its selection bits
    /// `[11:2]` are kept in [`Operand::ignored_bits`]. No instruction can execute such an operand.
    N,
}

/// Which of four components an operand uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A write mask (x = bit 0), mostly on destinations.
    Mask(ComponentMask),
    /// A swizzle: for each destination component x, y, z, w, the source component (0 = x .. 3 = w).
    Swizzle([u8; 4]),
    /// One component (0 = x .. 3 = w), replicated.
    Select1(u8),
}

/// One index of an operand (`D3D10_SB_OPERAND_INDEX_REPRESENTATION`).
#[derive(Clone, Debug, PartialEq)]
pub enum Index {
    /// An immediate 32-bit index.
    Immediate32(u32),
    /// An immediate 64-bit index.
    Immediate64(u64),
    /// A register's value (a scalar operand).
    Relative(Box<Operand>),
    /// An immediate plus a register's value.
    Immediate32PlusRelative(u32, Box<Operand>),
    /// A 64-bit immediate plus a register's value.
    Immediate64PlusRelative(u64, Box<Operand>),
}

/// The literal values of an immediate operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Immediate {
    /// One 32-bit value (`l(1.0)`), replicated to every component.
    Scalar32(u32),
    /// Four 32-bit values, x to w.
    Vector32([u32; 4]),
    /// One 64-bit value.
    Scalar64(u64),
    /// Two 64-bit values (components xy and zw).
    Vector64([u64; 2]),
}

/// An extended operand token (`D3D10_SB_EXTENDED_OPERAND_TYPE`), as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedOperand {
    /// Its type.
    pub kind: ExtendedOperandKind,
    /// Bits the header marks ignored for this type that were set, in place.
    pub ignored_bits: u32,
}

/// The type of an extended operand token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtendedOperandKind {
    /// `D3D10_SB_EXTENDED_OPERAND_EMPTY`: carries nothing.
    Empty,
    /// `D3D10_SB_EXTENDED_OPERAND_MODIFIER`: carries the operand's modifier, minimum precision and non-uniform flag.
    Modifier,
}

/// What a declaration declares. Register operands are full [`Operand`]s: an input's write mask, a constant
/// buffer's `cb#[size]` indices and so on are in them.
#[derive(Clone, Debug, PartialEq)]
pub enum Declaration {
    /// `dcl_globalFlags`.
    GlobalFlags(GlobalFlags),
    /// `dcl_resource`: a typed shader resource.
    Resource {
        /// The `t#` register.
        register: Operand,
        /// Its dimension (`[15:11]`).
        dimension: ResourceDimension,
        /// For multisampled textures, the sample count (`[22:16]`); 0 otherwise.
        sample_count: u8,
        /// What each component (x, y, z, w) returns.
        return_types: [ReturnType; 4],
    },
    /// `dcl_constantbuffer`: `cb#[size]`, the size counted in 16-byte vectors (0 = unknown).
    ConstantBuffer {
        /// The `cb#[size]` operand.
        register: Operand,
        /// Whether it is indexed dynamically (`[11]`).
        dynamic_indexed: bool,
    },
    /// `dcl_sampler`.
    Sampler {
        /// The `s#` register.
        register: Operand,
        /// Its mode (`[14:11]`).
        mode: SamplerMode,
    },
    /// `dcl_indexrange`: `count` registers from `register` may be indexed.
    IndexRange {
        /// The first input or output register of the range.
        register: Operand,
        /// How many registers.
        count: u32,
    },
    /// `dcl_outputtopology` (geometry shader).
    GsOutputTopology(PrimitiveTopology),
    /// `dcl_inputprimitive` (geometry shader).
    GsInputPrimitive(Primitive),
    /// `dcl_maxout` (geometry shader): the most vertices one invocation emits.
    MaxOutputVertexCount(u32),
    /// `dcl_input`, `dcl_input_sgv`, `dcl_input_siv`, `dcl_input_ps`, `dcl_input_ps_sgv`, `dcl_input_ps_siv`,
    /// `dcl_output`, `dcl_output_sgv`, `dcl_output_siv` (which one is the instruction's opcode).
    Register {
        /// The register declared, with its write mask.
        register: Operand,
        /// For the `_sgv`/`_siv` forms: the system value (from the name token).
        name: Option<SystemName>,
        /// For the `_ps` forms: the interpolation mode (`[14:11]`).
        interpolation: Option<InterpolationMode>,
    },
    /// `dcl_temps`: `r0` to `r(n-1)`.
    Temps(u32),
    /// `dcl_indexableTemp x#[size], components`.
    IndexableTemp {
        /// Which `x#`.
        register: u32,
        /// How many registers it has.
        size: u32,
        /// How many components each has (1 to 4).
        components: u32,
    },
    /// `dcl_stream m#` (geometry shader).
    Stream(Operand),
    /// `dcl_function_body fb#`.
    FunctionBody(u32),
    /// `dcl_function_table ft# = { fb#, ... }`.
    FunctionTable {
        /// Which `ft#`.
        id: u32,
        /// The function bodies in the table.
        bodies: Vec<u32>,
    },
    /// `dcl_interface fp#[array][expected] = { ft#, ... }`.
    Interface {
        /// Which `fp#`.
        id: u32,
        /// Whether it is indexed dynamically (`[11]`).
        dynamic_indexed: bool,
        /// The length every function table for it has.
        expected_table_length: u32,
        /// How many interfaces the array declares.
        array_length: u16,
        /// The function tables that may implement it.
        tables: Vec<u32>,
    },
    /// `dcl_input_control_point_count` (hull, domain shader): `[16:11]`.
    InputControlPointCount(u8),
    /// `dcl_output_control_point_count` (hull shader): `[16:11]`.
    OutputControlPointCount(u8),
    /// `dcl_tessellator_domain`.
    TessDomain(TessDomain),
    /// `dcl_tessellator_partitioning`.
    TessPartitioning(TessPartitioning),
    /// `dcl_tessellator_output_primitive`.
    TessOutputPrimitive(TessOutputPrimitive),
    /// `dcl_hs_max_tessfactor`.
    HsMaxTessFactor(f32),
    /// `dcl_hs_fork_phase_instance_count`.
    HsForkPhaseInstanceCount(u32),
    /// `dcl_hs_join_phase_instance_count`.
    HsJoinPhaseInstanceCount(u32),
    /// `dcl_thread_group x, y, z` (compute shader).
    ThreadGroup([u32; 3]),
    /// `dcl_uav_typed`.
    UavTyped {
        /// The `u#` register.
        register: Operand,
        /// Its dimension (`[15:11]`).
        dimension: ResourceDimension,
        /// What each component returns.
        return_types: [ReturnType; 4],
        /// `globallycoherent` (`[16]`).
        globally_coherent: bool,
        /// Rasterizer ordered (`[17]`).
        rasterizer_ordered: bool,
    },
    /// `dcl_uav_raw`.
    UavRaw {
        /// The `u#` register.
        register: Operand,
        /// `globallycoherent` (`[16]`).
        globally_coherent: bool,
        /// Rasterizer ordered (`[17]`).
        rasterizer_ordered: bool,
    },
    /// `dcl_uav_structured`.
    UavStructured {
        /// The `u#` register.
        register: Operand,
        /// The structure stride in bytes.
        stride: u32,
        /// `globallycoherent` (`[16]`).
        globally_coherent: bool,
        /// Rasterizer ordered (`[17]`).
        rasterizer_ordered: bool,
        /// Has an order-preserving counter (`[23]`).
        has_counter: bool,
    },
    /// `dcl_tgsm_raw g#, bytes`.
    TgsmRaw {
        /// The `g#` register.
        register: Operand,
        /// Its size in bytes.
        byte_count: u32,
    },
    /// `dcl_tgsm_structured g#, stride, count`.
    TgsmStructured {
        /// The `g#` register.
        register: Operand,
        /// The structure stride in bytes.
        stride: u32,
        /// How many structures.
        count: u32,
    },
    /// `dcl_resource_raw`.
    ResourceRaw(Operand),
    /// `dcl_resource_structured`.
    ResourceStructured {
        /// The `t#` register.
        register: Operand,
        /// The structure stride in bytes.
        stride: u32,
    },
    /// `dcl_gs_instance_count`.
    GsInstanceCount(u32),
    /// A custom-data block.
    CustomData(CustomData),
}

/// A custom-data block's content, by class (`D3D10_SB_CUSTOMDATA_CLASS`). Only the immediate constant buffer's
/// layout is defined by the header; the others are kept as the DWORDs after the length token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CustomData {
    /// `D3D10_SB_CUSTOMDATA_COMMENT`.
    Comment(Vec<u32>),
    /// `D3D10_SB_CUSTOMDATA_DEBUGINFO`.
    DebugInfo(Vec<u32>),
    /// `D3D10_SB_CUSTOMDATA_OPAQUE`.
    Opaque(Vec<u32>),
    /// `D3D10_SB_CUSTOMDATA_DCL_IMMEDIATE_CONSTANT_BUFFER`: the `icb[]` vectors.
    ImmediateConstantBuffer(Vec<[u32; 4]>),
    /// `D3D11_SB_CUSTOMDATA_SHADER_MESSAGE`.
    ShaderMessage(Vec<u32>),
    /// `D3D11_SB_CUSTOMDATA_SHADER_CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9`.
    ClipPlaneConstantMappingsForDx9(Vec<u32>),
    /// A class the header does not define (the 21-bit class field `[31:11]`).
    Other {
        /// The class number.
        class: u32,
        /// The DWORDs after the length token.
        data: Vec<u32>,
    },
}

impl CustomData {
    /// The header's class numbers, in `D3D10_SB_CUSTOMDATA_CLASS` order.
    pub const COMMENT: u32 = 0;
    /// `D3D10_SB_CUSTOMDATA_DEBUGINFO`.
    pub const DEBUG_INFO: u32 = 1;
    /// `D3D10_SB_CUSTOMDATA_OPAQUE`.
    pub const OPAQUE: u32 = 2;
    /// `D3D10_SB_CUSTOMDATA_DCL_IMMEDIATE_CONSTANT_BUFFER`.
    pub const IMMEDIATE_CONSTANT_BUFFER: u32 = 3;
    /// `D3D11_SB_CUSTOMDATA_SHADER_MESSAGE`.
    pub const SHADER_MESSAGE: u32 = 4;
    /// `D3D11_SB_CUSTOMDATA_SHADER_CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9`.
    pub const CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9: u32 = 5;

    /// The block's class number.
    pub fn class(&self) -> u32 {
        match self {
            CustomData::Comment(_) => Self::COMMENT,
            CustomData::DebugInfo(_) => Self::DEBUG_INFO,
            CustomData::Opaque(_) => Self::OPAQUE,
            CustomData::ImmediateConstantBuffer(_) => Self::IMMEDIATE_CONSTANT_BUFFER,
            CustomData::ShaderMessage(_) => Self::SHADER_MESSAGE,
            CustomData::ClipPlaneConstantMappingsForDx9(_) => Self::CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9,
            CustomData::Other { class, .. } => *class,
        }
    }
}
