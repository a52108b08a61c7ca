//! Points, lines and wireframe triangles set up for rasterization: clipped, mapped to the screen and expanded into
//! the pieces [`super::Triangle`] walks, triangles ([`Part`]) for points and quadrilateral lines and [`LinePiece`]s for
//! aliased and alpha-antialiased lines. The rules are the module's ([`super`]).

use super::clip::ClipVertex;
use super::line::AliasedLine;
use super::quad::{Lane, Quad};
use super::setup::{Corners, Part, depth_bias, edge_function};
use super::{Cull, LineMode, PixelRect, Rasterizer, Triangle, TriangleFate};

/// How far from the origin (in pixels, along x and along y) the guard band lets a line's or a point's screen
/// position lie: inside the 16.8 range (`±2^15`, 3.2.4.1) with room for the float32 viewport transform's rounding.
const GUARD: f64 = 32000.;

/// A plane of clip space: the inside is where `coefficients . (x, y, z, w) >= 0`.
#[derive(Clone, Copy, Debug)]
struct ClipPlane {
    /// The plane's coefficients of x, y, z and w.
    coefficients: [f64; 4],
    /// Whether it is `z >= 0` or `z <= w`, onto which a cut position is put exactly.
    depth: Option<bool>,
}

impl ClipPlane {
    /// How far inside the plane a clip-space position is (negative outside), in f64.
    fn distance(&self, p: &[f32; 4]) -> f64 {
        self.coefficients.iter().zip(p).map(|(c, v)| c * f64::from(*v)).sum()
    }
}

/// The planes a line or a point is clipped to (15.4): the guard band of `GUARD` pixels around the target along x
/// and y (which also keeps `w > 0` but at the clip-space origin), and `0 <= z <= w` while depth clipping is on.
/// `None` when the viewport has no area (it covers no pixel).
fn planes(raster: &Rasterizer) -> Option<Vec<ClipPlane>> {
    let v = raster.viewport();
    let (x, y, half_w, half_h) = (
        f64::from(v.x),
        f64::from(v.y),
        f64::from(v.width) * 0.5,
        f64::from(v.height) * 0.5,
    );
    if !(half_w > 0. && half_h > 0.) {
        return None;
    }
    // X = (x/w + 1) * width / 2 + left in [-GUARD, GUARD]; Y = (1 - y/w) * height / 2 + top likewise
    let x_low = (-GUARD - x) / half_w - 1.;
    let x_high = (GUARD - x) / half_w - 1.;
    let y_low = 1. - (GUARD - y) / half_h;
    let y_high = 1. - (-GUARD - y) / half_h;
    let plane = |coefficients| ClipPlane {
        coefficients,
        depth: None,
    };
    let mut planes = vec![
        plane([1., 0., 0., -x_low]),
        plane([-1., 0., 0., x_high]),
        plane([0., 1., 0., -y_low]),
        plane([0., -1., 0., y_high]),
    ];
    if raster.state().depth_clip {
        planes.push(ClipPlane {
            coefficients: [0., 0., 1., 0.],
            depth: Some(false),
        });
        planes.push(ClipPlane {
            coefficients: [0., 0., -1., 1.],
            depth: Some(true),
        });
    }
    Some(planes)
}

/// The point `t` of the way from `a` to `b` (in f64, rounded to float32 once), with its weights; put exactly on the
/// depth plane `depth` names, if any (`Some(false)`: z = 0, `Some(true)`: z = w).
fn between(a: &ClipVertex, b: &ClipVertex, t: f64, depth: Option<bool>) -> ClipVertex {
    let mut position = [0f32; 4];
    for ((out, p), q) in position.iter_mut().zip(a.position).zip(b.position) {
        let (p, q) = (f64::from(p), f64::from(q));
        *out = (p + (q - p) * t) as f32;
    }
    match depth {
        Some(false) => position[2] = 0.,
        Some(true) => position[2] = position[3],
        None => {}
    }
    let mut weights = [0f64; 3];
    for ((out, p), q) in weights.iter_mut().zip(a.weights).zip(b.weights) {
        *out = p + (q - p) * t;
    }
    ClipVertex { position, weights }
}

