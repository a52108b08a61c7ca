//! Version 1.4's draws: a geometry program with stream output, the pixel stage's unordered access views, `DrawAuto`
//! and indirect calls, written, read back, replayed and compared; and refused when the manifest lies.

use crate::api::draw::DrawCall;
use crate::capture::tests::with_manifest;
use crate::capture::{Capture, DrawRecord, write_capture};
use crate::description::{self, Description};
use crate::draw::{DrawOptions, DrawOutput, ShaderCache, run_sequence};
use crate::replay::testkit::{describe, program, vs_pos};
use crate::replay::{ReplayOptions, replay_draw};
use std::sync::Arc;

/// The geometry fixture `so_two_buffers`: a pass-through geometry program streaming two triangles to two buffers
/// (slot 1 from byte 8) while they are drawn into a 32x32 target.
fn stream_output_description() -> Description {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/geometry");
    let json = std::fs::read_to_string(dir.join("so_two_buffers.json")).unwrap();
    let mut load = |path: &str| -> crate::Result<Vec<u8>> {
        std::fs::read(dir.join(path)).map_err(|e| crate::Error::new("test", e.to_string()))
    };
    description::read(&json, &mut load).unwrap()
}

/// A pixel program that adds 1 to word 0 of the raw `u1` and stores `x + 16 * y` at its pixel of the R32_UINT
/// texture view `u2`.
fn ps_counting() -> Vec<u8> {
    program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_5_0\n\
         dcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_output o0.xyzw\n\
         dcl_uav_raw u1\n\
         dcl_uav_typed_texture2d (uint,uint,uint,uint) u2\n\
         dcl_temps 1\n\
         ftou r0.xy, v0.xyxx\n\
         imad r0.z, r0.y, l(16), r0.x\n\
         atomic_iadd u1, l(0), l(1)\n\
         store_uav_typed u2.xyzw, r0.xyyy, r0.zzzz\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    )
}

