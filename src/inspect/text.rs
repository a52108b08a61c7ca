//! A [`PixelInspection`] as readable text, for `iridia inspect`.

use super::report::{PixelInspection, ProgramListing};
use super::values::TexelValue;
use crate::draw::fragment::{InputSource, ProgramTrace};
use crate::draw::{Fragment, VertexRecord};
use crate::output_merger::{StoredTexel, TargetOperation};
use crate::text::mask_letters;
use std::fmt::Write as _;

/// A register word as a float when it reads as an ordinary one (zero or normal), else as hex bits.
fn word(bits: u32) -> String {
    let value = f32::from_bits(bits);
    if value == 0. && bits != 0x8000_0000 && bits != 0 || !value.is_finite() || value.is_subnormal() {
        format!("{bits:#x}")
    } else {
        format!("{value}")
    }
}

/// The components of `words` that `mask` selects, as `x, y, z`.
fn words(values: [u32; 4], mask: u8) -> String {
    let shown: Vec<String> = (0..4)
        .filter(|c| mask >> c & 1 == 1)
        .filter_map(|c| values.get(c).map(|&w| word(w)))
        .collect();
    shown.join(", ")
}

/// A float as f32 prints it.
fn float(value: f64) -> String {
    let single = value as f32;
    format!("{single}")
}

/// A texel row of the values table.
fn texel_row(name: &str, texel: &TexelValue) -> String {
    let mut line = format!("  {name:<9} {:<34}", texel.bytes);
    for channel in &texel.channels {
        let _ = write!(
            line,
            " {}={} ({:#x})",
            channel.channel,
            float(channel.value),
            channel.bits
        );
    }
    line
}

/// A stored texel's bytes and values.
fn stored(texel: &StoredTexel) -> String {
    let bytes = texel.bytes.get(..usize::from(texel.len)).unwrap_or(&[]);
    let values: Vec<String> = texel.values.iter().map(|v| float(*v)).collect();
    format!("{} ({})", super::values::hex(bytes), values.join(", "))
}

