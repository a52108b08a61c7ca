//! The input assembler (D3D11.3 chapter 8): from a draw's buffers, input layout and call, the vertices its vertex
//! program runs on, with their input registers, and the primitives they form.
//!
//! The rules, each the specification's:
//!
//! - **Layout (8.1.3).** An input layout element feeds the vertex program input of the same semantic name (compared
//!   without case) and index, in the input's `v#` register and components; the format's first component goes to the
//!   lowest component of the input's mask. An input no element feeds is an error, but for `SV_VertexID` and
//!   `SV_InstanceID`, which the input assembler makes (8.16, 8.18; `SV_PrimitiveID` is not a vertex program input,
//!   8.17). The element's format alone decides the conversion: an input declared `uint` fed by a FLOAT format reads
//!   the float's bits, as D3D11 allows (8.20). Elements the program does not read are checked (format, slot, class)
//!   but not fetched. An element without an offset (`D3D11_APPEND_ALIGNED_ELEMENT`) follows the one before it in its
//!   slot, rounded up to its alignment (4.4.6: the power of two at or above its size, at most 4; "including any
//!   packing if necessary", as the API documents the constant and Wine's d3d11 does it). A per-vertex element's step
//!   rate is 0, and a slot's elements share class and step rate (8.1.3).
//! - **Addresses (8.4.1, 8.6.1).** A per-vertex element of vertex `n` is at `offset + stride * n + element offset`,
//!   where `n` is `StartVertexLocation + i` for `Draw*` and `BaseVertexLocation + index` for `DrawIndexed*`. A
//!   per-instance element of instance `i` is at `offset + stride * m + element offset` with
//!   `m = StartInstanceLocation + i / step` (`m = StartInstanceLocation` for a step rate of 0: 8.4.1's step counter).
//!   A call that is not instanced draws one instance, 0 (8.3.1, 8.5.1). An index is at
//!   `index offset + (StartIndexLocation + i) * index size`.
//! - **Conversion (8.20).** An element's bytes decode through [`crate::format::TexelCodec`] by the data conversion
//!   rules of 3.2: 32-bit float and integer data unchanged, UNORM/SNORM/FLOAT16/11/10 to float32, 8- and 16-bit
//!   integers zero- or sign-extended; components the format lacks read as 0, 0, 0, 1 (19.1.3.3; 1 as 1.0f or as the
//!   integer 1 by the format's type).
//! - **System values.** `SV_VertexID` counts from 0 for `Draw*`, not from the start vertex, and is the index value for
//!   `DrawIndexed*`, without the base vertex (8.16 and its pseudocode in 8.4.2 and 8.6.2; Microsoft's HLSL shader model
//!   6.8 notes confirm neither includes the start location). `SV_InstanceID` counts instances from 0, without the
//!   start instance (8.18). `SV_PrimitiveID` counts the triangles of an instance from 0, across strip cuts (8.17,
//!   8.6.2); it is each [`Primitive`]'s `id`.
//! - **Topologies (8.10 to 8.15).** Point lists, line and triangle lists and strips, and their adjacency variants
//!   drawn without their adjacent vertices (there is no geometry program to see them), as [`Primitives`] describes;
//!   the index value `0xFFFF` (16-bit) or `0xFFFFFFFF` (32-bit) cuts the strip in every topology (8.12); an
//!   incomplete primitive is dropped (8.13). Points and lines are assembled ([`Topology`]) when
//!   [`Options::points_and_lines`] says the caller draws them, as the draw module does (a caller that handles only
//!   triangles gets them refused); a patch list's patches are read with `Primitives::next_patch` for the hull program. Each vertex is shaded once per instance, however
//!   often the indices name it (9.2 allows the cache).
//! - **Bounds.** With [`OutOfBounds::Error`] (the default) every read the draw makes must be inside its buffer, as a
//!   well-formed draw's are: an unbound slot, an index buffer too short for the indices read, a vertex or instance past
//!   its buffer's end or before its offset, a base vertex taking an index below 0 or past 2^32, an element past its
//!   stride or misaligned (4.4.6), a stride over 2048 bytes (21) are errors naming the draw and the binding. With
//!   [`OutOfBounds::ReadZero`] the draw does what the specification defines instead: addresses are 32-bit unsigned
//!   arithmetic that wraps (8.19.1), a read outside `[offset, end)` of its buffer returns 0 in the format's components
//!   and the defaults in the others (8.19.2), an out-of-bounds index reads as 0, and an unbound slot reads 0 in every
//!   component, defaults not applied (8.20). An element partly past the end counts as out of bounds (the
//!   specification does not say; every component of it reads 0).
//! - **Limits.** At most [`Options::max_vertices`] indices or vertices per instance (by default
//!   `D3D11_WHQL_DRAW_VERTEX_COUNT_2_TO_EXP`, 2^25) and 2^32 over all instances
//!   (`D3D11_REQ_DRAW_VERTEX_COUNT_2_TO_EXP`, 8.19.2): the assembly keeps one word per index read.
//!
//! `tests/input_assembler_reference.rs` checks the fetch of 34 vertex formats, appended offsets, step rates, vertex
//! and instance IDs, strips, cuts and adjacency against a real D3D11 (`fixtures/input-assembler/README.md` lists
//! what that reference cannot check: eight formats, primitive IDs).
//!
//! Use: [`InputAssembler::for_draw`] checks the draw and assembles the topology once; [`InputAssembler::primitives`]
//! lists the triangles (the same for every instance); [`InputAssembler::fetch`] writes the input registers of a range
//! of vertices of one instance into a [`VertexInputs`], register by register, ready for a batch of shader lanes.

