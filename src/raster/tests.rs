//! The rasterizer's rules on hand-made triangles: each test's expected values are worked out in its comments.

use super::*;

/// The side of the square render target most tests draw into.
const SIZE: u32 = 16;

fn viewport() -> Viewport {
    Viewport {
        x: 0.,
        y: 0.,
        width: SIZE as f32,
        height: SIZE as f32,
        min_depth: 0.,
        max_depth: 1.,
    }
}

fn no_cull() -> RasterizerState {
    RasterizerState {
        cull: Cull::None,
        ..RasterizerState::default()
    }
}

fn raster_with(viewport: Viewport, state: RasterizerState) -> Rasterizer {
    Rasterizer::new(viewport, state, Scissor::default(), [SIZE, SIZE], DepthFormat::Float).unwrap()
}

fn raster(state: RasterizerState) -> Rasterizer {
    raster_with(viewport(), state)
}

/// The clip-space position of pixel coordinates (`x` right, `y` down) in the full-target viewport, at depth `z`
/// (z/w) and `w`. Exact in float32 for the values the tests use (multiples of 1/8 pixel, w a small power of two or
/// small integer).
fn at(x: f32, y: f32, z: f32, w: f32) -> [f32; 4] {
    let s = SIZE as f32;
    [(x / s * 2. - 1.) * w, (1. - y / s * 2.) * w, z * w, w]
}

/// Every covered pixel of `triangle` with its lane, from the full walk, sorted by row then column.
fn covered(triangle: &Triangle) -> Vec<((u32, u32), Lane)> {
    let mut pixels = Vec::new();
    for quad in triangle.quads() {
        for lane in 0..4 {
            if quad.is_covered(lane) {
                let (x, y) = quad.pixel(lane);
                pixels.push(((x, y), quad.lanes[lane]));
            }
        }
    }
    pixels.sort_by_key(|((x, y), _)| (*y, *x));
    pixels
}

fn covered_pixels(triangle: &Triangle) -> Vec<(u32, u32)> {
    covered(triangle).into_iter().map(|(p, _)| p).collect()
}

/// The pixels of a `SIZE` x `SIZE` target that `inside` accepts, sorted by row then column.
fn pixels_where(inside: impl Fn(u32, u32) -> bool) -> Vec<(u32, u32)> {
    (0..SIZE)
        .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
        .filter(|&(x, y)| inside(x, y))
        .collect()
}

fn lane_at(triangle: &Triangle, x: u32, y: u32) -> Lane {
    let hits: Vec<PixelHit> = triangle.pixel(x, y).collect();
    assert_eq!(hits.len(), 1, "pixel ({x}, {y})");
    *hits[0].values()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.)
}

// ---- snapping (15.16, 3.2.4.1)

#[test]
fn snapping_rounds_to_the_nearest_step() {
    // 100.25 pixels is 25664 steps of 1/256 exactly; a quarter step rounds down, three quarters up
    assert_eq!(snap(100.25), 25664);
    assert_eq!(snap(1. / 1024.), 0);
    assert_eq!(snap(3. / 1024.), 1);
    assert_eq!(snap(-3. / 1024.), -1);
}

#[test]
fn a_tie_rounds_to_the_even_step_either_side_of_zero() {
    // 1152.5 steps (4.501953125 pixels) lies between 1152 and 1153: the even one is 1152; 1153.5 goes up to 1154
    assert_eq!(snap(1152.5 / 256.), 1152);
    assert_eq!(snap(1153.5 / 256.), 1154);
    // negative ties go to the even step too, not away from zero nor up
    assert_eq!(snap(-1152.5 / 256.), -1152);
    assert_eq!(snap(-1153.5 / 256.), -1154);
    // half a step either side of zero is zero
    assert_eq!(snap(0.5 / 256.), 0);
    assert_eq!(snap(-0.5 / 256.), 0);
}

#[test]
fn snapping_saturates_at_the_16_8_range_and_a_nan_is_zero() {
    // FixedMax is 2^15 - 2^-8 pixels: 2^23 - 1 steps; FixedMin is -2^15 pixels: -2^23 steps (3.2.4.1)
    assert_eq!(FIXED_MAX, 8_388_607);
    assert_eq!(FIXED_MIN, -8_388_608);
    // 32767.99609375 is FixedMax itself; a hair more, or anything larger, saturates to it
    assert_eq!(snap(32767.996), FIXED_MAX);
    assert_eq!(snap(32768.), FIXED_MAX);
    assert_eq!(snap(1e30), FIXED_MAX);
    assert_eq!(snap(f32::INFINITY), FIXED_MAX);
    assert_eq!(snap(-32768.), FIXED_MIN);
    assert_eq!(snap(-32769.), FIXED_MIN);
    assert_eq!(snap(f32::NEG_INFINITY), FIXED_MIN);
    assert_eq!(snap(f32::NAN), 0);
}

// ---- coverage and the top-left rule (3.4.2)

#[test]
fn a_centre_on_a_top_or_left_edge_is_covered_and_on_a_bottom_or_right_edge_is_not() {
    // clockwise (y down): (2.5, 2.5) -> (8.5, 2.5) -> (2.5, 8.5). Its top edge y = 2.5 and left edge x = 2.5 run
    // through pixel centres, which are covered; its hypotenuse x + y = 11 runs through the centres of x + y = 10,
    // which it bounds on the right and below, so they are not. Covered: x, y >= 2 and x + y <= 9, 6 + 5 + ... + 1 = 21.
    let r = raster(no_cull());
    let upper = r.triangle([at(2.5, 2.5, 0.5, 1.), at(8.5, 2.5, 0.5, 1.), at(2.5, 8.5, 0.5, 1.)]);
    let expected = pixels_where(|x, y| x >= 2 && y >= 2 && x + y <= 9);
    assert_eq!(expected.len(), 21);
    assert_eq!(covered_pixels(&upper), expected);
    // the other half of the square: its right edge x = 8.5 and bottom edge y = 8.5 cover no centre on them; the shared
    // hypotenuse is its left edge, so the centres of x + y = 10 are this one's: x, y <= 7 and x + y >= 10, 15 pixels
    let lower = r.triangle([at(8.5, 2.5, 0.5, 1.), at(8.5, 8.5, 0.5, 1.), at(2.5, 8.5, 0.5, 1.)]);
    let expected = pixels_where(|x, y| x <= 7 && y <= 7 && x + y >= 10);
    assert_eq!(expected.len(), 15);
    assert_eq!(covered_pixels(&lower), expected);
}

#[test]
fn two_triangles_sharing_an_edge_cover_each_pixel_once() {
    // the square [2, 10] x [2, 10] cut along its diagonal (2, 2) - (10, 10), which runs through the centres
    // (k + 0.5, k + 0.5): the two halves together cover the 64 pixels 2..10 x 2..10 once each, in both windings
    for front_ccw in [false, true] {
        let r = raster(RasterizerState {
            front_counter_clockwise: front_ccw,
            ..no_cull()
        });
        let a = r.triangle([at(2., 2., 0.5, 1.), at(10., 2., 0.5, 1.), at(10., 10., 0.5, 1.)]);
        let b = r.triangle([at(2., 2., 0.5, 1.), at(2., 10., 0.5, 1.), at(10., 10., 0.5, 1.)]);
        let mut all = covered_pixels(&a);
        all.extend(covered_pixels(&b));
        all.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(all, pixels_where(|x, y| (2..10).contains(&x) && (2..10).contains(&y)));
    }
}

