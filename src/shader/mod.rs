//! The SM4/SM5 shader interpreter: vertex, pixel, geometry and compute programs (shader models 4.0, 4.1 and 5.0) run
//! on the CPU, a
//! batch of lanes at a time, as the D3D11.3 functional specification says. [`alu`] holds what each arithmetic,
//! bitwise and conversion instruction does to one lane's register words; this module decodes operands, runs flow
//! control across lanes, takes derivatives across pixel quads and asks bound views for texels, which [`texture`]
//! reads and filters. Section numbers are the spec's.
//!
//! # Use
//!
//! [`Executable::new`] checks a decoded [`Program`](crate::dxbc::program::Program) once and pre-decodes it. A
//! [`Machine`] holds one batch: [`Machine::start_vertices`] (up to [`LANES`] vertices) or [`Machine::start_quads`]
//! (up to [`LANES`]` / 4` quads), then the caller fills the inputs ([`Machine::set_input`], or a whole component row
//! with [`Machine::input_mut`]; `vPrim`, `vCoverage` with their setters), calls [`Machine::run`] with the
//! [`Bindings`] and optionally a [`Trace`], and reads [`Machine::output`], [`Machine::written`], [`Machine::depth`],
//! [`Machine::coverage_mask`], [`Machine::is_helper`], [`Machine::is_discarded`]. The machine is reused for the next
//! batch; its register files only grow.
//!
//! # Lanes and quads
//!
//! - A pixel batch is 2x2 quads, lanes `4q..4q+4` in the order top-left, top-right, bottom-left, bottom-right (the
//!   rasterizer's [`Quad`](crate::raster::Quad) order). A lane its triangle does not cover is a **helper**: it
//!   runs the whole program so that its quad's derivatives are defined, and its outputs are flagged as not written
//!   (16.13: "any output from that shader invocation such as writes to RenderTargets ... are valid but ignored").
//! - Registers start at zero. 7.3 leaves unwritten temporaries undefined; zero makes runs reproducible.
//! - Outputs: each lane records which `o#` components it wrote; [`Machine::written`], [`Machine::depth`] and
//!   [`Machine::coverage_mask`] report nothing for a helper or discarded lane. `oDepthGE`/`oDepthLE` are written like
//!   `oDepth`; which one the program declared is [`Executable::depth_output`], for the output merger to apply 16.9.3.
//!
//! # Operands
//!
//! - **Swizzle and mask.** Result component `c` reads each source's component `swizzle[c]`; the destination's mask
//!   picks the components written. Compilers write a single-component selection as a replicated swizzle (`.yyyy`);
//!   both forms are one component. Scalar registers (`vPrim`, `vCoverage`, `oDepth`, `oMask`) read into every
//!   component and write from the first.
//! - **Modifiers by operand type (22.18).** On a float operand `-` flips the sign bit and `_abs` clears it, NaNs,
//!   infinities and denormals included (no flush: the flush is the instruction's). On an integer operand `-` is the
//!   two's complement (22.18.2); `_abs` is not defined there and is refused. On a double `-`/`_abs` act on the high
//!   words' sign bits. Which type an operand has is the instruction's: `movc`/`swapc`/`dmovc` conditions and every
//!   flow-control condition are integers, `f16tof32`'s source is an integer, `ftoi`'s a float.
//! - **`_sat` (22.19.1)** is `min(1, max(0, x))` with `min`/`max`'s rules ([`alu::saturate`], [`alu::dsaturate`]),
//!   allowed only where the instruction listings of section 22 show it (float and double results, `mov`, `movc`,
//!   derivatives; the double comparisons list it and get the float saturate of their 32-bit result). Elsewhere it is
//!   refused.
//! - **Doubles (22.14-22.17).** A double occupies `.xy` or `.zw` (low word first, 3.1.4). Double results take a mask
//!   of `.xy`, `.zw` or `.xyzw`, slot `k` from the sources' post-swizzle pair `k`; 32-bit results from doubles
//!   (`dtof`, `dtoi`, `dtou`, `deq`...) take one or two components, the `k`-th component of the mask receiving the
//!   `k`-th double's result; `ftod`/`itod`/`utod` and `dmovc`'s condition read 32-bit component `k` for slot `k`.
//! - **Minimum precision** operands are computed at 32 bits, which 7.20 allows ("at least" that precision).
//!
//! # Addressing and out-of-range reads
//!
//! - A relative index is an immediate plus one component of an `r#`, a statically indexed `x#`, or a `v#`, `cb#`,
//!   `icb` or literal read directly (7.3: one level of nesting), "considered to be unsigned 32 bit values" (7.8.6);
//!   the sum wraps modulo 2^32.
//! - **Constant buffers (7.5):** a read past the end of the buffer bound at the slot gives 0 in all components
//!   ("Out of bounds behavior is always with respect to the size of the buffer bound"); a bound buffer longer than
//!   the declaration is read as bound (7.5 lets either happen). **The immediate constant buffer** "behaves ...
//!   exactly the same way" (7.5.1): 0 past its end.
//! - **`x#` (7.3) and `v#`/`o#` (7.7)** out of range are undefined ("no data from outside the GPU process context");
//!   here a read gives 0 and a write is dropped.
//! - **Empty slots.** A slot the program declares but [`Bindings`] leaves empty fails the run with an error naming
//!   it (`cb3`, `t0`, `s1`) unless [`Bindings::unbound`] is [`Unbound::Zero`], which reads what the spec says an
//!   empty slot reads: 0 for constant buffers (7.5) and resources (7.18.17; `resinfo_rcpFloat` still takes
//!   reciprocals, so infinities, 22.4.14), and D3D11's default sampler for an empty sampler slot
//!   (`PSSetSamplers`: NULL "invokes the default state"). A bound view whose dimension differs from the declaration
//!   is always an error naming the slot.
//!
//! # Flow control (22.7)
//!
//! Lanes run in lockstep under an execution mask; each construct keeps the lanes to restore when it closes.
//!
//! - `if`/`else`/`endif`: the lanes whose condition component passes (`_nz`: any bit set; `_z`: all clear) run the
//!   then-block, the others the else-block; a block no lane takes is jumped over.
//! - `loop`/`endloop`: runs until no lane is left in it. `break`/`breakc` take lanes out until the loop (or switch)
//!   ends; `continue`/`continuec` park them until `endloop`. Lanes leaving a construct are forgotten by every
//!   construct they leave, so an `endif` does not bring back a lane that broke inside it.
//! - `switch` behaves "exactly as a switch construct in the C language" (22.7.18): each lane enters at the case
//!   equal to its selector (compared as bits), or at `default`, or skips the switch; a case without `break` falls
//!   into the next, code and all (what D3D10 allowed; D3D11's compiler never emits code there). `case`/`default`
//!   must sit directly in their switch, not inside another construct (this implementation's restriction).
//! - `call`/`callc` run the subroutine for the calling lanes; `ret`/`retc` inside it return those lanes to the
//!   instruction after the call once every lane has returned. A call made with 32 return addresses on the stack is
//!   skipped (22.7.10), which also bounds recursion. `ret`/`retc` outside a subroutine end the lanes that execute it
//!   (22.7.16); the unnested `ret` ends the program.
//! - `discard` (22.5.1) flags the lanes whose condition passes as discarded: they keep running ("continuing
//!   execution, so that other pixels executing in parallel may obtain derivatives"), and 16.13 makes their outputs
//!   ignored like a helper's.
//! - 7.1 sets no limit on execution; [`Machine::set_budget`] does (default [`DEFAULT_BUDGET`] instructions per
//!   batch), and a run past it fails naming the program (`ps_5_0`) and the instruction (index, token offset,
//!   opcode). 22.7.1 caps nesting at 64 levels; deeper nesting runs the same way here.
//!
//! # Derivatives (22.5.2-5)
//!
//! Computed per quad as float subtractions ([`alu::add`] of the negated operand) of the post-modifier source:
//! `_fine` x is the difference along the lane's own row, y along its own column; `_coarse` gives every lane of the
//! quad the top row's x difference and the left column's y difference — the calculation 22.5.2 gives as its
//! example, which the spec otherwise leaves to the implementation. SM4's `deriv_rtx`/`deriv_rty` are coarse (22.5.2:
//! the `_coarse`/`_fine` forms "are a replacement for deriv_rtx/deriv_rty"). Every lane of a quad contributes,
//! executing or not; inside varying flow control 16.8 leaves the result undefined. (The reference renderer, Mesa's
//! llvmpipe, computes every derivative as fine.)
//!
//! # Texture instructions (22.4, 22.5.6)
//!
//! For each executing lane the interpreter reads the operands and calls the view bound at the `t#` slot through
//! [`ShaderResource`] (implemented by [`texture::TextureView`] with [`texture`]'s functions), then swizzles the four
//! returned words by the resource operand's swizzle (22.4.15: "The swizzle on srcResource determines how to swizzle
//! the 4-component result") and writes them through the destination mask.
//!
//! - `sample`, `sample_b`, `sample_c`, `lod`: the level of detail comes from the coarse derivatives of the address's
//!   first three components across the quad (22.4.15: "the same definition that the deriv* Shader instructions
//!   use", which 7.18.11 refers to `deriv_rtx_coarse`). `sample_l`, `sample_d` and `sample_c_lz` pass the program's
//!   LOD, derivatives (first three components) or level 0. Immediate offsets (`aoffimmi`) are passed as decoded.
//! - `gather4*`: the channel is the sampler operand's selected component (22.4.2); the programmable offset of
//!   `gather4_po*` is the low 6 bits of each of its first two components, signed (22.4.4).
//! - `ld`/`ld2dms`: the address words as integers (bits unchanged), the immediate offset and the sample index
//!   (22.4.7: any register, not only a literal). The `_s` (tiled-resource feedback) forms are refused when building.
//! - `resinfo` (22.4.14): the view's (width, height, depth-or-array-size, mip count) as floats, as integers
//!   (`_uint`), or as floats with the sizes the declared dimension returns (width; width and height; all three for
//!   3D) replaced by their reciprocals (`_rcpFloat`).
//! - `sampleinfo`/`samplepos` (22.4.21-22) on a `t#` ask the view; on the `rasterizer` they read
//!   [`Bindings::rasterizer_sample_count`] (1 unless the draw says otherwise) and the pattern
//!   [`Bindings::rasterizer_sample_quality`] names (19.2.4, [`crate::api::multisample::pattern`]: standard or
//!   centre), an out-of-range index or unknown pattern giving zeros. `sampleinfo` writes (count, 0, 0, 0) as a
//!   float, or an integer with `_uint`; an unbound `t#` gives 0.
//! - `eval_snapped`, `eval_sample_index`, `eval_centroid` (22.4.23-25, 16.5) ask [`Bindings::pull_model`] for each
//!   destination component's swizzled component of the `v#` they name (its index range as `dcl_indexRange` allows)
//!   at the offset (the low 4 bits of U and V, sign-extended: 16.5.3), the sample or the centroid, then apply the
//!   source modifier; without a model, or for a register the model does not interpolate, they read the register.
//! - `bufinfo` (22.4.1) writes the view's element count to every component.
//! - `ld_raw`/`ld_structured` (22.4.10, 22.4.12) read the word at the byte offset plus 4 times each swizzle
//!   component a written destination component names; an offset past 32 bits reads 0 (out of bounds).
//!
//! # Compute programs and memory (section 18, 22.4.8-13, 22.17)
//!
//! A compute batch ([`Machine::start_threads`]) is up to [`LANES`] threads of one group; the four thread-ID inputs
//! live in `v0`..`v3` of the batch ([`Machine::set_thread`]). [`Machine::run_threads`] runs it with the group's
//! [`uav::SharedMemory`] until it ends or its lanes reach a `sync_*_t` barrier ([`RunEnd::Barrier`]); the caller
//! (`crate::dispatch`) runs the group's other batches to the barrier, then this one on. Memory fences need nothing
//! more: every access happens when its instruction executes, lane by lane in lane order. UAV instructions read and
//! write [`Bindings::uavs`] ([`uav::UnorderedAccessView`]); a pixel program's helper and discarded lanes change no
//! memory (22.17.8). `bufinfo` counts a raw view's bytes (22.4.1).
//!
//! # Geometry programs (section 13, 22.8)
//!
//! A geometry batch ([`Machine::start_primitives`]) is up to [`LANES`] invocations; each lane's input primitive is
//! `v[vertex][register]` ([`Machine::vertex_input_mut`]: the vertices' registers one after another in the input
//! file), with `vPrim` and `vGSInstanceID` ([`Machine::set_gs_instance`]). `emit`/`cut` and their `_stream` forms
//! record, per executing lane in lane order, the lane's every output register as a vertex of the stream, or the end
//! of its strip ([`Machine::emissions`], [`Machine::emitted_vertex`]); emits past `dcl_maxout` are dropped (13.3).
//! The draw module assembles strips into primitives.
//!
//! # Hull and domain programs (sections 10 and 12)
//!
//! [`Executable::new`] builds a hull program as its phases (10.6): the executable it returns is the control point
//! phase, with no instructions when the program has none (the input control points then pass through, 10.4:
//! [`Executable::passes_control_points_through`]), and holds the fork and join phases in program order
//! ([`Executable::patch_phases`], each with its instance count, [`Executable::phase_instances`]); every phase is built
//! with the declarations of `hs_decls` before it ([`TessellationDeclaration`]: control point counts, the
//! tessellator's domain, partitioning, output primitive and maximum factor). A batch of a phase or of a domain program
//! ([`Machine::start_patch_lanes`]) is up to [`LANES`] lanes whose inputs sit in the input file where
//! [`Executable::patch_inputs`] says ([`PatchInputs`]): the input control points (`v[point][register]` of the control
//! point phase, `vicp` elsewhere), the output control points (`vocp`, fork and join phases), the patch constants
//! (`vpc`) and one system value (`vOutputControlPointID`, `vForkInstanceID`, `vJoinInstanceID` or `vDomain`), each
//! control point block a [`VertexBlock`] as a geometry program's input primitive is; `vPrim` is the patch's ID. The
//! draw module (`draw::tessellation`) runs the phases patch by patch, merges the components each fork or join lane
//! writes into its patch's patch constants, and calls the tessellator.
//!
//! # Checked when building
//!
//! [`Executable::new`] refuses, with an error naming the program and the instruction: programs other than 4.0-5.0;
//! a hull program with instructions before its first phase, phases out of order (10.6), no tessellator domain,
//! partitioning or output primitive (22.3.15-17), a maximum factor outside [1, 64] (10.13), a phase instance count
//! outside 1-128 (10.8.4), or no control point phase with unequal control point counts (10.4); a geometry program without `dcl_inputprimitive` or `dcl_outputtopology`, with
//! `dcl_maxout` past 1024 vertices or 1024 output values (13.3), inputs declaring another vertex count, plain
//! `emit`/`cut` where streams are declared; a compute program without `dcl_thread_group` or past 18.6.4's group sizes, shared memory
//! past 32 KiB (18.6.3); opcodes newer than the program's model; instructions of other stages (geometry, hull:
//! "not an instruction a vertex, pixel, geometry or compute program runs"; `emit`/`cut` outside geometry programs;
//! `g#` and `sync` with `_t`/`_g`/`_ugroup` outside
//! compute) and the pixel-only ones in a vertex or compute program (22.1.7); memory instructions on memory declared
//! otherwise (a typed load on a raw view, the counter of a raw view, store masks other than `.x`..`.xyzw`);
//! operands of the wrong kind or count; `_sat` and `_abs` where not defined; registers past their declarations
//! (`r#` past `dcl_temps`, undeclared `v#`/`o#`/`x#`/`cb#`/`icb`/`t#`/`s#`); more than 4096 temporaries (7.3);
//! texture instructions on a resource of the wrong shape; unbalanced `if`/`loop`/`switch`; `break`/`continue`
//! outside their constructs; labels not placed after an unnested `ret` (22.7.15) and calls to labels that do not
//! exist.
//!
//! Not implemented: interfaces (`fcall`, 7.19), tiled-resource feedback; each is refused by name.
//!
//! # Speed
//!
//! Instructions are pre-decoded; each executes once per batch over structure-of-arrays rows of [`LANES`] words
//! (sources gathered for every lane, results written under the mask), so the inner loops are straight lines over
//! arrays. A batch's registers are allocated on its machine's first use and reused. Tracing costs one branch per
//! instruction when off.

