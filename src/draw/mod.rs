//! Draws run: a [`DrawState`] (the state one D3D11 draw call depends on, [`crate::api::draw`], as a capture or a JSON
//! draw description gives it: [`crate::capture`], [`crate::description`]) run on the CPU, pixel for pixel, as the
//! D3D11.3 functional specification says, with what it did ([`DrawStats`]), which pixels' coverage depends on rounding
//! (the ambiguity mask) and, for any pixel, its history ([`PixelHistory`]).
//!
//! # Use
//!
//! [`run_draw`] runs one draw; [`run_sequence`] runs draws in order into the same targets (a description's draws).
//! [`PreparedDraw::new`] checks a draw once and builds everything its stages need; [`PreparedDraw::run`] draws it
//! and [`PreparedDraw::pixel_history`] replays one pixel, reusing the prepared draw's shaded vertices. Programs are
//! parsed and pre-decoded once per distinct blob across draws by a [`ShaderCache`]. A progress callback
//! ([`progress`]) is called as work is done and may cancel the draw.
//!
//! # The draw
//!
//! Every rule is the specification's; the stages' own modules say each in full ([`crate::input_assembler`],
//! [`crate::raster`], [`crate::shader`], [`crate::output_merger`]). What this module adds:
//!
//! - **Programs.** The vertex program and the pixel program (if bound) are parsed with their checksums checked. A
//!   pixel program writing `SV_StencilRef` is refused (the stencil reference is the state's). Every slot a program declares must be bound ([`DrawOptions::unbound`]), checked before anything runs.
//! - **Linking** ([`link`]). A pixel input reads the vertex output of the same semantic (name without case, and
//!   index), component by component; `SV_Position` is the pixel's position, `SV_IsFrontFace` the facing,
//!   `SV_PrimitiveID` the primitive's ID, `SV_SampleIndex` the invocation's sample (0 at pixel frequency). An input
//!   the pixel program declares that no output
//!   carries is an error naming it. Interpolation is the pixel program's declaration: `constant` (and every integer
//!   input) is the provoking vertex's word, `linear` perspective-correct, `linear noperspective` screen-linear;
//!   `centroid` and `sample` choose where it is evaluated (see Multisampling; the centre with one sample a pixel).
//! - **Vertices** ([`vertex`]). Each vertex of the input assembly is shaded once per instance, 32 at a time
//!   (9.2's post-transform cache; the input assembler numbers each distinct index once).
//! - **Tessellation** (`tessellation`, sections 10-12). With hull and domain programs (a patch list topology), each
//!   patch runs through the hull program's phases, the tessellator divides it as its TessFactors say, and the domain
//!   program runs once per domain point; the tessellator's points, lines or triangles (the patch's ID their
//!   `SV_PrimitiveID`) are the instance's primitives from there on.
//! - **Geometry programs** (`geometry`, section 13) run on the instance's primitives (the input assembler's, or the
//!   tessellator's) and their emitted primitives replace them; stream output ([`stream_output`], section 14) writes
//!   the last program's primitives.
//! - **Primitives** in order, instance by instance (8.4, 8.6): points, lines and triangles of every list and strip
//!   topology, the adjacency vertices dropped (no geometry program is run), each set up by the rasterizer's rules for
//!   its kind ([`crate::raster`]: aliased, alpha-antialiased or quadrilateral lines as 15.14.1's table picks, points,
//!   triangles solid or in wireframe). Before setup a primitive is dropped when all its vertices are below 0 (or NaN)
//!   in one `SV_CullDistance` (15.4.2), or when a vertex has a NaN `SV_ClipDistance` (15.4.1). The rasterizer uses
//!   viewport 0 and scissor 0 (a draw without a geometry program selects index 0, 15.8.1), and every view's first
//!   array slice; a geometry program's `SV_ViewportArrayIndex` and `SV_RenderTargetArrayIndex` select them per
//!   primitive ([`arrays`]: an index outside [0, 15] is viewport 0, one past a view's array size its first slice).
//!   A viewport never set is all zeros (15.6) and draws nothing, a scissor never set is empty (15.7). A draw
//!   selecting slices or viewports runs on one thread; its pixel history is of the views' first slices. The depth bias unit comes from the
//!   depth-stencil view's format (15.10; 24-bit UNORM without one). Without targets the pixel grid is the viewport's
//!   extent. [`DrawStats`] counts primitives of every kind where it says triangles.
//! - **Pixels.** The quads of a primitive's piece (a fan triangle, a line) are shaded 8 at a time (a batch holds one
//!   piece's quads). A covered lane whose perspective-interpolated clip distance is below 0 is not rasterized
//!   (15.4.1: the distance is linear in clip space, so this is the plane's value at the centre). Uncovered lanes are
//!   helpers: their inputs are extrapolated on the triangle's plane (a line's parameter) and their results ignored
//!   (16.13). Inputs come from the rasterizer's weights (16.4); `vCoverage` is the lane's coverage. An
//!   alpha-antialiased line's coverage multiplies `o0.a` after the program, before the output merger (3.4.4); the
//!   program's record keeps what it wrote.
//! - **Output merger**, per covered lane in quad order, primitives in order. By default the tests come after the
//!   program (16.12.2): coverage (sample mask, `oMask`, alpha-to-coverage), then depth-stencil with the program's
//!   `oDepth`/conservative depth if it wrote one, else the interpolated depth, then the write. A program declaring
//!   `forceEarlyDepthStencil` (16.12.1) has the sample mask and the depth-stencil tests and writes done before it
//!   runs; a lane that fails runs only as a helper, and depth the program writes is ignored. A discarded lane writes
//!   nothing. Without a pixel program the interpolated depth is tested and written, and no render target is.
//! - **Multisampling (3.5, 16.3, 16.4).** With targets of N samples (all bound targets share N; their quality level,
//!   [`DrawState::sample_quality`], picks the standard or centre positions of 19.2.4) the rasterizer tests each
//!   sample's position, a lane being covered when any sample is. Clip distances and the early tests remove samples
//!   (a lane left with none is a helper). The program runs once per lane (pixel frequency): `linear` inputs at the
//!   centre, `centroid` ones at the centroid of 3.5.5 (the centre when every sample is covered, else the first
//!   covered sample in the SampleMask, lowest index first, as 3.5.5 (2) says; helpers as 3.5.5 (3)); its outputs go
//!   to every covered sample. A program reading `SV_SampleIndex` or declaring a `sample` mode runs at sample
//!   frequency (3.5.4): once per covered sample in the SampleMask, `sample` inputs at that sample, the sample
//!   writing only its own sample. `vCoverage` is the primitive's coverage ANDed with the SampleMask, unaffected by
//!   depth and stencil (16.3.2). After the program the coverage is ANDed with the SampleMask, `oMask` and
//!   alpha-to-coverage, and each covered sample is depth-tested at its own interpolated depth (or `oDepth`, the
//!   same for all), stencil-tested and blended against its own stored value. The counts of [`DrawStats`] count
//!   invocations (a pixel, or a sample at sample frequency), not samples. A fan triangle of a clipped polygon is
//!   shaded on its own, so a pixel a fan edge crosses may be shaded once per fan triangle, each writing its own
//!   samples. The pull-model instructions (`eval_snapped`, `eval_sample_index`, `eval_centroid`; 16.5) evaluate an
//!   attribute from the lane's triangle plane at their location under its declared interpolation, its `centroid`
//!   or `sample` modifier ignored; an index past the pattern (undefined, 16.5.2) evaluates at the centre; a system
//!   value reads as it stands. A ForcedSampleCount (3.5.6) rasterizes at its standard pattern (1: the centre)
//!   whatever the targets' count: a pixel it covers anywhere is shaded, `vCoverage` and the centroid see its
//!   coverage without the SampleMask, and every output sample is covered (then the SampleMask, `oMask` and
//!   alpha-to-coverage apply); what 3.5.6 leaves undefined (another count, multisampled targets with a count above
//!   1, a depth-stencil view, depth output, sample frequency) is refused. Not done: the ambiguity mask per sample (it
//!   marks pixels by their centre).
//!
//! # Ambiguity
//!
//! The ambiguity mask marks the pixels whose coverage depends on how a vertex was rounded to 16.8 fixed point: within
//! one 1/256 step of a snapped edge of a triangle that reaches coverage, or on the other side of it than of the
//! unsnapped edge ([`ambiguity`] defines it exactly). [`crate::compare`] reports a difference there as ambiguous.
//!
//! # Errors
//!
//! A bad draw is an [`crate::Error`] naming the draw (its label) and the binding or stage: an index past the vertex
//! buffer, a stride or offset that overruns, an element past its stride (the input assembler's checks), a pixel
//! input no vertex output carries, targets of different sizes, a missing resource, an unsupported format or
//! topology, a program past its instruction budget ([`DrawOptions::instruction_budget`]). Nothing panics.

