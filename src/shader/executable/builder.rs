//! The builder: checks a decoded program once — its kind and model, every declaration, every instruction's opcode
//! against the stage and model, every operand against the declarations — and pre-decodes it into an
//! [`Executable`].

use super::declarations::{
    ConstantBufferDeclaration, DepthOutput, GeometryDeclaration, HullPhase, InputDeclaration, InputRegister,
    MAX_GEOMETRY_OUTPUT_VERTICES, MAX_IO_REGISTERS, MAX_PIXEL_OUTPUTS, MAX_TEMPORARIES, OutputDeclaration,
    OutputRegister, PatchInputs, ResourceDeclaration, ResourceKind, SamplerDeclaration, SharedMemoryDeclaration, Stage,
    TessellationDeclaration, UavDeclaration, UavKind, VertexBlock,
};
use super::flow::match_flow;
use super::ir::{
    Destination, DestinationFile, Executable, Flow, Index, IndexableArray, Layout, MemoryOperands, MemoryTarget, Op,
    Scalar, ScalarFile, Source, SourceFile, SourceModifier, TextureOperands, apply_modifier, place,
};
use super::shape::{Mem, Out, Shape, Tex, Ty, introduced_in, pixel_only, shape};
use crate::dxbc::program::{
    Components, CustomData, Declaration, Immediate, Index as IrIndex, Instruction, InterpolationMode, Modifier, Opcode,
    Operand, Program, ProgramKind, RegisterType, ResourceDimension, ReturnType, Selection, SystemName, TessDomain,
    TessOutputPrimitive, TessPartitioning,
};
use crate::shader::binding::{CONSTANT_BUFFER_SLOTS, RESOURCE_SLOTS, SAMPLER_SLOTS, UAV_SLOTS};
use crate::tessellator::{Domain, OutputPrimitive, Partitioning};
use crate::text::mask_letters;
use crate::{Error, Result};

impl Executable {
    /// Checks `program` and pre-decodes it. Fails, naming the program and the instruction, on anything the run loop
    /// could not execute: a program that is not 4.0-5.0, an opcode of another stage or one not implemented, an
    /// operand of the wrong kind, a register past its declaration, unbalanced flow control.
    ///
    /// A hull program becomes one executable per phase (10.6): the one returned is its control point phase (with no
    /// instructions when the program has none, its input control points then passing through, 10.4), holding the
    /// fork and join phases in program order ([`Executable::patch_phases`]).
    pub fn new(program: &Program) -> Result<Executable> {
        if program.kind != ProgramKind::Hull {
            let all = program.instructions.iter().enumerate().collect();
            return Builder::new(program, all, None)?.build();
        }
        build_hull(program)
    }
}

/// Splits a hull program at its phase markers (`hs_decls`, `hs_control_point_phase`, `hs_fork_phase`,
/// `hs_join_phase`, 22.3.21-26) and builds each phase with the declarations before the first phase.
fn build_hull(program: &Program) -> Result<Executable> {
    let name = format!("hs_{}_{}", program.major, program.minor);
    let mut global: Vec<(usize, &Instruction)> = Vec::new();
    let mut phases: Vec<(HullPhase, Vec<(usize, &Instruction)>)> = Vec::new();
    for (index, instruction) in program.instructions.iter().enumerate() {
        let phase = match instruction.opcode {
            Opcode::HsDecls => {
                if !phases.is_empty() {
                    return Err(Error::new(name, "hs_decls after a phase (22.3.21: it comes first)"));
                }
                continue;
            }
            Opcode::HsControlPointPhase => Some(HullPhase::ControlPoint),
            Opcode::HsForkPhase => Some(HullPhase::Fork),
            Opcode::HsJoinPhase => Some(HullPhase::Join),
            _ => None,
        };
        match (phase, phases.last_mut()) {
            (Some(phase), _) => phases.push((phase, Vec::new())),
            (None, Some((_, body))) => body.push((index, instruction)),
            (None, None) => global.push((index, instruction)),
        }
    }
    if let Some((index, instruction)) = global
        .iter()
        .find(|(_, i)| i.declaration.is_none() && !i.opcode.is_declaration())
    {
        return Err(Error::new(
            name,
            "an instruction before the first phase (10.6: hs_decls holds declarations only)",
        )
        .at(place(
            u32::try_from(*index).unwrap_or(u32::MAX),
            instruction.offset,
            instruction.opcode,
        )));
    }
    let order = |phase: HullPhase| match phase {
        HullPhase::ControlPoint => 0,
        HullPhase::Fork => 1,
        HullPhase::Join => 2,
    };
    if phases
        .windows(2)
        .any(|w| matches!(w, [(a, _), (b, _)] if order(*a) > order(*b)))
        || phases.iter().filter(|(p, _)| *p == HullPhase::ControlPoint).count() > 1
    {
        return Err(Error::new(
            name,
            "the phases are out of order: at most one control point phase, then fork phases, then join phases (10.6)",
        ));
    }
    let mut patch_phases = Vec::new();
    let mut control_point = None;
    for (phase, body) in &phases {
        let mut all = global.clone();
        all.extend_from_slice(body);
        let exe = Builder::new(program, all, Some(*phase))?.build()?;
        if *phase == HullPhase::ControlPoint {
            control_point = Some(exe);
        } else {
            patch_phases.push(exe);
        }
    }
    let mut main = match control_point {
        Some(exe) => exe,
        None => {
            let mut exe = Builder::new(program, global.clone(), Some(HullPhase::ControlPoint))?.build()?;
            exe.pass_through = true;
            exe
        }
    };
    let declaration = main.tessellation.unwrap_or(TessellationDeclaration {
        input_control_points: 0,
        output_control_points: 0,
        domain: None,
        partitioning: None,
        output_primitive: None,
        max_tess_factor: 64.0,
    });
    if declaration.domain.is_none() || declaration.partitioning.is_none() || declaration.output_primitive.is_none() {
        return Err(Error::new(
            main.name.clone(),
            "a hull program declares its tessellator domain, partitioning and output primitive (22.3.15-17)",
        ));
    }
    if main.pass_through && declaration.input_control_points != declaration.output_control_points {
        return Err(Error::new(
            main.name.clone(),
            format!(
                "without a control point phase the {} input control points pass through, but {} output control points are declared (10.4)",
                declaration.input_control_points, declaration.output_control_points
            ),
        ));
    }
    main.patch_phases = patch_phases;
    Ok(main)
}

/// Checks a program and builds its [`Executable`].
struct Builder<'p> {
    program: &'p Program,
    /// The instructions to build, each with its position in the program (a hull phase's: the declarations before
    /// the first phase, then the phase's).
    instructions: Vec<(usize, &'p Instruction)>,
    /// The hull phase built, for a hull program.
    phase: Option<HullPhase>,
    name: String,
    stage: Stage,
    temps: u32,
    arrays: Vec<IndexableArray>,
    icb: Option<Vec<[u32; 4]>>,
    inputs: Vec<InputDeclaration>,
    outputs: Vec<OutputDeclaration>,
    constant_buffers: Vec<ConstantBufferDeclaration>,
    resources: Vec<ResourceDeclaration>,
    samplers: Vec<SamplerDeclaration>,
    depth_output: Option<DepthOutput>,
    input_registers: u32,
    output_registers: u32,
    uavs: Vec<UavDeclaration>,
    shared: Vec<SharedMemoryDeclaration>,
    thread_group: Option<[u32; 3]>,
    geometry: GeometryDeclaration,
    /// The stream the next output declarations belong to (`dcl_stream`).
    current_stream: u8,
    /// The vertex count a geometry program's `v[N][r]` declarations state.
    declared_vertices: Option<u32>,
    /// What a hull or domain program declares about patches and the tessellator.
    tessellation: TessellationDeclaration,
    /// Registers of the input control points, output control points and patch constants a hull phase or domain
    /// program declares (one past the highest).
    control_point_registers: u32,
    output_point_registers: u32,
    patch_constant_registers: u32,
    /// A fork or join phase's instance count (1 when not declared).
    instances: u32,
    /// Where the inputs of a hull phase or domain program sit (set once the declarations are read).
    patch: PatchInputs,
}

/// The most bytes of thread group shared memory a compute program declares (18.6.3:
/// `D3D11_CS_TGSM_REGISTER_COUNT` 8192 32-bit registers, 32 KiB).
pub const MAX_SHARED_MEMORY_BYTES: u32 = 32768;

/// The largest X and Y, the largest Z and the most threads of a thread group (18.6.4): 1024, 64 and 1024 for
/// `cs_5_0`; 768, 1 and 768 for `cs_4_x`.
fn thread_group_limits(model: u32) -> (u32, u32, u32) {
    if model >= 50 { (1024, 64, 1024) } else { (768, 1, 768) }
}

