//! Setting up one triangle of a clipped polygon: 16.8 snapping, facing, edges under the top-left rule, depth bias,
//! and the evaluation of a pixel (coverage, weights, depth).

use super::clip::ClipVertex;
use super::quad::{Lane, Quad};
use super::samples::SamplePattern;
use super::{DepthFormat, PixelRect, Rasterizer};

/// The smallest 16.8 fixed-point value, in 1/256 pixels: -2^15 pixels (3.2.4.1's FixedMin for 16 integer bits).
pub const FIXED_MIN: i64 = -(1 << 23);
/// The largest 16.8 fixed-point value, in 1/256 pixels: 2^15 - 2^-8 pixels (3.2.4.1's FixedMax).
pub const FIXED_MAX: i64 = (1 << 23) - 1;

/// The most triangles a clipped polygon fans into.
pub const MAX_PARTS: usize = super::MAX_POLYGON - 2;

/// A screen coordinate in 16.8 fixed point, in 1/256 pixels (15.16, 3.2.4.1): the nearest step, a tie to the even
/// one, saturating at [`FIXED_MIN`] and [`FIXED_MAX`] (infinities too); NaN is 0.
pub fn snap(coordinate: f32) -> i64 {
    if coordinate.is_nan() {
        return 0;
    }
    // times 256 is exact in f64 for every float32, infinities included
    let steps = (f64::from(coordinate) * 256.).round_ties_even();
    steps.clamp(FIXED_MIN as f64, FIXED_MAX as f64) as i64
}

/// Twice the signed area of `a`, `b`, `p` in (1/256 pixel)^2: positive when `p` is right of `a -> b` on screen (y
/// down), i.e. inside a clockwise triangle. Every coordinate is within the 16.8 range or a pixel centre of a render
/// target no larger than it, so a difference is under 2^25 and a product under 2^50.
#[allow(clippy::arithmetic_side_effects)] // the range above
pub(super) fn edge_function(a: [i64; 2], b: [i64; 2], p: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// The corners of a triangle to set up: snapped positions, depths, and what its attributes are blended from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Corners {
    /// Snapped screen positions x, y, in 1/256 pixels.
    pub fixed: [[i64; 2]; 3],
    /// Screen depths.
    pub z: [f32; 3],
    /// The reciprocal of each corner's clip-space w.
    pub inv_w: [f64; 3],
    /// Each corner's weights on the drawn primitive's vertices in clip space.
    pub clip_weights: [[f64; 3]; 3],
    /// Each corner's screen position's weights on the drawn primitive's vertices.
    pub screen_weights: [[f64; 3]; 3],
}

/// One triangle of a clipped polygon (a fan triangle from its first vertex), set up for coverage and interpolation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Part {
    /// Snapped screen positions x, y, in 1/256 pixels.
    fixed: [[i64; 2]; 3],
    /// Screen depths with the depth bias added.
    z: [f32; 3],
    /// The reciprocal of each vertex's clip-space w.
    inv_w: [f64; 3],
    /// Each vertex's weights on the drawn triangle in clip space.
    clip_weights: [[f64; 3]; 3],
    /// Each vertex's screen position's weights on the drawn triangle.
    screen_weights: [[f64; 3]; 3],
    /// Twice the snapped area, in (1/256 pixel)^2; positive.
    area: i64,
    /// The edges as vertex pairs in clockwise order on screen, so that inside is where every edge function is > 0.
    edges: [[usize; 2]; 3],
    /// Whether each edge is a top or a left edge (3.4.2.1).
    top_left: [bool; 3],
    /// Whether the triangle is front facing.
    front: bool,
    /// The depth bias added to every vertex's depth (0 when none applies).
    depth_bias: f32,
    /// The viewport's depth range, which the output merger's depth is clamped to.
    depth_range: [f32; 2],
    /// The pixels one of whose samples the triangle's snapped bounding box holds, within the rasterizer's allowed
    /// rectangle.
    bounds: PixelRect,
    /// The pixels' sample positions (3.5.3).
    pattern: SamplePattern,
    /// The unsnapped screen positions x, y in 1/256 pixels, when attributes and depth are interpolated over them
    /// (the `unsnapped-interpolation` variant, [`crate::draw::variants`]); `None` (the spec's rule) interpolates over
    /// the snapped ones. Coverage always uses the snapped ones.
    unsnapped: Option<[[f64; 2]; 3]>,
}

