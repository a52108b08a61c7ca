//! Coverage of lines and points on snapped screen positions (16.8 fixed point, 1/256 pixel units, as [`super::snap`]
//! gives them), exact in integers:
//!
//! - **Aliased lines (3.4.3).** A line covers a pixel when, travelling from its start to its end, it *exits* the
//!   pixel's diamond test area: the diamond whose corners lie half a pixel left, right, above and below the pixel's
//!   centre (`|dx| + |dy| <= 1/2`). For an x-major line (`-1 <= slope <= 1`, `|Δy| <= |Δx|`; y is down) the diamond
//!   holds its lower-left and lower-right edges and its bottom corner, not its upper edges nor its top, left and right
//!   corners; for a y-major line it also holds its right corner. "Exits" is read as OpenGL's diamond-exit rule, which
//!   3.4.3's figure draws: the segment meets the diamond and its end is not in it, so a line's last pixel is left to
//!   the next line of a strip and a line that starts and ends in one diamond draws nothing. A zero-length line draws
//!   nothing.
//! - **Points (3.4.6).** A square of width 1 centred on the point, covered by the triangle rules (3.4.2) as two
//!   triangles: a sample is covered when it lies in the square, its left and top edges included (top-left rule), its
//!   right and bottom edges not. The square's corners are snapped like any vertex (3.4.1: primitives are expanded
//!   before snapping).
//! - **Quadrilateral lines (3.4.5).** With `MultisampleEnable`, a line is a rectangle 1.4 pixels wide with the line's
//!   ends at the middles of its short sides, drawn as two triangles under the triangle rules.
//!
//! Where along a line a pixel's attributes are evaluated the spec does not say for aliased lines (15.14.1 says only
//! that they vary along the length and not across it); [`AliasedLine::parameter`] takes the pixel centre's coordinate
//! on the line's major axis, which is what the real D3D11 of `fixtures/lines/README.md` measures to 1e-4.

use super::PixelRect;

/// Half a pixel in 1/256 pixel units.
const HALF: i64 = 128;
/// One pixel in 1/256 pixel units.
const PIXEL: i64 = 256;

/// Whether a line is x-major (`|Δy| <= |Δx|`, slope in [-1, 1]) or y-major, which decides its diamonds' right corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineMajor {
    /// `-1 <= slope <= 1`.
    X,
    /// Every other slope.
    Y,
}

/// A bound on a segment's parameter `t`: the fraction `num / den` (den > 0), and whether `t` may equal it.
#[derive(Clone, Copy, Debug)]
struct Bound {
    num: i128,
    den: i128,
    closed: bool,
}

impl Bound {
    /// `self` compared with `other` as fractions.
    fn cmp(&self, other: &Bound) -> std::cmp::Ordering {
        let left = self.num.saturating_mul(other.den);
        let right = other.num.saturating_mul(self.den);
        left.cmp(&right)
    }
}

/// An aliased line between two snapped screen positions, x and y in 1/256 pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AliasedLine {
    start: [i64; 2],
    end: [i64; 2],
    major: LineMajor,
}

/// The centre of pixel (`x`, `y`) in 1/256 pixels.
fn centre(x: i64, y: i64) -> [i64; 2] {
    [
        x.saturating_mul(PIXEL).saturating_add(HALF),
        y.saturating_mul(PIXEL).saturating_add(HALF),
    ]
}

impl AliasedLine {
    /// The line from `start` to `end`; `None` when they are the same point (a zero-length line draws nothing).
    pub fn new(start: [i64; 2], end: [i64; 2]) -> Option<Self> {
        if start == end {
            return None;
        }
        let dx = end[0].saturating_sub(start[0]).saturating_abs();
        let dy = end[1].saturating_sub(start[1]).saturating_abs();
        let major = if dy <= dx { LineMajor::X } else { LineMajor::Y };
        Some(Self { start, end, major })
    }

