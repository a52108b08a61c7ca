//! Test scenes shared by the replay and inspect tests: programs written as listings with signature tables, draws as
//! draw descriptions (`docs/draw-description.md`), captures built with [`CaptureWriter`] whose recorded contents
//! after each draw the tests work out by hand.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
#![allow(dead_code)] // each test module uses some of the scenes

use crate::capture::{Capture, CaptureWriter, DrawRecord};
use crate::description::{self, Description};
use std::io::Cursor;
use std::sync::Arc;

/// A signature table of the disassembler's format: (name, index, mask, register, system value, format).
fn signature(title: &str, elements: &[(&str, u32, &str, &str, &str, &str)]) -> String {
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

/// A program assembled from its signatures and listing.
pub fn program(
    inputs: &[(&str, u32, &str, &str, &str, &str)],
    outputs: &[(&str, u32, &str, &str, &str, &str)],
    code: &str,
) -> Vec<u8> {
    let text = format!(
        "{}{}{code}",
        signature("Input signature", inputs),
        signature("Output signature", outputs)
    );
    crate::dxbc::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `POSITION` (clip space) to `SV_Position`.
pub fn vs_pos() -> Vec<u8> {
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

/// `POSITION` to `SV_Position` and `COLOR` passed on.
pub fn vs_color() -> Vec<u8> {
    program(
        &[
            ("POSITION", 0, "xyzw", "0", "NONE", "float"),
            ("COLOR", 0, "xyzw", "1", "NONE", "float"),
        ],
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("COLOR", 0, "xyzw", "1", "NONE", "float"),
        ],
        "vs_4_0\n\
         dcl_input v0.xyzw\n\
         dcl_input v1.xyzw\n\
         dcl_output_siv o0.xyzw, position\n\
         dcl_output o1.xyzw\n\
         mov o0.xyzw, v0.xyzw\n\
         mov o1.xyzw, v1.xyzw\n\
         ret\n",
    )
}

/// Writes the literal `value` (a listing's `l(...)` text) to target 0.
pub fn ps_constant(value: &str) -> Vec<u8> {
    program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        &format!(
            "ps_4_0\n\
             dcl_output o0.xyzw\n\
             mov o0.xyzw, l({value})\n\
             ret\n"
        ),
    )
}

/// Writes the interpolated `COLOR` to target 0, discarding where its alpha is below 0.5.
pub fn ps_color_discard() -> Vec<u8> {
    program(
        &[
            ("SV_Position", 0, "xyzw", "0", "POS", "float"),
            ("COLOR", 0, "xyzw", "1", "NONE", "float"),
        ],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\n\
         dcl_input_ps linear v1.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         lt r0.x, v1.w, l(0.500000)\n\
         discard_nz r0.x\n\
         mov o0.xyzw, v1.xyzw\n\
         ret\n",
    )
}

/// Reads a description whose files are `files`.
pub fn describe(json: &str, files: &[(&str, Vec<u8>)]) -> Description {
    let mut load = |path: &str| -> crate::Result<Vec<u8>> {
        files
            .iter()
            .find(|(name, _)| *name == path)
            .map(|(_, bytes)| bytes.clone())
            .ok_or_else(|| crate::Error::new("test", format!("no file {path}")))
    };
    description::read(json, &mut load).unwrap_or_else(|e| panic!("{e}"))
}

/// The record of a description's only draw with the given contents after it (render target 0, depth).
pub fn record(description: &Description, rt0_after: Option<Vec<u8>>, depth_after: Option<Vec<u8>>) -> DrawRecord {
    assert_eq!(description.draws.len(), 1);
    let mut record = DrawRecord::new(description.draws[0].clone());
    record.name = Some("test draw".to_owned());
    record.render_targets_after = vec![rt0_after.map(Arc::from)];
    record.depth_stencil_after = depth_after.map(Arc::from);
    record
}

/// A capture of `records`, as the bytes of its file.
pub fn capture_bytes(records: &[DrawRecord]) -> Vec<u8> {
    let mut writer = CaptureWriter::in_memory();
    for r in records {
        writer.add_draw(r).unwrap_or_else(|e| panic!("{e}"));
    }
    writer.finish_to_vec().unwrap()
}

/// A capture of `records`, opened.
pub fn capture(records: &[DrawRecord]) -> Capture<Cursor<Arc<[u8]>>> {
    Capture::open(capture_bytes(records)).unwrap()
}

/// Clip-space position of screen point (`x`, `y`) of a `size` x `size` viewport at the origin, depth `z`, w 1.
pub fn clip(x: f32, y: f32, z: f32, size: f32) -> [f32; 4] {
    [x / size * 2. - 1., 1. - y / size * 2., z, 1.]
}

/// The float list of vertices for a description's `"f32"` data.
pub fn floats(values: &[[f32; 4]]) -> String {
    values
        .iter()
        .flatten()
        .map(|v| format!("{v:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An 8x8 `R8G8B8A8_UNORM` scene cleared to (0, 0, 0, 0) drawing the triangle with screen corners (0, 0), (8, 0),
/// (0, 8) at depth `z`, with `ps_constant(color)`; `extra` adds top-level keys (depth, blend ...).
///
/// Coverage by hand (15.16.1, 3.4.2.1): pixel centres (x + 0.5, y + 0.5) are inside when x + y + 1 < 8; those with
/// x + y = 7 lie on the edge from (8, 0) to (0, 8), the triangle's lower right side, which is neither a top edge
/// (horizontal, above) nor a left edge, so they are not covered. 28 pixels are covered: x + y <= 6.
pub fn corner_triangle(z: f32, extra: &str) -> String {
    triangles(&[[0., 0.], [8., 0.], [0., 8.]], z, extra)
}

/// An 8x8 `R8G8B8A8_UNORM` scene cleared to (0, 0, 0, 0) drawing a triangle list whose vertices are the screen
/// points `corners`, at depth `z`, culling off, with the programs `vs` and `ps` (position only); `extra` adds
/// top-level keys.
pub fn triangles(corners: &[[f32; 2]], z: f32, extra: &str) -> String {
    let positions: Vec<[f32; 4]> = corners.iter().map(|[x, y]| clip(*x, *y, z, 8.)).collect();
    let vertices = floats(&positions);
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": 8, "height": 8, "rt_format": "R8G8B8A8_UNORM",
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 16, "f32": [{vertices}]}}],
        "rasterizer": {{"cull": "NONE"}}{extra}}}"#
    )
}

