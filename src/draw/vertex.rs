//! The vertex stage of a draw: each vertex the input assembler makes is shaded once per instance (9.2 allows the
//! post-transform cache this amounts to), in batches of [`LANES`], and the outputs the rest of the draw reads are kept:
//! the clip-space position, the components the pixel program reads, and the clip and cull distances.

use crate::input_assembler::{InputAssembler, Primitive, VertexInputs};
use crate::shader::{Bindings, Executable, LANES, Machine, Trace};
use crate::{Error, Result};
use std::ops::Range;

use super::arrays::ArrayIndices;
use super::link::Linkage;
use super::progress::Reporter;
use super::stream_output::StreamRecords;

/// The most 32-bit words a draw keeps of its shaded vertices at once (256 MiB): an Iridia limit, so that a call
/// naming 2^25 vertices with a stride of 0 (which no buffer bounds) cannot ask for gigabytes.
pub const MAX_KEPT_WORDS: usize = 1 << 26;

/// The kept outputs of one instance's vertices, by vertex slot (the input assembler's numbering).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShadedVertices {
    /// Clip-space positions (`SV_Position`).
    positions: Vec<[f32; 4]>,
    /// Per vertex, the words of [`Linkage::varyings`] in order.
    varyings: Vec<u32>,
    /// Words per vertex in `varyings`.
    varying_count: usize,
    /// Per vertex, the `SV_ClipDistance` components.
    clip: Vec<f32>,
    /// Distances per vertex in `clip`.
    clip_count: usize,
    /// Per vertex, the `SV_CullDistance` components.
    cull: Vec<f32>,
    /// Distances per vertex in `cull`.
    cull_count: usize,
    /// The instance's primitives over these vertices when a geometry program made them ([`super::geometry`]);
    /// `None`: the input assembler's.
    primitives: Option<Vec<Primitive>>,
    /// By primitive of `primitives`, the indices the geometry program wrote at its leading vertex, when it writes
    /// `SV_RenderTargetArrayIndex` or `SV_ViewportArrayIndex`; `None`: 0 for all.
    array_indices: Option<Vec<ArrayIndices>>,
    /// What the instance sends to stream output, when the draw has a declaration.
    stream_records: Option<StreamRecords>,
    /// Per vertex, the domain point a domain program ran on (tessellation only).
    domain_locations: Vec<[f32; 3]>,
}

/// `count` items of a per-vertex run starting at vertex `slot`.
fn run_of<T>(items: &[T], slot: usize, count: usize) -> &[T] {
    let start = slot.saturating_mul(count);
    items.get(start..start.saturating_add(count)).unwrap_or(&[])
}

impl ShadedVertices {
    /// How many vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The clip-space position of vertex `slot`.
    pub fn position(&self, slot: usize) -> Option<[f32; 4]> {
        self.positions.get(slot).copied()
    }

    /// The kept output words of vertex `slot`, in [`Linkage::varyings`] order.
    pub fn varyings(&self, slot: usize) -> &[u32] {
        run_of(&self.varyings, slot, self.varying_count)
    }

    /// The clip distances of vertex `slot`.
    pub fn clip_distances(&self, slot: usize) -> &[f32] {
        run_of(&self.clip, slot, self.clip_count)
    }

    /// The cull distances of vertex `slot`.
    pub fn cull_distances(&self, slot: usize) -> &[f32] {
        run_of(&self.cull, slot, self.cull_count)
    }

    /// No vertex yet, keeping what `linkage` names.
    pub(super) fn empty(linkage: &Linkage) -> ShadedVertices {
        ShadedVertices {
            varying_count: linkage.varyings.len(),
            clip_count: linkage.clip_distances.len(),
            cull_count: linkage.cull_distances.len(),
            ..ShadedVertices::default()
        }
    }

