//! `fixtures/pixel-uav`: pixel programs writing unordered access views (`OMSetRenderTargetsAndUnorderedAccessViews`),
//! drawn by a real D3D11 (d3d11-ref's renderer extended, `fixtures/pixel-uav/refrender`). Iridia draws the same
//! descriptions and compares the render target and every view: bit for bit, or sorted where the spec leaves which
//! invocation gets which slot or ticket open (the description's `iridia` notes say which), counters exactly; the
//! spec's bytes (`out/NAME.spec.*`) where the reference follows llvmpipe rather than D3D11.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "common/reference.rs"]
mod reference;

use reference::{json, sorted};
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    reference::fixture_dir("pixel-uav")
}

/// The expected file: the spec's bytes where the fixture has them, else the reference's.
fn expected(name: &str, what: &str) -> Option<Vec<u8>> {
    let out = fixtures().join("out");
    std::fs::read(out.join(format!("{name}.spec.{what}.bin")))
        .or_else(|_| std::fs::read(out.join(format!("{name}.{what}.bin"))))
        .ok()
}

fn check(name: &str) {
    let dir = fixtures();
    let description_json = json(&dir.join(format!("{name}.json")));
    let notes = description_json["iridia"].clone();
    let outputs = reference::draw_sequence(&dir, name, &["iridia"]);
    let last = outputs.last().unwrap();
    let target = last.render_targets[0].as_ref().unwrap();
    assert!(expected(name, "rt0").unwrap() == target.bytes, "{name}: rt0 differs");
    let reference = json(&dir.join(format!("out/{name}.json")));
    for uav in reference["uavs"].as_array().unwrap() {
        let slot = uav["slot"].as_u64().unwrap() as usize;
        let ours = last.uavs[slot]
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: u{slot} is not bound"));
        if let Some(counter) = uav.get("counter").and_then(serde_json::Value::as_u64) {
            assert_eq!(ours.counter, Some(counter as u32), "{name}: u{slot}'s counter");
        }
        let want = expected(name, &format!("u{slot}")).unwrap();
        let note = &notes["uavs"][slot.to_string()];
        if note["compare"] == "sorted" {
            let words = note["words_per_element"].as_u64().unwrap_or(1) as usize;
            assert!(
                sorted(&ours.bytes, words) == sorted(&want, words),
                "{name}: u{slot} (sorted) differs"
            );
        } else {
            let first = ours.bytes.iter().zip(&want).position(|(a, b)| a != b);
            assert!(
                ours.bytes.len() == want.len() && first.is_none(),
                "{name}: u{slot} differs first at byte {first:?}"
            );
        }
    }
}

#[test]
fn pixel_programs_write_the_views_the_reference_writes() {
    let list = std::fs::read_to_string(fixtures().join("cases.txt")).unwrap();
    let names: Vec<&str> = list.split_whitespace().filter(|n| !n.starts_with('#')).collect();
    assert!(names.len() >= 8, "{} descriptions", names.len());
    let mut failures = Vec::new();
    for name in &names {
        let name = name.trim_end_matches(".json");
        if let Err(e) = std::panic::catch_unwind(|| check(name)) {
            failures.push(
                e.downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| format!("{name}: panicked")),
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}
