//! Pixel quads: derivatives across the 2x2 lanes (22.5.2-5), helper lanes (16.13), several quads in a batch.

use super::{exe, f, run_quads};
use crate::shader::Bindings;

/// The lanes of a quad at pixel (`x0`, `y0`): `v0.xy` is the pixel centre (x + 0.5, y + 0.5), in lane order
/// top-left, top-right, bottom-left, bottom-right.
fn centres(x0: f32, y0: f32) -> Vec<Vec<(u32, [u32; 4])>> {
    [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
        .iter()
        .map(|(dx, dy)| vec![(0, [f(x0 + dx + 0.5), f(y0 + dy + 0.5), 0, 0])])
        .collect()
}

/// g(x, y) = x * x * y, whose derivatives differ between the lanes of a quad.
const DERIVATIVES: &str = "
    ps_5_0
    dcl_input_ps linear v0.xy
    dcl_output o0.xyzw
    dcl_output o1.xyzw
    dcl_temps 1
    mul r0.x, v0.x, v0.x
    mul r0.x, r0.x, v0.y
    deriv_rtx_fine o0.x, r0.x
    deriv_rty_fine o0.y, r0.x
    deriv_rtx_coarse o0.z, r0.x
    deriv_rty_coarse o0.w, r0.x
    mov o1.x, r0.x
    ret
";

#[test]
fn fine_derivatives_use_the_lanes_row_and_column_and_coarse_ones_the_top_row_and_left_column() {
    // g at the quad's centres (0.5, 0.5), (1.5, 0.5), (0.5, 1.5), (1.5, 1.5): 0.125, 1.125, 0.375, 3.375.
    // Fine x (22.5.4: "the delta of the row of 2 pixels including the current pixel"): top row 1.125 - 0.125 = 1,
    // bottom row 3.375 - 0.375 = 3. Fine y: left column 0.375 - 0.125 = 0.25, right 3.375 - 1.125 = 2.25.
    // Coarse (22.5.2's example: "a delta from the top row of pixels, and ... from the left column"): 1 and 0.25
    // for every lane. (llvmpipe computes coarse as fine, so the reference renderer would give lane 3 (3, 2.25).)
    let exe = exe(DERIVATIVES);
    let m = run_quads(&exe, &[0b1111], &centres(0.0, 0.0), &Bindings::default());
    assert_eq!(m.output(0, 0), [f(1.0), f(0.25), f(1.0), f(0.25)]);
    assert_eq!(m.output(1, 0), [f(1.0), f(2.25), f(1.0), f(0.25)]);
    assert_eq!(m.output(2, 0), [f(3.0), f(0.25), f(1.0), f(0.25)]);
    assert_eq!(m.output(3, 0), [f(3.0), f(2.25), f(1.0), f(0.25)]);
}

#[test]
fn helper_lanes_feed_derivatives_at_a_triangle_edge_but_write_nothing() {
    // Only the bottom-right lane is covered (a triangle's corner): the other three are helpers whose values, at
    // their own centres, still make the quad's derivatives (16.13). Quad at pixel (2, 4): centres x 2.5, 3.5 and
    // y 4.5, 5.5; g = 28.125, 55.125, 34.375, 67.375. Lane 3: fine x 67.375 - 34.375 = 33, fine y 67.375 - 55.125
    // = 12.25, coarse x 55.125 - 28.125 = 27, coarse y 34.375 - 28.125 = 6.25.
    let exe = exe(DERIVATIVES);
    let m = run_quads(&exe, &[0b1000], &centres(2.0, 4.0), &Bindings::default());
    assert_eq!(m.output(3, 0), [f(33.0), f(12.25), f(27.0), f(6.25)]);
    for lane in 0..3 {
        assert!(m.is_helper(lane));
        assert_eq!(m.written(lane, 0), 0);
        assert_eq!(m.written(lane, 1), 0);
    }
    assert!(!m.is_helper(3));
    assert_eq!(m.written(3, 0), 0b1111);
    // The helpers ran: their own g is in the (unwritten) output register.
    assert_eq!(m.output(0, 1)[0], f(28.125));
}

#[test]
fn shader_model_4_derivatives_are_coarse() {
    // deriv_rtx/deriv_rty of SM4 are what deriv_rt*_coarse replaced (22.5.2-3: the _coarse and _fine forms "are a
    // replacement for deriv_rtx/deriv_rty"); D3D10 computed one pair per 2x2 stamp. Same quad as above: lane 3 gets
    // the top row's and left column's deltas.
    let exe = exe("
        ps_4_0
        dcl_input_ps linear v0.xy
        dcl_output o0.xyzw
        dcl_temps 1
        mul r0.x, v0.x, v0.x
        mul r0.x, r0.x, v0.y
        deriv_rtx o0.x, r0.x
        deriv_rty o0.y, r0.x
        ret
    ");
    let m = run_quads(&exe, &[0b1111], &centres(0.0, 0.0), &Bindings::default());
    assert_eq!(m.output(3, 0)[..2], [f(1.0), f(0.25)]);
}

#[test]
fn each_quad_of_a_batch_takes_derivatives_from_its_own_lanes() {
    // Two quads in one batch at pixels (0, 0) and (10, 0): v0.x * v0.x has fine x derivative (x + 1)^2 - x^2 =
    // 2x + 1 on the top row: 2 * 0.5 + 1 = 2 in the first quad, 2 * 10.5 + 1 = 22 in the second.
    let exe = exe("
        ps_5_0
        dcl_input_ps linear v0.xy
        dcl_output o0.xyzw
        dcl_temps 1
        mul r0.x, v0.x, v0.x
        deriv_rtx_fine o0.x, r0.x
        ret
    ");
    let mut inputs = centres(0.0, 0.0);
    inputs.extend(centres(10.0, 0.0));
    let m = run_quads(&exe, &[0b1111, 0b0110], &inputs, &Bindings::default());
    assert_eq!(m.output(0, 0)[0], f(2.0));
    assert_eq!(m.output(4, 0)[0], f(22.0));
    assert_eq!(m.output(5, 0)[0], f(22.0));
    // Quad 1 covers lanes 1 and 2 (batch lanes 5, 6); 4 and 7 are helpers.
    assert!(m.is_helper(4) && !m.is_helper(5) && !m.is_helper(6) && m.is_helper(7));
}

#[test]
fn a_derivative_is_a_float_subtraction_with_modifiers_applied_first() {
    // deriv of -|v0.x| (22.5.4 takes [-]src0[_abs]): lanes hold -0.5 and -1.5 along the top row: -1.5 - -0.5 = -1.
    let exe = exe("
        ps_5_0
        dcl_input_ps linear v0.xy
        dcl_output o0.xyzw
        deriv_rtx_fine_sat o0.x, -|v0.x|
        deriv_rtx_fine o0.y, -|v0.x|
        ret
    ");
    let m = run_quads(&exe, &[0b1111], &centres(0.0, 0.0), &Bindings::default());
    // _sat clamps -1 to 0.
    assert_eq!(m.output(0, 0)[..2], [0, f(-1.0)]);
}
