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

/// The description `name` without the keys the reader does not take yet.
fn description_text(name: &str) -> String {
    let text = std::fs::read_to_string(fixtures().join(format!("{name}.json"))).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let strip = |object: &mut serde_json::Value| {
        if let Some(map) = object.as_object_mut() {
            for key in ["iridia", "reference_gs"] {
                map.remove(key);
            }
        }
    };
    strip(&mut value);
    if let Some(draws) = value.get_mut("draws").and_then(serde_json::Value::as_array_mut) {
        draws.iter_mut().for_each(strip);
    }
    value.to_string()
}

fn check(name: &str) {
    let dir = fixtures();
    let text = description_text(name);
    let description = description::read(&text, &mut |file| {
        std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let outputs = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let ours = outputs.last().unwrap().render_targets[0].as_ref().unwrap();
    // where the reference follows Wine rather than D3D11, the fixtures' model gives the spec's bytes
    let spec = dir.join(format!("out/{name}.spec.rt0.bin"));
    let expected_file = if spec.exists() {
        spec
    } else {
        dir.join(format!("out/{name}.rt0.bin"))
    };
    let expected = std::fs::read(expected_file).unwrap();
    assert_eq!(ours.bytes.len(), expected.len(), "{name}: rt0's size");
    let texel = 16;
    let differing: Vec<(usize, usize)> = ours
        .bytes
        .chunks(texel)
        .zip(expected.chunks(texel))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| (i % ours.width as usize, i / ours.width as usize))
        .collect();
    assert!(
        differing.is_empty(),
        "{name}: {} texels of rt0 differ from the reference, first at {:?}",
        differing.len(),
        differing.first()
    );
    // every stream-output buffer the reference dumped (or the spec's bytes), and the spec's statistics
    for slot in 0..4usize {
        let spec = dir.join(format!("out/{name}.spec.so{slot}.bin"));
        let file = if spec.exists() {
            spec
        } else {
            dir.join(format!("out/{name}.so{slot}.bin"))
        };
        let Ok(expected) = std::fs::read(&file) else {
            continue;
        };
        // the buffer as the last draw that streamed out left it
        let ours = outputs
            .iter()
            .rev()
            .find_map(|o| o.stream_output.as_ref().and_then(|s| s.buffers[slot].clone()))
            .unwrap_or_default();
        let first = ours.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(
            ours.len() == expected.len() && first.is_none(),
            "{name}: stream-output buffer {slot} differs from {} (lengths {} and {}, first at byte {first:?})",
            file.display(),
            ours.len(),
            expected.len()
        );
    }
    let description: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap();
    // the statistics query spans every draw of the description
    if let Some(statistics) = description["iridia"]["so_statistics"].as_array() {
        let total = |stream: usize| {
            outputs
                .iter()
                .filter_map(|o| o.stream_output.as_ref())
                .fold((0, 0), |(w, n), s| (w + s.written[stream], n + s.needed[stream]))
        };
        for entry in statistics {
            let stream = entry["stream"].as_u64().unwrap() as usize;
            assert_eq!(
                total(stream),
                (
                    entry["primitives_written"].as_u64().unwrap(),
                    entry["primitives_storage_needed"].as_u64().unwrap()
                ),
                "{name}: stream {stream}'s SO statistics"
            );
        }
    }
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
    let description = description::read(&description_text("point_sprites"), &mut |file| {
        std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
    })
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
