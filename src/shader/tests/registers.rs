//! Register files, addressing, swizzles, masks and source modifiers, and the out-of-range rules.

use super::{exe, f, fv, run_quads, run_vertices};
use crate::shader::{Bindings, Machine, Unbound};

/// Bindings with constant buffer 0.
fn cb0(data: &[[u32; 4]]) -> Bindings<'_> {
    let mut bindings = Bindings::default();
    bindings.constant_buffers[0] = Some(data);
    bindings
}

#[test]
fn swizzle_mask_and_modifiers_apply_in_order() {
    // Source: swizzle first, then |x|, then negate (22.18.1: "as if the _abs modifier is applied first, then the
    // negate"); the mask picks which components of the result are written.
    let exe = exe("
        vs_4_0
        dcl_input v0.xyzw
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        dcl_temps 1
        mov r0.xyzw, l(9.0, 9.0, 9.0, 9.0)
        mov r0.yw, -|v0.xxzy|
        mov o0, r0
        mov o1, |v0.wzyx|
        mov o2, -v0
        ret
    ");
    let v0 = fv([1.0, -2.0, 3.0, -4.0]);
    let m = run_vertices(&exe, &[&[(0, v0)]], &Bindings::default());
    // r0.y = -|v0.x| = -1 (swizzle component y is x); r0.w = -|v0.y| = -2 (component w is y); x, z keep 9.
    assert_eq!(m.output(0, 0), fv([9.0, -1.0, 9.0, -2.0]));
    assert_eq!(m.output(0, 1), fv([4.0, 3.0, 2.0, 1.0]));
    assert_eq!(m.output(0, 2), fv([-1.0, 2.0, -3.0, 4.0]));
    assert_eq!(m.written(0, 0), 0b1111);
}

#[test]
fn an_integer_negate_is_twos_complement() {
    // 22.18.2: "For integer instructions, the negate modifier takes the 2's complement".
    let exe = exe("
        vs_4_0
        dcl_input v0.xyzw
        dcl_output o0.xyzw
        iadd o0, -v0, l(10, 10, 10, 10)
        ret
    ");
    let m = run_vertices(&exe, &[&[(0, [3, 0, 0xFFFF_FFFF, 0x8000_0000])]], &Bindings::default());
    // 10 - 3, 10 - 0, 10 - (-1), 10 - 2^31 (wrapping).
    assert_eq!(m.output(0, 0), [7, 10, 11, 0x8000_000A]);
}

#[test]
fn a_negated_float_source_flips_only_the_sign_bit() {
    // 22.18.2 on NaN, infinity and a denormal: the sign flips, nothing else changes (mov does not flush).
    let exe = exe("
        vs_4_0
        dcl_input v0.xyzw
        dcl_output o0.xyzw
        mov o0, -v0
        ret
    ");
    let m = run_vertices(&exe, &[&[(0, [0x7FC1_2345, 0x7F80_0000, 1, 0])]], &Bindings::default());
    assert_eq!(m.output(0, 0), [0xFFC1_2345, 0xFF80_0000, 0x8000_0001, 0x8000_0000]);
}

#[test]
fn constant_buffers_read_with_immediate_and_relative_indices() {
    // cb0[r0.x + 1]: 7.8.6 adds the unsigned register value to the immediate.
    let exe = exe("
        vs_4_0
        dcl_constantBuffer cb0[4], dynamicIndexed
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_temps 1
        mov r0.x, v0.x
        mov o0, cb0[r0.x + 1].wzyx
        mov o1, cb0[2].y
        ret
    ");
    let data = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]];
    let bindings = cb0(&data);
    let m = run_vertices(&exe, &[&[(0, [0; 4])], &[(0, [2; 4])]], &bindings);
    assert_eq!(m.output(0, 0), [13, 12, 11, 10]);
    assert_eq!(m.output(1, 0), [33, 32, 31, 30]);
    assert_eq!(m.output(0, 1), [21; 4]);
}

#[test]
fn a_constant_buffer_read_past_the_bound_buffer_gives_zero() {
    // 7.5: "Out of bounds access to ConstantBuffers returns 0 in all components. Out of bounds behavior is always
    // with respect to the size of the buffer bound at that slot." The declaration says 4 vectors, the binding has
    // 2: cb0[2] and cb0[3] read 0, as does an index that wraps past 2^32.
    let exe = exe("
        vs_4_0
        dcl_constantBuffer cb0[4], dynamicIndexed
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, v0.x
        mov o0, cb0[r0.x + 1]
        ret
    ");
    let data = [[1, 2, 3, 4], [5, 6, 7, 8]];
    let bindings = cb0(&data);
    let lanes: [&[(u32, [u32; 4])]; 4] = [&[(0, [0; 4])], &[(0, [1; 4])], &[(0, [2; 4])], &[(0, [0xFFFF_FFFF; 4])]];
    let m = run_vertices(&exe, &lanes, &bindings);
    assert_eq!(m.output(0, 0), [5, 6, 7, 8]);
    assert_eq!(m.output(1, 0), [0; 4]);
    assert_eq!(m.output(2, 0), [0; 4]);
    // 0xFFFFFFFF + 1 wraps to 0: in range (the index is "considered unsigned 32 bit", 7.8.6, and wraps).
    assert_eq!(m.output(3, 0), [1, 2, 3, 4]);
}

#[test]
fn an_empty_constant_buffer_slot_is_an_error_or_zeros_as_asked() {
    let exe = exe("
        vs_4_0
        dcl_constantBuffer cb3[1], immediateIndexed
        dcl_output o0.xyzw
        mov o0, cb3[0]
        ret
    ");
    let mut machine = Machine::new();
    machine.start_vertices(&exe, 1).unwrap();
    let error = machine.run(&exe, &Bindings::default(), None).unwrap_err();
    assert_eq!(error.what, "vs_4_0");
    assert_eq!(error.at, "cb3");
    assert!(error.detail.contains("cb3"), "{error}");
    // 7.5: "Fetching from a ConstantBuffer slot with no Buffer present always returns 0".
    let bindings = Bindings {
        unbound: Unbound::Zero,
        ..Bindings::default()
    };
    let m = run_vertices(&exe, &[&[]], &bindings);
    assert_eq!(m.output(0, 0), [0; 4]);
}

#[test]
fn the_immediate_constant_buffer_reads_like_a_constant_buffer() {
    // 7.5.1: icb "behaves (gets accessed) by the shader exactly the same way as Constant Buffers", so a read past
    // its end gives 0.
    let exe = exe("
        vs_4_0
        dcl_immediateConstantBuffer { {1, 2, 3, 4}, {5, 6, 7, 8} }
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, v0.x
        mov o0, icb[r0.x + 0].zwxy
        ret
    ");
    let m = run_vertices(&exe, &[&[(0, [1; 4])], &[(0, [2; 4])]], &Bindings::default());
    assert_eq!(m.output(0, 0), [7, 8, 5, 6]);
    assert_eq!(m.output(1, 0), [0; 4]);
}

#[test]
fn indexable_temporaries_read_and_write_per_lane() {
    // Each lane writes x0[i] for its own i and reads x0[j]; past the 3 elements a read gives 0 and a write is
    // dropped (7.3 leaves both undefined; these are the interpreter's choices).
    let exe = exe("
        vs_4_0
        dcl_input v0.xy
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_temps 1
        dcl_indexableTemp x0[3], 4
        mov x0[0].xyzw, l(1, 1, 1, 1)
        mov x0[1].xyzw, l(2, 2, 2, 2)
        mov x0[2].xyzw, l(3, 3, 3, 3)
        mov r0.xy, v0.xyxx
        mov x0[r0.x + 0].yz, l(7, 8, 9, 10)
        mov o0, x0[r0.y + 0]
        mov o1, x0[2]
        ret
    ");
    let lanes: [&[(u32, [u32; 4])]; 3] = [&[(0, [1, 1, 0, 0])], &[(0, [2, 0, 0, 0])], &[(0, [5, 9, 0, 0])]];
    let m = run_vertices(&exe, &lanes, &Bindings::default());
    // Lane 0 wrote x0[1].yz = 8, 9 and reads x0[1].
    assert_eq!(m.output(0, 0), [2, 8, 9, 2]);
    // Lane 1 wrote x0[2].yz (its own copy) and reads x0[0].
    assert_eq!(m.output(1, 0), [1; 4]);
    assert_eq!(m.output(1, 1), [3, 8, 9, 3]);
    // Lane 2's write to x0[5] is dropped; its read of x0[9] gives 0; its x0[2] is untouched.
    assert_eq!(m.output(2, 0), [0; 4]);
    assert_eq!(m.output(2, 1), [3; 4]);
}

#[test]
fn relatively_indexed_inputs_and_outputs() {
    // v[r0.x + 1] and o[r0.y + 0]; past the declared registers a read gives 0 and a write is dropped (7.7: undefined).
    let exe = exe("
        vs_4_0
        dcl_input v0.xy
        dcl_input v1.xyzw
        dcl_input v2.xyzw
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_temps 1
        mov r0.xy, v0.xyxx
        mov o[r0.y + 0].xyzw, v[r0.x + 1].xyzw
        ret
    ");
    let v1 = [11, 12, 13, 14];
    let v2 = [21, 22, 23, 24];
    let lanes: [&[(u32, [u32; 4])]; 3] = [
        &[(0, [0, 1, 0, 0]), (1, v1), (2, v2)],
        &[(0, [1, 0, 0, 0]), (1, v1), (2, v2)],
        &[(0, [2, 0, 0, 0]), (1, v1), (2, v2)],
    ];
    let m = run_vertices(&exe, &lanes, &Bindings::default());
    assert_eq!(m.output(0, 1), v1);
    assert_eq!(m.written(0, 0), 0);
    assert_eq!(m.written(0, 1), 0b1111);
    assert_eq!(m.output(1, 0), v2);
    // v[3] does not exist: 0.
    assert_eq!(m.output(2, 0), [0; 4]);
    assert_eq!(m.written(2, 0), 0b1111);
}

#[test]
fn pixel_system_inputs_and_outputs() {
    // vCoverage and vPrim read as scalars in every component; oDepth and oMask are written from the first component.
    let exe = exe("
        ps_5_0
        dcl_input vCoverage
        dcl_input vPrim
        dcl_output oDepth
        dcl_output oMask
        dcl_output o0.xyzw
        mov o0.xy, vCoverage
        mov o0.zw, vPrim
        mov oDepth, l(0.5)
        and oMask, vCoverage, l(1)
        ret
    ");
    let mut m = Machine::new();
    m.start_quads(&exe, &[0b1111]).unwrap();
    for lane in 0..4 {
        m.set_input_coverage(lane, 0b11 + lane as u32);
        m.set_primitive_id(lane, 40 + lane as u32);
    }
    m.run(&exe, &Bindings::default(), None).unwrap();
    assert_eq!(m.output(2, 0), [5, 5, 42, 42]);
    assert_eq!(m.depth(2), Some(f(0.5)));
    // 5 & 1 = 1; lane 1: 4 & 1 = 0.
    assert_eq!(m.coverage_mask(2), Some(1));
    assert_eq!(m.coverage_mask(1), Some(0));
}

#[test]
fn a_temporary_past_dcl_temps_is_refused_at_build() {
    let error = super::exe_error(
        "
        vs_4_0
        dcl_output o0.xyzw
        dcl_temps 2
        mov r2.x, l(1)
        ret
    ",
    );
    assert_eq!(error.what, "vs_4_0");
    // Instruction 2 (after two declarations), token 0x5: version, length, 2 + 2 DWORDs of declarations.
    assert!(error.at.starts_with("instruction 2 ("), "{error}");
    assert!(error.at.contains("mov"), "{error}");
    assert!(error.detail.contains("r2"), "{error}");
}

#[test]
fn unwritten_outputs_are_flagged() {
    let exe = exe("
        ps_4_0
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        mov o1.xz, l(1.0, 2.0, 3.0, 4.0)
        ret
    ");
    let m = run_quads(&exe, &[0b1111], &[], &Bindings::default());
    assert_eq!(m.written(0, 0), 0);
    assert_eq!(m.written(0, 1), 0b0101);
    assert_eq!(m.output(0, 1), [f(1.0), 0, f(3.0), 0]);
}

#[test]
fn double_literals_hold_two_doubles() {
    // d(1.5, -2.0): .xy = 1.5, .zw = -2.0, each low word first (3.1.4); 1.5 + 1.5 = 3, -2 + -2 = -4.
    let exe = exe("
        vs_5_0
        dcl_output o0.xyzw
        dadd o0, d(1.5, -2.0), d(1.5, -2.0)
        ret
    ");
    let m = run_vertices(&exe, &[&[]], &Bindings::default());
    let three = 3.0f64.to_bits();
    let minus_four = (-4.0f64).to_bits();
    assert_eq!(
        m.output(0, 0),
        [
            three as u32,
            (three >> 32) as u32,
            minus_four as u32,
            (minus_four >> 32) as u32
        ]
    );
}
