//! [`Machine`]: a batch of lanes in structure-of-arrays form and the run loop that executes an [`Executable`] on it.
//!
//! Registers are rows of [`LANES`] words: row `4 * r + c` of a file holds component `c` of register `r` for every
//! lane. An instruction reads its sources for every lane of the batch (reads have no side effects), computes for
//! every lane, and writes only the lanes its execution mask enables. The files are allocated on the first batch and
//! reused; nothing is allocated per lane or per instruction.

use crate::api::multisample;
use crate::api::resource::SamplerDesc;
use crate::dxbc::program::{InstructionReturnType, Opcode, ResinfoReturnType, ResourceDimension};
use crate::{Error, Result};

use super::alu;
use super::binding::{Bindings, LevelOfDetail, PullLocation, ShaderResource, Unbound};
use super::executable::{
    Destination, DestinationFile, Executable, Flow, Index, Layout, Op, ResourceKind, Scalar, ScalarFile, Source,
    SourceFile, SourceModifier, Stage, apply_modifier,
};
use super::lanes::{LANES, LaneMask, Lanes, bit, has};
use super::trace::{LaneStep, Trace, TraceStep, TracedWrite};
use super::uav::{SharedMemory, Writer};

mod memory;

/// Four components, post-swizzle, for every lane.
type Vec4 = [Lanes; 4];

/// The default instruction budget per invocation (see [`Machine::set_budget`]).
pub const DEFAULT_BUDGET: u64 = 1 << 22;

/// The most value operands an instruction has (`sample_d`: address, x and y derivatives; `bfi`: four).
const MAX_SOURCES: usize = 4;

/// A row of zeros.
const ZERO: Lanes = [0; LANES];

/// Component `c` (masked to 0..3) of a four-row value.
#[allow(clippy::indexing_slicing)] // `c & 3` is below 4, the array's length.
#[inline]
fn row(value: &Vec4, c: u8) -> &Lanes {
    &value[usize::from(c & 3)]
}

/// Component `c` (masked to 0..3) of a four-row value, to write.
#[allow(clippy::indexing_slicing)] // `c & 3` is below 4, the array's length.
#[inline]
fn row_mut(value: &mut Vec4, c: u8) -> &mut Lanes {
    &mut value[usize::from(c & 3)]
}

/// Word `c` (masked to 0..3) of a four-word value.
#[allow(clippy::indexing_slicing)] // `c & 3` is below 4, the array's length.
#[inline]
fn word(value: &[u32; 4], c: u8) -> u32 {
    value[usize::from(c & 3)]
}

/// The components (0..3) set in `mask`.
#[inline]
fn components(mask: u8) -> impl Iterator<Item = u8> {
    (0u8..4).filter(move |c| has_component(mask, *c))
}

/// Whether component `c` is set in `mask` (x = bit 0).
#[inline]
fn has_component(mask: u8, c: u8) -> bool {
    mask.checked_shr(u32::from(c)).is_some_and(|m| m & 1 == 1)
}

/// The components of double slot `slot`: `.xy` for 0, `.zw` for 1 (22.14).
#[inline]
fn slot_mask(slot: u8) -> u8 {
    if slot == 0 { 0b0011 } else { 0b1100 }
}

/// The registers of a batch.
#[derive(Clone, Debug, Default)]
struct Registers {
    temps: Vec<Lanes>,
    indexable: Vec<Lanes>,
    inputs: Vec<Lanes>,
    outputs: Vec<Lanes>,
    depth: Lanes,
    coverage_out: Lanes,
    stencil_ref: Lanes,
    primitive_id: Lanes,
    coverage_in: Lanes,
    inner_coverage: Lanes,
    gs_instance: Lanes,
}

/// What a geometry batch's lane did at an `emit` or `cut` (22.8), in execution order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emission {
    /// The lane (invocation).
    pub lane: u8,
    /// The stream.
    pub stream: u8,
    /// A vertex (its output words start at this index of [`Machine::emitted_words`]), or `None` for a cut.
    pub vertex: Option<usize>,
}

/// Where instruction operands are evaluated: one four-row value per source and per destination.
#[derive(Clone, Debug)]
struct Scratch {
    sources: [Vec4; MAX_SOURCES],
    results: [Vec4; 2],
}

/// An open flow-control construct, with the lanes to restore when it closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// `if`: the lanes that reached it and those that take the `else`.
    If { outer: LaneMask, otherwise: LaneMask },
    /// `loop`: the lanes that reached it and those waiting at `continue` for the next iteration.
    Loop { outer: LaneMask, continued: LaneMask },
    /// `switch`: the lanes that reached it, those not yet entered at a case, and those that go to `default`.
    Switch {
        outer: LaneMask,
        pending: LaneMask,
        default: LaneMask,
    },
    /// `call`: the lanes that reached it and where to return.
    Call { outer: LaneMask, return_to: usize },
}

/// How far lanes leaving with `break`, `continue` or `ret` unwind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leave {
    /// To the innermost loop or switch.
    Break,
    /// To the innermost loop, waiting there for the next iteration.
    Continue,
    /// To the innermost call, or out of the program.
    Return,
}

/// What the run loop reads besides the machine: the program, the bindings and a compute batch's group memory.
struct Context<'r, 'b> {
    exe: &'r Executable,
    bindings: &'r Bindings<'b>,
    shared: Option<&'r SharedMemory>,
}

/// How a compute batch's run ([`Machine::run_threads`]) stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every lane ended.
    Finished,
    /// The lanes reached a `sync` with `_t` (22.17.7: every thread of the group waits there): run the group's other
    /// batches to the same point, then this one again.
    Barrier,
}

/// A batch of lanes and their registers: [`LANES`] vertices, or up to eight 2x2 quads.
///
/// Use: [`Machine::start_vertices`] or [`Machine::start_quads`] for an [`Executable`], fill the inputs
/// ([`Machine::set_input`] or [`Machine::input_mut`]), [`Machine::run`], read the outputs. Reuse the machine for the
/// next batch; its register files only grow.
#[derive(Clone, Debug)]
pub struct Machine {
    registers: Registers,
    scratch: Box<Scratch>,
    layout: Layout,
    stage: Option<Stage>,
    /// Lanes in the batch.
    lane_count: usize,
    present: LaneMask,
    helper: LaneMask,
    discarded: LaneMask,
    /// Lanes that have not ended with a top-level `ret`.
    live: LaneMask,
    exec: LaneMask,
    frames: Vec<Frame>,
    selectors: Vec<Lanes>,
    calls: usize,
    budget: u64,
    /// Instructions the last run that ended without an error executed (counted as the budget counts them).
    steps: u64,
    /// Per `o#` row: the lanes that wrote it.
    written: Vec<LaneMask>,
    depth_written: LaneMask,
    coverage_written: LaneMask,
    stencil_written: LaneMask,
    ran: bool,
    /// Where a compute batch stopped at a barrier resumes.
    resume_at: Option<usize>,
    /// Set by a `sync_*_t` the batch's lanes executed; the run loop stops after it.
    at_barrier: bool,
    /// A geometry batch's emits and cuts, in execution order.
    emissions: Vec<Emission>,
    /// The output words of every emitted vertex (`o#` rows of the lane, all of them).
    emitted_words: Vec<u32>,
    /// Vertices each lane emitted (past `dcl_maxout`, emits are dropped: 13.3).
    emit_counts: [u32; LANES],
    /// The started geometry program's output topology.
    geometry_topology: u32,
    /// Each lane's invocation and thread group, as UAV writes name their writer ([`Writer`]).
    writers: [(u64, u64); LANES],
    /// Whether a lane's writer was set since the last start (so that starts that set none clear nothing).
    writers_set: bool,
    /// Group-wide barriers a compute batch has passed.
    barriers_passed: u32,
    /// Invocations [`Machine::number_invocations`] has numbered.
    invocations_numbered: u64,
}

impl Default for Machine {
    fn default() -> Self {
        Self::new()
    }
}

impl Machine {
    /// An empty machine; the first `start_*` sizes its register files.
    pub fn new() -> Self {
        Self {
            registers: Registers::default(),
            scratch: Box::new(Scratch {
                sources: [[ZERO; 4]; MAX_SOURCES],
                results: [[ZERO; 4]; 2],
            }),
            layout: Layout::default(),
            stage: None,
            lane_count: 0,
            present: 0,
            helper: 0,
            discarded: 0,
            live: 0,
            exec: 0,
            frames: Vec::new(),
            selectors: Vec::new(),
            calls: 0,
            budget: DEFAULT_BUDGET,
            steps: 0,
            written: Vec::new(),
            depth_written: 0,
            coverage_written: 0,
            stencil_written: 0,
            ran: false,
            resume_at: None,
            at_barrier: false,
            emissions: Vec::new(),
            emitted_words: Vec::new(),
            emit_counts: [0; LANES],
            geometry_topology: 0,
            writers: [(0, 0); LANES],
            writers_set: false,
            barriers_passed: 0,
            invocations_numbered: 0,
        }
    }

    /// Sets how many instructions one run may execute before it fails (a loop that does not end). The count is per
    /// batch: instructions executed while any lane is active, each counted once however many lanes run it, so it is
    /// at least what any one invocation executed. 7.1 sets no limit; [`DEFAULT_BUDGET`] is generous for real
    /// programs.
    pub fn set_budget(&mut self, instructions: u64) {
        self.budget = instructions;
    }

    /// Instructions the last [`Machine::run`] executed, each counted once however many lanes ran it (as the budget
    /// counts them): with the batch's lane count, the work a draw counts against its limit.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Prepares a batch of `count` vertices (1 to [`LANES`]) for `exe`: every register zeroed.
    pub fn start_vertices(&mut self, exe: &Executable, count: usize) -> Result<()> {
        self.start_independent(exe, Stage::Vertex, count, "start_vertices", "vertices")
    }

    /// Starts a batch of `count` independent lanes (1 to [`LANES`]) for `exe`, which must be of `stage`; `call`
    /// names the caller and `lanes` what a lane is, in errors.
    fn start_independent(
        &mut self,
        exe: &Executable,
        stage: Stage,
        count: usize,
        call: &str,
        lanes: &str,
    ) -> Result<()> {
        if exe.stage != stage {
            return Err(Error::new(
                exe.name.clone(),
                format!("{call} needs a {stage:?} program"),
            ));
        }
        if count == 0 || count > LANES {
            return Err(Error::new(
                exe.name.clone(),
                format!("a batch holds 1 to {LANES} {lanes}, not {count}"),
            ));
        }
        self.start(exe, count, 0);
        Ok(())
    }

    /// Prepares a batch of 2x2 quads for `exe`: quad `q` is lanes `4q..4q+4`, in the order top-left, top-right,
    /// bottom-left, bottom-right; bit `i` of `covered[q]` says lane `i` of that quad is covered. An uncovered lane is a
    /// helper (16.13): it runs, feeds derivatives and writes nothing. At most [`LANES`] / 4 quads.
    pub fn start_quads(&mut self, exe: &Executable, covered: &[u8]) -> Result<()> {
        if exe.stage != Stage::Pixel {
            return Err(Error::new(exe.name.clone(), "start_quads needs a pixel program"));
        }
        let quads = covered.len();
        if quads == 0 || quads > LANES / 4 {
            return Err(Error::new(
                exe.name.clone(),
                format!("a batch holds 1 to {} quads, not {quads}", LANES / 4),
            ));
        }
        let mut helper = 0;
        for (q, mask) in covered.iter().enumerate() {
            for i in 0..4 {
                if mask >> i & 1 == 0 {
                    helper |= bit(q.saturating_mul(4).saturating_add(i));
                }
            }
        }
        self.start(exe, quads.saturating_mul(4), helper);
        Ok(())
    }

