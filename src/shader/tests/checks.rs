//! What `Executable::new` refuses, and that its errors name the program and the instruction.

use super::exe_error;

/// The error `Executable::new` gives for a listing built by the crate's own assembler (`crate::dxbc::asm`), which
/// knows the compute declarations the test assembler does not.
fn listing_error(text: &str) -> crate::Error {
    let program = crate::dxbc::asm::assemble_program(text).unwrap();
    match crate::shader::Executable::new(&program) {
        Ok(_) => panic!("the program was accepted"),
        Err(e) => e,
    }
}

/// As [`refused`], for a listing of the crate's assembler.
fn listing_refused(text: &str, opcode: &str, detail: &str) {
    let error = listing_error(text);
    assert!(error.at.contains(&format!(", {opcode})")), "{error}");
    assert!(error.detail.contains(detail), "{error}");
}

/// The error for a program, checked to name `what` and an instruction with `opcode`, and to say `detail`.
fn refused(text: &str, opcode: &str, detail: &str) {
    let error = exe_error(text);
    let what = text.split_whitespace().next().unwrap();
    assert_eq!(error.what, what, "{error}");
    assert!(error.at.contains(&format!(", {opcode})")), "{error}");
    assert!(error.detail.contains(detail), "{error}");
}

#[test]
fn unbalanced_flow_control_names_the_unmatched_instruction() {
    refused("ps_4_0\n if_nz l(1)\n ret", "if", "no matching endif");
    refused(
        "ps_4_0\n loop\n if_nz l(1)\n endloop\n endif\n ret",
        "endloop",
        "without an open loop",
    );
    refused("ps_4_0\n else\n ret", "else", "without an open if");
    refused(
        "ps_4_0\n if_nz l(1)\n else\n else\n endif\n ret",
        "else",
        "without an open if",
    );
    refused("ps_4_0\n endif\n ret", "endif", "without an open if");
    refused("ps_4_0\n switch l(1)\n ret", "switch", "no matching endswitch");
    refused("ps_4_0\n loop\n ret", "loop", "no matching endloop");
    refused("ps_4_0\n endswitch\n ret", "endswitch", "without an open switch");
}

#[test]
fn break_continue_and_case_must_be_inside_their_constructs() {
    refused("ps_4_0\n break\n ret", "break", "outside a loop or switch");
    refused(
        "ps_4_0\n if_nz l(1)\n breakc_nz l(1)\n endif\n ret",
        "breakc",
        "outside a loop or switch",
    );
    refused(
        "ps_4_0\n switch l(0)\n case l(0)\n continue\n endswitch\n ret",
        "continue",
        "outside a loop",
    );
    refused("ps_4_0\n case l(1)\n ret", "case", "outside a switch");
    refused(
        "ps_4_0\n switch l(0)\n case l(0)\n case l(0)\n endswitch\n ret",
        "case",
        "appears twice",
    );
    refused(
        "ps_4_0\n switch l(0)\n default\n default\n endswitch\n ret",
        "default",
        "second default",
    );
}

#[test]
fn subroutines_must_follow_a_ret_and_exist() {
    refused("vs_4_0\n nop\n label l0\n ret", "label", "must follow a ret");
    refused("vs_4_0\n call l3\n ret\n label l0\n ret", "call", "l3 is not defined");
    refused("vs_4_0\n ret\n label l0\n nop", "nop", "must end with a ret");
    refused(
        "vs_4_0\n if_nz l(1)\n ret\n label l0\n endif\n ret",
        "label",
        "still open",
    );
}

#[test]
fn instructions_of_other_stages_are_refused() {
    refused("vs_4_0\n discard_nz l(1)\n ret", "discard", "only in pixel programs");
    refused(
        "vs_5_0\n dcl_temps 1\n deriv_rtx_coarse r0.x, r0.x\n ret",
        "deriv_rtx_coarse",
        "only in pixel",
    );
    refused("ps_4_0\n emit\n ret", "emit", "geometry program instruction");
    refused(
        "ps_5_0\n dcl_temps 1\n store_raw u0.x, l(0), r0.x\n ret",
        "store_raw",
        "u0 is not declared",
    );
    listing_refused("ps_5_0\n sync_g_t\n ret", "sync", "only sync_uglobal");
    listing_refused("ps_5_0\n sync_uglobal_t\n ret", "sync", "only sync_uglobal");
    listing_refused(
        "ps_5_0\n dcl_uav_raw u0\n dcl_temps 1\n store_raw u0.xz, l(0), r0.xy\n ret",
        "store_raw",
        ".x, .xy, .xyz or .xyzw",
    );
    listing_refused(
        "cs_5_0\n dcl_uav_raw u0\n dcl_temps 1\n dcl_thread_group 1, 1, 1\n ld_uav_typed r0.x, l(0), u0.x\n ret",
        "ld_uav_typed",
        "cannot use u0",
    );
}