/// Like [`triangles`], each vertex with a `COLOR` (programs `vs_color` and a colour pixel program).
pub fn colored_triangles(vertices: &[([f32; 2], [f32; 4])], extra: &str) -> String {
    let data: Vec<[f32; 4]> = vertices
        .iter()
        .flat_map(|([x, y], color)| [clip(*x, *y, 0.5, 8.), *color])
        .collect();
    let data = floats(&data);
    format!(
        r#"{{"vs": "vs", "ps": "ps", "width": 8, "height": 8, "rt_format": "R8G8B8A8_UNORM",
        "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}},
                         {{"semantic": "COLOR", "format": "R32G32B32A32_FLOAT"}}],
        "vertex_buffers": [{{"stride": 32, "f32": [{data}]}}],
        "rasterizer": {{"cull": "NONE"}}{extra}}}"#
    )
}

/// The files of [`corner_triangle`] with `ps_constant(color)`.
pub fn corner_files(color: &str) -> Vec<(&'static str, Vec<u8>)> {
    vec![("vs", vs_pos()), ("ps", ps_constant(color))]
}

/// An 8x8 RGBA8 image: `inside` where x + y <= 6, `outside` elsewhere.
pub fn corner_image(inside: [u8; 4], outside: [u8; 4]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            bytes.extend_from_slice(if x + y <= 6 { &inside } else { &outside });
        }
    }
    bytes
}

/// Sets texel (`x`, `y`) of an 8-wide RGBA8 image.
pub fn set_texel(bytes: &mut [u8], x: usize, y: usize, texel: [u8; 4]) {
    let at = (y * 8 + x) * 4;
    bytes[at..at + 4].copy_from_slice(&texel);
}
