//! Byte-level tests of the SM4/SM5 decoder and encoder. Every token here is built with helpers that restate the
//! `ENCODE_*` macros of `d3d12tokenizedprogramformat.hpp` (the header), so the expected values come from the header's
//! bit layouts, not from this crate. Each test decodes the tokens, checks the typed result against what the tokens
//! were built to say, and checks that encoding gives the same tokens back.

// Test code: token arithmetic on constants, and unwrap/index/panic as assertions, are what a test is for.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use iridia::dxbc::program::{
    self, Components, CustomData, Declaration, ExtendedOpcodeKind, ExtendedOperandKind, GlobalFlags, Immediate, Index,
    InstructionReturnType, InterpolationMode, MinPrecision, Modifier, Opcode, Operand, Primitive, PrimitiveTopology,
    Program, ProgramKind, RegisterType, ResinfoReturnType, ResourceDimension, ReturnType, SamplerMode, Selection,
    SyncFlags, SystemName, TessDomain, TessOutputPrimitive, TessPartitioning,
};

// ---- Token builders, one per header macro ----

/// ENCODE_D3D10_SB_TOKENIZED_PROGRAM_VERSION_TOKEN.
fn version(kind: u32, major: u32, minor: u32) -> u32 {
    ((kind << 16) & 0xffff_0000) | ((major << 4) & 0xf0) | (minor & 0xf)
}
/// ENCODE_D3D10_SB_OPCODE_TYPE | ENCODE_D3D10_SB_TOKENIZED_INSTRUCTION_LENGTH.
fn op(opcode: u32, length: u32) -> u32 {
    (opcode & 0x7ff) | ((length << 24) & 0x7f00_0000)
}
/// An instruction: `opcode` with `controls`, its length counted from `rest` (the DWORDs after the opcode token).
fn ins(opcode: u32, controls: u32, rest: &[u32]) -> Vec<u32> {
    let mut tokens = vec![op(opcode, rest.len() as u32 + 1) | controls];
    tokens.extend_from_slice(rest);
    tokens
}
/// ENCODE_D3D10_SB_OPCODE_EXTENDED(1), ENCODE_D3D10_SB_OPERAND_EXTENDED(1), ENCODE_D3D10_SB_OPERAND_DOUBLE_EXTENDED(1).
const EXTENDED: u32 = 0x8000_0000;
/// ENCODE_D3D10_SB_INSTRUCTION_SATURATE(1).
const SATURATE: u32 = 0x2000;
/// ENCODE_D3D10_SB_INSTRUCTION_TEST_BOOLEAN(D3D10_SB_INSTRUCTION_TEST_NONZERO).
const TEST_NONZERO: u32 = 1 << 18;
/// ENCODE_D3D11_SB_INSTRUCTION_PRECISE_VALUES.
fn precise(mask: u32) -> u32 {
    (mask << 19) & 0x0078_0000
}
/// ENCODE_D3D10_SB_RESINFO_INSTRUCTION_RETURN_TYPE and ENCODE_D3D10_SB_INSTRUCTION_RETURN_TYPE.
fn return_type_control(t: u32) -> u32 {
    (t << 11) & 0x1800
}

/// ENCODE_D3D10_SB_OPERAND_NUM_COMPONENTS: D3D10_SB_OPERAND_0_COMPONENT, _1_COMPONENT, _4_COMPONENT.
const ZERO_COMPONENTS: u32 = 0;
const ONE_COMPONENT: u32 = 1;
const FOUR_COMPONENTS: u32 = 2;
/// ENCODE_D3D10_SB_OPERAND_4_COMPONENT_SELECTION_MODE(MASK_MODE) | ENCODE_D3D10_SB_OPERAND_4_COMPONENT_MASK; `mask` is
/// xyzw as bits 0..3, shifted to D3D10_SB_OPERAND_4_COMPONENT_MASK_X = 0x10 and on.
fn mask(mask: u32) -> u32 {
    FOUR_COMPONENTS | ((mask << 4) & 0xf0) // selection mode 0 (MASK_MODE) in [3:2]
}
/// SWIZZLE_MODE | ENCODE_D3D10_SB_OPERAND_4_COMPONENT_SWIZZLE(x, y, z, w).
fn swizzle(x: u32, y: u32, z: u32, w: u32) -> u32 {
    FOUR_COMPONENTS | (1 << 2) | (((x & 3) | (y & 3) << 2 | (z & 3) << 4 | (w & 3) << 6) << 4)
}
/// SELECT_1_MODE | ENCODE_D3D10_SB_OPERAND_4_COMPONENT_SELECT_1.
fn select1(component: u32) -> u32 {
    FOUR_COMPONENTS | (2 << 2) | ((component << 4) & 0x30)
}
/// ENCODE_D3D10_SB_OPERAND_TYPE.
fn register(t: u32) -> u32 {
    (t << 12) & 0x000f_f000
}
/// ENCODE_D3D10_SB_OPERAND_INDEX_DIMENSION.
fn dims(d: u32) -> u32 {
    (d << 20) & 0x0030_0000
}
/// ENCODE_D3D10_SB_OPERAND_INDEX_REPRESENTATION, with the 3-bit fields [24:22], [27:25], [30:28] of the operand
/// layout comment (the macro's 2-bit mask could not hold IMMEDIATE64_PLUS_RELATIVE = 4).
fn representation(dim: u32, rep: u32) -> u32 {
    (rep & 7) << (22 + 3 * dim)
}
/// ENCODE_D3D10_SB_EXTENDED_OPERAND_MODIFIER(m) | ENCODE_D3D11_SB_OPERAND_MIN_PRECISION(p) |
/// ENCODE_D3D12_SB_OPERAND_NON_UNIFORM(n).
fn operand_modifier(m: u32, p: u32, n: u32) -> u32 {
    ((m << 6) & 0x3fc0) | 1 | ((p << 14) & 0x1c000) | ((n << 17) & 0x20000)
}
/// Index representations.
const IMM64: u32 = 1;
const RELATIVE: u32 = 2;
const IMM32_PLUS_RELATIVE: u32 = 3;
const IMM64_PLUS_RELATIVE: u32 = 4;

/// D3D10_SB_OPERAND_TYPE values.
const TEMP: u32 = 0;
const INPUT: u32 = 1;
const OUTPUT: u32 = 2;
const INDEXABLE_TEMP: u32 = 3;
const IMMEDIATE32: u32 = 4;
const IMMEDIATE64: u32 = 5;
const SAMPLER: u32 = 6;
const RESOURCE: u32 = 7;
const CONSTANT_BUFFER: u32 = 8;
const LABEL: u32 = 10;
const NULL: u32 = 13;
const STREAM: u32 = 16;
const INTERFACE: u32 = 19;
const OUTPUT_CONTROL_POINT_ID: u32 = 22;
const INPUT_CONTROL_POINT: u32 = 25;
const UNORDERED_ACCESS_VIEW: u32 = 30;
const THREAD_GROUP_SHARED_MEMORY: u32 = 31;
const INNER_COVERAGE: u32 = 42;