/// A vertex's registers.
fn vertex(out: &mut String, corner: usize, record: &VertexRecord) {
    let [x, y, z, w] = record.position;
    let _ = writeln!(
        out,
        "    vertex {corner}: slot {}, SV_VertexID {}, clip position ({x}, {y}, {z}, {w})",
        record.slot, record.vertex_id
    );
    let registers = |list: &[[u32; 4]], prefix: &str| -> String {
        list.iter()
            .enumerate()
            .map(|(i, r)| format!("{prefix}{i} ({})", words(*r, 0b1111)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(out, "      in:  {}", registers(&record.inputs, "v"));
    let _ = writeln!(out, "      out: {}", registers(&record.outputs, "o"));
}

/// A program trace with each step's listing line.
pub(super) fn trace(out: &mut String, trace: &ProgramTrace, listing: Option<&ProgramListing>) {
    for (index, step) in trace.steps.iter().enumerate() {
        if trace.gap == Some(index) {
            let _ = writeln!(
                out,
                "      ... {} steps not kept (the first and the last are) ...",
                trace.dropped
            );
        }
        if !step.active {
            continue;
        }
        let line = listing.map_or(step.opcode, |l| l.line(step.instruction));
        let mut results = Vec::new();
        for (mask, value) in &step.destinations {
            results.push(format!("{} = {}", mask_letters(*mask), words(*value, *mask)));
        }
        let _ = writeln!(
            out,
            "      {:>4}  {:<56} {}",
            step.instruction,
            line.trim(),
            results.join("; ")
        );
    }
    if trace.dropped > 0 && trace.gap.is_none() {
        let _ = writeln!(out, "      ... {} more steps not kept", trace.dropped);
    }
}

/// One fragment.
fn fragment(out: &mut String, index: usize, f: &Fragment, inspection: &PixelInspection) {
    let _ = writeln!(
        out,
        "fragment {index}: primitive {} (instance {}, SV_PrimitiveID {}, part {}), {}, quad ({}, {}) lane {} \
         (covered {:#06b}) -> {:?}",
        f.primitive_index,
        f.instance,
        f.primitive_id,
        f.part,
        if f.front_facing { "front-facing" } else { "back-facing" },
        f.quad.x,
        f.quad.y,
        f.quad.lane,
        f.quad.covered,
        f.outcome
    );
    let [px, py, pz, pw] = f.position;
    let _ = writeln!(
        out,
        "  SV_Position ({px}, {py}, {pz}, {pw}), depth {}, perspective weights ({:.6}, {:.6}, {:.6}), screen weights \
         ({:.6}, {:.6}, {:.6})",
        f.depth,
        f.perspective_weights[0],
        f.perspective_weights[1],
        f.perspective_weights[2],
        f.screen_weights[0],
        f.screen_weights[1],
        f.screen_weights[2]
    );
    if let Some(edge) = inspection.fragment_edges.get(index).copied().flatten() {
        let _ = writeln!(
            out,
            "  ambiguous coverage: {:.5} px from edge v{}-v{} ({:.5} px before snapping)",
            edge.distance, edge.edge[0], edge.edge[1], edge.unsnapped_distance
        );
    }
    let _ = writeln!(out, "  {}:", f.kind.name());
    for (corner, record) in f.vertices.iter().enumerate() {
        vertex(out, corner, record);
    }
    if !f.inputs.is_empty() {
        let _ = writeln!(out, "  inputs:");
        for input in &f.inputs {
            let source = match input.source {
                InputSource::Varying {
                    register,
                    component,
                    mode,
                } => format!("o{register}.{} {mode:?}", mask_letters(1 << component)),
                InputSource::Position(k) => format!("SV_Position.{}", mask_letters(1 << k)),
                InputSource::FrontFace => "SV_IsFrontFace".to_owned(),
                InputSource::PrimitiveId => "SV_PrimitiveID".to_owned(),
                InputSource::SampleIndex => "SV_SampleIndex".to_owned(),
                InputSource::Zero => "0".to_owned(),
            };
            let _ = writeln!(
                out,
                "    v{}.{} {} = {}   (from {source})",
                input.register,
                mask_letters(1 << input.component),
                input.semantic,
                word(input.word)
            );
        }
    }
    if f.clip_distance_removed {
        let _ = writeln!(out, "  removed by a clip distance: {:?}", f.clip_distances);
    }
    if let Some(program) = &f.program {
        if let Some(t) = &program.trace {
            let _ = writeln!(out, "  pixel program trace (instruction, listing, results):");
            trace(out, t, inspection.pixel_program.as_ref());
        }
        let outputs: Vec<String> = program
            .outputs
            .iter()
            .zip(program.written)
            .enumerate()
            .filter(|(_, (_, mask))| *mask != 0)
            .map(|(i, (o, mask))| format!("o{i} = ({})", words(*o, mask)))
            .collect();
        let _ = writeln!(
            out,
            "  program output: {}{}{}{}",
            outputs.join(", "),
            program.depth.map_or(String::new(), |d| format!(", oDepth = {d}")),
            program
                .coverage_mask
                .map_or(String::new(), |m| format!(", oMask = {m:#x}")),
            if program.discarded { ", discarded" } else { "" }
        );
    }
    if let Some(c) = &f.coverage {
        let _ = writeln!(
            out,
            "  coverage: sample mask {:#x}{}{} -> {}",
            c.sample_mask,
            c.output_mask.map_or(String::new(), |m| format!(", oMask {m:#x}")),
            c.alpha_to_coverage
                .map_or(String::new(), |a| format!(", alpha-to-coverage {a}")),
            if c.covered { "covered" } else { "not covered" }
        );
    }
    for (when, record) in [("early ", f.early_depth_stencil), ("", f.depth_stencil)] {
        let Some(record) = record else { continue };
        if let Some(s) = record.stencil {
            let _ = writeln!(
                out,
                "  {when}stencil: ref {} & {:#x} {} stored {} -> {} ({:?} {:?}), {} -> {}",
                s.reference,
                s.read_mask,
                s.func,
                s.before,
                if s.passed { "passed" } else { "failed" },
                s.case,
                s.op,
                s.before,
                s.after
            );
        }
        if let Some(d) = record.depth {
            let result = match d.passed {
                Some(true) => "passed",
                Some(false) => "failed",
                None => "not tested",
            };
            let _ = writeln!(
                out,
                "  {when}depth: incoming {} (clamped {}, quantized {}) {} stored {} -> {result}{}",
                d.incoming,
                d.clamped,
                d.quantized,
                d.func,
                d.stored,
                if d.written {
                    format!(", written {}", d.after)
                } else {
                    String::new()
                }
            );
        }
    }
    if inspection.samples > 1 {
        sample_lines(out, f, inspection.samples);
    }
    if let Some(write) = &f.write {
        for t in write.targets.iter().flatten() {
            let operation = match t.operation {
                TargetOperation::Replace => "replace".to_owned(),
                TargetOperation::Blend(b) => format!(
                    "blend {} {} {} / alpha {} {} {}: source ({}), destination ({}), factors ({}) ({}) -> ({})",
                    b.src_blend,
                    b.blend_op,
                    b.dest_blend,
                    b.src_blend_alpha,
                    b.blend_op_alpha,
                    b.dest_blend_alpha,
                    join(&b.source),
                    join(&b.destination),
                    join(&b.source_factor),
                    join(&b.destination_factor),
                    join(&b.result)
                ),
                TargetOperation::Logic(l) => format!("logic {}", l.op),
            };
            let _ = writeln!(
                out,
                "  rt{}: {operation}, mask {}, {} -> {}",
                t.slot,
                mask_letters(t.write_mask),
                stored(&t.before),
                stored(&t.after)
            );
        }
    }
}

/// A mask of `samples` sample bits as sample numbers, `-` for none.
fn sample_list(mask: u32, samples: u32) -> String {
    let list: Vec<String> = (0..samples.min(32))
        .filter(|s| mask >> s & 1 == 1)
        .map(|s| s.to_string())
        .collect();
    if list.is_empty() {
        "-".to_owned()
    } else {
        list.join(" ")
    }
}

/// A multisampled fragment's samples: which the primitive covered and which were written (one shading fed every
/// written sample at pixel frequency), then what the output merger did at each (3.5.1). The depth-stencil and
/// write lines above are its first sample's.
fn sample_lines(out: &mut String, f: &Fragment, samples: u32) {
    let _ = writeln!(
        out,
        "  samples: covered {}; written {}",
        sample_list(f.covered_samples, samples),
        sample_list(f.written_samples, samples)
    );
    for record in &f.samples {
        let mut line = format!("    sample {}: depth {}", record.sample, record.depth);
        if let Some(ds) = record.depth_stencil {
            if let Some(d) = ds.depth {
                let result = match d.passed {
                    Some(true) => "passed",
                    Some(false) => "failed",
                    None => "not tested",
                };
                let _ = write!(line, ", depth {} stored {} {result}", d.func, d.stored);
            }
            if let Some(st) = ds.stencil {
                let _ = write!(
                    line,
                    ", stencil {} stored {} {} -> {}",
                    st.func,
                    st.before,
                    if st.passed { "passed" } else { "failed" },
                    st.after
                );
            }
        }
        if let Some(write) = &record.write {
            for t in write.targets.iter().flatten() {
                let _ = write!(line, ", rt{} {}", t.slot, stored(&t.after));
            }
        }
        let _ = write!(line, " -> {:?}", record.outcome);
        let _ = writeln!(out, "{line}");
    }
}

/// Four floats joined.
fn join(values: &[f32; 4]) -> String {
    values.iter().map(|v| format!("{v}")).collect::<Vec<_>>().join(", ")
}

/// The whole inspection.
pub(super) fn render(i: &PixelInspection) -> String {
    let mut out = String::new();
    let sample = if i.samples > 1 {
        format!(" sample {} of {}", i.sample, i.samples)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "draw {} ({}), pixel ({}, {}){sample}, {} {}",
        i.draw, i.label, i.x, i.y, i.target, i.format
    );
    let _ = writeln!(out, "verdict: {}", i.verdict_text);
    let _ = writeln!(out);
    let _ = writeln!(out, "  {:<9} {:<34} channels", "texel", "bytes");
    let _ = writeln!(out, "{}", texel_row("before", &i.before));
    if let Some(recorded) = &i.recorded {
        let _ = writeln!(out, "{}", texel_row("recorded", recorded));
    }
    let _ = writeln!(out, "{}", texel_row("replayed", &i.replayed));
    if !i.difference.is_empty() {
        let mut line = format!("  {:<9} {:<34}", "ULPs", "");
        for d in &i.difference {
            let ulps = d.ulps.map_or_else(|| "NaN/inf".to_owned(), |u| u.to_string());
            let mark = if d.within_tolerance { "" } else { " (!)" };
            let _ = write!(line, " {}={ulps}{mark}", d.channel);
        }
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "  class: {}; in the ambiguity mask: {}",
        i.class.map_or_else(|| "not compared".to_owned(), |c| format!("{c:?}")),
        if i.ambiguous { "yes" } else { "no" }
    );
    for edge in &i.neighbour_edges {
        let _ = writeln!(
            out,
            "  primitive {} has no fragment here but its edge v{}-v{} is {:.5} px from the centre ({:.5} px before \
             snapping)",
            edge.primitive, edge.edge[0], edge.edge[1], edge.distance, edge.unsnapped_distance
        );
    }
    let h = &i.history;
    let _ = writeln!(
        out,
        "\n{} fragment(s); {} triangle(s) set up for the pixel, {} rejected by their bounds",
        h.fragments.len(),
        h.rasterized,
        h.rejected_by_bounds
    );
    if let Some(listing) = &i.pixel_program {
        let _ = writeln!(out, "pixel program: {}", listing.version);
    }
    for (index, f) in h.fragments.iter().enumerate() {
        let _ = writeln!(out);
        fragment(&mut out, index, f, i);
        if let (Some(listing), Some(t)) = (
            i.vertex_program.as_ref(),
            f.vertices.iter().find_map(|v| v.trace.as_ref()),
        ) {
            let _ = writeln!(out, "  vertex program trace:");
            trace(&mut out, t, Some(listing));
        }
    }
    out
}

impl PixelInspection {
    /// The inspection as readable text: values, verdict, fragments with their vertices, inputs, trace (each step with
    /// its listing line), tests and writes.
    pub fn to_text(&self) -> String {
        render(self)
    }
}
