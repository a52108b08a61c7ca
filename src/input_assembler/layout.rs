//! The input layout resolved against the vertex program: which layout element feeds which `v#` register and
//! components (by semantic, 8.1.3), where each element sits in its vertex (`D3D11_APPEND_ALIGNED_ELEMENT`), and which
//! registers take the system-generated `SV_VertexID` and `SV_InstanceID` (8.16, 8.18).

use crate::api::enums::InputClassification;
use crate::api::fixed_function::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use crate::dxbc::signature::{Signature, SystemValue};
use crate::format::{Format, TexelCodec};
use crate::{Error, Result};

/// Input registers a vertex program has (`D3D11_VS_INPUT_REGISTER_COUNT`, 9.3).
pub const INPUT_REGISTERS: u32 = 32;

/// The formats D3D11 hardware must fetch from vertex buffers (`D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER` in Microsoft's
/// "Hardware Support for Direct3D 11 Formats"): 32-bit FLOAT/UINT/SINT of 1 to 4 components, 16-bit and 8-bit
/// FLOAT (16 only)/UNORM/SNORM/UINT/SINT of 1, 2 and 4 components, R10G10B10A2_UNORM/UINT, R11G11B10_FLOAT and
/// B8G8R8A8_UNORM. sRGB, three-component 8/16-bit, 5/6-bit, typeless, depth and block formats are not vertex formats.
pub const VERTEX_FORMATS: &[Format] = &[
    Format::R32G32B32A32Float,
    Format::R32G32B32A32Uint,
    Format::R32G32B32A32Sint,
    Format::R32G32B32Float,
    Format::R32G32B32Uint,
    Format::R32G32B32Sint,
    Format::R16G16B16A16Float,
    Format::R16G16B16A16Unorm,
    Format::R16G16B16A16Uint,
    Format::R16G16B16A16Snorm,
    Format::R16G16B16A16Sint,
    Format::R32G32Float,
    Format::R32G32Uint,
    Format::R32G32Sint,
    Format::R10G10B10A2Unorm,
    Format::R10G10B10A2Uint,
    Format::R11G11B10Float,
    Format::R8G8B8A8Unorm,
    Format::R8G8B8A8Uint,
    Format::R8G8B8A8Snorm,
    Format::R8G8B8A8Sint,
    Format::R16G16Float,
    Format::R16G16Unorm,
    Format::R16G16Uint,
    Format::R16G16Snorm,
    Format::R16G16Sint,
    Format::R32Float,
    Format::R32Uint,
    Format::R32Sint,
    Format::R8G8Unorm,
    Format::R8G8Uint,
    Format::R8G8Snorm,
    Format::R8G8Sint,
    Format::R16Float,
    Format::R16Unorm,
    Format::R16Uint,
    Format::R16Snorm,
    Format::R16Sint,
    Format::R8Unorm,
    Format::R8Uint,
    Format::R8Snorm,
    Format::R8Sint,
    Format::B8G8R8A8Unorm,
];

/// Whether the input assembler fetches `format` (see [`VERTEX_FORMATS`]).
pub fn is_vertex_format(format: Format) -> bool {
    VERTEX_FORMATS.contains(&format)
}

/// The alignment 4.4.6 asks of an element of `bytes` bytes: the power of two at or above its size, at most 4.
pub fn element_alignment(bytes: u32) -> u32 {
    bytes.max(1).checked_next_power_of_two().unwrap_or(4).min(4)
}

/// A layout element that feeds the vertex program, resolved.
#[derive(Clone, Debug)]
pub struct Element {
    /// Its place in the layout (0-based), for messages.
    pub number: usize,
    /// Its semantic, for messages (`"TEXCOORD1"`).
    pub semantic: String,
    /// How its bytes decode (8.20 through the format module).
    pub codec: TexelCodec,
    /// Its size in bytes.
    pub size: u32,
    /// The vertex buffer slot it reads.
    pub slot: u32,
    /// Its byte offset in the vertex (or instance), `APPEND_ALIGNED_ELEMENT` resolved.
    pub offset: u32,
    /// Whether it steps per instance.
    pub per_instance: bool,
    /// For per-instance elements: instances per step (0: never steps).
    pub step_rate: u32,
    /// The `v#` register it writes.
    pub register: u32,
    /// The register components it writes (bit 0 = x): the format's first component goes to the lowest.
    pub mask: u8,
}

