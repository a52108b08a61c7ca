//! The hand-written listings under `fixtures/asm/`: each assembles, disassembles back to the same text (comments and
//! whitespace aside), and assembles to the tokens the token format header's bit layouts give, built here with
//! helpers that restate the header's `ENCODE_*` macros (`d3d12tokenizedprogramformat.hpp`), not with this crate's
//! encoder.

// Test code: token arithmetic on constants, and unwrap/index/panic as assertions, are what a test is for.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use iridia::dxbc::{Container, Shader, Verify, asm, disasm};
use std::path::Path;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/asm").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The code lines of a listing: comments dropped, whitespace runs made one space, blank lines dropped.
fn code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            l.split("//")
                .next()
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|l| !l.is_empty())
        .collect()
}

/// Assembles a fixture into its container and returns the program chunk's DWORDs.
fn assembled_tokens(name: &str) -> Vec<u32> {
    let blob = asm::assemble(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let container = Container::parse(&blob, Verify::Checksum).unwrap();
    let (_, data) = container.program_chunk().unwrap();
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const FIXTURES: [&str; 9] = [
    "annotations.asm",
    "bitops.asm",
    "cs_atomics.asm",
    "doubles.asm",
    "ds_domain.asm",
    "gs_streams.asm",
    "hs_phases.asm",
    "interfaces.asm",
    "ps_sampling.asm",
];

#[test]
fn every_fixture_listing_disassembles_back_to_itself() {
    for name in FIXTURES {
        let text = fixture(name);
        let blob = asm::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let shader = Shader::parse(&blob, Verify::Checksum).unwrap();
        let listing = disasm::disassemble(&shader);
        let (expected, actual) = (code_lines(&text), code_lines(&listing));
        for (e, a) in expected.iter().zip(&actual) {
            assert_eq!(a, e, "{name}");
        }
        assert_eq!(actual.len(), expected.len(), "{name}");
    }
}

// ---- Token builders restating the header's ENCODE_* macros ----

/// D3D10_SB_OPCODE_TYPE value of an opcode, by its lower-cased name without the `D3D1x_SB_OPCODE_` prefix, read from
/// `fixtures/dxbc-program/opcodes-from-header.txt` (the header's enum, transcribed and checked by another test).
fn opcode(name: &str) -> u32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/dxbc-program/opcodes-from-header.txt");
    let table = std::fs::read_to_string(path).unwrap();
    table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| {
            let mut cells = l.split_whitespace();
            let value = cells.next()?;
            (cells.next()? == name).then(|| value.parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no opcode {name}"))
}

/// ENCODE_D3D10_SB_TOKENIZED_PROGRAM_VERSION_TOKEN(kind, major, minor), then the length token, then `body`.
fn program(kind: u32, major: u32, minor: u32, body: Vec<Vec<u32>>) -> Vec<u32> {
    let body: Vec<u32> = body.into_iter().flatten().collect();
    let mut tokens = vec![(kind << 16) | (major << 4) | minor, body.len() as u32 + 2];
    tokens.extend(body);
    tokens
}
const PIXEL: u32 = 0;
const GEOMETRY: u32 = 2;
const HULL: u32 = 3;
const DOMAIN: u32 = 4;
const COMPUTE: u32 = 5;

/// ENCODE_D3D10_SB_OPERAND_EXTENDED / ENCODE_D3D10_SB_OPCODE_EXTENDED: bit 31.
const EXT: u32 = 0x8000_0000;

/// An instruction: ENCODE_D3D10_SB_OPCODE_TYPE | controls | ENCODE_D3D10_SB_TOKENIZED_INSTRUCTION_LENGTH (counted
/// from what follows), then its extended opcode tokens (chained through bit 31) and operands.
fn ins_ext(name: &str, controls: u32, extended: &[u32], operands: &[&[u32]]) -> Vec<u32> {
    let mut body: Vec<u32> = Vec::new();
    for (i, &e) in extended.iter().enumerate() {
        body.push(if i + 1 < extended.len() { e | EXT } else { e });
    }
    for operand in operands {
        body.extend_from_slice(operand);
    }
    let mut token = opcode(name) | controls | ((body.len() as u32 + 1) << 24);
    if !extended.is_empty() {
        token |= EXT;
    }
    let mut tokens = vec![token];
    tokens.extend(body);
    tokens
}
fn ins(name: &str, controls: u32, operands: &[&[u32]]) -> Vec<u32> {
    ins_ext(name, controls, &[], operands)
}

/// ENCODE_D3D10_SB_OPERAND_NUM_COMPONENTS(0 / 1 / 4).
const ZERO: u32 = 0;
const ONE: u32 = 1;
const FOUR: u32 = 2;
/// MASK_MODE with ENCODE_D3D10_SB_OPERAND_4_COMPONENT_MASK of the letters (x = D3D10_SB_OPERAND_4_COMPONENT_MASK_X).
fn m(letters: &str) -> u32 {
    FOUR | letters
        .chars()
        .fold(0, |bits, c| bits | 0x10 << "xyzw".find(c).unwrap())
}
/// SWIZZLE_MODE with ENCODE_D3D10_SB_OPERAND_4_COMPONENT_SWIZZLE of the four letters.
fn sw(letters: &str) -> u32 {
    let c: Vec<u32> = letters.chars().map(|c| "xyzw".find(c).unwrap() as u32).collect();
    FOUR | (1 << 2) | ((c[0] | c[1] << 2 | c[2] << 4 | c[3] << 6) << 4)
}
/// SELECT_1_MODE with ENCODE_D3D10_SB_OPERAND_4_COMPONENT_SELECT_1.
fn s1(letter: char) -> u32 {
    FOUR | (2 << 2) | ((("xyzw".find(letter).unwrap() as u32) << 4) & 0x30)
}

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
const IMMEDIATE_CONSTANT_BUFFER: u32 = 9;
const OUTPUT_DEPTH: u32 = 12;
const NULL: u32 = 13;
const STREAM: u32 = 16;
const FUNCTION_BODY: u32 = 17;
const INTERFACE: u32 = 19;
const OUTPUT_CONTROL_POINT_ID: u32 = 22;
const INPUT_FORK_INSTANCE_ID: u32 = 23;
const INPUT_CONTROL_POINT: u32 = 25;
const INPUT_PATCH_CONSTANT: u32 = 27;
const INPUT_DOMAIN_POINT: u32 = 28;
const UNORDERED_ACCESS_VIEW: u32 = 30;
const THREAD_GROUP_SHARED_MEMORY: u32 = 31;
const INPUT_THREAD_ID: u32 = 32;
const INPUT_THREAD_ID_IN_GROUP_FLATTENED: u32 = 36;
const INPUT_GS_INSTANCE_ID: u32 = 37;

/// One index: D3D10_SB_OPERAND_INDEX_IMMEDIATE32 (0), IMMEDIATE64 (1), RELATIVE (2), IMMEDIATE32_PLUS_RELATIVE (3),
/// IMMEDIATE64_PLUS_RELATIVE (4).
enum Ix {
    I(u32),
    I64(u64),
    Rel(Vec<u32>),
    IRel(u32, Vec<u32>),
    I64Rel(u64, Vec<u32>),
}

/// An operand: `comps` | ENCODE_D3D10_SB_OPERAND_TYPE | ENCODE_D3D10_SB_OPERAND_INDEX_DIMENSION |
/// ENCODE_D3D10_SB_OPERAND_INDEX_REPRESENTATION per index (3-bit fields from bit 22), then the indices: 32-bit values,
/// 64-bit ones high DWORD first, relative operands after any immediate part.
fn op(t: u32, comps: u32, indices: &[Ix]) -> Vec<u32> {
    let mut token = comps | (t << 12) | ((indices.len() as u32) << 20);
    let mut data = Vec::new();
    for (dim, index) in indices.iter().enumerate() {
        let rep = match index {
            Ix::I(v) => {
                data.push(*v);
                0
            }
            Ix::I64(v) => {
                data.extend([(*v >> 32) as u32, *v as u32]);
                1
            }
            Ix::Rel(r) => {
                data.extend(r);
                2
            }
            Ix::IRel(v, r) => {
                data.push(*v);
                data.extend(r);
                3
            }
            Ix::I64Rel(v, r) => {
                data.extend([(*v >> 32) as u32, *v as u32]);
                data.extend(r);
                4
            }
        };
        token |= rep << (22 + 3 * dim as u32);
    }
    let mut tokens = vec![token];
    tokens.extend(data);
    tokens
}
/// A one-index operand with an immediate index.
fn reg(t: u32, comps: u32, indices: &[u32]) -> Vec<u32> {
    op(t, comps, &indices.iter().map(|&i| Ix::I(i)).collect::<Vec<_>>())
}
/// `r#` with a component form.
fn r(n: u32, comps: u32) -> Vec<u32> {
    reg(TEMP, comps, &[n])
}
/// A 32-bit literal: 1 value (ONE component) or 4 (FOUR components, MASK_MODE with no mask bits, as compilers write).
fn lit(values: &[u32]) -> Vec<u32> {
    let comps = if values.len() == 1 { ONE } else { FOUR };
    let mut tokens = vec![comps | (IMMEDIATE32 << 12)];
    tokens.extend_from_slice(values);
    tokens
}
/// A 64-bit literal of doubles, each low DWORD first.
fn dlit(values: &[u64]) -> Vec<u32> {
    let comps = if values.len() == 1 { ONE } else { FOUR };
    let mut tokens = vec![comps | (IMMEDIATE64 << 12)];
    for v in values {
        tokens.extend([*v as u32, (*v >> 32) as u32]);
    }
    tokens
}
fn f(v: f32) -> u32 {
    v.to_bits()
}
fn d(v: f64) -> u64 {
    v.to_bits()
}
/// An extended operand modifier token after the operand token: ENCODE_D3D10_SB_EXTENDED_OPERAND_MODIFIER (NEG 1,
/// ABS 2, ABSNEG 3) | ENCODE_D3D11_SB_OPERAND_MIN_PRECISION | ENCODE_D3D12_SB_OPERAND_NON_UNIFORM, type 1.
fn modified(mut operand: Vec<u32>, modifier: u32, precision: u32, non_uniform: u32) -> Vec<u32> {
    operand[0] |= EXT;
    operand.insert(1, 1 | modifier << 6 | precision << 14 | non_uniform << 17);
    operand
}
/// ENCODE_D3D10_SB_RESOURCE_RETURN_TYPE of x, y, z, w (UNORM 1 .. FLOAT 5, MIXED 6).
fn return_types(t: u32) -> u32 {
    t | t << 4 | t << 8 | t << 12
}
/// Extended opcode tokens: D3D10_SB_EXTENDED_OPCODE_SAMPLE_CONTROLS with ENCODE_IMMEDIATE_D3D10_SB_ADDRESS_OFFSET,
/// D3D11_SB_EXTENDED_OPCODE_RESOURCE_DIM with its dimension [10:6] and stride [22:11], and
/// D3D11_SB_EXTENDED_OPCODE_RESOURCE_RETURN_TYPE with four 4-bit types from bit 6.
fn ext_offsets(u: i32, v: i32, w: i32) -> u32 {
    1 | ((u as u32 & 0xf) << 9) | ((v as u32 & 0xf) << 13) | ((w as u32 & 0xf) << 17)
}
fn ext_dim(dimension: u32, stride: u32) -> u32 {
    2 | dimension << 6 | stride << 11
}
fn ext_types(t: u32) -> u32 {
    3 | return_types(t) << 6
}
/// Controls: ENCODE_D3D10_SB_INSTRUCTION_SATURATE, TEST_BOOLEAN(NONZERO), ENCODE_D3D11_SB_INSTRUCTION_PRECISE_VALUES.
const SAT: u32 = 1 << 13;
const NZ: u32 = 1 << 18;
fn precise(mask: u32) -> u32 {
    mask << 19
}
/// D3D10_SB_GLOBAL_FLAG_REFACTORING_ALLOWED, D3D11_SB_GLOBAL_FLAG_ENABLE_DOUBLE_PRECISION_FLOAT_OPS,
/// D3D11_1_SB_GLOBAL_FLAG_ENABLE_DOUBLE_EXTENSIONS.
const REFACTORING_ALLOWED: u32 = 1 << 11;
const DOUBLES: u32 = 1 << 12;
const DOUBLE_EXTENSIONS: u32 = 1 << 17;
/// `rN.c` as a one-component source.
fn rs(n: u32, c: char) -> Vec<u32> {
    r(n, s1(c))
}

fn check(name: &str, expected: Vec<u32>) {
    let actual = assembled_tokens(name);
    for (i, (a, e)) in actual.iter().zip(&expected).enumerate() {
        assert_eq!(a, e, "{name}: DWORD {i}: {a:#010x} != {e:#010x}");
    }
    assert_eq!(actual.len(), expected.len(), "{name}: length");
}

#[test]
fn bit_instructions_assemble_to_the_header_layout() {
    check(
        "bitops.asm",
        program(
            COMPUTE,
            5,
            0,
            vec![
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                ins("dcl_temps", 0, &[&[4]]),
                ins("dcl_thread_group", 0, &[&[1, 1, 1]]),
                ins("countbits", 0, &[&r(0, m("x")), &rs(1, 'x')]),
                ins("firstbit_hi", 0, &[&r(0, m("y")), &rs(1, 'x')]),
                ins("firstbit_lo", 0, &[&r(0, m("z")), &rs(1, 'x')]),
                ins("firstbit_shi", 0, &[&r(0, m("w")), &rs(1, 'x')]),
                ins("bfrev", 0, &[&r(1, m("xyzw")), &r(2, sw("xyzw"))]),
                ins(
                    "bfi",
                    0,
                    &[
                        &r(2, m("xy")),
                        &lit(&[8, 8, 0, 0]),
                        &lit(&[4, 12, 0, 0]),
                        &r(0, sw("xyxx")),
                        &r(1, sw("xyxx")),
                    ],
                ),
                ins("ubfe", 0, &[&r(3, m("x")), &lit(&[5]), &lit(&[3]), &rs(0, 'x')]),
                ins(
                    "ibfe",
                    0,
                    &[&r(3, m("y")), &lit(&[5]), &lit(&[3]), &modified(rs(0, 'x'), 1, 0, 0)],
                ),
                ins("msad", 0, &[&r(3, m("z")), &rs(1, 'x'), &rs(1, 'y'), &rs(1, 'z')]),
                ins("uaddc", 0, &[&r(0, m("x")), &r(0, m("y")), &rs(1, 'x'), &rs(1, 'y')]),
                ins(
                    "usubb",
                    0,
                    &[&r(0, m("z")), &reg(NULL, ZERO, &[]), &rs(1, 'x'), &rs(1, 'y')],
                ),
                ins(
                    "swapc",
                    0,
                    &[
                        &r(2, m("xy")),
                        &r(3, m("xy")),
                        &r(0, sw("xxxx")),
                        &r(1, sw("xyxx")),
                        &r(2, sw("xyxx")),
                    ],
                ),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn double_instructions_assemble_to_the_header_layout() {
    let xyxy = || r(0, sw("xyxy"));
    check(
        "doubles.asm",
        program(
            COMPUTE,
            5,
            0,
            vec![
                ins(
                    "dcl_global_flags",
                    REFACTORING_ALLOWED | DOUBLES | DOUBLE_EXTENSIONS,
                    &[],
                ),
                ins("dcl_temps", 0, &[&[4]]),
                ins("dcl_thread_group", 0, &[&[1, 1, 1]]),
                ins("ftod", 0, &[&r(0, m("xy")), &lit(&[f(1.5)])]),
                ins("ftod", 0, &[&r(0, m("zw")), &lit(&[f(-2.0)])]),
                ins("dadd", 0, &[&r(1, m("xy")), &xyxy(), &r(0, sw("zwzw"))]),
                ins("dmul", 0, &[&r(1, m("zw")), &xyxy(), &dlit(&[d(0.5)])]),
                ins(
                    "dfma",
                    0,
                    &[
                        &r(2, m("xy")),
                        &r(1, sw("xyxy")),
                        &r(1, sw("zwzw")),
                        &dlit(&[d(1.0), d(2.0)]),
                    ],
                ),
                ins("ddiv", 0, &[&r(2, m("zw")), &xyxy(), &r(0, sw("zwzw"))]),
                ins(
                    "dmax",
                    0,
                    &[&r(3, m("xy")), &r(2, sw("xyxy")), &modified(r(2, sw("zwzw")), 1, 0, 0)],
                ),
                ins(
                    "dmin",
                    0,
                    &[&r(3, m("zw")), &modified(r(2, sw("xyxy")), 2, 0, 0), &r(2, sw("zwzw"))],
                ),
                ins("drcp", 0, &[&r(1, m("xy")), &r(3, sw("xyxy"))]),
                ins("deq", 0, &[&r(0, m("x")), &r(1, sw("xyxy")), &r(3, sw("zwzw"))]),
                ins("dge", 0, &[&r(0, m("y")), &r(1, sw("xyxy")), &r(3, sw("zwzw"))]),
                ins("dlt", 0, &[&r(0, m("z")), &r(1, sw("xyxy")), &r(3, sw("zwzw"))]),
                ins("dne", 0, &[&r(0, m("w")), &r(1, sw("xyxy")), &r(3, sw("zwzw"))]),
                ins(
                    "dmovc",
                    0,
                    &[&r(1, m("xy")), &r(0, sw("xxxx")), &r(2, sw("xyxy")), &r(3, sw("zwzw"))],
                ),
                ins("dmov", 0, &[&r(1, m("zw")), &dlit(&[d(0.1), d(f64::INFINITY)])]),
                ins("dtof", 0, &[&r(3, m("x")), &r(1, sw("xyxy"))]),
                ins("dtoi", 0, &[&r(3, m("y")), &r(1, sw("zwzw"))]),
                ins("dtou", 0, &[&r(3, m("z")), &r(2, sw("xyxy"))]),
                ins("itod", 0, &[&r(2, m("xy")), &lit(&[(-3i32) as u32])]),
                ins("utod", 0, &[&r(2, m("zw")), &lit(&[7])]),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn compute_memory_and_atomics_assemble_to_the_header_layout() {
    let u = |n| reg(UNORDERED_ACCESS_VIEW, ZERO, &[n]);
    let g = |n| reg(THREAD_GROUP_SHARED_MEMORY, ZERO, &[n]);
    let flattened = || reg(INPUT_THREAD_ID_IN_GROUP_FLATTENED, ONE, &[]);
    check(
        "cs_atomics.asm",
        program(
            COMPUTE,
            5,
            0,
            vec![
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                // D3D10_SB_RESOURCE_DIMENSION_TEXTURE2D (3) at [15:11]; return type UINT (4).
                ins("dcl_unordered_access_view_typed", 3 << 11, &[&u(0), &[return_types(4)]]),
                // D3D11_SB_GLOBALLY_COHERENT_ACCESS.
                ins("dcl_unordered_access_view_raw", 0x0001_0000, &[&u(1)]),
                // D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER.
                ins("dcl_unordered_access_view_structured", 0x0080_0000, &[&u(2), &[16]]),
                ins("dcl_resource_raw", 0, &[&reg(RESOURCE, ZERO, &[0])]),
                ins("dcl_resource_structured", 0, &[&reg(RESOURCE, ZERO, &[1]), &[8]]),
                ins("dcl_input", 0, &[&flattened()]),
                ins("dcl_input", 0, &[&reg(INPUT_THREAD_ID, m("xy"), &[])]),
                ins("dcl_temps", 0, &[&[3]]),
                ins("dcl_thread_group_shared_memory_raw", 0, &[&g(0), &[256]]),
                ins("dcl_thread_group_shared_memory_structured", 0, &[&g(1), &[4, 64]]),
                ins("dcl_thread_group", 0, &[&[8, 8, 1]]),
                // D3D11_SB_RESOURCE_DIMENSION_RAW_BUFFER (11), return types MIXED (6).
                ins_ext(
                    "ld_raw",
                    0,
                    &[ext_dim(11, 0), ext_types(6)],
                    &[&r(0, m("xy")), &lit(&[0]), &reg(RESOURCE, sw("xyxx"), &[0])],
                ),
                // D3D11_SB_RESOURCE_DIMENSION_STRUCTURED_BUFFER (12) with stride 8.
                ins_ext(
                    "ld_structured",
                    0,
                    &[ext_dim(12, 8), ext_types(6)],
                    &[
                        &r(0, m("z")),
                        &reg(INPUT_THREAD_ID, s1('x'), &[]),
                        &lit(&[4]),
                        &reg(RESOURCE, sw("xxxx"), &[1]),
                    ],
                ),
                ins(
                    "store_raw",
                    0,
                    &[
                        &reg(THREAD_GROUP_SHARED_MEMORY, m("xy"), &[0]),
                        &lit(&[16]),
                        &r(0, sw("xyxx")),
                    ],
                ),
                ins(
                    "store_structured",
                    0,
                    &[
                        &reg(THREAD_GROUP_SHARED_MEMORY, m("x"), &[1]),
                        &flattened(),
                        &lit(&[0]),
                        &rs(0, 'z'),
                    ],
                ),
                // D3D11_SB_SYNC_THREAD_GROUP_SHARED_MEMORY | D3D11_SB_SYNC_THREADS_IN_GROUP.
                ins("sync", 0x1000 | 0x800, &[]),
                ins("atomic_iadd", 0, &[&u(1), &lit(&[0]), &rs(0, 'x')]),
                ins("atomic_or", 0, &[&g(0), &lit(&[4]), &rs(0, 'y')]),
                ins("atomic_cmp_store", 0, &[&u(1), &lit(&[8]), &rs(0, 'x'), &rs(0, 'y')]),
                ins("imm_atomic_iadd", 0, &[&r(1, m("x")), &u(1), &lit(&[12]), &lit(&[1])]),
                ins("imm_atomic_exch", 0, &[&r(1, m("y")), &g(0), &lit(&[0]), &rs(0, 'x')]),
                ins(
                    "imm_atomic_cmp_exch",
                    0,
                    &[&r(1, m("z")), &u(1), &lit(&[16]), &rs(0, 'x'), &rs(0, 'y')],
                ),
                ins(
                    "imm_atomic_umax",
                    0,
                    &[&r(1, m("w")), &g(1), &reg(INPUT_THREAD_ID, sw("xyxx"), &[]), &lit(&[7])],
                ),
                ins("imm_atomic_alloc", 0, &[&r(2, m("x")), &u(2)]),
                ins("imm_atomic_consume", 0, &[&r(2, m("y")), &u(2)]),
                ins(
                    "store_uav_typed",
                    0,
                    &[
                        &reg(UNORDERED_ACCESS_VIEW, m("xyzw"), &[0]),
                        &reg(INPUT_THREAD_ID, sw("xyyy"), &[]),
                        &r(1, sw("xyzw")),
                    ],
                ),
                // ... | D3D11_SB_SYNC_UNORDERED_ACCESS_VIEW_MEMORY_GLOBAL.
                ins("sync", 0x4000 | 0x1000 | 0x800, &[]),
                ins("sync", 0x4000, &[]),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn a_geometry_shader_with_streams_assembles_to_the_header_layout() {
    let v_rel = |register: u32, comps: u32| op(INPUT, comps, &[Ix::IRel(0, rs(0, 'x')), Ix::I(register)]);
    check(
        "gs_streams.asm",
        program(
            GEOMETRY,
            5,
            0,
            vec![
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                ins("dcl_input", 0, &[&reg(INPUT, m("xyzw"), &[3, 0])]),
                ins("dcl_input", 0, &[&reg(INPUT, m("xy"), &[3, 1])]),
                ins("dcl_input", 0, &[&reg(INPUT_GS_INSTANCE_ID, ONE, &[])]),
                ins("dcl_temps", 0, &[&[1]]),
                // ENCODE_D3D10_SB_GS_INPUT_PRIMITIVE(D3D10_SB_PRIMITIVE_TRIANGLE = 3).
                ins("dcl_gs_input_primitive", 3 << 11, &[]),
                ins("dcl_stream", 0, &[&reg(STREAM, ZERO, &[0])]),
                // ENCODE_D3D10_SB_GS_OUTPUT_PRIMITIVE_TOPOLOGY(TRIANGLESTRIP = 5).
                ins("dcl_gs_output_primitive_topology", 5 << 11, &[]),
                // D3D10_SB_NAME_POSITION = 1.
                ins("dcl_output_siv", 0, &[&reg(OUTPUT, m("xyzw"), &[0]), &[1]]),
                ins("dcl_output", 0, &[&reg(OUTPUT, m("xy"), &[1])]),
                ins("dcl_stream", 0, &[&reg(STREAM, ZERO, &[1])]),
                ins("dcl_gs_output_primitive_topology", 1 << 11, &[]),
                ins("dcl_output", 0, &[&reg(OUTPUT, m("xyzw"), &[0])]),
                ins("dcl_max_output_vertex_count", 0, &[&[6]]),
                ins("dcl_gs_instance_count", 0, &[&[2]]),
                ins("mov", 0, &[&r(0, m("x")), &lit(&[0])]),
                ins("loop", 0, &[]),
                ins("ige", 0, &[&r(0, m("y")), &rs(0, 'x'), &lit(&[3])]),
                ins("breakc", NZ, &[&rs(0, 'y')]),
                ins("mov", 0, &[&reg(OUTPUT, m("xyzw"), &[0]), &v_rel(0, sw("xyzw"))]),
                ins("mov", 0, &[&reg(OUTPUT, m("xy"), &[1]), &v_rel(1, sw("xyxx"))]),
                ins("emit_stream", 0, &[&reg(STREAM, ZERO, &[0])]),
                ins("iadd", 0, &[&r(0, m("x")), &rs(0, 'x'), &lit(&[1])]),
                ins("endloop", 0, &[]),
                ins("cut_stream", 0, &[&reg(STREAM, ZERO, &[0])]),
                ins(
                    "utof",
                    0,
                    &[&reg(OUTPUT, m("xyzw"), &[0]), &reg(INPUT_GS_INSTANCE_ID, ONE, &[])],
                ),
                ins("emitthencut_stream", 0, &[&reg(STREAM, ZERO, &[1])]),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn a_hull_shader_with_phases_assembles_to_the_header_layout() {
    check(
        "hs_phases.asm",
        program(
            HULL,
            5,
            0,
            vec![
                ins("hs_decls", 0, &[]),
                // ENCODE_D3D11_SB_INPUT/OUTPUT_CONTROL_POINT_COUNT(3) at [16:11].
                ins("dcl_input_control_point_count", 3 << 11, &[]),
                ins("dcl_output_control_point_count", 3 << 11, &[]),
                // D3D11_SB_TESSELLATOR_DOMAIN_TRI = 2, PARTITIONING_FRACTIONAL_ODD = 3, OUTPUT_TRIANGLE_CW = 3.
                ins("dcl_tess_domain", 2 << 11, &[]),
                ins("dcl_tess_partitioning", 3 << 11, &[]),
                ins("dcl_tess_output_primitive", 3 << 11, &[]),
                ins("dcl_hs_max_tessfactor", 0, &[&[f(64.0)]]),
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                ins("hs_control_point_phase", 0, &[]),
                ins("dcl_input", 0, &[&reg(OUTPUT_CONTROL_POINT_ID, ONE, &[])]),
                ins("dcl_input", 0, &[&reg(INPUT, m("xyzw"), &[3, 0])]),
                ins("dcl_output", 0, &[&reg(OUTPUT, m("xyzw"), &[0])]),
                ins("dcl_temps", 0, &[&[1]]),
                ins("mov", 0, &[&r(0, m("x")), &reg(OUTPUT_CONTROL_POINT_ID, ONE, &[])]),
                ins(
                    "mov",
                    0,
                    &[
                        &reg(OUTPUT, m("xyzw"), &[0]),
                        &op(INPUT, sw("xyzw"), &[Ix::IRel(0, rs(0, 'x')), Ix::I(0)]),
                    ],
                ),
                ins("ret", 0, &[]),
                ins("hs_fork_phase", 0, &[]),
                ins("dcl_hs_fork_phase_instance_count", 0, &[&[3]]),
                ins("dcl_input", 0, &[&reg(INPUT_FORK_INSTANCE_ID, ONE, &[])]),
                // D3D11_SB_NAME_FINAL_TRI_U/V/W_EQ_0_EDGE_TESSFACTOR = 17, 18, 19.
                ins("dcl_output_siv", 0, &[&reg(OUTPUT, m("x"), &[0]), &[17]]),
                ins("dcl_output_siv", 0, &[&reg(OUTPUT, m("x"), &[1]), &[18]]),
                ins("dcl_output_siv", 0, &[&reg(OUTPUT, m("x"), &[2]), &[19]]),
                ins("dcl_temps", 0, &[&[1]]),
                ins("dcl_index_range", 0, &[&reg(OUTPUT, m("x"), &[0]), &[3]]),
                ins("mov", 0, &[&r(0, m("x")), &reg(INPUT_FORK_INSTANCE_ID, ONE, &[])]),
                ins(
                    "mov",
                    0,
                    &[&op(OUTPUT, m("x"), &[Ix::IRel(0, rs(0, 'x'))]), &lit(&[f(4.0)])],
                ),
                ins("ret", 0, &[]),
                ins("hs_join_phase", 0, &[]),
                ins("dcl_input", 0, &[&reg(INPUT_CONTROL_POINT, m("xyzw"), &[3, 0])]),
                // D3D11_SB_NAME_FINAL_TRI_INSIDE_TESSFACTOR = 20.
                ins("dcl_output_siv", 0, &[&reg(OUTPUT, m("x"), &[3]), &[20]]),
                ins(
                    "add",
                    0,
                    &[
                        &reg(OUTPUT, m("x"), &[3]),
                        &reg(INPUT_CONTROL_POINT, s1('w'), &[0, 0]),
                        &reg(INPUT_CONTROL_POINT, s1('w'), &[1, 0]),
                    ],
                ),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn a_domain_shader_assembles_to_the_header_layout() {
    let domain = |s: &str| reg(INPUT_DOMAIN_POINT, sw(s), &[]);
    let cp = |n| reg(INPUT_CONTROL_POINT, sw("xyzw"), &[n, 0]);
    check(
        "ds_domain.asm",
        program(
            DOMAIN,
            5,
            0,
            vec![
                ins("dcl_input_control_point_count", 3 << 11, &[]),
                ins("dcl_tess_domain", 2 << 11, &[]),
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                ins("dcl_input", 0, &[&reg(INPUT_DOMAIN_POINT, m("xyz"), &[])]),
                ins("dcl_input", 0, &[&reg(INPUT_CONTROL_POINT, m("xyzw"), &[3, 0])]),
                ins("dcl_input_siv", 0, &[&reg(INPUT_PATCH_CONSTANT, m("x"), &[0]), &[17]]),
                ins("dcl_output_siv", 0, &[&reg(OUTPUT, m("xyzw"), &[0]), &[1]]),
                ins("dcl_temps", 0, &[&[1]]),
                ins("mul", 0, &[&r(0, m("xyzw")), &domain("yyyy"), &cp(1)]),
                ins(
                    "mad",
                    0,
                    &[&r(0, m("xyzw")), &cp(0), &domain("xxxx"), &r(0, sw("xyzw"))],
                ),
                ins(
                    "mad",
                    0,
                    &[
                        &reg(OUTPUT, m("xyzw"), &[0]),
                        &cp(2),
                        &domain("zzzz"),
                        &r(0, sw("xyzw")),
                    ],
                ),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn interfaces_assemble_to_the_header_layout() {
    check(
        "interfaces.asm",
        program(
            PIXEL,
            5,
            0,
            vec![
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                ins("dcl_function_body", 0, &[&[0]]),
                ins("dcl_function_body", 0, &[&[1]]),
                // Table number, body count, bodies.
                ins("dcl_function_table", 0, &[&[0, 1, 0]]),
                ins("dcl_function_table", 0, &[&[1, 1, 1]]),
                // Interface number, expected table length, ENCODE_D3D11_SB_INTERFACE_TABLE_LENGTH |
                // ENCODE_D3D11_SB_INTERFACE_ARRAY_LENGTH, tables.
                ins("dcl_interface", 0, &[&[0, 1, 2 | 1 << 16, 0, 1]]),
                // ENCODE_D3D11_SB_INTERFACE_INDEXED_BIT(1) at [11].
                ins("dcl_interface", 1 << 11, &[&[1, 1, 1 | 2 << 16, 1]]),
                ins("dcl_output", 0, &[&reg(OUTPUT, m("xyzw"), &[0])]),
                ins("dcl_temps", 0, &[&[1]]),
                // The function index DWORD, then the interface operand.
                ins("interface_call", 0, &[&[0], &reg(INTERFACE, ZERO, &[0, 0])]),
                ins(
                    "interface_call",
                    0,
                    &[&[0], &op(INTERFACE, ZERO, &[Ix::I(1), Ix::IRel(1, rs(0, 'x'))])],
                ),
                ins("mov", 0, &[&reg(OUTPUT, m("xyzw"), &[0]), &r(0, sw("xyzw"))]),
                ins("ret", 0, &[]),
                ins("label", 0, &[&reg(FUNCTION_BODY, ZERO, &[0])]),
                ins("mov", 0, &[&r(0, m("xyzw")), &lit(&[f(1.0), 0, 0, f(1.0)])]),
                ins("ret", 0, &[]),
                ins("label", 0, &[&reg(FUNCTION_BODY, ZERO, &[1])]),
                ins("mov", 0, &[&r(0, m("xyzw")), &lit(&[0, f(1.0), 0, f(1.0)])]),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn pixel_sampling_and_modifiers_assemble_to_the_header_layout() {
    let v = |n, comps| reg(INPUT, comps, &[n]);
    let t = |n, comps| reg(RESOURCE, comps, &[n]);
    let s = |n, comps| reg(SAMPLER, comps, &[n]);
    let float_2d = [ext_dim(3, 0), ext_types(5)];
    check(
        "ps_sampling.asm",
        program(
            PIXEL,
            5,
            0,
            vec![
                ins("dcl_global_flags", REFACTORING_ALLOWED, &[]),
                // D3D10_SB_CONSTANT_BUFFER_DYNAMIC_INDEXED at [11]; the operand cb0[4] with the identity swizzle.
                ins(
                    "dcl_constant_buffer",
                    1 << 11,
                    &[&reg(CONSTANT_BUFFER, sw("xyzw"), &[0, 4])],
                ),
                ins("dcl_sampler", 0, &[&s(0, ZERO)]),
                // D3D10_SB_SAMPLER_MODE_COMPARISON = 1 at [14:11].
                ins("dcl_sampler", 1 << 11, &[&s(1, ZERO)]),
                ins("dcl_resource", 3 << 11, &[&t(0, ZERO), &[return_types(5)]]),
                // TEXTURE2DMS = 4 at [15:11], sample count 4 at [22:16].
                ins("dcl_resource", 4 << 11 | 4 << 16, &[&t(1, ZERO), &[return_types(5)]]),
                // TEXTURECUBEARRAY = 10.
                ins("dcl_resource", 10 << 11, &[&t(2, ZERO), &[return_types(5)]]),
                // D3D10_SB_INTERPOLATION_LINEAR_NOPERSPECTIVE = 4, LINEAR_CENTROID = 3, CONSTANT = 1 at [14:11];
                // D3D10_SB_NAME_POSITION = 1, SAMPLE_INDEX = 10.
                ins("dcl_input_ps_siv", 4 << 11, &[&v(0, m("xy")), &[1]]),
                ins("dcl_input_ps", 3 << 11, &[&v(1, m("xy"))]),
                ins("dcl_input_ps_sgv", 1 << 11, &[&v(2, m("x")), &[10]]),
                ins("dcl_output", 0, &[&reg(OUTPUT, m("xyzw"), &[0])]),
                ins("dcl_output", 0, &[&reg(OUTPUT_DEPTH, ONE, &[])]),
                ins("dcl_temps", 0, &[&[3]]),
                ins("dcl_indexable_temp", 0, &[&[0, 4, 4]]),
                ins("deriv_rtx_coarse", 0, &[&r(0, m("xy")), &v(1, sw("xyxx"))]),
                ins("deriv_rty_fine", 0, &[&r(0, m("zw")), &v(1, sw("xxxy"))]),
                ins_ext(
                    "sample",
                    0,
                    &float_2d,
                    &[&r(1, m("xyzw")), &v(1, sw("xyxx")), &t(0, sw("xyzw")), &s(0, ZERO)],
                ),
                ins_ext(
                    "sample_l",
                    0,
                    &[ext_offsets(-1, 2, 0), ext_dim(3, 0), ext_types(5)],
                    &[
                        &r(1, m("xyzw")),
                        &v(1, sw("xyxx")),
                        &t(0, sw("xyzw")),
                        &s(0, ZERO),
                        &lit(&[0]),
                    ],
                ),
                ins_ext(
                    "sample_c_lz",
                    0,
                    &float_2d,
                    &[
                        &r(2, m("x")),
                        &v(1, sw("xyxx")),
                        &t(0, sw("xxxx")),
                        &s(1, ZERO),
                        &lit(&[f(0.5)]),
                    ],
                ),
                ins_ext(
                    "gather4",
                    0,
                    &float_2d,
                    &[&r(2, m("xyzw")), &v(1, sw("xyxx")), &t(0, sw("xyzw")), &s(0, s1('x'))],
                ),
                ins_ext(
                    "ld_ms",
                    0,
                    &[ext_dim(4, 0), ext_types(5)],
                    &[&r(1, m("xyzw")), &lit(&[0, 0, 0, 0]), &t(1, sw("xyzw")), &v(2, s1('x'))],
                ),
                // D3D10_SB_RESINFO_INSTRUCTION_RETURN_UINT = 2 at [12:11].
                ins_ext(
                    "resinfo",
                    2 << 11,
                    &float_2d,
                    &[&r(0, m("xy")), &lit(&[0]), &t(0, sw("xyxx"))],
                ),
                // D3D10_SB_INSTRUCTION_RETURN_UINT = 1 at [12:11].
                ins_ext(
                    "sample_info",
                    1 << 11,
                    &[ext_dim(4, 0), ext_types(5)],
                    &[&r(0, m("z")), &t(1, s1('x'))],
                ),
                ins_ext(
                    "lod",
                    0,
                    &[ext_dim(10, 0), ext_types(5)],
                    &[&r(0, m("w")), &v(1, sw("xyxx")), &t(2, s1('y')), &s(0, ZERO)],
                ),
                ins("eval_centroid", 0, &[&r(2, m("xy")), &v(1, sw("xyxx"))]),
                ins("eval_sample_index", 0, &[&r(2, m("zw")), &v(1, sw("xxxy")), &lit(&[3])]),
                ins(
                    "mov",
                    0,
                    &[
                        &op(INDEXABLE_TEMP, m("xyzw"), &[Ix::I(0), Ix::IRel(1, rs(0, 'x'))]),
                        &op(CONSTANT_BUFFER, sw("xyzw"), &[Ix::I(0), Ix::IRel(2, rs(0, 'y'))]),
                    ],
                ),
                // D3D10_SB_OPERAND_MODIFIER_ABSNEG = 3.
                ins(
                    "mul",
                    SAT,
                    &[
                        &r(1, m("xyzw")),
                        &r(1, sw("xyzw")),
                        &modified(reg(CONSTANT_BUFFER, sw("xyzw"), &[0, 1]), 3, 0, 0),
                    ],
                ),
                ins("mul", precise(0b0001), &[&r(0, m("x")), &rs(0, 'x'), &lit(&[f(2.0)])]),
                ins(
                    "add",
                    precise(0b1111),
                    &[
                        &r(0, m("xyzw")),
                        &r(0, sw("xyzw")),
                        &lit(&[f(1.0 / 3.0), f(1.0), f(1e-7), 0x7fc0_0000]),
                    ],
                ),
                ins("if", 0, &[&rs(0, 'x')]),
                ins("discard", NZ, &[&rs(0, 'y')]),
                ins("else", 0, &[]),
                ins(
                    "movc",
                    0,
                    &[
                        &r(1, m("xyzw")),
                        &r(0, sw("xxxx")),
                        &lit(&[1, 2, 3, f(1.0)]),
                        &r(1, sw("xyzw")),
                    ],
                ),
                ins("endif", 0, &[]),
                ins("mov", 0, &[&reg(OUTPUT_DEPTH, ONE, &[]), &rs(0, 'x')]),
                ins("mov", 0, &[&reg(OUTPUT, m("xyzw"), &[0]), &r(1, sw("xyzw"))]),
                ins("ret", 0, &[]),
            ],
        ),
    );
}

#[test]
fn annotations_assemble_to_the_tokens_they_spell() {
    check(
        "annotations.asm",
        program(
            PIXEL,
            4,
            0,
            vec![
                // Version token bits [15:8] = 0x01 come from {reserved=0x100}; see the version in `program` below.
                // D3D10_SB_CUSTOMDATA_COMMENT (0) in [31:11], then the length DWORD counting both header DWORDs.
                vec![opcode("customdata"), 4, 1, 0xdead_beef],
                // D3D10_SB_CUSTOMDATA_DCL_IMMEDIATE_CONSTANT_BUFFER (3): 2 + 8 DWORDs.
                vec![
                    opcode("customdata") | 3 << 11,
                    10,
                    f(1.0),
                    0,
                    0,
                    0,
                    0,
                    f(1.0),
                    u32::MAX,
                    0x7f80_0000,
                ],
                ins("dcl_temps", 0, &[&[2, 7]]),
                ins(
                    "dcl_input_ps_siv",
                    2 << 11,
                    &[&reg(INPUT, m("xyzw"), &[0]), &[1 | 0x1_0000]],
                ),
                ins(
                    "dcl_resource",
                    3 << 11 | 0x80_0000,
                    &[&reg(RESOURCE, ZERO, &[0]), &[return_types(5) | 0x5555_0000]],
                ),
                // A one-letter source in mask mode.
                ins("mov", 0, &[&r(0, m("x")), &r(1, m("x"))]),
                // A swizzle-mode destination; a two-letter source is a mask.
                ins("mov", 0, &[&r(0, sw("xyzw")), &r(1, m("xy"))]),
                // An empty mask; a one-component temp.
                ins("mov", 0, &[&r(0, m("")), &r(1, ONE)]),
                ins("mov", 0, &[&r(0, s1('x')), &r(1, sw("xyzw"))]),
                // D3D10_SB_OPERAND_N_COMPONENT (3) with selection bits 0x3c set.
                ins("mov", 0, &[&r(0, m("x")), &r(1, 3 | 0x3c)]),
                // A modifier token that modifies nothing; an empty extended token (type 0, ignored bit 6) before it.
                ins(
                    "add",
                    0,
                    &[&r(0, m("xy")), &modified(r(1, sw("xyxx")), 0, 0, 0), &{
                        let mut o = r(2, sw("xyxx"));
                        o[0] |= EXT;
                        o.insert(1, 0x40 | EXT);
                        o.insert(2, 1);
                        o
                    }],
                ),
                ins("mov", 0, &[&r(0, m("x")), &r(1, s1('x') | 0x300)]),
                // D3D11_SB_OPERAND_MIN_PRECISION_FLOAT_16 = 1 at [16:14]; non-uniform at [17].
                ins(
                    "mov",
                    0,
                    &[&modified(r(0, m("x")), 0, 1, 1), &modified(lit(&[f(0.5)]), 0, 1, 0)],
                ),
                ins(
                    "mov",
                    0,
                    &[&r(0, m("x")), &op(CONSTANT_BUFFER, s1('x'), &[Ix::I(0), Ix::I64(1)])],
                ),
                ins(
                    "mov",
                    0,
                    &[
                        &r(0, m("x")),
                        &op(CONSTANT_BUFFER, s1('x'), &[Ix::I(0), Ix::I64Rel(2, rs(1, 'x'))]),
                    ],
                ),
                ins(
                    "mov",
                    0,
                    &[
                        &r(0, m("x")),
                        &op(IMMEDIATE_CONSTANT_BUFFER, s1('y'), &[Ix::Rel(rs(1, 'x'))]),
                    ],
                ),
                // An empty extended opcode token, then sample controls (1, -1, 0).
                ins_ext(
                    "sample",
                    0,
                    &[0, ext_offsets(1, -1, 0)],
                    &[
                        &r(0, m("xyzw")),
                        &r(1, sw("xyxx")),
                        &reg(RESOURCE, sw("xyzw"), &[0]),
                        &reg(SAMPLER, ZERO, &[0]),
                    ],
                ),
                // The long form: bit 31 set, length field 0, then the length DWORD (2 + 1 + 3).
                vec![opcode("interface_call") | EXT, 6, 1, 2 << 20 | INTERFACE << 12, 1, 0],
                ins(
                    "interface_call",
                    0,
                    &[&[2], &{
                        let mut o = reg(INTERFACE, ZERO, &[0, 0]);
                        o[0] |= 0x4000_0000;
                        o
                    }],
                ),
                ins("if", NZ, &[&rs(0, 'x')]),
                ins("endif", 1 << 18, &[]),
                ins("ret", 0, &[]),
            ],
        )
        .into_iter()
        .enumerate()
        .map(|(i, t)| if i == 0 { t | 0x100 } else { t })
        .collect(),
    );
}

#[test]
fn the_sampling_fixture_header_gives_its_signatures() {
    use iridia::dxbc::signature::{ComponentType, SignatureKind, SystemValue};
    let shader = asm::assemble_shader(&fixture("ps_sampling.asm")).unwrap();
    let input = shader.input_signature.unwrap();
    assert_eq!(input.kind, SignatureKind::Isgn);
    let names: Vec<(&str, u32, u8, u8, SystemValue)> = input
        .elements
        .iter()
        .map(|e| (e.semantic_name.as_str(), e.register, e.mask, e.rw_mask, e.system_value))
        .collect();
    assert_eq!(
        names,
        [
            ("SV_Position", 0, 0xf, 0x3, SystemValue::POSITION),
            ("TEXCOORD", 1, 0x3, 0x3, SystemValue::UNDEFINED),
            ("SV_SampleIndex", 2, 0x1, 0x1, SystemValue::SAMPLE_INDEX),
        ]
    );
    assert_eq!(input.elements[2].component_type, ComponentType::UINT32);
    let output = shader.output_signature.unwrap();
    // SV_Target and SV_Depth store system value 0 (as compilers do); the Used column shows the components written,
    // so the stored never-written byte is 0; SV_Depth has no register (0xFFFFFFFF).
    assert_eq!(output.elements[0].system_value, SystemValue::UNDEFINED);
    assert_eq!(output.elements[0].rw_mask, 0);
    assert_eq!(output.elements[1].register, u32::MAX);
    assert_eq!(output.elements[1].d3d_name(), SystemValue::DEPTH);
    assert!(shader.patch_constant_signature.is_none());
}
