//! Tessellations worked out by hand from the specification's rules and the reference tessellator's arithmetic (each
//! test's comment shows the working), and properties every tessellation must have: indices inside the points, a
//! consistently wound triangulation covering the domain once, shared edges with the same points on both sides,
//! closed-form counts for uniform integer factors.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// `n / 65536`: a fixed-point coordinate as float32.
fn fx(n: u32) -> f32 {
    n as f32 / 65536.0
}

/// The tessellator for the domain, partitioning and output (a valid combination).
fn tessellator(domain: Domain, partitioning: Partitioning, output: OutputPrimitive) -> Tessellator {
    Tessellator::new(domain, partitioning, output).unwrap()
}

fn quad(partitioning: Partitioning, edges: [f32; 4], inside: [f32; 2]) -> Tessellation {
    tessellator(Domain::Quad, partitioning, OutputPrimitive::TriangleCw).tessellate(&TessFactors::quad(edges, inside))
}

fn triangle(partitioning: Partitioning, edges: [f32; 3], inside: f32) -> Tessellation {
    tessellator(Domain::Triangle, partitioning, OutputPrimitive::TriangleCw)
        .tessellate(&TessFactors::triangle(edges, inside))
}

fn isoline(partitioning: Partitioning, density: f32, detail: f32) -> Tessellation {
    tessellator(Domain::Isoline, partitioning, OutputPrimitive::Line).tessellate(&TessFactors::isoline(density, detail))
}

