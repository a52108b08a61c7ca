//! Pixel history: what a draw did at one pixel, fragment by fragment, without redoing the draw.
//!
//! [`PreparedDraw::pixel_history`] walks the draw's triangles in order, rejects those whose screen bounding box misses
//! the pixel (only when every vertex is in front of the eye, so that the box is the triangle's), asks the rasterizer
//! about the pixel alone ([`crate::raster::Triangle::pixel`], the walk's own evaluation), runs the pixel program on
//! that pixel's quad only, and replays the output merger on a one-pixel copy of the targets, in primitive order (the
//! output merger's result at a pixel depends only on that pixel's earlier values). The vertices come from the
//! prepared draw's cache (shaded once for the whole draw); the three of each fragment's triangle are run again, alone,
//! to show all their inputs and outputs. Every step is the full draw's code (its `shade_quads`), so the
//! last fragment's written value is the full draw's texel.

use crate::dxbc::program::Opcode;
use crate::input_assembler::VertexInputs;
use crate::output_merger::{
    CoverageRecord, DepthStencilRecord, DepthStencilTarget, MAX_RENDER_TARGETS, OutputMerger, RenderTarget,
    StoredTexel, Targets, WriteRecord,
};
use crate::shader::{LaneStep, Trace, TraceStep};
use crate::{Error, Result};
use serde::Serialize;

use super::ambiguity;
use super::link::{Interpolation, Linkage, PixelSource};
use super::output::{DrawStats, texel_of};
use super::progress::Reporter;
use super::run::{PreparedDraw, QuadJob, Sink};
use super::vertex::run_batch;

/// What to trace in a pixel history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Trace the pixel program for the pixel's lane, in every fragment.
    pub trace_pixel: bool,
    /// Trace the vertex program for one vertex: (fragment index, corner 0..3 of its triangle).
    pub trace_vertex: Option<(usize, usize)>,
}

/// What happened to a fragment in the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum FragmentOutcome {
    /// A clip distance below 0 at the pixel removed it (15.4.1).
    ClipDistance,
    /// The sample mask, `oMask` or alpha-to-coverage left its sample uncovered.
    CoverageFailed,
    /// The stencil test failed.
    StencilFailed,
    /// The depth test failed.
    DepthFailed,
    /// The pixel program discarded it.
    Discarded,
    /// It reached the targets.
    #[default]
    Written,
}

/// Where a pixel input component came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum InputSource {
    /// A vertex output (`register`, `component`), blended by `mode`.
    Varying {
        /// The vertex program's output register.
        register: u32,
        /// Its component.
        component: u8,
        /// How it was blended.
        mode: Interpolation,
    },
    /// `SV_Position` component (0..4).
    Position(usize),
    /// `SV_IsFrontFace`.
    FrontFace,
    /// `SV_PrimitiveID`.
    PrimitiveId,
    /// 0 (`SV_SampleIndex`, array indices without a geometry program).
    Zero,
}

impl InputSource {
    /// Where `source` comes from, the kept vertex output named by its `o#` register and component.
    pub(super) fn of(source: PixelSource, linkage: &Linkage) -> InputSource {
        match source {
            PixelSource::Varying { varying, mode } => {
                let (register, component) = linkage.varyings.get(varying).copied().unwrap_or((u32::MAX, 0));
                InputSource::Varying {
                    register,
                    component,
                    mode,
                }
            }
            PixelSource::Position(k) => InputSource::Position(k),
            PixelSource::FrontFace => InputSource::FrontFace,
            PixelSource::PrimitiveId => InputSource::PrimitiveId,
            PixelSource::Zero => InputSource::Zero,
        }
    }
}

/// One pixel input component as the program received it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputRecord {
    /// The `v#` register.
    pub register: u32,
    /// The component (0 = x).
    pub component: u8,
    /// The semantic (`TEXCOORD1`).
    pub semantic: String,
    /// Where it came from.
    pub source: InputSource,
    /// The word.
    pub word: u32,
}

/// One executed instruction of a traced lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TracedInstruction {
    /// Its position in the program's instruction list (declarations included).
    pub instruction: u32,
    /// Its token offset.
    pub offset: u32,
    /// Its opcode's name.
    pub opcode: &'static str,
    /// Whether the traced lane executed it.
    pub active: bool,
    /// The lanes of the batch executing it (bit `i` is lane `i`), before and after it.
    pub active_lanes: [u32; 2],
    /// Each value source after swizzle and modifiers.
    pub sources: Vec<[u32; 4]>,
    /// Each destination after the write: (write mask, the register's four words).
    pub destinations: Vec<(u8, [u32; 4])>,
}

/// A program's trace for one lane.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProgramTrace {
    /// The instructions executed while any lane was active, in order.
    pub steps: Vec<TracedInstruction>,
    /// Steps not kept past the trace limit.
    pub dropped: u64,
}

