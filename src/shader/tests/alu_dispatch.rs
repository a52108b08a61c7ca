//! Every ALU opcode of vs/ps 4.0-5.0 reaches the right `alu` function with its operands in the right order and its
//! results in the right destinations. Each case is one instruction on inputs `v0..v3` writing `o0` (and `o1`), with
//! the expected words worked out by hand from section 22's definitions.

use super::{exe, f, fv, run_vertices};
use crate::shader::Bindings;

/// A double's register words, low word first (3.1.4).
fn dw(x: f64) -> [u32; 2] {
    let bits = x.to_bits();
    [bits as u32, (bits >> 32) as u32]
}

/// Two doubles in `.xy` and `.zw`.
fn dv(a: f64, b: f64) -> [u32; 4] {
    let [a0, a1] = dw(a);
    let [b0, b1] = dw(b);
    [a0, a1, b0, b1]
}

/// Runs `line` (which reads v0..v3 and writes o0, o1) on one vertex; returns o0 and o1.
fn one(line: &str, v: [[u32; 4]; 4]) -> ([u32; 4], [u32; 4]) {
    let text = format!(
        "vs_5_0
        dcl_input v0.xyzw
        dcl_input v1.xyzw
        dcl_input v2.xyzw
        dcl_input v3.xyzw
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        {line}
        ret"
    );
    let exe = exe(&text);
    let inputs = [(0, v[0]), (1, v[1]), (2, v[2]), (3, v[3])];
    let machine = run_vertices(&exe, &[&inputs], &Bindings::default());
    (machine.output(0, 0), machine.output(0, 1))
}

const Z: [u32; 4] = [0; 4];
const T: u32 = 0xFFFF_FFFF;

