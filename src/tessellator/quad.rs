//! The quad domain (10.10.3, 11.7): an outer ring of points along the four edges, clockwise from `(0, 1)` down the
//! U == 0 edge, then the interior rings spiralling in, then, when the inside factors leave one, a row of points or a
//! strip of quads at the centre.

use super::factors::{Factor, PatchFactors};
use super::fixed::{self, Fixed, Parity, Subdivision};
use super::mesh::{Diagonals, Mesh, Row};

/// The four edges' and two inside axes' divisions of a patch that is not culled.
struct Quad {
    /// The U == 0, V == 0, U == 1, V == 1 edges' divisions.
    edges: [Subdivision; 4],
    /// The U and V inside divisions.
    inside: [Subdivision; 2],
    /// Points along each inside axis: at least 3 (even) or 4 (odd), so that a transition is never empty.
    inside_points: [i32; 2],
}

/// Tessellates a quad patch of `factors` into `mesh`; `triangles` adds the connectivity (else the caller lists the
/// points).
pub(super) fn tessellate(factors: &PatchFactors<4, 2>, mesh: &mut Mesh, triangles: bool) {
    if factors.is_minimal() {
        // every factor 1: the patch's corners and two triangles
        for (u, v) in [(0, 0), (fixed::ONE, 0), (fixed::ONE, fixed::ONE), (0, fixed::ONE)] {
            mesh.point(u, v);
        }
        if triangles {
            mesh.triangle(0, 1, 3);
            mesh.triangle(1, 2, 3);
        }
        return;
    }
    let quad = Quad::new(factors);
    quad.points(mesh);
    if triangles {
        quad.connect(mesh);
    }
}

/// The point `(u, v)` with `along` the coordinate along `axis` (0 for U) and `across` the other.
fn on_axis(mesh: &mut Mesh, axis: usize, along: Fixed, across: Fixed) {
    if axis == 0 {
        mesh.point(along, across);
    } else {
        mesh.point(across, along);
    }
}

impl Quad {
    /// The divisions of `factors`.
    fn new(factors: &PatchFactors<4, 2>) -> Self {
        let edges = factors.edges.map(Factor::subdivision);
        let inside = factors.inside.map(Factor::subdivision);
        let inside_points = inside.map(|division| {
            let least = if division.parity == Parity::Odd { 4 } else { 3 };
            division.points.max(least)
        });
        Quad {
            edges,
            inside,
            inside_points,
        }
    }

    /// The inside division and point count of `axis` (0 for U, 1 for V).
    fn axis(&self, axis: usize) -> (&Subdivision, i32) {
        let division = if axis == 0 { &self.inside[0] } else { &self.inside[1] };
        let points = if axis == 0 {
            self.inside_points[0]
        } else {
            self.inside_points[1]
        };
        (division, points)
    }

    /// Adds every point: outer ring, interior rings, centre row.
    #[allow(clippy::arithmetic_side_effects)] // counts and positions are at most 65 (factors are clamped to 64)
    fn points(&self, mesh: &mut Mesh) {
        // the outer ring: down U == 0, along V == 0, up U == 1, back along V == 1, each edge without its last point
        for (edge, division) in self.edges.iter().enumerate() {
            let last = division.points - 1;
            for p in 0..last {
                let reversed = edge == 0 || edge == 3;
                let along = division.place(if reversed { last - p } else { p });
                match edge {
                    0 => mesh.point(0, along),
                    1 => mesh.point(along, 0),
                    2 => mesh.point(fixed::ONE, along),
                    _ => mesh.point(along, fixed::ONE),
                }
            }
        }
        let [u_points, v_points] = self.inside_points;
        let rings = u_points.min(v_points) / 2;
        for ring in 1..rings {
            // the ring's sides, in the outer ring's order; side `edge` runs along axis (edge + 1) % 2 at a fixed
            // position on the other axis, its first or its last point of the ring
            for edge in 0..4 {
                let across_axis = edge % 2;
                let along_axis = (edge + 1) % 2;
                let (across_division, across_points) = self.axis(across_axis);
                let (along_division, along_points) = self.axis(along_axis);
                let across_point = if edge < 2 { ring } else { across_points - 1 - ring };
                let across = across_division.place(across_point);
                let end = along_points - 1 - ring;
                for p in ring..end {
                    let reversed = edge == 0 || edge == 3;
                    let along = along_division.place(if reversed { end - (p - ring) } else { p });
                    on_axis(mesh, along_axis, along, across);
                }
            }
        }
        // an even axis leaves a row of points along the other axis's middle
        let (u_division, _) = self.axis(0);
        let (v_division, _) = self.axis(1);
        if u_points > v_points && v_division.parity == Parity::Even {
            for p in rings..=u_points - 1 - rings {
                mesh.point(u_division.place(p), fixed::HALF);
            }
        } else if v_points >= u_points && u_division.parity == Parity::Even {
            for p in (rings..=v_points - 1 - rings).rev() {
                mesh.point(fixed::HALF, v_division.place(p));
            }
        }
    }