    /// Whether the line is x-major or y-major.
    pub fn major(&self) -> LineMajor {
        self.major
    }

    /// The snapped start and end.
    pub fn ends(&self) -> [[i64; 2]; 2] {
        [self.start, self.end]
    }

    /// Whether `point` lies in the diamond test area of pixel (`x`, `y`) for this line's major axis.
    #[allow(clippy::arithmetic_side_effects)] // every value is an i64 widened to i128: sums of two products fit
    fn in_diamond(&self, point: [i64; 2], x: i64, y: i64) -> bool {
        let [cx, cy] = centre(x, y);
        let dx = i128::from(point[0]) - i128::from(cx);
        let dy = i128::from(point[1]) - i128::from(cy);
        let half = i128::from(HALF);
        let inside = dx + dy <= half && dy - dx <= half && dx - dy < half && -dx - dy < half;
        inside || (self.major == LineMajor::Y && dx == half && dy == 0)
    }

    /// Whether the segment meets the diamond of pixel (`x`, `y`): the parameters `t` in [0, 1] of the points inside
    /// each of its four edges' half planes (closed on the lower edges, open on the upper ones) overlap; or, for a
    /// y-major line, it passes through the diamond's right corner.
    #[allow(clippy::arithmetic_side_effects)] // every value is an i64 widened to i128: sums of two products fit
    fn meets_diamond(&self, x: i64, y: i64) -> bool {
        let [cx, cy] = centre(x, y);
        let a = [
            i128::from(self.start[0]) - i128::from(cx),
            i128::from(self.start[1]) - i128::from(cy),
        ];
        let d = [
            i128::from(self.end[0]) - i128::from(self.start[0]),
            i128::from(self.end[1]) - i128::from(self.start[1]),
        ];
        let half = i128::from(HALF);
        let mut low = Bound {
            num: 0,
            den: 1,
            closed: true,
        };
        let mut high = Bound {
            num: 1,
            den: 1,
            closed: true,
        };
        // s . (dx, dy) <= 1/2 (closed) or < 1/2 (open), for the lower-right, lower-left, upper-right, upper-left edges
        for (sx, sy, closed) in [(1, 1, true), (-1, 1, true), (1, -1, false), (-1, -1, false)] {
            let at_start = sx * a[0] + sy * a[1];
            let slope = sx * d[0] + sy * d[1];
            let room = half - at_start;
            if slope == 0 {
                if room < 0 || (room == 0 && !closed) {
                    return self.through_right_corner(a, d);
                }
                continue;
            }
            if slope > 0 {
                let bound = Bound {
                    num: room,
                    den: slope,
                    closed,
                };
                match bound.cmp(&high) {
                    std::cmp::Ordering::Less => high = bound,
                    std::cmp::Ordering::Equal => high.closed &= closed,
                    std::cmp::Ordering::Greater => {}
                }
            } else {
                let bound = Bound {
                    num: -room,
                    den: -slope,
                    closed,
                };
                match bound.cmp(&low) {
                    std::cmp::Ordering::Greater => low = bound,
                    std::cmp::Ordering::Equal => low.closed &= closed,
                    std::cmp::Ordering::Less => {}
                }
            }
        }
        let meets = match low.cmp(&high) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => low.closed && high.closed,
            std::cmp::Ordering::Greater => false,
        };
        meets || self.through_right_corner(a, d)
    }

    /// For a y-major line, whether the segment from `a` (relative to a pixel centre) along `d` passes through the
    /// diamond's right corner `(1/2, 0)`.
    #[allow(clippy::arithmetic_side_effects)] // every value is an i64 widened to i128: sums of two products fit
    fn through_right_corner(&self, a: [i128; 2], d: [i128; 2]) -> bool {
        if self.major != LineMajor::Y {
            return false;
        }
        let p = [i128::from(HALF) - a[0], -a[1]];
        let cross = d[0] * p[1] - d[1] * p[0];
        let along = d[0] * p[0] + d[1] * p[1];
        let length = d[0] * d[0] + d[1] * d[1];
        cross == 0 && (0..=length).contains(&along)
    }

    /// Whether the line covers pixel (`x`, `y`) by the diamond-exit rule.
    pub fn covers(&self, x: i64, y: i64) -> bool {
        self.meets_diamond(x, y) && !self.in_diamond(self.end, x, y)
    }

    /// The parameter along the line (0 at the start, 1 at the end) of pixel (`x`, `y`)'s centre: how far its
    /// coordinate on the major axis is from the start's, over the line's extent on that axis; unclamped (a helper
    /// pixel of a quad extrapolates).
    pub fn parameter(&self, x: i64, y: i64) -> f64 {
        self.parameter_at(centre(x, y))
    }

    /// The parameter along the line of `point` (1/256 pixels): its coordinate on the major axis, as
    /// [`AliasedLine::parameter`] takes a pixel centre's.
    pub fn parameter_at(&self, point: [i64; 2]) -> f64 {
        let axis = match self.major {
            LineMajor::X => 0,
            LineMajor::Y => 1,
        };
        let pick = |p: [i64; 2]| p.get(axis).copied().unwrap_or(0) as f64;
        let extent = pick(self.end) - pick(self.start);
        if extent == 0. {
            return 0.;
        }
        (pick(point) - pick(self.start)) / extent
    }

    /// The pixels the line covers within `allowed`, in the order the line travels: along the major axis from the
    /// start, at most two candidate pixels across it per step (a diamond the line meets has its centre within half a
    /// pixel of the line there).
    #[allow(clippy::arithmetic_side_effects)] // every value is an i64 widened to i128: sums of two products fit
    pub fn pixels(&self, allowed: PixelRect) -> Vec<[i64; 2]> {
        let mut out = Vec::new();
        let (along, across) = match self.major {
            LineMajor::X => (0, 1),
            LineMajor::Y => (1, 0),
        };
        let pick = |p: [i64; 2], i: usize| p.get(i).copied().unwrap_or(0);
        let (from, to) = (pick(self.start, along), pick(self.end, along));
        let first = from.min(to).div_euclid(PIXEL).saturating_sub(1);
        let last = from.max(to).div_euclid(PIXEL).saturating_add(1);
        let (lo, hi) = match self.major {
            LineMajor::X => (allowed.left, allowed.right.saturating_sub(1)),
            LineMajor::Y => (allowed.top, allowed.bottom.saturating_sub(1)),
        };
        let (first, last) = (first.max(lo), last.min(hi));
        if first > last {
            return out;
        }
        let steps: Vec<i64> = if to >= from {
            (first..=last).collect()
        } else {
            (first..=last).rev().collect()
        };
        let d_along = i128::from(to) - i128::from(from);
        let d_across = i128::from(pick(self.end, across)) - i128::from(pick(self.start, across));
        for step in steps {
            // where the line crosses the centre line of this column (or row), in 1/256 pixels across
            let at = i128::from(step.saturating_mul(PIXEL).saturating_add(HALF)) - i128::from(from);
            let cross = i128::from(pick(self.start, across))
                .saturating_add(at.saturating_mul(d_across).checked_div(d_along).unwrap_or(0));
            let row = i64::try_from(cross.div_euclid(i128::from(PIXEL))).unwrap_or(0);
            for other in [row.saturating_sub(1), row, row.saturating_add(1)] {
                let (x, y) = match self.major {
                    LineMajor::X => (step, other),
                    LineMajor::Y => (other, step),
                };
                if allowed.contains(x, y) && self.covers(x, y) {
                    out.push([x, y]);
                }
            }
        }
        out
    }
}

