//! How near a pixel centre lies to a triangle's edges, measured as the ambiguity mask measures it
//! ([`crate::draw::ambiguity`]): edge functions on the 16.8-snapped screen positions (15.16) and on the positions
//! before snapping, for each fan triangle of the clipped polygon that reaches coverage.

use crate::draw::PreparedDraw;
use crate::raster::{Rasterizer, Triangle, TriangleFate, snap};
use crate::{Result, draw::VertexRecord};
use serde::Serialize;

/// The edge of a triangle nearest a pixel centre.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EdgeProximity {
    /// The triangle's place among the draw's triangles (over all instances, in drawing order).
    pub primitive: u64,
    /// The edge's two ends: vertices of the clipped polygon, which are the triangle's corners (provoking vertex 0)
    /// when clipping left it whole.
    pub edge: [usize; 2],
    /// Whether clipping cut the triangle (the ends are then the polygon's).
    pub clipped: bool,
    /// The centre's distance from the snapped edge in pixels, positive inside the triangle.
    pub distance: f64,
    /// The same from the edge before snapping.
    pub unsnapped_distance: f64,
    /// Whether moving the centre or the edge by one 1/256 step reaches the edge (`|E| <= max(|dx|, |dy|)`).
    pub within_step: bool,
    /// Whether snapping moved the edge across the centre (the two distances have opposite signs).
    pub crossed: bool,
    /// Whether the pixel's coverage by the triangle depends on rounding at this edge (the ambiguity mask's rule:
    /// `within_step` or `crossed`, and the centre inside or within one step of the two other edges).
    pub ambiguous: bool,
}

