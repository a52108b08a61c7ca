//! Whole draws with expectations worked out by hand from the specification's rules (each test says how). The draws
//! are written as draw descriptions (`docs/draw-description.md`) and their programs as assembly listings with
//! signature tables, so each test shows everything its draw does.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::float_cmp
)]

use super::*;
use crate::description::{self, Description};
use crate::input_assembler::PrimitiveKind;
use crate::replay::testkit::program;
use std::ops::ControlFlow;

/// `vs_pos_attr`: position from `POSITION`, the attribute `ATTR` passed on as `ATTR0`, `ATTR1` and `ATTR2`.
fn vs_attr() -> Vec<u8> {
    program(
        &[
            ("POSITION", 0, "xyzw", "0", "NONE", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
        ],
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
            ("ATTR", 1, "xyzw", "2", "NONE", "float"),
            ("ATTR", 2, "xyzw", "3", "NONE", "float"),
        ],
        "vs_4_0\n\
         dcl_input v0.xyzw\n\
         dcl_input v1.xyzw\n\
         dcl_output_siv o0.xyzw, position\n\
         dcl_output o1.xyzw\n\
         dcl_output o2.xyzw\n\
         dcl_output o3.xyzw\n\
         mov o0.xyzw, v0.xyzw\n\
         mov o1.xyzw, v1.xyzw\n\
         mov o2.xyzw, v1.xyzw\n\
         mov o3.xyzw, v1.xyzw\n\
         ret\n",
    )
}

/// `vs_pos`: position from `POSITION` only.
fn vs_pos() -> Vec<u8> {
    program(
        &[("POSITION", 0, "xyzw", "0", "NONE", "float")],
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        "vs_4_0\n\
         dcl_input v0.xyzw\n\
         dcl_output_siv o0.xyzw, position\n\
         mov o0.xyzw, v0.xyzw\n\
         ret\n",
    )
}

/// `ps_interp`: `ATTR0` perspective-correct to target 0, `ATTR1` screen-linear to target 1, `ATTR2` flat to target 2,
/// `SV_Position` to target 3.
fn ps_interp() -> Vec<u8> {
    program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
            ("ATTR", 1, "xyzw", "2", "NONE", "float"),
            ("ATTR", 2, "xyzw", "3", "NONE", "float"),
        ],
        &[
            ("SV_Target", 0, "xyzw", "0", "TARGET", "float"),
            ("SV_Target", 1, "xyzw", "1", "TARGET", "float"),
            ("SV_Target", 2, "xyzw", "2", "TARGET", "float"),
            ("SV_Target", 3, "xyzw", "3", "TARGET", "float"),
        ],
        "ps_4_0\n\
         dcl_input_ps_siv linear noperspective v0.xyzw, position\n\
         dcl_input_ps linear v1.xyzw\n\
         dcl_input_ps linear noperspective v2.xyzw\n\
         dcl_input_ps constant v3.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_output o2.xyzw\n\
         dcl_output o3.xyzw\n\
         mov o0.xyzw, v1.xyzw\n\
         mov o1.xyzw, v2.xyzw\n\
         mov o2.xyzw, v3.xyzw\n\
         mov o3.xyzw, v0.xyzw\n\
         ret\n",
    )
}

/// `ps_one`: writes (1, 1, 1, 1) to target 0; with additive blending into `R32_FLOAT` each texel counts the
/// triangles that covered it.
fn ps_one() -> Vec<u8> {
    program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\n\
         dcl_output o0.xyzw\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    )
}

/// Reads a description whose files are the named programs.
fn describe(json: &str, files: &[(&str, Vec<u8>)]) -> Description {
    let mut load = |path: &str| -> crate::Result<Vec<u8>> {
        files
            .iter()
            .find(|(name, _)| *name == path)
            .map(|(_, bytes)| bytes.clone())
            .ok_or_else(|| crate::Error::new("test", format!("no file {path}")))
    };
    description::read(json, &mut load).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs every draw of a description and returns their outputs.
fn draw(json: &str, files: &[(&str, Vec<u8>)]) -> Vec<DrawOutput> {
    let description = describe(json, files);
    run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The last output of a description's draws.
fn last(json: &str, files: &[(&str, Vec<u8>)]) -> DrawOutput {
    draw(json, files).pop().unwrap()
}

/// A target's texels as float32 words, `components` per texel.
fn floats(image: &TargetImage) -> Vec<f32> {
    image
        .bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Texel (`x`, `y`) of an `R32G32B32A32_FLOAT` target.
fn rgba(image: &TargetImage, x: u32, y: u32) -> [f32; 4] {
    let f = floats(image);
    let i = ((y * image.width + x) * 4) as usize;
    [f[i], f[i + 1], f[i + 2], f[i + 3]]
}

/// The counts of an `R32_FLOAT` counting target, one string of digits a row.
fn counts(image: &TargetImage) -> Vec<String> {
    floats(image)
        .chunks(image.width as usize)
        .map(|row| row.iter().map(|&c| char::from(b'0' + c as u8)).collect())
        .collect()
}

/// Clip-space position of the pixel position (`x`, `y`) of a `size` x `size` viewport at origin 0, depth `z`, `w`.
fn clip(x: f32, y: f32, z: f32, w: f32, size: f32) -> [f32; 4] {
    [(x / size * 2. - 1.) * w, (1. - y / size * 2.) * w, z * w, w]
}

/// `, "rasterizer": {"cull": "NONE"}` unless `extra` sets the rasterizer state itself.
fn no_cull(extra: &str) -> &'static str {
    if extra.contains(r#""rasterizer""#) {
        ""
    } else {
        r#", "rasterizer": {"cull": "NONE"}"#
    }
}

/// A counting description: `R32_FLOAT` target, additive blending, culling off, `ps_one`, these clip-space triangles.
fn counting(size: u32, positions: &[[f32; 4]], extra: &str) -> String {
    let data: Vec<String> = positions.iter().flatten().map(|v| format!("{v:?}")).collect();
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": {size}, "height": {size}, "rt_format": "R32_FLOAT",
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 16, "f32": [{}]}}],
        "blend": {{"targets": [{{"enable": true, "src": "ONE", "dest": "ONE"}}]}}
        {}{extra}}}"#,
        data.join(", "),
        no_cull(extra)
    )
}

fn count_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![("vs", vs_pos()), ("ps", ps_one())]
}

#[test]
fn a_triangle_through_the_clip_space_origin_draws_nothing() {
    // c = -(a + b) / 2: the three clip-space vertices are linearly dependent, the triangle's plane holds the eye and
    // it is a line on screen (15.4, the raster module's rule)
    let a = clip(4., 4., 0.5, 1., 16.);
    let b = clip(12., 6., 0.5, 1., 16.);
    let c: [f32; 4] = std::array::from_fn(|k| -(a[k] + b[k]) / 2.);
    let out = last(&counting(16, &[a, b, c], ""), &count_files());
    assert!(floats(out.render_targets[0].as_ref().unwrap()).iter().all(|&v| v == 0.));
    assert_eq!(out.stats.triangles, 1);
    assert_eq!(out.stats.rasterized, 0);
    assert_eq!(out.stats.shaded, 0);
}

/// The files of the interpolation scenes.
fn interp_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![("vs", vs_attr()), ("ps", ps_interp())]
}

/// A description of `R32G32B32A32_FLOAT` targets cleared to -1, vertices of a clip-space position and an attribute,
/// culling off, with `extra` keys.
fn attr_scene(size: u32, targets: usize, vertices: &[([f32; 4], [f32; 4])], extra: &str) -> String {
    let data: Vec<String> = vertices
        .iter()
        .flat_map(|(p, a)| p.iter().chain(a))
        .map(|v| format!("{v:?}"))
        .collect();
    let rts = vec![r#"{"format": "R32G32B32A32_FLOAT", "clear": [-1, -1, -1, -1]}"#; targets].join(", ");
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": {size}, "height": {size}, "render_targets": [{rts}],
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}},
                         {{"semantic": "ATTR", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 32, "f32": [{}]}}]
        {}{extra}}}"#,
        data.join(", "),
        no_cull(extra)
    )
}

/// The triangle of the interpolation tests on an 8 x 8 target: screen corners (0, 0), (8, 0), (0, 8) with clip w 1, 2
/// and 4, screen depths 0.2, 0.6, 1, and attributes (0, 0, 0, 10), (1, 0, 0, 20), (0, 1, 0, 30). Its pixel centres
/// (x + 0.5, y + 0.5) have screen weights (1 - x/8 - y/8, x/8, y/8) on the corners; the edge from (8, 0) to (0, 8) is
/// neither top nor left, so the covered pixels are those with x + y <= 6 (28 of them).
fn interp_triangle() -> Vec<([f32; 4], [f32; 4])> {
    vec![
        (clip(0., 0., 0.2, 1., 8.), [0., 0., 0., 10.]),
        (clip(8., 0., 0.6, 2., 8.), [1., 0., 0., 20.]),
        (clip(0., 8., 1., 4., 8.), [0., 1., 0., 30.]),
    ]
}

/// Whether `a` is within one float32 step of `b` (the expected values are worked out in exact fractions, the draw
/// rounds once to float32).
fn near(a: f32, b: f64) -> bool {
    (f64::from(a) - b).abs() <= b.abs() * f64::from(f32::EPSILON)
}

#[test]
fn attributes_are_perspective_correct_screen_linear_or_flat_as_the_pixel_program_declares() {
    let out = last(&attr_scene(8, 4, &interp_triangle(), ""), &interp_files());
    let [persp, linear, flat, position] = [0, 1, 2, 3].map(|i| out.render_targets[i].as_ref().unwrap());
    // pixel (1, 2), centre (1.5, 2.5): screen weights (0.5, 0.1875, 0.3125); over w: 0.5, 0.09375, 0.078125, which
    // sum to 43/64, so the perspective weights are 32/43, 6/43, 5/43 and w = 64/43
    let p = rgba(persp, 1, 2);
    let expected = [6. / 43., 5. / 43., 0., (32. * 10. + 6. * 20. + 5. * 30.) / 43.];
    for (a, b) in p.iter().zip(expected) {
        assert!(near(*a, b), "perspective {p:?} against {expected:?}");
    }
    assert_eq!(
        rgba(linear, 1, 2),
        [0.1875, 0.3125, 0., 0.5 * 10. + 0.1875 * 20. + 0.3125 * 30.]
    );
    // flat: the provoking (first) vertex's words
    assert_eq!(rgba(flat, 1, 2), [0., 0., 0., 10.]);
    let sv = rgba(position, 1, 2);
    assert_eq!((sv[0], sv[1]), (1.5, 2.5));
    // depth is linear in screen space: 0.5 * 0.2 + 0.1875 * 0.6 + 0.3125 * 1 (the vertices' float32 depths)
    let z = 0.5 * f64::from(0.2f32) + 0.1875 * f64::from(0.6f32) + 0.3125;
    assert!(near(sv[2], z), "{} against {z}", sv[2]);
    assert!(near(sv[3], 64. / 43.), "{}", sv[3]);
    // coverage: x + y <= 6, the rest keeps the clear
    for y in 0..8 {
        for x in 0..8 {
            let written = rgba(flat, x, y) != [-1.; 4];
            assert_eq!(written, x + y <= 6, "pixel ({x}, {y})");
        }
    }
    assert_eq!(out.stats.shaded, 28);
    assert_eq!(out.stats.written, 28);
}

