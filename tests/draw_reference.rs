//! Whole draws against a real D3D11: every committed reference render (Wine's d3d11 on Mesa llvmpipe, the tool of
//! `/work/shared/tools/d3d11-ref`) drawn again end to end by `iridia::draw` — a draw description read by
//! `iridia::description`, run by `iridia::draw::run_sequence` — and its targets compared with the reference's
//! bytes. Each group is held to the tolerance its fixture README documents, and a difference is excused only in the
//! documented form of a known deviation of the reference (checked here, not assumed):
//!
//! - `fixtures/raster/`: coverage exactly; attributes, `SV_Position` and depth on triangles whose vertices are on the
//!   1/256 grid to 1e-6 of their scale, or else the exact value (computed here from the spec's formulas) nearer ours
//!   and the reference within 1e-4 (llvmpipe's float32 interpolation); `SV_Position.w` inverted (GL's 1/w); an empty
//!   depth range at its one depth (wined3d widens it); D16/D24 depths the rounding of a depth within 1e-6 of ours.
//! - `fixtures/output-merger/`: byte for byte, each differing texel explained by one of the README's kinds.
//! - `fixtures/input-assembler/`: word for word, but a UNORM/SNORM attribute one float32 step off where ours is the
//!   exact quotient, and primitive IDs where the reference has only 0.
//! - `fixtures/texture/`: per class: single texels equal (1 ULP for UNORM, 0.0045 for sRGB), filtered results within
//!   the weight bound; LODs computed from derivatives (llvmpipe's log2 is approximate) are compared through the
//!   texture module's test, and here the draw must give exactly what the texture module gives for the same sample.
//!
//! The fixture directories keep the renderer's descriptions where they have them; where they keep only the cases
//! (raster, output merger), the description is rebuilt here as their `generate.py` wrote it.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::float_cmp
)]

#[path = "common/texel_explain.rs"]
mod texel_explain;

use iridia::description::{self, Description};
use iridia::draw::{DrawOptions, DrawOutput, ShaderCache, run_sequence};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Reads a description from `text`, its files relative to `folder`.
fn read(text: &str, folder: &Path) -> Description {
    let mut load = |path: &str| Ok(std::fs::read(folder.join(path)).unwrap_or_else(|e| panic!("{path}: {e}")));
    description::read(text, &mut load).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs every draw of `description`.
fn run(description: &Description, cache: &mut ShaderCache) -> Vec<DrawOutput> {
    run_sequence(&description.draws, cache, DrawOptions::default(), None).unwrap_or_else(|e| panic!("{e}"))
}

/// Little-endian float32s.
fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// Little-endian 32-bit words.
fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// A float32 the generators wrote as its shortest decimal, or as "nan", "inf", "-inf".
fn float(v: &Value) -> f32 {
    match v {
        Value::Number(n) => n.as_f64().unwrap() as f32,
        Value::String(s) if s == "nan" => f32::NAN,
        Value::String(s) if s == "inf" => f32::INFINITY,
        Value::String(s) if s == "-inf" => f32::NEG_INFINITY,
        other => panic!("not a float: {other:?}"),
    }
}

/// A float32 as a description's exact raw-bits string.
fn bits(v: f32) -> Value {
    Value::String(format!("0x{:08x}", v.to_bits()))
}

// ---------------------------------------------------------------------------------------------------------------
// fixtures/raster

fn raster_cases(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(fixtures().join("raster").join(file)).unwrap();
    let mut all: Value = serde_json::from_str(&text).unwrap();
    match all["cases"].take() {
        Value::Array(cases) => cases,
        other => panic!("{file}: cases is {other:?}"),
    }
}

/// The reference renderer's description of a raster case, as `fixtures/raster/generate.py` (`description`) wrote it.
fn raster_description(case: &Value, coverage: bool) -> String {
    let positions: Vec<Vec<f32>> = case["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_array().unwrap().iter().map(float).collect())
        .collect();
    let attributes: Vec<Vec<f32>> = match case.get("attributes") {
        Some(a) => a
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_array().unwrap().iter().map(float).collect())
            .collect(),
        None => vec![vec![0.; 4]; positions.len()],
    };
    let data: Vec<Value> = positions
        .iter()
        .zip(&attributes)
        .flat_map(|(p, a)| p.iter().chain(a).map(|&v| bits(v)).collect::<Vec<_>>())
        .collect();
    // the state's floats are the shortest decimals of float32s, which a description reads back exactly
    let vp = case["viewport"].as_array().unwrap();
    let mut rasterizer = case["rasterizer"].clone();
    rasterizer["fill"] = json!("SOLID");
    let mut d = json!({
        "vs": "vs_pass.dxbc",
        "width": case["width"], "height": case["height"],
        "input_layout": [
            {"semantic": "POSITION", "index": 0, "format": "R32G32B32A32_FLOAT", "slot": 0, "offset": 0},
            {"semantic": "ATTR", "index": 0, "format": "R32G32B32A32_FLOAT", "slot": 0, "offset": 16}
        ],
        "vertex_buffers": [{"stride": 32, "f32": data}],
        "indices": case["indices"], "index_format": "R16_UINT", "topology": "TRIANGLELIST",
        "viewport": {"x": vp[0], "y": vp[1], "w": vp[2], "h": vp[3], "min_depth": vp[4], "max_depth": vp[5]},
        "rasterizer": rasterizer,
    });
    if !case["scissor"].is_null() {
        d["scissor"] = case["scissor"].clone();
    }
    if coverage {
        d["ps"] = json!("ps_count.dxbc");
        d["render_targets"] = json!([{"format": "R32_FLOAT", "clear": [0, 0, 0, 0]}]);
        d["blend"] = json!({"targets": [{"enable": true, "src": "ONE", "dest": "ONE", "op": "ADD",
                                          "src_alpha": "ONE", "dest_alpha": "ONE", "op_alpha": "ADD"}]});
    } else {
        d["ps"] = json!("ps_attr.dxbc");
        let target = json!({"format": "R32G32B32A32_FLOAT", "clear": [-1, -1, -1, -1]});
        d["render_targets"] = json!([target.clone(), target.clone(), target]);
        d["depth"] = json!({"format": case["depth_format"], "enable": true, "write": true, "func": "ALWAYS"});
        d["clear_depth"] = json!(1.0);
    }
    d.to_string()
}

#[test]
fn raster_coverage_matches_the_reference_exactly() {
    let folder = fixtures().join("raster/shaders");
    let mut cache = ShaderCache::new();
    let mut report = BTreeMap::<String, (usize, usize, usize)>::new();
    let mut failures = Vec::new();
    let mut ambiguous_covered = 0usize;
    for case in raster_cases("coverage.json") {
        let name = case["name"].as_str().unwrap();
        let out = run(&read(&raster_description(&case, true), &folder), &mut cache)
            .pop()
            .unwrap();
        let ours: Vec<u32> = f32s(&out.render_targets[0].as_ref().unwrap().bytes)
            .iter()
            .map(|&c| c as u32)
            .collect();
        let theirs: Vec<u32> = case["counts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| {
                row.as_str()
                    .unwrap()
                    .bytes()
                    .map(|b| u32::from(b - b'0'))
                    .collect::<Vec<_>>()
            })
            .collect();
        let w = out.width as usize;
        let wrong: Vec<(usize, usize, u32, u32)> = ours
            .iter()
            .zip(&theirs)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| (i % w, i / w, *a, *b))
            .collect();
        ambiguous_covered += theirs
            .iter()
            .zip(&out.ambiguous)
            .filter(|(n, a)| **n > 0 && **a)
            .count();
        let entry = report.entry(case["category"].as_str().unwrap().to_owned()).or_default();
        entry.0 += 1;
        entry.1 += theirs.iter().filter(|&&n| n > 0).count();
        if !wrong.is_empty() {
            entry.2 += 1;
            failures.push(format!("{name}: (x, y, ours, reference) {wrong:?}"));
        }
    }
    for (category, (n, pixels, bad)) in &report {
        println!("raster coverage {category}: {n} draws, {pixels} covered pixels, {bad} draws differ");
    }
    println!("{ambiguous_covered} covered pixels are in the ambiguity mask (all matched)");
    assert!(
        failures.is_empty(),
        "{} draws differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(report.values().map(|r| r.0).sum::<usize>(), 612);
}