/// ENCODE_D3D10_SB_EXTENDED_OPCODE_TYPE with ENCODE_IMMEDIATE_D3D10_SB_ADDRESS_OFFSET for u, v, w.
fn sample_controls(u: i32, v: i32, w: i32) -> u32 {
    let offset = |coord: u32, value: i32| ((value as u32) << (9 + 4 * coord)) & (0xf << (9 + 4 * coord));
    1 | offset(0, u) | offset(1, v) | offset(2, w)
}
/// D3D11_SB_EXTENDED_OPCODE_RESOURCE_DIM with ENCODE_D3D11_SB_EXTENDED_RESOURCE_DIMENSION(_STRUCTURE_STRIDE).
fn ext_resource_dim(dimension: u32, stride: u32) -> u32 {
    2 | ((dimension << 6) & 0x7c0) | ((stride << 11) & 0x007f_f800)
}
/// D3D11_SB_EXTENDED_OPCODE_RESOURCE_RETURN_TYPE with ENCODE_D3D11_SB_EXTENDED_RESOURCE_RETURN_TYPE per component.
fn ext_return_types(types: [u32; 4]) -> u32 {
    3 | types
        .iter()
        .enumerate()
        .fold(0, |bits, (c, t)| bits | (t & 0xf) << (c as u32 * 4 + 6))
}
/// ENCODE_D3D10_SB_RESOURCE_RETURN_TYPE for every component.
fn return_type_token(types: [u32; 4]) -> u32 {
    types
        .iter()
        .enumerate()
        .fold(0, |bits, (c, t)| bits | (t & 0xf) << (c as u32 * 4))
}
/// ENCODE_D3D10_SB_CUSTOMDATA_CLASS.
fn customdata(class: u32) -> u32 {
    53 | ((class << 11) & 0xffff_f800)
}

/// A program of `kind` (D3D10_SB_TOKENIZED_PROGRAM_TYPE) with `body` after the version and length tokens.
fn program_tokens(kind: u32, major: u32, minor: u32, body: &[u32]) -> Vec<u32> {
    let mut tokens = vec![version(kind, major, minor), body.len() as u32 + 2];
    tokens.extend_from_slice(body);
    tokens
}
const PS: u32 = 0;
const VS: u32 = 1;
const GS: u32 = 2;
const HS: u32 = 3;
const DS: u32 = 4;
const CS: u32 = 5;

/// Decodes `tokens`, checks that they encode back unchanged, and returns the program.
fn round_trip(tokens: &[u32]) -> Program {
    let program = program::decode(tokens).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        program::encode(&program).unwrap(),
        tokens,
        "re-encoding changed the tokens"
    );
    program
}

/// Decodes a one-instruction pixel shader 5.0 body and returns the instruction's program.
fn one(body: &[u32]) -> Program {
    round_trip(&program_tokens(PS, 5, 0, body))
}

fn temp(index: u32, components: Components) -> Operand {
    Operand::new(RegisterType::Temp, components, vec![Index::Immediate32(index)])
}

// ---- The version and length tokens ----

#[test]
fn the_version_token_gives_kind_and_version() {
    for (kind, expected) in [
        (PS, ProgramKind::Pixel),
        (VS, ProgramKind::Vertex),
        (GS, ProgramKind::Geometry),
        (HS, ProgramKind::Hull),
        (DS, ProgramKind::Domain),
        (CS, ProgramKind::Compute),
    ] {
        let program = round_trip(&program_tokens(kind, 4, 1, &[]));
        assert_eq!(program.kind, expected);
        assert_eq!((program.major, program.minor), (4, 1));
        assert!(program.instructions.is_empty());
    }
    // ps_5_0 is 0x00000050: type 0 in [31:16], major 5 in [7:4], minor 0 in [3:0].
    assert_eq!(version(PS, 5, 0), 0x50);
}

#[test]
fn mesh_and_unknown_program_types_are_errors() {
    for kind in [13, 14, 0xfff0, 6] {
        let e = program::decode(&program_tokens(kind, 5, 0, &[])).unwrap_err();
        assert_eq!(e.at, "token 0", "{e}");
    }
}

#[test]
fn dwords_past_the_length_token_are_not_part_of_the_program() {
    let mut tokens = program_tokens(PS, 4, 0, &[op(62, 1)]); // ret
    tokens.push(0xdead_beef);
    let program = program::decode(&tokens).unwrap();
    assert_eq!(program.instructions.len(), 1);
    assert_eq!(program::encode(&program).unwrap(), tokens[..3]);
}

#[test]
fn decode_bytes_reads_little_endian_dwords() {
    let tokens = program_tokens(VS, 4, 0, &[op(62, 1)]);
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    assert_eq!(
        program::decode_bytes(&bytes).unwrap(),
        program::decode(&tokens).unwrap()
    );
    assert!(program::decode_bytes(&bytes[..bytes.len() - 1]).is_err());
}

// ---- Opcodes ----

#[test]
fn every_header_opcode_decodes_to_its_name() {
    // opcodes-from-header.txt lists D3D10_SB_OPCODE_TYPE as parsed from the header. Each non-declaration opcode is
    // given the operands `r0.xyzw, r1.xyzw` (a 4-component mask-mode operand and a swizzle operand, each with one
    // immediate index); the decoder reads operands generically, so any opcode takes them.
    let table = include_str!("../fixtures/dxbc-program/opcodes-from-header.txt");
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split_whitespace();
        let number: u32 = fields.next().unwrap().parse().unwrap();
        let name = fields.next().unwrap();
        let opcode = Opcode::from_raw(number).unwrap_or_else(|| panic!("{name} ({number}) is not an Opcode"));
        assert_eq!(opcode.name(), name);
        checked += 1;
        if opcode.is_declaration() || opcode == Opcode::CustomData || opcode == Opcode::InterfaceCall {
            continue;
        }
        let dst = mask(0xf) | register(TEMP) | dims(1);
        let src = swizzle(0, 1, 2, 3) | register(TEMP) | dims(1);
        let program = one(&[op(number, 5), dst, 0, src, 1]);
        let instruction = &program.instructions[0];
        assert_eq!(instruction.opcode, opcode);
        assert_eq!(instruction.operands.len(), 2, "{name}");
        assert_eq!(
            instruction.operands[1].components,
            Components::Four(Selection::Swizzle([0, 1, 2, 3]))
        );
    }
    assert_eq!(checked, 231);
}

#[test]
fn undefined_opcode_numbers_are_errors_naming_their_token() {
    for number in [107, 112, 209, 218, 235, 236, 1000] {
        let e = program::decode(&program_tokens(PS, 5, 0, &[op(62, 1), op(number, 1)])).unwrap_err();
        assert_eq!(e.at, "token 3", "{e}");
        assert!(e.detail.contains(&number.to_string()), "{e}");
    }
}

#[test]
fn saturate_and_precise_are_read_from_the_opcode_token() {
    // mul_sat precise(xz) r0.xyzw, r1.xyzw, r2.xyzw
    let body = [
        op(56, 7) | SATURATE | precise(0b0101),
        mask(0xf) | register(TEMP) | dims(1),
        0,
        swizzle(0, 1, 2, 3) | register(TEMP) | dims(1),
        1,
        swizzle(3, 2, 1, 0) | register(TEMP) | dims(1),
        2,
    ];
    let program = one(&body);
    let mul = &program.instructions[0];
    assert_eq!(mul.opcode, Opcode::Mul);
    assert!(mul.saturate);
    assert_eq!(mul.precise_mask, 0b0101);
    assert_eq!(
        mul.operands[2].components,
        Components::Four(Selection::Swizzle([3, 2, 1, 0]))
    );
    assert_eq!(mul.raw.control_bits, 0);
}

#[test]
fn conditionals_read_their_zero_or_nonzero_test() {
    let condition = select1(0) | register(TEMP) | dims(1);
    for (number, opcode) in [
        (31, Opcode::If),
        (3, Opcode::Breakc),
        (8, Opcode::Continuec),
        (63, Opcode::Retc),
        (13, Opcode::Discard),
    ] {
        for nonzero in [false, true] {
            let token = op(number, 3) | if nonzero { TEST_NONZERO } else { 0 };
            let program = one(&[token, condition, 4]);
            assert_eq!(program.instructions[0].opcode, opcode);
            assert_eq!(program.instructions[0].test_nonzero, nonzero);
            assert_eq!(
                program.instructions[0].operands[0].components,
                Components::Four(Selection::Select1(0))
            );
        }
    }
    // callc_nz r0.x, l1
    let program = one(&[op(5, 5) | TEST_NONZERO, condition, 0, register(LABEL) | dims(1), 1]);
    assert!(program.instructions[0].test_nonzero);
}

