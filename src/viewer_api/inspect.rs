//! Why a pixel has its value ([`ViewerCapture::inspect_pixel`]), program traces ([`ViewerCapture::trace_pixel`],
//! [`ViewerCapture::trace_vertex`]) and listings ([`ViewerCapture::disassemble`]), from the draw module's pixel
//! history ([`crate::draw::PreparedDraw::pixel_history`]) and the disassembler's instruction lines
//! ([`crate::dxbc::disasm::listing_lines`]), in the protocol's shapes. A pixel's verdict line is the library's
//! ([`crate::inspect::Verdict`], decided as the documentation of [`crate::inspect`] says), on the viewer's texels and
//! comparison.
//!
//! Registers are named as the listing names them (`v1.xy`, `o0.xyzw`, `r3.x`); signature registers carry their
//! semantic. Values read as floats, except where the signature declares an integer type or the instruction works
//! in integers (the type the listing prints its literals in): those show as integers, bitwise ones in hex.

use std::sync::Arc;

use crate::draw::fragment::{Fragment, ProgramTrace as DrawTrace, VertexRecord as DrawVertex};
use crate::draw::{HistoryOptions, PreparedDraw, Program};
use crate::dxbc::disasm::{ValueKind, listing_lines, operand_texts, value_kind};
use crate::dxbc::program::{Opcode, RegisterType};
use crate::dxbc::signature::{ComponentType, Signature};
use crate::inspect::{InspectOptions, inspect_replayed};
use crate::output_merger::{
    DepthRecord, DepthStencilRecord, StencilRecord, TargetOperation, TargetRecord, words_as_numbers,
};
use crate::text::mask_letters;
use crate::{Error, Result};

use super::texels::{stored_texel, verdict_kind};
use super::types::{
    BlendResult, DepthResult, Disassembly, DisassemblyLine, FragmentOutcome, FragmentRecord, OmittedSteps,
    PixelHistory, ProgramTrace, RegisterValue, SampleResult, Stage, StencilResult, TargetId, TraceStep, VertexRecord,
};
use super::{ViewerCapture, plane_of, program_info_of, slot_of};

/// A float for a person: the shortest exact decimal, in exponent form when very large or small.
fn float_word(value: f32) -> String {
    if value.is_nan() {
        "NaN".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "+Inf" } else { "-Inf" }.to_owned()
    } else if value != 0.0 && (value.abs() >= 1e7 || value.abs() < 1e-5) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

/// One word for a person, read as `kind`. An untyped word is a float when its exponent field is neither 0 nor 255
/// or when it is +0 or -0 (IEEE 754 binary32), else a signed integer.
pub(super) fn word_text(word: u32, kind: ValueKind) -> String {
    match kind {
        ValueKind::Float => float_word(f32::from_bits(word)),
        ValueKind::Int => format!("{}", word as i32),
        ValueKind::Uint => format!("{word}"),
        ValueKind::Bits => format!("0x{word:08x}"),
        // as the listing's untyped literals: a float when the bits look like one, else an integer; both zeros
        // read as floats, so a typeless move of -0.0 (0x80000000) shows `-0`, not `-2147483648`
        ValueKind::Untyped => {
            let exponent = word >> 23 & 0xff;
            if word & 0x7fff_ffff == 0 || (exponent != 0 && exponent != 0xff) {
                float_word(f32::from_bits(word))
            } else {
                format!("{}", word as i32)
            }
        }
    }
}

/// A register's value for the protocol.
fn register_value(register: String, semantic: Option<String>, words: &[u32], kind: ValueKind) -> RegisterValue {
    let parts: Vec<String> = words.iter().map(|&w| word_text(w, kind)).collect();
    let text = if parts.len() == 1 {
        parts.concat()
    } else {
        format!("({})", parts.join(", "))
    };
    RegisterValue {
        register,
        semantic,
        values: words.iter().map(|&w| f64::from(f32::from_bits(w))).collect(),
        bits: words.to_vec(),
        text,
    }
}

/// The words of `value` selected by `mask`.
fn masked(value: &[u32; 4], mask: u8) -> Vec<u32> {
    value
        .iter()
        .enumerate()
        .filter(|(i, _)| mask >> i & 1 == 1)
        .map(|(_, &w)| w)
        .collect()
}

