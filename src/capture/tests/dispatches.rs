//! Dispatches in a capture (version 1.3): written, read back in their place among draws and resolves, and refused
//! when the manifest lies.

use super::*;
use crate::api::dispatch::{DispatchState, UnorderedAccessViewBinding, UnorderedAccessViewDesc};
use crate::dispatch::UavContents;

/// Every thread of 2 groups of 4 writes (its thread ID, its group ID) to structure `vThreadID.x` of `u0` (stride 8)
/// and appends its thread ID to `u1` (a counter view) at the slot `imm_atomic_alloc` gives.
pub(crate) const PROGRAM: &str = "cs_5_0
dcl_uav_structured u0, 8
dcl_uav_structured_opc u1, 4
dcl_input vThreadGroupID.x
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 4, 1, 1
mov r0.x, vThreadID.x
mov r0.y, vThreadGroupID.x
store_structured u0.xy, vThreadID.x, l(0), r0.xyxx
imm_atomic_alloc r1.x, u1
store_structured u1.x, r1.x, l(0), vThreadID.x
ret
";

fn words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The dispatch: `u0` 10 structures of 8 bytes of a 96-byte buffer, every word 0xAAAAAAAA before; `u1` 16 words of `u32::MAX` with
/// its counter set to 5; a constant buffer and a sampler bound that the program does not read.
pub(crate) fn state() -> DispatchState {
    let mut bindings = StageBindings::default();
    bind_slot(
        &mut bindings.constant_buffers,
        1,
        ConstantBufferBinding {
            data: bytes(32, 3),
            first_constant: 0,
            num_constants: 2,
        },
        14,
    )
    .unwrap();
    bind_slot(&mut bindings.samplers, 2, SamplerDesc::default(), 16).unwrap();
    DispatchState {
        compute_shader: crate::dxbc::asm::assemble(PROGRAM).unwrap().into(),
        bindings,
        uavs: vec![
            Some(UnorderedAccessViewBinding {
                resource: Arc::new(Resource::Buffer(words(&[0xAAAA_AAAA; 24]).into())),
                desc: UnorderedAccessViewDesc {
                    dimension: UavDimension::Buffer,
                    num_elements: 10,
                    structure_stride: 8,
                    ..Default::default()
                },
                initial_count: None,
            }),
            Some(UnorderedAccessViewBinding {
                resource: Arc::new(Resource::Buffer(words(&[u32::MAX; 16]).into())),
                desc: UnorderedAccessViewDesc {
                    dimension: UavDimension::Buffer,
                    num_elements: 16,
                    structure_stride: 4,
                    counter: true,
                    ..Default::default()
                },
                initial_count: Some(5),
            }),
        ],
        groups: [2, 1, 1],
    }
}

/// What the GPU leaves, worked out by hand: structures 0..8 of `u0` hold (i, i / 4), 8 and 9 are untouched; the 8
/// threads take `u1`'s slots 5..13 in the order they run (thread i slot 5 + i) and leave the counter at 13.
pub(crate) fn after() -> Vec<Option<UavContents>> {
    let mut u0 = Vec::new();
    for i in 0..10u32 {
        if i < 8 {
            u0.extend([i, i / 4]);
        } else {
            u0.extend([0xAAAA_AAAA; 2]);
        }
    }
    let mut u1 = vec![u32::MAX; 16];
    for i in 0..8u32 {
        u1[5 + i as usize] = i;
    }
    vec![
        Some(UavContents {
            bytes: words(&u0),
            counter: None,
        }),
        Some(UavContents {
            bytes: words(&u1),
            counter: Some(13),
        }),
    ]
}

pub(crate) fn record() -> DispatchRecord {
    DispatchRecord {
        state: state(),
        name: Some("ids".into()),
        api_call: Some("Dispatch(2, 1, 1)".into()),
        indirect: false,
        after: after(),
    }
}

/// A capture of a draw, a resolve, the dispatch and another draw.
fn archive() -> Vec<u8> {
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&every_field_draw()).unwrap();
    writer.add_resolve(&super::resolves::record()).unwrap();
    assert_eq!(writer.add_dispatch(&record()).unwrap(), 0);
    writer.add_draw(&every_field_draw()).unwrap();
    writer.finish_to_vec().unwrap()
}