#[test]
fn a_test_bit_on_an_opcode_without_a_test_is_kept_raw() {
    // vkd3d writes endif as 0x01040015: bit 18 set on an opcode the header gives no test.
    let program = one(&[
        op(31, 3) | TEST_NONZERO,
        select1(0) | register(TEMP) | dims(1),
        0,
        0x0104_0015,
    ]);
    let endif = &program.instructions[1];
    assert_eq!(endif.opcode, Opcode::Endif);
    assert!(!endif.test_nonzero);
    assert_eq!(endif.raw.control_bits, TEST_NONZERO);
}

#[test]
fn resinfo_and_sample_info_read_their_return_types() {
    // resinfo_uint r0.xyzw, l(0), t0.xyzw ; resinfo_rcpFloat ; sample_info_uint r0.x, rasterizer
    let imm = ONE_COMPONENT | register(IMMEDIATE32);
    let t0 = swizzle(0, 1, 2, 3) | register(RESOURCE) | dims(1);
    for (t, expected) in [
        (0, ResinfoReturnType::Float),
        (1, ResinfoReturnType::RcpFloat),
        (2, ResinfoReturnType::Uint),
    ] {
        let program = one(&ins(
            61,
            return_type_control(t),
            &[mask(0xf) | register(TEMP) | dims(1), 0, imm, 0, t0, 0],
        ));
        assert_eq!(program.instructions[0].resinfo_return, expected);
        assert_eq!(
            program.instructions[0].operands[1].immediate,
            Some(Immediate::Scalar32(0))
        );
    }
    let program = one(&[
        op(111, 4) | return_type_control(1),
        mask(1) | register(TEMP) | dims(1),
        0,
        swizzle(0, 0, 0, 0) | register(14),
    ]);
    assert_eq!(program.instructions[0].sample_info_return, InstructionReturnType::Uint);
    assert_eq!(program.instructions[0].operands[1].register, RegisterType::Rasterizer);
    // resinfo's return type 3 is not defined.
    assert!(program::decode(&program_tokens(PS, 5, 0, &[op(61, 1) | return_type_control(3)])).is_err());
}

#[test]
fn sync_reads_its_flags_instead_of_saturate() {
    // sync_g_t: D3D11_SB_SYNC_THREADS_IN_GROUP | D3D11_SB_SYNC_THREAD_GROUP_SHARED_MEMORY.
    let program = round_trip(&program_tokens(CS, 5, 0, &[op(190, 1) | 0x0800 | 0x1000]));
    let sync = &program.instructions[0];
    assert_eq!(
        sync.sync_flags,
        SyncFlags(SyncFlags::THREADS_IN_GROUP | SyncFlags::THREAD_GROUP_SHARED_MEMORY)
    );
    assert!(!sync.saturate);
    // sync_uglobal sets bit 14; sync_ugroup bit 13, which on any other opcode would be saturate.
    let program = round_trip(&program_tokens(CS, 5, 0, &[op(190, 1) | 0x2000]));
    assert!(program.instructions[0].sync_flags.contains(SyncFlags::UAV_MEMORY_GROUP));
    assert!(!program.instructions[0].saturate);
}

// ---- Extended opcode tokens ----

#[test]
fn sample_offsets_are_signed_four_bit_values() {
    // sample(-1, 2, -8) r0.xyzw, r1.xyxx, t0.xyzw, s0 ; then (7, -2, 0).
    for (u, v, w) in [(-1, 2, -8), (7, -2, 0)] {
        let body = ins(
            69,
            EXTENDED,
            &[
                sample_controls(u, v, w),
                mask(0xf) | register(TEMP) | dims(1),
                0,
                swizzle(0, 1, 0, 0) | register(TEMP) | dims(1),
                1,
                swizzle(0, 1, 2, 3) | register(RESOURCE) | dims(1),
                0,
                register(SAMPLER) | dims(1) | ZERO_COMPONENTS,
                0,
            ],
        );
        let program = one(&body);
        let sample = &program.instructions[0];
        assert_eq!(sample.texel_offsets(), [u as i8, v as i8, w as i8]);
        assert_eq!(sample.operands.len(), 4);
        assert_eq!(sample.operands[3].components, Components::Zero);
    }
    // (-1, 2, -8) packs to u = 0xf << 9, v = 0x2 << 13, w = 0x8 << 17.
    assert_eq!(sample_controls(-1, 2, -8), 1 | 0xf << 9 | 2 << 13 | 8 << 17);
}

#[test]
fn chained_extended_opcode_tokens_give_dimension_stride_and_return_types() {
    // ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) with an offset token first:
    // three chained extended tokens, each but the last with bit 31.
    let body = ins(
        167,
        EXTENDED,
        &[
            sample_controls(1, 0, 0) | EXTENDED,
            ext_resource_dim(12, 16) | EXTENDED,
            ext_return_types([6, 6, 6, 6]),
            mask(1) | register(TEMP) | dims(1),
            0,
            select1(0) | register(TEMP) | dims(1),
            1,
            ONE_COMPONENT | register(IMMEDIATE32),
            4,
            swizzle(0, 0, 0, 0) | register(RESOURCE) | dims(1),
            3,
        ],
    );
    let program = one(&body);
    let ld = &program.instructions[0];
    assert_eq!(ld.extended.len(), 3);
    assert_eq!(ld.resource_dimension(), Some((ResourceDimension::StructuredBuffer, 16)));
    assert_eq!(ld.resource_return_types(), Some([ReturnType::Mixed; 4]));
    assert_eq!(ld.texel_offsets(), [1, 0, 0]);
    assert_eq!(ld.operands[3].indices, vec![Index::Immediate32(3)]);
}

#[test]
fn per_component_return_types_and_empty_extended_tokens_round_trip() {
    // sample_l with an empty extended token, then return types (float, uint, sint, unorm).
    let body = ins(
        72,
        EXTENDED,
        &[
            EXTENDED, // D3D10_SB_EXTENDED_OPCODE_EMPTY, chained
            ext_return_types([5, 4, 3, 1]),
            mask(0xf) | register(TEMP) | dims(1),
            0,
            swizzle(0, 1, 0, 0) | register(TEMP) | dims(1),
            1,
            swizzle(0, 1, 2, 3) | register(RESOURCE) | dims(1),
            0,
            register(SAMPLER) | dims(1),
            0,
            select1(2) | register(TEMP) | dims(1),
            1,
        ],
    );
    let program = one(&body);
    let sample_l = &program.instructions[0];
    assert_eq!(sample_l.extended[0].kind, ExtendedOpcodeKind::Empty);
    assert_eq!(
        sample_l.resource_return_types(),
        Some([ReturnType::Float, ReturnType::Uint, ReturnType::Sint, ReturnType::Unorm])
    );
}

#[test]
fn ignored_bits_of_extended_opcode_tokens_are_kept() {
    // A sample controls token with "[08:06] Ignored, 0" bits set, and a resource dim token with bit 25 set.
    let body = [
        op(58, 3) | EXTENDED, // nop
        sample_controls(0, 0, 0) | 0x1c0 | EXTENDED,
        ext_resource_dim(3, 0) | 1 << 25,
    ];
    let program = one(&body);
    assert_eq!(program.instructions[0].extended[0].ignored_bits, 0x1c0);
    assert_eq!(program.instructions[0].extended[1].ignored_bits, 1 << 25);
}

#[test]
fn undefined_extended_opcode_types_are_errors() {
    let e = program::decode(&program_tokens(PS, 5, 0, &[op(58, 2) | EXTENDED, 4])).unwrap_err();
    assert_eq!(e.at, "token 3", "{e}");
}

// ---- Operands ----

