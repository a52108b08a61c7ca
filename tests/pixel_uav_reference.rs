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

/// 5.3.9 orders no two pixel-program invocations: in these fixtures what depends on their order is which slot of an
/// append view's counter each pixel gets (`append`'s u1 and u2, in both draws); the atomics commute, every pixel of
/// `ordering` stores the same tag to its shared word, and no two invocations of one draw store different values to
/// one element, so nothing else is flagged.
#[test]
fn results_that_depend_on_the_invocation_order_are_flagged() {
    let mut flagged = Vec::new();
    for name in [
        "append",
        "atomics",
        "depth_early",
        "depth_late",
        "ids",
        "ordering",
        "typed",
    ] {
        let outputs = reference::draw_sequence(&fixtures(), name, &["iridia"]);
        for (draw, output) in outputs.iter().enumerate() {
            for (slot, order) in output.uav_order.iter().enumerate() {
                let Some(order) = order else { continue };
                assert!(
                    order.elements.is_empty() && !order.incomplete,
                    "{name} draw {draw} u{slot}: {order:?}"
                );
                if order.counter {
                    flagged.push(format!("{name} draw {draw} u{slot}"));
                }
            }
        }
    }
    assert_eq!(
        flagged,
        [
            "append draw 0 u1",
            "append draw 0 u2",
            "append draw 1 u1",
            "append draw 1 u2"
        ]
    );
}