//!
//! # Tests
//!
//! - `shader::tests` (unit): hand-written listings, assembled by a test-only assembler and put through the crate's
//!   encoder and decoder, with expected values from section 22's definitions worked out by hand: every ALU opcode's
//!   dispatch, every register file and addressing mode with the out-of-range rules, every flow-control construct
//!   with diverging lanes, derivatives on quads with helper lanes, texture instructions against a recording view,
//!   multisampled views (`ld2dms`, `sampleinfo`, `samplepos`, `resinfo`) through whole programs built with
//!   [`crate::dxbc::asm`], the build-time refusals and the trace.
//! - `tests/shader_fixtures.rs`: every program under `fixtures/` builds (hull programs into their phases, each of
//!   which runs); four compiled programs against results computed by hand from their HLSL; random inputs and random,
//!   partly missing, wrong-sized or misshapen bindings, and bit-flipped programs, never panic.
//! - `tests/shader_texture.rs`: a program sampling, loading and querying a real [`texture::TextureView`].
//! - `tests/shader_reference.rs`: `fixtures/reference/interp`, pixel programs rendered by a real D3D11, with the
//!   comparison rules of that directory's README; where the reference follows GL rather than the spec, the spec's
//!   results (coarse derivatives: 22.5.2's top row and left column).