impl Element {
    /// "element 2 (TEXCOORD1)".
    pub fn name(&self) -> String {
        format!("element {} ({})", self.number, self.semantic)
    }
}

/// A value the input assembler makes up rather than fetches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generated {
    /// `SV_VertexID` (8.16).
    VertexId,
    /// `SV_InstanceID` (8.18).
    InstanceId,
}

/// A register component that takes a generated value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneratedInput {
    /// Which value.
    pub value: Generated,
    /// The `v#` register.
    pub register: u32,
    /// The component (0 = x): the lowest of the signature element's mask.
    pub component: usize,
}

/// The layout resolved against the program: elements that feed it, generated values, and the register count.
#[derive(Clone, Debug)]
pub struct ResolvedLayout {
    /// The elements the program reads, in layout order.
    pub elements: Vec<Element>,
    /// The generated values it reads.
    pub generated: Vec<GeneratedInput>,
    /// One past the highest input register of the signature.
    pub register_count: u32,
    /// Every layout element's resolved byte offset, in layout order (the program may leave some unread).
    pub offsets: Vec<u32>,
}

/// Resolves `layout` against the program's input `signature`. `error` makes an error about the draw's input
/// assembler, placed at the element or signature entry at fault.
pub fn resolve(
    layout: &[InputElementDesc],
    signature: &Signature,
    error: &dyn Fn(String) -> Error,
) -> Result<ResolvedLayout> {
    let offsets = element_offsets(layout, error)?;
    check_slot_classes(layout, error)?;
    let mut elements = Vec::new();
    let mut generated = Vec::new();
    let mut register_count = 0u32;
    for input in &signature.elements {
        let name = format!("{}{}", input.semantic_name, input.semantic_index);
        if input.register >= INPUT_REGISTERS {
            return Err(error(format!(
                "the vertex program's input {name} is in register v{}, past v31",
                input.register
            ))
            .at("input signature"));
        }
        register_count = register_count.max(input.register.saturating_add(1));
        let mask = input.mask & 0xf;
        let lowest = mask.trailing_zeros() as usize;
        if mask == 0 {
            continue;
        }
        match input.system_value {
            SystemValue::VERTEX_ID | SystemValue::INSTANCE_ID => {
                generated.push(GeneratedInput {
                    value: if input.system_value == SystemValue::VERTEX_ID {
                        Generated::VertexId
                    } else {
                        Generated::InstanceId
                    },
                    register: input.register,
                    component: lowest,
                });
                continue;
            }
            SystemValue::PRIMITIVE_ID => {
                return Err(error(format!(
                    "the vertex program reads {name} (SV_PrimitiveID), which 8.17 gives only to hull, domain, \
                     geometry and pixel programs"
                ))
                .at("input signature"));
            }
            _ => {}
        }
        let feeding: Vec<usize> = layout
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.semantic_name.eq_ignore_ascii_case(&input.semantic_name) && e.semantic_index == input.semantic_index
            })
            .map(|(i, _)| i)
            .collect();
        let number = match feeding.as_slice() {
            [number] => *number,
            [] => {
                return Err(error(format!(
                    "no input layout element feeds the vertex program's input {name} (v{})",
                    input.register
                ))
                .at("input layout"));
            }
            [first, second, ..] => {
                return Err(error(format!("elements {first} and {second} both feed {name}")).at("input layout"));
            }
        };
        let (Some(desc), Some(&offset)) = (layout.get(number), offsets.get(number)) else {
            continue;
        };
        let codec = TexelCodec::new(desc.format)
            .map_err(|e| error(e.detail).at(format!("input layout element {number} ({name})")))?;
        elements.push(Element {
            number,
            semantic: name,
            size: u32::try_from(codec.element_bytes()).unwrap_or(u32::MAX),
            codec,
            slot: desc.input_slot,
            offset,
            per_instance: desc.input_slot_class == InputClassification::PerInstanceData,
            step_rate: desc.instance_data_step_rate,
            register: input.register,
            mask,
        });
    }
    elements.sort_by_key(|e| e.number);
    Ok(ResolvedLayout {
        elements,
        generated,
        register_count,
        offsets,
    })
}

