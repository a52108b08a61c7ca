//! Pixel history: what a draw did at one pixel, fragment by fragment, without redoing the draw.
//!
//! [`PreparedDraw::pixel_history`] walks the draw's primitives (points, lines, triangles) in order, rejects those
//! whose screen bounding box misses the pixel (only when every vertex is in front of the eye, so that the box is the
//! primitive's), asks the rasterizer about the pixel alone ([`crate::raster::Triangle::pixel`], the walk's own
//! evaluation: a wireframe triangle's edges through the pixel each make a fragment), runs the pixel program on that
//! pixel's quad only, and replays the output merger on a one-pixel copy of the targets, in primitive order (the
//! output merger's result at a pixel depends only on that pixel's earlier values). The vertices come from the
//! prepared draw's cache (shaded once for the whole draw); the three of each fragment's primitive are run again,
//! alone, to show all their inputs and outputs. Every step is the full draw's code (its `shade_quads`), so the
//! last fragment's written value is the full draw's texel.

use crate::input_assembler::VertexInputs;
use crate::output_merger::{DepthStencilTarget, OutputMerger, RenderTarget, StoredTexel, Targets};
use crate::shader::Trace;
use crate::{Error, Result};

use super::ambiguity;
use super::arrays::{view_slices, writes_first_slices};
use super::fragment::{Fragment, PixelHistory, PixelValues, QuadRecord, VertexRecord};
use super::output::{DrawStats, samples_of_texel};
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

/// What a whole draw leaves at one pixel, found by its pixel history ([`PreparedDraw::pixel_outcome`]).
#[derive(Debug)]
pub struct PixelOutcome {
    /// One-pixel targets holding the pixel's texels (every sample) after the draw, in the targets' formats and
    /// layouts: the whole draw's texels there.
    pub targets: Targets,
    /// The pixel's flags in the draw's ambiguity mask, one per mask plane (a plane per sample with multisampled
    /// targets); empty when the draw options turn the mask off.
    pub ambiguous: Vec<bool>,
}

