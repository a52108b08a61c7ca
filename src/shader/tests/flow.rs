//! Flow control with per-lane execution masks (22.7): every construct, with lanes taking different paths.

use super::{exe, f, run_quads, run_vertices};
use crate::shader::{Bindings, Machine};

/// Runs a vertex program with `v0.x` = each of `values` (one lane each) and returns each lane's `o0`.
fn per_lane(text: &str, values: &[u32]) -> Vec<[u32; 4]> {
    let exe = exe(text);
    let inputs: Vec<[(u32, [u32; 4]); 1]> = values.iter().map(|v| [(0, [*v, 0, 0, 0])]).collect();
    let lanes: Vec<&[(u32, [u32; 4])]> = inputs.iter().map(|i| &i[..]).collect();
    let m = run_vertices(&exe, &lanes, &Bindings::default());
    (0..values.len()).map(|lane| m.output(lane, 0)).collect()
}

#[test]
fn if_else_runs_each_lane_down_its_own_branch() {
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        ilt r0.x, v0.x, l(2)
        if_nz r0.x
            mov o0.x, l(10)
            if_z v0.x
                mov o0.y, l(1)
            else
                mov o0.y, l(2)
            endif
        else
            mov o0.x, l(20)
        endif
        mov o0.w, l(7)
        ret
        ",
        &[0, 1, 2, 3],
    );
    // v0.x < 2 takes the outer then-branch; of those, v0.x == 0 takes the inner then-branch. All reach o0.w.
    assert_eq!(out, vec![[10, 1, 0, 7], [10, 2, 0, 7], [20, 0, 0, 7], [20, 0, 0, 7]]);
}

#[test]
fn loops_run_each_lane_its_own_number_of_times_with_break_and_continue() {
    // i counts 1..=n (n = v0.x); the sum adds the odd i only (continuec_z skips the even ones).
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.xy, l(0, 0, 0, 0)
        loop
            uge r0.z, r0.x, v0.x
            breakc_nz r0.z
            iadd r0.x, r0.x, l(1)
            and r0.w, r0.x, l(1)
            continuec_z r0.w
            iadd r0.y, r0.y, r0.x
        endloop
        mov o0.xy, r0.xyxx
        ret
        ",
        &[0, 3, 5, 6],
    );
    // n = 0: no iteration; 3: 1 + 3; 5: 1 + 3 + 5; 6: the same 9, i ends at 6.
    assert_eq!(out, vec![[0, 0, 0, 0], [3, 4, 0, 0], [5, 9, 0, 0], [6, 9, 0, 0]]);
}

#[test]
fn lanes_that_break_inside_an_if_do_not_come_back_at_its_endif() {
    // Each iteration: i += 1; lanes with i >= n break inside the then-branch, the others take the else-branch
    // (z += 10), and all that remain reach w += 1 after the endif.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.xyzw, l(0, 0, 0, 0)
        loop
            iadd r0.x, r0.x, l(1)
            uge r0.y, r0.x, v0.x
            if_nz r0.y
                break
            else
                iadd r0.z, r0.z, l(10)
            endif
            iadd r0.w, r0.w, l(1)
        endloop
        mov o0, r0
        ret
        ",
        &[1, 2, 3, 5],
    );
    let t = 0xFFFF_FFFF;
    // n iterations, the last one breaking: z = 10 (n - 1), w = n - 1.
    assert_eq!(out, vec![[1, t, 0, 0], [2, t, 10, 1], [3, t, 20, 2], [5, t, 40, 4]]);
}

#[test]
fn nested_loops_break_only_the_inner_one() {
    // Outer runs n times; inner runs (outer index + 1) times each; total inner iterations = n(n+1)/2.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 2
        mov r0.xyzw, l(0, 0, 0, 0)
        loop
            uge r1.x, r0.x, v0.x
            breakc_nz r1.x
            mov r0.y, l(0)
            loop
                ult r1.y, r0.x, r0.y
                breakc_nz r1.y
                iadd r0.z, r0.z, l(1)
                iadd r0.y, r0.y, l(1)
            endloop
            iadd r0.x, r0.x, l(1)
        endloop
        mov o0, r0
        ret
        ",
        &[0, 1, 3, 4],
    );
    assert_eq!(out.iter().map(|o| o[2]).collect::<Vec<_>>(), vec![0, 1, 6, 10]);
}

