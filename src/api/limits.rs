//! D3D11's limits on what one pipeline binds, each written once here. The values are the `D3D11_*` constants of the
//! D3D11.3 specification's constant listing (26), where each is named; the section cited with each is the one that
//! states what the limit bounds.

/// Render target slots the output merger writes at once (`D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT`; 17.14 "Multiple
/// RenderTargets": "at least 8 separate RenderTargets").
pub const RENDER_TARGET_SLOTS: usize = 8;

/// Viewports, and scissor rectangles, a pipeline holds (`D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE`;
/// 15.8 "a set of 16 Viewports and Scissor rects").
pub const VIEWPORT_SLOTS: usize = 16;

/// Vertex buffer slots of the input assembler (`D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT`; 8.1.4, 21).
pub const VERTEX_BUFFER_SLOTS: usize = 32;

/// Elements an input layout may have (`D3D11_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT`; 8.1.3, 21).
pub const INPUT_ELEMENTS: usize = 32;

/// Constant buffer slots of a program stage (`D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT`; 7.5 counts a
/// fifteenth, which holds the immediate constant buffer and is not the API's to bind).
pub const CONSTANT_BUFFER_SLOTS: usize = 14;

/// Constants (16-byte registers) a program sees of one constant buffer (`D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT`;
/// 21 "# Elements in ConstantBuffer").
pub const CONSTANT_BUFFER_CONSTANTS: u32 = 4096;

/// Shader resource view slots of a program stage (`D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT`; 7.16).
pub const SHADER_RESOURCE_SLOTS: usize = 128;

/// Sampler slots of a program stage (`D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT`; 7.18: "16 samplers slots per Pipeline
/// stage").
pub const SAMPLER_SLOTS: usize = 16;

/// Unordered access view slots of the pipeline (`D3D11_1_UAV_SLOT_COUNT`, 64 since D3D11.1; D3D11.0 had 8,
/// `D3D11_PS_CS_UAV_REGISTER_COUNT`). The compute stage has its own; the pixel stage shares its with the render
/// targets (5.3.9).
pub const UAV_SLOTS: usize = 64;