pub mod ambiguity;
pub mod arrays;
mod bindings;
pub mod fragment;
mod geometry;
pub mod history;
pub mod link;
pub mod output;
pub mod program;
pub mod progress;
mod run;
pub mod stream_output;
mod tessellation;
pub mod variants;
pub mod vertex;

#[cfg(test)]
mod tests;

pub use crate::api::draw::DrawState;
pub use bindings::StageResources;
pub use fragment::{Fragment, FragmentOutcome, PixelHistory, PixelValues, ProgramTrace, SampleRecord, VertexRecord};
pub use history::{HistoryOptions, PixelOutcome};
pub use output::{DrawOutput, DrawStats, TargetImage, UpdatedTargets, with_targets};
pub use program::{Program, ShaderCache};
pub use progress::{DEFAULT_WORK_LIMIT, Progress, ProgressCallback, WORK_PER_REPORT};
pub use run::{DrawOptions, DrawRun, PreparedDraw, run_draw};
pub use variants::{PROFILES, Profile, Variant, Variants};

use crate::Result;
use crate::api::dispatch::UnorderedAccessViewBinding;
use crate::api::resource::Resource;
use std::sync::Arc;

/// A stream-output buffer of a sequence of draws: as the draws were given it, as the draws so far left it, and its
/// filled size (14.4).
struct Streamed {
    given: Arc<[u8]>,
    now: Arc<[u8]>,
    filled: u64,
}