impl<'p> Builder<'p> {
    fn new(
        program: &'p Program,
        instructions: Vec<(usize, &'p Instruction)>,
        phase: Option<HullPhase>,
    ) -> Result<Self> {
        let prefix = match program.kind {
            ProgramKind::Vertex => "vs",
            ProgramKind::Pixel => "ps",
            ProgramKind::Geometry => "gs",
            ProgramKind::Hull => "hs",
            ProgramKind::Domain => "ds",
            ProgramKind::Compute => "cs",
        };
        let name = format!("{prefix}_{}_{}", program.major, program.minor);
        let stage = match program.kind {
            ProgramKind::Vertex => Stage::Vertex,
            ProgramKind::Pixel => Stage::Pixel,
            ProgramKind::Compute => Stage::Compute,
            ProgramKind::Geometry => Stage::Geometry,
            ProgramKind::Hull => Stage::Hull,
            ProgramKind::Domain => Stage::Domain,
        };
        if stage == Stage::Hull && phase.is_none() {
            return Err(Error::new(name, "a hull program is built phase by phase"));
        }
        if !matches!((program.major, program.minor), (4, 0) | (4, 1) | (5, 0)) {
            return Err(Error::new(
                name,
                "only shader models 4.0, 4.1 and 5.0 run in this interpreter",
            ));
        }
        Ok(Self {
            program,
            instructions,
            phase,
            name,
            stage,
            temps: 0,
            arrays: Vec::new(),
            icb: None,
            inputs: Vec::new(),
            outputs: Vec::new(),
            constant_buffers: Vec::new(),
            resources: Vec::new(),
            samplers: Vec::new(),
            depth_output: None,
            input_registers: 0,
            output_registers: 0,
            uavs: Vec::new(),
            shared: Vec::new(),
            thread_group: None,
            geometry: GeometryDeclaration {
                input_vertices: 0,
                input_primitive: 0,
                output_topology: 0,
                max_vertices: 0,
                instances: 1,
                streams: 0,
            },
            current_stream: 0,
            declared_vertices: None,
            tessellation: TessellationDeclaration {
                input_control_points: 0,
                output_control_points: 0,
                domain: None,
                partitioning: None,
                output_primitive: None,
                max_tess_factor: 64.0,
            },
            control_point_registers: 0,
            output_point_registers: 0,
            patch_constant_registers: 0,
            instances: 1,
            patch: PatchInputs::default(),
        })
    }

    fn model(&self) -> u32 {
        u32::from(self.program.major)
            .saturating_mul(10)
            .saturating_add(u32::from(self.program.minor))
    }

    fn error(&self, index: usize, instruction: &Instruction, detail: impl Into<String>) -> Error {
        Error::new(self.name.clone(), detail).at(place(
            u32::try_from(index).unwrap_or(u32::MAX),
            instruction.offset,
            instruction.opcode,
        ))
    }

    fn build(mut self) -> Result<Executable> {
        let instructions = std::mem::take(&mut self.instructions);
        for &(index, instruction) in &instructions {
            if let Some(declaration) = &instruction.declaration {
                self.declare(index, instruction, declaration)?;
            }
        }
        self.patch = self.patch_inputs();
        let mut ops = Vec::new();
        for &(index, instruction) in &instructions {
            if instruction.declaration.is_some() || instruction.opcode.is_declaration() {
                continue;
            }
            ops.push(self.op(index, instruction)?);
        }
        if self.stage == Stage::Geometry {
            let g = self.geometry;
            if g.input_vertices == 0 || g.output_topology == 0 {
                return Err(Error::new(
                    self.name.clone(),
                    "a geometry program needs dcl_inputprimitive and dcl_outputtopology (22.3.6, 22.3.8)",
                ));
            }
            // 13.3: "The total amount of data that a Geometry Shader invocation can produce is 1024 32-bit values"
            // (one stream: the declared output components times dcl_maxout)
            let components: u32 = self
                .outputs
                .iter()
                .filter(|o| matches!(o.register, OutputRegister::O(_)))
                .map(|o| o.mask.count_ones())
                .fold(0, u32::saturating_add);
            if g.streams.count_ones() <= 1 && components.saturating_mul(g.max_vertices) > 1024 {
                return Err(Error::new(
                    self.name.clone(),
                    format!(
                        "dcl_maxout {} vertices of {components} output components pass the 1024 values an invocation may emit (13.3)",
                        g.max_vertices
                    ),
                ));
            }
            if let Some(declared) = self.declared_vertices
                && declared != g.input_vertices
            {
                return Err(Error::new(
                    self.name.clone(),
                    format!(
                        "its inputs declare {declared} vertices, dcl_inputprimitive {}",
                        g.input_vertices
                    ),
                ));
            }
        }
        if self.stage == Stage::Compute && self.thread_group.is_none() {
            return Err(Error::new(
                self.name.clone(),
                "a compute program needs dcl_thread_group (18.6.4)",
            ));
        }
        let switches = match_flow(&self.name, &mut ops)?;
        let temps = usize::try_from(self.temps).unwrap_or(0).saturating_mul(4);
        let indexable = self
            .arrays
            .iter()
            .map(|a| usize::try_from(a.size).unwrap_or(0).saturating_mul(4))
            .fold(0usize, usize::saturating_add);
        // A compute program keeps its four thread-ID inputs in v0..v3 (`InputRegister::thread_row`).
        let input_rows = match self.stage {
            Stage::Compute => 4,
            // v[vertex][register]: every vertex's registers, vertex after vertex.
            Stage::Geometry => self.geometry.input_vertices.saturating_mul(self.input_registers),
            // control points, patch constants, then the lane's system value
            Stage::Hull | Stage::Domain => self.patch.system.saturating_add(1),
            _ => self.input_registers,
        };
        let layout = Layout {
            temps,
            indexable,
            inputs: usize::try_from(input_rows).unwrap_or(0).saturating_mul(4),
            outputs: usize::try_from(self.output_registers).unwrap_or(0).saturating_mul(4),
        };
        Ok(Executable {
            name: self.name,
            stage: self.stage,
            ops,
            layout,
            arrays: self.arrays,
            icb: self.icb.unwrap_or_default(),
            switches,
            inputs: self.inputs,
            outputs: self.outputs,
            constant_buffers: self.constant_buffers,
            resources: self.resources,
            samplers: self.samplers,
            depth_output: self.depth_output,
            input_registers: self.input_registers,
            output_registers: self.output_registers,
            uavs: self.uavs,
            shared: self.shared,
            thread_group: self.thread_group,
            geometry: (self.stage == Stage::Geometry).then_some(self.geometry),
            tessellation: matches!(self.stage, Stage::Hull | Stage::Domain).then_some(self.tessellation),
            hull_phase: self.phase,
            instances: self.instances,
            patch: self.patch,
            patch_phases: Vec::new(),
            pass_through: false,
        })
    }

    /// Where a hull phase's or domain program's inputs sit in the input file: the input control points (a control
    /// point phase's `v[][]`, else `vicp[][]`), the output control points, the patch constants, the system value.
    fn patch_inputs(&self) -> PatchInputs {
        let declaration = self.tessellation;
        let control_point_registers = if self.phase == Some(HullPhase::ControlPoint) {
            self.input_registers
        } else {
            self.control_point_registers
        };
        let input_points = VertexBlock {
            first: 0,
            stride: control_point_registers,
            vertices: declaration.input_control_points,
        };
        let output_points = VertexBlock {
            first: input_points.end(),
            stride: self.output_point_registers,
            vertices: declaration.output_control_points,
        };
        let patch_constants = output_points.end();
        PatchInputs {
            input_points,
            output_points,
            patch_constants,
            patch_constant_count: self.patch_constant_registers,
            system: patch_constants.saturating_add(self.patch_constant_registers),
        }
    }

    // -- declarations ---------------------------------------------------------------------------------------

    fn declare(&mut self, index: usize, instruction: &Instruction, declaration: &Declaration) -> Result<()> {
        let err = |detail: String| self.error(index, instruction, detail);
        match declaration {
            Declaration::GlobalFlags(_) | Declaration::IndexRange { .. } => {}
            Declaration::CustomData(CustomData::ImmediateConstantBuffer(vectors)) => {
                if self.icb.is_some() {
                    return Err(err(
                        "a second immediate constant buffer (7.5.1 allows one per program)".into()
                    ));
                }
                self.icb = Some(vectors.clone());
            }
            Declaration::CustomData(_) => {}
            Declaration::Temps(count) => {
                if *count > MAX_TEMPORARIES {
                    return Err(err(format!(
                        "dcl_temps {count} declares more than the {MAX_TEMPORARIES} temporaries 7.3 allows"
                    )));
                }
                self.temps = *count;
            }
            Declaration::IndexableTemp {
                register,
                size,
                components,
            } => {
                if !(1..=4).contains(components) {
                    return Err(err(format!(
                        "x{register} has {components} components; 1 to 4 are allowed"
                    )));
                }
                if self.arrays.iter().any(|a| a.number == *register) {
                    return Err(err(format!("x{register} is declared twice")));
                }
                let used: u32 = self.arrays.iter().map(|a| a.size).fold(self.temps, u32::saturating_add);
                if used.saturating_add(*size) > MAX_TEMPORARIES {
                    return Err(err(format!(
                        "x{register}[{size}] takes the temporaries past the {MAX_TEMPORARIES} 7.3 allows"
                    )));
                }
                let row = self
                    .arrays
                    .iter()
                    .map(|a| a.size.saturating_mul(4))
                    .fold(0u32, u32::saturating_add);
                self.arrays.push(IndexableArray {
                    number: *register,
                    row,
                    size: *size,
                });
            }
            Declaration::ConstantBuffer {
                register,
                dynamic_indexed,
            } => {
                let (slot, size) = match register.indices.as_slice() {
                    [IrIndex::Immediate32(slot), IrIndex::Immediate32(size)] => (*slot, *size),
                    _ => return Err(err("a constant buffer declaration needs cb#[size]".into())),
                };
                if usize::try_from(slot).map_or(true, |s| s >= CONSTANT_BUFFER_SLOTS) {
                    return Err(err(format!(
                        "cb{slot} is past the {CONSTANT_BUFFER_SLOTS} constant buffer slots"
                    )));
                }
                if self.constant_buffers.iter().any(|c| c.slot == slot) {
                    return Err(err(format!("cb{slot} is declared twice")));
                }
                self.constant_buffers.push(ConstantBufferDeclaration {
                    slot,
                    size,
                    dynamic_indexed: *dynamic_indexed,
                });
            }
            Declaration::Sampler { register, mode } => {
                let slot = self.slot_of(index, instruction, register, SAMPLER_SLOTS, "s")?;
                if self.samplers.iter().any(|s| s.slot == slot) {
                    return Err(err(format!("s{slot} is declared twice")));
                }
                self.samplers.push(SamplerDeclaration { slot, mode: *mode });
            }
            Declaration::Resource {
                register,
                dimension,
                sample_count,
                return_types,
            } => {
                let kind = ResourceKind::Typed {
                    dimension: *dimension,
                    return_types: *return_types,
                    sample_count: *sample_count,
                };
                self.declare_resource(index, instruction, register, kind)?;
            }
            Declaration::ResourceRaw(register) => {
                self.declare_resource(index, instruction, register, ResourceKind::Raw)?;
            }
            Declaration::ResourceStructured { register, stride } => {
                if *stride == 0 || stride % 4 != 0 {
                    return Err(err(format!(
                        "a structure stride of {stride} bytes is not a positive multiple of 4"
                    )));
                }
                let kind = ResourceKind::Structured { stride: *stride };
                self.declare_resource(index, instruction, register, kind)?;
            }
            Declaration::Register {
                register,
                name,
                interpolation,
            } => self.declare_register(index, instruction, register, *name, *interpolation)?,
            Declaration::FunctionBody(_) | Declaration::FunctionTable { .. } | Declaration::Interface { .. } => {
                return Err(err(format!(
                    "{} (interfaces, 7.19) is not implemented",
                    instruction.opcode.name()
                )));
            }
            Declaration::UavTyped {
                register,
                dimension,
                return_types,
                globally_coherent,
                ..
            } => {
                let kind = UavKind::Typed {
                    dimension: *dimension,
                    return_types: *return_types,
                };
                if matches!(
                    dimension,
                    ResourceDimension::Texture2DMs
                        | ResourceDimension::Texture2DMsArray
                        | ResourceDimension::TextureCube
                        | ResourceDimension::TextureCubeArray
                        | ResourceDimension::Unknown
                ) {
                    return Err(err(format!("a typed UAV cannot be {dimension:?} (5.3.9)")));
                }
                self.declare_uav(index, instruction, register, kind, *globally_coherent)?;
            }
            Declaration::UavRaw {
                register,
                globally_coherent,
                ..
            } => self.declare_uav(index, instruction, register, UavKind::Raw, *globally_coherent)?,
            Declaration::UavStructured {
                register,
                stride,
                globally_coherent,
                has_counter,
                ..
            } => {
                if *stride == 0 || stride % 4 != 0 {
                    return Err(err(format!(
                        "a structure stride of {stride} bytes is not a positive multiple of 4"
                    )));
                }
                let kind = UavKind::Structured {
                    stride: *stride,
                    counter: *has_counter,
                };
                self.declare_uav(index, instruction, register, kind, *globally_coherent)?;
            }
            Declaration::GsInputPrimitive(primitive) if self.stage == Stage::Geometry => {
                let raw = primitive.raw();
                // D3D10_SB_PRIMITIVE: point 1, line 2, triangle 3, line_adj 6, triangle_adj 7, patches 8.. (1..32
                // control points).
                let vertices = match raw {
                    1..=3 => raw,
                    6 => 4,
                    7 => 6,
                    8..=39 => raw.saturating_sub(7),
                    _ => return Err(err(format!("dcl_inputprimitive {raw} is not a primitive (22.3.6)"))),
                };
                self.geometry.input_vertices = vertices;
                self.geometry.input_primitive = raw;
            }
            Declaration::GsOutputTopology(topology) if self.stage == Stage::Geometry => {
                let raw = topology.raw();
                if !matches!(raw, 1 | 3 | 5) {
                    return Err(err(format!(
                        "dcl_outputtopology {raw}: a geometry program outputs a point list, line strip or triangle strip (22.3.8)"
                    )));
                }
                self.geometry.output_topology = raw;
            }
            Declaration::MaxOutputVertexCount(count) if self.stage == Stage::Geometry => {
                if *count > MAX_GEOMETRY_OUTPUT_VERTICES {
                    return Err(err(format!(
                        "dcl_maxout {count} is past the {MAX_GEOMETRY_OUTPUT_VERTICES} vertices 22.3.5 allows"
                    )));
                }
                self.geometry.max_vertices = *count;
            }
            Declaration::GsInstanceCount(count) if self.stage == Stage::Geometry => {
                if !(1..=32).contains(count) {
                    return Err(err(format!("dcl_gsinstances {count}: 1 to 32 instances (22.3.7)")));
                }
                self.geometry.instances = *count;
            }
            Declaration::Stream(register) if self.stage == Stage::Geometry => {
                let stream = match register.indices.as_slice() {
                    [IrIndex::Immediate32(n)] if *n < 4 => *n as u8,
                    _ => return Err(err("dcl_stream takes m0 to m3 (22.3.9)".into())),
                };
                self.geometry.streams |= 1 << stream;
                self.current_stream = stream;
            }
            Declaration::ThreadGroup(size) => {
                if self.stage != Stage::Compute {
                    return Err(err("dcl_thread_group belongs to a compute program".into()));
                }
                let (most_xy, most_z, most) = thread_group_limits(self.model());
                let [x, y, z] = *size;
                let threads = u64::from(x).saturating_mul(u64::from(y)).saturating_mul(u64::from(z));
                if x == 0 || y == 0 || z == 0 || x > most_xy || y > most_xy || z > most_z || threads > u64::from(most) {
                    return Err(err(format!(
                        "a thread group of {x}x{y}x{z} is outside 18.6.4's limits for {} (X and Y 1 to {most_xy}, Z 1 to {most_z}, at most {most} threads)",
                        self.name
                    )));
                }
                if self.thread_group.is_some() {
                    return Err(err("a second dcl_thread_group".into()));
                }
                self.thread_group = Some(*size);
            }
            Declaration::TgsmRaw { register, byte_count } => {
                if byte_count % 4 != 0 || *byte_count == 0 {
                    return Err(err(format!(
                        "{byte_count} bytes of raw shared memory is not a positive multiple of 4"
                    )));
                }
                self.declare_shared(index, instruction, register, 0, byte_count / 4)?;
            }
            Declaration::TgsmStructured {
                register,
                stride,
                count,
            } => {
                if *stride == 0 || stride % 4 != 0 || *count == 0 {
                    return Err(err(format!(
                        "shared memory of {count} structures of {stride} bytes: the stride must be a positive multiple of 4 and the count positive"
                    )));
                }
                let words = (stride / 4).saturating_mul(*count);
                self.declare_shared(index, instruction, register, *stride, words)?;
            }
            Declaration::InputControlPointCount(count) if matches!(self.stage, Stage::Hull | Stage::Domain) => {
                if *count > 32 {
                    return Err(err(format!(
                        "{count} input control points: a patch has at most 32 (22.3.12)"
                    )));
                }
                self.tessellation.input_control_points = u32::from(*count);
            }
            Declaration::OutputControlPointCount(count) if self.stage == Stage::Hull => {
                if *count > 32 {
                    return Err(err(format!("{count} output control points: at most 32 (22.3.13)")));
                }
                self.tessellation.output_control_points = u32::from(*count);
            }
            Declaration::TessDomain(domain) if matches!(self.stage, Stage::Hull | Stage::Domain) => {
                self.tessellation.domain = Some(match domain {
                    TessDomain::Isoline => Domain::Isoline,
                    TessDomain::Tri => Domain::Triangle,
                    TessDomain::Quad => Domain::Quad,
                    _ => {
                        return Err(err(format!(
                            "the tessellator domain {} is not one (22.3.16)",
                            domain.raw()
                        )));
                    }
                });
            }
            Declaration::TessPartitioning(partitioning) if self.stage == Stage::Hull => {
                self.tessellation.partitioning = Some(match partitioning {
                    TessPartitioning::Integer => Partitioning::Integer,
                    TessPartitioning::Pow2 => Partitioning::Pow2,
                    TessPartitioning::FractionalOdd => Partitioning::FractionalOdd,
                    TessPartitioning::FractionalEven => Partitioning::FractionalEven,
                    _ => {
                        return Err(err(format!(
                            "the tessellator partitioning {} is not one (22.3.17)",
                            partitioning.raw()
                        )));
                    }
                });
            }
            Declaration::TessOutputPrimitive(output) if self.stage == Stage::Hull => {
                self.tessellation.output_primitive = Some(match output {
                    TessOutputPrimitive::Point => OutputPrimitive::Point,
                    TessOutputPrimitive::Line => OutputPrimitive::Line,
                    TessOutputPrimitive::TriangleCw => OutputPrimitive::TriangleCw,
                    TessOutputPrimitive::TriangleCcw => OutputPrimitive::TriangleCcw,
                    _ => {
                        return Err(err(format!(
                            "the tessellator output primitive {} is not one (22.3.15)",
                            output.raw()
                        )));
                    }
                });
            }
            Declaration::HsMaxTessFactor(max) if self.stage == Stage::Hull => {
                if !(1.0..=64.0).contains(max) {
                    return Err(err(format!("dcl_hs_max_tessfactor {max} is outside [1, 64] (10.13)")));
                }
                self.tessellation.max_tess_factor = *max;
            }
            Declaration::HsForkPhaseInstanceCount(count) if self.phase == Some(HullPhase::Fork) => {
                self.declare_instances(index, instruction, *count)?;
            }
            Declaration::HsJoinPhaseInstanceCount(count) if self.phase == Some(HullPhase::Join) => {
                self.declare_instances(index, instruction, *count)?;
            }
            _ => {
                return Err(err(format!(
                    "{} belongs to another stage or phase than {}",
                    instruction.opcode.name(),
                    self.stage_name()
                )));
            }
        }
        Ok(())
    }

    /// A fork or join phase's instance count: 1 to 128 (10.8.4, 10.9.4).
    fn declare_instances(&mut self, index: usize, instruction: &Instruction, count: u32) -> Result<()> {
        if !(1..=128).contains(&count) {
            return Err(self.error(
                index,
                instruction,
                format!("{count} phase instances: 1 to 128 are allowed (10.8.4)"),
            ));
        }
        self.instances = count;
        Ok(())
    }

    fn slot_of(
        &self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        slots: usize,
        prefix: &str,
    ) -> Result<u32> {
        match register.indices.as_slice() {
            [IrIndex::Immediate32(slot)] if usize::try_from(*slot).is_ok_and(|s| s < slots) => Ok(*slot),
            [IrIndex::Immediate32(slot)] => {
                Err(self.error(index, instruction, format!("{prefix}{slot} is past the {slots} slots")))
            }
            _ => Err(self.error(
                index,
                instruction,
                format!(
                    "a {prefix}# declaration needs one immediate index (shader model 5.1 ranges are not supported)"
                ),
            )),
        }
    }

    fn declare_uav(
        &mut self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        kind: UavKind,
        globally_coherent: bool,
    ) -> Result<()> {
        let slot = self.slot_of(index, instruction, register, UAV_SLOTS, "u")?;
        if self.uavs.iter().any(|u| u.slot == slot) {
            return Err(self.error(index, instruction, format!("u{slot} is declared twice")));
        }
        self.uavs.push(UavDeclaration {
            slot,
            kind,
            globally_coherent,
        });
        Ok(())
    }

    fn declare_shared(
        &mut self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        stride: u32,
        words: u32,
    ) -> Result<()> {
        if self.stage != Stage::Compute {
            return Err(self.error(
                index,
                instruction,
                "thread group shared memory belongs to a compute program (18.6.3)",
            ));
        }
        let number = match register.indices.as_slice() {
            [IrIndex::Immediate32(n)] => *n,
            _ => return Err(self.error(index, instruction, "g# takes one immediate index")),
        };
        if self.shared.iter().any(|g| g.register == number) {
            return Err(self.error(index, instruction, format!("g{number} is declared twice")));
        }
        let first_word = self.shared.iter().map(|g| g.words).fold(0u32, u32::saturating_add);
        let total = first_word.saturating_add(words);
        if u64::from(total).saturating_mul(4) > u64::from(MAX_SHARED_MEMORY_BYTES) {
            return Err(self.error(
                index,
                instruction,
                format!(
                    "g{number} takes the thread group shared memory past the {MAX_SHARED_MEMORY_BYTES} bytes 18.6.3 allows"
                ),
            ));
        }
        self.shared.push(SharedMemoryDeclaration {
            register: number,
            stride,
            words,
            first_word,
        });
        Ok(())
    }

    fn declare_resource(
        &mut self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        kind: ResourceKind,
    ) -> Result<()> {
        if register.register != RegisterType::Resource {
            return Err(self.error(
                index,
                instruction,
                format!("a shader resource declaration names {:?}, not a t#", register.register),
            ));
        }
        let slot = self.slot_of(index, instruction, register, RESOURCE_SLOTS, "t")?;
        if self.resources.iter().any(|r| r.slot == slot) {
            return Err(self.error(index, instruction, format!("t{slot} is declared twice")));
        }
        self.resources.push(ResourceDeclaration { slot, kind });
        Ok(())
    }

    fn declare_register(
        &mut self,
        index: usize,
        instruction: &Instruction,
        register: &Operand,
        system: Option<SystemName>,
        interpolation: Option<InterpolationMode>,
    ) -> Result<()> {
        let mask = match register.components {
            Components::Four(Selection::Mask(mask)) => mask,
            _ => 1,
        };
        let is_output = matches!(
            instruction.opcode,
            Opcode::DclOutput | Opcode::DclOutputSgv | Opcode::DclOutputSiv
        );
        let pixel = self.stage == Stage::Pixel;
        let compute = self.stage == Stage::Compute;
        let geometry_input = self.stage == Stage::Geometry && register.register == RegisterType::Input;
        // v[point][register] of a control point phase, vicp[point][register], vocp[point][register]
        let control_point_input = (self.phase == Some(HullPhase::ControlPoint)
            && register.register == RegisterType::Input)
            || matches!(
                register.register,
                RegisterType::InputControlPoint | RegisterType::OutputControlPoint
            );
        let number = match register.indices.as_slice() {
            [IrIndex::Immediate32(n)] if !geometry_input && !control_point_input => Some(*n),
            // a geometry program's input: v[vertices][register]
            // (checked against dcl_inputprimitive, which may come later, when the program is built)
            [IrIndex::Immediate32(vertices), IrIndex::Immediate32(n)] if geometry_input => {
                if self.declared_vertices.is_some_and(|v| v != *vertices) {
                    return Err(self.error(index, instruction, "inputs declare different vertex counts"));
                }
                self.declared_vertices = Some(*vertices);
                Some(*n)
            }
            [IrIndex::Immediate32(_), IrIndex::Immediate32(n)] if control_point_input => Some(*n),
            [] => None,
            _ => {
                return Err(self.error(
                    index,
                    instruction,
                    "an input or output has one immediate index (control points and a geometry program's inputs two: v[vertex][register])",
                ));
            }
        };
        let numbered = |builder: &Self, limit: u32| -> Result<u32> {
            match number {
                Some(n) if n < limit => Ok(n),
                Some(n) => Err(builder.error(
                    index,
                    instruction,
                    format!("register {n} is past the {limit} this stage has"),
                )),
                None => Err(builder.error(index, instruction, "the register needs an index")),
            }
        };
        if is_output {
            let output = match register.register {
                RegisterType::Output => {
                    let limit = if pixel { MAX_PIXEL_OUTPUTS } else { MAX_IO_REGISTERS };
                    let n = numbered(self, limit)?;
                    self.output_registers = self.output_registers.max(n.saturating_add(1));
                    OutputRegister::O(n)
                }
                RegisterType::OutputDepth if pixel => OutputRegister::Depth,
                RegisterType::OutputDepthGreaterEqual if pixel => OutputRegister::DepthGreaterEqual,
                RegisterType::OutputDepthLessEqual if pixel => OutputRegister::DepthLessEqual,
                RegisterType::OutputCoverageMask if pixel => OutputRegister::CoverageMask,
                RegisterType::OutputStencilRef if pixel => OutputRegister::StencilRef,
                other => {
                    return Err(self.error(
                        index,
                        instruction,
                        format!("{other:?} is not an output of a {} program", self.stage_name()),
                    ));
                }
            };
            let depth = match output {
                OutputRegister::Depth => Some(DepthOutput::Any),
                OutputRegister::DepthGreaterEqual => Some(DepthOutput::GreaterEqual),
                OutputRegister::DepthLessEqual => Some(DepthOutput::LessEqual),
                _ => None,
            };
            if let Some(depth) = depth {
                if self.depth_output.is_some() {
                    return Err(self.error(index, instruction, "a second depth output"));
                }
                self.depth_output = Some(depth);
            }
            self.outputs.push(OutputDeclaration {
                register: output,
                mask,
                system,
                stream: self.current_stream,
            });
        } else {
            let input = match register.register {
                RegisterType::Input
                    if !matches!(self.phase, Some(HullPhase::Fork | HullPhase::Join))
                        && self.stage != Stage::Domain =>
                {
                    let n = numbered(self, MAX_IO_REGISTERS)?;
                    self.input_registers = self.input_registers.max(n.saturating_add(1));
                    InputRegister::V(n)
                }
                RegisterType::InputControlPoint
                    if matches!(self.stage, Stage::Hull | Stage::Domain)
                        && self.phase != Some(HullPhase::ControlPoint) =>
                {
                    let n = numbered(self, MAX_IO_REGISTERS)?;
                    self.control_point_registers = self.control_point_registers.max(n.saturating_add(1));
                    InputRegister::InputControlPoint(n)
                }
                RegisterType::OutputControlPoint if matches!(self.phase, Some(HullPhase::Fork | HullPhase::Join)) => {
                    let n = numbered(self, MAX_IO_REGISTERS)?;
                    self.output_point_registers = self.output_point_registers.max(n.saturating_add(1));
                    InputRegister::OutputControlPoint(n)
                }
                RegisterType::InputPatchConstant
                    if matches!(self.phase, Some(HullPhase::Fork | HullPhase::Join)) || self.stage == Stage::Domain =>
                {
                    let n = numbered(self, MAX_IO_REGISTERS)?;
                    self.patch_constant_registers = self.patch_constant_registers.max(n.saturating_add(1));
                    InputRegister::PatchConstant(n)
                }
                RegisterType::OutputControlPointId if self.phase == Some(HullPhase::ControlPoint) => {
                    InputRegister::OutputControlPointId
                }
                RegisterType::InputForkInstanceId if self.phase == Some(HullPhase::Fork) => {
                    InputRegister::ForkInstanceId
                }
                RegisterType::InputJoinInstanceId if self.phase == Some(HullPhase::Join) => {
                    InputRegister::JoinInstanceId
                }
                RegisterType::InputDomainPoint if self.stage == Stage::Domain => InputRegister::DomainPoint,
                RegisterType::InputPrimitiveId if !compute => InputRegister::PrimitiveId,
                RegisterType::InputGsInstanceId if self.stage == Stage::Geometry => InputRegister::GsInstanceId,
                RegisterType::InputThreadId if compute => InputRegister::ThreadId,
                RegisterType::InputThreadGroupId if compute => InputRegister::ThreadGroupId,
                RegisterType::InputThreadIdInGroup if compute => InputRegister::ThreadIdInGroup,
                RegisterType::InputThreadIdInGroupFlattened if compute => InputRegister::ThreadIdInGroupFlattened,
                RegisterType::InputCoverageMask if pixel => InputRegister::Coverage,
                RegisterType::InnerCoverage if pixel => InputRegister::InnerCoverage,
                other => {
                    return Err(self.error(
                        index,
                        instruction,
                        format!("{other:?} is not an input of a {} program", self.stage_name()),
                    ));
                }
            };
            self.inputs.push(InputDeclaration {
                register: input,
                mask,
                system,
                interpolation,
            });
        }
        Ok(())
    }

    fn stage_name(&self) -> &'static str {
        match self.stage {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
            Stage::Compute => "compute",
            Stage::Geometry => "geometry",
            Stage::Hull => match self.phase {
                Some(HullPhase::Fork) => "hull fork phase",
                Some(HullPhase::Join) => "hull join phase",
                _ => "hull control point phase",
            },
            Stage::Domain => "domain",
        }
    }

