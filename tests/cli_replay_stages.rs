//! `iridia replay` and `iridia info` on a capture of format 1.4's draw stages, built here with `CaptureWriter`: the
//! geometry fixture `so_two_buffers` (a pass-through geometry program streaming two triangles to two buffers while
//! drawing them), recorded with what the library's own run of it leaves (so this tests the reporting, not the
//! pipeline: `tests/geometry_reference.rs` and the fixture's `iridia` note hold it to the reference). Exit codes
//! (0 all match, 1 a recorded stream-output byte altered), the table's row, the JSON report and `iridia info`.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "common/cli.rs"]
mod cli;
use cli::run;
use iridia::capture::{CaptureWriter, DrawRecord};
use iridia::draw::{DrawOptions, ShaderCache, run_sequence};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The fixture's only draw, recorded with what a run of it left (`alter`: a byte of stream-output buffer 1 flipped).
fn capture(alter: bool) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/geometry");
    let json = std::fs::read_to_string(dir.join("so_two_buffers.json")).unwrap();
    let mut load = |path: &str| std::fs::read(dir.join(path)).map_err(|e| iridia::Error::new("test", e.to_string()));
    let description = iridia::description::read(&json, &mut load).unwrap();
    let outputs = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap();
    let output = &outputs[0];
    let mut record = DrawRecord::new(description.draws[0].clone());
    record.api_call = Some("Draw(6, 0)".into());
    record.render_targets_after = vec![Some(Arc::from(
        output.render_targets[0].as_ref().unwrap().bytes.as_slice(),
    ))];
    let buffers = &output.stream_output.as_ref().unwrap().buffers;
    for (place, buffer) in record.stream_output_after.iter_mut().zip(buffers) {
        *place = buffer.as_ref().map(|b| Arc::from(b.as_slice()));
    }
    if alter {
        let mut bytes = record.stream_output_after[1].as_ref().unwrap().to_vec();
        bytes[20] ^= 0x10;
        record.stream_output_after[1] = Some(Arc::from(bytes));
    }
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&record).unwrap();
    writer.finish_to_vec().unwrap()
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("iridia-cli-stages-{}-{name}.iridia", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_geometry_and_stream_output_draw_replays_and_its_buffers_are_compared() {
    let path = write("matches", &capture(false));
    let path = path.to_str().unwrap();
    let out = run(&["replay", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = text.lines().find(|l| l.starts_with("   0  ")).unwrap();
    assert!(row.contains("rt0,so0,so1") && row.ends_with("matches"), "{text}");

    let out = run(&["replay", path, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let draw = &report["draws"][0];
    assert_eq!(draw["matches"], true);
    let buffers = draw["stream_output"].as_array().unwrap();
    assert_eq!(buffers.len(), 2);
    assert_eq!(buffers[1]["slot"], 1);
    assert_eq!(buffers[1]["report"]["compared"], 64);
    assert_eq!(buffers[1]["report"]["differing"], 0);

    let out = run(&["info", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("iridia-capture 1.5"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("gs  gs_4_0")), "{text}");
    assert!(
        text.contains("so1   buffer of 256 bytes, written from byte 8  after recorded"),
        "{text}"
    );
    let out = run(&["info", path, "--json"]);
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["draws"][0]["stream_output"][1]["offset"], 8);
    assert!(info["draws"][0]["gs"]["sha256"].is_string());
}

#[test]
fn an_altered_stream_output_byte_is_a_difference_named_by_its_word() {
    let path = write("differs", &capture(true));
    let path = path.to_str().unwrap();
    let out = run(&["replay", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = text.lines().find(|l| l.starts_with("   0  ")).unwrap();
    // byte 20 is word 5 of the buffer
    assert!(row.contains("so1[5].w0") && row.ends_with("DIFFERS"), "{text}");
    let out = run(&["replay", path, "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let buffer = &report["draws"][0]["stream_output"][1]["report"];
    assert_eq!(buffer["differing"], 1);
    assert_eq!(buffer["first_word_differences"][0]["offset"], 20);
    assert_eq!(report["draws"][0]["targets"][0]["report"]["differing_pixels"], 0);
}