/// Runs `draws` in order into the same targets: each draw's target views, where they see a resource an earlier draw
/// wrote, see it as that draw left it (views are matched by the resource they were given, as a description's draws
/// share their targets). Returns each draw's output; the last one holds the targets after all. `progress` is called
/// for each draw in turn.
pub fn run_sequence(
    draws: &[DrawState],
    cache: &mut ShaderCache,
    options: DrawOptions,
    mut progress: Option<ProgressCallback<'_>>,
) -> Result<Vec<DrawOutput>> {
    // (the resource as the draws were given it, the resource as the draws so far left it)
    let mut current: Vec<(Arc<Resource>, Arc<Resource>)> = Vec::new();
    let mut outputs = Vec::with_capacity(draws.len());
    // UAVs likewise: (the resource as given, the binding as the draws so far left it)
    let mut uav_now: Vec<(Arc<Resource>, UnorderedAccessViewBinding)> = Vec::new();
    // stream-output buffers likewise: as given, as the draws so far left them, and their filled sizes
    let mut streamed: Vec<Streamed> = Vec::new();
    let find = |streamed: &[Streamed], buffer: &Arc<[u8]>| -> Option<(Arc<[u8]>, u64)> {
        streamed
            .iter()
            .find(|s| Arc::ptr_eq(&s.given, buffer))
            .map(|s| (s.now.clone(), s.filled))
    };
    for draw in draws {
        let mut state = draw.clone();
        for binding in state.uavs.iter_mut().flatten() {
            if let Some((_, now)) = uav_now.iter().find(|(given, _)| Arc::ptr_eq(given, &binding.resource)) {
                *binding = now.clone();
            }
        }
        let mut given_streams: Vec<(usize, Arc<[u8]>)> = Vec::new();
        if let Some(so) = state.stream_output.as_mut() {
            for (slot, target) in so.targets.iter_mut().enumerate() {
                if let Some(target) = target {
                    given_streams.push((slot, target.buffer.clone()));
                    let earlier = find(&streamed, &target.buffer);
                    if target.offset == crate::api::draw::STREAM_OUTPUT_APPEND {
                        let size = earlier.as_ref().map_or(0, |(_, size)| *size);
                        target.offset = u32::try_from(size).unwrap_or(u32::MAX);
                    }
                    if let Some((now, _)) = earlier {
                        target.buffer = now;
                    }
                }
            }
        }
        let substitute = |resource: &mut Arc<Resource>| {
            if let Some((_, now)) = current.iter().find(|(given, _)| Arc::ptr_eq(given, resource)) {
                *resource = now.clone();
            }
        };
        let mut given: Vec<Arc<Resource>> = Vec::new();
        for view in state.render_targets.iter_mut().flatten() {
            given.push(view.resource.clone());
            substitute(&mut view.resource);
        }
        let given_depth = state.depth_stencil_view.as_ref().map(|v| v.resource.clone());
        if let Some(view) = state.depth_stencil_view.as_mut() {
            substitute(&mut view.resource);
        }
        // DrawAuto (8.9): the buffer as the draws left it, as many vertices as its filled size holds
        if let Some(auto) = state.draw_auto.take() {
            let (data, size) = find(&streamed, &auto.buffer).unwrap_or_else(|| (auto.buffer.clone(), 0));
            let vertices = size.checked_div(u64::from(auto.stride)).unwrap_or(0);
            state.call = crate::api::draw::DrawCall::Draw {
                vertex_count: u32::try_from(vertices).unwrap_or(u32::MAX),
                start_vertex: 0,
            };
            let binding = crate::api::draw::VertexBufferBinding {
                data,
                stride: auto.stride,
                offset: 0,
            };
            match state.vertex_buffers.first_mut() {
                Some(slot) => *slot = Some(binding),
                None => state.vertex_buffers.push(Some(binding)),
            }
        }
        let mut forward = |p: &Progress| match progress.as_mut() {
            Some(callback) => callback(p),
            None => std::ops::ControlFlow::Continue(()),
        };
        let output = PreparedDraw::new(&state, cache, options)?.run(Some(&mut forward))?;
        let updated = output.updated_targets(&state)?;
        for (original, view) in given
            .iter()
            .zip(state.render_targets.iter().flatten())
            .map(|(g, v)| (g, &v.resource))
            .chain(
                given_depth
                    .iter()
                    .zip(state.depth_stencil_view.iter().map(|v| &v.resource)),
            )
        {
            if let Some(after) = updated.replacement(view) {
                match current.iter_mut().find(|(g, _)| Arc::ptr_eq(g, original)) {
                    Some(entry) => entry.1 = after,
                    None => current.push((original.clone(), after)),
                }
            }
        }
        // the pixel program's UAVs: the next draw's views see what this one wrote (and the counters carry on)
        for (slot, binding) in draw.uavs.iter().enumerate() {
            let (Some(binding), Some(Some(after))) = (binding, output.uavs.get(slot)) else {
                continue;
            };
            let resource = Arc::new(crate::shader::uav::resource_after(binding, &after.bytes)?);
            let now = UnorderedAccessViewBinding {
                resource,
                desc: binding.desc,
                initial_count: after.counter.or(binding.initial_count),
            };
            match uav_now.iter_mut().find(|(g, _)| Arc::ptr_eq(g, &binding.resource)) {
                Some(entry) => entry.1 = now,
                None => uav_now.push((binding.resource.clone(), now)),
            }
        }
        if let Some(after) = output.stream_output.as_ref() {
            for (slot, original) in given_streams {
                if let Some(bytes) = after.buffers.get(slot).and_then(Option::as_ref) {
                    let now = Streamed {
                        given: original,
                        now: bytes.clone().into(),
                        filled: after.filled(slot),
                    };
                    match streamed.iter_mut().find(|s| Arc::ptr_eq(&s.given, &now.given)) {
                        Some(entry) => *entry = now,
                        None => streamed.push(now),
                    }
                }
            }
        }
        outputs.push(output);
    }
    Ok(outputs)
}