    /// Prepares a batch of `count` geometry program invocations (1 to [`LANES`]): the caller fills each lane's input
    /// primitive ([`Machine::vertex_input_mut`]), `vPrim` ([`Machine::set_primitive_id`]) and `vGSInstanceID`
    /// ([`Machine::set_gs_instance`]), runs it and reads [`Machine::emissions`].
    pub fn start_primitives(&mut self, exe: &Executable, count: usize) -> Result<()> {
        self.start_independent(exe, Stage::Geometry, count, "start_primitives", "invocations")
    }

    /// A geometry batch's input `v[vertex][register]`, component `component`, for every lane, to fill in place.
    pub fn vertex_input_mut(
        &mut self,
        exe: &Executable,
        vertex: u32,
        register: u32,
        component: usize,
    ) -> Option<&mut Lanes> {
        if register >= exe.input_registers || component > 3 {
            return None;
        }
        let r = vertex.checked_mul(exe.input_registers)?.checked_add(register)?;
        self.input_mut(r, component)
    }

    /// Sets `vGSInstanceID` of lane `lane`.
    pub fn set_gs_instance(&mut self, lane: usize, value: u32) {
        if let Some(slot) = self.registers.gs_instance.get_mut(lane) {
            *slot = value;
        }
    }

    /// The output topology of the geometry program the batch last started (`D3D10_SB_PRIMITIVE_TOPOLOGY`: 1 point
    /// list, 3 line strip, 5 triangle strip; 0 for other programs).
    pub fn geometry_topology(&self) -> u32 {
        self.geometry_topology
    }

    /// A geometry batch's emits and cuts in execution order (each lane's in its program order).
    pub fn emissions(&self) -> &[Emission] {
        &self.emissions
    }

    /// The output words of an emitted vertex: `o0.xyzw`, `o1.xyzw`, ... of the lane when it emitted.
    pub fn emitted_vertex(&self, first: usize) -> &[u32] {
        let count = self.layout.outputs;
        self.emitted_words
            .get(first..first.saturating_add(count))
            .unwrap_or(&[])
    }

    /// Prepares a batch of `count` lanes (1 to [`LANES`]) of a hull program phase or a domain program: the caller
    /// fills each lane's control points, patch constants and system value where [`Executable::patch_inputs`] puts
    /// them ([`Machine::input_mut`]) and `vPrim` ([`Machine::set_primitive_id`]), runs it and reads the outputs.
    pub fn start_patch_lanes(&mut self, exe: &Executable, count: usize) -> Result<()> {
        let stage = if exe.stage == Stage::Domain {
            Stage::Domain
        } else {
            Stage::Hull
        };
        self.start_independent(exe, stage, count, "start_patch_lanes", "lanes")
    }

    /// Prepares a batch of `count` compute threads (1 to [`LANES`]) for `exe`. The caller fills each lane's thread
    /// IDs with [`Machine::set_thread`] and runs the batch with [`Machine::run_threads`].
    pub fn start_threads(&mut self, exe: &Executable, count: usize) -> Result<()> {
        self.start_independent(exe, Stage::Compute, count, "start_threads", "threads")
    }

    /// Sets lane `lane`'s thread IDs (18.6.5): its position in the dispatch (`vThreadID`), its group's
    /// (`vThreadGroupID`), its position in the group (`vThreadIDInGroup`) and that flattened
    /// (`vThreadIDInGroupFlattened`).
    pub fn set_thread(&mut self, lane: usize, thread: [u32; 3], group: [u32; 3], in_group: [u32; 3], flattened: u32) {
        let values = [
            (0u32, [thread[0], thread[1], thread[2], 0]),
            (1, [group[0], group[1], group[2], 0]),
            (2, [in_group[0], in_group[1], in_group[2], 0]),
            (3, [flattened, 0, 0, 0]),
        ];
        for (register, value) in values {
            for (c, v) in value.into_iter().enumerate() {
                if let Some(slot) = self.input_mut(register, c).and_then(|rows| rows.get_mut(lane)) {
                    *slot = v;
                }
            }
        }
    }

    fn start(&mut self, exe: &Executable, count: usize, helper: LaneMask) {
        let layout = exe.layout;
        let reset = |rows: &mut Vec<Lanes>, n: usize| {
            rows.clear();
            rows.resize(n, ZERO);
        };
        reset(&mut self.registers.temps, layout.temps);
        reset(&mut self.registers.indexable, layout.indexable);
        reset(&mut self.registers.inputs, layout.inputs);
        reset(&mut self.registers.outputs, layout.outputs);
        let registers = &mut self.registers;
        for scalar in [
            &mut registers.depth,
            &mut registers.coverage_out,
            &mut registers.stencil_ref,
            &mut registers.primitive_id,
            &mut registers.coverage_in,
            &mut registers.inner_coverage,
            &mut registers.gs_instance,
        ] {
            *scalar = ZERO;
        }
        self.written.clear();
        self.written.resize(layout.outputs, 0);
        self.layout = layout;
        self.stage = Some(exe.stage);
        self.lane_count = count;
        self.present = (0..count).map(bit).fold(0, |a, b| a | b);
        self.helper = helper & self.present;
        self.discarded = 0;
        self.live = self.present;
        self.exec = 0;
        self.frames.clear();
        self.selectors.clear();
        self.calls = 0;
        self.depth_written = 0;
        self.coverage_written = 0;
        self.stencil_written = 0;
        self.ran = false;
        self.resume_at = None;
        self.at_barrier = false;
        self.steps = 0;
        self.emissions.clear();
        self.emitted_words.clear();
        self.emit_counts = [0; LANES];
        self.geometry_topology = exe.geometry.map_or(0, |g| g.output_topology);
        if self.writers_set {
            self.writers = [(0, 0); LANES];
            self.writers_set = false;
        }
        self.barriers_passed = 0;
    }

    /// Names lane `lane`'s invocation and thread group for the views that follow the order of their writes
    /// ([`crate::shader::uav::UnorderedAccessView::track_order`]); lanes not named are one invocation.
    pub fn set_writer(&mut self, lane: usize, invocation: u64, group: u64) {
        if let Some(slot) = self.writers.get_mut(lane) {
            *slot = (invocation, group);
            self.writers_set = true;
        }
    }

    /// Names every lane of the batch a new invocation of its own (numbered on from the machine's last), for a
    /// pixel program's views: the spec orders no two pixel-program invocations' accesses (5.3.9; rasterizer-ordered
    /// views, which would order them per pixel, are not distinguished).
    pub fn number_invocations(&mut self) {
        for lane in 0..self.lane_count {
            let invocation = self.invocations_numbered;
            self.invocations_numbered = invocation.wrapping_add(1);
            self.set_writer(lane, invocation, invocation);
        }
    }

    /// Lane `lane` as the writer of a UAV access now.
    pub(super) fn writer(&self, lane: usize) -> Writer {
        let (invocation, group) = self.writers.get(lane).copied().unwrap_or_default();
        Writer {
            invocation,
            group,
            epoch: self.barriers_passed,
            instruction: 0,
        }
    }

    /// How many lanes the batch holds.
    pub fn lane_count(&self) -> usize {
        self.lane_count
    }

    /// Input register `register`, component `component`, for every lane, to fill in place.
    pub fn input_mut(&mut self, register: u32, component: usize) -> Option<&mut Lanes> {
        let r = usize::try_from(register).ok()?;
        if component > 3 {
            return None;
        }
        self.registers.inputs.get_mut(r.checked_mul(4)?.checked_add(component)?)
    }

    /// Sets input `v{register}` of lane `lane`.
    pub fn set_input(&mut self, lane: usize, register: u32, value: [u32; 4]) -> Result<()> {
        if lane >= self.lane_count {
            return Err(Error::new("shader inputs", format!("lane {lane} is not in the batch")));
        }
        for (c, v) in value.into_iter().enumerate() {
            let slot = self
                .input_mut(register, c)
                .and_then(|rows| rows.get_mut(lane))
                .ok_or_else(|| Error::new("shader inputs", format!("v{register} is not an input of the program")))?;
            *slot = v;
        }
        Ok(())
    }

    /// Sets `vPrim` (or an `SV_PrimitiveID` the caller routes here) of lane `lane`.
    pub fn set_primitive_id(&mut self, lane: usize, value: u32) {
        if let Some(slot) = self.registers.primitive_id.get_mut(lane) {
            *slot = value;
        }
    }

    /// Sets `vCoverage` of lane `lane` (16.3.2: the samples the primitive covers).
    pub fn set_input_coverage(&mut self, lane: usize, value: u32) {
        if let Some(slot) = self.registers.coverage_in.get_mut(lane) {
            *slot = value;
        }
    }

    /// Sets `vInnerCoverage` of lane `lane`.
    pub fn set_inner_coverage(&mut self, lane: usize, value: u32) {
        if let Some(slot) = self.registers.inner_coverage.get_mut(lane) {
            *slot = value;
        }
    }

    /// Output `o{register}` of lane `lane` after the run (zeros where the program wrote nothing).
    pub fn output(&self, lane: usize, register: u32) -> [u32; 4] {
        let mut value = [0; 4];
        for (c, v) in value.iter_mut().enumerate() {
            *v = usize::try_from(register)
                .ok()
                .and_then(|r| r.checked_mul(4))
                .and_then(|r| r.checked_add(c))
                .and_then(|r| self.registers.outputs.get(r))
                .and_then(|rows| rows.get(lane))
                .copied()
                .unwrap_or(0);
        }
        value
    }

    /// Output register `register`, component `component`, for every lane.
    pub fn output_lanes(&self, register: u32, component: usize) -> Option<&Lanes> {
        let r = usize::try_from(register).ok()?;
        if component > 3 {
            return None;
        }
        self.registers.outputs.get(r.checked_mul(4)?.checked_add(component)?)
    }

    /// Whether lane `lane` is a helper (covered by no sample; 16.13).
    pub fn is_helper(&self, lane: usize) -> bool {
        has(self.helper, lane)
    }

    /// Whether lane `lane` executed a `discard` (22.5.1).
    pub fn is_discarded(&self, lane: usize) -> bool {
        has(self.discarded, lane)
    }

    /// Whether lane `lane`'s outputs count: it is in the batch, not a helper and not discarded (16.13).
    pub fn writes(&self, lane: usize) -> bool {
        has(self.present & !self.helper & !self.discarded, lane) && self.ran
    }

    /// The components of `o{register}` that lane `lane` wrote (x = bit 0); 0 when its outputs do not count
    /// ([`Machine::writes`]).
    pub fn written(&self, lane: usize, register: u32) -> u8 {
        if !self.writes(lane) {
            return 0;
        }
        let mut mask = 0;
        for c in 0..4usize {
            let wrote = usize::try_from(register)
                .ok()
                .and_then(|r| r.checked_mul(4))
                .and_then(|r| r.checked_add(c))
                .and_then(|r| self.written.get(r))
                .is_some_and(|m| has(*m, lane));
            if wrote {
                mask |= 1 << c;
            }
        }
        mask
    }