/// The part of the segment `a -> b` inside every plane (Liang–Barsky on the segment's parameter, in f64), its
/// direction kept; `None` when nothing or a single point is left.
fn clip_segment(a: &ClipVertex, b: &ClipVertex, planes: &[ClipPlane]) -> Option<[ClipVertex; 2]> {
    let (mut low, mut high) = (0f64, 1f64);
    let (mut low_plane, mut high_plane) = (None, None);
    for plane in planes {
        let (da, db) = (plane.distance(&a.position), plane.distance(&b.position));
        if da < 0. && db < 0. || da.is_nan() || db.is_nan() {
            return None;
        }
        if da < 0. {
            let t = da / (da - db);
            if t > low {
                low = t;
                low_plane = Some(plane.depth);
            }
        } else if db < 0. {
            let t = da / (da - db);
            if t < high {
                high = t;
                high_plane = Some(plane.depth);
            }
        }
    }
    if low >= high {
        return None;
    }
    let start = match low_plane {
        Some(depth) => between(a, b, low, depth),
        None => *a,
    };
    let end = match high_plane {
        Some(depth) => between(a, b, high, depth),
        None => *b,
    };
    Some([start, end])
}

/// A screen coordinate in pixels (f64) in 16.8 fixed point: [`super::snap`]'s rule without the float32 step, for
/// corners an expansion computes (3.4.1: snapped after expansion).
fn snap_f64(coordinate: f64) -> i64 {
    if coordinate.is_nan() {
        return 0;
    }
    let steps = (coordinate * 256.).round_ties_even();
    steps.clamp(super::FIXED_MIN as f64, super::FIXED_MAX as f64) as i64
}

/// One end of a line on its way to the rasterizer: its clip vertex, screen position and depth (depth bias included
/// for a wireframe edge: 15.13).
#[derive(Clone, Copy, Debug)]
struct LineEnd {
    vertex: ClipVertex,
    screen: [f32; 3],
}

/// An aliased or alpha-antialiased line set up for coverage and interpolation.
#[derive(Clone, Debug, PartialEq)]
pub struct LinePiece {
    /// The snapped line.
    line: AliasedLine,
    /// The ends' screen depths (with a wireframe triangle's depth bias).
    z: [f32; 2],
    /// The reciprocal of each end's clip-space w.
    inv_w: [f64; 2],
    /// Each end's weights on the drawn primitive's vertices in clip space.
    clip_weights: [[f64; 3]; 2],
    /// Each end's screen position's weights on the drawn primitive's vertices.
    screen_weights: [[f64; 3]; 2],
    /// `SV_IsFrontFace`.
    front: bool,
    /// The viewport's depth range.
    depth_range: [f32; 2],
    /// The pixels it may cover.
    allowed: PixelRect,
    /// Every sample of the pattern: a covered pixel has all (15.14.1).
    full: u32,
    /// Whether coverage is the alpha-antialiased line's (3.4.4).
    antialiased: bool,
}

impl LinePiece {
    /// The line between `ends` (snapped here), facing `front`; `None` when the snapped ends are one point.
    fn new(
        ends: [LineEnd; 2],
        original_w: [f64; 3],
        front: bool,
        antialiased: bool,
        raster: &Rasterizer,
    ) -> Option<Self> {
        let [a, b] = ends;
        let fixed = |e: &LineEnd| [super::snap(e.screen[0]), super::snap(e.screen[1])];
        let line = AliasedLine::new(fixed(&a), fixed(&b))?;
        let viewport = raster.viewport();
        Some(Self {
            line,
            z: [a.screen[2], b.screen[2]],
            inv_w: [a, b].map(|e| 1. / f64::from(e.vertex.position[3])),
            clip_weights: [a.vertex.weights, b.vertex.weights],
            screen_weights: [a, b].map(|e| e.vertex.screen_weights(original_w)),
            front,
            depth_range: [viewport.min_depth, viewport.max_depth],
            allowed: raster.allowed(),
            full: raster.pattern().full_mask(),
            antialiased,
        })
    }

    /// The snapped line.
    pub fn line(&self) -> &AliasedLine {
        &self.line
    }

    /// Whether the line is alpha-antialiased.
    pub fn is_antialiased(&self) -> bool {
        self.antialiased
    }