#[test]
fn a_corner_on_a_centre_is_covered_only_where_both_its_edges_are_top_or_left() {
    // the rectangle (2.5, 2.5) - (6.5, 6.5) as two triangles: of its corner centres, (2.5, 2.5) is on the top and the
    // left edge (covered), (6.5, 2.5) on the top and the right (not), (2.5, 6.5) on the left and the bottom (not):
    // the pixels 2..=5 x 2..=5 are covered, once each
    let r = raster(no_cull());
    let first = r.triangle([at(2.5, 2.5, 0.5, 1.), at(6.5, 2.5, 0.5, 1.), at(6.5, 6.5, 0.5, 1.)]);
    let second = r.triangle([at(2.5, 2.5, 0.5, 1.), at(6.5, 6.5, 0.5, 1.), at(2.5, 6.5, 0.5, 1.)]);
    let mut all = covered_pixels(&first);
    all.extend(covered_pixels(&second));
    all.sort_by_key(|&(x, y)| (y, x));
    assert_eq!(all, pixels_where(|x, y| (2..=5).contains(&x) && (2..=5).contains(&y)));
}

// ---- facing and culling (15.11)

#[test]
fn facing_follows_the_winding_and_the_state_and_culling_drops_the_facing_it_names() {
    // (2, 2) -> (10, 2) -> (2, 10) turns clockwise on screen (y down); its reverse, counter-clockwise
    let clockwise = [at(2., 2., 0.5, 1.), at(10., 2., 0.5, 1.), at(2., 10., 0.5, 1.)];
    let counter = [clockwise[0], clockwise[2], clockwise[1]];
    for front_ccw in [false, true] {
        for (positions, is_clockwise) in [(clockwise, true), (counter, false)] {
            let front = is_clockwise != front_ccw;
            for cull in [Cull::None, Cull::Front, Cull::Back] {
                let r = raster(RasterizerState {
                    cull,
                    front_counter_clockwise: front_ccw,
                    ..RasterizerState::default()
                });
                let triangle = r.triangle(positions);
                let dropped = (cull == Cull::Front && front) || (cull == Cull::Back && !front);
                let case = format!("front_ccw {front_ccw}, clockwise {is_clockwise}, {cull:?}");
                if dropped {
                    assert_eq!(triangle.fate(), TriangleFate::Culled, "{case}");
                    assert_eq!(triangle.quads().count(), 0, "{case}");
                } else {
                    assert_eq!(triangle.fate(), TriangleFate::Rasterized, "{case}");
                    // x, y >= 2 and x + y <= 10 (the centres of x + y = 11 are on the hypotenuse, a right edge in
                    // either winding): 7 + 6 + ... + 1 = 28 pixels
                    assert_eq!(covered_pixels(&triangle).len(), 28, "{case}");
                    assert!(triangle.quads().all(|q| q.front_facing == front), "{case}");
                }
            }
        }
    }
}

// ---- zero area

#[test]
fn a_triangle_of_no_snapped_area_draws_nothing() {
    let r = raster(no_cull());
    // collinear
    let line = r.triangle([at(2., 2., 0.5, 1.), at(6., 6., 0.5, 1.), at(10., 10., 0.5, 1.)]);
    // a repeated vertex
    let repeated = r.triangle([at(2., 2., 0.5, 1.), at(9., 3., 0.5, 1.), at(2., 2., 0.5, 1.)]);
    // three points within a quarter step of (4, 4): all snap to (1024, 1024)
    let speck = r.triangle([
        at(4., 4., 0.5, 1.),
        at(4. + 1. / 1024., 4., 0.5, 1.),
        at(4., 4. + 1. / 1024., 0.5, 1.),
    ]);
    // not collinear before snapping, but y = 2 + 1/1024 snaps to 2: a line at y = 2 once snapped
    let flattened = r.triangle([
        at(2., 2., 0.5, 1.),
        at(10., 2. + 1. / 1024., 0.5, 1.),
        at(14., 2., 0.5, 1.),
    ]);
    for triangle in [line, repeated, speck, flattened] {
        assert_eq!(triangle.fate(), TriangleFate::ZeroArea);
        assert!(triangle.parts().is_empty());
        assert_eq!(triangle.quads().count(), 0);
    }
}

// ---- clipping (15.4)

/// The triangle (0, 0), (16, 0), (0, 16) of the 16 x 16 target, whose depth runs with x: `z0 + x * dz` (w = 1).
fn ramp(r: &Rasterizer, z0: f32, dz: f32) -> Triangle {
    r.triangle([at(0., 0., z0, 1.), at(16., 0., z0 + 16. * dz, 1.), at(0., 16., z0, 1.)])
}

#[test]
fn the_near_plane_cuts_where_z_reaches_zero() {
    // z/w = -0.5 + x / 16 is 0 at x = 8: the near plane leaves the triangle (8, 0), (16, 0), (8, 8), whose
    // hypotenuse x + y = 16 holds the centres of x + y = 15 as a right edge: x >= 8, x + y <= 14, 7 + 6 + ... + 1 = 28
    let r = raster(no_cull());
    let triangle = ramp(&r, -0.5, 1. / 16.);
    assert_eq!(triangle.polygon().vertices().len(), 3);
    let expected = pixels_where(|x, y| x >= 8 && x + y <= 14);
    assert_eq!(expected.len(), 28);
    assert_eq!(covered_pixels(&triangle), expected);
    // the cut vertices are on z = 0 exactly, at x = 8
    let on_plane: Vec<&ClipVertex> = triangle
        .polygon()
        .vertices()
        .iter()
        .filter(|v| v.position[2] == 0.)
        .collect();
    assert_eq!(on_plane.len(), 2);
    for v in on_plane {
        assert_eq!(r.viewport().to_screen(v.position)[0], 8.);
    }
}

#[test]
fn the_far_plane_cuts_where_z_reaches_w() {
    // z/w = 0.5 + x / 16 is 1 at x = 8: the far plane leaves x < 8; x + y <= 14 and x <= 7: 15 + 14 + ... + 8 = 92
    let r = raster(no_cull());
    let triangle = ramp(&r, 0.5, 1. / 16.);
    let expected = pixels_where(|x, y| x <= 7 && x + y <= 14);
    assert_eq!(expected.len(), 92);
    assert_eq!(covered_pixels(&triangle), expected);
}

#[test]
fn without_depth_clipping_the_whole_triangle_draws_with_its_depth_clamped() {
    // the ramp of the near-plane test, unclipped: x + y <= 14, 15 + 14 + ... + 1 = 120 pixels. With the viewport's
    // depths [0.25, 0.75] the screen depth is 0.25 + 0.5 (-0.5 + x / 16) = x / 32: at pixel 1 (centre 1.5) 0.046875,
    // clamped to 0.25; at pixel 11 (11.5) 0.359375; at pixel 13 (13.5) 0.421875.
    let vp = Viewport {
        min_depth: 0.25,
        max_depth: 0.75,
        ..viewport()
    };
    let state = RasterizerState {
        depth_clip: false,
        ..no_cull()
    };
    let r = raster_with(vp, state);
    let triangle = ramp(&r, -0.5, 1. / 16.);
    assert_eq!(covered_pixels(&triangle), pixels_where(|x, y| x + y <= 14));
    let low = lane_at(&triangle, 1, 0);
    assert_eq!(low.position[2], 0.046875);
    assert_eq!(low.depth, 0.25);
    assert_eq!(lane_at(&triangle, 11, 2).depth, 0.359375);
    assert_eq!(lane_at(&triangle, 13, 0).depth, 0.421875);
    // depth past MaxDepth: z/w = 1 + x / 16 gives 0.25 + 0.5 (1 + x / 16) = 0.75 + x / 32, 0.796875 at pixel 1
    let high = ramp(&r, 1., 1. / 16.);
    let lane = lane_at(&high, 1, 0);
    assert_eq!(lane.position[2], 0.796875);
    assert_eq!(lane.depth, 0.75);
}