mod layout;
mod topology;

#[cfg(test)]
mod tests;

pub use layout::{VERTEX_FORMATS, element_alignment, is_vertex_format};
pub use topology::{
    GeometryInput, MAX_GEOMETRY_INPUT_VERTICES, Primitive, PrimitiveKind, Primitives, Topology, Vertices,
};

use crate::api::draw::{DrawCall, DrawState, IndexFormat};
use crate::dxbc::signature::Signature;
use crate::dxbc::{Container, Verify};
use crate::format::Texel;
use crate::{Error, Result};
use layout::{Element, Generated, GeneratedInput};
use std::ops::Range;
use std::sync::Arc;
use topology::Assembly;

/// The largest vertex stride D3D11 allows (`D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES`, 8.19.4).
pub const MAX_STRIDE: u32 = 2048;

/// What a read outside its buffer does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutOfBounds {
    /// It is an error: the draw is not well formed (see the module documentation for what is checked).
    #[default]
    Error,
    /// It reads as the specification defines (8.19.1, 8.19.2, 8.20).
    ReadZero,
}

/// How the input assembler treats a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// What a read outside its buffer does.
    pub out_of_bounds: OutOfBounds,
    /// The most indices (or vertices) one instance may read.
    pub max_vertices: u32,
    /// Whether point and line topologies are assembled; when not, they are refused as not drawn. The draw module,
    /// which rasterizes every kind, sets it; a caller that handles only triangles leaves it off.
    pub points_and_lines: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            out_of_bounds: OutOfBounds::Error,
            max_vertices: 1 << 25,
            points_and_lines: false,
        }
    }
}

/// A vertex buffer as the input assembler reads it.
#[derive(Clone, Debug)]
struct Slot {
    data: Arc<[u8]>,
    stride: u32,
    offset: u32,
}

