//! `fixtures/geometry`: draws with geometry programs rendered by a real D3D11 (d3d11-ref's renderer extended for
//! geometry programs and stream output, `fixtures/geometry/refrender`). Iridia draws the same descriptions and
//! compares the render targets bit for bit (the fixtures' render targets are integer formats holding the values the
//! programs computed, so any difference in which primitives reach which pixels shows).
//!
//! Covered here: the cases whose render targets need only what the draw module builds (the geometry stage with
//! point, line-strip and triangle-strip output, cuts, `dcl_maxout`, adjacency input). Their stream-output buffers, and
//! the cases that need stream output, render-target array or viewport array indices, are left for when the draw
//! module builds those: the descriptions' `stream_output`, `draw_auto` and `reference_gs` keys are removed before
//! reading, and the test says which cases it skipped.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::arithmetic_side_effects)]

use std::path::{Path, PathBuf};

use iridia::description;
use iridia::draw::{DrawOptions, ShaderCache, run_sequence};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/geometry")
}

/// The description `name` without the keys the reader does not take yet.
fn description_text(name: &str) -> String {
    let text = std::fs::read_to_string(fixtures().join(format!("{name}.json"))).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let strip = |object: &mut serde_json::Value| {
        if let Some(map) = object.as_object_mut() {
            for key in ["iridia", "stream_output", "draw_auto", "reference_gs"] {
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
    ] {
        check(name);
    }
}
