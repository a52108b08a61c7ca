//! The built `iridia` binary's `draw` subcommand: the files it writes, their bytes against a real D3D11's render, the
//! D3D layout of D24 depth, and a bad draw's exit code and message.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::float_cmp
)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn iridia() -> Command {
    Command::new(env!("CARGO_BIN_EXE_iridia"))
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(path)
}

/// A scratch directory for this test binary, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iridia-cli-draw-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

#[test]
fn draw_writes_the_targets_the_reference_renderer_writes() {
    let dir = scratch("demo");
    let prefix = dir.join("scene");
    let out = iridia()
        .arg("draw")
        .arg(fixture("draw/demo/scene_color.json"))
        .arg("--out")
        .arg(&prefix)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("scene.json")).unwrap()).unwrap();
    assert_eq!(summary["render_targets"][0]["file"], "scene.rt0.bin");
    assert_eq!(summary["render_targets"][0]["format"], "R32G32B32A32_FLOAT");
    assert_eq!(summary["render_targets"][0]["bytes_per_texel"], 16);
    assert_eq!(summary["depth"]["format"], "D32_FLOAT");
    // the scene's four triangles: one is a back face (culled), three are drawn
    assert_eq!(summary["draws"][0]["stats"]["triangles"], 4);
    assert_eq!(summary["draws"][0]["stats"]["culled"], 1);
    // the bytes are the reference's within float32 interpolation (every vertex is on the 1/256 grid), the depth
    // exactly
    let ours = f32s(&std::fs::read(dir.join("scene.rt0.bin")).unwrap());
    let theirs = f32s(&std::fs::read(fixture("draw/demo/out/scene_color.rt0.bin")).unwrap());
    assert_eq!(ours.len(), 64 * 64 * 4);
    assert!(ours.iter().zip(&theirs).all(|(a, b)| (a - b).abs() <= 1e-6));
    let depth = std::fs::read(dir.join("scene.depth.bin")).unwrap();
    assert_eq!(
        depth,
        std::fs::read(fixture("draw/demo/out/scene_color.depth.bin")).unwrap()
    );
}

#[test]
fn d24_depth_is_written_in_d3ds_layout() {
    // no draw: the targets keep their clears. D24_UNORM_S8_UINT cleared to depth 0.5 and stencil 7 is the word
    // 7 << 24 | 8388608 (0.5 * 16777215 = 8388607.5, rounded to nearest as FLOAT -> UNORM does: +0.5, truncate)
    let dir = scratch("d24");
    let description = dir.join("d24.json");
    let vs = fixture("draw/demo/vs_5_0.dxbc");
    std::fs::write(
        &description,
        format!(
            r#"{{"vs": "{}", "width": 2, "height": 1, "depth": {{"format": "D24_UNORM_S8_UINT"}},
            "clear_depth": 0.5, "clear_stencil": 7, "draws": []}}"#,
            vs.display()
        ),
    )
    .unwrap();
    let out = iridia()
        .arg("draw")
        .arg(&description)
        .arg("--out")
        .arg(dir.join("d24"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let depth = std::fs::read(dir.join("d24.depth.bin")).unwrap();
    let word = (7u32 << 24 | 8_388_608).to_le_bytes();
    assert_eq!(depth, [word, word].concat());
    let summary = std::fs::read_to_string(dir.join("d24.json")).unwrap();
    assert!(summary.contains(r#""layout": "D3D""#), "{summary}");
}

#[test]
fn a_bad_draw_exits_with_2_and_names_the_draw() {
    // the pixel program samples t0 with s0, neither of which the description binds; the sampler is named first
    let dir = scratch("bad");
    let description = dir.join("bad.json");
    std::fs::write(
        &description,
        format!(
            r#"{{"vs": "{}", "ps": "{}", "width": 4, "height": 4,
            "input_layout": [{{"semantic": "POSITION", "format": "R32G32B32_FLOAT"}},
                             {{"semantic": "COLOR", "format": "R32G32B32A32_FLOAT"}}],
            "vertex_buffers": [{{"stride": 28, "f32": [0, 0, 0.5, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 1]}}],
            "draws": [{{}}]}}"#,
            fixture("draw/demo/vs_pass_4_0.dxbc").display(),
            fixture("draw/demo/ps_tex_4_0.dxbc").display()
        ),
    )
    .unwrap();
    let out = iridia()
        .arg("draw")
        .arg(&description)
        .arg("--out")
        .arg(dir.join("bad"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("draws[0] ps") && stderr.contains("s0 is not bound"),
        "{stderr}"
    );
}
