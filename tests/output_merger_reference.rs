//! The output merger against a real D3D11: `fixtures/output-merger/reference.json` holds draws whose pixel programs
//! output known constants (the cbuffer's words in o0..o3), each scissored to one pixel, and the render targets and
//! depth-stencil buffer a real D3D11 (Wine's d3d11 on Mesa llvmpipe) left after the setup draws (the first at each
//! pixel) and after all draws (see `fixtures/output-merger/generate.py` and its README). The test replays the draws
//! through `iridia::output_merger` — coverage, depth/stencil test, write — and compares the bytes: first the setup
//! draws from cleared targets, then the rest from the reference's own render targets after its setup draws. The
//! states in the fixture are the reference tool's own JSON, with its defaults (D3D11's) for missing keys; a draw
//! without a depth object has depth and stencil off.
//!
//! Where the reference is off the specification or uses a freedom the specification gives, a differing texel must be
//! explained by one of the [`Explained`] kinds, each with its own check; anything else fails.

// Test code: a panic here is a test failure, and the fixture is our own file.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

#[path = "common/texel_explain.rs"]
mod texel_explain;

use iridia::api::enums::{Blend, BlendOp, ComparisonFunc, DepthWriteMask, StencilOp};
use iridia::api::fixed_function::StencilFaceDesc;
use iridia::format::{Channel, FieldKind, Format, NumericKind, TexelCodec};
use iridia::output_merger::{DepthStencilTarget, OutputMerger, OutputMergerState, RenderTarget, Targets};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use texel_explain::{Explained, explain_component, field_code};

/// One case of the fixture.
#[derive(serde::Deserialize)]
struct Case {
    name: String,
    width: u32,
    height: u32,
    targets: Vec<String>,
    depth: Option<String>,
    ps: String,
    #[serde(default)]
    draws_from: Option<String>,
    #[serde(default)]
    labels: Vec<(String, i64)>,
    #[serde(default)]
    states: Vec<Value>,
    #[serde(default)]
    outputs: Vec<[[u32; 4]; 4]>,
    #[serde(default)]
    draws: Vec<(u32, u32, usize, usize, f32, u8)>,
    setup_targets: Vec<String>,
    #[serde(default)]
    setup_depth: Option<String>,
    result_targets: Vec<String>,
    #[serde(default)]
    result_depth: Option<String>,
}

#[derive(serde::Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// A draw's state: the output merger's, the viewport's depth range and depth clipping.
struct DrawState {
    om: OutputMergerState,
    depth_range: [f32; 2],
    depth_clip: bool,
}

fn bool_of(v: &Value, key: &str, default: bool) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(default)
}

fn num_of(v: &Value, key: &str, default: f64) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(default)
}

fn name_of<'a>(v: &'a Value, key: &str, default: &'a str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or(default)
}

