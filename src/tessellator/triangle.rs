//! The triangle domain (10.10.2, 11.7): an outer ring of points along the three edges, clockwise from `V == 1` down
//! the U == 0 edge, then the interior rings spiralling in, then the centre: a point (even inside factor) or a
//! triangle (odd). A point's third coordinate is `w = 1 - u - v`.

use super::factors::{Factor, PatchFactors};
use super::fixed::{self, Parity, Subdivision};
use super::mesh::{Diagonals, Mesh, Row};

/// Tessellates a triangle patch of `factors` into `mesh`; `triangles` adds the connectivity (else the caller lists the
/// points).
pub(super) fn tessellate(factors: &PatchFactors<3, 1>, mesh: &mut Mesh, triangles: bool) {
    if factors.is_minimal() {
        // every factor 1: the corners V, W, U (each edge's start) and one triangle
        mesh.point(0, fixed::ONE);
        mesh.point(0, 0);
        mesh.point(fixed::ONE, 0);
        if triangles {
            mesh.triangle(0, 1, 2);
        }
        return;
    }
    let edges = factors.edges.map(Factor::subdivision);
    let [inside] = factors.inside.map(Factor::subdivision);
    let least = if inside.parity == Parity::Odd { 4 } else { 3 };
    let inside_points = inside.points.max(least);
    points(&edges, &inside, inside_points, mesh);
    if triangles {
        connect(&edges, &inside, inside_points, mesh);
    }
}

/// Adds every point: the outer ring, the interior rings, the centre point of an even inside division.
#[allow(clippy::arithmetic_side_effects)] // counts and positions are at most 65; the fixed-point values are at most 1
fn points(edges: &[Subdivision; 3], inside: &Subdivision, inside_points: i32, mesh: &mut Mesh) {
    // U == 0 from V = 1 down to V = 0, V == 0 from U = 0 up to U = 1, W == 0 from U = 1 back down to U = 0
    for (edge, division) in edges.iter().enumerate() {
        let last = division.points - 1;
        for p in 0..last {
            let along = division.place(if edge == 1 { p } else { last - p });
            match edge {
                0 => mesh.point(0, along),
                1 => mesh.point(along, 0),
                _ => mesh.point(along, fixed::ONE.wrapping_sub(along)),
            }
        }
    }
    let rings = inside_points / 2;
    for ring in 1..rings {
        let end = inside_points - 1 - ring;
        // the ring's distance in from each edge, in the barycentric coordinate that is constant along it
        let inward = fixed::two_thirds_of(inside.place(ring));
        // a point moved in by `inward` moves along the edge by half as much
        let shift = inward.wrapping_add(1) / 2;
        for edge in 0..3 {
            for p in ring..end {
                let along = inside
                    .place(if edge == 1 { p } else { end - (p - ring) })
                    .wrapping_sub(shift);
                match edge {
                    0 => mesh.point(inward, along),
                    1 => mesh.point(along, inward),
                    _ => mesh.point(along, fixed::ONE.wrapping_sub(along).wrapping_sub(inward)),
                }
            }
        }
    }
    if inside.parity == Parity::Even {
        mesh.point(fixed::ONE_THIRD, fixed::ONE_THIRD);
    }
}

/// Adds the triangles: the picture frame (11.7.6.1), the interior rings, the centre triangle of an odd division.
#[allow(clippy::arithmetic_side_effects)] // counts and indices are at most 65 and 65 * 65 (factors are clamped)
fn connect(edges: &[Subdivision; 3], inside: &Subdivision, inside_points: i32, mesh: &mut Mesh) {
    let rings = (inside_points + 1) / 2;
    let mut outside_points = edges.map(|division| division.points);
    let mut inside_start: i32 = outside_points.iter().sum::<i32>() - 3;
    let mut outside_start = 0;
    for ring in 1..rings {
        let inside_count = inside_points - 2 * ring;
        let ring_inside_start = inside_start;
        let ring_outside_start = outside_start;
        for (edge, outside_count) in outside_points.iter_mut().enumerate() {
            let (inside_row, outside_row) = if edge == 2 {
                // the last side ends where the ring started
                (
                    Row::forward(inside_start).closing(inside_start + inside_count - 1, ring_inside_start),
                    Row::forward(outside_start).closing(outside_start + *outside_count - 1, ring_outside_start),
                )
            } else {
                (Row::forward(inside_start), Row::forward(outside_start))
            };
            if ring == 1 {
                let edge_division = edges.get(edge).unwrap_or(inside);
                mesh.stitch_transition(inside_row, inside, outside_row, edge_division);
            } else {
                mesh.stitch_regular(true, Diagonals::Mirrored, inside_count, inside_row, outside_row);
            }
            outside_start += *outside_count - 1;
            inside_start += inside_count - 1;
            *outside_count = inside_count;
        }
    }
    if inside.parity == Parity::Odd {
        // the centre triangle: the last ring's three points
        let corner = |offset: i32| u32::try_from(outside_start + offset).unwrap_or(u32::MAX);
        mesh.triangle(corner(0), corner(1), corner(2));
    }
}
