//! Geometry programs (section 13, 22.8): inputs per vertex of the primitive, `emit`/`cut` in each lane's order,
//! `dcl_maxout`, streams and `vGSInstanceID`; expected values worked out from the listings.

use crate::dxbc::asm::assemble_program;
use crate::shader::{Bindings, Executable, Machine};

fn executable(listing: &str) -> Executable {
    Executable::new(&assemble_program(listing).unwrap()).unwrap()
}

/// The emitted vertices of lane `lane` as (stream, o0.x) pairs, and `None` for each cut.
fn events(machine: &Machine, lane: u8) -> Vec<Option<(u8, u32)>> {
    machine
        .emissions()
        .iter()
        .filter(|e| e.lane == lane)
        .map(|e| e.vertex.map(|first| (e.stream, machine.emitted_vertex(first)[0])))
        .collect()
}

/// Each invocation reads its triangle's three vertices (v[k][0].x = 10 * lane + k), emits them in reverse order
/// with its primitive ID added, cuts, and emits one more vertex than dcl_maxout allows: dropped (13.3).
#[test]
fn emits_follow_each_lane_and_stop_at_dcl_maxout() {
    let exe = executable(
        "gs_5_0
dcl_input v[3][0].x
dcl_input vPrim
dcl_inputprimitive triangle
dcl_outputtopology trianglestrip
dcl_output o0.x
dcl_maxout 4
dcl_temps 1
iadd o0.x, v[2][0].x, vPrim
emit
iadd o0.x, v[1][0].x, vPrim
emit
iadd o0.x, v[0][0].x, vPrim
emit
cut
mov o0.x, l(999)
emit
mov o0.x, l(1000)
emit
ret
",
    );
    let mut m = Machine::new();
    m.start_primitives(&exe, 2).unwrap();
    for lane in 0..2u32 {
        for k in 0..3u32 {
            m.vertex_input_mut(&exe, k, 0, 0).unwrap()[lane as usize] = 10 * lane + k;
        }
        m.set_primitive_id(lane as usize, 100 * (lane + 1));
    }
    m.run(&exe, &Bindings::default(), None).unwrap();
    for lane in 0..2u8 {
        let base = 10 * u32::from(lane) + 100 * (u32::from(lane) + 1);
        assert_eq!(
            events(&m, lane),
            [
                Some((0, base + 2)),
                Some((0, base + 1)),
                Some((0, base)),
                None,
                Some((0, 999))
            ],
            "lane {lane}: the fifth emit passes dcl_maxout 4"
        );
    }
}

/// Streams (22.8.2, 22.8.4) and instancing (13.2.1): each instance emits its instance ID to stream 1 and its
/// square to stream 0, then cuts stream 0 only.
#[test]
fn streams_and_instances() {
    let exe = executable(
        "gs_5_0
dcl_input v[1][0].x
dcl_input vGSInstanceID
dcl_inputprimitive point
dcl_stream m0
dcl_outputtopology pointlist
dcl_output o0.x
dcl_stream m1
dcl_outputtopology pointlist
dcl_output o1.x
dcl_maxout 2
dcl_gsinstances 3
imul null, o0.x, vGSInstanceID.x, vGSInstanceID.x
emit_stream m0
mov o0.x, vGSInstanceID.x
emit_stream m1
cut_stream m0
ret
",
    );
    assert_eq!(exe.geometry().unwrap().instances, 3);
    assert_eq!(exe.geometry().unwrap().streams, 0b11);
    let mut m = Machine::new();
    m.start_primitives(&exe, 3).unwrap();
    for lane in 0..3 {
        m.set_gs_instance(lane, lane as u32);
    }
    m.run(&exe, &Bindings::default(), None).unwrap();
    for lane in 0..3u8 {
        let id = u32::from(lane);
        assert_eq!(events(&m, lane), [Some((0, id * id)), Some((1, id)), None]);
    }
}

#[test]
fn geometry_declarations_are_checked() {
    let refused = |listing: &str, detail: &str| {
        let error = Executable::new(&assemble_program(listing).unwrap()).unwrap_err();
        assert!(error.detail.contains(detail), "{error}");
    };
    refused(
        "gs_4_0\n dcl_outputtopology pointlist\n dcl_maxout 1\n ret",
        "dcl_inputprimitive",
    );
    refused(
        "gs_4_0\n dcl_inputprimitive point\n dcl_outputtopology pointlist\n dcl_maxout 1025\n ret",
        "1024",
    );
    refused(
        "gs_5_0\n dcl_inputprimitive point\n dcl_stream m0\n dcl_outputtopology pointlist\n dcl_maxout 1\n emit\n ret",
        "_stream form",
    );
    refused("vs_4_0\n emit\n ret", "geometry program instruction");
    refused(
        "gs_4_0\n dcl_inputprimitive point\n dcl_outputtopology pointlist\n dcl_output o0.xyzw\n dcl_output o1.xy\n dcl_maxout 200\n ret",
        "1024 values",
    );
}