impl Part {
    /// Set up the triangle of `vertices` (whose screen positions are `screen`) of a polygon clipped from a triangle
    /// whose vertices' clip-space w are `original_w`. `None` when its snapped area is zero: it draws nothing.
    pub(super) fn new(
        vertices: [&ClipVertex; 3],
        screen: [[f32; 3]; 3],
        original_w: [f64; 3],
        raster: &Rasterizer,
    ) -> Option<Self> {
        let fixed = screen.map(|[x, y, _]| [snap(x), snap(y)]);
        let [f0, f1, f2] = fixed;
        let signed_area = edge_function(f0, f1, f2);
        let depth_bias = depth_bias(fixed, screen.map(|s| s[2]), signed_area, raster);
        let state = raster.state();
        let applies = state.depth_bias != 0 || state.slope_scaled_depth_bias != 0.;
        let bias = if applies { depth_bias } else { 0. };
        let z = screen.map(|s| if applies { s[2] + depth_bias } else { s[2] });
        let part = Self::from_corners(
            Corners {
                fixed,
                z,
                inv_w: vertices.map(|v| 1. / f64::from(v.position[3])),
                clip_weights: vertices.map(|v| v.weights),
                screen_weights: vertices.map(|v| v.screen_weights(original_w)),
            },
            None,
            bias,
            raster,
        )?;
        let unsnapped = screen.map(|[x, y, _]| [f64::from(x) * 256., f64::from(y) * 256.]);
        let finite = unsnapped.iter().flatten().all(|c| c.is_finite());
        Some(Self {
            unsnapped: (raster.unsnapped_interpolation() && finite).then_some(unsnapped),
            ..part
        })
    }

    /// Set up a triangle of an expanded point or line (3.4.1: expanded before snapping; 3.4.5, 3.4.6) from its
    /// snapped `corners`: facing `front` whatever its winding (15.12: lines and points are front facing; a wireframe
    /// triangle's lines face as the triangle), its depths taken as they are (15.10: no bias of its own). `None` when
    /// its snapped area is zero.
    pub(super) fn expanded(corners: Corners, front: bool, raster: &Rasterizer) -> Option<Self> {
        Self::from_corners(corners, Some(front), 0., raster)
    }

    /// The triangle of `corners`, facing as its winding says unless `front` is given, with `depth_bias` recorded as
    /// already added to its depths.
    fn from_corners(corners: Corners, front: Option<bool>, depth_bias: f32, raster: &Rasterizer) -> Option<Self> {
        let Corners {
            fixed,
            z,
            inv_w,
            clip_weights,
            screen_weights,
        } = corners;
        let [f0, f1, f2] = fixed;
        let signed_area = edge_function(f0, f1, f2);
        if signed_area == 0 {
            return None;
        }
        // y down: a positive area is clockwise on screen
        let clockwise = signed_area > 0;
        let edges = if clockwise {
            [[0, 1], [1, 2], [2, 0]]
        } else {
            [[0, 2], [2, 1], [1, 0]]
        };
        // clockwise with y down, the inside is right of each edge: an edge running up (dy < 0) has the triangle on
        // its right, so it is a left edge; a horizontal one running right has the triangle below, so it is a top edge
        let top_left = edges.map(|[a, b]| {
            let (pa, pb) = (
                fixed.get(a).copied().unwrap_or_default(),
                fixed.get(b).copied().unwrap_or_default(),
            );
            let (dx, dy) = (pb[0].saturating_sub(pa[0]), pb[1].saturating_sub(pa[1]));
            dy < 0 || (dy == 0 && dx > 0)
        });
        let state = raster.state();
        let viewport = raster.viewport();
        Some(Self {
            fixed,
            z,
            inv_w,
            clip_weights,
            screen_weights,
            area: signed_area.saturating_abs(),
            edges,
            top_left,
            front: front.unwrap_or(clockwise != state.front_counter_clockwise),
            depth_bias,
            depth_range: [viewport.min_depth, viewport.max_depth],
            bounds: pixel_bounds(fixed, raster.pattern().extent_256()).intersect(raster.allowed()),
            pattern: raster.pattern(),
            unsnapped: None,
        })
    }