/// The name of an opcode.
fn opcode_name(opcode: Opcode) -> &'static str {
    opcode.name()
}

impl From<Trace> for ProgramTrace {
    fn from(trace: Trace) -> ProgramTrace {
        let step = |s: TraceStep| {
            let lane: Option<LaneStep> = s.lanes.into_iter().next();
            TracedInstruction {
                instruction: s.instruction,
                offset: s.offset,
                opcode: opcode_name(s.opcode),
                active: lane.as_ref().is_some_and(|l| l.active),
                active_lanes: [s.active, s.active_after],
                sources: lane.as_ref().map(|l| l.sources.clone()).unwrap_or_default(),
                destinations: lane
                    .map(|l| l.destinations.iter().map(|d| (d.mask, d.value)).collect())
                    .unwrap_or_default(),
            }
        };
        ProgramTrace {
            steps: trace.steps.into_iter().map(step).collect(),
            dropped: trace.dropped,
        }
    }
}

/// What the pixel program gave for the fragment's lane.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ProgramRecord {
    /// `o0`..`o7` (raw words; zeros where not written).
    pub outputs: [[u32; 4]; MAX_RENDER_TARGETS],
    /// The components of each the lane wrote.
    pub written: [u8; MAX_RENDER_TARGETS],
    /// `oDepth` (or a conservative depth), if written.
    pub depth: Option<f32>,
    /// `oMask`, if written.
    pub coverage_mask: Option<u32>,
    /// Whether the lane discarded.
    pub discarded: bool,
    /// The trace of the lane, if asked for.
    pub trace: Option<ProgramTrace>,
}

/// A vertex of a fragment's triangle: its inputs and every output of the vertex program.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VertexRecord {
    /// Its slot in the input assembly (the order of first use).
    pub slot: usize,
    /// `SV_VertexID`: the index value (indexed draws) or place (8.16).
    pub vertex_id: u32,
    /// The input registers `v0`.. as fetched.
    pub inputs: Vec<[u32; 4]>,
    /// The output registers `o0`.. after the program.
    pub outputs: Vec<[u32; 4]>,
    /// The clip-space position.
    pub position: [f32; 4],
    /// The vertex program's trace, if asked for.
    pub trace: Option<ProgramTrace>,
}

/// The quad a fragment was shaded in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct QuadRecord {
    /// Column of the quad's top-left pixel.
    pub x: u32,
    /// Row of the quad's top-left pixel.
    pub y: u32,
    /// The lanes the triangle covers (bit `i` is lane `i`: top-left, top-right, bottom-left, bottom-right).
    pub covered: u8,
    /// The pixel's lane.
    pub lane: usize,
}

/// One fragment of a triangle at the pixel, and everything that happened to it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Fragment {
    /// Its place among the draw's triangles (over all instances, in drawing order).
    pub primitive_index: u64,
    /// The instance.
    pub instance: u32,
    /// `SV_PrimitiveID`.
    pub primitive_id: u32,
    /// Which fan triangle of the clipped polygon (0 unless clipping cut the triangle).
    pub part: usize,
    /// The triangle's vertices, provoking vertex first.
    pub vertices: [VertexRecord; 3],
    /// Whether the triangle is front facing.
    pub front_facing: bool,
    /// Its quad.
    pub quad: QuadRecord,
    /// `SV_Position`: centre, interpolated depth (bias included), w.
    pub position: [f32; 4],
    /// The depth the output merger tests without `oDepth` (clamped to the viewport).
    pub depth: f32,
    /// The weights of the triangle's vertices for perspective-correct attributes.
    pub perspective_weights: [f64; 3],
    /// The weights for screen-linear attributes.
    pub screen_weights: [f64; 3],
    /// Whether the pixel's coverage by this triangle depends on rounding (see [`crate::draw`]).
    pub ambiguous: bool,
    /// The interpolated clip distances.
    pub clip_distances: Vec<f32>,
    /// Whether a clip distance removed it.
    pub clip_distance_removed: bool,
    /// The pixel program's inputs.
    pub inputs: Vec<InputRecord>,
    /// With early depth-stencil (16.12.1): whether the sample mask covered the sample before the program.
    pub early_sample_mask_covered: Option<bool>,
    /// With early depth-stencil: the tests before the program.
    pub early_depth_stencil: Option<DepthStencilRecord>,
    /// The pixel program's results, if it ran.
    pub program: Option<ProgramRecord>,
    /// The coverage after the program.
    pub coverage: Option<CoverageRecord>,
    /// The depth-stencil tests after the program.
    pub depth_stencil: Option<DepthStencilRecord>,
    /// The render targets' writes (blend inputs, value written).
    pub write: Option<WriteRecord>,
    /// What became of it.
    pub outcome: FragmentOutcome,
}

