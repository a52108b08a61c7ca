//! The rasterizer against a real D3D11: the triangles of `fixtures/raster/` (made by `generate.py`, rendered by Wine's
//! d3d11 on Mesa llvmpipe, see `fixtures/raster/README.md`), drawn again by `iridia::raster`. Coverage must match the
//! reference exactly; on triangles whose vertices are on the 1/256 grid (where the reference's interpolation from
//! unsnapped positions is the same as D3D's from snapped ones), interpolated attributes, `SV_Position` and depth must
//! match to 1e-6 of their scale. The weights come from the rasterizer; the attributes are blended here from them.

// a test's helpers read the committed fixtures: a malformed one is the test's failure, and panics say where
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]

use iridia::api::viewport::{Scissor, Viewport};
use iridia::raster::{Cull, DepthFormat, Lane, Rasterizer, RasterizerState, TriangleFate};
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/raster/");

fn cases(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{FIXTURES}{file}")).unwrap();
    let mut all: Value = serde_json::from_str(&text).unwrap();
    match all["cases"].take() {
        Value::Array(cases) => cases,
        other => panic!("{file}: cases is {other:?}"),
    }
}

/// A float32 the generator wrote as its shortest decimal, or as "nan", "inf", "-inf".
fn float(v: &Value) -> f32 {
    match v {
        Value::Number(n) => n.as_f64().unwrap() as f32,
        Value::String(s) if s == "nan" => f32::NAN,
        Value::String(s) if s == "inf" => f32::INFINITY,
        Value::String(s) if s == "-inf" => f32::NEG_INFINITY,
        other => panic!("not a float: {other:?}"),
    }
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(float).collect()
}

fn rasterizer(case: &Value) -> Rasterizer {
    let vp = floats(&case["viewport"]);
    let viewport = Viewport {
        x: vp[0],
        y: vp[1],
        width: vp[2],
        height: vp[3],
        min_depth: vp[4],
        max_depth: vp[5],
    };
    let rs = &case["rasterizer"];
    let state = RasterizerState {
        cull: match rs["cull"].as_str().unwrap() {
            "NONE" => Cull::None,
            "FRONT" => Cull::Front,
            "BACK" => Cull::Back,
            other => panic!("cull {other}"),
        },
        front_counter_clockwise: rs["front_ccw"].as_bool().unwrap(),
        depth_clip: rs["depth_clip"].as_bool().unwrap(),
        depth_bias: rs["depth_bias"].as_i64().unwrap() as i32,
        depth_bias_clamp: float(&rs["depth_bias_clamp"]),
        slope_scaled_depth_bias: float(&rs["slope_scaled_depth_bias"]),
        scissor_enable: !case["scissor"].is_null(),
    };
    let scissor = match case["scissor"].as_array() {
        Some(s) => {
            let s: Vec<i32> = s.iter().map(|v| v.as_i64().unwrap() as i32).collect();
            Scissor {
                left: s[0],
                top: s[1],
                right: s[2],
                bottom: s[3],
            }
        }
        None => Scissor::default(),
    };
    let depth_format = match case["depth_format"].as_str() {
        Some("D16_UNORM") => DepthFormat::Unorm { bits: 16 },
        Some("D24_UNORM_S8_UINT") => DepthFormat::Unorm { bits: 24 },
        _ => DepthFormat::Float,
    };
    let size = [
        case["width"].as_u64().unwrap() as u32,
        case["height"].as_u64().unwrap() as u32,
    ];
    Rasterizer::new(viewport, state, scissor, size, depth_format).unwrap()
}