/// Twice the signed area of a triangle in the domain: positive when clockwise as 11.5 draws the domain (V clockwise
/// from U, i.e. V pointing down when U points right).
fn doubled_area(t: &Tessellation, triangle: &[u32]) -> f64 {
    let p = |i: usize| {
        let [u, v] = t.points[triangle[i] as usize];
        (f64::from(u), f64::from(v))
    };
    let (a, b, c) = (p(0), p(1), p(2));
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

const ALL_PARTITIONINGS: [Partitioning; 4] = [
    Partitioning::Integer,
    Partitioning::Pow2,
    Partitioning::FractionalOdd,
    Partitioning::FractionalEven,
];

#[test]
fn a_quad_with_every_factor_1_is_its_corners_and_two_triangles() {
    for partitioning in [Partitioning::Integer, Partitioning::Pow2, Partitioning::FractionalOdd] {
        let t = quad(partitioning, [1.0; 4], [1.0; 2]);
        assert_eq!(t.points, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
        assert_eq!(t.indices, vec![0, 1, 3, 1, 2, 3]);
    }
    let ccw = tessellator(Domain::Quad, Partitioning::Integer, OutputPrimitive::TriangleCcw)
        .tessellate(&TessFactors::quad([1.0; 4], [1.0; 2]));
    assert_eq!(ccw.indices, vec![0, 3, 1, 1, 3, 2]);
    let points = tessellator(Domain::Quad, Partitioning::Integer, OutputPrimitive::Point)
        .tessellate(&TessFactors::quad([1.0; 4], [1.0; 2]));
    assert_eq!(points.indices, vec![0, 1, 2, 3]);
}

#[test]
fn a_triangle_with_every_factor_1_is_its_corners_v_w_u() {
    let t = triangle(Partitioning::Integer, [1.0; 3], 1.0);
    assert_eq!(t.points, vec![[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]);
    assert_eq!(t.indices, vec![0, 1, 2]);
    assert_eq!(t.domain_location(0), Some([0.0, 1.0, 0.0]));
    assert_eq!(t.domain_location(1), Some([0.0, 0.0, 1.0]));
    assert_eq!(t.domain_location(3), None);
    let ccw = tessellator(
        Domain::Triangle,
        Partitioning::FractionalOdd,
        OutputPrimitive::TriangleCcw,
    )
    .tessellate(&TessFactors::triangle([1.0; 3], 1.0));
    assert_eq!(ccw.indices, vec![0, 2, 1]);
}

#[test]
fn fractional_even_has_no_single_segment_patch() {
    // factors 1 clamp to 2 (11.7.11.2): two segments an edge and a centre point, not the bare triangle
    let t = triangle(Partitioning::FractionalEven, [1.0; 3], 1.0);
    assert_eq!(t, triangle(Partitioning::FractionalEven, [2.0; 3], 2.0));
    assert_eq!(t.points.len(), 7);
}

#[test]
fn an_isoline_with_factors_1_is_one_segment_at_v_0() {
    let t = isoline(Partitioning::Integer, 1.0, 1.0);
    assert_eq!(t.points, vec![[0.0, 0.0], [1.0, 0.0]]);
    assert_eq!(t.indices, vec![0, 1]);
}

#[test]
fn an_integer_triangle_of_factor_2_fans_six_triangles_round_its_centre() {
    // Each edge (even, 3 points: 0, 1/2, 1) gives its first two points to the outer ring, walking clockwise from V:
    // U == 0 from V = 1 down, V == 0 from U = 0 up, W == 0 from U = 1 back. The inside factor 2 (even, 3 points)
    // has no interior ring, only the centre (0x5555, 0x5555). Each frame side is a transition between an edge with
    // one point per half and an inside row of one point: a triangle on each outer segment, to the centre.
    let t = triangle(Partitioning::Integer, [2.0; 3], 2.0);
    let third = fx(0x5555);
    assert_eq!(
        t.points,
        vec![
            [0.0, 1.0],
            [0.0, 0.5],
            [0.0, 0.0],
            [0.5, 0.0],
            [1.0, 0.0],
            [0.5, 0.5],
            [third, third]
        ]
    );
    assert_eq!(t.indices, vec![0, 1, 6, 1, 2, 6, 2, 3, 6, 3, 4, 6, 4, 5, 6, 5, 0, 6]);
}

#[test]
fn an_integer_quad_of_factor_2_fans_eight_triangles_round_its_centre() {
    // The outer ring: U == 0 from V = 1 down, V == 0, U == 1 up, V == 1 back. Both inside factors are even with 3
    // points: no interior ring, and the centre row along V is the single point (1/2, 1/2). That row is the
    // degenerate innermost ring of both axes, so the sides along U == 1 and V == 1 walk it backwards (the same one
    // point here), and the last side's outer row closes on point 0.
    let t = quad(Partitioning::Integer, [2.0; 4], [2.0; 2]);
    assert_eq!(
        t.points,
        vec![
            [0.0, 1.0],
            [0.0, 0.5],
            [0.0, 0.0],
            [0.5, 0.0],
            [1.0, 0.0],
            [1.0, 0.5],
            [1.0, 1.0],
            [0.5, 1.0],
            [0.5, 0.5]
        ]
    );
    assert_eq!(
        t.indices,
        vec![0, 1, 8, 1, 2, 8, 2, 3, 8, 3, 4, 8, 4, 5, 8, 5, 6, 8, 6, 7, 8, 7, 0, 8]
    );
}

#[test]
fn an_integer_triangle_of_factor_3_has_an_inner_triangle() {
    // Factor 3 (odd): 4 points an edge at 0, 0x5555, 0xaaab (= 1 - 0x5555, the mirror), 1. The inside division is
    // the same; its one interior ring sits at 0x5555 along the axis, scaled by 2/3 into barycentric distance:
    // (0x5555 * 0xaaaa + 0x8000) >> 16 = 14563, and its points slide back along each edge by (14563 + 1) / 2 = 7282:
    // 0xaaab - 7282 = 36409 and 0x5555 - 7282 = 14563; the third point's V is 65536 - 36409 - 14563 = 14564.
    let t = triangle(Partitioning::Integer, [3.0; 3], 3.0);
    let (a, b) = (fx(0x5555), fx(0xaaab));
    assert_eq!(
        t.points,
        vec![
            [0.0, 1.0],
            [0.0, b],
            [0.0, a],
            [0.0, 0.0],
            [a, 0.0],
            [b, 0.0],
            [1.0, 0.0],
            [b, a],
            [a, b],
            [fx(14563), fx(36409)],
            [fx(14563), fx(14563)],
            [fx(36409), fx(14564)],
        ]
    );
    // Each side: a corner triangle, the quad across the middle segment (both odd), the other corner triangle; the
    // last side's rows close on the rings' first points (0 and 9). Then the centre triangle 9, 10, 11.
    assert_eq!(
        t.indices,
        vec![
            0, 1, 9, 9, 1, 10, 10, 1, 2, 2, 3, 10, //
            3, 4, 10, 10, 4, 11, 11, 4, 5, 5, 6, 11, //
            6, 7, 11, 11, 7, 9, 9, 7, 8, 8, 0, 9, //
            9, 10, 11
        ]
    );
}

#[test]
fn an_integer_quad_of_factor_3_has_a_z_at_its_centre() {
    // Edges and inside axes of factor 3: points at 0, a = 0x5555, b = 0xaaab, 1. The outer ring has 12 points, the
    // one interior ring 4: (a, b), (a, a), (b, a), (b, b) (its sides start at V = b going up U == a, then along
    // V == a, down U == b, back along V == b). Each frame side is corner triangle, middle quad, corner triangle.
    // The centre is a strip of one quad (both axes odd) whose diagonal runs from (b, a) to (a, b): top right to
    // bottom left with V == 0 at the top, the Z of 11.7.6.
    let t = quad(Partitioning::Integer, [3.0; 4], [3.0; 2]);
    let (a, b) = (fx(0x5555), fx(0xaaab));
    assert_eq!(
        t.points,
        vec![
            [0.0, 1.0],
            [0.0, b],
            [0.0, a],
            [0.0, 0.0],
            [a, 0.0],
            [b, 0.0],
            [1.0, 0.0],
            [1.0, a],
            [1.0, b],
            [1.0, 1.0],
            [b, 1.0],
            [a, 1.0],
            [a, b],
            [a, a],
            [b, a],
            [b, b],
        ]
    );
    assert_eq!(
        t.indices,
        vec![
            0, 1, 12, 12, 1, 13, 13, 1, 2, 2, 3, 13, //
            3, 4, 13, 13, 4, 14, 14, 4, 5, 5, 6, 14, //
            6, 7, 14, 14, 7, 15, 15, 7, 8, 8, 9, 15, //
            9, 10, 15, 15, 10, 12, 12, 10, 11, 11, 0, 12, //
            12, 14, 15, 12, 13, 14
        ]
    );
}

#[test]
fn fractional_odd_1_5_blends_factor_1_and_3() {
    // 1.5 = 0x18000; half of it plus one half is 1.25: floor 1 (1 segment), ceiling 2 (3 segments), fraction 0.25.
    // The point past the corner is 0 on the floor division and 1/3 (0x5555) on the ceiling one:
    // (0x5555 * 0x4000 + 0x8000) >> 16 = 0x1555; the mirrored point is 0x10000 - 0x1555 = 0xeaab.
    let t = isoline(Partitioning::FractionalOdd, 1.0, 1.5);
    assert_eq!(
        t.points,
        vec![[0.0, 0.0], [fx(0x1555), 0.0], [fx(0xeaab), 0.0], [1.0, 0.0]]
    );
    assert_eq!(t.indices, vec![0, 1, 1, 2, 2, 3]);
}

#[test]
fn fractional_even_2_5_blends_factor_2_and_4() {
    // 2.5: half factor 1.25, floor 1 (2 segments), ceiling 2 (4 segments), fraction 0.25. The first inner point is
    // 1/2 on the floor division and 1/4 on the ceiling one: 0.75 * 0.5 + 0.25 * 0.25 = 0.4375; the middle stays at
    // 1/2, and the mirror of 0.4375 is 0.5625.
    let t = isoline(Partitioning::FractionalEven, 1.0, 2.5);
    let us: Vec<f32> = t.points.iter().map(|p| p[0]).collect();
    assert_eq!(us, vec![0.0, 0.4375, 0.5, 0.5625, 1.0]);
}

#[test]
fn fractional_factors_move_points_smoothly_and_symmetrically() {
    // fractional odd 3 is uniform thirds; 3.0001 already has 5 segments, two of them nearly empty
    let thirds = isoline(Partitioning::FractionalOdd, 1.0, 3.0);
    assert_eq!(thirds.points.len(), 4);
    let just_above = isoline(Partitioning::FractionalOdd, 1.0, 3.0001);
    assert_eq!(just_above.points.len(), 6);
    for t in [&thirds, &just_above] {
        let us: Vec<f32> = t.points.iter().map(|p| p[0]).collect();
        for (u, mirrored) in us.iter().zip(us.iter().rev()) {
            assert_eq!(1.0 - u, *mirrored, "11.7.13: 1 - u' == u exactly");
        }
    }
}

#[test]
fn pow2_is_integer_to_the_hardware() {
    // 11.7.7.1: the hull shader rounds to powers of two; the tessellator rounds 3 to 3, not 4
    let edge_points = |t: &Tessellation| t.points.iter().filter(|p| p[1] == 0.0).count();
    let pow2 = isoline(Partitioning::Pow2, 1.0, 3.0);
    assert_eq!(edge_points(&pow2), 4);
    assert_eq!(pow2, isoline(Partitioning::Integer, 1.0, 3.0));
    for (edges, inside) in [([3.0, 5.0, 6.0, 7.0], [3.5, 2.2]), ([1.0, 2.0, 4.0, 64.0], [1.0, 9.0])] {
        assert_eq!(
            quad(Partitioning::Pow2, edges, inside),
            quad(Partitioning::Integer, edges, inside)
        );
    }
}

#[test]
fn an_edge_factor_at_or_below_0_or_nan_culls_the_patch() {
    for bad in [0.0, -0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
        for partitioning in ALL_PARTITIONINGS {
            let q = quad(partitioning, [4.0, bad, 4.0, 4.0], [4.0, 4.0]);
            assert!(q.is_culled() && q.indices.is_empty(), "{bad} {partitioning:?}");
            assert!(triangle(partitioning, [4.0, 4.0, bad], 4.0).is_culled());
            assert!(isoline(partitioning, bad, 4.0).is_culled());
            assert!(isoline(partitioning, 4.0, bad).is_culled());
            let points = tessellator(Domain::Triangle, partitioning, OutputPrimitive::Point)
                .tessellate(&TessFactors::triangle([bad, 1.0, 1.0], 1.0));
            assert!(points.is_culled() && points.indices.is_empty());
        }
    }
    // a positive denormal is above 0: not culled, clamped to the lower bound
    assert_eq!(
        triangle(Partitioning::Integer, [1e-40, 1.0, 1.0], 1.0),
        triangle(Partitioning::Integer, [1.0; 3], 1.0)
    );
}

#[test]
fn a_bad_inside_factor_is_clamped_not_culled() {
    // 11.7.11.3: NaN and values below the range become the lower bound
    for bad in [0.0, -3.0, f32::NAN] {
        assert_eq!(
            triangle(Partitioning::Integer, [1.0; 3], bad),
            triangle(Partitioning::Integer, [1.0; 3], 1.0)
        );
        assert_eq!(
            quad(Partitioning::FractionalEven, [4.0; 4], [bad, 6.0]),
            quad(Partitioning::FractionalEven, [4.0; 4], [2.0, 6.0])
        );
    }
}

#[test]
fn factors_are_clamped_to_the_partitionings_range() {
    // 11.7.11.2: integer [1, 64] rounded up, fractional even [2, 64], fractional odd [1, 63]
    assert_eq!(
        quad(Partitioning::Integer, [100.0, 2.0, 2.0, 2.0], [f32::INFINITY, 2.0]),
        quad(Partitioning::Integer, [64.0, 2.0, 2.0, 2.0], [64.0, 2.0])
    );
    assert_eq!(
        quad(Partitioning::Integer, [2.0001, 2.0, 2.0, 2.0], [2.0, 2.0]),
        quad(Partitioning::Integer, [3.0, 2.0, 2.0, 2.0], [2.0, 2.0])
    );
    assert_eq!(
        triangle(Partitioning::FractionalOdd, [64.0, 1.0, 1.0], 70.0),
        triangle(Partitioning::FractionalOdd, [63.0, 1.0, 1.0], 63.0)
    );
    assert_eq!(
        triangle(Partitioning::FractionalEven, [1.0, 1.5, 3.0], 0.5),
        triangle(Partitioning::FractionalEven, [2.0, 2.0, 3.0], 2.0)
    );
    // the isoline density is integer in [1, 64] whatever the partitioning: 2.5 draws 3 lines at 0, 1/3, 2/3
    let t = isoline(Partitioning::FractionalEven, 2.5, 2.0);
    let vs: BTreeSet<u32> = t.points.iter().map(|p| p[1].to_bits()).collect();
    let expected: BTreeSet<u32> = [0.0, fx(0x5555), fx(0xaaab)].iter().map(|v| v.to_bits()).collect();
    assert_eq!(vs, expected);
    assert_eq!(isoline(Partitioning::Integer, 500.0, 1.0).points.len(), 64 * 2);
}

#[test]
fn fractional_odd_keeps_a_picture_frame_once_any_factor_is_above_1() {
    // all factors 1 (or within half a fixed-point step of it): the bare quad
    assert_eq!(quad(Partitioning::FractionalOdd, [1.0; 4], [1.0, 1.0]).points.len(), 4);
    assert_eq!(
        quad(Partitioning::FractionalOdd, [1.0; 4], [1.0 + 1.0 / 131_072.0, 1.0])
            .points
            .len(),
        4
    );
    // one inside factor above 1 + 2^-17: both inside factors are raised to at least 1 + 2^-16, which divides each
    // inside axis into 3 segments (4 points), so the edges' 4 corners get 2 x 2 interior points
    let framed = quad(Partitioning::FractionalOdd, [1.0; 4], [1.00001, 1.0]);
    assert_eq!(framed.points.len(), 8);
    // a triangle's inside factor alone above 1 frames it too: 3 corners and an interior ring of 3
    let tri = triangle(Partitioning::FractionalOdd, [1.0; 3], 1.00001);
    assert_eq!(tri.points.len(), 3 + 3);
}

#[test]
fn the_declared_maximum_lowers_larger_factors() {
    let limited = Tessellator::new(Domain::Quad, Partitioning::FractionalEven, OutputPrimitive::TriangleCw)
        .unwrap()
        .with_max_tess_factor(8.0)
        .unwrap();
    assert_eq!(
        limited.tessellate(&TessFactors::quad([16.0, 4.0, 9.0, 8.0], [33.0, 2.0])),
        quad(Partitioning::FractionalEven, [8.0, 4.0, 8.0, 8.0], [8.0, 2.0])
    );
    // NaN is not lowered: it still culls an edge and is still an inside factor's lower bound
    assert!(
        limited
            .tessellate(&TessFactors::quad([f32::NAN, 4.0, 4.0, 4.0], [4.0, 4.0]))
            .is_culled()
    );
    for bad in [0.5, 64.5, f32::NAN] {
        assert!(limited.with_max_tess_factor(bad).is_err());
    }
}

#[test]
fn outputs_a_domain_cannot_have_are_refused() {
    assert!(Tessellator::new(Domain::Quad, Partitioning::Integer, OutputPrimitive::Line).is_err());
    assert!(Tessellator::new(Domain::Triangle, Partitioning::Integer, OutputPrimitive::Line).is_err());
    assert!(Tessellator::new(Domain::Isoline, Partitioning::Integer, OutputPrimitive::TriangleCw).is_err());
    assert!(Tessellator::new(Domain::Isoline, Partitioning::Integer, OutputPrimitive::TriangleCcw).is_err());
    for domain in [Domain::Isoline, Domain::Triangle, Domain::Quad] {
        assert!(Tessellator::new(domain, Partitioning::Integer, OutputPrimitive::Point).is_ok());
    }
}

#[test]
fn an_isoline_draws_density_lines_of_detail_segments() {
    for density in 1..=64u32 {
        for detail in [1u32, 2, 3, 7, 64] {
            let t = isoline(Partitioning::Integer, density as f32, detail as f32);
            assert_eq!(t.points.len() as u32, density * (detail + 1));
            assert_eq!(t.primitives().count() as u32, density * detail);
            // line k at V = k / density, each from U = 0 to U = 1 in order; V is k times 1 / density rounded to 16
            // bits (k at most 32 from the nearer end), so within 16.5 steps of 2^-16
            for (line, points) in t.points.chunks(detail as usize + 1).enumerate() {
                let v = points[0][1];
                assert!((f64::from(v) - line as f64 / f64::from(density)).abs() <= 16.5 / 65536.0);
                assert!(points.iter().all(|p| p[1] == v));
                assert_eq!(points[0][0], 0.0);
                assert_eq!(points[detail as usize][0], 1.0);
                assert!(points.windows(2).all(|w| w[0][0] < w[1][0]));
            }
            assert!(t.points.iter().all(|p| p[1] < 1.0), "no line at V == 1");
            for (segment, pair) in t.primitives().enumerate() {
                let line = segment as u32 / detail;
                let first = line * (detail + 1) + segment as u32 % detail;
                assert_eq!(pair, [first, first + 1]);
            }
            let as_points = tessellator(Domain::Isoline, Partitioning::Integer, OutputPrimitive::Point)
                .tessellate(&TessFactors::isoline(density as f32, detail as f32));
            assert_eq!(as_points.points, t.points);
            assert_eq!(as_points.indices, (0..t.points.len() as u32).collect::<Vec<_>>());
        }
    }
}

#[test]
fn uniform_integer_factors_give_closed_form_counts() {
    for n in 1..=64u32 {
        let f = n as f32;
        // a quad: an (n + 1) x (n + 1) grid of points, two triangles per cell
        let q = quad(Partitioning::Integer, [f; 4], [f; 2]);
        assert_eq!(q.points.len() as u32, (n + 1) * (n + 1), "quad {n}");
        assert_eq!(q.primitives().count() as u32, 2 * n * n, "quad {n}");
        // a triangle: rings of 3n, 3(n - 2), ... points, down to a centre point (n even) or triangle (n odd); each
        // ring side of m segments stitched to the next one in (m - 2) gives 2m - 2 triangles
        let t = triangle(Partitioning::Integer, [f; 3], f);
        let k = n / 2;
        let (points, triangles) = if n % 2 == 0 {
            (3 * k * (k + 1) + 1, 6 * k * k)
        } else {
            (3 * (k + 1) * (k + 1), 6 * k * (k + 1) + 1)
        };
        assert_eq!(t.points.len() as u32, points, "triangle {n}");
        assert_eq!(t.primitives().count() as u32, triangles, "triangle {n}");
    }
}

/// Checks what every triangulated patch must be: indices inside the points, every point used, every triangle wound
/// as asked (or degenerate, which 11.7.14 allows), areas adding up to the domain's, every inner edge shared by two
/// triangles in opposite directions and the boundary edges on the domain's border.
fn check_triangulation(t: &Tessellation, clockwise: bool, what: &str) {
    assert!(t.points.len() <= MAX_POINTS && t.indices.len() <= MAX_INDICES, "{what}");
    assert!(
        t.indices.iter().all(|&i| (i as usize) < t.points.len()),
        "{what}: index past the points"
    );
    let used: BTreeSet<u32> = t.indices.iter().copied().collect();
    assert_eq!(used.len(), t.points.len(), "{what}: a point no triangle uses");
    let mut total = 0.0;
    let mut directed: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for tri in t.primitives() {
        let area = doubled_area(t, tri);
        let area = if clockwise { area } else { -area };
        assert!(area >= 0.0, "{what}: triangle {tri:?} wound the wrong way ({area})");
        total += area / 2.0;
        for (a, b) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
            *directed.entry((a, b)).or_default() += 1;
        }
    }
    let domain_area = if t.domain == Domain::Triangle { 0.5 } else { 1.0 };
    assert!(
        (total - domain_area).abs() < 1e-9,
        "{what}: the triangles cover {total}"
    );
    for (&(a, b), &count) in &directed {
        assert_eq!(count, 1, "{what}: edge {a}-{b} used twice the same way");
        if !directed.contains_key(&(b, a)) {
            // a boundary edge: both ends on the same side of the domain
            let [pa, pb] = [t.points[a as usize], t.points[b as usize]];
            let on_side = (pa[0] == 0.0 && pb[0] == 0.0)
                || (pa[1] == 0.0 && pb[1] == 0.0)
                || (t.domain == Domain::Quad && ((pa[0] == 1.0 && pb[0] == 1.0) || (pa[1] == 1.0 && pb[1] == 1.0)))
                || (t.domain == Domain::Triangle && pa[0] + pa[1] == 1.0 && pb[0] + pb[1] == 1.0);
            assert!(
                on_side,
                "{what}: edge {a}-{b} ({pa:?} {pb:?}) has one triangle but is inside the domain"
            );
        }
    }
}

/// Factor values across the whole range, integers, odd and even fractions and the clamps' edges.
fn factor_samples() -> Vec<f32> {
    let mut samples = vec![
        0.5, 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 3.3, 4.0, 5.7, 6.0, 7.0, 8.5, 13.0, 16.0, 31.9, 33.1,
    ];
    samples.extend([47.25, 62.5, 63.0, 63.5, 64.0, 70.0]);
    samples
}

#[test]
fn every_triangulation_is_a_consistently_wound_cover_of_the_domain() {
    let samples = factor_samples();
    let mut cases = 0;
    for partitioning in ALL_PARTITIONINGS {
        for (i, &a) in samples.iter().enumerate() {
            for (j, &b) in samples.iter().enumerate() {
                // edges and inside factors from three different samples, rotating so every edge sees every value
                let c = samples[(i * 7 + j * 3 + 1) % samples.len()];
                for output in [OutputPrimitive::TriangleCw, OutputPrimitive::TriangleCcw] {
                    let clockwise = output == OutputPrimitive::TriangleCw;
                    let q = tessellator(Domain::Quad, partitioning, output)
                        .tessellate(&TessFactors::quad([a, c, b, a], [b, c]));
                    check_triangulation(
                        &q,
                        clockwise,
                        &format!("quad {partitioning:?} [{a} {c} {b} {a}] [{b} {c}]"),
                    );
                    let t = tessellator(Domain::Triangle, partitioning, output)
                        .tessellate(&TessFactors::triangle([c, a, b], b));
                    check_triangulation(&t, clockwise, &format!("triangle {partitioning:?} [{c} {a} {b}] {b}"));
                    cases += 2;
                }
            }
        }
    }
    assert!(cases > 4000);
}

/// The coordinates along the edge where `coordinate` (0 for U, 1 for V; 2 for W = 1 - U - V) is `value`, as bits
/// of the other coordinate (V, or U on the V and W edges).
fn edge_coordinates(t: &Tessellation, coordinate: usize, value: f32) -> BTreeSet<u32> {
    t.points
        .iter()
        .filter(|p| match coordinate {
            2 => p[0] + p[1] == value,
            c => p[c] == value,
        })
        .map(|p| if coordinate == 0 { p[1] } else { p[0] }.to_bits())
        .collect()
}

#[test]
fn neighbouring_patches_place_the_same_points_on_a_shared_edge() {
    // 11.7.13: the points on an edge depend on its factor alone and are symmetric about its middle, so two patches
    // sharing it (in either direction, of either domain) agree
    // (inside factors of 2 or more: just above 1, fractional odd's first interior ring lies on the border itself,
    // its points at 0 + 2^-16 * 0x5555 * 2^-16 rounded to 0, which these coordinate sets would count as the edge's)
    let samples = factor_samples();
    let insides: Vec<f32> = samples.iter().copied().filter(|&f| f >= 2.0).collect();
    for partitioning in ALL_PARTITIONINGS {
        for &shared in &samples {
            for (k, &other) in samples.iter().enumerate() {
                let inside = insides[(k * 5 + 2) % insides.len()];
                let inside2 = insides[(k * 3 + 1) % insides.len()];
                // quad A's U == 1 edge against quad B's U == 0 edge, and A's V == 0 against a triangle's V == 0
                let a = quad(partitioning, [other, shared, shared, inside], [inside, inside2]);
                let b = quad(partitioning, [shared, inside, other, other], [inside2, inside]);
                let t = triangle(partitioning, [inside, shared, other], inside2);
                let along_a = edge_coordinates(&a, 0, 1.0);
                assert_eq!(along_a, edge_coordinates(&b, 0, 0.0), "{partitioning:?} {shared}");
                assert_eq!(
                    edge_coordinates(&a, 1, 0.0),
                    edge_coordinates(&t, 1, 0.0),
                    "{partitioning:?} {shared}"
                );
                // a triangle's W == 0 edge with the same factor as its U == 0 edge has the same points
                let w = triangle(partitioning, [shared, other, shared], inside);
                assert_eq!(
                    edge_coordinates(&w, 2, 1.0),
                    edge_coordinates(&w, 0, 0.0),
                    "{partitioning:?} {shared}"
                );
                // clean parameters: each coordinate's mirror 1 - u is on the edge too
                for &bits in &along_a {
                    let mirrored = (1.0 - f32::from_bits(bits)).to_bits();
                    assert!(
                        along_a.contains(&mirrored),
                        "{partitioning:?} {shared}: no mirror of {bits:#x}"
                    );
                }
            }
        }
    }
}

#[test]
fn point_output_lists_each_point_once_in_order() {
    let t = tessellator(Domain::Quad, Partitioning::FractionalOdd, OutputPrimitive::Point)
        .tessellate(&TessFactors::quad([3.5, 7.25, 1.0, 12.0], [5.5, 9.0]));
    let triangles = quad(Partitioning::FractionalOdd, [3.5, 7.25, 1.0, 12.0], [5.5, 9.0]);
    assert_eq!(t.points, triangles.points);
    assert_eq!(t.indices, (0..t.points.len() as u32).collect::<Vec<_>>());
    assert_eq!(t.primitives().count(), t.points.len());
}

#[test]
fn every_coordinate_is_a_16_bit_fraction_in_the_unit_range() {
    for partitioning in ALL_PARTITIONINGS {
        for &f in &factor_samples() {
            for t in [
                quad(partitioning, [f, 2.0, f, 5.5], [f, 3.0]),
                triangle(partitioning, [f, f, 4.5], f),
                isoline(partitioning, f, f),
            ] {
                for &[u, v] in &t.points {
                    for c in [u, v] {
                        assert!((0.0..=1.0).contains(&c));
                        assert_eq!((c * 65536.0).fract(), 0.0);
                    }
                }
            }
        }
    }
}

/// FNV-1a 64 of the little-endian bytes of `words`.
fn fnv(words: impl Iterator<Item = u32>) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in words.flat_map(u32::to_le_bytes) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
    }
    hash
}

