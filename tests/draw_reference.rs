//! Whole draws against a real D3D11: every committed reference render (Wine's d3d11 on Mesa llvmpipe, the tool of
//! `/work/shared/tools/d3d11-ref`) drawn again end to end by `iridia::draw` — a draw description read by
//! `iridia::draw::description`, run by `iridia::draw::run_sequence` — and its targets compared with the reference's
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

use iridia::draw::description::{self, Description};
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
    let viewport = iridia::raster::Viewport {
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