    /// The coverage of pixel (`px`, `py`): `None` when the line does not cover it, else the alpha it multiplies `o0.a`
    /// by (1 for an aliased line).
    pub fn coverage(&self, px: i64, py: i64) -> Option<f32> {
        if !self.allowed.contains(px, py) {
            return None;
        }
        if self.antialiased {
            let area = self.area_in(px, py);
            return (area > 0.).then_some(area.min(1.) as f32);
        }
        self.line.covers(px, py).then_some(1.)
    }

    /// The area of pixel (`px`, `py`)'s square inside the alpha-antialiased line's rectangle (3.4.4: width 1, the
    /// line's ends at the middles of its short sides), from the snapped ends, in f64.
    fn area_in(&self, px: i64, py: i64) -> f64 {
        let [start, end] = self.line.ends().map(|p| p.map(|c| c as f64 / 256.));
        let (dx, dy) = (end[0] - start[0], end[1] - start[1]);
        let length = dx.hypot(dy);
        if length == 0. {
            return 0.;
        }
        let (nx, ny) = (-dy / length * 0.5, dx / length * 0.5);
        let mut polygon = vec![
            [start[0] + nx, start[1] + ny],
            [end[0] + nx, end[1] + ny],
            [end[0] - nx, end[1] - ny],
            [start[0] - nx, start[1] - ny],
        ];
        let (left, top) = (px as f64, py as f64);
        // the square's four sides as half planes: keep where `inside(p) >= 0`
        let sides: [(usize, f64, f64); 4] = [(0, 1., -left), (0, -1., left + 1.), (1, 1., -top), (1, -1., top + 1.)];
        for (axis, sign, offset) in sides {
            let inside = |p: &[f64; 2]| sign * p.get(axis).copied().unwrap_or(0.) + offset;
            let mut next = Vec::with_capacity(polygon.len().saturating_add(1));
            for (p, q) in polygon.iter().zip(polygon.iter().cycle().skip(1)) {
                let (dp, dq) = (inside(p), inside(q));
                if dp >= 0. {
                    next.push(*p);
                }
                if (dp >= 0.) != (dq >= 0.) {
                    let t = dp / (dp - dq);
                    next.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
                }
            }
            polygon = next;
            if polygon.len() < 3 {
                return 0.;
            }
        }
        let twice: f64 = polygon
            .iter()
            .zip(polygon.iter().cycle().skip(1))
            .map(|(p, q)| p[0] * q[1] - q[0] * p[1])
            .sum();
        twice.abs() * 0.5
    }

    /// The lane values at the point `offset` (1/256 pixel) from pixel (`px`, `py`)'s centre: the parameter `t` of the
    /// point's coordinate on the line's major axis ([`AliasedLine::parameter_at`]), the ends' attributes blended by it
    /// (perspective-correct over the ends' w, or screen-linear), the depth linear in `t`; unclamped (a helper
    /// extrapolates).
    pub fn lane_at(&self, px: i64, py: i64, offset: [i64; 2]) -> Lane {
        let point = [
            px.saturating_mul(256).saturating_add(128).saturating_add(offset[0]),
            py.saturating_mul(256).saturating_add(128).saturating_add(offset[1]),
        ];
        let t = self.line.parameter_at(point);
        let s = [1. - t, t];
        let over_w = [s[0] * self.inv_w[0], s[1] * self.inv_w[1]];
        let sum = over_w[0] + over_w[1];
        let mut perspective = [0f64; 3];
        let mut linear = [0f64; 3];
        for end in 0..2 {
            let (Some(&p), Some(&l), Some(clip), Some(screen)) = (
                over_w.get(end),
                s.get(end),
                self.clip_weights.get(end),
                self.screen_weights.get(end),
            ) else {
                continue;
            };
            for k in 0..3 {
                if let (Some(out), Some(lin), Some(&c), Some(&o)) =
                    (perspective.get_mut(k), linear.get_mut(k), clip.get(k), screen.get(k))
                {
                    *out += p / sum * c;
                    *lin += l * o;
                }
            }
        }
        let z = (s[0] * f64::from(self.z[0]) + s[1] * f64::from(self.z[1])) as f32;
        let [min_depth, max_depth] = self.depth_range;
        let [x, y] = point.map(|c| (c as f64 / 256.) as f32);
        Lane {
            position: [x, y, z, (1. / sum) as f32],
            depth: max_depth.min(min_depth.max(z)),
            perspective,
            linear,
        }
    }