/// The reference tool's state JSON as our state, with the tool's defaults.
fn parse_state(v: &Value) -> DrawState {
    let mut om = OutputMergerState::default();
    let blend = &v["blend"];
    om.blend.alpha_to_coverage_enable = bool_of(blend, "alpha_to_coverage", false);
    om.blend.independent_blend_enable = bool_of(blend, "independent", false);
    if let Some(factor) = blend.get("factor").and_then(Value::as_array) {
        for (out, f) in om.blend_factor.iter_mut().zip(factor) {
            *out = f.as_f64().unwrap() as f32;
        }
    }
    om.sample_mask = num_of(blend, "sample_mask", f64::from(u32::MAX)) as u32;
    let empty = Vec::new();
    let targets = blend.get("targets").and_then(Value::as_array).unwrap_or(&empty);
    for (desc, t) in om.blend.render_target.iter_mut().zip(targets) {
        let factor = |key: &str, default: &str| Blend::parse(name_of(t, key, default)).unwrap();
        let op = |key: &str| BlendOp::parse(name_of(t, key, "ADD")).unwrap();
        desc.blend_enable = bool_of(t, "enable", false);
        desc.src_blend = factor("src", "ONE");
        desc.dest_blend = factor("dest", "ZERO");
        desc.blend_op = op("op");
        desc.src_blend_alpha = factor("src_alpha", "ONE");
        desc.dest_blend_alpha = factor("dest_alpha", "ZERO");
        desc.blend_op_alpha = op("op_alpha");
        desc.render_target_write_mask = num_of(t, "write_mask", 15.0) as u8;
    }
    let ds = &mut om.depth_stencil;
    match v.get("depth") {
        None => {
            ds.depth_enable = false;
            ds.stencil_enable = false;
        }
        Some(d) => {
            ds.depth_enable = bool_of(d, "enable", true);
            ds.depth_write_mask = if bool_of(d, "write", true) {
                DepthWriteMask::All
            } else {
                DepthWriteMask::Zero
            };
            ds.depth_func = ComparisonFunc::parse(name_of(d, "func", "LESS")).unwrap();
            ds.stencil_enable = bool_of(d, "stencil_enable", false);
            ds.stencil_read_mask = num_of(d, "stencil_read_mask", 255.0) as u8;
            ds.stencil_write_mask = num_of(d, "stencil_write_mask", 255.0) as u8;
            let face = |key: &str| {
                let f = d.get(key).cloned().unwrap_or(Value::Null);
                let op = |k: &str| StencilOp::parse(name_of(&f, k, "KEEP")).unwrap();
                StencilFaceDesc {
                    fail: op("fail"),
                    depth_fail: op("depth_fail"),
                    pass: op("pass"),
                    func: ComparisonFunc::parse(name_of(&f, "func", "ALWAYS")).unwrap(),
                }
            };
            ds.front_face = face("stencil_front");
            ds.back_face = face("stencil_back");
            om.stencil_ref = num_of(d, "stencil_ref", 0.0) as u32;
        }
    }
    let viewport = v.get("viewport").cloned().unwrap_or(Value::Null);
    DrawState {
        om,
        depth_range: [
            num_of(&viewport, "min_depth", 0.0) as f32,
            num_of(&viewport, "max_depth", 1.0) as f32,
        ],
        depth_clip: bool_of(v.get("rasterizer").unwrap_or(&Value::Null), "depth_clip", true),
    }
}

/// The targets of a case: cleared (render targets to 0, depth to 1.0 and stencil to 0, as the reference tool
/// clears them), or holding given bytes.
fn targets(case: &Case, bytes: Option<(&[String], Option<&String>)>) -> Targets {
    let mut targets = Targets::default();
    for (slot, format) in case.targets.iter().enumerate() {
        let format: Format = format.parse().unwrap();
        let size = TexelCodec::new(format).unwrap().element_bytes() * (case.width * case.height) as usize;
        let mut target = RenderTarget::new(format, case.width, case.height, vec![0; size]).unwrap();
        match bytes {
            Some((targets, _)) => {
                target = RenderTarget::new(format, case.width, case.height, hex_bytes(&targets[slot])).unwrap()
            }
            None => {
                for y in 0..case.height {
                    for x in 0..case.width {
                        target.write(x, y, [0; 4], 0xf).unwrap();
                    }
                }
            }
        }
        targets.render_targets[slot] = Some(target);
    }
    if let Some(format) = &case.depth {
        let format: Format = format.parse().unwrap();
        let size = TexelCodec::new(format).unwrap().element_bytes() * (case.width * case.height) as usize;
        let buffer = match bytes {
            Some((_, depth)) => {
                DepthStencilTarget::new(format, case.width, case.height, hex_bytes(depth.unwrap())).unwrap()
            }
            None => {
                let mut buffer = DepthStencilTarget::new(format, case.width, case.height, vec![0; size]).unwrap();
                for y in 0..case.height {
                    for x in 0..case.width {
                        buffer.write_depth(x, y, 1.0).unwrap();
                        buffer.write_stencil(x, y, 0).unwrap();
                    }
                }
                buffer
            }
        };
        targets.depth_stencil = Some(buffer);
    }
    targets
}

/// A draw of the fixture: pixel x, y, state, outputs, vertex z, back-facing.
type Draw = (u32, u32, usize, usize, f32, u8);

