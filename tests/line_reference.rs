//! Lines, points and wireframe triangles against a real D3D11: the cases of `fixtures/lines/` (Wine's d3d11 on Mesa
//! llvmpipe, single-sampled, 32 x 32) drawn again by `iridia::draw` and compared as `fixtures/lines/README.md` says:
//!
//! - aliased lines, strips, lists, adjacency topologies, points, wireframe: the count per pixel equals the spec
//!   model's (`model`, the diamond-exit rule of 3.4.3, written by the fixture's generator), and equals the reference's
//!   except on the pixels the case lists in `extra` / `missing` (ties llvmpipe resolves its own way);
//! - quadrilateral lines (`MultisampleEnable`): the spec model only (the reference draws aliased lines), also with
//!   `AntialiasedLineEnable` (15.14.1: quadrilateral all the same; alpha stays the program's 1);
//! - alpha antialiased lines: the lit pixels cover the aliased ones, alpha in (0, 1], the alphas sum to the line's
//!   length (the box coverage of 3.4.4's rectangle; the reference's smooth kernel within 3%);
//! - attributes along aliased lines and points: within 4e-5 (the values are up to 4), depth within 1e-6,
//!   `SV_Position.xy` the pixel centre, on the pixels both lit (a pixel only the reference lit must be a tie of the
//!   rule: one, attr_000 (13, 22)); along quadrilateral lines: the spec's values (below), not the reference's.
//!
//! `fixtures/lines/README.md` ("How Iridia's tests hold it") says where the spec wins over the reference.

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
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const SIZE: usize = 32;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lines")
}

fn cases(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(folder().join(file)).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["cases"]
        .as_array()
        .unwrap()
        .clone()
}

fn float(v: &Value) -> f32 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v:?}")) as f32
}

/// A `counts` / `model` grid: one string a row, a base-36 digit a pixel.
fn grid(v: &Value) -> Vec<u32> {
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), SIZE);
    rows.iter()
        .flat_map(|r| {
            r.as_str()
                .unwrap()
                .chars()
                .map(|c| c.to_digit(36).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn pixels(v: &Value) -> BTreeSet<(usize, usize)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize))
        .collect()
}

#[test]
fn line_fixtures_are_consistent() {
    let coverage = cases("coverage.json");
    assert_eq!(coverage.len(), 352);
    for case in &coverage {
        assert!(folder().join(case["draw"].as_str().unwrap()).exists());
        let model = grid(&case["model"]);
        if let Some(counts) = case.get("counts") {
            let counts = grid(counts);
            let (extra, missing) = (pixels(&case["extra"]), pixels(&case["missing"]));
            for y in 0..SIZE {
                for x in 0..SIZE {
                    let (r, m) = (counts[y * SIZE + x], model[y * SIZE + x]);
                    assert_eq!(r > m, extra.contains(&(x, y)), "{} ({x}, {y})", case["name"]);
                    assert_eq!(r < m, missing.contains(&(x, y)), "{} ({x}, {y})", case["name"]);
                }
            }
        }
    }
    // the facts the README states: no difference at all in these categories
    for case in &coverage {
        let category = case["category"].as_str().unwrap();
        if ["slope", "short", "clip", "vpclip", "list", "adj", "points"].contains(&category) {
            assert!(
                pixels(&case["extra"]).is_empty() && pixels(&case["missing"]).is_empty(),
                "{}",
                case["name"]
            );
        }
    }
    assert_eq!(cases("attributes.json").len(), 28);
}

/// The lines a case's vertices make under its topology (3.4.3; strips draw as the list of their segments, adjacency
/// vertices are dropped when no geometry program is bound), as pairs of vertex indices.
fn segments(topology: &str, count: usize) -> Vec<(usize, usize)> {
    match topology {
        "LINELIST" => (0..count / 2).map(|i| (2 * i, 2 * i + 1)).collect(),
        "LINESTRIP" => (1..count).map(|i| (i - 1, i)).collect(),
        "LINELIST_ADJ" => (0..count / 4).map(|i| (4 * i + 1, 4 * i + 2)).collect(),
        "LINESTRIP_ADJ" => (2..count.saturating_sub(1)).map(|i| (i - 1, i)).collect(),
        other => panic!("not a line topology: {other}"),
    }
}

