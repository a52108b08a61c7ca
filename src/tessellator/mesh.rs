//! The tessellation being built: domain points in the order they are made, and triangles stitched between two rows of
//! points (11.7.6): a picture frame side between an edge and the inside (11.7.6.1, 11.7.6.2), a side of an interior
//! ring, or the strip at a quad patch's centre.

use super::fixed::{self, Fixed, Parity, Subdivision};

/// Points and indices as they are made.
#[derive(Debug)]
pub(super) struct Mesh {
    /// Domain points `(u, v)` in float32.
    pub(super) points: Vec<[f32; 2]>,
    /// Point indices: one per point, two per line or three per triangle.
    pub(super) indices: Vec<u32>,
    /// Whether triangles keep their clockwise order or are stored counter-clockwise.
    clockwise: bool,
}

impl Mesh {
    /// An empty tessellation whose triangles are stored clockwise or not.
    pub(super) fn new(clockwise: bool) -> Self {
        Mesh {
            points: Vec::new(),
            indices: Vec::new(),
            clockwise,
        }
    }

    /// Adds the point `(u, v)` (fixed point).
    pub(super) fn point(&mut self, u: Fixed, v: Fixed) {
        self.points.push([fixed::to_f32(u), fixed::to_f32(v)]);
    }

    /// Adds the triangle `a, b, c`, given clockwise in the domain (11.5: V is clockwise from U), as `a, b, c` or, for
    /// counter-clockwise output, `a, c, b`.
    pub(super) fn triangle(&mut self, a: u32, b: u32, c: u32) {
        if self.clockwise {
            self.indices.extend([a, b, c]);
        } else {
            self.indices.extend([a, c, b]);
        }
    }

    /// Every point once, in order: point output (11.7.15 allows it with every domain).
    pub(super) fn every_point(&mut self) {
        self.indices = (0..self.points.len()).filter_map(|p| u32::try_from(p).ok()).collect();
    }
}

/// A row of points a stitch walks along: position `k` is the point `first + k` (or `first - k` for a row stored in
/// the opposite direction). The points of a ring are stored once around it, so a row that ends at the ring's start
/// names a point past the ring's last one there: `closes` maps that one index back to the ring's first point.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    /// The index of the row's first point.
    first: i32,
    /// Whether positions count down through the stored points.
    backward: bool,
    /// `(index, replacement)`: an index past a ring's end and the ring's first point.
    closes: Option<(i32, i32)>,
}

impl Row {
    /// The row of points `first, first + 1, ...`.
    pub(super) fn forward(first: i32) -> Self {
        Row {
            first,
            backward: false,
            closes: None,
        }
    }

    /// The row of points `first, first - 1, ...`.
    pub(super) fn backward(first: i32) -> Self {
        Row {
            first,
            backward: true,
            closes: None,
        }
    }

    /// The same row, its point at `past_end` being the ring's first point `ring_start` instead.
    pub(super) fn closing(self, past_end: i32, ring_start: i32) -> Self {
        Row {
            closes: Some((past_end, ring_start)),
            ..self
        }
    }

    /// The index of the point at `position`.
    fn at(&self, position: i32) -> u32 {
        let index = if self.backward {
            self.first.wrapping_sub(position)
        } else {
            self.first.wrapping_add(position)
        };
        let index = match self.closes {
            Some((past_end, ring_start)) if index == past_end => ring_start,
            _ => index,
        };
        // rows stay inside the points made (tests check every index against the point count)
        u32::try_from(index).unwrap_or(u32::MAX)
    }
}

/// How the quads of a regular stitch (rows of equal spacing) are cut into triangles (11.7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Diagonals {
    /// Every quad's diagonal runs from its inside point to the next outside point.
    InsideToOutside,
    /// As [`Diagonals::InsideToOutside`], but the middle quad's runs from its outside point to the next inside point
    /// (the centre of a quad patch with an odd inside factor).
    InsideToOutsideExceptMiddle,
    /// The first half of the quads' diagonals run from the outside point to the next inside point, the second half's
    /// from the inside point to the next outside point: each points towards the nearer end, the corner (11.7.6).
    Mirrored,
}

/// One of the four points of the quad at a stitch's current positions.
#[derive(Clone, Copy, Debug)]
enum Corner {
    /// The inside row's current point.
    Inside,
    /// The inside row's next point.
    InsideNext,
    /// The outside row's current point.
    Outside,
    /// The outside row's next point.
    OutsideNext,
}

use Corner::{Inside, InsideNext, Outside, OutsideNext};

/// A walk along two rows of points, adding triangles between them.
struct Stitch<'a> {
    /// Where the triangles go.
    mesh: &'a mut Mesh,
    /// The inner row (nearer the patch centre).
    inside: Row,
    /// The outer row.
    outside: Row,
    /// The current position on the inside row.
    inside_at: i32,
    /// The current position on the outside row.
    outside_at: i32,
}

