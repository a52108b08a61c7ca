//! The tessellation stages of a draw (sections 10 to 12): a hull program runs on each patch of a patch list, the
//! fixed-function tessellator divides the patch's domain as its TessFactors say ([`crate::tessellator`]), and a
//! domain program runs once per domain point; the points, lines or triangles the tessellator makes over those
//! points go on to the geometry program or the rasterizer.
//!
//! - **Control points.** The vertex program's outputs reach the hull program's input control points by semantic
//!   (4.4.3, as a geometry program's inputs: [`super::link::vertex_linkage_for`]). The control point phase runs once
//!   per output control point (10.4, `vOutputControlPointID`); without one, the input control points are the output
//!   control points (10.4, checked by the builder: the counts are equal).
//! - **Patch constants.** Each fork phase, then each join phase (10.5), runs once per patch and instance
//!   (`dcl_hs_*_phase_instance_count`, 10.8.4, 10.9.4), seeing the input and output control points (`vicp`, `vocp`)
//!   and the patch constants written so far (`vpc`); the components a lane writes are its patch's patch constants
//!   (the phases write disjoint parts, 10.5.2). Patches run a chunk at a time: every phase on the chunk's patches,
//!   in that order.
//! - **TessFactors (10.10).** The tessellator reads the patch constants the hull program declares with the
//!   `finalTri*`/`finalQuad*`/`finalLine*` system values; its domain, partitioning, output primitive and maximum
//!   factor are the hull program's declarations (11.7.15, 10.13).
//! - **Domain points (12).** The domain program reads the hull program's output control points (`vicp`) and patch
//!   constants (`vpc`) by semantic (the DS input and patch-constant signatures against the HS output and
//!   patch-constant signatures), `vDomain` (`SV_DomainLocation`: u, v, w for a triangle, u, v, 0 otherwise; 11.5)
//!   and `vPrim`, the patch's `SV_PrimitiveID` (10.7.1), which every primitive of the patch carries on.
//! - Each patch's primitives are the tessellator's, in its order, leading vertex first (11.7.9 leaves the order to
//!   the device; the tessellator is the reference's).
//! - A hull program without a domain program, or a domain program without a hull program, is undefined (11.8.1):
//!   refused. Patches without either go to a geometry program or stream output ([`super::geometry`], 11.8.1.1-2).

use std::sync::Arc;

use crate::dxbc::program::SystemName;
use crate::dxbc::signature::SignatureElement;
use crate::error::ErrorKind;
use crate::input_assembler::{InputAssembler, Primitive, PrimitiveKind};
use crate::shader::{Bindings, Executable, HullPhase, InputRegister, LANES, Machine, OutputRegister, VertexBlock};
use crate::tessellator::{OutputPrimitive, TessFactors, Tessellation, Tessellator};
use crate::{Error, Result};

use super::link::{
    Feed, Linkage, RegisterComponent, declared_mask, first_component, match_semantics, vertex_linkage_for,
};
use super::program::Program;
use super::progress::Reporter;
use super::vertex::{MAX_KEPT_WORDS, ShadedVertices};

/// Patches a chunk runs through every hull phase before the next chunk starts.
const PATCHES_PER_CHUNK: usize = 32;

/// A draw's hull and domain programs, linked to the vertex program before them and to each other, and the
/// tessellator they set up.
#[derive(Debug)]
pub struct TessellationStage {
    /// The hull program.
    pub hull: Arc<Program>,
    /// The domain program.
    pub domain: Arc<Program>,
    /// The tessellator the hull program declares.
    tessellator: Tessellator,
    /// What the vertex program's vertices keep: the components the hull program reads as input control points.
    pub vertex_linkage: Linkage,
    /// Each hull input component (register, component) and its place in the kept words (`None`: reads 0).
    inputs: Vec<(u32, u8, Option<usize>)>,
    /// Registers of an input control point in the patch store (the hull input signature's).
    input_registers: u32,
    /// Registers of an output control point.
    output_registers: u32,
    /// Patch constant registers.
    patch_constant_registers: u32,
    /// Each domain `vicp` component and the hull output control point component that feeds it.
    domain_control_points: Vec<Feed>,
    /// Each domain `vpc` component and the hull patch constant component that feeds it.
    domain_patch_constants: Vec<Feed>,
    /// Where the TessFactors are among the patch constants: edges (or line density, detail), then inside.
    factors: ([Option<RegisterComponent>; 4], [Option<RegisterComponent>; 2]),
}