/// Each element's byte offset: its own, or for `D3D11_APPEND_ALIGNED_ELEMENT` the end of the element before it in
/// the same slot, rounded up to its alignment (4.4.6; "including any packing if necessary", as the API documents the
/// constant and Wine's d3d11 computes it), 0 for the first in its slot. Also checks each element's format and slot.
fn element_offsets(layout: &[InputElementDesc], error: &dyn Fn(String) -> Error) -> Result<Vec<u32>> {
    let mut offsets: Vec<u32> = Vec::with_capacity(layout.len());
    for (number, element) in layout.iter().enumerate() {
        let at = || {
            format!(
                "input layout element {number} ({}{})",
                element.semantic_name, element.semantic_index
            )
        };
        if !is_vertex_format(element.format) {
            return Err(error(format!("{} is not a vertex format", element.format)).at(at()));
        }
        if element.input_slot >= crate::api::limits::VERTEX_BUFFER_SLOTS as u32 {
            return Err(error(format!(
                "slot {} is past the last vertex buffer slot, 31",
                element.input_slot
            ))
            .at(at()));
        }
        let size = element_size(element.format);
        let offset = if element.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
            let previous = layout
                .iter()
                .zip(&offsets)
                .rev()
                .find(|(e, _)| e.input_slot == element.input_slot);
            match previous {
                Some((previous, &previous_offset)) => previous_offset
                    .checked_add(element_size(previous.format))
                    .and_then(|end| end.checked_next_multiple_of(element_alignment(size)))
                    .ok_or_else(|| error("the appended offset passes 2^32".to_owned()).at(at()))?,
                None => 0,
            }
        } else {
            element.aligned_byte_offset
        };
        offsets.push(offset);
    }
    Ok(offsets)
}

/// The size of an element of a vertex format, in bytes.
pub fn element_size(format: Format) -> u32 {
    format
        .info()
        .layout
        .element_bytes()
        .and_then(|b| u32::try_from(b).ok())
        .unwrap_or(0)
}

/// Checks 8.1.3's rules on classes: a per-vertex element's step rate is 0, and the elements of one slot share their
/// class and step rate.
fn check_slot_classes(layout: &[InputElementDesc], error: &dyn Fn(String) -> Error) -> Result<()> {
    for (number, element) in layout.iter().enumerate() {
        let at = || {
            format!(
                "input layout element {number} ({}{})",
                element.semantic_name, element.semantic_index
            )
        };
        if element.input_slot_class == InputClassification::PerVertexData && element.instance_data_step_rate != 0 {
            return Err(error(format!(
                "a per-vertex element has instance step rate {}; it must be 0",
                element.instance_data_step_rate
            ))
            .at(at()));
        }
        if let Some((first, other)) = layout
            .iter()
            .enumerate()
            .take(number)
            .find(|(_, other)| other.input_slot == element.input_slot)
            && (other.input_slot_class != element.input_slot_class
                || other.instance_data_step_rate != element.instance_data_step_rate)
        {
            return Err(error(format!(
                "slot {} has elements {first} ({}, step {}) and {number} ({}, step {}); a slot's elements share \
                 class and step rate",
                element.input_slot,
                other.input_slot_class,
                other.instance_data_step_rate,
                element.input_slot_class,
                element.instance_data_step_rate
            ))
            .at(at()));
        }
    }
    Ok(())
}