    // -- instructions ---------------------------------------------------------------------------------------

    fn op(&self, index: usize, instruction: &Instruction) -> Result<Op> {
        let opcode = instruction.opcode;
        let err = |detail: String| self.error(index, instruction, detail);
        if introduced_in(opcode) > self.model() {
            return Err(err(format!(
                "{} needs shader model {}.{}",
                opcode.name(),
                introduced_in(opcode) / 10,
                introduced_in(opcode) % 10
            )));
        }
        if pixel_only(opcode) && self.stage != Stage::Pixel {
            return Err(err(format!("{} runs only in pixel programs (22.1.7)", opcode.name())));
        }
        let mut op = Op {
            opcode,
            instruction: u32::try_from(index).unwrap_or(u32::MAX),
            offset: instruction.offset,
            saturate: instruction.saturate,
            test_nonzero: instruction.test_nonzero,
            destinations: Vec::new(),
            sources: Vec::new(),
            flow: Flow::None,
            texture: None,
            resinfo_return: instruction.resinfo_return,
            sample_info_return: instruction.sample_info_return,
            memory: None,
            sync: instruction.sync_flags.0,
            stream: 0,
        };
        let operands = &instruction.operands;
        match shape(opcode) {
            Shape::Unsupported(reason) => return Err(err(format!("{} {reason}", opcode.name()))),
            Shape::Alu {
                destinations,
                sources,
                out,
                saturate,
            } => {
                if instruction.saturate && !saturate {
                    return Err(err(format!(
                        "{}_sat: _sat applies to float results only (22.19.1)",
                        opcode.name()
                    )));
                }
                let want = usize::from(destinations).saturating_add(sources.len());
                if operands.len() != want {
                    return Err(err(format!(
                        "{} takes {want} operands, not {}",
                        opcode.name(),
                        operands.len()
                    )));
                }
                let (dst_ops, src_ops) = operands.split_at(usize::from(destinations));
                for operand in dst_ops {
                    op.destinations.push(self.destination(index, instruction, operand)?);
                }
                let masks: Vec<u8> = op.destinations.iter().map(|d| d.mask).collect();
                let used = self.check_alu_masks(index, instruction, out, &masks)?;
                for ((operand, ty), used) in src_ops.iter().zip(sources).zip(used) {
                    op.sources.push(self.source(index, instruction, operand, *ty, used)?);
                }
                if matches!(
                    opcode,
                    Opcode::EvalSnapped | Opcode::EvalSampleIndex | Opcode::EvalCentroid
                ) {
                    self.pull_operands(index, instruction, &mut op)?;
                }
            }
            Shape::Flow { sources } => {
                self.flow_operands(index, instruction, sources, &mut op)?;
            }
            Shape::Texture(tex) => self.texture(index, instruction, tex, &mut op)?,
            Shape::Memory(mem) => self.memory(index, instruction, mem, &mut op)?,
            Shape::Emit => self.emit(index, instruction, &mut op)?,
        }
        if instruction.saturate && !matches!(shape(opcode), Shape::Alu { .. }) {
            return Err(err(format!(
                "{}_sat: _sat applies to float results only (22.19.1)",
                opcode.name()
            )));
        }
        Ok(op)
    }

