//! The geometry stage of a draw (section 13): the geometry program runs once per input primitive and instance
//! (`dcl_gsinstances`, 13.2.1), in batches of [`LANES`] invocations in primitive order, instance order within a
//! primitive; the vertices each invocation emits to the rasterized stream are assembled into the primitives of its
//! output topology (13.3: points, or strips restarted at every `cut` and at the invocation's end, partial primitives
//! dropped, 13.7), in invocation order, and kept as the instance's vertices for the rasterizer.
//!
//! - The vertex program's outputs reach the geometry program's `v[vertex][register]` by semantic, as the pixel
//!   program's inputs are linked ([`super::link`]): [`GeometryStage::vertex_linkage`] keeps exactly the vertex
//!   output components the geometry program reads.
//! - A triangle strip's triangle `k` is the vertices `k, k+1, k+2`, odd ones written `k, k+2, k+1` (8.14's leading
//!   vertex first, wound as the even ones), as the input assembler makes a strip's.
//! - `SV_PrimitiveID` in the pixel program is the geometry program's `SV_PrimitiveID` output at the leading vertex
//!   if it writes one, 0 otherwise.
//! - `SV_RenderTargetArrayIndex` and `SV_ViewportArrayIndex` are taken per primitive from its leading vertex (8.14)
//!   and select the array slice of the views and the viewport and scissor it is drawn through ([`super::arrays`]).
//! - Stream 0 is rasterized (13.5.2: the default without a stream-output declaration).
//! - Input primitives are the input assembler's as 13.10's figures give them (adjacency included; a triangle strip
//!   with adjacency's six vertices as [`crate::input_assembler::Primitives::next_for_geometry`] says), the
//!   tessellator's, or without tessellation a patch's control points (11.8.1.1).

use std::sync::Arc;

use crate::dxbc::signature::SystemValue;
use crate::error::ErrorKind;
use crate::input_assembler::{GeometryInput, InputAssembler, MAX_GEOMETRY_INPUT_VERTICES, Primitive, PrimitiveKind};
use crate::shader::{Bindings, LANES, Machine};
use crate::{Error, Result};

use super::arrays::ArrayIndices;
use super::link::{Linkage, declared_mask, first_component, vertex_linkage_for};
use super::program::Program;
use super::progress::Reporter;
use super::stream_output::{StreamOutputPlan, StreamRecords};
use super::vertex::{MAX_KEPT_WORDS, ShadedVertices};

/// A draw's geometry program, linked to the vertex program before it and the pixel program after it.
#[derive(Debug)]
pub struct GeometryStage {
    /// The program.
    pub program: Arc<Program>,
    /// What the vertex program's vertices keep: the components the geometry program reads (position and distances
    /// too, unused).
    pub vertex_linkage: Linkage,
    /// For each of the geometry program's input components (register, component), its place in the kept words of
    /// [`GeometryStage::vertex_linkage`], or `None` when no vertex output carries it (reads 0).
    pub inputs: Vec<(u32, u8, Option<usize>)>,
    /// The output register of `SV_PrimitiveID`, `SV_RenderTargetArrayIndex`, `SV_ViewportArrayIndex`, if written.
    primitive_id: Option<(u32, u8)>,
    render_target_array_index: Option<(u32, u8)>,
    viewport_array_index: Option<(u32, u8)>,
}

impl GeometryStage {
    /// Links `geometry`'s inputs to `vertex`'s outputs (the vertex program's, or with tessellation the domain
    /// program's) by semantic. `what` names the draw in errors.
    pub fn new(vertex: &Program, geometry: Arc<Program>, what: &str) -> Result<GeometryStage> {
        let declared = declared_mask(&geometry.executable, |r| match r {
            crate::shader::InputRegister::V(n) => Some(n),
            _ => None,
        });
        let elements = geometry
            .shader
            .input_signature
            .as_ref()
            .map(|s| s.elements.as_slice())
            .unwrap_or(&[]);
        let (vertex_linkage, inputs) = vertex_linkage_for(vertex, elements, declared, what);
        let gs_outputs = geometry
            .shader
            .output_signature
            .as_ref()
            .map(|s| s.elements.clone())
            .unwrap_or_default();
        let rasterized = |e: &&crate::dxbc::signature::SignatureElement| e.stream == 0;
        let primitive_id = gs_outputs
            .iter()
            .filter(rasterized)
            .find(|e| e.d3d_name() == SystemValue::PRIMITIVE_ID)
            .map(|e| (e.register, first_component(e.mask)));
        let output_of = |name: SystemValue| {
            gs_outputs
                .iter()
                .filter(rasterized)
                .find(|e| e.d3d_name() == name)
                .map(|e| (e.register, first_component(e.mask)))
        };
        Ok(GeometryStage {
            program: geometry,
            vertex_linkage,
            inputs,
            primitive_id,
            render_target_array_index: output_of(SystemValue::RENDER_TARGET_ARRAY_INDEX),
            viewport_array_index: output_of(SystemValue::VIEWPORT_ARRAY_INDEX),
        })
    }

