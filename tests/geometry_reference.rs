//! `fixtures/geometry`: draws with geometry programs rendered by a real D3D11 (d3d11-ref's renderer extended for
//! geometry programs and stream output, `fixtures/geometry/refrender`). Iridia draws the same descriptions and
//! compares the render targets bit for bit (the fixtures' render targets are integer formats holding the values the
//! programs computed, so any difference in which primitives reach which pixels shows).
//!
//! Covered here: every case of `cases.txt` (`gs_instancing*` with every slice of the 4-slice array target). Each
//! case's render target, every stream-output buffer as the
//! last draw that streamed out left it (the spec's bytes where the reference follows Wine rather than D3D11,
//! `out/NAME.spec.*.bin`) and the spec's stream-output statistics summed over the description's draws (the
//! reference's own query results are unreliable, the fixtures' README says). The descriptions' `reference_gs` key (for the reference renderer alone) and the `iridia` notes are removed
//! before reading.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "common/reference.rs"]
mod reference;

use std::path::PathBuf;

use iridia::description;
use iridia::draw::{DrawOptions, ShaderCache, run_sequence};

fn fixtures() -> PathBuf {
    reference::fixture_dir("geometry")
}

fn check(name: &str) {
    reference::draw_and_compare(&fixtures(), name, &["iridia", "reference_gs"]);
}

#[test]
fn geometry_programs_draw_what_the_reference_draws() {
    for name in [
        "point_sprites",
        "point_sprites_primid_spec_differs",
        "triangle_adj",
        "line_adj",
        "strips_cut",
        "maxout_exceeded",
        "gs_instancing",
        "gs_instancing_out_of_range_spec_differs",
        "so_vs_only",
        "so_two_buffers",
        "so_overflow",
        "so_no_raster",
        "so_vs_only_triangles_spec_differs",
        "so_vs_only_strip_spec_differs",
        "so_two_buffers_ranges_spec_differs",
        "so_multi_stream_spec_differs",
        "so_append_draw_auto_spec_differs",
        "triangle_strip_adj",
        "gs_patches_spec_differs",
        "so_patches_no_gs_spec_differs",
    ] {
        check(name);
    }
}

/// `iridia draw` writes a draw's stream-output buffers and counts as the reference renderer does.
#[test]
fn iridia_draw_writes_stream_output() {
    let out = std::env::temp_dir().join(format!("iridia-so-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_iridia"))
        .arg("draw")
        .arg(fixtures().join("so_overflow.json"))
        .arg("--out")
        .arg(out.join("so"))
        .status()
        .unwrap();
    assert!(status.success());
    for slot in 0..2 {
        assert_eq!(
            std::fs::read(out.join(format!("so.so{slot}.bin"))).unwrap(),
            std::fs::read(fixtures().join(format!("out/so_overflow.so{slot}.bin"))).unwrap(),
            "so{slot}"
        );
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("so.json")).unwrap()).unwrap();
    let stream0 = &summary["stream_output"]["statistics"][0];
    assert_eq!(
        (
            stream0["primitives_written"].as_u64(),
            stream0["primitives_storage_needed"].as_u64()
        ),
        (Some(2), Some(4))
    );
    std::fs::remove_dir_all(&out).ok();
}

/// A pixel's history in a draw with a geometry program: the fragments come from the primitives the program emitted
/// (their vertex records are the emitted vertices: positions as the rasterizer took them), and the pixel the history
/// replays ends as the whole draw left it.
#[test]
fn pixel_history_follows_the_geometry_programs_primitives() {
    let dir = fixtures();
    let description = description::read(
        &reference::description_text(&dir, "point_sprites", &["iridia", "reference_gs"]),
        &mut |file| std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string())),
    )
    .unwrap();
    let state = &description.draws[0];
    let whole = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap();
    let image = whole[0].render_targets[0].as_ref().unwrap();
    // a covered pixel: the first texel the draw changed
    let covered = image.bytes.chunks(16).position(|t| t != [0u8; 16]).unwrap();
    let (x, y) = ((covered % 32) as u32, (covered / 32) as u32);
    let mut prepared = iridia::draw::PreparedDraw::new(state, &mut ShaderCache::new(), DrawOptions::default()).unwrap();
    prepared.run(None).unwrap();
    let history = prepared
        .pixel_history(x, y, iridia::draw::HistoryOptions::default())
        .unwrap();
    let fragment = history.fragments.last().expect("a fragment at a covered pixel");
    // every corner is an emitted vertex: a clip-space position with w = 1 (the sprite program's)
    for corner in &fragment.vertices {
        assert_eq!(corner.position[3], 1.0, "{corner:?}");
        assert!(corner.inputs.is_empty());
    }
    let after = history.after.render_targets[0].as_ref().unwrap();
    assert_eq!(after.bytes[..], image.bytes[covered * 16..covered * 16 + 16]);
}

/// Patches without tessellation go to a geometry program or to stream output (11.8.1.1, 11.8.1.2); patches that
/// would reach the rasterizer are undefined (11.8.1.3) and refused, saying so.
#[test]
fn patches_reaching_the_rasterizer_are_refused() {
    let dir = fixtures();
    let text = reference::description_text(&dir, "so_patches_no_gs_spec_differs", &["iridia"]);
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["stream_output"]["rasterized_stream"] = 0.into();
    let description = description::read(&value.to_string(), &mut |file| {
        std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
    })
    .unwrap();
    let error = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("topology: 3_CONTROL_POINT_PATCHLIST"),
        "{error}"
    );
    assert!(error.detail.contains("11.8.1.3"), "{error}");
}