#[test]
fn the_sides_of_the_viewport_cut_the_triangle_exactly_on_them() {
    // the viewport (4, 4, 8, 8) in the 16 x 16 target, and a triangle reaching 3 viewports past it every way
    // (clip-space x from -3 to 7, y from -7 to 3): what is left is the viewport's square, 4..12 x 4..12. Every vertex
    // the clipper makes lands on 4 or 12 on screen.
    let vp = Viewport {
        x: 4.,
        y: 4.,
        width: 8.,
        height: 8.,
        ..viewport()
    };
    let r = raster_with(vp, no_cull());
    let triangle = r.triangle([[-3., 3., 0.5, 1.], [7., 3., 0.5, 1.], [-3., -7., 0.5, 1.]]);
    assert_eq!(
        covered_pixels(&triangle),
        pixels_where(|x, y| (4..12).contains(&x) && (4..12).contains(&y))
    );
    for v in triangle.polygon().vertices() {
        let [x, y, _] = vp.to_screen(v.position);
        assert!([4., 12.].contains(&x) && [4., 12.].contains(&y), "{v:?} at ({x}, {y})");
    }
    // the fan triangles of the clipped square share their inside edges: nothing is covered twice
    let mut pixels = covered_pixels(&triangle);
    pixels.dedup();
    assert_eq!(pixels.len(), 64);
}

#[test]
fn a_vertex_near_the_camera_plane_is_cut_by_the_viewport_before_it_is_snapped() {
    // a = (2.25, 4) and b = (6.25, 12) on screen; c = (1000, 0, 0, 1e-7) is 8e10 pixels right of the target, at y = 8:
    // its own screen position is far past what 16.8 fixed point holds, but the right side of the viewport cuts its
    // edges at x = 16 (y = 4 and 12 to within 1e-9), so the polygon is the trapezoid a, b, (16, 12), (16, 4).
    // Rows 4..=11; a centre is right of a -> b where x + 0.5 > 2.25 + (y + 0.5 - 4) / 2, i.e. x >= y / 2, and the
    // centres on it (x = y / 2) are on a left edge: covered from x = ceil(y / 2):
    // 14 + 13 + 13 + 12 + 12 + 11 + 11 + 10 = 96.
    let r = raster(no_cull());
    let triangle = r.triangle([at(2.25, 4., 0.5, 1.), at(6.25, 12., 0.5, 1.), [1000., 0., 0., 1e-7]]);
    let expected = pixels_where(|x, y| (4..12).contains(&y) && 2 * x >= y);
    assert_eq!(expected.len(), 96);
    assert_eq!(covered_pixels(&triangle), expected);
    for part in triangle.parts() {
        for [x, y] in part.snapped() {
            assert!((0..=16 * 256).contains(&x) && (0..=16 * 256).contains(&y), "({x}, {y})");
        }
    }
}

#[test]
fn a_triangle_through_the_clip_space_origin_draws_nothing() {
    // c = -(a + b) / 2: the three vertices are linearly dependent, their plane holds the eye, and on screen the
    // triangle is a line; clipping keeps the origin (w = 0, x = y = z = 0) as a vertex
    let a = at(4., 4., 0.5, 1.);
    let b = at(12., 6., 0.5, 2.);
    let c = [0, 1, 2, 3].map(|k| -(a[k] + b[k]) / 2.);
    let triangle = raster(no_cull()).triangle([a, b, c]);
    assert_eq!(triangle.fate(), TriangleFate::ZeroArea);
    assert_eq!(triangle.quads().count(), 0);
}

#[test]
fn a_triangle_behind_the_eye_or_outside_a_side_is_clipped_away() {
    let r = raster(no_cull());
    let behind = r.triangle([[0., 0., 0.5, -1.], [0.5, 0., 0.5, -1.], [0., 0.5, 0.5, -1.]]);
    assert_eq!(behind.fate(), TriangleFate::ClippedAway);
    let right = r.triangle([[1.5, 0., 0.5, 1.], [3., 0.5, 0.5, 1.], [2., -0.5, 0.5, 1.]]);
    assert_eq!(right.fate(), TriangleFate::ClippedAway);
    assert_eq!(right.quads().count(), 0);
}

#[test]
fn a_nan_or_infinite_position_draws_nothing() {
    let r = raster(no_cull());
    for k in 0..4 {
        for (bad, fate) in [
            (f32::NAN, TriangleFate::NotANumber),
            (f32::INFINITY, TriangleFate::Infinite),
            (f32::NEG_INFINITY, TriangleFate::Infinite),
        ] {
            let mut c = at(3., 12., 0.5, 1.);
            c[k] = bad;
            let triangle = r.triangle([at(2., 2., 0.5, 1.), at(12., 3., 0.5, 1.), c]);
            assert_eq!(triangle.fate(), fate, "component {k} {bad}");
            assert_eq!(triangle.quads().count(), 0);
        }
    }
}

#[test]
fn huge_finite_positions_clip_to_finite_values() {
    // 15.16.1: positions within FLOAT32_MAX / 16 must not make NaN or infinities; a vertex at 3e34 to the right and a
    // w of 1e-30 are cut by the viewport's right side, and every covered lane is finite
    let r = raster(no_cull());
    for far in [[3e34, 1e34, 0.5, 1.], [1., -1., 0.5, 1e-30], [-3e34, 3e34, 3e34, 3e34]] {
        let triangle = r.triangle([at(2., 2., 0.5, 1.), at(12., 3., 0.5, 1.), far]);
        assert_eq!(triangle.fate(), TriangleFate::Rasterized, "{far:?}");
        for ((x, y), lane) in covered(&triangle) {
            let values = lane.position.iter().chain([&lane.depth]).map(|v| f64::from(*v));
            let mut all = values.chain(lane.perspective).chain(lane.linear);
            assert!(all.all(f64::is_finite), "{far:?}: ({x}, {y}) {lane:?}");
        }
    }
}

// ---- weights and interpolation (16.3, 16.4)