/// A semantic as people write it: `TEXCOORD1`, `SV_Target0`, `SV_Position`.
fn semantic_text(name: &str, index: u32) -> String {
    let system = name.len() > 3 && name.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("SV_"));
    if system && index == 0 && !name.eq_ignore_ascii_case("SV_Target") {
        name.to_owned()
    } else {
        format!("{name}{index}")
    }
}

/// What `signature` says of register `register`: the components its elements use, their semantic (the first
/// element's) and how the values read.
fn signature_register(signature: Option<&Signature>, register: u32) -> Option<(u8, String, ValueKind)> {
    let elements: Vec<_> = signature?.elements.iter().filter(|e| e.register == register).collect();
    let first = elements.first()?;
    let mask = elements.iter().fold(0u8, |m, e| m | e.mask) & 0xf;
    let kind = match first.component_type {
        ComponentType::UINT32 => ValueKind::Uint,
        ComponentType::SINT32 => ValueKind::Int,
        _ => ValueKind::Float,
    };
    Some((mask, semantic_text(&first.semantic_name, first.semantic_index), kind))
}

/// The registers of one side of a program (`prefix` `v` or `o`) with their values, as `signature` describes them.
fn signature_values(prefix: &str, registers: &[[u32; 4]], signature: Option<&Signature>) -> Vec<RegisterValue> {
    (0u32..)
        .zip(registers)
        .filter_map(|(register, value)| {
            let (mask, semantic, kind) = signature_register(signature, register)?;
            if mask == 0 {
                return None;
            }
            Some(register_value(
                format!("{prefix}{register}.{}", mask_letters(mask)),
                Some(semantic),
                &masked(value, mask),
                kind,
            ))
        })
        .collect()
}

/// A vertex for the protocol.
fn vertex_record(vertex: &DrawVertex, instance: u32, prepared: &PreparedDraw<'_>) -> VertexRecord {
    let program = prepared.vertex_program();
    let screen = prepared.viewport().to_screen(vertex.position);
    VertexRecord {
        vertex_id: vertex.vertex_id,
        instance_id: instance,
        inputs: signature_values("v", &vertex.inputs, program.shader.input_signature.as_ref()),
        outputs: signature_values("o", &vertex.outputs, program.shader.output_signature.as_ref()),
        window_position: screen.map(f64::from),
    }
}

/// The pixel program's inputs of a fragment, register by register.
fn pixel_inputs(fragment: &Fragment, pixel: Option<&Arc<Program>>) -> Vec<RegisterValue> {
    let signature = pixel.and_then(|p| p.shader.input_signature.as_ref());
    let mut registers: Vec<u32> = fragment.inputs.iter().map(|i| i.register).collect();
    registers.sort_unstable();
    registers.dedup();
    registers
        .into_iter()
        .map(|register| {
            let mut components: Vec<(u8, u32, &str)> = fragment
                .inputs
                .iter()
                .filter(|i| i.register == register)
                .map(|i| (i.component, i.word, i.semantic.as_str()))
                .collect();
            components.sort_by_key(|c| c.0);
            let mask = components
                .iter()
                .fold(0u8, |m, c| m | 1u8.checked_shl(u32::from(c.0)).unwrap_or(0));
            let words: Vec<u32> = components.iter().map(|c| c.1).collect();
            let (semantic, kind) = match signature_register(signature, register) {
                Some((_, semantic, kind)) => (semantic, kind),
                None => (
                    components.first().map(|c| c.2.to_owned()).unwrap_or_default(),
                    ValueKind::Float,
                ),
            };
            register_value(
                format!("v{register}.{}", mask_letters(mask)),
                Some(semantic),
                &words,
                kind,
            )
        })
        .collect()
}