/// The targets' values at the pixel.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PixelValues {
    /// Each render target's texel, by slot.
    pub render_targets: Vec<Option<StoredTexel>>,
    /// The depth (UNORM depth as a float), if a depth buffer is bound.
    pub depth: Option<f32>,
    /// The stencil value, if the depth buffer has stencil.
    pub stencil: Option<u8>,
}

/// What a draw did at one pixel.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PixelHistory {
    /// The draw's label.
    pub label: String,
    /// The pixel's column.
    pub x: u32,
    /// The pixel's row.
    pub y: u32,
    /// The targets before the draw.
    pub before: PixelValues,
    /// The fragments that reached the pixel, in drawing order.
    pub fragments: Vec<Fragment>,
    /// The targets after the draw.
    pub after: PixelValues,
    /// Triangles whose bounding box missed the pixel, rejected before rasterizing.
    pub rejected_by_bounds: u64,
    /// Triangles set up and asked about the pixel.
    pub rasterized: u64,
}

/// The targets' values at (0, 0) of a one-pixel output merger.
fn values(om: &OutputMerger) -> Result<PixelValues> {
    let targets = om.targets();
    let mut render_targets = Vec::new();
    for target in &targets.render_targets {
        render_targets.push(match target {
            Some(t) => Some(StoredTexel::new(t.texel_bytes(0, 0)?, t.read(0, 0)?, t.shader_type())),
            None => None,
        });
    }
    while render_targets.last().is_some_and(Option::is_none) {
        render_targets.pop();
    }
    let (depth, stencil) = match &targets.depth_stencil {
        Some(d) => {
            let (depth, stencil) = d.read(0, 0)?;
            (Some(depth), d.has_stencil().then_some(stencil))
        }
        None => (None, None),
    };
    Ok(PixelValues {
        render_targets,
        depth,
        stencil,
    })
}