#[test]
fn programs_missing_their_stages_declarations_are_refused() {
    let error = listing_error("hs_5_0\n ret");
    assert_eq!(error.what, "hs_5_0");
    assert!(error.detail.contains("before the first phase"), "{error}");
    let error = listing_error("hs_5_0\n hs_decls\n hs_control_point_phase\n ret");
    assert!(
        error.detail.contains("domain, partitioning and output primitive"),
        "{error}"
    );
    let error = listing_error(
        "hs_5_0\n hs_decls\n dcl_input_control_point_count 3\n dcl_output_control_point_count 4\n dcl_tessellator_domain domain_tri\n dcl_tessellator_partitioning partitioning_integer\n dcl_tessellator_output_primitive output_triangle_cw\n hs_fork_phase\n ret",
    );
    assert!(error.detail.contains("pass through"), "{error}");
    let error = listing_error("hs_5_0\n hs_decls\n hs_fork_phase\n ret\n hs_control_point_phase\n ret");
    assert!(error.detail.contains("out of order"), "{error}");
    let error = listing_error("hs_5_0\n hs_decls\n hs_fork_phase\n dcl_hs_fork_phase_instance_count 129\n ret");
    assert!(error.detail.contains("1 to 128"), "{error}");
    let error = listing_error(
        "ds_5_0\n dcl_input_control_point_count 3\n dcl_tessellator_domain domain_tri\n dcl_temps 1\n add r0.x, vicp[0][0].x, l(1)\n ret",
    );
    assert!(
        error.detail.contains("vicp") || error.detail.contains("cannot be read"),
        "{error}"
    );
    let error = listing_error("cs_5_0\n ret");
    assert!(error.detail.contains("dcl_thread_group"), "{error}");
    let error = listing_error("cs_5_0\n dcl_thread_group 1024, 1, 2\n ret");
    assert!(error.detail.contains("18.6.4"), "{error}");
    let error = listing_error("cs_4_0\n dcl_thread_group 8, 8, 2\n ret");
    assert!(error.detail.contains("Z 1 to 1"), "{error}");
    let error = listing_error("cs_5_0\n dcl_thread_group 1, 1, 1\n dcl_tgsm_raw g0, 32772\n ret");
    assert!(error.detail.contains("32768 bytes"), "{error}");
}

#[test]
fn instructions_newer_than_the_program_are_refused() {
    refused(
        "ps_4_0\n dcl_temps 1\n rcp r0.x, l(1.0)\n ret",
        "rcp",
        "shader model 5.0",
    );
    refused(
        "ps_4_0\n dcl_resource_texture2d (float,float,float,float) t0\n dcl_temps 1\n sample_info r0.x, t0.x\n ret",
        "sample_info",
        "shader model 4.1",
    );
}

#[test]
fn operands_must_fit_their_instruction() {
    // _sat only on float results (22.19.1).
    refused("vs_4_0\n dcl_temps 1\n iadd_sat r0.x, r0.x, l(1)\n ret", "iadd", "_sat");
    // _abs is defined on float operands only (22.18.1).
    refused("vs_4_0\n dcl_temps 1\n iadd r0.x, |r0.x|, l(1)\n ret", "iadd", "_abs");
    // Wrong operand count.
    refused("vs_4_0\n dcl_temps 1\n add r0.x, r0.x\n ret", "add", "takes 3 operands");
    // A destination that is not writable, and one with a swizzle.
    refused(
        "vs_4_0\n dcl_input v0.x\n mov v0.x, l(1)\n ret",
        "mov",
        "cannot be written",
    );
    // Double results need .xy, .zw or .xyzw (22.14).
    refused(
        "vs_5_0\n dcl_temps 1\n dadd r0.xz, r0, r0\n ret",
        "dadd",
        ".xy, .zw or .xyzw",
    );
    refused(
        "vs_5_0\n dcl_temps 1\n dtof r0.xyz, r0\n ret",
        "dtof",
        "1 or 2 components",
    );
    // A condition must select one component (22.7.1).
    refused(
        "vs_4_0\n dcl_temps 1\n if_nz r0.xyzw\n endif\n ret",
        "if",
        "one component",
    );
}