    /// The depth lane `lane` wrote to `oDepth`/`oDepthGE`/`oDepthLE`, as float bits; `None` if it wrote none or its
    /// outputs do not count.
    pub fn depth(&self, lane: usize) -> Option<u32> {
        (self.writes(lane) && has(self.depth_written, lane))
            .then(|| self.registers.depth.get(lane).copied())
            .flatten()
    }

    /// The coverage mask lane `lane` wrote to `oMask`; `None` if it wrote none or its outputs do not count.
    pub fn coverage_mask(&self, lane: usize) -> Option<u32> {
        (self.writes(lane) && has(self.coverage_written, lane))
            .then(|| self.registers.coverage_out.get(lane).copied())
            .flatten()
    }

    /// The stencil reference lane `lane` wrote to `oStencilRef`; `None` if it wrote none or its outputs do not count.
    pub fn stencil_ref(&self, lane: usize) -> Option<u32> {
        (self.writes(lane) && has(self.stencil_written, lane))
            .then(|| self.registers.stencil_ref.get(lane).copied())
            .flatten()
    }

    /// Runs `exe` on the batch with `bindings`, recording `trace`'s lanes if a trace is given. Fails if the batch
    /// was not started for `exe`, a declared slot is empty (unless `bindings.unbound` says to read zeros) or holds a
    /// view of another shape or sample count than declared, a texture read fails, or the instruction budget runs out.
    pub fn run(&mut self, exe: &Executable, bindings: &Bindings<'_>, mut trace: Option<&mut Trace>) -> Result<()> {
        if self.stage != Some(exe.stage) || self.layout != exe.layout || self.lane_count == 0 {
            return Err(Error::new(
                exe.name.clone(),
                "the batch was not started for this program (call start_vertices or start_quads first)",
            ));
        }
        if self.ran {
            return Err(Error::new(
                exe.name.clone(),
                "the batch has already run; start a new one",
            ));
        }
        if exe.stage == Stage::Compute {
            return Err(Error::new(
                exe.name.clone(),
                "a compute batch runs with its group's shared memory (run_threads)",
            ));
        }
        check_bindings(exe, bindings)?;
        self.ran = true;
        let context = Context {
            exe,
            bindings,
            shared: None,
        };
        self.exec = self.present;
        let result = self.run_program(&context, 0, trace.as_deref_mut());
        if let Some(trace) = trace {
            trace.settle();
        }
        self.exec = 0;
        self.steps = result?.0;
        Ok(())
    }

    /// Runs a compute batch started with [`Machine::start_threads`] with its group's `shared` memory, until every
    /// lane ends or the lanes reach a barrier; call again after the group's other batches reached it to go on.
    /// Instructions count against the budget across the calls; [`Machine::steps`] is their total so far.
    pub fn run_threads(
        &mut self,
        exe: &Executable,
        bindings: &Bindings<'_>,
        shared: &SharedMemory,
        mut trace: Option<&mut Trace>,
    ) -> Result<RunEnd> {
        if self.stage != Some(Stage::Compute) || exe.stage != Stage::Compute || self.layout != exe.layout {
            return Err(Error::new(
                exe.name.clone(),
                "the batch was not started for this program (call start_threads first)",
            ));
        }
        let start = match (self.ran, self.resume_at.take()) {
            (false, _) => {
                check_bindings(exe, bindings)?;
                self.ran = true;
                self.exec = self.present;
                0
            }
            (true, Some(pc)) => pc,
            (true, None) => return Ok(RunEnd::Finished),
        };
        let context = Context {
            exe,
            bindings,
            shared: Some(shared),
        };
        let result = self.run_program(&context, start, trace.as_deref_mut());
        let (steps, end) = match result {
            Ok(done) => done,
            Err(e) => {
                self.exec = 0;
                return Err(e);
            }
        };
        self.steps = steps;
        match end {
            Some(pc) => {
                self.resume_at = Some(pc);
                self.barriers_passed = self.barriers_passed.saturating_add(1);
                Ok(RunEnd::Barrier)
            }
            None => {
                if let Some(trace) = trace {
                    trace.settle();
                }
                self.exec = 0;
                Ok(RunEnd::Finished)
            }
        }
    }

    /// Runs the program from op `start` until it ends, fails, runs out of budget or (compute) stops at a barrier;
    /// gives the instructions executed so far (this batch's, across barriers) and where to resume after a barrier.
    fn run_program(
        &mut self,
        context: &Context<'_, '_>,
        start: usize,
        mut trace: Option<&mut Trace>,
    ) -> Result<(u64, Option<usize>)> {
        let exe = context.exe;
        let mut pc = start;
        let mut steps: u64 = if start == 0 { 0 } else { self.steps };
        while let Some(op) = exe.ops.get(pc) {
            steps = steps.saturating_add(1);
            if steps > self.budget {
                return Err(Error::new(
                    exe.name.clone(),
                    format!(
                        "the instruction budget of {} per invocation ran out (a loop that never ends?)",
                        self.budget
                    ),
                )
                .at(exe.place(op)));
            }
            let before = self.exec;
            let next = self.step(context, op, pc)?;
            if let Some(trace) = trace.as_deref_mut()
                && (before | self.exec) & trace.lanes != 0
            {
                self.record(context, op, before, trace);
            }
            match next {
                Some(next) if self.at_barrier => {
                    self.at_barrier = false;
                    return Ok((steps, Some(next)));
                }
                Some(next) => pc = next,
                None => break,
            }
        }
        Ok((steps, None))
    }

    /// Executes `op` (at position `pc`); returns the next position, or `None` when the program ends.
    fn step(&mut self, context: &Context<'_, '_>, op: &Op, pc: usize) -> Result<Option<usize>> {
        let next = pc.saturating_add(1);
        let to = |target: u32| usize::try_from(target).unwrap_or(usize::MAX);
        match op.opcode {
            Opcode::Nop | Opcode::Label => {}
            Opcode::If => {
                self.read_sources(context, op);
                let taken = self.condition(op) & self.exec;
                let Flow::If { else_op, endif_op } = op.flow else {
                    return Ok(Some(next));
                };
                if self.exec == 0 {
                    return Ok(Some(to(endif_op).saturating_add(1)));
                }
                self.frames.push(Frame::If {
                    outer: self.exec,
                    otherwise: self.exec & !taken,
                });
                self.exec = taken;
                if taken == 0 {
                    return Ok(Some(to(else_op)));
                }
            }
            Opcode::Else => {
                let Flow::Else { endif_op } = op.flow else {
                    return Ok(Some(next));
                };
                if let Some(Frame::If { otherwise, .. }) = self.frames.last() {
                    self.exec = *otherwise;
                    if *otherwise == 0 {
                        return Ok(Some(to(endif_op)));
                    }
                }
            }
            Opcode::Endif => {
                if let Some(Frame::If { outer, .. }) = self.frames.last() {
                    self.exec = *outer;
                    self.frames.pop();
                }
            }
            Opcode::Loop => {
                let Flow::Loop { endloop_op } = op.flow else {
                    return Ok(Some(next));
                };
                if self.exec == 0 {
                    return Ok(Some(to(endloop_op).saturating_add(1)));
                }
                self.frames.push(Frame::Loop {
                    outer: self.exec,
                    continued: 0,
                });
            }
            Opcode::Endloop => {
                let Flow::EndLoop { loop_op } = op.flow else {
                    return Ok(Some(next));
                };
                if let Some(Frame::Loop { outer, continued }) = self.frames.last_mut() {
                    self.exec |= *continued;
                    *continued = 0;
                    if self.exec != 0 {
                        return Ok(Some(to(loop_op).saturating_add(1)));
                    }
                    self.exec = *outer;
                    self.frames.pop();
                }
            }
            Opcode::Break => self.leave(self.exec, Leave::Break),
            Opcode::Continue => self.leave(self.exec, Leave::Continue),
            Opcode::Breakc | Opcode::Continuec | Opcode::Retc => {
                self.read_sources(context, op);
                let lanes = self.condition(op) & self.exec;
                let how = match op.opcode {
                    Opcode::Breakc => Leave::Break,
                    Opcode::Continuec => Leave::Continue,
                    _ => Leave::Return,
                };
                self.leave(lanes, how);
            }
            Opcode::Switch => {
                self.read_sources(context, op);
                let Flow::Switch { endswitch_op, cases } = op.flow else {
                    return Ok(Some(next));
                };
                if self.exec == 0 {
                    return Ok(Some(to(endswitch_op).saturating_add(1)));
                }
                let selector = *row(&self.scratch.sources[0], 0);
                let values = context
                    .exe
                    .switches
                    .get(to(cases))
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let mut default = 0;
                for lane in 0..self.lane_count {
                    let value = selector.get(lane).copied().unwrap_or(0);
                    if has(self.exec, lane) && !values.contains(&value) {
                        default |= bit(lane);
                    }
                }
                self.frames.push(Frame::Switch {
                    outer: self.exec,
                    pending: self.exec,
                    default,
                });
                self.selectors.push(selector);
                self.exec = 0;
            }
            Opcode::Case | Opcode::Default => {
                let Some(Frame::Switch { pending, default, .. }) = self.frames.last_mut() else {
                    return Ok(Some(next));
                };
                let enter = match op.flow {
                    Flow::Case(value) => {
                        let selector = self.selectors.last().unwrap_or(&ZERO);
                        let mut lanes = 0;
                        for (lane, v) in selector.iter().enumerate().take(self.lane_count) {
                            if *v == value {
                                lanes |= bit(lane);
                            }
                        }
                        lanes & *pending
                    }
                    _ => *default & *pending,
                };
                *pending &= !enter;
                self.exec |= enter;
            }
            Opcode::Endswitch => {
                if let Some(Frame::Switch { outer, .. }) = self.frames.last() {
                    self.exec = *outer;
                    self.frames.pop();
                    self.selectors.pop();
                }
            }
            Opcode::Call | Opcode::Callc => {
                let lanes = if op.opcode == Opcode::Callc {
                    self.read_sources(context, op);
                    self.condition(op) & self.exec
                } else {
                    self.exec
                };
                let Flow::Call { target } = op.flow else {
                    return Ok(Some(next));
                };
                // 22.7.10: a call made with 32 return addresses on the stack is skipped.
                if lanes != 0 && self.calls < super::executable::MAX_CALL_DEPTH {
                    self.frames.push(Frame::Call {
                        outer: self.exec,
                        return_to: next,
                    });
                    self.calls = self.calls.saturating_add(1);
                    self.exec = lanes;
                    return Ok(Some(to(target)));
                }
            }
            Opcode::Ret => {
                if op.flow == (Flow::Ret { function_end: true }) {
                    return Ok(self.end_function());
                }
                self.leave(self.exec, Leave::Return);
            }
            Opcode::Discard => {
                self.read_sources(context, op);
                self.discarded |= self.condition(op) & self.exec;
            }
            Opcode::Emit
            | Opcode::EmitStream
            | Opcode::Emitthencut
            | Opcode::EmitthencutStream
            | Opcode::Cut
            | Opcode::CutStream => self.emit(context, op),
            Opcode::Sync => {
                // 22.17.7: the memory fences order this interpreter's accesses already (each executes in program
                // order, lane by lane); `_t` makes the group's threads wait for each other.
                if op.sync & crate::dxbc::program::SyncFlags::THREADS_IN_GROUP != 0 && self.exec != 0 {
                    self.at_barrier = true;
                }
            }
            _ => {
                if self.exec != 0 {
                    self.execute(context, op)?;
                }
            }
        }
        Ok(Some(next))
    }