    /// The quad whose top-left pixel is (`x`, `y`) (both even): each covered lane has every sample (15.14.1), its
    /// values at the centre; `piece` is the line's place among its primitive's pieces.
    pub(super) fn quad(&self, x: i64, y: i64, piece: usize) -> Quad {
        let mut covered = 0u8;
        let mut samples = [0u32; 4];
        let mut lanes = [Lane::default(); 4];
        let mut alpha = [0f32; 4];
        for (index, ((lane, mask), a)) in lanes
            .iter_mut()
            .zip(samples.iter_mut())
            .zip(alpha.iter_mut())
            .enumerate()
        {
            let (px, py) = (
                x.saturating_add(i64::from(index & 1 == 1)),
                y.saturating_add(i64::from(index >= 2)),
            );
            if let Some(coverage) = self.coverage(px, py) {
                *mask = self.full;
                *a = coverage;
                covered |= 1 << index;
            }
            *lane = self.lane_at(px, py, [0, 0]);
        }
        Quad {
            x: u32::try_from(x).unwrap_or(0),
            y: u32::try_from(y).unwrap_or(0),
            covered,
            samples,
            front_facing: self.front,
            part: piece,
            lanes,
            line_alpha: self.antialiased.then_some(alpha),
        }
    }

    /// The top-left pixels of the quads holding a covered pixel, each once, in the order the line first reaches them.
    pub(super) fn quad_origins(&self) -> Vec<(i64, i64)> {
        let pixels = if self.antialiased {
            self.antialiased_pixels()
        } else {
            self.line.pixels(self.allowed)
        };
        let mut seen = std::collections::HashSet::new();
        pixels
            .into_iter()
            .map(|[x, y]| (x & !1, y & !1))
            .filter(|origin| seen.insert(*origin))
            .collect()
    }

    /// The pixels an alpha-antialiased line covers within the allowed rectangle, along its major axis from its start:
    /// at each step the five pixels across around the line (its rectangle reaches at most `sqrt(2)/2 + 1/2` across
    /// from the line at a pixel centre's column or row).
    fn antialiased_pixels(&self) -> Vec<[i64; 2]> {
        let [start, end] = self.line.ends();
        let x_major = self.line.major() == super::line::LineMajor::X;
        let (along, across) = if x_major { (0, 1) } else { (1, 0) };
        let pick = |p: [i64; 2], i: usize| p.get(i).copied().unwrap_or(0);
        let (from, to) = (pick(start, along), pick(end, along));
        let (lo, hi) = if x_major {
            (self.allowed.left, self.allowed.right.saturating_sub(1))
        } else {
            (self.allowed.top, self.allowed.bottom.saturating_sub(1))
        };
        let first = from.min(to).div_euclid(256).saturating_sub(1).max(lo);
        let last = from.max(to).div_euclid(256).saturating_add(1).min(hi);
        let mut out = Vec::new();
        if first > last {
            return out;
        }
        let steps: Vec<i64> = if to >= from {
            (first..=last).collect()
        } else {
            (first..=last).rev().collect()
        };
        let extent = (to as f64) - (from as f64);
        let (a0, a1) = (pick(start, across) as f64, pick(end, across) as f64);
        for step in steps {
            let centre = step as f64 * 256. + 128.;
            let t = if extent == 0. {
                0.
            } else {
                (centre - from as f64) / extent
            };
            let at = ((a0 + (a1 - a0) * t) / 256.).floor() as i64;
            for other in at.saturating_sub(2)..=at.saturating_add(2) {
                let (x, y) = if x_major { (step, other) } else { (other, step) };
                if self.coverage(x, y).is_some() {
                    out.push([x, y]);
                }
            }
        }
        out
    }
}