/// A draw's input assembly: its vertices and triangles, and how to fetch each vertex's input registers.
#[derive(Clone, Debug)]
pub struct InputAssembler {
    /// The draw's label, for messages.
    label: String,
    /// The elements the vertex program reads.
    elements: Vec<Element>,
    /// Every layout element's byte offset in its vertex, `D3D11_APPEND_ALIGNED_ELEMENT` resolved.
    offsets: Vec<u32>,
    /// The generated values it reads.
    generated: Vec<GeneratedInput>,
    /// Input registers per vertex.
    register_count: usize,
    /// The vertex buffers by slot.
    slots: Vec<Option<Slot>>,
    /// The first vertex of `Draw*`, or the base vertex of `DrawIndexed*` as 32-bit unsigned (8.19.1).
    vertex_base: u32,
    /// Instances drawn.
    instance_count: u32,
    /// The first per-instance element.
    start_instance: u32,
    /// The topology of one instance.
    assembly: Assembly,
    /// How reads outside buffers are treated.
    options: Options,
}

impl InputAssembler {
    /// The input assembly of `draw`, with its vertex program's input signature read from its DXBC container.
    pub fn for_draw(draw: &DrawState, options: Options) -> Result<Self> {
        let container = Container::parse(&draw.vertex_shader, Verify::Checksum)
            .map_err(|e| e.within(format!("{} vertex shader", draw.label)))?;
        let signature = container
            .input_signature()
            .map_err(|e| e.within(format!("{} vertex shader", draw.label)))?
            .unwrap_or_else(|| Signature {
                kind: crate::dxbc::signature::SignatureKind::Isgn,
                elements: Vec::new(),
            });
        Self::new(draw, &signature, options)
    }