#[test]
fn registers_and_slots_must_be_declared() {
    refused("vs_4_0\n dcl_temps 1\n mov r0, v3\n ret", "mov", "v3 is not declared");
    refused(
        "vs_4_0\n dcl_output o0.xyzw\n mov o1, l(1)\n ret",
        "mov",
        "o1 is not declared",
    );
    refused(
        "vs_4_0\n dcl_temps 1\n mov r0, cb2[0]\n ret",
        "mov",
        "cb2 is read but not declared",
    );
    refused(
        "vs_4_0\n dcl_temps 1\n mov r0, icb[0]\n ret",
        "mov",
        "icb is read but not declared",
    );
    refused(
        "vs_4_0\n dcl_temps 1\n mov r0, x1[0]\n ret",
        "mov",
        "x1 is not declared",
    );
    refused(
        "vs_4_0\n dcl_temps 1\n dcl_indexableTemp x1[2], 4\n mov r0, x1[2]\n ret",
        "mov",
        "past the array",
    );
    refused(
        "ps_4_0\n dcl_temps 1\n sample r0, r0, t0, s0\n ret",
        "sample",
        "t0 is not declared",
    );
    refused(
        "ps_4_0\n dcl_resource_texture2d (float,float,float,float) t0\n dcl_temps 1\n sample r0, r0, t0, s1\n ret",
        "sample",
        "s1 is not declared",
    );
    // A texture instruction on a resource of the wrong shape: gather4 reads 2D and cube textures only (22.4.2).
    refused(
        "ps_4_1\n dcl_sampler s0\n dcl_resource_texture3d (float,float,float,float) t0\n dcl_temps 1\n gather4 r0, r0, t0, s0.x\n ret",
        "gather4",
        "cannot read t0",
    );
    // A relative index on a relative index (7.3: one level).
    refused(
        "vs_4_0\n dcl_temps 1\n dcl_indexableTemp x0[2], 4\n mov r0, x0[x0[r0.x + 0].x + 0]\n ret",
        "mov",
        "one level",
    );
}

#[test]
fn declarations_beyond_the_limits_are_refused() {
    // 7.3: at most 4096 temporaries, r# and x# together.
    let error = exe_error("vs_4_0\n dcl_temps 4097\n ret");
    assert!(error.detail.contains("4096"), "{error}");
    assert!(error.at.contains("dcl_temps"), "{error}");
    let error = exe_error("vs_4_0\n dcl_temps 4000\n dcl_indexableTemp x0[97], 4\n ret");
    assert!(error.detail.contains("4096"), "{error}");
    let error = exe_error("vs_4_0\n dcl_constantBuffer cb14[1]\n ret");
    assert!(error.detail.contains("14 constant buffer slots"), "{error}");
    let error = exe_error("ps_4_0\n dcl_output o8.xyzw\n ret");
    assert!(error.detail.contains("past the 8"), "{error}");
}

#[test]
fn an_indexable_form_must_state_the_declared_dimension() {
    use crate::dxbc::program::{ExtendedOpcode, ExtendedOpcodeKind, ResourceDimension};
    use crate::shader::Executable;
    let text = "
        ps_5_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_temps 1
        sample r0, r0, t0, s0
        ret
    ";
    let with = |dimension| {
        let mut program = super::asm::build(text);
        program.instructions[3].extended.push(ExtendedOpcode {
            kind: ExtendedOpcodeKind::ResourceDimension {
                dimension,
                structure_stride: 0,
            },
            ignored_bits: 0,
        });
        Executable::new(&program)
    };
    assert!(with(ResourceDimension::Texture2D).is_ok());
    let error = with(ResourceDimension::Texture3D).unwrap_err();
    assert!(error.at.contains(", sample)"), "{error}");
    assert!(error.detail.contains("declared Texture2D"), "{error}");
}
