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
    /// A phase of a hull program (section 10): lanes are output control points (the control point phase) or
    /// patches and phase instances (fork and join phases).
    Hull,
    /// A domain program (section 12): lanes are domain points of tessellated patches.
    Domain,
}

/// The phases of a hull program (10.4 to 10.8), each built as an executable of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HullPhase {
    /// `hs_control_point_phase`: once per output control point (10.5).
    ControlPoint,
    /// `hs_fork_phase`: once per patch and instance, writing patch constants (10.6).
    Fork,
    /// `hs_join_phase`: once per patch and instance after every fork phase, reading their patch constants (10.7).
    Join,
}

/// What a hull or domain program declares about its patches and the tessellator (22.3.12-22.3.20).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TessellationDeclaration {
    /// Control points of each input patch (`dcl_input_control_point_count`): a hull program's input patch, a domain
    /// program's patch (the hull program's output).
    pub input_control_points: u32,
    /// Control points the hull program outputs (`dcl_output_control_point_count`; 0 for a domain program).
    pub output_control_points: u32,
    /// `dcl_tessellator_domain`.
    pub domain: Option<crate::tessellator::Domain>,
    /// `dcl_tessellator_partitioning` (hull programs).
    pub partitioning: Option<crate::tessellator::Partitioning>,
    /// `dcl_tessellator_output_primitive` (hull programs).
    pub output_primitive: Option<crate::tessellator::OutputPrimitive>,
    /// `dcl_hs_max_tessfactor` (64 when not declared, 10.13).
    pub max_tess_factor: f32,
}

/// Where a block of per-control-point (or per-vertex) input registers sits in a batch's input file: `vertices`
/// runs of `stride` registers from register `first` (a geometry program's `v[vertex][register]`, a hull or domain
/// program's `vicp[point][register]` and `vocp[point][register]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VertexBlock {
    /// The first register.
    pub first: u32,
    /// Registers per vertex.
    pub stride: u32,
    /// How many vertices.
    pub vertices: u32,
}

impl VertexBlock {
    /// The input-file register holding `register` of vertex `vertex`, if both are inside the block.
    pub fn register_of(&self, vertex: u32, register: u32) -> Option<u32> {
        if vertex >= self.vertices || register >= self.stride {
            return None;
        }
        vertex
            .checked_mul(self.stride)?
            .checked_add(register)?
            .checked_add(self.first)
    }

    /// The register after the block.
    pub fn end(&self) -> u32 {
        self.stride.saturating_mul(self.vertices).saturating_add(self.first)
    }
}

/// Where a hull phase's or a domain program's inputs sit in the batch's input file (registers, each four rows):
/// the input control points, the output control points (hull fork and join phases), the patch constants, and the
/// one system value a lane gets (`vOutputControlPointID`, `vForkInstanceID`, `vJoinInstanceID` or `vDomain`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchInputs {
    /// `v[point][register]` of the control point phase, `vicp[point][register]` elsewhere.
    pub input_points: VertexBlock,
    /// `vocp[point][register]`.
    pub output_points: VertexBlock,
    /// The first register of `vpc#`.
    pub patch_constants: u32,
    /// How many `vpc#` registers.
    pub patch_constant_count: u32,
    /// The register of the lane's system value.
    pub system: u32,
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
    /// `vOutputControlPointID`: the output control point a control point phase lane computes (10.5).
    OutputControlPointId,
    /// `vForkInstanceID` (10.6).
    ForkInstanceId,
    /// `vJoinInstanceID` (10.7).
    JoinInstanceId,
    /// `vDomain`: the domain point's location, `SV_DomainLocation` (12.4).
    DomainPoint,
    /// `vicp[][r]`: register `r` of the input control points (a hull program's input patch, a domain program's
    /// patch).
    InputControlPoint(u32),
    /// `vocp[][r]`: register `r` of the output control points (hull fork and join phases).
    OutputControlPoint(u32),
    /// `vpc#`: a patch constant (hull join phase, domain program).
    PatchConstant(u32),
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
