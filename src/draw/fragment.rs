//! What a pixel history is made of: each fragment a draw's triangles made at one pixel, with the vertices of its
//! triangle, the pixel program's inputs, outputs and trace, the output merger's records and what became of it
//! ([`FragmentOutcome`]), and the targets' values before and after ([`PixelHistory`]). The full draw fills a
//! [`Fragment`] as it goes when it is asked about a pixel (its probe); [`super::history`] gathers them.

use crate::api::limits::RENDER_TARGET_SLOTS;
use crate::dxbc::program::Opcode;
use crate::output_merger::{CoverageRecord, DepthStencilRecord, StoredTexel, WriteRecord};
use crate::shader::{LaneStep, Trace, TraceStep};
use serde::Serialize;

use super::link::{Interpolation, Linkage, PixelSource};
use crate::input_assembler::PrimitiveKind;

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
    /// `SV_SampleIndex`.
    SampleIndex,
    /// 0 (array indices without a geometry program).
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
            PixelSource::SampleIndex => InputSource::SampleIndex,
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
    /// Steps not kept past the trace limit: executed between `steps[..gap]` (the first) and `steps[gap..]` (the
    /// last).
    pub dropped: u64,
    /// Where in `steps` the steps not kept were, when some were not.
    pub gap: Option<usize>,
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
            dropped: trace.dropped,
            gap: trace.gap,
            steps: trace.steps.into_iter().map(step).collect(),
        }
    }
}

/// What the pixel program gave for the fragment's lane.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ProgramRecord {
    /// `o0`..`o7` (raw words; zeros where not written).
    pub outputs: [[u32; 4]; RENDER_TARGET_SLOTS],
    /// The components of each the lane wrote.
    pub written: [u8; RENDER_TARGET_SLOTS],
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
    /// For a domain program's vertex, the domain point it ran on (`SV_DomainLocation`, 12.4); its patch is the
    /// fragment's primitive ID (10.7.1).
    pub domain_location: Option<[f32; 3]>,
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

/// What the output merger did with one sample of a fragment (3.5.1: depth, stencil and colour per sample).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampleRecord {
    /// The sample's index.
    pub sample: u32,
    /// The depth that reached the output merger for it (interpolated at the sample, or the program's `oDepth`).
    pub depth: f32,
    /// The depth-stencil tests (before the program with early depth-stencil, else after it).
    pub depth_stencil: Option<DepthStencilRecord>,
    /// The render targets' writes to the sample.
    pub write: Option<WriteRecord>,
    /// What became of the sample.
    pub outcome: FragmentOutcome,
}

/// One fragment of a primitive (point, line or triangle) at the pixel, and everything that happened to it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Fragment {
    /// Its place among the draw's primitives (over all instances, in drawing order).
    pub primitive_index: u64,
    /// What the primitive is (a wireframe triangle's fragments are a triangle's, drawn by its edges: 15.13).
    pub kind: PrimitiveKind,
    /// The instance.
    pub instance: u32,
    /// `SV_PrimitiveID`.
    pub primitive_id: u32,
    /// Which piece of the primitive ([`crate::raster::Quad::part`]): the fan triangle of the clipped polygon (0
    /// unless clipping cut the triangle), the triangle of a point's square or quadrilateral line, a wireframe edge.
    pub part: usize,
    /// The primitive's vertices, provoking vertex first (a line's start, end, end; a point's vertex three times).
    pub vertices: [VertexRecord; 3],
    /// Whether the primitive is front facing (points and lines always are: 15.12).
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
    /// What became of it: `Written` when any sample was written, else what stopped its first sample.
    pub outcome: FragmentOutcome,
    /// The samples the triangle covers at the pixel (bit `s` is sample `s`; bit 0 alone with one sample a pixel).
    pub covered_samples: u32,
    /// The samples written to the targets.
    pub written_samples: u32,
    /// Per sample that reached the depth-stencil tests or the targets, in the order they did, what the output
    /// merger did (`depth_stencil` and `write` above are the first of these).
    pub samples: Vec<SampleRecord>,
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

impl Fragment {
    /// Whether its primitive covers sample `sample` of the pixel.
    pub fn covers_sample(&self, sample: u32) -> bool {
        self.covered_samples.checked_shr(sample).is_some_and(|m| m & 1 == 1)
    }

    /// The fragment as sample `sample` saw it (3.5.1: depth, stencil and the write are per sample), or `None` when
    /// its primitive does not cover the sample: the depth-stencil record, write and outcome are the sample's own
    /// ([`SampleRecord`]); a covered sample without a record was removed before the output merger: by the program's
    /// discard, by a clip distance when the whole fragment was, else by its coverage (the SampleMask, `oMask`,
    /// alpha-to-coverage or a clip distance at that sample).
    pub fn for_sample(&self, sample: u32) -> Option<Fragment> {
        if !self.covers_sample(sample) {
            return None;
        }
        let bit = 1u32.checked_shl(sample).unwrap_or(0);
        let mut seen = self.clone();
        seen.covered_samples = bit;
        seen.written_samples &= bit;
        seen.samples.retain(|r| r.sample == sample);
        match seen.samples.first() {
            Some(record) => {
                if seen.early_depth_stencil.is_some() {
                    seen.early_depth_stencil = record.depth_stencil;
                } else {
                    seen.depth_stencil = record.depth_stencil;
                }
                seen.write = record.write;
                seen.outcome = record.outcome;
            }
            None => {
                seen.depth_stencil = None;
                seen.write = None;
                seen.outcome = if seen.program.as_ref().is_some_and(|p| p.discarded) {
                    FragmentOutcome::Discarded
                } else if self.outcome == FragmentOutcome::ClipDistance {
                    FragmentOutcome::ClipDistance
                } else {
                    FragmentOutcome::CoverageFailed
                };
            }
        }
        Some(seen)
    }
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
    /// Samples per pixel of the targets (1 without multisampling); `before` and `after` are sample 0's.
    pub samples: u32,
    /// With more than one sample, each sample's values before the draw, sample 0's first (else empty).
    pub before_samples: Vec<PixelValues>,
    /// With more than one sample, each sample's values after the draw (else empty).
    pub after_samples: Vec<PixelValues>,
    /// Triangles whose bounding box missed the pixel, rejected before rasterizing.
    pub rejected_by_bounds: u64,
    /// Triangles set up and asked about the pixel.
    pub rasterized: u64,
}

impl PixelHistory {
    /// The history as sample `sample` saw it: the fragments whose primitive covers it, each as
    /// [`Fragment::for_sample`] gives it, and the sample's values before and after. With one sample a pixel, the
    /// history itself.
    pub fn for_sample(&self, sample: u32) -> PixelHistory {
        if self.samples <= 1 {
            return self.clone();
        }
        let at = |values: &[PixelValues], default: &PixelValues| {
            usize::try_from(sample)
                .ok()
                .and_then(|s| values.get(s))
                .cloned()
                .unwrap_or_else(|| default.clone())
        };
        PixelHistory {
            label: self.label.clone(),
            x: self.x,
            y: self.y,
            before: at(&self.before_samples, &self.before),
            fragments: self.fragments.iter().filter_map(|f| f.for_sample(sample)).collect(),
            after: at(&self.after_samples, &self.after),
            rejected_by_bounds: self.rejected_by_bounds,
            rasterized: self.rasterized,
            samples: self.samples,
            before_samples: self.before_samples.clone(),
            after_samples: self.after_samples.clone(),
        }
    }
}
