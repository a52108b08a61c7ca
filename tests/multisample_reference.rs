//! Multisampled draws against a real D3D11: the cases of `fixtures/multisample/` (Wine's d3d11 on Mesa llvmpipe,
//! rendered into 4x targets with every sample dumped by the fixture's `refrender_ms`) drawn again by `iridia::draw`
//! and compared sample by sample, each group held to what `fixtures/multisample/README.md` documents:
//!
//! - coverage counts, stencil, the blend state's sample mask, oMask, alpha-to-coverage, blending, points: exact per
//!   sample, but for the one sample named per case that llvmpipe's clipper moved (a triangle reaching outside the
//!   target, the sample within 1/90 px of an edge); alpha-to-coverage with oMask written against the spec (17.18:
//!   disabled; the reference applies it);
//! - depth within 1e-5; pixel-frequency attributes within 1e-4; where a triangle reaches past the clip volume, depth
//!   within 5e-4 and attributes within 2e-2 (the attributes are of order 1 to 4): the spec clips to the viewport and
//!   snaps the vertices the clipper makes (15.4, `src/raster`), llvmpipe's guard band does not clip, so the two
//!   interpolate over planes up to 1/512 pixel apart at those vertices, which on the cases' steep slivers moves a
//!   value by that much (every case that differs beyond the strict bounds reaches past the clip volume; none of the
//!   others do);
//! - `centroid` and `sample` inputs: the reference evaluates both at the pixel centre (a deviation from 3.5.5 and
//!   16.4), so only which samples were written is compared;
//! - lines on 4x targets: the reference draws 1.0-wide rectangles whatever MultisampleEnable says, so they are held
//!   to the spec (`lines_on_4x_targets_follow_the_spec`): with MultisampleEnable false every sample of each pixel the
//!   aliased line lights (15.14.1), with it true the samples inside the 1.4-wide quadrilateral (3.4.5), which must
//!   also hold every sample the reference's 1.0-wide rectangle covers.
//!
//! The fixture check (files, sizes, the measured sample pattern) runs too.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::float_cmp
)]

use iridia::description::{self, Description};
use iridia::draw::{DrawOptions, DrawOutput, ShaderCache, run_sequence};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/multisample")
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