#[test]
fn zero_one_and_four_component_operands() {
    // mov r0.x, l(1.0) ; emit_stream m0 ; mov oMask, r0.x ; mov o0.xyzw, vInnerCoverage
    let body = [
        op(54, 5),
        mask(1) | register(TEMP) | dims(1),
        0,
        ONE_COMPONENT | register(IMMEDIATE32),
        0x3f80_0000,
        op(117, 3),
        register(STREAM) | dims(1),
        0,
        op(54, 4),
        ONE_COMPONENT | register(15),
        select1(0) | register(TEMP) | dims(1),
        0,
        op(54, 4),
        mask(0xf) | register(OUTPUT) | dims(1),
        0,
        ONE_COMPONENT | register(INNER_COVERAGE),
    ];
    let program = one(&body);
    let mov = &program.instructions[0];
    assert_eq!(mov.operands[0].components, Components::Four(Selection::Mask(1)));
    assert_eq!(mov.operands[1].components, Components::One);
    assert_eq!(mov.operands[1].immediate, Some(Immediate::Scalar32(0x3f80_0000)));
    assert!(mov.operands[1].indices.is_empty());
    let emit = &program.instructions[1];
    assert_eq!(emit.operands[0].register, RegisterType::Stream);
    assert_eq!(emit.operands[0].components, Components::Zero);
    assert_eq!(
        program.instructions[2].operands[0].register,
        RegisterType::OutputCoverageMask
    );
    assert_eq!(
        program.instructions[3].operands[1].register,
        RegisterType::InnerCoverage
    );
}

#[test]
fn n_component_operands_keep_their_undefined_selection_bits() {
    // D3D10_SB_OPERAND_N_COMPONENT (3) has no defined selection layout: mov r0, r1 with [11:2] = 0x2a4 (0xa90 in place) on the source.
    let program = one(&ins(
        54,
        0,
        &[3 | register(TEMP) | dims(1), 0, 3 | 0xa90 | register(TEMP) | dims(1), 1],
    ));
    let operands = &program.instructions[0].operands;
    assert_eq!(operands[0].components, Components::N);
    assert_eq!(operands[1].ignored_bits, 0xa90);
}

#[test]
fn vector_literals_hold_four_dwords() {
    // mov r0.xyzw, l(1, 2, 3, 4)
    let program = one(&ins(
        54,
        0,
        &[
            mask(0xf) | register(TEMP) | dims(1),
            0,
            FOUR_COMPONENTS | register(IMMEDIATE32),
            1,
            2,
            3,
            4,
        ],
    ));
    assert_eq!(
        program.instructions[0].operands[1].immediate,
        Some(Immediate::Vector32([1, 2, 3, 4]))
    );
}

#[test]
fn double_literals_are_read_low_dword_first() {
    // dmov r0.xy, d(1.0) ; dmov r0.xyzw, d(1.0, -2.0). 1.0 is 0x3ff00000_00000000 and -2.0 0xc0000000_00000000;
    // each is written low DWORD first, as a little-endian double.
    let one_f64 = 1.0f64.to_bits();
    let minus_two = (-2.0f64).to_bits();
    let body = [
        ins(
            199,
            0,
            &[
                mask(0b0011) | register(TEMP) | dims(1),
                0,
                ONE_COMPONENT | register(IMMEDIATE64),
                0,
                0x3ff0_0000,
            ],
        ),
        ins(
            199,
            0,
            &[
                mask(0xf) | register(TEMP) | dims(1),
                0,
                FOUR_COMPONENTS | register(IMMEDIATE64),
                0,
                0x3ff0_0000,
                0,
                0xc000_0000,
            ],
        ),
    ]
    .concat();
    let program = one(&body);
    assert_eq!(
        program.instructions[0].operands[1].immediate,
        Some(Immediate::Scalar64(one_f64))
    );
    assert_eq!(
        program.instructions[1].operands[1].immediate,
        Some(Immediate::Vector64([one_f64, minus_two]))
    );
}

#[test]
fn two_and_three_dimensional_indices() {
    // mov r0.xyzw, cb2[7].xyzw ; mov r0.xyzw, vicp[3][1].xyzw ; a 3D index (SM 5.1-style t0[1][2]).
    let body = [
        op(54, 6),
        mask(0xf) | register(TEMP) | dims(1),
        0,
        swizzle(0, 1, 2, 3) | register(CONSTANT_BUFFER) | dims(2),
        2,
        7,
        op(54, 6),
        mask(0xf) | register(TEMP) | dims(1),
        0,
        swizzle(0, 1, 2, 3) | register(INPUT_CONTROL_POINT) | dims(2),
        3,
        1,
        op(54, 7),
        mask(0xf) | register(TEMP) | dims(1),
        0,
        swizzle(0, 1, 2, 3) | register(RESOURCE) | dims(3),
        0,
        1,
        2,
    ];
    let program = one(&body);
    assert_eq!(
        program.instructions[0].operands[1].indices,
        vec![Index::Immediate32(2), Index::Immediate32(7)]
    );
    assert_eq!(
        program.instructions[1].operands[1].register,
        RegisterType::InputControlPoint
    );
    assert_eq!(program.instructions[2].operands[1].indices.len(), 3);
}

#[test]
fn relative_and_immediate_plus_relative_indices() {
    // mov r0.xyzw, x0[r1.x + 3].xyzw ; mov r0.xyzw, cb0[r2.y].xyzw (the second index only relative).
    let rel = select1(0) | register(TEMP) | dims(1);
    let body = [
        ins(
            54,
            0,
            &[
                mask(0xf) | register(TEMP) | dims(1),
                0,
                swizzle(0, 1, 2, 3) | register(INDEXABLE_TEMP) | dims(2) | representation(1, IMM32_PLUS_RELATIVE),
                0,
                3,
                rel,
                1,
            ],
        ),
        ins(
            54,
            0,
            &[
                mask(0xf) | register(TEMP) | dims(1),
                0,
                swizzle(0, 1, 2, 3) | register(CONSTANT_BUFFER) | dims(2) | representation(1, RELATIVE),
                0,
                select1(1) | register(TEMP) | dims(1),
                2,
            ],
        ),
    ]
    .concat();
    let program = one(&body);
    let r1x = Box::new(temp(1, Components::Four(Selection::Select1(0))));
    assert_eq!(
        program.instructions[0].operands[1].indices,
        vec![Index::Immediate32(0), Index::Immediate32PlusRelative(3, r1x)]
    );
    let r2y = Box::new(temp(2, Components::Four(Selection::Select1(1))));
    assert_eq!(
        program.instructions[1].operands[1].indices,
        vec![Index::Immediate32(0), Index::Relative(r2y)]
    );
}

#[test]
fn sixty_four_bit_indices_are_read_high_dword_first() {
    // The header: IMMEDIATE64 is "2 Extra DWORDs (HI32:LO32)". IMMEDIATE64_PLUS_RELATIVE (4) needs the third bit
    // of the representation field.
    let body = ins(
        54,
        0,
        &[
            mask(0xf) | register(TEMP) | dims(1),
            0,
            swizzle(0, 1, 2, 3)
                | register(INDEXABLE_TEMP)
                | dims(2)
                | representation(0, IMM64)
                | representation(1, IMM64_PLUS_RELATIVE),
            0x1,
            0x2,
            0x0,
            0x5,
            select1(0) | register(TEMP) | dims(1),
            9,
        ],
    );
    let program = one(&body);
    let indices = &program.instructions[0].operands[1].indices;
    assert_eq!(indices[0], Index::Immediate64(0x1_0000_0002));
    assert_eq!(
        indices[1],
        Index::Immediate64PlusRelative(5, Box::new(temp(9, Components::Four(Selection::Select1(0)))))
    );
}

