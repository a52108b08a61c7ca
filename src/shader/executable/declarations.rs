//! What an [`Executable`](super::Executable) declares, as the rest of the crate sees it: the stage, each input and
//! output register with its system value and interpolation, constant buffers, resources, samplers, depth output, and
//! the limits a program's declarations must keep.

use crate::dxbc::program::{InterpolationMode, ResourceDimension, ReturnType, SamplerMode, SystemName};

/// The most `r#` plus `x#` registers a program may declare (7.3: "the total number of r# and x# declared must be
/// <= 4096").
pub const MAX_TEMPORARIES: u32 = 4096;

/// The most `v#` and `o#` registers a vertex or pixel program has (`D3D11_VS_INPUT_REGISTER_COUNT`,
/// `D3D11_VS_OUTPUT_REGISTER_COUNT`, `D3D11_PS_INPUT_REGISTER_COUNT`: 32 each).
pub const MAX_IO_REGISTERS: u32 = 32;

/// The most render-target outputs a pixel program has (`D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT`).
pub const MAX_PIXEL_OUTPUTS: u32 = crate::api::limits::RENDER_TARGET_SLOTS as u32;

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
    /// A compute program (section 18): lanes are threads of one thread group, in flattened order.
    Compute,
    /// A geometry program (section 13): lanes are invocations, one per input primitive and instance.
    Geometry,
}

/// The most vertices a geometry program declares it emits (`dcl_maxout`, 22.3.5: at most 1024).
pub const MAX_GEOMETRY_OUTPUT_VERTICES: u32 = 1024;

/// What a geometry program declares about its primitives (13.2, 13.3, 22.3.5-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryDeclaration {
    /// Vertices of each input primitive (`dcl_inputprimitive`: 1 point, 2 line, 3 triangle, 4 line with adjacency,
    /// 6 triangle with adjacency, N for an N-control-point patch).
    pub input_vertices: u32,
    /// The raw `dcl_inputprimitive` value (`D3D10_SB_PRIMITIVE`).
    pub input_primitive: u32,
    /// The output topology (`dcl_outputtopology`): `D3D10_SB_PRIMITIVE_TOPOLOGY` 1 point list, 3 line strip, 5
    /// triangle strip.
    pub output_topology: u32,
    /// The most vertices one invocation emits (`dcl_maxout`); later emits are dropped (13.3).
    pub max_vertices: u32,
    /// Invocations per input primitive (`dcl_gsinstances`, 13.2.1; 1 when not declared).
    pub instances: u32,
    /// The streams declared (`dcl_stream m#`), bit `s` for stream `s`; none means stream 0 alone.
    pub streams: u8,
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
    /// `vThreadID` (18.6.5): the thread's position in the whole dispatch.
    ThreadId,
    /// `vThreadGroupID`: the thread group's position in the dispatch.
    ThreadGroupId,
    /// `vThreadIDInGroup`: the thread's position in its group.
    ThreadIdInGroup,
    /// `vThreadIDInGroupFlattened`: `z * x_size * y_size + y * x_size + x` of the position in the group.
    ThreadIdInGroupFlattened,
    /// `vGSInstanceID` (13.2.1).
    GsInstanceId,
}

impl InputRegister {
    /// For a compute program's thread-ID inputs, which input register the run loop keeps it in: a compute program
    /// has no `v#`, so the four take `v0`..`v3` of the batch's input file ([`crate::shader::Machine::start_threads`]
    /// fills them).
    pub fn thread_row(self) -> Option<u32> {
        match self {
            InputRegister::ThreadId => Some(0),
            InputRegister::ThreadGroupId => Some(1),
            InputRegister::ThreadIdInGroup => Some(2),
            InputRegister::ThreadIdInGroupFlattened => Some(3),
            _ => None,
        }
    }
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
    /// A geometry program's stream the declaration belongs to (the `dcl_stream` before it; 0 otherwise).
    pub stream: u8,
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

/// What kind of view an unordered access view declaration expects (`dcl_uav_*`, 5.3.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UavKind {
    /// `dcl_uav_typed`: a typed buffer or texture, read and written through its format.
    Typed {
        /// Its dimension.
        dimension: ResourceDimension,
        /// What each component returns.
        return_types: [ReturnType; 4],
    },
    /// `dcl_uav_raw`: a byte address buffer.
    Raw,
    /// `dcl_uav_structured`: a structured buffer.
    Structured {
        /// The structure size in bytes.
        stride: u32,
        /// Declared with a hidden counter (`_opc`: `imm_atomic_alloc`/`consume` use it).
        counter: bool,
    },
}

/// An unordered access view declaration (`u#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UavDeclaration {
    /// The slot.
    pub slot: u32,
    /// What it expects.
    pub kind: UavKind,
    /// `globallycoherent`.
    pub globally_coherent: bool,
}

/// A thread group shared memory declaration (`dcl_tgsm_raw` / `dcl_tgsm_structured`, 18.6.3): `g#` and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedMemoryDeclaration {
    /// The `g#` number.
    pub register: u32,
    /// The structure stride in bytes; for raw memory, 0.
    pub stride: u32,
    /// Its size in 32-bit words.
    pub words: u32,
    /// Its first word in the group's shared memory.
    pub first_word: u32,
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