/// The pixel program's outputs of a fragment: the render target registers it wrote, `oDepth`, `oMask`.
fn pixel_outputs(fragment: &Fragment, pixel: Option<&Arc<Program>>) -> Vec<RegisterValue> {
    let Some(record) = &fragment.program else {
        return Vec::new();
    };
    if record.discarded {
        return Vec::new();
    }
    let signature = pixel.and_then(|p| p.shader.output_signature.as_ref());
    let mut outputs: Vec<RegisterValue> = (0u32..)
        .zip(record.outputs.iter().zip(&record.written))
        .filter(|(_, (_, written))| **written & 0xf != 0)
        .map(|(register, (value, &written))| {
            let (semantic, kind) = match signature_register(signature, register) {
                Some((_, semantic, kind)) => (Some(semantic), kind),
                None => (None, ValueKind::Float),
            };
            register_value(
                format!("o{register}.{}", mask_letters(written & 0xf)),
                semantic,
                &masked(value, written & 0xf),
                kind,
            )
        })
        .collect();
    if let Some(depth) = record.depth {
        outputs.push(register_value(
            "oDepth".to_owned(),
            Some("SV_Depth".to_owned()),
            &[depth.to_bits()],
            ValueKind::Float,
        ));
    }
    if let Some(mask) = record.coverage_mask {
        outputs.push(register_value(
            "oMask".to_owned(),
            Some("SV_Coverage".to_owned()),
            &[mask],
            ValueKind::Bits,
        ));
    }
    outputs
}

/// The depth test for the protocol.
fn depth_result(depth: &DepthRecord) -> DepthResult {
    DepthResult {
        func: depth.func.name().to_owned(),
        fragment_depth: f64::from(depth.quantized),
        stored_depth: f64::from(depth.stored),
        passed: depth.passed.unwrap_or(false),
        written: depth.written,
    }
}

/// The stencil test for the protocol.
fn stencil_result(stencil: &StencilRecord) -> StencilResult {
    StencilResult {
        func: stencil.func.name().to_owned(),
        reference: u32::from(stencil.reference),
        stored: u32::from(stencil.before),
        read_mask: u32::from(stencil.read_mask),
        passed: stencil.passed,
        result: u32::from(stencil.after),
    }
}

/// `a * src OP b * dest` for a blend operation.
fn blend_term(op: crate::api::enums::BlendOp, source: &str, destination: &str) -> String {
    match op.name() {
        "SUBTRACT" => format!("{source} - {destination}"),
        "REV_SUBTRACT" => format!("{destination} - {source}"),
        "MIN" => "min(src, dest)".to_owned(),
        "MAX" => "max(src, dest)".to_owned(),
        _ => format!("{source} + {destination}"),
    }
}

/// The output merger at one render target, for the protocol.
fn blend_result(record: &TargetRecord) -> Result<BlendResult> {
    let floats = |values: [f32; 4]| values.iter().map(|&v| f64::from(v)).collect::<Vec<f64>>();
    let shader_type = record.format.info().shader_type;
    let (enabled, source, destination, equation, result) = match &record.operation {
        TargetOperation::Replace => (
            false,
            words_as_numbers(record.source, shader_type).to_vec(),
            record.before.values.to_vec(),
            "replace".to_owned(),
            record.after.values.to_vec(),
        ),
        TargetOperation::Blend(blend) => {
            let colour = blend_term(
                blend.blend_op,
                &format!("{} * src", blend.src_blend.name()),
                &format!("{} * dest", blend.dest_blend.name()),
            );
            let alpha = blend_term(
                blend.blend_op_alpha,
                &format!("{} * src", blend.src_blend_alpha.name()),
                &format!("{} * dest", blend.dest_blend_alpha.name()),
            );
            let equation = if alpha == colour {
                colour
            } else {
                format!("rgb: {colour}; a: {alpha}")
            };
            (
                true,
                floats(blend.source),
                floats(blend.destination),
                equation,
                floats(blend.result),
            )
        }
        TargetOperation::Logic(logic) => (
            true,
            logic.source.iter().map(|&w| f64::from(w)).collect(),
            logic.destination.iter().map(|&w| f64::from(w)).collect(),
            format!("logic {}", logic.op.name()),
            logic.result.iter().map(|&w| f64::from(w)).collect(),
        ),
    };
    let stored_len = usize::from(record.after.len);
    let stored = stored_texel(record.format, record.after.bytes.get(..stored_len).unwrap_or(&[]))?;
    Ok(BlendResult {
        target: TargetId::render_target(u32::from(record.slot))
            .ok_or_else(|| Error::new("history", format!("render target slot {}", record.slot)))?,
        enabled,
        source,
        destination,
        equation,
        result,
        stored,
    })
}