    /// `emit`, `cut`, `emitThenCut` (22.8) for the executing lanes, in lane order: an emit records the lane's every
    /// output register as a vertex of the stream unless the lane already emitted `dcl_maxout` vertices (13.3: "stopping
    /// writes"); a cut records the end of the lane's strip. Output registers keep their values after an emit (13.4
    /// makes them undefined).
    fn emit(&mut self, context: &Context<'_, '_>, op: &Op) {
        let emits = !matches!(op.opcode, Opcode::Cut | Opcode::CutStream);
        let cuts = !matches!(op.opcode, Opcode::Emit | Opcode::EmitStream);
        let most = context.exe.geometry.map_or(0, |g| g.max_vertices);
        let rows = self.layout.outputs;
        for lane in 0..self.lane_count {
            if !has(self.exec, lane) {
                continue;
            }
            let lane_byte = u8::try_from(lane).unwrap_or(u8::MAX);
            if emits
                && let Some(count) = self.emit_counts.get_mut(lane)
                && *count < most
            {
                {
                    *count = count.saturating_add(1);
                    let first = self.emitted_words.len();
                    for r in 0..rows {
                        let word = self.registers.outputs.get(r).and_then(|row| row.get(lane)).copied();
                        self.emitted_words.push(word.unwrap_or(0));
                    }
                    self.emissions.push(Emission {
                        lane: lane_byte,
                        stream: op.stream,
                        vertex: Some(first),
                    });
                }
            }
            if cuts {
                self.emissions.push(Emission {
                    lane: lane_byte,
                    stream: op.stream,
                    vertex: None,
                });
            }
        }
    }

    /// The `ret` that ends a function: back to the caller with the lanes that called, or the end of the program.
    fn end_function(&mut self) -> Option<usize> {
        // Frames above the call cannot be open: the ret is outside flow control (checked at build).
        while let Some(frame) = self.frames.pop() {
            if let Frame::Call { outer, return_to } = frame {
                self.exec = outer;
                self.calls = self.calls.saturating_sub(1);
                return Some(return_to);
            }
        }
        self.live = 0;
        self.exec = 0;
        None
    }

    /// Lanes `lanes` leave by `break`, `continue` or `ret`: they stop executing, and every construct they leave
    /// forgets them, so closing it does not bring them back. The construct they go to keeps them (a loop or switch
    /// resumes them after its end; a loop's `continue` lanes rejoin at `endloop`). A `ret` outside any call ends
    /// the lanes for good (22.7.16).
    fn leave(&mut self, lanes: LaneMask, how: Leave) {
        if lanes == 0 {
            return;
        }
        self.exec &= !lanes;
        let mut returned_to_caller = false;
        for frame in self.frames.iter_mut().rev() {
            match frame {
                Frame::If { outer, otherwise } => {
                    *outer &= !lanes;
                    *otherwise &= !lanes;
                }
                Frame::Loop { outer, continued } => match how {
                    Leave::Break => break,
                    Leave::Continue => {
                        *continued |= lanes;
                        break;
                    }
                    Leave::Return => {
                        *outer &= !lanes;
                        *continued &= !lanes;
                    }
                },
                Frame::Switch {
                    outer,
                    pending,
                    default,
                } => match how {
                    Leave::Break => break,
                    Leave::Continue | Leave::Return => {
                        *outer &= !lanes;
                        *pending &= !lanes;
                        *default &= !lanes;
                    }
                },
                Frame::Call { .. } => {
                    returned_to_caller = true;
                    break;
                }
            }
        }
        if how == Leave::Return && !returned_to_caller {
            self.live &= !lanes;
        }
    }

    /// The lanes whose first source (component 0) passes the instruction's `_nz`/`_z` test (22.7.1).
    fn condition(&self, op: &Op) -> LaneMask {
        let value = row(&self.scratch.sources[0], 0);
        let mut lanes = 0;
        for (lane, v) in value.iter().enumerate().take(self.lane_count) {
            if (*v != 0) == op.test_nonzero {
                lanes |= bit(lane);
            }
        }
        lanes
    }

    // -- operands -------------------------------------------------------------------------------------------

    /// Evaluates every value source of `op` into the scratch sources.
    fn read_sources(&mut self, context: &Context<'_, '_>, op: &Op) {
        let Self {
            registers,
            scratch,
            lane_count,
            ..
        } = self;
        for (source, out) in op.sources.iter().zip(scratch.sources.iter_mut()) {
            read_source(registers, context, *lane_count, source, out);
        }
    }

    /// Writes scratch result `result` to `destination` for the executing lanes.
    fn write_result(&mut self, context: &Context<'_, '_>, destination: &Destination, result: usize) {
        let exec = self.exec;
        let n = self.lane_count;
        let Self {
            registers,
            scratch,
            written,
            depth_written,
            coverage_written,
            stencil_written,
            ..
        } = self;
        let Some(value) = scratch.results.get(result) else {
            return;
        };
        let mask = destination.mask;
        match destination.file {
            DestinationFile::Null => {}
            DestinationFile::Temp(first) => {
                for c in components(mask) {
                    if let Some(rows) = row_at(&mut registers.temps, first, c) {
                        blend(rows, row(value, c), exec, n);
                    }
                }
            }
            DestinationFile::Indexable { array, index } => {
                let Some(array) = context.exe.arrays.get(usize::from(array)).copied() else {
                    return;
                };
                let elements = element_rows(registers, context, n, index, array.size);
                scatter(
                    &mut registers.indexable,
                    &elements,
                    array.row,
                    mask,
                    value,
                    exec,
                    n,
                    None,
                );
            }
            DestinationFile::Output(index) => {
                let elements = element_rows(registers, context, n, index, context.exe.output_registers);
                scatter(
                    &mut registers.outputs,
                    &elements,
                    0,
                    mask,
                    value,
                    exec,
                    n,
                    Some(written),
                );
            }
            DestinationFile::Depth => {
                if mask & 1 != 0 {
                    blend(&mut registers.depth, row(value, 0), exec, n);
                    *depth_written |= exec;
                }
            }
            DestinationFile::CoverageMask => {
                if mask & 1 != 0 {
                    blend(&mut registers.coverage_out, row(value, 0), exec, n);
                    *coverage_written |= exec;
                }
            }
            DestinationFile::StencilRef => {
                if mask & 1 != 0 {
                    blend(&mut registers.stencil_ref, row(value, 0), exec, n);
                    *stencil_written |= exec;
                }
            }
        }
    }

    /// Applies `_sat` to scratch result `result` on `mask`'s components: float saturate, or double saturate when
    /// `double` (22.19.1).
    fn saturate(&mut self, result: usize, mask: u8, double: bool) {
        let n = self.lane_count;
        let Some(value) = self.scratch.results.get_mut(result) else {
            return;
        };
        if double {
            for slot in 0..2u8 {
                if mask & slot_mask(slot) == 0 {
                    continue;
                }
                let [low, high] = pair_mut(value, slot);
                for (l, h) in low.iter_mut().zip(high.iter_mut()).take(n) {
                    let [a, b] = alu::dsaturate([*l, *h]);
                    *l = a;
                    *h = b;
                }
            }
        } else {
            for c in components(mask) {
                for v in row_mut(value, c).iter_mut().take(n) {
                    *v = alu::saturate(*v);
                }
            }
        }
    }

    // -- instructions ---------------------------------------------------------------------------------------

    /// Executes a non-flow-control instruction for the executing lanes.
    fn execute(&mut self, context: &Context<'_, '_>, op: &Op) -> Result<()> {
        use Opcode as O;
        self.read_sources(context, op);
        match op.opcode {
            O::Add => self.map2(alu::add, op),
            O::Div => self.map2(alu::div, op),
            O::Min => self.map2(alu::min, op),
            O::Max => self.map2(alu::max, op),
            O::Mul => self.map2(alu::mul, op),
            O::Eq => self.map2(alu::eq, op),
            O::Ge => self.map2(alu::ge, op),
            O::Lt => self.map2(alu::lt, op),
            O::Ne => self.map2(alu::ne, op),
            O::Mad if context.bindings.alu.fused_mad => self.map3(alu::mad_fused, op),
            O::Mad => self.map3(alu::mad, op),
            O::Dp2 => self.dot(2, op),
            O::Dp3 => self.dot(3, op),
            O::Dp4 => self.dot(4, op),
            O::Exp => self.map1(alu::exp, op),
            O::Frc => self.map1(alu::frc, op),
            O::Log => self.map1(alu::log, op),
            O::Rcp => self.map1(alu::rcp, op),
            O::Rsq => self.map1(alu::rsq, op),
            O::Sqrt => self.map1(alu::sqrt, op),
            O::RoundNe => self.map1(alu::round_ne, op),
            O::RoundNi => self.map1(alu::round_ni, op),
            O::RoundPi => self.map1(alu::round_pi, op),
            O::RoundZ => self.map1(alu::round_z, op),
            O::Mov => self.map1(alu::mov, op),
            O::Movc => self.map3(alu::movc, op),
            O::Swapc => self.map3_pair(alu::swapc, op),
            O::Sincos => self.map1_pair(alu::sincos, op),
            O::Ftoi => self.map1(alu::ftoi, op),
            O::Ftou => self.map1(alu::ftou, op),
            O::F32tof16 if context.bindings.alu.f16_nearest => self.map1(alu::f32tof16_nearest, op),
            O::F32tof16 => self.map1(alu::f32tof16, op),
            O::Itof => self.map1(alu::itof, op),
            O::Utof => self.map1(alu::utof, op),
            O::F16tof32 => self.map1(alu::f16tof32, op),
            O::Not => self.map1(alu::not, op),
            O::Ineg => self.map1(alu::ineg, op),
            O::Bfrev => self.map1(alu::bfrev, op),
            O::Countbits => self.map1(alu::countbits, op),
            O::FirstbitHi => self.map1(alu::firstbit_hi, op),
            O::FirstbitLo => self.map1(alu::firstbit_lo, op),
            O::FirstbitShi => self.map1(alu::firstbit_shi, op),
            O::And => self.map2(alu::and, op),
            O::Or => self.map2(alu::or, op),
            O::Xor => self.map2(alu::xor, op),
            O::Iadd => self.map2(alu::iadd, op),
            O::Ishl => self.map2(alu::ishl, op),
            O::Ishr => self.map2(alu::ishr, op),
            O::Ushr => self.map2(alu::ushr, op),
            O::Ieq => self.map2(alu::ieq, op),
            O::Ige => self.map2(alu::ige, op),
            O::Ilt => self.map2(alu::ilt, op),
            O::Ine => self.map2(alu::ine, op),
            O::Ult => self.map2(alu::ult, op),
            O::Uge => self.map2(alu::uge, op),
            O::Imax => self.map2(alu::imax, op),
            O::Imin => self.map2(alu::imin, op),
            O::Umax => self.map2(alu::umax, op),
            O::Umin => self.map2(alu::umin, op),
            O::Imad => self.map3(alu::imad, op),
            O::Umad => self.map3(alu::umad, op),
            O::Msad => self.map3(alu::msad, op),
            O::Ubfe => self.map3(alu::ubfe, op),
            O::Ibfe => self.map3(alu::ibfe, op),
            O::Bfi => self.map4(alu::bfi, op),
            O::Imul => self.map2_pair(alu::imul, op),
            O::Umul => self.map2_pair(alu::umul, op),
            O::Udiv => self.map2_pair(alu::udiv, op),
            O::Uaddc => self.map2_pair(alu::uaddc, op),
            O::Usubb => self.map2_pair(alu::usubb, op),
            O::Dadd => self.double2(alu::dadd, op),
            O::Dmul => self.double2(alu::dmul, op),
            O::Dmin => self.double2(alu::dmin, op),
            O::Dmax => self.double2(alu::dmax, op),
            O::Ddiv => self.double2(alu::ddiv, op),
            O::Dfma => self.double3(op),
            O::Drcp => self.double1(alu::drcp, op),
            O::Dmov => self.double1(alu::dmov, op),
            O::Dmovc => self.double_movc(op),
            O::Deq => self.double_to_32_2(alu::deq, op),
            O::Dge => self.double_to_32_2(alu::dge, op),
            O::Dlt => self.double_to_32_2(alu::dlt, op),
            O::Dne => self.double_to_32_2(alu::dne, op),
            O::Dtof => self.double_to_32_1(alu::dtof, op),
            O::Dtoi => self.double_to_32_1(alu::dtoi, op),
            O::Dtou => self.double_to_32_1(alu::dtou, op),
            O::Ftod => self.single_to_double(alu::ftod, op),
            O::Itod => self.single_to_double(alu::itod, op),
            O::Utod => self.single_to_double(alu::utod, op),
            O::DerivRtx | O::DerivRtxCoarse => self.derivative(false, false, op),
            O::DerivRty | O::DerivRtyCoarse => self.derivative(true, false, op),
            O::DerivRtxFine => self.derivative(false, true, op),
            O::DerivRtyFine => self.derivative(true, true, op),
            O::EvalSnapped | O::EvalSampleIndex | O::EvalCentroid => self.pull(context, op),
            _ if op.memory.is_some() => return self.memory(context, op),
            _ => return self.texture(context, op),
        }
        self.finish(context, op);
        Ok(())
    }