/// One lane's case: the instruction, its inputs, the expected `o0` and `o1` (`None`: not checked).
type Case = (&'static str, [[u32; 4]; 4], [u32; 4], Option<[u32; 4]>);

fn check(cases: &[Case]) {
    for (line, inputs, o0, o1) in cases {
        let (got0, got1) = one(line, *inputs);
        assert_eq!(got0, *o0, "{line}: o0");
        if let Some(o1) = o1 {
            assert_eq!(got1, *o1, "{line}: o1");
        }
    }
}

#[test]
fn float_arithmetic_reaches_alu_componentwise() {
    let a = fv([1.5, -2.0, 4.0, 16.0]);
    let b = fv([2.25, 3.0, 0.25, 2.0]);
    check(&[
        // 1.5 + 2.25, -2 + 3, 4 + 0.25, 16 + 2.
        ("add o0, v0, v1", [a, b, Z, Z], fv([3.75, 1.0, 4.25, 18.0]), None),
        ("mul o0, v0, v1", [a, b, Z, Z], fv([3.375, -6.0, 1.0, 32.0]), None),
        (
            "div o0, v0, v1",
            [a, b, Z, Z],
            fv([1.5 / 2.25, -2.0 / 3.0, 16.0, 8.0]),
            None,
        ),
        ("min o0, v0, v1", [a, b, Z, Z], fv([1.5, -2.0, 0.25, 2.0]), None),
        ("max o0, v0, v1", [a, b, Z, Z], fv([2.25, 3.0, 4.0, 16.0]), None),
        // a * b + a.
        ("mad o0, v0, v1, v0", [a, b, Z, Z], fv([4.875, -8.0, 5.0, 48.0]), None),
        ("eq o0, v0, v0.xxxx", [a, Z, Z, Z], [T, 0, 0, 0], None),
        ("ne o0, v0, v0.xxxx", [a, Z, Z, Z], [0, T, T, T], None),
        ("lt o0, v0, v1", [a, b, Z, Z], [T, T, 0, 0], None),
        ("ge o0, v0, v1", [a, b, Z, Z], [0, 0, T, T], None),
        // (1.5, -2) . (2.25, 3) = 3.375 - 6; + 4 * 0.25 = -1.625; + 16 * 2 = 30.375.
        ("dp2 o0, v0, v1", [a, b, Z, Z], fv([-2.625; 4]), None),
        ("dp3 o0.xz, v0, v1", [a, b, Z, Z], [f(-1.625), 0, f(-1.625), 0], None),
        ("dp4 o0, v0, v1", [a, b, Z, Z], fv([30.375; 4]), None),
    ]);
}

#[test]
fn float_unary_instructions_reach_alu() {
    check(&[
        (
            "exp o0, v0",
            [fv([3.0, 0.0, -1.0, 10.0]), Z, Z, Z],
            fv([8.0, 1.0, 0.5, 1024.0]),
            None,
        ),
        (
            "log o0, v0",
            [fv([8.0, 1.0, 0.5, 1024.0]), Z, Z, Z],
            fv([3.0, 0.0, -1.0, 10.0]),
            None,
        ),
        (
            "frc o0, v0",
            [fv([2.75, -0.25, 3.0, 0.5]), Z, Z, Z],
            fv([0.75, 0.75, 0.0, 0.5]),
            None,
        ),
        (
            "rcp o0, v0",
            [fv([4.0, -0.5, 1.0, 8.0]), Z, Z, Z],
            fv([0.25, -2.0, 1.0, 0.125]),
            None,
        ),
        (
            "rsq o0, v0",
            [fv([16.0, 4.0, 1.0, 0.25]), Z, Z, Z],
            fv([0.25, 0.5, 1.0, 2.0]),
            None,
        ),
        (
            "sqrt o0, v0",
            [fv([16.0, 4.0, 1.0, 0.25]), Z, Z, Z],
            fv([4.0, 2.0, 1.0, 0.5]),
            None,
        ),
        // Ties: round_ne(2.5) = 2 (even), round_ne(3.5) = 4.
        (
            "round_ne o0, v0",
            [fv([2.5, 3.5, -2.5, 0.4]), Z, Z, Z],
            fv([2.0, 4.0, -2.0, 0.0]),
            None,
        ),
        (
            "round_ni o0, v0",
            [fv([2.5, -2.5, -0.1, 3.0]), Z, Z, Z],
            fv([2.0, -3.0, -1.0, 3.0]),
            None,
        ),
        (
            "round_pi o0, v0",
            [fv([2.1, -2.5, 0.0, 3.0]), Z, Z, Z],
            fv([3.0, -2.0, 0.0, 3.0]),
            None,
        ),
        (
            "round_z o0, v0",
            [fv([2.7, -2.7, 0.5, -0.5]), Z, Z, Z],
            fv([2.0, -2.0, 0.0, -0.0]),
            None,
        ),
        // sin(0) = 0, cos(0) = 1 in the two destinations, component-wise.
        (
            "sincos o0.xy, o1.xy, v0",
            [fv([0.0, 0.0, 9.0, 9.0]), Z, Z, Z],
            [0, 0, 0, 0],
            Some([f(1.0), f(1.0), 0, 0]),
        ),
    ]);
}

#[test]
fn moves_keep_bits_and_select_per_component() {
    // A denormal (1) and a NaN with a payload pass through mov untouched (3.1.3.2).
    check(&[
        (
            "mov o0, v0",
            [[1, 0x7FC1_2345, 5, 6], Z, Z, Z],
            [1, 0x7FC1_2345, 5, 6],
            None,
        ),
        // movc: v0 is the condition per component, v1 if set, v2 if not.
        (
            "movc o0, v0, v1, v2",
            [[1, 0, T, 0], [10, 11, 12, 13], [20, 21, 22, 23], Z],
            [10, 21, 12, 23],
            None,
        ),
        // swapc (22.9.3): dest0 = cond ? src2 : src1, dest1 = cond ? src1 : src2.
        (
            "swapc o0, o1, v0, v1, v2",
            [[1, 0, 1, 0], [10, 11, 12, 13], [20, 21, 22, 23], Z],
            [20, 11, 22, 13],
            Some([10, 21, 12, 23]),
        ),
    ]);
}

#[test]
fn conversions_reach_alu() {
    check(&[
        (
            "ftoi o0, v0",
            [fv([-2.7, 3.9, 0.0, -0.5]), Z, Z, Z],
            [(-2i32) as u32, 3, 0, 0],
            None,
        ),
        ("ftou o0, v0", [fv([3.9, -1.0, 0.0, 7.5]), Z, Z, Z], [3, 0, 0, 7], None),
        (
            "itof o0, v0",
            [[(-3i32) as u32, 0, 7, 1], Z, Z, Z],
            fv([-3.0, 0.0, 7.0, 1.0]),
            None,
        ),
        // 2^32 - 1 rounds to 2^32 as a float.
        (
            "utof o0, v0",
            [[T, 0, 7, 1], Z, Z, Z],
            fv([4_294_967_296.0, 0.0, 7.0, 1.0]),
            None,
        ),
        // 1.0 is 0x3C00 as a half; -2.0 is 0xC000.
        (
            "f32tof16 o0, v0",
            [fv([1.0, -2.0, 0.0, 0.5]), Z, Z, Z],
            [0x3C00, 0xC000, 0, 0x3800],
            None,
        ),
        (
            "f16tof32 o0, v0",
            [[0x3C00, 0xC000, 0, 0x3800], Z, Z, Z],
            fv([1.0, -2.0, 0.0, 0.5]),
            None,
        ),
    ]);
}

#[test]
fn integer_and_bitwise_instructions_reach_alu() {
    let m = |x: i32| x as u32;
    check(&[
        (
            "and o0, v0, v1",
            [[0xF0F0, 0, T, 5], [0xFF00, 1, 7, 3], Z, Z],
            [0xF000, 0, 7, 1],
            None,
        ),
        (
            "or o0, v0, v1",
            [[0xF0F0, 0, T, 5], [0xFF00, 1, 7, 3], Z, Z],
            [0xFFF0, 1, T, 7],
            None,
        ),
        (
            "xor o0, v0, v1",
            [[0xF0F0, 0, T, 5], [0xFF00, 1, 7, 3], Z, Z],
            [0x0FF0, 1, !7, 6],
            None,
        ),
        ("not o0, v0", [[0, T, 1, 0xF0], Z, Z, Z], [T, 0, !1, !0xF0], None),
        (
            "iadd o0, v0, v1",
            [[1, T, 5, 0], [2, 1, m(-7), 0], Z, Z],
            [3, 0, m(-2), 0],
            None,
        ),
        (
            "ineg o0, v0",
            [[5, 0, 0x8000_0000, T], Z, Z, Z],
            [m(-5), 0, 0x8000_0000, 1],
            None,
        ),
        // Shift amounts use their low 5 bits: 33 shifts by 1.
        (
            "ishl o0, v0, v1",
            [[1, 1, 3, 0], [33, 31, 1, 4], Z, Z],
            [2, 0x8000_0000, 6, 0],
            None,
        ),
        (
            "ishr o0, v0, v1",
            [[0x8000_0000, 16, 0, 0], [4, 2, 0, 0], Z, Z],
            [0xF800_0000, 4, 0, 0],
            None,
        ),
        (
            "ushr o0, v0, v1",
            [[0x8000_0000, 16, 0, 0], [4, 2, 0, 0], Z, Z],
            [0x0800_0000, 4, 0, 0],
            None,
        ),
        ("ieq o0, v0, v1", [[1, 1, 0, 0], [1, 2, 0, 0], Z, Z], [T, 0, T, T], None),
        ("ine o0, v0, v1", [[1, 1, 0, 0], [1, 2, 0, 0], Z, Z], [0, T, 0, 0], None),
        // Signed: -1 < 0; unsigned: 0xFFFFFFFF is not < 0.
        ("ilt o0, v0, v1", [[T, 0, 0, 0], [0, 0, 0, 0], Z, Z], [T, 0, 0, 0], None),
        ("ige o0, v0, v1", [[T, 0, 0, 0], [0, 0, 0, 0], Z, Z], [0, T, T, T], None),
        ("ult o0, v0, v1", [[T, 0, 0, 0], [0, 1, 0, 0], Z, Z], [0, T, 0, 0], None),
        ("uge o0, v0, v1", [[T, 0, 0, 0], [0, 1, 0, 0], Z, Z], [T, 0, T, T], None),
        (
            "imax o0, v0, v1",
            [[T, 5, 0, 0], [1, 2, 0, 0], Z, Z],
            [1, 5, 0, 0],
            None,
        ),
        (
            "imin o0, v0, v1",
            [[T, 5, 0, 0], [1, 2, 0, 0], Z, Z],
            [T, 2, 0, 0],
            None,
        ),
        (
            "umax o0, v0, v1",
            [[T, 5, 0, 0], [1, 2, 0, 0], Z, Z],
            [T, 5, 0, 0],
            None,
        ),
        (
            "umin o0, v0, v1",
            [[T, 5, 0, 0], [1, 2, 0, 0], Z, Z],
            [1, 2, 0, 0],
            None,
        ),
        // -2 * 3 + 10 = 4; 2 * 3 + 4 = 10.
        (
            "imad o0, v0, v1, v2",
            [[m(-2), 0, 0, 0], [3, 0, 0, 0], [10, 0, 0, 0], Z],
            [4, 0, 0, 0],
            None,
        ),
        (
            "umad o0, v0, v1, v2",
            [[2, 0, 0, 0], [3, 0, 0, 0], [4, 0, 0, 0], Z],
            [10, 0, 0, 0],
            None,
        ),
        // msad: reference bytes (LE) 3, 2, 1, 0 against 3, 3, 3, 0: |3-3| + |2-3| + |1-3| (byte 3 skipped: reference
        // 0) = 3, plus the accumulator 5.
        (
            "msad o0, v0, v1, v2",
            [[0x0001_0203, 0, 0, 0], [0x0003_0303, 0, 0, 0], [5, 0, 0, 0], Z],
            [8, 0, 0, 0],
            None,
        ),
        // ubfe(width 4, offset 4, 0xABCD) = 0xC; ibfe of the field 0xF sign-extends to -1.
        (
            "ubfe o0, v0, v1, v2",
            [[4, 0, 0, 0], [4, 0, 0, 0], [0xABCD, 0, 0, 0], Z],
            [0xC, 0, 0, 0],
            None,
        ),
        (
            "ibfe o0, v0, v1, v2",
            [[4, 0, 0, 0], [4, 0, 0, 0], [0x00F0, 0, 0, 0], Z],
            [T, 0, 0, 0],
            None,
        ),
        // bfi(width 8, offset 8, insert 0xAB, base 0x12345678) = 0x1234AB78.
        (
            "bfi o0.x, v0.x, v1.x, v2.x, v3.x",
            [[8; 4], [8; 4], [0xAB; 4], [0x1234_5678; 4]],
            [0x1234_AB78, 0, 0, 0],
            None,
        ),
        (
            "bfrev o0, v0",
            [[1, 0x8000_0000, 0, T], Z, Z, Z],
            [0x8000_0000, 1, 0, T],
            None,
        ),
        ("countbits o0, v0", [[0xF0, 0, T, 1], Z, Z, Z], [4, 0, 32, 1], None),
        // firstbit_hi counts from the MSB: 0x10000000 gives 3 (22.11.5); none found gives ~0.
        (
            "firstbit_hi o0, v0",
            [[0x1000_0000, 0, 1, T], Z, Z, Z],
            [3, T, 31, 0],
            None,
        ),
        (
            "firstbit_lo o0, v0",
            [[8, 0, 1, 0x8000_0000], Z, Z, Z],
            [3, T, 0, 31],
            None,
        ),
        // -16 is 28 ones then 0000: the first 0 from the MSB is at 28; 1 has its first 1 at 31; 0 and -1 give ~0.
        (
            "firstbit_shi o0, v0",
            [[m(-16), 1, 0, T], Z, Z, Z],
            [28, 31, T, T],
            None,
        ),
    ]);
}

#[test]
fn two_result_integer_instructions_fill_both_destinations() {
    let m = |x: i32| x as u32;
    check(&[
        // -2 * 3 = -6: high word all ones, low word 0xFFFFFFFA.
        (
            "imul o0, o1, v0, v1",
            [[m(-2), 0, 0, 0], [3, 0, 0, 0], Z, Z],
            [T, 0, 0, 0],
            Some([m(-6), 0, 0, 0]),
        ),
        // 2^31 * 4 = 2^33: high 2, low 0.
        (
            "umul o0, o1, v0, v1",
            [[0x8000_0000, 0, 0, 0], [4, 0, 0, 0], Z, Z],
            [2, 0, 0, 0],
            Some([0; 4]),
        ),
        // 7 / 2 = 3 rest 1; division by zero gives 0xFFFFFFFF for both (22.12.9).
        (
            "udiv o0, o1, v0, v1",
            [[7, 7, 0, 0], [2, 0, 1, 1], Z, Z],
            [3, T, 0, 0],
            Some([1, T, 0, 0]),
        ),
        (
            "uaddc o0, o1, v0, v1",
            [[T, 1, 0, 0], [2, 1, 0, 0], Z, Z],
            [1, 2, 0, 0],
            Some([1, 0, 0, 0]),
        ),
        (
            "usubb o0, o1, v0, v1",
            [[1, 3, 0, 0], [2, 1, 0, 0], Z, Z],
            [T, 2, 0, 0],
            Some([1, 0, 0, 0]),
        ),
        // A null destination drops its result; the other is still written.
        (
            "udiv null, o1, v0, v1",
            [[7, 0, 0, 0], [2, 1, 1, 1], Z, Z],
            Z,
            Some([1, 0, 0, 0]),
        ),
    ]);
}

#[test]
fn double_instructions_map_pairs_of_components() {
    let [z0, z1] = dw(0.0);
    check(&[
        (
            "dadd o0, v0, v1",
            [dv(1.5, 4.0), dv(2.25, -1.0), Z, Z],
            dv(3.75, 3.0),
            None,
        ),
        (
            "dmul o0, v0, v1",
            [dv(1.5, 4.0), dv(2.25, -1.0), Z, Z],
            dv(3.375, -4.0),
            None,
        ),
        (
            "dmin o0, v0, v1",
            [dv(1.5, 4.0), dv(2.25, -1.0), Z, Z],
            dv(1.5, -1.0),
            None,
        ),
        (
            "dmax o0, v0, v1",
            [dv(1.5, 4.0), dv(2.25, -1.0), Z, Z],
            dv(2.25, 4.0),
            None,
        ),
        (
            "ddiv o0, v0, v1",
            [dv(1.5, 4.0), dv(2.25, -1.0), Z, Z],
            dv(1.5 / 2.25, -4.0),
            None,
        ),
        // 1.5 * 2 + 0.25 = 3.25 (one rounding: exact here).
        (
            "dfma o0, v0, v1, v2",
            [dv(1.5, 1.0), dv(2.0, 1.0), dv(0.25, 1.0), Z],
            dv(3.25, 2.0),
            None,
        ),
        ("drcp o0, v0", [dv(4.0, -0.5), Z, Z, Z], dv(0.25, -2.0), None),
        ("dmov o0, v0", [dv(4.0, -0.5), Z, Z, Z], dv(4.0, -0.5), None),
        // dmovc: slot k's condition is the condition's component k (22.16.2).
        (
            "dmovc o0, v2, v0, v1",
            [dv(1.0, 2.0), dv(3.0, 4.0), [0, 1, 0, 0], Z],
            dv(3.0, 2.0),
            None,
        ),
        // .zw written from the second double only; .xy untouched (0).
        (
            "dadd o0.zw, v0, v1",
            [dv(1.5, 4.0), dv(2.25, -1.0), Z, Z],
            [z0, z1, dw(3.0)[0], dw(3.0)[1]],
            None,
        ),
        // A .zwxy swizzle puts the second double first.
        (
            "dmov o0.xy, v0.zwxy",
            [dv(4.0, -0.5), Z, Z, Z],
            [dw(-0.5)[0], dw(-0.5)[1], 0, 0],
            None,
        ),
        // Negate flips the sign of both doubles (the high words).
        ("dmov o0, -v0", [dv(4.0, -0.5), Z, Z, Z], dv(-4.0, 0.5), None),
    ]);
}

#[test]
fn double_comparisons_and_conversions_compact_into_the_mask() {
    check(&[
        // The k-th component of the mask receives the k-th double's result (22.15.1).
        (
            "deq o0.yw, v0, v1",
            [dv(1.0, 2.0), dv(1.0, 3.0), Z, Z],
            [0, T, 0, 0],
            None,
        ),
        (
            "dne o0.xy, v0, v1",
            [dv(1.0, 2.0), dv(1.0, 3.0), Z, Z],
            [0, T, 0, 0],
            None,
        ),
        (
            "dlt o0.z, v0, v1",
            [dv(1.0, 2.0), dv(2.0, 3.0), Z, Z],
            [0, 0, T, 0],
            None,
        ),
        (
            "dge o0.xy, v0, v1",
            [dv(1.0, 2.0), dv(2.0, 2.0), Z, Z],
            [0, T, 0, 0],
            None,
        ),
        (
            "dtof o0.zw, v0",
            [dv(1.5, -2.0), Z, Z, Z],
            [0, 0, f(1.5), f(-2.0)],
            None,
        ),
        (
            "dtoi o0.x, v0",
            [dv(-2.5, 9.0), Z, Z, Z],
            [(-2i32) as u32, 0, 0, 0],
            None,
        ),
        ("dtou o0.xy, v0", [dv(3.5, 9.0), Z, Z, Z], [3, 9, 0, 0], None),
        // Slot k of the result converts component k of the source (22.17.2).
        ("ftod o0, v0", [fv([1.5, -3.0, 0.0, 0.0]), Z, Z, Z], dv(1.5, -3.0), None),
        ("itod o0, v0", [[(-3i32) as u32, 7, 0, 0], Z, Z, Z], dv(-3.0, 7.0), None),
        ("utod o0, v0", [[7, T, 0, 0], Z, Z, Z], dv(7.0, 4_294_967_295.0), None),
    ]);
}

#[test]
fn saturate_clamps_float_and_double_results() {
    check(&[
        // 22.19.1: min(1, max(0, x)); NaN becomes 0.
        (
            "add_sat o0, v0, v1",
            [fv([0.75, -3.0, 0.25, f32::NAN]), fv([0.5, 1.0, 0.25, 0.0]), Z, Z],
            fv([1.0, 0.0, 0.5, 0.0]),
            None,
        ),
        (
            "mov_sat o0, -v0",
            [fv([0.25, -0.5, 2.0, -0.0]), Z, Z, Z],
            fv([0.0, 0.5, 0.0, 0.0]),
            None,
        ),
        (
            "dadd_sat o0, v0, v1",
            [dv(0.5, -2.0), dv(0.75, 0.5), Z, Z],
            dv(1.0, 0.0),
            None,
        ),
    ]);
}