/// The problem of dispatch 0 of `archive` once `edit` changed its manifest entry (`m["dispatches"][0]`).
fn problem(edit: impl Fn(&mut serde_json::Value)) -> Error {
    let edited = with_manifest(&archive(), |m| edit(&mut m["dispatches"][0]));
    let mut capture = Capture::open(edited).unwrap();
    let problem = capture.dispatch_problem(0).cloned().expect("a problem");
    assert_eq!(capture.dispatch(0).unwrap_err(), problem);
    assert_eq!(capture.check().unwrap_err(), problem);
    // the draws are still read
    capture.draw(0).unwrap();
    problem
}

#[test]
fn a_dispatch_reads_back_in_its_place_with_its_views() {
    let mut capture = Capture::open(archive()).unwrap();
    assert_eq!(capture.manifest().version, "1.5");
    capture.check().unwrap();
    assert_eq!(
        capture.events(),
        [
            FrameEvent::Draw(0),
            FrameEvent::Resolve(0),
            FrameEvent::Dispatch(0),
            FrameEvent::Draw(1)
        ]
    );
    let summaries = capture.dispatch_summaries();
    assert_eq!(summaries.len(), 1);
    let summary = &summaries[0];
    assert_eq!((summary.before_draw, summary.before_resolve), (1, 1));
    assert_eq!(summary.label, "ids");
    assert_eq!(summary.groups, [2, 1, 1]);
    assert_eq!(summary.uavs.len(), 2);
    assert_eq!(summary.uavs[1].counter_after, Some(13));
    let layout = summary.uavs[0].layout.unwrap();
    assert_eq!(layout.access, UavAccessKind::Structured { stride: 8 });
    assert_eq!((layout.width, layout.bytes), (10, 80));

    let dispatch = capture.dispatch(0).unwrap();
    assert_eq!(dispatch.state, state());
    assert_eq!((dispatch.before_draw, dispatch.before_resolve), (1, 1));
    assert_eq!(dispatch.api_call.as_deref(), Some("Dispatch(2, 1, 1)"));
    assert_eq!(dispatch.after.len(), 2);
    for (read, written) in dispatch.after.iter().zip(after()) {
        let (read, written) = (read.as_ref().unwrap(), written.unwrap());
        assert_eq!(read.bytes.as_deref(), Some(&written.bytes[..]));
        assert_eq!(read.counter, written.counter);
    }
    assert!(capture.dispatch(1).is_err());
}

#[test]
fn a_dispatch_with_nothing_recorded_after_reads_back_without_it() {
    let mut writer = CaptureWriter::in_memory();
    writer.add_dispatch(&DispatchRecord::new(state())).unwrap();
    let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
    assert_eq!(capture.events(), [FrameEvent::Dispatch(0)]);
    let dispatch = capture.dispatch(0).unwrap();
    assert_eq!(dispatch.label, "Dispatch(2, 1, 1)");
    assert!(
        dispatch
            .after
            .iter()
            .flatten()
            .all(|u| u.bytes.is_none() && u.counter.is_none())
    );
}

#[test]
fn captures_without_dispatches_are_read_and_written_without_the_list() {
    for version in ["1.0", "1.1", "1.2"] {
        let archive = with_manifest(&simple_archive(), |m| m["version"] = version.into());
        let capture = Capture::open(archive).unwrap();
        assert!(capture.dispatches().is_empty());
        assert_eq!(capture.events(), [FrameEvent::Draw(0)]);
        capture.check().unwrap();
    }
    let manifest: serde_json::Value = {
        let mut zip = zip::ZipArchive::new(Cursor::new(simple_archive())).unwrap();
        serde_json::from_reader(zip.by_name(MANIFEST_NAME).unwrap()).unwrap()
    };
    assert!(manifest.get("dispatches").is_none());
}