/// The depth-stencil record that decided a fragment: the late tests, or the early ones.
fn depth_stencil_of(fragment: &Fragment) -> Option<&DepthStencilRecord> {
    fragment
        .depth_stencil
        .as_ref()
        .or(fragment.early_depth_stencil.as_ref())
}

/// A fragment for the protocol, inspected at sample `sample` of `samples`: with more than one, its tests, writes
/// and outcome are the inspected sample's ([`Fragment::for_sample`], or the fragment's own when its primitive does
/// not cover that sample) and its sample list says what happened at every sample.
fn fragment_record(
    order: usize,
    full: &Fragment,
    (sample, samples): (u32, u32),
    prepared: &PreparedDraw<'_>,
) -> Result<FragmentRecord> {
    let seen = (samples > 1).then(|| full.for_sample(sample)).flatten();
    let fragment = seen.as_ref().unwrap_or(full);
    let pixel = prepared.pixel_program();
    let tests = depth_stencil_of(fragment);
    let mut blend = Vec::new();
    if let Some(write) = &fragment.write {
        for record in write.targets.iter().flatten() {
            blend.push(blend_result(record)?);
        }
    }
    Ok(FragmentRecord {
        order,
        primitive_id: fragment.primitive_id,
        instance_id: fragment.instance,
        front_facing: fragment.front_facing,
        vertices: fragment
            .vertices
            .iter()
            .map(|v| vertex_record(v, fragment.instance, prepared))
            .collect(),
        barycentrics: fragment.perspective_weights.to_vec(),
        pixel_inputs: pixel_inputs(fragment, pixel),
        pixel_outputs: pixel_outputs(fragment, pixel),
        discarded: fragment.program.as_ref().is_some_and(|p| p.discarded),
        depth: tests.and_then(|t| t.depth.as_ref()).map(depth_result),
        stencil: tests.and_then(|t| t.stencil.as_ref()).map(stencil_result),
        blend,
        outcome: outcome_of(fragment.outcome),
        covered_samples: full.covered_samples,
        written_samples: full.written_samples,
        samples: if samples > 1 {
            full.samples.iter().map(sample_result).collect::<Result<Vec<_>>>()?
        } else {
            Vec::new()
        },
    })
}

/// A fragment's outcome for the protocol.
fn outcome_of(outcome: crate::draw::FragmentOutcome) -> FragmentOutcome {
    match outcome {
        crate::draw::FragmentOutcome::ClipDistance => FragmentOutcome::Clipped,
        crate::draw::FragmentOutcome::CoverageFailed => FragmentOutcome::SampleMasked,
        crate::draw::FragmentOutcome::StencilFailed => FragmentOutcome::StencilFailed,
        crate::draw::FragmentOutcome::DepthFailed => FragmentOutcome::DepthFailed,
        crate::draw::FragmentOutcome::Discarded => FragmentOutcome::Discarded,
        crate::draw::FragmentOutcome::Written => FragmentOutcome::Written,
    }
}

/// One sample of a fragment for the protocol.
fn sample_result(record: &crate::draw::fragment::SampleRecord) -> Result<SampleResult> {
    let mut stored = Vec::new();
    if let Some(write) = &record.write {
        for target in write.targets.iter().flatten() {
            let len = usize::from(target.after.len);
            stored.push(stored_texel(
                target.format,
                target.after.bytes.get(..len).unwrap_or(&[]),
            )?);
        }
    }
    Ok(SampleResult {
        sample: record.sample,
        depth: record
            .depth_stencil
            .as_ref()
            .and_then(|t| t.depth.as_ref())
            .map(depth_result),
        stencil: record
            .depth_stencil
            .as_ref()
            .and_then(|t| t.stencil.as_ref())
            .map(stencil_result),
        stored,
        outcome: outcome_of(record.outcome),
    })
}