#[test]
fn a_noperspective_attribute_is_exact_and_its_helper_lanes_give_the_quads_derivatives_at_the_edge() {
    // ATTR1 (screen-linear) carries 3 X + 5 Y of each corner's screen position: 0, 24, 40. Interpolated it is
    // 3 x + 5 y at every centre (the weights are x/8 and y/8), and helper lanes extrapolate the same plane, so every
    // covered pixel's fine and coarse derivatives are 3 along x and 5 along y, also where its quad-mates are helpers.
    let ps = program(
        &[("ATTR", 1, "x", "1", "NONE", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_5_0\n\
         dcl_input_ps linear noperspective v1.x\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         deriv_rtx_fine r0.x, v1.x\n\
         deriv_rty_fine r0.y, v1.x\n\
         deriv_rtx_coarse r0.z, v1.x\n\
         deriv_rty_coarse r0.w, v1.x\n\
         mov o0.xyzw, r0.xyzw\n\
         ret\n",
    );
    let mut vertices = interp_triangle();
    for (v, value) in vertices.iter_mut().zip([0., 24., 40.]) {
        v.1 = [value, 0., 0., 0.];
    }
    let out = last(&attr_scene(8, 1, &vertices, ""), &[("vs", vs_attr()), ("ps", ps)]);
    let target = out.render_targets[0].as_ref().unwrap();
    for y in 0..8 {
        for x in 0..8 {
            let expected = if x + y <= 6 { [3., 5., 3., 5.] } else { [-1.; 4] };
            assert_eq!(rgba(target, x, y), expected, "pixel ({x}, {y})");
        }
    }
    // the quads with a covered lane are those whose top-left pixel has x + y <= 6: (0,0) (0,2) (0,4) (0,6) (2,0)
    // (2,2) (2,4) (4,0) (4,2) (6,0), ten quads of 40 lanes, 28 of them covered
    assert_eq!(out.stats.shaded, 28);
    assert_eq!(out.stats.helper_invocations, 12);
}

#[test]
fn a_discarded_pixel_writes_nothing() {
    // discard where 3 x + 5 y < 10 (the interpolated ATTR1.x of the previous test): at the centres of (0, 0), (1, 0)
    // and (0, 1) it is 4, 7 and 9; at (2, 0) 10 and at (1, 1) 12 are kept, and it only grows from there
    let ps = program(
        &[("ATTR", 1, "x", "1", "NONE", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\n\
         dcl_input_ps linear noperspective v1.x\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         lt r0.x, v1.x, l(10.000000)\n\
         discard_nz r0.x\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    );
    let mut vertices = interp_triangle();
    for (v, value) in vertices.iter_mut().zip([0., 24., 40.]) {
        v.1 = [value, 0., 0., 0.];
    }
    let out = last(&attr_scene(8, 1, &vertices, ""), &[("vs", vs_attr()), ("ps", ps)]);
    let target = out.render_targets[0].as_ref().unwrap();
    for y in 0..8u32 {
        for x in 0..8u32 {
            let value = 3. * (x as f32 + 0.5) + 5. * (y as f32 + 0.5);
            let expected = if x + y <= 6 && value >= 10. { [1.; 4] } else { [-1.; 4] };
            assert_eq!(rgba(target, x, y), expected, "pixel ({x}, {y})");
        }
    }
    assert_eq!(out.stats.discarded, 3);
    assert_eq!(out.stats.written, 25);
}

#[test]
fn a_vertex_near_the_camera_plane_is_clipped_to_the_viewport() {
    // a = (3.25, 6) and b = (9.25, 13) on a 16 x 16 target; c = (1e3, 2e2, 0, 1e-7) is about 8e10 pixels right and
    // 1.6e10 up, past what 16.8 fixed point holds. Seen from the target the triangle is a, b and the point at
    // infinity along (5, -1): the centres between the lines x + 5 y = 33.25 (through a) and 74.25 (through b), on
    // the side of a -> b that (5, -1) points to (7 x - 6 y > -13.25). Centres have x + 5 y an integer and 7 x - 6 y a
    // half-integer, so none is within 0.027 pixels of a boundary, and snapping the cut vertices moves an edge by
    // under 1/256 pixel.
    let a = clip(3.25, 6., 0.5, 1., 16.);
    let b = clip(9.25, 13., 0.5, 1., 16.);
    let c = [1e3, 2e2, 0., 1e-7];
    let out = last(&counting(16, &[a, b, c], ""), &count_files());
    let image = out.render_targets[0].as_ref().unwrap();
    let got = counts(image);
    let expected: Vec<String> = (0..16)
        .map(|py| {
            (0..16)
                .map(|px| {
                    let (x, y) = (px as f64 + 0.5, py as f64 + 0.5);
                    let inside = x + 5. * y > 33.25 && x + 5. * y < 74.25 && 7. * x - 6. * y > -13.25;
                    if inside { '1' } else { '0' }
                })
                .collect()
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(out.stats.rasterized, 1);
}

#[test]
fn triangles_sharing_edges_cover_each_pixel_once() {
    // a square from (1.25, 2.25) to (13.75, 12.75) cut into four triangles around an off-grid point (5.3, 4.7):
    // every centre inside the square (x 1.5..13.5, y 2.5..12.5; no centre is on its sides) is covered exactly once,
    // whatever the inner edges do
    let corners = [(1.25, 2.25), (13.75, 2.25), (13.75, 12.75), (1.25, 12.75)];
    let centre = clip(5.3, 4.7, 0.5, 1., 16.);
    let mut positions = Vec::new();
    for k in 0..4 {
        let (x0, y0) = corners[k];
        let (x1, y1) = corners[(k + 1) % 4];
        positions.extend([centre, clip(x0, y0, 0.5, 1., 16.), clip(x1, y1, 0.5, 1., 16.)]);
    }
    let out = last(&counting(16, &positions, ""), &count_files());
    let expected: Vec<String> = (0..16)
        .map(|py| {
            (0..16)
                .map(|px| {
                    if (1..=13).contains(&px) && (2..=12).contains(&py) {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(counts(out.render_targets[0].as_ref().unwrap()), expected);
    assert_eq!(out.stats.triangles, 4);
}

#[test]
fn the_scissor_keeps_its_rectangle() {
    // a triangle covering the whole 8 x 8 target, scissored to columns 2..6 and rows 3..5
    let full = [
        clip(-8., -8., 0.5, 1., 8.),
        clip(24., -8., 0.5, 1., 8.),
        clip(-8., 24., 0.5, 1., 8.),
    ];
    let out = last(&counting(8, &full, r#", "scissor": [2, 3, 6, 5]"#), &count_files());
    let expected: Vec<String> = (0..8)
        .map(|py| {
            (0..8)
                .map(|px| {
                    if (2..6).contains(&px) && (3..5).contains(&py) {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(counts(out.render_targets[0].as_ref().unwrap()), expected);
    // the covered pixels' box is the scissor's: columns 2..6, rows 3..5
    assert_eq!(out.stats.covered_bounds, Some([2, 3, 6, 5]));
}

#[test]
fn triangles_are_drawn_in_order_the_later_one_on_top() {
    // two triangles over the same pixels, no depth buffer: each writes its flat ATTR2 (the provoking vertex's); the
    // second one's colour is left wherever both cover
    let tri =
        |colour: f32| [(0., 0.), (8., 0.), (0., 8.)].map(|(x, y)| (clip(x, y, 0.5, 1., 8.), [colour, 0., 0., 1.]));
    let vertices: Vec<_> = tri(1.).into_iter().chain(tri(2.)).collect();
    let out = last(&attr_scene(8, 3, &vertices, ""), &interp_files());
    let flat = out.render_targets[2].as_ref().unwrap();
    assert_eq!(rgba(flat, 0, 0), [2., 0., 0., 1.]);
    assert_eq!(rgba(flat, 6, 0), [2., 0., 0., 1.]);
    assert_eq!(out.stats.written, 56);
}

/// A pixel program writing 1 to target 0, with `lines` (declarations and code) before its `ret`.
fn ps_with(version: &str, outputs: &[(&str, u32, &str, &str, &str, &str)], lines: &str) -> Vec<u8> {
    let mut all = vec![("SV_Target", 0, "xyzw", "0", "TARGET", "float")];
    all.extend_from_slice(outputs);
    program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &all,
        &format!("{version}\n{lines}\nret\n"),
    )
}

/// The depth buffer's words: D32_FLOAT as floats.
fn depths(out: &DrawOutput) -> Vec<f32> {
    floats(out.depth_stencil.as_ref().unwrap())
}

/// The covered pixels of `interp_triangle`'s shape (x + y <= 6 on 8 x 8) at screen depth `z`, w = 1.
fn corner_triangle(z: f32) -> [[f32; 4]; 3] {
    [
        clip(0., 0., z, 1., 8.),
        clip(8., 0., z, 1., 8.),
        clip(0., 8., z, 1., 8.),
    ]
}

const WRITE_ONE: &str = "dcl_output o0.xyzw\nmov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)";

#[test]
fn the_depth_test_runs_after_the_program_unless_it_forces_early_tests() {
    // the triangle at depth 0.5 is behind the cleared 0.3 (LESS): every covered pixel fails. By default the test
    // comes after the program (16.12.2): the 28 pixels are shaded and then fail. With forceEarlyDepthStencil
    // (16.12.1) they fail before it and the program never runs.
    let extra = r#", "depth": {"format": "D32_FLOAT", "func": "LESS"}, "clear_depth": 0.3"#;
    let late = last(
        &counting(8, &corner_triangle(0.5), extra),
        &[("vs", vs_pos()), ("ps", ps_with("ps_5_0", &[], WRITE_ONE))],
    );
    assert_eq!(
        (late.stats.shaded, late.stats.depth_failed, late.stats.written),
        (28, 28, 0)
    );
    let early_ps = ps_with(
        "ps_5_0",
        &[],
        &format!("dcl_globalFlags forceEarlyDepthStencil\n{WRITE_ONE}"),
    );
    let early = last(
        &counting(8, &corner_triangle(0.5), extra),
        &[("vs", vs_pos()), ("ps", early_ps)],
    );
    assert_eq!(
        (early.stats.shaded, early.stats.depth_failed, early.stats.written),
        (0, 28, 0)
    );
    assert_eq!(early.stats.helper_invocations, 0);
    for out in [late, early] {
        assert!(floats(out.render_targets[0].as_ref().unwrap()).iter().all(|&v| v == 0.));
        assert!(depths(&out).iter().all(|&d| d == 0.3));
        // nothing is written, yet the primitive covers x + y <= 6: columns and rows 0 to 6
        assert_eq!(out.stats.covered_bounds, Some([0, 0, 7, 7]));
    }
}

#[test]
fn early_tests_write_depth_before_the_program_so_its_discard_and_depth_change_nothing_there() {
    // forceEarlyDepthStencil: the test and the depth write happen before the program (16.12.1), so a program that
    // writes oDepth 0.9 and discards leaves depth 0.5 (the interpolated one) and no colour
    let extra = r#", "depth": {"format": "D32_FLOAT", "func": "LESS"}"#;
    let ps = ps_with(
        "ps_5_0",
        &[("SV_Depth", 0, "x", "oDepth", "DEPTH", "float")],
        &format!(
            "dcl_globalFlags forceEarlyDepthStencil\n{WRITE_ONE}\ndcl_output oDepth\nmov oDepth, l(0.900000)\n\
             discard_nz l(1)"
        ),
    );
    let out = last(
        &counting(8, &corner_triangle(0.5), extra),
        &[("vs", vs_pos()), ("ps", ps)],
    );
    let d = depths(&out);
    for y in 0..8 {
        for x in 0..8 {
            let expected = if x + y <= 6 { 0.5 } else { 1.0 };
            assert_eq!(d[y * 8 + x], expected, "pixel ({x}, {y})");
        }
    }
    assert!(floats(out.render_targets[0].as_ref().unwrap()).iter().all(|&v| v == 0.));
    assert_eq!((out.stats.discarded, out.stats.written), (28, 0));
}

#[test]
fn the_programs_depth_replaces_the_interpolated_one_and_is_clamped_to_the_viewport() {
    // oDepth 0.9 is tested and written instead of 0.5 (16.9.2); 2.0 is clamped to MaxDepth (15.6, 17.10), here 0.75
    let run = |value: &str, extra: &str| {
        let ps = ps_with(
            "ps_4_0",
            &[("SV_Depth", 0, "x", "oDepth", "DEPTH", "float")],
            &format!("{WRITE_ONE}\ndcl_output oDepth\nmov oDepth, l({value})"),
        );
        let json = counting(
            8,
            &corner_triangle(0.5),
            &format!(r#", "depth": {{"format": "D32_FLOAT"}}{extra}"#),
        );
        depths(&last(&json, &[("vs", vs_pos()), ("ps", ps)]))
    };
    let written = run("0.900000", "");
    assert_eq!((written[0], written[7]), (0.9, 1.0));
    let clamped = run("2.000000", r#", "viewport": {"min_depth": 0.25, "max_depth": 0.75}"#);
    assert_eq!((clamped[0], clamped[7]), (0.75, 1.0));
}

#[test]
fn a_broken_conservative_depth_promise_is_used_as_written() {
    // oDepthGE promises at least the interpolated 0.5 and writes 0.1; 16.9.3.2 lets an implementation clamp it but
    // notes that compilers and many implementations do not, and neither does Iridia: 0.1 is written
    let ps = ps_with(
        "ps_5_0",
        &[("SV_DepthGreaterEqual", 0, "x", "oDepthGE", "DEPTHGE", "float")],
        &format!("{WRITE_ONE}\ndcl_output oDepthGE\nmov oDepthGE, l(0.100000)"),
    );
    let json = counting(8, &corner_triangle(0.5), r#", "depth": {"format": "D32_FLOAT"}"#);
    let d = depths(&last(&json, &[("vs", vs_pos()), ("ps", ps)]));
    assert_eq!((d[0], d[7]), (0.1, 1.0));
}

#[test]
fn without_depth_clipping_a_triangle_past_the_far_plane_draws_at_max_depth() {
    // z/w = 1.5: with depth clipping on, the far plane z <= w removes it all (15.4); off, it is drawn and its depth
    // clamped to MaxDepth 0.8 (15.6)
    let extra = |clip_on: bool| {
        format!(
            r#", "depth": {{"format": "D32_FLOAT", "func": "ALWAYS"}},
            "viewport": {{"max_depth": 0.8}}, "rasterizer": {{"cull": "NONE", "depth_clip": {clip_on}}}"#
        )
    };
    let on = last(&counting(8, &corner_triangle(1.5), &extra(true)), &count_files());
    assert_eq!((on.stats.clipped_away, on.stats.written), (1, 0));
    let off = last(&counting(8, &corner_triangle(1.5), &extra(false)), &count_files());
    assert_eq!(off.stats.written, 28);
    assert_eq!(depths(&off)[0], 0.8);
}

#[test]
fn depth_bias_is_in_units_of_the_depth_buffers_format() {
    // 15.10 with DepthBias 100 on a flat triangle at 0.25. D16 (UNORM, r = 2^-16 as the raster module takes it):
    // 0.25 + 100 / 65536 = 0.25152587890625, stored as round(0.25152587890625 * 65535) = round(16483.748) = 16484.
    // D32 (float, r = 2^(exponent(0.25) - 23) = 2^-25, one float32 step at 0.25): 100 steps above 0.25.
    let run = |format: &str| {
        let json = counting(
            8,
            &corner_triangle(0.25),
            &format!(r#", "depth": {{"format": "{format}"}}, "rasterizer": {{"cull": "NONE", "depth_bias": 100}}"#),
        );
        last(&json, &count_files()).depth_stencil.unwrap().bytes
    };
    let d16 = run("D16_UNORM");
    assert_eq!(u16::from_le_bytes([d16[0], d16[1]]), 16484);
    let d32 = run("D32_FLOAT");
    assert_eq!(
        u32::from_le_bytes([d32[0], d32[1], d32[2], d32[3]]),
        0.25f32.to_bits() + 100
    );
}

#[test]
fn slope_scaled_depth_bias_adds_the_largest_slope_times_the_factor() {
    // screen depth 0.25 at (0, 0) and (0, 8), 0.375 at (8, 0): dz/dx = 1/64, dz/dy = 0; SlopeScaledDepthBias 2 adds
    // 2/64 to the whole triangle (15.10). At pixel (1, 2) the depth is 0.25 + 1.5/64 + 2/64 = 0.3046875.
    let positions = [
        clip(0., 0., 0.25, 1., 8.),
        clip(8., 0., 0.375, 1., 8.),
        clip(0., 8., 0.25, 1., 8.),
    ];
    let json = counting(
        8,
        &positions,
        r#", "depth": {"format": "D32_FLOAT"}, "rasterizer": {"cull": "NONE", "slope_scaled_depth_bias": 2}"#,
    );
    let out = last(&json, &count_files());
    assert_eq!(depths(&out)[2 * 8 + 1], 0.3046875);
}

/// `ps_ids`: the flat `ATTR2` to target 0; `SV_PrimitiveID` and `SV_IsFrontFace` to target 1 (`R32G32B32A32_UINT`).
fn ps_ids() -> Vec<u8> {
    program(
        &[
            ("ATTR", 2, "xyzw", "3", "NONE", "float"),
            ("SV_PrimitiveID", 0, "x", "4", "PRIMID", "uint"),
            ("SV_IsFrontFace", 0, "x", "5", "FFACE", "uint"),
        ],
        &[
            ("SV_Target", 0, "xyzw", "0", "TARGET", "float"),
            ("SV_Target", 1, "xyzw", "1", "TARGET", "uint"),
        ],
        "ps_4_0\n\
         dcl_input_ps constant v3.xyzw\n\
         dcl_input_ps_sgv constant v4.x, primitive_id\n\
         dcl_input_ps_sgv constant v5.x, is_front_face\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         mov o0.xyzw, v3.xyzw\n\
         mov o1.x, v4.x\n\
         mov o1.y, v5.x\n\
         mov o1.zw, l(0, 0, 0, 0)\n\
         ret\n",
    )
}

/// A strip of four vertices over an 8 x 8 target: (0, 0), (8, 0), (0, 8), (8, 8), each with its number as ATTR.x.
fn strip_scene(rasterizer: &str) -> String {
    let vertices: Vec<_> = [(0., 0.), (8., 0.), (0., 8.), (8., 8.)]
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| (clip(x, y, 0.5, 1., 8.), [k as f32, 0., 0., 0.]))
        .collect();
    let scene = attr_scene(
        8,
        1,
        &vertices,
        &format!(r#", "topology": "TRIANGLESTRIP", "rasterizer": {rasterizer}"#),
    );
    // the second target holds the IDs as integers
    scene.replace(
        r#""render_targets": [{"format": "R32G32B32A32_FLOAT", "clear": [-1, -1, -1, -1]}]"#,
        r#""render_targets": [{"format": "R32G32B32A32_FLOAT", "clear": [-1, -1, -1, -1]}, "R32G32B32A32_UINT"]"#,
    )
}

/// Texel (`x`, `y`) of an `R32G32B32A32_UINT` target.
fn uints(image: &TargetImage, x: u32, y: u32) -> [u32; 4] {
    let i = ((y * image.width + x) * 16) as usize;
    std::array::from_fn(|k| u32::from_le_bytes(image.bytes[i + 4 * k..i + 4 * k + 4].try_into().unwrap()))
}

#[test]
fn a_strips_odd_triangles_are_wound_back_so_every_triangle_faces_the_same_way() {
    // triangle 0 is (0, 0) (8, 0) (0, 8), clockwise on screen; triangle 1 is vertices 1, 3, 2 (8.14: wound back,
    // its leading vertex 1 first): (8, 0) (8, 8) (0, 8), clockwise too. Culling back faces keeps both: the square is
    // covered, triangle 0 where x + y <= 6, triangle 1 elsewhere (the shared edge is neither top nor left for
    // triangle 0, and left for triangle 1). Flat values are the leading vertex's: 0 and 1; primitive IDs 0 and 1;
    // both front facing.
    let files = [("vs", vs_attr()), ("ps", ps_ids())];
    let out = last(&strip_scene(r#"{"cull": "BACK"}"#), &files);
    let (colour, ids) = (
        out.render_targets[0].as_ref().unwrap(),
        out.render_targets[1].as_ref().unwrap(),
    );
    for y in 0..8 {
        for x in 0..8 {
            let k = u32::from(x + y > 6);
            assert_eq!(rgba(colour, x, y)[0], k as f32, "pixel ({x}, {y})");
            assert_eq!(uints(ids, x, y), [k, u32::MAX, 0, 0], "pixel ({x}, {y})");
        }
    }
    // counter-clockwise front faces: both are back faces and culled
    let culled = last(&strip_scene(r#"{"cull": "BACK", "front_ccw": true}"#), &files);
    assert_eq!((culled.stats.culled, culled.stats.written), (2, 0));
    // not culled, they are drawn as back faces: SV_IsFrontFace is 0
    let back = last(&strip_scene(r#"{"cull": "NONE", "front_ccw": true}"#), &files);
    assert_eq!(uints(back.render_targets[1].as_ref().unwrap(), 7, 7), [1, 0, 0, 0]);
}

/// The error of running a description's draws.
fn error_of(json: &str, files: &[(&str, Vec<u8>)], options: DrawOptions) -> crate::Error {
    let description = describe(json, files);
    run_sequence(&description.draws, &mut ShaderCache::new(), options, None).unwrap_err()
}

/// A description whose second draw (`draws[1]`) sets `second`; the first draws nothing.
fn second_draw(second: &str) -> String {
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": 8, "height": 8,
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 16, "f32": [-1, -1, 0.5, 1, -1, 3, 0.5, 1, 3, -1, 0.5, 1]}}],
        "draws": [{{"vertex_count": 0}}, {{{second}}}]}}"#
    )
}

#[test]
fn bad_draws_are_errors_naming_the_draw_and_the_binding() {
    let files = || vec![("vs", vs_pos()), ("ps", ps_one())];
    let options = DrawOptions::default();
    let check = |e: crate::Error, words: &[&str]| {
        let text = e.to_string();
        assert!(text.contains("draws[1]"), "{text}");
        for word in words {
            assert!(text.contains(word), "{text} should say {word}");
        }
    };
    // an index past the vertex buffer's three vertices
    check(
        error_of(&second_draw(r#""indices": [0, 1, 5]"#), &files(), options),
        &["vertex 5", "slot 0"],
    );
    // an offset that takes the last vertex past the buffer's end
    check(
        error_of(
            &second_draw(
                r#""vertex_buffers": [{"stride": 16, "offset": 16, "f32": [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]}]"#,
            ),
            &files(),
            options,
        ),
        &["input assembler", "bytes"],
    );
    // a layout element past the stride
    check(
        error_of(
            &second_draw(r#""vertex_buffers": [{"stride": 12, "f32": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}]"#),
            &files(),
            options,
        ),
        &["12-byte stride"],
    );
    // a pixel input no vertex output carries
    check(
        error_of(
            &second_draw(r#""ps": "ps_interp""#),
            &[("vs", vs_pos()), ("ps", ps_one()), ("ps_interp", ps_interp())],
            options,
        ),
        &["ps", "ATTR0"],
    );
    // an unsupported topology (a patch list needs tessellation)
    check(
        error_of(
            &second_draw(r#""topology": "3_CONTROL_POINT_PATCHLIST""#),
            &files(),
            options,
        ),
        &["3_CONTROL_POINT_PATCHLIST"],
    );
    // a texture the pixel program declares and nothing binds
    let sampling = program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\n\
         dcl_resource_texture2d (float,float,float,float) t2\n\
         dcl_output o0.xyzw\n\
         ld o0.xyzw, l(0, 0, 0, 0), t2.xyzw\n\
         ret\n",
    );
    check(
        error_of(
            &second_draw(r#""ps": "sampling""#),
            &[("vs", vs_pos()), ("ps", ps_one()), ("sampling", sampling)],
            options,
        ),
        &["ps", "t2 is not bound"],
    );
    // a program that never ends runs past its instruction budget
    let endless = program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\ndcl_output o0.xyzw\nloop\nendloop\nmov o0.xyzw, l(0, 0, 0, 0)\nret\n",
    );
    let budget = DrawOptions {
        instruction_budget: 10_000,
        ..DrawOptions::default()
    };
    let files = [("vs", vs_pos()), ("ps", ps_one()), ("endless", endless)];
    let one_thread = error_of(
        &second_draw(r#""ps": "endless""#),
        &files,
        DrawOptions { threads: 1, ..budget },
    );
    check(one_thread.clone(), &["ps", "budget"]);
    // drawn in bands on three threads, the draw fails the same way (one band's error, not another's stop on it)
    let banded = error_of(
        &second_draw(r#""ps": "endless""#),
        &files,
        DrawOptions { threads: 3, ..budget },
    );
    assert_eq!(banded.to_string(), one_thread.to_string());
    // a vertex program without SV_Position
    let no_position = program(
        &[("POSITION", 0, "xyzw", "0", "NONE", "float")],
        &[("TEXCOORD", 0, "xyzw", "0", "NONE", "float")],
        "vs_4_0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n",
    );
    check(
        error_of(
            &second_draw(r#""vs": "bad""#),
            &[("vs", vs_pos()), ("ps", ps_one()), ("bad", no_position)],
            options,
        ),
        &["vs", "SV_Position"],
    );
}

#[test]
fn targets_of_different_sizes_and_formats_that_cannot_be_drawn_are_errors() {
    use crate::api::resource::{Resource, Texture, TextureShape};
    let description = describe(
        &second_draw("").replace(
            r#""width": 8,"#,
            r#""render_targets": ["R8G8B8A8_UNORM", "R8G8B8A8_UNORM"], "width": 8,"#,
        ),
        &[("vs", vs_pos()), ("ps", ps_one())],
    );
    let mut state = description.draws[1].clone();
    let shape = |width: u32, format| TextureShape {
        dimension: crate::api::enums::ResourceDimension::Texture2D,
        format,
        width,
        height: 8,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count: 1,
    };
    // target 1 is 4 x 8 where target 0 is 8 x 8
    let small = Texture::new(
        shape(4, crate::format::Format::R8G8B8A8Unorm),
        vec![Arc::from(vec![0u8; 4 * 8 * 4])],
    )
    .unwrap();
    state.render_targets[1].as_mut().unwrap().resource = Arc::new(Resource::Texture(small));
    let e = run_draw(&state, &mut ShaderCache::new(), None).unwrap_err().to_string();
    assert!(e.contains("draws[1]") && e.contains("render target 1 is 4x8"), "{e}");
    // a block-compressed render target
    let mut state = description.draws[1].clone();
    let bc = Texture::new(
        shape(8, crate::format::Format::Bc1Unorm),
        vec![Arc::from(vec![0u8; 32])],
    )
    .unwrap();
    let view = state.render_targets[1].as_mut().unwrap();
    view.resource = Arc::new(Resource::Texture(bc));
    view.desc.format = crate::format::Format::Bc1Unorm;
    let e = run_draw(&state, &mut ShaderCache::new(), None).unwrap_err().to_string();
    assert!(
        e.contains("draws[1]") && e.contains("render target 1") && e.contains("BC1"),
        "{e}"
    );
}

#[test]
fn the_ambiguity_mask_marks_centres_within_a_snapping_step_of_an_edge() {
    // the triangle (2.5, 1) (6.25, 1) (2.5, 7): its left side x = 2.5 runs through the centres of column 2, which a
    // different rounding could leave out, rows 1 to 6 being inside the other two sides. Its top y = 1 is half a
    // pixel from the nearest centres; its long side 8 x + 5 y = 55 has 8 x + 5 y - 55 = 8 px + 5 py - 48.5 at
    // centres, never 0, so at least 0.05 pixels away (a snapping step is 1/256). Exactly those six pixels are marked.
    // A vertex 1/600 pixel right of 2.5 snaps to 2.5 and changes nothing.
    for left in [2.5f32, 2.5 + 1. / 600.] {
        let positions = [
            clip(left, 1., 0.5, 1., 8.),
            clip(6.25, 1., 0.5, 1., 8.),
            clip(left, 7., 0.5, 1., 8.),
        ];
        let out = last(&counting(8, &positions, ""), &count_files());
        let marked: Vec<(usize, usize)> = (0..64).filter(|&i| out.ambiguous[i]).map(|i| (i % 8, i / 8)).collect();
        assert_eq!(
            marked,
            (1..=6).map(|y| (2, y)).collect::<Vec<_>>(),
            "left side at {left}"
        );
    }
    // a triangle whose sides are all half a pixel from every centre marks nothing
    let out = last(
        &counting(
            8,
            &[
                clip(1., 1., 0.5, 1., 8.),
                clip(7., 1., 0.5, 1., 8.),
                clip(1., 7., 0.5, 1., 8.),
            ],
            "",
        ),
        &count_files(),
    );
    // its long side x + y = 8 holds centres (x + y = px + py + 1): (3.5, 4.5) and the rest of that diagonal
    let marked: Vec<(usize, usize)> = (0..64).filter(|&i| out.ambiguous[i]).map(|i| (i % 8, i / 8)).collect();
    assert_eq!(marked, (1..=6).map(|y| (7 - y, y)).collect::<Vec<_>>());
}

#[test]
fn a_clipped_polygons_inner_diagonal_is_not_ambiguous() {
    // A full-screen triangle (0, 0) (16, 0) (0, 16) on an 8 x 8 target: clipping to the view volume (x, y in [-w, w])
    // cuts it to the square (0, 0) (8, 0) (8, 8) (0, 8), drawn as two fan triangles whose shared diagonal runs
    // through the centres of a diagonal of pixels. Both fan triangles use the same snapped ends, so the top-left rule
    // gives each of those centres to exactly one of them whatever the rounding: not ambiguous. The square's own
    // sides are half a pixel from every centre. So nothing is marked, and every pixel is covered once.
    let positions = [
        clip(0., 0., 0.5, 1., 8.),
        clip(16., 0., 0.5, 1., 8.),
        clip(0., 16., 0.5, 1., 8.),
    ];
    let out = last(&counting(8, &positions, ""), &count_files());
    let marked: Vec<(usize, usize)> = (0..64).filter(|&i| out.ambiguous[i]).map(|i| (i % 8, i / 8)).collect();
    assert_eq!(marked, Vec::<(usize, usize)>::new());
    assert_eq!(out.stats.shaded, 64);
}

/// A scene of two triangles with a depth test (LESS): the first at depth 0.5 covering x + y <= 6 of an 8 x 8 target,
/// the second over the whole target at depth 0.75, behind the first. The target counts the fragments written
/// (`R32_FLOAT`, blended ONE + ONE): 1 everywhere, the second triangle failing where the first was drawn.
fn depth_scene() -> String {
    let mut positions = corner_triangle(0.5).to_vec();
    // a triangle over the whole target at depth 0.75 (behind the first, in front of the clear)
    positions.extend([
        clip(-8., -8., 0.75, 1., 8.),
        clip(24., -8., 0.75, 1., 8.),
        clip(-8., 24., 0.75, 1., 8.),
    ]);
    counting(8, &positions, r#", "depth": {"format": "D32_FLOAT", "func": "LESS"}"#)
}

#[test]
fn a_pixels_history_is_what_the_draw_did_there() {
    // every pixel of the depth scene: the last fragment leaves what the full draw left, and the fragments are the
    // triangles covering it in order: where x + y <= 6 the first one (written) then the second (behind it: depth
    // failed); elsewhere only the second (written)
    let description = describe(&depth_scene(), &count_files());
    let state = &description.draws[0];
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::new(state, &mut cache, DrawOptions::default()).unwrap();
    let out = prepared.run(None).unwrap();
    let colour = out.render_targets[0].as_ref().unwrap();
    let depth = out.depth_stencil.as_ref().unwrap();
    for y in 0..8u32 {
        for x in 0..8u32 {
            let history = prepared.pixel_history(x, y, HistoryOptions::default()).unwrap();
            let i = (y * 8 + x) as usize;
            let after = &history.after;
            assert_eq!(
                &after.render_targets[0].unwrap().bytes[..4],
                &colour.bytes[i * 4..i * 4 + 4]
            );
            assert_eq!(after.depth.unwrap().to_le_bytes(), depth.bytes[i * 4..i * 4 + 4]);
            let outcomes: Vec<(u64, FragmentOutcome)> = history
                .fragments
                .iter()
                .map(|f| (f.primitive_index, f.outcome))
                .collect();
            let expected = if x + y <= 6 {
                vec![(0, FragmentOutcome::Written), (1, FragmentOutcome::DepthFailed)]
            } else {
                vec![(1, FragmentOutcome::Written)]
            };
            assert_eq!(outcomes, expected, "pixel ({x}, {y})");
            assert_eq!(history.before.depth, Some(1.0));
        }
    }
    // the depth record of the failed fragment at (0, 0): 0.75 against the first triangle's 0.5
    let history = prepared.pixel_history(0, 0, HistoryOptions::default()).unwrap();
    let record = history.fragments[1].depth_stencil.unwrap().depth.unwrap();
    assert_eq!(
        (record.incoming, record.stored, record.passed),
        (0.75, 0.5, Some(false))
    );
}

#[test]
fn a_pixels_history_shows_its_vertices_inputs_outputs_and_traces() {
    let description = describe(&attr_scene(8, 4, &interp_triangle(), ""), &interp_files());
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::new(&description.draws[0], &mut cache, DrawOptions::default()).unwrap();
    let options = HistoryOptions {
        trace_pixel: true,
        trace_vertex: Some((0, 1)),
    };
    let history = prepared.pixel_history(1, 2, options).unwrap();
    assert_eq!(history.fragments.len(), 1);
    let fragment = &history.fragments[0];
    // pixel (1, 2) is lane 1 (top-right) of the quad at (0, 2)
    assert_eq!((fragment.quad.x, fragment.quad.y, fragment.quad.lane), (0, 2, 1));
    assert_eq!(fragment.primitive_id, 0);
    // the second vertex: its input ATTR (1, 0, 0, 20) and its outputs, o0 the clip position (8, 0) at w 2
    let vertex = &fragment.vertices[1];
    assert_eq!(vertex.inputs[1], [1f32, 0., 0., 20.].map(f32::to_bits));
    assert_eq!(vertex.position, clip(8., 0., 0.6, 2., 8.));
    assert_eq!(vertex.outputs[3], [1f32, 0., 0., 20.].map(f32::to_bits));
    let trace = vertex.trace.as_ref().unwrap();
    assert_eq!(
        trace.steps.iter().map(|s| s.opcode).collect::<Vec<_>>(),
        ["mov", "mov", "mov", "mov", "ret"]
    );
    assert!(fragment.vertices[0].trace.is_none());
    // the flat input (v3) is the first vertex's words; the screen-linear v2.x is 0.1875 (the weight of vertex 1)
    let word = |register: u32, component: u8| {
        fragment
            .inputs
            .iter()
            .find(|i| i.register == register && i.component == component)
            .unwrap()
            .word
    };
    assert_eq!(word(3, 3), 10f32.to_bits());
    assert_eq!(word(2, 0), 0.1875f32.to_bits());
    assert_eq!(word(0, 0), 1.5f32.to_bits());
    // the program's trace: four movs then ret, the third mov writing the flat value to o2
    let program = fragment.program.as_ref().unwrap();
    let steps = &program.trace.as_ref().unwrap().steps;
    assert_eq!(steps.len(), 5);
    assert_eq!(
        steps[2].destinations,
        vec![(0xf, [0f32, 0., 0., 10.].map(f32::to_bits))]
    );
    assert_eq!(program.outputs[2], [0f32, 0., 0., 10.].map(f32::to_bits));
    // what was written to target 2 is the flat value
    let write = fragment.write.unwrap();
    assert_eq!(write.targets[2].unwrap().after.values, [0., 0., 0., 10.]);
    // it serializes for the viewer
    let json = serde_json::to_string(&history).unwrap();
    assert!(json.contains("\"fragments\""));
}

#[test]
fn a_pixels_history_rejects_far_triangles_by_their_bounds() {
    // 50 small triangles in a row along the top, the first of which covers pixel (0, 0) (centre (0.5, 0.5) inside
    // (0, 0) (2, 0) (0, 2)): the others' bounding boxes, from x = 3 on, miss it by more than a pixel and are never
    // rasterized
    let mut positions = Vec::new();
    for k in 0..50 {
        let x = k as f32 * 3.;
        positions.extend([
            clip(x, 0., 0.5, 1., 160.),
            clip(x + 2., 0., 0.5, 1., 160.),
            clip(x, 2., 0.5, 1., 160.),
        ]);
    }
    let description = describe(&counting(160, &positions, ""), &count_files());
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::new(&description.draws[0], &mut cache, DrawOptions::default()).unwrap();
    let history = prepared.pixel_history(0, 0, HistoryOptions::default()).unwrap();
    assert_eq!(history.fragments.len(), 1);
    assert_eq!((history.rasterized, history.rejected_by_bounds), (1, 49));
}

#[test]
fn progress_is_reported_and_a_callback_can_cancel_the_draw() {
    // 200 triangles: the callback sees the primitives counted up to 200 and is called at the start and the end
    let mut positions = Vec::new();
    for _ in 0..200 {
        positions.extend(corner_triangle(0.5));
    }
    let description = describe(&counting(8, &positions, ""), &count_files());
    let mut seen = Vec::new();
    let mut callback = |p: &Progress| {
        seen.push(*p);
        ControlFlow::Continue(())
    };
    let out = run_draw(&description.draws[0], &mut ShaderCache::new(), Some(&mut callback)).unwrap();
    assert_eq!(out.stats.triangles, 200);
    let last = seen.last().unwrap();
    assert_eq!(
        (last.primitives_done, last.primitives_total, last.vertices_done),
        (200, 200, 600)
    );
    assert!(seen.len() >= 2);
    assert!(seen.windows(2).all(|w| w[0].primitives_done <= w[1].primitives_done));
    // stopping at the first report cancels the draw
    let mut stop = |_: &Progress| ControlFlow::Break(());
    let e = run_draw(&description.draws[0], &mut ShaderCache::new(), Some(&mut stop)).unwrap_err();
    assert_eq!(e.detail, "cancelled");
    assert_eq!(e.what, "draw");
}

#[test]
fn a_long_draw_reports_progress_as_its_work_grows() {
    // each full-target triangle on 64 x 64 runs 1024 quads of a 2-instruction program: 8192 lane-instructions, so
    // 64 of them pass WORK_PER_REPORT (2^18) twice; each report is at most WORK_PER_REPORT (plus one batch) after
    // the one before
    let full = [
        clip(-64., -64., 0.5, 1., 64.),
        clip(192., -64., 0.5, 1., 64.),
        clip(-64., 192., 0.5, 1., 64.),
    ];
    let positions: Vec<[f32; 4]> = (0..64).flat_map(|_| full).collect();
    let description = describe(&counting(64, &positions, ""), &count_files());
    let mut reports = 0;
    let mut callback = |_: &Progress| {
        reports += 1;
        ControlFlow::Continue(())
    };
    run_draw(&description.draws[0], &mut ShaderCache::new(), Some(&mut callback)).unwrap();
    // the start, two for the work, the end
    assert_eq!(reports, 4);
}

/// `vs_distances`: the position, `ATTR.x` as `SV_ClipDistance0` and `ATTR.y` as `SV_CullDistance0`.
fn vs_distances() -> Vec<u8> {
    program(
        &[
            ("POSITION", 0, "xyzw", "0", "NONE", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
        ],
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("SV_ClipDistance", 0, "x", "1", "CLIPDST", "float"),
            ("SV_CullDistance", 0, "y", "1", "CULLDST", "float"),
        ],
        "vs_4_0\n\
         dcl_input v0.xyzw\n\
         dcl_input v1.xy\n\
         dcl_output_siv o0.xyzw, position\n\
         dcl_output_siv o1.x, clip_distance\n\
         dcl_output_siv o1.y, cull_distance\n\
         mov o0.xyzw, v0.xyzw\n\
         mov o1.xy, v1.xyxx\n\
         ret\n",
    )
}

#[test]
fn clip_distances_remove_pixels_and_cull_distances_whole_triangles() {
    // a triangle over the whole 8 x 8 target (screen corners (-8, -8), (24, -8), (-8, 24), w = 1) whose clip
    // distance is X - 4 at each corner: -12, 20, -12. Interpolated it is x - 4 at every centre, so the pixels with
    // x + 0.5 < 4 (columns 0 to 3) are removed (15.4.1)
    let corners = [(-8., -8.), (24., -8.), (-8., 24.)];
    let scene = |cull: [f32; 3]| {
        let vertices: Vec<_> = corners
            .iter()
            .zip(cull)
            .map(|(&(x, y), c)| (clip(x, y, 0.5, 1., 8.), [x - 4., c, 0., 0.]))
            .collect();
        let out = last(
            &attr_scene(8, 1, &vertices, ""),
            &[("vs", vs_distances()), ("ps", ps_one())],
        );
        let written: Vec<bool> = (0..8)
            .map(|x| rgba(out.render_targets[0].as_ref().unwrap(), x, 5) == [1.; 4])
            .collect();
        (out.stats, written)
    };
    let (stats, written) = scene([1., 1., 1.]);
    assert_eq!(written, [false, false, false, false, true, true, true, true]);
    assert_eq!((stats.clip_distance_removed, stats.written), (32, 32));
    // every corner below 0 in the cull distance: the triangle is dropped (15.4.2); one at 0 keeps it
    let (stats, _) = scene([-1., -1., -1.]);
    assert_eq!((stats.distance_culled, stats.rasterized), (1, 0));
    let (stats, _) = scene([-1., -1., 0.]);
    assert_eq!((stats.distance_culled, stats.rasterized), (0, 1));
}

#[test]
fn without_a_pixel_program_depth_is_tested_and_written_and_no_colour() {
    let json =
        counting(8, &corner_triangle(0.5), r#", "depth": {"format": "D32_FLOAT"}"#).replace(r#""ps": "ps", "#, "");
    let out = last(&json, &count_files());
    let d = depths(&out);
    assert_eq!((d[0], d[7]), (0.5, 1.0));
    assert!(floats(out.render_targets[0].as_ref().unwrap()).iter().all(|&v| v == 0.));
    assert_eq!((out.stats.shaded, out.stats.written), (0, 28));
}

#[test]
fn a_draw_without_a_geometry_program_uses_viewport_and_scissor_zero() {
    // a second viewport and scissor rectangle change nothing (15.8.1: without a geometry program, index 0)
    let json = counting(8, &corner_triangle(0.5), r#", "scissor": [0, 0, 4, 8]"#);
    let description = describe(&json, &count_files());
    let one = run_draw(&description.draws[0], &mut ShaderCache::new(), None).unwrap();
    let mut state = description.draws[0].clone();
    state.viewports.push(crate::api::viewport::Viewport {
        x: 4.,
        y: 4.,
        width: 2.,
        height: 2.,
        min_depth: 0.,
        max_depth: 1.,
    });
    state.scissor_rects.push(crate::api::viewport::Scissor::default());
    let two = run_draw(&state, &mut ShaderCache::new(), None).unwrap();
    assert_eq!(one.render_targets, two.render_targets);
    // the scissor keeps columns 0..4 of the 28 pixels: x + y <= 6 with x < 4 is 7 + 6 + 5 + 4 = 22
    assert_eq!(two.stats.written, 22);
}

#[test]
fn a_sequence_of_draws_shares_its_targets_and_builds_each_program_once() {
    // three draws of the counting scene add up: every covered texel reaches 3; the two programs are built once
    let json = counting(8, &corner_triangle(0.5), r#", "draws": [{}, {}, {}]"#);
    let description = describe(&json, &count_files());
    let mut cache = ShaderCache::new();
    let outputs = run_sequence(&description.draws, &mut cache, DrawOptions::default(), None).unwrap();
    assert_eq!(cache.len(), 2);
    let counts = counts(outputs[2].render_targets[0].as_ref().unwrap());
    assert_eq!(counts[0], "33333330");
    assert_eq!(counts[7], "00000000");
}

#[test]
fn a_programs_coverage_mask_decides_whether_its_one_sample_is_written() {
    // 16.9.4 and 17.17: with one sample, bit 0 of oMask covers it; 0xfffffffe leaves the pixel unwritten (and its
    // depth untested), 1 writes it
    let run = |mask: &str| {
        let ps = ps_with(
            "ps_5_0",
            &[("SV_Coverage", 0, "x", "oMask", "COVERAGE", "uint")],
            &format!("{WRITE_ONE}\ndcl_output oMask\nmov oMask, l({mask})"),
        );
        let json = counting(8, &corner_triangle(0.5), r#", "depth": {"format": "D32_FLOAT"}"#);
        last(&json, &[("vs", vs_pos()), ("ps", ps)])
    };
    let clear = run("0xfffffffe");
    assert_eq!((clear.stats.coverage_failed, clear.stats.written), (28, 0));
    assert!(depths(&clear).iter().all(|&d| d == 1.0));
    let set = run("1");
    assert_eq!((set.stats.coverage_failed, set.stats.written), (0, 28));
    assert_eq!(depths(&set)[0], 0.5);
}

#[test]
fn a_position_on_a_snapping_tie_goes_to_the_even_step() {
    // rectangles reaching from a left side at x to the right of the 8 x 8 target. x = 4.5 + 1/512 is 1152.5 steps of
    // 1/256: the tie goes to the even 1152 = 4.5, so the centres of column 4 lie on the (left, so drawn) edge. x = 3.5
    // + 3/512 is 897.5 steps: the tie goes to 898, right of the centres of column 3, which are not drawn. Rounding
    // ties up would leave column 4 out of the first; a coarser grid (1/16 pixel) would snap the second to 3.5 and draw
    // column 3. The reference's `tie` coverage cases (tests/draw_reference.rs) tell ties-to-even from the other
    // rounding rules on slanted edges.
    for (left, first_column) in [(4.5 + 1. / 512., 4), (3.5 + 3. / 512., 4)] {
        let rect = [
            clip(left, -1., 0.5, 1., 8.),
            clip(9., -1., 0.5, 1., 8.),
            clip(left, 9., 0.5, 1., 8.),
            clip(9., -1., 0.5, 1., 8.),
            clip(9., 9., 0.5, 1., 8.),
            clip(left, 9., 0.5, 1., 8.),
        ];
        let out = last(&counting(8, &rect, ""), &count_files());
        let row: String = (0..8).map(|x| if x >= first_column { '1' } else { '0' }).collect();
        assert_eq!(
            counts(out.render_targets[0].as_ref().unwrap()),
            vec![row; 8],
            "left side at {left}"
        );
    }
}

// ---- multisampling (3.5, 16.3.2, 16.4, 17.17, 17.18): targets of "sample_count" samples, dumped plane by plane

/// Sample `s` of texel (`x`, `y`) of a multisampled target of `components` float32 words a texel: plane `s` of the
/// resource layout (sample 0's plane first).
fn sample_floats(image: &TargetImage, components: usize, x: u32, y: u32, s: u32) -> Vec<f32> {
    let f = floats(image);
    let i = (((s * image.height + y) * image.width + x) as usize) * components;
    f[i..i + components].to_vec()
}

/// The 4x triangle of the rasterizer's test: right of x = 2.5625 and below y = 2.4375 on a 16 x 16 target, its
/// attribute the screen position (x, y, 0, 0). Pixel (2, 2) covers sample 3 alone, (3, 2) samples 2 and 3, (3, 3)
/// all four (19.2.4's 4x offsets (-2,-6), (6,-2), (-6,2), (2,6) sixteenths).
fn partial_4x() -> Vec<([f32; 4], [f32; 4])> {
    [(2.5625, 2.4375), (14., 2.4375), (2.5625, 14.)]
        .iter()
        .map(|&(x, y)| (clip(x, y, 0.5, 1., 16.), [x, y, 0., 0.]))
        .collect()
}

/// `ATTR0` with `linear centroid` to target 0, `ATTR1` with `linear` to target 1.
fn ps_centroid() -> Vec<u8> {
    program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
            ("ATTR", 1, "xyzw", "2", "NONE", "float"),
        ],
        &[
            ("SV_Target", 0, "xyzw", "0", "TARGET", "float"),
            ("SV_Target", 1, "xyzw", "1", "TARGET", "float"),
        ],
        "ps_4_0\n\
         dcl_input_ps linear centroid v1.xyzw\n\
         dcl_input_ps linear v2.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         mov o0.xyzw, v1.xyzw\n\
         mov o1.xyzw, v2.xyzw\n\
         ret\n",
    )
}

#[test]
fn centroid_inputs_take_the_first_covered_sample_and_centre_inputs_the_centre() {
    let json = attr_scene(16, 2, &partial_4x(), r#", "sample_count": 4"#);
    let files = [("vs", vs_attr()), ("ps", ps_centroid())];
    let out = last(&json, &files);
    let (centroid, centre) = (
        out.render_targets[0].as_ref().unwrap(),
        out.render_targets[1].as_ref().unwrap(),
    );
    assert_eq!(centroid.bytes.len(), 16 * 16 * 16 * 4);
    // pixel (2, 2) covers sample 3 only (3.5.5 (2)): the centroid is sample 3 at (2.5 + 2/16, 2.5 + 6/16); the
    // centre input is the centre, extrapolated; only sample 3 is written
    assert_eq!(sample_floats(centroid, 4, 2, 2, 3), [2.625, 2.875, 0., 0.]);
    assert_eq!(sample_floats(centre, 4, 2, 2, 3), [2.5, 2.5, 0., 0.]);
    for s in 0..3 {
        assert_eq!(sample_floats(centroid, 4, 2, 2, s), [-1.; 4], "sample {s}");
    }
    // pixel (3, 2) covers samples 2 and 3: the first, sample 2, is at (3.5 - 6/16, 2.5 + 2/16); both get the
    // program's one output (pixel frequency: broadcast)
    for s in [2, 3] {
        assert_eq!(sample_floats(centroid, 4, 3, 2, s), [3.125, 2.625, 0., 0.]);
        assert_eq!(sample_floats(centre, 4, 3, 2, s), [3.5, 2.5, 0., 0.]);
    }
    // pixel (3, 3) covers every sample (3.5.5 (1)): the centre
    for s in 0..4 {
        assert_eq!(sample_floats(centroid, 4, 3, 3, s), [3.5, 3.5, 0., 0.]);
    }
    // the pixel history of (2, 2): one fragment covering and writing sample 3
    let description = describe(&json, &files);
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::new(&description.draws[0], &mut cache, DrawOptions::default()).unwrap();
    let history = prepared.pixel_history(2, 2, HistoryOptions::default()).unwrap();
    assert_eq!(history.fragments.len(), 1);
    let fragment = &history.fragments[0];
    assert_eq!((fragment.covered_samples, fragment.written_samples), (0b1000, 0b1000));
    assert_eq!(fragment.samples.iter().map(|s| s.sample).collect::<Vec<_>>(), [3]);
    assert_eq!(fragment.outcome, FragmentOutcome::Written);
}

/// A 4 x 4 `R32_FLOAT` target of 4 samples cleared to -1, one triangle over all of it, `extra` added: screen corners
/// (0, 0), (12, 0), (0, 12) of a 12 x 12 viewport, so that nothing is clipped and no fan edge crosses the target.
fn full_4x(extra: &str) -> String {
    let positions = [
        clip(0., 0., 0.5, 1., 12.),
        clip(12., 0., 0.5, 1., 12.),
        clip(0., 12., 0.5, 1., 12.),
    ];
    let data: Vec<String> = positions.iter().flatten().map(|v| format!("{v:?}")).collect();
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": 4, "height": 4, "sample_count": 4,
        "render_targets": [{{"format": "R32_FLOAT", "clear": [-1, -1, -1, -1]}}],
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 16, "f32": [{}]}}], "rasterizer": {{"cull": "NONE"}},
        "viewport": {{"x": 0, "y": 0, "w": 12, "h": 12}}{extra}}}"#,
        data.join(", ")
    )
}

/// The value of each sample plane of a 4 x 4 `R32_FLOAT` target, when the plane holds one value (else NaN).
fn planes(image: &TargetImage) -> Vec<f32> {
    floats(image)
        .chunks(16)
        .map(|plane| {
            if plane.iter().all(|&v| v == plane[0]) {
                plane[0]
            } else {
                f32::NAN
            }
        })
        .collect()
}

#[test]
fn reading_sv_sample_index_runs_the_program_once_per_covered_sample_in_the_sample_mask() {
    // `SV_SampleIndex` makes the program run at sample frequency (16.3, 3.5.4): once per covered sample that is in
    // the SampleMask 0b1101, 16 pixels x 3 samples; each writes its sample's index to its own sample
    let ps = program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("SV_SampleIndex", 0, "x", "1", "SAMPLE", "uint"),
        ],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_1\n\
         dcl_input_ps_sgv constant v1.x, sampleIndex\n\
         dcl_output o0.xyzw\n\
         utof o0.xyzw, v1.xxxx\n\
         ret\n",
    );
    let out = last(
        &full_4x(r#", "blend": {"sample_mask": 13}"#),
        &[("vs", vs_pos()), ("ps", ps)],
    );
    assert_eq!((out.stats.shaded, out.stats.written), (48, 48));
    assert_eq!(planes(out.render_targets[0].as_ref().unwrap()), [0., -1., 2., 3.]);
    // a program that reads neither runs once per pixel and its output goes to every covered sample in the mask
    let out = last(
        &full_4x(r#", "blend": {"sample_mask": 13}"#),
        &[("vs", vs_pos()), ("ps", ps_one())],
    );
    assert_eq!((out.stats.shaded, out.stats.written), (16, 16));
    assert_eq!(planes(out.render_targets[0].as_ref().unwrap()), [1., -1., 1., 1.]);
}

#[test]
fn the_sample_mask_omask_and_alpha_to_coverage_pick_the_samples_written() {
    // oMask 0b0110 and SampleMask 0b1100: sample 2 alone (17.17, 16.9.4)
    let ps = ps_with(
        "ps_5_0",
        &[("SV_Coverage", 0, "x", "oMask", "COVERAGE", "uint")],
        &format!("{WRITE_ONE}\ndcl_output oMask\nmov oMask, l(6)"),
    );
    let out = last(
        &full_4x(r#", "blend": {"sample_mask": 12}"#),
        &[("vs", vs_pos()), ("ps", ps)],
    );
    assert_eq!(planes(out.render_targets[0].as_ref().unwrap()), [-1., -1., 1., -1.]);
    // alpha-to-coverage of o0.a = 0.5 at 4 samples: ceil(0.5 * 4) = 2 samples, 0 and 1 (17.18, our mask)
    let half = ps_with(
        "ps_4_0",
        &[],
        "dcl_output o0.xyzw\nmov o0.xyzw, l(1.000000, 1.000000, 1.000000, 0.500000)",
    );
    let out = last(
        &full_4x(r#", "blend": {"alpha_to_coverage": true}"#),
        &[("vs", vs_pos()), ("ps", half)],
    );
    assert_eq!(planes(out.render_targets[0].as_ref().unwrap()), [1., 1., -1., -1.]);
}

#[test]
fn each_sample_blends_against_its_own_value() {
    // additive blending: the first draw adds 1 to sample 0 only (SampleMask 1), the second to all: sample 0 holds
    // -1 + 1 + 1 = 1, the others -1 + 1 = 0
    let add = r#"{"targets": [{"enable": true, "src": "ONE", "dest": "ONE"}]"#;
    let extra = format!(r#", "draws": [{{"blend": {add}, "sample_mask": 1}}}}, {{"blend": {add}}}}}]"#);
    let out = last(&full_4x(&extra), &[("vs", vs_pos()), ("ps", ps_one())]);
    assert_eq!(planes(out.render_targets[0].as_ref().unwrap()), [1., 0., 0., 0.]);
}

#[test]
fn depth_is_interpolated_tested_and_written_at_each_sample() {
    // z = x / 16 on a 16 x 16 target (screen corners (0, 0) z 0, (16, 0) z 1, (0, 16) z 0): sample s of pixel (5, 3)
    // is at x = 5.5 + dx_s / 16, so its depth is (5.5 + dx_s / 16) / 16 with the 4x offsets dx = -2, 6, -6, 2
    let positions = [
        clip(0., 0., 0., 1., 16.),
        clip(16., 0., 1., 1., 16.),
        clip(0., 16., 0., 1., 16.),
    ];
    let json = counting(
        16,
        &positions,
        r#", "sample_count": 4, "depth": {"format": "D32_FLOAT"}"#,
    );
    let out = last(&json, &count_files());
    let depth = out.depth_stencil.as_ref().unwrap();
    assert_eq!(depth.bytes.len(), 16 * 16 * 4 * 4);
    let got: Vec<f32> = (0..4).map(|s| sample_floats(depth, 1, 5, 3, s)[0]).collect();
    assert_eq!(got, [5.375 / 16., 5.875 / 16., 5.125 / 16., 5.625 / 16.]);
    // a second draw of the same triangle at LESS fails at every sample
    let json = counting(
        16,
        &positions,
        r#", "sample_count": 4, "depth": {"format": "D32_FLOAT", "func": "LESS"}, "draws": [{}, {}]"#,
    );
    let outs = draw(&json, &count_files());
    assert_eq!(outs[1].stats.written, 0);
    assert_eq!(outs[1].stats.depth_failed, outs[0].stats.written);
}

#[test]
fn coverage_at_2x_8x_and_16x_follows_the_standard_patterns() {
    // the vertical edge x = 2.5 through pixel (2, y)'s centre, the triangle to its right (a left edge): the samples
    // with dx >= 0 are covered. 2x: sample 0 (dx 4); 8x: samples 0, 2, 6, 7; 16x: 0, 3, 5, 6, 7, 9 (dx 0), 13, 14
    let positions = [
        clip(2.5, 0., 0.5, 1., 8.),
        clip(8., 0., 0.5, 1., 8.),
        clip(2.5, 8., 0.5, 1., 8.),
    ];
    for (count, mask) in [(2u32, 0b01u32), (8, 0b1100_0101), (16, 0x62E9)] {
        let json = counting(8, &positions, &format!(r#", "sample_count": {count}"#));
        let out = last(&json, &count_files());
        let image = out.render_targets[0].as_ref().unwrap();
        let got = (0..count).fold(0u32, |m, s| {
            m | u32::from(sample_floats(image, 1, 2, 1, s)[0] == 1.) << s
        });
        assert_eq!(got, mask, "{count} samples");
    }
}

#[test]
fn a_linear_sample_input_runs_per_sample_at_each_samples_position() {
    // `linear sample` makes the program run at sample frequency (16.4) with the attribute at the sample: pixel (3, 2)
    // covers samples 2 at (3.5 - 6/16, 2.5 + 2/16) and 3 at (3.5 + 2/16, 2.5 + 6/16), each written with its own
    let ps = program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
        ],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_1\n\
         dcl_input_ps linear sample v1.xyzw\n\
         dcl_output o0.xyzw\n\
         mov o0.xyzw, v1.xyzw\n\
         ret\n",
    );
    let out = last(
        &attr_scene(16, 1, &partial_4x(), r#", "sample_count": 4"#),
        &[("vs", vs_attr()), ("ps", ps)],
    );
    let image = out.render_targets[0].as_ref().unwrap();
    assert_eq!(sample_floats(image, 4, 3, 2, 2), [3.125, 2.625, 0., 0.]);
    assert_eq!(sample_floats(image, 4, 3, 2, 3), [3.625, 2.875, 0., 0.]);
    assert_eq!(sample_floats(image, 4, 3, 2, 0), [-1.; 4]);
    // every invocation writes its one sample
    assert_eq!(out.stats.shaded, out.stats.written);
}

// ---- points, lines and wireframe (3.4.3–3.4.6, 15.13, 15.14)

/// A line-list scene on an 8 x 8 target for `ps_interp`: a line from screen (1.5, 2.5) at depth 0.25 and clip w 1 to
/// (5.5, 2.5) at depth 0.75 and w 2, attributes (0, 0, 0, 10) and (4, 0, 0, 50).
fn line_scene(extra: &str) -> String {
    attr_scene(
        8,
        4,
        &[
            (clip(1.5, 2.5, 0.25, 1., 8.), [0., 0., 0., 10.]),
            (clip(5.5, 2.5, 0.75, 2., 8.), [4., 0., 0., 50.]),
        ],
        &format!(r#", "topology": "LINELIST"{extra}"#),
    )
}

#[test]
fn a_horizontal_line_lights_the_pixels_it_exits_and_interpolates_along_its_major_axis() {
    let out = last(&line_scene(""), &interp_files());
    let [persp, linear, flat, position] = [0, 1, 2, 3].map(|i| out.render_targets[i].as_ref().unwrap());
    // 3.4.3: the line starts at pixel (1, 2)'s centre (inside its diamond) and ends at (5, 2)'s: it exits the
    // diamonds of pixels 1 to 4 of row 2 and lights nothing else
    for y in 0..8 {
        for x in 0..8 {
            let lit = y == 2 && (1..=4).contains(&x);
            assert_eq!(rgba(flat, x, y)[3] != -1., lit, "pixel ({x}, {y})");
        }
    }
    for x in 1..=4u32 {
        // t = (x + 0.5 - 1.5) / 4 along x; screen-linear weights (1 - t, t); over w (1 and 2): (1 - t, t / 2), so the
        // perspective weight of the end is t / (2 - t) and w = 1 / (1 - t / 2); the depth is 0.25 + 0.5 t
        let t = f64::from(x - 1) / 4.;
        let p = t / (2. - t);
        let l = rgba(linear, x, 2);
        assert!(
            near(l[0], 4. * t) && near(l[3], 10. + 40. * t),
            "linear {l:?} at t = {t}"
        );
        let q = rgba(persp, x, 2);
        assert!(
            near(q[0], 4. * p) && near(q[3], 10. + 40. * p),
            "perspective {q:?} at t = {t}"
        );
        // a flat attribute is the leading (first) vertex's
        assert_eq!(rgba(flat, x, 2), [0., 0., 0., 10.]);
        let s = rgba(position, x, 2);
        assert_eq!([s[0], s[1]], [x as f32 + 0.5, 2.5]);
        assert!(
            near(s[2], 0.25 + 0.5 * t) && near(s[3], 1. / (1. - t / 2.)),
            "SV_Position {s:?}"
        );
    }
    assert_eq!((out.stats.triangles, out.stats.rasterized, out.stats.shaded), (1, 1, 4));
}

#[test]
fn a_pixels_history_records_a_line_fragment_with_its_kind() {
    let description = describe(&line_scene(""), &interp_files());
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::new(&description.draws[0], &mut cache, DrawOptions::default()).unwrap();
    let out = prepared.run(None).unwrap();
    let history = prepared.pixel_history(3, 2, HistoryOptions::default()).unwrap();
    assert_eq!(history.fragments.len(), 1);
    let f = &history.fragments[0];
    assert_eq!(
        (f.primitive_index, f.kind, f.front_facing, f.outcome),
        (0, PrimitiveKind::Line, true, FragmentOutcome::Written)
    );
    // t = 1/2: screen weights (1/2, 1/2) on the start and end
    assert_eq!(f.screen_weights, [0.5, 0.5, 0.]);
    let i = (2 * 8 + 3) * 16;
    assert_eq!(
        &history.after.render_targets[0].unwrap().bytes[..16],
        &out.render_targets[0].as_ref().unwrap().bytes[i..i + 16]
    );
    // the end pixel (5, 2) has no fragment
    assert!(
        prepared
            .pixel_history(5, 2, HistoryOptions::default())
            .unwrap()
            .fragments
            .is_empty()
    );
}

#[test]
fn points_light_the_pixel_centres_their_square_holds_front_facing_with_the_vertex_values() {
    // a point at (2.5, 2.5): its square [2, 3) x [2, 3) holds pixel (2, 2)'s centre only; a point at the corner
    // (5, 5): its square [4.5, 5.5) holds (4, 4)'s centre on its top-left corner (top-left rule), not (5, 5)'s
    let vertices: Vec<_> = [(2.5, 2.5, 7.), (5., 5., 9.)]
        .iter()
        .map(|&(x, y, a)| (clip(x, y, 0.5, 1., 8.), [0., 0., 0., a]))
        .collect();
    let scene = attr_scene(8, 1, &vertices, r#", "topology": "POINTLIST""#).replace(
        r#""render_targets": [{"format": "R32G32B32A32_FLOAT", "clear": [-1, -1, -1, -1]}]"#,
        r#""render_targets": [{"format": "R32G32B32A32_FLOAT", "clear": [-1, -1, -1, -1]}, "R32G32B32A32_UINT"]"#,
    );
    let out = last(&scene, &[("vs", vs_attr()), ("ps", ps_ids())]);
    let (colour, ids) = (
        out.render_targets[0].as_ref().unwrap(),
        out.render_targets[1].as_ref().unwrap(),
    );
    for y in 0..8 {
        for x in 0..8 {
            let expected = match (x, y) {
                (2, 2) => Some((7., 0)),
                (4, 4) => Some((9., 1)),
                _ => None,
            };
            match expected {
                // 15.12: points are front facing (IsFrontFace 0xFFFFFFFF)
                Some((a, id)) => {
                    assert_eq!(rgba(colour, x, y)[3], a);
                    assert_eq!(uints(ids, x, y), [id, u32::MAX, 0, 0]);
                }
                None => assert_eq!(rgba(colour, x, y), [-1.; 4], "pixel ({x}, {y})"),
            }
        }
    }
}

/// A counting scene of one triangle (1.5, 1.5), (5.5, 1.5), (1.5, 5.5) (clockwise on screen: front facing) drawn in
/// wireframe with `rasterizer` keys.
fn wireframe_scene(rasterizer: &str) -> String {
    let positions = [(1.5, 1.5), (5.5, 1.5), (1.5, 5.5)].map(|(x, y)| clip(x, y, 0.5, 1., 8.));
    counting(
        8,
        &positions,
        &format!(r#", "rasterizer": {{"fill": "WIREFRAME", {rasterizer}}}"#),
    )
}

#[test]
fn wireframe_draws_the_edges_of_the_triangles_culling_keeps() {
    // 15.13: the edges v0 -> v1, v1 -> v2, v2 -> v0 as aliased lines through pixel centres. v0 -> v1 exits the
    // diamonds of (1..=4, 1) and ends in (5, 1)'s; v1 -> v2 (x + y = 7, x-major) starts in (5, 1) and exits it, then
    // (4, 2), (3, 3), (2, 4), and ends in (1, 5); v2 -> v0 (up) exits (1, 5), (1, 4), (1, 3), (1, 2) and ends in
    // (1, 1). Each pixel once.
    let drawn = [
        "00000000", "01111100", "01001000", "01010000", "01100000", "01000000", "00000000", "00000000",
    ];
    let out = last(&wireframe_scene(r#""cull": "BACK""#), &count_files());
    assert_eq!(counts(out.render_targets[0].as_ref().unwrap()), drawn);
    // culling is the solid triangle's: a front-facing triangle culled as front draws nothing
    let culled = last(&wireframe_scene(r#""cull": "FRONT""#), &count_files());
    assert_eq!(culled.stats.culled, 1);
    assert!(
        counts(culled.render_targets[0].as_ref().unwrap())
            .iter()
            .all(|r| r == "00000000")
    );
    // MultisampleEnable: each edge a 1.4-wide quadrilateral (3.4.5), drawn one after the other. The top edge's spans
    // y in [0.8, 2.2] from x = 1.5 (its left side: included) to 5.5 (right side: not), so it holds the centres
    // (1..=4, 1); the left edge's spans x in [0.8, 2.2] from y = 1.5 (its top side: included) down to 5.5, so it holds
    // (1, 1) too, which is counted twice, and (1, 2..=4); the diagonal's centres off the line are sqrt(2)/2 > 0.7 from
    // it (none in row 1)
    let quad = last(
        &wireframe_scene(r#""cull": "NONE", "multisample": true"#),
        &count_files(),
    );
    let rows = counts(quad.render_targets[0].as_ref().unwrap());
    assert_eq!(rows[1], "02111000", "{rows:?}");
    assert!((2..=4).all(|y| &rows[y][1..2] == "1"), "{rows:?}");
}

#[test]
fn a_quadrilateral_line_covers_the_centres_of_its_rectangle_and_an_aliased_one_its_exited_diamonds() {
    // from (1.5, 2.0) to (5.5, 2.0): aliased, y = 2.0 is the bottom corner of row 1's diamonds (included): row 1,
    // x = 1..=4 (x = 5's diamond holds the end); as a quadrilateral (MultisampleEnable, 3.4.5) the rectangle
    // y in [1.3, 2.7], x in [1.5, 5.5] holds the centres of rows 1 and 2 from x = 1.5 (its left edge, included) to
    // 4.5 (5.5 is on its right edge, excluded)
    let positions = [clip(1.5, 2., 0.5, 1., 8.), clip(5.5, 2., 0.5, 1., 8.)];
    let aliased = last(&counting(8, &positions, r#", "topology": "LINELIST""#), &count_files());
    let rows = counts(aliased.render_targets[0].as_ref().unwrap());
    assert_eq!((rows[1].as_str(), rows[2].as_str()), ("01111000", "00000000"));
    let quad = last(
        &counting(
            8,
            &positions,
            r#", "topology": "LINELIST", "rasterizer": {"cull": "NONE", "multisample": true}"#,
        ),
        &count_files(),
    );
    let rows = counts(quad.render_targets[0].as_ref().unwrap());
    assert_eq!((rows[1].as_str(), rows[2].as_str()), ("01111000", "01111000"));
}

#[test]
fn an_antialiased_lines_coverage_multiplies_the_programs_alpha() {
    // AntialiasedLineEnable (3.4.4): the rectangle 1 wide around the line from (1, 2.75) to (5, 2.75) spans y in
    // [2.25, 3.25]: it covers 3/4 of pixels (1..=4, 2) and 1/4 of (1..=4, 3); ps_one writes alpha 1
    let positions = [clip(1., 2.75, 0.5, 1., 8.), clip(5., 2.75, 0.5, 1., 8.)];
    let scene = counting(
        8,
        &positions,
        r#", "topology": "LINELIST", "rasterizer": {"cull": "NONE", "antialiased_line": true}"#,
    )
    .replace(r#""rt_format": "R32_FLOAT""#, r#""rt_format": "R32G32B32A32_FLOAT""#)
    .replace(
        r#""blend": {"targets": [{"enable": true, "src": "ONE", "dest": "ONE"}]}"#,
        r#""blend": {"targets": [{"enable": false}]}"#,
    );
    let out = last(&scene, &count_files());
    let target = out.render_targets[0].as_ref().unwrap();
    for y in 0..8 {
        for x in 0..8 {
            let alpha = match (x, y) {
                (1..=4, 2) => 0.75,
                (1..=4, 3) => 0.25,
                _ => 0.,
            };
            assert_eq!(rgba(target, x, y)[3], alpha, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn line_strips_and_adjacency_lists_draw_their_segments() {
    // LINESTRIP (1.5, 1.5) -> (5.5, 1.5) -> (5.5, 5.5): row 1 x = 1..=4, then column 5 y = 1..=4 (its start (5, 1)
    // is exited, the shared vertex lit once); LINELIST_ADJ of the same three with adjacency vertices around the
    // first segment draws it alone
    let strip = [(1.5, 1.5), (5.5, 1.5), (5.5, 5.5)].map(|(x, y)| clip(x, y, 0.5, 1., 8.));
    let out = last(&counting(8, &strip, r#", "topology": "LINESTRIP""#), &count_files());
    let rows = counts(out.render_targets[0].as_ref().unwrap());
    assert_eq!(
        rows[..6],
        ["00000000", "01111100", "00000100", "00000100", "00000100", "00000000"]
    );
    let adjacency = [(0.5, 7.5), (1.5, 1.5), (5.5, 1.5), (7.5, 7.5)].map(|(x, y)| clip(x, y, 0.5, 1., 8.));
    let out = last(
        &counting(8, &adjacency, r#", "topology": "LINELIST_ADJ""#),
        &count_files(),
    );
    let rows = counts(out.render_targets[0].as_ref().unwrap());
    assert_eq!(rows.iter().filter(|r| *r != "00000000").count(), 1);
    assert_eq!(rows[1], "01111000");
}

/// `ATTR0` (`linear`), `ATTR1` (`linear noperspective`) and `ATTR2` (`constant`) evaluated by the pull-model
/// instructions (16.5): target 0 `eval_snapped` of ATTR0 at (4, -8) sixteenths, target 1 `eval_sample_index` of ATTR0
/// at sample 1, target 2 `eval_centroid` of ATTR0, target 3 `eval_snapped` of ATTR1 at (4, -8), target 4
/// `eval_sample_index` of ATTR2 at sample 2.
fn ps_pull() -> Vec<u8> {
    program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
            ("ATTR", 1, "xyzw", "2", "NONE", "float"),
            ("ATTR", 2, "xyzw", "3", "NONE", "float"),
        ],
        &[
            ("SV_Target", 0, "xyzw", "0", "TARGET", "float"),
            ("SV_Target", 1, "xyzw", "1", "TARGET", "float"),
            ("SV_Target", 2, "xyzw", "2", "TARGET", "float"),
            ("SV_Target", 3, "xyzw", "3", "TARGET", "float"),
            ("SV_Target", 4, "xyzw", "4", "TARGET", "float"),
        ],
        "ps_5_0\n\
         dcl_input_ps linear sample v1.xyzw\n\
         dcl_input_ps linear noperspective centroid v2.xyzw\n\
         dcl_input_ps constant v3.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_output o2.xyzw\n\
         dcl_output o3.xyzw\n\
         dcl_output o4.xyzw\n\
         eval_snapped o0.xyzw, v1.xyzw, l(4, -8, 0, 0)\n\
         eval_sample_index o1.xyzw, v1.xyzw, l(1)\n\
         eval_centroid o2.xyzw, v1.xyzw\n\
         eval_snapped o3.xyzw, v2.xyzw, l(4, -8, 0, 0)\n\
         eval_sample_index o4.xyzw, v3.xyzw, l(2)\n\
         ret\n",
    )
}

#[test]
fn pull_model_instructions_evaluate_attributes_where_they_say() {
    // the 4x triangle with the screen position as its attribute (w = 1 everywhere, so perspective-correct is
    // screen-linear here); the declared `sample` and `centroid` modifiers are ignored by the eval instructions (16.5)
    // but `sample` makes the program run per sample (3.5.4), so every covered sample gets the same pulled values
    let json = attr_scene(16, 5, &partial_4x(), r#", "sample_count": 4"#);
    let out = last(&json, &[("vs", vs_attr()), ("ps", ps_pull())]);
    let t = |i: usize| out.render_targets[i].as_ref().unwrap();
    // pixel (3, 3), every sample covered: (4, -8)/16 from the centre is (3.75, 3.0); sample 1 is (6, -2)/16 away:
    // (3.875, 3.375); the centroid of a fully covered pixel is its centre (3.5.5 (1))
    for s in 0..4 {
        assert_eq!(sample_floats(t(0), 4, 3, 3, s), [3.75, 3.0, 0., 0.], "sample {s}");
        assert_eq!(sample_floats(t(1), 4, 3, 3, s), [3.875, 3.375, 0., 0.], "sample {s}");
        assert_eq!(sample_floats(t(2), 4, 3, 3, s), [3.5, 3.5, 0., 0.], "sample {s}");
        assert_eq!(sample_floats(t(3), 4, 3, 3, s), [3.75, 3.0, 0., 0.], "sample {s}");
        // constant: the provoking (first) vertex's attribute whatever the sample
        assert_eq!(sample_floats(t(4), 4, 3, 3, s), [2.5625, 2.4375, 0., 0.], "sample {s}");
    }
    // pixel (2, 2) covers sample 3 only: the centroid is sample 3, (2, 6)/16 from (2.5, 2.5); the snapped point
    // (2.75, 2.0) and sample 1 (2.875, 2.375) lie outside the triangle, extrapolated from its plane
    assert_eq!(sample_floats(t(0), 4, 2, 2, 3), [2.75, 2.0, 0., 0.]);
    assert_eq!(sample_floats(t(1), 4, 2, 2, 3), [2.875, 2.375, 0., 0.]);
    assert_eq!(sample_floats(t(2), 4, 2, 2, 3), [2.625, 2.875, 0., 0.]);
    // pixel (3, 2) covers samples 2 and 3: the centroid is sample 2, (-6, 2)/16 from (3.5, 2.5)
    for s in [2, 3] {
        assert_eq!(sample_floats(t(2), 4, 3, 2, s), [3.125, 2.625, 0., 0.], "sample {s}");
    }
}

#[test]
fn a_pulled_perspective_attribute_is_perspective_correct_at_its_offset() {
    // the interpolation triangle (w 1, 2, 4) with one sample a pixel: at pixel (1, 1), (4, -8)/16 from the centre is
    // (1.75, 1.0), screen weights (1 - 1.75/8 - 1/8, 1.75/8, 1/8) = (0.65625, 0.21875, 0.125); over w 0.65625,
    // 0.109375, 0.03125, summing to 0.796875: ATTR0.w = (6.5625 + 2.1875 + 0.9375) / 0.796875 = 9.6875 / 0.796875;
    // ATTR1 (noperspective) .w = 10 * 0.65625 + 20 * 0.21875 + 30 * 0.125 = 14.6875
    let out = last(
        &attr_scene(8, 5, &interp_triangle(), ""),
        &[("vs", vs_attr()), ("ps", ps_pull())],
    );
    let t = |i: usize| out.render_targets[i].as_ref().unwrap();
    let p = rgba(t(0), 1, 1);
    let expected = [0.109375 / 0.796875, 0.03125 / 0.796875, 0., 9.6875 / 0.796875];
    for (a, b) in p.iter().zip(expected) {
        assert!(near(*a, b), "perspective {p:?} against {expected:?}");
    }
    assert_eq!(rgba(t(3), 1, 1), [0.21875, 0.125, 0., 14.6875]);
    // one sample a pixel: sample 1 does not exist (16.5.2: undefined); Iridia evaluates at the centre, which is
    // what the attribute reads there, and the centroid of a covered one-sample pixel is its centre
    let centre = rgba(t(2), 1, 1);
    assert_eq!(rgba(t(1), 1, 1), centre);
    // pixel (1, 2)'s centre value, worked out in the interpolation test: w = 64/43 ... (6/43, 5/43, 0, 590/43)
    let c = rgba(t(2), 1, 2);
    let expected = [6. / 43., 5. / 43., 0., 590. / 43.];
    for (a, b) in c.iter().zip(expected) {
        assert!(near(*a, b), "centroid {c:?} against {expected:?}");
    }
}

/// `vCoverage` as a float to `o0.x`, the `linear centroid` attribute's x and y to `o0.yz`.
fn ps_coverage_centroid() -> Vec<u8> {
    program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("ATTR", 0, "xyzw", "1", "NONE", "float"),
        ],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_5_0\n\
         dcl_input vCoverage\n\
         dcl_input_ps linear centroid v1.xy\n\
         dcl_output o0.xyzw\n\
         utof o0.x, vCoverage.x\n\
         mov o0.yz, v1.xxyx\n\
         mov o0.w, l(0)\n\
         ret\n",
    )
}

#[test]
fn a_forced_sample_count_rasterizes_at_its_pattern_into_a_single_sampled_target() {
    // 3.5.6: ForcedSampleCount 4 on a one-sample target: a pixel is shaded when the triangle covers any of the 4x
    // standard positions; vCoverage is that coverage (not masked by the SampleMask, which is of the output samples),
    // the centroid is taken over it, and the one output sample is written. The partial 4x triangle: pixel (2, 2)
    // covers sample 3 alone (its centre is outside: x 2.5 < 2.5625), (3, 2) samples 2 and 3, (3, 3) all four.
    let extra = r#", "rasterizer": {"cull": "NONE", "forced_sample_count": 4}"#;
    let out = last(
        &attr_scene(16, 1, &partial_4x(), extra),
        &[("vs", vs_attr()), ("ps", ps_coverage_centroid())],
    );
    let image = out.render_targets[0].as_ref().unwrap();
    assert_eq!(image.bytes.len(), 16 * 16 * 16);
    assert_eq!(rgba(image, 2, 2), [8., 2.625, 2.875, 0.]);
    assert_eq!(rgba(image, 3, 2), [12., 3.125, 2.625, 0.]);
    assert_eq!(rgba(image, 3, 3), [15., 3.5, 3.5, 0.]);
    assert_eq!(rgba(image, 1, 1), [-1.; 4]);
    // the same draw without the forced count: pixel (2, 2)'s centre is outside, so it keeps the clear
    let plain = last(
        &attr_scene(16, 1, &partial_4x(), ""),
        &[("vs", vs_attr()), ("ps", ps_coverage_centroid())],
    );
    assert_eq!(rgba(plain.render_targets[0].as_ref().unwrap(), 2, 2), [-1.; 4]);
    // a SampleMask without the output's sample 0 writes nothing, though every pixel is shaded
    let masked = last(
        &attr_scene(
            16,
            1,
            &partial_4x(),
            r#", "rasterizer": {"cull": "NONE", "forced_sample_count": 4}, "blend": {"sample_mask": 14}"#,
        ),
        &[("vs", vs_attr()), ("ps", ps_coverage_centroid())],
    );
    assert_eq!(masked.stats.written, 0);
    assert_eq!(masked.stats.shaded, out.stats.shaded);
}

#[test]
fn a_forced_sample_count_of_one_writes_every_sample_of_a_multisampled_pixel_its_centre_covers() {
    // ForcedSampleCount 1 (D3D10.0's centre-sampled mode): on a 4x target, pixel (3, 2)'s centre (3.5, 2.5) is
    // covered, so all four of its samples are written, though the triangle covers only samples 2 and 3 of them;
    // pixel (2, 2)'s centre is outside, so none of its samples is written
    let extra = r#", "sample_count": 4, "rasterizer": {"cull": "NONE", "forced_sample_count": 1}"#;
    let out = last(
        &attr_scene(16, 1, &partial_4x(), extra),
        &[("vs", vs_attr()), ("ps", ps_coverage_centroid())],
    );
    let image = out.render_targets[0].as_ref().unwrap();
    for s in 0..4 {
        // one sample a pixel at the centre: vCoverage 1, the centroid the centre
        assert_eq!(sample_floats(image, 4, 3, 2, s), [1., 3.5, 2.5, 0.], "sample {s}");
        assert_eq!(sample_floats(image, 4, 2, 2, s), [-1.; 4], "sample {s}");
    }
}

#[test]
fn forced_sample_counts_the_spec_leaves_undefined_are_refused_by_name() {
    let files = [("vs", vs_attr()), ("ps", ps_coverage_centroid())];
    let error = |extra: &str| {
        let description = describe(&attr_scene(16, 1, &partial_4x(), extra), &files);
        run_sequence(
            &description.draws,
            &mut ShaderCache::new(),
            DrawOptions::default(),
            None,
        )
        .unwrap_err()
        .to_string()
    };
    let e = error(r#", "rasterizer": {"cull": "NONE", "forced_sample_count": 2}"#);
    assert!(e.contains("ForcedSampleCount 2 is not 0, 1, 4, 8 or 16"), "{e}");
    let e = error(r#", "sample_count": 4, "rasterizer": {"cull": "NONE", "forced_sample_count": 4}"#);
    assert!(e.contains("needs single-sampled render targets"), "{e}");
    let e = error(r#", "depth": {"format": "D32_FLOAT"}, "rasterizer": {"cull": "NONE", "forced_sample_count": 4}"#);
    assert!(e.contains("with a depth-stencil view bound"), "{e}");
}

#[test]
fn the_ambiguity_mask_of_a_multisampled_draw_marks_each_sample_on_an_edge() {
    // a left edge at x = 2.375 runs through sample 0 of the pixels in column 2 (19.2.4's 4x offset (-2, -6)
    // sixteenths from the centre 2.5), 32/256 px from their centres and further from their other samples: only
    // sample 0's plane marks column 2 (row 1 here, far from the triangle's other edges)
    let positions = [
        clip(2.375, 0., 0.5, 1., 8.),
        clip(8., 0., 0.5, 1., 8.),
        clip(2.375, 8., 0.5, 1., 8.),
    ];
    let out = last(&counting(8, &positions, r#", "sample_count": 4"#), &count_files());
    assert_eq!(out.ambiguous.len(), 4 * 64);
    let marked = |s: usize, x: usize, y: usize| out.ambiguous[s * 64 + y * 8 + x];
    assert!(marked(0, 2, 1));
    for s in 1..4 {
        assert!(!marked(s, 2, 1), "sample {s}");
    }
    assert!(!marked(0, 3, 1));
    // one sample a pixel: the centres are 32/256 px from the edge, nothing in column 2 is marked
    let single = last(&counting(8, &positions, ""), &count_files());
    assert_eq!(single.ambiguous.len(), 64);
    assert!(!single.ambiguous[8 + 2]);
}

#[test]
fn a_draw_of_no_vertex_and_four_billion_instances_keeps_no_vertex_cache() {
    // DrawInstanced(0, 2^32 - 1): the cache's slots alone (8 bytes each) would be 34 GB; the cost of a slot counts
    // against the cache's limit (MAX_KEPT_WORDS words), so the draw keeps none.
    let json = counting(4, &[], r#", "vertex_count": 0, "instance_count": 4294967295"#);
    let description = describe(&json, &count_files());
    let prepared = PreparedDraw::new(&description.draws[0], &mut ShaderCache::new(), DrawOptions::default()).unwrap();
    assert!(prepared.cache.is_empty(), "{} cache slots", prepared.cache.len());
    // a small instanced draw still caches each instance's vertices
    let json = counting(4, &[[0.0, 0.0, 0.0, 1.0]; 3], r#", "instance_count": 4"#);
    let description = describe(&json, &count_files());
    let prepared = PreparedDraw::new(&description.draws[0], &mut ShaderCache::new(), DrawOptions::default()).unwrap();
    assert_eq!(prepared.cache.len(), 4);
}

#[test]
fn a_draw_past_its_work_limit_fails_with_a_budget_error_naming_it() {
    use crate::error::ErrorKind;
    // a pixel program looping 1,000 times per pixel (each iteration a few instructions), on an 8x8 target: some
    // 64 pixels x 1,000 iterations x 4 instructions, far past a limit of 100,000 units, far within the per-batch
    // instruction budget
    let looping = program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, l(0)\nloop\nige r0.y, r0.x, l(1000)\nbreakc_nz r0.y\n\
         iadd r0.x, r0.x, l(1)\nendloop\nmov o0.xyzw, l(1, 1, 1, 1)\nret\n",
    );
    let files = [("vs", vs_pos()), ("ps", ps_one()), ("looping", looping)];
    let limited = DrawOptions {
        work_limit: 100_000,
        ..DrawOptions::default()
    };
    for threads in [1, 3] {
        let error = error_of(
            &second_draw(r#""ps": "looping""#),
            &files,
            DrawOptions { threads, ..limited },
        );
        assert_eq!(error.kind, ErrorKind::Budget, "{error}");
        assert!(error.to_string().contains("work limit of 100000 units"), "{error}");
        assert!(error.to_string().contains("--max-work"), "{error}");
    }
    // the same draw within the default limit finishes
    let description = describe(&second_draw(r#""ps": "looping""#), &files);
    run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap();
    // a billion instances of a triangle no bigger than nothing (3 * 10^9 vertices, within the 2^32 a draw may make):
    // each instance's vertices count, so the draw stops at the limit instead of running for days
    let json = counting(4, &[[0.0, 0.0, 0.0, 1.0]; 3], r#", "instance_count": 1000000000"#);
    let description = describe(&json, &count_files());
    let error = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions {
            work_limit: 1 << 14,
            ..DrawOptions::default()
        },
        None,
    )
    .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Budget, "{error}");
}

/// `ps_uav`: each pixel stores (x, y) at structure `y * 4 + x` of `u1` and adds 1 to word 0 of the raw `u2`; pixels
/// in the right half (x >= 2) `discard` first. `o0` gets 1.
fn ps_uav() -> Vec<u8> {
    program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_5_0\n\
         dcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_output o0.xyzw\n\
         dcl_uav_structured u1, 8\n\
         dcl_uav_raw u2\n\
         dcl_temps 1\n\
         ftou r0.xy, v0.xyxx\n\
         uge r0.z, r0.x, l(2)\n\
         discard_nz r0.z\n\
         imad r0.w, r0.y, l(4), r0.x\n\
         store_structured u1.xy, r0.w, l(0), r0.xyxx\n\
         atomic_iadd u2, l(0), l(1)\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    )
}

/// A pixel program's UAVs (5.3.9): a 4x4 target covered by two triangles; every pixel of the left half (8) stores its
/// position and counts itself, the right half discards before (22.5.1: no memory written), helper lanes write
/// nothing (22.17.8). Two draws of the same description: the second sees the first's count (the UAV is bound once,
/// its contents carry on: 16).
#[test]
fn a_pixel_program_writes_its_unordered_access_views() {
    let json = r#"{"vs": "vs", "ps": "ps", "width": 4, "height": 4, "rt_format": "R32_FLOAT",
        "input_layout": [{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}],
        "vertex_buffers": [{"stride": 16, "f32": [-1, 1, 0, 1, 1, 1, 0, 1, -1, -1, 0, 1,
                                                   1, 1, 0, 1, 1, -1, 0, 1, -1, -1, 0, 1]}],
        "vertex_count": 6, "rasterizer": {"cull": "NONE"},
        "uavs": [{"slot": 1, "kind": "structured", "stride": 8, "elements": 16, "u32": [
                    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
                    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99]},
                 {"slot": 2, "kind": "raw", "elements": 1}],
        "draws": [{}, {}]}"#;
    let outputs = draw(json, &[("vs", vs_pos()), ("ps", ps_uav())]);
    let words = |bytes: &[u8]| -> Vec<u32> {
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let first = &outputs[0];
    let structures = words(&first.uavs[1].as_ref().unwrap().bytes);
    for y in 0..4u32 {
        for x in 0..4u32 {
            let at = (y * 4 + x) as usize * 2;
            let expected = if x < 2 { [x, y] } else { [99, 99] };
            assert_eq!(structures[at..at + 2], expected, "pixel ({x}, {y})");
        }
    }
    assert_eq!(words(&first.uavs[2].as_ref().unwrap().bytes), [8]);
    assert_eq!(words(&outputs[1].uavs[2].as_ref().unwrap().bytes), [16]);
}

/// Two pixel-program invocations of one draw storing different values to one element leave whichever ran last
/// (5.3.9 orders none): a full 4x4 quad drawn twice in one draw, each pixel storing its primitive ID (0 or 1, then 2
/// or 3) at structure `y * 4 + x` and adding 1 to a counter word; every structure is flagged, the atomic sum is not.
#[test]
fn pixel_writes_that_depend_on_the_invocation_order_are_flagged() {
    let ps = program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_5_0\n\
         dcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_input vPrim\n\
         dcl_output o0.xyzw\n\
         dcl_uav_structured u1, 4\n\
         dcl_uav_raw u2\n\
         dcl_temps 1\n\
         ftou r0.xy, v0.xyxx\n\
         imad r0.w, r0.y, l(4), r0.x\n\
         store_structured u1.x, r0.w, l(0), vPrim\n\
         atomic_iadd u2, l(0), l(1)\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    );
    let json = r#"{"vs": "vs", "ps": "ps", "width": 4, "height": 4, "rt_format": "R32_FLOAT",
        "input_layout": [{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}],
        "vertex_buffers": [{"stride": 16, "f32": [-1, 1, 0, 1, 1, 1, 0, 1, -1, -1, 0, 1,
                                                   1, 1, 0, 1, 1, -1, 0, 1, -1, -1, 0, 1,
                                                   -1, 1, 0, 1, 1, 1, 0, 1, -1, -1, 0, 1,
                                                   1, 1, 0, 1, 1, -1, 0, 1, -1, -1, 0, 1]}],
        "vertex_count": 12, "rasterizer": {"cull": "NONE"},
        "uavs": [{"slot": 1, "kind": "structured", "stride": 4, "elements": 16},
                 {"slot": 2, "kind": "raw", "elements": 1}]}"#;
    let outputs = draw(json, &[("vs", vs_pos()), ("ps", ps)]);
    let output = &outputs[0];
    let structures = output.uav_order[1].as_ref().unwrap();
    assert_eq!(structures.elements, (0..16u64).map(|i| i * 4).collect::<Vec<_>>());
    assert!(output.uav_order[2].as_ref().unwrap().is_none());
    // the second pass ran last: primitives 2 and 3
    let written: Vec<u32> = output.uavs[1]
        .as_ref()
        .unwrap()
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert!(written.iter().all(|p| *p == 2 || *p == 3), "{written:?}");
    assert_eq!(output.uavs[2].as_ref().unwrap().bytes, 32u32.to_le_bytes());
}