/// Replays `draws` of `program` through the output merger, starting from `targets`.
fn replay(case: &Case, program: &Case, mut targets: Targets, draws: &[Draw], sample_mask: Option<u32>) -> Targets {
    let states: Vec<DrawState> = program.states.iter().map(parse_state).collect();
    // ps_float declares o0..o3 (xyzw); ps_uint and ps_sint declare o0.
    let declared = if case.ps == "float" {
        [0xf, 0xf, 0xf, 0xf, 0, 0, 0, 0]
    } else {
        [0xf, 0, 0, 0, 0, 0, 0, 0]
    };
    for &(x, y, state, outputs, z, back) in draws {
        let state = &states[state];
        let [min_depth, max_depth] = state.depth_range;
        // 15.6's viewport transform of the vertex z (the triangle is flat): MinDepth + z * (MaxDepth - MinDepth).
        let depth = min_depth + z * (max_depth - min_depth);
        assert!(
            !state.depth_clip || (0.0..=1.0).contains(&z),
            "{}: a clipped draw",
            case.name
        );
        let mut om_state = state.om;
        if let Some(mask) = sample_mask {
            om_state.sample_mask = mask;
        }
        let mut om = OutputMerger::new(&om_state, targets).unwrap();
        om.set_depth_range(min_depth, max_depth);
        let mut registers = [[0u32; 4]; 8];
        registers[..4].copy_from_slice(&program.outputs[outputs]);
        if om.coverage(None, &registers[0], None) && om.depth_stencil(x, y, depth, back == 0, None).unwrap().passed() {
            om.write(x, y, &registers, &declared, None).unwrap();
        }
        targets = om.into_targets();
    }
    targets
}

/// The draws of `program` split into the setup draws (the first at each pixel) and the rest.
fn split(program: &Case) -> (Vec<Draw>, Vec<Draw>) {
    let mut seen = std::collections::HashSet::new();
    program.draws.iter().partition(|d| seen.insert((d.0, d.1)))
}

/// The program's output registers o0..o3 at each pixel, in its setup draw.
type Sources = HashMap<(u32, u32), [[u32; 4]; 4]>;

/// The label of pixel (x, y): the sub-case and its value set.
fn label(program: &Case, width: u32, x: u32, y: u32) -> (&str, i64) {
    let (name, set) = &program.labels[(y * width + x) as usize];
    (name.as_str(), *set)
}

/// Compares our targets with the reference's bytes. Each differing texel is explained (counted in `explained`) or
/// reported. `sources` gives, in the setup stage, the program's output words at each pixel; `unmasked` our targets
/// replayed with the sample mask ignored.
#[allow(clippy::too_many_arguments)]
fn compare(
    case: &Case,
    program: &Case,
    stage: &str,
    ours: &Targets,
    unmasked: Option<&Targets>,
    theirs: (&[String], Option<&String>),
    sources: Option<&Sources>,
    explained: &mut BTreeMap<Explained, usize>,
    report: &mut Vec<String>,
) {
    for (slot, expected) in theirs.0.iter().enumerate() {
        let target = ours.render_targets[slot].as_ref().unwrap();
        let format = target.format();
        let size = TexelCodec::new(format).unwrap().element_bytes();
        let theirs = hex_bytes(expected);
        for (i, (a, b)) in target.bytes().chunks(size).zip(theirs.chunks(size)).enumerate() {
            if a == b {
                continue;
            }
            let (x, y) = (i as u32 % case.width, i as u32 / case.width);
            let (name, value_set) = label(program, case.width, x, y);
            let mut why = BTreeMap::new();
            let mut unexplained = false;
            if stage == "blend" && format == Format::A8Unorm {
                why.insert(Explained::SkippedA8Blend, ());
            } else if stage == "blend" && format.info().kind == NumericKind::Snorm && value_set >= 2 {
                why.insert(Explained::SkippedSnormOutOfRange, ());
            } else if name == "sample mask 0xfffffffe" {
                let alternative = unmasked.unwrap().render_targets[slot].as_ref().unwrap();
                if alternative.texel_bytes(x, y).unwrap() == b {
                    why.insert(Explained::SampleMaskIgnored, ());
                } else {
                    unexplained = true;
                }
            } else {
                let source = sources.map(|s| s[&(x, y)][slot]);
                for field in format.info().fields() {
                    let Some(component) = field.channel.slot() else {
                        continue;
                    };
                    match explain_component(field, a, b, source.map(|w| w[component]), value_set) {
                        Some(Some(reason)) => {
                            why.insert(reason, ());
                        }
                        Some(None) => {}
                        None => unexplained = true,
                    }
                }
            }
            if unexplained || why.is_empty() {
                report.push(format!(
                    "{} {stage} rt{slot} {format} pixel ({x}, {y}) [{name}, set {value_set}]: ours {a:02x?} theirs {b:02x?}",
                    case.name
                ));
            } else {
                for reason in why.keys() {
                    *explained.entry(*reason).or_default() += 1;
                }
            }
        }
    }
    if let (Some(expected), Some(buffer)) = (theirs.1, &ours.depth_stencil) {
        let format = buffer.format();
        let size = TexelCodec::new(format).unwrap().element_bytes();
        let theirs = hex_bytes(expected);
        for (i, (a, b)) in buffer.bytes().chunks(size).zip(theirs.chunks(size)).enumerate() {
            let (x, y) = (i as u32 % case.width, i as u32 / case.width);
            let mut fine = true;
            let mut depth_off = false;
            for field in format.info().fields() {
                let (p, q) = (field_code(field, a), field_code(field, b));
                match (field.channel, field.kind) {
                    (Channel::Depth, FieldKind::Unorm) if p.abs_diff(q) == 1 => depth_off = true,
                    (Channel::Depth | Channel::Stencil, _) if p != q => fine = false,
                    // X bits (D32_FLOAT_S8X24_UINT's 24 unused) are not compared.
                    _ => {}
                }
            }
            if !fine {
                let (name, _) = label(program, case.width, x, y);
                report.push(format!(
                    "{} {stage} depth {format} pixel ({x}, {y}) [{name}]: ours {a:02x?} theirs {b:02x?}",
                    case.name
                ));
            } else if depth_off {
                *explained.entry(Explained::DepthConversion).or_default() += 1;
            }
        }
    }
}