/// One patch through the hull program: its ID, its input and output control points and its patch constants, each a
/// run of four words a register.
#[derive(Clone, Debug, Default)]
struct Patch {
    id: u32,
    input_points: Vec<u32>,
    output_points: Vec<u32>,
    patch_constants: Vec<u32>,
}

/// The elements of a signature, or none.
fn elements(signature: Option<&crate::dxbc::signature::Signature>) -> &[SignatureElement] {
    signature.map(|s| s.elements.as_slice()).unwrap_or(&[])
}

/// One past the highest register of `elements`.
fn register_count(elements: &[SignatureElement]) -> u32 {
    elements.iter().map(|e| e.register.saturating_add(1)).max().unwrap_or(0)
}

/// The word of a register file (four words a register) at `register`, `component`; 0 outside it.
fn word_at(words: &[u32], register: u32, component: u8) -> u32 {
    let at = usize::try_from(register)
        .unwrap_or(usize::MAX)
        .saturating_mul(4)
        .saturating_add(usize::from(component));
    words.get(at).copied().unwrap_or(0)
}

impl TessellationStage {
    /// Links the hull program's inputs to `vertex`'s outputs and the domain program's inputs to the hull program's
    /// outputs, and sets up the tessellator. `what` names the draw in errors.
    pub fn new(vertex: &Program, hull: Arc<Program>, domain: Arc<Program>, what: &str) -> Result<TessellationStage> {
        let error = |detail: String| Error::new(format!("{what} hs").trim().to_owned(), detail);
        let hs = &hull.executable;
        let ds = &domain.executable;
        let declaration = hs
            .tessellation()
            .ok_or_else(|| error(format!("{} is not a hull program", hs.name())))?;
        let domain_declaration = ds
            .tessellation()
            .filter(|_| ds.hull_phase().is_none())
            .ok_or_else(|| error(format!("{} is not a domain program", ds.name())))?;
        let (Some(patch_domain), Some(partitioning), Some(output)) = (
            declaration.domain,
            declaration.partitioning,
            declaration.output_primitive,
        ) else {
            return Err(error(
                "the hull program declares no tessellator state (22.3.15-17)".into(),
            ));
        };
        if domain_declaration.domain != Some(patch_domain) {
            return Err(error(format!(
                "the hull program's domain is {patch_domain:?}, the domain program's {:?} (12.2: they must match)",
                domain_declaration.domain
            )));
        }
        let tessellator = Tessellator::new(patch_domain, partitioning, output)
            .and_then(|t| t.with_max_tess_factor(declaration.max_tess_factor))
            .map_err(|e| e.within(format!("{what} hs")))?;
        // what every phase reads of the input control points: v[][r] in the control point phase, vicp[][r] after
        let phases: Vec<&Executable> = std::iter::once(hs).chain(hs.patch_phases()).collect();
        let hs_inputs = elements(hull.shader.input_signature.as_ref());
        let read_by_some_phase = |register: u32| {
            phases.iter().fold(0u8, |mask, phase| {
                mask | declared_mask(phase, |r| match r {
                    InputRegister::V(n) | InputRegister::InputControlPoint(n) => Some(n),
                    _ => None,
                })(register)
            })
        };
        // without a control point phase every input component passes through to the domain program
        let pass_through = hs.passes_control_points_through();
        let (vertex_linkage, inputs) = vertex_linkage_for(
            vertex,
            hs_inputs,
            |register| {
                if pass_through {
                    0b1111
                } else {
                    read_by_some_phase(register)
                }
            },
            what,
        );
        let hs_outputs = if pass_through {
            hs_inputs
        } else {
            elements(hull.shader.output_signature.as_ref())
        };
        let hs_patch = elements(hull.shader.patch_constant_signature.as_ref());
        let ds_inputs = elements(domain.shader.input_signature.as_ref());
        let ds_patch = elements(domain.shader.patch_constant_signature.as_ref());
        let domain_control_points = match_semantics(
            hs_outputs,
            ds_inputs,
            declared_mask(ds, |r| match r {
                InputRegister::InputControlPoint(n) => Some(n),
                _ => None,
            }),
        );
        let domain_patch_constants = match_semantics(
            hs_patch,
            ds_patch,
            declared_mask(ds, |r| match r {
                InputRegister::PatchConstant(n) => Some(n),
                _ => None,
            }),
        );
        let mut factors = ([None; 4], [None; 2]);
        let mut patch_constant_registers = register_count(hs_patch);
        for phase in hs.patch_phases() {
            patch_constant_registers = patch_constant_registers
                .max(phase.output_register_count())
                .max(phase.patch_inputs().patch_constant_count);
            for output in phase.outputs() {
                let OutputRegister::O(register) = output.register else {
                    continue;
                };
                let at = Some((register, first_component(output.mask)));
                match output.system {
                    Some(SystemName::FinalTriUEq0EdgeTessFactor | SystemName::FinalQuadUEq0EdgeTessFactor) => {
                        factors.0[0] = at;
                    }
                    Some(SystemName::FinalTriVEq0EdgeTessFactor | SystemName::FinalQuadVEq0EdgeTessFactor) => {
                        factors.0[1] = at;
                    }
                    Some(SystemName::FinalTriWEq0EdgeTessFactor | SystemName::FinalQuadUEq1EdgeTessFactor) => {
                        factors.0[2] = at;
                    }
                    Some(SystemName::FinalQuadVEq1EdgeTessFactor) => factors.0[3] = at,
                    Some(SystemName::FinalTriInsideTessFactor | SystemName::FinalQuadUInsideTessFactor) => {
                        factors.1[0] = at;
                    }
                    Some(SystemName::FinalQuadVInsideTessFactor) => factors.1[1] = at,
                    // an isoline's factors: line density then line detail (10.10.4)
                    Some(SystemName::FinalLineDensityTessFactor) => factors.0[0] = at,
                    Some(SystemName::FinalLineDetailTessFactor) => factors.0[1] = at,
                    _ => {}
                }
            }
        }
        let input_registers = register_count(hs_inputs).max(hs.patch_inputs().input_points.stride);
        let output_registers = if pass_through {
            input_registers
        } else {
            hs.output_register_count()
        };
        Ok(TessellationStage {
            tessellator,
            vertex_linkage,
            inputs,
            input_registers,
            output_registers,
            patch_constant_registers,
            domain_control_points,
            domain_patch_constants,
            factors,
            hull,
            domain,
        })
    }