    /// `eval_snapped`, `eval_sample_index`, `eval_centroid` (22.4.23-25, 16.5): for each executing lane, each
    /// destination component reads its swizzled component of the attribute register through the bindings'
    /// [`PullModel`] at the instruction's location, the register as read (the rasterizer's location) where the
    /// model has no answer; then the source modifier. The offset's low 4 bits of U and V, sign-extended, are
    /// 1/16 pixel steps in -8..=7 (16.5.3).
    fn pull(&mut self, context: &Context<'_, '_>, op: &Op) {
        let n = self.lane_count;
        let exec = self.exec;
        let mask = Self::union_mask(op);
        let Some(attribute) = op.sources.first() else {
            return;
        };
        let elements = match attribute.file {
            SourceFile::Input(index) => element_rows(&self.registers, context, n, index, context.exe.input_registers),
            _ => [None; LANES],
        };
        let Scratch { sources, results } = &mut *self.scratch;
        let [read, at, ..] = &*sources;
        let [out, _] = results;
        let word_at = |v: &Vec4, c: u8, lane: usize| row(v, c).get(lane).copied().unwrap_or(0);
        let four_bits = |v: u32| ((v << 28) as i32) >> 28;
        for c in components(mask) {
            let component = attribute.swizzle.get(usize::from(c)).copied().unwrap_or(c);
            for lane in 0..n {
                let register_value = word_at(read, c, lane);
                let value = if has(exec, lane) {
                    let location = match op.opcode {
                        Opcode::EvalSnapped => {
                            PullLocation::Snapped([four_bits(word_at(at, 0, lane)), four_bits(word_at(at, 1, lane))])
                        }
                        Opcode::EvalSampleIndex => PullLocation::Sample(word_at(at, 0, lane)),
                        _ => PullLocation::Centroid,
                    };
                    let register = elements
                        .get(lane)
                        .copied()
                        .flatten()
                        .and_then(|row| u32::try_from(row / 4).ok());
                    match (context.bindings.pull_model, register) {
                        (Some(model), Some(register)) => model
                            .evaluate(lane, register, component, location)
                            .map_or(register_value, |w| apply_modifier(attribute.modifier, [w; 4])[0]),
                        _ => register_value,
                    }
                } else {
                    register_value
                };
                if let Some(o) = row_mut(out, c).get_mut(lane) {
                    *o = value;
                }
            }
        }
    }

    /// Saturates (if asked) and writes every destination of an ALU instruction.
    fn finish(&mut self, context: &Context<'_, '_>, op: &Op) {
        let double = matches!(
            op.opcode,
            Opcode::Dadd
                | Opcode::Dmul
                | Opcode::Dmin
                | Opcode::Dmax
                | Opcode::Ddiv
                | Opcode::Dfma
                | Opcode::Drcp
                | Opcode::Dmov
                | Opcode::Dmovc
        );
        for (i, destination) in op.destinations.iter().enumerate() {
            if op.saturate {
                self.saturate(i, destination.mask, double);
            }
            self.write_result(context, destination, i);
        }
    }

    /// The union of `op`'s destination masks.
    fn union_mask(op: &Op) -> u8 {
        op.destinations.iter().fold(0, |a, d| a | d.mask)
    }

