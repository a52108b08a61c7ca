//! `iridia replay` and `iridia info` on a capture holding a draw and a dispatch (format 1.3), built here with
//! `CaptureWriter`: the draw is draw 0 of `fixtures/captures/03-post-process.iridia` (the GPU's bytes), the dispatch
//! a compute program assembled with `iridia asm` whose views' contents after it are worked out by hand. Exit codes
//! (0 all match, 1 a recorded byte altered, 2 a hostile manifest), the table's dispatch row and the JSON report.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation
)]

#[path = "common/capture_edit.rs"]
mod capture_edit;
#[path = "common/cli.rs"]
mod cli;
use capture_edit::with_manifest;
use cli::{json, run};
use iridia::api::dispatch::{DispatchState, UnorderedAccessViewBinding, UnorderedAccessViewDesc};
use iridia::api::enums::UavDimension;
use iridia::api::resource::Resource;
use iridia::capture::{Capture, CaptureWriter, DispatchRecord, DrawRecord};
use iridia::dispatch::UavContents;
use std::path::PathBuf;
use std::sync::Arc;

/// Each of 2 groups of 4 threads writes (its thread ID, its thread ID times 3) to structure `vThreadID.x` of `u0`.
const PROGRAM: &str = "cs_5_0
dcl_uav_structured u0, 8
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r0.x, vThreadID.x
imul null, r0.y, vThreadID.x, l(3)
store_structured u0.xy, vThreadID.x, l(0), r0.xyxx
ret
";

fn words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The dispatch over 10 structures of 8 bytes, all 7 before: structures 0..8 become (i, 3i), 8 and 9 stay.
fn dispatch(after: Vec<u8>) -> DispatchRecord {
    let state = DispatchState {
        compute_shader: iridia::dxbc::asm::assemble(PROGRAM).unwrap().into(),
        bindings: Default::default(),
        uavs: vec![Some(UnorderedAccessViewBinding {
            resource: Arc::new(Resource::Buffer(words(&[7; 20]).into())),
            desc: UnorderedAccessViewDesc {
                dimension: UavDimension::Buffer,
                num_elements: 10,
                structure_stride: 8,
                ..Default::default()
            },
            initial_count: None,
        })],
        groups: [2, 1, 1],
    };
    DispatchRecord {
        state,
        name: None,
        api_call: Some("Dispatch(2, 1, 1)".into()),
        indirect: false,
        after: vec![Some(UavContents {
            bytes: after,
            counter: None,
        })],
    }
}

fn expected() -> Vec<u8> {
    let mut structures = Vec::new();
    for i in 0..10u32 {
        structures.extend(if i < 8 { [i, 3 * i] } else { [7, 7] });
    }
    words(&structures)
}