#[test]
fn modifiers_precision_and_non_uniform_come_from_the_extended_operand() {
    // add r0.xyzw, -r1.xyzw, |r2|.xyzw {min16f} ; mov r0.x, -|r3.x| with non-uniform
    let body = [
        ins(
            0,
            0,
            &[
                mask(0xf) | register(TEMP) | dims(1),
                0,
                swizzle(0, 1, 2, 3) | register(TEMP) | dims(1) | EXTENDED,
                operand_modifier(1, 0, 0),
                1,
                swizzle(0, 1, 2, 3) | register(TEMP) | dims(1) | EXTENDED,
                operand_modifier(2, 1, 0),
                2,
            ],
        ),
        ins(
            54,
            0,
            &[
                mask(1) | register(TEMP) | dims(1),
                0,
                select1(0) | register(TEMP) | dims(1) | EXTENDED,
                operand_modifier(3, 5, 1),
                3,
            ],
        ),
    ]
    .concat();
    let program = one(&body);
    let add = &program.instructions[0];
    assert_eq!(add.operands[1].modifier, Modifier::Neg);
    assert_eq!(add.operands[1].min_precision, MinPrecision::Default);
    assert_eq!(add.operands[2].modifier, Modifier::Abs);
    assert_eq!(add.operands[2].min_precision, MinPrecision::Float16);
    let mov = &program.instructions[1];
    assert_eq!(mov.operands[1].modifier, Modifier::AbsNeg);
    assert_eq!(mov.operands[1].min_precision, MinPrecision::Uint16);
    assert!(mov.operands[1].non_uniform);
}

#[test]
fn empty_and_do_nothing_extended_operands_are_kept_for_re_encoding() {
    // An empty extended operand token chained to a modifier token that says "none": both must be written back.
    let body = ins(
        54,
        0,
        &[
            mask(1) | register(TEMP) | dims(1),
            0,
            select1(0) | register(TEMP) | dims(1) | EXTENDED,
            EXTENDED, // D3D10_SB_EXTENDED_OPERAND_EMPTY, chained
            operand_modifier(0, 0, 0),
            1,
        ],
    );
    let program = one(&body);
    let source = &program.instructions[0].operands[1];
    assert_eq!(source.modifier, Modifier::None);
    let kinds: Vec<_> = source.extended.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [ExtendedOperandKind::Empty, ExtendedOperandKind::Modifier]);
}

#[test]
fn ignored_operand_bits_are_kept() {
    // A 1-component operand with [11:02] bits set, and a 1D operand with a representation written for axis 2.
    let body = [
        op(54, 5),
        mask(1) | register(TEMP) | dims(1) | 0x300, // mask mode: [11:08] ignored
        0,
        ONE_COMPONENT | register(TEMP) | dims(1) | 0x0ff0 | representation(2, 1),
        1,
    ];
    let program = one(&body);
    assert_eq!(program.instructions[0].operands[0].ignored_bits, 0x300);
    assert_eq!(
        program.instructions[0].operands[1].ignored_bits,
        0x0ff0 | representation(2, 1)
    );
}

#[test]
fn a_hand_built_operand_with_a_modifier_gets_a_modifier_token() {
    let mut source = temp(1, Components::Four(Selection::Swizzle([0, 1, 2, 3])));
    source.modifier = Modifier::Neg;
    let mut mov = program::Instruction::new(Opcode::Mov);
    mov.operands = vec![temp(0, Components::Four(Selection::Mask(0xf))), source];
    let built = Program {
        kind: ProgramKind::Pixel,
        major: 4,
        minor: 0,
        version_reserved_bits: 0,
        instructions: vec![mov],
    };
    let expected = program_tokens(
        PS,
        4,
        0,
        &[
            op(54, 6),
            mask(0xf) | register(TEMP) | dims(1),
            0,
            swizzle(0, 1, 2, 3) | register(TEMP) | dims(1) | EXTENDED,
            operand_modifier(1, 0, 0),
            1,
        ],
    );
    assert_eq!(program::encode(&built).unwrap(), expected);
}

#[test]
fn null_and_label_operands() {
    // udiv null, r1.x, r2.x, l(5) ; label l0 ; call l0
    let body = [
        ins(
            78,
            0,
            &[
                register(NULL),
                mask(1) | register(TEMP) | dims(1),
                1,
                select1(0) | register(TEMP) | dims(1),
                2,
                ONE_COMPONENT | register(IMMEDIATE32),
                5,
            ],
        ),
        ins(44, 0, &[register(LABEL) | dims(1), 0]),
        ins(4, 0, &[register(LABEL) | dims(1), 0]),
    ]
    .concat();
    let program = one(&body);
    assert_eq!(program.instructions[0].operands[0].register, RegisterType::Null);
    assert!(program.instructions[0].operands[0].indices.is_empty());
    assert_eq!(program.instructions[1].opcode, Opcode::Label);
    assert_eq!(program.instructions[2].operands[0].register, RegisterType::Label);
}

// ---- Declarations ----

/// Decodes a one-declaration program of `kind` 5.0 and returns the declaration.
fn declaration(kind: u32, body: &[u32]) -> (Declaration, program::Instruction) {
    let program = round_trip(&program_tokens(kind, 5, 0, body));
    assert_eq!(program.instructions.len(), 1);
    let instruction = program.instructions[0].clone();
    (instruction.declaration.clone().unwrap(), instruction)
}

#[test]
fn global_flags_declaration() {
    // dcl_globalFlags refactoringAllowed | forceEarlyDepthStencil
    let (d, _) = declaration(PS, &[op(106, 1) | 1 << 11 | 1 << 13]);
    assert_eq!(
        d,
        Declaration::GlobalFlags(GlobalFlags(
            GlobalFlags::REFACTORING_ALLOWED | GlobalFlags::FORCE_EARLY_DEPTH_STENCIL
        ))
    );
}

#[test]
fn resource_declarations() {
    // dcl_resource_texture2dms(4) (float,float,float,float) t3
    let dimension = (4 << 11) & 0xf800;
    let sample_count = (4 << 16) & 0x7f_0000;
    let (d, _) = declaration(
        PS,
        &[
            op(88, 4) | dimension | sample_count,
            register(RESOURCE) | dims(1),
            3,
            return_type_token([5, 5, 5, 5]),
        ],
    );
    let Declaration::Resource {
        register: t,
        dimension,
        sample_count,
        return_types,
    } = d
    else {
        panic!("{d:?}")
    };
    assert_eq!(t.indices, vec![Index::Immediate32(3)]);
    assert_eq!(dimension, ResourceDimension::Texture2DMs);
    assert_eq!(sample_count, 4);
    assert_eq!(return_types, [ReturnType::Float; 4]);
    // dcl_resource_buffer (sint,uint,unorm,snorm) t0 with reserved bits in the return type token.
    let (d, i) = declaration(
        VS,
        &[
            op(88, 4) | (1 << 11),
            register(RESOURCE) | dims(1),
            0,
            return_type_token([3, 4, 1, 2]) | 0x00ab_0000,
        ],
    );
    let Declaration::Resource {
        return_types,
        dimension,
        ..
    } = d
    else {
        panic!()
    };
    assert_eq!(dimension, ResourceDimension::Buffer);
    assert_eq!(
        return_types,
        [ReturnType::Sint, ReturnType::Uint, ReturnType::Unorm, ReturnType::Snorm]
    );
    assert_eq!(i.raw.reserved_bits, 0x00ab_0000);
    // dcl_resource_raw t1 ; dcl_resource_structured t2, 24
    let (d, _) = declaration(CS, &[op(161, 3), register(RESOURCE) | dims(1), 1]);
    assert!(matches!(d, Declaration::ResourceRaw(_)));
    let (d, _) = declaration(CS, &[op(162, 4), register(RESOURCE) | dims(1), 2, 24]);
    assert!(matches!(d, Declaration::ResourceStructured { stride: 24, .. }));
}