#[test]
fn a_cut_vertex_weighs_the_triangle_in_clip_space_and_its_screen_position_by_w() {
    // a = (0, 0, 0.5, 1) and b = (2, 0, -1, 2): the near plane (z = 0) is a third of the way, at distances 0.5 and -1,
    // so the cut is (2/3, 0, 0, 4/3), weighing a 2/3 and b 1/3 in clip space. On screen a is at x/w = 0, b at 1 and
    // the cut at (2/3) / (4/3) = 1/2, half way: its screen weights are (2/3 * 1, 1/3 * 2) / (4/3) = (1/2, 1/2).
    let a = [0., 0., 0.5, 1.];
    let b = [2., 0., -1., 2.];
    let c = [0., 0.5, 0.5, 1.];
    let triangle = raster(no_cull()).triangle([a, b, c]);
    let cut: Vec<&ClipVertex> = triangle
        .polygon()
        .vertices()
        .iter()
        .filter(|v| v.weights[1] > 0. && v.weights[2] == 0.)
        .collect();
    assert_eq!(cut.len(), 1);
    let v = cut[0];
    assert!(close(v.weights[0], 2. / 3.) && close(v.weights[1], 1. / 3.), "{v:?}");
    assert_eq!(v.position[2], 0.);
    assert!((f64::from(v.position[3]) - 4. / 3.).abs() < 1e-7);
    let screen = v.screen_weights([1., 2., 1.]);
    assert!(
        close(screen[0], 0.5) && close(screen[1], 0.5) && screen[2] == 0.,
        "{screen:?}"
    );
}

#[test]
fn perspective_and_screen_linear_weights_differ_by_w() {
    // a = (0, 0) at w = 1, b = (16, 0) at w = 3, c = (0, 16) at w = 1, depths 0.25, 0.5, 0.75. At pixel (7, 3),
    // centre (7.5, 3.5), the screen weights are b: 7.5/16 = 0.46875, c: 3.5/16 = 0.21875, a: 0.3125. Over w they are
    // 0.3125, 0.15625, 0.21875, summing to 0.6875 = 11/16: the perspective weights are 5/11, 5/22, 7/22, and the
    // interpolated w (16.3's reciprocal of the screen-linear 1/w) 16/11. Depth is screen-linear:
    // 0.3125 * 0.25 + 0.46875 * 0.5 + 0.21875 * 0.75 = 0.4765625.
    let triangle = raster(no_cull()).triangle([at(0., 0., 0.25, 1.), at(16., 0., 0.5, 3.), at(0., 16., 0.75, 1.)]);
    let lane = lane_at(&triangle, 7, 3);
    for (got, want) in lane.linear.iter().zip([0.3125, 0.46875, 0.21875]) {
        assert!(close(*got, want), "{:?}", lane.linear);
    }
    for (got, want) in lane.perspective.iter().zip([5. / 11., 5. / 22., 7. / 22.]) {
        assert!(close(*got, want), "{:?}", lane.perspective);
    }
    assert_eq!(lane.position, [7.5, 3.5, 0.4765625, (16f64 / 11.) as f32]);
    assert_eq!(lane.depth, 0.4765625);
    // an attribute 0 at a and c and 1 at b reads the weight of b
    assert_eq!(Lane::blend(lane.perspective, [0., 1., 0.]), (5f64 / 22.) as f32);
    assert_eq!(Lane::blend(lane.linear, [0., 1., 0.]), 0.46875);
}

#[test]
fn interpolation_and_depth_use_the_snapped_positions() {
    // the triangle of the previous test with a moved 0.3 / 256 of a pixel right and down: it snaps back to (0, 0), so
    // the weights and the depth at pixel (7, 3) are those of the previous test exactly (15.16.2), not those of the
    // unsnapped triangle (whose screen weight of b there would be (7.5 - 0.3/256) / (16 - 0.3/256), not 0.46875)
    let nudge = 0.3 / 256.;
    let triangle =
        raster(no_cull()).triangle([at(nudge, nudge, 0.25, 1.), at(16., 0., 0.5, 3.), at(0., 16., 0.75, 1.)]);
    assert_eq!(triangle.parts()[0].snapped(), [[0, 0], [4096, 0], [0, 4096]]);
    let lane = lane_at(&triangle, 7, 3);
    assert_eq!(lane.linear, [0.3125, 0.46875, 0.21875]);
    assert_eq!(lane.position[2], 0.4765625);
}

#[test]
fn weights_through_a_cut_polygon_stay_on_the_drawn_triangle() {
    // the triangle of the previous test with b pushed behind the near plane (clip-space z = -0.75): the near plane
    // cuts a - b a quarter of the way (distances 0.25 and -0.75), at (0, 1.5, 0, 1.5), and c - b half way, at
    // (1, 1, 0, 2): on screen (8, 0) and (12, 4), on the grid, so the fan lies in the drawn triangle's plane. The
    // weights handed back are the drawn triangle's, as in the previous test: at pixel (2, 3) (centre (2.5, 3.5)) on
    // screen b 2.5/16, c 3.5/16, a 10/16; over w 10/16, 2.5/48, 3.5/16, which normalise (sum 43/48) to 30/43,
    // 2.5/43, 10.5/43.
    let triangle = raster(no_cull()).triangle([at(0., 0., 0.25, 1.), at(16., 0., -0.25, 3.), at(0., 16., 0.75, 1.)]);
    let vertices: Vec<[f32; 4]> = triangle.polygon().vertices().iter().map(|v| v.position).collect();
    assert_eq!(
        vertices,
        vec![
            at(0., 0., 0.25, 1.),
            [0., 1.5, 0., 1.5],
            [1., 1., 0., 2.],
            at(0., 16., 0.75, 1.)
        ]
    );
    let lane = lane_at(&triangle, 2, 3);
    for (got, want) in lane.perspective.iter().zip([30. / 43., 2.5 / 43., 10.5 / 43.]) {
        assert!(close(*got, want), "{:?}", lane.perspective);
    }
    for (got, want) in lane.linear.iter().zip([0.625, 2.5 / 16., 3.5 / 16.]) {
        assert!(close(*got, want), "{:?}", lane.linear);
    }
}

// ---- depth bias (15.10)

/// A rasterizer drawing into a depth buffer of `format` with the depth bias state given.
fn biased(format: DepthFormat, bias: i32, slope: f32, clamp: f32) -> Rasterizer {
    let state = RasterizerState {
        depth_bias: bias,
        slope_scaled_depth_bias: slope,
        depth_bias_clamp: clamp,
        ..no_cull()
    };
    Rasterizer::new(viewport(), state, Scissor::default(), [SIZE, SIZE], format).unwrap()
}

/// The triangle (0, 0), (16, 0), (0, 16) at the depths `z` (w = 1).
fn flat(r: &Rasterizer, z: [f32; 3]) -> Triangle {
    r.triangle([at(0., 0., z[0], 1.), at(16., 0., z[1], 1.), at(0., 16., z[2], 1.)])
}

#[test]
fn a_unorm_depth_bias_is_in_steps_of_two_to_the_minus_bits() {
    // 1024 steps of a 24-bit buffer: 1024 * 2^-24 = 2^-14, on a flat triangle at 0.5 (no slope)
    let r = biased(DepthFormat::Unorm { bits: 24 }, 1024, 0., 0.);
    let triangle = flat(&r, [0.5; 3]);
    assert_eq!(triangle.parts()[0].depth_bias(), 2f32.powi(-14));
    assert_eq!(lane_at(&triangle, 3, 3).depth, 0.5 + 2f32.powi(-14));
    // -3 steps of a 16-bit one: -3 * 2^-16
    let r = biased(DepthFormat::Unorm { bits: 16 }, -3, 0., 0.);
    assert_eq!(lane_at(&flat(&r, [0.5; 3]), 3, 3).depth, 0.5 - 3. * 2f32.powi(-16));
}