#[test]
fn hostile_counts_and_sizes_are_problems_of_the_dispatch() {
    let error = problem(|d| d["groups"] = serde_json::json!([70000, 1, 1]));
    assert_eq!(error.at, "dispatch 0 groups");
    assert!(
        error.detail.contains("70000x1x1 thread groups: at most 65535"),
        "{error}"
    );
    // a view of 11 structures where the recorded after holds 10
    let error = problem(|d| d["uavs"][0]["view"]["num_elements"] = 11.into());
    assert_eq!(error.at, "dispatch 0 uavs[0] after");
    assert!(
        error
            .detail
            .contains("has 80 bytes where the view's 11 elements of 8 bytes takes 88"),
        "{error}"
    );
    // a window past the buffer's end, however large
    let error = problem(|d| d["uavs"][0]["view"]["num_elements"] = u32::MAX.into());
    assert_eq!(error.at, "dispatch 0 uavs[0] view");
    assert!(error.detail.contains("pass the end of the 96-byte buffer"), "{error}");
    let error = problem(|d| d["uavs"][0]["view"]["first_element"] = u32::MAX.into());
    assert_eq!(error.at, "dispatch 0 uavs[0] view");
    // a slot past the last, one bound twice
    let error = problem(|d| d["uavs"][1]["slot"] = 64.into());
    assert_eq!(error.at, "dispatch 0 uavs[1]");
    assert!(error.detail.contains("slot 64 is past the last slot, 63"), "{error}");
    let error = problem(|d| d["uavs"][1]["slot"] = 0.into());
    assert!(error.detail.contains("slot 0 is bound twice"), "{error}");
    // a counter for a view without one; a structure stride not a whole number of words
    let error = problem(|d| d["uavs"][0]["counter_after"] = 3.into());
    assert_eq!(error.at, "dispatch 0 uavs[0] counter_after");
    let error = problem(|d| d["uavs"][0]["view"]["structure_stride"] = 6.into());
    assert_eq!(error.at, "dispatch 0 uavs[0] view");
    // no program; a place past the frame
    let error = problem(|d| d["cs"]["dxbc"] = serde_json::Value::Null);
    assert_eq!(error.at, "dispatch 0 cs dxbc");
    let error = problem(|d| d["before_draw"] = 3.into());
    assert_eq!(error.at, "dispatch 0 before_draw");
    // before the resolve, which came after draw 0, but after draw 1
    let error = problem(|d| {
        d["before_draw"] = 2.into();
        d["before_resolve"] = 0.into();
    });
    assert_eq!(error.at, "dispatch 0 before_resolve");
    assert!(error.detail.contains("do not fit its before_draw 2"), "{error}");
    // a recorded after that lies about its size
    let error = problem(|d| d["uavs"][1]["after"]["size"] = 63.into());
    assert_eq!(error.at, "dispatch 0 uavs[1] after");
}

#[test]
fn a_manifest_that_does_not_read_is_refused_naming_the_dispatch() {
    let edited = with_manifest(&archive(), |m| m["dispatches"][0]["groups"] = serde_json::json!([1, 2]));
    let error = Capture::open(edited).unwrap_err();
    assert_eq!(error.at, "dispatch 0 groups");
    let edited = with_manifest(&archive(), |m| m["dispatches"][0]["uavs"][1]["view"]["raw"] = 1.into());
    let error = Capture::open(edited).unwrap_err();
    assert_eq!(error.at, "dispatch 0 uavs[1] view");
    let edited = with_manifest(&archive(), |m| {
        m["dispatches"][0]["groups"] = serde_json::json!([-1, 1, 1])
    });
    assert_eq!(Capture::open(edited).unwrap_err().at, "dispatch 0 groups");
    // a manifest cut short
    let truncated = rezip(&archive(), |name, data| {
        Some(if name == MANIFEST_NAME {
            data[..data.len() / 2].to_vec()
        } else {
            data.to_vec()
        })
    });
    let error = Capture::open(truncated).unwrap_err();
    assert!(error.detail.contains("not JSON"), "{error}");
}

#[test]
fn the_writer_refuses_what_a_reader_would() {
    let mut writer = CaptureWriter::in_memory();
    let mut short = record();
    short.after[0].as_mut().unwrap().bytes.pop();
    let error = writer.add_dispatch(&short).unwrap_err();
    assert_eq!(error.at, "dispatch 0 uavs[0] after");
    let mut many = record();
    many.state.groups = [1, 65536, 1];
    assert_eq!(writer.add_dispatch(&many).unwrap_err().at, "dispatch 0 groups");
    assert_eq!(writer.dispatch_count(), 0);
}