    /// Checks an `eval_*` instruction's operands (22.4.23-25): the attribute is an input register `v#` (indexed
    /// only as `dcl_indexRange` allows, which the `v#` read already checks); `eval_snapped` reads the offset's U and
    /// V, `eval_sample_index` the index's first component, whatever the destination mask.
    fn pull_operands(&self, index: usize, instruction: &Instruction, op: &mut Op) -> Result<()> {
        if !matches!(op.sources.first().map(|s| s.file), Some(SourceFile::Input(_))) {
            return Err(self.error(
                index,
                instruction,
                format!(
                    "{} evaluates an input register v# (16.5), not another operand",
                    instruction.opcode.name()
                ),
            ));
        }
        if let Some(second) = op.sources.get_mut(1) {
            second.used = if instruction.opcode == Opcode::EvalSnapped {
                0b0011
            } else {
                0b0001
            };
        }
        Ok(())
    }

    /// Checks the destination masks of an ALU instruction against its result mapping and says which post-swizzle
    /// components each source operand reads.
    fn check_alu_masks(&self, index: usize, instruction: &Instruction, out: Out, masks: &[u8]) -> Result<Vec<u8>> {
        let opcode = instruction.opcode;
        let union = masks.iter().fold(0u8, |a, m| a | m);
        let Shape::Alu { sources, .. } = shape(opcode) else {
            return Ok(Vec::new());
        };
        let used = match out {
            Out::Componentwise => vec![union; sources.len()],
            Out::Dot(n) => vec![(1u8 << n).wrapping_sub(1); sources.len()],
            Out::Double => {
                let first = masks.first().copied().unwrap_or(0);
                if !matches!(first, 0b0011 | 0b1100 | 0b1111) {
                    return Err(self.error(
                        index,
                        instruction,
                        format!(
                            "{} writes doubles: its mask must be .xy, .zw or .xyzw (22.14), not {}",
                            opcode.name(),
                            mask_name(first)
                        ),
                    ));
                }
                // Slot 0 is .xy, slot 1 is .zw; a double source reads both words of a slot, a 32-bit source reads
                // component k for slot k (22.16.2, 22.17.2).
                let double_used = first;
                let narrow_used = (first & 1) | ((first >> 1) & 2);
                sources
                    .iter()
                    .map(|t| if *t == Ty::D { double_used } else { narrow_used })
                    .collect()
            }
            Out::DoubleTo32 => {
                let first = masks.first().copied().unwrap_or(0);
                let count = first.count_ones();
                if !(1..=2).contains(&count) {
                    return Err(self.error(
                        index,
                        instruction,
                        format!(
                            "{} writes one or two 32-bit results (22.15, 22.17): its mask must have 1 or 2 components, not {}",
                            opcode.name(),
                            mask_name(first)
                        ),
                    ));
                }
                let slots = if count == 2 { 0b1111 } else { 0b0011 };
                vec![slots; sources.len()]
            }
        };
        Ok(used)
    }