    /// The input assembly of `draw` for a vertex program with input `signature`.
    pub fn new(draw: &DrawState, signature: &Signature, options: Options) -> Result<Self> {
        let error = |detail: String| draw.error("input assembler", detail);
        let topology = Topology::of(draw.topology).map_err(|d| error(d).at("topology"))?;
        if topology.control_points().is_some() && !options.points_and_lines {
            return Err(error(format!(
                "the topology {} is a patch list, which only a tessellation draw takes (this caller draws triangles \
                 only)",
                draw.topology
            ))
            .at("topology"));
        }
        if topology.kind() != PrimitiveKind::Triangle && !options.points_and_lines {
            return Err(error(format!(
                "the topology {} makes points or lines, which this caller does not take (it asked for triangles \
                 only: Options::points_and_lines)",
                draw.topology
            ))
            .at("topology"));
        }
        let layout = layout::resolve(&draw.input_layout, signature, &error)?;
        let slots: Vec<Option<Slot>> = draw
            .vertex_buffers
            .iter()
            .map(|b| {
                b.as_ref().map(|b| Slot {
                    data: b.data.clone(),
                    stride: b.stride,
                    offset: b.offset,
                })
            })
            .collect();
        let call = draw.call;
        let count = call.count_per_instance();
        if count > options.max_vertices {
            return Err(error(format!(
                "{} reads {count} {} per instance, more than the {} Iridia assembles",
                call.name(),
                if call.is_indexed() { "indices" } else { "vertices" },
                options.max_vertices
            ))
            .at("draw call"));
        }
        let instance_count = call.instance_count();
        if u64::from(count).saturating_mul(u64::from(instance_count)) > 1 << 32 {
            return Err(error(format!(
                "{instance_count} instances of {count} vertices overflow the 2^32 vertices a draw may make \
                 (D3D11_REQ_DRAW_VERTEX_COUNT_2_TO_EXP)"
            ))
            .at("draw call"));
        }
        let (assembly, vertex_base) = match call {
            DrawCall::Draw {
                vertex_count,
                start_vertex,
            }
            | DrawCall::DrawInstanced {
                vertex_count_per_instance: vertex_count,
                start_vertex,
                ..
            } => (Assembly::sequential(topology, vertex_count), start_vertex),
            DrawCall::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            }
            | DrawCall::DrawIndexedInstanced {
                index_count_per_instance: index_count,
                start_index,
                base_vertex,
                ..
            } => {
                let indices = read_indices(draw, index_count, start_index, options, &error)?;
                let cut = draw
                    .index_buffer
                    .as_ref()
                    .map_or(IndexFormat::R32Uint, |b| b.format)
                    .cut_value();
                // 8.19.1: the signed base vertex takes part in unsigned 32-bit arithmetic as its bits
                (
                    Assembly::indexed(topology, indices.into_iter(), cut),
                    base_vertex as u32,
                )
            }
        };
        let assembler = Self {
            label: draw.label.clone(),
            elements: layout.elements,
            offsets: layout.offsets,
            generated: layout.generated,
            register_count: layout.register_count as usize,
            slots,
            vertex_base,
            instance_count,
            start_instance: call.start_instance(),
            assembly,
            options,
        };
        if options.out_of_bounds == OutOfBounds::Error {
            assembler.check_bounds(call)?;
        }
        Ok(assembler)
    }

    /// The vertices shaded per instance.
    pub fn vertices(&self) -> &Vertices {
        &self.assembly.vertices
    }

    /// How many vertices are shaded per instance.
    pub fn vertex_count(&self) -> usize {
        self.assembly.vertices.len()
    }

    /// Instances drawn (1 for a call that is not instanced).
    pub fn instance_count(&self) -> u32 {
        self.instance_count
    }

    /// Input registers per vertex (one past the highest `v#` the program declares).
    pub fn register_count(&self) -> usize {
        self.register_count
    }

    /// The primitives of each instance, leading vertex first, with their primitive IDs.
    pub fn primitives(&self) -> Primitives<'_> {
        self.assembly.primitives()
    }

    /// Every input layout element's byte offset in its vertex, in layout order, `D3D11_APPEND_ALIGNED_ELEMENT`
    /// resolved (4.4.6).
    pub fn element_offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// The options the draw was assembled with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The topology assembled.
    pub fn topology(&self) -> Topology {
        self.assembly.topology
    }

    /// What the pipeline statistics count for the whole draw: vertices read (`IAVertices`, cut indices not
    /// counted) and triangles made (`IAPrimitives`).
    pub fn statistics(&self) -> (u64, u64) {
        let instances = u64::from(self.instance_count);
        let primitives = self.primitive_count();
        (
            self.assembly.vertices_read().saturating_mul(instances),
            primitives.saturating_mul(instances),
        )
    }

    /// Primitives of one instance: points, lines or triangles, or the patches of a patch list (8.10).
    pub fn primitive_count(&self) -> u64 {
        if self.assembly.topology.control_points().is_none() {
            return self.primitives().count() as u64;
        }
        let mut walk = self.primitives();
        let mut points = Vec::new();
        let mut count = 0u64;
        while walk.next_patch(&mut points).is_some() {
            count = count.saturating_add(1);
        }
        count
    }

    /// An error about this draw's input assembler.
    fn error(&self, detail: impl Into<String>) -> Error {
        Error::new(format!("{} input assembler", self.label).trim().to_owned(), detail)
    }

    /// The vertex number an element of vertex `slot` reads per-vertex data of (32-bit arithmetic, 8.19.1).
    fn vertex_number(&self, slot: usize) -> u32 {
        let id = self.assembly.vertices.vertex_id(slot).unwrap_or(0);
        self.vertex_base.wrapping_add(id)
    }

    /// The element number per-instance data of `element` is read at for `instance` (8.4.1's step counter).
    fn instance_number(&self, element: &Element, instance: u32) -> u32 {
        let steps = instance.checked_div(element.step_rate).unwrap_or(0);
        self.start_instance.wrapping_add(steps)
    }

    /// Checks that every read the draw makes is inside its buffer ([`OutOfBounds::Error`]).
    fn check_bounds(&self, call: DrawCall) -> Result<()> {
        // the vertex numbers read: from the least to the greatest, as 64-bit (no wrapping allowed here)
        let vertex_range: Option<(i64, i64)> = match (&self.assembly.vertices, call) {
            (_, _) if self.assembly.vertices.is_empty() => None,
            (Vertices::Sequential { count }, _) => {
                let first = i64::from(self.vertex_base);
                // u32 values: no i64 arithmetic here overflows
                Some((first, first.wrapping_add(i64::from(*count)).wrapping_sub(1)))
            }
            (Vertices::Indexed { values }, _) => {
                let base = i64::from(self.vertex_base as i32);
                let low = values.iter().copied().min().unwrap_or(0);
                let high = values.iter().copied().max().unwrap_or(0);
                Some((base.wrapping_add(i64::from(low)), base.wrapping_add(i64::from(high))))
            }
        };
        if let Some((low, high)) = vertex_range {
            if low < 0 {
                return Err(self
                    .error(format!("the base vertex makes vertex number {low}, below 0"))
                    .at("draw call"));
            }
            if high > i64::from(u32::MAX) {
                return Err(self
                    .error(format!("vertex number {high} is past 2^32 - 1"))
                    .at("draw call"));
            }
        }
        let last_instance = self.instance_count.saturating_sub(1);
        for element in &self.elements {
            let at = format!("{}, vertex buffer slot {}", element.name(), element.slot);
            let Some(slot) = self.slots.get(element.slot as usize).and_then(Option::as_ref) else {
                return Err(self
                    .error("no vertex buffer is bound to the slot the element reads")
                    .at(at));
            };
            if slot.stride > MAX_STRIDE {
                return Err(self
                    .error(format!("a stride of {} bytes, over D3D11's {MAX_STRIDE}", slot.stride))
                    .at(at));
            }
            let alignment = element_alignment(element.size);
            for (what, value) in [
                ("offset in the vertex", element.offset),
                ("stride", slot.stride),
                ("buffer offset", slot.offset),
            ] {
                if !value.is_multiple_of(alignment) {
                    return Err(self
                        .error(format!(
                            "the {what} {value} is not a multiple of the element's alignment {alignment} (4.4.6)"
                        ))
                        .at(at));
                }
            }
            let end_in_vertex = u64::from(element.offset).wrapping_add(u64::from(element.size));
            if slot.stride > 0 && end_in_vertex > u64::from(slot.stride) {
                return Err(self
                    .error(format!(
                        "the element takes bytes {}..{end_in_vertex} of a {}-byte stride",
                        element.offset, slot.stride
                    ))
                    .at(at));
            }
            let numbers: Option<(i64, i64)> = if element.per_instance {
                (self.instance_count > 0 && !self.assembly.vertices.is_empty()).then(|| {
                    let steps = |i: u32| i64::from(i.checked_div(element.step_rate).unwrap_or(0));
                    let start = i64::from(self.start_instance);
                    (start.wrapping_add(steps(0)), start.wrapping_add(steps(last_instance)))
                })
            } else {
                vertex_range.filter(|_| self.instance_count > 0)
            };
            let Some((low, high)) = numbers else {
                continue;
            };
            for number in [low, high] {
                // at most 2^32 + 2^32 * 2^32 + 2^32: i64 holds it, nothing wraps
                let address = i64::from(slot.offset)
                    .wrapping_add(i64::from(slot.stride).wrapping_mul(number))
                    .wrapping_add(i64::from(element.offset));
                let end = address.wrapping_add(i64::from(element.size));
                if end > slot.data.len() as i64 {
                    let which = if element.per_instance {
                        "instance element"
                    } else {
                        "vertex"
                    };
                    return Err(self
                        .error(format!(
                            "{which} {number} reads bytes {address}..{end} of a {}-byte buffer",
                            slot.data.len()
                        ))
                        .at(at));
                }
            }
        }
        Ok(())
    }

    /// Writes the input registers of vertices `slots` (of [`InputAssembler::vertices`]) of instance `instance` into
    /// `out`, which is resized to them and zeroed first.
    pub fn fetch(&self, instance: u32, slots: Range<usize>, out: &mut VertexInputs) -> Result<()> {
        if instance >= self.instance_count {
            return Err(self.error(format!("instance {instance} of {}", self.instance_count)));
        }
        if slots.start > slots.end || slots.end > self.vertex_count() {
            return Err(self.error(format!("vertices {slots:?} of {}", self.vertex_count())));
        }
        let count = slots.len();
        out.reset(self.register_count, count);
        for element in &self.elements {
            let per_instance_number = self.instance_number(element, instance);
            for (lane, slot) in slots.clone().enumerate() {
                let number = if element.per_instance {
                    per_instance_number
                } else {
                    self.vertex_number(slot)
                };
                let texel = self.read_element(element, number);
                out.write(element.register as usize, lane, element.mask, texel);
            }
        }
        for generated in &self.generated {
            for (lane, slot) in slots.clone().enumerate() {
                let value = match generated.value {
                    Generated::VertexId => self.assembly.vertices.vertex_id(slot).unwrap_or(0),
                    Generated::InstanceId => instance,
                };
                out.write_component(generated.register as usize, lane, generated.component, value);
            }
        }
        Ok(())
    }

    /// The input registers of every vertex of instance `instance`.
    pub fn fetch_instance(&self, instance: u32) -> Result<VertexInputs> {
        let mut out = VertexInputs::default();
        self.fetch(instance, 0..self.vertex_count(), &mut out)?;
        Ok(out)
    }

    /// The words `element` reads at element number `number` of its buffer: decoded, or what an out-of-bounds or
    /// unbound read gives (8.19.2, 8.20).
    fn read_element(&self, element: &Element, number: u32) -> Texel {
        let Some(slot) = self.slots.get(element.slot as usize).and_then(Option::as_ref) else {
            return [0; 4]; // 8.20: an unbound slot reads 0 everywhere, no defaults
        };
        // 8.19.1: 32-bit unsigned arithmetic, wrapping
        let address = slot
            .offset
            .wrapping_add(slot.stride.wrapping_mul(number))
            .wrapping_add(element.offset);
        let start = address as usize;
        let bytes = (address >= slot.offset)
            .then(|| start.checked_add(element.size as usize))
            .flatten()
            .and_then(|end| slot.data.get(start..end));
        match bytes.map(|b| element.codec.decode(b)) {
            Some(Ok(texel)) => texel,
            // 8.19.2: 0 in the format's components, the defaults of 19.1.3.3 in the others
            _ => out_of_bounds_texel(element),
        }
    }
}