#[test]
fn every_case_matches_llvmpipes_copy_of_the_reference_tessellator() {
    // fixtures/tessellator/README.md: 960 patches (every domain, partitioning and output, factors across the range,
    // culled ones) tessellated by Mesa's llvmpipe, each captured vertex's gl_TessCoord hashed in order
    let fixture = include_str!("../../fixtures/tessellator/llvmpipe.txt");
    let mut cases = 0;
    for line in fixture.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(' ').collect();
        let domain = match fields[0] {
            "triangle" => Domain::Triangle,
            "quad" => Domain::Quad,
            _ => Domain::Isoline,
        };
        let partitioning = match fields[1] {
            "integer" => Partitioning::Integer,
            "fractional_odd" => Partitioning::FractionalOdd,
            _ => Partitioning::FractionalEven,
        };
        let output = match fields[2] {
            "triangle_cw" => OutputPrimitive::TriangleCw,
            "triangle_ccw" => OutputPrimitive::TriangleCcw,
            "point" => OutputPrimitive::Point,
            _ => OutputPrimitive::Line,
        };
        let f: Vec<f32> = fields[3..9].iter().map(|s| s.parse().unwrap()).collect();
        let factors = match domain {
            Domain::Triangle => TessFactors::triangle([f[0], f[1], f[2]], f[4]),
            Domain::Quad => TessFactors::quad([f[0], f[1], f[2], f[3]], [f[4], f[5]]),
            Domain::Isoline => TessFactors::isoline(f[0], f[1]),
        };
        let vertices: usize = fields[9].parse().unwrap();
        let hash = u64::from_str_radix(fields[10], 16).unwrap();
        let t = tessellator(domain, partitioning, output).tessellate(&factors);
        assert_eq!(t.indices.len(), vertices, "{line}");
        let ours = fnv(t
            .indices
            .iter()
            .flat_map(|&i| t.domain_location(i as usize).unwrap())
            .map(f32::to_bits));
        assert_eq!(ours, hash, "{line}");
        cases += 1;
    }
    assert_eq!(cases, 960);
}