/// A 4x4 draw of a triangle covering the upper-left half with `ps_counting`'s views bound.
fn uav_description() -> Description {
    let json = r#"{"vs": "vs", "ps": "ps", "width": 4, "height": 4, "rt_format": "R32_FLOAT",
        "input_layout": [{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT"}],
        "vertex_buffers": [{"stride": 16, "f32": [-1, 1, 0, 1, 1, 1, 0, 1, -1, -1, 0, 1]}],
        "vertex_count": 3, "rasterizer": {"cull": "NONE"},
        "uavs": [{"slot": 1, "kind": "raw", "elements": 2, "u32": [5, 77]},
                 {"slot": 2, "kind": "texture2d", "format": "R32_UINT", "width": 4, "height": 4}]}"#;
    describe(json, &[("vs", vs_pos()), ("ps", ps_counting())])
}

/// The description's only draw run, and the record of it with what the run left as the contents after it.
fn recorded(description: &Description) -> (DrawOutput, DrawRecord) {
    let outputs = run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap();
    let output = outputs.into_iter().next().unwrap();
    let mut record = DrawRecord::new(description.draws[0].clone());
    record.render_targets_after = output
        .render_targets
        .iter()
        .map(|t| t.as_ref().map(|t| Arc::from(t.bytes.as_slice())))
        .collect();
    record.uavs_after = output.uavs.clone();
    if let Some(so) = &output.stream_output {
        for (place, buffer) in record.stream_output_after.iter_mut().zip(&so.buffers) {
            *place = buffer.as_ref().map(|b| Arc::from(b.as_slice()));
        }
    }
    (output, record)
}

fn replayed(record: &DrawRecord) -> crate::replay::DrawReplay {
    let mut capture = Capture::open(write_capture(std::slice::from_ref(record), None).unwrap()).unwrap();
    capture.check().unwrap();
    replay_draw(
        &mut capture,
        0,
        &mut ShaderCache::new(),
        &ReplayOptions::default(),
        None,
    )
    .unwrap()
}

#[test]
fn a_geometry_program_with_stream_output_reads_back_and_replays_equal() {
    let description = stream_output_description();
    let (output, record) = recorded(&description);
    let archive = write_capture(std::slice::from_ref(&record), None).unwrap();
    let mut capture = Capture::open(archive).unwrap();
    assert_eq!(capture.manifest().version, "1.5");
    let entry = &capture.manifest().draws[0];
    assert!(entry.gs.as_ref().unwrap().dxbc.is_some());
    let so = entry.stream_output.as_ref().unwrap();
    assert_eq!(
        (so.declaration.len(), so.strides.as_slice(), so.rasterized_stream),
        (3, &[16, 24, 0, 0][..], 0)
    );
    assert_eq!(so.declaration[2].semantic_name, None);
    assert_eq!(
        so.targets.iter().map(|t| (t.slot, t.offset)).collect::<Vec<_>>(),
        [(0, 0), (1, 8)]
    );
    let summary = capture.draw_summary(0).unwrap();
    assert!(summary.geometry_program.is_some());
    assert_eq!(summary.stream_output.len(), 2);
    let draw = capture.draw(0).unwrap();
    assert_eq!(draw.state.geometry_shader, description.draws[0].geometry_shader);
    assert_eq!(draw.state.stream_output, description.draws[0].stream_output);
    assert_eq!(draw.stream_output.len(), 2);

    let replay = replayed(&record);
    assert!(replay.compared() && replay.matches(), "{replay:?}");
    assert_eq!(replay.stream_output.len(), 2);
    for buffer in &replay.stream_output {
        let report = buffer.report.as_ref().unwrap();
        assert!(report.matches);
        assert_eq!(report.compared, 64);
    }
    // the two triangles' positions went to slot 0: 6 vertices of 16 bytes, the rest as it was
    let written = output.stream_output.as_ref().unwrap().buffers[0].as_ref().unwrap();
    assert_ne!(written[..96], [0xcd; 96]);
    assert_eq!(written[96..], [0xcd; 160]);

    // one altered word of the recorded slot 1 buffer is a difference there, named by its word
    let mut altered = record.clone();
    let mut bytes = altered.stream_output_after[1].as_ref().unwrap().to_vec();
    bytes[12] ^= 1;
    altered.stream_output_after[1] = Some(Arc::from(bytes));
    let replay = replayed(&altered);
    assert!(!replay.matches());
    let report = replay.stream_output[1].report.as_ref().unwrap();
    assert_eq!(report.differing, 1);
    assert_eq!(report.first_word_differences[0].offset, 12);
    assert!(replay.targets.iter().all(|t| t.matches() == Some(true)));
}

#[test]
fn pixel_stage_views_read_back_and_replay_equal() {
    let description = uav_description();
    let (output, record) = recorded(&description);
    // 6 pixels of the 4x4 target are covered (centres with x + y < 3; those on the diagonal edge, a right edge, are
    // not: 15.12): the counter went from 5 to 11, word 1 kept its 77
    let counter = &output.uavs[1].as_ref().unwrap().bytes;
    assert_eq!(u32::from_le_bytes(counter[..4].try_into().unwrap()), 11);
    assert_eq!(u32::from_le_bytes(counter[4..8].try_into().unwrap()), 77);
    let capture = Capture::open(write_capture(std::slice::from_ref(&record), None).unwrap()).unwrap();
    let summary = capture.draw_summary(0).unwrap();
    assert_eq!(summary.uavs.iter().map(|u| u.slot).collect::<Vec<_>>(), [1, 2]);
    let replay = replayed(&record);
    assert!(replay.compared() && replay.matches(), "{replay:?}");
    assert_eq!(replay.uavs.len(), 2);
    assert_eq!(replay.uavs[1].report.as_ref().unwrap().unit, "texel");

    let mut altered = record.clone();
    altered.uavs_after[1].as_mut().unwrap().bytes[4] ^= 1;
    let replay = replayed(&altered);
    assert!(!replay.matches());
    let report = replay.uavs[0].report.as_ref().unwrap();
    assert_eq!((report.differing, report.first_word_differences[0].element), (1, 1));
}

#[test]
fn draw_auto_and_indirect_calls_read_back_as_the_calls_they_amounted_to() {
    let (_, record) = recorded(&uav_description());
    let mut record = record;
    record.indirect = true;
    let archive = write_capture(std::slice::from_ref(&record), None).unwrap();
    let capture = Capture::open(archive).unwrap();
    assert!(capture.manifest().draws[0].indirect);
    assert!(capture.draw_summary(0).unwrap().indirect);
    // a DrawAuto entry is the Draw of its vertex count, from vertex 0
    let call: crate::capture::manifest::CallEntry =
        serde_json::from_str(r#"{"kind": "DrawAuto", "vertex_count": 6}"#).unwrap();
    assert_eq!(
        DrawCall::from(call),
        DrawCall::Draw {
            vertex_count: 6,
            start_vertex: 0
        }
    );
    // a state still holding an unresolved DrawAuto is not written
    let mut unresolved = record.clone();
    unresolved.state.draw_auto = Some(crate::api::draw::DrawAuto {
        buffer: Arc::from(vec![0u8; 16]),
        stride: 16,
    });
    let error = write_capture(std::slice::from_ref(&unresolved), None).unwrap_err();
    assert!(error.detail.contains("DrawAuto"), "{error}");
}

/// The manifest of `record`'s capture changed by `change`, reopened: the first draw's problem.
fn problem_after(record: &DrawRecord, change: impl Fn(&mut serde_json::Value)) -> crate::Error {
    let archive = write_capture(std::slice::from_ref(record), None).unwrap();
    let rewritten = with_manifest(&archive, change);
    let capture = Capture::open(rewritten).unwrap();
    capture.problem(0).cloned().expect("the draw is refused")
}

/// A change to a manifest's JSON.
type ManifestEdit = Box<dyn Fn(&mut serde_json::Value)>;

#[test]
fn hostile_stage_entries_are_refused_with_their_place() {
    let (_, so_record) = recorded(&stream_output_description());
    let (_, uav_record) = recorded(&uav_description());
    let cases: Vec<(&DrawRecord, ManifestEdit, &str, &str)> = vec![
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["declaration"][1]["output_slot"] = 4.into()),
            "draw 0 stream_output declaration[1]",
            "slot 4",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["declaration"][0]["component_count"] = 5.into()),
            "draw 0 stream_output declaration[0]",
            "5 components",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["strides"][1] = 22.into()),
            "draw 0 stream_output strides[1]",
            "multiple of 4",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["rasterized_stream"] = 7.into()),
            "draw 0 stream_output rasterized_stream",
            "stream 7",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["targets"][1]["slot"] = 0.into()),
            "draw 0 stream_output targets[1]",
            "bound twice",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["targets"][0]["offset"] = 257.into()),
            "draw 0 stream_output targets[0] offset",
            "past the end",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["stream_output"]["targets"][0]["offset"] = u32::MAX.into()),
            "draw 0 stream_output targets[0] offset",
            "append",
        ),
        (
            &so_record,
            Box::new(|m| {
                let other = m["draws"][0]["vs"]["dxbc"].clone();
                m["draws"][0]["stream_output"]["targets"][0]["after"] = other;
            }),
            "draw 0 stream_output targets[0] after",
            "the buffer takes 256",
        ),
        (
            &so_record,
            Box::new(|m| m["draws"][0]["gs"]["dxbc"] = serde_json::Value::Null),
            "draw 0 gs dxbc",
            "without its program",
        ),
        (
            &so_record,
            Box::new(|m| {
                let stage = m["draws"][0]["gs"].clone();
                m["draws"][0]["hs"] = stage;
                m["draws"][0]["hs"]["dxbc"] = serde_json::Value::Null;
            }),
            "draw 0 hs dxbc",
            "a hs stage without its program",
        ),
        (
            &so_record,
            Box::new(|m| {
                let stage = m["draws"][0]["gs"].clone();
                m["draws"][0]["ds"] = stage;
                m["draws"][0]["ds"]["dxbc"] = serde_json::Value::Null;
            }),
            "draw 0 ds dxbc",
            "a ds stage without its program",
        ),
        (
            &uav_record,
            Box::new(|m| m["draws"][0]["uavs"][1]["slot"] = 64.into()),
            "draw 0 uavs[1]",
            "slot 64",
        ),
        (
            &uav_record,
            Box::new(|m| m["draws"][0]["uavs"][0]["view"]["num_elements"] = 3.into()),
            "draw 0 uavs[0] view",
            "pass the end",
        ),
        (
            &uav_record,
            Box::new(|m| m["draws"][0]["uavs"][0]["counter_after"] = 3.into()),
            "draw 0 uavs[0] counter_after",
            "counter after the draw",
        ),
    ];
    for (record, change, at, detail) in cases {
        let error = problem_after(record, change);
        assert_eq!(error.at, at, "{error}");
        assert!(error.detail.contains(detail), "{error}");
    }
    // a draw that writes only a stream-output buffer is recorded; one that writes nothing at all is not
    let mut streamed_only = so_record.clone();
    streamed_only.state.render_targets.clear();
    streamed_only.render_targets_after.clear();
    let capture = Capture::open(write_capture(std::slice::from_ref(&streamed_only), None).unwrap()).unwrap();
    capture.check().unwrap();
    let error = problem_after(&streamed_only, |m| {
        m["draws"][0]["stream_output"]["targets"] = serde_json::json!([]);
    });
    assert!(error.detail.contains("nothing it writes"), "{error}");
}