/// Twice the signed area of `a`, `b`, `p` (edge function), exact in f64 for 16.8 positions and centres (products
/// below 2^50).
fn edge_function(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// The edge of `triangle` (primitive `primitive`) nearest pixel (`x`, `y`)'s centre among the fan triangles that
/// reach coverage, preferring an ambiguous one; `None` when no fan triangle reaches coverage. Only edges of the
/// clipped polygon count, not the diagonals between its fan triangles.
pub fn nearest_edge(triangle: &Triangle, raster: &Rasterizer, x: u32, y: u32, primitive: u64) -> Option<EdgeProximity> {
    let vertices = triangle.polygon().vertices();
    let screen: Vec<[f32; 3]> = vertices
        .iter()
        .map(|v| raster.viewport().to_screen(v.position))
        .collect();
    let centre = [f64::from(x) * 256. + 128., f64::from(y) * 256. + 128.];
    let clipped = vertices.len() != 3;
    let mut best: Option<EdgeProximity> = None;
    let fixed_of = |k: usize| {
        [0, k, k.saturating_add(1)].map(|i| {
            let [sx, sy, _] = screen.get(i).copied().unwrap_or_default();
            [snap(sx), snap(sy)]
        })
    };
    let last = vertices.len().saturating_sub(1);
    // fan triangle k reaches coverage exactly when the rasterizer kept a part of its snapped corners
    let drawn = |k: usize| k >= 1 && k < last && triangle.parts().iter().any(|p| p.snapped() == fixed_of(k));
    for k in 1..last {
        let ids = [0, k, k.saturating_add(1)];
        let corners = ids.map(|i| screen.get(i).copied().unwrap_or_default());
        let fixed = fixed_of(k);
        if !drawn(k) {
            continue;
        }
        let snapped = fixed.map(|[fx, fy]| [fx as f64, fy as f64]);
        let exact = corners.map(|[sx, sy, _]| [f64::from(sx) * 256., f64::from(sy) * 256.]);
        let [s0, s1, s2] = snapped;
        let order: [(usize, usize); 3] = if edge_function(s0, s1, s2) > 0. {
            [(0, 1), (1, 2), (2, 0)]
        } else {
            [(0, 2), (2, 1), (1, 0)]
        };
        let at = |points: &[[f64; 2]; 3], i: usize| points.get(i).copied().unwrap_or_default();
        let values = order.map(|(a, b)| edge_function(at(&snapped, a), at(&snapped, b), centre));
        let steps = order.map(|(a, b)| {
            let (pa, pb) = (at(&snapped, a), at(&snapped, b));
            (pb[0] - pa[0]).abs().max((pb[1] - pa[1]).abs())
        });
        let near = values.iter().zip(&steps).all(|(v, s)| *v >= -s);
        for (e, &(a, b)) in order.iter().enumerate() {
            // the diagonal shared with a neighbouring fan triangle that reaches coverage is not an edge of the
            // polygon: a centre on it is covered by one of the two whatever the rounding (crate::draw::ambiguity)
            let inner = match (a.min(b), a.max(b)) {
                (0, 1) => drawn(k.saturating_sub(1)),
                (0, 2) => drawn(k.saturating_add(1)),
                _ => false,
            };
            if inner {
                continue;
            }
            let (pa, pb) = (at(&snapped, a), at(&snapped, b));
            let (ua, ub) = (at(&exact, a), at(&exact, b));
            let value = values.get(e).copied().unwrap_or(0.);
            let step = steps.get(e).copied().unwrap_or(0.);
            let length = (pb[0] - pa[0]).hypot(pb[1] - pa[1]);
            let unsnapped_value = edge_function(ua, ub, centre);
            let unsnapped_length = (ub[0] - ua[0]).hypot(ub[1] - ua[1]);
            if length <= 0. {
                continue;
            }
            let within_step = value.abs() <= step;
            let crossed = unsnapped_value != 0. && (unsnapped_value > 0.) != (value > 0.);
            let candidate = EdgeProximity {
                primitive,
                edge: [ids.get(a).copied().unwrap_or(0), ids.get(b).copied().unwrap_or(0)],
                clipped,
                distance: value / length / 256.,
                unsnapped_distance: if unsnapped_length > 0. {
                    unsnapped_value / unsnapped_length / 256.
                } else {
                    0.
                },
                within_step,
                crossed,
                ambiguous: near && (within_step || crossed),
            };
            let better = match &best {
                None => true,
                Some(current) => {
                    (candidate.ambiguous, -candidate.distance.abs()) > (current.ambiguous, -current.distance.abs())
                }
            };
            if better {
                best = Some(candidate);
            }
        }
    }
    best
}

/// The triangle of a fragment's vertices, as the draw set it up (the same positions give the same triangle).
pub fn triangle_of(raster: &Rasterizer, vertices: &[VertexRecord; 3]) -> Triangle {
    raster.triangle([0, 1, 2].map(|i| vertices.get(i).map(|v| v.position).unwrap_or_default()))
}

/// The triangles of the draw, other than those in `skip`, whose coverage of pixel (`x`, `y`) depends on rounding at
/// an edge, with that edge: the triangles that might have covered the pixel on another rasterizer. The positions are
/// the draw's shaded vertices ([`PreparedDraw::triangles_near`]).
pub fn ambiguous_neighbours(draw: &mut PreparedDraw<'_>, x: u32, y: u32, skip: &[u64]) -> Result<Vec<EdgeProximity>> {
    let mut found = Vec::new();
    // points and lines have no ambiguous edges (the mask's rule is a triangle's); a triangle whose bounds miss the
    // pixel by two pixels is not ambiguous there
    for (primitive_index, corners) in draw.triangles_near(x, y)? {
        if skip.contains(&primitive_index) {
            continue;
        }
        let triangle = draw.rasterizer().triangle(corners);
        if triangle.fate() != TriangleFate::Rasterized {
            continue;
        }
        if let Some(edge) = nearest_edge(&triangle, draw.rasterizer(), x, y, primitive_index)
            && edge.ambiguous
        {
            found.push(edge);
        }
    }
    Ok(found)
}