#[test]
fn a_float_depth_bias_is_in_steps_of_the_largest_depths_exponent() {
    // depths 0.3, 0.4, 0.45: the largest is in [0.25, 0.5), exponent -2, so a step is 2^(-2 - 23) = 2^-25 and 8 steps
    // are 2^-22
    let r = biased(DepthFormat::Float, 8, 0., 0.);
    assert_eq!(flat(&r, [0.3, 0.4, 0.45]).parts()[0].depth_bias(), 2f32.powi(-22));
    // with 0.5 the largest, exponent -1: 8 steps are 2^-21
    assert_eq!(flat(&r, [0.3, 0.5, 0.45]).parts()[0].depth_bias(), 2f32.powi(-21));
    // a triangle at depth 0 reads the exponent field of zero (-127): a step of 2^-150, 0 in float32
    assert_eq!(flat(&r, [0.; 3]).parts()[0].depth_bias(), 0.);
}

#[test]
fn the_slope_scaled_bias_takes_the_larger_depth_slope_and_the_clamp_caps_it() {
    // depths 0.25 at x = 0 to 0.75 at x = 16 along x, constant along y: dz/dx = 1/32, dz/dy = 0. A slope factor of 2
    // and 16 steps of a 16-bit buffer: 2 / 32 + 16 * 2^-16 = 0.0625 + 0.000244140625 = 0.062744140625.
    let ramp_z = [0.25, 0.75, 0.25];
    let bias = 0.0625 + 2f32.powi(-12);
    let r = biased(DepthFormat::Unorm { bits: 16 }, 16, 2., 0.);
    let triangle = flat(&r, ramp_z);
    assert_eq!(triangle.parts()[0].depth_bias(), bias);
    // the bias joins the depth before interpolation: at pixel 3 (centre 3.5), 0.25 + 3.5/32 + the bias
    let lane = lane_at(&triangle, 3, 5);
    assert_eq!(lane.position[2], 0.359375 + bias);
    // the same along y (c the far one): the larger of |dz/dx| and |dz/dy| is taken, whichever axis it is on
    let along_y = flat(&r, [0.25, 0.25, 0.75]);
    assert_eq!(along_y.parts()[0].depth_bias(), bias);
    // a positive clamp caps a positive bias; a negative clamp a negative bias and leaves a positive one
    assert_eq!(
        flat(&biased(DepthFormat::Unorm { bits: 16 }, 16, 2., 0.01), ramp_z).parts()[0].depth_bias(),
        0.01
    );
    let negative = biased(DepthFormat::Unorm { bits: 16 }, 0, -2., -0.01);
    assert_eq!(flat(&negative, ramp_z).parts()[0].depth_bias(), -0.01);
    let positive = biased(DepthFormat::Unorm { bits: 16 }, 16, 2., -0.01);
    assert_eq!(flat(&positive, ramp_z).parts()[0].depth_bias(), bias);
}

#[test]
fn no_bias_applies_when_both_bias_factors_are_zero() {
    // a clamp alone changes nothing
    let r = biased(DepthFormat::Unorm { bits: 24 }, 0, 0., 0.5);
    let triangle = flat(&r, [0.5; 3]);
    assert_eq!(triangle.parts()[0].depth_bias(), 0.);
    assert_eq!(lane_at(&triangle, 3, 3).depth, 0.5);
}

#[test]
fn a_biased_depth_is_clamped_to_the_viewport_but_sv_position_z_is_not() {
    // 0.75 plus a bias of 0.5 (a slope factor of 16 times dz/dx = 1/32) is 1.25 at the far vertex: the output
    // merger's depth is clamped to MaxDepth 1, SV_Position.z keeps it (16.3.1). At pixel 14, row 0 (centre 14.5):
    // 0.25 + 14.5 / 32 + 0.5 = 1.203125.
    let r = biased(DepthFormat::Float, 0, 16., 0.);
    let lane = lane_at(&flat(&r, [0.25, 0.75, 0.25]), 14, 0);
    assert_eq!(lane.position[2], 1.203125);
    assert_eq!(lane.depth, 1.);
}

// ---- scissor and viewport (15.6, 15.7)

/// The two triangles of a square covering the whole viewport.
fn full_square(r: &Rasterizer) -> Vec<(u32, u32)> {
    let corners = [
        [-1., 1., 0.5, 1.],
        [1., 1., 0.5, 1.],
        [1., -1., 0.5, 1.],
        [-1., -1., 0.5, 1.],
    ];
    let mut all = covered_pixels(&r.triangle([corners[0], corners[1], corners[2]]));
    all.extend(covered_pixels(&r.triangle([corners[0], corners[2], corners[3]])));
    all.sort_by_key(|&(x, y)| (y, x));
    all
}

#[test]
fn the_scissor_keeps_its_rectangle_when_enabled() {
    let scissor = Scissor {
        left: 3,
        top: 5,
        right: 9,
        bottom: 7,
    };
    let state = RasterizerState {
        scissor_enable: true,
        ..no_cull()
    };
    let r = Rasterizer::new(viewport(), state, scissor, [SIZE, SIZE], DepthFormat::Float).unwrap();
    assert_eq!(
        full_square(&r),
        pixels_where(|x, y| (3..9).contains(&x) && (5..7).contains(&y))
    );
    // disabled, the rectangle is ignored
    let r = Rasterizer::new(viewport(), no_cull(), scissor, [SIZE, SIZE], DepthFormat::Float).unwrap();
    assert_eq!(full_square(&r).len(), 256);
    // an empty or off-target rectangle lets nothing through; the triangles are still rasterized
    for scissor in [
        Scissor {
            left: 9,
            top: 0,
            right: 3,
            bottom: 16,
        },
        Scissor {
            left: 20,
            top: 20,
            right: 30,
            bottom: 30,
        },
    ] {
        let r = Rasterizer::new(viewport(), state, scissor, [SIZE, SIZE], DepthFormat::Float).unwrap();
        assert!(full_square(&r).is_empty());
        assert_eq!(r.triangle(at_corners()).fate(), TriangleFate::Rasterized);
    }
}

fn at_corners() -> [[f32; 4]; 3] {
    [[-1., 1., 0.5, 1.], [1., 1., 0.5, 1.], [1., -1., 0.5, 1.]]
}

#[test]
fn an_offset_viewport_moves_the_picture_and_scissors_to_its_rounded_extents() {
    // (4.5, 2.25, 8, 8): the square covers [4.5, 12.5] x [2.25, 10.25]. Columns: the centre 4.5 is on the left edge
    // (covered), 12.5 on the right (not): 4..=11. Rows: centres 2.5..=9.5: 2..=9. The implicit scissor,
    // [floor 4.5, floor 12.5) x [floor 2.25, floor 10.25) = [4, 12) x [2, 10), takes nothing more away.
    let vp = Viewport {
        x: 4.5,
        y: 2.25,
        width: 8.,
        height: 8.,
        ..viewport()
    };
    let r = raster_with(vp, no_cull());
    assert_eq!(
        full_square(&r),
        pixels_where(|x, y| (4..12).contains(&x) && (2..10).contains(&y))
    );
    // (3.75, 3.25, 10.5, 10.5) covers [3.75, 14.25] x [3.25, 13.75]: centres in it are columns 4..=13 and rows
    // 3..=13; the implicit scissor [3, 14) x [3, 13) drops row 13, whose centre 13.5 is in the viewport
    let vp = Viewport {
        x: 3.75,
        y: 3.25,
        width: 10.5,
        height: 10.5,
        ..viewport()
    };
    let r = raster_with(vp, no_cull());
    assert_eq!(
        PixelRect::of_viewport(&vp),
        PixelRect {
            left: 3,
            top: 3,
            right: 14,
            bottom: 13
        }
    );
    assert_eq!(
        full_square(&r),
        pixels_where(|x, y| (4..14).contains(&x) && (3..13).contains(&y))
    );
}