/// The square a point covers (3.4.6): its corners, snapped, as `[left, top, right, bottom]` in 1/256 pixels, from the
/// point's screen position.
pub fn point_square(x: f32, y: f32) -> [i64; 4] {
    let snap = super::snap;
    [snap(x - 0.5), snap(y - 0.5), snap(x + 0.5), snap(y + 0.5)]
}

/// Whether the point square `square` covers the sample at `(x, y)` (1/256 pixels): inside, or on its left or top edge
/// (3.4.2.1's top-left rule for the square's two triangles, whose shared diagonal covers each sample once).
pub fn square_covers(square: [i64; 4], sample: [i64; 2]) -> bool {
    let [left, top, right, bottom] = square;
    (left..right).contains(&sample[0]) && (top..bottom).contains(&sample[1])
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    const ALL: PixelRect = PixelRect {
        left: -100,
        top: -100,
        right: 100,
        bottom: 100,
    };

    /// A position in whole and 1/256 pixels.
    fn at(x: f64, y: f64) -> [i64; 2] {
        [(x * 256.).round() as i64, (y * 256.).round() as i64]
    }

    fn pixels(a: [f64; 2], b: [f64; 2]) -> Vec<[i64; 2]> {
        AliasedLine::new(at(a[0], a[1]), at(b[0], b[1])).unwrap().pixels(ALL)
    }

    #[test]
    fn a_horizontal_line_through_pixel_centres_leaves_its_last_pixel() {
        // From the centre of pixel 1 to the centre of pixel 5 on row 2: it exits the diamonds of pixels 1 to 4 (the
        // start lies in pixel 1's), and ends inside pixel 5's.
        assert_eq!(pixels([1.5, 2.5], [5.5, 2.5]), vec![[1, 2], [2, 2], [3, 2], [4, 2]]);
        // Backwards, it covers 5 down to 2.
        assert_eq!(pixels([5.5, 2.5], [1.5, 2.5]), vec![[5, 2], [4, 2], [3, 2], [2, 2]]);
    }

    #[test]
    fn a_horizontal_line_on_a_row_boundary_covers_the_row_above_it() {
        // y = 3.0 is the bottom corner of row 2's diamonds (included) and the top corner of row 3's (excluded).
        assert_eq!(pixels([0.5, 3.0], [3.5, 3.0]), vec![[0, 2], [1, 2], [2, 2]]);
    }

    #[test]
    fn a_vertical_line_on_a_column_boundary_covers_the_column_left_of_it() {
        // x = 3.0 is the right corner of column 2's diamonds, included for a y-major line, and the left corner of
        // column 3's, never included.
        assert_eq!(pixels([3.0, 0.5], [3.0, 3.5]), vec![[2, 0], [2, 1], [2, 2]]);
    }

    #[test]
    fn an_x_major_line_on_a_column_boundary_misses_the_right_corner() {
        // A horizontal line can touch a diamond's right corner only at its centre's height: from (0.5, 1.5) to
        // (3.0, 1.5) it ends on the shared corner of pixels 2 and 3 on row 1, which is in neither diamond for an
        // x-major line, so pixel 2 is exited (the end is outside it) and pixel 3 never entered.
        assert_eq!(pixels([0.5, 1.5], [3.0, 1.5]), vec![[0, 1], [1, 1], [2, 1]]);
    }

    #[test]
    fn a_diagonal_covers_one_pixel_a_step() {
        // slope 1 (x-major): from the centre of (0, 0) to the centre of (3, 3)
        assert_eq!(pixels([0.5, 0.5], [3.5, 3.5]), vec![[0, 0], [1, 1], [2, 2]]);
        // slope -1 between pixel corners: from (1.0, 3.0) to (4.0, 0.0), x + y = 4 runs through the centres of (1, 2),
        // (2, 1) and (3, 0); its ends are pixel corners, inside no diamond, and it meets no other diamond.
        assert_eq!(pixels([1.0, 3.0], [4.0, 0.0]), vec![[1, 2], [2, 1], [3, 0]]);
    }

    #[test]
    fn a_line_inside_one_diamond_draws_nothing_and_a_zero_length_line_is_none() {
        assert!(pixels([2.4, 2.5], [2.6, 2.5]).is_empty());
        assert!(AliasedLine::new(at(1., 1.), at(1., 1.)).is_none());
    }

    #[test]
    fn shallow_and_steep_lines_cover_one_pixel_per_major_step() {
        // x-major, slope 1/4 from (0.5, 0.5) to (8.5, 2.5): one pixel in each column 0..8
        let covered = pixels([0.5, 0.5], [8.5, 2.5]);
        assert_eq!(
            covered.iter().map(|p| p[0]).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        // At column x's centre the line is at y = 0.5 + x / 4. Columns 2 and 6 meet it on a row boundary (y = 1.0,
        // 2.0): the bottom corner of the row above, which the diamond holds, and the top corner of the row below,
        // which it does not. Column 8 holds the end.
        assert_eq!(
            covered.iter().map(|p| p[1]).collect::<Vec<_>>(),
            vec![0, 0, 0, 1, 1, 1, 1, 2]
        );
        // y-major, slope 4: transposed, one pixel in each row; rows 2 and 6 meet it on a column boundary (x = 1.0,
        // 2.0), the right corner of the column left of it, which a y-major line's diamond holds.
        let covered = pixels([0.5, 0.5], [2.5, 8.5]);
        assert_eq!(
            covered.iter().map(|p| p[1]).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        assert_eq!(
            covered.iter().map(|p| p[0]).collect::<Vec<_>>(),
            vec![0, 0, 0, 1, 1, 1, 1, 2]
        );
    }

    #[test]
    fn the_parameter_is_the_pixel_centre_on_the_major_axis() {
        let line = AliasedLine::new(at(0.5, 0.5), at(4.5, 1.5)).unwrap();
        assert_eq!(line.parameter(0, 0), 0.);
        assert_eq!(line.parameter(2, 0), 0.5);
        assert_eq!(line.parameter(2, 7), 0.5);
        assert_eq!(line.parameter(5, 0), 1.25);
        // y-major, upwards: from y = 8.5 to y = 0.5, row 6's centre is a quarter of the way
        let line = AliasedLine::new(at(1.5, 8.5), at(0.5, 0.5)).unwrap();
        assert_eq!(line.parameter(9, 6), 0.25);
    }

    #[test]
    fn pixels_outside_the_allowed_rectangle_are_not_listed() {
        let allowed = PixelRect {
            left: 2,
            top: 0,
            right: 4,
            bottom: 10,
        };
        let line = AliasedLine::new(at(0.5, 1.5), at(9.5, 1.5)).unwrap();
        assert_eq!(line.pixels(allowed), vec![[2, 1], [3, 1]]);
    }

    #[test]
    fn a_point_covers_the_samples_of_its_snapped_square_top_left_inclusive() {
        // A point at a pixel centre covers that pixel's centre only.
        let square = point_square(2.5, 3.5);
        assert_eq!(square, [2 * 256, 3 * 256, 3 * 256, 4 * 256]);
        assert!(square_covers(square, at(2.5, 3.5)));
        assert!(!square_covers(square, at(3.5, 3.5)));
        // A point at a pixel corner (3.0, 3.0): its square runs from 2.5 to 3.5, so pixel (2, 2)'s centre is on its
        // top-left corner (covered) and (3, 3)'s on its bottom-right (not).
        let square = point_square(3.0, 3.0);
        assert!(square_covers(square, at(2.5, 2.5)));
        assert!(!square_covers(square, at(3.5, 3.5)));
        assert!(!square_covers(square, at(2.5, 3.5)));
        assert!(!square_covers(square, at(3.5, 2.5)));
        // 4x MSAA's standard sample at (-2/16, -6/16) of pixel (3, 3) lies at (3.375, 3.125): inside.
        assert!(square_covers(square, at(3.375, 3.125)));
    }
}