    fn map1(&mut self, f: impl Fn(u32) -> u32, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, ..] = &*sources;
        let [out, _] = results;
        for c in components(Self::union_mask(op)) {
            for (o, x) in row_mut(out, c).iter_mut().zip(row(a, c)).take(n) {
                *o = f(*x);
            }
        }
    }

    fn map2(&mut self, f: impl Fn(u32, u32) -> u32, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, ..] = &*sources;
        let [out, _] = results;
        for c in components(Self::union_mask(op)) {
            for ((o, x), y) in row_mut(out, c).iter_mut().zip(row(a, c)).zip(row(b, c)).take(n) {
                *o = f(*x, *y);
            }
        }
    }

    fn map3(&mut self, f: impl Fn(u32, u32, u32) -> u32, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, d, ..] = &*sources;
        let [out, _] = results;
        for c in components(Self::union_mask(op)) {
            let lanes = row_mut(out, c).iter_mut().zip(row(a, c)).zip(row(b, c)).zip(row(d, c));
            for (((o, x), y), z) in lanes.take(n) {
                *o = f(*x, *y, *z);
            }
        }
    }

    fn map4(&mut self, f: impl Fn(u32, u32, u32, u32) -> u32, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, d, e] = &*sources;
        let [out, _] = results;
        for c in components(Self::union_mask(op)) {
            let lanes = row_mut(out, c)
                .iter_mut()
                .zip(row(a, c))
                .zip(row(b, c))
                .zip(row(d, c))
                .zip(row(e, c));
            for ((((o, x), y), z), w) in lanes.take(n) {
                *o = f(*x, *y, *z, *w);
            }
        }
    }

    fn map1_pair(&mut self, f: impl Fn(u32) -> (u32, u32), op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, ..] = &*sources;
        let [first, second] = results;
        for c in components(Self::union_mask(op)) {
            let lanes = row_mut(first, c)
                .iter_mut()
                .zip(row_mut(second, c).iter_mut())
                .zip(row(a, c));
            for ((p, q), x) in lanes.take(n) {
                (*p, *q) = f(*x);
            }
        }
    }

    fn map2_pair(&mut self, f: impl Fn(u32, u32) -> (u32, u32), op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, ..] = &*sources;
        let [first, second] = results;
        for c in components(Self::union_mask(op)) {
            let lanes = row_mut(first, c)
                .iter_mut()
                .zip(row_mut(second, c).iter_mut())
                .zip(row(a, c))
                .zip(row(b, c));
            for (((p, q), x), y) in lanes.take(n) {
                (*p, *q) = f(*x, *y);
            }
        }
    }

    fn map3_pair(&mut self, f: impl Fn(u32, u32, u32) -> (u32, u32), op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, d, ..] = &*sources;
        let [first, second] = results;
        for c in components(Self::union_mask(op)) {
            let lanes = row_mut(first, c)
                .iter_mut()
                .zip(row_mut(second, c).iter_mut())
                .zip(row(a, c))
                .zip(row(b, c))
                .zip(row(d, c));
            for ((((p, q), x), y), z) in lanes.take(n) {
                (*p, *q) = f(*x, *y, *z);
            }
        }
    }

    /// `dp2`/`dp3`/`dp4`: one scalar from the first `count` components, replicated to the destination's components.
    fn dot(&mut self, count: usize, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, ..] = &*sources;
        let [out, _] = results;
        let mut scalar = ZERO;
        for (lane, s) in scalar.iter_mut().enumerate().take(n) {
            let at = |v: &Vec4, c: u8| row(v, c).get(lane).copied().unwrap_or(0);
            *s = match count {
                2 => alu::dp2([at(a, 0), at(a, 1)], [at(b, 0), at(b, 1)]),
                3 => alu::dp3([at(a, 0), at(a, 1), at(a, 2)], [at(b, 0), at(b, 1), at(b, 2)]),
                _ => alu::dp4(
                    [at(a, 0), at(a, 1), at(a, 2), at(a, 3)],
                    [at(b, 0), at(b, 1), at(b, 2), at(b, 3)],
                ),
            };
        }
        for c in components(Self::union_mask(op)) {
            *row_mut(out, c) = scalar;
        }
    }

    /// A double-result instruction over the destination's slots (`.xy` = slot 0, `.zw` = slot 1; 22.14).
    fn double_slots(op: &Op) -> impl Iterator<Item = u8> {
        let mask = Self::union_mask(op);
        (0u8..2).filter(move |slot| mask & slot_mask(*slot) != 0)
    }

    fn double1(&mut self, f: impl Fn(alu::DoubleWords) -> alu::DoubleWords, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, ..] = &*sources;
        let [out, _] = results;
        for slot in Self::double_slots(op) {
            for lane in 0..n {
                let r = f(pair_at(a, slot, lane));
                set_pair(out, slot, lane, r);
            }
        }
    }

    fn double2(&mut self, f: impl Fn(alu::DoubleWords, alu::DoubleWords) -> alu::DoubleWords, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, ..] = &*sources;
        let [out, _] = results;
        for slot in Self::double_slots(op) {
            for lane in 0..n {
                let r = f(pair_at(a, slot, lane), pair_at(b, slot, lane));
                set_pair(out, slot, lane, r);
            }
        }
    }

    fn double3(&mut self, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, d, ..] = &*sources;
        let [out, _] = results;
        for slot in Self::double_slots(op) {
            for lane in 0..n {
                let r = alu::dfma(pair_at(a, slot, lane), pair_at(b, slot, lane), pair_at(d, slot, lane));
                set_pair(out, slot, lane, r);
            }
        }
    }

    /// `dmovc` (22.16.2): slot k takes its condition from the condition's post-swizzle component k.
    fn double_movc(&mut self, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [condition, a, b, ..] = &*sources;
        let [out, _] = results;
        for slot in Self::double_slots(op) {
            for lane in 0..n {
                let test = row(condition, slot).get(lane).copied().unwrap_or(0);
                let r = alu::dmovc(test, pair_at(a, slot, lane), pair_at(b, slot, lane));
                set_pair(out, slot, lane, r);
            }
        }
    }

    /// 32-bit results from doubles (22.15, 22.17.1, 22.17.3-4): the `k`-th component of the destination mask
    /// receives the result for double `k`.
    fn double_to_32(&mut self, op: &Op, f: impl Fn(&Vec4, &Vec4, u8, usize) -> u32) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, b, ..] = &*sources;
        let [out, _] = results;
        for (slot, c) in components(Self::union_mask(op)).enumerate() {
            let slot = u8::try_from(slot).unwrap_or(0);
            for (lane, o) in row_mut(out, c).iter_mut().enumerate().take(n) {
                *o = f(a, b, slot, lane);
            }
        }
    }

    fn double_to_32_1(&mut self, f: impl Fn(alu::DoubleWords) -> u32, op: &Op) {
        self.double_to_32(op, |a, _, slot, lane| f(pair_at(a, slot, lane)));
    }

    fn double_to_32_2(&mut self, f: impl Fn(alu::DoubleWords, alu::DoubleWords) -> u32, op: &Op) {
        self.double_to_32(op, |a, b, slot, lane| f(pair_at(a, slot, lane), pair_at(b, slot, lane)));
    }

    /// `ftod`/`itod`/`utod` (22.17.2, 22.17.5-6): double slot k from the source's post-swizzle component k.
    fn single_to_double(&mut self, f: impl Fn(u32) -> alu::DoubleWords, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, ..] = &*sources;
        let [out, _] = results;
        for slot in Self::double_slots(op) {
            for lane in 0..n {
                let r = f(row(a, slot).get(lane).copied().unwrap_or(0));
                set_pair(out, slot, lane, r);
            }
        }
    }

    /// `deriv_rt{x,y}[_coarse|_fine]` (22.5.2-5) over each quad of the batch. Fine: the difference along the lane's
    /// own row (x) or column (y). Coarse: one pair per quad, the top row for x and the left column for y — the
    /// choice 22.5.2 gives as its example ("the x derivative could be a delta from the top row of pixels, and the y
    /// direction could be a delta from the left column"). SM4's `deriv_rtx`/`deriv_rty` are the coarse ones (22.5.2:
    /// the _coarse and _fine forms "are a replacement for deriv_rtx/deriv_rty"; the D3D10 forms allowed one
    /// derivative per 2x2 stamp). The difference is a float subtraction (`add` with the second operand negated). Every
    /// lane of the quad contributes whether it is executing or not, as on hardware; 16.8 leaves derivatives inside
    /// varying flow control undefined.
    fn derivative(&mut self, vertical: bool, fine: bool, op: &Op) {
        let n = self.lane_count;
        let Scratch { sources, results } = &mut *self.scratch;
        let [a, ..] = &*sources;
        let [out, _] = results;
        for c in components(Self::union_mask(op)) {
            let value = row(a, c);
            let result = row_mut(out, c);
            for (q, (quad, out)) in value.chunks_exact(4).zip(result.chunks_exact_mut(4)).enumerate() {
                if q.saturating_mul(4) >= n {
                    break;
                }
                let [tl, tr, bl, br] = [0, 1, 2, 3].map(|i| quad.get(i).copied().unwrap_or(0));
                let d = |to: u32, from: u32| alu::add(to, alu::neg(from));
                let values = match (vertical, fine) {
                    (false, false) => [d(tr, tl); 4],
                    (true, false) => [d(bl, tl); 4],
                    (false, true) => {
                        let top = d(tr, tl);
                        let bottom = d(br, bl);
                        [top, top, bottom, bottom]
                    }
                    (true, true) => {
                        let left = d(bl, tl);
                        let right = d(br, tr);
                        [left, right, left, right]
                    }
                };
                for (o, v) in out.iter_mut().zip(values) {
                    *o = v;
                }
            }
        }
    }

    // -- trace ----------------------------------------------------------------------------------------------

    fn record(&self, context: &Context<'_, '_>, op: &Op, before: LaneMask, trace: &mut Trace) {
        if !trace.keeps_any() {
            trace.dropped = trace.dropped.saturating_add(1);
            return;
        }
        let mut lanes = Vec::new();
        for lane in 0..self.lane_count {
            if !has(trace.lanes, lane) {
                continue;
            }
            // Only the components the instruction read are meaningful; the others are recorded as 0.
            let sources = self
                .scratch
                .sources
                .iter()
                .zip(&op.sources)
                .map(|(value, source)| {
                    [0u8, 1, 2, 3].map(|c| {
                        if has_component(source.used, c) {
                            row(value, c).get(lane).copied().unwrap_or(0)
                        } else {
                            0
                        }
                    })
                })
                .collect();
            let destinations = op
                .destinations
                .iter()
                .map(|d| TracedWrite {
                    mask: d.mask,
                    value: self.destination_value(context, d, lane),
                })
                .collect();
            lanes.push(LaneStep {
                lane: u8::try_from(lane).unwrap_or(u8::MAX),
                active: has(before, lane),
                sources,
                destinations,
            });
        }
        trace.push(TraceStep {
            instruction: op.instruction,
            offset: op.offset,
            opcode: op.opcode,
            active: before,
            active_after: self.exec,
            lanes,
        });
    }

    /// The four components of `destination`'s register for lane `lane`, as it is now.
    fn destination_value(&self, context: &Context<'_, '_>, destination: &Destination, lane: usize) -> [u32; 4] {
        let registers = &self.registers;
        let n = self.lane_count;
        let at = |rows: &[Lanes], first: Option<usize>| {
            [0usize, 1, 2, 3].map(|c| {
                first
                    .and_then(|f| f.checked_add(c))
                    .and_then(|r| rows.get(r))
                    .and_then(|v| v.get(lane))
                    .copied()
                    .unwrap_or(0)
            })
        };
        let scalar = |v: &Lanes| [v.get(lane).copied().unwrap_or(0), 0, 0, 0];
        match destination.file {
            DestinationFile::Null => [0; 4],
            DestinationFile::Temp(first) => at(&registers.temps, usize::try_from(first).ok()),
            DestinationFile::Indexable { array, index } => {
                let Some(array) = context.exe.arrays.get(usize::from(array)) else {
                    return [0; 4];
                };
                let elements = element_rows(registers, context, n, index, array.size);
                let first = elements
                    .get(lane)
                    .copied()
                    .flatten()
                    .and_then(|e| e.checked_add(usize::try_from(array.row).ok()?));
                at(&registers.indexable, first)
            }
            DestinationFile::Output(index) => {
                let elements = element_rows(registers, context, n, index, context.exe.output_registers);
                at(&registers.outputs, elements.get(lane).copied().flatten())
            }
            DestinationFile::Depth => scalar(&registers.depth),
            DestinationFile::CoverageMask => scalar(&registers.coverage_out),
            DestinationFile::StencilRef => scalar(&registers.stencil_ref),
        }
    }

    // -- texture instructions -------------------------------------------------------------------------------

    /// A texture instruction (22.4, 22.5.6) for each executing lane: the address and other operands are read, the
    /// bound view answers, the result is swizzled by the resource operand's swizzle and written through the mask.
    fn texture(&mut self, context: &Context<'_, '_>, op: &Op) -> Result<()> {
        let Some(tex) = op.texture else {
            return Err(Error::new(context.exe.name.clone(), "not an executable instruction").at(context.exe.place(op)));
        };
        let view: Option<&dyn ShaderResource> = tex
            .resource
            .and_then(|slot| usize::try_from(slot).ok().and_then(|s| context.bindings.resource(s)));
        let default_sampler = SamplerDesc::default();
        let sampler = tex.sampler.map(|slot| {
            usize::try_from(slot)
                .ok()
                .and_then(|s| context.bindings.sampler(s))
                .unwrap_or(&default_sampler)
        });
        let n = self.lane_count;
        let exec = self.exec;
        let declared = tex
            .resource
            .and_then(|slot| context.exe.resources.iter().find(|r| r.slot == slot))
            .map(|r| r.kind);
        let fail = |e: Error| {
            Error::new(context.exe.name.clone(), format!("t{}: {e}", tex.resource.unwrap_or(0)))
                .at(context.exe.place(op))
        };
        let Scratch { sources, results } = &mut *self.scratch;
        let [out, _] = results;
        let float = |v: &Vec4, c: u8, lane: usize| f32::from_bits(row(v, c).get(lane).copied().unwrap_or(0));
        let int = |v: &Vec4, c: u8, lane: usize| row(v, c).get(lane).copied().unwrap_or(0);
        let coords = |v: &Vec4, lane: usize| [0u8, 1, 2, 3].map(|c| float(v, c, lane));
        // Coarse derivatives of the address across each quad (22.4.15: "the same definition that the deriv*
        // Shader instructions use"), computed for every quad whatever its lanes' execution state.
        let coarse = |v: &Vec4, lane: usize| -> ([f32; 3], [f32; 3]) {
            let base = lane & !3;
            let at = |c: u8, i: usize| row(v, c).get(base.saturating_add(i)).copied().unwrap_or(0);
            let d = |c: u8, i: usize| f32::from_bits(alu::add(at(c, i), alu::neg(at(c, 0))));
            ([0u8, 1, 2].map(|c| d(c, 1)), [0u8, 1, 2].map(|c| d(c, 2)))
        };
        let [a, b, d, ..] = &*sources;
        for lane in 0..n {
            if !has(exec, lane) {
                continue;
            }
            let texel: [u32; 4] = match op.opcode {
                Opcode::Sample
                | Opcode::SampleB
                | Opcode::SampleC
                | Opcode::SampleCLz
                | Opcode::SampleL
                | Opcode::SampleD => match (view, sampler) {
                    (Some(view), Some(sampler)) => {
                        let (ddx, ddy) = coarse(a, lane);
                        let (lod, reference) = match op.opcode {
                            Opcode::Sample => (LevelOfDetail::Implicit { ddx, ddy }, None),
                            Opcode::SampleB => (
                                LevelOfDetail::Bias {
                                    ddx,
                                    ddy,
                                    bias: float(b, 0, lane),
                                },
                                None,
                            ),
                            Opcode::SampleC => (LevelOfDetail::Implicit { ddx, ddy }, Some(float(b, 0, lane))),
                            Opcode::SampleCLz => (LevelOfDetail::Zero, Some(float(b, 0, lane))),
                            Opcode::SampleL => (LevelOfDetail::Explicit(float(b, 0, lane)), None),
                            _ => (
                                LevelOfDetail::Gradient {
                                    ddx: [0u8, 1, 2].map(|c| float(b, c, lane)),
                                    ddy: [0u8, 1, 2].map(|c| float(d, c, lane)),
                                },
                                None,
                            ),
                        };
                        view.sample(sampler, coords(a, lane), tex.offsets, lod, reference)
                            .map_err(fail)?
                    }
                    _ => [0; 4],
                },
                Opcode::Gather4 | Opcode::Gather4C | Opcode::Gather4Po | Opcode::Gather4PoC => match (view, sampler) {
                    (Some(view), Some(sampler)) => {
                        let programmable = matches!(op.opcode, Opcode::Gather4Po | Opcode::Gather4PoC);
                        // 22.4.4: "The 6 least significant bits of each offset value is honored as a signed value".
                        let six_bits = |v: u32| ((v << 26) as i32) >> 26;
                        let offset = if programmable {
                            [six_bits(int(b, 0, lane)), six_bits(int(b, 1, lane))]
                        } else {
                            let [u, v, _] = tex.offsets;
                            [u, v]
                        };
                        let reference = match op.opcode {
                            Opcode::Gather4C => Some(float(b, 0, lane)),
                            Opcode::Gather4PoC => Some(float(d, 0, lane)),
                            _ => None,
                        };
                        view.gather(sampler, coords(a, lane), offset, tex.channel, reference)
                            .map_err(fail)?
                    }
                    _ => [0; 4],
                },
                Opcode::Ld | Opcode::LdMs => match view {
                    Some(view) => {
                        let address = [0u8, 1, 2, 3].map(|c| int(a, c, lane) as i32);
                        let sample = if op.opcode == Opcode::LdMs { int(b, 0, lane) } else { 0 };
                        view.load(address, tex.offsets, sample).map_err(fail)?
                    }
                    None => [0; 4],
                },
                Opcode::Resinfo => {
                    let dimensions = view.map(|v| v.dimensions(int(a, 0, lane))).unwrap_or([0; 4]);
                    let sizes = match declared {
                        Some(ResourceKind::Typed { dimension, .. }) => size_components(dimension),
                        _ => 0,
                    };
                    match op.resinfo_return {
                        ResinfoReturnType::Uint => dimensions,
                        ResinfoReturnType::Float => dimensions.map(alu::utof),
                        ResinfoReturnType::RcpFloat => {
                            let mut value = dimensions.map(alu::utof);
                            for (c, v) in value.iter_mut().enumerate() {
                                if sizes >> c & 1 == 1 {
                                    *v = alu::rcp(*v);
                                }
                            }
                            value
                        }
                    }
                }
                Opcode::SampleInfo => {
                    // 22.4.21: (SampleCount, 0, 0, 0) of the view or the rasterizer; an empty slot gives 0.
                    let count = match tex.resource {
                        Some(_) => view.map_or(0, |v| v.sample_count()),
                        None => context.bindings.rasterizer_sample_count,
                    };
                    let count = match op.sample_info_return {
                        InstructionReturnType::Uint => count,
                        InstructionReturnType::Float => alu::utof(count),
                    };
                    [count, 0, 0, 0]
                }
                Opcode::SamplePos => {
                    let index = int(a, 0, lane);
                    // 22.4.22: (x, y, 0, 0) of the view's or the rasterizer's pattern; an index out of bounds or an
                    // empty slot gives zeros.
                    let position = match tex.resource {
                        Some(_) => view.map_or([0.0; 2], |v| v.sample_position(index)),
                        None => multisample::sample_position(
                            context.bindings.rasterizer_sample_count,
                            context.bindings.rasterizer_sample_quality,
                            index,
                        )
                        .unwrap_or([0.0; 2]),
                    };
                    [position[0].to_bits(), position[1].to_bits(), 0, 0]
                }
                Opcode::Lod => match (view, sampler) {
                    (Some(view), Some(sampler)) => {
                        let (ddx, ddy) = coarse(a, lane);
                        let [clamped, unclamped] = view.lod(sampler, coords(a, lane), ddx, ddy);
                        [clamped.to_bits(), unclamped.to_bits(), 0, 0]
                    }
                    _ => [0; 4],
                },
                Opcode::Bufinfo => [view.map_or(0, |v| v.buffer_elements()); 4],
                Opcode::LdRaw | Opcode::LdStructured => {
                    // 22.4.10, 22.4.12: the four words from the byte offset, read through the resource swizzle; only
                    // the words a written component names are read.
                    let (index, offset) = if op.opcode == Opcode::LdRaw {
                        (None, int(a, 0, lane))
                    } else {
                        (Some(int(a, 0, lane)), int(b, 0, lane))
                    };
                    let mut words = [0u32; 4];
                    if let Some(view) = view {
                        for (c, w) in words.iter_mut().enumerate() {
                            let used = tex.swizzle.iter().enumerate().any(|(k, s)| {
                                usize::from(*s) == c
                                    && op
                                        .destinations
                                        .first()
                                        .is_some_and(|dst| has_component(dst.mask, u8::try_from(k).unwrap_or(0)))
                            });
                            if !used {
                                continue;
                            }
                            let at = u64::from(offset).saturating_add(4u64.saturating_mul(c as u64));
                            // An offset past 32 bits is past any buffer: 0, as out-of-bounds reads are.
                            let Ok(at) = u32::try_from(at) else {
                                continue;
                            };
                            *w = match index {
                                None => view.load_raw(at),
                                Some(index) => view.load_structured(index, at),
                            }
                            .map_err(fail)?;
                        }
                    }
                    words
                }
                _ => {
                    return Err(
                        Error::new(context.exe.name.clone(), "not an executable instruction").at(context.exe.place(op))
                    );
                }
            };
            for c in 0u8..4 {
                if let Some(slot) = row_mut(out, c).get_mut(lane) {
                    *slot = word(&texel, *tex.swizzle.get(usize::from(c)).unwrap_or(&c));
                }
            }
        }
        if let Some(destination) = op.destinations.first() {
            self.write_result(context, destination, 0);
        }
        Ok(())
    }
}