#[test]
fn switch_falls_through_cases_and_picks_default_when_no_case_matches() {
    // Case 0 has code and no break: it falls into case 1 (22.7.18: "behaves exactly as a switch construct in the C
    // language"). default shares case 3's block. Case 4 reaches endswitch without a break.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        switch v0.x
            case l(0)
                mov o0.x, l(100)
            case l(1)
                mov o0.y, l(1)
                break
            default
            case l(3)
                mov o0.z, l(3)
                break
            case l(4)
                mov o0.w, l(4)
        endswitch
        ret
        ",
        &[0, 1, 2, 3, 4, 7],
    );
    assert_eq!(
        out,
        vec![
            [100, 1, 0, 0],
            [0, 1, 0, 0],
            [0, 0, 3, 0],
            [0, 0, 3, 0],
            [0, 0, 0, 4],
            [0, 0, 3, 0]
        ]
    );
}

#[test]
fn a_switch_without_default_skips_lanes_that_match_no_case() {
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        switch v0.x
            case l(5)
                mov o0.x, l(5)
                break
        endswitch
        mov o0.y, l(9)
        ret
        ",
        &[5, 6],
    );
    assert_eq!(out, vec![[5, 9, 0, 0], [0, 9, 0, 0]]);
}

#[test]
fn break_in_a_switch_leaves_the_switch_and_continue_leaves_it_for_the_loop() {
    // Per iteration i (0..3): case 1 continues (skips the w += 1), other values break out of the switch only.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.xyzw, l(0, 0, 0, 0)
        loop
            uge r0.y, r0.x, l(3)
            breakc_nz r0.y
            iadd r0.x, r0.x, l(1)
            switch r0.x
                case l(1)
                    continue
                default
                    iadd r0.z, r0.z, v0.x
                    break
            endswitch
            iadd r0.w, r0.w, l(1)
        endloop
        mov o0, r0
        ret
        ",
        &[10],
    );
    // i = 1 continues; i = 2, 3 add v0.x to z and 1 to w.
    assert_eq!(out, vec![[3, 0xFFFF_FFFF, 20, 2]]);
}

#[test]
fn call_and_conditional_return_nest_per_lane() {
    // l0 adds 1, calls l1 where v0.x != 0, then adds 100. l1 adds 10, returns early where v0.x == 2, else adds 1000.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, l(0)
        call l0
        mov o0.x, r0.x
        ret
        label l0
        iadd r0.x, r0.x, l(1)
        callc_nz v0.x, l1
        iadd r0.x, r0.x, l(100)
        ret
        label l1
        iadd r0.x, r0.x, l(10)
        ieq r0.y, v0.x, l(2)
        retc_nz r0.y
        iadd r0.x, r0.x, l(1000)
        ret
        ",
        &[0, 1, 2],
    );
    assert_eq!(out.iter().map(|o| o[0]).collect::<Vec<_>>(), vec![101, 1111, 111]);
}

#[test]
fn a_call_with_32_return_addresses_on_the_stack_is_skipped() {
    // A subroutine calling itself: 22.7.10 "Subroutines can nest 32 deep ... If there are already 32 entries on the
    // return address stack and a call is issued, the call is skipped over." Calls with 0..31 entries succeed: the
    // body runs 32 times.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, l(0)
        call l0
        mov o0.x, r0.x
        ret
        label l0
        iadd r0.x, r0.x, l(1)
        call l0
        ret
        ",
        &[0],
    );
    assert_eq!(out[0][0], 32);
}

#[test]
fn a_nested_ret_in_the_main_program_ends_only_its_lanes() {
    // 22.7.16: "If not inside a subroutine, terminate program execution."
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        mov o0.x, l(1)
        loop
            if_nz v0.x
                ret
            endif
            break
        endloop
        mov o0.y, l(2)
        ret
        ",
        &[0, 1],
    );
    assert_eq!(out, vec![[1, 2, 0, 0], [1, 0, 0, 0]]);
}