    /// The snapped screen positions (x, y), in 1/256 pixels.
    pub fn snapped(&self) -> [[i64; 2]; 3] {
        self.fixed
    }

    /// The vertices' screen depths, depth bias included.
    pub fn depths(&self) -> [f32; 3] {
        self.z
    }

    /// Whether the triangle is front facing (15.12's `IsFrontFace`).
    pub fn front_facing(&self) -> bool {
        self.front
    }

    /// The depth bias added to the vertices' depths (15.10); 0 when the state asks for none.
    pub fn depth_bias(&self) -> f32 {
        self.depth_bias
    }

    /// The pixels the triangle may cover: its bounding box within the render target and the scissors.
    pub fn bounds(&self) -> PixelRect {
        self.bounds
    }

    /// The sample pattern coverage is tested at.
    pub fn pattern(&self) -> SamplePattern {
        self.pattern
    }

    /// The 2 x 2 quad whose top-left pixel is (`x`, `y`), both even: each lane's coverage (per sample) and values at
    /// the pixel centre. `part` is this triangle's place in its polygon's fan, handed back in the quad. The one
    /// evaluation the full walk and the single-pixel query share.
    pub(super) fn quad(&self, x: i64, y: i64, part: usize) -> Quad {
        let mut covered = 0u8;
        let mut samples = [0u32; 4];
        let mut lanes = [Lane::default(); 4];
        for (index, (lane, mask)) in lanes.iter_mut().zip(samples.iter_mut()).enumerate() {
            // lane 0 is the top-left pixel, 1 top-right, 2 bottom-left, 3 bottom-right
            let (px, py) = (
                x.saturating_add(i64::from(index & 1 == 1)),
                y.saturating_add(i64::from(index >= 2)),
            );
            if self.bounds.contains(px, py) {
                *mask = self.sample_mask(px, py);
            }
            if *mask != 0 {
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
            part,
            lanes,
            line_alpha: None,
        }
    }

    /// The samples of pixel (`px`, `py`) the triangle covers (3.5.4): bit `s` set when sample `s`'s position (the
    /// pixel centre plus the pattern's offset) is inside the snapped triangle or on a top or left edge (3.4.2). With
    /// one sample, the centre's coverage in bit 0. The pixel is not checked against [`Part::bounds`].
    pub fn sample_mask(&self, px: i64, py: i64) -> u32 {
        let mut mask = 0u32;
        for (sample, offset) in (0u32..).zip(self.pattern.offsets()) {
            let offset = offset.map(|o| i64::from(o).saturating_mul(16));
            if self.edges_at(self.point(px, py, offset)).0 {
                mask |= 1u32.checked_shl(sample).unwrap_or(0);
            }
        }
        mask
    }

    /// The point `offset` (in 1/256 pixel) from pixel (`px`, `py`)'s centre, in 1/256 pixels (3.3.1); a pixel is
    /// within the 16.8 range, so this cannot saturate.
    fn point(&self, px: i64, py: i64, offset: [i64; 2]) -> [i64; 2] {
        [
            px.saturating_mul(256).saturating_add(128).saturating_add(offset[0]),
            py.saturating_mul(256).saturating_add(128).saturating_add(offset[1]),
        ]
    }

    /// Whether `point` (in 1/256 pixels) is covered under the top-left rule (3.4.2), and the screen-linear weights of
    /// the triangle's vertices there.
    // an edge function is below 2^53, so exact in f64
    fn edges_at(&self, point: [i64; 2]) -> (bool, [f64; 3]) {
        let mut inside = true;
        let mut screen = [0f64; 3];
        let area = self.area as f64;
        for ([a, b], top_left) in self.edges.into_iter().zip(self.top_left) {
            let (pa, pb) = (
                self.fixed.get(a).copied().unwrap_or_default(),
                self.fixed.get(b).copied().unwrap_or_default(),
            );
            let value = edge_function(pa, pb, point);
            inside &= value > 0 || (value == 0 && top_left);
            // the edge a -> b weighs the vertex opposite it
            let opposite = 3usize.saturating_sub(a).saturating_sub(b);
            if let Some(weight) = screen.get_mut(opposite) {
                *weight = value as f64 / area;
            }
        }
        (inside, screen)
    }

    /// The lane values at the point `offset` (in 1/256 pixel, x right, y down) from pixel (`px`, `py`)'s centre:
    /// the position there, the interpolated depth and the weights, from the triangle's plane (extrapolated where it
    /// does not cover the point). `[0, 0]` is the centre, where the walk evaluates every lane; a sample's offset
    /// ([`SamplePattern::offset_256`]) gives its per-sample depth and sample-frequency attributes (3.5.4, 16.4), the
    /// centroid's its centroid attributes (3.5.5).
    // the values are float32 by definition
    pub fn lane_at(&self, px: i64, py: i64, offset: [i64; 2]) -> Lane {
        let point = self.point(px, py, offset);
        let (_, snapped) = self.edges_at(point);
        let screen = self
            .unsnapped
            .and_then(|corners| unsnapped_weights(corners, point))
            .unwrap_or(snapped);
        let [b0, b1, b2] = screen;
        let [i0, i1, i2] = self.inv_w;
        let over_w = [b0 * i0, b1 * i1, b2 * i2];
        let sum_over_w = over_w[0] + over_w[1] + over_w[2];
        let mut perspective = [0f64; 3];
        let mut linear = [0f64; 3];
        for k in 0..3 {
            let (Some(&p), Some(&s), Some(clip), Some(on_screen)) = (
                over_w.get(k),
                screen.get(k),
                self.clip_weights.get(k),
                self.screen_weights.get(k),
            ) else {
                continue;
            };
            let p = p / sum_over_w;
            for ((out, lin), (&c, &o)) in perspective
                .iter_mut()
                .zip(linear.iter_mut())
                .zip(clip.iter().zip(on_screen))
            {
                *out += p * c;
                *lin += s * o;
            }
        }
        let [z0, z1, z2] = self.z.map(f64::from);
        let z = (b0 * z0 + b1 * z1 + b2 * z2) as f32;
        let [min_depth, max_depth] = self.depth_range;
        // the centre is px + 0.5 exactly; a sample's position is a multiple of 1/16 from it, exact in float32 for
        // every pixel of the 16.8 range
        let [x, y] = point.map(|c| (c as f64 / 256.) as f32);
        Lane {
            position: [x, y, z, (1. / sum_over_w) as f32],
            depth: max_depth.min(min_depth.max(z)),
            perspective,
            linear,
        }
    }
}

/// The screen-linear weights of the unsnapped `corners` (in 1/256 pixels) at `point`: each vertex's the signed area
/// of the triangle the point makes with the other two over the whole triangle's, in f64. `None` when the
/// unsnapped triangle has no area (then the snapped weights serve).
fn unsnapped_weights(corners: [[f64; 2]; 3], point: [i64; 2]) -> Option<[f64; 3]> {
    let edge = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let [v0, v1, v2] = corners;
    let p = point.map(|c| c as f64);
    let area = edge(v0, v1, v2);
    (area != 0. && area.is_finite()).then(|| [edge(v1, v2, p) / area, edge(v2, v0, p) / area, edge(v0, v1, p) / area])
}

/// The pixels one of whose sample positions lies within the bounding box of the snapped positions `fixed`: a pixel
/// `px` whose centre `px * 256 + 128`, moved by the pattern's least to greatest x offset (`extent[0]`, in 1/256
/// pixel), reaches between the least and the greatest x (alike for y). With one sample, the pixels whose centres it
/// holds.
fn pixel_bounds(fixed: [[i64; 2]; 3], extent: [[i64; 2]; 2]) -> PixelRect {
    let along = |axis: usize| {
        let values = fixed.map(|p| p.get(axis).copied().unwrap_or_default());
        let low = values.iter().copied().min().unwrap_or_default();
        let high = values.iter().copied().max().unwrap_or_default();
        let [least, greatest] = extent.get(axis).copied().unwrap_or_default();
        // first pixel whose last sample is >= low: ceil((low - 128 - greatest) / 256); one past the last pixel whose
        // first sample is <= high: floor((high - 128 - least) / 256) + 1
        let first = low
            .saturating_sub(128)
            .saturating_sub(greatest)
            .saturating_add(255)
            .div_euclid(256);
        let end = high
            .saturating_sub(128)
            .saturating_sub(least)
            .div_euclid(256)
            .saturating_add(1);
        (first, end)
    };
    let (left, right) = along(0);
    let (top, bottom) = along(1);
    PixelRect {
        left,
        top,
        right,
        bottom,
    }
}

/// The depth bias of 15.10 for a triangle of snapped positions `fixed` and screen depths `z`, twice its signed area
/// `signed_area` (in (1/256 pixel)^2), in float32 as 15.10 asks. The slope is the plane's through the snapped
/// positions, per pixel; it is worked out in f64 and rounded to float32.
// float32 by definition; the area is below 2^53, so exact in f64
pub(super) fn depth_bias(fixed: [[i64; 2]; 3], z: [f32; 3], signed_area: i64, raster: &Rasterizer) -> f32 {
    let state = raster.state();
    let [[x0, y0], [x1, y1], [x2, y2]] = fixed.map(|p| p.map(|c| c as f64));
    let [z0, z1, z2] = z.map(f64::from);
    let (dz1, dz2) = (z1 - z0, z2 - z0);
    // the plane z = a x + b y + c through the three points, x and y in 1/256 pixels: times 256 per pixel
    let det = signed_area as f64;
    let dz_dx = ((dz1 * (y2 - y0) - dz2 * (y1 - y0)) * 256. / det) as f32;
    let dz_dy = (((x1 - x0) * dz2 - (x2 - x0) * dz1) * 256. / det) as f32;
    // a triangle of no snapped area (which only wireframe draws: 15.13) has no slope
    let max_slope = if signed_area == 0 {
        0.
    } else {
        dz_dx.abs().max(dz_dy.abs())
    };
    // only multiplied when non-zero, so that an edge-on triangle's infinite slope makes no 0 * inf NaN (15.10)
    let slope_scaled = if state.slope_scaled_depth_bias != 0. {
        state.slope_scaled_depth_bias * max_slope
    } else {
        0.
    };
    let r = match raster.depth_format {
        DepthFormat::Unorm { bits } => (-f64::from(bits)).exp2() as f32,
        DepthFormat::Float => {
            let largest = z.iter().map(|v| v.abs()).fold(0f32, f32::max);
            // the exponent field less its bias; zero and denormals read -127, which makes r 2^-150, 0 in float32
            let exponent = i32::from(((largest.to_bits() >> 23) & 0xff) as u8).saturating_sub(127);
            f64::from(exponent.saturating_sub(23)).exp2() as f32
        }
    };
    let bias = state.depth_bias as f32 * r + slope_scaled;
    let clamp = state.depth_bias_clamp;
    if clamp > 0. {
        bias.min(clamp)
    } else if clamp < 0. {
        bias.max(clamp)
    } else {
        bias
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::unsnapped_weights;

    #[test]
    fn unsnapped_weights_are_the_areas_opposite_each_vertex_over_the_whole() {
        // the triangle (0, 0), (1, 0), (0, 1) pixels, in 1/256 pixels; at (0.25, 0.25): the vertex at the origin
        // weighs the area of the triangle the point makes with the other two, 1 - 0.25 - 0.25 = 0.5, the others 0.25
        let corners = [[0.0, 0.0], [256.0, 0.0], [0.0, 256.0]];
        assert_eq!(unsnapped_weights(corners, [64, 64]).unwrap(), [0.5, 0.25, 0.25]);
        // wound the other way, the same weights
        let reversed = [[0.0, 0.0], [0.0, 256.0], [256.0, 0.0]];
        assert_eq!(unsnapped_weights(reversed, [64, 64]).unwrap(), [0.5, 0.25, 0.25]);
        // off the 1/256 grid: x 0.3 pixels = 76.8 units; at (0.15, 0) halfway along the bottom edge
        let off = [[0.0, 0.0], [76.8, 0.0], [0.0, 256.0]];
        let w = unsnapped_weights(off, [38, 0]).unwrap();
        assert!((w[1] - 38.0 / 76.8).abs() < 1e-12 && w[2] == 0.0, "{w:?}");
        // no area: None
        assert_eq!(unsnapped_weights([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [1, 1]), None);
    }
}
