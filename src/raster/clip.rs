//! Clipping a triangle to the clip volume of 15.4, keeping each vertex's weights on the drawn triangle.

/// The most vertices a clipped triangle has: each of the six planes adds at most one to a convex polygon.
pub const MAX_POLYGON: usize = 9;

/// A vertex of a clipped polygon: its clip-space position and its weights on the drawn triangle's three vertices in
/// clip space (a vertex of the triangle weighs itself 1; one the clipper makes, the blend of its edge's ends').
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipVertex {
    /// Clip-space x, y, z, w.
    pub position: [f32; 4],
    /// The weights of the drawn triangle's vertices, summing to 1: the position is their blend by these.
    pub weights: [f64; 3],
}

impl ClipVertex {
    /// The weights of this vertex's screen position on the drawn triangle's vertices, whose clip-space w are
    /// `original_w`: each clip-space weight times its vertex's w, normalised. A screen position is the clip-space one
    /// over its w, so this is what a screen-linear (`noperspective`) attribute of the vertex is blended by.
    pub fn screen_weights(&self, original_w: [f64; 3]) -> [f64; 3] {
        let [a, b, c] = self.weights;
        let scaled = [a * original_w[0], b * original_w[1], c * original_w[2]];
        let sum = scaled[0] + scaled[1] + scaled[2];
        scaled.map(|s| s / sum)
    }
}

/// A convex polygon clipping left, its vertices in the drawn triangle's winding.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Polygon {
    vertices: [ClipVertex; MAX_POLYGON],
    len: usize,
}

impl Polygon {
    /// The vertices, in order.
    pub fn vertices(&self) -> &[ClipVertex] {
        self.vertices.get(..self.len).unwrap_or(&[])
    }

    /// Add a vertex; false when the polygon is full, which a convex polygon cut by six planes never is.
    fn push(&mut self, vertex: ClipVertex) -> bool {
        let Some(slot) = self.vertices.get_mut(self.len) else {
            return false;
        };
        *slot = vertex;
        self.len = self.len.saturating_add(1);
        true
    }
}

/// A plane of the clip volume (15.4); the inside is where [`Plane::distance`] is not negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plane {
    /// `z >= 0`.
    Near,
    /// `z <= w`.
    Far,
    /// `x >= -w`.
    Left,
    /// `x <= w`.
    Right,
    /// `y >= -w`.
    Bottom,
    /// `y <= w`.
    Top,
}

impl Plane {
    /// How far inside the plane a position is (negative outside), exact in f64 from the float32 components.
    fn distance(self, p: &[f32; 4]) -> f64 {
        let [x, y, z, w] = p.map(f64::from);
        match self {
            Plane::Near => z,
            Plane::Far => w - z,
            Plane::Left => w + x,
            Plane::Right => w - x,
            Plane::Bottom => w + y,
            Plane::Top => w - y,
        }
    }

    /// Move a position the clipper computed onto the plane exactly, so that its screen position is the viewport's
    /// edge (or its depth the range's end) rather than a rounding error off it.
    fn put_on(self, p: &mut [f32; 4]) {
        let [x, y, z, w] = p;
        match self {
            Plane::Near => *z = 0.,
            Plane::Far => *z = *w,
            Plane::Left => *x = -*w,
            Plane::Right => *x = *w,
            Plane::Bottom => *y = -*w,
            Plane::Top => *y = *w,
        }
    }
}

/// The vertex where the edge from `inside` (at distance `d_in > 0` from `plane`) to `outside` (at `d_out < 0`)
/// crosses the plane. It is computed from the inside end whatever the edge's direction in its polygon, so two
/// triangles sharing the edge get the same vertex; in f64, then rounded to float32 and put exactly on the plane.
fn cut(plane: Plane, inside: &ClipVertex, d_in: f64, outside: &ClipVertex, d_out: f64) -> ClipVertex {
    let t = d_in / (d_in - d_out);
    let mut position = [0f32; 4];
    for ((out, a), b) in position.iter_mut().zip(inside.position).zip(outside.position) {
        let (a, b) = (f64::from(a), f64::from(b));
        *out = (a + (b - a) * t) as f32;
    }
    plane.put_on(&mut position);
    let mut weights = [0f64; 3];
    for ((out, a), b) in weights.iter_mut().zip(inside.weights).zip(outside.weights) {
        *out = a + (b - a) * t;
    }
    ClipVertex { position, weights }
}