/// The components of `resinfo`'s result that are sizes for a resource of `dimension` (22.4.14), which
/// `_rcpFloat` turns into reciprocals: width for 1D textures, width and height for 2D and cube ones, all three for
/// 3D. Array sizes, zeros and the mip count are not.
fn size_components(dimension: ResourceDimension) -> u8 {
    use ResourceDimension as R;
    match dimension {
        R::Texture1D | R::Texture1DArray => 0b0001,
        R::Texture2D
        | R::Texture2DArray
        | R::Texture2DMs
        | R::Texture2DMsArray
        | R::TextureCube
        | R::TextureCubeArray => 0b0011,
        R::Texture3D => 0b0111,
        _ => 0,
    }
}

/// Checks `bindings` against `exe`'s declarations: with [`Unbound::Error`], every declared slot must be bound; a
/// bound view must have the declared shape, and a multisample view the declared sample count when one is declared.
fn check_bindings(exe: &Executable, bindings: &Bindings<'_>) -> Result<()> {
    let strict = bindings.unbound == Unbound::Error;
    let missing = |slot: String| {
        Error::new(
            exe.name.clone(),
            format!("nothing is bound to {slot}, which the program declares"),
        )
        .at(slot)
    };
    for cb in &exe.constant_buffers {
        let bound = usize::try_from(cb.slot).ok().and_then(|s| bindings.constant_buffer(s));
        if strict && bound.is_none() {
            return Err(missing(format!("cb{}", cb.slot)));
        }
    }
    for sampler in &exe.samplers {
        let bound = usize::try_from(sampler.slot).ok().and_then(|s| bindings.sampler(s));
        if strict && bound.is_none() {
            return Err(missing(format!("s{}", sampler.slot)));
        }
    }
    for resource in &exe.resources {
        let view = usize::try_from(resource.slot).ok().and_then(|s| bindings.resource(s));
        let Some(view) = view else {
            if strict {
                return Err(missing(format!("t{}", resource.slot)));
            }
            continue;
        };
        if !view_fits(resource.kind, view.dimension()) {
            return Err(Error::new(
                exe.name.clone(),
                format!(
                    "t{} is declared {:?} but the view bound there is {:?}",
                    resource.slot,
                    resource.kind,
                    view.dimension()
                ),
            )
            .at(format!("t{}", resource.slot)));
        }
        // 22.3.12: `dcl_resource_texture2dms[array](N)` states the bound resource's sample count; 0 leaves it open
        // (22.4.7: as of D3D10.1 "the multisample count does not have to be specified on the texture resource").
        if let ResourceKind::Typed {
            dimension: ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray,
            sample_count,
            ..
        } = resource.kind
            && sample_count != 0
            && view.sample_count() != u32::from(sample_count)
        {
            return Err(Error::new(
                exe.name.clone(),
                format!(
                    "t{} is declared with {sample_count} samples but the view bound there has {}",
                    resource.slot,
                    view.sample_count()
                ),
            )
            .at(format!("t{}", resource.slot)));
        }
    }
    for uav in &exe.uavs {
        let view = usize::try_from(uav.slot).ok().and_then(|s| bindings.uav(s));
        let Some(view) = view else {
            if strict {
                return Err(missing(format!("u{}", uav.slot)));
            }
            continue;
        };
        if !super::uav::fits_declaration(uav.kind, view) {
            return Err(Error::new(
                exe.name.clone(),
                format!(
                    "u{} is declared {:?} but the view bound there is a {:?} {:?} view",
                    uav.slot,
                    uav.kind,
                    view.access(),
                    view.dimension()
                ),
            )
            .at(format!("u{}", uav.slot)));
        }
    }
    Ok(())
}

/// Whether a view of dimension `view` can be read through a declaration of `kind` (the view and the declaration must
/// have the same shape; 5.2 and 22.3.12).
fn view_fits(kind: ResourceKind, view: crate::api::enums::SrvDimension) -> bool {
    use crate::api::enums::SrvDimension as V;
    use ResourceDimension as R;
    match kind {
        ResourceKind::Raw | ResourceKind::Structured { .. } => matches!(view, V::Buffer | V::BufferEx),
        ResourceKind::Typed { dimension, .. } => matches!(
            (dimension, view),
            (R::Buffer, V::Buffer | V::BufferEx)
                | (R::Texture1D, V::Texture1D)
                | (R::Texture1DArray, V::Texture1DArray)
                | (R::Texture2D, V::Texture2D)
                | (R::Texture2DArray, V::Texture2DArray)
                | (R::Texture2DMs, V::Texture2DMs)
                | (R::Texture2DMsArray, V::Texture2DMsArray)
                | (R::Texture3D, V::Texture3D)
                | (R::TextureCube, V::TextureCube)
                | (R::TextureCubeArray, V::TextureCubeArray)
        ),
    }
}

/// The rows of file `rows` from register row `first` plus component `c`.
fn row_at(rows: &mut [Lanes], first: u32, c: u8) -> Option<&mut Lanes> {
    let r = usize::try_from(first).ok()?.checked_add(usize::from(c & 3))?;
    rows.get_mut(r)
}

/// Copies `value` into `target` for the lanes of `mask` among the first `n`.
#[inline]
fn blend(target: &mut Lanes, value: &Lanes, mask: LaneMask, n: usize) {
    if n == LANES && mask == LaneMask::MAX {
        *target = *value;
        return;
    }
    for (lane, (t, v)) in target.iter_mut().zip(value).enumerate().take(n) {
        if has(mask, lane) {
            *t = *v;
        }
    }
}

/// For each lane, the first row (element * 4) an index names in a file of `count` elements, or `None` when it is
/// out of range.
fn element_rows(
    registers: &Registers,
    context: &Context<'_, '_>,
    n: usize,
    index: Index,
    count: u32,
) -> [Option<usize>; LANES] {
    let mut rows = [None; LANES];
    let element = |e: u32| (e < count).then(|| usize::try_from(e).ok()?.checked_mul(4)).flatten();
    match index {
        Index::Imm(e) => rows.iter_mut().take(n).for_each(|r| *r = element(e)),
        Index::Rel { base, by } => {
            let mut offsets = ZERO;
            read_scalar(registers, context, n, &by, &mut offsets);
            for (r, o) in rows.iter_mut().zip(offsets).take(n) {
                *r = element(base.wrapping_add(o));
            }
        }
    }
    rows
}

