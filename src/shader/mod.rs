//! The SM4/SM5 shader interpreter (docs to come).

pub mod alu;
mod binding;
mod executable;
mod machine;
mod trace;

pub use binding::{
    Bindings, CONSTANT_BUFFER_SLOTS, LevelOfDetail, RESOURCE_SLOTS, RasterizerSamples, SAMPLER_SLOTS, ShaderResource,
    Unbound,
};
pub use executable::{
    ConstantBufferDeclaration, DepthOutput, Executable, InputDeclaration, InputRegister, MAX_CALL_DEPTH,
    MAX_IO_REGISTERS, MAX_PIXEL_OUTPUTS, MAX_TEMPORARIES, OutputDeclaration, OutputRegister, ResourceDeclaration,
    ResourceKind, SamplerDeclaration, Stage,
};
pub use machine::{DEFAULT_BUDGET, LANES, LaneMask, Lanes, Machine};
pub use trace::{DEFAULT_TRACE_LIMIT, LaneStep, Trace, TraceStep, TracedWrite};

#[cfg(test)]
mod tests;