/// The capture: the post-process draw, then the dispatch recording `after`.
fn capture(after: Vec<u8>) -> Vec<u8> {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/captures/03-post-process.iridia"
    ))
    .unwrap();
    let mut source = Capture::open(bytes).unwrap();
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&DrawRecord::from(source.draw(0).unwrap())).unwrap();
    writer.add_dispatch(&dispatch(after)).unwrap();
    writer.finish_to_vec().unwrap()
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("iridia-cli-dispatch-{}-{name}.iridia", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_dispatch_replays_among_the_draws_and_matches() {
    let path = write("matches", &capture(expected()));
    let path = path.to_str().unwrap();
    let out = run(&["replay", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    let draw = lines.iter().position(|l| l.starts_with("   0  ")).unwrap();
    let row = lines
        .iter()
        .position(|l| l.trim_start().starts_with("d0  dispatch 0"))
        .unwrap();
    assert!(row > draw, "{text}");
    assert!(lines[row].contains("u0") && lines[row].ends_with("matches"), "{text}");
    assert!(text.contains("1 dispatches, 1 compared: 1 match, 0 differ"), "{text}");

    let out = run(&["replay", path, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    let dispatch = &report["dispatches"][0];
    assert_eq!(dispatch["matches"], true);
    assert_eq!(dispatch["groups"], serde_json::json!([2, 1, 1]));
    assert_eq!(dispatch["uavs"][0]["report"]["compared"], 10);
    assert_eq!(report["summary"]["dispatches_matching"], 1);

    let out = run(&["info", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 draw, 1 dispatch"), "{text}");
    assert!(
        text.contains("dispatch 0 before draw 1  Dispatch(2, 1, 1)  2x1x1 groups"),
        "{text}"
    );
    assert!(text.contains("  cs  cs_5_0"), "{text}");
    assert!(
        text.contains("  u0    structured, 10 x 8 bytes  after recorded"),
        "{text}"
    );
}

#[test]
fn an_altered_recorded_byte_differs_at_its_element() {
    let mut after = expected();
    after[6 * 8 + 4] = 99; // structure 6, word 1: 18 recorded as 99
    let path = write("differs", &capture(after));
    let out = run(&["replay", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let uav = &report["dispatches"][0]["uavs"][0]["report"];
    assert_eq!(uav["differing"], 1);
    let first = &uav["first_word_differences"][0];
    assert_eq!((first["element"].as_u64(), first["word"].as_u64()), (Some(6), Some(1)));
    assert_eq!(
        (first["recorded"].as_u64(), first["replayed"].as_u64()),
        (Some(99), Some(18))
    );
    let out = run(&["replay", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("u0[6].w1 0x12 != 0x63") && text.contains("DIFFERS"),
        "{text}"
    );
}

#[test]
fn a_hostile_manifest_is_an_error_not_a_panic() {
    let good = capture(expected());
    let huge = with_manifest(&good, |m| {
        m["dispatches"][0]["groups"] = serde_json::json!([4294967295u32, 65535, 65535])
    });
    let path = write("huge", &huge);
    let out = run(&["replay", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("dispatch 0 groups"), "{stderr}");
    let out = run(&["info", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // a view that says it sees more than was recorded after it
    let wide = with_manifest(&good, |m| {
        m["dispatches"][0]["uavs"][0]["view"]["num_elements"] = 9.into()
    });
    let out = run(&["replay", write("wide", &wide).to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("dispatch 0 uavs[0] after"), "{stderr}");
}

#[test]
fn inspect_names_the_thread_that_wrote_an_element_with_its_trace() {
    // structure 6, byte offset 4 (its word 1): thread 6 (group 1, thread 2 in it) stores 3 x 6 = 18 over the 7 there
    // with `store_structured` (instruction 6: four declarations, mov, imul, then it); the GPU's 99 is altered
    let mut after = expected();
    after[6 * 8 + 4] = 99;
    let path = write("inspect", &capture(after));
    let args = |json: bool| {
        let mut args = vec![
            "inspect",
            path.to_str().unwrap(),
            "--dispatch",
            "0",
            "--uav",
            "0",
            "--element",
            "6,4",
        ];
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let out = args(true);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    assert_eq!(
        (report["access"].as_str(), report["byte_offset"].as_u64()),
        (Some("structured"), Some(52))
    );
    assert_eq!(report["before"]["bytes"], "07000000");
    assert_eq!(report["replayed"]["bytes"], "12000000");
    assert_eq!(report["recorded"]["bytes"], "63000000");
    assert_eq!(report["matches"], false);
    assert_eq!(report["order_dependent"], false);
    let writes = report["writes"].as_array().unwrap();
    assert_eq!(writes.len(), 1);
    let first = &writes[0];
    assert_eq!(first["thread"]["group"], serde_json::json!([1, 0, 0]));
    assert_eq!(first["thread"]["thread_in_group"], serde_json::json!([2, 0, 0]));
    assert_eq!(first["thread"]["thread"], serde_json::json!([6, 0, 0]));
    assert_eq!(
        (first["instruction"].as_u64(), first["operation"].as_str()),
        (Some(6), Some("store"))
    );
    assert_eq!(
        (first["before"]["bytes"].as_str(), first["after"]["bytes"].as_str()),
        (Some("07000000"), Some("12000000"))
    );
    // its trace: mov, imul, store_structured, ret; the imul left 18 in r0.y
    let steps = report["traces"][0]["trace"]["steps"].as_array().unwrap();
    let instructions: Vec<u64> = steps.iter().map(|s| s["instruction"].as_u64().unwrap()).collect();
    assert_eq!(instructions, [4, 5, 6, 7]);
    assert_eq!(steps[1]["destinations"][1][1][1], 18);
    let out = args(false);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 write(s) by 1 thread(s)"), "{text}");
    assert!(text.contains("trace of group (1, 0, 0) thread (2, 0, 0)"), "{text}");
    assert!(text.contains("store_structured"), "{text}");
    // the matching capture: exit 0; an element outside the view: exit 2, saying where
    let fine = write("inspect-fine", &capture(expected()));
    let out = run(&["inspect", fine.to_str().unwrap(), "--dispatch", "0", "--element", "6,4"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["inspect", fine.to_str().unwrap(), "--dispatch", "0", "--element", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("structure 10, byte offset 0 is outside the view of 10 structures of 8 bytes"),
        "{stderr}"
    );
}