/// The case's triangles: the clip-space positions of each index triple.
fn triangles(case: &Value) -> Vec<[usize; 3]> {
    let indices: Vec<usize> = case["indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    indices.chunks(3).map(|t| [t[0], t[1], t[2]]).collect()
}

fn positions(case: &Value) -> Vec<[f32; 4]> {
    case["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| floats(p).try_into().unwrap())
        .collect()
}

/// How many times each pixel is covered by the case's triangles, walking quads; and, for every pixel, that the
/// single-pixel query finds the same lanes the walk did.
fn coverage(case: &Value) -> (Vec<u32>, Vec<Option<(usize, Lane)>>) {
    let raster = rasterizer(case);
    let w = case["width"].as_u64().unwrap() as usize;
    let h = case["height"].as_u64().unwrap() as usize;
    let pos = positions(case);
    let mut counts = vec![0u32; w * h];
    let mut last: Vec<Option<(usize, Lane)>> = vec![None; w * h];
    for (t, [a, b, c]) in triangles(case).into_iter().enumerate() {
        let triangle = raster.triangle([pos[a], pos[b], pos[c]]);
        let mut walked: Vec<Vec<Lane>> = vec![Vec::new(); w * h];
        for quad in triangle.quads() {
            for lane in 0..4 {
                if quad.is_covered(lane) {
                    let (x, y) = quad.pixel(lane);
                    let i = y as usize * w + x as usize;
                    counts[i] += 1;
                    walked[i].push(quad.lanes[lane]);
                    last[i] = Some((t, quad.lanes[lane]));
                }
            }
        }
        for y in 0..h {
            for x in 0..w {
                let asked: Vec<Lane> = triangle.pixel(x as u32, y as u32).map(|hit| *hit.values()).collect();
                assert_eq!(
                    asked,
                    walked[y * w + x],
                    "{}: pixel ({x}, {y}) asked and walked",
                    case["name"]
                );
            }
        }
        if triangle.fate() != TriangleFate::Rasterized {
            assert!(walked.iter().all(Vec::is_empty));
        }
    }
    (counts, last)
}

fn reference_counts(case: &Value) -> Vec<u32> {
    case["counts"]
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
        .collect()
}

#[test]
fn coverage_matches_the_reference_exactly() {
    let cases = cases("coverage.json");
    let mut report = std::collections::BTreeMap::<String, (usize, usize, usize)>::new();
    let mut failures = Vec::new();
    for case in &cases {
        let (mine, _) = coverage(case);
        let theirs = reference_counts(case);
        let w = case["width"].as_u64().unwrap() as usize;
        let wrong: Vec<(usize, usize, u32, u32)> = mine
            .iter()
            .zip(&theirs)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| (i % w, i / w, *a, *b))
            .collect();
        let category = case["category"].as_str().unwrap().to_owned();
        let entry = report.entry(category).or_default();
        entry.0 += 1;
        entry.1 += theirs.iter().filter(|&&n| n > 0).count();
        if !wrong.is_empty() {
            entry.2 += 1;
            failures.push(format!("{}: (x, y, ours, reference) {:?}", case["name"], wrong));
        }
    }
    for (category, (n, pixels, bad)) in &report {
        println!("{category}: {n} cases, {pixels} covered pixels, {bad} cases differ");
    }
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// 17.11's conversion of a depth to an n-bit UNORM: times 2^n - 1, to the nearest.
fn unorm(depth: f32, bits: u32) -> u64 {
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(depth) * max + 0.5).floor() as u64
}

/// The spec's value at a pixel centre, worked out here on its own (in f64, from 3.4.1's snapped positions, 16.4's
/// perspective correction and 15.6's viewport): for a triangle whose vertices, and the vertices clipping makes, are on
/// the 1/256 grid, the clipped polygon's fan lies in the drawn triangle's plane, so the drawn triangle's own
/// barycentrics give every attribute. Returns the perspective weights, the screen weights, w and the screen z.
fn exact(case: &Value, px: usize, py: usize) -> ([f64; 3], [f64; 3], f64, f64) {
    let raster = rasterizer(case);
    let pos = positions(case);
    let [a, b, c] = triangles(case)[0];
    let screen: Vec<[f32; 3]> = [a, b, c].iter().map(|&i| raster.viewport().to_screen(pos[i])).collect();
    let fixed: Vec<[i64; 2]> = screen
        .iter()
        .map(|s| {
            let f = [(f64::from(s[0]) * 256.) as i64, (f64::from(s[1]) * 256.) as i64];
            assert_eq!(
                [f[0] as f64 / 256., f[1] as f64 / 256.],
                [f64::from(s[0]), f64::from(s[1])],
                "{}: off the grid",
                case["name"]
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
    let w = [a, b, c].map(|i| f64::from(pos[i][3]));
    let over_w = [linear[0] / w[0], linear[1] / w[1], linear[2] / w[2]];
    let sum = over_w[0] + over_w[1] + over_w[2];
    let z: f64 = (0..3).map(|k| linear[k] * f64::from(screen[k][2])).sum();
    (over_w.map(|q| q / sum), linear, 1. / sum, z)
}

/// How ours and the reference's values at the pixels of the attribute cases compare.
#[derive(Default)]
struct Tally {
    /// Values compared with the reference.
    compared: usize,
    /// Of those, how many are within 1e-6 of their scale of the reference's.
    within: usize,
    /// The largest difference from the reference (relative to the scale) where the exact value is nearer ours.
    reference_off: f64,
    /// The largest difference of ours from the exact value (relative to the scale).
    ours_off: f64,
    failures: Vec<String>,
}

impl Tally {
    /// `ours` and `theirs` must agree to 1e-6 of `scale` (the magnitude of the values the result is made of), or
    /// else the `exact` value must be within 1e-6 of ours and nearer ours than theirs, theirs off by at most 1e-4
    /// (llvmpipe interpolates in float32: on the fixtures it is off by up to about 3e-5 of the scale where the exact
    /// value, worked out in rationals, matches ours).
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
fn attributes_and_depth_match_the_reference_on_grid_vertices() {
    let cases = cases("attributes.json");
    let mut tally = Tally::default();
    let mut pixels_compared = 0usize;
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let (counts, lanes) = coverage(case);
        let w = case["width"].as_u64().unwrap() as usize;
        let attributes: Vec<Vec<f32>> = case["attributes"].as_array().unwrap().iter().map(floats).collect();
        let pixels = case["pixels"].as_array().unwrap();
        let reference_covered: Vec<usize> = pixels
            .iter()
            .map(|p| p[1].as_u64().unwrap() as usize * w + p[0].as_u64().unwrap() as usize)
            .collect();
        let mine_covered: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] > 0).collect();
        assert_eq!(mine_covered, reference_covered, "{name}: covered pixels");
        let raster = rasterizer(case);
        let viewport = *raster.viewport();
        let biased = raster.state().depth_bias != 0 || raster.state().slope_scaled_depth_bias != 0.;
        let format = case["depth_format"].as_str().unwrap();
        let pos = positions(case);
        let z_scale = pos.iter().fold(0f64, |m, p| m.max(f64::from((p[2] / p[3]).abs())));
        for p in pixels {
            let p = p.as_array().unwrap();
            let (x, y) = (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize);
            let (_, lane) = lanes[y * w + x].unwrap();
            let reference: Vec<f32> = p[2..14].iter().map(float).collect();
            let (perspective, linear, exact_w, exact_z) = exact(case, x, y);
            let at = |what: &str| format!("{name} ({x}, {y}) {what}");
            for k in 0..4 {
                let values = [attributes[0][k], attributes[1][k], attributes[2][k]];
                let scale = values.iter().fold(0f64, |m, v| m.max(f64::from(v.abs())));
                let blend = |weights: [f64; 3]| (0..3).map(|i| weights[i] * f64::from(values[i])).sum::<f64>();
                let ours = Lane::blend(lane.perspective, values);
                tally.check(
                    at(&format!("perspective[{k}]")),
                    ours,
                    reference[k],
                    Some(blend(perspective)),
                    scale,
                );
                let ours = Lane::blend(lane.linear, values);
                tally.check(
                    at(&format!("linear[{k}]")),
                    ours,
                    reference[4 + k],
                    Some(blend(linear)),
                    scale,
                );
            }
            assert_eq!(lane.position[0], reference[8], "{}", at("SV_Position.x"));
            assert_eq!(lane.position[1], reference[9], "{}", at("SV_Position.y"));
            // the reference's SV_Position.w is GL's gl_FragCoord.w, 1/w; D3D's is w (16.3)
            tally.check(
                at("SV_Position.w"),
                lane.position[3],
                1. / reference[11],
                Some(exact_w),
                0.,
            );
            if viewport.min_depth == viewport.max_depth {
                // wined3d widens an empty depth range (by 1e-3: the reference's depths run from 0.5 to 0.501 on
                // [0.5, 0.5]); the spec's is the range's one depth (15.6)
                assert_eq!(lane.position[2], viewport.min_depth, "{}", at("SV_Position.z"));
                assert_eq!(lane.depth, viewport.min_depth, "{}", at("depth"));
                pixels_compared += 1;
                continue;
            }
            let exact_z = (!biased).then_some(exact_z);
            tally.check(at("SV_Position.z"), lane.position[2], reference[10], exact_z, z_scale);
            let clamp = |z: f64| z.clamp(f64::from(viewport.min_depth), f64::from(viewport.max_depth));
            match format {
                "D32_FLOAT" => tally.check(at("depth"), lane.depth, float(&p[14]), exact_z.map(clamp), z_scale),
                "D24_UNORM_S8_UINT" | "D16_UNORM" => {
                    let bits = if format == "D16_UNORM" { 16 } else { 24 };
                    let theirs = p[14].as_u64().unwrap();
                    // the reference's integer must be the rounding (17.11) of a depth within 1e-6 of ours
                    let steps = ((1u64 << bits) - 1) as f64;
                    let distance = (f64::from(lane.depth) * steps - theirs as f64).abs();
                    tally.compared += 1;
                    if distance <= 0.5 + 1e-6 * steps {
                        tally.within += 1;
                    } else {
                        let ours = unorm(lane.depth, bits);
                        tally
                            .failures
                            .push(format!("{}: ours {ours}, reference {theirs}", at("depth")));
                    }
                }
                other => panic!("{other}"),
            }
            pixels_compared += 1;
        }
    }
    println!(
        "{} cases, {pixels_compared} pixels, {} values: {} within 1e-6 of the reference; where not, the exact value \
         is nearer ours, the reference off by up to {:e} of the scale; ours off the exact value by up to {:e}",
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