fn cases() -> Vec<Value> {
    json(&folder().join("cases.json"))["cases"].as_array().unwrap().clone()
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

fn bytes_per_texel(format: &str) -> usize {
    match format {
        "R32G32B32A32_FLOAT" => 16,
        "R32_FLOAT" | "R8G8B8A8_UNORM" | "D32_FLOAT" | "D24_UNORM_S8_UINT" => 4,
        other => panic!("format {other} not used by the fixtures"),
    }
}

/// The samples (sample, x, y) of a case that llvmpipe's clipping moved (README: "Coverage").
fn clipped_samples(name: &str) -> usize {
    match name {
        "coverage_14" | "coverage_20" | "depth_07" | "depth24_01" | "blend_03" => 1,
        _ => 0,
    }
}

#[test]
fn multisample_fixtures_are_complete_and_measure_the_standard_pattern() {
    let measured = json(&folder().join("measured.json"));
    let positions: Vec<Vec<f64>> = serde_json::from_value(measured["sample_positions_4x"].clone()).unwrap();
    // 19.2.4: the standard 4x pattern, in 1/16 pixel from the centre: (-2,-6), (6,-2), (-6,2), (2,6).
    let standard = [(-2.0, -6.0), (6.0, -2.0), (-6.0, 2.0), (2.0, 6.0)];
    for (p, (sx, sy)) in positions.iter().zip(standard) {
        assert_eq!((p[0], p[1]), (0.5 + sx / 16.0, 0.5 + sy / 16.0));
    }
    let a2c = measured["alpha_to_coverage_masks"].as_object().unwrap();
    for (alpha, masks) in a2c {
        let alpha: f64 = alpha.parse().unwrap();
        let expected = (1u32 << ((alpha * 4.0).ceil().clamp(0.0, 4.0) as u32)) - 1;
        assert_eq!(masks.as_array().unwrap(), &vec![Value::from(expected)], "alpha {alpha}");
    }
    for case in cases() {
        let (w, h, n) = (
            case["width"].as_u64().unwrap(),
            case["height"].as_u64().unwrap(),
            case["sample_count"].as_u64().unwrap(),
        );
        assert_eq!(n, 4);
        let mut files: Vec<(String, String)> = case["render_targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|rt| {
                (
                    rt["file"].as_str().unwrap().to_owned(),
                    rt["format"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        if let Some(depth) = case["depth"].as_object() {
            files.push((
                depth["file"].as_str().unwrap().to_owned(),
                depth["format"].as_str().unwrap().to_owned(),
            ));
        }
        for (file, format) in files {
            let len = std::fs::metadata(folder().join(&file)).unwrap().len();
            assert_eq!(len, w * h * n * bytes_per_texel(&format) as u64, "{file}");
        }
        assert!(folder().join(case["draw"].as_str().unwrap()).exists());
    }
}

fn draw(case: &Value, cache: &mut ShaderCache) -> DrawOutput {
    let path = folder().join(case["draw"].as_str().unwrap());
    let dir = path.parent().unwrap().to_path_buf();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut load = |p: &str| Ok(std::fs::read(dir.join(p)).unwrap_or_else(|e| panic!("{p}: {e}")));
    let description: Description = description::read(&text, &mut load).unwrap_or_else(|e| panic!("{e}"));
    let outputs =
        run_sequence(&description.draws, cache, DrawOptions::default(), None).unwrap_or_else(|e| panic!("{e}"));
    outputs.into_iter().last().unwrap()
}

/// Counts of samples that differ between `ours` and `theirs` (texels of `comps` float32s) under `same`.
fn differing(ours: &[f32], theirs: &[f32], comps: usize, same: impl Fn(&[f32], &[f32]) -> bool) -> usize {
    assert_eq!(ours.len(), theirs.len(), "sample planes");
    ours.chunks(comps)
        .zip(theirs.chunks(comps))
        .filter(|(a, b)| !same(a, b))
        .count()
}

#[test]

fn multisample_draws_match_the_reference_per_sample() {
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        let kind = name.rsplit_once('_').map_or(name, |(k, _)| k);
        if kind == "lines" {
            continue; // the reference's 4x lines are not the spec's (README)
        }
        let output = draw(&case, &mut cache);
        let clipped = reaches_past_the_clip_volume(&case);
        let (depth_tolerance, attribute_tolerance) = if clipped { (5e-4, 2e-2) } else { (1e-5, 1e-4) };
        for (slot, rt) in case["render_targets"].as_array().unwrap().iter().enumerate() {
            let theirs_bytes = std::fs::read(folder().join(rt["file"].as_str().unwrap())).unwrap();
            let ours = output.render_targets[slot]
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: no target {slot}"));
            let format = rt["format"].as_str().unwrap();
            let bad = if format == "R8G8B8A8_UNORM" {
                ours.bytes
                    .iter()
                    .zip(&theirs_bytes)
                    .filter(|(a, b)| a.abs_diff(**b) > 1)
                    .count()
            } else {
                let comps = bytes_per_texel(format) / 4;
                let (a, b) = (f32s(&ours.bytes), f32s(&theirs_bytes));
                match kind {
                    // 17.18: oMask disables alpha-to-coverage; the reference applies it anyway (README)
                    _ if name == "a2c_omask" => a.chunks(comps).filter(|x| *x == [0.0; 4]).count(),
                    // written or not: the reference's values are the pixel centre's (README)
                    "centroid" | "sample" => differing(&a, &b, comps, |x, y| (x == [0.0; 4]) == (y == [0.0; 4])),
                    "pixel" | "sampleindex" => differing(&a, &b, comps, |x, y| {
                        x.iter().zip(y).all(|(p, q)| (p - q).abs() <= attribute_tolerance)
                    }),
                    _ => differing(&a, &b, comps, |x, y| {
                        x.iter().zip(y).all(|(p, q)| (p - q).abs() <= 1e-6)
                    }),
                }
            };
            if bad > clipped_samples(name) {
                failures.push(format!("{name} rt{slot}: {bad} samples differ"));
            }
        }
        if let Some(depth) = case["depth"].as_object() {
            let theirs = std::fs::read(folder().join(depth["file"].as_str().unwrap())).unwrap();
            let ours = output
                .depth_stencil
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: no depth"));
            let bad = match depth["format"].as_str().unwrap() {
                "D32_FLOAT" => differing(&f32s(&ours.bytes), &f32s(&theirs), 1, |x, y| {
                    (x[0] - y[0]).abs() <= depth_tolerance
                }),
                _ => {
                    // D24_UNORM_S8_UINT in D3D's layout: stencil exact, depth within 2 steps of 24 bits (or the
                    // clipped cases' tolerance)
                    let steps = if clipped {
                        (depth_tolerance * (1u32 << 24) as f32) as u32
                    } else {
                        2
                    };
                    let (a, b) = (u32s(&ours.bytes), u32s(&theirs));
                    assert_eq!(a.len(), b.len());
                    a.iter()
                        .zip(&b)
                        .filter(|&(&x, &y)| x >> 24 != y >> 24 || (x & 0xff_ffff).abs_diff(y & 0xff_ffff) > steps)
                        .count()
                }
            };
            if bad > clipped_samples(name) {
                failures.push(format!("{name} depth: {bad} samples differ"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Whether a vertex of the case's draw lies outside the clip volume in x or y (`|x| > w` or `|y| > w`): the first four
/// floats of each vertex of its first vertex buffer are the clip-space position (the fixtures' `vs_pass`).
fn reaches_past_the_clip_volume(case: &Value) -> bool {
    let path = folder().join(case["draw"].as_str().unwrap());
    let description = json(&path);
    // the top-level buffers, and each draw's own (a draw's keys override the top's)
    let mut buffers = vec![&description["vertex_buffers"]];
    if let Some(draws) = description["draws"].as_array() {
        buffers.extend(draws.iter().map(|d| &d["vertex_buffers"]));
    }
    buffers.into_iter().filter_map(|b| b.get(0)).any(|buffer| {
        let stride = buffer["stride"].as_u64().unwrap() as usize / 4;
        let floats: Vec<f64> = buffer["f32"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        floats.chunks(stride).any(|v| v[0].abs() > v[3] || v[1].abs() > v[3])
    })
}

/// The 4x standard pattern's offsets from the pixel centre, in 1/16 pixel (19.2.4).
const PATTERN_4X: [[i64; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];

/// Whether the point `p` (1/256 pixels) is inside the snapped triangle `t` (1/256 pixels, either winding) under the
/// top-left rule (3.4.2.1).
fn in_triangle(mut t: [[i64; 2]; 3], p: [i64; 2]) -> bool {
    let area = (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]);
    if area == 0 {
        return false;
    }
    if area < 0 {
        t.swap(1, 2);
    }
    (0..3).all(|k| {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let e = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        e > 0 || (e == 0 && ((b[1] == a[1] && b[0] > a[0]) || b[1] < a[1]))
    })
}

/// The corners of the rectangle `width` wide around the segment `p0 -> p1` (pixels), snapped to 1/256 pixel, as its
/// two triangles.
fn rectangle(p0: [f64; 2], p1: [f64; 2], width: f64) -> [[[i64; 2]; 3]; 2] {
    let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
    let length = dx.hypot(dy);
    let (nx, ny) = (-dy / length * width / 2., dx / length * width / 2.);
    let snap = |v: f64| (v * 256.).round_ties_even() as i64;
    let c = |p: [f64; 2], s: f64| [snap(p[0] + s * nx), snap(p[1] + s * ny)];
    let q = [c(p0, 1.), c(p1, 1.), c(p1, -1.), c(p0, -1.)];
    [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]
}

// Lines on a 4x target against the spec: counts per sample (`ps_count`, additive) equal the spec's, exactly. The
// aliased lines' pixels come from `raster::line` (held to the line fixtures' spec model by tests/line_reference.rs);
// the quadrilaterals are worked out here. The reference's own 1.0-wide rectangles must lie inside the 1.4-wide
// quadrilaterals: every sample it lit, ours lit as often.
#[test]
fn lines_on_4x_targets_follow_the_spec() {
    use iridia::raster::PixelRect;
    use iridia::raster::line::AliasedLine;
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        if !name.starts_with("lines_") {
            continue;
        }
        let description = json(&folder().join(case["draw"].as_str().unwrap()));
        let (w, h) = (32usize, 32usize);
        assert_eq!((case["width"].as_u64(), case["height"].as_u64()), (Some(32), Some(32)));
        let multisample = description["rasterizer"]["multisample"] == true;
        let floats: Vec<f64> = description["vertex_buffers"][0]["f32"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        // clip space onto the whole 32 x 32 target, w = 1
        let screen: Vec<[f64; 2]> = floats
            .chunks(8)
            .map(|v| [(v[0] + 1.) * 16., (1. - v[1]) * 16.])
            .collect();
        let mut spec = vec![0u32; 4 * w * h];
        let mut wide = vec![0u32; 4 * w * h];
        for pair in screen.chunks(2) {
            let (p0, p1) = (pair[0], pair[1]);
            for y in 0..h {
                for x in 0..w {
                    for (s, [ox, oy]) in PATTERN_4X.iter().enumerate() {
                        let p = [x as i64 * 256 + 128 + ox * 16, y as i64 * 256 + 128 + oy * 16];
                        let plane = s * w * h + y * w + x;
                        if rectangle(p0, p1, 1.0).iter().any(|t| in_triangle(*t, p)) {
                            wide[plane] += 1;
                        }
                        if multisample && rectangle(p0, p1, 1.4).iter().any(|t| in_triangle(*t, p)) {
                            spec[plane] += 1;
                        }
                    }
                }
            }
            if !multisample {
                let fixed = |p: [f64; 2]| p.map(|c| (c * 256.).round_ties_even() as i64);
                if let Some(line) = AliasedLine::new(fixed(p0), fixed(p1)) {
                    let all = PixelRect {
                        left: 0,
                        top: 0,
                        right: 32,
                        bottom: 32,
                    };
                    for [x, y] in line.pixels(all) {
                        for s in 0..4 {
                            spec[s * w * h + y as usize * w + x as usize] += 1;
                        }
                    }
                }
            }
        }
        let output = draw(&case, &mut cache);
        let ours: Vec<u32> = f32s(&output.render_targets[0].as_ref().unwrap().bytes)
            .iter()
            .map(|v| *v as u32)
            .collect();
        let theirs: Vec<u32> =
            f32s(&std::fs::read(folder().join(case["render_targets"][0]["file"].as_str().unwrap())).unwrap())
                .iter()
                .map(|v| *v as u32)
                .collect();
        assert_eq!(ours.len(), spec.len(), "{name}: 4 planes of 32 x 32");
        compared += ours.len();
        let differing = ours.iter().zip(&spec).filter(|(a, b)| a != b).count();
        if differing > 0 {
            failures.push(format!("{name}: {differing} samples differ from the spec model"));
        }
        // the reference's 1.0-wide rectangles (the README's measure, printed) lie within our 1.4-wide ones
        let model_off = theirs.iter().zip(&wide).filter(|(a, b)| a != b).count();
        let outside = theirs.iter().zip(&ours).filter(|(t, o)| t > o).count();
        if multisample && outside > 0 {
            failures.push(format!(
                "{name}: {outside} samples the reference lit more often than ours"
            ));
        }
        eprintln!(
            "{name}: {differing} samples off the spec, reference {model_off} off a 1.0-wide rectangle, {outside} lit more than ours"
        );
    }
    assert_eq!(compared, 6 * 4 * 32 * 32, "six cases, four planes of 32 x 32");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