/// Clip the triangle of clip-space `positions` to `-w <= x, y <= w` and, when `depth_clip`, `0 <= z <= w` (15.4),
/// with no guard band. The polygon left keeps the triangle's winding and first vertex when that is inside; it has
/// fewer than three vertices when nothing is left. A vertex exactly on a plane is inside, and an edge that only
/// touches a plane is not cut. A NaN distance counts as outside; the caller discards NaN positions first.
pub fn clip_triangle(positions: [[f32; 4]; 3], depth_clip: bool) -> Polygon {
    let mut polygon = Polygon::default();
    for (k, position) in positions.into_iter().enumerate() {
        let mut weights = [0.; 3];
        if let Some(own) = weights.get_mut(k) {
            *own = 1.;
        }
        polygon.push(ClipVertex { position, weights });
    }
    let planes = [
        Plane::Near,
        Plane::Far,
        Plane::Left,
        Plane::Right,
        Plane::Bottom,
        Plane::Top,
    ];
    for plane in planes {
        if !depth_clip && matches!(plane, Plane::Near | Plane::Far) {
            continue;
        }
        let vertices = polygon.vertices();
        if vertices.iter().all(|v| plane.distance(&v.position) >= 0.) {
            continue;
        }
        let mut next = Polygon::default();
        let mut fits = true;
        let ends = vertices.iter().zip(vertices.iter().cycle().skip(1));
        for (a, b) in ends {
            let (da, db) = (plane.distance(&a.position), plane.distance(&b.position));
            if da >= 0. {
                fits &= next.push(*a);
            }
            if da > 0. && db < 0. {
                fits &= next.push(cut(plane, a, da, b, db));
            } else if da < 0. && db > 0. {
                fits &= next.push(cut(plane, b, db, a, da));
            }
        }
        if !fits || next.len < 3 {
            // nothing is left (a polygon overflowing its nine vertices would be one rounding made non-convex, which
            // cannot come of a triangle: it is dropped as clipped away rather than drawn wrong)
            return Polygon::default();
        }
        polygon = next;
    }
    polygon
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(polygon: &Polygon) -> Vec<[f32; 4]> {
        polygon.vertices().iter().map(|v| v.position).collect()
    }

    #[test]
    fn a_triangle_inside_the_volume_is_kept_as_it_is() {
        let tri = [[0., 0., 0.5, 1.], [0.5, 0.5, 1., 1.], [-1., 1., 0., 1.]];
        let polygon = clip_triangle(tri, true);
        assert_eq!(positions(&polygon), tri.to_vec());
        let weights: Vec<[f64; 3]> = polygon.vertices().iter().map(|v| v.weights).collect();
        assert_eq!(weights, vec![[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]]);
    }

    #[test]
    fn the_near_plane_cuts_at_z_zero_with_the_weights_of_the_cut() {
        // a at z = 1, b and c at z = -1 (w = 2 for all): both edges from a are cut half way, at z = 0
        let a = [0., 0., 1., 2.];
        let b = [1., 0., -1., 2.];
        let c = [0., 1., -1., 2.];
        let polygon = clip_triangle([a, b, c], true);
        assert_eq!(polygon.vertices().len(), 3);
        let [v0, v1, v2] = [0, 1, 2].map(|i| polygon.vertices()[i]);
        assert_eq!(v0.position, a);
        assert_eq!(v1.position, [0.5, 0., 0., 2.]);
        assert_eq!(v1.weights, [0.5, 0.5, 0.]);
        assert_eq!(v2.position, [0., 0.5, 0., 2.]);
        assert_eq!(v2.weights, [0.5, 0., 0.5]);
    }

    #[test]
    fn without_depth_clipping_z_is_not_cut() {
        let tri = [[0., 0., -5., 1.], [0.5, 0., 7., 1.], [0., 0.5, 0.5, 1.]];
        assert_eq!(positions(&clip_triangle(tri, false)), tri.to_vec());
        assert!(clip_triangle(tri, true).vertices().len() > 3);
    }

    #[test]
    fn the_far_plane_cuts_at_z_equal_w() {
        // z/w runs from 0.5 at a to 1.5 at b and c: the far plane cuts a's edges half way
        let a = [0., 0., 0.5, 1.];
        let b = [0.5, 0., 1.5, 1.];
        let c = [0., 0.5, 1.5, 1.];
        let polygon = clip_triangle([a, b, c], true);
        let kept = positions(&polygon);
        assert_eq!(kept, vec![a, [0.25, 0., 1., 1.], [0., 0.25, 1., 1.]]);
    }

    #[test]
    fn each_side_plane_cuts_exactly_on_its_edge() {
        // one vertex 1.5 past each side (w = 1), the others inside: the cut lands exactly on x or y = +-w
        for (outside, coordinate, edge) in [
            ([1.5f32, 0., 0.5, 1.], 0usize, 1f32),
            ([-1.5, 0., 0.5, 1.], 0, -1.),
            ([0., 1.5, 0.5, 1.], 1, 1.),
            ([0., -1.5, 0.5, 1.], 1, -1.),
        ] {
            let polygon = clip_triangle([[0., 0., 0.5, 1.], outside, [0.25, -0.25, 0.5, 1.]], true);
            let cuts: Vec<&ClipVertex> = polygon.vertices().iter().filter(|v| v.weights[1] > 0.).collect();
            assert_eq!(cuts.len(), 2, "{outside:?}: {polygon:?}");
            for v in cuts {
                assert_eq!(v.position[coordinate], edge, "{outside:?}: {v:?}");
                assert!(v.weights[1] < 1.);
            }
        }
    }

    #[test]
    fn a_shared_edge_is_cut_at_the_same_point_from_either_side() {
        // triangles (a, b, c) and (b, a, d) share the edge a-b, which crosses x = w (b is past it); each walks the
        // edge in the other direction, and the cut must be the same point to the bit, or the two would leave a gap
        // or overlap on screen
        let a = [0.3f32, 0.1, 0.5, 1.1];
        let b = [2.7f32, -0.2, 0.25, 0.9];
        let c = [0.1f32, 0.8, 0.5, 1.];
        let d = [0.2f32, -0.9, 0.5, 1.3];
        // the vertex on a-b has weight on a and b only (vertex 2 is c or d)
        let cut_of_ab = |p: &Polygon| -> Vec<[u32; 4]> {
            p.vertices()
                .iter()
                .filter(|v| v.weights[2] == 0. && v.weights[0] > 0. && v.weights[1] > 0.)
                .map(|v| v.position.map(f32::to_bits))
                .collect()
        };
        let first = cut_of_ab(&clip_triangle([a, b, c], true));
        let second = cut_of_ab(&clip_triangle([b, a, d], true));
        assert_eq!(first.len(), 1);
        assert_eq!(first, second);
        let [x, _, _, w] = first[0].map(f32::from_bits);
        assert_eq!(x, w);
    }

    #[test]
    fn a_triangle_wholly_outside_one_plane_is_clipped_away() {
        let tri = [[2., 0., 0.5, 1.], [3., 1., 0.5, 1.], [2.5, -1., 0.5, 1.]];
        assert!(clip_triangle(tri, true).vertices().is_empty());
        // behind the eye: w < 0 everywhere fails x <= w or x >= -w
        let behind = [[0., 0., 0.5, -1.], [0.1, 0., 0.5, -1.], [0., 0.1, 0.5, -1.]];
        assert!(clip_triangle(behind, false).vertices().is_empty());
    }

    #[test]
    fn a_vertex_on_a_plane_is_kept_and_not_cut_again() {
        // c lies exactly on x = w; the edges from it into the outside are not cut a second time at c
        let tri = [[0., 0., 0.5, 1.], [0., 0.5, 0.5, 1.], [1., 0., 0.5, 1.]];
        assert_eq!(positions(&clip_triangle(tri, true)), tri.to_vec());
        // b beyond x = w and c on it: the cut of a-b is new, c is kept once
        let tri = [[0., 0., 0.5, 1.], [2., 0.5, 0.5, 1.], [1., -0.5, 0.5, 1.]];
        let polygon = clip_triangle(tri, true);
        assert_eq!(polygon.vertices().len(), 3, "{polygon:?}");
    }

    #[test]
    fn screen_weights_scale_clip_weights_by_w() {
        // half way between a vertex at w = 1 and one at w = 3 in clip space is a quarter of the way on screen: its
        // screen position is (0.5 * p0 + 0.5 * p1) / 2 = 0.25 * (p0 / 1) + 0.75 * (p1 / 3)
        let v = ClipVertex {
            position: [0.; 4],
            weights: [0.5, 0.5, 0.],
        };
        assert_eq!(v.screen_weights([1., 3., 2.]), [0.25, 0.75, 0.]);
    }
}