/// A program's listing for the protocol.
fn disassembly(program: &Program, stage: Stage) -> Disassembly {
    Disassembly {
        program: program_info_of(program, stage),
        lines: listing_lines(&program.shader.program)
            .into_iter()
            .map(|line| DisassemblyLine {
                index: line.index,
                offset_dwords: line.offset,
                indent: line.indent,
                text: line.text,
                declaration: line.declaration,
            })
            .collect(),
    }
}

/// Whether an operand holds values a trace records (resources, samplers and UAVs are not read as values).
fn is_value_operand(register: RegisterType) -> bool {
    !matches!(
        register,
        RegisterType::Resource | RegisterType::Sampler | RegisterType::UnorderedAccessView
    )
}

/// A program's trace for the protocol: the steps the traced lane executed, each with the operands it read and the
/// registers it wrote, named as the listing names them.
fn program_trace(program: &Program, stage: Stage, trace: &DrawTrace) -> ProgramTrace {
    let instructions = &program.shader.program.instructions;
    // the traced lane's steps; those after a gap are numbered as if the steps not kept were there
    let gap = trace.gap.unwrap_or(usize::MAX);
    let before_gap = trace.steps.iter().take(gap).filter(|s| s.active).count();
    let skipped = usize::try_from(trace.dropped).unwrap_or(usize::MAX);
    let steps = trace
        .steps
        .iter()
        .filter(|s| s.active)
        .enumerate()
        .map(|(step, s)| {
            (
                if step < before_gap {
                    step
                } else {
                    step.saturating_add(skipped)
                },
                s,
            )
        })
        .map(|(step, s)| {
            let instruction = usize::try_from(s.instruction).ok().and_then(|i| instructions.get(i));
            let (kind, written, read) = match instruction {
                Some(instruction) => {
                    let (written, read) = operand_texts(instruction);
                    let destinations = written.len();
                    let read: Vec<String> = read
                        .into_iter()
                        .zip(instruction.operands.iter().skip(destinations))
                        .filter(|(_, operand)| is_value_operand(operand.register))
                        .map(|(text, _)| text)
                        .collect();
                    (value_kind(instruction.opcode), written, read)
                }
                None => (value_kind(Opcode::Mov), Vec::new(), Vec::new()),
            };
            let name =
                |names: &[String], i: usize, what: &str| names.get(i).cloned().unwrap_or_else(|| format!("{what}{i}"));
            let reads = s
                .sources
                .iter()
                .enumerate()
                .map(|(i, value)| {
                    let names_match = read.len() == s.sources.len();
                    let register = if names_match {
                        name(&read, i, "src")
                    } else {
                        format!("src{i}")
                    };
                    register_value(register, None, value, kind)
                })
                .collect();
            let writes = s
                .destinations
                .iter()
                .enumerate()
                .filter(|(_, (mask, _))| mask & 0xf != 0)
                .map(|(i, (mask, value))| register_value(name(&written, i, "dest"), None, &masked(value, *mask), kind))
                .collect();
            TraceStep {
                step,
                line: s.instruction,
                reads,
                writes,
            }
        })
        .collect();
    ProgramTrace {
        disassembly: disassembly(program, stage),
        steps,
        omitted: (trace.dropped > 0).then_some(OmittedSteps {
            after: before_gap,
            count: trace.dropped,
        }),
    }
}

/// A compute program's trace for one thread, for the protocol (a dispatch element's writer).
pub(super) fn compute_trace(program: &Program, trace: &DrawTrace) -> ProgramTrace {
    program_trace(program, Stage::Cs, trace)
}