/// What an out-of-bounds read of `element` returns: the format's missing components' defaults, 0 elsewhere.
fn out_of_bounds_texel(element: &Element) -> Texel {
    // every vertex format is at most 16 bytes; zero bytes decode to 0 in the stored components
    let zeros = [0u8; 16];
    zeros
        .get(..element.size as usize)
        .and_then(|bytes| element.codec.decode(bytes).ok())
        .unwrap_or([0; 4])
}

/// The index values a `DrawIndexed*` reads (8.6.1): `count` from `start`, or an error for an index buffer that does
/// not hold them ([`OutOfBounds::Error`]); out-of-bounds indices read as 0 otherwise (8.19.2, 8.20).
fn read_indices(
    draw: &DrawState,
    count: u32,
    start: u32,
    options: Options,
    error: &dyn Fn(String) -> Error,
) -> Result<Vec<u32>> {
    let Some(buffer) = &draw.index_buffer else {
        if options.out_of_bounds == OutOfBounds::Error {
            return Err(error(format!("{} without an index buffer", draw.call.name())).at("index buffer"));
        }
        return Ok(vec![0; count as usize]);
    };
    let size = buffer.format.bytes();
    if options.out_of_bounds == OutOfBounds::Error {
        if !buffer.offset.is_multiple_of(size) {
            return Err(error(format!(
                "the index buffer offset {} is not a multiple of the index size {size} (4.4.6)",
                buffer.offset
            ))
            .at("index buffer"));
        }
        let last = u64::from(start).wrapping_add(u64::from(count));
        // below 2^33 * 4 + 2^32: nothing wraps
        let end = u64::from(buffer.offset).wrapping_add(last.wrapping_mul(u64::from(size)));
        if end > buffer.data.len() as u64 {
            return Err(error(format!(
                "indices {start}..{} of {} bytes each at offset {} need {end} bytes; the buffer has {}",
                last,
                size,
                buffer.offset,
                buffer.data.len()
            ))
            .at("index buffer"));
        }
    }
    let mut indices = Vec::with_capacity(count as usize);
    // 8.6.1: the address starts at StartIndexLocation * size + offset and steps by size, in 32-bit arithmetic
    let mut address = start.wrapping_mul(size).wrapping_add(buffer.offset);
    for _ in 0..count {
        let bytes = (address >= buffer.offset)
            .then(|| (address as usize).checked_add(size as usize))
            .flatten()
            .and_then(|end| buffer.data.get(address as usize..end));
        let value = match bytes {
            Some(&[a, b]) => u32::from(u16::from_le_bytes([a, b])),
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            _ => 0,
        };
        indices.push(value);
        address = address.wrapping_add(size);
    }
    Ok(indices)
}