    /// Whether the program writes `SV_RenderTargetArrayIndex` (its primitives may select any array slice, 15.15).
    pub fn writes_render_target_index(&self) -> bool {
        self.render_target_array_index.is_some()
    }

    /// Whether the program writes `SV_ViewportArrayIndex` (its primitives may select any viewport, 15.8.1).
    pub fn writes_viewport_index(&self) -> bool {
        self.viewport_array_index.is_some()
    }

    /// Runs the geometry program over every primitive the input assembler makes of `vertices` (one instance's,
    /// kept by [`GeometryStage::vertex_linkage`]); gives the emitted vertices, kept by `linkage` (the geometry
    /// program's outputs linked to the pixel program), with their primitives.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &self,
        ia: &InputAssembler,
        vertices: &ShadedVertices,
        bindings: &Bindings<'_>,
        linkage: &Linkage,
        stream_output: Option<&StreamOutputPlan>,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
        what: &str,
    ) -> Result<ShadedVertices> {
        // 13.5.2: stream 0 is rasterized unless a stream-output declaration says otherwise
        let rasterized = match stream_output {
            Some(plan) => plan.rasterized.and_then(|s| u8::try_from(s).ok()),
            None => Some(0),
        };
        let mut records = StreamRecords::default();
        let exe = &self.program.executable;
        let declaration = exe
            .geometry()
            .ok_or_else(|| Error::new(what, "the geometry program declares no primitives"))?;
        let instances = declaration.instances.max(1);
        let mut out = ShadedVertices::empty(linkage);
        let mut primitives: Vec<Primitive> = Vec::new();
        let mut indices: Vec<ArrayIndices> = Vec::new();
        // with tessellation, the domain program's vertices come with the tessellator's primitives
        let mut walk = match vertices.generated_primitives() {
            Some(generated) => InputWalk::Generated(generated.iter()),
            None => InputWalk::Assembler(ia.primitives()),
        };
        // invocations waiting for a batch: (input primitive with its geometry-program vertices, instance)
        let mut pending: Vec<(GeometryInput, u32)> = Vec::with_capacity(LANES);
        let mut finished = false;
        while !finished {
            pending.clear();
            while pending.len() < LANES {
                let Some(next) = walk.next() else {
                    finished = true;
                    break;
                };
                let count = next.count;
                if count != declaration.input_vertices as usize {
                    return Err(Error::new(
                        what,
                        format!(
                            "the geometry program takes primitives of {} vertices; the topology gives {count}",
                            declaration.input_vertices
                        ),
                    ));
                }
                for instance in 0..instances {
                    pending.push((next, instance));
                }
                // an instanced program can overfill the batch: run what there is, keep the rest for the next
                if pending.len() >= LANES {
                    break;
                }
            }
            for chunk in pending.chunks(LANES) {
                self.run_batch(
                    chunk,
                    vertices,
                    bindings,
                    linkage,
                    machine,
                    &mut out,
                    (&mut primitives, &mut indices),
                    rasterized,
                    what,
                )?;
                if let Some(plan) = stream_output {
                    stream_records(machine, chunk.len(), plan, &mut records);
                }
                let lanes = chunk.len() as u64;
                reporter.work(lanes.saturating_mul(machine.steps().max(1)))?;
            }
        }
        out.set_primitives(primitives);
        if self.render_target_array_index.is_some() || self.viewport_array_index.is_some() {
            out.set_array_indices(indices);
        }
        if stream_output.is_some() {
            out.set_stream_records(records);
        }
        Ok(out)
    }

    /// One batch of invocations: inputs filled, run, emissions assembled into `out` and `primitives` (with each
    /// primitive's array indices).
    #[allow(clippy::too_many_arguments)]
    fn run_batch(
        &self,
        batch: &[(GeometryInput, u32)],
        vertices: &ShadedVertices,
        bindings: &Bindings<'_>,
        linkage: &Linkage,
        machine: &mut Machine,
        out: &mut ShadedVertices,
        (primitives, indices): (&mut Vec<Primitive>, &mut Vec<ArrayIndices>),
        rasterized: Option<u8>,
        what: &str,
    ) -> Result<()> {
        let exe = &self.program.executable;
        machine.start_primitives(exe, batch.len()).map_err(|e| e.within(what))?;
        for (lane, (input, instance)) in batch.iter().enumerate() {
            for (k, slot) in input.vertices.iter().take(input.count).enumerate() {
                let kept = vertices.varyings(*slot as usize);
                for &(register, component, place) in &self.inputs {
                    let value = place.and_then(|p| kept.get(p)).copied().unwrap_or(0);
                    let k = u32::try_from(k).unwrap_or(u32::MAX);
                    if let Some(row) = machine.vertex_input_mut(exe, k, register, usize::from(component))
                        && let Some(word) = row.get_mut(lane)
                    {
                        *word = value;
                    }
                }
            }
            machine.set_primitive_id(lane, input.primitive.id);
            machine.set_gs_instance(lane, *instance);
        }
        machine.run(exe, bindings, None).map_err(|e| e.within(what))?;
        let topology = exe.geometry().map_or(0, |g| g.output_topology);
        let Some(rasterized) = rasterized else {
            return Ok(());
        };
        let words = usize::try_from(exe.output_register_count())
            .unwrap_or(0)
            .saturating_mul(4);
        for lane in 0..batch.len() {
            // this invocation's strip since the last cut: each vertex's slot in `out`, its SV_PrimitiveID and array
            // indices (the per-primitive values a primitive takes from its leading vertex, 8.14)
            let mut strip: Vec<(u32, u32, ArrayIndices)> = Vec::new();
            let events: Vec<Option<usize>> = machine
                .emissions()
                .iter()
                .filter(|e| usize::from(e.lane) == lane && e.stream == rasterized)
                .map(|e| e.vertex)
                .chain(std::iter::once(None))
                .collect();
            for event in events {
                let Some(first) = event else {
                    strip.clear();
                    continue;
                };
                let outputs = machine.emitted_vertex(first);
                if outputs.len() < words {
                    continue;
                }
                if out
                    .len()
                    .saturating_add(1)
                    .saturating_mul(ShadedVertices::words_per_vertex(linkage))
                    > MAX_KEPT_WORDS
                {
                    return Err(Error::new(
                        what,
                        format!("the geometry program's vertices pass the {MAX_KEPT_WORDS} words Iridia keeps"),
                    )
                    .kind(ErrorKind::Budget));
                }
                let word_of = |register: u32, component: u8| {
                    let at = usize::try_from(register)
                        .unwrap_or(usize::MAX)
                        .saturating_mul(4)
                        .saturating_add(usize::from(component));
                    outputs.get(at).copied().unwrap_or(0)
                };
                let slot = u32::try_from(out.len()).unwrap_or(u32::MAX);
                out.push(linkage, word_of);
                let id = self.primitive_id.map_or(0, |(r, c)| word_of(r, c));
                let array_indices = ArrayIndices {
                    render_target: self.render_target_array_index.map_or(0, |(r, c)| word_of(r, c)),
                    viewport: self.viewport_array_index.map_or(0, |(r, c)| word_of(r, c)),
                };
                strip.push((slot, id, array_indices));
                let Some((corners, kind)) = completed(topology, strip.len()) else {
                    continue;
                };
                let slot_at = |i: usize| strip.get(i).map_or(0, |v| v.0);
                let vertices = corners.map(slot_at);
                let Some(leading) = strip.get(corners[0]) else {
                    continue;
                };
                if self.render_target_array_index.is_some() || self.viewport_array_index.is_some() {
                    indices.push(leading.2);
                }
                primitives.push(Primitive {
                    vertices,
                    id: leading.1,
                    kind,
                });
            }
        }
        Ok(())
    }
}