    /// Adds the triangles: the picture frame (11.7.6.1), the interior rings, the centre strip.
    #[allow(clippy::arithmetic_side_effects)] // counts and indices are at most 65 and 65 * 65 (factors are clamped)
    fn connect(&self, mesh: &mut Mesh) {
        let [u_points, v_points] = self.inside_points;
        let rows_to_centre = [(u_points + 1) / 2, (v_points + 1) / 2];
        let rings = rows_to_centre[0].min(rows_to_centre[1]);
        // An even axis's innermost ring is a single row of points (along the other axis): its sides along that axis
        // walk the row forward and back. Indexed by the axis a side runs along.
        let degenerate_ring = [
            if self.inside[1].parity == Parity::Even {
                rows_to_centre[1] - 1
            } else {
                -1
            },
            if self.inside[0].parity == Parity::Even {
                rows_to_centre[0] - 1
            } else {
                -1
            },
        ];
        let mut outside_points = self.edges.map(|division| division.points);
        let mut inside_start: i32 = outside_points.iter().sum::<i32>() - 4;
        let mut outside_start = 0;
        for ring in 1..rings {
            let ring_inside_start = inside_start;
            let ring_outside_start = outside_start;
            for (edge, outside_count) in outside_points.iter_mut().enumerate() {
                let along_axis = (edge + 1) % 2;
                let (along_division, along_points) = self.axis(along_axis);
                let inside_count = along_points - 2 * ring;
                let degenerate = degenerate_ring.get(along_axis) == Some(&ring);
                let outside_past_end = outside_start + *outside_count - 1;
                let (inside, outside) = match (edge, degenerate) {
                    // the last side ends where the ring started
                    (3, false) => (
                        Row::forward(inside_start).closing(inside_start + inside_count - 1, ring_inside_start),
                        Row::forward(outside_start).closing(outside_past_end, ring_outside_start),
                    ),
                    (3, true) => (
                        Row::backward(inside_start),
                        Row::forward(outside_start).closing(outside_past_end, ring_outside_start),
                    ),
                    (2, true) => (Row::backward(inside_start), Row::forward(outside_start)),
                    _ => (Row::forward(inside_start), Row::forward(outside_start)),
                };
                if ring == 1 {
                    let edge_division = self.edges.get(edge).unwrap_or(along_division);
                    mesh.stitch_transition(inside, along_division, outside, edge_division);
                } else {
                    mesh.stitch_regular(true, Diagonals::Mirrored, inside_count, inside, outside);
                }
                outside_start += *outside_count - 1;
                if edge == 2 && degenerate {
                    inside_start -= inside_count - 1;
                } else {
                    inside_start += inside_count - 1;
                }
                *outside_count = inside_count;
            }
        }
        // What the rings leave at the centre when an axis is odd: a strip of quads along the longer axis, between
        // the two sides of the last ring (its points run out along one side and back along the other).
        let (u_division, _) = self.axis(0);
        let (v_division, _) = self.axis(1);
        let centre = outside_start;
        if u_points > v_points && v_division.parity == Parity::Odd {
            let quads = ((u_points / 2 - v_points / 2) * 2) + if u_division.parity == Parity::Even { 2 } else { 1 };
            let back_end = centre + 2 * quads + 2;
            mesh.stitch_regular(
                false,
                Diagonals::InsideToOutside,
                quads + 1,
                Row::backward(back_end).closing(back_end, centre),
                Row::forward(centre + 1),
            );
        } else if v_points >= u_points && u_division.parity == Parity::Odd {
            let quads = ((v_points / 2 - u_points / 2) * 2) + if v_division.parity == Parity::Even { 2 } else { 1 };
            let diagonals = if v_division.parity == Parity::Even {
                Diagonals::InsideToOutside
            } else {
                Diagonals::InsideToOutsideExceptMiddle
            };
            mesh.stitch_regular(
                false,
                diagonals,
                quads + 1,
                Row::backward(centre + 2 * quads + 1),
                Row::forward(centre),
            );
        }
    }
}