impl PreparedDraw<'_> {
    /// The one-pixel targets holding pixel (`x`, `y`) of the targets before the draw.
    fn pixel_targets(&self, x: u32, y: u32) -> Result<Targets> {
        let state = &*self.state;
        let (places, depth_place) = self.view_places();
        let mut targets = Targets::default();
        for (slot, ((target, view), place)) in targets
            .render_targets
            .iter_mut()
            .zip(&state.render_targets)
            .zip(places)
            .enumerate()
        {
            let (Some(view), Some(format), Some((mip, slice))) =
                (view, self.formats.0.get(slot).copied().flatten(), place)
            else {
                continue;
            };
            let texture = view
                .texture()
                .ok_or_else(|| state.error("output merger", format!("render target {slot} is a buffer view")))?;
            let element = crate::format::TexelCodec::new(format)?.element_bytes();
            let bytes = texel_of(texture, mip, slice, x, y, element)?;
            *target = Some(RenderTarget::new(format, 1, 1, bytes.to_vec())?);
        }
        if let (Some(view), Some(format), Some((mip, slice))) = (&state.depth_stencil_view, self.formats.1, depth_place)
        {
            let texture = view
                .texture()
                .ok_or_else(|| state.error("output merger", "the depth-stencil view sees a buffer"))?;
            let element = crate::format::TexelCodec::new(format)?.element_bytes();
            let bytes = texel_of(texture, mip, slice, x, y, element)?;
            targets.depth_stencil = Some(
                DepthStencilTarget::new(format, 1, 1, bytes.to_vec())?
                    .read_only(view.desc.read_only_depth, view.desc.read_only_stencil),
            );
        }
        Ok(targets)
    }

    /// Whether the screen bounding box of the clip-space `positions` (all in front of the eye, finite) misses pixel
    /// (`x`, `y`)'s centre by more than a pixel; `false` when it cannot tell.
    fn misses(&self, positions: [[f32; 4]; 3], x: u32, y: u32) -> bool {
        if !positions.iter().all(|p| p[3] > 0. && p.iter().all(|c| c.is_finite())) {
            return false;
        }
        let screen = positions.map(|p| self.viewport.to_screen(p));
        let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
        let low_x = screen.iter().map(|s| s[0]).fold(f32::INFINITY, f32::min);
        let high_x = screen.iter().map(|s| s[0]).fold(f32::NEG_INFINITY, f32::max);
        let low_y = screen.iter().map(|s| s[1]).fold(f32::INFINITY, f32::min);
        let high_y = screen.iter().map(|s| s[1]).fold(f32::NEG_INFINITY, f32::max);
        cx < low_x - 1. || cx > high_x + 1. || cy < low_y - 1. || cy > high_y + 1.
    }

    /// The vertex at `slot` of `instance` run alone: its inputs, every output, and the trace if asked for.
    pub fn vertex_record(&self, instance: u32, slot: usize, trace: bool) -> Result<VertexRecord> {
        let what = format!("{} vs", self.state.label);
        let exe = &self.vertex.executable;
        let mut machine = self.machine();
        let mut inputs = VertexInputs::default();
        let mut traced = trace.then(|| Trace::lane(0));
        let bindings = self.vs.bindings();
        run_batch(
            &self.ia,
            exe,
            &bindings,
            instance,
            slot..slot.saturating_add(1),
            &mut inputs,
            &mut machine,
            traced.as_mut(),
            &what,
        )?;
        let outputs: Vec<[u32; 4]> = (0..exe.output_register_count()).map(|r| machine.output(0, r)).collect();
        let (register, components) = self.linkage.position;
        let position = components.map(|c| {
            c.and_then(|c| machine.output(0, register).get(usize::from(c)).copied())
                .map_or(0., f32::from_bits)
        });
        Ok(VertexRecord {
            slot,
            vertex_id: self.ia.vertices().vertex_id(slot).unwrap_or(0),
            inputs: (0..inputs.register_count())
                .map(|r| inputs.get(0, r).unwrap_or_default())
                .collect(),
            outputs,
            position,
            trace: traced.map(Into::into),
        })
    }

    /// The history of pixel (`x`, `y`): every fragment that reached it, in drawing order, with what each stage did
    /// (see the module documentation for how little of the draw this runs).
    pub fn pixel_history(&mut self, x: u32, y: u32, options: HistoryOptions) -> Result<PixelHistory> {
        let [width, height] = self.size;
        if x >= width || y >= height {
            return Err(Error::new(
                self.state.label.as_str(),
                format!("pixel ({x}, {y}) is outside the {width}x{height} targets"),
            ));
        }
        let label = self.state.label.clone();
        let mut reporter = Reporter::new(None, &label);
        let mut om =
            OutputMerger::new(&self.om_state, self.pixel_targets(x, y)?).map_err(|e| e.within(label.as_str()))?;
        om.set_depth_range(self.viewport.min_depth, self.viewport.max_depth);
        let mut history = PixelHistory {
            label: label.clone(),
            x,
            y,
            before: values(&om)?,
            ..PixelHistory::default()
        };
        let mut stats = DrawStats::default();
        let mut vertex_machine = self.machine();
        let mut pixel_machine = self.machine();
        let mut index = 0u64;
        for instance in 0..self.ia.instance_count() {
            let shaded = self.vertices(instance, &mut vertex_machine, &mut reporter)?;
            let this = &*self;
            for primitive in this.ia.primitives() {
                let primitive_index = index;
                index = index.saturating_add(1);
                let Some(context) = this.context(primitive, &shaded) else {
                    continue;
                };
                let positions = context.slots.map(|s| shaded.position(s).unwrap_or_default());
                if this.misses(positions, x, y) {
                    history.rejected_by_bounds = history.rejected_by_bounds.saturating_add(1);
                    continue;
                }
                history.rasterized = history.rasterized.saturating_add(1);
                let Some(triangle) = this.setup(&context, &mut stats) else {
                    continue;
                };
                let ambiguous = ambiguity::at(&triangle, &this.rasterizer, x, y);
                for hit in triangle.pixel(x, y) {
                    let values = *hit.values();
                    let fragment_index = history.fragments.len();
                    let mut fragment = Fragment {
                        primitive_index,
                        instance,
                        primitive_id: context.id,
                        part: hit.quad.part,
                        front_facing: hit.quad.front_facing,
                        quad: QuadRecord {
                            x: hit.quad.x,
                            y: hit.quad.y,
                            covered: hit.quad.covered,
                            lane: hit.lane,
                        },
                        position: values.position,
                        depth: values.depth,
                        perspective_weights: values.perspective,
                        screen_weights: values.linear,
                        ambiguous,
                        ..Fragment::default()
                    };
                    for (corner, (record, &slot)) in fragment.vertices.iter_mut().zip(&context.slots).enumerate() {
                        let trace = options.trace_vertex == Some((fragment_index, corner));
                        *record = this.vertex_record(instance, slot, trace)?;
                    }
                    let mut batch = [QuadJob {
                        quad: hit.quad,
                        covered: hit.quad.covered,
                    }];
                    let mut sink = Sink {
                        om: &mut om,
                        origin: (x, y),
                        probe: Some((hit.lane, &mut fragment)),
                        trace: options.trace_pixel,
                    };
                    this.shade_quads(
                        &mut batch,
                        &context,
                        &mut sink,
                        &mut pixel_machine,
                        &mut stats,
                        &mut reporter,
                    )?;
                    history.fragments.push(fragment);
                }
            }
        }
        history.after = values(&om)?;
        Ok(history)
    }
}