    /// Adds a vertex whose output register `register`, component `component` is `word(register, component)`,
    /// keeping what `linkage` names.
    pub(super) fn push(&mut self, linkage: &Linkage, word: impl Fn(u32, u8) -> u32) {
        let (position_register, position_components) = linkage.position;
        self.positions
            .push(position_components.map(|c| c.map_or(0., |c| f32::from_bits(word(position_register, c)))));
        for &(register, component) in &linkage.varyings {
            self.varyings.push(word(register, component));
        }
        for &(register, component) in &linkage.clip_distances {
            self.clip.push(f32::from_bits(word(register, component)));
        }
        for &(register, component) in &linkage.cull_distances {
            self.cull.push(f32::from_bits(word(register, component)));
        }
    }

    /// Adds the domain point the last vertex pushed came from (a domain program's vertices).
    pub(super) fn push_domain_location(&mut self, location: [f32; 3]) {
        self.domain_locations.push(location);
    }

    /// The domain point vertex `slot` came from, for a domain program's vertex.
    pub fn domain_location(&self, slot: usize) -> Option<[f32; 3]> {
        self.domain_locations.get(slot).copied()
    }

    /// Sets the primitives a geometry program made of these vertices.
    pub(super) fn set_primitives(&mut self, primitives: Vec<Primitive>) {
        self.primitives = Some(primitives);
    }

    /// Sets the indices the geometry program wrote for each of its primitives (15.8.1, 15.15).
    pub(super) fn set_array_indices(&mut self, indices: Vec<ArrayIndices>) {
        self.array_indices = Some(indices);
    }

    /// The indices of the instance's primitive `ordinal` (its place in the instance's order): what the geometry
    /// program wrote at its leading vertex, 0 where it wrote none.
    pub fn array_indices(&self, ordinal: usize) -> ArrayIndices {
        self.array_indices
            .as_ref()
            .and_then(|all| all.get(ordinal))
            .copied()
            .unwrap_or_default()
    }

    /// Sets what the instance sends to stream output.
    pub(super) fn set_stream_records(&mut self, records: StreamRecords) {
        self.stream_records = Some(records);
    }

    /// What the instance sends to stream output, if the draw has a declaration.
    pub fn stream_records(&self) -> Option<&StreamRecords> {
        self.stream_records.as_ref()
    }

    /// The primitives a geometry program made of these vertices, if one did.
    pub fn generated_primitives(&self) -> Option<&[Primitive]> {
        self.primitives.as_deref()
    }

    /// The words kept per vertex.
    pub fn words_per_vertex(linkage: &Linkage) -> usize {
        4usize
            .saturating_add(linkage.varyings.len())
            .saturating_add(linkage.clip_distances.len())
            .saturating_add(linkage.cull_distances.len())
    }
}

/// Fills `machine` with the input registers of vertices `slots` of `instance` (at most [`LANES`]) and starts the
/// batch.
pub(super) fn load(
    ia: &InputAssembler,
    exe: &Executable,
    instance: u32,
    slots: Range<usize>,
    inputs: &mut VertexInputs,
    machine: &mut Machine,
) -> Result<()> {
    ia.fetch(instance, slots.clone(), inputs)?;
    machine.start_vertices(exe, slots.len())?;
    let registers = u32::try_from(ia.register_count())
        .unwrap_or(u32::MAX)
        .min(exe.input_register_count());
    for register in 0..registers {
        let rows = inputs.register(register as usize);
        for component in 0..4 {
            if let Some(lanes) = machine.input_mut(register, component) {
                for (lane, words) in lanes.iter_mut().zip(rows) {
                    *lane = words.get(component).copied().unwrap_or(0);
                }
            }
        }
    }
    Ok(())
}

/// Runs the vertex program on vertices `slots` of `instance` (at most [`LANES`]), tracing `trace`'s lanes if given;
/// the outputs are left in `machine`. `what` names the stage in errors.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_batch(
    ia: &InputAssembler,
    exe: &Executable,
    bindings: &Bindings<'_>,
    instance: u32,
    slots: Range<usize>,
    inputs: &mut VertexInputs,
    machine: &mut Machine,
    trace: Option<&mut Trace>,
    what: &str,
) -> Result<()> {
    load(ia, exe, instance, slots, inputs, machine).map_err(|e| e.within(what))?;
    machine.run(exe, bindings, trace).map_err(|e| e.within(what))
}