#[test]
fn a_discarded_lane_keeps_running_for_its_quad_but_writes_nothing() {
    // 22.5.1: discard "flags the current pixel as terminated, while continuing execution, so that other pixels
    // executing in parallel may obtain derivatives". Lanes 1 and 3 (v0.x != 0) discard inside an if; the doubled
    // value they compute afterwards still feeds lanes 0 and 2's fine x derivative: 2*1 - 2*0 = 2, 2*3 - 2*0 = 6.
    let exe = exe("
        ps_5_0
        dcl_input_ps linear v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        if_nz v0.x
            discard_nz v0.x
        endif
        mul r0.x, v0.x, l(2.0)
        deriv_rtx_fine o0.x, r0.x
        mov o0.y, r0.x
        ret
    ");
    let inputs: Vec<Vec<(u32, [u32; 4])>> = [0.0, 1.0, 0.0, 3.0]
        .iter()
        .map(|v| vec![(0, [f(*v), 0, 0, 0])])
        .collect();
    let m = run_quads(&exe, &[0b1111], &inputs, &Bindings::default());
    assert!(!m.is_discarded(0) && m.is_discarded(1) && !m.is_discarded(2) && m.is_discarded(3));
    assert_eq!(m.output(0, 0)[0], f(2.0));
    assert_eq!(m.output(2, 0)[0], f(6.0));
    assert_eq!(m.written(0, 0), 0b0011);
    assert_eq!(m.written(1, 0), 0);
    // The discarded lane did execute the mov: its register holds the value, flagged as not written.
    assert_eq!(m.output(1, 0)[1], f(2.0));
    assert!(!m.writes(1) && m.writes(2));
}

#[test]
fn discard_z_discards_where_the_value_is_zero() {
    let exe = exe("
        ps_4_0
        dcl_input_ps constant v0.x
        dcl_output o0.xyzw
        discard_z v0.x
        mov o0, l(1, 1, 1, 1)
        ret
    ");
    let inputs: Vec<Vec<(u32, [u32; 4])>> = [0u32, 5, 0, 0x8000_0000]
        .iter()
        .map(|v| vec![(0, [*v, 0, 0, 0])])
        .collect();
    let m = run_quads(&exe, &[0b1111], &inputs, &Bindings::default());
    assert_eq!(
        (0..4).map(|l| m.is_discarded(l)).collect::<Vec<_>>(),
        [true, false, true, false]
    );
}

#[test]
fn a_loop_that_never_ends_stops_at_the_instruction_budget() {
    let exe = exe("
        ps_5_0
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, l(0)
        loop
            iadd r0.x, r0.x, l(1)
        endloop
        mov o0, r0
        ret
    ");
    let mut m = Machine::new();
    m.set_budget(1000);
    m.start_quads(&exe, &[0b0001]).unwrap();
    let error = m.run(&exe, &Bindings::default(), None).unwrap_err();
    assert_eq!(error.what, "ps_5_0");
    // Executed: mov (1), loop (2), then iadd (odd) and endloop (even): the 1001st is an iadd, the program's
    // instruction 4 (after dcl_output, dcl_temps, mov, loop), at token 13 = 0xd: version and length (2),
    // dcl_output o0 (opcode, operand, index: 3), dcl_temps 1 (2), mov r0.x, l(0) (opcode, 2 + 2: 5), loop (1).
    assert_eq!(error.at, "instruction 4 (token 0xd, iadd)");
    assert!(error.detail.contains("budget of 1000"), "{error}");
}

#[test]
fn a_ret_inside_a_loop_in_a_subroutine_returns_only_its_lanes_to_the_caller() {
    // l0 loops i = 1, 2, ...; a lane returns when i reaches v0.x, from inside the loop; the caller then adds 100.
    // The loop itself never ends by a break: it ends when every lane has returned.
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, l(0)
        call l0
        iadd r0.x, r0.x, l(100)
        mov o0.x, r0.x
        ret
        label l0
        loop
            iadd r0.x, r0.x, l(1)
            uge r0.y, r0.x, v0.x
            retc_nz r0.y
        endloop
        ret
        ",
        &[1, 3, 4],
    );
    assert_eq!(out.iter().map(|o| o[0]).collect::<Vec<_>>(), vec![101, 103, 104]);
}

#[test]
fn a_conditional_ret_in_the_main_program_ends_its_lanes_there() {
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        mov o0.x, l(1)
        retc_nz v0.x
        mov o0.y, l(2)
        ret
        ",
        &[0, 7],
    );
    assert_eq!(out, vec![[1, 2, 0, 0], [1, 0, 0, 0]]);
}

#[test]
fn a_ret_inside_a_switch_case_of_a_subroutine_leaves_the_switch_and_the_subroutine() {
    let out = per_lane(
        "
        vs_4_0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, l(0)
        call l0
        mov o0.x, r0.x
        ret
        label l0
        switch v0.x
            case l(1)
                mov r0.x, l(10)
                ret
            default
                mov r0.x, l(20)
                break
        endswitch
        iadd r0.x, r0.x, l(5)
        ret
        ",
        &[1, 2],
    );
    // Lane 0 (1) returns from inside its case with 10; lane 1 (2) takes default, leaves the switch, adds 5.
    assert_eq!(out.iter().map(|o| o[0]).collect::<Vec<_>>(), vec![10, 25]);
}