/// Where a geometry program's input primitives come from: the input assembler, or the tessellator (whose
/// primitives are over the domain program's vertices).
enum InputWalk<'a> {
    Assembler(crate::input_assembler::Primitives<'a>),
    Generated(std::slice::Iter<'a, Primitive>),
}

impl InputWalk<'_> {
    /// The next input primitive with its vertices as the geometry program receives them.
    fn next(&mut self) -> Option<GeometryInput> {
        match self {
            InputWalk::Assembler(walk) => walk.next_for_geometry(),
            InputWalk::Generated(primitives) => primitives.next().map(|primitive| {
                let count = match primitive.kind {
                    PrimitiveKind::Point => 1,
                    PrimitiveKind::Line => 2,
                    PrimitiveKind::Triangle => 3,
                };
                let mut vertices = [0; MAX_GEOMETRY_INPUT_VERTICES];
                for (v, slot) in vertices.iter_mut().zip(primitive.vertices) {
                    *v = slot;
                }
                GeometryInput {
                    primitive: *primitive,
                    vertices,
                    count,
                }
            }),
        }
    }
}

/// The primitives a geometry batch's invocations emitted to the streams `plan` writes, in invocation order, each
/// stream's strips assembled as for the rasterizer (points, lines of a line strip, triangles of a triangle strip with
/// odd ones leading vertex first).
fn stream_records(machine: &Machine, lanes: usize, plan: &StreamOutputPlan, records: &mut StreamRecords) {
    let topology = machine.geometry_topology();
    for lane in 0..lanes {
        for stream in 0u8..4 {
            if plan.slots.get(usize::from(stream)).is_none_or(|s| *s == 0) {
                continue;
            }
            let mut strip: Vec<usize> = Vec::new();
            let events = machine
                .emissions()
                .iter()
                .filter(|e| usize::from(e.lane) == lane && e.stream == stream)
                .map(|e| e.vertex);
            for event in events {
                let Some(first) = event else {
                    strip.clear();
                    continue;
                };
                strip.push(first);
                if let Some((corners, kind)) = completed(topology, strip.len()) {
                    let count = match kind {
                        PrimitiveKind::Point => 1,
                        PrimitiveKind::Line => 2,
                        PrimitiveKind::Triangle => 3,
                    };
                    records.push(plan, stream, count, |v, register, component| {
                        let at = usize::try_from(register)
                            .unwrap_or(usize::MAX)
                            .saturating_mul(4)
                            .saturating_add(usize::from(component));
                        corners
                            .get(v)
                            .and_then(|i| strip.get(*i))
                            .and_then(|first| machine.emitted_vertex(*first).get(at))
                            .copied()
                            .unwrap_or(0)
                    });
                }
            }
        }
    }
}

/// The primitive a strip of `len` vertices of output topology `topology` (`D3D10_SB_PRIMITIVE_TOPOLOGY`: 1 point
/// list, 3 line strip, 5 triangle strip) completes with its last vertex, as the strip's indices, leading vertex first
/// (a point repeated, a line's end repeated as the input assembler writes them), and its kind; `None` when the last
/// vertex completes none. A triangle strip's triangle `k` is `k, k+1, k+2`, odd ones `k, k+2, k+1`.
fn completed(topology: u32, len: usize) -> Option<([usize; 3], PrimitiveKind)> {
    let last = len.checked_sub(1)?;
    match topology {
        1 => Some(([last; 3], PrimitiveKind::Point)),
        3 if len >= 2 => Some(([last.saturating_sub(1), last, last], PrimitiveKind::Line)),
        5 if len >= 3 => {
            let k = len.saturating_sub(3);
            let corners = if k.is_multiple_of(2) {
                [k, k.saturating_add(1), last]
            } else {
                [k, last, k.saturating_add(1)]
            };
            Some((corners, PrimitiveKind::Triangle))
        }
        _ => None,
    }
}