/// An empty [`ShadedVertices`] with room for every vertex of an instance of `ia`, or an error when they would be more
/// than [`MAX_KEPT_WORDS`].
pub(super) fn begin_instance(ia: &InputAssembler, linkage: &Linkage, what: &str) -> Result<ShadedVertices> {
    let count = ia.vertex_count();
    let words = ShadedVertices::words_per_vertex(linkage);
    if count.saturating_mul(words) > MAX_KEPT_WORDS {
        return Err(Error::new(
            what,
            format!(
                "{count} vertices of {words} kept words each are more than the {MAX_KEPT_WORDS} words Iridia keeps"
            ),
        ));
    }
    Ok(ShadedVertices {
        positions: Vec::with_capacity(count),
        varyings: Vec::with_capacity(count.saturating_mul(linkage.varyings.len())),
        varying_count: linkage.varyings.len(),
        clip: Vec::with_capacity(count.saturating_mul(linkage.clip_distances.len())),
        clip_count: linkage.clip_distances.len(),
        cull: Vec::with_capacity(count.saturating_mul(linkage.cull_distances.len())),
        cull_count: linkage.cull_distances.len(),
        primitives: None,
        array_indices: None,
        stream_records: None,
        domain_locations: Vec::new(),
    })
}

/// Shades the next batch (up to [`LANES`]) of `instance`'s vertices after the `shaded.len()` already in `shaded`,
/// and keeps what [`Linkage`] names; `inputs` is scratch space kept between batches. Returns whether every vertex
/// of the instance is shaded.
#[allow(clippy::too_many_arguments)]
pub(super) fn shade_next_batch(
    ia: &InputAssembler,
    exe: &Executable,
    bindings: &Bindings<'_>,
    linkage: &Linkage,
    instance: u32,
    shaded: &mut ShadedVertices,
    inputs: &mut VertexInputs,
    machine: &mut Machine,
    reporter: &mut Reporter<'_>,
    what: &str,
) -> Result<bool> {
    let count = ia.vertex_count();
    let start = shaded.len();
    if start >= count {
        return Ok(true);
    }
    let end = start.saturating_add(LANES).min(count);
    run_batch(ia, exe, bindings, instance, start..end, inputs, machine, None, what)?;
    for lane in 0..end.saturating_sub(start) {
        shaded.push(linkage, |register, component| {
            machine
                .output_lanes(register, usize::from(component))
                .and_then(|lanes| lanes.get(lane))
                .copied()
                .unwrap_or(0)
        });
    }
    let lanes = u64::try_from(end.saturating_sub(start)).unwrap_or(0);
    // the instructions the batch executed (a loop's every iteration), for every lane
    let work_per_lane = machine.steps().max(1);
    reporter.progress.vertices_done = reporter.progress.vertices_done.saturating_add(lanes);
    reporter.work(lanes.saturating_mul(work_per_lane))?;
    Ok(end >= count)
}

/// Shades every vertex of `instance` and keeps what [`Linkage`] names.
#[allow(clippy::too_many_arguments)]
pub(super) fn shade_instance(
    ia: &InputAssembler,
    exe: &Executable,
    bindings: &Bindings<'_>,
    linkage: &Linkage,
    instance: u32,
    machine: &mut Machine,
    reporter: &mut Reporter<'_>,
    what: &str,
) -> Result<ShadedVertices> {
    let mut shaded = begin_instance(ia, linkage, what)?;
    let mut inputs = VertexInputs::default();
    while !shade_next_batch(
        ia,
        exe,
        bindings,
        linkage,
        instance,
        &mut shaded,
        &mut inputs,
        machine,
        reporter,
        what,
    )? {}
    Ok(shaded)
}