impl ViewerCapture {
    /// Every fragment of draw `index` at pixel (`x`, `y`), in order, with the verdict of target `id` there: the
    /// library's inspection ([`crate::inspect::inspect_replayed`]) of the draw's replay session, in the protocol's
    /// shapes.
    pub fn inspect_pixel(&mut self, index: usize, id: TargetId, x: u32, y: u32, sample: u32) -> Result<PixelHistory> {
        let replayed = self.replayed_mut(index)?;
        if replayed.target(id).is_none() {
            return Err(super::no_target(index, id));
        }
        let options = InspectOptions {
            trace_pixel: false,
            trace_vertex: None,
            plane: plane_of(id),
            sample,
            ..InspectOptions::default()
        };
        let inspection = inspect_replayed(&mut replayed.session, x, y, slot_of(id), &options)?;
        let plane_rows = replayed
            .target(id)
            .map_or(0, |(t, _, _)| t.height.checked_div(t.samples.max(1)).unwrap_or(0));
        let explained_by = self.explained_by(index, id, x, y.saturating_add(sample.saturating_mul(plane_rows)));
        let replayed = self.replayed_mut(index)?;
        let prepared = replayed.session.prepared();
        let samples = inspection.samples;
        let fragments = inspection
            .history
            .fragments
            .iter()
            .enumerate()
            .map(|(order, fragment)| fragment_record(order, fragment, (sample, samples), prepared))
            .collect::<Result<Vec<_>>>()?;
        let verdict = verdict_kind(inspection.class, Some(!fragments.is_empty()));
        Ok(PixelHistory {
            target: id,
            x,
            y,
            sample,
            samples,
            verdict,
            verdict_text: inspection.verdict_text,
            explained_by,
            fragments,
        })
    }

    /// The pixel program's trace for fragment `fragment` (its `order`) of draw `index` at pixel (`x`, `y`).
    pub fn trace_pixel(&mut self, index: usize, x: u32, y: u32, fragment: usize) -> Result<ProgramTrace> {
        let replayed = self.replayed_mut(index)?;
        let program = replayed
            .session
            .prepared()
            .pixel_program()
            .cloned()
            .ok_or_else(|| Error::new(format!("draw {index}"), "the draw binds no pixel program"))?;
        let history = replayed.session.prepared_mut().pixel_history(
            x,
            y,
            HistoryOptions {
                trace_pixel: true,
                trace_vertex: None,
            },
        )?;
        let count = history.fragments.len();
        let record = history.fragments.get(fragment).ok_or_else(|| {
            Error::new(
                "request",
                format!("pixel ({x}, {y}) of draw {index} has {count} fragments; there is no fragment {fragment}"),
            )
        })?;
        let trace = record.program.as_ref().and_then(|p| p.trace.as_ref()).ok_or_else(|| {
            Error::new(
                "request",
                format!("the pixel program did not run for fragment {fragment} of pixel ({x}, {y})"),
            )
        })?;
        Ok(program_trace(&program, Stage::Ps, trace))
    }

    /// The vertex program's trace for the vertex whose `SV_VertexID` is `vertex_id` in instance `instance_id` of
    /// draw `index`.
    pub fn trace_vertex(&mut self, index: usize, vertex_id: u32, instance_id: u32) -> Result<ProgramTrace> {
        let replayed = self.replayed_mut(index)?;
        let prepared = replayed.session.prepared();
        let ia = prepared.input_assembler();
        if instance_id >= ia.instance_count() {
            return Err(Error::new(
                "request",
                format!(
                    "draw {index} has {} instances; there is no instance {instance_id}",
                    ia.instance_count()
                ),
            ));
        }
        let slot = (0..ia.vertex_count())
            .find(|&slot| ia.vertices().vertex_id(slot) == Some(vertex_id))
            .ok_or_else(|| Error::new("request", format!("draw {index} shades no vertex with ID {vertex_id}")))?;
        let record = prepared.vertex_record(instance_id, slot, true)?;
        let program = prepared.vertex_program().clone();
        let trace = record.trace.unwrap_or_default();
        Ok(program_trace(&program, Stage::Vs, &trace))
    }

    /// The listing of draw `index`'s program of stage `stage`.
    pub fn disassemble(&mut self, index: usize, stage: Stage) -> Result<Disassembly> {
        let draw = self.read_draw(index)?;
        let (bytes, what) = match stage {
            Stage::Vs => (Some(&draw.state.vertex_shader), "vs"),
            Stage::Ps => (draw.state.pixel_shader.as_ref(), "ps"),
            Stage::Cs => (None, "cs"),
        };
        let bytes =
            bytes.ok_or_else(|| Error::new(format!("draw {index}"), format!("the draw binds no {what} program")))?;
        let program = self.shaders.program(bytes, &format!("draw {index} {what}"))?;
        Ok(disassembly(&program, stage))
    }
}