impl Stitch<'_> {
    /// The index of `corner`.
    fn index(&self, corner: Corner) -> u32 {
        match corner {
            Inside => self.inside.at(self.inside_at),
            InsideNext => self.inside.at(self.inside_at.wrapping_add(1)),
            Outside => self.outside.at(self.outside_at),
            OutsideNext => self.outside.at(self.outside_at.wrapping_add(1)),
        }
    }

    /// Adds the clockwise triangle of three corners.
    fn triangle(&mut self, [a, b, c]: [Corner; 3]) {
        let (a, b, c) = (self.index(a), self.index(b), self.index(c));
        self.mesh.triangle(a, b, c);
    }

    /// Adds two triangles (a quad cut by a diagonal) and steps both rows on.
    fn quad(&mut self, first: [Corner; 3], second: [Corner; 3]) {
        self.triangle(first);
        self.triangle(second);
        self.step_inside();
        self.step_outside();
    }

    /// The triangle with a side on the outside row, then a step along that row.
    fn advance_outside(&mut self) {
        self.triangle([Outside, OutsideNext, Inside]);
        self.step_outside();
    }

    /// The triangle with a side on the inside row, then a step along that row.
    fn advance_inside(&mut self) {
        self.triangle([Inside, Outside, InsideNext]);
        self.step_inside();
    }

    /// One position on along the inside row.
    fn step_inside(&mut self) {
        self.inside_at = self.inside_at.wrapping_add(1);
    }

    /// One position on along the outside row.
    fn step_outside(&mut self) {
        self.outside_at = self.outside_at.wrapping_add(1);
    }
}

/// Where each of the 33 points of a half axis lands at the largest factor, in the order the ruler function splits
/// them in (11.7.5): point `i` exists on a half axis of `n` points when its final position is below `n`. Walking the
/// table in order tells when a transition advances along the inside and when along the outside row.
const RULER_ORDER: [i32; 33] = [
    0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3, 28, 14, 29, 7, 30,
    15, 31,
];

impl Mesh {
    /// Triangles between two rows of the same spacing (11.7.6): `inside_points` points on the inside row, and one more
    /// on the outside row for a `trapezoid` (a ring side, whose outside row also has a triangle at each end) or the same
    /// number plus none (a strip).
    pub(super) fn stitch_regular(
        &mut self,
        trapezoid: bool,
        diagonals: Diagonals,
        inside_points: i32,
        inside: Row,
        outside: Row,
    ) {
        let mut stitch = Stitch {
            mesh: self,
            inside,
            outside,
            inside_at: 0,
            outside_at: 0,
        };
        if trapezoid {
            stitch.advance_outside();
        }
        let quads = inside_points.saturating_sub(1).max(0);
        // the diagonal from the outside point to the next inside one, and the one from the inside point to the next
        // outside one, in the vertex orders each pattern uses
        let outward = ([Outside, InsideNext, Inside], [Outside, OutsideNext, InsideNext]);
        let inward = ([Inside, Outside, OutsideNext], [Inside, OutsideNext, InsideNext]);
        let inward_from_outside = ([Outside, OutsideNext, Inside], [Inside, OutsideNext, InsideNext]);
        match diagonals {
            Diagonals::InsideToOutside => {
                for _ in 0..quads {
                    stitch.quad(inward.0, inward.1);
                }
            }
            Diagonals::InsideToOutsideExceptMiddle => {
                let first_half = (inside_points / 2).saturating_sub(1).max(0);
                for _ in 0..first_half {
                    stitch.quad(inward_from_outside.0, inward_from_outside.1);
                }
                stitch.quad(outward.0, outward.1);
                for _ in first_half.saturating_add(2)..inside_points {
                    stitch.quad(inward_from_outside.0, inward_from_outside.1);
                }
            }
            Diagonals::Mirrored => {
                let first_half = inside_points / 2;
                for _ in 0..first_half {
                    stitch.quad(outward.0, outward.1);
                }
                for _ in first_half..quads {
                    stitch.quad(inward.0, inward.1);
                }
            }
        }
        if trapezoid {
            stitch.advance_outside();
        }
    }

    /// Triangles between an outside edge and the inside rows of different factors (11.7.6.1, 11.7.6.2): each point
    /// of the denser row connects to its parent on the sparser one, as the ruler function split it. The walk goes up
    /// the split order over the first half, crosses the middle, and comes back down it over the second half.
    pub(super) fn stitch_transition(
        &mut self,
        inside: Row,
        inside_division: &Subdivision,
        outside: Row,
        outside_division: &Subdivision,
    ) {
        // half-axis points excluding the one an odd division has at its middle segment's start
        let half_points = |division: &Subdivision| match division.parity {
            Parity::Odd => division.half_points.wrapping_sub(1),
            Parity::Even => division.half_points,
        };
        let inside_half = half_points(inside_division);
        let outside_half = half_points(outside_division);
        let mut stitch = Stitch {
            mesh: self,
            inside,
            outside,
            inside_at: 0,
            outside_at: 0,
        };
        let (corner, split_order) = RULER_ORDER.split_first().unwrap_or((&0, &[]));
        if *corner < outside_half {
            stitch.advance_outside();
        }
        for &position in split_order {
            if position < inside_half {
                stitch.advance_inside();
            }
            if position < outside_half {
                stitch.advance_outside();
            }
        }
        match (inside_division.parity, outside_division.parity) {
            (Parity::Odd, Parity::Odd) => {
                // both rows have a segment at the middle: a quad
                stitch.quad([Inside, Outside, InsideNext], [InsideNext, Outside, OutsideNext]);
            }
            (Parity::Even, Parity::Odd) => {
                // the inside has a point at the middle, the outside a segment: a triangle pointing in
                stitch.triangle([Inside, Outside, OutsideNext]);
                stitch.step_outside();
            }
            (Parity::Odd, Parity::Even) => {
                // a triangle pointing out
                stitch.advance_inside();
            }
            (Parity::Even, Parity::Even) => {}
        }
        for &position in split_order.iter().rev() {
            if position < outside_half {
                stitch.advance_outside();
            }
            if position < inside_half {
                stitch.advance_inside();
            }
        }
        if *corner < outside_half {
            stitch.advance_outside();
        }
    }
}