#[test]
fn replayed_draws_leave_the_targets_a_real_d3d11_left() {
    let fixture: Fixture = serde_json::from_str(include_str!("../fixtures/output-merger/reference.json")).unwrap();
    let mut report = Vec::new();
    let mut explained = BTreeMap::new();
    let mut compared = 0usize;
    for case in &fixture.cases {
        let program = match &case.draws_from {
            Some(name) => fixture.cases.iter().find(|c| &c.name == name).unwrap(),
            None => case,
        };
        let (setup, rest) = split(program);
        let sources: Sources = setup.iter().map(|d| ((d.0, d.1), program.outputs[d.3])).collect();
        let ours = replay(case, program, targets(case, None), &setup, None);
        let theirs_setup = (&case.setup_targets[..], case.setup_depth.as_ref());
        compare(
            case,
            program,
            "setup",
            &ours,
            None,
            theirs_setup,
            Some(&sources),
            &mut explained,
            &mut report,
        );
        // The rest starts from the reference's render targets after its setup draws, so a one-code difference in a
        // destination does not carry into the blend; depth and stencil continue from ours, so that each side compares
        // depths it converted itself.
        let mut start = targets(case, Some(theirs_setup));
        start.depth_stencil = ours.depth_stencil.clone();
        let unmasked = replay(case, program, start.clone(), &rest, Some(u32::MAX));
        let ours = replay(case, program, start, &rest, None);
        let theirs = (&case.result_targets[..], case.result_depth.as_ref());
        compare(
            case,
            program,
            "blend",
            &ours,
            Some(&unmasked),
            theirs,
            None,
            &mut explained,
            &mut report,
        );
        compared += (case.width * case.height) as usize * (case.targets.len() + usize::from(case.depth.is_some()));
    }
    println!("{compared} texels compared twice (after the setup draws and after all); explained differences:");
    for (reason, count) in &explained {
        println!("  {reason:?}: {count}");
    }
    assert!(
        report.is_empty(),
        "{} unexplained mismatches:\n{}",
        report.len(),
        report.join("\n")
    );
    // The explained differences stay what they are known to be: a minority of the texels, the rare kinds rare.
    let total: usize = explained.values().sum();
    assert!(total < compared / 2, "{total} of {compared}");
    for rare in [
        Explained::NanBits,
        Explained::FusedRounding,
        Explained::NanTimesZeroWeight,
        Explained::SnormMinusOne,
        Explained::SampleMaskIgnored,
    ] {
        assert!(
            explained.get(&rare).copied().unwrap_or(0) <= 16,
            "{rare:?}: {explained:?}"
        );
    }
}