#[test]
fn the_viewport_transform_follows_15_6_in_float32() {
    // x: (0.5 + 1) * 8 * 0.5 + 4.5 = 10.5; y: (1 - (-0.25)) * 8 * 0.5 + 2.25 = 7.25; z: 0.25 + 0.5 * 0.5 = 0.5
    let vp = Viewport {
        x: 4.5,
        y: 2.25,
        width: 8.,
        height: 8.,
        min_depth: 0.25,
        max_depth: 0.75,
    };
    assert_eq!(vp.to_screen([1., -0.5, 1., 2.]), [10.5, 7.25, 0.5]);
    // the clamp of 15.6 with 3.1's min and max: a NaN depth becomes MinDepth
    assert_eq!(vp.clamp_depth(f32::NAN), 0.25);
    assert_eq!(vp.clamp_depth(0.9), 0.75);
    assert_eq!(vp.clamp_depth(-1.), 0.25);
}

#[test]
fn an_empty_depth_range_gives_every_pixel_its_one_depth() {
    let vp = Viewport {
        min_depth: 0.5,
        max_depth: 0.5,
        ..viewport()
    };
    let triangle =
        raster_with(vp, no_cull()).triangle([at(0., 0., 0.1, 1.), at(16., 0., 0.9, 2.), at(0., 16., 0.4, 1.)]);
    for (_, lane) in covered(&triangle) {
        assert_eq!((lane.position[2], lane.depth), (0.5, 0.5));
    }
}

#[test]
fn a_viewport_15_6_1_does_not_allow_is_refused() {
    let bad = [
        Viewport {
            x: f32::NAN,
            ..viewport()
        },
        Viewport {
            width: -1.,
            ..viewport()
        },
        Viewport {
            x: -40000.,
            ..viewport()
        },
        Viewport {
            x: 32000.,
            width: 1000.,
            ..viewport()
        },
        Viewport {
            y: 32768.,
            height: 0.,
            ..viewport()
        },
        Viewport {
            min_depth: -0.5,
            ..viewport()
        },
        Viewport {
            max_depth: 1.5,
            ..viewport()
        },
        Viewport {
            min_depth: 0.75,
            max_depth: 0.25,
            ..viewport()
        },
    ];
    for vp in bad {
        let error = Rasterizer::new(vp, no_cull(), Scissor::default(), [SIZE, SIZE], DepthFormat::Float).unwrap_err();
        assert_eq!(error.what, "viewport", "{vp:?}");
    }
    for bits in [0, 33] {
        let error = Rasterizer::new(
            viewport(),
            no_cull(),
            Scissor::default(),
            [SIZE, SIZE],
            DepthFormat::Unorm { bits },
        )
        .unwrap_err();
        assert_eq!(error.what, "depth format");
    }
    let edge = Viewport {
        x: -32768.,
        y: 32767.,
        width: 65535.,
        height: 0.,
        ..viewport()
    };
    assert!(Rasterizer::new(edge, no_cull(), Scissor::default(), [SIZE, SIZE], DepthFormat::Float).is_ok());
}

// ---- quads and helper lanes (16.8, 16.13)

#[test]
fn a_quad_holds_its_uncovered_lanes_as_helpers_with_extrapolated_weights() {
    // a = (5, 5), b = (7, 5), c = (5, 7): of the centres near it only (5.5, 5.5) is inside; (6.5, 5.5) and (5.5, 6.5)
    // lie on the hypotenuse x + y = 12, a bottom-right edge. One quad, at (4, 4), covering its lane 3 (5, 5).
    // The screen weights of b and c are (x - 5) / 2 and (y - 5) / 2 at a centre (x, y): at lane 3 (5.5, 5.5) 0.25 and
    // 0.25, and at the helper lane 0 (4.5, 4.5) -0.25 and -0.25, extrapolated past the triangle (a's weight 1.5).
    let triangle = raster(no_cull()).triangle([at(5., 5., 0.5, 1.), at(7., 5., 0.5, 1.), at(5., 7., 0.5, 1.)]);
    let quads: Vec<Quad> = triangle.quads().collect();
    assert_eq!(quads.len(), 1);
    let quad = quads[0];
    assert_eq!((quad.x, quad.y, quad.covered), (4, 4, 0b1000));
    assert!(!quad.is_covered(0) && quad.is_covered(3));
    assert_eq!([0, 1, 2, 3].map(|l| quad.pixel(l)), [(4, 4), (5, 4), (4, 5), (5, 5)]);
    assert_eq!(quad.lanes[3].linear, [0.5, 0.25, 0.25]);
    assert_eq!(quad.lanes[0].linear, [1.5, -0.25, -0.25]);
    assert_eq!(quad.lanes[1].linear, [1., 0.25, -0.25]);
    assert_eq!(quad.lanes[2].position[..2], [4.5, 5.5]);
}

#[test]
fn a_lane_past_the_targets_edge_is_a_helper() {
    // a 15 x 15 target: the quads of the last column (x = 14) have their lanes 1 and 3 at x = 15, outside the target
    let state = no_cull();
    let vp = Viewport {
        width: 15.,
        height: 15.,
        ..viewport()
    };
    let r = Rasterizer::new(vp, state, Scissor::default(), [15, 15], DepthFormat::Float).unwrap();
    let triangle = r.triangle([[-1., 1., 0.5, 1.], [4., 1., 0.5, 1.], [-1., -4., 0.5, 1.]]);
    let edge: Vec<Quad> = triangle.quads().filter(|q| q.x == 14).collect();
    assert_eq!(edge.len(), 8);
    for quad in edge {
        let expected = if quad.y == 14 { 0b0001 } else { 0b0101 };
        assert_eq!(quad.covered, expected, "quad at ({}, {})", quad.x, quad.y);
    }
    assert_eq!(covered_pixels(&triangle).len(), 225);
}

#[test]
fn the_single_pixel_query_finds_what_the_walk_finds() {
    // triangles from a fixed sequence (a linear congruential generator), some clipped, some culled: for every pixel,
    // the query's hits are the lanes the walk covered there, values included
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as f64 / (1u64 << 31) as f64) as f32
    };
    let vp = Viewport {
        x: 1.5,
        y: -2.25,
        width: 14.,
        height: 17.,
        ..viewport()
    };
    let state = RasterizerState {
        cull: Cull::Back,
        ..RasterizerState::default()
    };
    let r = raster_with(vp, state);
    for _ in 0..60 {
        let mut vertex = || {
            let w = 0.25 + 2. * next();
            [
                (next() * 3. - 1.5) * w,
                (next() * 3. - 1.5) * w,
                (next() * 1.4 - 0.2) * w,
                w,
            ]
        };
        let triangle = r.triangle([vertex(), vertex(), vertex()]);
        let walked = covered(&triangle);
        let mut asked = Vec::new();
        for y in 0..SIZE {
            for x in 0..SIZE {
                for hit in triangle.pixel(x, y) {
                    assert_eq!(hit.quad.pixel(hit.lane), (x, y));
                    asked.push(((x, y), *hit.values()));
                }
            }
        }
        assert_eq!(asked, walked);
    }
}

