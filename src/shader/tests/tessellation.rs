//! Hull and domain programs (sections 10 and 12): a hull program split into its phases, each phase's inputs where
//! [`crate::shader::PatchInputs`] puts them, instance IDs, indexed patch-constant outputs; a domain program reading
//! control points, patch constants and `vDomain`. Expected values worked out from the listings.

use crate::dxbc::asm::assemble_program;
use crate::shader::{Bindings, Executable, HullPhase, Machine, Stage};

fn executable(listing: &str) -> Executable {
    Executable::new(&assemble_program(listing).unwrap()).unwrap()
}

/// Sets `register`'s four words of lane `lane`.
fn set(machine: &mut Machine, lane: usize, register: u32, value: [u32; 4]) {
    for (c, v) in value.into_iter().enumerate() {
        machine.input_mut(register, c).unwrap()[lane] = v;
    }
}

/// The control point phase adds 100 to v[id][1].x and writes the ID; the fork phase (2 instances) writes
/// o[i].x = vicp[i][1].x + vocp[i + 1][0].x; the join phase reads vpc0.x + vpc1.x.
const HULL: &str = "hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 2
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].x
dcl_input v[3][1].x
dcl_output o0.xy
dcl_temps 1
mov r0.x, vOutputControlPointID
iadd o0.x, v[r0.x + 0][1].x, l(100)
mov o0.y, r0.x
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 2
dcl_input vForkInstanceID
dcl_input vicp[3][1].x
dcl_input vocp[2][0].x
dcl_output o0.x
dcl_output o1.x
dcl_temps 2
dcl_indexrange o0.x 2
mov r0.x, vForkInstanceID
iadd r1.x, r0.x, l(1)
iadd o[r0.x + 0].x, vicp[r0.x + 0][1].x, vocp[r1.x + 0][0].x
ret
hs_join_phase
dcl_input vpc0.x
dcl_input vpc1.x
dcl_output o2.x
iadd o2.x, vpc0.x, vpc1.x
ret
";