/// The spec's values at a pixel centre, worked out here on their own (in f64, from 3.4.1's snapped positions, 16.4's
/// perspective correction and 15.6's viewport) for a one-triangle case whose vertices (and the vertices clipping
/// makes) are on the 1/256 grid: the perspective weights, the screen weights, w and the screen z.
fn exact(case: &Value, px: usize, py: usize) -> ([f64; 3], [f64; 3], f64, f64) {
    let vp: Vec<f32> = case["viewport"].as_array().unwrap().iter().map(float).collect();
    let viewport = iridia::api::viewport::Viewport {
        x: vp[0],
        y: vp[1],
        width: vp[2],
        height: vp[3],
        min_depth: vp[4],
        max_depth: vp[5],
    };
    let positions: Vec<[f32; 4]> = case["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let v: Vec<f32> = p.as_array().unwrap().iter().map(float).collect();
            [v[0], v[1], v[2], v[3]]
        })
        .collect();
    let indices: Vec<usize> = case["indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    let corners: Vec<[f32; 4]> = indices[..3].iter().map(|&i| positions[i]).collect();
    let screen: Vec<[f32; 3]> = corners.iter().map(|&p| viewport.to_screen(p)).collect();
    let fixed: Vec<[i64; 2]> = screen
        .iter()
        .map(|s| {
            let f = [(f64::from(s[0]) * 256.) as i64, (f64::from(s[1]) * 256.) as i64];
            assert_eq!(
                [f[0] as f64 / 256., f[1] as f64 / 256.],
                [f64::from(s[0]), f64::from(s[1])],
                "off the grid"
            );
            f
        })
        .collect();
    let edge = |p: [i64; 2], q: [i64; 2], r: [i64; 2]| (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
    let centre = [px as i64 * 256 + 128, py as i64 * 256 + 128];
    let area = edge(fixed[0], fixed[1], fixed[2]) as f64;
    let linear = [
        edge(fixed[1], fixed[2], centre) as f64 / area,
        edge(fixed[2], fixed[0], centre) as f64 / area,
        edge(fixed[0], fixed[1], centre) as f64 / area,
    ];
    let w: Vec<f64> = corners.iter().map(|p| f64::from(p[3])).collect();
    let over_w = [linear[0] / w[0], linear[1] / w[1], linear[2] / w[2]];
    let sum = over_w[0] + over_w[1] + over_w[2];
    let z: f64 = (0..3).map(|k| linear[k] * f64::from(screen[k][2])).sum();
    (over_w.map(|q| q / sum), linear, 1. / sum, z)
}

/// How ours and the reference's values compare (the raster fixture README's rule).
#[derive(Default)]
struct Tally {
    compared: usize,
    within: usize,
    reference_off: f64,
    ours_off: f64,
    failures: Vec<String>,
}

impl Tally {
    /// `ours` and `theirs` agree to 1e-6 of `scale`, or the `exact` value is within 1e-6 of ours and nearer ours,
    /// theirs within 1e-4 (llvmpipe interpolates in float32).
    fn check(&mut self, what: String, ours: f32, theirs: f32, exact: Option<f64>, scale: f64) {
        let scale = scale.max(f64::from(theirs.abs())).max(1e-30);
        let (ours, theirs) = (f64::from(ours), f64::from(theirs));
        self.compared += 1;
        if let Some(exact) = exact {
            let off = (ours - exact).abs() / scale;
            self.ours_off = self.ours_off.max(off);
            if off > 1e-6 {
                self.failures.push(format!("{what}: ours {ours}, exact {exact}"));
            }
        }
        if (ours - theirs).abs() <= 1e-6 * scale {
            self.within += 1;
            return;
        }
        match exact {
            Some(exact) if (theirs - exact).abs() > (ours - exact).abs() && (theirs - exact).abs() <= 1e-4 * scale => {
                self.reference_off = self.reference_off.max((theirs - exact).abs() / scale);
            }
            _ => self
                .failures
                .push(format!("{what}: ours {ours}, reference {theirs}, exact {exact:?}")),
        }
    }
}

#[test]
fn raster_attributes_and_depth_match_the_reference_on_grid_vertices() {
    let folder = fixtures().join("raster/shaders");
    let mut cache = ShaderCache::new();
    let mut tally = Tally::default();
    let mut pixels_compared = 0usize;
    let cases = raster_cases("attributes.json");
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let out = run(&read(&raster_description(case, false), &folder), &mut cache)
            .pop()
            .unwrap();
        let w = out.width as usize;
        let [persp, linear, position] = [0, 1, 2].map(|i| f32s(&out.render_targets[i].as_ref().unwrap().bytes));
        let depth = &out.depth_stencil.as_ref().unwrap().bytes;
        let format = case["depth_format"].as_str().unwrap();
        let pixels = case["pixels"].as_array().unwrap();
        // covered: SV_Position.x written over the clear of -1, as the pack step read it
        let ours_covered: Vec<usize> = (0..w * out.height as usize)
            .filter(|&i| position[i * 4] >= 0.)
            .collect();
        let theirs_covered: Vec<usize> = pixels
            .iter()
            .map(|p| p[1].as_u64().unwrap() as usize * w + p[0].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(ours_covered, theirs_covered, "{name}: covered pixels");
        let attributes: Vec<Vec<f32>> = case["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_array().unwrap().iter().map(float).collect())
            .collect();
        let rs = &case["rasterizer"];
        let biased = rs["depth_bias"].as_i64().unwrap() != 0 || float(&rs["slope_scaled_depth_bias"]) != 0.;
        let vp: Vec<f32> = case["viewport"].as_array().unwrap().iter().map(float).collect();
        let z_scale = case["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| f64::from((float(&p[2]) / float(&p[3])).abs()))
            .fold(0f64, f64::max);
        for p in pixels {
            let (x, y) = (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize);
            let i = y * w + x;
            let reference: Vec<f32> = p.as_array().unwrap()[2..14].iter().map(float).collect();
            let (pw, lw, exact_w, exact_z) = exact(case, x, y);
            let at = |what: &str| format!("{name} ({x}, {y}) {what}");
            for k in 0..4 {
                let values = [attributes[0][k], attributes[1][k], attributes[2][k]];
                let scale = values.iter().fold(0f64, |m, v| m.max(f64::from(v.abs())));
                let blend = |weights: [f64; 3]| (0..3).map(|j| weights[j] * f64::from(values[j])).sum::<f64>();
                tally.check(
                    at(&format!("perspective[{k}]")),
                    persp[i * 4 + k],
                    reference[k],
                    Some(blend(pw)),
                    scale,
                );
                tally.check(
                    at(&format!("linear[{k}]")),
                    linear[i * 4 + k],
                    reference[4 + k],
                    Some(blend(lw)),
                    scale,
                );
            }
            assert_eq!(position[i * 4], reference[8], "{}", at("SV_Position.x"));
            assert_eq!(position[i * 4 + 1], reference[9], "{}", at("SV_Position.y"));
            // the reference's SV_Position.w is GL's gl_FragCoord.w, 1/w; D3D's is w (16.3)
            tally.check(
                at("SV_Position.w"),
                position[i * 4 + 3],
                1. / reference[11],
                Some(exact_w),
                0.,
            );
            let stored = match format {
                "D32_FLOAT" => f64::from(f32::from_le_bytes(depth[i * 4..i * 4 + 4].try_into().unwrap())),
                "D16_UNORM" => f64::from(u16::from_le_bytes(depth[i * 2..i * 2 + 2].try_into().unwrap())),
                // D3D's layout: depth in bits 0..24
                _ => f64::from(u32::from_le_bytes(depth[i * 4..i * 4 + 4].try_into().unwrap()) & 0xff_ffff),
            };
            if vp[4] == vp[5] {
                // wined3d widens an empty depth range; the spec's depth is the range's one value (15.6)
                assert_eq!(position[i * 4 + 2], vp[4], "{}", at("SV_Position.z"));
                if format == "D32_FLOAT" {
                    assert_eq!(stored, f64::from(vp[4]), "{}", at("depth"));
                }
                pixels_compared += 1;
                continue;
            }
            let exact_z = (!biased).then_some(exact_z);
            tally.check(
                at("SV_Position.z"),
                position[i * 4 + 2],
                reference[10],
                exact_z,
                z_scale,
            );
            let clamp = |z: f64| z.clamp(f64::from(vp[4]), f64::from(vp[5]));
            match format {
                "D32_FLOAT" => tally.check(at("depth"), stored as f32, float(&p[14]), exact_z.map(clamp), z_scale),
                _ => {
                    // the reference's integer is the rounding (17.11) of a depth within 1e-6 of ours
                    let bits = if format == "D16_UNORM" { 16 } else { 24 };
                    let steps = ((1u64 << bits) - 1) as f64;
                    let ours_depth = f64::from(position[i * 4 + 2]).clamp(f64::from(vp[4]), f64::from(vp[5]));
                    let theirs = p[14].as_u64().unwrap() as f64;
                    tally.compared += 1;
                    if (ours_depth * steps - theirs).abs() <= 0.5 + 1e-6 * steps {
                        tally.within += 1;
                    } else {
                        tally
                            .failures
                            .push(format!("{}: ours {stored}, reference {theirs}", at("depth")));
                    }
                }
            }
            pixels_compared += 1;
        }
    }
    println!(
        "raster attributes: {} draws, {pixels_compared} pixels, {} values: {} within 1e-6 of the reference; where not, \
         the exact value is nearer ours, the reference off by up to {:e} of the scale; ours off the exact value by up \
         to {:e}",
        cases.len(),
        tally.compared,
        tally.within,
        tally.reference_off,
        tally.ours_off
    );
    assert!(
        tally.failures.is_empty(),
        "{} differences:\n{}",
        tally.failures.len(),
        tally.failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------------------------
// fixtures/output-merger

use iridia::api::resource::{Resource, Texture};
use iridia::draw::{DrawState, UpdatedTargets, with_targets};
use iridia::format::{Channel, FieldKind, Format, NumericKind};
use std::sync::Arc;
use texel_explain::{Explained, explain_component, field_code};

/// One case of `fixtures/output-merger/reference.json`.
#[derive(serde::Deserialize)]
struct MergerCase {
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

/// A draw of the fixture: pixel x, y, state, outputs, vertex z, back-facing.
type MergerDraw = (u32, u32, usize, usize, f32, u8);

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// The reference tool's description of `draws` of `program` into `case`'s targets, as `generate.py`
/// (`Case.description`) wrote it: each draw scissored to its pixel, covering it with a full-screen triangle (front or
/// back facing) at depth `z`, the pixel program writing the cbuffer's words.
fn merger_description(case: &MergerCase, program: &MergerCase, draws: &[MergerDraw]) -> String {
    let depth_off = json!({"enable": false, "write": false, "func": "ALWAYS", "stencil_enable": false});
    let mut top = json!({
        "vs": "vs_position.dxbc", "ps": format!("ps_{}.dxbc", case.ps),
        "width": case.width, "height": case.height,
        "render_targets": case.targets.iter().map(|f| json!({"format": f, "clear": [0, 0, 0, 0]})).collect::<Vec<_>>(),
        "clear_color": [0, 0, 0, 0],
        "input_layout": [{"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0}],
        "topology": "TRIANGLELIST",
    });
    if let Some(format) = &case.depth {
        let mut depth = depth_off.clone();
        depth["format"] = json!(format);
        top["depth"] = depth;
        top["clear_depth"] = json!(1.0);
        top["clear_stencil"] = json!(0);
    }
    let mut entries = Vec::new();
    for &(x, y, s, o, z, back) in draws {
        let state = &program.states[s];
        let corners: [(f32, f32); 3] = if back == 1 {
            [(-1., -1.), (3., -1.), (-1., 3.)]
        } else {
            [(-1., -1.), (-1., 3.), (3., -1.)]
        };
        let vertices: Vec<Value> = corners
            .iter()
            .flat_map(|&(px, py)| [bits(px), bits(py), bits(z)])
            .collect();
        let words: Vec<u32> = program.outputs[o].iter().flatten().copied().collect();
        let mut viewport = json!({"x": 0, "y": 0, "w": case.width, "h": case.height});
        let range = state
            .get("viewport")
            .cloned()
            .unwrap_or(json!({"min_depth": 0.0, "max_depth": 1.0}));
        viewport["min_depth"] = range["min_depth"].clone();
        viewport["max_depth"] = range["max_depth"].clone();
        let mut rasterizer = json!({"cull": "NONE"});
        if let Some(Value::Object(more)) = state.get("rasterizer") {
            for (k, v) in more {
                rasterizer[k] = v.clone();
            }
        }
        entries.push(json!({
            "scissor": [x, y, x + 1, y + 1],
            "ps_cbuffers": [{"slot": 0, "u32": words}],
            "vertex_buffers": [{"stride": 12, "f32": vertices}],
            "blend": state["blend"],
            "depth": state.get("depth").cloned().unwrap_or(depth_off.clone()),
            "viewport": viewport,
            "rasterizer": rasterizer,
        }));
    }
    top["draws"] = Value::Array(entries);
    top.to_string()
}

/// `description`'s draws with their targets holding `render_targets` (bytes by slot) and `depth` instead of the
/// clears.
fn starting_from(description: &Description, render_targets: &[Vec<u8>], depth: Option<&[u8]>) -> Vec<DrawState> {
    let replace = |resource: &Arc<Resource>, bytes: &[u8]| {
        let Resource::Texture(texture) = resource.as_ref() else {
            panic!("a target is a buffer")
        };
        Arc::new(Resource::Texture(
            Texture::new(texture.shape, vec![Arc::from(bytes.to_vec())]).unwrap(),
        ))
    };
    let updated = UpdatedTargets {
        render_targets: description
            .render_targets
            .iter()
            .zip(render_targets)
            .map(|(r, bytes)| Some((r.clone(), replace(r, bytes))))
            .collect(),
        depth_stencil: description
            .depth_stencil
            .as_ref()
            .zip(depth)
            .map(|(r, bytes)| (r.clone(), replace(r, bytes))),
    };
    description.draws.iter().map(|d| with_targets(d, &updated)).collect()
}

/// The program's output registers o0..o3 at each pixel, in its setup draw.
type Sources = BTreeMap<(u32, u32), [[u32; 4]; 4]>;

/// Compares our targets after a stage with the reference's; every differing texel is explained or reported.
#[allow(clippy::too_many_arguments)]
fn merger_compare(
    case: &MergerCase,
    program: &MergerCase,
    stage: &str,
    ours: &DrawOutput,
    unmasked: Option<&DrawOutput>,
    theirs: (&[String], Option<&String>),
    sources: Option<&Sources>,
    explained: &mut BTreeMap<Explained, usize>,
    report: &mut Vec<String>,
) -> usize {
    let label = |x: u32, y: u32| -> (&str, i64) {
        let (name, set) = &program.labels[(y * case.width + x) as usize];
        (name.as_str(), *set)
    };
    let mut exact = 0;
    for (slot, expected) in theirs.0.iter().enumerate() {
        let target = ours.render_targets[slot].as_ref().unwrap();
        let format = target.format;
        let size = target.bytes_per_texel();
        let theirs = hex_bytes(expected);
        for (i, (a, b)) in target.bytes.chunks(size).zip(theirs.chunks(size)).enumerate() {
            if a == b {
                exact += 1;
                continue;
            }
            let (x, y) = (i as u32 % case.width, i as u32 / case.width);
            let (name, value_set) = label(x, y);
            let mut why = Vec::new();
            let mut unexplained = false;
            if stage == "blend" && format == Format::A8Unorm {
                why.push(Explained::SkippedA8Blend);
            } else if stage == "blend" && format.info().kind == NumericKind::Snorm && value_set >= 2 {
                why.push(Explained::SkippedSnormOutOfRange);
            } else if name == "sample mask 0xfffffffe" {
                let alternative = unmasked.unwrap().render_targets[slot].as_ref().unwrap();
                if &alternative.bytes[i * size..(i + 1) * size] == b {
                    why.push(Explained::SampleMaskIgnored);
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
                        Some(Some(reason)) => why.push(reason),
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
                why.sort();
                why.dedup();
                for reason in why {
                    *explained.entry(reason).or_default() += 1;
                }
            }
        }
    }
    if let (Some(expected), Some(buffer)) = (theirs.1, &ours.depth_stencil) {
        let size = buffer.bytes_per_texel();
        let theirs = hex_bytes(expected);
        for (i, (a, b)) in buffer.bytes.chunks(size).zip(theirs.chunks(size)).enumerate() {
            let mut fine = true;
            let mut depth_off = false;
            for field in buffer.format.info().fields() {
                let (p, q) = (field_code(field, a), field_code(field, b));
                match (field.channel, field.kind) {
                    (Channel::Depth, FieldKind::Unorm) if p.abs_diff(q) == 1 => depth_off = true,
                    (Channel::Depth | Channel::Stencil, _) if p != q => fine = false,
                    _ => {}
                }
            }
            if !fine {
                let (x, y) = (i as u32 % case.width, i as u32 / case.width);
                report.push(format!(
                    "{} {stage} depth pixel ({x}, {y}) [{}]: ours {a:02x?} theirs {b:02x?}",
                    case.name,
                    label(x, y).0
                ));
            } else if depth_off {
                *explained.entry(Explained::DepthConversion).or_default() += 1;
            } else {
                exact += 1;
            }
        }
    }
    exact
}

#[test]
fn output_merger_draws_leave_the_targets_the_reference_left() {
    #[derive(serde::Deserialize)]
    struct Fixture {
        cases: Vec<MergerCase>,
    }
    let fixture: Fixture =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("output-merger/reference.json")).unwrap())
            .unwrap();
    let folder = fixtures().join("output-merger/shaders");
    let mut cache = ShaderCache::new();
    let mut report = Vec::new();
    let mut explained = BTreeMap::new();
    let (mut compared, mut exact, mut draws) = (0usize, 0usize, 0usize);
    for case in &fixture.cases {
        let program = match &case.draws_from {
            Some(name) => fixture.cases.iter().find(|c| &c.name == name).unwrap(),
            None => case,
        };
        // the setup draws (the first at each pixel) from cleared targets, then the rest from the reference's render
        // targets after its setup (so a destination a code apart does not carry into the blend) and our depth
        let mut seen = std::collections::HashSet::new();
        let (setup, rest): (Vec<MergerDraw>, Vec<MergerDraw>) =
            program.draws.iter().partition(|d| seen.insert((d.0, d.1)));
        draws += setup.len() + rest.len();
        let sources: Sources = setup.iter().map(|d| ((d.0, d.1), program.outputs[d.3])).collect();
        let setup_description = read(&merger_description(case, program, &setup), &folder);
        let ours = run(&setup_description, &mut cache).pop().unwrap();
        let theirs = (&case.setup_targets[..], case.setup_depth.as_ref());
        exact += merger_compare(
            case,
            program,
            "setup",
            &ours,
            None,
            theirs,
            Some(&sources),
            &mut explained,
            &mut report,
        );
        let rest_description = read(&merger_description(case, program, &rest), &folder);
        let setup_bytes: Vec<Vec<u8>> = case.setup_targets.iter().map(|h| hex_bytes(h)).collect();
        let depth = ours.depth_stencil.as_ref().map(|d| d.bytes.clone());
        let states = starting_from(&rest_description, &setup_bytes, depth.as_deref());
        let result = run_sequence(&states, &mut cache, DrawOptions::default(), None)
            .unwrap()
            .pop()
            .unwrap();
        // the same draws with the sample mask all ones, for the texels the reference wrote through a clear bit 0
        let unmasked_states: Vec<DrawState> = states
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.sample_mask = u32::MAX;
                s
            })
            .collect();
        let unmasked = run_sequence(&unmasked_states, &mut cache, DrawOptions::default(), None)
            .unwrap()
            .pop()
            .unwrap();
        let theirs = (&case.result_targets[..], case.result_depth.as_ref());
        exact += merger_compare(
            case,
            program,
            "blend",
            &result,
            Some(&unmasked),
            theirs,
            None,
            &mut explained,
            &mut report,
        );
        compared += 2 * (case.width * case.height) as usize * (case.targets.len() + usize::from(case.depth.is_some()));
    }
    println!(
        "output merger: {} cases, {draws} draws, {compared} texels compared (after the setup draws and after all), \
         {exact} exact; explained differences:",
        fixture.cases.len()
    );
    for (reason, count) in &explained {
        println!("  {reason:?}: {count}");
    }
    assert!(
        report.is_empty(),
        "{} unexplained mismatches:\n{}",
        report.len(),
        report.join("\n")
    );
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

// ---------------------------------------------------------------------------------------------------------------
// fixtures/input-assembler

/// The UNORM/SNORM fields of a vertex format: (shader component, bits, signed).
fn normalized_fields(format: &str) -> Vec<(usize, u32, bool)> {
    let uniform = |bits: u32, count: usize, signed: bool| -> Vec<(usize, u32, bool)> {
        (0..count).map(|c| (c, bits, signed)).collect()
    };
    match format {
        "R16G16B16A16_UNORM" => uniform(16, 4, false),
        "R16G16B16A16_SNORM" => uniform(16, 4, true),
        "R16G16_UNORM" => uniform(16, 2, false),
        "R16G16_SNORM" => uniform(16, 2, true),
        "R8G8B8A8_UNORM" | "B8G8R8A8_UNORM" => uniform(8, 4, false),
        "R8G8B8A8_SNORM" => uniform(8, 4, true),
        "R8G8_UNORM" => uniform(8, 2, false),
        "R8_UNORM" => uniform(8, 1, false),
        "R10G10B10A2_UNORM" => vec![(0, 10, false), (1, 10, false), (2, 10, false), (3, 2, false)],
        _ => Vec::new(),
    }
}

/// The float32 nearest `numerator / denominator` (0 < |n/d| <= 1), ties to even, by integer arithmetic.
fn exact_quotient(numerator: i64, denominator: i64) -> u32 {
    let sign = if numerator < 0 { 0x8000_0000 } else { 0 };
    let n = numerator.unsigned_abs() as u128;
    let d = denominator as u128;
    if n == 0 {
        return 0;
    }
    let mut e: i32 = 0;
    while (n << ((-e) as u32)) < d {
        e -= 1;
    }
    let scaled = n << (23 - e) as u32;
    let (q, r) = (scaled / d, scaled % d);
    let q = if 2 * r > d || (2 * r == d && q % 2 == 1) {
        q + 1
    } else {
        q
    };
    sign | ((q as f64 * 2f64.powi(e - 23)) as f32).to_bits()
}

/// Whether `ours` is the exact quotient (3.2.3.3, 3.2.3.5) of an n-bit UNORM/SNORM code and `theirs` one float32
/// step from it: llvmpipe's conversion, which the input-assembler README documents.
fn one_step_off_exact(ours: u32, theirs: u32, bits: u32, signed: bool) -> bool {
    let max = if signed {
        (1i64 << (bits - 1)) - 1
    } else {
        (1i64 << bits) - 1
    };
    let code = (f64::from(f32::from_bits(ours)) * max as f64).round() as i64;
    ours.abs_diff(theirs) == 1 && exact_quotient(code, max) == ours
}

#[test]
fn input_assembler_draws_match_the_reference() {
    let folder = fixtures().join("input-assembler/descriptions");
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("input-assembler/reference.json")).unwrap())
            .unwrap();
    let mut cache = ShaderCache::new();
    let (mut words, mut llvmpipe_steps, mut primitive_ids_not_compared, mut cases) = (0usize, 0usize, 0usize, 0usize);
    for (name, case) in reference["cases"].as_object().unwrap() {
        cases += 1;
        let text = std::fs::read_to_string(folder.join(format!("{name}.json"))).unwrap();
        let description = read(&text, &folder);
        let out = run(&description, &mut cache).pop().unwrap();
        let mut theirs: Vec<Vec<u32>> = case["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                t.as_array()
                    .unwrap()
                    .iter()
                    .map(|w| w.as_u64().unwrap() as u32)
                    .collect()
            })
            .collect();
        let ours: Vec<Vec<u32>> = out
            .render_targets
            .iter()
            .map(|t| u32s(&t.as_ref().unwrap().bytes))
            .collect();
        if name.starts_with("ids_") && theirs[0].chunks(4).all(|t| t[2] == 0) {
            // the reference's pixel program gets SV_PrimitiveID 0 for every triangle (README): not compared
            for (t, o) in theirs[0].chunks_mut(4).zip(ours[0].chunks(4)) {
                primitive_ids_not_compared += usize::from(t[2] != o[2]);
                t[2] = o[2];
            }
        }
        assert_eq!(ours.len(), theirs.len(), "{name}: targets");
        for (k, (o, t)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(o.len(), t.len(), "{name} target {k}");
            // fetch_*: target k holds ATTR k, read through layout element k
            let format = description.draws[0]
                .input_layout
                .get(k)
                .map(|e| e.format.to_string())
                .unwrap_or_default();
            for (i, (&a, &b)) in o.iter().zip(t).enumerate() {
                words += 1;
                if a == b {
                    continue;
                }
                let component = i % 4;
                let explained = name.starts_with("fetch_")
                    && normalized_fields(&format)
                        .iter()
                        .any(|&(c, bits, signed)| c == component && one_step_off_exact(a, b, bits, signed));
                assert!(
                    explained,
                    "{name} target {k} ({format}) pixel {} component {component}: ours {a:#010x}, reference {b:#010x}",
                    i / 4
                );
                llvmpipe_steps += 1;
            }
        }
        let primitives = case["pipeline_statistics"]["IAPrimitives"].as_u64().unwrap();
        assert_eq!(out.stats.triangles, primitives, "{name}: IAPrimitives");
    }
    println!(
        "input assembler: {cases} draws, {words} words compared, {llvmpipe_steps} UNORM/SNORM words one float32 step \
         off the exact quotient (llvmpipe), {primitive_ids_not_compared} primitive IDs the reference cannot show"
    );
    assert_eq!(cases, 14);
}

// ---------------------------------------------------------------------------------------------------------------
// fixtures/texture

use iridia::api::enums::{ResourceDimension, SrvDimension};
use iridia::api::resource::{SamplerDesc, ShaderResourceView, ShaderResourceViewDesc, TextureShape};
use iridia::shader::texture::{LevelOfDetail, TextureView, gather, sample};

#[derive(serde::Deserialize)]
struct TextureManifest {
    size: u32,
    textures: BTreeMap<String, TextureEntry>,
    cases: Vec<TextureCase>,
}

#[derive(serde::Deserialize)]
struct TextureEntry {
    format: String,
    width: u32,
    height: u32,
    mip_levels: u32,
    files: Vec<String>,
}

#[derive(serde::Deserialize)]
struct TextureCase {
    name: String,
    kind: String,
    texture: String,
    sampler: SamplerDesc,
    so: [f32; 4],
    g: [f32; 4],
    misc: [f32; 4],
    output: String,
}

fn texture_view(entry: &TextureEntry) -> TextureView {
    let format: Format = entry.format.parse().unwrap();
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format,
        width: entry.width,
        height: entry.height,
        depth: 1,
        array_size: 1,
        mip_levels: entry.mip_levels,
        sample_count: 1,
    };
    let subresources = entry
        .files
        .iter()
        .map(|f| Arc::from(std::fs::read(fixtures().join("texture").join(f)).unwrap()))
        .collect();
    let resource = Arc::new(Resource::Texture(Texture::new(shape, subresources).unwrap()));
    TextureView::new(&ShaderResourceView {
        resource,
        desc: ShaderResourceViewDesc {
            format,
            dimension: SrvDimension::Texture2D,
            ..Default::default()
        },
    })
    .unwrap()
}

/// The address the pixel program computes at pixel (x, y): `pos * so.xy + so.zw` (the product is exact).
fn uv(case: &TextureCase, x: u32, y: u32) -> [f32; 2] {
    [
        (x as f32 + 0.5) * case.so[0] + case.so[2],
        (y as f32 + 0.5) * case.so[1] + case.so[3],
    ]
}

/// How the texture module samples pixel (x, y) of `case` (what `tests/texture_reference.rs` sets against the
/// reference): the LOD it uses and the result.
fn module_sample(case: &TextureCase, view: &TextureView, x: u32, y: u32) -> (LevelOfDetail, [f32; 4]) {
    let [u, v] = uv(case, x, y);
    let coords = [u, v, 0.0, 0.0];
    // coarse derivatives (22.5.2) across the quad's top row and down its left column
    let (qx, qy) = (x & !1, y & !1);
    let [u00, v00] = uv(case, qx, qy);
    let [u10, v10] = uv(case, qx + 1, qy);
    let [u01, v01] = uv(case, qx, qy + 1);
    let ddx = [u10 - u00, v10 - v00, 0.0];
    let ddy = [u01 - u00, v01 - v00, 0.0];
    let s = &case.sampler;
    let m = case.misc[0];
    let (lod, words) = match case.kind.as_str() {
        "grad" => {
            let lod = LevelOfDetail::Gradient {
                ddx: [case.g[0], case.g[1], 0.0],
                ddy: [case.g[2], case.g[3], 0.0],
            };
            (lod, sample(view, s, coords, [0; 3], lod, None))
        }
        "level" => (
            LevelOfDetail::Explicit(m),
            sample(view, s, coords, [0; 3], LevelOfDetail::Explicit(m), None),
        ),
        "level_offset" => (
            LevelOfDetail::Explicit(m),
            sample(view, s, coords, [-3, 2, 0], LevelOfDetail::Explicit(m), None),
        ),
        "sample" => {
            let lod = LevelOfDetail::Implicit { ddx, ddy };
            (lod, sample(view, s, coords, [0; 3], lod, None))
        }
        "bias" => {
            let lod = LevelOfDetail::Bias { ddx, ddy, bias: m };
            (lod, sample(view, s, coords, [0; 3], lod, None))
        }
        "cmp_lz" => (
            LevelOfDetail::Zero,
            sample(view, s, coords, [0; 3], LevelOfDetail::Zero, Some(m)),
        ),
        "cmp" => {
            let lod = LevelOfDetail::Implicit { ddx, ddy };
            (lod, sample(view, s, coords, [0; 3], lod, Some(m)))
        }
        "gather" => (LevelOfDetail::Zero, gather(view, s, coords, [0, 0], 0, None)),
        "gather_alpha" => (LevelOfDetail::Zero, gather(view, s, coords, [0, 0], 3, None)),
        "gather_offset" => (LevelOfDetail::Zero, gather(view, s, coords, [1, -2], 0, None)),
        other => panic!("unknown kind {other}"),
    };
    (lod, words.unwrap().map(f32::from_bits))
}

/// A case's class (`fixtures/texture/README.md`, "Tolerances").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TextureClass {
    /// Every result one texel (point filters, gather).
    Texels,
    /// Filtered at a LOD both sides agree on.
    Filtered,
    /// Filtered at a LOD computed from derivatives, not a power of two: llvmpipe's log2 is approximate.
    ComputedLod,
}

fn texture_class(case: &TextureCase) -> TextureClass {
    let f = case.sampler.filter;
    let point = !f.min_linear() && !f.mag_linear() && !f.mip_linear();
    if case.kind.starts_with("gather") || point {
        return TextureClass::Texels;
    }
    let derivative = matches!(case.kind.as_str(), "grad" | "sample" | "bias" | "cmp");
    let lengths = if case.kind == "grad" {
        [case.g[0].hypot(case.g[1]), case.g[2].hypot(case.g[3])]
    } else {
        [case.so[0], case.so[1]]
    };
    let power_of_two = |x: f32| (x * 16.0).log2().fract() == 0.0;
    let isotropic_axes = case.kind != "grad" || (case.g[1] == 0.0 && case.g[2] == 0.0);
    if derivative && !(isotropic_axes && power_of_two(lengths[0].max(lengths[1])) && case.kind != "bias") {
        TextureClass::ComputedLod
    } else {
        TextureClass::Filtered
    }
}

/// The README's bound on a filtered result's difference, per component: 3/256 of the range of the texels the filter
/// reads (our minimum and maximum filters over the same footprint), plus 1.5 steps for 8-bit formats and the sRGB
/// curve's 0.0045; comparison results have range 1.
fn weight_bound(
    case: &TextureCase,
    view: &TextureView,
    coords: [f32; 4],
    lod: LevelOfDetail,
    offset: [i32; 3],
) -> [f32; 4] {
    let format = view.format();
    let range: [f32; 4] = if case.kind.starts_with("cmp") {
        [1.0; 4]
    } else {
        let reduce = |bits: u32| {
            let filter = iridia::api::enums::Filter::from_value(case.sampler.filter.value() & 0x7f | bits).unwrap();
            let s = SamplerDesc { filter, ..case.sampler };
            sample(view, &s, coords, offset, lod, None).unwrap().map(f32::from_bits)
        };
        let (lo, hi) = (reduce(0x100), reduce(0x180));
        std::array::from_fn(|c| hi[c] - lo[c])
    };
    let name = format.name();
    let quantum = match format.info().kind {
        _ if !name.starts_with("R8") => 0.0,
        NumericKind::Snorm => 1.5 / 127.0,
        _ => 1.5 / 255.0,
    };
    let curve = if name.ends_with("SRGB") { 0.0045 } else { 0.0 };
    range.map(|r| 3.0 / 256.0 * r + quantum + curve + 1e-6)
}

/// One texel read by both sides: equal within 1 ULP (llvmpipe's UNORM quotients), or 0.0045 for sRGB.
fn texels_agree(format: Format, ours: f32, theirs: f32) -> bool {
    if format.name().ends_with("SRGB") {
        return (ours - theirs).abs() <= 0.0045;
    }
    ours == theirs || (ours.to_bits() as i64 - theirs.to_bits() as i64).abs() <= 1
}

#[test]
fn texture_draws_match_the_reference_within_each_class() {
    let folder = fixtures().join("texture/draws");
    let manifest: TextureManifest =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("texture/cases.json")).unwrap()).unwrap();
    let views: BTreeMap<&str, TextureView> = manifest
        .textures
        .iter()
        .map(|(name, entry)| (name.as_str(), texture_view(entry)))
        .collect();
    let size = manifest.size;
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    let mut tally = BTreeMap::<TextureClass, (usize, usize, usize)>::new();
    for case in &manifest.cases {
        // the fixture's renderer also reads `"depth": true` on a texture (it creates it typeless with the depth bind
        // flag, so that OpenGL compares it); the view and its texels are the same, so the key is dropped here
        let text = std::fs::read_to_string(folder.join(format!("{}.json", case.name))).unwrap();
        let mut json: Value = serde_json::from_str(&text).unwrap();
        for texture in json["ps_textures"].as_array_mut().unwrap() {
            texture.as_object_mut().unwrap().remove("depth");
        }
        let out = run(&read(&json.to_string(), &folder), &mut cache).pop().unwrap();
        let ours = f32s(&out.render_targets[0].as_ref().unwrap().bytes);
        let mut theirs = f32s(&std::fs::read(fixtures().join("texture").join(&case.output)).unwrap());
        if case.name == "border_float16" {
            // llvmpipe returns the border colour unclamped (1e6); 7.18.9.1 clamps it into float16's range
            for v in &mut theirs {
                *v = v.clamp(-65504.0, 65504.0);
            }
        }
        let view = &views[case.texture.as_str()];
        let class = texture_class(case);
        let entry = tally.entry(class).or_default();
        entry.0 += 1;
        for y in 0..size {
            for x in 0..size {
                let i = (y * size + x) as usize * 4;
                let mine: [f32; 4] = ours[i..i + 4].try_into().unwrap();
                let reference: [f32; 4] = theirs[i..i + 4].try_into().unwrap();
                // the draw samples what the texture module samples: its uv, derivatives and LOD are the module's
                let (lod, module) = module_sample(case, view, x, y);
                if mine.map(f32::to_bits) != module.map(f32::to_bits) {
                    failures.push(format!("{} ({x}, {y}): drawn {mine:?}, sampled {module:?}", case.name));
                }
                if mine == reference {
                    entry.1 += 1;
                }
                let within = match class {
                    TextureClass::Texels => (0..4).all(|c| texels_agree(view.format(), mine[c], reference[c])),
                    TextureClass::Filtered => {
                        let [u, v] = uv(case, x, y);
                        let offset = if case.kind == "level_offset" {
                            [-3, 2, 0]
                        } else {
                            [0; 3]
                        };
                        let bound = weight_bound(case, view, [u, v, 0., 0.], lod, offset);
                        (0..4).all(|c| (mine[c] - reference[c]).abs() <= bound[c])
                    }
                    // llvmpipe's LOD differs from the spec's log2 here: tests/texture_reference.rs fits it, and this
                    // test holds the draw to the module's sample above
                    TextureClass::ComputedLod => continue,
                };
                if within {
                    entry.2 += 1;
                } else {
                    failures.push(format!(
                        "{} ({x}, {y}) {class:?}: ours {mine:?}, reference {reference:?}",
                        case.name
                    ));
                }
            }
        }
    }
    for (class, (cases, exact, within)) in &tally {
        let pixels = cases * (size * size) as usize;
        match class {
            TextureClass::ComputedLod => println!(
                "texture {class:?}: {cases} draws, {exact} of {pixels} pixels exact; compared with the reference \
                 through tests/texture_reference.rs's LOD fit, every pixel the texture module's own sample"
            ),
            _ => println!(
                "texture {class:?}: {cases} draws, {exact} of {pixels} pixels exact, {within} within the class's \
                 tolerance"
            ),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(manifest.cases.len(), 103);
}

// ---------------------------------------------------------------------------------------------------------------
// fixtures/draw/demo

use iridia::draw::{HistoryOptions, PreparedDraw};

/// The pixels' values of a demo target (R32G32B32A32_FLOAT, 64 x 64) or depth buffer (D32_FLOAT).
fn demo_reference(scene: &str, file: &str) -> Vec<f32> {
    f32s(&std::fs::read(fixtures().join("draw/demo/out").join(format!("{scene}.{file}.bin"))).unwrap())
}

/// Which triangle (its index in the draw) is visible at each pixel of a one-draw scene, from our pixel histories:
/// the last fragment written there.
fn visible_triangles(description: &Description) -> Vec<Option<u64>> {
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::new(&description.draws[0], &mut cache, DrawOptions::default()).unwrap();
    let [w, h] = prepared.size();
    let mut visible = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let history = prepared.pixel_history(x, y, HistoryOptions::default()).unwrap();
            visible.push(
                history
                    .fragments
                    .iter()
                    .rev()
                    .find(|f| f.outcome == iridia::draw::FragmentOutcome::Written)
                    .map(|f| f.primitive_index),
            );
        }
    }
    visible
}