pub mod alu;
mod binding;
mod executable;
mod lanes;
mod machine;
pub mod texture;
mod trace;
pub mod uav;

pub use binding::{
    AluVariants, Bindings, CONSTANT_BUFFER_SLOTS, LevelOfDetail, PullLocation, PullModel, RESOURCE_SLOTS,
    SAMPLER_SLOTS, ShaderResource, UAV_SLOTS, Unbound,
};
pub use executable::{
    ConstantBufferDeclaration, DepthOutput, Executable, GeometryDeclaration, HullPhase, InputDeclaration,
    InputRegister, MAX_CALL_DEPTH, MAX_GEOMETRY_OUTPUT_VERTICES, MAX_IO_REGISTERS, MAX_PIXEL_OUTPUTS, MAX_TEMPORARIES,
    OutputDeclaration, OutputRegister, PatchInputs, ResourceDeclaration, ResourceKind, SamplerDeclaration,
    SharedMemoryDeclaration, Stage, TessellationDeclaration, UavDeclaration, UavKind, VertexBlock,
};
pub use lanes::{LANES, LaneMask, Lanes};
pub use machine::{DEFAULT_BUDGET, Emission, Machine, RunEnd};
pub use trace::{DEFAULT_TRACE_LIMIT, LaneStep, Trace, TraceStep, TracedWrite};

#[cfg(test)]
mod tests;