    /// Checks that `ia` gives the patches the hull program takes: a patch list of its input control point count
    /// (10.2).
    pub(super) fn check_patches(&self, ia: &InputAssembler, what: &str) -> Result<()> {
        let declared = self
            .hull
            .executable
            .tessellation()
            .map_or(0, |t| t.input_control_points);
        match ia.topology().control_points() {
            Some(points) if u32::from(points) == declared => Ok(()),
            Some(points) => Err(Error::new(
                what,
                format!(
                    "the topology gives patches of {points} control points; the hull program takes {declared} (10.2)"
                ),
            )),
            None => Err(Error::new(what, "a draw with a hull program draws a patch list (10.2)")),
        }
    }

    /// Runs the hull program on every patch of `vertices` (one instance's, kept by
    /// [`TessellationStage::vertex_linkage`]), tessellates each and runs the domain program on its points; gives
    /// the domain program's vertices, kept by `linkage`, with the tessellator's primitives over them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &self,
        ia: &InputAssembler,
        vertices: &ShadedVertices,
        hs_bindings: &Bindings<'_>,
        ds_bindings: &Bindings<'_>,
        linkage: &Linkage,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
        what: &str,
    ) -> Result<ShadedVertices> {
        let mut out = ShadedVertices::empty(linkage);
        let mut primitives = Vec::new();
        let mut walk = ia.primitives();
        let mut points = Vec::new();
        let mut chunk: Vec<Patch> = Vec::with_capacity(PATCHES_PER_CHUNK);
        loop {
            chunk.clear();
            while chunk.len() < PATCHES_PER_CHUNK {
                let Some(id) = walk.next_patch(&mut points) else {
                    break;
                };
                chunk.push(self.input_patch(id, &points, vertices));
            }
            if chunk.is_empty() {
                break;
            }
            self.control_point_phase(&mut chunk, hs_bindings, machine, reporter, what)?;
            for phase in self.hull.executable.patch_phases() {
                self.patch_constant_phase(phase, &mut chunk, hs_bindings, machine, reporter, what)?;
            }
            for patch in &chunk {
                let tessellation = self.tessellator.tessellate(&self.factors_of(patch));
                self.domain_points(
                    patch,
                    &tessellation,
                    ds_bindings,
                    linkage,
                    machine,
                    &mut out,
                    &mut primitives,
                    reporter,
                    what,
                )?;
            }
        }
        out.set_primitives(primitives);
        Ok(out)
    }

    /// A patch's input control points, from the kept words of the vertices at `slots`.
    fn input_patch(&self, id: u32, slots: &[u32], vertices: &ShadedVertices) -> Patch {
        let registers = usize::try_from(self.input_registers).unwrap_or(0);
        let mut input_points = vec![0u32; slots.len().saturating_mul(registers).saturating_mul(4)];
        for (point, slot) in slots.iter().enumerate() {
            let kept = vertices.varyings(usize::try_from(*slot).unwrap_or(usize::MAX));
            for &(register, component, place) in &self.inputs {
                let at = point
                    .saturating_mul(registers)
                    .saturating_add(usize::try_from(register).unwrap_or(usize::MAX))
                    .saturating_mul(4)
                    .saturating_add(usize::from(component));
                if let (Some(word), Some(value)) = (input_points.get_mut(at), place.and_then(|p| kept.get(p))) {
                    *word = *value;
                }
            }
        }
        Patch {
            id,
            input_points,
            ..Patch::default()
        }
    }

    /// The control point phase on every patch of `chunk` (10.4): one lane per output control point; or, without
    /// one, the input control points copied.
    fn control_point_phase(
        &self,
        chunk: &mut [Patch],
        bindings: &Bindings<'_>,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
        what: &str,
    ) -> Result<()> {
        let exe = &self.hull.executable;
        let per_point = usize::try_from(self.output_registers).unwrap_or(0).saturating_mul(4);
        if exe.passes_control_points_through() {
            for patch in chunk.iter_mut() {
                patch.output_points = patch.input_points.clone();
            }
            return Ok(());
        }
        let count = exe.tessellation().map_or(0, |t| t.output_control_points);
        for patch in chunk.iter_mut() {
            patch.output_points = vec![0; per_point.saturating_mul(count as usize)];
        }
        let lanes: Vec<(usize, u32)> = (0..chunk.len())
            .flat_map(|patch| (0..count).map(move |point| (patch, point)))
            .collect();
        for batch in lanes.chunks(LANES) {
            machine
                .start_patch_lanes(exe, batch.len())
                .map_err(|e| e.within(what))?;
            for (lane, &(patch, point)) in batch.iter().enumerate() {
                if let Some(patch) = chunk.get(patch) {
                    self.fill_lane(machine, lane, exe, patch, point);
                }
            }
            machine.run(exe, bindings, None).map_err(|e| e.within(what))?;
            reporter.work((batch.len() as u64).saturating_mul(machine.steps().max(1)))?;
            for (lane, &(patch, point)) in batch.iter().enumerate() {
                let Some(patch) = chunk.get_mut(patch) else {
                    continue;
                };
                for register in 0..exe.output_register_count() {
                    let value = machine.output(lane, register);
                    let at = (point as usize)
                        .saturating_mul(per_point)
                        .saturating_add((register as usize).saturating_mul(4));
                    if let Some(words) = patch.output_points.get_mut(at..at.saturating_add(4)) {
                        words.copy_from_slice(&value);
                    }
                }
            }
        }
        Ok(())
    }

    /// A fork or join phase on every patch of `chunk` (10.5): one lane per patch and instance; the components a
    /// lane writes become its patch's patch constants.
    fn patch_constant_phase(
        &self,
        phase: &Executable,
        chunk: &mut [Patch],
        bindings: &Bindings<'_>,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
        what: &str,
    ) -> Result<()> {
        let constants = usize::try_from(self.patch_constant_registers)
            .unwrap_or(0)
            .saturating_mul(4);
        for patch in chunk.iter_mut() {
            patch.patch_constants.resize(constants, 0);
        }
        let instances = phase.phase_instances();
        let lanes: Vec<(usize, u32)> = (0..chunk.len())
            .flat_map(|patch| (0..instances).map(move |instance| (patch, instance)))
            .collect();
        let name = match phase.hull_phase() {
            Some(HullPhase::Join) => "join phase",
            _ => "fork phase",
        };
        for batch in lanes.chunks(LANES) {
            machine
                .start_patch_lanes(phase, batch.len())
                .map_err(|e| e.within(format!("{what} {name}")))?;
            for (lane, &(patch, instance)) in batch.iter().enumerate() {
                if let Some(patch) = chunk.get(patch) {
                    self.fill_lane(machine, lane, phase, patch, instance);
                }
            }
            machine
                .run(phase, bindings, None)
                .map_err(|e| e.within(format!("{what} {name}")))?;
            reporter.work((batch.len() as u64).saturating_mul(machine.steps().max(1)))?;
            for (lane, &(patch, _)) in batch.iter().enumerate() {
                let Some(patch) = chunk.get_mut(patch) else {
                    continue;
                };
                for register in 0..phase.output_register_count() {
                    let written = machine.written(lane, register);
                    let value = machine.output(lane, register);
                    for component in (0u8..4).filter(|c| written >> c & 1 == 1) {
                        let at = (register as usize)
                            .saturating_mul(4)
                            .saturating_add(usize::from(component));
                        if let (Some(word), Some(v)) =
                            (patch.patch_constants.get_mut(at), value.get(usize::from(component)))
                        {
                            *word = *v;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Fills lane `lane` of a hull phase `exe` for `patch`: the input and output control points and the patch
    /// constants where the phase reads them, its system value (`vOutputControlPointID`, `vForkInstanceID` or
    /// `vJoinInstanceID`) and `vPrim`.
    fn fill_lane(&self, machine: &mut Machine, lane: usize, exe: &Executable, patch: &Patch, system: u32) {
        let inputs = exe.patch_inputs();
        self.fill_points(
            machine,
            lane,
            inputs.input_points,
            &patch.input_points,
            self.input_registers,
        );
        self.fill_points(
            machine,
            lane,
            inputs.output_points,
            &patch.output_points,
            self.output_registers,
        );
        for register in 0..inputs.patch_constant_count {
            for component in 0u8..4 {
                let value = word_at(&patch.patch_constants, register, component);
                set_word(
                    machine,
                    lane,
                    inputs.patch_constants.saturating_add(register),
                    component,
                    value,
                );
            }
        }
        set_word(machine, lane, inputs.system, 0, system);
        machine.set_primitive_id(lane, patch.id);
    }

    /// Fills lane `lane`'s control points of `block` from `points` (each `registers` registers of four words).
    fn fill_points(&self, machine: &mut Machine, lane: usize, block: VertexBlock, points: &[u32], registers: u32) {
        for point in 0..block.vertices {
            for register in 0..block.stride {
                let Some(target) = block.register_of(point, register) else {
                    continue;
                };
                let source = point.saturating_mul(registers).saturating_add(register);
                for component in 0u8..4 {
                    let value = if register < registers {
                        word_at(points, source, component)
                    } else {
                        0
                    };
                    set_word(machine, lane, target, component, value);
                }
            }
        }
    }

    /// A patch's TessFactors, from its patch constants (10.10).
    fn factors_of(&self, patch: &Patch) -> TessFactors {
        let value = |at: Option<(u32, u8)>| {
            at.map_or(0.0, |(register, component)| {
                f32::from_bits(word_at(&patch.patch_constants, register, component))
            })
        };
        let (edges, inside) = self.factors;
        TessFactors {
            edges: edges.map(value),
            inside: inside.map(value),
        }
    }

    /// The domain program on every point of a tessellated patch; the vertices go to `out` (kept by `linkage`), the
    /// tessellator's primitives over them to `primitives`.
    #[allow(clippy::too_many_arguments)]
    fn domain_points(
        &self,
        patch: &Patch,
        tessellation: &Tessellation,
        bindings: &Bindings<'_>,
        linkage: &Linkage,
        machine: &mut Machine,
        out: &mut ShadedVertices,
        primitives: &mut Vec<Primitive>,
        reporter: &mut Reporter<'_>,
        what: &str,
    ) -> Result<()> {
        let exe = &self.domain.executable;
        let inputs = exe.patch_inputs();
        let first = u32::try_from(out.len()).unwrap_or(u32::MAX);
        let needed = out
            .len()
            .saturating_add(tessellation.points.len())
            .saturating_mul(ShadedVertices::words_per_vertex(linkage));
        if needed > MAX_KEPT_WORDS {
            return Err(Error::new(
                what,
                format!("the domain program's vertices pass the {MAX_KEPT_WORDS} words Iridia keeps"),
            )
            .kind(ErrorKind::Budget));
        }
        let words = usize::try_from(exe.output_register_count())
            .unwrap_or(0)
            .saturating_mul(4);
        // one lane's output registers at a time
        let mut outputs = vec![0u32; words];
        let point_count = tessellation.points.len();
        let mut start = 0;
        while start < point_count {
            let count = LANES.min(point_count.saturating_sub(start));
            machine
                .start_patch_lanes(exe, count)
                .map_err(|e| e.within(format!("{what} ds")))?;
            for lane in 0..count {
                for &(register, component, source) in &self.domain_control_points {
                    for point in 0..inputs.input_points.vertices {
                        let value = source.map_or(0, |(r, c)| {
                            word_at(
                                &patch.output_points,
                                point.saturating_mul(self.output_registers).saturating_add(r),
                                c,
                            )
                        });
                        if let Some(target) = inputs.input_points.register_of(point, register) {
                            set_word(machine, lane, target, component, value);
                        }
                    }
                }
                for &(register, component, source) in &self.domain_patch_constants {
                    let value = source.map_or(0, |(r, c)| word_at(&patch.patch_constants, r, c));
                    if register < inputs.patch_constant_count {
                        set_word(
                            machine,
                            lane,
                            inputs.patch_constants.saturating_add(register),
                            component,
                            value,
                        );
                    }
                }
                let location = tessellation
                    .domain_location(start.saturating_add(lane))
                    .unwrap_or([0.0; 3]);
                for (component, value) in (0u8..).zip(location) {
                    set_word(machine, lane, inputs.system, component, value.to_bits());
                }
                machine.set_primitive_id(lane, patch.id);
            }
            machine
                .run(exe, bindings, None)
                .map_err(|e| e.within(format!("{what} ds")))?;
            reporter.work((count as u64).saturating_mul(machine.steps().max(1)))?;
            for lane in 0..count {
                for register in 0..exe.output_register_count() {
                    let at = (register as usize).saturating_mul(4);
                    if let Some(slot) = outputs.get_mut(at..at.saturating_add(4)) {
                        slot.copy_from_slice(&machine.output(lane, register));
                    }
                }
                out.push(linkage, |register, component| word_at(&outputs, register, component));
                out.push_domain_location(
                    tessellation
                        .domain_location(start.saturating_add(lane))
                        .unwrap_or([0.0; 3]),
                );
            }
            start = start.saturating_add(count);
        }
        let kind = match tessellation.output {
            OutputPrimitive::Point => PrimitiveKind::Point,
            OutputPrimitive::Line => PrimitiveKind::Line,
            OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => PrimitiveKind::Triangle,
        };
        for indices in tessellation.primitives() {
            let slot = |i: usize| first.saturating_add(indices.get(i).copied().unwrap_or(0));
            let vertices = match kind {
                PrimitiveKind::Point => [slot(0); 3],
                PrimitiveKind::Line => [slot(0), slot(1), slot(1)],
                PrimitiveKind::Triangle => [slot(0), slot(1), slot(2)],
            };
            primitives.push(Primitive {
                vertices,
                id: patch.id,
                kind,
            });
        }
        Ok(())
    }
}

/// Sets word `component` of input register `register` of lane `lane`.
fn set_word(machine: &mut Machine, lane: usize, register: u32, component: u8, value: u32) {
    if let Some(word) = machine
        .input_mut(register, usize::from(component))
        .and_then(|row| row.get_mut(lane))
    {
        *word = value;
    }
}