#[test]
fn demo_scenes_match_the_reference() {
    let folder = fixtures().join("draw/demo");
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    let (mut values, mut coarse_checked, mut coarse_not_comparable) = (0usize, 0usize, 0usize);
    for scene in [
        "scene_color",
        "scene_discard",
        "scene_clip",
        "topleft",
        "scene_texture",
        "scene_perspective",
        "scene_deriv",
        "scene_deriv_sm5",
    ] {
        // the description is fixtures/draw-description's (the demo's, without its pixel programs); the copy beside
        // the renders is the same text, and its folder holds the programs
        let text = std::fs::read_to_string(fixtures().join(format!("draw-description/demo/{scene}.json"))).unwrap();
        assert_eq!(
            text,
            std::fs::read_to_string(folder.join(format!("{scene}.json"))).unwrap(),
            "{scene}"
        );
        let description = read(&text, &folder);
        let out = run(&description, &mut cache).pop().unwrap();
        let ours = f32s(&out.render_targets[0].as_ref().unwrap().bytes);
        let theirs = demo_reference(scene, "rt0");
        let our_depth = f32s(&out.depth_stencil.as_ref().unwrap().bytes);
        let their_depth = demo_reference(scene, "depth");
        // which pixels were drawn: exactly the same (every demo vertex is on the 1/256 grid but the perspective
        // floor's, whose edges pass no centre closely)
        let drawn = |v: &[f32], i: usize| v[i * 4..i * 4 + 4] != [0.; 4];
        for i in 0..64 * 64 {
            if drawn(&ours, i) != drawn(&theirs, i) {
                failures.push(format!(
                    "{scene} pixel ({}, {}): drawn {} against {}",
                    i % 64,
                    i / 64,
                    drawn(&ours, i),
                    drawn(&theirs, i)
                ));
            }
        }
        // the values: 1e-6 of their scale on grid vertices; the perspective floor's vertices are off the grid, where
        // the reference interpolates from unsnapped positions (d3d11-ref README: up to 1e-3 apart); derivatives of
        // v = 64 r^2 have the scale of v, 64
        let tolerance = |scene: &str, value: f32| match scene {
            "scene_perspective" => 1e-3,
            "scene_deriv" | "scene_deriv_sm5" => 64. * 1e-6,
            _ => 1e-6 * value.abs().max(1.),
        };
        let visible = scene
            .starts_with("scene_deriv")
            .then(|| visible_triangles(&description));
        for i in 0..64 * 64 {
            let (x, y) = (i % 64, i / 64);
            for c in 0..4 {
                let (a, b) = (ours[i * 4 + c], theirs[i * 4 + c]);
                values += 1;
                // SM5 `ddx`/`ddy` (scene_deriv) and `ddx_coarse`/`ddy_coarse` (scene_deriv_sm5, channels 0 and 1) of
                // the non-linear v are coarse here (22.5.2); llvmpipe's every derivative is fine (d3d11-ref README).
                // A coarse derivative is the fine one of the quad's top-left pixel, so ours is compared with the
                // reference's value there, when the same triangle is visible at both pixels (our pixel history
                // says); v's linear companions (scene_deriv channels 2 and 3: ddx, ddy of g) need nothing.
                let coarse_of_v = scene.starts_with("scene_deriv") && c < 2;
                let b = if coarse_of_v {
                    let top_left = (y & !1) * 64 + (x & !1);
                    let visible = visible.as_ref().unwrap();
                    if visible[i].is_none() {
                        b
                    } else if visible[top_left] == visible[i] {
                        coarse_checked += 1;
                        theirs[top_left * 4 + c]
                    } else {
                        coarse_not_comparable += 1;
                        continue;
                    }
                } else {
                    b
                };
                if (a - b).abs() > tolerance(scene, b) {
                    failures.push(format!("{scene} ({x}, {y}) channel {c}: ours {a}, reference {b}"));
                }
            }
            let (a, b) = (our_depth[i], their_depth[i]);
            let depth_tolerance = if scene == "scene_perspective" { 1e-3 } else { 1e-6 };
            if (a - b).abs() > depth_tolerance {
                failures.push(format!("{scene} ({x}, {y}) depth: ours {a}, reference {b}"));
            }
        }
    }
    println!(
        "demo: 8 scenes, {values} values compared; coarse derivatives checked against the reference's top-left fine \
         derivative at {coarse_checked} values, {coarse_not_comparable} not comparable (another triangle visible at \
         the quad's top-left)"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------------------------
// fixtures/draw/cases

/// Runs `description`'s draws in order as `run_sequence` does, and checks every pixel's history of every draw
/// against what that draw left there. Returns the last draw's output.
fn run_with_histories(description: &Description, cache: &mut ShaderCache, name: &str) -> DrawOutput {
    let originals: Vec<Arc<Resource>> = description
        .render_targets
        .iter()
        .chain(description.depth_stencil.as_ref())
        .cloned()
        .collect();
    let mut current = originals.clone();
    let mut last = None;
    for draw in &description.draws {
        let updated = UpdatedTargets {
            render_targets: originals
                .iter()
                .zip(&current)
                .map(|(o, c)| Some((o.clone(), c.clone())))
                .collect(),
            depth_stencil: None,
        };
        let state = with_targets(draw, &updated);
        let mut prepared = PreparedDraw::new(&state, cache, DrawOptions::default()).unwrap();
        let out = prepared.run(None).unwrap();
        for y in 0..out.height {
            for x in 0..out.width {
                let history = prepared.pixel_history(x, y, HistoryOptions::default()).unwrap();
                let i = (y * out.width + x) as usize;
                let texel = &history.after.render_targets[0].unwrap();
                let image = out.render_targets[0].as_ref().unwrap();
                let size = image.bytes_per_texel();
                assert_eq!(
                    &texel.bytes[..size],
                    &image.bytes[i * size..(i + 1) * size],
                    "{name} {} ({x}, {y}): history and draw",
                    state.label
                );
                if let (Some(depth), Some(image)) = (history.after.depth, out.depth_stencil.as_ref()) {
                    let stored = match image.format {
                        Format::D32Float => f32::from_le_bytes(image.bytes[i * 4..i * 4 + 4].try_into().unwrap()),
                        // D24_UNORM_S8_UINT: depth in bits 0..24
                        _ => {
                            (u32::from_le_bytes(image.bytes[i * 4..i * 4 + 4].try_into().unwrap()) & 0xff_ffff) as f32
                                / 16_777_215.
                        }
                    };
                    assert_eq!(depth, stored, "{name} {} ({x}, {y}): history's depth", state.label);
                    if let Some(stencil) = history.after.stencil {
                        assert_eq!(
                            stencil,
                            image.bytes[i * 4 + 3],
                            "{name} {} ({x}, {y}): history's stencil",
                            state.label
                        );
                    }
                }
            }
        }
        let after = out.updated_targets(&state).unwrap();
        for slot in current.iter_mut() {
            if let Some(next) = after.replacement(slot) {
                *slot = next;
            }
        }
        last = Some(out);
    }
    last.unwrap()
}

#[test]
fn draw_cases_match_the_reference_and_every_pixels_history_matches_the_draw() {
    let folder = fixtures().join("draw/cases");
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    let mut clamped_by_the_reference_to_0_1 = 0;
    for name in [
        "early_depth",
        "odepth",
        "conservative_depth",
        "stencil_faces",
        "clip_cull",
        "strip_faces",
        "blend",
    ] {
        let description = read(
            &std::fs::read_to_string(folder.join(format!("{name}.json"))).unwrap(),
            &folder,
        );
        let out = run_with_histories(&description, &mut cache, name);
        let ours = &out.render_targets[0].as_ref().unwrap().bytes;
        let theirs = std::fs::read(folder.join(format!("out/{name}.rt0.bin"))).unwrap();
        if *ours != theirs {
            failures.push(format!("{name}: render target differs"));
        }
        let Some(depth) = &out.depth_stencil else { continue };
        let theirs = std::fs::read(folder.join(format!("out/{name}.depth.bin"))).unwrap();
        for (i, (a, b)) in depth.bytes.chunks(4).zip(theirs.chunks(4)).enumerate() {
            if a == b {
                continue;
            }
            // odepth's third draw writes SV_Depth 1.5 with MaxDepth 0.8: 15.6 and 17.10 clamp it to the viewport's
            // range (0.8); the reference (GL) clamps fragment depth to [0, 1] only (1.0)
            let (ours, theirs) = (
                f32::from_le_bytes(a.try_into().unwrap()),
                f32::from_le_bytes(b.try_into().unwrap()),
            );
            if name == "odepth" && i / 16 >= 8 && ours == 0.8 && theirs == 1.0 {
                clamped_by_the_reference_to_0_1 += 1;
            } else {
                failures.push(format!(
                    "{name} pixel ({}, {}) depth: ours {a:02x?}, reference {b:02x?}",
                    i % 16,
                    i / 16
                ));
            }
        }
    }
    println!(
        "draw cases: 7 descriptions, render targets and depth-stencil buffers byte for byte, but \
         {clamped_by_the_reference_to_0_1} depths the reference clamps to [0, 1] instead of the viewport's range"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(clamped_by_the_reference_to_0_1, 128);
}