/// The input registers of a batch of vertices, register by register: register `r` of every vertex together, as a
/// shader running one lane per vertex reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexInputs {
    /// Registers per vertex.
    registers: usize,
    /// Vertices.
    vertices: usize,
    /// `words[r * vertices + v]` is register `r` of vertex `v`, components x to w.
    words: Vec<[u32; 4]>,
}

impl VertexInputs {
    /// Sizes for `registers` registers of `vertices` vertices, every word 0.
    fn reset(&mut self, registers: usize, vertices: usize) {
        self.registers = registers;
        self.vertices = vertices;
        self.words.clear();
        self.words.resize(registers.saturating_mul(vertices), [0; 4]);
    }

    /// Writes the components of `texel` to register `register` of vertex `lane`: the texel's first component to the
    /// lowest component in `mask`, and so on.
    fn write(&mut self, register: usize, lane: usize, mask: u8, texel: Texel) {
        let lowest = mask.trailing_zeros() as usize;
        let index = register.saturating_mul(self.vertices).saturating_add(lane);
        if let Some(words) = self.words.get_mut(index) {
            for (component, word) in words.iter_mut().enumerate() {
                if mask & (1 << component) != 0
                    && let Some(&value) = texel.get(component.wrapping_sub(lowest))
                {
                    *word = value;
                }
            }
        }
    }

    /// Writes one component of register `register` of vertex `lane`.
    fn write_component(&mut self, register: usize, lane: usize, component: usize, value: u32) {
        let index = register.saturating_mul(self.vertices).saturating_add(lane);
        if let Some(word) = self.words.get_mut(index).and_then(|w| w.get_mut(component)) {
            *word = value;
        }
    }

    /// Registers per vertex.
    pub fn register_count(&self) -> usize {
        self.registers
    }

    /// Vertices held.
    pub fn vertex_count(&self) -> usize {
        self.vertices
    }

    /// Register `register` of every vertex, in vertex order.
    pub fn register(&self, register: usize) -> &[[u32; 4]] {
        let start = register.saturating_mul(self.vertices);
        self.words
            .get(start..start.saturating_add(self.vertices))
            .unwrap_or(&[])
    }

    /// Register `register` of vertex `vertex`.
    pub fn get(&self, vertex: usize, register: usize) -> Option<[u32; 4]> {
        if vertex >= self.vertices {
            return None;
        }
        self.words
            .get(register.saturating_mul(self.vertices).saturating_add(vertex))
            .copied()
    }
}