#[test]
fn constant_buffer_and_sampler_declarations() {
    // dcl_constantbuffer cb1[12], dynamicIndexed
    let (d, _) = declaration(
        PS,
        &[
            op(89, 4) | 1 << 11,
            swizzle(0, 1, 2, 3) | register(CONSTANT_BUFFER) | dims(2),
            1,
            12,
        ],
    );
    let Declaration::ConstantBuffer {
        register: cb,
        dynamic_indexed,
    } = d
    else {
        panic!()
    };
    assert!(dynamic_indexed);
    assert_eq!(cb.indices, vec![Index::Immediate32(1), Index::Immediate32(12)]);
    // dcl_sampler s2, mode_comparison ; mode_mono
    for (mode, expected) in [
        (1, SamplerMode::Comparison),
        (2, SamplerMode::Mono),
        (0, SamplerMode::Default),
    ] {
        let (d, _) = declaration(PS, &[op(90, 3) | (mode << 11), register(SAMPLER) | dims(1), 2]);
        assert!(matches!(d, Declaration::Sampler { mode: m, .. } if m == expected));
    }
    assert!(
        program::decode(&program_tokens(
            PS,
            5,
            0,
            &[op(90, 3) | (3 << 11), register(SAMPLER) | dims(1), 2]
        ))
        .is_err()
    );
}

#[test]
fn input_and_output_declarations_with_names_and_interpolation() {
    let v = |index| [mask(0xf) | register(INPUT) | dims(1), index];
    // dcl_input v0.xyzw
    let (d, i) = declaration(VS, &[op(95, 3), v(0)[0], v(0)[1]]);
    assert_eq!(i.opcode, Opcode::DclInput);
    assert!(matches!(
        d,
        Declaration::Register {
            name: None,
            interpolation: None,
            ..
        }
    ));
    // dcl_input_sgv v1.x, vertex_id
    let (d, _) = declaration(VS, &[op(96, 4), mask(1) | register(INPUT) | dims(1), 1, 6]);
    assert!(matches!(
        d,
        Declaration::Register {
            name: Some(SystemName::VertexId),
            ..
        }
    ));
    // dcl_input_siv v[3][0].xyzw, position (a geometry shader input, 2D)
    let (d, _) = declaration(GS, &[op(97, 5), mask(0xf) | register(INPUT) | dims(2), 3, 0, 1]);
    let Declaration::Register { register: r, name, .. } = d else {
        panic!()
    };
    assert_eq!(name, Some(SystemName::Position));
    assert_eq!(r.indices, vec![Index::Immediate32(3), Index::Immediate32(0)]);
    // dcl_input_ps linear noperspective centroid v2.xy
    let (d, _) = declaration(PS, &[op(98, 3) | (5 << 11), mask(3) | register(INPUT) | dims(1), 2]);
    assert!(matches!(
        d,
        Declaration::Register {
            name: None,
            interpolation: Some(InterpolationMode::LinearNoPerspectiveCentroid),
            ..
        }
    ));
    // dcl_input_ps_sgv constant v3.x, is_front_face (compilers write an interpolation mode the header calls ignored)
    let (d, _) = declaration(PS, &[op(99, 4) | (1 << 11), mask(1) | register(INPUT) | dims(1), 3, 9]);
    assert!(matches!(
        d,
        Declaration::Register {
            name: Some(SystemName::IsFrontFace),
            interpolation: Some(InterpolationMode::Constant),
            ..
        }
    ));
    // dcl_input_ps_siv linear noperspective sample v0.xyzw, position
    let (d, _) = declaration(PS, &[op(100, 4) | (7 << 11), v(0)[0], 0, 1]);
    assert!(matches!(
        d,
        Declaration::Register {
            name: Some(SystemName::Position),
            interpolation: Some(InterpolationMode::LinearNoPerspectiveSample),
            ..
        }
    ));
    // dcl_output o0.xyzw ; dcl_output_sgv o1.x, primitive_id ; dcl_output_siv o2.xyzw, position with name reserved bits
    let (_, i) = declaration(PS, &[op(101, 3), mask(0xf) | register(OUTPUT) | dims(1), 0]);
    assert_eq!(i.opcode, Opcode::DclOutput);
    let (d, _) = declaration(GS, &[op(102, 4), mask(1) | register(OUTPUT) | dims(1), 1, 7]);
    assert!(matches!(
        d,
        Declaration::Register {
            name: Some(SystemName::PrimitiveId),
            ..
        }
    ));
    let (d, i) = declaration(
        VS,
        &[op(103, 4), mask(0xf) | register(OUTPUT) | dims(1), 2, 1 | 0x0001_0000],
    );
    assert!(matches!(
        d,
        Declaration::Register {
            name: Some(SystemName::Position),
            ..
        }
    ));
    assert_eq!(i.raw.reserved_bits, 0x0001_0000);
    // dcl_output oDepth: a 1-component, 0-dimensional register
    let (d, _) = declaration(PS, &[op(101, 2), ONE_COMPONENT | register(12)]);
    let Declaration::Register { register: depth, .. } = d else {
        panic!()
    };
    assert_eq!(depth.register, RegisterType::OutputDepth);
    assert!(depth.indices.is_empty());
    // The final tess factor names reach 22; 26 is not defined.
    let (d, _) = declaration(HS, &[op(103, 4), mask(1) | register(OUTPUT) | dims(1), 0, 22]);
    assert!(matches!(
        d,
        Declaration::Register {
            name: Some(SystemName::FinalLineDensityTessFactor),
            ..
        }
    ));
    assert!(
        program::decode(&program_tokens(
            HS,
            5,
            0,
            &[op(103, 4), mask(1) | register(OUTPUT) | dims(1), 0, 26]
        ))
        .is_err()
    );
}

#[test]
fn temp_index_range_and_indexable_temp_declarations() {
    let (d, _) = declaration(PS, &[op(104, 2), 12]);
    assert_eq!(d, Declaration::Temps(12));
    let (d, _) = declaration(PS, &[op(105, 4), 0, 8, 4]);
    assert_eq!(
        d,
        Declaration::IndexableTemp {
            register: 0,
            size: 8,
            components: 4
        }
    );
    // dcl_indexrange v1.xyzw, 3
    let (d, _) = declaration(VS, &[op(91, 4), mask(0xf) | register(INPUT) | dims(1), 1, 3]);
    assert!(matches!(d, Declaration::IndexRange { count: 3, .. }));
}

#[test]
fn geometry_shader_declarations() {
    // dcl_inputprimitive triangleadj ; dcl_outputtopology trianglestrip ; dcl_maxout 18 ; dcl_gs_instance_count 4 ;
    // dcl_stream m1
    let body = [
        op(93, 1) | (7 << 11),
        op(92, 1) | (5 << 11),
        op(94, 2),
        18,
        op(206, 2),
        4,
        op(143, 3),
        register(STREAM) | dims(1),
        1,
    ];
    let program = round_trip(&program_tokens(GS, 5, 0, &body));
    let declarations: Vec<_> = program
        .instructions
        .iter()
        .map(|i| i.declaration.clone().unwrap())
        .collect();
    assert_eq!(declarations[0], Declaration::GsInputPrimitive(Primitive::TriangleAdj));
    assert_eq!(
        declarations[1],
        Declaration::GsOutputTopology(PrimitiveTopology::TriangleStrip)
    );
    assert_eq!(declarations[2], Declaration::MaxOutputVertexCount(18));
    assert_eq!(declarations[3], Declaration::GsInstanceCount(4));
    assert!(matches!(&declarations[4], Declaration::Stream(m) if m.indices == vec![Index::Immediate32(1)]));
    // Patch input primitives run 8 (1 control point) to 39 (32); 4 and 5 are not defined.
    let (d, _) = declaration(GS, &[op(93, 1) | (39 << 11)]);
    assert_eq!(d, Declaration::GsInputPrimitive(Primitive::Patch32));
    assert!(program::decode(&program_tokens(GS, 5, 0, &[op(93, 1) | (4 << 11)])).is_err());
}