#[test]
fn stats_count_each_triangles_fate() {
    let r = raster(RasterizerState::default());
    let mut stats = RasterStats::default();
    let fates = [
        r.triangle([at(2., 2., 0.5, 1.), at(10., 2., 0.5, 1.), at(2., 10., 0.5, 1.)])
            .fate(),
        r.triangle([at(2., 2., 0.5, 1.), at(2., 10., 0.5, 1.), at(10., 2., 0.5, 1.)])
            .fate(),
        r.triangle([[2., 0., 0.5, 1.], [3., 0., 0.5, 1.], [2., 1., 0.5, 1.]])
            .fate(),
        r.triangle([[f32::NAN, 0., 0.5, 1.], [0., 0., 0.5, 1.], [0., 1., 0.5, 1.]])
            .fate(),
        r.triangle([at(2., 2., 0.5, 1.), at(6., 6., 0.5, 1.), at(10., 10., 0.5, 1.)])
            .fate(),
    ];
    assert_eq!(
        fates,
        [
            TriangleFate::Rasterized,
            TriangleFate::Culled,
            TriangleFate::ClippedAway,
            TriangleFate::NotANumber,
            TriangleFate::ZeroArea
        ]
    );
    for fate in fates {
        stats.record(fate);
    }
    assert_eq!(
        stats,
        RasterStats {
            triangles: 5,
            rasterized: 1,
            clipped_away: 1,
            not_a_number: 1,
            infinite: 0,
            zero_area: 1,
            culled: 1,
        }
    );
}

// ---- multisampling (3.5, 19.2.4)

fn raster_samples(count: u32) -> Rasterizer {
    raster(no_cull()).with_pattern(SamplePattern::new(count, STANDARD_MULTISAMPLE_PATTERN).unwrap())
}

/// The covered samples of pixel (`x`, `y`) from the full walk (0 when no quad covers it).
fn walk_mask(triangle: &Triangle, x: u32, y: u32) -> u32 {
    let mut mask = 0;
    for quad in triangle.quads() {
        for lane in 0..4 {
            if quad.pixel(lane) == (x, y) {
                mask |= quad.sample_mask(lane);
            }
        }
    }
    mask
}

#[test]
fn the_rasterizer_s_patterns_are_19_2_4s_standard_and_centre_ones() {
    // the standard table itself is api::multisample's (tested there against 19.2.4's figures)
    assert_eq!(
        SamplePattern::new(4, 0).unwrap().offsets(),
        standard_pattern(4).unwrap()
    );
    // every count's centre pattern has its samples at the centre
    for count in [1, 2, 4, 8, 16] {
        let center = SamplePattern::new(count, CENTER_MULTISAMPLE_PATTERN).unwrap();
        assert_eq!(center.count(), count);
        assert!(center.offsets().iter().all(|o| *o == [0, 0]));
        // quality 0 is the standard pattern
        assert_eq!(
            SamplePattern::new(count, 0).unwrap(),
            SamplePattern::new(count, STANDARD_MULTISAMPLE_PATTERN).unwrap()
        );
    }
    // no pattern for 32 samples or 3, nor for vendor quality levels
    assert!(SamplePattern::new(32, 0).is_err());
    assert!(SamplePattern::new(3, 0).is_err());
    assert!(SamplePattern::new(4, 1).is_err());
    // 1/16 pixel is 16/256: the 4x pattern's sample 1 at (6, -2) is (96, -32) in 1/256 pixel
    assert_eq!(SamplePattern::new(4, 0).unwrap().offset_256(1), [96, -32]);
    assert_eq!(SamplePattern::default().count(), 1);
    assert_eq!(full_mask(4), 0b1111);
    assert_eq!(full_mask(32), u32::MAX);
}

#[test]
fn an_edge_between_the_samples_of_a_4x_pixel() {
    // Right of x = 2.5625 and below y = 2.4375, the corner at (2.5625, 2.4375). Pixel (2, 2)'s centre (2.5, 2.5) is
    // left of the vertical edge, so one sample a pixel leaves it uncovered. Its 4x samples (19.2.4: (-2,-6), (6,-2),
    // (-6,2), (2,6) sixteenths from the centre) are at (2.375, 2.125), (2.875, 2.375), (2.125, 2.625) and
    // (2.625, 2.875): only sample 3 is right of 2.5625 and below 2.4375, so the mask is 0b1000.
    let positions = [
        at(2.5625, 2.4375, 0.5, 1.),
        at(14., 2.4375, 0.5, 1.),
        at(2.5625, 14., 0.5, 1.),
    ];
    let single = raster(no_cull()).triangle(positions);
    assert!(!covered_pixels(&single).contains(&(2, 2)));
    let triangle = raster_samples(4).triangle(positions);
    assert_eq!(walk_mask(&triangle, 2, 2), 0b1000);
    // pixel (3, 2): every sample right of the edge, samples 2 and 3 below it
    assert_eq!(walk_mask(&triangle, 3, 2), 0b1100);
    // pixel (2, 3): every sample below, samples 1 and 3 right of the edge
    assert_eq!(walk_mask(&triangle, 2, 3), 0b1010);
    assert_eq!(walk_mask(&triangle, 3, 3), 0b1111);
    // pixel (1, 2): no sample right of x = 1.875 + 0.5: not covered, a helper of quad (0, 2)
    assert_eq!(walk_mask(&triangle, 1, 2), 0);
    // the single-pixel query agrees
    let hits: Vec<PixelHit> = triangle.pixel(2, 2).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].quad.sample_mask(hits[0].lane), 0b1000);
    assert!(hits[0].quad.is_covered(hits[0].lane));
    assert_eq!(triangle.pixel(1, 2).count(), 0);
}

#[test]
fn a_shared_vertical_edge_splits_2x_8x_and_16x_samples_by_the_top_left_rule() {
    // Two triangles share the edge x = 2.5 through pixel (2, 5)'s centre. The right one has it as a left edge, so it
    // covers the samples with dx >= 0 (dx = 0 on the edge, included); the left one the samples with dx < 0.
    let right = [at(2.5, 0., 0.5, 1.), at(16., 0., 0.5, 1.), at(2.5, 16., 0.5, 1.)];
    let left = [at(0., 0., 0.5, 1.), at(2.5, 0., 0.5, 1.), at(2.5, 16., 0.5, 1.)];
    // 2x: (4,4) right, (-4,-4) left
    // 8x: dx 1, -1, 5, -3, -5, -7, 3, 7: samples 0, 2, 6, 7 right
    // 16x: dx 1, -1, -3, 4, -5, 2, 5, 3, -2, 0, -4, -6, -8, 7, 6, -7: samples 0, 3, 5, 6, 7, 9 (dx 0), 13, 14 right
    for (count, right_mask) in [(2, 0b01), (8, 0b1100_0101), (16, 0x62E9)] {
        let raster = raster_samples(count);
        let r = walk_mask(&raster.triangle(right), 2, 5);
        let l = walk_mask(&raster.triangle(left), 2, 5);
        assert_eq!(r, right_mask, "{count} samples");
        assert_eq!(l, full_mask(count) & !right_mask, "{count} samples");
    }
}

