//! [`Executable`]: a decoded program checked once and turned into what the run loop wants — declarations gathered,
//! operands resolved to register rows, swizzles and modifiers, control flow matched to jump targets.
//!
//! One file a job: [`declarations`] holds what a program declares (public), `ir` the resolved operands and ops the
//! run loop executes, `shape` the opcode shape table, `builder` the checks and pre-decoding, `flow` the matching of
//! flow control. The dependencies run one way: builder → shape, flow → ir → declarations.

mod builder;
mod declarations;
mod flow;
mod ir;
mod shape;

pub use declarations::{
    ConstantBufferDeclaration, DepthOutput, GeometryDeclaration, HullPhase, InputDeclaration, InputRegister,
    MAX_CALL_DEPTH, MAX_GEOMETRY_OUTPUT_VERTICES, MAX_IO_REGISTERS, MAX_PIXEL_OUTPUTS, MAX_TEMPORARIES,
    OutputDeclaration, OutputRegister, PatchInputs, ResourceDeclaration, ResourceKind, SamplerDeclaration,
    SharedMemoryDeclaration, Stage, TessellationDeclaration, UavDeclaration, UavKind, VertexBlock,
};
pub use ir::Executable;
pub(crate) use ir::{
    Destination, DestinationFile, Flow, Index, Layout, MemoryOperands, MemoryTarget, Op, Scalar, ScalarFile, Source,
    SourceFile, SourceModifier, apply_modifier,
};