#[test]
fn hull_shader_phases_and_tessellation_declarations() {
    // hs_decls ; dcl_input_control_point_count 3 ; dcl_output_control_point_count 3 ; dcl_tessellator_domain tri ;
    // dcl_tessellator_partitioning fractional_odd ; dcl_tessellator_output_primitive triangle_cw ;
    // dcl_hs_max_tessfactor 64.0 ; hs_control_point_phase ; mov o0.xyzw, vOutputControlPointID ; ret ;
    // hs_fork_phase ; dcl_hs_fork_phase_instance_count 3 ; ret ; hs_join_phase ; dcl_hs_join_phase_instance_count 1 ;
    // ret
    let body = [
        op(113, 1),
        op(147, 1) | (3 << 11),
        op(148, 1) | (3 << 11),
        op(149, 1) | (2 << 11),
        op(150, 1) | (3 << 11),
        op(151, 1) | (3 << 11),
        op(152, 2),
        64.0f32.to_bits(),
        op(114, 1),
        op(54, 4),
        mask(0xf) | register(OUTPUT) | dims(1),
        0,
        ONE_COMPONENT | register(OUTPUT_CONTROL_POINT_ID),
        op(62, 1),
        op(115, 1),
        op(153, 2),
        3,
        op(62, 1),
        op(116, 1),
        op(154, 2),
        1,
        op(62, 1),
    ];
    let program = round_trip(&program_tokens(HS, 5, 0, &body));
    assert_eq!(program.kind, ProgramKind::Hull);
    let opcodes: Vec<Opcode> = program.instructions.iter().map(|i| i.opcode).collect();
    assert_eq!(
        opcodes,
        [
            Opcode::HsDecls,
            Opcode::DclInputControlPointCount,
            Opcode::DclOutputControlPointCount,
            Opcode::DclTessDomain,
            Opcode::DclTessPartitioning,
            Opcode::DclTessOutputPrimitive,
            Opcode::DclHsMaxTessfactor,
            Opcode::HsControlPointPhase,
            Opcode::Mov,
            Opcode::Ret,
            Opcode::HsForkPhase,
            Opcode::DclHsForkPhaseInstanceCount,
            Opcode::Ret,
            Opcode::HsJoinPhase,
            Opcode::DclHsJoinPhaseInstanceCount,
            Opcode::Ret,
        ]
    );
    let d = |i: usize| program.instructions[i].declaration.clone().unwrap();
    assert_eq!(d(1), Declaration::InputControlPointCount(3));
    assert_eq!(d(2), Declaration::OutputControlPointCount(3));
    assert_eq!(d(3), Declaration::TessDomain(TessDomain::Tri));
    assert_eq!(d(4), Declaration::TessPartitioning(TessPartitioning::FractionalOdd));
    assert_eq!(d(5), Declaration::TessOutputPrimitive(TessOutputPrimitive::TriangleCw));
    assert_eq!(d(6), Declaration::HsMaxTessFactor(64.0));
    assert_eq!(d(11), Declaration::HsForkPhaseInstanceCount(3));
    assert_eq!(d(14), Declaration::HsJoinPhaseInstanceCount(1));
    assert_eq!(
        program.instructions[8].operands[1].register,
        RegisterType::OutputControlPointId
    );
    // Partitioning 5 is not defined.
    assert!(program::decode(&program_tokens(HS, 5, 0, &[op(150, 1) | (5 << 11)])).is_err());
}

#[test]
fn compute_shader_declarations() {
    let g = register(THREAD_GROUP_SHARED_MEMORY) | dims(1);
    let u = register(UNORDERED_ACCESS_VIEW) | dims(1);
    let body = [
        // dcl_thread_group 8, 8, 1
        op(155, 4),
        8,
        8,
        1,
        // dcl_tgsm_raw g0, 1024 ; dcl_tgsm_structured g1, 16, 64
        op(159, 4),
        g,
        0,
        1024,
        op(160, 5),
        g,
        1,
        16,
        64,
        // dcl_uav_typed_texture2d (float,float,float,float) u0, globallycoherent, rasterizer ordered
        op(156, 4) | (3 << 11) | 0x0001_0000 | 0x0002_0000,
        u,
        0,
        return_type_token([5, 5, 5, 5]),
        // dcl_uav_raw u1 ; dcl_uav_structured u2, 32 with an order-preserving counter
        op(157, 3),
        u,
        1,
        op(158, 4) | 0x0080_0000,
        u,
        2,
        32,
    ];
    let program = round_trip(&program_tokens(CS, 5, 0, &body));
    let d = |i: usize| program.instructions[i].declaration.clone().unwrap();
    assert_eq!(d(0), Declaration::ThreadGroup([8, 8, 1]));
    assert!(matches!(d(1), Declaration::TgsmRaw { byte_count: 1024, .. }));
    assert!(matches!(
        d(2),
        Declaration::TgsmStructured {
            stride: 16,
            count: 64,
            ..
        }
    ));
    assert!(matches!(
        d(3),
        Declaration::UavTyped {
            dimension: ResourceDimension::Texture2D,
            globally_coherent: true,
            rasterizer_ordered: true,
            ..
        }
    ));
    assert!(matches!(
        d(4),
        Declaration::UavRaw {
            globally_coherent: false,
            rasterizer_ordered: false,
            ..
        }
    ));
    assert!(matches!(
        d(5),
        Declaration::UavStructured {
            stride: 32,
            has_counter: true,
            ..
        }
    ));
}

#[test]
fn declaration_control_bits_and_dwords_it_does_not_read_are_kept() {
    // dcl_temps with an ignored control bit set, and dcl_resource_raw with a trailing SM 5.1 register space DWORD.
    let (_, i) = declaration(PS, &[op(104, 2) | 1 << 20, 4]);
    assert_eq!(i.raw.control_bits, 1 << 20);
    let (_, i) = declaration(PS, &[op(161, 4), register(RESOURCE) | dims(1), 1, 0]);
    assert_eq!(i.raw.trailing, vec![0]);
}

#[test]
fn interface_declarations_and_calls() {
    // dcl_function_body fb0 ; dcl_function_body fb1 ; dcl_function_table ft0 = {fb0, fb1} ;
    // dcl_interface_dynamicindexed fp0[2][2] = {ft0} ; interface_call fp0[0][r0.x], function 1
    let body = [
        op(144, 2),
        0,
        op(144, 2),
        1,
        op(145, 5),
        0,
        2,
        0,
        1,
        op(146, 5) | 1 << 11,
        0,
        2,
        1 | 2 << 16, // ENCODE_D3D11_SB_INTERFACE_TABLE_LENGTH(1) | ENCODE_D3D11_SB_INTERFACE_ARRAY_LENGTH(2)
        0,
        op(120, 6),
        1,
        register(INTERFACE) | dims(2) | representation(1, RELATIVE),
        0,
        select1(0) | register(TEMP) | dims(1),
        0,
    ];
    let program = round_trip(&program_tokens(PS, 5, 0, &body));
    let d = |i: usize| program.instructions[i].declaration.clone().unwrap();
    assert_eq!(d(0), Declaration::FunctionBody(0));
    assert_eq!(
        d(2),
        Declaration::FunctionTable {
            id: 0,
            bodies: vec![0, 1]
        }
    );
    assert_eq!(
        d(3),
        Declaration::Interface {
            id: 0,
            dynamic_indexed: true,
            expected_table_length: 2,
            array_length: 2,
            tables: vec![0]
        }
    );
    let call = &program.instructions[4];
    assert_eq!(call.opcode, Opcode::InterfaceCall);
    assert_eq!(call.function_index, 1);
    assert_eq!(call.operands.len(), 1);
    assert_eq!(call.operands[0].register, RegisterType::Interface);
}