// The library's line and point coverage (`iridia::raster::line`) on its own, without the draw pipeline: against the
// generator's independent model of the spec's rules everywhere, and against the reference outside the ties its README
// lists.
#[test]
fn the_line_rasterizer_matches_the_spec_model_and_the_reference_outside_its_ties() {
    use iridia::raster::line::{AliasedLine, point_square, square_covers};
    use iridia::raster::{PixelRect, snap};
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in cases("coverage.json") {
        let category = case["category"].as_str().unwrap();
        if ["quad", "aa", "wireframe"].contains(&category) {
            continue;
        }
        let name = case["name"].as_str().unwrap();
        let viewport = &case["viewport"];
        let allowed = if viewport.is_null() {
            PixelRect {
                left: 0,
                top: 0,
                right: SIZE as i64,
                bottom: SIZE as i64,
            }
        } else {
            let v = |k: &str| viewport[k].as_i64().unwrap();
            PixelRect {
                left: v("x"),
                top: v("y"),
                right: v("x") + v("w"),
                bottom: v("y") + v("h"),
            }
        };
        let verts: Vec<[f32; 2]> = case["verts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| [float(&v[0]), float(&v[1])])
            .collect();
        let mut ours = vec![0u32; SIZE * SIZE];
        let topology = case["topology"].as_str().unwrap();
        if topology == "POINTLIST" {
            for [x, y] in &verts {
                let square = point_square(*x, *y);
                for py in allowed.top..allowed.bottom {
                    for px in allowed.left..allowed.right {
                        if square_covers(square, [px * 256 + 128, py * 256 + 128]) {
                            ours[py as usize * SIZE + px as usize] += 1;
                        }
                    }
                }
            }
        } else {
            for (a, b) in segments(topology, verts.len()) {
                let fixed = |v: [f32; 2]| [snap(v[0]), snap(v[1])];
                let Some(line) = AliasedLine::new(fixed(verts[a]), fixed(verts[b])) else {
                    continue;
                };
                for [x, y] in line.pixels(allowed) {
                    ours[y as usize * SIZE + x as usize] += 1;
                }
            }
        }
        let model = grid(&case["model"]);
        let counts = grid(&case["counts"]);
        let ties: BTreeSet<_> = pixels(&case["extra"])
            .union(&pixels(&case["missing"]))
            .copied()
            .collect();
        for y in 0..SIZE {
            for x in 0..SIZE {
                let i = y * SIZE + x;
                compared += 1;
                if ours[i] != model[i] {
                    failures.push(format!("{name} ({x}, {y}): ours {} spec model {}", ours[i], model[i]));
                }
                if !ties.contains(&(x, y)) && ours[i] != counts[i] {
                    failures.push(format!("{name} ({x}, {y}): ours {} reference {}", ours[i], counts[i]));
                }
            }
        }
    }
    assert_eq!(
        compared,
        292 * SIZE * SIZE,
        "the 292 cases of lines, strips, lists, adjacency and points"
    );
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
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

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// A case's screen positions (x, y) per vertex.
fn screen_verts(case: &Value) -> Vec<[f32; 2]> {
    case["verts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| [float(&v[0]), float(&v[1])])
        .collect()
}

/// 16.8 fixed point of a coordinate in pixels, ties to even.
fn snap64(v: f64) -> i64 {
    (v * 256.).round_ties_even() as i64
}

/// The pixel centres a snapped triangle covers under the top-left rule (3.4.2.1), either winding, in 1/256 pixels.
fn triangle_pixels(mut t: [[i64; 2]; 3]) -> BTreeSet<(usize, usize)> {
    let area = (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]);
    let mut out = BTreeSet::new();
    if area == 0 {
        return out;
    }
    if area < 0 {
        t.swap(1, 2);
    }
    for y in 0..SIZE as i64 {
        for x in 0..SIZE as i64 {
            let p = [x * 256 + 128, y * 256 + 128];
            let inside = (0..3).all(|k| {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                let e = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
                // clockwise with y down: a top edge runs right, a left edge runs up
                e > 0 || (e == 0 && ((b[1] == a[1] && b[0] > a[0]) || b[1] < a[1]))
            });
            if inside {
                out.insert((x as usize, y as usize));
            }
        }
    }
    out
}

/// The pixels of the quadrilateral line from `p0` to `p1` (3.4.5): the rectangle 1.4 wide around it, its corners
/// snapped, as two triangles (the fixture generator's model, written again).
fn quad_line_pixels(p0: [f32; 2], p1: [f32; 2]) -> BTreeSet<(usize, usize)> {
    let (p0, p1) = (p0.map(f64::from), p1.map(f64::from));
    let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
    let length = dx.hypot(dy);
    let (nx, ny) = (-dy / length * 0.7, dx / length * 0.7);
    let c = |p: [f64; 2], s: f64| [snap64(p[0] + s * nx), snap64(p[1] + s * ny)];
    let corners = [c(p0, 1.), c(p1, 1.), c(p1, -1.), c(p0, -1.)];
    let mut out = triangle_pixels([corners[0], corners[1], corners[2]]);
    out.extend(triangle_pixels([corners[0], corners[2], corners[3]]));
    out
}

#[test]
fn line_coverage_matches_the_spec_model_and_the_reference_outside_its_ties() {
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in cases("coverage.json") {
        let name = case["name"].as_str().unwrap();
        let output = draw(&case, &mut cache);
        let rt = f32s(&output.render_targets[0].as_ref().unwrap().bytes);
        let model = grid(&case["model"]);
        compared += SIZE * SIZE;
        if case["category"] == "aa" {
            let verts = screen_verts(&case);
            if case["rasterizer"]["multisample"] == true {
                // MultisampleEnable: quadrilateral lines whatever AntialiasedLineEnable says (15.14.1), so alpha is
                // the program's 1 on exactly the quadrilateral's pixels; the reference draws smooth lines (README)
                let quad = quad_line_pixels(verts[0], verts[1]);
                for y in 0..SIZE {
                    for x in 0..SIZE {
                        let alpha = rt[(y * SIZE + x) * 4 + 3];
                        let expected = if quad.contains(&(x, y)) { 1.0 } else { 0.0 };
                        if alpha != expected {
                            failures.push(format!(
                                "{name} ({x}, {y}): alpha {alpha}, quadrilateral line {expected}"
                            ));
                        }
                    }
                }
                continue;
            }
            // alpha-antialiased lines (3.4.4): the lit pixels cover the aliased ones, alpha in (0, 1], and the alphas
            // sum to the line's area (its length: width 1, the box coverage of the spec's rectangle), the
            // reference's within 3% of it (a wider, smooth kernel)
            for (i, m) in model.iter().enumerate() {
                let alpha = rt[i * 4 + 3];
                if (*m > 0 && alpha <= 0.0) || !(0.0..=1.0).contains(&alpha) {
                    failures.push(format!("{name}: pixel {i} alpha {alpha}"));
                }
            }
            let length = f64::from(verts[1][0] - verts[0][0]).hypot(f64::from(verts[1][1] - verts[0][1]));
            let ours: f64 = (0..SIZE * SIZE).map(|i| f64::from(rt[i * 4 + 3])).sum();
            let theirs: f64 = case["alpha"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p[2].as_f64().unwrap())
                .sum();
            if (ours - length).abs() > 1e-4 * length || (theirs - length).abs() > 0.03 * length {
                failures.push(format!(
                    "{name}: alphas sum to {ours} (reference {theirs}), length {length}"
                ));
            }
            continue;
        }
        let ours: Vec<u32> = rt.iter().map(|v| *v as u32).collect();
        let counts = grid(&case["counts"]);
        let ties: BTreeSet<_> = pixels(&case["extra"])
            .union(&pixels(&case["missing"]))
            .copied()
            .collect();
        for y in 0..SIZE {
            for x in 0..SIZE {
                let i = y * SIZE + x;
                if ours[i] != model[i] {
                    failures.push(format!("{name} ({x}, {y}): ours {} spec model {}", ours[i], model[i]));
                }
                if case["category"] != "quad" && !ties.contains(&(x, y)) && ours[i] != counts[i] {
                    failures.push(format!("{name} ({x}, {y}): ours {} reference {}", ours[i], counts[i]));
                }
            }
        }
    }
    assert_eq!(compared, 352 * SIZE * SIZE, "every coverage case, every pixel");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Whether pixel (`x`, `y`) is a tie of the diamond-exit rule for the segment `p0 -> p1` (screen positions on the
/// 1/256 grid): the segment passes exactly through a corner of the pixel's diamond, or ends on its boundary, where
/// llvmpipe decides the other way (README).
fn diamond_tie(p0: [f32; 2], p1: [f32; 2], x: usize, y: usize) -> bool {
    let fixed = |p: [f32; 2]| p.map(|c| (f64::from(c) * 256.) as i64);
    let (a, b) = (fixed(p0), fixed(p1));
    let centre = [x as i64 * 256 + 128, y as i64 * 256 + 128];
    let on_segment = |q: [i64; 2]| {
        let cross = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
        let along = (b[0] - a[0]) * (q[0] - a[0]) + (b[1] - a[1]) * (q[1] - a[1]);
        let length = (b[0] - a[0]).pow(2) + (b[1] - a[1]).pow(2);
        cross == 0 && (0..=length).contains(&along)
    };
    let on_boundary = |q: [i64; 2]| (q[0] - centre[0]).abs() + (q[1] - centre[1]).abs() == 128;
    let corners = [[128, 0], [-128, 0], [0, 128], [0, -128]].map(|[dx, dy]| [centre[0] + dx, centre[1] + dy]);
    corners.into_iter().any(on_segment) || on_boundary(a) || on_boundary(b)
}

// Attributes and depth along lines and on points. Aliased lines: the reference's values, on the pixels both lit
// (a pixel only the reference lit must be a tie of the rule). Quadrilateral lines (`MultisampleEnable`, attr_005,
// 011, 017, 023): the reference draws aliased lines there and interpolates along the major axis; the spec's are two
// triangles with each end's attributes at its two corners (3.4.5), so a value is the end values blended by the pixel
// centre's projection onto the line, which is what every pixel we light is held to. The triangles are on the
// rectangle's snapped corners, each at most 1/512 px (half a step along each axis) off the exact one, which tilts
// the plane: the allowance is that over the line's length, (2 * sqrt(2) / 512) / length of the range of the values
// (a pixel's projection moves by at most the corners' displacement across the width, scaled to the length).
#[test]
fn line_attributes_and_depth_match_the_reference() {
    let mut cache = ShaderCache::new();
    let mut failures = Vec::new();
    let (mut compared, mut ties) = (0, 0);
    for case in cases("attributes.json") {
        let name = case["name"].as_str().unwrap();
        let output = draw(&case, &mut cache);
        let attr = f32s(&output.render_targets[0].as_ref().unwrap().bytes);
        let pos = f32s(&output.render_targets[1].as_ref().unwrap().bytes);
        let depth = f32s(&output.depth_stencil.as_ref().unwrap().bytes);
        let quad = case["rasterizer"]["multisample"] == true;
        let verts = screen_verts(&case);
        let check_position = |failures: &mut Vec<String>, x: usize, y: usize| {
            let i = y * SIZE + x;
            if (pos[i * 4] - (x as f32 + 0.5), pos[i * 4 + 1] - (y as f32 + 0.5)) != (0.0, 0.0) {
                failures.push(format!("{name} ({x}, {y}): SV_Position {:?}", &pos[i * 4..i * 4 + 2]));
            }
        };
        if quad {
            let [p0, p1] = [verts[0], verts[1]].map(|v| v.map(f64::from));
            let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
            let length2 = dx * dx + dy * dy;
            let slack = 2. * 2f64.sqrt() / 512. / length2.sqrt();
            let zs: Vec<f64> = case["verts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v[2].as_f64().unwrap())
                .collect();
            let attrs = case["attrs"].as_array().unwrap();
            for y in 0..SIZE {
                for x in 0..SIZE {
                    let i = y * SIZE + x;
                    if pos[i * 4 + 3] == 0.0 {
                        continue;
                    }
                    compared += 1;
                    check_position(&mut failures, x, y);
                    let t = ((x as f64 + 0.5 - p0[0]) * dx + (y as f64 + 0.5 - p0[1]) * dy) / length2;
                    let spec = |a: f64, b: f64| a + (b - a) * t;
                    for c in 0..4 {
                        let (a, b) = (attrs[0][c].as_f64().unwrap(), attrs[1][c].as_f64().unwrap());
                        let ours = f64::from(attr[i * 4 + c]);
                        if (ours - spec(a, b)).abs() > slack * (b - a).abs() + 1e-5 {
                            failures.push(format!(
                                "{name} ({x}, {y}) attribute .{c}: ours {ours} spec {}",
                                spec(a, b)
                            ));
                        }
                    }
                    let z = spec(zs[0], zs[1]);
                    if (f64::from(depth[i]) - z).abs() > slack * (zs[1] - zs[0]).abs() + 1e-6 {
                        failures.push(format!("{name} ({x}, {y}) depth: ours {} spec {z}", depth[i]));
                    }
                }
            }
            continue;
        }
        for p in case["pixels"].as_array().unwrap() {
            let (x, y) = (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize);
            let i = y * SIZE + x;
            compared += 1;
            if pos[i * 4 + 3] == 0.0 {
                if verts.len() == 2 && diamond_tie(verts[0], verts[1], x, y) {
                    ties += 1;
                } else {
                    failures.push(format!("{name} ({x}, {y}): not lit"));
                }
                continue;
            }
            for c in 0..4 {
                let (ours, theirs) = (attr[i * 4 + c], float(&p[2][c]));
                if (ours - theirs).abs() > 4e-5 {
                    failures.push(format!(
                        "{name} ({x}, {y}) attribute .{c}: ours {ours} reference {theirs}"
                    ));
                }
            }
            check_position(&mut failures, x, y);
            if (depth[i] - float(&p[4])).abs() > 1e-6 {
                failures.push(format!(
                    "{name} ({x}, {y}) depth: ours {} reference {}",
                    depth[i],
                    float(&p[4])
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{compared} pixels compared, {ties} tie pixels only the reference lit");
    assert!(
        ties <= 1,
        "{ties} tie pixels only the reference lit (README: attr_000 (13, 22))"
    );
}

// A captured line strip and a captured wireframe draw, with the reference's counts as what the GPU wrote, replayed
// and inspected through the capture path: every lit pixel outside the ties matches and its history holds fragments
// of the draw's primitives, of their kind (lines; the wireframe's are its triangles'), one a segment or edge through it.
#[test]
fn captured_lines_and_wireframe_replay_and_inspect_pixel_by_pixel() {
    use iridia::capture::{Capture, CaptureWriter, DrawRecord, TargetSlot};
    use iridia::input_assembler::PrimitiveKind;
    use iridia::inspect::{InspectOptions, Verdict, inspect_pixel};
    use std::sync::Arc;
    let all = cases("coverage.json");
    for (name, kind) in [
        ("strip_000", PrimitiveKind::Line),
        ("wire_001", PrimitiveKind::Triangle),
    ] {
        let case = all.iter().find(|c| c["name"] == name).unwrap();
        let path = folder().join(case["draw"].as_str().unwrap());
        let dir = path.parent().unwrap().to_path_buf();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut load = |p: &str| Ok(std::fs::read(dir.join(p)).unwrap());
        let description = description::read(&text, &mut load).unwrap();
        let counts = grid(&case["counts"]);
        let recorded: Vec<u8> = counts.iter().flat_map(|&c| (c as f32).to_le_bytes()).collect();
        let mut record = DrawRecord::new(description.draws[0].clone());
        record.render_targets_after = vec![Some(Arc::from(recorded))];
        let mut writer = CaptureWriter::in_memory();
        writer.add_draw(&record).unwrap();
        let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
        let ties: BTreeSet<_> = pixels(&case["extra"])
            .union(&pixels(&case["missing"]))
            .copied()
            .collect();
        let mut cache = ShaderCache::new();
        let mut inspected = 0;
        for (i, &count) in counts.iter().enumerate() {
            let (x, y) = (i % SIZE, i / SIZE);
            if count == 0 || ties.contains(&(x, y)) {
                continue;
            }
            let options = InspectOptions::default();
            let target = TargetSlot::RenderTarget(0);
            let inspection = inspect_pixel(&mut capture, 0, x as u32, y as u32, target, &mut cache, &options).unwrap();
            assert_eq!(inspection.verdict, Verdict::Matches, "{name} ({x}, {y})");
            let fragments = &inspection.history.fragments;
            assert_eq!(fragments.len(), count as usize, "{name} ({x}, {y})");
            assert!(fragments.iter().all(|f| f.kind == kind), "{name} ({x}, {y})");
            inspected += 1;
        }
        assert!(inspected > 10, "{name}: {inspected} pixels");
    }
}