/// Adds to `triangle` the pieces of the line between `ends` (already clipped, with their screen positions and depths)
/// under the rasterizer's line mode, facing `front`: one [`LinePiece`], or the quadrilateral line's two triangles
/// (3.4.5). `original_w` are the clip-space w of the drawn primitive's vertices (for screen-linear weights).
fn line_pieces(triangle: &mut Triangle, ends: [LineEnd; 2], original_w: [f64; 3], front: bool, raster: &Rasterizer) {
    match raster.line_mode() {
        LineMode::Aliased | LineMode::AlphaAntialiased => {
            let antialiased = raster.line_mode() == LineMode::AlphaAntialiased;
            if let Some(piece) = LinePiece::new(ends, original_w, front, antialiased, raster) {
                triangle.lines.push(piece);
            }
        }
        LineMode::Quadrilateral => {
            let [a, b] = ends;
            let (p0, p1) = (a.screen.map(f64::from), b.screen.map(f64::from));
            let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
            let length = dx.hypot(dy);
            if length == 0. || !length.is_finite() {
                return;
            }
            // half of the 1.4 width across the line
            let (nx, ny) = (-dy / length * 0.7, dx / length * 0.7);
            let corner = |p: [f64; 3], side: f64| [snap_f64(p[0] + side * nx), snap_f64(p[1] + side * ny)];
            let c = [corner(p0, 1.), corner(p1, 1.), corner(p1, -1.), corner(p0, -1.)];
            // corners 0 and 3 are the start's, 1 and 2 the end's: each takes its end's attributes (3.4.5)
            let of_end = |i: usize| if i == 1 || i == 2 { &b } else { &a };
            for ids in [[0usize, 1, 2], [0, 2, 3]] {
                let ends_of = ids.map(of_end);
                let corners = Corners {
                    fixed: ids.map(|i| c.get(i).copied().unwrap_or_default()),
                    z: ends_of.map(|e| e.screen[2]),
                    inv_w: ends_of.map(|e| 1. / f64::from(e.vertex.position[3])),
                    clip_weights: ends_of.map(|e| e.vertex.weights),
                    screen_weights: ends_of.map(|e| e.vertex.screen_weights(original_w)),
                };
                if let Some(part) = Part::expanded(corners, front, raster) {
                    triangle.parts.push(part);
                }
            }
        }
    }
}

/// A position's NaN or infinity as the fate it gives (15.4, 15.16.1).
fn bad_position(positions: &[[f32; 4]]) -> Option<TriangleFate> {
    if positions.iter().flatten().any(|c| c.is_nan()) {
        return Some(TriangleFate::NotANumber);
    }
    positions
        .iter()
        .flatten()
        .any(|c| c.is_infinite())
        .then_some(TriangleFate::Infinite)
}