/// Writes `value`'s `mask` components to per-lane element rows of `file` (from `first`), for the lanes of `exec`;
/// lanes whose element is out of range write nothing (7.3, 7.7 leave it undefined). Marks written lanes in
/// `written` when given.
#[allow(clippy::too_many_arguments)]
fn scatter(
    file: &mut [Lanes],
    elements: &[Option<usize>; LANES],
    first: u32,
    mask: u8,
    value: &Vec4,
    exec: LaneMask,
    n: usize,
    mut written: Option<&mut Vec<LaneMask>>,
) {
    let Ok(first) = usize::try_from(first) else {
        return;
    };
    for lane in 0..n {
        if !has(exec, lane) {
            continue;
        }
        let Some(element) = elements.get(lane).copied().flatten() else {
            continue;
        };
        for c in components(mask) {
            let Some(r) = first.checked_add(element).and_then(|r| r.checked_add(usize::from(c))) else {
                continue;
            };
            if let Some(slot) = file.get_mut(r).and_then(|rows| rows.get_mut(lane)) {
                *slot = row(value, c).get(lane).copied().unwrap_or(0);
                if let Some(w) = written.as_deref_mut().and_then(|w| w.get_mut(r)) {
                    *w |= bit(lane);
                }
            }
        }
    }
}

/// The double in slot `slot` (0: `.xy`, 1: `.zw`) of `value` for lane `lane`, low word first.
#[inline]
fn pair_at(value: &Vec4, slot: u8, lane: usize) -> alu::DoubleWords {
    let low = slot.wrapping_mul(2);
    [
        row(value, low).get(lane).copied().unwrap_or(0),
        row(value, low.wrapping_add(1)).get(lane).copied().unwrap_or(0),
    ]
}

/// Sets the double in slot `slot` of `value` for lane `lane`.
#[inline]
fn set_pair(value: &mut Vec4, slot: u8, lane: usize, words: alu::DoubleWords) {
    let low = slot.wrapping_mul(2);
    let [a, b] = words;
    if let Some(v) = row_mut(value, low).get_mut(lane) {
        *v = a;
    }
    if let Some(v) = row_mut(value, low.wrapping_add(1)).get_mut(lane) {
        *v = b;
    }
}

/// The two rows of slot `slot` of `value`, to write.
fn pair_mut(value: &mut Vec4, slot: u8) -> [&mut Lanes; 2] {
    let [x, y, z, w] = value;
    if slot == 0 { [x, y] } else { [z, w] }
}

/// Reads a scalar (a relative index) for the first `n` lanes.
fn read_scalar(registers: &Registers, context: &Context<'_, '_>, n: usize, scalar: &Scalar, out: &mut Lanes) {
    let c = usize::from(scalar.component & 3);
    let copy = |out: &mut Lanes, rows: &[Lanes], first: Option<usize>| {
        let source = first.and_then(|f| f.checked_add(c)).and_then(|r| rows.get(r));
        match source {
            Some(source) => *out = *source,
            None => *out = ZERO,
        }
    };
    let splat = |out: &mut Lanes, v: u32| out.iter_mut().take(n).for_each(|o| *o = v);
    match scalar.file {
        ScalarFile::Temp(first) => copy(out, &registers.temps, usize::try_from(first).ok()),
        ScalarFile::Input(first) => copy(out, &registers.inputs, usize::try_from(first).ok()),
        ScalarFile::Indexable(first) => copy(out, &registers.indexable, first.and_then(|f| usize::try_from(f).ok())),
        ScalarFile::ConstantBuffer { slot, element } => {
            let value = context
                .bindings
                .constant_buffer(usize::from(slot))
                .and_then(|cb| cb.get(usize::try_from(element).ok()?))
                .and_then(|v| v.get(c))
                .copied()
                .unwrap_or(0);
            splat(out, value);
        }
        ScalarFile::ImmediateConstantBuffer(element) => {
            let value = usize::try_from(element)
                .ok()
                .and_then(|e| context.exe.icb.get(e))
                .and_then(|v| v.get(c))
                .copied()
                .unwrap_or(0);
            splat(out, value);
        }
        ScalarFile::Literal(v) => splat(out, v),
        ScalarFile::PrimitiveId => *out = registers.primitive_id,
        ScalarFile::Coverage => *out = registers.coverage_in,
        ScalarFile::InnerCoverage => *out = registers.inner_coverage,
        ScalarFile::GsInstanceId => *out = registers.gs_instance,
    }
}

/// Reads `source` for the first `n` lanes into `out` (post-swizzle, modifier applied) — the components the
/// instruction uses; the others are left as they were.
///
/// Out-of-range rules (each for the lane whose index is out of range): a constant buffer read past the bound
/// buffer's end, or from a slot with nothing bound, gives 0 (7.5); so does an immediate constant buffer read past its
/// end (7.5.1: icb "behaves ... exactly the same way as Constant Buffers"); an `x#` or `v#` read past the declared
/// registers gives 0 — 7.3 and 7.7 leave it undefined (no data from outside the context), and 0 is this
/// interpreter's choice.
fn read_source(registers: &Registers, context: &Context<'_, '_>, n: usize, source: &Source, out: &mut Vec4) {
    let used = source.used;
    let swizzle = source.swizzle;
    let comp = |c: u8| *swizzle.get(usize::from(c)).unwrap_or(&c);
    let file = |rows: &[Lanes], first: usize, out: &mut Vec4| {
        for c in components(used) {
            let r = first.checked_add(usize::from(comp(c)));
            *row_mut(out, c) = r.and_then(|r| rows.get(r)).copied().unwrap_or(ZERO);
        }
    };
    // Per-lane rows of a file of `count` registers from `first`, indexed by `index`.
    let gather = |rows: &[Lanes], first: usize, index: Index, count: u32, out: &mut Vec4| {
        let elements = element_rows(registers, context, n, index, count);
        for c in components(used) {
            let target = row_mut(out, c);
            for (lane, t) in target.iter_mut().enumerate().take(n) {
                *t = elements
                    .get(lane)
                    .copied()
                    .flatten()
                    .and_then(|e| e.checked_add(first)?.checked_add(usize::from(comp(c))))
                    .and_then(|r| rows.get(r))
                    .and_then(|v| v.get(lane))
                    .copied()
                    .unwrap_or(0);
            }
        }
    };
    // Vectors shared by every lane (constant buffers, icb), indexed per lane.
    let vectors = |data: &[[u32; 4]], index: Index, out: &mut Vec4| match index {
        Index::Imm(e) => {
            let vector = usize::try_from(e)
                .ok()
                .and_then(|e| data.get(e))
                .copied()
                .unwrap_or([0; 4]);
            for c in components(used) {
                row_mut(out, c)
                    .iter_mut()
                    .take(n)
                    .for_each(|t| *t = word(&vector, comp(c)));
            }
        }
        Index::Rel { base, by } => {
            let mut offsets = ZERO;
            read_scalar(registers, context, n, &by, &mut offsets);
            for c in components(used) {
                let target = row_mut(out, c);
                for (t, o) in target.iter_mut().zip(offsets).take(n) {
                    let e = base.wrapping_add(o);
                    *t = usize::try_from(e)
                        .ok()
                        .and_then(|e| data.get(e))
                        .map_or(0, |v| word(v, comp(c)));
                }
            }
        }
    };
    let scalar_register = |value: &Lanes, out: &mut Vec4| {
        for c in components(used) {
            *row_mut(out, c) = *value;
        }
    };
    match source.file {
        SourceFile::Literal(value) => {
            for c in components(used) {
                row_mut(out, c).iter_mut().take(n).for_each(|t| *t = word(&value, c));
            }
        }
        SourceFile::Temp(first) => file(&registers.temps, usize::try_from(first).unwrap_or(usize::MAX), out),
        SourceFile::Input(Index::Imm(r)) => {
            let first = usize::try_from(r)
                .ok()
                .and_then(|r| r.checked_mul(4))
                .unwrap_or(usize::MAX);
            file(&registers.inputs, first, out);
        }
        SourceFile::Input(index) => gather(&registers.inputs, 0, index, context.exe.input_registers, out),
        SourceFile::Indexable { array, index } => match context.exe.arrays.get(usize::from(array)) {
            Some(array) => gather(
                &registers.indexable,
                usize::try_from(array.row).unwrap_or(usize::MAX),
                index,
                array.size,
                out,
            ),
            None => components(used).for_each(|c| *row_mut(out, c) = ZERO),
        },
        SourceFile::ConstantBuffer { slot, index } => {
            let data = context.bindings.constant_buffer(usize::from(slot)).unwrap_or(&[]);
            vectors(data, index, out);
        }
        SourceFile::ImmediateConstantBuffer(index) => vectors(&context.exe.icb, index, out),
        SourceFile::PrimitiveId => scalar_register(&registers.primitive_id, out),
        SourceFile::Coverage => scalar_register(&registers.coverage_in, out),
        SourceFile::InnerCoverage => scalar_register(&registers.inner_coverage, out),
        SourceFile::GsInstanceId => scalar_register(&registers.gs_instance, out),
        SourceFile::VertexInput {
            block,
            vertex,
            register,
        } => {
            // v[vertex][register]: the block's vertices' registers follow each other in the input file.
            let elements = element_rows(registers, context, n, vertex, block.vertices);
            for c in components(used) {
                let target = row_mut(out, c);
                for (lane, t) in target.iter_mut().enumerate().take(n) {
                    *t = elements
                        .get(lane)
                        .copied()
                        .flatten()
                        .and_then(|e| block.register_of(u32::try_from(e.checked_div(4)?).ok()?, register))
                        .and_then(|r| {
                            usize::try_from(r)
                                .ok()?
                                .checked_mul(4)?
                                .checked_add(usize::from(comp(c)))
                        })
                        .and_then(|r| registers.inputs.get(r))
                        .and_then(|v| v.get(lane))
                        .copied()
                        .unwrap_or(0);
                }
            }
        }
        SourceFile::PatchConstant(index) => {
            let patch = context.exe.patch;
            let first = usize::try_from(patch.patch_constants)
                .ok()
                .and_then(|r| r.checked_mul(4))
                .unwrap_or(usize::MAX);
            gather(&registers.inputs, first, index, patch.patch_constant_count, out);
        }
    }
    apply_modifier_lanes(source.modifier, used, n, out);
}

/// Applies a source modifier to the used components of a value read from registers (22.18).
fn apply_modifier_lanes(modifier: SourceModifier, used: u8, n: usize, out: &mut Vec4) {
    let each = |out: &mut Vec4, components_of: u8, f: fn(u32) -> u32| {
        for c in components(components_of) {
            row_mut(out, c).iter_mut().take(n).for_each(|v| *v = f(*v));
        }
    };
    match modifier {
        SourceModifier::None => {}
        SourceModifier::Neg => each(out, used, alu::neg),
        SourceModifier::Abs => each(out, used, alu::abs),
        SourceModifier::AbsNeg => each(out, used, |v| alu::neg(alu::abs(v))),
        SourceModifier::IntNeg => each(out, used, alu::ineg),
        // A double's sign is bit 31 of its high word, component y or w (3.1.4).
        SourceModifier::DoubleNeg => each(out, used & 0b1010, alu::neg),
        SourceModifier::DoubleAbs => each(out, used & 0b1010, alu::abs),
        SourceModifier::DoubleAbsNeg => each(out, used & 0b1010, |v| alu::neg(alu::abs(v))),
    }
}