    fn flow_operands(&self, index: usize, instruction: &Instruction, sources: u8, op: &mut Op) -> Result<()> {
        let opcode = instruction.opcode;
        let operands = &instruction.operands;
        let err = |detail: String| self.error(index, instruction, detail);
        match opcode {
            Opcode::Case => {
                let value = match operands.as_slice() {
                    [operand] => match operand.immediate {
                        Some(Immediate::Scalar32(v)) => v,
                        Some(Immediate::Vector32([v, ..])) => v,
                        _ => return Err(err("case takes one 32-bit literal (22.7.12)".into())),
                    },
                    _ => return Err(err("case takes one 32-bit literal (22.7.12)".into())),
                };
                op.flow = Flow::Case(value);
                return Ok(());
            }
            Opcode::Call | Opcode::Callc | Opcode::Label => {
                let label_operand = if opcode == Opcode::Callc {
                    if operands.len() != 2 {
                        return Err(err("callc takes a condition and a label".into()));
                    }
                    if let Some(condition) = operands.first() {
                        op.sources.push(self.condition(index, instruction, condition)?);
                    }
                    operands.get(1)
                } else {
                    if operands.len() != 1 {
                        return Err(err(format!("{} takes one label", opcode.name())));
                    }
                    operands.first()
                };
                let label = label_operand
                    .filter(|o| o.register == RegisterType::Label)
                    .and_then(|o| match o.indices.as_slice() {
                        [IrIndex::Immediate32(n)] => Some(*n),
                        _ => None,
                    })
                    .ok_or_else(|| err("the label operand must be l# with an immediate number (22.7.10)".into()))?;
                op.flow = Flow::Label(label);
                return Ok(());
            }
            _ => {}
        }
        if operands.len() != usize::from(sources) {
            return Err(err(format!(
                "{} takes {sources} operand(s), not {}",
                opcode.name(),
                operands.len()
            )));
        }
        for operand in operands {
            op.sources.push(self.condition(index, instruction, operand)?);
        }
        Ok(())
    }

