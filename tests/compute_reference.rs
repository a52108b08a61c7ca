//! `fixtures/compute`: compute programs dispatched by a real D3D11 (d3d11-ref's renderer extended for `Dispatch`,
//! `fixtures/compute/refrender`), every UAV's bytes and counter dumped after the last dispatch. Iridia runs the same
//! descriptions and compares under each description's notes (`"iridia"`): `exact` bytes, or `sorted` elements where
//! which thread got which slot is the implementation's to choose (append buffers, returned atomic values); counters
//! always exactly. Where the reference follows GL rather than D3D11 (`*_spec_differs`, the fixtures' README says how),
//! the spec's bytes (`out/NAME.spec.uN.bin`, from the fixtures' model) are the expected ones.

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

use iridia::description::read_dispatches;
use iridia::dispatch::{DispatchOptions, contents, run_dispatch_on, uav_views};

fn fixtures() -> PathBuf {
    reference::fixture_dir("compute")
}

/// Runs one description; gives the number of views compared.
fn check(name: &str) -> usize {
    let dir = fixtures();
    let path = dir.join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let description = read_dispatches(&text, &mut |file| {
        std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let first = description.dispatches.first().unwrap();
    let views = uav_views(&first.uavs).unwrap();
    for (index, state) in description.dispatches.iter().enumerate() {
        run_dispatch_on(state, &views, &DispatchOptions::default())
            .unwrap_or_else(|e| panic!("{name} dispatch {index}: {e}"));
    }
    let notes = json(&path)["iridia"].clone();
    let spec_differs = notes["compare"] == "spec_differs";
    let reference = json(&dir.join(format!("out/{name}.json")));
    let mut compared = 0;
    for uav in reference["uavs"].as_array().unwrap() {
        let slot = uav["slot"].as_u64().unwrap() as usize;
        let view = views[slot]
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: u{slot} is not bound"));
        let ours = contents(view);
        let expected_file = if spec_differs {
            let spec = dir.join(format!("out/{name}.spec.u{slot}.bin"));
            if spec.exists() {
                spec
            } else {
                dir.join("out").join(uav["file"].as_str().unwrap())
            }
        } else {
            dir.join("out").join(uav["file"].as_str().unwrap())
        };
        let expected = std::fs::read(&expected_file).unwrap();
        if let Some(counter) = uav.get("counter").and_then(serde_json::Value::as_u64) {
            assert_eq!(ours.counter, Some(counter as u32), "{name}: u{slot}'s counter");
        }
        let note = &notes["uavs"][slot.to_string()];
        if note["compare"] == "sorted" {
            let words = note["words_per_element"].as_u64().unwrap_or(1) as usize;
            assert_eq!(
                sorted(&ours.bytes, words),
                sorted(&expected, words),
                "{name}: u{slot} (sorted)"
            );
        } else {
            assert_eq!(ours.bytes.len(), expected.len(), "{name}: u{slot}'s size");
            let first_difference = ours.bytes.iter().zip(&expected).position(|(a, b)| a != b);
            assert!(
                first_difference.is_none(),
                "{name}: u{slot} differs from {} first at byte {} (ours {:#04x}, expected {:#04x})",
                expected_file.display(),
                first_difference.unwrap_or(0),
                ours.bytes[first_difference.unwrap_or(0)],
                expected[first_difference.unwrap_or(0)]
            );
        }
        compared += 1;
    }
    compared
}

#[test]
fn every_compute_fixture_matches_the_reference_or_the_spec() {
    let list = std::fs::read_to_string(fixtures().join("cases.txt")).unwrap();
    let names: Vec<&str> = list.split_whitespace().filter(|n| !n.starts_with('#')).collect();
    assert!(names.len() >= 19, "{} descriptions", names.len());
    let mut failures = Vec::new();
    let mut views = 0;
    for name in &names {
        let name = name.trim_end_matches(".json");
        match std::panic::catch_unwind(|| check(name)) {
            Ok(n) => views += n,
            Err(e) => failures.push(
                e.downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| format!("{name}: panicked")),
            ),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} descriptions differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
    assert!(views >= 40, "{views} views compared");
}

/// `iridia draw` on a dispatch description writes every view as the reference renderer does: the same bytes (u0,
/// u2 exact; u1 an append buffer, sorted) and the counter in `PREFIX.json`.
#[test]
fn iridia_draw_runs_a_dispatch_description() {
    let out = std::env::temp_dir().join(format!("iridia-compute-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let prefix = out.join("md");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_iridia"))
        .arg("draw")
        .arg(fixtures().join("multi_dispatch.json"))
        .arg("--out")
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success());
    let dir = fixtures().join("out");
    for slot in [0, 2] {
        let ours = std::fs::read(out.join(format!("md.u{slot}.bin"))).unwrap();
        assert_eq!(
            ours,
            std::fs::read(dir.join(format!("multi_dispatch.u{slot}.bin"))).unwrap(),
            "u{slot}"
        );
    }
    let ours = std::fs::read(out.join("md.u1.bin")).unwrap();
    let expected = std::fs::read(dir.join("multi_dispatch.u1.bin")).unwrap();
    assert_eq!(sorted(&ours, 1), sorted(&expected, 1));
    let summary = json(&out.join("md.json"));
    assert_eq!(summary["uavs"][1]["counter"], 18);
    std::fs::remove_dir_all(&out).ok();
}

/// 18.6.6 leaves the order of threads open. In these fixtures what depends on it is which slot of an append or
/// consume counter each thread gets (the cases' notes compare those views, and what is read through them, sorted):
/// exactly the views whose counters unordered threads used are flagged. No case has an element that two unordered
/// threads store different values to (each thread has its own words; `atomics`' compare-and-store matches one
/// thread only). Values that flow from a counter or an immediate atomic's result into another view (`append_consume`
/// u2, `atomics` u2) are not followed.
#[test]
fn results_that_depend_on_the_thread_order_are_flagged() {
    let cases = std::fs::read_to_string(fixtures().join("cases.txt")).unwrap();
    let mut flagged = Vec::new();
    for name in cases.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let dir = fixtures();
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let description = read_dispatches(&text, &mut |file| {
            std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
        })
        .unwrap();
        let views = uav_views(&description.dispatches[0].uavs).unwrap();
        views.iter().flatten().for_each(|v| v.track_order());
        for state in &description.dispatches {
            run_dispatch_on(state, &views, &DispatchOptions::default()).unwrap();
        }
        for (slot, view) in views.iter().enumerate() {
            let Some(order) = view.as_ref().and_then(|v| v.order_dependence()) else {
                continue;
            };
            assert!(
                order.elements.is_empty() && !order.incomplete,
                "{name} u{slot}: {order:?}"
            );
            if order.counter {
                flagged.push(format!("{name} u{slot}"));
            }
        }
    }
    assert_eq!(
        flagged,
        [
            "append_consume u0",
            "append_consume u1",
            "append_consume u3",
            "append_consume u4",
            "multi_dispatch u1"
        ]
    );
}