#[test]
fn depth_is_the_plane_at_each_4x_sample() {
    // z = x / 16 over the target: at pixel (5, 3) sample s the depth is (5.5 + dx_s / 16) / 16.
    let triangle = raster_samples(4).triangle([at(0., 0., 0., 1.), at(16., 0., 1., 1.), at(0., 16., 0., 1.)]);
    let part = &triangle.parts()[0];
    let pattern = part.pattern();
    assert_eq!(part.sample_mask(5, 3), 0b1111);
    let expected = [5.375 / 16., 5.875 / 16., 5.125 / 16., 5.625 / 16.];
    for (sample, want) in (0..4).zip(expected) {
        let lane = part.lane_at(5, 3, pattern.offset_256(sample));
        assert_eq!(lane.depth, want as f32, "sample {sample}");
        assert_eq!(
            lane.position[0],
            5.5 + f32::from(pattern.offsets()[sample as usize][0]) / 16.
        );
    }
    // the centre is the single-sample lane
    assert_eq!(part.lane_at(5, 3, [0, 0]).depth, 5.5 / 16.);
}

#[test]
fn a_line_crossing_the_near_plane_is_cut_at_z_zero_with_its_weights() {
    // from (2.5, 4.5) at z = -1 to (10.5, 4.5) at z = 1 (w = 1): the near plane z = 0 cuts it half way, at x = 6.5,
    // whose diamond holds the new start; the line then exits (6, 4) to (9, 4) and ends in (10, 4)'s diamond. At pixel
    // (8, 4), t = (8.5 - 6.5) / 4 = 1/2 along the clipped line, which is 3/4 of the way along the original: weights
    // (1/4, 3/4) on its ends, depth 1/2.
    let line = raster(no_cull()).line(at(2.5, 4.5, -1., 1.), at(10.5, 4.5, 1., 1.));
    assert_eq!(line.fate(), TriangleFate::Rasterized);
    assert_eq!(covered_pixels(&line), vec![(6, 4), (7, 4), (8, 4), (9, 4)]);
    let lane = lane_at(&line, 8, 4);
    assert_eq!(lane.perspective, [0.25, 0.75, 0.]);
    assert_eq!(lane.linear, [0.25, 0.75, 0.]);
    assert_eq!(lane.position, [8.5, 4.5, 0.5, 1.]);
    // wholly behind the near plane, it is clipped away; a point there too
    let behind = raster(no_cull()).line(at(2.5, 4.5, -1., 1.), at(10.5, 4.5, -0.5, 1.));
    assert_eq!(behind.fate(), TriangleFate::ClippedAway);
    assert_eq!(
        raster(no_cull()).point(at(2.5, 4.5, -0.5, 1.)).fate(),
        TriangleFate::ClippedAway
    );
}

#[test]
fn a_line_leaving_the_viewport_is_not_cut_at_its_edge() {
    // 3.4.3.1 allows either; a guard band keeps the line's own pixels: from (12.5, 3.5) to (40.5, 3.5) on a 16-pixel
    // target it exits the diamonds of (12..=15, 3), the last pixel included (a cut at x = 16 would also light it, but
    // a cut on a y-major line's right corner would not)
    let line = raster(no_cull()).line(at(12.5, 3.5, 0.5, 1.), at(40.5, 3.5, 0.5, 1.));
    assert_eq!(covered_pixels(&line), vec![(12, 3), (13, 3), (14, 3), (15, 3)]);
    // a point half outside the target keeps its inside: at (-0.25, 2.5) its square [-0.75, 0.25) holds no centre;
    // at (0.25, 2.5) it holds (0, 2)'s
    assert!(covered_pixels(&raster(no_cull()).point(at(-0.25, 2.5, 0.5, 1.))).is_empty());
    assert_eq!(
        covered_pixels(&raster(no_cull()).point(at(0.25, 2.5, 0.5, 1.))),
        vec![(0, 2)]
    );
}

#[test]
fn a_wireframe_edge_takes_its_triangles_depth_bias_and_facing() {
    // a back-facing (counter-clockwise) triangle at depth 0.5 in wireframe, culling off, with a constant bias of
    // 2^20 units of a float buffer's r = 2^(-1 - 23) (the largest |z| is 0.5): 2^-4 added to every edge's ends
    let state = RasterizerState {
        depth_bias: 1 << 20,
        ..no_cull()
    };
    let r = raster(state).with_lines(LineMode::Aliased, true);
    let triangle = r.triangle([at(2.5, 2.5, 0.5, 1.), at(2.5, 10.5, 0.5, 1.), at(10.5, 2.5, 0.5, 1.)]);
    assert_eq!(triangle.lines().len(), 3);
    let hits: Vec<PixelHit> = triangle.pixel(2, 5).collect();
    assert_eq!(hits.len(), 1);
    assert!(!hits[0].quad.front_facing);
    assert_eq!(hits[0].values().position[2], 0.5625);
    // culled as a back face, nothing is drawn
    let culled = raster(RasterizerState::default())
        .with_lines(LineMode::Aliased, true)
        .triangle([at(2.5, 2.5, 0.5, 1.), at(2.5, 10.5, 0.5, 1.), at(10.5, 2.5, 0.5, 1.)]);
    assert_eq!(culled.fate(), TriangleFate::Culled);
}

#[test]
fn a_walk_resumed_from_its_position_yields_the_quads_left() {
    // a solid triangle, a triangle clipped into a polygon of several parts, a wireframe triangle (lines), each walked
    // whole and in the stripes of band 1 of 3: resuming at the position after k quads yields what skipping k does
    let solid = raster(no_cull()).triangle([at(1.5, 0.5, 0.5, 1.), at(15., 7.25, 0.5, 1.), at(3.25, 15.5, 0.5, 1.)]);
    let clipped = raster(no_cull()).triangle([at(-8., 2., 0.5, 1.), at(30., 5., 0.5, 1.), at(4., 40., 0.5, 1.)]);
    let lines = raster(no_cull()).with_lines(LineMode::Aliased, true).triangle([
        at(2.5, 2.5, 0.5, 1.),
        at(2.5, 10.5, 0.5, 1.),
        at(10.5, 2.5, 0.5, 1.),
    ]);
    assert!(clipped.parts().len() > 1, "the clipped triangle is a fan of parts");
    assert_eq!(lines.lines().len(), 3);
    let stripes = Stripes {
        band: 1,
        bands: 3,
        rows: 2,
    };
    for (name, triangle) in [("solid", &solid), ("clipped", &clipped), ("wireframe", &lines)] {
        for banded in [false, true] {
            let walk = || {
                if banded {
                    triangle.quads().within(stripes)
                } else {
                    triangle.quads()
                }
            };
            let all: Vec<Quad> = walk().collect();
            assert!(all.len() > 4, "{name}: {} quads", all.len());
            let mut going = walk();
            for k in 0..=all.len() {
                let resumed: Vec<Quad> = walk().resume(going.position()).collect();
                assert_eq!(resumed, all[k..], "{name} banded {banded}: resumed after {k} quads");
                going.next();
            }
        }
    }
}
