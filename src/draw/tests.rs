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
use crate::draw::description::{self, Description};
use std::ops::ControlFlow;

/// A signature table of the disassembler's format: (name, index, mask, register, system value, format).
fn signature(title: &str, elements: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut text = format!(
        "// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, index, mask, register, system, format) in elements {
        text.push_str(&format!(
            "// {name:<20} {index:>5} {mask:>6} {register:>8} {system:>8} {format:>7} {mask:>6}\n"
        ));
    }
    text.push_str("//\n");
    text
}

/// A program: its signatures and its listing.
fn program(
    inputs: &[(&str, u32, &str, u32, &str, &str)],
    outputs: &[(&str, u32, &str, u32, &str, &str)],
    code: &str,
) -> Vec<u8> {
    let text = format!(
        "{}{}{code}",
        signature("Input signature", inputs),
        signature("Output signature", outputs)
    );
    crate::dxbc::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `vs_pos_attr`: position from `POSITION`, the attribute `ATTR` passed on as `ATTR0`, `ATTR1` and `ATTR2`.
fn vs_attr() -> Vec<u8> {
    program(
        &[
            ("POSITION", 0, "xyzw", 0, "NONE", "float"),
            ("ATTR", 0, "xyzw", 1, "NONE", "float"),
        ],
        &[
            ("SV_Position", 0, "xyzw", 0, "POS", "float"),
            ("ATTR", 0, "xyzw", 1, "NONE", "float"),
            ("ATTR", 1, "xyzw", 2, "NONE", "float"),
            ("ATTR", 2, "xyzw", 3, "NONE", "float"),
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
        &[("POSITION", 0, "xyzw", 0, "NONE", "float")],
        &[("SV_Position", 0, "xyzw", 0, "POS", "float")],
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
            ("SV_Position", 0, "xyzw", 0, "POS", "float"),
            ("ATTR", 0, "xyzw", 1, "NONE", "float"),
            ("ATTR", 1, "xyzw", 2, "NONE", "float"),
            ("ATTR", 2, "xyzw", 3, "NONE", "float"),
        ],
        &[
            ("SV_Target", 0, "xyzw", 0, "TARGET", "float"),
            ("SV_Target", 1, "xyzw", 1, "TARGET", "float"),
            ("SV_Target", 2, "xyzw", 2, "TARGET", "float"),
            ("SV_Target", 3, "xyzw", 3, "TARGET", "float"),
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
        &[("SV_Position", 0, "xyzw", 0, "POS", "float")],
        &[("SV_Target", 0, "xyzw", 0, "TARGET", "float")],
        "ps_4_0\n\
         dcl_output o0.xyzw\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    )
}

/// `ps_const`: writes the constant buffer's register 0 to target 0.
fn ps_const() -> Vec<u8> {
    program(
        &[("SV_Position", 0, "xyzw", 0, "POS", "float")],
        &[("SV_Target", 0, "xyzw", 0, "TARGET", "float")],
        "ps_4_0\n\
         dcl_constantbuffer cb0[1], immediateIndexed\n\
         dcl_output o0.xyzw\n\
         mov o0.xyzw, cb0[0].xyzw\n\
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

/// A counting description: `R32_FLOAT` target, additive blending, culling off, `ps_one`, these clip-space triangles.
fn counting(size: u32, positions: &[[f32; 4]], extra: &str) -> String {
    let data: Vec<String> = positions.iter().flatten().map(|v| format!("{v:?}")).collect();
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": {size}, "height": {size}, "rt_format": "R32_FLOAT",
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 16, "f32": [{}]}}],
        "rasterizer": {{"cull": "NONE"}},
        "blend": {{"targets": [{{"enable": true, "src": "ONE", "dest": "ONE"}}]}}
        {extra}}}"#,
        data.join(", ")
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