impl Triangle {
    /// A primitive set up with no piece yet.
    fn empty(fate: TriangleFate) -> Self {
        Self {
            fate,
            polygon: super::Polygon::default(),
            parts: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// The fate of a point or line once its pieces are made: rasterized when any is.
    fn settled(mut self) -> Self {
        if !self.parts.is_empty() || !self.lines.is_empty() {
            self.fate = TriangleFate::Rasterized;
        }
        self
    }

    /// The line from clip-space `positions[0]` to `positions[1]` (3.4.3–3.4.5, 15.14.1), clipped to the guard band
    /// and depth range (15.4).
    pub(super) fn line(raster: &Rasterizer, positions: [[f32; 4]; 2]) -> Self {
        if let Some(fate) = bad_position(&positions) {
            return Self::empty(fate);
        }
        let Some(planes) = planes(raster) else {
            return Self::empty(TriangleFate::ClippedAway);
        };
        let [p0, p1] = positions;
        let a = ClipVertex {
            position: p0,
            weights: [1., 0., 0.],
        };
        let b = ClipVertex {
            position: p1,
            weights: [0., 1., 0.],
        };
        let Some(clipped) = clip_segment(&a, &b, &planes) else {
            return Self::empty(TriangleFate::ClippedAway);
        };
        let ends = clipped.map(|vertex| LineEnd {
            vertex,
            screen: raster.viewport().to_screen(vertex.position),
        });
        if ends.iter().any(|e| e.screen.iter().any(|c| c.is_nan())) {
            return Self::empty(TriangleFate::NotANumber);
        }
        let mut line = Self::empty(TriangleFate::ZeroArea);
        // the line's slots are (start, end, end): the third weight is the end's again
        let original_w = [f64::from(p0[3]), f64::from(p1[3]), f64::from(p1[3])];
        line_pieces(&mut line, ends, original_w, true, raster);
        line.settled()
    }

    /// The point at clip-space `position` (3.4.6): drawn when it is inside the guard band and depth range (15.4), as
    /// the two triangles of its square, front facing, with the vertex's attributes everywhere.
    pub(super) fn point(raster: &Rasterizer, position: [f32; 4]) -> Self {
        if let Some(fate) = bad_position(&[position]) {
            return Self::empty(fate);
        }
        let inside = planes(raster).is_some_and(|planes| planes.iter().all(|p| p.distance(&position) >= 0.));
        if !inside || position[3] <= 0. {
            return Self::empty(TriangleFate::ClippedAway);
        }
        let [x, y, z] = raster.viewport().to_screen(position);
        if [x, y, z].iter().any(|c| c.is_nan()) {
            return Self::empty(TriangleFate::NotANumber);
        }
        let [left, top, right, bottom] = super::line::point_square(x, y);
        let corners = [[left, top], [right, top], [left, bottom], [right, bottom]];
        let inv_w = 1. / f64::from(position[3]);
        let mut point = Self::empty(TriangleFate::ZeroArea);
        // the Z of 3.4.6: top-left, top-right, bottom-left, then top-right, bottom-right, bottom-left
        for ids in [[0usize, 1, 2], [1, 3, 2]] {
            let part = Corners {
                fixed: ids.map(|i| corners.get(i).copied().unwrap_or_default()),
                z: [z; 3],
                inv_w: [inv_w; 3],
                clip_weights: [[1., 0., 0.]; 3],
                screen_weights: [[1., 0., 0.]; 3],
            };
            if let Some(part) = Part::expanded(part, true, raster) {
                point.parts.push(part);
            }
        }
        point.settled()
    }

    /// The wireframe of the clipped polygon `vertices` (screen positions `screen`) of a triangle whose vertices' w
    /// are `original_w` (15.13): each of its edges on an edge of the original triangle (not one the clipper made), in
    /// the polygon's order, as a line of the line mode, when the fan triangle it borders survives culling (a fan
    /// triangle of no snapped area faces back: 15.11); that fan triangle's depth bias (15.10) is added to both ends
    /// and its facing is the line's (15.12).
    pub(super) fn wireframe(
        &mut self,
        raster: &Rasterizer,
        vertices: &[ClipVertex],
        screen: &[[f32; 3]],
        original_w: [f64; 3],
    ) {
        let n = vertices.len();
        let state = raster.state();
        let mut culled = false;
        for i in 0..n {
            let j = i.saturating_add(1).checked_rem(n).unwrap_or(0);
            let (Some(a), Some(b), Some(sa), Some(sb)) =
                (vertices.get(i), vertices.get(j), screen.get(i), screen.get(j))
            else {
                continue;
            };
            // a vertex the clipper makes on an original edge weighs the third vertex 0, as do both ends of the edge
            let original = a.weights.iter().zip(b.weights).any(|(&p, q)| p == 0. && q == 0.);
            if !original {
                continue;
            }
            // edge (i, i + 1) borders fan triangle (0, i, i + 1); edge (0, 1) the first, edge (n - 1, 0) the last
            let k = if i == 0 {
                1
            } else if j == 0 {
                n.saturating_sub(2)
            } else {
                i
            };
            let ids = [0, k, k.saturating_add(1)];
            let fan = ids.map(|v| screen.get(v).copied().unwrap_or_default());
            let fixed = fan.map(|[x, y, _]| [super::snap(x), super::snap(y)]);
            let [f0, f1, f2] = fixed;
            let area = edge_function(f0, f1, f2);
            let front = area != 0 && (area > 0) != state.front_counter_clockwise;
            let drop = match state.cull {
                Cull::None => false,
                Cull::Front => front,
                Cull::Back => !front,
            };
            if drop {
                culled = true;
                continue;
            }
            let applies = state.depth_bias != 0 || state.slope_scaled_depth_bias != 0.;
            let bias = depth_bias(fixed, fan.map(|s| s[2]), area, raster);
            let end = |vertex: &ClipVertex, s: &[f32; 3]| LineEnd {
                vertex: *vertex,
                screen: [s[0], s[1], if applies { s[2] + bias } else { s[2] }],
            };
            line_pieces(self, [end(a, sa), end(b, sb)], original_w, front, raster);
        }
        self.fate = if !self.parts.is_empty() || !self.lines.is_empty() {
            TriangleFate::Rasterized
        } else if culled {
            TriangleFate::Culled
        } else {
            TriangleFate::ZeroArea
        };
    }
}