/// The targets' values at sample `sample` of (0, 0) of a one-pixel output merger.
fn values(om: &OutputMerger, sample: u32) -> Result<PixelValues> {
    let targets = om.targets();
    let mut render_targets = Vec::new();
    for target in &targets.render_targets {
        render_targets.push(match target {
            Some(t) => Some(StoredTexel::new(
                t.sample_bytes(0, 0, sample)?,
                t.read_sample(0, 0, sample)?,
                t.shader_type(),
            )),
            None => None,
        });
    }
    while render_targets.last().is_some_and(Option::is_none) {
        render_targets.pop();
    }
    let (depth, stencil) = match &targets.depth_stencil {
        Some(d) => {
            let (depth, stencil) = d.read_sample(0, 0, sample)?;
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

/// Each sample's values of a one-pixel output merger of more than one sample; empty for one.
fn sample_values(om: &OutputMerger) -> Result<Vec<PixelValues>> {
    let samples = om.sample_count();
    if samples <= 1 {
        return Ok(Vec::new());
    }
    (0..samples).map(|s| values(om, s)).collect()
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
            let bytes = samples_of_texel(texture, mip, slice, x, y, element)?;
            let samples = texture.shape.sample_count.max(1);
            *target = Some(RenderTarget::multisampled(format, 1, 1, samples, bytes)?);
        }
        if let (Some(view), Some(format), Some((mip, slice))) = (&state.depth_stencil_view, self.formats.1, depth_place)
        {
            let texture = view
                .texture()
                .ok_or_else(|| state.error("output merger", "the depth-stencil view sees a buffer"))?;
            let element = crate::format::TexelCodec::new(format)?.element_bytes();
            let bytes = samples_of_texel(texture, mip, slice, x, y, element)?;
            let samples = texture.shape.sample_count.max(1);
            targets.depth_stencil = Some(
                DepthStencilTarget::multisampled(format, 1, 1, samples, bytes)?
                    .read_only(view.desc.read_only_depth, view.desc.read_only_stencil),
            );
        }
        Ok(targets)
    }

    /// Whether the screen bounding box of the clip-space `positions` (all in front of the eye, finite) misses pixel
    /// (`x`, `y`)'s centre by more than two pixels (a point's square, a quadrilateral or antialiased line reach
    /// under 1.3 pixels past their vertices); `false` when it cannot tell.
    fn misses(&self, positions: [[f32; 4]; 3], viewport: &crate::api::viewport::Viewport, x: u32, y: u32) -> bool {
        if !positions.iter().all(|p| p[3] > 0. && p.iter().all(|c| c.is_finite())) {
            return false;
        }
        let screen = positions.map(|p| viewport.to_screen(p));
        let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
        let low_x = screen.iter().map(|s| s[0]).fold(f32::INFINITY, f32::min);
        let high_x = screen.iter().map(|s| s[0]).fold(f32::NEG_INFINITY, f32::max);
        let low_y = screen.iter().map(|s| s[1]).fold(f32::INFINITY, f32::min);
        let high_y = screen.iter().map(|s| s[1]).fold(f32::NEG_INFINITY, f32::max);
        cx < low_x - 2. || cx > high_x + 2. || cy < low_y - 2. || cy > high_y + 2.
    }

    /// Every triangle of the draw (by primitive index, with its corners' clip-space positions) whose screen bounds do
    /// not miss pixel (`x`, `y`) (as [`PreparedDraw::pixel_history`] judges them), from the shaded vertices the draw
    /// keeps; points and lines are left out.
    pub fn triangles_near(&mut self, x: u32, y: u32) -> Result<Vec<(u64, [[f32; 4]; 3])>> {
        let label = self.state.label.clone();
        let mut reporter = Reporter::new(None, &label).with_limit(self.options.work_limit);
        let mut machine = self.machine();
        let mut found = Vec::new();
        let mut index = 0u64;
        for instance in 0..self.ia.instance_count() {
            let shaded = self.vertices(instance, &mut machine, &mut reporter)?;
            for (ordinal, primitive) in self.primitives_of(&shaded).enumerate() {
                let primitive_index = index;
                index = index.saturating_add(1);
                if primitive.kind != crate::input_assembler::PrimitiveKind::Triangle {
                    continue;
                }
                let Some(context) = self.context(primitive, ordinal, &shaded) else {
                    continue;
                };
                let positions = context.slots.map(|s| shaded.position(s).unwrap_or_default());
                let viewport = self.rasterizer_for(context.indices.viewport).viewport();
                if !self.misses(positions, viewport, x, y) {
                    found.push((primitive_index, positions));
                }
            }
        }
        Ok(found)
    }

    /// The vertex at `slot` of `instance` run alone: its inputs, every output, and the trace if asked for.
    pub fn vertex_record(&self, instance: u32, slot: usize, trace: bool) -> Result<VertexRecord> {
        // a geometry program's or the domain program's vertex: one the draw made, not the input assembler's
        if let Some((stage, _)) = &self.geometry {
            return self.generated_vertex_record(&stage.program.executable, "gs", instance, slot);
        }
        if let Some((stage, _, _)) = &self.tessellation {
            return self.generated_vertex_record(&stage.domain.executable, "ds", instance, slot);
        }
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
            domain_location: None,
        })
    }

    /// With a geometry program (or tessellation), a primitive's vertices are the ones it emitted (the domain program's
    /// outputs): the record holds the vertex's position and the outputs the draw keeps of it (the components the pixel
    /// program reads, by register), from the instance's vertices the draw cached, and for a domain program's vertex its
    /// domain location; no input assembler vertex, inputs or trace (an invocation's trace is not recorded). `exe` is
    /// the program that made the vertex, `stage` its stage's name in errors.
    fn generated_vertex_record(
        &self,
        exe: &crate::shader::Executable,
        stage: &str,
        instance: u32,
        slot: usize,
    ) -> Result<VertexRecord> {
        let shaded = usize::try_from(instance)
            .ok()
            .and_then(|i| self.cache.get(i))
            .and_then(Option::as_ref)
            .ok_or_else(|| {
                Error::new(
                    format!("{} {stage}", self.state.label),
                    "the vertices the draw made are not kept (they pass the cache)",
                )
                .kind(crate::error::ErrorKind::Unsupported)
            })?;
        let registers = exe.output_register_count();
        let mut outputs = vec![[0u32; 4]; usize::try_from(registers).unwrap_or(0)];
        for (&(register, component), word) in self.linkage.varyings.iter().zip(shaded.varyings(slot)) {
            if let Some(value) = outputs
                .get_mut(usize::try_from(register).unwrap_or(usize::MAX))
                .and_then(|o| o.get_mut(usize::from(component)))
            {
                *value = *word;
            }
        }
        let position = shaded.position(slot).unwrap_or_default();
        let (register, components) = self.linkage.position;
        for (k, c) in components.iter().enumerate() {
            if let (Some(c), Some(value)) = (c, position.get(k))
                && let Some(o) = outputs
                    .get_mut(usize::try_from(register).unwrap_or(usize::MAX))
                    .and_then(|o| o.get_mut(usize::from(*c)))
            {
                *o = value.to_bits();
            }
        }
        Ok(VertexRecord {
            slot,
            vertex_id: 0,
            inputs: Vec::new(),
            outputs,
            position,
            trace: None,
            domain_location: shaded.domain_location(slot),
        })
    }

    /// The history of pixel (`x`, `y`): every fragment that reached it, in drawing order, with what each stage did
    /// (see the module documentation for how little of the draw this runs).
    pub fn pixel_history(&mut self, x: u32, y: u32, options: HistoryOptions) -> Result<PixelHistory> {
        self.pixel_outcome(x, y, options).map(|(history, _)| history)
    }

    /// The history of pixel (`x`, `y`) ([`PreparedDraw::pixel_history`]) and what the whole draw would leave there
    /// ([`PixelOutcome`]), from the same walk: what an inspection needs without drawing the whole draw.
    pub fn pixel_outcome(&mut self, x: u32, y: u32, options: HistoryOptions) -> Result<(PixelHistory, PixelOutcome)> {
        let [width, height] = self.size;
        if x >= width || y >= height {
            return Err(Error::new(
                self.state.label.as_str(),
                format!("pixel ({x}, {y}) is outside the {width}x{height} targets"),
            ));
        }
        let label = self.state.label.clone();
        let mut reporter = Reporter::new(None, &label).with_limit(self.options.work_limit);
        let mut om = self.output_merger(self.pixel_targets(x, y)?, &label)?;
        om.set_depth_range(self.viewport.min_depth, self.viewport.max_depth);
        let mut history = PixelHistory {
            label: label.clone(),
            x,
            y,
            before: values(&om, 0)?,
            samples: om.sample_count().max(1),
            before_samples: sample_values(&om)?,
            ..PixelHistory::default()
        };
        let mut stats = DrawStats::default();
        let mut ambiguous = if self.options.ambiguity {
            vec![false; usize::try_from(self.mask_shape().planes).unwrap_or(1)]
        } else {
            Vec::new()
        };
        let mut vertex_machine = self.machine();
        let mut pixel_machine = self.machine();
        // the pixel program's UAVs as the draw found them (what earlier fragments wrote is not replayed here)
        let uavs = self.pixel_uavs()?;
        let slices = view_slices(&self.state);
        let mut index = 0u64;
        for instance in 0..self.ia.instance_count() {
            let shaded = self.vertices(instance, &mut vertex_machine, &mut reporter)?;
            let this = &*self;
            for (ordinal, primitive) in this.primitives_of(&shaded).enumerate() {
                let primitive_index = index;
                index = index.saturating_add(1);
                let Some(context) = this.context(primitive, ordinal, &shaded) else {
                    continue;
                };
                // the history is of the views' first slices (15.15): a primitive writing others is not in it
                if !writes_first_slices(context.indices.render_target, &slices) {
                    continue;
                }
                let rasterizer = this.rasterizer_for(context.indices.viewport);
                let positions = context.slots.map(|s| shaded.position(s).unwrap_or_default());
                if this.misses(positions, rasterizer.viewport(), x, y) {
                    history.rejected_by_bounds = history.rejected_by_bounds.saturating_add(1);
                    continue;
                }
                this.select_for(&mut om, None, context.indices);
                history.rasterized = history.rasterized.saturating_add(1);
                let Some(triangle) = this.setup(&context, &mut stats) else {
                    continue;
                };
                let ambiguous_here =
                    ambiguity::at_pixel(&triangle, rasterizer, this.mask_shape(), (x, y), &mut ambiguous);
                for hit in triangle.pixel(x, y) {
                    let values = *hit.values();
                    let fragment_index = history.fragments.len();
                    let mut fragment = Fragment {
                        primitive_index,
                        kind: context.kind,
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
                        ambiguous: ambiguous_here,
                        covered_samples: hit.quad.sample_mask(hit.lane),
                        ..Fragment::default()
                    };
                    for (corner, (record, &slot)) in fragment.vertices.iter_mut().zip(&context.slots).enumerate() {
                        let trace = options.trace_vertex == Some((fragment_index, corner));
                        *record = this.vertex_record(instance, slot, trace)?;
                    }
                    let mut batch = [QuadJob::new(hit.quad)];
                    let mut sink = Sink {
                        om: &mut om,
                        origin: (x, y),
                        stripes: None,
                        probe: Some((hit.lane, &mut fragment)),
                        trace: options.trace_pixel,
                        uavs: &uavs,
                    };
                    this.shade_quads(
                        &mut batch,
                        &triangle,
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
        history.after = values(&om, 0)?;
        history.after_samples = sample_values(&om)?;
        let outcome = PixelOutcome {
            targets: om.into_targets(),
            ambiguous,
        };
        Ok((history, outcome))
    }
}