    /// A condition or selector: one component of an integer operand (22.7.1: "must use a single component
    /// selector").
    fn condition(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<Source> {
        // Compilers write the selection as a replicated swizzle (`.yyyy`), which listings print as `.y`.
        let single = match operand.components {
            Components::Four(Selection::Swizzle([a, b, c, d])) => a == b && b == c && c == d,
            Components::Four(Selection::Mask(_)) => false,
            _ => true,
        };
        if !single && operand.immediate.is_none() {
            return Err(self.error(
                index,
                instruction,
                format!(
                    "{}'s condition must select one component (22.7.1)",
                    instruction.opcode.name()
                ),
            ));
        }
        self.source(index, instruction, operand, Ty::I, 1)
    }

    fn texture(&self, index: usize, instruction: &Instruction, tex: Tex, op: &mut Op) -> Result<()> {
        let opcode = instruction.opcode;
        let operands = &instruction.operands;
        let err = |detail: String| self.error(index, instruction, detail);
        let count = match tex {
            Tex::Sample { extra } => 4usize.saturating_add(usize::from(extra)),
            Tex::Gather {
                programmable_offset,
                compare,
            } => 4usize
                .saturating_add(usize::from(programmable_offset))
                .saturating_add(usize::from(compare)),
            Tex::Load { multisample } => 3usize.saturating_add(usize::from(multisample)),
            Tex::Resinfo | Tex::LoadRaw => 3,
            Tex::Lod => 4,
            Tex::SamplePos => 3,
            Tex::SampleInfo | Tex::Bufinfo => 2,
            Tex::LoadStructured => 4,
        };
        if operands.len() != count {
            return Err(err(format!(
                "{} takes {count} operands, not {}",
                opcode.name(),
                operands.len()
            )));
        }
        let operand = |i: usize| operands.get(i).ok_or_else(|| err(format!("operand {i} is missing")));
        let destination = self.destination(index, instruction, operand(0)?)?;
        if destination.file == DestinationFile::Depth
            || destination.file == DestinationFile::CoverageMask
            || destination.file == DestinationFile::StencilRef
        {
            // Allowed by the register rules, but a texture result is a 4-vector; the mask still applies.
        }
        op.destinations.push(destination);
        // Which operands are the t#, s# and value operands.
        let (resource_at, sampler_at, values): (usize, Option<usize>, Vec<(usize, Ty, u8)>) = match tex {
            Tex::Sample { extra } => {
                let mut values = vec![(1, Ty::F, 0b1111)];
                match opcode {
                    Opcode::SampleD => {
                        values.push((4, Ty::F, 0b0111));
                        values.push((5, Ty::F, 0b0111));
                    }
                    _ if extra == 1 => values.push((4, Ty::F, 0b0001)),
                    _ => {}
                }
                (2, Some(3), values)
            }
            Tex::Gather {
                programmable_offset,
                compare,
            } => {
                let mut values = vec![(1, Ty::F, 0b1111)];
                let shift = usize::from(programmable_offset);
                if programmable_offset {
                    values.push((2, Ty::I, 0b0011));
                }
                if compare {
                    values.push((4usize.saturating_add(shift), Ty::F, 0b0001));
                }
                (2usize.saturating_add(shift), Some(3usize.saturating_add(shift)), values)
            }
            Tex::Load { multisample } => {
                let mut values = vec![(1, Ty::I, 0b1111)];
                if multisample {
                    values.push((3, Ty::I, 0b0001));
                }
                (2, None, values)
            }
            Tex::Resinfo => (2, None, vec![(1, Ty::I, 0b0001)]),
            Tex::SampleInfo | Tex::Bufinfo => (1, None, Vec::new()),
            Tex::SamplePos => (1, None, vec![(2, Ty::I, 0b0001)]),
            Tex::Lod => (2, Some(3), vec![(1, Ty::F, 0b1111)]),
            Tex::LoadRaw => (2, None, vec![(1, Ty::I, 0b0001)]),
            Tex::LoadStructured => (3, None, vec![(1, Ty::I, 0b0001), (2, Ty::I, 0b0001)]),
        };
        for (position, ty, used) in values {
            let source = self.source(index, instruction, operand(position)?, ty, used)?;
            op.sources.push(source);
        }
        // The resource operand.
        let resource_operand = operand(resource_at)?;
        let swizzle = match resource_operand.components {
            Components::Four(Selection::Swizzle(s)) => s,
            Components::Four(Selection::Select1(c)) => [c; 4],
            _ => [0, 1, 2, 3],
        };
        let resource = match resource_operand.register {
            RegisterType::Resource => {
                let slot = self.slot_of(index, instruction, resource_operand, RESOURCE_SLOTS, "t")?;
                let declaration = self
                    .resources
                    .iter()
                    .find(|r| r.slot == slot)
                    .ok_or_else(|| err(format!("t{slot} is not declared")))?;
                self.check_resource_use(index, instruction, tex, slot, declaration.kind)?;
                // The `_indexable` forms restate the resource's dimension in an extended opcode token; it must be
                // the declared one.
                if let (Some((stated, _)), ResourceKind::Typed { dimension, .. }) =
                    (instruction.resource_dimension(), declaration.kind)
                    && stated != dimension
                {
                    return Err(err(format!(
                        "{} states t{slot} is {stated:?}, but it is declared {dimension:?}",
                        opcode.name()
                    )));
                }
                Some(slot)
            }
            RegisterType::Rasterizer if matches!(tex, Tex::SampleInfo | Tex::SamplePos) => None,
            RegisterType::UnorderedAccessView | RegisterType::ThreadGroupSharedMemory
                if matches!(tex, Tex::LoadRaw | Tex::LoadStructured | Tex::Bufinfo | Tex::Resinfo) =>
            {
                let target = self.memory_target(index, instruction, resource_operand)?;
                self.check_memory_use(index, instruction, target, tex_memory_use(tex))?;
                op.memory = Some(MemoryOperands {
                    target,
                    swizzle,
                    mask: 0,
                });
                return Ok(());
            }
            other => {
                return Err(err(format!(
                    "{}'s resource operand is {other:?}, not t#",
                    opcode.name()
                )));
            }
        };
        let mut channel = 0;
        let sampler = match sampler_at {
            Some(at) => {
                let sampler_operand = operand(at)?;
                if sampler_operand.register != RegisterType::Sampler {
                    return Err(err(format!(
                        "{}'s sampler operand is {:?}, not s#",
                        opcode.name(),
                        sampler_operand.register
                    )));
                }
                let slot = self.slot_of(index, instruction, sampler_operand, SAMPLER_SLOTS, "s")?;
                if !self.samplers.iter().any(|s| s.slot == slot) {
                    return Err(err(format!("s{slot} is not declared")));
                }
                channel = match sampler_operand.components {
                    Components::Four(Selection::Select1(c)) => c,
                    Components::Four(Selection::Swizzle([c, ..])) => c,
                    _ => 0,
                };
                Some(slot)
            }
            None => None,
        };
        let offsets = instruction.texel_offsets().map(i32::from);
        op.texture = Some(TextureOperands {
            resource,
            swizzle,
            sampler,
            channel,
            offsets,
        });
        Ok(())
    }

    /// Checks an `emit`/`cut` instruction (22.8): a geometry program's; the `_stream` forms name a declared stream
    /// (`m#`), the others are for programs that declare none.
    fn emit(&self, index: usize, instruction: &Instruction, op: &mut Op) -> Result<()> {
        let err = |detail: String| self.error(index, instruction, detail);
        if self.stage != Stage::Geometry {
            return Err(err(format!(
                "{} is a geometry program instruction (22.8)",
                instruction.opcode.name()
            )));
        }
        let with_stream = matches!(
            instruction.opcode,
            Opcode::EmitStream | Opcode::CutStream | Opcode::EmitthencutStream
        );
        match (with_stream, instruction.operands.as_slice()) {
            (false, []) => {
                if self.geometry.streams != 0 {
                    return Err(err(format!(
                        "{} in a program that declares streams: use the _stream form (22.8.1)",
                        instruction.opcode.name()
                    )));
                }
            }
            (true, [operand]) if operand.register == RegisterType::Stream => {
                let stream = match operand.indices.as_slice() {
                    [IrIndex::Immediate32(n)] if *n < 4 && self.geometry.streams >> n & 1 == 1 => *n as u8,
                    _ => return Err(err("the stream must be a declared m0..m3 (22.8.2)".into())),
                };
                op.stream = stream;
            }
            _ => {
                return Err(err(format!(
                    "{} takes {} operand",
                    instruction.opcode.name(),
                    if with_stream { "a stream" } else { "no" }
                )));
            }
        }
        Ok(())
    }

    /// The `u#` or `g#` a memory operand names, checked against the declarations.
    fn memory_target(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<MemoryTarget> {
        let err = |detail: String| self.error(index, instruction, detail);
        match operand.register {
            RegisterType::UnorderedAccessView => {
                let slot = self.slot_of(index, instruction, operand, UAV_SLOTS, "u")?;
                if !self.uavs.iter().any(|u| u.slot == slot) {
                    return Err(err(format!("u{slot} is not declared")));
                }
                Ok(MemoryTarget::Uav(slot))
            }
            RegisterType::ThreadGroupSharedMemory => {
                let number = match operand.indices.as_slice() {
                    [IrIndex::Immediate32(n)] => *n,
                    _ => return Err(err("g# takes one immediate index".into())),
                };
                let position = self
                    .shared
                    .iter()
                    .position(|g| g.register == number)
                    .ok_or_else(|| err(format!("g{number} is not declared")))?;
                Ok(MemoryTarget::Shared(u32::try_from(position).unwrap_or(u32::MAX)))
            }
            other => Err(err(format!(
                "{}'s memory operand is {other:?}, not u# or g#",
                instruction.opcode.name()
            ))),
        }
    }

    /// Checks that a memory instruction suits its target's declaration (22.4.8-13, 22.17): typed loads and stores on
    /// typed UAVs, raw accesses on raw memory, structured ones on structured memory, the counter on a structured UAV
    /// (append or counter views are bound to those), atomics on raw, structured or 32-bit integer typed memory.
    fn check_memory_use(
        &self,
        index: usize,
        instruction: &Instruction,
        target: MemoryTarget,
        use_: MemoryUse,
    ) -> Result<()> {
        let opcode = instruction.opcode;
        let (name, kind) = match target {
            MemoryTarget::Uav(slot) => (
                format!("u{slot}"),
                self.uavs.iter().find(|u| u.slot == slot).map(|u| u.kind),
            ),
            MemoryTarget::Shared(position) => {
                let declaration = usize::try_from(position).ok().and_then(|p| self.shared.get(p));
                (
                    format!("g{}", declaration.map_or(0, |g| g.register)),
                    declaration.map(|g| {
                        if g.stride == 0 {
                            UavKind::Raw
                        } else {
                            UavKind::Structured {
                                stride: g.stride,
                                counter: false,
                            }
                        }
                    }),
                )
            }
        };
        let shared = matches!(target, MemoryTarget::Shared(_));
        let fine = match (use_, kind) {
            (_, None) => false,
            (MemoryUse::Typed, Some(UavKind::Typed { dimension, .. })) => {
                !shared && dimension != ResourceDimension::Unknown
            }
            (MemoryUse::Raw, Some(UavKind::Raw)) => true,
            (MemoryUse::Structured, Some(UavKind::Structured { .. })) => true,
            (MemoryUse::Size, Some(UavKind::Raw | UavKind::Structured { .. })) => !shared,
            (MemoryUse::Size, Some(UavKind::Typed { .. })) => !shared,
            (MemoryUse::Atomic, Some(UavKind::Raw | UavKind::Structured { .. })) => true,
            (MemoryUse::Atomic, Some(UavKind::Typed { return_types, .. })) => {
                !shared && matches!(return_types[0], ReturnType::Uint | ReturnType::Sint)
            }
            (MemoryUse::Counter, Some(UavKind::Structured { .. })) => !shared,
            _ => false,
        };
        if fine {
            Ok(())
        } else {
            Err(self.error(
                index,
                instruction,
                format!("{} cannot use {name}, declared {kind:?}", opcode.name()),
            ))
        }
    }

    /// Pre-decodes a UAV or shared-memory instruction: its memory operand, addresses and values (integers; a typed
    /// store's value is a float for float-returning declarations, so its modifiers mean what they do on floats).
    fn memory(&self, index: usize, instruction: &Instruction, mem: Mem, op: &mut Op) -> Result<()> {
        let opcode = instruction.opcode;
        let operands = &instruction.operands;
        let err = |detail: String| self.error(index, instruction, detail);
        let count = match mem {
            Mem::LoadTyped | Mem::StoreTyped | Mem::StoreRaw => 3,
            Mem::StoreStructured => 4,
            Mem::Atomic { values } => 2usize.saturating_add(usize::from(values)),
            Mem::ImmediateAtomic { values } => 3usize.saturating_add(usize::from(values)),
            Mem::Counter => 2,
            Mem::Sync => 0,
        };
        if operands.len() != count {
            return Err(err(format!(
                "{} takes {count} operands, not {}",
                opcode.name(),
                operands.len()
            )));
        }
        if mem == Mem::Sync {
            let flags = instruction.sync_flags;
            use crate::dxbc::program::SyncFlags as F;
            let compute_only = flags.contains(F::THREADS_IN_GROUP)
                || flags.contains(F::THREAD_GROUP_SHARED_MEMORY)
                || flags.contains(F::UAV_MEMORY_GROUP);
            if !(flags.contains(F::UAV_MEMORY_GLOBAL)
                || flags.contains(F::UAV_MEMORY_GROUP)
                || flags.contains(F::THREAD_GROUP_SHARED_MEMORY))
            {
                return Err(err(
                    "sync needs _uglobal, _ugroup or _g: a memory to fence (22.17.7)".into()
                ));
            }
            if compute_only && self.stage != Stage::Compute {
                return Err(err(
                    "outside a compute program only sync_uglobal is allowed (22.17.7)".into()
                ));
            }
            return Ok(());
        }
        let operand = |i: usize| operands.get(i).ok_or_else(|| err(format!("operand {i} is missing")));
        let mask_of = |operand: &Operand| match operand.components {
            Components::Four(Selection::Mask(mask)) => mask,
            Components::Four(Selection::Select1(c)) => 1u8.wrapping_shl(u32::from(c & 3)),
            _ => 0b1111,
        };
        // Where the memory operand, the address operands and the value operands are.
        let (memory_at, addresses, values): (usize, &[usize], &[usize]) = match mem {
            Mem::LoadTyped => (2, &[1], &[]),
            Mem::StoreTyped | Mem::StoreRaw => (0, &[1], &[2]),
            Mem::StoreStructured => (0, &[1, 2], &[3]),
            Mem::Atomic { values: 1 } => (0, &[1], &[2]),
            Mem::Atomic { .. } => (0, &[1], &[2, 3]),
            Mem::ImmediateAtomic { values: 1 } => (1, &[2], &[3]),
            Mem::ImmediateAtomic { .. } => (1, &[2], &[3, 4]),
            Mem::Counter => (1, &[], &[]),
            Mem::Sync => (0, &[], &[]),
        };
        let memory_operand = operand(memory_at)?;
        let target = self.memory_target(index, instruction, memory_operand)?;
        let use_ = match mem {
            Mem::LoadTyped | Mem::StoreTyped => MemoryUse::Typed,
            Mem::StoreRaw => MemoryUse::Raw,
            Mem::StoreStructured => MemoryUse::Structured,
            Mem::Atomic { .. } | Mem::ImmediateAtomic { .. } => MemoryUse::Atomic,
            Mem::Counter | Mem::Sync => MemoryUse::Counter,
        };
        self.check_memory_use(index, instruction, target, use_)?;
        let swizzle = match memory_operand.components {
            Components::Four(Selection::Swizzle(s)) => s.map(|c| c & 3),
            Components::Four(Selection::Select1(c)) => [c & 3; 4],
            _ => [0, 1, 2, 3],
        };
        let mut mask = mask_of(memory_operand);
        match mem {
            // 22.4.11, 22.4.13: ".x, .xy, .xyz, .xyzw" only, the components written without gaps.
            Mem::StoreRaw | Mem::StoreStructured if !matches!(mask, 0b0001 | 0b0011 | 0b0111 | 0b1111) => {
                return Err(err(format!(
                    "{}'s write mask must be .x, .xy, .xyz or .xyzw, not {}",
                    opcode.name(),
                    mask_name(mask)
                )));
            }
            Mem::StoreTyped => mask = 0b1111,
            _ => {}
        }
        // The destination register of loads, immediate atomics and counters.
        if matches!(mem, Mem::LoadTyped | Mem::ImmediateAtomic { .. } | Mem::Counter) {
            let destination = self.destination(index, instruction, operand(0)?)?;
            if !matches!(mem, Mem::LoadTyped) && destination.mask.count_ones() > 1 {
                return Err(err(format!(
                    "{} returns one component; its destination mask is {}",
                    opcode.name(),
                    mask_name(destination.mask)
                )));
            }
            op.destinations.push(destination);
        }
        for at in addresses {
            op.sources
                .push(self.source(index, instruction, operand(*at)?, Ty::I, 0b1111)?);
        }
        let float_values = match (mem, target) {
            (Mem::StoreTyped, MemoryTarget::Uav(slot)) => self.uavs.iter().any(|u| {
                u.slot == slot
                    && matches!(
                        u.kind,
                        UavKind::Typed {
                            return_types: [ReturnType::Float | ReturnType::Unorm | ReturnType::Snorm, ..],
                            ..
                        }
                    )
            }),
            _ => false,
        };
        for at in values {
            let (ty, used) = match mem {
                Mem::StoreTyped => (if float_values { Ty::F } else { Ty::I }, 0b1111),
                Mem::StoreRaw | Mem::StoreStructured => (Ty::I, mask),
                _ => (Ty::I, 0b0001),
            };
            op.sources
                .push(self.source(index, instruction, operand(*at)?, ty, used)?);
        }
        op.memory = Some(MemoryOperands { target, swizzle, mask });
        Ok(())
    }

    /// Checks that a texture instruction is used on a resource declaration it can read.
    fn check_resource_use(
        &self,
        index: usize,
        instruction: &Instruction,
        tex: Tex,
        slot: u32,
        kind: ResourceKind,
    ) -> Result<()> {
        use ResourceDimension as R;
        let opcode = instruction.opcode;
        let fine = match (tex, kind) {
            (Tex::LoadRaw, ResourceKind::Raw) => true,
            (Tex::LoadStructured, ResourceKind::Structured { .. }) => true,
            (Tex::Bufinfo, ResourceKind::Raw | ResourceKind::Structured { .. }) => true,
            (Tex::LoadRaw | Tex::LoadStructured, _) | (_, ResourceKind::Raw | ResourceKind::Structured { .. }) => false,
            (tex, ResourceKind::Typed { dimension, .. }) => match tex {
                Tex::Bufinfo => dimension == R::Buffer,
                Tex::Load { multisample: false } => {
                    !matches!(dimension, R::TextureCube | R::TextureCubeArray | R::Unknown)
                }
                Tex::Load { multisample: true } => matches!(dimension, R::Texture2DMs | R::Texture2DMsArray),
                Tex::SampleInfo | Tex::SamplePos => matches!(dimension, R::Texture2DMs | R::Texture2DMsArray),
                Tex::Resinfo => !matches!(dimension, R::Buffer | R::Unknown),
                Tex::Sample { .. } | Tex::Lod => {
                    !matches!(dimension, R::Buffer | R::Texture2DMs | R::Texture2DMsArray | R::Unknown)
                }
                Tex::Gather {
                    programmable_offset: false,
                    ..
                } => matches!(
                    dimension,
                    R::Texture2D | R::Texture2DArray | R::TextureCube | R::TextureCubeArray
                ),
                Tex::Gather {
                    programmable_offset: true,
                    ..
                } => matches!(dimension, R::Texture2D | R::Texture2DArray),
                Tex::LoadRaw | Tex::LoadStructured => false,
            },
        };
        if fine {
            Ok(())
        } else {
            Err(self.error(
                index,
                instruction,
                format!("{} cannot read t{slot}, declared {kind:?}", opcode.name()),
            ))
        }
    }

    // -- operands -------------------------------------------------------------------------------------------

    fn destination(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<Destination> {
        let err = |detail: String| self.error(index, instruction, detail);
        if operand.modifier != Modifier::None {
            return Err(err("a destination operand has a source modifier".into()));
        }
        let mask = match operand.components {
            Components::Zero => 0b1111,
            Components::One => 0b0001,
            Components::Four(Selection::Mask(mask)) => mask,
            Components::Four(Selection::Select1(c)) => 1u8.wrapping_shl(u32::from(c & 3)),
            Components::Four(Selection::Swizzle(_)) | Components::N => {
                return Err(err("a destination operand needs a write mask".into()));
            }
        };
        let pixel = self.stage == Stage::Pixel;
        let file = match operand.register {
            RegisterType::Null => DestinationFile::Null,
            RegisterType::Temp => DestinationFile::Temp(self.temp_row(index, instruction, operand)?),
            RegisterType::IndexableTemp => {
                let (array, index) = self.indexable(index, instruction, operand)?;
                DestinationFile::Indexable { array, index }
            }
            RegisterType::Output => {
                let register = self.io_index(index, instruction, operand, self.output_registers, "o")?;
                DestinationFile::Output(register)
            }
            RegisterType::OutputDepth | RegisterType::OutputDepthGreaterEqual | RegisterType::OutputDepthLessEqual
                if pixel && self.depth_output.is_some() =>
            {
                DestinationFile::Depth
            }
            RegisterType::OutputCoverageMask
                if pixel && self.outputs.iter().any(|o| o.register == OutputRegister::CoverageMask) =>
            {
                DestinationFile::CoverageMask
            }
            RegisterType::OutputStencilRef
                if pixel && self.outputs.iter().any(|o| o.register == OutputRegister::StencilRef) =>
            {
                DestinationFile::StencilRef
            }
            other => return Err(err(format!("{other:?} cannot be written here (declared?)"))),
        };
        Ok(Destination { file, mask })
    }

    fn temp_row(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<u32> {
        match operand.indices.as_slice() {
            [IrIndex::Immediate32(n)] if *n < self.temps => Ok(n.saturating_mul(4)),
            [IrIndex::Immediate32(n)] => Err(self.error(
                index,
                instruction,
                format!("r{n} is past the {} temporaries dcl_temps declares", self.temps),
            )),
            _ => Err(self.error(
                index,
                instruction,
                "r# takes one immediate index (7.3: temporaries are not indexable)",
            )),
        }
    }

    fn indexable(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<(u16, Index)> {
        let err = |detail: String| self.error(index, instruction, detail);
        let (number, element) = match operand.indices.as_slice() {
            [IrIndex::Immediate32(number), element] => (*number, element),
            _ => return Err(err("x# takes two indices, x#[n]".into())),
        };
        let position = self
            .arrays
            .iter()
            .position(|a| a.number == number)
            .ok_or_else(|| err(format!("x{number} is not declared")))?;
        let array = self.arrays.get(position).copied().ok_or_else(|| err("x#".into()))?;
        let element = self.index(index, instruction, element)?;
        if let Index::Imm(e) = element
            && e >= array.size
        {
            return Err(err(format!(
                "x{number}[{e}] is past the array's {} elements",
                array.size
            )));
        }
        let position = u16::try_from(position).map_err(|_| err("too many x# arrays".into()))?;
        Ok((position, element))
    }

    fn io_index(
        &self,
        index: usize,
        instruction: &Instruction,
        operand: &Operand,
        count: u32,
        prefix: &str,
    ) -> Result<Index> {
        let err = |detail: String| self.error(index, instruction, detail);
        let register = match operand.indices.as_slice() {
            [register] => self.index(index, instruction, register)?,
            _ => return Err(err(format!("{prefix}# takes one index"))),
        };
        if let Index::Imm(n) = register
            && n >= count
        {
            return Err(err(format!("{prefix}{n} is not declared ({count} registers are)")));
        }
        Ok(register)
    }

    fn index(&self, index: usize, instruction: &Instruction, ir: &IrIndex) -> Result<Index> {
        let err = |detail: String| self.error(index, instruction, detail);
        let narrow = |v: u64| u32::try_from(v).map_err(|_| err(format!("index {v} does not fit 32 bits")));
        Ok(match ir {
            IrIndex::Immediate32(n) => Index::Imm(*n),
            IrIndex::Immediate64(n) => Index::Imm(narrow(*n)?),
            IrIndex::Relative(operand) => Index::Rel {
                base: 0,
                by: self.scalar(index, instruction, operand)?,
            },
            IrIndex::Immediate32PlusRelative(base, operand) => Index::Rel {
                base: *base,
                by: self.scalar(index, instruction, operand)?,
            },
            IrIndex::Immediate64PlusRelative(base, operand) => Index::Rel {
                base: narrow(*base)?,
                by: self.scalar(index, instruction, operand)?,
            },
        })
    }

    /// A relative index's register: one component of an `r#`, a statically indexed `x#` or another directly
    /// addressed register (7.3: "only one level of index nesting").
    fn scalar(&self, index: usize, instruction: &Instruction, operand: &Operand) -> Result<Scalar> {
        let err = |detail: String| self.error(index, instruction, detail);
        if operand.modifier != Modifier::None {
            return Err(err("a relative index has a modifier".into()));
        }
        let component = match operand.components {
            Components::Four(Selection::Select1(c)) => c & 3,
            Components::Four(Selection::Swizzle([a, b, c, d])) if a == b && b == c && c == d => a & 3,
            Components::One => 0,
            _ => return Err(err("a relative index must select one component (7.8.6)".into())),
        };
        let nested = || err("a relative index is itself relatively indexed (7.3 allows one level)".into());
        let immediate = |i: usize| match operand.indices.get(i) {
            Some(IrIndex::Immediate32(n)) => Ok(*n),
            _ => Err(nested()),
        };
        let file = match operand.register {
            RegisterType::Temp => ScalarFile::Temp(self.temp_row(index, instruction, operand)?),
            RegisterType::InputGsInstanceId if self.has_input(InputRegister::GsInstanceId) => ScalarFile::GsInstanceId,
            RegisterType::Input if self.stage == Stage::Geometry => {
                return Err(err(
                    "a geometry program's input as a relative index is not supported".into()
                ));
            }
            RegisterType::Input => {
                let n = immediate(0)?;
                if n >= self.input_registers {
                    return Err(err(format!("v{n} is not declared")));
                }
                ScalarFile::Input(n.saturating_mul(4))
            }
            RegisterType::IndexableTemp => {
                let number = immediate(0)?;
                let element = immediate(1)?;
                let array = self
                    .arrays
                    .iter()
                    .find(|a| a.number == number)
                    .ok_or_else(|| err(format!("x{number} is not declared")))?;
                ScalarFile::Indexable(
                    (element < array.size).then(|| array.row.saturating_add(element.saturating_mul(4))),
                )
            }
            RegisterType::ConstantBuffer => {
                let slot = immediate(0)?;
                self.check_constant_buffer(index, instruction, slot)?;
                ScalarFile::ConstantBuffer {
                    slot: u8::try_from(slot).unwrap_or(u8::MAX),
                    element: immediate(1)?,
                }
            }
            RegisterType::ImmediateConstantBuffer => {
                if self.icb.is_none() {
                    return Err(err("icb is read but not declared".into()));
                }
                ScalarFile::ImmediateConstantBuffer(immediate(0)?)
            }
            RegisterType::Immediate32 => ScalarFile::Literal(match operand.immediate {
                Some(Immediate::Scalar32(v)) => v,
                Some(Immediate::Vector32(v)) => v.get(usize::from(component)).copied().unwrap_or(0),
                _ => 0,
            }),
            RegisterType::InputPrimitiveId if self.has_input(InputRegister::PrimitiveId) => ScalarFile::PrimitiveId,
            RegisterType::InputCoverageMask if self.has_input(InputRegister::Coverage) => ScalarFile::Coverage,
            RegisterType::InnerCoverage if self.has_input(InputRegister::InnerCoverage) => ScalarFile::InnerCoverage,
            other if self.thread_input(other).is_some() => {
                ScalarFile::Input(self.thread_input(other).unwrap_or(0).saturating_mul(4))
            }
            other => return Err(err(format!("{other:?} cannot be a relative index"))),
        };
        Ok(Scalar { file, component })
    }

    /// For a declared compute thread-ID input register, the input register the run loop keeps it in.
    fn thread_input(&self, register: RegisterType) -> Option<u32> {
        let input = match register {
            RegisterType::InputThreadId => InputRegister::ThreadId,
            RegisterType::InputThreadGroupId => InputRegister::ThreadGroupId,
            RegisterType::InputThreadIdInGroup => InputRegister::ThreadIdInGroup,
            RegisterType::InputThreadIdInGroupFlattened => InputRegister::ThreadIdInGroupFlattened,
            _ => return None,
        };
        self.has_input(input).then(|| input.thread_row()).flatten()
    }

    /// Whether an input of the kind `is` says is declared.
    fn has_input_kind(&self, is: impl Fn(InputRegister) -> bool) -> bool {
        self.inputs.iter().any(|i| is(i.register))
    }

    /// A control point read, `v[point][register]`, `vicp[point][register]` or `vocp[point][register]`, from `block`.
    fn control_point_source(
        &self,
        index: usize,
        instruction: &Instruction,
        operand: &Operand,
        block: VertexBlock,
        prefix: &str,
    ) -> Result<SourceFile> {
        let err = |detail: String| self.error(index, instruction, detail);
        let (vertex, register) = match operand.indices.as_slice() {
            [vertex, IrIndex::Immediate32(register)] => (self.index(index, instruction, vertex)?, *register),
            _ => {
                return Err(err(format!(
                    "{prefix}[point][register] takes the register as an immediate"
                )));
            }
        };
        if register >= block.stride {
            return Err(err(format!("{prefix}[][{register}] is not declared")));
        }
        if let Index::Imm(v) = vertex
            && v >= block.vertices
        {
            return Err(err(format!(
                "{prefix}[{v}][] is past the patch's {} control points",
                block.vertices
            )));
        }
        Ok(SourceFile::VertexInput {
            block,
            vertex,
            register,
        })
    }

    fn has_input(&self, register: InputRegister) -> bool {
        self.inputs.iter().any(|i| i.register == register)
    }

    fn check_constant_buffer(&self, index: usize, instruction: &Instruction, slot: u32) -> Result<()> {
        if self.constant_buffers.iter().any(|c| c.slot == slot) {
            Ok(())
        } else {
            Err(self.error(index, instruction, format!("cb{slot} is read but not declared")))
        }
    }

    fn source(&self, index: usize, instruction: &Instruction, operand: &Operand, ty: Ty, used: u8) -> Result<Source> {
        let err = |detail: String| self.error(index, instruction, detail);
        let swizzle = match operand.components {
            Components::Four(Selection::Swizzle(s)) => s.map(|c| c & 3),
            Components::Four(Selection::Select1(c)) => [c & 3; 4],
            Components::Four(Selection::Mask(_)) => [0, 1, 2, 3],
            Components::One => [0; 4],
            Components::Zero | Components::N => {
                return Err(err(format!(
                    "the {:?} operand has no components to read",
                    operand.register
                )));
            }
        };
        let modifier = match (ty, operand.modifier) {
            (_, Modifier::None) => SourceModifier::None,
            (Ty::F, Modifier::Neg) => SourceModifier::Neg,
            (Ty::F, Modifier::Abs) => SourceModifier::Abs,
            (Ty::F, Modifier::AbsNeg) => SourceModifier::AbsNeg,
            (Ty::D, Modifier::Neg) => SourceModifier::DoubleNeg,
            (Ty::D, Modifier::Abs) => SourceModifier::DoubleAbs,
            (Ty::D, Modifier::AbsNeg) => SourceModifier::DoubleAbsNeg,
            (Ty::I, Modifier::Neg) => SourceModifier::IntNeg,
            (Ty::I, Modifier::Abs | Modifier::AbsNeg) => {
                return Err(err(format!(
                    "_abs on an integer operand of {} (22.18.1 defines it for floats only)",
                    instruction.opcode.name()
                )));
            }
        };
        let file = match operand.register {
            RegisterType::Immediate32 | RegisterType::Immediate64 => {
                let raw = match operand.immediate {
                    Some(Immediate::Scalar32(v)) => [v; 4],
                    Some(Immediate::Vector32(v)) => v,
                    Some(Immediate::Scalar64(v)) => {
                        let (low, high) = (v as u32, (v >> 32) as u32);
                        [low, high, low, high]
                    }
                    Some(Immediate::Vector64([a, b])) => [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32],
                    None => return Err(err("a literal operand has no value".into())),
                };
                let swizzled = swizzle.map(|c| raw.get(usize::from(c)).copied().unwrap_or(0));
                return Ok(Source {
                    file: SourceFile::Literal(apply_modifier(modifier, swizzled)),
                    swizzle: [0, 1, 2, 3],
                    modifier: SourceModifier::None,
                    used,
                });
            }
            RegisterType::Temp => SourceFile::Temp(self.temp_row(index, instruction, operand)?),
            RegisterType::Input if self.stage == Stage::Geometry => {
                let (vertex, register) = match operand.indices.as_slice() {
                    [vertex, IrIndex::Immediate32(register)] => (self.index(index, instruction, vertex)?, *register),
                    _ => {
                        return Err(err(
                            "a geometry program reads v[vertex][register], the register immediate".into(),
                        ));
                    }
                };
                if register >= self.input_registers {
                    return Err(err(format!("v[][{register}] is not declared")));
                }
                if let Index::Imm(v) = vertex
                    && v >= self.geometry.input_vertices
                {
                    return Err(err(format!(
                        "v[{v}][] is past the {} vertices of the input primitive",
                        self.geometry.input_vertices
                    )));
                }
                SourceFile::VertexInput {
                    block: VertexBlock {
                        first: 0,
                        stride: self.input_registers,
                        vertices: self.geometry.input_vertices,
                    },
                    vertex,
                    register,
                }
            }
            RegisterType::Input if self.phase == Some(HullPhase::ControlPoint) => {
                self.control_point_source(index, instruction, operand, self.patch.input_points, "v")?
            }
            RegisterType::InputControlPoint
                if self.has_input_kind(|r| matches!(r, InputRegister::InputControlPoint(_))) =>
            {
                self.control_point_source(index, instruction, operand, self.patch.input_points, "vicp")?
            }
            RegisterType::OutputControlPoint
                if self.has_input_kind(|r| matches!(r, InputRegister::OutputControlPoint(_))) =>
            {
                self.control_point_source(index, instruction, operand, self.patch.output_points, "vocp")?
            }
            RegisterType::InputPatchConstant
                if self.has_input_kind(|r| matches!(r, InputRegister::PatchConstant(_))) =>
            {
                SourceFile::PatchConstant(self.io_index(
                    index,
                    instruction,
                    operand,
                    self.patch.patch_constant_count,
                    "vpc",
                )?)
            }
            RegisterType::OutputControlPointId if self.has_input(InputRegister::OutputControlPointId) => {
                SourceFile::Input(Index::Imm(self.patch.system))
            }
            RegisterType::InputForkInstanceId if self.has_input(InputRegister::ForkInstanceId) => {
                SourceFile::Input(Index::Imm(self.patch.system))
            }
            RegisterType::InputJoinInstanceId if self.has_input(InputRegister::JoinInstanceId) => {
                SourceFile::Input(Index::Imm(self.patch.system))
            }
            RegisterType::InputDomainPoint if self.has_input(InputRegister::DomainPoint) => {
                SourceFile::Input(Index::Imm(self.patch.system))
            }
            RegisterType::Input => {
                SourceFile::Input(self.io_index(index, instruction, operand, self.input_registers, "v")?)
            }
            RegisterType::InputGsInstanceId if self.has_input(InputRegister::GsInstanceId) => SourceFile::GsInstanceId,
            RegisterType::IndexableTemp => {
                let (array, index) = self.indexable(index, instruction, operand)?;
                SourceFile::Indexable { array, index }
            }
            RegisterType::ConstantBuffer => {
                let (slot, element) = match operand.indices.as_slice() {
                    [IrIndex::Immediate32(slot), element] => (*slot, element),
                    _ => return Err(err("cb# takes two indices, cb#[n]".into())),
                };
                self.check_constant_buffer(index, instruction, slot)?;
                SourceFile::ConstantBuffer {
                    slot: u8::try_from(slot).unwrap_or(u8::MAX),
                    index: self.index(index, instruction, element)?,
                }
            }
            RegisterType::ImmediateConstantBuffer => {
                if self.icb.is_none() {
                    return Err(err("icb is read but not declared".into()));
                }
                match operand.indices.as_slice() {
                    [element] => SourceFile::ImmediateConstantBuffer(self.index(index, instruction, element)?),
                    _ => return Err(err("icb takes one index".into())),
                }
            }
            RegisterType::InputPrimitiveId if self.has_input(InputRegister::PrimitiveId) => SourceFile::PrimitiveId,
            RegisterType::InputCoverageMask if self.has_input(InputRegister::Coverage) => SourceFile::Coverage,
            RegisterType::InnerCoverage if self.has_input(InputRegister::InnerCoverage) => SourceFile::InnerCoverage,
            other if self.thread_input(other).is_some() => {
                SourceFile::Input(Index::Imm(self.thread_input(other).unwrap_or(0)))
            }
            other => return Err(err(format!("{other:?} cannot be read here (declared?)"))),
        };
        Ok(Source {
            file,
            swizzle,
            modifier,
            used,
        })
    }
}

/// What a memory instruction does with its memory, for [`Builder::check_memory_use`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MemoryUse {
    /// `ld_uav_typed`, `store_uav_typed`.
    Typed,
    /// `ld_raw`, `store_raw`.
    Raw,
    /// `ld_structured`, `store_structured`.
    Structured,
    /// `bufinfo`, `resinfo` on a `u#`.
    Size,
    /// `atomic_*`, `imm_atomic_*` but the counter.
    Atomic,
    /// `imm_atomic_alloc`, `imm_atomic_consume`.
    Counter,
}

/// What a texture-shaped instruction on a `u#` or `g#` does with it.
fn tex_memory_use(tex: Tex) -> MemoryUse {
    match tex {
        Tex::LoadRaw => MemoryUse::Raw,
        Tex::LoadStructured => MemoryUse::Structured,
        _ => MemoryUse::Size,
    }
}

/// A write mask as text (`.xyw`).
fn mask_name(mask: u8) -> String {
    format!(".{}", mask_letters(mask))
}