#[test]
fn a_hull_program_runs_as_its_phases_with_their_inputs_in_place() {
    let hull = executable(HULL);
    assert_eq!(hull.stage(), Stage::Hull);
    assert_eq!(hull.hull_phase(), Some(HullPhase::ControlPoint));
    assert!(!hull.passes_control_points_through());
    let declaration = hull.tessellation().unwrap();
    assert_eq!(
        (declaration.input_control_points, declaration.output_control_points),
        (3, 2)
    );
    let [fork, join] = hull.patch_phases() else {
        panic!("two patch phases");
    };
    assert_eq!((fork.hull_phase(), fork.phase_instances()), (Some(HullPhase::Fork), 2));
    assert_eq!(join.hull_phase(), Some(HullPhase::Join));

    // control point phase: 3 points of 2 registers (v0, v1), then vOutputControlPointID
    let inputs = hull.patch_inputs();
    assert_eq!((inputs.input_points.stride, inputs.input_points.vertices), (2, 3));
    assert_eq!(inputs.system, 6);
    let mut m = Machine::new();
    m.start_patch_lanes(&hull, 2).unwrap();
    for lane in 0..2 {
        for point in 0..3 {
            let register = inputs.input_points.register_of(point, 1).unwrap();
            set(&mut m, lane, register, [10 * point + lane as u32, 0, 0, 0]);
        }
        set(&mut m, lane, inputs.system, [lane as u32 + 1, 0, 0, 0]);
    }
    m.run(&hull, &Bindings::default(), None).unwrap();
    // lane 0 is output point 1: v[1][1].x = 10, + 100; lane 1 is point 2: v[2][1].x = 21, + 100
    assert_eq!(m.output(0, 0)[..2], [110, 1]);
    assert_eq!(m.output(1, 0)[..2], [121, 2]);

    // fork phase: vicp (3 points of 2 registers: only v1 declared, stride 2), vocp (2 points of 1), instance ID
    let inputs = fork.patch_inputs();
    assert_eq!((inputs.input_points.first, inputs.input_points.stride), (0, 2));
    assert_eq!(
        (
            inputs.output_points.first,
            inputs.output_points.stride,
            inputs.output_points.vertices
        ),
        (6, 1, 2)
    );
    m.start_patch_lanes(fork, 2).unwrap();
    for instance in 0..2u32 {
        let lane = instance as usize;
        for point in 0..3 {
            set(
                &mut m,
                lane,
                inputs.input_points.register_of(point, 1).unwrap(),
                [point + 1, 0, 0, 0],
            );
        }
        for point in 0..2 {
            set(
                &mut m,
                lane,
                inputs.output_points.register_of(point, 0).unwrap(),
                [1000 * (point + 1), 0, 0, 0],
            );
        }
        set(&mut m, lane, inputs.system, [instance, 0, 0, 0]);
    }
    m.run(fork, &Bindings::default(), None).unwrap();
    // instance 0 writes o0.x = vicp[0][1].x + vocp[1][0].x = 1 + 2000; instance 1 writes o1.x = 2 + vocp[2] (past
    // the 2 output points: 0, 7.7 leaving it to the implementation)
    assert_eq!((m.written(0, 0), m.written(0, 1)), (1, 0));
    assert_eq!(m.output(0, 0)[0], 2001);
    assert_eq!((m.written(1, 0), m.written(1, 1)), (0, 1));
    assert_eq!(m.output(1, 1)[0], 2);

    // join phase: vpc0, vpc1 after the points (none declared: patch constants first)
    let inputs = join.patch_inputs();
    assert_eq!((inputs.patch_constants, inputs.patch_constant_count), (0, 2));
    m.start_patch_lanes(join, 1).unwrap();
    set(&mut m, 0, inputs.patch_constants, [2001, 0, 0, 0]);
    set(&mut m, 0, inputs.patch_constants + 1, [2, 0, 0, 0]);
    m.run(join, &Bindings::default(), None).unwrap();
    assert_eq!(m.output(0, 2)[0], 2003);
}

#[test]
fn a_domain_program_reads_control_points_patch_constants_and_its_location() {
    let domain = executable(
        "ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_input vDomain.xy
dcl_input vicp[4][0].x
dcl_input vpc1.x
dcl_input vPrim
dcl_output o0.xyzw
dcl_temps 1
ftoi r0.x, vDomain.x
mov o0.x, vicp[r0.x + 2][0].x
mov o0.y, vpc1.x
mov o0.z, vDomain.y
mov o0.w, vPrim
ret
",
    );
    assert_eq!(domain.stage(), Stage::Domain);
    let inputs = domain.patch_inputs();
    // 4 points of 1 register, vpc0..vpc1, then vDomain
    assert_eq!((inputs.input_points.stride, inputs.input_points.vertices), (1, 4));
    assert_eq!(
        (inputs.patch_constants, inputs.patch_constant_count, inputs.system),
        (4, 2, 6)
    );
    let mut m = Machine::new();
    m.start_patch_lanes(&domain, 2).unwrap();
    for lane in 0..2 {
        for point in 0..4 {
            set(&mut m, lane, point, [50 + point, 0, 0, 0]);
        }
        set(&mut m, lane, 5, [77, 0, 0, 0]);
        set(&mut m, lane, 6, [(lane as f32).to_bits(), 0.25f32.to_bits(), 0, 0]);
        m.set_primitive_id(lane, 9);
    }
    m.run(&domain, &Bindings::default(), None).unwrap();
    // u = 0 reads vicp[2]: 52; u = 1 reads vicp[3]: 53
    assert_eq!(m.output(0, 0), [52, 77, 0.25f32.to_bits(), 9]);
    assert_eq!(m.output(1, 0), [53, 77, 0.25f32.to_bits(), 9]);
}