#[test]
fn bit_31_on_interface_opcodes_announces_a_length_dword() {
    // The header: for dcl_function_body/table/interface and interface_call, bit 31 set means the next DWORD is the
    // real length. A function table of 130 bodies needs it (2 + 1 + 1 + 130 = 134 DWORDs > 127).
    let mut body = vec![op(145, 0) | EXTENDED, 134, 7, 130];
    body.extend(0..130u32);
    // A body declared the long way although it is short, with a nonzero 7-bit field left as written.
    body.extend_from_slice(&[op(144, 5) | EXTENDED, 3, 9]);
    let program = round_trip(&program_tokens(PS, 5, 0, &body));
    let Declaration::FunctionTable { id, bodies } = program.instructions[0].declaration.clone().unwrap() else {
        panic!()
    };
    assert_eq!((id, bodies.len()), (7, 130));
    assert_eq!(program.instructions[0].raw.length_dword_field, Some(0));
    assert_eq!(program.instructions[1].declaration, Some(Declaration::FunctionBody(9)));
    assert_eq!(program.instructions[1].raw.length_dword_field, Some(5));
}

#[test]
fn the_encoder_uses_the_length_dword_only_when_an_instruction_needs_it() {
    let mut table = program::Instruction::new(Opcode::DclFunctionTable);
    table.declaration = Some(Declaration::FunctionTable {
        id: 1,
        bodies: (0..200).collect(),
    });
    let mut short = program::Instruction::new(Opcode::DclFunctionBody);
    short.declaration = Some(Declaration::FunctionBody(4));
    let built = Program {
        kind: ProgramKind::Pixel,
        major: 5,
        minor: 0,
        version_reserved_bits: 0,
        instructions: vec![table, short],
    };
    let tokens = program::encode(&built).unwrap();
    // 2 + 1 + 1 + 200 = 204 DWORDs: bit 31 set, length field 0, then the length.
    assert_eq!(tokens[2], op(145, 0) | EXTENDED);
    assert_eq!(tokens[3], 204);
    assert_eq!(tokens[206], op(144, 2));
    // An ordinary instruction of more than 127 DWORDs cannot be written.
    let mut long = program::Instruction::new(Opcode::Mov);
    long.operands = vec![temp(0, Components::Four(Selection::Mask(1))); 64];
    let built = Program {
        instructions: vec![long],
        ..built
    };
    assert!(program::encode(&built).is_err());
}

// ---- Custom data ----

#[test]
fn immediate_constant_buffer_custom_data() {
    // dcl_immediateConstantBuffer { {1,2,3,4}, {5,6,7,8} } ; mov r0.xyzw, icb[1].xyzw
    let body = [
        customdata(3),
        10,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        op(54, 5),
        mask(0xf) | register(TEMP) | dims(1),
        0,
        swizzle(0, 1, 2, 3) | register(9) | dims(1),
        1,
    ];
    let program = one(&body);
    assert_eq!(program.instructions[0].opcode, Opcode::CustomData);
    assert_eq!(
        program.instructions[0].declaration,
        Some(Declaration::CustomData(CustomData::ImmediateConstantBuffer(vec![
            [1, 2, 3, 4],
            [5, 6, 7, 8]
        ])))
    );
    assert_eq!(program.instructions[1].offset, 12);
    assert_eq!(
        program.instructions[1].operands[1].register,
        RegisterType::ImmediateConstantBuffer
    );
}

#[test]
fn comment_and_unknown_custom_data_are_kept_as_dwords() {
    let body = [
        customdata(0),
        4,
        0x6c6c_6548,
        0x006f,
        customdata(0x1234),
        2,
        customdata(1),
        3,
        9,
    ];
    let program = one(&body);
    let d = |i: usize| program.instructions[i].declaration.clone().unwrap();
    assert_eq!(
        d(0),
        Declaration::CustomData(CustomData::Comment(vec![0x6c6c_6548, 0x006f]))
    );
    assert_eq!(
        d(1),
        Declaration::CustomData(CustomData::Other {
            class: 0x1234,
            data: vec![]
        })
    );
    assert_eq!(d(2), Declaration::CustomData(CustomData::DebugInfo(vec![9])));
}

#[test]
fn an_immediate_constant_buffer_of_partial_vectors_is_an_error() {
    let e = program::decode(&program_tokens(PS, 4, 0, &[customdata(3), 5, 1, 2, 3])).unwrap_err();
    assert_eq!(e.at, "token 2", "{e}");
}

// ---- What the encoder refuses ----

/// A pixel shader 5.0 holding `instructions`.
fn built(instructions: Vec<program::Instruction>) -> Program {
    Program {
        kind: ProgramKind::Pixel,
        major: 5,
        minor: 0,
        version_reserved_bits: 0,
        instructions,
    }
}

/// Encoding `instruction` alone fails with a detail containing `says`, placed at instruction 0.
fn refuses(instruction: program::Instruction, says: &str) {
    let e = program::encode(&built(vec![instruction])).unwrap_err();
    assert_eq!(e.at, "instruction 0", "{e}");
    assert!(e.detail.contains(says), "{e}");
}

#[test]
fn the_encoder_refuses_what_no_token_can_hold() {
    use program::{ExtendedOpcode, Instruction};
    // A texel offset of 8 does not fit 4-bit two's complement (-8..=7).
    let mut sample = Instruction::new(Opcode::Sample);
    sample.extended = vec![ExtendedOpcode {
        kind: ExtendedOpcodeKind::SampleControls { offsets: [8, 0, 0] },
        ignored_bits: 0,
    }];
    refuses(sample, "texel offset 8");
    // A structure stride of 4096 does not fit the 12-bit field.
    let mut ld = Instruction::new(Opcode::LdStructured);
    ld.extended = vec![ExtendedOpcode {
        kind: ExtendedOpcodeKind::ResourceDimension {
            dimension: ResourceDimension::StructuredBuffer,
            structure_stride: 4096,
        },
        ignored_bits: 0,
    }];
    refuses(ld, "stride 4096");
    // Sync flags belong to sync alone; a test to conditionals; a resinfo return type to resinfo.
    let mut add = Instruction::new(Opcode::Add);
    add.sync_flags = SyncFlags(SyncFlags::THREADS_IN_GROUP);
    refuses(add, "sync flags");
    let mut mov = Instruction::new(Opcode::Mov);
    mov.test_nonzero = true;
    refuses(mov, "test");
    let mut mul = Instruction::new(Opcode::Mul);
    mul.resinfo_return = ResinfoReturnType::Uint;
    refuses(mul, "resinfo");
    // A declaration under another declaration's opcode, or under none.
    let mut temps = Instruction::new(Opcode::DclTemps);
    temps.declaration = Some(Declaration::ThreadGroup([1, 1, 1]));
    refuses(temps, "belongs to another opcode");
    refuses(Instruction::new(Opcode::DclTemps), "no Declaration");
    // dcl_input_ps needs an interpolation mode.
    let mut input = Instruction::new(Opcode::DclInputPs);
    input.declaration = Some(Declaration::Register {
        register: temp(0, Components::Four(Selection::Mask(1))),
        name: None,
        interpolation: None,
    });
    refuses(input, "interpolation mode");
    // Raw control bits may not overlap the typed ones (saturate is bit 13).
    let mut add = Instruction::new(Opcode::Add);
    add.raw.control_bits = SATURATE;
    refuses(add, "overlap");
    // A swizzle component of 4 and a fourth index do not fit.
    let mut mov = Instruction::new(Opcode::Mov);
    mov.operands = vec![temp(0, Components::Four(Selection::Swizzle([0, 1, 2, 4])))];
    refuses(mov, "swizzle component 4");
    let mut mov = Instruction::new(Opcode::Mov);
    mov.operands = vec![Operand::new(
        RegisterType::Temp,
        Components::One,
        vec![Index::Immediate32(0); 4],
    )];
    refuses(mov, "4 indices");
    // A literal operand needs values that match its component count.
    let mut mov = Instruction::new(Opcode::Mov);
    let mut literal = Operand::new(RegisterType::Immediate32, Components::One, vec![]);
    literal.immediate = Some(Immediate::Vector32([0; 4]));
    mov.operands = vec![literal];
    refuses(mov, "literal");
    // A version past 15.
    let mut program = built(vec![]);
    program.major = 16;
    assert!(program::encode(&program).is_err());
}
